/*
 * shim_read.cc -- the read side's Xapian code: the query language
 * (parsing, field processors, phrases rewritten for the fields), filters,
 * BM25 ranking and sort orders, facets, explain, snippets, "did you
 * mean", pseudo-relevance feedback (Bo1), similar works and statistics.
 * Behind searcher/shim_read.h; the exception fence and the handle are
 * common/shim.cc's, the layout common/layout.h's.
 */
#include <xapian.h>

#include <cjson/cJSON.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "../common/shim_db.hh"
#include "qscan.h"
#include "bm25.hh"
#include "shim_read.h"
extern "C" {
#include "../common/text.h"
}

using namespace pdxshim;

namespace {

const char *const LAYOUT_KEY = LAYOUT_META_LAYOUT;
const char *const UPDATED_KEY = LAYOUT_META_UPDATED;

/* An author filter key as a query: the family name's XAL term, the full
 * name's XAF term, and for "family i" every XAF term it begins (the full
 * names of that initial, and "family i" itself where only initials are
 * known).  Layout 4's XAI<family i> held the same works; layout 5 does
 * not write it, and an index of layout 4 has the XAF terms too. */
Xapian::Query author_query(const shim_author_key &k)
{
    const std::string key = cut_key(k.key);
    switch (k.kind) {
    case SHIM_AUTHOR_FAMILY: return Xapian::Query(LAYOUT_P_AUTHOR_FAMILY + key);
    case SHIM_AUTHOR_INITIAL:
        return Xapian::Query(Xapian::Query::OP_WILDCARD,
                             LAYOUT_P_AUTHOR_FULL + key, 0,
                             Xapian::Query::WILDCARD_LIMIT_ERROR,
                             Xapian::Query::OP_OR);
    default: return Xapian::Query(LAYOUT_P_AUTHOR_FULL + key);
    }
}

/* A field value that is not understood is reported by parse() after
 * Xapian's parser has returned: an exception thrown through the parser
 * from a FieldProcessor leaks the parser's state (found by fuzzing). */
struct FieldError {
    std::string msg;
};

/* `category:cs.CV`, `category:cs`, `category:CV`: the same key as the
 * --category flag (text_category_key, the one rule). */
struct CategoryField : public Xapian::FieldProcessor {
    FieldError *err;
    explicit CategoryField(FieldError *e) : err(e) {}
    Xapian::Query operator()(const std::string &value) override
    {
        char key[128];
        if (text_category_key(value.c_str(), key, sizeof key)) {
            if (err->msg.empty())
                err->msg = "category:" + value +
                           " is not a category (cs.CV, cs or CV)";
            return Xapian::Query::MatchNothing;
        }
        return Xapian::Query(std::string(LAYOUT_P_CATEGORY) + key);
    }
};

/* `subject:Neoplasms`, `subject:"Drug Therapy"`: a whole subject term,
 * folded as the index folds it. */
struct SubjectField : public Xapian::FieldProcessor {
    FieldError *err;
    explicit SubjectField(FieldError *e) : err(e) {}
    Xapian::Query operator()(const std::string &value) override
    {
        arena a = {};
        char *k = text_fold(&a, value.data(), value.size());
        std::string key = k ? k : "";
        arena_free(&a);
        if (key.empty()) {
            if (err->msg.empty())
                err->msg = "subject:" + value + " names no subject";
            return Xapian::Query::MatchNothing;
        }
        return Xapian::Query(LAYOUT_P_SUBJECT + cut_key(key.c_str()));
    }
};

/* `year:2020`, `year:2019..2021`, `year:2019..`, `year:..2021`. */
struct YearField : public Xapian::FieldProcessor {
    FieldError *err;
    explicit YearField(FieldError *e) : err(e) {}
    Xapian::Query operator()(const std::string &value) override
    {
        int lo, hi;
        if (pdx_parse_year_range(value.c_str(), &lo, &hi)) {
            if (err->msg.empty())
                err->msg = "year:" + value + " is not a year or a range "
                           "(2020, 2019..2021, 2019.., ..2021)";
            return Xapian::Query::MatchNothing;
        }
        if (lo && hi)
            return Xapian::Query(Xapian::Query::OP_VALUE_RANGE, SLOT_YEAR,
                                 Xapian::sortable_serialise(lo),
                                 Xapian::sortable_serialise(hi));
        if (lo)
            return Xapian::Query(Xapian::Query::OP_VALUE_GE, SLOT_YEAR,
                                 Xapian::sortable_serialise(lo));
        return Xapian::Query(Xapian::Query::OP_VALUE_LE, SLOT_YEAR,
                             Xapian::sortable_serialise(hi));
    }
};


/* The read side's objects on a handle: the query parsers and the one
 * Enquire, over the handle's current database. */
struct Reader : Side {
    Xapian::QueryParser qp;
    std::unique_ptr<Xapian::Enquire> enq; /* made at the first search */
    Xapian::MultiValueKeyMaker newest, oldest; /* the date sort orders */
    /* Plain words of a query again, in the title (S) and author (A)
     * fields alone: the field boosts of pdx_query. */
    Xapian::QueryParser qp_title, qp_author;
    FieldError field_error; /* set by the field processors during a parse */
    /* The works' lengths, once the handle's queries have scored enough
     * postings to pay for reading them (searcher/bm25.cc). */
    LengthCache lengths;

    explicit Reader(shim_db *h)
    {
        qp.set_database(h->db);
        qp.set_stemmer(h->stem);
        qp.set_stemming_strategy(Xapian::QueryParser::STEM_ALL);
        qp.set_default_op(Xapian::Query::OP_OR);
        qp.set_stopper(&h->stopper);
        qp.add_prefix("title", LAYOUT_P_TITLE);
        qp.add_prefix("abstract", LAYOUT_P_ABSTRACT);
        qp.add_prefix("author", LAYOUT_P_AUTHOR);
        /* Filters, exactly as the flags: several category: OR, and
         * category: ANDs with year: (different boolean prefixes). */
        qp.add_boolean_prefix("category",
                              (new CategoryField(&field_error))->release());
        qp.add_boolean_prefix("year", (new YearField(&field_error))->release());
        qp.add_boolean_prefix("subject",
                              (new SubjectField(&field_error))->release());
        qp.set_max_expansion(PDX_WILDCARD_MAX,
                             Xapian::Query::WILDCARD_LIMIT_MOST_FREQUENT);
        newest.add_value(SLOT_DATE, true); /* undated last */
        newest.add_value(SLOT_ID, false);
        oldest.add_value(SLOT_DATE, false, "99999999"); /* undated last */
        oldest.add_value(SLOT_ID, false);
        Xapian::QueryParser *fields[] = {&qp_title, &qp_author};
        const char *prefixes[] = {LAYOUT_P_TITLE, LAYOUT_P_AUTHOR};
        for (int i = 0; i < 2; i++) {
            fields[i]->set_stemmer(h->stem);
            fields[i]->set_stemming_strategy(Xapian::QueryParser::STEM_ALL);
            fields[i]->set_default_op(Xapian::Query::OP_OR);
            fields[i]->set_stopper(&h->stopper);
            fields[i]->add_prefix("", prefixes[i]);
        }
    }
};

Reader &reader(shim_db *h)
{
    if (!h->reader)
        h->reader.reset(new Reader(h));
    return static_cast<Reader &>(*h->reader);
}

} // namespace

static Xapian::Query build_filter(const shim_query *q)
{
    std::vector<Xapian::Query> parts;
    if (q->n_cat_keys) {
        std::vector<Xapian::Query> alts;
        for (size_t i = 0; i < q->n_cat_keys; i++)
            alts.emplace_back(LAYOUT_P_CATEGORY + cut_key(q->cat_keys[i]));
        parts.emplace_back(Xapian::Query::OP_OR, alts.begin(), alts.end());
    }
    if (q->n_author_keys) {
        std::vector<Xapian::Query> alts;
        for (size_t i = 0; i < q->n_author_keys; i++)
            alts.push_back(author_query(q->author_keys[i]));
        parts.emplace_back(Xapian::Query::OP_OR, alts.begin(), alts.end());
    }
    if (q->n_subject_keys) {
        std::vector<Xapian::Query> alts;
        for (size_t i = 0; i < q->n_subject_keys; i++)
            alts.emplace_back(LAYOUT_P_SUBJECT + cut_key(q->subject_keys[i]));
        parts.emplace_back(Xapian::Query::OP_OR, alts.begin(), alts.end());
    }
    if (q->year_min > 0 && q->year_max > 0)
        parts.emplace_back(Xapian::Query::OP_VALUE_RANGE, SLOT_YEAR,
                           Xapian::sortable_serialise(q->year_min),
                           Xapian::sortable_serialise(q->year_max));
    else if (q->year_min > 0)
        parts.emplace_back(Xapian::Query::OP_VALUE_GE, SLOT_YEAR,
                           Xapian::sortable_serialise(q->year_min));
    else if (q->year_max > 0)
        parts.emplace_back(Xapian::Query::OP_VALUE_LE, SLOT_YEAR,
                           Xapian::sortable_serialise(q->year_max));
    if (parts.empty())
        return Xapian::Query();
    return Xapian::Query(Xapian::Query::OP_AND, parts.begin(), parts.end());
}

