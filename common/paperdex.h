/*
 * paperdex.h -- the only public header of libpaperdex, and its manual.
 *
 * paperdex is a full-text search engine for scientific papers.  It reads
 * paper records (arXiv metadata snapshots and OAI-PMH harvests,
 * MEDLINE/PubMed XML, OpenAlex works, BibTeX, paperdex's own JSON lines,
 * researcher-profile pages, SMART and BEIR test collections; pdx_format),
 * merges the records of one work, keeps them in a Xapian index, and ranks
 * them with BM25 under filters on year, category, subject and author.
 * The `paperdex` command-line tool links the shared library and uses
 * exactly this interface.
 *
 * Conventions (after libgit2):
 *
 *  - Every name starts with `pdx_` (types, functions) or `PDX_` (macros).
 *  - Handles are opaque.  An object handed back through a `**out` parameter
 *    belongs to the caller, who releases it with the matching `_free` or
 *    `_close` function (all of which accept NULL).  Anything returned by
 *    value (a `const char *`, a `const pdx_hit *`) is borrowed from the
 *    object it came from and stays valid for as long as the function's
 *    documentation says, at most until that object is freed.
 *  - Out-parameters come first.
 *  - Functions return 0 on success or one of the negative `pdx_error`
 *    codes.  The human-readable message of the last failure is kept on the
 *    handle and read with pdx_errmsg() / pdx_reader_errmsg().
 *  - Public structs carry a `version` field first.  Initialise one with
 *    its `pdx_*_init(&s, PDX_*_VERSION)` function (callable from any
 *    language; PDX_EVERSION for a version this library does not know)
 *    or, in C, with its `PDX_*_INIT` macro (designated initialisers, so
 *    a field added later cannot shift the others), then set what you
 *    need.  A struct whose version the library does not know is refused
 *    with PDX_EVERSION wherever it is passed.
 *
 * Threads: the library keeps no global state, reads no environment
 * variable and needs no init call.  The one process-wide setting is
 * opt-in: pdx_exit_on_fatal(), which a program calls to end with a
 * message when Xapian cannot survive a failed write.  A
 * handle (pdx_index, pdx_results, pdx_reader) must be used by one thread at a
 * time; use one handle per thread.  Any number of read handles, in any
 * number of threads or processes, may be open on one index while a single
 * writer commits to it: Xapian gives each reader a consistent snapshot, and
 * every read (pdx_open, pdx_search, pdx_get, pdx_similar, pdx_stats_get,
 * the pdx_source_* readers, pdx_compact) moves to the newest revision and
 * starts again when commits overtake it.  After 51 tries in a row it gives
 * up with PDX_ERROR ("the index kept changing while it was read").
 *
 * Errors never cross this interface as C++ exceptions: every entry point
 * catches and turns them into codes.
 */
#ifndef PAPERDEX_H
#define PAPERDEX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The PDX_*_INIT initialisers: designated initialisers in C (C99 on).
 * In C++ (11 on), where g++ warns of every member a designated
 * initialiser leaves out (-Wmissing-field-initializers, in -Wextra), and
 * C++ before 20 has none, each is the value a lambda makes: every member
 * zero, then the same members set. */
#ifdef __cplusplus
#define PDX_INIT_(T, sets) ([]() { T pdx_v_{}; sets; return pdx_v_; }())
#endif

#if defined(PDX_BUILDING_LIBRARY) && defined(__GNUC__)
#define PDX_EXTERN __attribute__((visibility("default")))
#else
#define PDX_EXTERN
#endif

/* ------------------------------------------------------------------------ */
/* Version                                                                  */
/* ------------------------------------------------------------------------ */

#define PDX_VERSION "0.1.0"
/** The index layout this version writes and searches (see the essay at
 *  the top of common/layout.h).  An index of a layout from
 *  PDX_LAYOUT_COMPATIBLE up is searched and written as it is (it holds
 *  every term and value this layout reads, its records and positions
 *  where this layout looks for an old document's; a writer stamps it
 *  with this layout when it opens it, so that older versions leave it
 *  alone).  An index of an
 *  older layout is rebuilt beside itself by `paperdex index` and
 *  pdx_sync() (PDX_OPEN_UPGRADE). */
#define PDX_LAYOUT_VERSION 9
#define PDX_LAYOUT_COMPATIBLE 5
/** 0xMMmmpp: major, minor, patch.  Compare numerically. */
#define PDX_VERNUM 0x000100

/** The version string of the library actually linked, e.g. "0.1.0".
 *  Compare it with PDX_VERSION to detect a header/library mismatch. */
PDX_EXTERN const char *pdx_version(void);

/** PDX_VERNUM of the library actually linked. */
PDX_EXTERN unsigned pdx_vernum(void);

/* ------------------------------------------------------------------------ */
/* Error codes                                                              */
/* ------------------------------------------------------------------------ */

typedef enum pdx_error {
    PDX_OK = 0,
    PDX_ERROR = -1,     /**< anything not listed below; see the message    */
    PDX_ENOTFOUND = -2, /**< index (or file, or work) does not exist        */
    PDX_ELOCKED = -3,   /**< another writer holds the index lock            */
    PDX_ECORRUPT = -4,  /**< the index is damaged                           */
    PDX_EQUERY = -5,    /**< the query string could not be parsed           */
    PDX_EINVAL = -6,    /**< an argument or a record is invalid             */
    PDX_ENOMEM = -7,    /**< out of memory                                  */
    PDX_EVERSION = -8,  /**< options struct / index layout version unknown  */
    PDX_EIO = -9,       /**< read or write failure (disk full, truncated)   */
    PDX_ENOTINDEX = -10,/**< the path exists but is not a paperdex index    */
    PDX_ITEROVER = -31  /**< iteration finished; not a failure              */
} pdx_error;

/** A constant English name for a code ("locked", "not found", ...). */
PDX_EXTERN const char *pdx_strerror(int code);

/* ------------------------------------------------------------------------ */
/* Works                                                                    */
/* ------------------------------------------------------------------------ */

#define PDX_WORK_VERSION 3
/** The fields of version 1 end here: a version-1 pdx_work is this many
 *  bytes, and the library reads no further in one. */
#define PDX_WORK_V1_SIZE offsetof(pdx_work, pmid)
/** Version 2 ended before merged_into. */
#define PDX_WORK_V2_SIZE offsetof(pdx_work, merged_into)

/** Longest id, in bytes.  Ids are the unique key of a work; adding a work
 *  whose id is already indexed replaces it. */
#define PDX_ID_MAX 200

/**
 * One paper, or one source's record of it.  Used both to add a record
 * (every pointer borrowed from the caller for the duration of the call) and
 * to read a work back (every pointer borrowed from the object that returned
 * it).  A work read back is the merge of every record of it that was added
 * (see pdx_put); its `source` is that of its first record.
 *
 * All strings are UTF-8.  NULL and "" both mean "absent".
 */
typedef struct pdx_work {
    unsigned int version;     /**< PDX_WORK_VERSION                          */
    const char *id;           /**< required; 1..PDX_ID_MAX bytes, no control */
    const char *title;        /**< title; may be absent if abstract is not   */
    int title_derived;        /**< nonzero: title is the abstract's first
                                   sentence, shown but not indexed as title  */
    const char *abstract;     /**< abstract                                  */
    const char *const *authors; /**< display names, "Given Family"         */
    size_t n_authors;
    int authors_truncated;    /**< nonzero: list ended in "et al."           */
    const char *const *categories; /**< e.g. "cs.CV", "hep-th"             */
    size_t n_categories;
    int year;                 /**< 0 = unknown, else 1000..9999              */
    const char *date;         /**< "YYYY", "YYYY-MM" or "YYYY-MM-DD"         */
    const char *doi;
    const char *arxiv_id;     /**< e.g. "2103.00823"                         */
    const char *venue;        /**< journal reference or venue                */
    const char *comments;     /**< e.g. "12 pages, 3 figures"                */
    const char *affiliation;  /**< e.g. "baidu", as a profile page gives it  */
    int code_available;       /**< nonzero: the source flags released code   */
    const char *source;       /**< where the record was read: a file name,
                                   "<stdin>", or NULL for a work built by
                                   the caller                              */
    uint64_t source_line;     /**< 1-based line of the record in `source`   */
    /* ---- version 2 ---- */
    const char *pmid;         /**< PubMed id, digits ("31452104")           */
    const char *pmcid;        /**< PubMed Central id ("PMC6712345")         */
    const char *openalex_id;  /**< OpenAlex work id ("W2741809807")         */
    /** Subject terms: MeSH headings, OpenAlex topics, BibTeX keywords.
     *  Searched with `subject:` and counted by PDX_FACET_SUBJECT;
     *  categories keep their arXiv meaning. */
    const char *const *subjects;
    size_t n_subjects;
    /** What places the record in its source when it has no id of its own
     *  (a BibTeX citation key): a record that keeps its key is the same
     *  record wherever it moves in its file.  Never used to merge works:
     *  two files may use one key for two papers. */
    const char *source_key;
    /** Nonzero: the record is its source's current version of the work
     *  its identity names (its PMID, OpenAlex id, else arXiv id): of the
     *  versioned records with one identity, the one whose file sorts
     *  last (by path) stands and the others are set aside -- a PubMed
     *  update file's citation replaces the baseline's. */
    int versioned;
    /** Nonzero (with versioned): the record withdraws the work its
     *  identity names, from the files that sort before its own -- a
     *  PubMed DeleteCitation, an OAI-PMH deleted header, an OpenAlex
     *  merged id.  It carries identity only; a work whose every record
     *  is set aside is not found by any search.  PDX_WITHDRAWN_EVERYWHERE:
     *  from every file, whatever its name (an OpenAlex merged id). */
    int withdrawn;
    /* ---- version 3 ---- */
    /** With withdrawn: the id of the work this one was merged into (an
     *  OpenAlex merged id's merge_into_id).  pdx_get() of the withdrawn
     *  id answers with that work. */
    const char *merged_into;
} pdx_work;
#define PDX_WITHDRAWN_EVERYWHERE 2

