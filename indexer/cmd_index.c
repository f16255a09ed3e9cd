/*
 * cmd_index.c -- `paperdex index`: read record files and add their works
 * to an index.
 *
 * Each file is streamed through a pdx_reader and each record goes to
 * pdx_put(); a commit every --batch works bounds the writer's memory (Xapian
 * buffers uncommitted changes in RAM) and makes progress durable.  A bad
 * record is reported as file:line and counted; a file that cannot be read,
 * or breaks off (a truncated .gz), is reported and the next file is read;
 * the works already read stay indexed.  Only a failure of the index itself
 * (locked, full disk, damaged) stops the run.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/cli.h"

#define DEFAULT_BATCH 1000
#define MAX_WARNINGS_PER_FILE 20

static const char help[] =
    "usage: paperdex index --db DIR [options] FILE...\n"
    "\n"
    "Add the works in FILEs (JSON lines or profile pages, plain or gzip;\n"
    "'-' is standard input) to the index in DIR, creating it if needed.\n"
    "Records of the same work, from one file or several, are merged into\n"
    "one work; reading the same record again replaces it.\n"
    "\n"
    "options:\n"
    "  --db DIR           the index directory (required)\n"
    "  --format FMT       auto (default): JSON lines (arxiv or jsonl,\n"
    "                     decided per line) or a profile page whose style\n"
    "                     is detected; or force one of arxiv, jsonl,\n"
    "                     profile, list, abstracts, listing, compact\n"
    "  --page-date DATE   YYYY-MM-DD the pages were saved on: a page date\n"
    "                     without a year (\"Jun 2\") is the latest such day\n"
    "                     not after it (default: each file's mtime)\n"
    "  --batch N          commit every N works (default 1000)\n"
    "  --quiet            print nothing but errors\n"
    "  --verbose          print every skipped record (default: the first\n"
    "                     20 per file)\n"
    "  --no-progress      no progress bar, even on a terminal\n"
    "  -h, --help         this text\n"
    "\n"
    "exit status: 0 all records indexed; 3 done, but some records were\n"
    "skipped as bad; 1 a file could not be read or the index failed (the\n"
    "works read before that stay indexed); 2 usage; 75 another writer\n"
    "holds the index lock.\n";

typedef struct run {
    pdx_index *ix;
    size_t batch;
    int quiet, verbose, progress;
    uint64_t read, indexed, since_commit;
    uint64_t skipped[PDX_SKIP__COUNT];
    uint64_t invalid; /* refused by pdx_put */
    int files_failed;
    int fatal;        /* pdx error code that stopped the run */
    struct timespec start;
    double last_draw;
} run;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void draw_progress(run *r, const char *name, uint64_t off,
                          uint64_t size, int final)
{
    double t = now();
    if (!final && t - r->last_draw < 0.2)
        return;
    r->last_draw = t;
    double el = t - ((double)r->start.tv_sec + (double)r->start.tv_nsec / 1e9);
    double rate = el > 0 ? (double)r->indexed / el : 0;
    char bar[31];
    int pct = size ? (int)(100.0 * (double)off / (double)size) : -1;
    if (pct > 100)
        pct = 100;
    int fill = pct < 0 ? 0 : pct * 30 / 100;
    for (int i = 0; i < 30; i++)
        bar[i] = i < fill ? '#' : '-';
    bar[30] = '\0';
    if (pct >= 0)
        fprintf(stderr, "\r[%s] %3d%% %10llu works %8.0f/s  %.30s\033[K", bar,
                pct, (unsigned long long)r->indexed, rate, name);
    else
        fprintf(stderr, "\r%10llu works %8.0f/s  %.30s\033[K",
                (unsigned long long)r->indexed, rate, name);
    if (final)
        fputc('\n', stderr);
}

static int commit(run *r)
{
    int rc = pdx_commit(r->ix);
    if (rc) {
        cli_error("commit failed: %s", pdx_errmsg(r->ix));
        r->fatal = rc;
    }
    r->since_commit = 0;
    return rc;
}

static void index_file(run *r, const char *path,
                       const pdx_reader_options *ro)
{
    pdx_reader *rd = NULL;
    int rc = pdx_reader_open(&rd, path, ro);
    if (rc) {
        cli_error("%s", pdx_reader_errmsg(rd));
        pdx_reader_free(rd);
        r->files_failed++;
        return;
    }
    uint64_t size = 0;
    struct stat st;
    if (strcmp(path, "-") && stat(path, &st) == 0)
        size = (uint64_t)st.st_size;
    unsigned warned = 0;
    uint64_t file_skips = 0;
    for (;;) {
        const pdx_work *w;
        rc = pdx_reader_next(&w, rd);
        if (rc == PDX_ITEROVER)
            break;
        if (rc == PDX_EIO) {
            cli_error("%s", pdx_reader_errmsg(rd));
            r->files_failed++;
            break;
        }
        if (rc == PDX_EINVAL) {
            r->read++;
            r->skipped[pdx_reader_skip(rd)]++;
            file_skips++;
            if (!r->quiet && (r->verbose || warned < MAX_WARNINGS_PER_FILE)) {
                if (r->progress)
                    fputc('\n', stderr);
                fprintf(stderr, "warning: %s\n", pdx_reader_errmsg(rd));
                warned++;
            }
            continue;
        }
        r->read++;
        rc = pdx_put(r->ix, w);
        if (rc == PDX_EINVAL) {
            r->invalid++;
            file_skips++;
            if (!r->quiet && (r->verbose || warned < MAX_WARNINGS_PER_FILE)) {
                fprintf(stderr, "warning: %s:%llu: %s, skipped\n", path,
                        (unsigned long long)pdx_reader_line(rd),
                        pdx_errmsg(r->ix));
                warned++;
            }
            continue;
        }
        if (rc) {
            cli_error("%s:%llu: %s", path,
                      (unsigned long long)pdx_reader_line(rd),
                      pdx_errmsg(r->ix));
            r->fatal = rc;
            break;
        }
        r->indexed++;
        if (++r->since_commit >= r->batch && commit(r))
            break;
        if (r->progress)
            draw_progress(r, path, pdx_reader_offset(rd), size, 0);
    }
    if (r->progress)
        draw_progress(r, path, size, size, 1);
    if (!r->quiet && file_skips > warned)
        fprintf(stderr, "warning: %s: %llu more records skipped (use "
                        "--verbose to list them)\n",
                path, (unsigned long long)(file_skips - warned));
    pdx_reader_free(rd);
}

