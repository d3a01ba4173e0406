import Geodesy
import MapModel
import Raster

/// Renders a loaded map into views. One renderer per worker thread: it owns its text engine
/// (Pango is not thread-safe) and its label placement caches. The map itself is shared.
public final class MapRenderer {
    public let map: LoadedMap
    private let fonts: FontConfiguration
    /// Also lays out page text (sheets), in the map's fonts.
    let text: TextEngine
    /// Label placements by resolution; a tile job renders many views at each zoom.
    private var labelSpaces: [LabelSpace] = []
    /// The most estimated bytes of label placement kept between renders, over all resolutions.
    public var labelPlacementBudget = 64 << 20
    /// Told of long label placements (see `LabelStage`), so that progress can show them.
    public var labelStage: (@Sendable (LabelStage) -> Void)?
    /// The grid overlay, with its label sprites kept between renders.
    private lazy var gridRenderer = GridRenderer(text: text)
    /// The icons and patterns the map draws.
    let images: ImageLibrary
    /// This worker's readers of the map's sources.
    let readers: LayerReaders
    /// This worker's readers of the map's raster layers.
    let rasters: RasterLayers
    /// The surface `withRenderedPixels` draws into, kept from one block to the next: zeroing a
    /// new 16 MB metatile surface for each block was 5% of a pyramid's instructions.
    private var blockSurface: CairoSurface?
    /// The memory under `blockSurface`, kept at the size of the largest block so far: a
    /// block of another size gets a surface over it, not new memory (`PixelMemory`).
    private var blockPixels: PixelMemory?
    /// The least memory taken for blocks: an 8 x 8 metatile of 256-pixel tiles.
    static let blockPixelsReserve = 2048 * 2048 * 4

    public init(map: LoadedMap) throws {
        self.map = map
        LibraryWarnings.install()
        MallocTuning.install()
        readers = LayerReaders(map: map)
        rasters = RasterLayers(map: map)
        fonts = try FontConfiguration(document: map.document)
        text = TextEngine(fonts: fonts, measures: TextMeasures.shared(by: map))
        images = try ImageLibrary(document: map.document)
        for code in map.document.grids.compactMap(\.crs) { _ = try GridCRSPlanes.plane(code) }
    }

    /// Draws the whole map for `view` into a context whose user units are the view's pixels.
    /// `margin` (pixels) widens the feature query beyond the symbols' own reach, like a
    /// metatile buffer.
    ///
    /// With `tileSize`, the view is a block of tiles and is drawn one tile at a time, each
    /// under its own clip. Cairo's rasteriser depends slightly on the extent it works in
    /// (where it starts stepping along edges, where it cuts them), so a tile drawn as part
    /// of a 2x2 block and as part of an 8x8 block would differ by a level here and there;
    /// drawn in its own extent, a tile has the same bytes whatever block it belongs to.
    ///
    /// The grids, when the map has any and `grid` is true, go over features and labels: each is
    /// generated once for the view, their lines are stroked region by region with the rest (so a
    /// tile's lines, too, depend on the tile alone), grid after grid in document order, and
    /// their labels are drawn last, over every grid's lines.
    ///
    /// `inChunks`: a layer may be drawn a chunk at a time as it is read (`LayerChunks`), for a
    /// context that can be cleared and drawn again (an image surface), which happens once per
    /// source and worker when a source is found out of order.
    func draw(
        view: View, into context: CairoContext, margin: Double = 0, tileSize: Int? = nil, grid showsGrid: Bool = true,
        inChunks: Bool = false
    ) throws {
        do {
            try drawOnce(
                view: view, into: context, margin: margin, tileSize: tileSize, grid: showsGrid, inChunks: inChunks)
        } catch let outOfOrder as LayerChunks.OutOfOrder where inChunks {
            unorderedSources.insert(outOfOrder.source)
            featuresHeld = 0
            context.clear()
            try draw(view: view, into: context, margin: margin, tileSize: tileSize, grid: showsGrid, inChunks: inChunks)
        }
    }

    /// Sources whose reader was found to read out of index order: drawn whole (`LayerChunks`).
    private(set) var unorderedSources: Set<ObjectIdentifier> = []
    /// Estimated bytes of a layer's features held before they are drawn, when drawn in chunks.
    var layerChunkBytes = LayerChunks.defaultBytes

