/*
 * sync_list.c -- the first step of a pdx_sync() run (sync.c): the
 * sources now present.  Named files, and every file below a named
 * directory whose name the include/exclude globs accept, each under one
 * spelling of its path, in sorted order.  A named source that cannot be
 * found or read, a directory that cannot be read or an entry that cannot
 * be looked at is an error, and the place is kept (keep_place): the
 * sources the index knows at or below it keep their records.  A pipe,
 * FIFO or device is refused, since a source is read more than once.
 * Also the content hash of a file (hash_file), which decides whether a
 * source whose size or mtime changed has changed at all.
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

/* "a//b/./c/" -> "a/b/c": one spelling per path, so that a source is
 * known by the same name on every run. */
char *sync_normalize(const char *p)
{
    size_t n = strlen(p);
    char *s = malloc(n + 2), *o = s;
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

int sync_add_file(run *r, const char *path)
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
    for (size_t i = 0; i < r->o->n_exclude; i++)
        if (!fnmatch(r->o->exclude[i], name, 0))
            return 0;
    if (!r->o->n_include)
        return 1;
    for (size_t i = 0; i < r->o->n_include; i++)
        if (!fnmatch(r->o->include[i], name, 0))
            return 1;
    return 0;
}

int sync_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Keep what the index holds at or below `path` this run: it could not be
 * listed or read, so its absence says nothing.  0, or -1 out of memory
 * (the run fails: removing what may still be there is not safe). */
int sync_keep_place(run *r, const char *path)
{
    if (write_strlist_add(&r->kept, path, strlen(path)) == 0)
        return 0;
    sync_fail(r, PDX_ENOMEM, "out of memory");
    return -1;
}

/* Is `path` at or below a place kept this run? */
int sync_in_kept_place(const run *r, const char *path)
{
    for (size_t i = 0; i < r->kept.n; i++) {
        const char *k = r->kept.v[i];
        size_t n = strlen(k);
        if (!strcmp(k, ".") ||
            (!strncmp(path, k, n) &&
             (path[n] == '\0' || path[n] == '/')))
            return 1;
    }
    return 0;
}

/* Every wanted regular file below dir.  Symbolic links to directories are
 * not followed (no loops); links to files are read.  A directory that
 * cannot be read, or an entry that cannot be looked at, is an error, and
 * what the index holds below it is kept. */
void sync_walk(run *r, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        sync_source_failed(r, dir, "%s: cannot read the directory: %s; what the "
                      "index holds from it is kept", dir, strerror(errno));
        sync_keep_place(r, dir);
        return;
    }
    struct dirent *de;
    for (;;) {
        errno = 0;
        if (!(de = readdir(d))) {
            if (errno) {
                sync_source_failed(r, dir, "%s: cannot read the directory to "
                              "its end: %s; what the index holds from it "
                              "is kept", dir, strerror(errno));
                sync_keep_place(r, dir);
            }
            break;
        }
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        size_t n = strlen(dir) + strlen(de->d_name) + 2;
        char *p = malloc(n);
        if (!p)
            break;
        snprintf(p, n, "%s/%s", dir, de->d_name);
        struct stat lst, st;
        if (lstat(p, &lst) != 0) {
            if (de->d_name[0] != '.') {
                sync_source_failed(r, p, "%s: cannot read: %s; what the index "
                              "holds from it is kept", p, strerror(errno));
                sync_keep_place(r, p);
            }
        } else if (S_ISDIR(lst.st_mode)) {
            if (de->d_name[0] != '.')
                sync_walk(r, p);
        } else if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
                   name_wanted(r, de->d_name)) {
            sync_add_file(r, p);
        }
        free(p);
    }
    closedir(d);
}

/* Is `path` at or below one of the named locations? */
int sync_under_roots(const run *r, const char *path)
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

int sync_is_listed(const run *r, const char *path)
{
    return bsearch(&path, r->files, r->n_files, sizeof *r->files, sync_cmp_str) !=
           NULL;
}

/* FNV-1a 64 of the file's bytes: the content part of a fingerprint. */
int sync_hash_file(const char *path, uint64_t *out)
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
