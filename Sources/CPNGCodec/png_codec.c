// setjmp-guarded libpng calls. See include/png_codec.h for the contract.
//
// setjmp rules followed here: every function that calls libpng sets its own jump target
// first (png_jmpbuf), and no local variable is modified between setjmp and a possible
// longjmp, so everything read after the jump is well defined.
#include "png_codec.h"

#include <png.h>
#include <zlib.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Reads from a file go through this buffer: libpng asks for 4-byte lengths, types and CRCs.
#define MPNG_FILE_BUFFER 65536

struct mpng_decoder {
    png_structp png;
    png_infop info;
    // The source: `data` (size bytes, offset read so far), or the file `fd` when fd >= 0.
    const uint8_t *data;
    size_t size;
    size_t offset;
    int fd;
    uint8_t *file_buffer;  // MPNG_FILE_BUFFER bytes, of which data/size/offset describe the unread part
    uint32_t max_width, max_height;
    int truncated;       // set by the read callback before it raises the error
    int io_error;        // reading the file failed (not its content)
    int state;           // 0 created, 1 header read, 2 pixels read (libpng allows each once)
    int failed;          // a longjmp left libpng in an unusable state
    png_bytep *rows;
    char message[200];
    char warning[120];
};

static void copy_message(char *dst, size_t dst_size, const char *src) {
    snprintf(dst, dst_size, "%s", src ? src : "");
}

static void decoder_error(png_structp png, png_const_charp message) {
    mpng_decoder *decoder = (mpng_decoder *)png_get_error_ptr(png);
    if (decoder) {
        // libpng explains a rejected IHDR in a warning, then fails with "Invalid IHDR data":
        // keep the explanation, which says what is actually wrong.
        if (decoder->warning[0] && strstr(message, "IHDR")) {
            snprintf(decoder->message, sizeof decoder->message, "%s (%s)", message, decoder->warning);
        } else {
            copy_message(decoder->message, sizeof decoder->message, message);
        }
    }
    png_longjmp(png, 1);
}

// Warnings (ancillary chunk CRC errors, odd ICC profiles, ...) do not stop decoding; keep
// the last one for an error message instead of printing to stderr.
static void decoder_warning(png_structp png, png_const_charp message) {
    mpng_decoder *decoder = (mpng_decoder *)png_get_error_ptr(png);
    if (decoder) copy_message(decoder->warning, sizeof decoder->warning, message);
}

// Copies up to `length` bytes of the source to `out`, refilling the file buffer as needed.
// Returns how many bytes were copied: fewer than `length` only at the end of the source or on
// a read error (io_error set, message written).
static size_t source_read(mpng_decoder *decoder, uint8_t *out, size_t length) {
    size_t copied = 0;
    while (copied < length) {
        if (decoder->offset == decoder->size) {
            if (decoder->fd < 0) break;
            ssize_t got = read(decoder->fd, decoder->file_buffer, MPNG_FILE_BUFFER);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) {
                decoder->io_error = 1;
                snprintf(decoder->message, sizeof decoder->message, "%s", strerror(errno));
                break;
            }
            if (got == 0) break;
            decoder->data = decoder->file_buffer;
            decoder->size = (size_t)got;
            decoder->offset = 0;
        }
        size_t available = decoder->size - decoder->offset;
        size_t take = length - copied < available ? length - copied : available;
        memcpy(out + copied, decoder->data + decoder->offset, take);
        decoder->offset += take;
        copied += take;
    }
    return copied;
}

static void decoder_read(png_structp png, png_bytep out, size_t length) {
    mpng_decoder *decoder = (mpng_decoder *)png_get_io_ptr(png);
    if (source_read(decoder, out, length) < length) {
        if (decoder->io_error) png_error(png, decoder->message);
        decoder->truncated = 1;
        png_error(png, "unexpected end of data");
    }
}

static mpng_status decoder_failure(mpng_decoder *decoder) {
    decoder->failed = 1;
    if (decoder->io_error) return MPNG_IO_ERROR;
    if (decoder->truncated) return MPNG_TRUNCATED;
    if (strstr(decoder->message, "memory")) return MPNG_NO_MEMORY;
    return MPNG_MALFORMED;
}

