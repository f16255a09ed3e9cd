#!/usr/bin/env python3
"""matcher.py -- paperdex's query latency beside Xapian 1.4's matcher
alone, on the same index, in one run: how much of a query's time is
paperdex's, and how much is the matcher's?

usage: matcher.py [--rounds N] DB QUERIES...

DB is a paperdex index (compare.py's compacted --jobs 2 one, say);
each QUERIES is a pdx_qbench file (compare.py writes queries.tsv and
titles.tsv in its work directory).  Only the queries of plain words are
run (a phrase, a filter or a field is paperdex's own query, not one
Xapian alone would run): `bench/xapian_floor query` runs them as
paperdex does (english stems, its stop words, words OR-ed, BM25 with
k1 1.2 and b 0.6, ties by id, top 10, each hit's data read).  First,
both sides' top 10s are compared query by query: a side that ran
another query would not be measured against the other.  Then N rounds
(default 3), the two sides alternating, each a warm-up pass and 3 timed
passes (compare.py's latency()), the best p50 and p99 of the rounds
kept, per kind of query.  Prints a Markdown table with paperdex /
Xapian ratios.
"""
import collections
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

FLOOR = os.path.join(compare.BUILD, "xapian_floor")


def plain_queries(paths):
    """{kind: [lines]} of the plain-word queries of the files."""
    kinds = collections.OrderedDict()
    for path in paths:
        with open(path) as f:
            for line in f:
                q = line.rstrip("\n").split("\t")
                if len(q) < 2 or q[0] == "phrase" or (len(q) > 2 and q[2]):
                    continue
                kinds.setdefault(q[0], []).append("\t".join(q[:2]) + "\t\n")
    return kinds


def same_hits(db, qfile, work):
    """(queries whose top 10 agree, queries)."""
    pid, xid = os.path.join(work, "ids.pdx"), os.path.join(work, "ids.xapian")
    subprocess.run([compare.QB, qfile, "1", db], env=dict(os.environ, PDX_QBENCH_IDS=pid),
                   capture_output=True, check=True)
    subprocess.run([FLOOR, "query", db, qfile, "1", xid], capture_output=True, check=True)
    with open(pid) as a, open(xid) as b:
        pa, xa = a.read().splitlines(), b.read().splitlines()
    return sum(1 for p, x in zip(pa, xa) if p == x), len(pa)


def main(argv):
    rounds = 3
    if argv[:1] == ["--rounds"]:
        rounds, argv = int(argv[1]), argv[2:]
    if len(argv) < 2 or argv[0] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 2
    db, files = argv[0], argv[1:]
    kinds = plain_queries(files)
    if not kinds:
        sys.stderr.write("matcher.py: no queries of plain words in %s\n" % " ".join(files))
        return 1
    rows, failed = [], False
    with tempfile.TemporaryDirectory(prefix="pdx-matcher-") as work:
        for kind, lines in kinds.items():
            qfile = os.path.join(work, kind + ".tsv")
            with open(qfile, "w") as f:
                f.writelines(lines)
            agree, n = same_hits(db, qfile, work)
            if agree != n:
                failed = True
            best = {"paperdex": {}, "xapian": {}}
            for _ in range(rounds):
                for side, cmd in (("paperdex", lambda r: [compare.QB, qfile, str(r), db]),
                                  ("xapian", lambda r: [FLOOR, "query", db, qfile, str(r)])):
                    m = compare.latency(cmd)
                    for k in ("p50_ms", "p99_ms"):
                        best[side][k] = min(best[side].get(k, m[k]), m[k])
            rows.append((kind, n, agree, best))
    print("### Query latency: paperdex beside Xapian's matcher alone, same index (%s)\n" % db)
    print("| queries | n | same top 10 | paperdex p50 / p99 | Xapian alone p50 / p99 | paperdex / Xapian p50, p99 |")
    print("|---|---|---|---|---|---|")
    for kind, n, agree, b in rows:
        p, x = b["paperdex"], b["xapian"]
        print("| %s | %d | %d | %.2f / %.2f ms | %.2f / %.2f ms | %.2f, %.2f |" % (
            kind, n, agree, p["p50_ms"], p["p99_ms"], x["p50_ms"], x["p99_ms"],
            p["p50_ms"] / x["p50_ms"], p["p99_ms"] / x["p99_ms"]))
    print("\n(best of %d rounds each; a warm-up pass and 3 timed passes a round)" % rounds)
    if failed:
        sys.stderr.write("matcher.py: the two sides' top 10s differ: they did not run the same query\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
