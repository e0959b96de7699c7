#!/usr/bin/python3
"""Independent reference for the satellite twin's pass predictions.

Computes passes of a few catalog satellites over the two operational ground stations with
Skyfield's own SGP4 (``EarthSatellite``, python-sgp4) and writes them as a JSON fixture that
``src/satdt/domain/passes.test.ts`` compares the TypeScript implementation against.

Regenerate (from packages/systems; Debian's python3-skyfield is required, the pyenv python3 on
PATH lacks it, hence the explicit interpreter):

    /usr/bin/python3 scripts/skyfield_passes.py \
        data/satdt/catalog.tle test/fixtures/satdt/passes-reference.json

Versions used for the committed fixture: Python 3.11, Skyfield 1.45 (Debian python3-skyfield
1.45+ds-2), sgp4 2.15 (pure-Python, not the C++ accelerated build), NumPy 1.24.2. The versions
actually used are also recorded in the fixture's ``generator`` field.

Conventions, chosen to match how SGP4 is meant to be used (and what the twin does):
- UT1 is taken equal to UTC. Skyfield applies UT1-UTC from its IERS table by default (about
  +0.39 s in mid 2026, i.e. ~180 m of Earth rotation at the equator); building the timescale
  with a constant delta_t = TT-UTC = 32.184 s + 37 leap seconds = 69.184 s makes UT1 == UTC.
- Geometry is purely geometric: satellite minus WGS-84 station at the same instant, no light
  time, aberration or refraction, elevation over the WGS-84 ellipsoid normal, azimuth clockwise
  from north in [0, 360).
- A pass already above the mask at the window start begins at the window start
  (``inProgressAtStart``); one still above the mask at the end ends there (``inProgressAtEnd``).
  TCA is the instant of maximum elevation within [AOS, LOS].

Skyfield's ``find_events`` is not used: it misses grazing passes and its times are only good to
about a second. Instead elevation is sampled every 10 s; sign changes against the mask are
bisected to 1 ms, maxima are golden-section searched to 1 ms, and sampled local maxima just below
the mask are searched too, so grazing passes shorter than the sampling step are found.
"""

import json
import math
import sys
from datetime import datetime, timedelta, timezone
from importlib.metadata import version

import numpy as np
from skyfield.api import EarthSatellite, load, wgs84

START = datetime(2026, 6, 27, 0, 0, 0, tzinfo=timezone.utc)
HOURS = 72
STEP_S = 10.0
TOL_S = 1e-3
TT_MINUS_UTC_S = 32.184 + 37.0

STATIONS = [
    {"id": "orbiteye-mx", "latDeg": 19.4326, "lonDeg": -99.1332, "altM": 2240.0, "maskDeg": 10.0},
    {"id": "orbiteye-es", "latDeg": 40.4168, "lonDeg": -3.7038, "altM": 667.0, "maskDeg": 5.0},
]

# LEO: ISS, NOAA 20, LANDSAT 8, STARLINK-1008 (low, ~550 km), AO-7 (high LEO, ~1450 km);
# MEO: NAVSTAR 77 (GPS), GSAT0101 (Galileo); HEO: MERIDIAN 8, COSMOS 2510 (Molniya-type).
SATELLITES = [25544, 43013, 39084, 44714, 7530, 43873, 37846, 44453, 41032]

GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def read_catalog(path):
    lines = [line.rstrip() for line in open(path, encoding="utf-8") if line.strip()]
    sats = {}
    for i in range(0, len(lines), 3):
        name, l1, l2 = lines[i].strip(), lines[i + 1], lines[i + 2]
        sats[int(l1[2:7])] = (name, l1, l2)
    return sats


class Geometry:
    """Elevation/azimuth of one satellite from one station as functions of seconds since START."""

    def __init__(self, ts, sat, station):
        self.ts = ts
        self.sat = sat
        self.site = wgs84.latlon(station["latDeg"], station["lonDeg"], elevation_m=station["altM"])
        self.diff = sat - self.site
        self.mask = station["maskDeg"]

    def times(self, seconds):
        return self.ts.utc(START.year, START.month, START.day, 0, 0, seconds)

    def altaz(self, seconds):
        t = self.times(seconds)
        alt, az, _ = self.diff.at(t).altaz()
        return alt.degrees, az.degrees

    def f(self, s):
        return float(self.altaz(s)[0]) - self.mask

    def elevation(self, s):
        return float(self.altaz(s)[0])

    def azimuth(self, s):
        return float(self.altaz(s)[1]) % 360.0


def bisect(fn, a, b, fa):
    """Crossing of fn through zero in [a, b] (fa = fn(a) and fn(b) of opposite signs), to TOL_S."""
    while b - a > TOL_S:
        m = 0.5 * (a + b)
        fm = fn(m)
        if (fm > 0) == (fa > 0):
            a, fa = m, fm
        else:
            b = m
    return 0.5 * (a + b)