static mpng_decoder *decoder_create(const uint8_t *data, size_t size, int fd,
                                    uint32_t max_width, uint32_t max_height) {
    mpng_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    decoder->data = data;
    decoder->size = data ? size : 0;
    decoder->fd = fd;
    if (fd >= 0 && !(decoder->file_buffer = malloc(MPNG_FILE_BUFFER))) {
        free(decoder);
        return NULL;
    }
    decoder->max_width = max_width;
    decoder->max_height = max_height;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, decoder_error, decoder_warning);
    if (decoder->png) decoder->info = png_create_info_struct(decoder->png);
    if (!decoder->png || !decoder->info) {
        mpng_decoder_destroy(decoder);
        return NULL;
    }
    png_set_read_fn(decoder->png, decoder, decoder_read);
    // Chunks whose content is never used are skipped unread (libpng reads them in small
    // pieces to check the CRC) instead of being held whole: a 100-byte file whose zTXt
    // chunk claimed 1.2 GB made libpng allocate 1.2 GB before finding the data missing.
    static const png_byte ignored[] = {
        'i', 'C', 'C', 'P', '\0', 'i', 'T', 'X', 't', '\0', 's', 'P', 'L', 'T', '\0',
        't', 'E', 'X', 't', '\0', 'z', 'T', 'X', 't', '\0', 'e', 'X', 'I', 'f', '\0',
    };
    png_set_keep_unknown_chunks(decoder->png, PNG_HANDLE_CHUNK_NEVER, ignored, (int)(sizeof ignored / 5));
    // Any chunk still read into memory (PLTE, tRNS...) is refused over 8 MB (docs/limits.md).
    png_set_chunk_malloc_max(decoder->png, 8u << 20);
    return decoder;
}

mpng_decoder *mpng_decoder_create(const uint8_t *data, size_t size,
                                  uint32_t max_width, uint32_t max_height) {
    return decoder_create(data, size, -1, max_width, max_height);
}

mpng_decoder *mpng_decoder_create_fd(int fd, uint32_t max_width, uint32_t max_height) {
    if (fd < 0) return NULL;
    return decoder_create(NULL, 0, fd, max_width, max_height);
}

mpng_status mpng_decoder_read_header(mpng_decoder *decoder) {
    if (!decoder || decoder->state != 0 || decoder->failed) return MPNG_BAD_CALL;
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    uint8_t start[8];
    size_t checked = source_read(decoder, start, 8);
    if (decoder->io_error) {
        decoder->failed = 1;
        return MPNG_IO_ERROR;
    }
    if (checked == 0) {
        copy_message(decoder->message, sizeof decoder->message, "empty input");
        return MPNG_NOT_PNG;
    }
    if (memcmp(start, signature, checked) != 0) {
        copy_message(decoder->message, sizeof decoder->message, "no PNG signature");
        return MPNG_NOT_PNG;
    }
    if (checked < 8) {
        copy_message(decoder->message, sizeof decoder->message, "data ends inside the PNG signature");
        return MPNG_TRUNCATED;
    }
    png_set_sig_bytes(decoder->png, 8);

    if (setjmp(png_jmpbuf(decoder->png))) return decoder_failure(decoder);
    png_read_info(decoder->png, decoder->info);
    decoder->state = 1;
    uint32_t width = png_get_image_width(decoder->png, decoder->info);
    uint32_t height = png_get_image_height(decoder->png, decoder->info);
    if (width > decoder->max_width || height > decoder->max_height) {
        snprintf(decoder->message, sizeof decoder->message,
                 "%ux%u pixels exceeds the limit of %ux%u", width, height,
                 decoder->max_width, decoder->max_height);
        decoder->failed = 1;
        return MPNG_TOO_LARGE;
    }
    return MPNG_OK;
}

uint32_t mpng_decoder_width(const mpng_decoder *d) {
    return d && d->state >= 1 ? png_get_image_width(d->png, d->info) : 0;
}
uint32_t mpng_decoder_height(const mpng_decoder *d) {
    return d && d->state >= 1 ? png_get_image_height(d->png, d->info) : 0;
}
int mpng_decoder_bit_depth(const mpng_decoder *d) {
    return d && d->state >= 1 ? png_get_bit_depth(d->png, d->info) : 0;
}
int mpng_decoder_color_type(const mpng_decoder *d) {
    return d && d->state >= 1 ? png_get_color_type(d->png, d->info) : -1;
}
int mpng_decoder_interlaced(const mpng_decoder *d) {
    return d && d->state >= 1 ? png_get_interlace_type(d->png, d->info) != PNG_INTERLACE_NONE : 0;
}

