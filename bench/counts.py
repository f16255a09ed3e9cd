#!/usr/bin/env python3
"""counts.py -- what a true count costs: the top-10 query mix of
compare.py, by query kind, with paperdex counting exactly up to 10 (about
what a top-10 match counts by itself) and up to 10,000 (the default), and
Lucene counting up to its IndexSearcher default of 1,000 and up to
10,000 (Elasticsearch's track_total_hits), the four in turn, ROUNDS times.

usage: counts.py [--rounds R] WORK

WORK is a directory compare.py has worked in (it holds queries.tsv, the
compacted paperdex index pdx-j2-compact, and lucene/ with
LuceneBench.class when Lucene ran).  Prints one Markdown table: p50 / p99
in ms by kind and overall, from the median of each figure over the
rounds.
"""
import glob
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.environ.get("PDX_BUILD", os.path.join(HERE, "..", "build"))
QB = os.path.join(BUILD, "pdx_qbench")
LUCENE_JARS = sorted(glob.glob("/usr/share/java/lucene-core-8*.jar") +
                     glob.glob("/usr/share/java/lucene-analyzers-common-8*.jar"))


def figures(out, kinds):
    lat = json.loads(out.strip().splitlines()[-1])["latency_us"]
    n = len(kinds)
    res = {}
    for k in sorted(set(kinds)) + ["all"]:
        v = sorted(lat[i] for i in range(len(lat)) if k == "all" or kinds[i % n] == k)
        res[k] = (v[len(v) // 2] / 1000, v[min(len(v) - 1, int(len(v) * 0.99))] / 1000)
    return res


def rounds_and_work(argv, usage):
    """[--rounds R] WORK from argv: (R, WORK), R 3 unless given; or None
    (usage written to stderr) for anything else."""
    rounds = 3
    if argv[:1] == ["--rounds"] and len(argv) > 1:
        rounds, argv = int(argv[1]), argv[2:]
    if len(argv) != 1:
        sys.stderr.write(usage)
        return None
    return rounds, argv[0]


def main(argv):
    parsed = rounds_and_work(argv, __doc__)
    if not parsed:
        return 2
    rounds, work = parsed
    qfile = os.path.join(work, "queries.tsv")
    kinds = [line.split("\t")[0] for line in open(qfile, encoding="utf-8")]
    runs = {"paperdex, count to 10": ([QB, qfile, "3", os.path.join(work, "pdx-j2-compact")], "10"),
            "paperdex, count to 10,000": ([QB, qfile, "3", os.path.join(work, "pdx-j2-compact")], "10000")}
    if LUCENE_JARS and os.path.exists(os.path.join(work, "LuceneBench.class")):
        cp = ":".join([work] + LUCENE_JARS)
        java = ["java", "-Xmx1g", "-cp", cp, "LuceneBench", "query", os.path.join(work, "lucene"), qfile, "3"]
        runs["lucene, count to 1,000"] = (java, "1000")
        runs["lucene, count to 10,000"] = (java, "10000")
    got = {name: [] for name in runs}
    for _ in range(rounds):
        for name, (cmd, count) in runs.items():
            env = dict(os.environ, PDX_QBENCH_COUNT=count)
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
            got[name].append(figures(out, kinds))
    cols = sorted(set(kinds)) + ["all"]
    print("| p50 / p99 ms | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for name, rs in got.items():
        cells = []
        for k in cols:
            p50 = statistics.median(r[k][0] for r in rs)
            p99 = statistics.median(r[k][1] for r in rs)
            cells.append("%.2f / %.2f" % (p50, p99))
        print("| %s | %s |" % (name, " | ".join(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
