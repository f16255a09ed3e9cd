/*
 * test_facets.cc -- facets counted from the columns in memory
 * (searcher/facet_columns.cc) answer as the value streams' spies do.
 *
 * What it checks, on 2,500 invented works (years, one to three
 * categories and subjects, two to forty authors drawn so that a few
 * people write many works, some names written twice in one work, some
 * works without categories, some deleted):
 *  - every facet of 16 searches (words, phrases, filters of each kind,
 *    every work, a word no work has), at facet limits 5 and 2,000, and
 *    16 more asking for some of the facets in turn: the
 *    same values, counts and order with test_facet_columns("columns")
 *    as with ("streams"), and the same hits and totals; the streams'
 *    answers are checked by hand for a few counts (a name written twice
 *    in a work counts it once);
 *  - the rent-or-buy rule: a fresh handle counts from the streams, and
 *    a thread reads the columns once its faceted matches have met as
 *    many works as the index has, for its next searches;
 *  - a commit makes them stale: after works are added and others
 *    deleted, a handle holding columns answers as a fresh one;
 *  - handles of one process share the columns one of them read.
 *
 * usage: test_facets WORK_DIR
 */
#include <xapian.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "check.h"
#include "layout.h"
#include "paperdex.h"
#include "shim_db.hh"
#include "../searcher/read_side.hh"
extern "C" {
#include "handle.h" /* struct pdx_index: a handle's shim_db */
}

