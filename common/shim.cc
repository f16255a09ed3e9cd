/*
 * shim.cc -- the common ground of the C++ shim: the one exception fence
 * every extern "C" function of the three shim files goes through, the
 * handle (opening one index, several shards or a tcp:// server; the
 * layout check; the writer's lock report; following a directory swapped
 * in under a reader), metadata reads and lookups by key.
 *
 * Every extern "C" function is `try { ... } catch (...) { return
 * fail(e); }`: fail() re-throws and maps each Xapian exception class to
 * its own pdx_error code, so a caller can tell a locked index from a
 * missing, damaged or foreign one, and a query syntax error from a bad
 * argument.  No exception crosses the fence.  The index layout itself is
 * described in layout.h.
 */
#include <xapian.h>

#include <cjson/cJSON.h>
#include <libstemmer.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <exception>
#include <ftw.h>
#include <new>
#include <string>
#include <vector>

#include "shim_db.hh"
#include "spellings.h"
#include "stopwords.h"
extern "C" {
#include "text.h"
}

using namespace pdxshim;

namespace {

const char *const LAYOUT_KEY = LAYOUT_META_LAYOUT;
#define PDX_STR2(x) #x
#define PDX_STR(x) PDX_STR2(x)
const char *const LAYOUT_VERSION = PDX_STR(PDX_LAYOUT_VERSION);
const char *const HOLDER_FILE = LAYOUT_HOLDER_FILE;

/* How a handle opened with SHIM_NOSYNC (PDX_OPEN_NOSYNC) writes: an
 * index that nobody opens until it is whole and synced (a rebuild beside
 * the index, a --jobs shard, the merged shards before the swap).  Its
 * commits do not fsync (DB_NO_SYNC), and they overwrite changed B-tree
 * blocks in place (DB_DANGEROUS) instead of copying each one, with the
 * path to its root, to a free block and keeping the old revision
 * readable.  Nothing needs that revision: a run that fails leaves the
 * half-built index to be removed, never resumed.  A block that several
 * commits change then stays at one place in the page cache, and the
 * kernel writes it out once for all of them: a --jobs 2 build sends 0.82
 * of the bytes to the disk and spends about a fifth less system time.
 * What it costs: glass
 * cannot undo a change written in place, so any Xapian error on such a
 * handle (a full disk; none other is known for paperdex's terms) leaves
 * it unusable, which the run reports as its failure. */
const int NOSYNC_FLAGS = Xapian::DB_NO_SYNC | Xapian::DB_DANGEROUS;

/* libstemmer's Snowball English (porter2), as Xapian wants a stemmer.
 * sb_stemmer is not thread-safe; neither is a shim_db, one per thread.
 *
 * Indexing stems the same words again and again, so the latest answers
 * are kept in a direct-mapped table sized by its user (english_stem()):
 * one slot per hash of the word, a new word simply overwrites its slot.
 * (A hash map of 100,000 answers was slower than stemming itself.)
 *
 * With american set (an index stamped LAYOUT_META_SPELLINGS), a British
 * word is stemmed as its American spelling (common/spellings.c):
 * optimisation as optimization, colour as color. */
class SnowballEnglish : public Xapian::StemImplementation {
    struct slot {
        std::string word, stem;
    };
    struct sb_stemmer *st;
    std::vector<slot> cache; /* a power of two slots */
    bool american;

  public:
    SnowballEnglish(size_t slots, bool american_)
        : st(sb_stemmer_new("english", "UTF_8")), cache(slots), american(american_)
    {
        if (!st)
            throw std::bad_alloc();
    }
    ~SnowballEnglish() override { sb_stemmer_delete(st); }
    SnowballEnglish(const SnowballEnglish &) = delete;
    SnowballEnglish &operator=(const SnowballEnglish &) = delete;

