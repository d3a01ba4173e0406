#include "library_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static const char *override(const meridian_library *library) {
    const char *path = getenv(library->override_variable);
    return path && *path ? path : NULL;
}

const char *meridian_library_file(const meridian_library *library) {
    const char *path = override(library);
    return path ? path : library->names[0];
}

const char *meridian_library_failure(const meridian_library *library) { return library->failure; }

static void *open_library(meridian_library *library) {
    const char *path = override(library);
    if (path) {
        void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!handle) snprintf(library->failure, sizeof library->failure, "%s", dlerror());
        return handle;
    }
    // The first name's error is the one reported: the others are fallbacks for a build machine
    // whose library has moved on (the development symlink), not what a runtime image installs.
    for (size_t i = 0; i < library->name_count; i++) {
        void *handle = dlopen(library->names[i], RTLD_NOW | RTLD_LOCAL);
        if (handle) return handle;
        if (i == 0) snprintf(library->failure, sizeof library->failure, "%s", dlerror());
    }
    return NULL;
}

static bool resolve(meridian_library *library, void *handle) {
    for (size_t i = 0; i < library->symbol_count; i++) {
        dlerror();
        void *symbol = dlsym(handle, library->symbols[i]);
        if (!symbol) {
            const char *reason = dlerror();
            snprintf(library->failure, sizeof library->failure, "%s", reason ? reason : library->symbols[i]);
            return false;
        }
        *library->slots[i] = symbol;
    }
    return true;
}

bool meridian_library_load(meridian_library *library) {
    pthread_mutex_lock(&library->lock);
    if (!library->attempted) {
        library->attempted = true;
        void *handle = open_library(library);
        library->loaded = handle && resolve(library, handle);
    }
    bool loaded = library->loaded;
    pthread_mutex_unlock(&library->lock);
    return loaded;
}
