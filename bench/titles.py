#!/usr/bin/env python3
"""titles.py -- what researchers type: a few words of a title they half
remember, or a topic that stands in the titles of several works.  Each
query has a known answer, drawn from the corpus itself; paperdex (its
default ranking, flat BM25 with --rank bm25, and any weights asked for),
SQLite FTS5 and Lucene answer the same queries in one run.

usage: titles.py [--work DIR] [--n N] [--seed S] [--sweep] CORPUS

Three kinds of query, N of each (default 1,000):

  partial  a run of 3 to 6 consecutive words of one work's title, as the
           title writes them (capitals, hyphens, a colon inside the run);
           relevant: every work whose title holds that run of words
           (lower-cased words of letters and digits, in order).  MRR@10,
           success@1 and success@10.
  topic    a phrase of 2 to 4 words, lower case, standing in the titles
           of 3 to 30 works (it neither begins nor ends with a stop
           word); relevant: those works.  nDCG@10 (binary gains).
  whole    (a known-item check) a work's whole title as typed; relevant:
           every work of that title.  success@1.
  pdf      partial titles as pasted from a PDF: runs as above that write
           ff, fi or fl, those letters as the font's ligatures, as a
           PDF's text layer gives them (U+FB00-U+FB04: "Eﬃcient
           ﬁne-tuning").  MRR@10 and success@1.

paperdex is run through bench/pdx_qbench (one handle, top 10, no
snippets), FTS5 through bench/fts5_bench (bm25 with the title weighted
2), Lucene 8 through bench/LuceneBench.java (title, abstract and authors
as fields, the title boosted 2), as bench/compare.py runs them; each
engine's index of CORPUS is built in WORK once and kept.  --sweep adds
paperdex at a grid of proximity and title weights (how the defaults were
chosen).  Prints a Markdown table; every figure goes to WORK/titles.json.
"""
import json
import math
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402

STOP = set("a an the of for and or in on to with by from via is are be as at its it "
           "into than that this their our we do does not no vs".split())


def norm_words(text):
    return re.findall(r"[a-z0-9]+", (text or "").lower())


def load(corpus):
    recs = compare.read_records(corpus, 10 ** 9)
    ids, titles = [], []
    for r in recs:
        t = " ".join((r.get("title") or "").split())
        if r.get("id") and t:
            ids.append(r["id"])
            titles.append(t)
    return ids, titles


class TitleIndex:
    """Which titles hold a run of words: word -> titles, then a check."""

    def __init__(self, titles):
        self.norm = [" " + " ".join(norm_words(t)) + " " for t in titles]
        self.by_word = {}
        for i, t in enumerate(self.norm):
            for w in set(t.split()):
                self.by_word.setdefault(w, []).append(i)

    def holding(self, words):
        if not words:
            return []
        lists = sorted((self.by_word.get(w, []) for w in set(words)), key=len)
        cand = set(lists[0])
        for other in lists[1:3]:
            cand &= set(other)
        key = " " + " ".join(words) + " "
        return sorted(i for i in cand if key in self.norm[i])


def partial_queries(titles, tix, n, rng, pdf=False):
    """Runs of 3-6 words of a title, as written; with pdf, only runs
    that write a ligature's letters, as a PDF gives them (as_pdf)."""
    out = []
    order = list(range(len(titles)))
    rng.shuffle(order)
    for i in order:
        toks = titles[i].split()
        if len(toks) < 5 or any(c in titles[i] for c in '$\\"{}'):
            continue
        k = rng.randint(3, min(6, len(toks) - 1))
        s = rng.randrange(len(toks) - k + 1)
        run = toks[s:s + k]
        run[-1] = run[-1].rstrip(":,.;")
        if pdf and as_pdf(" ".join(run)) == " ".join(run):
            continue
        words = norm_words(" ".join(run))
        if len([w for w in words if w not in STOP]) < 2:
            continue
        rel = tix.holding(words)
        if i not in rel:
            continue
        out.append((as_pdf(" ".join(run)) if pdf else " ".join(run), rel))
        if len(out) == n:
            break
    return out


