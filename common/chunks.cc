/*
 * chunks.cc -- each positional term's positions kept by the term, in
 * chunks of works (layout 9).  Both sides use it: the
 * writer gathers and writes the chunks (indexer/shim_write.cc), the
 * searcher walks them (ChunkCursor).
 *
 * Why.  Layouts 7 and 8 keep a work's positions in one value a work
 * (common/positions.cc), and the words as written in two more
 * (common/forms.cc).  A phrase is then checked work by work: every work
 * holding its stems has its values read, in docid order, and a phrase
 * of two common words counted to 10,000 reads most of the blocks of
 * three value slots.  Lucene keeps a term's positions beside its
 * postings: a phrase reads its own words' positions and nothing else.
 * bench/form_chunks.cc measured that layout on the arXiv 101k and the
 * synthetic 1M (bench/RESULTS.md, "Quoted phrases with each word's
 * positions kept by the word"): a phrase's top 10 in a thirteenth of the
 * time at p50 and a tenth at p99, in 0.59 to 0.64 of the bytes of the
 * three values.
 *
 * Where.  Xapian metadata items, whose keys glass keeps sorted in the
 * postlist table, so that a term's chunks are neighbours:
 *
 *   key    := 0x01 term 0x00 ns last
 *   term   the positional term, as the index names it: a default-field
 *          stem, or S or A and the stem (common/layout.h)
 *   ns     one byte: the writer's namespace (CHUNK_NS_ONE for an index
 *          written by one writer); the shards of a --jobs build each
 *          write their own, so that the compactor keeps every chunk
 *   last   4 bytes, big-endian: the last docid of the chunk
 *
 * A term's chunks of one namespace sort by their last docid, so a reader
 * looking for docid d skips to the key of d and reads that chunk.
 *
 *   chunk  := nforms form[nforms] entry*
 *   nforms varint: how many forms the chunk names
 *   form   4 bytes, little-endian: form_hash32 of a word written in the
 *          term's field as another form than its stem (forms.cc)
 *   entry  := did head [f] first delta* [tag*]
 *   did    varint: the work's docid, the first of the chunk as it is,
 *          the others less the one before
 *   head   varint: (count - 1) << 2 | kind, count the work's positions of
 *          the term, kind how its words were written:
 *            0  every one as the stem itself
 *            1  every one as form f (varint f: an index into form[])
 *            2  in several forms: count tags follow the positions, each
 *               0 for the stem itself or f + 1
 *            3  not known (a field TermGenerator read, for CJK text):
 *               any form the work writes may stand at any position
 *   first  varint: the first position, less the work's base for the
 *          field (its least position there), so that an abstract's
 *          word is not stored as 130 when it is the abstract's 30th
 *   delta  count - 1 varints: each position less the one before (>= 1)
 *
 * A chunk holds at most CHUNK_WORKS works.  The writer
 * (ChunkBuilder) keeps each term's last chunk open in memory across
 * commits: a chunk a commit would cost the rare terms a key each (on the
 * arXiv 101k built in commits of 10,000 works, 1.7 million keys for
 * 300,000 terms, most of them under 16 bytes).  A commit writes, with its
 * works, the chunks that filled, and everything else its works added as
 * one delta:
 *
 *   key    := 0x02 ns seq (seq 4 bytes, big-endian: the writer's count)
 *   delta  := n offset[n] section[n]: a directory of the n terms, each
 *             section the term, the docid before its first entry, the
 *             forms its entries name and the entries, as in a chunk
 *
 * so that no committed work lacks its positions and a commit writes only
 * what is new.  Cursors read a term's deltas after its chunks, passing
 * the entries a chunk already holds.  The writer's last commit (or a
 * commit past its memory budget) writes each open chunk whole under its
 * new last docid, in place of the key it went in under before, and drops
 * the deltas; past the budget the open chunks are then let go, and a
 * term's next works begin a chunk of their own.  A writer that did not
 * end leaves its deltas: the next one reads them back into its open
 * chunks before its first work and makes its first commit whole.  A
 * shard of a --jobs build, read by nobody before its end, writes no
 * deltas.
 *
 * Replacing a work deletes it and adds it again under a new docid, so
 * that docids only grow along a namespace.  The entries of a deleted
 * work stay until the index is compacted; a reader meets them only
 * through a query that also holds the work's stems, which a deleted work
 * no longer has.  The compactor that merges a --jobs build's shards
 * renumbers their works: it records each namespace's docid offset and
 * the range of its live works (LAYOUT_META_CHUNK_OFF), read once a
 * database (ChunkSpace); one index compacts without renumbering.
 */
