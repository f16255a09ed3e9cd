/*
 * bm25.cc -- BM25 over an array of the works' lengths.
 *
 * Why.  BM25 divides each posting's wdf by its work's length, so Xapian
 * 1.4's matcher asks the database for the length of every work it
 * scores.  Glass keeps the lengths as one more posting list, in chunks of
 * about 2 KB read front to back: a length is found by decoding every
 * entry of its chunk before it.  A word in 46% of a million works thus
 * walks the whole list of a million lengths, and a rare one decodes half
 * a chunk for each of its works.  On the synthetic million, the same
 * queries scored with
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
 * as one synonym), filters and field boosts stay Xapian's.
 *
 * An OR of words (the default operator: a query of several words, a
 * pasted title) is one source, BM25OrSource, rather than a source a
 * word under Xapian's tree of ORs.  It considers works as MaxScore does:
 * the words whose bounds together fall short of the matcher's least
 * weight only check the works the other words propose, and stop as soon
 * as a work cannot reach it (first by what the proposing words' wdfs
 * allow, before a work's length is read; with the proximity bonus, by
 * the bounds of the pairs whose both words the work's title holds, which
 * the title terms' lists tell).  Xapian's tree prunes only where the least
 * weight passes the bound of a whole subtree, which for ten or more
 * words it seldom does: a whole title's sixteen words were scored
 * posting by posting, and Lucene's block-max WAND was faster on them.
 * The weight handed to the matcher is still the tree's, summed in its
 * order (to the bit).  It pays before the array does: until a handle
 * has read the lengths, an OR of words is still this source, reading
 * its works' lengths forward through the length list as Xapian's own
 * leaves do (single words stay Xapian's until then).  Other words each
 * scored from the array (under AND, AND_MAYBE, FILTER, ...) are
 * BM25Source, and a query of more than nine of those stays Xapian's
 * (MAX_SOURCE_WORDS).  With the proximity bonus in it, such a source
 * finds its page before the matcher asks where nothing else decides the
 * page (BM25OrSource::choose()): the bonus is read for the works that
 * can reach the page, largest bound first, not for every work whose
 * bound passes the matcher's least weight when the matcher meets it.
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
 * stale: it is dropped and the count starts again.  The handles of one
 * process share what they read (revision_share.hh): a handle
 * whose database, at its revision, another handle has read takes that
 * array at its first query, so paperdex serve's worker threads keep one
 * array and pay one rent between them.  Only a handle on one
 * local index reads lengths: the remote backend cannot run a posting
 * source, several databases would need one array each (Xapian hands a
 * source each sub-database in turn), and a writer's own revision moves
 * with every commit.  A test hook (test_doc_lengths) overrides the rule
 * for the handles that start after it: "array" reads the lengths at
 * once, "xapian" never, so that tests/unit/test_bm25.cc compares the
 * two.
 */
#include "bm25.hh"
#include "proximity.hh"
#include "revision_share.hh"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "../common/shim_db.hh"

namespace pdxshim {
namespace {

const double MIN_NORMLEN = 0.5; /* BM25Weight's, as run_search sets it */
const Xapian::docid END = Xapian::docid(-1); /* past every docid */

/* The deepest page found before the match: the works kept to find a
 * page take memory in proportion to its depth, so a page ending past
 * this (an offset of thousands) is left to the match. */
const size_t PAGE_FIRST_MAX = 10000;

/* A page found first whose filter lets through at most this share of
 * the works (its terms' bound, FilterCheck::bound) checks the filter
 * before it weighs a work, and skips its words' postings to the
 * filter's next work (choose()).  A denser filter is checked only on
 * the works the pass proposes: on the synthetic million, checking a
 * year that two thirds or one third of the works have first made its
 * queries 8-13% slower (bench/RESULTS.md, "A million works"). */
const double GATE_SHARE = 0.125;

/* test_page_first()'s switch and counts. */
std::atomic<bool> page_first_off{false};
std::atomic<unsigned long> pages_first{0}, pages_gated{0};
/* test_prune_audit()'s. */
std::atomic<bool> prune_audit{false};
std::atomic<unsigned long> audit_missed{0}, audit_passed{0};

/* One word's BM25 (k2 = 0, k3 = 1, wqf 1): BM25Weight::init's statistics
 * and get_maxpart's bound, from what the matcher would hand it for one
 * database, and get_sumpart's weight for a wdf and a work's length. */
struct BM25Word {
    Xapian::doccount df = 0;
    double termweight = 0, len_factor = 0, k1 = 0, b = 0, maxweight = 0;

    void init(const Xapian::Database &db, const std::string &term,
              double k1_, double b_)
    {
        k1 = k1_;
        b = b_;
        df = db.get_termfreq(term);
        termweight = bm25_termweight(db.get_doccount(), df);
        len_factor = db.get_avlength();
        if (len_factor != 0)
            len_factor = 1 / len_factor;
        const double wdf_max = db.get_wdf_upper_bound(term);
        double denom = wdf_max;
        const double normlen_lb = std::max(
            db.get_doclength_lower_bound() * len_factor, MIN_NORMLEN);
        denom += k1 * (normlen_lb * b + (1 - b));
        maxweight = termweight * (k1 + 1) * (wdf_max / denom);
    }

    double weight(double wdf, Xapian::termcount len) const
    {
        const double normlen = std::max(len * len_factor, MIN_NORMLEN);
        const double denom = k1 * (normlen * b + (1 - b)) + wdf;
        return termweight * (k1 + 1) * (wdf / denom);
    }
};

/* did's length: from the array, or (a docid past it) from the database. */
inline Xapian::termcount length_of(const DocLengths &lens,
                                   const Xapian::Database &db,
                                   Xapian::docid did)
{
    return did < lens.len.size() ? lens.len[did] : db.get_doclength(did);
}

/* One word scored with the lengths: a leaf outside an OR of words (under
 * AND, AND_MAYBE, FILTER, ...). */
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

    void init(const Xapian::Database &db) override
    {
        db_ = db;
        it_ = db.postlist_begin(term_);
        end_ = db.postlist_end(term_);
        started_ = false;
        w_.init(db, term_, k1_, b_);
        set_maxweight(w_.maxweight);
    }

    Xapian::doccount get_termfreq_min() const override { return w_.df; }
    Xapian::doccount get_termfreq_est() const override { return w_.df; }
    Xapian::doccount get_termfreq_max() const override { return w_.df; }

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

