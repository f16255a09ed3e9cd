/*
 * shim_read.cc -- the read side's entry points behind searcher/shim_read.h:
 * a search run (the parsed query, filters, BM25 or a date order, the
 * facets counted over every match, pseudo-relevance feedback by Bo1),
 * similar works and statistics.  The query language is query_parse.cc's,
 * explain and snippets hit_text.cc's, "did you mean" suggest.cc's; the
 * exception fence and the handle are common/shim.cc's, the layout
 * common/layout.h's.
 */
#include <xapian.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "facet_columns.hh"
#include "proximity.hh"
#include "../common/hash_counts.hh"
#include "read_side.hh"
extern "C" {
#include "../common/text.h"
#include "qscan.h"
}

using namespace pdxshim;

namespace {

const char *const LAYOUT_KEY = LAYOUT_META_LAYOUT;
const char *const UPDATED_KEY = LAYOUT_META_UPDATED;

} // namespace

/* How long a count may take: a query's own time limit, or
 * SHIM_COUNT_SECONDS when it has none (0). */
static double count_seconds(double seconds)
{
    return seconds > 0 ? seconds : SHIM_COUNT_SECONDS;
}

Reader &reader(shim_db *h)
{
    if (!h->reader)
        h->reader.reset(new Reader(h));
    return static_cast<Reader &>(*h->reader);
}


/* Facet counts over every match: each work counts once for each of its
 * years, categories and authors (multi-valued fields count per value).
 *
 * The counting is Xapian's own ValueCountMatchSpy, one per facet slot,
 * because it is the spy xapian-tcpsrv knows: over tcp:// shards each
 * server counts its own matches and Xapian merges the counts, so facets
 * work on remote shards as on local ones.  It counts whole slot values;
 * a category or author slot holds a work's values joined by FACET_SEP,
 * so finish() splits each distinct joined value and adds its count to
 * each of its parts (a part named twice in one work counts once).  Over
 * local databases the spies are paperdex's own (ValueSpy, AuthorSpy:
 * the same counts, from the value streams), and over one local index
 * whose columns a thread has read (facet_columns.cc) one ColumnSpy
 * counts every facet by value id, from memory.
 *
 * An entry's count is what a click on it gives: the page adds the value
 * as a filter, and filters of one kind all hold (pdx_query.filters_all).
 * Years, categories and subjects are counted as their filters match.  An
 * author is counted by person first (person_key: a name read once, its
 * folded family and given name), which ranks the people; then each
 * person kept is counted again as the author filter of its label reads
 * it (author_name_query), since that filter also takes the works that
 * know the person by an initial only ("Y. Liu" for "Yang Liu"). */
/* The author facet's pool of candidate forms (Facets::people). */
#define PEOPLE_POOL 50
#define PEOPLE_POOL_MIN 500
/* ... and the people counted again as a click (Facets::finish). */
#define RECOUNT_MORE 3
#define RECOUNT_MIN 20

/* Counts by name for the author facet (common/hash_counts.hh says why
 * a table of its own). */
typedef HashCounts NameCounts;

/* A name to count: its hash, and where it lies in the caller's text. */
struct Named {
    uint64_t hash;
    size_t at, len;
};

/* The names of a list joined by FACET_SEP, each once (by hash),
 * appended to out; `at` is where joined lies in the text the names will
 * be read from. */
static void split_names(std::string_view joined, size_t at,
                        std::vector<Named> &out)
{
    const size_t first = out.size();
    size_t i = 0;
    while (i < joined.size()) {
        size_t j = joined.find(FACET_SEP, i);
        if (j == std::string_view::npos)
            j = joined.size();
        if (j > i)
            out.push_back(Named{key_hash(joined.substr(i, j - i)), at + i, j - i});
        i = j + 1;
    }
    /* each name once: a short list by comparing, a long one (a
     * collaboration's hundreds of names) by sorting */
    const auto begin = out.begin() + static_cast<ptrdiff_t>(first);
    const auto by_hash = [](const Named &a, const Named &b) {
        return a.hash < b.hash;
    };
    const auto same = [](const Named &a, const Named &b) {
        return a.hash == b.hash;
    };
    if (out.size() - first > 16) {
        std::sort(begin, out.end(), by_hash);
        out.erase(std::unique(begin, out.end(), same), out.end());
        return;
    }
    auto end = begin;
    for (auto k = begin; k != out.end(); ++k)
        if (std::find_if(begin, end, [&](const Named &n) { return same(n, *k); }) == end)
            *end++ = *k;
    out.erase(end, out.end());
}

/* k names of text at once, n works each: their slots are fetched from
 * memory together (a probe is a cache miss; k misses overlap). */
static void count_names(NameCounts &to, const Named *names, size_t k,
                        const char *text, uint32_t n)
{
    to.reserve_more(k);
    for (size_t i = 0; i < k; i++)
        to.prefetch(names[i].hash);
    for (size_t i = 0; i < k; i++)
        to.add(std::string_view(text + names[i].at, names[i].len),
               names[i].hash, n);
}

/* A spy's values of one slot, by work.  Over one database, a stream
 * read forward (the matcher meets the works in docid order; a docid
 * behind the last one asked opens it again): it reads each chunk of
 * values once, where a document's get_value() finds the chunk from the
 * B-tree's root and copies it, at every work.  Over several, a spy's
 * docids are each its own database's: the document's value. */
class SlotValues {
  public:
    SlotValues(const Xapian::Database *one, Xapian::valueno slot)
        : slot_(slot), one_(one != nullptr)
    {
        if (one)
            db_ = *one;
    }
    std::string operator()(const Xapian::Document &doc)
    {
        if (!one_)
            return doc.get_value(slot_);
        const Xapian::docid d = doc.get_docid();
        const Xapian::ValueIterator end;
        if (!asked_ || d < asked_)
            it_ = db_.valuestream_begin(slot_);
        asked_ = d;
        if (it_ != end && it_.get_docid() < d)
            it_.skip_to(d);
        return it_ != end && it_.get_docid() == d ? *it_ : std::string();
    }

  private:
    Xapian::valueno slot_;
    bool one_;
    Xapian::Database db_;
    Xapian::ValueIterator it_;
    Xapian::docid asked_ = 0; /* 0: not open */
};

/* The author facet's spy over local databases: each matched work's
 * names, counted as written into a NameCounts as the match runs, each
 * name once a work.  Xapian's ValueCountMatchSpy would first keep every
 * distinct list of names in a std::map (a tree of 80,000 long strings
 * for a broad query); it is used where the spy must travel to a remote
 * shard, which runs only Xapian's own. */
class AuthorSpy : public Xapian::MatchSpy {
  public:
    /* works: about how many works the match will bring (the ranking's
     * estimate), so that the table is sized once: a work names about
     * three people no earlier work of the match did. */
    AuthorSpy(size_t works, Xapian::docid last, const Xapian::Database *one)
        : forms(std::min<size_t>(std::max<size_t>(works, 1024), 1u << 22) * 3),
          matched(last / 64 + 1), values_(one, SLOT_AUTHORS)
    {
    }
    void operator()(const Xapian::Document &doc, double) override
    {
        seen++;
        const Xapian::docid d = doc.get_docid();
        if (d / 64 < matched.size())
            matched[d / 64] |= uint64_t(1) << (d % 64);
        const std::string v = values_(doc);
        if (v.empty())
            return;
        /* counted by the batch: a batch's probes overlap in memory */
        split_names(v, batch.size(), pending);
        batch += v;
        if (pending.size() >= 64)
            flush();
    }
    /* Count what is pending (before forms is read). */
    void flush()
    {
        count_names(forms, pending.data(), pending.size(), batch.data(), 1);
        pending.clear();
        batch.clear();
    }
    /* The names of one joined value, each once, n works each. */
    static void add_names(std::string_view joined, uint32_t n, NameCounts &to)
    {
        std::vector<Named> names;
        split_names(joined, 0, names);
        count_names(to, names.data(), names.size(), joined.data(), n);
    }
    /* The names not yet counted: their works' values end to end. */
    std::string batch;
    std::vector<Named> pending;
    NameCounts forms;
    uint64_t seen = 0; /* works met */
    /* the works met, a bit each by docid: the recount's "within the
     * match" (Facets::recount) */
    std::vector<uint64_t> matched;

  private:
    SlotValues values_;
};

/* Counts the works of a match that are in a set (AuthorSpy::matched). */
class InMatched : public Xapian::MatchSpy {
  public:
    explicit InMatched(const std::vector<uint64_t> &set) : set_(set) {}
    void operator()(const Xapian::Document &doc, double) override
    {
        const Xapian::docid d = doc.get_docid();
        n += d / 64 < set_.size() && (set_[d / 64] >> (d % 64) & 1);
    }
    uint64_t n = 0;

  private:
    const std::vector<uint64_t> &set_;
};

/* A year, category or subject facet's spy over local databases: works
 * by whole slot value, as Xapian's ValueCountMatchSpy counts them, in a
 * hash table: its std::map compared each work's value with a dozen others
 * (a third of a year, category and subject count's time).  Over a remote
 * shard Xapian's own spy is used, the one xapian-tcpsrv knows. */
