/*
 * handle.h -- struct pdx_index and what every entry point does with it:
 * the error kept on the handle, and the check on entry.  Private to the
 * library; shared by common/handle.c, the write side (indexer/write.c,
 * indexer/sync.c) and the read side (searcher/search.c).
 */
#ifndef PDX_HANDLE_H
#define PDX_HANDLE_H

#include "arena.h"
#include "paperdex.h"
#include "shim.h"

struct pdx_index {
    shim_db *db;
    arena scratch; /* what pdx_source_get lends until the next call */
    char *path;
    unsigned flags;
    int code;
    strbuf msg;
};

/* Set the handle's error: code and a printf-style message.  Returns
 * code. */
int handle_error(pdx_index *ix, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The shim's error rc (message in e) as the handle's.  Returns rc. */
int handle_from_shim(pdx_index *ix, int rc, const shim_err *e);

/* Forget the last error. */
void handle_clear(pdx_index *ix);

/* What every entry point on an open handle does first: forget the last
 * error, and refuse a NULL handle (PDX_EINVAL) or one whose pdx_open
 * failed.  0 or the code. */
int handle_enter(pdx_index *ix);

/* Bytes of the regular files in the index directory `path` (an index is
 * flat): its size on disk, 0 if it cannot be read. */
uint64_t handle_bytes(const char *path);

/* The metadata key of a source's fingerprint: LAYOUT_META_SOURCE and the
 * hash of its path (common/sources.c). */
void handle_source_key(const char *path, char key[64]);

#endif
