#!/usr/bin/env python3
"""damaged.py PAPERDEX SRC -- no damaged, missing or one-pass source ever
takes works out of an index.

Every sample format of corpus/samples is indexed alone, then damaged in
each way a file is found damaged (cut inside a record, as an export caught
half written; a byte that is not UTF-8 inside a record; a record left
without its closing brace, bracket or tag) and indexed again: every work
it gave stays, the run says which file and why (exit non-zero), and once
the file is whole again the index equals a fresh build of it.  A record
that cannot be read keeps its earlier version while the file's other
records are updated; a file read cleanly still has its gone records taken
out.

Then the places a source can fail to be: a named file or directory that
is missing (kept, exit 1, named; --forget-missing takes it out), one that
cannot be read (a directory, a file; as user nobody when run as root), a
pipe, a FIFO and /dev/zero (refused at once, named); an index directory
the user may not write (exit 1 with the reason, never 75 "locked");
two writers creating one index at once (the loser waits or exits 75);
and the skipped records of a file named by file:line outside a terminal.
"""
import json
import os
import re
import shutil
import stat
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, scratch, works_of  # noqa: E402

PDX, SRC = sys.argv[1], sys.argv[2]
SAMPLES = os.path.join(SRC, "corpus", "samples")
T = scratch("pdx-damaged-")


def run(*args, timeout=60, **kw):
    return subprocess.run([PDX] + list(args), capture_output=True, timeout=timeout, **kw)


def index(db, *paths, extra=(), **kw):
    return run("index", "--db", db, "--no-progress", *extra, *paths, **kw)


def text(p):
    return (p.stdout + p.stderr).decode("utf-8", "replace")


def sample(name):
    with open(os.path.join(SAMPLES, name), "rb") as f:
        return f.read()


# ------------------------------------------------------- damage by format
# For each format: where its second-to-last record starts and where the
# title of its second record stands, found in the sample itself, so that
# the damage lands inside a record whatever the sample holds.

def starts(data, marker):
    out, at = [], data.find(marker)
    while at >= 0:
        out.append(at)
        at = data.find(marker, at + 1)
    return out


def jsonl_records(data):
    out, at = [], 0
    for line in data.split(b"\n"):
        if line.strip():
            out.append((at, at + len(line)))
        at += len(line) + 1
    return out


