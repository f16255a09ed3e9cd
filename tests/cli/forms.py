#!/usr/bin/env python3
"""forms.py PAPERDEX SRCDIR [SHARED]

Quoted words mean the words as written (common/forms.cc and
searcher/query_parse.cc, "Words as written"); unquoted words stay stemmed.

On invented works, each quoted word finds exactly the works that write
it, as a brute-force scan of their words says: "transformer" is not
"transformers", "transformation" or "transform"; a word that is its own
stem ("model", "transform") is not the works that write only another form
of it; a phrase finds the works that write it as quoted.  A wildcard
longer than a stem (optimiza*) finds the works that write such a word.
A group of stop words alone (after a dash: "Sediment cores -- what and
how?") is left out like any stop word, though Xapian's parser keeps it.
An index without the forms stamp matches quoted words by their stems and
says so.  With SHARED, the same brute force on 3,000 arXiv records for
forty common forms, each counted exactly (--exact).
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import arxiv_subset, check, done, repeat_env, scratch  # noqa: E402

PDX = sys.argv[1]
SHARED = sys.argv[3] if len(sys.argv) > 3 else ""
work = scratch("pdx-forms-")

WORKS = {
    "f1": ("A transformer for tides", "One transformer reads the gauges."),
    "f2": ("Transformers for rainfall", "Several transformers are compared."),
    "f3": ("Transformation of soil maps", "A transformation is learned."),
    "f4": ("How to transform glacier records", "We transform the logs."),
    "f5": ("Models of moss growth", "The models disagree."),
    "f6": ("A model of moss growth", "One model is fitted."),
    "f7": ("Modeling peat", "A model and two models."),
    "f8": ("Optimization of drainage", "Optimizations are listed."),
    "f9": ("Optimal drainage", "An optimal plan."),
    "f10": ("Large language models for bogs", "Large language models read field notes."),
    "f11": ("A large language model for fens", "It reads field notes."),
    "f12": ("Studies of lichen", "Two studies."),
    "f13": ("A study of lichen", "One study."),
    "f14": ("Images of reefs", "The imaging of reefs."),
    "f15": ("An image of a reef", "One image."),
    # A phrase's stems together where one of its words is written in
    # another form, the form quoted written elsewhere: in another field
    # (f16), in the same field (f17).
    "f16": ("A large language model for moors", "Two models are read."),
    "f17": ("Language models of mires", "A large language model and large models."),
    # The same in text read through Xapian's TermGenerator (a character
    # past U+0800: the em dash; CJK text).
    "f18": ("Peat surveys", "A large language model \u2014 and two models."),
    "f19": ("Reef \u56fe\u50cf surveys", "\u56fe\u50cf\u68c0\u7d22 with a language model and two models."),
    # A stop word's stem written as another word ("Whats": what), and a
    # title whose group after a dash is stop words alone, which Xapian's
    # parser keeps.
    "f20": ("Sediment cores -- what and how?", "Cores of sediment are dated."),
    "f21": ("Whats left of a lava tongue", "The tongue retreats."),
}


def index(db, path):
    r = subprocess.run([PDX, "index", "--quiet", "--db", db, path],
                       capture_output=True, text=True)
    check("index " + path, r.returncode == 0, r.stderr)


def search(db, q, limit=10000):
    p = subprocess.run([PDX, "search", "--db", db, "--format", "json", "--exact",
                        "--limit", str(limit), q], capture_output=True, text=True, env=repeat_env())
    if p.returncode not in (0, 1):
        return None, "exit %d: %s" % (p.returncode, p.stderr.strip())
    out = json.loads(p.stdout)
    return out, ""


def ids(db, q):
    out, err = search(db, q)
    return sorted(h["id"] for h in out["hits"]) if out else err


# The indexer's words, for ASCII text: runs of letters, digits and '_',
# an apostrophe joining two of them, as TermGenerator reads them
# (indexer/text_terms.cc); lower-cased.
WORD = re.compile(r"[A-Za-z0-9_]+(?:'[A-Za-z0-9_]+)*")


def words(text):
    """The words as written; a possessive's 's left out ("model's" is
    "model"), as the indexer leaves it."""
    out = set()
    for w in WORD.findall(text):
        w = w.lower()
        out.add(w[:-2] if w.endswith("'s") and len(w) > 2 else w)
    return out


src = os.path.join(work, "works.jsonl")
with open(src, "w", encoding="utf-8") as f:
    for k, (t, a) in WORKS.items():
        f.write(json.dumps({"id": k, "title": t, "abstract": a,
                            "authors": ["Ann Author"], "year": 2021}) + "\n")
db = os.path.join(work, "ix")
index(db, src)
bag = {k: words(t + " " + a) for k, (t, a) in WORKS.items()}

FORMS = ["transformer", "transformers", "transformation", "transform", "model",
         "models", "modeling", "optimization", "optimal", "studies", "study",
         "images", "image", "imaging"]
for w in FORMS:
    want = sorted(k for k, b in bag.items() if w in b)
    check('"%s" is the works that write it' % w, ids(db, '"%s"' % w) == want,
          (ids(db, '"%s"' % w), want))
    check('"%s" is found' % w, want != [], w)
# The stop words a query writes are left out, a group of them alone too:
# the title finds its work, not the one writing "Whats".
check("a group of stop words after a dash is left out",
      ids(db, "Sediment cores -- what and how?") == ["f20"],
      ids(db, "Sediment cores -- what and how?"))
# Unquoted words stay stemmed: more works than any one form.
check("transformer unquoted finds every form",
      ids(db, "transformer") == ["f1", "f2", "f3", "f4"], ids(db, "transformer"))
check("models unquoted finds every form",
      ids(db, "models") == ["f10", "f11", "f16", "f17", "f18", "f19", "f5", "f6", "f7"],
      ids(db, "models"))
# A quoted word beside others, and excluded.
check('"transformers" OR moss', ids(db, '"transformers" OR moss') == ["f2", "f5", "f6"],
      ids(db, '"transformers" OR moss'))
check('glacier OR "transform"', ids(db, 'glacier OR "transform"') == ["f4"],
      ids(db, 'glacier OR "transform"'))
check('moss -"models"', ids(db, 'moss -"models"') == ["f6"], ids(db, 'moss -"models"'))
check('title:"transformers"', ids(db, 'title:"transformers"') == ["f2"],
      ids(db, 'title:"transformers"'))
# Phrases: the words next to each other and as written.
check('an unclosed quote runs to the end: "transformer',
      ids(db, '"transformer') == ids(db, '"transformer"') == ["f1"], ids(db, '"transformer'))
check('an unclosed quote runs to the end: tides "large language models',
      ids(db, 'tides OR "large language models') == ["f1", "f10"],
      ids(db, 'tides OR "large language models'))
check('"large language models"', ids(db, '"large language models"') == ["f10"],
      ids(db, '"large language models"'))
check('"large language model"', ids(db, '"large language model"') == ["f11", "f16", "f17", "f18"],
      ids(db, '"large language model"'))
check("large language models unquoted", ids(db, "large AND language AND models")
      == ["f10", "f11", "f16", "f17", "f18"], ids(db, "large AND language AND models"))
check('"language models"', ids(db, '"language models"') == ["f10", "f17"],
      ids(db, '"language models"'))
check('"language model"', ids(db, '"language model"') == ["f11", "f16", "f17", "f18", "f19"],
      ids(db, '"language model"'))
# Each word as written where the phrase stands, not anywhere in the work.
check('"language models" inside an OR (a phrase source)',
      ids(db, 'lichen OR "large language models"') == ["f10", "f12", "f13"],
      ids(db, 'lichen OR "large language models"'))
check('title:"language model"', ids(db, 'title:"language model"') == ["f11", "f16"],
      ids(db, 'title:"language model"'))
check('title:"language models"', ids(db, 'title:"language models"') == ["f10", "f17"],
      ids(db, 'title:"language models"'))
check('abstract:"large models"', ids(db, 'abstract:"large models"') == ["f17"],
      ids(db, 'abstract:"large models"'))
# Wildcards over the words as written: optimiza* is longer than the
# stem (optim), which also holds "optimal".
check("optimiza*", ids(db, "optimiza*") == ["f8"], ids(db, "optimiza*"))
check("optim*", ids(db, "optim*") == ["f8", "f9"], ids(db, "optim*"))
check("transfor*", ids(db, "transfor*") == ["f1", "f2", "f3", "f4"], ids(db, "transfor*"))
# Counts and scores: the forms filter, the stems score.
out, _ = search(db, '"transformer"')
check('"transformer" count', out and out["total"] == 1, out and out["total"])
check('"transformer" is scored', out and all(h["score"] > 0 for h in out["hits"]), out)

# An index with Xapian's own positions (a shard for xapian-tcpsrv),
# searched locally: its quoted phrases are held to their forms alike.
xdb = os.path.join(work, "xpos")
r = subprocess.run([PDX, "index", "--quiet", "--xapian-positions", "--db", xdb, src],
                   capture_output=True, text=True)
check("index --xapian-positions", r.returncode == 0, r.stderr)
for q in ['"large language models"', '"language model"', 'title:"language models"',
          'lichen OR "large language models"']:
    check("Xapian's positions: " + q, ids(xdb, q) == ids(db, q), (ids(xdb, q), ids(db, q)))

# An index built without the forms (the stamp removed: as an older
# paperdex built it) matches by stems and says so.
old = os.path.join(work, "old")
index(old, src)
r = subprocess.run(["xapian-metadata", "set", old, "paperdex.forms", ""],
                   capture_output=True, text=True)
check("unstamp", r.returncode == 0, r.stderr)
out, _ = search(old, '"transformer"')
check("old index: stems", out and sorted(h["id"] for h in out["hits"]) == ["f1", "f2", "f3", "f4"],
      out)
check("old index: a note", out and "no word forms" in (out.get("note") or ""), out)
out, _ = search(db, '"transformer"')
check("new index: no note", out and "no word forms" not in (out.get("note") or ""), out)

if SHARED and os.path.exists(os.path.join(SHARED, "data", "arxiv-101k.jsonl.gz")):
    sub = os.path.join(work, "arxiv.jsonl")
    arxiv_subset(os.path.join(SHARED, "data", "arxiv-101k.jsonl.gz"), 3000, sub)
    adb = os.path.join(work, "arxiv")
    index(adb, sub)
    abag = {}
    with open(sub, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            abag[r["id"]] = words(" ".join([r.get("title") or "", r.get("abstract") or "",
                                            r.get("authors") or ""]))
    for w in ["transformer", "transformers", "transformation", "transform", "model",
              "models", "modeling", "modelling", "learning", "learned", "learn",
              "network", "networks", "study", "studies", "studied", "result",
              "results", "method", "methods", "image", "images", "imaging",
              "optimal", "optimization", "optimize", "generation", "generate",
              "generated", "graph", "graphs", "field", "fields", "state", "states",
              "quantum", "energy", "energies", "observation", "observed"]:
        want = sorted(k for k, b in abag.items() if w in b)
        got = ids(adb, '"%s"' % w)
        miss = sorted(set(want) - set(got)) if isinstance(got, list) else got
        extra = sorted(set(got) - set(want)) if isinstance(got, list) else got
        check('arXiv "%s": %d works write it' % (w, len(want)), got == want,
              ("missing", miss[:5], "extra", extra[:5]))
    # Phrases as written, against a scan of each field's words with the
    # stop words left out (they take no position).
    stops = set(re.findall(r'"([^"]+)"', open(os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "common",
        "stopwords.h"), encoding="utf-8").read().split("#define PDX_STOPWORDS_FUNCTION", 1)[1].split(
            "\n\n", 1)[0]))

    def seq(text):
        out = []
        for w in WORD.findall(text):
            w = w.lower()
            if w in stops:
                continue
            out.append(w[:-2] if w.endswith("'s") and len(w) > 2 else w)
        return out
    fields = {}
    with open(sub, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            fields[r["id"]] = [seq(r.get("title") or ""), seq(r.get("abstract") or "")]
    for ph in ["language models", "language model", "neural networks", "neural network",
               "deep learning", "reinforcement learning", "experimental results",
               "loss function", "loss functions", "large language models"]:
        ws = ph.split()
        want = sorted(k for k, fs in fields.items()
                      if any(s[i:i + len(ws)] == ws for s in fs for i in range(len(s))))
        got = ids(adb, '"%s"' % ph)
        miss = sorted(set(want) - set(got)) if isinstance(got, list) else got
        extra = sorted(set(got) - set(want)) if isinstance(got, list) else got
        check('arXiv "%s": %d works write it' % (ph, len(want)), got == want,
              ("missing", miss[:5], "extra", extra[:5]))
else:
    print("SKIP the arXiv brute force: no ../shared/data/arxiv-101k.jsonl.gz")
done()