class ValueSpy : public Xapian::MatchSpy {
  public:
    ValueSpy(Xapian::valueno slot, const Xapian::Database *one)
        : values_(one, slot)
    {
    }
    void operator()(const Xapian::Document &doc, double) override
    {
        seen++;
        std::string v = values_(doc);
        if (v.empty())
            return;
        /* Works of one year or list of categories often follow each
         * other in docid order: the last value's count is kept at hand
         * (a map's element stays where it is). */
        if (!last_ || v != last_->first)
            last_ = &*counts.try_emplace(std::move(v), 0).first;
        ++last_->second;
    }
    std::unordered_map<std::string, uint64_t> counts;
    uint64_t seen = 0; /* works met */

  private:
    SlotValues values_;
    std::pair<const std::string, uint64_t> *last_ = nullptr;
};

/* Every facet's spy over a database whose columns are in memory
 * (facet_columns.cc): each matched work's value ids counted by index,
 * into the handle's ColumnCounts.  Works are counted by the batch: the
 * counters of a batch's values are fetched from memory together (on a
 * million works the author counters take 14 MB, and each is a cache
 * miss; a batch's misses overlap).  flush() before reading the counts. */
class ColumnSpy : public Xapian::MatchSpy {
  public:
    ColumnSpy(std::shared_ptr<const FacetColumns> read, ColumnCounts &into,
              unsigned which, Xapian::docid last)
        : cols(std::move(read)), matched(last / 64 + 1), counts_(into)
    {
        counts_.reset(*cols, which);
        for (unsigned k = 0; k < SHIM_N_FACETS; k++)
            if (which & (1u << k))
                k_[n_k_++] = k;
    }
    void operator()(const Xapian::Document &doc, double) override
    {
        seen++;
        const Xapian::docid d = doc.get_docid();
        if (d / 64 < matched.size())
            matched[d / 64] |= uint64_t(1) << (d % 64);
        batch_[n_batch_++] = d;
        if (n_batch_ == BATCH)
            flush();
    }
    void flush()
    {
        for (unsigned i = 0; i < n_k_; i++) {
            const FacetColumn &c = cols->col[k_[i]];
            uint32_t *n = counts_.n[k_[i]].data();
            std::vector<uint32_t> &touched = counts_.touched[k_[i]];
            for (unsigned b = 0; b < n_batch_; b++) {
                const Xapian::docid d = batch_[b];
                if (d + 1 < c.at.size())
                    for (uint32_t j = c.at[d]; j < c.at[d + 1]; j++)
                        __builtin_prefetch(&n[c.ids[j]], 1);
            }
            for (unsigned b = 0; b < n_batch_; b++) {
                const Xapian::docid d = batch_[b];
                if (d + 1 < c.at.size())
                    for (uint32_t j = c.at[d]; j < c.at[d + 1]; j++)
                        if (n[c.ids[j]]++ == 0)
                            touched.push_back(c.ids[j]);
            }
        }
        n_batch_ = 0;
    }
    /* f(value, count) for each value of facet k counted at least
     * `least` times, in the order first counted. */
    template <class F> void each(unsigned k, F f, uint32_t least = 1) const
    {
        const std::vector<uint32_t> &n = counts_.n[k];
        for (uint32_t id : counts_.touched[k])
            if (n[id] >= least)
                f(cols->col[k].name(id), n[id]);
    }
    /* The least count that `want` values of facet k reach (ties
     * included), from a histogram of the counts; 1 when fewer than
     * `want` were counted.  A broad query counts 100,000 names, of which
     * people() wants the 1,000 most frequent. */
    uint32_t floor(unsigned k, size_t want) const
    {
        const uint32_t CAP = 4096;
        std::vector<uint32_t> hist(CAP + 1, 0);
        for (uint32_t id : counts_.touched[k])
            hist[std::min(counts_.n[k][id], CAP)]++;
        size_t above = 0;
        for (uint32_t c = CAP; c >= 1; c--)
            if ((above += hist[c]) >= want)
                return c;
        return 1;
    }
    std::shared_ptr<const FacetColumns> cols;
    uint64_t seen = 0;             /* works met */
    std::vector<uint64_t> matched; /* as AuthorSpy::matched */

  private:
    static const unsigned BATCH = 16;
    ColumnCounts &counts_;
    unsigned k_[SHIM_N_FACETS], n_k_ = 0; /* the facets counted */
    Xapian::docid batch_[BATCH];
    unsigned n_batch_ = 0;
};

class Facets {
  public:
    using Top = std::vector<std::pair<std::string, uint64_t>>;

    Facets(unsigned which, int rules, bool local)
        : which_(which), rules_(rules), local_(local)
    {
    }

    /* Fresh spies on enq, for one attempt at the match, which is to
     * bring about `works` works; one, when not null, is the database
     * searched, when it is one; cols, when not null, its facet columns
     * (then one spy counts every facet from them, into counts). */
    void attach(Xapian::Enquire &enq, size_t works, Xapian::docid last,
                const Xapian::Database *one,
                std::shared_ptr<const FacetColumns> cols,
                ColumnCounts &counts)
    {
        static const Xapian::valueno slot[SHIM_N_FACETS] = {
            SLOT_YEAR, SLOT_CATS, SLOT_AUTHORS, SLOT_SUBJECTS};
        columns_.reset();
        if (cols && local_) {
            for (unsigned k = 0; k < SHIM_N_FACETS; k++) {
                spy_[k].reset();
                local_spy_[k].reset();
                top_[k].clear();
            }
            authors_.reset();
            columns_.reset(new ColumnSpy(std::move(cols), counts, which_, last));
            enq.add_matchspy(columns_.get());
            return;
        }
        for (unsigned k = 0; k < SHIM_N_FACETS; k++) {
            spy_[k].reset();
            local_spy_[k].reset();
            top_[k].clear();
            if (k == 2 && local_)
                authors_.reset();
            if (!(which_ & (1u << k)))
                continue;
            if (k == 2 && local_) {
                authors_.reset(new AuthorSpy(works, last, one));
                enq.add_matchspy(authors_.get());
            } else if (local_) {
                local_spy_[k].reset(new ValueSpy(slot[k], one));
                enq.add_matchspy(local_spy_[k].get());
            } else {
                spy_[k].reset(new Xapian::ValueCountMatchSpy(slot[k]));
                enq.add_matchspy(spy_[k].get());
            }
        }
    }

    /* After the match of `query` (with its filter and decider): each
     * facet's `limit` most frequent values, most frequent first (ties in
     * value order).  The author entries are counted again by their
     * filter, for as long as `seconds` allows (0: SHIM_COUNT_SECONDS);
     * those not reached are left out, and *cut says how many. */
    void finish(shim_db *h, const Xapian::Query &query,
                const Xapian::MatchDecider *decider, size_t limit,
                double seconds, size_t *cut)
    {
        *cut = 0;
        if (columns_)
            columns_->flush();
        for (unsigned k = 0; k < SHIM_N_FACETS; k++) {
            if (!spy_[k] && !local_spy_[k] && !(k == 2 && authors_) &&
                !(columns_ && (which_ & (1u << k))))
                continue;
            if (k == 2 && authors_)
                authors_->flush();
            Top top = k == 2 ? people(limit) : values(k);
            std::stable_sort(top.begin(), top.end(), by_count);
            /* People are counted again as a click counts them, which
             * adds the works that know them by an initial: a few more
             * than the limit are, so that those can rise into it. */
            const size_t keep =
                k == 2 ? std::max(limit * RECOUNT_MORE, limit + RECOUNT_MIN)
                       : limit;
            if (top.size() > keep)
                top.resize(keep);
            if (k == 2) {
                /* a spy over several databases sees each work by its
                 * docid in its own database: the set is one database's */
                *cut = recount(h, query, decider, top, seconds,
                               columns_ ? &columns_->matched
                               : authors_ && h->shards.size() == 1
                                   ? &authors_->matched
                                   : nullptr);
                if (top.size() > limit) {
                    *cut = 0; /* what was counted fills the list */
                    top.resize(limit);
                } else if (*cut) {
                    *cut = std::min(*cut, limit - top.size());
                }
            }
            top_[k] = std::move(top);
        }
    }

    const Top &top(unsigned k) const { return top_[k]; }

    /* The works the spies met in the match. */
    uint64_t seen() const
    {
        if (columns_)
            return columns_->seen;
        for (unsigned k = 0; k < SHIM_N_FACETS; k++) {
            if (local_spy_[k])
                return local_spy_[k]->seen;
            if (spy_[k])
                return spy_[k]->get_total();
            if (k == 2 && authors_)
                return authors_->seen;
        }
        return 0;
    }

  private:
    static bool by_count(const std::pair<std::string, uint64_t> &a,
                         const std::pair<std::string, uint64_t> &b)
    {
        return a.second > b.second;
    }

