/*
 * proximity.cc -- words together count: the proximity bonus of
 * paperdex's default ranking.
 *
 * Why.  BM25 scores a bag of words: a work that holds "reinforcement",
 * "learning", "human" and "feedback" in four sentences weighs as much as
 * one whose title is "Reinforcement Learning from Human Feedback".  A
 * person who types a few words of a topic or of a half-remembered title
 * means them together.  The literature measures it: term-proximity
 * models (BM25TP, Rasolofo and Savoy 2003; Büttcher, Clarke and Lushman
 * 2006) and the sequential dependence model (Metzler and Croft 2005) add
 * a score for the pairs of query words that stand close, and give steady
 * gains on ad hoc collections; Lucene and Elasticsearch users get the
 * same from a phrase query in a should clause.
 *
 * The model (BM25TP's, over neighbouring query words only, as SDM
 * pairs them, in the title: a field boost of the phrases a query's
 * words make there, as Lucene's and Elasticsearch's users give a
 * title phrase query in a should clause).  The query's words in the
 * default field, in the order written and without stop words (which
 * the index does not hold either), give the pairs of neighbours:
 * "reinforcement learning from human feedback" gives (reinforc, learn),
 * (learn, human), (human, feedback).  For a pair (a, b) and the title
 * of a work, each occurrence of a at position p and b at position q
 * with 0 < |q - p| <= window adds
 *
 *     1 / d^2        in the order written (d = q - p > 0),
 *     1 / (d + 1)^2  in the other order (d = p - q > 0),
 *
 * so "human feedback" adds 1, "feedback from humans" (b one word before
 * a) 1/4, and two words apart in order 1/4.  The sum is the pair's
 * co-occurrence tp in the work, and its score saturates as BM25's term
 * frequency does:
 *
 *     pair = weight * max(idf(a), idf(b)) * (K + 1) * tp / (K + tp)
 *
 * with K = 1, idf Xapian's BM25 idf (BM25Weight's termweight,
 * bm25_termweight() in bm25.hh, from the whole database's statistics) and weight pdx_query.proximity_weight.
 * The pair's idf is its rarer word's: the works holding both words
 * next to each other are no more than those holding the rarer one, so
 * that is the least the pair's own idf can be.  BM25TP takes the
 * commoner word's (the min), which gives "train your dragon" the weight
 * of "train" and ranks the title benchmarks below lower.
 * The bonus of a work is the sum of its pairs', added to its BM25 score
 * (and any field boost).  Its bound, which the matcher prunes with, is
 * weight * sum of max(idf) * (K + 1).  With the defaults (weight 0.35,
 * window 3: PDX_DEFAULT_PROXIMITY_WEIGHT and PDX_PROXIMITY_WINDOW in
 * paperdex.h), one adjacent pair in the title adds 0.35 times its rarer
 * word's idf.
 *
 * Why the title alone.  The abstract's pairs scored too (with a title
 * pair counting four times an abstract's) gave the same relevance give
 * or take a few thousandths, and cost the most of a query's time on a
 * million works: a pair of common words stands close in the abstracts
 * of few of the thousands of works holding both, and only reading
 * their positions tells which, where whether a title holds both is a
 * short posting list's answer (bench/RESULTS.md, "Ranking").  An
 * abstract's phrase still counts through BM25, and a quoted one finds
 * it.  The defaults were chosen by measurement: bench/titles.py's
 * partial titles and title topics on the arXiv 101k, and
 * bench/eval.sh's CACM and SciFact, which must not fall
 * (bench/RESULTS.md, "Ranking"; docs/ranking.md).
 *
 * Positions come from the work's positions value (layouts 7 and 8,
 * common/positions.cc), one read for all the pairs, or, in an index of
 * layout 9 (common/chunks.cc), from each word's chunks, a read a word
 * (and a chunk kept once read: the works are weighed in batches, each
 * in docid order, and a batch goes back to where an earlier one read).
 * Either way only the words of a pair whose both words the work's title
 * holds are read (ProximityReader says why), and in layout 9 a work
 * weighed to find a page has its pairs' bounds from its title's wdfs
 * (pair_max_title), its pairs read largest bound first, and is given up
 * on once the rest cannot lift it onto the page.
 *
 * Cost.  Inside an OR of words -- a query of plain words, most of what
 * people type -- the bonus rides in the OR's own source (bm25.cc,
 * BM25OrSource): each word's MaxScore bound is raised by the bounds of
 * its pairs, a pair counts toward a work's bound only where the title
 * holds its words (the title terms' posting lists, moved forward with
 * the works considered, tell that without a position), and a work's
 * positions are read only when the pairs whose words its title holds
 * (bounded first by the words' wdfs, then by the title's) could lift it
 * past the page's threshold, and only once
 * the matcher asks its weight: under a filter, once the filter holds it,
 * which most works the OR proposes there do not.  Any other
 * query gets the bonus from ProximitySource, the right side of an
 * AND_MAYBE: Xapian asks it only about the works the query matches and
 * that can still reach the page with the bonus's bound added.  The two
 * give the same scores (tests/unit/test_bm25.cc).
 *
 * A long query -- an abstract pasted whole, read as words -- keeps its
 * MAX_PAIRS heaviest pairs (the rarest words'), and only their words'
 * positions are read.  Every pair of a 208-word abstract would take
 * two thirds of its search on the arXiv 101k, each work's positions
 * looked up for 200 words; a typed query or a pasted title has fewer
 * pairs than that.
 */