    private func drawOnce(
        view: View, into context: CairoContext, margin: Double, tileSize: Int?, grid showsGrid: Bool, inChunks: Bool
    ) throws {
        context.save()
        context.setColor(map.document.background)
        context.paint()
        context.restore()
        text.beginView()
        let grids = showsGrid ? preparedGrids(view: view) : []
        let whole = view.globalBounds
        // Labels are placed after the layers are drawn (they are drawn over them), so that a
        // view never holds a layer and its label placement at once; the placement kept for
        // other resolutions goes now, not when this one's is made.
        if !labelSpaces.contains(where: { $0.serves(view) }) { retireLabelSpaces() }

        // The regions drawn, each under its own clip when the view is a block of tiles.
        // `corner`: the region's top-left in image pixels.
        var regions = [(region: whole, corner: PlanePoint(x: 0, y: 0))]
        let tiled: Bool
        if let tileSize, view.width % tileSize == 0, view.height % tileSize == 0,
            view.width > tileSize || view.height > tileSize
        {
            tiled = true
            regions = []
            for row in 0..<(view.height / tileSize) {
                for column in 0..<(view.width / tileSize) {
                    let x = Double(column * tileSize)
                    let y = Double(row * tileSize)
                    let region = Rect(
                        minX: view.originX + x, minY: view.originY + y,
                        maxX: view.originX + x + Double(tileSize), maxY: view.originY + y + Double(tileSize))
                    regions.append((region, PlanePoint(x: x, y: y)))
                }
            }
        } else {
            tiled = false
        }
        func clipped(_ corner: PlanePoint, _ body: () -> Void) {
            guard tiled, let tileSize else { return body() }
            context.save()
            context.rectangle(corner.x, corner.y, Double(tileSize), Double(tileSize))
            context.clip()
            body()
            context.restore()
        }
        // Regions nothing is drawn in beyond the background (see `plainRegions`).
        plainRegions = []
        var plain = [Bool](repeating: grids.isEmpty, count: regions.count)
        // Layer by layer: only one layer's features are held at a time, and each is drawn in
        // every region before the next is read. A region's pixels depend only on what is drawn
        // under its own clip, in the same order as when it was drawn all at once.
        // A layer drawn in chunks (`LayerChunks`) comes here a chunk at a time, in order.
        func drawHeld(_ content: MapContent.LayerContent) {
            var layer = content
            if tiled, let tileSize {
                layer.paths = layer.pixelPaths(view: view, tileSize: tileSize, budget: pixelPartsBudget)
            }
            featuresHeld = layer.held.count
            peakLabelBytesWhileDrawingLayers = max(peakLabelBytesWhileDrawingLayers, labelCacheBytes)
            peakFeaturesHeld = max(peakFeaturesHeld, featuresHeld)
            peakBytesHeld = max(peakBytesHeld, layer.held.estimatedBytes)
            let perTile = tiled ? layer.within(regions.map(\.region), columns: view.width / (tileSize ?? 1)) : nil
            for (index, (region, corner)) in regions.enumerated() {
                let marks = context.marks
                clipped(corner) {
                    paint(perTile?[index] ?? layer, view: view, region: region, into: context)
                }
                if context.marks != marks { plain[index] = false }
                layer.paths?.finish(tile: index)
            }
            peakPixelPartsKept = max(peakPixelPartsKept, layer.paths?.keptCount ?? 0)
            peakPixelPartsBytes = max(peakPixelPartsBytes, layer.paths?.mostBytes ?? 0)
            featuresHeld = 0
        }
        for index in map.document.layers.indices {
            let chunks = inChunks && !unorderedSources.contains(ObjectIdentifier(map.sources[index]))
            guard
                let layer = try MapContent.layer(
                    index, renderer: self, view: view, region: whole, margin: margin,
                    drawingChunks: chunks ? drawHeld : nil)
            else { continue }
            drawHeld(layer)
        }
        let labels = try self.labels(view: view, grids: grids)
        defer { grids.first?.drawing.drawLabels(labels.grid, into: context, painter: gridRenderer.labelPainter) }
        let content = MapContent(labels: labels.map)
        for (index, (region, corner)) in regions.enumerated() {
            let placed = tiled ? content.within(region) : content
            if !placed.labels.isEmpty { plain[index] = false }
            clipped(corner) {
                draw(placed, view: view, into: context)
                for grid in grids { grid.drawing.drawLines(in: region, into: context) }
            }
        }
        plainRegions = plain
    }

