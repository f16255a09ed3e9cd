/*
 * proximity.hh -- the proximity part of paperdex's default ranking:
 * a bonus for the works whose titles hold a query's words next to each
 * other.  The model, its formula and how its
 * defaults were chosen are in proximity.cc; this header is what
 * shim_read.cc (the ranking) and hit_text.cc (--explain) share of it.
 */
#ifndef PDX_PROXIMITY_HH
#define PDX_PROXIMITY_HH

#include <xapian.h>

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "../common/shim_db.hh"

namespace pdxshim {

/* The pairs a query keeps at most: a longer one, its heaviest. */
const size_t MAX_PAIRS = 32;

/* The query's side of the bonus: its words in the order written, the
 * pairs of neighbours (at most MAX_PAIRS), and each pair's weight. */
struct ProximityQuery {
    std::vector<std::string> stems; /* distinct default-field stems of the pairs */
    struct Pair {
        size_t a, b;   /* indexes into stems: a written just before b */
        double weight; /* weight * max(idf(a), idf(b)) */
    };
    std::vector<Pair> pairs;
    unsigned window = 0;      /* words apart at most */
    double max_weight = 0;    /* the bound: what no work can pass */
    /* place_sums[n]: the n largest weights of the window's places
     * summed (pair_max_title says why), n up to 2 * window. */
    std::vector<double> place_sums;
    /* Over one local index of layout 9: other handles on it at the same
     * revision (the searcher's, shim_read.cc cursor_dbs), which the
     * words' cursors take in turn, so that each word's chunks are read
     * through a B-tree cursor of its own.  open_dbs(false) gives those
     * already open, open_dbs(true) opens them too; a reader asks for
     * them to be opened once its cursors have read dbs_after chunks
     * (opening costs more than a few chunk reads save).  Unset, or
     * empty: every cursor reads through the database it is given. */
    std::function<std::vector<Xapian::Database>(bool open)> open_dbs;
    unsigned long dbs_after = 0;

    /* The pairs of neighbouring words of `query`, parsed from `text`:
     * its positive words in the default field, in the order the text
     * writes them (read by Xapian's TermGenerator with `stem`, the stems
     * in `stops` left out, as the indexer leaves them out), weighted
     * from db's statistics -- but for the neighbours inside one of
     * `phrases` (the stems of the query's phrases, NEAR and ADJ), which
     * the query already ties together.  Empty (no pairs) for a query of
     * fewer than two such words. */
    ProximityQuery(const Xapian::Database &db, const Xapian::Query &query,
                   const std::string &text, const Xapian::Stem &stem,
                   const std::set<std::string> &stops, double weight,
                   unsigned window,
                   const std::vector<std::vector<std::string>> &phrases = {});

    /* Pair p's bound: what it adds at most. */
    double pair_max(size_t p) const;

    /* Pair p's bound in a work whose default-field wdfs of its two words
     * are wdf_a and wdf_b (proximity.cc says why it holds). */
    double pair_max(size_t p, Xapian::termcount wdf_a,
                    Xapian::termcount wdf_b) const;

    /* Pair p's bound in a work whose title holds its two words
     * title_a and title_b times (their title terms' wdfs); never more
     * than pair_max(p, wdf_a, wdf_b) for the wdfs those allow. */
    double pair_max_title(size_t p, Xapian::termcount title_a,
                          Xapian::termcount title_b) const;

    /* The terms whose positions score() needs: each stem with the
     * title prefix, in stems' order. */
    std::vector<std::string> asked() const;