#ifndef __cplusplus
#define PDX_WORK_INIT {.version = PDX_WORK_VERSION}
#else
#define PDX_WORK_INIT PDX_INIT_(pdx_work, pdx_v_.version = PDX_WORK_VERSION)
#endif

/** Set *w to an empty work of `version` (PDX_WORK_VERSION).  0, or
 *  PDX_EVERSION (w untouched) for a version this library does not
 *  know, PDX_EINVAL for NULL. */
PDX_EXTERN int pdx_work_init(pdx_work *w, unsigned int version);

/* ------------------------------------------------------------------------ */
/* Index handles                                                            */
/* ------------------------------------------------------------------------ */

typedef struct pdx_index pdx_index;

/** Open for searching only.  The index must exist. */
#define PDX_OPEN_READ 0u
/** Open for writing; takes the index's single-writer lock. */
#define PDX_OPEN_WRITE 1u
/** With PDX_OPEN_WRITE: create the index if the path does not exist. */
#define PDX_OPEN_CREATE 2u
/** With PDX_OPEN_WRITE: commits do not wait for the disk (no fsync;
 *  Xapian's DB_NO_SYNC) and write changed blocks in place (Xapian's
 *  DB_DANGEROUS: no earlier revision is kept).  For an index that nobody
 *  opens, even to read, until it is whole (one built beside another and
 *  then renamed into its place): after a crash or power loss it may be
 *  damaged, so the builder syncs its files and the directory itself
 *  (fsync) before anyone may open it; and after any failed call on the handle other
 *  than PDX_EINVAL for a work it refused, the index must be thrown away
 *  and built again (Xapian cannot undo a change written in place). */
#define PDX_OPEN_NOSYNC 4u
/** With PDX_OPEN_WRITE: also open an index of an older layout (one this
 *  version cannot search), only to hold its writer lock while a new index
 *  is built beside it and swapped in (`paperdex index` does this once
 *  when it meets an index of an older layout).  On such a handle pdx_put
 *  and pdx_delete fail with PDX_EVERSION;
 *  pdx_index_layout() says which layout it is.  An index of a newer
 *  layout is still refused. */
#define PDX_OPEN_UPGRADE 8u
/** With PDX_OPEN_WRITE: the handle keeps one more thread, which turns each
 *  new work into its document (folding, term generation, stemming) while
 *  the caller's thread writes the previous ones: faster indexing where a
 *  core is free (`paperdex index` uses it when it runs one job on a
 *  machine with two cores or more).  Nothing else changes: the handle is
 *  still used by one thread at a time, the index is the one the same
 *  calls make without it, and every call sees every earlier pdx_put.
 *  Only an error writing a work (the disk, Xapian) may then be reported
 *  by a later call on the handle instead of that work's pdx_put, its
 *  message naming the work; the works after it are not written. */
#define PDX_OPEN_BUILDER 16u
/** With PDX_OPEN_WRITE, creating an index (or opening an empty one):
 *  keep its word positions in Xapian's own position table, as layout 6
 *  did, instead of in paperdex's positions value (common/layout.h).
 *  Such an index is larger and slower to build (the arXiv 101k: 444
 *  against 314 MB), but phrase search in it works through Xapian's
 *  remote backend: a shard served by xapian-tcpsrv needs it for quoted
 *  phrases, NEAR and ADJ, because the remote backend cannot run
 *  paperdex's own phrase matcher.  An index keeps the way it was
 *  created, also when pdx_sync() rebuilds it (full, jobs); the flag is
 *  ignored when opening an index that has works. */
#define PDX_OPEN_XAPIAN_POSITIONS 32u

/**
 * Open the index at `path`.
 *
 * On success *out is a new handle owned by the caller (pdx_close()).  On
 * failure *out is still set to a handle, unless memory ran out, so that
 * pdx_errmsg(*out) can say why; the caller closes it either way.
 *
 * Returns 0, or:
 *  PDX_ENOTFOUND  path does not exist (and PDX_OPEN_CREATE not given);
 *  PDX_ELOCKED    PDX_OPEN_WRITE and another writer holds the lock;
 *  PDX_ENOTINDEX  path exists but is not a paperdex index (a non-empty
 *                 directory of other files, or a Xapian database that
 *                 paperdex did not create) -- it is never written to;
 *  PDX_EVERSION   a paperdex index of an unknown layout version;
 *  PDX_ECORRUPT   a damaged index.
 */
PDX_EXTERN int pdx_open(pdx_index **out, const char *path, unsigned flags);

/**
 * Open several indexes, read-only, as one: a search ranks across all of
 * them with global BM25 statistics (document frequencies and lengths
 * summed over the shards), so its results equal those of one index built
 * from all their works -- provided no work is in two shards.
 *
 * Each path is an index directory or "tcp://HOST:PORT", an index served by
 * Xapian's remote backend (`xapian-tcpsrv --port PORT --interface HOST
 * DIR`); pdx_open() accepts that form too.  Facet counts work over remote
 * shards as over local ones (each server counts its own matches).  The
 * ownership of *out and
 * the error codes are those of pdx_open(), plus PDX_EIO when a remote
 * shard cannot be reached.
 */
PDX_EXTERN int pdx_open_shards(pdx_index **out, const char *const *paths,
                               size_t n);

/**
 * Write what ix reads -- one index, or several opened with
 * pdx_open_shards() -- to `dest` as one compacted index (Xapian's
 * compactor: full blocks, no free space; several shards are merged and
 * their works renumbered).  dest must not exist.  Metadata, the sources'
 * fingerprints included, is carried over (for a key in several shards,
 * the first shard's value; but the layout is the newest of the shards',
 * so that an older version leaves the works of a newer layout alone, and
 * the year terms' stamp is kept only when every shard has it).
 * Remote shards cannot be compacted
 * (PDX_EINVAL).  Returns 0, PDX_EEXIST-like PDX_EINVAL when dest exists,
 * or PDX_EIO.
 */
PDX_EXTERN int pdx_compact(pdx_index *ix, const char *dest);


/**
 * What a failure Xapian 1.4 cannot survive ends in.  A write that fails
 * inside a commit (a full disk, a file size limit) can fail again while
 * Xapian cleans up after it: its glass backend merges value streams with
 * an object whose destructor writes (Glass::ValueUpdater), and C++ then
 * calls std::terminate, which aborts the process with a core dump.  After
 * this call such an end prints "PROG: index I/O error: MESSAGE ..." on
 * stderr instead (MESSAGE is Xapian's, naming the system's error) and
 * exits with `status`; the index keeps its last commit, as after a crash,
 * and the lock goes with the process.  Process-wide (std::set_terminate):
 * for programs, not libraries; the paperdex command calls it.  `prog` is
 * borrowed and must outlive the process's use of it (argv[0] will do).
 */
PDX_EXTERN void pdx_exit_on_fatal(const char *prog, int status);

/** The layout version of the open index (PDX_LAYOUT_VERSION; or a layout
 *  from PDX_LAYOUT_COMPATIBLE up, for such an index opened read-only; or
 *  an older layout opened with PDX_OPEN_UPGRADE), or 0 if ix is not
 *  open. */