/* The query with ASCII capitals lowered, except the operators AND, OR,
 * NOT, XOR, NEAR and ADJ, so that a capitalised word is matched as the
 * lower-case word it is indexed as, and a capitalised "And" in prose is
 * not taken for an operator; a filter's value is matched as the flags
 * match it ("category:CV" is cs.CV), so it stays as written.  Tokens are
 * qscan's. */
static std::string lower_words(const std::string &text)
{
    std::string out = text;
    size_t pos = 0;
    qtok k;
    while (qscan_next(out.data(), out.size(), &pos, &k) != QT_END) {
        if (k.kind == QT_OP || k.kind == QT_FILTER)
            continue;
        for (size_t i = k.start; i < k.start + k.len; i++)
            if (out[i] >= 'A' && out[i] <= 'Z')
                out[i] = static_cast<char>(out[i] - 'A' + 'a');
    }
    return out;
}

/* A term of the default field: no prefix (every prefix of ours is upper
 * case, every word lower case). */
static bool is_plain_term(const std::string &t)
{
    return !t.empty() && !isupper(static_cast<unsigned char>(t[0]));
}

/* The window of a PHRASE or NEAR query, as its description states it
 * ("(a@1 NEAR 4 b@2)"): Xapian 1.4 has no getter for it. */
static Xapian::termcount window_of(const Xapian::Query &q, const char *opname)
{
    const std::string d = q.get_description();
    const std::string key = std::string(" ") + opname + " ";
    size_t at = d.find(key);
    if (at == std::string::npos)
        return 0;
    return static_cast<Xapian::termcount>(
        strtoul(d.c_str() + at + key.size(), nullptr, 10));
}

/* A word searched in the abstract alone (`abstract:w`).  Layout 4 keeps
 * the abstract's stems as the default field's terms, whose positions are
 * the abstract's, and marks with XB<w> a stem the abstract shares with
 * the title or an author name (common/layout.h).  So a work's abstract
 * has w unless the work holds w only through S<w> or A<w>:
 *
 *     w  AND_NOT  ((S<w> OR A<w>) AND_NOT XB<w>)
 *
 * scored as w is, from the default field's statistics; the right side
 * only decides which works match. */
static Xapian::Query abstract_word(const std::string &w)
{
    using Q = Xapian::Query;
    const Q elsewhere(Q::OP_OR, Q(LAYOUT_P_TITLE + w), Q(LAYOUT_P_AUTHOR + w));
    return Q(Q::OP_AND_NOT, Q(w),
             Q(Q::OP_AND_NOT, elsewhere, Q(LAYOUT_P_ABSTRACT + w)));
}

/* The pattern of an OP_WILDCARD query, from its description
 * ("Query(WILDCARD SYNONYM XBoptim)"): Xapian 1.4 has no getter for it. */
static std::string wildcard_pattern(const Xapian::Query &q)
{
    std::string d = q.get_description();
    const size_t close = d.rfind(')'), sp = d.rfind(' ', close);
    if (close == std::string::npos || sp == std::string::npos)
        return std::string();
    return d.substr(sp + 1, close - sp - 1);
}

/* `abstract:optim*`: the default field's stems that begin with `stem`
 * (the PDX_WILDCARD_MAX most frequent, as Xapian limits a wildcard),
 * scored together as one term (OP_SYNONYM, as every wildcard), matching
 * the works whose abstract has one of them. */
static Xapian::Query abstract_wildcard(shim_db *h, const std::string &stem)
{
    struct Cand {
        Xapian::doccount tf;
        std::string term;
    };
    std::vector<Cand> cands;
    for (Xapian::TermIterator t = h->db.allterms_begin(stem);
         t != h->db.allterms_end(stem); ++t)
        if (is_plain_term(*t))
            cands.push_back(Cand{t.get_termfreq(), *t});
    if (cands.size() > PDX_WILDCARD_MAX) {
        std::stable_sort(cands.begin(), cands.end(),
                         [](const Cand &a, const Cand &b) { return a.tf > b.tf; });
        cands.resize(PDX_WILDCARD_MAX);
    }
    if (cands.empty())
        return Xapian::Query::MatchNothing;
    std::vector<Xapian::Query> scored, where;
    for (const Cand &c : cands) {
        scored.emplace_back(c.term);
        where.push_back(abstract_word(c.term));
    }
    return Xapian::Query(
        Xapian::Query::OP_FILTER,
        Xapian::Query(Xapian::Query::OP_SYNONYM, scored.begin(), scored.end()),
        Xapian::Query(Xapian::Query::OP_OR, where.begin(), where.end()));
}

/* Whether phrases are searched with Xapian's own positions (OP_PHRASE,
 * OP_NEAR) rather than paperdex's PhraseFilter and PhraseSource:
 *
 *   - when a shard is served by xapian-tcpsrv, whose remote backend
 *     cannot run paperdex's decider or posting source.  Then every shard
 *     must hold Xapian's positions (layout 6 and before, or built with
 *     --xapian-positions); UnimplementedError names the first that does
 *     not.
 *   - when every database is local and holds Xapian's positions: there
 *     Xapian reads a (term, work) position list by its key, where
 *     PhraseCheck reaches it work by work: on the arXiv 101k built with
 *     --xapian-positions, phrases at p50 0.46 and p99 0.58 of
 *     PhraseFilter's time (measured in the commit that made it).
 *
 * A mix of the two kinds (one local index of each) keeps paperdex's
 * matchers, which read either kind work by work. */
static bool xapian_phrases(shim_db *h)
{
    bool remote = false;
    for (const shard_id &s : h->shards)
        remote = remote || (!s.local && s.path.compare(0, 6, "tcp://") == 0);
    for (size_t i = 0; i < h->subs.size(); i++) {
        const Xapian::Database &d = h->subs[i];
        const int layout = atoi(d.get_metadata(LAYOUT_KEY).c_str());
        if (layout < 7 || !d.get_metadata(LAYOUT_META_POSITIONS).empty())
            continue; /* "xapian" or "xapian-inherited" */
        if (!remote)
            return false;
        const std::string name =
            i < h->shards.size() ? h->shards[i].path : h->path;
        throw Xapian::UnimplementedError(
            "a phrase, NEAR or ADJ through a shard served by xapian-tcpsrv "
            "needs every shard built with `paperdex index "
            "--xapian-positions`: '" + name + "' keeps paperdex's own "
            "positions, which the remote backend cannot read");
    }
    return true;
}

/* How one query's phrases are searched: `hoist` takes the phrases every
 * match must hold (or is NULL), and `xapian` is xapian_phrases(h), asked
 * at the query's first phrase only (for remote shards it reads each
 * shard's metadata over the network). */
struct PhrasePlan {
    PhraseFilter *hoist;
    int xapian = -1; /* not asked yet */
};

