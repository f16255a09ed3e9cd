/*
 * shim_db.hh -- what the three C++ files behind the shim share: the
 * handle (struct shim_db), the one exception fence (fail), and the
 * helpers both sides of the layout need.  Private to the library; C code
 * sees only shim.h.
 *
 *   common/shim.cc         the fence, opening and closing, layout checks,
 *                          metadata reads, lookups by key
 *   indexer/shim_write.cc  documents in and out, commits, compaction
 *   searcher/shim_read.cc  queries, ranking, facets, snippets, explain,
 *                          suggestions, feedback, similar, statistics
 *
 * Each side keeps its own objects (the writer's text reader and stemmer,
 * indexer/text_terms.hh; the query parsers and the Enquire) in a Side
 * hung on the handle, made the first time that side is used, so a reader
 * never builds the writer's and a writer never builds a query parser.
 */
#ifndef PDX_SHIM_DB_HH
#define PDX_SHIM_DB_HH

#include <xapian.h>

#include <sys/types.h>

#include <functional>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "layout.h"
#include "paperdex.h"
#include "shim.h"

/* zstd's handles (zstd.h), for the stored record's classes below. */
struct ZSTD_CCtx_s;
struct ZSTD_CDict_s;

namespace pdxshim {

const Xapian::valueno SLOT_YEAR = LAYOUT_SLOT_YEAR;
const Xapian::valueno SLOT_DATE = LAYOUT_SLOT_DATE;
const Xapian::valueno SLOT_ID = LAYOUT_SLOT_ID;
const Xapian::valueno SLOT_CATS = LAYOUT_SLOT_CATS;
const Xapian::valueno SLOT_AUTHORS = LAYOUT_SLOT_AUTHORS;
const Xapian::valueno SLOT_SUBJECTS = LAYOUT_SLOT_SUBJECTS;
const Xapian::valueno SLOT_RECORD = LAYOUT_SLOT_RECORD;
const Xapian::valueno SLOT_POSITIONS = LAYOUT_SLOT_POSITIONS;
const Xapian::valueno SLOT_FORMS = LAYOUT_SLOT_FORMS;
const Xapian::valueno SLOT_FORMS_AT = LAYOUT_SLOT_FORMS_AT;
const char FACET_SEP = LAYOUT_FACET_SEP;
const Xapian::termcount TITLE_WDF = LAYOUT_TITLE_WDF;
const size_t MAX_TERM_BYTES = LAYOUT_MAX_TERM_BYTES;
const int MODIFIED_RETRIES = 50;

/* One side's own Xapian objects on a handle (see the top).  A writer
 * may have documents in flight (built on another thread, not yet handed
 * to Xapian: indexer/shim_write.cc, "The builder thread"); every entry
 * point that reads or changes the index settles them first, so that
 * what it sees is what a writer without that thread would see. */
struct Side {
    virtual ~Side() {}
    /* Hand every document in flight to Xapian, in order; rethrows the
     * first error met building or adding one. */
    virtual void settle() {}
    /* Hand Xapian what the side gathers beyond documents (a writer's
     * spelling counts): before every commit and close. */
    virtual void before_commit(bool closing) { (void)closing; }
    /* Whether a document in flight may hold term t (then a read of t
     * must settle first).  Answers yes for any term it does not track. */
    virtual bool in_flight(const std::string &) const { return false; }
    /* Whether any document is in flight. */
    virtual bool busy() const { return false; }
    /* False only when no document of the index, written or in flight,
     * can hold term t: a writer that started on an empty index keeps a
     * filter of the keys it has written (indexer/shim_write.cc, "The
     * keys written").  Answers true for any term it does not track. */
    virtual bool may_hold(const std::string &) const { return true; }
};

/* One index a read handle is made of, and which directory it was. */
struct shard_id {
    std::string path;
    bool local = false;
    dev_t dev = 0;
    ino_t ino = 0;
};

/* The stored record (common/record_store.cc): a reader's decompression
 * context and the dictionaries it has met. */
struct RecordReader;
void free_record_reader(RecordReader *r);
struct RecordReaderFree {
    void operator()(RecordReader *r) const { free_record_reader(r); }
};

/* A stop list that can be made another (Xapian's SimpleStopper cannot
 * be assigned): the index's stamp is read after the handle is made. */
class StopList : public Xapian::Stopper {
    std::unordered_set<std::string> words;

  public:
    void clear() { words.clear(); }
    void add(const std::string &w) { words.insert(w); }
    bool operator()(const std::string &w) const override { return words.count(w) != 0; }
};

} // namespace pdxshim

