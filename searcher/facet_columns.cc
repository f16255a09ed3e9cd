/*
 * facet_columns.cc -- the facet values of every work, read once into
 * memory by docid, so that a faceted match counts a work's year,
 * categories, authors and subjects by array index.
 *
 * Why.  Facets count every match (shim_read.cc, Facets), and without
 * columns each matched work's values are read from their slots' value
 * streams (a chunk of the B-tree at a time, each block copied out of the
 * page cache by a read()), its joined lists split, and each name hashed
 * and looked up in a table of names.  For the page's requests on the
 * arXiv 101k (broad queries meet 42,000 works) the spies took 56% of a
 * faceted search's time (perf, 150 queries of the mix).  Lucene and Elasticsearch keep
 * such values as "doc values" with "global ordinals": a column by
 * document of small integers, each naming a value in a dictionary, read
 * once an index revision and shared by the searches.
 *
 * What.  One FacetColumn a facet: the works' value ids end to end (ids),
 * where each work's begin (at, one entry a docid), and the distinct
 * values.  A work's value is split as the spies split it (at
 * FACET_SEP) and each part is kept once a work, as a click on it counts
 * the work once; a value's id is found by its hash (key_hash) while
 * reading, and the values are kept end to end.  On the arXiv 101k the
 * four columns take 9.9 MB (98 bytes a work, most of it the author
 * column: 564,000 names of works, 229,000 distinct) and are read in 0.07
 * s; on the synthetic million, 122 MB and 1.25 s (3.5 million distinct
 * author names).
 *
 * When.  Reading them reads every work's values: a CLI's one faceted
 * search would pay several times its own cost.  So a handle counts the
 * works its faceted matches met without columns, and once that count
 * reaches the number of works (the rent-or-buy rule the works' lengths
 * follow, bm25.cc) it asks for the columns: a thread of the process
 * reads them on a database of its own, while the searches go on with
 * the value streams within their time budgets, and the first search
 * after the read takes them.  paperdex serve thus reads them within its
 * first few page requests, the CLI's one search never.  A commit (a new
 * revision) makes them stale: dropped, and the count starts again.  The
 * handles of a process share them (revision_share.hh).  Only a handle
 * on one local index that it does not write reads them; over several
 * databases, a remote shard or a writer, the spies read the slots.
 */
#include "facet_columns.hh"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "../common/hash_counts.hh"
#include "../common/shim_db.hh"
#include "revision_share.hh"

namespace pdxshim {

size_t FacetColumns::bytes() const
{
    size_t n = sizeof *this;
    for (const FacetColumn &c : col)
        n += c.at.capacity() * sizeof c.at[0] +
             c.ids.capacity() * sizeof c.ids[0] + c.bytes.capacity() +
             c.end.capacity() * sizeof c.end[0];
    return n;
}

void ColumnCounts::reset(const FacetColumns &cols, unsigned which)
{
    for (unsigned k = 0; k < SHIM_N_FACETS; k++) {
        if (!(which & (1u << k)))
            continue;
        if (n[k].size() != cols.col[k].size()) {
            n[k].assign(cols.col[k].size(), 0);
        } else {
            for (uint32_t id : touched[k])
                n[k][id] = 0;
        }
        touched[k].clear();
    }
}

namespace {

/* Value ids by the value's hash (key_hash: 64 bits, trusted as
 * HashCounts trusts them), open addressing; for reading only. */
class Interner {
  public:
    explicit Interner(FacetColumn &c) : c_(c), slots_(1024) {}
    uint32_t id(std::string_view v)
    {
        if (2 * (c_.size() + 1) > slots_.size())
            grow();
        const uint64_t h = key_hash(v);
        Slot &s = find(h);
        if (!s.hash) {
            s = Slot{h, static_cast<uint32_t>(c_.size())};
            c_.bytes.append(v);
            c_.end.push_back(c_.bytes.size());
        }
        return s.id;
    }

