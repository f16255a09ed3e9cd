#!/usr/bin/env python3
"""eval.py -- paperdex's relevance on CACM and SciFact, in one command.

usage: eval.py [--paperdex BIN] [--shared DIR] [--work DIR] [--full]
               [--wdf N=BIN ...]

Indexes ../shared/eval/cacm (SMART) and ../shared/eval/scifact (BEIR)
with `paperdex index`, runs their queries with `paperdex search --batch`
(TREC output) and scores the runs with treceval.py (trec_eval's
conventions).  It prints, as Markdown:

  1. the defaults a user gets with no flag, flat BM25 (--rank bm25: the
     ranking without the proximity bonus, which the defaults must not
     fall below by more than 0.005 on any measure), the best point of the
     BM25 sweep on each collection, and --expand, beside the published
     Anserini BM25 references;
  2. the CACM queries that name authors (.A), alone, by the defaults and
     flat BM25, with and without their names;
  3. the sweep: k1 x b, the query-time field boosts, and (with --full)
     the feedback parameters, and the index-time title weight of
     binaries given with --wdf N=BIN (each built with another
     LAYOUT_TITLE_WDF in common/layout.h).

A setting is chosen for both collections by the geometric mean of its
two primary scores (CACM MAP, SciFact nDCG@10), each divided by that
collection's best in the sweep: a point good on both beats a point best
on one.
"""
import math
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import treceval  # noqa: E402

REFS = {"cacm": ("map@1000", 0.3123, "Anserini BM25 (k1=0.9, b=0.4)"),
        "cacm-rm3": ("map@1000", 0.3643, "Anserini BM25+RM3"),
        "scifact": ("ndcg@10", 0.679, "Anserini BM25 flat (0.665 multifield)")}
PRIMARY = {"cacm": "map@1000", "scifact": "ndcg@10"}


class Collection:
    def __init__(self, name, corpus, queries, qrels, db):
        self.name, self.corpus, self.queries, self.qrels, self.db = (
            name, corpus, queries, qrels, db)
        self.judged = treceval.read_qrels(qrels)


def sh(args, **kw):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, **kw)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        raise SystemExit(f"eval.py: {' '.join(args)} exited {r.returncode}")
    return r.stdout


def index(pdx, coll, db=None):
    db = db or coll.db
    if not os.path.exists(db):
        t = time.time()
        sh([pdx, "index", "--quiet", "--db", db, coll.corpus])
        sys.stderr.write(f"indexed {coll.name} in {time.time() - t:.1f} s\n")
    return db


