#!/usr/bin/env python3
"""cjk.py PAPERDEX SRCDIR

Chinese, Japanese and Korean text is searchable by its words with no
setting: a new index reads CJK text in n-grams (each character and each
pair of neighbours a term, Xapian's FLAG_CJK_NGRAM) and records it, and
a search reads the query as the index records.  The works are invented
here.  Checked:

  - a word inside a run of characters ("检索" in "...图像检索中的..."),
    in the title and in the abstract, and Korean words between spaces;
  - a quoted run matches it as written, and only so: "图像检索" finds
    its work, "检索图像" and "图检" (the characters apart or in another
    order) do not, through paperdex's positions and Xapian's alike;
  - the record decides, not the environment: with the record taken away
    (an index made before it, whose CJK reading was Xapian's default of
    one word a run), the same words are read as whole words and miss the
    n-grams; with XAPIAN_CJK_NGRAM set, as such an index's builder
    would have had it, they are found again;
  - the title's and the snippet's highlights mark the words found
    inside a run of characters.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, scratch  # noqa: E402

PDX = sys.argv[1]
work = scratch("pdx-cjk-")
src = os.path.join(work, "cjk.jsonl")
WORKS = [
    {"id": "zh-1", "title": "深度学习在图像检索中的应用",
     "abstract": "We study image retrieval with 深度学习 models.", "authors": ["Li Wei"], "year": 2024},
    {"id": "ja-1", "title": "自然言語処理のための事前学習モデル",
     "abstract": "A pretrained model for Japanese text.", "authors": ["Sato Hiroshi"], "year": 2023},
    {"id": "ko-1", "title": "한국어 형태소 분석기의 설계",
     "abstract": "A Korean morphological analyser.", "authors": ["Kim Minji"], "year": 2022},
    {"id": "en-1", "title": "Image retrieval without any CJK text",
     "abstract": "Plain words only.", "authors": ["Ann Other"], "year": 2021},
]
with open(src, "w", encoding="utf-8") as f:
    for w in WORKS:
        f.write(json.dumps(w, ensure_ascii=False) + "\n")


def ids(db, q, env=None):
    e = dict(os.environ)
    e.pop("XAPIAN_CJK_NGRAM", None)
    e.update(env or {})
    p = subprocess.run([PDX, "search", "--db", db, "--format", "json", "--limit", "10", q],
                       capture_output=True, text=True, env=e)
    if p.returncode != 0:
        return "exit %d: %s" % (p.returncode, p.stderr.strip())
    return sorted(h["id"] for h in json.loads(p.stdout)["hits"])


FOUND = [("检索", ["zh-1"]), ("图像检索", ["zh-1"]), ("学习", ["zh-1"]), ("学習", ["ja-1"]),
         ("言語", ["ja-1"]), ("処理", ["ja-1"]), ("형태소", ["ko-1"]), ("분석기", ["ko-1"]),
         ('"图像检索"', ["zh-1"]), ('title:"言語処理"', ["ja-1"]), ('"学习 models"', ["zh-1"]),
         ('"한국어 형태소"', ["ko-1"]), ('"检索图像"', []), ('"图检"', []),
         ('abstract:"深度学习"', ["zh-1"]), ('title:"深度学习"', ["zh-1"])]
for layout, flags in (("values", []), ("xapian", ["--xapian-positions"])):
    db = os.path.join(work, "ix-" + layout)
    env = dict(os.environ)
    env.pop("XAPIAN_CJK_NGRAM", None)
    r = subprocess.run([PDX, "index", "--quiet", "--db", db] + flags + [src],
                       capture_output=True, text=True, env=env)
    check("index (%s)" % layout, r.returncode == 0, r.stderr)
    for q, want in FOUND:
        got = ids(db, q)
        check("%s: %s" % (layout, q), got == want, "got %s, want %s" % (got, want))



def marked(db, q, wid):
    """The title's and the snippet's highlighted text of work wid for q."""
    p = subprocess.run([PDX, "search", "--db", db, "--format", "json", "--limit", "10", q],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return "exit %d: %s" % (p.returncode, p.stderr.strip())
    for h in json.loads(p.stdout)["hits"]:
        if h["id"] == wid:
            def cut(text, ranges):
                b = (text or "").encode()
                return [b[x:y].decode() for x, y in ranges or []]
            return cut(h.get("title"), h.get("title_highlights")), cut(h.get("snippet"), h.get("highlights"))
    return "no hit %s" % wid


# Highlights mark the words found inside a run of characters, in the
# title and the snippet, beside other words.
for q, wid, want in (("检索", "zh-1", (["检索"], [])),
                     ("深度学习", "zh-1", (["深度学习"], ["深度学习"])),
                     ("图像 retrieval", "zh-1", (["图像"], ["retrieval"])),
                     ("言語処理", "ja-1", (["言語処理"], [])),
                     ("형태소", "ko-1", (["형태소"], []))):
    got = marked(os.path.join(work, "ix-values"), q, wid)
    check("highlights of %s" % q, got == want, "got %s, want %s" % (got, want))

# The record decides.  xapian-metadata (xapian-tools) sets a key to ""
# to remove it: the index then reads as one built before the record.
db = os.path.join(work, "ix-values")
r = subprocess.run(["xapian-metadata", "get", db, "paperdex.cjk"], capture_output=True, text=True)
check("the index records its CJK reading", r.stdout.strip() == "ngram", r.stdout + r.stderr)
r = subprocess.run(["xapian-metadata", "set", db, "paperdex.cjk", ""], capture_output=True, text=True)
check("record removed", r.returncode == 0, r.stderr)
for q in ("图像检索", "형태소"):
    check("unrecorded index reads %s as one word" % q, ids(db, q) == [], ids(db, q))
    check("unrecorded index with XAPIAN_CJK_NGRAM reads %s in n-grams" % q,
          ids(db, q, {"XAPIAN_CJK_NGRAM": "1"}) != [], ids(db, q, {"XAPIAN_CJK_NGRAM": "1"}))
done()