    std::string operator()(const std::string &word) override
    {
        uint32_t h = 2166136261u; /* FNV-1a */
        for (unsigned char c : word)
            h = (h ^ c) * 16777619u;
        slot &s = cache[h & (cache.size() - 1)];
        if (s.word == word)
            return s.stem;
        char us[SPELLING_MAX];
        const size_t us_len = american ? spelling_american(word.data(), word.size(), us) : 0;
        const sb_symbol *r = sb_stemmer_stem(
            st, reinterpret_cast<const sb_symbol *>(us_len ? us : word.data()),
            static_cast<int>(us_len ? us_len : word.size()));
        if (!r)
            throw std::bad_alloc();
        s.word = word;
        s.stem.assign(reinterpret_cast<const char *>(r),
                      static_cast<size_t>(sb_stemmer_length(st)));
        return s.stem;
    }
    std::string get_description() const override
    {
        return american ? "libstemmer english (porter2), American spellings"
                        : "libstemmer english (porter2)";
    }
};

std::string describe(const Xapian::Error &x)
{
    std::string m = x.get_msg();
    const char *es = x.get_error_string();
    if (es && *es)
        m += std::string(" (") + es + ")";
    return m;
}

bool is_dir(const std::string &p)
{
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool exists(const std::string &p)
{
    struct stat st;
    return stat(p.c_str(), &st) == 0;
}

/* Does directory p hold nothing but what a writer creating an index
 * there makes first: Xapian's lock file and glass's tables and version
 * file (written before "iamglass" is whole), and the holder note?  Then
 * another writer is creating it (or one died doing so): open it, and
 * its lock says which. */
bool dir_holds_no_other_files(const std::string &p)
{
    DIR *d = opendir(p.c_str());
    if (!d)
        return false;
    bool empty = true;
    const std::string holder = HOLDER_FILE;
    while (struct dirent *de = readdir(d)) {
        const std::string n = de->d_name;
        auto ends = [&n](const char *tail) {
            size_t k = strlen(tail);
            return n.size() >= k && n.compare(n.size() - k, k, tail) == 0;
        };
        if (n == "." || n == ".." || n == "flintlock" || n == "v.tmp" ||
            n == holder || n == holder + ".tmp" || ends(".glass") ||
            ends(".tmp") || n == "iamglass")
            continue;
        empty = false;
        break;
    }
    closedir(d);
    return empty;
}

bool looks_like_xapian(const std::string &p)
{
    return exists(p + "/iamglass") || exists(p + "/iamchert");
}
} // namespace

void pdxshim::set_msg(shim_err *e, int code, const std::string &msg)
{
    if (!e)
        return;
    e->code = code;
    snprintf(e->msg, sizeof e->msg, "%s", msg.c_str());
}

std::string pdxshim::failed_write(const Xapian::InvalidOperationError &x,
                                  int err)
{
    if (x.get_msg().find("DB_DANGEROUS") == std::string::npos)
        return std::string();
    return std::string("a write failed (") + strerror(err) +
           "), and Xapian could not cancel the commit (" + describe(x) + ")";
}

/* The one exception handler: call only from inside a catch block. */
int pdxshim::fail(shim_err *e)
{
    const int err = errno; /* a failed write's, before anything resets it */
    int code = PDX_ERROR;
    std::string msg;
    try {
        throw;
    } catch (const Xapian::InvalidOperationError &x) {
        msg = failed_write(x, err);
        code = msg.empty() ? PDX_ERROR : PDX_EIO;
        msg = msg.empty() ? std::string(x.get_type()) + ": " + describe(x)
                          : "index I/O error: " + msg;
    } catch (const Xapian::DatabaseLockError &x) {
        code = PDX_ELOCKED;
        msg = "index is locked by another writer: " + describe(x);
    } catch (const Xapian::DatabaseNotFoundError &x) {
        code = PDX_ENOTFOUND;
        msg = "no index there: " + describe(x);
    } catch (const Xapian::DatabaseVersionError &x) {
        code = PDX_EVERSION;
        msg = "unsupported index format: " + describe(x);
    } catch (const Xapian::DatabaseCorruptError &x) {
        code = PDX_ECORRUPT;
        msg = "index is corrupt: " + describe(x);
    } catch (const Xapian::DatabaseOpeningError &x) {
        code = PDX_ENOTINDEX;
        msg = "not a paperdex index: " + describe(x);
    } catch (const Xapian::QueryParserError &x) {
        code = PDX_EQUERY;
        msg = "query syntax: " + describe(x);
    } catch (const Xapian::InvalidArgumentError &x) {
        code = PDX_EINVAL;
        msg = "invalid argument: " + describe(x);
    } catch (const Xapian::DatabaseModifiedError &x) {
        code = PDX_ERROR;
        msg = "the index kept changing while it was read (" +
              std::to_string(MODIFIED_RETRIES + 1) +
              " tries): " + describe(x);
    } catch (const Xapian::NetworkError &x) {
        /* A remote shard (xapian-tcpsrv) refused, timed out or went
         * away. */
        code = PDX_EIO;
        msg = "remote index: " + describe(x);
    } catch (const Xapian::UnimplementedError &x) {
        code = PDX_EINVAL;
        msg = "not available here: " + describe(x);
    } catch (const Xapian::DatabaseError &x) {
        /* Write failures (ENOSPC, EIO) arrive as plain DatabaseError. */
        code = PDX_EIO;
        msg = "index I/O error: " + describe(x);
    } catch (const Xapian::Error &x) {
        code = PDX_ERROR;
        msg = std::string(x.get_type()) + ": " + describe(x);
    } catch (const std::bad_alloc &) {
        code = PDX_ENOMEM;
        msg = "out of memory";
    } catch (const std::exception &x) {
        code = PDX_ERROR;
        msg = x.what();
    } catch (...) {
        code = PDX_ERROR;
        msg = "unknown internal error";
    }
    set_msg(e, code, msg);
    return code;
}

/* Query or snippet text in the form that is indexed (text_unaccent). */
std::string pdxshim::unaccent(const std::string &s)
{
    size_t flen = 0;
    char *f = text_unaccent(s.data(), s.size(), &flen);
    if (!f)
        return s;
    std::string out(f, flen);
    free(f);
    return out;
}

/* Which field a text term belongs to, by its prefix, and its stem in
 * `word`: "title" (S), "abstract" (XB: in layout 4 the boolean marker of
 * a stem the abstract shares with the title or an author), "author" (A),
 * or "text" (no prefix: the default field; also what any other term is
 * called, its whole name in `word`). */
const char *pdxshim::term_field(const std::string &t, std::string &word)
{
    if (t.compare(0, 2, LAYOUT_P_ABSTRACT) == 0) {
        word = t.substr(2);
        return "abstract";
    }
    if (t.compare(0, 1, LAYOUT_P_TITLE) == 0 ||
        t.compare(0, 1, LAYOUT_P_AUTHOR) == 0) {
        word = t.substr(1);
        return t[0] == LAYOUT_P_TITLE[0] ? "title" : "author";
    }
    word = t;
    return "text";
}

/* Cut a key at a character boundary to LAYOUT_MAX_KEY_BYTES. */
std::string pdxshim::cut_key(const char *key)
{
    std::string k(key);
    if (k.size() > LAYOUT_MAX_KEY_BYTES) {
        size_t n = LAYOUT_MAX_KEY_BYTES;
        while (n > 0 && (static_cast<unsigned char>(k[n]) & 0xC0) == 0x80)
            n--;
        k.resize(n);
    }
    return k;
}

Xapian::Stem pdxshim::english_stem(size_t slots, bool american)
{
    return Xapian::Stem(new SnowballEnglish(slots, american));
}

void pdxshim::use_stop_words(shim_db *h, const char *const *list)
{
    if (h->stop_words == list)
        return;
    h->stop_words = list;
    h->stopper.clear();
    h->stop_stems.clear();
    for (const char *const *w = list; *w; w++) {
        h->stopper.add(*w);
        h->stop_stems.insert(*w);
        h->stop_stems.insert(h->stem(*w));
    }
}

/* Snowball's list until the index's stamps say otherwise (read_stamps). */
shim_db::shim_db() : stem(new SnowballEnglish(STEM_CACHE_QUERY, false))
{
    use_stop_words(this, PDX_STOPWORDS_SNOWBALL);
}

/* Who holds the write lock: written by a writer that got it, read by one
 * that did not.  Best effort: the lock itself is Xapian's. */
static void write_holder(const std::string &dir)
{
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    char when[64] = "";
    time_t now = time(nullptr);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    std::string tmp = dir + "/" + HOLDER_FILE + ".tmp";
    FILE *f = fopen(tmp.c_str(), "w");
    if (!f)
        return;
    fprintf(f, "pid %ld on %s, since %s", static_cast<long>(getpid()), host,
            when);
    if (fclose(f) == 0)
        rename(tmp.c_str(), (dir + "/" + HOLDER_FILE).c_str());
}

static std::string read_holder(const std::string &dir)
{
    std::string who;
    FILE *f = fopen((dir + "/" + HOLDER_FILE).c_str(), "r");
    if (!f)
        return who;
    char buf[512];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    who.assign(buf, n);
    return "held by " + who;
}

std::vector<std::string> pdxshim::source_paths(const Xapian::Database &db)
{
    std::vector<std::string> paths;
    for (Xapian::TermIterator k = db.metadata_keys_begin(LAYOUT_META_SOURCE);
         k != db.metadata_keys_end(LAYOUT_META_SOURCE); ++k) {
        const std::string v = db.get_metadata(*k);
        cJSON *o = cJSON_ParseWithLength(v.data(), v.size());
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "path");
        if (cJSON_IsString(p))
            paths.push_back(p->valuestring);
        cJSON_Delete(o);
    }
    return paths;
}

