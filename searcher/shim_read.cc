/*
 * shim_read.cc -- the read side's entry points behind searcher/shim_read.h:
 * a search run (the parsed query, filters, BM25 or a date order, the
 * facets counted over every match, pseudo-relevance feedback by Bo1),
 * similar works and statistics.  The query language is query_parse.cc's,
 * explain and snippets hit_text.cc's, "did you mean" suggest.cc's; the
 * exception fence and the handle are common/shim.cc's, the layout
 * common/layout.h's.
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
#include <tuple>
#include <vector>

#include "proximity.hh"
#include "read_side.hh"
extern "C" {
#include "../common/text.h"
#include "qscan.h"
}

using namespace pdxshim;

namespace {

const char *const LAYOUT_KEY = LAYOUT_META_LAYOUT;
const char *const UPDATED_KEY = LAYOUT_META_UPDATED;

} // namespace

Reader &reader(shim_db *h)
{
    if (!h->reader)
        h->reader.reset(new Reader(h));
    return static_cast<Reader &>(*h->reader);
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
    Facets(unsigned which, int rules) : which_(which), rules_(rules) {}

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
        std::map<std::string, Person> people; /* k == 2: by person */
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
                std::string value = joined.substr(i, j - i);
                if (k == 2 && j > i) { /* one entry a person */
                    const std::string key = person_key(value, rules_);
                    if (seen.insert(key).second) {
                        Person &p = people[key];
                        p.count += n;
                        p.forms[value] += n;
                    }
                } else if (j > i && seen.insert(value).second) {
                    c[value] += n;
                }
                i = j + 1;
            }
        }
        for (const auto &kv : people)
            c[label(kv.second)] += kv.second.count;
        return c;
    }

  private:
    /* One person of the author facet: the works, and each form of the
     * name seen with how many works wrote it so. */
    struct Person {
        uint64_t count = 0;
        std::map<std::string, uint64_t> forms;
    };
    /* The person a name stands for, by the name keys the author filter
     * uses (text_name_keys): the folded family name and full given name,
     * so that "Greta Lindqvist", "Lindqvist, Greta" and "GRETA LINDQVÍST"
     * are one entry.  A name of initials is its own entry ("G.
     * Lindqvist" may be another Greta's, or a Gustav's). */
    static std::string person_key(const std::string &name, int rules)
    {
        arena a = {};
        name_keys nk;
        std::string key = name;
        if (text_name_keys_rules(&a, name.c_str(), rules, &nk) == 0 &&
            *nk.family) {
            key = std::string(nk.family) + '\x1f' +
                  (nk.given_is_initial ? "=" : "") + nk.given;
        }
        arena_free(&a);
        return key;
    }

    /* How a form ranks as the entry's label: written in mixed case
     * rather than capitals throughout, then the most letters (a given
     * name rather than its initial), then "Given Family" rather than
     * "Family, Given". */
    static std::tuple<bool, size_t, bool> form_rank(const std::string &v)
    {
        bool lower = false;
        size_t chars = 0;
        for (unsigned char ch : v) { /* letters: ASCII, or a UTF-8 lead */
            lower |= ch >= 'a' && ch <= 'z';
            chars += isalpha(ch) || ch >= 0xC0;
        }
        return std::make_tuple(lower, chars, v.find(',') == std::string::npos);
    }

    /* The entry's label: the fullest form seen (form_rank; then the form
     * most works wrote). */
    static std::string label(const Person &p)
    {
        const std::string *best = nullptr;
        uint64_t best_n = 0;
        for (const auto &f : p.forms) {
            if (!best || form_rank(f.first) > form_rank(*best) ||
                (form_rank(f.first) == form_rank(*best) && f.second > best_n))
                best = &f.first, best_n = f.second;
        }
        return best ? *best : std::string();
    }

    unsigned which_;
    int rules_; /* the index's name rules */
    std::unique_ptr<Xapian::ValueCountMatchSpy> spy_[SHIM_N_FACETS];
};

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


