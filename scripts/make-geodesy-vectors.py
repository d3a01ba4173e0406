#!/usr/bin/env python3
"""Makes the geodesy test vectors in Fixtures/geodesy with GeographicLib's GeoConvert
(Debian geographiclib-tools 2.1.2): `python3 scripts/make-geodesy-vectors.py`.

Positions are random (fixed seed) all over the globe, denser in the polar caps, plus the
edge cases: band and zone edges, the Norway and Svalbard exception meridians around
56°N-64°N and 72°N-84°N, 80°S, 84°N, ±180°, the poles and the equator. Every output
column comes straight from one GeoConvert run; nothing is computed here.

Files (tab-separated; a cell GeoConvert rejected reads ERROR):
  positions.txt       LAT LON, one a line: the inputs of everything below
  dd-mgrs.tsv         LAT LON, then MGRS at GeoConvert -p -6 ... 6 (13 columns)
  dd-utm.tsv          LAT LON, UTM/UPS at -p 9, the precision P (cycling through -5 ... 9),
                      UTM/UPS at -p P
  dd-dms.tsv          LAT LON, DD at -p 9, DMS at -p 0, the precision P (cycling through
                      -5 ... 10), DD at -p P, DMS at -p P
  mgrs-dd.tsv         MGRS (each precision in turn), its centre as DD -p 9, as UTM -p 9,
                      and MGRS again (-p 6)
  utm-dd.tsv          UTM/UPS (standard zone and neighbours, both hemispheres), DD -p 9,
                      UTM -p 9 (hemisphere fixed as GeoConvert does), MGRS -p 6
  zone-utm.tsv        LAT LON ZONE: forced zone (-z, 0 = UPS), UTM -p 9, MGRS -p 6
  dms-dd.tsv          a DMS text pair, DD at -p 6
  tm-exact.tsv        LON0 LAT LON, then x y gamma k from TransverseMercatorProj (the exact
                      projection by elliptic functions, not the series), k0 = 0.9996,
                      up to 15° from the central meridian
  errors.txt          lines GeoConvert rejects, with its message
"""
import math
import os
import random
import re
import subprocess
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "geodesy")


def geoconvert(lines, *options):
    """Runs GeoConvert once over all lines; returns one output line per input line."""
    run = subprocess.run(["GeoConvert", *options], input="\n".join(lines) + "\n",
                         capture_output=True, text=True)
    out = run.stdout.splitlines()
    if len(out) != len(lines):
        sys.exit(f"GeoConvert {options}: {len(out)} lines for {len(lines)} inputs")
    return ["ERROR" if o.startswith("ERROR") else o for o in out]


def geoconvert_tool(tool, lines, *options):
    run = subprocess.run([tool, *options], input="\n".join(lines) + "\n", capture_output=True, text=True)
    out = run.stdout.splitlines()
    if len(out) != len(lines):
        sys.exit(f"{tool} {options}: {len(out)} lines for {len(lines)} inputs")
    return out


