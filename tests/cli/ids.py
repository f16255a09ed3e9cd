#!/usr/bin/env python3
"""ids.py PAPERDEX SRCDIR

Every id a paper has, in the forms people paste, finds its work: in
`show`, in `similar` and as a whole search query (the work alone, with a
note).  For each work of the sample corpus, the forms are made from its
own fields:

    arXiv     2103.00823, arXiv:ID, ARXIV:ID, IDv3, https://arxiv.org/abs/ID,
              http://arxiv.org/abs/IDv1, https://arxiv.org/pdf/ID.pdf and
              .../pdf/IDv2 (old-style ids, hep-th/9901001, too); on a few
              works arxiv.org/abs/IDv2, .../html/IDv1, "arXiv:ID [cs.CV]",
              arXiv's DOI 10.48550/arXiv.ID (and its doi.org address),
              huggingface.co/papers/ID, alphaxiv.org/abs/ID, "arXiv: ID",
              Scholar's "arXiv preprint arXiv:ID." and DBLP's "CoRR abs/ID",
              and as a sentence leaves one: "arXiv:ID.", "(arXiv:ID)"
    DOI       doi:D, DOI:D, https://doi.org/D, http://dx.doi.org/D, D, doi: D,
              "(doi:D)."
    PMID      PMID:P, pmid:P, PMID: P, https://pubmed.ncbi.nlm.nih.gov/P/,
              https://www.ncbi.nlm.nih.gov/pubmed/P
    OpenAlex  W1, w1, https://openalex.org/W1
    its id    as it is
    a key     a record's key in its file (a BibTeX citation key, a RIS
              ID), read from `show --format json` of every work

and each must give the work whose field it is (a DOI or PMID two works
share is left out: it names neither alone).  An id no work has is
searched as words, with no note that it names a work, and a note that no
work has it (but for a bare W123, which may be a word).  A reference
pasted whole (Scholar's "... arXiv preprint arXiv:ID (2020).", an arXiv
PDF's margin, a DOI at a reference's end) is the work of the id it holds,
with a note naming the id; a quoted id in it is words.

STRIDE (1 unless given; the sanitizer build, whose processes start 5
times slower, gives 7): every STRIDE-th form of each kind is tried, at
least 3 of each kind, and every way of writing each field (old-style
arXiv ids and new ones) on one work at least.
"""
import collections
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, repeat_env, scratch, works_of  # noqa: E402

PDX, SRC = sys.argv[1], sys.argv[2]
STRIDE = int(sys.argv[3]) if len(sys.argv) > 3 else 1
work = scratch("pdx-ids-")
db = os.path.join(work, "ix")
r = subprocess.run([PDX, "index", "--quiet", "--db", db, os.path.join(SRC, "corpus", "samples")],
                   capture_output=True, text=True)
check("index samples", r.returncode == 0, r.stderr)


def run(*args):
    p = subprocess.run([PDX] + list(args), capture_output=True, text=True, env=repeat_env())
    return p.returncode, p.stdout, p.stderr


works = works_of(PDX, db)
by_doi, by_pmid = collections.defaultdict(set), collections.defaultdict(set)
for w in works.values():
    for d in (w.get("doi") or "").split():
        by_doi[d.lower()].add(w["id"])
    if w.get("pmid"):
        by_pmid[w["pmid"]].add(w["id"])

forms = []  # (form, the work's id, its shape: which field, written how)
n_more = collections.Counter()
for w in works.values():
    wid = w["id"]
    forms.append((wid, wid, ("id", wid.split(":")[0] if ":" in wid else "")))
    a = w.get("arxiv_id")
    if a:
        forms += [(f, wid, ("arxiv", "/" in a, i)) for i, f in enumerate((
            a, "arXiv:" + a, "ARXIV:" + a, a + "v3", "https://arxiv.org/abs/" + a,
            "http://arxiv.org/abs/%sv1" % a, "https://arxiv.org/pdf/%s.pdf" % a,
            "https://arxiv.org/pdf/%sv2" % a, "https://arxiv.org/abs/%s/" % a))]
        # rarer forms, on a few works of each style of id: an address
        # without its scheme, arXiv's HTML page, arXiv's listing, the
        # DOI arXiv gives a preprint, the pages other sites keep under it
        n_more[("/" in a)] += 1
        if n_more[("/" in a)] <= 3:
            forms += [(f, wid, ("arxiv more", i)) for i, f in enumerate((
                "arxiv.org/abs/%sv2" % a, "https://arxiv.org/html/%sv1" % a, "arXiv:%s [cs.CV]" % a,
                "10.48550/arXiv." + a, "https://doi.org/10.48550/arXiv." + a,
                "https://huggingface.co/papers/" + a, "https://www.alphaxiv.org/abs/" + a,
                # a reference's arXiv line: a space after the colon,
                # Google Scholar's and DBLP's
                "arXiv: " + a, "arXiv preprint arXiv:%s." % a, "CoRR abs/" + a,
                # as a sentence or a reference leaves it
                "arXiv:%s." % a, "(arXiv:%s)" % a, "<https://arxiv.org/abs/%s>," % a))]
    for d in (w.get("doi") or "").split()[:1]:
        if len(by_doi[d.lower()]) == 1:
            forms += [(f, wid, ("doi", i)) for i, f in enumerate(("doi:" + d, "DOI:" + d, "https://doi.org/" + d,
                                                                  "http://dx.doi.org/" + d, d, "doi: " + d,
                                                                  "(doi:%s)." % d))]
    p = w.get("pmid")
    if p and len(by_pmid[p]) == 1:
        forms += [(f, wid, ("pmid", i)) for i, f in enumerate(("PMID:" + p, "pmid:" + p, "PMID: " + p,
                                                                "https://pubmed.ncbi.nlm.nih.gov/%s/" % p,
                                                                "https://www.ncbi.nlm.nih.gov/pubmed/" + p))]
    o = w.get("openalex_id")
    if o:
        o = o.rsplit("/", 1)[-1]
        forms += [(f, wid, ("openalex", i)) for i, f in enumerate((o, o.lower(), "https://openalex.org/" + o))]

