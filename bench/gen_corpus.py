#!/usr/bin/env python3
"""gen_corpus.py -- a synthetic corpus of works whose term statistics look
like real arXiv abstracts, for benchmarks at sizes no sample has.

usage: gen_corpus.py [--seed S] [--learn FILE] [--format F] N OUT.gz

--format jsonl (default), medline, medline2016, oaidc, openalex or
bibtex: the same works written as paperdex's JSON lines, a MEDLINE/PubMed
XML file (PubmedArticleSet), one in NLM's form until 2016
(MedlineCitationSet), OAI-PMH answers in oai_dc and in arXiv's own
format, OpenAlex works JSON
lines (the abstract as an abstract_inverted_index), or BibTeX, so that
readers can be compared on one content.  The categories stand in for subjects (MeSH headings,
topics, keywords) in the other formats.

Everything is learned at run time from FILE (default
../shared/data/arxiv-101k.jsonl.gz) and nothing of it is stored:
  * a unigram model of abstract words and one of title words, per primary
    category (the 60 most common) and overall: a work picks its
    categories from the real category lists, then draws 70% of its words
    from its category's model and 30% from the overall one, so that words
    co-occur by topic as they do in real abstracts and document
    frequencies follow the real Zipf curve;
  * the lengths of abstracts and titles (in words), drawn from their real
    distributions;
  * the number of authors, and names made by pairing a real given name
    with a real family name at random (no real author list is copied);
  * the dates, drawn from the real ones.
Sentences are random word sequences cut at real sentence lengths, so no
sentence of the source is reproduced.  Output is paperdex's own JSON-lines
schema (docs/jsonl.md), gzip level 1, written as it is generated (memory
is the models, not the corpus).  The same seed gives the same corpus.
"""
import gzip
import json
from xml.sax.saxutils import escape
import os
import random
import re
import sys
from collections import Counter, defaultdict
from itertools import accumulate

WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-']*|[0-9]+(?:\.[0-9]+)?")


def learn(path, max_records=None):
    abs_all, tit_all = Counter(), Counter()
    abs_cat, tit_cat = defaultdict(Counter), defaultdict(Counter)
    abs_len, tit_len, sent_len, n_auth = [], [], [], []
    given, family, cats, dates = Counter(), Counter(), [], []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if max_records and i >= max_records:
                break
            try:
                r = json.loads(line)
            except ValueError:
                continue
            c = (r.get("categories") or "").split()
            if not c:
                continue
            cats.append(" ".join(c))
            primary = c[0]
            a = WORD.findall(r.get("abstract") or "")
            t = WORD.findall(r.get("title") or "")
            if not a or not t:
                continue
            abs_len.append(len(a))
            tit_len.append(len(t))
            for s in re.split(r"(?<=[.!?])\s+", (r.get("abstract") or "").strip()):
                n = len(WORD.findall(s))
                if n:
                    sent_len.append(n)
            abs_all.update(w.lower() for w in a)
            tit_all.update(t)
            abs_cat[primary].update(w.lower() for w in a)
            tit_cat[primary].update(t)
            ap = r.get("authors_parsed") or []
            n_auth.append(max(1, len(ap)))
            for p in ap:
                if p and p[0]:
                    family[p[0]] += 1
                if len(p) > 1 and p[1]:
                    given[p[1]] += 1
            d = r.get("update_date") or ""
            if re.match(r"^\d{4}-\d{2}-\d{2}$", d):
                dates.append(d)
    top = [c for c, _ in Counter(x.split()[0] for x in cats).most_common(60)]
    return dict(abs_all=abs_all, tit_all=tit_all,
                abs_cat={c: abs_cat[c] for c in top}, tit_cat={c: tit_cat[c] for c in top},
                abs_len=abs_len, tit_len=tit_len, sent_len=sent_len, n_auth=n_auth,
                given=given, family=family, cats=cats, dates=dates)


