/*
 * test_bm25.cc -- BM25 over the works' lengths in an array
 * (searcher/bm25.cc) answers exactly as Xapian's BM25Weight does.
 *
 * What it checks, on 3,000 invented works whose words follow a Zipf law
 * (a few in most works, most in few) and whose abstracts run from 10 to
 * 400 words, so that lengths weigh:
 *  - Xapian's own queries of fourteen shapes (OR of words, AND,
 *    AND_NOT, FILTER, AND_MAYBE, XOR, a scaled word, a word of wqf 2, a
 *    synonym, a repeated word, ORs of up to 26 words as a pasted title
 *    gives, ORs nested, ORs under a filter or beside AND_MAYBE, an OR of
 *    words and an AND), each run natively and through with_lengths(), at
 *    three page sizes and check_at_least values: the same docids, the
 *    same weights to the bit, the same estimate and bounds.  Most queries
 *    must have been rewritten (else the comparison says nothing), the ORs
 *    of words into one BM25OrSource each, and a leaf of wqf 2 must not
 *    be.  Each again with no array read (an empty one): only the ORs of
 *    words rewritten, their lengths from the length list.
 *  - paperdex's queries through a handle (words, phrases, fields,
 *    abstract:, wildcards, +/-, AND, NEAR, year and author filters, exact
 *    totals, explain), with test_doc_lengths("xapian"), ("array") and none (the
 *    rent-or-buy rule, three passes): the same counts, ids, scores (17
 *    digits) and explanations -- under the default rank, whose proximity
 *    bonus rides in the OR of words' source with an array and is a
 *    ProximitySource beside the query without one (searcher/proximity.cc),
 *    and under --rank bm25.
 *  - a passage's URL and e-mail address are read as words (url_words);
 *  - a long query's ranking ends at a time budget of 1 ms, with a
 *    page, a note and a lower bound for the total, and runs to its end
 *    without one or with 30 s, with a wildcard or as an OR of words;
 *    an OR of words' source ends at a stop already passed by itself
 *    (ranking_stops);
 *  - a long query keeps its MAX_PAIRS heaviest pairs and their words
 *    alone (long_query_pairs), and a pasted passage of 70 words scores
 *    alike both ways;
 *  - the bound of a pair in a work, from its words' wdfs, which lets
 *    the OR's source skip reading positions, is never below the pair's
 *    score there (bounds_hold).
 *  - an OR of words that finds its page first (choose()) answers as the
 *    match weighing each work as it comes and as Xapian's own OR with
 *    the bonus beside it, on pages of 2 to 12 words and of works' titles
 *    pasted whole, filtered or not (page_first); and every work its
 *    bounds pass over, weighed in full, is below the weight it was
 *    passed over for (test_prune_audit).
 *  - an array read before a commit that changed works' lengths is not
 *    used after it: a handle that read it answers as a fresh one.
 *  - handles of one process share the array one of them read, at the
 *    same revision only and while a handle holds it.
 *
 * usage: test_bm25 WORK_DIR
 */
#include <xapian.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "check.h"
#include "layout.h"
#include "paperdex.h"
#include "shim_db.hh"
#include "../searcher/bm25.hh"
#include "../searcher/proximity.hh"
#include "../searcher/read_side.hh"
extern "C" {
#include "handle.h" /* struct pdx_index: a handle's shim_db */
}