/* The command that rebuilds an index of an older layout: its sources,
 * from their fingerprints (which every layout keeps alike). */
static std::string rebuild_command(shim_db *h)
{
    std::vector<std::string> paths;
    with_reopen(h, [&] { paths = source_paths(h->db); });
    std::sort(paths.begin(), paths.end());
    std::string cmd = "paperdex index --db " + h->path;
    const size_t show = 8;
    for (size_t i = 0; i < paths.size() && i < show; i++)
        cmd += " " + paths[i];
    if (paths.size() > show)
        cmd += " ... (" + std::to_string(paths.size()) + " sources in all)";
    else if (paths.empty())
        cmd += " SOURCE...";
    return cmd;
}

/* A layout from PDX_LAYOUT_COMPATIBLE up to this one's, not this one's:
 * searched and written as it is (paperdex.h). */
static bool compatible_layout(const std::string &v)
{
    const int n = atoi(v.c_str());
    return std::to_string(n) == v && n >= PDX_LAYOUT_COMPATIBLE &&
           n < PDX_LAYOUT_VERSION;
}

/* Would Xapian's TermGenerator, unasked, split CJK text into n-grams in
 * this process (XAPIAN_CJK_NGRAM in the environment, which Xapian 1.4
 * reads itself)?  Two CJK characters make one term as a word, three
 * (each and both) as n-grams.  How an index that does not record its
 * CJK reading was read when it was built. */