# A record's key in its file names it only within that file: the works
# of the sample corpus whose sources carry one, each key held by one work.
by_key = collections.defaultdict(set)
for wid in works:
    rc, out, err = run("show", "--db", db, "--format", "json", wid)
    for src in json.loads(out).get("sources", []) if rc == 0 else []:
        k = src.get("record", {}).get("source_key") or json.loads(out).get("source_key")
        if k:
            by_key[k].add(wid)
forms += [(k, next(iter(ws)), ("key",)) for k, ws in sorted(by_key.items()) if len(ws) == 1]


def kind_of(form):
    return ("arxiv" if "arxiv" in form.lower() or form[:2].isdigit() and "." in form and "/" not in form
            else "doi" if "10." in form else "pmid" if "pmid" in form.lower() or "pubmed" in form
            else "openalex" if "openalex" in form or form[:1] in "Ww" and form[1:].isdigit()
            else "key" if form in by_key else "id")


of_kind = collections.defaultdict(list)
for i, f in enumerate(forms):
    of_kind[kind_of(f[0])].append(i)
first_of_shape = {}
for i, f in enumerate(forms):
    first_of_shape.setdefault(f[2], i)
tried = set(first_of_shape.values())
for kind, ii in of_kind.items():
    tried.update(ii[::max(1, min(STRIDE, len(ii) // 3))])
kinds = collections.Counter()
for form, wid, _ in (forms[i] for i in sorted(tried)):
    kinds[kind_of(form)] += 1
    rc, out, err = run("show", "--db", db, "--format", "json", form)
    got = json.loads(out).get("id") if rc == 0 and out.strip() else None
    check("show %s" % form, got == wid, "got %s, want %s (%s)" % (got, wid, err.strip()[:200]))
    rc, out, err = run("similar", "--db", db, "--format", "json", "--limit", "2", form)
    check("similar %s" % form, rc == 0 and "hits" in json.loads(out), (rc, err.strip()[:200]))
    rc, out, err = run("search", "--db", db, "--format", "json", "--snippet", "0", form)
    res = json.loads(out) if rc == 0 else {}
    check("search %s: the work alone" % form,
          res.get("total") == 1 and [h["id"] for h in res.get("hits", [])] == [wid] and
          ("is the citation key of" if form in by_key else "is a work's id" if form == wid
           else "is the id of") in res.get("note", ""),
          (rc, str(res)[:300], err.strip()[:200]))
print("ids tried: %s" % dict(kinds))
check("every kind of id tried",
      all(kinds[k] >= 3 for k in ("arxiv", "doi", "pmid", "openalex", "id", "key")), kinds)

# An id no work has: searched as words, no note naming a work, but one
# saying that no work has it; show says there is none (exit 1).
for unknown in ("arXiv:2512.99999", "2512.99999", "https://doi.org/10.9999/none.1",
                "PMID:99999999", "https://openalex.org/W99999999999", "hep-th/9901999"):
    rc, out, err = run("search", "--db", db, "--format", "json", "--snippet", "0", unknown)
    note = json.loads(out).get("note", "") if rc == 0 else ""
    check("an unknown id is searched, not named, and said to be unknown: " + unknown,
          rc == 0 and "put it in quotes" not in note and
          "no work has the id %s; it was searched as words" % unknown in note, (rc, out[:300]))
# A reference pasted whole holds its work's id among its words: the work
# alone, and the note names the id; a quoted id in it is words, and an id
# no work has is said to be unknown.
refs = 0
for w in works.values():
    a, d = w.get("arxiv_id"), (w.get("doi") or "").split()[:1]
    if refs >= 3 or not a or "/" in a or not d or len(by_doi[d[0].lower()]) != 1:
        continue
    refs += 1
    for ref, held in (('Doe, J., et al. "A title of words." arXiv preprint arXiv:%s (2020).' % a,
                       "arXiv:" + a),
                      ("J. Doe. A title of words. arXiv preprint arXiv:%s, 2020." % a, "arXiv:" + a),
                      ("arXiv:%sv2 [cs.CL] 3 Mar 2021" % a, "arXiv:%sv2" % a),
                      ("Doe J, Roe R. A title of words. Nature. 2015;521:436-44. "
                       "https://doi.org/%s" % d[0], "https://doi.org/" + d[0])):
        rc, out, err = run("search", "--db", db, "--format", "json", "--snippet", "0", ref)
        res = json.loads(out) if rc == 0 else {}
        check("a reference holding an id is its work: " + ref,
              res.get("total") == 1 and [h["id"] for h in res.get("hits", [])] == [w["id"]] and
              "the query holds the id %s, of %s" % (held, w["id"]) in res.get("note", ""),
              (rc, str(res)[:300]))
    rc, out, err = run("search", "--db", db, "--format", "json", "--snippet", "0",
                       'a title of words "arXiv:%s"' % a)
    check("a quoted id in a reference is words",
          rc == 0 and "holds the id" not in json.loads(out).get("note", ""), (rc, out[:200]))
check("references tried", refs == 3, refs)
rc, out, err = run("search", "--db", db, "--format", "json", "--snippet", "0",
                   "J. Doe. A title. arXiv preprint arXiv:2512.99999, 2025.")
note = json.loads(out).get("note", "") if rc == 0 else ""
check("a reference's unknown id is said to be unknown",
      "no work has the id arXiv:2512.99999; it was searched as words" in note, (rc, out[:300]))

# A word that only may be an id (an OpenAlex W number, a model's name) is
# a word: no such note.
for word in ("W123", "ResNet50"):
    rc, out, err = run("search", "--db", db, "--format", "json", "--snippet", "0", word)
    check("%s is a word, no id note" % word,
          rc == 0 and "no work has the id" not in json.loads(out).get("note", ""), (rc, out[:200]))
rc, out, err = run("show", "--db", db, "2512.99999")
check("show of an unknown id: exit 1, named", rc == 1 and "2512.99999" in err, (rc, err))
# A quoted id is words.
rc, out, err = run("search", "--db", db, "--format", "json", "--snippet", "0", '"%s"' % forms[-1][0])
check("a quoted id is searched as words", rc == 0 and "put it in quotes" not in json.loads(out).get("note", ""),
      (rc, out[:200]))
# One key in two files: each file's work, and the note says there are two.
two = os.path.join(work, "two")
os.makedirs(two)
for name, title in (("a.bib", "Glacier melt in the Alps"), ("b.bib", "Coral bleaching under heat")):
    with open(os.path.join(two, name), "w") as f:
        f.write("@article{smith2020,\n  title = {%s},\n  author = {Smith, Ann},\n  year = 2020\n}\n" % title)
db2 = os.path.join(work, "ix2")
rc, out, err = run("index", "--quiet", "--db", db2, two)
rc, out, err = run("show", "--db", db2, "--format", "json", "smith2020")
shown = json.loads(out) if rc == 0 else None
check("show of a key two files use: both works",
      isinstance(shown, list) and sorted(w["title"] for w in shown) ==
      ["Coral bleaching under heat", "Glacier melt in the Alps"], (rc, out[:300], err))
rc, out, err = run("search", "--db", db2, "--format", "json", "smith2020")
res = json.loads(out) if rc == 0 else {}
check("search of a key two files use: both works, named in the note",
      res.get("total") == 2 and len(res.get("hits", [])) == 2 and
      "citation key of 2 works" in res.get("note", ""), (rc, out[:300]))

# A BibTeX export of a preprint that gives only the DOI arXiv gave it
# (10.48550/arXiv.ID), under another title: the preprint's arXiv id, so
# one work with the arXiv record, found by either id.
three = os.path.join(work, "three")
os.makedirs(three)
shutil.copy(os.path.join(SRC, "corpus", "samples", "arxiv-sample.jsonl"), three)
with open(os.path.join(three, "export.bib"), "w") as f:
    f.write("@misc{desantis2016,\n  title = {Tablet transcription, a preprint},\n"
            "  author = {De Santis, Chiara},\n  year = {2016},\n  doi = {10.48550/arXiv.1602.10185}\n}\n")
db3 = os.path.join(work, "ix3")
rc, out, err = run("index", "--quiet", "--db", db3, three)
for form in ("1602.10185", "10.48550/arXiv.1602.10185", "desantis2016"):
    rc, out, err = run("show", "--db", db3, "--format", "json", form)
    shown = json.loads(out) if rc == 0 else {}
    check("arXiv's DOI in a BibTeX export: show %s is the one work of both records" % form,
          isinstance(shown, dict) and shown.get("id") == "1602.10185" and len(shown.get("sources", [])) == 2,
          (rc, out[:300], err))
done()
