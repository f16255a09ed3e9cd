#!/usr/bin/env python3
"""shards.py -- several indexes searched as one, locally and through
Xapian's remote backend, give the results of one combined index.

usage: shards.py PAPERDEX ARXIV_JSONL_GZ N
The first N records are indexed three ways: all together, and as two
shards (odd and even lines) built with --xapian-positions, as a shard
served by xapian-tcpsrv must be for phrases.  Two xapian-tcpsrv
processes serve the shards on 127.0.0.1.  For 28 queries (1-, 2- and
4-word queries from titles, phrases, NEAR, ADJ, a filtered query) the
top 100 of `--db A --db B` and of `--db tcp://... --db tcp://...` must
equal the combined index's: the same works in the same order with the
same scores (through xapian-tcpsrv, where the proximity bonus cannot
run, the combined index's --rank bm25, with or without the option, its
word forms off: quoted words are stems there).  So
a phrase found by paperdex's own positions (the combined index), by
Xapian's read locally (the local shards) and by Xapian's remote backend
agree.  A shard built without
--xapian-positions and served remotely answers words, and refuses a
phrase with a message that says how to build it.  Also `paperdex compact`:
the compacted copy answers the same.  For 9 of the queries, the year,
category and author facet counts over every match, every value, must
equal the combined index's, from local and from remote shards.
"""
import gzip
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, free_port, repeat_env, scratch  # noqa: E402

PDX, SRC, N = sys.argv[1], sys.argv[2], int(sys.argv[3])
if not os.path.exists(SRC):
    print("skip: no %s (../shared is not beside the checkout)" % SRC)
    sys.exit(77)  # CTest SKIP_RETURN_CODE
tmp = scratch("pdx-shards-")
lines = []
with gzip.open(SRC, "rt", encoding="utf-8") as f:
    for line in f:
        lines.append(line)
        if len(lines) == N:
            break
paths = {}
for name, sel in (("all", lines), ("a", lines[0::2]), ("b", lines[1::2]), ("c", lines[1::2])):
    p = os.path.join(tmp, name + ".jsonl")
    with open(p, "w", encoding="utf-8") as f:
        f.writelines(sel)
    db = os.path.join(tmp, name)
    xpos = ["--xapian-positions"] if name in ("a", "b") else []
    r = subprocess.run([PDX, "index", "--db", db] + xpos + [p], capture_output=True, text=True)
    check("index " + name, r.returncode == 0, r.stderr)
    paths[name] = db


def stats_works(*dbs):
    args = [PDX, "stats", "--format", "json"]
    for d in dbs:
        args += ["--db", d]
    r = subprocess.run(args, capture_output=True, text=True)
    return json.loads(r.stdout).get("works") if r.returncode == 0 else None


# The precondition of equality: no work is in both shards.
wa, wb, wall = stats_works(paths["a"]), stats_works(paths["b"]), stats_works(paths["all"])
check("no work merged across shards", wa is not None and wa + wb == wall, (wa, wb, wall))


def meta(db, key):
    return subprocess.run(["xapian-metadata", "get", db, key], capture_output=True, text=True).stdout.strip()


# An index made with Xapian's positions is rebuilt so (cron's --full line
# need not repeat the option); asking for them on one made without them
# is refused unless it is rebuilt.
r = subprocess.run([PDX, "index", "--full", "--db", paths["b"], os.path.join(tmp, "b.jsonl")],
                   capture_output=True, text=True)
check("--full keeps Xapian's positions", r.returncode == 0 and meta(paths["b"], "paperdex.positions") == "xapian",
      (r.stderr, meta(paths["b"], "paperdex.positions")))
r = subprocess.run([PDX, "index", "--xapian-positions", "--db", paths["c"], os.path.join(tmp, "c.jsonl")],
                   capture_output=True, text=True)
check("--xapian-positions on an index made without: refused, saying --full",
      r.returncode != 0 and "--full" in r.stderr and meta(paths["c"], "paperdex.positions") == "", r)

servers, remotes = [], []
for name in ("a", "b", "c"):
    port = free_port()
    servers.append(subprocess.Popen(
        ["xapian-tcpsrv", "--interface", "127.0.0.1", "--port", str(port), paths[name]],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True))  # tcpsrv signals its own process group
    remotes.append("tcp://127.0.0.1:%d" % port)
    for _ in range(100):  # until it listens
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)

rng = random.Random(7)
titles = [json.loads(l)["title"].split() for l in lines]
words = [[w.strip(".,:;()").lower() for w in t if len(w) > 3 and w.isalpha()] for t in titles]
words = [w for w in words if len(w) >= 4]
queries = []  # (text, extra arguments)
for n in (1, 2, 4):
    for _ in range(7):
        ws = rng.choice(words)
        queries.append((" ".join(rng.sample(ws, n)), []))
queries.append(('"neural networks"', []))
queries.append(('title:"neural networks"', []))
queries.append(('abstract:"dark matter"', []))
queries.append(("quantum NEAR entanglement", []))
queries.append(("language ADJ models", []))
queries.append(("learning", ["--category", "cs.LG"]))
queries.append(("quantum", ["--year", "2025"]))