    /// For each region of the last view drawn (its tiles, row by row, when drawn as a block of
    /// tiles; else the whole view), whether nothing but the background was drawn in it: its
    /// pixels are then all one colour, which a tile job knows without reading them.
    public private(set) var plainRegions: [Bool] = []

    /// Features of one layer held by the drawing now, and the most held at once since the
    /// renderer was made: what bounds a view's memory (see `draw`).
    private(set) var featuresHeld = 0
    private(set) var peakFeaturesHeld = 0
    /// The most estimated bytes of one layer's features held at once, and the most geometries
    /// whose pixel parts were kept for a block's tiles (see `LayerContent.pixelPaths`).
    private(set) var peakBytesHeld = 0
    private(set) var peakPixelPartsKept = 0
    /// The most estimated bytes of pixel parts kept at once for a block's tiles, under
    /// `pixelPartsBudget`.
    private(set) var peakPixelPartsBytes = 0
    var pixelPartsBudget = PixelPaths.defaultBudget
    /// The most estimated bytes of label placement kept while a layer was drawn: placement is
    /// made after the layers, so only what earlier views left (see `draw`).
    private(set) var peakLabelBytesWhileDrawingLayers = 0

    /// Draws one layer's features (already narrowed to those that touch `region`).
    private func paint(_ layer: MapContent.LayerContent, view: View, region: Rect, into context: CairoContext) {
        if let raster = layer.raster {
            raster.paint(into: context, layer: layer.layer)
            return
        }
        var painter = FeaturePainter(context: context, view: view, region: region, images: images)
        // Features are made from the compact layer only for the batch being painted, when
        // batches draw what one call draws (`FeaturePainter.paintsInBatches`); otherwise all
        // of the region's at once.
        let slots = layer.drawnSlots
        let batch = layer.paintsInBatches ? paintBatch : max(slots.count, 1)
        var start = 0
        repeat {
            let end = min(start + batch, slots.count)
            painter.paint(
                layer: layer.layer, features: slots[start..<end].map { layer.held.feature(Int($0)) },
                scale: layer.scale, reach: layer.reach, cache: layer.paths)
            start = end
        } while start < slots.count
    }

    /// Features made and painted at once from a layer that paints in batches.
    var paintBatch = 1024

    /// Draws the markers and labels placed (already narrowed to those that touch the region):
    /// markers first, so that text goes over icons.
    private func draw(_ content: MapContent, view: View, into context: CairoContext) {
        for label in content.labels where label.isMarker { label.draw(in: context, view: view, images: images) }
        for label in content.labels where !label.isMarker { label.draw(in: context, view: view, images: images) }
    }

    /// What a region of a view shows: one visible layer's features at a time (in file order,
    /// with their bounds in global pixels and the rules that draw them), and the placed
    /// labels, found once for a whole block of tiles and then narrowed tile by tile.
    struct MapContent {
        struct LayerContent {
            let layer: Layer
            let scale: SymbolScale
            /// How far the layer's symbols reach beyond their geometry, in pixels.
            let reach: Double
            /// The view's features of the layer, in drawing order (a feature's slot is its
            /// position there).
            let held: HeldLayer
            /// The slots drawn, ascending; nil for all of them. 32 bits: each tile of a block
            /// lists the slots it draws, and a whole-world block at zoom 3 holds hundreds of
            /// thousands of shoreline pieces, most in more than one of its 64 tiles.
            var slots: [UInt32]? = nil
            /// The slots drawn, all of them when `slots` is nil.
            var drawnSlots: [UInt32] { slots ?? Array(0..<UInt32(held.count)) }
            /// Whether `held` may be painted a batch at a time (see `MapRenderer.paint`).
            var paintsInBatches = false
            /// A raster layer's image of the whole view.
            var raster: RasterPicture? = nil
            /// The features' parts in pixels, shared by the tiles of a block.
            var paths: PixelPaths? = nil

