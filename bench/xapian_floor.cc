/*
 * xapian_floor.cc -- what Xapian 1.4's glass backend costs on its own, with
 * no paperdex code, for the least an index must hold to answer what
 * paperdex answers: the floor under paperdex's build rate and index size
 * (the speed and size goals may lie below it; bench/floor.py runs
 * this beside paperdex in one run and prints the ratios).
 *
 * usage: xapian_floor MODE DB TSV [PART NPARTS]
 *        xapian_floor query DB QUERIES REPEAT [IDS]
 *
 * TSV is compare.py's Lucene input: id, title, abstract, authors, year,
 * categories, one record a line.  Every record (or, with PART/NPARTS, the
 * lines n with n % NPARTS == PART, so that two processes can build two
 * halves for the compactor to merge) becomes one document:
 *
 *   lucene  what bench/LuceneBench.java indexes, field for field: the
 *           title, the abstract and the authors as three prefixed streams
 *           of English stems with positions (Xapian's TermGenerator with
 *           STEM_ALL: stems only, as Lucene's EnglishAnalyzer keeps), a
 *           boolean term for the id and each category, the year in a
 *           value, and the record's three texts as the document data.
 *   one     the least any index with phrase search can hold: title,
 *           abstract and authors as ONE unprefixed stream of stems with
 *           positions (a gap of 100 after each field, so that no phrase
 *           spans two, as in paperdex), the id term, and the same
 *           document data: no field search, no filters, no merging.
 *   nopos   `one` without positions: no phrase search at all.
 *
 * In every mode the words of common/stopwords.h (paperdex's) are not
 * indexed and take no position, as in paperdex.
 *
 *   query   the read side's floor: the queries of QUERIES (pdx_qbench's
 *           file: kind, words, filter) run on DB, a paperdex index, by
 *           Xapian alone, as paperdex runs a query of plain words in its
 *           default field: QueryParser with the english stemmer, STEM_ALL
 *           and paperdex's stop words, words OR-ed, BM25 with paperdex's
 *           default k1 1.2 and b 0.6, ties by the id's value slot, the top
 *           10 (check_at_least 10) and each hit's document data read.
 *           REPEAT passes; one JSON line of latencies in microseconds,
 *           as pdx_qbench prints.  IDS: the first pass's hits, one line a
 *           query, their ids tab-separated (pdx_qbench writes the same
 *           with PDX_QBENCH_IDS), so that bench/matcher.py can check
 *           that both ran the same query.  Only plain words: a phrase,
 *           a filter or a field would be paperdex's own query, not
 *           Xapian's.
 *
 * Commits every 1,000 documents (as paperdex and LuceneBench do), with
 * DB_NO_SYNC (the cheapest Xapian allows).  Prints one JSON line: mode,
 * records, seconds (building, commits included).  Compacting, and
 * merging parts, is xapian-compact's (bench/floor.py runs it).
 */
#include <xapian.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "xapian_english.hh"