struct shim_db {
    std::string path;
    bool writable = false;
    int layout = 0;          /* the layout version of what was opened */
    int names = 1;           /* its name rules (LAYOUT_META_NAMES) */
    /* CJK text in n-grams (LAYOUT_META_CJK), for the indexer and the
     * query parser alike */
    bool cjk_ngram = false;
    /* Xapian's spelling table lists the works' words
     * (LAYOUT_META_SPELLING): the writer keeps it, suggest.cc reads it */
    bool spelling = false;
    /* Its works' word forms are indexed (LAYOUT_META_FORMS): the
     * writer adds XF terms, quoted words and wildcards read them */
    bool forms = false;
    /* Its positions are kept by the term (LAYOUT_META_CHUNKS,
     * common/chunks.cc), not in the positions and forms values. */
    bool chunks = false;
    /* Each work holds its XY<year> term (LAYOUT_META_YEARS): year
     * filters are ORs of them, else SLOT_YEAR's ranges. */
    bool year_terms = false;
    /* The rules its formulas' scripts and \ell are read by
     * (LAYOUT_META_MATH): 0, TEXT_MATH_TEX or TEXT_MATH_JOINED
     * (common/text.h), for the writer and the query alike */
    int math_scripts = 0;
    /* Its title's and abstract's hyphenated compounds are also indexed
     * as one word (LAYOUT_META_COMPOUNDS): the writer's rule, and the
     * snippet's, which marks such a compound whole for the closed word
     * (over shards, only when every one says so) */
    bool compounds_joined = false;
    /* A letter with a star after it ("A*") is a word of its own
     * (LAYOUT_META_STARS): the writer's rule, the query's and the
     * snippet's (over shards, only when every one says so) */
    bool stars = false;
    /* A compound of three parts or more that stop words leave one word
     * of is indexed joined too (LAYOUT_META_STOP_COMPOUNDS): the
     * writer's rule and the query's (over shards, only when every one
     * says so) */
    bool stop_compounds = false;
    /* And one of stop words alone, at a position of its own
     * (LAYOUT_META_STOP_RUNS). */
    bool stop_runs = false;
    /* A pair joined by a slash, a stop word in it ("A/B", "and/or"),
     * is one word, its parts joined by an underscore
     * (LAYOUT_META_SLASH_PAIRS). */
    bool slash_pairs = false;
    /* A run of three letters or more written with dots between them,
     * lower-case among them ("i.i.d."), is one word, its letters joined
     * (LAYOUT_META_DOTTED): the writer's rule, the query's and the
     * snippet's (over shards, only when every one says so) */
    bool dotted = false;
    /* Two letters with a dot between them ("U.S.", "e.g.") are one word
     * that keeps its dot, "u.s" (LAYOUT_META_DOTTED_PAIRS): the
     * writer's rule, the query's and the snippet's (over shards, only
     * when every one says so) */
    bool dotted_pairs = false;
    /* Whether its works hold their first author's family keys
     * (LAYOUT_META_FIRST_AUTHOR; over shards, only when every one does) */
    bool first_author = false;
    /* British words are stemmed as their American spellings
     * (LAYOUT_META_SPELLINGS): stem is made so, for the writer and the
     * query alike (over shards, only when every one says so) */
    bool american = false;
    /* Its works hold common grams (LAYOUT_META_COMMON_GRAMS,
     * common/common_grams.cc) of these words, or NULL (over shards, only
     * when every one has the same list) */
    std::string common_grams;
    std::shared_ptr<const std::unordered_set<std::string>> gram_words;
    /* Whether some database searched keeps its positions by the term
     * (-1: not asked yet; any_chunks() in searcher/query_parse.cc). */
    int chunks_any = -1;
    bool nosync = false;     /* SHIM_NOSYNC: a shard of a --jobs build */
    bool upgrade = false;    /* SHIM_UPGRADE: an older layout is let in */
    /* What a reader was opened on, to notice a directory swapped in under
     * the same name (follow_replaced). */
    std::vector<pdxshim::shard_id> shards;
    Xapian::Database db; /* the reader; for a writer, the writer itself */
    /* The databases db is made of, one per shard (the same objects), for
     * what Xapian reads from the first shard only: metadata. */
    std::vector<Xapian::Database> subs;
    std::unique_ptr<pdxshim::RecordReader, pdxshim::RecordReaderFree> records;
    Xapian::WritableDatabase wdb;
    Xapian::Stem stem;   /* Snowball English, from libstemmer */
    /* The index's stop words (LAYOUT_META_STOP_WORDS, common/stopwords.h:
     * a list NULL-terminated, static), as a stopper for Xapian and the
     * writer, and with their stems: what a phrase of the query holds
     * that the index does not (layout 2 indexes no stop word).  Set
     * together by use_stop_words: PDX_STOPWORDS in an index stamped
     * LAYOUT_META_STOP_WORDS (over shards, only when every one is),
     * PDX_STOPWORDS_SNOWBALL otherwise. */
    const char *const *stop_words = nullptr;
    pdxshim::StopList stopper;
    std::set<std::string> stop_stems;
    /* The sides' own objects.  The reader's is dropped whenever db is
     * replaced (follow_replaced, shim_add_shard), so it is made again
     * over the new database. */
    std::unique_ptr<pdxshim::Side> reader, writer;
    bool builder = false; /* SHIM_BUILDER: the writer builds documents on
                             a thread of its own */
    /* A writer's: positions go to Xapian's position table, not to the
     * positions value (LAYOUT_META_POSITIONS; common/positions.cc). */
    bool xapian_positions = false;
    /* ... because the index was made so (LAYOUT_POSITIONS_XAPIAN), not
     * inherited from an older layout */
    bool positions_chosen = false;

    shim_db();
};

