/*
 * shim_write.cc -- the write side's Xapian code: a work in (its terms,
 * values and stored record, by the layout in common/layout.h), works out,
 * metadata written, commits, and compaction.  Behind indexer/shim_write.h;
 * the exception fence and the handle are common/shim.cc's.
 */
#include <xapian.h>

#include <atomic>
#include <map>

#include <cjson/cJSON.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <dirent.h>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "../common/hash_counts.hh"
#include "../common/shim_db.hh"
#include "shim_write.h"
#include "text_terms.hh"
extern "C" {
#include "../common/text.h"
}

using namespace pdxshim;

namespace {

const Xapian::termpos FIELD_GAP = LAYOUT_FIELD_GAP;

/* A work's words for the spelling table (LAYOUT_META_SPELLING), each once,
 * with its hash (SpellingCounts).  TextTerms gathers them, with repeats,
 * into words; settle() leaves each once, hashed. */
struct SpellWords {
    std::vector<std::string> words;
    std::vector<uint64_t> hashes;
    std::vector<uint64_t> seen; /* settle()'s: open addressing, 0 empty */

    void settle()
    {
        /* Each word's first time kept, in place: the hashes in a table
         * of their own, at most half full (key_hash is never 0). */
        size_t cap = 64;
        while (cap < 2 * words.size())
            cap *= 2;
        seen.assign(cap, 0);
        hashes.clear();
        size_t out = 0;
        for (size_t i = 0; i < words.size(); i++) {
            const uint64_t h = key_hash(words[i]);
            size_t j = h & (cap - 1);
            while (seen[j] && seen[j] != h)
                j = (j + 1) & (cap - 1);
            if (seen[j])
                continue; /* said already */
            seen[j] = h;
            if (out != i)
                words[out] = std::move(words[i]);
            out++;
            hashes.push_back(h);
        }
        words.resize(out);
    }
};

/* The spelling table's counts not yet handed to Xapian
 * (Writer::spelling), by word (common/hash_counts.hh says why a table of
 * its own). */
class SpellingCounts : public HashCounts {
  public:
    SpellingCounts() : HashCounts(1 << 15) {}
    /* One more work writes each of words: their slots fetched together
     * (a probe is a cache miss). */
    void add(const SpellWords &w)
    {
        reserve_more(w.hashes.size());
        for (uint64_t h : w.hashes)
            prefetch(h);
        for (size_t i = 0; i < w.hashes.size(); i++)
            HashCounts::add(w.words[i], w.hashes[i], 1);
    }
};

void build_doc(TextTerms &tt, RecordPacker &packer,
               const RecordDict *dict, const shim_doc *d,
               const std::string &idterm, bool xapian_positions,
               bool year_terms, bool first_author, Xapian::Document &doc,
               SpellWords *spelling, ChunkTerms *chunk_terms,
               const std::unordered_set<std::string> *grams);
void add_words(shim_db *h, const SpellWords &words);

/* ----------------------------------------------------------------------
 * The builder thread
 *
 * Turning a work into a Xapian::Document (folding accents, the text's
 * words and their stems, the layout's derived terms, values and the
 * stored record) is about a fifth of indexing; handing the document to
 * Xapian (its inverter, then the commits) is most of the rest, and only
 * one thread may do that.  With SHIM_BUILDER the writer keeps one more
 * thread that builds the documents while the caller's thread hands the
 * previous ones to Xapian and reads and merges the next records: a
 * pipeline two deep, on a machine with a core to spare.
 *
 * Only a new work that absorbs none goes through the builder (shim_doc
 * fresh, no delete_ids): its document only adds terms.  Whatever the
 * handle is asked next sees the index as if every document in flight
 * were written already: entry points that read or change the index
 * settle first (Side::settle), except the two that run once a record,
 * a lookup by key and a key's frequency, which settle only when a
 * document in flight holds one of their keys (in_flight: the boolean
 * keys of each document in flight are counted as it is queued).  A
 * replacement or an absorption settles and is written at once.  The
 * documents reach Xapian in the order they came, so the index (its
 * docids too) is the one the same calls make without the thread; the
 * suite builds both ways and compares them (tests/unit/test_index.c).
 * An error building or adding a document in flight is reported by the
 * call that meets it, naming the work. */

/* A work waiting for the builder, or built: shim_doc's strings copied. */
struct Job {
    std::deque<std::string> text; /* what the pointers below point into */
    std::vector<shim_author> authors;
    std::vector<const char *> cat_keys, categories, subject_keys, subjects,
        terms;
    shim_doc d;
    std::string idterm;
    std::shared_ptr<const RecordDict> dict; /* to pack its record with */
    Xapian::Document doc;
    SpellWords spelling; /* its words, for the spelling table */
    ChunkTerms chunk_terms; /* its positions, with h->chunks */
    bool first_author;      /* it keeps its first author's keys */
    std::exception_ptr error;

