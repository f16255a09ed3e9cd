"""harness.py -- what the Python CLI tests share: check() counts and reports
a failure and goes on; done() prints the closing line "N passed, N failed"
and exits non-zero on any failure, or when nothing was checked;
free_port() names a loopback port nothing listens on; scratch() makes a
working directory that goes away with the test; works_of() and
ranked() read an index through the CLI; arxiv_subset() takes records
evenly from the shared arXiv file, and arxiv_20k_paths() and arxiv_20k()
name the 20,000 of them the fixture arxiv_20k.py indexes; synthetic_work(),
files_limited_to() and FAILED_WRITES_ENV serve the crash and full-disk
tests; repeat_env() is the environment of a command run over many
inputs."""
import atexit
import gzip
import os
import random
import resource
import signal
import json
import socket
import shutil
import subprocess
import sys
import tempfile

passed = failed = 0


def check(label, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL %s %s" % (label, str(detail)[:4000]))  # room for a sanitizer trace


def done():
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


def scratch(prefix):
    """A new directory under the system's temporary one, removed when the
    test exits however it exits, unless a check failed: then it is kept
    for a look, and its path printed."""
    d = tempfile.mkdtemp(prefix=prefix)
    atexit.register(_leave_scratch, d)
    return d


def _leave_scratch(d):
    if failed:
        print("kept for a look: %s" % d)
    else:
        shutil.rmtree(d, ignore_errors=True)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def arxiv_subset(gz, n, out):
    """n records of the arXiv file gz taken evenly through it (every k-th
    line, so that every archive and year is represented), written to
    out."""
    with gzip.open(gz, "rt", encoding="utf-8") as f, open(out, "w", encoding="utf-8") as o:
        lines = f.readlines()
        step = max(1, len(lines) // n)
        o.writelines(lines[::step][:n])


def arxiv_20k_paths(d):
    """(index, records file) that arxiv_20k.py writes in the directory d."""
    return os.path.join(d, "ix"), os.path.join(d, "arxiv-20k.jsonl")


def arxiv_20k(d):
    """arxiv_20k_paths(d) when arxiv_20k.py built them there, else None,
    and why is printed (it builds them from ../shared)."""
    ix, records = arxiv_20k_paths(d or "")
    if d and os.path.isdir(ix):
        return ix, records
    print("no %s: arxiv_20k.py builds it from ../shared" % ix)
    return None


def works_of(pdx, db, limit=10000):
    """Every work of the index db, by id, as `search --all` shows it (rank
    and score left out)."""
    r = subprocess.run([pdx, "search", "--db", db, "--all", "--format", "jsonl", "--limit",
                        str(limit), "--snippet", "0"], capture_output=True, text=True)
    works = {}
    for line in r.stdout.splitlines():
        w = json.loads(line)
        w.pop("rank", None)
        w.pop("score", None)
        works[w["id"]] = w
    return works


def ranked(pdx, db, q, limit):
    """The top `limit` hits of query q in db: (id, score to 6 places)."""
    r = subprocess.run([pdx, "search", "--db", db, "--format", "jsonl", "--limit", str(limit),
                        "--snippet", "0", q], capture_output=True, text=True)
    return [(h["id"], round(h["score"], 6)) for h in map(json.loads, r.stdout.splitlines())]


WORDS = ("graph neural network protein folding glacier radar coral sonar wind power forecast "
         "quantization compiler tensor scheduling federated privacy retrieval ranking").split()


def synthetic_work(k, edition=0, title="Crash work"):
    """Work k of the crash tests, as a JSON-lines record: the same k and
    edition give the same record."""
    r = random.Random(k * 31 + edition)
    return {"id": "c%d" % k, "title": "%s %d %s" % (title, k, " ".join(r.sample(WORDS, 4))),
            "abstract": " ".join(r.choice(WORDS) for _ in range(60)) + " %d." % k,
            "authors": ["Helena Sørby", "Kwame Mensah"][: 1 + k % 2], "year": 2000 + k % 25}


def files_limited_to(limit):
    """A preexec_fn under which no file grows past `limit` bytes: a write
    then fails with EFBIG, as on a full disk."""
    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return limited


# Under the sanitizers, LeakSanitizer's check at exit takes about half
# of a short command's time (it scans the sanitizer runtimes' own 12 MB
# of globals).  The tests that run one command over hundreds of inputs
# pass repeat_env() to those runs, and the sanitizer build sets
# PDX_TEST_LEAKS_EVERY=N for them: the first of every N such runs is
# checked for leaks, the others are not.  Every other process of the
# suite, and every process of the normal build, is checked in full.
_LEAKS_EVERY = max(1, int(os.environ.get("PDX_TEST_LEAKS_EVERY", "1")))
_repeats = 0


def repeat_env():
    """The environment of one of a test's many runs of the same command
    (None: the test's own)."""
    global _repeats
    _repeats += 1
    if _LEAKS_EVERY == 1 or _repeats % _LEAKS_EVERY == 1:
        return None
    asan = os.environ.get("ASAN_OPTIONS", "")
    return dict(os.environ, ASAN_OPTIONS=(asan + ":" if asan else "") + "detect_leaks=0")


# The environment of runs whose writes are made to fail, or whose tables
# are damaged: under a sanitizer build, Xapian's own leaks after a failed
# commit or a damaged block are not reported (xapian-failed-write.supp
# says why).
FAILED_WRITES_ENV = dict(os.environ, LSAN_OPTIONS="suppressions=" + os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "xapian-failed-write.supp"))
