#!/usr/bin/env python3
"""citations.py -- a citation as a paper writes it in its text, searched
as a query: "Bengio et al. 2025", "(Vaswani et al., 2017)", "Smith and Jones
2020", "LeCun, Bengio and Hinton 2015", "Hinton (2006)", on the arXiv
101k.

usage: citations.py [--works N] [--seed S] [--db DIR] PAPERDEX CORPUS

From CORPUS, N works (default 500) are sampled for each number of
authors a citation writes: three authors or more ("et al."), three
(named), two, one.
Each is cited by its authors' family names (arXiv's `authors_parsed`)
and its year, in the forms a paper's text writes:

  narrative       Family et al. YEAR           (three authors or more)
  bracketed       (Family et al., YEAR)
  no year         Family et al.
  three authors   Family, Other and Third YEAR (three authors)
  three bracketed (Family, Other, & Third, YEAR)
  two authors     Family and Other YEAR        (two authors)
  two bracketed   (Family & Other, YEAR)
  one author      Family (YEAR)                (one author)
  one bracketed   (Family, YEAR)
  PubMed name     Family GI                    (a work's first author)
  PubMed names    Family GI, Other GI          (its first two)
  full name       Given Family                 (its first author)
  Vancouver       Family GI, Other GI, et al.  (three authors or more:
                                                the first two)
  APA list        Family, G. I., & Other, G. (YEAR)  (a work's first two)
  Vancouver year  Family GI, Other GI (YEAR)   (its first two)

(the PubMed forms as PubMed and MEDLINE write authors, the initials of
the given names in capitals without dots, and as Vancouver's reference
lists write the first authors of a long list; these four as a whole
query, with no year)

and each form is searched in one `paperdex search --batch` run as
paperdex reads a query (`--syntax auto`: a citation names its authors
and year) and as plain words (`--syntax words`: "et", "al" and "and"
are words, the year a word), the top 10 each.  It prints, per form and
reading:

  found@10   the share of the cited works in the top 10;
  MRR@10     their mean reciprocal rank there;
  right@1    the share of queries whose first work has authors of the
             cited family names (and is from that year, when the form
             gives one): goal 1.0 for the forms with a year (the
             sample's own work is one);
  first@1    the same, the first cited name its first author's;
  none       the share that found nothing.

and, as how far a citation alone tells its work apart, the share of the
sample whose cited names (the first one first) and year (or first name
alone, without a year) are those of at most ten works: a family name is
anyone's, and the rest are told apart by nothing the citation writes.

With --db the index is used as it is; else one is built from CORPUS in
a temporary directory (about a minute with --jobs 2).
"""
import argparse
import gzip
import json
import os
import random
import re
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


