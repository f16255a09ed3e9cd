/*
 * positions.cc -- where a work's word positions are kept (layouts 7
 * and 8), and how a phrase is found in them.  Both sides use it: the writer
 * encodes (indexer/shim_write.cc, build_doc), the searcher decodes
 * (searcher/shim_read.cc, positional(): PhraseSource below).
 *
 * Why not Xapian's positions.  Glass keeps one B-tree item per (term,
 * work) in its position table: the key repeats the term and the docid,
 * and each item is a little interpolative-coded list.  On the arXiv 101k
 * that table is 200 of the 444 MB of a compacted index; building it is
 * a third map per term in Xapian's inverter (pos_changes, keyed by term,
 * then docid) and a B-tree insert per (term, work) at every commit.
 * Built without any positions, the same index is 244 MB and builds in
 * about two thirds of the time.  Lucene
 * keeps a term's positions beside its postings, not an item apiece.
 *
 * What layout 7 keeps instead: one value per work, in slot
 * LAYOUT_SLOT_POSITIONS, holding the positions of every positional term
 * of the work (its default-field stems, S and A terms) -- what Xapian's
 * position table would hold for it, in one string.  Glass keeps values
 * in streams per slot, in docid order, so the searcher reads the values
 * of increasing docids one chunk at a time.  A term is named by a hash
 * of it, not spelled out (the spelled-out, front-coded terms made the
 * value twice the size).  Glass does not compress values: the bytes
 * written are the bytes kept.
 *
 * Layout 8's value (what the writer makes):
 *
 *   value  := 0 n base[3] m name[m] word[n] entry[n]
 *   0      one zero byte: the format (no layout-7 value begins with 0)
 *   n      varint: how many terms, at least 1
 *   base   varints: subtracted from the first position of each entry of
 *          the default field's stems, of S terms and of A terms
 *          (position_field()), each the least such first position (0
 *          for a field without terms).  Each field's positions begin
 *          where the fields before it end plus a gap, so an abstract's
 *          word at its 30th word is stored as 30, not as 130 (two bytes)
 *   m      varint: how many entries are named
 *   name   varint index (of the entry, ascending), varint len, the
 *          term's bytes: set when another term of the work, positional
 *          or not, has the same 14-bit hash
 *   word   2 bytes each, little-endian, in order of hash then term:
 *          the top 14 bits of term_hash16(term) above 2 bits k, the
 *          entry's count of positions minus 1, or 3 for 4 and more
 *   entry  := [count-4, if k is 3] first delta*   (all varints)
 *             first  the first position minus its field's base
 *             delta  count-1 of them: each position minus the one
 *                    before (>= 1)
 *
 * A reader binary-searches the words for a term's hash and steps over
 * the entries before it by counting varints (each entry's count is in
 * its word): no size is stored.  On the first 10,000 arXiv records the
 * values take 4.2 MB against layout 7's 7.0: four entries in five hold
 * one position, on which layout 7 spent a size byte, a flags byte and
 * mostly a two-byte first position.
 *
 * Layout 7's value (still read: an index of layout 7 is used as it is,
 * and its new works get layout 8's values beside the old):
 *
 *   value  := n hash[n] size[n] entry[n]   (in order of hash, then term)
 *   n      varint: how many terms
 *   hash   2 bytes each, little-endian: term_hash16(term)
 *   size   1 byte each: the bytes of the entry, or 255 for an entry of
 *          255 bytes or more, which then begins with a varint of the
 *          bytes that follow that varint
 *   entry  := flags [len term] first delta*
 *             flags  varint: count * 2 + named; count >= 1 positions
 *             named  the term follows (varint len, then its bytes):
 *                    set when another term of the work, positional or
 *                    not, has the same hash
 *             first  varint: the first position
 *             delta  varint, count-1 of them: each position minus the
 *                    one before (>= 1)
 *
 * In both, the hashes come first so that a reader finds a term's entry
 * without decoding any other: a work holds about 100 positional terms,
 * and a phrase asks for two or three of them (in up to three fields) in
 * every work that holds its words.
 *
 * A varint is 7 bits a byte, low bits first, high bit set on every byte
 * but the last.  term_hash16 is the low 16 bits of FNV-1a (64-bit) of
 * the term's bytes, folded by xor: part of the format, never to change.
 *
 * Why a hash finds a term exactly: the phrase matcher asks for the
 * positions of a term only in a work that holds the term (it walks the
 * AND of the phrase's terms first), and an entry is named whenever
 * another term the work holds shares its hash.  So an entry without a
 * name whose hash is the term's is the term's.  An arXiv work holds
 * about 116 positional terms, so 0.41 pairs a work are expected to
 * collide in 14 bits (116 * 115 / 2 pairs over 16,384 hashes; 0.10 in
 * layout 7's 16), each pair costing its two names: a few bytes a work,
 * against the byte of count that the two bits save on each term.  tests/unit/test_positions.cc checks the reading on works made
 * to collide both ways, in both formats.
 *
 * A phrase (or NEAR, ADJ) is searched as Xapian would search it (the
 * searcher keeps the scoring on the AND of its terms; PhraseCheck tests
 * one work: the terms in order within the window, for a phrase next to
 * each other, or for NEAR in any order within it), in one of two ways:
 *
 *   - PhraseFilter, a Xapian::MatchDecider, for a phrase every match of
 *     the query must hold.  Xapian 1.4 asks a decider only about a work
 *     whose weight passed the page's threshold, so a top-10 query checks
 *     few works.  That matters here: a work's value is read whole and
 *     the values lie in docid order, where Xapian's position table keeps
 *     one term's items side by side, so checking every work that holds a
 *     phrase's words (as PhraseSource does) costs 3 times the time of
 *     Xapian's position table at p90 and more at p99.
 *     Over several local databases the decider is given each
 *     database's own docids and cannot tell which database a work is
 *     in, so there it reads everything from the document (its value,
 *     its term list); checking every work instead would cost over a
 *     second for the commonest phrase on two halves of 300,000 works,
 *     where the decider takes about twice one index's time.
 *   - PhraseSource, a Xapian::PostingSource that weighs nothing and
 *     walks the AND of the phrase's words (in layout 9 their chunks, side
 *     by side), for a phrase that only some matches hold ("a b" OR c);
 *     and, leading a match of its own, to count a query whose every
 *     match holds its phrases before that query is ranked
 *     (searcher/shim_read.cc, count_by_phrases): the decider would be
 *     asked about every work holding the words.
 *
 * A work without the value (written by layout 6 or before, or an index
 * built with Xapian's positions, which a shard served by xapian-tcpsrv
 * needs: the remote backend knows only Xapian's own posting sources) is
 * checked from Xapian's position lists, so a mixed index answers alike.
 * Where every database searched keeps Xapian's positions, neither class
 * is used: the phrase is Xapian's own OP_PHRASE or OP_NEAR
 * (searcher/shim_read.cc, xapian_phrases), which reads a (term, work)
 * position list by its key where PhraseCheck goes through the work's
 * term list: on the arXiv 101k built with --xapian-positions, p50 0.46
 * and p99 0.58 of PhraseFilter's time.
 */
