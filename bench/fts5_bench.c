/*
 * fts5_bench.c -- the SQLite FTS5 side of bench/compare.py: the same
 * records and the same queries as paperdex, through Debian's libsqlite3.
 *
 *   fts5_bench index DB FILE.jsonl[.gz]
 *       One FTS5 table papers(title, abstract, authors, id UNINDEXED,
 *       year UNINDEXED, cats UNINDEXED), tokenize='porter unicode61'
 *       (Porter stemming, Unicode case folding), filled in transactions of
 *       1000 rows -- paperdex's commit batch -- with journal_mode=WAL and
 *       synchronous=NORMAL.  Then 'optimize' merges the b-trees (FTS5's
 *       compaction).  Prints one JSON line: records, seconds, peak RSS,
 *       size before and after optimize.
 *
 *   fts5_bench query DB QUERIES [REPEAT]
 *       Each line of QUERIES is "kind<TAB>words<TAB>filter", as
 *       compare.py writes them: words OR-ed ("a" OR "b"), or one phrase
 *       when kind is "phrase"; filter "year=2024", "cat=cs.LG" or empty.
 *       Ranked by bm25(papers, 2, 1, 1): title words count twice, as
 *       paperdex's default field counts them.  Top 10.  Prints one JSON
 *       line with every query's latency in microseconds.
 *
 * Records are read with zlib and cJSON, like paperdex's own reader, in
 * paperdex's JSON-lines schema (bench/gen_corpus.py) or the arXiv one.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>

#include "bench_queries.h"

static long peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static long long file_size(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? (long long)st.st_size : 0;
}

static void die(sqlite3 *db, const char *what)
{
    fprintf(stderr, "fts5_bench: %s: %s\n", what, db ? sqlite3_errmsg(db) : "");
    exit(1);
}

static void exec(sqlite3 *db, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "fts5_bench: %s: %s\n", sql, err ? err : "");
        exit(1);
    }
}

/* A string field, or a JSON array of strings joined by sep, into buf. */
static const char *field(const cJSON *o, const char *key, char *buf,
                         size_t n, const char *sep)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    buf[0] = '\0';
    if (cJSON_IsString(v))
        return v->valuestring;
    if (cJSON_IsArray(v)) {
        size_t len = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, v) if (cJSON_IsString(e))
        {
            int w = snprintf(buf + len, n - len, "%s%s", len ? sep : "",
                             e->valuestring);
            if (w < 0 || (size_t)w >= n - len)
                break;
            len += (size_t)w;
        }
    }
    return buf;
}

