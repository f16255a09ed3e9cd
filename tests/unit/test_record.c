/*
 * test_record.c -- record decoding (arXiv snapshot and paperdex JSONL),
 * derived fields, the stored-JSON round trip, and pdx_reader on plain,
 * gzipped, truncated and damaged input.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include <cjson/cJSON.h>

#include "../../common/text.h"
#include "../../corpus/prefetch.h"
#include "../../corpus/record.h"
#include "check.h"

/* The stored JSON of w (compact, one line), malloc'd; NULL on OOM: what
 * the index keeps of a record (record_to_cjson), as text to compare. */
static char *record_to_json(const pdx_work *w)
{
    cJSON *o = record_to_cjson(w);
    char *out = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return out;
}

static void write_gz(const char *name, const char *data)
{
    gzFile g = gzopen(check_path(name), "wb");
    CHECK(g != NULL);
    if (g) {
        gzputs(g, data);
        gzclose(g);
    }
}

/* Decode one arXiv line through the real reader. */
static int decode_arxiv(arena *a, pdx_work *w, const char *json)
{
    strbuf why = STRBUF_INIT;
    cJSON *o = cJSON_Parse(json);
    int rc = o ? (int)arxiv_decode(a, w, o, &why) : -1;
    if (rc == 0)
        rc = (int)record_finish(a, w, &why);
    if (rc)
        fprintf(stderr, "decode: %s\n", why.s ? why.s : "?");
    cJSON_Delete(o);
    sb_release(&why);
    return rc;
}

static void test_dates(void)
{
    CHECK(record_date_valid("2020"));
    CHECK(record_date_valid("2020-02-29"));
    CHECK(!record_date_valid("2021-02-29"));
    CHECK(!record_date_valid("2020-13"));
    CHECK(!record_date_valid("2020-1-5"));
    CHECK(!record_date_valid("999"));
    char k[9];
    record_date_key("2020-02", k);
    CHECK_STR(k, "20200200");
    record_date_key("2019", k);
    CHECK_STR(k, "20190000");
}

static void test_arxiv(void)
{
    arena a = {0};
    pdx_work w;
    /* First version's date wins over the id and update_date. */
    CHECK_INT(decode_arxiv(&a, &w,
        "{\"id\":\"0704.0001\",\"title\":\"Calculation of\\n  prompt "
        "photons\",\"abstract\":\"  A fully\\n  differential "
        "calculation.\\n\",\"authors\":\"C. Bal\\\\'azs, E. L. Berger\","
        "\"authors_parsed\":[[\"Bal\\\\'azs\",\"C.\",\"\"],[\"Berger\","
        "\"E. L.\",\"\"]],\"categories\":\"hep-ph hep-th\",\"versions\":"
        "[{\"version\":\"v1\",\"created\":\"Mon, 2 Apr 2007 19:18:42 GMT\"}],"
        "\"update_date\":\"2008-11-13\",\"doi\":\"10.1103/PhysRevD.76.013009\","
        "\"journal-ref\":\"Phys.Rev.D76:013009,2007\"}"), 0);
    CHECK_STR(w.id, "0704.0001");
    CHECK_STR(w.arxiv_id, "0704.0001");
    CHECK_STR(w.title, "Calculation of prompt photons");
    CHECK_STR(w.abstract, "A fully differential calculation.");
    CHECK_INT(w.n_authors, 2);
    if (w.n_authors == 2) {
        CHECK_STR(w.authors[0], "C. Bal\xc3\xa1zs");
        CHECK_STR(w.authors[1], "E. L. Berger");
    }
    CHECK_INT(w.n_categories, 2);
    CHECK_STR(w.date, "2007-04-02");
    CHECK_INT(w.year, 2007);
    CHECK_STR(w.venue, "Phys.Rev.D76:013009,2007");
    CHECK_STR(w.doi, "10.1103/PhysRevD.76.013009");
    CHECK(!w.title_derived);

    /* No versions: the new-style id's YYMM, not update_date. */
    CHECK_INT(decode_arxiv(&a, &w,
        "{\"id\":\"2103.00823\",\"title\":\"T\",\"versions\":[],"
        "\"update_date\":\"2025-01-02\",\"authors\":\"A. B\"}"), 0);
    CHECK_STR(w.date, "2021-03");
    CHECK_INT(w.year, 2021);
    /* Old-style id: archive/YYMMNNN, 19YY from 91. */
    CHECK_INT(decode_arxiv(&a, &w,
        "{\"id\":\"hep-th/9901001\",\"title\":\"T\",\"versions\":[],"
        "\"update_date\":\"2008-01-02\"}"), 0);
    CHECK_STR(w.date, "1999-01");
    CHECK_INT(decode_arxiv(&a, &w,
        "{\"id\":\"math/0211159\",\"title\":\"T\",\"update_date\":\"2008-01-02\"}"),
        0);
    CHECK_INT(w.year, 2002);
    /* An id without a date in it: update_date is the last resort. */
    CHECK_INT(decode_arxiv(&a, &w,
        "{\"id\":\"odd-id\",\"title\":\"T\",\"versions\":[],"
        "\"update_date\":\"2016-05-07\"}"), 0);
    CHECK_STR(w.date, "2016-05-07");
    /* Without authors_parsed, the authors string is split. */
    CHECK_INT(decode_arxiv(&a, &w,
        "{\"id\":\"2101.00001\",\"title\":\"T\",\"authors\":\"Ana Ruiz, "
        "Bo Li (MIT) and J. M\\\\\\\"uller\",\"update_date\":\"2021-01-01\"}"),
        0);
    CHECK_INT(w.n_authors, 3);
    if (w.n_authors == 3) {
        CHECK_STR(w.authors[1], "Bo Li");
        CHECK_STR(w.authors[2], "J. M\xc3\xbcller");
    }
    /* Neither title nor abstract. */
    CHECK(decode_arxiv(&a, &w, "{\"id\":\"2101.00002\",\"update_date\":"
                               "\"2021-01-01\"}") == PDX_SKIP_EMPTY);
    arena_free(&a);
}

