/*
 * bm25.hh -- BM25 over an array of the works' lengths: the read
 * side's posting source that scores a word as Xapian's BM25Weight does,
 * and the cache of lengths a reading handle keeps for it
 * (searcher/bm25.cc says why and when).  Private to the library.
 */
#ifndef PDX_SHIM_BM25_HH
#define PDX_SHIM_BM25_HH

#include <xapian.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "revision_share.hh"

struct shim_db;

namespace pdxshim {

/* Every work's length (BM25's: the sum of its terms' wdf), by docid of
 * the database it was read from; 0 for a docid without a work. */
struct DocLengths {
    std::vector<Xapian::termcount> len;
};

/* Every work's length in db, read through its length list. */
std::shared_ptr<const DocLengths> read_doc_lengths(const Xapian::Database &db);

/* A reading handle's lengths, kept while its database stays at the
 * revision they were read at.  One per Reader (one handle per thread);
 * the arrays themselves are shared by the handles of a process. */
class LengthCache {
  public:
    /* The lengths to score q with, or null for Xapian's own scoring (an
     * empty array, before the lengths are read, when q has an OR of
     * words: with_lengths then rewrites only those ORs): null for a
     * query of no scored word or of more than nine scored
     * outside an OR of words (MAX_SOURCE_WORDS), for a handle with a
     * remote or writable database or several databases, and until the
     * postings that the handle's queries scored since the last commit
     * (q's included: the sum of its scored words' termfreqs) add up to
     * as many as the database has works; then the lengths are read
     * (once a revision), unless another handle of the process has read
     * them for the same database and revision: then at once, shared.
     * test_doc_lengths("array") or ("xapian"): at once, or never. */
    std::shared_ptr<const DocLengths> get(shim_db *h, const Xapian::Query &q);

  private:
    enum class Mode { UNREAD, AUTO, ARRAY, XAPIAN }; /* test_doc_lengths */
    std::shared_ptr<const DocLengths> lens_;
    Rent rent_; /* postings scored without lens_ at the revision */
    Mode mode_ = Mode::UNREAD;
};

/* A test hook, not for the product: the lengths' mode of the handles
 * that run their first query after the call: "array" reads them at the
 * first query, "xapian" never, NULL (the default) as get() says.  So
 * that tests/unit/test_bm25.cc can compare the two ways of scoring; the
 * library itself never calls it. */
void test_doc_lengths(const char *mode);

/* A test hook, not for the product: with off, no OR of words finds its
 * page before the match (BM25OrSource::choose(), with_lengths' top), so
 * that the test compares both ways.  Returns how many sources found
 * their page first since the last call, and in *gated (not null) how
 * many of them checked a sparse filter first (GATE_SHARE). */
unsigned long test_page_first(bool off, unsigned long *gated = nullptr);

/* A test hook, not for the product: with on, an OR of words' source
 * weighs in full (its words' weights and its bonus) each work its
 * bounds let it pass over, and counts those that could have reached
 * the least weight asked (a bound below a weight: works missed).
 * Returns that count since the last call, and in *passed (not null)
 * how many works were passed over and weighed. */
unsigned long test_prune_audit(bool on, unsigned long *passed = nullptr);

/* q with each scored word (a LEAF_TERM of wqf 1 where its weight counts:
 * under OR, AND, XOR, AND_MAYBE, and the left of FILTER and AND_NOT)
 * scored with the lengths: an OR whose members (nested ORs flattened)
 * are all such words becomes one posting source for them all
 * (BM25OrSource, pruned as MaxScore prunes), any other such word a
 * posting source of its own, and every other node stays as it is.  With
 * an empty lens (not read yet), only the ORs of words are rewritten,
 * their lengths read forward from the database's length list.  The
 * scores are BM25Weight(k1, 0, 1, b, 0.5)'s to the bit, summed in the
 * order Xapian's tree of ORs sums them, and so are the bounds and
 * estimates the matcher works with. */
/* BM25Weight's termweight (its idf) for a term in df of n works, wqf 1,
 * to the bit: what BM25Source and BM25OrSource weigh with, and the
 * proximity bonus's idf (proximity.cc). */
double bm25_termweight(Xapian::doccount n, Xapian::doccount df);

struct ProximityQuery;

/* CLOCK_MONOTONIC in seconds: the time budgets' clock. */
double seconds_now();
/* PDX_TEST_STOP_STEPS from the environment (RankStop), 0 when unset. */
uint64_t test_stop_steps();

/* When a ranking must end (shim_read.cc, run_search, says how): a
 * source that proposes works ends once seconds_now() passes `end`, and
 * sets `hit`.  The page is then the best of the works met, as
 * Elasticsearch's `timeout` gives it.  One matcher reads it: no lock. */
struct RankStop {
    double end;
    bool hit = false;
    /* For tests: PDX_TEST_STOP_STEPS=N in the environment, read as each
     * stop is made, ends a source at its first clock check from its Nth
     * step on, whatever the clock, so that a test meets a cut count or
     * ranking on an index small enough to finish within any budget
     * (tests/unit/test_count_cut.c).  0: the clock alone. */
    uint64_t test_steps;
    explicit RankStop(double seconds)
        : end(seconds_now() + seconds), test_steps(test_stop_steps())
    {
    }
    bool passed() const { return seconds_now() >= end; }
    /* A source's step: reads the clock at every `every`th call counted
     * in *steps (a few nanoseconds each) and, once the time is up, sets
     * hit and returns true, when the source ends. */
    bool due(uint64_t *steps, uint64_t every)
    {
        if (++*steps % every != 0 ||
            !(passed() || (test_steps && *steps >= test_steps)))
            return false;
        hit = true;
        return true;
    }
};

/* A query's filter as a page found first checks it work by work
 * (BM25OrSource::choose()): boolean terms under AND and OR (terms, empty
 * for none), and a range of SLOT_YEAR's values (year_lo, year_hi:
 * sortable_serialise()d, empty for no bound).  It must match exactly the
 * works the query's filter does. */
struct PageFilter {
    Xapian::Query terms;
    std::string year_lo, year_hi;
};

/* With prox (not null, *prox not null): the OR of words holding every
 * stem of *prox, if the query has one, carries the proximity bonus
 * (proximity.cc) in its source, which adds it to the weight of the
 * works it scores and to its bounds; *prox is then reset to null, and
 * the caller adds no ProximitySource.  (The first such OR found.)
 * With stop (not null), each OR of words' source ends at its time.
 * With top (not 0), when q itself is an OR of words carrying the bonus,
 * or a FILTER of one by the filter page_filter describes (not null), its
 * source finds the works a page of top can hold before the matcher asks
 * (BM25OrSource::choose() says how), and proposes only them: the
 * caller's promise that q is the whole query, ranked by weight alone,
 * with no decider, for a page ending at top, and without check_at_least
 * past it. */
Xapian::Query with_lengths(const Xapian::Query &q,
                           const std::shared_ptr<const DocLengths> &lens,
                           double k1, double b,
                           std::shared_ptr<const ProximityQuery> *prox = nullptr,
                           const std::shared_ptr<RankStop> &stop = nullptr,
                           size_t top = 0,
                           const std::shared_ptr<const PageFilter> &page_filter =
                               nullptr);

} // namespace pdxshim

#endif