/* The total: exact up to `limit` matches, and past it a lower bound
 * (totals->gte), so that a page never shows an estimate as a count.
 *
 * The ranking match (ms) stops as soon as no other work can enter the
 * page, so its bounds are often far apart; when they are and the lower
 * one is short of the limit, the matches are counted by a second match
 * of the same query and decider without weights (BoolWeight), which
 * Xapian ends once it has seen `limit` of them.  Weighing every work the
 * ranking match skips, to count it there, cost 2 to 3 times the query's
 * time on the arXiv 101k; this pass is skipped for most queries of common
 * words (an OR's lower bound is already its commonest word's count) and
 * costs what reading the rest of the postings costs otherwise
 * (bench/RESULTS.md, "Counts").  A phrase is checked in every work that
 * holds its words, up to the limit: the dearest case, which on a
 * million works can take half a second; so that no query counts for
 * long, the count stops after SHIM_COUNT_SECONDS (or the query's own
 * time limit), and the total is then what was counted, a lower bound.  limit 0 means the ranking
 * match counted everything (--exact, facets). */
static void count_total(shim_db *h, const Xapian::Query &query,
                        const Xapian::MatchDecider *decider,
                        const Xapian::MSet &ms, size_t limit,
                        double time_limit, shim_totals *t)
{
    t->estimated = ms.get_matches_estimated();
    t->lower = ms.get_matches_lower_bound();
    t->upper = ms.get_matches_upper_bound();
    if (t->lower < t->upper && limit && t->lower < limit) {
        Xapian::Enquire ce(h->db);
        ce.set_query(query);
        ce.set_weighting_scheme(Xapian::BoolWeight());
        /* Xapian turns check_at_least off when the time is up: past
         * it the total is what was counted, a lower bound ("4,321+"). */
        ce.set_time_limit(time_limit > 0 ? time_limit : SHIM_COUNT_SECONDS);
        Xapian::MSet cs = ce.get_mset(
            0, 1, static_cast<Xapian::doccount>(limit), nullptr, decider);
        t->lower = std::max<size_t>(t->lower, cs.get_matches_lower_bound());
        t->upper = std::min<size_t>(t->upper, cs.get_matches_upper_bound());
        if (t->lower == t->upper)
            t->estimated = t->lower;
        else
            t->estimated = std::max(t->estimated, t->lower);
    }
    /* Past the limit the total says "limit+" even when this match
     * happened to count them all (a single word, a date sort), so that
     * every page and --limit 0 show the same, as Elasticsearch's
     * track_total_hits does. */
    t->gte = t->lower < t->upper || (limit && t->lower > limit);
    t->total = t->gte && limit && t->lower > limit ? limit : t->lower;
}

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