    double get_weight() const override
    {
        return w_.weight(it_.get_wdf(), length_of(*lens_, db_, *it_));
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
    BM25Word w_;
};

/* A pruning bound is trusted only past this factor: the matcher's exact
 * sums and the bounds' own are added in different orders, and a work
 * whose weight equals the matcher's minimum must never be passed over. */
const double SLACK = 1 + 1e-9;

/* Whether a work passes a PageFilter, and the next work that does,
 * asked in increasing docid order (a posting list of each term and the
 * year values, read forward). */
class FilterCheck {
  public:
    /* False when f's terms are more than terms under AND and OR. */
    bool init(const Xapian::Database &db, const PageFilter &f)
    {
        nodes_.clear();
        lo_ = f.year_lo;
        hi_ = f.year_hi;
        years_ = lo_.empty() && hi_.empty() ? Xapian::ValueIterator()
                                            : db.valuestream_begin(SLOT_YEAR);
        root_ = f.terms.empty() ? -1 : add(db, f.terms);
        return f.terms.empty() || root_ >= 0;
    }

    bool passes(Xapian::docid did)
    {
        return in_years(did) && (root_ < 0 || holds(static_cast<size_t>(root_), did));
    }

    /* How many works the filter's terms let through at most (the year
     * values' range not counted): a term's own count, the least of an
     * AND's, the sum of an OR's. */
    Xapian::doccount bound(const Xapian::Database &db) const
    {
        return root_ < 0 ? db.get_doccount()
                         : bound(static_cast<size_t>(root_), db.get_doccount());
    }

    /* The first work at or after did that passes, or END; asked, as
     * passes() is, in increasing order of did. */
    Xapian::docid next(Xapian::docid did)
    {
        for (;; did++) {
            if (root_ >= 0)
                did = first(static_cast<size_t>(root_), did);
            if (did == END || in_years(did)) /* the terms hold there */
                return did;
        }
    }

  private:
    /* Whether did's year is in the range (true without one). */
    bool in_years(Xapian::docid did)
    {
        if (lo_.empty() && hi_.empty())
            return true;
        const Xapian::ValueIterator end;
        if (years_ != end && years_.get_docid() < did)
            years_.skip_to(did);
        if (years_ == end || years_.get_docid() != did)
            return false;
        const std::string y = *years_;
        return (lo_.empty() || y >= lo_) && (hi_.empty() || y <= hi_);
    }

    struct Node {
        bool all = false; /* AND (else OR) */
        std::vector<size_t> kids;
        bool leaf = false;
        Xapian::PostingIterator it;
        Xapian::doccount tf = 0; /* a leaf's term's */
    };

    /* q's node, or -1 for an operator not checked here. */
    long add(const Xapian::Database &db, const Xapian::Query &q)
    {
        const Xapian::Query::op op = q.get_type();
        Node n;
        if (op == Xapian::Query::LEAF_TERM) {
            n.leaf = true;
            n.it = db.postlist_begin(*q.get_terms_begin());
            n.tf = db.get_termfreq(*q.get_terms_begin());
        } else if (op == Xapian::Query::OP_AND || op == Xapian::Query::OP_OR ||
                   op == Xapian::Query::OP_FILTER) {
            n.all = op != Xapian::Query::OP_OR;
            for (size_t i = 0; i < q.get_num_subqueries(); i++) {
                const long k = add(db, q.get_subquery(i));
                if (k < 0)
                    return -1;
                n.kids.push_back(static_cast<size_t>(k));
            }
        } else {
            return -1;
        }
        nodes_.push_back(std::move(n));
        return static_cast<long>(nodes_.size() - 1);
    }

    Xapian::doccount bound(size_t k, Xapian::doccount all) const
    {
        const Node &n = nodes_[k];
        if (n.leaf)
            return n.tf;
        Xapian::doccount b = n.all ? all : 0;
        for (size_t c : n.kids) {
            const Xapian::doccount x = bound(c, all);
            b = n.all ? std::min(b, x) : x > all - b ? all : b + x;
        }
        return b;
    }

    /* The first work at or after did that node k holds, or END: a leaf's
     * next posting, the least of an OR's, the first an AND's all hold
     * (each moved in turn to the latest any of them is at). */
    Xapian::docid first(size_t k, Xapian::docid did)
    {
        Node &n = nodes_[k];
        if (n.leaf) {
            const Xapian::PostingIterator end;
            if (n.it != end && *n.it < did)
                n.it.skip_to(did);
            return n.it == end ? END : *n.it;
        }
        if (!n.all) {
            Xapian::docid least = END;
            for (size_t c : n.kids)
                least = std::min(least, first(c, did));
            return least;
        }
        for (size_t agreed = 0; agreed < n.kids.size();) {
            agreed = 0;
            for (size_t c : n.kids) {
                const Xapian::docid f = first(c, did);
                if (f == END)
                    return END;
                if (f != did) {
                    did = f;
                    break;
                }
                agreed++;
            }
        }
        return did;
    }

    /* Whether node k holds did: an AND's or an OR's kids asked only
     * until one decides it. */
    bool holds(size_t k, Xapian::docid did)
    {
        Node &n = nodes_[k];
        if (n.leaf)
            return first(k, did) == did;
        for (size_t c : n.kids)
            if (holds(c, did) != n.all)
                return !n.all;
        return n.all;
    }

