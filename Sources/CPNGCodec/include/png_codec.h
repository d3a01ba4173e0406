// setjmp-guarded entry points into libpng for the Raster module.
//
// libpng reports every error by longjmp out of the failing call. Swift cannot call setjmp,
// so each function here that calls into libpng sets the jump target itself and turns a
// longjmp into a status code plus a message. Nothing here decides *what* to encode or how
// to interpret pixels: that lives in Swift (Sources/Raster).
#ifndef MERIDIAN_PNG_CODEC_H
#define MERIDIAN_PNG_CODEC_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    MPNG_OK = 0,
    MPNG_NOT_PNG = 1,      // the 8-byte signature is missing or wrong
    MPNG_TRUNCATED = 2,    // the data ended before the image (or IEND) did
    MPNG_MALFORMED = 3,    // libpng rejected the data; see the message
    MPNG_TOO_LARGE = 4,    // dimensions beyond the limits the caller set
    MPNG_NO_MEMORY = 5,
    MPNG_BAD_CALL = 6,     // the functions were called out of order or with bad parameters
    MPNG_IO_ERROR = 7,     // reading the file failed (the message is the system's reason)
} mpng_status;

// ---- Decoding: create, read the header, read the pixels as RGBA8, destroy. ----

typedef struct mpng_decoder mpng_decoder;

// Borrows `data` until mpng_decoder_destroy. Returns NULL only when out of memory.
mpng_decoder *mpng_decoder_create(const uint8_t *data, size_t size,
                                  uint32_t max_width, uint32_t max_height);
// The same, reading the open file `fd` from its current position as libpng asks for bytes,
// so a file is read only up to IEND and never held whole. Borrows `fd` (not closed here).
mpng_decoder *mpng_decoder_create_fd(int fd, uint32_t max_width, uint32_t max_height);
// Reads the signature and IHDR. On MPNG_OK, width/height/bit depth/colour type are known.
mpng_status mpng_decoder_read_header(mpng_decoder *decoder);
uint32_t mpng_decoder_width(const mpng_decoder *decoder);
uint32_t mpng_decoder_height(const mpng_decoder *decoder);
int mpng_decoder_bit_depth(const mpng_decoder *decoder);
int mpng_decoder_color_type(const mpng_decoder *decoder);
int mpng_decoder_interlaced(const mpng_decoder *decoder);
// Decodes every row into `pixels` as straight RGBA, 8 bits per channel, `stride` bytes apart
// (at least width * 4). Every colour type and bit depth is converted; 16-bit samples are
// scaled (round(v * 255 / 65535)), not truncated; gAMA/iCCP/sRGB are not applied.
// Reads on through IEND, so a file cut anywhere is reported as truncated.
mpng_status mpng_decoder_read_rgba8(mpng_decoder *decoder, uint8_t *pixels, size_t stride);
// The message of the last failure ("" when none). Valid until destroy.
const char *mpng_decoder_message(const mpng_decoder *decoder);
void mpng_decoder_destroy(mpng_decoder *decoder);

// ---- Encoding: one call from packed rows to PNG bytes in memory. ----

typedef enum {
    MPNG_COLOR_PALETTE = 0,
    MPNG_COLOR_RGB = 1,
    MPNG_COLOR_RGBA = 2,
    MPNG_COLOR_GRAY = 3,
    MPNG_COLOR_GRAY_ALPHA = 4,
} mpng_color;

// Filter choice: a single filter, or libpng's adaptive per-row choice among all five.
typedef enum {
    MPNG_FILTER_NONE = 0,
    MPNG_FILTER_SUB = 1,
    MPNG_FILTER_UP = 2,
    MPNG_FILTER_AVERAGE = 3,
    MPNG_FILTER_PAETH = 4,
    MPNG_FILTER_ADAPTIVE = 5,
} mpng_filter;

typedef enum {
    MPNG_STRATEGY_DEFAULT = 0,
    MPNG_STRATEGY_FILTERED = 1,
    MPNG_STRATEGY_RLE = 2,
    MPNG_STRATEGY_HUFFMAN_ONLY = 3,
} mpng_strategy;

typedef struct {
    uint32_t width, height;
    mpng_color color;
    int bit_depth;                 // 8 for RGB/RGBA; 1, 2, 4 or 8 for palette
    const uint8_t *rows;           // first row, already packed in the PNG sample layout
    size_t stride;                 // bytes from one row to the next
    const uint8_t *palette_rgb;    // palette_count RGB triplets (palette only)
    int palette_count;
    const uint8_t *palette_alpha;  // alpha_count alphas for the first palette entries (tRNS)
    int alpha_count;
    mpng_filter filter;
    int zlib_level;                // 0...9
    mpng_strategy strategy;
    uint32_t pixels_per_metre;     // pHYs for both axes; 0 writes no pHYs chunk
} mpng_encode_params;

// Output buffer owned by C: free it with mpng_buffer_free whatever the status.
typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    char message[200];
} mpng_buffer;

mpng_status mpng_encode(const mpng_encode_params *params, mpng_buffer *out);
void mpng_buffer_free(mpng_buffer *buffer);

#endif