#include <xapian.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "layout.h"
#include "shim_db.hh"

namespace pdxshim {

namespace {

/* A value's directory: its term count n, then n hashes (2 bytes each,
 * little-endian) from p on.  False for a count the value cannot hold. */
bool directory(const std::string &value, const unsigned char *&p,
               const unsigned char *&end, uint32_t &n)
{
    p = reinterpret_cast<const unsigned char *>(value.data());
    end = p + value.size();
    return get_varint(p, end, n) && n <= static_cast<size_t>(end - p) / 3;
}

uint16_t hash_at(const unsigned char *hashes, uint32_t i)
{
    return static_cast<uint16_t>(hashes[2 * i] | (hashes[2 * i + 1] << 8));
}

/* The first of a directory's entries lo..n-1 whose hash is not below h
 * (n if none): the words ascend, each hash_at() >> shift a hash (layout
 * 7's 16 bits: shift 0; layout 8's 14: shift 2). */
uint32_t first_hash(const unsigned char *words, uint32_t lo, uint32_t n,
                    uint16_t h, unsigned shift)
{
    while (lo < n) {
        const uint32_t mid = lo + (n - lo) / 2;
        if (hash_at(words, mid) >> shift < h)
            lo = mid + 1;
        else
            n = mid;
    }
    return lo;
}

/* Whether an entry named name (len bytes; nullptr: not named) is term's:
 * an entry without a name is the term of its hash the work holds. */
bool named_as(const std::string &term, const char *name, uint32_t len)
{
    return !name || (term.size() == len && !memcmp(term.data(), name, len));
}

[[noreturn]] void corrupt(Xapian::docid did)
{
    throw Xapian::DatabaseCorruptError(
        "the positions value of document " + std::to_string(did) +
        " is damaged");
}

/* Which field's base a positional term's first position is kept from
 * (layout 8): 1 for the title's S terms, 2 for the authors' A terms, 0
 * for the default field's stems (lower case or digits: words are
 * folded to lower case, indexer/text_terms.cc). */
unsigned position_field(const std::string &t)
{
    if (!t.empty() && t[0] == LAYOUT_P_TITLE[0])
        return 1;
    if (!t.empty() && t[0] == LAYOUT_P_AUTHOR[0])
        return 2;
    return 0;
}

/* Steps p over count varints (false if the value ends first): past the
 * count-th byte without its high bit, eight bytes at a time while they
 * end fewer varints than are left, then byte by byte. */
bool skip_varints(const unsigned char *&p, const unsigned char *end,
                  uint64_t count)
{
    if (count > static_cast<size_t>(end - p))
        return false;
    while (end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        /* the bytes without their high bit, as 0 or 1 in each byte's
         * low bit, summed into the top byte (8 at most: no carry) */
        const unsigned ends = static_cast<unsigned>(
            (((~x & 0x8080808080808080ULL) >> 7) * 0x0101010101010101ULL) >>
            56);
        if (ends >= count)
            break; /* the last may be followed by the next's first bytes */
        count -= ends;
        p += 8;
    }
    for (; count > 0; count--) {
        while (p < end && (*p & 0x80))
            p++;
        if (p == end)
            return false;
        p++;
    }
    return true;
}

/* Layout 8's value, its header read: the directory, the entries and the
 * bases; the names are looked up where they lie (a work has few). */
struct Value8 {
    const unsigned char *names, *dir, *entries, *end;
    uint32_t n, m, base[3];

