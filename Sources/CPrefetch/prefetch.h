/* Cache hints, which Swift has no way to spell. Header only: inlined where they are called.
 *
 * Why: the grid's line raster writes a pixel or three in each row of a metatile whose rows are
 * 8 KB apart, and the encoder reads each tile's rows of that metatile for the first time; both
 * waited on memory row after row (cpu-clock profiles put half the raster's time on the pixel
 * loads). A hint some rows ahead lets those loads overlap. A hint never faults and changes no
 * value, so the address may lie past the image. */
#ifndef MERIDIAN_PREFETCH_H
#define MERIDIAN_PREFETCH_H

#include <stdint.h>

/* Asks for the cache line holding `address + offset` (offset in bytes), to be read soon. The
   address is formed as an integer: it may lie outside any object. */
static inline void meridian_prefetch(const void *address, intptr_t offset) {
    __builtin_prefetch((const void *)((uintptr_t)address + (uintptr_t)offset), 0, 3);
}

/* The same for a line that will be written. */
static inline void meridian_prefetch_for_write(const void *address, intptr_t offset) {
    __builtin_prefetch((const void *)((uintptr_t)address + (uintptr_t)offset), 1, 3);
}

/* Asks for every cache line of the `count` bytes at `address + offset` (count > 0), to be
   written when `for_write`, else read: a row of pixels. */
static inline void meridian_prefetch_span(const void *address, intptr_t offset, intptr_t count, int for_write) {
    for (intptr_t at = 0; at < count; at += 64) {
        if (for_write) meridian_prefetch_for_write(address, offset + at);
        else meridian_prefetch(address, offset + at);
    }
    /* The last byte: a span not aligned to a line ends in one the steps above skip. */
    if (for_write) meridian_prefetch_for_write(address, offset + count - 1);
    else meridian_prefetch(address, offset + count - 1);
}

#endif