namespace {

/* Word k of the vocabulary: two or three syllables, distinct. */
std::string vocab(unsigned k)
{
    static const char *const syl[] = {"ka", "lo", "mir", "sen", "tu",
                                      "vel", "dra", "quo", "phi", "zan"};
    std::string w = syl[k % 10];
    w += syl[(k / 10) % 10];
    if (k >= 100)
        w += syl[(k / 100) % 10];
    return w;
}

/* Works "u<k>", from .. from+n: words drawn by a Zipf law over 600. */
void put_works(pdx_index *ix, unsigned from, unsigned n, std::mt19937 &rng,
               unsigned extra_words = 0)
{
    std::vector<double> cum;
    double s = 0;
    for (unsigned k = 0; k < 600; k++)
        cum.push_back(s += 1.0 / (k + 1));
    std::uniform_real_distribution<double> u(0, s);
    auto word = [&] {
        return vocab(static_cast<unsigned>(
            std::lower_bound(cum.begin(), cum.end(), u(rng)) - cum.begin()));
    };
    auto text = [&](unsigned words) {
        std::string t;
        for (unsigned i = 0; i < words; i++)
            t += (i ? " " : "") + word();
        return t;
    };
    for (unsigned k = from; k < from + n; k++) {
        pdx_work w;
        pdx_work_init(&w, PDX_WORK_VERSION);
        const std::string id = "u" + std::to_string(k), title = text(3 + rng() % 8),
                          abstract = text(10 + rng() % 390 + extra_words);
        const std::string a1 = "Ana " + word(), a2 = "Bo " + word();
        const char *authors[] = {a1.c_str(), a2.c_str()};
        w.id = id.c_str();
        w.title = title.c_str();
        w.abstract = abstract.c_str();
        w.authors = authors;
        w.n_authors = 2;
        w.year = 2000 + static_cast<int>(rng() % 20);
        /* categories by k (the draws above stay the same) */
        const char *cats[] = {k % 4 == 3 ? "math.AG" : "cs.CL", "cs.LG"};
        w.categories = cats;
        w.n_categories = k % 4 == 1 ? 2 : 1;
        check(pdx_put(ix, &w) == 0, "put " + id + ": " + pdx_errmsg(ix));
    }
    check(pdx_commit(ix) == 0, std::string("commit: ") + pdx_errmsg(ix));
}

/* One MSet as text: estimate and bounds, then docid=weight (hex float:
 * every bit). */
std::string mset_text(const Xapian::MSet &ms)
{
    std::string s = std::to_string(ms.get_matches_estimated()) + " " +
                    std::to_string(ms.get_matches_lower_bound()) + " " +
                    std::to_string(ms.get_matches_upper_bound());
    for (Xapian::MSetIterator i = ms.begin(); i != ms.end(); ++i) {
        char w[64];
        snprintf(w, sizeof w, "%a", i.get_weight());
        s += " " + std::to_string(*i) + "=" + w;
    }
    return s;
}

/* Xapian's queries, natively and through with_lengths(). */
void xapian_level(const std::string &path)
{
    Xapian::Database db(path);
    const auto lens = pdxshim::read_doc_lengths(db);
    /* The default field's words, by frequency: common and rare ones. */
    std::vector<std::string> words;
    for (Xapian::TermIterator t = db.allterms_begin(); t != db.allterms_end(); ++t)
        if (!(*t).empty() && islower(static_cast<unsigned char>((*t)[0])))
            words.push_back(*t);
    check(words.size() > 400, "the index holds " + std::to_string(words.size()) +
                                  " words");
    std::mt19937 rng(11);
    auto w = [&] { return Xapian::Query(words[rng() % words.size()]); };
    /* Half the picks from the 30 commonest: their lists are long. */
    std::sort(words.begin(), words.end(), [&](const std::string &a, const std::string &b) {
        return db.get_termfreq(a) > db.get_termfreq(b);
    });
    auto common = [&] { return Xapian::Query(words[rng() % 30]); };
    typedef Xapian::Query Q;
    unsigned rewritten = 0, total = 0, differ = 0;
    bool wqf2_kept = true;
    Xapian::Enquire enq(db);
    enq.set_weighting_scheme(Xapian::BM25Weight(1.2, 0, 1, 0.6, 0.5));
    enq.set_sort_by_relevance_then_value(pdxshim::SLOT_ID, false);
    unsigned as_or = 0, no_array_or = 0, no_array_single = 0;
    const auto no_lens = std::make_shared<const pdxshim::DocLengths>();
    for (int i = 0; i < 560; i++) {
        Q q;
        switch (i % 14) {
        case 0: {
            std::vector<Q> v;
            for (int k = 0, n = 1 + rng() % 5; k < n; k++)
                v.push_back(k % 2 ? w() : common());
            q = Q(Q::OP_OR, v.begin(), v.end());
            break;
        }
        case 1: q = Q(Q::OP_AND, common(), w()); break;
        case 2: q = Q(Q::OP_AND_NOT, common(), w()); break;
        case 3: q = Q(Q::OP_FILTER, Q(Q::OP_OR, common(), w()), common()); break;
        case 4: q = Q(Q::OP_AND_MAYBE, common(), Q(Q::OP_OR, w(), common())); break;
        case 5: q = Q(Q::OP_OR, common(), Q(Q::OP_SCALE_WEIGHT, w(), 2.5)); break;
        case 6: {
            const std::string t = words[rng() % 30];
            q = Q(Q::OP_OR, Q(t, 2, 1), common());
            break;
        }
        case 7: q = Q(Q::OP_OR, Q(Q::OP_SYNONYM, common(), w()), common()); break;
        case 8: {
            Q a = common();
            std::vector<Q> v{a, a, w()};
            q = Q(Q::OP_OR, v.begin(), v.end());
            break;
        }
        case 9: q = Q(Q::OP_XOR, common(), w()); break;
        case 10: { /* a pasted title: up to 25 words, one not indexed */
            std::vector<Q> v;
            for (int k = 0, n = 2 + rng() % 24; k < n; k++)
                v.push_back(k % 3 ? w() : common());
            if (i % 3 == 0)
                v.push_back(Q("zzznotaword"));
            q = Q(Q::OP_OR, v.begin(), v.end());
            break;
        }
        case 11: { /* ORs nested (Xapian flattens them) and repeated */
            Q a = common();
            std::vector<Q> v{Q(Q::OP_OR, a, w()), w(), Q(Q::OP_OR, common(), a)};
            q = Q(Q::OP_OR, v.begin(), v.end());
            break;
        }
        case 12: { /* an OR of words under a filter and beside AND_MAYBE */
            std::vector<Q> v;
            for (int k = 0, n = 3 + rng() % 10; k < n; k++)
                v.push_back(k % 2 ? w() : common());
            const Q o(Q::OP_OR, v.begin(), v.end());
            q = i % 2 ? Q(Q::OP_FILTER, o, common())
                      : Q(Q::OP_AND_MAYBE, common(), o);
            break;
        }
        default: { /* an OR of words and something else: words apart */
            std::vector<Q> v{common(), w(), Q(Q::OP_AND, common(), w()), common()};
            q = Q(Q::OP_OR, v.begin(), v.end());
            break;
        }
        }
        const Q r = pdxshim::with_lengths(q, lens, 1.2, 0.6);
        const std::string rd = r.get_description();
        total++;
        rewritten += rd != q.get_description() &&
                     (rd.find("BM25Source") != std::string::npos ||
                      rd.find("BM25OrSource") != std::string::npos);
        as_or += rd.find("BM25OrSource") != std::string::npos;
        if (i % 14 == 6 && rd.find("#2") == std::string::npos)
            wqf2_kept = false;
        /* Before a handle reads the array: ORs of words only, their
         * lengths from the length list. */
        const Q r0 = pdxshim::with_lengths(q, no_lens, 1.2, 0.6);
        const std::string r0d = r0.get_description();
        no_array_or += r0d.find("BM25OrSource") != std::string::npos;
        no_array_single += r0d.find("BM25Source") != std::string::npos;
        const Xapian::doccount pages[][2] = {{10, 10}, {50, 0}, {3, db.get_doccount()}};
        for (const auto &p : pages) {
            enq.set_query(q);
            const std::string native = mset_text(enq.get_mset(0, p[0], p[1]));
            enq.set_query(r);
            const std::string mine = mset_text(enq.get_mset(0, p[0], p[1]));
            if (native != mine && differ++ < 3)
                fprintf(stderr, "%s\n native: %s\n arrays: %s\n",
                        q.get_description().c_str(), native.c_str(), mine.c_str());
            enq.set_query(r0);
            const std::string list = mset_text(enq.get_mset(0, p[0], p[1]));
            if (native != list && differ++ < 3)
                fprintf(stderr, "%s\n native: %s\n no array: %s\n",
                        q.get_description().c_str(), native.c_str(), list.c_str());
        }
    }
    CHECK_INT(differ, 0);
    check(rewritten >= total * 8 / 10,
          std::to_string(rewritten) + " of " + std::to_string(total) +
              " queries rewritten");
    check(wqf2_kept, "a leaf of wqf 2 stays Xapian's");
    /* ORs of words (shapes 0, 4, 10, 11, 12) as one source each. */
    check(as_or >= total * 3 / 14,
          std::to_string(as_or) + " queries with an OR of words as one source");
    CHECK_INT(no_array_or, as_or);
    CHECK_INT(no_array_single, 0);
}

/* One search through ix as a line of text: its total and bounds, then
 * each hit's id=score (every bit) and explanation, or the error. */
std::string answer_line(pdx_index *ix, const pdx_query &q,
                        const std::string &text)
{
    pdx_results *r = nullptr;
    if (pdx_search(&r, ix, &q) != 0)
        return text + ": ERROR " + pdx_errmsg(ix);
    std::string a = text + ": " + std::to_string(pdx_results_total(r)) + " " +
                    std::to_string(pdx_results_total_lower(r)) + " " +
                    std::to_string(pdx_results_total_upper(r));
    for (size_t k = 0; k < pdx_results_count(r); k++) {
        const pdx_hit *h = pdx_results_hit(r, k);
        char sc[40];
        snprintf(sc, sizeof sc, "%.17g", h->score);
        a += std::string(" ") + h->work->id + "=" + sc;
        if (h->explain)
            a += std::string(" [") + h->explain + "]";
    }
    pdx_results_free(r);
    return a;
}

/* paperdex's queries through one handle: each query's exact count or
 * estimate, and its top 20 ids, scores and explanations. */
std::vector<std::string> answers(pdx_index *ix, int rank = PDX_RANK_DEFAULT)
{
    std::vector<std::string> out;
    std::mt19937 rng(5);
    auto word = [&] { return vocab(rng() % (rng() % 2 ? 20 : 300)); };
    for (int i = 0; i < 120; i++) {
        std::string text;
        switch (i % 12) {
        case 0: text = word(); break;
        case 1: text = word() + " " + word(); break;
        case 2: text = word() + " " + word() + " " + word() + " " + word(); break;
        case 3: text = "\"" + word() + " " + word() + "\""; break;
        case 4: text = "title:" + word() + " " + word(); break;
        case 5: text = "abstract:" + word() + " " + word(); break;
        case 6: text = word().substr(0, 3) + "* " + word(); break;
        case 7: text = "+" + word() + " -" + word() + " " + word(); break;
        case 8: text = word() + " AND " + word(); break;
        case 9: text = word() + " NEAR/4 " + word(); break;
        case 10: text = "author:ana " + word(); break;
        default: /* a pasted passage: more pairs than the bonus keeps */
            for (int w = 0; w < 70; w++)
                text += (w ? " " : "") + vocab(rng() % 300);
            break;
        }
        pdx_query q;
        pdx_query_init(&q, PDX_QUERY_VERSION);
        q.text = text.c_str();
        q.rank = rank;
        q.limit = 20;
        q.exact_total = i % 3 == 0;
        q.explain = i % 4 == 0;
        q.no_suggest = 1;
        if (i % 5 == 0)
            q.year_min = 2005, q.year_max = 2014;
        const char *au[] = {"Ana"};
        if (i % 7 == 0)
            q.authors = au, q.n_authors = 1;
        out.push_back(answer_line(ix, q, text));
    }
    return out;
}

std::vector<std::string> answers_with(const std::string &path, const char *mode,
                                      int passes = 1, int rank = PDX_RANK_DEFAULT)
{
    pdxshim::test_doc_lengths(mode);
    pdx_index *ix = nullptr;
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open " + path);
    std::vector<std::string> a;
    for (int p = 0; p < passes; p++)
        a = answers(ix, rank);
    pdx_close(ix);
    pdxshim::test_doc_lengths(nullptr);
    return a;
}

unsigned differing(const std::vector<std::string> &got,
                   const std::vector<std::string> &want, const char *label)
{
    unsigned differ = 0;
    for (size_t i = 0; i < got.size() && i < want.size(); i++)
        if (got[i] != want[i] && differ++ < 3)
            fprintf(stderr, "%s: %s\nwanted: %s\n", label, got[i].c_str(),
                    want[i].c_str());
    return differ + (got.size() != want.size());
}

void handle_level(const std::string &path)
{
    const std::vector<std::string> native = answers_with(path, "xapian");
    unsigned found = 0;
    for (const std::string &a : native)
        found += a.find("=") != std::string::npos;
    check(found >= 90, std::to_string(found) + " of 120 queries found works");
    CHECK_INT(differing(answers_with(path, "array"), native, "array"), 0);
    CHECK_INT(differing(answers_with(path, nullptr, 3), native, "auto"), 0);
    /* The default rank's proximity bonus is in those answers (in the OR
     * of words' source with an array, beside the query without): flat
     * BM25 answers otherwise, and answers the same both ways too. */
    const std::vector<std::string> flat =
        answers_with(path, "xapian", 1, PDX_RANK_BM25);
    unsigned moved = 0;
    for (size_t i = 0; i < flat.size() && i < native.size(); i++)
        moved += flat[i] != native[i];
    check(moved >= 20, std::to_string(moved) + " of 120 queries ranked by "
                                                 "the bonus differently");
    CHECK_INT(differing(answers_with(path, "array", 1, PDX_RANK_BM25), flat,
                        "array, flat"),
              0);
}

/* Pages of ORs of words (the bonus's common case): text lines of each
 * page's total and bounds and its ids=scores (every bit), at several
 * offsets and sizes, some filtered by category, year or both. */
std::vector<std::string> page_answers(pdx_index *ix)
{
    std::vector<std::string> out;
    std::mt19937 rng(11);
    auto word = [&] { return vocab(rng() % (rng() % 3 ? 30 : 300)); };
    const size_t offsets[] = {0, 0, 5, 30, 0, 200};
    const size_t limits[] = {10, 1, 20, 10, 50, 10};
    for (int i = 0; i < 90; i++) {
        std::string text = word();
        const int words = i % 9 == 8 ? 12 : 2 + i % 3;
        for (int w = 1; w < words; w++)
            text += " " + word();
        pdx_query q;
        pdx_query_init(&q, PDX_QUERY_VERSION);
        q.text = text.c_str();
        q.offset = offsets[i % 6];
        q.limit = limits[i % 6];
        q.no_suggest = 1;
        const char *cat[] = {i % 7 == 2 ? "cs.LG" : "cs.CL"};
        if (i % 7 == 1 || i % 7 == 2 || i % 7 == 4)
            q.categories = cat, q.n_categories = 1;
        if (i % 7 == 3 || i % 7 == 4)
            q.year_min = 2005, q.year_max = 2014;
        if (i % 7 == 5)
            q.year_min = 2012;
        if (i % 7 == 6)
            q.year_max = i % 2 ? 2003 : 2001;
        /* a tenth of the works (two years of twenty), a sparse filter
         * the page checks before weighing (bm25.cc, GATE_SHARE), alone
         * and beside a category (an AND of the two) */
        if (i % 7 == 1 && i % 2)
            q.year_min = 2012, q.year_max = 2013;
        out.push_back(answer_line(ix, q, text));
    }
    /* works' titles pasted whole: words a work holds side by side,
     * common ones among them (the pairs' bounds prune most there) */
    for (int i = 0; i < 40; i++) {
        const std::string id = "u" + std::to_string(rng() % 3000);
        pdx_results *r = nullptr;
        check(pdx_get(&r, ix, id.c_str()) == 0 && pdx_results_count(r) == 1,
              "get " + id);
        const std::string text = pdx_results_hit(r, 0)->work->title;
        pdx_results_free(r);
        pdx_query q;
        pdx_query_init(&q, PDX_QUERY_VERSION);
        q.text = text.c_str();
        q.limit = i % 2 ? 10 : 3;
        q.no_suggest = 1;
        out.push_back(answer_line(ix, q, text));
    }
    return out;
}

/* An OR of words that finds its page before the match (bm25.cc,
 * BM25OrSource::choose()) answers as the match weighing each work as it
 * comes: the same works, scores to the bit, totals and bounds, with the
 * lengths from the array and from the length list (a handle's first
 * queries). */
void page_first(const std::string &path)
{
    auto run = [&](const char *mode, bool off) {
        pdxshim::test_doc_lengths(mode);
        pdxshim::test_page_first(off);
        pdx_index *ix = nullptr;
        check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open " + path);
        std::vector<std::string> a = page_answers(ix);
        pdx_close(ix);
        pdxshim::test_doc_lengths(nullptr);
        return a;
    };
    pdxshim::test_page_first(false);
    /* Xapian's own OR and weights, the bonus beside it (no lengths
     * array): what the OR's source, whose bounds prune, must answer */
    const std::vector<std::string> native = run("xapian", true);
    for (const char *mode : {"array", static_cast<const char *>(nullptr)}) {
        const std::string label = mode ? mode : "length list";
        const std::vector<std::string> each = run(mode, true);
        check(pdxshim::test_page_first(false) == 0,
              "no page found first when turned off");
        const std::vector<std::string> first = run(mode, false);
        unsigned long gated = 0;
        const unsigned long found = pdxshim::test_page_first(false, &gated);
        check(found >= 80, label + ": " + std::to_string(found) +
                               " of 90 queries found their page first");
        check(gated >= 8, label + ": " + std::to_string(gated) +
                              " pages checked a sparse filter first");
        unsigned hits = 0;
        for (const std::string &a : first)
            hits += a.find("=") != std::string::npos;
        check(hits >= 80, std::to_string(hits) + " of 90 pages with works");
        CHECK_INT(differing(first, each, label.c_str()), 0);
        CHECK_INT(differing(first, native, (label + ", Xapian's OR").c_str()), 0);
    }
    /* Every work the pass passed over, weighed in full, is below the
     * weight it was passed over for: found first and as the match goes */
    pdxshim::test_prune_audit(true);
    run("array", false);
    run("array", true);
    unsigned long passed = 0;
    const unsigned long missed = pdxshim::test_prune_audit(false, &passed);
    pdxshim::test_page_first(false);
    check(passed >= 10000, std::to_string(passed) + " works passed over, weighed");
    CHECK_INT(missed, 0);
}

/* A handle that read the lengths, then a commit that changes lengths
 * (works replaced by longer ones, works added): the handle answers as a
 * fresh one. */
void after_commit(const std::string &path, std::mt19937 &rng)
{
    pdxshim::test_doc_lengths("array");
    pdx_index *reader = nullptr;
    check(pdx_open(&reader, path.c_str(), PDX_OPEN_READ) == 0, "open reader");
    (void)answers(reader); /* reads the lengths */
    pdx_index *writer = nullptr;
    check(pdx_open(&writer, path.c_str(), PDX_OPEN_WRITE) == 0, "open writer");
    put_works(writer, 0, 300, rng, 300); /* u0..u299 again, longer */
    put_works(writer, 3000, 200, rng);
    pdx_close(writer);
    const std::vector<std::string> after = answers(reader);
    pdx_close(reader);
    pdxshim::test_doc_lengths(nullptr);
    CHECK_INT(differing(after, answers_with(path, "xapian"), "after a commit"), 0);
}

/* The handles of one process share the lengths one of them read: for
 * the same database at the same revision, and only while a handle holds
 * them. */
void shared_between_handles(const std::string &path, std::mt19937 &rng)
{
    std::string rare; /* a word whose postings alone never pay the rent */
    {
        Xapian::Database db(path);
        for (Xapian::TermIterator t = db.allterms_begin(); t != db.allterms_end(); ++t)
            if (islower(static_cast<unsigned char>((*t)[0])) &&
                t.get_termfreq() < db.get_doccount() / 20) {
                rare = *t;
                break;
            }
    }
    check(!rare.empty(), "a rare word in the index");
    const Xapian::Query q(rare);
    auto open = [&] {
        pdx_index *ix = nullptr;
        check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open " + path);
        return ix;
    };
    pdx_index *a = open(), *b = open();
    {
        pdxshim::LengthCache ca, cb;
        pdxshim::test_doc_lengths("array");
        const auto la = ca.get(a->db, q); /* reads them */
        pdxshim::test_doc_lengths(nullptr);
        check(la != nullptr, "test_doc_lengths(\"array\") reads the lengths");
        const auto lb = cb.get(b->db, q); /* by the rule: a rare word */
        check(lb && lb == la, "a second handle takes the first one's lengths "
                              "at its first query");
        /* A commit: a handle opened after it is at another revision. */
        pdx_index *w = nullptr;
        check(pdx_open(&w, path.c_str(), PDX_OPEN_WRITE) == 0, "open writer");
        put_works(w, 3200, 5, rng);
        pdx_close(w);
        pdx_index *c = open();
        {
            pdxshim::LengthCache cc, cc2;
            check(cc.get(c->db, q) == nullptr,
                  "a handle at a new revision does not take the old one's "
                  "lengths");
            pdxshim::test_doc_lengths("array");
            check(cc2.get(c->db, q) != nullptr, "the new revision's lengths read");
            pdxshim::test_doc_lengths(nullptr);
        }
        pdx_close(c);
    }
    pdx_close(a);
    pdx_close(b);
    /* Nobody holds the new revision's lengths now: a handle at it pays
     * its own rent. */
    pdx_index *d = open();
    {
        pdxshim::LengthCache cd;
        check(cd.get(d->db, q) == nullptr,
              "lengths no handle holds are not kept");
    }
    pdx_close(d);
}

/* A work's bounds of a pair, by which the OR of words' source skips
 * reading positions, are never below the pair's score in that work:
 * from its title's occurrences of the two words
 * (ProximityQuery::pair_max_title), and from their default-field wdfs
 * (pair_max), never below the first.  Every pair of the 12 commonest
 * words, in both orders, over every work that holds both (these words
 * stand side by side and recur in a title, so the bound's every term is
 * used).  Scores within a hair of the title's bound must be met too, or
 * the check would pass a bound far too loose to matter as easily as a
 * sound one. */
void bounds_hold(const std::string &path)
{
    Xapian::Database db(path);
    std::vector<std::string> words;
    for (Xapian::TermIterator t = db.allterms_begin(); t != db.allterms_end(); ++t)
        if (!(*t).empty() && islower(static_cast<unsigned char>((*t)[0])))
            words.push_back(*t);
    std::sort(words.begin(), words.end(), [&](const std::string &a, const std::string &b) {
        return db.get_termfreq(a) > db.get_termfreq(b);
    });
    words.resize(std::min<size_t>(words.size(), 12));
    const Xapian::Stem stem("english");
    const std::set<std::string> stops;
    size_t pairs = 0, works = 0, tight = 0, bad = 0;
    for (const std::string &x : words)
        for (const std::string &y : words) {
            if (x == y)
                continue;
            const Xapian::Query q(Xapian::Query::OP_OR, Xapian::Query(x),
                                  Xapian::Query(y));
            auto pq = std::make_shared<const pdxshim::ProximityQuery>(
                db, q, x + " " + y, stem, stops, 0.4, 3);
            if (pq->pairs.size() != 1)
                continue;
            pairs++;
            const std::string &a = pq->stems[pq->pairs[0].a],
                              &b = pq->stems[pq->pairs[0].b];
            pdxshim::ProximityReader reader(pq);
            reader.init(db);
            Xapian::PostingIterator ib = db.postlist_begin(b);
            Xapian::PostingIterator ta = db.postlist_begin(LAYOUT_P_TITLE + a),
                                    tb = db.postlist_begin(LAYOUT_P_TITLE + b);
            const Xapian::PostingIterator none;
            auto title_wdf = [&](Xapian::PostingIterator &t, Xapian::docid did) {
                if (t != none && *t < did)
                    t.skip_to(did);
                return t != none && *t == did ? t.get_wdf() : 0;
            };
            for (Xapian::PostingIterator ia = db.postlist_begin(a);
                 ia != db.postlist_end(a); ++ia) {
                ib.skip_to(*ia);
                if (ib == db.postlist_end(b))
                    break;
                if (*ib != *ia)
                    continue;
                std::vector<pdxshim::ProximityQuery::Part> parts;
                reader.weigh(*ia, nullptr, &parts);
                const double got = parts.empty() ? 0 : parts[0].score;
                const double bound = pq->pair_max_title(
                    0, title_wdf(ta, *ia), title_wdf(tb, *ia));
                const double by_wdf = pq->pair_max(0, ia.get_wdf(), ib.get_wdf());
                works++;
                if (got > bound * (1 + 1e-12) || bound > by_wdf * (1 + 1e-12))
                    bad++;
                if (got > 0 && got >= bound * 0.99)
                    tight++;
            }
        }
    check(pairs >= 100, std::to_string(pairs) + " pairs of common words");
    check(bad == 0, std::to_string(bad) + " of " + std::to_string(works) +
                        " works score a pair above its bound");
    check(tight > 0, std::to_string(tight) + " works score a pair within 1% "
                     "of its bound");
}

/* A pasted passage's URL and e-mail address are its words, as its
 * hyphenated compounds are: the OR of words stays one source, where a
 * phrase among them made it Xapian's tree of a leaf a word. */
void url_words(const std::string &path)
{
    pdx_index *ix = nullptr;
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open " + path);
    const std::string text = vocab(1) + " " + vocab(2) + " at https://" +
                             vocab(3) + ".org/" + vocab(4) + "/" + vocab(5) +
                             " or " + vocab(6) + "@" + vocab(7) + ".org";
    std::string note;
    pdxshim::PhraseFilter hoist(ix->db->db);
    const Xapian::Query q =
        parse_query(ix->db, text, true, note, &hoist, true, true);
    const std::string d = q.get_description();
    check(d.find("PHRASE") == std::string::npos,
          "no phrase in " + text + ": " + d);
    for (unsigned k = 3; k <= 7; k++)
        check(d.find(vocab(k) + "@") != std::string::npos,
              vocab(k) + " a word of " + d);
    pdx_close(ix);
}

/* A long query's ranking ends at the time budget: the page is the best
 * of the works met, a note says so, and the total is a lower bound. */
void ranking_stops(const std::string &path)
{
    std::string words;
    for (unsigned k = 0; k < 400; k++)
        words += (k ? " " : "") + vocab(k);
    pdx_index *ix = nullptr;
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_READ) == 0, "open " + path);
    /* with a wildcard (Xapian's tree), and as one OR of words, whose
     * source proposes works itself */
    for (const std::string &text : {words + " kal*", words})
    for (double budget : {0.001, 0.0, 30.0}) {
        pdx_query q;
        pdx_query_init(&q, PDX_QUERY_VERSION);
        q.text = text.c_str();
        q.limit = 10;
        q.no_suggest = 1;
        q.time_limit = budget;
        pdx_results *r = nullptr;
        if (pdx_search(&r, ix, &q) != 0) {
            check(false, std::string("long query: ") + pdx_errmsg(ix));
            pdx_results_free(r);
            continue;
        }
        const char *note = pdx_results_note(r);
        const bool stopped =
            note && strstr(note, "ranking stopped at the time budget");
        const std::string label = "budget " + std::to_string(budget) + " s" +
                                  (text == words ? ", words" : "") + ": ";
        if (budget > 0 && budget < 1) {
            check(stopped, label + "the ranking stops (note: " +
                               (note ? note : "none") + ")");
            check(pdx_results_count(r) > 0, label + "a page of what was met");
            check(pdx_results_total_relation(r) == PDX_TOTAL_GTE,
                  label + "the total a lower bound");
        } else {
            check(!stopped, label + "the ranking runs to its end");
            check(pdx_results_count(r) == 10, label + "a whole page");
        }
        pdx_results_free(r);
    }
    pdx_close(ix);

    /* An OR of words' source ends at the stop by itself: it passes over
     * many works without proposing one, where nothing else would ask
     * the clock. */
    Xapian::Database db(path);
    std::vector<Xapian::Query> leaves;
    for (unsigned k = 0; k < 400; k++)
        leaves.emplace_back(vocab(k));
    const Xapian::Query q(Xapian::Query::OP_OR, leaves.begin(), leaves.end());
    const auto lens = pdxshim::read_doc_lengths(db);
    Xapian::doccount all = 0;
    for (double seconds : {30.0, -1.0}) {
        auto stop = std::make_shared<pdxshim::RankStop>(seconds);
        Xapian::Enquire enq(db);
        enq.set_query(pdxshim::with_lengths(q, lens, 1.2, 0.6, nullptr, stop));
        enq.set_weighting_scheme(Xapian::BM25Weight(1.2, 0, 1, 0.6, 0.5));
        /* every match counted: the works the source proposed */
        const Xapian::MSet ms = enq.get_mset(0, 10, db.get_doccount());
        const std::string label = "the OR's source, stop in " +
                                  std::to_string(seconds) + " s: ";
        check(stop->hit == (seconds < 0), label + (stop->hit ? "stopped" : "ran"));
        if (seconds > 0)
            all = ms.get_matches_lower_bound();
        else
            check(ms.get_matches_lower_bound() < all / 2,
                  label + std::to_string(ms.get_matches_lower_bound()) +
                      " works proposed of " + std::to_string(all));
    }
}

