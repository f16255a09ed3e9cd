#!/usr/bin/env python3
"""crash.py PAPERDEX [KILLS] [SEED]

Crash safety.  An indexer is killed with SIGKILL at random moments, KILLS
times, while it indexes a few thousand records from JSONL, arXiv and page
sources (some sources edited or deleted between runs, so removals get
killed too).  After every kill:

  * xapian-check passes on the index;
  * a search runs and shows a committed state: every source the index has
    a fingerprint for has all its records in the index (the fingerprint
    is written in the same commit as the source's last records);
  * after every eighth kill, phrases, quoted words and NEAR match the
    works they match in a fresh build of the works the index holds (the
    works' positions are committed with them);

and at the end one more run completes the work and the index equals a
fresh build of the same sources.  Then a full disk: a run whose files may
not grow past a few MB (RLIMIT_FSIZE, as a full disk fails a write) must
fail with a clear message, leave an index that passes xapian-check and
holds a committed state, and the next run must complete it.  Last,
--full: killed while it builds, the index is as it was and readers saw it
whole; run to the end, it removes what the killed run left, equals a fresh
build, and readers saw the old index or the new one, never a part; on a
full disk (one process, and --jobs 2) it exits 1 and the index is as it was.
"""
import json, os, random, re, shutil, signal, subprocess, sys, tempfile, time

PDX = sys.argv[1]
KILLS = int(sys.argv[2]) if len(sys.argv) > 2 else 24
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 20261122)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import FAILED_WRITES_ENV, check, done, files_limited_to, ranked, synthetic_work  # noqa: E402


record = synthetic_work


tmp = tempfile.mkdtemp(prefix="pdx-crash-")
src = os.path.join(tmp, "src")
os.makedirs(src)
editions = {}


def write_jsonl(i, n=900, edition=0):
    editions[i] = edition
    with open(os.path.join(src, "part-%02d.jsonl" % i), "w", encoding="utf-8") as f:
        for k in range(i * 1000, i * 1000 + n):
            f.write(json.dumps(record(k, edition), ensure_ascii=False) + "\n")


for i in range(6):
    write_jsonl(i)
# A profile page repeating some works of part 0 (merges across sources).
with open(os.path.join(src, "profile.txt"), "w", encoding="utf-8") as f:
    f.write("Researcher profile\n\nHelena Sørby\n\nPublished work\n\n")
    for k in range(0, 40):
        w = record(k)
        f.write("preprint%darXiv\n%s\n%s\n\n" % (w["year"], w["title"], w["abstract"]))

db = os.path.join(tmp, "ix")


def run_index(*extra, **kw):
    return subprocess.run([PDX, "index", "--db", db, "--batch", "150"] + list(extra) + [src],
                          capture_output=True, text=True, **kw)


