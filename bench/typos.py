#!/usr/bin/env python3
"""typos.py -- "did you mean" on typos of real words, beside Xapian's own
spelling corrector.

    python3 bench/typos.py [--n 1000] [--db DIR] [--out FILE] PAPERDEX CORPUS

CORPUS is an arXiv snapshot (../shared/data/arxiv-101k.jsonl.gz); --db an
index of it (built into a scratch directory when not given).

The typos.  A word is a run of letters of a work's title or abstract,
lower-cased with its accents folded.  The intended words are those of
five letters or more, not stop words, found in at least 20 works.  Each
typo takes one of them at random (uniformly over the vocabulary, seed
20261128) and makes one edit of Damerau's four, chosen at random with
its position and letter: a letter left out, a letter added, a letter
changed, two neighbours swapped.  A typo that is itself a word of more
than 3 works, or a stop word, is drawn again.

The engines.  paperdex: `paperdex search --limit 0 --format json TYPO`,
its "suggestion".  Xapian: Database::get_spelling_suggestion (maximum
edit distance 2) over a spelling table built from the same titles and
abstracts by TermGenerator's FLAG_SPELLING (bench/spelling_peer.cc).
A suggestion is right when it is the intended word.

Printed: right / wrong / none for each engine, by kind of edit; among
the misses, the typos whose stem is the intended word's (the search
finds the intended works without a suggestion, and paperdex proposes
none); and the time: Xapian's per
call, paperdex's per command beside the same command for a word that
needs no suggestion (the difference is the suggestion's cost).
"""
import argparse
import collections
import gzip
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))


def fold(s):
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c)).lower()


def stop_words():
    text = open(os.path.join(HERE, "..", "common", "stopwords.h")).read()
    body = text[text.index("#define PDX_STOPWORDS_FUNCTION"):]
    return set(re.findall(r'"([^"]*)"', body[:body.index("\n\n")]))


