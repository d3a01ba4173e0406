// Opening a shared library when it is first needed instead of when the program starts.
//
// GDAL and PROJ are loaded this way (Sources/CGDAL, Sources/CPROJ): linked, they and the
// ~120 libraries they depend on were mapped and relocated at every start, about 60 ms of a run
// that reads only GeoJSON. Each wrapper keeps a struct of function pointers that this fills.
#ifndef MERIDIAN_LIBRARY_LOADER_H
#define MERIDIAN_LIBRARY_LOADER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/// A library to open on first use, what to resolve in it, and how that went.
typedef struct {
    /// An environment variable that, when set, names the one file to open instead: a library
    /// installed outside the loader's search path, or a test of the failure.
    const char *_Nonnull override_variable;
    /// The names to try in order: the soname the build found, then the development symlink.
    const char *_Nonnull const *_Nonnull names;
    size_t name_count;
    /// The symbols to resolve and where to store each (a field of the function table).
    const char *_Nonnull const *_Nonnull symbols;
    void *_Nullable *_Nonnull const *_Nonnull slots;
    size_t symbol_count;
    /// Workers may open sources at the same time: the first caller loads, under the lock.
    pthread_mutex_t lock;
    bool attempted;
    bool loaded;
    /// Why loading failed: dlerror's text, which names the file (or the missing symbol).
    char failure[1024];
} meridian_library;

/// A field of a wrapper's function table: a pointer of the type of the function of its name,
/// so that the compiler checks every pointer against the library's own prototype.
#define MERIDIAN_FUNCTION_FIELD(name) __typeof__(name) *_Nonnull name;

// The wrapper's .c file: `table` (of type TYPE, fields from FUNCTIONS(MERIDIAN_FUNCTION_FIELD))
// and `library`, which fills it from SONAME, or the development symlink SYMLINK, or the file
// the environment variable VARIABLE names.
#define MERIDIAN_FUNCTION_NAME(name) #name,
#define MERIDIAN_FUNCTION_SLOT(name) (void **)&table.name,
#define MERIDIAN_LIBRARY_DEFINE(TYPE, FUNCTIONS, VARIABLE, SONAME, SYMLINK) \
    static TYPE table; \
    static const char *const names[] = {SONAME, SYMLINK}; \
    static const char *const symbols[] = {FUNCTIONS(MERIDIAN_FUNCTION_NAME)}; \
    static void **const slots[] = {FUNCTIONS(MERIDIAN_FUNCTION_SLOT)}; \
    static meridian_library library = { \
        .override_variable = VARIABLE, \
        .names = names, \
        .name_count = sizeof names / sizeof *names, \
        .symbols = symbols, \
        .slots = slots, \
        .symbol_count = sizeof symbols / sizeof *symbols, \
        .lock = PTHREAD_MUTEX_INITIALIZER, \
    };

/// Opens the library and fills every slot the first time it is called, and returns whether
/// that worked (the same answer for the rest of the process). Thread-safe.
bool meridian_library_load(meridian_library *_Nonnull library);

/// The file the library is opened from, for messages: the override when set, else the first name.
const char *_Nonnull meridian_library_file(const meridian_library *_Nonnull library);

/// Why the library could not be loaded; empty before a failed `meridian_library_load`.
const char *_Nonnull meridian_library_failure(const meridian_library *_Nonnull library);

#endif