PDX_EXTERN int pdx_index_layout(const pdx_index *ix);


/** Close the handle.  A writer's uncommitted changes are committed first;
 *  call pdx_commit() yourself to see whether that succeeded.  NULL is fine. */
PDX_EXTERN void pdx_close(pdx_index *ix);

/** The message of the last failure on `ix`, or "" if none.  Borrowed: valid
 *  until the next call on `ix`.  pdx_errmsg(NULL) returns a fixed text. */
PDX_EXTERN const char *pdx_errmsg(const pdx_index *ix);

/** The code of the last failure on `ix` (0 if none).  For NULL, which is
 *  what pdx_open() leaves in *out only when it could not allocate the
 *  handle, PDX_ENOMEM. */
PDX_EXTERN int pdx_errcode(const pdx_index *ix);

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */
/* ------------------------------------------------------------------------ */

/**
 * Add the record `w` to the work it belongs to, or as a new work.  The
 * record is copied; the caller keeps ownership of `w`.  The change becomes
 * visible to searchers at the next pdx_commit().
 *
 * Merging: `w` joins every indexed work it matches -- by arXiv id, else
 * DOI, else the ids the sources gave, else the folded title, else the
 * folded abstract (the first rule both sides can answer decides) -- and
 * the work shows the fullest value of each field across its records.  A
 * record from the same place (w->source and w->source_line), or, for
 * records without a source, with the same id, replaces its earlier
 * version.  So putting a work with an id already indexed replaces it.
 *
 * The record is validated first (UTF-8, id length and characters, a title or
 * an abstract, year and date syntax); a bad record gives PDX_EINVAL and
 * leaves the uncommitted batch intact.  Words longer than 64 bytes are not
 * indexed, and no term longer than Xapian's limit is ever generated, so one
 * odd record can never discard the batch.
 */
PDX_EXTERN int pdx_put(pdx_index *ix, const pdx_work *w);

/** Delete the work known by this id (as pdx_get() finds it: its own id,
 *  an id any of its sources gave, or its arXiv id), with all its sources.
 *  Deleting an id that is not indexed is not an error (returns 0). */
PDX_EXTERN int pdx_delete(pdx_index *ix, const char *id);

/** Make every change since the last commit durable and visible, atomically.
 *  On failure (PDX_EIO for a full disk) the index keeps its last commit. */
PDX_EXTERN int pdx_commit(pdx_index *ix);

/* ------------------------------------------------------------------------ */
/* Sources: what a re-run needs to update only what changed                 */
/* ------------------------------------------------------------------------ */

#define PDX_SOURCE_VERSION 1

/** The fingerprint of one source file, kept in the index. */
typedef struct pdx_source {
    unsigned int version; /**< PDX_SOURCE_VERSION                          */
    const char *path;     /**< as the records name it (pdx_work.source)    */
    uint64_t size;        /**< bytes                                       */
    int64_t mtime_ns;     /**< modification time, ns since the epoch       */
    uint64_t hash;        /**< a hash of the content, the caller's choice  */
    uint64_t records;     /**< records read from it (bad ones included)    */
} pdx_source;

#ifndef __cplusplus
#define PDX_SOURCE_INIT {.version = PDX_SOURCE_VERSION}
#else
#define PDX_SOURCE_INIT PDX_INIT_(pdx_source, pdx_v_.version = PDX_SOURCE_VERSION)
#endif

/** As pdx_work_init(), for a fingerprint. */
PDX_EXTERN int pdx_source_init(pdx_source *s, unsigned int version);

/** mtime_ns of a provisional fingerprint: the source is being read, and
 *  the index may hold only part of its records. */
#define PDX_SOURCE_INCOMPLETE (-1)

/** The fingerprint stored for `path`: 0, or PDX_ENOTFOUND (no message)
 *  when none is.  out->path is borrowed from ix until the next call. */
PDX_EXTERN int pdx_source_get(pdx_source *out, pdx_index *ix,
                              const char *path);

/** Store (replace) the fingerprint of s->path.  It becomes durable with the
 *  next pdx_commit(), together with the records put before it. */
PDX_EXTERN int pdx_source_set(pdx_index *ix, const pdx_source *s);


/** Call fn for every stored fingerprint, in no particular order; `s` and
 *  its path are borrowed for the call.  A nonzero return from fn stops the
 *  walk and is returned. */
typedef int (*pdx_source_fn)(void *ctx, const pdx_source *s);
PDX_EXTERN int pdx_source_foreach(pdx_index *ix, pdx_source_fn fn,
                                  void *ctx);



/* ------------------------------------------------------------------------ */
/* Searching                                                                */
/* ------------------------------------------------------------------------ */

#define PDX_QUERY_VERSION 8

/** Default BM25 parameters, chosen by the sweep in bench/RESULTS.md
 *  (bench/eval.py): of k1 in {0.6..2.0} x b in {0.3..0.9}, k1=1.2, b=0.6
 *  is the best balance of CACM (MAP) and SciFact (nDCG@10) -- the best
 *  point for CACM and within 0.007 of SciFact's best.  Abstracts of very
 *  uneven length want more normalisation than Xapian's own b=0.5, but
 *  less than Lucene's 0.75. */
#define PDX_DEFAULT_K1 1.2
#define PDX_DEFAULT_B 0.6
/** Parse a year filter as the CLI and the query syntax (`year:`) write
 *  it: "2020", "2019..2021", "2019.." or "..2021" (4-digit years, the
 *  first not after the second); "2019-2021" and "2019–2021" (an en
 *  dash) are "2019..2021", ">=2019" and ">2018" are "2019..", "<=2021"
 *  and "<2022" are "..2021".  Sets *lo and *hi (0 for an open end);
 *  returns 0, or -1 for anything else. */
PDX_EXTERN int pdx_parse_year_range(const char *s, int *lo, int *hi);

/** Most distinct terms a query is searched with (Lucene's default clause
 *  limit).  A pasted abstract (100-200 words) is well within it.  A longer
 *  query of words joined by OR (the default) is searched with its most
 *  informative words, the rarest in the index, and pdx_results_note() says
 *  so; a longer query of any other shape is refused (PDX_EINVAL).  And how
 *  many index terms one trailing wildcard (`optim*`) may expand to: the
 *  most frequent. */
#define PDX_MAX_QUERY_TERMS 1024
/* At 10,000 no pattern of two letters or more was cut on the arXiv
 * 101k (bench/wildcards.cc; bench/RESULTS.md, "Wildcards"); one that is
 * gets a note (pdx_results_note). */
#define PDX_WILDCARD_MAX 10000

/** Default page size, and the largest page one call returns. */
#define PDX_DEFAULT_LIMIT 10
#define PDX_MAX_LIMIT 10000
/** Longest query string accepted, in bytes: a whole abstract or two. */
#define PDX_MAX_QUERY_BYTES 32768

typedef enum pdx_sort {
    PDX_SORT_AUTO = 0,   /**< relevance, or newest when the text is empty */
    PDX_SORT_RELEVANCE,  /**< BM25 score, ties by id ascending            */
    PDX_SORT_NEWEST,     /**< date descending, ties by id descending      */
    PDX_SORT_OLDEST      /**< date ascending, ties by id ascending        */
} pdx_sort;
/* Sorted by date, the query's words that no operator joins are AND-ed
 * (every one must hold), unless the text is read as plain words
 * (pdx_query.syntax): nothing ranks the works that hold only one common
 * word of several below the rest. */

/**
 * A search.  Initialise with PDX_QUERY_INIT.  Pointers are borrowed for the
 * duration of pdx_search() only.
 *
 * Filters: every non-empty filter must hold (AND).  Within one filter the
 * values are alternatives (OR), unless filters_all is set: then each value
 * must hold (a work in cs.CV and in cs.LG), as a facet click narrows.
 * Either way one value may list alternatives separated by '|'
 * ("cs.CV|cs.LG", "Z. Wu|Zhihua Wu").
 *
 *  - year_min / year_max: inclusive; 0 leaves that end open.  Works with an
 *    unknown year never pass a year filter.
 *  - categories: "cs.CV" matches that category; a bare archive "cs" matches
 *    all of cs.*; a bare cs subject code as on profile pages ("CV", "LG")
 *    means "cs.CV"; arXiv's name of a category ("Machine Learning")
 *    matches its code, or both codes of a name two share (cs.LG, stat.ML),
 *    beside a category spelt so.  Matching ignores case.
 *  - authors: "Zhihua Wu", "Wu, Zhihua", "Z. Wu", "wu, z" all name the same
 *    person; case and accents are ignored.  A full given name matches that
 *    given name or a bare initial; an initial matches every given name with
 *    that initial; a family name alone matches the family name.
 *
 * An empty `text` with at least one filter lists the filtered works
 * (newest first by default).  An empty text and no filter is PDX_EINVAL.
 */