    /* Year, category or subject counts by value, in value order. */
    Top values(unsigned k) const
    {
        std::vector<std::pair<std::string, uint64_t>> counted;
        if (columns_)
            columns_->each(k, [&counted](std::string_view v, uint64_t n) {
                counted.emplace_back(std::string(v), n);
            });
        else if (local_spy_[k])
            counted.assign(local_spy_[k]->counts.begin(),
                           local_spy_[k]->counts.end());
        else
            for (Xapian::TermIterator v = spy_[k]->values_begin();
                 v != spy_[k]->values_end(); ++v)
                counted.emplace_back(*v, v.get_termfreq());
        std::map<std::string, uint64_t> c;
        for (const auto &[joined, n] : counted) {
            if (k == 0) {
                c[std::to_string(static_cast<int>(
                    Xapian::sortable_unserialise(joined)))] += n;
                continue;
            }
            std::set<std::string> seen;
            size_t i = 0;
            while (i < joined.size()) {
                size_t j = joined.find(FACET_SEP, i);
                if (j == std::string::npos)
                    j = joined.size();
                std::string value = joined.substr(i, j - i);
                if (j > i && seen.insert(value).second)
                    c[value] += n;
                i = j + 1;
            }
        }
        return Top(c.begin(), c.end());
    }

    /* The author facet's candidates, by person.  Every name as written
     * is counted (a hash of the names, no name read yet); the
     * PEOPLE_POOL * limit most frequent forms (at least limit +
     * PEOPLE_POOL_MIN, ties included) are then read as people
     * (person_key) and their counts added up by person.  Reading every
     * name of a broad query's matches cost 0.25-0.6 s on the arXiv 101k;
     * the pool is what can reach the top, and recount() gives each kept
     * entry its exact count.  Each person is labelled by its best form
     * (better_label); in label order, for by_count's ties. */
    Top people(size_t limit) const
    {
        /* Over a remote shard, Xapian's spy: its lists of names, each
         * split and counted by name. */
        NameCounts remote(columns_ ? 0 : 1 << 15);
        if (!authors_ && !columns_)
            for (Xapian::TermIterator v = spy_[2]->values_begin();
                 v != spy_[2]->values_end(); ++v)
                AuthorSpy::add_names(*v, v.get_termfreq(), remote);
        using Form = std::pair<uint64_t, std::string_view>;
        std::vector<Form> order;
        auto add = [&order](std::string_view name, uint64_t n) {
            order.emplace_back(n, name);
        };
        const size_t pool =
            std::max(limit * PEOPLE_POOL, limit + PEOPLE_POOL_MIN);
        if (columns_) {
            columns_->each(2, add, columns_->floor(2, pool));
        } else {
            const NameCounts &forms = authors_ ? authors_->forms : remote;
            order.reserve(forms.size());
            forms.each(add);
        }
        if (order.size() > pool) {
            std::nth_element(order.begin(), order.begin() + (pool - 1),
                             order.end(), [](const Form &x, const Form &y) {
                                 return x.first > y.first;
                             });
            const uint64_t floor = order[pool - 1].first;
            order.erase(std::remove_if(order.begin(), order.end(),
                                       [floor](const Form &o) {
                                           return o.first < floor;
                                       }),
                        order.end());
        }
        struct Person {
            uint64_t count = 0;
            std::string label;
            uint64_t label_n = 0;
        };
        std::map<std::string, Person> people;
        for (const Form &o : order) {
            const std::string form(o.second);
            Person &p = people[person_key(form, rules_)];
            p.count += o.first;
            if (p.label.empty() || better_label(form, o.first, p.label, p.label_n))
                p.label = form, p.label_n = o.first;
        }
        std::map<std::string, uint64_t> c;
        for (const auto &p : people)
            c[p.second.label] += p.second.count;
        return Top(c.begin(), c.end());
    }

    /* Count each entry of top again as the works its label's author
     * filter gives within the match; re-sorted.  Stops when the time is
     * up: the entries not counted are dropped.  Returns how many.  With
     * `matched` (the works of the facets' match, over local databases)
     * the filter is matched alone and its works looked up in that set: a
     * person's works are few, where matching the query again with each
     * filter cost about half a millisecond a person.  Otherwise (shards)
     * the query is matched again under each filter. */
    static size_t recount(shim_db *h, const Xapian::Query &query,
                          const Xapian::MatchDecider *decider, Top &top,
                          double seconds,
                          const std::vector<uint64_t> *matched)
    {
        const double end = seconds_now() + count_seconds(seconds);
        Xapian::Enquire ce(h->db);
        ce.set_weighting_scheme(Xapian::BoolWeight());
        const Xapian::doccount all = h->db.get_doccount();
        size_t done = 0;
        for (; done < top.size(); done++) {
            if (seconds_now() > end)
                break;
            Xapian::Query name;
            if (author_name_query(h, top[done].first, name))
                continue; /* no family name: counted by person */
            if (matched) {
                InMatched in(*matched);
                ce.clear_matchspies();
                ce.add_matchspy(&in);
                ce.set_query(name);
                ce.get_mset(0, 0, all);
                ce.clear_matchspies();
                top[done].second = in.n;
                continue;
            }
            ce.set_query(Xapian::Query(Xapian::Query::OP_FILTER, query, name));
            top[done].second =
                ce.get_mset(0, 0, all, nullptr, decider).get_matches_lower_bound();
        }
        const size_t cut = top.size() - done;
        top.resize(done);
        std::sort(top.begin(), top.end()); /* ties in value order */
        std::stable_sort(top.begin(), top.end(), by_count);
        return cut;
    }

    /* The person a name stands for, by the name keys the author filter
     * uses (text_name_keys): the folded family name and full given name,
     * so that "Greta Lindqvist", "Lindqvist, Greta" and "GRETA LINDQVÍST"
     * are one entry.  A name of initials is its own entry ("G.
     * Lindqvist" may be another Greta's, or a Gustav's). */
    static std::string person_key(const std::string &name, int rules)
    {
        arena a = {};
        name_keys nk;
        std::string key = name;
        if (text_name_keys_rules(&a, name.c_str(), rules, &nk) == 0 &&
            *nk.family) {
            key = std::string(nk.family) + '\x1f' +
                  (nk.given_is_initial ? "=" : "") + nk.given;
        }
        arena_free(&a);
        return key;
    }

    /* Is form a (written by na works) a better label for its person than
     * b (nb works)?  Written in mixed case rather than capitals
     * throughout, then the form most works write, then the most letters,
     * then "Given Family" rather than "Family, Given", then value order. */
    static bool better_label(const std::string &a, uint64_t na,
                             const std::string &b, uint64_t nb)
    {
        auto rank = [](const std::string &v, uint64_t n) {
            bool lower = false;
            size_t chars = 0;
            for (unsigned char ch : v) { /* letters: ASCII, or a UTF-8 lead */
                lower |= ch >= 'a' && ch <= 'z';
                chars += isalpha(ch) || ch >= 0xC0;
            }
            return std::make_tuple(lower, n, chars,
                                   v.find(',') == std::string::npos);
        };
        const auto ra = rank(a, na), rb = rank(b, nb);
        return ra > rb || (ra == rb && a < b);
    }

    unsigned which_;
    int rules_; /* the index's name rules */
    bool local_; /* no remote shard: the author facet is an AuthorSpy */
    std::unique_ptr<Xapian::ValueCountMatchSpy> spy_[SHIM_N_FACETS];
    std::unique_ptr<ValueSpy> local_spy_[SHIM_N_FACETS];
    std::unique_ptr<AuthorSpy> authors_;
    std::unique_ptr<ColumnSpy> columns_; /* or the spies above */
    Top top_[SHIM_N_FACETS];
};

bool joined_stem(const Xapian::Database *db, const std::string &t)
{
    return db && !db->get_metadata(LAYOUT_JOINED_KEY + t).empty();
}

/* Expand-set terms for feedback: the default field's stems (no prefix),
 * not numbers, not stems that compounds were joined into
 * (LAYOUT_JOINED_KEY; with shards, as the first one marks them).  A stem
 * stands for every form of its word, so the added query terms match the
 * way the user's own words do. */
struct FeedbackTerms : public Xapian::ExpandDecider {
    const Xapian::Stopper &stop;
    const Xapian::Database *joined; /* the index's marks, or none */
    FeedbackTerms(const Xapian::Stopper &s, const Xapian::Database *j)
        : stop(s), joined(j)
    {
    }
    bool operator()(const std::string &t) const override
    {
        return t.size() > 1 && is_plain_term(t) &&
               !isdigit(static_cast<unsigned char>(t[0])) && !stop(t) &&
               !joined_stem(joined, t);
    }
};


/* When a ranking must end (RankStop, bm25.hh): every OR of words'
 * source checks the clock as it passes over works, and the whole query
 * is ANDed with a source of every work (weight 0) that ends once the
 * time is up, so that Xapian's match ends there whatever the query's
 * shape.  Xapian's own time limit only stops counting past the page.
 * Not over xapian-tcpsrv, which runs only Xapian's own sources: there
 * the remote backend's timeout bounds it. */
