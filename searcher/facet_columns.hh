/*
 * facet_columns.hh -- the facet values of every work, in memory by
 * docid (facet_columns.cc says why and when they are read).
 */
#ifndef PDX_FACET_COLUMNS_HH
#define PDX_FACET_COLUMNS_HH

#include <xapian.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "revision_share.hh"
#include "shim_read.h"

struct shim_db;

namespace pdxshim {

/* One facet's values of every work.  Work d's values are the ids
 * ids[at[d]] .. ids[at[d + 1] - 1], each once, in the order written (no
 * entry past at's end: a docid above the last work's has none); name(id)
 * is the value: a year as its slot holds it (sortable_serialise), a
 * category, subject or author name as written. */
struct FacetColumn {
    std::vector<uint32_t> at;
    std::vector<uint32_t> ids;
    std::string bytes;         /* the values, end to end */
    std::vector<uint64_t> end; /* value id's end in bytes */
    size_t size() const { return end.size(); }
    std::string_view name(uint32_t id) const
    {
        const uint64_t from = id ? end[id - 1] : 0;
        return std::string_view(bytes.data() + from, end[id] - from);
    }
};

/* The year, category, author and subject columns (SHIM_FACET_* order). */
struct FacetColumns {
    FacetColumn col[SHIM_N_FACETS];
    /* The memory they take, about. */
    size_t bytes() const;
};

/* A handle's counters by value id, kept from one faceted search to the
 * next: a million works' author counters take 14 MB, which a search
 * would otherwise allocate and clear.  Only the counters a search
 * touched (listed as it first counts them) are cleared, by the next. */
struct ColumnCounts {
    std::vector<uint32_t> n[SHIM_N_FACETS];
    std::vector<uint32_t> touched[SHIM_N_FACETS];
    /* Every counter of the facets in `which` at 0, as many as cols has
     * values. */
    void reset(const FacetColumns &cols, unsigned which);
};

/* Every work's facet values in db, read through the slots' value
 * streams; null when the process is ending. */
std::shared_ptr<const FacetColumns> read_facet_columns(const Xapian::Database &db);

/* A reading handle's facet columns, kept while its database stays at the
 * revision they were read at.  One per Reader (one handle per thread);
 * the columns themselves are shared by the handles of a process
 * (revision_share.hh). */
class ColumnCache {
  public:
    /* The columns to count h's facets with, or null for the value
     * streams: null for a handle with a remote or writable database or
     * several databases; null until another handle of the process has
     * read them for the same database and revision (then at once,
     * shared), or until the works that the handle's faceted matches met
     * since the last commit add up to as many as the database has works:
     * then a thread of the process reads them, and they are taken by
     * the first search after it is done.
     * test_facet_columns("columns") or ("streams"): read at once by the
     * handle itself, or never. */
    std::shared_ptr<const FacetColumns> get(shim_db *h);
    /* The counters the handle's searches count into. */
    ColumnCounts counts;
    /* A faceted match counted without columns met `works` works. */
    void met(uint64_t works) { rent_.paid += static_cast<double>(works); }

  private:
    enum class Mode { UNREAD, AUTO, COLUMNS, STREAMS };
    std::shared_ptr<const FacetColumns> cols_;
    Rent rent_; /* works met without cols_ at the revision */
    Mode mode_ = Mode::UNREAD;
};

/* A test hook, not for the product: the columns' mode of the handles
 * that count their first facets after the call: "columns" reads them at
 * the first faceted search, "streams" never, NULL (the default) as get()
 * says; so that tests compare the two ways of counting.  The library
 * itself never calls it. */
void test_facet_columns(const char *mode);

} // namespace pdxshim

#endif
