/*
 * cmd_index.c -- `paperdex index`: the command-line face of pdx_sync()
 * (indexer/sync.c), which does the work: bring an index up to date with
 * its sources, doing only the work that changed.  Here: the options, the
 * reports printed as cron and a terminal want them (the first skipped
 * records of each file, named by file and line, in both; a progress bar
 * on a terminal; one summary line), and the exit status.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../searcher/cli.h"

#define MAX_WARNINGS_PER_FILE 20
#define MAX_GLOBS 32

static const char help[] =
    "usage: paperdex index --db DIR [options] SOURCE...\n"
    "\n"
    "Bring the index in DIR (created if needed) up to date with the\n"
    "SOURCEs: files, and directories read recursively.  Files are in any\n"
    "format of --format below, plain or gzip; '-' is standard input, read\n"
    "every time (a pipe, FIFO or device named as a file is refused: each\n"
    "file is read more than once).  Records of one work, from one file or\n"
    "several, are merged into one work.  A re-run reads only new and\n"
    "changed files, and takes out the records of files gone from a named\n"
    "directory that was read cleanly.  Nothing is taken out of a file\n"
    "that was not read cleanly to its end (cut short, a record that cannot\n"
    "be read): its records keep their earlier versions, with a warning.\n"
    "\n"
    "options:\n"
    "  --db DIR           the index directory (default: $PAPERDEX_DB)\n"
    "  --include GLOB     in directories, read only names matching GLOB\n"
    "                     (repeatable; default: every file)\n"
    "  --exclude GLOB     in directories, skip names matching GLOB\n"
    "                     (repeatable; hidden names are always skipped)\n"
    "  --full             rebuild from scratch: the new index is built\n"
    "                     beside DIR (in DIR.full-PID) and replaces it in\n"
    "                     one step when it is whole; until then searches\n"
    "                     see the old one, and a failed or killed run\n"
    "                     leaves DIR as it was.  Needs room for both.\n"
    "  --in-place         with --full: put an empty index in DIR's place\n"
    "                     at once and refill it (no second copy on disk;\n"
    "                     searches see the index refill, and a killed run\n"
    "                     leaves it part built until the next run)\n"
    "  --compact          when the run changed the index, end by putting a\n"
    "                     compacted copy in its place (built beside it in\n"
    "                     DIR.compact-PID): an updated index stays at the\n"
    "                     size a fresh build compacts to, where it would\n"
    "                     otherwise grow by a third to three quarters at\n"
    "                     its first update; costs a compaction and room\n"
    "                     for two copies (see `paperdex compact`)\n"
    "  --xapian-positions when this run makes the index (a new one, or\n"
    "                     with --full or --jobs), keep word positions in\n"
    "                     Xapian's own table, as its rebuilds then do: a\n"
    "                     shard served by xapian-tcpsrv needs it for\n"
    "                     phrases, NEAR and ADJ; larger (the arXiv 101k:\n"
    "                     444 MB against 284 MB) and slower to build\n"
    "  --forget-missing   a named SOURCE that is gone takes its records out\n"
    "                     of the index; without it, a named SOURCE that\n"
    "                     cannot be found or read is an error (exit 1)\n"
    "                     and what the index holds from it is kept\n"
    "  --dry-run          read the sources and count the records that\n"
    "                     would be added, updated and removed; change\n"
    "                     nothing\n"
    "  --wait SECONDS     if another indexer holds the lock, wait for it\n"
    "                     this long instead of exiting with 75\n"
    "  --format FMT       auto (default): JSON lines (arxiv, openalex,\n"
    "                     jsonl or beir, decided per line), MEDLINE/PubMed\n"
    "                     or OAI-PMH XML (by the root element), BibTeX\n"
    "                     (starts with @), PubMed's MEDLINE text, .nbib\n"
    "                     (starts with PMID-), RIS (starts with TY),\n"
    "                     OpenAlex merged_ids CSV, a SMART collection\n"
    "                     (starts with .I) or a profile page whose\n"
    "                     style is detected; or force one of\n"
    "                     arxiv, jsonl, profile, list, abstracts, listing,\n"
    "                     compact, smart, beir, pubmed, openalex, oai,\n"
    "                     bibtex, medline, ris\n"
    "  --page-date DATE   YYYY-MM-DD the pages were saved on: a page date\n"
    "                     without a year (\"Jun 2\") is the latest such day\n"
    "                     not after it (default: each file's mtime)\n"
    "  --batch N          commit every N records (default 1000)\n"
    "  --jobs N           build with N worker threads, each decoding\n"
    "                     every N-th line of a file of JSON lines (or,\n"
    "                     with many files of like sizes, whole files) and\n"
    "                     indexing the works that fall to it (by title)\n"
    "                     into a shard of its own; the shards are merged\n"
    "                     by Xapian's compactor and the result replaces\n"
    "                     DIR (a new index, or with --full; if the build\n"
    "                     fails, DIR is left as it was).\n"
    "                     With one job (the default) on two cores or more,\n"
    "                     a second thread turns records into documents\n"
    "                     while the first writes them\n"
    "  --quiet            print nothing but errors\n"
    "  --verbose          print every file, every record added, updated\n"
    "                     or removed, and every skipped record\n"
    "  --no-progress      no progress bar, even on a terminal\n"
    "  -h, --help         this text\n"
    "\n"
    "Output: on stderr, errors, warnings and the first 20 skipped records\n"
    "of each file, each named FILE:LINE with its reason (then a count;\n"
    "--verbose: all), on a terminal and in cron alike; on a terminal, a\n"
    "progress bar; on stdout, one summary line:\n"
    "  sources: A added, U updated, R removed, N unchanged; records: N\n"
    "  read, A added, U updated, R removed, K unchanged, S skipped-bad;\n"
    "  W works in the index; T s\n"
    "A file read before is compared record by record (each known by its\n"
    "id, arXiv id or DOI, else its line, and its content): unchanged\n"
    "records, moved ones too, cost no index work.\n"
    "\n"
    "exit status: 0 done; 3 done, but some records were skipped as bad\n"
    "(counted in the summary); 1 a source could not be read or broke off\n"
    "(the rest was indexed), or the index failed; 2 usage; 75 another\n"
    "indexer holds the index lock (see --wait).\n";

/* What the reports print, and the state of the per-file warning limit
 * and of the progress bar. */