#include "proximity.hh"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "bm25.hh"
#include "read_side.hh"

namespace pdxshim {

namespace {

const double K = 1.0; /* the pair's saturation, as BM25's k1 */

/* tp of the pair (a, b) in one field (the essay's formula): both lists
 * sorted. */
double co_occurrence(const std::vector<Xapian::termpos> &a,
                     const std::vector<Xapian::termpos> &b, unsigned window)
{
    double tp = 0;
    if (a.empty() || b.empty())
        return 0;
    for (Xapian::termpos p : a) {
        const Xapian::termpos lo = p > window ? p - window : 0;
        for (auto it = std::lower_bound(b.begin(), b.end(), lo);
             it != b.end() && *it <= p + window; ++it) {
            if (*it > p) {
                const double d = *it - p;
                tp += 1.0 / (d * d);
            } else if (*it < p) {
                const double d = p - *it + 1.0;
                tp += 1.0 / (d * d);
            }
        }
    }
    return tp;
}

/* A pair of weight w with co-occurrence tp: the essay's saturation
 * (0 for none), which a bound at tp's bound bounds too. */
double saturated(double w, double tp)
{
    return tp > 0 ? w * (K + 1) * tp / (K + tp) : 0;
}

/* S(n): the n largest weights of the window's places summed (all of
 * them past 2 * window). */
double places(const std::vector<double> &place_sums, size_t n)
{
    return n < place_sums.size() ? place_sums[n] : place_sums.back();
}

} // namespace

ProximityQuery::ProximityQuery(
    const Xapian::Database &db, const Xapian::Query &query,
    const std::string &text, const Xapian::Stem &stem,
    const std::set<std::string> &stops, double weight, unsigned window_,
    const std::vector<std::vector<std::string>> &phrases)
    : window(window_)
{
    /* S(n) of pair_max(p, wdf_a, wdf_b): the window's places' weights,
     * largest first, summed. */
    std::vector<double> places;
    for (unsigned d = 1; d <= window; d++) {
        places.push_back(1.0 / (double(d) * d));
        places.push_back(1.0 / ((d + 1.0) * (d + 1.0)));
    }
    std::sort(places.begin(), places.end(), std::greater<double>());
    place_sums.assign(1, 0.0);
    for (double w : places)
        place_sums.push_back(place_sums.back() + w);
    if (weight <= 0 || window == 0)
        return;
    /* The words that add to a score (not those under NOT or a filter),
     * in the order the text writes them: the parsed query keeps no
     * order once its phrases are rebuilt for the layout. */
    std::map<std::string, Xapian::termcount> scored;
    scored_terms(query, scored);
    Xapian::TermGenerator tg;
    tg.set_stemmer(stem);
    tg.set_stemming_strategy(Xapian::TermGenerator::STEM_ALL);
    Xapian::Document d;
    tg.set_document(d);
    tg.index_text(unaccent(text));
    std::vector<std::pair<Xapian::termpos, std::string>> at;
    for (Xapian::TermIterator t = d.termlist_begin(); t != d.termlist_end();
         ++t) {
        const std::string term = unmark(*t); /* "A*" (star_words) */
        if (is_plain_term(term) && scored.count(term) && !stops.count(term))
            for (Xapian::PositionIterator p = t.positionlist_begin();
                 p != t.positionlist_end(); ++p)
                at.emplace_back(*p, term);
    }
    std::sort(at.begin(), at.end());
    std::vector<std::string> order;
    for (const auto &pt : at)
        if (order.empty() || order.back() != pt.second)
            order.push_back(pt.second);
    if (order.size() < 2)
        return;
    std::map<std::string, size_t> index;
    for (const std::string &t : order)
        if (index.emplace(t, stems.size()).second)
            stems.push_back(t);
    const Xapian::doccount n = db.get_doccount();
    /* A phrase's neighbours are tied already: their pairs are its. */
    std::set<std::pair<std::string, std::string>> tied;
    for (const std::vector<std::string> &ph : phrases)
        for (size_t i = 0; i + 1 < ph.size(); i++)
            tied.emplace(ph[i], ph[i + 1]);
    std::set<std::pair<size_t, size_t>> seen;
    for (size_t i = 0; i + 1 < order.size(); i++) {
        const size_t a = index[order[i]], b = index[order[i + 1]];
        if (!seen.emplace(a, b).second ||
            tied.count(std::make_pair(order[i], order[i + 1])))
            continue;
        /* The rarer word's idf: a pair is at least as rare as it. */
        const double idf = std::max(bm25_termweight(n, db.get_termfreq(stems[a])),
                                    bm25_termweight(n, db.get_termfreq(stems[b])));
        if (idf <= 0)
            continue;
        pairs.push_back(Pair{a, b, weight * idf});
    }
    if (pairs.size() > MAX_PAIRS) { /* the heaviest, in the query's order */
        std::vector<size_t> keep(pairs.size());
        for (size_t p = 0; p < keep.size(); p++)
            keep[p] = p;
        std::stable_sort(keep.begin(), keep.end(), [this](size_t x, size_t y) {
            return pairs[x].weight > pairs[y].weight;
        });
        keep.resize(MAX_PAIRS);
        std::sort(keep.begin(), keep.end());
        std::vector<Pair> kept;
        std::vector<std::string> kept_stems;
        std::map<size_t, size_t> moved; /* old stem index: new */
        auto stem_of = [&](size_t i) {
            auto m = moved.emplace(i, kept_stems.size());
            if (m.second)
                kept_stems.push_back(stems[i]);
            return m.first->second;
        };
        for (size_t p : keep) {
            const size_t a = stem_of(pairs[p].a), b = stem_of(pairs[p].b);
            kept.push_back(Pair{a, b, pairs[p].weight});
        }
        pairs.swap(kept);
        stems.swap(kept_stems);
    }
    for (size_t p = 0; p < pairs.size(); p++)
        max_weight += pair_max(p);
}

double ProximityQuery::pair_max(size_t p) const
{
    return pairs[p].weight * (K + 1);
}

/* A work's bound of a pair, from its title's occurrences of the two
 * words.  An occurrence of the word that occurs fewer times there pairs
 * with the other word's occurrences at the window's places on either
 * side (1, 1/4, 1/9 after it, 1/4, 1/9, 1/16 before it, for a window of
 * 3), at most one at each place and at most as many as that word
 * occurs: so it adds at most S(n), the sum of the n largest of those
 * weights, with n the larger count, and tp is at most S(n) times the
 * smaller count m.  The pair's score grows with tp: its value there
 * bounds it.  One occurrence each (tp <= 1) bounds the pair at half of
 * pair_max(p). */
double ProximityQuery::pair_max_title(size_t p, Xapian::termcount title_a,
                                      Xapian::termcount title_b) const
{
    const double m = std::min(title_a, title_b);
    if (m <= 0)
        return 0;
    const double tp = m * places(place_sums, std::max(title_a, title_b));
    return std::min(pair_max(p), saturated(pairs[p].weight, tp));
}

/* The same from the words' default-field wdfs, which count each title
 * occurrence TITLE_WDF (TW) times, beside the abstract's and the author
 * names' (common/layout.h): a word of wdf w occurs at most w / TW times
 * in the title, and a word of wdf below TW not at all. */
double ProximityQuery::pair_max(size_t p, Xapian::termcount wdf_a,
                                Xapian::termcount wdf_b) const
{
    return pair_max_title(p, wdf_a / TITLE_WDF, wdf_b / TITLE_WDF);
}

std::vector<std::string> ProximityQuery::asked() const
{
    std::vector<std::string> out;
    for (const std::string &s : stems)
        out.push_back(LAYOUT_P_TITLE + s);
    return out;
}

double ProximityQuery::pair_score(size_t p,
                                  const std::vector<std::vector<Xapian::termpos>> &pos) const
{
    const Pair &pr = pairs[p];
    return saturated(pr.weight, co_occurrence(pos[pr.a], pos[pr.b], window));
}

double ProximityQuery::score(const std::vector<std::vector<Xapian::termpos>> &pos,
                             std::vector<Part> *parts) const
{
    double sum = 0;
    for (const Pair &p : pairs) {
        const double tp = co_occurrence(pos[p.a], pos[p.b], window);
        const double s = saturated(p.weight, tp);
        sum += s;
        if (parts)
            parts->push_back(Part{tp, s});
    }
    return sum;
}

/* -------------------------------------------------------- ProximityReader */

ProximityReader::ProximityReader(std::shared_ptr<const ProximityQuery> pq_)
    : pq(std::move(pq_)), terms(pq->asked())
{
}

void ProximityReader::init(const Xapian::Database &db_)
{
    db = db_;
    values = Xapian::ValueIterator();
    lists.assign(terms.size(), Xapian::PostingIterator());
    opened.assign(terms.size(), 0);
    valued = false;
    held.assign(terms.size(), 0);
    has.assign(terms.size(), 0);
    pos.assign(terms.size(), std::vector<Xapian::termpos>());
    chunked = db.get_metadata(LAYOUT_META_CHUNKS) == "1";
    space = chunked ? std::make_shared<const ChunkSpace>(db) : nullptr;
    cursors.clear();
    cursors.resize(terms.size());
    cursor_at.assign(terms.size(), 0);
    got_at.assign(terms.size(), 0);
    /* the query's own handles, if open already */
    chunk_reads = 0;
    take_dbs(false);
    own_asked = !own.empty();
}

/* The query's other handles (pq->open_dbs; with open, opened if need
 * be), when they are on db as it is: the same index (its uuid) at the
 * same revision; the cursors made so far then read through them too. */
void ProximityReader::take_dbs(bool open)
{
    own.clear();
    if (!chunked || !pq->open_dbs)
        return;
    std::vector<Xapian::Database> v = pq->open_dbs(open);
    if (v.empty())
        return;
    try {
        const std::string uuid = db.get_uuid();
        const Xapian::rev rev = db.get_revision();
        for (const Xapian::Database &o : v)
            if (o.get_uuid() != uuid || o.get_revision() != rev)
                return;
    } catch (const Xapian::InvalidOperationError &) {
        return; /* not one local database */
    }
    own = std::move(v);
    for (size_t i = 0; i < cursors.size(); i++)
        if (cursors[i])
            cursors[i]->read_through(own[i % own.size()]);
}

void ProximityReader::rewind()
{
    std::fill(opened.begin(), opened.end(), 0);
    valued = false;
    /* a cursor goes back only when asked about an earlier work */
}

double ProximityReader::weigh(Xapian::docid did, const std::vector<char> *here,
                              std::vector<ProximityQuery::Part> *parts,
                              const double *pair_ub, double need)
{
    const size_t n = pq->stems.size();
    const Xapian::PostingIterator none;
    /* Whether the work's title holds word i: its title term's list
     * moved to did (a list is opened when first asked since init or
     * rewind). */
    auto holds = [&](size_t i) {
        Xapian::PostingIterator &it = lists[i];
        if (!opened[i]) {
            it = db.postlist_begin(terms[i]);
            opened[i] = 1;
        }
        if (it != none && *it < did)
            it.skip_to(did);
        return it != none && *it == did;
    };
    /* the caller's here spares the lists */
    for (size_t i = 0; i < n; i++)
        has[i] = here ? (*here)[i] : holds(i);
    /* A pair counts only where the title holds both its words, so a word
     * is read (its positions looked up) only where some pair of it has
     * both: each costs a lookup of its own in an index of layout 9. */
    std::fill(held.begin(), held.end(), 0);
    bool any = false;
    for (const ProximityQuery::Pair &p : pq->pairs)
        if (has[p.a] && has[p.b]) {
            held[p.a] = held[p.b] = 1;
            any = true;
        }
    if (!any)
        return 0; /* no pair scores: parts left empty */
    if (chunked) {
        /* term i's positions in the work, read when first needed */
        auto read = [&](size_t i) {
            if (!held[i] || got_at[i] == did)
                return;
            got_at[i] = did;
            /* a batch of works goes back to earlier ones: each cursor
             * keeps the chunks it read, and reads again only those it
             * lacks */
            if (!cursors[i]) {
                const Xapian::Database &by =
                    own.empty() ? db : own[i % own.size()];
                cursors[i].reset(new ChunkCursor(by, terms[i], space));
                cursors[i]->keep();
            }
            ChunkCursor &c = *cursors[i];
            const unsigned long before = c.chunks_read();
            const bool found = did < cursor_at[i] ? c.rewind_to(did) : c.skip_to(did);
            cursor_at[i] = did;
            if (found && c.did == did)
                pos[i] = c.positions();
            chunk_reads += c.chunks_read() - before;
            if (!own_asked && chunk_reads >= pq->dbs_after) {
                own_asked = true;
                take_dbs(true);
            }
        };
        for (size_t i = 0; i < terms.size(); i++) {
            pos[i].clear();
            got_at[i] = 0;
        }
        if (pair_ub && !parts) {
            /* Pair by pair, the largest bound first, each pair's words
             * read when it comes: once what the pairs gave and the
             * bounds of those left fall short of need, the work cannot
             * reach the page, and its other words are not read. */
            order.clear();
            double rest = 0;
            for (size_t p = 0; p < pq->pairs.size(); p++) {
                const ProximityQuery::Pair &pr = pq->pairs[p];
                if (!(pair_ub[p] > 0 && has[pr.a] && has[pr.b]))
                    continue;
                order.push_back(p);
                rest += pair_ub[p];
            }
            if (rest < need)
                return -1;
            std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
                return pair_ub[x] > pair_ub[y];
            });
            double sum = 0;
            for (size_t p : order) {
                const ProximityQuery::Pair &pr = pq->pairs[p];
                read(pr.a);
                read(pr.b);
                sum += pq->pair_score(p, pos);
                rest -= pair_ub[p];
                if (sum + rest < need)
                    return -1;
            }
        }
        for (size_t i = 0; i < terms.size(); i++)
            read(i);
        return pq->score(pos, parts);
    }
    asked.clear();
    for (size_t i = 0; i < terms.size(); i++)
        if (held[i])
            asked.push_back(terms[i]);
    const Xapian::ValueIterator end;
    if (!valued) {
        values = db.valuestream_begin(SLOT_POSITIONS);
        valued = true;
    }
    if (values != end && values.get_docid() < did)
        values.skip_to(did);
    if (values != end && values.get_docid() == did) {
        positions_find(*values, did, asked, got);
    } else { /* positions in Xapian's table (layouts 5 and 6) */
        got.assign(asked.size(), std::vector<Xapian::termpos>());
        for (size_t k = 0; k < asked.size(); k++)
            for (Xapian::PositionIterator p = db.positionlist_begin(did, asked[k]);
                 p != db.positionlist_end(did, asked[k]); ++p)
                got[k].push_back(*p);
    }
    for (size_t i = 0, k = 0; i < terms.size(); i++) {
        pos[i].clear();
        if (held[i])
            pos[i].swap(got[k++]);
    }
    return pq->score(pos, parts);
}

