/*
 * query_parse.cc -- the query language: a query's text as a Xapian
 * query over the layout's terms.  Xapian's QueryParser reads the words,
 * phrases, operators and field prefixes; the field processors here read
 * category:, year: and subject: as the flags' filters; then the parsed
 * query is fitted to the layout (fit_layout: a phrase of title or author
 * words checked against the works' positions values, common/positions.cc;
 * an abstract word or wildcard searched in the default field), a query
 * of excluded words only becomes "every work but those", and a query of
 * more than PDX_MAX_QUERY_TERMS terms keeps the most informative.  Also
 * the filters of pdx_query as one boolean query (build_filter).
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

#include "read_side.hh"
extern "C" {
#include "../common/text.h"
#include "author_keys.h"
#include "qscan.h"
}

using namespace pdxshim;

namespace {

const char *const LAYOUT_KEY = LAYOUT_META_LAYOUT;

/* The works of one author key of two initials or more ("M.-H. Yang"):
 * the works of its family name (XAL), or of its XAF term for a full
 * name's "family i", whose stored author names answer
 * the key (author_answers: initials checked), found when the match
 * starts, from the SLOT_AUTHORS value stream in docid order, so that its
 * count is exact.  Weight 0, like the filter it is.  A local database
 * only: xapian-tcpsrv cannot run it (author_query). */
class InitialsSource : public Xapian::PostingSource {
    std::string family, key, initials, strict_if;
    int kind, rules;
    std::vector<Xapian::docid> docs; /* the works that answer, ascending */
    size_t at = 0;
    bool started = false;

  public:
    InitialsSource(const std::string &family_, const shim_author_key &k,
                   int rules_)
        : family(family_), key(k.key), initials(k.initials),
          strict_if(k.strict_if ? k.strict_if : ""), kind(k.kind), rules(rules_)
    {
    }
    /* the key it checks the works' names against */
    shim_author_key checked() const
    {
        return shim_author_key{kind, key.c_str(), initials.c_str(), 0,
                               strict_if.empty() ? nullptr : strict_if.c_str()};
    }
    Xapian::PostingSource *clone() const override
    {
        const shim_author_key k = checked();
        return new InitialsSource(family, k, rules);
    }
    void init(const Xapian::Database &db) override
    {
        /* the works holding the key's full-name term ("yang m", the works
         * that know only the initial), or for initials every work of
         * the family name */
        const std::string term = kind == SHIM_AUTHOR_FULL
                                     ? LAYOUT_P_AUTHOR_FULL + key
                                     : LAYOUT_P_AUTHOR_FAMILY + family;
        const shim_author_key k = checked();
        docs.clear();
        Xapian::ValueIterator val = db.valuestream_begin(SLOT_AUTHORS);
        const Xapian::ValueIterator val_end = db.valuestream_end(SLOT_AUTHORS);
        for (Xapian::PostingIterator it = db.postlist_begin(term);
             it != db.postlist_end(term) && val != val_end; ++it) {
            val.skip_to(*it);
            if (val == val_end)
                break;
            if (val.get_docid() != *it)
                continue;
            const std::string v = *val;
            if (authors_answer(v.data(), v.size(), rules, &k, 1) > 0)
                docs.push_back(*it);
        }
        at = 0;
        started = false;
        set_maxweight(0);
    }
    Xapian::doccount get_termfreq_min() const override { return docs.size(); }
    Xapian::doccount get_termfreq_est() const override { return docs.size(); }
    Xapian::doccount get_termfreq_max() const override { return docs.size(); }
    void next(double) override
    {
        if (started)
            at++;
        started = true;
    }
    void skip_to(Xapian::docid did, double) override
    {
        started = true;
        at = std::lower_bound(docs.begin() + at, docs.end(), did) - docs.begin();
    }
    bool at_end() const override { return started && at >= docs.size(); }
    Xapian::docid get_docid() const override { return docs[at]; }
    std::string get_description() const override
    {
        return "InitialsSource(" + key + " " + initials + ")";
    }
};

/* An author filter key as a query: the family name's XAL term, the full
 * name's XAF term, and for "family i" every XAF term it begins (the full
 * names of that initial, and "family i" itself where only initials are
 * known).  A key that carries initials to check is InitialsSource's,
 * unless a shard is remote (`local` false): there its terms alone. */
Xapian::Query author_query(const shim_author_key &k, int rules, bool local)
{
    const std::string key = cut_key(k.key);
    if (k.initials && local && k.kind != SHIM_AUTHOR_FAMILY) {
        const std::string family = key.substr(0, key.find(' '));
        const shim_author_key cut{k.kind, key.c_str(), k.initials, 0, k.strict_if};
        return Xapian::Query((new InitialsSource(family, cut, rules))->release());
    }
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

} // namespace

/* keys[0..n)'s strict_if, against h's terms (shim_author_keys_held,
 * without the fence). */
static void keys_held(shim_db *h, shim_author_key *keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (keys[i].strict_if &&
            !h->db.term_exists(LAYOUT_P_AUTHOR_FULL + cut_key(keys[i].strict_if))) {
            keys[i].strict_if = nullptr;
            keys[i].initials = nullptr;
        }
}

extern "C" int shim_author_keys_held(shim_db *h, shim_author_key *keys,
                                     size_t n, shim_err *e)
{
    try {
        with_reopen(h, [&] { keys_held(h, keys, n); });
        return 0;
    } catch (...) {
        return fail(e);
    }
}

int author_name_query(shim_db *h, const std::string &name, Xapian::Query &out)
{
    arena a = {};
    shim_author_key keys[AUTHOR_KEYS_MAX];
    size_t n = 0;
    const int rc = author_filter_keys(&a, name.c_str(), h->names, keys, &n);
    if (rc == 0)
        keys_held(h, keys, n);
    std::vector<Xapian::Query> alts;
    const bool local = all_local(h);
    for (size_t i = 0; rc == 0 && i < n; i++)
        alts.push_back(author_query(keys[i], h->names, local));
    arena_free(&a);
    if (rc == 0)
        out = Xapian::Query(Xapian::Query::OP_OR, alts.begin(), alts.end());
    return rc;
}

/* Is every database of h on this machine (no xapian-tcpsrv shard)? */
bool all_local(shim_db *h)
{
    for (const shard_id &s : h->shards)
        if (!s.local && s.path.compare(0, 6, "tcp://") == 0)
            return false;
    return true;
}

namespace {

/* `author:"Z. Wu"`, `author:LeCun`: a filter, by the same name rules as
 * --author (author_filter_keys); its values are kept, as written, for
 * the hits' matched authors. */
struct AuthorField : public Xapian::FieldProcessor {
    FieldError *err;
    shim_db *h;
    std::vector<std::string> *seen;
    AuthorField(FieldError *e, shim_db *h_, std::vector<std::string> *s)
        : err(e), h(h_), seen(s)
    {
    }
    Xapian::Query operator()(const std::string &value) override
    {
        Xapian::Query q;
        const int rc = author_name_query(h, value, q);
        if (rc == -1) { /* thrown by parse_query, after the parser */
            err->out_of_memory = true;
            return Xapian::Query::MatchNothing;
        }
        if (rc) {
            if (err->msg.empty())
                err->msg = "author:" + value + " names no family name";
            return Xapian::Query::MatchNothing;
        }
        seen->push_back(value);
        return q;
    }
};

/* `firstauthor:Bengio`, `firstauthor:"Yoshua Bengio"`: the works
 * author: finds whose first author has that family name (its XAP keys,
 * LAYOUT_META_FIRST_AUTHOR), as PubMed's [1au] and Scopus's FIRSTAUTH()
 * find them.  An index without the first authors' keys (an older
 * paperdex built it) finds what author: finds, and says so
 * (`*unknown`). */
struct FirstAuthorField : public Xapian::FieldProcessor {
    FieldError *err;
    shim_db *h;
    std::vector<std::string> *seen;
    bool *unknown;
    FirstAuthorField(FieldError *e, shim_db *h_, std::vector<std::string> *s,
                     bool *u)
        : err(e), h(h_), seen(s), unknown(u)
    {
    }
    Xapian::Query operator()(const std::string &value) override
    {
        Xapian::Query any;
        arena a = {};
        shim_author_key keys[AUTHOR_KEYS_MAX];
        size_t n = 0;
        const int rc = author_name_query(h, value, any) ? -2
                       : author_filter_keys(&a, value.c_str(), h->names, keys, &n);
        if (rc == -1) {
            arena_free(&a);
            err->out_of_memory = true;
            return Xapian::Query::MatchNothing;
        }
        if (rc) {
            arena_free(&a);
            if (err->msg.empty())
                err->msg = "firstauthor:" + value + " names no family name";
            return Xapian::Query::MatchNothing;
        }
        seen->push_back(value);
        if (!h->first_author) {
            arena_free(&a);
            *unknown = true;
            return any;
        }
        /* the family name of each key ("bengio", "bengio yoshua") */
        std::vector<std::string> firsts;
        for (size_t i = 0; i < n; i++) {
            const std::string key = cut_key(keys[i].key);
            const std::string t = LAYOUT_P_AUTHOR_FIRST + key.substr(0, key.find(' '));
            if (std::find(firsts.begin(), firsts.end(), t) == firsts.end())
                firsts.push_back(t);
        }
        arena_free(&a);
        return Xapian::Query(Xapian::Query::OP_AND, any,
                             Xapian::Query(Xapian::Query::OP_OR, firsts.begin(),
                                           firsts.end()));
    }
};

/* `category:cs.CV`, `category:cs`, `category:CV`, `category:"Machine
 * Learning"`: the same keys as the --category flag (text_category_keys,
 * the one rule), a name's codes OR-ed beside it. */
struct CategoryField : public Xapian::FieldProcessor {
    FieldError *err;
    explicit CategoryField(FieldError *e) : err(e) {}
    Xapian::Query operator()(const std::string &value) override
    {
        arena a = {};
        char *k[TEXT_CATEGORY_KEYS];
        const int nk = text_category_keys(&a, value.c_str(), 1, k);
        std::vector<Xapian::Query> terms;
        for (int i = 0; i < nk; i++)
            if (strlen(k[i]) + strlen(LAYOUT_P_CATEGORY) <= MAX_TERM_BYTES)
                terms.emplace_back(std::string(LAYOUT_P_CATEGORY) + k[i]);
        arena_free(&a);
        if (nk < 0) {
            err->out_of_memory = true;
            return Xapian::Query::MatchNothing;
        }
        if (terms.empty()) {
            if (err->msg.empty())
                err->msg = "category:" + value +
                           " is not a category (cs.CV, cs, CV or a name)";
            return Xapian::Query::MatchNothing;
        }
        return Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end());
    }
};

/* `subject:Neoplasms`, `subject:"Drug Therapy"`: a whole subject term,
 * folded as the index folds it. */
struct SubjectField : public Xapian::FieldProcessor {
    FieldError *err;
    std::vector<std::string> *seen;
    SubjectField(FieldError *e, std::vector<std::string> *s) : err(e), seen(s)
    {
    }
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
        seen->push_back(value);
        return Xapian::Query(LAYOUT_P_SUBJECT + cut_key(key.c_str()));
    }
};

/* `year:2020`, `year:2019..2021`, `year:2019..`, `year:..2021`,
 * `year:>=2019` (pdx_parse_year_range). */
struct YearField : public Xapian::FieldProcessor {
    FieldError *err;
    std::vector<std::pair<int, int>> *seen;
    shim_db *h;
    YearField(FieldError *e, std::vector<std::pair<int, int>> *s, shim_db *h_)
        : err(e), seen(s), h(h_)
    {
    }
    Xapian::Query operator()(const std::string &value) override
    {
        int lo, hi;
        if (pdx_parse_year_range(value.c_str(), &lo, &hi)) {
            if (err->msg.empty())
                err->msg = "year:" + value + " is not a year or a range "
                           "(2020, 2019..2021, 2019.., ..2021, >=2019, <2022; "
                           "years of four digits, the first no later than "
                           "the last)";
            return Xapian::Query::MatchNothing;
        }
        seen->emplace_back(lo, hi);
        return year_range_query(h, lo, hi);
    }
};


} // namespace