    std::vector<Node> nodes_;
    long root_ = -1;
    std::string lo_, hi_;
    Xapian::ValueIterator years_;
};

/*
 * An OR of words scored with the lengths, as one posting source: what a
 * pasted title or an OR of several words becomes.
 *
 * Xapian builds an OR of n words as a tree of n - 1 binary OrPostLists,
 * and the matcher's least weight prunes it only where it exceeds the
 * bound of a whole subtree (then that OR turns into AND_MAYBE).  Here
 * the words are ordered by their bounds instead, and each work is
 * considered the way MaxScore (Turtle and Flood, 1995; Lucene's
 * MaxScoreCache does the same per block) does: the words whose bounds
 * add up to less than the least weight cannot make a work count alone,
 * so only the others ("essential") propose works, and a proposed work
 * is checked against the rest, the largest bound first, only while its
 * weight so far plus what is left could still reach the least weight.
 *
 * The weight handed to the matcher is the one Xapian's tree would give,
 * to the bit: init() builds the same tree (OrContext::postlist's heap,
 * by estimated term frequency), and a work's weight is summed along it
 * (a node's weight is its left's plus its right's, or the one side
 * present).  Its estimates (min, est, max) and bound are the tree's too.
 */
class BM25OrSource : public Xapian::PostingSource {
  public:
    BM25OrSource(std::vector<std::string> terms,
                 std::shared_ptr<const DocLengths> lens, double k1, double b,
                 std::shared_ptr<const ProximityQuery> prox = nullptr,
                 std::shared_ptr<RankStop> stop = nullptr, size_t top = 0,
                 std::shared_ptr<const PageFilter> page_filter = nullptr)
        : terms_(std::move(terms)), lens_(std::move(lens)), k1_(k1), b_(b),
          prox_(std::move(prox)), stop_(std::move(stop)), top_(top),
          page_filter_(std::move(page_filter))
    {
        if (!prox_)
            return;
        /* Each stem's word among the OR's (with_lengths attaches the
         * bonus only to an OR that holds them all), and each pair's. */
        for (const std::string &st : prox_->stems)
            stem_word_.push_back(static_cast<size_t>(
                std::find(terms_.begin(), terms_.end(), st) - terms_.begin()));
        for (const ProximityQuery::Pair &p : prox_->pairs)
            pair_words_.emplace_back(stem_word_[p.a], stem_word_[p.b]);
        reader_.reset(new ProximityReader(prox_));
        here_.assign(prox_->stems.size(), 0);
    }

    Xapian::PostingSource *clone() const override
    {
        return new BM25OrSource(terms_, lens_, k1_, b_, prox_, stop_, top_,
                                page_filter_);
    }

    void init(const Xapian::Database &db) override
    {
        db_ = db;
        const size_t n = terms_.size();
        words_.assign(n, Word());
        for (size_t i = 0; i < n; i++) {
            Word &w = words_[i];
            w.bm25.init(db, terms_[i], k1_, b_);
            w.it = db.postlist_begin(terms_[i]);
            w.end = db.postlist_end(terms_[i]);
            w.did = w.it == w.end ? END : *w.it;
        }
        wdf_ub_.assign(n, std::vector<double>(WDF_TABLE));
        for (size_t i = 0; i < n; i++)
            for (Xapian::termcount f = 0; f < WDF_TABLE; f++)
                wdf_ub_[i][f] = words_[i].bm25.weight(f, 0);
        build_tree(db.get_doccount());
        /* A word's bound: its BM25 bound, and with the proximity bonus
         * the bound of each pair whose rarer word it is.  A work gains a
         * pair only holding both its words, so a set of words bounds
         * what a work holding only them weighs, the pairs included:
         * MaxScore's cuts below stay sound, and the common words, which
         * propose the most works, keep their own bounds. */
        bound_.assign(n, 0);
        for (size_t i = 0; i < n; i++)
            bound_[i] = words_[i].bm25.maxweight;
        double prox_max = 0;
        pair_top_.clear();
        for (size_t p = 0; prox_ && p < pair_words_.size(); p++) {
            const size_t a = pair_words_[p].first, c = pair_words_[p].second;
            const double m = prox_->pair_max(p);
            pair_top_.push_back(m);
            bound_[words_[a].bm25.df <= words_[c].bm25.df ? a : c] += m;
            prox_max += m;
        }
        if (prox_) {
            reader_->init(db);
            /* each stem's title list: whether the work's title holds it;
             * and in how many titles */
            titles_.clear();
            title_did_.clear();
            std::vector<Xapian::doccount> in_titles;
            for (const std::string &t : prox_->asked()) {
                titles_.push_back(db.postlist_begin(t));
                title_did_.push_back(titles_.back() == Xapian::PostingIterator()
                                         ? END
                                         : *titles_.back());
                in_titles.push_back(db.get_termfreq(t));
            }
            title_wdf_.assign(titles_.size(), 0);
            titled_at_ = 0;
            pair_stems_.clear();
            for (const ProximityQuery::Pair &pr : prox_->pairs) {
                const bool swap = in_titles[pr.b] < in_titles[pr.a];
                pair_stems_.emplace_back(swap ? pr.b : pr.a, swap ? pr.a : pr.b);
            }
        }
        /* MaxScore's order: smallest bound first; cum_[k] bounds the
         * first k together, which decides the words that propose works
         * (advance()); a work considered has its pairs' bounds from its
         * title, and cum_bm25_[k], their BM25 bounds alone, beside them. */
        order_.resize(n);
        for (size_t i = 0; i < n; i++)
            order_[i] = i;
        std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t c) {
            return bound_[a] < bound_[c];
        });
        cum_.assign(n + 1, 0);
        cum_bm25_.assign(n + 1, 0);
        for (size_t k = 0; k < n; k++) {
            cum_[k + 1] = cum_[k] + bound_[order_[k]];
            cum_bm25_[k + 1] = cum_bm25_[k] + words_[order_[k]].bm25.maxweight;
        }
        cur_ = 0;
        pending_ = false;
        theta_ = -1;
        essential_ = 0;
        if (lens_->len.empty()) /* no array yet: the length list */
            len_it_ = db.postlist_begin("");
        len_did_ = 0;
        set_maxweight(nodes_[root_].maxweight + prox_max);
        chosen_.clear();
        chosen_at_ = 0;
        replay_ = false;
        filtered_ = page_filter_ != nullptr;
        if (top_ && top_ <= PAGE_FIRST_MAX && prox_ &&
            !page_first_off.load(std::memory_order_relaxed) &&
            (!filtered_ || filter_.init(db, *page_filter_))) {
            gate_ = filtered_ &&
                    filter_.bound(db) <= GATE_SHARE * db.get_doccount();
            if (gate_)
                pages_gated.fetch_add(1, std::memory_order_relaxed);
            choose();
            gate_ = false;
            pages_first.fetch_add(1, std::memory_order_relaxed);
            replay_ = true;
            cur_ = 0;
            pending_ = false;
        }
    }

    Xapian::doccount get_termfreq_min() const override { return nodes_[root_].tmin; }
    Xapian::doccount get_termfreq_est() const override { return nodes_[root_].est; }
    Xapian::doccount get_termfreq_max() const override { return nodes_[root_].tmax; }

    void next(double min_wt) override
    {
        if (cur_ != END)
            move(cur_ + 1, min_wt);
    }

    void skip_to(Xapian::docid did, double min_wt) override
    {
        if (cur_ != END)
            move(std::max(did, cur_ + 1), min_wt);
    }