class RankStopSource : public Xapian::PostingSource {
  public:
    explicit RankStopSource(std::shared_ptr<RankStop> stop) : stop_(std::move(stop)) {}
    Xapian::PostingSource *clone() const override { return new RankStopSource(stop_); }
    void init(const Xapian::Database &db) override
    {
        last_ = db.get_lastdocid();
        n_ = db.get_doccount();
        did_ = 0;
        steps_ = 0;
        set_maxweight(0);
    }
    Xapian::doccount get_termfreq_min() const override { return n_; }
    Xapian::doccount get_termfreq_est() const override { return n_; }
    Xapian::doccount get_termfreq_max() const override { return n_; }
    void next(double) override { move(did_ + 1); }
    void skip_to(Xapian::docid did, double) override
    {
        move(std::max(did, did_ + 1));
    }
    bool at_end() const override { return did_ > last_; }
    Xapian::docid get_docid() const override { return did_; }
    double get_weight() const override { return 0; }
    std::string get_description() const override { return "RankStop"; }

  private:
    void move(Xapian::docid to)
    {
        did_ = to;
        if (stop_->due(&steps_, 64)) /* the clock, every 64 works */
            did_ = last_ + 1;
    }
    std::shared_ptr<RankStop> stop_;
    Xapian::docid last_ = 0, did_ = 0;
    Xapian::doccount n_ = 0;
    uint64_t steps_ = 0;
};

/* q under a time limit of `seconds`: over local databases, q ANDed with
 * a RankStopSource of stop, which ends the match once they are up
 * (stop says whether it did; none: q as it is); over remote shards,
 * whose backend runs only Xapian's own sources, Xapian's time limit on
 * e.  within() makes the stop for a match of its own.  Xapian 1.4's
 * limit is a POSIX timer whose SIGEV_THREAD notification writes a flag
 * in the match's stack frame: a timer that expires as the match ends
 * may write it after get_mset() has returned, into whatever the caller
 * put there since, which corrupts the process (a server under load with
 * a budget of a millisecond meets it).  seconds 0: no limit. */
static Xapian::Query bounded(shim_db *h, Xapian::Enquire &e,
                             const Xapian::Query &q, double seconds,
                             const std::shared_ptr<RankStop> &stop)
{
    if (!all_local(h)) {
        e.set_time_limit(seconds); /* 0: none */
        return q;
    }
    if (!stop)
        return q;
    return Xapian::Query(Xapian::Query::OP_AND, q,
                         Xapian::Query((new RankStopSource(stop))->release()));
}

/* q for a match of its own under a time limit of `seconds` (0: none):
 * bounded(), with *stop made for it over local databases (else reset). */
static Xapian::Query within(shim_db *h, Xapian::Enquire &e, const Xapian::Query &q,
                            double seconds, std::shared_ptr<RankStop> *stop)
{
    stop->reset();
    if (seconds <= 0)
        return q;
    if (all_local(h))
        *stop = std::make_shared<RankStop>(seconds);
    return bounded(h, e, q, seconds, *stop);
}

/* The matches of a query whose every match must hold its phrases,
 * counted before its ranking (count_by_phrases). */
struct PhraseCount {
    bool counted = false; /* false: not counted (the usual path) */
    bool all = false;     /* ids holds every match, ascending */
    std::vector<Xapian::docid> ids;
    size_t lower = 0, upper = 0; /* the count's bounds */
};

/* The most matches whose docids count_by_phrases keeps for the ranking
 * (4 bytes each): a count limit can be set far higher (--count-limit),
 * and a query with more matches than this is ranked with the decider.
 * Or PDX_TEST_PHRASE_IDS_MAX, read at each count, which the tests set
 * low to take that way on a small index. */
static size_t phrase_ids_max()
{
    const char *n = getenv("PDX_TEST_PHRASE_IDS_MAX");
    return n ? static_cast<size_t>(strtoul(n, nullptr, 10)) : 100000;
}

/* Collects the docids of a match (one database: they are its own), up
 * to `max` of them (seen() counts them all). */
class IdSpy : public Xapian::MatchSpy {
  public:
    IdSpy(std::vector<Xapian::docid> &ids, size_t max) : ids_(ids), max_(max) {}
    void operator()(const Xapian::Document &doc, double) override
    {
        if (ids_.size() < max_)
            ids_.push_back(doc.get_docid());
        seen_++;
    }
    size_t seen() const { return seen_; }

  private:
    std::vector<Xapian::docid> &ids_;
    size_t max_;
    size_t seen_ = 0;
};

/* The works of a sorted list of docids, weighing nothing: the ranking's
 * filter once count_by_phrases has found every match.  With stop (not
 * null), it ends once stop's time is up, as RankStopSource does, and
 * says so in stop->hit: it stands on the left of the ranking's AND_MAYBE,
 * whose right side may have ended at that time already. */
class IdsSource : public Xapian::PostingSource {
  public:
    IdsSource(std::shared_ptr<const std::vector<Xapian::docid>> ids,
              std::shared_ptr<RankStop> stop)
        : ids_(std::move(ids)), stop_(std::move(stop))
    {
    }
    Xapian::PostingSource *clone() const override
    {
        return new IdsSource(ids_, stop_);
    }
    void init(const Xapian::Database &) override
    {
        at_ = 0;
        started_ = false;
        set_maxweight(0);
    }
    Xapian::doccount get_termfreq_min() const override { return n(); }
    Xapian::doccount get_termfreq_est() const override { return n(); }
    Xapian::doccount get_termfreq_max() const override { return n(); }
    void next(double) override
    {
        if (started_)
            at_++;
        started_ = true;
        check_time();
    }
    void skip_to(Xapian::docid d, double) override
    {
        if (!started_)
            started_ = true;
        at_ = static_cast<size_t>(
            std::lower_bound(ids_->begin() + static_cast<std::ptrdiff_t>(at_),
                             ids_->end(), d) -
            ids_->begin());
        check_time();
    }
    bool at_end() const override { return started_ && at_ >= ids_->size(); }
    Xapian::docid get_docid() const override { return (*ids_)[at_]; }
    double get_weight() const override { return 0; }
    std::string get_description() const override
    {
        return "paperdex::IdsSource(" + std::to_string(n()) + ")";
    }

  private:
    Xapian::doccount n() const { return static_cast<Xapian::doccount>(ids_->size()); }
    /* the clock, every 64 moves */
    void check_time()
    {
        if (stop_ && stop_->due(&steps_, 64))
            at_ = ids_->size();
    }
    std::shared_ptr<const std::vector<Xapian::docid>> ids_;
    std::shared_ptr<RankStop> stop_;
    size_t at_ = 0;
    bool started_ = false;
    uint64_t steps_ = 0;
};

/* How much rarer than its rarest word a phrase is taken to be when it
 * leads the count (PhraseSource's est_share): enough to walk ahead of
 * its own words' postings, and behind a word of the query rarer than
 * that, which then leads and the phrase is checked only where it is. */
static const Xapian::doccount PHRASE_LEAD_SHARE = 16;

/* Counts, up to `limit`, the matches of query (filters included) under
 * the phrases every match must hold, before the ranking, in a match that
 * weighs nothing and puts each phrase's PhraseSource in the query in
 * place of the decider.  Over one local index of layout 9, where that
 * source walks the phrase's words' chunks side by side
 * (common/positions.cc) and leads the match.  Counted through the
 * decider, the matcher's AND of the words' postings handed it each work
 * holding them, and a rare phrase of common words was counted over
 * every such work (for "multi model" on the synthetic million, the
 * 278,190 works whose abstracts hold both words, 2,576 the phrase).
 *
 * All counted (fewer than `limit` matches): the count is exact, and with
 * at most phrase_ids_max() of them out->ids holds them (out->all), so that
 * the ranking needs no decider and weighs only them.  At `limit` or
 * more, the total is "limit+" and the ranking goes on as before; so it
 * does past the time (seconds, or SHIM_COUNT_SECONDS), with what was
 * counted as the total's lower bound.
 * Over anything else (several or remote databases, positions kept the
 * other ways): nothing counted (out->counted false). */
static void count_by_phrases(shim_db *h, const Xapian::Query &query,
                             const PhraseFilter &phrases, size_t limit,
                             double seconds, PhraseCount *out)
{
    *out = PhraseCount();
    if (!limit || phrases.checks.empty() || h->db.size() != 1 ||
        !all_local(h))
        return;
    std::vector<Xapian::Query> sources;
    for (const PhraseCheck &c : phrases.checks) {
        if (!c.chunked)
            return;
        sources.emplace_back(
            (new PhraseSource(c, PHRASE_LEAD_SHARE))->release());
    }
    Xapian::Enquire ce(h->db);
    std::shared_ptr<RankStop> cut;
    ce.set_query(within(
        h, ce,
        Xapian::Query(Xapian::Query::OP_FILTER, query,
                      Xapian::Query(Xapian::Query::OP_AND, sources.begin(),
                                    sources.end())),
        count_seconds(seconds), &cut));
    ce.set_weighting_scheme(Xapian::BoolWeight());
    IdSpy spy(out->ids, phrase_ids_max());
    ce.add_matchspy(&spy);
    const Xapian::MSet cs =
        ce.get_mset(0, 1, static_cast<Xapian::doccount>(limit));
    ce.clear_matchspies();
    out->lower = cs.get_matches_lower_bound();
    out->upper = cs.get_matches_upper_bound();
    if (cut && cut->hit) {
        /* what was counted, a lower bound ("4,321+"), as count_total
         * gives it: the ranking goes on with the decider, and no second
         * count spends the time again */
        out->upper = std::max<size_t>(out->upper, h->db.get_doccount());
    } else if (out->lower < out->upper) {
        if (out->lower < limit)
            return; /* ended short of the limit, unexpectedly: not used */
    } else if (out->lower != spy.seen()) {
        return; /* the spy saw other works than the count: not used */
    } else {
        out->all = out->ids.size() == spy.seen();
    }
    if (!out->all)
        out->ids.clear();
    std::sort(out->ids.begin(), out->ids.end());
    out->counted = true;
}

