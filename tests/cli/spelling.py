#!/usr/bin/env python3
"""spelling.py PAPERDEX SRCDIR [ARXIV_20K]

"Did you mean" from the index's spelling table (the words its works
write, each counted once per work: common/layout.h, LAYOUT_META_SPELLING).

On invented works:
  - a typo gets the word the works write ("glaciolgy" -> glaciology);
    among words one edit away, the one more works write ("modle" ->
    model, which three works write, not module, which one does);
  - on an index of fewer than 30,000 works, a word one work writes is no
    typo ("atention", against attention in six): only a word no work
    writes is corrected there (3 works of the arXiv 101k);
  - the table follows the works: a work whose new version drops the word,
    or a work deleted from its source, takes its count back (a word
    written by one work is too rare to propose), and a work that writes
    it again gives it back;
  - nothing for a wildcard, a word of digits, the letters of a name
    with its number ("YOLOv8"), or a word enough works
    write, the closed form of a hyphenated compound too ("RISCV" for the
    works that write RISC-V, which the table, of words as written, does
    not list), nor for a family name the works' authors have ("Schäfer",
    whatever titles and abstracts write: "Shafer"), nor for a given name
    beside its family name ("Yann Morvan", an author's);
  - an author filter that finds nothing gets the nearest name the index
    holds, but not when it holds the name (the year emptied it); so does
    a query of names alone that no author has ("Yann Morvann"), unless
    works write it as words ("Phase III" is no misspelt Phanse); with no
    nearer name, a punctuated name, or a family name an author has with
    initials none has ("Morvan Q"), gets a note and no correction as
    words;
  - on an index of 30,000 works, where a word three works write may be
    a typo: a rare word the query writes beside a word that works write
    it beside, and that no work writes beside the correction, is no
    typo ("van der Waals", "der walls" written nowhere), alone it may be
    one ("Waals" -> walls); a typo some work made in the same place is
    still corrected ("atention mechanism", which works write as
    "attention mechanism");
  - an index without the table (made by an older paperdex, here by
    taking its stamp away) is corrected from its stems;
  - built by two workers (--jobs 2, committing every two works), the
    table gives the same suggestions.
With ARXIV_20K (the 20,000 arXiv works that arxiv_20k.py indexes there
with --jobs 2, a CTest fixture): 300 typos made as bench/typos.py makes
them (one edit of a word of five letters or more that 20 works write,
the typo itself in none: on 20,000 works a word one work writes is no
typo), and the suggestion is the intended word for at least 85% of
them, and an index of the same works built by one process suggests the
same word for the first 100 (PDX_TEST_TYPOS=N: the first N typos;
PDX_TEST_TYPOS_COMPARED=M: the first M compared so, N / 3 unless given,
none for 0.  The sanitizer build, whose processes start 5 times slower,
takes 100 and none: there the table of one process is checked on the
invented works).
"""
import collections
import json
import os
import random
import re
import subprocess
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import arxiv_20k, check, done, repeat_env, scratch  # noqa: E402

PDX = sys.argv[1]
ARXIV_20K = sys.argv[3] if len(sys.argv) > 3 else ""
work = scratch("pdx-spelling-")
src = os.path.join(work, "works.jsonl")
db = os.path.join(work, "ix")


def write(works):
    with open(src, "w", encoding="utf-8") as f:
        for w in works:
            f.write(json.dumps(w) + "\n")


def index(d=None, extra=()):
    r = subprocess.run([PDX, "index", "--quiet", "--db", d or db] + list(extra) + [src],
                       capture_output=True, text=True)
    check("index", r.returncode == 0, r.stderr)


def suggestion(q, d=None):
    r = subprocess.run([PDX, "search", "--db", d or db, "--limit", "0", "--format", "json", q],
                       capture_output=True, text=True, env=repeat_env())
    if r.returncode not in (0, 1):
        return "exit %d: %s" % (r.returncode, r.stderr)
    return json.loads(r.stdout).get("suggestion", "")


def work_(i, title, abstract):
    return {"id": "sp-%d" % i, "title": title, "abstract": abstract, "authors": ["Ada Lovelace"],
            "year": 2020 + i % 5}