    bool at_end() const override { return cur_ == END; }
    Xapian::docid get_docid() const override { return cur_; }
    /* The bonus is read here, not in advance(): a work the matcher
     * asks the weight of has passed the rest of the query (a filter, an
     * AND's other side), which most works this source proposes under a
     * filter do not. */
    double get_weight() const override
    {
        if (pending_) {
            pending_ = false;
            weight_ += const_cast<BM25OrSource *>(this)->proximity(cur_);
        }
        return weight_;
    }

    std::string get_description() const override
    {
        std::string d = "BM25OrSource(";
        for (size_t i = 0; i < terms_.size(); i++)
            d += (i ? " " : "") + terms_[i];
        return d + ")";
    }

  private:
    struct Word {
        BM25Word bm25;
        Xapian::PostingIterator it, end;
        Xapian::docid did = END; /* *it, or END */
    };
    /* The tree Xapian would build: leaves 0..n-1 (the words), then each
     * OrPostList in the order it was made, so children come first. */
    struct Node {
        size_t l = 0, r = 0;
        Xapian::doccount tmin = 0, est = 0, tmax = 0;
        double maxweight = 0;
        double w = 0;      /* its weight in the work considered */
        bool here = false; /* a word of it is in that work */
    };

    /* OrContext::postlist and OrPostList's estimates and bound. */
    void build_tree(Xapian::doccount dbsize)
    {
        const size_t n = words_.size();
        nodes_.assign(n, Node());
        for (size_t i = 0; i < n; i++) {
            Node &x = nodes_[i];
            x.tmin = x.est = x.tmax = words_[i].bm25.df;
            x.maxweight = words_[i].bm25.maxweight;
        }
        root_ = 0;
        if (n < 2)
            return;
        std::vector<size_t> heap(n);
        for (size_t i = 0; i < n; i++)
            heap[i] = i;
        /* ComparePostListTermFreqAscending. */
        auto cmp = [&](size_t a, size_t c) { return nodes_[a].est > nodes_[c].est; };
        std::make_heap(heap.begin(), heap.end(), cmp);
        for (;;) {
            const size_t r = heap.front();
            std::pop_heap(heap.begin(), heap.end(), cmp);
            heap.pop_back();
            const size_t l = heap.front();
            Node x;
            x.l = l;
            x.r = r;
            const Node &a = nodes_[l], &c = nodes_[r];
            x.tmax = std::min(a.tmax + c.tmax, dbsize);
            x.tmin = std::max(a.tmin, c.tmin);
            if (dbsize == 0) {
                x.est = 0;
            } else {
                const double le = a.est, re = c.est;
                x.est = static_cast<Xapian::doccount>(le + re - (le * re / dbsize) + 0.5);
            }
            x.maxweight = a.maxweight + c.maxweight;
            nodes_.push_back(x);
            const size_t made = nodes_.size() - 1;
            if (heap.size() == 1) {
                root_ = made;
                return;
            }
            std::pop_heap(heap.begin(), heap.end(), cmp);
            heap.back() = made;
            std::push_heap(heap.begin(), heap.end(), cmp);
        }
    }

    /* Moves w to its first work at or after did. */
    static void reach(Word &w, Xapian::docid did)
    {
        if (w.did >= did)
            return;
        if (w.did + 1 == did)
            ++w.it;
        else
            w.it.skip_to(did);
        w.did = w.it == w.end ? END : *w.it;
    }

    /* did's length: from the array; without one (not read yet), from
     * the database's length list, read forward as Xapian's own leaves
     * read it (the works considered come in docid order). */
    Xapian::termcount length(Xapian::docid did)
    {
        if (!lens_->len.empty())
            return length_of(*lens_, db_, did);
        if (did != len_did_) {
            len_it_.skip_to(did);
            len_did_ = did;
            len_ = len_it_ != Xapian::PostingIterator() && *len_it_ == did
                       ? len_it_.get_doclength()
                       : db_.get_doclength(did);
        }
        return len_;
    }

    /* A bound on word i's weight where it stands: its weight at its wdf
     * there in a work of the least normalised length BM25 uses
     * (MIN_NORMLEN; the weight falls as the length grows, and the
     * rounding of each operation keeps that order). */
    double wdf_bound(size_t i)
    {
        const Xapian::termcount wdf = words_[i].it.get_wdf();
        std::vector<double> &t = wdf_ub_[i];
        if (wdf < t.size())
            return t[wdf];
        return words_[i].bm25.weight(wdf, 0);
    }

    /* Word i's weight in work did (where it stands), on its leaf;
     * returned to be summed. */
    double weigh(size_t i, Xapian::docid did)
    {
        Node &leaf = nodes_[i];
        leaf.w = words_[i].bm25.weight(words_[i].it.get_wdf(), length(did));
        leaf.here = true;
        return leaf.w;
    }

