/*
 * xapian_floor.cc -- what Xapian 1.4's glass backend costs on its own, with
 * no paperdex code, for the least an index must hold to answer what
 * paperdex answers: the floor under paperdex's build rate and index size
 * (issue 13 asks for figures that may lie below it; bench/floor.py runs
 * this beside paperdex in one run and prints the ratios).
 *
 * usage: xapian_floor MODE DB TSV [PART NPARTS]
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

#include "../common/stopwords.h"

static std::vector<std::string> split(const std::string &s, char c)
{
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        size_t e = s.find(c, start);
        out.push_back(s.substr(start, e == std::string::npos ? e : e - start));
        if (e == std::string::npos)
            return out;
        start = e + 1;
    }
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 6) {
        std::fprintf(stderr, "usage: xapian_floor lucene|one|nopos DB TSV "
                             "[PART NPARTS]\n");
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
        for (const char *const *sw = PDX_STOPWORDS; *sw; sw++)
            stop.add(*sw);
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
