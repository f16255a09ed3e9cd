/*
 * cli.c -- what every `paperdex` subcommand shares: the error line, exit
 * statuses, argument helpers, opening an index for reading.  Part of the
 * command-line program only, not of the library.  The command table and
 * main() are in main.c.
 */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