    /* The first work at or after floor that may weigh min_wt, its
     * weight summed as Xapian's tree sums it; or END. */
    void advance(Xapian::docid floor, double min_wt)
    {
        const size_t n = words_.size();
        pending_ = false;
        if (min_wt != theta_) {
            theta_ = min_wt;
            essential_ = 0;
            while (essential_ < n && cum_[essential_ + 1] * SLACK < theta_)
                essential_++;
        }
        const size_t k = essential_; /* order_[k..n) propose works */
        if (k == n) { /* all the words together cannot reach theta_ */
            cur_ = END;
            return;
        }
        for (;;) {
            /* the clock, every 256 works considered: a long OR passes
             * over many without proposing one */
            if (stop_ && stop_->due(&steps_, 256)) {
                cur_ = END;
                return;
            }
            Xapian::docid did = END;
            for (size_t j = k; j < n; j++) {
                Word &w = words_[order_[j]];
                reach(w, floor);
                did = std::min(did, w.did);
            }
            if (did == END) {
                cur_ = END;
                return;
            }
            if (gate_) { /* a sparse filter leads (choose()) */
                const Xapian::docid f = filter_.next(did);
                if (f != did) {
                    if (f == END) {
                        cur_ = END;
                        return;
                    }
                    floor = f;
                    continue;
                }
            }
            for (size_t i = 0; i < n; i++)
                nodes_[i].here = false;
            /* With the bonus, the bounds of the pairs whose both words
             * the work's title holds: a pair's bonus is read from the
             * title alone, and the title lists, moved forward with the
             * works considered, say which without a position or the
             * words' own postings.  The words' bounds below are then
             * BM25's alone (cum_bm25_). */
            double paired = 0;
            for (size_t p = 0; p < pair_words_.size(); p++) /* none without prox_ */
                if (pair_in_titles(p, did))
                    paired += pair_top_[p];
            /* First what the wdfs alone allow: each proposing word's
             * weight at its wdf in the shortest work BM25 counts, beside
             * those pairs and the other words' bounds.  Most postings of
             * a common word fall short of that already, and are passed
             * over without the work's length or a division. */
            if (theta_ > 0) {
                double most_w = cum_bm25_[k] + paired;
                for (size_t j = k; j < n; j++)
                    if (words_[order_[j]].did == did)
                        most_w += wdf_bound(order_[j]);
                if (most_w * SLACK < theta_) {
                    if (prune_audit.load(std::memory_order_relaxed))
                        audit(did);
                    floor = did + 1;
                    continue;
                }
            }
            double sum = 0;
            for (size_t j = k; j < n; j++)
                if (words_[order_[j]].did == did)
                    sum += weigh(order_[j], did);
            bool can = true;
            for (size_t j = k; j-- > 0;) {
                if ((sum + paired + cum_bm25_[j + 1]) * SLACK < theta_) {
                    can = false;
                    break;
                }
                const size_t i = order_[j];
                reach(words_[i], did);
                if (words_[i].did == did)
                    sum += weigh(i, did);
            }
            /* The pairs this work holds both words of bound its bonus:
             * only a work that can pass with them is proposed, and its
             * positions are read if the matcher asks its weight.  Their
             * bounds over the index first (no more than the work's own,
             * summed in the same order): most works fall short of those
             * already. */
            double most = 0;
            if (can && prox_)
                can = (sum + paired) * SLACK >= theta_;
            for (size_t p = 0; can && prox_ && p < pair_words_.size(); p++) {
                const size_t a = pair_words_[p].first, c = pair_words_[p].second;
                if (pair_titled(p, did))
                    most += prox_->pair_max(p, words_[a].it.get_wdf(),
                                            words_[c].it.get_wdf());
            }
            /* Then, where those still let it through, the bound from
             * what its title holds (the title lists moved here). */
            if (can && most > 0 && (sum + most) * SLACK >= theta_)
                most = titled(did);
            if (can && (sum + most) * SLACK >= theta_) {
                cur_ = did;
                weight_ = tree_sum();
                pending_ = most > 0;
                ub_ = sum + most;
                return;
            }
            if (prune_audit.load(std::memory_order_relaxed))
                audit(did);
            floor = did + 1;
        }
    }

    /* Where next() and skip_to() go: the first of the chosen works at
     * or after floor (choose()), or, without them, advance(). */
    void move(Xapian::docid floor, double min_wt)
    {
        if (!replay_) {
            advance(floor, min_wt);
            return;
        }
        while (chosen_at_ < chosen_.size() && chosen_[chosen_at_].first < floor)
            chosen_at_++;
        if (chosen_at_ == chosen_.size()) {
            cur_ = END;
            return;
        }
        cur_ = chosen_[chosen_at_].first;
        weight_ = chosen_[chosen_at_].second;
        pending_ = false;
    }

    /* The works that can be on a page of top_, with their weights, bonus
     * included, found before the matcher asks for any: with_lengths
     * asks for this only where this source is the whole query, or the
     * left side of its FILTER (then each work is checked against the
     * filter here, filter_), ranked by weight, with no decider: nothing
     * else can turn a work away or add to its weight.
     *
     * Why.  The matcher hands its least weight to next() in docid order,
     * and early in the order that weight is low: weighed as the matcher
     * proposes them (advance(), get_weight()), every work holding both
     * words of a pair whose bounds reach that weight has its positions
     * value read, most of them works that end far below the page, each
     * read a block of its own (on the synthetic million, thousands for
     * a query of two common words: bench/RESULTS.md, "Ranking").
     *
     * How (the lazy evaluation of a costly score that top-k retrieval
     * uses where a feature's bound is cheap and its value is not):
     *   1. One pass as advance() makes it, each work weighed without its
     *      bonus (base) and with its pairs' bound (ub: base plus what the
     *      pairs it holds both words of can add).  The top_-th largest
     *      base met so far is a floor under the page's last weight (the
     *      bonus is never negative, so top_ works weigh at least that):
     *      the pass prunes by it as it prunes by the matcher's least
     *      weight, and keeps every work whose ub reaches it.  Under a
     *      filter that few works pass (GATE_SHARE), the pass checks it
     *      before weighing a work, and moves the words' postings on to
     *      the filter's next work (FilterCheck::next): it weighs only
     *      works of the filter.
     *   2. The kept works in order of ub, largest first, each weighed
     *      with its bonus (their positions read a batch at a time, each
     *      batch in docid order as the reader reads), until top_ are
     *      weighed and the next ub (and so every later one) is below the
     *      top_-th weight: no work left can reach the page.
     * The works weighed are then proposed in docid order with the very
     * weights get_weight() would give them (base, plus the bonus, summed
     * as it sums them), so the matcher keeps the same page, its ties
     * broken by its own rule; a work not proposed weighs less than the
     * page's last.  A work whose ub passes the floor only by the slack
     * is kept, as advance() keeps it. */
    typedef std::priority_queue<double, std::vector<double>, std::greater<double>>
        MinHeap;
    /* A work choose() keeps. */
    struct Cand {
        Xapian::docid did;
        double base, ub;
        double w;      /* its weight, bonus included, once done */
        uint64_t here; /* which stems its title holds (at most 64: two a pair) */
        bool pending;  /* its title holds both words of a pair */
        bool done;     /* weighed (w -1: found below the page) */
        size_t pair_at; /* with pending, its pairs' bounds in pair_ub */
    };
    static_assert(2 * MAX_PAIRS <= 64, "a pair's stems in Cand::here");