            /// A cache of pixel parts for the tiles of a block (`tileSize` a side), drawn row
            /// by row: with the parts of the features more than one tile draws, each until the
            /// last tile that draws it (or all, for a layer of more than one pass).
            func pixelPaths(view: View, tileSize: Int, budget: Int = PixelPaths.defaultBudget) -> PixelPaths {
                guard paintsInBatches else { return PixelPaths(budget: budget) }
                let size = Double(tileSize)
                let columns = Double(view.width / tileSize)
                let rows = Double(view.height / tileSize)
                let held = held
                let reach = reach + 1  // more than `within` needs: keeping a part costs memory only
                return PixelPaths(budget: budget) { slot in
                    let area = held.bounds[slot].expanded(by: reach)
                    let column = ((area.minX - view.originX) / size).rounded(.down)
                    let row = ((area.minY - view.originY) / size).rounded(.down)
                    let lastColumn = ((area.maxX - view.originX) / size).rounded(.down)
                    let lastRow = ((area.maxY - view.originY) / size).rounded(.down)
                    guard column != lastColumn || row != lastRow else { return nil }
                    // The last tile in drawing order: its bottom-right one inside the block.
                    guard lastColumn.isFinite, lastRow.isFinite else { return Int.max }
                    let c = min(max(lastColumn, 0), columns - 1)
                    let r = min(max(lastRow, 0), rows - 1)
                    return Int(r * columns + c)
                }
            }

            /// The part that touches a smaller region: the same choice a query for that region
            /// alone would make, so a tile's content does not depend on its block.
            func within(_ region: Rect) -> LayerContent {
                let area = region.expanded(by: reach)
                var narrowed = self
                narrowed.slots = drawnSlots.filter {
                    held.bounds[Int($0)].intersects(area)
                }
                return narrowed
            }

            /// `within` for each tile of a block at once: `tiles`, equal squares side by side,
            /// `columns` to a row, row after row. A slot is tested only against the tiles its
            /// bounds come near, not against all 64 of an 8x8 block (whose layers hold some
            /// 20,000 shoreline pieces at zoom 5), and gets the same answer `within` gives.
            func within(_ tiles: [Rect], columns: Int) -> [LayerContent] {
                guard let first = tiles.first, columns > 0, tiles.count % columns == 0 else {
                    return tiles.map { within($0) }
                }
                let rows = tiles.count / columns
                let size = first.width
                var lists = Array(repeating: [UInt32](), count: tiles.count)
                // A tile's index range along one axis for [low, high], a pixel wider than the
                // test below needs; nil when the range misses every tile.
                func span(_ low: Double, _ high: Double, _ origin: Double, _ count: Int) -> ClosedRange<Int>? {
                    let a = ((low - reach - 1 - origin) / size).rounded(.down)
                    let b = ((high + reach + 1 - origin) / size).rounded(.down)
                    guard a.isFinite, b.isFinite else { return 0...(count - 1) }
                    guard b >= 0, a < Double(count) else { return nil }
                    return Int(max(a, 0))...Int(min(b, Double(count - 1)))
                }
                for slot in drawnSlots {
                    let bounds = held.bounds[Int(slot)]
                    guard let cs = span(bounds.minX, bounds.maxX, first.minX, columns),
                        let rs = span(bounds.minY, bounds.maxY, first.minY, rows)
                    else { continue }
                    for row in rs {
                        for column in cs where bounds.intersects(tiles[row * columns + column].expanded(by: reach)) {
                            lists[row * columns + column].append(slot)
                        }
                    }
                }
                return lists.map { list in
                    var narrowed = self
                    narrowed.slots = list
                    return narrowed
                }
            }
        }

        let labels: [LabelCandidate]

