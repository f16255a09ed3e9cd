/*
 * tiers.cc -- an experiment: can a layout give Xapian 1.4's matcher a
 * bound tight enough to skip most postings of a common word, with the
 * scores unchanged?
 *
 * usage: tiers split SRC DST C [PART NPARTS]
 *        tiers query DB QUERIES REPEAT [OUT]
 *
 * Xapian 1.4 scores every posting of a query word: it stops early only
 * once the 10th best score passes a term's upper bound, and BM25Weight's
 * bound (the largest wdf over the shortest document) is about the most
 * any posting could score, so it is rarely passed.  Lucene 8 keeps a
 * maximum score for each block of postings and skips blocks (block-max
 * WAND); that is the 1M top-10 gap (bench/RESULTS.md).
 *
 * The experiment splits each word of the default field into two terms
 * by the impact of its posting: a posting of wdf w in a document of
 * length L goes to the "high" term XH<t> when its BM25 term-frequency
 * part, at a reference average length A0 (SRC's), is at least C of the
 * most it could be:
 *
 *     w / (k1 (b L/A0 + 1 - b) + w)  >=  C
 *
 * and to the "low" term t otherwise.  Every posting is in one of the two,
 * so the index holds as many postings as before.  A query word t becomes
 * XH<t> OR t, each weighted by TierBM25 below, which is BM25Weight's
 * formula with the word's own document frequency (the sum of the two
 * terms', exact: they are disjoint), so every score is what BM25 gives
 * the unsplit word.  What changes is the low term's bound: no low posting
 * reaches C at A0, which bounds its score at any average length A (the
 * sup over w of the formula on the line where the rule flips; see
 * low_bound).  Once the 10th best score passes that bound, Xapian's OR
 * decays to AND_MAYBE and the low term's postings are no longer scored.
 *
 *   split  reads SRC, a paperdex index, and writes DST: each work's
 *          default-field terms (those not beginning with an upper-case
 *          prefix) with their wdf, split as above (C <= 0: not split, the
 *          plain twin to compare with), a term XLEN whose wdf makes the
 *          document's length what it is in SRC, and value 2 (the id, the
 *          tie-break).  PART/NPARTS: only works whose docid % NPARTS ==
 *          PART (two processes, xapian-compact merges).  Metadata
 *          tiers.a0 and tiers.c say how DST was split.
 *   query  compare.py's query file (kind, words, filter; plain words
 *          only) on DB, as xapian_floor's query mode runs it: the words
 *          parsed by QueryParser (english stems, paperdex's stop words),
 *          OR-ed, BM25 k1 1.2 b 0.6, ties by value 2, the top 10 and
 *          each hit's document data.  On a split DB, each word is its two
 *          terms under TierBM25.  One JSON line: latencies (us), and
 *          OUT gets each query's top 10 as id:score, to compare the two.
 *          In the environment, for what the split could not show:
 *            TIERS_HIONLY=1  the high terms alone (a split DB): what a
 *                            query that never reads the low terms costs;
 *            TIERS_B0=1      BM25 with b = 0 (a plain DB), which needs no
 *                            document length: what the lengths cost;
 *            TIERS_PS=1      each word a posting source that takes the
 *                            lengths from an array read first (a plain
 *                            DB), as searcher/bm25.cc came to do.
 *
 * Not part of paperdex: a measurement of what a layout could buy.  What
 * it found (bench/RESULTS.md, "Lengths in an array"): the split did not
 * pay (one-word queries 0.7 of the time, four words slower), and the
 * high terms alone cost nearly as much as both: Xapian looks up each
 * scored work's length in glass's length list, decoding it front to
 * back within each chunk, and that, not the scoring, was most of a
 * query's time.
 */
#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "xapian_english.hh"
#include "bench_queries.h"

static const double K1 = 1.2, B = 0.6, MIN_NORMLEN = 0.5;

/* ---- split ---- */

