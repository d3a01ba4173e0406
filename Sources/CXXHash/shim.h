#include <xxhash.h>

/* XXH3 through the library's run-time dispatch on x86-64: the plain entry points run the
   SSE2 code the library was built for; the dispatching ones pick AVX2 (or AVX-512) when the
   processor has it, for the same hash values and a third of the instructions on long input.
   The dispatch names are only reached through macros in xxh_x86dispatch.h, which Swift does
   not import as functions, so these thin wrappers name them. Debian ships them in the shared
   library only (not in libxxhash.a): a fully static link would need the plain entry points. */
#if defined(__x86_64__)
#include <xxh_x86dispatch.h>
static inline XXH128_hash_t meridian_xxh3_128(const void *input, size_t length) {
    return XXH3_128bits_dispatch(input, length);
}
static inline XXH_errorcode meridian_xxh3_128_update(XXH3_state_t *state, const void *input, size_t length) {
    return XXH3_128bits_update_dispatch(state, input, length);
}
#else
static inline XXH128_hash_t meridian_xxh3_128(const void *input, size_t length) {
    return XXH3_128bits(input, length);
}
static inline XXH_errorcode meridian_xxh3_128_update(XXH3_state_t *state, const void *input, size_t length) {
    return XXH3_128bits_update(state, input, length);
}
#endif
