#!/usr/bin/python3
"""Writes Fixtures/png/colour-types/*.png: one small PNG per PNG colour type and bit depth,
each plain and interlaced (Adam7), with and without tRNS where PNG allows it.

The files are written by pypng (Debian's python3-png), a pure-Python encoder independent of
the libpng that Meridian decodes with; RasterTests decode each file with Meridian and with
pypng (reference-decode.py) and require identical RGBA8 pixels.

Run from anywhere: /usr/bin/python3 Fixtures/png/make-colour-types.py
The output is deterministic, so rerunning it leaves the committed files unchanged.
"""
import os
import png

WIDTH, HEIGHT = 37, 23  # odd sizes: partial bytes at 1/2/4 bits and partial Adam7 passes
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "colour-types")


def sample(x, y, channel, depth):
    """A value pattern that visits the whole range of a `depth`-bit sample."""
    top = (1 << depth) - 1
    if depth == 16:
        return (x * 1237 + y * 4099 + x * y * 31 + channel * 20011) % 65536
    return (x * 7 + y * 13 + x * y + channel * 5) % (top + 1)


def rows(channels, depth, width=WIDTH, height=HEIGHT, alpha_channel=None):
    out = []
    for y in range(height):
        row = []
        for x in range(width):
            for c in range(channels):
                v = sample(x, y, c, depth)
                if c == alpha_channel and (x + y) % 5 == 0:
                    # some fully transparent and fully opaque samples as well
                    v = 0 if (x + y) % 10 == 0 else (1 << depth) - 1
                row.append(v)
        out.append(row)
    return out


def write(name, rows_, width=WIDTH, height=HEIGHT, **kwargs):
    for interlace in (False, True):
        path = os.path.join(OUT, name + ("-interlaced" if interlace else "") + ".png")
        writer = png.Writer(width, height, interlace=interlace, **kwargs)
        with open(path, "wb") as f:
            writer.write(f, rows_)


def palette(count, translucent):
    entries = []
    for i in range(count):
        rgb = ((i * 53) % 256, (i * 101 + 17) % 256, (255 - i * 29) % 256)
        if translucent and i < count // 2:
            entries.append(rgb + ((i * 37) % 256,))
        else:
            entries.append(rgb + (255,) if translucent else rgb)
    return entries


def main():
    os.makedirs(OUT, exist_ok=True)
    for depth in (1, 2, 4, 8, 16):
        write("gray%d" % depth, rows(1, depth), greyscale=True, bitdepth=depth)
    write("gray8-trns", rows(1, 8), greyscale=True, bitdepth=8, transparent=sample(3, 1, 0, 8))
    write("gray2-trns", rows(1, 2), greyscale=True, bitdepth=2, transparent=1)
    write("gray16-trns", rows(1, 16), greyscale=True, bitdepth=16, transparent=sample(5, 2, 0, 16))
    for depth in (8, 16):
        write("grayalpha%d" % depth, rows(2, depth, alpha_channel=1), greyscale=True, alpha=True, bitdepth=depth)
        write("rgb%d" % depth, rows(3, depth), greyscale=False, bitdepth=depth)
        write("rgba%d" % depth, rows(4, depth, alpha_channel=3), greyscale=False, alpha=True, bitdepth=depth)
    rgb8 = rows(3, 8)
    write("rgb8-trns", rgb8, greyscale=False, bitdepth=8, transparent=tuple(rgb8[4][3 * 6:3 * 6 + 3]))
    rgb16 = rows(3, 16)
    write("rgb16-trns", rgb16, greyscale=False, bitdepth=16, transparent=tuple(rgb16[2][3 * 9:3 * 9 + 3]))
    for depth in (1, 2, 4, 8):
        count = min(1 << depth, 200)  # the 8-bit palette is not full: indices < 200 only
        indices = [[(x * 3 + y * 5 + x * y) % count for x in range(WIDTH)] for y in range(HEIGHT)]
        write("palette%d" % depth, indices, palette=palette(count, False), bitdepth=depth)
        write("palette%d-trns" % depth, indices, palette=palette(count, True), bitdepth=depth)
    # Degenerate sizes: Adam7 passes with no pixels at all.
    write("tiny-1x1-rgba8", [[10, 20, 30, 40]], width=1, height=1, greyscale=False, alpha=True, bitdepth=8)
    write("tiny-3x2-palette1", [[0, 1, 1], [1, 0, 0]], width=3, height=2,
          palette=[(255, 0, 0), (0, 0, 255)], bitdepth=1)


if __name__ == "__main__":
    main()