    /* False for a header the value cannot hold. */
    bool read(const std::string &value)
    {
        const unsigned char *p =
            reinterpret_cast<const unsigned char *>(value.data());
        end = p + value.size();
        if (p == end || *p++ != 0 || !get_varint(p, end, n) ||
            !get_varint(p, end, base[0]) || !get_varint(p, end, base[1]) ||
            !get_varint(p, end, base[2]) || !get_varint(p, end, m) ||
            m > n || n == 0)
            return false;
        names = p;
        for (uint32_t k = 0, last = 0; k < m; k++) {
            uint32_t index, len;
            if (!get_varint(p, end, index) || index >= n ||
                (k && index <= last) || !get_varint(p, end, len) ||
                len > static_cast<size_t>(end - p))
                return false;
            last = index;
            p += len;
        }
        if (n > static_cast<size_t>(end - p) / 3)
            return false; /* 2 bytes of directory, 1 of entry, each */
        dir = p;
        entries = p + 2 * static_cast<size_t>(n);
        return true;
    }
    /* Entry i's name, or false for an entry without one (read() has
     * checked the names). */
    bool name(uint32_t i, const char *&bytes, uint32_t &len) const
    {
        const unsigned char *p = names;
        for (uint32_t k = 0; k < m; k++) {
            uint32_t index;
            get_varint(p, dir, index);
            get_varint(p, dir, len);
            if (index == i) {
                bytes = reinterpret_cast<const char *>(p);
                return true;
            }
            if (index > i)
                return false;
            p += len;
        }
        return false;
    }
    uint16_t word(uint32_t i) const { return hash_at(dir, i); }
    /* Entry i's count of positions, read at p (and stepped over). */
    bool count(uint32_t i, const unsigned char *&p, uint32_t &c) const
    {
        const unsigned k = word(i) & 3;
        if (k < 3) {
            c = k + 1;
            return true;
        }
        return get_varint(p, end, c) && c <= UINT32_MAX - 4 && (c += 4, true);
    }
    /* Steps p, at entry i, over the entries before entry lo: the varints
     * of entries with their count in the word are skipped together. */
    bool skip(uint32_t i, uint32_t lo, const unsigned char *&p) const
    {
        uint64_t pending = 0;
        for (; i < lo; i++) {
            const unsigned k = word(i) & 3;
            if (k < 3) {
                pending += k + 1;
                continue;
            }
            uint32_t c;
            if (!skip_varints(p, end, pending) || !count(i, p, c))
                return false;
            pending = c;
        }
        return skip_varints(p, end, pending);
    }
};

} // namespace

uint16_t term_hash16(const std::string &t)
{
    uint64_t h = fnv1a64(t.data(), t.size());
    h ^= h >> 32;
    h ^= h >> 16;
    return static_cast<uint16_t>(h);
}

void PositionsWriter::add(const std::string &term,
                          const std::vector<Xapian::termpos> &at)
{
    if (at.empty())
        return;
    ascending = ascending && (entries.empty() || entries.back().term < term);
    Entry e{term_hash16(term), term, at[0], std::string(),
            static_cast<uint32_t>(at.size())};
    for (size_t i = 1; i < at.size(); i++)
        put_varint(e.deltas, at[i] - at[i - 1]);
    entries.push_back(std::move(e));
}

void PositionsWriter::also_holds(const std::string &term)
{
    others.push_back(term_hash16(term));
}

std::string PositionsWriter::take()
{
    /* Layout 8's value (the essay above): entries in the order of their
     * 14-bit hash, then of their term.  Their indexes are sorted: an
     * Entry holds two strings, and sorting the entries themselves moved
     * them about (2% of a build). */
    order.resize(entries.size());
    if (ascending) {
        /* Added in their terms' order (build_doc's): the index breaks a
         * tie of hashes as the term would, and the keys sort as plain
         * integers. */
        keys.resize(entries.size());
        for (uint32_t i = 0; i < keys.size(); i++)
            keys[i] = uint64_t(entries[i].hash >> 2) << 32 | i;
        std::sort(keys.begin(), keys.end());
        for (size_t i = 0; i < keys.size(); i++)
            order[i] = static_cast<uint32_t>(keys[i]);
    } else {
        for (uint32_t i = 0; i < order.size(); i++)
            order[i] = i;
        std::sort(order.begin(), order.end(), [this](uint32_t x, uint32_t y) {
            const Entry &a = entries[x], &b = entries[y];
            return a.hash >> 2 != b.hash >> 2 ? a.hash < b.hash
                                               : a.term < b.term;
        });
    }
    for (uint16_t &h : others)
        h >>= 2;
    std::sort(others.begin(), others.end());
    if (entries.empty()) {
        others.clear();
        return std::string(); /* no positional term */
    }
    uint32_t base[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    for (const Entry &x : entries) {
        uint32_t &b = base[position_field(x.term)];
        b = std::min<uint32_t>(b, x.first);
    }
    std::string v(1, '\0'), names, dir, body;
    put_varint(v, static_cast<uint32_t>(entries.size()));
    for (uint32_t &b : base) {
        if (b == UINT32_MAX)
            b = 0;
        put_varint(v, b);
    }
    uint32_t m = 0;
    const size_t n = order.size();
    auto hash14 = [&](size_t i) { return entries[order[i]].hash >> 2; };
    for (size_t i = 0; i < n; i++) {
        const Entry &x = entries[order[i]];
        const uint16_t h = static_cast<uint16_t>(x.hash >> 2);
        const bool named =
            (i > 0 && hash14(i - 1) == h) || (i + 1 < n && hash14(i + 1) == h) ||
            std::binary_search(others.begin(), others.end(), h);
        if (named) {
            m++;
            put_varint(names, static_cast<uint32_t>(i));
            put_varint(names, static_cast<uint32_t>(x.term.size()));
            names += x.term;
        }
        const uint16_t word = static_cast<uint16_t>(
            h << 2 | (x.count >= 4 ? 3 : x.count - 1));
        dir += static_cast<char>(word & 0xff);
        dir += static_cast<char>(word >> 8);
        if (x.count >= 4)
            put_varint(body, x.count - 4);
        put_varint(body, x.first - base[position_field(x.term)]);
        body += x.deltas;
    }
    entries.clear();
    others.clear();
    ascending = true;
    put_varint(v, m);
    return v + names + dir + body;
}

/* Layout 7's value (the essay above): positions_find's. */
static void find7(const std::string &value, Xapian::docid did,
                  const std::vector<std::string> &terms,
                  std::vector<std::vector<Xapian::termpos>> &out)
{
    const size_t nt = terms.size();
    /* (hash, which term) in hash order, to meet the directory's order. */
    std::vector<std::pair<uint16_t, size_t>> want(nt);
    for (size_t i = 0; i < nt; i++)
        want[i] = std::make_pair(term_hash16(terms[i]), i);
    std::sort(want.begin(), want.end());
    const unsigned char *p, *end;
    uint32_t n;
    if (!directory(value, p, end, n))
        corrupt(did);
    const unsigned char *hashes = p, *sizes = p + 2 * static_cast<size_t>(n);
    const unsigned char *e = sizes + n; /* the first entry */
    uint32_t i = 0; /* the entry e begins */
    for (size_t w = 0; w < nt; w++) {
        if (w > 0 && want[w].first == want[w - 1].first)
            continue; /* its entries were read with the one before */
        const uint16_t h = want[w].first;
        /* The first entry of hash h at or after i. */
        const uint32_t lo = first_hash(hashes, i, n, h, 0);
        if (lo > i && !memchr(sizes + i, 255, lo - i)) {
            /* No long entry before it: step over them at once. */
            size_t skip = 0;
            for (uint32_t k = i; k < lo; k++)
                skip += sizes[k];
            if (skip > static_cast<size_t>(end - e))
                corrupt(did);
            e += skip;
            i = lo;
        }
        for (; i < n; i++) { /* step e over the entries before it */
            const unsigned char *q = e;
            uint32_t sz = sizes[i];
            if (sz == 255 && !get_varint(q, end, sz))
                corrupt(did);
            if (sz > static_cast<size_t>(end - q))
                corrupt(did);
            if (i >= lo && hash_at(hashes, i) != h)
                break;
            if (i >= lo) { /* an entry of hash h: decode it */
                const unsigned char *x = q, *xend = q + sz;
                uint32_t flags, len = 0;
                if (!get_varint(x, xend, flags) || flags < 2)
                    corrupt(did);
                const char *name = nullptr;
                if (flags & 1) {
                    if (!get_varint(x, xend, len) ||
                        len > static_cast<size_t>(xend - x))
                        corrupt(did);
                    name = reinterpret_cast<const char *>(x);
                    x += len;
                } else if (i > lo ||
                           (i + 1 < n && hash_at(hashes, i + 1) == h)) {
                    corrupt(did); /* entries sharing a hash are all named */
                }
                for (size_t t = w; t < nt && want[t].first == h; t++)
                    if (named_as(terms[want[t].second], name, len) &&
                        !out[want[t].second].empty())
                        corrupt(did); /* a term with two entries */
                uint32_t at = 0;
                for (uint32_t k = 0, count = flags >> 1; k < count; k++) {
                    uint32_t d;
                    if (!get_varint(x, xend, d) || (k && d == 0) ||
                        at + d < at)
                        corrupt(did); /* positions ascend, never wrap */
                    at += d;
                    for (size_t t = w; t < nt && want[t].first == h; t++)
                        if (named_as(terms[want[t].second], name, len))
                            out[want[t].second].push_back(at);
                }
                if (x != xend)
                    corrupt(did);
            }
            e = q + sz;
        }
    }
}

/* Layout 8's value (the essay above): positions_find's. */
static void find8(const std::string &value, Xapian::docid did,
                  const std::vector<std::string> &terms,
                  std::vector<std::vector<Xapian::termpos>> &out)
{
    const size_t nt = terms.size();
    /* (14-bit hash, which term) in hash order, to meet the directory's. */
    std::vector<std::pair<uint16_t, size_t>> want(nt);
    for (size_t i = 0; i < nt; i++)
        want[i] = std::make_pair(term_hash16(terms[i]) >> 2, i);
    std::sort(want.begin(), want.end());
    Value8 v;
    if (!v.read(value))
        corrupt(did);
    const unsigned char *e = v.entries; /* where entry i begins */
    uint32_t i = 0;
    thread_local std::vector<Xapian::termpos> rel;
    for (size_t w = 0; w < nt; w++) {
        if (w > 0 && want[w].first == want[w - 1].first)
            continue; /* its entries were read with the one before */
        const uint16_t h = want[w].first;
        const uint32_t lo = first_hash(v.dir, i, v.n, h, 2);
        if (lo == v.n || v.word(lo) >> 2 != h)
            continue; /* no entry: the work holds the term without */
        if (!v.skip(i, lo, e))
            corrupt(did);
        for (i = lo; i < v.n && v.word(i) >> 2 == h; i++) {
            uint32_t c, d;
            if (!v.count(i, e, c) || c > static_cast<size_t>(v.end - e))
                corrupt(did);
            rel.clear();
            for (uint32_t k = 0, at = 0; k < c; k++) {
                if (!get_varint(e, v.end, d) || (k && d == 0) || at + d < at)
                    corrupt(did); /* positions ascend, never wrap */
                at += d;
                rel.push_back(at);
            }
            const char *name = nullptr;
            uint32_t len = 0;
            if (v.m)
                v.name(i, name, len);
            if (!name && (i > lo || (i + 1 < v.n && v.word(i + 1) >> 2 == h)))
                corrupt(did); /* entries sharing a hash are all named */
            for (size_t t = w; t < nt && want[t].first == h; t++) {
                const std::string &term = terms[want[t].second];
                if (!named_as(term, name, len))
                    continue;
                const uint32_t base = v.base[position_field(term)];
                std::vector<Xapian::termpos> &to = out[want[t].second];
                if (rel.back() + base < base || !to.empty())
                    corrupt(did); /* or a term with two entries */
                for (uint32_t at : rel)
                    to.push_back(at + base);
            }
        }
    }
}

void positions_find(const std::string &value, Xapian::docid did,
                    const std::vector<std::string> &terms,
                    std::vector<std::vector<Xapian::termpos>> &out)
{
    out.resize(terms.size());
    for (auto &v : out)
        v.clear();
    if (!value.empty() && value[0] == 0)
        find8(value, did, terms, out);
    else
        find7(value, did, terms, out);
}

bool positions_match(const std::vector<std::vector<Xapian::termpos>> &pos,
                     Xapian::termcount window, bool ordered)
{
    const size_t n = pos.size();
    for (const auto &v : pos)
        if (v.empty())
            return false;
    if (ordered) {
        /* Each start in the first term's positions; each next term at
         * its first position after the one before (the earliest end). */
        for (Xapian::termpos s : pos[0]) {
            Xapian::termpos cur = s;
            size_t i = 1;
            for (; i < n; i++) {
                auto it = std::upper_bound(pos[i].begin(), pos[i].end(), cur);
                if (it == pos[i].end())
                    return false; /* no later start can do better */
                cur = *it;
                if (cur - s >= window)
                    break;
            }
            if (i == n)
                return true;
        }
        return false;
    }
    /* NEAR: the shortest span holding a distinct position for each
     * term.  A term named twice ("a NEAR a") has the same list twice
     * (two terms never share a position), and needs two of them. */
    std::vector<size_t> unique_of(n), need;
    std::vector<const std::vector<Xapian::termpos> *> lists;
    for (size_t i = 0; i < n; i++) {
        size_t u = 0;
        while (u < lists.size() && *lists[u] != pos[i])
            u++;
        if (u == lists.size()) {
            lists.push_back(&pos[i]);
            need.push_back(0);
        }
        need[u]++;
        unique_of[i] = u;
    }
    std::vector<std::pair<Xapian::termpos, size_t>> ev;
    for (size_t u = 0; u < lists.size(); u++)
        for (Xapian::termpos at : *lists[u])
            ev.emplace_back(at, u);
    std::sort(ev.begin(), ev.end());
    std::vector<size_t> have(lists.size(), 0);
    size_t covered = 0, lo = 0;
    for (size_t hi = 0; hi < ev.size(); hi++) {
        if (++have[ev[hi].second] == need[ev[hi].second])
            covered++;
        while (covered == lists.size()) {
            if (ev[hi].first - ev[lo].first < window)
                return true;
            if (have[ev[lo].second]-- == need[ev[lo].second])
                covered--;
            lo++;
        }
    }
    return false;
}

/* ----------------------------------------------------------- PhraseCheck */

PhraseCheck::PhraseCheck(std::vector<std::string> stems_,
                         std::vector<std::string> fields_,
                         Xapian::termcount window_, bool ordered_)
    : stems(std::move(stems_)), fields(std::move(fields_)), window(window_),
      ordered(ordered_)
{
    for (const std::string &f : fields)
        for (const std::string &s : stems) {
            terms.push_back(f + s);
            hashes.push_back(term_hash16(terms.back()));
        }
}

/* Walk doc's term list once for terms (in any order, repeats allowed):
 * f(i, t) for each terms[i] the document holds, t standing on it.  For a
 * document whose docid names no database the caller knows (PhraseFilter
 * over several). */
template <typename F>
static void each_held(const Xapian::Document &doc,
                      const std::vector<std::string> &terms, F f)
{
    std::vector<size_t> order(terms.size());
    for (size_t i = 0; i < order.size(); i++)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return terms[a] < terms[b]; });
    Xapian::TermIterator t = doc.termlist_begin();
    const Xapian::TermIterator end = doc.termlist_end();
    for (size_t i : order) {
        t.skip_to(terms[i]);
        if (t == end)
            return;
        if (*t == terms[i])
            f(i, t);
    }
}