        /// Layer `index` as `view` draws it in `region`; nil when it draws nothing there.
        /// With `drawChunk`, a layer that may be drawn in chunks (`LayerChunks`) is handed to it
        /// a chunk at a time as it is read, each chunk past `renderer.layerChunkBytes`, and only
        /// the last chunk is returned.
        static func layer(
            _ index: Int, renderer: MapRenderer, view: View, region: Rect, margin: Double,
            drawingChunks drawChunk: ((LayerContent) -> Void)? = nil
        ) throws -> LayerContent? {
            let document = renderer.map.document
            let layer = document.layers[index]
            guard layer.isVisible(atScale: view.scale) else { return nil }
            if layer.raster != nil {
                guard let picture = try renderer.rasters.picture(layer: index, view: view) else { return nil }
                return LayerContent(
                    layer: layer, scale: SymbolScale(layer: layer, map: document, view: view), reach: 0,
                    held: HeldLayer(), raster: picture)
            }
            // A marker taking part in placement is drawn with the labels, not here: a rule with
            // nothing else draws no feature in this pass, so its features are not held for it.
            let active = layer.rules(atScale: view.scale).filter { index in
                let rule = layer.rules[index]
                return rule.fill != nil || !rule.lines.isEmpty || rule.marker.map { !$0.takesPartInPlacement } == true
            }
            guard !active.isEmpty else { return nil }
            // Geometry is drawn simplified to this resolution (see `Generaliser`).
            let pixel = GeneralisedFeatures.pixel(of: view)
            let scale = SymbolScale(layer: layer, map: document, view: view)
            let reach = max(margin, FeaturePainter.symbolReach(layer, scale, renderer.images))
            var held = HeldLayer()
            // Drawing reads only these attributes; the rest are not kept.
            let drawn = Set(active.flatMap { layer.rules[$0].drawnAttributeNames })
            let area = view.mercatorBounds(ofGlobalPixels: region.expanded(by: reach))
            let source = renderer.map.sources[index]
            let chunks = drawChunk != nil && LayerChunks.apply(to: layer, active: active, kinds: source.geometryKinds)
            // The largest index drawn so far, when drawn in chunks.
            var drawnUpTo: Int?
            // One feature at a time, kept generalised and compact: a view of the whole world
            // does not hold every vertex of a large source at once, nor a `Feature` per feature.
            try renderer.readers.visitFeatures(layer: index, in: area, generalisedFor: pixel) { read in
                if let drawnUpTo, read.index < drawnUpTo {
                    throw LayerChunks.OutOfOrder(source: ObjectIdentifier(source))
                }
                if let filter = layer.filter, !filter.matches(read.properties, zoom: scale.zoom) { return }
                let rules = layer.matchingRules(active, read.properties, zoom: scale.zoom)
                guard !rules.isEmpty,
                    var feature = renderer.readers.generalised(layer: index, read, pixel: pixel, area: area)
                else { return }
                if feature.properties.entries.contains(where: { !drawn.contains($0.key) }) {
                    feature = Feature(
                        index: feature.index, geometries: feature.geometries,
                        properties: Properties(feature.properties.entries.filter { drawn.contains($0.key) }))
                }
                held.append(feature, pixelBounds: MapContent.pixelBounds(feature.bounds, view), rules: rules)
                if chunks, let drawChunk, held.estimatedBytes >= renderer.layerChunkBytes {
                    drawnUpTo = max(drawnUpTo ?? Int.min, held.largestIndex)
                    held.finish()
                    drawChunk(
                        LayerContent(layer: layer, scale: scale, reach: reach, held: held, paintsInBatches: true))
                    held = HeldLayer()
                }
            }
            held.finish()
            return LayerContent(
                layer: layer, scale: scale, reach: reach, held: held,
                paintsInBatches: FeaturePainter.paintsInBatches(layer, rules: held.rules, kinds: held.kinds))
        }

        /// The labels that touch a smaller region.
        func within(_ region: Rect) -> MapContent {
            MapContent(labels: labels.filter { $0.box.intersects(region) })
        }

        /// Bounds of Web Mercator bounds in global pixels (corners suffice in Web Mercator;
        /// in another plane the walked edges give a close enough box for culling).
        static func pixelBounds(_ bounds: Rect, _ view: View) -> Rect {
            guard view.plane != nil else { return view.transform.global(bounds) }
            return bounds.boundsOfEdges(steps: 2, under: view.globalPixel).expanded(by: 1)
        }
    }