def whole_queries(titles, tix, n, rng):
    """Whole titles as typed; relevant: every work of that title."""
    out = []
    order = list(range(len(titles)))
    rng.shuffle(order)
    for i in order:
        if any(c in titles[i] for c in '"') or len(titles[i].split()) < 2:
            continue
        words = norm_words(titles[i])
        key = " " + " ".join(words) + " "
        rel = [j for j in tix.holding(words) if tix.norm[j] == key]
        out.append((titles[i], rel))
        if len(out) == n:
            break
    return out


LIGATURES = [("ffi", "\ufb03"), ("ffl", "\ufb04"), ("ff", "\ufb00"),
             ("fi", "\ufb01"), ("fl", "\ufb02")]


def as_pdf(title):
    """title as a PDF's text layer writes it: ff, fi, fl, ffi and ffl in
    lower case as one ligature character each, longest first."""
    out, i = [], 0
    while i < len(title):
        for letters, lig in LIGATURES:
            if title.startswith(letters, i):
                out.append(lig)
                i += len(letters)
                break
        else:
            out.append(title[i])
            i += 1
    return "".join(out)


def topic_queries(titles, tix, n, rng):
    """Phrases of 2-4 words in the titles of 3 to 30 works."""
    df = {}
    for i, t in enumerate(tix.norm):
        ws = t.split()
        seen = set()
        for k in (2, 3, 4):
            for s in range(len(ws) - k + 1):
                g = tuple(ws[s:s + k])
                if g[0] in STOP or g[-1] in STOP or g in seen:
                    continue
                if any(w.isdigit() for w in g):
                    continue
                seen.add(g)
                df[g] = df.get(g, 0) + 1
    pool = sorted(g for g, c in df.items() if 3 <= c <= 30)
    rng.shuffle(pool)
    out = []
    for g in pool[:n]:
        out.append((" ".join(g), tix.holding(list(g))))
    return out


def run_ids(cmd, qfile, env_extra):
    """The top-10 ids of each query of qfile, one list a query."""
    ids_path = qfile + ".ids"
    env = dict(os.environ, PDX_QBENCH_IDS=ids_path, **env_extra)
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit("titles.py: %s failed: %s" % (" ".join(cmd), r.stderr[-800:]))
    lat = json.loads(r.stdout.splitlines()[-1])["latency_us"]
    with open(ids_path, encoding="utf-8") as f:
        got = [line.rstrip("\n").split("\t") if line.strip() else [] for line in f]
    return got, lat