/* A positional query (a quoted phrase, a hyphenated word, NEAR, ADJ) of
 * one field's terms, stop words dropped (they are not indexed and take
 * no position: the phrase is the words around them, next to each other).
 *
 * - The default field (plain terms): a phrase never spans two fields
 *   (each is followed by a position gap), and each field's positions are
 *   in its own terms (the title's in S, the abstract's in the plain
 *   stems, the authors' in A), so it is searched as
 *
 *       (t1 AND t2 ...)  FILTER  (phrase in S  OR  in the plain stems
 *                                 OR  in A)
 *
 *   The left side is scored exactly as Xapian scores a phrase (the sum
 *   of its terms' BM25 weights, default-field statistics); the right
 *   side only decides which works match.
 * - `abstract:"..."` (XB terms from the parser): the phrase in the plain
 *   stems, whose positions are the abstract's only.
 * - `title:` and `author:`: the phrase in S or A, scored as Xapian
 *   scores it (its terms' weights).
 *
 * Layout 7 keeps positions in a value of its own (common/layout.h), read
 * by PhraseSource: the right side is then one PhraseSource for all the
 * fields of the phrase, and a field phrase is (its terms ANDed) FILTER
 * PhraseSource, scored alike.  Where every database keeps Xapian's
 * positions (xapian_phrases: a shard served by xapian-tcpsrv, or local
 * indexes built with --xapian-positions) the phrase is Xapian's own
 * OP_PHRASE or OP_NEAR, which reads them.
 *
 * Anything else (a wildcard inside a phrase, mixed fields) is left as
 * Xapian parsed it. */
static Xapian::Query positional(shim_db *h, const Xapian::Query &q,
                                const std::set<std::string> &stops,
                                bool required, PhrasePlan &plan)
{
    const Xapian::Query::op op = q.get_type();
    const size_t n = q.get_num_subqueries();
    std::string field;
    std::vector<std::string> stems;
    for (size_t i = 0; i < n; i++) {
        const Xapian::Query sub = q.get_subquery(i);
        if (sub.get_type() != Xapian::Query::LEAF_TERM)
            return q;
        Xapian::TermIterator t = sub.get_terms_begin();
        if (t == sub.get_terms_end())
            return q;
        std::string stem;
        const char *f = term_field(*t, stem);
        if (!strcmp(f, "text") && !is_plain_term(stem))
            return q;
        if (i > 0 && field != f)
            return q;
        field = f;
        if (!stops.count(stem))
            stems.push_back(stem);
    }
    if (stems.empty())
        return Xapian::Query();
    /* Where the field's positions are: the abstract's and the default
     * field's in the plain stems. */
    const char *prefix = field == "title"    ? LAYOUT_P_TITLE
                         : field == "author" ? LAYOUT_P_AUTHOR
                                             : "";
    if (stems.size() == 1)
        return field == "abstract" ? abstract_word(stems[0])
                                   : Xapian::Query(prefix + stems[0]);
    const char *name = op == Xapian::Query::OP_PHRASE ? "PHRASE" : "NEAR";
    Xapian::termcount window = window_of(q, name);
    if (op == Xapian::Query::OP_PHRASE)
        window = static_cast<Xapian::termcount>(stems.size());
    if (plan.xapian < 0)
        plan.xapian = xapian_phrases(h);
    const bool xapian = plan.xapian != 0;
    auto xapian_phrase = [&](const char *pfx) {
        std::vector<Xapian::Query> terms;
        for (const std::string &t : stems)
            terms.emplace_back(pfx + t);
        return Xapian::Query(op, terms.begin(), terms.end(), window);
    };
    std::vector<Xapian::Query> scored;
    for (const std::string &t : stems)
        scored.emplace_back((field == "text" ? "" : prefix) + t);
    const Xapian::Query all(Xapian::Query::OP_AND, scored.begin(),
                            scored.end());
    if (xapian) {
        /* Xapian's positional queries: the only kind a shard served by
         * xapian-tcpsrv can run, and the quicker over Xapian's
         * positions locally. */
        if (field != "text")
            return xapian_phrase(prefix);
        const Xapian::Query where[] = {xapian_phrase(LAYOUT_P_TITLE),
                                       xapian_phrase(""),
                                       xapian_phrase(LAYOUT_P_AUTHOR)};
        return Xapian::Query(
            Xapian::Query::OP_FILTER, all,
            Xapian::Query(Xapian::Query::OP_OR, std::begin(where),
                          std::end(where)));
    }
    /* paperdex's PhraseSource (common/positions.cc), which reads
     * each work's positions value and weighs nothing: one for all three
     * fields of the default field's phrase, walking its stems (every
     * title, abstract and author stem is one). */
    const std::vector<std::string> fields =
        field == "text"
            ? std::vector<std::string>{"", LAYOUT_P_TITLE, LAYOUT_P_AUTHOR}
            : std::vector<std::string>{prefix};
    const PhraseCheck check(stems, fields, window,
                            op == Xapian::Query::OP_PHRASE);
    if (required && plan.hoist) {
        /* Every match must hold it: checked by the matcher's decider,
         * only for the works that would make the page (PhraseFilter). */
        plan.hoist->checks.push_back(check);
        return all;
    }
    return Xapian::Query(Xapian::Query::OP_FILTER, all,
                         Xapian::Query((new PhraseSource(check))->release()));
}

/* The one term of a LEAF_TERM query, or "" for any other. */
static std::string leaf_term(const Xapian::Query &q)
{
    if (q.get_type() != Xapian::Query::LEAF_TERM)
        return std::string();
    Xapian::TermIterator t = q.get_terms_begin();
    return t != q.get_terms_end() ? *t : std::string();
}

/* The parsed query made to fit the layout: positional queries as
 * positional() says, and abstract: words and wildcards as
 * abstract_word() and abstract_wildcard() say.  Every other node is kept,
 * rebuilt only where a child changed.  `required`: every match of the
 * whole query matches q (the root, and down through AND, FILTER and the
 * left of AND_NOT and AND_MAYBE); with plan.hoist, a phrase there is
 * checked by its decider instead of a PhraseSource in the query. */
static Xapian::Query fit_layout(shim_db *h, const Xapian::Query &q,
                                const std::set<std::string> &stops,
                                bool &changed, bool required,
                                PhrasePlan &plan)
{
    const Xapian::Query::op op = q.get_type();
    const size_t n = q.get_num_subqueries();
    switch (op) {
    case Xapian::Query::LEAF_TERM: {
        std::string stem;
        if (strcmp(term_field(leaf_term(q), stem), "abstract") != 0)
            return q;
        changed = true;
        return abstract_word(stem);
    }
    case Xapian::Query::OP_WILDCARD: {
        const std::string pat = wildcard_pattern(q);
        std::string stem;
        if (strcmp(term_field(pat, stem), "abstract") != 0)
            return q;
        changed = true;
        return abstract_wildcard(h, stem);
    }
    case Xapian::Query::OP_PHRASE:
    case Xapian::Query::OP_NEAR:
        changed = true;
        return positional(h, q, stops, required, plan);
    case Xapian::Query::OP_AND:
    case Xapian::Query::OP_OR:
    case Xapian::Query::OP_AND_NOT:
    case Xapian::Query::OP_XOR:
    case Xapian::Query::OP_AND_MAYBE:
    case Xapian::Query::OP_FILTER:
    case Xapian::Query::OP_SYNONYM:
        break;
    default:
        return q; /* value ranges, scaled weights: nothing to fit */
    }
    bool below = false;
    std::vector<Xapian::Query> subs;
    for (size_t i = 0; i < n; i++)
        subs.push_back(fit_layout(
            h, q.get_subquery(i), stops, below,
            /* a match must match these children too */
            required && (op == Xapian::Query::OP_AND ||
                         op == Xapian::Query::OP_FILTER ||
                         (i == 0 && (op == Xapian::Query::OP_AND_NOT ||
                                     op == Xapian::Query::OP_AND_MAYBE))),
            plan));
    if (!below)
        return q; /* a plain OR of words: nothing to rebuild */
    changed = true;
    return Xapian::Query(op, subs.begin(), subs.end());
}

/* The terms whose BM25 weights make up a score, with their wqf: every
 * term of q except those only deciding matches (a FILTER's or an
 * AND_NOT's right side).  With `in_abstract`, how many of a term's
 * occurrences are an abstract: word (abstract_word()'s shape). */