namespace pdxshim {

/* Store code and message in e (which may be NULL). */
void set_msg(shim_err *e, int code, const std::string &msg);

/* The one exception handler: call only from inside a catch block.  Maps
 * each Xapian::Error class to its pdx_error code, fills e, returns the
 * code. */
int fail(shim_err *e);

/* In an index written without a copy of its earlier revision
 * (SHIM_NOSYNC), a write that fails makes glass cancel the commit, which
 * it cannot do there: Xapian throws an InvalidOperationError naming
 * DB_DANGEROUS in place of the write's own error, which errno (err, read
 * at once in the catch) still holds.  For such an x, the message that
 * says what failed; "" for any other. */
std::string failed_write(const Xapian::InvalidOperationError &x, int err);

/* A boolean key cut at a character boundary to LAYOUT_MAX_KEY_BYTES. */
std::string cut_key(const char *key);

/* Query or snippet text in the form that is indexed (text_unaccent). */
std::string unaccent(const std::string &s);

/* Which field a text term of layout 2 belongs to, by its prefix, and its
 * stem in `word`: "title" (S), "abstract" (XB), "author" (A), or "text"
 * (no prefix: the default field; also what any other term is called, its
 * whole name in `word`). */
const char *term_field(const std::string &t, std::string &word);

/* A new Snowball English stemmer, for a thread of its own (a stemmer
 * is not thread-safe), remembering its last answers in a direct-mapped
 * cache of `slots` (a power of two; a word's slot is its hash, and a new
 * word overwrites the old).  A query's handle needs few (4,096 slots,
 * 256 KB); a writer stems every word of every work, and with 32,768
 * (2 MB) the arXiv's vocabulary fits well enough to take a few per cent
 * off `--jobs 2`, where stemming is on each worker's path. */
const size_t STEM_CACHE_QUERY = 4096, STEM_CACHE_WRITE = 32768;
/* american: a British word is stemmed as its American spelling
 * (LAYOUT_META_SPELLINGS, common/spellings.c). */
Xapian::Stem english_stem(size_t slots, bool american = false);
/* Make list (NULL-terminated, static) h's stop words: its stop_words,
 * stopper and stop_stems, the stems by h's stemmer; nothing to do when
 * list is h's already (a caller that changes h's stemmer clears
 * stop_words first). */
void use_stop_words(shim_db *h, const char *const *list);

/* ---- the stored record (common/record_store.cc) */

/* A dictionary, ready to compress records with; id is zstd's. */
struct RecordDict {
    unsigned id;
    ::ZSTD_CDict_s *cdict;
    explicit RecordDict(const std::string &bytes);
    ~RecordDict();
    RecordDict(const RecordDict &) = delete;
    RecordDict &operator=(const RecordDict &) = delete;
};

/* Compresses records into zstd frames: one per thread. */
class RecordPacker {
    ::ZSTD_CCtx_s *cctx;

  public:
    RecordPacker();
    ~RecordPacker();
    RecordPacker(const RecordPacker &) = delete;
    RecordPacker &operator=(const RecordPacker &) = delete;
    /* The frame of data[0..len), with dict (or none when NULL). */
    std::string pack(const RecordDict *dict, const char *data, size_t len);
};

/* A writer's dictionary: the index's (open), or one trained on the first
 * records this writer stores (note, called for each record in order, on
 * the writer's thread; it writes a dictionary it trains into wdb's
 * metadata).  note returns the dictionary to pack that record with
 * (NULL until there is one). */
class RecordTrainer {
    std::shared_ptr<const RecordDict> current;
    bool trained = false;
    std::string samples;
    std::vector<size_t> sizes;

  public:
    void open(Xapian::WritableDatabase &wdb);
    std::shared_ptr<const RecordDict> note(Xapian::WritableDatabase &wdb,
                                           const char *data, size_t len);
};

/* The record a document stores (layout 6: its SLOT_RECORD frame; before:
 * its data).  Throws DatabaseCorruptError for a frame it cannot read. */
std::string stored_record(shim_db *h, const Xapian::Document &doc);

/* The paths of the source files whose fingerprints db keeps
 * (LAYOUT_META_SOURCE, common/sources.c), in key order: over several
 * databases, the first one's. */
std::vector<std::string> source_paths(const Xapian::Database &db);

/* ---- words as written (common/forms.cc, LAYOUT_META_FORMS) */

/* FNV-1a (64-bit) of n bytes: what a positions value's and a forms
 * value's hashes are folded from (part of both formats). */
inline uint64_t fnv1a64(const char *p, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= static_cast<unsigned char>(p[i]);
        h *= 1099511628211ULL;
    }
    return h;
}

/* Varints, 7 bits a byte, low bits first, the high bit set on every
 * byte but the last: the positions and forms values' integers. */