typedef struct pdx_query {
    unsigned int version;   /**< PDX_QUERY_VERSION                         */
    const char *text;       /**< query string; NULL or "" for filters only */
    int year_min, year_max; /**< inclusive; 0 = open                       */
    const char *const *categories;
    size_t n_categories;
    const char *const *authors;
    size_t n_authors;
    double k1;              /**< BM25 k1 >= 0; negative = PDX_DEFAULT_K1   */
    double b;               /**< BM25 b in [0,1]; negative = PDX_DEFAULT_B */
    size_t offset;          /**< hits to skip                              */
    size_t limit;           /**< hits to return, 0..PDX_MAX_LIMIT          */
    pdx_sort sort;
    int exact_total;        /**< nonzero: count every match, so that
                                 pdx_results_total() is exact however
                                 many there are (count_limit is then
                                 ignored; one full pass, slower)        */
    int all;                /**< nonzero: an empty text with no filter
                                 lists every work instead of failing     */
    size_t snippet_bytes;   /**< about how long each hit's snippet is;
                                 0 = no snippets                          */
    int explain;            /**< nonzero: each hit's pdx_hit.explain     */
    int no_suggest;         /**< nonzero: no "did you mean"              */
    unsigned facets;        /**< PDX_FACET_* bits: count these over every
                                 match (not just the page)               */
    size_t facet_limit;     /**< most frequent values kept per facet      */
    /* ---- version 2 ---- */
    int lenient;            /**< nonzero: text that does not parse (an
                                 unbalanced parenthesis, a dangling AND) is
                                 read as plain words instead of failing
                                 with PDX_EQUERY -- for questions written in
                                 prose, as in test collections             */
    /** Pseudo-relevance feedback: with expand_docs > 0, the top
     *  expand_docs works of a first ranking are taken as relevant, and the
     *  expand_terms stems that Xapian's Bo1 expansion scheme rates best
     *  for them are added to the query, term t weighted expand_weight *
     *  w(t) / max w (the best one weighs expand_weight times one of the
     *  query's own words).  Filters apply to both rankings.  A query with
     *  required or excluded parts (+x, -x, AND, NOT) keeps its match set;
     *  the added terms only re-rank.  0 / negative = off / the
     *  PDX_DEFAULT_EXPAND_* value. */
    size_t expand_docs;
    size_t expand_terms;    /**< 0 = PDX_DEFAULT_EXPAND_TERMS              */
    double expand_weight;   /**< in (0,1]; <= 0 = PDX_DEFAULT_EXPAND_WEIGHT */
    /** Field boosts: the query's plain words are also matched in the
     *  title alone and in the author names alone, each such BM25 weight
     *  multiplied by these and added to the score (the match set does
     *  not change).  0 = no boost; negative = PDX_DEFAULT_TITLE_WEIGHT /
     *  PDX_DEFAULT_AUTHOR_WEIGHT. */
    double title_weight;
    double author_weight;
    /* ---- version 3 ---- */
    /** A time budget for the whole search, in seconds (0 = none), for a
     *  server that must answer in time.  Its stages (feedback's first
     *  ranking, the ranking, the facets, the count, the author facet's
     *  recount, the suggestion) share it: each gets what the stages
     *  before it left, and at least 1 ms.  Past it the ranking stops
     *  counting past the page (Enquire::set_time_limit), and the ranking
     *  of a query of more than 32 terms or with a wildcard (over local
     *  indexes) ends, its page the best of the works met, with a note;
     *  the facets count the works met so far and say so in the note, and
     *  no suggestion is made. */
    double time_limit;
    /* ---- version 4 ---- */
    /** Subject terms (MeSH headings, OpenAlex topics, BibTeX keywords):
     *  a work passes when one of its subjects is one of these, ignoring
     *  case, accents and punctuation ("Neoplasms", "neoplasms"). */
    const char *const *subjects;
    size_t n_subjects;
    /* ---- version 5 ---- */
    /** How `text` is read (pdx_syntax): PDX_SYNTAX_AUTO (0) reads the query
     *  language, except in prose -- a passage of PDX_PROSE_WORDS words or
     *  more, PDX_PROSE_CAPS_WORDS or more in capitals throughout, AND,
     *  OR, NOT or XOR right after a stop word ("are NOT"), or XOR between
     *  two capitalised words ("Embedded XOR Logic") -- which is read
     *  as plain words, so that a "NOT" or an unbalanced "(" in a pasted
     *  abstract or title is a word; PDX_SYNTAX_QUERY always reads the
     *  query language; PDX_SYNTAX_WORDS always plain words (operators,
     *  +/-, wildcards and parentheses are words; "quoted phrases", field
     *  prefixes and filters still apply).  pdx_results_note says when a
     *  query was read as words.  Outside prose and PDX_SYNTAX_WORDS, a
     *  citation as a text writes it ("Bengio et al. 2025", "Smith and
     *  Jones 2020", "Hinton (2006)") is read as the filters
     *  firstauthor:"Bengio" year:2025 (author: when no work has that
     *  first author there; the words it was, when nothing matches and
     *  it is not a citation alone with "et al."), and a note says so. */
    int syntax;
    /* ---- version 6 ---- */
    /** The ranking (pdx_rank): PDX_RANK_DEFAULT (0) adds to each work's
     *  BM25 score a bonus for the query's neighbouring words that stand
     *  close in its title (in the order written, within
     *  PDX_PROXIMITY_WINDOW words) and title_weight's field boost; PDX_RANK_BM25 is flat BM25 over
     *  the bag of words.  The rank sets the defaults of the weights
     *  below and of title_weight (all 0 under PDX_RANK_BM25); a weight
     *  set (>= 0) is used under either.  The formula is in the README
     *  ("Ranking") and searcher/proximity.cc; explain shows each part. */
    int rank;
    /** The proximity bonus's weight: a pair of neighbouring words
     *  adjacent once in the title adds proximity_weight times the
     *  rarer word's idf.  0 = none; negative = the rank's default. */
    double proximity_weight;
    /* ---- version 7 ---- */
    /** The total is counted exactly up to this many matches (0 =
     *  PDX_DEFAULT_COUNT_LIMIT; at least offset + limit is counted).
     *  Past it pdx_results_total() is count_limit and
     *  pdx_results_total_relation() PDX_TOTAL_GTE: "10,000+ matches", as
     *  Elasticsearch's track_total_hits.  The count is the same on every
     *  page up to count_limit.  Counting stops after 1 s (or time_limit):
     *  the total is then what was counted, PDX_TOTAL_GTE. */
    size_t count_limit;
    /* ---- version 8 ---- */
    /** Nonzero: each value of the categories, authors and subjects
     *  filters must hold (AND), instead of any one (OR); alternatives
     *  are then written in one value, separated by '|'.  The CLI and
     *  `serve` set it: a second --category narrows, as a facet click. */
    int filters_all;
} pdx_query;

/** Matches counted exactly by default (pdx_query.count_limit):
 *  Elasticsearch's default; what counting costs is in bench/RESULTS.md
 *  ("Counts"). */
#define PDX_DEFAULT_COUNT_LIMIT 10000

/** pdx_query.rank. */
typedef enum pdx_rank {
    PDX_RANK_DEFAULT = 0,
    PDX_RANK_BM25 = 1
} pdx_rank;

/** pdx_query.syntax. */
typedef enum pdx_syntax {
    PDX_SYNTAX_AUTO = 0,
    PDX_SYNTAX_QUERY = 1,
    PDX_SYNTAX_WORDS = 2
} pdx_syntax;
/** The prose rule of PDX_SYNTAX_AUTO: this many words or more. */
#define PDX_PROSE_WORDS 30
/** ... or this many or more with no lower-case letter. */
#define PDX_PROSE_CAPS_WORDS 4

/** Feedback defaults (pdx_query.expand_*): of docs {3,5,10,20} x terms
 *  {10,20,40} x weight {0.25,0.5,1}, the best balance of CACM and SciFact
 *  (bench/RESULTS.md, "Relevance"). */
#define PDX_DEFAULT_EXPAND_DOCS 10
#define PDX_DEFAULT_EXPAND_TERMS 10
#define PDX_DEFAULT_EXPAND_WEIGHT 0.25
/** Field boost defaults (pdx_query.title_weight, author_weight), chosen by
 *  the same sweep. */