def fmt(x):
    s = f"{x:.10f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def positions():
    rnd = random.Random(20260404)
    pts = []
    # Uniform on the sphere, and a denser cover of the polar caps (UPS).
    for _ in range(7000):
        pts.append((math.degrees(math.asin(rnd.uniform(-1, 1))), rnd.uniform(-180, 180)))
    for _ in range(1000):
        pts.append((rnd.choice((1, -1)) * rnd.uniform(76, 90), rnd.uniform(-180, 180)))
    offsets = (0, 1e-9, -1e-9, 1e-6, -1e-6, 1e-3, -1e-3)
    # Band edges (every 8° from 80°S to 72°N, and 84°N) at random longitudes.
    for lat in list(range(-80, 73, 8)) + [84]:
        for d in offsets:
            for _ in range(4):
                pts.append((lat + d, rnd.uniform(-180, 180)))
    # Zone edges at random latitudes, including ±180°.
    for lon in range(-180, 181, 6):
        for d in offsets:
            for _ in range(2):
                pts.append((rnd.uniform(-80, 84), lon + d))
    # The Norway and Svalbard exception meridians, inside and around the bands V and X.
    for lon in (0, 3, 6, 9, 12, 18, 21, 24, 30, 33, 36, 42):
        for d in offsets:
            for lat in (55.9999, 56, 56.0001, 60, 63.9999, 64, 64.0001, 71.9999, 72, 72.0001,
                        78, 83.9999):
                pts.append((lat, lon + d))
            for _ in range(6):
                pts.append((rnd.uniform(54, 66), lon + d))
                pts.append((rnd.uniform(70, 84), lon + d))
    # UTM/UPS limits: 80°S and 84°N.
    for lat in (-80, 84):
        for d in (0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-7, -1e-7, 1e-5, -1e-5):
            for lon in (-180, -179.5, -90, -3, 0, 0.5, 3, 9, 33, 45, 90, 135, 179.9999999, 180):
                pts.append((lat + d, lon))
    # Poles, the equator (both signs of zero), the antimeridian.
    for lon in (-180, -135, -90, -45, -1e-9, 0, 1e-9, 45, 90, 135, 180):
        pts += [(90, lon), (-90, lon), (89.9999999, lon), (-89.9999999, lon)]
    for lon in range(-180, 181, 15):
        pts += [(0, lon), ("-0", lon), (1e-12, lon), (-1e-12, lon), (1e-7, lon + 1e-7)]
    for lat in range(-90, 91, 10):
        pts += [(lat, 180), (lat, -180), (lat, 179.9999999999), (lat, -179.9999999999)]
    # Seconds that round up to a carry in DMS (59.99999" at a few precisions).
    for _ in range(300):
        d, m = rnd.randint(0, 89), rnd.randint(0, 59)
        e = rnd.choice((5e-5, 5e-7, 5e-9, 1e-11)) / 3600
        pts.append((d + m / 60 + 59.99999 / 3600 + e, -(rnd.randint(0, 179) + 59 / 60 + 59.99 / 3600 + e)))
    return [(lat if isinstance(lat, str) else fmt(lat)) + " " + fmt(lon) for lat, lon in pts]


