/*
 * form_chunks.cc -- a study of one index layout paperdex does not have:
 * each word's positions kept by the word, in chunks of works, as Lucene
 * keeps a term's positions beside its postings, instead of by the work
 * (common/positions.cc: one value a work, read whole).
 *
 * Why study it.  A quoted phrase counted to 10,000 reads the positions
 * value of every work holding its stems, and its words' forms values
 * where the stems stand together: on a phrase of two common words that
 * is most of the blocks of three value slots (bench/RESULTS.md, "Quoted
 * phrases"), and it sets the p99 of the query mixes.  This tool measures
 * what reading two words' own positions instead would cost, on the same
 * records and queries, before anyone builds it into the index.
 *
 *   form_chunks build [--batch N] SIDE RECORDS [FORMS]
 *   form_chunks query SIDE QUERIES REPEAT [COUNTS]
 *   form_chunks values DB
 *
 * build   reads RECORDS (compare.py's records.tsv: id, title, abstract,
 *         ...) and writes, into a new Xapian database SIDE, each word's
 *         positions as written (ASCII letters and digits folded to lower
 *         case; paperdex's stop words take no position; the abstract
 *         after the title and a gap of 100, as the index places them),
 *         as metadata items of up to 128 works:
 *
 *             key   word 0 first-docid (4 bytes, big-endian)
 *             item  entry*: docid (the first as is, then the gap from
 *                   the one before) count position-gap[count] (varints)
 *
 *         The docid is the record's line number.  FORMS, a file of words
 *         one a line, keeps only those (the words of the queries: quick);
 *         without it every word is kept (what the layout would weigh).
 *         With --batch N, as a writer that commits every N records
 *         (paperdex's default is 1,000) would keep them: at each commit,
 *         each word the batch wrote has its open chunk (the item of key
 *         word 0 ff ff ff ff, its last) read, the batch's entries added,
 *         and the chunk written under its first docid once it holds
 *         128 works or more, else back as the open chunk.  Without it, the
 *         chunks are written as they fill and once at the end (what a
 *         build that need not commit on the way costs).
 *         Prints one JSON line: records, words, entries, bytes (the
 *         items' bytes as last written), commits, seconds.
 * query   the "phrase" lines of QUERIES (pdx_qbench's file: kind, words,
 *         filter), each of two words: the works writing the first word and
 *         the second right after it, counted to 10,000 as paperdex and
 *         Lucene count, by walking the two words' chunks side by side.
 *         Counting only: no weights, no top 10, no title or author field
 *         of their own.  REPEAT passes; one JSON line of latencies in
 *         microseconds (pdx_qbench's); COUNTS gets each phrase's count.
 * values  the bytes of each value slot of a paperdex index DB (the
 *         positions and forms values a chunked layout would replace).
 */
#include <xapian.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "../common/stopwords.h"

namespace {

const size_t CHUNK_WORKS = 128;
const uint32_t FIELD_GAP = 100;

void put_varint(std::string &s, uint32_t x)
{
    while (x >= 128) {
        s += static_cast<char>((x & 127) | 128);
        x >>= 7;
    }
    s += static_cast<char>(x);
}

/* Reads a varint at p (false past end). */
bool get_varint(const unsigned char *&p, const unsigned char *end, uint32_t &x)
{
    x = 0;
    for (unsigned shift = 0; p < end && shift < 35; shift += 7) {
        const unsigned char b = *p++;
        x |= static_cast<uint32_t>(b & 127) << shift;
        if (!(b & 128))
            return true;
    }
    return false;
}

std::string chunk_key(const std::string &word, uint32_t first)
{
    std::string k = word;
    k += '\0';
    for (int i = 3; i >= 0; i--)
        k += static_cast<char>((first >> (8 * i)) & 255);
    return k;
}

std::vector<std::string> split(const std::string &s, char c)
{
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        const size_t e = s.find(c, start);
        out.push_back(s.substr(start, e == std::string::npos ? e : e - start));
        if (e == std::string::npos)
            return out;
        start = e + 1;
    }
}