static void test_derived_and_json(void)
{
    arena a = {0};
    strbuf why = STRBUF_INIT;
    cJSON *o = cJSON_Parse(
        "{\"abstract\":\"We study glaciers. Then more.\",\"authors\":"
        "\"Wu, Zhihua; Li, Ming\",\"categories\":\"cs.CV, cs.LG\","
        "\"date\":\"2020-05\"}");
    pdx_work w;
    CHECK_INT(jsonl_decode(&a, &w, o, &why), PDX_SKIP_NONE);
    CHECK_INT(record_finish(&a, &w, &why), PDX_SKIP_NONE);
    cJSON_Delete(o);
    CHECK_STR(w.title, "We study glaciers");
    CHECK(w.title_derived);
    CHECK(w.id && !strncmp(w.id, "pdx:", 4) && strlen(w.id) == 20);
    CHECK_INT(w.year, 2020);
    CHECK_INT(w.n_authors, 2);
    if (w.n_authors == 2)
        CHECK_STR(w.authors[0], "Wu, Zhihua");
    CHECK_INT(w.n_categories, 2);

    /* Stored JSON round trip keeps every field. */
    char *json = record_to_json(&w);
    CHECK(json != NULL);
    pdx_work back;
    CHECK_INT(record_from_json(&a, &back, json, strlen(json)), 0);
    CHECK_STR(back.id, w.id);
    CHECK_STR(back.title, w.title);
    CHECK(back.title_derived);
    CHECK_INT(back.year, 2020);
    CHECK_STR(back.date, "2020-05");
    CHECK_INT(back.n_authors, 2);
    free(json);

    /* Wrong types and a year that contradicts the date. */
    const char *bad[] = {"{\"id\":\"x\",\"title\":5}",
                         "{\"id\":\"x\",\"title\":\"t\",\"date\":\"2020-14\"}",
                         "{\"id\":\"x\",\"title\":\"t\",\"year\":\"soon\"}",
                         "{\"id\":\"x\",\"title\":\"t\",\"authors\":[1]}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sb_clear(&why);
        o = cJSON_Parse(bad[i]);
        CHECK_INT(jsonl_decode(&a, &w, o, &why), PDX_SKIP_FIELD);
        cJSON_Delete(o);
    }
    sb_clear(&why);
    o = cJSON_Parse("{\"id\":\"x\",\"title\":\"t\",\"year\":2019,\"date\":\"2020\"}");
    CHECK_INT(jsonl_decode(&a, &w, o, &why), PDX_SKIP_NONE);
    CHECK_INT(record_finish(&a, &w, &why), PDX_SKIP_FIELD);
    cJSON_Delete(o);
    sb_release(&why);
    arena_free(&a);
}

/* Read a whole file; count records and skips; return the final code. */
static int drain(const char *name, int *records, int *skips, char *last_err,
                 size_t errlen)
{
    pdx_reader *r = NULL;
    int rc = pdx_reader_open(&r, check_path(name), NULL);
    *records = *skips = 0;
    last_err[0] = '\0';
    while (rc == 0 || rc == PDX_EINVAL) {
        const pdx_work *w;
        rc = pdx_reader_next(&w, r);
        if (rc == 0)
            (*records)++;
        if (rc == PDX_EINVAL) {
            (*skips)++;
            snprintf(last_err, errlen, "%s", pdx_reader_errmsg(r));
        }
    }
    if (rc != PDX_ITEROVER)
        snprintf(last_err, errlen, "%s", pdx_reader_errmsg(r));
    pdx_reader_free(r);
    return rc;
}

