#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
/* Grid label sprites are copied onto image surfaces with pixman, Cairo's own compositor. */
#include <pixman.h>