/* The skipped records of one file being read.  Several files are read at
 * once when --jobs workers read whole files of their own, so each keeps
 * its own count, and a warning always names the file it is about.  (A
 * file whose lines the workers share ends once, when the last of them
 * is done with it.) */
typedef struct file_skips {
    char *path;
    unsigned warned; /* warnings printed */
    uint64_t skips;  /* records skipped  */
} file_skips;

typedef struct view {
    int quiet, verbose, progress, tty, dry_run;
    unsigned jobs;
    file_skips *fs; /* the files with skips not yet reported at their end */
    size_t n_fs, cap_fs;
    double start, last_draw;
    /* the bar on the screen: drawn and not yet ended by a newline, the
     * run's records it showed, the file it names */
    int bar_open;
    uint64_t records;
    char bar_name[64];
} view;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void draw_progress(view *v, const char *name, uint64_t records,
                          uint64_t off, uint64_t size, int final)
{
    double t = now();
    if (!final && t - v->last_draw < 0.2)
        return;
    v->last_draw = t;
    v->bar_open = !final;
    double el = t - v->start;
    double rate = el > 0 ? (double)records / el : 0;
    char bar[31];
    int pct = size ? (int)(100.0 * (double)off / (double)size) : -1;
    if (pct > 100)
        pct = 100;
    int fill = pct < 0 ? 0 : pct * 30 / 100;
    for (int i = 0; i < 30; i++)
        bar[i] = i < fill ? '#' : '-';
    bar[30] = '\0';
    if (pct >= 0)
        fprintf(stderr, "\r[%s] %3d%% %10llu records %8.0f/s  %.30s\033[K",
                bar, pct, (unsigned long long)records, rate, name);
    else
        fprintf(stderr, "\r%10llu records %8.0f/s  %.30s\033[K",
                (unsigned long long)records, rate, name);
    if (final)
        fputc('\n', stderr);
}

/* The skip counts of `path`, made with create; NULL if absent (or out of
 * memory: then every warning is printed). */