static bool xapian_env_ngrams()
{
    static const bool ngrams = [] {
        Xapian::TermGenerator tg;
        Xapian::Document doc;
        tg.set_document(doc);
        tg.index_text("\xe4\xb8\xad\xe6\x96\x87"); /* U+4E2D U+6587 */
        return doc.termlist_count() > 1;
    }();
    return ngrams;
}

/* The value of a stamp every new index gets (key: value), or of what an
 * older index has ("" when it was built before the stamp): an empty
 * index's writer stamps it. */
static std::string read_stamp(shim_db *h, Xapian::doccount docs,
                              const char *key, const char *value)
{
    std::string v;
    with_reopen(h, [&] { v = h->db.get_metadata(key); });
    if (v.empty() && docs == 0 && h->writable) {
        h->wdb.set_metadata(key, value);
        h->wdb.commit();
        v = value;
    }
    return v;
}

/* How the index reads CJK text (LAYOUT_META_CJK): n-grams when it says
 * so, an older index as it was built; whether its spelling table lists
 * its words (LAYOUT_META_SPELLING); whether it indexes word forms
 * (LAYOUT_META_FORMS); whether its works hold year terms
 * (LAYOUT_META_YEARS); how it read formulas (LAYOUT_META_MATH); whether
 * it joins hyphenated compounds (LAYOUT_META_COMPOUNDS); whether a
 * letter with a star is a word (LAYOUT_META_STARS); whether it joins
 * compounds that stop words leave one word of
 * (LAYOUT_META_STOP_COMPOUNDS), and those of stop words alone
 * (LAYOUT_META_STOP_RUNS), and pairs joined by a slash with a stop word
 * in them (LAYOUT_META_SLASH_PAIRS); which stop words it leaves out
 * (LAYOUT_META_STOP_WORDS: h's stopper made so); whether it reads letters written with
 * dots between them as one word (LAYOUT_META_DOTTED), and two letters
 * with a dot between as a word that keeps it (LAYOUT_META_DOTTED_PAIRS);
 * whether works hold their first author's keys (LAYOUT_META_FIRST_AUTHOR); whether British
 * words are stemmed as their American spellings (LAYOUT_META_SPELLINGS:
 * the handle's stemmer made so). */
