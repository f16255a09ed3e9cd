#!/usr/bin/env python3
"""jobs.py -- `paperdex index --jobs N` builds the index a single process
builds: the same works, merged the same way, with the same sources, and
the same search results (ids and scores).  A rebuild killed while its
worker threads build leaves the index as it was, and the next run cleans
up after it.  The progress bar on a terminal, with one job and with
several.

usage: jobs.py PAPERDEX SRC_DIR SHARED_DIR
Sources: the sample corpus (several records of one work in different
files), the seed pages when ../shared has them, and 1,500 arXiv records.
"""
import gzip
import json
import os
import pty
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, ranked, works_of, scratch  # noqa: E402

PDX, SRC, SHARED = sys.argv[1], sys.argv[2], sys.argv[3]
tmp = scratch("pdx-jobs-")
sources = [os.path.join(SRC, "corpus", "samples")]
if os.path.isdir(os.path.join(SHARED, "seeds")):
    sources.append(os.path.join(SHARED, "seeds"))
arxiv = os.path.join(SHARED, "data", "arxiv-101k.jsonl.gz")
if os.path.exists(arxiv):
    part = os.path.join(tmp, "arxiv-part.jsonl")
    with gzip.open(arxiv, "rt", encoding="utf-8") as f, open(part, "w", encoding="utf-8") as out:
        for i, line in enumerate(f):
            if i == 1500:
                break
            out.write(line)
    sources.append(part)


def pdx(*args):
    return subprocess.run([PDX] + list(args), capture_output=True, text=True)


dbs = {}
for n in (1, 2, 3):
    db = os.path.join(tmp, "j%d" % n)
    # "j3/": a trailing slash names the same directory
    r = pdx("index", "--db", db + ("/" if n == 3 else ""), "--page-date", "2026-07-01",
            "--jobs", str(n), *sources)
    check("--jobs %d: exit 0" % n, r.returncode == 0, r.stdout + r.stderr)
    check("--jobs %d: summary counts every record once" % n,
          "records:" in r.stdout, r.stdout)
    dbs[n] = (db, r.stdout.split("records:")[1].split(";")[0] if "records:" in r.stdout else "")
    leftovers = [e for e in os.listdir(tmp) if ".jobs-" in e]
    check("--jobs %d: no work directories left" % n, not leftovers, leftovers)

base = works_of(PDX, dbs[1][0])
# corpus/samples alone make 77 works; the seed pages and arXiv records more.
check("single process indexed works", len(base) > (100 if os.path.exists(arxiv) else 50), len(base))
merged = [w for w in base.values() if len(w.get("sources", [])) > 1]
check("the sources include works merged from several records", len(merged) >= 5, len(merged))
for n in (2, 3):
    got = works_of(PDX, dbs[n][0])
    check("--jobs %d: same record counts" % n, dbs[n][1] == dbs[1][1], (dbs[n][1], dbs[1][1]))
    check("--jobs %d: same works" % n, sorted(got) == sorted(base),
          sorted(set(got) ^ set(base))[:10])
    # each source's fingerprint: its record count too, which workers that
    # share a file's lines add up (each shard counted its own lines)
    check("--jobs %d: same sources, record counts included" % n,
          pdx("stats", "--db", dbs[n][0], "--sources").stdout == pdx("stats", "--db", dbs[1][0], "--sources").stdout)
    diff = [i for i in base if got.get(i) != base[i]]
    check("--jobs %d: every work equal, field by field and source by source" % n,
          not diff, diff[:5])
    for q in ("graph neural networks", "ERNIE", "glacier mapping", "distributed training"):
        check("--jobs %d: same ranking for %r" % (n, q), ranked(PDX, dbs[n][0], q, 50) == ranked(PDX, dbs[1][0], q, 50), q)
    r = pdx("index", "--db", dbs[n][0], "--page-date", "2026-07-01", *sources)
    check("--jobs %d: a plain re-run finds nothing changed" % n,
          r.returncode == 0 and " 0 added, 0 updated, 0 removed" in r.stdout, r.stdout + r.stderr)