/* -------------------------------------------------------- ProximitySource */

ProximitySource::ProximitySource(std::shared_ptr<const ProximityQuery> pq_)
    : pq(std::move(pq_)), reader(pq)
{
}

Xapian::PostingSource *ProximitySource::clone() const
{
    return new ProximitySource(pq);
}

void ProximitySource::init(const Xapian::Database &db_)
{
    db = db_;
    reader.init(db);
    last = db.get_lastdocid();
    did = 0;
    weighed = 0;
    set_maxweight(pq->max_weight);
}

/* Every work stands in it (most with weight 0): the AND_MAYBE's left
 * side, never this, decides what matches and how many. */
Xapian::doccount ProximitySource::get_termfreq_min() const
{
    return db.get_doccount();
}
Xapian::doccount ProximitySource::get_termfreq_est() const
{
    return db.get_doccount();
}
Xapian::doccount ProximitySource::get_termfreq_max() const
{
    return db.get_doccount();
}

void ProximitySource::next(double) { ++did; }

void ProximitySource::skip_to(Xapian::docid d, double)
{
    if (d > did)
        did = d;
}

double ProximitySource::get_weight() const
{
    if (weighed != did) {
        weighed = did;
        weight = reader.weigh(did);
    }
    return weight;
}

std::string ProximitySource::get_description() const
{
    std::string d = "paperdex::ProximitySource(window " +
                    std::to_string(pq->window) + ",";
    for (const ProximityQuery::Pair &p : pq->pairs)
        d += " " + pq->stems[p.a] + "~" + pq->stems[p.b];
    return d + ")";
}

} // namespace pdxshim