static void run_search(shim_db *h, const shim_query *q, shim_totals *totals,
                       std::vector<shim_hit> &hits,
                       std::map<std::string, double> &snippet_stems,
                       Facets *spy)
{
    const bool has_text = q->text && *q->text;
    totals->note[0] = '\0';
    totals->n_query_authors = 0;
    Xapian::Query query;
    /* The phrases every match must hold, checked only for the works that
     * would make the page (PhraseFilter). */
    PhraseFilter phrases(h->db);
    /* Words together: the proximity bonus (proximity.cc) of the query's
     * words, for a ranking by relevance over local databases (the
     * remote backend cannot run its source). */
    const bool with_proximity = has_text && q->proximity_weight > 0 &&
                                q->sort == SHIM_SORT_RELEVANCE &&
                                all_local(h);
    std::vector<std::vector<std::string>> tied; /* the query's phrases */
    if (has_text) {
        std::string note;
        /* Over Xapian's positions phrases are Xapian's own
         * (xapian_phrases) and never reach the decider, which Xapian
         * would refuse through xapian-tcpsrv. */
        /* Sorted by date, nothing ranks the works that hold one common
         * word of several below the others: every word must hold, as in
         * arXiv's listing search (prose read as words stays OR-ed). */
        const bool all_words = q->sort != SHIM_SORT_RELEVANCE && !q->words;
        query = parse_query(h, q->text, q->lenient != 0, note, &phrases,
                            q->words != 0, with_proximity, &tied, all_words);
        snprintf(totals->note, sizeof totals->note, "%s", note.c_str());
        totals->n_query_authors = 0;
        for (const std::string &v : reader(h).author_values)
            if (totals->n_query_authors < SHIM_QUERY_AUTHORS &&
                v.size() < sizeof totals->query_authors[0])
                memcpy(totals->query_authors[totals->n_query_authors++],
                       v.c_str(), v.size() + 1);
    } else {
        query = every_work();
    }
    std::shared_ptr<const ProximityQuery> prox;
    if (with_proximity) {
        prox = std::make_shared<const ProximityQuery>(
            h->db, query, q->text, h->stem, h->stop_stems,
            q->proximity_weight, q->proximity_window, q->proximity_title,
            tied);
        if (prox->pairs.empty())
            prox.reset();
    }
    Xapian::Query filter = build_filter(h, q);
    /* Feedback may add matches to an OR of words; anything stricter (+x,
     * -x, AND, NOT, a phrase) keeps its match set and is only re-ranked. */
    const Xapian::Query::op top_op = query.get_type();
    const bool loose = top_op == Xapian::Query::LEAF_TERM ||
                       top_op == Xapian::Query::OP_OR ||
                       top_op == Xapian::Query::OP_SYNONYM;
    /* What --explain takes apart: the query, its boosts, the bonus. */
    ScoreParts parts;
    parts.query = query;
    parts.title_weight = q->title_weight;
    parts.author_weight = q->author_weight;
    parts.k1 = q->k1;
    parts.b = q->b;
    parts.proximity = prox;
    if (has_text && (q->title_weight > 0 || q->author_weight > 0)) {
        /* Field boosts add to the score of what the query matches; they
         * never add matches (AND_MAYBE). */
        const std::string plain = lower_words(unaccent(q->text));
        std::vector<Xapian::Query> boosts;
        if (q->title_weight > 0) {
            parts.title = reader(h).qp_title.parse_query(plain,
                                                     reader(h).cjk_flag);
            boosts.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, parts.title,
                                q->title_weight);
        }
        if (q->author_weight > 0) {
            parts.author = reader(h).qp_author.parse_query(plain,
                                                      reader(h).cjk_flag);
            boosts.emplace_back(Xapian::Query::OP_SCALE_WEIGHT, parts.author,
                                q->author_weight);
        }
        query = Xapian::Query(
            Xapian::Query::OP_AND_MAYBE, query,
            Xapian::Query(Xapian::Query::OP_OR, boosts.begin(), boosts.end()));
    }
    const Xapian::MatchDecider *decider =
        phrases.checks.empty() && phrases.forms.empty() ? nullptr : &phrases;
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
    /* The bonus rides in the source of the query's OR of words when it
     * has one (bm25.cc), and is otherwise a source of its own beside
     * the query: the same score either way. */
    std::shared_ptr<const ProximityQuery> alone = prox;
    Xapian::Query run =
        lens ? with_lengths(query, lens, q->k1, q->b, &alone) : query;
    if (alone)
        run = Xapian::Query(
            Xapian::Query::OP_AND_MAYBE, run,
            Xapian::Query((new ProximitySource(alone))->release()));
    enq.set_query(run);
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
            hit.explain = explain_hit(h, parts, *it, it.get_weight());
        hits.push_back(std::move(hit));
    }
    count_total(h, query, decider, ms, q->exact_total ? 0 : q->count_limit,
                q->time_limit, totals);
    const std::string missing = missing_categories(h, query);
    if (!missing.empty()) {
        std::string note = totals->note;
        note += (note.empty() ? "" : "; ") + missing;
        if (note.size() >= sizeof totals->note)
            note.resize(sizeof totals->note - 1); /* ASCII category keys */
        memcpy(totals->note, note.c_str(), note.size() + 1);
    }
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
            spy.reset(new Facets(q->facets, h->names));
        with_reopen(h, [&] {
            run_search(h, q, totals, hits, stems, spy.get());
        });
        const bool snippets = q->snippet_bytes && q->text && *q->text;
        for (const auto &hit : hits) {
            /* The caller decodes the record once and lends its abstract:
             * the snippet is made from that, not from a second parse. */
            const char *abstract = nullptr, *title = nullptr;
            if (fn(ctx, hit.score, hit.data.data(), hit.data.size(),
                   hit.explain.empty() ? nullptr : hit.explain.c_str(),
                   &abstract, &title) ||
                (snippets &&
                 snip_fn(ctx,
                         make_snippet(h, abstract ? abstract : "", stems,
                                      q->snippet_bytes)
                             .c_str(),
                         mark_words(h, title ? title : "", stems).c_str()))) {
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
            count_total(h, enq.get_query(), nullptr, ms,
                        SHIM_DEFAULT_COUNT_LIMIT, 0.0, totals);
        });
        if (!found) {
            set_msg(e, PDX_ENOTFOUND,
                    std::string("no work with id '") + id + "'");
            return PDX_ENOTFOUND;
        }
        for (const auto &hit : hits)
            if (fn(ctx, hit.first, hit.second.data(), hit.second.size(),
                   nullptr, nullptr, nullptr)) {
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

