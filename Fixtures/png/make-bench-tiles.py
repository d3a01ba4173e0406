#!/usr/bin/python3
"""Writes Fixtures/png/tiles/*.png: representative 256x256 map tiles for the PNG encoder
benchmark (meridian-bench png), drawn with Cairo like Meridian's renderer draws them.

They are made from the fixture data (Fixtures/data: Natural Earth countries and capitals, New
York City boroughs) in Web Mercator, with the kinds of content that decide how well PNG
compresses: open ocean (one colour), coasts and borders (anti-aliased edges between flat
areas), dense labels with halos (text), a street-like line pattern in the city zooms, and
transparent overlay tiles (grid lines and labels only) as a layer over a base map.

Needs Debian's python3-cairo (pycairo); only used to regenerate the committed tiles:
    /usr/bin/python3 Fixtures/png/make-bench-tiles.py
"""
import json
import math
import os

import cairo

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")
OUT = os.path.join(HERE, "tiles")
SIZE = 256

WATER = (0.667, 0.827, 0.875)
LAND = [(0.949, 0.937, 0.914), (0.894, 0.922, 0.847), (0.965, 0.894, 0.847), (0.902, 0.878, 0.949), (0.969, 0.953, 0.820)]
BORDER = (0.45, 0.42, 0.50)
CITY_FILL = (0.90, 0.88, 0.85)
STREET = (1.0, 1.0, 1.0)

# (z, x, y): world zooms, ocean, dense Europe, a land interior, New York City zooms.
BASE_TILES = [
    (0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 0, 1), (2, 1, 1), (2, 2, 1), (2, 3, 1), (2, 0, 2), (2, 2, 2),
    (3, 4, 2), (3, 4, 3), (3, 6, 3), (3, 0, 3), (4, 8, 5), (4, 9, 5), (4, 4, 6), (5, 16, 10), (5, 17, 11),
    (5, 0, 12), (6, 48, 18), (10, 301, 384), (10, 301, 385), (11, 603, 769), (11, 603, 770),
    (12, 1206, 1539), (12, 1207, 1537), (13, 2412, 3078), (13, 2413, 3081), (14, 4825, 6157), (14, 4832, 6159),
    (8, 21, 120), (8, 192, 71),  # open Pacific and Siberian interior: one colour each, the commonest deep tiles
]
OVERLAY_TILES = [(0, 0, 0), (2, 2, 1), (3, 4, 2), (4, 8, 5), (5, 17, 11), (11, 603, 769), (12, 1206, 1539)]


def load(name):
    with open(os.path.join(DATA, name)) as f:
        return json.load(f)["features"]


def project(lon, lat, z, x, y):
    scale = SIZE * 2 ** z
    lat = max(min(lat, 85.0511), -85.0511)
    px = (lon + 180) / 360 * scale - x * SIZE
    s = math.sin(math.radians(lat))
    py = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * scale - y * SIZE
    return px, py


def polygons(geometry):
    if geometry["type"] == "Polygon":
        return [geometry["coordinates"]]
    if geometry["type"] == "MultiPolygon":
        return geometry["coordinates"]
    return []


def path_polygons(ctx, geometry, tile):
    for polygon in polygons(geometry):
        for ring in polygon:
            for i, (lon, lat) in enumerate(ring):
                px, py = project(lon, lat, *tile)
                if i == 0:
                    ctx.move_to(px, py)
                else:
                    ctx.line_to(px, py)
            ctx.close_path()


def label(ctx, text, px, py, size, colour=(0.15, 0.15, 0.2)):
    ctx.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL)
    ctx.set_font_size(size)
    extents = ctx.text_extents(text)
    ctx.move_to(px + 4, py + extents.height / 2)
    ctx.text_path(text)
    ctx.set_source_rgb(1, 1, 1)
    ctx.set_line_width(2.5)
    ctx.stroke_preserve()
    ctx.set_source_rgb(*colour)
    ctx.fill()