class Model:
    """A unigram model sampled with cumulative weights (bisect in C)."""

    def __init__(self, counter):
        items = counter.most_common()
        self.words = [w for w, _ in items]
        self.cum = list(accumulate(n for _, n in items))

    def draw(self, rng, k):
        return rng.choices(self.words, cum_weights=self.cum, k=k)


def inverted(text):
    d = {}
    for i, w in enumerate(text.split()):
        d.setdefault(w, []).append(i)
    return d


def write_rec(f, fmt, k, rec):
    """One work in the format asked for."""
    if fmt == "jsonl":
        f.write(json.dumps(rec, ensure_ascii=False) + "\n")
        return
    doi = "10.5555/syn.%d" % k
    y, m, d = rec["date"].split("-")
    if fmt in ("medline", "medline2016"):
        au = "".join("<Author><LastName>%s</LastName><ForeName>%s</ForeName></Author>"
                     % (escape(a.split(" ", 1)[1]), escape(a.split(" ", 1)[0])) if " " in a else
                     "<Author><CollectiveName>%s</CollectiveName></Author>" % escape(a)
                     for a in rec["authors"])
        mesh = "".join("<MeshHeading><DescriptorName>%s</DescriptorName></MeshHeading>" % escape(c)
                       for c in rec["categories"])
        if fmt == "medline2016":  # NLM's form until 2016: no PubmedData
            f.write("<MedlineCitation Status=\"MEDLINE\"><PMID Version=\"1\">%d</PMID>"
                    "<Article><Journal><JournalIssue><PubDate><Year>%s</Year><Month>%s</Month><Day>%s</Day>"
                    "</PubDate></JournalIssue><Title>Synthetic Journal %d</Title></Journal>"
                    "<ArticleTitle>%s</ArticleTitle><ELocationID EIdType=\"doi\">%s</ELocationID>"
                    "<Abstract><AbstractText>%s</AbstractText></Abstract>"
                    "<AuthorList>%s</AuthorList></Article><MeshHeadingList>%s</MeshHeadingList>"
                    "</MedlineCitation>\n"
                    % (10000000 + k, y, m, d, k % 500, escape(rec["title"]), doi, escape(rec["abstract"]),
                       au, mesh))
            return
        f.write("<PubmedArticle><MedlineCitation Status=\"MEDLINE\"><PMID Version=\"1\">%d</PMID>"
                "<Article><Journal><JournalIssue><PubDate><Year>%s</Year><Month>%s</Month><Day>%s</Day>"
                "</PubDate></JournalIssue><Title>Synthetic Journal %d</Title></Journal>"
                "<ArticleTitle>%s</ArticleTitle><Abstract><AbstractText>%s</AbstractText></Abstract>"
                "<AuthorList>%s</AuthorList></Article><MeshHeadingList>%s</MeshHeadingList></MedlineCitation>"
                "<PubmedData><ArticleIdList><ArticleId IdType=\"pubmed\">%d</ArticleId>"
                "<ArticleId IdType=\"doi\">%s</ArticleId></ArticleIdList></PubmedData></PubmedArticle>\n"
                % (10000000 + k, y, m, d, k % 500, escape(rec["title"]), escape(rec["abstract"]), au, mesh,
                   10000000 + k, doi))
    elif fmt == "oaidc":
        cr = "".join("<dc:creator>%s</dc:creator>" % escape(", ".join(reversed(a.split(" ", 1))))
                     for a in rec["authors"])
        sub = "".join("<dc:subject>%s</dc:subject>" % escape(c) for c in rec["categories"])
        f.write("<record><header><identifier>oai:synthetic.example.org:%d</identifier>"
                "<datestamp>%s</datestamp></header><metadata><oai_dc:dc>"
                "<dc:title>%s</dc:title>%s%s<dc:description>%s</dc:description><dc:date>%s</dc:date>"
                "<dc:identifier>https://doi.org/%s</dc:identifier></oai_dc:dc></metadata></record>\n"
                % (k, rec["date"], escape(rec["title"]), cr, sub, escape(rec["abstract"]), rec["date"], doi))
    elif fmt == "oaiarxiv":  # arXiv's own metadata format, as its OAI-PMH serves it
        aid = "%02d%02d.%05d" % (int(y) % 100, int(m), k % 100000)
        au = "".join("<author><keyname>%s</keyname><forenames>%s</forenames></author>"
                     % (escape(a.split(" ", 1)[1]), escape(a.split(" ", 1)[0])) if " " in a else
                     "<author><keyname>%s</keyname></author>" % escape(a) for a in rec["authors"])
        f.write("<record><header><identifier>oai:arXiv.org:%s</identifier><datestamp>%s</datestamp>"
                "</header><metadata><arXiv xmlns=\"http://arxiv.org/OAI/arXiv/\"><id>%s</id>"
                "<created>%s</created><authors>%s</authors><title>%s</title><categories>%s</categories>"
                "<doi>%s</doi><abstract>%s</abstract></arXiv></metadata></record>\n"
                % (aid, rec["date"], aid, rec["date"], au, escape(rec["title"]), " ".join(rec["categories"]),
                   doi, escape(rec["abstract"])))
    elif fmt == "openalex":
        w = {"id": "https://openalex.org/W%d" % (9000000000 + k), "doi": "https://doi.org/" + doi,
             "title": rec["title"], "display_name": rec["title"],
             "publication_year": rec["year"], "publication_date": rec["date"],
             "ids": {"openalex": "https://openalex.org/W%d" % (9000000000 + k), "doi": "https://doi.org/" + doi},
             "primary_location": {"source": {"display_name": "Synthetic Journal %d" % (k % 500)}},
             "authorships": [{"author_position": "middle", "author": {"display_name": a}} for a in rec["authors"]],
             "topics": [{"display_name": c, "score": 0.9} for c in rec["categories"]],
             "abstract_inverted_index": inverted(rec["abstract"]),
             "cited_by_count": k % 37, "updated_date": rec["date"] + "T00:00:00"}
        f.write(json.dumps(w, ensure_ascii=False) + "\n")
    elif fmt == "bibtex":
        def b(s):
            return s.replace("{", "").replace("}", "")
        f.write("@article{syn%07d,\n  title = {%s},\n  author = {%s},\n  journal = {Synthetic Journal %d},\n"
                "  year = %s,\n  month = %d,\n  doi = {%s},\n  keywords = {%s},\n  abstract = {%s}\n}\n\n"
                % (k, b(rec["title"]), " and ".join(b(a) for a in rec["authors"]), k % 500, y, int(m), doi,
                   ", ".join(rec["categories"]), b(rec["abstract"])))


    elif fmt == "nbib":  # PubMed's MEDLINE text, its values wrapped as PubMed wraps them
        def tag(t, v):
            out, line = [], ""
            for w in v.split():
                if line and len(line) + 1 + len(w) > 80:
                    out.append(line)
                    line = w
                else:
                    line = line + " " + w if line else w
            out.append(line)
            return "%-4s- %s\n" % (t, "\n      ".join(out))
        au = "".join(tag("FAU", ", ".join(reversed(a.split(" ", 1)))) +
                     tag("AU", "%s %s" % (a.split(" ", 1)[1], a[0])) if " " in a else tag("CN", a)
                     for a in rec["authors"])
        f.write(tag("PMID", str(10000000 + k)) + "OWN - NLM\nSTAT- MEDLINE\n" +
                tag("DP", "%s %s %d" % (y, MONTHS[int(m) - 1], int(d))) + tag("TI", rec["title"]) +
                tag("LID", doi + " [doi]") + tag("AB", rec["abstract"]) + au + "LA  - eng\n" +
                tag("JT", "Synthetic Journal %d" % (k % 500)) +
                "".join(tag("MH", c) for c in rec["categories"]) + "\n")
    elif fmt == "ris":  # as Scopus exports it
        au = "".join("AU  - %s\n" % ", ".join(reversed(a.split(" ", 1))) for a in rec["authors"])
        f.write("TY  - JOUR\nTI  - %s\n%sPY  - %s\nDA  - %s/%s/%s\nJO  - Synthetic Journal %d\n"
                "DO  - %s\nAB  - %s\n%sDB  - Scopus\nER  - \n\n"
                % (rec["title"], au, y, y, m, d, k % 500, doi, rec["abstract"],
                   "".join("KW  - %s\n" % c for c in rec["categories"])))


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
FORMATS = ("jsonl", "medline", "medline2016", "oaidc", "oaiarxiv", "openalex", "bibtex", "nbib", "ris")
HEADS = {"medline": '<?xml version="1.0" encoding="UTF-8"?>\n<PubmedArticleSet>\n',
         "medline2016": '<?xml version="1.0" encoding="UTF-8"?>\n<MedlineCitationSet>\n',
         "oaidc": '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">'
                  '<ListRecords xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" '
                  'xmlns:dc="http://purl.org/dc/elements/1.1/">\n',
         "oaiarxiv": '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">'
                     '<ListRecords>\n'}
