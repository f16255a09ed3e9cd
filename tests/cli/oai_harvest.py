#!/usr/bin/env python3
"""oai_harvest.py HARVEST PAPERDEX

paperdex-oai-harvest (oai-harvest.sh) against an OAI-PMH server played
here on 127.0.0.1, serving invented arXiv records:

  * a list of three pages: the harvest follows both resumptionTokens (the
    first holds '&' and a space, so it must be unescaped from the XML and
    URL-encoded again; the next requests carry the verb and the token
    alone), waits out a 503 with Retry-After on the second page, writes
    three files and no other, and `paperdex index` on them finds every
    record, the deleted header withdrawing its work;
  * run again with the same prefix, the same three files;
  * noRecordsMatch: exit 0, no file;
  * badArgument on the first page, and badResumptionToken on the second:
    exit 1 naming the code and the server's message, the first page kept
    in the second case;
  * the error answers saved as files and given to `paperdex index`:
    noRecordsMatch reads as an empty list, any other code fails that
    source (exit 1, naming the file, line, code and message) and the
    other sources are read;
  * a server that answers a token with the page that gave it: exit 1,
    not a loop;
  * a server that answers 500 on the second page every time: exit 75 after
    the retries asked for, the first page kept;
  * stopped at page 2, the message says how to go on (--resume TOKEN
    --page 2); going on fetches pages 2 and 3 only, into the files of a
    harvest that never stopped;
  * the same command run again after a stop (as cron runs it) goes on by
    itself from where it stopped (.PREFIX.resume), pages 2 and 3 only;
    with the saved token expired (badResumptionToken), it fetches the
    list again from page 1; a harvest of another URL into the same
    prefix, --restart, and a damaged state file start at page 1; a
    finished harvest leaves no state file;
  * no server at all: exit 75; usage errors: exit 2.
"""
import http.server
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from urllib.parse import parse_qs, urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, free_port  # noqa: E402

HARVEST, PDX = sys.argv[1], sys.argv[2]
TOKEN1 = "part 2&from=2026-11-01"  # what the server means; the XML escapes it

HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
        '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">\n'
        '<responseDate>2026-11-26T00:00:00Z</responseDate>\n'
        '<request verb="ListRecords">http://127.0.0.1/oai</request>\n')


def record(k, deleted=False):
    if deleted:
        return ('<record><header status="deleted"><identifier>oai:arXiv.org:2611.%05d</identifier>'
                '<datestamp>2026-11-25</datestamp></header></record>\n' % k)
    return ('<record><header><identifier>oai:arXiv.org:2611.%05d</identifier>'
            '<datestamp>2026-11-25</datestamp></header><metadata>'
            '<arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>2611.%05d</id><created>2026-11-24</created>'
            '<authors><author><keyname>Harvester</keyname><forenames>Olga</forenames></author></authors>'
            '<title>Paged harvest work number %d</title><categories>cs.DL</categories>'
            '<abstract>Invented record %d of a list served in pages by resumption tokens.</abstract>'
            '</arXiv></metadata></record>\n' % (k, k, k, k))


def page(records, token, attrs):
    return (HEAD + "<ListRecords>\n" + "".join(records) +
            '<resumptionToken %s>%s</resumptionToken>\n' % (attrs, token) +
            "</ListRecords>\n</OAI-PMH>\n")


def error(code, msg):
    return HEAD + '<error code="%s">%s</error>\n</OAI-PMH>\n' % (code, msg)


PAGES = {
    None: page([record(k) for k in range(1, 4)],
               TOKEN1.replace("&", "&amp;"), 'cursor="0" completeListSize="7"'),
    TOKEN1: page([record(k) for k in range(4, 6)], " t3 ", 'cursor="3" completeListSize="7"'),
    "t3": page([record(6), record(2, deleted=True)], "", 'cursor="5" completeListSize="7"'),
}
requests, busy, expire_once = [], {"left": 0}, set()


class OAI(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def answer(self, status, body, headers=()):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for h in headers:
            self.send_header(*h)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        u = urlparse(self.path)
        q = parse_qs(u.query, keep_blank_values=True)
        requests.append((u.path, q))
        tok = q.get("resumptionToken", [None])[0]
        if u.path == "/empty":
            return self.answer(200, error("noRecordsMatch", "nothing changed"))
        if u.path == "/bad":
            return self.answer(200, error("badArgument", "from is not a date"))
        if tok is not None and set(q) != {"verb", "resumptionToken"}:
            return self.answer(200, error("badArgument", "resumptionToken is exclusive"))
        if u.path == "/expire" and tok is not None:
            return self.answer(200, error("badResumptionToken", "expired at midnight"))
        if u.path == "/loop" and tok is not None:
            return self.answer(200, PAGES[None])  # the first page's token again
        if u.path == "/down" and tok is not None:
            return self.answer(500, "broken")
        if tok in expire_once:
            expire_once.discard(tok)
            return self.answer(200, error("badResumptionToken", "expired at midnight"))
        if tok == TOKEN1 and busy["left"] > 0:
            busy["left"] -= 1
            return self.answer(503, "busy", [("Retry-After", "1")])
        if tok not in PAGES:
            return self.answer(200, error("badResumptionToken", "unknown token %r" % tok))
        return self.answer(200, PAGES[tok])


port = free_port()
srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), OAI)
threading.Thread(target=srv.serve_forever, daemon=True).start()
base = "http://127.0.0.1:%d" % port
tmp = tempfile.mkdtemp(prefix="pdx-oai-")
out = os.path.join(tmp, "oai")
os.makedirs(out)


