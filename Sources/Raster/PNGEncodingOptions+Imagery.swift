extension PNGEncodingOptions {
    /// For tiles of raster imagery (maps with raster layers): photographs and shaded relief
    /// have few repeated runs for zlib to match and smooth gradients a filter turns into small
    /// residuals, unlike vector map tiles. On tiles of the raster benchmark's imagery
    /// (scripts/bench-raster.sh, zoom 13) zlib level 6 gave, by filter: sub 336 KB, up 347,
    /// paeth 354, average 368, none 394 (level 3: sub 389, none 455; gdal2tiles's own PNGs of
    /// the same tiles 387 KB). Against the map-tile default (unfiltered, libdeflate level 5),
    /// on 168 zoom-13 tiles of that imagery (bbox 6.3,45.9,6.8,46.3): 6,842,718 bytes filtered
    /// against 8,086,020, 15% smaller.
    ///
    /// The sub filter is applied here and the rows compressed by libdeflate at level 6, not by
    /// libpng and zlib: on the benchmark raster's 162 tiles of zoom 10-11 (one worker) zlib
    /// level 6 was about half the CPU time of the whole pyramid; libdeflate level 6 on the
    /// same sub-filtered rows took 2.4 times fewer samples (perf) and wrote 5,169,610 bytes
    /// against zlib's 5,066,441 (+2%; gdal2tiles 5,534,157). On the 97 opaque ones of those
    /// tiles, libdeflate levels 4, 5, 6, 7 gave 3,924,425, 3,869,922, 3,716,553 and 3,536,227
    /// bytes, level 5 in 0.6 times level 6's time, level 9 in 12 times. Palette tiles keep
    /// the map tiles' choice.
    public static var imagery: PNGEncodingOptions {
        var options = PNGEncodingOptions()
        options.truecolour = PNGCompression(filter: .sub, level: 6, strategy: .default, deflater: .libdeflate)
        return options
    }
}
