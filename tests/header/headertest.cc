/* The public header alone, as C++14: no designated initialisers there, so
 * the PDX_*_INIT macros are absent and the pdx_*_init() functions stand in
 * (this test links the shared library for them). */
#include "paperdex.h"

#include <cstring>

int main()
{
    pdx_query q;
    pdx_work w;
    pdx_stats s;
    if (pdx_query_init(&q, PDX_QUERY_VERSION) ||
        pdx_work_init(&w, PDX_WORK_VERSION) ||
        pdx_stats_init(&s, PDX_STATS_VERSION))
        return 1;
    if (pdx_query_init(&q, 99) != PDX_EVERSION)
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