def harvest(path, prefix, *extra):
    return subprocess.run(["sh", HARVEST] + list(extra) +
                          ["%s%s?verb=ListRecords&metadataPrefix=arXiv&from=2026-11-25" % (base, path), prefix],
                          capture_output=True, text=True, timeout=120)


# A list of three pages, the second busy once.
busy["left"] = 1
t0 = time.time()
p = harvest("/oai", os.path.join(out, "2026-11-25"))
took = time.time() - t0
names = sorted(os.listdir(out))
check("three pages: exit 0", p.returncode == 0, (p.returncode, p.stderr))
check("three pages: one file each, nothing else left",
      names == ["2026-11-25.00001.xml", "2026-11-25.00002.xml", "2026-11-25.00003.xml"], names)
check("three pages: the summary counts pages and records",
      "3 page(s), 7 record(s)" in p.stdout, p.stdout)
check("the 503 was waited out (Retry-After: 1)", busy["left"] == 0 and took >= 1.0, (busy, took))
toks = [q.get("resumptionToken") for _, q in requests]
check("the tokens went back as the server wrote them, URL-encoded, with the verb alone",
      toks == [None, [TOKEN1], [TOKEN1], ["t3"]] and
      all(set(q) == {"verb", "resumptionToken"} and q["verb"] == ["ListRecords"] for _, q in requests[1:]),
      requests)
for i, n in enumerate(names):
    with open(os.path.join(out, n), encoding="utf-8") as f:
        check("page %d is the server's page %d" % (i + 1, i + 1), f.read() == list(PAGES.values())[i])

db = os.path.join(tmp, "ix")
r = subprocess.run([PDX, "index", "--db", db, out], capture_output=True, text=True)
check("paperdex index reads the pages", r.returncode == 0, r.stdout + r.stderr)
s = subprocess.run([PDX, "search", "--db", db, "--format", "jsonl", "--limit", "100", "harvest"],
                   capture_output=True, text=True)
ids = sorted(json.loads(line)["id"] for line in s.stdout.splitlines())
check("every record of every page is found, the deleted one withdrawn",
      ids == ["2611.%05d" % k for k in (1, 3, 4, 5, 6)], (ids, s.stderr))

# The same prefix again: the same files, no more.
del requests[:]
p = harvest("/oai", os.path.join(out, "2026-11-25"), "--quiet")
check("again: exit 0, quiet", p.returncode == 0 and p.stdout == "", (p.returncode, p.stdout, p.stderr))
check("again: the same three files", sorted(os.listdir(out)) == names, os.listdir(out))

# noRecordsMatch: nothing changed.
empty = os.path.join(tmp, "empty")
os.makedirs(empty)
p = harvest("/empty", os.path.join(empty, "d"))
check("noRecordsMatch: exit 0, no file", p.returncode == 0 and os.listdir(empty) == [],
      (p.returncode, p.stderr, os.listdir(empty)))
check("noRecordsMatch: said", "noRecordsMatch" in p.stdout, p.stdout)

# OAI-PMH errors.
bad = os.path.join(tmp, "bad")
os.makedirs(bad)
p = harvest("/bad", os.path.join(bad, "d"))
check("badArgument: exit 1, the code and the message", p.returncode == 1 and
      "OAI-PMH error badArgument: from is not a date" in p.stderr and "page 1" in p.stderr,
      (p.returncode, p.stderr))
check("badArgument: no file", os.listdir(bad) == [], os.listdir(bad))
p = harvest("/expire", os.path.join(bad, "e"))
check("badResumptionToken on page 2: exit 1, named", p.returncode == 1 and
      "page 2" in p.stderr and "badResumptionToken: expired at midnight" in p.stderr, (p.returncode, p.stderr))
check("badResumptionToken: the first page kept", os.listdir(bad) == ["e.00001.xml"], os.listdir(bad))