def write(name, rows):
    with open(os.path.join(OUT, name), "w") as f:
        for row in rows:
            f.write("\t".join(row) + "\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    pts = positions()
    write("positions.txt", [[p] for p in pts])

    mgrs = {p: geoconvert(pts, "-m", "-p", str(p)) for p in range(-6, 7)}
    write("dd-mgrs.tsv", [[pt] + [mgrs[p][i] for p in range(-6, 7)] for i, pt in enumerate(pts)])

    utm = {p: geoconvert(pts, "-u", "-p", str(p)) for p in range(-5, 10)}
    write("dd-utm.tsv", [[pt, utm[9][i], str(-5 + i % 15), utm[-5 + i % 15][i]]
                         for i, pt in enumerate(pts)])

    dd = {p: geoconvert(pts, "-g", "-p", str(p)) for p in range(-5, 11)}
    dms = {p: geoconvert(pts, "-d", "-p", str(p)) for p in range(-5, 11)}
    write("dd-dms.tsv", [[pt, dd[9][i], dms[0][i], str(-5 + i % 16), dd[-5 + i % 16][i],
                          dms[-5 + i % 16][i]] for i, pt in enumerate(pts)])

    # MGRS in: each position at one precision, cycling through all of them.
    refs = [mgrs[-6 + i % 13][i] for i in range(len(pts))]
    refs = [r for r in refs if r != "ERROR"]
    write("mgrs-dd.tsv", [list(r) for r in zip(refs, geoconvert(refs, "-g", "-p", "9"),
                                             geoconvert(refs, "-u", "-p", "9"),
                                             geoconvert(refs, "-m", "-p", "6"))])

    # UTM in: the standard zone at mm, and the neighbouring zones / the other hemisphere's
    # northing numbering for some, as GeoConvert -z writes them.
    rnd = random.Random(7)
    ins = [u for u in utm[3] if u != "ERROR"]
    zoned = []
    for i, pt in enumerate(pts[:3000]):
        lat = float(pt.split()[0])
        z = utm[0][i].split()[0] if utm[0][i] != "ERROR" else "n"
        zone = int(z[:-1]) if len(z) > 1 else 0
        choices = [str(zone % 60 + 1), str((zone - 2) % 60 + 1)] if zone else ["31"]
        if abs(lat) >= 70:
            choices.append("0")
        if zone and abs(lat) < 5:
            choices.append(f"{zone}{'s' if lat >= 0 else 'n'}")
        zoned.append((pt, rnd.choice(choices)))
    def by_zone(*options):
        """GeoConvert -z for each position's zone, one run per distinct zone."""
        out = [None] * len(zoned)
        for z in sorted(set(z for _, z in zoned)):
            idx = [i for i, (_, zz) in enumerate(zoned) if zz == z]
            for i, o in zip(idx, geoconvert([zoned[i][0] for i in idx], *options, "-z", z)):
                out[i] = o
        return out
    ins += [u for u in by_zone("-u", "-p", "3") if u != "ERROR"]
    write("utm-dd.tsv", [list(r) for r in zip(ins, geoconvert(ins, "-g", "-p", "9"),
                                            geoconvert(ins, "-u", "-p", "9"),
                                            geoconvert(ins, "-m", "-p", "6"))])

    write("zone-utm.tsv", [[pt, z, u, m] for (pt, z), u, m in
                           zip(zoned, by_zone("-u", "-p", "9"), by_zone("-m", "-p", "6"))])

    # DMS in: GeoConvert's own DMS output (with d, ', ") and the same with ° and no padding.
    dmsin = [dms[p][i] for i in range(0, len(pts), 5) for p in (-5, -3, -1, 2, 8)]
    variants = []
    for k, s in enumerate(dmsin):
        if k % 2:
            lat, lon = s.split()
            s = lat.replace("d", "°") + " " + re.sub(r"^0+(?=[0-9])", "", lon.replace("d", "°"))
        variants.append(s)
    variants += ["45°30'15.5\"N 75°30'15\"W", "-45 30 15 -75 30 15", "N45:30 W75:15:30.5",
                 "45d30'N 075d15'30\"W", "E44.4 N33.3", "33.3N 44.4E", "-0.5 -0.25"]
    ddout = geoconvert([v if v != "-45 30 15 -75 30 15" else "-45:30:15 -75:30:15" for v in variants],
                       "-g", "-p", "6")
    write("dms-dd.tsv", [list(r) for r in zip(variants, ddout)])

    # The exact transverse Mercator as the reference for the series, within and outside zones.
    rnd = random.Random(11)
    tm = []
    for lon0 in (-177, -75, 3, 33, 177):
        pts0 = []
        for k in range(600):
            reach = 3.5 if k % 3 == 0 else 15
            pts0.append(fmt(rnd.uniform(-84, 84)) + " " + fmt(lon0 + rnd.uniform(-reach, reach)))
        out = geoconvert_tool("TransverseMercatorProj", pts0, "-l", str(lon0), "-k", "0.9996", "-p", "9")
        tm += [[str(lon0), p, o] for p, o in zip(pts0, out)]
    write("tm-exact.tsv", tm)

    bad = ["91 0", "-90.0001 10", "0 541", "0 -1000", "38SMB4", "38SMB44 1", "61SMB", "38IMB",
           "38SMI", "38SIB", "32XMF", "Q", "AAA", "38n 2000000 0", "38n 500000 9700000",
           "38s 500000 800000", "n 1000000 2000000", "61n 500000 0", "x 1 2", "",
           "38SMB445566778899001122334", "ZZZ", "BAN00", "38SMB4488x", "45x 75"]
    msgs = geoconvert(bad, "-g")
    write("errors.txt", [[b, m] for b, m in zip(bad, msgs)])


if __name__ == "__main__":
    main()
