#!/usr/bin/env python3
"""filters.py PAPERDEX SRCDIR [ARXIV_GZ N]

Every search filter, alone and combined, checked against results computed
independently from the input files: this script parses the records with
Python's json module and applies the filter rules as documented in
paperdex.h (years inclusive, category archives and bare cs codes, author
names matched by family name and given name or initial, ignoring case,
accents and order).  The set of ids paperdex returns must equal the set
computed here, for the sample corpus and, when given, the first N records
records of the shared arXiv file, taken evenly through it (every k-th
line) so that every archive and year is represented.
"""
import functools, gzip, json, os, re, subprocess, sys, tempfile, unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import arxiv_subset, repeat_env  # noqa: E402

PDX, SRC = sys.argv[1], sys.argv[2]
ARXIV = sys.argv[3] if len(sys.argv) > 3 else None
N_ARXIV = int(sys.argv[4]) if len(sys.argv) > 4 else 10000
FACET_CLICKS = 25  # author entries whose click counts are checked on the arXiv records
passed = failed = 0

MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
SPECIAL = {"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ð": "d", "þ": "t", "æ": "ae", "œ": "oe"}
TEX = {"\\'": "\u0301", "\\`": "\u0300", "\\^": "\u0302", '\\"': "\u0308", "\\~": "\u0303",
       "\\v": "\u030c", "\\c": "\u0327", "\\u": "\u0306", "\\H": "\u030b", "\\=": "\u0304", "\\.": "\u0307"}
PARTICLES = set("van von der den de del della di da du dos das la le ten ter zu af av bin al el st. y".split())
SUFFIXES = set("Jr Jr. Sr Sr. II III IV jr jr.".split())
# The Irish particles, written in capitals ("Seán Ó Conaill", "Máire Ní
# Bhriain", "Ciarán Mac Mathúna", "Conor O Connell").
IRISH = set("o ó ní nic mac mc ua uí".split())


def opens_family(word):
    """Does the word before a family name open it (today's name rules: a
    particle in any case, or an Irish one)?"""
    return word.lower() in PARTICLES or word.lower() in IRISH


def detex(s):
    s = re.sub(r"\{\\(o|O|l|L|aa|AA|ss|i|ae|oe)\}", lambda m: "\\" + m.group(1) + " ", s)
    for cmd, ch in [("\\ss", "ß"), ("\\aa", "å"), ("\\AA", "Å"), ("\\ae", "æ"), ("\\oe", "œ"),
                    ("\\o", "ø"), ("\\O", "Ø"), ("\\l", "ł"), ("\\L", "Ł"), ("\\i", "ı")]:
        s = re.sub(re.escape(cmd) + r"(?![A-Za-z])( |\{\})?", ch, s)
    def acc(m):
        return m.group(2) + TEX[m.group(1)]
    s = re.sub(r"\{(\\['`^\"~=.])\{?([A-Za-z])\}?\}", acc, s)
    s = re.sub(r"(\\['`^\"~=.])\{?([A-Za-z])\}?", acc, s)
    s = re.sub(r"(\\[vcuH])(?:\{([A-Za-z])\}| ([A-Za-z]))", lambda m: (m.group(2) or m.group(3)) + TEX[m.group(1)], s)
    return unicodedata.normalize("NFC", s)


# The name functions are pure: each name is worked out once.
@functools.lru_cache(maxsize=None)
def fold(s):
    out = []
    for ch in unicodedata.normalize("NFKD", s).casefold():
        if unicodedata.combining(ch):
            continue
        ch = SPECIAL.get(ch, ch)
        out.append("".join(c for c in ch if c.isalnum()))
    return "".join(out)


@functools.lru_cache(maxsize=None)
def split_name(display):
    """(family, given names) of a display name, as written."""
    display = " ".join(display.split())
    if "," in display:
        fam, given = display.split(",", 1)
        return fam, given.split(",")[0]
    words = without_suffixes(display)
    f = len(words) - 1
    while f > 1 and opens_family(words[f - 1]):
        f -= 1
    # a y in lower case joins two family names ("Blaise Agüera y Arcas"),
    # while a given name is left before them
    while f >= 2 and f + 1 < len(words) and words[f] == "y":
        f -= 1
        while f > 1 and opens_family(words[f - 1]):
            f -= 1
    return " ".join(words[f:]), " ".join(words[:f])