TAILS = {"medline": "</PubmedArticleSet>\n", "medline2016": "</MedlineCitationSet>\n",
         "oaidc": "</ListRecords></OAI-PMH>\n", "oaiarxiv": "</ListRecords></OAI-PMH>\n"}


def main(argv):
    seed, src, fmt = 20261122, None, "jsonl"
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--seed":
            seed = int(argv[i + 1]); i += 1
        elif argv[i] == "--learn":
            src = argv[i + 1]; i += 1
        elif argv[i] == "--format":
            fmt = argv[i + 1]; i += 1
        elif argv[i] in ("-h", "--help"):
            print(__doc__); return 0
        else:
            args.append(argv[i])
        i += 1
    if len(args) != 2 or fmt not in FORMATS:
        sys.stderr.write(__doc__)
        return 2
    n, out = int(args[0]), args[1]
    here = os.path.dirname(os.path.abspath(__file__))
    src = src or os.path.join(here, "..", "..", "shared", "data", "arxiv-101k.jsonl.gz")
    st = learn(src)
    rng = random.Random(seed)
    abs_all, tit_all = Model(st["abs_all"]), Model(st["tit_all"])
    abs_cat = {c: Model(m) for c, m in st["abs_cat"].items()}
    tit_cat = {c: Model(m) for c, m in st["tit_cat"].items()}
    given, family = Model(st["given"]), Model(st["family"])
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=1) as f:
        f.write(HEADS.get(fmt, ""))
        for k in range(n):
            cats = rng.choice(st["cats"])
            primary = cats.split()[0]
            la, lt = rng.choice(st["abs_len"]), rng.choice(st["tit_len"])
            ca, ct = abs_cat.get(primary, abs_all), tit_cat.get(primary, tit_all)
            na = sum(1 for _ in range(la) if rng.random() < 0.7)
            words = ca.draw(rng, na) + abs_all.draw(rng, la - na)
            rng.shuffle(words)
            sentences, pos = [], 0
            while pos < len(words):
                m = rng.choice(st["sent_len"])
                s = words[pos:pos + m]
                pos += m
                sentences.append(s[0][:1].upper() + s[0][1:] + (" " + " ".join(s[1:]) if len(s) > 1 else "") + ".")
            nt = sum(1 for _ in range(lt) if rng.random() < 0.7)
            title = ct.draw(rng, nt) + tit_all.draw(rng, lt - nt)
            rng.shuffle(title)
            date = rng.choice(st["dates"])
            authors = [g + " " + fa for g, fa in zip(given.draw(rng, min(rng.choice(st["n_auth"]), 30)),
                                                     family.draw(rng, 30))]
            rec = {"id": "syn:%07d" % k, "title": " ".join(title),
                   "abstract": " ".join(sentences), "authors": authors,
                   "categories": cats.split(), "year": int(date[:4]), "date": date}
            write_rec(f, fmt, k, rec)
        f.write(TAILS.get(fmt, ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