#include <xapian.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "layout.h"
#include "shim_db.hh"

namespace pdxshim {

namespace {

void put_be32(std::string &s, uint32_t x)
{
    for (int i = 3; i >= 0; i--)
        s += static_cast<char>((x >> (8 * i)) & 0xff);
}

uint32_t get_be32(const char *p)
{
    uint32_t x = 0;
    for (int i = 0; i < 4; i++)
        x = (x << 8) | static_cast<unsigned char>(p[i]);
    return x;
}

void put_le32(std::string &s, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        s += static_cast<char>((x >> (8 * i)) & 0xff);
}

uint32_t get_le32(const unsigned char *p)
{
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
           static_cast<uint32_t>(p[2]) << 16 |
           static_cast<uint32_t>(p[3]) << 24;
}

[[noreturn]] void corrupt(const std::string &term)
{
    throw Xapian::DatabaseCorruptError("a positions chunk of '" + term +
                                       "' cannot be read");
}

} // namespace

std::string chunk_prefix(const std::string &term)
{
    std::string k(1, '\1');
    k += term;
    k += '\0';
    return k;
}

std::string chunk_key(const std::string &term, unsigned char ns,
                      Xapian::docid last)
{
    std::string k = chunk_prefix(term);
    k += static_cast<char>(ns);
    put_be32(k, last);
    return k;
}

/* ---- the writer's side ------------------------------------------------ */

/* A work's terms are looked up in three passes, so that the cache misses
 * of one term's slot, chunk and entries overlap those of the others
 * rather than follow one another: each slot fetched, then each chunk,
 * then each chunk's entries written.  The open chunks of the 101k are
 * some 60 MB, read at random: one lookup at a time, they cost about 6% of
 * the build. */
void ChunkBuilder::add(Xapian::docid did, const ChunkTerm *terms, size_t n)
{
    grow(n);
    const size_t mask = slots.size() - 1;
    hashes.resize(n);
    found.resize(n);
    for (size_t i = 0; i < n; i++) {
        hashes[i] = fnv1a64(terms[i].term.data(), terms[i].term.size());
        __builtin_prefetch(&slots[hashes[i] & mask]);
    }
    for (size_t i = 0; i < n; i++) {
        found[i] = probe(terms[i].term, hashes[i]);
        const char *o = reinterpret_cast<const char *>(&open[found[i]]);
        __builtin_prefetch(o);
        __builtin_prefetch(o + 64);
    }
    for (size_t i = 0; i < n; i++) {
        const Open &o = open[found[i]];
        __builtin_prefetch(o.entries.data() + o.entries.size());
    }
    for (size_t i = 0; i < n; i++) {
        const ChunkTerm &t = terms[i];
        if (t.at.empty())
            continue;
        Open *op = &open[found[i]];
        if (op->term != t.term)
            op = &find(t.term, hashes[i]); /* the high bits met another's */
        Open &o = *op;
        if (o.works == CHUNK_WORKS)
            seal(o);
        o.dirty = true;
        const size_t before = o.entries.size();
        put_varint(o.entries, o.works ? did - o.last : did);
        o.last = did;
        o.works++;
        /* kind: the forms of the positions */
        unsigned kind = 0;
        uint32_t only = 0;
        if (t.unsure)
            kind = 3;
        else if (!t.form.empty()) {
            only = t.form[0];
            kind = only ? 1 : 0;
            for (uint32_t f : t.form)
                if (f != only) {
                    kind = 2;
                    break;
                }
        }
        const uint32_t count = static_cast<uint32_t>(t.at.size());
        put_varint(o.entries, (count - 1) << 2 | kind);
        if (kind == 1)
            put_varint(o.entries, o.index_of(only));
        put_varint(o.entries, t.at[0]);
        for (size_t j = 1; j < t.at.size(); j++)
            put_varint(o.entries, t.at[j] - t.at[j - 1]);
        if (kind == 2)
            for (uint32_t f : t.form)
                put_varint(o.entries, f ? o.index_of(f) + 1 : 0);
        held += o.entries.size() - before;
    }
}

uint32_t ChunkBuilder::Open::index_of(uint32_t form)
{
    for (size_t i = 0; i < forms.size(); i++)
        if (forms[i] == form)
            return static_cast<uint32_t>(i);
    forms.push_back(form);
    return static_cast<uint32_t>(forms.size() - 1);
}

std::string ChunkBuilder::Open::value() const
{
    std::string v;
    put_varint(v, static_cast<uint32_t>(forms.size()));
    for (uint32_t f : forms)
        put_le32(v, f);
    v += entries;
    return v;
}

/* Room in slots for `more` new terms, at most half full; open reserves
 * as many, so that add()'s prefetches stay where they point. */
void ChunkBuilder::grow(size_t more)
{
    if (open.capacity() < open.size() + more)
        open.reserve(std::max(open.size() + more, open.capacity() * 2));
    if ((open.size() + more) * 2 < slots.size())
        return;
    size_t n = std::max<size_t>(1024, slots.size());
    while ((open.size() + more) * 2 >= n)
        n *= 2;
    slots.assign(n, 0);
    const size_t mask = n - 1;
    for (size_t i = 0; i < open.size(); i++) {
        size_t at = open[i].hash & mask;
        while (slots[at])
            at = (at + 1) & mask;
        slots[at] = uint64_t{tag(open[i].hash)} << 32 | (i + 1);
    }
}

/* The index in open of the first chunk from h's slot on whose hash has
 * h's high bits, or of a new chunk of term. */
uint32_t ChunkBuilder::probe(const std::string &term, uint64_t h)
{
    const size_t mask = slots.size() - 1;
    size_t at = h & mask;
    for (; slots[at]; at = (at + 1) & mask)
        if (slots[at] >> 32 == tag(h))
            return static_cast<uint32_t>((slots[at] & 0xffffffffu) - 1);
    slots[at] = uint64_t{tag(h)} << 32 | (open.size() + 1);
    open.emplace_back();
    open.back().hash = h;
    open.back().term = term;
    return static_cast<uint32_t>(open.size() - 1);
}

/* term's open chunk (h its hash), by its whole term: when probe() met a
 * chunk of another term with the same high bits. */
ChunkBuilder::Open &ChunkBuilder::find(const std::string &term, uint64_t h)
{
    const size_t mask = slots.size() - 1;
    size_t at = h & mask;
    for (; slots[at]; at = (at + 1) & mask) {
        Open &o = open[(slots[at] & 0xffffffffu) - 1];
        if (o.hash == h && o.term == term)
            return o;
    }
    grow(1);
    const size_t m2 = slots.size() - 1;
    at = h & m2;
    while (slots[at])
        at = (at + 1) & m2;
    slots[at] = uint64_t{tag(h)} << 32 | (open.size() + 1);
    open.emplace_back();
    open.back().hash = h;
    open.back().term = term;
    return open.back();
}

void ChunkBuilder::seal(Open &o)
{
    const std::string key = chunk_key(o.term, ns, o.last);
    if (!o.written.empty() && o.written != key)
        gone.push_back(std::move(o.written));
    sealed.emplace_back(key, o.value());
    held -= o.entries.size();
    o.entries.clear();
    o.forms.clear();
    o.written.clear();
    o.works = 0;
    o.dirty = false;
    /* its entries in deltas are in this chunk too: the next ones begin a
     * chunk, their first docid whole */
    o.from = 0;
    o.from_last = 0;
}

std::string delta_key(unsigned char ns, uint32_t seq)
{
    std::string k(1, DELTA_PREFIX);
    k += static_cast<char>(ns);
    put_be32(k, seq);
    return k;
}

/* Before the writer's first work: the deltas a writer that did not end
 * left (its open chunks lost with it) are read back, their entries added
 * to this writer's open chunks (their docids are below any it adds), and
 * its first commit made whole, which writes them into chunks and drops
 * the deltas. */
void ChunkBuilder::start(Xapian::WritableDatabase &db)
{
    started = true;
    const std::string prefix(1, DELTA_PREFIX);
    std::vector<std::string> keys;
    for (Xapian::TermIterator k = db.metadata_keys_begin(prefix);
         k != db.metadata_keys_end(prefix); ++k)
        if ((*k).size() > 1 && static_cast<unsigned char>((*k)[1]) == ns)
            keys.push_back(*k);
    if (keys.empty())
        return;
    const auto space = std::make_shared<const ChunkSpace>(db);
    std::vector<std::string> terms;
    for (const auto &d : space->deltas) {
        if (d.first != ns)
            continue;
        const std::string &blob = d.second;
        const unsigned char *b = reinterpret_cast<const unsigned char *>(blob.data());
        const unsigned char *e = b + blob.size();
        const uint32_t n = blob.size() >= 4 ? get_le32(b) : 0;
        for (uint32_t i = 0; i < n && 4 + 4 * (i + 1) <= blob.size(); i++) {
            const unsigned char *q = b + get_le32(b + 4 + 4 * i);
            uint32_t tn;
            if (q >= e || !get_varint(q, e, tn) || tn > static_cast<size_t>(e - q))
                corrupt("(a delta)");
            terms.emplace_back(reinterpret_cast<const char *>(q), tn);
        }
    }
    std::sort(terms.begin(), terms.end());
    terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
    std::vector<ChunkTerm> one(1);
    for (const std::string &term : terms) {
        ChunkCursor c(db, term, space);
        while (c.next()) {
            if (!c.from_delta())
                continue;
            ChunkTerm &t = one[0];
            t.term = term;
            t.at = c.positions();
            t.unsure = c.forms_unknown();
            t.form.clear();
            if (!t.unsure)
                for (size_t i = 0; i < t.at.size(); i++)
                    t.form.push_back(c.form_at(i));
            add(c.did, one);
        }
    }
    gone.insert(gone.end(), keys.begin(), keys.end());
    recovered = true;
}

/* The entries of the open chunks since the last delta, as one delta:
 *
 *   delta   := n offset[n] section[n]
 *   n       4 bytes, little-endian: how many terms
 *   offset  4 bytes each, little-endian: where each section begins, the
 *           sections in the order of their terms
 *   section := len term base nforms form[nforms] bytes entry*
 *           varints but the forms (4 bytes each, as a chunk's): the
 *           term, the docid the first entry's gap is from (0: its docid
 *           is whole), the open chunk's forms, the entries' bytes */
void ChunkBuilder::write_delta(Xapian::WritableDatabase &db)
{
    std::vector<Open *> news;
    for (Open &o : open)
        if (o.works && o.entries.size() > o.from)
            news.push_back(&o);
    if (news.empty())
        return;
    std::sort(news.begin(), news.end(),
              [](const Open *a, const Open *b) { return a->term < b->term; });
    std::string head, body;
    put_le32(head, static_cast<uint32_t>(news.size()));
    const size_t at0 = 4 + 4 * news.size();
    for (Open *o : news) {
        put_le32(head, static_cast<uint32_t>(at0 + body.size()));
        put_varint(body, static_cast<uint32_t>(o->term.size()));
        body += o->term;
        put_varint(body, o->from_last);
        put_varint(body, static_cast<uint32_t>(o->forms.size()));
        for (uint32_t f : o->forms)
            put_le32(body, f);
        put_varint(body, static_cast<uint32_t>(o->entries.size() - o->from));
        body.append(o->entries, o->from, std::string::npos);
        o->from = o->entries.size();
        o->from_last = o->last;
    }
    const std::string key = delta_key(ns, next_delta++);
    db.set_metadata(key, head + body);
    deltas.push_back(key);
}

void ChunkBuilder::commit(Xapian::WritableDatabase &db, bool whole)
{
    if (!started)
        start(db);
    if (recovered)
        whole = true;
    recovered = false;
    /* In key order: Xapian's B-tree then finds each key in or beside the
     * block of the one before, where in the order they came (at random
     * by term) each costs a read of its block. */
    std::sort(gone.begin(), gone.end());
    for (const std::string &k : gone)
        db.set_metadata(k, std::string());
    gone.clear();
    std::sort(sealed.begin(), sealed.end());
    for (const auto &kv : sealed)
        db.set_metadata(kv.first, kv.second);
    sealed.clear();
    if (!whole && held <= budget) {
        if (write_deltas)
            write_delta(db);
        return;
    }
    /* Each open chunk that changed goes in whole under its last docid,
     * in place of the key it went in under before; it stays open, so that
     * the next works of the term join it rather than begin a chunk of
     * their own.  The deltas are then in chunks. */
    std::vector<Open *> todo;
    for (Open &o : open) {
        if (o.dirty && o.works)
            todo.push_back(&o);
        o.from = o.entries.size();
        o.from_last = o.last;
    }
    std::sort(todo.begin(), todo.end(), [](const Open *a, const Open *b) {
        return a->term < b->term;
    });
    for (Open *o : todo) {
        const std::string key = chunk_key(o->term, ns, o->last);
        if (!o->written.empty() && o->written != key)
            db.set_metadata(o->written, std::string());
        db.set_metadata(key, o->value());
        o->written = key;
        o->dirty = false;
    }
    for (const std::string &k : deltas)
        db.set_metadata(k, std::string());
    deltas.clear();
    /* Past the memory budget, the open chunks are let go: written
     * already, they stay as they are, and a term's next works begin a
     * chunk of their own. */
    if (held > budget) {
        open.clear();
        slots.clear();
        held = 0;
    }
}

/* ---- the reader's side ------------------------------------------------ */

ChunkSpace::ChunkSpace(const Xapian::Database &db)
{
    const std::string dp(1, DELTA_PREFIX);
    for (Xapian::TermIterator k = db.metadata_keys_begin(dp);
         k != db.metadata_keys_end(dp); ++k)
        if ((*k).size() > 1)
            deltas.emplace_back(static_cast<unsigned char>((*k)[1]),
                                db.get_metadata(*k));
    const std::string o(LAYOUT_META_CHUNK_OFF);
    for (Xapian::TermIterator k = db.metadata_keys_begin(o);
         k != db.metadata_keys_end(o); ++k) {
        const long ns = strtol((*k).c_str() + o.size(), nullptr, 10);
        if (ns < 0 || ns > 255)
            continue;
        const std::string v = db.get_metadata(*k);
        /* "off lo hi": a shift (negative when the compactor moved the
         * namespace down) and two docids; a damaged value would move
         * every work of the namespace by what it says: an error instead */
        char *rest = nullptr;
        const long long f = strtoll(v.c_str(), &rest, 10);
        const unsigned long long l = strtoull(rest, &rest, 10);
        const unsigned long long h = strtoull(rest, &rest, 10);
        const long long most = std::numeric_limits<Xapian::docid>::max();
        if (f < -most || f > most || l > static_cast<unsigned long long>(most) ||
            h > static_cast<unsigned long long>(most))
            throw Xapian::DatabaseCorruptError("metadata " + *k + " cannot be read");
        off[ns] = f;
        lo[ns] = static_cast<Xapian::docid>(l);
        hi[ns] = static_cast<Xapian::docid>(h);
        if (hi[ns])
            ends.emplace_back(static_cast<Xapian::docid>(off[ns] + hi[ns]),
                              static_cast<unsigned char>(ns));
    }
    std::sort(ends.begin(), ends.end(),
              [](const std::pair<Xapian::docid, unsigned char> &a,
                 const std::pair<Xapian::docid, unsigned char> &b) {
                  return a.second < b.second;
              });
}

unsigned char ChunkSpace::ns_of(Xapian::docid d) const
{
    for (const auto &e : ends)
        if (e.first >= d)
            return e.second;
    return CHUNK_NS_ONE;
}

bool ChunkSpace::section(size_t i, const std::string &term,
                         Xapian::docid &base, const unsigned char *&p,
                         const unsigned char *&end) const
{
    const std::string &blob = deltas[i].second;
    const unsigned char *b = reinterpret_cast<const unsigned char *>(blob.data());
    const unsigned char *e = b + blob.size();
    const uint32_t n = blob.size() >= 4 ? get_le32(b) : 0;
    if (4 + 4 * static_cast<size_t>(n) > blob.size())
        corrupt(term);
    /* the term's section, by binary search over the offsets */
    size_t l = 0, r = n;
    while (l < r) {
        const size_t mid = (l + r) / 2;
        const uint32_t at = get_le32(b + 4 + 4 * mid);
        if (at >= blob.size())
            corrupt(term);
        const unsigned char *q = b + at;
        uint32_t tn;
        if (!get_varint(q, e, tn) || tn > static_cast<size_t>(e - q))
            corrupt(term);
        const int c = std::string(reinterpret_cast<const char *>(q), tn).compare(term);
        if (c == 0) {
            q += tn;
            uint32_t b32, nbytes;
            if (!get_varint(q, e, b32))
                corrupt(term);
            base = b32;
            p = q; /* nforms form* then the entries' byte count */
            uint32_t nf;
            if (!get_varint(q, e, nf) || nf > static_cast<size_t>(e - q) / 4)
                corrupt(term);
            q += 4 * nf;
            if (!get_varint(q, e, nbytes) || nbytes > static_cast<size_t>(e - q))
                corrupt(term);
            end = q + nbytes;
            return true;
        }
        if (c < 0)
            l = mid + 1;
        else
            r = mid;
    }
    return false;
}

ChunkCursor::ChunkCursor(const Xapian::Database &db_, const std::string &term_,
                         std::shared_ptr<const ChunkSpace> space_)
    : db(db_), term(term_), prefix(chunk_prefix(term_)),
      space(std::move(space_)), key(db_.metadata_keys_begin(prefix)),
      key_end(db_.metadata_keys_end(prefix))
{
}

bool ChunkCursor::load()
{
    std::string k;
    if (!ahead.empty()) {
        k = std::move(ahead.front().first);
        chunk = std::move(ahead.front().second);
        ahead.pop_front();
    } else {
        reseek();
        if (key == key_end)
            return load_delta();
        /* Each get_metadata() reads its key's block unless Xapian's
         * B-tree is there already, and the cursors of a query take turns:
         * a cursor reading on without a jump reads the next chunks now,
         * beside this one. */
        readahead = jumped ? 0 : std::min(8u, readahead ? 2 * readahead : 1);
        jumped = false;
        k = *key;
        chunk = db.get_metadata(k);
        ++key;
        nread++;
        for (unsigned i = 0; i < readahead && key != key_end; i++, ++key, nread++)
            ahead.emplace_back(*key, db.get_metadata(*key));
    }
    if (keeping)
        kept.emplace_back(k, chunk);
    enter(k);
    return true;
}

/* Into chunk, read from key k: its forms read, at its first entry. */
void ChunkCursor::enter(const std::string &k)
{
    chunk_ns = static_cast<unsigned char>(k[k.size() - 5]);
    chunk_last = static_cast<Xapian::docid>(
        get_be32(k.data() + k.size() - 4) + space->off[chunk_ns]);
    p = reinterpret_cast<const unsigned char *>(chunk.data());
    end = p + chunk.size();
    read_forms(p, end);
    in_chunk = 0;
}

/* After rewind_to(): the key iterator, left further on, set again to the
 * key after the chunk gone back to. */
void ChunkCursor::reseek()
{
    if (after.empty())
        return;
    key = db.metadata_keys_begin(prefix);
    key.skip_to(after);
    if (key != key_end && *key == after)
        ++key;
    after.clear();
    jumped = true;
}

bool ChunkCursor::rewind_to(Xapian::docid d)
{
    for (size_t i = kept.size(); i-- > 0;) {
        const std::string &k = kept[i].first;
        const unsigned char ns = static_cast<unsigned char>(k[k.size() - 5]);
        const long long last = get_be32(k.data() + k.size() - 4) + space->off[ns];
        if (last < static_cast<long long>(d))
            continue;
        /* its first entry's docid */
        const unsigned char *q =
            reinterpret_cast<const unsigned char *>(kept[i].second.data());
        const unsigned char *e = q + kept[i].second.size();
        uint32_t nf, first;
        if (!get_varint(q, e, nf) || nf > static_cast<size_t>(e - q) / 4)
            corrupt(term);
        q += 4 * static_cast<size_t>(nf);
        if (!get_varint(q, e, first))
            corrupt(term);
        if (first + space->off[ns] > static_cast<long long>(d))
            continue;
        chunk = kept[i].second;
        enter(k);
        after = k;
        ahead.clear();
        in_delta = false;
        next_delta = 0;
        did = 0;
        return skip_to(d);
    }
    /* from the term's first chunk */
    key = db.metadata_keys_begin(prefix);
    after.clear();
    ahead.clear();
    p = end = nullptr;
    in_delta = false;
    next_delta = 0;
    chunked_to = 0;
    readahead = 0;
    jumped = false;
    did = 0;
    return skip_to(d);
}

/* The table of forms a chunk or a delta's section begins with, at q
 * (moved past it). */
void ChunkCursor::read_forms(const unsigned char *&q, const unsigned char *e)
{
    uint32_t n;
    if (!get_varint(q, e, n) || n > static_cast<size_t>(e - q) / 4)
        corrupt(term);
    forms.resize(n);
    for (uint32_t f = 0; f < n; f++, q += 4)
        forms[f] = get_le32(q);
}

/* Past the chunks, the term's section of the next delta that has one
 * (false: none left).  Its first entry's docid is a gap from its base;
 * its entries up to the last the chunks gave of its namespace are in a
 * chunk too (advance() passes them). */
bool ChunkCursor::load_delta()
{
    while (next_delta < space->deltas.size()) {
        const size_t i = next_delta++;
        Xapian::docid base;
        const unsigned char *q, *e;
        if (!space->section(i, term, base, q, e))
            continue;
        in_delta = true;
        chunk_ns = space->deltas[i].first;
        if (chunked_ns != chunk_ns)
            chunked_to = 0;
        read_forms(q, e);
        uint32_t nbytes;
        if (!get_varint(q, e, nbytes))
            corrupt(term);
        p = q;
        end = e;
        local = base;
        in_chunk = 1; /* the first entry's docid is a gap from base */
        chunk_last = ~0u;
        return true;
    }
    return false;
}

/* Past n varints at q (below e), or false for a truncated one.  A
 * varint ends at each byte without its high bit: eight bytes are read as
 * a word, their ends counted, and the word holding the n-th end gives
 * its byte by clearing the ends before it.  An entry's positions are
 * mostly one to three one-byte varints, so the count n is small and the
 * loop over bytes it replaces was the most of a cursor's step. */
static inline bool skip_varints(const unsigned char *&q,
                                const unsigned char *e, uint32_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (n && e - q >= 8) {
        uint64_t w;
        memcpy(&w, q, 8);
        uint64_t ends = ~w & 0x8080808080808080ULL;
        /* the ends (bits 7, 15, ..., 63) summed into the top byte */
        const uint32_t c = static_cast<uint32_t>(
            ((ends >> 7) * 0x0101010101010101ULL) >> 56);
        if (c < n) {
            n -= c;
            q += 8;
            continue;
        }
        while (--n)
            ends &= ends - 1;
        q += (__builtin_ctzll(ends) >> 3) + 1;
        return true;
    }
#endif
    while (n) {
        if (q == e)
            return false;
        n -= !(*q++ & 0x80);
    }
    return true;
}

bool ChunkCursor::next()
{
    decoded = false;
    return advance();
}

/* To the next entry of a work of its namespace, its positions left
 * undecoded (decode()). */
bool ChunkCursor::advance()
{
    do
        if (!step())
            return false;
    while ((space->hi[chunk_ns] &&
            (local < space->lo[chunk_ns] || local > space->hi[chunk_ns])) ||
           (in_delta && local <= chunked_to));
    if (!in_delta) {
        chunked_to = local;
        chunked_ns = chunk_ns;
    }
    did = static_cast<Xapian::docid>(local + space->off[chunk_ns]);
    return true;
}

/* The next entry: its docid in its namespace's own numbering in local,
 * its head read, its positions stepped over (body: where they are). */
bool ChunkCursor::step()
{
    while (p == end)
        if (!load()) {
            did = 0;
            return false;
        }
    /* on a local pointer, which the compiler keeps in a register (p is
     * a member: every store through it would be made) */
    const unsigned char *q = p;
    uint32_t gap, head;
    if (!get_varint(q, end, gap) || !get_varint(q, end, head))
        corrupt(term);
    local = in_chunk++ ? local + gap : gap;
    count = (head >> 2) + 1;
    kind = head & 3;
    only = 0;
    if (kind == 1) {
        uint32_t f;
        if (!get_varint(q, end, f) || f >= forms.size())
            corrupt(term);
        only = forms[f];
    }
    body = q;
    if (!skip_varints(q, end, kind == 2 ? 2 * count : count))
        corrupt(term);
    p = q;
    return true;
}

/* The positions (and forms) of the entry step() read. */
void ChunkCursor::decode() const
{
    decoded = true;
    const unsigned char *q = body;
    at.resize(count);
    uint32_t x = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t d;
        if (!get_varint(q, end, d))
            corrupt(term);
        at[i] = x += d;
    }
    form.clear();
    if (kind == 2) {
        form.resize(count);
        for (uint32_t i = 0; i < count; i++) {
            uint32_t f;
            if (!get_varint(q, end, f) || f > forms.size())
                corrupt(term);
            form[i] = f ? forms[f - 1] : 0;
        }
    }
}