@functools.lru_cache(maxsize=None)
def bare_family(display):
    """The folded family name of a display name without the particles
    that open it ("berg" for Jan van der Berg, "farsi" for Al-Farsi), or
    "" when none does: an author is found by either."""
    words = split_name(display)[0].split()
    if not words:
        return ""
    last = words[-1]
    if "y" in words[1:-1]:  # "Agüera y Arcas": the second family name
        bare = fold(last)
    elif len(last) > 3 and last[:2].lower() in ("al", "el") and last[2] == "-":
        bare = fold(last[3:])
    else:
        f = len(words) - 1
        while f > 0 and opens_family(words[f - 1]):
            f -= 1
        bare = fold(last) if f == 0 and len(words) > 1 else ""
    return bare if bare != fold(" ".join(words)) else ""


def without_suffixes(display):
    """A name's words, its suffixes ("Jr.", "III") left out."""
    words = display.split()
    while len(words) > 1 and words[-1] in SUFFIXES:
        words.pop()
    return words


def whole(word):
    """A whole word of a name: two letters or more, no dot, not a suffix."""
    return "." not in word and len(word) >= 2 and word not in SUFFIXES


@functools.lru_cache(maxsize=None)
def family2(display):
    """The last two words of a name of three or more written given names
    first, folded, when both are whole and no particle opens the family
    name ("garciamarquez" for Gabriel García Márquez): a double family
    name, which an author is found by too; else ""."""
    if "," in display:
        return ""
    words = without_suffixes(display)
    if len(words) < 3 or opens_family(words[-2]) or not (whole(words[-2]) and whole(words[-1])):
        return ""
    return fold(words[-2] + " " + words[-1])


@functools.lru_cache(maxsize=None)
def name_parts(display):
    """(family, first given name, given is only initials) of a display
    name, by today's name rules: a hyphen between letters joins one given
    name ("Hyun-woo" is "hyunwoo"), and "J.-P." is two initials."""
    fam, given = split_name(display)
    parts = []
    for word in re.split(r"[ .]+", given):
        pieces = [fold(x) for x in word.split("-")]
        pieces = [x for x in pieces if x]
        if all(len(x) == 1 for x in pieces):  # "J.-P.", "M-H": initials
            parts += pieces
        elif pieces:
            parts.append("".join(pieces))     # "Hyun-woo": one name
    return fold(fam), (parts[0] if parts else ""), bool(parts) and all(len(p) == 1 for p in parts)


@functools.lru_cache(maxsize=None)
def given_initials(display):
    """The first letter of every given-name part, hyphenated parts apart
    ("Yu-Hsiang" and "Y.-H." are "yh")."""
    given = split_name(display)[1]
    return "".join(fold(x)[:1] for x in re.split(r"[ .\-]+", given) if fold(x))


@functools.lru_cache(maxsize=None)
def author_matches(query, display):
    """Does the author filter `query` take the author `display`?  A name
    of two words or more without a comma, none an initial, is also read
    family name first ("Yi Zhang" takes "Zhang Yi")."""
    # a citation's "et al." is left out
    query = re.sub(r"[,;]?\s+(et\.? ?al\.?|etal\.|and others)\s*$", "", query, flags=re.I) or query
    words = query.split()
    # two family names joined by y, typed alone or family first ("Agüera
    # y Arcas", "Agüera y Arcas Blaise")
    if "," not in query and len(words) >= 3 and words[1] == "y":
        return author_matches_as_written(" ".join(words[:3]) + ", " + " ".join(words[3:]), display)
    if ("," not in query and len(words) >= 2 and
            all(len(fold(w)) > 1 and not w.endswith(".") for w in words) and
            author_matches_as_written(words[0] + ", " + " ".join(words[1:]), display)):
        return True
    # Particles before the last word, in any case ("Chiara De Santis",
    # "Anton van den Hengel"): the family name with them and without.
    pf = len(words) - 1
    while "," not in query and pf > 1 and words[pf - 1].lower() in PARTICLES:
        pf -= 1
    if len(words) >= 3 and pf < len(words) - 1:
        given = " ".join(words[:pf])
        for fam in (" ".join(words[pf:]), words[-1]):
            if author_matches_as_written(fam + ", " + given, display):
                return True
    # A family name that opens with its particles, typed alone ("van der
    # Berg", "Ó Conaill")
    if ("," not in query and len(words) >= 2 and all(opens_family(w) for w in words[:-1]) and
            author_matches_as_written(" ".join(words) + ",", display)):
        return True
    # "Gabriel García Márquez", "G. García Márquez": the last two words as
    # a double family name too
    if "," not in query and family2(query):
        ws = without_suffixes(query)
        if author_matches_as_written(" ".join(ws[-2:]) + ", " + " ".join(ws[:-2]), display):
            return True
    # "Li, Fei-Fei": a hyphenated given name of whole parts is also read
    # turned round, for a work that writes the name family first ("Li
    # Fei-Fei", given Li and family Fei-Fei as written)
    m = re.fullmatch(r"\s*(\S+)\s*,\s*(\w\w+(?:-\w\w+)+)\s*", query)
    if m and author_matches_as_written(m.group(2) + ", " + m.group(1), display):
        return True
    return author_matches_as_written(query, display)


