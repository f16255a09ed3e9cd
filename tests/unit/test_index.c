/*
 * test_index.c -- the public library: open modes and their errors, put /
 * replace / delete / commit, filters, BM25 parameters, stable paging, the
 * term-length guard, a locked and a damaged index, and a reader that
 * outlives a writer's commits.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <math.h>

#include "../../common/paperdex.h"
#include "check.h"

static char tmpdir[] = "/tmp/pdx-test-index-XXXXXX";

static const char *path_of(const char *name)
{
    static char p[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", tmpdir, name);
    return p[k];
}

static int put(pdx_index *ix, const char *id, const char *title,
               const char *abstract, const char *authors_csv,
               const char *cats_csv, int year)
{
    const char *authors[8], *cats[8];
    char abuf[512], cbuf[256];
    size_t na = 0, nc = 0;
    snprintf(abuf, sizeof abuf, "%s", authors_csv ? authors_csv : "");
    snprintf(cbuf, sizeof cbuf, "%s", cats_csv ? cats_csv : "");
    for (char *s = strtok(abuf, "|"); s && na < 8; s = strtok(NULL, "|"))
        authors[na++] = s;
    for (char *s = strtok(cbuf, " "); s && nc < 8; s = strtok(NULL, " "))
        cats[nc++] = s;
    pdx_work w = PDX_WORK_INIT;
    w.id = id;
    w.title = title;
    w.abstract = abstract;
    w.authors = authors;
    w.n_authors = na;
    w.categories = cats;
    w.n_categories = nc;
    w.year = year;
    return pdx_put(ix, &w);
}

typedef struct filt {
    const char *text;
    int ymin, ymax;
    const char *cat, *author, *author2;
} filt;

/* Run a search; return the exact number of matches, and the ids of the
 * first hits joined with spaces in `ids`. */
static long count(pdx_index *ix, filt f, char *ids, size_t idlen)
{
    pdx_query q = PDX_QUERY_INIT;
    const char *cats[1] = {f.cat}, *au[2] = {f.author, f.author2};
    q.text = f.text;
    q.year_min = f.ymin;
    q.year_max = f.ymax;
    q.categories = cats;
    q.n_categories = f.cat ? 1 : 0;
    q.authors = au;
    q.n_authors = f.author2 ? 2 : f.author ? 1 : 0;
    q.exact_total = 1;
    q.limit = 50;
    pdx_results *r = NULL;
    int rc = pdx_search(&r, ix, &q);
    if (rc) {
        fprintf(stderr, "search failed: %s\n", pdx_errmsg(ix));
        return -1;
    }
    if (ids) {
        ids[0] = '\0';
        for (size_t i = 0; i < pdx_results_count(r); i++) {
            size_t n = strlen(ids);
            snprintf(ids + n, idlen - n, "%s%s", i ? " " : "",
                     pdx_results_hit(r, i)->work->id);
        }
    }
    long total = (long)pdx_results_total_lower(r);
    CHECK_INT(pdx_results_total_lower(r), pdx_results_total_upper(r));
    pdx_results_free(r);
    return total;
}

static void build_fixture(pdx_index *ix)
{
    CHECK_INT(put(ix, "w1", "Graph neural networks for molecules",
                  "We predict molecular properties with message passing.",
                  "Zhihua Wu|Ming Li", "cs.LG q-bio.BM", 2019), 0);
    CHECK_INT(put(ix, "w2", "Glacier mapping from satellite images",
                  "Segmentation of glaciers with convolutional networks.",
                  "Wu, Zhihua|Anna Berg", "cs.CV physics.geo-ph", 2020), 0);
    CHECK_INT(put(ix, "w3", "A survey of protein folding",
                  "Protein structure prediction reviewed.", "Z. Wu",
                  "q-bio.BM", 2021), 0);
    CHECK_INT(put(ix, "w4", "Bal\xc3\xa1zs and the network",
                  "Networks of networks.", "Bal\xc3\xa1zs Szegedy|Zoe Wu",
                  "math.CO", 2005), 0);
    CHECK_INT(put(ix, "w5", "Untitled years", "An abstract about networks.",
                  "Zhang Wu", "hep-th", 0), 0);
}

static void test_lifecycle(void)
{
    pdx_index *ix = NULL;
    char ids[512];
    /* Reading a missing index. */
    CHECK_INT(pdx_open(&ix, path_of("missing"), PDX_OPEN_READ), PDX_ENOTFOUND);
    CHECK(strstr(pdx_errmsg(ix), "missing") != NULL);
    CHECK_INT(pdx_errcode(ix), PDX_ENOTFOUND);
    pdx_close(ix);
    /* Bad flags. */
    CHECK_INT(pdx_open(&ix, path_of("x"), 0x80), PDX_EINVAL);
    pdx_close(ix);

    CHECK_INT(pdx_open(&ix, path_of("main"), PDX_OPEN_WRITE | PDX_OPEN_CREATE), 0);
    build_fixture(ix);
    CHECK_INT(pdx_commit(ix), 0);
    CHECK_INT(count(ix, (filt){"networks", 0, 0, 0, 0, 0}, ids, sizeof ids), 4);
    /* The title is weighted over the abstract: w4 has "network" in its
     * title, w2 and w5 only in the abstract. */
    CHECK_INT(count(ix, (filt){"network", 0, 0, 0, 0, 0}, ids, sizeof ids), 4);
    CHECK(!strncmp(ids, "w4 ", 3) || !strncmp(ids, "w1 ", 3));
    /* Stemming agrees between index and query: "molecule" finds
     * "molecules", "fold" finds "folding". */
    CHECK_INT(count(ix, (filt){"molecule", 0, 0, 0, 0, 0}, ids, sizeof ids), 1);
    CHECK_STR(ids, "w1");
    CHECK_INT(count(ix, (filt){"fold", 0, 0, 0, 0, 0}, ids, sizeof ids), 1);
    /* Phrases use positions and do not cross fields. */
    CHECK_INT(count(ix, (filt){"\"satellite images\"", 0, 0, 0, 0, 0}, ids,
                    sizeof ids), 1);
    CHECK_INT(count(ix, (filt){"\"images segmentation\"", 0, 0, 0, 0, 0},
                    ids, sizeof ids), 0);
    /* Field prefixes. */
    CHECK_INT(count(ix, (filt){"title:protein", 0, 0, 0, 0, 0}, ids, sizeof ids), 1);
    CHECK_INT(count(ix, (filt){"abstract:survey", 0, 0, 0, 0, 0}, ids, sizeof ids), 0);
    CHECK_INT(count(ix, (filt){"author:szegedy", 0, 0, 0, 0, 0}, ids, sizeof ids), 1);

    /* Replace by id: still 5 works, new title searchable, old one gone. */
    CHECK_INT(put(ix, "w3", "Protein design revisited", "A new abstract.",
                  "Z. Wu", "q-bio.BM", 2021), 0);
    CHECK_INT(pdx_commit(ix), 0);
    pdx_stats st = PDX_STATS_INIT;
    CHECK_INT(pdx_stats_get(&st, ix), 0);
    CHECK_INT(st.works, 5);
    CHECK(st.terms > 20);
    CHECK(st.bytes > 0);
    CHECK(st.last_updated > 1600000000);
    CHECK_INT(st.layout, PDX_LAYOUT_VERSION);
    CHECK_INT(pdx_index_layout(ix), PDX_LAYOUT_VERSION);
    CHECK_INT(count(ix, (filt){"survey", 0, 0, 0, 0, 0}, ids, sizeof ids), 0);
    CHECK_INT(count(ix, (filt){"design", 0, 0, 0, 0, 0}, ids, sizeof ids), 1);
    /* Delete; deleting an unknown id is fine. */
    CHECK_INT(pdx_delete(ix, "w5"), 0);
    CHECK_INT(pdx_delete(ix, "no-such-id"), 0);
    CHECK_INT(pdx_commit(ix), 0);
    st = (pdx_stats)PDX_STATS_INIT;
    CHECK_INT(pdx_stats_get(&st, ix), 0);
    CHECK_INT(st.works, 4);
    /* The constant-time count agrees, and says no to a missing out. */
    uint64_t works = 0;
    CHECK_INT(pdx_count_works(&works, ix), 0);
    CHECK_INT(works, 4);
    CHECK_INT(pdx_count_works(NULL, ix), PDX_EINVAL);
    CHECK_INT(put(ix, "w5", "Untitled years", "An abstract about networks.",
                  "Zhang Wu", "hep-th", 0), 0);
    CHECK_INT(pdx_commit(ix), 0);

    /* A bad work is refused and the rest of the batch survives. */
    pdx_work bad = PDX_WORK_INIT;
    bad.id = "bad";
    CHECK_INT(pdx_put(ix, &bad), PDX_EINVAL); /* no title or abstract */
    bad.title = "ok \xff";
    CHECK_INT(pdx_put(ix, &bad), PDX_EINVAL); /* invalid UTF-8 */
    CHECK(strstr(pdx_errmsg(ix), "UTF-8") != NULL);
    /* An unknown struct version is refused as such, on a work that is
     * otherwise valid (so nothing else can be what refuses it). */
    pdx_work later = PDX_WORK_INIT;
    later.id = "later";
    later.title = "A valid title";
    later.version = 99;
    CHECK_INT(pdx_put(ix, &later), PDX_EVERSION);
    CHECK(strstr(pdx_errmsg(ix), "version 99") != NULL);
    later.version = PDX_WORK_VERSION;
    CHECK_INT(pdx_put(ix, &later), 0);
    CHECK_INT(pdx_delete(ix, "later"), 0);
    pdx_source src = PDX_SOURCE_INIT;
    src.path = "some/file.jsonl";
    src.version = 7;
    CHECK_INT(pdx_source_set(ix, &src), PDX_EVERSION);
    /* The init functions give what the macros give. */
    pdx_query qa = PDX_QUERY_INIT, qb;
    memset(&qb, 0x5a, sizeof qb);
    CHECK_INT(pdx_query_init(&qb, PDX_QUERY_VERSION), 0);
    CHECK(qb.k1 == qa.k1 && qb.b == qa.b && qb.limit == qa.limit &&
          qb.snippet_bytes == qa.snippet_bytes &&
          qb.facet_limit == qa.facet_limit && qb.text == NULL &&
          qb.expand_weight == qa.expand_weight &&
          qb.title_weight == qa.title_weight &&
          qb.author_weight == qa.author_weight && qb.expand_docs == 0);
    CHECK_INT(pdx_query_init(&qb, PDX_QUERY_VERSION + 1), PDX_EVERSION);
    CHECK(qb.time_limit == 0 && qa.time_limit == 0);
    pdx_work wa;
    CHECK_INT(pdx_work_init(&wa, PDX_WORK_VERSION), 0);
    CHECK(wa.version == PDX_WORK_VERSION && wa.id == NULL && wa.year == 0);
    CHECK_INT(pdx_work_init(&wa, PDX_WORK_VERSION + 1), PDX_EVERSION);
    /* A program built against version 1: its struct ends before pmid.
     * Init writes no further, and pdx_put reads no further (the bytes
     * past it are garbage here; read as pointers they would crash). */
    pdx_work v1[2];
    memset(v1, 0x5a, sizeof v1);
    CHECK_INT(pdx_work_init(&v1[0], 1), 0);
    CHECK(((unsigned char *)&v1[0])[PDX_WORK_V1_SIZE] == 0x5a);
    v1[0].id = "built-against-v1";
    v1[0].title = "A work from an older program";
    CHECK_INT(pdx_put(ix, &v1[0]), 0);
    pdx_results *got = NULL;
    CHECK_INT(pdx_get(&got, ix, "built-against-v1"), 0);
    const pdx_hit *gh = got ? pdx_results_hit(got, 0) : NULL;
    CHECK(gh && gh->work->pmid == NULL && gh->work->n_subjects == 0);
    pdx_results_free(got);
    CHECK_INT(pdx_delete(ix, "built-against-v1"), 0);
    pdx_stats sa;
    CHECK_INT(pdx_stats_init(&sa, PDX_STATS_VERSION), 0);
    CHECK_INT(pdx_stats_init(&sa, 0), PDX_EVERSION);
    pdx_reader_options ra;
    CHECK_INT(pdx_reader_options_init(&ra, PDX_READER_OPTIONS_VERSION), 0);
    CHECK(ra.format == PDX_FORMAT_AUTO && ra.page_date == NULL);
    CHECK_INT(pdx_source_init(&src, 9), PDX_EVERSION);
    pdx_close(ix);
}

