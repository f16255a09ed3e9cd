/*
 * cli.c -- what every `paperdex` subcommand shares: the error line, exit
 * statuses, argument helpers, opening an index for reading.  Part of the
 * command-line program only, not of the library.  The command table and
 * main() are in main.c.
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <utf8proc.h>

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

int cli_utf8_valid(const char *s, size_t n)
{
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
    while (n) {
        utf8proc_int32_t c;
        utf8proc_ssize_t k = utf8proc_iterate(p, (utf8proc_ssize_t)n, &c);
        if (k <= 0)
            return 0;
        p += k;
        n -= (size_t)k;
    }
    return 1;
}

void cli_family_term(const char *name, char *out, size_t n)
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

/* Does arg name a long option of opts that takes a separate value ("--db
 * X"; not "--db=X")?  Exact names first, then a unique prefix, as
 * getopt_long reads them. */
static int takes_next(const char *arg, const struct option *opts)
{
    const char *name = arg + 2;
    if (strchr(name, '='))
        return 0;
    size_t n = strlen(name);
    const struct option *hit = NULL;
    int hits = 0;
    for (const struct option *o = opts; o->name; o++) {
        if (!strcmp(o->name, name))
            return o->has_arg == required_argument;
        if (!strncmp(o->name, name, n)) {
            hit = o;
            hits++;
        }
    }
    return hits == 1 && hit->has_arg == required_argument;
}

int cli_query_args(const char *cmd, int argc, char **argv,
                   const struct option *opts, int *words_at)
{
    if (words_at)
        *words_at = argc;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (argv[i][0] == '-' && argv[i][1] == '-' && i + 1 == argc &&
            takes_next(argv[i], opts)) {
            cli_error("%s: option %s needs a value (see paperdex %s --help)",
                      cmd, argv[i], cmd);
            return EXIT_USAGE;
        }
    }
    char **order = malloc(sizeof *order * (size_t)(argc > 0 ? argc : 1));
    if (!order || argc < 2) {
        free(order);
        return 0;
    }
    int n_opts = 0, n_words = 0, seen_word = 0;
    char **words = order + argc; /* filled downwards, reversed below */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            order[n_opts++] = argv[i];
            for (i++; i < argc; i++)
                *--words = argv[i], n_words++;
            break;
        }
        int dashed = a[0] == '-' && a[1] != '\0';
        /* one '-' and a space: a pasted query that opens with an
         * excluded word ("-survey graph neural networks"), never an
         * option (the only short one is -h) */
        int is_opt = dashed && (!seen_word || a[1] == '-') &&
                     !(a[1] != '-' && strchr(a, ' '));
        if (!is_opt) {
            *--words = argv[i];
            n_words++;
            seen_word = 1;
            continue;
        }
        order[n_opts++] = argv[i];
        if (a[1] == '-' && takes_next(a, opts) && i + 1 < argc)
            order[n_opts++] = argv[++i];
    }
    /* the words, back in their order, after the options */
    for (int k = 0; k < n_words; k++)
        argv[1 + n_opts + k] = order[argc - 1 - k];
    for (int k = 0; k < n_opts; k++)
        argv[1 + k] = order[k];
    free(order);
    if (words_at)
        *words_at = 1 + n_opts;
    return 0;
}

/* Levenshtein distance of a[0..n) and b, capped at 9. */
static unsigned edits(const char *a, size_t n, const char *b)
{
    size_t m = strlen(b);
    if (n > 40 || m > 40)
        return 9;
    unsigned row[41];
    for (size_t j = 0; j <= m; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= n; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= m; j++) {
            unsigned up = row[j];
            unsigned best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m] > 9 ? 9 : row[m];
}

int cli_bad_option(const char *cmd, int c, char **argv,
                   const struct option *opts)
{
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    if (c == ':') {
        cli_error("%s: option %s needs a value (see paperdex %s --help)", cmd,
                  arg, cmd);
        return EXIT_USAGE;
    }
    /* An unknown short option (getopt_long sets optopt to 0 for a long
     * one): the argument that holds it is argv[optind] while getopt is
     * still inside it, else argv[optind - 1]. */
    if (optopt) {
        const char *in = argv[optind] && argv[optind][0] == '-' &&
                                 argv[optind][1] != '-' &&
                                 strchr(argv[optind] + 1, optopt)
                             ? argv[optind]
                             : arg;
        if (strlen(in) <= 2)
            cli_error("%s: unknown option -%c (see paperdex %s --help)", cmd,
                      optopt, cmd);
        else
            cli_error("%s: unknown option -%c in %s (%ssee paperdex %s --help)",
                      cmd, optopt, in,
                      !strcmp(cmd, "search") || !strcmp(cmd, "similar")
                          ? "a query that begins with an excluded word goes "
                            "after --; "
                          : "",
                      cmd);
        return EXIT_USAGE;
    }
    const char *name = arg[0] == '-' && arg[1] == '-' ? arg + 2 : arg;
    size_t n = strcspn(name, "=");
    const char *best = NULL;
    unsigned best_d = 9;
    int ambiguous = 0;
    for (const struct option *o = opts; o->name; o++) {
        if (n && !strncmp(o->name, name, n) && strlen(o->name) > n)
            ambiguous++;
        unsigned d = edits(name, n, o->name);
        if (d < best_d) {
            best_d = d;
            best = o->name;
        }
    }
    if (ambiguous > 1)
        cli_error("%s: option --%.*s is ambiguous (see paperdex %s --help)",
                  cmd, (int)n, name, cmd);
    else if (best && best_d <= (n > 5 ? 2u : 1u))
        cli_error("%s: unknown option --%.*s; did you mean --%s?", cmd,
                  (int)n, name, best);
    else
        cli_error("%s: unknown option %s (see paperdex %s --help)", cmd, arg,
                  cmd);
    return EXIT_USAGE;
}

const char *cli_default_db(void)
{
    const char *e = getenv("PAPERDEX_DB");
    return e && *e ? e : NULL;
}

int cli_color(FILE *f)
{
    const char *no = getenv("NO_COLOR");
    return isatty(fileno(f)) && !(no && *no);
}