    void choose()
    {
        const size_t s = prox_->stems.size();
        std::vector<Cand> cands;
        std::vector<double> pair_ub;
        /* the top_ largest bases met, and of the weights found; the
         * smallest of each on top */
        MinHeap bases, finals;
        auto keep = [&](MinHeap &h, double w) {
            if (h.size() < top_)
                h.push(w);
            else if (w > h.top()) {
                h.pop();
                h.push(w);
            }
        };
        double floor_w = 0;
        auto raise = [&]() {
            if (bases.size() == top_)
                floor_w = std::max(floor_w, bases.top());
            if (finals.size() == top_)
                floor_w = std::max(floor_w, finals.top());
        };
        auto prune = [&]() {
            cands.erase(std::remove_if(cands.begin(), cands.end(),
                                       [&](const Cand &c) {
                                           return (c.done ? c.w : c.ub) * SLACK <
                                                  floor_w;
                                       }),
                        cands.end());
        };
        /* Weighs, bonus included, the `batch` works not yet weighed of
         * the largest ub, and returns the largest ub of the rest, or -1
         * when none is left.  A batch of a quarter of them or more is
         * all of them instead, in docid order, each skipped whose ub is
         * below the top_-th weight by then: the works of many common
         * words, whose bounds are loose, are then read as the values
         * lie, each block once. */
        std::vector<size_t> open;
        auto weigh_batch = [&](size_t batch) -> double {
            open.clear();
            for (size_t i = 0; i < cands.size(); i++)
                if (!cands[i].done)
                    open.push_back(i);
            if (open.empty())
                return -1;
            auto by_ub = [&](size_t x, size_t y) {
                return cands[x].ub != cands[y].ub ? cands[x].ub > cands[y].ub
                                                  : cands[x].did < cands[y].did;
            };
            const bool sweep = 4 * batch >= open.size();
            const size_t m = sweep ? open.size() : batch;
            std::partial_sort(open.begin(),
                              open.begin() + static_cast<std::ptrdiff_t>(m),
                              open.end(), by_ub);
            double rest = -1;
            for (size_t j = m; j < open.size(); j++)
                rest = std::max(rest, cands[open[j]].ub);
            open.resize(m);
            std::sort(open.begin(), open.end(),
                      [&](size_t x, size_t y) { return cands[x].did < cands[y].did; });
            reader_->rewind(); /* read forward from the batch's first */
            for (size_t i : open) {
                Cand &c = cands[i];
                if (sweep && finals.size() == top_ && c.ub * SLACK < finals.top())
                    continue; /* cannot reach the page */
                c.w = c.base;
                c.done = true;
                if (c.pending) {
                    for (size_t k = 0; k < s; k++)
                        here_[k] = (c.here >> k) & 1;
                    /* past top_ weights found, the bonus a work needs to
                     * reach the page: a work short of it is let go
                     * (ProximityReader::weigh, where only some of its
                     * words may be read) */
                    const double need = finals.size() == top_
                                            ? finals.top() / SLACK - c.base
                                            : -1;
                    const double bonus =
                        reader_->weigh(c.did, &here_, nullptr, &pair_ub[c.pair_at],
                                       need);
                    if (bonus < 0) {
                        c.w = -1; /* below the page: pruned, not proposed */
                        continue;
                    }
                    c.w += bonus;
                }
                keep(finals, c.w);
            }
            raise();
            return rest;
        };
        /* While the pass goes on, a batch now and then (each time the
         * works kept double) raises the floor to the top_-th weight found,
         * which the works of many common words need: their bases alone
         * leave thousands kept. */
        const size_t batch = std::max<size_t>(top_, 16);
        size_t weigh_at = 256;
        for (Xapian::docid from = 1;;) {
            advance(from, floor_w);
            if (cur_ == END)
                break;
            /* not a match (advance() found it a match already when the
             * filter leads) */
            if (filtered_ && !gate_ && !filter_.passes(cur_)) {
                from = cur_ + 1;
                continue;
            }
            Cand c{cur_, weight_, ub_, weight_, 0, pending_, false, pair_ub.size()};
            for (size_t k = 0; pending_ && k < s; k++)
                if (title_wdf_[k])
                    c.here |= uint64_t(1) << k;
            /* each pair's bound in the work, as advance() summed it */
            for (size_t p = 0; pending_ && p < prox_->pairs.size(); p++)
                pair_ub.push_back(pair_in_title(p));
            cands.push_back(c);
            keep(bases, weight_);
            raise();
            if (cands.size() >= weigh_at) {
                weigh_batch(batch);
                prune();
                weigh_at = std::max<size_t>(256, 2 * cands.size());
            }
            from = cur_ + 1;
        }
        prune();
        /* Then batches of twice the size each: a query of common words
         * weighs thousands, and a batch costs a seek in each list read. */
        for (size_t b = batch;; b *= 2) {
            const double rest = weigh_batch(b);
            if (rest < 0 || (finals.size() == top_ &&
                             (rest * SLACK < finals.top() ||
                              (stop_ && stop_->passed()))))
                break;
        }
        for (const Cand &c : cands)
            if (c.done && c.w >= 0)
                chosen_.emplace_back(c.did, c.w);
        std::sort(chosen_.begin(), chosen_.end());
    }

    /* Pair p's bound in the work whose title wdfs titled() left. */
    double pair_in_title(size_t p) const
    {
        const ProximityQuery::Pair &pr = prox_->pairs[p];
        return prox_->pair_max_title(p, title_wdf_[pr.a], title_wdf_[pr.b]);
    }

    /* The bound of the bonus in work did: each stem's title list moved
     * to it (its wdf there in title_wdf_, 0 if the title lacks it), and
     * the bounds of the pairs whose both words the title holds summed.
     * Asked in increasing did, as advance() considers the works. */
    double titled(Xapian::docid did)
    {
        titled_at_ = did;
        for (size_t k = 0; k < titles_.size(); k++)
            title_wdf_[k] = in_title(k, did) ? titles_[k].get_wdf() : 0;
        double most = 0;
        for (size_t p = 0; p < prox_->pairs.size(); p++)
            most += pair_in_title(p);
        return most;
    }

    /* Whether stem k's title list holds did, the list moved to its first
     * work at or after did (asked in increasing did, as advance() and
     * titled() consider the works). */
    bool in_title(size_t k, Xapian::docid did)
    {
        if (title_did_[k] < did) {
            Xapian::PostingIterator &it = titles_[k];
            it.skip_to(did);
            title_did_[k] = it == Xapian::PostingIterator() ? END : *it;
        }
        return title_did_[k] == did;
    }

    /* Whether the title of did holds both words of pair p: the word in
     * fewer titles asked first, so that the other's list, longer, is
     * moved only to the works its title list holds. */
    bool pair_in_titles(size_t p, Xapian::docid did)
    {
        return in_title(pair_stems_[p].first, did) &&
               in_title(pair_stems_[p].second, did);
    }

    /* Whether both words of pair p are in did, where their lists stand,
     * and in its title. */
    bool pair_titled(size_t p, Xapian::docid did)
    {
        return nodes_[pair_words_[p].first].here &&
               nodes_[pair_words_[p].second].here && pair_in_titles(p, did);
    }