mpng_status mpng_decoder_read_rgba8(mpng_decoder *decoder, uint8_t *pixels, size_t stride) {
    if (!decoder || decoder->state != 1 || decoder->failed || !pixels) return MPNG_BAD_CALL;
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    uint32_t width = png_get_image_width(png, info);
    uint32_t height = png_get_image_height(png, info);
    if (stride < (size_t)width * 4) return MPNG_BAD_CALL;
    decoder->rows = malloc((size_t)height * sizeof(png_bytep));
    if (!decoder->rows) {
        copy_message(decoder->message, sizeof decoder->message, "out of memory");
        return MPNG_NO_MEMORY;
    }
    for (uint32_t y = 0; y < height; y++) decoder->rows[y] = pixels + (size_t)y * stride;

    if (setjmp(png_jmpbuf(png))) return decoder_failure(decoder);
    // Everything to straight RGBA8: palette -> RGB, gray < 8 bits -> 8 bits, tRNS -> alpha,
    // 16 -> 8 bits by scaling, gray -> RGB, and an opaque alpha where there is none.
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    decoder->state = 2;
    if (png_get_rowbytes(png, info) != (size_t)width * 4 || png_get_bit_depth(png, info) != 8) {
        copy_message(decoder->message, sizeof decoder->message, "could not convert to 8-bit RGBA");
        decoder->failed = 1;
        return MPNG_MALFORMED;
    }
    png_read_image(png, decoder->rows);
    png_read_end(png, NULL);
    return MPNG_OK;
}

const char *mpng_decoder_message(const mpng_decoder *decoder) {
    return decoder ? decoder->message : "";
}

void mpng_decoder_destroy(mpng_decoder *decoder) {
    if (!decoder) return;
    if (decoder->png) png_destroy_read_struct(&decoder->png, decoder->info ? &decoder->info : NULL, NULL);
    free(decoder->rows);
    free(decoder->file_buffer);
    free(decoder);
}

// ---- Encoding ----

static void encoder_error(png_structp png, png_const_charp message) {
    mpng_buffer *out = (mpng_buffer *)png_get_error_ptr(png);
    if (out) copy_message(out->message, sizeof out->message, message);
    png_longjmp(png, 1);
}

static void encoder_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void encoder_write(png_structp png, png_bytep data, size_t length) {
    mpng_buffer *out = (mpng_buffer *)png_get_io_ptr(png);
    if (length > out->capacity - out->size) {
        size_t capacity = out->capacity ? out->capacity : 16384;
        while (capacity - out->size < length) capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (!grown) png_error(png, "out of memory");
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, data, length);
    out->size += length;
}

static void encoder_flush(png_structp png) { (void)png; }

static int png_color_type_for(mpng_color color) {
    switch (color) {
    case MPNG_COLOR_PALETTE: return PNG_COLOR_TYPE_PALETTE;
    case MPNG_COLOR_RGB: return PNG_COLOR_TYPE_RGB;
    case MPNG_COLOR_RGBA: return PNG_COLOR_TYPE_RGB_ALPHA;
    case MPNG_COLOR_GRAY: return PNG_COLOR_TYPE_GRAY;
    case MPNG_COLOR_GRAY_ALPHA: return PNG_COLOR_TYPE_GRAY_ALPHA;
    }
    return -1;
}

static int channels_for(mpng_color color) {
    switch (color) {
    case MPNG_COLOR_PALETTE: case MPNG_COLOR_GRAY: return 1;
    case MPNG_COLOR_GRAY_ALPHA: return 2;
    case MPNG_COLOR_RGB: return 3;
    case MPNG_COLOR_RGBA: return 4;
    }
    return 0;
}

static int png_filters_for(mpng_filter filter) {
    switch (filter) {
    case MPNG_FILTER_NONE: return PNG_FILTER_NONE;
    case MPNG_FILTER_SUB: return PNG_FILTER_SUB;
    case MPNG_FILTER_UP: return PNG_FILTER_UP;
    case MPNG_FILTER_AVERAGE: return PNG_FILTER_AVG;
    case MPNG_FILTER_PAETH: return PNG_FILTER_PAETH;
    case MPNG_FILTER_ADAPTIVE: return PNG_ALL_FILTERS;
    }
    return -1;
}