/* Whether value has an entry of each of the hashes (some of the terms
 * may still be other terms of the same hash). */
static bool has_hashes(const std::string &value, const uint16_t *want,
                       size_t nw)
{
    const unsigned char *dir;
    uint32_t n;
    unsigned shift; /* the hash in a directory word: layout 8's 14 bits */
    if (!value.empty() && value[0] == 0) {
        Value8 v;
        if (!v.read(value))
            return true; /* let positions_find say what is wrong */
        dir = v.dir;
        n = v.n;
        shift = 2;
    } else {
        const unsigned char *end;
        if (!directory(value, dir, end, n))
            return true;
        shift = 0;
    }
    for (size_t w = 0; w < nw; w++) {
        const uint16_t h = static_cast<uint16_t>(want[w] >> shift);
        const uint32_t at = first_hash(dir, 0, n, h, shift);
        if (at == n || hash_at(dir, at) >> shift != h)
            return false;
    }
    return true;
}

bool PhraseCheck::operator()(Xapian::docid d, const std::string *value,
                             const std::function<bool(size_t)> &held,
                             const Xapian::Database &db,
                             const Xapian::Document *doc)
{
    const size_t n = stems.size();
    fa = nullptr;
    fa_asked = false;
    if (chunked) {
        /* Field by field, its terms' cursors moved to d: a field whose
         * every term stands on d is checked, and no position is copied
         * for one that lacks a term (the commonest case: most works
         * holding the stems hold them in one field only). */
        for (size_t f = 0; f < fields.size(); f++) {
            bool all = true;
            for (size_t i = 0; i < n && all; i++)
                all = chunk_at(d, db, f * n + i) != nullptr;
            if (!all)
                continue;
            one.resize(n);
            for (size_t i = 0; i < n; i++)
                held_positions(*cursors.c[f * n + i], i, one[i]);
            if (field_holds(f))
                return true;
        }
        return false;
    }
    asked.clear();
    asked_field.clear();
    for (size_t f = 0; f < fields.size(); f++) {
        /* Another field's terms: a work without an entry of each one's
         * hash lacks one of them; with one, ask whether it holds them
         * (an entry found by hash must be the term's: the essay).
         * Xapian's position lists need no asking: a term the work
         * lacks has none. */
        if (f > 0 && value &&
            (!has_hashes(*value, &hashes[f * n], n) || !held(f)))
            continue;
        for (size_t i = 0; i < n; i++) {
            asked.push_back(terms[f * n + i]);
            asked_field.push_back(f);
        }
    }
    if (value) {
        positions_find(*value, d, asked, pos);
    } else if (doc) {
        /* Each position list read where the work's term list stands on
         * its term. */
        pos.assign(asked.size(), std::vector<Xapian::termpos>());
        each_held(*doc, asked, [&](size_t i, Xapian::TermIterator &t) {
            for (Xapian::PositionIterator p = t.positionlist_begin();
                 p != t.positionlist_end(); ++p)
                pos[i].push_back(*p);
        });
    } else {
        pos.assign(asked.size(), std::vector<Xapian::termpos>());
        for (size_t i = 0; i < asked.size(); i++)
            for (Xapian::PositionIterator p = db.positionlist_begin(d, asked[i]);
                 p != db.positionlist_end(d, asked[i]); ++p)
                pos[i].push_back(*p);
    }
    for (size_t at = 0; at < asked.size(); at += n) {
        one.assign(pos.begin() + at, pos.begin() + at + n);
        if (field_holds(asked_field[at]))
            return true;
    }
    return false;
}