Reader::Reader(shim_db *h)
    : cjk_flag(h->cjk_ngram ? unsigned(Xapian::QueryParser::FLAG_CJK_NGRAM)
                            : 0u)
{
    qp.set_database(h->db);
    qp.set_stemmer(h->stem);
    qp.set_stemming_strategy(Xapian::QueryParser::STEM_ALL);
    qp.set_default_op(Xapian::Query::OP_OR);
    qp.set_stopper(&h->stopper);
    qp.add_prefix("title", LAYOUT_P_TITLE);
    qp.add_prefix("abstract", LAYOUT_P_ABSTRACT);
    /* The author names' words, scored (the name filter is author:):
     * how --batch searches a test-collection query's named authors. */
    qp.add_prefix("authorword", LAYOUT_P_AUTHOR);
    /* Filters, exactly as the flags: several category: OR, and
     * category: ANDs with year: (different boolean prefixes). */
    qp.add_boolean_prefix("category",
                          (new CategoryField(&field_error))->release());
    qp.add_boolean_prefix(
        "year", (new YearField(&field_error, &year_values, h))->release());
    qp.add_boolean_prefix(
        "author", (new AuthorField(&field_error, h, &author_values))->release());
    qp.add_boolean_prefix(
        "firstauthor", (new FirstAuthorField(&field_error, h, &author_values,
                                             &first_author_unknown))
                           ->release());
    qp.add_boolean_prefix("subject",
                          (new SubjectField(&field_error, &subject_values))
                              ->release());
    qp.set_max_expansion(PDX_WILDCARD_MAX,
                         Xapian::Query::WILDCARD_LIMIT_MOST_FREQUENT);
    newest.add_value(SLOT_DATE, true); /* undated last */
    newest.add_value(SLOT_ID, true); /* ties: the later id first */
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

/* A filter's keys as one query: an OR of them all, or with filters_all
 * an AND over the values given of each value's alternatives (groups[i]
 * numbers key i's value; the keys of one value are consecutive). */
static Xapian::Query filter_part(const std::vector<Xapian::Query> &alts,
                                 const std::vector<unsigned> &groups, bool all)
{
    if (!all)
        return Xapian::Query(Xapian::Query::OP_OR, alts.begin(), alts.end());
    std::vector<Xapian::Query> each;
    for (size_t i = 0; i < alts.size();) {
        size_t j = i;
        while (j < alts.size() && groups[j] == groups[i])
            j++;
        each.emplace_back(Xapian::Query::OP_OR, alts.begin() + i,
                          alts.begin() + j);
        i = j;
    }
    return Xapian::Query(Xapian::Query::OP_AND, each.begin(), each.end());
}

/* The most year terms a year filter ORs: a wider range of years is read
 * as SLOT_YEAR's range, one value a work, where the OR would merge that
 * many posting lists. */
static const size_t YEAR_TERMS_MAX = 16;

Xapian::Query year_range_query(shim_db *h, int lo, int hi, bool *by_value)
{
    if (h->year_terms) {
        const std::string p(LAYOUT_P_YEAR);
        std::vector<Xapian::Query> years;
        for (Xapian::TermIterator t = h->db.allterms_begin(p);
             t != h->db.allterms_end(p); ++t) {
            const int y = atoi((*t).c_str() + p.size());
            if ((!lo || y >= lo) && (!hi || y <= hi))
                years.emplace_back(*t);
        }
        /* none: the value range, which matches nothing as well (an empty
         * query would filter nothing out) */
        if (!years.empty() && years.size() <= YEAR_TERMS_MAX)
            return Xapian::Query(Xapian::Query::OP_OR, years.begin(),
                                 years.end());
    }
    if (by_value)
        *by_value = true;
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

Xapian::Query build_filter(shim_db *h, const shim_query *q, bool *by_value)
{
    if (by_value)
        *by_value = false;
    std::vector<Xapian::Query> parts;
    const bool all = q->filters_all != 0;
    if (q->n_cat_keys) {
        std::vector<Xapian::Query> alts;
        std::vector<unsigned> groups;
        for (size_t i = 0; i < q->n_cat_keys; i++) {
            alts.emplace_back(LAYOUT_P_CATEGORY + cut_key(q->cat_keys[i]));
            groups.push_back(q->cat_groups ? q->cat_groups[i] : 0);
        }
        parts.push_back(filter_part(alts, groups, all));
    }
    if (q->n_author_keys) {
        std::vector<Xapian::Query> alts;
        std::vector<unsigned> groups;
        for (size_t i = 0; i < q->n_author_keys; i++) {
            alts.push_back(author_query(q->author_keys[i], h->names,
                                        all_local(h)));
            groups.push_back(q->author_keys[i].group);
        }
        parts.push_back(filter_part(alts, groups, all));
    }
    if (q->n_subject_keys) {
        std::vector<Xapian::Query> alts;
        std::vector<unsigned> groups;
        for (size_t i = 0; i < q->n_subject_keys; i++) {
            alts.emplace_back(LAYOUT_P_SUBJECT + cut_key(q->subject_keys[i]));
            groups.push_back(q->subject_groups ? q->subject_groups[i] : 0);
        }
        parts.push_back(filter_part(alts, groups, all));
    }
    if (q->year_min > 0 || q->year_max > 0)
        parts.push_back(year_range_query(h, q->year_min > 0 ? q->year_min : 0,
                                         q->year_max > 0 ? q->year_max : 0,
                                         by_value));
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
std::string lower_words(const std::string &text)
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

std::string plain_vowels(const std::string &s)
{
    std::string plain = s;
    for (const char *pair : {"ae", "oe", "ue"})
        for (size_t at; (at = plain.find(pair)) != std::string::npos;)
            plain.erase(at + 1, 1);
    return plain;
}

/* A term of the default field: no prefix (every prefix of ours is upper
 * case, every word lower case). */
bool is_plain_term(const std::string &t)
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
 * ("Query(WILDCARD SYNONYM XBoptim)": the word after WILDCARD is how its
 * expansions combine, the rest the pattern, which may hold a space, as an
 * author's initial's "XAFyang m" does): Xapian 1.4 has no getter for
 * it. */
static std::string wildcard_pattern(const Xapian::Query &q)
{
    static const char tag[] = "WILDCARD ";
    std::string d = q.get_description();
    const size_t w = d.find(tag), close = d.rfind(')');
    const size_t sp = w == std::string::npos ? w : d.find(' ', w + sizeof tag - 1);
    if (close == std::string::npos || sp == std::string::npos || sp >= close)
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

/* The index's words (its spelling table: LAYOUT_META_SPELLING) that
 * begin with prefix, at most PDX_WILDCARD_MAX of them. */
static std::vector<std::string> words_from(shim_db *h, const std::string &prefix)
{
    std::vector<std::string> out;
    if (!h->spelling)
        return out;
    Xapian::TermIterator t = h->db.spellings_begin();
    t.skip_to(prefix);
    for (; t != h->db.spellings_end() && out.size() < PDX_WILDCARD_MAX; ++t) {
        if ((*t).compare(0, prefix.size(), prefix) != 0)
            break;
        out.push_back(*t);
    }
    return out;
}

/* Whether some database searched keeps its positions by the term
 * (common/chunks.cc), asked once a handle. */
static bool any_chunks(shim_db *h)
{
    if (h->chunks_any < 0) {
        h->chunks_any = h->chunks;
        for (const Xapian::Database &d : h->subs)
            if (d.get_metadata(LAYOUT_META_CHUNKS) == "1")
                h->chunks_any = 1;
    }
    return h->chunks_any > 0;
}

/* The posting source of the works passing rules: their forms values, or
 * where a database keeps its positions by the term, its chunks. */
static Xapian::PostingSource *form_source(shim_db *h, std::vector<FormRule> rules)
{
    if (any_chunks(h))
        return (new ChunkFormSource(std::move(rules)))->release();
    return (new FormSource(std::move(rules)))->release();
}

/* The rule for `form` of `stem` (common/forms.cc): for a stem written as
 * itself, the index's other words of that stem, which begin with the
 * stem or all of it but its last letter (porter2's y to i: study,
 * studi). */
static FormRule rule_for(shim_db *h, const std::string &form,
                         const std::string &stem)
{
    std::vector<std::string> others;
    if (form == stem)
        for (const std::string &w :
             words_from(h, stem.substr(0, stem.size() > 1 ? stem.size() - 1 : 1)))
            if (w != stem && h->stem(w) == stem)
                others.push_back(w);
    return FormRule::written(form, stem, others);
}

/* `optimiza*` over the words as written (an index with LAYOUT_META_FORMS,
 * common/forms.cc): Xapian expands a wildcard over the stems, and a
 * prefix longer than a stem ("optim", of optimization) finds none of its
 * works.  The index's words that begin with the prefix (its spelling
 * table: up to PDX_WILDCARD_MAX of them) bring their stems in: the
 * wildcard is then the stems that begin with it and those stems, scored
 * together as one term (OP_SYNONYM, as every wildcard), matching the
 * works that hold a stem beginning with it or write one of those words.
 * When every such word's stem begins with the prefix (most wildcards:
 * `neur*`), Xapian's own wildcard is kept: the same works.  A work that
 * wrote only "study" still matches `studi*` through its stem. */
static Xapian::Query form_wildcard(shim_db *h, const Xapian::Query &q,
                                   const std::string &prefix)
{
    if (!h->forms || prefix.empty() || !all_local(h))
        return q;
    std::set<std::string> outside; /* stems not beginning with prefix */
    FormRule written;                /* the words whose stems those are */
    for (const std::string &w : words_from(h, prefix)) {
        const std::string stem = h->stem(w);
        if (stem.compare(0, prefix.size(), prefix) != 0) {
            if (outside.insert(stem).second)
                written.stems.push_back(stem);
            written.any.push_back(form_hash32(w));
        }
    }
    if (outside.empty())
        return q;
    std::vector<Xapian::Query> scored{q}, extra;
    for (const std::string &s : outside) {
        scored.emplace_back(s);
        extra.emplace_back(s);
    }
    const Xapian::Query where[] = {
        q, Xapian::Query(
               Xapian::Query::OP_FILTER,
               Xapian::Query(Xapian::Query::OP_OR, extra.begin(), extra.end()),
               Xapian::Query(form_source(h, std::vector<FormRule>{written})))};
    return Xapian::Query(
        Xapian::Query::OP_FILTER,
        Xapian::Query(Xapian::Query::OP_SYNONYM, scored.begin(), scored.end()),
        Xapian::Query(Xapian::Query::OP_OR, std::begin(where), std::end(where)));
}

/* Is a stem one CJK character: a unigram of CJK text read in n-grams
 * (LAYOUT_META_CJK)? */
static bool cjk_unigram(const std::string &s)
{
    Xapian::Utf8Iterator u(s);
    if (u == Xapian::Utf8Iterator())
        return false;
    const unsigned ch = *u;
    return ++u == Xapian::Utf8Iterator() && ch >= 0x2e80;
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
 *     PhraseFilter's time.
 *
 * A mix of the two kinds (one local index of each) keeps paperdex's
 * matchers, which read either kind work by work. */
static bool xapian_phrases(shim_db *h)
{
    const bool remote = !all_local(h);
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

/* ---- Words as written ------------------------------------------------
 *
 * An index stamped LAYOUT_META_FORMS keeps the words each work writes
 * where they are not their own stems (common/forms.cc).  A quoted word
 * or phrase then matches the words as written, case and accents folded,
 * as Omega (STEM_SOME) and the web engines read quotes: "transformer" is
 * not "transformation", "models" not "model"; unquoted words stay
 * stemmed.  The query is held to them by a FormSource beside it
 * (OP_FILTER): scores are the stems' as before, the forms only filter.
 * A phrase is matched by its stems' positions, each word held to the
 * positions where the work writes it as quoted (SLOT_FORMS_AT,
 * common/forms.cc): "large language models" misses a work that writes
 * "large language model" and "models" elsewhere.
 * The form is any field's (`title:"models"`: the stem in the title, the
 * form anywhere).  Through xapian-tcpsrv (no posting source of ours
 * runs there) quoted words are stems.
 *
 * A quoted passage is found in the query text (its quotes, ASCII or
 * typographic, as Xapian's parser takes them), its words read by a
 * parser without stemmer (qp_forms), and matched to the phrase (or
 * single term) of the parsed query whose stems are theirs, in order. */
struct Quoted {
    std::vector<std::string> forms, stems; /* stop words left out */
    bool used = false;
};

/* The length of the quote at text[i] as Xapian's parser takes one ('"',
 * U+201C or U+201D), or 0. */
static size_t quote_at(const std::string &text, size_t i)
{
    if (text[i] == '"')
        return 1;
    return text.compare(i, 3, "\xe2\x80\x9c") == 0 ||
                   text.compare(i, 3, "\xe2\x80\x9d") == 0
               ? 3
               : 0;
}

/* The quoted passages of text, and their words, when h keeps forms. */
static std::vector<Quoted> quoted_passages(shim_db *h, const std::string &text)
{
    std::vector<Quoted> out;
    if (!h->forms || !all_local(h)) /* a posting source of ours */
        return out;
    size_t open = std::string::npos;
    /* An unclosed quote runs to the end of the text, as Xapian's parser
     * reads it (the phrase it builds ends there too). */
    for (size_t i = 0, len; i <= text.size(); i++) {
        const bool end = i == text.size();
        if (end ? open == std::string::npos : !(len = quote_at(text, i)))
            continue;
        if (end)
            len = 1;
        if (open == std::string::npos) {
            open = i + len;
        } else {
            const std::string passage = text.substr(open, i - open);
            open = std::string::npos;
            /* a phrase ending in a wildcard ("deep reinforc*") is matched
             * by the stems of its expansions (vary_phrase) */
            const size_t last = passage.find_last_not_of(" \t");
            if (last != std::string::npos && passage[last] == '*') {
                i += len - 1;
                continue;
            }
            Quoted qd;
            Xapian::Query words;
            try {
                words = reader(h).qp_forms.parse_query(passage, 0);
            } catch (const Xapian::QueryParserError &) {
                continue;
            }
            for (Xapian::TermIterator t = words.get_terms_begin();
                 t != words.get_terms_end(); ++t) {
                const std::string stem = unmark(h->stem(*t));
                if (stem.empty() || h->stop_stems.count(stem))
                    continue;
                std::string form = unmark(*t); /* a possessive's 's left
                                                * out, as the indexer
                                                * leaves it */
                if (form.size() > 2 && form.compare(form.size() - 2, 2, "'s") == 0)
                    form.resize(form.size() - 2);
                qd.forms.push_back(form);
                qd.stems.push_back(stem);
            }
            if (qd.forms.empty())
                continue;
            /* and the passage with its Greek letters as their names and
             * the names as letters, which the phrase's variant
             * (greek_phrase) holds to those forms */
            Quoted greek = qd;
            bool swapped = false;
            for (size_t w = 0; w < greek.forms.size(); w++)
                for (const auto &g : text_greek)
                    if (greek.forms[w] == g[0] || greek.forms[w] == g[1]) {
                        greek.forms[w] = greek.forms[w] == g[0] ? g[1] : g[0];
                        greek.stems[w] = h->stem(greek.forms[w]);
                        swapped = true;
                        break;
                    }
            out.push_back(std::move(qd));
            if (swapped)
                out.push_back(std::move(greek));
        }
        i += len - 1;
    }
    return out;
}

/* The rules of the first unused quoted passage whose stems are `stems`
 * (none when there is no such passage). */
static std::vector<FormRule> quoted_rules(shim_db *h,
                                          const std::vector<std::string> &stems,
                                          std::vector<Quoted> *quoted)
{
    std::vector<FormRule> rules;
    if (!quoted)
        return rules;
    for (Quoted &qd : *quoted) {
        if (qd.used || qd.stems != stems)
            continue;
        qd.used = true;
        for (size_t i = 0; i < qd.forms.size(); i++)
            rules.push_back(rule_for(h, qd.forms[i], qd.stems[i]));
        break;
    }
    return rules;
}

/* q held to the works whose forms pass rules (q itself for none). */
static Xapian::Query held_to(shim_db *h, const Xapian::Query &q,
                             std::vector<FormRule> rules)
{
    if (rules.empty())
        return q;
    return Xapian::Query(Xapian::Query::OP_FILTER, q,
                         Xapian::Query(form_source(h, std::move(rules))));
}

/* q held to the words of the first unused quoted passage whose stems are
 * `stems`, or q when there is none. */
static Xapian::Query quoted_as_written(shim_db *h, const Xapian::Query &q,
                                       const std::vector<std::string> &stems,
                                       std::vector<Quoted> *quoted)
{
    return held_to(h, q, quoted_rules(h, stems, quoted));
}

/* How one query's phrases are searched: `hoist` takes the phrases every
 * match must hold (or is NULL), and `xapian` is xapian_phrases(h), asked
 * at the query's first phrase only (for remote shards it reads each
 * shard's metadata over the network). */
struct PhrasePlan {
    PhraseFilter *hoist;
    int xapian = -1; /* not asked yet */
    /* The default field's phrases (their stems), for the proximity
     * bonus, which leaves their words' pairs to the phrase. */
    std::vector<std::vector<std::string>> *phrases = nullptr;
    /* The query's quoted passages (Words as written), or NULL. */
    std::vector<Quoted> *quoted = nullptr;
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
    /* A quoted phrase's words as written (Words as written): the rules
     * of its passage, taken once here. */
    std::vector<FormRule> rules;
    if (op == Xapian::Query::OP_PHRASE)
        rules = quoted_rules(h, stems, plan.quoted);
    auto written = [&](const Xapian::Query &r) { return held_to(h, r, rules); };
    /* Where the field's positions are: the abstract's and the default
     * field's in the plain stems. */
    const char *prefix = field == "title"    ? LAYOUT_P_TITLE
                         : field == "author" ? LAYOUT_P_AUTHOR
                                             : "";
    if (stems.size() == 1)
        return written(field == "abstract" ? abstract_word(stems[0])
                                           : Xapian::Query(prefix + stems[0]));
    if (plan.phrases && field != "title" && field != "author")
        plan.phrases->push_back(stems);
    const char *name = op == Xapian::Query::OP_PHRASE ? "PHRASE" : "NEAR";
    /* Xapian's window (a quoted phrase: its words; ADJ/n and NEAR/n: n +
     * words - 1), less the stop words left out, which take no position:
     * "theory of everything" is two words next to each other. */
    const Xapian::termcount dropped =
        static_cast<Xapian::termcount>(n - stems.size());
    Xapian::termcount window = window_of(q, name);
    window = std::max(static_cast<Xapian::termcount>(stems.size()),
                      window > dropped ? window - dropped : 0);
    /* CJK text in n-grams holds each pair of neighbours between its
     * characters ("图像" is 图 at p, 图像 at p+1, 像 at p+2), and Xapian's
     * parser makes a quoted CJK run a phrase of its characters: each
     * neighbouring pair of them widens the window by one, which is then
     * exactly the run as written. */
    if (h->cjk_ngram && op == Xapian::Query::OP_PHRASE)
        for (size_t i = 1; i < stems.size(); i++)
            window += cjk_unigram(stems[i - 1]) && cjk_unigram(stems[i]);
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
    if (xapian && rules.empty()) {
        /* Xapian's positional queries: the only kind a shard served by
         * xapian-tcpsrv can run, and the quicker over Xapian's
         * positions locally.  A quoted phrase held to its words as
         * written (only ever over local databases) is paperdex's
         * below, which reads Xapian's positions then. */
        if (field != "text")
            return written(xapian_phrase(prefix));
        const Xapian::Query where[] = {xapian_phrase(LAYOUT_P_TITLE),
                                       xapian_phrase(""),
                                       xapian_phrase(LAYOUT_P_AUTHOR)};
        return written(Xapian::Query(
            Xapian::Query::OP_FILTER, all,
            Xapian::Query(Xapian::Query::OP_OR, std::begin(where),
                          std::end(where))));
    }
    /* paperdex's PhraseSource (common/positions.cc), which reads
     * each work's positions value and weighs nothing: one for all three
     * fields of the default field's phrase, walking its stems (every
     * title, abstract and author stem is one). */
    const std::vector<std::string> fields =
        field == "text"
            ? std::vector<std::string>{"", LAYOUT_P_TITLE, LAYOUT_P_AUTHOR}
            : std::vector<std::string>{prefix};
    PhraseCheck check(stems, fields, window, op == Xapian::Query::OP_PHRASE);
    check.chunked = h->chunks;
    /* Its words at their forms' positions, where the works keep them. */
    if (rules.size() == stems.size())
        for (size_t i = 0; i < rules.size(); i++) {
            const FormRule &r = rules[i];
            check.form.push_back(r.self ? r.self_hash
                                        : r.any.empty() ? 0 : r.any[0]);
            check.form_stem.push_back(form_hash32(stems[i]));
        }
    /* Two words of the index's common list next to each other: their
     * common grams (common/common_grams.cc), whose works are exactly
     * those whose positions hold the phrase, each word in the form the
     * quotes ask for ("?": a field whose forms are not known takes any;
     * the forms' rules need no source of their own then: a gram's tags
     * are the forms), unquoted in any form.  No position is read: a
     * phrase counted to 10,000 reads its grams' entries once, where its
     * words' chunks would be walked to the end. */
    if (field == "text" && op == Xapian::Query::OP_PHRASE &&
        stems.size() == 2 && window == 2 && h->gram_words &&
        h->gram_words->count(stems[0]) && h->gram_words->count(stems[1]) &&
        !getenv("PDX_NO_COMMON_GRAMS")) {
        const std::string pfx = common_gram_stems(stems[0], stems[1]);
        if (check.form.empty())
            return written(Xapian::Query(
                Xapian::Query::OP_FILTER, all,
                Xapian::Query((new GramSource({}, pfx))->release())));
        std::string tag[2];
        for (size_t i = 0; i < 2; i++)
            tag[i] = common_gram_tag(
                check.form[i] == check.form_stem[i] ? 0 : check.form[i], false);
        std::vector<std::string> grams = {pfx + tag[0] + tag[1], pfx + tag[0] + "?",
                                          pfx + "?" + tag[1], pfx + "??"};
        return Xapian::Query(
            Xapian::Query::OP_FILTER, all,
            Xapian::Query((new GramSource(std::move(grams), std::string()))->release()));
    }
    if (required && plan.hoist && !(any_chunks(h) && h->subs.size() > 1)) {
        /* Every match must hold it: checked by the matcher's decider,
         * only for the works that would make the page (PhraseFilter),
         * and so are its words as written.  (Not over several indexes of
         * positions kept by the term: the decider cannot tell which
         * index a work is in, so which chunks to read.) */
        plan.hoist->checks.push_back(check);
        for (FormRule &r : rules)
            plan.hoist->forms.push_back(std::move(r));
        return all;
    }
    return written(
        Xapian::Query(Xapian::Query::OP_FILTER, all,
                      Xapian::Query((new PhraseSource(check))->release())));
}

/* The one term of a LEAF_TERM query, or "" for any other. */
static std::string leaf_term(const Xapian::Query &q)
{
    if (q.get_type() != Xapian::Query::LEAF_TERM)
        return std::string();
    Xapian::TermIterator t = q.get_terms_begin();
    return t != q.get_terms_end() ? *t : std::string();
}

/* Whether op combines its subqueries into matches (AND, OR, AND_NOT,
 * XOR, AND_MAYBE, FILTER): the nodes the rewrites below walk down. */
static bool combines(Xapian::Query::op op)
{
    switch (op) {
    case Xapian::Query::OP_AND:
    case Xapian::Query::OP_OR:
    case Xapian::Query::OP_AND_NOT:
    case Xapian::Query::OP_XOR:
    case Xapian::Query::OP_AND_MAYBE:
    case Xapian::Query::OP_FILTER:
        return true;
    default:
        return false;
    }
}

/* ---- Variants: one term as works write it ------------------------------
 *
 * A term is written several ways, and the index keeps each way's stem as
 * written: "ResNet50" is one word and "ResNet-50" two, PubMed's β is one
 * word and arXiv's "$\beta$" another (beta), "Schrödinger" folds to
 * schrodinger where "Schroedinger" stays as it is.  So a query term is
 * searched OR-ed with its variants, each scored as its own terms:
 *
 *   - a word of letters and digits with the phrase of its runs (resnet50
 *     with "resnet 50"), and a phrase whose terms alternate letters and
 *     digits (a hyphenated "ResNet-50") with its runs joined; in a query
 *     whose hyphenated words are split into words (split_compounds), the
 *     joined word joins its OR;
 *   - any hyphenated compound outside quotes with its parts written as
 *     one word ("pre-trained" with pretrained, "U-Net" with UNet), the
 *     same two ways, in a query of at most VARIANT_PHRASE_WORDS words (a
 *     closed word is not split: nothing tells where; an index that joins
 *     its works' compounds, LAYOUT_META_COMPOUNDS, finds them under the
 *     closed word itself);
 *   - a Greek letter with its name, and the name with the letter, and
 *     so a letter with a number as its script in each of its writings
 *     (greek_script: β1, β_1, β-1, beta1, Beta-1 meet); such a word is
 *     not also the phrase of its two runs, since "beta 1" holds mostly
 *     formulas ($\beta=1$, \beta+1), and in an index that joins its
 *     compounds the typed phrase of β-1 is dropped for the same reason;
 *   - a word the query writes with ä, ö, ü or ß with its German
 *     transliteration (ae, oe, ue, ss), and a word holding ae, oe or ue
 *     with the plain vowel, or ss with ß, when more works hold that
 *     (Schroedinger: 0 works of the arXiv 101k, Schrodinger 63; poem is
 *     never pom, nor class claß);
 *   - a query of one word (or one compound), of two characters or more,
 *     beginning with a letter and outside quotes, with the word and a
 *     suffix of '+' or '#' as works write a method's variant:
 *     TermGenerator keeps up to three of them in the word ("C++", "C#"),
 *     so kmeans++ is a term of its own, and kmeans (or k-means, through
 *     its closed form) would miss the works that write only "KMeans++"
 *     or "k-means++".  The variant weighs at most what the word does
 *     (closed_variant), and is searched only where one work in a hundred
 *     of those writing the word writes it (SUFFIX_SHARE).  A single letter is not varied: C, C++ and C#
 *     are three languages.  The suffixed query ("k-means++") keeps to
 *     the suffixed word, and finds it written as a compound or closed.
 *
 * A variant no work holds is left out: a query with none is the query
 * as parsed.  Only the default field's and the title's terms vary;
 * inside a phrase or NEAR a term keeps its own form, but for a Greek
 * letter, which a phrase writes either way (greek_phrase). */
namespace {

struct Variants {
    shim_db *h;
    /* stem of a word the query writes with an umlaut, folded -> stem of
     * its transliteration */
    std::map<std::string, std::string> umlaut;
    /* stem of a word the query writes with ss -> stem of it with ß */
    std::map<std::string, std::string> sharp;
    /* a word of letters and digits gets the phrase of its runs */
    bool phrases = true;
    /* the query's hyphenated compounds ("pre-trained"): the stems of
     * their parts -> the stem of the parts written as one word
     * ("pretrain"), which a phrase of those stems gets as a variant */
    std::map<std::vector<std::string>, std::string> closed;
    /* the query's phrases whose last word is a wildcard ("self-supervis*",
     * "\"deep reinforc*\""), which Xapian's parser reads as the word
     * itself: the stems of the phrase's terms -> the pattern */
    std::map<std::vector<std::string>, std::string> wild;
    std::string *note = nullptr; /* what a phrase's wildcard was cut to */
    /* stem of a word outside quotes -> the terms, held by some work, of
     * the word with a suffix of '+' or '#' (suffixed_terms) */
    std::map<std::string, std::vector<std::string>> suffixed;
};

/* The suffixes a word takes as a method's variant (kmeans++, C#). */
const char *const WORD_SUFFIXES[] = {"++", "+", "#"};

/* A suffixed variant is searched only when at least one work in
 * SUFFIX_SHARE of those that write the word writes it: a common word's
 * works that name a method after it ("Learning++": 2 works of the arXiv
 * 101k, against 50,000 that write learning) write the word too, and the
 * OR costs a union of the word's postings to count (learning alone:
 * 1.95 ms with learning++, 1.03 ms without). */
const Xapian::doccount SUFFIX_SHARE = 100;

/* The terms of word (lower-cased, unaccented, as the query writes it)
 * with each of WORD_SUFFIXES that enough works hold (SUFFIX_SHARE):
 * none for a word of one character or one not beginning with a
 * letter. */
std::vector<std::string> suffixed_terms(shim_db *h, const std::string &word)
{
    std::vector<std::string> out;
    if (word.size() < 2 || !isalpha(static_cast<unsigned char>(word[0])))
        return out;
    const Xapian::doccount plain = h->db.get_termfreq(h->stem(word));
    for (const char *sfx : WORD_SUFFIXES) {
        const std::string t = h->stem(word + sfx);
        const Xapian::doccount df = h->db.get_termfreq(t);
        if (df > 0 && static_cast<double>(df) * SUFFIX_SHARE >= plain)
            out.push_back(t);
    }
    return out;
}

/* Phrases of a wildcard at most: each is a walk of its words' positions. */
const size_t PHRASE_WILDCARD_MAX = 16;

/* A query of more words than this gets no phrase variants: each is a
 * walk of the works holding both its runs ("r 1": 3,096 and 12,076
 * works on the arXiv 101k), and makes the query leave the OR of words'
 * own source (bm25.cc).  In a whole pasted title it cost the p99 of
 * 1,000 titles 9 ms to 100 (bench/RESULTS.md); among that many words the
 * variant seldom moves a work, and the joined form ("resnet50") is
 * still searched. */
const size_t VARIANT_PHRASE_WORDS = 4;

/* s as runs of letters and of digits, when it is nothing else and has
 * two runs or more ("resnet50": resnet, 50).  A point between digits is
 * a version's and stays in its number ("qwen2.5": qwen, 2.5), as the
 * index keeps "Qwen-2.5" as qwen and 2.5. */
bool letter_digit_runs(const std::string &s, std::vector<std::string> &runs)
{
    std::vector<std::string> out;
    int last = -1;
    for (size_t i = 0; i < s.size(); i++) {
        const char c = s[i];
        if (c == '.' && last == 1 && i + 1 < s.size() && s[i + 1] >= '0' &&
            s[i + 1] <= '9') {
            out.back() += c;
            continue;
        }
        const int digit = c >= '0' && c <= '9';
        if (!digit && !(c >= 'a' && c <= 'z'))
            return false;
        if (digit != last)
            out.emplace_back();
        out.back() += c;
        last = digit;
    }
    runs.swap(out);
    return runs.size() >= 2;
}

/* 'a' when s is letters (a-z) alone, '0' when digits alone, else 0. */
int run_kind(const std::string &s)
{
    std::vector<std::string> runs;
    if (s.empty() || letter_digit_runs(s, runs) || runs.size() != 1)
        return 0;
    return s[0] >= '0' && s[0] <= '9' ? '0' : 'a';
}

/* The prefix of a term the variants apply to ("" or the title's), or
 * nullptr. */
const char *variant_prefix(const std::string &t)
{
    if (!t.empty() && !isupper(static_cast<unsigned char>(t[0])))
        return "";
    const size_t n = strlen(LAYOUT_P_TITLE);
    if (t.size() > n && !t.compare(0, n, LAYOUT_P_TITLE) &&
        !isupper(static_cast<unsigned char>(t[n])))
        return LAYOUT_P_TITLE;
    return nullptr;
}


/* Whether s is a number as a script writes it: digits, a dot between
 * two ("0", "12", "0.5"). */
static bool script_number(const std::string &s)
{
    if (s.empty() || !isdigit(static_cast<unsigned char>(s.front())) ||
        !isdigit(static_cast<unsigned char>(s.back())))
        return false;
    for (size_t i = 0; i < s.size(); i++)
        if (!isdigit(static_cast<unsigned char>(s[i])) &&
            !(s[i] == '.' && isdigit(static_cast<unsigned char>(s[i - 1]))))
            return false;
    return true;
}

/* s split as a Greek letter (or its name, as the index keeps "$\pi_0$")
 * with a number as its script, with or without the underscore the index
 * keeps after a letter ("π0", "π_0", "pi0"): its pair {letter, name} and
 * the number; false when s is no such word. */
static bool greek_script(const std::string &s, const char *const *&g,
                         std::string &num)
{
    for (const auto &pair : text_greek)
        for (int w = 0; w < 2; w++) {
            const size_t n = strlen(pair[w]);
            if (s.size() <= n || s.compare(0, n, pair[w]))
                continue;
            const bool under = s[n] == '_';
            num = s.substr(n + under);
            if (script_number(num)) {
                g = pair;
                return true;
            }
        }
    return false;
}

/* The stem s written the other ways: a Greek letter as its name's stem,
 * and that stem as its letters (sigma: σ and ς); a letter with a number
 * as its script (greek_script) as the name with it and the letter with
 * and without the underscore ("π0": pi0 and π_0; "pi0": π0 and π_0;
 * "π_0": pi0 and π0, as "$\pi_0$", "π_0", "π0" and "pi0" write one
 * model); none when s is neither. */
std::vector<std::string> greek_swap(const Variants &v, const std::string &s)
{
    std::vector<std::string> out;
    const char *const *g;
    std::string num;
    if (greek_script(s, g, num)) {
        for (const std::string &w : {std::string(g[0]) + num, std::string(g[0]) + "_" + num,
                                     std::string(g[1]) + num})
            if (w != s)
                out.push_back(w);
        return out;
    }
    for (const auto &pair : text_greek) {
        if (s == pair[0])
            out.push_back(v.h->stem(pair[1]));
        else if (s == v.h->stem(pair[1]))
            out.push_back(pair[0]);
    }
    return out;
}

Xapian::Query closed_variant(shim_db *h, const std::string &term,
                             const std::vector<std::string> &parts);

/* A term with its variants (OR), or the term. */
Xapian::Query vary_term(const Variants &v, const Xapian::Query &q,
                        bool &changed)
{
    const std::string t = leaf_term(q);
    const char *prefix = variant_prefix(t);
    if (!prefix)
        return q;
    const std::string p(prefix), s = t.substr(p.size());
    Xapian::Database &db = v.h->db;
    std::vector<Xapian::Query> alts{q};
    std::set<std::string> have{t};
    auto add = [&](const std::string &stem) {
        const std::string term = p + stem;
        if (have.insert(term).second && db.get_termfreq(term) > 0)
            alts.emplace_back(term);
    };
    std::vector<std::string> runs;
    const char *const *g;
    std::string num;
    /* A Greek letter or its name with a number as its script ("β1",
     * "beta1") gets its other writings (greek_swap), not the phrase of
     * its runs: in papers "β 1" and "beta 1" are mostly what a formula
     * leaves ("$\beta = 1$", "β+1"), and a name with its version before a
     * third part ("Phi-3-mini") is indexed joined too (phi3). */
    const bool scripted = greek_script(s, g, num);
    if (v.phrases && !scripted && letter_digit_runs(s, runs)) {
        std::vector<Xapian::Query> parts;
        bool held = true;
        for (const std::string &r : runs) {
            const std::string term = p + v.h->stem(r);
            held = held && db.get_termfreq(term) > 0;
            parts.emplace_back(term);
        }
        if (held)
            alts.emplace_back(Xapian::Query::OP_PHRASE, parts.begin(),
                              parts.end(), static_cast<Xapian::termcount>(parts.size()));
    }
    for (const std::string &w : greek_swap(v, s))
        add(w);
    auto u = v.umlaut.find(s);
    if (u != v.umlaut.end())
        add(u->second);
    const std::string plain = plain_vowels(s);
    if (plain != s && plain.size() >= 3 &&
        db.get_termfreq(p + plain) > db.get_termfreq(t))
        add(plain);
    auto sharp = v.sharp.find(s); /* "ss" as German's ß */
    if (sharp != v.sharp.end() &&
        db.get_termfreq(p + sharp->second) > db.get_termfreq(t))
        add(sharp->second);
    /* kmeans with kmeans++, weighed at most as kmeans is: a work that
     * writes the rarer variant does not outrank those that write the
     * word asked for (closed_variant) */
    auto sfx = v.suffixed.find(s);
    if (sfx != v.suffixed.end())
        for (const std::string &st : sfx->second)
            if (have.insert(p + st).second && db.get_termfreq(p + st) > 0)
                alts.push_back(closed_variant(v.h, p + st, {t}));
    if (alts.size() == 1)
        return q;
    changed = true;
    return Xapian::Query(Xapian::Query::OP_OR, alts.begin(), alts.end());
}

/* The phrase q with each Greek letter as its name and each name as its
 * letter ("γ ray" and "gamma ray", as γ-ray, gamma-ray and $\gamma$-ray
 * write it), when it has one and every term of it is held by some work;
 * else an empty query. */
Xapian::Query greek_phrase(const Variants &v, const Xapian::Query &q)
{
    const size_t n = q.get_num_subqueries();
    std::vector<Xapian::Query> parts;
    bool swapped = false;
    for (size_t i = 0; i < n; i++) {
        std::string t = leaf_term(q.get_subquery(i));
        const char *prefix = variant_prefix(t);
        if (t.empty() || !prefix)
            return Xapian::Query();
        const std::string p(prefix);
        const std::vector<std::string> other = greek_swap(v, t.substr(p.size()));
        if (!other.empty()) {
            t = p + other.front();
            swapped = true;
        }
        if (v.h->db.get_termfreq(t) == 0)
            return Xapian::Query();
        parts.emplace_back(t);
    }
    if (!swapped)
        return Xapian::Query();
    return Xapian::Query(Xapian::Query::OP_PHRASE, parts.begin(), parts.end(),
                         static_cast<Xapian::termcount>(n));
}

/* The closed form `term` of a compound of words whose parts are the
 * terms `parts` ("pretrain" of "pre train"), weighed at most as the
 * rarest part is: a work that writes a rare closed form ("visionlanguage")
 * would otherwise outrank every work that writes the compound, the
 * closed form's idf being the larger (partial titles of the arXiv 101k,
 * bench/titles.py: MRR@10 0.8735 with the closed form unscaled, 0.8866
 * scaled so, 0.8861 without it).  A stop word is no part here: it is
 * in a work or two only by accident (a possessive, "OF's", stems to
 * "of"), and as the rarest part it left a closed form that 4 works of
 * the arXiv 101k write ("stateoftheart") unscaled, above the 22,256
 * that write state-of-the-art. */
Xapian::Query closed_variant(shim_db *h, const std::string &term,
                             const std::vector<std::string> &parts)
{
    const Xapian::Database &db = h->db;
    const double n = db.get_doccount() + 1.0;
    Xapian::doccount rarest = 0;
    for (const std::string &t : parts) {
        const char *prefix = variant_prefix(t);
        if (prefix && h->stopper(t.substr(strlen(prefix))))
            continue;
        const Xapian::doccount df = db.get_termfreq(t);
        if (df && (!rarest || df < rarest))
            rarest = df;
    }
    const Xapian::doccount df = db.get_termfreq(term);
    if (!df || !rarest || df >= rarest)
        return Xapian::Query(term);
    return Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query(term),
                         std::log(n / rarest) / std::log(n / df));
}

/* The joined word w with prefix p, and for a Greek letter's with a
 * number its other writings (greek_swap: "beta1" with β1, β_1), those
 * some work holds, w first. */
static std::vector<std::string> held_joined_forms(const Variants &v, const std::string &p,
                                                  const std::string &w)
{
    std::vector<std::string> forms = greek_swap(v, w);
    forms.insert(forms.begin(), w);
    forms.erase(std::remove_if(forms.begin(), forms.end(),
                               [&](const std::string &f) {
                                   return v.h->db.get_termfreq(p + f) == 0;
                               }),
                forms.end());
    return forms;
}

/* A phrase of alternating letter and digit terms OR-ed with them joined
 * ("resnet 50" with resnet50), and one that writes a Greek letter or its
 * name with the other (greek_phrase); or the phrase. */
Xapian::Query vary_phrase(const Variants &v, const Xapian::Query &q,
                          bool &changed)
{
    const size_t n = q.get_num_subqueries();
    /* the phrase's stems, when its terms are of one field the variants
     * apply to (stems.size() == n), and that field's prefix */
    std::vector<std::string> stems;
    std::string p;
    for (size_t i = 0; i < n; i++) {
        const std::string t = leaf_term(q.get_subquery(i));
        const char *prefix = variant_prefix(t);
        if (!prefix || (i > 0 && p != prefix))
            break;
        p = prefix;
        stems.push_back(t.substr(p.size()));
    }
    /* a phrase whose last word is a wildcard: the phrases of its
     * expansions, the most frequent PHRASE_WILDCARD_MAX stems */
    if (!v.wild.empty()) {
        auto w = stems.size() == n ? v.wild.find(stems) : v.wild.end();
        if (w != v.wild.end()) {
            std::vector<std::pair<Xapian::doccount, std::string>> found;
            size_t all = 0;
            const std::string pat = p + w->second;
            for (Xapian::TermIterator t = v.h->db.allterms_begin(pat);
                 t != v.h->db.allterms_end(pat); ++t) {
                all++;
                found.emplace_back(t.get_termfreq(), *t);
            }
            std::sort(found.begin(), found.end(),
                      [](const auto &a, const auto &b) { return a.first > b.first; });
            if (found.size() > PHRASE_WILDCARD_MAX)
                found.resize(PHRASE_WILDCARD_MAX);
            std::vector<Xapian::Query> alts;
            for (const auto &f : found) {
                std::vector<Xapian::Query> parts;
                for (size_t i = 0; i + 1 < n; i++)
                    parts.push_back(q.get_subquery(i));
                parts.emplace_back(f.second);
                alts.emplace_back(Xapian::Query::OP_PHRASE, parts.begin(),
                                  parts.end(), static_cast<Xapian::termcount>(n));
            }
            if (all > PHRASE_WILDCARD_MAX && v.note)
                *v.note += std::string(v.note->empty() ? "" : "; ") +
                           w->second + "* in a phrase matches " +
                           std::to_string(all) + " words; the " +
                           std::to_string(PHRASE_WILDCARD_MAX) +
                           " most frequent were searched";
            changed = true;
            if (alts.empty())
                return Xapian::Query::MatchNothing;
            return Xapian::Query(Xapian::Query::OP_OR, alts.begin(), alts.end());
        }
    }
    const Xapian::Query greek = greek_phrase(v, q);
    auto with_greek = [&](const Xapian::Query &out) {
        if (greek.empty())
            return out;
        changed = true;
        return Xapian::Query(Xapian::Query::OP_OR, out, greek);
    };
    std::string joined;
    int last = -1;
    /* a hyphenated compound of the query, with its parts written as one
     * word ("pre-trained" with pretrained), when works hold that */
    auto closed = stems.size() == n ? v.closed.find(stems) : v.closed.end();
    /* the closed form, and for "β-1" and "beta-1" its other writings
     * ("β1", "β_1", "beta1", as "$\beta_1$" is kept), those held */
    std::vector<std::string> joined_forms;
    if (closed != v.closed.end())
        joined_forms = held_joined_forms(v, p, closed->second);
    if (!joined_forms.empty()) {
        changed = true;
        std::vector<std::string> parts;
        for (const std::string &st : stems)
            parts.push_back(p + st);
        /* "β-1" is β1, joined in the index as a compound is: the phrase
         * "β 1" would also hold "β = 1" and "β+1" (vary_term) */
        const char *const *g;
        std::string num;
        const bool scripted =
            greek_script(closed->second, g, num) &&
            v.h->db.get_metadata(LAYOUT_META_COMPOUNDS) == LAYOUT_COMPOUNDS_JOINED;
        std::vector<Xapian::Query> alts;
        if (!scripted)
            alts.push_back(q);
        for (const std::string &f : joined_forms)
            alts.push_back(closed_variant(v.h, p + f, parts));
        /* k-means with kmeans++ too */
        auto sfx = v.suffixed.find(closed->second);
        if (sfx != v.suffixed.end())
            for (const std::string &st : sfx->second)
                if (v.h->db.get_termfreq(p + st) > 0)
                    alts.push_back(closed_variant(v.h, p + st, parts));
        const Xapian::Query out(Xapian::Query::OP_OR, alts.begin(), alts.end());
        return scripted ? out : with_greek(out);
    }
    if (stems.size() != n || n < 2)
        return with_greek(q);
    for (const std::string &s : stems) {
        const int kind = run_kind(s);
        if (!kind || kind == last) {
            joined.clear();
            break;
        }
        last = kind;
        joined += s;
    }
    /* "β 1" as "beta 1" is: a Greek letter is no run of letters */
    const char *const *g;
    std::string num;
    if (joined.empty() && n == 2 && greek_script(stems[0] + stems[1], g, num))
        joined = stems[0] + stems[1];
    if (joined.empty())
        return with_greek(q);
    /* the joined word, and a Greek letter's with a number in its other
     * writings ("beta 1" with beta1, β1, β_1), those held */
    std::vector<Xapian::Query> alts{q};
    for (const std::string &f : held_joined_forms(v, p, joined))
        alts.emplace_back(p + f);
    if (alts.size() == 1)
        return with_greek(q);
    changed = true;
    return with_greek(Xapian::Query(Xapian::Query::OP_OR, alts.begin(), alts.end()));
}

/* q with its terms' variants; changed set when there were any. */
Xapian::Query vary(const Variants &v, const Xapian::Query &q, bool &changed)
{
    const Xapian::Query::op op = q.get_type();
    switch (op) {
    case Xapian::Query::LEAF_TERM:
        return vary_term(v, q, changed);
    case Xapian::Query::OP_PHRASE:
        return vary_phrase(v, q, changed);
    default:
        if (!combines(op))
            return q;
    }
    const size_t n = q.get_num_subqueries();
    std::vector<Xapian::Query> subs;
    bool below = false;
    for (size_t i = 0; i < n; i++)
        subs.push_back(vary(v, q.get_subquery(i), below));
    if (!below)
        return q;
    changed = true;
    return Xapian::Query(op, subs.begin(), subs.end());
}

} // namespace

/* The query with its terms' variants (above).  raw: the query as typed
 * (its umlauts); split: its hyphenated words were split into words. */
static Xapian::Query with_variants(shim_db *h, const std::string &raw,
                                   bool split, const Xapian::Query &query,
                                   std::string *note)
{
    Variants v{h, {}, {}, true, {}, {}, note, {}};
    size_t words = 0;
    for (Xapian::TermIterator t = query.get_unique_terms_begin();
         t != query.get_unique_terms_end(); ++t)
        words += variant_prefix(*t) != nullptr;
    v.phrases = words <= VARIANT_PHRASE_WORDS;
    /* "ResNet-50" split: resnet50; "pre-trained": pretrained, and the
     * parts the closed form's weight is held to (closed_variant) */
    std::vector<std::pair<std::string, std::vector<std::string>>> joined;
    /* the words and compounds outside quotes, and those of them without
     * a suffix of their own (suffixed_terms) */
    size_t units = 0;
    std::vector<std::string> unsuffixed;
    for (const Word &w : words_of(raw)) {
        const std::string word = raw.substr(w.start, w.end - w.start);
        std::string translit;
        bool umlaut = false;
        for (size_t i = 0; i < word.size(); i++) {
            const unsigned char c = static_cast<unsigned char>(word[i]);
            if (c == 0xc3 && i + 1 < word.size()) {
                const unsigned char d = static_cast<unsigned char>(word[i + 1]);
                const char *to = d == 0xa4 || d == 0x84   ? "ae"
                                 : d == 0xb6 || d == 0x96 ? "oe"
                                 : d == 0xbc || d == 0x9c ? "ue"
                                 : d == 0x9f              ? "ss"
                                                          : nullptr;
                if (to) {
                    translit += to;
                    umlaut = true;
                    i++;
                    continue;
                }
            }
            translit += word[i];
        }
        if (umlaut)
            v.umlaut[h->stem(fold_word(word))] = h->stem(fold_word(translit));
        std::string folded = fold_word(word), with_sharp = folded;
        for (size_t at; (at = with_sharp.find("ss")) != std::string::npos;)
            with_sharp.replace(at, 2, "\xc3\x9f");
        if (with_sharp != folded)
            v.sharp[h->stem(folded)] = h->stem(with_sharp);
    }
    /* The hyphenated compounds: runs of letters and digits joined by
     * '-' ("pre-trained", "U-Net", "ResNet-50"), which works write as
     * one word too ("pretrained", "UNet"); after a letter, a digit or
     * '-' a '-' is a part of the word, not an exclusion.  Not inside
     * quotes, which hold the words to the way they are written. */
    {
        const std::string low = lower_words(unaccent(raw));
        auto alnum = [&](size_t i) {
            return i < low.size() && isalnum(static_cast<unsigned char>(low[i]));
        };
        bool quoted = false;
        size_t opened = 0;
        for (size_t i = 0; i < low.size();) {
            if (const size_t len = quote_at(low, i)) {
                if (quoted && i > opened && low[i - 1] == '*') {
                    /* "deep reinforc*": a phrase ending in a wildcard */
                    std::vector<std::string> stems;
                    std::string last;
                    for (const Word &w : words_of(low.substr(opened, i - 1 - opened))) {
                        last = low.substr(opened + w.start, w.end - w.start);
                        stems.push_back(h->stem(last));
                    }
                    if (stems.size() >= 2)
                        v.wild[stems] = last;
                }
                quoted = !quoted;
                i += len;
                opened = i;
                continue;
            }
            if (quoted || !alnum(i) ||
                (i > 0 && (alnum(i - 1) || low[i - 1] == '-'))) {
                i++;
                continue;
            }
            /* split into words (split_compounds) only as a word alone */
            const bool bare = i == 0 || isspace(static_cast<unsigned char>(low[i - 1])) ||
                              low[i - 1] == '(';
            std::vector<std::string> parts;
            size_t e = i;
            /* An abbreviation of parts of one or two letters joined by
             * dots, one part of two ("Ph.D.", "M.Sc."), is a compound too,
             * whose closed form works write (PhD, MSc), as the index
             * joins it (text_dotted_abbrev); not longer parts ("M.Eng."
             * would be the name Meng, "Node.js"), nor letters alone
             * (join_acronyms: "U.S." is one word already). */
            const bool dotted = text_dotted_abbrev(low.data() + i, low.size() - i, nullptr) != 0;
            for (;;) {
                size_t b = e;
                while (alnum(e))
                    e++;
                parts.push_back(low.substr(b, e - b));
                if (e + 1 < low.size() && (low[e] == '-' || (dotted && low[e] == '.')) &&
                    alnum(e + 1))
                    e++;
                else
                    break;
            }
            if (dotted && e < low.size() && low[e] == '.')
                e++; /* "Ph.D.": its last dot */
            i = e;
            if (parts.size() >= 2 && e < low.size() && low[e] == '*') {
                /* "self-supervis*": a phrase ending in a wildcard */
                std::vector<std::string> stems;
                for (const std::string &part : parts)
                    stems.push_back(h->stem(part));
                v.wild[stems] = parts.back();
                continue;
            }
            /* a suffix of one to three '+' or '#' that no word
             * character follows ("k-means++"): the last part's, as
             * TermGenerator reads it */
            const bool marked = e < low.size() && (low[e] == '+' || low[e] == '#');
            if (const size_t sl = word_suffix(low, e)) {
                parts.back() += low.substr(e, sl);
                e = i = e + sl;
            } else if (parts.size() == 1 && !marked &&
                       !(e < low.size() && low[e] == '*')) {
                unsuffixed.push_back(parts[0]); /* kmeans: kmeans++ */
            }
            if (!(e < low.size() && low[e] == ':')) /* not a field's name */
                units++;
            if (parts.size() < 2 || (e < low.size() && !isspace(static_cast<unsigned char>(low[e])) &&
                                     low[e] != ')' && low[e] != '"'))
                continue;
            std::vector<std::string> stems;
            std::string one;
            for (const std::string &part : parts) {
                stems.push_back(h->stem(part));
                one += part;
            }
            if (!marked)
                unsuffixed.push_back(one); /* k-means: kmeans++ */
            /* "ResNet-50" always; a compound of words only in a short
             * query: in a pasted title it is one word among many, and its
             * closed form is often common ("finetuning", "multimodal":
             * 10,000 works or more of the synthetic 1M), a posting list
             * for the OR to walk */
            const int l = run_kind(parts[0]), r = run_kind(parts[1]);
            const bool letters_digits = parts.size() == 2 && l && r && l != r;
            if (!letters_digits && !v.phrases)
                continue;
            v.closed[stems] = h->stem(one);
            if (split && bare)
                joined.emplace_back(one, letters_digits ? std::vector<std::string>()
                                                        : stems);
        }
    }
    /* A Greek letter with a number after a hyphen ("β-1"), outside
     * quotes: a compound as "beta-1" is, which the bytes above do not
     * take for letters. */
    {
        bool quoted = false;
        for (size_t i = 0; i < raw.size();) {
            if (const size_t len = quote_at(raw, i)) {
                quoted = !quoted;
                i += len;
                continue;
            }
            size_t at = i++;
            if (quoted || (at > 0 && text_word_byte(static_cast<unsigned char>(raw[at - 1]))))
                continue;
            for (const auto &g : text_greek) {
                const size_t n = strlen(g[0]);
                if (raw.compare(at, n, g[0]) || at + n >= raw.size() || raw[at + n] != '-')
                    continue;
                size_t e = at + n + 1;
                while (e < raw.size() && (isdigit(static_cast<unsigned char>(raw[e])) ||
                                          (raw[e] == '.' && e + 1 < raw.size() &&
                                           isdigit(static_cast<unsigned char>(raw[e + 1])))))
                    e++;
                const std::string num = raw.substr(at + n + 1, e - at - n - 1);
                if (script_number(num) &&
                    (e == raw.size() || !text_word_byte(static_cast<unsigned char>(raw[e]))))
                    v.closed[{h->stem(g[0]), num}] = h->stem(g[0] + num);
                i = e;
                break;
            }
        }
    }
    /* A word's suffixed variants only in a query of that word alone (or
     * that compound): beside other words, a work that names another
     * method after one of them ("Crowd++", "Gesture++") counts that word
     * twice; searched there, the variants lower the arXiv 101k's title
     * topics by 0.0019 nDCG@10 and its partial titles by 0.0012 MRR@10
     * (bench/titles.py). */
    if (units == 1)
        for (const std::string &w : unsuffixed) {
            std::vector<std::string> sfx = suffixed_terms(h, w);
            if (!sfx.empty())
                v.suffixed[h->stem(w)] = std::move(sfx);
        }
    bool varied = false;
    Xapian::Query out = vary(v, query, varied);
    if (!joined.empty() && out.get_type() == Xapian::Query::OP_OR) {
        std::vector<Xapian::Query> subs;
        for (size_t i = 0; i < out.get_num_subqueries(); i++)
            subs.push_back(out.get_subquery(i));
        bool added = false;
        for (const auto &j : joined)
            if (h->db.get_termfreq(h->stem(j.first)) > 0) {
                subs.push_back(j.second.empty()
                                   ? Xapian::Query(h->stem(j.first))
                                   : closed_variant(h, h->stem(j.first), j.second));
                added = true;
            }
        if (added)
            out = Xapian::Query(Xapian::Query::OP_OR, subs.begin(), subs.end());
    }
    return out;
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
        const char *field = term_field(leaf_term(q), stem);
        const bool abstract = !strcmp(field, "abstract");
        /* A quoted word: Xapian's parser makes a phrase of one word
         * that word's term (Words as written).  Its FormSource reads
         * the values in docid order; the decider, checking only the
         * works that would make the page, left the count to check them
         * all one by one: no quicker (bench/RESULTS.md). */
        Xapian::Query out = quoted_as_written(
            h, abstract ? abstract_word(stem) : q, {stem}, plan.quoted);
        if (!abstract && out.get_type() == Xapian::Query::LEAF_TERM)
            return q;
        changed = true;
        return out;
    }
    case Xapian::Query::OP_WILDCARD: {
        const std::string pat = wildcard_pattern(q);
        std::string stem;
        const char *field = term_field(pat, stem);
        if (!strcmp(field, "text")) {
            Xapian::Query out = form_wildcard(h, q, pat);
            changed |= out.get_type() != Xapian::Query::OP_WILDCARD;
            return out;
        }
        if (strcmp(field, "abstract") != 0)
            return q;
        changed = true;
        return abstract_wildcard(h, stem);
    }
    case Xapian::Query::OP_PHRASE:
    case Xapian::Query::OP_NEAR:
        changed = true;
        return positional(h, q, stops, required, plan);
    default:
        if (!combines(op) && op != Xapian::Query::OP_SYNONYM)
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
void scored_terms(const Xapian::Query &q,
                         std::map<std::string, Xapian::termcount> &wqf,
                         std::map<std::string, Xapian::termcount> *in_abstract)
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
    struct Scored {
        Xapian::doccount tf;
        std::string term;
    };
    std::vector<Scored> words;
    std::vector<Xapian::Query> kept;
    std::set<std::string> held; /* terms of what is kept whole */
    for (size_t i = 0; i < q.get_num_subqueries(); i++) {
        const Xapian::Query sub = q.get_subquery(i);
        if (sub.get_type() == Xapian::Query::LEAF_TERM) {
            const std::string t = *sub.get_terms_begin();
            Xapian::doccount tf = h->db.get_termfreq(t);
            words.push_back(Scored{tf ? tf : h->db.get_doccount() + 1, t});
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
                     [](const Scored &a, const Scored &b) { return a.tf < b.tf; });
    std::set<std::string> chosen;
    for (const Scored &w : words) {
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
    note += std::string(note.empty() ? "" : "; ") + "the query has " +
            std::to_string(n) + " distinct terms; it was searched with the " +
           std::to_string(held.size() + chosen.size()) +
           " most informative (the rarest in the index)";
    return Xapian::Query(Xapian::Query::OP_OR, kept.begin(), kept.end());
}

/* Every work: tombstones (common/layout.h) are not works. */
Xapian::Query every_work()
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

/* Compounds as words: in a query of two or more words or phrases and
 * no operator, a word of parts joined as Xapian's parser would join them
 * into a phrase -- by '-' or '/' ("Vision-Language", "encoder/decoder",
 * "Runge--Kutta", "R\\textsuperscript"), by '.' between two parts of
 * two letters or more ("Spore.fun"), by ':' after a part that is no
 * field name ("Framework:Enhanced"), by "://" ("https://github.com/..."),
 * by '@' ("name@host.org") -- becomes its parts (and "U.S."
 * one word, "us", as the indexer reads it), as Lucene's and
 * Elasticsearch's match queries split it.  With the proximity bonus the
 * parts standing together still rank first, and the OR of words stays
 * one source (bm25.cc): the phrases were most of the time of a pasted
 * title.  A word with a field prefix, a leading + or -, or a trailing *
 * is left as written; so is "3.0". */
static std::string split_compounds(const std::string &text)
{
    size_t pos = 0, words = 0;
    qtok k;
    std::vector<qtok> terms;
    while (qscan_next(text.data(), text.size(), &pos, &k) != QT_END) {
        if (k.kind == QT_OP)
            return text;
        words += k.kind == QT_TERM || k.kind == QT_PHRASE;
        if (k.kind == QT_TERM)
            terms.push_back(k);
    }
    if (words < 2)
        return text;
    auto wordish = [](char c) {
        return isalnum(static_cast<unsigned char>(c)) ||
               (static_cast<unsigned char>(c) & 0x80);
    };
    static const char *const fields[] = {"title", "abstract", "author",
                                         "authorword", "category", "year",
                                         "subject", "firstauthor"};
    std::string out = text;
    std::vector<size_t> joined; /* the dots of "U.S.", left out */
    for (const qtok &t : terms) {
        const char *w = text.data() + t.start;
        const size_t n = t.len;
        if (n < 3 || w[0] == '+' || w[0] == '-' || w[n - 1] == '*')
            continue;
        const char *colon = static_cast<const char *>(memchr(w, ':', n));
        bool field = false;
        for (const char *f : fields)
            field |= colon && size_t(colon - w) == strlen(f) &&
                     !strncmp(w, f, strlen(f));
        if (field)
            continue;
        /* The length of the run of word characters ending before i, and
         * of the one starting at j. */
        auto run_before = [&](size_t i) {
            size_t r = 0;
            while (r < i && wordish(w[i - 1 - r]))
                r++;
            return r;
        };
        auto run_after = [&](size_t j) {
            size_t r = 0;
            while (j + r < n && wordish(w[j + r]))
                r++;
            return r;
        };
        for (size_t i = 1; i + 1 < n; i++) {
            const char c = w[i];
            if (c != '-' && c != '/' && c != '.' && c != ':' && c != '\\' &&
                c != '@')
                continue;
            size_t j = i;
            while (j < n && w[j] == c && c == '-')
                j++; /* "--" */
            if (c == ':' && i + 3 < n && w[i + 1] == '/' && w[i + 2] == '/')
                j = i + 3; /* a URL's "://" */
            if (j == i)
                j = i + 1;
            if (j >= n || !wordish(w[i - 1]) || !wordish(w[j]))
                continue;
            if (c == '.') {
                const size_t b = run_before(i), a = run_after(j);
                if (isdigit(static_cast<unsigned char>(w[i - 1])) &&
                    isdigit(static_cast<unsigned char>(w[j])))
                    continue; /* "3.0" is one word */
                if (b == 1 && a == 1) {
                    /* "U.S.": one word, as the indexer reads a run of
                     * capitals and dots ("us") */
                    joined.push_back(t.start + i);
                    continue;
                }
                if (b < 2 || a < 2)
                    continue;
            }
            for (size_t m = i; m < j; m++)
                out[t.start + m] = ' ';
            i = j - 1;
        }
    }
    for (size_t d = joined.size(); d-- > 0;) /* from the end: offsets hold */
        out.erase(joined[d], 1);
    return out;
}

/* Starred letters.  "A*" is a word in science: the A* search algorithm,
 * Q* and V* of reinforcement learning, C*-algebras, R*-trees.  Xapian's
 * parser, like Lucene's, reads it as a wildcard over every word that
 * begins with the letter (on the arXiv 101k, a* is 20,474 words, and
 * "A* search" ranks the works on search of any kind first).  Where the
 * index keeps a letter with its star as a word (LAYOUT_META_STARS,
 * TextTerms::stars), a wildcard of one letter in the default field, the
 * title or the abstract is that word; one letter with a star finds no
 * useful set of words anyway.  A wildcard of two letters or more ("ne*")
 * stays a wildcard, and so does "author:a*".  Xapian's parser reads a
 * wildcard neither inside quotes nor beside NEAR or ADJ, nor in a query
 * read as words: there it would read "A*" as the letter alone (a stop
 * word for "a").  So star_words() first writes each such "A*" as a word
 * the parser keeps whole (STAR_MARK after the letter), and unmark()
 * makes the term the letter and its star again: "A* search" in quotes
 * is the phrase a* search, "A* NEAR search" a* near search.  After a
 * field's colon ("title:A*") it is left to the parser, whose wildcard
 * of one letter starred_leaf() then makes the word. */
static const char STAR_MARK[] = "_star_";

/* text with each letter written alone with a star after it ("a*": no
 * word character, ':' or star before the letter, nor a word character
 * or star after the star, as the indexer reads it) written as the
 * letter and STAR_MARK, which Xapian's parser and stemmer keep as it
 * is. */
std::string star_words(const std::string &text)
{
    auto word_byte = [](unsigned char c) { return text_word_byte(c) || c == '_'; };
    std::string out;
    for (size_t i = 0; i < text.size(); i++) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (isalpha(c) && star_ends_word(text, i + 1) &&
            (i == 0 || (!word_byte(static_cast<unsigned char>(text[i - 1])) &&
                        text[i - 1] != ':' && text[i - 1] != '*'))) {
            out += static_cast<char>(tolower(c));
            out += STAR_MARK;
            i++;
            continue;
        }
        out += text[i];
    }
    return out;
}

/* Two letters with a dot between them ("U.S.", "e.g."), where the index reads
 * them as one word that keeps its dot ("u.s", LAYOUT_META_DOTTED_PAIRS):
 * Xapian's parser would read "u.s" as a phrase of two letters, so
 * join_acronyms() writes the pair as its letters and PAIR_MARK
 * ("us_dots_"), which the parser and the stemmer keep as it is, and
 * unmark() makes the term "u.s" again. */
static const char PAIR_MARK[] = "_dots_";

/* The term t (a prefix, then a word) with a STAR_MARK star_words() wrote
 * made the letter and its star again ("Sa_star_": "Sa*"), or with a
 * PAIR_MARK join_acronyms() wrote the pair of letters with its dot again
 * ("Sus_dots_": "Su.s"); else t. */
std::string unmark(const std::string &t)
{
    const bool pair = t.size() > sizeof PAIR_MARK &&
                      t.compare(t.size() - (sizeof PAIR_MARK - 1), std::string::npos,
                                PAIR_MARK) == 0;
    const size_t m = pair ? sizeof PAIR_MARK - 1 : sizeof STAR_MARK - 1;
    const size_t letters = pair ? 2 : 1;
    if (t.size() < m + letters ||
        (!pair && t.compare(t.size() - m, m, STAR_MARK) != 0))
        return t;
    const size_t letter = t.size() - m - letters;
    for (size_t i = letter; i < letter + letters; i++)
        if (t[i] < 'a' || t[i] > 'z')
            return t;
    for (size_t i = 0; i < letter; i++)
        if (!isupper(static_cast<unsigned char>(t[i])))
            return t; /* not a prefix of ours */
    return pair ? t.substr(0, letter + 1) + "." + t[letter + 1]
                : t.substr(0, letter + 1) + "*";
}

/* q with each leaf (a term or a wildcard) that `leaf` changes changed,
 * down through the nodes that combine their subqueries, synonyms,
 * phrases and NEAR (their windows kept); `leaf` returns its query
 * unchanged, or another and sets `changed`. */
template <typename Leaf>
static Xapian::Query map_leaves(const Xapian::Query &q, bool &changed, const Leaf &leaf)
{
    const Xapian::Query::op op = q.get_type();
    if (op == Xapian::Query::LEAF_TERM || op == Xapian::Query::OP_WILDCARD)
        return leaf(q, changed);
    const bool positional = op == Xapian::Query::OP_PHRASE || op == Xapian::Query::OP_NEAR;
    if (!combines(op) && !positional && op != Xapian::Query::OP_SYNONYM)
        return q;
    bool below = false;
    std::vector<Xapian::Query> subs;
    for (size_t i = 0; i < q.get_num_subqueries(); i++)
        subs.push_back(map_leaves(q.get_subquery(i), below, leaf));
    if (!below)
        return q;
    changed = true;
    if (positional)
        return Xapian::Query(op, subs.begin(), subs.end(),
                             window_of(q, op == Xapian::Query::OP_PHRASE ? "PHRASE" : "NEAR"));
    return Xapian::Query(op, subs.begin(), subs.end());
}

/* A term unmark() changes, changed (its position kept). */
static Xapian::Query unmark_leaf(const Xapian::Query &q, bool &changed)
{
    const std::string t = leaf_term(q), u = unmark(t);
    if (t.empty() || u == t)
        return q;
    changed = true;
    /* its position, as the description states it ("Query(a@2)") */
    const std::string d = q.get_description();
    const size_t at = d.rfind('@');
    const Xapian::termpos pos =
        at == std::string::npos ? 0 : static_cast<Xapian::termpos>(atoi(d.c_str() + at + 1));
    return Xapian::Query(u, 1, pos);
}

Xapian::Query unmark_terms(const Xapian::Query &q)
{
    bool changed = false;
    return map_leaves(q, changed, unmark_leaf);
}

/* A wildcard of one letter a-z, but in the authors' field, made the word
 * of the letter and its star. */
static Xapian::Query starred_leaf(const Xapian::Query &q, bool &changed)
{
    if (q.get_type() != Xapian::Query::OP_WILDCARD)
        return q;
    const std::string pat = wildcard_pattern(q);
    std::string letter;
    const char *field = term_field(pat, letter);
    if (letter.size() != 1 || letter[0] < 'a' || letter[0] > 'z' ||
        !strcmp(field, "author"))
        return q;
    changed = true;
    return !strcmp(field, "abstract") ? abstract_word(letter + "*")
                                      : Xapian::Query(pat + "*");
}

/* A note for each wildcard of q that matches more index terms than
 * PDX_WILDCARD_MAX ("co* matches 12,345 words; the 10,000 most frequent
 * were searched"): Xapian keeps the most frequent and says nothing. */
static void wildcard_cuts(shim_db *h, const Xapian::Query &q, std::string &note)
{
    if (q.get_type() == Xapian::Query::OP_WILDCARD) {
        const std::string pat = wildcard_pattern(q);
        size_t k = 0;
        for (Xapian::TermIterator t = h->db.allterms_begin(pat);
             t != h->db.allterms_end(pat) && k <= 100 * PDX_WILDCARD_MAX; ++t)
            k++;
        if (k > PDX_WILDCARD_MAX) {
            std::string shown;
            const char *f = term_field(pat, shown);
            note += std::string(note.empty() ? "" : "; ") +
                    (strcmp(f, "text") ? std::string(f) + ":" : "") + shown +
                    "* matches " +
                    (k > 100 * PDX_WILDCARD_MAX ? "over " : "") +
                    std::to_string(k > 100 * PDX_WILDCARD_MAX ? k - 1 : k) +
                    " words; the " + std::to_string(PDX_WILDCARD_MAX) +
                    " most frequent were searched";
        }
        return;
    }
    for (size_t i = 0; i < q.get_num_subqueries(); i++)
        wildcard_cuts(h, q.get_subquery(i), note);
}

/* A note for each letter with a star that q searches as a word and no
 * work writes ("m*"): read as the word of A* search, it finds nothing,
 * where whoever typed it may have meant a wildcard. */
static void unknown_stars(shim_db *h, const Xapian::Query &q, std::string &note)
{
    for (Xapian::TermIterator t = q.get_unique_terms_begin();
         t != q.get_unique_terms_end(); ++t) {
        std::string word;
        term_field(*t, word);
        if (word.size() != 2 || word[1] != '*' || word[0] < 'a' || word[0] > 'z' ||
            h->db.get_termfreq(*t) != 0)
            continue;
        /* once a word: abstract:m* searches the title's and the authors'
         * m* too (abstract_word) */
        const std::string said = word + " was read as a word";
        if (note.find(said) != std::string::npos)
            continue;
        note += (note.empty() ? "" : "; ") + said +
                ", as in A* search, and no work writes it (a wildcard "
                "needs two letters or more before its star)";
    }
}

/* Whether every word of q (filters aside) is a stop word, and which,
 * comma-separated, in `words`. */
static bool only_stop_words(const Xapian::Query &q,
                            const std::set<std::string> &stops,
                            std::string &words)
{
    words.clear();
    for (Xapian::TermIterator t = q.get_unique_terms_begin();
         t != q.get_unique_terms_end(); ++t) {
        std::string stem;
        const char *f = term_field(*t, stem);
        if (!strcmp(f, "text") && !is_plain_term(stem))
            continue; /* a filter's term */
        if (!stops.count(stem))
            return false;
        words += (words.empty() ? "" : ", ") + stem;
    }
    return !words.empty();
}

/* q without the stop words of its ORs: an OR of stop words alone goes
 * too, from the OR above it (an empty query when q is one; any other
 * node keeps its children).  Xapian's parser drops a stop word only from
 * a group of words that holds another: a group of stop words alone,
 * after a dash or a colon of a pasted title ("Concept Retrieval -- What
 * and How?"), is kept, and a stop word's stem is indexed from the few
 * words that stem to it and are none themselves ("Whats"), so that such
 * a query ranked the one work writing "Whats" first.  (A query of stop
 * words alone is only_stop_words()'s.) */
/* Does text write w as a word of its own (no letter, digit or
 * apostrophe on either side)? */
static bool writes_word(const std::string &text, const std::string &w)
{
    auto inner = [](char c) { return isalnum(static_cast<unsigned char>(c)) || c == '\''; };
    for (size_t at = text.find(w); at != std::string::npos; at = text.find(w, at + 1))
        if ((at == 0 || !inner(text[at - 1])) &&
            (at + w.size() == text.size() || !inner(text[at + w.size()])))
            return true;
    return false;
}

/* stops: the stop stems, and text the query, whose stop words written as
 * they are go ("what"; not "off", the stem of "trade-offs", which is no
 * stop word). */
static Xapian::Query drop_stop_words(const Xapian::Query &q,
                                     const std::set<std::string> &stops,
                                     const std::string &text, bool &changed)
{
    const Xapian::Query::op op = q.get_type();
    if (!combines(op))
        return q;
    const bool any = op == Xapian::Query::OP_OR;
    bool below = false;
    std::vector<Xapian::Query> subs;
    for (size_t i = 0; i < q.get_num_subqueries(); i++) {
        const Xapian::Query sub = q.get_subquery(i);
        const std::string t = any ? leaf_term(sub) : std::string();
        if (stops.count(t) && writes_word(text, t)) {
            below = true;
            continue;
        }
        Xapian::Query d = drop_stop_words(sub, stops, text, below);
        if (d.empty() && !any)
            d = sub; /* only an OR lets a child go */
        if (!d.empty())
            subs.push_back(d);
    }
    if (!below)
        return q;
    changed = true;
    if (subs.empty())
        return Xapian::Query();
    return Xapian::Query(op, subs.begin(), subs.end());
}

/* The end of a filter's value when text[i..) opens one (author:,
 * firstauthor:, au:, subject:, category:, cat:, any case): a name or a
 * term as written, which the rewritings of words leave as it is; else
 * i. */
static size_t filter_value_end(const std::string &text, size_t i)
{
    static const char *const filters[] = {"author:", "firstauthor:", "au:",
                                          "subject:", "category:", "cat:"};
    for (const char *f : filters) {
        const size_t n = strlen(f);
        if (text.size() - i < n || strncasecmp(text.c_str() + i, f, n))
            continue;
        size_t v = i + n;
        const bool quoted = v < text.size() && text[v] == '"';
        v += quoted;
        while (v < text.size() && (quoted ? text[v] != '"' : text[v] != ' '))
            v++;
        return v;
    }
    return i;
}

/* A run of capitals separated by dots as one word, as the index reads
 * it (indexer/text_terms.cc, after Xapian's TermGenerator): "U.S.A." is
 * usa, "U.S." us.  The query is lower-cased before Xapian's parser, which
 * would otherwise have known the acronym: "U.S.A." found the 4 works of
 * the arXiv 101k holding the letters u and s, not the 45 that hold usa.
 * In an index that reads them so (dotted: LAYOUT_META_DOTTED), a run of
 * three letters or more with a lower-case one among them ("i.i.d.",
 * "w.r.t.", "a.k.a."), not right after a dot, is joined too ("iid"):
 * read as its letters, "i.i.d." found the 2,546 works of the 101k that
 * hold the letter d (i is a stop word), not the 188 that write i.i.d.,
 * I.I.D. or IID.  In an older index such a run is left as it is, and a
 * note in `note` says that it was searched as its letters.  Two letters
 * with a dot between them ("U.S.", "e.g.", "U.S"), not right after a dot, are the
 * word that keeps its dot ("u.s", written for the parser with PAIR_MARK)
 * in an index that reads them so (pairs: LAYOUT_META_DOTTED_PAIRS):
 * joined, "U.S." found the 2,058 works of the 101k that hold the word
 * us, where 281 write U.S.  In an older index they are read as before
 * (capitals joined, lower-case letters apart), with a note. */
static std::string join_acronyms(const std::string &text, bool dotted, bool pairs,
                                 std::string &note)
{
    auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
    auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
    auto wordish = [](char c) {
        return isalnum(static_cast<unsigned char>(c)) || c == '_' ||
               (static_cast<unsigned char>(c) & 0x80);
    };
    std::string out;
    size_t i = 0;
    while (i < text.size()) {
        const size_t fv = i == 0 || !wordish(text[i - 1]) ? filter_value_end(text, i) : i;
        if (fv > i) {
            out.append(text, i, fv - i);
            i = fv;
            continue;
        }
        /* letters of either case (a run with a lower-case one) */
        const bool any = (upper(text[i]) || lower(text[i])) &&
                         !(i > 0 && text[i - 1] == '.');
        if (!(upper(text[i]) || any) || (i > 0 && wordish(text[i - 1]))) {
            out += text[i++];
            continue;
        }
        std::string w;
        bool lowered = false;
        size_t p = i;
        for (;;) {
            lowered = lowered || lower(text[p]);
            w += text[p++];
            if (p == text.size() || text[p] != '.')
                break;
            ++p;
            if (p == text.size() || !(upper(text[p]) || (any && lower(text[p]))))
                break;
        }
        const bool ends = p == text.size() || !wordish(text[p]);
        /* two letters with a dot between */
        if (ends && w.size() == 2 && !(i > 0 && text[i - 1] == '.')) {
            const std::string pair = {static_cast<char>(tolower(static_cast<unsigned char>(w[0]))),
                                      static_cast<char>(tolower(static_cast<unsigned char>(w[1])))};
            if (pairs) {
                out += pair + PAIR_MARK;
                i = p;
                continue;
            }
            note += std::string(note.empty() ? "" : "; ") + text.substr(i, p - i) +
                    " was searched as " + (lowered ? "its letters" : "the word " + pair) +
                    ": this index was made before two letters written with their "
                    "dots were read as one word (paperdex index --full reads them so)";
        }
        /* capitals from two, a run with a lower-case letter from three
         * (the query is lower-cased after) */
        const bool run = ends && w.size() > (lowered ? 2u : 1u);
        if (run && (!lowered || dotted)) {
            out += w;
            if (text[p - 1] == '.')
                out += '.';
        } else {
            out.append(text, i, p - i);
            if (run)
                note += std::string(note.empty() ? "" : "; ") + text.substr(i, p - i) +
                        " was searched as its letters: this index was made before "
                        "letters written with dots between them were read as one "
                        "word (paperdex index --full reads them so)";
        }
        i = p;
    }
    return out;
}

std::string parser_text(const shim_db *h, const std::string &text)
{
    std::string unused;
    const std::string joined = join_acronyms(text, h->dotted, h->dotted_pairs, unused);
    return h->stars ? star_words(joined) : joined;
}

/* A species as biology abbreviates it, the genus's capital with its dot
 * and the species in lower case ("E. coli", "C. elegans", "S. aureus"),
 * outside quotes, as the phrase it is: read as two words, "E. coli"
 * found the 11,034 works of the arXiv 101k that hold a letter e (3 write
 * E. coli).  The species is a word of three letters or more, not a stop
 * word; a capital before it is no abbreviation ("US. army", "Fig. 3"),
 * nor a name's initial ("G. Hinton", capitalised). */
static std::string species_phrases(shim_db *h, const std::string &text)
{
    auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
    auto wordish = [](char c) {
        return isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ||
               (static_cast<unsigned char>(c) & 0x80);
    };
    std::string out;
    bool quoted = false;
    size_t i = 0;
    while (i < text.size()) {
        if (const size_t q = quote_at(text, i)) {
            quoted = !quoted;
            out.append(text, i, q);
            i += q;
            continue;
        }
        const size_t fv = i == 0 || !wordish(text[i - 1]) ? filter_value_end(text, i) : i;
        if (fv > i) {
            out.append(text, i, fv - i);
            i = fv;
            continue;
        }
        if (quoted || text[i] < 'A' || text[i] > 'Z' || (i > 0 && wordish(text[i - 1])) ||
            i + 2 >= text.size() || text[i + 1] != '.' || text[i + 2] != ' ') {
            out += text[i++];
            continue;
        }
        size_t b = i + 2;
        while (b < text.size() && text[b] == ' ')
            b++;
        size_t e = b;
        while (e < text.size() && lower(text[e]))
            e++;
        if (e - b < 3 || (e < text.size() && (wordish(text[e]) || text[e] == '*')) ||
            h->stopper(text.substr(b, e - b))) {
            out += text[i++];
            continue;
        }
        out += '"';
        out += text[i];
        out += ' ';
        out.append(text, b, e - b);
        out += '"';
        i = e;
    }
    return out;
}

/* Whether the index holds the compound of `parts` closed into one word
 * (indexer/text_terms.cc): an index that joins compounds joins those of
 * two parts, and those of three or more when it is stamped for them
 * (LAYOUT_META_STOP_COMPOUNDS); and some work must write it. */
static bool closed_held(shim_db *h, const std::vector<std::string> &parts)
{
    std::string closed;
    for (const std::string &w : parts)
        closed += w;
    return h->compounds_joined && (parts.size() <= 2 || h->stop_compounds) &&
           h->db.get_termfreq(h->stem(closed)) > 0;
}

/* Whether the index holds the pair a/b joined by a slash as its one word
 * "a_b" (LAYOUT_META_SLASH_PAIRS, indexer/text_terms.cc), and some work
 * writes it. */
static bool slash_held(shim_db *h, const std::string &a, const std::string &b)
{
    return h->slash_pairs && h->db.get_termfreq(h->stem(a + "_" + b)) > 0;
}

/* Of words with a stop word among them, as a query writes them apart
 * ("to do", "and or", "out of distribution", "a b"): " (to-do finds the
 * works that write it so)" when the index holds them joined as a pair
 * with a slash ("and/or", "a/b") or as a hyphenated compound ("to-do",
 * "out-of-distribution") and some work writes that, else "". */
static std::string joined_hint(shim_db *h, const std::vector<std::string> &ws)
{
    if (ws.size() < 2)
        return "";
    size_t stops = 0;
    for (const std::string &w : ws) {
        if (w.empty() ||
            !std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; }))
            return "";
        stops += h->stopper(w);
    }
    if (!stops)
        return "";
    /* Whether one of the first works holding `term` writes `written` in
     * its title or abstract (any case, apart: no letter, digit, hyphen
     * or slash on either side): the
     * closed word of a hyphenated compound is also what a work writes
     * closed ("ofthe", a space lost), and the hint names only what
     * some work writes. */
    auto written_in = [h](const std::string &term, const std::string &written) {
        size_t seen = 0;
        for (Xapian::PostingIterator p = h->db.postlist_begin(term);
             p != h->db.postlist_end(term) && seen < 20; ++p, ++seen) {
            std::string text = stored_text(stored_record(h, h->db.get_document(*p)));
            std::transform(text.begin(), text.end(), text.begin(),
                           [](unsigned char c) { return static_cast<char>(tolower(c)); });
            /* not inside a longer compound ("out-of-the-box") */
            auto apart = [](char c) {
                return !isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '/';
            };
            for (size_t at = text.find(written); at != std::string::npos;
                 at = text.find(written, at + 1))
                if ((at == 0 || apart(text[at - 1])) && apart(text[at + written.size()]))
                    return true;
        }
        return false;
    };
    std::string hyphenated, closed;
    for (const std::string &w : ws) {
        hyphenated += (hyphenated.empty() ? "" : "-") + w;
        closed += w;
    }
    std::vector<std::string> forms;
    if (ws.size() == 2 && slash_held(h, ws[0], ws[1]) &&
        written_in(h->stem(ws[0] + "_" + ws[1]), ws[0] + "/" + ws[1]))
        forms.push_back(ws[0] + "/" + ws[1]);
    if ((stops < ws.size() || h->stop_runs) && closed_held(h, ws) &&
        written_in(h->stem(closed), hyphenated))
        forms.push_back(hyphenated);
    if (forms.empty())
        return "";
    if (forms.size() == 1)
        return " (" + forms[0] + " finds the works that write it so)";
    return " (" + forms[0] + " and " + forms[1] + " find the works that write them so)";
}

/* Appends to `note` that `shown` was searched as its one kept word, its
 * `stopped` words not being indexed. */
static void stopped_note(std::string &note, const std::string &shown,
                         const std::string &kept, const std::vector<std::string> &stopped)
{
    std::string list;
    for (const std::string &w : stopped)
        list += (list.empty() ? "" : ", ") + w;
    note += std::string(note.empty() ? "" : "; ") + shown + " was searched as " + kept +
            ": its stop words (" + list + ") are not indexed";
}

/* Compounds with stop words, which are not indexed: read as a phrase, a
 * compound keeps only its other words.  A pair joined by a slash with a
 * stop word in it ("A/B", "I/O", "and/or") is the one word its parts
 * joined by an underscore make ("a_b") in an index that joins those
 * (LAYOUT_META_SLASH_PAIRS) when works hold it; elsewhere "A/B" is b and
 * "I/O" o, which only the note can say.  A compound its stop words leave one word of
 * becomes the closed word the index joins it into (indexer/text_terms.cc)
 * when works hold that: one of two words ("off-policy", "on-chip",
 * "in-context") in an index that joins compounds, one of three or more
 * ("out-of-distribution", "up-to-date", "off-the-shelf") in an index
 * that joins those too (LAYOUT_META_STOP_COMPOUNDS).  Without it,
 * "off-policy" (210 works of the arXiv 101k write it) found the 6,473
 * that write policy, and "out-of-distribution" (1,417) the 7,676 that
 * write distribution.  Quoted too: the closed word stands at its last
 * kept part's position.  A compound of stop words alone ("on-off",
 * "to-do", "all-to-all") is the closed word too, in an index that joins
 * those (LAYOUT_META_STOP_RUNS), where it stands at a position of its
 * own.  A compound its stop words leave one word of
 * and that is not so closed (an older index, or no work writes it) is
 * searched as that word and gets a note in `note`; one of stop words
 * alone is then nothing, which the query's note says.  A compound is a
 * run of words of letters joined by single hyphens or slashes, with no
 * word character or hyphen on either side; filters' values are left
 * alone. */
static std::string close_stop_compounds(shim_db *h, const std::string &text,
                                        std::string &note)
{
    auto letter = [](char c) { return c >= 'a' && c <= 'z'; };
    auto wordish = [](char c) {
        return isalnum(static_cast<unsigned char>(c)) ||
               (static_cast<unsigned char>(c) & 0x80) || c == '-' || c == '*';
    };
    std::string out;
    size_t i = 0;
    while (i < text.size()) {
        if (!letter(text[i]) || (i > 0 && wordish(text[i - 1]))) {
            out += text[i++];
            continue;
        }
        const size_t v = filter_value_end(text, i);
        if (v > i) {
            out.append(text, i, v - i);
            i = v;
            continue;
        }
        /* the words joined by hyphens (or slashes) from i, to e */
        std::vector<std::string> parts;
        size_t e = i;
        bool slashed = false;
        for (;;) {
            const size_t b = e;
            while (e < text.size() && letter(text[e]))
                e++;
            parts.push_back(text.substr(b, e - b));
            if (e + 1 < text.size() && (text[e] == '-' || text[e] == '/') &&
                letter(text[e + 1])) {
                slashed |= text[e] == '/';
                e++;
            } else {
                break;
            }
        }
        if (parts.size() >= 2 && (e == text.size() || !wordish(text[e]))) {
            std::vector<std::string> stopped, kept;
            for (const std::string &w : parts)
                (h->stopper(w) ? stopped : kept).push_back(w);
            if (!slashed && (kept.size() == 1 || (kept.empty() && h->stop_runs)) &&
                closed_held(h, parts)) {
                for (const std::string &w : parts)
                    out += w;
                i = e;
                continue;
            }
            if (slashed && parts.size() == 2 && !stopped.empty() &&
                slash_held(h, parts[0], parts[1])) {
                out += parts[0] + "_" + parts[1];
                i = e;
                continue;
            }
            if (kept.size() == 1)
                stopped_note(note, text.substr(i, e - i), kept[0], stopped);
        }
        out.append(text, i, e - i);
        i = e;
    }
    return out;
}

/* A quoted phrase of words of letters that stop words, not indexed, leave
 * one word of ("out of distribution", "up to date", "a b"), alone or as
 * the title's or the abstract's value: the phrase is that word, and
 * every work that writes it matches, so a note in `note` says so; one
 * they leave nothing of ("all to all") is left out, which the note says
 * too.  Either names the forms the index joins those words into when
 * works write them (joined_hint: out-of-distribution, a/b).  text is
 * lower-cased. */
static void stop_phrase_note(shim_db *h, const std::string &text, std::string &note)
{
    size_t i = 0;
    while ((i = text.find('"', i)) != std::string::npos) {
        const size_t e = text.find('"', i + 1);
        if (e == std::string::npos)
            return;
        std::vector<std::string> ws;
        bool letters = true;
        size_t b = i + 1;
        while (b < e && letters) {
            while (b < e && text[b] == ' ')
                b++;
            size_t w = b;
            for (; w < e && text[w] != ' '; w++)
                letters = letters && text[w] >= 'a' && text[w] <= 'z';
            if (w > b)
                ws.push_back(text.substr(b, w - b));
            b = w;
        }
        /* a field's value other than the text's (an author's name keeps
         * its short words: author:"Li An") */
        size_t f = i;
        while (f > 0 && text[f - 1] == ':')
            f--;
        size_t fb = f;
        while (fb > 0 && text[fb - 1] >= 'a' && text[fb - 1] <= 'z')
            fb--;
        const std::string field = f < i ? text.substr(fb, f - fb) : "";
        i = e + 1;
        if (!letters || ws.size() < 2 ||
            !(field.empty() || field == "title" || field == "ti" || field == "abstract" ||
              field == "abs" || field == "all"))
            continue;
        std::vector<std::string> stopped, kept;
        for (const std::string &w : ws)
            (h->stopper(w) ? stopped : kept).push_back(w);
        if (kept.empty()) {
            /* stop words alone: the phrase is nothing (a query of
             * nothing else gets the note of only_stop_words instead) */
            std::string phrase, list;
            std::set<std::string> seen;
            for (const std::string &w : ws) {
                phrase += (phrase.empty() ? "" : " ") + w;
                if (seen.insert(w).second)
                    list += (list.empty() ? "" : ", ") + w;
            }
            note += std::string(note.empty() ? "" : "; ") + "\"" + phrase +
                    "\" was left out: its words (" + list +
                    ") are stop words, which are not indexed" + joined_hint(h, ws);
            continue;
        }
        if (kept.size() != 1)
            continue;
        std::string phrase;
        for (const std::string &w : ws)
            phrase += (phrase.empty() ? "" : " ") + w;
        stopped_note(note, "\"" + phrase + "\"", kept[0], stopped);
        note += joined_hint(h, ws);
    }
}

Xapian::Query parse_query(shim_db *h, const std::string &raw, bool lenient,
                           std::string &note, PhraseFilter *hoist, bool words,
                           bool compounds_as_words,
                           std::vector<std::vector<std::string>> *phrases,
                           bool all_words)
{
    std::string positive;
    if (!words && only_excluded(raw, &positive)) /* all works but those; a phrase
                                        * there is no filter to hoist */
        return Xapian::Query(Xapian::Query::OP_AND_NOT, every_work(),
                             parse_query(h, positive, lenient, note, nullptr));
    std::string stop_note;
    const std::string acronyms = join_acronyms(unaccent(raw), h->dotted, h->dotted_pairs, stop_note);
    const std::string unsplit = close_stop_compounds(
        h, lower_words(words ? acronyms : species_phrases(h, acronyms)), stop_note);
    stop_phrase_note(h, unsplit, stop_note);
    const std::string split = compounds_as_words ? split_compounds(unsplit) : unsplit;
    /* Starred letters: "A*" a word */
    const std::string text = h->stars ? star_words(split) : split;
    const unsigned full = Xapian::QueryParser::FLAG_PHRASE |
                          Xapian::QueryParser::FLAG_BOOLEAN |
                          Xapian::QueryParser::FLAG_LOVEHATE |
                          Xapian::QueryParser::FLAG_WILDCARD |
                          Xapian::QueryParser::FLAG_PURE_NOT;
    Xapian::Query query;
    FieldError &fe = reader(h).field_error;
    /* One parse: what the field processors said of an earlier one goes */
    auto parse = [&](unsigned flags) {
        fe.msg.clear();
        reader(h).author_values.clear();
        reader(h).first_author_unknown = false;
        reader(h).year_values.clear();
        reader(h).subject_values.clear();
        reader(h).qp.set_default_op(all_words ? Xapian::Query::OP_AND
                                              : Xapian::Query::OP_OR);
        return reader(h).qp.parse_query(text, flags | reader(h).cjk_flag);
    };
    try {
        /* words: a quoted phrase in prose is still one (a title cited
         * in a question) */
        query = parse(words ? unsigned(Xapian::QueryParser::FLAG_PHRASE) : full);
    } catch (const Xapian::QueryParserError &) {
        query = parse(0); /* plain words */
    }
    if (!fe.msg.empty() && lenient)
        query = parse(0); /* plain words */
    if (fe.out_of_memory) {
        fe.out_of_memory = false;
        throw std::bad_alloc();
    }
    if (!fe.msg.empty()) {
        const std::string m = fe.msg;
        fe.msg.clear();
        size_t at = split.find(m.substr(0, m.find(' ')));
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
    if (h->stars || h->dotted_pairs)
        query = unmark_terms(query);
    if (h->stars) {
        bool starred = false;
        query = map_leaves(query, starred, starred_leaf);
    }
    size_t n = 0;
    for (Xapian::TermIterator t = query.get_unique_terms_begin();
         t != query.get_unique_terms_end(); ++t)
        n++;
    note = stop_note;
    if (reader(h).first_author_unknown)
        note += std::string(note.empty() ? "" : "; ") +
                "this index does not know its works' first authors (an "
                "older paperdex built it): firstauthor: was read as author: "
                "until `paperdex index --full` rebuilds it";
    wildcard_cuts(h, query, note);
    if (h->stars)
        unknown_stars(h, query, note);
    /* Stop words are not indexed, and Xapian's parser keeps them when
     * they are all a query has: it would match the few works that hold
     * one as another field's word.  Nothing is searched; the note says
     * why (filters still list their works only with other words). */
    std::string stopped;
    if (only_stop_words(query, h->stop_stems, stopped)) {
        /* named as the query writes them ("any", not its stem "ani") */
        std::string written;
        std::set<std::string> seen;
        std::vector<std::string> seq; /* every word, in order */
        for (size_t i = 0; i < split.size();) {
            size_t e = i;
            while (e < split.size() && (isalpha(static_cast<unsigned char>(split[e])) ||
                                        (e > i && split[e] == '\'')))
                e++;
            if (e == i) {
                i++;
                continue;
            }
            const std::string w = split.substr(i, e - i);
            seq.push_back(w);
            if (h->stopper(w) && seen.insert(w).second)
                written += (written.empty() ? "" : ", ") + w;
            i = e;
        }
        note = "the query is only stop words (" + (written.empty() ? stopped : written) +
               "), which are not indexed: nothing was searched" + joined_hint(h, seq);
        return Xapian::Query::MatchNothing;
    }
    bool dropped = false;
    const Xapian::Query kept = drop_stop_words(query, h->stop_stems, split, dropped);
    if (!kept.empty())
        query = kept;
    /* Text with no word the index holds a term for ("∞", "???"): the
     * parser gives an empty query, which would match nothing without a
     * word of why. */
    if (query.empty() && text.find_first_not_of(" \t\r\n") != std::string::npos) {
        note = "the query holds no word that is indexed (" + split +
               "): nothing was searched";
        return Xapian::Query::MatchNothing;
    }
    if (n > PDX_MAX_QUERY_TERMS)
        query = keep_informative(h, query, n, note);
    /* split: whether split_compounds split anything (a compound alone
     * stays a phrase, whose closed form vary_phrase adds) */
    query = with_variants(h, raw, split != unsplit, query, &note);
    bool changed = false;
    PhrasePlan plan{hoist};
    plan.phrases = phrases;
    std::vector<Quoted> quoted = quoted_passages(h, text);
    if (!quoted.empty())
        plan.quoted = &quoted;
    else if (!h->forms && text.find('"') != std::string::npos)
        note += std::string(note.empty() ? "" : "; ") +
                "this index keeps no word forms (an older paperdex built "
                "it): quoted words match every form of their stems until "
                "`paperdex index --full` rebuilds it";
    return fit_layout(h, query, h->stop_stems, changed, true, plan);
}