static file_skips *skips_of(view *v, const char *path, int create)
{
    for (size_t i = 0; i < v->n_fs; i++)
        if (!strcmp(v->fs[i].path, path))
            return &v->fs[i];
    if (!create)
        return NULL;
    if (v->n_fs == v->cap_fs) {
        size_t cap = v->cap_fs ? 2 * v->cap_fs : 4;
        file_skips *n = realloc(v->fs, cap * sizeof *n);
        if (!n)
            return NULL;
        v->fs = n;
        v->cap_fs = cap;
    }
    char *copy = strdup(path);
    if (!copy)
        return NULL;
    v->fs[v->n_fs] = (file_skips){copy, 0, 0};
    return &v->fs[v->n_fs++];
}

static int on_event(void *ctx, const pdx_sync_event *ev)
{
    view *v = ctx;
    /* Skipped records are named, file:line and why, on a terminal and in
     * cron alike: the first MAX_WARNINGS_PER_FILE of each file, then a
     * count (--verbose: all). */
    int show = !v->quiet;
    switch (ev->kind) {
    case PDX_SYNC_ADD:
    case PDX_SYNC_UPDATE:
    case PDX_SYNC_REMOVE:
        if (v->dry_run ? !v->quiet : v->verbose)
            printf("%s %s\n",
                   ev->kind == PDX_SYNC_ADD      ? "add"
                   : ev->kind == PDX_SYNC_UPDATE ? "update"
                                                 : "remove",
                   ev->path);
        break;
    case PDX_SYNC_SKIP: {
        file_skips *fs = skips_of(v, ev->path ? ev->path : "", 1);
        if (fs)
            fs->skips++;
        if (show && (v->verbose || !fs || fs->warned < MAX_WARNINGS_PER_FILE)) {
            if (v->progress)
                fputc('\n', stderr);
            fprintf(stderr, "warning: %s\n", ev->message);
            if (fs)
                fs->warned++;
        }
        break;
    }
    case PDX_SYNC_PROGRESS:
        v->records = ev->records;
        if (v->progress) {
            snprintf(v->bar_name, sizeof v->bar_name, "%s", ev->path);
            draw_progress(v, ev->path, ev->records, ev->offset, ev->size, 0);
        }
        break;
    case PDX_SYNC_SOURCE_DONE: {
        /* The file's bar ends at 100%.  With several workers the end of
         * each file is reported (by the last worker done with a file they
         * share, by each for a page every worker decodes): the bar ends
         * once, after the run (main). */
        if (v->progress && v->jobs == 1)
            draw_progress(v, ev->path, v->records, 1, 1, 1);
        /* (Where each worker reports the end, the skips met after the
         * first report are told at the next.) */
        file_skips *fs = skips_of(v, ev->path ? ev->path : "", 0);
        if (fs) {
            if (show && fs->skips > fs->warned)
                fprintf(stderr, "warning: %s: %llu more records skipped (use "
                                "--verbose to list them)\n",
                        ev->path, (unsigned long long)(fs->skips - fs->warned));
            free(fs->path);
            *fs = v->fs[--v->n_fs];
        }
        break;
    }
    case PDX_SYNC_MERGE:
        /* The bar stays on the screen while the shards are merged, and
         * says so (the merge reports nothing else). */
        if (v->verbose)
            printf("merging %s\n", ev->message);
        if (v->progress) {
            v->last_draw = 0;
            draw_progress(v, "merging the shards", ev->records, 1, 1, 0);
        }
        break;
    case PDX_SYNC_ERROR:
        cli_error("%s", ev->message);
        break;
    case PDX_SYNC_NOTE:
        if (!v->quiet)
            fprintf(stderr, "note: %s\n", ev->message);
        break;
    case PDX_SYNC_WARNING:
        fprintf(stderr, "warning: %s\n", ev->message);
        break;
    case PDX_SYNC_RECORD_ADD:
    case PDX_SYNC_RECORD_UPDATE:
    case PDX_SYNC_RECORD_REMOVE:
        /* --verbose lists the records that changed (on a file's first
         * read, every record). */
        if (v->verbose) {
            const char *what = ev->kind == PDX_SYNC_RECORD_ADD ? "add"
                               : ev->kind == PDX_SYNC_RECORD_UPDATE
                                   ? "update"
                                   : "remove";
            if (ev->line)
                printf("  %s record %s:%llu %s\n", what, ev->path,
                       (unsigned long long)ev->line,
                       ev->message ? ev->message : "");
            else
                printf("  %s record %s %s\n", what, ev->path,
                       ev->message ? ev->message : "");
        }
        break;
    }
    return 0;
}

