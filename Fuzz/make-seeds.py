#!/usr/bin/env python3
"""Writes the seed corpus of one fuzz target into a folder (scripts/fuzz.sh calls this).

    make-seeds.py json|map|geojson|png FOLDER

Seeds are the fixtures (Fixtures/maps, Fixtures/data, Fixtures/png) cut to the size the
fuzzer works with, plus small hand-made edge cases. Reproducers of fixed crashes are not made
here: they live in Fuzz/seeds/TARGET/ and are read from there.
"""
import json
import os
import struct
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Fixtures")
MAX_LEN = {"json": 16384, "map": 16384, "geojson": 65536, "png": 16384}  # as in scripts/fuzz.sh


def fixtures(folder, suffix):
    folder = os.path.join(FIXTURES, folder)
    for name in sorted(os.listdir(folder)):
        if name.endswith(suffix):
            with open(os.path.join(folder, name), "rb") as f:
                yield name, f.read()


def single_features(limit):
    """Each feature of the GeoJSON fixtures as its own FeatureCollection, when small enough."""
    for name, data in fixtures("data", ".geojson"):
        for i, feature in enumerate(json.loads(data)["features"]):
            text = json.dumps({"type": "FeatureCollection", "features": [feature]}).encode()
            if len(text) <= limit:
                yield "%s-%d.geojson" % (name[:-8], i), text


JSON_EDGES = {
    "empty-object.json": b"{}",
    "scalars.json": b'[true, false, null, 0, -0, 1.5e-3, -12E+2, "", "x"]',
    "escapes.json": b'["\\"\\\\\\/\\b\\f\\n\\r\\t", "\\u00e9\\u0000", "\\ud83d\\ude00"]',
    "bom.json": b"\xef\xbb\xbf{\"a\": 1}",
    "utf8.json": '{"Zürich": "北京", "emoji": "😀"}'.encode(),
    "nesting-100.json": b"[" * 100 + b"]" * 100,
    "nesting-101.json": b"[" * 101 + b"]" * 101,
    "numbers.json": b"[1e308, 5e-324, 123456789012345678901234567890, -0.0, 0.1]",
    "duplicate.json": b'{"a": 1, "a": 2}',
    "lone-surrogate.json": b'["\\ud800"]',
    "control.json": b'["a\tb"]',
    "trailing.json": b"[1] [2]",
    "unterminated.json": b'{"a": [1, 2',
}

MAP_EDGES = {
    "minimal.json": b'{"layers": []}',
    "every-key.json": json.dumps({
        "name": "m", "attribution": "a", "background": "#fff", "referenceScale": 50000,
        "fonts": ["fonts"], "systemFonts": False,
        "grid": {"type": "mgrs", "labelPosition": "bottomLeft"},
        "layers": [{
            "name": "a", "source": "a.geojson", "visible": True, "minScale": 1000, "maxScale": 1e7,
            "scalesSymbols": True,
            "filter": {"all": [{"property": "p", ">=": 1}, {"not": {"property": "q", "in": [1, "x"]}},
                               {"any": [{"property": "r", "exists": True}, {"property": "s", "notIn": [None]}]}]},
            "marker": {"shape": "star", "size": 8, "fill": "red", "outline": {"color": "#0008", "width": 1}},
            "line": {"color": "blue", "width": 2, "dash": [4, 2], "cap": "round", "join": "bevel", "opacity": 0.5},
            "fill": {"color": "#abcdef", "opacity": 0.25, "outline": {"width": 0.5}},
            "label": {"text": "{name} ({pop})", "font": "DejaVu Sans", "bold": True, "italic": False,
                      "size": 9, "color": "black", "halo": {"color": "white", "width": 2},
                      "offset": [1, -2], "priority": 3},
        }],
    }).encode(),
    "template-braces.json": b'{"layers": [{"name": "a", "source": "a", "label": {"text": "{{x}} {"}}]}',
    "duplicate-layer.json": b'{"layers": [{"name": "a", "source": "a", "line": {}}, {"name": "a", "source": "b", "line": {}}]}',
}