WORKS = [
    work_(1, "Glaciology of ice shelves", "We survey glaciology and the flow of ice."),
    work_(2, "Ice flow from above", "Remote sensing for glaciology of the poles."),
    work_(3, "A model of rivers", "The model predicts floods."),
    work_(4, "Another model of lakes", "A simple model."),
    work_(5, "The model and its module", "One model, one module."),
    work_(6, "Sparse atention for long texts", "A typo in a real abstract."),
    work_(20, "Vector units for RISC-V cores", "An open RISC-V design."),
    work_(21, "Pipelines of RISC processors", "A RISC pipeline."),
    work_(22, "Reduced instruction sets", "Why RISC won."),
] + [work_(10 + i, "Attention in networks %d" % i, "Self attention layers.") for i in range(6)] + [
    work_(30, "Belief functions after Shafer", "Shafer's theory of evidence."),
    work_(31, "Evidence and belief", "Dempster and Shafer combined it."),
    dict(work_(32, "Ice cores of the Alps", "Cores drilled in firn."), authors=["Greta Schäfer"]),
    dict(work_(33, "Firn density", "Cores again."), authors=["Greta Schäffer"]),
    work_(34, "Yang-Mills fields", "The Yang-Mills equations."),
    work_(35, "The Yang-Baxter relation", "Yang and Baxter."),
    dict(work_(36, "Crevasse fields", "Crevasses."), authors=["Yann Morvan"]),
    work_(37, "A brief survey of moraines", "Brief notes on moraines."),
    work_(39, "Brief moraine surveys", "Brief, again."),
    work_(40, "Moraines in brief", "In brief."),
    dict(work_(38, "Moraine dating", "Dates."), authors=["Liam O'Brien"]),
    dict(work_(41, "Quarry stones", "Stones."), authors=["Jean-Paul Quillon"]),
    work_(42, "Random graphs after Erdős", "Graphs."),
    work_(43, "Wind erodes rock", "It erodes."),
    work_(44, "Water erodes cliffs", "Slowly."),
    work_(45, "Morgan Y linkage maps", "Linkage."),
    work_(46, "Counting sheep with YOLOv8", "Drones."),
    work_(47, "YOLO for weeds", "Fields."),
    work_(48, "YOLO on the edge", "Boards."),
    work_(49, "Counting households", "From the U.S. Census of 2020."),
]
write(WORKS)
index()
check("glaciolgy", suggestion("glaciolgy") == "glaciology", suggestion("glaciolgy"))
check("modle -> model", suggestion("modle") == "model", suggestion("modle"))
check("a word one work writes, in a small index", suggestion("atention") == "", suggestion("atention"))
check("attenton -> attention", suggestion("attenton") == "attention", suggestion("attenton"))
check("a phrase of typos", suggestion("modle of glaciolgy") == "model of glaciology",
      suggestion("modle of glaciolgy"))
check("a written word is no typo", suggestion("glaciology") == "", suggestion("glaciology"))
check("no suggestion for a wildcard", suggestion("glaciolg*") == "", suggestion("glaciolg*"))
check("no suggestion for digits", suggestion("20245") == "", suggestion("20245"))
# nor for the letters of a model's name with its number (YOLOv8 was
# offered yolo8); its other words still may be
check("a name with its number is no typo", suggestion("YOLOv8") == "", suggestion("YOLOv8"))
check("beside a typo", suggestion("YOLOv8 glaciolgy") == "YOLOv8 glaciology",
      suggestion("YOLOv8 glaciolgy"))
check("a short word is left alone", suggestion("glx") == "", suggestion("glx"))
check("a compound's closed form the index holds is no typo", suggestion("RISCV") == "",
      suggestion("RISCV"))
# A family name is seldom written in a title or an abstract, which the
# spelling table counts: the works its authors wrote make it no typo.
for q in ("Schäfer", "Schafer", "Schaefer"):
    check("an author's family name is no typo: %s" % q, suggestion(q) == "", suggestion(q))


# Nor a word whose transliterated umlaut the search reads as the vowel
# the works write ("Erdoes" finds Erdős), though a word one edit away is
# common ("erodes").
check("a transliterated umlaut is no typo", suggestion("Erdoes") == "", suggestion("Erdoes"))
check("one edit from it is", suggestion("Erodez") == "erodes", suggestion("Erodez"))


# Nor the family name after an elision, which the index keys with it
# ("obrien"; "Brien" was offered brief).
for q in ("O'Brien moraines", "O\u2019Brien moraines"):
    check("a family name after an elision is no typo: %s" % q, suggestion(q) == "", suggestion(q))
check("a typo of brief", suggestion("brieff moraines") == "brief moraines",
      suggestion("brieff moraines"))


# A given name beside its family name, an author's, is no typo either;
# alone it may be one.
check("a given name beside its family name is no typo",
      suggestion('"Yann Morvan"') == "", suggestion('"Yann Morvan"'))
check("a given name alone may be", suggestion("yann") == "yang", suggestion("yann"))
# A query of a person's name no author has: the nearest name held.
check("a misspelt person's name: the nearest author", suggestion("Yann Morvann") == "Yann Morvan",
      suggestion("Yann Morvann"))
check("PubMed's names: the nearest authors",
      suggestion("Morvann Y, Schäfer G") == 'author:"Yann Morvan" AND author:"Schäfer G"',
      suggestion("Morvann Y, Schäfer G"))