/* A long query keeps its MAX_PAIRS heaviest pairs, in its order, and
 * only their words. */
void long_query_pairs(const std::string &path)
{
    Xapian::Database db(path);
    const Xapian::Stem stem("english");
    const std::set<std::string> stops;
    std::string text;
    std::vector<Xapian::Query> words;
    for (unsigned k = 0; k < 80; k++) {
        text += (k ? " " : "") + vocab(k * 7 % 600);
        words.emplace_back(vocab(k * 7 % 600));
    }
    const Xapian::Query q(Xapian::Query::OP_OR, words.begin(), words.end());
    const pdxshim::ProximityQuery all(db, q, text, stem, stops, 0.4, 3);
    check(all.pairs.size() == pdxshim::MAX_PAIRS,
          std::to_string(all.pairs.size()) + " pairs kept of 79");
    /* every pair, weighed as the constructor weighs them */
    std::vector<double> every;
    for (unsigned k = 0; k + 1 < 80; k++) {
        const std::string a = vocab(k * 7 % 600), b = vocab((k + 1) * 7 % 600);
        const double w = std::max(
            pdxshim::bm25_termweight(db.get_doccount(), db.get_termfreq(a)),
            pdxshim::bm25_termweight(db.get_doccount(), db.get_termfreq(b)));
        if (w > 0)
            every.push_back(w);
    }
    std::sort(every.begin(), every.end(), std::greater<double>());
    double least = 1e300;
    std::set<std::string> used;
    for (const auto &p : all.pairs) {
        least = std::min(least, p.weight / 0.4);
        used.insert(all.stems[p.a]);
        used.insert(all.stems[p.b]);
    }
    check(every.size() > pdxshim::MAX_PAIRS &&
              least >= every[pdxshim::MAX_PAIRS - 1] * (1 - 1e-9),
          "the heaviest pairs kept");
    check(used.size() == all.stems.size(),
          std::to_string(all.stems.size()) + " stems for " +
              std::to_string(used.size()) + " words of the pairs kept");
    bool in_order = true;
    size_t at = 0, found = 0;
    const std::string spaced = " " + text + " ";
    for (const auto &p : all.pairs) { /* the pair's place in the text */
        const size_t here =
            spaced.find(" " + all.stems[p.a] + " " + all.stems[p.b] + " ");
        if (here == std::string::npos)
            continue;
        found++;
        in_order &= here >= at;
        at = here;
    }
    check(in_order && found > pdxshim::MAX_PAIRS / 2,
          "the pairs kept in the query's order (" + std::to_string(found) +
              " found)");
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_bm25 WORK_DIR\n");
        return 2;
    }
    const std::string work = argv[1];
    if (!check_work_dir(work))
        return 1;
    const std::string path = work + "/ix";
    std::mt19937 rng(3);
    pdx_index *ix = nullptr;
    check(pdx_open(&ix, path.c_str(), PDX_OPEN_WRITE | PDX_OPEN_CREATE) == 0,
          "create " + path);
    put_works(ix, 0, 3000, rng);
    pdx_close(ix);
    try {
        xapian_level(path);
        bounds_hold(path);
        long_query_pairs(path);
        ranking_stops(path);
        url_words(path);
        handle_level(path);
        page_first(path);
        after_commit(path, rng);
        shared_between_handles(path, rng);
    } catch (const Xapian::Error &e) {
        check(false, e.get_description());
    }
    return check_done();
}
