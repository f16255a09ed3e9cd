/*
 * read_side.hh -- what the read side's C++ files share, private to
 * searcher/: the objects a handle keeps for reading (Reader: its query
 * parsers, its Enquire, its sort orders, its lengths array), a hit as
 * the match hands it on, and the functions each file offers the others.
 *
 *   query_parse.cc  the query language and the filters
 *   hit_text.cc     explain and snippets
 *   suggest.cc      "did you mean"
 *   shim_read.cc    searching, facets, feedback, similar, statistics
 */
#ifndef PDX_READ_SIDE_HH
#define PDX_READ_SIDE_HH

#include <xapian.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../common/shim_db.hh"
#include "bm25.hh"
#include "facet_columns.hh"
#include "shim_read.h"

/* A field value that is not understood is reported by parse_query() after
 * Xapian's parser has returned: an exception thrown through the parser
 * from a FieldProcessor leaks the parser's state (found by fuzzing). */
struct FieldError {
    std::string msg;
    bool out_of_memory = false;
};

/* The read side's objects on a handle: the query parsers and the one
 * Enquire, over the handle's current database. */
struct Reader : pdxshim::Side {
    Xapian::QueryParser qp;
    std::unique_ptr<Xapian::Enquire> enq; /* made at the first search */
    Xapian::MultiValueKeyMaker newest, oldest; /* the date sort orders */
    /* Plain words of a query again, in the title (S) and author (A)
     * fields alone: the field boosts of pdx_query. */
    Xapian::QueryParser qp_title, qp_author;
    /* The words of a quoted passage as written: no stemmer, no stop
     * words (query_parse.cc, "Words as written"). */
    Xapian::QueryParser qp_forms;
    FieldError field_error; /* set by the field processors during a parse */
    std::vector<std::string> author_values; /* the last parse's author: */
    /* the last parse read a firstauthor: as author: (an index without
     * the first authors' keys) */
    bool first_author_unknown = false;
    /* the last parse's year: ranges (0: open), as YearField read them */
    std::vector<std::pair<int, int>> year_values;
    std::vector<std::string> subject_values; /* and its subject: values */
    /* The paths of the index's source files (shim_source_paths), as of
     * revision paths_rev of a single database (~0: not kept). */
    std::vector<std::string> paths;
    Xapian::rev paths_rev = ~Xapian::rev(0);
    /* The works' lengths, once the handle's queries have scored enough
     * postings to pay for reading them (searcher/bm25.cc). */
    pdxshim::LengthCache lengths;
    /* The facet values of every work, once the handle's faceted matches
     * have met enough works to pay for reading them
     * (searcher/facet_columns.cc). */
    pdxshim::ColumnCache columns;
    /* FLAG_CJK_NGRAM when the index reads CJK in n-grams, else 0: or-ed
     * into every parse's flags */
    unsigned cjk_flag = 0;
    /* Other handles on the one local index, opened at the first query
     * that asks (cursor_dbs() in shim_read.cc): the proximity bonus's
     * word cursors read through them. */
    std::vector<Xapian::Database> cursor_dbs;
    std::vector<pdxshim::shard_id> cursor_ids; /* the directories they are */
    unsigned long searches = 0; /* run_search()es begun */
    /* The one that took them, while it has not ended (0: none). */
    unsigned long cursor_dbs_search = 0;

    explicit Reader(shim_db *h); /* query_parse.cc */
};

/* The handle's Reader, made at its first use. */
Reader &reader(shim_db *h);

struct shim_hit {
    double score;
    std::string data, explain;
};

/* A word of free text, as snippets and suggestions see it: a run of word
 * characters, a '.' or ',' between digits ("3.0") and an apostrophe
 * between letters ("don't") included, as the TermGenerator joins them. */
struct Word {
    size_t start, end; /* bytes [start, end) of the text */
};

namespace pdxshim {
struct ProximityQuery;
}

/* A score's parts, as run_search composed it: the parsed query, its
 * field boosts (empty queries when off) and the proximity bonus (or
 * NULL). */
struct ScoreParts {
    Xapian::Query query, title, author;
    double title_weight = 0, author_weight = 0, k1 = 0, b = 0;
    std::shared_ptr<const pdxshim::ProximityQuery> proximity; /* or null */
};

/* hit_text.cc */
std::string explain_hit(shim_db *h, const ScoreParts &parts, Xapian::docid did, double score);
std::string fold_word(const std::string &w);
std::string make_snippet(shim_db *h, const std::string &text, const std::map<std::string, double> &weight, size_t bytes);
/* All of text, the words whose stems are among weight's between
 * SHIM_HI_START and SHIM_HI_END (a title's matched words). */
std::string mark_words(shim_db *h, const std::string &text, const std::map<std::string, double> &weight);
std::map<std::string, double> snippet_weights(shim_db *h, const Xapian::Query &q);
std::vector<Word> words_of(const std::string &text);
/* The length of the suffix of one to three '+' or '#' that text holds at
 * `at`, right after a word, when no word character follows it: the word
 * is then indexed with it, as TermGenerator reads "C++" and "C#"
 * (indexer/text_terms.cc); else 0. */
