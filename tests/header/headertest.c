/* The public header alone, as strict C (-std=c99 -pedantic -Werror);
 * headertest.cc does the same as C++.
 *
 * It also pins the ABI a program built against this header relies on:
 * the offsets of every field of the structs the library hands out or
 * reads by version (pdx_hit, pdx_query's version-1 part, which
 * pdx_search still accepts, pdx_work's, which pdx_put still
 * accepts, and pdx_sync's two structs'), checked at compile time against frozen
 * copies of their first published layout.  A field inserted in the
 * middle, or one that changes size, fails the build here; a field added
 * at the end does not.  And the version the build system gives the
 * project (CMake's project(VERSION)) must be the header's. */
#include <stddef.h>
#include <string.h>

#include "paperdex.h"

/* Compile-time assertion that C99 -pedantic accepts. */
#define ABI_CHECK(name, cond) typedef char abi_##name[(cond) ? 1 : -1]

/* pdx_hit as first published with the work behind a pointer. */
struct frozen_hit {
    const void *work;
    double score;
    size_t rank;
    const char *json;
    const char *snippet;
    const size_t *highlights;
    size_t n_highlights;
    const char *explain;
};
#define SAME_AT(T, F, R, G) ABI_CHECK(T##_##F, offsetof(T, F) == offsetof(R, G))
SAME_AT(pdx_hit, work, struct frozen_hit, work);
SAME_AT(pdx_hit, score, struct frozen_hit, score);
SAME_AT(pdx_hit, rank, struct frozen_hit, rank);
SAME_AT(pdx_hit, json, struct frozen_hit, json);
SAME_AT(pdx_hit, snippet, struct frozen_hit, snippet);
SAME_AT(pdx_hit, highlights, struct frozen_hit, highlights);
SAME_AT(pdx_hit, n_highlights, struct frozen_hit, n_highlights);
SAME_AT(pdx_hit, explain, struct frozen_hit, explain);

/* pdx_query version 1: everything before `lenient`. */
struct frozen_query_v1 {
    unsigned int version;
    const char *text;
    int year_min, year_max;
    const char *const *categories;
    size_t n_categories;
    const char *const *authors;
    size_t n_authors;
    double k1, b;
    size_t offset, limit;
    pdx_sort sort;
    int exact_total, all;
    size_t snippet_bytes;
    int explain, no_suggest;
    unsigned facets;
    size_t facet_limit;
};
SAME_AT(pdx_query, text, struct frozen_query_v1, text);
SAME_AT(pdx_query, year_max, struct frozen_query_v1, year_max);
SAME_AT(pdx_query, n_authors, struct frozen_query_v1, n_authors);
SAME_AT(pdx_query, b, struct frozen_query_v1, b);
SAME_AT(pdx_query, limit, struct frozen_query_v1, limit);
SAME_AT(pdx_query, sort, struct frozen_query_v1, sort);
SAME_AT(pdx_query, snippet_bytes, struct frozen_query_v1, snippet_bytes);
SAME_AT(pdx_query, facets, struct frozen_query_v1, facets);
SAME_AT(pdx_query, facet_limit, struct frozen_query_v1, facet_limit);
ABI_CHECK(query_v1_end, offsetof(pdx_query, lenient) >=
                            sizeof(struct frozen_query_v1));

/* pdx_work version 1: everything before `pmid`, which pdx_put still
 * accepts (reading PDX_WORK_V1_SIZE bytes of it). */
struct frozen_work_v1 {
    unsigned int version;
    const char *id, *title;
    int title_derived;
    const char *abstract;
    const char *const *authors;
    size_t n_authors;
    int authors_truncated;
    const char *const *categories;
    size_t n_categories;
    int year;
    const char *date, *doi, *arxiv_id, *venue, *comments, *affiliation;
    int code_available;
    const char *source;
    uint64_t source_line;
};
SAME_AT(pdx_work, id, struct frozen_work_v1, id);
SAME_AT(pdx_work, abstract, struct frozen_work_v1, abstract);
SAME_AT(pdx_work, n_authors, struct frozen_work_v1, n_authors);
SAME_AT(pdx_work, n_categories, struct frozen_work_v1, n_categories);
SAME_AT(pdx_work, year, struct frozen_work_v1, year);
SAME_AT(pdx_work, affiliation, struct frozen_work_v1, affiliation);
SAME_AT(pdx_work, source, struct frozen_work_v1, source);
SAME_AT(pdx_work, source_line, struct frozen_work_v1, source_line);
ABI_CHECK(work_v1_end, PDX_WORK_V1_SIZE == sizeof(struct frozen_work_v1));

