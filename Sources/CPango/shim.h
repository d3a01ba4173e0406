#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>

// PANGO_FC_FONT_MAP() is a cast macro Swift cannot import.
static inline PangoFcFontMap *meridian_as_fc_font_map(PangoFontMap *map) {
    return (PangoFcFontMap *)map;
}

// PANGO_CAIRO_FONT() is a cast macro too: the Cairo font of a Pango font, for drawing single
// glyphs (text along lines).
static inline cairo_scaled_font_t *meridian_scaled_font(PangoFont *font) {
    return pango_cairo_font_get_scaled_font((PangoCairoFont *)font);
}
