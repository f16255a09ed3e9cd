#!/usr/bin/env python3
"""overlap.py -- `paperdex index --jobs 2` on two sources that hold the
same works, before and after a change, beside one process.

usage: overlap.py [--limit N] [--rounds R] BUILD_A BUILD_B CORPUS

Sources that overlap are the rule when people combine providers (an
arXiv snapshot and OpenAlex works, a PubMed baseline and its updates).
Here the first N records of CORPUS (default 30,000) are written twice,
to a.jsonl and b.jsonl: two files of equal size, so that each worker
reads one of its own, and every work has one record in each.  Each
build directory's `paperdex` indexes them with --jobs 2 --verbose, A and
B alternating for R rounds (default 2), and B once more per round in one
process, the reference a parallel build should beat.  Prints each side's
median wall time, peak RSS and the groups of works `--verbose` says were
merged again after the shards (each costs a few ms: it rewrites
documents Xapian has written), as a Markdown table.
"""
import gzip
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile


def build(paperdex, db, files, jobs):
    shutil.rmtree(db, ignore_errors=True)
    args = ["/usr/bin/time", "-f", "TIME %e %M", paperdex, "index", "--db", db, "--verbose"]
    if jobs > 1:
        args += ["--jobs", str(jobs)]
    r = subprocess.run(args + files, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("overlap.py: %s failed: %s" % (paperdex, r.stderr[-500:]))
    t = re.search(r"TIME ([\d.]+) (\d+)", r.stderr)
    g = re.search(r"merged (\d+) groups? of works", r.stdout)
    shutil.rmtree(db, ignore_errors=True)
    return float(t.group(1)), int(t.group(2)) / 1024.0, int(g.group(1)) if g else 0


def main(argv):
    limit, rounds = 30000, 2
    while argv[:1] in (["--limit"], ["--rounds"]):
        if argv[0] == "--limit":
            limit = int(argv[1])
        else:
            rounds = int(argv[1])
        argv = argv[2:]
    if len(argv) != 3:
        sys.exit(__doc__)
    a_dir, b_dir, corpus = argv
    tmp = tempfile.mkdtemp(prefix="pdx-overlap-")
    opener = gzip.open if corpus.endswith(".gz") else open
    with opener(corpus, "rt", encoding="utf-8") as f:
        lines = [line for _, line in zip(range(limit), f)]
    files = []
    for name in ("a", "b"):
        path = os.path.join(tmp, name + ".jsonl")
        with open(path, "w", encoding="utf-8") as out:
            out.writelines(lines)
        files.append(path)
    sides = {"A --jobs 2": (a_dir, 2), "B --jobs 2": (b_dir, 2), "B one process": (b_dir, 1)}
    got = {k: [] for k in sides}
    for rnd in range(rounds):
        for k, (d, jobs) in sides.items():
            got[k].append(build(os.path.join(d, "paperdex"), os.path.join(tmp, "db"), files, jobs))
            print("round %d %s: %.2f s, %.0f MB, %d groups merged again" % ((rnd, k) + got[k][-1]),
                  file=sys.stderr)
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d records written twice (%d works, two files), median of %d rounds\n" % (limit, len(lines), rounds))
    print("| build | wall time | works/s | peak RSS | groups merged again after the shards |")
    print("|---|---|---|---|---|")
    for k, runs in got.items():
        t = statistics.median(r[0] for r in runs)
        print("| %s | %.1f s | %.0f | %.0f MB | %d |" % (k, t, len(lines) / t,
                                                      max(r[1] for r in runs), runs[-1][2]))


if __name__ == "__main__":
    main(sys.argv[1:])
