/*
 * cli.c -- `paperdex`: the command table and what every subcommand shares.
 *
 * Like git, each subcommand lives in its own cmd_*.c file (indexer/ and
 * searcher/) and has its own --help; this file only dispatches.
 */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} commands[] = {
    {"index", cmd_index, "Add records from JSON lines and profile pages"},
    {"compact", cmd_compact, "Write a compacted copy of an index, or merge several"},
    {"search", cmd_search, "Rank works by BM25, with filters"},
    {"show", cmd_show, "Print works with all their fields and sources"},
    {"similar", cmd_similar, "List the works most like one work"},
    {"stats", cmd_stats, "Show what an index holds"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: paperdex <command> [--help] [options]\n\n"
               "Full-text search for scientific papers.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'paperdex <command> --help' describes a command.\n"
               "'paperdex --version' prints the version.\n\n"
               "exit status: 0 ok, 1 error, 2 usage, 3 records skipped "
               "(index),\n75 index locked by another writer.\n");
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("paperdex: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_exit_for(int code)
{
    switch (code) {
    case 0: return EXIT_OK_;
    case PDX_ELOCKED: return EXIT_LOCKED;
    case PDX_EQUERY:
    case PDX_EINVAL: return EXIT_USAGE;
    default: return EXIT_ERROR;
    }
}

int cli_size(const char *s, size_t max, size_t *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = (size_t)v;
    return 0;
}

int cli_text_or_json(const char *s, int *json)
{
    if (strcmp(s, "text") && strcmp(s, "json")) {
        cli_error("--format takes text or json, not '%s'", s);
        return -1;
    }
    *json = !strcmp(s, "json");
    return 0;
}

int cli_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || !*s || *end)
        return -1;
    *out = v;
    return 0;
}

pdx_index *cli_open_read(const char *db, int *status)
{
    return cli_open_shards(&db, 1, status);
}

pdx_index *cli_open_shards(const char *const *dbs, size_t n, int *status)
{
    pdx_index *ix = NULL;
    int rc = pdx_open_shards(&ix, dbs, n);
    if (rc) {
        cli_error("%s", pdx_errmsg(ix));
        pdx_close(ix);
        *status = cli_exit_for(rc);
        return NULL;
    }
    return ix;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        if (argc > 2 && strcmp(cmd, "help") == 0) {
            char help[] = "--help";
            char *sub[] = {argv[2], help, NULL};
            for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
                if (!strcmp(commands[i].name, argv[2]))
                    return commands[i].fn(2, sub);
        }
        usage(stdout);
        return EXIT_OK_;
    }
    if (!strcmp(cmd, "--version")) {
        printf("paperdex %s\n", pdx_version());
        return EXIT_OK_;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, cmd))
            return commands[i].fn(argc - 1, argv + 1);
    cli_error("'%s' is not a paperdex command; see 'paperdex --help'", cmd);
    return EXIT_USAGE;
}
