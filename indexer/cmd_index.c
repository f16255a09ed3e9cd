/*
 * cmd_index.c -- `paperdex index`: bring an index up to date with its
 * sources, doing only the work that changed.
 *
 * The sources are the files named, and every file below the directories
 * named (include/exclude globs apply to names found in directories).  The
 * index keeps each source's fingerprint (path, size, modification time,
 * content hash; pdx_source_*).  A run:
 *
 *   1. lists the sources now present, in sorted order;
 *   2. forgets every source it remembers under a named location that is no
 *      longer there (pdx_source_remove: its records leave the works they
 *      fed; a work fed only by it goes);
 *   3. skips a source whose size and mtime are unchanged without opening
 *      it, and one whose content hash is unchanged after reading it;
 *   4. re-reads a new or changed source: its old records are removed, a
 *      provisional fingerprint stored (so that a crash leaves no record
 *      the next run does not know of), its current records put (merging
 *      with other sources' records), and its real fingerprint stored -- in
 *      the same commit as its last records, so a crash never leaves a
 *      fingerprint for records that are not there.
 *
 * Commits happen after each changed source and every --batch records
 * within one (Xapian holds uncommitted changes in memory), so a reader
 * always sees a whole commit, a crash loses at most the current batch,
 * and the next run finishes the work.  The result is the same as a fresh
 * build from the same sources (`--full`), which the equivalence test
 * checks step by step.
 */
#define _GNU_SOURCE /* nftw, renameat2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/cli.h"

#define DEFAULT_BATCH 1000
#define MAX_WARNINGS_PER_FILE 20
#define MAX_GLOBS 32
#define MAX_JOBS 64

static const char help[] =
    "usage: paperdex index --db DIR [options] SOURCE...\n"
    "\n"
    "Bring the index in DIR (created if needed) up to date with the\n"
    "SOURCEs: files, and directories read recursively.  Files are JSON\n"
    "lines or profile pages, plain or gzip; '-' is standard input, read\n"
    "every time.  Records of one work, from one file or several, are merged\n"
    "into one work.  A re-run reads only new and changed files, and takes\n"
    "out the records of files that are gone from the named locations.\n"
    "\n"
    "options:\n"
    "  --db DIR           the index directory (required)\n"
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
    "  --dry-run          say what would change; change nothing\n"
    "  --wait SECONDS     if another indexer holds the lock, wait for it\n"
    "                     this long instead of exiting with 75\n"
    "  --format FMT       auto (default): JSON lines (arxiv, jsonl or\n"
    "                     beir, decided per line), a SMART collection\n"
    "                     (starts with .I) or a profile page whose style\n"
    "                     is detected; or force one of arxiv, jsonl,\n"
    "                     profile, list, abstracts, listing, compact,\n"
    "                     smart, beir\n"
    "  --page-date DATE   YYYY-MM-DD the pages were saved on: a page date\n"
    "                     without a year (\"Jun 2\") is the latest such day\n"
    "                     not after it (default: each file's mtime)\n"
    "  --batch N          commit every N records (default 1000)\n"
    "  --jobs N           build with N worker processes, each indexing\n"
    "                     every N-th record into a shard of its own; the\n"
    "                     shards are merged by Xapian's compactor and the\n"
    "                     result replaces DIR (a new index, or with --full;\n"
    "                     if the build fails, DIR is left as it was)\n"
    "  --quiet            print nothing but errors\n"
    "  --verbose          print every file and every skipped record\n"
    "  --no-progress      no progress bar, even on a terminal\n"
    "  -h, --help         this text\n"
    "\n"
    "Output: on a terminal, a progress bar and the first 20 skipped records\n"
    "of each file; elsewhere (cron) only errors and one summary line:\n"
    "  sources: A added, U updated, R removed, N unchanged; records: ...\n"
    "\n"
    "exit status: 0 done; 3 done, but some records were skipped as bad\n"
    "(counted in the summary); 1 a source could not be read or broke off\n"
    "(the rest was indexed), or the index failed; 2 usage; 75 another\n"
    "indexer holds the index lock (see --wait).\n";

