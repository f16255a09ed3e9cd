#!/usr/bin/env python3
"""ab.py -- two paperdex builds on the same records, in one run on one
machine: did a change cost anything?

usage: ab.py [--limit N] [--skip-single] [--parts K] [--index-rounds R]
             [--index-only] BUILD_A BUILD_B CORPUS

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
With --parts K the records are written as K gzipped JSON-lines files
in one directory, and that directory is indexed (a many-file source: a
PubMed baseline, an OpenAlex snapshot's parts).  --index-rounds R builds
each index R times, A and B alternating, and keeps each side's median
time (default 1); --index-only leaves out the queries.
Prints a Markdown table with B/A ratios.
"""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def main(argv):
    limit, skip_single, parts, index_rounds, index_only = None, False, 0, 1, False
    while argv[:1] in (["--limit"], ["--skip-single"], ["--parts"], ["--index-rounds"],
                       ["--index-only"]):
        if argv[0] == "--limit":
            limit, argv = int(argv[1]), argv[2:]
        elif argv[0] == "--parts":
            parts, argv = int(argv[1]), argv[2:]
        elif argv[0] == "--index-rounds":
            index_rounds, argv = int(argv[1]), argv[2:]
        elif argv[0] == "--index-only":
            index_only, argv = True, argv[1:]
        else:
            skip_single, argv = True, argv[1:]
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    a, b, corpus = argv
    work = tempfile.mkdtemp(prefix="pdx-ab-")
    source = corpus  # the queries are made from its records
    if limit or parts:
        recs = compare.read_records(corpus, limit or 10 ** 12)
        if parts:
            corpus = os.path.join(work, "corpus")
            os.mkdir(corpus)
            for k in range(parts):
                with gzip.open(os.path.join(corpus, "part-%04d.jsonl.gz" % k), "wt") as f:
                    for r in recs[k * len(recs) // parts:(k + 1) * len(recs) // parts]:
                        f.write(json.dumps(r) + "\n")
        else:
            corpus = os.path.join(work, "corpus.jsonl")
            with open(corpus, "w") as f:
                for r in recs:
                    f.write(json.dumps(r) + "\n")
    res = {}
    for jobs in ([["--jobs", "2"]] if skip_single else [[], ["--jobs", "2"]]):
        runs = {"A": [], "B": []}
        for rnd in range(index_rounds):
            for side, build in (("A", a), ("B", b)):
                db = os.path.join(work, side + ("j2" if jobs else "j1"))
                built = compare.pdx_build(os.path.join(build, "paperdex"), db, jobs, corpus)
                runs[side].append(built)
                sys.stderr.write("index %s %s round %d: %.2f s\n" % (
                    side, "--jobs 2" if jobs else "1 process", rnd, built["seconds"]))
                if rnd < index_rounds - 1:
                    shutil.rmtree(db)
                    shutil.rmtree(built["compacted"])
        for side in ("A", "B"):
            secs = sorted(x["seconds"] for x in runs[side])
            built = runs[side][-1]
            key = "index %s %s" % (side, "--jobs 2" if jobs else "1 process")
            res[key] = {"seconds": secs[len(secs) // 2], "rounds": secs, "works": built["works"],
                        "works_per_s": built["works"] / secs[len(secs) // 2],
                        "peak_rss_mb": built["peak_rss_mb"],
                        "compacted_mb": compare.du(built["compacted"]) / 1e6}
            sys.stderr.write("%s: %s\n" % (key, res[key]))
            shutil.rmtree(os.path.join(work, side + ("j2" if jobs else "j1")))
    if index_only:
        print("| figure | A | B | B/A |")
        print("|---|---|---|---|")
        for mode in ("1 process", "--jobs 2"):
            if "index A " + mode not in res:
                continue
            ra, rb = res["index A " + mode], res["index B " + mode]
            for f, fmt in (("works_per_s", "%.0f"), ("peak_rss_mb", "%.0f"), ("compacted_mb", "%.1f")):
                print("| %s %s | %s | %s | %.2f |" % (f, mode, fmt % ra[f], fmt % rb[f], rb[f] / ra[f]))
        print("\n(median of %d builds each, A and B alternating)" % index_rounds)
        return 0
    qs = compare.query_mix(compare.read_records(source, 20000))
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
