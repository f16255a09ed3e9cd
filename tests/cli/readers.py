#!/usr/bin/env python3
"""readers.py PAPERDEX SRC -- the PubMed, OpenAlex, OAI-PMH and BibTeX
readers end to end, on the invented samples of corpus/samples and on
files written here:

- what each reader takes from its format (structured abstracts, MedlineDate,
  initials, collective names, the inverted abstract, API pages, TeX
  accents, @string macros, deleted headers, arXivRaw dates);
- merging by DOI, PMID, OpenAlex id and arXiv id across formats;
- versions and withdrawals: an update file's citation replaces the
  baseline's, DeleteCitation and OpenAlex merged ids remove works, and the
  index is the same whatever order the files arrive in, and when an update
  file goes away again (incremental = fresh);
- subject terms: subject:, --subject, the subject facet;
- bad input in each format: named by file:line, the rest read.
"""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done  # noqa: E402

PDX, SRC = sys.argv[1], sys.argv[2]
SAMPLES = os.path.join(SRC, "corpus", "samples")
T = tempfile.mkdtemp(prefix="pdx-readers-")


def run(*args):
    p = subprocess.run([PDX] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def index(db, *paths, extra=()):
    return run("index", "--db", db, *extra, *paths)


def show(db, wid):
    rc, out, err = run("show", "--db", db, "--format", "json", wid)
    return json.loads(out) if rc == 0 else None


def works(db):
    """Every work, as search --all gives it (tombstones are not works)."""
    rc, out, err = run("search", "--db", db, "--all", "--exact", "--limit", "10000",
                       "--snippet", "0", "--format", "jsonl", "--sort", "oldest")
    assert rc == 0, err
    ws = [json.loads(l) for l in out.splitlines() if l.strip()]
    for w in ws:  # compared across directories: sources by file name
        w.pop("rank", None)
        w.pop("score", None)
        for s in w.get("sources", []):
            if "file" in s:
                s["file"] = os.path.basename(s["file"])
    return sorted(ws, key=lambda w: w["id"])


def stats_works(db):
    rc, out, err = run("stats", "--db", db)
    for line in out.splitlines():
        if line.startswith("works"):
            return int(line.split()[1])
    return None


def search_ids(db, *args):
    rc, out, err = run("search", "--db", db, "--format", "jsonl", "--snippet", "0",
                       "--limit", "100", *args)
    return [json.loads(l)["id"] for l in out.splitlines() if l.strip()], rc, err


try:
    # ---------------------------------------------------------- samples
    db = os.path.join(T, "samples")
    rc, out, err = index(db, SAMPLES)
    check("the samples index cleanly", rc == 0 and "skipped-bad" in out and " 0 skipped-bad" in out, out + err)

    w = show(db, "pmid:90000301")
    check("MEDLINE text (.nbib): title and abstract over their lines, FAU names, the collective name",
          w and w["title"] == "Bumblebee foraging distance on red clover meadows: a harmonic radar study." and
          w["abstract"].startswith("BACKGROUND: How far bumblebees fly") and w["abstract"].endswith("few foragers.") and
          w["authors"] == ["Ingrid M Haugland", "Lars \u00d8vreb\u00f8", "Clover Pollinator Group"], w)
    check("MEDLINE text: DP with its day, JT as venue, the [doi] of LID, PMC, MeSH without qualifiers, OT",
          w and w.get("date") == "2021-02-11" and w.get("venue") == "Journal of Invented Pollination" and
          w.get("doi") == "10.5555/pdx.nbib.1" and w.get("pmcid") == "PMC9000301" and
          w.get("subjects") == ["Animals", "Bees", "Trifolium", "harmonic radar", "pollination"], w)
    w = show(db, "pmid:90000302")
    check("MEDLINE text: AU alone as initials, a season's year, TA as venue",
          w and w["authors"] == ["K. Brekke", "T. A. Solberg"] and w.get("date") == "2022" and
          w.get("venue") == "Invent Pollinat Lett", w)
    ids, rc, err = search_ids(db, "--author", "Solberg TA")
    check("MEDLINE text: its initials answer a PubMed-style author filter", ids == ["pmid:90000302"], (ids, err))

    w = [x for x in works(db) if x.get("doi") == "10.5555/pdx.ris.1"]
    check("RIS: TI, AU (with a suffix), DA, JO, DO, AB over two lines, KW",
          len(w) == 1 and w[0]["title"] == "Nectar sugar of wild cherry across an altitude gradient" and
          w[0]["authors"] == ["Beatriz A. Ferreira", "Ren Nakagawa", "Arthur Whitcombe Jr"] and
          w[0].get("date") == "2023-06-02" and w[0].get("venue") == "Invented Journal of Pollination Biology" and
          w[0]["abstract"].endswith("drew more bumblebee visits per flower.") and
          w[0].get("subjects") == ["nectar", "altitude"], w)
    w = show(db, "2409.00001")
    check("RIS: T1, A1, Y1 with its slashes, T2 as venue, N2, an arXiv UR as the work's arXiv id",
          w and w["title"] == "Counting hoverflies on orchard margins with camera traps" and
          w["authors"] == ["Oskar Lindgaard"] and w.get("date") == "2024" and
          w.get("venue") == "Proceedings of the Invented Workshop on Insect Monitoring", w)

    w = show(db, "pmid:90000001")
    check("PubMed: a work is found by pmid:N", w is not None)
    if w:
        check("PubMed: the update file's version replaces the baseline's title",
              w["title"].startswith("Wrist-worn sensors"), w.get("title"))
        check("PubMed: a structured abstract keeps its section labels",
              w["abstract"].startswith("BACKGROUND: ") and " RESULTS: " in w["abstract"], w["abstract"][:80])
        check("PubMed: a collective name is an author", "Heat Safety Study Group" in w["authors"], w["authors"])
        check("PubMed: DOI, PMC id and journal", w.get("doi") == "10.5555/pdx.med.1" and
              w.get("pmcid") == "PMC9000001" and w.get("venue") == "Journal of Invented Clinical Results", w)
        check("PubMed: MeSH headings and BibTeX keywords are subjects",
              "Heat Stress Disorders" in w.get("subjects", []) and "wearables" in w.get("subjects", []),
              w.get("subjects"))
        files = [os.path.basename(s["file"]) for s in w["sources"]]
        check("PubMed + BibTeX by DOI: one work, every source listed",
              files == ["pubmed-baseline.xml", "pubmed-update.xml.gz", "references.bib"], files)
        aside = [s.get("set_aside", False) for s in w["sources"]]
        check("the baseline's version is kept as a source, set aside", aside == [True, False, False], aside)
        check("a reference list's DOI is not the article's", "not.this.one" not in json.dumps(w))

    check("DeleteCitation: the deleted PMID is no work", show(db, "pmid:90000003") is None)
    ids, rc, _ = search_ids(db, "duplicate citation withdrawn")
    check("DeleteCitation: its text is not found", "pmid:90000003" not in ids, ids)

    w = show(db, "pmid:90000002")
    check("PubMed + OpenAlex by DOI and PMID: one work", w and len(w["sources"]) == 2 and
          w.get("openalex_id") == "W9000000001", w and w.get("sources"))
    if w:
        check("MedlineDate '1998 Dec-1999 Jan' is read as 1998-12 (OpenAlex's day wins)",
              w["sources"][1]["record"]["date"] == "1998-12" and w["date"] == "1998-12-01",
              [s["record"].get("date") for s in w["sources"]])
        check("MEDLINE initials 'JP' are written as initials and merge with the full name",
              w["authors"] == ["Kwame Mensah", "João Pedro Ferreira"], w["authors"])
        check("OpenAlex: the abstract is rebuilt from the inverted index in word order",
              w["abstract"].startswith("Monthly malaria cases in 14 districts"), w["abstract"][:60])
        check("OpenAlex: topics are subjects", "Malaria Transmission and Climate" in w["subjects"], w["subjects"])
        check("the work is found by its OpenAlex id too", (show(db, "W9000000001") or {}).get("id") == w["id"])

    w = show(db, "W9000000002")
    check("OpenAlex + arXiv snapshot by the arXiv location: one work",
          w and w["id"] == "1306.10037" and len(w["sources"]) == 2, w and w["id"])
    check("OpenAlex merged id: the merged id leads to the work it was merged into",
          (show(db, "W9000000004") or {}).get("id") == "W9000000003", show(db, "W9000000004"))
    ids, _, _ = search_ids(db, "preprint later merged")
    check("OpenAlex merged id: its text is not found", "W9000000004" not in ids, ids)
    check("OpenAlex API page: its result is read", (show(db, "W9000000005") or {}).get("venue") is None and
          show(db, "W9000000005") is not None)

    w = show(db, "0801.10000")
    check("BibTeX + arXiv snapshot by eprint: one work", w and len(w["sources"]) == 2 and
          "legal informatics" in w.get("subjects", []), w and w.get("sources"))
    ids, _, _ = search_ids(db, "title:glacier")
    gl = show(db, ids[0]) if ids else None
    check("BibTeX: TeX accents decoded, braces dropped, 'and others' truncates",
          gl and gl["title"] == "Gläcier Mapping from Sentinel-2 with U-Nets" and
          gl["authors"] == ["Jörg Müller", "María de la Cruz", "Sanja Petrović"] and gl.get("authors_truncated"),
          gl and (gl["title"], gl["authors"]))
    check("BibTeX: @string macros and month names", (show(db, "pmid:90000001") or {})["sources"][2]["record"].get("date") == "2021-03")

    check("OAI-PMH: a deleted header leaves no work", show(db, "2611.00999") is None)
    w = show(db, "2611.09002")
    check("OAI-PMH arXivRaw: the first version's date", w and w["date"] == "2026-11-17", w and w.get("date"))
    w = show(db, "2611.09001")
    check("OAI-PMH arXiv: keyname, forenames and suffix, TeX in names",
          w and w["authors"] == ["Csaba Balázs", "Chidinma Okafor", "John Smith Jr"], w and w.get("authors"))
    w = show(db, "1811.10074")
    check("OAI-PMH + snapshot: one work, the OAI record's journal reference and DOI",
          w and {"arxiv-oai.xml", "arxiv-sample.jsonl"} <= {os.path.basename(s["file"]) for s in w["sources"]}
          and w.get("doi") == "10.5555/pdx.oai.1" and
          w.get("venue", "").startswith("Invented Journal of Agricultural"), w and (w.get("doi"), w.get("venue")))

    # MEDLINE as NLM wrote it until 2016: <MedlineCitationSet>, bare
    # <MedlineCitation> records, no PubmedData.
    w = show(db, "pmid:90000101")
    check("MEDLINE 2016: a bare MedlineCitation is a work, with its ELocationID DOI",
          w and w["title"].startswith("Rainwater tanks") and w.get("doi") == "10.5555/pdx.medline.1"
          and w["authors"] == ["Keiko Nakamura", "J. W. Mwangi"] and w.get("date") == "2015-06", w)
    w = show(db, "pmid:90000102")
    check("MEDLINE 2016: MedlineDate and a labelled abstract",
          w and w.get("date") == "2014-11" and w["abstract"].startswith("OBJECTIVE: "), w)
    # oai_dc, the format every OAI-PMH repository offers.
    w = show(db, "oai:repository.example.org:4411")
    check("oai_dc: title, creators as Given Family, descriptions joined, the first date, subjects",
          w and w["title"].startswith("Peatland subsidence") and w["authors"] == ["Aino Virtanen", "Cathal O'Brien"]
          and w["abstract"].endswith("within three years.") and w.get("date") == "2025-03-14"
          and w.get("subjects") == ["peatlands", "InSAR"], w)
    check("oai_dc: a doi.org identifier is the DOI, without its URL", w and w.get("doi") == "10.5555/PDX.DC.1", w)
    w = show(db, "2611.09003")
    check("oai_dc: arXiv's record is known by its arXiv id", w and w.get("arxiv_id") == "2611.09003", w)

    # Real OpenAlex works carry "versions" (an arXiv snapshot key): still
    # read as OpenAlex, abstract and authors kept.
    w = show(db, "W9000000001")
    check("OpenAlex works with \"versions\" are read as OpenAlex",
          w and w.get("abstract", "").startswith("Monthly malaria cases") and "Kwame Mensah" in w["authors"], w)

    every = works(db)
    check("stats counts works, not tombstones", stats_works(db) == len(every), (stats_works(db), len(every)))

    # ---------------------------------------------------------- subjects
    ids, rc, _ = search_ids(db, "--subject", "malaria")
    check("--subject matches a whole heading, ignoring case", ids == ["W9000000001"], ids)
    ids, rc, _ = search_ids(db, "--subject", "Malaria Transmission")
    check("--subject does not match part of a heading", ids == [], ids)
    ids, rc, _ = search_ids(db, 'subject:"Heat Stress Disorders"')
    check("subject: in a query", ids == ["pmid:90000001"], ids)
    ids, rc, _ = search_ids(db, "heat", "--subject", "citizen science")
    check("--subject filters a text query", ids == ["W9000000005"], ids)
    rc, out, err = run("search", "--db", db, "--all", "--facets", "subject", "--format", "json", "--limit", "0",
                       "--facet-limit", "1000")
    facets = {f["value"]: f["count"] for f in json.loads(out)["facets"]["subject"]}
    want = {}
    for wk in every:
        for s in set(x for x in wk.get("subjects", [])):
            want[s] = want.get(s, 0) + 1
    check("the subject facet counts each work once per subject", facets == want, (facets, want))
    rc, out, err = run("search", "--db", db, "--subject", " ;. ")
    check("a subject filter with no letters names the problem",
          rc == 2 and 'subject filter " ;. " names no subject' in err, (rc, err))

    # ------------------------------------------- order and incrementality
    base = os.path.join(SAMPLES, "pubmed-baseline.xml")
    upd = os.path.join(SAMPLES, "pubmed-update.xml.gz")
    oa = os.path.join(SAMPLES, "openalex-works.jsonl")
    merged = os.path.join(SAMPLES, "openalex-merged_ids.csv")
    src = os.path.join(T, "src")
    os.makedirs(src)

    def fresh(name, files):
        """A fresh build of copies of files, in a directory of its own."""
        d, own = os.path.join(T, name), os.path.join(T, name + "-src")
        os.makedirs(own)
        for f in files:
            shutil.copy(f, os.path.join(own, os.path.basename(f)))
        rc, out, err = index(d, own)
        return d, rc

    def put(name):
        shutil.copy(name, os.path.join(src, os.path.basename(name)))

    f_all, rc = fresh("fresh-all", [base, upd, oa, merged])
    want = works(f_all)
    # 90000001 (two versions), 90000002 = W9000000001, 1306.10037 (W...02),
    # W9000000003; 90000003 deleted, W9000000004 merged away.
    check("a fresh build of PubMed and OpenAlex files indexes", rc == 0 and len(want) == 4, [w["id"] for w in want])

    # The update file first, the baseline later, each run incremental.
    shutil.rmtree(src)
    os.makedirs(src)
    inc = os.path.join(T, "inc")
    for f in (upd, merged, oa, base):
        put(f)
        rc, out, err = index(inc, src)
    check("files arriving in another order, run by run, give the fresh build",
          works(inc) == want, [w["id"] for w in works(inc)])
    check("... and the same number of works", stats_works(inc) == stats_works(f_all))

    # The update file goes: the baseline's version and the deleted PMID return.
    os.remove(os.path.join(src, os.path.basename(upd)))
    rc, out, err = index(inc, src)
    w = show(inc, "pmid:90000001")
    check("without the update file the baseline's title is back",
          w and w["title"].startswith("Wearable sensors"), w and w["title"])
    check("without the update file the deleted PMID is a work again", show(inc, "pmid:90000003") is not None)
    f2, _ = fresh("fresh-no-update", [base, oa, merged])
    check("and the index equals a fresh build of what is left", works(inc) == works(f2))
    os.remove(os.path.join(src, os.path.basename(merged)))
    rc, out, err = index(inc, src)
    check("without the merged-ids file the merged work returns",
          (show(inc, "W9000000004") or {}).get("id") == "W9000000004", show(inc, "W9000000004"))

    # An update file edited in place: its DeleteCitation taken out, the
    # record-level re-run brings the citation back.
    upd_x = os.path.join(src, "pubmed-update.xml")
    with gzip.open(upd, "rt", encoding="utf-8") as f:
        text = f.read()
    with open(upd_x, "w", encoding="utf-8") as f:
        f.write(text)
    rc, out, err = index(inc, src)
    check("an update file's DeleteCitation removes the PMID on a re-run", show(inc, "pmid:90000003") is None)
    with open(upd_x, "w", encoding="utf-8") as f:
        f.write(text.replace("<DeleteCitation>", "<!--").replace("</DeleteCitation>", "-->"))
    rc, out, err = index(inc, src)
    check("the DeleteCitation edited out of it: the citation is back, one record changed",
          show(inc, "pmid:90000003") is not None and "0 added, 0 updated, 1 removed" in out, out)
    f3, _ = fresh("fresh-edited", [base, upd_x, oa])
    check("and the index equals a fresh build of the edited files", works(inc) == works(f3))
    os.remove(upd_x)
    rc, out, err = index(inc, src)

    # --jobs 2 builds the same index.
    j2 = os.path.join(T, "jobs2")
    shutil.rmtree(src)
    os.makedirs(src)
    for f in (base, upd, oa, merged):
        put(f)
    rc, out, err = index(j2, src, extra=("--jobs", "2"))
    check("--jobs 2 gives the one-process index", rc == 0 and works(j2) == want, (rc, err))

    # Records that share only a PMID, spread over many files: with --jobs
    # each worker holds some of them, and the shards' works must still
    # merge.
    pm = os.path.join(T, "pmonly")
    os.makedirs(pm)
    # Worker k takes records k, k+J, ... of each file: the PubMed file's
    # first record shifts its others onto other workers than their
    # OpenAlex twins.
    with open(os.path.join(pm, "oa.jsonl"), "w") as f:
        for i in range(6):
            f.write(json.dumps({"id": "https://openalex.org/W5%d" % i, "title": "OpenAlex title %d" % i,
                                "ids": {"pmid": "https://pubmed.ncbi.nlm.nih.gov/7770%d" % i}}) + "\n")
    with open(os.path.join(pm, "pm.xml"), "w") as f:
        f.write("<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1</PMID><Article>"
                "<ArticleTitle>A first record</ArticleTitle></Article></MedlineCitation></PubmedArticle>")
        for i in range(6):
            f.write("<PubmedArticle><MedlineCitation><PMID>7770%d</PMID><Article>"
                    "<ArticleTitle>PubMed title %d</ArticleTitle></Article></MedlineCitation>"
                    "</PubmedArticle>" % (i, i))
        f.write("</PubmedArticleSet>")
    one = os.path.join(T, "pm1")
    index(one, pm)
    three = os.path.join(T, "pm3")
    rc, out, err = index(three, pm, extra=("--jobs", "3"))
    check("works joined only by a PMID: 7, whatever the workers", len(works(one)) == 7 and
          works(three) == works(one), ([w["id"] for w in works(three)], [w["id"] for w in works(one)]))

    # A versioned record re-read unchanged costs nothing.
    rc, out, err = index(j2, src, extra=("--full",))
    touched = os.path.join(src, os.path.basename(oa))
    os.utime(touched, None)
    with open(touched, "a") as f:
        f.write("\n")
    rc, out, err = index(j2, src)
    check("a re-read OpenAlex file with a blank line added changes no record",
          "0 added, 0 updated, 0 removed, 4 unchanged" in out, out)

    # ---------------------------------------------------------- bad input
    bad = os.path.join(T, "bad")
    os.makedirs(bad)
    with open(os.path.join(bad, "refs.bib"), "w") as f:
        f.write("@article{ok1, title = {First good entry}, year = 2020}\n"
                "@article{bad1, title = {Never closed, year = 2020,\n\n"
                "@article{ok2, title = {Second good entry}, year = {20x0}}\n"
                "@article{ok3, title = {Third good entry}, year = 2021}\n")
    rc, out, err = index(os.path.join(T, "b1"), os.path.join(bad, "refs.bib"), extra=("--verbose",))
    check("BibTeX: an unclosed entry is named by its line, the next one read",
          rc == 3 and "refs.bib:2: @article bad1: a braced value is not closed before the next entry" in err
          and "3 added" in out, (rc, out, err))
    ok2 = [w for w in works(os.path.join(T, "b1")) if w["title"] == "Second good entry"]
    check("BibTeX: a year with no plausible year in it ({20x0}) keeps the entry, without a date",
          len(ok2) == 1 and "date" not in ok2[0] and "year" not in ok2[0], ok2)
    with open(os.path.join(bad, "years.bib"), "w") as f:
        f.write("@book{y1, title = {Reprinted book}, year = {1875 [2004]}}\n"
                "@article{y2, title = {Seasonal issue}, year = {Autumn 2001}, month = {October}}\n"
                "@article{y3, title = {A range of years}, date = {1984/1986}}\n"
                "@incollection{c1, title = {A chapter}, crossref = {book9}}\n"
                "@book{book9, title = {The Invented Handbook}, year = 2011, doi = {10.5555/book.9}}\n")
    rc, out, err = index(os.path.join(T, "b12"), os.path.join(bad, "years.bib"))
    ws = {w["title"]: w for w in works(os.path.join(T, "b12"))}
    check("BibTeX: the first plausible year of '1875 [2004]', 'Autumn 2001' (with its month) and '1984/1986'",
          [ws.get(t, {}).get("date") for t in ("Reprinted book", "Seasonal issue", "A range of years")]
          == ["1875", "2001-10", "1984"], (rc, err, ws))
    ch = ws.get("A chapter", {})
    check("BibTeX crossref: a chapter takes its book's year and title as venue, not its DOI",
          ch.get("date") == "2011" and ch.get("venue") == "The Invented Handbook" and "doi" not in ch, ch)
    with open(os.path.join(bad, "tex.bib"), "w") as f:
        f.write("@inproceedings{t1, title = {\\textbf{ShapeBots}: Swarm Robots \\& \\emph{Shapes}~at Scale\\ldots},\n"
                "  booktitle = {Proc.\\ UIST \\textendash{} 2019}, year = 2019,\n"
                "  abstract = {See \\href{https://example.org/~me}{our page}, 95\\% of it \\mkbibquote{works}.}}\n")
    rc, out, err = index(os.path.join(T, "b13"), os.path.join(bad, "tex.bib"))
    w = (works(os.path.join(T, "b13")) or [{}])[0]
    check("BibTeX: formatting commands keep their text, symbol commands are their characters",
          w.get("title") == "ShapeBots: Swarm Robots & Shapes at Scale\u2026" and
          w.get("venue") == "Proc. UIST \u2013 2019" and w.get("abstract") == "See our page, 95% of it works.", w)
    rc, out, err = run("search", "--db", os.path.join(T, "b13"), "--format", "jsonl", "shapebots")
    check("and the word a command wrapped is found", '"t1"' in out or "ShapeBots" in out, out)
    with open(os.path.join(bad, "pm.xml"), "w") as f:
        f.write("<PubmedArticleSet>\n<PubmedArticle><MedlineCitation><PMID>11</PMID><Article>"
                "<ArticleTitle>Kept before the break</ArticleTitle></Article></MedlineCitation></PubmedArticle>\n"
                "<PubmedArticle><MedlineCitation><PMID>1x</PMID><Article><ArticleTitle>Bad PMID"
                "</ArticleTitle></Article></MedlineCitation></PubmedArticle>\n"
                "<PubmedArticle><MedlineCitation><PMID>12</PMID><Article><ArticleTitle>Broken <b>tag"
                "</ArticleTitle></Article></MedlineCitation></PubmedArticle>\n</PubmedArticleSet>\n")
    rc, out, err = index(os.path.join(T, "b2"), os.path.join(bad, "pm.xml"), extra=("--verbose",))
    check("PubMed: a bad PMID is named by its line; an XML error by line and column, the records before kept",
          rc == 1 and "pm.xml:3: a PubmedArticle without a valid PMID: 1x" in err and
          "pm.xml:4:" in err and "XML error: mismatched tag" in err and "1 added" in out, (rc, out, err))
    with gzip.open(os.path.join(bad, "cut.xml.gz"), "wt") as f:
        f.write("<PubmedArticleSet>\n")
        for i in range(2000):
            f.write("<PubmedArticle><MedlineCitation><PMID>%d</PMID><Article><ArticleTitle>Record number %d "
                    "of a long update file %x</ArticleTitle></Article></MedlineCitation></PubmedArticle>\n"
                    % (i + 1, i, i * 2654435761 % 4294967296))
        f.write("</PubmedArticleSet>\n")
    with open(os.path.join(bad, "cut.xml.gz"), "rb") as f:
        data = f.read()
    with open(os.path.join(bad, "cut.xml.gz"), "wb") as f:
        f.write(data[:len(data) // 2])
    rc, out, err = index(os.path.join(T, "b3"), os.path.join(bad, "cut.xml.gz"))
    n = len(works(os.path.join(T, "b3")))
    check("PubMed: a truncated .xml.gz keeps the records before the break, and says so",
          rc == 1 and "truncated" in err and 0 < n < 2000, (rc, n, err))
    rc, out, err = index(os.path.join(T, "b4"), os.path.join(SAMPLES, "arxiv-oai.xml"),
                         extra=("--format", "pubmed"))
    check("--format pubmed on an OAI-PMH file: the root is named",
          rc == 1 and "root element <OAI-PMH> is not <PubmedArticleSet>" in err, (rc, err))
    with open(os.path.join(bad, "oa.jsonl"), "w") as f:
        f.write(json.dumps({"id": "https://openalex.org/W77", "title": "Good OpenAlex work"}) + "\n")
        f.write(json.dumps({"id": "https://openalex.org/W78", "title": "Bad index",
                            "abstract_inverted_index": {"word": [0, -3]}}) + "\n")
        f.write(json.dumps({"id": "https://openalex.org/A1", "display_name": "An author, not a work",
                            "authorships": []}) + "\n")
    rc, out, err = index(os.path.join(T, "b5"), os.path.join(bad, "oa.jsonl"), extra=("--format", "openalex",
                                                                                          "--verbose"))
    check("OpenAlex: a bad inverted index and a non-work id are named by line",
          rc == 3 and "oa.jsonl:2: abstract_inverted_index" in err and "oa.jsonl:3: an OpenAlex work without a work id" in err
          and "1 added" in out, (rc, out, err))
    # Two entries with one title and two DOIs are two works.
    with open(os.path.join(bad, "same-title.bib"), "w") as f:
        f.write("@article{e1, title = {Editorial}, doi = {10.5555/ed.1}, year = 2020}\n"
                "@article{e2, title = {Editorial}, doi = {10.5555/ED.2}, year = 2021}\n"
                "@article{e3, title = {Editorial}, doi = {10.5555/ed.1}, journal = {J}}\n")
    rc, out, err = index(os.path.join(T, "b8"), os.path.join(bad, "same-title.bib"))
    ws = works(os.path.join(T, "b8"))
    check("BibTeX: one title, two DOIs: two works (the third entry joins the first by DOI)",
          rc == 0 and len(ws) == 2 and sorted(len(w["sources"]) for w in ws) == [1, 2], [w["id"] for w in ws])

    # A metadata format paperdex does not read is named as such.
    with open(os.path.join(bad, "mods.xml"), "w") as f:
        f.write('<?xml version="1.0"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords>'
                '<record><header><identifier>oai:r.example.org:1</identifier></header><metadata>'
                '<mods xmlns="http://www.loc.gov/mods/v3"><titleInfo><title>T</title></titleInfo></mods>'
                '</metadata></record></ListRecords></OAI-PMH>\n')
    rc, out, err = index(os.path.join(T, "b9"), os.path.join(bad, "mods.xml"))
    check("OAI-PMH: an unread metadata format is named, with the ones read",
          rc == 3 and "metadata format <mods> is not read" in err and "oai_dc" in err, (rc, err))

    # DOIs as people and tools write them meet, and a field with two DOIs
    # merges on either.
    with open(os.path.join(bad, "dois.jsonl"), "w") as f:
        for k, doi in enumerate(["https://doi.org/10.5555/Same.1", "doi:10.5555/same.1", "http://dx.doi.org/10.5555/same.1",
                                 "DOI: 10.5555/same.1", "10.5555/two.a 10.5555/two.b", "10.5555/two.b",
                                 "http://doi.acm.org/10.5555/two.a", "n/a"]):
            f.write(json.dumps({"id": "d%d" % k, "title": "DOI form %d" % k, "doi": doi}) + "\n")
    rc, out, err = index(os.path.join(T, "b10"), os.path.join(bad, "dois.jsonl"))
    ws = works(os.path.join(T, "b10"))
    groups = sorted((len(w["sources"]), w["id"]) for w in ws)
    check("DOIs in every spelling meet, two DOIs in one field merge on either, 'n/a' is no DOI",
          rc == 0 and groups == [(1, "d7"), (3, "d4"), (4, "d0")], (groups, err))
    w = {w["id"]: w for w in ws}
    check("one spelling: the DOI without its URL or prefix; two DOIs kept, a space apart",
          w.get("d0", {}).get("doi") == "10.5555/Same.1" and w.get("d4", {}).get("doi") == "10.5555/two.a 10.5555/two.b"
          and "doi" not in w.get("d7", {"doi": 1}), w)

    # A PubMed Central id has one form whatever the source wrote.
    with open(os.path.join(bad, "pmc.jsonl"), "w") as f:
        for k, pmc in enumerate(["PMC6022861", "pmc6022862", "6022863",
                                 "https://www.ncbi.nlm.nih.gov/pmc/articles/PMC6022864/"]):
            f.write(json.dumps({"id": "p%d" % k, "title": "PMC form %d" % k, "pmcid": pmc}) + "\n")
    with open(os.path.join(bad, "pmc-oa.jsonl"), "w") as f:
        f.write(json.dumps({"id": "https://openalex.org/W95", "title": "OpenAlex PMC form",
                            "ids": {"pmcid": "https://www.ncbi.nlm.nih.gov/pmc/articles/6022865"}}) + "\n")
    rc, out, err = index(os.path.join(T, "b11"), os.path.join(bad, "pmc.jsonl"), os.path.join(bad, "pmc-oa.jsonl"))
    forms = sorted(w.get("pmcid") for w in works(os.path.join(T, "b11")))
    check("PMC ids: one form, PMC and digits, from every spelling",
          forms == ["PMC6022861", "PMC6022862", "PMC6022863", "PMC6022864", "PMC6022865"], forms)

    # An API page saved pretty-printed (through jq): read as one document.
    page = {"meta": {"count": 2}, "results": [
        {"id": "https://openalex.org/W81", "title": "A pretty page's first work"},
        {"id": "https://openalex.org/W82", "title": "A pretty page's second work",
         "abstract_inverted_index": {"second": [1], "words": [0]}}]}
    with open(os.path.join(bad, "page.json"), "w") as f:
        f.write(json.dumps(page, indent=2) + "\n")
    rc, out, err = index(os.path.join(T, "b6"), os.path.join(bad, "page.json"))
    w = show(os.path.join(T, "b6"), "W82")
    check("OpenAlex: a pretty-printed API page is read whole",
          rc == 0 and "2 added" in out and w and w["abstract"] == "words second", (rc, out, err))
    with open(os.path.join(bad, "broken-page.json"), "w") as f:
        f.write('{\n  "meta": {,\n  "results": []\n}\n')
    rc, out, err = index(os.path.join(T, "b7"), os.path.join(bad, "broken-page.json"), extra=("--verbose",))
    check("a malformed pretty-printed document is one bad record, named",
          rc == 3 and "broken-page.json:1: malformed JSON document near byte" in err, (rc, out, err))

    # MEDLINE text as exports and hand edits write it: CRLF line ends, a
    # tag without its padding, text between records, a record without a
    # PMID; the PMID joins it to the PubMed XML record of that PMID.
    med = os.path.join(T, "med")
    os.makedirs(med)
    with open(os.path.join(med, "export.nbib"), "wb") as f:
        f.write("\r\n".join([
            "PMID- 90000002", "TI  - Heat exposure, retold in an export.", "FAU - Varga, Sun-Hee",
            "AU  - Varga SH", "", "Saved from PubMed on a Tuesday.", "",
            "PMID-90000411", "TI-Tags without their padding.", "DP  - 2020 Dec-2021 Jan", "",
            "TI  - A record that lost its PMID line.", "", ""]).encode())
    db = os.path.join(T, "med-ix")
    rc, out, err = index(db, os.path.join(SAMPLES, "pubmed-baseline.xml"), os.path.join(med, "export.nbib"))
    w = show(db, "pmid:90000002")
    check("MEDLINE text + PubMed XML by PMID: one work, both sources",
          w and sorted(os.path.basename(s["file"]) for s in w["sources"]) == ["export.nbib", "pubmed-baseline.xml"],
          (w, err))
    w = show(db, "pmid:90000411")
    check("MEDLINE text: 'PMID-N' and 'TI-' read, a range of months is its first",
          w and w["title"] == "Tags without their padding." and w.get("date") == "2020-12", (w, err))
    check("MEDLINE text: stray text and a record without a PMID are named with their lines",
          rc == 3 and "export.nbib:6: text outside a MEDLINE record" in err and
          "export.nbib:12: a MEDLINE record without a valid PMID" in err, (rc, err))

    # RIS as other exporters write it: a record without ER before the next
    # TY, dates in PY, Y1 and DA (one of another year), a DOI as a URL, a PubMed
    # record's accession number, text outside records.
    with open(os.path.join(med, "export.ris"), "w") as f:
        f.write("\n".join([
            "TY  - JOUR", "TI  - An export whose ER went missing", "PY  - YEAR///", "PY  - 2019/04//",
            "Y1  - 2019/04/17/", "DA  - 2018/12/01",
            "DO  - https://doi.org/10.5555/PDX.RIS.9",
            "TY  - JOUR", "TI  - A PubMed record by way of EndNote", "AN  - 90000003", "DB  - PubMed", "ER  -",
            "", "Exported by hand.", "",
            "TY  - GEN", "AB  - Only an abstract here.", "ER  - ", ""]))
    db = os.path.join(T, "ris-ix")
    rc, out, err = index(db, os.path.join(SAMPLES, "pubmed-baseline.xml"), os.path.join(med, "export.ris"))
    ws = {w["title"]: w for w in works(db)}
    w = ws.get("An export whose ER went missing")
    check("RIS: a record without ER ends at the next TY; the most precise date in PY's year; a DOI URL",
          w and w.get("date") == "2019-04-17" and (w.get("doi") or "").lower() == "10.5555/pdx.ris.9", (w, err))
    w = show(db, "pmid:90000003")
    check("RIS: a PubMed record's AN is its PMID (DB PubMed): one work with the XML record",
          w and sorted(os.path.basename(s["file"]) for s in w["sources"]) == ["export.ris", "pubmed-baseline.xml"],
          (w, err))
    check("RIS: an abstract alone is a work; text outside records named with its line",
          "Only an abstract here." in [x.get("abstract") for x in ws.values()] and rc == 3 and
          "export.ris:14: text outside an RIS record" in err, (rc, err))

    # Exports caught half written: an RIS record without its ER, a MEDLINE
    # record whose last line has no newline.  Named, and every work the
    # files gave before stays as it was.
    half = os.path.join(T, "half")
    os.makedirs(half)
    for name in ("pubmed-export.nbib", "scopus-export.ris"):
        shutil.copy(os.path.join(SAMPLES, name), half)
    db = os.path.join(T, "half-ix")
    rc, out, err = index(db, half)
    before = works(db)
    for name, cut in (("pubmed-export.nbib", 1505), ("scopus-export.ris", 700)):
        with open(os.path.join(SAMPLES, name), "rb") as f:
            data = f.read()
        with open(os.path.join(half, name), "wb") as f:
            f.write(data[:cut])
    rc, out, err = index(db, half)
    check("half-written MEDLINE and RIS exports: their cut records named, no work lost or changed",
          rc == 3 and "pubmed-export.nbib:45: the file ends inside a record (its last line has no newline)" in err
          and "scopus-export.ris:22: the file ends inside a record (no ER line)" in err and works(db) == before,
          (rc, err, len(before)))

    # ---------------------------------------------------------- encodings
    # UTF-16 and UTF-32 by their byte order mark, UTF-16 by the NULs of its
    # ASCII without one, and the encoding JabRef's first line declares,
    # are read as the text they hold; XML declared in another encoding is
    # expat's to read.
    enc = os.path.join(T, "enc")
    os.makedirs(enc)
    title = "Sval\u00e5rd Moss at 25\u00b0: \u03b2 Decay of \U0001d53c"
    bib = ("@article{%s,\n  title = {" + title + "},\n"
           "  author = {M\u00fcller, J\u00fcrgen and \u5f20\u4f1f},\n  year = {2020}\n}\n")
    latin = ("%% Encoding: %s\n\n@article{%s,\n  title = {Caf\u00e9 Lattice at 25\u00b0 C%s},\n"
             "  author = {M\u00fcller, J\u00fcrgen},\n  year = {2019}\n}\n")
    cases = [
        ("le.bib", b"\xff\xfe" + (bib % "e1").encode("utf-16-le"), title),
        ("be.bib", b"\xfe\xff" + (bib % "e2").encode("utf-16-be"), title),
        ("le-nomark.bib", (bib % "e3").encode("utf-16-le"), title),
        ("be-nomark.bib", (bib % "e4").encode("utf-16-be"), title),
        ("le32.bib", b"\xff\xfe\0\0" + (bib % "e5").encode("utf-32-le"), title),
        ("le.bib.gz", gzip.compress(b"\xff\xfe" + (bib % "e6").encode("utf-16-le")), title),
        ("cp1252.bib", (latin % ("windows-1252", "e7", " \u2013 \u201cfits\u201d")).encode("cp1252"),
         "Caf\u00e9 Lattice at 25\u00b0 C \u2013 \u201cfits\u201d"),
        ("latin1.bib", (latin % ("ISO8859_1", "e8", "")).encode("latin-1"), "Caf\u00e9 Lattice at 25\u00b0 C"),
    ]
    for name, data, want in cases:
        with open(os.path.join(enc, name), "wb") as f:
            f.write(data)
        db = os.path.join(T, "enc-" + name)
        rc, out, err = index(db, os.path.join(enc, name))
        ws = works(db)
        got = [(w["title"], w["authors"]) for w in ws]
        want_authors = ["J\u00fcrgen M\u00fcller"] + ([] if "Caf" in want else ["\u5f20\u4f1f"])
        check("%s: read as the text it holds" % name, rc == 0 and got == [(want, want_authors)],
              (rc, got, err))
    x = ('<?xml version="1.0" encoding="%s"?>\n<PubmedArticleSet><PubmedArticle><MedlineCitation>'
         '<PMID>%s</PMID><Article><ArticleTitle>Sval\u00e5rd Moss %s Growth</ArticleTitle><Abstract>'
         '<AbstractText>Moss grows.</AbstractText></Abstract></Article></MedlineCitation></PubmedArticle>'
         '</PubmedArticleSet>\n')
    for name, data, pmid, word in [
            ("pm16.xml", b"\xff\xfe" + (x % ("UTF-16", "99001", "\u03b2")).encode("utf-16-le"), "99001", "\u03b2"),
            ("pmlatin.xml", (x % ("ISO-8859-1", "99002", "\u00df")).encode("latin-1"), "99002", "\u00df")]:
        with open(os.path.join(enc, name), "wb") as f:
            f.write(data)
        db = os.path.join(T, "enc-" + name)
        rc, out, err = index(db, os.path.join(enc, name))
        w = show(db, "pmid:" + pmid)
        check("%s: PubMed XML in its declared encoding" % name,
              rc == 0 and w and w["title"] == "Sval\u00e5rd Moss %s Growth" % word, (rc, w, err))
    # Past the converter's buffers: characters cut at every boundary.
    lines = "".join(json.dumps({"id": "u%d" % i, "title": "Moss %d \u00e9t\u00e9 \U0001d53c \u5f20" % i},
                               ensure_ascii=False) + "\n" for i in range(3000))
    with open(os.path.join(enc, "many.jsonl"), "wb") as f:
        f.write(b"\xff\xfe" + lines.encode("utf-16-le"))
    db = os.path.join(T, "enc-many")
    rc, out, err = index(db, os.path.join(enc, "many.jsonl"))
    titles = sorted(w["title"] for w in works(db))
    check("a UTF-16 file of 3,000 lines: every title whole",
          rc == 0 and titles == sorted("Moss %d \u00e9t\u00e9 \U0001d53c \u5f20" % i for i in range(3000)),
          (rc, len(titles), err[:300]))
    # What the encoding does not allow is named with the line, the rest read.
    with open(os.path.join(enc, "cp1252-bad.bib"), "wb") as f:
        f.write((latin % ("windows-1252", "e9", "")).encode("cp1252").replace(b"Lattice", b"La\x81ttice") +
                b"\n@article{e10,\n  title = {Second Moss},\n  year = {2020}\n}\n")
    rc, out, err = index(os.path.join(T, "enc-bad"), os.path.join(enc, "cp1252-bad.bib"))
    check("a byte windows-1252 lacks: that entry named, converted from the declared encoding; the next read",
          rc == 3 and "cp1252-bad.bib:3: title is not valid UTF-8" in err and
          "converted from windows-1252" in err and "1 added" in out, (rc, out, err))
    with open(os.path.join(enc, "unknown.bib"), "wb") as f:
        f.write((latin % ("Klingon-9", "e11", "")).encode("latin-1"))
    rc, out, err = index(os.path.join(T, "enc-unknown"), os.path.join(enc, "unknown.bib"))
    check("an encoding iconv does not know: named in the message, the file read as UTF-8",
          rc == 3 and "declares Klingon-9, which cannot be converted here" in err, (rc, out, err))
    with open(os.path.join(enc, "cut.jsonl"), "wb") as f:
        f.write(b"\xff\xfe" + '{"id": "c1", "title": "Whole"}\n{"id": "c2", "title": "Cut"}'.encode("utf-16-le")[:-1])
    rc, out, err = index(os.path.join(T, "enc-cut"), os.path.join(enc, "cut.jsonl"))
    check("a UTF-16 file cut inside a character: the last line named, the first read",
          rc == 3 and "cut.jsonl:2: invalid UTF-8" in err and "converted from UTF-16LE" in err and
          "1 added" in out, (rc, out, err))
    def index_file(name, text):
        """The index of one file `name` holding text, written here."""
        with open(os.path.join(enc, name), "w") as f:
            f.write(text)
        db = os.path.join(T, "one-" + name)
        index(db, os.path.join(enc, name))
        return db

    # A suffix written last ("Last, First, Jr.", as exports write it) or in
    # BibTeX's own place ("Last, Jr., First"): the same name.
    db = index_file("suffix.bib", "@article{s1,\n  title = {Moss Suffixes},\n  year = 2004,\n"
                    "  author = {Sherwin, Joan F., Jr. and Reade, Jr., Jonas M. and Vale, III, Ann and Orr, Tom, II}\n}\n")
    got = (works(db) or [{}])[0].get("authors")
    check("BibTeX: a suffix after the given name or before it is the suffix",
          got == ["Joan F. Sherwin Jr.", "Jonas M. Reade Jr.", "Ann Vale III", "Tom Orr II"], got)
    # Crossref's HTML in an OpenAlex title and abstract: plain text.
    db = index_file("oa-markup.jsonl", json.dumps({
        "id": "https://openalex.org/W99004",
        "title": "Moss under CO<sub>2</sub>: an <i>in situ</i> study of <scp>Sphagnum</scp> &amp; lichens",
        "publication_year": 2020,
        "abstract_inverted_index": {"Moss": [0], "grew": [1], "<i>fast</i>": [2]}}) + "\n")
    w = show(db, "W99004") or {}
    check("OpenAlex: HTML in the title and abstract is plain text",
          w.get("title") == "Moss under CO2: an in situ study of Sphagnum & lichens" and
          w.get("abstract") == "Moss grew fast", w)
    check("and CO2 is found as written", search_ids(db, "CO2")[0] == ["W99004"], search_ids(db, "CO2"))
    # Scopus's RIS and BibTeX keep the title's HTML too.
    db = index_file("scopus-markup.ris", "TY  - JOUR\nTI  - Moss uptake of CO<inf>2</inf> by <i>in situ</i> "
                    "Ti&amp;O<inf>2</inf> films\nAU  - Doe, Jane\nPY  - 2021\nAB  - Uptake rose "
                    "(R<sup>2</sup> = 0.9).\nER  - \n")
    w = (works(db) or [{}])[0]
    check("RIS: HTML in the title and abstract is plain text",
          w.get("title") == "Moss uptake of CO2 by in situ Ti&O2 films" and
          w.get("abstract") == "Uptake rose (R2 = 0.9).", w)
    db = index_file("scopus-markup.bib", "@article{m1,\n  title = {Moss and CO<inf>2</inf> in "
                    "{\\textit{situ}} \\& <i>vivo</i>},\n  year = 2020\n}\n")
    w = (works(db) or [{}])[0]
    check("BibTeX: HTML in the title is plain text, TeX as before",
          w.get("title") == "Moss and CO2 in situ & vivo", w)
    # Inline markup written hard against the words around it.
    db = index_file("inline.xml",
                    "<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>99003</PMID><Article>"
                    "<ArticleTitle>Moss at the<i>MOS1</i>locus under <b>heat</b> and CO<sub>2</sub></ArticleTitle>"
                    "<Abstract><AbstractText>Growth rose (r<sup>2</sup>=0.5; p<sub>trend</sub>) near the"
                    "<i>MOS1</i>region, in <i>Sphagnum</i>.</AbstractText></Abstract>"
                    "</Article></MedlineCitation></PubmedArticle></PubmedArticleSet>\n")
    w = show(db, "pmid:99003") or {}
    check("PubMed: emphasis against words is a word boundary, sub- and superscripts join",
          w.get("title") == "Moss at the MOS1 locus under heat and CO2" and
          w.get("abstract") == "Growth rose (r2=0.5; ptrend) near the MOS1 region, in Sphagnum.", w)
    check("and the word in italics is found as a word",
          search_ids(db, '"MOS1 locus"')[0] == ["pmid:99003"], search_ids(db, '"MOS1 locus"'))
finally:
    shutil.rmtree(T, ignore_errors=True)
done()