/* text's words: runs of ASCII letters and digits, folded to lower case;
 * every other byte ends a word. */
void words_of(const std::string &text, std::vector<std::string> &out)
{
    std::string w;
    for (const char ch : text) {
        const unsigned char u = static_cast<unsigned char>(ch);
        if ((u >= '0' && u <= '9') || (u >= 'a' && u <= 'z')) {
            w += ch;
        } else if (u >= 'A' && u <= 'Z') {
            w += static_cast<char>(u - 'A' + 'a');
        } else if (!w.empty()) {
            out.push_back(w);
            w.clear();
        }
    }
    if (!w.empty())
        out.push_back(w);
}

const uint32_t OPEN_CHUNK = 0xffffffffu; /* the open chunk's key */

/* The works of entries (a chunk's body), counted; false if damaged. */
bool count_works(const std::string &entries, uint32_t &works, uint32_t &last)
{
    const unsigned char *p = reinterpret_cast<const unsigned char *>(entries.data());
    const unsigned char *e = p + entries.size();
    works = 0;
    last = 0;
    while (p < e) {
        uint32_t gap, count, x;
        if (!get_varint(p, e, gap) || !get_varint(p, e, count))
            return false;
        last = works ? last + gap : gap;
        for (uint32_t i = 0; i < count; i++)
            if (!get_varint(p, e, x))
                return false;
        works++;
    }
    return true;
}

