// swift-tools-version:6.0
// Meridian: a headless raster map renderer. Dependencies point down:
// meridian -> Serve, Tiles, Sheets -> Render -> DataSources, Grids, MapModel, Raster -> Geodesy.
// Only Debian's C libraries are used; no remote packages (they cannot be fetched here).
import Foundation
import PackageDescription

// The library modules are optimised in the debug build too: the suite runs their code in
// process and through the `meridian` binary hundreds of times, and unoptimised it spent 2.5
// times the CPU (CONTRIBUTING.md, "Building and testing").
let optimised: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// The file name to open a library by at run time, as a C string literal: where the
/// development symlink (`libgdal.so`, from libgdal-dev) points, its soname (`libgdal.so.32`),
/// the only name the runtime package (libgdal32) installs. Falls back to the symlink's own name.
func soname(_ library: String) -> String {
    let link = "lib\(library).so"
    #if arch(arm64)
        let multiarch = "aarch64-linux-gnu"
    #else
        let multiarch = "x86_64-linux-gnu"
    #endif
    let directories = ["/usr/local/lib", "/usr/lib/" + multiarch, "/usr/lib64", "/usr/lib"]
    for directory in directories {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + link) {
            return "\"\((target as NSString).lastPathComponent)\""
        }
    }
    return "\"\(link)\""
}