    const char *keep(const char *p)
    {
        if (!p)
            return nullptr;
        text.emplace_back(p);
        return text.back().c_str();
    }
    std::vector<const char *> keep_all(const char *const *v, size_t n)
    {
        std::vector<const char *> out;
        out.reserve(n);
        for (size_t i = 0; i < n; i++)
            out.push_back(keep(v[i]));
        return out;
    }
    Job(const shim_doc *in, std::shared_ptr<const RecordDict> dict_,
        bool first_author_)
        : d(*in), dict(std::move(dict_)), first_author(first_author_)
    {
        d.id = keep(in->id);
        d.title = keep(in->title);
        d.abstract = keep(in->abstract);
        d.date_key = keep(in->date_key);
        text.emplace_back(in->data, in->data_len);
        d.data = text.back().data();
        for (size_t i = 0; i < in->n_authors; i++) {
            const shim_author &a = in->authors[i];
            authors.push_back(
                shim_author{keep(a.name), keep(a.family), keep(a.full),
                            keep(a.bare), keep(a.full_bare)});
        }
        cat_keys = keep_all(in->cat_keys, in->n_cat_keys);
        categories = keep_all(in->categories, in->n_categories);
        subject_keys = keep_all(in->subject_keys, in->n_subject_keys);
        subjects = keep_all(in->subjects, in->n_subjects);
        terms = keep_all(in->terms, in->n_terms);
        d.authors = authors.data();
        d.cat_keys = cat_keys.data();
        d.categories = categories.data();
        d.subject_keys = subject_keys.data();
        d.subjects = subjects.data();
        d.terms = terms.data();
        d.delete_ids = nullptr;
        d.n_delete_ids = 0;
        idterm = std::string(LAYOUT_P_ID) + d.id;
    }
    /* The boolean terms its document will hold: the id, d.terms, the
     * author, category and subject keys (what add_boolean adds). */
    template <typename F> void each_key(F f) const
    {
        f(idterm);
        for (const char *t : terms)
            if (t && *t)
                f(std::string(t));
        auto with = [&f](const char *prefix, const char *k) {
            if (k && *k)
                f(std::string(prefix) + cut_key(k));
        };
        for (const shim_author &a : authors) {
            with(LAYOUT_P_AUTHOR_FAMILY, a.family);
            with(LAYOUT_P_AUTHOR_FULL, a.full);
            with(LAYOUT_P_AUTHOR_FAMILY, a.bare);
            with(LAYOUT_P_AUTHOR_FULL, a.full_bare);
        }
        if (first_author && !authors.empty()) {
            with(LAYOUT_P_AUTHOR_FIRST, authors[0].family);
            with(LAYOUT_P_AUTHOR_FIRST, authors[0].bare);
        }
        for (const char *k : cat_keys)
            with(LAYOUT_P_CATEGORY, k);
        for (const char *k : subject_keys)
            with(LAYOUT_P_SUBJECT, k);
    }
};

const size_t MAX_IN_FLIGHT = 64;

/* ----------------------------------------------------------------------
 * The keys written
 *
 * Every new record is first looked up by its keys (its id, merge keys,
 * place), and on a new index nearly every key is one no work holds yet.
 * Xapian answers that from its B-tree, a term frequency per key; on a
 * writer with the builder thread the lookup must also ask whether a
 * document in flight holds the key.  A writer that starts on an empty
 * index has written every document its index holds, so it can answer
 * "no work holds it" itself: it keeps a Bloom filter of the keys of
 * every document it writes (the id term and shim_doc.terms), and
 * shim_lookup_pruned skips any key the filter has never seen.  A filter
 * errs only the safe way (a key it has seen, or a false positive, is
 * looked up in Xapian as before), so the index written is the same.
 *
 * The filter grows as a chain: 20 bits a key and 7 probes (a false
 * positive rate near 0.02%), each filter twice the last when it is
 * full, up to KEYS_MAX_BITS; after that the last one takes every key and
 * its rate rises, which costs lookups, never answers.  Memory: 25 to 50
 * bytes a work (about ten distinct keys at 20 bits, the newest filter
 * partly empty), and never more than twice KEYS_MAX_BITS bits in all
 * (64 MB).
 * Only terms with the prefixes of those keys are answered (Q, XM, XI,
 * XS, XP, XR, XW: layout.h); any other term may be held. */

const unsigned KEYS_PROBES = 7;
const size_t KEYS_BITS_PER_KEY = 20;
const size_t KEYS_FIRST_BITS = size_t(1) << 20;
const size_t KEYS_MAX_BITS = size_t(1) << 28;

class KeysWritten {
    struct Filter {
        std::vector<uint64_t> words;
        size_t mask, n = 0, cap;
        explicit Filter(size_t bits)
            : words(bits / 64), mask(bits - 1), cap(bits / KEYS_BITS_PER_KEY)
        {
        }
    };
    std::vector<Filter> chain; /* empty: not keeping (an index not new) */

    static bool tracked(const std::string &t)
    {
        static const char *const prefixes[] = {
            LAYOUT_P_ID,        "XM" /* merge keys, class terms */,
            LAYOUT_P_SOURCE_ID, LAYOUT_P_SOURCE_POS,
            LAYOUT_P_SOURCE_FILE, LAYOUT_P_RECORD,
            LAYOUT_TOMBSTONE};
        for (const char *p : prefixes)
            if (t.compare(0, strlen(p), p) == 0)
                return true;
        return false;
    }
    /* The probes: double hashing, the second hash mixed from the first. */
    template <typename F> static bool probe(const std::string &t, F f)
    {
        uint64_t h1 = std::hash<std::string>()(t);
        uint64_t h2 = (h1 ^ (h1 >> 31)) * 0x9e3779b97f4a7c15ull;
        h2 = (h2 ^ (h2 >> 29)) | 1;
        for (unsigned i = 0; i < KEYS_PROBES; i++)
            if (!f(h1 + i * h2))
                return false;
        return true;
    }

  public:
    void start() { chain.emplace_back(KEYS_FIRST_BITS); }
    bool keeping() const { return !chain.empty(); }
    void add(const std::string &t)
    {
        /* A key seen before (a file's XP, the class terms: in nearly
         * every work) is not counted again against the capacity. */
        if (chain.empty() || !tracked(t) || may_hold(t))
            return;
        if (chain.back().n >= chain.back().cap &&
            chain.back().words.size() * 64 < KEYS_MAX_BITS)
            chain.emplace_back(chain.back().words.size() * 128);
        Filter &f = chain.back();
        f.n++;
        probe(t, [&f](uint64_t x) {
            f.words[(x & f.mask) >> 6] |= uint64_t(1) << (x & 63);
            return true;
        });
    }
    bool may_hold(const std::string &t) const
    {
        if (chain.empty() || !tracked(t))
            return true;
        for (const Filter &f : chain)
            if (probe(t, [&f](uint64_t x) {
                    return (f.words[(x & f.mask) >> 6] >> (x & 63)) & 1;
                }))
                return true;
        return false;
    }
};

/* When a writer hands its spelling counts to Xapian (Writer::spelling). */
const size_t SPELLING_SMALL = 10000;
const size_t SPELLING_MOST = 250000;

struct Writer : Side {
    shim_db *h;
    TextTerms tt;             /* the caller's thread's: stems, positions */
    RecordPacker packer;      /* the same */
    RecordTrainer records;    /* the same: the records' dictionary */