def initials(author):
    """The initials of a parsed author's given names as PubMed writes
    them ("CD" for Christopher D.), at most three, or "" when they are not
    all ASCII letters."""
    given = author[1] if len(author) > 1 else ""
    got = "".join(w[0] for w in re.split(r"[\s.\-]+", given) if w)[:3].upper()
    return got if got.isascii() and got.isalpha() else ""


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

    def citable(p, y, named=2):
        return y.isdigit() and all(len(x[0]) >= 2 and " " not in x[0]
                                   for x in p[:named])
    pools = {
        "etal": sorted(i for i, (p, _, y) in works.items()
                       if len(p) >= 3 and citable(p, y)),
        "two": sorted(i for i, (p, _, y) in works.items()
                      if len(p) == 2 and citable(p, y)),
        "one": sorted(i for i, (p, _, y) in works.items()
                      if len(p) == 1 and citable(p, y)),
        # drawn last, so that the other pools' samples stay as they were
        "three": sorted(i for i, (p, _, y) in works.items()
                        if len(p) == 3 and citable(p, y, 3)),
        "pubmed": sorted(i for i, (p, _, y) in works.items()
                         if len(p) >= 2 and citable(p, y) and
                         all(initials(a) for a in p[:2])),
        "vancouver": sorted(i for i, (p, _, y) in works.items()
                            if len(p) >= 3 and citable(p, y) and
                            all(initials(a) for a in p[:2])),
    }
    samples = {k: rng.sample(v, min(a.works, len(v))) for k, v in pools.items()}
    # name, pool, how it is written, whether it gives the year
    forms = [
        ("narrative", "etal", lambda f, y: "%s et al. %s" % (f[0], y), True),
        ("bracketed", "etal", lambda f, y: "(%s et al., %s)" % (f[0], y), True),
        ("no year", "etal", lambda f, y: "%s et al." % f[0], False),
        ("three authors", "three",
         lambda f, y: "%s, %s and %s %s" % (f[0], f[1], f[2], y), True),
        ("three bracketed", "three",
         lambda f, y: "(%s, %s, & %s, %s)" % (f[0], f[1], f[2], y), True),
        ("two authors", "two", lambda f, y: "%s and %s %s" % (f[0], f[1], y), True),
        ("two bracketed", "two", lambda f, y: "(%s & %s, %s)" % (f[0], f[1], y), True),
        ("one author", "one", lambda f, y: "%s (%s)" % (f[0], y), True),
        ("one bracketed", "one", lambda f, y: "(%s, %s)" % (f[0], y), True),
        ("PubMed name", "pubmed", lambda f, y: f[0], False),
        ("PubMed names", "pubmed", lambda f, y: "%s, %s" % (f[0], f[1]), False),
        ("full name", "pubmed", lambda f, y: f[0], False),
        ("Vancouver", "vancouver", lambda f, y: "%s, %s, et al." % (f[0], f[1]), False),
        ("APA list", "pubmed", lambda f, y: "%s, & %s (%s)" % (f[0], f[1], y), True),
        ("Vancouver year", "pubmed", lambda f, y: "%s, %s (%s)" % (f[0], f[1], y), True),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        db = a.db
        if not db:
            db = os.path.join(tmp, "ix")
            subprocess.run([a.paperdex, "index", "--db", db, "--jobs", "2",
                            a.corpus], check=True, capture_output=True)
        queries, meta = [], {}
        for k, (name, pool, make, dated) in enumerate(forms):
            for n, wid in enumerate(samples[pool]):
                parsed, _, year = works[wid]
                named = (2 if name in ("PubMed names", "Vancouver", "APA list",
                                       "Vancouver year")
                         else {"three": 3, "two": 2}.get(pool, 1))
                cited = [x[0] for x in parsed[:named]]
                written = cited  # as the form writes each name
                if name == "APA list":  # "Family, G. I."
                    written = ["%s, %s" % (x[0], " ".join(c + "." for c in initials(x)))
                               for x in parsed[:named]]
                elif name.startswith("PubMed") or name.startswith("Vancouver"):  # "Family GI"
                    written = ["%s %s" % (x[0], initials(x)) for x in parsed[:named]]
                elif name == "full name":  # "Given Family", as a person is named
                    written = ["%s %s" % (parsed[0][1], parsed[0][0])]
                qid = "c%d_%d" % (n, k)
                queries.append((qid, make(written, year)))
                meta[qid] = (name, wid, [fold(c) for c in cited],
                             year if dated else None)
        # the works of each first author (and year): their families
        firsts = {}
        for wid, (parsed, fams, year) in works.items():
            if parsed:
                f = fold(parsed[0][0])
                firsts.setdefault((f, year), []).append(fams)
                firsts.setdefault((f, None), []).append(fams)
        print("| form | read as | found@10 | MRR@10 | right@1 | first@1 | none |")
        print("|---|---|---|---|---|---|---|")
        for syntax in ("auto", "words"):
            got = run(a.paperdex, db, queries, syntax, tmp)
            for name, _, _, _ in forms:
                qs = [q for q, m in meta.items() if m[0] == name]
                found = mrr = right = first = none = 0
                for q in qs:
                    _, wid, cited, year = meta[q]
                    hits = got.get(q, [])
                    if wid in hits:
                        found += 1
                        mrr += 1.0 / (hits.index(wid) + 1)
                    if not hits:
                        none += 1
                    elif hits[0] in works:
                        parsed, fams, y = works[hits[0]]
                        ok = (year is None or y == year) and all(c in fams for c in cited)
                        right += ok
                        first += ok and bool(parsed) and fold(parsed[0][0]) == cited[0]
                n = len(qs)
                print("| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f |" % (
                    name, "citation" if syntax == "auto" else "words",
                    found / n, mrr / n, right / n, first / n, none / n))
        for name, _, _, dated in forms:
            qs = [m for m in meta.values() if m[0] == name]
            alone = sum(1 for _, _, cited, year in qs
                        if sum(all(c in fams for c in cited[1:])
                               for fams in firsts.get((cited[0], year), [])) <= 10)
            print("| %s | told apart: at most 10 works of those authors%s | %.3f | | | | |"
                  % (name, " and year" if dated else "", alone / len(qs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
