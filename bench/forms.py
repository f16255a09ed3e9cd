#!/usr/bin/env python3
"""forms.py -- what quoting a word costs and changes: the words as written
(common/forms.cc) against the stems a quoted word matched before.

    python3 bench/forms.py [--n 300] [--repeat 3] [--db DIR] [--out FILE] BUILD CORPUS

BUILD is a build directory made with -DPDX_BENCH=ON (its paperdex and
pdx_qbench); CORPUS an arXiv snapshot (../shared/data/arxiv-101k.jsonl.gz);
--db an index of it (built into a scratch directory when not given).

The queries, as people quote them: N words drawn at random (seed
20261128) from the words of four letters or more that at least 20 works
write in their titles or abstracts, each quoted ("transformers"); and N
runs of two or three words standing together in a title, as written
there, quoted ("graph neural networks").

The two ways, on one index and one binary: the index as built (quoted
words as written), and a copy whose paperdex.forms stamp is removed, which
a search then reads as an older paperdex's index (quoted words by their
stems: what every quoted query matched before).  One open handle
(pdx_qbench), top 10, the total counted as the library counts it (exact
to 10,000), REPEAT passes alternating the two.

Printed: p50 and p99 of each set both ways and their ratio; how many
queries match fewer works as written, and the works matched in all.
"""
import argparse
import collections
import gzip
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

WORD = re.compile(r"[a-z]+")


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


def run(qb, queries, db, repeat, hits):
    env = dict(os.environ, PDX_QBENCH_HITS=hits)
    p = subprocess.run([qb, queries, str(repeat), db], capture_output=True,
                       text=True, env=env, check=True)
    lat = json.loads(p.stdout)["latency_us"]
    n = len(lat) // repeat
    # the median of each query's passes
    per = [statistics.median(lat[r * n + i] for r in range(repeat)) for i in range(n)]
    with open(hits) as f:
        totals = [int(line.split()[0]) for line in f]
    return per, totals


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--db")
    ap.add_argument("--out")
    ap.add_argument("build")
    ap.add_argument("corpus")
    a = ap.parse_args()
    pdx = os.path.join(a.build, "paperdex")
    qb = os.path.join(a.build, "pdx_qbench")
    tmp = tempfile.mkdtemp(prefix="pdx-forms-bench-")
    db = a.db or os.path.join(tmp, "ix")
    if not a.db:
        subprocess.run([pdx, "index", "--quiet", "--db", db, a.corpus], check=True)
    stems = os.path.join(tmp, "stems")
    shutil.copytree(db, stems)
    subprocess.run(["xapian-metadata", "set", stems, "paperdex.forms", ""], check=True)

    works_of = collections.Counter()
    runs = []
    with gzip.open(a.corpus, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            title = (r.get("title") or "").lower()
            text = title + " " + (r.get("abstract") or "").lower()
            works_of.update(set(w for w in WORD.findall(text) if len(w) >= 4))
            ws = title.split()
            for k in (2, 3):
                for i in range(len(ws) - k + 1):
                    run_ = ws[i:i + k]
                    if all(WORD.fullmatch(w) for w in run_):
                        runs.append(" ".join(run_))
    rng = random.Random(20261128)
    common = sorted(w for w, c in works_of.items() if c >= 20)
    sets = {"words": rng.sample(common, a.n), "phrases": rng.sample(sorted(set(runs)), a.n)}

    rows = []
    for name, qs in sets.items():
        qf = os.path.join(tmp, name + ".tsv")
        with open(qf, "w") as f:
            for q in qs:
                f.write("phrase\t%s\t\n" % q)
        lat = {"forms": [], "stems": []}
        tot = {}
        for r in range(a.repeat):
            for way, d in (("forms", db), ("stems", stems)) if r % 2 == 0 else \
                    (("stems", stems), ("forms", db)):
                per, totals = run(qb, qf, d, 1, os.path.join(tmp, "hits"))
                lat[way].append(per)
                tot[way] = totals
        med = {w: [statistics.median(p[i] for p in lat[w]) for i in range(len(qs))]
               for w in lat}
        fewer = sum(1 for x, y in zip(tot["forms"], tot["stems"]) if x < y)
        more = sum(1 for x, y in zip(tot["forms"], tot["stems"]) if x > y)
        ex = sorted(zip(qs, tot["forms"], tot["stems"]), key=lambda t: t[1] - t[2])[:5]
        rows.append((name, med, fewer, more, sum(tot["forms"]), sum(tot["stems"]), ex))

    out = ["| %d quoted %s | p50 ms | p99 ms | works matched |" % (a.n, "queries"),
           "|---|---|---|---|"]
    for name, med, fewer, more, tf, ts, ex in rows:
        for way, t in (("as written", med["forms"]), ("by stems", med["stems"])):
            out.append("| %s, %s | %.2f | %.2f | %d |" % (
                name, way, pct(t, 50) / 1000, pct(t, 99) / 1000,
                tf if way == "as written" else ts))
        out.append("| %s, ratio | %.2f | %.2f | %.3f |" % (
            name, pct(med["forms"], 50) / pct(med["stems"], 50),
            pct(med["forms"], 99) / pct(med["stems"], 99), tf / max(1, ts)))
    out.append("")
    for name, med, fewer, more, tf, ts, ex in rows:
        out.append("- %s: %d of %d match fewer works as written, %d more; most "
                   "narrowed: %s" % (name, fewer, a.n, more, ", ".join(
                       '"%s" %d of %d' % e for e in ex)))
    text = "\n".join(out)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
