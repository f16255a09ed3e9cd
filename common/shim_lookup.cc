/*
 * shim_lookup.cc -- reading an index by key, for both sides: works by
 * their merge keys (shim_lookup, shim_lookup_pruned), metadata by key and
 * by prefix (the source fingerprints, the dictionaries), the terms under
 * a prefix, a term's frequency, and the count of works.  Every function
 * goes through the fence in shim.cc (fail()) and reopens on
 * DatabaseModifiedError (with_reopen).
 */
#include <xapian.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "shim_db.hh"

using namespace pdxshim;

extern "C" int shim_lookup_pruned(shim_db *h, const char *const *terms,
                                  size_t n, const shim_pruned *p, size_t np,
                                  shim_data_fn fn, void *ctx, shim_err *e)
{
    try {
        /* A key no work holds is skipped by its term frequency, which a
         * writer answers from its pending changes as they are.  Opening
         * a posting list on a writer instead (Xapian 1.4's glass) first
         * writes that term's pending postings, and every pending
         * position list, into the B-trees: one lookup per record would
         * then undo the commit batch, and a larger batch would be slower,
         * not faster.  A new work, whose
         * keys no work holds yet, opens no posting list at all.  And a
         * key the writer itself knows no document holds (Side::may_hold:
         * on a new index, nearly every key of every new work) needs no
         * settling and no Xapian at all. */
        auto maybe = [h](const char *t) {
            return t && *t && (!h->writer || h->writer->may_hold(t));
        };
        std::vector<const char *> held;
        for (size_t i = 0; i < n; i++)
            if (maybe(terms[i]))
                held.push_back(terms[i]);
        std::vector<shim_pruned> held_p;
        for (size_t i = 0; i < np; i++)
            if (maybe(p[i].key))
                held_p.push_back(p[i]);
        if (held.empty() && held_p.empty())
            return 0;
        terms = held.data();
        n = held.size();
        p = held_p.data();
        np = held_p.size();
        settle_for(h, terms, n);
        for (size_t i = 0; i < np; i++)
            settle_for(h, &p[i].key, 1);
        auto usable = [h](const char *t) {
            return t && *t && strlen(t) <= MAX_TERM_BYTES &&
                   h->db.get_termfreq(t) > 0;
        };
        std::vector<std::string> found;
        with_reopen(h, [&] {
            found.clear();
            std::vector<Xapian::docid> ids;
            for (size_t i = 0; i < n; i++) {
                if (!usable(terms[i]))
                    continue;
                for (Xapian::PostingIterator d = h->db.postlist_begin(terms[i]);
                     d != h->db.postlist_end(terms[i]); ++d)
                    ids.push_back(*d);
            }
            /* key AND_NOT (not...): both lists ascend, so each "not" list
             * is only skipped forward. */
            for (size_t i = 0; i < np; i++) {
                if (!usable(p[i].key))
                    continue;
                std::vector<Xapian::PostingIterator> nots;
                for (size_t k = 0; k < p[i].n_not; k++)
                    nots.push_back(h->db.postlist_begin(p[i].not_terms[k]));
                const Xapian::PostingIterator end;
                for (Xapian::PostingIterator d = h->db.postlist_begin(p[i].key);
                     d != end; ++d) {
                    bool out = false;
                    for (auto &x : nots) {
                        if (x != end && *x < *d)
                            x.skip_to(*d);
                        out |= x != end && *x == *d;
                    }
                    if (!out)
                        ids.push_back(*d);
                }
            }
            std::sort(ids.begin(), ids.end());
            ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
            for (Xapian::docid id : ids)
                found.push_back(stored_record(h, h->db.get_document(id)));
        });
        for (const std::string &data : found)
            if (fn(ctx, data.data(), data.size())) {
                set_msg(e, PDX_ENOMEM, "out of memory");
                return PDX_ENOMEM;
            }
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_lookup(shim_db *h, const char *const *terms, size_t n,
                           shim_data_fn fn, void *ctx, shim_err *e)
{
    return shim_lookup_pruned(h, terms, n, NULL, 0, fn, ctx, e);
}
extern "C" int shim_meta_get(shim_db *h, const char *key, shim_data_fn fn,
                             void *ctx, shim_err *e)
{
    try {
        std::string v;
        settle(h);
        with_reopen(h, [&] { v = h->db.get_metadata(key); });
        if (v.empty())
            return PDX_ENOTFOUND;
        return fn(ctx, v.data(), v.size()) ? PDX_ENOMEM : 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_meta_list(shim_db *h, const char *prefix, shim_data_fn fn,
                              void *ctx, shim_err *e)
{
    try {
        std::vector<std::string> values;
        settle(h);
        with_reopen(h, [&] {
            values.clear();
            for (Xapian::TermIterator k = h->db.metadata_keys_begin(prefix);
                 k != h->db.metadata_keys_end(prefix); ++k) {
                std::string v = h->db.get_metadata(*k);
                if (!v.empty())
                    values.push_back(v);
            }
        });
        for (const std::string &v : values) {
            if (fn(ctx, v.data(), v.size())) {
                set_msg(e, PDX_ENOMEM, "out of memory");
                return PDX_ENOMEM;
            }
        }
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_terms(shim_db *h, const char *prefix, unsigned min_works,
                          shim_data_fn fn, void *ctx, shim_err *e)
{
    try {
        std::vector<std::string> found;
        const std::string p(prefix);
        settle(h);
        with_reopen(h, [&] {
            found.clear();
            for (Xapian::TermIterator t = h->db.allterms_begin(p);
                 t != h->db.allterms_end(p); ++t)
                if (t.get_termfreq() >= min_works)
                    found.push_back(*t);
        });
        for (const auto &term : found)
            if (fn(ctx, term.data(), term.size())) {
                set_msg(e, PDX_ENOMEM, "out of memory");
                return PDX_ENOMEM;
            }
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_termfreq(shim_db *h, const char *term, uint64_t *out,
                             shim_err *e)
{
    try {
        *out = 0;
        if (!term || !*term || strlen(term) > MAX_TERM_BYTES)
            return 0;
        settle_for(h, &term, 1);
        with_reopen(h, [&] { *out = h->db.get_termfreq(term); });
        return 0;
    } catch (...) {
        return fail(e);
    }
}

/* pdx_exit_on_fatal: see paperdex.h.  The handler may run on any thread;
 * it only formats and writes, then ends the process without running
 * destructors or exit handlers (the state they would clean up is what
 * failed). */

uint64_t pdxshim::works_of(shim_db *h)
{
    return h->db.get_doccount() - h->db.get_termfreq(LAYOUT_TOMBSTONE);
}

extern "C" int shim_count_works(uint64_t *out, shim_db *h, shim_err *e)
{
    try {
        settle(h);
        with_reopen(h, [&] { *out = works_of(h); });
        return 0;
    } catch (...) {
        return fail(e);
    }
}