int build(const char *side, const char *records, const char *forms_path,
          uint32_t batch)
{
    std::unordered_set<std::string> keep, stop;
    for (const char *const *s = PDX_STOPWORDS; *s; s++) /* 0 ends the list */
        stop.insert(*s);
    if (forms_path) {
        std::ifstream f(forms_path);
        if (!f) {
            std::fprintf(stderr, "form_chunks: cannot read %s\n", forms_path);
            return 1;
        }
        for (std::string w; f >> w;)
            keep.insert(w);
    }
    std::ifstream in(records);
    if (!in) {
        std::fprintf(stderr, "form_chunks: cannot read %s\n", records);
        return 1;
    }
    const auto t0 = std::chrono::steady_clock::now();
    Xapian::WritableDatabase db(side, Xapian::DB_CREATE_OR_OVERWRITE | Xapian::DB_NO_SYNC);
    struct Pending {
        std::string entries;
        uint32_t works = 0, first = 0, last = 0;
    };
    std::unordered_map<std::string, Pending> pending;
    std::unordered_map<std::string, std::vector<uint32_t>> here;
    std::vector<std::string> ws;
    uint64_t entries = 0, bytes = 0, commits = 0;
    uint32_t did = 0;
    auto flush = [&](const std::string &w, Pending &p) {
        db.set_metadata(chunk_key(w, p.first), p.entries);
        bytes += p.entries.size();
        p.entries.clear();
        p.works = 0;
    };
    /* --batch: the batch's entries of each word joined to its open chunk
     * as the database holds it, then committed. */
    auto commit_batch = [&]() {
        for (auto &pw : pending) {
            Pending &p = pw.second;
            if (!p.works)
                continue;
            const std::string open_key = chunk_key(pw.first, OPEN_CHUNK);
            std::string open = db.get_metadata(open_key);
            uint32_t works = 0, last = 0;
            if (!count_works(open, works, last))
                throw Xapian::DatabaseCorruptError("an open chunk is damaged");
            uint32_t first = p.first;
            if (works) { /* the batch's first docid becomes a gap */
                const unsigned char *q = reinterpret_cast<const unsigned char *>(p.entries.data());
                uint32_t d;
                get_varint(q, q + p.entries.size(), d);
                std::string rest(reinterpret_cast<const char *>(q),
                                 p.entries.size() - (q - reinterpret_cast<const unsigned char *>(p.entries.data())));
                std::string gap;
                put_varint(gap, d - last);
                const unsigned char *o = reinterpret_cast<const unsigned char *>(open.data());
                get_varint(o, o + open.size(), first);
                open += gap + rest;
            } else {
                open = p.entries;
            }
            if (works + p.works >= CHUNK_WORKS) {
                db.set_metadata(chunk_key(pw.first, first), open);
                db.set_metadata(open_key, std::string());
            } else {
                db.set_metadata(open_key, open);
            }
            p.entries.clear();
            p.works = 0;
        }
        db.commit();
        commits++;
    };
    for (std::string line; std::getline(in, line);) {
        did++;
        const std::vector<std::string> f = split(line, '\t');
        here.clear();
        uint32_t at = 0;
        for (size_t k = 1; k <= 2 && k < f.size(); k++) {
            ws.clear();
            words_of(f[k], ws);
            for (const std::string &w : ws) {
                if (stop.count(w))
                    continue;
                at++;
                if (!forms_path || keep.count(w))
                    here[w].push_back(at);
            }
            at += FIELD_GAP;
        }
        for (auto &h : here) {
            Pending &p = pending[h.first];
            if (p.works == 0) {
                p.first = did;
                put_varint(p.entries, did);
            } else {
                put_varint(p.entries, did - p.last);
            }
            p.last = did;
            put_varint(p.entries, static_cast<uint32_t>(h.second.size()));
            uint32_t prev = 0;
            for (const uint32_t x : h.second) {
                put_varint(p.entries, x - prev);
                prev = x;
            }
            entries++;
            if (++p.works == CHUNK_WORKS && !batch)
                flush(h.first, p);
        }
        if (batch && did % batch == 0)
            commit_batch();
    }
    if (batch) {
        commit_batch();
        bytes = 0;
        for (Xapian::TermIterator k = db.metadata_keys_begin(); k != db.metadata_keys_end(); ++k)
            bytes += db.get_metadata(*k).size();
    } else {
        for (auto &p : pending)
            if (p.second.works)
                flush(p.first, p.second);
        db.commit();
        commits = 1;
    }
    std::printf("{\"records\": %u, \"words\": %zu, \"entries\": %llu, \"bytes\": %llu, "
                "\"commits\": %llu, \"seconds\": %.2f}\n",
                did, pending.size(), static_cast<unsigned long long>(entries),
                static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(commits),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
}

/* One word's chunks, entry by entry, in docid order. */
class Stream {
    const Xapian::Database &db_;
    Xapian::TermIterator key_, end_;
    std::string item_;
    const unsigned char *p_ = nullptr, *e_ = nullptr;

  public:
    uint32_t did = 0;
    std::vector<uint32_t> pos;
    bool done = false;

    Stream(const Xapian::Database &db, const std::string &word)
        : db_(db), key_(db.metadata_keys_begin(word + '\0')),
          end_(db.metadata_keys_end(word + '\0'))
    {
        next();
    }
    void next()
    {
        uint32_t gap, count;
        if (p_ == e_) {
            if (key_ == end_) {
                done = true;
                return;
            }
            item_ = db_.get_metadata(*key_);
            ++key_;
            p_ = reinterpret_cast<const unsigned char *>(item_.data());
            e_ = p_ + item_.size();
            did = 0;
        }
        if (!get_varint(p_, e_, gap) || !get_varint(p_, e_, count))
            throw Xapian::DatabaseCorruptError("a chunk ends in an entry");
        did += gap;
        pos.resize(count);
        for (uint32_t i = 0, at = 0; i < count; i++) {
            if (!get_varint(p_, e_, gap))
                throw Xapian::DatabaseCorruptError("a chunk ends in an entry");
            pos[i] = at += gap;
        }
    }
};

/* Whether b has a position right after one of a's (both ascending). */
bool adjacent(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b)
{
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i] + 1 == b[j])
            return true;
        if (a[i] + 1 < b[j])
            i++;
        else
            j++;
    }
    return false;
}

