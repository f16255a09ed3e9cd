/*
 * shim_bm25.cc -- BM25 over an array of the works' lengths.
 *
 * Why.  BM25 divides each posting's wdf by its work's length, so Xapian
 * 1.4's matcher asks the database for the length of every work it
 * scores.  Glass keeps the lengths as one more posting list, in chunks of
 * about 2 KB read front to back: a length is found by decoding every
 * entry of its chunk before it.  A word in 46% of a million works thus
 * walks the whole list of a million lengths, and a rare one decodes half
 * a chunk for each of its works.  On the synthetic million
 * (bench/RESULTS.md, "Lengths in an array"), the same queries scored with
 * BM25's b = 0, which needs no length, took a quarter of the time: the
 * lengths, not the scoring, were most of a query's cost.  Lucene keeps a
 * length (its "norm") in a dense array read at a document's index.
 *
 * What.  A reading handle reads every work's length once, into an array
 * (4 bytes a work: 4 MB a million), and scores each word of a query with
 * BM25Source: a Xapian::PostingSource over the word's posting list that
 * takes the length from the array.  Its weights are BM25Weight's to the
 * bit (the same formula, the same order of operations, from the same
 * statistics), and so is the bound it gives the matcher, so the matcher
 * prunes as before.  One thing Xapian's own leaves do not: the matcher
 * tells a posting list the least weight a work needs to count (min_wt),
 * and the source passes over the works that weigh less without handing
 * them to the matcher, which would drop them (at a million works, a
 * one-word query's p99 halves with it).  tests/unit/test_bm25.cc
 * compares hits, scores to the bit, estimates and bounds with Xapian's
 * own scoring for Xapian queries of ten shapes and for paperdex's query
 * language through a handle.  Only the words whose weight counts are
 * replaced (with_lengths); phrases' positional checks, wildcards (scored
 * as one synonym), filters and field boosts stay Xapian's, and so does a
 * query of more than nine scored words, which the array does not speed
 * up (MAX_SOURCE_WORDS).
 *
 * When.  Reading the lengths costs about one pass over the length list
 * through Xapian's API, 30-75 ms a million works, where one query of a
 * common word costs a few ms: it pays only on a handle that answers many
 * queries (a server, an embedding program, a benchmark), not on the
 * CLI's one query.  So a handle counts the postings its queries scored
 * without the array, and reads the lengths once that count reaches the
 * number of works (a rent-or-buy rule: never more than twice the better
 * choice's cost, counting a posting's length lookup as one entry of the
 * list).  A commit (a new revision of the database) makes the array
 * stale: it is dropped and the count starts again.  Only a handle on one
 * local index reads lengths: the remote backend cannot run a posting
 * source, several databases would need one array each (Xapian hands a
 * source each sub-database in turn), and a writer's own revision moves
 * with every commit.  The environment variable PDX_DOC_LENGTHS overrides
 * the rule for a handle, read at its first query: "array" reads the
 * lengths at once (a one-off query on a large index may want it),
 * "xapian" never (the two are compared by tests/unit/test_bm25.cc and
 * bench/ab.py-style runs).
 */
#include "shim_bm25.hh"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../common/shim_db.hh"

namespace pdxshim {
namespace {

const double MIN_NORMLEN = 0.5; /* BM25Weight's, as run_search sets it */

/* One word's BM25, k2 = 0 and k3 = 1 (wqf 1), its length from lens. */
class BM25Source : public Xapian::PostingSource {
  public:
    BM25Source(const std::string &term,
               std::shared_ptr<const DocLengths> lens, double k1, double b)
        : term_(term), lens_(std::move(lens)), k1_(k1), b_(b)
    {
    }

    Xapian::PostingSource *clone() const override
    {
        return new BM25Source(term_, lens_, k1_, b_);
    }

