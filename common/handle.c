/*
 * handle.c -- pdx_index: opening one index or several shards, closing,
 * and the error kept on the handle (handle.h).  What a handle does is the
 * write side's (indexer/write.c) or the read side's (searcher/search.c).
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "handle.h"

int handle_error(pdx_index *ix, int code, const char *fmt, ...)
{
    char tmp[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    ix->code = code;
    sb_clear(&ix->msg);
    sb_puts(&ix->msg, tmp);
    return code;
}

int handle_from_shim(pdx_index *ix, int rc, const shim_err *e)
{
    return handle_error(ix, rc, "%s", e->msg[0] ? e->msg : pdx_strerror(rc));
}

void handle_clear(pdx_index *ix)
{
    ix->code = 0;
    sb_clear(&ix->msg);
}

int handle_enter(pdx_index *ix)
{
    if (!ix)
        return PDX_EINVAL;
    handle_clear(ix);
    if (!ix->db)
        return handle_error(ix, PDX_EINVAL, "the index is not open "
                                            "(pdx_open failed earlier)");
    return 0;
}

int pdx_open(pdx_index **out, const char *path, unsigned flags)
{
    pdx_index *ix = calloc(1, sizeof *ix);
    *out = ix;
    if (!ix)
        return PDX_ENOMEM;
    ix->msg = (strbuf)STRBUF_INIT;
    if (!path || !*path)
        return handle_error(ix, PDX_EINVAL, "no index path given");
    if (flags & ~(PDX_OPEN_WRITE | PDX_OPEN_CREATE | PDX_OPEN_NOSYNC |
                  PDX_OPEN_UPGRADE | PDX_OPEN_BUILDER |
                  PDX_OPEN_XAPIAN_POSITIONS))
        return handle_error(ix, PDX_EINVAL, "unknown open flags 0x%x", flags);
    ix->path = strdup(path);
    ix->flags = flags;
    if (!ix->path)
        return handle_error(ix, PDX_ENOMEM, "out of memory");
    shim_err e = {0, ""};
    unsigned mode = ((flags & PDX_OPEN_WRITE) ? SHIM_WRITE : 0) |
                    ((flags & PDX_OPEN_CREATE) ? SHIM_CREATE : 0) |
                    ((flags & PDX_OPEN_NOSYNC) ? SHIM_NOSYNC : 0) |
                    ((flags & PDX_OPEN_UPGRADE) ? SHIM_UPGRADE : 0) |
                    ((flags & PDX_OPEN_BUILDER) ? SHIM_BUILDER : 0) |
                    ((flags & PDX_OPEN_XAPIAN_POSITIONS) ? SHIM_XAPIAN_POSITIONS
                                                         : 0);
    int rc = shim_open(&ix->db, path, mode, &e);
    if (rc)
        return handle_from_shim(ix, rc, &e);
    return 0;
}

int pdx_open_shards(pdx_index **out, const char *const *paths, size_t n)
{
    if (!paths || n == 0) {
        int rc = pdx_open(out, NULL, PDX_OPEN_READ);
        return rc;
    }
    int rc = pdx_open(out, paths[0], PDX_OPEN_READ);
    for (size_t i = 1; rc == 0 && i < n; i++) {
        if (!paths[i] || !*paths[i])
            return handle_error(*out, PDX_EINVAL, "no index path given");
        shim_err e = {0, ""};
        rc = shim_add_shard((*out)->db, paths[i], &e);
        if (rc)
            return handle_from_shim(*out, rc, &e);
    }
    return rc;
}

void pdx_close(pdx_index *ix)
{
    if (!ix)
        return;
    shim_close(ix->db);
    arena_free(&ix->scratch);
    sb_release(&ix->msg);
    free(ix->path);
    free(ix);
}

const char *pdx_errmsg(const pdx_index *ix)
{
    if (!ix)
        return "out of memory (no index handle)";
    return ix->msg.s ? ix->msg.s : "";
}

/* A NULL handle is what pdx_open leaves when memory ran out before it
 * could make one. */
int pdx_errcode(const pdx_index *ix) { return ix ? ix->code : PDX_ENOMEM; }

int pdx_index_layout(const pdx_index *ix)
{
    return ix && ix->db ? shim_layout(ix->db) : 0;
}

uint64_t handle_bytes(const char *path)
{
    uint64_t total = 0;
    DIR *d = opendir(path);
    if (!d)
        return 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        char p[4096];
        struct stat st;
        if (snprintf(p, sizeof p, "%s/%s", path, de->d_name) >= (int)sizeof p)
            continue;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
            total += (uint64_t)st.st_size;
    }
    closedir(d);
    return total;
}
