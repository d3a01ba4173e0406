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

#endif