static void read_stamps(shim_db *h, Xapian::doccount docs)
{
    const std::string cjk = read_stamp(h, docs, LAYOUT_META_CJK, LAYOUT_CJK_NGRAM);
    h->cjk_ngram = cjk.empty() ? xapian_env_ngrams() : cjk == LAYOUT_CJK_NGRAM;
    h->spelling = read_stamp(h, docs, LAYOUT_META_SPELLING,
                             LAYOUT_SPELLING_WORDS) == LAYOUT_SPELLING_WORDS;
    h->forms = read_stamp(h, docs, LAYOUT_META_FORMS, LAYOUT_FORMS_WORDS) ==
               LAYOUT_FORMS_WORDS;
    h->year_terms = read_stamp(h, docs, LAYOUT_META_YEARS,
                               LAYOUT_YEARS_TERMS) == LAYOUT_YEARS_TERMS;
    const std::string math =
        read_stamp(h, docs, LAYOUT_META_MATH, LAYOUT_MATH_JOINED);
    h->math_scripts = math == LAYOUT_MATH_JOINED ? TEXT_MATH_JOINED
                      : math == LAYOUT_MATH_SCRIPTS ? TEXT_MATH_TEX
                                                    : 0;
    h->compounds_joined = read_stamp(h, docs, LAYOUT_META_COMPOUNDS,
                                     LAYOUT_COMPOUNDS_JOINED) ==
                          LAYOUT_COMPOUNDS_JOINED;
    h->stars = read_stamp(h, docs, LAYOUT_META_STARS, LAYOUT_STARS_LETTERS) ==
               LAYOUT_STARS_LETTERS;
    h->stop_compounds = read_stamp(h, docs, LAYOUT_META_STOP_COMPOUNDS,
                                   LAYOUT_STOP_COMPOUNDS_JOINED) ==
                        LAYOUT_STOP_COMPOUNDS_JOINED;
    h->stop_runs = read_stamp(h, docs, LAYOUT_META_STOP_RUNS,
                              LAYOUT_STOP_RUNS_JOINED) == LAYOUT_STOP_RUNS_JOINED;
    h->slash_pairs = read_stamp(h, docs, LAYOUT_META_SLASH_PAIRS,
                                LAYOUT_SLASH_PAIRS_JOINED) == LAYOUT_SLASH_PAIRS_JOINED;
    h->dotted = read_stamp(h, docs, LAYOUT_META_DOTTED, LAYOUT_DOTTED_LETTERS) ==
                LAYOUT_DOTTED_LETTERS;
    h->dotted_pairs = read_stamp(h, docs, LAYOUT_META_DOTTED_PAIRS,
                                 LAYOUT_DOTTED_PAIRS_KEPT) == LAYOUT_DOTTED_PAIRS_KEPT;
    h->first_author = read_stamp(h, docs, LAYOUT_META_FIRST_AUTHOR,
                                 LAYOUT_FIRST_AUTHOR_KEPT) ==
                      LAYOUT_FIRST_AUTHOR_KEPT;
    h->american = read_stamp(h, docs, LAYOUT_META_SPELLINGS,
                             LAYOUT_SPELLINGS_AMERICAN) == LAYOUT_SPELLINGS_AMERICAN;
    if (h->american) {
        h->stem = english_stem(STEM_CACHE_QUERY, true);
        h->stop_words = nullptr; /* their stems made again, below */
    }
    use_stop_words(h, read_stamp(h, docs, LAYOUT_META_STOP_WORDS, LAYOUT_STOP_WORDS_TITLES) ==
                              LAYOUT_STOP_WORDS_TITLES
                          ? PDX_STOPWORDS
                          : PDX_STOPWORDS_SNOWBALL);
    /* A new index keeps its positions by the term (common/chunks.cc),
     * but one made for xapian-tcpsrv, which keeps them in Xapian's table;
     * PDX_LAYOUT8 in the environment makes one with layout 8's positions
     * values instead (for the tests of indexes made before). */
    h->chunks = read_stamp(h, docs, LAYOUT_META_CHUNKS,
                           !getenv("PDX_LAYOUT8") && !h->xapian_positions
                               ? "1"
                               : "") == "1";
    /* and the common grams of a list (common/common_grams.cc) */
    h->common_grams = read_stamp(h, docs, LAYOUT_META_COMMON_GRAMS,
                                 h->chunks ? common_grams_builtin().c_str()
                                           : "");
    h->gram_words = common_grams_parse(h->common_grams);
}

/* Check (and for a new writer, stamp) the layout metadata. */
static int check_layout(shim_db *h, shim_err *e)
{
    std::string v;
    Xapian::doccount docs = 0;
    with_reopen(h, [&] {
        v = h->db.get_metadata(LAYOUT_KEY);
        docs = h->db.get_doccount();
    });
    if (v.empty()) {
        if (docs == 0 && h->writable) {
            h->layout = atoi(LAYOUT_VERSION);
            h->wdb.set_metadata(LAYOUT_KEY, LAYOUT_VERSION);
            /* A new index is built by today's name rules; an older one
             * keeps the rules it was built with until it is rebuilt. */
            h->names = TEXT_NAME_RULES;
            h->wdb.set_metadata(LAYOUT_META_NAMES,
                                std::to_string(TEXT_NAME_RULES));
            if (h->xapian_positions)
                h->wdb.set_metadata(LAYOUT_META_POSITIONS,
                                    LAYOUT_POSITIONS_XAPIAN);
            h->wdb.commit();
            read_stamps(h, docs);
            return 0;
        }
        if (docs == 0 && !h->writable) {
            set_msg(e, PDX_ENOTINDEX,
                    "'" + h->path + "' is an empty Xapian database, not a "
                    "paperdex index (index something into it first)");
            return PDX_ENOTINDEX;
        }
        set_msg(e, PDX_ENOTINDEX,
                "'" + h->path + "' is a Xapian database that paperdex did "
                "not create; refusing to use it");
        return PDX_ENOTINDEX;
    }
    h->layout = atoi(v.c_str());
    read_stamps(h, docs);
    {
        std::string names;
        with_reopen(h, [&] { names = h->db.get_metadata(LAYOUT_META_NAMES); });
        h->names = names.empty() ? 1 : atoi(names.c_str());
        if (h->names < 1)
            h->names = 1;
    }
    if (compatible_layout(v)) {
        /* It holds every term this layout reads (common/layout.h): used
         * as it is; a writer stamps it, as the documents it writes lack
         * what the older version would look for.  Layouts 5 and 6 keep
         * their positions in Xapian's table, and their new works' stay
         * there; layout 7's stay where its metadata says (its values
         * are read in their own format, common/positions.cc). */
        if (h->writable) {
            const std::string was =
                h->db.get_metadata(LAYOUT_META_POSITIONS);
            const bool seven = h->layout >= 7;
            const bool values = seven && was.empty();
            h->wdb.set_metadata(LAYOUT_KEY, LAYOUT_VERSION);
            if (!seven)
                h->wdb.set_metadata(LAYOUT_META_POSITIONS,
                                    LAYOUT_POSITIONS_INHERITED);
            h->wdb.commit();
            h->layout = atoi(LAYOUT_VERSION);
            h->xapian_positions = !values;
            h->positions_chosen = seven && was == LAYOUT_POSITIONS_XAPIAN;
        }
        return 0;
    }
    if (v == LAYOUT_VERSION && h->writable) {
        /* Where its positions go: as it was made; an empty index as the
         * opener asks. */
        const std::string was = h->db.get_metadata(LAYOUT_META_POSITIONS);
        if (docs == 0 && (was == LAYOUT_POSITIONS_XAPIAN) != h->xapian_positions) {
            h->wdb.set_metadata(LAYOUT_META_POSITIONS,
                                h->xapian_positions ? LAYOUT_POSITIONS_XAPIAN
                                                    : "");
            h->wdb.commit();
        }
        if (docs > 0) {
            h->xapian_positions = !was.empty();
            h->positions_chosen = was == LAYOUT_POSITIONS_XAPIAN;
        } else {
            h->positions_chosen = h->xapian_positions;
        }
    }
    if (v != LAYOUT_VERSION) {
        const bool older = h->layout > 0 && h->layout < atoi(LAYOUT_VERSION);
        if (older && h->upgrade && h->writable)
            return 0;
        set_msg(e, PDX_EVERSION,
                "'" + h->path + "' has index layout " + v +
                    ", this paperdex reads layout " + LAYOUT_VERSION +
                    (older ? "; rebuild it once by running the command that "
                             "indexes it (cron's own line): " +
                                 rebuild_command(h) +
                                 " -- the old index stays searchable by the "
                                 "old version until the new one replaces it"
                           : "; use the paperdex that wrote it"));
        return PDX_EVERSION;
    }
    return 0;
}