static void test_filters(void)
{
    pdx_index *ix = NULL;
    char ids[512];
    CHECK_INT(pdx_open(&ix, path_of("main"), PDX_OPEN_READ), 0);
    /* Years: inclusive ranges, open ends; unknown years never pass. */
    CHECK_INT(count(ix, (filt){"", 2019, 2020, 0, 0, 0}, ids, sizeof ids), 2);
    CHECK_INT(count(ix, (filt){"", 2020, 0, 0, 0, 0}, ids, sizeof ids), 2);
    CHECK_INT(count(ix, (filt){"", 0, 2019, 0, 0, 0}, ids, sizeof ids), 2);
    CHECK_INT(count(ix, (filt){"", 2021, 2021, 0, 0, 0}, ids, sizeof ids), 1);
    /* An empty text lists the filtered works newest first, ties by id. */
    CHECK_INT(count(ix, (filt){"", 1000, 0, 0, 0, 0}, ids, sizeof ids), 4);
    CHECK_STR(ids, "w3 w2 w1 w4");
    /* Categories: exact, archive, bare cs code, case-insensitive. */
    CHECK_INT(count(ix, (filt){"", 0, 0, "cs.CV", 0, 0}, ids, sizeof ids), 1);
    CHECK_INT(count(ix, (filt){"", 0, 0, "cs", 0, 0}, ids, sizeof ids), 2);
    CHECK_INT(count(ix, (filt){"", 0, 0, "CV", 0, 0}, ids, sizeof ids), 1);
    CHECK_INT(count(ix, (filt){"", 0, 0, "q-bio", 0, 0}, ids, sizeof ids), 2);
    CHECK_INT(count(ix, (filt){"", 0, 0, "Q-BIO.bm", 0, 0}, ids, sizeof ids), 2);
    CHECK_INT(count(ix, (filt){"", 0, 0, "hep-th", 0, 0}, ids, sizeof ids), 1);
    CHECK_INT(count(ix, (filt){"", 0, 0, "c", 0, 0}, ids, sizeof ids), 0);
    /* Authors: order, case, accents and initials do not matter. */
    CHECK_INT(count(ix, (filt){"", 0, 0, 0, "Zhihua Wu", 0}, ids, sizeof ids), 3);
    CHECK_INT(count(ix, (filt){"", 0, 0, 0, "wu, zhihua", 0}, ids, sizeof ids), 3);
    /* An initial matches every given name with it: Zhihua, Zoe, Zhang. */
    CHECK_INT(count(ix, (filt){"", 0, 0, 0, "Z. Wu", 0}, ids, sizeof ids), 5);
    CHECK_INT(count(ix, (filt){"", 0, 0, 0, "Wu, Z.", 0}, ids, sizeof ids), 5);
    CHECK_INT(count(ix, (filt){"", 0, 0, 0, "Zoe Wu", 0}, ids, sizeof ids), 2);
    CHECK_INT(count(ix, (filt){"", 0, 0, 0, "Wu", 0}, ids, sizeof ids), 5);
    CHECK_INT(count(ix, (filt){"", 0, 0, 0, "balazs szegedy", 0}, ids, sizeof ids), 1);
    CHECK_INT(count(ix, (filt){"", 0, 0, 0, "BAL\xc3\x81ZS SZEGEDY", 0}, ids, sizeof ids), 1);
    CHECK_INT(count(ix, (filt){"", 0, 0, 0, "Ming Li", "Anna Berg"}, ids, sizeof ids), 2);
    /* Different filters AND together, with text too. */
    CHECK_INT(count(ix, (filt){"", 2020, 0, "cs", "Z. Wu", 0}, ids, sizeof ids), 1);
    CHECK_STR(ids, "w2");
    CHECK_INT(count(ix, (filt){"networks", 0, 2019, 0, "Wu", 0}, ids, sizeof ids), 2);
    CHECK_INT(count(ix, (filt){"networks", 0, 0, "math", 0, 0}, ids, sizeof ids), 1);
    pdx_close(ix);
}

/* Repeated filter values: alternatives by default, each must hold with
 * filters_all (as the CLI and the server set it, so that a facet click
 * narrows); '|' lists alternatives in one value either way; a version-7
 * struct (before filters_all) keeps the alternatives. */
static long count_values(pdx_index *ix, const char *const *cats, size_t nc,
                         const char *const *authors, size_t na, int all,
                         unsigned version)
{
    pdx_query q = PDX_QUERY_INIT;
    q.categories = cats;
    q.n_categories = nc;
    q.authors = authors;
    q.n_authors = na;
    q.filters_all = all;
    q.exact_total = 1;
    q.version = version;
    pdx_results *r = NULL;
    if (pdx_search(&r, ix, &q)) {
        fprintf(stderr, "search failed: %s\n", pdx_errmsg(ix));
        return -1;
    }
    long n = (long)pdx_results_total(r);
    pdx_results_free(r);
    return n;
}

static void test_filters_all(void)
{
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path_of("main"), PDX_OPEN_READ), 0);
    const char *two[] = {"cs.LG", "q-bio"}, *alts[] = {"cs.CV|cs.LG", "q-bio"},
               *one_alt[] = {"cs.CV|q-bio"}, *empty_alt[] = {"cs.CV|"};
    const char *names[] = {"Ming Li", "Anna Berg"},
               *name_alts[] = {"Ming Li|Anna Berg"};
    const unsigned v = PDX_QUERY_VERSION;
    CHECK_INT(count_values(ix, two, 2, NULL, 0, 0, v), 2);   /* w1 w3 */
    CHECK_INT(count_values(ix, two, 2, NULL, 0, 1, v), 1);   /* w1 */
    CHECK_INT(count_values(ix, alts, 2, NULL, 0, 1, v), 1);  /* w1 */
    CHECK_INT(count_values(ix, one_alt, 1, NULL, 0, 1, v), 3); /* w1 w2 w3 */
    CHECK_INT(count_values(ix, two, 2, NULL, 0, 1, 7), 2);   /* as before */
    CHECK_INT(count_values(ix, NULL, 0, names, 2, 0, v), 2);
    CHECK_INT(count_values(ix, NULL, 0, names, 2, 1, v), 0);
    CHECK_INT(count_values(ix, NULL, 0, name_alts, 1, 1, v), 2);
    pdx_results *r = NULL;
    pdx_query q = PDX_QUERY_INIT;
    q.categories = empty_alt;
    q.n_categories = 1;
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EINVAL);
    CHECK(strstr(pdx_errmsg(ix), "empty category filter") != NULL);
    pdx_close(ix);
}