# Sources of unlike sizes (one file holds most of the records): every
# worker reads every source, decoding every other line of JSON lines (and
# every record of a page) and keeping or sending on what it decoded.
dominant = os.path.join(tmp, "dominant.jsonl")
with open(dominant, "w") as f:
    for k in range(1500):
        f.write(json.dumps({"id": "d%d" % k, "title": "Dominant file work %d" % k,
                            "abstract": "Most of the records are in this one file, %d. " % k * 4,
                            "year": 2012}) + "\n")
r = pdx("index", "--db", os.path.join(tmp, "unlike"), "--jobs", "2", "--verbose", "--page-date", "2026-07-01",
        dominant, *sources)
adds = [l for l in r.stdout.splitlines() if l.startswith("add ") and not l.startswith("add record")]
check("--jobs 2 --verbose: each source named once", r.returncode == 0 and adds and len(adds) == len(set(adds)),
      adds[:6])
check("--jobs 2, sources of unlike sizes: every worker reads every source",
      "merging 2 shards, each worker reading every source and decoding every 2nd line" in r.stdout,
      r.stdout[-300:])


# Many files of like sizes (a PubMed baseline, an OpenAlex snapshot's
# parts): each worker reads whole files of its own.  Works with records
# in files of different workers are merged all the same.
many = os.path.join(tmp, "many")
os.mkdir(many)
for part in range(12):
    with open(os.path.join(many, "part-%02d.jsonl" % part), "w") as f:
        for k in range(40):
            n = part * 40 + k
            # the first 3 of each file: 3 works, each with a record in every file
            rec = {"id": "dup%d" % k if k < 3 else "m%d" % n,
                   "title": "Many files work %d on %s" % (n, ["graphs", "glaciers", "proteins"][n % 3]),
                   "abstract": "A work of part %d about %s, number %d. " % (part, ["graphs", "ice", "folding"][n % 3], n) * 3,
                   "authors": ["Ada Byron", "Kwame Mensah"][: 1 + n % 2], "year": 2000 + n % 20}
            f.write(json.dumps(rec) + "\n")
mdb = {}
for n in (1, 2, 3):
    db = os.path.join(tmp, "many%d" % n)
    r = pdx("index", "--db", db, "--jobs", str(n), "--verbose", many)
    mdb[n] = (db, r.stdout.split("records:")[1].split(";")[0] if "records:" in r.stdout else "")
    check("many files, --jobs %d: exit 0, 12 sources" % n, r.returncode == 0 and "sources: 12 added" in r.stdout,
          r.stdout[-300:] + r.stderr)
    if n > 1:
        check("many files, --jobs %d: each worker reads whole files of its own" % n,
              "merging %d shards, each from whole sources of its own" % n in r.stdout, r.stdout[-300:])
        # the works "dup0".."dup2" have a title of their own in each file,
        # so their records land apart and are merged after
        regrouped = re.search(r"merged (\d+) groups? of works split", r.stdout)
        check("many files, --jobs %d: works whose records differ in title merged after the shards" % n,
              regrouped and 1 <= int(regrouped.group(1)) <= 3, r.stdout[-300:])
        adds = [l for l in r.stdout.splitlines() if l.startswith("add ") and not l.startswith("add record")]
        check("many files, --jobs %d: each file named once" % n, sorted(adds) == sorted(set(adds)) and len(adds) == 12,
              adds)
mbase = works_of(PDX, mdb[1][0])
check("many files: works merged across files", len(mbase) == 480 - 3 * 11 and all(
    len(mbase["dup%d" % k].get("sources", [])) == 12 for k in range(3)), len(mbase))
for n in (2, 3):
    check("many files, --jobs %d: same record counts" % n, mdb[n][1] == mdb[1][1], (mdb[n][1], mdb[1][1]))
    got = works_of(PDX, mdb[n][0])
    check("many files, --jobs %d: every work equal" % n, got == mbase,
          sorted(i for i in set(got) | set(mbase) if got.get(i) != mbase.get(i))[:5])
    for q in ("graphs", "glaciers ice", "proteins folding"):
        check("many files, --jobs %d: same ranking for %r" % (n, q), ranked(PDX, mdb[n][0], q, 50) == ranked(PDX, mdb[1][0], q, 50))
    r = pdx("index", "--db", mdb[n][0], many)
    check("many files, --jobs %d: every file's fingerprint kept: a re-run reads none" % n,
          r.returncode == 0 and "0 added, 0 updated, 0 removed, 12 unchanged" in r.stdout, r.stdout)

