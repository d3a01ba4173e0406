// PROJ's header (types, constants) and its functions as a table loaded on first use.
//
// Meridian does not link libproj: it and its dependencies (libcurl, libtiff...) took part of
// every start, and a map in longitude/latitude drawn in Web Mercator needs no PROJ at all.
// Swift calls `proj.proj_create(...)`, a field of `MeridianPROJ`, after `meridian_proj_load()`;
// calling `proj_create` itself fails to link. See CGDAL.h for why the fields are not exported
// functions of PROJ's names.
#ifndef MERIDIAN_CPROJ_H
#define MERIDIAN_CPROJ_H

#include <proj.h>

#include "library_loader.h"

// Every PROJ function Meridian calls. Add one here to call it.
#define MERIDIAN_PROJ_FUNCTIONS(X) \
    X(proj_context_create) \
    X(proj_context_destroy) \
    X(proj_coord) \
    X(proj_coordoperation_get_method_info) \
    X(proj_create) \
    X(proj_create_crs_to_crs_from_pj) \
    X(proj_crs_get_coordinate_system) \
    X(proj_crs_get_coordoperation) \
    X(proj_crs_get_datum) \
    X(proj_crs_get_datum_ensemble) \
    X(proj_crs_get_sub_crs) \
    X(proj_cs_get_axis_count) \
    X(proj_cs_get_axis_info) \
    X(proj_destroy) \
    X(proj_errno_reset) \
    X(proj_get_id_auth_name) \
    X(proj_get_id_code) \
    X(proj_get_name) \
    X(proj_get_source_crs) \
    X(proj_get_type) \
    X(proj_is_crs) \
    X(proj_is_equivalent_to_with_ctx) \
    X(proj_log_func) \
    X(proj_log_level) \
    X(proj_normalize_for_visualization) \
    X(proj_trans) \
    X(proj_trans_bounds) \
    X(proj_trans_generic)

// One field per function, typed by its prototype (MERIDIAN_FUNCTION_FIELD).
typedef struct {
    MERIDIAN_PROJ_FUNCTIONS(MERIDIAN_FUNCTION_FIELD)
} MeridianPROJ;

/// Loads libproj and resolves every function the first time it is called (any thread may);
/// NULL when that failed, for the rest of the process: `meridian_proj_library()` says why.
const MeridianPROJ *_Nullable meridian_proj_load(void);

/// The library's file name (`libproj.so.25`, or $MERIDIAN_PROJ_LIBRARY) and why loading
/// failed, through library_loader.h's functions.
const meridian_library *_Nonnull meridian_proj_library(void);

#endif