def note_of(q):
    r = subprocess.run([PDX, "search", "--db", db, "--limit", "1", "--format", "json", q],
                       capture_output=True, text=True, env=repeat_env())
    if r.returncode not in (0, 1):
        return 0, "exit %d: %s" % (r.returncode, r.stderr)
    out = json.loads(r.stdout)
    return out["total"], out.get("note", "")


# A name as a bibliography writes it, initials glued or not, is that
# author; one no author has, with no nearer name to offer, is searched as
# words with a note saying so (not a bare page of other works).
for q in ("J.-P. Quillon", "Quillon, J.-P.", "Quillon, J.P.", "J. P. Quillon"):
    n, note = note_of(q)
    check("a name as a bibliography writes it: %s" % q,
          n == 1 and 'as author:"%s"' % q in note, (n, note))
for q in ("Q. R. Zorblatt", "Zorblatt, Q.R.", "Zorblatt Q, Quarrel P"):
    n, note = note_of(q)
    check("no author so named: %s" % q,
          "no work has an author so named (%s): searched as words" % q in note, (n, note))
n, note = note_of("Stones Quarry")
check("words like a name, unpunctuated: no note", n == 1 and note == "", (n, note))
# A family name some author has, with initials none of them has, is a
# name too ("Hinton G" beside an Isaiah Hinton), and a punctuated name
# is not corrected as words ("Witten, E." was offered "written, E.").
for q in ("Morvan Q", "Moraimes, Q."):
    n, note = note_of(q)
    check("no author so named, no words' correction: %s" % q,
          "no work has an author so named (%s): searched as words" % q in note
          and suggestion(q) == "", (n, note, suggestion(q)))
# So is a given name in full that the index's authors bear, more as a
# name than as a word, before a family name none has ("Edward Witten"
# was offered "Edward written"); a word before it is words ("Firn").
n, note = note_of("Greta Moraimes")
check("a held given name, no author so named, no words' correction",
      "no work has an author so named (Greta Moraimes): searched as words" in note
      and suggestion("Greta Moraimes") == "", (n, note, suggestion("Greta Moraimes")))
check("a word before a misspelt word: its correction",
      suggestion("Firn Moraimes") == "Firn moraines", suggestion("Firn Moraimes"))
# Words that works write as a phrase are no misspelt name ("Phase III"
# was offered the author Phanse); a name no work writes may be one.
check("a phrase works write: no name offered", suggestion("Morgan Y") == "",
      suggestion("Morgan Y"))
# Nor are they a name no author has: "U.S. Census" is the words works
# write, with no note that no author is so named.
n, note = note_of("U.S. Census")
check("a phrase works write, dotted like initials: words, no note", n == 1 and note == "",
      (n, note))
check("a misspelt PubMed name: the author", suggestion("Morvaan Y") == "Yann Morvan",
      suggestion("Morvaan Y"))


def author_suggestions(*args):
    r = subprocess.run([PDX, "search", "--db", db, "--limit", "0", "--format", "json"] + list(args),
                       capture_output=True, text=True, env=repeat_env())
    if r.returncode not in (0, 1):
        return r.stderr
    return [a["name"] for a in json.loads(r.stdout).get("author_suggestions", [])]


# A name the index holds is not changed when something else empties the
# search (here the year); a name it lacks gets the nearest it holds.
check("a held name, another year: no other name",
      author_suggestions("--author", "Greta Schäfer", "--year", "2001") == [],
      author_suggestions("--author", "Greta Schäfer", "--year", "2001"))
check("a held family name alone, another year: no other name",
      author_suggestions("--author", "Schafer", "--year", "2001") == [],
      author_suggestions("--author", "Schafer", "--year", "2001"))
check("a misspelt name: the nearest held",
      author_suggestions("--author", "Greta Schäfferr") == ["Greta Schäffer"],
      author_suggestions("--author", "Greta Schäfferr"))

# On 30,000 works a word one to three works write is rare enough to be
# a typo; the words the query writes beside it may vouch for it.
big_src = os.path.join(work, "works-30k.jsonl")
with open(big_src, "w", encoding="utf-8") as f:
    for i in range(30000):
        title = "Filler note %d" % i + (" on walls" if i % 50 == 0 else "")
        abstract = "A short filler abstract about ice, number %d." % i
        if i % 1000 == 1:
            abstract += " An attention mechanism reads it."
        f.write(json.dumps({"id": "fl-%d" % i, "title": title, "abstract": abstract,
                            "authors": ["Ada Lovelace"], "year": 2020}) + "\n")
    for w in (work_(50, "Van der Waals forces in ice", "Forces between layers."),
              work_(52, "Sparse atention mechanism", "A typo in a title.")):
        f.write(json.dumps(w) + "\n")