static void scored_terms(const Xapian::Query &q,
                         std::map<std::string, Xapian::termcount> &wqf,
                         std::map<std::string, Xapian::termcount> *in_abstract =
                             nullptr)
{
    const Xapian::Query::op op = q.get_type();
    if (op == Xapian::Query::LEAF_TERM) {
        for (Xapian::TermIterator t = q.get_terms_begin();
             t != q.get_terms_end(); ++t)
            wqf[*t]++;
        return;
    }
    size_t n = q.get_num_subqueries();
    if (op == Xapian::Query::OP_AND_NOT && n == 2 && in_abstract) {
        const std::string w = leaf_term(q.get_subquery(0));
        const Xapian::Query right = q.get_subquery(1);
        if (!w.empty() && right.get_type() == Xapian::Query::OP_AND_NOT &&
            right.get_num_subqueries() == 2 &&
            leaf_term(right.get_subquery(1)) == LAYOUT_P_ABSTRACT + w)
            (*in_abstract)[w]++;
    }
    if (op == Xapian::Query::OP_FILTER || op == Xapian::Query::OP_AND_NOT)
        n = std::min<size_t>(n, 1);
    for (size_t i = 0; i < n; i++)
        scored_terms(q.get_subquery(i), wqf, in_abstract);
}

/* The query language (README: "Query syntax").  A field value that is
 * not understood (year:junk) is an error that names its position; any
 * other syntax Xapian refuses is read again leniently, as plain words. */
/* A query of more distinct terms than PDX_MAX_QUERY_TERMS (a pasted
 * abstract has 100 to 200, which are searched as they are): when it is
 * words joined by OR, the default, it is searched with its most
 * informative words -- the rarest in the index; a word the index does
 * not hold informs nothing and goes first -- and `note` says so, as
 * Lucene's users would otherwise meet its clause limit.  A query of any
 * other shape that long is refused: which parts of it to drop is not
 * ours to guess. */
static Xapian::Query keep_informative(shim_db *h, const Xapian::Query &q,
                                      size_t n, std::string &note)
{
    const std::string too_many =
        "the query has " + std::to_string(n) + " distinct terms; at most " +
        std::to_string(PDX_MAX_QUERY_TERMS) + " are searched";
    if (q.get_type() != Xapian::Query::OP_OR)
        throw Xapian::InvalidArgumentError(
            too_many + ", and only words joined by OR (the default) are cut "
                       "down to the most informative");
    struct Word {
        Xapian::doccount tf;
        std::string term;
    };
    std::vector<Word> words;
    std::vector<Xapian::Query> kept;
    std::set<std::string> held; /* terms of what is kept whole */
    for (size_t i = 0; i < q.get_num_subqueries(); i++) {
        const Xapian::Query sub = q.get_subquery(i);
        if (sub.get_type() == Xapian::Query::LEAF_TERM) {
            const std::string t = *sub.get_terms_begin();
            Xapian::doccount tf = h->db.get_termfreq(t);
            words.push_back(Word{tf ? tf : h->db.get_doccount() + 1, t});
            continue;
        }
        kept.push_back(sub);
        for (Xapian::TermIterator t = sub.get_unique_terms_begin();
             t != sub.get_unique_terms_end(); ++t)
            held.insert(*t);
    }
    if (held.size() >= PDX_MAX_QUERY_TERMS)
        throw Xapian::InvalidArgumentError(too_many);
    std::stable_sort(words.begin(), words.end(),
                     [](const Word &a, const Word &b) { return a.tf < b.tf; });
    std::set<std::string> chosen;
    for (const Word &w : words) {
        if (held.size() + chosen.size() >= PDX_MAX_QUERY_TERMS &&
            !chosen.count(w.term))
            continue;
        chosen.insert(w.term);
    }
    /* In the query's own order, repeats included (they weigh more). */
    for (size_t i = 0; i < q.get_num_subqueries(); i++) {
        const Xapian::Query sub = q.get_subquery(i);
        if (sub.get_type() == Xapian::Query::LEAF_TERM &&
            chosen.count(*sub.get_terms_begin()))
            kept.push_back(sub);
    }
    note = "the query has " + std::to_string(n) +
           " distinct terms; it was searched with the " +
           std::to_string(held.size() + chosen.size()) +
           " most informative (the rarest in the index)";
    return Xapian::Query(Xapian::Query::OP_OR, kept.begin(), kept.end());
}

/* Every work: tombstones (common/layout.h) are not works. */
static Xapian::Query every_work()
{
    return Xapian::Query(Xapian::Query::OP_AND_NOT, Xapian::Query::MatchAll,
                         Xapian::Query(LAYOUT_TOMBSTONE));
}

/* A query of excluded words and phrases only ("-graph",
 * "-graph -\"neural net\""): the text of what is excluded, as one OR
 * ("graph OR \"neural net\""), in *positive; false for any other query.
 * Xapian's parser reads a lone -x as x, which would return exactly the
 * works the user meant to leave out. */
static bool only_excluded(const std::string &raw, std::string *positive)
{
    const char *t = raw.data();
    const size_t n = raw.size();
    size_t pos = 0, count = 0;
    qtok k;
    positive->clear();
    /* Read with the one scanner of query text (qscan.h): -x is a term
     * that starts with '-'; -"a b" the term "-" right before a phrase. */
    while (qscan_next(t, n, &pos, &k) != QT_END) {
        if (k.kind != QT_TERM || t[k.start] != '-')
            return false;
        size_t start = k.start + 1, len = k.len - 1;
        if (!len) {
            qtok ph;
            if (qscan_next(t, n, &pos, &ph) != QT_PHRASE ||
                ph.start != k.start + 1 || ph.len < 2 ||
                t[ph.start + ph.len - 1] != '"')
                return false; /* a lone '-', or a phrase left open */
            start = ph.start;
            len = ph.len;
        }
        if (count++)
            *positive += " OR ";
        positive->append(raw, start, len);
    }
    return count > 0;
}

static Xapian::Query parse(shim_db *h, const std::string &raw, bool lenient,
                           std::string &note, PhraseFilter *hoist)
{
    std::string positive;
    if (only_excluded(raw, &positive)) /* all works but those; a phrase
                                        * there is no filter to hoist */
        return Xapian::Query(Xapian::Query::OP_AND_NOT, every_work(),
                             parse(h, positive, lenient, note, nullptr));
    const std::string text = lower_words(unaccent(raw));
    const unsigned full = Xapian::QueryParser::FLAG_PHRASE |
                          Xapian::QueryParser::FLAG_BOOLEAN |
                          Xapian::QueryParser::FLAG_LOVEHATE |
                          Xapian::QueryParser::FLAG_WILDCARD |
                          Xapian::QueryParser::FLAG_PURE_NOT;
    Xapian::Query query;
    reader(h).field_error.msg.clear();
    try {
        query = reader(h).qp.parse_query(text, full);
    } catch (const Xapian::QueryParserError &) {
        reader(h).field_error.msg.clear();
        query = reader(h).qp.parse_query(text, 0); /* plain words */
    }
    if (!reader(h).field_error.msg.empty() && lenient) {
        reader(h).field_error.msg.clear();
        query = reader(h).qp.parse_query(text, 0); /* plain words */
    }
    if (!reader(h).field_error.msg.empty()) {
        const std::string m = reader(h).field_error.msg;
        reader(h).field_error.msg.clear();
        size_t at = text.find(m.substr(0, m.find(' ')));
        throw Xapian::QueryParserError(
            m + (at == std::string::npos
                     ? std::string()
                     : ", at position " + std::to_string(at + 1)));
    }
    /* "NOT x" (FLAG_PURE_NOT) is Xapian's MatchAll but x: every work but
     * x, tombstones left out of the matches and their count too. */
    if (query.get_type() == Xapian::Query::OP_AND_NOT &&
        query.get_num_subqueries() >= 2 &&
        query.get_subquery(0).get_type() == Xapian::Query::LEAF_MATCH_ALL) {
        std::vector<Xapian::Query> subs{every_work()};
        for (size_t i = 1; i < query.get_num_subqueries(); i++)
            subs.push_back(query.get_subquery(i));
        query = Xapian::Query(Xapian::Query::OP_AND_NOT, subs.begin(),
                              subs.end());
    }
    size_t n = 0;
    for (Xapian::TermIterator t = query.get_unique_terms_begin();
         t != query.get_unique_terms_end(); ++t)
        n++;
    note.clear();
    if (n > PDX_MAX_QUERY_TERMS)
        query = keep_informative(h, query, n, note);
    bool changed = false;
    PhrasePlan plan{hoist};
    return fit_layout(h, query, h->stop_stems, changed, true, plan);
}

/* Optimal string alignment distance (edits, with adjacent swaps), or
 * limit + 1 as soon as it must exceed `limit`. */
