/*
 * sync_beside.c -- building beside the index.  A rebuild (full, an index
 * of an older layout, several jobs) is made in a work directory next to
 * the index, DB.full-PID or DB.jobs-PID, and takes the index's place in
 * one step (swap_in: renameat2 RENAME_EXCHANGE), the old index locked and
 * untouched until then.  The same swap puts in a compacted copy after an
 * update (compact_beside), and a later run removes the work directories
 * a killed run left behind (remove_orphans).
 */
#define _GNU_SOURCE /* renameat2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/handle.h"
#include "../common/paperdex.h"
#include "../common/shim.h"
#include "../corpus/merge.h"
#include "../corpus/prefetch.h"
#include "../corpus/reader.h"
#include "exchange.h"
#include "write.h"
#include "sync_run.h"

/* ------------------------------------------------- rebuilds beside db */


/* Put the index built in `built` in db's place.  The old index stays
 * locked by r->ix, unchanged, until db names the new one: the two
 * directories are exchanged in one step (renameat2 RENAME_EXCHANGE), so
 * db always names a whole index and no other writer can open the old one
 * and commit to it while it is being moved away.  Only then is the old
 * handle closed (it has nothing to commit) and the new index opened for
 * writing; a writer that gets there first has the new index and makes
 * this run fail with PDX_ELOCKED.  Where the file system cannot exchange,
 * db is renamed aside (to `old`) and the new index renamed in, still
 * under the old lock, and put back if that fails.  0, or -1 with the
 * failure kept: s->kept_old if the old index is still in db, else the new
 * one is there and could not be opened (or, after a failed rename back,
 * neither: r->keep_tmp). */
int sync_swap_in(run *r, const char *db, const char *built, const char *old)
{
    if (renameat2(AT_FDCWD, built, AT_FDCWD, db, RENAME_EXCHANGE) != 0) {
        if (errno != EINVAL && errno != ENOSYS) {
            sync_fail(r, PDX_EIO, "%s: cannot replace it with the new index: %s",
                 db, strerror(errno));
            r->s->kept_old = 1;
            return -1;
        }
        if (rename(db, old) != 0) {
            sync_fail(r, PDX_EIO, "%s: cannot move it aside: %s", db,
                 strerror(errno));
            r->s->kept_old = 1;
            return -1;
        }
        if (rename(built, db) != 0) {
            int err = errno;
            if (rename(old, db) != 0) {
                sync_fail(r, PDX_EIO, "%s: cannot put the new index in place (%s), "
                     "nor the old one back: it is at %s", db, strerror(err),
                     old);
                r->keep_tmp = 1;
            } else {
                sync_fail(r, PDX_EIO, "%s: cannot put the new index in place: %s",
                     db, strerror(err));
                r->s->kept_old = 1;
            }
            return -1;
        }
    }
    pdx_close(r->ix);
    r->ix = NULL;
    int rc = sync_open_index(r, db, 0);
    if (rc) {
        char msg[sizeof r->s->message];
        snprintf(msg, sizeof msg, "%s", r->s->message);
        r->s->message[0] = '\0';
        sync_fail(r, rc, "%s", msg);
        return -1;
    }
    return 0;
}

/* db_arg without trailing slashes, in db: "ix/" names the directory ix. */
static void dir_name(char db[PATH_MAX], const char *db_arg)
{
    snprintf(db, PATH_MAX, "%s", db_arg);
    for (size_t len = strlen(db); len > 1 && db[len - 1] == '/'; len--)
        db[len - 1] = '\0';
}

/* The kinds of work directory a run makes beside the index, DB.KIND-PID:
 * make_work_dir takes one, remove_orphans knows them all by this list. */
static const char *const work_dir_kinds[] = {"full", "jobs", "compact"};

/* In `rest`, what follows "KIND-" for a kind of work directory: where
 * its PID begins, or NULL. */
static const char *work_dir_pid(const char *rest)
{
    for (size_t i = 0; i < sizeof work_dir_kinds / sizeof *work_dir_kinds;
         i++) {
        size_t k = strlen(work_dir_kinds[i]);
        if (!strncmp(rest, work_dir_kinds[i], k) && rest[k] == '-')
            return rest + k + 1;
    }
    return NULL;
}

/* dir_name(db_arg) in db, and a new work directory beside it in tmp:
 * DB.KIND-PID, on the same file system, so that what is built there can be
 * renamed into db's place.  0, or -1 with errno set. */
int sync_make_work_dir(const char *db_arg, const char *kind,
                         char db[PATH_MAX], char tmp[PATH_MAX + 32])
{
    dir_name(db, db_arg);
    snprintf(tmp, PATH_MAX + 32, "%s.%s-%ld", db, kind, (long)getpid());
    if (mkdir(tmp, 0777) != 0)
        return -1;
    /* Until the swap: removed if Xapian's failure ends the process. */
    shim_fatal_work_dir(tmp);
    return 0;
}

/* A run that cannot go on without the work directory tmp (errno says
 * why): the failure kept, and s->kept_old (nothing was touched). */
void sync_work_dir_failed(run *r, const char *tmp, const char *kind)
{
    sync_fail(r, PDX_EIO, "%s: cannot create: %s (a rebuild is made beside the "
         "index%s)", tmp, strerror(errno),
         strcmp(kind, "full") ? "" : "; in_place (--in-place) rebuilds it "
                                     "where it is");
    r->s->kept_old = 1;
}

