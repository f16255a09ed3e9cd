/*
 * test_stars.cc -- a letter with a star after it ("A*", "Q*",
 * "C*-algebras") read as a word of its own by the index's own rule
 * (common/layout.h, LAYOUT_META_STARS; TextTerms::stars in
 * indexer/text_terms.cc; "Starred letters" in searcher/query_parse.cc).
 *
 * What it checks, through the public API and through Xapian itself:
 *  - a new index is stamped paperdex.stars and holds a*, Sa*, r* and q*
 *    for "A*", "R*-tree" and "Q*" in the title and the abstract, but
 *    not for a star inside a word ("a*b"), after a longer word ("IDA*"),
 *    around a letter in Markdown's emphasis ("**M**ap", "*k*") or in an
 *    author's name, and joins no compound of a starred letter
 *    ("R*-tree" is no r*tree);
 *  - so "A* search" finds the work on A* search first, "A*" and
 *    "title:A*" only that work, "Q*" and "R*-tree" theirs, where the
 *    wildcard a* would find every work with a word that begins with a;
 *    a wildcard of two letters ("se*") stays a wildcard;
 *  - inside quotes ("A* search" is the phrase a* search), beside NEAR
 *    and ADJ, and in a query read as words (in capitals) it is the word
 *    too, and A* and search are a pair of the proximity bonus;
 *  - a starred letter no work writes ("M*") has a note that says it
 *    was read as a word and that a wildcard needs two letters;
 *  - the snippet marks "A*" with its star;
 *  - an index without the stamp (as an older paperdex wrote it) keeps the
 *    rule it was built with: its writer stars nothing, and "A*" is a
 *    wildcard there.
 *
 * usage: test_stars WORK_DIR
 */
#include <xapian.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "layout.h"
#include "api_checks.hh"

namespace {

void put_all(pdx_index *ix)
{
    check_put(ix, "astar", "Admissible heuristics for A* search",
              "We learn heuristics that keep A* optimal on road graphs.");
    check_put(ix, "engine", "A search engine for road graphs",
              "An engine answers a query about a graph in a millisecond: "
              "**M**ap **S**earch, *k* hops.");
    check_put(ix, "rtree", "Bulk loading of R*-trees",
              "An R*-tree is loaded in bulk, against an R-tree and IDA* runs.");
    check_put(ix, "qstar", "Learning the optimal value Q*",
              "The value Q* is approximated, and a*b is a product.");
    check_put(ix, "author", "Alpine meadows", nullptr, {"J* Doe"});
}

/* Of the first hit of text: its id, or with `explain` its explanation
 * (pdx_hit.explain); "(none)" when there is no hit. */
std::string first(pdx_index *ix, const char *text, bool explain = false)
{
    pdx_query q = PDX_QUERY_INIT;
    q.text = text;
    q.limit = 1;
    q.explain = explain;
    pdx_results *r = nullptr;
    std::string out = "(none)";
    if (pdx_search(&r, ix, &q) == 0 && pdx_results_count(r) > 0) {
        const pdx_hit *h = pdx_results_hit(r, 0);
        if (!explain)
            out = h->work->id;
        else if (h->explain)
            out = h->explain;
    }
    pdx_results_free(r);
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    const std::string work = check_work_arg(argc, argv, "test_stars");
    if (work.empty())
        return 2;
    const std::string path = work + "/ix";

    pdx_index *ix = check_create(path);
    put_all(ix);
    pdx_close(ix);
    check(Xapian::Database(path).get_metadata(LAYOUT_META_STARS) ==
              LAYOUT_STARS_LETTERS,
          "a new index is stamped");
    for (const char *t : {"a*", "Sa*", "r*", "Sr*", "q*", "Sq*", "tree"})
        check(check_has_term(path, t), std::string("a new index holds ") + t);
    for (const char *t : {"b*", "ida*", "j*", "Aj*", "r*tree", "Sr*tree", "m*", "s*", "k*"})
        check(!check_has_term(path, t), std::string("a new index does not hold ") + t);

    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    std::string top = first(ix, "A* search");
    check(top == "astar", "A* search ranks astar first: " + top);
    const std::set<std::string> astar = {"astar"};
    for (const char *q : {"A*", "a*", "title:A*", "abstract:A*"}) {
        const std::set<std::string> got = check_ids(ix, q);
        check(got == astar, std::string(q) + " finds astar alone: " + check_show(got));
    }
    std::set<std::string> got = check_ids(ix, "Q*");
    check(got == std::set<std::string>{"qstar"}, "Q* finds qstar: " + check_show(got));
    got = check_ids(ix, "R*-tree");
    check(got == std::set<std::string>{"rtree"}, "R*-tree finds rtree: " + check_show(got));
    got = check_ids(ix, "se*");
    check(got == std::set<std::string>{"astar", "engine"},
          "se* stays a wildcard: " + check_show(got));
    /* inside quotes, beside NEAR and ADJ, in prose, and as a pair of
     * the proximity bonus */
    for (const char *q : {"\"A* search\"", "\"R*-trees\"", "\"Q*\"", "A* NEAR search",
                          "A* ADJ/2 search", "\"A* search\"~2",
                          "\"A*\u2026 search\"" /* an ellipsis after the star */}) {
        got = check_ids(ix, q);
        check(got.size() == 1, std::string(q) + " finds one work: " + check_show(got));
    }
    const std::string prose = first(ix, "A* SEARCH WITH ADMISSIBLE HEURISTICS ON ROAD GRAPHS", true);
    check(prose.find("\"term\":\"a*\"") != std::string::npos,
          "prose in capitals reads A* as the word: " + prose);
    const std::string e = first(ix, "A* search", true);
    check(e.find("\"pair\":\"a* search\"") != std::string::npos,
          "A* and search are a pair of the proximity bonus: " + e);
    /* a starred letter no work writes finds nothing, and says why */
    for (const char *q : {"M*", "title:m*", "abstract:M* OR heuristics", "\"M* search\""}) {
        const std::string n = check_note(ix, q);
        check(n.find("m* was read as a word") != std::string::npos &&
                  n.find("two letters or more") != std::string::npos &&
                  n.find("m* was read", n.find("m* was read") + 1) == std::string::npos,
              std::string(q) + " says once that m* is a word no work writes: " + n);
    }
    check(check_note(ix, "A*").find("was read as a word") == std::string::npos,
          "A*, which a work writes, has no such note");
    const std::string m = check_marked(ix, "A*");
    check(m == "[A*]", "the snippet marks A* with its star: " + m);
    pdx_close(ix);

    /* The same index as an older paperdex left it: no stamp.  Its next
     * work is written by the older rule, and A* is a wildcard there. */
    check_unstamp(path, LAYOUT_META_STARS);
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_WRITE) == 0, "open to write");
    check_put(ix, "dstar", "D* Lite replanning", "Replanning with D* Lite.");
    pdx_close(ix);
    check(Xapian::Database(path).get_metadata(LAYOUT_META_STARS).empty(),
          "a writer leaves an older index unstamped");
    check(!check_has_term(path, "d*"), "an older index's writer stars nothing");
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    got = check_ids(ix, "A*");
    check(got.count("engine") && got.count("qstar"),
          "A* is a wildcard in an older index: " + check_show(got));
    pdx_close(ix);
    return check_finish(work);
}