/* pdx_sync_options and pdx_sync_summary version 1: everything before
 * `compact` and `compact_before`, which pdx_sync still accepts (reading
 * and writing no further). */
struct frozen_sync_options_v1 {
    unsigned int version;
    const char *const *include;
    size_t n_include;
    const char *const *exclude;
    size_t n_exclude;
    pdx_format format;
    const char *page_date;
    size_t batch;
    int full, in_place, dry_run;
    unsigned jobs;
    double wait;
    pdx_sync_fn progress;
    void *progress_ctx;
};
SAME_AT(pdx_sync_options, format, struct frozen_sync_options_v1, format);
SAME_AT(pdx_sync_options, batch, struct frozen_sync_options_v1, batch);
SAME_AT(pdx_sync_options, jobs, struct frozen_sync_options_v1, jobs);
SAME_AT(pdx_sync_options, wait, struct frozen_sync_options_v1, wait);
SAME_AT(pdx_sync_options, progress_ctx, struct frozen_sync_options_v1, progress_ctx);
ABI_CHECK(sync_options_v1_end, offsetof(pdx_sync_options, compact) ==
                                   sizeof(struct frozen_sync_options_v1));
struct frozen_sync_summary_v1 {
    unsigned int version;
    int started;
    uint64_t sources_added, sources_updated, sources_removed, sources_unchanged;
    uint64_t records_read, records_indexed;
    uint64_t records_added, records_updated, records_removed, records_unchanged;
    uint64_t records_skipped;
    uint64_t skipped[16];
    uint64_t invalid;
    unsigned sources_failed;
    int kept_old, upgraded_from;
    size_t regrouped;
    double seconds;
    char message[1024];
};
SAME_AT(pdx_sync_summary, records_read, struct frozen_sync_summary_v1, records_read);
SAME_AT(pdx_sync_summary, skipped, struct frozen_sync_summary_v1, skipped);
SAME_AT(pdx_sync_summary, kept_old, struct frozen_sync_summary_v1, kept_old);
SAME_AT(pdx_sync_summary, seconds, struct frozen_sync_summary_v1, seconds);
SAME_AT(pdx_sync_summary, message, struct frozen_sync_summary_v1, message);
ABI_CHECK(sync_summary_v1_end, offsetof(pdx_sync_summary, compact_before) ==
                                   sizeof(struct frozen_sync_summary_v1));

#ifndef PDX_EXPECT_VERSION
#error "the build gives PDX_EXPECT_VERSION (CMake's project version)"
#endif

int main(void)
{
    pdx_query q = PDX_QUERY_INIT;
    pdx_work w = PDX_WORK_INIT;
    pdx_stats s = PDX_STATS_INIT;
    pdx_source src = PDX_SOURCE_INIT;
    pdx_reader_options ro = PDX_READER_OPTIONS_INIT;
    unsigned maj = 0, min = 0, pat = 0;
    const char *v = PDX_EXPECT_VERSION;
    /* "M.m.p" by hand: no sscanf needed for three small numbers. */
    unsigned *part[3] = {&maj, &min, &pat};
    for (int i = 0; i < 3 && *v; i++) {
        while (*v >= '0' && *v <= '9')
            *part[i] = *part[i] * 10 + (unsigned)(*v++ - '0');
        if (*v == '.')
            v++;
    }
    int ok = 1;
    /* The designated initialisers: the version first, the defaults the
     * header documents. */
    ok &= q.version == PDX_QUERY_VERSION && q.author_weight < 0 &&
          q.expand_weight < 0 && q.limit == PDX_DEFAULT_LIMIT &&
          q.snippet_bytes == PDX_DEFAULT_SNIPPET && q.text == NULL;
    ok &= w.version == PDX_WORK_VERSION && w.id == NULL;
    ok &= s.version == PDX_STATS_VERSION;
    ok &= src.version == PDX_SOURCE_VERSION && src.path == NULL;
    ok &= ro.version == PDX_READER_OPTIONS_VERSION &&
          ro.format == PDX_FORMAT_AUTO;
    /* The header's version is the build's. */
    ok &= strcmp(PDX_VERSION, PDX_EXPECT_VERSION) == 0;
    ok &= PDX_VERNUM == ((maj << 16) | (min << 8) | pat);
    return ok ? 0 : 1;
}
