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
             "initial only"): goal 0.99; for the initials of a hyphenated
             given name ("M.-H. Yang"), the share of works listing an
             author of that family whose initials agree;
  other order  works found that list the name the other way round ("Yang
             Li" for Li Yang): a name without a comma is tried in both
             orders, so these are found by design, and where they are
             another person they are what precision loses;
  p50, p99   the search's wall time, a whole process each.

The classes: "Given Family", "Family, Given", "Family Given" (no comma),
lower case, no accents (where the name has any), transliterated (Müller
as Mueller, where it has an umlaut where German writes one), "G. Family", "Family G" and "G
Family" (PubMed), and the forms of particles and hyphens for the people
whose names have them (a hyphenated given name also typed without its
hyphen, "Ming Hsuan Yang") (particles in capitals, which arXiv's parsed
names leave with the given names, "Chris De" and "Graaf", as a
bibliography writes them: "De Graaf, C." and "De Graaf").  The classes that fall short are listed at
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
# Particles arXiv's parsed names leave in capitals at the end of the
# given names ("Chris De" and "Graaf", "Oisin Mac" and "Aodha"), where a
# bibliography writes them with the family name ("De Graaf, C."); an
# unaccented "O" there is as often a middle initial ("Sikha O", "K").
CAPITAL_PARTICLES = PARTICLES | {"al", "el", "bin", "mac", "mc", "ó", "ní", "nic"}


def capital_particles(giv):
    """(the particles in capitals that end the given names, the rest), or
    ("", giv) when none does."""
    g = giv.split()
    cap = []
    while len(g) > 1 and g[-1][:1].isupper() and g[-1].lower() in CAPITAL_PARTICLES:
        cap.insert(0, g.pop())
    return " ".join(cap), " ".join(g)


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
    # PubMed writes particles with the family name ("De Breuck PP"), and
    # takes its initials from the given names alone
    cap, rest = capital_particles(giv)
    pm_fam, pm_giv = ("%s %s" % (cap, fam), rest) if cap else (fam, giv)
    f = {
        "Given Family": "%s %s" % (giv, fam),
        "Family, Given": "%s, %s" % (fam, giv),
        "Family Given": "%s %s" % (fam, giv),
        "lower case": ("%s %s" % (giv, fam)).lower(),
        "G. Family": "%s. %s" % (ini, fam),
        "Family G (PubMed)": "%s %s" % (pm_fam, "".join(w[0].upper() for w in pm_giv.replace("-", " ").split() if w[0].isalpha())),
        "G Family": "%s %s" % (ini, fam),
    }
    if ascii_fold(fam + giv) != fam + giv:
        f["no accents"] = ascii_fold("%s %s" % (giv, fam))
    if fam.split()[0].lower() in PARTICLES:
        f["particles, Family, Given"] = "%s, %s" % (fam, giv)
        f["particles alone"] = fam
    if cap:
        f["capitals, Particle Family, G."] = "%s %s, %s." % (cap, fam, rest[0].upper())
        f["capitals, Particle Family"] = "%s %s" % (cap, fam)
    if "-" in first:
        parts = first.split("-")
        f["hyphen G.-H. Family"] = "%s %s" % ("-".join(p[0].upper() + "." for p in parts if p), fam)
        if all(len(p) >= 2 for p in parts):  # "Ming Hsuan Yang", as typed without the hyphen
            f["hyphen apart, Given Family"] = "%s %s" % (" ".join(p[0].upper() + p[1:] for p in parts), fam)
    if german_umlaut(fam + " " + giv):
        f["transliterated"] = translit("%s %s" % (giv, fam))
    return f


UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}


def german_umlaut(s):
    """An umlaut where German writes one, at a word's start or after a
    consonant, and before a consonant or at the end (Müller, Özdemir,
    Hyyppä; not Salaün or Süalp, whose ue no rule can tell from Bauer's
    or Guerra's)."""
    for i, c in enumerate(s):
        if c in UMLAUTS and c != "ß" and (i == 0 or not s[i - 1].isalpha() or
                                          s[i - 1].lower() not in "aeiouy") and \
                (i + 1 == len(s) or s[i + 1].lower() not in "aeiouy"):
            return True
    return False


def translit(s):
    """German transliteration: Müller as Mueller."""
    return "".join(UMLAUTS.get(c, c) for c in s)


FULL = {"Given Family", "Family, Given", "Family Given", "lower case", "no accents",
        "particles, Family, Given", "transliterated", "hyphen apart, Given Family"}
# Initials of a hyphenated given name: precision is whether a work found
# lists an author of that family whose initials agree (initials_agree).
INITIALS = {"hyphen G.-H. Family"}


