#!/usr/bin/env python3
"""equivalence.py PAPERDEX [STEPS] [SEED]

Incremental reindexing must end exactly where a fresh build ends.  With a
fixed seed, this makes a directory of sources -- JSONL files, arXiv
snapshot files (one of them gzipped) and profile pages in three styles --
and changes it step by step: new files, edited records, appended records,
records deleted in the middle of a file (those below move), files
reordered, new snapshots of a file (edits, deletions, appends and moves
at once), renamed, deleted and touched files.  A re-read file is compared
record by record, so every one of these takes the record-level path.  After each step it runs
`paperdex index` on the directory into one index that lives through all
steps, builds a fresh index from the same directory, and compares:

  * every work with every stored field and its sources (search --all);
  * the ranked results (ids and scores) of a fixed set of queries.

The works come from one pool, and a work's records in different files
agree on its identity (arXiv id, title, abstract), so merges across files
are well defined; an edit either changes a record's other fields or makes
it a record of another work.
"""
import gzip, json, os, random, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import repeat_env  # noqa: E402

PDX = sys.argv[1]
STEPS = int(sys.argv[2]) if len(sys.argv) > 2 else 40
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 20261122
rng = random.Random(SEED)

WORDS = ("graph neural network protein folding glacier radar coral sonar wind power forecast "
         "quantization compiler tensor scheduling federated privacy retrieval ranking citation "
         "diffusion image editing speech recognition malware detection traffic control").split()
NAMES = ["Mirela Kovač", "Tomasz Wróbel", "Anaïs Lefèvre", "Zhiyuan Qian", "Priya Raghunathan",
         "Lukas Brenner", "Kwame Mensah", "Yuki Tanabe", "Helena Sørby", "Arjun Mehta"]
CATS = ["cs.LG", "cs.CV", "cs.CL", "cs.DC", "q-bio.BM", "eess.SY", "math.OC"]
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def make_work(k):
    r = random.Random(k * 7919)
    title = "Work %d on %s" % (k, " ".join(r.sample(WORDS, 4)).title())
    abstract = "We study %s. %s." % (" ".join(r.sample(WORDS, 6)), " ".join(r.sample(WORDS, 8)).capitalize())
    return {"k": k, "arxiv": "%02d%02d.%05d" % (20 + k % 5, 1 + k % 12, k), "title": title,
            "abstract": abstract, "authors": r.sample(NAMES, 1 + k % 3), "cats": r.sample(CATS, 1 + k % 2),
            "year": 2020 + k % 5, "month": 1 + k % 12, "day": 1 + k % 27}


POOL = [make_work(k) for k in range(60)]


def variant(w):
    """Other fields of the same work, as another source might give them."""
    v = dict(w)
    v["authors"] = rng.sample(NAMES, rng.randint(1, 4))
    v["cats"] = rng.sample(CATS, rng.randint(1, 2))
    return v


def jsonl_line(w):
    return json.dumps({"id": "w%d" % w["k"], "title": w["title"], "abstract": w["abstract"],
                       "authors": w["authors"], "categories": w["cats"], "year": w["year"]}, ensure_ascii=False)


def arxiv_line(w):
    return json.dumps({"id": w["arxiv"], "title": w["title"], "abstract": w["abstract"],
                       "authors": ", ".join(w["authors"]), "categories": " ".join(w["cats"]),
                       "versions": [], "update_date": "2025-01-01",
                       "authors_parsed": [[n.split()[-1], " ".join(n.split()[:-1]), ""] for n in w["authors"]]},
                      ensure_ascii=False)


def page_text(style, ws):
    if style == "profile":
        out = ["Researcher profile", "", "Helena Sørby", "", "Published work", ""]
        for w in ws:
            out += ["preprint%darXiv" % w["year"], w["title"], w["abstract"], ""]
    elif style == "list":
        out = ["Helena Sørby", "LG", ""]
        for w in ws:
            out += ["%s%s %d, %d" % (w["cats"][0][-2:].upper() if w["cats"][0].startswith("cs.") else "LG",
                                     MONTHS[w["month"] - 1], w["day"], w["year"]),
                    w["title"], ", ".join(w["authors"]), w["abstract"], ""]
    else:  # abstracts
        out = [""]
        for w in ws:
            out += ["Abstract:" + w["abstract"], ""]
    return "\n".join(out) + "\n"


class Source:
    def __init__(self, name, kind, works):
        self.name, self.kind, self.works = name, kind, works

    def write(self, d):
        p = os.path.join(d, self.name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if self.kind in ("jsonl", "arxiv", "arxiv.gz"):
            text = "\n".join((jsonl_line if self.kind == "jsonl" else arxiv_line)(w) for w in self.works) + "\n"
            if self.kind == "arxiv.gz":
                with gzip.open(p, "wt", encoding="utf-8") as f:
                    f.write(text)
                return
        else:
            text = page_text(self.kind, self.works)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)


def pick_works(n):
    return [variant(w) for w in rng.sample(POOL, n)]


KINDS = ["jsonl", "arxiv", "arxiv.gz", "profile", "list", "abstracts"]
EXT = {"jsonl": ".jsonl", "arxiv": ".json", "arxiv.gz": ".json.gz", "profile": ".txt", "list": ".txt",
       "abstracts": ".txt"}
QUERIES = ["graph neural", "protein folding", "\"wind power\"", "title:glacier", "radar OR sonar",
           "federated -privacy", "author:kovač", "scheduling"]