#define PDX_DEFAULT_TITLE_WEIGHT 0.0
#define PDX_DEFAULT_AUTHOR_WEIGHT 0.0
/** Proximity defaults of PDX_RANK_DEFAULT (pdx_query.proximity_weight)
 *  and the pairs' window in words, chosen by measurement
 *  (bench/RESULTS.md, "Ranking"). */
#define PDX_DEFAULT_PROXIMITY_WEIGHT 0.35
#define PDX_PROXIMITY_WINDOW 3

/** Facets: exact counts of each value over the whole match set.  A work
 *  counts once for each of its categories and authors.  Authors count by
 *  the name as shown; the top facet_limit values are kept, most frequent
 *  first, ties in value order.  Once a handle's faceted searches have met
 *  as many works as its index holds (a single local index, opened for
 *  reading), a thread of the library reads every work's facet values
 *  into memory, and the handles count from them until the next commit:
 *  about 100 bytes a work, shared by the process's handles on that index
 *  and freed with the last of them (a read under way at exit gives up,
 *  and exit waits for it). */
#define PDX_FACET_YEAR 1u
#define PDX_FACET_CATEGORY 2u
#define PDX_FACET_AUTHOR 4u
#define PDX_FACET_SUBJECT 8u
#define PDX_DEFAULT_FACET_LIMIT 10

/** Default snippet length, in bytes: two lines of a terminal. */
#define PDX_DEFAULT_SNIPPET 200

#ifndef __cplusplus
#define PDX_QUERY_INIT {.version = PDX_QUERY_VERSION, .k1 = -1.0, .b = -1.0, \
                        .limit = PDX_DEFAULT_LIMIT,                        \
                        .snippet_bytes = PDX_DEFAULT_SNIPPET,              \
                        .facet_limit = PDX_DEFAULT_FACET_LIMIT,            \
                        .expand_weight = -1.0, .title_weight = -1.0,       \
                        .author_weight = -1.0, .proximity_weight = -1.0}
#else
#define PDX_QUERY_INIT PDX_INIT_(pdx_query, (pdx_v_.version = PDX_QUERY_VERSION, \
    pdx_v_.k1 = -1.0, pdx_v_.b = -1.0, pdx_v_.limit = PDX_DEFAULT_LIMIT,        \
    pdx_v_.snippet_bytes = PDX_DEFAULT_SNIPPET,                                 \
    pdx_v_.facet_limit = PDX_DEFAULT_FACET_LIMIT, pdx_v_.expand_weight = -1.0, \
    pdx_v_.title_weight = -1.0, pdx_v_.author_weight = -1.0,                    \
    pdx_v_.proximity_weight = -1.0))
#endif

/** Set *q to the defaults of PDX_QUERY_INIT for `version` (1 to
 *  PDX_QUERY_VERSION).
 *  0, PDX_EVERSION or PDX_EINVAL. */
PDX_EXTERN int pdx_query_init(pdx_query *q, unsigned int version);

/** One hit.  Every pointer is borrowed from the pdx_results it came from.
 *  The work is reached through a pointer, so that pdx_work may grow (a
 *  new PDX_WORK_VERSION) without moving the fields after it: a program
 *  built against this header keeps reading score and rank where they
 *  are.  New fields are only ever added at the end. */
typedef struct pdx_hit {
    const pdx_work *work; /**< the stored record, decoded; never NULL   */
    double score;      /**< BM25 score (0 when sorted by date only)     */
    size_t rank;       /**< 0-based position in the whole ranking       */
    const char *json;  /**< the stored record as one JSON object        */
    /** The window of the abstract that best matches the query words (a
     *  "…" marks text left out), or NULL: no query words, no abstract, or
     *  snippet_bytes 0.  Matched words -- stems included, so a search for
     *  "networks" marks "network" -- are the byte ranges
     *  [highlights[2i], highlights[2i+1]) for i < n_highlights. */
    const char *snippet;
    const size_t *highlights;
    size_t n_highlights;
    /** With pdx_query.explain and query words: why the work scored what it
     *  did, as one JSON object: "terms" (each query term it holds: "term",
     *  "field" title|abstract|author|text, "word", "stem", "wdf",
     *  "docfreq", "weight"), the length normalisation ("doc_length",
     *  "avg_length", "norm_length" = max(doc/avg, 0.5), "k1", "b",
     *  "length_factor" = k1 * (1 - b + b * norm_length)), "sum" of the
     *  weights, "other" (score - sum: nonzero only for wildcard groups,
     *  which Xapian weighs as one term) and "score".  Else NULL. */
    const char *explain;
    /** With author filters (pdx_query.authors, or `author:` in the
     *  query): author_matched[i] is
     *  nonzero when work->authors[i] is one of the names the filters
     *  matched, by the same rules; else NULL.  So that a program can show
     *  the matched author where it cuts a long author list.  (A field
     *  added at the end: a hit is only ever reached through a pointer.) */
    const unsigned char *author_matched;
    /** With snippets (snippet_bytes and query words): the title's words
     *  that match the query, as byte ranges of work->title,
     *  [title_highlights[2i], title_highlights[2i+1]) for i <
     *  n_title_highlights, marked as the snippet's are; else NULL, 0. */
    const size_t *title_highlights;
    size_t n_title_highlights;
} pdx_hit;

typedef struct pdx_results pdx_results;

/**
 * Run `q` on `ix`.  All the work that can fail (parsing, matching, reading
 * stored records) happens here; the accessors below cannot fail.
 *
 * On success *out is a new, immutable result set owned by the caller
 * (pdx_results_free()); it does not depend on `ix` staying open.
 *
 * Returns 0, or PDX_EQUERY (the message names the position), PDX_EINVAL
 * (bad options, empty query without filters, query too long),
 * PDX_EVERSION, PDX_ECORRUPT, PDX_ENOMEM.
 */
PDX_EXTERN int pdx_search(pdx_results **out, pdx_index *ix,
                          const pdx_query *q);

/**
 * The work known by `id`: its own id, an id any of its sources gave, an
 * arXiv id (with or without version), a DOI, PMID or OpenAlex id in the
 * forms people paste, or a record's key in its file (a BibTeX citation
 * key, a RIS ID; a key two files use finds the work of either).  On success *out is a new result
 * set owned by the caller, with one hit, or none when no work has that id
 * (not an error).  The hit's `json` holds the work with all its sources,
 * each source's own record included when there are several.
 */
PDX_EXTERN int pdx_get(pdx_results **out, pdx_index *ix, const char *id);

/** Terms taken from a work to find works like it (pdx_similar). */
#define PDX_SIMILAR_TERMS 30

/**
 * Works like the one known by `id` (as pdx_get() finds it): Xapian's
 * expand set picks the PDX_SIMILAR_TERMS words and stems of its title and
 * abstract that best tell it from the rest of the index (relevance
 * feedback), and a BM25 query of them ranks the other works; the work
 * itself is left out.  At most `limit` hits (0..PDX_MAX_LIMIT).
 * *out is a new result set owned by the caller.  Returns 0, PDX_ENOTFOUND
 * (no work has that id), PDX_EINVAL.
 */
PDX_EXTERN int pdx_similar(pdx_results **out, pdx_index *ix, const char *id,
                           size_t limit);

/** One facet value and how many matching works have it. */
typedef struct pdx_facet {
    const char *value; /**< "2021", "cs.CV", "Zhihua Wu"; borrowed from r */
    uint64_t count;
} pdx_facet;

/** Number of values kept for one facet (a single PDX_FACET_* bit; 0 if
 *  it was not asked for), and value i of it (NULL past the end). */
PDX_EXTERN size_t pdx_results_facet_count(const pdx_results *r,
                                          unsigned facet);
PDX_EXTERN const pdx_facet *pdx_results_facet(const pdx_results *r,
                                              unsigned facet, size_t i);

/** "Did you mean": the query with each word that the index has in fewer
 *  than two works replaced by a word of the index's own vocabulary one or
 *  two edits away (letters swapped, added, dropped or changed) -- the
 *  fewest edits, then the most works -- when at least two works, and
 *  three times as many as hold the word itself, hold it; NULL when
 *  there is nothing to
 *  suggest or pdx_query.no_suggest was set.  Borrowed from r. */
PDX_EXTERN const char *pdx_results_suggestion(const pdx_results *r);

/** When a search with author filters matched nothing: the author name the
 *  index holds nearest to filter i (pdx_query.authors[i]) -- its family
 *  name within one edit, two for seven letters or more, and its given
 *  name as near, or an initial's given names -- as a work holding it
 *  writes it ("Yann LeCun" for "Yann LeCunn"); NULL when none is near, i
 *  is out of range, or pdx_query.no_suggest was set.  Borrowed from r. */