def graticule(ctx, tile, step, colour):
    z = tile[0]
    ctx.set_source_rgba(*colour)
    ctx.set_line_width(0.8)
    for lon in range(-180, 181, step):
        a = project(lon, -85, *tile)
        b = project(lon, 85, *tile)
        ctx.move_to(a[0], a[1])
        ctx.line_to(b[0], b[1])
    for lat in range(-80, 81, step):
        a = project(-180, lat, *tile)
        b = project(180, lat, *tile)
        ctx.move_to(a[0], a[1])
        ctx.line_to(b[0], b[1])
    ctx.stroke()


def streets(ctx, tile):
    """A street-like pattern: two families of thin lines at Manhattan's grid angle."""
    z = tile[0]
    spacing = 2 ** (z - 10) * 6.0
    angle = math.radians(29)
    ctx.save()
    ctx.set_source_rgb(*STREET)
    ctx.set_line_width(max(0.6, 2 ** (z - 13) * 1.5))
    for family in (0, 1):
        a = angle + family * math.pi / 2
        dx, dy = math.cos(a), math.sin(a)
        for k in range(-80, 81):
            ox, oy = 128 - dy * k * spacing, 128 + dx * k * spacing
            ctx.move_to(ox - dx * 400, oy - dy * 400)
            ctx.line_to(ox + dx * 400, oy + dy * 400)
    ctx.stroke()
    ctx.restore()


def draw(tile, countries, cities, boroughs, overlay):
    z = tile[0]
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, SIZE, SIZE)
    ctx = cairo.Context(surface)
    if not overlay:
        ctx.set_source_rgb(*WATER)
        ctx.paint()
        for i, feature in enumerate(countries):
            path_polygons(ctx, feature["geometry"], tile)
            ctx.set_source_rgb(*LAND[sum(map(ord, feature["properties"]["name"])) % len(LAND)])
            ctx.fill()
        if z >= 10:
            for feature in boroughs:
                path_polygons(ctx, feature["geometry"], tile)
                ctx.set_source_rgb(*CITY_FILL)
                ctx.fill_preserve()
                ctx.save()
                ctx.clip()
                streets(ctx, tile)
                ctx.restore()
    ctx.set_line_width(0.6 if z < 4 else 1.0)
    ctx.set_source_rgb(*BORDER)
    for feature in countries:
        path_polygons(ctx, feature["geometry"], tile)
    ctx.stroke()
    if z >= 10:
        ctx.set_line_width(1.5)
        for feature in boroughs:
            path_polygons(ctx, feature["geometry"], tile)
        ctx.stroke()
    if z < 8:
        graticule(ctx, tile, 10 if z < 5 else 1, (0.3, 0.3, 0.5, 0.5) if overlay else (0.4, 0.5, 0.7, 0.35))
    if z >= 1:
        for feature in cities:
            lon, lat = feature["geometry"]["coordinates"]
            px, py = project(lon, lat, *tile)
            if -60 < px < SIZE + 10 and -10 < py < SIZE + 10:
                ctx.arc(px, py, 2.5, 0, 2 * math.pi)
                ctx.set_source_rgb(0.7, 0.1, 0.1)
                ctx.fill()
                label(ctx, feature["properties"]["name"], px, py, 9 + z * 0.5)
    if z >= 10:
        for feature in boroughs:
            lons, lats = [], []
            for polygon in polygons(feature["geometry"]):
                for lon, lat in polygon[0]:
                    lons.append(lon)
                    lats.append(lat)
            px, py = project(sum(lons) / len(lons), sum(lats) / len(lats), *tile)
            label(ctx, feature["properties"]["BoroName"], px - 20, py, 12 + (z - 10))
    return surface


def main():
    os.makedirs(OUT, exist_ok=True)
    countries, cities, boroughs = load("countries.geojson"), load("cities.geojson"), load("nybb.geojson")
    for overlay, tiles in ((False, BASE_TILES), (True, OVERLAY_TILES)):
        for tile in tiles:
            name = "%s-%d-%d-%d.png" % ("overlay" if overlay else "base", *tile)
            draw(tile, countries, cities, boroughs, overlay).write_to_png(os.path.join(OUT, name))


if __name__ == "__main__":
    main()