/* How many works the index at db holds now, or -1 when it cannot be
 * read (none made yet by a dry run, or another writer replacing it). */
static long long works_now(const char *db)
{
    pdx_index *ix = NULL;
    uint64_t n = 0;
    long long out = -1;
    if (pdx_open(&ix, db, PDX_OPEN_READ) == 0 && pdx_count_works(&n, ix) == 0)
        out = (long long)n;
    pdx_close(ix);
    return out;
}

static void summary(const pdx_sync_summary *s, int dry_run, long long works)
{
    printf("sources: %llu added, %llu updated, %llu removed, %llu "
           "unchanged; records: %llu read, %llu added, %llu updated, %llu "
           "removed, %llu unchanged, %llu skipped-bad",
           (unsigned long long)s->sources_added,
           (unsigned long long)s->sources_updated,
           (unsigned long long)s->sources_removed,
           (unsigned long long)s->sources_unchanged,
           (unsigned long long)s->records_read,
           (unsigned long long)s->records_added,
           (unsigned long long)s->records_updated,
           (unsigned long long)s->records_removed,
           (unsigned long long)s->records_unchanged,
           (unsigned long long)s->records_skipped);
    const char *sep = " (";
    for (int k = 1; k < PDX_SKIP__COUNT; k++)
        if (s->skipped[k]) {
            printf("%s%s: %llu", sep, pdx_skip_name((pdx_skip)k),
                   (unsigned long long)s->skipped[k]);
            sep = ", ";
        }
    if (s->invalid) {
        printf("%sinvalid work: %llu", sep, (unsigned long long)s->invalid);
        sep = ", ";
    }
    printf("%s", sep[0] == ',' ? ")" : "");
    if (works >= 0)
        printf("; %lld work%s in the index", works, works == 1 ? "" : "s");
    printf("; %.2f s%s", s->seconds,
           dry_run ? " (dry run: records counted, nothing changed)" : "");
    if (s->sources_failed)
        printf("; %u source%s could not be read, or not to the end "
               "(named above)",
               s->sources_failed, s->sources_failed == 1 ? "" : "s");
    if (s->compact_after)
        printf("; compacted %.1f MB -> %.1f MB in %.2f s",
               (double)s->compact_before / 1e6, (double)s->compact_after / 1e6,
               s->compact_seconds);
    if (s->kept_old)
        printf("; the rebuild failed: the index is as it was");
    else if (s->upgraded_from)
        printf("; rebuilt from index layout %d to layout %d beside the old "
               "one, which was searchable until the swap",
               s->upgraded_from, PDX_LAYOUT_VERSION);
    printf("\n");
}

