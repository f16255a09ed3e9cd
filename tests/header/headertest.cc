/* The public header alone, as C++ (built twice: C++14 and C++20, with
 * -Wall -Wextra -Werror): every PDX_*_INIT initialiser compiles and
 * gives what its pdx_*_init() function gives, and the linked library is
 * the one the header describes (this test links the shared library). */
#include "paperdex.h"

#include <cstring>

int main()
{
    pdx_query q;
    pdx_work w;
    pdx_stats s;
    pdx_source src;
    pdx_reader_options ro;
    pdx_sync_options so;
    pdx_sync_summary ss;
    std::memset(&q, 0, sizeof q);
    std::memset(&w, 0, sizeof w);
    std::memset(&s, 0, sizeof s);
    std::memset(&src, 0, sizeof src);
    std::memset(&ro, 0, sizeof ro);
    std::memset(&so, 0, sizeof so);
    std::memset(&ss, 0, sizeof ss);
    if (pdx_query_init(&q, PDX_QUERY_VERSION) ||
        pdx_work_init(&w, PDX_WORK_VERSION) ||
        pdx_stats_init(&s, PDX_STATS_VERSION) ||
        pdx_source_init(&src, PDX_SOURCE_VERSION) ||
        pdx_reader_options_init(&ro, PDX_READER_OPTIONS_VERSION) ||
        pdx_sync_options_init(&so, PDX_SYNC_OPTIONS_VERSION) ||
        pdx_sync_summary_init(&ss, PDX_SYNC_SUMMARY_VERSION))
        return 1;
    if (pdx_query_init(&q, 99) != PDX_EVERSION)
        return 1;
    const pdx_query qi = PDX_QUERY_INIT;
    const pdx_work wi = PDX_WORK_INIT;
    const pdx_stats si = PDX_STATS_INIT;
    const pdx_source srci = PDX_SOURCE_INIT;
    const pdx_reader_options roi = PDX_READER_OPTIONS_INIT;
    const pdx_sync_options soi = PDX_SYNC_OPTIONS_INIT;
    const pdx_sync_summary ssi = PDX_SYNC_SUMMARY_INIT;
    /* Each initialiser gives what its function gives: the version, the
     * defaults that are not zero, and zero (or NULL) elsewhere. */
    if (qi.version != q.version || qi.k1 != q.k1 || qi.b != q.b ||
        qi.limit != q.limit || qi.snippet_bytes != q.snippet_bytes ||
        qi.facet_limit != q.facet_limit ||
        qi.expand_weight != q.expand_weight ||
        qi.title_weight != q.title_weight ||
        qi.author_weight != q.author_weight || qi.text || qi.year_min ||
        qi.n_authors || qi.offset || qi.sort != q.sort)
        return 1;
    if (wi.version != w.version || wi.id || wi.title || wi.n_authors ||
        wi.year || wi.withdrawn || wi.merged_into)
        return 1;
    if (si.version != s.version || srci.version != src.version ||
        srci.path || roi.version != ro.version || roi.format != ro.format ||
        soi.version != so.version || soi.format != so.format ||
        soi.n_include || soi.jobs || soi.forget_missing ||
        ssi.version != ss.version || ssi.records_read || ssi.message[0])
        return 1;
    /* The library linked is the one this header describes. */
    if (std::strcmp(pdx_version(), PDX_VERSION) != 0 ||
        pdx_vernum() != PDX_VERNUM)
        return 1;
    return q.version == PDX_QUERY_VERSION && q.author_weight < 0 &&
                   q.expand_weight < 0 && w.version == PDX_WORK_VERSION &&
                   s.version == PDX_STATS_VERSION
               ? 0
               : 1;
}
