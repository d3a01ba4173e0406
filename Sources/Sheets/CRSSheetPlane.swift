import DataSources
import Foundation
import Geodesy
import MapModel
import Render

/// A sheet drawn in the plane of a CRS the user names (`meridian sheet --crs EPSG:27700`): a
/// national grid, a State Plane zone, any projected CRS PROJ knows. Plane coordinates are the
/// CRS's easting and northing in metres (a CRS in feet is scaled to metres), so the scale is
/// exact on the CRS's grid, as on the national series printed in it. Convergence and point
/// scale are the CRS's own, measured by PROJ (`ProjectedPlane.unprojectWithDistortion`).
public struct CRSSheetPlane: SheetPlane {
    public let plane: ProjectedPlane
    /// The UTM zone of the sheet's centre: its grid is the one UTM, MGRS and USNG sheets print.
    let utm: UTMPlane

    /// A sheet whose frame stays where the CRS's scale is within this fraction of its scale
    /// at the centre: the scale printed holds across the sheet to that.
    static let maxScaleSpread = 0.02

    /// Throws for a geographic CRS: degrees have no fixed length on the ground, so a sheet
    /// in one has no scale.
    public init(_ plane: ProjectedPlane, centreLatitude: Double, centreLongitude: Double) throws(SheetError) {
        guard !plane.isGeographic else {
            throw .invalid(
                "\(plane.label) (\(plane.name)) is a geographic CRS: a sheet needs a projected CRS, whose grid has a scale (leave out --crs for the UTM zone of the centre)"
            )
        }
        self.plane = plane
        // Beyond the UTM zones (a polar CRS) the nearest zone's grid is the one carried over.
        let latitude = min(83.9, max(-79.9, centreLatitude))
        let zone = UTM.standardZone(latitude: latitude, longitude: centreLongitude) ?? 31
        utm = UTMPlane(zone: zone == UTM.upsZone ? 31 : zone, isNorth: centreLatitude >= 0)
    }

    public var identifier: String { plane.label }
    public var crsDefinition: String? { plane.metresPerUnit == 1 ? plane.crs : nil }
    public var zone: Int { utm.zone }
    public var isNorth: Bool { utm.isNorth }

    public func forward(_ p: PlanePoint) -> PlanePoint { plane.forward(p) }
    public func inverse(_ p: PlanePoint) -> PlanePoint { plane.inverse(p) }

    public func project(latitude: Double, longitude: Double) -> PlanePoint {
        plane.project(latitude: latitude, longitude: longitude)
    }

    public func unproject(_ p: PlanePoint) -> UnprojectedPoint { plane.unprojectWithDistortion(p) }

    public func utmCoordinates(_ p: PlanePoint) -> PlanePoint {
        let g = plane.unproject(p)
        return utm.project(latitude: g.latitude, longitude: g.longitude)
    }

    public func point(utm p: PlanePoint) -> PlanePoint {
        let g = utm.unproject(p)
        return plane.project(latitude: g.latitude, longitude: g.longitude)
    }

    /// `OSGB36 / British National Grid (EPSG:27700), Transverse Mercator, datum Ordnance Survey
    /// of Great Britain 1936.`
    public var projectionNote: String {
        "\(plane.fullName)\(plane.method.map { ", \($0)" } ?? ""), datum \(plane.datum)."
    }

    public var scaleCaption: String { "Scale on the grid of \(plane.label)" }

    /// Every point of the frame must have a position, and the CRS's scale along the frame's
    /// edges must stay within `maxScaleSpread` of the scale at its centre.
    public func checkReach(extent: Rect, scale: Double, paper: Paper) throws(SheetError) {
        let centre = unproject(extent.center)
        guard centre.latitude.isFinite, centre.scale.isFinite, centre.scale > 0 else {
            throw .invalid("the sheet's centre lies outside the area \(plane.label) can show")
        }
        var spread = 0.0
        for point in extent.edgePoints(steps: 16) {
            let p = unproject(point)
            guard p.latitude.isFinite, p.longitude.isFinite, p.scale.isFinite else {
                throw .scaleTooSmall(
                    scale: scale,
                    reason: "the sheet on \(paper.description) reaches beyond the area \(plane.label) can show",
                    largestScale: nil)
            }
            spread = max(spread, abs(p.scale / centre.scale - 1))
        }
        if spread > CRSSheetPlane.maxScaleSpread {
            throw .scaleTooSmall(
                scale: scale,
                reason:
                    "the sheet on \(paper.description) reaches where the scale of \(plane.label) is \(String(format: "%.1f", spread * 100))% off its scale at the centre; a true-scale sheet stays within \(Int(CRSSheetPlane.maxScaleSpread * 100))%",
                largestScale: nil)
        }
    }
}

extension ProjectedPlane {
    /// `OSGB36 / British National Grid (EPSG:27700)`: how a sheet names the CRS.
    var fullName: String { name == label ? name : "\(name) (\(label))" }
}