bool PhraseCheck::field_holds(size_t f)
{
    const size_t n = stems.size();
    if (!positions_match(one, window, ordered))
        return false;
    if (!form.empty() && forms_at && !fa_asked) {
        fa = (*forms_at)();
        fa_asked = true;
    }
    if (!fa || fa->empty())
        return true;
    /* Each word at its form's positions in this field (forms.cc,
     * "Forms at their positions"). */
    const std::string &field = fields[f];
    const char prefix = field.empty() ? '\0' : field[0];
    for (size_t i = 0; i < n && i < form.size(); i++) {
        switch (forms_at_find(*fa, prefix, form_stem[i], form[i], found)) {
        case FormWhere::ANYWHERE:
        case FormWhere::EVERYWHERE:
            break;
        case FormWhere::NOWHERE:
            one[i].clear();
            break;
        case FormWhere::AT: {
            std::vector<Xapian::termpos> both;
            std::set_intersection(one[i].begin(), one[i].end(),
                                  found.begin(), found.end(),
                                  std::back_inserter(both));
            one[i].swap(both);
            break;
        }
        }
    }
    return positions_match(one, window, ordered);
}

ChunkCursor *PhraseCheck::chunk_at(Xapian::docid d, const Xapian::Database &db,
                                   size_t t)
{
    if (cursors.c.size() < terms.size()) {
        cursors.c.resize(terms.size());
        cursors.asked.resize(terms.size());
    }
    if (!cursors.space)
        cursors.space = std::make_shared<const ChunkSpace>(db);
    std::unique_ptr<ChunkCursor> &c = cursors.c[t];
    if (!c || d < cursors.asked[t]) /* asked about an earlier work */
        c.reset(new ChunkCursor(db, terms[t], cursors.space));
    cursors.asked[t] = d;
    return c->skip_to(d) && c->did == d ? c.get() : nullptr;
}