# The same error answers saved by hand (curl -o) and given to paperdex:
# noRecordsMatch is an empty list; badArgument fails that source, named,
# and the other sources are read.
answers = os.path.join(tmp, "answers")
os.makedirs(answers)
with open(os.path.join(answers, "a-empty.xml"), "w", encoding="utf-8") as f:
    f.write(error("noRecordsMatch", "nothing changed"))
with open(os.path.join(answers, "b-bad.xml"), "w", encoding="utf-8") as f:
    f.write(error("badArgument", "from is not a date: \n  " + "&#233;" * 150))
with open(os.path.join(answers, "c-page.xml"), "w", encoding="utf-8") as f:
    f.write(PAGES[None])
r = subprocess.run([PDX, "index", "--db", os.path.join(tmp, "ix2"), answers], capture_output=True, text=True,
                   errors="replace")
bad_line = HEAD.count("\n") + 1
check("an error answer: exit 1, the file and line, the code and the message, whole UTF-8",
      r.returncode == 1 and "b-bad.xml:%d: an OAI-PMH error answer, not records: badArgument: "
      "from is not a date: \u00e9\u00e9" % bad_line in r.stderr and "\ufffd" not in r.stderr,
      (r.returncode, r.stderr))
check("an error answer: noRecordsMatch is not one", "a-empty.xml" not in r.stderr, r.stderr)
check("an error answer: the other sources are read",
      "1 source could not be read" in r.stdout and "3 read, 3 added" in r.stdout, r.stdout)

# A server that answers a token with the page that gave it: stopped.
loop = os.path.join(tmp, "loop")
os.makedirs(loop)
p = harvest("/loop", os.path.join(loop, "d"))
check("a page naming itself as the next: exit 1, said, two pages kept", p.returncode == 1 and
      "names itself as the next" in p.stderr and sorted(os.listdir(loop)) == ["d.00001.xml", "d.00002.xml"],
      (p.returncode, p.stderr, os.listdir(loop)))

# A server failing the second page every time: exit 75 after the retries.
down = os.path.join(tmp, "down")
os.makedirs(down)
n0 = len(requests)
p = harvest("/down", os.path.join(down, "d"), "--retries", "2")
check("500 on page 2: exit 75, the pages kept named", p.returncode == 75 and
      "page 2" in p.stderr and "1 page(s) fetched" in p.stderr, (p.returncode, p.stderr))
check("500 on page 2: retried twice (4 requests)", len(requests) - n0 == 4, requests[n0:])
check("500 on page 2: the first page kept, no partial file",
      sorted(os.listdir(down)) == [".d.resume", "d.00001.xml"], os.listdir(down))
state = os.path.join(down, ".d.resume")
if os.path.exists(state):
    with open(state, encoding="utf-8") as f:
        check("500 on page 2: the state file holds the URL, the page and its token",
              f.read().split("\n") == ["%s/down?verb=ListRecords&metadataPrefix=arXiv&from=2026-11-25" % base,
                                       "2", TOKEN1, ""], state)
check("500 on page 2: says that running it again goes on from page 2",
      "the same command run again goes on from page 2" in p.stderr, p.stderr)

# A harvest stopped at page 2 (busy past the retries asked for) says how
# to go on; going on from there fetches pages 2 and 3 only, and the files
# are those of a harvest that never stopped.
cut = os.path.join(tmp, "cut")
os.makedirs(cut)
busy["left"] = 3
p = harvest("/oai", os.path.join(cut, "d"), "--retries", "1")
m = re.search(r"to go on from there: paperdex-oai-harvest (.*)$", p.stderr, re.M)
check("stopped at page 2: exit 75, how to go on from there", p.returncode == 75 and m is not None,
      (p.returncode, p.stderr))
if m:
    busy["left"] = 1
    n0 = len(requests)
    args = shlex.split(m.group(1))
    check("the way on names the token and the page",
          args[:4] == ["--resume", TOKEN1, "--page", "2"], args)
    p = subprocess.run(["sh", HARVEST] + args, capture_output=True, text=True, timeout=120)
    check("going on: exit 0, pages 2 to 3", p.returncode == 0 and "2 page(s), 4 record(s)" in p.stdout
          and "d.00002.xml to" in p.stdout, (p.returncode, p.stdout, p.stderr))
    check("going on: page 1 not fetched again",
          [q.get("resumptionToken") for _, q in requests[n0:]] == [[TOKEN1], [TOKEN1], ["t3"]], requests[n0:])
    got = {n: open(os.path.join(cut, n), encoding="utf-8").read() for n in sorted(os.listdir(cut))}
    check("going on: the files of a harvest that never stopped, and no state file left",
          got == {"d.%05d.xml" % (i + 1): v for i, v in enumerate(PAGES.values())}, sorted(got))
busy["left"] = 0