typedef struct run {
    pdx_index *ix;
    size_t batch;
    int quiet, verbose, progress, tty, dry_run, full;
    int upgrade; /* the index had this older layout: rebuilt beside it */
    int keep_tmp; /* --jobs: the work directory holds the old index */
    int kept_old; /* a rebuild beside failed: the old index is untouched */
    pdx_reader_options ro;
    const char *include[MAX_GLOBS], *exclude[MAX_GLOBS];
    size_t n_include, n_exclude;
    /* sources found now */
    char **files;
    size_t n_files, cap_files;
    /* named locations */
    char **roots;
    int *root_is_dir;
    size_t n_roots;
    /* counts */
    uint64_t added, updated, removed, unchanged;
    uint64_t read, indexed, since_commit;
    uint64_t skipped[PDX_SKIP__COUNT];
    uint64_t invalid;
    int files_failed;
    int fatal;
    double start, last_draw;
    /* --jobs: this process indexes the records r with r % part_n == part_k
     * of every source (part_n 0: all) */
    unsigned part_k, part_n;
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
    double el = t - r->start;
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
        fprintf(stderr, "\r[%s] %3d%% %10llu records %8.0f/s  %.30s\033[K",
                bar, pct, (unsigned long long)r->indexed, rate, name);
    else
        fprintf(stderr, "\r%10llu records %8.0f/s  %.30s\033[K",
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

/* "a//b/./c/" -> "a/b/c": one spelling per path, so that a source is
 * known by the same name on every run. */
static char *normalize(const char *p)
{
    size_t n = strlen(p);
    char *s = malloc(n + 1), *o = s;
    if (!s)
        return NULL;
    for (size_t i = 0; i < n;) {
        if (p[i] == '/' && o > s && o[-1] == '/') {
            i++;
            continue;
        }
        if (p[i] == '.' && (i == 0 || p[i - 1] == '/') &&
            (i + 1 == n || p[i + 1] == '/') && n > 1) {
            i += 2; /* a "./" component */
            continue;
        }
        *o++ = p[i++];
    }
    while (o > s + 1 && o[-1] == '/')
        o--;
    *o = '\0';
    if (!*s) {
        s[0] = '.';
        s[1] = '\0';
    }
    return s;
}

static int add_file(run *r, const char *path)
{
    if (r->n_files == r->cap_files) {
        size_t cap = r->cap_files ? r->cap_files * 2 : 64;
        char **nf = realloc(r->files, cap * sizeof *nf);
        if (!nf)
            return -1;
        r->files = nf;
        r->cap_files = cap;
    }
    r->files[r->n_files] = strdup(path);
    return r->files[r->n_files++] ? 0 : -1;
}

static int name_wanted(const run *r, const char *name)
{
    if (name[0] == '.')
        return 0;
    for (size_t i = 0; i < r->n_exclude; i++)
        if (!fnmatch(r->exclude[i], name, 0))
            return 0;
    if (!r->n_include)
        return 1;
    for (size_t i = 0; i < r->n_include; i++)
        if (!fnmatch(r->include[i], name, 0))
            return 1;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every wanted regular file below dir.  Symbolic links to directories are
 * not followed (no loops); links to files are read. */
static void walk(run *r, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        cli_error("%s: cannot read the directory: %s", dir, strerror(errno));
        r->files_failed++;
        return;
    }
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        size_t n = strlen(dir) + strlen(de->d_name) + 2;
        char *p = malloc(n);
        if (!p)
            break;
        snprintf(p, n, "%s/%s", dir, de->d_name);
        struct stat lst, st;
        if (lstat(p, &lst) == 0 && S_ISDIR(lst.st_mode)) {
            if (de->d_name[0] != '.')
                walk(r, p);
        } else if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
                   name_wanted(r, de->d_name)) {
            add_file(r, p);
        }
        free(p);
    }
    closedir(d);
}

/* Is `path` at or below one of the named locations? */
static int under_roots(const run *r, const char *path)
{
    for (size_t i = 0; i < r->n_roots; i++) {
        size_t n = strlen(r->roots[i]);
        if (!strcmp(path, r->roots[i]))
            return 1;
        if (r->root_is_dir[i] &&
            (!strcmp(r->roots[i], ".") ||
             (!strncmp(path, r->roots[i], n) && path[n] == '/')))
            return 1;
    }
    return 0;
}

static int is_listed(const run *r, const char *path)
{
    return bsearch(&path, r->files, r->n_files, sizeof *r->files, cmp_str) !=
           NULL;
}