# (family, first given name) of every author of the records searched:
# the full names the index holds (held_names sets it)
HELD = set()
HELD_OF = None


def held_names(recs):
    """Make HELD the names of recs' authors (once for a list of records)."""
    global HELD, HELD_OF
    if HELD_OF is not recs:
        HELD = {name_parts(a)[:2] for r in recs for a in r["authors"]}
        HELD_OF = recs
        author_matches.cache_clear()


def given_apart(query):
    """The given names of a name written given names first or after its
    comma, two or more whole words apart ("Hyun Woo"), joined and folded
    ("hyunwoo"); else ""."""
    given = split_name(query)[1]
    words = given.split()
    if len(words) < 2 or not all(whole(w) and "-" not in w for w in words):
        return ""
    return fold("".join(words))


def author_matches_as_written(query, display):
    qf, qg, qinit = name_parts(query)
    wf, wg, winit = name_parts(display)
    if qf != wf and qf != bare_family(display) and qf != family2(display):
        return False
    if not qg:
        return True
    apart = "" if qinit else given_apart(query)
    if apart and not winit:
        # "Hyun Woo Park": Hyun-woo Park, and, while the index holds that
        # name, a Hyun Park only with the initials of both ("Hyun W.")
        if wg == apart:
            return True
        if (qf, apart) in HELD:
            return wg == qg and given_initials(display).startswith(given_initials(query))
    if qinit:
        q, w = given_initials(query), given_initials(display)
        if len(q) >= 2:  # "Y.-H. Wang": the initials of every given name
            return w.startswith(q) if not winit else q.startswith(w) or w.startswith(q)
        return wg[:1] == qg[:1]
    return wg == qg or (wg == qg[:1] and len(wg) == 1)


def arxiv_record(d):
    date = None
    v = d.get("versions") or []
    if v and isinstance(v[0], dict) and "created" in v[0]:
        m = re.match(r"\w+, (\d+) (\w+) (\d{4})", v[0]["created"])
        if m and m.group(2) in MONTHS:
            date = "%s-%02d-%02d" % (m.group(3), MONTHS.index(m.group(2)) + 1, int(m.group(1)))
    if not date:
        m = re.fullmatch(r"(\d\d)(\d\d)\.\d{4,5}(v\d+)?", d["id"]) or \
            re.fullmatch(r"[a-z\-]+(?:\.[A-Z]{2})?/(\d\d)(\d\d)\d{3}(v\d+)?", d["id"])
        if m and 1 <= int(m.group(2)) <= 12:
            yy = int(m.group(1))
            year = 2000 + yy if "/" not in d["id"] or yy < 91 else 1900 + yy
            date = "%d-%s" % (year, m.group(2))
    if not date:
        date = d.get("update_date")
    ap = d.get("authors_parsed") or []
    authors = [detex(" ".join(x for x in [a[1], a[0]] + a[2:3] if x)) for a in ap]
    return {"id": d["id"], "year": int(date[:4]) if date else 0,
            "cats": (d.get("categories") or "").split(), "authors": authors}


def own_record(d):
    year = d.get("year") or (int(d["date"][:4]) if d.get("date") else 0)
    a = d.get("authors") or []
    if isinstance(a, str):
        a = [x.strip() for x in (a.split(";") if ";" in a else re.split(r",| and ", a)) if x.strip()]
    return {"id": d["id"], "year": int(year), "cats": d.get("categories") or [], "authors": a}


