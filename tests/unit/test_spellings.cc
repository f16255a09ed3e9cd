/*
 * test_spellings.cc -- British and American spellings of one word meet
 * in an index stamped paperdex.spellings (common/layout.h,
 * LAYOUT_META_SPELLINGS; common/spellings.c; SnowballEnglish in
 * common/shim.cc).
 *
 * What it checks, through the public API and through Xapian itself:
 *  - the table made from SCOWL: colour is color, optimisation
 *    optimization, haemoglobin hemoglobin, manoeuvre maneuver; an
 *    American or common word stays (color, precise, program, programme,
 *    expertise); a word SCOWL lacks is read by the -ise rule
 *    (tokenisation: tokenization) but not a -wise one (pairwise);
 *  - a new index is stamped, and holds one stem for both spellings;
 *  - each spelling finds the works of both, unquoted, in title: and
 *    beside NEAR, and weighs them alike (one term: a work that writes
 *    the rarer spelling does not outrank one that writes the commoner);
 *  - a quoted word or phrase is the works that write it so ("colour" in
 *    quotes is the British work alone);
 *  - an index without the stamp (as an older paperdex wrote it) keeps
 *    the two apart, its writer too.
 *
 * usage: test_spellings WORK_DIR
 */
#include <xapian.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "layout.h"
#include "spellings.h"
#include "api_checks.hh"

namespace {

std::string american(const char *w)
{
    char out[SPELLING_MAX];
    const size_t n = spelling_american(w, strlen(w), out);
    return n ? std::string(out, n) : std::string();
}

void put_all(pdx_index *ix)
{
    check_put(ix, "uk", "Colour constancy under optimisation",
              "We study the behaviour of a tumour model in grey light.");
    check_put(ix, "us", "Color constancy under optimization",
              "We study the behavior of a tumor model in gray light.");
    check_put(ix, "other", "Texture constancy under sampling",
              "We study the texture of a cell model in bright light.");
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
    const std::string work = check_work_arg(argc, argv, "test_spellings");
    if (work.empty())
        return 2;
    const std::string path = work + "/ix";

    const struct {
        const char *word, *want;
    } table[] = {{"colour", "color"},           {"optimisation", "optimization"},
                 {"optimised", "optimized"},    {"haemoglobin", "hemoglobin"},
                 {"manoeuvre", "maneuver"},     {"modelling", "modeling"},
                 {"centre", "center"},          {"analyse", "analyze"},
                 {"tokenisation", "tokenization"}, {"vectorised", "vectorized"},
                 {"color", ""},                 {"precise", ""},
                 {"program", ""},               {"programme", ""},
                 {"expertise", ""},             {"pairwise", ""},
                 {"premises", ""},              {"Colour", ""}};
    for (const auto &t : table) {
        const std::string got = american(t.word);
        check(got == t.want, std::string(t.word) + " is read as \"" + t.want +
                                 "\", not \"" + got + "\"");
    }

    pdx_index *ix = check_create(path);
    put_all(ix);
    pdx_close(ix);
    check(Xapian::Database(path).get_metadata(LAYOUT_META_SPELLINGS) ==
              LAYOUT_SPELLINGS_AMERICAN,
          "a new index is stamped");
    for (const char *t : {"color", "Scolor", "optim", "behavior", "tumor", "gray"})
        check(check_has_term(path, t), std::string("a new index holds ") + t);
    for (const char *t : {"colour", "Scolour", "optimis", "behaviour", "tumour", "grey"})
        check(!check_has_term(path, t), std::string("a new index does not hold ") + t);

    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    const std::set<std::string> both = {"uk", "us"};
    for (const char *q : {"colour", "color", "optimisation", "optimization", "Behaviour",
                          "tumor", "title:colour", "title:color", "grey ADJ light",
                          "behaviour NEAR tumour"}) {
        const std::set<std::string> got = check_ids(ix, q);
        check(got == both, std::string(q) + " finds both spellings: " + check_show(got));
    }
    for (const char *q : {"colour optimisation", "color optimization"}) {
        const std::map<std::string, double> s = scores(ix, q);
        check(s.size() == 2 && s.count("uk") && s.count("us") && s.at("uk") == s.at("us"),
              std::string(q) + " weighs both works alike");
    }
    std::set<std::string> got = check_ids(ix, "\"colour\"");
    check(got == std::set<std::string>{"uk"}, "\"colour\" is the works that write it: " +
                                                  check_show(got));
    got = check_ids(ix, "\"color\"");
    check(got == std::set<std::string>{"us"}, "\"color\" is the works that write it: " +
                                                  check_show(got));
    got = check_ids(ix, "\"grey light\"");
    check(got == std::set<std::string>{"uk"}, "\"grey light\" is the works that write it: " +
                                                  check_show(got));
    pdx_close(ix);

    /* The same index as an older paperdex left it: no stamp.  Its next
     * work is written by the older rule, and the spellings stay apart. */
    check_unstamp(path, LAYOUT_META_SPELLINGS);
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_WRITE) == 0, "open to write");
    check_put(ix, "old", "Flavour of the month", "A flavour study.");
    pdx_close(ix);
    check(Xapian::Database(path).get_metadata(LAYOUT_META_SPELLINGS).empty(),
          "a writer leaves an older index unstamped");
    check(check_has_term(path, "flavour") && !check_has_term(path, "flavor"),
          "an older index's writer keeps the British stem");
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    got = check_ids(ix, "flavour");
    check(got == std::set<std::string>{"old"}, "flavour in an older index: " + check_show(got));
    got = check_ids(ix, "flavor");
    check(got.empty(), "flavor finds nothing in an older index: " + check_show(got));
    pdx_close(ix);
    return check_finish(work);
}