    /* The builder: its own stemmer (in btt) and packer. */
    std::thread thread;
    TextTerms btt;
    RecordPacker bpacker;
    std::mutex mu;
    std::condition_variable to_build, built;
    std::deque<std::unique_ptr<Job>> todo, done; /* under mu */
    /* Works' ChunkTerms written, handed back to the builder to fill
     * again (their strings and vectors keep their memory): spare under
     * mu, recycled the caller's thread's until it next takes mu. */
    std::vector<std::vector<ChunkTerm>> spare, recycled;
    bool stop = false;                          /* under mu */
    size_t in_flight_n = 0;                     /* the caller's thread's */
    std::unordered_map<std::string, unsigned> keys; /* the same */
    KeysWritten written;                            /* the same */
    /* The spelling table's counts not yet handed to Xapian, by word (the
     * caller's thread's).  Xapian merges its spelling table at each
     * commit, rewriting every list of word fragments a new word touches:
     * counts handed over at each of a build's commits (every 10,000
     * works) would make the arXiv 101k's build 70% slower and its table
     * three times the size.  So the counts are handed over at a commit only
     * while they are few (under SPELLING_SMALL words: an update from
     * cron, a program that commits small batches) or many (SPELLING_MOST
     * words: bounded memory), and always at close.  A writer killed
     * before then loses the counts gathered since (its works stay): the
     * table lags until the index is rebuilt.  A shard of a --jobs build,
     * read by nobody before its last commit, hands them over at close
     * (or at SPELLING_MOST) alone. */
    SpellingCounts spelling;
    /* With h->chunks: the positions of the works written since the last
     * commit, by term (the caller's thread's). */
    ChunkBuilder chunks;
    /* The stems this writer has marked joined (LAYOUT_JOINED_KEY), so
     * that each is written about once (the caller's thread's): at most
     * JOINED_MARKED of them, then forgotten, and a stem met again is
     * marked again (the same value, a few bytes to Xapian's buffer). */
    std::unordered_set<std::string> joined_marked;
    static const size_t JOINED_MARKED = size_t(1) << 16;

    /* Mark the stems of a work's joined compounds (LAYOUT_JOINED_KEY),
     * those not marked yet; the marks go in with the work's commit. */
    void mark_joined(const std::vector<std::string> &stems)
    {
        for (const std::string &s : stems) {
            if (joined_marked.size() >= JOINED_MARKED)
                joined_marked.clear();
            if (joined_marked.insert(s).second)
                h->wdb.set_metadata(LAYOUT_JOINED_KEY + s, "1");
        }
    }

    explicit Writer(shim_db *h_)
        : h(h_),
          tt(english_stem(STEM_CACHE_WRITE, h_->american), h_->stop_words, &h_->stopper,
             LAYOUT_MAX_WORD_BYTES, h_->cjk_ngram),
          btt(h_->builder ? english_stem(STEM_CACHE_WRITE, h_->american) : Xapian::Stem(),
              h_->stop_words, &h_->stopper, LAYOUT_MAX_WORD_BYTES,
              h_->cjk_ngram)
    {
        tt.forms = btt.forms = h->forms || h->chunks;
        tt.math = btt.math = h->math_scripts;
        tt.compounds = btt.compounds = h->compounds_joined;
        tt.stars = btt.stars = h->stars;
        tt.stop_compounds = btt.stop_compounds = h->compounds_joined && h->stop_compounds;
        tt.stop_runs = btt.stop_runs = tt.stop_compounds && h->stop_runs;
        tt.slash_pairs = btt.slash_pairs = h->compounds_joined && h->slash_pairs;
        tt.dotted = btt.dotted = h->dotted;
        tt.dotted_pairs = btt.dotted_pairs = h->dotted_pairs;
        /* A shard of a --jobs build writes the namespace its run gave
         * it (common/chunks.cc). */
        const std::string ns = h->wdb.get_metadata(LAYOUT_META_CHUNK_NS);
        if (!ns.empty())
            chunks.ns = static_cast<unsigned char>(atoi(ns.c_str()));
        /* Nobody reads a shard before its last commit (sync_jobs.c). */
        chunks.write_deltas = !h->nosync;
        if (h->chunks)
            chunks.start(h->wdb);
        /* Made at the first document: only shim_put adds documents. */
        if (h->wdb.get_doccount() == 0)
            written.start();
        records.open(h->wdb);
        if (h->builder) {
            thread = std::thread([this] { run(); });
        }
    }
    ~Writer() override
    {
        if (thread.joinable()) {
            {
                std::lock_guard<std::mutex> g(mu);
                stop = true;
            }
            to_build.notify_one();
            thread.join();
        }
    }

    void run()
    {
        std::unique_lock<std::mutex> g(mu);
        for (;;) {
            to_build.wait(g, [this] { return stop || !todo.empty(); });
            if (stop)
                return;
            std::unique_ptr<Job> j = std::move(todo.front());
            todo.pop_front();
            if (!spare.empty()) {
                j->chunk_terms.v = std::move(spare.back());
                spare.pop_back();
            }
            g.unlock();
            try {
                build_doc(btt, bpacker, j->dict.get(), &j->d, j->idterm,
                          h->xapian_positions, h->year_terms, j->first_author, j->doc,
                          h->spelling ? &j->spelling : nullptr,
                          h->chunks ? &j->chunk_terms : nullptr,
                          h->gram_words.get());
            } catch (...) {
                j->error = std::current_exception();
            }
            g.lock();
            done.push_back(std::move(j));
            built.notify_one();
        }
    }

    void queue(std::unique_ptr<Job> j)
    {
        j->each_key([this](const std::string &k) { keys[k]++; });
        {
            std::lock_guard<std::mutex> g(mu);
            todo.push_back(std::move(j));
        }
        to_build.notify_one();
        in_flight_n++;
        write_built(MAX_IN_FLIGHT);
    }

    static std::string naming(const char *id, const Xapian::Error &x)
    {
        return "work " + std::string(id) + ": " + x.get_description();
    }

