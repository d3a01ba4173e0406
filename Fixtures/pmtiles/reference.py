"""Independent PMTiles reference for Meridian's tests: the PyPI `pmtiles` package (installed
into .build/venv by `make deps`), run as .build/venv/bin/python reference.py COMMAND ...

  dump ARCHIVE       reads the archive with pmtiles.reader and prints one JSON object:
                     "header" (every field, enums by value), "metadata", "got" (each tile of
                     the z/x/y lines given on stdin, looked up with Reader.get, as hex or
                     null) and "all" (every tile the directories list, z/x/y -> hex).
  write ARCHIVE      writes an archive with pmtiles.writer from a JSON object on stdin:
                     {"tiles": [[z, x, y, hex], ...], "metadata": {...}, "header": {...}}
                     (header: tile_type, min/max zoom, bounds and centre in degrees x 10^7).
  ids                prints the tile ID of each z/x/y line on stdin, one per line.
  extract ARCHIVE DIR  writes every tile the directories list to DIR/z/x/y.EXT (EXT from the
                     header's tile type), rows counted from the north, like `meridian tiles -o DIR`.

Any failure raises, so the process exits non-zero and the test fails.
"""
import json
import os
import sys

from pmtiles.reader import MmapSource, Reader, all_tiles
from pmtiles.tile import Compression, TileType, zxy_to_tileid
from pmtiles.writer import Writer


def stdin_tiles():
    return [tuple(int(v) for v in line.split()) for line in sys.stdin if line.strip()]


def dump(path):
    with open(path, "rb") as f:
        source = MmapSource(f)
        reader = Reader(source)
        header = {k: (v.value if hasattr(v, "value") else v) for k, v in reader.header().items()}
        got = {}
        for z, x, y in stdin_tiles():
            data = reader.get(z, x, y)
            got["%d/%d/%d" % (z, x, y)] = None if data is None else bytes(data).hex()
        everything = {}
        for (z, x, y), data in all_tiles(source):
            key = "%d/%d/%d" % (z, x, y)
            if key in everything:
                raise SystemExit("tile %s listed twice" % key)
            everything[key] = bytes(data).hex()
        json.dump({"header": header, "metadata": reader.metadata(), "got": got, "all": everything}, sys.stdout)


def write(path):
    spec = json.load(sys.stdin)
    tiles = sorted((zxy_to_tileid(z, x, y), bytes.fromhex(h)) for z, x, y, h in spec["tiles"])
    header = dict(spec["header"])
    header["tile_type"] = TileType(header["tile_type"])
    header["tile_compression"] = Compression.NONE
    with open(path, "wb") as f:
        writer = Writer(f)
        for tile_id, data in tiles:
            writer.write_tile(tile_id, data)
        writer.finalize(header, spec["metadata"])


def extract(path, folder):
    extensions = {TileType.PNG: "png", TileType.JPEG: "jpg", TileType.WEBP: "webp"}
    with open(path, "rb") as f:
        source = MmapSource(f)
        extension = extensions[Reader(source).header()["tile_type"]]
        for (z, x, y), data in all_tiles(source):
            os.makedirs("%s/%d/%d" % (folder, z, x), exist_ok=True)
            with open("%s/%d/%d/%d.%s" % (folder, z, x, y, extension), "xb") as out:
                out.write(data)


def ids():
    for z, x, y in stdin_tiles():
        print(zxy_to_tileid(z, x, y))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "dump":
        dump(sys.argv[2])
    elif command == "write":
        write(sys.argv[2])
    elif command == "extract":
        extract(sys.argv[2], sys.argv[3])
    elif command == "ids":
        ids()
    else:
        raise SystemExit("unknown command " + command)
