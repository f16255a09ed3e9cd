#!/usr/bin/env python3
"""phrases.py -- phrase queries on two paperdex builds, each on its own
index of the same records: the same answers, and what they cost.

usage: phrases.py [--n N] [--rounds R] BUILD_A DB_A BUILD_B DB_B CORPUS

Each BUILD is a build directory holding `paperdex` and `pdx_qbench`; each
DB an index of CORPUS made by that build (for layout 7 against layout 6:
the build of an older commit, `git worktree add /tmp/old COMMIT`, on its
own index).  From CORPUS's titles (every 7th record, seed 11), N phrases
(default 1,000) of two or three consecutive words, lower case.

  * Answers: for the first 300 phrases, 60 of them as `a NEAR b` and 40
    as `title:"..."`, the top 20 (ids and scores to 5 decimals) of
    `paperdex search` on each side must be equal; the count of those
    that differ is printed (and the first few).
  * Cost: top-10 latency of the N phrases through pdx_qbench (one open
    handle, 3 passes), R rounds (default 2) alternating A and B, so that
    the first round warms each index; p50, p90 and p99 of each side's
    best round (by p50).

Prints a Markdown table and B/A ratios.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def phrases(corpus, n):
    titles = [r.get("title") or "" for r in compare.read_records(corpus, float("inf"))[::7]]
    rng = random.Random(11)
    out = []
    while len(out) < n:
        w = re.findall(r"[A-Za-z]+", rng.choice(titles))
        if len(w) < 3:
            continue
        k = rng.choice([2, 2, 3])
        s = rng.randrange(0, len(w) - k + 1)
        out.append(" ".join(w[s:s + k]).lower())
    return out


def top(build, db, q):
    r = subprocess.run([build + "/paperdex", "search", "--db", db, "--limit", "20", "--format", "json",
                        "--snippet", "0", q], capture_output=True, text=True)
    if r.returncode:
        return r.stderr
    return [(h["id"], round(h["score"], 5)) for h in json.loads(r.stdout)["hits"]]


def latencies(build, db, qfile):
    r = subprocess.run([build + "/pdx_qbench", qfile, "3", db], capture_output=True, text=True,
                       check=True)
    d = json.loads(r.stdout)
    lat = next(v for v in d.values() if isinstance(v, list))
    return sorted(x / 1000.0 for x in lat)


def pct(lat, q):
    return lat[int(q * (len(lat) - 1))]


def main(argv):
    ap = argparse.ArgumentParser(prog="phrases.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=2)
    for name in ("build_a", "db_a", "build_b", "db_b", "corpus"):
        ap.add_argument(name)
    a = ap.parse_args(argv)
    n, rounds = a.n, a.rounds
    build_a, db_a, build_b, db_b, corpus = a.build_a, a.db_a, a.build_b, a.db_b, a.corpus
    qs = phrases(corpus, n)
    checked = ['"%s"' % q for q in qs[:300]]
    checked += ["%s NEAR %s" % tuple(q.split()[:2]) for q in qs[:60]]
    checked += ['title:"%s"' % q for q in qs[:40]]
    differ, answered = [], 0
    for q in checked:
        a, b = top(build_a, db_a, q), top(build_b, db_b, q)
        answered += bool(a) and not isinstance(a, str)
        if a != b:
            differ.append(q)
    print("answers: %d queries, %d with hits on A, %d differ%s" % (
        len(checked), answered, len(differ), (": " + "; ".join(differ[:5])) if differ else ""))
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        for q in qs:
            f.write("phrase\t%s\t\n" % q)
        qfile = f.name
    best = {"A": None, "B": None}
    for _ in range(rounds):
        for side, build, db in (("A", build_a, db_a), ("B", build_b, db_b)):
            lat = latencies(build, db, qfile)
            if best[side] is None or pct(lat, 0.5) < pct(best[side], 0.5):
                best[side] = lat
    print()
    print("| %d phrases, top 10 | p50 | p90 | p99 | mean |" % n)
    print("|---|---|---|---|---|")
    for side, db in (("A", db_a), ("B", db_b)):
        lat = best[side]
        print("| %s (%s) | %.2f ms | %.2f ms | %.2f ms | %.2f ms |" % (
            side, db, pct(lat, .5), pct(lat, .9), pct(lat, .99), sum(lat) / len(lat)))
    a, b = best["A"], best["B"]
    print()
    print("B/A: p50 %.2f, p90 %.2f, p99 %.2f" % (
        pct(b, .5) / pct(a, .5), pct(b, .9) / pct(a, .9), pct(b, .99) / pct(a, .99)))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