    /// The map labels and the grid labels `view` draws, as `draw` draws them.
    func placedLabels(view: View) throws -> (map: [LabelCandidate], grid: [GridLabelCandidate]) {
        try labels(view: view, grids: preparedGrids(view: view))
    }

    /// The map's visible grids that draw something in `view`, in document order.
    private func preparedGrids(view: View) -> [(settings: GridSettings, drawing: GridDrawing)] {
        map.document.visibleGrids.compactMap { settings in
            gridRenderer.prepare(settings, view: view).map { (settings, $0) }
        }
    }

    /// The map labels and the grid labels `view` draws: one collision space, in which each
    /// grid's `labelPriority` says which give way, and a later grid's labels give way to an
    /// earlier grid's (`GridLabelStack`).
    private func labels(view: View, grids: [(settings: GridSettings, drawing: GridDrawing)]) throws -> (
        map: [LabelCandidate], grid: [GridLabelCandidate]
    ) {
        let whole = view.globalBounds
        let labelled = grids.filter(\.settings.labelsVisible)
        guard !labelled.isEmpty else { return (try placedLabels(in: whole, space: labelSpace(for: view)), []) }
        // Tiles take their grid labels from regions shared by every metatile at the zoom;
        // a single image places its own, against its edges.
        let stack = view.isTileBlock ? gridRenderer.labelStack(labelled.map(\.settings), view: view) : nil
        let perGrid = stack?.drawn(near: whole) ?? GridLabelStack.kept(labelled.map(\.drawing.labels))
        let first = zip(labelled, perGrid).filter { $0.0.settings.labelPriority == .grid }.flatMap(\.1)
        let space: LabelSpace
        if let stack, labelled.contains(where: { $0.settings.labelPriority == .grid }) {
            space = labelSpace(for: view, obstacles: stack)
        } else if stack == nil, !first.isEmpty {
            space = LabelSpace(
                map: map, view: view, text: text, images: images, readers: readers,
                obstacles: ObstacleList(first.map(\.box)))
        } else {
            space = labelSpace(for: view)
        }
        let mapLabels = try placedLabels(in: whole, space: space)
        var drawn: [GridLabelCandidate] = []
        for (grid, labels) in zip(labelled, perGrid) {
            guard grid.settings.labelPriority == .map, !labels.isEmpty else {
                drawn += labels
                continue
            }
            // Labels of a grid that gives way are left out where a map label is placed.
            let reach = labels.reduce(Rect.empty) { $0.union($1.box) }
            let blockers = try placedLabels(in: reach, space: space).map(\.placement).filter { !$0.ignorePlacement }
            drawn += labels.filter { label in !blockers.contains { $0.overlaps(label.box) } }
        }
        return (mapLabels, drawn)
    }

    /// The placed labels touching `rect`, reporting a long placement and keeping the cache
    /// within its budget.
    private func placedLabels(in rect: Rect, space: LabelSpace) throws -> [LabelCandidate] {
        let scale = space.view.scale
        let labels = try space.placedLabels(
            in: rect,
            progress: labelStage.map { stage in { stage(LabelStage(scale: scale, evaluated: $0)) } })
        // Older resolutions go first, then the least recently used parts of this one.
        var total = labelSpaces.reduce(0) { $0 + $1.cachedBytes }
        while total > labelPlacementBudget, labelSpaces.count > 1, labelSpaces[0] !== space {
            total -= labelSpaces.removeFirst().cachedBytes
        }
        if total > labelPlacementBudget { space.trim(toBytes: labelPlacementBudget) }
        return labels
    }

    /// Estimated bytes of label placement kept now, over all resolutions.
    var labelCacheBytes: Int { labelSpaces.reduce(0) { $0 + $1.cachedBytes } }

    /// Before a view at a new resolution: a tile job does not come back to the others (it goes
    /// zoom by zoom), so what they keep only adds to the new one's peak; `serve`, which moves
    /// between zooms, keeps the most recent within an eighth of the budget.
    private func retireLabelSpaces() {
        var older = labelCacheBytes
        while older > labelPlacementBudget / 8, let first = labelSpaces.first {
            older -= first.cachedBytes
            labelSpaces.removeFirst()
        }
    }