int query(const char *side, const char *qfile, int repeat, const char *counts_path)
{
    std::ifstream in(qfile);
    if (!in) {
        std::fprintf(stderr, "form_chunks: cannot read %s\n", qfile);
        return 1;
    }
    std::vector<std::pair<std::string, std::string>> qs;
    for (std::string line; std::getline(in, line);) {
        const std::vector<std::string> f = split(line, '\t');
        if (f.size() < 2 || f[0] != "phrase")
            continue;
        std::vector<std::string> ws;
        words_of(f[1], ws);
        if (ws.size() != 2) {
            std::fprintf(stderr, "form_chunks: %s: a phrase of two words only: %s\n",
                         qfile, line.c_str());
            return 2;
        }
        qs.emplace_back(ws[0], ws[1]);
    }
    const Xapian::Database db(side);
    std::vector<unsigned long> counts(qs.size());
    std::printf("{\"latency_us\": [");
    for (int r = 0; r < repeat; r++)
        for (size_t i = 0; i < qs.size(); i++) {
            const auto t0 = std::chrono::steady_clock::now();
            Stream a(db, qs[i].first), b(db, qs[i].second);
            unsigned long n = 0;
            while (!a.done && !b.done && n < 10000) {
                if (a.did < b.did) {
                    a.next();
                } else if (b.did < a.did) {
                    b.next();
                } else {
                    n += adjacent(a.pos, b.pos);
                    a.next();
                    b.next();
                }
            }
            counts[i] = n;
            std::printf("%s%.1f", r || i ? ", " : "",
                        std::chrono::duration<double, std::micro>(
                            std::chrono::steady_clock::now() - t0).count());
        }
    std::printf("], \"queries\": %zu}\n", qs.size());
    if (counts_path) {
        FILE *f = std::fopen(counts_path, "w");
        if (!f) {
            std::fprintf(stderr, "form_chunks: cannot write %s\n", counts_path);
            return 1;
        }
        for (size_t i = 0; i < qs.size(); i++)
            std::fprintf(f, "%s %s\t%lu\n", qs[i].first.c_str(),
                         qs[i].second.c_str(), counts[i]);
        std::fclose(f);
    }
    return 0;
}

int values(const char *path)
{
    const Xapian::Database db(path);
    std::printf("{");
    for (Xapian::valueno slot = 0; slot < 10; slot++) {
        unsigned long long bytes = 0;
        for (Xapian::ValueIterator v = db.valuestream_begin(slot);
             v != db.valuestream_end(slot); ++v)
            bytes += (*v).size();
        std::printf("%s\"%u\": %llu", slot ? ", " : "", slot, bytes);
    }
    std::printf("}\n");
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    const std::string mode = argc > 1 ? argv[1] : "";
    try {
        if (mode == "build") {
            uint32_t batch = 0;
            int a = 2;
            if (argc > 3 && !std::strcmp(argv[2], "--batch")) {
                batch = static_cast<uint32_t>(std::atol(argv[3]));
                a = 4;
            }
            if (argc - a == 2 || argc - a == 3)
                return build(argv[a], argv[a + 1], argc - a == 3 ? argv[a + 2] : nullptr, batch);
        }
        if (mode == "query" && (argc == 5 || argc == 6))
            return query(argv[2], argv[3], std::atoi(argv[4]), argc == 6 ? argv[5] : nullptr);
        if (mode == "values" && argc == 3)
            return values(argv[2]);
    } catch (const Xapian::Error &e) {
        std::fprintf(stderr, "form_chunks: %s\n", e.get_description().c_str());
        return 1;
    }
    std::fprintf(stderr, "usage: form_chunks build [--batch N] SIDE RECORDS [FORMS]\n"
                         "       form_chunks query SIDE QUERIES REPEAT [COUNTS]\n"
                         "       form_chunks values DB\n");
    return 2;
}
