/* A double's integer part as one instruction (cvttsd2si), which Swift has no way to spell:
 * `Int64(x)` checks the range and NaN first, some eight instructions and three branches.
 *
 * Why: the grid's line raster rounds two to four values a pixel row (`GridLineRaster`), each
 * known to lie within 0...65,537, where the integer part is the floor. Header only, inlined
 * where it is called. */
#ifndef MERIDIAN_TRUNCATE_H
#define MERIDIAN_TRUNCATE_H

#include <stdint.h>

/* The integer part of `x` (toward zero). Only for |x| < 2^63 and not NaN: unchecked. */
static inline int64_t meridian_truncate(double x) { return (int64_t)x; }

#endif