static size_t edit_distance(const std::string &a, const std::string &b,
                            size_t limit)
{
    size_t n = a.size(), m = b.size();
    if ((n > m ? n - m : m - n) > limit)
        return limit + 1;
    std::vector<size_t> pp(m + 1), p(m + 1), c(m + 1);
    for (size_t j = 0; j <= m; j++)
        p[j] = j;
    for (size_t i = 1; i <= n; i++) {
        c[0] = i;
        size_t best = c[0];
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            c[j] = std::min({p[j] + 1, c[j - 1] + 1, p[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                c[j] = std::min(c[j], pp[j - 2] + 1);
            best = std::min(best, c[j]);
        }
        if (best > limit)
            return limit + 1;
        pp.swap(p);
        p.swap(c);
    }
    return p[m];
}

/* Facet counts over every match: each work counts once for each of its
 * years, categories and authors (multi-valued fields count per value).
 *
 * The counting is Xapian's own ValueCountMatchSpy, one per facet slot,
 * because it is the spy xapian-tcpsrv knows: over tcp:// shards each
 * server counts its own matches and Xapian merges the counts, so facets
 * work on remote shards as on local ones.  It counts whole slot values;
 * a category or author slot holds a work's values joined by FACET_SEP,
 * so fold() splits each distinct joined value and adds its count to each
 * of its parts (a part named twice in one work counts once). */
class Facets {
  public:
    explicit Facets(unsigned which) : which_(which) {}

    /* Fresh spies on enq, for one attempt at the match. */
    void attach(Xapian::Enquire &enq)
    {
        static const Xapian::valueno slot[SHIM_N_FACETS] = {
            SLOT_YEAR, SLOT_CATS, SLOT_AUTHORS, SLOT_SUBJECTS};
        for (unsigned k = 0; k < SHIM_N_FACETS; k++) {
            spy_[k].reset();
            if (which_ & (1u << k)) {
                spy_[k].reset(new Xapian::ValueCountMatchSpy(slot[k]));
                enq.add_matchspy(spy_[k].get());
            }
        }
    }

    /* The counts of facet k (0 year, 1 category, 2 author, 3 subject), after the
     * match, by value. */
    std::map<std::string, uint64_t> fold(unsigned k) const
    {
        std::map<std::string, uint64_t> c;
        if (!spy_[k])
            return c;
        for (Xapian::TermIterator v = spy_[k]->values_begin();
             v != spy_[k]->values_end(); ++v) {
            const uint64_t n = v.get_termfreq();
            if (k == 0) {
                c[std::to_string(static_cast<int>(
                    Xapian::sortable_unserialise(*v)))] += n;
                continue;
            }
            const std::string joined = *v;
            std::set<std::string> seen;
            size_t i = 0;
            while (i < joined.size()) {
                size_t j = joined.find(FACET_SEP, i);
                if (j == std::string::npos)
                    j = joined.size();
                if (j > i && seen.insert(joined.substr(i, j - i)).second)
                    c[joined.substr(i, j - i)] += n;
                i = j + 1;
            }
        }
        return c;
    }

  private:
    unsigned which_;
    std::unique_ptr<Xapian::ValueCountMatchSpy> spy_[SHIM_N_FACETS];
};

struct shim_hit {
    double score;
    std::string data, explain;
};

/* Why a hit scored what it did: each query term the work holds, with its
 * within-document frequency, document frequency and BM25 weight (the
 * weight Xapian gives that term alone, with the same wqf, for this work),
 * and the work's length normalisation.  The weights add up to the score
 * for words, phrases and boolean operators; a wildcard's OP_SYNONYM group
 * is weighed as one term by Xapian, so any difference is reported as
 * "other". */
static std::string explain_hit(shim_db *h, const Xapian::Query &query,
                               Xapian::docid did, double score, double k1,
                               double b)
{
    std::map<std::string, Xapian::termcount> wqf, in_abstract;
    scored_terms(query, wqf, &in_abstract);
    Xapian::Document doc = h->db.get_document(did);
    std::string idterm;
    {
        Xapian::TermIterator t = doc.termlist_begin();
        t.skip_to(LAYOUT_P_ID);
        if (t != doc.termlist_end() && (*t)[0] == 'Q')
            idterm = *t;
    }
    double doclen = h->db.get_doclength(did), avlen = h->db.get_avlength();
    double normlen = std::max(avlen > 0 ? doclen / avlen : 0.0, 0.5);
    cJSON *o = cJSON_CreateObject();
    cJSON *terms = cJSON_AddArrayToObject(o, "terms");
    double sum = 0;
    for (const auto &tw : wqf) {
        Xapian::TermIterator t = doc.termlist_begin();
        t.skip_to(tw.first);
        if (t == doc.termlist_end() || *t != tw.first || t.get_wdf() == 0)
            continue;
        Xapian::Enquire one(h->db);
        one.set_query(Xapian::Query(Xapian::Query::OP_FILTER,
                                    Xapian::Query(tw.first, tw.second),
                                    Xapian::Query(idterm)));
        one.set_weighting_scheme(Xapian::BM25Weight(k1, 0, 1, b, 0.5));
        Xapian::MSet ms = one.get_mset(0, 1);
        double w = ms.empty() ? 0.0 : ms.begin().get_weight();
        sum += w;
        std::string word;
        const char *field = term_field(tw.first, word);
        /* An abstract: word is the default field's stem, matched only
         * where the abstract has it; the same stem also asked in the
         * default field shares its weight, and is labelled "text". */
        auto a = in_abstract.find(tw.first);
        if (a != in_abstract.end() && a->second == tw.second)
            field = "abstract";
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "term", tw.first.c_str());
        cJSON_AddStringToObject(e, "field", field);
        cJSON_AddStringToObject(e, "word", word.c_str());
        cJSON_AddBoolToObject(e, "stem", 1); /* layout 2: every word */
        cJSON_AddNumberToObject(e, "wdf", t.get_wdf());
        cJSON_AddNumberToObject(e, "docfreq", h->db.get_termfreq(tw.first));
        cJSON_AddNumberToObject(e, "weight", w);
        cJSON_AddItemToArray(terms, e);
    }
    cJSON_AddNumberToObject(o, "doc_length", doclen);
    cJSON_AddNumberToObject(o, "avg_length", avlen);
    cJSON_AddNumberToObject(o, "norm_length", normlen);
    cJSON_AddNumberToObject(o, "k1", k1);
    cJSON_AddNumberToObject(o, "b", b);
    cJSON_AddNumberToObject(o, "length_factor", k1 * ((1 - b) + b * normlen));
    cJSON_AddNumberToObject(o, "sum", sum);
    cJSON_AddNumberToObject(o, "other", score - sum);
    cJSON_AddNumberToObject(o, "score", score);
    char *txt = cJSON_PrintUnformatted(o);
    std::string out = txt ? txt : "";
    cJSON_free(txt);
    cJSON_Delete(o);
    return out;
}

/* A word of free text, as snippets and suggestions see it: a run of word
 * characters, a '.' or ',' between digits ("3.0") and an apostrophe
 * between letters ("don't") included, as the TermGenerator joins them. */
struct Word {
    size_t start, end; /* bytes [start, end) of the text */
};

static std::vector<Word> words_of(const std::string &text)
{
    std::vector<Word> out;
    Xapian::Utf8Iterator it(text), end;
    bool in = false;
    size_t start = 0;
    unsigned prev = 0;
    while (it != end) {
        const size_t at = it.raw() - text.data();
        const unsigned ch = *it;
        ++it;
        const unsigned next = it != end ? *it : 0;
        bool word = Xapian::Unicode::is_wordchar(ch);
        if (!word && in && (ch == '.' || ch == ',') && next &&
            Xapian::Unicode::get_category(prev) == Xapian::Unicode::DECIMAL_DIGIT_NUMBER &&
            Xapian::Unicode::get_category(next) == Xapian::Unicode::DECIMAL_DIGIT_NUMBER)
            word = true;
        if (!word && in && (ch == '\'' || ch == 0x2019) && next &&
            Xapian::Unicode::get_category(prev) <= Xapian::Unicode::OTHER_LETTER &&
            Xapian::Unicode::get_category(next) <= Xapian::Unicode::OTHER_LETTER)
            word = true;
        if (word && !in) {
            in = true;
            start = at;
        } else if (!word && in) {
            in = false;
            out.push_back(Word{start, at});
        }
        prev = ch;
    }
    if (in)
        out.push_back(Word{start, text.size()});
    return out;
}

/* A word as it is indexed before stemming: accents folded, lower case. */
static std::string fold_word(const std::string &w)
{
    return Xapian::Unicode::tolower(unaccent(w));
}

/* The snippet of one hit (pdx_query.snippet_bytes): the window of `text`
 * (its abstract) of at most `bytes` bytes that holds the most weight of
 * distinct query stems, each matched word between SHIM_HI_START and
 * SHIM_HI_END, SHIM_OMIT where the text is cut.  `weight` maps each stem
 * of the query to its idf.  A word is stemmed only if its first two bytes
 * begin some query stem (a porter2 stem keeps its word's first letters),
 * and stems are cached, so a page costs little beyond the scan.  The
 * window starts at its sentence when that fits, and ends at a sentence
 * end when one falls in its last part. */
static std::string make_snippet(shim_db *h, const std::string &text,
                                const std::map<std::string, double> &weight,
                                size_t bytes)
{
    if (text.empty())
        return text;
    std::set<std::string> starts;
    for (const auto &w : weight)
        starts.insert(w.first.substr(0, 2));
    struct Match {
        Word w;
        const std::string *stem;
        double weight;
    };
    std::vector<Match> matches;
    for (const Word &w : words_of(text)) {
        std::string f = fold_word(text.substr(w.start, w.end - w.start));
        if (!starts.count(f.substr(0, 2)))
            continue;
        auto it = weight.find(h->stem(f));
        if (it != weight.end())
            matches.push_back(Match{w, &it->first, it->second});
    }
    /* The best run of matches that fits: distinct stems' weights, a
     * repeat adding a tenth. */
    size_t best_i = 0, best_j = 0;
    double best = -1;
    for (size_t i = 0; i < matches.size(); i++) {
        std::set<const std::string *> seen;
        double sc = 0;
        for (size_t j = i; j < matches.size(); j++) {
            if (matches[j].w.end - matches[i].w.start > bytes)
                break;
            sc += seen.insert(matches[j].stem).second ? matches[j].weight
                                                      : matches[j].weight / 10;
            if (sc > best + 1e-9) {
                best = sc;
                best_i = i;
                best_j = j + 1;
            }
        }
    }
    size_t from = 0, to = text.size();
    if (text.size() > bytes) {
        size_t lo = best < 0 ? 0 : matches[best_i].w.start;
        size_t hi = best < 0 ? 0 : matches[best_j - 1].w.end;
        /* Start at the sentence if it fits, else a little before the
         * first match, at a word. */
        size_t sent = text.rfind(". ", lo);
        sent = sent == std::string::npos ? 0 : sent + 2;
        if (lo - sent + (hi - lo) <= bytes)
            from = sent;
        else
            from = lo > bytes / 8 ? lo - bytes / 8 : 0;
        while (from > 0 && from < lo &&
               !isspace(static_cast<unsigned char>(text[from - 1])))
            from++;
        to = std::min(text.size(), from + bytes);
        if (to < text.size()) {
            size_t stop = text.rfind(". ", to - 1);
            if (stop != std::string::npos && stop + 1 >= hi &&
                stop + 1 > from + bytes * 6 / 10)
                to = stop + 1; /* a whole sentence: no mark */
            else
                while (to > hi && !isspace(static_cast<unsigned char>(text[to])))
                    to--;
        }
        while (to > from && isspace(static_cast<unsigned char>(text[to - 1])))
            to--;
    }
    std::string out;
    if (from > 0)
        out += SHIM_OMIT;
    size_t at = from;
    for (const Match &m : matches) {
        if (m.w.start < from || m.w.end > to)
            continue;
        out.append(text, at, m.w.start - at);
        out += SHIM_HI_START;
        out.append(text, m.w.start, m.w.end - m.w.start);
        out += SHIM_HI_END;
        at = m.w.end;
    }
    out.append(text, at, to - at);
    if (to < text.size() && text[to - 1] != '.')
        out += SHIM_OMIT;
    return out;
}

/* The stems a query matches text by, with their idf, for snippets: its
 * scored terms, field prefixes taken off. */
static std::map<std::string, double> snippet_weights(shim_db *h,
                                                     const Xapian::Query &q)
{
    std::map<std::string, Xapian::termcount> wqf;
    scored_terms(q, wqf);
    std::map<std::string, double> out;
    const double n = std::max<double>(1, h->db.get_doccount());
    for (const auto &t : wqf) {
        std::string stem;
        if (!strcmp(term_field(t.first, stem), "text") && !is_plain_term(stem))
            continue; /* not a word: a boolean term */
        if (stem.empty())
            continue;
        const double tf = std::max<double>(1, h->db.get_termfreq(t.first));
        out[stem] = std::max(out[stem], std::log(1 + n / tf));
    }
    return out;
}

/* Expand-set terms for feedback: the default field's stems (no prefix),
 * not numbers.  A stem stands for every form of its word, so the added
 * query terms match the way the user's own words do. */
struct FeedbackTerms : public Xapian::ExpandDecider {
    const Xapian::Stopper &stop;
    explicit FeedbackTerms(const Xapian::Stopper &s) : stop(s) {}
    bool operator()(const std::string &t) const override
    {
        return t.size() > 1 && is_plain_term(t) &&
               !isdigit(static_cast<unsigned char>(t[0])) && !stop(t);
    }
};

/* Pseudo-relevance feedback (pdx_query.expand_*), as Terrier does it:
 * rank once, take the top expand_docs works as relevant, and score every
 * stemmed default-field term in them with Xapian's Bo1 expansion scheme
 * (the Bose-Einstein divergence-from-randomness model: how much more a
 * term occurs in those works than its collection frequency predicts).
 * The expand_terms best terms join the query, each weighted
 * expand_weight * w(t) / max w: the best added term weighs as much as
 * one of the user's own words at expand_weight 1.  Xapian multiplies a
 * scaled query's BM25 weight by the scale, as Lucene does a boost.
 * (An RM3 model estimated from document vectors was tried first and
 * lost on both collections: bench/RESULTS.md.) */
static Xapian::Query expand(shim_db *h, const shim_query *q,
                            const Xapian::Query &query,
                            const Xapian::Query &filter, bool loose,
                            const Xapian::MatchDecider *phrases)
{
    Xapian::Enquire fb(h->db);
    fb.set_query(filter.empty()
                     ? query
                     : Xapian::Query(Xapian::Query::OP_FILTER, query, filter));
    fb.set_weighting_scheme(Xapian::BM25Weight(q->k1, 0, 1, q->b, 0.5));
    fb.set_sort_by_relevance_then_value(SLOT_ID, false);
    fb.set_expansion_scheme("bo1");
    Xapian::MSet top = fb.get_mset(
        0, static_cast<Xapian::doccount>(q->expand_docs), 0, nullptr, phrases);
    if (top.empty())
        return query;
    Xapian::RSet rset;
    for (Xapian::MSetIterator it = top.begin(); it != top.end(); ++it)
        rset.add_document(*it);
    FeedbackTerms decider(h->stopper);
    Xapian::ESet eset = fb.get_eset(
        static_cast<Xapian::termcount>(q->expand_terms), rset, &decider);
    double max_w = 0;
    for (Xapian::ESetIterator e = eset.begin(); e != eset.end(); ++e)
        max_w = std::max(max_w, e.get_weight());
    if (max_w <= 0)
        return query;
    std::vector<Xapian::Query> added;
    for (Xapian::ESetIterator e = eset.begin(); e != eset.end(); ++e)
        if (e.get_weight() > 0)
            added.emplace_back(Xapian::Query::OP_SCALE_WEIGHT,
                               Xapian::Query(*e),
                               q->expand_weight * e.get_weight() / max_w);
    Xapian::Query more(Xapian::Query::OP_OR, added.begin(), added.end());
    return Xapian::Query(loose ? Xapian::Query::OP_OR
                               : Xapian::Query::OP_AND_MAYBE,
                         query, more);
}

/* The title and abstract of a stored work, or "". */
static std::string stored_text(const std::string &data)
{
    std::string out;
    cJSON *o = cJSON_ParseWithLength(data.data(), data.size());
    for (const char *f : {"title", "abstract"}) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f);
        if (cJSON_IsString(v))
            (out += v->valuestring) += ' ';
    }
    cJSON_Delete(o);
    return out;
}