    /* OrPostList::get_weight over the tree, for the words here (its
     * leaves as weigh() left them). */
    double tree_sum()
    {
        for (size_t i = words_.size(); i < nodes_.size(); i++) {
            Node &x = nodes_[i];
            const Node &a = nodes_[x.l], &c = nodes_[x.r];
            x.here = a.here || c.here;
            x.w = a.here && c.here ? a.w + c.w : a.here ? a.w : c.w;
        }
        return nodes_[root_].w;
    }

    /* test_prune_audit(): did, passed over, weighed in full (every
     * word moved to it, the bonus read from the start of the lists). */
    void audit(Xapian::docid did)
    {
        double w = 0;
        for (size_t i = 0; i < words_.size(); i++) {
            reach(words_[i], did);
            if (words_[i].did == did)
                w += nodes_[i].here ? nodes_[i].w : weigh(i, did);
        }
        if (prox_) {
            reader_->rewind();
            w += proximity(did);
            reader_->rewind();
        }
        audit_passed.fetch_add(1, std::memory_order_relaxed);
        if (w * SLACK >= theta_)
            audit_missed.fetch_add(1, std::memory_order_relaxed);
    }

    /* The proximity bonus of work did (proximity.cc), from its
     * positions value, or Xapian's position lists without one. */
    double proximity(Xapian::docid did)
    {
        if (titled_at_ != did) /* titled() did not look: the reader will */
            return reader_->weigh(did);
        for (size_t k = 0; k < here_.size(); k++)
            here_[k] = title_wdf_[k] > 0;
        return reader_->weigh(did, &here_);
    }

    std::vector<std::string> terms_;
    std::shared_ptr<const DocLengths> lens_;
    double k1_, b_;
    std::shared_ptr<const ProximityQuery> prox_; /* or null: no bonus */
    std::shared_ptr<RankStop> stop_;             /* or null: none */
    size_t top_ = 0; /* the page choose() finds first, or 0: none */
    std::shared_ptr<const PageFilter> page_filter_; /* what it must pass */
    FilterCheck filter_;    /* page_filter_'s, over db_ */
    bool filtered_ = false; /* page_filter_ given */
    bool gate_ = false;     /* advance() passes over works filter_ fails */
    uint64_t steps_ = 0;                         /* works considered */
    std::vector<std::pair<size_t, size_t>> pair_words_; /* prox_'s pairs */
    std::vector<size_t> stem_word_; /* each of prox_'s stems: its word */
    std::unique_ptr<ProximityReader> reader_;
    std::vector<char> here_; /* scratch: which stems the work's title holds */
    std::vector<Xapian::PostingIterator> titles_; /* each stem's title list */
    std::vector<Xapian::docid> title_did_; /* where each is, or END */
    /* each pair's stems, the one in fewer titles first */
    std::vector<std::pair<size_t, size_t>> pair_stems_;
    std::vector<Xapian::termcount> title_wdf_;     /* titled()'s wdfs */
    Xapian::docid titled_at_ = 0;                   /* the work they are of */
    std::vector<double> pair_top_; /* each pair's bound, prox_->pair_max(p) */
    std::vector<double> bound_; /* each word's, for MaxScore */
    static const Xapian::termcount WDF_TABLE = 32;
    std::vector<std::vector<double>> wdf_ub_; /* wdf_bound()'s, by wdf */
    Xapian::Database db_;
    std::vector<Word> words_;
    std::vector<Node> nodes_;
    size_t root_ = 0;
    std::vector<size_t> order_;
    std::vector<double> cum_;
    std::vector<double> cum_bm25_; /* the same of BM25's bounds alone */
    Xapian::docid cur_ = 0; /* the work handed to the matcher; 0 before */
    mutable double weight_ = 0;
    mutable bool pending_ = false; /* cur_'s bonus not yet in weight_ */
    double theta_ = -1;     /* the least weight essential_ was found for */
    double ub_ = 0;         /* cur_'s weight with its pairs' bound (advance) */
    bool replay_ = false;   /* proposing chosen_, not advancing */
    std::vector<std::pair<Xapian::docid, double>> chosen_; /* by docid */
    size_t chosen_at_ = 0;
    size_t essential_ = 0;  /* order_[essential_..n) propose works */
    Xapian::PostingIterator len_it_; /* the length list, without lens_ */
    Xapian::docid len_did_ = 0;
    Xapian::termcount len_ = 0; /* len_did_'s */
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

/* True when q is an OR whose members, nested ORs flattened as Xapian
 * flattens them, are all words of wqf 1: terms gets them in the order
 * Xapian would add them to its OrContext. */
bool or_of_words(const Xapian::Query &q, std::vector<std::string> &terms)
{
    if (q.get_type() != Xapian::Query::OP_OR)
        return false;
    for (size_t i = 0; i < q.get_num_subqueries(); i++) {
        const Xapian::Query sub = q.get_subquery(i);
        std::string term;
        if (plain_leaf(sub, term))
            terms.push_back(term);
        else if (!or_of_words(sub, terms))
            return false;
    }
    return terms.size() >= 2;
}

/* Whether every stem of prox is one of terms. */
bool holds_all(const std::vector<std::string> &terms,
               const ProximityQuery &prox)
{
    for (const std::string &s : prox.stems)
        if (std::find(terms.begin(), terms.end(), s) == terms.end())
            return false;
    return true;
}

Xapian::Query rewrite(const Xapian::Query &q,
                      const std::shared_ptr<const DocLengths> &lens,
                      double k1, double b, bool &changed,
                      std::shared_ptr<const ProximityQuery> &prox,
                      const std::shared_ptr<RankStop> &stop, size_t top,
                      const std::shared_ptr<const PageFilter> &page_filter)
{
    /* An OR of words as one source; with top, finding its page first
     * (filtered by pf, not null, when it is a FILTER's left side). */
    auto or_source = [&](std::vector<std::string> terms, size_t top_of,
                         const std::shared_ptr<const PageFilter> &pf) {
        changed = true;
        std::shared_ptr<const ProximityQuery> mine;
        if (prox && holds_all(terms, *prox))
            mine.swap(prox); /* attached: the caller adds no source */
        return Xapian::Query((new BM25OrSource(std::move(terms), lens, k1, b,
                                               std::move(mine), stop, top_of,
                                               pf))
                                 ->release());
    };
    std::vector<std::string> terms;
    if (top && page_filter) { /* the page of an OR of words filtered */
        if (q.get_type() == Xapian::Query::OP_FILTER &&
            q.get_num_subqueries() == 2 && or_of_words(q.get_subquery(0), terms))
            return Xapian::Query(Xapian::Query::OP_FILTER,
                                 or_source(std::move(terms), top, page_filter),
                                 q.get_subquery(1));
        top = 0; /* not that shape: no page first */
    }
    std::string term;
    if (plain_leaf(q, term)) {
        if (lens->len.empty())
            return q; /* no array: Xapian's own leaf is as fast */
        changed = true;
        return Xapian::Query((new BM25Source(term, lens, k1, b))->release());
    }
    terms.clear();
    if (or_of_words(q, terms))
        return or_source(std::move(terms), top, nullptr);
    const size_t scored = scored_children(q);
    if (!scored)
        return q;
    bool below = false;
    std::vector<Xapian::Query> subs;
    for (size_t i = 0; i < q.get_num_subqueries(); i++)
        subs.push_back(i < scored ? rewrite(q.get_subquery(i), lens, k1, b,
                                            below, prox, stop, 0, nullptr)
                                  : q.get_subquery(i));
    if (!below)
        return q;
    changed = true;
    return Xapian::Query(q.get_type(), subs.begin(), subs.end());
}

/* Calls f(term, in_or) for each word with_lengths would score from the
 * array; in_or when it is one of an OR of words (one BM25OrSource), not
 * a BM25Source of its own. */
template <typename F> void each_scored_word(const Xapian::Query &q, F &&f)
{
    std::string term;
    if (plain_leaf(q, term)) {
        f(term, false);
        return;
    }
    std::vector<std::string> terms;
    if (or_of_words(q, terms)) {
        for (const std::string &t : terms)
            f(t, true);
        return;
    }
    const size_t scored = scored_children(q);
    for (size_t i = 0; i < scored; i++)
        each_scored_word(q.get_subquery(i), f);
}

/* Past this many words scored each by a BM25Source of its own (not in
 * an OR of words), a query is left to Xapian's own scoring, array or
 * not.  Its works' lengths are then read in docid order, which glass
 * does cheaply, and a posting source costs a few virtual calls a posting
 * more than Xapian's own list: on the synthetic 1M's 1,000 whole titles
 * with a source a word (two passes each way), the array's time over
 * Xapian's was 0.30 to 0.62 for one to three words, 0.79 to 0.92 for
 * four to six, 0.95 to 0.99 for seven to nine, and 1.01 to 1.09 for ten
 * to sixteen.  Whole titles are ORs of words, one BM25OrSource each,
 * and not counted here. */
const size_t MAX_SOURCE_WORDS = 9;

} // namespace