def load(path, n=None):
    recs = []
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if n is not None and i >= n:
                break
            d = json.loads(line)
            recs.append(arxiv_record(d) if "authors_parsed" in d else own_record(d))
    return recs


# A few of arXiv's category names (arxiv.org/category_taxonomy), written
# here apart from the program's table: a name filters by its codes.
NAMES = {
    "machine learning": ["cs.lg", "stat.ml"],
    "systems and control": ["eess.sy", "cs.sy"],
    "computer vision and pattern recognition": ["cs.cv"],
    "high energy physics theory": ["hep-th"],
}


def name_words(q):
    return " ".join(re.sub(r"[^a-z0-9]+", " ", q.lower().replace("&", " and ")).split())


def cat_matches(q, cats):
    if re.fullmatch(r"[A-Z]{2}", q):
        q = "cs." + q
    keys = [q.lower()] + ([] if "." in q else NAMES.get(name_words(q), []))
    return any(c.lower() == k or c.lower().split(".")[0] == k for c in cats for k in keys)


def expected(recs, year=None, cats=(), authors=(), may_be_empty=False, as_query=False,
             year_text=None, year_query=False):
    out = set()
    held_names(recs)
    for r in recs:
        if year:
            lo, hi = year
            if not r["year"] or (lo and r["year"] < lo) or (hi and r["year"] > hi):
                continue
        # every value given must hold, each value's alternatives split by |
        if cats and not all(any(cat_matches(alt, r["cats"]) for alt in c.split("|")) for c in cats):
            continue
        if as_query:  # author: values in a query are alternatives, as Xapian's boolean prefixes
            if authors and not any(author_matches(q, a) for q in authors for a in r["authors"]):
                continue
        elif authors and not all(any(author_matches(alt, a) for alt in q.split("|") for a in r["authors"])
                                 for q in authors):
            continue
        out.add(r["id"])
    return out


def search(db, year=None, cats=(), authors=(), may_be_empty=False, as_query=False,
           year_text=None, year_query=False):
    """as_query: the authors as author:"..." in the query, not --author;
    year_text: the years as written (">2015"), year_query: in the query as
    year:, not --year."""
    args = [PDX, "search", "--db", db, "--format", "jsonl", "--limit", "10000", "--exact"]
    if as_query:
        args.append(" ".join('author:"%s"' % a for a in authors))
        authors = ()
    if year:
        text = year_text or "%s..%s" % (year[0] or "", year[1] or "")
        args += ["year:" + text] if year_query else ["--year", text]
    for c in cats:
        args += ["--category", c]
    for a in authors:
        args += ["--author", a]
    p = subprocess.run(args, capture_output=True, text=True, env=repeat_env())
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return {json.loads(l)["id"] for l in p.stdout.splitlines()}


def check(db, recs, label, **kw):
    global passed, failed
    want, got = expected(recs, **kw), search(db, **kw)
    if want == got and (want or kw.get("may_be_empty")):
        passed += 1
        print("ok   %-55s %6d works" % (label, len(got)))
    else:
        failed += 1
        print("FAIL %-55s want %d got %d; missing %s; extra %s" % (
            label, len(want), len(got), sorted(want - got)[:5], sorted(got - want)[:5]))


def suite(db, recs, cases):
    for label, kw in cases:
        check(db, recs, label, **kw)


def person(name):
    """The person an author facet entry stands for, recomputed here: the
    folded family name and first given name ("=" before a given name of
    initials only), whichever order and form the name was written in.  A
    hyphenated given name is one name, as in an index of today's name
    rules ("Hyun-woo" is "hyunwoo", not "hyun")."""
    fam, given, initials = name_parts(name)
    return fam + "\x1f" + ("=" if initials else "") + given