def golden_max(fn, a, b):
    """Maximum of a unimodal fn on [a, b] by golden-section search, to TOL_S."""
    c = b - GOLDEN * (b - a)
    d = a + GOLDEN * (b - a)
    fc, fd = fn(c), fn(d)
    while b - a > TOL_S:
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - GOLDEN * (b - a)
            fc = fn(c)
        else:
            a, c, fc = c, d, fd
            d = a + GOLDEN * (b - a)
            fd = fn(d)
    m = 0.5 * (a + b)
    return m, fn(m)


def find_passes(geo, window_s):
    n = int(round(window_s / STEP_S))
    secs = np.linspace(0.0, window_s, n + 1)
    alt, _ = geo.altaz(secs)
    f = alt - geo.mask

    # Crossings in time order, as (seconds, +1 rising / -1 setting).
    crossings = []
    for i in range(n):
        fa, fb = f[i], f[i + 1]
        if (fa > 0) != (fb > 0):
            t = bisect(geo.f, secs[i], secs[i + 1], fa)
            crossings.append((t, 1 if fb > 0 else -1))
    # Sampled local maxima below the mask: a grazing pass may sit between samples.
    for i in range(1, n):
        if f[i] <= 0 and f[i - 1] <= f[i] and f[i] >= f[i + 1] and f[i] > -0.5:
            tm, fm = golden_max(geo.f, secs[i - 1], secs[i + 1])
            if fm > 0:
                crossings.append((bisect(geo.f, secs[i - 1], tm, f[i - 1]), 1))
                crossings.append((bisect(geo.f, tm, secs[i + 1], fm), -1))
    crossings.sort()

    passes = []
    up_since = 0.0 if f[0] > 0 else None
    for t, kind in crossings:
        if kind > 0:
            up_since = t
        elif up_since is not None:
            passes.append((up_since, t))
            up_since = None
    if up_since is not None:
        passes.append((up_since, window_s))

    out = []
    for aos, los in passes:
        # TCA: golden section around the best sample within the pass, clipped to [aos, los].
        inside = [i for i in range(n + 1) if aos <= secs[i] <= los]
        if inside:
            best = max(inside, key=lambda i: f[i])
            lo, hi = max(aos, secs[best] - STEP_S), min(los, secs[best] + STEP_S)
        else:
            lo, hi = aos, los
        tca, fmax = golden_max(geo.f, lo, hi)
        # Maximum at a clipped window edge (pass in progress at start/end).
        for edge in (aos, los):
            fe = geo.f(edge)
            if fe > fmax:
                tca, fmax = edge, fe
        out.append({
            "aos": iso(aos),
            "tca": iso(tca),
            "los": iso(los),
            "maxElevationDeg": round(fmax + geo.mask, 6),
            "aosAzimuthDeg": round(geo.azimuth(aos), 4),
            "losAzimuthDeg": round(geo.azimuth(los), 4),
            "inProgressAtStart": bool(aos == 0.0),
            "inProgressAtEnd": bool(los == window_s),
        })
    return out


def iso(seconds):
    t = START + timedelta(milliseconds=round(seconds * 1000.0))
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: /usr/bin/python3 scripts/skyfield_passes.py CATALOG.tle OUT.json")
    catalog_path, out_path = sys.argv[1], sys.argv[2]
    ts = load.timescale(delta_t=TT_MINUS_UTC_S)
    dut1 = float(ts.utc(START.year, START.month, START.day).dut1)
    assert abs(dut1) < 1e-9, f"UT1-UTC should be 0, got {dut1}"
    catalog = read_catalog(catalog_path)
    window_s = HOURS * 3600.0

    results = []
    for norad in SATELLITES:
        name, l1, l2 = catalog[norad]
        sat = EarthSatellite(l1, l2, name, ts)
        for station in STATIONS:
            geo = Geometry(ts, sat, station)
            passes = find_passes(geo, window_s)
            results.append({"noradId": norad, "name": name, "stationId": station["id"], "passes": passes})
            print(f"{norad:>5} {name:<24} {station['id']}: {len(passes)} passes", file=sys.stderr)

    fixture = {
        "generator": {
            "script": "packages/systems/scripts/skyfield_passes.py",
            "skyfield": version("skyfield"),
            "sgp4": version("sgp4"),
            "numpy": version("numpy"),
            "python": sys.version.split()[0],
            "ut1MinusUtcS": 0.0,
            "samplingStepS": STEP_S,
            "toleranceS": TOL_S,
        },
        "start": iso(0.0),
        "hours": HOURS,
        "stations": STATIONS,
        "results": results,
    }
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(fixture, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
