/*
 * test_compounds.cc -- hyphenated compounds joined into one word by the
 * index's own rule (common/layout.h, LAYOUT_META_COMPOUNDS;
 * TextTerms::compounds in indexer/text_terms.cc).
 *
 * What it checks, through the public API and through Xapian itself:
 *  - a new index is stamped paperdex.compounds, and a compound of two
 *    words of the title or the abstract is also its parts joined
 *    ("pre-trained": pretrain; "COVID-19", "3-D", "U-Net"), and so are a
 *    name and its version before a third part ("Phi-3-mini": phi3;
 *    "GPT-4-turbo": gpt4; "Qwen-2b-chat": qwen2b), but other runs of more parts
 *    ("state-of-the-art", "k-means-based"), numbers ("1-2", "0.65-0.70",
 *    "1.4-1.8x"), a hyphen with a space after it ("pre- and
 *    post-training") and an author's name ("Jean-Pierre") are not;
 *  - so the closed word finds the works that write the compound, alone,
 *    in the title, and in a quoted phrase, where the joined word stands
 *    at its last part's position ("pretrained encoders");
 *  - the joined words take no room in a work's length (BM25's), which is
 *    what it is in an index that joins nothing, and their stems are
 *    marked (LAYOUT_JOINED_KEY) for feedback to leave out;
 *  - a compound of three parts or more that stop words leave one word
 *    of ("out-of-distribution", "up-to-date", "off-the-shelf") is joined
 *    too, in an index stamped paperdex.stop_compounds, and the closed
 *    word is what a query of the compound finds; one keeping two words
 *    ("end-to-end") is not;
 *  - a compound of stop words alone ("all-to-all", "on-off", "to-do")
 *    is joined too, at a position of its own, in an index stamped
 *    paperdex.stop_runs: the compound finds the works that write it,
 *    alone, in the title and in a quoted phrase with the next word, and
 *    the joined word counts in the work's length as a word of its own;
 *  - a pair joined by a slash with a stop word in it ("A/B", "I/O",
 *    "and/or") is one word, its parts joined by an underscore, in an
 *    index stamped paperdex.slash_pairs: the pair finds the works that
 *    write it, not those holding its other word alone (the letter b),
 *    alone, in the title and in a quoted phrase; a run of slashes
 *    ("c/a/b") and a pair without a stop word ("TCP/IP") are not joined;
 *    the pair of stop words alone counts in the length as a word;
 *  - an index without the stamps (as an older paperdex wrote it) keeps
 *    the rules it was built with: its writer joins nothing, and a query
 *    reads such a compound as its one word, and one of stop words alone
 *    as nothing.
 *
 * usage: test_compounds WORK_DIR
 */
#include <xapian.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <set>
#include <string>
#include <utility>

#include "layout.h"
#include "api_checks.hh"

namespace {

/* The work "a", its compounds in the title and the abstract. */
void put_a(pdx_index *ix)
{
    pdx_work w;
    pdx_work_init(&w, PDX_WORK_VERSION);
    const char *const au[] = {"Jean-Pierre Dupont"};
    w.id = "a";
    w.title = "Pre-trained encoders for text";
    w.abstract = "State-of-the-art COVID-19 models, a 3-D U-Net, and pages 1-2; "
                 "0.65-0.70 of 1.4-1.8x.";
    w.authors = au;
    w.n_authors = 1;
    w.year = 2020;
    check(pdx_put(ix, &w) == 0, std::string("put a: ") + pdx_errmsg(ix));
    check(pdx_commit(ix) == 0, std::string("commit: ") + pdx_errmsg(ix));
}

/* The length BM25 reads of the work id in the index at path. */
Xapian::termcount length_of(const std::string &path, const char *id)
{
    Xapian::Database db(path);
    Xapian::PostingIterator p = db.postlist_begin(std::string(LAYOUT_P_ID) + id);
    return p == db.postlist_end(std::string(LAYOUT_P_ID) + id) ? 0 : db.get_doclength(*p);
}

/* The work "g", compounds of stop words alone in the title and the
 * abstract. */
void put_g(pdx_index *ix)
{
    check_put(ix, "g", "All-to-all collectives", "On-off keying and to-do lists.");
}

/* The works "s" and "t": pairs joined by slashes, and the letters
 * alone. */
void put_s(pdx_index *ix)
{
    check_put(ix, "s", "A/B testing at scale", "I/O costs and/or latency of TCP/IP.");
}
void put_t(pdx_index *ix)
{
    check_put(ix, "t", "The letter b", "Let b and o be constants, ab initio, c/a/b runs ofthe.");
}

} // namespace

