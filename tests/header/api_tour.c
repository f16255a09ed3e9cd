/*
 * api_tour.c -- every public function of paperdex.h through the library
 * as an embedder links it (the shared library in the build tree, and the
 * installed one in tests/cli/install.sh), with what each promises
 * checked: a tour of the API that docs/example.c and docs/embed.c do not
 * take.  Only paperdex.h; no internal header.
 *
 * usage: api_tour SAMPLES_DIR WORK_DIR   (WORK_DIR is made and filled)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "paperdex.h"

static int failures, checks;

#define CHECK(cond)                                                        \
    do {                                                                   \
        checks++;                                                          \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            fprintf(stderr, "%s:%d: FAIL %s\n", __FILE__, __LINE__, #cond); \
        }                                                                  \
    } while (0)

static int count_sources(void *ctx, const pdx_source *s)
{
    (void)s;
    ++*(int *)ctx;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: api_tour SAMPLES_DIR WORK_DIR\n");
        return 2;
    }
    char papers[4096], bad[4096], db[4096], db2[4096], out[4096];
    snprintf(papers, sizeof papers, "%s/papers.jsonl", argv[1]);
    mkdir(argv[2], 0755);
    snprintf(bad, sizeof bad, "%s/bad.jsonl", argv[2]);
    snprintf(db, sizeof db, "%s/a", argv[2]);
    snprintf(db2, sizeof db2, "%s/b", argv[2]);
    snprintf(out, sizeof out, "%s/compacted", argv[2]);

    /* The process-wide handler is opt-in; installing it changes nothing
     * for a run that does not fail. */
    pdx_exit_on_fatal("api_tour", 1);

    /* The library linked is the one the header describes, and every
     * struct's init function takes its current version and refuses one it
     * does not know. */
    CHECK(strcmp(pdx_version(), PDX_VERSION) == 0);
    CHECK(pdx_vernum() == PDX_VERNUM);
    pdx_work wk;
    pdx_source sk;
    pdx_query qk;
    pdx_stats stk;
    pdx_reader_options rk;
    pdx_sync_options ok;
    pdx_sync_summary sumk;
    CHECK(pdx_work_init(&wk, PDX_WORK_VERSION) == 0 && wk.version == PDX_WORK_VERSION);
    CHECK(pdx_source_init(&sk, PDX_SOURCE_VERSION) == 0 && sk.version == PDX_SOURCE_VERSION);
    CHECK(pdx_query_init(&qk, PDX_QUERY_VERSION) == 0 && qk.version == PDX_QUERY_VERSION);
    CHECK(pdx_stats_init(&stk, PDX_STATS_VERSION) == 0 && stk.version == PDX_STATS_VERSION);
    CHECK(pdx_reader_options_init(&rk, PDX_READER_OPTIONS_VERSION) == 0 &&
          rk.format == PDX_FORMAT_AUTO);
    CHECK(pdx_sync_options_init(&ok, PDX_SYNC_OPTIONS_VERSION) == 0 && ok.version == PDX_SYNC_OPTIONS_VERSION);
    CHECK(pdx_sync_summary_init(&sumk, PDX_SYNC_SUMMARY_VERSION) == 0 &&
          sumk.version == PDX_SYNC_SUMMARY_VERSION);
    CHECK(pdx_query_init(&qk, 9999) == PDX_EVERSION);

    /* Names and codes. */
    CHECK(strlen(pdx_strerror(PDX_ENOTFOUND)) > 0);
    pdx_format f = PDX_FORMAT_AUTO;
    CHECK(pdx_format_parse("bibtex", &f) == 0 && f == PDX_FORMAT_BIBTEX);
    CHECK(strcmp(pdx_format_name(PDX_FORMAT_BIBTEX), "bibtex") == 0);
    CHECK(pdx_format_parse("no-such-format", &f) != 0);
    CHECK(strlen(pdx_skip_name(PDX_SKIP_UTF8)) > 0);
    int lo = 0, hi = 0;
    CHECK(pdx_parse_year_range("2019..2021", &lo, &hi) == 0 && lo == 2019 && hi == 2021);
    CHECK(pdx_parse_year_range("20x9", &lo, &hi) != 0);
    /* a span as people write it, with a hyphen or an en dash */
    CHECK(pdx_parse_year_range("2019-2021", &lo, &hi) == 0 && lo == 2019 && hi == 2021);
    CHECK(pdx_parse_year_range("2019\xe2\x80\x93" "2021", &lo, &hi) == 0 && lo == 2019 &&
          hi == 2021);
    CHECK(pdx_parse_year_range("2021-2019", &lo, &hi) != 0);
    CHECK(pdx_parse_year_range("2019-", &lo, &hi) != 0);
    CHECK(pdx_parse_year_range("-2019", &lo, &hi) != 0);
    /* an open range as Elasticsearch's query string writes it */
    CHECK(pdx_parse_year_range(">=2019", &lo, &hi) == 0 && lo == 2019 && hi == 0);
    CHECK(pdx_parse_year_range(">2019", &lo, &hi) == 0 && lo == 2020 && hi == 0);
    CHECK(pdx_parse_year_range("<=2021", &lo, &hi) == 0 && lo == 0 && hi == 2021);
    CHECK(pdx_parse_year_range("<2021", &lo, &hi) == 0 && lo == 0 && hi == 2020);
    CHECK(pdx_parse_year_range(">=", &lo, &hi) != 0);
    CHECK(pdx_parse_year_range("<1", &lo, &hi) != 0);
    CHECK(pdx_parse_year_range(">2019..2021", &lo, &hi) != 0);

    /* A reader: records with their lines and offsets; a bad one named. */
    FILE *bf = fopen(bad, "w");
    CHECK(bf != NULL);
    if (bf) {
        fputs("{\"id\":\"ok1\",\"title\":\"a good record\"}\n"
              "{\"id\":\"bad1\",\"title\": }\n", bf);
        fclose(bf);
    }
    pdx_reader *r = NULL;
    CHECK(pdx_reader_open(&r, bad, NULL) == 0);
    const pdx_work *w = NULL;
    CHECK(pdx_reader_next(&w, r) == 0 && strcmp(w->id, "ok1") == 0);
    CHECK(pdx_reader_line(r) == 1 && pdx_reader_offset(r) > 0);
    CHECK(pdx_reader_next(&w, r) == PDX_EINVAL);
    CHECK(pdx_reader_skip(r) == PDX_SKIP_JSON);
    CHECK(strstr(pdx_reader_errmsg(r), "bad.jsonl:2") != NULL);
    CHECK(pdx_reader_next(&w, r) == PDX_ITEROVER);
    pdx_reader_free(r);

    /* Writing: every record of the samples' papers.jsonl, one source. */
    pdx_index *ix = NULL;
    CHECK(pdx_open(&ix, db, PDX_OPEN_WRITE | PDX_OPEN_CREATE) == 0);
    CHECK(pdx_index_layout(ix) == PDX_LAYOUT_VERSION);
    r = NULL;
    CHECK(pdx_reader_open(&r, papers, NULL) == 0);
    uint64_t put = 0;
    char first_id[256] = "";
    while (pdx_reader_next(&w, r) == 0) {
        if (!first_id[0])
            snprintf(first_id, sizeof first_id, "%s", w->id);
        put += pdx_put(ix, w) == 0;
    }
    CHECK(pdx_reader_format(r) == PDX_FORMAT_AUTO ||
          pdx_reader_format(r) == PDX_FORMAT_JSONL);
    pdx_reader_free(r);
    pdx_source s = PDX_SOURCE_INIT;
    s.path = papers;
    s.size = 1;
    s.hash = 42;
    s.records = put;
    CHECK(pdx_source_set(ix, &s) == 0);
    CHECK(pdx_commit(ix) == 0);
    uint64_t works = 0;
    CHECK(pdx_count_works(&works, ix) == 0 && works > 10 && works <= put);
    pdx_source got = PDX_SOURCE_INIT;
    CHECK(pdx_source_get(&got, ix, papers) == 0 && got.hash == 42 &&
          got.records == put);
    CHECK(pdx_source_get(&got, ix, "/no/such/source") == PDX_ENOTFOUND);
    int n_sources = 0;
    CHECK(pdx_source_foreach(ix, count_sources, &n_sources) == 0 && n_sources == 1);
    pdx_stats st = PDX_STATS_INIT;
    CHECK(pdx_stats_get(&st, ix) == 0 && st.works == works && st.sources == 1);

    /* An error is kept on the handle with its code; deleting an id that
     * is not indexed is not one. */
    pdx_source nopath = PDX_SOURCE_INIT;
    CHECK(pdx_source_set(ix, &nopath) == PDX_EINVAL);
    CHECK(pdx_errcode(ix) == PDX_EINVAL && strstr(pdx_errmsg(ix), "no path"));
    CHECK(pdx_delete(ix, "no-such-id") == 0);

    /* Reading: a work by id, works like it, a search with facets, counts
     * and a suggestion. */
    pdx_results *res = NULL;
    CHECK(pdx_get(&res, ix, first_id) == 0 && pdx_results_count(res) == 1);
    pdx_results_free(res);
    res = NULL;
    CHECK(pdx_similar(&res, ix, first_id, 5) == 0 && pdx_results_count(res) >= 1);
    for (size_t i = 0; res && i < pdx_results_count(res); i++)
        CHECK(strcmp(pdx_results_hit(res, i)->work->id, first_id) != 0);
    pdx_results_free(res);
    res = NULL;
    pdx_query q = PDX_QUERY_INIT;
    q.text = "glaicer";
    q.facets = PDX_FACET_YEAR | PDX_FACET_CATEGORY;
    CHECK(pdx_search(&res, ix, &q) == 0);
    const char *sugg = pdx_results_suggestion(res);
    CHECK(sugg && strcmp(sugg, "glacier") == 0);
    pdx_results_free(res);
    res = NULL;
    q.text = "glacier";
    CHECK(pdx_search(&res, ix, &q) == 0 && pdx_results_count(res) > 0);
    /* Facets count every match: the total is exact. */
    CHECK(pdx_results_total_relation(res) == PDX_TOTAL_EQ &&
          pdx_results_total_lower(res) == pdx_results_total(res) &&
          pdx_results_total(res) == pdx_results_total_upper(res) &&
          pdx_results_total_estimate(res) == pdx_results_total(res));
    CHECK(pdx_results_facet_count(res, PDX_FACET_YEAR) > 0);
    const pdx_facet *fy = pdx_results_facet(res, PDX_FACET_YEAR, 0);
    CHECK(fy && fy->value && fy->count > 0);
    CHECK(pdx_results_facet(res, PDX_FACET_YEAR, 100000) == NULL);
    CHECK(pdx_results_note(res) == NULL); /* a short query: nothing to say */
    size_t glacier_total = pdx_results_total(res);
    pdx_results_free(res);

    /* An author filter that matches nothing gets the nearest name the
     * index holds; one that matches, none; and a hit shows whom it
     * matched. */
    res = NULL;
    pdx_query qa = PDX_QUERY_INIT;
    const char *misspelt[] = {"Jan van der Bergg"};
    qa.authors = misspelt;
    qa.n_authors = 1;
    CHECK(pdx_search(&res, ix, &qa) == 0 && pdx_results_count(res) == 0);
    const char *as = pdx_results_author_suggestion(res, 0);
    CHECK(as && strstr(as, "van der Berg") != NULL);
    CHECK(pdx_results_author_suggestion(res, 1) == NULL);
    pdx_results_free(res);
    res = NULL;
    const char *right[] = {"J. van der Berg"};
    qa.authors = right;
    CHECK(pdx_search(&res, ix, &qa) == 0 && pdx_results_count(res) > 0);
    CHECK(pdx_results_author_suggestion(res, 0) == NULL);
    int marked = 0;
    for (size_t i = 0; res && i < pdx_results_count(res); i++) {
        const pdx_hit *h = pdx_results_hit(res, i);
        for (size_t k = 0; h->author_matched && k < h->work->n_authors; k++)
            marked += h->author_matched[k] &&
                      strstr(h->work->authors[k], "Berg") != NULL;
    }
    CHECK(marked == (int)pdx_results_count(res));
    pdx_results_free(res);

    /* Deleting, compacting, and several indexes as one. */
    CHECK(pdx_delete(ix, first_id) == 0 && pdx_commit(ix) == 0);
    uint64_t after = 0;
    CHECK(pdx_count_works(&after, ix) == 0 && after == works - 1);
    CHECK(pdx_compact(ix, out) == 0);
    pdx_close(ix);
    pdx_index *cx = NULL;
    uint64_t compacted = 0;
    CHECK(pdx_open(&cx, out, PDX_OPEN_READ) == 0 &&
          pdx_count_works(&compacted, cx) == 0 && compacted == after);
    pdx_close(cx);
    pdx_index *empty = NULL;
    CHECK(pdx_open(&empty, db2, PDX_OPEN_WRITE | PDX_OPEN_CREATE) == 0);
    pdx_close(empty);
    const char *both[] = {out, db2};
    pdx_index *sh = NULL;
    uint64_t shard_works = 0;
    CHECK(pdx_open_shards(&sh, both, 2) == 0 &&
          pdx_count_works(&shard_works, sh) == 0 && shard_works == after);
    res = NULL;
    CHECK(pdx_search(&res, sh, &q) == 0 && pdx_results_total(res) <= glacier_total);
    pdx_results_free(res);
    pdx_close(sh);

    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