  private:
    struct Slot {
        uint64_t hash; /* 0: empty (key_hash is never 0) */
        uint32_t id;
    };
    Slot &find(uint64_t h)
    {
        const size_t mask = slots_.size() - 1;
        size_t i = static_cast<size_t>(h * 0x9E3779B97F4A7C15ULL) & mask;
        while (slots_[i].hash && slots_[i].hash != h)
            i = (i + 1) & mask;
        return slots_[i];
    }
    void grow()
    {
        std::vector<Slot> old(slots_.size() * 2);
        old.swap(slots_);
        for (const Slot &s : old)
            if (s.hash)
                find(s.hash) = s;
    }
    FacetColumn &c_;
    std::vector<Slot> slots_;
};

/* Set when the process ends: a read under way gives up. */
std::atomic<bool> stopping{false};

/* One slot's column: every value split at FACET_SEP (whole, when split
 * is false), each part once a work.  False when the process is ending. */
bool read_column(const Xapian::Database &db, Xapian::valueno slot,
                 bool split, FacetColumn &c)
{
    const Xapian::docid last = db.get_lastdocid();
    c.at.assign(static_cast<size_t>(last) + 2, 0);
    Interner interner(c);
    std::vector<Xapian::docid> in; /* by id: the last work holding it */
    Xapian::docid next = 0;     /* the first docid whose begin is unset */
    uint64_t read = 0;
    for (Xapian::ValueIterator v = db.valuestream_begin(slot);
         v != db.valuestream_end(slot); ++v) {
        const Xapian::docid d = v.get_docid();
        if (++read % 4096 == 0 && stopping)
            return false;
        while (next <= d)
            c.at[next++] = static_cast<uint32_t>(c.ids.size());
        const std::string joined = *v;
        const std::string_view all(joined);
        size_t i = 0;
        while (i < all.size()) {
            size_t j = split ? all.find(FACET_SEP, i) : all.size();
            if (j == std::string_view::npos)
                j = all.size();
            if (j > i) {
                const uint32_t id = interner.id(all.substr(i, j - i));
                if (id == in.size())
                    in.push_back(0);
                if (in[id] != d) {
                    in[id] = d;
                    c.ids.push_back(id);
                }
            }
            i = j + 1;
        }
    }
    while (next < c.at.size())
        c.at[next++] = static_cast<uint32_t>(c.ids.size());
    c.ids.shrink_to_fit();
    c.bytes.shrink_to_fit();
    c.end.shrink_to_fit();
    return true;
}

/* The columns the handles of this process have read, and the reads
 * under way.  Each read runs on a thread of its own, on a database of
 * its own, so that the search that asked for it goes on within its
 * time budget (on the synthetic million a read takes over a second).
 * What a thread read is held here until a handle takes it (or the next
 * read of that directory replaces it); then it lives while a handle
 * holds it.  Made once and never freed: a thread may
 * still be reading while the process ends (it then gives up at its next
 * 4,096 works, and the process waits for it). */
struct Reads {
    RevisionShare<FacetColumns> kept;
    std::mutex mu;
    std::map<std::pair<dev_t, ino_t>, std::thread> threads; /* by directory */
    std::map<std::pair<dev_t, ino_t>, std::shared_ptr<const FacetColumns>> newest;
    std::set<std::pair<dev_t, ino_t>> busy;

