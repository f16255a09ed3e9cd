/*
 * test_plurals.cc -- an irregular plural and its singular meet in an
 * index stamped paperdex.plurals (common/layout.h, LAYOUT_META_PLURALS;
 * common/plurals.c; SnowballEnglish in common/shim.cc).
 *
 * What it checks, through the public API and through Xapian itself:
 *  - the table made from WordNet: matrices is matrix, criteria
 *    criterion, indices index, analyses analysis, mice mouse; a word of
 *    its own or another word's plural stays (data, media, ellipses,
 *    synapses, lives, axes), and so does a regular plural (models);
 *  - a new index is stamped, and holds one stem for both numbers;
 *  - each number finds the works of both, unquoted, in title: and
 *    beside NEAR, and weighs them alike (one term);
 *  - "indices" no longer finds the works of indicate and indicator, whose
 *    stem Porter gave it;
 *  - a quoted word is the works that write it so;
 *  - an index without the stamp (as an older paperdex wrote it) keeps
 *    the two apart, its writer too.
 *
 * usage: test_plurals WORK_DIR
 */
#include <xapian.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "layout.h"
#include "plurals.h"
#include "api_checks.hh"

namespace {

std::string singular(const char *w)
{
    char out[PLURAL_MAX];
    const size_t n = plural_singular(w, strlen(w), out);
    return n ? std::string(out, n) : std::string();
}

void put_all(pdx_index *ix)
{
    check_put(ix, "many", "Sparse matrices and their criteria",
              "We compare the indices of random matrices under two criteria.");
    check_put(ix, "one", "A sparse matrix and its criterion",
              "We compare the index of a random matrix under one criterion.");
    check_put(ix, "other", "Indicators of sparse graphs",
              "These results indicate that the graph is sparse.");
}

/* The score of each hit of text, by id. */
std::map<std::string, double> scores(pdx_index *ix, const char *text)
{
    pdx_query q = PDX_QUERY_INIT;
    q.text = text;
    pdx_results *r = nullptr;
    std::map<std::string, double> out;
    if (pdx_search(&r, ix, &q) == 0)
        for (size_t i = 0; i < pdx_results_count(r); i++) {
            const pdx_hit *h = pdx_results_hit(r, i);
            out[h->work->id] = h->score;
        }
    pdx_results_free(r);
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    const std::string work = check_work_arg(argc, argv, "test_plurals");
    if (work.empty())
        return 2;
    const std::string path = work + "/ix";

    const struct {
        const char *word, *want;
    } table[] = {{"matrices", "matrix"},   {"criteria", "criterion"},
                 {"indices", "index"},     {"analyses", "analysis"},
                 {"vertices", "vertex"},   {"corpora", "corpus"},
                 {"phenomena", "phenomenon"}, {"mice", "mouse"},
                 {"data", ""},             {"media", ""},
                 {"ellipses", ""},         {"synapses", ""},
                 {"lives", ""},            {"axes", ""},
                 {"models", ""},           {"matrix", ""},
                 {"Matrices", ""}};
    for (const auto &t : table) {
        const std::string got = singular(t.word);
        check(got == t.want, std::string(t.word) + " is read as \"" + t.want +
                                 "\", not \"" + got + "\"");
    }

    pdx_index *ix = check_create(path);
    put_all(ix);
    pdx_close(ix);
    check(Xapian::Database(path).get_metadata(LAYOUT_META_PLURALS) ==
              LAYOUT_PLURALS_SINGULAR,
          "a new index is stamped");
    for (const char *t : {"matrix", "Smatrix", "criterion", "index"})
        check(check_has_term(path, t), std::string("a new index holds ") + t);
    for (const char *t : {"matric", "Smatric", "criteria"})
        check(!check_has_term(path, t), std::string("a new index does not hold ") + t);

    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    const std::set<std::string> both = {"many", "one"};
    for (const char *q : {"matrices", "matrix", "criteria", "Criterion", "title:matrices",
                          "title:matrix", "random ADJ matrices", "criterion NEAR matrices"}) {
        const std::set<std::string> got = check_ids(ix, q);
        check(got == both, std::string(q) + " finds both numbers: " + check_show(got));
    }
    std::set<std::string> got = check_ids(ix, "indices");
    check(got == both, "indices finds index and indices, not indicate: " + check_show(got));
    for (const char *q : {"matrices criteria", "matrix criterion"}) {
        const std::map<std::string, double> s = scores(ix, q);
        check(s.size() == 2 && s.count("many") && s.count("one") &&
                  s.at("many") == s.at("one"),
              std::string(q) + " weighs both works alike");
    }
    got = check_ids(ix, "\"matrices\"");
    check(got == std::set<std::string>{"many"}, "\"matrices\" is the works that write it: " +
                                                    check_show(got));
    got = check_ids(ix, "\"random matrix\"");
    check(got == std::set<std::string>{"one"}, "\"random matrix\" is the works that write it: " +
                                                   check_show(got));
    pdx_close(ix);

    /* The same index as an older paperdex left it: no stamp.  Its next
     * work is written by the older rule, and the numbers stay apart. */
    check_unstamp(path, LAYOUT_META_PLURALS);
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_WRITE) == 0, "open to write");
    check_put(ix, "old", "Vortices of the month", "A study of vortices.");
    pdx_close(ix);
    check(Xapian::Database(path).get_metadata(LAYOUT_META_PLURALS).empty(),
          "a writer leaves an older index unstamped");
    check(check_has_term(path, "vortic") && !check_has_term(path, "vortex"),
          "an older index's writer keeps the plural's own stem");
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    got = check_ids(ix, "vortices");
    check(got == std::set<std::string>{"old"}, "vortices in an older index: " + check_show(got));
    got = check_ids(ix, "vortex");
    check(got.empty(), "vortex finds nothing in an older index: " + check_show(got));
    pdx_close(ix);
    return check_finish(work);
}