static void test_query_errors_and_paging(void)
{
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path_of("main"), PDX_OPEN_READ), 0);
    pdx_results *r = NULL;
    pdx_query q = PDX_QUERY_INIT;
    q.text = "   ";
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EINVAL); /* empty, no filter */
    CHECK(strstr(pdx_errmsg(ix), "empty query") != NULL);
    q.text = "(networks";
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EQUERY);
    CHECK(strstr(pdx_errmsg(ix), "position 1") != NULL);
    q.text = "networks AND";
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EQUERY);
    q.text = "bad \xc3";
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EQUERY);
    q.text = "x";
    q.b = 1.5;
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EINVAL);
    q.b = -1;
    q.limit = PDX_MAX_LIMIT + 1;
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EINVAL);
    q.limit = 10;
    q.version = 42;
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EVERSION);
    CHECK(r == NULL);

    /* A version 1 caller: the fields added in version 2 are not read,
     * even when what lies there would be refused (or would parse the
     * unbalanced query leniently). */
    q = (pdx_query)PDX_QUERY_INIT;
    q.version = 1;
    q.text = "networks";
    q.expand_docs = 100000;
    q.title_weight = 1e9;
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    CHECK(r != NULL && pdx_results_count(r) > 0);
    pdx_results_free(r);
    r = NULL;
    q.text = "(networks";
    q.lenient = 1;
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EQUERY);
    q.version = PDX_QUERY_VERSION;
    q.expand_docs = 0;
    q.title_weight = -1;
    CHECK_INT(pdx_search(&r, ix, &q), 0); /* lenient now read */
    pdx_results_free(r);
    r = NULL;
    /* A version 2 caller: time_limit is not read. */
    q = (pdx_query)PDX_QUERY_INIT;
    q.version = 2;
    q.text = "networks";
    q.time_limit = -7;
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    pdx_results_free(r);
    r = NULL;
    q.version = PDX_QUERY_VERSION;
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EINVAL); /* now it is */
    CHECK(strstr(pdx_errmsg(ix), "time limit") != NULL);
    q.time_limit = 2.5; /* a budget the match does not need */
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    CHECK(pdx_results_count(r) > 0);
    pdx_results_free(r);
    r = NULL;
    char longq[PDX_MAX_QUERY_BYTES + 2];
    memset(longq, 'a', sizeof longq - 1);
    longq[sizeof longq - 1] = '\0';
    q = (pdx_query)PDX_QUERY_INIT;
    q.text = longq;
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EINVAL);

    /* Paging is stable: pages of one hit concatenate to the full list,
     * also among equal scores (ties by id). */
    q = (pdx_query)PDX_QUERY_INIT;
    q.text = "wu";
    q.limit = 10;
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    size_t n = pdx_results_count(r);
    CHECK_INT(n, 5);
    for (size_t i = 0; i < n; i++) {
        pdx_results *p = NULL;
        pdx_query q1 = q;
        q1.offset = i;
        q1.limit = 1;
        CHECK_INT(pdx_search(&p, ix, &q1), 0);
        CHECK_INT(pdx_results_count(p), 1);
        if (pdx_results_count(p) == 1) {
            CHECK_STR(pdx_results_hit(p, 0)->work->id,
                      pdx_results_hit(r, i)->work->id);
            CHECK_INT(pdx_results_hit(p, 0)->rank, i);
        }
        pdx_results_free(p);
    }
    for (size_t i = 1; i < n; i++) {
        const pdx_hit *a = pdx_results_hit(r, i - 1), *b = pdx_results_hit(r, i);
        CHECK(a->score > b->score ||
              (a->score == b->score && strcmp(a->work->id, b->work->id) < 0));
    }
    CHECK(pdx_results_hit(r, n) == NULL);
    /* Results outlive the index handle. */
    pdx_close(ix);
    CHECK(pdx_results_hit(r, 0)->json[0] == '{');
    pdx_results_free(r);

    /* k1 and b change scores: b=0 ignores length. */
    CHECK_INT(pdx_open(&ix, path_of("main"), PDX_OPEN_READ), 0);
    double s[2];
    for (int k = 0; k < 2; k++) {
        q = (pdx_query)PDX_QUERY_INIT;
        q.text = "networks";
        q.b = k ? 0.0 : 1.0;
        CHECK_INT(pdx_search(&r, ix, &q), 0);
        s[k] = pdx_results_count(r) ? pdx_results_hit(r, 0)->score : -1;
        pdx_results_free(r);
    }
    CHECK(s[0] > 0 && s[1] > 0 && s[0] != s[1]);
    pdx_close(ix);
}

/* Words and keys longer than Xapian's 245-byte term limit must never
 * reach add_document (which would drop the whole uncommitted batch). */
static void test_long_terms(void)
{
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path_of("long"), PDX_OPEN_WRITE | PDX_OPEN_CREATE), 0);
    char word[600], name[700], cat[400], id[PDX_ID_MAX + 1];
    memset(word, 'q', sizeof word - 1);
    word[sizeof word - 1] = '\0';
    snprintf(name, sizeof name, "Given %s", word);
    memcpy(cat, word, sizeof cat - 1);
    cat[sizeof cat - 1] = '\0';
    memset(id, 'i', PDX_ID_MAX);
    id[PDX_ID_MAX] = '\0';
    CHECK_INT(put(ix, "before", "first work", NULL, NULL, NULL, 2000), 0);
    CHECK_INT(put(ix, id, word, word, name, cat, 2001), 0);
    char multibyte[800] = "";
    for (int i = 0; i < 120; i++)
        strcat(multibyte, "\xc3\xa9"); /* é: 240 bytes without a break */
    CHECK_INT(put(ix, "mb", multibyte, "text", multibyte, multibyte, 2002), 0);
    CHECK_INT(put(ix, "after", "last work", NULL, NULL, NULL, 2003), 0);
    char toolong[PDX_ID_MAX + 2];
    memset(toolong, 'x', sizeof toolong - 1);
    toolong[sizeof toolong - 1] = '\0';
    CHECK_INT(put(ix, toolong, "t", NULL, NULL, NULL, 0), PDX_EINVAL);
    CHECK_INT(pdx_commit(ix), 0);
    pdx_stats st = PDX_STATS_INIT;
    CHECK_INT(pdx_stats_get(&st, ix), 0);
    CHECK_INT(st.works, 4);
    CHECK_INT(count(ix, (filt){"first OR last", 0, 0, 0, 0, 0}, NULL, 0), 2);
    CHECK_INT(count(ix, (filt){"", 0, 0, 0, name, 0}, NULL, 0), 1);
    pdx_close(ix);
}

static void test_lock_and_damage(void)
{
    pdx_index *w = NULL, *w2 = NULL, *r = NULL;
    CHECK_INT(pdx_open(&w, path_of("main"), PDX_OPEN_WRITE), 0);
    CHECK_INT(pdx_open(&w2, path_of("main"), PDX_OPEN_WRITE), PDX_ELOCKED);
    CHECK(strstr(pdx_errmsg(w2), "locked") != NULL);
    CHECK_INT(pdx_open(&r, path_of("main"), PDX_OPEN_READ), 0); /* readers are fine */
    pdx_close(w2);
    pdx_close(r);
    pdx_close(w);

    /* A directory of other files is never taken over; an empty one is not
     * an index to read, but may become one. */
    mkdir(path_of("other"), 0700);
    FILE *f = fopen(path_of("other/notes.txt"), "w");
    if (f) {
        fputs("mine\n", f);
        fclose(f);
    }
    CHECK_INT(pdx_open(&w, path_of("other"), PDX_OPEN_WRITE | PDX_OPEN_CREATE),
              PDX_ENOTINDEX);
    pdx_close(w);
    CHECK_INT(pdx_open(&r, path_of("other"), PDX_OPEN_READ), PDX_ENOTINDEX);
    pdx_close(r);
    CHECK_INT(pdx_open(&r, path_of("other/notes.txt"), PDX_OPEN_READ), PDX_ENOTINDEX);
    pdx_close(r);
    mkdir(path_of("empty"), 0700);
    CHECK_INT(pdx_open(&r, path_of("empty"), PDX_OPEN_READ), PDX_ENOTINDEX);
    pdx_close(r);

    /* Damage: overwrite every block of the postlist table with garbage. */
    CHECK_INT(pdx_open(&w, path_of("damaged"), PDX_OPEN_WRITE | PDX_OPEN_CREATE), 0);
    build_fixture(w);
    CHECK_INT(pdx_commit(w), 0);
    pdx_close(w);
    int fd = open(path_of("damaged/postlist.glass"), O_WRONLY);
    CHECK(fd >= 0);
    if (fd >= 0) {
        char junk[8192];
        struct stat st;
        memset(junk, 0x5a, sizeof junk);
        CHECK_INT(fstat(fd, &st), 0);
        CHECK(st.st_size >= (off_t)sizeof junk);
        for (off_t off = 0; off + (off_t)sizeof junk <= st.st_size;
             off += (off_t)sizeof junk)
            CHECK_INT(pwrite(fd, junk, sizeof junk, off), (long long)sizeof junk);
        close(fd);
    }
    int rc = pdx_open(&r, path_of("damaged"), PDX_OPEN_READ);
    if (rc == 0) {
        pdx_results *res = NULL;
        pdx_query q = PDX_QUERY_INIT;
        q.text = "networks";
        rc = pdx_search(&res, r, &q);
        pdx_results_free(res);
    }
    CHECK_INT(rc, PDX_ECORRUPT);
    pdx_close(r);
}

/* Four commits that rewrite every document of "busy": they free the
 * blocks an older reader's revision used, so that reader's next read hits
 * DatabaseModifiedError. */
static void rewrite_four_times(pdx_index *w, int *round)
{
    char id[32], title[64];
    for (int k = 0; k < 4; k++) {
        ++*round;
        for (int i = 0; i < 300; i++) {
            snprintf(id, sizeof id, "b%d", i);
            snprintf(title, sizeof title, "round %d work %d", *round, i);
            put(w, id, title, "networks everywhere", "A B", "cs.LG",
                2000 + *round);
        }
        CHECK_INT(pdx_commit(w), 0);
    }
}

/* A reader opened before several commits still works: on
 * DatabaseModifiedError every read entry point reopens and retries.  Each
 * call below meets a reader left behind by four rewriting commits (the
 * search case was checked once by instrumenting the retry path); without
 * the retry these fail with "The revision being read has been discarded". */
/* A read handle sees each new commit at its next read, even one commit
 * behind, where nothing it reads has been overtaken yet (no
 * DatabaseModifiedError to make it move). */
static void test_reader_sees_new_commits(void)
{
    pdx_index *w = NULL, *r = NULL;
    CHECK_INT(pdx_open(&w, path_of("fresh"), PDX_OPEN_WRITE | PDX_OPEN_CREATE),
              0);
    put(w, "f1", "first arrival", "an abstract about glaciers", "A B",
        "cs.LG", 2001);
    CHECK_INT(pdx_commit(w), 0);
    CHECK_INT(pdx_open(&r, path_of("fresh"), PDX_OPEN_READ), 0);
    pdx_query q = PDX_QUERY_INIT;
    q.text = "arrival";
    pdx_results *res = NULL;
    CHECK_INT(pdx_search(&res, r, &q), 0);
    CHECK_INT(pdx_results_total(res), 1);
    pdx_results_free(res);
    put(w, "f2", "second arrival", "another abstract", "A B", "cs.LG", 2002);
    CHECK_INT(pdx_commit(w), 0);
    res = NULL;
    CHECK_INT(pdx_search(&res, r, &q), 0);
    CHECK_INT(pdx_results_total(res), 2);
    CHECK_INT(pdx_results_total_relation(res), PDX_TOTAL_EQ);
    pdx_results_free(res);
    /* Past count_limit the total is the limit, and says it is a lower
     * bound; a version-6 struct (no count_limit) gets the default. */
    q.count_limit = 1;
    q.limit = 0;
    res = NULL;
    CHECK_INT(pdx_search(&res, r, &q), 0);
    CHECK_INT(pdx_results_total(res), 1);
    CHECK_INT(pdx_results_total_relation(res), PDX_TOTAL_GTE);
    CHECK_INT(pdx_results_total_upper(res) >= 2, 1);
    pdx_results_free(res);
    q.version = 6;
    res = NULL;
    CHECK_INT(pdx_search(&res, r, &q), 0);
    CHECK_INT(pdx_results_total(res), 2);
    CHECK_INT(pdx_results_total_relation(res), PDX_TOTAL_EQ);
    pdx_results_free(res);
    q.version = PDX_QUERY_VERSION;
    pdx_stats st = PDX_STATS_INIT;
    CHECK_INT(pdx_stats_get(&st, r), 0);
    CHECK_INT(st.works, 2);
    pdx_close(r);
    pdx_close(w);
}