static void test_reader(void)
{
    char err[1024];
    int n, s;
    const char *lines =
        "{\"id\":\"a\",\"title\":\"one\"}\n"
        "\n"
        "{\"id\":\"b\",\"title\":\"bad \xff byte\"}\n"
        "{\"id\":\"c\",\"title\":}\n"
        "{\"id\":\"d\"}\n"
        "[1,2]\n"
        "{\"id\":\"e\",\"title\":\"two\"} trailing\n"
        "{\"id\":\"f\",\"title\":\"last, no newline\"}";
    check_put_file("mixed.jsonl", lines, strlen(lines));
    CHECK_INT(drain("mixed.jsonl", &n, &s, err, sizeof err), PDX_ITEROVER);
    CHECK_INT(n, 2);
    CHECK_INT(s, 5);
    CHECK(strstr(err, "mixed.jsonl:7:") != NULL);

    /* Each skip names file:line and its reason. */
    pdx_reader *r = NULL;
    const pdx_work *w;
    CHECK_INT(pdx_reader_open(&r, check_path("mixed.jsonl"), NULL), 0);
    CHECK_INT(pdx_reader_next(&w, r), 0);
    CHECK_STR(w->id, "a");
    CHECK_INT(pdx_reader_next(&w, r), PDX_EINVAL);
    CHECK_INT(pdx_reader_skip(r), PDX_SKIP_UTF8);
    CHECK(strstr(pdx_reader_errmsg(r), "mixed.jsonl:3: invalid UTF-8") != NULL);
    CHECK_INT(pdx_reader_next(&w, r), PDX_EINVAL);
    CHECK_INT(pdx_reader_skip(r), PDX_SKIP_JSON);
    CHECK(strstr(pdx_reader_errmsg(r), "mixed.jsonl:4: malformed JSON") != NULL);
    CHECK_INT(pdx_reader_next(&w, r), PDX_EINVAL);
    CHECK_INT(pdx_reader_skip(r), PDX_SKIP_EMPTY);
    CHECK_INT(pdx_reader_line(r), 5);
    pdx_reader_free(r);

    /* gzip is recognised by its bytes, whatever the name says. */
    write_gz("really-gzip.txt", "{\"id\":\"g1\",\"title\":\"x\"}\n"
                                "{\"id\":\"g2\",\"title\":\"y\"}\n");
    CHECK_INT(drain("really-gzip.txt", &n, &s, err, sizeof err), PDX_ITEROVER);
    CHECK_INT(n, 2);

    /* A truncated .gz: the records before the break arrive, then EIO
     * with the file and line. */
    strbuf big = STRBUF_INIT;
    for (int i = 0; i < 2000; i++)
        sb_printf(&big, "{\"id\":\"t%d\",\"title\":\"record number %d with "
                        "some words %x\"}\n", i, i, i * 2654435761u);
    write_gz("whole.gz", big.s);
    sb_release(&big);
    FILE *f = fopen(check_path("whole.gz"), "rb");
    char buf[1 << 16];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    CHECK(len > 2000);
    check_put_file("cut.gz", buf, len / 2);
    CHECK_INT(drain("cut.gz", &n, &s, err, sizeof err), PDX_EIO);
    CHECK(n > 0 && n < 2000);
    CHECK(strstr(err, "cut.gz:") != NULL);
    CHECK(strstr(err, "truncated") != NULL);

    /* Missing file, directory. */
    r = NULL;
    CHECK_INT(pdx_reader_open(&r, check_path("nope.jsonl"), NULL),
              PDX_ENOTFOUND);
    CHECK(strstr(pdx_reader_errmsg(r), "nope.jsonl") != NULL);
    pdx_reader_free(r);
    r = NULL;
    CHECK_INT(pdx_reader_open(&r, check_scratch_dir, NULL), PDX_EINVAL);
    pdx_reader_free(r);

    /* A line over PDX_MAX_LINE is skipped on its own; the next is read. */
    size_t huge = PDX_MAX_LINE + 10;
    char *h = malloc(huge + 64);
    CHECK(h != NULL);
    if (h) {
        memset(h, 'x', huge);
        h[0] = '{'; /* JSON lines, as the first byte tells */
        h[huge] = '\n';
        strcpy(h + huge + 1, "{\"id\":\"after\",\"title\":\"t\"}\n");
        check_put_file("long.jsonl", h, strlen(h));
        free(h);
        CHECK_INT(drain("long.jsonl", &n, &s, err, sizeof err), PDX_ITEROVER);
        CHECK_INT(n, 1);
        CHECK_INT(s, 1);
    }
}

/* A file read through a prefetch on its thread gives what the reader
 * gives, call by call: codes, records, lines, offsets, skips, messages,
 * and the end again after the end. */