    /// The label space of `view`'s resolution (and obstacles), made once and kept.
    func labelSpace(for view: View, obstacles: (any LabelObstacles)? = nil) -> LabelSpace {
        if let index = labelSpaces.firstIndex(where: { $0.serves(view) && $0.obstacles === obstacles }) {
            // The most recently used goes last: the first is dropped first.
            let space = labelSpaces.remove(at: index)
            labelSpaces.append(space)
            return space
        }
        retireLabelSpaces()
        // Without obstacles (a grid's labels, this worker's own), placement is shared with
        // the map's other workers (`PlacementShare`).
        let space = LabelSpace(
            map: map, view: view, text: text, images: images, readers: readers, obstacles: obstacles,
            sharing: obstacles == nil)
        labelSpaces.append(space)
        if labelSpaces.count > 4 { labelSpaces.removeFirst() }
        return space
    }

    /// Renders `view` to an image. `margin` (pixels) widens the feature query, like a
    /// metatile buffer: features that far outside the view are drawn too. With `tileSize`
    /// the view is a block of tiles, drawn tile by tile (see `draw`).
    public func renderImage(view: View, margin: Double = 0, tileSize: Int? = nil) throws -> Image {
        let surface = try renderSurface(view: view, margin: margin, tileSize: tileSize)
        return try surface.withPixels { pixels in
            try Image(cairoARGB32: pixels, width: surface.width, height: surface.height, stride: surface.stride)
        }
    }

    /// Renders `view` as `renderImage` does and hands `body` the pixels as Cairo keeps them,
    /// without converting them: native-endian 32-bit words 0xAARRGGBB, colour premultiplied by
    /// alpha, rows `stride` bytes apart (what `Image(cairoARGB32:)` reads). The buffer is valid
    /// during the call only: the next render draws into the same one. A tile job cuts, hashes
    /// and compares tiles in this form and converts only those it has not encoded before.
    public func withRenderedPixels<T>(
        view: View, margin: Double = 0, tileSize: Int? = nil,
        _ body: (_ pixels: UnsafeRawBufferPointer, _ width: Int, _ height: Int, _ stride: Int) throws -> T
    ) throws -> T {
        let surface = try blockSurface(width: view.width, height: view.height)
        let context = CairoContext(surface)
        // An opaque background replaces every pixel of the last block (or whatever the memory
        // held); anything else is drawn over it, so the surface is cleared to transparent first.
        if map.document.background.alpha < 1 { context.clear() }
        try draw(view: view, into: context, margin: margin, tileSize: tileSize, inChunks: true)
        try context.checkStatus()
        return try surface.withPixels { try body($0, surface.width, surface.height, surface.stride) }
    }

    /// The surface of a block of this size: the last block's, or a new one over the memory
    /// kept for blocks (`blockPixels`), taken anew only for a block larger than any before.
    private func blockSurface(width: Int, height: Int) throws -> CairoSurface {
        if let kept = blockSurface, kept.width == width, kept.height == height { return kept }
        blockSurface = nil
        if let pixels = blockPixels, let surface = try CairoSurface.image(width: width, height: height, in: pixels) {
            blockSurface = surface
            return surface
        }
        blockPixels = nil  // the old memory is freed before the new one is taken
        // At least a metatile of 8 x 8 tiles' worth, in address space: pages are only taken
        // when drawn on, so a pyramid whose blocks grow zoom by zoom (the range cut short at
        // low zooms) fills one mapping, not a larger one for each new size.
        let bytes = Swift.max(CairoSurface.imageByteCount(width: width, height: height), Self.blockPixelsReserve)
        let pixels = PixelMemory(byteCount: bytes)
        guard let surface = try CairoSurface.image(width: width, height: height, in: pixels) else {
            throw RenderError.cairo("cannot create a \(width)x\(height) image")
        }
        blockPixels = pixels
        blockSurface = surface
        return surface
    }

    /// Renders `view` to an ARGB32 image surface.
    func renderSurface(view: View, margin: Double = 0, tileSize: Int? = nil) throws -> CairoSurface {
        let surface = try CairoSurface.image(width: view.width, height: view.height)
        let context = CairoContext(surface)
        try draw(view: view, into: context, margin: margin, tileSize: tileSize, inChunks: true)
        try context.checkStatus()
        return surface
    }
}