/* The ranking of "glacier mapping" on r: each hit's id and score, in
 * order, as one string (scores to 17 digits). */
static void ranking(pdx_index *r, char *out, size_t len)
{
    pdx_query q = PDX_QUERY_INIT;
    q.text = "glacier mapping";
    pdx_results *res = NULL;
    size_t at = 0;
    out[0] = '\0';
    CHECK_INT(pdx_search(&res, r, &q), 0);
    for (size_t i = 0; res && i < pdx_results_count(res) && at < len; i++)
        at += (size_t)snprintf(out + at, len - at, "%s:%.17g ",
                               pdx_results_hit(res, i)->work->id,
                               pdx_results_hit(res, i)->score);
    pdx_results_free(res);
}

/* A kept reader's proximity bonus reads the words' chunks through other
 * handles of its own (searcher/shim_read.cc, cursor_dbs): after a writer
 * commits and closes (its chunks rewritten under new keys, its deltas
 * dropped), those handles follow the reader to the new revision, so the
 * kept reader ranks as a handle opened afresh does, the new work whose
 * title is the query first. */
static void test_reader_bonus_follows_commits(void)
{
    pdx_index *w = NULL, *r = NULL, *fresh = NULL;
    CHECK_INT(pdx_open(&w, path_of("bonus"), PDX_OPEN_WRITE | PDX_OPEN_CREATE), 0);
    put(w, "b1", "mapping of glacier retreat", "glacier mapping from orbit",
        "A B", "cs.LG", 2001);
    put(w, "b2", "a glacier survey", "we chart ice and do some mapping",
        "A B", "cs.LG", 2002);
    CHECK_INT(pdx_commit(w), 0);
    CHECK_INT(pdx_open(&r, path_of("bonus"), PDX_OPEN_READ), 0);
    char before[512], kept[512], opened[512];
    ranking(r, before, sizeof before);
    CHECK(strstr(before, "b1:") == before); /* the words together first */
    put(w, "b3", "glacier mapping", "glacier mapping with glacier mapping",
        "C D", "cs.LG", 2003);
    CHECK_INT(pdx_commit(w), 0);
    pdx_close(w);
    ranking(r, kept, sizeof kept);
    CHECK_INT(pdx_open(&fresh, path_of("bonus"), PDX_OPEN_READ), 0);
    ranking(fresh, opened, sizeof opened);
    CHECK_STR(kept, opened);
    CHECK(strstr(kept, "b3:") == kept);
    pdx_close(fresh);
    pdx_close(r);
}

static void test_reader_survives_commits(void)
{
    pdx_index *w = NULL, *r = NULL;
    int round = 0;
    CHECK_INT(pdx_open(&w, path_of("busy"), PDX_OPEN_WRITE | PDX_OPEN_CREATE), 0);
    char id[32], title[64];
    for (int i = 0; i < 300; i++) {
        snprintf(id, sizeof id, "b%d", i);
        snprintf(title, sizeof title, "round zero work %d", i);
        put(w, id, title, "networks everywhere", "A B", "cs.LG", 2000);
    }
    pdx_source src = PDX_SOURCE_INIT;
    src.path = "/data/busy.jsonl";
    src.size = 1234;
    src.mtime_ns = 5678;
    CHECK_INT(pdx_source_set(w, &src), 0);
    CHECK_INT(pdx_commit(w), 0);
    CHECK_INT(pdx_open(&r, path_of("busy"), PDX_OPEN_READ), 0);

    rewrite_four_times(w, &round);
    pdx_results *res = NULL;
    pdx_query q = PDX_QUERY_INIT;
    q.text = "networks";
    q.limit = 300;
    int rc = pdx_search(&res, r, &q);
    CHECK_INT(rc, 0);
    if (rc)
        fprintf(stderr, "  %s\n", pdx_errmsg(r));
    CHECK_INT(pdx_results_count(res), 300);
    /* Every hit comes from one revision: all the same year. */
    int year = pdx_results_count(res) ? pdx_results_hit(res, 0)->work->year : 0;
    int same = 1;
    for (size_t i = 0; i < pdx_results_count(res); i++)
        same &= pdx_results_hit(res, i)->work->year == year;
    CHECK(same);
    CHECK_INT(year, 2000 + round);
    pdx_results_free(res);

    rewrite_four_times(w, &round);
    res = NULL;
    rc = pdx_get(&res, r, "b7");
    if (rc)
        fprintf(stderr, "  pdx_get: %s\n", pdx_errmsg(r));
    CHECK_INT(rc, 0);
    CHECK_INT(res ? pdx_results_count(res) : 0, 1);
    if (res && pdx_results_count(res))
        CHECK_INT(pdx_results_hit(res, 0)->work->year, 2000 + round);
    pdx_results_free(res);

    rewrite_four_times(w, &round);
    pdx_source got = PDX_SOURCE_INIT;
    rc = pdx_source_get(&got, r, "/data/busy.jsonl");
    if (rc)
        fprintf(stderr, "  pdx_source_get: %s\n", pdx_errmsg(r));
    CHECK_INT(rc, 0);
    if (!rc)
        CHECK_INT((int)got.size, 1234);

    rewrite_four_times(w, &round);
    pdx_stats st = PDX_STATS_INIT;
    rc = pdx_stats_get(&st, r);
    if (rc)
        fprintf(stderr, "  pdx_stats_get: %s\n", pdx_errmsg(r));
    CHECK_INT(rc, 0);
    if (!rc)
        CHECK_INT((int)st.works, 300);

    rewrite_four_times(w, &round);
    /* Compaction starts from the newest revision, so a stale reader
     * copies what the writer last committed.  (Its retry, for a commit
     * landing during the copy, is not forced here: that needs a commit
     * timed inside Xapian's compactor.) */
    rc = pdx_compact(r, path_of("busy-compact"));
    if (rc)
        fprintf(stderr, "  pdx_compact: %s\n", pdx_errmsg(r));
    CHECK_INT(rc, 0);
    pdx_index *c = NULL;
    CHECK_INT(pdx_open(&c, path_of("busy-compact"), PDX_OPEN_READ), 0);
    res = NULL;
    CHECK_INT(c ? pdx_get(&res, c, "b7") : -1, 0);
    CHECK_INT(res ? pdx_results_count(res) : 0, 1);
    if (res && pdx_results_count(res))
        CHECK_INT(pdx_results_hit(res, 0)->work->year, 2000 + round);
    pdx_results_free(res);
    pdx_close(c);

    rewrite_four_times(w, &round);
    res = NULL;
    rc = pdx_similar(&res, r, "b7", 10);
    if (rc)
        fprintf(stderr, "  pdx_similar: %s\n", pdx_errmsg(r));
    CHECK_INT(rc, 0);
    pdx_results_free(res);
    pdx_close(r);
    pdx_close(w);
}

/* A directory swapped in under the reader's path (as `index --jobs`
 * does): the reader follows it at its next read, locally and among
 * shards, instead of serving the old files for ever. */
static void test_reader_follows_swap(void)
{
    pdx_index *w = NULL, *r = NULL, *rs = NULL;
    char id[32];
    for (int k = 0; k < 2; k++) {
        CHECK_INT(pdx_open(&w, path_of(k ? "swap-new" : "swap"),
                           PDX_OPEN_WRITE | PDX_OPEN_CREATE), 0);
        for (int i = 0; i < (k ? 70 : 30); i++) {
            snprintf(id, sizeof id, "s%d", i);
            put(w, id, "swapped networks", "networks", "A B", "cs.LG", 2000 + k);
        }
        CHECK_INT(pdx_commit(w), 0);
        pdx_close(w);
        w = NULL;
    }
    CHECK_INT(pdx_open(&r, path_of("swap"), PDX_OPEN_READ), 0);
    const char *two[] = {path_of("swap"), path_of("busy")};
    CHECK_INT(pdx_open_shards(&rs, two, 2), 0);
    pdx_stats st = PDX_STATS_INIT;
    CHECK_INT(pdx_stats_get(&st, r), 0);
    CHECK_INT((int)st.works, 30);
    uint64_t busy_works = 0;
    pdx_stats st2 = PDX_STATS_INIT;
    CHECK_INT(pdx_stats_get(&st2, rs), 0);
    busy_works = st2.works - 30;

    CHECK_INT(rename(path_of("swap"), path_of("swap-old")), 0);
    CHECK_INT(rename(path_of("swap-new"), path_of("swap")), 0);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path_of("swap-old"));
    CHECK_INT(system(cmd), 0); /* the old files go, as --jobs removes them */

    pdx_results *res = NULL;
    pdx_query q = PDX_QUERY_INIT;
    q.text = "swapped";
    q.limit = 100;
    q.exact_total = 1;
    CHECK_INT(pdx_search(&res, r, &q), 0);
    CHECK_INT(res ? (int)pdx_results_total(res) : -1, 70);
    if (res && pdx_results_count(res))
        CHECK_INT(pdx_results_hit(res, 0)->work->year, 2001);
    pdx_results_free(res);
    res = NULL;
    CHECK_INT(pdx_search(&res, rs, &q), 0);
    CHECK_INT(res ? (int)pdx_results_total(res) : -1, 70);
    pdx_results_free(res);
    CHECK_INT(pdx_stats_get(&st2, rs), 0);
    CHECK_INT((int)(st2.works - busy_works), 70);
    pdx_close(rs);
    pdx_close(r);
}

