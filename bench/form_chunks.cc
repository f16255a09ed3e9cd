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
 *   form_chunks build [--batch N] [--index DB] SIDE RECORDS [FORMS]
 *   form_chunks query [--index DB] SIDE QUERIES REPEAT [COUNTS]
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
 *         The docid is the record's line number, or with --index DB
 *         its work's docid in the paperdex index DB.  FORMS, a file of words
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
 *         With --index DB (the paperdex index the chunks were numbered
 *         by), every match is also weighed as paperdex weighs a phrase
 *         (its stems' BM25 in the default field, lengths held in memory)
 *         for the top 10; without it, counting alone.  No title or author
 *         field of their own.  REPEAT passes; one JSON line of latencies
 *         in microseconds (pdx_qbench's); COUNTS gets each phrase's count
 *         and top 10 (id:score, as pdx_qbench's PDX_QBENCH_HITS).
 * values  the bytes of each value slot of a paperdex index DB (the
 *         positions and forms values a chunked layout would replace).
 */
#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "../common/stopwords.h"
#include "bench_queries.h"
#include "xapian_english.hh"

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

/* The works of entries (a chunk's body), counted, with the first and
 * last docids; false if damaged. */
bool count_works(const std::string &entries, uint32_t &works, uint32_t &first,
                 uint32_t &last)
{
    const unsigned char *p = reinterpret_cast<const unsigned char *>(entries.data());
    const unsigned char *e = p + entries.size();
    works = 0;
    first = last = 0;
    while (p < e) {
        uint32_t gap, count, x;
        if (!get_varint(p, e, gap) || !get_varint(p, e, count))
            return false;
        if (works == 0)
            first = last = gap; /* the first docid is stored as is */
        else
            last += gap;
        for (uint32_t i = 0; i < count; i++)
            if (!get_varint(p, e, x))
                return false;
        works++;
    }
    return true;
}

/* The docid in index of each line's work (the work whose id term is Q
 * and the line's first field), in line order: the works of the records
 * numbered as paperdex numbered them.  A record whose id the index lacks
 * is an error. */
bool docids_of(const char *index, const char *records, std::vector<uint32_t> &out)
{
    const Xapian::Database db(index);
    std::ifstream in(records);
    if (!in) {
        std::fprintf(stderr, "form_chunks: cannot read %s\n", records);
        return false;
    }
    for (std::string line; std::getline(in, line);) {
        const std::string id = line.substr(0, line.find('\t'));
        Xapian::PostingIterator p = db.postlist_begin("Q" + id);
        if (p == db.postlist_end("Q" + id)) {
            std::fprintf(stderr, "form_chunks: %s: no work of id %s in %s\n",
                         records, id.c_str(), index);
            return false;
        }
        out.push_back(*p);
    }
    return true;
}

int build(const char *side, const char *records, const char *forms_path,
          uint32_t batch, const char *index)
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
    /* the records, each with its docid: the line's number, or (index)
     * its work's docid there, read ahead of the clock */
    std::vector<uint32_t> docids;
    if (index && !docids_of(index, records, docids))
        return 1;
    std::ifstream in(records);
    if (!in) {
        std::fprintf(stderr, "form_chunks: cannot read %s\n", records);
        return 1;
    }
    /* Records whose docids do not ascend with their lines are read into
     * memory and taken in docid order; others straight from the file. */
    std::vector<std::pair<uint32_t, std::string>> numbered;
    if (!std::is_sorted(docids.begin(), docids.end())) {
        numbered.reserve(docids.size());
        std::string l;
        for (size_t i = 0; i < docids.size() && std::getline(in, l); i++)
            numbered.emplace_back(docids[i], std::move(l));
        std::sort(numbered.begin(), numbered.end(),
                  [](const auto &x, const auto &y) { return x.first < y.first; });
    }
    size_t next = 0;
    uint32_t line_no = 0;
    std::string line;
    auto next_record = [&](uint32_t &d) {
        if (!numbered.empty()) {
            if (next == numbered.size())
                return false;
            d = numbered[next].first;
            line.swap(numbered[next++].second);
            return true;
        }
        if (!std::getline(in, line))
            return false;
        d = index ? docids.at(line_no) : line_no + 1;
        line_no++;
        return true;
    };
    const auto t0 = std::chrono::steady_clock::now();
    Xapian::WritableDatabase db(side, Xapian::DB_CREATE_OR_OVERWRITE | Xapian::DB_NO_SYNC);
    struct Pending {
        std::string entries;
        uint32_t works = 0, first = 0, last = 0;
    };
    std::unordered_map<std::string, Pending> pending;
    std::unordered_map<std::string, std::vector<uint32_t>> here;
    std::vector<std::string> ws;
    uint64_t entries = 0, bytes = 0, commits = 0, records_read = 0;
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
            uint32_t works = 0, first = 0, last = 0;
            if (!count_works(open, works, first, last))
                throw Xapian::DatabaseCorruptError("an open chunk is damaged");
            if (works) { /* the batch's first docid, as is, becomes a gap */
                std::string as_is;
                put_varint(as_is, p.first);
                put_varint(open, p.first - last);
                open.append(p.entries, as_is.size(), std::string::npos);
            } else {
                open = p.entries;
                first = p.first;
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
    while (next_record(did)) {
        records_read++;
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
        if (batch && records_read % batch == 0)
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
    std::printf("{\"records\": %llu, \"words\": %zu, \"entries\": %llu, \"bytes\": %llu, "
                "\"commits\": %llu, \"seconds\": %.2f}\n",
                static_cast<unsigned long long>(records_read), pending.size(), static_cast<unsigned long long>(entries),
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

/* paperdex's BM25 (searcher/bm25.cc: k1 1.2, b 0.6, BM25Weight's least
 * normalised length 0.5) of one word in one work. */
struct Weigher {
    double termweight = 0, len_factor = 0;
    double operator()(double wdf, uint32_t len) const
    {
        const double k1 = 1.2, b = 0.6;
        const double normlen = std::max(len * len_factor, 0.5);
        return termweight * (k1 + 1) * (wdf / (k1 * (normlen * b + (1 - b)) + wdf));
    }
};

/* A phrase's top 10 as paperdex ranks it (the sum of its stems' weights
 * in the default field, ties by docid), from the paperdex index `db`:
 * each work the chunks match is weighed, its stems' wdf read from their
 * posting lists (in docid order) and its length from `lens`, which
 * paperdex too keeps in memory. */
class Ranked {
    const Xapian::Database &db_;
    const std::vector<uint32_t> &lens_;
    Xapian::PostingIterator a_, b_;
    Weigher wa_, wb_;
    std::vector<std::pair<double, uint32_t>> top_; /* a heap: the worst first */

    static bool better(const std::pair<double, uint32_t> &x,
                       const std::pair<double, uint32_t> &y)
    {
        return x.first > y.first || (x.first == y.first && x.second < y.second);
    }

  public:
    Ranked(const Xapian::Database &db, const std::vector<uint32_t> &lens,
           const std::string &sa, const std::string &sb)
        : db_(db), lens_(lens), a_(db.postlist_begin(sa)), b_(db.postlist_begin(sb))
    {
        const double n = db.get_doccount(), av = db.get_avlength();
        for (auto wt : {std::make_pair(&wa_, &sa), std::make_pair(&wb_, &sb)}) {
            const double df = db.get_termfreq(*wt.second);
            double tw = (n - df + 0.5) / (df + 0.5);
            if (tw < 2)
                tw = tw * 0.5 + 1;
            wt.first->termweight = std::log(tw);
            wt.first->len_factor = av ? 1 / av : 0;
        }
    }
    /* Work d (ascending); false if it lacks a stem (the chunks read words
     * otherwise than paperdex did). */
    bool weigh(uint32_t d)
    {
        a_.skip_to(d);
        b_.skip_to(d);
        const Xapian::PostingIterator end;
        if (a_ == end || b_ == end || *a_ != d || *b_ != d)
            return false;
        const uint32_t len = d < lens_.size() ? lens_[d] : db_.get_doclength(d);
        const std::pair<double, uint32_t> x(wa_(a_.get_wdf(), len) + wb_(b_.get_wdf(), len), d);
        if (top_.size() < 10) {
            top_.push_back(x);
            std::push_heap(top_.begin(), top_.end(), better);
        } else if (better(x, top_.front())) {
            std::pop_heap(top_.begin(), top_.end(), better);
            top_.back() = x;
            std::push_heap(top_.begin(), top_.end(), better);
        }
        return true;
    }
    std::vector<std::pair<double, uint32_t>> page()
    {
        std::vector<std::pair<double, uint32_t>> p = top_;
        std::sort(p.begin(), p.end(), better);
        return p;
    }
};

int query(const char *side, const char *qfile, int repeat,
          const char *counts_path, const char *index)
{
    bench_query *all;
    const long nq = read_queries(qfile, &all);
    if (nq < 0)
        return 1;
    std::vector<std::pair<std::string, std::string>> qs;
    for (long i = 0; i < nq; i++) {
        if (std::strcmp(all[i].kind, "phrase"))
            continue;
        std::vector<std::string> ws;
        words_of(all[i].words, ws);
        if (ws.size() != 2) {
            std::fprintf(stderr, "form_chunks: %s: a phrase of two words only: %s\n",
                         qfile, all[i].words);
            return 2;
        }
        qs.emplace_back(ws[0], ws[1]);
    }
    const Xapian::Database db(side);
    /* --index: the works' lengths, read once (as a paperdex handle keeps
     * them), and the stems of the words */
    Xapian::Database idx;
    std::vector<uint32_t> lens;
    std::vector<std::pair<std::string, std::string>> stems;
    if (index) {
        idx = Xapian::Database(index);
        lens.assign(idx.get_lastdocid() + 1, 0);
        for (Xapian::PostingIterator p = idx.postlist_begin(""); p != idx.postlist_end(""); ++p)
            lens[*p] = p.get_doclength();
        const Xapian::Stem stem("english");
        for (const auto &q : qs)
            stems.emplace_back(stem(q.first), stem(q.second));
    }
    std::vector<unsigned long> counts(qs.size());
    std::vector<std::vector<std::pair<double, uint32_t>>> pages(qs.size());
    std::printf("{\"latency_us\": [");
    for (int r = 0; r < repeat; r++)
        for (size_t i = 0; i < qs.size(); i++) {
            const auto t0 = std::chrono::steady_clock::now();
            Stream a(db, qs[i].first), b(db, qs[i].second);
            std::unique_ptr<Ranked> ranked;
            if (index)
                ranked.reset(new Ranked(idx, lens, stems[i].first, stems[i].second));
            unsigned long n = 0;
            /* counted to 10,000; ranked, every match is weighed */
            while (!a.done && !b.done && (ranked || n < 10000)) {
                if (a.did < b.did) {
                    a.next();
                } else if (b.did < a.did) {
                    b.next();
                } else {
                    if (adjacent(a.pos, b.pos) && (!ranked || ranked->weigh(a.did)))
                        n++;
                    a.next();
                    b.next();
                }
            }
            counts[i] = std::min(n, 10000ul);
            if (ranked)
                pages[i] = ranked->page();
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
        for (size_t i = 0; i < qs.size(); i++) {
            std::fprintf(f, "%s %s\t%lu", qs[i].first.c_str(), qs[i].second.c_str(), counts[i]);
            for (const auto &h : pages[i]) /* the id, as pdx_qbench writes it */
                std::fprintf(f, "\t%s:%.17g", idx.get_document(h.second).get_value(2).c_str(),
                             h.first);
            std::fprintf(f, "\n");
        }
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
            const char *index = nullptr;
            for (bool more = true; more;) {
                more = false;
                if (argc > a + 1 && !std::strcmp(argv[a], "--batch")) {
                    batch = static_cast<uint32_t>(std::atol(argv[a + 1]));
                    a += 2;
                    more = true;
                } else if (argc > a + 1 && !std::strcmp(argv[a], "--index")) {
                    index = argv[a + 1];
                    a += 2;
                    more = true;
                }
            }
            if (argc - a == 2 || argc - a == 3)
                return build(argv[a], argv[a + 1], argc - a == 3 ? argv[a + 2] : nullptr,
                             batch, index);
        }
        if (mode == "query") {
            const char *index = nullptr;
            int a = 2;
            if (argc > 3 && !std::strcmp(argv[2], "--index")) {
                index = argv[3];
                a = 4;
            }
            if (argc - a == 3 || argc - a == 4)
                return query(argv[a], argv[a + 1], std::atoi(argv[a + 2]),
                             argc - a == 4 ? argv[a + 3] : nullptr, index);
        }
        if (mode == "values" && argc == 3)
            return values(argv[2]);
    } catch (const Xapian::Error &e) {
        std::fprintf(stderr, "form_chunks: %s\n", e.get_description().c_str());
        return 1;
    }
    std::fprintf(stderr, "usage: form_chunks build [--batch N] [--index DB] SIDE RECORDS [FORMS]\n"
                         "       form_chunks query [--index DB] SIDE QUERIES REPEAT [COUNTS]\n"
                         "       form_chunks values DB\n");
    return 2;
}