/* Is text[at] a star that neither a word character (Unicode's, as
 * TermGenerator reads it) nor another star follows: the star of "A*" as
 * the index reads it (TextTerms::stars)? */
bool star_ends_word(const std::string &text, size_t at);
size_t word_suffix(const std::string &text, size_t at);

/* query_parse.cc */
bool all_local(shim_db *h);
/* q's filters as one query (empty for none); with by_value (not null),
 * whether its year filter is a range of SLOT_YEAR's values. */
Xapian::Query build_filter(shim_db *h, const shim_query *q,
                           bool *by_value = nullptr);
/* The works from the years [lo, hi] (0: that end open; not both): the
 * OR of the years' XY terms that some work holds, in an index whose works
 * hold them (h->year_terms), else a range of SLOT_YEAR's values (then
 * *by_value, when given, is set). */
Xapian::Query year_range_query(shim_db *h, int lo, int hi,
                               bool *by_value = nullptr);
/* The query of an author filter `name` (--author, author=, author:), by
 * the index's name rules: the works a click on that name gives.  0 with
 * the query in out; -1 out of memory; -2 when the name has no family
 * name. */
int author_name_query(shim_db *h, const std::string &name, Xapian::Query &out);
Xapian::Query every_work();
bool is_plain_term(const std::string &t);
/* s with the e of each ae, oe and ue left out: the plain vowels a word
 * transliterating umlauts is searched with too ("schroeding" ->
 * "schroding", query_parse.cc "Variants"). */
std::string plain_vowels(const std::string &s);
std::string lower_words(const std::string &text);
/* Whether t is a stem some work's compound was joined into
 * (LAYOUT_JOINED_KEY) in db, given when the index joins compounds (NULL:
 * it does not). */
bool joined_stem(const Xapian::Database *db, const std::string &t);
/* Starred letters (searcher/query_parse.cc): text with each letter
 * written alone with a star ("A*") written as a word Xapian's parser and
 * TermGenerator keep whole; unmark() makes such a term (a prefix, then
 * the word) the letter and its star again ("a*"), and a pair of letters
 * join_acronyms() marked the pair with its dot again ("u.s"), and leaves
 * any other term as it is. */
std::string star_words(const std::string &text);
std::string unmark(const std::string &t);
/* q with each such term unmark()'d, through the nodes that combine
 * their subqueries, synonyms, phrases and NEAR. */
Xapian::Query unmark_terms(const Xapian::Query &q);
/* text as Xapian's parser or TermGenerator is to read it for h, as
 * parse_query() reads it: letters written with dots between them joined
 * ("i.i.d." iid) or, two of them, marked ("U.S.": unmark() makes the
 * term u.s), and starred letters marked (star_words). */
std::string parser_text(const shim_db *h, const std::string &text);
/* phrases (when not null) gets the stems of each phrase, NEAR or ADJ of
 * the default field, in order.  all_words: words not joined by an
 * operator are AND-ed, not OR-ed (a date sort's list). */
Xapian::Query parse_query(shim_db *h, const std::string &raw, bool lenient, std::string &note, pdxshim::PhraseFilter *hoist, bool words = false, bool compounds_as_words = false, std::vector<std::vector<std::string>> *phrases = nullptr, bool all_words = false);
void scored_terms(const Xapian::Query &q, std::map<std::string, Xapian::termcount> &wqf, std::map<std::string, Xapian::termcount> *in_abstract = nullptr);

/* suggest.cc */
std::string suggest(shim_db *h, const std::string &raw, double seconds);
/* The title and abstract of a stored work's record (stored_record's
 * JSON), a space after each, or "". */
std::string stored_text(const std::string &data);
/* "no work has category cs.xx (nearest: cs.CV, cs.CY)" for each category
 * term of q that no work holds (a misspelt --category or category:), the
 * nearest by edit distance among the index's categories, as the works
 * write them; "" when every category of q is held. */
std::string missing_categories(shim_db *h, const Xapian::Query &q);
/* For a search that matched nothing: a note naming each author and year
 * filter that no work passes even alone, from the flags (q) and from the
 * last parse's author: and year: values ("no work has author \"Zzyzx
 * Q\""; "no work is from 2019 (nearest years with works: 2018, 2021)");
 * "" when every one passes some work.  A match each, over the filter
 * alone, stopped at its first work. */
std::string empty_filters(shim_db *h, const shim_query *q);
/* "no work has subject \"Malarai\" (nearest: Malaria)" for each subject
 * term of q no work holds, named as the filter gave it (sq's subject
 * names, the last parse's subject: values), the nearest three by edit
 * distance of their keys as the works write them; "" when every subject
 * of q is held. */
std::string missing_subjects(shim_db *h, const Xapian::Query &q,
                             const shim_query *sq);

#endif
