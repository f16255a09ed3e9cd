/*
 * test_stop_words.cc -- the words a new index leaves out
 * (common/stopwords.h; common/layout.h, LAYOUT_META_STOP_WORDS).
 *
 * What it checks, through the public API and through Xapian itself:
 *  - a new index is stamped paperdex.stop_words ("titles") and indexes
 *    the 14 words of Snowball's list that titles mean ("more", "few",
 *    "under"), so that "Less is More" ranks the work of that title first,
 *    finds it quoted and not a work that says less alone, and "more" or
 *    "under" alone is searched (no note that it is only stop words);
 *    a compound with one ("Few-Shot") is its two words;
 *  - the other stop words ("the", "is") are still not indexed, and a
 *    query of them alone still says so;
 *  - an index without the stamp (as an older paperdex wrote it) keeps
 *    Snowball's whole list: its writer indexes no "more", and a query
 *    reads "more" as a stop word, with the note.
 *
 * usage: test_stop_words WORK_DIR
 */
#include <xapian.h>

#include <set>
#include <string>

#include "layout.h"
#include "api_checks.hh"

namespace {

/* The works: "m" of the title, "n" saying less alone, "f" with few and
 * under, "p" of stop words and a plain word. */
void put_works(pdx_index *ix)
{
    check_put(ix, "m", "Less is More: Sparse Probes", "Sparse probes recover the signal.");
    check_put(ix, "n", "Less Noise in Sparse Probes",
              "Sparse probes with less noise; less is needed.");
    check_put(ix, "f", "Few-Shot Learning under Label Noise", "Learning from labels.");
    check_put(ix, "p", "A Plain Work", "The work is plain.");
}

} // namespace

int main(int argc, char **argv)
{
    const std::string work = check_work_arg(argc, argv, "test_stop_words");
    if (work.empty())
        return 2;
    const std::string path = work + "/ix";

    pdx_index *ix = check_create(path);
    put_works(ix);
    pdx_close(ix);
    check(Xapian::Database(path).get_metadata(LAYOUT_META_STOP_WORDS) ==
              LAYOUT_STOP_WORDS_TITLES,
          "a new index is stamped with its stop list");
    check(check_has_term(path, "more") && check_has_term(path, "few") &&
              check_has_term(path, "under"),
          "a new index holds more, few and under");
    check(!check_has_term(path, "the") && !check_has_term(path, "is"),
          "and still no the or is");

    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    std::set<std::string> got = check_ids(ix, "more");
    check(got == std::set<std::string>{"m"}, "more finds m: " + check_show(got));
    check(check_note(ix, "more").empty(), "more alone has no note: " + check_note(ix, "more"));
    check(check_first(ix, "Less is More") == "m",
          "Less is More ranks m first: " + check_first(ix, "Less is More"));
    got = check_ids(ix, "\"less is more\"");
    check(got == std::set<std::string>{"m"}, "\"less is more\" finds m alone: " + check_show(got));
    got = check_ids(ix, "under");
    check(got == std::set<std::string>{"f"}, "under finds f: " + check_show(got));
    got = check_ids(ix, "\"few-shot\"");
    check(got == std::set<std::string>{"f"}, "\"few-shot\" finds f: " + check_show(got));
    check(check_note(ix, "the is").find("only stop words") != std::string::npos,
          "a query of the other stop words says so: " + check_note(ix, "the is"));
    pdx_close(ix);

    /* An index as an older paperdex left it: its first work written, the
     * stamp then gone, the rest written by Snowball's whole list. */
    const std::string old = work + "/old";
    ix = check_create(old);
    check_put(ix, "z", "Filler");
    pdx_close(ix);
    check_unstamp(old, LAYOUT_META_STOP_WORDS);
    check(pdx_open(&ix, old.c_str(), PDX_OPEN_WRITE) == 0, "open the older index to write");
    put_works(ix);
    pdx_close(ix);
    check(Xapian::Database(old).get_metadata(LAYOUT_META_STOP_WORDS).empty(),
          "a writer leaves an older index unstamped");
    check(!check_has_term(old, "more") && !check_has_term(old, "under"),
          "an older index's writer indexes no more or under");
    check(pdx_open(&ix, old.c_str(), PDX_OPEN_READ) == 0, "open the older index");
    check(check_note(ix, "more").find("only stop words") != std::string::npos,
          "an older index reads more as a stop word: " + check_note(ix, "more"));
    got = check_ids(ix, "\"less is more\"");
    check(got == (std::set<std::string>{"m", "n"}),
          "\"less is more\" in an older index is less: " + check_show(got));
    pdx_close(ix);
    return check_finish(work);
}
