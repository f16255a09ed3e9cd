/*
 * batch.c -- `paperdex search --batch FILE`: many queries, one process, one
 * open index.  This is how a test collection is run (bench/eval.sh), and
 * how a program with a list of questions avoids paying for an open per
 * query.
 *
 * The query file is read in one of three forms, told apart by its first
 * non-blank byte:
 *   '{'   BEIR queries, JSON lines {"_id", "text"} -- read by the library's
 *         own BEIR reader;
 *   ".I"  a SMART query file (CACM's query.text): .I number, .W text, and
 *         .A authors, whose family names are added to the query as
 *         author: clauses, so that a query naming people is matched
 *         against the author field as well as the text;
 *   else  one query per line, "qid<TAB>text"; blank lines and lines
 *         starting with '#' are ignored.
 * Every query runs with the same options (filters, k1, b, expansion,
 * limit).  A query that cannot be run is reported as FILE:LINE with its
 * qid and skipped; the others still run, and the exit status is then 1.
 */
#include "batch.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../common/arena.h"
#include "../common/cli.h"

/* One query to run. */
typedef struct bq {
    char *qid;
    char *text;
    unsigned long long line;
} bq;

typedef struct bq_list {
    bq *v;
    size_t n, cap;
} bq_list;

static int bq_add(bq_list *l, const char *qid, size_t nq, const char *text,
                  unsigned long long line)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        bq *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    bq *q = &l->v[l->n];
    q->qid = strndup(qid, nq);
    q->text = strdup(text);
    q->line = line;
    if (!q->qid || !q->text) {
        free(q->qid);
        free(q->text);
        return -1;
    }
    l->n++;
    return 0;
}

static void bq_free(bq_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].qid);
        free(l->v[i].text);
    }
    free(l->v);
}

/* The family name of a display name "Given Family": its last word, kept
 * only if it has letters.  Written into out (NUL-terminated). */
static void family_of(const char *name, char *out, size_t n)
{
    const char *end = name + strlen(name);
    while (end > name && isspace((unsigned char)end[-1]))
        end--;
    const char *start = end;
    while (start > name && !isspace((unsigned char)start[-1]))
        start--;
    size_t k = 0;
    for (const char *p = start; p < end && k + 1 < n; p++)
        if (isalnum((unsigned char)*p) || (unsigned char)*p >= 0x80 ||
            *p == '-' || *p == '\'')
            out[k++] = *p;
    out[k] = '\0';
    int letters = 0;
    for (size_t i = 0; i < k; i++)
        letters += isalpha((unsigned char)out[i]) || (unsigned char)out[i] >= 0x80;
    if (letters < 2)
        out[0] = '\0';
}

/* Queries read as records: BEIR or SMART. */
static int read_records(bq_list *l, const char *path, pdx_format fmt,
                        int *bad)
{
    pdx_reader *r = NULL;
    pdx_reader_options ro = PDX_READER_OPTIONS_INIT;
    ro.format = fmt;
    int rc = pdx_reader_open(&r, path, &ro);
    if (rc) {
        cli_error("%s", pdx_reader_errmsg(r));
        pdx_reader_free(r);
        return -1;
    }
    for (;;) {
        const pdx_work *w;
        rc = pdx_reader_next(&w, r);
        if (rc == PDX_ITEROVER)
            break;
        if (rc == PDX_EINVAL) { /* one bad query; message names file:line */
            cli_error("%s", pdx_reader_errmsg(r));
            (*bad)++;
            continue;
        }
        if (rc) {
            cli_error("%s", pdx_reader_errmsg(r));
            (*bad)++;
            break;
        }
        strbuf t = STRBUF_INIT;
        sb_puts(&t, w->abstract ? w->abstract : w->title ? w->title : "");
        for (size_t i = 0; i < w->n_authors; i++) {
            char fam[256];
            family_of(w->authors[i], fam, sizeof fam);
            if (*fam)
                sb_printf(&t, " author:%s", fam);
        }
        int err = !t.ok || bq_add(l, w->id, strlen(w->id), t.s,
                                  (unsigned long long)w->source_line);
        sb_release(&t);
        if (err) {
            pdx_reader_free(r);
            cli_error("out of memory");
            return -1;
        }
    }
    pdx_reader_free(r);
    return 0;
}

