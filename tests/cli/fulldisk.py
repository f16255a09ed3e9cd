"""fulldisk.py -- a disk that fills up at every point of a commit.

usage: fulldisk.py PAPERDEX

An index of 5,400 works, then a run adding 6,000 more with files limited
(RLIMIT_FSIZE, as a full disk fails a write) to sizes a few blocks apart,
so that the write fails at different places of Xapian's commit.  Xapian
1.4 cannot survive some of them: a write that fails while glass merges
value streams fails again in a destructor during the cleanup, and C++
calls std::terminate (an abort with a core dump, exit -6, in
tests/cli/crash.py's CI run).  Every run must exit 1 with an I/O error
naming the system's error, and leave the index whole (xapian-check
clean, every work of before still there); at least one of them must meet
the path Xapian cannot recover from (pdx_exit_on_fatal's message), or the
sizes no longer test it and must be moved.  The records and batch are
fixed; which runs meet that path varies with the builder thread's
timing: of ten sizes 194 KB apart, 0 to 6 met it (0 once in CI, under
ASan, with another test running beside it), so twenty sizes are tried.
"""
import json, os, shutil, subprocess, sys, tempfile

PDX = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import FAILED_WRITES_ENV, check, done, files_limited_to, synthetic_work  # noqa: E402


def record(k):
    return synthetic_work(k, title="Full disk work")


def write(path, ks):
    with open(path, "w", encoding="utf-8") as f:
        for k in ks:
            f.write(json.dumps(record(k), ensure_ascii=False) + "\n")


tmp = tempfile.mkdtemp(prefix="pdx-fulldisk-")
src, base, db = (os.path.join(tmp, n) for n in ("src", "base", "ix"))
os.makedirs(src)
for i in range(6):
    write(os.path.join(src, "part-%02d.jsonl" % i), range(i * 1000, i * 1000 + 900))
subprocess.run([PDX, "index", "--db", base, "--batch", "150", src], capture_output=True, check=True)
write(os.path.join(src, "big.jsonl"), range(100000, 106000))


def works(path):
    """Every work's id (pages of 10,000: a run may have added more than
    5,000 before the disk filled), or the error."""
    ids = []
    for offset in (0, 10000):
        r = subprocess.run([PDX, "search", "--db", path, "--all", "--limit", "10000", "--offset",
                            str(offset), "--format", "jsonl"], capture_output=True, text=True)
        if r.returncode != 0:
            return r.stderr
        ids += [json.loads(l)["id"] for l in r.stdout.splitlines()]
    return sorted(ids)


before = works(base)
check("the index before holds 5,400 works", len(before) == 5400, len(before))
unrecoverable = 0
# Limits 194 KB apart from 9.7 MB: the commits of the big source that
# grow the posting list table (layout 7 keeps no position table; a scan
# of limits from 1 MB to 19.4 MB met the unrecoverable path between 8.4
# and 17 MB).
SIZES = range(92, 132, 2)
for n in SIZES:
    limit = (1 << 20) + n * 97 * 1024

    shutil.rmtree(db, ignore_errors=True)
    shutil.copytree(base, db)
    p = subprocess.run([PDX, "index", "--db", db, "--batch", "150", src], capture_output=True,
                       text=True, preexec_fn=files_limited_to(limit), env=FAILED_WRITES_ENV)
    label = "files limited to %d bytes" % limit
    check(label + ": exit 1", p.returncode == 1, (p.returncode, p.stderr[-300:]))
    check(label + ": an I/O error naming the system's error",
          "I/O error" in p.stderr and "File too large" in p.stderr, p.stderr[-300:])
    unrecoverable += "Xapian could not recover" in p.stderr
    x = subprocess.run(["xapian-check", db], capture_output=True, text=True)
    check(label + ": xapian-check", x.returncode == 0 and "No errors found" in x.stdout, x.stdout[-300:])
    after = works(db)
    check(label + ": the works before are all still there",
          isinstance(after, list) and set(before) <= set(after), after if isinstance(after, str) else ("missing", sorted(set(before) - set(after))[:5], len(after)))

print("%d of %d runs met the failure Xapian cannot recover from" % (unrecoverable, len(SIZES)))
check("some runs met the failure Xapian cannot recover from", unrecoverable > 0, unrecoverable)

# Under a file size limit with the signal left as cron leaves it (SIGXFSZ
# ends a process that does not ignore it): the run says what failed.
def limited_only(limit):
    def f():
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return f


shutil.rmtree(db, ignore_errors=True)
p = subprocess.run([PDX, "index", "--db", db, "--batch", "150", src], capture_output=True, text=True,
                   preexec_fn=limited_only(4 << 20), env=FAILED_WRITES_ENV)
check("under ulimit -f: exit 1 with the system's error, not killed by SIGXFSZ",
      p.returncode == 1 and "File too large" in p.stderr, (p.returncode, p.stderr[-300:]))

# A real full disk (ENOSPC): a small tmpfs, where this machine lets us
# mount one (root); --full and --jobs 2 write their new index without a
# copy of its earlier revision, where Xapian's own error is replaced by
# the failed cancel of the commit.
small = os.path.join(tmp, "small")
os.makedirs(small)
m = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", small], capture_output=True)
if m.returncode != 0:
    print("note: no tmpfs could be mounted here (%s); the ENOSPC runs are left out"
          % m.stderr.decode().strip()[:100])
else:
    try:
        sdb = os.path.join(small, "ix")
        subprocess.run([PDX, "index", "--db", sdb, os.path.join(src, "part-00.jsonl")],
                       capture_output=True, check=True)
        few = works(sdb)
        for opts in (["--full"], ["--full", "--jobs", "2"], []):
            p = subprocess.run([PDX, "index", "--db", sdb, "--batch", "150"] + opts + [src],
                               capture_output=True, text=True, env=FAILED_WRITES_ENV)
            label = "a full disk, %s" % (" ".join(opts) or "an update")
            check(label + ": exit 1 naming ENOSPC",
                  p.returncode == 1 and "No space left on device" in p.stderr, (p.returncode, p.stderr[-400:]))
            check(label + ": the works before are all still there", set(few) <= set(works(sdb)))
            if opts:
                check(label + ": the index is as it was", works(sdb) == few)
    finally:
        subprocess.run(["umount", small])
shutil.rmtree(tmp)
done()
