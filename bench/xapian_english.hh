/*
 * xapian_english.hh -- what bench/'s programs on Xapian alone
 * (xapian_floor.cc, tiers.cc, form_chunks.cc) share with paperdex's
 * default field: the English stemmer and paperdex's stop words, for a
 * term generator and a query parser that ORs its words; and the split of
 * compare.py's tab-separated lines.  Header only; C++.
 */
#ifndef PDX_BENCH_XAPIAN_ENGLISH_HH
#define PDX_BENCH_XAPIAN_ENGLISH_HH

#include <xapian.h>

#include <string>
#include <vector>

#include "../common/stopwords.h"

/* stop: paperdex's stop words (common/stopwords.h). */
static inline void english_stopper(Xapian::SimpleStopper &stop)
{
    for (const char *const *sw = PDX_STOPWORDS; *sw; sw++)
        stop.add(*sw);
}

/* qp parses as paperdex's default field: every word stemmed, stop words
 * left out (stop, which must outlive qp), words OR-ed. */
static inline void english_parser(Xapian::QueryParser &qp,
                                  Xapian::SimpleStopper &stop)
{
    english_stopper(stop);
    qp.set_stemmer(Xapian::Stem("english"));
    qp.set_stemming_strategy(Xapian::QueryParser::STEM_ALL);
    qp.set_stopper(&stop);
    qp.set_default_op(Xapian::Query::OP_OR);
}

/* s cut at each c: n c's give n + 1 fields, empty ones kept. */
static inline std::vector<std::string> split(const std::string &s, char c)
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

#endif