static void same_through_prefetch(const char *name)
{
    pdx_reader *r = NULL, *raw = NULL;
    prefetch *ra = NULL;
    CHECK_INT(pdx_reader_open(&r, check_path(name), NULL), 0);
    CHECK_INT(pdx_reader_open(&raw, check_path(name), NULL), 0);
    CHECK_INT(prefetch_open(&ra, raw, check_path(name), 1), 0);
    if (!r || !ra)
        return;
    CHECK(prefetch_threaded(ra));
    int differ = 0, rc, ends = 0;
    uint64_t records = 0;
    do {
        const pdx_work *w = NULL, *wa = NULL;
        rc = pdx_reader_next(&w, r);
        int rca = prefetch_next(ra, &wa);
        differ += rc != rca || pdx_reader_line(r) != prefetch_line(ra) ||
                  pdx_reader_offset(r) != prefetch_offset(ra);
        if (rc == 0 && rca == 0) {
            char *j = record_to_json(w), *ja = record_to_json(wa);
            differ += !j || !ja || strcmp(j, ja) != 0 || w == wa;
            free(j);
            free(ja);
            records++;
        } else if (rc == rca) {
            differ += pdx_reader_skip(r) != prefetch_skip(ra) ||
                      strcmp(pdx_reader_errmsg(r), prefetch_errmsg(ra)) != 0;
        }
        if (rc != 0 && rc != PDX_EINVAL)
            ends++; /* read past the end twice more */
    } while ((rc == 0 || rc == PDX_EINVAL || ends < 3) && !differ);
    if (differ)
        fprintf(stderr, "%s: prefetch differs after %llu records\n", name,
                (unsigned long long)records);
    CHECK_INT(differ, 0);
    pdx_reader_free(r);
    prefetch_free(ra);
}

static void test_prefetch(void)
{
    /* record_copy: the copy outlives the record's own arena. */
    arena a = {0}, b = {0};
    pdx_work w = PDX_WORK_INIT, c;
    const char *authors[] = {"Ada Lovelace", "Alan Turing"};
    const char *cats[] = {"cs.LG"}, *subjects[] = {"Engines"};
    w.id = arena_strdup(&a, "x1");
    w.title = arena_strdup(&a, "A title");
    w.abstract = arena_strdup(&a, "An abstract.");
    w.authors = authors;
    w.n_authors = 2;
    w.categories = cats;
    w.n_categories = 1;
    w.subjects = subjects;
    w.n_subjects = 1;
    w.doi = arena_strdup(&a, "10.1/x");
    w.pmid = arena_strdup(&a, "123");
    w.source = arena_strdup(&a, "f.jsonl");
    w.source_key = arena_strdup(&a, "key");
    w.year = 2020;
    w.withdrawn = 1;
    char *before = record_to_json(&w);
    CHECK_INT(record_copy(&b, &c, &w), 0);
    arena_free(&a);
    w = (pdx_work)PDX_WORK_INIT;
    char *after = record_to_json(&c);
    CHECK(before && after && !strcmp(before, after));
    CHECK(c.authors != authors && c.categories != cats &&
          c.subjects != subjects);
    CHECK_STR(c.source_key, "key");
    CHECK_INT(c.withdrawn, 1);
    free(before);
    free(after);
    arena_free(&b);

    /* Files the reader tests wrote: skips of every kind, a broken gzip
     * stream, 2,000 records over many batches, an over-long line. */
    same_through_prefetch("mixed.jsonl");
    same_through_prefetch("cut.gz");
    same_through_prefetch("whole.gz");
    same_through_prefetch("long.jsonl");

    /* Stopped early, with batches waiting: freed at once, nothing
     * leaked (the sanitizer build checks). */
    pdx_reader *raw = NULL;
    prefetch *ra = NULL;
    const pdx_work *got;
    CHECK_INT(pdx_reader_open(&raw, check_path("whole.gz"), NULL), 0);
    CHECK_INT(prefetch_open(&ra, raw, check_path("whole.gz"), 1), 0);
    for (int i = 0; ra && i < 3; i++)
        CHECK_INT(prefetch_next(ra, &got), 0);
    prefetch_free(ra);

    /* Not a regular file: no thread, the reader's own calls. */
    raw = NULL;
    CHECK_INT(pdx_reader_open(&raw, "-", NULL), 0);
    CHECK_INT(prefetch_open(&ra, raw, "-", 1), 0);
    CHECK(ra && !prefetch_threaded(ra));
    prefetch_free(ra);
}

int main(void)
{
    if (check_scratch_init("record"))
        return 1;
    test_dates();
    test_arxiv();
    test_derived_and_json();
    test_reader();
    test_prefetch();
    check_scratch_done();
    return check_done();
}
