#include "CGDAL.h"

// Package.swift passes the soname of the libgdal the build found (libgdal.so.32 on Debian 12):
// a runtime install has only that name; the `libgdal.so` symlink comes with the -dev package.
#ifndef MERIDIAN_GDAL_SONAME
#define MERIDIAN_GDAL_SONAME "libgdal.so"
#endif

#define MERIDIAN_NAME(name) #name,
#define MERIDIAN_SLOT(name) (void **)&table.name,

static MeridianGDAL table;
static const char *const names[] = {MERIDIAN_GDAL_SONAME, "libgdal.so"};
static const char *const symbols[] = {MERIDIAN_GDAL_FUNCTIONS(MERIDIAN_NAME)};
static void **const slots[] = {MERIDIAN_GDAL_FUNCTIONS(MERIDIAN_SLOT)};
static meridian_library library = {
    .override_variable = "MERIDIAN_GDAL_LIBRARY",
    .names = names,
    .name_count = sizeof names / sizeof *names,
    .symbols = symbols,
    .slots = slots,
    .symbol_count = sizeof symbols / sizeof *symbols,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

const MeridianGDAL *meridian_gdal_load(void) { return meridian_library_load(&library) ? &table : NULL; }

const meridian_library *meridian_gdal_library(void) { return &library; }
