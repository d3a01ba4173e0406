#include "CPROJ.h"

// Package.swift passes the soname of the libproj the build found (libproj.so.25 on Debian 12):
// a runtime install has only that name; the `libproj.so` symlink comes with the -dev package.
#ifndef MERIDIAN_PROJ_SONAME
#define MERIDIAN_PROJ_SONAME "libproj.so"
#endif

#define MERIDIAN_NAME(name) #name,
#define MERIDIAN_SLOT(name) (void **)&table.name,

static MeridianPROJ table;
static const char *const names[] = {MERIDIAN_PROJ_SONAME, "libproj.so"};
static const char *const symbols[] = {MERIDIAN_PROJ_FUNCTIONS(MERIDIAN_NAME)};
static void **const slots[] = {MERIDIAN_PROJ_FUNCTIONS(MERIDIAN_SLOT)};
static meridian_library library = {
    .override_variable = "MERIDIAN_PROJ_LIBRARY",
    .names = names,
    .name_count = sizeof names / sizeof *names,
    .symbols = symbols,
    .slots = slots,
    .symbol_count = sizeof symbols / sizeof *symbols,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

const MeridianPROJ *meridian_proj_load(void) { return meridian_library_load(&library) ? &table : NULL; }

const meridian_library *meridian_proj_library(void) { return &library; }
