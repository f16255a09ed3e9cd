/*
 * cmd_compact.c -- `paperdex compact`: write a compacted copy of an index,
 * or merge several into one (pdx_compact: Xapian's compactor).  After a big
 * build the copy is smaller (full B-tree blocks, no free space) and faster
 * to search; it is a new directory, so the old index keeps serving until
 * it is swapped in.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../searcher/cli.h"

#define MAX_DBS 64

static const char help[] =
    "usage: paperdex compact --db DIR [--db DIR...] OUT\n"
    "\n"
    "Write a compacted copy of the index DIR to the new directory OUT; with\n"
    "several --db, merge them into one index (works are renumbered; a\n"
    "work in two of them would be in OUT twice).  OUT must not exist.  The\n"
    "sources' fingerprints are kept, so `paperdex index --db OUT` goes on\n"
    "incrementally.  Prints the size before and after.\n"
    "\n"
    "exit status: 0 done; 1 an index is missing or damaged, OUT exists, or\n"
    "writing failed; 2 usage.\n";

/* Bytes of the regular files directly in dir (an index is flat). */
static long long dir_bytes(const char *dir)
{
    static const char *const names[] = {"docdata.glass", "postlist.glass",
                                        "position.glass", "termlist.glass",
                                        "spelling.glass", "synonym.glass",
                                        "iamglass"};
    long long total = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[4096];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if (stat(p, &st) == 0)
            total += (long long)st.st_size;
    }
    return total;
}

int cmd_compact(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *dbs[MAX_DBS];
    size_t n = 0;
    int c;
    optind = 1;
    if (cli_query_args("compact", argc, argv, opts, NULL))
        return EXIT_USAGE;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (n == MAX_DBS) {
                cli_error("at most %d --db", MAX_DBS);
                return EXIT_USAGE;
            }
            dbs[n++] = optarg;
            break;
        case 'h': fputs(help, stdout); return EXIT_OK_;
        default: return cli_bad_option("compact", c, argv, opts);
        }
    }
    if (!n || optind + 1 != argc) {
        cli_error("compact: --db DIR and one OUT directory are required");
        fputs(help, stderr);
        return EXIT_USAGE;
    }
    const char *out = argv[optind];
    int status = EXIT_OK_;
    pdx_index *ix = cli_open_shards(dbs, n, &status);
    if (!ix)
        return status;
    long long before = 0;
    for (size_t i = 0; i < n; i++)
        before += dir_bytes(dbs[i]);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = pdx_compact(ix, out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc) {
        cli_error("%s", pdx_errmsg(ix));
        status = cli_exit_for(rc);
    } else {
        double secs = (double)(t1.tv_sec - t0.tv_sec) +
                      (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        long long after = dir_bytes(out);
        printf("compacted %zu index%s into %s: %.1f MB -> %.1f MB in %.1f s\n",
               n, n == 1 ? "" : "es", out, (double)before / 1e6,
               (double)after / 1e6, secs);
    }
    pdx_close(ix);
    return status;
}
