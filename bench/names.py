#!/usr/bin/env python3
"""names.py -- author filters as bibliographies write names, on the arXiv
101k: does `--author` find the right person in every form?

usage: names.py [--people N] [--seed S] [--db DIR] PAPERDEX CORPUS

From CORPUS's `authors_parsed` (family, given), N people (default 500)
are sampled whose given name is a full name (two letters or more); the
answer for a person is the set of works listing that family and given
name.  Each person is then searched in every class of form below, with
`paperdex search --author FORM`, and the script prints, per class:

  recall     the share of the answer found (goal 1.0 for every class);
  precision  for the full-name classes, the share of the works found
             that list the person's full name, or only an initial of it
             (an initial may be anyone's; such works are counted apart,
             "initial only"): goal 0.99;
  p50, p99   the search's wall time, a whole process each.

The classes: "Given Family", "Family, Given", "Family Given" (no comma),
lower case, no accents (where the name has any), "G. Family", "Family G"
and "G Family" (PubMed), and the forms of particles and hyphens for the
people whose names have them.  The classes that fall short are listed at
the end.  With --db the index is used as it is; else one is built from
CORPUS in a temporary directory (about a minute with --jobs 2).
"""
import argparse
import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata

PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "dos", "das",
             "la", "le", "ten", "ter", "zu"}


SPECIAL = {"ß": "ss", "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ı": "i",
           "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ð": "d", "þ": "t"}


def ascii_fold(s):
    s = "".join(SPECIAL.get(c, c) for c in s)
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def norm(s):
    return " ".join(s.split())