def cut_inside_last(data, begin):
    """The file cut in the middle of the record that starts at begin."""
    end = data.find(b"\n", begin + 1)
    end = len(data) if end < 0 else end
    return data[: begin + max(8, (end - begin) // 2)]


def bad_byte_after(data, at):
    """A byte that is not UTF-8 in place of a letter after offset at."""
    k = at
    while not chr(data[k]).isalpha():
        k += 1
    return data[:k] + b"\xff" + data[k + 1:]


def damages(name, data):
    """(how, damaged bytes) for the sample `name`."""
    out = []
    if name.endswith(".bib"):
        ents = starts(data, b"\n@")
        ents = [e + 1 for e in ents if not data[e + 1:e + 8].lower().startswith(b"@string")]
        out.append(("cut inside an entry", data[: ents[-1] + 40]))
        t = data.find(b"title", ents[1])
        out.append(("a bad byte in an entry", bad_byte_after(data, data.find(b"{", t) + 1)))
        # the second entry loses its closing brace: its last line is "}"
        close = data.find(b"\n}", ents[1])
        out.append(("an entry not closed", data[:close + 1] + data[close + 2:]))
    elif name.endswith(".xml"):
        tag = b"<PubmedArticle>" if b"<PubmedArticle>" in data else b"<record>"
        recs = starts(data, tag)
        out.append(("cut inside a record", data[: recs[-1] + 60]))
        close = b"</ArticleTitle>" if tag == b"<PubmedArticle>" else b"</title>"
        # the second record with a title (a deleted record has none)
        titled = [r for k, r in enumerate(recs)
                  if 0 <= data.find(close, r) < (recs[k + 1] if k + 1 < len(recs) else len(data))]
        rec = titled[min(1, len(titled) - 1)]
        t = data.find(b"itle>", rec)
        out.append(("a bad byte in a record", bad_byte_after(data, t + 5)))
        c = data.find(close, rec)
        out.append(("a record not closed", data[:c] + data[c + len(close):]))
    else:  # JSON lines, or an API page on one line
        recs = jsonl_records(data)
        last = recs[-1]
        out.append(("cut inside a record", cut_inside_last(data, last[0])))
        second = recs[1] if len(recs) > 1 else recs[0]
        t = data.find(b'"title"', second[0])
        out.append(("a bad byte in a record", bad_byte_after(data, t + 9)))
        # the second record (or the page) loses its closing brace
        e = second[1] - 1
        out.append(("a record not closed", data[:e] + data[e + 1:]))
    return out


FORMATS = ["references.bib", "papers.jsonl", "arxiv-sample.jsonl", "openalex-works.jsonl",
           "openalex-api-page.json", "pubmed-baseline.xml", "arxiv-oai.xml", "arxiv-oai-raw.xml"]

for name in FORMATS:
    data = sample(name)
    d = os.path.join(T, "fmt-" + name.replace(".", "-"))
    os.makedirs(d)
    path = os.path.join(d, name)
    db = os.path.join(d, "db")
    with open(path, "wb") as f:
        f.write(data)
    p = index(db, path)
    want = works_of(PDX, db)
    check("%s: the sample indexes cleanly (%d works)" % (name, len(want)),
          p.returncode == 0 and len(want) >= 1, text(p))
    for how, bad in damages(name, data):
        check("%s, %s: the damage is real" % (name, how), bad != data and len(bad) > 0)
        with open(path, "wb") as f:
            f.write(bad)
        p = index(db, path)
        got = works_of(PDX, db)
        check("%s, %s: every work stays (%d of %d)" % (name, how, len(set(got) & set(want)), len(want)),
              set(want) <= set(got), text(p))
        check("%s, %s: the run says which file, and fails" % (name, how),
              p.returncode != 0 and name in p.stderr.decode("utf-8", "replace"), (p.returncode, text(p)))
        with open(path, "wb") as f:
            f.write(data)
        p = index(db, path)
        check("%s, %s: whole again, the index is as before" % (name, how),
              p.returncode == 0 and works_of(PDX, db) == want, text(p))

# A record that cannot be read keeps its earlier version; the others are
# updated; a clean read then takes out what is gone.
d = os.path.join(T, "versions")
os.makedirs(d)
path, db = os.path.join(d, "w.jsonl"), os.path.join(d, "db")


def write_works(titles, broken=()):
    with open(path, "w") as f:
        for k, t in enumerate(titles):
            line = json.dumps({"id": "v%d" % k, "title": t, "abstract": "Invented work %d." % k})
            if k in broken:
                line = line[:-1]  # its closing brace lost
            f.write(line + "\n")


titles = ["Moss cover on basalt %d" % k for k in range(5)]
write_works(titles)
index(db, path)
edited = list(titles)
edited[1] = "Lichen cover on granite 1"
edited[3] = "Fern cover on slate 3"
write_works(edited[:4], broken={3})  # work 4 gone, work 3 unreadable
p = index(db, path)
w = works_of(PDX, db)
check("a readable record is updated beside a damaged one", w.get("v1", {}).get("title") == edited[1], w.get("v1"))
check("the unreadable record keeps its earlier version", w.get("v3", {}).get("title") == titles[3], w.get("v3"))
check("nothing is taken out of a file not read cleanly", "v4" in w and len(w) == 5, sorted(w))
check("the warning names the file and the first bad line",
      re.search(r"w\.jsonl was not read cleanly: 1 record could not be read \(the first: \S*w\.jsonl:4:",
                p.stderr.decode()) is not None and p.returncode == 3, text(p))
write_works(edited[:4])
p = index(db, path)
w = works_of(PDX, db)
check("read cleanly, the record gone is taken out and the mended one updated",
      sorted(w) == ["v0", "v1", "v2", "v3"] and w["v3"]["title"] == edited[3] and p.returncode == 0, (sorted(w), text(p)))
fresh = os.path.join(d, "fresh")
index(fresh, path)
check("and the index equals a fresh build of the file", works_of(PDX, fresh) == w)

# Two entries of one .bib that share a PMID are two records of one work:
# a later edit elsewhere in the file reports no change to them.  One
# citation key twice is said.
bib = os.path.join(d, "dup.bib")
entries = ["@article{k1, title = {Heat stress in outdoor workers}, pmid = {90000001}, year = 2021}\n",
           "@article{k2, title = {Heat stress in outdoor workers, the preprint}, pmid = {90000001}, year = 2020}\n",
           "@article{k3, title = {Something else}, year = 2019}\n"]
with open(bib, "w") as f:
    f.writelines(entries)
index(os.path.join(d, "db-dup"), bib)
with open(bib, "a") as f:
    f.write("@article{k4, title = {A fourth entry}, year = 2018}\n")
p = index(os.path.join(d, "db-dup"), bib)
check("two entries sharing a PMID: an edit elsewhere changes neither (no phantom update)",
      b"1 added, 0 updated, 0 removed, 3 unchanged" in p.stdout, text(p))
with open(bib, "a") as f:
    f.write("@article{k3, title = {Something else, again}, year = 2019}\n")
p = index(os.path.join(d, "db-dup"), bib)
check("one citation key twice is said, with the line",
      b"dup.bib: 1 record stands in the place of an earlier one" in p.stderr and b"line 5" in p.stderr, text(p))

# Skipped records are named by file:line outside a terminal (cron), with
# a cap and a count.
bad = os.path.join(d, "many-bad.jsonl")
with open(bad, "w") as f:
    f.write('{"id": "ok", "title": "A good line"}\n')
    for k in range(25):
        f.write('{"id": "bad%d", "title": \n' % k)
p = index(os.path.join(d, "db-bad"), bad)
err = p.stderr.decode()
named = re.findall(r"warning: \S*many-bad\.jsonl:(\d+): malformed JSON", err)
check("skipped records are named file:line in cron, the first 20", len(named) == 20 and named[0] == "2", err)
check("then a count of the rest", "many-bad.jsonl: 5 more records skipped" in err, err)
p = index(os.path.join(d, "db-bad"), bad, extra=("--quiet",))
check("--quiet names none", "many-bad.jsonl:" not in p.stderr.decode(), p.stderr)

# ------------------------------------------------------- missing sources
d = os.path.join(T, "missing")
os.makedirs(os.path.join(d, "dir", "sub"))
shutil.copy(os.path.join(SAMPLES, "papers.jsonl"), os.path.join(d, "dir", "sub"))
shutil.copy(os.path.join(SAMPLES, "references.bib"), os.path.join(d, "dir"))
shutil.copy(os.path.join(SAMPLES, "openalex-works.jsonl"), d)
db = os.path.join(d, "db")
named_file = os.path.join(d, "openalex-works.jsonl")
p = index(db, os.path.join(d, "dir"), named_file)
all_works = works_of(PDX, db)
check("the missing-source index is built", p.returncode == 0 and len(all_works) > 30, text(p))
os.rename(named_file, named_file + ".away")
p = index(db, os.path.join(d, "dir"), named_file)
check("a named file that is missing is an error naming it (exit 1)",
      p.returncode == 1 and "openalex-works.jsonl: cannot read" in p.stderr.decode(), text(p))
check("and its works stay", works_of(PDX, db) == all_works, "")
p = index(db, os.path.join(d, "dir"), named_file, extra=("--forget-missing",))
gone = set(all_works) - set(works_of(PDX, db))
check("--forget-missing takes a missing named file's works out", p.returncode == 0 and len(gone) >= 1, text(p))
os.rename(named_file + ".away", named_file)
p = index(db, os.path.join(d, "dir"), named_file)
check("back again, it is read again", works_of(PDX, db) == all_works, text(p))
os.rename(os.path.join(d, "dir"), os.path.join(d, "dir.away"))
p = index(db, os.path.join(d, "dir"), named_file)
check("a named directory that is missing is an error, its works kept",
      p.returncode == 1 and works_of(PDX, db) == all_works, text(p))
os.rename(os.path.join(d, "dir.away"), os.path.join(d, "dir"))
p = index(db, os.path.join(d, "dir"), named_file)
check("back again, nothing to do", p.returncode == 0 and b" 0 removed" in p.stdout and works_of(PDX, db) == all_works, text(p))
# A file gone from a directory read cleanly still goes.
os.rename(os.path.join(d, "dir", "sub", "papers.jsonl"), os.path.join(d, "papers.away"))
p = index(db, os.path.join(d, "dir"), named_file)
check("a file gone from a directory read cleanly takes its works out",
      p.returncode == 0 and len(works_of(PDX, db)) < len(all_works), text(p))
os.rename(os.path.join(d, "papers.away"), os.path.join(d, "dir", "sub", "papers.jsonl"))
index(db, os.path.join(d, "dir"), named_file)

# A new index whose only source cannot be read is not left behind empty;
# a directory the user made for it stays.
newix = os.path.join(d, "new-index")
p = index(newix, os.path.join(d, "no-such-file.jsonl"))
check("index --db NEW /missing: exit 1, and no empty index left", p.returncode == 1 and not os.path.exists(newix),
      (p.returncode, os.path.exists(newix)))
os.makedirs(newix)
p = index(newix, os.path.join(d, "no-such-file.jsonl"))
check("a directory made beforehand stays", p.returncode == 1 and os.path.isdir(newix), p.returncode)
shutil.rmtree(newix)

# Unreadable places.  Root reads everything, so as root the runs are made
# as user nobody (the index and sources made theirs).
as_other = []
if os.geteuid() == 0:
    as_other = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            os.chown(os.path.join(root, n), 65534, 65534)
    os.chown(d, 65534, 65534)
    os.chmod(T, 0o755)


def index_as_other(*args):
    return subprocess.run(as_other + [PDX, "index", "--db", db, "--no-progress"] + list(args),
                          capture_output=True, timeout=60)


if as_other and shutil.which("setpriv") is None:
    print("note: setpriv is missing; the unreadable-place checks are left out")
else:
    sub = os.path.join(d, "dir", "sub")
    os.chmod(sub, 0)
    p = index_as_other(os.path.join(d, "dir"), named_file)
    os.chmod(sub, 0o755)
    check("an unreadable subdirectory is an error naming it (exit 1)",
          p.returncode == 1 and "sub: cannot read the directory" in p.stderr.decode(), text(p))
    check("and its works stay", works_of(PDX, db) == all_works, text(p))
    os.chmod(named_file, 0)
    os.utime(named_file)  # changed, so it has to be read
    p = index_as_other(os.path.join(d, "dir"), named_file)
    os.chmod(named_file, 0o644)
    check("an unreadable named file is an error naming it, its works kept",
          p.returncode == 1 and "openalex-works.jsonl: cannot read" in p.stderr.decode()
          and works_of(PDX, db) == all_works, text(p))
    # An index directory this user may not write: not "locked" (75).
    ro = os.path.join(d, "ro")
    index(ro, named_file)  # made by this user: another may not write it
    os.utime(named_file)
    if as_other:
        p = subprocess.run(as_other + [PDX, "index", "--db", ro, "--no-progress", named_file],
                           capture_output=True, timeout=60)
    else:
        os.chmod(ro, 0o555)
        p = index(ro, named_file)
        os.chmod(ro, 0o755)
    check("an index the user may not write: exit 1 with the reason, not 75",
          p.returncode == 1 and "writable" in p.stderr.decode() and "locked by another" not in p.stderr.decode(),
          (p.returncode, text(p)))

# ------------------------------------------------------- one-pass sources
d = os.path.join(T, "pipes")
os.makedirs(d)
db = os.path.join(d, "db")
index(db, os.path.join(SAMPLES, "references.bib"))
before = works_of(PDX, db)
jsonl = sample("papers.jsonl")
p = subprocess.run([PDX, "index", "--db", db, "--no-progress", "/dev/stdin"], input=jsonl,
                   capture_output=True, timeout=60)
check("a pipe named as a file is refused, named, with the way to do it",
      p.returncode == 1 and "/dev/stdin is not a regular file" in p.stderr.decode()
      and "'-'" in p.stderr.decode(), text(p))
check("and changes nothing", works_of(PDX, db) == before)
fifo = os.path.join(d, "fifo")
os.mkfifo(fifo)
try:
    p = index(db, fifo, timeout=20)
    check("a FIFO with no writer is refused at once, not waited on",
          p.returncode == 1 and "fifo is not a regular file (a pipe or FIFO)" in p.stderr.decode(), text(p))
except subprocess.TimeoutExpired:
    check("a FIFO with no writer is refused at once, not waited on", False, "hung")
try:
    p = index(db, "/dev/zero", timeout=20)
    check("/dev/zero is refused at once", p.returncode == 1 and "character device" in p.stderr.decode(), text(p))
except subprocess.TimeoutExpired:
    check("/dev/zero is refused at once", False, "read forever")
check("the index is as it was", works_of(PDX, db) == before)
p = subprocess.run([PDX, "index", "--db", db, "--no-progress", "-"], input=jsonl, capture_output=True, timeout=60)
check("'-' reads standard input once", p.returncode == 0 and len(works_of(PDX, db)) > len(before), text(p))

# ------------------------------------------------- two writers, one new index
d = os.path.join(T, "race")
os.makedirs(d)
src_a, src_b = os.path.join(SAMPLES, "papers.jsonl"), os.path.join(SAMPLES, "references.bib")
odd = []
for k in range(20):
    db = os.path.join(d, "db%d" % k)
    a = subprocess.Popen([PDX, "index", "--db", db, "--no-progress", src_a],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    b = subprocess.Popen([PDX, "index", "--db", db, "--no-progress", src_b],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    ea, eb = a.communicate(timeout=60)[1], b.communicate(timeout=60)[1]
    codes = sorted([a.returncode, b.returncode])
    if codes not in ([0, 0], [0, 75]):
        odd.append((codes, ea.decode()[:200], eb.decode()[:200]))
check("two writers creating one index: each finishes or exits 75 (20 races)", not odd, odd[:3])

done()