namespace {

const char *const WORDS[] = {"graph",  "neural", "lattice", "quantum",
                             "sparse", "kernel", "glacier", "protein"};
const char *const CATS[] = {"cs.LG", "cs.CV", "hep-th", "math.CO",
                            "q-bio.GN", "astro-ph.EP"};
const char *const FAMILY[] = {"Lindqvist", "Okafor", "Tanaka", "Moreau",
                              "Wu",        "Silva",  "Novak",  "Haddad"};
const char *const GIVEN[] = {"Greta", "Emeka", "Yuki", "Claire",
                             "Zhihua", "Ana",  "Petr", "Layla"};

/* Works "f<k>", from .. from+n. */
void put_works(pdx_index *ix, unsigned from, unsigned n, std::mt19937 &rng)
{
    for (unsigned k = from; k < from + n; k++) {
        pdx_work w;
        pdx_work_init(&w, PDX_WORK_VERSION);
        const std::string id = "f" + std::to_string(k);
        std::string title, abstract;
        for (unsigned i = 0; i < 4; i++)
            title += std::string(i ? " " : "") + WORDS[rng() % 8];
        for (unsigned i = 0; i < 30; i++)
            abstract += std::string(i ? " " : "") + WORDS[rng() % 8];
        /* a few people write many works: the first of 64 are common */
        std::vector<std::string> names;
        const unsigned n_authors = rng() % 10 == 0 ? 40 : 2 + rng() % 4;
        for (unsigned i = 0; i < n_authors; i++) {
            const unsigned p = rng() % 3 ? rng() % 8 : rng() % 64;
            std::string name = std::string(GIVEN[p % 8]) + " " + FAMILY[p / 8];
            if (p == 5 && rng() % 2)
                name = std::string(FAMILY[0]) + ", " + GIVEN[5];
            names.push_back(name);
        }
        if (rng() % 7 == 0)
            names.push_back(names[0]); /* written twice in one work */
        std::vector<const char *> authors;
        for (const std::string &a : names)
            authors.push_back(a.c_str());
        std::vector<const char *> cats, subjects;
        for (unsigned i = rng() % 4; i > 0; i--)
            cats.push_back(CATS[rng() % 6]);
        for (unsigned i = rng() % 3; i > 0; i--)
            subjects.push_back(WORDS[rng() % 8]);
        w.id = id.c_str();
        w.title = title.c_str();
        w.abstract = abstract.c_str();
        w.authors = authors.data();
        w.n_authors = authors.size();
        w.categories = cats.data();
        w.n_categories = cats.size();
        w.subjects = subjects.data();
        w.n_subjects = subjects.size();
        w.year = 1990 + static_cast<int>(rng() % 30);
        check(pdx_put(ix, &w) == 0, "put " + id + ": " + pdx_errmsg(ix));
    }
    check(pdx_commit(ix) == 0, std::string("commit: ") + pdx_errmsg(ix));
}

struct Search {
    const char *text;
    int year;
    const char *category, *author, *subject;
};

const Search SEARCHES[] = {
    {"graph", 0, nullptr, nullptr, nullptr},
    {"graph neural", 0, nullptr, nullptr, nullptr},
    {"\"sparse kernel\"", 0, nullptr, nullptr, nullptr},
    {"quantum OR lattice", 0, nullptr, nullptr, nullptr},
    {"glacier -protein", 0, nullptr, nullptr, nullptr},
    {"", 1, nullptr, nullptr, nullptr}, /* every work */
    {"", 2004, nullptr, nullptr, nullptr},
    {"kernel", 2010, nullptr, nullptr, nullptr},
    {"", 0, "cs.LG", nullptr, nullptr},
    {"neural", 0, "hep-th", nullptr, nullptr},
    {"", 0, nullptr, "Greta Lindqvist", nullptr},
    {"protein", 0, nullptr, "Wu", nullptr},
    {"", 0, nullptr, nullptr, "glacier"},
    {"lattice", 0, "cs.CV", "Ana Okafor", "graph"},
    {"zzyzxq", 0, nullptr, nullptr, nullptr},
    {"author:Tanaka", 0, nullptr, nullptr, nullptr},
};

/* One search's answer as text: total, hits, then each facet's values. */
std::string answer(pdx_index *ix, const Search &s, size_t limit,
                   unsigned facets = PDX_FACET_YEAR | PDX_FACET_CATEGORY |
                                     PDX_FACET_AUTHOR | PDX_FACET_SUBJECT)
{
    pdx_query q;
    pdx_query_init(&q, PDX_QUERY_VERSION);
    q.text = s.text;
    q.limit = 10;
    q.no_suggest = 1;
    q.facets = facets;
    q.facet_limit = limit;
    q.year_min = s.year == 1 ? 1000 : s.year;
    q.year_max = s.year == 1 ? 9999 : s.year;
    const char *cat[] = {s.category}, *au[] = {s.author}, *su[] = {s.subject};
    if (s.category)
        q.categories = cat, q.n_categories = 1;
    if (s.author)
        q.authors = au, q.n_authors = 1;
    if (s.subject)
        q.subjects = su, q.n_subjects = 1;
    pdx_results *r = nullptr;
    if (pdx_search(&r, ix, &q) != 0) {
        check(false, std::string("search ") + s.text + ": " + pdx_errmsg(ix));
        pdx_results_free(r);
        return "";
    }
    std::string a = "total " + std::to_string(pdx_results_total(r));
    for (size_t i = 0; i < pdx_results_count(r); i++)
        a += std::string(" ") + pdx_results_hit(r, i)->work->id;
    for (unsigned f = 1; f <= PDX_FACET_SUBJECT; f <<= 1) {
        a += "\n[" + std::to_string(f) + "]";
        for (size_t i = 0; i < pdx_results_facet_count(r, f); i++) {
            const pdx_facet *v = pdx_results_facet(r, f, i);
            a += std::string(" ") + v->value + "=" + std::to_string(v->count);
        }
    }
    const char *note = pdx_results_note(r);
    if (note && *note)
        a += std::string("\nnote: ") + note;
    pdx_results_free(r);
    return a;
}

std::vector<std::string> answers(pdx_index *ix)
{
    std::vector<std::string> out;
    for (size_t limit : {size_t(5), size_t(2000)})
        for (const Search &s : SEARCHES)
            out.push_back(answer(ix, s, limit));
    /* some facets at a time: a handle's counters of the others are left
     * as the last search counted them, and must not leak into the next */
    const unsigned some[] = {PDX_FACET_YEAR | PDX_FACET_AUTHOR,
                             PDX_FACET_CATEGORY | PDX_FACET_SUBJECT,
                             PDX_FACET_AUTHOR, 15};
    for (size_t i = 0; i < 16; i++)
        out.push_back(answer(ix, SEARCHES[(i * 7) % 16], 50, some[i % 4]));
    return out;
}

std::vector<std::string> answers_with(const std::string &path, const char *mode)
{
    pdxshim::test_facet_columns(mode);
    pdx_index *ix = nullptr;
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open " + path);
    std::vector<std::string> a = answers(ix);
    check(mode == nullptr || !strcmp(mode, "streams") ||
              reader(ix->db).columns.get(ix->db) != nullptr,
          "test_facet_columns(\"columns\") reads the columns");
    pdx_close(ix);
    pdxshim::test_facet_columns(nullptr);
    return a;
}

void compare(const std::vector<std::string> &got,
             const std::vector<std::string> &want, const char *label)
{
    check(got.size() == want.size(), std::string(label) + ": as many answers");
    unsigned differ = 0;
    for (size_t i = 0; i < got.size() && i < want.size(); i++)
        if (got[i] != want[i] && differ++ < 3)
            fprintf(stderr, "%s, search %zu:\n got  %s\n want %s\n", label, i,
                    got[i].c_str(), want[i].c_str());
    check(differ == 0, std::string(label) + ": " + std::to_string(differ) +
                           " answers differ from the streams'");
}

/* A facet's count of value v in an answer ("v=N"), or -1. */
long count_of(const std::string &a, unsigned facet, const std::string &v)
{
    const std::string head = "[" + std::to_string(facet) + "]";
    size_t at = a.find(head);
    if (at == std::string::npos)
        return -1;
    const size_t end = a.find('\n', at);
    const std::string line = a.substr(at, end == std::string::npos ? end : end - at);
    const size_t p = line.find(" " + v + "=");
    return p == std::string::npos ? -1 : atol(line.c_str() + p + v.size() + 2);
}

/* The works of the index holding value v in its facet slot, each once,
 * read from the documents (the spies' and the columns' common truth). */
long works_with(const std::string &path, Xapian::valueno slot, const std::string &v)
{
    Xapian::Database db(path);
    long n = 0;
    for (Xapian::PostingIterator p = db.postlist_begin("");
         p != db.postlist_end(""); ++p) {
        const std::string joined = db.get_document(*p).get_value(slot);
        size_t i = 0;
        bool has = false;
        while (i <= joined.size()) {
            size_t j = joined.find(LAYOUT_FACET_SEP, i);
            if (j == std::string::npos)
                j = joined.size();
            has |= joined.compare(i, j - i, v) == 0;
            i = j + 1;
        }
        n += has;
    }
    return n;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2 || !check_work_dir(argv[1]))
        return 2;
    const std::string path = std::string(argv[1]) + "/facets";
    std::mt19937 rng(20261129);
    pdx_index *w = nullptr;
    check(pdx_open(&w, path.c_str(), PDX_OPEN_WRITE | PDX_OPEN_CREATE) == 0,
          "create " + path);
    put_works(w, 0, 2500, rng);
    for (unsigned k = 0; k < 2500; k += 37) /* docid gaps */
        check(pdx_delete(w, ("f" + std::to_string(k)).c_str()) == 0, "delete");
    check(pdx_commit(w) == 0, "commit");

