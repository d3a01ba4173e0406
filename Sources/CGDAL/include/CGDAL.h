// GDAL's headers (types, constants) and its functions as a table loaded on first use.
//
// Meridian does not link libgdal: it and its ~120 dependencies (poppler, HDF5, netCDF, libheif...)
// took 50 ms of every start, also for maps that never read a dataset through GDAL. Swift calls
// `gdal.GDALOpenEx(...)`, a field of `MeridianGDAL`, after `meridian_gdal_load()`; calling
// `GDALOpenEx` itself fails to link, which keeps a direct call from creeping back in. The
// fields are not given GDAL's own names as exported trampolines: the executable exports its
// symbols, and functions named like GDAL's would interpose on libgdal's calls to itself.
#ifndef MERIDIAN_CGDAL_H
#define MERIDIAN_CGDAL_H

#include "library_loader.h"

// Debian installs the headers in /usr/include/gdal; GDAL's own install, in the include folder.
#if __has_include(<gdal/gdal.h>)
#include <gdal/cpl_conv.h>
#include <gdal/cpl_error.h>
#include <gdal/cpl_string.h>
#include <gdal/gdal.h>
#include <gdal/gdal_utils.h>
#include <gdal/ogr_api.h>
#include <gdal/ogr_srs_api.h>
#else
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>
#include <gdal_utils.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#endif

// Every GDAL function Meridian calls. Add one here to call it.
#define MERIDIAN_GDAL_FUNCTIONS(X) \
    X(CPLErrorReset) \
    X(CPLGetLastErrorMsg) \
    X(CPLGetLastErrorType) \
    X(CPLSetErrorHandler) \
    X(GDALAllRegister) \
    X(GDALClose) \
    X(GDALComputeRasterMinMax) \
    X(GDALCreate) \
    X(GDALCreateCopy) \
    X(GDALDatasetExecuteSQL) \
    X(GDALDatasetGetLayer) \
    X(GDALDatasetGetLayerByName) \
    X(GDALDatasetGetLayerCount) \
    X(GDALDatasetRasterIO) \
    X(GDALDatasetReleaseResultSet) \
    X(GDALGetDatasetDriver) \
    X(GDALGetDriver) \
    X(GDALGetDriverByName) \
    X(GDALGetDriverCount) \
    X(GDALGetDriverShortName) \
    X(GDALGetGeoTransform) \
    X(GDALGetMetadataItem) \
    X(GDALGetOverview) \
    X(GDALGetOverviewCount) \
    X(GDALGetRasterBand) \
    X(GDALGetRasterBandXSize) \
    X(GDALGetRasterColorInterpretation) \
    X(GDALGetRasterColorTable) \
    X(GDALGetRasterCount) \
    X(GDALGetRasterDataType) \
    X(GDALGetRasterXSize) \
    X(GDALGetRasterYSize) \
    X(GDALGetSpatialRef) \
    X(GDALOpenEx) \
    X(GDALRasterIO) \
    X(GDALSetCacheMax64) \
    X(GDALSetGeoTransform) \
    X(GDALSetSpatialRef) \
    X(GDALTranslate) \
    X(GDALTranslateOptionsFree) \
    X(GDALTranslateOptionsNew) \
    X(GDALWarp) \
    X(GDALWarpAppOptionsFree) \
    X(GDALWarpAppOptionsNew) \
    X(OGR_FD_GetFieldCount) \
    X(OGR_FD_GetFieldDefn) \
    X(OGR_FD_GetGeomFieldCount) \
    X(OGR_FD_GetGeomFieldDefn) \
    X(OGR_F_Destroy) \
    X(OGR_F_GetFID) \
    X(OGR_F_GetFieldAsDateTimeEx) \
    X(OGR_F_GetFieldAsDouble) \
    X(OGR_F_GetFieldAsDoubleList) \
    X(OGR_F_GetFieldAsInteger) \
    X(OGR_F_GetFieldAsInteger64) \
    X(OGR_F_GetFieldAsInteger64List) \
    X(OGR_F_GetFieldAsIntegerList) \
    X(OGR_F_GetFieldAsString) \
    X(OGR_F_GetFieldAsStringList) \
    X(OGR_F_GetFieldCount) \
    X(OGR_F_GetGeometryRef) \
    X(OGR_F_IsFieldNull) \
    X(OGR_F_IsFieldSet) \
    X(OGR_Fld_GetNameRef) \
    X(OGR_Fld_GetSubType) \
    X(OGR_Fld_GetType) \
    X(OGR_GFld_GetNameRef) \
    X(OGR_GT_Flatten) \
    X(OGR_G_AddGeometryDirectly) \
    X(OGR_G_AddPoint_2D) \
    X(OGR_G_Clone) \
    X(OGR_G_CreateFromWkb) \
    X(OGR_G_CreateGeometry) \
    X(OGR_G_DestroyGeometry) \
    X(OGR_G_ForceTo) \
    X(OGR_G_GetEnvelope) \
    X(OGR_G_GetGeometryCount) \
    X(OGR_G_GetGeometryName) \
    X(OGR_G_GetGeometryRef) \
    X(OGR_G_GetGeometryType) \
    X(OGR_G_GetLinearGeometry) \
    X(OGR_G_GetPointCount) \
    X(OGR_G_GetPoints) \
    X(OGR_G_GetX) \
    X(OGR_G_GetY) \
    X(OGR_G_HasCurveGeometry) \
    X(OGR_G_Intersects) \
    X(OGR_G_IsEmpty) \
    X(OGR_L_GetExtent) \
    X(OGR_L_GetFIDColumn) \
    X(OGR_L_GetGeomType) \
    X(OGR_L_GetGeometryColumn) \
    X(OGR_L_GetLayerDefn) \
    X(OGR_L_GetName) \
    X(OGR_L_GetNextFeature) \
    X(OGR_L_GetSpatialRef) \
    X(OGR_L_ResetReading) \
    X(OGR_L_SetAttributeFilter) \
    X(OGR_L_SetIgnoredFields) \
    X(OGR_L_SetSpatialFilter) \
    X(OGR_L_SetSpatialFilterRect) \
    X(OGR_L_TestCapability) \
    X(OSRDestroySpatialReference) \
    X(OSRExportToWkt) \
    X(OSRExportToWktEx) \
    X(OSRGetAuthorityCode) \
    X(OSRGetAuthorityName) \
    X(OSRIsSame) \
    X(OSRNewSpatialReference) \
    X(OSRSetAxisMappingStrategy) \
    X(OSRSetFromUserInput) \
    X(VSIFree)

// One field per function, typed by its prototype (MERIDIAN_FUNCTION_FIELD).
typedef struct {
    MERIDIAN_GDAL_FUNCTIONS(MERIDIAN_FUNCTION_FIELD)
} MeridianGDAL;

/// Loads libgdal and resolves every function the first time it is called (any thread may);
/// NULL when that failed, for the rest of the process: `meridian_gdal_library()` says why.
const MeridianGDAL *_Nullable meridian_gdal_load(void);

/// The library's file name (`libgdal.so.32`, or $MERIDIAN_GDAL_LIBRARY) and why loading
/// failed, through library_loader.h's functions.
const meridian_library *_Nonnull meridian_gdal_library(void);

#endif
