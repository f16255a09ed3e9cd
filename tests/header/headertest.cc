/* Compiles the public header alone, as strict C (-std=c99 -pedantic
 * -Werror) and, from headertest.cc, as C++. */
#include "paperdex.h"

int main(void)
{
    pdx_query q = PDX_QUERY_INIT;
    pdx_work w = PDX_WORK_INIT;
    pdx_stats s = PDX_STATS_INIT;
    /* The initialisers fill every field: the version first, the last
     * field of each struct with its documented default. */
    return q.version == PDX_QUERY_VERSION && q.author_weight < 0 &&
                   q.expand_weight < 0 && w.version == PDX_WORK_VERSION &&
                   s.version == PDX_STATS_VERSION
               ? 0
               : 1;
}
