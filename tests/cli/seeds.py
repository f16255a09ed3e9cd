#!/usr/bin/env python3
"""seeds.py PAPERDEX SHARED_DIR

The five researcher-profile pages in SHARED_DIR/seeds, read by paperdex and
checked block by block:

* list, abstracts and listing pages: every field of every block against an
  independent reading of the page here (plain line patterns);
* profile and compact pages: against expectations written down by reading
  the pages (the compact page's title/author split of every block);
* dates without a year, resolved against --page-date and against the file's
  modification time;
* all five indexed together: the number of distinct works, which works
  merged from which files, HelixFold, and the author filter for Zhihua Wu;
* merging with JSONL and arXiv records, and boilerplate that must not merge.
"""
import json, os, re, shutil, subprocess, sys, tempfile

PDX, SHARED = sys.argv[1], sys.argv[2]
SEEDS = os.path.join(SHARED, "seeds")
if not os.path.isdir(SEEDS):
    print("skip: no seed pages at %s (../shared is not beside the checkout)" % SEEDS)
    sys.exit(77)  # CTest SKIP_RETURN_CODE
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done  # noqa: E402


def run(*args, ok=(0,)):
    p = subprocess.run([PDX] + list(args), capture_output=True, text=True)
    if p.returncode not in ok:
        raise RuntimeError("%s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr))
    return p


def works(db):
    out = run("search", "--db", db, "--all", "--limit", "10000", "--format", "jsonl").stdout
    return [json.loads(l) for l in out.splitlines()]


def page(prefix):
    name = [f for f in os.listdir(SEEDS) if f.startswith(prefix)][0]
    return os.path.join(SEEDS, name)


def lines(path):
    """(line number, text) of the non-blank lines."""
    with open(path, encoding="utf-8") as f:
        return [(i + 1, l.strip()) for i, l in enumerate(f) if l.strip()]


def by_line(ws):
    return {w["sources"][0]["line"]: w for w in ws}


MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
HEADER = re.compile(r"(\d+(?:\.\d+)?)?([A-Z]{2})(%s) (\d{1,2})(?:, (\d{4}))?(Code)?$" % "|".join(MONTHS))


def resolve(mon, day, year, ref):
    if year:
        return "%s-%02d-%02d" % (year, MONTHS.index(mon) + 1, int(day))
    m, d = MONTHS.index(mon) + 1, int(day)
    y = ref[0] if (m, d) <= (ref[1], ref[2]) else ref[0] - 1
    return "%d-%02d-%02d" % (y, m, d)


tmp = tempfile.mkdtemp(prefix="pdx-seeds-")
REF = "2026-07-01"
ref = tuple(int(x) for x in REF.split("-"))


def index_one(prefix, *extra):
    db = os.path.join(tmp, prefix + "".join(extra).replace("-", ""))
    run("index", "--quiet", "--db", db, "--page-date", REF, *extra, page(prefix))
    return db


# ---- list page (001): every block against a plain reading ----------------
path = page("001")
OWNER_001 = lines(page("001"))[0][1]  # the page's first line: whose profile it is
got = by_line(works(index_one("001")))
L = lines(path)
expect = 0
for k, (no, text) in enumerate(L):
    m = HEADER.match(text)
    if not m:
        continue
    expect += 1
    title, authors, abstract = L[k + 1][1], L[k + 2][1], L[k + 3][1]
    aff = authors.split(" · ")[1] if " · " in authors else None
    names = authors.split(" · ")[0]
    trunc = names.endswith(" et al.")
    names = [n.strip() for n in names[:-7 if trunc else None].split(",")]
    if trunc and OWNER_001 not in names:  # the profile's owner, named after a cut list
        names.append(OWNER_001)
    w = got.get(no)
    label = "list %s:%d" % (os.path.basename(path), no)
    if not w:
        check(label, False, "no work at this line")
        continue
    check(label + " title", w["title"] == title, w["title"])
    check(label + " authors", w.get("authors") == names, w.get("authors"))
    check(label + " et al.", w.get("authors_truncated", False) == trunc)
    check(label + " affiliation", w.get("affiliation") == aff, w.get("affiliation"))
    check(label + " category", w.get("categories") == ["cs." + m.group(2)], w.get("categories"))
    check(label + " date", w.get("date") == resolve(m.group(3), m.group(4), m.group(5), ref), w.get("date"))
    check(label + " code", w.get("code_available", False) == bool(m.group(6)))
    check(label + " abstract", w.get("abstract") == abstract)
check("list page: every block read", len(got) == expect == 24, "%d of %d" % (len(got), expect))

# ---- dates without a year: --page-date and the file's mtime ---------------
def dates_of(db):
    return {w["title"]: w["date"] for w in works(db)}

no_year = {"PaddleOCR-VL-1.5: Towards a Multi-Task 0.9B VLM for Robust In-the-Wild Document Parsing": "Jan 29",
           "PaddleOCR-VL-1.6: Expanding the Frontier of Document Parsing with Under-Optimized Region Refinement and Progressive Post-Training": "Jun 2",
           "Boosting Document Parsing Efficiency and Performance with Coarse-to-Fine Visual Processing": "Mar 25",
           "ERNIE 5.0 Technical Report": "Feb 4"}
want = {"2026-07-01": ["2026-01-29", "2026-06-02", "2026-03-25", "2026-02-04"],
        "2026-03-01": ["2026-01-29", "2025-06-02", "2025-03-25", "2026-02-04"],
        "2025-01-15": ["2024-01-29", "2024-06-02", "2024-03-25", "2024-02-04"]}
for day, ds in want.items():
    db = os.path.join(tmp, "dates" + day)
    run("index", "--quiet", "--db", db, "--page-date", day, path)
    got_d = dates_of(db)
    for (title, _), d in zip(no_year.items(), ds):
        check("page date %s: %s" % (day, title[:30]), got_d.get(title) == d, got_d.get(title))
copy = os.path.join(tmp, "profile-list.txt")
shutil.copy(path, copy)
subprocess.run(["touch", "-d", "2026-04-01 12:00", copy], check=True)
db = os.path.join(tmp, "mtime")
run("index", "--quiet", "--db", db, copy)
got_d = dates_of(db)
for (title, _), d in zip(no_year.items(), ["2026-01-29", "2025-06-02", "2026-03-25", "2026-02-04"]):
    check("mtime date: " + title[:30], got_d.get(title) == d, got_d.get(title))

# ---- compact page (004): the split of every block, as read by hand -------
COMPACT = [
    ("MoESys: A Distributed and Efficient Mixture-of-Experts Training and Inference System for Internet Services", ["Dianhai Yu", "Liang Shen", "Hongxiang Hao"], "2022-05-20", "cs.DC"),
    ("ERNIE 5.0 Technical Report", ["Haifeng Wang", "Hua Wu", "Tian Wu"], "2026-02-04", "cs.CL"),
    ("An Empirical Study of Low Precision Quantization for TinyML", ["Shaojie Zhuo", "Hongyu Chen", "Ramchalam Kinattinkara Ramakrishnan"], "2022-03-10", "cs.LG"),
    ("Enhancing Automated Paper Reproduction via Prompt-Free Collaborative Agents", ["Zijie Lin", "Qilin Cai", "Liang Shen"], "2025-12-02", "cs.AI"),
    ("High-precision visual navigation device calibration method based on collimator", ["Shunkun Liang", "Dongcai Tan", "Banglei Guan"], "2025-02-25", "cs.CV"),
    ("EDENet: Echo Direction Encoding Network for Place Recognition Based on Ground Penetrating Radar", ["Pengyu Zhang", "Xieyuanli Chen", "Yuwei Chen"], "2025-02-28", "cs.CV"),
    ("A Policy Gradient-Based Sequence-to-Sequence Method for Time Series Prediction", ["Qi Sima", "Xinze Zhang", "Yukun Bao"], "2024-06-14", "cs.LG"),
    ("End-to-end Adaptive Distributed Training on PaddlePaddle", ["Yulong Ao", "Zhihua Wu", "Dianhai Yu"], "2021-12-06", "cs.DC"),
    ("Multilevel Image Thresholding Using a Fully Informed Cuckoo Search Algorithm", ["Xiaotao Huang", "Liang Shen", "Chongyi Fan"], "2020-05-31", "cs.NE"),
    ("Novel Co-variant Feature Point Matching Based on Gaussian Mixture Model", ["Liang Shen", "Jiahua Zhu", "Chongyi Fan"], "2019-10-26", "cs.CV"),
    ("Low-Power Computer Vision: Status, Challenges, Opportunities", ["Sergei Alyamkin", "Matthew Ardi", "Alexander C. Berg"], "2019-04-15", "cs.CV"),
    ("Low Power Inference for On-Device Visual Recognition with a Quantization-Friendly Solution", ["Chen Feng", "Tao Sheng", "Zhiyu Liang"], "2019-03-12", "cs.CV"),
    ("2018 Low-Power Image Recognition Challenge", ["Sergei Alyamkin", "Matthew Ardi", "Achille Brighton"], "2018-10-03", "cs.CV"),
    ("Radiative Transport Based Flame Volume Reconstruction from Videos", ["Liang Shen", "Dengming Zhu", "Saad Nadeem"], "2018-09-17", "cs.CV"),
    ("A Quantization-Friendly Separable Convolution for MobileNets", ["Tao Sheng", "Chen Feng", "Shaojie Zhuo"], "2018-03-22", "cs.CV"),
    ("Deep joint rain and haze removal from single images", ["Liang Shen", "Zihan Yue", "Quan Chen"], "2018-01-21", "cs.CV"),
    ("MSR-net:Low-light Image Enhancement Using Deep Convolutional Network", ["Liang Shen", "Zihan Yue", "Fan Feng"], "2017-11-07", "cs.CV"),
]
path = page("004")
got = works(index_one("004"))
got_sorted = sorted(got, key=lambda w: w["sources"][0]["line"])
check("compact page: 17 blocks", len(got) == len(COMPACT), len(got))
for w, (title, authors, date, cat) in zip(got_sorted, COMPACT):
    label = "compact %s" % title[:40]
    check(label + " title", w["title"] == title, repr(w["title"]))
    check(label + " authors", w.get("authors") == authors and w.get("authors_truncated"), w.get("authors"))
    check(label + " date", w.get("date") == date, w.get("date"))
    check(label + " category", w.get("categories") == [cat], w.get("categories"))
    check(label + " abstract", len(w.get("abstract", "")) > 200)
# A block whose title and authors cannot be told apart, and one that breaks off.
bad = os.path.join(tmp, "compact-bad.txt")
with open(path, encoding="utf-8") as f:
    text = f.read().split("\n")
body = [l for l in text if l.strip()]
with open(bad, "w", encoding="utf-8") as f:
    f.write("\n".join(body[:3] + [body[3], "no authors at all here", body[5]] + body[6:9] + [body[9]]) + "\n")
p = run("index", "--verbose", "--db", os.path.join(tmp, "cbad"), "--page-date", REF, bad, ok=(3,))
check("compact: unsplittable line warned with file:line", re.search(r"compact-bad\.txt:5: cannot tell the title from the authors", p.stderr), p.stderr)
check("compact: broken-off last block warned", re.search(r"compact-bad\.txt:10: block breaks off", p.stderr), p.stderr)
check("compact: the other blocks are indexed", "records: 4 read, 2 added, 0 updated, 0 removed, 0 unchanged, 2 skipped-bad (page block: 2)" in p.stdout, p.stdout)

# ---- profile page (000) -----------------------------------------------------
PROFILE = [(2026, "NextFlow: Unified Sequential Modeling Activates Multimodal Understanding and Generation"),
           (2022, "Boosting Distributed Training Performance of the Unpadded BERT Model"),
           (2022, "HelixFold: An Efficient Implementation of AlphaFold2 using PaddlePaddle"),
           (2022, "Nebula-I: A General Framework for Collaboratively Training Deep Learning Models on Low-Bandwidth Cloud Clusters"),
           (2021, "ERNIE-ViLG: Unified Generative Pre-training for Bidirectional Vision-Language Generation"),
           (2020, "MNN: A Universal and Efficient Inference Engine")]
got = sorted(works(index_one("000")), key=lambda w: w["sources"][0]["line"])
check("profile page: 6 works", len(got) == 6, len(got))
for w, (year, title) in zip(got, PROFILE):
    check("profile " + title[:30], w["title"] == title and w.get("year") == year and
          w.get("authors") == ["Zhihua Wu"] and w.get("venue") == "arXiv" and len(w.get("abstract", "")) > 200, w)

# ---- bare abstracts (002) -----------------------------------------------------
path = page("002")
got = by_line(works(index_one("002")))
abstracts = [(no, t[len("Abstract:"):].strip()) for no, t in lines(path) if t.startswith("Abstract:")]
check("abstracts page: every paragraph", len(got) == len(abstracts) == 10, len(got))
for no, a in abstracts:
    w = got.get(no, {})
    first = re.split(r"(?<=[a-z0-9)])[.?!] ", a, maxsplit=1)[0]
    check("abstract %d" % no, w.get("abstract") == a and w.get("title_derived") and
          (w.get("title") == first or w.get("title", "").endswith("\u2026")), w.get("title"))

# ---- arXiv-style listing (003) ----------------------------------------------
path = page("003")
got = {w.get("arxiv_id"): w for w in works(index_one("003"))}
L = lines(path)
entries, cur = [], []
for no, t in L:
    cur.append((no, t))
    if t.startswith("Created: "):
        entries.append(cur)
        cur = []
check("listing page: 10 entries", len(got) == len(entries) == 10, len(got))
for e in entries:
    m = re.match(r"arXiv:(\S+)(?: - (.*))?$", e[-2][1])
    w = got.get(m.group(1), {})
    label = "listing " + m.group(1)
    check(label + " abstract", w.get("abstract") == e[0][1])
    comments = " ".join(t for _, t in e[1:-2]) or None
    check(label + " comments", w.get("comments") == comments, w.get("comments"))
    check(label + " venue", w.get("venue") == m.group(2), w.get("venue"))
    check(label + " date", w.get("date") == e[-1][1][len("Created: "):], w.get("date"))
    check(label + " id", w.get("id") == m.group(1) and w.get("title_derived"))

# ---- all five pages together ---------------------------------------------------
db = os.path.join(tmp, "all")
p = run("index", "--db", db, "--page-date", REF, *sorted(os.path.join(SEEDS, f) for f in os.listdir(SEEDS)))
check("all pages: 67 blocks read, none skipped", "records: 67 read, 67 added, 0 updated, 0 removed, 0 unchanged, 0 skipped-bad" in p.stdout, p.stdout)
ws = works(db)
check("all pages: 58 distinct works", len(ws) == 58, len(ws))
MERGED = {
    "HelixFold: An Efficient Implementation of AlphaFold2 using PaddlePaddle": ["000", "001"],
    "Nebula-I: A General Framework for Collaboratively Training Deep Learning Models on Low-Bandwidth Cloud Clusters": ["000", "001"],
    "ERNIE-ViLG: Unified Generative Pre-training for Bidirectional Vision-Language Generation": ["000", "002"],
    "MNN: A Universal and Efficient Inference Engine": ["000", "002"],
    "ERNIE 5.0 Technical Report": ["001", "004"],
    "HeterPS: Distributed Deep Learning With Reinforcement Learning Based Scheduling in Heterogeneous Environments": ["001", "002"],
    "ERNIE 3.0 Titan: Exploring Larger-scale Knowledge Enhanced Pre-training for Language Understanding and Generation": ["001", "002"],
    "End-to-end Adaptive Distributed Training on PaddlePaddle": ["001", "002", "004"],
}
multi = {w["title"]: sorted(os.path.basename(s["file"])[:3] for s in w["sources"]) for w in ws if len(w["sources"]) > 1}
check("all pages: the merged groups and their files", multi == MERGED, json.dumps(multi, indent=1))
for w in ws:
    if w["title"] in MERGED:
        check("merged %s has a real title" % w["title"][:30], not w.get("title_derived"))
# HelixFold: one work, its fullest metadata.
hx = [json.loads(l) for l in run("search", "--db", db, "--format", "jsonl", "HelixFold").stdout.splitlines()]
check("HelixFold: one work", len(hx) == 1, len(hx))
if hx:
    h = hx[0]
    check("HelixFold: title", h["title"] == "HelixFold: An Efficient Implementation of AlphaFold2 using PaddlePaddle")
    check("HelixFold: authors from the list page, Zhihua Wu among them, and the page's owner after them",
          h.get("authors") == ["Guoxia Wang", "Xiaomin Fang", "Zhihua Wu", OWNER_001], h.get("authors"))
    check("HelixFold: year, date, category, code",
          h.get("year") == 2022 and h.get("date") == "2022-07-12" and h.get("categories") == ["cs.DC"] and h.get("code_available"), h)
# Every work any page attributes to Zhihua Wu: all of the profile's, and the
# blocks whose author line names him (list and compact pages).
attributed = set(t for _, t in PROFILE)
L = lines(page("001"))
for k, (no, t) in enumerate(L):
    if HEADER.match(t) and "Zhihua Wu" in L[k + 2][1]:
        attributed.add(L[k + 1][1])
attributed |= {t for t, a, _, _ in COMPACT if "Zhihua Wu" in a}
found = {json.loads(l)["title"] for l in run("search", "--db", db, "--author", "Zhihua Wu", "--limit", "100", "--format", "jsonl").stdout.splitlines()}
check("--author 'Zhihua Wu' finds every work attributed to him", found == attributed,
      "missing %s extra %s" % (attributed - found, found - attributed))
check("--author 'Wu, Z.' finds at least those", attributed <= {json.loads(l)["title"] for l in run(
    "search", "--db", db, "--author", "Wu, Z.", "--limit", "100", "--format", "jsonl").stdout.splitlines()})
# A profile's owner is an author of every work the page lists: each block
# of page 001 is found by the owner's name, in any form.
blocks_001 = sum(1 for _, t in lines(page("001")) if HEADER.match(t))
for form in (OWNER_001, ", ".join(reversed(OWNER_001.split()))):
    n = len(run("search", "--db", db, "--author", form, "--limit", "100", "--format", "jsonl").stdout.splitlines())
    check("--author %r finds every work of the owner's page (%d)" % (form, blocks_001), n == blocks_001, n)
# show: sources with their records.
p = run("show", "--db", db, "--format", "json", "2103.00823")
shown = json.loads(p.stdout)
check("show by arXiv id", shown["id"] == "2103.00823" and shown["sources"][0]["file"].endswith(".txt"))

# ---- across formats: JSONL and arXiv records join page records ------------------
extra = os.path.join(tmp, "extra.jsonl")
with open(extra, "w") as f:
    f.write(json.dumps({"id": "mine:helix", "title": "helixfold - an efficient implementation of AlphaFold2 using PaddlePaddle",
                        "doi": "10.1000/helix", "authors": ["Guoxia Wang", "Xiaomin Fang", "Zhihua Wu", "Yingfei Xiang"]}) + "\n")
    f.write(json.dumps({"id": "2103.00823", "title": "M6: A Chinese Multimodal Pretrainer", "versions": [],
                        "authors_parsed": [["Lin", "Junyang", ""], ["Men", "Rui", ""]], "categories": "cs.CL",
                        "update_date": "2021-03-01"}) + "\n")
    # Two different papers that share only a boilerplate sentence.
    f.write(json.dumps({"abstract": "Code is available at our project page. We study glaciers with radar."}) + "\n")
    f.write(json.dumps({"abstract": "Code is available at our project page. We study corals with sonar."}) + "\n")
run("index", "--quiet", "--db", db, extra, ok=(0,))
ws2 = works(db)
check("across formats: 58 + 2 boilerplate works", len(ws2) == 60, len(ws2))
hx = json.loads(run("show", "--db", db, "--format", "json", "mine:helix").stdout)
check("JSONL joins HelixFold by title (case, punctuation)", len(hx["sources"]) == 3 and hx.get("doi") == "10.1000/helix", hx.get("sources"))
check("the full author list leads, then the list page's owner", hx.get("authors") == ["Guoxia Wang", "Xiaomin Fang", "Zhihua Wu", "Yingfei Xiang", OWNER_001]
      and not hx.get("authors_truncated"), hx.get("authors"))
m6 = json.loads(run("show", "--db", db, "--format", "json", "2103.00823").stdout)
check("arXiv record joins the listing entry by id; real title wins", m6["title"] == "M6: A Chinese Multimodal Pretrainer"
      and not m6.get("title_derived") and m6.get("comments") == "12 pages, technical report" and m6.get("date") == "2021-03-01", m6)
check("search shows sources without their records", all("record" not in s for w in ws2 for s in w["sources"]))
# Reading the same files again changes nothing.
run("index", "--quiet", "--db", db, extra, *sorted(os.path.join(SEEDS, f) for f in os.listdir(SEEDS)))
check("re-reading the same records replaces them", len(works(db)) == 60, len(works(db)))
hx2 = json.loads(run("show", "--db", db, "--format", "json", "mine:helix").stdout)
check("re-reading keeps one entry per source", len(hx2["sources"]) == 3, hx2["sources"])

# A page that matches no style.
junk = os.path.join(tmp, "junk.txt")
with open(junk, "w") as f:
    f.write("Just some notes\nabout nothing in particular\n")
p = run("index", "--verbose", "--db", os.path.join(tmp, "junk"), junk, ok=(3,))
check("a page of no style is named with file:line", "junk.txt:1: the page matches no known style" in p.stderr, p.stderr)

shutil.rmtree(tmp)
done()
