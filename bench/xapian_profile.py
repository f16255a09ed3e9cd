#!/usr/bin/env python3
"""xapian_profile.py -- where an indexing run's time goes inside Xapian,
by function: a perf profile of `paperdex index` against a libxapian
built with symbols from Debian's own source of the installed version.

usage: xapian_profile.py [--records N] [--jobs J] [--freq HZ]
                         [--window SECONDS] [--work DIR] CORPUS

Debian's libxapian30 is stripped and bookworm has no debug package for
it, so a profile of the installed library names no function inside it
(earlier profiles in RESULTS.md could only say "libxapian, 42%").  This
script downloads the upstream tarball Debian builds from (the
installed version's, from deb.debian.org's pool; no deb-src line
needed), builds it once under WORK with -O2 -g and frame pointers
(Debian's patches, none of which touch the glass backend or the term
generator, are not applied), and runs paperdex against it through
LD_LIBRARY_PATH: the same code as the installed library, with names.

Then `paperdex index --jobs J` (default 2) on CORPUS's first N records
(default 30,000) under `perf record -e cpu-clock -g`, and prints, as
shares of every sample of the run, the inclusive time of the functions
that make up indexing (Xapian's add_document and the two per-term maps
inside it, its commits, its compactor, the TermGenerator), and the self
time of each shared object.  Needs perf (linux-perf), curl, a C++
compiler and make; the build takes about 4 minutes on 2 cores.

With --window SECONDS, also the same inclusive shares in each window of
the run's wall time: how they move as the index grows (a million works'
shards: bench/RESULTS.md, "Where a million works' build goes").  --freq
sets perf's sampling rate (default 2000 Hz; 200 keeps a run of ten
minutes' data to a few hundred MB).
"""
import argparse
import gzip
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

POOL = "http://deb.debian.org/debian/pool/main/x/xapian-core/"

# (label, how to get its inclusive share from the {symbol: share} map).
# Inclusive shares nest: the maps are inside add_document, the flushes
# inside the commits.
ADD_DOC = "GlassWritableDatabase::add_document_"


def sym(name):
    return lambda c: c.get(name, 0.0)


ROWS = [
    ("paperdex's writes (shim_put: Xapian's add_document and the "
     "document built for it)", sym("shim_put")),
    ("  Xapian's add_document", sym(ADD_DOC)),
    ("    its map of pending positions (Inverter::store_positions)",
     sym("Inverter::store_positions")),
    ("    the rest: its map of pending postings (std::map<string, "
     "PostingChanges>, inlined) and the value slots",
     lambda c: c.get(ADD_DOC, 0.0) - c.get("Inverter::store_positions", 0.0)
     - c.get("GlassTermListTable::set_termlist", 0.0)),
    ("    the document's term list (GlassTermListTable::set_termlist)",
     sym("GlassTermListTable::set_termlist")),
    ("the TermGenerator (Xapian::TermGenerator::index_text)",
     sym("Xapian::TermGenerator::index_text")),
    ("commits (shim_commit)", sym("shim_commit")),
    ("  postings merged into the B-tree (Inverter::flush)",
     sym("Inverter::flush")),
    ("  positions written to the B-tree (Inverter::flush_pos_lists)",
     sym("Inverter::flush_pos_lists")),
    ("the shards' merge (Xapian::Database::compact_)",
     sym("Xapian::Database::compact_")),
]


def xapian_version():
    v = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "libxapian30"],
                       capture_output=True, text=True, check=True).stdout
    return v.split("-")[0]


def build_xapian(work, ver):
    """WORK/xapian-VER/inst/lib with a libxapian built with symbols."""
    top = os.path.join(work, "xapian-" + ver)
    lib = os.path.join(top, "inst", "lib")
    if os.path.exists(os.path.join(lib, "libxapian.so.30")):
        return lib
    os.makedirs(top, exist_ok=True)
    tarball = os.path.join(top, "xapian-core_%s.orig.tar.xz" % ver)
    if not os.path.exists(tarball):
        subprocess.run(["curl", "-fsSL", "-o", tarball,
                        POOL + os.path.basename(tarball)], check=True)
    subprocess.run(["tar", "xf", tarball, "-C", top], check=True)
    src = os.path.join(top, "xapian-core-" + ver)
    print("building Xapian %s with symbols in %s (a few minutes)" % (ver, src),
          file=sys.stderr)
    flags = "-O2 -g -fno-omit-frame-pointer"
    log = open(os.path.join(top, "build.log"), "w")
    subprocess.run(["./configure", "--prefix=" + os.path.join(top, "inst"),
                    "--disable-static", "CXXFLAGS=" + flags], cwd=src,
                   stdout=log, stderr=log, check=True)
    subprocess.run(["make", "-j%d" % os.cpu_count()], cwd=src, stdout=log,
                   stderr=log, check=True)
    subprocess.run(["make", "install"], cwd=src, stdout=log, stderr=log,
                   check=True)
    return lib


def first_records(corpus, n, out):
    opener = gzip.open if corpus.endswith(".gz") else open
    with opener(corpus, "rt", encoding="utf-8") as f, \
            open(out, "w", encoding="utf-8") as o:
        for i, line in enumerate(f):
            if i >= n:
                break
            o.write(line)


def report(data, *args):
    return subprocess.run(["perf", "report", "-i", data, "--stdio", "-g", "none",
                           "--percent-limit", "0"] + list(args),
                          capture_output=True, text=True, check=True).stdout


