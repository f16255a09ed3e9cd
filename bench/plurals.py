#!/usr/bin/env python3
"""plurals.py -- irregular plurals and their singulars, counted two ways.

    python3 bench/plurals.py CORPUS DB PAPERDEX [PAPERDEX_BEFORE[:DB_BEFORE]]

CORPUS is an arXiv snapshot (../shared/data/arxiv-101k.jsonl.gz), DB an
index of it.  For each pair of the list, prints the works whose title or
abstract write either number (a scan: the word, any case, no letter or digit on
either side: a part of a hyphenated compound counts, as the index reads
it) beside `paperdex search --exact --limit 0` of
the singular and of the plural, by each binary.  A binary written
BINARY:DIR searches the index DIR instead of DB (an index built before
the plurals were read as their singulars).  A search finds the works of
the stem, so a word whose stem other words share (index: indexing,
indexed) counts more than the scan of its two numbers.
"""
import gzip
import json
import re
import sys

import stop_compounds  # count(): one search by one binary, BINARY:DIR read

PAIRS = [("matrix", "matrices"), ("criterion", "criteria"), ("vertex", "vertices"),
         ("hypothesis", "hypotheses"), ("phenomenon", "phenomena"), ("corpus", "corpora"),
         ("spectrum", "spectra"), ("stimulus", "stimuli"), ("automaton", "automata"),
         ("nucleus", "nuclei"), ("radius", "radii"), ("optimum", "optima"),
         ("minimum", "minima"), ("maximum", "maxima"), ("mouse", "mice"),
         ("index", "indices")]


def count(binary, db, q):
    n = stop_compounds.count(binary, db, q)
    return int(n) if n.isdigit() else None


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    corpus, db, binaries = sys.argv[1], sys.argv[2], sys.argv[3:]
    pats = {p: re.compile(r"(?<![A-Za-z0-9])(?:%s|%s)(?![A-Za-z0-9])" % p, re.I) for p in PAIRS}
    scan = {p: 0 for p in PAIRS}
    with gzip.open(corpus, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            text = (r.get("title") or "") + " " + (r.get("abstract") or "")
            for p, rx in pats.items():
                if rx.search(text):
                    scan[p] += 1
    heads = ["new"] + (["before"] if len(binaries) > 1 else [])
    print("| singular / plural | scan, either | " +
          " | ".join("%s: singular / plural" % h for h in heads) + " |")
    print("|---|---|" + "---|" * len(heads))
    for p in PAIRS:
        cells = []
        for b in binaries:
            got = [count(b, db, q) for q in p]
            cells.append(" / ".join("error" if g is None else "{:,}".format(g) for g in got))
        print("| %s / %s | {:,} | %s |".format(scan[p]) % (p[0], p[1], " | ".join(cells)))


if __name__ == "__main__":
    main()