/* Merging through the API: the arXiv id decides over the ids the callers
 * gave; different ids with the same title stay two works; pdx_get finds a
 * work by any of its ids. */
static void test_merge_api(void)
{
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path_of("merge"), PDX_OPEN_WRITE | PDX_OPEN_CREATE), 0);
    pdx_work w = PDX_WORK_INIT;
    const char *a1[] = {"Ana Ruiz"}, *a2[] = {"Ana Ruiz", "Bo Li"};
    w.id = "mine:1";
    w.arxiv_id = "2101.00001";
    w.title = "Shared Title";
    w.authors = a1;
    w.n_authors = 1;
    w.authors_truncated = 1;
    w.year = 2021;
    CHECK_INT(pdx_put(ix, &w), 0);
    w.id = "theirs:9";
    w.arxiv_id = "2101.00001v2";
    w.abstract = "An abstract only the second record has.";
    w.authors = a2;
    w.n_authors = 2;
    w.authors_truncated = 0;
    w.date = "2021-01-05";
    CHECK_INT(pdx_put(ix, &w), 0);
    pdx_work other = PDX_WORK_INIT;
    other.id = "mine:2";
    other.title = "Shared Title";
    CHECK_INT(pdx_put(ix, &other), 0);
    CHECK_INT(pdx_commit(ix), 0);
    pdx_stats st = PDX_STATS_INIT;
    CHECK_INT(pdx_stats_get(&st, ix), 0);
    CHECK_INT(st.works, 2);
    const char *ids[] = {"mine:1", "theirs:9", "2101.00001", "2101.00001v3"};
    for (size_t i = 0; i < 4; i++) {
        pdx_results *r = NULL;
        CHECK_INT(pdx_get(&r, ix, ids[i]), 0);
        CHECK_INT(pdx_results_count(r), 1);
        const pdx_hit *h = pdx_results_hit(r, 0);
        if (h) {
            CHECK_STR(h->work->id, "2101.00001");
            CHECK_INT(h->work->n_authors, 2);
            CHECK(!h->work->authors_truncated);
            CHECK_STR(h->work->date, "2021-01-05");
            CHECK(h->work->abstract != NULL);
        }
        pdx_results_free(r);
    }
    pdx_results *r = NULL;
    CHECK_INT(pdx_get(&r, ix, "nobody"), 0);
    CHECK_INT(pdx_results_count(r), 0);
    pdx_results_free(r);
    /* Deleting by a source's id deletes the merged work. */
    CHECK_INT(pdx_delete(ix, "theirs:9"), 0);
    CHECK_INT(pdx_commit(ix), 0);
    st = (pdx_stats)PDX_STATS_INIT;
    CHECK_INT(pdx_stats_get(&st, ix), 0);
    CHECK_INT(st.works, 1);
    CHECK_INT(pdx_get(&r, ix, "mine:1"), 0);
    CHECK_INT(pdx_results_count(r), 0);
    pdx_results_free(r);
    CHECK_INT(pdx_put(ix, &w), 0);
    /* Putting the caller's record again replaces it: still two works. */
    CHECK_INT(pdx_put(ix, &other), 0);
    CHECK_INT(pdx_commit(ix), 0);
    st = (pdx_stats)PDX_STATS_INIT;
    CHECK_INT(pdx_stats_get(&st, ix), 0);
    CHECK_INT(st.works, 2);
    pdx_close(ix);
}

/* Snippets: a window of the abstract, the query's words marked, stems
 * included; none without query words or with snippet_bytes 0. */
/* Is s[0..n) valid UTF-8 (no stray continuation, no cut sequence)? */
static int utf8_ok(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t k = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
                               : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!k || i + k > n)
            return 0;
        for (size_t j = 1; j < k; j++)
            if (((unsigned char)s[i + j] & 0xC0) != 0x80)
                return 0;
        i += k;
    }
    return 1;
}

/* Snippets of text in Greek, Cyrillic, CJK and emoji, at every length
 * from 10 to 400 bytes: each is valid UTF-8, a piece of the abstract
 * (the "…" marks aside) that starts and ends at a word boundary (white
 * space, the text's ends, or a sentence's full stop), and the title's
 * matched words are marked in the title. */
static void test_snippet_boundaries(void)
{
    pdx_index *w = NULL;
    CHECK_INT(pdx_open(&w, path_of("snip"), PDX_OPEN_WRITE | PDX_OPEN_CREATE),
              0);
    const char *abstract =
        "Μετρήσεις δ18O του πάγου δείχνουν ότι ο παγετώνας υποχωρεί. "
        "Измерения ледника показывают отступление на 3 км. We map "
        "glacier retreat with Δ-metrics and σ-bounds over 40 years 🧊🌍 of "
        "imagery; 冰川退缩 在 喜马拉雅 地区 明显 加速. Glacier fronts move "
        "ünevenly, and the ∂-operator café résumé naïve coöperation tests "
        "hold at every glacier we measured in the Ανταρκτική.";
    CHECK_INT(put(w, "s1", "Glacier Retreat Measured with δ-Metrics", abstract,
                  "A B", "physics", 2021),
              0);
    CHECK_INT(pdx_commit(w), 0);
    const size_t alen = strlen(abstract);
    pdx_query q = PDX_QUERY_INIT;
    q.text = "glacier retreat";
    int checked = 0;
    for (size_t bytes = 10; bytes <= 400; bytes++) {
        q.snippet_bytes = bytes;
        pdx_results *r = NULL;
        CHECK_INT(pdx_search(&r, w, &q), 0);
        const pdx_hit *h = pdx_results_hit(r, 0);
        if (!h || !h->snippet) {
            CHECK(h && h->snippet);
            pdx_results_free(r);
            continue;
        }
        const char *sn = h->snippet;
        size_t n = strlen(sn);
        CHECK(utf8_ok(sn, n));
        /* the piece without its marks */
        const char *omit = "\xE2\x80\xA6";
        size_t from = 0, to = n;
        if (n >= 3 && !memcmp(sn, omit, 3))
            from = 3;
        if (to >= from + 3 && !memcmp(sn + to - 3, omit, 3))
            to -= 3;
        char piece[512];
        snprintf(piece, sizeof piece, "%.*s", (int)(to - from), sn + from);
        const char *at = strstr(abstract, piece);
        CHECK(at != NULL);
        if (at) {
            size_t s0 = (size_t)(at - abstract), e0 = s0 + strlen(piece);
            CHECK(s0 == 0 || abstract[s0 - 1] == ' ');
            CHECK(e0 == alen || abstract[e0] == ' ' || abstract[e0 - 1] == '.');
        }
        for (size_t i = 0; i < h->n_highlights; i++)
            CHECK(h->highlights[2 * i] < h->highlights[2 * i + 1] &&
                  h->highlights[2 * i + 1] <= n);
        /* The title's words: "Glacier" and "Retreat", nothing else. */
        CHECK_INT(h->n_title_highlights, 2);
        if (h->n_title_highlights == 2) {
            CHECK(!strncmp(h->work->title + h->title_highlights[0], "Glacier",
                           h->title_highlights[1] - h->title_highlights[0]));
            CHECK(!strncmp(h->work->title + h->title_highlights[2], "Retreat",
                           h->title_highlights[3] - h->title_highlights[2]));
        }
        checked++;
        pdx_results_free(r);
    }
    CHECK_INT(checked, 391);
    pdx_close(w);
}

static void test_snippets(void)
{
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path_of("main"), PDX_OPEN_READ), 0);
    pdx_query q = PDX_QUERY_INIT;
    q.text = "glacier segment";
    pdx_results *r = NULL;
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    const pdx_hit *h = pdx_results_hit(r, 0);
    CHECK(h && h->snippet != NULL);
    if (h && h->snippet) {
        CHECK_STR(h->work->id, "w2");
        CHECK(strstr(h->snippet, "Segmentation of glaciers") != NULL);
        CHECK_INT(h->n_highlights, 2);
        char words[2][32] = {"", ""};
        for (size_t i = 0; i < h->n_highlights && i < 2; i++) {
            size_t a = h->highlights[2 * i], b = h->highlights[2 * i + 1];
            CHECK(a < b && b <= strlen(h->snippet) && b - a < sizeof words[i]);
            if (a < b && b - a < sizeof words[i])
                memcpy(words[i], h->snippet + a, b - a);
        }
        /* Through the stemmer: "segment" marks "Segmentation" (porter2
         * stems both to "segment") and "glacier" marks "glaciers". */
        CHECK_STR(words[0], "Segmentation");
        CHECK_STR(words[1], "glaciers");
    }
    pdx_results_free(r);
    q.snippet_bytes = 0;
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    CHECK(pdx_results_hit(r, 0) && pdx_results_hit(r, 0)->snippet == NULL);
    pdx_results_free(r);
    q = (pdx_query)PDX_QUERY_INIT;
    q.year_min = 2019;
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    CHECK(pdx_results_hit(r, 0) && pdx_results_hit(r, 0)->snippet == NULL);
    pdx_results_free(r);
    pdx_close(ix);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The ids of a search, sorted and joined with spaces: a match set to
 * compare whatever the scores. */
static const char *id_set(pdx_index *ix, const char *text)
{
    static char out[256];
    char ids[256], *v[16];
    size_t n = 0;
    out[0] = '\0';
    if (count(ix, (filt){text, 0, 0, 0, 0, 0}, ids, sizeof ids) < 0)
        return "(failed)";
    for (char *t = strtok(ids, " "); t && n < 16; t = strtok(NULL, " "))
        v[n++] = t;
    qsort(v, n, sizeof v[0], cmp_str);
    for (size_t i = 0; i < n; i++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s",
                 i ? " " : "", v[i]);
    return out;
}

/* Layout 4: the abstract's stems are the default field's positional
 * terms, and XB marks only what the abstract shares with the title or an
 * author name.  abstract: must still mean the abstract exactly: a word,
 * a phrase and a wildcard the work has in its title or author names
 * alone do not match it.  Stop words inside a field's phrase are dropped
 * as in the default field's. */