    /* Hand the built documents to Xapian, in order, until at most
     * `most` are in flight (waiting for the builder when more are). */
    void write_built(size_t most)
    {
        while (in_flight_n > 0) {
            std::deque<std::unique_ptr<Job>> ready;
            {
                std::unique_lock<std::mutex> g(mu);
                if (in_flight_n > most)
                    built.wait(g, [this] { return !done.empty(); });
                ready.swap(done);
                for (auto &v : recycled)
                    if (spare.size() < 2 * MAX_IN_FLIGHT)
                        spare.push_back(std::move(v));
                recycled.clear();
            }
            if (ready.empty())
                return;
            std::exception_ptr first;
            for (auto &j : ready) {
                in_flight_n--;
                j->each_key([this](const std::string &k) {
                    auto it = keys.find(k);
                    if (it != keys.end() && --it->second == 0)
                        keys.erase(it);
                });
                if (first)
                    continue; /* after an error, the rest is dropped */
                try {
                    if (j->error)
                        std::rethrow_exception(j->error);
                    const Xapian::docid did = h->wdb.add_document(j->doc);
                    if (h->chunks) {
                        chunks.add(did, j->chunk_terms.v.data(), j->chunk_terms.n);
                        mark_joined(j->chunk_terms.joined);
                        recycled.push_back(std::move(j->chunk_terms.v));
                    }
                    add_words(h, j->spelling);
                } catch (const Xapian::DatabaseCorruptError &x) {
                    first = std::make_exception_ptr(
                        Xapian::DatabaseCorruptError(naming(j->d.id, x)));
                } catch (const Xapian::DatabaseError &x) {
                    /* A write that fails (a full disk): add_document
                     * writes the termlist and the stored record into
                     * their tables at once.  Kept a DatabaseError, as
                     * without this thread, so that it is an I/O error. */
                    first = std::make_exception_ptr(
                        Xapian::DatabaseError(naming(j->d.id, x)));
                } catch (const Xapian::InvalidOperationError &x) {
                    /* A failed write under SHIM_NOSYNC, as Xapian
                     * reports it there: an I/O error too. */
                    const std::string w = failed_write(x, errno);
                    if (w.empty())
                        first = std::make_exception_ptr(
                            Xapian::InternalError(naming(j->d.id, x)));
                    else
                        first = std::make_exception_ptr(Xapian::DatabaseError(
                            "work " + std::string(j->d.id) + ": " + w));
                } catch (const Xapian::Error &x) {
                    first = std::make_exception_ptr(
                        Xapian::InternalError(naming(j->d.id, x)));
                } catch (...) {
                    first = std::current_exception();
                }
            }
            if (first) {
                drop_all();
                std::rethrow_exception(first);
            }
        }
    }

    /* After an error: what is still in flight is not written. */
    void drop_all()
    {
        std::unique_lock<std::mutex> g(mu);
        in_flight_n -= todo.size();
        todo.clear();
        /* the one the builder may be building */
        built.wait(g, [this] { return done.size() >= in_flight_n; });
        done.clear();
        in_flight_n = 0;
        keys.clear();
    }

    void settle() override { write_built(0); }
    void before_commit(bool closing) override
    {
        /* The chunks of the works written since the last commit go into
         * this one (common/chunks.cc). */
        if (!chunks.empty() || closing)
            chunks.commit(h->wdb, closing);
        if (!closing && (spelling.size() >= SPELLING_SMALL || h->nosync) &&
            spelling.size() < SPELLING_MOST)
            return;
        spelling.each([this](std::string_view w, uint32_t n) {
            h->wdb.add_spelling(std::string(w), n);
        });
        spelling.clear();
    }
    bool busy() const override { return in_flight_n > 0; }
    bool in_flight(const std::string &t) const override
    {
        /* Tracked: Q<id> and the merge, record and source keys (X...
         * but the text-derived XB and XL); any other term may be in a
         * document in flight. */
        bool tracked = (t[0] == 'Q' || t[0] == 'X') &&
                       t.compare(0, strlen(LAYOUT_P_ABSTRACT), LAYOUT_P_ABSTRACT) &&
                       t.compare(0, strlen(LAYOUT_LENGTH_PAD), LAYOUT_LENGTH_PAD);
        return !tracked || keys.count(t) > 0;
    }
    bool may_hold(const std::string &t) const override
    {
        return written.may_hold(t);
    }
    /* Before d is queued or written (the filter must know a key before
     * any lookup could meet it). */
    void note_keys(const shim_doc *d, const std::string &idterm)
    {
        if (!written.keeping())
            return;
        written.add(idterm);
        for (size_t i = 0; i < d->n_terms; i++)
            if (d->terms[i] && *d->terms[i])
                written.add(d->terms[i]);
    }
};

Writer &writer(shim_db *h)
{
    if (!h->writer)
        h->writer.reset(new Writer(h));
    return static_cast<Writer &>(*h->writer);
}

/* Unlink the files directly in p (a half-written index is flat); p
 * itself stays. */
void empty_dir(const std::string &p)
{
    DIR *d = opendir(p.c_str());
    if (!d)
        return;
    std::vector<std::string> names;
    while (struct dirent *de = readdir(d))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            names.push_back(p + "/" + de->d_name);
    closedir(d);
    for (const std::string &n : names)
        unlink(n.c_str());
}

/* Add a boolean term, never one over Xapian's limit. */
void add_boolean(Xapian::Document &doc, const char *prefix, const char *key)
{
    if (!key || !*key)
        return;
    std::string t = std::string(prefix) + cut_key(key);
    if (t.size() <= MAX_TERM_BYTES)
        doc.add_boolean_term(t);
}

/* Index one field's text (accents folded) as positional stems under
 * prefix ("" for the default field), then leave a gap so that no phrase
 * spans two fields. */
void index_field(TextTerms &tt, const char *text, const std::string &prefix)
{
    if (!text || !*text)
        return;
    size_t n = strlen(text), flen = 0;
    char *folded = text_unaccent(text, n, &flen);
    if (folded) {
        std::unique_ptr<char, void (*)(void *)> own(folded, free);
        tt.index(folded, flen, prefix, FIELD_GAP);
    } else {
        tt.index(text, n, prefix, FIELD_GAP);
    }
}

/* What every writing entry point says on a read-only handle. */
int read_only(shim_err *e)
{
    set_msg(e, PDX_EINVAL, "index was opened read-only");
    return PDX_EINVAL;
}

/* What writing on a handle that holds an older layout says. */
bool old_layout(shim_db *h, shim_err *e)
{
    if (h->layout == PDX_LAYOUT_VERSION || h->layout == 0)
        return false;
    set_msg(e, PDX_EVERSION,
            "'" + h->path + "' has index layout " + std::to_string(h->layout) +
                ": it is rebuilt, not written to");
    return true;
}

} // namespace