compact = os.path.join(tmp, "compact")
r = subprocess.run([PDX, "compact", "--db", paths["all"], compact], capture_output=True, text=True)
check("compact: exit 0", r.returncode == 0, r.stderr)


def search(dbs, q, opts):
    """`paperdex search` of query q (text, filter args) over dbs:
    (stdout, None), or (None, ("error", stderr)) if it failed."""
    args = [PDX, "search"] + opts
    for d in dbs:
        args += ["--db", d]
    r = subprocess.run(args + q[1] + [q[0]], capture_output=True, text=True, env=repeat_env())
    return (r.stdout, None) if r.returncode == 0 else (None, ("error", r.stderr))


def top(dbs, q, rank=()):
    out, err = search(dbs, q, ["--format", "jsonl", "--limit", "100", "--snippet", "0"] + list(rank))
    if err:
        return err
    return [(h["id"], round(h["score"], 6)) for h in map(json.loads, out.splitlines())]


remotes, plain_remote = remotes[:2], remotes[2]
# Through xapian-tcpsrv no posting source of paperdex's runs: quoted
# words are read by their stems there, as in the combined index with its
# word forms off (an index an older paperdex built).
stems_all = os.path.join(tmp, "all-stems")
shutil.copytree(paths["all"], stems_all)
r = subprocess.run(["xapian-metadata", "set", stems_all, "paperdex.forms", ""],
                   capture_output=True, text=True)
check("forms off in a copy", r.returncode == 0, r.stderr)
nonempty = 0
for q in queries:
    want = top([paths["all"]], q)
    nonempty += bool(want) and want[0] != "error"
    label = " ".join([q[0]] + q[1])
    check("local shards = combined: " + label, top([paths["a"], paths["b"]], q) == want, q)
    # Through xapian-tcpsrv the proximity bonus cannot run: remote
    # shards rank by flat BM25, as the combined index does with
    # --rank bm25, with or without the option (quoted words by stems).
    flat = top([stems_all], q, ["--rank", "bm25"])
    check("remote shards = combined, --rank bm25: " + label,
          top(remotes, q, ["--rank", "bm25"]) == flat, q)
    check("remote shards, default rank = combined, --rank bm25: " + label,
          top(remotes, q) == flat, q)
    check("compacted = combined: " + label, top([compact], q) == want, q)
check("the queries match something", nonempty >= 20, nonempty)


def facets(dbs, q):
    """The 40 most frequent values a facet, and whether the author facet
    was cut: its people are counted again as a click counts them, for at
    most a second (SHIM_COUNT_SECONDS), which a loaded machine running the
    sanitizer build can pass over shards; a run that says so in its note
    lists fewer people, by design."""
    out, err = search(dbs, q, ["--format", "json", "--limit", "0", "--facets", "year,category,author",
                               "--facet-limit", "40"])
    if err:
        return err, False
    res = json.loads(out)
    return res["facets"], "fewer people" in res.get("note", "")


def same_facets(dbs, q, want, want_cut):
    """facets(dbs, q) equal to want: every facet, or, when either run's
    author facet was cut (after two more tries), the year and category
    facets; and whether the authors were compared."""
    got, cut = facets(dbs, q)
    for _ in range(2):
        if not cut:
            break
        got, cut = facets(dbs, q)
    if not (cut or want_cut) or got == want:
        return got == want, True
    drop = lambda f: {k: v for k, v in f.items() if k != "author"} if isinstance(f, dict) else f
    return drop(got) == drop(want), False


# Facet counts over every match: the same from shards as from
# the combined index (remote shards count with xapian-tcpsrv's own spy).
counted = authors_compared = 0
for q in queries[:6] + queries[-3:]:
    want, want_cut = facets([paths["all"]], q)
    counted += want != "error" and sum(v["count"] for v in want.get("author", [])) > 0
    label = " ".join([q[0]] + q[1])
    for kind, dbs in (("local", [paths["a"], paths["b"]]), ("remote", remotes)):
        same, authors = same_facets(dbs, q, want, want_cut)
        authors_compared += authors
        check("facets, %s shards = combined: %s" % (kind, label), same, want)
check("the facet queries count authors", counted >= 6, counted)
check("the author facets compared (not cut by the time)", authors_compared >= 9, authors_compared)
# A shard built without --xapian-positions, served by xapian-tcpsrv:
# words are found as in the local index, a phrase is refused, saying why.
check("plain remote shard: words as the local index",
      top([plain_remote], ("quantum", [])) == top([paths["c"]], ("quantum", [])) != [], "")
r = subprocess.run([PDX, "search", "--db", plain_remote, '"neural networks"'], capture_output=True, text=True)
check("plain remote shard: a phrase refused with a message",
      r.returncode != 0 and "--xapian-positions" in r.stderr and plain_remote in r.stderr, r)
r = subprocess.run([PDX, "search", "--db", "tcp://127.0.0.1:1", "x"], capture_output=True, text=True)
check("unreachable remote: exit 1 with a message", r.returncode == 1 and "remote index" in r.stderr, r)
r = subprocess.run([PDX, "search", "--db", "tcp://nohost", "x"], capture_output=True, text=True)
check("malformed remote address: usage error", r.returncode in (1, 2) and "tcp://HOST:PORT" in r.stderr, r)
for s in servers:
    s.terminate()
    s.wait()
done()
