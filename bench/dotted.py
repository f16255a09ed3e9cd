#!/usr/bin/env python3
"""dotted.py -- letters written with dots between them, counted two ways.

    python3 bench/dotted.py CORPUS DB PAPERDEX [PAPERDEX_BEFORE[:DB_BEFORE]]

CORPUS is an arXiv snapshot (../shared/data/arxiv-101k.jsonl.gz), DB an
index of it.  For each abbreviation of the list, as a researcher types
it ("i.i.d.", "w.r.t.", "non-i.i.d."), prints the works whose title or
abstract write it (a scan: its letters with a dot after each or after
none, any case, no letter or digit on either side, "non" before it
joined by a hyphen, a space or nothing; for two letters, PAIRS, the
letters with a dot between and perhaps one after, any case, no letter,
digit or dot before them and no letter, digit or dot and letter after
them ("U.S.C." is another run), a hyphenated word as written: "US"
closed is also the word us)
beside `paperdex search --exact
--limit 0` of each binary.  A binary written BINARY:DIR searches the
index DIR instead of DB (an index built by that binary, when the
binaries build different terms).  The last row sums, over the
abbreviations, how far each count is from the scan's, as a share of
the scan's total.
"""
import gzip
import json
import re
import sys

import stop_compounds  # count(): one search by one binary, BINARY:DIR read

RUNS = ["i.i.d.", "I.I.D.", "i.i.d", "w.r.t.", "a.k.a.", "non-i.i.d.", "r.h.s.", "l.h.s."]
PAIRS = ["U.S.", "u.s.", "U.K.", "e.g.", "i.e.", "A.I.", "non-U.S.", "U.S.-based"]
QUERIES = RUNS + PAIRS


def count(binary, db, q):
    """`search --exact` of q by binary (BINARY:DIR as stop_compounds.py
    reads it): the number, or None when the search failed."""
    n = stop_compounds.count(binary, db, q)
    return int(n) if n.isdigit() else None


def pattern(q):
    """The scan's regular expression for the abbreviation q."""
    if q in PAIRS:
        if "-" in q:
            return re.compile(r"(?<![\w.])" + re.escape(q) + r"(?!\w)", re.I)
        body = r"\.".join(c for c in q if c.isalpha())
        return re.compile(r"(?<![\w.])" + body + r"(?:\.(?!\w)|(?![\w.]))", re.I)
    non = q.lower().startswith("non-")
    letters = [c for c in (q[4:] if non else q) if c.isalpha()]
    dotted = r"\.".join(letters) + r"\.?"
    closed = "".join(letters)
    body = "(?:%s|%s)" % (dotted, closed)
    if non:
        body = "non[- ]?" + body
    return re.compile(r"(?<![\w.])" + body + r"(?![\w])", re.I)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    corpus, db, binaries = sys.argv[1], sys.argv[2], sys.argv[3:]
    pats = {q: pattern(q) for q in QUERIES}
    scan = {q: 0 for q in QUERIES}
    with gzip.open(corpus, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            text = (r.get("title") or "") + " " + (r.get("abstract") or "")
            for q, p in pats.items():
                if p.search(text):
                    scan[q] += 1
    heads = ["new"] + (["before"] if len(binaries) > 1 else [])
    print("| abbreviation | scan | " + " | ".join(heads) + " |")
    print("|---|---|" + "---|" * len(heads))
    off = [0] * len(binaries)
    for q in QUERIES:
        got = [count(b, db, q) for b in binaries]
        for i, g in enumerate(got):
            off[i] += abs((g if g is not None else 0) - scan[q])
        print("| `%s` | %d | %s |" % (q, scan[q], " | ".join(
            "error" if g is None else str(g) for g in got)))
    total = sum(scan.values()) or 1
    print("| summed off, share of the scan | %d | %s |" % (
        sum(scan.values()), " | ".join("%.2f" % (o / total) for o in off)))


if __name__ == "__main__":
    main()