/* "Did you mean": each plain word of the query (letters only, four or
 * more) whose stem fewer than two works hold is replaced by the closest
 * word of the index -- within one edit (two for words of seven letters
 * or more), preferring fewer edits, then more works -- if at least two
 * works, and three times as many as the word's own stem, hold it.
 *
 * The index holds stems, not words (layout 2), and a misspelt ending
 * hides the stem ("mappnig" stems to itself, "mapping" to "map").  So
 * the candidates are the index's stems with the same first letter that
 * are within reach of the word's stem, or of the word's beginning (a
 * stem of at least three letters); each candidate is then spelt as a word
 * by reading one work that holds it and taking, among that work's words
 * with that stem, the one closest to what was typed.  The suggestion
 * follows the index as it changes.  Empty: nothing to suggest. */
/* The correction of one word of a query (letters only), or "". */
static std::string correct_word(shim_db *h, const std::string &word)
{
    std::string lower = word;
    for (char &ch : lower)
        ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
    std::string best;
    {
        if (lower.size() >= 4 && !h->stopper(lower)) {
            const std::string own = h->stem(lower);
            Xapian::doccount tf = h->db.get_termfreq(own);
            if (tf < 2) {
                const size_t limit = lower.size() >= 7 ? 2 : 1;
                struct Cand {
                    std::string stem;
                    Xapian::doccount tf;
                };
                std::vector<Cand> cands;
                const std::string pfx = lower.substr(0, 1);
                for (Xapian::TermIterator t = h->db.allterms_begin(pfx);
                     t != h->db.allterms_end(pfx); ++t) {
                    const std::string &c = *t;
                    if (c == own)
                        continue;
                    bool near = c.size() + limit >= own.size() &&
                                c.size() <= own.size() + limit &&
                                edit_distance(own, c, limit) <= limit;
                    if (!near && c.size() >= 3 && c.size() < lower.size())
                        near = edit_distance(lower.substr(0, c.size()), c,
                                             limit) <= limit;
                    if (near)
                        cands.push_back(Cand{c, t.get_termfreq()});
                }
                std::sort(cands.begin(), cands.end(),
                          [](const Cand &a, const Cand &b) {
                              return a.tf > b.tf;
                          });
                if (cands.size() > 8)
                    cands.resize(8);
                size_t best_d = limit + 1;
                Xapian::doccount best_tf = 0;
                for (const Cand &c : cands) {
                    Xapian::PostingIterator p = h->db.postlist_begin(c.stem);
                    if (p == h->db.postlist_end(c.stem))
                        continue;
                    const std::string body =
                        stored_text(stored_record(h, h->db.get_document(*p)));
                    for (const Word &w : words_of(body)) {
                        std::string f = fold_word(body.substr(w.start, w.end - w.start));
                        if (f.empty() || f[0] != lower[0] ||
                            h->stem(f) != c.stem)
                            continue;
                        size_t d = edit_distance(lower, f, limit);
                        if (d == 0 || d > limit)
                            continue;
                        if (d < best_d || (d == best_d && c.tf > best_tf)) {
                            best = f;
                            best_d = d;
                            best_tf = c.tf;
                        }
                    }
                }
                if (best_tf < std::max<Xapian::doccount>(2, 3 * tf))
                    best.clear();
            }
        }
    }
    return best;
}