PDX_EXTERN const char *pdx_results_author_suggestion(const pdx_results *r,
                                                     size_t i);

/** How the query was searched when not quite as written -- "the query
 *  has 1300 distinct terms; it was searched with the 1024 most
 *  informative (the rarest in the index)" -- and the filters no work
 *  passes: a category or subject no work has, with the nearest ones;
 *  when nothing matched, an author no work has and years no work is
 *  from, with the nearest years that have works ("no work is from 2017
 *  (nearest years with works: 2016, 2018)"); notes are joined by "; ".
 *  NULL when there is none.  Borrowed from r. */
PDX_EXTERN const char *pdx_results_note(const pdx_results *r);

/** Number of hits on this page. */
PDX_EXTERN size_t pdx_results_count(const pdx_results *r);
/** Hit i (0 <= i < count), or NULL past the end. */
PDX_EXTERN const pdx_hit *pdx_results_hit(const pdx_results *r, size_t i);
/** The number of matching works: exact when pdx_results_total_relation()
 *  is PDX_TOTAL_EQ; otherwise a lower bound -- pdx_query.count_limit when
 *  more matched, or the works counted before pdx_query.time_limit ran
 *  out -- to be shown as "10,000+". */
PDX_EXTERN size_t pdx_results_total(const pdx_results *r);
/** pdx_results_total_relation(). */
typedef enum pdx_total_relation {
    PDX_TOTAL_EQ = 0,  /**< the total is the number of matches */
    PDX_TOTAL_GTE = 1  /**< at least the total matched           */
} pdx_total_relation;
PDX_EXTERN pdx_total_relation pdx_results_total_relation(const pdx_results *r);
/** Xapian's estimate of the number of matches (equal to the total when it
 *  is exact), and that number's exact bounds (lower == upper when
 *  exact): for a "page 1 of about N" where the total says "10,000+". */
PDX_EXTERN size_t pdx_results_total_estimate(const pdx_results *r);
PDX_EXTERN size_t pdx_results_total_lower(const pdx_results *r);
PDX_EXTERN size_t pdx_results_total_upper(const pdx_results *r);
/** NULL is fine. */
PDX_EXTERN void pdx_results_free(pdx_results *r);

/* ------------------------------------------------------------------------ */
/* Statistics                                                               */
/* ------------------------------------------------------------------------ */

#define PDX_STATS_VERSION 1

typedef struct pdx_stats {
    unsigned int version;   /**< PDX_STATS_VERSION                         */
    uint64_t works;         /**< documents in the index                    */
    uint64_t terms;         /**< distinct terms of every kind              */
    uint64_t postings;      /**< total term occurrences (sum of lengths)   */
    double avg_length;      /**< mean document length, in term occurrences */
    uint64_t bytes;         /**< size of the index files on disk           */
    int64_t last_updated;   /**< unix time of the last pdx_commit, or 0    */
    int layout;             /**< index layout version                      */
    int64_t last_reindex;   /**< unix time of write_mark_reindexed, or 0     */
    uint64_t sources;       /**< stored source fingerprints                */
} pdx_stats;

#ifndef __cplusplus
#define PDX_STATS_INIT {.version = PDX_STATS_VERSION}
#else
#define PDX_STATS_INIT PDX_INIT_(pdx_stats, pdx_v_.version = PDX_STATS_VERSION)
#endif

/** As pdx_work_init(), for statistics. */
PDX_EXTERN int pdx_stats_init(pdx_stats *s, unsigned int version);

/** Fill *out (whose version field the caller set, via PDX_STATS_INIT).
 *  Counting distinct terms walks the term list: linear in the vocabulary. */
PDX_EXTERN int pdx_stats_get(pdx_stats *out, pdx_index *ix);

/** The number of works in the index (pdx_stats.works), in constant time:
 *  what a health check or a progress line needs, without pdx_stats_get's
 *  walk of the vocabulary.  0 or a code (message on ix). */
PDX_EXTERN int pdx_count_works(uint64_t *out, pdx_index *ix);

/* ------------------------------------------------------------------------ */
/* Record readers                                                           */
/* ------------------------------------------------------------------------ */

typedef enum pdx_format {
    PDX_FORMAT_AUTO = 0, /**< JSON lines when the first non-blank byte is
                              '{' (arXiv or own schema, decided per line
                              from its keys), else a profile page whose
                              style is detected from its content        */
    PDX_FORMAT_ARXIV,    /**< arXiv metadata snapshot, JSON lines         */
    PDX_FORMAT_JSONL,    /**< paperdex's own JSON lines (docs/jsonl.md)   */
    PDX_FORMAT_PROFILE,  /**< page: a researcher's "Published work"       */
    PDX_FORMAT_LIST,     /**< page: blocks of header, title, authors,
                              abstract                                  */
    PDX_FORMAT_ABSTRACTS,/**< page: bare "Abstract:" paragraphs           */
    PDX_FORMAT_LISTING,  /**< page: arXiv-style listing entries           */
    PDX_FORMAT_COMPACT,  /**< page: header, title glued to authors,
                              abstract                                  */
    PDX_FORMAT_SMART,    /**< SMART test collection (.I/.T/.A/.W/.B),
                              as CACM; chosen by AUTO when the file
                              starts with ".I"                          */
    PDX_FORMAT_BEIR,     /**< BEIR corpus or queries, JSON lines with
                              "_id" (AUTO decides it per line)          */
    PDX_FORMAT_PUBMED,   /**< MEDLINE/PubMed XML (PubmedArticleSet),
                              baseline and update files; AUTO: an XML
                              file whose root is PubmedArticleSet       */
    PDX_FORMAT_OPENALEX, /**< OpenAlex works, JSON lines or an API page
                              ({"results": [...]}), and the snapshot's
                              merged_ids CSV; AUTO decides per line     */
    PDX_FORMAT_OAI,      /**< arXiv OAI-PMH ListRecords/GetRecord, the
                              arXiv or arXivRaw metadata formats        */
    PDX_FORMAT_BIBTEX,   /**< BibTeX (.bib); AUTO: the file's first
                              non-blank byte is '@' or '%'              */
    PDX_FORMAT_MEDLINE,  /**< PubMed's MEDLINE text format (.nbib, the
                              "PubMed" format of its Save); AUTO: the
                              file opens with "PMID- "                 */
    PDX_FORMAT_RIS,      /**< RIS (.ris: Scopus, Web of Science, EndNote,
                              Zotero); AUTO: the file opens with
                              "TY  - "                                  */
    PDX_FORMAT__COUNT
} pdx_format;

/** Name of a format ("auto", "arxiv", "jsonl", "profile", "list",
 *  "abstracts", "listing", "compact", "smart", "beir", "pubmed", "openalex",
 *  "oai", "bibtex", "medline", "ris"); pdx_format_parse() is its inverse
 *  and returns -1 for an unknown name. */
PDX_EXTERN const char *pdx_format_name(pdx_format f);
PDX_EXTERN int pdx_format_parse(const char *name, pdx_format *out);

#define PDX_READER_OPTIONS_VERSION 1

/** How a file is read.  Initialise with PDX_READER_OPTIONS_INIT. */
typedef struct pdx_reader_options {
    unsigned int version;  /**< PDX_READER_OPTIONS_VERSION                  */
    pdx_format format;     /**< PDX_FORMAT_AUTO, or force one               */
    /** "YYYY-MM-DD": the day a page was saved.  A page date without a year
     *  ("Jun 2") is the latest such day that is not after it.  NULL: the
     *  file's modification time (today, for standard input). */
    const char *page_date;
} pdx_reader_options;

#ifndef __cplusplus
#define PDX_READER_OPTIONS_INIT {.version = PDX_READER_OPTIONS_VERSION, \
                                 .format = PDX_FORMAT_AUTO}
#else
#define PDX_READER_OPTIONS_INIT PDX_INIT_(pdx_reader_options, (pdx_v_.version = PDX_READER_OPTIONS_VERSION, pdx_v_.format = PDX_FORMAT_AUTO))
#endif

/** As pdx_work_init(), for reader options. */
PDX_EXTERN int pdx_reader_options_init(pdx_reader_options *o,
                                       unsigned int version);

/** Largest profile page read (pages are read whole; JSON lines stream). */
#define PDX_MAX_PAGE (16u * 1024u * 1024u)