void PhraseCheck::held_positions(const ChunkCursor &c, size_t w,
                                 std::vector<Xapian::termpos> &out) const
{
    if (form.empty() || w >= form.size() || c.forms_unknown()) {
        out = c.positions();
        return;
    }
    /* the word as written: the stem itself (form 0), or its form */
    out.clear();
    const uint32_t want = form[w] == form_stem[w] ? 0 : form[w];
    if (c.one_form()) { /* all of them, or none, decoded only then */
        if (c.form_at(0) == want)
            out = c.positions();
        return;
    }
    const std::vector<Xapian::termpos> &at = c.positions();
    for (size_t i = 0; i < at.size(); i++)
        if (c.form_at(i) == want)
            out.push_back(at[i]);
}

/* Move it forward to d (never back: at or past d it stays); whether it
 * stands on d.  The probes of PhraseSource and PhraseFilter, asked about
 * increasing docids. */
static bool stands_on(Xapian::PostingIterator &it, Xapian::docid d)
{
    const Xapian::PostingIterator none;
    if (it != none && *it < d)
        it.skip_to(d);
    return it != none && *it == d;
}

/* ---------------------------------------------------------- PhraseSource */

PhraseSource::PhraseSource(const PhraseCheck &check_, Xapian::doccount share_)
    : phrase(check_), share(std::max<Xapian::doccount>(share_, 1))
{
}

