extension PNGEncodingOptions {
    /// For tiles of raster imagery (maps with raster layers): photographs and shaded relief
    /// have few repeated runs for zlib to match and smooth gradients a filter turns into small
    /// residuals, unlike vector map tiles. On tiles of the raster benchmark's imagery
    /// (scripts/bench-raster.sh, zoom 13) zlib level 6 gave, by filter: sub 336 KB, up 347,
    /// paeth 354, average 368, none 394 (level 3: sub 389, none 455; gdal2tiles's own PNGs of
    /// the same tiles 387 KB). Against the map-tile default (unfiltered, libdeflate level 5),
    /// on 168 zoom-13 tiles of that imagery (bbox 6.3,45.9,6.8,46.3): 6,842,718 bytes filtered
    /// against 8,086,020, 15% smaller.
    public static var imagery: PNGEncodingOptions {
        var options = PNGEncodingOptions()
        // Filtered rows go through libpng and zlib (libdeflate takes unfiltered rows only);
        // palette tiles keep the measured libdeflate choice.
        options.truecolour = PNGCompression(filter: .sub, level: 6, strategy: .default, deflater: .zlib)
        return options
    }
}