    /* the same answers both ways */
    const auto streams = answers_with(path, "streams");
    const auto columns = answers_with(path, "columns");
    compare(columns, streams, "columns");
    /* and the streams' are right: counts checked against the documents */
    const std::string every = streams[5 + 16]; /* every work, limit 2,000 */
    check(count_of(every, PDX_FACET_CATEGORY, "hep-th") ==
              works_with(path, LAYOUT_SLOT_CATS, "hep-th"),
          "hep-th counted once a work: " + every.substr(0, 200));
    check(count_of(every, PDX_FACET_SUBJECT, "glacier") ==
              works_with(path, LAYOUT_SLOT_SUBJECTS, "glacier"),
          "subject glacier counted once a work");
    check(count_of(every, PDX_FACET_CATEGORY, "cs.LG") > 100,
          "cs.LG counted at all");

    /* the rent: a fresh handle counts from the streams until its faceted
     * matches have met as many works as the index has */
    {
        pdx_index *ix = nullptr;
        check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
        shim_db *h = ix->db;
        check(answer(ix, SEARCHES[0], 5) == streams[0], "first answer");
        check(reader(h).columns.get(h) == nullptr,
              "one narrow faceted search reads no columns");
        for (int i = 0; i < 2; i++)
            answer(ix, SEARCHES[5], 5); /* every work: the rent paid */
        /* read by a thread of the process: taken once it is done */
        std::shared_ptr<const pdxshim::FacetColumns> cols;
        for (int i = 0; i < 3000 && !cols; i++) {
            cols = reader(h).columns.get(h);
            if (!cols)
                usleep(10000);
        }
        check(cols != nullptr, "the columns read once the rent is paid");
        check(answers(ix) == streams, "answers from the columns read");
        /* shared: another handle takes them at its first search */
        pdx_index *other = nullptr;
        check(pdx_open(&other, path.c_str(), PDX_OPEN_READ) == 0, "open");
        check(reader(other->db).columns.get(other->db) == cols,
              "a second handle shares the columns");
        pdx_close(other);

        /* a commit: works added and deleted, the columns stale */
        put_works(w, 2500, 300, rng);
        for (unsigned k = 1; k < 2800; k += 41)
            pdx_delete(w, ("f" + std::to_string(k)).c_str());
        check(pdx_commit(w) == 0, "commit");
        std::vector<std::string> after = answers(ix);
        pdx_close(ix);
        compare(after, answers_with(path, "streams"), "after a commit");
    }
    pdx_close(w);
    return check_done();
}