/* "tcp://HOST:PORT": a shard served by xapian-tcpsrv.  Sets host and
 * port; false if p is not of that form (then it is a local path). */
static bool remote_address(const std::string &p, std::string &host,
                           unsigned &port)
{
    const std::string scheme = "tcp://";
    if (p.compare(0, scheme.size(), scheme) != 0)
        return false;
    size_t colon = p.rfind(':');
    if (colon == std::string::npos || colon < scheme.size())
        throw Xapian::InvalidArgumentError("remote index '" + p +
                                           "' must be tcp://HOST:PORT");
    host = p.substr(scheme.size(), colon - scheme.size());
    const std::string ps = p.substr(colon + 1);
    char *end = nullptr;
    unsigned long v = strtoul(ps.c_str(), &end, 10);
    if (host.empty() || ps.empty() || *end || v == 0 || v > 65535)
        throw Xapian::InvalidArgumentError("remote index '" + p +
                                           "' must be tcp://HOST:PORT");
    port = static_cast<unsigned>(v);
    return true;
}

/* Milliseconds a remote shard may take to answer, and to connect. */
const unsigned REMOTE_TIMEOUT_MS = 10000;
const unsigned REMOTE_CONNECT_MS = 5000;

static shard_id local_id(const std::string &p)
{
    struct stat st;
    if (stat(p.c_str(), &st) != 0)
        return shard_id{p, true, 0, 0};
    return shard_id{p, true, st.st_dev, st.st_ino};
}

static bool same_dir(const shard_id &a, const shard_id &b)
{
    return a.dev == b.dev && a.ino == b.ino;
}

/* A reader on the local index p, and in id what p named while it was
 * opened.  Opening reads the newest revision's roots; a commit landing
 * meanwhile may discard them, so opening is retried too.  Glass opens
 * each table file by name, one after the other: a rebuild swapped in
 * between two of them (renameat2 RENAME_EXCHANGE, or the two renames)
 * would leave the reader with tables of two indexes, whose roots point
 * past the ends of each other's files ("EOF reading block").  p is
 * therefore stat-ed before and after: when it names another directory
 * afterwards (or opening failed while it changed), it is opened again. */
Xapian::Database pdxshim::open_local_reader(const std::string &p, shard_id &id)
{
    for (int attempt = 0;; attempt++) {
        shard_id before = local_id(p);
        try {
            Xapian::Database db(p);
            id = local_id(p);
            if (same_dir(before, id) || attempt >= MODIFIED_RETRIES)
                return db;
        } catch (const Xapian::DatabaseModifiedError &) {
            if (attempt >= MODIFIED_RETRIES)
                throw;
        } catch (const Xapian::DatabaseError &) {
            if (attempt >= MODIFIED_RETRIES || same_dir(before, local_id(p)))
                throw;
        }
    }
}

bool pdxshim::replaced(const shim_db *h)
{
    if (h->writable)
        return false;
    for (const shard_id &s : h->shards)
        if (s.local) {
            shard_id now = local_id(s.path);
            if (now.ino && !same_dir(now, s))
                return true;
        }
    return false;
}

