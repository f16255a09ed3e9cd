/*
 * version.c -- run-time version and error-code names.  PDX_VERSION in the
 * header is what a program was compiled against; pdx_version() is what it
 * runs with.  A mismatch is the caller's to detect, as with zlib.
 */
#include <stddef.h>

#include "paperdex.h"

const char *pdx_version(void) { return PDX_VERSION; }

unsigned pdx_vernum(void) { return PDX_VERNUM; }

const char *pdx_strerror(int code)
{
    switch (code) {
    case PDX_OK: return "ok";
    case PDX_ERROR: return "error";
    case PDX_ENOTFOUND: return "not found";
    case PDX_ELOCKED: return "locked";
    case PDX_ECORRUPT: return "corrupt index";
    case PDX_EQUERY: return "query syntax error";
    case PDX_EINVAL: return "invalid argument";
    case PDX_ENOMEM: return "out of memory";
    case PDX_EVERSION: return "version mismatch";
    case PDX_EIO: return "I/O error";
    case PDX_ENOTINDEX: return "not a paperdex index";
    case PDX_ITEROVER: return "end of iteration";
    default: return "unknown error";
    }
}

/* ------------------------------------------------------------ initialisers
 * What the PDX_*_INIT macros give, for callers that cannot use them (C++
 * before C++20, other languages).  Each refuses a version it does not
 * know with PDX_EVERSION and leaves the struct untouched. */

#include <string.h>

int pdx_work_init(pdx_work *w, unsigned int version)
{
    if (!w)
        return PDX_EINVAL;
    if (version < 1 || version > PDX_WORK_VERSION)
        return PDX_EVERSION;
    /* An older version's struct is shorter: only its part is written. */
    memset(w, 0, version == 1   ? PDX_WORK_V1_SIZE
                 : version == 2 ? PDX_WORK_V2_SIZE
                                : sizeof *w);
    w->version = version;
    return 0;
}

int pdx_source_init(pdx_source *s, unsigned int version)
{
    if (!s)
        return PDX_EINVAL;
    if (version != PDX_SOURCE_VERSION)
        return PDX_EVERSION;
    memset(s, 0, sizeof *s);
    s->version = version;
    return 0;
}

int pdx_stats_init(pdx_stats *s, unsigned int version)
{
    if (!s)
        return PDX_EINVAL;
    if (version != PDX_STATS_VERSION)
        return PDX_EVERSION;
    memset(s, 0, sizeof *s);
    s->version = version;
    return 0;
}

int pdx_reader_options_init(pdx_reader_options *o, unsigned int version)
{
    if (!o)
        return PDX_EINVAL;
    if (version != PDX_READER_OPTIONS_VERSION)
        return PDX_EVERSION;
    memset(o, 0, sizeof *o);
    o->version = version;
    o->format = PDX_FORMAT_AUTO;
    return 0;
}

int pdx_query_init(pdx_query *q, unsigned int version)
{
    if (!q)
        return PDX_EINVAL;
    if (version < 1 || version > PDX_QUERY_VERSION)
        return PDX_EVERSION;
    /* An older struct is shorter: only its part is written. */
    size_t n = version == 1   ? offsetof(pdx_query, lenient)
               : version == 2 ? offsetof(pdx_query, time_limit)
               : version == 3 ? offsetof(pdx_query, subjects)
               : version == 4 ? offsetof(pdx_query, syntax)
               : version == 5 ? offsetof(pdx_query, rank)
               : version == 6 ? offsetof(pdx_query, count_limit)
                              : sizeof *q;
    memset(q, 0, n);
    q->version = version;
    q->k1 = -1.0;
    q->b = -1.0;
    q->limit = PDX_DEFAULT_LIMIT;
    q->sort = PDX_SORT_AUTO;
    q->snippet_bytes = PDX_DEFAULT_SNIPPET;
    q->facet_limit = PDX_DEFAULT_FACET_LIMIT;
    if (version >= 2) {
        q->expand_weight = -1.0;
        q->title_weight = -1.0;
        q->author_weight = -1.0;
    }
    if (version >= 6)
        q->proximity_weight = -1.0;
    return 0;
}