namespace {

/* Where sub's first and last works are, and how far the compactor moved
 * sub's docids into out (found by its first work, looked up by its id
 * term).  False for a database without works. */
bool moved_by(const Xapian::Database &sub, Xapian::WritableDatabase &out,
              Xapian::docid &first, Xapian::docid &last, long long &moved)
{
    Xapian::PostingIterator p = sub.postlist_begin("");
    if (p == sub.postlist_end(""))
        return false;
    first = last = *p;
    for (; p != sub.postlist_end(""); ++p)
        last = *p;
    moved = 0;
    const Xapian::Document d = sub.get_document(first);
    for (Xapian::TermIterator t = d.termlist_begin(); t != d.termlist_end(); ++t)
        if (!(*t).empty() && (*t)[0] == LAYOUT_P_ID[0]) {
            Xapian::PostingIterator q = out.postlist_begin(*t);
            if (q != out.postlist_end(*t))
                moved = static_cast<long long>(*q) - static_cast<long long>(first);
            break;
        }
    return true;
}

/* The chunk namespaces of out, compacted from h's databases
 * (common/chunks.cc).  One database is compacted without renumbering
 * (shim_compact): its namespaces keep what they had.  Several are
 * renumbered by the compactor, each moved by an offset of its own:
 *
 *  - the shards of one --jobs build each wrote a namespace of their own
 *    (LAYOUT_META_CHUNK_NS): each keeps it, with its offset and the range
 *    of its own live docids (value "off lo hi"; outside it, the entries
 *    of works the shard deleted would fall on another shard's works);
 *  - other indexes may share namespaces, whose keys the compactor kept
 *    one of: their chunks are copied again, each database's namespaces
 *    into new ones in docid order (1, 2, ...), with their offsets and
 *    ranges.
 *
 * The shards' namespace mark goes: the writers of the merged index write
 * in CHUNK_NS_ONE, whose works come after every other namespace's. */
void chunk_offsets(shim_db *h, Xapian::WritableDatabase &out)
{
    if (h->subs.size() < 2)
        return;
    out.set_metadata(LAYOUT_META_CHUNK_NS, std::string());
    const std::string o(LAYOUT_META_CHUNK_OFF), chunks(1, '\1');
    size_t chunked = 0, shards = 0;
    for (const Xapian::Database &sub : h->subs) {
        chunked += sub.get_metadata(LAYOUT_META_CHUNKS) == "1";
        shards += !sub.get_metadata(LAYOUT_META_CHUNK_NS).empty() &&
                  sub.metadata_keys_begin(o) == sub.metadata_keys_end(o);
    }
    if (!chunked)
        return;
    if (chunked != h->subs.size())
        throw Xapian::InvalidOperationError(
            "an index of positions kept by the term (layout 9) merges only "
            "with others of its kind: rebuild the older ones first");
    std::map<int, std::string> offsets;
    if (shards == h->subs.size()) {
        for (const Xapian::Database &sub : h->subs) {
            Xapian::docid first, last;
            long long moved;
            if (!moved_by(sub, out, first, last, moved))
                continue;
            const int n = atoi(sub.get_metadata(LAYOUT_META_CHUNK_NS).c_str());
            offsets[n] = std::to_string(moved) + " " + std::to_string(first) +
                         " " + std::to_string(last);
        }
    } else {
        /* every chunk copied again under a namespace of its own */
        for (Xapian::TermIterator k = out.metadata_keys_begin(chunks);
             k != out.metadata_keys_end(chunks); ++k)
            out.set_metadata(*k, std::string());
        for (Xapian::TermIterator k = out.metadata_keys_begin(o);
             k != out.metadata_keys_end(o); ++k)
            out.set_metadata(*k, std::string());
        int next_ns = 1;
        for (const Xapian::Database &sub : h->subs) {
            Xapian::docid first, last;
            long long moved;
            if (!moved_by(sub, out, first, last, moved))
                continue;
            const ChunkSpace space(sub);
            std::map<int, int> renamed; /* the sub's namespace: out's */
            for (Xapian::TermIterator k = sub.metadata_keys_begin(chunks);
                 k != sub.metadata_keys_end(chunks); ++k) {
                std::string key = *k;
                const int ns = static_cast<unsigned char>(key[key.size() - 5]);
                if (!renamed.count(ns))
                    renamed[ns] = 0; /* numbered below, in order */
            }
            for (auto &kv : renamed) {
                if (next_ns >= CHUNK_NS_ONE)
                    throw Xapian::InvalidOperationError(
                        "too many indexes merged at once");
                kv.second = next_ns++;
                const Xapian::docid lo =
                    space.hi[kv.first] ? std::max(space.lo[kv.first], first) : first;
                const Xapian::docid hi =
                    space.hi[kv.first] ? std::min(space.hi[kv.first], last) : last;
                offsets[kv.second] =
                    std::to_string(space.off[kv.first] + moved) + " " +
                    std::to_string(lo) + " " + std::to_string(hi);
            }
            for (Xapian::TermIterator k = sub.metadata_keys_begin(chunks);
                 k != sub.metadata_keys_end(chunks); ++k) {
                std::string key = *k;
                const int ns = static_cast<unsigned char>(key[key.size() - 5]);
                const std::string value = sub.get_metadata(key);
                key[key.size() - 5] = static_cast<char>(renamed[ns]);
                out.set_metadata(key, value);
            }
        }
    }
    for (const auto &kv : offsets)
        out.set_metadata(o + std::to_string(kv.first), kv.second);
}

} // namespace