/* `paperdex index --jobs` builds a new index beside the old one and
 * renames it into place.  A reader still holds the old files, which no
 * longer change, so reopen() alone would serve the old index for ever.
 * Before each read, a reader therefore checks (one stat per local shard)
 * whether a path it was opened on now names another directory, and if so
 * opens every shard again by name.  A path that is missing for the
 * moment (between the two renames) keeps the old index for this read. */
void pdxshim::follow_replaced(shim_db *h)
{
    if (replaced(h))
        reopen_by_name(h);
}

/* Whether every database of subs is stamped key: value (the works hold
 * year terms, LAYOUT_META_YEARS; the index leaves out the shorter stop
 * list, LAYOUT_META_STOP_WORDS): Xapian reads the metadata of several
 * from the first alone. */
static bool every_stamped(const std::vector<Xapian::Database> &subs, const char *key,
                          const char *value)
{
    for (const Xapian::Database &sub : subs)
        if (sub.get_metadata(key) != value)
            return false;
    return !subs.empty();
}

void pdxshim::reopen_by_name(shim_db *h)
{
    Xapian::Database all;
    std::vector<Xapian::Database> subs;
    std::vector<shard_id> ids;
    for (const shard_id &s : h->shards) {
        std::string host;
        unsigned port = 0;
        if (!s.local && remote_address(s.path, host, port)) {
            subs.push_back(Xapian::Remote::open(host, port, REMOTE_TIMEOUT_MS,
                                                REMOTE_CONNECT_MS));
            ids.push_back(s);
        } else {
            shard_id id;
            subs.push_back(open_local_reader(s.path, id));
            ids.push_back(id);
        }
        all.add_database(subs.back());
    }
    const std::string v = all.get_metadata(LAYOUT_KEY);
    if (v != LAYOUT_VERSION && !compatible_layout(v))
        throw Xapian::DatabaseVersionError(
            "'" + h->path + "' was replaced by an index of another layout");
    h->db = all;
    h->subs = subs;
    h->year_terms = every_stamped(subs, LAYOUT_META_YEARS, LAYOUT_YEARS_TERMS);
    h->common_grams = subs.empty() ? std::string()
                                   : subs[0].get_metadata(LAYOUT_META_COMMON_GRAMS);
    for (const Xapian::Database &sub : subs)
        if (sub.get_metadata(LAYOUT_META_COMMON_GRAMS) != h->common_grams)
            h->common_grams.clear();
    h->gram_words = common_grams_parse(h->common_grams);
    /* a rebuilt index may leave out other stop words */
    use_stop_words(h, every_stamped(subs, LAYOUT_META_STOP_WORDS, LAYOUT_STOP_WORDS_TITLES)
                          ? PDX_STOPWORDS
                          : PDX_STOPWORDS_SNOWBALL);
    h->reader.reset(); /* made again over the new files */
    h->shards = ids;
}