# What --window follows: (label, a function whose frame puts a sample
# in it).  Inclusive, so they nest: the flush inside the commits.
WINDOW_ROWS = [
    ("add_document", ADD_DOC),
    ("TermGenerator", "Xapian::TermGenerator::index_text"),
    ("commits", "shim_commit"),
    ("  flush", "Inverter::flush"),
    ("merge", "Xapian::Database::compact_"),
]


def windows(data, seconds):
    """Each window's share of its samples in WINDOW_ROWS, and of samples
    whose own frame is the kernel's: [(start, {label: %}, n)]."""
    out = subprocess.run(["perf", "script", "-i", data, "-F", "time,ip,sym"],
                         capture_output=True, text=True, check=True).stdout
    counts, t0, t, stack = {}, None, None, []

    def done():
        if t is None:
            return
        w = int((t - t0) // seconds)
        c = counts.setdefault(w, {"": 0})
        c[""] += 1
        frames = "\n".join(stack)
        for label, fn in WINDOW_ROWS:
            if fn in frames:
                c[label] = c.get(label, 0) + 1
        if stack and stack[0].split()[0].startswith("ffffffff"):
            c["kernel"] = c.get("kernel", 0) + 1

    for line in out.splitlines():
        if line and not line[0].isspace() and line.rstrip().endswith(":"):
            done()
            t = float(line.strip()[:-1])
            if t0 is None:
                t0 = t
            stack = []
        elif line.strip():
            stack.append(line.strip())
    done()
    return [(w * seconds, {k: 100.0 * v / c[""] for k, v in c.items() if k},
             c[""]) for w, c in sorted(counts.items())]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=int, default=30000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--freq", type=int, default=2000)
    ap.add_argument("--window", type=float, default=0)
    ap.add_argument("--work", default="/tmp/pdx-xapian-profile")
    ap.add_argument("corpus")
    a = ap.parse_args()
    if not shutil.which("perf"):
        sys.exit("xapian_profile.py: needs perf (apt-get install linux-perf)")
    os.makedirs(a.work, exist_ok=True)
    version = xapian_version()
    lib = build_xapian(a.work, version)
    sample = os.path.join(a.work, "first-%d.jsonl" % a.records)
    if not os.path.exists(sample):
        first_records(a.corpus, a.records, sample)
    db = os.path.join(a.work, "db")
    shutil.rmtree(db, ignore_errors=True)
    data = os.path.join(a.work, "perf.data")
    env = dict(os.environ, LD_LIBRARY_PATH=lib)
    cmd = ["perf", "record", "-q", "-e", "cpu-clock", "-F", str(a.freq), "-g",
           "-o", data, compare.PDX, "index", "--db", db, sample]
    if a.jobs > 1:
        cmd[-1:-1] = ["--jobs", str(a.jobs)]
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)

    dsos = {}
    for line in report(data, "--no-children", "--sort", "dso").splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S+)", line)
        if m:
            dsos[m.group(2)] = float(m.group(1))
    xap = [d for d in dsos if d.startswith("libxapian")]
    if not xap:
        sys.exit("xapian_profile.py: no sample in libxapian")
    children, selfs = {}, {}
    for line in report(data, "--children", "--sort", "symbol").splitlines():
        m = re.match(r"\s*([\d.]+)%\s+([\d.]+)%\s+\[\.\]\s+(.*)$", line)
        if m:
            # perf pads the symbol and may add empty columns ("-  -")
            name = re.split(r"\s{2,}", m.group(3).strip())[0]
            children[name] = children.get(name, 0) + float(m.group(1))
            selfs[name] = selfs.get(name, 0) + float(m.group(2))
    if ADD_DOC not in children:
        sys.exit("xapian_profile.py: the profile names no Xapian function: "
                 "was %s/libxapian.so.30 used?" % lib)

    print("`paperdex index%s` on the first %d records of %s, against "
          "libxapian %s built with symbols; shares of all %s samples\n" % (
              " --jobs %d" % a.jobs if a.jobs > 1 else "", a.records,
              os.path.basename(a.corpus), version,
              "cpu-clock"))
    print("| inclusive time | share |")
    print("|---|---|")
    for label, share in ROWS:
        v = share(children)
        print("| %s | %.1f%% |" % (label.replace("  ", "&nbsp;&nbsp;"), v))
    print("\n| self time, by shared object | share |")
    print("|---|---|")
    for d, v in sorted(dsos.items(), key=lambda kv: -kv[1]):
        if v >= 0.5:
            print("| %s | %.1f%% |" % (d, v))
    print("\n| self time, the ten largest functions | share |")
    print("|---|---|")
    for s, v in sorted(selfs.items(), key=lambda kv: -kv[1])[:10]:
        short = re.sub(r"std::__cxx11::basic_string<char, std::char_traits<char>, "
                       r"std::allocator<char> >", "std::string", s)
        print("| `%s` | %.1f%% |" % (short[:110], v))
    if a.window > 0:
        labels = [label for label, _ in WINDOW_ROWS] + ["kernel"]
        print("\n| from, s | %s | samples |" % " | ".join(
            label.strip() for label in labels))
        print("|---" * (len(labels) + 2) + "|")
        for start, share, n in windows(data, a.window):
            print("| %.0f | %s | %d |" % (start, " | ".join(
                "%.1f%%" % share.get(label, 0.0) for label in labels), n))


if __name__ == "__main__":
    main()