def people_of(corpus):
    """{(family, given): set of work ids}, and the works' author lists."""
    who = {}
    with gzip.open(corpus, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            wid = r["id"]
            for p in r.get("authors_parsed") or []:
                fam, giv = norm(p[0]), norm(p[1] if len(p) > 1 else "")
                # particles split off into the given name ("Cate", "Balder
                # ten") belong to the family name, as in the record
                g = giv.split()
                while len(g) > 1 and g[-1] in PARTICLES:
                    fam = g.pop() + " " + fam
                giv = " ".join(g)
                if fam and giv:
                    who.setdefault((fam, giv), set()).add(wid)
    return who


def forms(fam, giv):
    """{class: form} for one person."""
    first = giv.split()[0]
    ini = first[0].upper()
    f = {
        "Given Family": "%s %s" % (giv, fam),
        "Family, Given": "%s, %s" % (fam, giv),
        "Family Given": "%s %s" % (fam, giv),
        "lower case": ("%s %s" % (giv, fam)).lower(),
        "G. Family": "%s. %s" % (ini, fam),
        "Family G (PubMed)": "%s %s" % (fam, "".join(w[0].upper() for w in giv.replace("-", " ").split() if w[0].isalpha())),
        "G Family": "%s %s" % (ini, fam),
    }
    if ascii_fold(fam + giv) != fam + giv:
        f["no accents"] = ascii_fold("%s %s" % (giv, fam))
    if fam.split()[0].lower() in PARTICLES:
        f["particles, Family, Given"] = "%s, %s" % (fam, giv)
        f["particles alone"] = fam
    if "-" in first:
        parts = first.split("-")
        f["hyphen G.-H. Family"] = "%s %s" % ("-".join(p[0].upper() + "." for p in parts if p), fam)
    return f


FULL = {"Given Family", "Family, Given", "Family Given", "lower case", "no accents",
        "particles, Family, Given"}


def search(pdx, db, form):
    t = time.perf_counter()
    p = subprocess.run([pdx, "search", "--db", db, "--author", form, "--limit", "10000",
                        "--format", "jsonl", "--snippet", "0", "--no-suggest"],
                       capture_output=True, text=True)
    dt = (time.perf_counter() - t) * 1000
    if p.returncode not in (0,):
        return None, dt
    return [json.loads(l) for l in p.stdout.splitlines()], dt


def lists(work, fam, giv):
    """2: the work lists this person's first given name in full with the
    family name; 1: only an initial of it; 0: neither (another person).
    A middle name or initial does not count ("Vishal M. Patel" is "Vishal
    Patel"), a hyphenated given name is one name ("Ming-Hsuan" is not
    "Ming")."""
    def fold(s):  # "Rui-Jie" is "Ruijie", as the author keys fold it
        return ascii_fold(s).lower().replace(".", " ").replace("-", "").split()
    fw = fold(fam)
    g = fold(giv)[0]
    best = 0
    for a in work.get("authors", []):
        if "," in a:
            if fold(a.split(",")[0]) != fw:
                continue
            rest = fold(a.split(",", 1)[1])
        else:
            w = fold(a)
            if len(w) <= len(fw) or w[-len(fw):] != fw:
                continue
            rest = w[:-len(fw)]
        if not rest:
            continue
        if rest[0] == g:
            return 2
        if len(rest[0]) == 1 and rest[0][0] == g[0]:
            best = 1
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--people", type=int, default=500)
    ap.add_argument("--seed", type=int, default=20261128)
    ap.add_argument("--db")
    ap.add_argument("--show", type=int, default=0, help="print N misses of each class")
    ap.add_argument("paperdex")
    ap.add_argument("corpus")
    a = ap.parse_args()
    who = people_of(a.corpus)
    rng = random.Random(a.seed)
    full = sorted(k for k in who if len(k[1].split()[0].rstrip(".")) >= 2)
    # every person with a particle or a hyphenated given name, then the rest at random
    special = [k for k in full if k[0].split()[0].lower() in PARTICLES or "-" in k[1].split()[0]]
    sample = rng.sample(special, min(len(special), a.people // 5))
    rest = [k for k in full if k not in set(sample)]
    sample += rng.sample(rest, a.people - len(sample))
    tmp = None
    db = a.db
    if not db:
        tmp = tempfile.mkdtemp(prefix="pdx-names-")
        db = os.path.join(tmp, "ix")
        subprocess.run([a.paperdex, "index", "--quiet", "--jobs", "2", "--db", db, a.corpus], check=True)
    stats, misses = {}, {}
    for fam, giv in sample:
        answer = who[(fam, giv)]
        for cls, form in forms(fam, giv).items():
            got, ms = search(a.paperdex, db, form)
            s = stats.setdefault(cls, {"people": 0, "recall": [], "prec": [], "initial": 0, "found": 0, "ms": []})
            s["people"] += 1
            s["ms"].append(ms)
            if got is None:
                s["recall"].append(0.0)
                continue
            ids = {w["id"] for w in got}
            s["recall"].append(len(answer & ids) / len(answer))
            if answer - ids:
                misses.setdefault(cls, []).append("%r (%s, %s)" % (form, fam, giv))
            if cls in FULL and got:
                marks = [lists(w, fam, giv) for w in got]
                s["prec"].append(sum(1 for m in marks if m) / len(marks))
                s["initial"] += sum(1 for m in marks if m == 1)
                s["found"] += len(marks)
    print("| class | people | recall | precision | initial only | p50 | p99 |")
    print("|---|---|---|---|---|---|---|")
    short = []
    if a.show:
        for cls, bad in misses.items():
            print("misses of %s: %s" % (cls, "; ".join(bad[:a.show])), file=sys.stderr)
    for cls, s in stats.items():
        rec = statistics.mean(s["recall"])
        prec = statistics.mean(s["prec"]) if s["prec"] else None
        ms = sorted(s["ms"])
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
        print("| %s | %d | %.3f | %s | %s | %.1f ms | %.1f ms |" % (
            cls, s["people"], rec, "%.3f" % prec if prec is not None else "-",
            "%d of %d" % (s["initial"], s["found"]) if cls in FULL else "-",
            statistics.median(ms), p99))
        if rec < 1.0 or (prec is not None and prec < 0.99):
            short.append(cls)
    print()
    print("short of the goals (recall 1.0; precision 0.99 for full names): %s" %
          (", ".join(short) if short else "none"))
    if tmp:
        subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