extern "C" int shim_open(shim_db **out, const char *path, unsigned mode,
                         shim_err *e)
{
    *out = nullptr;
    shim_db *h = nullptr;
    try {
        h = new shim_db;
        h->path = path;
        h->upgrade = (mode & SHIM_UPGRADE) != 0;
        h->builder = (mode & SHIM_BUILDER) != 0 && (mode & SHIM_WRITE);
        h->xapian_positions = (mode & SHIM_XAPIAN_POSITIONS) != 0;
        const std::string p(path);
        std::string host;
        unsigned port = 0;
        if (remote_address(p, host, port)) {
            if (mode & SHIM_WRITE) {
                set_msg(e, PDX_EINVAL,
                        "'" + p + "' is a remote index: it is searched, "
                        "never written to");
                delete h;
                return PDX_EINVAL;
            }
            h->db = Xapian::Remote::open(host, port, REMOTE_TIMEOUT_MS,
                                         REMOTE_CONNECT_MS);
            h->shards.push_back(shard_id{p, false, 0, 0});
            h->subs.push_back(h->db);
            int rc = check_layout(h, e);
            if (rc) {
                delete h;
                return rc;
            }
            *out = h;
            return 0;
        }
        if (!exists(p)) {
            if (!(mode & SHIM_WRITE) || !(mode & SHIM_CREATE)) {
                set_msg(e, PDX_ENOTFOUND, "no index at '" + p + "'");
                delete h;
                return PDX_ENOTFOUND;
            }
        } else if (!is_dir(p)) {
            set_msg(e, PDX_ENOTINDEX,
                    "'" + p + "' is a file, not a paperdex index directory");
            delete h;
            return PDX_ENOTINDEX;
        } else if (!looks_like_xapian(p) && !dir_holds_no_other_files(p)) {
            set_msg(e, PDX_ENOTINDEX,
                    "'" + p + "' is not a paperdex index (the directory "
                    "holds other files)" +
                        ((mode & SHIM_WRITE) ? "; refusing to write there"
                                             : ""));
            delete h;
            return PDX_ENOTINDEX;
        } else if (!looks_like_xapian(p) && !(mode & SHIM_WRITE)) {
            set_msg(e, PDX_ENOTINDEX,
                    "'" + p + "' is an empty directory, not a paperdex index");
            delete h;
            return PDX_ENOTINDEX;
        }
        if (mode & SHIM_WRITE) {
            h->wdb = Xapian::WritableDatabase(
                p,
                Xapian::DB_CREATE_OR_OPEN | Xapian::DB_BACKEND_GLASS |
                    ((mode & SHIM_NOSYNC) ? NOSYNC_FLAGS : 0),
                LAYOUT_BLOCK_SIZE);
            h->db = h->wdb;
            h->subs.push_back(h->db);
            h->writable = true;
            h->nosync = (mode & SHIM_NOSYNC) != 0;
        } else {
            shard_id id;
            h->db = open_local_reader(p, id);
            h->shards.push_back(id);
            h->subs.push_back(h->db);
        }
        int rc = check_layout(h, e);
        if (rc) {
            delete h;
            return rc;
        }
        if (h->writable)
            write_holder(p);
        *out = h;
        return 0;
    } catch (const Xapian::DatabaseLockError &x) {
        /* Xapian says "already locked" when another process holds the
         * lock; any other reason (a directory or lock file this user may
         * not write, too many open files) is no reason to wait. */
        const std::string why = x.get_msg();
        const std::string held = ": already locked";
        if (why.size() < held.size() ||
            why.compare(why.size() - held.size(), held.size(), held)) {
            set_msg(e, PDX_EIO,
                    "cannot take the write lock of index '" +
                        std::string(path) + "': " + describe(x) +
                        " (is the index directory writable by this user?)");
            delete h;
            return PDX_EIO;
        }
        std::string who = read_holder(path);
        set_msg(e, PDX_ELOCKED,
                "index '" + std::string(path) +
                    "' is locked by another writer" +
                    (who.empty() ? std::string() : " (" + who + ")"));
        delete h;
        return PDX_ELOCKED;
    } catch (...) {
        int rc = fail(e);
        delete h;
        return rc;
    }
}

extern "C" int shim_add_shard(shim_db *h, const char *path, shim_err *e)
{
    shim_db *other = nullptr;
    int rc = shim_open(&other, path, 0, e);
    if (rc)
        return rc;
    try {
        if (h->writable) {
            delete other;
            set_msg(e, PDX_EINVAL, "shards are searched together only on a "
                                   "read-only handle");
            return PDX_EINVAL;
        }
        h->db.add_database(other->db);
        h->shards.insert(h->shards.end(), other->shards.begin(),
                         other->shards.end());
        h->subs.insert(h->subs.end(), other->subs.begin(), other->subs.end());
        h->year_terms = h->year_terms && other->year_terms;
        h->compounds_joined = h->compounds_joined && other->compounds_joined;
        h->stars = h->stars && other->stars;
        h->stop_compounds = h->stop_compounds && other->stop_compounds;
        h->stop_runs = h->stop_runs && other->stop_runs;
        h->slash_pairs = h->slash_pairs && other->slash_pairs;
        h->dotted = h->dotted && other->dotted;
        h->dotted_pairs = h->dotted_pairs && other->dotted_pairs;
        h->first_author = h->first_author && other->first_author;
        if (h->common_grams != other->common_grams) {
            h->common_grams.clear();
            h->gram_words = nullptr;
        }
        /* shards that differ: the longer list */
        const char *const *stops =
            other->stop_words == h->stop_words ? h->stop_words : PDX_STOPWORDS_SNOWBALL;
        if (h->american && !other->american) {
            h->american = false;
            h->stem = english_stem(STEM_CACHE_QUERY, false);
            h->stop_words = nullptr; /* their stems made again, below */
        }
        use_stop_words(h, stops);
        h->reader.reset(); /* made again over every shard */
        delete other;
        return 0;
    } catch (...) {
        delete other;
        return fail(e);
    }
}
extern "C" int shim_layout(const shim_db *h) { return h->layout; }

extern "C" int shim_name_rules(const shim_db *h) { return h->names; }

extern "C" int shim_xapian_positions(const shim_db *h)
{
    return !h->xapian_positions ? 0 : h->positions_chosen ? 1 : 2;
}

extern "C" void shim_close(shim_db *h)
{
    if (!h)
        return;
    try {
        settle(h); /* as a writer without the builder thread would */
        if (h->writer)
            h->writer->before_commit(true);
    } catch (...) {
        /* Nothing to report to, as below. */
    }
    try {
        if (h->writable) {
            unlink((h->path + "/" + HOLDER_FILE).c_str());
            h->wdb.close(); /* commits pending changes */
        }
    } catch (...) {
        /* Nothing to report to: the caller chose not to commit. */
    }
    delete h;
}
