#!/usr/bin/env python3
"""treceval.py -- nDCG@10, MAP@1000, P@10 and Recall@100 of a TREC run.

usage: treceval.py [--per-query] [--queries QIDS] QRELS RUN

It follows trec_eval's conventions, so its figures compare with published
ones:
  * The run is re-sorted per query by score, descending, ties broken by
    docid descending (trec_eval ignores the rank column), and cut to
    1000 documents.
  * A document is relevant when its judgment is >= 1.  MAP, P@10 and
    Recall@100 count judged-relevant documents only; unjudged ones count
    as not relevant.
  * nDCG@10 uses the judgment as the gain (graded relevance) with the
    discount 1/log2(rank+1), normalised by the ideal ordering of all the
    query's judgments (trec_eval's ndcg_cut.10, as BEIR reports it).
  * The mean is over the queries that have at least one relevant
    document; such a query missing from the run scores 0 (trec_eval -c).

Relevance judgments are read in three layouts, told apart per line:
  TREC  "qid 0 docid rel"   (4 columns, the second ignored)
  SMART "qid docid 0 0"     (CACM's qrels.text: 4 columns, the last two 0;
                             every listed pair is relevant, and a qid like
                             "01" is the same query as "1")
  BEIR  "qid<TAB>docid<TAB>rel" with a header line "query-id ...".
"""
import math
import sys
from collections import defaultdict

METRICS = ("ndcg@10", "map@1000", "p@10", "recall@100")


def norm_qid(q):
    """SMART numbers queries "01"; runs say "1"."""
    return str(int(q)) if q.isdigit() else q


def read_qrels(path):
    qrels = defaultdict(dict)
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            parts = line.split()
            if not parts:
                continue
            if parts[0] in ("query-id", "query_id", "qid"):
                continue  # a BEIR header
            if len(parts) == 3:  # BEIR
                q, d, r = parts
            elif len(parts) == 4 and parts[2] == "0" and parts[3] == "0":
                q, d, r = parts[0], parts[1], "1"  # SMART
            elif len(parts) == 4:
                q, _, d, r = parts  # TREC
            else:
                raise SystemExit(f"{path}:{lineno}: not a qrels line")
            try:
                rel = int(float(r))
            except ValueError:
                raise SystemExit(f"{path}:{lineno}: relevance {r!r} is not a number")
            q = norm_qid(q)
            qrels[q][d] = max(rel, qrels[q].get(d, rel))
    return qrels


def read_run(path):
    run = defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 6:
                raise SystemExit(f"{path}:{lineno}: not a TREC run line")
            try:
                score = float(parts[4])
            except ValueError:
                raise SystemExit(f"{path}:{lineno}: score {parts[4]!r} is not a number")
            run[norm_qid(parts[0])].append((score, parts[2]))
    for q in run:
        # trec_eval: score descending, then docid descending.
        run[q].sort(key=lambda sd: (sd[0], sd[1]), reverse=True)
        seen, ranked = set(), []
        for _, d in run[q]:
            if d not in seen:
                seen.add(d)
                ranked.append(d)
        run[q] = ranked[:1000]
    return run


def evaluate_query(ranked, judged):
    """The four metrics for one query: ranked docids, {docid: grade}."""
    rel = {d for d, g in judged.items() if g >= 1}
    n_rel = len(rel)
    hits, ap = 0, 0.0
    for i, d in enumerate(ranked[:1000], 1):
        if d in rel:
            hits += 1
            ap += hits / i
    dcg = sum(max(judged.get(d, 0), 0) / math.log2(i + 1)
              for i, d in enumerate(ranked[:10], 1))
    ideal = sorted((g for g in judged.values() if g > 0), reverse=True)[:10]
    idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, 1))
    return {
        "ndcg@10": dcg / idcg if idcg else 0.0,
        "map@1000": ap / n_rel if n_rel else 0.0,
        "p@10": sum(1 for d in ranked[:10] if d in rel) / 10.0,
        "recall@100": sum(1 for d in ranked[:100] if d in rel) / n_rel if n_rel else 0.0,
    }


def evaluate(qrels, run, only=None):
    """(mean of each metric, {qid: metrics}) over the judged queries
    (restricted to `only` when given)."""
    per = {}
    for q, judged in qrels.items():
        if only is not None and q not in only:
            continue
        if not any(g >= 1 for g in judged.values()):
            continue
        per[q] = evaluate_query(run.get(q, []), judged)
    n = len(per)
    mean = {m: (sum(p[m] for p in per.values()) / n if n else 0.0) for m in METRICS}
    return mean, per


def main(argv):
    per_query = False
    only = None
    args = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--per-query":
            per_query = True
        elif a == "--queries":
            i += 1
            only = {norm_qid(q) for q in argv[i].split(",") if q}
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            args.append(a)
        i += 1
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    qrels = read_qrels(args[0])
    run = read_run(args[1])
    mean, per = evaluate(qrels, run, only)
    if per_query:
        for q in sorted(per, key=lambda x: (len(x), x)):
            print(q, " ".join(f"{m}={per[q][m]:.4f}" for m in METRICS))
    print(f"queries={len(per)}", " ".join(f"{m}={mean[m]:.4f}" for m in METRICS))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