/* t's bounds narrowed by those of a count of the same matches, and its
 * estimate kept between them. */
static void narrow(shim_totals *t, size_t lower, size_t upper)
{
    t->lower = std::max(t->lower, lower);
    t->upper = std::min(t->upper, upper);
    t->estimated = t->lower == t->upper ? t->lower
                                        : std::max(t->estimated, t->lower);
}

/* The total: exact up to `limit` matches, and past it a lower bound
 * (totals->gte), so that a page never shows an estimate as a count.
 *
 * The ranking match (ms) stops as soon as no other work can enter the
 * page, so its bounds are often far apart; when they are and the lower
 * one is short of the limit, the matches are counted by a second match
 * of the same query and decider without weights (BoolWeight), which
 * Xapian ends once it has seen `limit` of them.  Weighing every work the
 * ranking match skips, to count it there, cost 2 to 3 times the query's
 * time on the arXiv 101k; this pass is skipped for most queries of common
 * words (an OR's lower bound is already its commonest word's count) and
 * costs what reading the rest of the postings costs otherwise
 * (bench/RESULTS.md, "Counts").  A phrase is checked in every work that
 * holds its words, up to the limit: the dearest case.  A query whose
 * phrases every match must hold, over one local index of layout 9, is
 * counted before its ranking instead (count_by_phrases), with each
 * phrase walking its words' chunks; `known` then gives that count and
 * its bounds, and no second match is made.  So that no query counts for
 * long, the count stops after SHIM_COUNT_SECONDS (or the query's own
 * time limit), and the total is then what was counted, a lower bound.
 * limit 0 means the ranking match counted everything (--exact,
 * facets). */
static void count_total(shim_db *h, const Xapian::Query &query,
                        const Xapian::MatchDecider *decider,
                        const Xapian::MSet &ms, size_t limit,
                        double time_limit, shim_totals *t, bool stopped,
                        const PhraseCount *known = nullptr)
{
    t->estimated = ms.get_matches_estimated();
    t->lower = ms.get_matches_lower_bound();
    t->upper = ms.get_matches_upper_bound();
    if (stopped) /* the match ended early: it knows a lower bound only */
        t->upper = std::max<size_t>(t->upper, h->db.get_doccount());
    if (known && known->counted) {
        /* counted before the ranking (count_by_phrases) */
        narrow(t, known->lower, known->upper);
    } else if (t->lower < t->upper && limit && t->lower < limit) {
        Xapian::Enquire ce(h->db);
        std::shared_ptr<RankStop> cut;
        ce.set_query(within(h, ce, query, count_seconds(time_limit), &cut));
        ce.set_weighting_scheme(Xapian::BoolWeight());
        Xapian::MSet cs = ce.get_mset(
            0, 1, static_cast<Xapian::doccount>(limit), nullptr, decider);
        /* past the time the total is what was counted, a lower bound
         * ("4,321+") */
        narrow(t, cs.get_matches_lower_bound(),
               cut && cut->hit ? t->upper : cs.get_matches_upper_bound());
    }
    /* Past the limit the total says "limit+" even when this match
     * happened to count them all (a single word, a date sort), so that
     * every page and --limit 0 show the same, as Elasticsearch's
     * track_total_hits does. */
    t->gte = t->lower < t->upper || (limit && t->lower > limit);
    t->total = t->gte && limit && t->lower > limit ? limit : t->lower;
}

/* Pseudo-relevance feedback (pdx_query.expand_*), as Terrier does it:
 * rank once, take the top expand_docs works as relevant, and score every
 * stemmed default-field term in them with Xapian's Bo1 expansion scheme
 * (the Bose-Einstein divergence-from-randomness model: how much more a
 * term occurs in those works than its collection frequency predicts).
 * The expand_terms best terms join the query, each weighted
 * expand_weight * w(t) / max w: the best added term weighs as much as
 * one of the user's own words at expand_weight 1.  Xapian multiplies a
 * scaled query's BM25 weight by the scale, as Lucene does a boost.
 * (An RM3 model estimated from document vectors was tried first and
 * lost on both collections: bench/RESULTS.md.) */
static Xapian::Query expand(shim_db *h, const shim_query *q,
                            const Xapian::Query &query,
                            const Xapian::Query &filter, bool loose,
                            const Xapian::MatchDecider *phrases,
                            double seconds)
{
    Xapian::Enquire fb(h->db);
    std::shared_ptr<RankStop> stop; /* the first ranking too: 0 none */
    fb.set_query(within(h, fb,
                        filter.empty()
                            ? query
                            : Xapian::Query(Xapian::Query::OP_FILTER, query, filter),
                        seconds, &stop));
    fb.set_weighting_scheme(Xapian::BM25Weight(q->k1, 0, 1, q->b, 0.5));
    fb.set_sort_by_relevance_then_value(SLOT_ID, false);
    fb.set_expansion_scheme("bo1");
    Xapian::MSet top = fb.get_mset(
        0, static_cast<Xapian::doccount>(q->expand_docs), 0, nullptr, phrases);
    if (top.empty())
        return query;
    Xapian::RSet rset;
    for (Xapian::MSetIterator it = top.begin(); it != top.end(); ++it)
        rset.add_document(*it);
    FeedbackTerms decider(h->stopper, h->compounds_joined ? &h->db : nullptr);
    Xapian::ESet eset = fb.get_eset(
        static_cast<Xapian::termcount>(q->expand_terms), rset, &decider);
    double max_w = 0;
    for (Xapian::ESetIterator e = eset.begin(); e != eset.end(); ++e)
        max_w = std::max(max_w, e.get_weight());
    if (max_w <= 0)
        return query;
    std::vector<Xapian::Query> added;
    for (Xapian::ESetIterator e = eset.begin(); e != eset.end(); ++e)
        if (e.get_weight() > 0)
            added.emplace_back(Xapian::Query::OP_SCALE_WEIGHT,
                               Xapian::Query(*e),
                               q->expand_weight * e.get_weight() / max_w);
    Xapian::Query more(Xapian::Query::OP_OR, added.begin(), added.end());
    return Xapian::Query(loose ? Xapian::Query::OP_OR
                               : Xapian::Query::OP_AND_MAYBE,
                         query, more);
}

/* Add a note to the query's notes ("; " between), cut whole characters
 * at the room the notes have. */
static void append_note(shim_totals *totals, const char *what)
{
    std::string note = totals->note;
    note += (note.empty() ? "" : "; ") + std::string(what);
    text_truncate_utf8(&note[0], sizeof totals->note - 1);
    memcpy(totals->note, note.c_str(), strlen(note.c_str()) + 1);
}

/* The least time a stage of a request is given when the stages before
 * it have spent the budget (Deadline). */
#define STAGE_MIN_SECONDS 0.001

/* One time budget for a whole request (pdx_query.time_limit): feedback's
 * first ranking, the ranking, the facets' match, the count, the author
 * facet's recount and "did you mean" each get what the stages before
 * them have left, and at least STAGE_MIN_SECONDS, so that a request ends
 * within about its budget (plus a millisecond a stage), not within a
 * budget a stage.  (Xapian's own limit only ends a match's counting: a
 * ranking past it still finishes finding its page, unless RankStop ends
 * it.)
 *
 * For tests: PDX_TEST_BUDGET_SPENT_MS=N in the environment starts every
 * request with N ms of its budget already spent, as if a stage before
 * the ranking had taken them (tests/cli/serve_stop.py). */
class Deadline {
  public:
    explicit Deadline(double budget) : budget_(budget), t0_(seconds_now())
    {
        budget_ -= test_spent();
        if (budget > 0 && budget_ <= 0)
            budget_ = STAGE_MIN_SECONDS / 2; /* spent, yet a budget */
    }
    /* The seconds the next stage may take; 0 (no limit) without a
     * budget. */
    double left() const
    {
        if (budget_ <= 0)
            return 0;
        return std::max(budget_ - (seconds_now() - t0_), STAGE_MIN_SECONDS);
    }

  private:
    /* PDX_TEST_BUDGET_SPENT_MS in seconds, read once a process. */
    static double test_spent()
    {
        static const double spent = [] {
            const char *ms = getenv("PDX_TEST_BUDGET_SPENT_MS");
            return ms ? atof(ms) / 1000 : 0.0;
        }();
        return spent;
    }
    double budget_;
    double t0_;
};