static int zlib_strategy_for(mpng_strategy strategy) {
    switch (strategy) {
    case MPNG_STRATEGY_DEFAULT: return Z_DEFAULT_STRATEGY;
    case MPNG_STRATEGY_FILTERED: return Z_FILTERED;
    case MPNG_STRATEGY_RLE: return Z_RLE;
    case MPNG_STRATEGY_HUFFMAN_ONLY: return Z_HUFFMAN_ONLY;
    }
    return -1;
}

static mpng_status bad_parameters(mpng_buffer *out, const char *why) {
    copy_message(out->message, sizeof out->message, why);
    return MPNG_BAD_CALL;
}

mpng_status mpng_encode(const mpng_encode_params *p, mpng_buffer *out) {
    if (!out) return MPNG_BAD_CALL;
    memset(out, 0, sizeof *out);
    if (!p) return bad_parameters(out, "no parameters");
    int color_type = png_color_type_for(p->color);
    int filters = png_filters_for(p->filter);
    int strategy = zlib_strategy_for(p->strategy);
    if (color_type < 0 || filters < 0 || strategy < 0) return bad_parameters(out, "unknown colour type, filter or strategy");
    if (p->width == 0 || p->height == 0) return bad_parameters(out, "an image with no pixels cannot be a PNG");
    if (p->width > PNG_UINT_31_MAX || p->height > PNG_UINT_31_MAX) return bad_parameters(out, "image too large for PNG");
    if (p->zlib_level < 0 || p->zlib_level > 9) return bad_parameters(out, "zlib level outside 0...9");
    int depth = p->bit_depth;
    if (p->color == MPNG_COLOR_PALETTE || p->color == MPNG_COLOR_GRAY) {
        if (depth != 1 && depth != 2 && depth != 4 && depth != 8) return bad_parameters(out, "bit depth must be 1, 2, 4 or 8");
    } else if (depth != 8) {
        return bad_parameters(out, "bit depth must be 8");
    }
    size_t row_bytes = ((size_t)p->width * (size_t)channels_for(p->color) * (size_t)depth + 7) / 8;
    if (!p->rows || p->stride < row_bytes) return bad_parameters(out, "rows missing or stride too small");
    png_color palette[256];
    if (p->color == MPNG_COLOR_PALETTE) {
        if (!p->palette_rgb || p->palette_count < 1 || p->palette_count > (1 << depth))
            return bad_parameters(out, "palette missing or too large for the bit depth");
        if (p->alpha_count < 0 || p->alpha_count > p->palette_count || (p->alpha_count > 0 && !p->palette_alpha))
            return bad_parameters(out, "more tRNS entries than palette entries");
        for (int i = 0; i < p->palette_count; i++) {
            palette[i].red = p->palette_rgb[3 * i];
            palette[i].green = p->palette_rgb[3 * i + 1];
            palette[i].blue = p->palette_rgb[3 * i + 2];
        }
    }

    png_bytep *rows = malloc((size_t)p->height * sizeof(png_bytep));
    if (!rows) {
        copy_message(out->message, sizeof out->message, "out of memory");
        return MPNG_NO_MEMORY;
    }
    for (uint32_t y = 0; y < p->height; y++) rows[y] = (png_bytep)(p->rows + (size_t)y * p->stride);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, out, encoder_error, encoder_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        if (png) png_destroy_write_struct(&png, NULL);
        free(rows);
        copy_message(out->message, sizeof out->message, "out of memory");
        return MPNG_NO_MEMORY;
    }

    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        return strstr(out->message, "memory") ? MPNG_NO_MEMORY : MPNG_MALFORMED;
    }
    png_set_write_fn(png, out, encoder_write, encoder_flush);
    png_set_IHDR(png, info, p->width, p->height, depth, color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (p->color == MPNG_COLOR_PALETTE) {
        png_set_PLTE(png, info, palette, p->palette_count);
        if (p->alpha_count > 0) png_set_tRNS(png, info, p->palette_alpha, p->alpha_count, NULL);
    }
    if (p->pixels_per_metre > 0)
        png_set_pHYs(png, info, p->pixels_per_metre, p->pixels_per_metre, PNG_RESOLUTION_METER);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_compression_level(png, p->zlib_level);
    png_set_compression_strategy(png, strategy);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    return MPNG_OK;
}

void mpng_buffer_free(mpng_buffer *buffer) {
    if (!buffer) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = buffer->capacity = 0;
}