def measures(kind, queries, got, ids):
    rels = [set(ids[i] for i in rel) for _, rel in queries]
    if kind in ("partial", "whole", "pdf"):
        rr, s1, s10 = [], 0, 0
        for rel, g in zip(rels, got):
            r = next((k + 1 for k, x in enumerate(g[:10]) if x in rel), None)
            rr.append(1.0 / r if r else 0.0)
            s1 += r == 1
            s10 += r is not None
        n = len(rels)
        if kind == "whole":
            return {"whole success@1": s1 / n, "whole MRR@10": sum(rr) / n}
        if kind == "pdf":
            return {"pdf MRR@10": sum(rr) / n, "pdf success@1": s1 / n}
        return {"MRR@10": sum(rr) / n, "success@1": s1 / n, "success@10": s10 / n}
    nd = []
    for rel, g in zip(rels, got):
        dcg = sum(1.0 / math.log2(k + 2) for k, x in enumerate(g[:10]) if x in rel)
        ideal = sum(1.0 / math.log2(k + 2) for k in range(min(10, len(rel))))
        nd.append(dcg / ideal if ideal else 0.0)
    return {"nDCG@10": sum(nd) / len(nd)}


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--work", default="/tmp/pdx-titles")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--no-peers", action="store_true",
                    help="paperdex alone (no FTS5, no Lucene)")
    a = ap.parse_args(argv)
    os.makedirs(a.work, exist_ok=True)
    ids, titles = load(a.corpus)
    tix = TitleIndex(titles)
    rng = random.Random(a.seed)
    kinds = {"partial": partial_queries(titles, tix, a.n, rng),
             "topic": topic_queries(titles, tix, a.n, rng),
             "whole": whole_queries(titles, tix, a.n, rng),
             "pdf": partial_queries(titles, tix, a.n, rng, pdf=True)}
    qfiles = {}
    for kind, qs in kinds.items():
        qfiles[kind] = os.path.join(a.work, kind + ".tsv")
        with open(qfiles[kind], "w", encoding="utf-8") as f:
            for text, _ in qs:
                f.write("title\t%s\t\n" % text)

    pdb = os.path.join(a.work, "paperdex")
    if not os.path.exists(os.path.join(pdb, "iamglass")):
        subprocess.run([compare.PDX, "index", "--quiet", "--jobs", "2", "--db", pdb, a.corpus],
                       check=True)
    engines = {}  # name -> (command for a query file, environment)
    qb = lambda f: [compare.QB, f, "1", pdb]  # noqa: E731
    engines["paperdex"] = (qb, {})
    engines["paperdex --rank bm25"] = (qb, {"PDX_QBENCH_RANK": "bm25"})
    if a.sweep:
        for p in (0.25, 0.4, 0.5, 0.75, 1):
            for t in (0, 0.5):
                engines["paperdex --proximity-weight %g --title-weight %g" % (p, t)] = (
                    qb, {"PDX_QBENCH_PROXIMITY": str(p), "PDX_QBENCH_TITLE": str(t)})
    if not a.no_peers:
        fdb = os.path.join(a.work, "fts5.db")
        if not os.path.exists(fdb):
            subprocess.run([compare.FTS, "index", fdb, a.corpus], check=True,
                           stdout=subprocess.DEVNULL)
        engines["sqlite fts5"] = (lambda f: [compare.FTS, "query", fdb, f, "1"], {})
        luc = compare.lucene_prepare(a.work, a.corpus)
        if luc:
            java, ldir, tsv = luc
            if not os.path.exists(ldir):
                subprocess.run(java + ["index", ldir, tsv], check=True, stdout=subprocess.DEVNULL)
            engines["lucene"] = (lambda f: java + ["query", ldir, f, "1"], {})

    res = {"corpus": a.corpus, "queries": {k: len(v) for k, v in kinds.items()},
           "seed": a.seed, "engines": {}}
    for name, (cmd, env) in engines.items():
        row = {}
        for kind, qs in kinds.items():
            got, lat = run_ids(cmd(qfiles[kind]), qfiles[kind], env)
            row.update(measures(kind, qs, got, ids))
            row["%s p50 ms" % kind] = pct(lat, 50) / 1000.0
            row["%s p99 ms" % kind] = pct(lat, 99) / 1000.0
        res["engines"][name] = row
        sys.stderr.write("titles.py: %s done\n" % name)
    with open(os.path.join(a.work, "titles.json"), "w") as f:
        json.dump(res, f, indent=1)
    cols = ["MRR@10", "success@1", "success@10", "nDCG@10", "whole success@1",
            "pdf MRR@10", "pdf success@1",
            "partial p50 ms", "partial p99 ms", "topic p50 ms", "topic p99 ms"]
    print("%d partial titles, %d title topics, %d whole titles, %d partial titles pasted from a PDF, %s\n" % (
        len(kinds["partial"]), len(kinds["topic"]), len(kinds["whole"]),
        len(kinds["pdf"]), a.corpus))
    print("| engine | partial MRR@10 | s@1 | s@10 | topic nDCG@10 | whole titles s@1 "
          "| from a PDF MRR@10 | s@1 | partial p50 / p99 ms | topic p50 / p99 ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, row in res["engines"].items():
        print("| %s | %.4f | %.3f | %.3f | %.4f | %.3f | %.4f | %.3f | %.2f / %.2f | %.2f / %.2f |" % (
            (name,) + tuple(row[c] for c in cols)))


if __name__ == "__main__":
    main(sys.argv[1:])
