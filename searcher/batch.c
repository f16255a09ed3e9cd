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
 *         authorword: clauses, so that a query naming people is matched
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

#include "cli.h"

/* Why qid cannot name a query in a TREC run line ("qid Q0 docid rank
 * score tag", split on white space), or NULL if it can. */
static const char *bad_qid(const char *qid, size_t n)
{
    if (n == 0)
        return "an empty query id";
    if (n > PDX_ID_MAX)
        return "a query id over 200 bytes";
    if (!cli_utf8_valid(qid, n))
        return "a query id that is not valid UTF-8";
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)qid[i] <= 0x20 || qid[i] == 0x7f)
            return "a query id with white space or a control character";
    return NULL;
}

/* Append a query.  0; 1 when its qid is refused (reported as path:line,
 * counted in *bad); -1 out of memory. */
static int bq_add(batch_queries *l, const char *path, const char *qid,
                  size_t nq, const char *text, unsigned long long line,
                  int *bad)
{
    const char *why = bad_qid(qid, nq);
    if (why) {
        cli_error("%s:%llu: %s, skipped", path, line, why);
        (*bad)++;
        return 1;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        batch_query *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    batch_query *q = &l->v[l->n];
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

void batch_queries_free(batch_queries *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].qid);
        free(l->v[i].text);
    }
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* Queries read as records: BEIR or SMART. */
static int read_records(batch_queries *l, const char *path, pdx_format fmt,
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
        char *t = NULL;
        size_t tn = 0;
        FILE *tf = open_memstream(&t, &tn);
        int err = tf ? 0 : -1;
        if (tf) {
            fputs(w->abstract ? w->abstract : w->title ? w->title : "", tf);
            for (size_t i = 0; i < w->n_authors; i++) {
                char fam[256];
                cli_family_term(w->authors[i], fam, sizeof fam);
                if (*fam)
                    fprintf(tf, " authorword:%s", fam);
            }
            err = fclose(tf) ? -1 : 0;
        }
        if (!err)
            err = bq_add(l, path, w->id, strlen(w->id), t,
                         (unsigned long long)w->source_line, bad);
        free(t);
        if (err < 0) {
            pdx_reader_free(r);
            cli_error("out of memory");
            return -1;
        }
    }
    pdx_reader_free(r);
    return 0;
}

/* "qid<TAB>text" lines. */
static int read_tsv(batch_queries *l, FILE *f, const char *path, int *bad)
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
        char *qid = line + strspn(line, " ");
        char *tab = strchr(qid, '\t');
        if (!tab) {
            cli_error("%s:%llu: expected \"qid<TAB>query\", skipped", path,
                      lineno);
            (*bad)++;
            continue;
        }
        if (bq_add(l, path, qid, (size_t)(tab - qid), tab + 1, lineno,
                   bad) < 0) {
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

int batch_read_queries(batch_queries *l, const char *path, int *bad)
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
        fprintf(out, "%s Q0 %s %zu %.6f %s\n", qid, h->work->id, h->rank + 1,
                h->score, tag);
    }
    return ferror(out) ? -1 : 0;
}

int search_batch(pdx_index *ix, const pdx_query *base, const char *path,
                 batch_format fmt, const char *tag, FILE *out)
{
    batch_queries l = {0};
    int bad = 0;
    if (batch_read_queries(&l, path, &bad)) {
        batch_queries_free(&l);
        return EXIT_ERROR;
    }
    int failed = 0;
    for (size_t i = 0; i < l.n; i++) {
        pdx_query q = *base;
        q.text = l.v[i].text;
        pdx_results *r = NULL;
        int rc = pdx_search(&r, ix, &q);
        if (!rc && pdx_results_note(r))
            fprintf(stderr, "note: %s:%llu: query %s: %s\n", path, l.v[i].line,
                    l.v[i].qid, pdx_results_note(r));
        if (rc == PDX_ENOMEM || rc == PDX_EIO || rc == PDX_ECORRUPT) {
            cli_error("%s:%llu: query %s: %s", path, l.v[i].line, l.v[i].qid,
                      pdx_errmsg(ix));
            pdx_results_free(r);
            batch_queries_free(&l);
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
            batch_queries_free(&l);
            return EXIT_ERROR;
        }
    }
    if (bad || failed)
        cli_error("%s: %zu queries run, %d skipped", path, l.n - (size_t)failed,
                  bad + failed);
    batch_queries_free(&l);
    return bad || failed ? EXIT_ERROR : EXIT_OK_;
}
