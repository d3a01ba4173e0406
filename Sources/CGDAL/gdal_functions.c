#include "CGDAL.h"

// Package.swift passes the soname of the libgdal the build found (libgdal.so.32 on Debian 12):
// a runtime install has only that name; the `libgdal.so` symlink comes with the -dev package.
#ifndef MERIDIAN_GDAL_SONAME
#define MERIDIAN_GDAL_SONAME "libgdal.so"
#endif

MERIDIAN_LIBRARY_DEFINE(MeridianGDAL, MERIDIAN_GDAL_FUNCTIONS, "MERIDIAN_GDAL_LIBRARY", MERIDIAN_GDAL_SONAME, "libgdal.so")

const MeridianGDAL *meridian_gdal_load(void) { return meridian_library_load(&library) ? &table : NULL; }

const meridian_library *meridian_gdal_library(void) { return &library; }