/* Did-you-mean looks each word up in the spelling table: its work grows
 * with the query.  A query of more words than this is pasted text, for
 * which nothing is proposed (as the web engines do), and the lookups stop
 * at the match's time budget: a 26 KB query of 3,300 unknown words took
 * 11 s of a server's CPU. */
#define SUGGEST_MAX_WORDS 32

static std::string suggest(shim_db *h, const std::string &raw,
                           double seconds)
{
    const std::string text = unaccent(raw);
    std::string out;
    bool changed = false;
    size_t copied = 0, pos = 0, words = 0;
    qtok k;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (qscan_next(text.data(), text.size(), &pos, &k) != QT_END) {
        if (k.kind == QT_OP || k.kind == QT_FILTER)
            continue;
        size_t wpos = k.start, ws, we;
        int field;
        while (qscan_word(text.data(), k.start + k.len, &wpos, &ws, &we,
                          &field)) {
            if (field)
                continue; /* title:, author:, ... */
            if (++words > SUGGEST_MAX_WORDS)
                return std::string();
            if (seconds > 0) {
                clock_gettime(CLOCK_MONOTONIC, &t1);
                if ((double)(t1.tv_sec - t0.tv_sec) +
                        (double)(t1.tv_nsec - t0.tv_nsec) / 1e9 >
                    seconds)
                    return std::string(); /* out of time: none */
            }
            const std::string best = correct_word(h, text.substr(ws, we - ws));
            if (best.empty())
                continue;
            out.append(text, copied, ws - copied);
            out += best;
            copied = we;
            changed = true;
        }
    }
    out.append(text, copied, std::string::npos);
    return changed ? out : std::string();
}

static void run_search(shim_db *h, const shim_query *q, shim_totals *totals,
                       std::vector<shim_hit> &hits,
                       std::map<std::string, double> &snippet_stems,
                       Facets *spy)
{
    const bool has_text = q->text && *q->text;
    totals->note[0] = '\0';
    Xapian::Query query;
    /* The phrases every match must hold, checked only for the works that
     * would make the page (PhraseFilter). */
    PhraseFilter phrases(h->db);
    if (has_text) {
        std::string note;
        /* Over Xapian's positions phrases are Xapian's own
         * (xapian_phrases) and never reach the decider, which Xapian
         * would refuse through xapian-tcpsrv. */
        query = parse(h, q->text, q->lenient != 0, note, &phrases);
        snprintf(totals->note, sizeof totals->note, "%s", note.c_str());
    } else {
        query = every_work();
    }
    Xapian::Query filter = build_filter(q);
    /* Feedback may add matches to an OR of words; anything stricter (+x,
     * -x, AND, NOT, a phrase) keeps its match set and is only re-ranked. */
    const Xapian::Query::op top_op = query.get_type();
    const bool loose = top_op == Xapian::Query::LEAF_TERM ||
                       top_op == Xapian::Query::OP_OR ||
                       top_op == Xapian::Query::OP_SYNONYM;
    if (has_text && (q->title_weight > 0 || q->author_weight > 0)) {
        /* Field boosts add to the score of what the query matches; they
         * never add matches (AND_MAYBE). */
        const std::string plain = lower_words(unaccent(q->text));
        std::vector<Xapian::Query> boosts;
        if (q->title_weight > 0)
            boosts.emplace_back(Xapian::Query::OP_SCALE_WEIGHT,
                                reader(h).qp_title.parse_query(plain, 0),
                                q->title_weight);
        if (q->author_weight > 0)
            boosts.emplace_back(Xapian::Query::OP_SCALE_WEIGHT,
                                reader(h).qp_author.parse_query(plain, 0),
                                q->author_weight);
        query = Xapian::Query(
            Xapian::Query::OP_AND_MAYBE, query,
            Xapian::Query(Xapian::Query::OP_OR, boosts.begin(), boosts.end()));
    }
    const Xapian::MatchDecider *decider =
        phrases.checks.empty() ? nullptr : &phrases;
    if (has_text && q->expand_docs)
        query = expand(h, q, query, filter, loose, decider);
    if (!filter.empty())
        query = Xapian::Query(Xapian::Query::OP_FILTER, query, filter);

    /* One Enquire per handle, made at the first search: it holds the
     * database and the sort key makers, so a query only sets what
     * changes. */
    if (!reader(h).enq)
        reader(h).enq.reset(new Xapian::Enquire(h->db));
    Xapian::Enquire &enq = *reader(h).enq;
    enq.clear_matchspies();
    /* The words scored by paperdex's posting sources, with the works'
     * lengths from an array once the handle has read them, and ORs of
     * words before that too (searcher/bm25.cc): the same scores. */
    std::shared_ptr<const DocLengths> lens;
    if (has_text && q->k1 > 0 && q->b > 0)
        lens = reader(h).lengths.get(h, query);
    enq.set_query(lens ? with_lengths(query, lens, q->k1, q->b)
                       : query);
    enq.set_time_limit(q->time_limit); /* 0: none */
    if (has_text)
        enq.set_weighting_scheme(Xapian::BM25Weight(q->k1, 0, 1, q->b, 0.5));
    else
        enq.set_weighting_scheme(Xapian::BoolWeight());
    if (q->sort == SHIM_SORT_NEWEST)
        enq.set_sort_by_key(&reader(h).newest, false);
    else if (q->sort == SHIM_SORT_OLDEST)
        enq.set_sort_by_key(&reader(h).oldest, false);
    else
        enq.set_sort_by_relevance_then_value(SLOT_ID, false);

    /* check_at_least: by default only what the page needs (offset +
     * limit), so a top-10 query stops as soon as no other work can enter
     * the top 10, and the total is Xapian's estimate with its bounds;
     * --exact and facets must see every match. */
    Xapian::doccount check = static_cast<Xapian::doccount>(q->offset + q->limit);
    if (q->exact_total || spy)
        check = h->db.get_doccount();
    if (spy)
        spy->attach(enq);
    Xapian::MSet ms = enq.get_mset(static_cast<Xapian::doccount>(q->offset),
                                   static_cast<Xapian::doccount>(q->limit),
                                   check, nullptr, decider);
    enq.clear_matchspies(); /* the spy belongs to this call */
    hits.clear();
    hits.reserve(ms.size());
    snippet_stems.clear();
    if (q->snippet_bytes && has_text)
        snippet_stems = snippet_weights(h, query);
    for (Xapian::MSetIterator it = ms.begin(); it != ms.end(); ++it) {
        shim_hit hit{it.get_weight(), stored_record(h, it.get_document()), ""};
        if (q->explain && has_text)
            hit.explain = explain_hit(h, query, *it, it.get_weight(), q->k1,
                                      q->b);
        hits.push_back(std::move(hit));
    }
    totals->estimated = ms.get_matches_estimated();
    totals->lower = ms.get_matches_lower_bound();
    totals->upper = ms.get_matches_upper_bound();
    totals->suggestion[0] = '\0';
    if (q->suggest && has_text) {
        std::string sug = suggest(h, q->text, q->time_limit);
        if (!sug.empty() && sug.size() < sizeof totals->suggestion)
            memcpy(totals->suggestion, sug.c_str(), sug.size() + 1);
    }
}

