/*
 * wildcards.cc -- what a trailing wildcard costs as its expansion limit
 * grows: the figures behind PDX_WILDCARD_MAX (common/paperdex.h).
 *
 *   wildcards DB [N]
 *
 * Patterns as people type them: the first 2 to 7 letters of N words
 * (default 300) drawn with a fixed seed from the index's default-field
 * stems held by 20 works or more ("neur*", "optim*", "co*").  Each is
 * searched top 10 with BM25, the way paperdex's parser builds it
 * (Xapian's OP_WILDCARD, its expansion scored as one term, OP_SYNONYM),
 * with the expansion limited to the 100, 1,000, 10,000 most frequent
 * terms and unlimited; best of 3 runs per pattern.  Prints, per limit,
 * how many patterns it cuts and the latency p50 / p90 / p99 / max.
 */
#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: wildcards DB [N]\n");
        return 2;
    }
    Xapian::Database db(argv[1]);
    const size_t n = argc > 2 ? static_cast<size_t>(atol(argv[2])) : 300;
    std::vector<std::string> words;
    for (Xapian::TermIterator t = db.allterms_begin(); t != db.allterms_end();
         ++t) {
        const std::string w = *t;
        if (w.size() >= 4 && w[0] >= 'a' && w[0] <= 'z' &&
            w.find_first_not_of("abcdefghijklmnopqrstuvwxyz") ==
                std::string::npos &&
            t.get_termfreq() >= 20)
            words.push_back(w);
    }
    std::mt19937 rng(20261128);
    std::vector<std::string> pats;
    for (size_t i = 0; i < n && !words.empty(); i++) {
        const std::string &w = words[rng() % words.size()];
        size_t len = 2 + rng() % 6;
        pats.push_back(w.substr(0, std::min(len, w.size())));
    }
    std::vector<size_t> sizes;
    for (const std::string &p : pats) {
        size_t k = 0;
        for (Xapian::TermIterator t = db.allterms_begin(p);
             t != db.allterms_end(p); ++t)
            k += (*t)[0] >= 'a' && (*t)[0] <= 'z';
        sizes.push_back(k);
    }
    printf("%zu patterns of 2-7 letters from %zu words; expansions p50 %zu, "
           "max %zu\n",
           pats.size(), words.size(),
           [&] { auto s = sizes; std::sort(s.begin(), s.end()); return s[s.size() / 2]; }(),
           *std::max_element(sizes.begin(), sizes.end()));
    printf("| limit | patterns cut | p50 ms | p90 ms | p99 ms | max ms |\n");
    printf("|---|---|---|---|---|---|\n");
    for (unsigned lim : {100u, 1000u, 10000u, 0u}) {
        Xapian::QueryParser qp;
        qp.set_database(db);
        if (lim)
            qp.set_max_expansion(lim, Xapian::Query::WILDCARD_LIMIT_MOST_FREQUENT);
        Xapian::Enquire enq(db);
        enq.set_weighting_scheme(Xapian::BM25Weight(1.2, 0, 1, 0.6, 0.5));
        std::vector<double> ms;
        size_t cut = 0;
        for (size_t i = 0; i < pats.size(); i++) {
            cut += lim && sizes[i] > lim;
            double best = 1e18;
            for (int r = 0; r < 3; r++) {
                auto t0 = std::chrono::steady_clock::now();
                enq.set_query(qp.parse_query(pats[i] + "*",
                                             Xapian::QueryParser::FLAG_WILDCARD));
                Xapian::MSet m = enq.get_mset(0, 10);
                best = std::min(best, std::chrono::duration<double, std::milli>(
                                          std::chrono::steady_clock::now() - t0)
                                          .count());
            }
            ms.push_back(best);
        }
        std::sort(ms.begin(), ms.end());
        auto at = [&](double q) { return ms[std::min(ms.size() - 1, size_t(q * ms.size()))]; };
        printf("| %s | %zu | %.2f | %.2f | %.2f | %.2f |\n",
               lim ? std::to_string(lim).c_str() : "none", cut, at(0.5), at(0.9),
               at(0.99), ms.back());
    }
    return 0;
}