# Two sources that overlap, as an arXiv snapshot and OpenAlex works do:
# another provider's records of the same works (ids of its own, the same
# DOIs, titles cased its own way), in files of like sizes that two
# workers read apart.  Each record goes to the worker of its work (by its
# folded title), so the records of a work merge in one shard, and none is
# left to merge once the shards are one index (that rewrites documents
# Xapian has written: a few ms a work, most of such a run before).
overlap = os.path.join(tmp, "overlap")
os.mkdir(overlap)
for name in ("a", "b"):
    with open(os.path.join(overlap, name + ".jsonl"), "w") as f:
        for k in range(2500):
            title = "Overlap work %05d on %s" % (k, ["graphs", "glaciers", "proteins"][k % 3])
            f.write(json.dumps({"id": "p%s%05d" % (name, k), "doi": "10.5555/ov.%05d" % k,
                                "title": title if name == "a" else title.upper(),
                                "abstract": "Both providers index this work, number %d. " % k * 3,
                                "year": 2000 + k % 20}) + "\n")


def one_and_two(name, what, *args):
    """Index args in one process and with --jobs 2 --verbose, into
    tmp/NAME1 and tmp/NAME2, each checked to exit 0: the two databases
    by job count, and the two-worker run's output."""
    db, out = {}, ""
    for n in (1, 2):
        db[n] = os.path.join(tmp, "%s%d" % (name, n))
        r = pdx("index", "--db", db[n], "--jobs", str(n), "--verbose", *args)
        check("%s, --jobs %d: exit 0" % (what, n), r.returncode == 0, r.stdout[-300:] + r.stderr)
        out = r.stdout
    return db, out


odb, out = one_and_two("overlap", "overlapping sources", overlap)
check("overlapping sources, --jobs 2: each worker reads a file of its own",
      "each from whole sources of its own" in out, out[-300:])
check("overlapping sources, --jobs 2: no work left split across the shards",
      "merged 0 groups of works split across workers" in out, out[-300:])
obase = works_of(PDX, odb[1])
check("overlapping sources: 2,500 works of two records each",
      len(obase) == 2500 and all(len(w.get("sources", [])) == 2 for w in obase.values()), len(obase))
check("overlapping sources, --jobs 2: every work equal", works_of(PDX, odb[2]) == obase)

# One id twice in a file, under two titles (a record revised in place):
# the later replaces the earlier, as in one pass, although their titles
# send them to different workers: a place's records all go where its
# first went.  Read every record by every worker (one file), and file by
# file (two files of like sizes).
twice = os.path.join(tmp, "twice")
os.mkdir(twice)
for part in range(2):
    with open(os.path.join(twice, "t%d.jsonl" % part), "w") as f:
        for version in ("First", "Later"):
            for k in range(41):
                f.write(json.dumps({"id": "t%d-%02d" % (part, k),
                                    "title": "%s title %02d, %s" % (version, k, ["graphs", "glaciers"][k % 2]),
                                    "abstract": "The %s version of work %d. " % (version.lower(), k) * 4,
                                    "year": 2001 if version == "First" else 2002}) + "\n")
# Each version right after the other: the two workers that share the
# file's lines decode one each, and the earlier, sent through the
# exchange, may reach the place's worker after the later it decoded itself.
adjacent = os.path.join(tmp, "adjacent.jsonl")
with open(adjacent, "w") as f:
    for k in range(300):
        for version in ("First", "Later"):
            f.write(json.dumps({"id": "a%03d" % k,
                                "title": "%s title %03d, %s" % (version, k, ["graphs", "glaciers"][k % 2]),
                                "abstract": "The %s version of work %d. " % (version.lower(), k) * 4,
                                "year": 2001 if version == "First" else 2002}) + "\n")
