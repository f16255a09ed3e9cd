#!/usr/bin/env python3
"""stop_compounds.py -- compounds with a stop word, counted three ways.

    python3 bench/stop_compounds.py CORPUS DB PAPERDEX [PAPERDEX_BEFORE[:DB_BEFORE]]
    python3 bench/stop_compounds.py --titles N CORPUS DB PAPERDEX [PAPERDEX_BEFORE[:DB_BEFORE]]

CORPUS is an arXiv snapshot (../shared/data/arxiv-101k.jsonl.gz), DB an
index of it.  For each compound of the list (one part or more a stop
word, which the index does not hold), prints the works whose title or
abstract write it (a scan: the parts joined by a hyphen or by nothing,
any case; a pair joined by a slash as written, not in a run of slashes)
beside `paperdex search --exact --limit 0` of each binary.
The search is stemmed (follow-up finds follow-ups), the scan is not.
A binary written BINARY:DIR searches the index DIR instead of DB (an
index built by that binary, when the binaries build different terms).
The last row sums, over the compounds, how far each count is from the
scan's, as a share of the scan's total.

With --titles N: N partial titles that hold such a compound of three
parts or more (Chain-of-Thought, Mixture-of-Experts, State-of-the-Art;
seed 5), each a run of 2 to 4 words of a title as written, from the
compound or the word before it; relevant: every work whose title holds
that run (lower-cased words of letters and digits).  Prints MRR@10 and
success@1 for each binary (bench/titles.py's partial titles, for this
kind of compound alone).
"""
import gzip
import json
import re
import subprocess
import sys

WORDS = ["off-policy", "on-policy", "on-chip", "in-context", "on-device", "trade-off", "cut-off",
         "hands-on", "follow-up", "built-in", "plug-in", "add-on", "top-down", "bottom-up",
         "well-known", "set-up", "look-up", "roll-out", "read-out", "drop-out", "opt-in",
         "one-shot", "two-stage", "all-reduce", "in-situ", "in-house", "on-demand",
         "off-the-shelf", "out-of-distribution", "state-of-the-art", "end-to-end", "up-to-date",
         "in-the-wild", "out-of-domain", "on-the-fly", "all-in-one", "out-of-the-box",
         "out-of-sample", "out-of-vocabulary", "over-the-air",
         # stop words alone
         "all-to-all", "any-to-any", "what-if", "if-then", "in-between", "once-for-all",
         "as-is", "to-do", "on-off",
         # pairs joined by a slash, a stop word in them
         "A/B", "I/O", "and/or", "yes/no", "on/off", "I/Q", "Q/A", "before/after",
         "with/without", "in/out", "up/down"]


def split(binary, db):
    """(binary, its index): BINARY:DIR, or the binary and db."""
    b, _, d = binary.partition(":")
    return b, d or db


def count(binary, db, q):
    binary, db = split(binary, db)
    out = subprocess.run([binary, "search", "--db", db, "--limit", "0", "--exact", "--format", "json",
                          "--", q], capture_output=True, text=True).stdout
    try:
        return str(json.loads(out)["total"])
    except ValueError:
        return "error"


STOP = set("a about an and are as at be by for from how in is it of on or that the this "
           "to was what when where who will with up out off over into via per than".split())


def words(s):
    return re.findall(r"[a-z0-9]+", s.lower())


def titles(n, corpus, db, binaries):
    import random
    rnd = random.Random(5)
    held, every = [], {}
    with gzip.open(corpus, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            t = " ".join((r.get("title") or "").split())
            every[r["id"]] = words(t)
            for m in re.finditer(r"\b[A-Za-z]+(?:-[A-Za-z]+){2,}\b", t):
                parts = m.group(0).lower().split("-")
                if any(p in STOP for p in parts) and sum(p not in STOP for p in parts) >= 2:
                    held.append((t, m.start()))
                    break
    rnd.shuffle(held)
    queries = []
    for t, at in held[:n]:
        ws = t.split()
        pos = len(t[:at].split())
        k = rnd.randint(2, 4)
        lo = max(0, pos - rnd.randint(0, 1))
        q = " ".join(ws[lo:lo + k]).strip(":,.")
        run = words(q)
        rel = {i for i, tw in every.items()
               if any(tw[j:j + len(run)] == run for j in range(len(tw) - len(run) + 1))}
        queries.append((q, rel))
    print("%d partial titles holding a compound of three parts or more with a stop word" % len(queries))
    print("| binary | MRR@10 | success@1 |")
    print("|---|---|---|")
    for b in binaries:
        mrr = s1 = 0.0
        bb, bdb = split(b, db)
        for q, rel in queries:
            out = subprocess.run([bb, "search", "--db", bdb, "--format", "json", "--limit", "10",
                                  "--", q], capture_output=True, text=True)
            hits = [h["id"] for h in json.loads(out.stdout)["hits"]] if out.returncode == 0 else []
            for k, h in enumerate(hits):
                if h in rel:
                    mrr += 1.0 / (k + 1)
                    s1 += k == 0
                    break
        print("| %s | %.4f | %.3f |" % (b, mrr / len(queries), s1 / len(queries)))


def main():
    if len(sys.argv) >= 6 and sys.argv[1] == "--titles":
        titles(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:])
        return
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    corpus, db, binaries = sys.argv[1], sys.argv[2], sys.argv[3:]
    pats = {w: re.compile(r"\b" + re.escape(w).replace(r"\-", "-?") + r"\b", re.I) for w in WORDS}
    # a slashed pair as written, not in a run of slashes (a/b/c)
    pats.update({w: re.compile(r"(?<![\w/])" + re.escape(w) + r"(?![\w]|/\w)", re.I)
                 for w in WORDS if "/" in w})
    scan = dict.fromkeys(WORDS, 0)
    with gzip.open(corpus, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            text = (r.get("title") or "") + " \n " + (r.get("abstract") or "")
            for w, p in pats.items():
                scan[w] += bool(p.search(text))
    heads = ["this binary"] if len(binaries) == 1 else ["after", "before"]
    print("| compound | works writing it (scan) | " + " | ".join(heads) + " |")
    print("|---" * (2 + len(heads)) + "|")
    off = [0] * len(binaries)
    for w in WORDS:
        got = [count(b, db, w) for b in binaries]
        for k, g in enumerate(got):
            off[k] += abs(int(g) - scan[w]) if g.isdigit() else scan[w]
        print("| %s | %d | %s |" % (w, scan[w], " | ".join(got)))
    total = sum(scan.values())
    print("| off from the scan, summed | %d | %s |" %
          (total, " | ".join("%d (%.2f)" % (o, o / total) for o in off)))


if __name__ == "__main__":
    main()
