import Foundation
import TestSupport
import Testing

/// NetCDF and JPEG with a world file, made in the test with gdal_translate from the synthetic
/// GeoTIFFs, draw as gdalwarp renders the same values.
@Suite struct RasterInputFormatTests {
    /// The cone DEM in UTM written as NetCDF (its CRS in the file's grid mapping, its rows
    /// stored south up): the ramp's colours of gdalwarp's values of the GeoTIFF, so the
    /// file's georeferencing and values are read as GDAL wrote them.
    @Test func netCDFDrawsTheValuesOfTheGeoTIFFItWasMadeFrom() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let layers = RasterLayerTests()
        let raster = try layers.coneInUTM(folder)
        try Tool.output(
            "gdal_translate", ["-q", "-of", "netCDF", raster, folder.appendingPathComponent("cone.nc").path])
        try layers.expectRampMatchesGdalwarp(
            layerFile: "cone.nc", reference: raster, resampling: "bilinear", stepped: false, folder: folder)
    }

    /// The RGB bands of the RGBA raster as a JPEG with a world file and no CRS (the layer's
    /// `srs` gives it): gdalwarp's tiles of the JPEG's decoded pixels, georeferenced by the
    /// same world file, within one level.
    @Test func jpegWithWorldFileMatchesGdalwarpOfItsPixels() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let layers = RasterLayerTests()
        let raster = try layers.rgbaRaster(folder)
        let jpeg = folder.appendingPathComponent("rgb.jpg").path
        try Tool.output(
            "gdal_translate",
            ["-q", "-of", "JPEG", "-b", "1", "-b", "2", "-b", "3", "-co", "WORLDFILE=YES", raster, jpeg])
        // The CRS gdal_translate kept beside the JPEG goes: the world file alone places it.
        try? FileManager.default.removeItem(atPath: jpeg + ".aux.xml")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("rgb.wld").path))
        let decoded = folder.appendingPathComponent("rgb-decoded.tif").path
        try Tool.output("gdal_translate", ["-q", "-a_srs", "EPSG:4326", jpeg, decoded])
        try layers.expectTilesMatchGdalwarp(
            layerFile: "rgb.jpg", extra: #", "srs": "EPSG:4326""#, reference: decoded, resampling: "bilinear",
            folder: folder)
    }
}