bool ChunkCursor::skip_to(Xapian::docid d)
{
    if (did >= d && did)
        return true;
    /* A later chunk when this one ends before d: the key of d's. */
    if (!in_delta && (p == end || chunk_last < d))
        reseek();
    if (!in_delta && (!ahead.empty() || key != key_end) &&
        (p == end || chunk_last < d)) {
        /* in d's namespace, or the next chunk's when that is later:
         * namespaces are in docid order, so a chunk of a later one holds
         * later works only and the key found is d's chunk's either way
         * (a fresh cursor, at the first namespace's first chunk, would
         * otherwise land at the start of d's namespace and read on) */
        const std::string &next_key = ahead.empty() ? *key : ahead.front().first;
        const unsigned char ns = std::max(
            static_cast<unsigned char>(next_key[prefix.size()]), space->ns_of(d));
        std::string want = prefix + static_cast<char>(ns);
        const long long in_ns = static_cast<long long>(d) - space->off[ns];
        put_be32(want, in_ns > 0 ? static_cast<uint32_t>(in_ns) : 0);
        if (next_key < want) {
            while (!ahead.empty() && ahead.front().first < want)
                ahead.pop_front();
            if (ahead.empty() && key != key_end && *key < want) {
                key.skip_to(want);
                jumped = true;
            }
            p = end = nullptr;
        }
    }
    decoded = false;
    while (advance())
        if (did >= d)
            return true;
    return false;
}