    /* Start reading the columns of the index at path (directory dir),
     * unless a read of it is under way. */
    void start(const std::string &path, std::pair<dev_t, ino_t> dir)
    {
        std::lock_guard<std::mutex> lock(mu);
        if (stopping || !busy.insert(dir).second)
            return;
        /* the reads done (their directories no longer busy: each left
         * the lock for the last time) */
        for (auto t = threads.begin(); t != threads.end();) {
            if (t->first != dir && busy.count(t->first)) {
                ++t;
                continue;
            }
            if (t->second.joinable())
                t->second.join();
            t = threads.erase(t);
        }
        std::thread &t = threads[dir];
        try {
            t = std::thread([this, path, dir] { run(path, dir); });
        } catch (const std::system_error &) {
            busy.erase(dir); /* no thread: read another time */
        }
    }
    void run(const std::string &path, std::pair<dev_t, ino_t> dir)
    {
        std::shared_ptr<const FacetColumns> cols;
        RevisionKey key;
        try {
            shard_id id;
            Xapian::Database db = open_local_reader(path, id);
            key = RevisionKey(id.dev, id.ino, db.get_uuid(), db.get_revision());
            cols = read_facet_columns(db);
        } catch (...) {
            /* a commit overtook the read, or the index went: the next
             * handle to pay the rent asks again */
        }
        if (cols)
            cols = kept.keep(key, cols);
        std::lock_guard<std::mutex> lock(mu);
        if (cols)
            newest[dir] = cols;
        busy.erase(dir);
    }
    /* A handle took cols, read for dir: from now on the handles keep
     * them alive (a directory swapped away keeps nothing here). */
    void taken(std::pair<dev_t, ino_t> dir,
               const std::shared_ptr<const FacetColumns> &cols)
    {
        std::lock_guard<std::mutex> lock(mu);
        auto i = newest.find(dir);
        if (i != newest.end() && i->second == cols)
            newest.erase(i);
    }
    /* At the process's end, the reads under way give up and end. */
    static void finish()
    {
        stopping = true;
        std::map<std::pair<dev_t, ino_t>, std::thread> ending;
        {
            std::lock_guard<std::mutex> lock(the().mu);
            ending.swap(the().threads);
        }
        for (auto &t : ending)
            if (t.second.joinable())
                t.second.join();
    }
    static Reads &the()
    {
        static Reads *r = [] {
            std::atexit(finish);
            return new Reads;
        }();
        return *r;
    }
};

/* ColumnCache::Mode as an int: AUTO unless a test says otherwise. */
std::atomic<int> test_mode{1};

} // namespace

std::shared_ptr<const FacetColumns> read_facet_columns(const Xapian::Database &db)
{
    static const Xapian::valueno slot[SHIM_N_FACETS] = {
        SLOT_YEAR, SLOT_CATS, SLOT_AUTHORS, SLOT_SUBJECTS};
    auto cols = std::make_shared<FacetColumns>();
    for (unsigned k = 0; k < SHIM_N_FACETS; k++)
        if (!read_column(db, slot[k], k != 0, cols->col[k]))
            return nullptr;
    return cols;
}

void test_facet_columns(const char *mode)
{
    test_mode = mode && !strcmp(mode, "columns")   ? 2
                : mode && !strcmp(mode, "streams") ? 3
                                                   : 1;
}

std::shared_ptr<const FacetColumns> ColumnCache::get(shim_db *h)
{
    if (mode_ == Mode::UNREAD) /* the first faceted search */
        mode_ = static_cast<Mode>(test_mode.load());
    if (mode_ == Mode::STREAMS || !one_local_reader(h))
        return nullptr;
    const Xapian::Database &db = h->subs[0];
    const Xapian::rev rev = db.get_revision();
    if (rent_.moved_to(rev))
        cols_.reset();
    if (!cols_) {
        Reads &reads = Reads::the();
        const shard_id &dir = h->shards[0];
        const RevisionKey key(dir.dev, dir.ino, db.get_uuid(), rev);
        cols_ = reads.kept.find(key);
        if (cols_) { /* read by another handle, or for this one */
            reads.taken(std::make_pair(dir.dev, dir.ino), cols_);
            return cols_;
        }
        if (mode_ == Mode::COLUMNS) { /* a test's: at once, here */
            cols_ = read_facet_columns(db);
            if (cols_)
                cols_ = reads.kept.keep(key, cols_);
            return cols_;
        }
        if (rent_.paid >= db.get_doccount()) {
            /* the search goes on with the streams; the rent starts
             * again, in case this read gives up (a commit overtook it) */
            reads.start(dir.path, std::make_pair(dir.dev, dir.ino));
            rent_.paid = 0;
        }
    }
    return cols_;
}

} // namespace pdxshim