static int split_db(const char *src, const char *dst, double c,
                    unsigned part, unsigned nparts)
{
    Xapian::Database in(src);
    double a0 = in.get_avlength();
    Xapian::WritableDatabase out(dst, Xapian::DB_CREATE_OR_OVERWRITE |
                                          Xapian::DB_BACKEND_GLASS |
                                          Xapian::DB_NO_SYNC);
    out.set_metadata("tiers.a0", std::to_string(a0));
    out.set_metadata("tiers.c", std::to_string(c));
    unsigned long long hi = 0, lo = 0, docs = 0;
    auto t0 = std::chrono::steady_clock::now();
    Xapian::docid last = in.get_lastdocid();
    for (Xapian::docid did = 1 + part; did <= last; did += nparts) {
        Xapian::Document d;
        try {
            d = in.get_document(did);
        } catch (const Xapian::DocNotFoundError &) {
            continue;
        }
        Xapian::termcount len = in.get_doclength(did), kept = 0;
        Xapian::Document o;
        for (Xapian::TermIterator t = in.termlist_begin(did);
             t != in.termlist_end(did); ++t) {
            const std::string &term = *t;
            if (term.empty() || (term[0] >= 'A' && term[0] <= 'Z'))
                continue;
            Xapian::termcount w = t.get_wdf();
            if (w == 0)
                continue;
            kept += w;
            double g = w / (K1 * (B * len / a0 + 1 - B) + w);
            if (c > 0 && g >= c) {
                o.add_term("XH" + term, w);
                hi++;
            } else {
                o.add_term(term, w);
                lo++;
            }
        }
        if (len > kept)
            o.add_term("XLEN", len - kept);
        o.add_value(2, d.get_value(2));
        o.set_data(d.get_data());
        out.add_document(o);
        if (++docs % 10000 == 0)
            out.commit();
    }
    out.commit();
    std::printf("{\"docs\": %llu, \"high\": %llu, \"low\": %llu, "
                "\"a0\": %.3f, \"c\": %.3f, \"seconds\": %.1f}\n",
                docs, hi, lo, a0, c,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
}

/* ---- query ---- */

/* Which leaf a TierBM25 weighs: Xapian hands a Weight its term's
 * statistics but not its name, so the query builder records, for each
 * leaf, (termfreq, collection freq) -> (the word's document frequency,
 * low or not).  Two leaves of one query with the same pair but not the
 * same answer are a conflict: the leaf is then weighed as high (the
 * plain bound) and the conflict counted; the df of both is the same
 * word's only if they agree, else the run is void (reported). */
struct TierInfo {
    struct Leaf { Xapian::doccount df; bool low; bool conflict; };
    std::map<std::pair<Xapian::doccount, Xapian::termcount>, Leaf> leaves;
    double a0 = 0, c = 0;
    unsigned long conflicts = 0;
};

class TierBM25 : public Xapian::Weight {
    std::shared_ptr<TierInfo> info;
    double termweight = 0, len_factor = 0, low_g = 1;
    bool low = false;

    /* The most (k1+1) w/(k1 (b n + 1 - b) + w) can be for a low
     * posting, n = max(L/A, MIN_NORMLEN): for each w, a low posting has
     * L/A0 > x_w (where the rule flips), so n > x_w A0 / A. */
    double low_bound(Xapian::termcount wmax) const {
        double c = info->c, best = 0;
        double r = info->a0 * len_factor; /* A0 / A */
        for (Xapian::termcount w = 1; w <= wmax && w <= 100000; w++) {
            double x = (w * (1 - c) / c - K1 * (1 - B)) / (K1 * B);
            double n = std::max(std::max(x, 0.0) * r, MIN_NORMLEN);
            double g = w / (K1 * (n * B + 1 - B) + w);
            best = std::max(best, g);
        }
        return best;
    }

  public:
    explicit TierBM25(std::shared_ptr<TierInfo> i) : info(std::move(i)) {
        need_stat(COLLECTION_SIZE);
        need_stat(TERMFREQ);
        need_stat(COLLECTION_FREQ);
        need_stat(WDF);
        need_stat(WQF);
        need_stat(WDF_MAX);
        need_stat(DOC_LENGTH);
        need_stat(DOC_LENGTH_MIN);
        need_stat(AVERAGE_LENGTH);
    }
    TierBM25 *clone() const override { return new TierBM25(info); }
    std::string name() const override { return "paperdex::TierBM25"; }
    void init(double factor) override {
        Xapian::doccount df = get_termfreq();
        low = false;
        auto it = info->leaves.find({get_termfreq(), get_collection_freq()});
        if (it != info->leaves.end()) {
            df = it->second.df;
            low = it->second.low && !it->second.conflict;
        }
        double tw = (get_collection_size() - df + 0.5) / (df + 0.5);
        if (tw < 2)
            tw = tw * 0.5 + 1;
        termweight = std::log(tw) * factor;
        double wqf = get_wqf();
        termweight *= 2 * wqf / (1 + wqf);   /* k3 = 1 */
        len_factor = get_average_length();
        if (len_factor != 0)
            len_factor = 1 / len_factor;
        low_g = low ? low_bound(get_wdf_upper_bound()) * (1 + 1e-9) : 1;
    }
    double get_sumpart(Xapian::termcount wdf, Xapian::termcount len,
                       Xapian::termcount) const override {
        double n = std::max(len * len_factor, MIN_NORMLEN);
        double w = wdf;
        return termweight * (K1 + 1) * (w / (K1 * (n * B + 1 - B) + w));
    }
    double get_maxpart() const override {
        double wmax = get_wdf_upper_bound();
        double n = std::max(get_doclength_lower_bound() * len_factor, MIN_NORMLEN);
        double g = wmax / (wmax + K1 * (n * B + 1 - B));
        g = std::min(g, low_g);
        return termweight * (K1 + 1) * g;
    }
    double get_sumextra(Xapian::termcount, Xapian::termcount) const override { return 0; }
    double get_maxextra() const override { return 0; }
};

/* A word's BM25 as a posting source: the word's posting list, each
 * document's length from a dense array read once (lens), instead of
 * Xapian's own length lookup, which walks the length list. */
struct Lens {
    std::vector<Xapian::termcount> len;
};

class BM25Source : public Xapian::PostingSource {
    std::string term;
    std::shared_ptr<const Lens> lens;
    Xapian::PostingIterator it, end;
    double termweight = 0, len_factor = 0;
    bool started = false;
    Xapian::doccount df = 0;

  public:
    BM25Source(const std::string &t, std::shared_ptr<const Lens> l)
        : term(t), lens(std::move(l)) {}
    Xapian::PostingSource *clone() const override {
        return new BM25Source(term, lens);
    }
    void init(const Xapian::Database &db) override {
        it = db.postlist_begin(term);
        end = db.postlist_end(term);
        started = false;
        df = db.get_termfreq(term);
        double tw = (db.get_doccount() - df + 0.5) / (df + 0.5);
        if (tw < 2)
            tw = tw * 0.5 + 1;
        termweight = std::log(tw);
        len_factor = db.get_avlength();
        if (len_factor != 0)
            len_factor = 1 / len_factor;
        double wmax = db.get_wdf_upper_bound(term);
        double n = std::max(db.get_doclength_lower_bound() * len_factor, MIN_NORMLEN);
        set_maxweight(termweight * (K1 + 1) * (wmax / (wmax + K1 * (n * B + 1 - B))));
    }
    Xapian::doccount get_termfreq_min() const override { return df; }
    Xapian::doccount get_termfreq_est() const override { return df; }
    Xapian::doccount get_termfreq_max() const override { return df; }
    void next(double) override {
        if (!started)
            started = true;
        else
            ++it;
    }
    void skip_to(Xapian::docid did, double) override {
        started = true;
        it.skip_to(did);
    }
    bool at_end() const override { return it == end; }
    Xapian::docid get_docid() const override { return *it; }
    double get_weight() const override {
        double w = it.get_wdf();
        double n = std::max(lens->len[*it] * len_factor, MIN_NORMLEN);
        return termweight * (K1 + 1) * (w / (K1 * (n * B + 1 - B) + w));
    }
};

static int run_queries(const char *db, const char *qfile, int repeat,
                       const char *out_path)
{
    bench_query *all = nullptr;
    long n = read_queries(qfile, &all);
    if (n < 0)
        return 1;
    std::vector<std::pair<std::string, std::string>> qs;
    for (long i = 0; i < n; i++) /* plain words only */
        if (strcmp(all[i].kind, "phrase") != 0 && !*all[i].filter)
            qs.push_back({all[i].kind, all[i].words});
    FILE *out = out_path ? std::fopen(out_path, "w") : nullptr;
    Xapian::Database d(db);
    std::string cs = d.get_metadata("tiers.c");
    auto info = std::make_shared<TierInfo>();
    bool tiered = !cs.empty() && std::atof(cs.c_str()) > 0;
    if (tiered) {
        info->a0 = std::atof(d.get_metadata("tiers.a0").c_str());
        info->c = std::atof(cs.c_str());
    }
    Xapian::SimpleStopper stop;
    Xapian::QueryParser qp;
    english_parser(qp, stop);
    Xapian::Enquire enq(d);
    if (tiered)
        enq.set_weighting_scheme(TierBM25(info));
    else
        enq.set_weighting_scheme(Xapian::BM25Weight(K1, 0, 1, getenv("TIERS_B0") ? 0 : B, MIN_NORMLEN));
    enq.set_sort_by_relevance_then_value(2, false);
    std::shared_ptr<Lens> lens;
    if (getenv("TIERS_PS")) {
        auto t0 = std::chrono::steady_clock::now();
        lens = std::make_shared<Lens>();
        lens->len.resize(d.get_lastdocid() + 1);
        for (Xapian::PostingIterator p = d.postlist_begin(""); p != d.postlist_end(""); ++p)
            lens->len[*p] = p.get_doclength();
        std::fprintf(stderr, "lengths read in %.1f ms\n",
                     std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("{\"tiered\": %s, \"kinds\": [", tiered ? "true" : "false");
    for (size_t i = 0; i < qs.size(); i++)
        std::printf("%s\"%s\"", i ? ", " : "", qs[i].first.c_str());
    std::printf("], \"latency_us\": [");
    for (int r = 0; r < repeat; r++)
        for (size_t i = 0; i < qs.size(); i++) {
            auto t0 = std::chrono::steady_clock::now();
            Xapian::Query q = qp.parse_query(qs[i].second, 0);
            if (lens) {
                std::vector<Xapian::Query> leaves;
                for (auto t = q.get_terms_begin(); t != q.get_terms_end(); ++t)
                    leaves.push_back(Xapian::Query((new BM25Source(*t, lens))->release()));
                q = Xapian::Query(Xapian::Query::OP_OR, leaves.begin(), leaves.end());
            } else if (tiered) {
                std::vector<Xapian::Query> leaves;
                info->leaves.clear();
                Xapian::termpos pos = 1;
                for (auto t = q.get_terms_begin(); t != q.get_terms_end(); ++t) {
                    std::string lo = *t, hi = "XH" + *t;
                    Xapian::doccount dl = d.get_termfreq(lo), dh = d.get_termfreq(hi);
                    Xapian::termcount cl = d.get_collection_freq(lo),
                                      ch = d.get_collection_freq(hi);
                    auto put = [&](Xapian::doccount df, Xapian::termcount cf, bool low) {
                        auto ins = info->leaves.insert({{df, cf}, {dl + dh, low, false}});
                        TierInfo::Leaf &l = ins.first->second;
                        if (!ins.second && (l.df != dl + dh || l.low != low)) {
                            l.conflict = true;
                            if (l.df != dl + dh)
                                info->conflicts++;
                        }
                    };
                    put(dl, cl, true);
                    put(dh, ch, false);
                    if (!getenv("TIERS_HIONLY"))
                        leaves.push_back(Xapian::Query(lo, 1, pos));
                    leaves.push_back(Xapian::Query(hi, 1, pos));
                    pos++;
                }
                q = Xapian::Query(Xapian::Query::OP_OR, leaves.begin(), leaves.end());
            }
            enq.set_query(q);
            Xapian::MSet ms = enq.get_mset(0, 10, 10);
            std::string data, row;
            for (Xapian::MSetIterator it = ms.begin(); it != ms.end(); ++it) {
                Xapian::Document doc = it.get_document();
                data = doc.get_data();
                if (out && r == 0) {
                    char sc[64];
                    std::snprintf(sc, sizeof sc, ":%.9g", it.get_weight());
                    row += (row.empty() ? "" : "\t") + doc.get_value(2) + sc;
                }
            }
            auto t1 = std::chrono::steady_clock::now();
            if (out && r == 0)
                std::fprintf(out, "%s\n", row.c_str());
            std::printf("%s%.1f", r || i ? ", " : "",
                        std::chrono::duration<double, std::micro>(t1 - t0).count());
        }
    std::printf("], \"conflicts\": %lu}\n", info->conflicts);
    if (out)
        std::fclose(out);
    return 0;
}

int main(int argc, char **argv)
{
    try {
        if (argc >= 5 && !std::strcmp(argv[1], "split"))
            return split_db(argv[2], argv[3], std::atof(argv[4]),
                            argc > 6 ? std::atoi(argv[5]) : 0,
                            argc > 6 ? std::atoi(argv[6]) : 1);
        if (argc >= 5 && !std::strcmp(argv[1], "query"))
            return run_queries(argv[2], argv[3], std::atoi(argv[4]),
                               argc > 5 ? argv[5] : nullptr);
    } catch (const Xapian::Error &e) {
        std::fprintf(stderr, "tiers: %s\n", e.get_description().c_str());
        return 1;
    }
    std::fprintf(stderr, "usage: tiers split SRC DST C [PART NPARTS]\n"
                         "       tiers query DB QUERIES REPEAT [OUT]\n");
    return 2;
}
