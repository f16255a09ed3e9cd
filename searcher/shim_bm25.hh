/*
 * shim_bm25.hh -- BM25 over an array of the works' lengths: the read
 * side's posting source that scores a word as Xapian's BM25Weight does,
 * and the cache of lengths a reading handle keeps for it
 * (searcher/shim_bm25.cc says why and when).  Private to the library.
 */
#ifndef PDX_SHIM_BM25_HH
#define PDX_SHIM_BM25_HH

#include <xapian.h>

#include <memory>
#include <vector>

struct shim_db;

namespace pdxshim {

/* Every work's length (BM25's: the sum of its terms' wdf), by docid of
 * the database it was read from; 0 for a docid without a work. */
struct DocLengths {
    std::vector<Xapian::termcount> len;
};

/* A reading handle's lengths, kept while its databases stay at the
 * revisions they were read at.  One per Reader (one handle per thread). */
class LengthCache {
  public:
    /* The lengths to score a query with, or null for Xapian's own
     * scoring: null for a query of no scored word or of more than nine
     * (MAX_SOURCE_WORDS), for a handle with a remote or writable
     * database, and
     * until the postings that the handle's queries scored since the last
     * commit (q's included: scored_postings) add up to as many as the
     * database has works; then the lengths are read (once a revision).
     * PDX_DOC_LENGTHS=array or =xapian in the environment: at once, or
     * never. */
    std::shared_ptr<const DocLengths> get(shim_db *h, const Xapian::Query &q);
    /* Whether the last get() gave lengths (tests). */
    bool used() const { return used_; }

  private:
    std::shared_ptr<const DocLengths> lens_;
    std::vector<Xapian::rev> revs_; /* of h->subs when lens_ was read */
    double walked_ = 0;  /* postings scored without lens_ at revs_ */
    int mode_ = 0; /* PDX_DOC_LENGTHS: 0 unread, 1 auto, 2 array, 3 xapian */
    bool used_ = false;
};

/* The postings q's scored words hold: the sum of their termfreqs. */
Xapian::doccount scored_postings(const Xapian::Database &db,
                                 const Xapian::Query &q);

/* q with each scored word (a LEAF_TERM of wqf 1 where its weight counts:
 * under OR, AND, XOR, AND_MAYBE, and the left of FILTER and AND_NOT) a
 * posting source scoring it with the lengths; every other node as it
 * is.  The scores are BM25Weight(k1, 0, 1, b, 0.5)'s to the bit, and so
 * are the bounds the matcher prunes with. */
Xapian::Query with_lengths(const Xapian::Query &q, const Xapian::Database &db,
                           const std::shared_ptr<const DocLengths> &lens,
                           double k1, double b);

} // namespace pdxshim

#endif
