#!/usr/bin/env python3
"""common_grams.py -- quoted phrases through common grams against the
same phrases read from positions, on one index.

usage: common_grams.py [--phrases N] [--rounds R] DB CORPUS

DB is an index built by this paperdex (stamped with its list of common
words, common/common_grams.cc); CORPUS the .jsonl(.gz) it was built from.
N phrases (default 300) are drawn from the corpus's titles and abstracts
as a person pastes them: two neighbouring words with their capitals,
quoted; in lower case; hyphenated, unquoted; and with "of" between them.
Each is searched with `paperdex search --exact --limit 10000` with the
grams and with PDX_NO_COMMON_GRAMS set (the positions read): their
totals and works must be the same, and every difference is printed.
Then compare.py's 50 quoted phrases of two title words (query_mix) are
timed by pdx_qbench both ways,
counting to 10,000, each the best of R (default 5) passes in one
process: p50 / p90 / p99 / max in ms.  Exit status 1 when any search
differs.
"""
import gzip
import json
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.environ.get("PDX_BUILD", os.path.join(HERE, "..", "build"))
PDX = os.path.join(BUILD, "paperdex")
QB = os.path.join(BUILD, "pdx_qbench")
sys.path.insert(0, HERE)
import compare  # noqa: E402  (query_mix, read_records)

WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def draw(recs, n, seed=5):
    rng = random.Random(seed)
    qs = set()
    while len(qs) < n:
        r = rng.choice(recs)
        ws = WORD.findall((r.get("title") or "") + " " + (r.get("abstract") or ""))
        if len(ws) < 3:
            continue
        i = rng.randrange(len(ws) - 1)
        a, b = ws[i], ws[i + 1]
        k = rng.random()
        qs.add('"%s %s"' % (a, b) if k < 0.5 else
               '"%s %s"' % (a.lower(), b.lower()) if k < 0.7 else
               "%s-%s" % (a, b) if k < 0.85 else '"%s of %s"' % (a, b))
    return sorted(qs)


def search(db, q, positions):
    env = dict(os.environ)
    env.pop("PDX_NO_COMMON_GRAMS", None)
    if positions:
        env["PDX_NO_COMMON_GRAMS"] = "1"
    out = subprocess.run([PDX, "search", "--db", db, "--exact", "--limit", "10000",
                          "--format", "json", "--", q],
                         capture_output=True, text=True, env=env, check=True)
    d = json.loads(out.stdout)
    return d.get("total"), sorted(h["id"] for h in d.get("hits", []))


def timed(db, tsv, rounds, positions):
    env = dict(os.environ, PDX_QBENCH_COUNT="10000")
    env.pop("PDX_NO_COMMON_GRAMS", None)
    if positions:
        env["PDX_NO_COMMON_GRAMS"] = "1"
    out = subprocess.run([QB, tsv, str(rounds), db], capture_output=True, text=True,
                         env=env, check=True).stdout
    lat = json.loads(out.strip().splitlines()[-1])["latency_us"]
    n = len(lat) // rounds
    best = sorted(min(lat[i::n]) / 1000.0 for i in range(n))
    pick = lambda p: best[min(n - 1, int(n * p))]
    return "%.2f / %.2f / %.2f / %.2f" % (pick(0.5), pick(0.9), pick(0.99), best[-1])


def main(argv):
    n, rounds = 300, 5
    while argv and argv[0].startswith("--"):
        if argv[0] == "--phrases" and len(argv) > 1:
            n, argv = int(argv[1]), argv[2:]
        elif argv[0] == "--rounds" and len(argv) > 1:
            rounds, argv = int(argv[1]), argv[2:]
        else:
            break
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    db, corpus = argv
    recs = compare.read_records(corpus, 20000)
    qs = draw(recs, n)
    diff = 0
    for q in qs:
        a, b = search(db, q, False), search(db, q, True)
        if a != b:
            diff += 1
            print("differs: %s: grams %s, positions %s (%d works apart)"
                  % (q, a[0], b[0], len(set(a[1]) ^ set(b[1]))))
    print("%d phrases searched both ways: %d the same, %d differ" % (len(qs), len(qs) - diff, diff))
    with tempfile.TemporaryDirectory() as tmp:
        mix = os.path.join(tmp, "mix.tsv")
        with open(mix, "w") as f:
            for kind, words, filt in compare.query_mix(recs):
                if kind == "phrase":
                    f.write("phrase\t%s\t\n" % words)
        print("| phrases, best of %d, counted to 10,000 | p50 / p90 / p99 / max ms |" % rounds)
        print("|---|---|")
        for name, positions in (("the query mix's 50, grams", False),
                                ("the query mix's 50, positions", True)):
            print("| %s | %s |" % (name, timed(db, mix, rounds, positions)))
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