static void test_layout4(void)
{
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path_of("layout4"), PDX_OPEN_WRITE | PDX_OPEN_CREATE), 0);
    /* "graph": a1 title, abstract and author; a2 title only; a3 abstract
     * only; a4 author only; a5 title, and abstract apart from
     * "sampling". */
    CHECK_INT(put(ix, "a1", "Graph networks", "We study graph sampling and networks of sensors.",
                  "Ann Graph", "cs.LG", 2020), 0);
    CHECK_INT(put(ix, "a2", "Graph sampling", "Sensors in the field.", "Bo Lund", "cs.LG", 2020), 0);
    CHECK_INT(put(ix, "a3", "Sensors", "A graph of sensors.", "Cy Network", "cs.LG", 2020), 0);
    CHECK_INT(put(ix, "a4", "Notes", "Nothing here.", "Di Graph", "cs.LG", 2020), 0);
    CHECK_INT(put(ix, "a5", "Graph sampling methods", "Sampling of a large graph.", "Ed Moss",
                  "cs.LG", 2020), 0);
    CHECK_INT(put(ix, "a6", "Theory of everything", "Notes on theories.", "Flo Ray", "cs.LG", 2020), 0);
    CHECK_INT(pdx_commit(ix), 0);
    CHECK_STR(id_set(ix, "graph"), "a1 a2 a3 a4 a5");
    CHECK_STR(id_set(ix, "abstract:graph"), "a1 a3 a5");
    CHECK_STR(id_set(ix, "title:graph"), "a1 a2 a5");
    CHECK_STR(id_set(ix, "author:graph"), "a1 a4");
    CHECK_STR(id_set(ix, "abstract:network"), "a1");
    CHECK_STR(id_set(ix, "abstract:\"graph sampling\""), "a1");
    CHECK_STR(id_set(ix, "title:\"graph sampling\""), "a2 a5");
    CHECK_STR(id_set(ix, "\"graph sampling\""), "a1 a2 a5");
    CHECK_STR(id_set(ix, "abstract:sampl*"), "a1 a5");
    CHECK_STR(id_set(ix, "abstract:sensor*"), "a1 a2 a3");
    CHECK_STR(id_set(ix, "abstract:graph -title:graph"), "a3");
    CHECK_STR(id_set(ix, "abstract:\"graph of sensors\""), "a3");
    CHECK_STR(id_set(ix, "title:\"theory of everything\""), "a6");
    CHECK_STR(id_set(ix, "author:\"di graph\""), "a4");
    pdx_close(ix);
}

/* Layout 2: phrases match on stems, in the default field and in a
 * field, never across two fields; accents are folded in text and query
 * alike; stop words inside a phrase do not stop it matching; an index of
 * layout 1 is refused for searching (naming the command that rebuilds
 * it) and, opened with PDX_OPEN_UPGRADE, only holds the lock. */
static void test_layout2(void)
{
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path_of("layout2"), PDX_OPEN_WRITE | PDX_OPEN_CREATE), 0);
    CHECK_INT(put(ix, "p1", "Large language models for proofs",
                  "We study theorem proving.", "Hinrich Sch\xc3\xbctze", "cs.CL", 2023), 0);
    CHECK_INT(put(ix, "p2", "A large language model of code",
                  "The theory of everything is not here.", "Hinrich Schutze", "cs.CL", 2022), 0);
    CHECK_INT(put(ix, "p3", "Large models", "Language in context.", "Ann Other",
                  "cs.CL", 2021), 0);
    CHECK_INT(pdx_commit(ix), 0);
    char ids[256];
    /* "models" and "model" stem alike, but a quoted phrase is its words
     * as written: each title holds one of the two. */
    CHECK_INT(count(ix, (filt){"\"large language models\"", 0, 0, 0, 0, 0}, ids, sizeof ids), 1);
    CHECK_STR(ids, "p1");
    CHECK_INT(count(ix, (filt){"title:\"large language model\"", 0, 0, 0, 0, 0}, ids, sizeof ids), 1);
    CHECK_STR(ids, "p2");
    CHECK_INT(count(ix, (filt){"\"large language models\" OR \"large language model\"",
                               0, 0, 0, 0, 0}, ids, sizeof ids), 2);
    CHECK_INT(count(ix, (filt){"abstract:\"large language\"", 0, 0, 0, 0, 0}, ids, sizeof ids), 0);
    /* p3: "models" ends the title, "language" begins the abstract. */
    CHECK_INT(count(ix, (filt){"\"models language\"", 0, 0, 0, 0, 0}, ids, sizeof ids), 0);
    /* Accents: either spelling finds both works. */
    CHECK_INT(count(ix, (filt){"Sch\xc3\xbctze", 0, 0, 0, 0, 0}, ids, sizeof ids), 2);
    CHECK_INT(count(ix, (filt){"schutze", 0, 0, 0, 0, 0}, ids, sizeof ids), 2);
    CHECK_INT(count(ix, (filt){"author:\"hinrich sch\xc3\xbctze\"", 0, 0, 0, 0, 0}, ids, sizeof ids), 2);
    /* Stop words inside a phrase. */
    CHECK_INT(count(ix, (filt){"\"theory of everything\"", 0, 0, 0, 0, 0}, ids, sizeof ids), 1);
    CHECK_STR(ids, "p2");
    CHECK_INT(count(ix, (filt){"\"model of code\"", 0, 0, 0, 0, 0}, ids, sizeof ids), 1);
    pdx_close(ix);

    /* An older layout: stamped "1" by hand (xapian-metadata would do the
     * same). */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "xapian-metadata set '%s' paperdex.layout 1", path_of("layout2"));
    if (system(cmd) != 0) {
        printf("skip: xapian-metadata not available\n");
        return;
    }
    CHECK_INT(pdx_open(&ix, path_of("layout2"), PDX_OPEN_READ), PDX_EVERSION);
    CHECK(strstr(pdx_errmsg(ix), "has index layout 1") != NULL);
    CHECK(strstr(pdx_errmsg(ix), "paperdex index --db ") != NULL);
    pdx_close(ix);
    CHECK_INT(pdx_open(&ix, path_of("layout2"), PDX_OPEN_WRITE), PDX_EVERSION);
    pdx_close(ix);
    CHECK_INT(pdx_open(&ix, path_of("layout2"), PDX_OPEN_WRITE | PDX_OPEN_UPGRADE), 0);
    CHECK_INT(pdx_index_layout(ix), 1);
    CHECK_INT(put(ix, "p4", "Anything", "At all.", "A. Person", "cs.CL", 2020), PDX_EVERSION);
    CHECK_INT(pdx_delete(ix, "p1"), PDX_EVERSION);
    pdx_close(ix);
    /* A newer layout is refused even then. */
    snprintf(cmd, sizeof cmd, "xapian-metadata set '%s' paperdex.layout 10", path_of("layout2"));
    CHECK_INT(system(cmd), 0);
    CHECK_INT(pdx_open(&ix, path_of("layout2"), PDX_OPEN_WRITE | PDX_OPEN_UPGRADE), PDX_EVERSION);
    CHECK(strstr(pdx_errmsg(ix), "use the paperdex that wrote it") != NULL);
    pdx_close(ix);
}

/* Similar works: two clusters of works; the works like a penguin paper
 * are the other penguin papers first, never the paper itself; an unknown
 * id is PDX_ENOTFOUND. */
static void test_similar(void)
{
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path_of("similar"),
                       PDX_OPEN_WRITE | PDX_OPEN_CREATE), 0);
    CHECK_INT(put(ix, "p1", "Counting penguin colonies from satellite images",
                  "Penguin colonies are counted in satellite images of ice.",
                  "Ana Ruiz", "cs.CV", 2020), 0);
    CHECK_INT(put(ix, "p2", "Satellite surveys of penguin colonies",
                  "We survey penguin colonies on sea ice with satellite images.",
                  "Bo Li", "cs.CV", 2021), 0);
    CHECK_INT(put(ix, "p3", "Penguin colony guano stains seen from orbit",
                  "Guano stains reveal penguin colonies in images.",
                  "Cy Dee", "q-bio.PE", 2019), 0);
    CHECK_INT(put(ix, "t1", "Tidal energy turbine arrays",
                  "Turbine arrays harvest tidal energy in estuaries.",
                  "Ana Ruiz", "eess.SY", 2020), 0);
    CHECK_INT(put(ix, "t2", "Forecasting tidal energy output",
                  "We forecast the output of tidal energy turbines.",
                  "Dee Eff", "eess.SY", 2022), 0);
    CHECK_INT(pdx_commit(ix), 0);
    pdx_results *r = NULL;
    CHECK_INT(pdx_similar(&r, ix, "p1", 10), 0);
    CHECK(pdx_results_count(r) >= 2);
    for (size_t i = 0; i < pdx_results_count(r); i++)
        CHECK(strcmp(pdx_results_hit(r, i)->work->id, "p1") != 0);
    if (pdx_results_count(r) >= 2) {
        const char *a = pdx_results_hit(r, 0)->work->id;
        const char *b = pdx_results_hit(r, 1)->work->id;
        CHECK((!strcmp(a, "p2") && !strcmp(b, "p3")) ||
              (!strcmp(a, "p3") && !strcmp(b, "p2")));
    }
    pdx_results_free(r);
    CHECK_INT(pdx_similar(&r, ix, "no-such-work", 10), PDX_ENOTFOUND);
    CHECK(r == NULL);
    pdx_close(ix);
}

/* --explain: the per-term weights add up to the score, for words,
 * phrases, fields and boolean operators. */