def search(pdx, db, form):
    t = time.perf_counter()
    p = subprocess.run([pdx, "search", "--db", db, "--author", form, "--limit", "10000",
                        "--format", "jsonl", "--snippet", "0", "--no-suggest"],
                       capture_output=True, text=True)
    dt = (time.perf_counter() - t) * 1000
    if p.returncode not in (0,):
        return None, dt
    return [json.loads(l) for l in p.stdout.splitlines()], dt


def initials_of(giv):
    return "".join(w[0] for w in ascii_fold(giv).lower().replace(".", " ").replace("-", " ").split())


def initials_agree(work, fam, giv):
    """Does the work list an author of family `fam` whose given names'
    initials open with the person's, or who has fewer initials that agree
    ("M." for Ming-Hsuan)?"""
    q = initials_of(giv.split()[0])
    fw = ascii_fold(fam).lower()
    nf = len(fam.split())  # "van Kampen": the family name's words
    for a in work.get("authors", []):
        if "," in a:
            f, g = a.split(",", 1)
        else:
            w = a.split()
            if len(w) <= nf:
                continue
            f, g = " ".join(w[-nf:]), " ".join(w[:-nf])
        if ascii_fold(f).lower().strip() != fw:
            continue
        ai = initials_of(g)
        only_initials = all(len(x) == 1 for x in ascii_fold(g).replace(".", " ").replace("-", " ").split())
        if ai.startswith(q) or (only_initials and q.startswith(ai) and ai):
            return True
    return False


def other_order(work, fam, giv):
    """Does the work list the name the other way round ("Yang Li" for Li
    Yang): another person, or this one written family name first?"""
    g = ascii_fold(giv.split()[0]).lower().replace("-", "")
    f = ascii_fold(fam).lower().replace(" ", "")
    for a in work.get("authors", []):
        w = ascii_fold(a).lower().replace(",", " ").replace("-", "").split()
        if len(w) >= 2 and w[-1] == g and w[0] == f:
            return True
    return False


def one_spelling(w):
    """A folded word with German transliterations taken off ("zollhoefer"
    is "zollhofer", as "Zollhöfer" folds): the same name, however the
    umlaut was written."""
    out, i = [], 0
    while i < len(w):
        out.append(w[i])
        if (w[i] in "aou" and w[i + 1:i + 2] == "e" and
                (i == 0 or w[i - 1] not in "aeiouy") and
                (i + 2 == len(w) or w[i + 2] not in "aeiouy")):
            i += 1
        i += 1
    return "".join(out)


def lists(work, fam, giv):
    """2: the work lists this person's first given name in full with the
    family name; 1: only an initial of it; 0: neither (another person).
    A middle name or initial does not count ("Vishal M. Patel" is "Vishal
    Patel"), a hyphenated given name is one name ("Ming-Hsuan" is not
    "Ming")."""
    def fold(s):  # "Rui-Jie" is "Ruijie", as the author keys fold it
        return [one_spelling(w) for w in ascii_fold(s).lower().replace(".", " ").replace("-", "").split()]
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
    special = [k for k in full if k[0].split()[0].lower() in PARTICLES or "-" in k[1].split()[0]
               or german_umlaut(k[0] + " " + k[1]) or capital_particles(k[1])[0]]
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
            s = stats.setdefault(cls, {"people": 0, "recall": [], "prec": [], "initial": 0, "other": 0,
                                       "found": 0, "ms": []})
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
                s["other"] += sum(1 for w, m in zip(got, marks) if not m and other_order(w, fam, giv))
                s["found"] += len(marks)
            if cls in INITIALS and got:
                s["prec"].append(sum(1 for w in got if initials_agree(w, fam, giv)) / len(got))
    print("| class | people | recall | precision | initial only | other order | p50 | p99 |")
    print("|---|---|---|---|---|---|---|---|")
    short = []
    if a.show:
        for cls, bad in misses.items():
            print("misses of %s: %s" % (cls, "; ".join(bad[:a.show])), file=sys.stderr)
    for cls, s in stats.items():
        rec = statistics.mean(s["recall"])
        prec = statistics.mean(s["prec"]) if s["prec"] else None
        ms = sorted(s["ms"])
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
        print("| %s | %d | %.3f | %s | %s | %s | %.1f ms | %.1f ms |" % (
            cls, s["people"], rec, "%.3f" % prec if prec is not None else "-",
            "%d of %d" % (s["initial"], s["found"]) if cls in FULL else "-",
            "%d of %d" % (s["other"], s["found"]) if cls in FULL else "-",
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