/* The terms of q in leaves (up to 33), and whether it holds a wildcard. */
static void count_leaves(const Xapian::Query &q, size_t &leaves, bool &wild)
{
    const Xapian::Query::op t = q.get_type();
    if (t == Xapian::Query::OP_WILDCARD)
        wild = true;
    if (t == Xapian::Query::LEAF_TERM)
        leaves++;
    for (size_t i = 0; i < q.get_num_subqueries() && !wild && leaves <= 32; i++)
        count_leaves(q.get_subquery(i), leaves, wild);
}

/* Whether q is worth the stop: more than 32 terms (a passage pasted
 * whole: 0.9 s for 1,000 words on the arXiv 101k) or a wildcard
 * (up to the wildcard limit's terms).  The AND costs a typed query
 * about a tenth of its time on the 101k's mix, where its ranking
 * ends in 25 ms at p99. */
static bool rank_stop_wanted(const Xapian::Query &q)
{
    size_t leaves = 0;
    bool wild = false;
    count_leaves(q, leaves, wild);
    return wild || leaves > 32;
}

/* How many handles the proximity bonus's word cursors take in turn:
 * each costs a glass database's open table files (three on a compacted
 * index, up to six) and its block buffers, a handle for each thread. */
static const size_t CURSOR_DBS = 8;

/* Up to `want` (at most CURSOR_DBS) other handles on h's one local index
 * of layout 9, at h's revision, for the proximity bonus's word cursors,
 * those kept from an earlier query, or with `open` opened as need be;
 * none over shards, a remote index or a writer, or when the index has
 * moved on from h's revision (a reopen catches up at the next query).
 *
 * Why.  A word's chunks are metadata items, read by
 * Database::get_metadata() through the postlist table's one B-tree
 * cursor, which keeps the blocks of its last path.  The cursors of a
 * query's words take turns, so over one handle every chunk read is a
 * path from the root again: on the synthetic 1M a four-word query of
 * common words reads 14,173 blocks over one handle, 8,334 over 4 and
 * 4,744 over one a term (8); with 8 handles the p99 of four-word
 * queries there is 61 ms against 71 over one, of two-word ones 34
 * against 39 (bench/RESULTS.md, "A million works").  Opening a handle
 * costs about as much as the block reads a few dozen chunks save, so
 * a query asks for them to be opened only once its cursors have read
 * cursor_dbs_after() chunks. */
static std::vector<Xapian::Database> cursor_dbs(shim_db *h, size_t want,
                                                bool open)
{
    std::vector<Xapian::Database> out;
    if (!h->chunks || h->writable || h->shards.size() != 1 ||
        !h->shards[0].local)
        return out;
    Xapian::rev rev;
    std::string uuid;
    try {
        rev = h->db.get_revision();
        uuid = h->db.get_uuid();
    } catch (const Xapian::InvalidOperationError &) {
        return out;
    }
    Reader &r = reader(h);
    /* An earlier search that took them did not end (an error, a
     * retry): they may be what failed, so they are opened again. */
    if (r.cursor_dbs_search && r.cursor_dbs_search != r.searches) {
        r.cursor_dbs.clear();
        r.cursor_ids.clear();
        r.cursor_dbs_search = 0;
    }
    /* The path names another directory for now (a rebuild swapped in,
     * which h follows at its next read): nothing to open there (those
     * kept are checked against h's index below). */
    if (open && replaced(h))
        return out;
    const shard_id &own = h->shards[0];
    auto same = [&](const shard_id &id, const Xapian::Database &d) {
        return id.dev == own.dev && id.ino == own.ino &&
               d.get_uuid() == uuid && d.get_revision() == rev;
    };
    want = std::min(want, CURSOR_DBS);
    try {
        /* Each opened as h's was (open_local_reader: a rebuild swapped in
         * meanwhile is opened again), and taken only when it is the
         * directory h was opened on, at h's revision: never reopen(),
         * which reads the version file by name again, and so would read
         * another index's after a swap. */
        for (size_t i = 0; i < want; i++) {
            if (!open && (i == r.cursor_dbs.size() ||
                          !same(r.cursor_ids[i], r.cursor_dbs[i])))
                return std::vector<Xapian::Database>();
            if (i == r.cursor_dbs.size()) {
                r.cursor_ids.emplace_back();
                r.cursor_dbs.push_back(
                    open_local_reader(own.path, r.cursor_ids.back()));
            }
            if (!same(r.cursor_ids[i], r.cursor_dbs[i]))
                r.cursor_dbs[i] = open_local_reader(own.path, r.cursor_ids[i]);
            if (!same(r.cursor_ids[i], r.cursor_dbs[i]))
                return std::vector<Xapian::Database>();
            out.push_back(r.cursor_dbs[i]);
        }
    } catch (const Xapian::Error &) {
        /* the path gone or swapped for the moment: h's handle serves */
        r.cursor_dbs.clear();
        r.cursor_ids.clear();
        return std::vector<Xapian::Database>();
    }
    r.cursor_dbs_search = r.searches;
    return out;
}

/* The chunks a query's word cursors read through h's handle before it
 * asks for `want` handles of their own (cursor_dbs): 64 a handle.  In a
 * fresh process on the arXiv 101k, opening 6 handles for `graph neural
 * networks` (which reads between 128 and 256 chunks) made the command
 * 6% slower (0.7 ms); on the synthetic 1M, `data reasoning guided
 * performance` (thousands) is 10% quicker with them.  Or
 * PDX_TEST_CURSOR_DBS_AFTER, read once a process: the tests set 0, so
 * that their small indexes read through the handles too. */
static unsigned long cursor_dbs_after(size_t want)
{
    static const long test = [] {
        const char *n = getenv("PDX_TEST_CURSOR_DBS_AFTER");
        return n ? static_cast<long>(strtoul(n, nullptr, 10)) : -1L;
    }();
    return test >= 0 ? static_cast<unsigned long>(test)
                     : 64UL * std::min(want, CURSOR_DBS);
}