static int cmd_index(const char *path, const char *src)
{
    remove(path);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK)
        die(db, path);
    exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
    exec(db, "CREATE VIRTUAL TABLE papers USING fts5(title, abstract, "
             "authors, id UNINDEXED, year UNINDEXED, cats UNINDEXED, "
             "tokenize='porter unicode61')");
    sqlite3_stmt *ins;
    if (sqlite3_prepare_v2(db, "INSERT INTO papers VALUES (?,?,?,?,?,?)", -1,
                           &ins, NULL) != SQLITE_OK)
        die(db, "prepare");
    gzFile gz = gzopen(src, "rb");
    if (!gz) {
        fprintf(stderr, "fts5_bench: cannot open %s\n", src);
        return 1;
    }
    gzbuffer(gz, 1 << 16);
    static char line[1 << 22];
    static char authors[1 << 16], cats[4096];
    long long records = 0, bytes = 0;
    double t0 = now();
    exec(db, "BEGIN");
    while (gzgets(gz, line, sizeof line)) {
        bytes += (long long)strlen(line);
        cJSON *o = cJSON_Parse(line);
        if (!o)
            continue;
        const cJSON *yv = cJSON_GetObjectItemCaseSensitive(o, "year");
        int year = cJSON_IsNumber(yv) ? yv->valueint : 0;
        const char *date = field(o, "update_date", cats, sizeof cats, " ");
        if (!year && date && strlen(date) >= 4)
            year = atoi(date);
        sqlite3_bind_text(ins, 1, field(o, "title", authors, 1, ""), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(ins, 2, field(o, "abstract", authors, 1, ""), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(ins, 3, field(o, "authors", authors, sizeof authors, ", "), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(ins, 4, field(o, "id", cats, 1, ""), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(ins, 5, year);
        sqlite3_bind_text(ins, 6, field(o, "categories", cats, sizeof cats, " "), -1, SQLITE_TRANSIENT);
        if (sqlite3_step(ins) != SQLITE_DONE)
            die(db, "insert");
        sqlite3_reset(ins);
        cJSON_Delete(o);
        if (++records % 1000 == 0) {
            exec(db, "COMMIT");
            exec(db, "BEGIN");
        }
    }
    exec(db, "COMMIT");
    gzclose(gz);
    sqlite3_finalize(ins);
    exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
    double t1 = now();
    long long before = file_size(path);
    exec(db, "INSERT INTO papers(papers) VALUES('optimize')");
    exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
    exec(db, "VACUUM");
    double t2 = now();
    long long after = file_size(path);
    sqlite3_close(db);
    printf("{\"records\": %lld, \"input_bytes\": %lld, \"seconds\": %.3f, "
           "\"peak_rss_kb\": %ld, \"bytes\": %lld, \"bytes_optimized\": %lld, "
           "\"optimize_seconds\": %.3f}\n",
           records, bytes, t1 - t0, peak_rss_kb(), before, after, t2 - t1);
    return 0;
}

/* "a b c" -> "a" OR "b" OR "c"; a phrase -> "a b". */
static void match_expr(const char *kind, const char *words, char *out,
                       size_t n)
{
    size_t len = 0;
    if (!strcmp(kind, "phrase")) {
        snprintf(out, n, "\"%s\"", words);
        return;
    }
    char *copy = strdup(words), *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        int k = snprintf(out + len, n - len, "%s\"%s\"", len ? " OR " : "", w);
        if (k < 0 || (size_t)k >= n - len)
            break;
        len += (size_t)k;
    }
    free(copy);
}

static int cmd_query(const char *path, const char *qfile, int repeat)
{
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        die(db, path);
    /* compare.py starts two of these at once: the one that finds the WAL
     * index being set up by the other waits instead of failing (seen:
     * SQLITE_BUSY ended a whole run). */
    sqlite3_busy_timeout(db, 10000);
    const char *base = "SELECT id, bm25(papers, 2.0, 1.0, 1.0, 0, 0, 0) AS s "
                       "FROM papers WHERE papers MATCH ?1";
    char sql[3][512];
    snprintf(sql[0], sizeof sql[0], "%s ORDER BY s LIMIT 10", base);
    snprintf(sql[1], sizeof sql[1], "%s AND year = ?2 ORDER BY s LIMIT 10", base);
    snprintf(sql[2], sizeof sql[2],
             "%s AND (' ' || cats || ' ') LIKE ?2 ORDER BY s LIMIT 10", base);
    sqlite3_stmt *st[3];
    for (int i = 0; i < 3; i++)
        if (sqlite3_prepare_v2(db, sql[i], -1, &st[i], NULL) != SQLITE_OK)
            die(db, "prepare");
    bench_query *qs = NULL;
    long nq = read_queries(qfile, &qs);
    if (nq < 0)
        return 1;
    /* PDX_QBENCH_IDS=FILE: the first pass's hits, one line a query, their
     * ids tab-separated, as pdx_qbench writes them (bench/titles.py). */
    const char *ids_path = getenv("PDX_QBENCH_IDS");
    FILE *ids = NULL;
    if (ids_path && !(ids = fopen(ids_path, "w"))) {
        perror(ids_path);
        return 1;
    }
    printf("{\"latency_us\": [");
    long long hits = 0;
    double t0 = now();
    for (int r = 0; r < repeat; r++)
        for (long i = 0; i < nq; i++) {
            const char *filter = qs[i].filter;
            char expr[2048], arg[128];
            match_expr(qs[i].kind, qs[i].words, expr, sizeof expr);
            sqlite3_stmt *s = st[0];
            double q0 = now();
            if (!strncmp(filter, "year=", 5)) {
                s = st[1];
                sqlite3_bind_int(s, 2, atoi(filter + 5));
            } else if (!strncmp(filter, "cat=", 4)) {
                s = st[2];
                snprintf(arg, sizeof arg, "%% %s %%", filter + 4);
                sqlite3_bind_text(s, 2, arg, -1, SQLITE_TRANSIENT);
            }
            sqlite3_bind_text(s, 1, expr, -1, SQLITE_TRANSIENT);
            int rc, k = 0;
            while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
                hits++;
                if (ids && r == 0)
                    fprintf(ids, "%s%s", k++ ? "\t" : "",
                            (const char *)sqlite3_column_text(s, 0));
            }
            if (ids && r == 0)
                fputc('\n', ids);
            if (rc != SQLITE_DONE)
                die(db, expr);
            sqlite3_reset(s);
            double q1 = now();
            printf("%s%.1f", r || i ? ", " : "", (q1 - q0) * 1e6);
        }
    double t1 = now();
    printf("], \"seconds\": %.3f, \"hits\": %lld, \"peak_rss_kb\": %ld}\n",
           t1 - t0, hits, peak_rss_kb());
    if (ids && fclose(ids) != 0) {
        perror(ids_path);
        return 1;
    }
    for (int i = 0; i < 3; i++)
        sqlite3_finalize(st[i]);
    sqlite3_close(db);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && !strcmp(argv[1], "index"))
        return cmd_index(argv[2], argv[3]);
    if (argc >= 4 && !strcmp(argv[1], "query"))
        return cmd_query(argv[2], argv[3], argc > 4 ? atoi(argv[4]) : 1);
    fprintf(stderr, "usage: fts5_bench index DB FILE | query DB QUERIES [REPEAT]\n");
    return 2;
}
