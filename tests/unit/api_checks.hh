/*
 * api_checks.hh -- the helpers of C++ tests that build a small index
 * through the public API and search it: a work put and committed, the
 * ids a query finds, a set shown, a term looked up in Xapian itself.
 * Each failure is a failed check (check.h), named.
 */
#ifndef PDX_API_CHECKS_HH
#define PDX_API_CHECKS_HH

#include <xapian.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "check.h"
#include "paperdex.h"

/* The work directory of a test that takes one (its only argument),
 * emptied (check_work_dir); "" after printing why, when it is not given
 * or cannot be made. */
static inline std::string check_work_arg(int argc, char **argv, const char *test)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s WORK_DIR\n", test);
        return std::string();
    }
    const std::string work = argv[1];
    return check_work_dir(work) ? work : std::string();
}

/* A new index at path, open to write (a failed check when it is not). */
static inline pdx_index *check_create(const std::string &path)
{
    pdx_index *ix = nullptr;
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_WRITE | PDX_OPEN_CREATE) == 0,
          "create " + path);
    return ix;
}

/* Put a work (id, title, abstract or none, authors or none, year 2020)
 * into ix and commit it. */
static inline void check_put(pdx_index *ix, const char *id, const char *title,
                             const char *abstract = nullptr,
                             const std::vector<const char *> &authors = {})
{
    pdx_work w;
    pdx_work_init(&w, PDX_WORK_VERSION);
    w.id = id;
    w.title = title;
    w.abstract = abstract;
    w.authors = authors.empty() ? nullptr : authors.data();
    w.n_authors = authors.size();
    w.year = 2020;
    check(pdx_put(ix, &w) == 0, std::string("put ") + id + ": " + pdx_errmsg(ix));
    check(pdx_commit(ix) == 0, std::string("commit: ") + pdx_errmsg(ix));
}

/* The ids of the works text finds in ix (up to 100). */
static inline std::set<std::string> check_ids(pdx_index *ix, const char *text)
{
    std::set<std::string> s;
    pdx_query q = PDX_QUERY_INIT;
    q.text = text;
    q.limit = 100;
    pdx_results *r = nullptr;
    if (pdx_search(&r, ix, &q) != 0) {
        check(false, std::string("search: ") + pdx_errmsg(ix));
        return s;
    }
    for (size_t i = 0; i < pdx_results_count(r); i++)
        s.insert(pdx_results_hit(r, i)->work->id);
    pdx_results_free(r);
    return s;
}

/* The id of the first hit of text in ix, "(none)" when there is none. */
static inline std::string check_first(pdx_index *ix, const char *text)
{
    pdx_query q = PDX_QUERY_INIT;
    q.text = text;
    q.limit = 1;
    pdx_results *r = nullptr;
    std::string id = "(none)";
    if (pdx_search(&r, ix, &q) == 0 && pdx_results_count(r) > 0)
        id = pdx_results_hit(r, 0)->work->id;
    pdx_results_free(r);
    return id;
}

/* s as "{a b c}", for a failure's message. */
/* The abstract's marked words of the first hit of text, as "[A*] [x]";
 * "(no hit)" when there is none. */
static inline std::string check_marked(pdx_index *ix, const char *text)
{
    pdx_query q = PDX_QUERY_INIT;
    q.text = text;
    q.limit = 1;
    pdx_results *r = nullptr;
    if (pdx_search(&r, ix, &q) != 0 || pdx_results_count(r) == 0) {
        pdx_results_free(r);
        return "(no hit)";
    }
    const pdx_hit *h = pdx_results_hit(r, 0);
    std::string out;
    for (size_t i = 0; h->snippet && i < h->n_highlights; i++)
        out += (out.empty() ? "[" : " [") +
               std::string(h->snippet + h->highlights[2 * i],
                           h->highlights[2 * i + 1] - h->highlights[2 * i]) +
               "]";
    pdx_results_free(r);
    return out;
}

/* The note of a search for text ("" when there is none, "(error)" when
 * the search fails). */
static inline std::string check_note(pdx_index *ix, const char *text)
{
    pdx_query q = PDX_QUERY_INIT;
    q.text = text;
    pdx_results *r = nullptr;
    std::string out = "(error)";
    if (pdx_search(&r, ix, &q) == 0) {
        const char *n = pdx_results_note(r);
        out = n ? n : "";
    }
    pdx_results_free(r);
    return out;
}

static inline std::string check_show(const std::set<std::string> &s)
{
    std::string o;
    for (const std::string &x : s)
        o += (o.empty() ? "" : " ") + x;
    return "{" + o + "}";
}

/* Whether the index at path holds term, asked of Xapian itself. */
static inline bool check_has_term(const std::string &path, const char *term)
{
    return Xapian::Database(path).term_exists(term);
}

/* The index at path as an older paperdex left it: without the stamp
 * `key` (common/layout.h), removed through Xapian itself. */
static inline void check_unstamp(const std::string &path, const char *key)
{
    Xapian::WritableDatabase db(path, Xapian::DB_OPEN);
    db.set_metadata(key, "");
    db.commit();
}

/* A test's end: its work directory removed when every check passed (kept
 * for a look otherwise), and check_done()'s exit code. */
static inline int check_finish(const std::string &work)
{
    if (!check_fail && system(("rm -rf '" + work + "'").c_str()) != 0)
        fprintf(stderr, "cannot remove %s\n", work.c_str());
    return check_done();
}

#endif