def stopped(name):
    """A harvest into TMP/NAME/d stopped at page 2: the directory."""
    d = os.path.join(tmp, name)
    os.makedirs(d)
    busy["left"] = 3
    p = harvest("/oai", os.path.join(d, "d"), "--retries", "1")
    busy["left"] = 0
    check("%s: stopped at page 2, state saved" % name, p.returncode == 75 and
          sorted(os.listdir(d)) == [".d.resume", "d.00001.xml"], (p.returncode, p.stderr, os.listdir(d)))
    return d


def whole(d, name, p, tokens, n0):
    got = {n: open(os.path.join(d, n), encoding="utf-8").read() for n in sorted(os.listdir(d))}
    check("%s: exit 0, the files of a harvest that never stopped, no state file" % name,
          p.returncode == 0 and got == {"d.%05d.xml" % (i + 1): v for i, v in enumerate(PAGES.values())},
          (p.returncode, p.stdout, p.stderr, sorted(got)))
    check("%s: the requests" % name, [q.get("resumptionToken") for _, q in requests[n0:]] == tokens,
          requests[n0:])


# The same command again, as cron runs it: on from page 2 by itself.
d = stopped("again")
n0 = len(requests)
p = harvest("/oai", os.path.join(d, "d"))
check("run again: says it goes on from page 2", "going on from page 2" in p.stdout and
      "2 page(s), 4 record(s)" in p.stdout, (p.stdout, p.stderr))
whole(d, "run again", p, [[TOKEN1], ["t3"]], n0)

# The saved token has expired by the next run: the list from page 1.
d = stopped("expired")
expire_once.add(TOKEN1)
n0 = len(requests)
p = harvest("/oai", os.path.join(d, "d"))
check("expired token: said, and the list fetched again", "the saved token has expired" in p.stdout and
      "from page 1" in p.stdout and "3 page(s), 7 record(s)" in p.stdout, (p.stdout, p.stderr))
whole(d, "expired token", p, [[TOKEN1], None, [TOKEN1], ["t3"]], n0)

# Another URL into the same prefix, --restart, a damaged state file:
# page 1.
d = stopped("other")
n0 = len(requests)
p = harvest("/oai2", os.path.join(d, "d"))
check("another URL: said, from page 1", "another URL" in p.stdout and
      "3 page(s)" in p.stdout, (p.stdout, p.stderr))
whole(d, "another URL", p, [None, [TOKEN1], ["t3"]], n0)
d = stopped("restart")
n0 = len(requests)
p = harvest("/oai", os.path.join(d, "d"), "--restart")
check("--restart: said, from page 1", "--restart" in p.stdout and "3 page(s)" in p.stdout, (p.stdout, p.stderr))
whole(d, "--restart", p, [None, [TOKEN1], ["t3"]], n0)
d = stopped("damaged")
with open(os.path.join(d, ".d.resume"), "w", encoding="utf-8") as f:
    f.write("%s/oai?verb=ListRecords&metadataPrefix=arXiv&from=2026-11-25\nnot a page\n" % base)
n0 = len(requests)
p = harvest("/oai", os.path.join(d, "d"))
check("a damaged state file: named on stderr, from page 1",
      ".d.resume: not a saved harvest" in p.stderr, (p.stdout, p.stderr))
whole(d, "a damaged state file", p, [None, [TOKEN1], ["t3"]], n0)

# No server.
p = subprocess.run(["sh", HARVEST, "--retries", "0",
                    "http://127.0.0.1:%d/oai?verb=ListRecords&metadataPrefix=arXiv" % free_port(),
                    os.path.join(down, "x")], capture_output=True, text=True, timeout=60)
check("no server: exit 75", p.returncode == 75 and "page 1" in p.stderr, (p.returncode, p.stderr))

# Usage.
for args, why in ((["http://x/oai?verb=ListRecords"], "one argument"),
                  (["ftp://x/oai", os.path.join(out, "p")], "not an OAI-PMH request"),
                  (["http://x/oai?verb=ListRecords", os.path.join(tmp, "nodir", "p")], "no such directory"),
                  (["--retries", "many", "http://x/oai?verb=ListRecords", out], "a number"),
                  (["--resume", "tok", "http://x/oai?verb=ListRecords", out], "--resume without --page"),
                  (["--page", "3", "http://x/oai?verb=ListRecords", out], "--page without --resume"),
                  (["--resume", "tok", "--page", "0", "http://x/oai?verb=ListRecords", out], "page 0")):
    p = subprocess.run(["sh", HARVEST] + args, capture_output=True, text=True, timeout=60)
    check("usage (%s): exit 2 with a message" % why, p.returncode == 2 and p.stderr.strip(), (p.returncode, p.stderr))
p = subprocess.run(["sh", HARVEST, "--help"], capture_output=True, text=True)
check("--help: exit 0, the usage", p.returncode == 0 and "resumptionToken" in p.stdout, p.stdout)

srv.shutdown()
shutil.rmtree(tmp)
done()
