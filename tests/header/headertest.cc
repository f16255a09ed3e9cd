/* Compiles the public header alone, as strict C (-std=c99 -pedantic
 * -Werror) and, from headertest.cc, as C++. */
#include "paperdex.h"

int main(void)
{
    pdx_query q = PDX_QUERY_INIT;
    pdx_work w = PDX_WORK_INIT;
    pdx_stats s = PDX_STATS_INIT;
    return (int)(q.version + w.version + s.version) == 3 ? 0 : 1;
}