/** Why pdx_reader_next() skipped a record. */
typedef enum pdx_skip {
    PDX_SKIP_NONE = 0,
    PDX_SKIP_UTF8,      /**< the line is not valid UTF-8                  */
    PDX_SKIP_JSON,      /**< the line is not a JSON object                */
    PDX_SKIP_FIELD,     /**< a field has the wrong type or syntax         */
    PDX_SKIP_EMPTY,     /**< neither title nor abstract                   */
    PDX_SKIP_ID,        /**< no usable id                                 */
    PDX_SKIP_TOOLONG,   /**< the line is longer than PDX_MAX_LINE         */
    PDX_SKIP_PAGE,      /**< a page, or a block of one, that matches no
                             style or breaks off                        */
    PDX_SKIP__COUNT
} pdx_skip;

/** Longest input line read as a record; longer lines are skipped. */
#define PDX_MAX_LINE (16u * 1024u * 1024u)

typedef struct pdx_reader pdx_reader;

/**
 * Open a record stream on `path` ("-" is standard input).  Plain text and
 * gzip are told apart by the bytes, not the name.  JSON lines stream with
 * memory bounded by the longest line, whatever the file's size; a profile
 * page is read whole (at most PDX_MAX_PAGE bytes).  `opts` may be NULL for
 * the defaults.
 *
 * *out is a new reader owned by the caller (pdx_reader_free()); on failure
 * it is still set when possible so that pdx_reader_errmsg() can say why.
 * Returns 0, PDX_ENOTFOUND, PDX_EIO, PDX_EINVAL (bad options), PDX_EVERSION (an
 * options version this library does not know) or
 * PDX_ENOMEM.
 */
PDX_EXTERN int pdx_reader_open(pdx_reader **out, const char *path,
                               const pdx_reader_options *opts);

/** The format actually being read (after detection: a page style, or
 *  PDX_FORMAT_AUTO for JSON lines decided per line).  Valid after the
 *  first pdx_reader_next(). */
PDX_EXTERN pdx_format pdx_reader_format(const pdx_reader *r);

/**
 * Read the next record.
 *
 * Returns 0 and sets *out to a record borrowed from the reader, valid until
 * the next call on it; or
 *  PDX_EINVAL   a bad record was skipped: pdx_reader_errmsg() names
 *               file:line and the reason, pdx_reader_skip() its kind.
 *               Call again to go on with the next record;
 *  PDX_EIO      the stream broke (a truncated .gz, a read error): the
 *               records before it were delivered; stop;
 *  PDX_ITEROVER the end.
 */
PDX_EXTERN int pdx_reader_next(const pdx_work **out, pdx_reader *r);

/** The kind of the last skip. */
PDX_EXTERN pdx_skip pdx_reader_skip(const pdx_reader *r);
/** Constant short name of a skip kind ("invalid UTF-8", ...). */
PDX_EXTERN const char *pdx_skip_name(pdx_skip s);
/** Message of the last failure; borrowed until the next call on r. */
PDX_EXTERN const char *pdx_reader_errmsg(const pdx_reader *r);
/** 1-based number of the line the last record came from. */
PDX_EXTERN uint64_t pdx_reader_line(const pdx_reader *r);
/** Bytes consumed from the underlying file so far (compressed bytes for a
 *  .gz), for progress reports. */
PDX_EXTERN uint64_t pdx_reader_offset(const pdx_reader *r);
/** NULL is fine. */
PDX_EXTERN void pdx_reader_free(pdx_reader *r);

/* ------------------------------------------------------------------------ */
/* Syncing: an index brought up to date with its sources (the cron job)     */
/* ------------------------------------------------------------------------ */

/** What pdx_sync() reports as it goes (pdx_sync_options.progress). */
typedef enum pdx_sync_kind {
    PDX_SYNC_ADD = 1,   /**< a new source is about to be read: path      */
    PDX_SYNC_UPDATE,    /**< a changed source is read again: path        */
    PDX_SYNC_REMOVE,    /**< a vanished source's records leave: path     */
    PDX_SYNC_SKIP,      /**< a bad record was skipped: path, line, skip,
                             message ("file:line: reason")              */
    PDX_SYNC_SOURCE_DONE, /**< a source was read to its end or broke off:
                             path, records (its records, bad included;
                             with several workers, once for a file whose
                             lines they share, by the last one done, or
                             by each for one every worker decodes whole) */
    PDX_SYNC_PROGRESS,  /**< after each record indexed: records (this
                             run's so far), offset and size of the
                             current source in bytes (size 0: unknown);
                             with several workers (jobs), records
                             summed over all, and either (each reading
                             every source) after each record the first
                             one decodes, with its offset, or (each
                             reading whole sources of its own) after
                             each record any indexes, with the bytes
                             read and the size of all the sources     */
    PDX_SYNC_ERROR,     /**< a source could not be read, or broke off
                             (the run goes on), or the run failed:
                             path (or NULL), message                   */
    PDX_SYNC_NOTE,      /**< something worth knowing: message (a work
                             directory a killed run left, removed)     */
    PDX_SYNC_WARNING,   /**< something to look at: message            */
    PDX_SYNC_RECORD_ADD,    /**< a record new to its file was put: path,
                                 line, message (the record's id)        */
    PDX_SYNC_RECORD_UPDATE, /**< a record whose content changed was put
                                 in place of its old version: the same  */
    PDX_SYNC_RECORD_REMOVE, /**< a record gone from its file was taken
                                 out: path, message (its id)            */
    PDX_SYNC_MERGE          /**< several workers (jobs) are done; their
                                 shards are being merged into one index
                                 (a part of the run with no other
                                 report): records, every worker's;
                                 message, how they shared the sources   */
    /* Kinds are only ever added at the end: a progress function ignores
     * the ones it does not know. */
} pdx_sync_kind;

/** One report.  Borrowed for the call; fields are only ever added at the
 *  end (the library allocates it). */
typedef struct pdx_sync_event {
    pdx_sync_kind kind;
    const char *path;     /**< the source, or NULL                      */
    uint64_t line;        /**< SKIP: the record's line                  */
    pdx_skip skip;        /**< SKIP: the reader's reason, or
                               PDX_SKIP_NONE for a record pdx_put refused */
    const char *message;  /**< SKIP, ERROR, NOTE, WARNING, MERGE; else
                               NULL                                     */
    uint64_t records;     /**< PROGRESS, SOURCE_DONE, MERGE             */
    uint64_t offset, size;/**< PROGRESS                                 */
} pdx_sync_event;

/** Called for each report.  With several workers (jobs > 1) it is also
 *  called from the workers' threads, never two calls at once.  Return 0
 *  to go on; nonzero stops the run at the next record, as a failure
 *  (PDX_ERROR, "stopped by the caller"): what was committed stays, and a
 *  rebuild beside the index leaves the index as it was. */
typedef int (*pdx_sync_fn)(void *ctx, const pdx_sync_event *ev);

#define PDX_SYNC_OPTIONS_VERSION 4
/** Records per commit when pdx_sync_options.batch is 0: the best of the
 *  sweep in bench/RESULTS.md (memory grows with it). */
#define PDX_DEFAULT_BATCH 1000
/** Most workers pdx_sync_options.jobs may ask for. */
#define PDX_MAX_JOBS 64

/** How pdx_sync() runs.  Initialise with PDX_SYNC_OPTIONS_INIT or
 *  pdx_sync_options_init(); pointers are borrowed for the call. */
