#!/usr/bin/python3
"""Reference PNG decoding for Meridian's tests: decodes PNG files with pypng (Debian's
python3-png, pure Python and independent of libpng) and prints, for each file, a line
`WIDTH HEIGHT` followed by WIDTH*HEIGHT*4 bytes of straight RGBA8.

16-bit samples become round(v * 255 / 65535), lower bit depths scale to 0...255, tRNS
becomes alpha, gamma is not applied: the same conventions as Meridian's decoder. A file
pypng cannot read makes it exit with status 1 and the reason on stderr.

usage: /usr/bin/python3 reference-decode.py FILE.png [FILE.png ...]
"""
import sys
import png


def main():
    out = sys.stdout.buffer
    for path in sys.argv[1:]:
        try:
            width, height, rows, _ = png.Reader(filename=path).asRGBA8()
            data = bytearray()
            for row in rows:
                data.extend(bytes(row))
        except Exception as error:  # any pypng failure: report it, the test fails
            sys.stderr.write("%s: %s\n" % (path, error))
            sys.exit(1)
        if len(data) != width * height * 4:
            sys.stderr.write("%s: decoded %d bytes, expected %d\n" % (path, len(data), width * height * 4))
            sys.exit(1)
        out.write(b"%d %d\n" % (width, height))
        out.write(data)


if __name__ == "__main__":
    main()