def edit(word, rng):
    kinds = ["delete", "insert", "substitute", "swap"]
    kind = rng.choice(kinds)
    letters = "abcdefghijklmnopqrstuvwxyz"
    n = len(word)
    if kind == "delete":
        i = rng.randrange(n)
        return kind, word[:i] + word[i + 1:]
    if kind == "insert":
        i = rng.randrange(n + 1)
        return kind, word[:i] + rng.choice(letters) + word[i:]
    if kind == "substitute":
        i = rng.randrange(n)
        return kind, word[:i] + rng.choice(letters.replace(word[i], "")) + word[i + 1:]
    i = rng.randrange(n - 1)
    if word[i] == word[i + 1]:
        return kind, word  # no change: drawn again
    return kind, word[:i] + word[i + 1] + word[i] + word[i + 2:]


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100.0 * len(xs)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--db")
    ap.add_argument("--out")
    ap.add_argument("--peer", default=os.path.join(HERE, "..", "build", "spelling_peer"))
    ap.add_argument("paperdex")
    ap.add_argument("corpus")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="pdx-typos-")
    texts = os.path.join(work, "texts.txt")
    df = collections.Counter()
    with gzip.open(a.corpus, "rt", encoding="utf-8") as f, open(texts, "w", encoding="utf-8") as out:
        for line in f:
            r = json.loads(line)
            t = " ".join((r.get("title") or "", r.get("abstract") or "")).replace("\n", " ")
            out.write(t + "\n")
            df.update(set(re.findall(r"[a-z]+", fold(t))))
    stops = stop_words()
    vocab = sorted(w for w, n in df.items() if n >= 20 and len(w) >= 5 and w not in stops)
    rng = random.Random(20261128)
    typos = []
    seen = set()
    while len(typos) < a.n:
        w = rng.choice(vocab)
        kind, t = edit(w, rng)
        if t == w or t in stops or df.get(t, 0) > 3 or (t, w) in seen:
            continue
        seen.add((t, w))
        typos.append((w, kind, t))
    print("vocabulary: %d words (5+ letters, 20+ works, not stop words); %d typos"
          % (len(vocab), len(typos)))

    db = a.db
    if not db:
        db = os.path.join(work, "ix")
        t0 = time.time()
        subprocess.run([a.paperdex, "index", "--quiet", "--db", db, a.corpus], check=True)
        print("indexed in %.0f s" % (time.time() - t0))

    # Xapian's corrector.
    p = subprocess.run([a.peer, texts, os.path.join(work, "spell")], input="\n".join(t for _, _, t in typos) + "\n",
                       capture_output=True, text=True, check=True)
    xap = [line.split("\t") for line in p.stdout.rstrip("\n").split("\n")]
    assert len(xap) == len(typos), (len(xap), len(typos))

    def pdx(q):
        t0 = time.perf_counter()
        r = subprocess.run([a.paperdex, "search", "--db", db, "--limit", "0", "--format", "json", q],
                           capture_output=True, text=True)
        dt = (time.perf_counter() - t0) * 1000
        if r.returncode not in (0, 1):
            sys.exit("paperdex failed on %r: %s" % (q, r.stderr))
        return json.loads(r.stdout).get("suggestion") or "", dt

    rows = []
    pdx_ms, plain_ms = [], []
    for (w, kind, t), (xs, xus) in zip(typos, xap):
        s, ms = pdx(t)
        pdx_ms.append(ms)
        _, ms0 = pdx(w)
        plain_ms.append(ms0)
        rows.append({"word": w, "kind": kind, "typo": t, "paperdex": s, "xapian": xs,
                     "xapian_us": float(xus)})

    print()
    print("| engine | right | wrong | none | right % |")
    print("|---|---|---|---|---|")
    summary = {}
    for eng in ("paperdex", "xapian"):
        right = sum(1 for r in rows if r[eng] == r["word"])
        none = sum(1 for r in rows if not r[eng])
        wrong = len(rows) - right - none
        summary[eng] = {"right": right, "wrong": wrong, "none": none}
        print("| %s | %d | %d | %d | %.1f |" % (eng, right, wrong, none, 100.0 * right / len(rows)))
    print()
    print("| edit | typos | paperdex right | Xapian right |")
    print("|---|---|---|---|")
    for kind in ("delete", "insert", "substitute", "swap"):
        rk = [r for r in rows if r["kind"] == kind]
        print("| %s | %d | %d | %d |" % (kind, len(rk), sum(r["paperdex"] == r["word"] for r in rk),
                                          sum(r["xapian"] == r["word"] for r in rk)))
    print()
    # A typo that shares the intended word's stem finds that word's works
    # with no suggestion: paperdex proposes none there, Xapian may.
    p = subprocess.run([a.peer, "--same-stem"], input="".join("%s %s\n" % (r["typo"], r["word"]) for r in rows),
                       capture_output=True, text=True, check=True)
    for r, same in zip(rows, p.stdout.split()):
        r["same_stem"] = same == "1"
    for eng in ("paperdex", "xapian"):
        miss = [r for r in rows if r[eng] != r["word"]]
        print("%s's misses: %d, of which %d typos share the intended word's stem (the search finds its works)"
              % (eng, len(miss), sum(r["same_stem"] for r in miss)))
    print()
    xus = [r["xapian_us"] / 1000.0 for r in rows]
    print("time, ms: Xapian per call p50 %.2f p99 %.2f; paperdex per command p50 %.1f p99 %.1f "
          "(a correct word's command: p50 %.1f p99 %.1f)"
          % (pct(xus, 50), pct(xus, 99), pct(pdx_ms, 50), pct(pdx_ms, 99), pct(plain_ms, 50), pct(plain_ms, 99)))
    both_wrong = [r for r in rows if r["paperdex"] != r["word"]]
    print("\npaperdex's misses (first 25): typo -> suggestion (intended; Xapian's)")
    for r in both_wrong[:25]:
        print("  %s -> %s (%s; %s)" % (r["typo"], r["paperdex"] or "-", r["word"], r["xapian"] or "-"))
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"summary": summary, "rows": rows,
                       "pdx_ms": {"p50": pct(pdx_ms, 50), "p99": pct(pdx_ms, 99)},
                       "plain_ms": {"p50": pct(plain_ms, 50), "p99": pct(plain_ms, 99)},
                       "xapian_ms": {"p50": pct(xus, 50), "p99": pct(xus, 99)}}, f, indent=1)


if __name__ == "__main__":
    main()
