#!/usr/bin/env python3
"""scaling.py -- fit measured build times and sizes, and project them.

usage: scaling.py WORKS:SECONDS:BYTES [WORKS:SECONDS:BYTES ...]

Each argument is one measured build (works indexed, wall seconds, bytes of
the compacted index).  Fits seconds = a * works^k by least squares on
log-log axes (k = 1 is linear) and bytes = c * works (bytes per work, the
mean of the points), then projects the full arXiv (2.5 million works) and
OpenAlex (250 million) on the measuring machine.  The assumptions that
turn these into cluster figures are in bench/SCALING.md; this prints only
what follows from the measurements.
"""
import math
import sys


def main(argv):
    pts = []
    for a in argv:
        w, s, b = a.split(":")
        pts.append((float(w), float(s), float(b)))
    if len(pts) < 2:
        sys.stderr.write(__doc__)
        return 2
    xs = [math.log(w) for w, _, _ in pts]
    ys = [math.log(s) for _, s, _ in pts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    k = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    a = math.exp(my - k * mx)
    per_work = sum(b / w for w, _, b in pts) / len(pts)
    print("| works | measured s | fitted s | works/s | compacted size | bytes/work |")
    print("|---|---|---|---|---|---|")
    for w, s, b in pts:
        print("| %s | %.0f | %.0f | %.0f | %.2f GB | %.0f |" % (
            f"{int(w):,}", s, a * w ** k, w / s, b / 1e9, b / w))
    print("\nFit: seconds = %.4g * works^%.3f; size = %.0f bytes per work.\n" % (a, k, per_work))
    print("| projection | works | build time (this machine) | compacted size |")
    print("|---|---|---|---|")
    for name, w in (("full arXiv", 2.5e6), ("OpenAlex", 250e6)):
        t = a * w ** k
        print("| %s | %s | %.1f h | %.0f GB |" % (name, f"{int(w):,}", t / 3600, per_work * w / 1e9))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