tmp = tempfile.mkdtemp(prefix="pdx-equiv-")
src = os.path.join(tmp, "src")
os.makedirs(src)
inc = os.path.join(tmp, "inc")
sources = {}
counter = [0]


def new_source():
    kind = rng.choice(KINDS)
    counter[0] += 1
    sub = rng.choice(["", "a/", "a/b/"])
    name = "%s%s-%d%s" % (sub, kind.split(".")[0], counter[0], EXT[kind])
    s = Source(name, kind, pick_works(rng.randint(2, 8)))
    sources[name] = s
    s.write(src)
    return "add " + name


def edit():
    s = sources[rng.choice(sorted(sources))]
    if rng.random() < 0.5 and len(s.works) > 1:
        i = rng.randrange(len(s.works))  # becomes a record of another work
        s.works[i] = variant(rng.choice(POOL))
        what = "replace a record"
    else:
        i = rng.randrange(len(s.works))  # same work, other metadata
        s.works[i] = variant(s.works[i])
        what = "edit metadata"
    s.write(src)
    return "%s in %s" % (what, s.name)


def append():
    s = sources[rng.choice(sorted(sources))]
    s.works += pick_works(rng.randint(1, 3))
    s.write(src)
    return "append to " + s.name


def delete_records():
    """Lines deleted in the middle of a file: every record below moves."""
    s = sources[rng.choice(sorted(sources))]
    if len(s.works) < 3:
        return append()
    for _ in range(rng.randint(1, len(s.works) // 2)):
        del s.works[rng.randrange(len(s.works) - 1)]
    s.write(src)
    return "delete records in " + s.name


def reorder():
    """The same records in another order (a snapshot regenerated)."""
    s = sources[rng.choice(sorted(sources))]
    rng.shuffle(s.works)
    s.write(src)
    return "reorder " + s.name


def churn():
    """A new snapshot of one file: records edited in place, some deleted,
    some appended, the rest moved."""
    s = sources[rng.choice(sorted(sources))]
    for i in rng.sample(range(len(s.works)), max(1, len(s.works) // 3)):
        s.works[i] = variant(s.works[i])
    if len(s.works) > 2:
        del s.works[rng.randrange(len(s.works))]
    s.works += pick_works(rng.randint(1, 3))
    if rng.random() < 0.5:
        rng.shuffle(s.works)
    s.write(src)
    return "churn " + s.name


def rename():
    old = rng.choice(sorted(sources))
    s = sources.pop(old)
    counter[0] += 1
    s.name = "renamed-%d-%s" % (counter[0], os.path.basename(old))
    os.rename(os.path.join(src, old), os.path.join(src, s.name))
    sources[s.name] = s
    return "rename %s -> %s" % (old, s.name)


def delete():
    name = rng.choice(sorted(sources))
    del sources[name]
    os.remove(os.path.join(src, name))
    return "delete " + name


def touch():
    name = rng.choice(sorted(sources))
    t = time.time() + rng.randint(1, 1000)
    os.utime(os.path.join(src, name), (t, t))
    return "touch " + name


def index(db, *extra):
    p = subprocess.run([PDX, "index", "--db", db, "--page-date", "2025-06-30"] + list(extra) + [src],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("index exit %d: %s %s" % (p.returncode, p.stdout, p.stderr))
    return p.stdout


def snapshot(db):
    works = subprocess.run([PDX, "search", "--db", db, "--all", "--limit", "10000", "--format", "jsonl"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    works = sorted(json.dumps(json.loads(l), sort_keys=True, ensure_ascii=False) for l in works)
    global merged_seen
    merged_seen = max(merged_seen, sum(len(json.loads(w)["sources"]) > 1 for w in works))
    ranked = []
    for q in QUERIES:
        out = subprocess.run([PDX, "search", "--db", db, "--limit", "20", "--format", "jsonl", q],
                             capture_output=True, text=True, check=True,
                             env=repeat_env()).stdout.splitlines()
        ranked.append([(json.loads(l)["id"], json.loads(l)["score"]) for l in out])
    return works, ranked


passed = failed = 0
merged_seen = 0
for _ in range(4):
    new_source()
for step in range(STEPS):
    ops = ([new_source, edit, edit, append, rename, delete, touch, delete_records, reorder, churn, churn]
           if len(sources) > 2 else [new_source])
    what = rng.choice(ops)()
    summary = index(inc)
    fresh = os.path.join(tmp, "fresh-%d" % step)
    index(fresh)
    a, b = snapshot(inc), snapshot(fresh)
    shutil.rmtree(fresh)
    if a == b:
        passed += 1
        print("ok   step %2d: %-45s %3d works | %s" % (step, what[:45], len(a[0]), summary.strip()))
    else:
        failed += 1
        print("FAIL step %2d: %s" % (step, what))
        sa, sb = set(a[0]), set(b[0])
        for x in sorted(sa - sb)[:3]:
            print("  only incremental:", x[:300])
        for x in sorted(sb - sa)[:3]:
            print("  only fresh:      ", x[:300])
        if a[1] != b[1]:
            print("  ranked results differ")
shutil.rmtree(tmp)
print("at most %d works merged from several sources at one step" % merged_seen)
if merged_seen == 0:
    failed += 1  # the test would not be testing merges
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed or not passed else 0)