GEOJSON_EDGES = {
    "point.geojson": b'{"type": "Point", "coordinates": [180, -90]}',
    "feature-null.geojson": b'{"type": "Feature", "geometry": null, "properties": null}',
    "collection.geojson": b'{"type": "GeometryCollection", "geometries": [{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}, {"type": "MultiPoint", "coordinates": [[2, 2]]}]}',
    "polygon-hole.geojson": b'{"type": "Polygon", "coordinates": [[[0,0],[10,0],[10,10],[0,10],[0,0]], [[2,2],[3,2],[3,3],[2,2]]]}',
    "degenerate-ring.geojson": b'{"type": "Polygon", "coordinates": [[[1,1],[1,1],[1,1],[1,1]]]}',
    "collinear-ring.geojson": b'{"type": "Polygon", "coordinates": [[[0,0],[1,1],[2,2],[0,0]]]}',
    "pole.geojson": b'{"type": "MultiPolygon", "coordinates": [[[[-180,-90],[180,-90],[180,90],[-180,90],[-180,-90]]]]}',
    "properties.geojson": b'{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2, 3]}, "properties": {"a": [1, {"b": null}], "c": "\\u00e9"}}',
    "tiny-line.geojson": b'{"type": "LineString", "coordinates": [[0, 0], [0, 0]]}',
}


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width, height, depth, colour, rows, interlace=0, extra=b"", idat=None):
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
    data = zlib.compress(rows) if idat is None else idat
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + extra + png_chunk(b"IDAT", data)
            + png_chunk(b"IEND", b""))


def png_edges():
    yield "gray-1x1.png", png(1, 1, 8, 0, b"\x00\x80")
    yield "interlaced-1x1.png", png(1, 1, 8, 6, b"\x00\x01\x02\x03\x04", interlace=1)
    # A header far over the pixel limit, one just over the fuzz target's (a small file that
    # inflates to 1 MB) and one at it (a 256 x 256 tile).
    yield "huge-claim.png", png(100000, 100000, 8, 6, b"\x00" * 5)
    yield "bomb-512.png", png(512, 512, 1, 0, (b"\x00" + b"\x00" * 64) * 512)
    yield "tile-256.png", png(256, 256, 8, 2, (b"\x00" + b"\x7f" * 768) * 256)
    yield "no-idat.png", b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0)) + png_chunk(b"IEND", b"")
    yield "palette-index-out-of-range.png", png(2, 1, 8, 3, b"\x00\x00\x05", extra=png_chunk(b"PLTE", b"\xff\x00\x00"))
    yield "trns-longer-than-plte.png", png(1, 1, 8, 3, b"\x00\x00", extra=png_chunk(b"PLTE", b"\xff\x00\x00") + png_chunk(b"tRNS", b"\x00\x80\xff"))
    yield "split-idat.png", png(2, 2, 8, 0, b"", idat=b"", extra=b"".join(
        png_chunk(b"IDAT", part) for part in [b"", zlib.compress(b"\x00\x01\x02\x00\x03\x04")[:3],
                                              zlib.compress(b"\x00\x01\x02\x00\x03\x04")[3:]]))
    bad_crc = bytearray(png_chunk(b"tEXt", b"Comment\x00hello"))
    bad_crc[-1] ^= 0xFF
    yield "ancillary-bad-crc.png", png(1, 1, 8, 0, b"\x00\x80", extra=bytes(bad_crc))
    yield "ztxt-and-iccp.png", png(1, 1, 8, 0, b"\x00\x80", extra=png_chunk(b"zTXt", b"k\x00\x00" + zlib.compress(b"x" * 1000))
                                   + png_chunk(b"iCCP", b"p\x00\x00" + zlib.compress(b"\x00" * 200)))
    yield "sixteen-bit.png", png(1, 1, 16, 2, b"\x00\x12\x34\x56\x78\x9a\xbc")
    yield "signature-only.png", b"\x89PNG\r\n\x1a\n"


def seeds(target):
    limit = MAX_LEN[target]
    if target == "json":
        yield from fixtures("maps", ".json")
        yield from ((n, d) for n, d in fixtures("data", ".geojson") if len(d) <= limit)
        yield from JSON_EDGES.items()
    elif target == "map":
        yield from fixtures("maps", ".json")
        yield from MAP_EDGES.items()
    elif target == "geojson":
        yield from ((n, d) for n, d in fixtures("data", ".geojson") if len(d) <= limit)
        yield from single_features(limit)
        yield from GEOJSON_EDGES.items()
    elif target == "png":
        yield from fixtures("png/colour-types", ".png")
        yield from png_edges()
    else:
        sys.exit("make-seeds.py: unknown target %s" % target)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    target, folder = sys.argv[1], sys.argv[2]
    for name, data in seeds(target):
        if len(data) <= MAX_LEN[target]:
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)


main()
