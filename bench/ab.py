#!/usr/bin/env python3
"""ab.py -- two paperdex builds on the same records, in one run on one
machine: did a change cost anything?

usage: ab.py [--limit N] [--skip-single] BUILD_A BUILD_B CORPUS

Each BUILD is a build directory holding `paperdex` and `pdx_qbench` (for
an older commit: `git worktree add /tmp/old COMMIT`, then build it with
the same CMAKE_BUILD_TYPE).  Measured, A and B alternating so that a
machine slowing down in the middle hurts both alike:
  * indexing wall time and works/s, one process and --jobs 2 (the first
    N records of CORPUS, default all), and the compacted size;
  * top-10 latency p50/p99 over bench/compare.py's query mix (one warm-up
    pass, 3 timed passes each, one open handle: pdx_qbench), each side on
    its own compacted --jobs 2 index, five rounds alternating A and B,
    the best of each kept; and the same page with 200-byte snippets
    (PDX_QBENCH_SNIPPET=200, the CLI's default).
Prints a Markdown table with B/A ratios.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def main(argv):
    limit, skip_single = None, False
    while argv[:1] in (["--limit"], ["--skip-single"]):
        if argv[0] == "--limit":
            limit, argv = int(argv[1]), argv[2:]
        else:
            skip_single, argv = True, argv[1:]
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    a, b, corpus = argv
    work = tempfile.mkdtemp(prefix="pdx-ab-")
    if limit:
        recs = compare.read_records(corpus, limit)
        corpus = os.path.join(work, "corpus.jsonl")
        with open(corpus, "w") as f:
            for r in recs:
                f.write(json.dumps(r) + "\n")
    res = {}
    for jobs in ([["--jobs", "2"]] if skip_single else [[], ["--jobs", "2"]]):
        for side, build in (("A", a), ("B", b)):
            db = os.path.join(work, side + ("j2" if jobs else "j1"))
            built = compare.pdx_build(os.path.join(build, "paperdex"), db, jobs, corpus)
            key = "index %s %s" % (side, "--jobs 2" if jobs else "1 process")
            res[key] = {"seconds": built["seconds"], "works": built["works"],
                        "works_per_s": built["works"] / built["seconds"],
                        "peak_rss_mb": built["peak_rss_mb"],
                        "compacted_mb": compare.du(built["compacted"]) / 1e6}
            sys.stderr.write("%s: %s\n" % (key, res[key]))
            shutil.rmtree(db)
    qs = compare.query_mix(compare.read_records(corpus, 20000))
    qfile = os.path.join(work, "queries.tsv")
    with open(qfile, "w") as fq:
        for q in qs:
            fq.write("\t".join(q) + "\n")
    for rnd in range(5):
        for page in ("query", "snippets"):
            if page == "snippets":
                os.environ["PDX_QBENCH_SNIPPET"] = "200"
            for side, build in (("A", a), ("B", b)):
                db = os.path.join(work, side + "j2-compact")
                cmd = lambda r, build=build, db=db: [os.path.join(build, "pdx_qbench"), qfile, str(r), db]  # noqa: E731
                q = compare.latency(cmd)
                res.setdefault(page + " " + side, []).append(q)
                sys.stderr.write("%s %s round %d: p50 %.3f p99 %.3f\n" % (page, side, rnd, q["p50_ms"], q["p99_ms"]))
            os.environ.pop("PDX_QBENCH_SNIPPET", None)
    print("| figure | A | B | B/A |")
    print("|---|---|---|---|")
    for mode in ("1 process", "--jobs 2"):
        if "index A " + mode not in res:
            continue
        ra, rb = res["index A " + mode], res["index B " + mode]
        for f, fmt in (("works_per_s", "%.0f"), ("peak_rss_mb", "%.0f"), ("compacted_mb", "%.1f")):
            print("| %s %s | %s | %s | %.2f |" % (f, mode, fmt % ra[f], fmt % rb[f], rb[f] / ra[f]))
    for page, label in (("query", "top-10"), ("snippets", "top-10 with 200-byte snippets")):
        for f in ("p50_ms", "p99_ms"):
            va = min(x[f] for x in res[page + " A"])
            vb = min(x[f] for x in res[page + " B"])
            print("| %s %s (best of 5 rounds) | %.3f | %.3f | %.2f |" % (label, f, va, vb, vb / va))
    with open(os.path.join(work, "ab.json"), "w") as f:
        json.dump(res, f, indent=1)
    sys.stderr.write("ab.py: figures in %s/ab.json\n" % work)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