extern "C" int shim_compact(shim_db *h, const char *dest, shim_err *e)
{
    try {
        /* Copy the newest revision.  A commit may still discard it
         * midway: then start again from the newest, over whatever the
         * failed try wrote.  (Xapian 1.4's compactor leaks its table
         * buffers, about 50 KB, each time that happens.) */
        settle(h);
        if (!h->writable)
            h->db.reopen();
        if (h->writable && h->writer) {
            /* A writer's copy holds all it wrote: what it keeps for its
             * last commit (the spelling counts, Writer::spelling) is
             * committed first.  Its close then has nothing to write --
             * and must not: sync_compact_beside() swaps the copy in
             * before it closes the handle, and glass writes its version
             * file by the directory's name, into the copy. */
            h->writer->before_commit(true);
            h->wdb.commit();
        }
        int newest = 0;
        with_reopen(h, [&] {
            empty_dir(dest);
            /* One index of positions kept by the term keeps its docids
             * (common/chunks.cc): its chunks name them. */
            const bool keep = h->chunks && h->subs.size() == 1;
            h->db.compact(dest,
                          Xapian::DBCOMPACT_MULTIPASS |
                              (keep ? Xapian::DBCOMPACT_NO_RENUMBER : 0),
                          LAYOUT_BLOCK_SIZE);
            newest = 0;
            for (const Xapian::Database &sub : h->subs)
                newest = std::max(newest,
                                  atoi(sub.get_metadata(LAYOUT_META_LAYOUT).c_str()));
        });
        /* The compactor keeps the first shard's value of a key several
         * have.  The layout is the newest of the shards' instead: works
         * written by a newer layout (layout 8's positions values beside
         * layout 7's, say) are then left alone by an older paperdex,
         * which would misread them.  (Not by a Xapian::Compactor's
         * resolve_duplicate_metadata: glass in Xapian 1.4.22 passes it
         * an empty key, so it cannot tell the layout from another.) */
        Xapian::WritableDatabase out(dest, Xapian::DB_OPEN);
        if (newest > 0 &&
            atoi(out.get_metadata(LAYOUT_META_LAYOUT).c_str()) != newest)
            out.set_metadata(LAYOUT_META_LAYOUT, std::to_string(newest));
        /* Year terms only when every shard's works hold them (so
         * h->year_terms says: shim_add_shard, reopen_by_name). */
        if (!h->year_terms)
            out.set_metadata(LAYOUT_META_YEARS, std::string());
        chunk_offsets(h, out);
        out.commit();
        return 0;
    } catch (...) {
        return fail(e);
    }
}

