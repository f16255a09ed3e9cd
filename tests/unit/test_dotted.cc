/*
 * test_dotted.cc -- letters written with dots between them ("i.i.d.",
 * "w.r.t.", "a.k.a.") read as one word by the index's own rule, and two
 * of them ("U.S.", "e.g.") as one word that keeps its
 * dot (common/layout.h, LAYOUT_META_DOTTED and LAYOUT_META_DOTTED_PAIRS;
 * TextTerms::dotted and dotted_pairs in indexer/text_terms.cc;
 * join_acronyms in searcher/query_parse.cc).
 *
 * What it checks, through the public API and through Xapian itself:
 *  - a new index is stamped paperdex.dotted and holds iid for "i.i.d.",
 *    "I.i.d." and "I.I.D." alike, wrt, aka, and noniid for "non-i.i.d.",
 *    in the title and the abstract, but joins no run of two ("e.g.",
 *    "i.e."), no run right after a dot ("x.y.a.b.c" begins with a word
 *    of its own), no run a word character follows ("a.b.cd", which as
 *    an abbreviation with a part of two letters, as "Ph.D." is, holds
 *    its parts joined, abcd), and no author's initials;
 *  - it is stamped paperdex.dotted_pairs too and holds u.s for "U.S.",
 *    e.g, i.e and a.m, in the title and the abstract, and for "U.S"
 *    (no last dot), where "Fig.U.S." stays us and an author's "J.R."
 *    stays his initials;
 *  - so "U.S." (bare, quoted, title:, or "U.S") finds the works that
 *    write it,
 *    not the one that writes the pronoun us or US; "US" finds the
 *    pronoun's; "e.g." finds the works that write it; the snippet marks
 *    "U.S." whole;
 *  - so "i.i.d." finds the works that write i.i.d., I.I.D. or IID, not
 *    the work that holds the letter d in its formulas; quoted
 *    ("i.i.d. samples") it is a phrase of that word; "w.r.t." and
 *    "a.k.a." find theirs;
 *  - the snippet marks "i.i.d." and "I.I.D." whole;
 *  - an index without the stamp (as an older paperdex wrote it) keeps the
 *    rule it was built with: its writer joins nothing, and a search for
 *    "i.i.d." there is its letters, with a note that says so; "U.S."
 *    there is the word us, with a note.
 *
 * usage: test_dotted WORK_DIR
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
    check_put(ix, "lower", "Bandits with non-i.i.d. rewards",
              "Rewards are not i.i.d. here; we bound regret w.r.t. the best arm.");
    check_put(ix, "upper", "Testing the IID assumption",
              "Under the I.I.D. assumption, e.g. with fair coins, i.e. always.");
    check_put(ix, "start", "Sampling schemes",
              "I.i.d. samples, a.k.a. independent draws, see Fig.a.b.c or a.b.cd.");
    check_put(ix, "letter", "The dimension d",
              "For every d in (d, d+1) and each i we bound d.");
    check_put(ix, "pair", "Elections in the U.S.",
              "Voters in the U.S. polled at 9 a.m. each day.");
    check_put(ix, "pronoun", "Let us learn", "This helps us read US scans, see Fig.U.S.");
    check_put(ix, "undotted", "Surveys", "Polls of the U.S");
    check_put(ix, "author", "Alpine meadows", nullptr, {"j.r.r. tolkien", "J.R. Smith"});
}

} // namespace

int main(int argc, char **argv)
{
    const std::string work = check_work_arg(argc, argv, "test_dotted");
    if (work.empty())
        return 2;
    const std::string path = work + "/ix";

    pdx_index *ix = check_create(path);
    put_all(ix);
    pdx_close(ix);
    check(Xapian::Database(path).get_metadata(LAYOUT_META_DOTTED) ==
              LAYOUT_DOTTED_LETTERS,
          "a new index is stamped");
    for (const char *t : {"iid", "Siid", "wrt", "aka", "noniid", "Snoniid", "cd"})
        check(check_has_term(path, t), std::string("a new index holds ") + t);
    for (const char *t : {"eg", "ie", "abc", "figabc", "ab", "Ajrr", "jrr"})
        check(!check_has_term(path, t), std::string("a new index does not hold ") + t);
    /* "a.b.cd" is no run of letters, but an abbreviation of parts of one
     * or two letters, one of two ("Ph.D."): its parts joined, as the
     * query parser reads it */
    check(check_has_term(path, "abcd"), "a new index holds a.b.cd's parts joined");
    check(Xapian::Database(path).get_metadata(LAYOUT_META_DOTTED_PAIRS) ==
              LAYOUT_DOTTED_PAIRS_KEPT,
          "a new index is stamped for pairs");
    for (const char *t : {"u.s", "Su.s", "e.g", "i.e", "a.m", "Aj", "Ar"})
        check(check_has_term(path, t), std::string("a new index holds ") + t);
    for (const char *t : {"Aj.r", "j.r", "u.", "am"})
        check(!check_has_term(path, t), std::string("a new index does not hold ") + t);

    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    const std::set<std::string> iid = {"lower", "upper", "start"};
    for (const char *q : {"i.i.d.", "i.i.d", "I.I.D.", "IID", "iid", "I.i.d.", "title:i.i.d."}) {
        const std::set<std::string> got = check_ids(ix, q);
        const std::set<std::string> want =
            strncmp(q, "title:", 6) ? iid : std::set<std::string>{"lower", "upper"};
        check(got == want, std::string(q) + " finds the works that write it: " +
                               check_show(got));
    }
    std::set<std::string> got = check_ids(ix, "\"i.i.d. samples\"");
    check(got == std::set<std::string>{"start"},
          "\"i.i.d. samples\" is a phrase of iid: " + check_show(got));
    got = check_ids(ix, "non-i.i.d.");
    check(got == std::set<std::string>{"lower"}, "non-i.i.d. finds lower: " + check_show(got));
    got = check_ids(ix, "w.r.t.");
    check(got == std::set<std::string>{"lower"}, "w.r.t. finds lower: " + check_show(got));
    got = check_ids(ix, "a.k.a.");
    check(got == std::set<std::string>{"start"}, "a.k.a. finds start: " + check_show(got));
    got = check_ids(ix, "e.g.");
    check(got == std::set<std::string>{"upper"}, "e.g. finds upper: " + check_show(got));
    for (const char *q : {"U.S.", "u.s.", "U.S", "\"U.S.\"", "\"the U.S.\""}) {
        got = check_ids(ix, q);
        check(got == std::set<std::string>{"pair", "undotted"},
              std::string(q) + " finds pair and undotted: " + check_show(got));
    }
    got = check_ids(ix, "title:U.S.");
    check(got == std::set<std::string>{"pair"}, "title:U.S. finds pair: " + check_show(got));
    got = check_ids(ix, "+U.S. +voters");
    check(got == std::set<std::string>{"pair"}, "+U.S. +voters finds pair: " + check_show(got));
    for (const char *q : {"US", "us"}) {
        got = check_ids(ix, q);
        check(got == std::set<std::string>{"pronoun"}, std::string(q) + " finds pronoun: " +
                                                           check_show(got));
    }
    got = check_ids(ix, "a.m.");
    check(got == std::set<std::string>{"pair"}, "a.m. finds pair: " + check_show(got));
    check(check_note(ix, "U.S.").empty(), "no note in a new index: " + check_note(ix, "U.S."));
    check(check_note(ix, "i.i.d.").empty(), "no note in a new index: " + check_note(ix, "i.i.d."));
    std::string m = check_marked(ix, "i.i.d.");
    check(m == "[I.I.D.]" || m == "[i.i.d.]" || m == "[I.i.d.]",
          "the snippet marks the run whole: " + m);
    m = check_marked(ix, "w.r.t.");
    check(m == "[w.r.t.]", "the snippet marks w.r.t. whole: " + m);
    m = check_marked(ix, "U.S. voters");
    check(m == "[Voters] [U.S.]", "the snippet marks U.S. whole: " + m);
    m = check_marked(ix, "a.m.");
    check(m == "[a.m.]", "the snippet marks a.m. whole: " + m);
    pdx_close(ix);

    /* The same index as an older paperdex left it: no stamp.  Its next
     * work is written by the older rule, and "i.i.d." is its letters
     * there, with a note. */
    check_unstamp(path, LAYOUT_META_DOTTED);
    check_unstamp(path, LAYOUT_META_DOTTED_PAIRS);
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_WRITE) == 0, "open to write");
    check_put(ix, "older", "Sums of variables", "The r.h.s. of the bound in the U.S.");
    pdx_close(ix);
    check(Xapian::Database(path).get_metadata(LAYOUT_META_DOTTED).empty(),
          "a writer leaves an older index unstamped");
    check(!check_has_term(path, "rhs"), "an older index's writer joins nothing");
    check(Xapian::Database(path).get_metadata(LAYOUT_META_DOTTED_PAIRS).empty(),
          "a writer leaves an older index unstamped for pairs");
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    got = check_ids(ix, "i.i.d.");
    check(got.count("letter"), "i.i.d. is its letters in an older index: " + check_show(got));
    const std::string n = check_note(ix, "i.i.d.");
    check(n.find("i.i.d. was searched as its letters") != std::string::npos,
          "an older index says that i.i.d. was searched as its letters: " + n);
    got = check_ids(ix, "U.S.");
    check(got == std::set<std::string>{"pronoun", "older"},
          "U.S. is the word us in an older index: " + check_show(got));
    const std::string nu = check_note(ix, "U.S.");
    check(nu.find("U.S. was searched as the word us") != std::string::npos,
          "an older index says that U.S. was searched as the word us: " + nu);
    const std::string ne = check_note(ix, "e.g.");
    check(ne.find("e.g. was searched as its letters") != std::string::npos,
          "an older index says that e.g. was searched as its letters: " + ne);
    pdx_close(ix);
    return check_finish(work);
}
