#!/usr/bin/env python3
"""citations.py -- a citation as a paper writes it in its text, searched
as a query: "Bengio et al. 2025", "(Vaswani et al., 2017)", "Bengio et
al.", on the arXiv 101k.

usage: citations.py [--works N] [--seed S] [--db DIR] PAPERDEX CORPUS

From CORPUS, N works (default 500) with three authors or more are
sampled; each is cited by its first author's family name (arXiv's
`authors_parsed`) and its year, in three forms:

  narrative   Family et al. YEAR
  bracketed   (Family et al., YEAR)
  no year     Family et al.

and each form is searched in one `paperdex search --batch` run as
paperdex reads a query (`--syntax auto`: a citation names an author and
a year) and as plain words (`--syntax words`: "et" and "al" are words,
the year a word), the top 10 each.  It prints, per form and reading:

  found@10   the share of the cited works in the top 10;
  MRR@10     their mean reciprocal rank there;
  right@1    the share of queries whose first work is by an author of
             that family name (and from that year, when the form gives
             one): goal 1.0 for the forms with a year (the sample's own
             work is one);
  first@1    the same, the author first in its list, as "et al." means;
  none       the share that found nothing.

and, as how far a citation alone tells its work apart, the share of the
sample whose first author's family name and year (or family name alone,
without a year) are those of at most ten works: a family name is
anyone's, and the rest are told apart by nothing the citation writes.

With --db the index is used as it is; else one is built from CORPUS in
a temporary directory (about a minute with --jobs 2).
"""
import argparse
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
import unicodedata


# letters NFKD leaves whole, as a name's folding reads them (Jørgensen is
# Jorgensen, Janßen Janssen)
WHOLE = str.maketrans({"ø": "o", "Ø": "O", "ß": "ss", "æ": "ae", "Æ": "AE",
                       "ł": "l", "Ł": "L", "đ": "d", "Đ": "D"})


def fold(s):
    s = unicodedata.normalize("NFKD", s.translate(WHOLE))
    return "".join(c for c in s if not unicodedata.combining(c)).lower()


def load(corpus):
    opener = gzip.open if corpus.endswith(".gz") else open
    works = {}
    with opener(corpus, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            parsed = r.get("authors_parsed") or []
            fams = {fold(a[0]) for a in parsed if a and a[0]}
            # the year of its first version, as paperdex dates it: from a
            # new-style id (YYMM.NNNNN), else its first version's date
            wid = r["id"]
            date = ""
            if len(wid) > 4 and wid[:4].isdigit() and wid[4] == ".":
                date = "20" + wid[:2]
            else:
                vs = r.get("versions") or []
                if vs and vs[0].get("created"):
                    date = vs[0]["created"].split()[3]
            works[wid] = (parsed, fams, date)
    return works


def run(paperdex, db, queries, syntax, tmp):
    path = os.path.join(tmp, "q-%s.tsv" % syntax)
    with open(path, "w", encoding="utf-8") as f:
        for qid, text in queries:
            f.write("%s\t%s\n" % (qid, text))
    out = subprocess.run([paperdex, "search", "--db", db, "--batch", path,
                          "--format", "trec", "--limit", "10",
                          "--syntax", syntax],
                         capture_output=True, text=True, check=True).stdout
    got = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) >= 3:
            got.setdefault(p[0], []).append(p[2])
    return got


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--works", type=int, default=500)
    ap.add_argument("--seed", type=int, default=20261203)
    ap.add_argument("--db")
    ap.add_argument("paperdex")
    ap.add_argument("corpus")
    a = ap.parse_args(argv)
    works = load(a.corpus)
    rng = random.Random(a.seed)
    pool = sorted(i for i, (p, _, y) in works.items()
                  if len(p) >= 3 and len(p[0][0]) >= 2 and y.isdigit()
                  and " " not in p[0][0])
    sample = rng.sample(pool, min(a.works, len(pool)))
    forms = {
        "narrative": lambda f, y: "%s et al. %s" % (f, y),
        "bracketed": lambda f, y: "(%s et al., %s)" % (f, y),
        "no year": lambda f, y: "%s et al." % f,
    }
    with tempfile.TemporaryDirectory() as tmp:
        db = a.db
        if not db:
            db = os.path.join(tmp, "ix")
            subprocess.run([a.paperdex, "index", "--db", db, "--jobs", "2",
                            a.corpus], check=True, capture_output=True)
        queries, meta = [], {}
        for n, wid in enumerate(sample):
            parsed, _, year = works[wid]
            fam = parsed[0][0]
            for k, (name, make) in enumerate(forms.items()):
                qid = "c%d_%d" % (n, k)
                queries.append((qid, make(fam, year)))
                meta[qid] = (name, wid, fold(fam), year if name != "no year" else None)
        firsts = {}
        for wid, (parsed, _, year) in works.items():
            if parsed:
                f = fold(parsed[0][0])
                firsts[(f, year)] = firsts.get((f, year), 0) + 1
                firsts[(f, None)] = firsts.get((f, None), 0) + 1
        print("| form | read as | found@10 | MRR@10 | right@1 | first@1 | none |")
        print("|---|---|---|---|---|---|---|")
        for syntax in ("auto", "words"):
            got = run(a.paperdex, db, queries, syntax, tmp)
            for name in forms:
                qs = [q for q, m in meta.items() if m[0] == name]
                found = mrr = right = first = none = 0
                for q in qs:
                    _, wid, fam, year = meta[q]
                    hits = got.get(q, [])
                    if wid in hits:
                        found += 1
                        mrr += 1.0 / (hits.index(wid) + 1)
                    if not hits:
                        none += 1
                    elif hits[0] in works:
                        parsed, fams, y = works[hits[0]]
                        when = year is None or y == year
                        right += fam in fams and when
                        first += bool(parsed) and fold(parsed[0][0]) == fam and when
                n = len(qs)
                print("| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f |" % (
                    name, "citation" if syntax == "auto" else "words",
                    found / n, mrr / n, right / n, first / n, none / n))
        for name in forms:
            qs = [m for m in meta.values() if m[0] == name]
            alone = sum(1 for _, _, fam, year in qs if firsts.get((fam, year), 0) <= 10)
            print("| %s | told apart: at most 10 works of that first author%s | %.3f | | | | |"
                  % (name, " and year" if name != "no year" else "", alone / len(qs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
