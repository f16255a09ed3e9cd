#!/usr/bin/env python3
"""form_chunks.py -- what quoted phrases would cost with each word's
positions kept by the word (bench/form_chunks.cc says what is built and
why), beside what they cost paperdex and Lucene today, in one run.

usage: form_chunks.py [--rounds R] WORK

WORK is a directory compare.py has worked in: records.tsv, queries.tsv
(its "phrase" lines are the queries), the compacted paperdex index
pdx-j2-compact, and lucene/ with LuceneBench.class when Lucene ran.
Builds WORK/form-chunks (every word of the records) and compacts it
with xapian-compact, builds it again committing every 1,000 records
(what a writer that commits as paperdex does would pay) and every
10,000, then times
the phrases, each counted to 10,000: paperdex (pdx_qbench, top 10),
Lucene (LuceneBench, top 10) and the chunks (counting alone, and the
top 10 with every match weighed), in turn, ROUNDS times.  The chunks
are numbered by the paperdex index's docids.  Prints the sizes, a
Markdown table of p50 / p90 / p99 ms (the median of each over the
rounds), and for how many phrases the chunks give paperdex's count and
top 10 (the chunks read words by a simpler rule: ASCII letters and
digits).
"""
import json
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from counts import BUILD, LUCENE_JARS, rounds_and_work  # noqa: E402


def run(cmd, env=None):
    return subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout


def percentiles(out):
    lat = sorted(json.loads(out.strip().splitlines()[-1])["latency_us"])
    n = len(lat)
    return [lat[min(n - 1, int(n * q))] / 1000 for q in (0.5, 0.9, 0.99)]


def size(path):
    return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))


def main(argv):
    parsed = rounds_and_work(argv, __doc__)
    if not parsed:
        return 2
    rounds, work = parsed
    fc = os.path.join(BUILD, "form_chunks")
    index = os.path.join(work, "pdx-j2-compact")
    phrases = os.path.join(work, "phrases.tsv")
    with open(os.path.join(work, "queries.tsv"), encoding="utf-8") as f, \
            open(phrases, "w", encoding="utf-8") as out:
        out.writelines(line for line in f if line.startswith("phrase\t"))
    side, packed = os.path.join(work, "form-chunks"), os.path.join(work, "form-chunks-compact")
    records = os.path.join(work, "records.tsv")
    built = json.loads(run([fc, "build", "--index", index, side, records]))
    shutil.rmtree(packed, ignore_errors=True)
    run(["xapian-compact", side, packed])
    batched = os.path.join(work, "form-chunks-batched")
    by_batch = {}
    for n in (1000, 10000):
        shutil.rmtree(batched, ignore_errors=True)
        by_batch[n] = json.loads(run([fc, "build", "--batch", str(n), "--index", index, batched, records]))
        by_batch[n]["size"] = size(batched)
    shutil.rmtree(batched, ignore_errors=True)
    slots = json.loads(run([fc, "values", index]))
    print("chunks of every word: %d entries, %.1f MB of items, %.1f MB compacted; built in %.1f s "
          "written once, %.1f s committed every 1,000 records (%.1f MB uncompacted), %.1f s every "
          "10,000 (%.1f MB); paperdex's positions, forms and forms-at values: %.1f MB; its index %.1f MB"
          % (built["entries"], built["bytes"] / 1e6, size(packed) / 1e6, built["seconds"],
             by_batch[1000]["seconds"], by_batch[1000]["size"] / 1e6,
             by_batch[10000]["seconds"], by_batch[10000]["size"] / 1e6,
             (slots["7"] + slots["8"] + slots["9"]) / 1e6, size(index) / 1e6))
    runs = {"paperdex, top 10": [os.path.join(BUILD, "pdx_qbench"), phrases, "3", index]}
    if LUCENE_JARS and os.path.exists(os.path.join(work, "LuceneBench.class")):
        cp = ":".join([work] + LUCENE_JARS)
        runs["lucene, top 10"] = ["java", "-Xmx1g", "-cp", cp, "LuceneBench", "query",
                                  os.path.join(work, "lucene"), phrases, "3"]
    counts = os.path.join(work, "form-chunks-counts.txt")
    runs["word chunks, counting alone"] = [fc, "query", packed, phrases, "3"]
    runs["word chunks, top 10"] = [fc, "query", "--index", index, packed, phrases, "3", counts]
    got = {name: [] for name in runs}
    hits = os.path.join(work, "form-chunks-pdx-hits.txt")
    for _ in range(rounds):
        for name, cmd in runs.items():
            env = dict(os.environ, PDX_QBENCH_COUNT="10000", PDX_QBENCH_HITS=hits)
            got[name].append(percentiles(run(cmd, env=env)))
    print()
    print("| quoted phrases, counted to 10,000 | p50 ms | p90 ms | p99 ms |")
    print("|---|---|---|---|")
    for name, rs in got.items():
        print("| %s | %s |" % (name, " | ".join("%.2f" % statistics.median(r[k] for r in rs)
                                              for k in range(3))))
    # pdx_qbench's hits file (its last pass): the total first, then each
    # hit as id:score; the chunks' file: the phrase, its count, its hits.
    with open(hits, encoding="utf-8") as f:
        pdx = [line.rstrip("\n").split("\t") for line in f]
    with open(counts, encoding="utf-8") as f:
        ours = [line.rstrip("\n").split("\t")[1:] for line in f]
    if len(pdx) != len(ours):
        print("\n%d phrases for paperdex, %d for the chunks" % (len(pdx), len(ours)))
        return 1
    totals = [(int(a[0].split()[0]), int(b[0])) for a, b in zip(pdx, ours)]
    same = sum(1 for a, b in totals if a == b)
    near = sum(1 for a, b in totals if abs(a - b) <= max(2, a // 100))
    pages = sum(1 for a, b in zip(pdx, ours) if a[1:] == b[1:])
    print("\ncounts: %d of %d phrases as paperdex counts them, %d within 1%%; "
          "the top 10 (ids and scores) as paperdex's for %d" % (same, len(pdx), near, pages))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
