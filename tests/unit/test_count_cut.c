/*
 * test_count_cut.c -- a count or a ranking cut short by its time says so.
 *
 * The total a search shows is exact up to count_limit; counting stops
 * after 1 s (or the query's time_limit), and the total is then what was
 * counted, a lower bound (PDX_TOTAL_GTE, "4,321+ matches"), never an
 * estimate shown as a count.  A ranking stopped by its time_limit gives
 * the best of the works it met, with a note.  No index small enough for
 * a test takes a second to count, so PDX_TEST_STOP_STEPS (searcher/
 * bm25.hh, RankStop) ends each time-limited match at its first clock
 * check from that many steps on, whatever the clock.
 *
 * Each query runs twice on one index of invented works: without the
 * variable its total must be exact and equal to the truth known from how
 * the works were made; with it, the count must be cut (PDX_TOTAL_GTE, a
 * total below the truth) and the page -- ranked in a match of its own,
 * which has no time limit -- the same as before.  Two ways of counting
 * are met: the second match of count_total (an OR of words under a year
 * filter, whose page is found before the match), and count_by_phrases
 * (a quoted phrase, counted before its ranking).  Rankings under a
 * time_limit that count every match (exact_total: an OR of words, a
 * phrase ranked over its counted works) or hold more than 32 words are
 * stopped too: a note, and a lower bound, or the exact total where a
 * word every work holds gives it.
 *
 * Each source's own clock check (BM25OrSource's walk, IdsSource) only
 * ends it sooner than the match's RankStopSource would: no outcome here
 * tells them apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/paperdex.h"
#include "check.h"

enum { N = 3000 };

/* Work i: "common" in every title; "lattice" next to it in the even
 * ones' titles, far from it in the abstracts of those with i % 4 == 1,
 * nowhere in the others; ten of the words filler0 to filler39 in its
 * abstract (each in a quarter of the works); the year 2000 + i % 20. */
static int build(const char *path)
{
    pdx_index *ix = NULL;
    int rc = pdx_open(&ix, path, PDX_OPEN_WRITE | PDX_OPEN_CREATE);
    for (int i = 0; i < N && rc == 0; i++) {
        char id[32], title[128], abstract[512];
        snprintf(id, sizeof id, "cut.%05d", i);
        snprintf(title, sizeof title, "%s number%d",
                 i % 2 ? "common graph" : "common lattice", i);
        int len = snprintf(abstract, sizeof abstract,
                           "a study of %s with many more words between them %s",
                           i % 4 == 1 ? "lattice" : "spectra",
                           i % 3 ? "entropy" : "kernel");
        for (int k = 0; k < 10; k++)
            len += snprintf(abstract + len, sizeof abstract - (size_t)len,
                            " filler%d", (i + 4 * k) % 40);
        rc = check_put_work(ix, id, title, abstract, 2000 + i % 20);
    }
    return check_build_done(ix, path, rc);
}

struct outcome {
    long total;
    int gte;
    char page[512]; /* the first hits' ids and scores (17 digits) */
    char note[512];
};

/* Searches q on ix into *o; -1 on an error (printed). */
static int run(pdx_index *ix, const pdx_query *q, struct outcome *o)
{
    pdx_results *r = NULL;
    memset(o, 0, sizeof *o);
    if (pdx_search(&r, ix, q) != 0) {
        fprintf(stderr, "%s: %s\n", q->text, pdx_errmsg(ix));
        pdx_results_free(r);
        return -1;
    }
    size_t at = 0;
    for (size_t i = 0; i < pdx_results_count(r) && at < sizeof o->page; i++)
        at += (size_t)snprintf(o->page + at, sizeof o->page - at, "%s:%.17g ",
                               pdx_results_hit(r, i)->work->id,
                               pdx_results_hit(r, i)->score);
    o->total = (long)pdx_results_total(r);
    o->gte = pdx_results_total_relation(r) == PDX_TOTAL_GTE;
    const char *note = pdx_results_note(r);
    snprintf(o->note, sizeof o->note, "%s", note ? note : "");
    pdx_results_free(r);
    return 0;
}

/* q searched whole (no PDX_TEST_STOP_STEPS) into *whole, which must be
 * exact and truth, then cut short (PDX_TEST_STOP_STEPS=64) into *cut. */