    /* BM25Weight::init and get_maxpart, from the statistics the matcher
     * would hand it for one database: termfreq, the number of works,
     * their average length, the shortest length and the term's wdf
     * bound. */
    void init(const Xapian::Database &db) override
    {
        db_ = db;
        it_ = db.postlist_begin(term_);
        end_ = db.postlist_end(term_);
        started_ = false;
        df_ = db.get_termfreq(term_);
        const Xapian::doccount n = db.get_doccount();
        double tw = (n - df_ + 0.5) / (df_ + 0.5);
        if (tw < 2)
            tw = tw * 0.5 + 1;
        termweight_ = std::log(tw) * 1.0; /* factor 1; wqf 1: (k3+1)/(k3+1) */
        len_factor_ = db.get_avlength();
        if (len_factor_ != 0)
            len_factor_ = 1 / len_factor_;
        const double wdf_max = db.get_wdf_upper_bound(term_);
        double denom = wdf_max;
        const double normlen_lb = std::max(
            db.get_doclength_lower_bound() * len_factor_, MIN_NORMLEN);
        denom += k1_ * (normlen_lb * b_ + (1 - b_));
        set_maxweight(termweight_ * (k1_ + 1) * (wdf_max / denom));
    }

    Xapian::doccount get_termfreq_min() const override { return df_; }
    Xapian::doccount get_termfreq_est() const override { return df_; }
    Xapian::doccount get_termfreq_max() const override { return df_; }

    /* A posting source starts before its first entry; a posting
     * iterator at it. */
    void next(double min_wt) override
    {
        if (started_)
            ++it_;
        started_ = true;
        pass_below(min_wt);
    }

    void skip_to(Xapian::docid did, double min_wt) override
    {
        started_ = true;
        it_.skip_to(did);
        pass_below(min_wt);
    }

    bool at_end() const override { return it_ == end_; }
    Xapian::docid get_docid() const override { return *it_; }

    /* Moves past the works weighing less than min_wt: the matcher would
     * not take them (a hint Xapian's own leaves ignore). */
    void pass_below(double min_wt)
    {
        if (min_wt > 0)
            while (it_ != end_ && get_weight() < min_wt)
                ++it_;
    }

    /* BM25Weight::get_sumpart. */
    double get_weight() const override
    {
        const Xapian::docid did = *it_;
        const Xapian::termcount len =
            did < lens_->len.size() ? lens_->len[did] : db_.get_doclength(did);
        const double normlen = std::max(len * len_factor_, MIN_NORMLEN);
        const double wdf = it_.get_wdf();
        const double denom = k1_ * (normlen * b_ + (1 - b_)) + wdf;
        return termweight_ * (k1_ + 1) * (wdf / denom);
    }

    std::string get_description() const override
    {
        return "BM25Source(" + term_ + ")";
    }