int cmd_index(int argc, char **argv)
{
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},
        {"format", required_argument, NULL, 'f'},
        {"page-date", required_argument, NULL, 'D'},
        {"batch", required_argument, NULL, 'b'},
        {"include", required_argument, NULL, 'I'},
        {"exclude", required_argument, NULL, 'X'},
        {"full", no_argument, NULL, 'F'},
        {"in-place", no_argument, NULL, 'i'},
        {"compact", no_argument, NULL, 'C'},
        {"xapian-positions", no_argument, NULL, 'x'},
        {"dry-run", no_argument, NULL, 'n'},
        {"forget-missing", no_argument, NULL, 'G'},
        {"wait", required_argument, NULL, 'w'},
        {"quiet", no_argument, NULL, 'q'},
        {"verbose", no_argument, NULL, 'v'},
        {"no-progress", no_argument, NULL, 'P'},
        {"jobs", required_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *db = NULL;
    const char *include[MAX_GLOBS], *exclude[MAX_GLOBS];
    pdx_sync_options o = PDX_SYNC_OPTIONS_INIT;
    view v;
    memset(&v, 0, sizeof v);
    size_t jobs = 1;
    int no_progress = 0, c;
    o.include = include;
    o.exclude = exclude;
    o.batch = PDX_DEFAULT_BATCH;
    optind = 1;
    if (cli_query_args("index", argc, argv, opts, NULL))
        return EXIT_USAGE;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'f':
            if (pdx_format_parse(optarg, &o.format)) {
                cli_error("--format takes auto, arxiv, jsonl, profile, list, "
                          "abstracts, listing, compact, smart, beir, pubmed, "
                          "openalex, oai, bibtex, medline or ris, not '%s'",
                          optarg);
                return EXIT_USAGE;
            }
            break;
        case 'D':
            if (strlen(optarg) != 10 || optarg[4] != '-' || optarg[7] != '-') {
                cli_error("--page-date takes YYYY-MM-DD, not '%s'", optarg);
                return EXIT_USAGE;
            }
            o.page_date = optarg;
            break;
        case 'b':
            if (cli_size(optarg, 10000000, &o.batch) || o.batch == 0) {
                cli_error("--batch takes a number from 1 to 10000000");
                return EXIT_USAGE;
            }
            break;
        case 'I':
        case 'X': {
            size_t *n = c == 'I' ? &o.n_include : &o.n_exclude;
            if (*n == MAX_GLOBS) {
                cli_error("at most %d --include and --exclude each", MAX_GLOBS);
                return EXIT_USAGE;
            }
            (c == 'I' ? include : exclude)[(*n)++] = optarg;
            break;
        }
        case 'F': o.full = 1; break;
        case 'i': o.in_place = 1; break;
        case 'C': o.compact = 1; break;
        case 'x': o.xapian_positions = 1; break;
        case 'n': o.dry_run = v.dry_run = 1; break;
        case 'G': o.forget_missing = 1; break;
        case 'w':
            if (cli_double(optarg, &o.wait) || o.wait < 0 || o.wait > 86400) {
                cli_error("--wait takes seconds, from 0 to 86400");
                return EXIT_USAGE;
            }
            break;
        case 'q': v.quiet = 1; break;
        case 'v': v.verbose = 1; break;
        case 'P': no_progress = 1; break;
        case 'j':
            if (cli_size(optarg, PDX_MAX_JOBS, &jobs) || jobs == 0) {
                cli_error("--jobs takes a number from 1 to %d", PDX_MAX_JOBS);
                return EXIT_USAGE;
            }
            break;
        case 'h': fputs(help, stdout); return EXIT_OK_;
        default: return cli_bad_option("index", c, argv, opts);
        }
    }
    if (!db)
        db = cli_default_db();
    if (!db) {
        cli_error("index: --db DIR is required");
        fputs(help, stderr);
        return EXIT_USAGE;
    }
    if (optind >= argc) {
        cli_error("index: no sources (files or directories; '-' for "
                  "standard input)");
        return EXIT_USAGE;
    }
    o.jobs = (unsigned)jobs;
    v.tty = isatty(STDERR_FILENO);
    v.progress = !no_progress && !v.quiet && v.tty && !v.dry_run;
    v.jobs = (unsigned)jobs;
    v.start = now();
    o.progress = on_event;
    o.progress_ctx = &v;

    pdx_sync_summary s = PDX_SYNC_SUMMARY_INIT;
    int rc = pdx_sync(&s, db, (const char *const *)argv + optind,
                      (size_t)(argc - optind), &o);
    if (v.bar_open) /* several workers: their sum, now exact */
        draw_progress(&v, v.bar_name, s.records_indexed, 1, 1, 1);
    for (size_t i = 0; i < v.n_fs; i++) /* a run stopped midway */
        free(v.fs[i].path);
    free(v.fs);
    if (!s.started) {
        /* Refused before anything was done: bad options, or an index
         * that could not be opened (locked, foreign, damaged). */
        cli_error("%s", s.message[0] ? s.message : pdx_strerror(rc));
        return cli_exit_for(rc);
    }
    if (v.verbose && jobs > 1 && !rc)
        printf("merged %zu group%s of works split across workers\n",
               s.regrouped, s.regrouped == 1 ? "" : "s");
    if (!v.quiet)
        summary(&s, o.dry_run, works_now(db));
    if (rc)
        return cli_exit_for(rc) == EXIT_LOCKED ? EXIT_LOCKED : EXIT_ERROR;
    if (s.sources_failed)
        return EXIT_ERROR;
    return s.records_skipped ? EXIT_SKIPPED : EXIT_OK_;
}