namespace {

/* The work's positional terms as the chunks keep them
 * (common/chunks.cc): each field's positions less the field's least, and
 * the form each position was written in. */
void gather_chunk_terms(TextTerms &tt, ChunkTerms &ct)
{
    ct.joined.clear();
    for (const std::string &j : tt.joined_terms) {
        ct.joined.emplace_back();
        term_field(j, ct.joined.back());
    }
    const std::vector<const TextTerms::Term *> &terms = tt.sorted();
    Xapian::termpos base[3] = {~0u, ~0u, ~0u};
    std::string stem;
    auto field_of = [&stem](const std::string &term) {
        const char *f = term_field(term, stem);
        return !strcmp(f, "text") ? 0 : !strcmp(f, "title") ? 1 : 2;
    };
    for (const TextTerms::Term *t : terms)
        if (!t->at.empty()) {
            Xapian::termpos &b = base[field_of(t->name)];
            b = std::min(b, t->at[0]);
        }
    std::vector<ChunkTerm> &out = ct.v;
    if (out.size() < terms.size())
        out.resize(terms.size());
    size_t n = 0;
    for (const TextTerms::Term *t : terms) {
        if (t->at.empty())
            continue;
        ChunkTerm &c = out[n++];
        const Xapian::termpos b = base[field_of(t->name)];
        c.term = t->name;
        c.at.resize(t->at.size());
        for (size_t i = 0; i < t->at.size(); i++)
            c.at[i] = t->at[i] - b;
        c.unsure = t->unsure;
        c.form.clear();
        if (!t->unsure && !t->seen.empty()) {
            c.form.assign(t->at.size(), 0);
            for (const auto &fp : t->seen) {
                auto it = std::lower_bound(t->at.begin(), t->at.end(), fp.second);
                if (it != t->at.end() && *it == fp.second)
                    c.form[static_cast<size_t>(it - t->at.begin())] = fp.first;
            }
        }
    }
    ct.n = n;
}

/* Work d as a document: its terms (by the layout, common/layout.h; its
 * XY<year> term with year_terms), its values and its stored record.
 * Runs on the caller's thread or the builder's, each with its own tt. */
void build_doc(TextTerms &tt, RecordPacker &packer,
               const RecordDict *dict, const shim_doc *d,
               const std::string &idterm, bool xapian_positions,
               bool year_terms, bool first_author, Xapian::Document &doc,
               SpellWords *spelling, ChunkTerms *chunk_terms,
               const std::unordered_set<std::string> *grams)
{
    /* Layout 4 (common/layout.h): the abstract's stems are the
     * default field's positional terms; title and author stems are
     * positional under S and A.  Layout 7 (common/positions.cc):
     * the terms join doc without their positions, which go into the
     * positions value instead; with xapian_positions (an index made for
     * xapian-tcpsrv), into Xapian's table. */
    static const std::string title_prefix(LAYOUT_P_TITLE),
        author_prefix(LAYOUT_P_AUTHOR), no_prefix;
    tt.clear();
    tt.spelling = spelling ? &spelling->words : nullptr; /* the title's
                                                            * and abstract's
                                                            * words */
    index_field(tt, d->title, title_prefix);
    index_field(tt, d->abstract, no_prefix);
    tt.spelling = nullptr;
    if (spelling)
        spelling->settle();
    for (size_t i = 0; i < d->n_authors; i++)
        index_field(tt, d->authors[i].name, author_prefix);
    /* Then the title and author stems join the default field without
     * positions (title words TITLE_WDF times), and a stem the
     * abstract shares with them gets XB<stem>, which says that the
     * abstract has it.  The document's terms are sorted: the prefixed
     * ones (upper case) first, then the abstract's. */
    std::vector<std::pair<std::string, Xapian::termcount>> plain;
    std::vector<std::string> in_abstract;
    Xapian::termcount abstract_words = 0;
    PositionsWriter positions;
    for (const TextTerms::Term *t : tt.sorted()) {
        const std::string &term = t->name;
        const Xapian::termcount wdf =
            static_cast<Xapian::termcount>(t->at.size());
        if (xapian_positions) {
            for (Xapian::termpos at : t->at)
                doc.add_posting(term, at);
        } else if (chunk_terms) {
            doc.add_term(term, wdf);
        } else {
            doc.add_term(term, wdf);
            positions.add(term, t->at);
        }
        std::string stem;
        const char *field = term_field(term, stem);
        if (!strcmp(field, "text")) {
            in_abstract.push_back(std::move(stem));
            abstract_words += wdf;
        } else
            plain.emplace_back(std::move(stem),
                               wdf * (!strcmp(field, "title") ? TITLE_WDF : 1));
    }
    for (const auto &pw : plain) {
        if (std::binary_search(in_abstract.begin(), in_abstract.end(),
                               pw.first))
            add_boolean(doc, LAYOUT_P_ABSTRACT, pw.first.c_str());
        else if (!xapian_positions)
            positions.also_holds(pw.first); /* a default-field term */
        doc.add_term(pw.first, pw.second);
    }
    if (chunk_terms) {
        gather_chunk_terms(tt, *chunk_terms);
        /* two common words next to each other (common/common_grams.cc) */
        if (grams)
            add_common_grams(*chunk_terms, *grams);
    }
    /* The words as written (LAYOUT_META_FORMS, common/forms.cc). */
    if (tt.forms && !chunk_terms) {
        doc.add_value(SLOT_FORMS, forms_value(tt.word_forms()));
        /* And where (forms.cc, "Forms at their positions"). */
        const std::string at = forms_at_value(tt.form_positions());
        if (!at.empty())
            doc.add_value(SLOT_FORMS_AT, at);
    }
    /* The document length of layout 3, which also counted the
     * abstract's XB copies: BM25 was tuned on it (bench/eval.py).  The
     * joined words of compounds (TextTerms::compounds) stand beside
     * their parts and are no words the work writes: the pad gives back
     * what they added to the length, as far as it reaches (2 for each
     * of the abstract's, its wdf and the pad's own; 1 + TITLE_WDF for
     * each of the title's, its S wdf and the default field's), as
     * Lucene's BM25 leaves out of a field's length a token that shares
     * its position (discountOverlaps).  A work without an abstract keeps
     * its title's in its length. */
    Xapian::termcount overlap = 0;
    for (const std::string &j : tt.joined_terms) {
        std::string stem;
        overlap += !strcmp(term_field(j, stem), "title") ? 1 + TITLE_WDF : 2;
    }
    if (abstract_words > overlap)
        doc.add_term(LAYOUT_LENGTH_PAD, abstract_words - overlap);
    for (size_t i = 0; i < d->n_authors; i++) {
        const shim_author &a = d->authors[i];
        add_boolean(doc, LAYOUT_P_AUTHOR_FAMILY, a.family);
        add_boolean(doc, LAYOUT_P_AUTHOR_FULL, a.full);
        add_boolean(doc, LAYOUT_P_AUTHOR_FAMILY, a.bare);
        add_boolean(doc, LAYOUT_P_AUTHOR_FULL, a.full_bare);
    }
    /* the first author's family name, with its particles and without
     * (LAYOUT_META_FIRST_AUTHOR) */
    if (first_author && d->n_authors) {
        add_boolean(doc, LAYOUT_P_AUTHOR_FIRST, d->authors[0].family);
        add_boolean(doc, LAYOUT_P_AUTHOR_FIRST, d->authors[0].bare);
    }
    for (size_t i = 0; i < d->n_cat_keys; i++)
        add_boolean(doc, LAYOUT_P_CATEGORY, d->cat_keys[i]);
    for (size_t i = 0; i < d->n_subject_keys; i++)
        add_boolean(doc, LAYOUT_P_SUBJECT, d->subject_keys[i]);
    doc.add_boolean_term(idterm);
    for (size_t i = 0; i < d->n_terms; i++) {
        std::string t(d->terms[i]);
        if (!t.empty() && t.size() <= MAX_TERM_BYTES)
            doc.add_boolean_term(t);
    }
    if (d->year > 0) {
        doc.add_value(SLOT_YEAR, Xapian::sortable_serialise(d->year));
        if (year_terms)
            doc.add_boolean_term(LAYOUT_P_YEAR + std::to_string(d->year));
    }
    if (d->date_key && *d->date_key)
        doc.add_value(SLOT_DATE, d->date_key);
    doc.add_value(SLOT_ID, d->id);
    std::string cats, names, subjects;
    for (size_t i = 0; i < d->n_subjects; i++)
        (subjects += (i ? std::string(1, FACET_SEP) : "")) += d->subjects[i];
    if (!subjects.empty())
        doc.add_value(SLOT_SUBJECTS, subjects);
    for (size_t i = 0; i < d->n_categories; i++)
        (cats += (i ? std::string(1, FACET_SEP) : "")) += d->categories[i];
    for (size_t i = 0; i < d->n_authors; i++)
        (names += (i ? std::string(1, FACET_SEP) : "")) += d->authors[i].name;
    if (!cats.empty())
        doc.add_value(SLOT_CATS, cats);
    if (!names.empty())
        doc.add_value(SLOT_AUTHORS, names);
    if (!xapian_positions && !chunk_terms) {
        std::string v = positions.take();
        if (!v.empty())
            doc.add_value(SLOT_POSITIONS, v);
    }
    /* The record, in a zstd frame (common/record_store.cc). */
    doc.add_value(SLOT_RECORD, packer.pack(dict, d->data, d->data_len));
}

} // namespace

