#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>

// PANGO_FC_FONT_MAP() is a cast macro Swift cannot import.
static inline PangoFcFontMap *meridian_as_fc_font_map(PangoFontMap *map) {
    return (PangoFcFontMap *)map;
}