big30 = os.path.join(work, "ix-30k")
r = subprocess.run([PDX, "index", "--quiet", "--db", big30, big_src], capture_output=True, text=True)
check("index 30,000 works", r.returncode == 0, r.stderr)
for q, want in (("van der Waals", ""), ('"van der Waals"', ""), ("Waals forces", ""),
                ("Waals", "walls"), ("van der Waals walls", ""),
                ("atention mechanism", "attention mechanism"), ("atention", "attention")):
    check("30,000 works: %s" % q, suggestion(q, big30) == want, suggestion(q, big30))

# Built by two workers committing every two works, the table counts as
# one process's does: the compactor sums the shards' tables.
jdb = os.path.join(work, "ix-jobs")
index(jdb, ["--jobs", "2", "--batch", "2"])
for q, want in (("glaciolgy", "glaciology"), ("modle", "model"), ("atention", ""),
                ("attenton", "attention")):
    check("--jobs 2: %s" % q, suggestion(q, jdb) == want, suggestion(q, jdb))

# The second work's new version drops the word: one work writes it now.
changed = [dict(w) for w in WORKS]
changed[1]["abstract"] = "Remote sensing of the poles."
write(changed)
index()
check("a replaced work takes its count back", suggestion("glaciolgy") == "", suggestion("glaciolgy"))
write(WORKS)
index()
check("and gives it again", suggestion("glaciolgy") == "glaciology", suggestion("glaciolgy"))
write([w for w in WORKS if w["id"] != "sp-2"])
index()
check("a deleted work takes its count back", suggestion("glaciolgy") == "", suggestion("glaciolgy"))
write(WORKS)
index()

# Without the table: corrected from the stems.
r = subprocess.run(["xapian-metadata", "get", db, "paperdex.spelling"], capture_output=True, text=True)
check("the index records its spelling table", r.stdout.strip() == "words", r.stdout + r.stderr)
subprocess.run(["xapian-metadata", "set", db, "paperdex.spelling", ""], check=True)
check("no table: from the stems", suggestion("glaciolgy") == "glaciology", suggestion("glaciolgy"))

built = arxiv_20k(ARXIV_20K)
if built:
    big, sub = built
    stops = set(re.findall(r'"([^"]*)"', open(os.path.join(
        os.path.dirname(__file__), "..", "..", "common", "stopwords.h")).read().split(
            "#define PDX_STOPWORDS_FUNCTION", 1)[1].split("\n\n", 1)[0]))
    df = collections.Counter()
    for line in open(sub, encoding="utf-8"):
        rec = json.loads(line)
        t = unicodedata.normalize("NFKD", (rec.get("title") or "") + " " + (rec.get("abstract") or ""))
        t = "".join(c for c in t if not unicodedata.combining(c)).lower()
        df.update(set(re.findall(r"[a-z]+", t)))
    vocab = sorted(w for w, n in df.items() if n >= 20 and len(w) >= 5 and w not in stops)
    rng = random.Random(20261128)
    typos = []
    n_typos = int(os.environ.get("PDX_TEST_TYPOS", "300"))
    while len(typos) < n_typos:
        w = rng.choice(vocab)
        i = rng.randrange(len(w))
        kind = rng.randrange(4)
        letter = rng.choice("abcdefghijklmnopqrstuvwxyz")
        t = (w[:i] + w[i + 1:], w[:i] + letter + w[i:], w[:i] + letter + w[i + 1:],
             w[:i] + w[i + 1:i + 2] + w[i] + w[i + 2:])[kind]
        if t != w and t not in stops and df.get(t, 0) == 0:
            typos.append((w, t))
    got = [suggestion(t, big) for w, t in typos]
    right = sum(g == w for g, (w, t) in zip(got, typos))
    print("arXiv 20,000: %d of %d typos corrected to the intended word" % (right, len(typos)))
    check("at least 85% of typos corrected", right >= 0.85 * len(typos), "%d of %d" % (right, len(typos)))
    # The same works built by one process: the same table, the same words.
    n_compared = int(os.environ.get("PDX_TEST_TYPOS_COMPARED", n_typos // 3))
    if n_compared:
        one = os.path.join(work, "ix-arxiv-one")
        r = subprocess.run([PDX, "index", "--quiet", "--db", one, sub], capture_output=True, text=True)
        check("index 20,000 arXiv works in one process", r.returncode == 0, r.stderr)
        ogot = [suggestion(t, one) for w, t in typos[:n_compared]]
        differ = [(t, g, o) for g, o, (w, t) in zip(got, ogot, typos) if g != o]
        check("--jobs 2 suggests as one process does", not differ, str(differ[:5]))
    else:
        print("PDX_TEST_TYPOS_COMPARED=0: the arXiv works are not built again in one process")
done()