namespace {

/* A work's words join the spelling table (LAYOUT_META_SPELLING): each
 * once, so that a word's frequency is the number of works writing it. */
void add_words(shim_db *h, const SpellWords &words)
{
    writer(h).spelling.add(words);
}

/* Before the work stored under idterm is replaced or deleted, its words
 * leave the spelling table: they are read from its stored record by the
 * same rules as build_doc's (tt is cleared). */
void forget_words(shim_db *h, TextTerms &tt, const std::string &idterm)
{
    if (!h->spelling)
        return;
    Xapian::PostingIterator p = h->wdb.postlist_begin(idterm);
    if (p == h->wdb.postlist_end(idterm))
        return;
    const std::string data = stored_record(h, h->wdb.get_document(*p));
    cJSON *o = cJSON_ParseWithLength(data.data(), data.size());
    SpellWords words;
    tt.clear();
    tt.spelling = &words.words;
    static const std::string title_prefix(LAYOUT_P_TITLE), no_prefix;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "title");
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "abstract");
    index_field(tt, cJSON_IsString(t) ? t->valuestring : nullptr, title_prefix);
    index_field(tt, cJSON_IsString(a) ? a->valuestring : nullptr, no_prefix);
    tt.spelling = nullptr;
    tt.clear();
    cJSON_Delete(o);
    words.settle();
    /* a count not yet handed to Xapian is taken back here */
    SpellingCounts &n = writer(h).spelling;
    for (size_t i = 0; i < words.words.size(); i++)
        if (!n.take(words.hashes[i]))
            h->wdb.remove_spelling(words.words[i]);
}

} // namespace

extern "C" int shim_put(shim_db *h, const shim_doc *d, shim_err *e)
{
    try {
        if (!h->writable)
            return read_only(e);
        if (old_layout(h, e))
            return PDX_EVERSION;
        std::string idterm = std::string(LAYOUT_P_ID) + d->id;
        if (idterm.size() > MAX_TERM_BYTES) { /* write.c prevents this */
            set_msg(e, PDX_EINVAL, "id too long");
            return PDX_EINVAL;
        }
        Writer &w = writer(h);
        w.note_keys(d, idterm);
        std::shared_ptr<const RecordDict> dict =
            w.records.note(h->wdb, d->data, d->data_len);
        if (h->builder && d->fresh && !d->n_delete_ids) {
            w.queue(std::unique_ptr<Job>(new Job(d, std::move(dict), h->first_author)));
            return 0;
        }
        w.settle();
        for (size_t i = 0; i < d->n_delete_ids; i++)
            if (strcmp(d->delete_ids[i], d->id) != 0) {
                const std::string gone =
                    std::string(LAYOUT_P_ID) + d->delete_ids[i];
                forget_words(h, w.tt, gone);
                h->wdb.delete_document(gone);
            }
        Xapian::Document doc;
        if (!d->fresh)
            forget_words(h, w.tt, idterm);
        SpellWords words;
        ChunkTerms chunk_terms;
        build_doc(w.tt, w.packer, dict.get(), d, idterm, h->xapian_positions,
                  h->year_terms, h->first_author, doc, h->spelling ? &words : nullptr,
                  h->chunks ? &chunk_terms : nullptr, h->gram_words.get());
        if (h->chunks) {
            /* A replaced work is deleted and added again: docids only
             * grow along the chunks (common/chunks.cc). */
            if (!d->fresh)
                h->wdb.delete_document(idterm);
            w.chunks.add(h->wdb.add_document(doc), chunk_terms.v.data(), chunk_terms.n);
            w.mark_joined(chunk_terms.joined);
        } else if (d->fresh)
            h->wdb.add_document(doc);
        else
            h->wdb.replace_document(idterm, doc);
        add_words(h, words);
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_meta_set(shim_db *h, const char *key, const char *value,
                             shim_err *e)
{
    try {
        if (!h->writable)
            return read_only(e);
        settle(h);
        h->wdb.set_metadata(key, value ? value : "");
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_clear(shim_db *h, const char *meta_prefix, shim_err *e)
{
    try {
        if (!h->writable)
            return read_only(e);
        settle(h);
        if (old_layout(h, e))
            return PDX_EVERSION;
        std::vector<Xapian::docid> ids;
        for (Xapian::PostingIterator p = h->wdb.postlist_begin("");
             p != h->wdb.postlist_end(""); ++p)
            ids.push_back(*p);
        for (Xapian::docid id : ids)
            h->wdb.delete_document(id);
        std::vector<std::pair<std::string, Xapian::termcount>> spelt;
        for (Xapian::TermIterator t = h->wdb.spellings_begin();
             t != h->wdb.spellings_end(); ++t)
            spelt.emplace_back(*t, t.get_termfreq());
        for (const auto &sp : spelt)
            h->wdb.remove_spelling(sp.first, sp.second);
        if (h->writer)
            writer(h).spelling.clear();
        std::vector<std::string> keys;
        for (Xapian::TermIterator k = h->wdb.metadata_keys_begin(meta_prefix);
             k != h->wdb.metadata_keys_end(meta_prefix); ++k)
            keys.push_back(*k);
        for (const std::string &k : keys)
            h->wdb.set_metadata(k, "");
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_delete(shim_db *h, const char *id, shim_err *e)
{
    try {
        if (!h->writable)
            return read_only(e);
        settle(h);
        if (old_layout(h, e))
            return PDX_EVERSION;
        const std::string idterm = std::string(LAYOUT_P_ID) + id;
        forget_words(h, writer(h).tt, idterm);
        h->wdb.delete_document(idterm);
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_commit(shim_db *h, shim_err *e)
{
    try {
        if (!h->writable)
            return read_only(e);
        settle(h);
        if (h->writer)
            h->writer->before_commit(false);
        h->wdb.set_metadata(LAYOUT_META_UPDATED,
                            std::to_string(static_cast<long long>(time(nullptr))));
        h->wdb.commit();
        return 0;
    } catch (...) {
        return fail(e);
    }
}