/* Work directories that runs killed before they could remove them left
 * beside db (DB.KIND-PID, work_dir_kinds): removed, with a NOTE.  Called with
 * the index lock held, so no live run of ours is using one -- unless its
 * PID is still alive (a run between its swap and reopening the index),
 * which is left alone.  One holding "old" is where a failed swap left the
 * old index (swap_in said so): kept, and pointed at again (WARNING). */
void sync_remove_orphans(run *r, const char *db_arg)
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
        const char *pid_at = work_dir_pid(rest);
        if (!pid_at)
            continue;
        char *end;
        errno = 0;
        long pid = strtol(pid_at, &end, 10);
        if (*end || pid <= 0 || errno ||
            (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
            continue;
        snprintf(path, sizeof path, "%s/%s/old", dir, n);
        struct stat st;
        if (lstat(path, &st) == 0) {
            sync_emit_msg(r, PDX_SYNC_WARNING, NULL, "%s/%s holds the index a "
                     "failed run moved aside; look at it, then remove it",
                     dir, n);
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, n);
        shim_remove_tree(path);
        sync_emit_msg(r, PDX_SYNC_NOTE, NULL, "removed %s, left by a run that "
                 "was killed", path);
    }
    closedir(d);
}

/* Make r->ix a new, empty index in DB.full-PID, the old handle kept in b,
 * so that every later step of the run writes there.  0 (with r->fatal set
 * if the new index could not be made), or -1 with errno and nothing
 * changed if no work directory can be made. */
int sync_begin_beside(run *r, const char *db_arg, beside *b)
{
    if (sync_make_work_dir(db_arg, "full", b->db, b->tmp) != 0)
        return -1;
    snprintf(b->fresh, sizeof b->fresh, "%s/new", b->tmp);
    snprintf(b->old, sizeof b->old, "%s/old", b->tmp);
    b->old_ix = r->ix;
    r->ix = NULL;
    /* Nobody reads the new index before the swap: its commits skip the
     * fsync and write in place (PDX_OPEN_NOSYNC), and end_beside syncs
     * it once before swapping it in; a failed run removes it. */
    int rc = pdx_open(&r->ix, b->fresh,
                      PDX_OPEN_WRITE | PDX_OPEN_CREATE | PDX_OPEN_NOSYNC |
                          r->builder | r->positions);
    if (rc)
        sync_fail(r, rc, "%s", pdx_errmsg(r->ix));
    return 0;
}

/* Close the new index and, unless the run failed, exchange it for the old
 * one.  On return r->ix is the new index, or the old one with r->fatal
 * and s->kept_old set. */
void sync_end_beside(run *r, beside *b)
{
    pdx_close(r->ix);
    r->ix = b->old_ix;
    if (!r->fatal && write_sync_dir(b->fresh) != 0)
        sync_fail(r, PDX_EIO, "%s: cannot sync the new index: %s", b->fresh,
             strerror(errno));
    shim_fatal_work_dir(NULL);
    if (r->fatal)
        r->s->kept_old = 1;
    else
        sync_swap_in(r, b->db, b->fresh, b->old);
    if (!r->keep_tmp)
        shim_remove_tree(b->tmp);
}

/* Write a compacted copy of the index beside it, in DB.compact-PID, and
 * exchange it for the index (sync_swap_in), under the run's lock: what
 * pdx_sync_options.compact asks for after a run that changed the index.
 * Readers see the updated index throughout, first uncompacted, then
 * compacted.  A copy that cannot be made leaves the index as the run
 * left it (updated, uncompacted) with a WARNING: the update itself is
 * done.  The summary gets the sizes before and after, and the time. */
void sync_compact_beside(run *r, const char *db_arg)
{
    char db[PATH_MAX], tmp[PATH_MAX + 32], fresh[PATH_MAX + 64],
        old[PATH_MAX + 64];
    double t0 = sync_now();
    if (sync_make_work_dir(db_arg, "compact", db, tmp) != 0) {
        sync_emit_msg(r, PDX_SYNC_WARNING, NULL, "%s: cannot create: %s; the index "
                 "is updated, but not compacted", tmp, strerror(errno));
        return;
    }
    snprintf(fresh, sizeof fresh, "%s/new", tmp);
    snprintf(old, sizeof old, "%s/old", tmp);
    uint64_t before = handle_bytes(db);
    int rc = pdx_compact(r->ix, fresh);
    if (rc)
        sync_emit_msg(r, PDX_SYNC_WARNING, NULL, "%s; the index is updated, but "
                 "not compacted", pdx_errmsg(r->ix));
    else if (write_sync_dir(fresh) != 0) {
        sync_emit_msg(r, PDX_SYNC_WARNING, NULL, "%s: cannot sync the compacted "
                 "copy: %s; the index is updated, but not compacted", fresh,
                 strerror(errno));
        rc = -1;
    }
    shim_fatal_work_dir(NULL);
    if (!rc && sync_swap_in(r, db, fresh, old) == 0) {
        r->s->compact_before = before;
        r->s->compact_after = handle_bytes(db);
        r->s->compact_seconds = sync_now() - t0;
    }
    if (!r->keep_tmp)
        shim_remove_tree(tmp);
}
