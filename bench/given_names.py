#!/usr/bin/env python3
"""given_names.py -- a person's name whose family name no author has,
beside capitalised words with a typo.

    python3 bench/given_names.py CORPUS DB PAPERDEX [PAPERDEX_BEFORE]

CORPUS is an arXiv snapshot (../shared/data/arxiv-101k.jsonl.gz), DB an
index of it.  Two sets of queries, as a researcher types them:

  names   200 given names of the corpus's authors (letters, four or
          more) before a family name of its authors with three letters
          changed, which no author has ("Martin Rarajczat"; seed 9): the
          answer should say that no author is so named, and offer no
          correction of the family name as a word;
  words   300 pairs of capitalised words that stand together in a
          title, the second with one letter changed ("Amodal
          Completiqn"; seed 7): the answer should offer the correction
          and say nothing of authors.

Prints, for each binary, how many queries of each set got the note "no
work has an author so named" and how many a suggestion.
"""
import gzip
import json
import random
import re
import subprocess
import sys


def ask(binary, db, q):
    r = subprocess.run([binary, "search", "--db", db, "--format", "json", "--limit", "1", "--", q],
                       capture_output=True, text=True)
    o = json.loads(r.stdout) if r.returncode in (0, 1) else {}
    return "no work has an author so named" in o.get("note", ""), bool(o.get("suggestion"))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    corpus, db, binaries = sys.argv[1], sys.argv[2], sys.argv[3:]
    names, pairs = [], set()
    with gzip.open(corpus, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            for a in r.get("authors_parsed") or []:
                if (len(a) >= 2 and re.fullmatch(r"[A-Z][a-z]{3,}", a[1] or "") and
                        re.fullmatch(r"[A-Z][a-z]{5,}", a[0] or "")):
                    names.append((a[1], a[0]))
            ws = (r.get("title") or "").split()
            for a, b in zip(ws, ws[1:]):
                if re.fullmatch(r"[A-Z][a-z]{2,}", a) and re.fullmatch(r"[A-Z][a-z]{4,}", b):
                    pairs.add((a, b))
    rn, rw = random.Random(9), random.Random(7)
    rn.shuffle(names)
    sets = {"names": [], "words": []}
    for given, family in names[:200]:
        w = list(family)
        for i in rn.sample(range(1, len(w)), 3):
            w[i] = rn.choice("aeioulnrst")
        sets["names"].append(given + " " + "".join(w))
    pairs = sorted(pairs)
    rw.shuffle(pairs)
    for a, b in pairs[:300]:
        i = rw.randrange(1, len(b))
        sets["words"].append(a + " " + b[:i] + rw.choice("abcdefghijklmnopqrstuvwxyz") + b[i + 1:])
    print("| binary | set | queries | note: no author so named | suggestion |")
    print("|---|---|---|---|---|")
    for b in binaries:
        for name, qs in sets.items():
            got = [ask(b, db, q) for q in qs]
            print("| %s | %s | %d | %d | %d |" % (b, name, len(qs), sum(n for n, _ in got),
                                                 sum(s for _, s in got)))


if __name__ == "__main__":
    main()
