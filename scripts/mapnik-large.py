#!/usr/bin/python3
"""The Mapnik side of `make bench-large`: renders an XYZ pyramid of any Mapnik style (the
GSHHG dataset through Mapnik's OGR input, or a GeoJSON point layer) as renderd does, metatiles
of M x M tiles with a 128 px buffer cut into 256 px PNG tiles, over W worker processes.

Usage: mapnik-large.py STYLE.xml OUT_DIR MINZOOM MAXZOOM WORKERS [METATILE]
Needs Debian's python3-mapnik, run by /usr/bin/python3. Prints: tiles, seconds, bytes.
"""
import math
import os
import sys
import time
from multiprocessing import Pool

import mapnik

SIDE = 256
WORLD = 2 * math.pi * 6378137.0
renderer = None


def start(style):
    global renderer
    renderer = mapnik.Map(SIDE, SIDE)
    mapnik.load_map(renderer, style)
    renderer.buffer_size = 128


def metatile(job):
    out, z, column, row, size = job
    tiles = 2 ** z
    across = min(size, tiles - column)
    down = min(size, tiles - row)
    span = WORLD / tiles
    left = -WORLD / 2 + column * span
    top = WORLD / 2 - row * span
    renderer.resize(across * SIDE, down * SIDE)
    renderer.zoom_to_box(mapnik.Box2d(left, top - down * span, left + across * span, top))
    image = mapnik.Image(across * SIDE, down * SIDE)
    mapnik.render(renderer, image)
    size_written = 0
    for dx in range(across):
        folder = f"{out}/{z}/{column + dx}"
        os.makedirs(folder, exist_ok=True)
        for dy in range(down):
            png = image.view(dx * SIDE, dy * SIDE, SIDE, SIDE).tostring("png32")
            size_written += len(png)
            with open(f"{folder}/{row + dy}.png", "wb") as f:
                f.write(png)
    return across * down, size_written


if __name__ == "__main__":
    style, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    first, last, workers = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    size = int(sys.argv[6]) if len(sys.argv) > 6 else 8
    jobs = [(out, z, x, y, size) for z in range(first, last + 1)
            for x in range(0, 2 ** z, size) for y in range(0, 2 ** z, size)]
    began = time.time()
    with Pool(workers, initializer=start, initargs=(style,)) as pool:
        done = list(pool.imap_unordered(metatile, jobs))
    took = time.time() - began
    print(f"mapnik: {sum(d[0] for d in done)} tiles in {took:.2f} s, {sum(d[1] for d in done)} bytes")