uint32_t ChunkCursor::form_at(size_t i) const
{
    if (kind != 2)
        return only;
    if (!decoded)
        decode();
    return form[i];
}

/* ---- ChunkFormSource ---------------------------------------------------- */

ChunkFormSource::ChunkFormSource(std::vector<FormRule> rules_)
    : rules(std::move(rules_))
{
}

Xapian::PostingSource *ChunkFormSource::clone() const
{
    return new ChunkFormSource(rules);
}

void ChunkFormSource::init(const Xapian::Database &db_)
{
    db = db_;
    values.reset();
    if (db.get_metadata(LAYOUT_META_CHUNKS) != "1") {
        values.reset(new FormSource(rules));
        values->init(db);
        return;
    }
    space = std::make_shared<const ChunkSpace>(db);
    cursors.clear();
    cursors.resize(rules.size());
    static const char *const fields[] = {"", LAYOUT_P_TITLE, LAYOUT_P_AUTHOR};
    for (size_t r = 0; r < rules.size(); r++)
        for (const std::string &stem : rules[r].stems)
            for (const char *f : fields)
                cursors[r].emplace_back(new ChunkCursor(db, f + stem, space));
    did = 0;
    from = 1;
    ended = rules.empty();
}

Xapian::doccount ChunkFormSource::get_termfreq_est() const
{
    if (values)
        return values->get_termfreq_est();
    return db.get_doccount() / 100; /* few works write a given form */
}