double bm25_termweight(Xapian::doccount n, Xapian::doccount df)
{
    double tw = (n - df + 0.5) / (df + 0.5);
    if (tw < 2)
        tw = tw * 0.5 + 1;
    return std::log(tw) * 1.0; /* factor 1; wqf 1: (k3+1)/(k3+1) */
}

Xapian::Query with_lengths(const Xapian::Query &q,
                           const std::shared_ptr<const DocLengths> &lens,
                           double k1, double b,
                           std::shared_ptr<const ProximityQuery> *prox,
                           const std::shared_ptr<RankStop> &stop, size_t top,
                           const std::shared_ptr<const PageFilter> &page_filter)
{
    bool changed = false;
    std::shared_ptr<const ProximityQuery> none;
    return rewrite(q, lens, k1, b, changed, prox ? *prox : none, stop, top,
                   page_filter);
}

double seconds_now()
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

uint64_t test_stop_steps()
{
    const char *n = getenv("PDX_TEST_STOP_STEPS");
    return n ? strtoull(n, nullptr, 10) : 0;
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

namespace {

/* No lengths read: with_lengths then scores only ORs of words, their
 * lengths from the database's length list. */
std::shared_ptr<const DocLengths> no_array()
{
    static const std::shared_ptr<const DocLengths> none =
        std::make_shared<DocLengths>();
    return none;
}

/* The lengths that the handles of this process have read
 * (revision_share.hh). */
RevisionShare<DocLengths> shared_lengths;

} // namespace

namespace {
/* LengthCache::Mode as an int: AUTO unless a test says otherwise. */
std::atomic<int> test_mode{1};
} // namespace

unsigned long test_page_first(bool off, unsigned long *gated)
{
    page_first_off = off;
    const unsigned long g = pages_gated.exchange(0);
    if (gated)
        *gated = g;
    return pages_first.exchange(0);
}

unsigned long test_prune_audit(bool on, unsigned long *passed)
{
    prune_audit = on;
    const unsigned long n = audit_passed.exchange(0);
    if (passed)
        *passed = n;
    return audit_missed.exchange(0);
}

void test_doc_lengths(const char *mode)
{
    test_mode = mode && !strcmp(mode, "array")    ? 2
                : mode && !strcmp(mode, "xapian") ? 3
                                                  : 1;
}

std::shared_ptr<const DocLengths> LengthCache::get(shim_db *h,
                                                   const Xapian::Query &q)
{
    /* The scored words, and whether each is in an OR of words. */
    std::vector<std::pair<std::string, bool>> words;
    each_scored_word(q, [&](const std::string &t, bool in_or) {
        words.emplace_back(t, in_or);
    });
    size_t alone = 0;
    bool any_or = false;
    for (const auto &w : words) {
        alone += !w.second;
        any_or |= w.second;
    }
    if (words.empty() || alone > MAX_SOURCE_WORDS)
        return nullptr; /* nothing to score, or Xapian's is as fast */
    if (mode_ == Mode::UNREAD) /* the first query: test_doc_lengths */
        mode_ = static_cast<Mode>(test_mode.load());
    if (mode_ == Mode::XAPIAN || !one_local_reader(h))
        return nullptr;
    const Xapian::Database &db = h->subs[0];
    const Xapian::rev rev = db.get_revision();
    if (rent_.moved_to(rev))
        lens_.reset();
    if (!lens_) {
        const RevisionKey key(h->shards[0].dev, h->shards[0].ino,
                              db.get_uuid(), rev);
        lens_ = shared_lengths.find(key);
        if (lens_)
            return lens_; /* read by another handle */
        for (const auto &w : words)
            rent_.paid += db.get_termfreq(w.first);
        if (mode_ != Mode::ARRAY && rent_.paid < db.get_doccount())
            return any_or ? no_array() : nullptr;
        lens_ = shared_lengths.keep(key, read_doc_lengths(db));
    }
    return lens_;
}

} // namespace pdxshim
