/*
 * cmd_stats.c -- `paperdex stats`: what an index holds, in text or JSON.
 */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char help[] =
    "usage: paperdex stats --db DIR [--format text|json] [--sources]\n"
    "\n"
    "Show the number of works, distinct terms and term occurrences, the\n"
    "mean work length, the size on disk, when the index was last committed\n"
    "and last reindexed, and how many source files it remembers.  With\n"
    "--sources, list those files instead: path, size, records read, one\n"
    "line each (text) or one JSON object a line.\n"
    "\n"
    "exit status: 0 ok; 1 the index is missing, damaged or not a paperdex\n"
    "index; 2 usage.\n";

static void iso_time(int64_t t, char out[32])
{
    if (!t) {
        strcpy(out, "never");
        return;
    }
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int print_source(void *ctx, const pdx_source *s)
{
    (void)ctx;
    if (s->mtime_ns == PDX_SOURCE_INCOMPLETE)
        printf("%s\t(being read, or a read was cut off)\n", s->path);
    else
        printf("%s\t%llu bytes\t%llu records\n", s->path,
               (unsigned long long)s->size, (unsigned long long)s->records);
    return 0;
}

static int print_source_json(void *ctx, const pdx_source *s)
{
    (void)ctx;
    cJSON *o = cJSON_CreateObject();
    char *txt = NULL;
    if (o && cJSON_AddStringToObject(o, "path", s->path) &&
        cJSON_AddNumberToObject(o, "size", (double)s->size) &&
        cJSON_AddNumberToObject(o, "records", (double)s->records) &&
        cJSON_AddBoolToObject(o, "complete",
                              s->mtime_ns != PDX_SOURCE_INCOMPLETE))
        txt = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!txt)
        return PDX_ENOMEM;
    printf("%s\n", txt);
    cJSON_free(txt);
    return 0;
}

int cmd_stats(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"format", required_argument, NULL, 'f'},
        {"sources", no_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *db = NULL;
    int json = 0, list_sources = 0, c;
    optind = 1;
    if (cli_query_args("stats", argc, argv, opts, NULL))
        return EXIT_USAGE;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'f':
            if (cli_text_or_json(optarg, &json))
                return EXIT_USAGE;
            break;
        case 's': list_sources = 1; break;
        case 'h': fputs(help, stdout); return EXIT_OK_;
        default: return cli_bad_option("stats", c, argv, opts);
        }
    }
    if (!db)
        db = cli_default_db();
    if (!db || optind != argc) {
        cli_error(!db ? "stats: --db DIR is required"
                      : "stats: unexpected argument '%s'",
                  argv[optind]);
        return EXIT_USAGE;
    }
    int status = EXIT_OK_;
    pdx_index *ix = cli_open_read(db, &status);
    if (!ix)
        return status;
    pdx_stats s = PDX_STATS_INIT;
    int rc = pdx_stats_get(&s, ix);
    if (rc) {
        cli_error("%s", pdx_errmsg(ix));
        pdx_close(ix);
        return cli_exit_for(rc);
    }
    if (list_sources) {
        rc = pdx_source_foreach(ix, json ? print_source_json : print_source,
                                NULL);
        if (rc)
            cli_error("%s", pdx_errmsg(ix));
        pdx_close(ix);
        return rc ? cli_exit_for(rc) : EXIT_OK_;
    }
    pdx_close(ix);
    char when[32], reindexed[32];
    iso_time(s.last_updated, when);
    iso_time(s.last_reindex, reindexed);
    if (json) {
        cJSON *o = cJSON_CreateObject();
        char *txt = NULL;
        if (o && cJSON_AddStringToObject(o, "db", db) &&
            cJSON_AddNumberToObject(o, "works", (double)s.works) &&
            cJSON_AddNumberToObject(o, "terms", (double)s.terms) &&
            cJSON_AddNumberToObject(o, "postings", (double)s.postings) &&
            cJSON_AddNumberToObject(o, "avg_length", s.avg_length) &&
            cJSON_AddNumberToObject(o, "bytes", (double)s.bytes) &&
            cJSON_AddStringToObject(o, "last_updated", when) &&
            cJSON_AddNumberToObject(o, "last_updated_unix",
                                    (double)s.last_updated) &&
            cJSON_AddStringToObject(o, "last_reindex", reindexed) &&
            cJSON_AddNumberToObject(o, "sources", (double)s.sources) &&
            cJSON_AddNumberToObject(o, "layout", s.layout))
            txt = cJSON_Print(o);
        cJSON_Delete(o);
        if (!txt) {
            cli_error("out of memory");
            return EXIT_ERROR;
        }
        printf("%s\n", txt);
        cJSON_free(txt);
        return EXIT_OK_;
    }
    printf("index        %s\n"
           "works        %llu\n"
           "terms        %llu distinct\n"
           "postings     %llu term occurrences\n"
           "avg length   %.1f terms per work\n"
           "size         %.1f MiB (%llu bytes)\n"
           "updated      %s\n"
           "reindexed    %s\n"
           "sources      %llu\n"
           "layout       %d\n",
           db, (unsigned long long)s.works, (unsigned long long)s.terms,
           (unsigned long long)s.postings, s.avg_length,
           (double)s.bytes / (1024.0 * 1024.0), (unsigned long long)s.bytes,
           when, reindexed, (unsigned long long)s.sources, s.layout);
    return EXIT_OK_;
}