Xapian::PostingSource *PhraseSource::clone() const
{
    return new PhraseSource(phrase, share);
}

void PhraseSource::init(const Xapian::Database &db_)
{
    db = db_;
    /* The AND walked: the first field's terms, the rarest first (it moves
     * furthest at each step). */
    const size_t n = phrase.stems.size();
    std::vector<std::string> distinct(phrase.terms.begin(),
                                      phrase.terms.begin() + n);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()),
                   distinct.end());
    std::vector<std::pair<Xapian::doccount, std::string>> by_tf;
    for (const std::string &t : distinct)
        by_tf.emplace_back(db.get_termfreq(t), t);
    std::sort(by_tf.begin(), by_tf.end());
    lists.clear();
    for (const auto &ft : by_tf)
        lists.push_back(db.postlist_begin(ft.second));
    tf = by_tf.empty() ? 0 : by_tf[0].first;
    /* For the other fields a posting list of each term, to ask whether a
     * work holds them all. */
    probes.clear();
    for (size_t i = n; i < phrase.terms.size(); i++)
        probes.push_back(db.postlist_begin(phrase.terms[i]));
    values = db.valuestream_begin(SLOT_POSITIONS);
    at_values = phrase.form.empty() ? Xapian::ValueIterator()
                                    : db.valuestream_begin(SLOT_FORMS_AT);
    did = 0;
    from = 1;
    ended = by_tf.empty();
    /* each database of several as it is written */
    chunked = phrase.chunked = db.get_metadata(LAYOUT_META_CHUNKS) == "1";
    cur.clear();
    field_at.assign(phrase.fields.size(), 0);
    if (chunked) {
        lists.clear();
        probes.clear();
        space = std::make_shared<const ChunkSpace>(db);
        for (const std::string &t : phrase.terms)
            cur.emplace_back(new ChunkCursor(db, t, space));
    }
}

/* Field by field, the first work from d on whose chunks hold each of the
 * field's terms (field_at[f]); did the least of them (false: none left). */
bool PhraseSource::align_chunks(Xapian::docid d)
{
    const size_t n = phrase.stems.size();
    Xapian::docid best = 0;
    for (size_t f = 0; f < phrase.fields.size(); f++) {
        Xapian::docid x = std::max(d, field_at[f]);
        bool alive = true;
        for (bool moved = true; moved && alive;) {
            moved = false;
            for (size_t i = 0; i < n; i++) {
                ChunkCursor &c = *cur[f * n + i];
                if (!c.skip_to(x)) {
                    alive = false;
                    break;
                }
                if (c.did > x) {
                    x = c.did;
                    moved = true;
                    break;
                }
            }
        }
        field_at[f] = alive ? x : 0;
        if (alive && (!best || x < best))
            best = x;
    }
    if (!best)
        return false;
    did = best;
    return true;
}

/* Whether a field whose cursors stand on d holds the phrase there. */
bool PhraseSource::holds_chunks(Xapian::docid d)
{
    const size_t n = phrase.stems.size();
    for (size_t f = 0; f < phrase.fields.size(); f++) {
        if (field_at[f] != d)
            continue;
        phrase.one.resize(n);
        bool all = true; /* a word with none there: the next field */
        for (size_t i = 0; all && i < n; i++) {
            phrase.held_positions(*cur[f * n + i], i, phrase.one[i]);
            all = !phrase.one[i].empty();
        }
        if (all && positions_match(phrase.one, phrase.window, phrase.ordered))
            return true;
    }
    return false;
}

/* Whether the work d, which holds the first field's terms, holds the
 * phrase (PhraseCheck), asking the probes whether it holds another
 * field's terms. */