/* "qid<TAB>text" lines. */
static int read_tsv(bq_list *l, FILE *f, const char *path, int *bad)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned long long lineno = 0;
    while ((n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        size_t i = strspn(line, " \t");
        if (line[i] == '\0' || line[i] == '#')
            continue;
        char *tab = strchr(line, '\t');
        if (!tab || tab == line) {
            cli_error("%s:%llu: expected \"qid<TAB>query\", skipped", path,
                      lineno);
            (*bad)++;
            continue;
        }
        if (bq_add(l, line, (size_t)(tab - line), tab + 1, lineno)) {
            free(line);
            cli_error("out of memory");
            return -1;
        }
    }
    free(line);
    if (ferror(f)) {
        cli_error("%s: read error", path);
        return -1;
    }
    return 0;
}

/* Read every query of `path`.  0, or -1 when the file cannot be read at
 * all (message printed); bad entries are counted in *bad. */
static int read_queries(bq_list *l, const char *path, int *bad)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("%s: cannot open: %m", path);
        return -1;
    }
    int c;
    while ((c = getc(f)) != EOF && isspace(c))
        ;
    int c2 = c == '.' ? getc(f) : EOF;
    int rc;
    if (c == '{') {
        fclose(f);
        rc = read_records(l, path, PDX_FORMAT_BEIR, bad);
    } else if (c == '.' && c2 == 'I') {
        fclose(f);
        rc = read_records(l, path, PDX_FORMAT_SMART, bad);
    } else {
        rewind(f);
        rc = read_tsv(l, f, path, bad);
        fclose(f);
    }
    return rc;
}

/* TREC run lines: "qid Q0 docid rank score tag", rank from 1. */
static int print_trec(FILE *out, const char *qid, const pdx_results *r,
                      const char *tag)
{
    for (size_t i = 0; i < pdx_results_count(r); i++) {
        const pdx_hit *h = pdx_results_hit(r, i);
        fprintf(out, "%s Q0 %s %zu %.6f %s\n", qid, h->work.id, h->rank + 1,
                h->score, tag);
    }
    return ferror(out) ? -1 : 0;
}

int search_batch(pdx_index *ix, const pdx_query *base, const char *path,
                 batch_format fmt, const char *tag, FILE *out)
{
    bq_list l = {0};
    int bad = 0;
    if (read_queries(&l, path, &bad)) {
        bq_free(&l);
        return EXIT_ERROR;
    }
    int failed = 0;
    for (size_t i = 0; i < l.n; i++) {
        pdx_query q = *base;
        q.text = l.v[i].text;
        pdx_results *r = NULL;
        int rc = pdx_search(&r, ix, &q);
        if (rc == PDX_ENOMEM || rc == PDX_EIO || rc == PDX_ECORRUPT) {
            cli_error("%s:%llu: query %s: %s", path, l.v[i].line, l.v[i].qid,
                      pdx_errmsg(ix));
            pdx_results_free(r);
            bq_free(&l);
            return EXIT_ERROR;
        }
        if (rc) {
            cli_error("%s:%llu: query %s: %s, skipped", path, l.v[i].line,
                      l.v[i].qid, pdx_errmsg(ix));
            failed++;
            continue;
        }
        int wrc = 0;
        if (fmt == BATCH_TREC) {
            wrc = print_trec(out, l.v[i].qid, r, tag);
        } else {
            for (size_t k = 0; k < pdx_results_count(r) && !wrc; k++) {
                const pdx_hit *h = pdx_results_hit(r, k);
                cJSON *o = cJSON_Parse(h->json);
                char *s = NULL;
                if (!o ||
                    !cJSON_AddStringToObject(o, "qid", l.v[i].qid) ||
                    !cJSON_AddNumberToObject(o, "rank", (double)h->rank + 1) ||
                    !cJSON_AddNumberToObject(o, "score", h->score) ||
                    !(s = cJSON_PrintUnformatted(o)))
                    wrc = -1;
                else
                    wrc = fprintf(out, "%s\n", s) < 0 ? -1 : 0;
                cJSON_free(s);
                cJSON_Delete(o);
            }
        }
        pdx_results_free(r);
        if (wrc) {
            cli_error("cannot write the results");
            bq_free(&l);
            return EXIT_ERROR;
        }
    }
    if (bad || failed)
        cli_error("%s: %zu queries run, %d skipped", path, l.n - (size_t)failed,
                  bad + failed);
    bq_free(&l);
    return bad || failed ? EXIT_ERROR : EXIT_OK_;
}