for what, source, works in (("one file", os.path.join(twice, "t0.jsonl"), 41), ("two files", twice, 82),
                            ("one line after the other", adjacent, 300)):
    db, _ = one_and_two("twice-" + what.replace(" ", "") + "-", "one id twice in a file, " + what, source)
    got = {n: works_of(PDX, db[n]) for n in db}
    check("one id twice in a file, %s: the later record stands" % what,
          len(got[1]) == works and
          all(w["title"].startswith("Later") for w in got[1].values()), len(got[1]))
    check("one id twice in a file, %s, --jobs 2: every work equal" % what, got[2] == got[1],
          sorted(i for i in got[1] if got[2].get(i) != got[1][i])[:5])

# Records of one work under two titles (a title revised by another
# source) fall to different workers about half the time, and are merged
# again after the shards: over 1,000 such works, so that the merge also
# commits midway (every 1,000 works), and still equals one process.
retitled = os.path.join(tmp, "retitled")
os.mkdir(retitled)
for side in ("A", "B"):
    with open(os.path.join(retitled, side + ".jsonl"), "w") as f:
        for k in range(2400):
            f.write(json.dumps({"id": "rt%04d" % k, "title": "%s-side title %04d" % (side, k),
                                "abstract": "Retitled work %d, side %s. " % (k, side) * 3,
                                "year": 2010}) + "\n")
rdb, out = one_and_two("retitled", "works under two titles", retitled)
regrouped = re.search(r"merged (\d+) groups? of works split", out)
check("works under two titles, --jobs 2: over 1,000 merged after the shards",
      regrouped and int(regrouped.group(1)) > 1000, out[-300:])
rbase = works_of(PDX, rdb[1])
check("works under two titles: 2,400 works of two records",
      len(rbase) == 2400 and all(len(w.get("sources", [])) == 2 for w in rbase.values()), len(rbase))
check("works under two titles, --jobs 2: every work equal", works_of(PDX, rdb[2]) == rbase)

# A work of id a holding a record of id x (joined by DOI; a sorts first, so
# it is the work's id), and a work of id x read before them, split across
# the workers by their titles: one process joins the three by the id x;
# after the shards the first holds XI<x> and the second Q<x> (layout 5
# keeps XI<x> only in a work of another id), which the merge after the
# shards must pair.  (Fails when it does not: "some merged" and "equal".)
byid = os.path.join(tmp, "byid")
os.mkdir(byid)
with open(os.path.join(byid, "A.jsonl"), "w") as f:
    for k in range(300):
        f.write(json.dumps({"id": "x%04d" % k, "title": "Work known by its id %04d" % k,
                            "abstract": "Read first, under the id alone, %d. " % k * 3, "year": 2012}) + "\n")
with open(os.path.join(byid, "B.jsonl"), "w") as f:
    for k in range(300):
        for rid in ("a%04d" % k, "x%04d" % k):
            f.write(json.dumps({"id": rid, "doi": "10.5555/byid.%04d" % k,
                                "title": "Work known by its DOI %04d" % k,
                                "abstract": "Read second, with a DOI, %d. " % k * 3, "year": 2012}) + "\n")
bdb, out = one_and_two("byid", "a record's id held in a work of another id", byid)
bbase = works_of(PDX, bdb[1])
check("a record's id in a work of another id: 300 works of three records",
      len(bbase) == 300 and all(len(w.get("sources", [])) == 3 for w in bbase.values()), len(bbase))
regrouped = re.search(r"merged (\d+) groups? of works split", out)
check("a record's id in a work of another id, --jobs 2: some merged after the shards",
      regrouped and int(regrouped.group(1)) > 50, out[-300:])
check("a record's id in a work of another id, --jobs 2: every work equal", works_of(PDX, bdb[2]) == bbase)