/* The query mode (see the top). */
static int run_queries(const char *db, const char *qfile, int repeat,
                       const char *ids_path)
{
    std::ifstream in(qfile);
    if (!in) {
        std::fprintf(stderr, "xapian_floor: cannot read %s\n", qfile);
        return 1;
    }
    std::vector<std::string> qs;
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> f = split(line, '\t');
        if (f.size() < 2 || f[0] == "phrase" || (f.size() > 2 && !f[2].empty())) {
            std::fprintf(stderr, "xapian_floor: %s: only plain words, no "
                                 "phrase or filter: %s\n", qfile, line.c_str());
            return 2;
        }
        qs.push_back(f[1]);
    }
    FILE *ids = ids_path ? std::fopen(ids_path, "w") : nullptr;
    if (ids_path && !ids) {
        std::fprintf(stderr, "xapian_floor: cannot write %s\n", ids_path);
        return 1;
    }
    try {
        Xapian::Database d(db);
        Xapian::SimpleStopper stop;
        Xapian::QueryParser qp;
        english_parser(qp, stop);
        Xapian::Enquire enq(d);
        enq.set_weighting_scheme(Xapian::BM25Weight(1.2, 0, 1, 0.6, 0.5));
        enq.set_sort_by_relevance_then_value(2 /* SLOT_ID */, false);
        std::printf("{\"latency_us\": [");
        long long hits = 0;
        auto start = std::chrono::steady_clock::now();
        for (int r = 0; r < repeat; r++)
            for (size_t i = 0; i < qs.size(); i++) {
                auto t0 = std::chrono::steady_clock::now();
                enq.set_query(qp.parse_query(qs[i], 0));
                Xapian::MSet ms = enq.get_mset(0, 10, 10);
                std::string data, row;
                for (Xapian::MSetIterator it = ms.begin(); it != ms.end(); ++it) {
                    Xapian::Document doc = it.get_document();
                    data = doc.get_data();
                    if (ids && r == 0)
                        row += (row.empty() ? "" : "\t") + doc.get_value(2);
                }
                auto t1 = std::chrono::steady_clock::now();
                hits += ms.size();
                if (ids && r == 0)
                    std::fprintf(ids, "%s\n", row.c_str());
                std::printf("%s%.1f", r || i ? ", " : "",
                            std::chrono::duration<double, std::micro>(t1 - t0).count());
            }
        std::printf("], \"seconds\": %.3f, \"hits\": %lld}\n",
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                    hits);
    } catch (const Xapian::Error &e) {
        std::fprintf(stderr, "xapian_floor: %s\n", e.get_description().c_str());
        return 1;
    }
    if (ids && std::fclose(ids) != 0) {
        std::fprintf(stderr, "xapian_floor: cannot write %s\n", ids_path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && argc <= 6 && !std::strcmp(argv[1], "query"))
        return run_queries(argv[2], argv[3], std::atoi(argv[4]),
                           argc == 6 ? argv[5] : nullptr);
    if (argc != 4 && argc != 6) {
        std::fprintf(stderr, "usage: xapian_floor lucene|one|nopos DB TSV "
                             "[PART NPARTS]\n"
                             "       xapian_floor query DB QUERIES REPEAT "
                             "[IDS]\n");
        return 2;
    }
    std::string mode = argv[1], db = argv[2], tsv = argv[3];
    if (mode != "lucene" && mode != "one" && mode != "nopos") {
        std::fprintf(stderr, "xapian_floor: unknown mode %s\n", argv[1]);
        return 2;
    }
    unsigned long part = 0, nparts = 1;
    if (argc == 6) {
        part = std::strtoul(argv[4], nullptr, 10);
        nparts = std::strtoul(argv[5], nullptr, 10);
        if (nparts == 0 || part >= nparts) {
            std::fprintf(stderr, "xapian_floor: PART must be below NPARTS\n");
            return 2;
        }
    }
    std::ifstream in(tsv);
    if (!in) {
        std::fprintf(stderr, "xapian_floor: cannot read %s\n", tsv.c_str());
        return 1;
    }
    try {
        auto t0 = std::chrono::steady_clock::now();
        Xapian::WritableDatabase w(db, Xapian::DB_CREATE_OR_OVERWRITE |
                                           Xapian::DB_BACKEND_GLASS |
                                           Xapian::DB_NO_SYNC);
        Xapian::TermGenerator tg;
        tg.set_stemmer(Xapian::Stem("english"));
        tg.set_stemming_strategy(Xapian::TermGenerator::STEM_ALL);
        Xapian::SimpleStopper stop;
        english_stopper(stop);
        tg.set_stopper(&stop);
        tg.set_stopper_strategy(Xapian::TermGenerator::STOP_ALL);
        bool positions = mode != "nopos";
        std::string line;
        unsigned long long lineno = 0, n = 0;
        while (std::getline(in, line)) {
            if (lineno++ % nparts != part)
                continue;
            std::vector<std::string> f = split(line, '\t');
            if (f.size() < 6)
                continue;
            Xapian::Document d;
            tg.set_document(d);
            if (mode == "lucene") {
                tg.index_text(f[1], 1, "S");
                tg.increase_termpos(100);
                tg.index_text(f[2], 1, "B");
                tg.increase_termpos(100);
                tg.index_text(f[3], 1, "A");
                for (const std::string &c : split(f[5], ' '))
                    if (!c.empty())
                        d.add_boolean_term("XC" + c);
                d.add_value(0, Xapian::sortable_serialise(std::atof(f[4].c_str())));
            } else {
                for (int k = 1; k <= 3; k++) {
                    if (positions)
                        tg.index_text(f[k]);
                    else
                        tg.index_text_without_positions(f[k]);
                    tg.increase_termpos(100);
                }
            }
            d.add_boolean_term("Q" + f[0]);
            d.set_data(f[1] + "\t" + f[2] + "\t" + f[3]);
            w.add_document(d);
            if (++n % 1000 == 0)
                w.commit();
        }
        w.commit();
        w.close();
        auto t1 = std::chrono::steady_clock::now();
        std::printf("{\"mode\": \"%s\", \"records\": %llu, \"seconds\": %.3f}\n",
                    mode.c_str(), n,
                    std::chrono::duration<double>(t1 - t0).count());
    } catch (const Xapian::Error &e) {
        std::fprintf(stderr, "xapian_floor: %s\n", e.get_description().c_str());
        return 1;
    }
    return 0;
}
