/*
 * test_years.cc -- year filters over the works' XY<year> terms
 * (common/layout.h, LAYOUT_META_YEARS), and over SLOT_YEAR's values in an
 * index whose works lack them.
 *
 * What it checks, through the public API and through Xapian itself:
 *  - a new index is stamped paperdex.years, and each year's term is held
 *    by exactly the works of that year;
 *  - every kind of range (one year, a few, open at either end, wider than
 *    the terms a filter ORs, from before the first year to after the
 *    last, with no work at all) gives the works of its years, as a list
 *    of the filter alone, ranked under a word every work holds (the page
 *    found before the match checks the filter work by work), and counted
 *    to a small limit;
 *  - the same index without the terms and the stamp (as an older
 *    paperdex wrote it) gives the same pages, scores and totals;
 *  - that older index searched beside the new one (pdx_open_shards), and
 *    the two merged by the compactor, filter both indexes' works: the
 *    terms are used only when every shard has them; a writer of the
 *    older index adds none.
 *
 * usage: test_years WORK_DIR
 */
#include <xapian.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "layout.h"
#include "check.h"
#include "paperdex.h"

namespace {

/* Work k's year: 1990..2024, and none for every 37th work. */
int year_of(unsigned k)
{
    return k % 37 == 0 ? 0 : 1990 + static_cast<int>((k * 11) % 35);
}

const char *const WORDS[] = {"plasma", "lattice", "quorum", "ferrite",
                             "isobar", "tensor", "meson", "cation"};

/* Works PFX-k for k in [from, to): every abstract says "plasma". */
void put_works(pdx_index *ix, const std::string &pfx, unsigned from,
               unsigned to)
{
    for (unsigned k = from; k < to; k++) {
        pdx_work w;
        pdx_work_init(&w, PDX_WORK_VERSION);
        const std::string id = pfx + "-" + std::to_string(k);
        std::string title = std::string(WORDS[k % 8]) + " " + WORDS[(k / 8) % 8];
        std::string abstract = "plasma";
        for (unsigned i = 0; i < 3 + k % 5; i++)
            abstract += std::string(" ") + WORDS[(k * 3 + i) % 8];
        w.id = id.c_str();
        w.title = title.c_str();
        w.abstract = abstract.c_str();
        w.year = year_of(k);
        check(pdx_put(ix, &w) == 0, "put " + id + ": " + pdx_errmsg(ix));
    }
    check(pdx_commit(ix) == 0, std::string("commit: ") + pdx_errmsg(ix));
}

/* The works PFX-k, k < n, from the years [lo, hi] (0: open). */
std::set<std::string> truth(const std::string &pfx, unsigned n, int lo, int hi)
{
    std::set<std::string> s;
    for (unsigned k = 0; k < n; k++) {
        const int y = year_of(k);
        if (y && (!lo || y >= lo) && (!hi || y <= hi))
            s.insert(pfx + "-" + std::to_string(k));
    }
    return s;
}

struct Page {
    std::vector<std::string> ids;
    std::vector<double> scores;
    size_t total = 0;
    bool exact = false;
    bool ok = false;
};

Page search(pdx_index *ix, const char *text, int lo, int hi, size_t limit,
            size_t count_limit)
{
    Page p;
    pdx_query q = PDX_QUERY_INIT;
    q.text = text;
    q.year_min = lo;
    q.year_max = hi;
    q.limit = limit;
    q.count_limit = count_limit;
    pdx_results *r = nullptr;
    if (pdx_search(&r, ix, &q) != 0) {
        check(false, std::string("search: ") + pdx_errmsg(ix));
        return p;
    }
    for (size_t i = 0; i < pdx_results_count(r); i++) {
        p.ids.push_back(pdx_results_hit(r, i)->work->id);
        p.scores.push_back(pdx_results_hit(r, i)->score);
    }
    p.total = pdx_results_total(r);
    p.exact = pdx_results_total_relation(r) == PDX_TOTAL_EQ;
    p.ok = true;
    pdx_results_free(r);
    return p;
}

pdx_index *open_at(const std::string &p, unsigned flags)
{
    pdx_index *ix = nullptr;
    const int rc = pdx_open(&ix, p.c_str(), flags);
    check(rc == 0, "open " + p + ": " + (ix ? pdx_errmsg(ix) : ""));
    return ix;
}

pdx_index *open_two(const std::string &a, const std::string &b)
{
    const char *paths[] = {a.c_str(), b.c_str()};
    pdx_index *ix = nullptr;
    const int rc = pdx_open_shards(&ix, paths, 2);
    check(rc == 0, "open shards: " + std::string(ix ? pdx_errmsg(ix) : ""));
    return ix;
}

std::string stamp(const std::string &path)
{
    return Xapian::Database(path).get_metadata(LAYOUT_META_YEARS);
}

/* The year terms held in the index at path: term -> works. */
std::map<std::string, Xapian::doccount> year_terms(const std::string &path)
{
    Xapian::Database db(path);
    std::map<std::string, Xapian::doccount> m;
    for (Xapian::TermIterator t = db.allterms_begin(LAYOUT_P_YEAR);
         t != db.allterms_end(LAYOUT_P_YEAR); ++t)
        m[*t] = t.get_termfreq();
    return m;
}

/* The index at path as an older paperdex wrote it: no year terms, no
 * stamp. */
void make_older(const std::string &path)
{
    Xapian::WritableDatabase db(path, Xapian::DB_OPEN);
    std::vector<Xapian::docid> docs(db.postlist_begin(""), db.postlist_end(""));
    for (Xapian::docid d : docs) {
        Xapian::Document doc = db.get_document(d);
        std::vector<std::string> ys;
        for (Xapian::TermIterator t = doc.termlist_begin();
             t != doc.termlist_end(); ++t)
            if ((*t).compare(0, 2, LAYOUT_P_YEAR) == 0)
                ys.push_back(*t);
        for (const std::string &t : ys)
            doc.remove_term(t);
        db.replace_document(d, doc);
    }
    db.set_metadata(LAYOUT_META_YEARS, "");
    db.commit();
}

struct Range {
    int lo, hi;
};

/* The ranges asked: one year, a few, open at either end, more years than
 * a filter ORs as terms, past both ends, none with works. */
const Range RANGES[] = {{2005, 2005}, {2000, 2003}, {2012, 0},   {0, 1995},
                        {1991, 2020}, {1980, 1992}, {0, 2100},   {2030, 2040},
                        {1990, 1990}, {2024, 0},    {1985, 1989}};

std::string name(const Range &r)
{
    return "years " + std::to_string(r.lo) + ".." + std::to_string(r.hi);
}

/* Every range on ix against the works expected (each PFX-k, k < n, for
 * every prefix of pfxs). */
void check_ranges(pdx_index *ix, const std::vector<std::string> &pfxs,
                  unsigned n, const std::string &what)
{
    for (const Range &r : RANGES) {
        std::set<std::string> want;
        for (const std::string &p : pfxs) {
            std::set<std::string> t = truth(p, n, r.lo, r.hi);
            want.insert(t.begin(), t.end());
        }
        const std::string at = what + ", " + name(r);
        Page all = search(ix, "", r.lo, r.hi, 1000, 0);
        check(std::set<std::string>(all.ids.begin(), all.ids.end()) == want &&
                  all.ids.size() == want.size(),
              at + ": the filter lists its works (" +
                  std::to_string(all.ids.size()) + ", want " +
                  std::to_string(want.size()) + ")");
        check(all.total == want.size() && all.exact,
              at + ": the filter's total " + std::to_string(all.total));
        Page ranked = search(ix, "plasma", r.lo, r.hi, 1000, 0);
        check(std::set<std::string>(ranked.ids.begin(), ranked.ids.end()) ==
                      want &&
                  ranked.total == want.size(),
              at + ": 'plasma' ranks its works (" +
                  std::to_string(ranked.ids.size()) + ", want " +
                  std::to_string(want.size()) + ")");
        Page counted = search(ix, "plasma", r.lo, r.hi, 3, 10);
        const size_t c = want.size() > 10 ? 10 : want.size();
        check(counted.total == c && counted.exact == (want.size() <= 10),
              at + ": counted to 10: " + std::to_string(counted.total));
    }
}

/* The pages of a few queries on ix, as text to compare. */
std::string pages(pdx_index *ix)
{
    std::string out;
    const char *queries[] = {"lattice quorum", "ferrite", "meson isobar tensor"};
    for (const char *text : queries)
        for (const Range &r : RANGES) {
            Page p = search(ix, text, r.lo, r.hi, 5, 20);
            out += std::string(text) + " " + name(r) + ": " +
                   std::to_string(p.total) + (p.exact ? "" : "+");
            for (size_t i = 0; i < p.ids.size(); i++) {
                char s[32];
                snprintf(s, sizeof s, "%.17g", p.scores[i]);
                out += " " + p.ids[i] + "=" + s;
            }
            out += "\n";
        }
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_years WORK_DIR\n");
        return 2;
    }
    const std::string work = argv[1];
    if (!check_work_dir(work))
        return 2;
    const std::string a = work + "/a", old = work + "/old", z = work + "/z",
                      merged = work + "/merged", alone = work + "/alone";
    const unsigned N = 400; /* two indexes of them on one page (PDX_MAX_LIMIT) */