def facet_check(db, recs, label, args, every_person=True):
    """Facet counts over the works a search matches, recounted here from
    the input records of those works (each work once per value).  Author
    entries are counted as a click on them counts (FACET_CLICKS of them);
    with every_person, every person the matches name is an entry."""
    global passed, failed

    def run(limit):
        p = subprocess.run([PDX, "search", "--db", db, "--format", "json", "--limit", "10000",
                            "--facets", "year,category,author", "--facet-limit", str(limit)] + args,
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("facets: exit %d: %s" % (p.returncode, p.stderr))
        return json.loads(p.stdout)
    out = run(1000000)
    if not every_person:
        out["facets"]["author"] = run(FACET_CLICKS)["facets"]["author"]
    ids = {h["id"] for h in out["hits"]}
    by_id = {r["id"]: r for r in recs}
    want = {"year": {}, "category": {}, "author": {}}
    for i in ids:
        r = by_id[i]
        if r["year"]:
            want["year"][str(r["year"])] = want["year"].get(str(r["year"]), 0) + 1
        for c in set(r["cats"]):
            want["category"][c] = want["category"].get(c, 0) + 1
        for a in set(person(x) for x in r["authors"]):
            want["author"][a] = want["author"].get(a, 0) + 1
    for facet in want:
        got = {v["value"]: v["count"] for v in out["facets"][facet]}
        if facet == "author":
            # One entry a person, labelled with one of its forms, and
            # counted as a click on it counts: the matched works with an
            # author the label's filter takes (an initial-only form too).
            clicks = {v: sum(1 for i in ids if any(author_matches(v, a) for a in by_id[i]["authors"]))
                      for v in got}
            if clicks != got:
                failed += 1
                print("FAIL %s: author facet counts are not what a click gives (label: got, want): %s" % (
                    label, {v: (got[v], clicks[v]) for v in got if got[v] != clicks[v]}))
                continue
            want[facet] = {k: 1 for k in want[facet]} if every_person else {person(v): 1 for v in got}
            got = {person(v): 1 for v in got}
        if got == want[facet] and got:
            passed += 1
            print("ok   %-55s %6d values" % ("%s: facet %s" % (label, facet), len(got)))
        else:
            failed += 1
            diff = {k: (got.get(k), want[facet].get(k)) for k in set(got) | set(want[facet])
                    if got.get(k) != want[facet].get(k)}
            print("FAIL %s: facet %s (got, want): %s" % (label, facet, dict(list(diff.items())[:6])))


tmp = tempfile.mkdtemp(prefix="pdx-filters-")
samples = [os.path.join(SRC, "corpus/samples", f) for f in ("arxiv-sample.jsonl", "papers.jsonl")]
db = os.path.join(tmp, "samples")
subprocess.run([PDX, "index", "--db", db] + samples, check=True, capture_output=True)
recs = [r for p in samples for r in load(p)]
suite(db, recs, [
    ("samples: --year 2010..2015", dict(year=(2010, 2015))),
    ("samples: --year 2020..", dict(year=(2020, None))),
    ("samples: --year ..2005", dict(year=(None, 2005))),
    ("samples: --year '>2015'", dict(year=(2016, None), year_text=">2015")),
    ("samples: --year '<=2005'", dict(year=(None, 2005), year_text="<=2005")),
    ("samples: year:>=2020 in the query", dict(year=(2020, None), year_text=">=2020", year_query=True)),
    ("samples: year:<2010 in the query", dict(year=(None, 2009), year_text="<2010", year_query=True)),
    ("samples: --category cs.CV", dict(cats=["cs.CV"])),
    ("samples: --category CV (bare cs code)", dict(cats=["CV"])),
    ("samples: --category cs (archive)", dict(cats=["cs"])),
    ("samples: --category eess --category q-bio (in none)", dict(cats=["eess", "q-bio"], may_be_empty=True)),
    ("samples: --author 'Ingrid Løvås'", dict(authors=["Ingrid Løvås"])),
    ("samples: --author 'lovas, i.'", dict(authors=["lovas, i."])),
    ("samples: --author 'INGRID LOVAS'", dict(authors=["INGRID LOVAS"])),
    ("samples: --author 'Wróbel, Tomasz'", dict(authors=["Wróbel, Tomasz"])),
    ("samples: --author 'T. Wrobel'", dict(authors=["T. Wrobel"])),
    ("samples: --author 'Jan van der Berg'", dict(authors=["Jan van der Berg"])),
    # given names written apart: the hyphenated name they join, which the
    # index holds ("Hyun-woo Park"), else the first one alone
    ("samples: --author 'Hyun Woo Park'", dict(authors=["Hyun Woo Park"])),
    ("samples: --author 'Park, Hyun Woo'", dict(authors=["Park, Hyun Woo"])),
    ("samples: author:\"Hyun Woo Park\" in the query", dict(authors=["Hyun Woo Park"], as_query=True)),
    ("samples: --author 'Ingrid Maria Løvås' (no such joined name)",
     dict(authors=["Ingrid Maria Løvås"])),
    ("samples: author:\"T. Wrobel\" author:Mehta in the query", dict(authors=["T. Wrobel", "Mehta"], as_query=True)),
    ("samples: --author 'Chiara De Santis' --author Ibanez", dict(authors=["Chiara De Santis", "Ibanez"], may_be_empty=True)),
    ("samples: --author 'Chiara De Santis|Ibanez'", dict(authors=["Chiara De Santis|Ibanez"])),
    ("samples: --author 'Chiara De Santis et al.'", dict(authors=["Chiara De Santis et al."])),
    ("samples: --author 'Ibanez, J., et al'", dict(authors=["Ibanez, J., et al"])),
    # particles in capitals and Irish ones open a family name, which is
    # found without them too
    ("samples: --author 'De Santis, C.'", dict(authors=["De Santis, C."])),
    ("samples: --author 'Santis'", dict(authors=["Santis"])),
    ("samples: --author 'Ó Conaill'", dict(authors=["Ó Conaill"])),
    ("samples: --author 'O Conaill, R.'", dict(authors=["O Conaill, R."])),
    ("samples: --author 'Conaill'", dict(authors=["Conaill"])),
    ("samples: --author 'Berg'", dict(authors=["Berg"])),
    ("samples: --category 'eess|q-bio'", dict(cats=["eess|q-bio"])),
    ("samples: --category cs --category stat (both)", dict(cats=["cs", "stat"])),
    ("samples: year+category+author", dict(year=(2012, None), cats=["cs"], authors=["Y. Tanabe|Mehta"])),
    ("samples: --category 'Machine Learning' (arXiv's name)", dict(cats=["Machine Learning"])),
    ("samples: --category 'SYSTEMS & CONTROL' (name)", dict(cats=["SYSTEMS & CONTROL"])),
    ("samples: --category 'computer vision and pattern recognition|eess.SY'",
     dict(cats=["computer vision and pattern recognition|eess.SY"])),
])

def ids_of(db, args):
    p = subprocess.run([PDX, "search", "--db", db, "--format", "jsonl", "--limit", "10000"] + args,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (args, p.stderr))
    return {json.loads(l)["id"] for l in p.stdout.splitlines()}


def syntax_check(db, label, query, flags):
    """category: and year: in a query filter exactly as the flags do."""
    global passed, failed
    a, b = ids_of(db, [query]), ids_of(db, flags + ["--all"] if not flags else flags)
    if a == b and a:
        passed += 1
        print("ok   %-55s %6d works" % (label, len(a)))
    else:
        failed += 1
        print("FAIL %s: query %d works, flags %d" % (label, len(a), len(b)))


syntax_check(db, "samples: category:CV year:2010..2015 = flags", "category:CV year:2010..2015",
             ["--category", "CV", "--year", "2010..2015"])
syntax_check(db, "samples: category:cs category:q-bio = flags", "category:cs category:q-bio",
             ["--category", "cs|q-bio"])
syntax_check(db, "samples: year:..2008 = flags", "year:..2008", ["--year", "..2008"])
syntax_check(db, "samples: category:\"machine learning\" = its codes", 'category:"machine learning"',
             ["--category", "cs.LG|stat.ML"])
facet_check(db, recs, "samples: every work", ["--all"])

# Two family names joined by y (invented people): the whole in every form
# a bibliography writes it, the second alone, and not the first alone.
ynames = os.path.join(tmp, "ynames.jsonl")
with open(ynames, "w", encoding="utf-8") as f:
    for i, authors in enumerate((["Lucía Ferrer y Salvat", "Ana Ferrer"], ["Ferrer y Salvat, L."],
                                 ["Marta Salvat"], ["Tomás Vidal y Roca", "Jordi Roca"],
                                 ["Lucia Ferrer y Salvat"])):
        f.write(json.dumps({"id": "y%d" % i, "title": "Tide gauges %d" % i, "abstract": "Levels.",
                            "authors": authors, "year": 2020 + i}, ensure_ascii=False) + "\n")
ydb = os.path.join(tmp, "ynames")
subprocess.run([PDX, "index", "--db", ydb, ynames], check=True, capture_output=True)
yrecs = load(ynames)
suite(ydb, yrecs, [("y names: --author '%s'" % q, dict(authors=[q])) for q in (
    "Ferrer y Salvat", "Lucía Ferrer y Salvat", "L. Ferrer y Salvat", "Ferrer y Salvat, Lucía",
    "Ferrer y Salvat L", "Ferrer y Salvat Lucia", "Salvat", "Ferrer", "Vidal y Roca", "T. Vidal y Roca",
    "Roca", "Ana Ferrer")])
for q, want in (("Ferrer y Salvat", {"y0", "y1", "y4"}), ("Salvat", {"y0", "y1", "y2", "y4"}),
                ("Ferrer", {"y0"})):
    got = set(ids_of(ydb, ["--author", q]))
    ok = got == want
    passed += ok
    failed += not ok
    if not ok:
        print("FAIL y names: --author %s gives %s, want %s" % (q, sorted(got), sorted(want)))

# Names written family first with a hyphenated given name, invented: a
# comma's "Park, Hyun-woo" finds "Park Hyun-woo" too, an initial or a
# plain given name is never turned round.
names_file = os.path.join(tmp, "names.jsonl")
with open(names_file, "w", encoding="utf-8") as f:
    for i, a in enumerate(["Park Hyun-woo", "Hyun-woo Park", "Park Hyun", "Hyun Park",
                           "Paul Martin", "Martin Paul", "Jean-Luc Roux", "Roux Jean-Luc",
                           "Roux Jean"]):
        f.write(json.dumps({"id": "names:%d" % i, "title": "On names %d" % i,
                            "authors": [a], "year": 2020}) + "\n")
names_db = os.path.join(tmp, "names")
subprocess.run([PDX, "index", "--db", names_db, names_file], check=True, capture_output=True)
suite(names_db, load(names_file), [
    ("names: --author 'Park, Hyun-woo'", dict(authors=["Park, Hyun-woo"])),
    ("names: --author 'Hyun-woo Park'", dict(authors=["Hyun-woo Park"])),
    ("names: --author 'Park, H.-W.'", dict(authors=["Park, H.-W."])),
    ("names: --author 'Martin, Paul'", dict(authors=["Martin, Paul"])),
    ("names: --author 'Roux, Jean-Luc'", dict(authors=["Roux, Jean-Luc"])),
    ("names: author:\"Roux, Jean-Luc\" in the query", dict(authors=["Roux, Jean-Luc"], as_query=True)),
])


def note_of(db, args):
    """(number of hits, the note) of a JSON search."""
    p = subprocess.run([PDX, "search", "--db", db, "--format", "json", "--limit", "10"] + args,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (args, p.stderr))
    d = json.loads(p.stdout)
    return len(d["hits"]), d.get("note") or ""


def year_note(recs, lo, hi):
    """The note a search gives for the year range [lo, hi] (None: open),
    worked out here from the records: "" when a work is from it."""
    held = sorted({r["year"] for r in recs if r["year"]})
    if any((lo is None or y >= lo) and (hi is None or y <= hi) for y in held):
        return ""
    span = ("%d or earlier" % hi if lo is None else "%d or later" % lo if hi is None
            else "%d" % lo if lo == hi else "%d to %d" % (lo, hi))
    before = [y for y in held if lo is not None and y < lo]
    after = [y for y in held if hi is not None and y > hi]
    near = ([before[-1]] if before else []) + ([after[0]] if after else [])
    return "no work is from %s (%s)" % (span, "nearest years with works: %d, %d" % tuple(near) if len(near) == 2
                                        else "nearest year with works: %d" % near[0] if near
                                        else "no work gives a year")


def note_check(db, label, args, want_parts, unwanted=()):
    """A search that matched nothing names each filter no work passes
    (want_parts, computed apart) and no filter that some work passes."""
    global passed, failed
    n, note = note_of(db, args)
    bad = [w for w in want_parts if w not in note] + [u for u in unwanted if u in note]
    if n == 0 and not bad:
        passed += 1
        print("ok   %-55s %s" % (label, note))
    else:
        failed += 1
        print("FAIL %s: %d hits, note %r; wrong about %s" % (label, n, note, bad))


held = sorted({r["year"] for r in recs if r["year"]})
gap = next(y for y in range(held[0], held[-1]) if y not in held)
note_check(db, "samples: --year %d (a year between works' years)" % gap, ["--year", str(gap)],
           [year_note(recs, gap, gap)])
note_check(db, "samples: --year %d.. (after every work)" % (held[-1] + 1), ["--year", "%d.." % (held[-1] + 1)],
           [year_note(recs, held[-1] + 1, None)])
note_check(db, "samples: year:..%d in the query" % (held[0] - 1), ["zebra year:..%d" % (held[0] - 1)],
           [year_note(recs, None, held[0] - 1)])
note_check(db, "samples: --author 'Zzyzx Quorra' --year %d" % held[0],
           ["--author", "Zzyzx Quorra", "--year", str(held[0])],
           ['no work has author "Zzyzx Quorra"'], ["no work is from"])
note_check(db, "samples: author:Quorra author:Mehta, a word no work has",
           ["qwxzv author:Quorra author:Mehta"], ['no work has author "Quorra"'], ['"Mehta"'])
note_check(db, "samples: --year %d, a word no work has (no note)" % held[-1],
           ["qwxzv", "--year", str(held[-1])], [], ["no work is from"])
facet_check(db, recs, "samples: networks OR glacier", ["networks OR glacier"])
facet_check(db, recs, "samples: --category cs --year 2005..", ["--category", "cs", "--year", "2005.."])

if ARXIV and os.path.exists(ARXIV):
    sub = os.path.join(tmp, "arxiv-sub.jsonl")
    arxiv_subset(ARXIV, N_ARXIV, sub)
    db = os.path.join(tmp, "arxiv")
    subprocess.run([PDX, "index", "--db", db, "--quiet", sub], check=True)
    recs = load(sub)
    years = sorted(r["year"] for r in recs if r["year"])
    mid = years[len(years) // 2]
    suite(db, recs, [
        ("arxiv: --year %d" % mid, dict(year=(mid, mid))),
        ("arxiv: --year ..%d" % (mid - 1), dict(year=(None, mid - 1))),
        ("arxiv: --year %d.." % (mid + 1), dict(year=(mid + 1, None), may_be_empty=True)),
        ("arxiv: --category cs.CV", dict(cats=["cs.CV"])),
        ("arxiv: --category LG", dict(cats=["LG"])),
        ("arxiv: --category math", dict(cats=["math"])),
        ("arxiv: --category hep-th --category gr-qc (both)", dict(cats=["hep-th", "gr-qc"])),
        ("arxiv: --category 'hep-th|gr-qc'", dict(cats=["hep-th|gr-qc"])),
        ("arxiv: --category cond-mat", dict(cats=["cond-mat"])),
        ("arxiv: --category physics --category eess.IV", dict(cats=["physics", "eess.IV"], may_be_empty=True)),
        ("arxiv: --category 'physics|eess.IV'", dict(cats=["physics|eess.IV"])),
        ("arxiv: --category 'Machine Learning' (arXiv's name)", dict(cats=["Machine Learning"])),
        ("arxiv: --category 'High Energy Physics - Theory'", dict(cats=["High Energy Physics - Theory"])),
        ("arxiv: --author Wang", dict(authors=["Wang"])),
        ("arxiv: --author 'Y. Wang'", dict(authors=["Y. Wang"])),
        ("arxiv: --author 'Wang, Yue'", dict(authors=["Wang, Yue"])),
        ("arxiv: author:\"Wang, Yue\" in the query", dict(authors=["Wang, Yue"], as_query=True)),
        ("arxiv: --author 'X.-Y. Zhang' (two initials)", dict(authors=["X.-Y. Zhang"])),
        ("arxiv: --author 'J. H. Lee' (two initials)", dict(authors=["J. H. Lee"])),
        ("arxiv: --author 'M.-H. Yang' (two initials)", dict(authors=["M.-H. Yang"])),
        ("arxiv: --author 'yue wang' --author 'Li, X.'", dict(authors=["yue wang", "Li, X."])),
        ("arxiv: cs.CV + year + author Zhang", dict(cats=["cs.CV"], year=(mid, None), authors=["Zhang"])),
    ])
    facet_check(db, recs, "arxiv: graph neural network", ["graph neural network"], every_person=False)
    facet_check(db, recs, "arxiv: --category math", ["--category", "math"], every_person=False)
subprocess.run(["rm", "-rf", tmp])
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed or not passed else 0)