static void whole_then_cut(pdx_index *ix, const pdx_query *q, long truth,
                           struct outcome *whole, struct outcome *cut)
{
    unsetenv("PDX_TEST_STOP_STEPS");
    CHECK_INT(run(ix, q, whole), 0);
    CHECK_INT(whole->total, truth);
    CHECK_INT(whole->gte, 0);
    setenv("PDX_TEST_STOP_STEPS", "64", 1);
    CHECK_INT(run(ix, q, cut), 0);
    unsetenv("PDX_TEST_STOP_STEPS");
}

/* q's count, whole and cut: exact and equal to truth without the
 * variable; a lower bound with it, the page unchanged. */
static void counted(pdx_index *ix, const pdx_query *q, long truth)
{
    struct outcome whole, cut;
    whole_then_cut(ix, q, truth, &whole, &cut);
    CHECK(strchr(whole.page, ':') != NULL);
    if (!cut.gte || cut.total >= truth)
        fprintf(stderr, "%s: cut count %ld (%s), truth %ld\n", q->text,
                cut.total, cut.gte ? "gte" : "eq", truth);
    CHECK_INT(cut.gte, 1);
    CHECK(cut.total < truth);
    CHECK_STR(cut.page, whole.page);
}

/* q's ranking under its time_limit: whole, exact and without a note;
 * stopped, a note that the hits are the best of the works it met, and
 * a lower bound -- or, with known, still the exact count, which an OR
 * holding a word every work holds knows from that word's count. */
static void stopped(pdx_index *ix, const pdx_query *q, long truth, int known)
{
    struct outcome whole, cut;
    whole_then_cut(ix, q, truth, &whole, &cut);
    CHECK(strstr(whole.note, "best of the works") == NULL);
    if (cut.gte == known || (known ? cut.total != truth : cut.total >= truth))
        fprintf(stderr, "%s: stopped count %ld (%s), truth %ld\n", q->text,
                cut.total, cut.gte ? "gte" : "eq", truth);
    CHECK_INT(cut.gte, !known);
    CHECK(known ? cut.total == truth : cut.total < truth);
    CHECK(strstr(cut.note, "best of the works") != NULL);
}

int main(void)
{
    if (check_scratch_init("count-cut"))
        return 1;
    char path[300];
    snprintf(path, sizeof path, "%s", check_path("db"));
    if (build(path)) {
        CHECK(0);
        check_scratch_done();
        return check_done();
    }
    pdx_index *ix = NULL;
    CHECK_INT(pdx_open(&ix, path, PDX_OPEN_READ), 0);
    if (ix) {
        /* An OR of words under a filter over ten years (i % 20 in
         * 4..13): the page is found before the match
         * (BM25OrSource::choose()), whose bounds are then loose, so a
         * second match counts. */
        pdx_query q = PDX_QUERY_INIT;
        q.text = "graph lattice";
        q.year_min = 2004;
        q.year_max = 2013;
        q.limit = 5;
        counted(ix, &q, N / 2);

        /* the even works: their titles' phrase */
        q = (pdx_query)PDX_QUERY_INIT;
        q.text = "\"common lattice\"";
        q.limit = 5;
        counted(ix, &q, N / 2);

        /* Counted by the ranking itself (exact_total) under a time
         * limit: an OR of words, and a phrase whose works are counted
         * first and then ranked alone (IdsSource). */
        q = (pdx_query)PDX_QUERY_INIT;
        q.text = "common lattice";
        q.exact_total = 1;
        q.time_limit = 60;
        q.limit = 5;
        stopped(ix, &q, N, 0);
        q.text = "\"common lattice\"";
        stopped(ix, &q, N / 2, 0);

        /* A query of more than 32 words is ranked under its time limit
         * too, and its page found before the match: that pass, which
         * the match cannot interrupt, stops on its own.  Its words are
         * common, so that the pass walks every work; "common", in
         * every work, keeps the total exact. */
        char many[1024] = "common lattice";
        for (int i = 0; i < 40; i++)
            snprintf(many + strlen(many), sizeof many - strlen(many),
                     " filler%d", i);
        q = (pdx_query)PDX_QUERY_INIT;
        q.text = many;
        q.time_limit = 60;
        q.limit = 5;
        stopped(ix, &q, N, 1);
    }
    pdx_close(ix);
    check_scratch_done();
    return check_done();
}
