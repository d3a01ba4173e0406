/* The colour census's scan over blocks of pixels of one colour, compared four pixels an
 * instruction with SSE2 (part of the x86-64 baseline: no check needed), which Swift has no
 * way to spell: its SIMD types compiled to lane-by-lane code here before (see
 * `ColourCensus.count`).
 *
 * Why: in a tile crossed by grid lines most of each row is runs of the colour before them
 * between the lines' pixels, and the census skipped them eight pixels at a time with four
 * 64-bit compares and branches, some 17 instructions a block (52 M over the New York MGRS
 * pyramid). Here sixteen pixels take four compares, three ANDs and one test. Header only:
 * inlined where it is called. */
#ifndef MERIDIAN_COLOURRUNS_H
#define MERIDIAN_COLOURRUNS_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>

/* Skips the blocks of eight 4-byte pixels of `row` from pixel `i` on that all equal `colour`
 * (as loaded: the bytes' little-endian word), up to pixel `end` (a block ends at or before
 * it), writing `index` eight times at `notes + (k & mask)` for each block skipped from pixel
 * k (16 bytes for two blocks at once: `notes` must hold 16 bytes from there when `mask` is
 * 0). Returns the first pixel not skipped: the start of a block that differs, or of fewer
 * than eight pixels before `end`. */
static inline intptr_t meridian_skip_colour_blocks(
    const void *row, intptr_t i, intptr_t end, uint32_t colour, uint8_t *notes, intptr_t mask, uint8_t index) {
    const uint8_t *pixels = (const uint8_t *)row;
    const __m128i c = _mm_set1_epi32((int)colour);
    const __m128i fill = _mm_set1_epi8((char)index);
    /* Two blocks a turn; when the pair differs, its first block may still be skipped. */
    for (; i + 16 <= end; i += 16) {
        const uint8_t *p = pixels + i * 4;
        __m128i first = _mm_and_si128(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)p), c),
                                      _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(p + 16)), c));
        __m128i second = _mm_and_si128(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(p + 32)), c),
                                       _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(p + 48)), c));
        if (_mm_movemask_epi8(_mm_and_si128(first, second)) != 0xFFFF) {
            if (_mm_movemask_epi8(first) == 0xFFFF) {
                _mm_storel_epi64((__m128i *)(notes + (i & mask)), fill);
                i += 8;
            }
            return i;
        }
        _mm_storeu_si128((__m128i *)(notes + (i & mask)), fill);
    }
    if (i + 8 <= end) {
        const uint8_t *p = pixels + i * 4;
        __m128i first = _mm_and_si128(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)p), c),
                                      _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(p + 16)), c));
        if (_mm_movemask_epi8(first) == 0xFFFF) {
            _mm_storel_epi64((__m128i *)(notes + (i & mask)), fill);
            i += 8;
        }
    }
    return i;
}

#endif

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/* Whether the processor has AVX2 and the system saves its registers (CPUID leaf 7 EBX bit 5;
   leaf 1 OSXSAVE, and XCR0 holding the SSE and AVX state). */
static inline int meridian_has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX)) return 0;
    unsigned xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & bit_AVX2) != 0;
}

/* Of the 4-byte pixels `i` to `end - 1` of `row` (i >= 1: pixel i - 1 is read too), how many
 * equal the pixel before them; `*and_out` is ANDed with every one of their words. What the census
 * needs of an image past 256 colours (its changes, its opacity), eight pixels an instruction:
 * Swift's SIMD8 loop took some 15 instructions for eight (24.6 M over the New York pyramids'
 * ~310 RGB tiles, in both runs). Only call when `meridian_has_avx2()`. */
__attribute__((target("avx2")))
static inline intptr_t meridian_equal_neighbours_avx2(const void *row, intptr_t i, intptr_t end, uint32_t *and_out) {
    const uint8_t *pixels = (const uint8_t *)row;
    __m256i ands = _mm256_set1_epi32(-1);
    /* Each lane subtracts the compare's -1 for a pixel equal to its predecessor. */
    __m256i equal = _mm256_setzero_si256();
    __m256i other = _mm256_setzero_si256();
    /* Thirty-two pixels a turn, then eight. */
    for (; i + 32 <= end; i += 32) {
        /* Written out: the importer's compile kept a loop of four as a loop. Two sums, so
           that the subtractions do not wait on each other. */
        const uint8_t *p = pixels + i * 4;
        __m256i c0 = _mm256_loadu_si256((const __m256i *)p);
        __m256i c1 = _mm256_loadu_si256((const __m256i *)(p + 32));
        __m256i c2 = _mm256_loadu_si256((const __m256i *)(p + 64));
        __m256i c3 = _mm256_loadu_si256((const __m256i *)(p + 96));
        ands = _mm256_and_si256(ands, _mm256_and_si256(_mm256_and_si256(c0, c1), _mm256_and_si256(c2, c3)));
        equal = _mm256_sub_epi32(equal, _mm256_cmpeq_epi32(c0, _mm256_loadu_si256((const __m256i *)(p - 4))));
        other = _mm256_sub_epi32(other, _mm256_cmpeq_epi32(c1, _mm256_loadu_si256((const __m256i *)(p + 28))));
        equal = _mm256_sub_epi32(equal, _mm256_cmpeq_epi32(c2, _mm256_loadu_si256((const __m256i *)(p + 60))));
        other = _mm256_sub_epi32(other, _mm256_cmpeq_epi32(c3, _mm256_loadu_si256((const __m256i *)(p + 92))));
    }
    for (; i + 8 <= end; i += 8) {
        const uint8_t *p = pixels + i * 4;
        __m256i current = _mm256_loadu_si256((const __m256i *)p);
        ands = _mm256_and_si256(ands, current);
        equal = _mm256_sub_epi32(equal, _mm256_cmpeq_epi32(current, _mm256_loadu_si256((const __m256i *)(p - 4))));
    }
    equal = _mm256_add_epi32(equal, other);
    __m128i ands4 = _mm_and_si128(_mm256_castsi256_si128(ands), _mm256_extracti128_si256(ands, 1));
    __m128i equal4 = _mm_add_epi32(_mm256_castsi256_si128(equal), _mm256_extracti128_si256(equal, 1));
    ands4 = _mm_and_si128(ands4, _mm_shuffle_epi32(ands4, 0x4E));
    ands4 = _mm_and_si128(ands4, _mm_shuffle_epi32(ands4, 0xB1));
    equal4 = _mm_add_epi32(equal4, _mm_shuffle_epi32(equal4, 0x4E));
    equal4 = _mm_add_epi32(equal4, _mm_shuffle_epi32(equal4, 0xB1));
    uint32_t all = (uint32_t)_mm_cvtsi128_si32(ands4);
    intptr_t count = (intptr_t)(uint32_t)_mm_cvtsi128_si32(equal4);
    /* The last pixels, fewer than eight, one by one (not made vector code by the compiler:
       masked loads and blends for at most seven pixels cost more than they save). */
#pragma clang loop vectorize(disable) interleave(disable)
    for (; i < end; i++) {
        uint32_t pixel, before;
        __builtin_memcpy(&pixel, pixels + i * 4, 4);
        __builtin_memcpy(&before, pixels + i * 4 - 4, 4);
        all &= pixel;
        count += pixel == before;
    }
    *and_out &= all;
    return count;
}

#endif

#endif
