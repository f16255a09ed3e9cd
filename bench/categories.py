#!/usr/bin/env python3
"""categories.py -- an arXiv category code typed among a query's words
("cs.CL transformers"), on the arXiv 101k: is the top 10 in that
category?

usage: categories.py [--codes N] [--seed S] --db DIR PAPERDEX CORPUS

From CORPUS, the N categories (default 20) that the most works list,
each with 10 topic words drawn from its works' titles (a word of five
letters or more, not a stop word, that at least 20 of its works' titles
write; seed 20261204), make N x 10 queries "CODE word", the code in the
case arXiv writes it.  Each is searched as paperdex reads a query
(`--syntax auto`: the code is `category:CODE`) and as plain words
(`--syntax words`: "cs" and "CL" are words), the top 10 each, and the
script prints, per reading:

  in category  the share of the top 10 that lists the category
               (averaged over the queries that found something);
  none         the share of queries that found nothing.

DIR is an index of CORPUS (`paperdex index --db DIR CORPUS`).
"""
import argparse
import collections
import gzip
import json
import random
import re
import subprocess
import sys

STOP = {"about", "above", "after", "again", "against", "being", "below",
        "between", "their", "there", "these", "those", "through", "under",
        "until", "where", "which", "while", "would", "could", "should",
        "other", "using", "based", "towards", "toward", "within", "without"}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--codes", type=int, default=20)
    ap.add_argument("--seed", type=int, default=20261204)
    ap.add_argument("--db", required=True)
    ap.add_argument("paperdex")
    ap.add_argument("corpus")
    a = ap.parse_args(argv)
    opener = gzip.open if a.corpus.endswith(".gz") else open
    works_of = collections.Counter()
    words_of = collections.defaultdict(collections.Counter)
    with opener(a.corpus, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            cats = (r.get("categories") or "").split()
            words = {w for w in re.findall(r"[a-z]+", (r.get("title") or "").lower())
                     if len(w) >= 5 and w not in STOP}
            for c in cats:
                works_of[c] += 1
                words_of[c].update(words)
    rng = random.Random(a.seed)
    queries = []
    for code, _ in works_of.most_common(a.codes):
        pool = sorted(w for w, n in words_of[code].items() if n >= 20)
        for w in rng.sample(pool, min(10, len(pool))):
            queries.append((code, "%s %s" % (code, w)))
    print("%d queries: %d categories, each with topic words of its titles" %
          (len(queries), a.codes))
    print()
    print("| read as | in category | none |")
    print("|---|---|---|")
    for syntax, name in (("auto", "paperdex's reading (category:CODE)"),
                         ("words", "words")):
        share, found, none = 0.0, 0, 0
        for code, q in queries:
            out = subprocess.run([a.paperdex, "search", "--db", a.db, "--limit", "10",
                                  "--format", "json", "--syntax", syntax, q],
                                 capture_output=True, text=True, check=True).stdout
            hits = json.loads(out).get("hits", [])
            if not hits:
                none += 1
                continue
            found += 1
            share += sum(code in (h.get("categories") or []) for h in hits) / len(hits)
        print("| %s | %.3f | %.3f |" % (name, share / max(found, 1), none / len(queries)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