static void test_explain(void)
{
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path_of("main"), PDX_OPEN_READ), 0);
    const char *queries[] = {"networks", "graph neural networks molecules",
                             "\"satellite images\" glacier",
                             "title:protein abstract:new", "networks AND NOT graph",
                             "+wu networks"};
    for (size_t k = 0; k < sizeof queries / sizeof queries[0]; k++) {
        pdx_query q = PDX_QUERY_INIT;
        q.text = queries[k];
        q.explain = 1;
        q.k1 = 0.9;
        q.b = 0.4;
        pdx_results *r = NULL;
        CHECK_INT(pdx_search(&r, ix, &q), 0);
        CHECK(pdx_results_count(r) > 0);
        for (size_t i = 0; i < pdx_results_count(r); i++) {
            const pdx_hit *h = pdx_results_hit(r, i);
            CHECK(h->explain != NULL);
            if (!h->explain)
                continue;
            cJSON *ex = cJSON_Parse(h->explain);
            double sum = 0;
            const cJSON *t;
            cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(ex, "terms"))
                sum += cJSON_GetObjectItemCaseSensitive(t, "weight")->valuedouble;
            /* The proximity bonus (its pairs' scores) is a part too. */
            const cJSON *px = cJSON_GetObjectItemCaseSensitive(ex, "proximity");
            double pairs = 0;
            cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(px, "pairs"))
                pairs += cJSON_GetObjectItemCaseSensitive(t, "score")->valuedouble;
            if (px)
                CHECK(fabs(pairs - cJSON_GetObjectItemCaseSensitive(px, "score")
                                       ->valuedouble) < 1e-9);
            sum += pairs;
            double other =
                cJSON_GetObjectItemCaseSensitive(ex, "other")->valuedouble;
            CHECK(fabs(sum - h->score) < 1e-9 * (1 + h->score));
            CHECK(fabs(other) < 1e-9 * (1 + h->score));
            CHECK(cJSON_GetObjectItemCaseSensitive(ex, "k1")->valuedouble == 0.9);
            cJSON_Delete(ex);
        }
        pdx_results_free(r);
    }
    /* Each term is labelled with the field it was asked in: an
     * abstract: word is the default field's stem, matched only where the
     * abstract has it; asked in both, it shares one weight as text. */
    const char *fields[][3] = {{"title:protein abstract:new", "new", "abstract"},
                               {"title:protein abstract:new", "Sprotein", "title"},
                               {"abstract:new new", "new", "text"},
                               {"new", "new", "text"}};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        pdx_query q = PDX_QUERY_INIT;
        q.text = fields[k][0];
        q.explain = 1;
        q.limit = 1;
        pdx_results *r = NULL;
        CHECK_INT(pdx_search(&r, ix, &q), 0);
        CHECK(pdx_results_count(r) > 0);
        const pdx_hit *h = pdx_results_count(r) ? pdx_results_hit(r, 0) : NULL;
        cJSON *ex = h && h->explain ? cJSON_Parse(h->explain) : NULL;
        const char *field = NULL;
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(ex, "terms"))
            if (!strcmp(cJSON_GetObjectItemCaseSensitive(t, "term")->valuestring,
                        fields[k][1]))
                field = cJSON_GetObjectItemCaseSensitive(t, "field")->valuestring;
        if (!field || strcmp(field, fields[k][2]))
            fprintf(stderr, "explain '%s': term %s in field %s, want %s\n",
                    fields[k][0], fields[k][1], field ? field : "(none)",
                    fields[k][2]);
        CHECK(field && !strcmp(field, fields[k][2]));
        cJSON_Delete(ex);
        pdx_results_free(r);
    }
    pdx_close(ix);
}

/* "Did you mean": from the index's own words; none for known words, and
 * none when asked not to. */
static void test_suggest(void)
{
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path_of("main"), PDX_OPEN_READ), 0);
    pdx_query q = PDX_QUERY_INIT;
    pdx_results *r = NULL;
    q.text = "netwroks AND title:glacier";
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    CHECK_STR(pdx_results_suggestion(r), "networks AND title:glacier");
    pdx_results_free(r);
    q.text = "networks glacier";
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    CHECK(pdx_results_suggestion(r) == NULL);
    pdx_results_free(r);
    q.text = "netwroks";
    q.no_suggest = 1;
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    CHECK(pdx_results_suggestion(r) == NULL);
    pdx_results_free(r);
    pdx_close(ix);
}

/* Long questions are searched: a pasted abstract's 200 words as they
 * are; past PDX_MAX_QUERY_TERMS, an OR of words with its rarest words
 * (a note says so); a structured query that long is refused. */
/* A wildcard that matches more index terms than PDX_WILDCARD_MAX is
 * searched with the most frequent, and the note says so; one that fits
 * says nothing. */
static void test_wildcard_cut(void)
{
    pdx_index *w = NULL;
    CHECK_INT(pdx_open(&w, path_of("wild"), PDX_OPEN_WRITE | PDX_OPEN_CREATE),
              0);
    const int per = 2100, works = 5; /* 10,500 distinct words "wq...x" */
    char *text = malloc((size_t)per * 8 + 1);
    for (int d = 0; d < works; d++) {
        size_t len = 0;
        for (int i = 0; i < per; i++) {
            int k = d * per + i;
            len += (size_t)sprintf(text + len, "wq%c%c%cx ", 'a' + k / 676,
                                   'a' + k / 26 % 26, 'a' + k % 26);
        }
        char id[16];
        snprintf(id, sizeof id, "wild%d", d);
        CHECK_INT(put(w, id, "wildcard words", text, d ? "A B" : "A B|Wen Yang",
                      "cs.LG", 2020), 0);
    }
    free(text);
    CHECK_INT(pdx_commit(w), 0);
    pdx_query q = PDX_QUERY_INIT;
    pdx_results *r = NULL;
    q.text = "wq*";
    CHECK_INT(pdx_search(&r, w, &q), 0);
    CHECK_INT(pdx_results_total(r), works);
    CHECK(pdx_results_note(r) != NULL &&
          strstr(pdx_results_note(r), "wq* matches 10500 words; the 10000 "
                                      "most frequent were searched"));
    pdx_results_free(r);
    r = NULL;
    q.text = "wqa*"; /* 676 words: no cut, no note */
    CHECK_INT(pdx_search(&r, w, &q), 0);
    CHECK(pdx_results_note(r) == NULL);
    CHECK_INT(pdx_results_total(r), 1);
    pdx_results_free(r);
    r = NULL;
    /* an author's initial is the full names "yang w..." (one), not the
     * words that begin with w (10,502), and cuts nothing */
    q.text = "author:\"W. Yang\"";
    CHECK_INT(pdx_search(&r, w, &q), 0);
    CHECK(pdx_results_note(r) == NULL);
    CHECK_INT(pdx_results_total(r), 1);
    pdx_results_free(r);
    pdx_close(w);
}

/* A page and its total as one string: "total relation|id:score ..." (scores
 * to 17 digits). */
static void page_of(pdx_index *r, const char *text, size_t count_limit,
                    int exact, int year, char *out, size_t len)
{
    pdx_query q = PDX_QUERY_INIT;
    q.text = text;
    q.count_limit = count_limit;
    q.exact_total = exact;
    q.year_min = q.year_max = year;
    q.limit = 20;
    pdx_results *res = NULL;
    out[0] = '\0';
    CHECK_INT(pdx_search(&res, r, &q), 0);
    if (!res)
        return;
    size_t at = (size_t)snprintf(out, len, "%zu %d|", pdx_results_total(res),
                                 (int)pdx_results_total_relation(res));
    for (size_t i = 0; i < pdx_results_count(res) && at < len; i++)
        at += (size_t)snprintf(out + at, len - at, " %s:%.17g",
                               pdx_results_hit(res, i)->work->id,
                               pdx_results_hit(res, i)->score);
    pdx_results_free(res);
}

/* A query whose every match must hold a phrase is counted first, with
 * the phrase leading the match, and ranked over the works counted
 * (searcher/shim_read.cc, count_by_phrases).  Its page and total must be
 * those of the same query counted with --exact (the phrase checked work
 * by work after the ranking), and its totals what the works hold. */
static void test_phrase_counts(void)
{
    pdx_index *w = NULL, *r = NULL;
    CHECK_INT(pdx_open(&w, path_of("phrases"), PDX_OPEN_WRITE | PDX_OPEN_CREATE),
              0);
    /* "alpha beta" side by side in the titles of every 7th work and the
     * abstracts of every 5th, apart elsewhere; "gamma delta" side by side
     * in every 3rd; "zeta" in every 11th; a year of ten each */
    int want_ab = 0, want_ab_gd = 0, want_ab_zeta = 0, want_ab_2004 = 0;
    for (int i = 0; i < 400; i++) {
        char id[16], title[128], abstract[256];
        snprintf(id, sizeof id, "p%03d", i);
        snprintf(title, sizeof title, "work %d %s", i,
                 i % 7 == 0 ? "alpha beta study" : "beta study alpha");
        snprintf(abstract, sizeof abstract, "lambda show %s results %s %s",
                 i % 5 == 0 ? "alpha beta" : "alpha kappa beta",
                 i % 3 == 0 ? "gamma delta" : "delta gamma",
                 i % 11 == 0 ? "zeta" : "eta");
        CHECK_INT(put(w, id, title, abstract, "A B", "cs.LG", 2000 + i % 10), 0);
        const int ab = i % 7 == 0 || i % 5 == 0;
        want_ab += ab;
        want_ab_gd += ab && i % 3 == 0;
        want_ab_zeta += ab && i % 11 == 0;
        want_ab_2004 += ab && i % 10 == 4;
    }
    CHECK_INT(pdx_commit(w), 0);
    pdx_close(w);
    CHECK_INT(pdx_open(&r, path_of("phrases"), PDX_OPEN_READ), 0);
    const struct {
        const char *text;
        int year;
        const int *want;
    } cases[] = {
        {"\"alpha beta\"", 0, &want_ab},
        {"\"alpha beta\" AND \"gamma delta\"", 0, &want_ab_gd},
        {"\"alpha beta\" AND zeta", 0, &want_ab_zeta},
        {"+\"alpha beta\" study", 0, &want_ab},
        {"\"alpha beta\"", 2004, &want_ab_2004},
    };
    char got[4096], exact[4096], want[64];
    /* and with fewer docids kept than there are matches: counted first,
     * ranked with the decider */
    const size_t n = sizeof cases / sizeof cases[0];
    for (size_t k = 0; k < 2 * n; k++) {
        if (k == n)
            setenv("PDX_TEST_PHRASE_IDS_MAX", "10", 1);
        page_of(r, cases[k % n].text, 0, 0, cases[k % n].year, got, sizeof got);
        page_of(r, cases[k % n].text, 0, 1, cases[k % n].year, exact, sizeof exact);
        CHECK_STR(got, exact);
        snprintf(want, sizeof want, "%d 0|", *cases[k % n].want);
        CHECK(strncmp(got, want, strlen(want)) == 0);
        /* past the count's limit: "limit+", and the same page; the
         * page's 20 hits need no count of their own below 20; a limit of
         * exactly the total: the total, exact */
        const size_t limits[] = {3, 30, (size_t)*cases[k % n].want};
        for (size_t li = 0; li < 3; li++) {
            const size_t limit = limits[li];
            page_of(r, cases[k % n].text, limit, 0, cases[k % n].year, got, sizeof got);
            if ((size_t)*cases[k % n].want > limit)
                snprintf(want, sizeof want, "%zu 1|", limit);
            else
                snprintf(want, sizeof want, "%d 0|", *cases[k % n].want);
            CHECK(strncmp(got, want, strlen(want)) == 0);
            CHECK_STR(strchr(got, '|'), strchr(exact, '|'));
        }
    }
    unsetenv("PDX_TEST_PHRASE_IDS_MAX");
    pdx_close(r);
}

