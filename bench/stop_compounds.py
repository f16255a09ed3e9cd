#!/usr/bin/env python3
"""stop_compounds.py -- compounds with a stop word, counted three ways.

    python3 bench/stop_compounds.py CORPUS DB PAPERDEX [PAPERDEX_BEFORE]

CORPUS is an arXiv snapshot (../shared/data/arxiv-101k.jsonl.gz), DB an
index of it.  For each compound of the list (one part or more a stop
word, which the index does not hold), prints the works whose title or
abstract write it (a scan: the parts joined by a hyphen or by nothing,
any case) beside `paperdex search --exact --limit 0` of each binary.
The search is stemmed (follow-up finds follow-ups), the scan is not.
"""
import gzip
import json
import re
import subprocess
import sys

WORDS = ["off-policy", "on-policy", "on-chip", "in-context", "on-device", "trade-off", "cut-off",
         "hands-on", "follow-up", "built-in", "plug-in", "add-on", "top-down", "bottom-up",
         "well-known", "set-up", "look-up", "roll-out", "read-out", "drop-out", "opt-in",
         "one-shot", "two-stage", "all-reduce", "in-situ", "in-house", "on-demand",
         "off-the-shelf", "out-of-distribution", "state-of-the-art", "end-to-end", "up-to-date"]


def count(binary, db, q):
    out = subprocess.run([binary, "search", "--db", db, "--limit", "0", "--exact", "--format", "json",
                          "--", q], capture_output=True, text=True).stdout
    try:
        return str(json.loads(out)["total"])
    except ValueError:
        return "error"


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    corpus, db, binaries = sys.argv[1], sys.argv[2], sys.argv[3:]
    pats = {w: re.compile(r"\b" + re.escape(w).replace(r"\-", "-?") + r"\b", re.I) for w in WORDS}
    scan = dict.fromkeys(WORDS, 0)
    with gzip.open(corpus, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            text = (r.get("title") or "") + " \n " + (r.get("abstract") or "")
            for w, p in pats.items():
                scan[w] += bool(p.search(text))
    heads = ["this binary"] if len(binaries) == 1 else ["after", "before"]
    print("| compound | works writing it (scan) | " + " | ".join(heads) + " |")
    print("|---" * (2 + len(heads)) + "|")
    for w in WORDS:
        print("| %s | %d | %s |" % (w, scan[w], " | ".join(count(b, db, w) for b in binaries)))


if __name__ == "__main__":
    main()