r = pdx("index", "--db", dbs[1][0], "--jobs", "2", *sources)
check("--jobs on a non-empty index without --full: usage error", r.returncode == 2 and "--full" in r.stderr, r)
r = pdx("index", "--db", dbs[1][0], "--jobs", "2", "--full", "--page-date", "2026-07-01", *sources)
check("--jobs with --full rebuilds", r.returncode == 0 and works_of(PDX, dbs[1][0]) == base, r.stderr)
# A rebuild that fails loses nothing.  The workers are threads of the
# indexer (a library does not fork), so what can die is the whole run:
# killed midway while its workers fill their shards, it leaves the index
# as it was (the new one is built apart and only swapped in whole), and
# the next run removes the work directory it left and finishes.
big = os.path.join(tmp, "big.jsonl")
with open(big, "w") as f:
    for k in range(8000):
        f.write(json.dumps({"id": "big%d" % k, "title": "Filler work %d on graphs" % k,
                            "abstract": "Graphs and networks, filler %d. " % k * 8, "year": 2004}) + "\n")
landed = 0
for attempt in range(3):
    p = subprocess.Popen([PDX, "index", "--db", dbs[1][0], "--jobs", "2", "--full",
                          "--page-date", "2026-07-01", big] + sources,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    work_dir = "%s.jobs-%d" % (dbs[1][0], p.pid)
    shards = [os.path.join(work_dir, "shard-%d" % k) for k in range(2)]
    killed = False
    for _ in range(4000):  # until both workers have committed to their shards
        if p.poll() is not None:
            break
        if all(os.path.exists(os.path.join(sh, "postlist.glass")) for sh in shards):
            p.send_signal(signal.SIGKILL)
            killed = True
            break
        time.sleep(0.005)
    p.communicate()
    if killed and p.returncode == -signal.SIGKILL:
        landed += 1
        check("a run killed while its workers build: the index is as it was", works_of(PDX, dbs[1][0]) == base)
        check("it left its work directory", os.path.isdir(work_dir), os.listdir(tmp))
        r = pdx("index", "--db", dbs[1][0], *sources)
        check("the next run removes the killed run's work directory and says so",
              r.returncode == 0 and not os.path.exists(work_dir) and "removed" in r.stderr
              and "left by a run that was killed" in r.stderr, r.stderr)
        check("and finds nothing changed", "0 added, 0 updated, 0 removed" in r.stdout, r.stdout)
        break
check("a run was killed during a --jobs rebuild", landed == 1, landed)
r = pdx("index", "--db", os.path.join(tmp, "x"), "--jobs", "2", "-")
check("--jobs with standard input: usage error", r.returncode == 2, r)


# The progress bar, on a terminal (stderr a pseudo-terminal), with one job
# and with several: each redraw starts with \r; a bar ends with a newline
# at 100%, with the run's records so far (with several workers, their sum).
def on_tty(*args):
    """Standard error of `paperdex index ARGS` run on a terminal."""
    master, slave = pty.openpty()
    p = subprocess.Popen([PDX, "index"] + list(args), stdout=subprocess.DEVNULL,
                         stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    p.wait()
    return p.returncode, out.decode("utf-8", "replace").replace("\r\n", "\n")


def bars(err):
    """[(draws, last draw)] of each bar line of err."""
    out = []
    for line in err.split("\n"):
        draws = [d for d in line.split("\r") if d.startswith("[")]
        if draws:
            out.append((len(draws), draws[-1]))
    return out


def shown(draw):
    """(percent, records) of one draw of the bar."""
    m = re.match(r"\[[#-]+\]\s+(\d+)%\s+(\d+) records", draw)
    return (int(m.group(1)), int(m.group(2))) if m else None


parts = []
for name, n in (("first", 2500), ("second", 1500)):
    path = os.path.join(tmp, "bar-%s.jsonl" % name)
    with open(path, "w") as f:
        for k in range(n):
            f.write(json.dumps({"id": "%s%d" % (name, k), "title": "Bar work %d of the %s file" % (k, name),
                                "abstract": "Progress of indexing, shown on a terminal: %d. " % k * 6,
                                "year": 2010}) + "\n")
    parts.append(path)
rc, err = on_tty("--db", os.path.join(tmp, "bar1"), *parts)
b = bars(err)
check("one job on a terminal: exit 0, one bar per file", rc == 0 and len(b) == 2, (rc, err[-500:]))
check("one job: each file's bar ends at 100% with the run's records so far",
      [shown(d) for _, d in b] == [(100, 2500), (100, 4000)], [d for _, d in b])
rc, err = on_tty("--db", os.path.join(tmp, "bar2"), "--jobs", "2", *parts)
b = bars(err)
check("--jobs 2 on a terminal: exit 0, one bar for the run", rc == 0 and len(b) == 1, (rc, err[-500:]))
if b:
    draws, last = b[0]
    check("--jobs 2: the bar ends at 100% with every worker's records", shown(last) == (100, 4000), last)
    first = [shown(d) for d in err.split("\r") if d.startswith("[")][0]
    check("--jobs 2: the bar is drawn while the workers index", draws >= 2 and first and first[1] < 4000,
          (draws, first))
    check("--jobs 2: the bar says when the shards are merged",
          any(d.rstrip("\x1b[K").endswith("merging the shards") for d in err.split("\r")),
          err[-400:])
rc, err = on_tty("--db", os.path.join(tmp, "bar-many"), "--jobs", "2", many)
b = bars(err)
check("--jobs 2, whole files each: one bar, ending at 100% with every record",
      rc == 0 and len(b) == 1 and shown(b[0][1]) == (100, 480), (rc, b[-1:] if b else err[-300:]))
# Bad records in two files that two workers read at once: on a terminal,
# each file's first 20 are listed, then how many more, under its own name.
bad_dir = os.path.join(tmp, "many-bad")
os.mkdir(bad_dir)
for name in sorted(os.listdir(many)):
    with open(os.path.join(many, name)) as f:
        text = f.read()
    if name in ("part-00.jsonl", "part-01.jsonl"):  # a bad line after each of the first records
        n_bad = 25 if name == "part-00.jsonl" else 30
        lines = text.splitlines(True)
        text = "".join(l + ("not a record {\n" if i < n_bad else "") for i, l in enumerate(lines))
    with open(os.path.join(bad_dir, name), "w") as f:
        f.write(text)
for jobs in ("1", "2"):
    rc, err = on_tty("--db", os.path.join(tmp, "bad-many" + jobs), "--jobs", jobs, bad_dir)
    for name, more in (("part-00.jsonl", 5), ("part-01.jsonl", 10)):
        path = os.path.join(bad_dir, name)
        listed = len(re.findall(re.escape("warning: %s:" % path) + r"\d+:", err))
        check("--jobs %s on a terminal: %s's first 20 bad records listed" % (jobs, name), listed == 20,
              (rc, listed, err[-400:]))
        check("--jobs %s: then how many more, under its own name" % jobs,
              "warning: %s: %d more records skipped" % (path, more) in err, err[-400:])
# One file whose lines two workers share: each reports the bad lines it
# decoded, and the file's end is told once, when both are done with it.
bad_one = os.path.join(tmp, "bad-one.jsonl")
with open(os.path.join(bad_dir, "part-00.jsonl")) as f, open(bad_one, "w") as out:
    out.write(f.read())
rc, err = on_tty("--db", os.path.join(tmp, "bad-one"), "--jobs", "2", bad_one)
listed = len(re.findall(re.escape("warning: %s:" % bad_one) + r"\d+:", err))
check("--jobs 2, one file's lines shared: exit 3 (records skipped), its first 20 bad records listed, then 5 more",
      rc == 3 and listed == 20 and "warning: %s: 5 more records skipped" % bad_one in err, (rc, listed, err[-400:]))
rc, err = on_tty("--db", os.path.join(tmp, "bar3"), "--jobs", "2", "--no-progress", *parts)
check("--no-progress on a terminal: no bar", rc == 0 and not bars(err), err[-300:])
r = pdx("index", "--db", os.path.join(tmp, "bar4"), "--jobs", "2", *parts)
check("not on a terminal (cron): no bar", r.returncode == 0 and "\r" not in r.stderr, r.stderr[-300:])
done()