  private:
    std::string term_;
    std::shared_ptr<const DocLengths> lens_;
    double k1_, b_;
    Xapian::Database db_;
    Xapian::PostingIterator it_, end_;
    bool started_ = false;
    Xapian::doccount df_ = 0;
    double termweight_ = 0, len_factor_ = 0;
};

/* A leaf's term when its wqf is 1, else "" (and the leaf stays
 * Xapian's).  Xapian 1.4 gives a leaf's term but not its wqf, which its
 * description writes as "#wqf" after the term (then "@pos"). */
bool plain_leaf(const Xapian::Query &q, std::string &term)
{
    if (q.get_type() != Xapian::Query::LEAF_TERM)
        return false;
    Xapian::TermIterator t = q.get_terms_begin();
    if (t == q.get_terms_end() || (*t).empty())
        return false;
    std::string d = q.get_description(); /* Query(term[#wqf][@pos]) */
    if (d.size() < 8 || d.back() != ')')
        return false;
    d.pop_back();
    size_t at = d.find_last_of("@#");
    if (at != std::string::npos && d[at] == '@' && at + 1 < d.size() &&
        d.find_first_not_of("0123456789", at + 1) == std::string::npos)
        d.erase(at);
    at = d.rfind('#');
    if (at != std::string::npos && at + 1 < d.size() &&
        d.find_first_not_of("0123456789", at + 1) == std::string::npos)
        return false; /* wqf other than 1 */
    term = *t;
    return true;
}

/* Children of op whose weight counts: all, or the first of FILTER and
 * AND_NOT; none of the others (positional, synonyms, scaled, ...). */
size_t scored_children(const Xapian::Query &q)
{
    switch (q.get_type()) {
    case Xapian::Query::OP_OR:
    case Xapian::Query::OP_AND:
    case Xapian::Query::OP_XOR:
    case Xapian::Query::OP_AND_MAYBE:
        return q.get_num_subqueries();
    case Xapian::Query::OP_FILTER:
    case Xapian::Query::OP_AND_NOT:
        return std::min<size_t>(q.get_num_subqueries(), 1);
    default:
        return 0;
    }
}

Xapian::Query rewrite(const Xapian::Query &q,
                      const std::shared_ptr<const DocLengths> &lens,
                      double k1, double b, bool &changed)
{
    std::string term;
    if (plain_leaf(q, term)) {
        changed = true;
        return Xapian::Query((new BM25Source(term, lens, k1, b))->release());
    }
    const size_t scored = scored_children(q);
    if (!scored)
        return q;
    bool below = false;
    std::vector<Xapian::Query> subs;
    for (size_t i = 0; i < q.get_num_subqueries(); i++)
        subs.push_back(i < scored
                           ? rewrite(q.get_subquery(i), lens, k1, b, below)
                           : q.get_subquery(i));
    if (!below)
        return q;
    changed = true;
    return Xapian::Query(q.get_type(), subs.begin(), subs.end());
}

/* Calls f(term) for each word with_lengths would score from the
 * array. */
template <typename F> void each_scored_word(const Xapian::Query &q, F &&f)
{
    std::string term;
    if (plain_leaf(q, term)) {
        f(term);
        return;
    }
    const size_t scored = scored_children(q);
    for (size_t i = 0; i < scored; i++)
        each_scored_word(q.get_subquery(i), f);
}

/* Past this many scored words a query is left to Xapian's own scoring,
 * array or not.  Such a query (a pasted title) has most of its words'
 * postings scored before any bound prunes them, its works' lengths are
 * then read in docid order, which glass does cheaply, and a posting
 * source costs a few virtual calls a posting more than Xapian's own
 * list: on the synthetic 1M's 1,000 whole titles (two passes each way),
 * the array's time over Xapian's was 0.30 to 0.62 for one to three
 * words, 0.79 to 0.92 for four to six, 0.95 to 0.99 for seven to nine,
 * and 1.01 to 1.09 for ten to sixteen (bench/RESULTS.md, "Lengths in
 * an array"). */
const size_t MAX_SOURCE_WORDS = 9;

} // namespace

Xapian::Query with_lengths(const Xapian::Query &q,
                           const std::shared_ptr<const DocLengths> &lens,
                           double k1, double b)
{
    bool changed = false;
    return rewrite(q, lens, k1, b, changed);
}

std::shared_ptr<const DocLengths> read_doc_lengths(const Xapian::Database &db)
{
    auto lens = std::make_shared<DocLengths>();
    lens->len.assign(static_cast<size_t>(db.get_lastdocid()) + 1, 0);
    for (Xapian::PostingIterator p = db.postlist_begin("");
         p != db.postlist_end(""); ++p)
        lens->len[*p] = p.get_doclength();
    return lens;
}

std::shared_ptr<const DocLengths> LengthCache::get(shim_db *h,
                                                   const Xapian::Query &q)
{
    size_t words = 0;
    each_scored_word(q, [&](const std::string &) { words++; });
    if (words == 0 || words > MAX_SOURCE_WORDS)
        return nullptr; /* nothing to score, or Xapian's is as fast */
    if (mode_ == Mode::UNREAD) { /* the first query: PDX_DOC_LENGTHS */
        const char *env = getenv("PDX_DOC_LENGTHS");
        mode_ = env && !strcmp(env, "array")    ? Mode::ARRAY
                : env && !strcmp(env, "xapian") ? Mode::XAPIAN
                                                : Mode::AUTO;
    }
    if (mode_ == Mode::XAPIAN || h->writable || h->subs.size() != 1 ||
        h->shards.size() != 1 || !h->shards[0].local)
        return nullptr;
    const Xapian::Database &db = h->subs[0];
    const Xapian::rev rev = db.get_revision();
    if (rev != rev_) { /* a commit since: what was read is stale */
        lens_.reset();
        walked_ = 0;
        rev_ = rev;
    }
    if (!lens_) {
        each_scored_word(q, [&](const std::string &t) {
            walked_ += db.get_termfreq(t);
        });
        if (mode_ != Mode::ARRAY && walked_ < db.get_doccount())
            return nullptr;
        lens_ = read_doc_lengths(db);
    }
    return lens_;
}

} // namespace pdxshim