int main(int argc, char **argv)
{
    const std::string work = check_work_arg(argc, argv, "test_compounds");
    if (work.empty())
        return 2;
    const std::string path = work + "/ix";

    pdx_index *ix = check_create(path);
    put_a(ix);
    check_put(ix, "b", "Pretrained encoders for speech", "Pre- and post\xe2\x80\x90training.");
    check_put(ix, "c", "Training before the test",
              "A pre-test and a trained model, Phi-3-mini, GPT-4-turbo, Qwen-2b-chat, "
              "k-means-based.");
    check_put(ix, "e", "Out-of-distribution detection",
              "Up-to-date and off-the-shelf models, all-to-all and end-to-end.");
    check_put(ix, "f", "A distribution of models", "Out of distribution, up to a date, "
                                                   "on the shelf.");
    put_g(ix);
    /* the words of g apart, and all-to-all's neighbours side by side */
    check_put(ix, "h", "All collectives to all", "On and off, keying; to do lists.");
    put_s(ix);
    put_t(ix);
    pdx_close(ix);
    check(Xapian::Database(path).get_metadata(LAYOUT_META_SLASH_PAIRS) ==
              LAYOUT_SLASH_PAIRS_JOINED,
          "a new index is stamped for pairs joined by a slash");
    for (const char *t : {"a_b", "Sa_b", "i_o", "and_or"})
        check(check_has_term(path, t), std::string("a new index holds ") + t);
    check(!check_has_term(path, "tcp_ip"), "a pair without a stop word is not joined");
    check(Xapian::Database(path).get_metadata(LAYOUT_META_COMPOUNDS) ==
              LAYOUT_COMPOUNDS_JOINED,
          "a new index is stamped");
    check(Xapian::Database(path).get_metadata(LAYOUT_META_STOP_COMPOUNDS) ==
              LAYOUT_STOP_COMPOUNDS_JOINED,
          "a new index is stamped for compounds of stop words");
    check(Xapian::Database(path).get_metadata(LAYOUT_META_STOP_RUNS) ==
              LAYOUT_STOP_RUNS_JOINED,
          "a new index is stamped for compounds of stop words alone");
    /* of stop words alone: joined, in the title and the abstract */
    for (const char *t : {"alltoal", "Salltoal", "onoff", "todo"})
        check(check_has_term(path, t), std::string("a new index holds ") + t);
    /* three parts or more that stop words leave one word of: joined */
    for (const char *t : {"Soutofdistribut", "outofdistribut", "uptod", "offtheshelf"})
        check(check_has_term(path, t), std::string("a new index holds ") + t);
    {
        /* none of two words kept */
        Xapian::Database db(path);
        for (const char *p : {"endtoend", "outofdistributiondetect"})
            check(db.allterms_begin(p) == db.allterms_end(p),
                  std::string("a new index holds no term beginning ") + p);
    }
    for (const char *t : {"pretrain", "Spretrain", "covid19", "3d", "unet",
                          "posttrain", "pretest", "phi3", "gpt4", "qwen2b"})
        check(check_has_term(path, t), std::string("a new index holds ") + t);
    for (const char *t : {"12", "preand", "Ajeanpierr", "Ajeanpierre", "stateoftheart",
                          "ofthe", "0.650.70", "1.41.8x", "3mini", "4turbo", "2bchat", "kmean",
                          "meansbas"})
        check(!check_has_term(path, t), std::string("a new index does not hold ") + t);
    {
        /* the stems joined, marked for feedback to leave out */
        Xapian::Database db(path);
        for (const char *t : {"pretrain", "covid19", "unet", "posttrain", "outofdistribut"})
            check(db.get_metadata(std::string(LAYOUT_JOINED_KEY) + t) == "1",
                  std::string("marked joined: ") + t);
        for (const char *t : {"encod", "train", "stateoftheart"})
            check(db.get_metadata(std::string(LAYOUT_JOINED_KEY) + t).empty(),
                  std::string("not marked joined: ") + t);
    }
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    const std::set<std::string> ab = {"a", "b"};
    for (const char *q : {"pretrained", "pre-trained", "Pretrained", "title:pretrained",
                          "\"pretrained encoders\""}) {
        const std::set<std::string> got = check_ids(ix, q);
        check(got == ab, std::string(q) + " finds a and b: " + check_show(got));
    }
    for (const char *q : {"covid19", "UNet", "3d"}) {
        const std::set<std::string> got = check_ids(ix, q);
        check(got == std::set<std::string>{"a"}, std::string(q) + " finds a: " + check_show(got));
    }
    for (const char *q : {"pretest", "phi3", "gpt4", "qwen2b"}) {
        const std::set<std::string> got = check_ids(ix, q);
        check(got == std::set<std::string>{"c"}, std::string(q) + " finds c: " + check_show(got));
    }
    for (const char *q : {"out-of-distribution", "\"out-of-distribution detection\"",
                          "title:out-of-distribution", "up-to-date", "off-the-shelf"}) {
        const std::set<std::string> got = check_ids(ix, q);
        check(got == std::set<std::string>{"e"}, std::string(q) + " finds e: " + check_show(got));
    }
    for (const char *q : {"all-to-all", "title:all-to-all", "\"all-to-all collectives\"",
                          "\"All-to-all\"", "alltoall"}) {
        const std::set<std::string> got = check_ids(ix, q);
        const std::set<std::string> want =
            !strncmp(q, "title:", 6) || strchr(q, ' ') ? std::set<std::string>{"g"}
                                                      : std::set<std::string>{"e", "g"};
        check(got == want, std::string(q) + " finds " + check_show(want) + ": " + check_show(got));
    }
    for (const char *q : {"on-off", "\"on-off keying\"", "to-do", "\"to-do lists\""}) {
        const std::set<std::string> got = check_ids(ix, q);
        check(got == std::set<std::string>{"g"}, std::string(q) + " finds g: " + check_show(got));
    }
    /* the joined word stands between its neighbours, which are then
     * not side by side: "keying and to-do lists" is not "keying lists",
     * where h's "keying; to do lists" (stop words, which take no
     * position) is */
    {
        const std::set<std::string> got = check_ids(ix, "\"keying lists\"");
        check(got == std::set<std::string>{"h"}, "\"keying lists\" finds h: " + check_show(got));
    }
    /* a pair joined by a slash finds the works that write it, not every
     * work holding its other word (the letter b, o) */
    for (const char *q : {"A/B", "title:A/B", "\"A/B testing\"", "I/O", "\"I/O costs\"",
                          "and/or", "a_b"}) {
        const std::set<std::string> got = check_ids(ix, q);
        check(got == std::set<std::string>{"s"}, std::string(q) + " finds s: " + check_show(got));
    }
    {
        const std::set<std::string> got = check_ids(ix, "b");
        check(got == (std::set<std::string>{"s", "t"}), "b finds s and t: " + check_show(got));
    }
    /* stop words written apart: the note names the joined forms some
     * work writes, and a quoted phrase of them beside other words is
     * said to be left out */
    for (const auto &qn : {std::make_pair("\"on off\"", "(on-off finds the works that write it so)"),
                           std::make_pair("and or", "(and/or finds the works that write it so)"),
                           std::make_pair("\"all to all\" collectives",
                                          "\"all to all\" was left out: its words (all, to) are "
                                          "stop words, which are not indexed (all-to-all finds")}) {
        const std::string note = check_note(ix, qn.first);
        check(note.find(qn.second) != std::string::npos,
              std::string(qn.first) + "'s note says " + qn.second + ": " + note);
    }
    {
        /* one kept word: the pair with a slash is named, not ab (t's "ab
         * initio"), which no work writes as a-b */
        const std::string note = check_note(ix, "\"a b\"");
        check(note.find("(a/b finds the works that write it so)") != std::string::npos &&
                  note.find("a-b") == std::string::npos,
              "\"a b\" names a/b alone: " + note);
    }
    {
        /* held closed ("ofthe", t's lost space), written so by no work:
         * no hint */
        check(check_ids(ix, "ofthe") == std::set<std::string>{"t"}, "ofthe is held");
        const std::string note = check_note(ix, "\"of the\"");
        check(note.find("the query is only stop words") != std::string::npos &&
                  note.find("finds the works") == std::string::npos,
              "\"of the\" hints nothing: " + note);
    }
    std::set<std::string> got;
    pdx_close(ix);

    /* The joined words take no room in the work's length: "a" is as
     * long as in an index that joins nothing. */
    const std::string plain = work + "/plain";
    check(pdx_open(&ix, plain.c_str(), PDX_OPEN_WRITE | PDX_OPEN_CREATE) == 0,
          "create plain");
    check_put(ix, "z", "Filler");
    pdx_close(ix);
    check_unstamp(plain, LAYOUT_META_COMPOUNDS);
    check(pdx_open(&ix, plain.c_str(), PDX_OPEN_WRITE) == 0, "open plain");
    put_a(ix);
    put_g(ix);
    put_s(ix);
    pdx_close(ix);
    check(!check_has_term(plain, "pretrain"), "the plain index joins nothing");
    check(!check_has_term(plain, "a_b"), "the plain index joins no slashed pairs");
    /* a pair beside its indexed part takes no room; one of stop words
     * alone ("and/or", in the abstract) counts as a word, 2 */
    const Xapian::termcount s_joined = length_of(path, "s"), s_plain = length_of(plain, "s");
    check(s_plain > 0 && s_joined == s_plain + 2,
          "s's length: " + std::to_string(s_joined) + " joined, " + std::to_string(s_plain) +
              " plain");
    const Xapian::termcount joined_len = length_of(path, "a"), plain_len = length_of(plain, "a");
    check(joined_len > 0 && joined_len == plain_len,
          "a's length: " + std::to_string(joined_len) + " joined, " +
              std::to_string(plain_len) + " plain");
    check(!check_has_term(plain, "onoff"), "the plain index joins no stop words");
    const Xapian::termcount g_joined = length_of(path, "g"), g_plain = length_of(plain, "g");
    /* but a compound of stop words alone is a word where nothing was:
     * it counts as one, in the title 1 + TITLE_WDF (its S term and the
     * default field's), in the abstract 2 (its wdf and the pad's) */
    check(g_plain > 0 && g_joined == g_plain + (1 + LAYOUT_TITLE_WDF) + 2 * 2,
          "g's length: " + std::to_string(g_joined) + " joined, " + std::to_string(g_plain) +
              " plain");

    /* The same index as an older paperdex left it: no stamp.  Its next
     * work is written by the older rule. */
    check_unstamp(path, LAYOUT_META_COMPOUNDS);
    check_unstamp(path, LAYOUT_META_STOP_COMPOUNDS);
    check_unstamp(path, LAYOUT_META_STOP_RUNS);
    check_unstamp(path, LAYOUT_META_SLASH_PAIRS);
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_WRITE) == 0, "open to write");
    check_put(ix, "d", "Multi-task heads", "Out-of-the-box, in-out, yes/no.");
    pdx_close(ix);
    check(!check_has_term(path, "yes_no"), "an older index's writer joins no slashed pairs");
    check(!check_has_term(path, "outofthebox"), "an older index's writer joins no stop words");
    check(!check_has_term(path, "inout"), "nor stop words alone");
    check(Xapian::Database(path).get_metadata(LAYOUT_META_COMPOUNDS).empty(),
          "a writer leaves an older index unstamped");
    check(!check_has_term(path, "multitask"), "an older index's writer joins nothing");
    check(Xapian::Database(path).get_metadata(std::string(LAYOUT_JOINED_KEY) + "multitask").empty(),
          "and marks nothing");
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open");
    got = check_ids(ix, "multi-task");
    check(got == std::set<std::string>{"d"}, "multi-task still finds d: " + check_show(got));
    /* and reads such a compound as its one word */
    got = check_ids(ix, "out-of-distribution");
    check(got == (std::set<std::string>{"e", "f"}),
          "out-of-distribution in an older index is distribution: " + check_show(got));
    /* and one of stop words alone as nothing, as it was built */
    got = check_ids(ix, "on-off");
    check(got.empty(), "on-off in an older index is nothing: " + check_show(got));
    /* and a slashed pair as its other word, as it was built */
    got = check_ids(ix, "A/B");
    check(got == (std::set<std::string>{"s", "t"}), "A/B in an older index is b: " + check_show(got));
    pdx_close(ix);
    return check_finish(work);
}