bool PhraseSource::holds(Xapian::docid d)
{
    const size_t n = phrase.stems.size();
    auto held = [&](size_t f) {
        for (size_t i = 0; i < n; i++)
            if (!stands_on(probes[(f - 1) * n + i], d))
                return false;
        return true;
    };
    const Xapian::ValueIterator none;
    if (values != none && values.get_docid() < d)
        values.skip_to(d);
    std::string at;
    const std::function<const std::string *()> fetch = [&]() {
        if (at_values == none)
            return static_cast<const std::string *>(nullptr);
        if (at_values.get_docid() < d)
            at_values.skip_to(d);
        if (at_values == none || at_values.get_docid() != d)
            return static_cast<const std::string *>(nullptr);
        at = *at_values;
        return static_cast<const std::string *>(&at);
    };
    phrase.forms_at = &fetch;
    bool ok;
    if (values != none && values.get_docid() == d) {
        const std::string v = *values;
        ok = phrase(d, &v, held, db);
    } else
        ok = phrase(d, nullptr, held, db);
    phrase.forms_at = nullptr;
    return ok;
}

/* Move every term's postings to the first work at or after d that holds
 * them all (false at the end). */
bool PhraseSource::align(Xapian::docid d)
{
    const Xapian::PostingIterator none;
    for (bool moved = true; moved;) {
        moved = false;
        for (Xapian::PostingIterator &it : lists) {
            if (it != none && *it < d)
                it.skip_to(d);
            if (it == none)
                return false;
            if (*it > d) {
                d = *it;
                moved = true;
                break;
            }
        }
    }
    did = d;
    return true;
}

/* The first work at or after d holding the phrase; or the end. */
void PhraseSource::find(Xapian::docid d)
{
    /* the words' chunks (layout 9) or the works' values */
    while (chunked ? align_chunks(d) : align(d)) {
        if (chunked ? holds_chunks(did) : holds(did)) {
            from = did + 1;
            return;
        }
        d = did + 1;
    }
    ended = true;
    did = 0;
}

void PhraseSource::next(double)
{
    if (!ended)
        find(from);
}

void PhraseSource::skip_to(Xapian::docid d, double)
{
    if (ended || (did >= d && from == did + 1))
        return; /* on a match at or after d already */
    find(std::max(d, from));
}

bool PhraseSource::check(Xapian::docid d, double)
{
    /* d exists (Xapian's contract).  A false answer leaves from at
     * d + 1, where next() and skip_to() go on from. */
    if (ended)
        return true;
    if (did >= d && from == did + 1)
        return true;
    if (!(chunked ? align_chunks(d) : align(d))) {
        ended = true;
        did = 0;
        return true; /* at the end, as skip_to would be */
    }
    if (did == d && (chunked ? holds_chunks(d) : holds(d))) {
        from = d + 1;
        return true;
    }
    from = d + 1;
    did = 0;
    return false;
}

bool PhraseSource::at_end() const { return ended; }

std::string PhraseSource::get_description() const
{
    std::string d = std::string("paperdex::PhraseSource(") +
                    (phrase.ordered ? "PHRASE " : "NEAR ") +
                    std::to_string(phrase.window);
    for (const std::string &t : phrase.stems)
        d += " " + t;
    d += " in";
    for (const std::string &f : phrase.fields)
        d += " '" + f + "'";
    return d + ")";
}


/* ---------------------------------------------------------- PhraseFilter */

/* Whether work d of db holds term, through its probe p (the class
 * comment). */
bool PhraseFilter::holds(Probe &p, const std::string &term,
                         Xapian::docid d) const
{
    if (!p.asked || d < p.asked)
        p.it = db.postlist_begin(term);
    p.asked = d;
    return stands_on(p.it, d);
}

bool PhraseFilter::operator()(const Xapian::Document &doc) const
{
    /* One database: doc's docid is db's.  Several: the docid is its own
     * database's, which the document knows and the decider does not
     * (the class comment). */
    const Xapian::docid d = doc.get_docid();
    /* Layout 9 keeps no positions value (each check reads its words'
     * chunks): not looked up, a B-tree search a work. */
    const bool chunked = !checks.empty() && checks[0].chunked;
    const std::string v = chunked ? std::string() : doc.get_value(SLOT_POSITIONS);
    std::string at; /* read once, if a phrase is held to its forms */
    bool at_read = false;
    const std::function<const std::string *()> fetch = [&]() {
        if (!at_read) {
            at = doc.get_value(SLOT_FORMS_AT);
            at_read = true;
        }
        return static_cast<const std::string *>(&at);
    };
    for (size_t k = probes.size(); k < checks.size(); k++) /* at first */
        probes.emplace_back(checks[k].terms.size());
    for (size_t k = 0; k < checks.size(); k++) {
        PhraseCheck &c = checks[k];
        const size_t n = c.stems.size();
        auto held = [&](size_t f) {
            if (several) {
                const std::vector<std::string> want(
                    c.terms.begin() + f * n, c.terms.begin() + (f + 1) * n);
                size_t found = 0;
                each_held(doc, want,
                          [&](size_t, Xapian::TermIterator &) { found++; });
                return found == n;
            }
            for (size_t i = f * n; i < (f + 1) * n; i++)
                if (!holds(probes[k][i], c.terms[i], d))
                    return false;
            return true;
        };
        c.forms_at = c.form.empty() ? nullptr : &fetch;
        const bool ok =
            c(d, v.empty() ? nullptr : &v, held, db, several ? &doc : nullptr);
        c.forms_at = nullptr;
        if (!ok)
            return false;
    }
    if (!forms.empty() && !chunked) {
        const std::string f = doc.get_value(SLOT_FORMS);
        for (const FormRule &r : forms)
            if (!r.holds(f))
                return false;
    }
    return true;
}

} // namespace pdxshim