    /* The bonus of a work whose positions of asked() are pos (same
     * order).  With parts, each pair's co-occurrence in the title and
     * its score are appended, in pairs' order. */
    struct Part {
        double title_tp, score;
    };
    double score(const std::vector<std::vector<Xapian::termpos>> &pos,
                 std::vector<Part> *parts = nullptr) const;
    /* Pair p's part of score(), from the same positions. */
    double pair_score(size_t p,
                      const std::vector<std::vector<Xapian::termpos>> &pos) const;
};

/* What reads a work's title positions for the bonus, in docid order.
 * A positions value finds a term by a 14-bit hash, and names an entry
 * only where two terms the work holds share one (common/positions.cc):
 * an entry found for a term the work lacks may be another term's.  So
 * the reader first asks whether the work's title holds each word -- its
 * title term's posting list, moved forward, or what the caller knows --
 * and reads positions only when some pair has both its words there. */
class ProximityReader {
    std::shared_ptr<const ProximityQuery> pq;
    std::vector<std::string> terms; /* pq->asked() */
    Xapian::Database db;
    Xapian::ValueIterator values;
    std::vector<Xapian::PostingIterator> lists; /* one a title term */
    std::vector<char> opened; /* lists[i] opened since init or rewind */
    bool valued = false;      /* values opened since then */
    /* Layout 9 (common/chunks.cc): each term's positions from its
     * chunks, a cursor a term, opened when first asked since init,
     * keeping the chunks it read (a rewind goes back through them). */
    bool chunked = false;
    /* The handles the cursors read through (pq->open_dbs), empty: db;
     * the chunks the cursors read since init; whether they were asked
     * to be opened. */
    std::vector<Xapian::Database> own;
    unsigned long chunk_reads = 0;
    bool own_asked = false;
    void take_dbs(bool open);
    std::shared_ptr<const ChunkSpace> space;
    std::vector<std::unique_ptr<ChunkCursor>> cursors;
    std::vector<Xapian::docid> cursor_at; /* the work each was asked */
    std::vector<Xapian::docid> got_at;    /* the work each was read for */
    std::vector<size_t> order;            /* weigh()'s pairs, by bound */
    std::vector<char> held;  /* the terms whose positions weigh() reads */
    std::vector<char> has;   /* the title terms the work holds */
    std::vector<std::string> asked;
    std::vector<std::vector<Xapian::termpos>> got, pos;

  public:
    explicit ProximityReader(std::shared_ptr<const ProximityQuery> pq);
    const ProximityQuery &query() const { return *pq; }
    /* Over db (a database of its own, or one of several as Xapian hands
     * a posting source each). */
    void init(const Xapian::Database &db);
    /* Back to the start: the works asked next may come before those
     * asked so far (each list and the values reopened when asked). */
    void rewind();
    /* The bonus of work did (asked in increasing order).  here, when
     * not null, says for each stem (pq->stems' order) whether the work's
     * title holds it, which the caller knows.  With parts, each pair's
     * (ProximityQuery::score), for --explain: a reader made for the one
     * work.  With pair_ub (each pair's bound in this work, 0 for a pair
     * its title lacks a word of), a bonus below need may be given up on
     * before every word is read (an index of layout 9, where each word
     * is a read of its own): then the result is -1, and the bonus is
     * less than need. */
    double weigh(Xapian::docid did, const std::vector<char> *here = nullptr,
                 std::vector<ProximityQuery::Part> *parts = nullptr,
                 const double *pair_ub = nullptr, double need = 0);
};

/* The bonus as a posting source, for the right side of an AND_MAYBE: it
 * stands on whatever work it is asked about (every work "matches", most
 * with weight 0), so it never changes a match set or an estimate, and
 * weighs each work the left side proposes by its positions.  Local
 * databases only (the remote backend cannot rebuild it). */
class ProximitySource : public Xapian::PostingSource {
    std::shared_ptr<const ProximityQuery> pq;
    mutable ProximityReader reader; /* moved forward by get_weight */
    Xapian::Database db;
    Xapian::docid did = 0, last = 0;
    mutable Xapian::docid weighed = 0;
    mutable double weight = 0;

  public:
    explicit ProximitySource(std::shared_ptr<const ProximityQuery> pq);
    Xapian::doccount get_termfreq_min() const override;
    Xapian::doccount get_termfreq_est() const override;
    Xapian::doccount get_termfreq_max() const override;
    Xapian::docid get_docid() const override { return did; }
    double get_weight() const override;
    void next(double min_wt) override;
    void skip_to(Xapian::docid did, double min_wt) override;
    bool at_end() const override { return did > last; }
    Xapian::PostingSource *clone() const override;
    void init(const Xapian::Database &db) override;
    std::string get_description() const override;
};

} // namespace pdxshim

#endif
