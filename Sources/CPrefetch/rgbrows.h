/* A row of 4-byte pixels to 3-byte RGB with one byte shuffle per four pixels (SSSE3 `pshufb`),
 * which Swift has no way to spell.
 *
 * Why: an opaque tile of more than 256 colours is written as RGB rows, each pixel's three
 * colour bytes copied out of its 32-bit word. Done with shifts and masks in 32-bit words that
 * was some 25 instructions per four pixels, about 128 M over the New York MGRS pyramid's ~310
 * such tiles (most of `PNG.encodeOpaque`'s own cost); the shuffle is a load, a shuffle and a
 * store. SSSE3 is not part of the x86-64 baseline, so the caller asks `meridian_has_ssse3`
 * once and keeps its own loop for machines without it (and for other architectures, where
 * the functions below copy nothing). Header only: inlined where it is called. */
#ifndef MERIDIAN_RGBROWS_H
#define MERIDIAN_RGBROWS_H

#include <stdint.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/* Whether the processor has SSSE3 (CPUID leaf 1, ECX bit 9). */
static inline int meridian_has_ssse3(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return (c & bit_SSSE3) != 0;
}

/* Copies the colour bytes of the first pixels of `pixels` 4-byte pixels at `source` to
 * `target`, three bytes a pixel: red, green, blue. `argb` 0: each pixel's bytes are red,
 * green, blue, alpha (RGBA); 1: blue, green, red, alpha (Cairo's little-endian 0xAARRGGBB
 * words). Returns how many pixels it copied, a multiple of 4 (the caller copies the rest): a
 * 16-byte store writes 4 bytes past its 12, so only groups whose following bytes are still
 * to be written (or within the row) are copied here, never a byte past `pixels * 3`.
 * Only call when `meridian_has_ssse3()`. */
__attribute__((target("ssse3")))
static inline intptr_t meridian_copy_rgb_ssse3(const void *source, void *target, intptr_t pixels, int argb) {
    const __m128i shuffle = argb
        ? _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1)
        : _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    const uint8_t *from = (const uint8_t *)source;
    uint8_t *to = (uint8_t *)target;
    intptr_t i = 0;
    /* Sixteen pixels a turn; the last store ends at byte 3i + 52, within 3 * pixels while
       i + 18 <= pixels. */
    for (; i + 18 <= pixels; i += 16) {
        __m128i p0 = _mm_loadu_si128((const __m128i *)(from + i * 4));
        __m128i p1 = _mm_loadu_si128((const __m128i *)(from + i * 4 + 16));
        __m128i p2 = _mm_loadu_si128((const __m128i *)(from + i * 4 + 32));
        __m128i p3 = _mm_loadu_si128((const __m128i *)(from + i * 4 + 48));
        _mm_storeu_si128((__m128i *)(to + i * 3), _mm_shuffle_epi8(p0, shuffle));
        _mm_storeu_si128((__m128i *)(to + i * 3 + 12), _mm_shuffle_epi8(p1, shuffle));
        _mm_storeu_si128((__m128i *)(to + i * 3 + 24), _mm_shuffle_epi8(p2, shuffle));
        _mm_storeu_si128((__m128i *)(to + i * 3 + 36), _mm_shuffle_epi8(p3, shuffle));
    }
    /* Four a turn: the store ends at byte 3i + 16, within 3 * pixels while i + 6 <= pixels. */
    for (; i + 6 <= pixels; i += 4) {
        __m128i p = _mm_loadu_si128((const __m128i *)(from + i * 4));
        _mm_storeu_si128((__m128i *)(to + i * 3), _mm_shuffle_epi8(p, shuffle));
    }
    return i;
}

/* The same eight pixels a shuffle (AVX2: the shuffle works within each 16-byte half, and a
 * permute of 32-bit words closes the gap between the halves' 12 bytes), for machines that
 * have it (`meridian_has_avx2` in colourruns.h): some 10 instructions per sixteen pixels
 * instead of 17. Four pixels at a time with the 16-byte shuffle near the end of the row. */
__attribute__((target("avx2")))
static inline intptr_t meridian_copy_rgb_avx2(const void *source, void *target, intptr_t pixels, int argb) {
    const __m256i shuffle = argb
        ? _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
                           2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1)
        : _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                           0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    /* Words 0-2 (the low half's 12 bytes), then 4-6 (the high half's); the last two words
       are overwritten by the next store (word 0 again, not the zeros of 3 or 7: the compiler
       then blends in zeros with one more instruction). */
    const __m256i close = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 0, 0);
    const uint8_t *from = (const uint8_t *)source;
    uint8_t *to = (uint8_t *)target;
    intptr_t i = 0;
    /* Thirty-two pixels a turn; the last 32-byte store ends at byte 3i + 104, within
       3 * pixels while i + 35 <= pixels. Then eight a turn: the store ends at 3i + 32. */
    for (; i + 35 <= pixels; i += 32) {
        /* Written out: the importer's compile kept a loop of four as a loop. */
        __m256i p0 = _mm256_loadu_si256((const __m256i *)(from + i * 4));
        __m256i p1 = _mm256_loadu_si256((const __m256i *)(from + i * 4 + 32));
        __m256i p2 = _mm256_loadu_si256((const __m256i *)(from + i * 4 + 64));
        __m256i p3 = _mm256_loadu_si256((const __m256i *)(from + i * 4 + 96));
        _mm256_storeu_si256((__m256i *)(to + i * 3), _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(p0, shuffle), close));
        _mm256_storeu_si256((__m256i *)(to + i * 3 + 24),
                            _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(p1, shuffle), close));
        _mm256_storeu_si256((__m256i *)(to + i * 3 + 48),
                            _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(p2, shuffle), close));
        _mm256_storeu_si256((__m256i *)(to + i * 3 + 72),
                            _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(p3, shuffle), close));
    }
    for (; i + 11 <= pixels; i += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(from + i * 4));
        _mm256_storeu_si256((__m256i *)(to + i * 3),
                            _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(p, shuffle), close));
    }
    const __m128i half = _mm256_castsi256_si128(shuffle);
    for (; i + 6 <= pixels; i += 4) {
        __m128i p = _mm_loadu_si128((const __m128i *)(from + i * 4));
        _mm_storeu_si128((__m128i *)(to + i * 3), _mm_shuffle_epi8(p, half));
    }
    return i;
}

#else

static inline int meridian_has_ssse3(void) { return 0; }

static inline intptr_t meridian_copy_rgb_avx2(const void *source, void *target, intptr_t pixels, int argb) {
    (void)source;
    (void)target;
    (void)pixels;
    (void)argb;
    return 0;
}

static inline intptr_t meridian_copy_rgb_ssse3(const void *source, void *target, intptr_t pixels, int argb) {
    (void)source;
    (void)target;
    (void)pixels;
    (void)argb;
    return 0;
}

#endif

#endif