    /* ---- a new index: stamped, each work its year's term */
    pdx_index *ix = open_at(a, PDX_OPEN_WRITE | PDX_OPEN_CREATE);
    put_works(ix, "y", 0, N);
    pdx_close(ix);
    check(stamp(a) == LAYOUT_YEARS_TERMS, "a new index is stamped: " + stamp(a));
    std::map<std::string, Xapian::doccount> want_terms;
    for (unsigned k = 0; k < N; k++)
        if (year_of(k))
            want_terms[LAYOUT_P_YEAR + std::to_string(year_of(k))]++;
    check(year_terms(a) == want_terms,
          "each year's term is held by the works of that year (" +
              std::to_string(year_terms(a).size()) + " years)");
    ix = open_at(a, 0);
    check_ranges(ix, {"y"}, N, "with year terms");
    const std::string with_terms = pages(ix);
    pdx_close(ix);

    /* ---- the same works as an older paperdex wrote them */
    if (system(("cp -r '" + a + "' '" + old + "'").c_str()) != 0)
        check(false, "copy a");
    make_older(old);
    check(year_terms(old).empty() && stamp(old).empty(),
          "the older index has no year terms and no stamp");
    ix = open_at(old, 0);
    check_ranges(ix, {"y"}, N, "without year terms");
    const std::string without_terms = pages(ix);
    pdx_close(ix);
    check(with_terms == without_terms,
          "pages, scores and totals are the same with and without year "
          "terms:\n" + with_terms + "---\n" + without_terms);