def killed_run(batch, lo, hi):
    """`paperdex index` on src, SIGKILLed after a random lo..hi seconds
    unless it ended first; whether the kill landed."""
    p = subprocess.Popen([PDX, "index", "--db", db, "--batch", str(batch), src],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(rng.uniform(lo, hi))
    landed = p.poll() is None
    if landed:
        p.send_signal(signal.SIGKILL)
    p.wait()
    return landed


def all_works(path):
    """Every work of the index as JSON lines, page by page."""
    lines, off = [], 0
    while True:
        s = subprocess.run([PDX, "search", "--db", path, "--all", "--limit", "10000", "--offset", str(off),
                            "--format", "jsonl"], capture_output=True, text=True)
        if s.returncode != 0:
            return None, s.stderr
        page = s.stdout.splitlines()
        lines += page
        if len(page) < 10000:
            return lines, ""
        off += 10000


def committed_state_ok(label):
    """xapian-check, and every fingerprinted source fully present."""
    if not os.path.exists(os.path.join(db, "iamglass")):
        return  # killed before the first commit
    x = subprocess.run(["xapian-check", db], capture_output=True, text=True)
    check(label + ": xapian-check", x.returncode == 0 and "No errors found" in x.stdout, x.stdout[-300:] + x.stderr)
    lines, err = all_works(db)
    check(label + ": search runs", lines is not None, err)
    if lines is None:
        return
    per_file = {}
    for l in lines:
        for so in json.loads(l)["sources"]:
            per_file[so["file"]] = per_file.get(so["file"], 0) + 1
    st = subprocess.run([PDX, "stats", "--db", db, "--sources", "--format", "json"], capture_output=True, text=True)
    for l in st.stdout.splitlines():
        fp = json.loads(l)
        if not fp["complete"]:
            continue  # a provisional fingerprint: the source was being read
        check(label + ": %s has all %d records" % (os.path.basename(fp["path"]), fp["records"]),
              per_file.get(fp["path"], 0) == fp["records"], per_file.get(fp["path"], 0))


PHRASES = ['"neural network"', '"graph neural network"', '"wind power"', '"protein folding"',
           'title:"neural network"', '"forecast"', 'glacier NEAR/2 radar', '"privacy retrieval"']


def phrases_agree(label):
    """Phrases, quoted words and NEAR over the index as a kill left it
    match what they match in a fresh build of the same works: the works'
    positions are committed with them."""
    if not os.path.exists(os.path.join(db, "iamglass")):
        return
    lines, err = all_works(db)
    if lines is None:
        return
    same = os.path.join(tmp, "same")
    shutil.rmtree(same, ignore_errors=True)
    with open(same + ".jsonl", "w", encoding="utf-8") as f:
        for l in lines:
            w = json.loads(l)
            f.write(json.dumps({k: w[k] for k in ("id", "title", "abstract", "authors", "year")
                                if k in w}, ensure_ascii=False) + "\n")
    subprocess.run([PDX, "index", "--quiet", "--db", same, same + ".jsonl"], capture_output=True, check=True)
    for q in PHRASES:
        a, b = (sorted(i for i, _ in ranked(PDX, d, q, 10000)) for d in (db, same))
        check("%s: %s matches as in a fresh build of its %d works" % (label, q, len(lines)),
              a == b and a, "%d works against %d" % (len(a), len(b)))


def snapshot(path):
    out, err = all_works(path)
    if out is None:
        raise RuntimeError(err)
    works = [json.loads(l) for l in out]
    for w in works:
        del w["rank"]  # a listing position: compared as a whole set instead
    return sorted(json.dumps(w, sort_keys=True, ensure_ascii=False) for w in works)


def change_sources():
    """Edit, delete, add back: three of the six parts."""
    for i in rng.sample(range(6), 3):
        if os.path.exists(os.path.join(src, "part-%02d.jsonl" % i)) and rng.random() < 0.2:
            os.remove(os.path.join(src, "part-%02d.jsonl" % i))
        else:
            write_jsonl(i, n=rng.randint(700, 1000), edition=editions.get(i, 0) + 1)


# When to kill: within the first 60% of what a run updating three parts
# takes on this machine, timed on an index of its own (a fixed window
# would let a faster indexer finish before the kill: the runs must be
# caught mid-way to test anything).
cal = os.path.join(tmp, "calibrate")
subprocess.run([PDX, "index", "--db", cal, "--batch", "150", src], capture_output=True, check=True)
took = []
for _ in range(2):
    for i in range(3):
        write_jsonl(i, n=850, edition=editions.get(i, 0) + 1)
    t0 = time.time()
    subprocess.run([PDX, "index", "--db", cal, "--batch", "150", src], capture_output=True, check=True)
    took.append(time.time() - t0)
shutil.rmtree(cal)
KILL_BY = max(0.1, 0.6 * min(took))
print("a run updating three parts takes %.2f s here: kills within %.2f s" % (min(took), KILL_BY))

kills = 0
for n in range(KILLS):
    if n > 0:  # change the sources between runs
        change_sources()
    kills += killed_run(150, 0.02, KILL_BY)
    committed_state_ok("after run %d" % n)
    if n % 8 == 7:
        phrases_agree("after run %d" % n)
check("at least %d kills landed mid-run" % (KILLS - KILLS // 6), kills >= KILLS - KILLS // 6, kills)

p = run_index()
check("the next run completes", p.returncode == 0, p.stdout + p.stderr)
committed_state_ok("completed")
fresh = os.path.join(tmp, "fresh")
subprocess.run([PDX, "index", "--db", fresh, src], capture_output=True, check=True)
a, b = snapshot(db), snapshot(fresh)
def brief(x):
    d = json.loads(x)
    return "%s %s %s" % (d["id"], d["title"][:40], [(os.path.basename(s["file"]), s.get("line")) for s in d["sources"]])


if a != b and os.environ.get("PDX_DEBUG"):
    ia = {json.loads(x)["id"]: json.loads(x) for x in set(a) - set(b)}
    ib = {json.loads(x)["id"]: json.loads(x) for x in set(b) - set(a)}
    for k in list(ia)[:2]:
        print("INC ", {f: v for f, v in ia[k].items() if ib.get(k, {}).get(f) != v})
        print("FRESH", {f: v for f, v in ib.get(k, {}).items() if ia[k].get(f) != v})
check("after the kills, equal to a fresh build (%d works)" % len(b), a == b,
      "only incremental %s; only fresh %s" % ([brief(x) for x in sorted(set(a) - set(b))[:4]],
                                              [brief(x) for x in sorted(set(b) - set(a))[:4]]))

# A full disk: files may not grow past 3 MB while a big new source is read.
with open(os.path.join(src, "big.jsonl"), "w", encoding="utf-8") as f:
    for k in range(100000, 106000):
        f.write(json.dumps(record(k), ensure_ascii=False) + "\n")


small_disk = files_limited_to(3 << 20)
smaller_disk = files_limited_to(1 << 20)  # below the largest table of the rebuilt index


before = snapshot(db)
p = subprocess.run([PDX, "index", "--db", db, "--batch", "150", src], capture_output=True, text=True,
                   preexec_fn=small_disk, env=FAILED_WRITES_ENV)
check("full disk: exit 1", p.returncode == 1, (p.returncode, p.stderr[-300:]))
check("full disk: a clear message", "I/O error" in p.stderr and "File too large" in p.stderr, p.stderr)
committed_state_ok("after the full disk")
after = snapshot(db)
lost = sorted(set(before) - set(after))
check("full disk: the works indexed before it are all still there, unchanged", not lost,
      "%d of %d lost or changed, e.g. %s" % (len(lost), len(before), [brief(x) for x in lost[:3]]))
p = run_index()
check("after the full disk, the next run completes", p.returncode == 0, p.stdout + p.stderr)
shutil.rmtree(fresh)
subprocess.run([PDX, "index", "--db", fresh, src], capture_output=True, check=True)
check("and equals a fresh build", snapshot(db) == snapshot(fresh))

# A new snapshot of one big file, read record by record: edits
# in place, deletions (every record below moves), appends and a shuffle,
# killed part way through its additions or its removals.  Each kill leaves
# a committed state; the next run finishes, and equals a fresh build.
snap = os.path.join(src, "snap.jsonl")
snap_keys = list(range(200000, 206000))
snap_edition = {}


def write_snap():
    with open(snap, "w", encoding="utf-8") as f:
        for k in snap_keys:
            f.write(json.dumps(record(k, snap_edition.get(k, 0)), ensure_ascii=False) + "\n")


write_snap()
p = run_index()
check("big snapshot: first read", p.returncode == 0, p.stdout + p.stderr)
landed, next_key = 0, 206000
for n in range(4):
    for k in rng.sample(snap_keys, 1200):
        snap_edition[k] = snap_edition.get(k, 0) + 1
    for k in rng.sample(snap_keys, 1200):
        snap_keys.remove(k)
    snap_keys += list(range(next_key, next_key + 600))
    next_key += 600
    rng.shuffle(snap_keys)
    write_snap()
    landed += killed_run(50, 0.2, 1.5)
    committed_state_ok("big snapshot, kill %d" % n)
check("big snapshot: kills landed during record-level updates (%d of 4)" % landed, landed >= 1, landed)
p = run_index()
m = re.search(r"records: (\d+) read, (\d+) added, (\d+) updated, (\d+) removed, (\d+) unchanged", p.stdout)
check("big snapshot: the next run completes, compares record by record (some unchanged), and its counts "
      "add up", p.returncode == 0 and m and int(m.group(5)) > 0
      and int(m.group(1)) == int(m.group(2)) + int(m.group(3)) + int(m.group(5)), p.stdout + p.stderr)
shutil.rmtree(fresh)
subprocess.run([PDX, "index", "--db", fresh, src], capture_output=True, check=True)
a, b = snapshot(db), snapshot(fresh)
check("big snapshot: equals a fresh build (%d works)" % len(b), a == b,
      "only incremental %s; only fresh %s" % ([brief(x) for x in sorted(set(a) - set(b))[:3]],
                                              [brief(x) for x in sorted(set(b) - set(a))[:3]]))

# A real full disk, where the machine lets us mount a small tmpfs (root).
mnt = os.path.join(tmp, "mnt")
os.makedirs(mnt)
if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mnt], capture_output=True).returncode == 0:
    try:
        small = os.path.join(mnt, "ix")
        subprocess.run([PDX, "index", "--db", small, "--batch", "100", os.path.join(src, "profile.txt")],
                       capture_output=True, check=True)
        before = subprocess.run([PDX, "search", "--db", small, "--all", "--format", "jsonl", "--limit", "10000"],
                                capture_output=True, text=True).stdout
        p = subprocess.run([PDX, "index", "--db", small, "--batch", "100000", os.path.join(src, "big.jsonl")],
                           capture_output=True, text=True, env=FAILED_WRITES_ENV)
        check("tmpfs full: exit 1", p.returncode == 1, (p.returncode, p.stderr[-300:]))
        check("tmpfs full: says no space", "No space left on device" in p.stderr, p.stderr)
        x = subprocess.run(["xapian-check", small], capture_output=True, text=True)
        check("tmpfs full: xapian-check passes", x.returncode == 0, x.stdout[-200:])
        after = subprocess.run([PDX, "search", "--db", small, "--all", "--format", "jsonl", "--limit", "10000"],
                               capture_output=True, text=True).stdout
        check("tmpfs full: the last commit is what searches see", before == after and before)
        print("a real full disk (3 MB tmpfs) was checked too")
    finally:
        subprocess.run(["umount", mnt])
else:
    print("(no tmpfs: cannot mount here; the RLIMIT_FSIZE case above stands for a full disk)")

# --full builds the new index beside the old one and swaps it in whole.
import glob, threading  # noqa: E402


def works_seen(stop, seen):
    """Count the works a reader sees, over and over, until stop is set."""
    while not stop.is_set():
        r = subprocess.run([PDX, "stats", "--db", db, "--format", "json"], capture_output=True, text=True)
        seen.append(json.loads(r.stdout)["works"] if r.returncode == 0 else "exit %d: %s" % (r.returncode, r.stderr))


def with_reader(fn):
    stop, seen = threading.Event(), []
    t = threading.Thread(target=works_seen, args=(stop, seen))
    t.start()
    try:
        out = fn()
    finally:
        stop.set()
        t.join()
    return out, seen


os.remove(os.path.join(src, "big.jsonl"))  # under search's 10,000-hit page again
check("big.jsonl taken out", run_index().returncode == 0)


def n_works():
    r = subprocess.run([PDX, "stats", "--db", db, "--format", "json"], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)["works"]


before, n_before = snapshot(db), n_works()
write_jsonl(1, n=500, edition=editions.get(1, 0) + 7)  # the rebuild will differ
os.remove(os.path.join(src, "part-03.jsonl")) if os.path.exists(os.path.join(src, "part-03.jsonl")) else None


def killed_full():
    p = subprocess.Popen([PDX, "index", "--db", db, "--batch", "150", "--full", src],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    work = "%s.full-%d" % (db, p.pid)
    t0 = time.time()
    while p.poll() is None and not os.path.exists(os.path.join(work, "new", "iamglass")) and time.time() - t0 < 60:
        time.sleep(0.01)
    time.sleep(0.3)  # a few commits into the new index
    alive = p.poll() is None
    p.send_signal(signal.SIGKILL)
    p.wait()
    return alive, work


(alive, work), seen = with_reader(killed_full)
check("--full killed while it builds the new index", alive)
check("killed --full: the index is as it was", snapshot(db) == before, (len(before), len(snapshot(db))))
committed_state_ok("killed --full")
check("killed --full: readers saw every work throughout (%d reads)" % len(seen),
      len(seen) > 0 and all(n == n_before for n in seen), sorted(set(map(str, seen)))[:5])
check("killed --full: its work directory is left", os.path.isdir(work), os.listdir(tmp))

p, seen = with_reader(lambda: run_index("--full"))
shutil.rmtree(fresh)
subprocess.run([PDX, "index", "--db", fresh, src], capture_output=True, check=True)
new, n_new = snapshot(db), n_works()
check("--full completes", p.returncode == 0, p.stdout + p.stderr)
check("--full removes the work directory a killed run left, and says so",
      not os.path.exists(work) and "removed %s, left by a run that was killed" % work in p.stderr, p.stderr)
check("--full leaves no work directory", glob.glob(db + ".*") == [], glob.glob(db + ".*"))
check("--full equals a fresh build (%d works, %d before)" % (len(new), len(before)),
      new == snapshot(fresh) and new != before)
committed_state_ok("after --full")
check("during --full readers saw the old index or the new one, never a part (%d reads: %s)"
      % (len(seen), sorted(set(map(str, seen)))),
      len(seen) > 0 and set(seen) <= {n_before, n_new} and n_new != n_before, seen[:20])

# A full disk during a rebuild, in one process and with --jobs 2.
for extra in ([], ["--jobs", "2"]):
    p = subprocess.run([PDX, "index", "--db", db, "--batch", "150", "--full"] + extra + [src],
                       capture_output=True, text=True, preexec_fn=smaller_disk, env=FAILED_WRITES_ENV)
    label = "full disk during --full %s" % " ".join(extra)
    # In the summary line, or in pdx_exit_on_fatal's message where Xapian
    # could not recover from the failed write (fulldisk.py).
    check(label + ": exit 1, and says the index is as it was",
          p.returncode == 1 and "File too large" in p.stderr
          and "the rebuild failed: the index is as it was" in p.stdout + p.stderr,
          p.stdout + p.stderr)
    check(label + ": the index is as it was, and no work directory is left",
          snapshot(db) == new and glob.glob(db + ".*") == [], glob.glob(db + ".*"))

write_jsonl(1, n=900, edition=editions.get(1, 0) + 1)
p = subprocess.Popen([PDX, "index", "--db", db, "--batch", "150", "--full", "--in-place", src],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
t0 = time.time()
while p.poll() is None and time.time() - t0 < 120:  # until it has refilled a part
    r = subprocess.run([PDX, "stats", "--db", db, "--format", "json"], capture_output=True, text=True)
    if r.returncode == 0 and 0 < json.loads(r.stdout)["works"] < n_new:
        break
    time.sleep(0.01)
alive = p.poll() is None
p.send_signal(signal.SIGKILL)
p.wait()
part = n_works()
check("--full --in-place killed part way: a part built index (%d works)" % part, alive and 0 < part < n_new,
      (alive, part, n_new))
committed_state_ok("killed --full --in-place")
p = run_index("--full", "--in-place")
shutil.rmtree(fresh)
subprocess.run([PDX, "index", "--db", fresh, src], capture_output=True, check=True)
check("--full --in-place completes and equals a fresh build",
      p.returncode == 0 and snapshot(db) == snapshot(fresh), p.stdout + p.stderr)
# An index of layout 1 (stamped so here: the upgrade is about detecting it
# and rebuilding beside it).  A search says what to run; cron's own line
# rebuilds it beside itself, the old one untouched until the swap (a run
# killed part way leaves it as it was), and says so in its summary.
def layout():
    return subprocess.run(["xapian-metadata", "get", db, "paperdex.layout"],
                          capture_output=True, text=True).stdout.strip()


def doccount():
    out = subprocess.run(["xapian-delve", db], capture_output=True, text=True).stdout
    return [l for l in out.splitlines() if l.startswith("number of documents")]


subprocess.run(["xapian-metadata", "set", db, "paperdex.layout", "1"], check=True)
p = subprocess.run([PDX, "search", "--db", db, "anything"], capture_output=True, text=True)
check("layout 1: search refuses and names the command that rebuilds it",
      p.returncode != 0 and "has index layout 1" in p.stderr
      and "paperdex index --db " + db + " " + os.path.join(src, "") in p.stderr, p.stderr)
old_docs = doccount()
p = subprocess.Popen([PDX, "index", "--db", db, "--batch", "150", src],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
work = "%s.full-%d" % (db, p.pid)
t0 = time.time()
while p.poll() is None and not os.path.exists(os.path.join(work, "new", "iamglass")) and time.time() - t0 < 60:
    time.sleep(0.01)
time.sleep(0.2)
alive = p.poll() is None
p.send_signal(signal.SIGKILL)
p.wait()
check("layout 1: the upgrade killed part way leaves the old index as it was",
      alive and layout() == "1" and doccount() == old_docs, (alive, layout(), doccount(), old_docs))
probe = os.path.join(tmp, "probe")  # the layout this paperdex writes
subprocess.run([PDX, "index", "--quiet", "--db", probe, os.path.join(src, "profile.txt")], check=True)
LAYOUT = str(json.loads(subprocess.run([PDX, "stats", "--db", probe, "--format", "json"], capture_output=True,
                                       text=True, check=True).stdout)["layout"])
p = run_index()
check("layout 1: cron's run rebuilds it and says so",
      p.returncode == 0 and "rebuilt from index layout 1 to layout %s" % LAYOUT in p.stdout
      and layout() == LAYOUT,
      p.stderr[:3500] + p.stdout)
shutil.rmtree(fresh)
subprocess.run([PDX, "index", "--db", fresh, src], capture_output=True, check=True)
check("layout 1: the rebuilt index equals a fresh build", snapshot(db) == snapshot(fresh))
p = run_index()
check("layout 1: the next run is an ordinary one", p.returncode == 0 and "rebuilt" not in p.stdout
      and "0 added, 0 updated, 0 removed" in p.stdout, p.stdout + p.stderr)
# Layout 3, the one before this paperdex's: the same upgrade, and the
# rebuilt index again equals a fresh build.
subprocess.run(["xapian-metadata", "set", db, "paperdex.layout", "3"], check=True)
p = subprocess.run([PDX, "search", "--db", db, "anything"], capture_output=True, text=True)
check("layout 3: search refuses and names the command that rebuilds it",
      p.returncode != 0 and "has index layout 3" in p.stderr and "paperdex index --db " + db in p.stderr,
      p.stderr)
p = run_index()
check("layout 3: cron's run rebuilds it and says so",
      p.returncode == 0 and "rebuilt from index layout 3 to layout %s" % LAYOUT in p.stdout
      and layout() == LAYOUT, p.stdout + p.stderr)
check("layout 3: the rebuilt index equals a fresh build", snapshot(db) == snapshot(fresh))
# Layout 5 is read as it is by layout 6 (its records in the document data,
# which tests/unit/test_store.cc converts an index to and reads back):
# searched as it is, written to as it is (no rebuild), and stamped 6 by its
# first writer, so that a paperdex of layout 5 then refuses it.
subprocess.run(["xapian-metadata", "set", db, "paperdex.layout", "5"], check=True)
want = subprocess.run([PDX, "search", "--db", fresh, "--format", "json", "--author", "Mensah, K."],
                      capture_output=True, text=True)
p = subprocess.run([PDX, "search", "--db", db, "--format", "json", "--author", "Mensah, K."],
                   capture_output=True, text=True)
check("layout 5: searched as it is", p.returncode == 0 and want.returncode == 0 and p.stdout == want.stdout
      and json.loads(p.stdout)["total"] > 1000 and layout() == "5", (p.returncode, p.stderr, p.stdout[:300], layout()))
p = run_index()
check("layout 5: cron's run is an ordinary one, and stamps the index %s" % LAYOUT,
      p.returncode == 0 and "rebuilt" not in p.stdout and "0 added, 0 updated, 0 removed" in p.stdout
      and layout() == LAYOUT, (p.stdout, p.stderr, layout()))

# Layout 6 is read as it is by layouts 7 to 9: its positions are in
# Xapian's position table, where they keep them in a value of each work (an
# index built with --xapian-positions, stamped 6 and its positions key
# removed, is such an index).  Its phrases are found as in a fresh build;
# its first writer adds works with their positions where the old ones have
# theirs (Xapian's table) and stamps it with this layout, and the phrases
# of old and new works are found.  (Layout 7's values, read as they are
# beside layout 8's: tests/unit/test_positions.cc.)
l6src, l6, l7 = (os.path.join(tmp, n) for n in ("l6src", "l6", "l7"))
os.makedirs(l6src)
PHRASE_WORKS = [("p1", "Decoders for surface codes", "a method for quantum error correction on chips"),
                ("p2", "Noise in qubits", "the error in quantum correction steps"),
                ("p3", "Quantum Error Correction codes", "a survey of codes"),
                ("p4", "Correction of errors", "quantum noise, error rates, correction steps")]
with open(os.path.join(l6src, "a.jsonl"), "w", encoding="utf-8") as f:
    for i, t, a in PHRASE_WORKS:
        f.write(json.dumps({"id": i, "title": t, "abstract": a, "authors": ["Ada Lovelace"], "year": 2020}) + "\n")
subprocess.run([PDX, "index", "--xapian-positions", "--db", l6, l6src], capture_output=True, check=True)
subprocess.run([PDX, "index", "--db", l7, l6src], capture_output=True, check=True)
subprocess.run(["xapian-metadata", "set", l6, "paperdex.layout", "6"], check=True)
subprocess.run(["xapian-metadata", "set", l6, "paperdex.positions", ""], check=True)


def phrase_ids(path, q='"quantum error correction"'):
    r = subprocess.run([PDX, "search", "--db", path, "--format", "json", q], capture_output=True, text=True)
    return sorted(h["id"] for h in json.loads(r.stdout)["hits"]) if r.returncode == 0 else r.stderr


def meta(path, key):
    return subprocess.run(["xapian-metadata", "get", path, key], capture_output=True, text=True).stdout.strip()


check("layout 6: a phrase found as in a fresh build",
      phrase_ids(l6) == phrase_ids(l7) == ["p1", "p3"] and meta(l6, "paperdex.layout") == "6",
      (phrase_ids(l6), phrase_ids(l7)))
with open(os.path.join(l6src, "b.jsonl"), "w", encoding="utf-8") as f:
    f.write(json.dumps({"id": "p5", "title": "Fault tolerance", "abstract": "fast quantum error correction",
                        "authors": ["Ada Lovelace"], "year": 2021}) + "\n")
p = subprocess.run([PDX, "index", "--db", l6, l6src], capture_output=True, text=True)
check("layout 6: its first writer adds works without a rebuild and stamps it %s" % LAYOUT,
      p.returncode == 0 and "rebuilt" not in p.stdout and meta(l6, "paperdex.layout") == LAYOUT
      and meta(l6, "paperdex.positions") == "xapian-inherited", (p.stdout, p.stderr))
check("layout 6: the phrases of old and new works are found", phrase_ids(l6) == ["p1", "p3", "p5"],
      phrase_ids(l6))

# Work directories of dead runs: removed; one holding an index a failed swap
# moved aside ("old") is kept and pointed at; a live run's is left alone.
dead = subprocess.Popen(["true"])
dead.wait()
orphan, kept, live = "%s.jobs-%d" % (db, dead.pid), "%s.full-%d" % (db, dead.pid), "%s.full-%d" % (db, os.getpid())
for d in (orphan, os.path.join(kept, "old"), live):
    os.makedirs(d)
p = run_index()
check("a dead run's work directory is removed", not os.path.exists(orphan) and "removed " + orphan in p.stderr, p.stderr)
check("one holding an old index is kept, and pointed at",
      os.path.isdir(os.path.join(kept, "old")) and kept in p.stderr and "look at it" in p.stderr, p.stderr)
check("a live run's is left alone", os.path.isdir(live) and live not in p.stderr, p.stderr)
shutil.rmtree(kept)
shutil.rmtree(live)

p = run_index("--in-place")
check("--in-place without --full: usage error", p.returncode == 2 and "--full" in p.stderr, p.stderr)

# An index whose parent directory cannot be written (a read-only bind
# mount of the parent, the index itself bound writable): --full and --jobs
# cannot build beside it and say so, the index as it was; --in-place falls
# back to emptying it inside.
ro = os.path.join(tmp, "ro")
os.makedirs(ro)
if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", ro], capture_output=True).returncode == 0:
    rix = os.path.join(ro, "ix")
    try:
        part = os.path.join(src, "part-02.jsonl")
        subprocess.run([PDX, "index", "--db", rix, part], capture_output=True, check=True)
        mounted = subprocess.run(["mount", "--bind", rix, rix], capture_output=True).returncode == 0 and \
            subprocess.run(["mount", "-o", "remount,bind,ro", ro], capture_output=True).returncode == 0
        try:
            os.mkdir(os.path.join(ro, "probe"))
            mounted = False  # the mount did not make the parent read-only here
        except OSError:
            pass
        if mounted:
            def rsnap():
                return subprocess.run([PDX, "search", "--db", rix, "--all", "--limit", "10000", "--format", "jsonl"],
                                      capture_output=True, text=True).stdout
            was = rsnap()
            for extra in (["--full"], ["--full", "--jobs", "2"]):
                p = subprocess.run([PDX, "index", "--db", rix] + extra + [part], capture_output=True, text=True)
                check("parent not writable, %s: exit 1, says why, the index as it was" % " ".join(extra),
                      p.returncode == 1 and "cannot create: Read-only file system" in p.stderr
                      and "the index is as it was" in p.stdout and rsnap() == was and was, p.stdout + p.stderr)
            write_jsonl(2, n=300, edition=editions.get(2, 0) + 1)
            p = subprocess.run([PDX, "index", "--db", rix, "--full", "--in-place", part], capture_output=True, text=True)
            n = subprocess.run([PDX, "stats", "--db", rix, "--format", "json"], capture_output=True, text=True)
            check("parent not writable, --full --in-place: empties the index inside, and says so",
                  p.returncode == 0 and "emptying the index inside instead" in p.stderr
                  and json.loads(n.stdout)["works"] == 300, p.stdout + p.stderr + n.stdout)
            print("a read-only parent directory was checked too")
        else:
            print("(no bind mounts here: the read-only parent case is not checked)")
    finally:
        subprocess.run(["umount", rix], capture_output=True)
        subprocess.run(["umount", ro], capture_output=True)
else:
    print("(no tmpfs: the read-only parent case is not checked)")

shutil.rmtree(tmp)
print("%d kills landed mid-run" % kills)
done()