/* FNV-1a 64 of the file's bytes: the content part of a fingerprint. */
static int hash_file(const char *path, uint64_t *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    uint64_t h = 1469598103934665603ULL;
    unsigned char buf[1 << 16];
    ssize_t k;
    while ((k = read(fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < k; i++) {
            h ^= buf[i];
            h *= 1099511628211ULL;
        }
    close(fd);
    if (k < 0)
        return -1;
    *out = h;
    return 0;
}

/* Read one source and put its records.  Returns the number of records. */
static uint64_t read_source(run *r, const char *path)
{
    pdx_reader *rd = NULL;
    uint64_t records = 0;
    int rc = pdx_reader_open(&rd, path, &r->ro);
    if (rc) {
        cli_error("%s", pdx_reader_errmsg(rd));
        pdx_reader_free(rd);
        r->files_failed++;
        return 0;
    }
    uint64_t size = 0;
    struct stat st;
    if (strcmp(path, "-") && stat(path, &st) == 0)
        size = (uint64_t)st.st_size;
    int show = !r->quiet && (r->tty || r->verbose);
    unsigned warned = 0;
    uint64_t file_skips = 0;
    for (;;) {
        const pdx_work *w;
        rc = pdx_reader_next(&w, rd);
        if (rc == PDX_ITEROVER)
            break;
        if (rc == PDX_EIO || rc == PDX_ENOMEM) {
            cli_error("%s", pdx_reader_errmsg(rd));
            r->files_failed++;
            break;
        }
        records++;
        if (r->part_n && (records - 1) % r->part_n != r->part_k)
            continue; /* another worker's record */
        r->read++;
        if (rc == PDX_EINVAL) {
            r->skipped[pdx_reader_skip(rd)]++;
            file_skips++;
            if (show && (r->verbose || warned < MAX_WARNINGS_PER_FILE)) {
                if (r->progress)
                    fputc('\n', stderr);
                fprintf(stderr, "warning: %s\n", pdx_reader_errmsg(rd));
                warned++;
            }
            continue;
        }
        rc = pdx_put(r->ix, w);
        if (rc == PDX_EINVAL) {
            r->invalid++;
            file_skips++;
            if (show && (r->verbose || warned < MAX_WARNINGS_PER_FILE)) {
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
    if (show && file_skips > warned)
        fprintf(stderr, "warning: %s: %llu more records skipped (use "
                        "--verbose to list them)\n",
                path, (unsigned long long)(file_skips - warned));
    pdx_reader_free(rd);
    return records;
}

static void say(const run *r, const char *what, const char *path)
{
    if (r->dry_run ? !r->quiet : r->verbose)
        printf("%s %s\n", what, path);
}

/* One source found now: skip it, or read it again. */
static void update_source(run *r, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        cli_error("%s: cannot read: %s", path, strerror(errno));
        r->files_failed++;
        return;
    }
    pdx_source old = PDX_SOURCE_INIT, cur = PDX_SOURCE_INIT;
    cur.path = path;
    cur.size = (uint64_t)st.st_size;
    cur.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    int known = !r->full && pdx_source_get(&old, r->ix, path) == 0;
    if (known && old.size == cur.size && old.mtime_ns == cur.mtime_ns) {
        r->unchanged++;
        return; /* the common case: one stat, no read */
    }
    if (hash_file(path, &cur.hash)) {
        cli_error("%s: cannot read: %s", path, strerror(errno));
        r->files_failed++;
        return;
    }
    if (known && old.mtime_ns != PDX_SOURCE_INCOMPLETE && old.hash == cur.hash &&
        old.size == cur.size) {
        r->unchanged++; /* touched, not changed: remember the new mtime */
        cur.records = old.records;
        if (!r->dry_run && pdx_source_set(r->ix, &cur) == 0)
            r->since_commit++;
        return;
    }
    say(r, known ? "update" : "add", path);
    if (known)
        r->updated++;
    else
        r->added++;
    if (r->dry_run)
        return;
    /* Remove even when no fingerprint is stored: a run killed while
     * reading a new source leaves its committed records without one. */
    if (pdx_source_remove(r->ix, path)) {
        cli_error("%s: %s", path, pdx_errmsg(r->ix));
        r->fatal = pdx_errcode(r->ix);
        return;
    }
    /* A provisional fingerprint goes into the first commit of this
     * source's records: if the run dies before the end, the next run sees
     * a source it knows but whose fingerprint matches nothing, and reads
     * it again -- or, if the file is gone by then, removes its records. */
    pdx_source partial = cur;
    partial.mtime_ns = PDX_SOURCE_INCOMPLETE;
    partial.hash = 0;
    if (pdx_source_set(r->ix, &partial)) {
        cli_error("%s: %s", path, pdx_errmsg(r->ix));
        r->fatal = pdx_errcode(r->ix);
        return;
    }
    int failed_before = r->files_failed;
    cur.records = read_source(r, path);
    if (r->fatal)
        return;
    if (r->files_failed == failed_before && pdx_source_set(r->ix, &cur)) {
        cli_error("%s: %s", path, pdx_errmsg(r->ix));
        r->fatal = pdx_errcode(r->ix);
        return;
    }
    /* A source that broke off keeps its provisional fingerprint: the next
     * run reads it again.  Either way its records so far are committed. */
    commit(r);
}

typedef struct vanished {
    run *r;
    char **paths;
    size_t n, cap;
} vanished;

static int on_known(void *ctx, const pdx_source *s)
{
    vanished *v = ctx;
    if (!under_roots(v->r, s->path) || is_listed(v->r, s->path))
        return 0;
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        char **np = realloc(v->paths, cap * sizeof *np);
        if (!np)
            return PDX_ENOMEM;
        v->paths = np;
        v->cap = cap;
    }
    v->paths[v->n] = strdup(s->path);
    return v->paths[v->n++] ? 0 : PDX_ENOMEM;
}

static void remove_vanished(run *r)
{
    vanished v = {r, NULL, 0, 0};
    int rc = pdx_source_foreach(r->ix, on_known, &v);
    if (rc) {
        cli_error("listing the known sources: %s", pdx_errmsg(r->ix));
        r->fatal = rc;
    }
    if (v.n)
        qsort(v.paths, v.n, sizeof *v.paths, cmp_str);
    for (size_t i = 0; i < v.n; i++) {
        if (!r->fatal) {
            say(r, "remove", v.paths[i]);
            r->removed++;
            if (!r->dry_run) {
                if (pdx_source_remove(r->ix, v.paths[i])) {
                    cli_error("%s: %s", v.paths[i], pdx_errmsg(r->ix));
                    r->fatal = pdx_errcode(r->ix);
                } else {
                    commit(r);
                }
            }
        }
        free(v.paths[i]);
    }
    free(v.paths);
}

static int open_index(run *r, const char *db, double wait)
{
    unsigned flags = r->dry_run ? PDX_OPEN_READ
                                : PDX_OPEN_WRITE | PDX_OPEN_CREATE;
    double deadline = now() + wait;
    for (;;) {
        int rc = pdx_open(&r->ix, db, flags);
        if (rc == 0)
            return 0;
        if (rc == PDX_EVERSION && !r->dry_run) {
            /* An index of an older layout: rebuilt from its sources
             * beside itself (as --full does), searchable by the old
             * version until the swap. */
            pdx_close(r->ix);
            r->ix = NULL;
            rc = pdx_open(&r->ix, db, flags | PDX_OPEN_UPGRADE);
            if (rc == 0) {
                r->upgrade = pdx_index_layout(r->ix);
                r->full = 1;
                return 0;
            }
        }
        if (rc == PDX_ENOTFOUND && r->dry_run) {
            pdx_close(r->ix);
            r->ix = NULL; /* nothing indexed yet: everything is new */
            return 0;
        }
        if (rc != PDX_ELOCKED || now() >= deadline) {
            cli_error("%s%s", pdx_errmsg(r->ix),
                      rc == PDX_ELOCKED && wait > 0 ? " (waited too long)"
                                                    : "");
            pdx_close(r->ix);
            r->ix = NULL;
            return rc;
        }
        pdx_close(r->ix);
        r->ix = NULL;
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

/* ------------------------------------------------------------ --jobs */

/* What a worker reports back through its pipe. */
typedef struct worker_counts {
    uint64_t added, read, indexed, invalid;
    uint64_t skipped[PDX_SKIP__COUNT];
    int files_failed, fatal;
} worker_counts;

static int rm_entry(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* rm -rf of a directory paperdex made. */
static void remove_tree(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Worker k of n: index records k, k+n, k+2n, ... of every source into the
 * new index `shard`, and report its counts on fd.  Never returns. */
static void worker(const run *parent, const char *shard, unsigned k,
                   unsigned n, int fd)
{
    run w = *parent;
    /* The parent's handle is the parent's: not used, not closed here. */
    w.ix = NULL;
    w.part_k = k;
    w.part_n = n;
    w.full = 1;
    w.progress = 0;
    w.added = w.read = w.indexed = w.invalid = w.since_commit = 0;
    memset(w.skipped, 0, sizeof w.skipped);
    w.files_failed = 0;
    w.fatal = 0;
    worker_counts wc;
    memset(&wc, 0, sizeof wc);
    /* A shard is read only by the compactor, in this run: no fsync. */
    int rc = pdx_open(&w.ix, shard,
                      PDX_OPEN_WRITE | PDX_OPEN_CREATE | PDX_OPEN_NOSYNC);
    if (rc) {
        cli_error("%s", pdx_errmsg(w.ix));
        wc.fatal = rc;
    } else {
        for (size_t i = 0; i < w.n_files && !w.fatal; i++)
            update_source(&w, w.files[i]);
        if (!w.fatal)
            commit(&w);
        pdx_close(w.ix);
        wc.added = w.added;
        wc.read = w.read;
        wc.indexed = w.indexed;
        wc.invalid = w.invalid;
        memcpy(wc.skipped, w.skipped, sizeof wc.skipped);
        wc.files_failed = w.files_failed;
        wc.fatal = w.fatal;
    }
    ssize_t off = 0;
    while (off < (ssize_t)sizeof wc) {
        ssize_t m = write(fd, (char *)&wc + off, sizeof wc - (size_t)off);
        if (m <= 0)
            break;
        off += m;
    }
    _exit(0);
}

/* Put the merged index in db's place.  The old index stays locked by
 * r->ix, unchanged (a --jobs run never writes to it), until db names the
 * merged one: the two directories are exchanged in one step
 * (renameat2 RENAME_EXCHANGE), so db always names a whole index and no
 * other writer can open the old one and commit to it while it is being
 * moved away.  Only then is the old handle closed (it has nothing to
 * commit) and the merged index opened for writing; a writer that gets
 * there first has the merged index and makes this run exit 75.  Where the
 * file system cannot exchange, db is renamed aside and the merged index
 * renamed in, still under the old lock, and put back if that fails.
 * 0, or -1 with r->fatal set: r->kept_old if the old index is still in
 * db, else the merged one is there and could not be opened (or, after a
 * failed rename back, neither: r->keep_tmp). */
static int swap_in(run *r, const char *db, const char *merged,
                   const char *old)
{
    if (renameat2(AT_FDCWD, merged, AT_FDCWD, db, RENAME_EXCHANGE) != 0) {
        if (errno != EINVAL && errno != ENOSYS) {
            cli_error("%s: cannot replace it with the merged index: %s", db,
                      strerror(errno));
            r->fatal = PDX_EIO;
            r->kept_old = 1;
            return -1;
        }
        if (rename(db, old) != 0) {
            cli_error("%s: cannot move it aside: %s", db, strerror(errno));
            r->fatal = PDX_EIO;
            r->kept_old = 1;
            return -1;
        }
        if (rename(merged, db) != 0) {
            int err = errno;
            if (rename(old, db) != 0) {
                cli_error("%s: cannot put the merged index in place (%s), "
                          "nor the old one back: it is at %s", db,
                          strerror(err), old);
                r->keep_tmp = 1;
            } else {
                cli_error("%s: cannot put the merged index in place: %s", db,
                          strerror(err));
                r->kept_old = 1;
            }
            r->fatal = PDX_EIO;
            return -1;
        }
    }
    pdx_close(r->ix);
    r->ix = NULL;
    return (r->fatal = open_index(r, db, 0)) ? -1 : 0;
}

/* db_arg without trailing slashes, in db: "ix/" names the directory ix. */
static void dir_name(char db[PATH_MAX], const char *db_arg)
{
    snprintf(db, PATH_MAX, "%s", db_arg);
    for (size_t len = strlen(db); len > 1 && db[len - 1] == '/'; len--)
        db[len - 1] = '\0';
}

/* dir_name(db_arg) in db, and a new work directory beside it in tmp:
 * DB.KIND-PID, on the same file system, so that what is built there can be
 * renamed into db's place.  0, or -1 with errno set. */
static int make_work_dir(const char *db_arg, const char *kind,
                         char db[PATH_MAX], char tmp[PATH_MAX + 32])
{
    dir_name(db, db_arg);
    snprintf(tmp, PATH_MAX + 32, "%s.%s-%ld", db, kind, (long)getpid());
    return mkdir(tmp, 0777);
}

/* A run that cannot go on without the work directory tmp (errno says
 * why): said, r->fatal set, and r->kept_old (nothing was touched). */
static void work_dir_failed(run *r, const char *tmp, const char *kind)
{
    cli_error("%s: cannot create: %s (a rebuild is made beside the index%s)",
              tmp, strerror(errno),
              strcmp(kind, "full") ? ""
                                   : "; --in-place rebuilds it where it is");
    r->fatal = PDX_EIO;
    r->kept_old = 1;
}

/* Work directories that runs killed before they could remove them left
 * beside db (DB.jobs-PID, DB.full-PID): removed, and said so.  Called with
 * the index lock held, so no live run of ours is using one -- unless its
 * PID is still alive (a run between its swap and reopening the index),
 * which is left alone.  One holding "old" is where a failed swap left the
 * old index (swap_in said so): kept, and pointed at again. */
static void remove_orphans(const run *r, const char *db_arg)
{
    char db[PATH_MAX], dir[PATH_MAX], path[PATH_MAX + 300];
    dir_name(db, db_arg);
    const char *slash = strrchr(db, '/');
    const char *base = slash ? slash + 1 : db;
    if (slash == db)
        snprintf(dir, sizeof dir, "/");
    else if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - db), db);
    else
        snprintf(dir, sizeof dir, ".");
    size_t blen = strlen(base);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name, *rest;
        if (strncmp(n, base, blen) || n[blen] != '.')
            continue;
        rest = n + blen + 1;
        if (strncmp(rest, "jobs-", 5) && strncmp(rest, "full-", 5))
            continue;
        char *end;
        errno = 0;
        long pid = strtol(rest + 5, &end, 10);
        if (*end || pid <= 0 || errno ||
            (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
            continue;
        snprintf(path, sizeof path, "%s/%s/old", dir, n);
        struct stat st;
        if (lstat(path, &st) == 0) {
            fprintf(stderr, "warning: %s/%s holds the index a failed run "
                    "moved aside; look at it, then remove it\n", dir, n);
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, n);
        remove_tree(path);
        if (!r->quiet)
            fprintf(stderr, "note: removed %s, left by a run that was "
                    "killed\n", path);
    }
    closedir(d);
}

/* --full on an index that holds something: the new index is built from
 * the sources in a work directory beside db, by the same steps as any
 * run, and exchanged for the old one (swap_in) only when it is whole.
 * Until then the old index stays locked and untouched, so searches see it
 * whole throughout, and a run that fails or is killed leaves it as it
 * was.  --in-place ends the build at once: an empty index is swapped in
 * and the old one deleted, so the rebuild needs no room for two copies.
 * Exchanging directories is one step and costs nothing, where deleting
 * every document (pdx_clear) costs more time than the rebuild and holds
 * every removed posting in memory until the commit (10,000 arXiv works:
 * 25 s and 0.8 GB). */
typedef struct beside {
    char db[PATH_MAX], tmp[PATH_MAX + 32], fresh[PATH_MAX + 64],
        old[PATH_MAX + 64];
    pdx_index *old_ix;
} beside;

/* Make r->ix a new, empty index in DB.full-PID, the old handle kept in b,
 * so that every later step of the run writes there.  0 (with r->fatal set
 * if the new index could not be made), or -1 with errno and nothing
 * changed if no work directory can be made. */
static int begin_beside(run *r, const char *db_arg, beside *b)
{
    if (make_work_dir(db_arg, "full", b->db, b->tmp) != 0)
        return -1;
    snprintf(b->fresh, sizeof b->fresh, "%s/new", b->tmp);
    snprintf(b->old, sizeof b->old, "%s/old", b->tmp);
    b->old_ix = r->ix;
    r->ix = NULL;
    /* Nobody reads the new index before the swap: its commits skip the
     * fsync, and end_beside syncs it once before swapping it in. */
    int rc = pdx_open(&r->ix, b->fresh,
                      PDX_OPEN_WRITE | PDX_OPEN_CREATE | PDX_OPEN_NOSYNC);
    if (rc) {
        cli_error("%s", pdx_errmsg(r->ix));
        r->fatal = rc;
    }
    return 0;
}

/* Close the new index and, unless the run failed, exchange it for the old
 * one.  On return r->ix is the new index, or the old one with r->fatal
 * and r->kept_old set. */
static void end_beside(run *r, beside *b)
{
    pdx_close(r->ix);
    r->ix = b->old_ix;
    if (!r->fatal && pdx_sync_dir(b->fresh) != 0) {
        cli_error("%s: cannot sync the new index: %s", b->fresh,
                  strerror(errno));
        r->fatal = PDX_EIO;
    }
    if (r->fatal)
        r->kept_old = 1;
    else
        swap_in(r, b->db, b->fresh, b->old);
    if (!r->keep_tmp)
        remove_tree(b->tmp);
}

/* Build the index from scratch with n worker processes: each indexes
 * every n-th record of every source into a shard of its own, the shards
 * are merged into one by Xapian's compactor, the result replaces db, and
 * works whose records landed in different shards are merged again
 * (pdx_remerge).  On return r->ix is the new index, open for writing, or
 * NULL with r->fatal set. */
static void run_jobs(run *r, const char *db_arg, unsigned n)
{
    char db[PATH_MAX], tmp[PATH_MAX + 32], shard[PATH_MAX + 64],
        merged[PATH_MAX + 64], old[PATH_MAX + 64];
    if (make_work_dir(db_arg, "jobs", db, tmp) != 0) {
        work_dir_failed(r, tmp, "jobs");
        return;
    }
    snprintf(merged, sizeof merged, "%s/merged", tmp);
    snprintf(old, sizeof old, "%s/old", tmp);
    pid_t pids[MAX_JOBS];
    int fds[MAX_JOBS];
    fflush(stdout);
    fflush(stderr);
    for (unsigned k = 0; k < n; k++) {
        int p[2];
        if (pipe(p) != 0) {
            cli_error("cannot start worker: %s", strerror(errno));
            r->fatal = PDX_ERROR;
            n = k;
            break;
        }
        snprintf(shard, sizeof shard, "%s/shard-%u", tmp, k);
        pid_t pid = fork();
        if (pid == 0) {
            close(p[0]);
            worker(r, shard, k, n, p[1]);
        }
        close(p[1]);
        if (pid < 0) {
            close(p[0]);
            cli_error("cannot start worker: %s", strerror(errno));
            r->fatal = PDX_ERROR;
            n = k;
            break;
        }
        pids[k] = pid;
        fds[k] = p[0];
    }
    for (unsigned k = 0; k < n; k++) {
        worker_counts wc;
        ssize_t off = 0, m;
        while (off < (ssize_t)sizeof wc &&
               (m = read(fds[k], (char *)&wc + off, sizeof wc - (size_t)off)) > 0)
            off += m;
        close(fds[k]);
        int st = 0;
        waitpid(pids[k], &st, 0);
        if (off != (ssize_t)sizeof wc || !WIFEXITED(st)) {
            cli_error("worker %u of %u died%s", k + 1, n,
                      WIFSIGNALED(st) ? " on a signal" : "");
            r->fatal = PDX_ERROR;
            continue;
        }
        if (k == 0)
            r->added = wc.added; /* every worker lists every source */
        r->read += wc.read;
        r->indexed += wc.indexed;
        r->invalid += wc.invalid;
        for (int i = 0; i < PDX_SKIP__COUNT; i++)
            r->skipped[i] += wc.skipped[i];
        if (wc.files_failed > r->files_failed)
            r->files_failed = wc.files_failed; /* the same files for all */
        if (wc.fatal && !r->fatal)
            r->fatal = wc.fatal;
    }
    if (!r->fatal) {
        const char *paths[MAX_JOBS];
        static char names[MAX_JOBS][PATH_MAX + 64];
        for (unsigned k = 0; k < n; k++) {
            snprintf(names[k], sizeof names[k], "%s/shard-%u", tmp, k);
            paths[k] = names[k];
        }
        pdx_index *sh = NULL;
        int rc = pdx_open_shards(&sh, paths, n);
        if (!rc)
            rc = pdx_compact(sh, merged);
        if (rc) {
            cli_error("merging the shards: %s", pdx_errmsg(sh));
            r->fatal = rc;
        } else if (pdx_sync_dir(merged) != 0) {
            cli_error("%s: cannot sync the merged index: %s", merged,
                      strerror(errno));
            r->fatal = PDX_EIO;
        }
        pdx_close(sh);
    }
    if (r->fatal) {
        r->kept_old = 1;
    } else if (swap_in(r, db, merged, old) == 0) {
        size_t groups = 0;
        if (pdx_remerge(r->ix, &groups)) {
            cli_error("%s", pdx_errmsg(r->ix));
            r->fatal = pdx_errcode(r->ix);
        } else if (r->verbose) {
            printf("merged %zu groups of works split across workers\n",
                   groups);
        }
    }
    if (!r->keep_tmp)
        remove_tree(tmp);
}

static void summary(const run *r, uint64_t skipped)
{
    printf("sources: %llu added, %llu updated, %llu removed, %llu "
           "unchanged; records: %llu read, %llu indexed, %llu skipped-bad",
           (unsigned long long)r->added, (unsigned long long)r->updated,
           (unsigned long long)r->removed, (unsigned long long)r->unchanged,
           (unsigned long long)r->read, (unsigned long long)r->indexed,
           (unsigned long long)skipped);
    const char *sep = " (";
    for (int k = 1; k < PDX_SKIP__COUNT; k++)
        if (r->skipped[k]) {
            printf("%s%s: %llu", sep, pdx_skip_name((pdx_skip)k),
                   (unsigned long long)r->skipped[k]);
            sep = ", ";
        }
    if (r->invalid) {
        printf("%sinvalid work: %llu", sep, (unsigned long long)r->invalid);
        sep = ", ";
    }
    printf("%s; %.2f s%s", sep[0] == ',' ? ")" : "", now() - r->start,
           r->dry_run ? " (dry run: nothing changed)" : "");
    if (r->files_failed)
        printf("; %d source%s could not be read to the end",
               r->files_failed, r->files_failed == 1 ? "" : "s");
    if (r->kept_old)
        printf("; the rebuild failed: the index is as it was");
    else if (r->upgrade)
        printf("; rebuilt from index layout %d to layout %d beside the old "
               "one, which was searchable until the swap",
               r->upgrade, PDX_LAYOUT_VERSION);
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
        {"dry-run", no_argument, NULL, 'n'},
        {"wait", required_argument, NULL, 'w'},
        {"quiet", no_argument, NULL, 'q'},
        {"verbose", no_argument, NULL, 'v'},
        {"no-progress", no_argument, NULL, 'P'},
        {"jobs", required_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *db = NULL;
    run r;
    memset(&r, 0, sizeof r);
    r.ro = (pdx_reader_options)PDX_READER_OPTIONS_INIT;
    r.batch = DEFAULT_BATCH;
    double wait = 0;
    size_t jobs = 1;
    int no_progress = 0, in_place = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'f':
            if (pdx_format_parse(optarg, &r.ro.format)) {
                cli_error("--format takes auto, arxiv, jsonl, profile, list, "
                          "abstracts, listing, compact, smart or beir, "
                          "not '%s'",
                          optarg);
                return EXIT_USAGE;
            }
            break;
        case 'D':
            if (strlen(optarg) != 10 || optarg[4] != '-' || optarg[7] != '-') {
                cli_error("--page-date takes YYYY-MM-DD, not '%s'", optarg);
                return EXIT_USAGE;
            }
            r.ro.page_date = optarg;
            break;
        case 'b':
            if (cli_size(optarg, 10000000, &r.batch) || r.batch == 0) {
                cli_error("--batch takes a number from 1 to 10000000");
                return EXIT_USAGE;
            }
            break;
        case 'I':
        case 'X': {
            size_t *n = c == 'I' ? &r.n_include : &r.n_exclude;
            if (*n == MAX_GLOBS) {
                cli_error("at most %d --include and --exclude each", MAX_GLOBS);
                return EXIT_USAGE;
            }
            (c == 'I' ? r.include : r.exclude)[(*n)++] = optarg;
            break;
        }
        case 'F': r.full = 1; break;
        case 'i': in_place = 1; break;
        case 'n': r.dry_run = 1; break;
        case 'w':
            if (cli_double(optarg, &wait) || wait < 0 || wait > 86400) {
                cli_error("--wait takes seconds, from 0 to 86400");
                return EXIT_USAGE;
            }
            break;
        case 'q': r.quiet = 1; break;
        case 'v': r.verbose = 1; break;
        case 'P': no_progress = 1; break;
        case 'j':
            if (cli_size(optarg, MAX_JOBS, &jobs) || jobs == 0) {
                cli_error("--jobs takes a number from 1 to %d", MAX_JOBS);
                return EXIT_USAGE;
            }
            break;
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
        cli_error("index: no sources (files or directories; '-' for "
                  "standard input)");
        return EXIT_USAGE;
    }
    r.tty = isatty(STDERR_FILENO);
    r.progress = !no_progress && !r.quiet && r.tty && !r.dry_run;
    r.start = now();

    if (in_place && (!r.full || jobs > 1)) {
        cli_error("--in-place goes with --full, and not with --jobs");
        return EXIT_USAGE;
    }
    int rc = open_index(&r, db, wait);
    if (rc)
        return cli_exit_for(rc);
    if (r.ix && !r.dry_run)
        remove_orphans(&r, db);
    if (!r.ix)
        r.full = 1; /* dry run on an index not created yet */

    /* The sources as they are now, and the named locations. */
    int use_stdin = 0;
    r.roots = calloc((size_t)(argc - optind), sizeof *r.roots);
    r.root_is_dir = calloc((size_t)(argc - optind), sizeof *r.root_is_dir);
    if (!r.roots || !r.root_is_dir) {
        cli_error("out of memory");
        return EXIT_ERROR;
    }
    for (int i = optind; i < argc; i++) {
        if (!strcmp(argv[i], "-")) {
            use_stdin = 1;
            continue;
        }
        char *p = normalize(argv[i]);
        if (!p)
            continue;
        struct stat st;
        size_t k = r.n_roots++;
        r.roots[k] = p;
        if (stat(p, &st) != 0) {
            /* Gone: its records go too, if it was ever read. */
            pdx_source s = PDX_SOURCE_INIT;
            if (!r.ix || pdx_source_get(&s, r.ix, p) != 0) {
                cli_error("%s: cannot read: %s", p, strerror(errno));
                r.files_failed++;
            }
        } else if (S_ISDIR(st.st_mode)) {
            r.root_is_dir[k] = 1;
            walk(&r, p);
        } else {
            add_file(&r, p);
        }
    }
    if (r.n_files)
        qsort(r.files, r.n_files, sizeof *r.files, cmp_str);
    size_t uniq = 0; /* a file named twice is read once */
    for (size_t i = 0; i < r.n_files; i++) {
        if (uniq && !strcmp(r.files[uniq - 1], r.files[i]))
            free(r.files[i]);
        else
            r.files[uniq++] = r.files[i];
    }
    r.n_files = uniq;

    int usage = 0;
    if (jobs > 1 && (use_stdin || r.dry_run)) {
        cli_error("--jobs reads files, not standard input, and does not "
                  "combine with --dry-run");
        usage = 1;
    } else if (jobs > 1 && !r.full) {
        pdx_stats st = PDX_STATS_INIT;
        if (pdx_stats_get(&st, r.ix) || st.works || st.sources) {
            cli_error("--jobs builds an index from scratch: give a new "
                      "index, or --full to rebuild this one");
            usage = 1;
        }
    }
    if (usage) {
        pdx_close(r.ix);
        r.ix = NULL;
        r.quiet = 1; /* no summary: nothing is done */
    }
    /* --full builds the new index beside the old one and swaps it in
     * (begin_beside ... end_beside; run_jobs for --jobs); an index that
     * holds nothing yet is simply filled.  Where no work directory can be
     * made, --in-place falls back to emptying the index inside. */
    beside bs;
    int building_beside = 0;
    if (r.full && r.ix && !r.dry_run && jobs == 1 && !usage) {
        pdx_stats st = PDX_STATS_INIT;
        if ((rc = pdx_stats_get(&st, r.ix))) {
            cli_error("%s", pdx_errmsg(r.ix));
            r.fatal = rc;
        } else if (!st.works && !st.sources) {
            /* nothing to keep */
        } else if (begin_beside(&r, db, &bs) == 0) {
            building_beside = 1;
            if (in_place) {
                end_beside(&r, &bs); /* the empty index is DIR now */
                building_beside = 0;
            }
        } else if (!in_place) {
            work_dir_failed(&r, bs.tmp, "full");
        } else {
            if (!r.quiet)
                fprintf(stderr, "note: %s: cannot create: %s; emptying the "
                        "index inside instead (slower)\n", bs.tmp,
                        strerror(errno));
            if ((rc = pdx_clear(r.ix))) {
                cli_error("%s", pdx_errmsg(r.ix));
                r.fatal = rc;
                r.kept_old = 1;
            }
        }
    }
    if (r.ix && !r.full && !r.fatal)
        remove_vanished(&r);
    if (jobs > 1 && !r.fatal && !usage) {
        r.progress = 0;
        run_jobs(&r, db, (unsigned)jobs);
    }
    for (size_t i = 0; jobs == 1 && !usage && i < r.n_files && !r.fatal; i++) {
        if (r.ix)
            update_source(&r, r.files[i]);
        else {
            say(&r, "add", r.files[i]);
            r.added++;
        }
    }
    if (use_stdin && !r.fatal && !r.dry_run && !usage)
        read_source(&r, "-");
    if (r.ix && !r.dry_run && !r.fatal) {
        pdx_mark_reindexed(r.ix);
        commit(&r);
    }
    if (building_beside)
        end_beside(&r, &bs);
    pdx_close(r.ix);

    uint64_t skipped = r.invalid;
    for (int k = 0; k < PDX_SKIP__COUNT; k++)
        skipped += r.skipped[k];
    if (!r.quiet)
        summary(&r, skipped);
    for (size_t i = 0; i < r.n_files; i++)
        free(r.files[i]);
    for (size_t i = 0; i < r.n_roots; i++)
        free(r.roots[i]);
    free(r.files);
    free(r.roots);
    free(r.root_is_dir);
    if (usage)
        return EXIT_USAGE;
    if (r.fatal)
        return cli_exit_for(r.fatal) == EXIT_LOCKED ? EXIT_LOCKED : EXIT_ERROR;
    if (r.files_failed)
        return EXIT_ERROR;
    return skipped ? EXIT_SKIPPED : EXIT_OK_;
}