let package = Package(
    name: "Meridian",
    products: [
        .executable(name: "meridian", targets: ["meridian"])
    ],
    targets: [
        // System libraries, one module each, found through pkg-config.
        .systemLibrary(
            name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(
            name: "CPango", path: "Sources/CPango", pkgConfig: "pangoft2",
            providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(
            name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CDeflate", path: "Sources/CDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(
            name: "CXXHash", path: "Sources/CXXHash", pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"])]),
        // SVG icons and fill patterns.
        .systemLibrary(
            name: "CRSVG", path: "Sources/CRSVG", pkgConfig: "librsvg-2.0",
            providers: [.apt(["librsvg2-dev"])]),
        .systemLibrary(
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        // GDAL and PROJ are not linked but opened on first use (dlopen): with their dependencies
        // they were 147 libraries to load at every start, for maps that may not need them. Each
        // module has the library's headers and a table of its functions; a direct call to GDAL
        // or PROJ fails to link. The soname to open is the one the build finds.
        .target(name: "CLibraryLoader", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "CGDAL", dependencies: ["CLibraryLoader"],
            cSettings: [.define("MERIDIAN_GDAL_SONAME", to: soname("gdal"))]),
        .target(
            name: "CPROJ", dependencies: ["CLibraryLoader"],
            cSettings: [.define("MERIDIAN_PROJ_SONAME", to: soname("proj"))]),
        // Small C kernels in headers, nothing to link: cache hints (prefetch.h), truncation
        // (truncate.h) and the encoder's SIMD pixel loops (rgbrows.h, colourruns.h).
        .systemLibrary(name: "CPrefetch", path: "Sources/CPrefetch"),

        // Pure Swift.
        .target(name: "Geodesy", swiftSettings: optimised),
        // Reading inputs: regular files only, sizes and line lengths bounded (docs/limits.md).
        .target(name: "FileInput", swiftSettings: optimised),
        .target(name: "MapModel", dependencies: ["Geodesy", "FileInput"], swiftSettings: optimised),
        .target(name: "Grids", dependencies: ["Geodesy"], swiftSettings: optimised),
        // SQLite connections and statements: MBTiles files are written and read, GeoPackage
        // tables read, through this one wrapper.
        .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: optimised),
        // Feature sources over GDAL/OGR (files, PostGIS) reprojected with PROJ: the only module
        // that sees GDAL's and PROJ's C types.
        .target(
            name: "DataSources", dependencies: ["MapModel", "Geodesy", "CGDAL", "CPROJ", "SQLite"],
            swiftSettings: optimised),
        // libpng reports errors by longjmp, which Swift cannot catch: this small C target holds
        // the setjmp-guarded calls and turns them into status codes.
        .target(name: "CPNGCodec", dependencies: ["CPNG"]),
        // Images in memory; PNG through libpng (libdeflate compresses the image data of the PNGs
        // we write), WebP through libwebp, JPEG through libturbojpeg.
        .target(
            name: "Raster", dependencies: ["CPNGCodec", "CDeflate", "CWebP", "CTurboJPEG", "CPrefetch", "FileInput"],
            swiftSettings: optimised),
        .target(name: "ImageDiff", dependencies: ["Raster"], swiftSettings: optimised),
        .target(
            name: "Render",
            dependencies: [
                "DataSources", "MapModel", "Grids", "Geodesy", "Raster", "FileInput", "CCairo", "CPango", "CRSVG",
                "CPrefetch",
            ], swiftSettings: optimised),
        .target(
            name: "Tiles",
            dependencies: [
                "Render", "MapModel", "Geodesy", "Raster", "ImageDiff", "FileInput", "SQLite", "CDeflate", "CXXHash",
            ], swiftSettings: optimised),
        .target(
            name: "Sheets", dependencies: ["Render", "DataSources", "Grids", "MapModel", "Geodesy", "Raster"],
            swiftSettings: optimised),
        // libmicrohttpd's variadic calls, which Swift cannot make, as plain C functions.
        .target(name: "CHTTPServer", dependencies: ["CMicroHTTPD"]),
        .target(
            name: "Serve", dependencies: ["Tiles", "Render", "MapModel", "Raster", "CHTTPServer"],
            swiftSettings: optimised),
        .executableTarget(
            name: "meridian",
            dependencies: [
                "Geodesy", "MapModel", "DataSources", "Grids", "Render", "Tiles", "Sheets", "Serve", "ImageDiff",
                "Raster", "FileInput",
            ]),

        // `make bench`: micro-benchmarks (conversions per second, render and encode costs).
        .executableTarget(
            name: "meridian-bench",
            dependencies: ["Geodesy", "MapModel", "Grids", "Render", "Tiles", "Raster", "ImageDiff"]),

        // Shared by the test targets: fixture paths, temporary folders, running reference tools
        // (sqlite3, GeoConvert, poppler, pypng) and the built binary, the golden-image harness.
        // Not linked into `meridian`.
        .target(
            name: "TestSupport", dependencies: ["Raster", "ImageDiff", "MapModel", "Render", "Tiles"],
            path: "Tests/TestSupport"),
        // `make golden-update` ends with this: the contact sheet of the goldens it changed.
        .executableTarget(name: "golden-review", dependencies: ["TestSupport"], path: "Tests/GoldenReview"),

        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy", "TestSupport"]),
        .testTarget(name: "FileInputTests", dependencies: ["FileInput"]),
        .testTarget(name: "MapModelTests", dependencies: ["MapModel", "TestSupport"]),
        .testTarget(
            name: "DataSourcesTests", dependencies: ["DataSources", "MapModel", "Render", "Raster", "ImageDiff"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "TestSupport"]),
        .testTarget(name: "ImageDiffTests", dependencies: ["ImageDiff", "Raster", "TestSupport"]),
        .testTarget(name: "GridsTests", dependencies: ["Grids", "Geodesy", "TestSupport"]),
        .testTarget(name: "RenderTests", dependencies: ["Render", "MapModel", "Raster", "ImageDiff", "TestSupport"]),
        .testTarget(
            name: "TilesTests",
            dependencies: ["Tiles", "SQLite", "Render", "MapModel", "Raster", "ImageDiff", "TestSupport"]),
        .testTarget(
            name: "SheetsTests",
            dependencies: ["Sheets", "Render", "DataSources", "MapModel", "Raster", "ImageDiff", "TestSupport"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport", "Raster", "ImageDiff"]),
        // Runs the built `meridian` binary the way users do.
        .testTarget(name: "CLITests", dependencies: ["meridian", "Raster", "ImageDiff", "TestSupport"]),
    ]
)