extern "C" int shim_search(shim_totals *totals, shim_db *h,
                           const shim_query *q, shim_hit_fn fn,
                           shim_snippet_fn snip_fn, shim_facet_fn facet_fn,
                           void *ctx, shim_err *e)
{
    try {
        settle(h);
        std::vector<shim_hit> hits;
        std::map<std::string, double> stems;
        std::unique_ptr<Facets> spy;
        if (q->facets)
            spy.reset(new Facets(q->facets));
        with_reopen(h, [&] {
            run_search(h, q, totals, hits, stems, spy.get());
        });
        const bool snippets = q->snippet_bytes && q->text && *q->text;
        for (const auto &hit : hits) {
            /* The caller decodes the record once and lends its abstract:
             * the snippet is made from that, not from a second parse. */
            const char *abstract = nullptr;
            if (fn(ctx, hit.score, hit.data.data(), hit.data.size(),
                   hit.explain.empty() ? nullptr : hit.explain.c_str(),
                   &abstract) ||
                (snippets &&
                 snip_fn(ctx, make_snippet(h, abstract ? abstract : "", stems,
                                           q->snippet_bytes)
                                  .c_str()))) {
                set_msg(e, PDX_ENOMEM, "out of memory");
                return PDX_ENOMEM;
            }
        }
        for (unsigned k = 0; spy && k < SHIM_N_FACETS; k++) {
            if (!(q->facets & (1u << k)))
                continue;
            const std::map<std::string, uint64_t> counts = spy->fold(k);
            std::vector<std::pair<std::string, uint64_t>> top(counts.begin(),
                                                              counts.end());
            std::stable_sort(top.begin(), top.end(),
                             [](const std::pair<std::string, uint64_t> &a,
                                const std::pair<std::string, uint64_t> &b) {
                                 return a.second > b.second;
                             }); /* the map gave value order for ties */
            if (top.size() > q->facet_limit)
                top.resize(q->facet_limit);
            for (const auto &v : top)
                if (facet_fn(ctx, 1u << k, v.first.c_str(), v.second)) {
                    set_msg(e, PDX_ENOMEM, "out of memory");
                    return PDX_ENOMEM;
                }
        }
        return 0;
    } catch (...) {
        return fail(e);
    }
}

/* Expand-set terms worth suggesting: the default field's stems (no
 * prefix), never boolean or field terms, so the feedback query ranks by
 * content. */
struct ContentTerms : public Xapian::ExpandDecider {
    bool operator()(const std::string &t) const override
    {
        return is_plain_term(t);
    }
};

extern "C" int shim_similar(shim_totals *totals, shim_db *h, const char *id,
                            size_t n_terms, double k1, double b, size_t limit,
                            shim_hit_fn fn, void *ctx, shim_err *e)
{
    try {
        std::vector<std::pair<double, std::string>> hits;
        bool found = true;
        const std::string q = std::string(LAYOUT_P_ID) + id;
        settle(h);
        with_reopen(h, [&] {
            hits.clear();
            Xapian::PostingIterator p = h->db.postlist_begin(q);
            if (p == h->db.postlist_end(q)) {
                found = false;
                return;
            }
            Xapian::Enquire enq(h->db);
            Xapian::RSet rset;
            rset.add_document(*p);
            ContentTerms decider;
            Xapian::ESet eset = enq.get_eset(
                static_cast<Xapian::termcount>(n_terms), rset, &decider);
            std::vector<std::string> terms(eset.begin(), eset.end());
            Xapian::Query query(Xapian::Query::OP_ELITE_SET, terms.begin(),
                                terms.end(),
                                static_cast<Xapian::termcount>(n_terms));
            enq.set_query(Xapian::Query(Xapian::Query::OP_AND_NOT, query,
                                        Xapian::Query(q)));
            enq.set_weighting_scheme(Xapian::BM25Weight(k1, 0, 1, b, 0.5));
            enq.set_sort_by_relevance_then_value(SLOT_ID, false);
            Xapian::MSet ms =
                enq.get_mset(0, static_cast<Xapian::doccount>(limit));
            for (Xapian::MSetIterator it = ms.begin(); it != ms.end(); ++it)
                hits.emplace_back(it.get_weight(),
                                  stored_record(h, it.get_document()));
            totals->estimated = ms.get_matches_estimated();
            totals->lower = ms.get_matches_lower_bound();
            totals->upper = ms.get_matches_upper_bound();
        });
        if (!found) {
            set_msg(e, PDX_ENOTFOUND,
                    std::string("no work with id '") + id + "'");
            return PDX_ENOTFOUND;
        }
        for (const auto &hit : hits)
            if (fn(ctx, hit.first, hit.second.data(), hit.second.size(),
                   nullptr, nullptr)) {
                set_msg(e, PDX_ENOMEM, "out of memory");
                return PDX_ENOMEM;
            }
        return 0;
    } catch (...) {
        return fail(e);
    }
}

extern "C" int shim_stats_get(shim_stats *out, shim_db *h, shim_err *e)
{
    try {
        settle(h);
        with_reopen(h, [&] {
            out->docs = works_of(h);
            out->postings = h->db.get_total_length();
            out->avg_length = h->db.get_avlength();
            uint64_t n = 0;
            for (Xapian::TermIterator t = h->db.allterms_begin();
                 t != h->db.allterms_end(); ++t)
                n++;
            out->terms = n;
            std::string up = h->db.get_metadata(UPDATED_KEY);
            out->last_updated = up.empty() ? 0 : std::stoll(up);
            out->layout = std::stoi(h->db.get_metadata(LAYOUT_KEY));
            std::string re = h->db.get_metadata(LAYOUT_META_REINDEXED);
            out->last_reindex = re.empty() ? 0 : std::stoll(re);
            uint64_t ns = 0;
            for (Xapian::TermIterator k =
                     h->db.metadata_keys_begin(LAYOUT_META_SOURCE);
                 k != h->db.metadata_keys_end(LAYOUT_META_SOURCE); ++k)
                ns++;
            out->sources = ns;
        });
        return 0;
    } catch (...) {
        return fail(e);
    }
}