typedef struct pdx_sync_options {
    unsigned int version;   /**< PDX_SYNC_OPTIONS_VERSION                  */
    /** In directories, read only names matching one of these globs
     *  (fnmatch; none: every name), and skip names matching one of the
     *  exclude globs.  Hidden names are always skipped. */
    const char *const *include;
    size_t n_include;
    const char *const *exclude;
    size_t n_exclude;
    pdx_format format;      /**< as pdx_reader_options                   */
    const char *page_date;  /**< as pdx_reader_options                   */
    size_t batch;           /**< records per commit; 0 = the default      */
    /** Nonzero: rebuild from scratch.  The new index is built beside the
     *  old one (in DIR.full-PID) and takes its place in one step when it
     *  is whole; until then readers see the old one, and a failed or
     *  killed run leaves it as it was.  Needs room for both. */
    int full;
    /** With full (and one worker): put an empty index in DIR's place at
     *  once and refill it -- no second copy on disk; readers see the
     *  index refill, and a killed run leaves it part built. */
    int in_place;
    /** Nonzero: report what would change (ADD, UPDATE, REMOVE events and
     *  the summary's counts); change nothing, take no lock. */
    int dry_run;
    /** Workers: 0 or 1 = this thread alone.  N > 1 builds a new index
     *  (the index must be new or empty, or full be set) with N threads,
     *  each putting the records that fall to it (by folded title) into
     *  a shard of its own, every thread reading every source and
     *  decoding every N-th line of JSON lines (a page or an XML file:
     *  all of it), or with sources of like sizes, whole sources of its
     *  own; a record decoded by another thread than its own is handed
     *  over.  The shards are
     *  merged by Xapian's compactor, works split
     *  across shards merged again (write_remerge), and the result takes
     *  the index's place as with full.  Not with "-" or dry_run. */
    unsigned jobs;
    /** Seconds to wait for another writer's lock before PDX_ELOCKED. */
    double wait;
    pdx_sync_fn progress;   /**< reports, or NULL                        */
    void *progress_ctx;
    /** Version 2.  Nonzero: a run that added, changed or removed records
     *  ends by writing a compacted copy of the index beside it (in
     *  DIR.compact-PID, by Xapian's compactor, as pdx_compact) and
     *  putting it in the index's place as full does, under the run's
     *  lock.  A glass index outgrows its compacted size at its first
     *  update, because Xapian copies each block it changes and splits a
     *  full one to insert (the arXiv 101k: 444 MB compacted, 776 MB after
     *  3% of its records changed; 30,000 of its works, 129 MB, 177 MB
     *  after 100 titles edited); this keeps it at the size a fresh
     *  build compacts to, for a compaction each run that changed
     *  something and room for both copies meanwhile.  If the copy cannot
     *  be made, a WARNING says so and the index stays updated and
     *  uncompacted.  Not with in_place; a build with several jobs is
     *  compacted by its merge already. */
    int compact;
    /** Version 3.  Nonzero: an index this run creates (a new one, or a
     *  rebuild: full, jobs, an older layout's) keeps its word positions
     *  in Xapian's own position table (PDX_OPEN_XAPIAN_POSITIONS), which
     *  a shard served by xapian-tcpsrv needs for phrase search.  An
     *  index that has works keeps the way it was made, also when this
     *  run rebuilds it (full, jobs; an index of layout 5 or 6 stamped 7
     *  is rebuilt with positions of its own unless this is set): asking
     *  for this on one made without it, without full, is refused
     *  (PDX_EINVAL). */
    int xapian_positions;
    /** Version 4.  A source named in the call that cannot be found or
     *  read (and one that is not a regular file or a directory) is a
     *  failed source (an ERROR event, sources_failed) and what the index
     *  holds from it is kept, as for a directory that cannot be read.
     *  Nonzero: a named source that is gone (ENOENT) is forgotten
     *  instead, its records taken out as for a file gone from a named
     *  directory read cleanly. */
    int forget_missing;
} pdx_sync_options;

#ifndef __cplusplus
#define PDX_SYNC_OPTIONS_INIT {.version = PDX_SYNC_OPTIONS_VERSION, \
                               .format = PDX_FORMAT_AUTO}
#else
#define PDX_SYNC_OPTIONS_INIT PDX_INIT_(pdx_sync_options, (pdx_v_.version = PDX_SYNC_OPTIONS_VERSION, pdx_v_.format = PDX_FORMAT_AUTO))
#endif

/** As pdx_work_init(), for sync options. */
PDX_EXTERN int pdx_sync_options_init(pdx_sync_options *o,
                                     unsigned int version);

#define PDX_SYNC_SUMMARY_VERSION 2

/** What a pdx_sync() run did.  The caller sets version (with
 *  PDX_SYNC_SUMMARY_INIT or pdx_sync_summary_init()). */
typedef struct pdx_sync_summary {
    unsigned int version;   /**< PDX_SYNC_SUMMARY_VERSION                  */
    /** Nonzero once the index was opened and the options accepted: the
     *  counts below describe the run.  Zero with a nonzero return: the
     *  run never started (bad options, a locked or foreign index). */
    int started;
    uint64_t sources_added, sources_updated, sources_removed,
        sources_unchanged;
    uint64_t records_read;    /**< records met, bad ones included        */
    uint64_t records_indexed; /**< records put (added + updated)         */
    /** Records by what became of them.  A source read before is compared
     *  record by record with what the index holds of it (each record
     *  known by its file, its place -- its own id, else its arXiv id, else
     *  its DOI, else its line -- and a hash of its content): an unchanged record costs reading and
     *  hashing it, nothing in Xapian; a changed one is put in place of
     *  its old version; one gone from the file is taken out.  Every
     *  record of a new source, or of a rebuild, is added. */
    uint64_t records_added, records_updated, records_removed,
        records_unchanged;
    uint64_t records_skipped; /**< bad records (the sum of the two below) */
    /** Bad records by the reader's reason (index: a pdx_skip), room for
     *  16 reasons so that new ones do not move the fields after it. */
    uint64_t skipped[16];
    uint64_t invalid;         /**< records pdx_put refused (PDX_EINVAL)  */
    unsigned sources_failed;  /**< sources that could not be read to
                                   their end (the rest went on)        */
    int kept_old;     /**< a rebuild failed: the index is as it was     */
    int upgraded_from;/**< the index had this older layout and was
                           rebuilt beside itself; 0 otherwise          */
    size_t regrouped; /**< jobs > 1: groups of works merged again       */
    double seconds;   /**< wall-clock time of the run                   */
    char message[1024]; /**< why pdx_sync() failed, or ""               */
    /** Version 2: with pdx_sync_options.compact, the index's bytes on disk
     *  before and after its compaction and the seconds it took (all 0
     *  when it was not compacted). */
    uint64_t compact_before, compact_after;
    double compact_seconds;
} pdx_sync_summary;

#ifndef __cplusplus
#define PDX_SYNC_SUMMARY_INIT {.version = PDX_SYNC_SUMMARY_VERSION}
#else
#define PDX_SYNC_SUMMARY_INIT PDX_INIT_(pdx_sync_summary, pdx_v_.version = PDX_SYNC_SUMMARY_VERSION)
#endif

/** As pdx_work_init(), for a summary. */
PDX_EXTERN int pdx_sync_summary_init(pdx_sync_summary *s,
                                     unsigned int version);

/**
 * Bring the index at `db` (created if needed) up to date with its
 * sources, doing only the work that changed: what `paperdex index` does,
 * and what an embedding program calls from cron or from a thread of its
 * own.
 *
 * The sources are the files named, every file below the directories
 * named, and "-" (standard input, read every time).  The index keeps each
 * source's fingerprint (path, size, mtime, content hash; pdx_source_*).
 * A run:
 *  1. lists the sources now present, in sorted order;
 *  2. takes out the records of every source it remembers under a named
 *     location that is no longer there (write_source_remove);
 *  3. skips a source whose size and mtime are unchanged without opening
 *     it, and one whose content hash is unchanged after reading it;
 *  4. reads a new or changed source: a provisional fingerprint is stored,
 *     then a new source's records are put (merged with other sources'
 *     records); a changed one is compared record by record with what the
 *     index holds of it (each record known by its place -- its identity,
 *     else its line -- and a hash of its content): an unchanged record
 *     costs reading and hashing it, nothing in Xapian, a changed one is
 *     put in place of its old version, a new one added, and after the
 *     whole file was read the records gone from it are taken out, in
 *     batches; its real fingerprint is stored in the same commit as the
 *     last of this.
 * Commits come after each changed source and every `batch` records, so a
 * reader always sees a whole commit, a crash loses at most one batch, and
 * the next run finishes the work; the result equals a fresh build from the
 * same sources.  An index of an older layout is rebuilt beside itself
 * (summary.upgraded_from).  Work directories a killed run left beside the
 * index are removed (NOTE).
 *
 * Opens and closes its own handle on `db`: another handle of the caller's
 * may read the index meanwhile (it follows the rebuilt index across the
 * swap).  *out (whose version the caller set) is filled in either way.
 *
 * Returns 0 when the run finished, even if some records were bad or some
 * sources could not be read (counted in *out, each reported by an event);
 * or, with out->message saying why: PDX_EINVAL (bad options, a usage the
 * run refuses; out->started is 0), PDX_ELOCKED (another writer held the
 * lock past `wait`), PDX_EVERSION, PDX_ENOTINDEX, PDX_EIO (a full disk:
 * what was committed stays; a rebuild leaves the index as it was),
 * PDX_ERROR.
 */
PDX_EXTERN int pdx_sync(pdx_sync_summary *out, const char *db,
                        const char *const *sources, size_t n_sources,
                        const pdx_sync_options *opts);

#ifdef __cplusplus
}
#endif

#endif /* PAPERDEX_H */
