#include "CPROJ.h"

// Package.swift passes the soname of the libproj the build found (libproj.so.25 on Debian 12):
// a runtime install has only that name; the `libproj.so` symlink comes with the -dev package.
#ifndef MERIDIAN_PROJ_SONAME
#define MERIDIAN_PROJ_SONAME "libproj.so"
#endif

MERIDIAN_LIBRARY_DEFINE(MeridianPROJ, MERIDIAN_PROJ_FUNCTIONS, "MERIDIAN_PROJ_LIBRARY", MERIDIAN_PROJ_SONAME, "libproj.so")

const MeridianPROJ *meridian_proj_load(void) { return meridian_library_load(&library) ? &table : NULL; }

const meridian_library *meridian_proj_library(void) { return &library; }
