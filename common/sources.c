/*
 * sources.c -- reading the sources' fingerprints an index keeps, for
 * both sides: pdx_source_get, pdx_source_foreach (the write side stores
 * them, indexer/write.c; `paperdex stats` lists them), and the count of
 * works (pdx_count_works), which both sides ask.
 *
 * A fingerprint is a metadata entry under LAYOUT_META_SOURCE followed by
 * the 64-bit hash of the path in hex (handle_source_key), holding a JSON
 * object: path, size, mtime_ns, records as decimal strings (JSON numbers
 * are doubles) and the content hash in hex (common/layout.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "handle.h"
#include "layout.h"
#include "text.h"

#define SRC_META LAYOUT_META_SOURCE

void handle_source_key(const char *path, char key[64])
{
    snprintf(key, 64, SRC_META "%016llx", text_hash64(path, strlen(path)));
}

struct src_ctx {
    pdx_index *ix;
    pdx_source_fn fn;
    void *ctx;
    int rc;
};

/* Decode one stored fingerprint into *out (path in arena a). */
static int source_decode(arena *a, pdx_source *out, const char *data,
                         size_t len)
{
    cJSON *o = cJSON_ParseWithLength(data, len);
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "path");
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(o, "hash");
    int rc = -1;
    if (cJSON_IsString(p) && cJSON_IsString(h)) {
        const pdx_source init = PDX_SOURCE_INIT;
        *out = init;
        out->path = arena_strdup(a, p->valuestring);
        const char *nums[] = {"size", "mtime_ns", "records"};
        for (int i = 0; i < 3; i++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, nums[i]);
            /* 64-bit values are stored as strings: JSON numbers are doubles */
            unsigned long long x = cJSON_IsString(v)
                                       ? strtoull(v->valuestring, NULL, 10)
                                       : 0;
            if (i == 0)
                out->size = x;
            else if (i == 1)
                out->mtime_ns = (int64_t)x;
            else
                out->records = x;
        }
        out->hash = strtoull(h->valuestring, NULL, 16);
        rc = out->path ? 0 : -1;
    }
    cJSON_Delete(o);
    return rc;
}

typedef struct one_value {
    arena *a;
    char *s;
    size_t n;
} one_value;

static int keep_value(void *ctx, const char *data, size_t len)
{
    one_value *v = ctx;
    v->s = arena_strndup(v->a, data, len);
    v->n = len;
    return v->s ? 0 : -1;
}

int pdx_source_get(pdx_source *out, pdx_index *ix, const char *path)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (!out || !path)
        return handle_error(ix, PDX_EINVAL, "pdx_source_get: no %s given",
                            out ? "path" : "pdx_source");
    char key[64];
    handle_source_key(path, key);
    arena_reset(&ix->scratch);
    one_value v = {&ix->scratch, NULL, 0};
    shim_err e = {0, ""};
    int rc = shim_meta_get(ix->db, key, keep_value, &v, &e);
    if (rc == PDX_ENOTFOUND)
        return rc;
    if (rc)
        return handle_from_shim(ix, rc, &e);
    if (source_decode(&ix->scratch, out, v.s, v.n) || strcmp(out->path, path))
        return PDX_ENOTFOUND; /* unreadable, or a hash collision */
    return 0;
}

static int on_source(void *ctx, const char *data, size_t len)
{
    struct src_ctx *c = ctx;
    arena a = {0};
    pdx_source s;
    if (source_decode(&a, &s, data, len) == 0)
        c->rc = c->fn(c->ctx, &s);
    arena_free(&a);
    return c->rc ? 1 : 0;
}

int pdx_source_foreach(pdx_index *ix, pdx_source_fn fn, void *ctx)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (!fn)
        return handle_error(ix, PDX_EINVAL, "pdx_source_foreach: no function");
    struct src_ctx c = {ix, fn, ctx, 0};
    shim_err e = {0, ""};
    int rc = shim_meta_list(ix->db, SRC_META, on_source, &c, &e);
    if (c.rc)
        return c.rc;
    return rc ? handle_from_shim(ix, rc, &e) : 0;
}

int pdx_count_works(uint64_t *out, pdx_index *ix)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (!out)
        return handle_error(ix, PDX_EINVAL, "pdx_count_works: no out");
    shim_err e = {0, ""};
    int rc = shim_count_works(out, ix->db, &e);
    return rc ? handle_from_shim(ix, rc, &e) : 0;
}