def run(pdx, coll, work, flags, db=None):
    """Run every query with flags; return {metric: mean}, per-query."""
    out = os.path.join(work, "run.trec")
    with open(out, "w") as f:
        r = subprocess.run([pdx, "search", "--db", db or coll.db, "--batch",
                            coll.queries, "--limit", "1000"] + flags,
                           stdout=f, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        raise SystemExit(f"eval.py: search {flags} on {coll.name} failed")
    return treceval.evaluate(coll.judged, treceval.read_run(out))


def author_qids(query_file):
    """CACM queries with an .A section."""
    qids, cur = set(), None
    with open(query_file, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\.I\s+(\S+)", line)
            if m:
                cur = m.group(1)
            elif line.startswith(".A") and cur:
                qids.add(treceval.norm_qid(cur))
    return qids


def text_only_queries(query_file, out):
    """The SMART queries as qid<TAB>text, without their .A names."""
    cur, field, text = None, None, {}
    with open(query_file, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\.([A-Z])(\s+(\S+))?\s*$", line)
            if m:
                field = m.group(1)
                if field == "I":
                    cur = m.group(3)
                    text[cur] = []
                continue
            if field == "W" and cur:
                text[cur].append(line.strip())
    with open(out, "w", encoding="utf-8") as f:
        for q, words in text.items():
            f.write(q + "\t" + " ".join(words) + "\n")
    return out


def fmt(x):
    return f"{x:.4f}"


def flags_of(k1, b, tw=0.0, aw=0.0, extra=()):
    f = ["--k1", str(k1), "--b", str(b)]
    if tw:
        f += ["--title-weight", str(tw)]
    if aw:
        f += ["--author-weight", str(aw)]
    return f + list(extra)


def balanced(points):
    """points: {key: {coll: primary}} -> key maximising the geometric mean
    of each collection's score over its best."""
    best = {c: max(p[c] for p in points.values()) for c in PRIMARY}
    def g(k):
        return math.sqrt(math.prod(points[k][c] / best[c] for c in PRIMARY))
    return max(points, key=lambda k: (g(k), k)), g


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    pdx = os.path.join(root, "build", "paperdex")
    shared = os.path.join(root, "..", "shared")
    work = None
    full = False
    wdf_bins = {}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--paperdex":
            pdx = argv[i + 1]; i += 1
        elif a == "--shared":
            shared = argv[i + 1]; i += 1
        elif a == "--work":
            work = argv[i + 1]; i += 1
        elif a == "--full":
            full = True
        elif a == "--wdf":
            n, b = argv[i + 1].split("=", 1)
            wdf_bins[int(n)] = b; i += 1
        elif a in ("-h", "--help"):
            print(__doc__); return 0
        else:
            sys.stderr.write(__doc__); return 2
        i += 1
    work = work or tempfile.mkdtemp(prefix="pdx-eval-")
    ev = os.path.join(shared, "eval")
    colls = {
        "cacm": Collection("cacm", os.path.join(ev, "cacm", "cacm.all"),
                           os.path.join(ev, "cacm", "query.text"),
                           os.path.join(ev, "cacm", "qrels.text"),
                           os.path.join(work, "cacm.db")),
        "scifact": Collection("scifact", os.path.join(ev, "scifact", "corpus.jsonl"),
                              os.path.join(ev, "scifact", "queries.test.jsonl"),
                              os.path.join(ev, "scifact", "qrels.test.tsv"),
                              os.path.join(work, "scifact.db")),
    }
    for c in colls.values():
        index(pdx, c)
    version = sh([pdx, "--version"]).strip()
    print(f"# paperdex relevance ({version})\n")

    # ---- the BM25 sweep ----------------------------------------------
    k1s = [0.6, 0.9, 1.2, 1.5, 2.0]
    bs = [0.3, 0.45, 0.6, 0.75, 0.9]
    grid = {}
    for k1 in k1s:
        for b in bs:
            grid[(k1, b)] = {c: run(pdx, colls[c], work, flags_of(k1, b))[0]
                             for c in colls}
    prim = {k: {c: v[c][PRIMARY[c]] for c in colls} for k, v in grid.items()}
    choice, gscore = balanced(prim)
    best_pt = {c: max(prim, key=lambda k: (prim[k][c], k)) for c in colls}

    # ---- defaults, best points, expansion ----------------------------
    default = {c: run(pdx, colls[c], work, []) for c in colls}
    flat = {c: run(pdx, colls[c], work, ["--rank", "bm25"]) for c in colls}
    expand = {c: run(pdx, colls[c], work, ["--expand"]) for c in colls}
    print("## Defaults, best sweep point and --expand\n")
    print("| run | CACM MAP | CACM nDCG@10 | CACM P@10 | CACM R@100 "
          "| SciFact nDCG@10 | SciFact MAP | SciFact P@10 | SciFact R@100 |")
    print("|---|---|---|---|---|---|---|---|---|")

    def row(label, res):
        c, s = res["cacm"], res["scifact"]
        print(f"| {label} | {fmt(c['map@1000'])} | {fmt(c['ndcg@10'])} | "
              f"{fmt(c['p@10'])} | {fmt(c['recall@100'])} | "
              f"{fmt(s['ndcg@10'])} | {fmt(s['map@1000'])} | "
              f"{fmt(s['p@10'])} | {fmt(s['recall@100'])} |")
    row("paperdex defaults (no flags)", {c: default[c][0] for c in colls})
    row("flat BM25 (--rank bm25)", {c: flat[c][0] for c in colls})
    for c in colls:
        k1, b = best_pt[c]
        row(f"best sweep point for {c} (k1={k1}, b={b})",
            {d: grid[best_pt[c]][d] for d in colls})
    row("defaults + --expand", {c: expand[c][0] for c in colls})
    print()
    print("| reference | metric | score | paperdex defaults | difference |")
    print("|---|---|---|---|---|")
    for key, (metric, score, label) in REFS.items():
        coll = key.split("-")[0]
        ours = (expand if key.endswith("rm3") else default)[coll][0][metric]
        what = "defaults + --expand" if key.endswith("rm3") else "defaults"
        print(f"| {coll}: {label} | {metric} | {score:.4f} | {fmt(ours)} ({what}) "
              f"| {ours - score:+.4f} |")
    print()

    # ---- author queries ----------------------------------------------
    aq = author_qids(colls["cacm"].queries)
    judged_aq = sorted(q for q in aq if q in default["cacm"][1])
    print(f"## CACM queries that name authors ({len(judged_aq)} judged: "
          f"{', '.join(judged_aq)})\n")
    print("| run | MAP | nDCG@10 | P@10 |")
    print("|---|---|---|---|")
    plain = Collection("cacm", None, text_only_queries(
        colls["cacm"].queries, os.path.join(work, "cacm-text-only.tsv")),
        colls["cacm"].qrels, colls["cacm"].db)
    text_only = run(pdx, plain, work, [])
    flat_text_only = run(pdx, plain, work, ["--rank", "bm25"])
    for label, res in (("defaults", default["cacm"]),
                       ("flat BM25 (--rank bm25)", flat["cacm"]),
                       ("defaults, .A names not used (text only)", text_only),
                       ("flat BM25, text only", flat_text_only),
                       ("--expand", expand["cacm"])):
        per = res[1]
        n = len(judged_aq) or 1
        print(f"| {label} | " + " | ".join(
            fmt(sum(per[q][m] for q in judged_aq) / n)
            for m in ("map@1000", "ndcg@10", "p@10")) + " |")
    print()

    # ---- where feedback helps and hurts -------------------------------
    print("## Where --expand helps and where it hurts (per query)\n")
    print("| collection | metric | better | worse | same | mean change |")
    print("|---|---|---|---|---|---|")
    for c in colls:
        m = PRIMARY[c]
        d = default[c][1]
        e = expand[c][1]
        diffs = [e[q][m] - d[q][m] for q in d]
        print(f"| {c} | {m} | {sum(x > 1e-9 for x in diffs)} | "
              f"{sum(x < -1e-9 for x in diffs)} | "
              f"{sum(abs(x) <= 1e-9 for x in diffs)} | "
              f"{sum(diffs) / len(diffs):+.4f} |")
    print()

    # ---- the sweep tables ----------------------------------------------
    print("## Sweep: BM25 k1 x b (CACM MAP / SciFact nDCG@10; "
          "balanced score)\n")
    print("| k1 \\ b | " + " | ".join(str(b) for b in bs) + " |")
    print("|---|" + "---|" * len(bs))
    for k1 in k1s:
        cells = []
        for b in bs:
            p = prim[(k1, b)]
            mark = " **←**" if (k1, b) == choice else ""
            cells.append(f"{p['cacm']:.4f} / {p['scifact']:.4f} "
                         f"({gscore((k1, b)):.3f}){mark}")
        print(f"| {k1} | " + " | ".join(cells) + " |")
    print(f"\nBalanced choice: k1={choice[0]}, b={choice[1]}.  Best for CACM: "
          f"k1={best_pt['cacm'][0]}, b={best_pt['cacm'][1]}; for SciFact: "
          f"k1={best_pt['scifact'][0]}, b={best_pt['scifact'][1]}.\n")

    k1, b = choice
    print(f"## Sweep: query-time field boosts at k1={k1}, b={b}\n")
    print("| title weight | author weight | CACM MAP | CACM author queries MAP "
          "| SciFact nDCG@10 |")
    print("|---|---|---|---|---|")
    for tw in (0.0, 0.25, 0.5):
        for aw in (0.0, 0.5, 1.0):
            res = {c: run(pdx, colls[c], work, flags_of(k1, b, tw, aw))
                   for c in colls}
            per = res["cacm"][1]
            amap = sum(per[q]["map@1000"] for q in judged_aq) / max(len(judged_aq), 1)
            print(f"| {tw} | {aw} | {fmt(res['cacm'][0]['map@1000'])} | "
                  f"{fmt(amap)} | {fmt(res['scifact'][0]['ndcg@10'])} |")
    print()

    if full:
        print(f"## Sweep: feedback (--expand) at k1={k1}, b={b}\n")
        print("| docs | terms | weight | CACM MAP | SciFact nDCG@10 |")
        print("|---|---|---|---|---|")
        for docs in (3, 5, 10, 20):
            for terms in (10, 20, 40):
                for w in (0.25, 0.5, 1.0):
                    fl = flags_of(k1, b, extra=[
                        "--expand-docs", str(docs), "--expand-terms", str(terms),
                        "--expand-weight", str(w)])
                    res = {c: run(pdx, colls[c], work, fl)[0] for c in colls}
                    print(f"| {docs} | {terms} | {w} | "
                          f"{fmt(res['cacm']['map@1000'])} | "
                          f"{fmt(res['scifact']['ndcg@10'])} |")
        print()
    if wdf_bins:
        print(f"## Sweep: index-time title weight at k1={k1}, b={b}\n")
        print("| title words count | CACM MAP | SciFact nDCG@10 |")
        print("|---|---|---|")
        for n, binary in sorted(wdf_bins.items()):
            res = {}
            for c in colls:
                db = index(binary, colls[c], os.path.join(work, f"{c}-wdf{n}.db"))
                res[c] = run(binary, colls[c], work, flags_of(k1, b), db)[0]
            print(f"| {n} | {fmt(res['cacm']['map@1000'])} | "
                  f"{fmt(res['scifact']['ndcg@10'])} |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
