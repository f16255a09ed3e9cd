#!/usr/bin/env python3
"""goal_speed.py -- a build time measured today, at the machine speed of
the run a goal was set against, as each peer measures that speed.

usage: goal_speed.py [--ref REF.json] [--goal-works N] [--goal-s S]
                     [--growth G] RUN_1M.json [RUN_BIG.json]

A goal stated in seconds ("the full arXiv in 20 minutes") was set
against one run of bench/compare.py: the full arXiv's against REF, by default
bench/results/synthetic-1m.json (e92b4bd, 2,098 s for the synthetic 1M,
projected to 1.6 hours for 2.5M works; FTS5 and Lucene built the same
1M in 115.0 and 135.2 s).  This machine's speed drifts (FTS5's build of
that 1M has taken 89.7 to 240.0 s in the runs under bench/results), so
a wall time of today and the goal's seconds are not on one clock.  Each
peer is a clock: the same program on the same records, in the same run
as paperdex.  This prints, for every peer P:

  * RUN_1M (a compare.py run on the same 1M corpus as REF): paperdex's
    time there, times P's time in REF over P's time in RUN_1M.  That is
    paperdex's 1M at REF's speed, by P.
  * paperdex's full size at REF's speed, by P: that 1M times paperdex's
    growth from 1M to GOAL_WORKS, --growth (default 2.91: 1,511.5 s over
    519.1 s, both built on one day; 2.83 was a fit to an older
    layout).
  * With RUN_BIG (a compare.py run on GOAL_WORKS works, made in the
    same session as RUN_1M), a check that projects nothing for
    paperdex: its time over P's in that one run, times P's time at
    REF's speed for GOAL_WORKS works, taken as P's 1M time in REF times
    P's own growth (P's time in RUN_BIG over P's in RUN_1M).  P's
    growth spans two runs, so the machine's drift between them enters
    it; the first estimate's growth is paperdex's own, measured on one
    day.

and each against the goal, --goal-s (default 1,200: 20 minutes).
Nothing is timed here: every figure comes from the JSON files, which
compare.py wrote.
"""
import argparse
import json
import os
import sys

PDX = "paperdex --jobs 2"
PEERS = ("sqlite fts5", "lucene")
HERE = os.path.dirname(os.path.abspath(__file__))


def load(path):
    with open(path) as f:
        d = json.load(f)
    for k in (PDX,) + PEERS:
        if k not in d or "seconds" not in d[k]:
            sys.exit("goal_speed.py: %s has no build time for %r" % (path, k))
    return d


def secs(d, k):
    return float(d[k]["seconds"])


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref", default=os.path.join(HERE, "results", "synthetic-1m.json"))
    ap.add_argument("--goal-works", type=int, default=2_500_000)
    ap.add_argument("--goal-s", type=float, default=1200.0)
    ap.add_argument("--growth", type=float, default=1511.5 / 519.1)
    ap.add_argument("run_1m")
    ap.add_argument("run_big", nargs="?")
    a = ap.parse_args(argv)

    ref, r1 = load(a.ref), load(a.run_1m)
    if r1[PDX].get("works") != ref[PDX].get("works"):
        sys.exit("goal_speed.py: %s indexed %s works, the reference %s" % (
            a.run_1m, r1[PDX].get("works"), ref[PDX].get("works")))
    big = load(a.run_big) if a.run_big else None
    if big and big[PDX].get("works") != a.goal_works:
        sys.exit("goal_speed.py: %s indexed %s works, not --goal-works %d" % (
            a.run_big, big[PDX].get("works"), a.goal_works))

    def times(what, path, d):
        print("%s: %s: paperdex %.1f s; %s" % (what, os.path.basename(path), secs(d, PDX),
                                             ", ".join("%s %.1f s" % (p, secs(d, p)) for p in PEERS)))
    times("reference", "%s (%s)" % (a.ref, ref.get("label", "?")), ref)
    times("1M run", a.run_1m, r1)
    if big:
        times("%s-work run" % f"{a.goal_works:,}", a.run_big, big)
    print()
    print("| clock | run's time over the reference's | paperdex 1M at the reference's speed "
          "| full size at the reference's speed (1M x %.2f) | goal %.0f s |" % (a.growth, a.goal_s))
    print("|---|---|---|---|---|")
    worst = 0.0
    for p in PEERS:
        speed = secs(r1, p) / secs(ref, p)          # > 1: slower than REF
        one_m = secs(r1, PDX) / speed
        full = one_m * a.growth
        worst = max(worst, full)
        print("| %s | %.2f | %.1f s | %.1f s, %.1f min | %s |" % (
            p, speed, one_m, full, full / 60, "met" if full <= a.goal_s else "not met"))
    if big:
        print()
        print("| clock, at %s works | paperdex over the peer, one run | the peer's growth from 1M "
              "| full size at the reference's speed | goal %.0f s |" % (f"{a.goal_works:,}", a.goal_s))
        print("|---|---|---|---|---|")
        for p in PEERS:
            ratio = secs(big, PDX) / secs(big, p)
            growth = secs(big, p) / secs(r1, p)
            full = ratio * secs(ref, p) * growth
            worst = max(worst, full)
            print("| %s | %.3f | %.2f | %.1f s, %.1f min | %s |" % (
                p, ratio, growth, full, full / 60, "met" if full <= a.goal_s else "not met"))
    print()
    print("largest estimate: %.1f s (%.1f min) against %.0f s: %s" % (
        worst, worst / 60, a.goal_s, "met" if worst <= a.goal_s else "NOT met"))
    return 0 if worst <= a.goal_s else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
