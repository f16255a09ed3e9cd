#!/usr/bin/env python3
"""eval_test.py -- test collections end to end: the SMART and BEIR readers,
`search --batch` with TREC output, feedback (--expand), and
bench/treceval.py against cases computed by hand.

usage: eval_test.py PAPERDEX SRC_DIR
Uses only the invented mini collections in corpus/eval.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, scratch  # noqa: E402

PDX, SRC = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(SRC, "bench"))
import treceval  # noqa: E402

EV = os.path.join(SRC, "corpus", "eval")
tmp = scratch("pdx-evaltest-")


def pdx(*args, stdin=None):
    return subprocess.run([PDX] + list(args), capture_output=True, text=True,
                          input=stdin)


def close(a, b):
    return abs(a - b) < 1e-6


# ---- treceval.py against hand-computed figures ---------------------------
qrels = os.path.join(tmp, "qrels")
with open(qrels, "w") as f:
    # q1: d1 grade 2, d2 and d4 grade 1, d3 judged not relevant.
    # q2: relevant d9, never retrieved.  q3: nothing relevant: not counted.
    f.write("q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 0\nq1 0 d4 1\nq2 0 d9 1\nq3 0 d5 0\n")
run = os.path.join(tmp, "run")
with open(run, "w") as f:
    # The rank column is wrong on purpose: trec_eval sorts by score, ties
    # by docid descending, so the order is d3, dX, d1, d2.
    f.write("q1 Q0 d1 1 0.8 t\nq1 Q0 d2 2 0.5 t\nq1 Q0 d3 3 0.9 t\n"
            "q1 Q0 dX 4 0.8 t\nq3 Q0 d5 1 1.0 t\n")
mean, per = treceval.evaluate(treceval.read_qrels(qrels), treceval.read_run(run))
q1 = per.get("q1", {})
# AP: d1 at rank 3 (1/3), d2 at rank 4 (2/4), over 3 relevant.
check("treceval: AP q1", close(q1.get("map@1000", -1), (1 / 3 + 2 / 4) / 3), q1)
check("treceval: P@10 q1", close(q1.get("p@10", -1), 0.2), q1)
check("treceval: R@100 q1", close(q1.get("recall@100", -1), 2 / 3), q1)
# DCG: 2/log2(4) + 1/log2(5); ideal: 2/1 + 1/log2(3) + 1/log2(4).
dcg = 2 / 2 + 1 / 2.321928094887362
idcg = 2 + 1 / 1.584962500721156 + 1 / 2
check("treceval: nDCG@10 q1 (graded)", close(q1.get("ndcg@10", -1), dcg / idcg), q1)
check("treceval: unretrieved query scores 0", per.get("q2", {}).get("map@1000") == 0.0, per)
check("treceval: query without relevant documents not averaged", "q3" not in per, per)
check("treceval: mean over q1 and q2", close(mean["map@1000"], (1 / 3 + 2 / 4) / 3 / 2), mean)
# SMART qrels ("01 7 0 0") and BEIR qrels (header, tab separated).
smart = treceval.read_qrels(os.path.join(EV, "mini.qrels"))
check("treceval: SMART qrels, qid 01 is 1", smart.get("1") == {"1": 1, "3": 1}, smart)
beir = treceval.read_qrels(os.path.join(EV, "beir", "qrels.tsv"))
check("treceval: BEIR qrels with grades", beir.get("q1") == {"d1": 2, "3": 1}, beir)

# ---- the readers ----------------------------------------------------------
db = os.path.join(tmp, "mini")
r = pdx("index", "--db", db, os.path.join(EV, "mini.all"))
check("smart: indexed", r.returncode == 0 and "7 added" in r.stdout, r.stdout + r.stderr)
works = {}
r = pdx("search", "--db", db, "--all", "--format", "jsonl", "--limit", "100")
for line in r.stdout.splitlines():
    w = json.loads(line)
    works[w["id"]] = w
check("smart: every .I is a work (equal titles stay apart)",
      sorted(works) == ["1", "2", "3", "4", "5", "6", "7"], sorted(works))
w1 = works.get("1", {})
check("smart: authors 'Family, Given' shown as 'Given Family'",
      w1.get("authors") == ["A. N. Okonkwo", "B. Lindqvist"], w1.get("authors"))
check("smart: .B month and year", w1.get("date") == "1979-03" and w1.get("year") == 1979, w1)
check("smart: .B year alone", works.get("3", {}).get("date") == "1975", works.get("3"))
check("smart: abstract joined from .W lines",
      w1.get("abstract", "").startswith("A garbage collector that runs in small steps between keystrokes"),
      w1.get("abstract"))
check("smart: unknown fields (.N, .X, .K) ignored",
      ".K" not in json.dumps(works.get("4")) and "seek time" not in json.dumps(works.get("4")),
      works.get("4"))
check("smart: record without .T gets a derived title",
      works.get("7", {}).get("title", "").startswith("An abstract with no title"), works.get("7"))

bad = os.path.join(tmp, "bad.all")
with open(bad, "wb") as f:
    f.write(b"stray text before any record\n.I 1\n.T\nGood one\n.I\n.T\nNo number\n"
            b".I 3\n.T\nBad \xff byte\n.I 4\n.A\nNobody, N.\n.I 5\n.W\nLast good abstract.\n")
r = pdx("index", "--db", os.path.join(tmp, "bad"), "--verbose", "--format", "smart", bad)
check("smart bad input: exit 3 (done, records skipped)", r.returncode == 3, r)
for needle in ("bad.all:1: text before the first .I", "bad.all:5: .I is not followed",
               "bad.all:8: invalid UTF-8 on line 10", "bad.all:11: record has neither"):
    check("smart bad input: " + needle, needle in r.stderr, r.stderr)
check("smart bad input: the good records indexed", "2 added" in r.stdout, r.stdout)

bdb = os.path.join(tmp, "beir")
r = pdx("index", "--db", bdb, os.path.join(EV, "beir", "corpus.jsonl"))
check("beir: indexed", r.returncode == 0 and "4 added" in r.stdout, r.stdout + r.stderr)
r = pdx("show", "--db", bdb, "--format", "json", "3")
check("beir: numeric _id read as text, empty title left out",
      r.returncode == 0 and json.loads(r.stdout).get("id") == "3", r.stdout + r.stderr)

# ---- batch search ----------------------------------------------------------


def trec_lines(out):
    rows = [l.split() for l in out.splitlines()]
    return rows, all(len(x) == 6 and x[1] == "Q0" and x[5] == "paperdex" for x in rows)


r = pdx("search", "--db", db, "--batch", os.path.join(EV, "mini.query"))
rows, ok = trec_lines(r.stdout)
check("batch smart: exit 0", r.returncode == 0, r.stderr)
check("batch smart: TREC lines", ok and rows, r.stdout)
check("batch smart: all three queries ran (one leniently)",
      sorted({x[0] for x in rows}) == ["1", "2", "3"], rows)
ranks_ok = all(int(x[3]) == i + 1 for q in {x[0] for x in rows}
               for i, x in enumerate([y for y in rows if y[0] == q]))
check("batch smart: ranks 1.. per query", ranks_ok, rows)

# Batch equals one search per query, score for score.
tsv = os.path.join(tmp, "q.tsv")
with open(tsv, "w") as f:
    f.write("# a comment\n\na\tgarbage collection pauses\nb\thash tables with deletion\n")
r = pdx("search", "--db", db, "--batch", tsv)
rows, ok = trec_lines(r.stdout)
for qid, text in (("a", "garbage collection pauses"), ("b", "hash tables with deletion")):
    s = pdx("search", "--db", db, "--format", "jsonl", "--limit", "1000", text)
    single = [(h["id"], "%.6f" % h["score"]) for h in map(json.loads, s.stdout.splitlines())]
    batch = [(x[2], x[4]) for x in rows if x[0] == qid]
    check("batch tsv equals single search: " + qid, single == batch and single, (single, batch))

# The .A names of a SMART query are searched in the author field.
text_only = os.path.join(tmp, "q2.tsv")
with open(text_only, "w") as f:
    f.write("2\tPapers by Lindqvist on memory compaction\n")
r1 = pdx("search", "--db", db, "--batch", text_only)
r2 = pdx("search", "--db", db, "--batch", os.path.join(EV, "mini.query"))
s1 = {x.split()[2]: float(x.split()[4]) for x in r1.stdout.splitlines()}
s2 = {x.split()[2]: float(x.split()[4]) for x in r2.stdout.splitlines() if x.split()[0] == "2"}
check("batch smart: .A adds author-field weight to Lindqvist's works",
      s2.get("1", 0) > s1.get("1", 0) and s2.get("3", 0) > s1.get("3", 0), (s1, s2))
check("batch smart: .A leaves other works' scores alone",
      abs(s2.get("2", 0) - s1.get("2", 0)) < 1e-9, (s1, s2))

r = pdx("search", "--db", bdb, "--batch", os.path.join(EV, "beir", "queries.jsonl"), "--run-tag", "mine")
rows = [l.split() for l in r.stdout.splitlines()]
check("batch beir: top hit per query", [x[2] for x in rows if x[3] == "1"] == ["d1", "d4"], rows)
check("batch beir: run tag", rows and all(x[5] == "mine" for x in rows), rows)

with open(tsv, "a") as f:
    f.write("no tab on this line\nc\tsea (ice\n")
r = pdx("search", "--db", db, "--batch", tsv)
check("batch: a bad line names file:line, the rest runs, exit 1",
      r.returncode == 1 and "q.tsv:5: expected" in r.stderr and
      {x.split()[0] for x in r.stdout.splitlines()} >= {"a", "b"}, r)
# Query ids that a TREC run line could not carry are refused by line.
ids = os.path.join(tmp, "ids.tsv")
with open(ids, "wb") as f:
    f.write(b"a b\tsea\n\tsea\n\xff\tsea\n" + b"x" * 201 + b"\tsea\n  ok\tgarbage collection\n")
r = pdx("search", "--db", db, "--batch", ids)
for needle in ("ids.tsv:1: a query id with white space", "ids.tsv:2: an empty query id",
               "ids.tsv:3: a query id that is not valid UTF-8", "ids.tsv:4: a query id over 200 bytes",
               "1 queries run, 4 skipped"):
    check("batch: " + needle, r.returncode == 1 and needle in r.stderr, r)
check("batch: leading spaces before a qid are dropped",
      {x.split()[0] for x in r.stdout.splitlines()} == {"ok"}, r.stdout)
r = pdx("search", "--db", db, "--batch", os.path.join(tmp, "missing.tsv"))
check("batch: missing file is exit 1 with its name", r.returncode == 1 and "missing.tsv" in r.stderr, r)
r = pdx("search", "--db", db, "--batch", tsv, "--format", "json")
check("batch: --format json is a usage error", r.returncode == 2, r)
r = pdx("search", "--db", db, "--format", "trec", "hash")
check("search: --format trec needs --batch", r.returncode == 2 and "--batch" in r.stderr, r)
r = pdx("search", "--db", db, "--batch", tsv, "--format", "jsonl")
lines = [json.loads(l) for l in r.stdout.splitlines()]
check("batch jsonl: records carry qid, rank, score",
      lines and all("qid" in x and "rank" in x and "score" in x for x in lines), r.stdout[:300])

# ---- feedback ---------------------------------------------------------------


def ids(*args):
    r = pdx("search", "--db", db, "--format", "jsonl", "--limit", "100", *args)
    return [json.loads(l)["id"] for l in r.stdout.splitlines()], r


plain, _ = ids("tombstones")
exp, r = ids("--expand", "tombstones")
check("expand: plain query finds only the tombstone paper", plain == ["2"], plain)
check("expand: feedback terms (hash, probe) bring in a paper without the word",
      r.returncode == 0 and exp[:1] == ["2"] and "7" in exp, exp)
must, _ = ids("--expand", "+tombstones probe")
check("expand: a required word keeps the match set", must == ["2"], must)
r = pdx("search", "--db", db, "--expand-weight", "1.5", "hash")
check("expand: weight out of range is a usage error", r.returncode == 2, r)
lenient, r = ids("--lenient", "hash (tables")
check("--lenient reads an unbalanced query as words", r.returncode == 0 and lenient, r)
r = pdx("search", "--db", db, "hash (tables")
check("without --lenient the same query is an error with its position",
      r.returncode == 2 and "position 6" in r.stderr, r)

done()