static void test_long_queries(void)
{
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path_of("main"), PDX_OPEN_READ), 0);
    size_t cap = 32000, len = 0;
    char *text = malloc(cap);
    for (int i = 0; i < 199; i++)
        len += (size_t)snprintf(text + len, cap - len, "zq%dx ", i);
    snprintf(text + len, cap - len, "glacier");
    pdx_query q = PDX_QUERY_INIT;
    pdx_results *r = NULL;
    q.text = text;
    /* prose (200 words) is read as words, and the note says so */
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    CHECK(pdx_results_count(r) > 0);
    CHECK(pdx_results_note(r) != NULL &&
          strstr(pdx_results_note(r), "read as plain words (a passage of 200 words)"));
    pdx_results_free(r);
    r = NULL;
    /* in the query language: the same works, no note */
    q.syntax = PDX_SYNTAX_QUERY;
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    CHECK(pdx_results_count(r) > 0);
    CHECK(pdx_results_note(r) == NULL);
    pdx_results_free(r);
    r = NULL;
    /* 1,299 words no work holds and one it does: that one is among the
     * most informative, and the search finds what it finds alone. */
    len = 0;
    for (int i = 0; i < 1299; i++)
        len += (size_t)snprintf(text + len, cap - len, "zq%dx ", i);
    snprintf(text + len, cap - len, "glacier");
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    CHECK(pdx_results_note(r) != NULL &&
          strstr(pdx_results_note(r), "1300 distinct terms") &&
          strstr(pdx_results_note(r), "the 1024 most informative"));
    pdx_results *alone = NULL;
    pdx_query qa = PDX_QUERY_INIT;
    qa.text = "glacier";
    CHECK_INT(pdx_search(&alone, ix, &qa), 0);
    CHECK(pdx_results_count(alone) > 0);
    CHECK_INT(pdx_results_count(r), pdx_results_count(alone));
    if (pdx_results_count(r) && pdx_results_count(alone))
        CHECK_STR(pdx_results_hit(r, 0)->work->id,
                  pdx_results_hit(alone, 0)->work->id);
    pdx_results_free(alone);
    pdx_results_free(r);
    r = NULL;
    /* The same words joined by AND: refused, naming the limit. */
    len = 0;
    for (int i = 0; i < 1100; i++)
        len += (size_t)snprintf(text + len, cap - len, "zq%dx AND ", i);
    snprintf(text + len, cap - len, "glacier");
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EINVAL);
    CHECK(strstr(pdx_errmsg(ix), "at most 1024 are searched") != NULL);
    /* as prose (the default), its ANDs are words: searched, not refused */
    q.syntax = PDX_SYNTAX_AUTO;
    CHECK_INT(pdx_search(&r, ix, &q), 0);
    pdx_results_free(r);
    r = NULL;
    q.syntax = 7;
    CHECK_INT(pdx_search(&r, ix, &q), PDX_EINVAL);
    CHECK(strstr(pdx_errmsg(ix), "unknown query syntax 7") != NULL);
    free(text);
    pdx_close(ix);
}

/* pdx_sync from a program built against version 1 of its option and
 * summary structs (before `compact` and `compact_before`): init and the
 * run write no further than version 1's end; and version 2's compact. */
static void test_sync_versions(void)
{
    const char *src = path_of("sync-works.jsonl");
    FILE *f = fopen(src, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    for (int k = 0; k < 300; k++)
        fprintf(f, "{\"id\": \"s%d\", \"title\": \"Sync work %d on glaciers\", "
                   "\"abstract\": \"Radar soundings of glacier %d.\"}\n", k, k, k);
    fclose(f);
    const char *sources[] = {src};

    pdx_sync_options o1[2];
    pdx_sync_summary s1[2];
    memset(o1, 0x5a, sizeof o1);
    memset(s1, 0x5a, sizeof s1);
    size_t o1_end = offsetof(pdx_sync_options, compact);
    size_t s1_end = offsetof(pdx_sync_summary, compact_before);
    CHECK_INT(pdx_sync_options_init(&o1[0], 1), 0);
    CHECK_INT(pdx_sync_summary_init(&s1[0], 1), 0);
    CHECK(((unsigned char *)&o1[0])[o1_end] == 0x5a &&
          ((unsigned char *)&s1[0])[s1_end] == 0x5a);
    CHECK_INT(pdx_sync(&s1[0], path_of("sync-v1"), sources, 1, &o1[0]), 0);
    CHECK(s1[0].version == 1 && s1[0].records_added == 300 &&
          s1[0].message[0] == '\0');
    /* Nothing written past version 1's end of the summary. */
    int untouched = 1;
    for (size_t i = s1_end; i < sizeof s1[0]; i++)
        untouched &= ((unsigned char *)&s1[0])[i] == 0x5a;
    CHECK(untouched);
    CHECK_INT(pdx_sync_options_init(&o1[1], PDX_SYNC_OPTIONS_VERSION + 1),
              PDX_EVERSION);
    CHECK_INT(pdx_sync_summary_init(&s1[1], 0), PDX_EVERSION);

    /* Version 2: compact, reported in the summary. */
    pdx_sync_options o = PDX_SYNC_OPTIONS_INIT;
    pdx_sync_summary s = PDX_SYNC_SUMMARY_INIT;
    CHECK(o.compact == 0);
    o.compact = 1;
    CHECK_INT(pdx_sync(&s, path_of("sync-v2"), sources, 1, &o), 0);
    CHECK(s.records_added == 300 && s.compact_after > 0 &&
          s.compact_after < s.compact_before && s.compact_seconds > 0);
    pdx_sync_summary again = PDX_SYNC_SUMMARY_INIT;
    CHECK_INT(pdx_sync(&again, path_of("sync-v2"), sources, 1, &o), 0);
    CHECK(again.sources_unchanged == 1 && again.compact_after == 0);
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path_of("sync-v2"), PDX_OPEN_READ), 0);
    pdx_stats st = PDX_STATS_INIT;
    CHECK_INT(pdx_stats_get(&st, ix), 0);
    CHECK(st.works == 300 && st.bytes < s.compact_before);
    pdx_close(ix);
}

static void test_misc(void)
{
    /* The linked library is the one the header describes (the header
     * against CMake's version: tests/header/headertest.c). */
    CHECK_STR(pdx_version(), PDX_VERSION);
    CHECK_INT(pdx_vernum(), PDX_VERNUM);
    CHECK_STR(pdx_strerror(PDX_ELOCKED), "locked");
    CHECK(pdx_errmsg(NULL) != NULL);
    pdx_close(NULL);
    pdx_results_free(NULL);
    pdx_reader_free(NULL);
    CHECK_INT(pdx_results_count(NULL), 0);
}

/* How much an index opened with `flags` grows on disk (pdx_stats's
 * bytes) while 300 works are rewritten and committed 5 times, their text
 * the same size. */
static long long growth_over_commits(const char *name, unsigned flags)
{
    pdx_index *w = NULL;
    long long before = -1;
    pdx_stats st = PDX_STATS_INIT;
    CHECK(pdx_open(&w, path_of(name), flags) == 0);
    for (int round = 0; round <= 5; round++) {
        for (int k = 0; k < 300; k++) {
            char id[32], title[64], abstract[96];
            snprintf(id, sizeof id, "inplace-%03d", k);
            snprintf(title, sizeof title, "Rewritten work %03d, round %02d",
                     k, round);
            snprintf(abstract, sizeof abstract,
                     "Words of work %03d, the same at every round: "
                     "blocks, commits, copies.", k);
            CHECK(put(w, id, title, abstract, "Ada Lovelace", "cs.DB",
                      2020) == 0);
        }
        CHECK(pdx_commit(w) == 0);
        CHECK(pdx_stats_get(&st, w) == 0);
        if (round == 0)
            before = (long long)st.bytes;
    }
    pdx_close(w);
    CHECK(before > 0);
    return (long long)st.bytes - before;
}

/* PDX_OPEN_NOSYNC (an index built beside another, nobody reading it)
 * writes changed blocks in place (Xapian's DB_DANGEROUS), where a handle
 * without it copies each changed block to a new one at every commit,
 * keeping the old revision readable.  Both grow as the rewritten works'
 * new terms split blocks (each round's number is a term), but copying
 * grows far more: here 450,560 bytes against 114,688. */
static void test_nosync_writes_in_place(void)
{
    long long cow = growth_over_commits(
        "cow", PDX_OPEN_WRITE | PDX_OPEN_CREATE);
    long long in_place = growth_over_commits(
        "inplace", PDX_OPEN_WRITE | PDX_OPEN_CREATE | PDX_OPEN_NOSYNC);
    if (in_place < 0 || in_place * 2 >= cow)
        fprintf(stderr, "index grew by %lld bytes copying, %lld in place\n",
                cow, in_place);
    CHECK(in_place >= 0 && in_place * 2 < cow);
}

int main(void)
{
    /* the proximity bonus's cursors take their own handles at once, not
     * only after 64 chunk reads a handle, which these small indexes
     * never make (test_reader_bonus_follows_commits) */
    setenv("PDX_TEST_CURSOR_DBS_AFTER", "0", 1);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_misc();
    test_sync_versions();
    test_lifecycle();
    test_filters();
    test_filters_all();
    test_query_errors_and_paging();
    test_snippets();
    test_snippet_boundaries();
    test_layout2();
    test_layout4();
    test_similar();
    test_explain();
    test_suggest();
    test_long_queries();
    test_phrase_counts();
    test_wildcard_cut();
    test_long_terms();
    test_lock_and_damage();
    test_reader_sees_new_commits();
    test_reader_bonus_follows_commits();
    test_reader_survives_commits();
    test_reader_follows_swap();
    test_merge_api();
    test_nosync_writes_in_place();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return check_done();
}
