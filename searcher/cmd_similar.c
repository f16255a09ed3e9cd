/*
 * cmd_similar.c -- `paperdex similar`: more papers like this one, by
 * relevance feedback (pdx_similar: Xapian's expand set over the work's
 * title and abstract terms).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"

static const char help[] =
    "usage: paperdex similar --db DIR [--limit N] [--format F] ID\n"
    "\n"
    "List the works most like the work ID (its id, an id any of its\n"
    "sources gave, or its arXiv id): the words and stems that best set its\n"
    "title and abstract apart from the rest of the index are searched with\n"
    "BM25.  The work itself is not listed.\n"
    "\n"
    "options:\n"
    "  --limit N          works to show (default 10, at most 10000)\n"
    "  --format F         text (default), json or jsonl\n"
    "\n"
    "exit status: 0 ok; 1 no work has that id, or the index is missing,\n"
    "damaged or not a paperdex index; 2 usage.\n";

int cmd_similar(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"limit", required_argument, NULL, 'l'},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *db = NULL;
    size_t limit = PDX_DEFAULT_LIMIT;
    out_format fmt = OUT_TEXT;
    int c;
    optind = 1;
    if (cli_query_args("similar", argc, argv, opts, NULL))
        return EXIT_USAGE;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'l':
            if (cli_size(optarg, PDX_MAX_LIMIT, &limit)) {
                cli_error("--limit takes a number from 0 to %d", PDX_MAX_LIMIT);
                return EXIT_USAGE;
            }
            break;
        case 'f':
            if (out_parse_format(optarg, &fmt)) {
                cli_error("--format takes text, json or jsonl");
                return EXIT_USAGE;
            }
            break;
        case 'h': fputs(help, stdout); return EXIT_OK_;
        default: return cli_bad_option("similar", c, argv, opts);
        }
    }
    if (!db)
        db = cli_default_db();
    if (!db || optind + 1 != argc) {
        cli_error("similar: --db DIR and one ID are required");
        fputs(help, stderr);
        return EXIT_USAGE;
    }
    int status = EXIT_OK_;
    pdx_index *ix = cli_open_read(db, &status);
    if (!ix)
        return status;
    pdx_results *r = NULL;
    char label[256];
    snprintf(label, sizeof label, "similar:%s", argv[optind]);
    int rc = pdx_similar(&r, ix, argv[optind], limit);
    if (rc) {
        cli_error("%s", pdx_errmsg(ix));
        status = rc == PDX_ENOTFOUND ? EXIT_ERROR : cli_exit_for(rc);
    } else if (out_results(stdout, fmt, label, r, 0, limit,
                           cli_color(stdout), 0)) {
        cli_error("cannot write the results");
        status = EXIT_ERROR;
    }
    pdx_results_free(r);
    pdx_close(ix);
    return status;
}