Xapian::doccount ChunkFormSource::get_termfreq_max() const
{
    return values ? values->get_termfreq_max() : db.get_doccount();
}

/* Whether d writes a word of rule r: a position of one of its stems, in
 * any field, written in one of its forms (its cursors move to d). */
bool ChunkFormSource::rule_at(size_t r, Xapian::docid d)
{
    const FormRule &rule = rules[r];
    for (auto &c : cursors[r]) {
        if (!c->skip_to(d) || c->did != d)
            continue;
        if (c->forms_unknown())
            return true;
        const size_t count = c->count_positions();
        for (size_t i = 0; i < count; i++) {
            const uint32_t f = c->form_at(i);
            if (f == 0 ? rule.self
                       : std::find(rule.any.begin(), rule.any.end(), f) !=
                             rule.any.end())
                return true;
        }
    }
    return false;
}

/* The first work from d on that passes every rule; or the end. */
void ChunkFormSource::find(Xapian::docid d)
{
    for (;;) {
        /* the next work holding one of the first rule's stems */
        Xapian::docid next = 0;
        for (auto &c : cursors[0])
            if (c->skip_to(d) && (!next || c->did < next))
                next = c->did;
        if (!next)
            break;
        bool all = true;
        for (size_t r = 0; r < rules.size() && all; r++)
            all = rule_at(r, next);
        if (all) {
            did = next;
            from = next + 1;
            return;
        }
        d = next + 1;
    }
    ended = true;
    did = 0;
}

void ChunkFormSource::next(double min_wt)
{
    if (values)
        values->next(min_wt);
    else if (!ended)
        find(from);
}

void ChunkFormSource::skip_to(Xapian::docid d, double min_wt)
{
    if (values) {
        values->skip_to(d, min_wt);
        return;
    }
    if (ended || (did >= d && from == did + 1))
        return;
    find(std::max(d, from));
}

bool ChunkFormSource::check(Xapian::docid d, double min_wt)
{
    if (values)
        return values->check(d, min_wt);
    skip_to(d, min_wt);
    return true;
}

std::string ChunkFormSource::get_description() const
{
    return "ChunkFormSource(" + std::to_string(rules.size()) + " words)";
}

} // namespace pdxshim