static void run_search(shim_db *h, const shim_query *q, shim_totals *totals,
                       std::vector<shim_hit> &hits,
                       std::map<std::string, double> &snippet_stems,
                       Facets *spy, const Deadline &deadline)
{
    const bool has_text = q->text && *q->text;
    totals->note[0] = '\0';
    totals->n_query_authors = 0;
    reader(h).searches++; /* cursor_dbs() tells its searches apart */
    Xapian::Query query;
    /* The phrases every match must hold, checked only for the works that
     * would make the page (PhraseFilter). */
    PhraseFilter phrases(h->db);
    /* Words together: the proximity bonus (proximity.cc) of the query's
     * words, for a ranking by relevance over local databases (the
     * remote backend cannot run its source). */
    const bool with_proximity = has_text && q->proximity_weight > 0 &&
                                q->sort == SHIM_SORT_RELEVANCE &&
                                all_local(h);
    std::vector<std::vector<std::string>> tied; /* the query's phrases */
    if (has_text) {
        std::string note;
        /* Over Xapian's positions phrases are Xapian's own
         * (xapian_phrases) and never reach the decider, which Xapian
         * would refuse through xapian-tcpsrv. */
        /* Sorted by date, nothing ranks the works that hold one common
         * word of several below the others: every word must hold, as in
         * arXiv's listing search (prose read as words stays OR-ed). */
        const bool all_words = q->sort != SHIM_SORT_RELEVANCE && !q->words;
        query = parse_query(h, q->text, q->lenient != 0, note, &phrases,
                            q->words != 0, with_proximity, &tied, all_words);
        snprintf(totals->note, sizeof totals->note, "%s", note.c_str());
        totals->n_query_authors = 0;
        for (const std::string &v : reader(h).author_values)
            if (totals->n_query_authors < SHIM_QUERY_AUTHORS &&
                v.size() < sizeof totals->query_authors[0])
                memcpy(totals->query_authors[totals->n_query_authors++],
                       v.c_str(), v.size() + 1);
    } else {
        query = every_work();
    }
    std::shared_ptr<const ProximityQuery> prox;
    if (with_proximity) {
        auto pq = std::make_shared<ProximityQuery>(
            h->db, query, parser_text(h, q->text),
            h->stem, h->stop_stems,
            q->proximity_weight, q->proximity_window,
            tied);
        if (!pq->pairs.empty()) {
            const size_t want = pq->asked().size();
            pq->open_dbs = [h, want](bool open) {
                return cursor_dbs(h, want, open);
            };
            pq->dbs_after = cursor_dbs_after(want);
            prox = pq;
        }
    }
    bool years_by_value = false;
    Xapian::Query filter = build_filter(h, q, &years_by_value);
    /* Feedback may add matches to an OR of words; anything stricter (+x,
     * -x, AND, NOT, a phrase) keeps its match set and is only re-ranked. */
    const Xapian::Query::op top_op = query.get_type();
    const bool loose = top_op == Xapian::Query::LEAF_TERM ||
                       top_op == Xapian::Query::OP_OR ||
                       top_op == Xapian::Query::OP_SYNONYM;
    /* What --explain takes apart: the query, its boosts, the bonus. */
    ScoreParts parts;
    parts.query = query;
    parts.title_weight = q->title_weight;
    parts.author_weight = q->author_weight;
    parts.k1 = q->k1;
    parts.b = q->b;
    parts.proximity = prox;
    if (has_text && (q->title_weight > 0 || q->author_weight > 0)) {
        /* Field boosts add to the score of what the query matches; they
         * never add matches (AND_MAYBE). */
        const std::string low = lower_words(unaccent(q->text));
        const std::string plain = parser_text(h, low);
        std::vector<Xapian::Query> boosts;
        if (q->title_weight > 0) {
            parts.title = unmark_terms(reader(h).qp_title.parse_query(
                plain, reader(h).cjk_flag));
            boosts.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, parts.title,
                                q->title_weight);
        }
        if (q->author_weight > 0) {
            parts.author = reader(h).qp_author.parse_query(low,
                                                      reader(h).cjk_flag);
            boosts.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, parts.author,
                                q->author_weight);
        }
        query = Xapian::Query(
            Xapian::Query::OP_AND_MAYBE, query,
            Xapian::Query(Xapian::Query::OP_OR, boosts.begin(), boosts.end()));
    }
    const Xapian::MatchDecider *decider =
        phrases.checks.empty() && phrases.forms.empty() ? nullptr : &phrases;
    if (has_text && q->expand_docs)
        query = expand(h, q, query, filter, loose, decider, deadline.left());
    if (!filter.empty())
        query = Xapian::Query(Xapian::Query::OP_FILTER, query, filter);

    /* One Enquire per handle, made at the first search: it holds the
     * database and the sort key makers, so a query only sets what
     * changes. */
    if (!reader(h).enq)
        reader(h).enq.reset(new Xapian::Enquire(h->db));
    Xapian::Enquire &enq = *reader(h).enq;
    enq.clear_matchspies();
    /* The words scored by paperdex's posting sources, with the works'
     * lengths from an array once the handle has read them, and ORs of
     * words before that too (searcher/bm25.cc): the same scores. */
    std::shared_ptr<const DocLengths> lens;
    if (has_text && q->k1 > 0 && q->b > 0)
        lens = reader(h).lengths.get(h, query);
    /* The bonus rides in the source of the query's OR of words when it
     * has one (bm25.cc), and is otherwise a source of its own beside
     * the query: the same score either way. */
    std::shared_ptr<const ProximityQuery> alone = prox;
    /* The ranking's share of the budget: past it the match ends, and
     * the page is the best of the works met (RankStop), for a query that
     * could take long, and for one that counts every match (--exact):
     * over local databases nothing else bounds them (within()). */
    std::shared_ptr<RankStop> stop;
    if (deadline.left() > 0 && all_local(h) &&
        (rank_stop_wanted(query) || q->exact_total))
        stop = std::make_shared<RankStop>(deadline.left());
    /* A page found before the match (bm25.cc, BM25OrSource::choose())
     * where nothing but the weight decides it: ranked by relevance, no
     * decider, no count past the page in this match. */
    const size_t top = !decider && !q->exact_total &&
                               q->sort == SHIM_SORT_RELEVANCE
                           ? static_cast<size_t>(q->offset + q->limit)
                           : 0;
    /* and its filter as the page checks it, work by work */
    std::shared_ptr<PageFilter> page_filter;
    if (top && lens && !filter.empty()) { /* with_lengths() alone reads it */
        page_filter = std::make_shared<PageFilter>();
        if (years_by_value) {
            shim_query terms_only = *q;
            terms_only.year_min = terms_only.year_max = 0;
            page_filter->terms = build_filter(h, &terms_only);
            if (q->year_min > 0)
                page_filter->year_lo = Xapian::sortable_serialise(q->year_min);
            if (q->year_max > 0)
                page_filter->year_hi = Xapian::sortable_serialise(q->year_max);
        } else {
            page_filter->terms = filter; /* terms alone */
        }
    }
    Xapian::Query run =
        lens ? with_lengths(query, lens, q->k1, q->b, &alone, stop, top,
                            page_filter)
             : query;
    if (alone)
        run = Xapian::Query(
            Xapian::Query::OP_AND_MAYBE, run,
            Xapian::Query((new ProximitySource(alone))->release()));
    /* A query whose phrases every match must hold, counted first
     * (count_by_phrases): with all its matches counted the ranking weighs
     * only them, with no decider.  Counted one past the count's limit,
     * or past the page when that is further: a total of exactly the
     * limit is then known as exact on every page and with --limit 0,
     * and a rare phrase is found whole by the count where the page alone
     * would have it checked by the decider in every work holding its
     * words. */
    PhraseCount first;
    const Xapian::MatchDecider *rank_decider = decider;
    if (decider && !q->exact_total && !spy)
        count_by_phrases(h, query, phrases,
                         std::max<size_t>(q->count_limit,
                                          static_cast<size_t>(q->offset + q->limit)) +
                             1,
                         deadline.left(), &first);
    const bool over_ids = first.counted && first.all;
    if (over_ids)
        rank_decider = nullptr;
    /* stop's source over local databases, Xapian's own limit (which
     * stops only the count past the page) over remote shards: within() */
    Xapian::Query ranked = bounded(h, enq, run, deadline.left(), stop);
    if (over_ids) {
        /* only the works counted, each weighed as the query weighs it:
         * the ids' source weighs 0 on the left of an AND_MAYBE, so that
         * the query's tree stays as it is below it (under an AND, Xapian
         * would hoist its AND_MAYBEs' right sides into one OR, and add
         * their weights in another order) */
        ranked = Xapian::Query(
            Xapian::Query::OP_AND_MAYBE,
            Xapian::Query((new IdsSource(std::make_shared<const std::vector<Xapian::docid>>(
                                             std::move(first.ids)),
                                         stop))
                              ->release()),
            ranked);
    }
    enq.set_query(ranked);
    if (has_text)
        enq.set_weighting_scheme(Xapian::BM25Weight(q->k1, 0, 1, q->b, 0.5));
    else
        enq.set_weighting_scheme(Xapian::BoolWeight());
    if (q->sort == SHIM_SORT_NEWEST)
        enq.set_sort_by_key(&reader(h).newest, false);
    else if (q->sort == SHIM_SORT_OLDEST)
        enq.set_sort_by_key(&reader(h).oldest, false);
    else
        enq.set_sort_by_relevance_then_value(SLOT_ID, false);

    /* check_at_least: by default only what the page needs (offset +
     * limit), so a top-10 query stops as soon as no other work can enter
     * the top 10, and the total is Xapian's estimate with its bounds;
     * --exact must see every match (facets see them in a match of
     * their own, below). */
    Xapian::doccount check = static_cast<Xapian::doccount>(q->offset + q->limit);
    if (q->exact_total)
        check = h->db.get_doccount();
    Xapian::MSet ms = enq.get_mset(static_cast<Xapian::doccount>(q->offset),
                                   static_cast<Xapian::doccount>(q->limit),
                                   check, nullptr, rank_decider);
    if (stop && stop->hit)
        append_note(totals, "the ranking stopped at the time budget: the "
                            "hits are the best of the works it met");
    hits.clear();
    hits.reserve(ms.size());
    snippet_stems.clear();
    if (q->snippet_bytes && has_text)
        snippet_stems = snippet_weights(h, query);
    for (Xapian::MSetIterator it = ms.begin(); it != ms.end(); ++it) {
        shim_hit hit{it.get_weight(), stored_record(h, it.get_document()), ""};
        if (q->explain && has_text)
            hit.explain = explain_hit(h, parts, *it, it.get_weight());
        hits.push_back(std::move(hit));
    }
    /* Facets count every match, in a match of their own that weighs
     * nothing (BoolWeight: no BM25, no proximity source, the field
     * boosts dropped by AND_MAYBE), so that the ranking above still
     * stops once its page is known.  Counting the facets in the ranking
     * match, which then had to weigh every work, cost 5 to 20 times the
     * search.  That match's count is exact, and is the total. */
    Xapian::MSet counted = ms;
    std::shared_ptr<RankStop> facets_cut;
    if (spy) {
        Xapian::Enquire fe(h->db);
        /* within the time budget too: past it the match ends, and the
         * facets count the works met so far (said in a note) */
        fe.set_query(within(h, fe, query, deadline.left(), &facets_cut));
        fe.set_weighting_scheme(Xapian::BoolWeight());
        std::shared_ptr<const FacetColumns> cols = reader(h).columns.get(h);
        /* over a writer's database a value stream would first merge
         * its pending values into the table: a writer reads by work */
        spy->attach(fe, ms.get_matches_estimated(), h->db.get_lastdocid(),
                    h->shards.size() == 1 && !h->writable ? &h->db : nullptr,
                    cols, reader(h).columns.counts);
        counted = fe.get_mset(0, 0, h->db.get_doccount(), nullptr, decider);
        if (!cols) /* the rent toward reading the columns */
            reader(h).columns.met(spy->seen());
        if ((facets_cut && facets_cut->hit) ||
            counted.get_matches_lower_bound() < counted.get_matches_upper_bound()) {
            char note[200];
            snprintf(note, sizeof note, "the facets count the first %lu "
                     "matching works: counting them all would take longer "
                     "than the time budget",
                     static_cast<unsigned long>(spy->seen()));
            append_note(totals, note);
        }
    }
    count_total(h, query, decider, counted,
                q->exact_total ? 0 : q->count_limit, deadline.left(), totals,
                spy ? facets_cut && facets_cut->hit : stop && stop->hit,
                &first);
    if (spy) {
        size_t cut = 0;
        spy->finish(h, query, decider, q->facet_limit, deadline.left(), &cut);
        if (cut) {
            char note[160];
            snprintf(note, sizeof note, "the author facet lists %zu fewer "
                     "people: counting them as a click would take too long",
                     cut);
            append_note(totals, note);
        }
    }
    const std::string missing = missing_categories(h, query);
    if (!missing.empty())
        append_note(totals, missing.c_str());
    const std::string no_subject = missing_subjects(h, query, q);
    if (!no_subject.empty())
        append_note(totals, no_subject.c_str());
    if (totals->upper == 0) {
        const std::string empty = empty_filters(h, q);
        if (!empty.empty())
            append_note(totals, empty.c_str());
    }
    totals->suggestion[0] = '\0';
    if (q->suggest && has_text) {
        std::string sug = suggest(h, q->text, deadline.left());
        if (!sug.empty() && sug.size() < sizeof totals->suggestion)
            memcpy(totals->suggestion, sug.c_str(), sug.size() + 1);
    }
}