inline void put_varint(std::string &out, uint32_t v)
{
    while (v >= 0x80) {
        out += static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}

/* A varint at p (below end), or false for a truncated or overlong one. */
inline bool get_varint(const unsigned char *&p, const unsigned char *end,
                       uint32_t &v)
{
    v = 0;
    for (unsigned shift = 0; p < end && shift < 35; shift += 7) {
        const unsigned char b = *p++;
        v |= static_cast<uint32_t>(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

/* The 32-bit hash a forms value names a word by. */
uint32_t form_hash32(const char *word, size_t n);
inline uint32_t form_hash32(const std::string &word)
{
    return form_hash32(word.data(), word.size());
}
/* The mark of a stem written in a form the spelling table does not
 * list (forms.cc). */
inline uint32_t form_unlisted_hash32(const std::string &stem)
{
    return form_hash32("\1" + stem);
}

/* A work's forms value from the hashes of its words as written,
 * ascending and distinct (TextTerms::word_forms): never empty, so that
 * every work of the index has one. */
std::string forms_value(const std::vector<uint32_t> &hashes);

/* One group of a work's SLOT_FORMS_AT value (forms.cc): the forms of
 * one stem in the field of `prefix` ('\0' for the default field, else
 * the prefix's one letter), each with the positions where the field
 * writes it, or with none for every position of the stem there. */
struct FormAt {
    char prefix;
    uint32_t stem; /* form_hash32 of the stem */
    std::vector<std::pair<uint32_t, std::vector<Xapian::termpos>>> forms;
};

/* The SLOT_FORMS_AT value of groups (empty: none). */
std::string forms_at_value(const std::vector<FormAt> &groups);

/* Where, by a SLOT_FORMS_AT value, the field of `prefix` writes the form
 * `form` of the stem `stem`. */
enum class FormWhere {
    ANYWHERE,  /* no group: wherever the stem stands (the work's forms say
                * whether the work writes it) */
    NOWHERE,   /* the field does not write it */
    EVERYWHERE,/* at every position of the stem in the field */
    AT         /* at the positions given */
};
FormWhere forms_at_find(const std::string &value, char prefix, uint32_t stem,
                        uint32_t form, std::vector<Xapian::termpos> &out);

/* What a work's value must say for one quoted word (forms.cc). */
struct FormRule {
    std::vector<uint32_t> any;    /* holds one of these, or */
    bool self = false;            /* the stem as itself: */
    uint32_t self_hash = 0;       /*   holds it, or */
    uint32_t unlisted_hash = 0;   /*   none of this */
    std::vector<uint32_t> others; /*   and none of these */
    /* The stems whose positions may be written so (layout 9's chunks
     * keep each position's form: any of `any`, or with self the stem
     * itself). */
    std::vector<std::string> stems;
    bool holds(const std::string &value) const;
    /* The rule for `form` of `stem`; others: the index's other words of
     * that stem (read only when form is stem). */
    static FormRule written(const std::string &form, const std::string &stem,
                            const std::vector<std::string> &others);
};

/* The works whose forms value passes every rule: a posting source that
 * weighs nothing, for OP_FILTER.  Local databases only. */
class FormSource : public Xapian::ValuePostingSource {
    std::vector<FormRule> rules;
    bool fits() const;

  public:
    explicit FormSource(std::vector<FormRule> rules);
    void init(const Xapian::Database &sub) override;
    void next(double min_wt) override;
    void skip_to(Xapian::docid did, double min_wt) override;
    bool check(Xapian::docid did, double min_wt) override;
    Xapian::PostingSource *clone() const override;
    std::string get_description() const override;
};

/* ---- positions kept by the term (common/chunks.cc, layout 9) */

/* The most works a chunk holds, and the namespace of an index written by
 * one writer. */
const unsigned CHUNK_WORKS = 128;
const unsigned char CHUNK_NS_ONE = 0xff;

/* The metadata key of a term's chunks (all of them begin with the
 * prefix), and of one of them. */
std::string chunk_prefix(const std::string &term);
std::string chunk_key(const std::string &term, unsigned char ns,
                      Xapian::docid last);

/* One positional term of one work, as the writer hands it over: its
 * positions less the field's base (ascending), and the form each was
 * written in (form_hash32; 0 for the stem itself; empty: all the stem
 * itself), or unsure when they are not known. */
struct ChunkTerm {
    std::string term;
    std::vector<Xapian::termpos> at;
    std::vector<uint32_t> form;
    bool unsure = false;
};

/* A work's first n ChunkTerms, the rest kept for their memory: the
 * writer hands a work's back to be filled with another's. */
struct ChunkTerms {
    std::vector<ChunkTerm> v;
    size_t n = 0;
    /* the stems the work's compounds were joined into (TextTerms::
     * compounds), for the writer's LAYOUT_JOINED_KEY marks */
    std::vector<std::string> joined;
};

/* Common grams (common/common_grams.cc): two listed words next to each
 * other as one boolean term.  The list every new index gets, its words
 * separated by spaces (LAYOUT_META_COMMON_GRAMS). */
const std::string &common_grams_builtin();
/* The words of a stamp (NULL for "": an index without common grams). */
std::shared_ptr<const std::unordered_set<std::string>>
common_grams_parse(const std::string &stamp);
/* A position's form tag: "-" for the stem itself (form 0), "?" for a
 * field whose forms are unknown, else the form_hash32 in hex. */
std::string common_gram_tag(uint32_t form, bool unsure);
/* The common-gram terms of stems a then b begin so (their tags follow). */
std::string common_gram_stems(const std::string &a, const std::string &b);
/* The work's common grams, from its positional terms as the chunks keep
 * them (gather_chunk_terms): appended to ct, each a term of one entry. */
void add_common_grams(ChunkTerms &ct, const std::unordered_set<std::string> &words);

/* The writer's side of the chunks (common/chunks.cc): each term's open
 * chunk in memory; commit() writes what the works added since the last
 * one need into db's metadata (before db's own commit).  Works must be
 * added in increasing docid order.  One writer's thread. */
class ChunkBuilder {
    struct Open {
        /* What add() touches first, in the struct's first cache line. */
        uint64_t hash = 0; /* fnv1a64 of term */
        Xapian::docid last = 0;
        unsigned works = 0;
        bool dirty = false;  /* added to since written whole */
        std::string entries;
        std::string term;
        std::vector<uint32_t> forms;
        std::string written; /* the key it was last written under */
        /* The entries from byte `from` on are in no delta yet; the one
         * before them is work from_last (0: none, the first entry's
         * docid is whole). */
        size_t from = 0;
        Xapian::docid from_last = 0;
        uint32_t index_of(uint32_t form);
        std::string value() const;
    };
    /* The open chunks, by term: open addressing over their hashes, each
     * slot the hash's high 32 bits over the index into open + 1 (0:
     * empty), at most half full.  The high bits let a probe pass over
     * other terms' slots without reading their chunks. */
    std::vector<Open> open;
    std::vector<uint64_t> slots;
    std::vector<uint64_t> hashes; /* add()'s: each term's hash */
    std::vector<uint32_t> found;  /* and its index in open */
    void grow(size_t more);
    uint32_t probe(const std::string &term, uint64_t h);
    uint32_t tag(uint64_t h) const { return static_cast<uint32_t>(h >> 32) & tag_mask; }
    Open &find(const std::string &term, uint64_t h);
    std::vector<std::pair<std::string, std::string>> sealed;
    std::vector<std::string> gone; /* keys to delete: chunks rewritten */
    std::vector<std::string> deltas; /* the deltas this writer wrote */
    uint32_t next_delta = 0;
    bool started = false, recovered = false;
    size_t held = 0;
    void seal(Open &o);
    void write_delta(Xapian::WritableDatabase &db);

  public:
    /* Before the first add: what a writer that did not end left in
     * deltas joins this one's chunks (the first commit is then whole).
     * Called by commit() if not before. */
    void start(Xapian::WritableDatabase &db);
    unsigned char ns = CHUNK_NS_ONE;
    size_t budget = 256u << 20; /* bytes of open chunks kept in memory */
    /* Whether a commit that is not whole writes a delta.  Off for a
     * writer nobody reads until its last commit (a shard of a --jobs
     * build): its commits then write the full chunks alone, and the last
     * one the rest. */
    bool write_deltas = true;
    /* The hash bits a slot keeps beside its index (fewer in tests, so
     * that probes meet other terms' slots). */
    uint32_t tag_mask = 0xffffffffu;
    void add(Xapian::docid did, const ChunkTerm *terms, size_t n);
    void add(Xapian::docid did, const std::vector<ChunkTerm> &terms)
    {
        add(did, terms.data(), terms.size());
    }
    size_t bytes() const { return held; }
    bool empty() const { return open.empty() && sealed.empty(); }
    /* At a commit: the full chunks, and the rest as one delta (whole, at
     * the last commit or past the memory budget: every open chunk
     * written and the deltas dropped). */
    void commit(Xapian::WritableDatabase &db, bool whole);
};

/* The metadata key of namespace ns's delta seq (common/chunks.cc), and
 * the prefix of them all. */
std::string delta_key(unsigned char ns, uint32_t seq);
const char DELTA_PREFIX = '\2';

/* One term's works and positions, read from its chunks in docid order.
 * Not thread-safe. */
/* Where each chunk namespace's works are (LAYOUT_META_CHUNK_OFF), read
 * once a database and shared by its cursors: each namespace's docid
 * offset (the compactor may move docids down) and the range of its own
 * docids that are its works' (hi 0: all): a shard's chunks keep the
 * entries of works it deleted, which outside that range would fall on
 * other shards' works. */
struct ChunkSpace {
    long long off[256] = {};
    Xapian::docid lo[256] = {}, hi[256] = {};
    /* The deltas of commits not yet folded into chunks, in order (their
     * namespace, their bytes). */
    std::vector<std::pair<unsigned char, std::string>> deltas;
    /* The namespaces given a range, by the last docid of their works
     * (increasing with the namespace: namespaces are in docid order). */
    std::vector<std::pair<Xapian::docid, unsigned char>> ends;
    explicit ChunkSpace(const Xapian::Database &db);
    /* The namespace whose chunks hold docid d's entry, if any: the first
     * given a range that ends at d or later, else CHUNK_NS_ONE, whose
     * works come after every other's. */
    unsigned char ns_of(Xapian::docid d) const;
    /* term's section in delta i: its base docid, forms and entries, or
     * false. */
    bool section(size_t i, const std::string &term, Xapian::docid &base,
                 const unsigned char *&p, const unsigned char *&end) const;
};

class ChunkCursor {
    Xapian::Database db;
    std::string term, prefix;
    std::shared_ptr<const ChunkSpace> space;
    unsigned char chunk_ns = 0;
    Xapian::TermIterator key, key_end;
    /* Chunks read ahead, in key order, before *key: read while Xapian's
     * B-tree is at their block (a cursor that reads chunk after chunk
     * reads the next ones with it, up to 8, doubling). */
    std::deque<std::pair<std::string, std::string>> ahead;
    unsigned readahead = 0; /* how many the next load reads beside */
    bool jumped = false;    /* skip_to moved key since the last load */
    std::string chunk;
    const unsigned char *p = nullptr, *end = nullptr;
    Xapian::docid chunk_last = 0;
    unsigned in_chunk = 0;
    std::vector<uint32_t> forms;
    mutable std::vector<uint32_t> form;
    unsigned kind = 0;
    uint32_t only = 0;
    Xapian::docid local = 0; /* the entry's docid in its namespace */
    uint32_t count = 0;      /* its positions */
    const unsigned char *body = nullptr; /* where they are */
    size_t next_delta = 0;   /* past the chunks: the next delta to read */
    bool in_delta = false;
    /* The last docid, in the writer's namespace, the chunks gave: a
     * delta's entries up to it are in a chunk too. */
    Xapian::docid chunked_to = 0;
    unsigned char chunked_ns = 0;
    unsigned long nread = 0;
    /* With keep(): the chunks read (key, bytes), for rewind_to(). */
    bool keeping = false;
    std::vector<std::pair<std::string, std::string>> kept;
    std::string after; /* rewind_to() left key further on than this */
    bool load();
    void enter(const std::string &k);
    void reseek();
    bool load_delta();
    void read_forms(const unsigned char *&q, const unsigned char *e);
    bool step();
    bool advance();
    /* The entry's positions (and forms), decoded only when asked for. */
    mutable std::vector<Xapian::termpos> at;
    mutable bool decoded = false;
    void decode() const;

  public:
    Xapian::docid did = 0;          /* the work (0: before the first, or
                                     * past the last) */
    /* Its positions, less its base (decoded at the first call for the
     * work: a cursor moved to a work that lacks another term of the
     * query decodes nothing). */
    const std::vector<Xapian::termpos> &positions() const
    {
        if (!decoded)
            decode();
        return at;
    }
    /* How many positions the work has (positions().size(), undecoded). */
    size_t count_positions() const { return count; }
    ChunkCursor(const Xapian::Database &db, const std::string &term,
                std::shared_ptr<const ChunkSpace> space);
    /* To the next work, or false past the last. */
    bool next();
    /* To the first work from d on (stays when there already), or false. */
    bool skip_to(Xapian::docid d);
    /* Keep each chunk read from now on, for rewind_to() (memory: the
     * chunks' bytes, until the cursor goes). */
    void keep() { keeping = true; }
    /* To the first work from d on, d before the work it is at or not:
     * skip_to(d) from the term's start, but reading nothing where a
     * chunk kept spans d. */
    bool rewind_to(Xapian::docid d);
    /* The form at[i] was written in: form_hash32, 0 for the stem itself,
     * or 0 for every one when forms_unknown(). */
    uint32_t form_at(size_t i) const;
    bool forms_unknown() const { return kind == 3; }
    /* Whether every position is in one form (form_at(0), known without
     * decoding them). */
    bool one_form() const { return kind < 2; }
    /* Whether the work stands in a delta, not yet in a chunk. */
    bool from_delta() const { return in_delta; }
    /* The chunks it has read from the database so far: what its moves
     * cost (read ahead included). */
    unsigned long chunks_read() const { return nread; }
    /* From now on, its chunks read through d: another handle on the same
     * index at the same revision (the caller makes sure), whose B-tree
     * cursor no other cursor moves. */
    void read_through(const Xapian::Database &d) { db = d; }
};

/* FormSource's works in an index of layout 9: those writing a position
 * of one of each rule's stems, in any field, in the rule's form.  It may
 * give deleted works (their chunks stay until compaction): used under
 * OP_FILTER of a query on the stems, which holds only works that are. */
class ChunkFormSource : public Xapian::PostingSource {
    std::vector<FormRule> rules;
    Xapian::Database db;
    /* A database of the values' layouts (one of several searched): its
     * FormSource. */
    std::unique_ptr<Xapian::PostingSource> values;
    std::vector<std::vector<std::unique_ptr<ChunkCursor>>> cursors;
    std::shared_ptr<const ChunkSpace> space;
    Xapian::docid did = 0, from = 1;
    bool ended = false;
    bool rule_at(size_t r, Xapian::docid d);
    void find(Xapian::docid d);

  public:
    explicit ChunkFormSource(std::vector<FormRule> rules);
    void init(const Xapian::Database &db) override;
    Xapian::doccount get_termfreq_min() const override { return 0; }
    Xapian::doccount get_termfreq_est() const override;
    Xapian::doccount get_termfreq_max() const override;
    Xapian::docid get_docid() const override
    {
        return values ? values->get_docid() : did;
    }
    void next(double min_wt) override;
    void skip_to(Xapian::docid d, double min_wt) override;
    bool check(Xapian::docid d, double min_wt) override;
    bool at_end() const override { return values ? values->at_end() : ended; }
    Xapian::PostingSource *clone() const override;
    std::string get_description() const override;
};

/* The works holding one of some common grams (common/common_grams.cc):
 * a posting source that weighs nothing, over the grams' chunks side by
 * side; terms, or with prefix every gram that begins so.  A deleted
 * work's entries stay until the index is compacted: use it only beside
 * the gram's stems (OP_FILTER). */
class GramSource : public Xapian::PostingSource {
    std::vector<std::string> terms;
    std::string prefix;
    Xapian::Database db;
    std::vector<std::unique_ptr<ChunkCursor>> cursors;
    std::shared_ptr<const ChunkSpace> space;
    unsigned long keys = 0; /* the chunks they hold */
    Xapian::docid did = 0;
    bool ended = true;
    void moved(Xapian::docid d);

  public:
    GramSource(std::vector<std::string> terms, std::string prefix);
    void init(const Xapian::Database &db) override;
    Xapian::doccount get_termfreq_min() const override { return 0; }
    Xapian::doccount get_termfreq_est() const override;
    Xapian::doccount get_termfreq_max() const override;
    Xapian::docid get_docid() const override { return did; }
    void next(double min_wt) override;
    void skip_to(Xapian::docid d, double min_wt) override;
    bool check(Xapian::docid d, double min_wt) override;
    bool at_end() const override { return ended; }
    Xapian::PostingSource *clone() const override;
    std::string get_description() const override;
};

/* ---- word positions (common/positions.cc, layouts 7 and 8) */

/* The 16-bit hash of a term that a positions value names it by (layout
 * 7: all 16 bits; layout 8: the top 14). */
uint16_t term_hash16(const std::string &term);

/* Encodes one work's positions value: add each positional term with its
 * positions, also_holds each other term the work holds (so that a hash
 * they share is resolved by name), then take() gives the value and
 * starts again. */
class PositionsWriter {
    struct Entry {
        uint16_t hash;        /* term_hash16 */
        std::string term;
        Xapian::termpos first; /* the first position */
        std::string deltas;    /* the others, as varint deltas */
        uint32_t count;
    };
    std::vector<Entry> entries;
    std::vector<uint16_t> others;
    std::vector<uint32_t> order; /* take()'s: entries in value order */
    std::vector<uint64_t> keys;  /* take()'s: hash << 32 | index */
    bool ascending = true;       /* entries added in their terms' order */

  public:
    void add(const std::string &term, const std::vector<Xapian::termpos> &at);
    void also_holds(const std::string &term);
    std::string take();
};

/* The positions of each of terms in the positions value of work did,
 * which holds every one of them (empty for a term without positions).
 * Throws DatabaseCorruptError for a value it cannot read. */
void positions_find(const std::string &value, Xapian::docid did,
                    const std::vector<std::string> &terms,
                    std::vector<std::vector<Xapian::termpos>> &out);

/* Whether positions (each term's, ascending) hold the terms in order
 * within window positions (ordered: PHRASE and ADJ; a phrase's window is
 * its length), or in any order within it (NEAR): the span from the
 * first to the last is below window, as Xapian 1.4's phrase and near
 * posting lists count it. */
bool positions_match(const std::vector<std::vector<Xapian::termpos>> &pos,
                     Xapian::termcount window, bool ordered);

/* A phrase (or NEAR) of stems in one of fields (term prefixes: "" for
 * the default field's stems, "S", "A"), checked in one work: whether
 * the work's positions hold it in a field whose terms it holds.  The
 * work must hold the first field's terms; held(f) says whether it holds
 * field f's.  value is the work's positions value, or NULL for a work
 * without one (then its terms' position lists in db are read).  Not
 * thread-safe (scratch vectors). */
struct PhraseCheck {
    std::vector<std::string> stems, fields;
    Xapian::termcount window;
    bool ordered;
    std::vector<std::string> terms; /* field by field, stem by stem */
    std::vector<uint16_t> hashes;   /* theirs, term_hash16 */
    std::vector<std::string> asked;
    std::vector<size_t> asked_field; /* each asked term's field */
    std::vector<std::vector<Xapian::termpos>> pos, one;
    /* A quoted phrase's words as written (forms.cc, "Forms at their
     * positions"): each word's form_hash32 and its stem's; empty for a
     * phrase not held to its forms.  `forms_at`, for the next call,
     * gives the work's SLOT_FORMS_AT value (NULL or empty: none), which
     * holds each word to the positions of its form: asked only once the
     * stems stand together. */
    std::vector<uint32_t> form, form_stem; /* form_hash32s */
    const std::function<const std::string *()> *forms_at = nullptr;
    std::vector<Xapian::termpos> found;
    /* This call's SLOT_FORMS_AT value, fetched once (forms_at). */
    const std::string *fa = nullptr;
    bool fa_asked = false;
    /* Whether `one` (the positions of each word in fields[f]) holds the
     * phrase, each word at its form's positions where the work's
     * SLOT_FORMS_AT value says where. */
    bool field_holds(size_t f);
    /* Layout 9 (common/chunks.cc): the positions are read from each
     * term's chunks in db, a cursor a term moved forward from one work to
     * the next; the words as written from the form of each position.  A
     * copy starts without cursors. */
    bool chunked = false;
    struct Cursors {
        std::vector<std::unique_ptr<ChunkCursor>> c;
        std::vector<Xapian::docid> asked;
        std::shared_ptr<const ChunkSpace> space;
        Cursors() = default;
        Cursors(const Cursors &) {}
        Cursors &operator=(const Cursors &)
        {
            c.clear();
            asked.clear();
            space.reset();
            return *this;
        }
    } cursors;
    /* The cursor of terms[t] moved to work d of db, or NULL when the
     * work lacks the term (a cursor asked about an earlier work than
     * before starts again). */
    ChunkCursor *chunk_at(Xapian::docid d, const Xapian::Database &db,
                          size_t t);
    /* The positions of the entry c stands on, of the phrase's word w,
     * held to its form (when the phrase is held to its forms). */
    void held_positions(const ChunkCursor &c, size_t w,
                        std::vector<Xapian::termpos> &out) const;

    PhraseCheck(std::vector<std::string> stems,
                std::vector<std::string> fields, Xapian::termcount window,
                bool ordered);
    /* For a work without the value, the position lists of d in db
     * (the database whose docid d is) are read, or with doc (not NULL),
     * the work's own: through its term list, from whichever database
     * it is in. */
    bool operator()(Xapian::docid d, const std::string *value,
                    const std::function<bool(size_t)> &held,
                    const Xapian::Database &db,
                    const Xapian::Document *doc = nullptr);
};

/* The works holding a phrase: a posting source that weighs nothing.  It
 * walks the AND of the first field's terms and checks each work found
 * there (PhraseCheck).  Local databases only (the remote backend cannot
 * rebuild it): see the essay in common/positions.cc. */
class PhraseSource : public Xapian::PostingSource {
    PhraseCheck phrase;
    Xapian::Database db;
    std::vector<Xapian::PostingIterator> lists;  /* rarest first */
    std::vector<Xapian::PostingIterator> probes; /* the other fields' terms */
    Xapian::ValueIterator values;
    Xapian::ValueIterator at_values; /* SLOT_FORMS_AT, when held to forms */
    Xapian::doccount tf = 0;
    Xapian::docid did = 0, from = 1;
    bool ended = false;
    /* Layout 9 (common/chunks.cc): the phrase's terms' chunks walked
     * side by side, field by field (cur[f * n + i], the order of
     * phrase.terms), instead of the AND of the first field's postings;
     * at[f] is the work field f's cursors stand together on (0: none
     * left). */
    bool chunked = false;
    Xapian::doccount share;
    std::shared_ptr<const ChunkSpace> space;
    std::vector<std::unique_ptr<ChunkCursor>> cur;
    std::vector<Xapian::docid> field_at;

    bool holds(Xapian::docid d);
    bool align(Xapian::docid d);
    bool align_chunks(Xapian::docid d);
    bool holds_chunks(Xapian::docid d);
    void find(Xapian::docid d);

  public:
    /* est_share: its estimate of matches is tf / est_share, tf the
     * works holding the rarest of its first field's terms.  Xapian's AND
     * walks its rarest estimate and skips the others to it: 2 keeps the
     * phrase behind its own words' postings; a larger share makes it
     * lead them, walking its terms' chunks side by side, which costs
     * less a work than the matcher's AND of their postings
     * (count_by_phrases in searcher/shim_read.cc). */
    explicit PhraseSource(const PhraseCheck &phrase,
                          Xapian::doccount est_share = 2);
    Xapian::doccount get_termfreq_min() const override { return 0; }
    Xapian::doccount get_termfreq_est() const override { return tf / share; }
    Xapian::doccount get_termfreq_max() const override { return tf; }
    Xapian::docid get_docid() const override { return did; }
    void next(double min_wt) override;
    void skip_to(Xapian::docid did, double min_wt) override;
    bool check(Xapian::docid did, double min_wt) override;
    bool at_end() const override;
    Xapian::PostingSource *clone() const override;
    void init(const Xapian::Database &db) override;
    std::string get_description() const override;
};

/* The phrases a query requires (its every match must hold each), checked
 * by the matcher only for the works that would enter the page: Xapian
 * 1.4 asks a MatchDecider after a work's weight passed the page's
 * threshold, and counts (estimates, or with every match checked, facets
 * and exact totals) what it accepts.  The query then holds each phrase's
 * scored AND without its PhraseSource (searcher/shim_read.cc,
 * fit_layout).  Local databases only (Xapian refuses a decider with a
 * remote one).  Over one database, a work's terms are looked up in db by
 * its docid.  Over several, Xapian hands the decider each
 * database's own docid and no way to tell which database the document
 * is in, so everything is read from the document itself: its positions
 * value, its term list for the terms it holds, and the term list's
 * position lists for a work without the value. */
class PhraseFilter : public Xapian::MatchDecider {
    Xapian::Database db;
    bool several; /* db.size() > 1 */
    /* Over one database: for each check, a posting list of each of its
     * terms (field by field, as PhraseCheck::terms), kept open and moved
     * forward from one work to the next (the matcher asks in docid
     * order; a docid behind one asked before opens the list again).
     * Opening a posting list at every work would read its B-tree path
     * from the root and its chunks from the first each time, about a
     * tenth of a phrase's time. */
    struct Probe {
        Xapian::PostingIterator it;
        Xapian::docid asked = 0; /* 0: not open */
    };
    mutable std::vector<std::vector<Probe>> probes; /* checks[k]'s: [k] */
    bool holds(Probe &p, const std::string &term, Xapian::docid d) const;

  public:
    mutable std::vector<PhraseCheck> checks;
    /* The words as written its phrases' works must write (forms.cc),
     * checked after the positions. */
    std::vector<FormRule> forms;
    explicit PhraseFilter(const Xapian::Database &db_)
        : db(db_), several(db_.size() > 1)
    {
    }
    bool operator()(const Xapian::Document &doc) const override;
};

/* Works: documents but tombstones (common/layout.h).  Two counts Xapian
 * keeps, no walk.  Inside a try block (it may throw). */
uint64_t works_of(shim_db *h);

/* Settle a writer's documents in flight (Side::settle); nothing on a
 * reader.  Call inside the entry point's try block. */
inline void settle(shim_db *h)
{
    if (h->writer)
        h->writer->settle();
}

/* Settle only if a document in flight may hold one of the n terms (a
 * lookup by key needs no other document to be written first). */
inline void settle_for(shim_db *h, const char *const *terms, size_t n)
{
    if (!h->writer || !h->writer->busy())
        return;
    for (size_t i = 0; i < n; i++)
        if (terms[i] && *terms[i] && h->writer->in_flight(terms[i])) {
            h->writer->settle();
            return;
        }
}

/* Whether a path a reader was opened on now names another directory (a
 * rebuild swapped in); false for a writer and for a path missing for the
 * moment. */
bool replaced(const shim_db *h);
/* A reader opened again on the paths it was opened on, by name. */
void reopen_by_name(shim_db *h);
/* Before each read: reopen_by_name(h) if replaced(h). */
void follow_replaced(shim_db *h);
/* A reader on the local index p, and in id what p named while it was
 * opened (a rebuild swapped in meanwhile is opened again). */
Xapian::Database open_local_reader(const std::string &p, shard_id &id);

/* Run `read` on h's reader; when a writer's commits overtake it
 * (DatabaseModifiedError), move to the newest revision and run it again,
 * as Xapian documents.  Every read entry point goes through here, so a
 * reader sees the newest commit and survives a cron commit whatever it
 * was doing.  `read` must start
 * from scratch each time and must not call back into the caller (a retry
 * would repeat the callbacks): it collects, and the caller hands over
 * afterwards.  reopen() itself may meet a commit in flight, so it is
 * retried too.  A rebuild swapped in while reopen() or `read` ran may
 * have given the reader tables of both indexes (glass opens each file by
 * name): a path found replaced afterwards means opening the new index by
 * name and reading again.  So does a first DatabaseError of a reader (a
 * mixed open reads past a table's end, "EOF reading block"), in case two
 * swaps brought its directory back before it looked: a damaged index
 * fails again, and that error is the caller's.
 * MODIFIED_RETRIES bounds the loop: a reader slower than
 * every pair of commits would otherwise spin for ever; it then gets the
 * error.  A writer's own handle never sees the error. */
template <typename F> void with_reopen(shim_db *h, F read)
{
    /* Reads again by name after a DatabaseError, while the directory is
     * found replaced; and a few times more when it is not: a directory
     * swapped there and back between two reads (rebuilds one after
     * another, as tests/unit/test_swap.c makes them) names the same
     * directory again.  A damaged index fails after these few. */
    const int BY_NAME_RETRIES = 3;
    int by_name = 0;
    follow_replaced(h);
    for (int attempt = 0;; attempt++) {
        try {
            /* A reader moves to the newest commit before every read (one
             * read of the version file when nothing changed): without it
             * a reader would keep its first revision until a commit
             * happened to overtake a block it reads. */
            if (attempt || !h->writable)
                h->db.reopen();
            read();
            if (attempt < MODIFIED_RETRIES && replaced(h)) {
                reopen_by_name(h);
                continue;
            }
            return;
        } catch (const Xapian::DatabaseModifiedError &) {
            if (attempt >= MODIFIED_RETRIES)
                throw;
        } catch (const Xapian::DatabaseError &) {
            if (h->writable || attempt >= MODIFIED_RETRIES ||
                (by_name >= BY_NAME_RETRIES && !replaced(h)))
                throw;
            reopen_by_name(h);
            by_name++;
        }
    }
}

} // namespace pdxshim

#endif