    /* ---- other works in an older index, and its writer adds no terms */
    ix = open_at(z, PDX_OPEN_WRITE | PDX_OPEN_CREATE);
    put_works(ix, "z", 0, N / 2);
    pdx_close(ix);
    make_older(z);
    ix = open_at(z, PDX_OPEN_WRITE);
    put_works(ix, "z", N / 2, N);
    pdx_close(ix);
    check(year_terms(z).empty() && stamp(z).empty(),
          "a writer of an older index adds no year terms");

    /* ---- both searched together, then merged */
    ix = open_two(a, z);
    check_ranges(ix, {"y", "z"}, N, "shards new and old");
    pdx_close(ix);
    ix = open_two(z, a);
    check_ranges(ix, {"y", "z"}, N, "shards old and new");
    pdx_close(ix);
    ix = open_two(a, z);
    check(pdx_compact(ix, merged.c_str()) == 0,
          std::string("compact: ") + pdx_errmsg(ix));
    pdx_close(ix);
    check(stamp(merged).empty(),
          "the merge of an index with year terms and one without is not "
          "stamped: " + stamp(merged));
    ix = open_at(merged, 0);
    check_ranges(ix, {"y", "z"}, N, "merged");
    pdx_close(ix);
    ix = open_at(a, 0);
    check(pdx_compact(ix, alone.c_str()) == 0,
          std::string("compact a: ") + pdx_errmsg(ix));
    pdx_close(ix);
    check(stamp(alone) == LAYOUT_YEARS_TERMS && year_terms(alone) == want_terms,
          "a compacted copy keeps its year terms and its stamp");

    if (!check_fail && system(("rm -rf '" + work + "'").c_str()) != 0)
        fprintf(stderr, "cannot remove %s\n", work.c_str());
    return check_done();
}