int cmd_index(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"format", required_argument, NULL, 'f'},
        {"page-date", required_argument, NULL, 'D'},
        {"batch", required_argument, NULL, 'b'},
        {"quiet", no_argument, NULL, 'q'},
        {"verbose", no_argument, NULL, 'v'},
        {"no-progress", no_argument, NULL, 'P'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *db = NULL;
    pdx_reader_options ro = PDX_READER_OPTIONS_INIT;
    run r;
    memset(&r, 0, sizeof r);
    r.batch = DEFAULT_BATCH;
    int no_progress = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'f':
            if (pdx_format_parse(optarg, &ro.format)) {
                cli_error("--format takes auto, arxiv, jsonl, profile, list, "
                          "abstracts, listing or compact, not '%s'",
                          optarg);
                return EXIT_USAGE;
            }
            break;
        case 'D':
            if (strlen(optarg) != 10 || optarg[4] != '-' || optarg[7] != '-') {
                cli_error("--page-date takes YYYY-MM-DD, not '%s'", optarg);
                return EXIT_USAGE;
            }
            ro.page_date = optarg;
            break;
        case 'b':
            if (cli_size(optarg, 10000000, &r.batch) || r.batch == 0) {
                cli_error("--batch takes a number from 1 to 10000000");
                return EXIT_USAGE;
            }
            break;
        case 'q': r.quiet = 1; break;
        case 'v': r.verbose = 1; break;
        case 'P': no_progress = 1; break;
        case 'h': fputs(help, stdout); return EXIT_OK_;
        default: fputs(help, stderr); return EXIT_USAGE;
        }
    }
    if (!db) {
        cli_error("index: --db DIR is required");
        fputs(help, stderr);
        return EXIT_USAGE;
    }
    if (optind >= argc) {
        cli_error("index: no input files (use '-' for standard input)");
        return EXIT_USAGE;
    }
    r.progress = !no_progress && !r.quiet && isatty(STDERR_FILENO);

    int rc = pdx_open(&r.ix, db, PDX_OPEN_WRITE | PDX_OPEN_CREATE);
    if (rc) {
        cli_error("%s", pdx_errmsg(r.ix));
        pdx_close(r.ix);
        return cli_exit_for(rc);
    }
    clock_gettime(CLOCK_MONOTONIC, &r.start);
    for (int i = optind; i < argc && !r.fatal; i++)
        index_file(&r, argv[i], &ro);
    if (!r.fatal)
        commit(&r);
    pdx_close(r.ix);

    uint64_t skipped = r.invalid;
    for (int k = 0; k < PDX_SKIP__COUNT; k++)
        skipped += r.skipped[k];
    if (!r.quiet) {
        double el = now() - ((double)r.start.tv_sec +
                             (double)r.start.tv_nsec / 1e9);
        printf("indexed %llu works from %d file%s in %.1f s: read %llu "
               "records, skipped %llu",
               (unsigned long long)r.indexed, argc - optind,
               argc - optind == 1 ? "" : "s", el,
               (unsigned long long)r.read, (unsigned long long)skipped);
        const char *sep = " (";
        for (int k = 1; k < PDX_SKIP__COUNT; k++)
            if (r.skipped[k]) {
                printf("%s%s: %llu", sep, pdx_skip_name((pdx_skip)k),
                       (unsigned long long)r.skipped[k]);
                sep = ", ";
            }
        if (r.invalid) {
            printf("%sinvalid work: %llu", sep, (unsigned long long)r.invalid);
            sep = ", ";
        }
        printf("%s", sep[0] == ',' ? ")" : "");
        if (r.files_failed)
            printf("; %d file%s could not be read to the end",
                   r.files_failed, r.files_failed == 1 ? "" : "s");
        printf("\n");
    }
    if (r.fatal)
        return cli_exit_for(r.fatal) == EXIT_LOCKED ? EXIT_LOCKED : EXIT_ERROR;
    if (r.files_failed)
        return EXIT_ERROR;
    return skipped ? EXIT_SKIPPED : EXIT_OK_;
}
