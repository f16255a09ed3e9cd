/*
 * test_first_author.cc -- the first author's keys (common/layout.h,
 * LAYOUT_P_AUTHOR_FIRST, LAYOUT_META_FIRST_AUTHOR), the `firstauthor:`
 * filter (searcher/query_parse.cc) and a citation read as one
 * (qscan_citations, searcher/search.c).
 *
 * What it checks, through the public API and through Xapian itself:
 *  - a new index is stamped paperdex.first_author and holds the first
 *    author's family name under XAP (with its particles and without),
 *    and no other author's;
 *  - firstauthor: finds the works whose first author has that name, by
 *    family name, full name or without the particles, where author:
 *    finds every work the author is on;
 *  - "Bengio et al. 2025" finds the works of 2025 whose first author is
 *    Bengio, with a note saying how it was read; a citation whose first
 *    author has no work there finds the author's works anywhere in the
 *    list, and says so; in quotes it is the words;
 *  - an index without the stamp (as an older paperdex wrote it) reads
 *    firstauthor: as author:, with a note, and its writer adds no XAP.
 *
 * usage: test_first_author WORK_DIR
 */
#include <xapian.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "layout.h"
#include "api_checks.hh"

namespace {

void put(pdx_index *ix, const char *id, const char *title,
         std::vector<const char *> authors, int year)
{
    pdx_work w;
    pdx_work_init(&w, PDX_WORK_VERSION);
    w.id = id;
    w.title = title;
    w.authors = authors.data();
    w.n_authors = authors.size();
    w.year = year;
    check(pdx_put(ix, &w) == 0, std::string("put ") + id + ": " + pdx_errmsg(ix));
}

/* The ids text finds, and its note. */
std::set<std::string> found(pdx_index *ix, const char *text, std::string &note)
{
    std::set<std::string> s;
    note.clear();
    pdx_query q = PDX_QUERY_INIT;
    q.text = text;
    q.limit = 100;
    pdx_results *r = nullptr;
    if (pdx_search(&r, ix, &q) != 0) {
        check(false, std::string("search ") + text + ": " + pdx_errmsg(ix));
        return s;
    }
    for (size_t i = 0; i < pdx_results_count(r); i++)
        s.insert(pdx_results_hit(r, i)->work->id);
    if (pdx_results_note(r))
        note = pdx_results_note(r);
    pdx_results_free(r);
    return s;
}

void expect(pdx_index *ix, const char *text, const std::set<std::string> &want,
            const char *note_has = nullptr)
{
    std::string note;
    const std::set<std::string> got = found(ix, text, note);
    check(got == want, std::string(text) + " finds " + check_show(want) +
                           ", not " + check_show(got));
    if (note_has)
        check(note.find(note_has) != std::string::npos,
              std::string(text) + ": the note says \"" + note_has + "\": " + note);
}

} // namespace

int main(int argc, char **argv)
{
    const std::string work = check_work_arg(argc, argv, "test_first_author");
    if (work.empty())
        return 2;
    const std::string path = work + "/ix";

    pdx_index *ix = check_create(path);
    put(ix, "first", "Glacier flow one", {"Yoshua Bengio", "Aaron Courville"}, 2025);
    put(ix, "third", "Glacier flow two",
        {"Ian Goodfellow", "Aaron Courville", "Yoshua Bengio"}, 2025);
    put(ix, "older", "Glacier flow three", {"Yoshua Bengio"}, 2019);
    put(ix, "berg", "Moraine mapping", {"Jan van der Berg", "Sofia Petrovic"}, 2019);
    put(ix, "petrovic", "Moraine dating", {"Sofia Petrovic", "Jan van der Berg"}, 2019);
    check(pdx_commit(ix) == 0, std::string("commit: ") + pdx_errmsg(ix));
    pdx_close(ix);
    check(Xapian::Database(path).get_metadata(LAYOUT_META_FIRST_AUTHOR) ==
              LAYOUT_FIRST_AUTHOR_KEPT,
          "a new index is stamped");
    for (const char *t : {"XAPbengio", "XAPgoodfellow", "XAPvanderberg", "XAPberg",
                          "XAPpetrovic"})
        check(check_has_term(path, t), std::string("a new index holds ") + t);
    check(!check_has_term(path, "XAPcourville"), "only the first author's keys");

    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    expect(ix, "firstauthor:Bengio", {"first", "older"});
    expect(ix, "author:Bengio", {"first", "third", "older"});
    expect(ix, "firstauthor:\"Yoshua Bengio\"", {"first", "older"});
    expect(ix, "firstauthor:\"van der Berg\"", {"berg"});
    expect(ix, "firstauthor:Berg", {"berg"});
    expect(ix, "glacier firstauthor:Goodfellow", {"third"});
    expect(ix, "Bengio et al. 2025", {"first"},
           "read \"Bengio et al. 2025\" as firstauthor:\"Bengio\" year:2025");
    expect(ix, "glacier (Bengio et al., 2019)", {"older"});
    expect(ix, "van der Berg et al.", {"berg"});
    /* no work of 2025 has Courville first: any author, said */
    expect(ix, "Courville et al. 2025", {"first", "third"},
           "as author:\"Courville\" year:2025 (as its first author, nothing matched)");
    std::string note;
    const std::set<std::string> quoted = found(ix, "\"Bengio et al. 2025\"", note);
    check(quoted.empty() && note.find("read \"") == std::string::npos,
          "a quoted citation is its words: " + check_show(quoted) + " " + note);
    pdx_close(ix);

    /* The same index as an older paperdex left it: no stamp.  firstauthor:
     * is author: there, said, and its writer keeps no first authors. */
    check_unstamp(path, LAYOUT_META_FIRST_AUTHOR);
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_WRITE) == 0, "open to write");
    put(ix, "later", "Glacier flow four", {"Hugo Larochelle"}, 2020);
    check(pdx_commit(ix) == 0, std::string("commit: ") + pdx_errmsg(ix));
    pdx_close(ix);
    check(!check_has_term(path, "XAPlarochelle"), "an older index's writer keeps no first author");
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    expect(ix, "firstauthor:Bengio", {"first", "third", "older"},
           "firstauthor: was read as author:");
    pdx_close(ix);
    return check_finish(work);
}
