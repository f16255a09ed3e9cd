#!/usr/bin/env python3
"""browser.py PAPERDEX SRC OUTDIR -- the search page of `paperdex serve`
in a real browser: headless Chromium driven through chromedriver's
WebDriver protocol (plain HTTP and JSON, so urllib is enough).

It types a query, narrows by year, clicks a facet, removes the filter,
pages, opens a work and comes back, checks what the page shows against
the API at each step, checks that the keyboard reaches the search box
first and that a phone-sized window needs no sideways scrolling, and saves
screenshots of the results page 1,280 and 400 px wide as
OUTDIR/search-page.png and OUTDIR/search-page-400.png.

Needs Debian's chromium and chromium-driver (./dev.sh installs them);
without them it reports itself skipped (exit 77), naming what is missing.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, done, free_port  # noqa: E402

PDX, SRC, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
CHROME = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
missing = [p for p in (CHROME, DRIVER) if not os.path.exists(p)]
if missing:
    print("SKIP: the browser test needs %s (Debian packages chromium and chromium-driver)" % ", ".join(missing))
    sys.exit(77)

tmp = tempfile.mkdtemp(prefix="pdx-browser-")
db = os.path.join(tmp, "ix")
subprocess.run([PDX, "index", "--quiet", "--db", db, os.path.join(SRC, "corpus", "samples")], check=True)
srv = subprocess.Popen([PDX, "serve", "--quiet", "--db", db, "--listen", "127.0.0.1:0"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
BASE = "http://127.0.0.1:%d" % int(srv.stderr.readline().strip().rsplit(":", 1)[1])


dport = free_port()
driver = subprocess.Popen([DRIVER, "--port=%d" % dport], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
WD = "http://127.0.0.1:%d" % dport


def wd(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(WD + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())["value"]
    except urllib.error.HTTPError as e:
        raise RuntimeError("webdriver %s %s: %s" % (method, path, e.read()[:300]))


for _ in range(100):
    try:
        if wd("GET", "/status").get("ready"):
            break
    except (OSError, RuntimeError):
        pass
    time.sleep(0.1)
sid = wd("POST", "/session", {"capabilities": {"alwaysMatch": {
    "browserName": "chrome",
    "goog:chromeOptions": {"binary": CHROME, "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                                                      "--disable-dev-shm-usage", "--window-size=1100,1300"]}}}})["sessionId"]
S = "/session/" + sid


def js(script, *args):
    return wd("POST", S + "/execute/sync", {"script": script, "args": list(args)})


def until(script, limit=15):
    """Poll a JavaScript expression until it is truthy; its value."""
    t0 = time.time()
    while True:
        v = js("return " + script)
        if v or time.time() - t0 > limit:
            return v
        time.sleep(0.1)


def find(css):
    v = wd("POST", S + "/element", {"using": "css selector", "value": css})
    return v.get("element-6066-11e4-a52e-4f27bb4ad4ef") or v.get("ELEMENT") or list(v.values())[0]


def click(css):
    wd("POST", S + "/element/%s/click" % find(css), {})


def typed(css, text):
    el = find(css)
    wd("POST", S + "/element/%s/clear" % el, {})
    wd("POST", S + "/element/%s/value" % el, {"text": text})


def api(params):
    with urllib.request.urlopen(BASE + "/search?" + urllib.parse.urlencode(params, doseq=True)) as r:
        return json.loads(r.read())


HITS = "Array.from(document.querySelectorAll('#hits li.hit a.title')).map(a => a.textContent)"


def shown(params):
    """(what the page shows, the API's hits for params), once the page
    shows those hits or the wait runs out."""
    want = [h["title"] for h in api(dict(params, limit=10))["hits"]]
    got = until("(" + HITS + ").join('|') === " + json.dumps("|".join(want)) + " && " + HITS)
    return got, want


def settled(params):
    """Wait until the page shows the API's hits for params. The URL changes
    before the page's fetch returns, and until it does the facets on show
    are the previous query's: read them only after this."""
    got, want = shown(params)
    check("the page settles on the hits of %s" % urllib.parse.urlencode(params), got == want and len(want) > 0,
          (got, want))
try:
    wd("POST", S + "/url", {"url": BASE + "/"})
    check("the page loads, titled", until("document.title") == "paperdex")
    check("the search box has the keyboard at once", until("document.activeElement.id") == "q",
          js("return document.activeElement.outerHTML"))
    wd("POST", S + "/actions", {"actions": [{"type": "key", "id": "k", "actions": [
        {"type": "keyDown", "value": "\ue004"}, {"type": "keyUp", "value": "\ue004"}]}]})
    check("Tab goes on to the year range", js("return document.activeElement.id") == "y1",
          js("return document.activeElement.outerHTML"))
    js("document.getElementById('q').focus()")

    # A query, typed and submitted with Enter.
    typed("#q", "glacier mapping\ue007")
    got = until(HITS + ".length && " + HITS)
    want = [h["title"] for h in api({"q": "glacier mapping", "limit": 10})["hits"]]
    check("typing a query shows the API's hits, in order", got == want and len(want) > 0, (got, want))
    check("the query is in the URL", "q=glacier+mapping" in js("return location.search"), js("return location.search"))
    check("snippets mark the matched words", until("document.querySelectorAll('#hits mark').length") > 0)
    check("facets are shown", until("document.querySelectorAll('#facets a').length") > 0)

    # A year range.
    typed("#y1", "2015")
    click("button[type=submit]")
    until("location.search.includes('year=')")
    got, want = shown({"q": "glacier mapping", "year": "2015.."})
    check("a year range narrows the hits as the API does", got == want and len(want) > 0, (got, want))

    # An author typed into the author box: a filter, shown as a chip.
    typed("#au", "Petrović")
    click("button[type=submit]")
    until("location.search.includes('author=')")
    got, want = shown({"q": "glacier mapping", "year": "2015..", "author": "Petrović"})
    check("the author box filters as the API does", got == want and len(want) > 0, (got, want))
    click("#chips button[data-k=author]")
    until("!location.search.includes('author=')")
    settled({"q": "glacier mapping", "year": "2015.."})

    # A facet: the first category.
    cat = until("document.querySelector('#facets ul:nth-of-type(2) a, #facets a[aria-label^=\"Only category\"]')"
                " && document.querySelector('#facets a[aria-label^=\"Only category\"]').getAttribute('aria-label')")
    click('#facets a[aria-label^="Only category"]')
    # "Only category cs.CV, Computer Vision and Pattern Recognition": the
    # code, then arXiv's name for it
    value, _, name = cat.replace("Only category ", "").partition(", ")
    check("a category facet names its category (%s: %s)" % (value, name), len(name) > 3, cat)
    got, want = shown({"q": "glacier mapping", "year": "2015..", "category": value})
    check("clicking a facet narrows to it (%s)" % value, got == want and len(got) > 0, (got, want))
    check("the filter shows as a chip", value in (until("document.querySelector('#chips').textContent") or ""))
    click("#chips button[data-k=category]")
    until("!location.search.includes('category=')")
    check("removing the chip removes the filter", "category=" not in js("return location.search"))

    # A subject facet (MeSH headings, OpenAlex topics, BibTeX keywords).
    typed("#y1", "")
    typed("#q", "heat\ue007")
    until("location.search.includes('q=heat') && !location.search.includes('year=')")
    settled({"q": "heat"})
    subj = until("document.querySelector('#facets a[aria-label^=\"Only subject\"]')"
                 " && document.querySelector('#facets a[aria-label^=\"Only subject\"]').getAttribute('aria-label')")
    check("subjects are a facet", bool(subj), subj)
    if subj:
        click('#facets a[aria-label^="Only subject"]')
        value = subj.replace("Only subject ", "")
        got, want = shown({"q": "heat", "subject": value})
        check("clicking a subject narrows to it (%s)" % value, got == want and len(got) > 0, (got, want))
        click("#chips button[data-k=subject]")
        until("!location.search.includes('subject=')")

    # Paging.
    typed("#y1", "")
    typed("#q", "data\ue007")
    total = api({"q": "data", "limit": 10})["total"]
    settled({"q": "data"})
    check("enough hits to page (%d)" % total, total > 10)
    click('nav.pages a')
    until("location.search.includes('offset=10')")
    got, want = shown({"q": "data", "offset": 10})
    check("next page shows the API's second page", got == want and len(want) > 0, (got, want))
    check("and numbers it from 11", js("return document.querySelector('#hits ol').start") == 11)
    wd("POST", S + "/back", {})
    until("!location.search.includes('offset=')")
    got, want = shown({"q": "data"})
    check("the browser's back button returns to the first page", got == want and len(want) == 10)

    # Page numbers, the exact count, results per page, and past the end.
    check("page numbers are links", until("document.querySelectorAll('nav.pages a[aria-label^=\"Page \"]').length") >= 1)
    status = until("document.getElementById('status').textContent.includes('–') && "
                   "document.getElementById('status').textContent")
    check("the status line shows the exact count and the range", status == "%s works; 1–10" % format(total, ","),
          status)
    js("const s = document.getElementById('per'); s.value = '20'; s.dispatchEvent(new Event('change'))")
    until("location.search.includes('per=20')")
    want = [h["title"] for h in api({"q": "data", "limit": 20})["hits"]]
    got = until("(" + HITS + ").length === %d && " % len(want) + HITS)
    check("20 results a page when asked", got == want and len(want) == 20, (got, want))
    wd("POST", S + "/url", {"url": BASE + "/?q=data&offset=%d" % (total + 90)})
    past = until("document.getElementById('hits').textContent.includes('No works on this page') && "
                 "document.getElementById('status').textContent")
    check("past the last page: no range like 7001-7000, a way back", past == "%s works" % format(total, ","), past)
    years = js("return Array.from(document.querySelectorAll('#facets a[aria-label^=\"Only year\"]'))"
               ".map(a => +a.getAttribute('aria-label').slice(10))")
    check("the year facet in year order", years and years == sorted(years, reverse=True), years)
    wd("POST", S + "/url", {"url": BASE + "/?q=data"})
    settled({"q": "data"})

    # Authors and categories are links that filter; each hit links out.
    au = until("document.querySelector('#hits li.hit .meta a') && "
               "document.querySelector('#hits li.hit .meta a').textContent")
    click("#hits li.hit .meta a")
    got, want = shown({"q": "data", "author": au})
    check("an author's name filters by that author (%s)" % au, got == want and len(got) > 0, (got, want))
    click("#chips button[data-k=author]")
    until("!location.search.includes('author=')")
    settled({"q": "data"})
    hits = api({"q": "data", "limit": 10})["hits"]
    want_links = [("https://arxiv.org/abs/" + h["arxiv_id"]) for h in hits if h.get("arxiv_id")]
    got_links = js("return Array.from(document.querySelectorAll('#hits .links a')).map(a => a.href)")
    check("each hit with an arXiv id links to its abstract", want_links and all(u in got_links for u in want_links),
          (want_links[:3], got_links[:6]))
    doi_work = next((h for h in api({"q": "data OR model OR study", "limit": 100})["hits"] if h.get("doi")), None)
    check("a sample work has a DOI", doi_work is not None)
    if doi_work:
        wd("POST", S + "/url", {"url": BASE + "/?work=" + urllib.parse.quote(doi_work["id"], safe="")})
        href = until("document.querySelector('article .links a[href^=\"https://doi.org/\"]') && "
                     "document.querySelector('article .links a[href^=\"https://doi.org/\"]').href")
        check("a work's page links to its DOI", href == "https://doi.org/" + doi_work["doi"], (href, doi_work["doi"]))
        cite = js("return Array.from(document.querySelectorAll('article .cite a')).map(a => a.href)")
        check("a work's page offers it as BibTeX, RIS and CSL-JSON",
              len(cite) == 3 and all("format=" + f in u for f, u in zip(("bibtex", "ris", "csljson"), cite)), cite)
        if cite:
            with urllib.request.urlopen(cite[0]) as r:
                body = r.read().decode()
            check("its BibTeX link gives the work's entry", body.startswith("@") and doi_work["doi"] in body,
                  body[:200])

    wd("POST", S + "/url", {"url": BASE + "/?q=data"})
    settled({"q": "data"})
    export = until("document.querySelector('#hits .cite a[href*=\"format=ris\"]') && "
                   "document.querySelector('#hits .cite a[href*=\"format=ris\"]').href")
    if export:
        with urllib.request.urlopen(export) as r:
            ris = r.read().decode()
        check("the results page exports its works as RIS", ris.count("ER  - ") == 10, ris[:200])
    else:
        check("the results page exports its works as RIS", False, "no export link")

    # Instant search: the results follow the box as one types, no Enter.
    wd("POST", S + "/url", {"url": BASE + "/"})
    until("document.activeElement.id === 'q'")
    typed("#q", "peat bog")
    until("location.search.includes('q=peat+bog')")
    got, want = shown({"q": "peat bog"})
    check("typing without Enter shows the query's hits, the URL in step", got == want and len(want) > 0, (got, want))

    # The results page, saved for the README.
    def screenshot(name, width, height):
        wd("POST", S + "/window/rect", {"width": width, "height": height})
        typed("#q", "coral reef monitoring\ue007")
        settled({"q": "coral reef monitoring"})
        os.makedirs(OUT, exist_ok=True)
        png = base64.b64decode(wd("GET", S + "/screenshot"))
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(png)
        check("a screenshot %d px wide is saved" % width, png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10000,
              len(png))
    screenshot("search-page-400.png", 400, 860)
    screenshot("search-page.png", 1280, 900)

    # A work's page.
    first = until(HITS + "[0]")
    click("#hits li.hit a.title")
    heading = until("document.querySelector('article h2') && document.querySelector('article h2').textContent")
    check("opening a work shows it", heading == first, (heading, first))
    check("with its sources and similar works",
          until("document.body.textContent.includes('Sources') && document.querySelectorAll('article li.hit').length > 0"))
    check("the work is in the URL", "work=" in js("return location.search"))

    # "Did you mean".
    typed("#q", "glaicer\ue007")
    # Wait for the suggestion itself: the work page just left has a link in
    # a paragraph too ("back to the results"), which must not be taken for it.
    sug = until("document.querySelector('#hits p.suggest a') && document.querySelector('#hits p.suggest a').textContent")
    check("a misspelling offers the API's suggestion", sug and sug == api({"q": "glaicer"}).get("suggestion"), sug)

    # A note: a category no work has is named, as the API names it.
    typed("#q", "glacier category:cs.XX\ue007")
    note = until("document.querySelector('#hits p.note') && document.querySelector('#hits p.note').textContent")
    check("the page shows the search's note", note and note == api({"q": "glacier category:cs.XX"}).get("note")
          and "no work has category" in note, note)

    # A phone.
    wd("POST", S + "/window/rect", {"width": 390, "height": 844})
    typed("#q", "graph neural networks\ue007")
    settled({"q": "graph neural networks"})
    check("on a phone the first hit comes before the facets",
          js("return document.querySelector('#hits li.hit').getBoundingClientRect().top < "
             "document.getElementById('facets').getBoundingClientRect().top"),
          js("return [document.querySelector('#hits li.hit').getBoundingClientRect().top, "
             "document.getElementById('facets').getBoundingClientRect().top]"))
    check("a phone-sized window needs no sideways scrolling",
          js("return document.documentElement.scrollWidth <= window.innerWidth + 1"),
          js("return [document.documentElement.scrollWidth, window.innerWidth]"))

    # A bad query: the error, on the page.
    typed("#q", "title:(glacier\ue007")
    err = until("document.querySelector('#status .err') && document.querySelector('#status .err').textContent")
    check("a bad query's error is shown, with its position", err and "position" in err, err)
finally:
    try:
        wd("DELETE", S)
    except (OSError, RuntimeError):
        pass
    driver.terminate()
    srv.terminate()
    srv.wait(timeout=10)
    shutil.rmtree(tmp)
done()