extern "C" int shim_source_paths(shim_db *h, size_t most, shim_data_fn fn,
                                 void *ctx, size_t *n_all, shim_err *e)
{
    try {
        settle(h);
        Reader &r = reader(h);
        with_reopen(h, [&] {
            Xapian::rev rev = ~Xapian::rev(0);
            if (h->shards.size() <= 1) {
                try {
                    rev = h->db.get_revision();
                } catch (const Xapian::InvalidOperationError &) {
                    /* not one local database: read every time */
                }
            }
            if (rev != ~Xapian::rev(0) && rev == r.paths_rev)
                return;
            r.paths_rev = ~Xapian::rev(0);
            r.paths = source_paths(h->db);
            r.paths_rev = rev;
        });
        if (n_all)
            *n_all = r.paths.size();
        for (size_t i = 0; i < r.paths.size() && (!most || i < most); i++)
            if (fn(ctx, r.paths[i].c_str(), r.paths[i].size())) {
                set_msg(e, PDX_ENOMEM, "out of memory");
                return PDX_ENOMEM;
            }
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_search(shim_totals *totals, shim_db *h,
                           const shim_query *q, shim_hit_fn fn,
                           shim_snippet_fn snip_fn, shim_facet_fn facet_fn,
                           void *ctx, shim_err *e)
{
    try {
        const Deadline deadline(q->time_limit); /* retries included */
        /* A formula's TeX scripts joined, as the indexer joins them
         * ("MoS$_2$" is the word mos2; "$\ell_1$" l1 where the index
         * read its formulas so, LAYOUT_META_MATH) */
        std::string joined;
        shim_query jq;
        if (q->text && text_may_hold_scripts(q->text, strlen(q->text),
                                             h->math_scripts)) {
            joined = q->text;
            joined.resize(text_join_tex_scripts(joined.data(), joined.size(),
                                                &joined[0], h->math_scripts));
            jq = *q;
            jq.text = joined.c_str();
            q = &jq;
        }
        settle(h);
        std::vector<shim_hit> hits;
        std::map<std::string, double> stems;
        std::unique_ptr<Facets> spy;
        if (q->facets)
            spy.reset(new Facets(q->facets, h->names, all_local(h)));
        with_reopen(h, [&] {
            run_search(h, q, totals, hits, stems, spy.get(), deadline);
            reader(h).cursor_dbs_search = 0; /* ended: cursor_dbs() */
        });
        const bool snippets = q->snippet_bytes && q->text && *q->text;
        for (const auto &hit : hits) {
            /* The caller decodes the record once and lends its abstract:
             * the snippet is made from that, not from a second parse. */
            const char *abstract = nullptr, *title = nullptr;
            if (fn(ctx, hit.score, hit.data.data(), hit.data.size(),
                   hit.explain.empty() ? nullptr : hit.explain.c_str(),
                   &abstract, &title) ||
                (snippets &&
                 snip_fn(ctx,
                         make_snippet(h, abstract ? abstract : "", stems,
                                      q->snippet_bytes)
                             .c_str(),
                         mark_words(h, title ? title : "", stems).c_str()))) {
                set_msg(e, PDX_ENOMEM, "out of memory");
                return PDX_ENOMEM;
            }
        }
        for (unsigned k = 0; spy && k < SHIM_N_FACETS; k++) {
            if (!(q->facets & (1u << k)))
                continue;
            for (const auto &v : spy->top(k))
                if (facet_fn(ctx, 1u << k, v.first.c_str(), v.second)) {
                    set_msg(e, PDX_ENOMEM, "out of memory");
                    return PDX_ENOMEM;
                }
        }
        return 0;
    } catch (...) {
        return fail(e);
    }
}

/* Expand-set terms worth suggesting: the default field's stems (no
 * prefix), never boolean or field terms, so the feedback query ranks by
 * content; never a stem a compound was joined into (LAYOUT_JOINED_KEY),
 * whose parts are there already. */
struct ContentTerms : public Xapian::ExpandDecider {
    const Xapian::Database *joined; /* the index's marks, or none */
    explicit ContentTerms(const Xapian::Database *j) : joined(j) {}
    bool operator()(const std::string &t) const override
    {
        return is_plain_term(t) && !joined_stem(joined, t);
    }
};

extern "C" int shim_similar(shim_totals *totals, shim_db *h, const char *id,
                            size_t n_terms, double k1, double b, size_t limit,
                            shim_hit_fn fn, void *ctx, shim_err *e)
{
    try {
        std::vector<std::pair<double, std::string>> hits;
        bool found = true;
        const std::string q = std::string(LAYOUT_P_ID) + id;
        settle(h);
        with_reopen(h, [&] {
            hits.clear();
            Xapian::PostingIterator p = h->db.postlist_begin(q);
            if (p == h->db.postlist_end(q)) {
                found = false;
                return;
            }
            Xapian::Enquire enq(h->db);
            Xapian::RSet rset;
            rset.add_document(*p);
            ContentTerms decider(h->compounds_joined ? &h->db : nullptr);
            Xapian::ESet eset = enq.get_eset(
                static_cast<Xapian::termcount>(n_terms), rset, &decider);
            std::vector<std::string> terms(eset.begin(), eset.end());
            Xapian::Query query(Xapian::Query::OP_ELITE_SET, terms.begin(),
                                terms.end(),
                                static_cast<Xapian::termcount>(n_terms));
            enq.set_query(Xapian::Query(Xapian::Query::OP_AND_NOT, query,
                                        Xapian::Query(q)));
            enq.set_weighting_scheme(Xapian::BM25Weight(k1, 0, 1, b, 0.5));
            enq.set_sort_by_relevance_then_value(SLOT_ID, false);
            Xapian::MSet ms =
                enq.get_mset(0, static_cast<Xapian::doccount>(limit));
            for (Xapian::MSetIterator it = ms.begin(); it != ms.end(); ++it)
                hits.emplace_back(it.get_weight(),
                                  stored_record(h, it.get_document()));
            count_total(h, enq.get_query(), nullptr, ms,
                        SHIM_DEFAULT_COUNT_LIMIT, 0.0, totals, false);
        });
        if (!found) {
            set_msg(e, PDX_ENOTFOUND,
                    std::string("no work with id '") + id + "'");
            return PDX_ENOTFOUND;
        }
        for (const auto &hit : hits)
            if (fn(ctx, hit.first, hit.second.data(), hit.second.size(),
                   nullptr, nullptr, nullptr)) {
                set_msg(e, PDX_ENOMEM, "out of memory");
                return PDX_ENOMEM;
            }
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_stats_get(shim_stats *out, shim_db *h, shim_err *e)
{
    try {
        settle(h);
        with_reopen(h, [&] {
            out->docs = works_of(h);
            out->postings = h->db.get_total_length();
            out->avg_length = h->db.get_avlength();
            uint64_t n = 0;
            for (Xapian::TermIterator t = h->db.allterms_begin();
                 t != h->db.allterms_end(); ++t)
                n++;
            out->terms = n;
            std::string up = h->db.get_metadata(UPDATED_KEY);
            out->last_updated = up.empty() ? 0 : std::stoll(up);
            out->layout = std::stoi(h->db.get_metadata(LAYOUT_KEY));
            std::string re = h->db.get_metadata(LAYOUT_META_REINDEXED);
            out->last_reindex = re.empty() ? 0 : std::stoll(re);
            uint64_t ns = 0;
            for (Xapian::TermIterator k =
                     h->db.metadata_keys_begin(LAYOUT_META_SOURCE);
                 k != h->db.metadata_keys_end(LAYOUT_META_SOURCE); ++k)
                ns++;
            out->sources = ns;
        });
        return 0;
    } catch (...) {
        return fail(e);
    }
}

