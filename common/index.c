/*
 * index.c -- pdx_index and pdx_results: argument checking, the keys that
 * filters match on, the stored record, and the result arena.  Everything
 * Xapian is behind shim.h; the index layout itself is described at the top
 * of xapian_shim.cc.
 *
 * The same functions derive an author's or a category's keys when a work is
 * indexed and when a filter is given, so the two sides cannot disagree.
 */
#include <ctype.h>
#include <stddef.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../corpus/merge.h"
#include "../corpus/record.h"
#include "arena.h"
#include "paperdex.h"
#include "shim.h"
#include "text.h"

struct pdx_index {
    shim_db *db;
    arena scratch; /* what pdx_source_get lends until the next call */
    char *path;
    unsigned flags;
    int code;
    strbuf msg;
};

struct pdx_results {
    arena a;
    pdx_hit *hits;
    size_t n, cap;
    pdx_facet *facets[3]; /* year, category, author */
    size_t n_facets[3], cap_facets[3];
    size_t offset;
    shim_totals totals;
};

static int set_error(pdx_index *ix, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int set_error(pdx_index *ix, int code, const char *fmt, ...)
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

static int from_shim(pdx_index *ix, int rc, const shim_err *e)
{
    return set_error(ix, rc, "%s", e->msg[0] ? e->msg : pdx_strerror(rc));
}

static void clear_error(pdx_index *ix)
{
    ix->code = 0;
    sb_clear(&ix->msg);
}

int pdx_open(pdx_index **out, const char *path, unsigned flags)
{
    pdx_index *ix = calloc(1, sizeof *ix);
    *out = ix;
    if (!ix)
        return PDX_ENOMEM;
    ix->msg = (strbuf)STRBUF_INIT;
    if (!path || !*path)
        return set_error(ix, PDX_EINVAL, "no index path given");
    if (flags & ~(PDX_OPEN_WRITE | PDX_OPEN_CREATE | PDX_OPEN_NOSYNC |
                  PDX_OPEN_UPGRADE))
        return set_error(ix, PDX_EINVAL, "unknown open flags 0x%x", flags);
    ix->path = strdup(path);
    ix->flags = flags;
    if (!ix->path)
        return set_error(ix, PDX_ENOMEM, "out of memory");
    shim_err e = {0, ""};
    unsigned mode = ((flags & PDX_OPEN_WRITE) ? SHIM_WRITE : 0) |
                    ((flags & PDX_OPEN_CREATE) ? SHIM_CREATE : 0) |
                    ((flags & PDX_OPEN_NOSYNC) ? SHIM_NOSYNC : 0) |
                    ((flags & PDX_OPEN_UPGRADE) ? SHIM_UPGRADE : 0);
    int rc = shim_open(&ix->db, path, mode, &e);
    if (rc)
        return from_shim(ix, rc, &e);
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
            return set_error(*out, PDX_EINVAL, "no index path given");
        shim_err e = {0, ""};
        rc = shim_add_shard((*out)->db, paths[i], &e);
        if (rc)
            return from_shim(*out, rc, &e);
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

int pdx_errcode(const pdx_index *ix) { return ix ? ix->code : PDX_ENOMEM; }

static int need_db(pdx_index *ix)
{
    if (!ix->db)
        return set_error(ix, PDX_EINVAL, "the index is not open (pdx_open "
                                         "failed earlier)");
    return 0;
}

int pdx_compact(pdx_index *ix, const char *dest)
{
    if (!ix)
        return PDX_EINVAL;
    clear_error(ix);
    if (need_db(ix))
        return ix->code;
    if (!dest || !*dest)
        return set_error(ix, PDX_EINVAL, "no destination given");
    struct stat st;
    if (stat(dest, &st) == 0)
        return set_error(ix, PDX_EINVAL,
                         "'%s' exists; compact writes a new directory", dest);
    shim_err e = {0, ""};
    int rc = shim_compact(ix->db, dest, &e);
    return rc ? from_shim(ix, rc, &e) : 0;
}

int pdx_index_layout(const pdx_index *ix)
{
    return ix && ix->db ? shim_layout(ix->db) : 0;
}

int pdx_sync_dir(const char *path)
{
    if (!path)
        return PDX_EINVAL;
    DIR *d = opendir(path);
    if (!d)
        return PDX_EIO;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        int fd = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || fsync(fd) != 0)
            rc = PDX_EIO;
        if (fd >= 0)
            close(fd);
    }
    if (fsync(dirfd(d)) != 0)
        rc = PDX_EIO;
    closedir(d);
    return rc;
}

/* What every entry point on an open handle does first: forget the last
 * error, and refuse a handle whose pdx_open failed.  0 or the code. */
static int enter(pdx_index *ix)
{
    if (!ix)
        return PDX_EINVAL;
    clear_error(ix);
    return need_db(ix) ? ix->code : 0;
}

/* ---------------------------------------------------------------- keys */

/* arXiv's computer-science subject codes, as profile pages show them bare
 * ("CV" for cs.CV). */
static int is_cs_code(const char *c)
{
    static const char codes[] =
        " AI AR CC CE CG CL CR CV CY DB DC DL DM DS ET FL GL GR GT HC IR IT "
        "LG LO MA MM MS NA NE NI OH OS PF PL RO SC SD SE SI SY ";
    char probe[5];
    if (strlen(c) != 2 || !isupper((unsigned char)c[0]) ||
        !isupper((unsigned char)c[1]))
        return 0;
    snprintf(probe, sizeof probe, " %s ", c);
    return strstr(codes, probe) != NULL;
}

/* Lower-case ASCII copy with surrounding blanks trimmed. */
static char *lower_trim(arena *a, const char *s)
{
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        n--;
    char *k = arena_strndup(a, s, n);
    if (k)
        for (char *p = k; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    return k;
}

/* Keys of one category: itself and its archive ("cs.cv" and "cs").  With
 * `query`, a bare cs code "CV" means cs.CV and only the given key is
 * produced.  Returns the number of keys written to k[0..2), -1 on OOM. */
static int category_keys(arena *a, const char *cat, int query, char *k[2])
{
    char tmp[8];
    if (query && is_cs_code(cat)) {
        snprintf(tmp, sizeof tmp, "cs.%s", cat);
        cat = tmp;
    }
    k[0] = lower_trim(a, cat);
    if (!k[0])
        return -1;
    if (!*k[0])
        return 0;
    if (query)
        return 1;
    const char *dot = strchr(k[0], '.');
    if (!dot || dot == k[0])
        return 1;
    k[1] = arena_strndup(a, k[0], (size_t)(dot - k[0]));
    return k[1] ? 2 : -1;
}

static char *join2(arena *a, const char *x, const char *y)
{
    size_t nx = strlen(x), ny = strlen(y);
    char *s = arena_alloc(a, nx + ny + 2);
    if (s) {
        memcpy(s, x, nx);
        s[nx] = ' ';
        memcpy(s + nx + 1, y, ny + 1);
    }
    return s;
}

static int parse_year(const char *s, size_t n, int *out)
{
    if (n == 0 || n > 4)
        return -1;
    int y = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        y = y * 10 + (s[i] - '0');
    }
    if (y < 1)
        return -1;
    *out = y;
    return 0;
}

int pdx_parse_year_range(const char *s, int *lo, int *hi)
{
    const char *dots = strstr(s, "..");
    *lo = *hi = 0;
    if (!dots)
        return parse_year(s, strlen(s), lo) ? -1 : (*hi = *lo, 0);
    if (dots == s && !dots[2])
        return -1; /* ".." alone */
    if (dots > s && parse_year(s, (size_t)(dots - s), lo))
        return -1;
    if (dots[2] && parse_year(dots + 2, strlen(dots + 2), hi))
        return -1;
    if (*lo && *hi && *lo > *hi)
        return -1;
    return 0;
}

/* The key a category filter matches (see category_keys), for the shim's
 * `category:` query field: the one rule for flags and query syntax. */
int shim_category_key(const char *value, char *out, size_t n)
{
    arena a = {0};
    char *k[2];
    int nk = category_keys(&a, value, 1, k);
    int rc = nk > 0 && strlen(k[0]) < n ? 0 : -1;
    if (!rc)
        memcpy(out, k[0], strlen(k[0]) + 1);
    arena_free(&a);
    return rc;
}

/* ------------------------------------------------------------- writing */

/* Write work m (its view computed) as one document, deleting the works
 * whose ids are in del (those it absorbed).  `fresh`: the caller has
 * looked the id up and no document has it, so the work is added without
 * Xapian looking for one to replace. */
static int put_work(pdx_index *ix, arena *a, const merge_work *m,
                    const char *const *del, size_t n_del, int fresh)
{
    const pdx_work *w = &m->view;
    char *json = merge_to_json(m);
    shim_author *authors =
        w->n_authors ? arena_alloc(a, w->n_authors * sizeof *authors) : NULL;
    const char **cats =
        w->n_categories ? arena_alloc(a, 2 * w->n_categories * sizeof *cats)
                        : NULL;
    const char **terms =
        arena_alloc(a, (m->n_src * (MERGE_MAX_KEYS + 1) + MERGE_MAX_CLASS + 1) *
                           sizeof *terms);
    if (!json || (w->n_authors && !authors) || (w->n_categories && !cats) ||
        !terms)
        goto oom;
    for (size_t i = 0; i < w->n_authors; i++) {
        name_keys nk;
        if (text_name_keys(a, w->authors[i], &nk))
            goto oom;
        shim_author *sa = &authors[i];
        sa->name = w->authors[i];
        sa->family = nk.family;
        sa->initial = "";
        sa->full = "";
        if (*nk.family && *nk.initial) {
            sa->initial = join2(a, nk.family, nk.initial);
            sa->full = join2(a, nk.family,
                             nk.given_is_initial ? nk.initial : nk.given);
            if (!sa->initial || !sa->full)
                goto oom;
        }
    }
    size_t n_cats = 0;
    for (size_t i = 0; i < w->n_categories; i++) {
        char *k[2];
        int nk = category_keys(a, w->categories[i], 0, k);
        if (nk < 0)
            goto oom;
        for (int j = 0; j < nk; j++)
            cats[n_cats++] = k[j];
    }
    size_t n_terms = 0;
    for (size_t i = 0; i < m->n_src; i++) {
        const pdx_work *r = &m->src[i].rec;
        n_terms += merge_keys(a, r, terms + n_terms);
        if (r->source && !(terms[n_terms++] = merge_file_key(a, r->source)))
            goto oom;
    }
    n_terms += merge_class_terms(m, terms + n_terms);
    char date_key[9];
    record_date_key(w->date, date_key);
    if (!date_key[0] && w->year > 0) /* a year alone sorts as YYYY0000 */
        snprintf(date_key, sizeof date_key, "%04u0000",
                 (unsigned)w->year % 10000u);
    shim_doc d = {
        .id = w->id,
        .title = w->title_derived ? NULL : w->title,
        .abstract = w->abstract,
        .authors = authors,
        .n_authors = w->n_authors,
        .cat_keys = cats,
        .n_cat_keys = n_cats,
        .year = w->year ? w->year : (w->date ? atoi(w->date) : 0),
        .date_key = date_key,
        .data = json,
        .data_len = strlen(json),
        .categories = w->categories,
        .n_categories = w->n_categories,
        .terms = terms,
        .n_terms = n_terms,
        .delete_ids = del,
        .n_delete_ids = n_del,
        .fresh = fresh,
    };
    shim_err e = {0, ""};
    int rc = shim_put(ix->db, &d, &e);
    if (rc)
        from_shim(ix, rc, &e);
    free(json);
    return rc;
oom:
    free(json);
    return set_error(ix, PDX_ENOMEM, "out of memory");
}

typedef struct candidates {
    arena *a;
    merge_work *v;
    size_t n, cap;
} candidates;

static int on_candidate(void *ctx, const char *data, size_t len)
{
    candidates *c = ctx;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 4;
        merge_work *nv = arena_alloc(c->a, cap * sizeof *nv);
        if (!nv)
            return -1;
        if (c->n)
            memcpy(nv, c->v, c->n * sizeof *nv);
        c->v = nv;
        c->cap = cap;
    }
    if (merge_from_json(c->a, &c->v[c->n], data, len) == 0)
        c->n++; /* a document that is not ours is left alone */
    return 0;
}

/* Is stored source s the same record as w (an earlier version of it)? */
static int same_record(const pdx_work *s, const pdx_work *w)
{
    if (!s->source && !w->source) /* the caller's own record of that id */
        return s->id && w->id && !strcmp(s->id, w->id);
    return merge_same_source(s, w);
}

int pdx_put(pdx_index *ix, const pdx_work *w)
{
    int entry = enter(ix);
    if (entry)
        return entry;
    strbuf why = STRBUF_INIT;
    if (record_check(w, &why)) {
        set_error(ix, PDX_EINVAL, "invalid work%s%s: %s", w && w->id ? " " : "",
                  w && w->id ? w->id : "", why.s ? why.s : "out of memory");
        sb_release(&why);
        return PDX_EINVAL;
    }

    arena a = {0};
    int rc = PDX_ENOMEM;
    merge_lookup look;
    const char *keys[MERGE_MAX_KEYS + 1];
    char *q = arena_alloc(&a, strlen(w->id) + 2);
    if (!q || merge_lookup_of(&a, w, &look))
        goto oom;
    size_t nk = look.n_plain;
    memcpy(keys, look.plain, nk * sizeof *keys);
    q[0] = 'Q';
    strcpy(q + 1, w->id);
    keys[nk++] = q;
    shim_pruned pruned[2];
    size_t np = 0;
    if (look.title)
        pruned[np++] = (shim_pruned){look.title, look.title_not,
                                     look.n_title_not};
    if (look.abstract)
        pruned[np++] = (shim_pruned){look.abstract, look.abstract_not,
                                     look.n_abstract_not};
    candidates c = {.a = &a};
    shim_err e = {0, ""};
    if ((rc = shim_lookup_pruned(ix->db, keys, nk, pruned, np, on_candidate,
                                 &c, &e))) {
        from_shim(ix, rc, &e);
        goto done;
    }
    /* The new work: this record plus every source of each work it
     * matches (their old versions of this record dropped). */
    merge_work m = {0};
    const char **del = arena_alloc(&a, (c.n + 1) * sizeof *del);
    size_t n_src = 1, n_del = 0;
    for (size_t i = 0; i < c.n; i++)
        n_src += c.v[i].n_src;
    m.src = arena_alloc(&a, n_src * sizeof *m.src);
    if (!del || !m.src)
        goto oom;
    m.src[m.n_src++].rec = *w;
    for (size_t i = 0; i < c.n; i++) {
        merge_work *cw = &c.v[i];
        /* A work already known by this record's id is this work too:
         * re-adding under an id replaces, and one id never names two. */
        int joins = merge_matches(&a, w, cw) || !strcmp(cw->view.id, w->id);
        size_t kept = 0;
        for (size_t j = 0; j < cw->n_src; j++) {
            if (same_record(&cw->src[j].rec, w))
                continue;
            if (joins)
                m.src[m.n_src++] = cw->src[j];
            else
                cw->src[kept++] = cw->src[j];
        }
        if (joins) {
            del[n_del++] = cw->view.id;
        } else if (kept < cw->n_src) {
            /* An old version of this record, now of another work:
             * take it out of the work it was in. */
            cw->n_src = kept;
            const char *gone[1] = {cw->view.id};
            if (kept == 0) {
                if ((rc = shim_delete(ix->db, cw->view.id, &e))) {
                    from_shim(ix, rc, &e);
                    goto done;
                }
            } else if (merge_view(&a, cw, &why) ||
                       (rc = put_work(ix, &a, cw, gone, 1, 0))) {
                if (!ix->code)
                    rc = set_error(ix, PDX_EINVAL, "%s",
                                   why.s ? why.s : "cannot re-merge");
                goto done;
            }
        }
    }
    if (merge_view(&a, &m, &why)) {
        rc = set_error(ix, PDX_EINVAL, "invalid work %s: %s", w->id,
                       why.s ? why.s : "cannot merge");
        goto done;
    }
    /* No candidate at all: nothing holds Q<id> (it was looked up). */
    rc = put_work(ix, &a, &m, del, n_del, c.n == 0);
    goto done;
oom:
    rc = set_error(ix, PDX_ENOMEM, "out of memory");
done:
    sb_release(&why);
    arena_free(&a);
    return rc;
}

/* A list of strings, for pdx_remerge. */
typedef struct strlist {
    char **v;
    size_t n, cap;
} strlist;

static int on_shared_term(void *ctx, const char *data, size_t len)
{
    strlist *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = cap;
    }
    if (!(l->v[l->n] = strndup(data, len)))
        return -1;
    l->n++;
    return 0;
}

int pdx_remerge(pdx_index *ix, size_t *regrouped)
{
    if (regrouped)
        *regrouped = 0;
    int entry = enter(ix);
    if (entry)
        return entry;
    /* The merge keys two works share; XS (source positions) and XP (file
     * keys) are not evidence of the same work. */
    static const char *const prefixes[] = {"XMA", "XMD", "XI", "XMT", "XMF"};
    strlist terms = {0};
    shim_err e = {0, ""};
    int rc = 0;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0] && !rc; i++)
        rc = shim_shared_terms(ix->db, prefixes[i], on_shared_term, &terms, &e);
    if (rc) {
        from_shim(ix, rc, &e);
        goto done;
    }
    for (size_t i = 0; i < terms.n && !rc; i++) {
        arena a = {0};
        candidates c = {.a = &a};
        const char *key[1] = {terms.v[i]};
        rc = shim_lookup(ix->db, key, 1, on_candidate, &c, &e);
        if (rc) {
            from_shim(ix, rc, &e);
        } else if (c.n > 1) {
            /* Take the works out, then put every record of theirs back:
             * pdx_put merges them by the usual rules, as one index built
             * in one pass would have. */
            for (size_t k = 0; k < c.n && !rc; k++)
                if ((rc = shim_delete(ix->db, c.v[k].view.id, &e)))
                    from_shim(ix, rc, &e);
            for (size_t k = 0; k < c.n && !rc; k++)
                for (size_t j = 0; j < c.v[k].n_src && !rc; j++)
                    rc = pdx_put(ix, &c.v[k].src[j].rec);
            if (!rc && regrouped)
                (*regrouped)++;
        }
        arena_free(&a);
    }
done:
    for (size_t i = 0; i < terms.n; i++)
        free(terms.v[i]);
    free(terms.v);
    return rc;
}

int pdx_delete(pdx_index *ix, const char *id)
{
    int entry = enter(ix);
    if (entry)
        return entry;
    if (!id || !*id || strlen(id) > PDX_ID_MAX)
        return set_error(ix, PDX_EINVAL, "pdx_delete: invalid id");
    /* The work may go by another id than the one given (an arXiv id, or
     * another source's): find it as pdx_get does. */
    pdx_results *r = NULL;
    int rc = pdx_get(&r, ix, id);
    shim_err e = {0, ""};
    for (size_t i = 0; rc == 0 && i < pdx_results_count(r); i++)
        if ((rc = shim_delete(ix->db, pdx_results_hit(r, i)->work.id, &e)))
            from_shim(ix, rc, &e);
    pdx_results_free(r);
    return rc;
}

int pdx_commit(pdx_index *ix)
{
    int entry = enter(ix);
    if (entry)
        return entry;
    shim_err e = {0, ""};
    int rc = shim_commit(ix->db, &e);
    return rc ? from_shim(ix, rc, &e) : 0;
}

/* ------------------------------------------------------------- sources */

#define SRC_META SHIM_META_SOURCE

static void source_meta_key(const char *path, char key[64])
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
    if (!ix || !out || !path)
        return PDX_EINVAL;
    clear_error(ix);
    if (need_db(ix))
        return ix->code;
    char key[64];
    source_meta_key(path, key);
    arena_reset(&ix->scratch);
    one_value v = {&ix->scratch, NULL, 0};
    shim_err e = {0, ""};
    int rc = shim_meta_get(ix->db, key, keep_value, &v, &e);
    if (rc == PDX_ENOTFOUND)
        return rc;
    if (rc)
        return from_shim(ix, rc, &e);
    if (source_decode(&ix->scratch, out, v.s, v.n) || strcmp(out->path, path))
        return PDX_ENOTFOUND; /* unreadable, or a hash collision */
    return 0;
}

int pdx_source_set(pdx_index *ix, const pdx_source *s)
{
    int entry = enter(ix);
    if (entry)
        return entry;
    if (!s || s->version != PDX_SOURCE_VERSION || !s->path || !*s->path)
        return set_error(ix, PDX_EINVAL, "pdx_source_set: bad source");
    cJSON *o = cJSON_CreateObject();
    char num[3][32], hash[32];
    snprintf(num[0], sizeof num[0], "%llu", (unsigned long long)s->size);
    snprintf(num[1], sizeof num[1], "%lld", (long long)s->mtime_ns);
    snprintf(num[2], sizeof num[2], "%llu", (unsigned long long)s->records);
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)s->hash);
    char *json = NULL;
    if (o && cJSON_AddStringToObject(o, "path", s->path) &&
        cJSON_AddStringToObject(o, "size", num[0]) &&
        cJSON_AddStringToObject(o, "mtime_ns", num[1]) &&
        cJSON_AddStringToObject(o, "hash", hash) &&
        cJSON_AddStringToObject(o, "records", num[2]))
        json = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!json)
        return set_error(ix, PDX_ENOMEM, "out of memory");
    char key[64];
    source_meta_key(s->path, key);
    shim_err e = {0, ""};
    int rc = shim_meta_set(ix->db, key, json, &e);
    free(json);
    return rc ? from_shim(ix, rc, &e) : 0;
}

/* One work fed by the source being removed: drop that source's records;
 * delete the work, or merge it again from the rest.  Done work by work in
 * the lookup's callback, so memory stays bounded by one work. */
typedef struct remove_ctx {
    pdx_index *ix;
    const char *path;
    int rc;
} remove_ctx;

static int remove_from_work(void *ctx, const char *data, size_t len)
{
    remove_ctx *rc = ctx;
    arena a = {0};
    strbuf why = STRBUF_INIT;
    merge_work cw;
    shim_err e = {0, ""};
    if (merge_from_json(&a, &cw, data, len) == 0) {
        const char *old[1] = {cw.view.id};
        size_t kept = 0;
        for (size_t j = 0; j < cw.n_src; j++)
            if (!cw.src[j].rec.source || strcmp(cw.src[j].rec.source, rc->path))
                cw.src[kept++] = cw.src[j];
        cw.n_src = kept;
        if (kept == 0) {
            if ((rc->rc = shim_delete(rc->ix->db, cw.view.id, &e)))
                from_shim(rc->ix, rc->rc, &e);
        } else if (merge_view(&a, &cw, &why)) {
            rc->rc = set_error(rc->ix, PDX_ERROR, "cannot merge %s again: %s",
                               cw.view.id, why.s ? why.s : "?");
        } else {
            rc->rc = put_work(rc->ix, &a, &cw, old, 1, 0);
        }
    }
    sb_release(&why);
    arena_free(&a);
    return rc->rc ? 1 : 0;
}

int pdx_source_remove(pdx_index *ix, const char *path)
{
    int entry = enter(ix);
    if (entry)
        return entry;
    if (!path || !*path)
        return set_error(ix, PDX_EINVAL, "pdx_source_remove: no path");
    arena a = {0};
    const char *keys[1] = {merge_file_key(&a, path)};
    remove_ctx rc = {ix, path, 0};
    shim_err e = {0, ""};
    int r = keys[0] ? shim_lookup(ix->db, keys, 1, remove_from_work, &rc, &e)
                    : PDX_ENOMEM;
    arena_free(&a);
    if (rc.rc)
        return rc.rc;
    if (r)
        return from_shim(ix, r, &e);
    char key[64];
    source_meta_key(path, key);
    if ((r = shim_meta_set(ix->db, key, "", &e)))
        return from_shim(ix, r, &e);
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
    if (!ix || !fn)
        return PDX_EINVAL;
    clear_error(ix);
    if (need_db(ix))
        return ix->code;
    struct src_ctx c = {ix, fn, ctx, 0};
    shim_err e = {0, ""};
    int rc = shim_meta_list(ix->db, SRC_META, on_source, &c, &e);
    if (c.rc)
        return c.rc;
    return rc ? from_shim(ix, rc, &e) : 0;
}

int pdx_clear(pdx_index *ix)
{
    int entry = enter(ix);
    if (entry)
        return entry;
    shim_err e = {0, ""};
    int rc = shim_clear(ix->db, SRC_META, &e);
    return rc ? from_shim(ix, rc, &e) : 0;
}

int pdx_mark_reindexed(pdx_index *ix)
{
    int entry = enter(ix);
    if (entry)
        return entry;
    char now[32];
    snprintf(now, sizeof now, "%lld", (long long)time(NULL));
    shim_err e = {0, ""};
    int rc = shim_meta_set(ix->db, SHIM_META_REINDEXED, now, &e);
    return rc ? from_shim(ix, rc, &e) : 0;
}

/* ----------------------------------------------------------- searching */

/* Take the highlight markers out of a snippet, keeping where they were. */
static int set_snippet(arena *a, pdx_hit *h, const char *marked)
{
    size_t n = strlen(marked), marks = 0;
    for (size_t i = 0; i < n; i++)
        marks += marked[i] == SHIM_HI_START;
    char *text = arena_alloc(a, n + 1);
    size_t *hl = arena_alloc(a, (2 * marks + 1) * sizeof *hl);
    if (!text || !hl)
        return -1;
    size_t o = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        if (marked[i] == SHIM_HI_START && k % 2 == 0)
            hl[k++] = o;
        else if (marked[i] == SHIM_HI_END && k % 2 == 1)
            hl[k++] = o;
        else if (marked[i] != SHIM_HI_START && marked[i] != SHIM_HI_END)
            text[o++] = marked[i];
    }
    if (k % 2) /* an unclosed mark ends with the text */
        hl[k++] = o;
    text[o] = '\0';
    h->snippet = text;
    h->highlights = hl;
    h->n_highlights = k / 2;
    return 0;
}

static int on_hit(void *ctx, double score, const char *data, size_t len,
                  const char *snippet, const char *explain)
{
    pdx_results *r = ctx;
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        pdx_hit *h = realloc(r->hits, cap * sizeof *h);
        if (!h)
            return -1;
        r->hits = h;
        r->cap = cap;
    }
    pdx_hit *h = &r->hits[r->n];
    memset(h, 0, sizeof *h);
    h->json = arena_strndup(&r->a, data, len);
    if (!h->json)
        return -1;
    if (record_from_json(&r->a, &h->work, data, len)) {
        /* Not a record we wrote: show what there is rather than fail. */
        const pdx_work init = PDX_WORK_INIT;
        h->work = init;
        h->work.id = "";
    }
    if (snippet && *snippet && set_snippet(&r->a, h, snippet))
        return -1;
    if (explain && !(h->explain = arena_strdup(&r->a, explain)))
        return -1;
    h->score = score;
    h->rank = r->offset + r->n;
    r->n++;
    return 0;
}

static int facet_index(unsigned facet)
{
    return facet == PDX_FACET_YEAR       ? 0
           : facet == PDX_FACET_CATEGORY ? 1
           : facet == PDX_FACET_AUTHOR   ? 2
                                         : -1;
}

static int on_facet(void *ctx, unsigned facet, const char *value,
                    uint64_t count)
{
    pdx_results *r = ctx;
    int k = facet_index(facet);
    if (k < 0)
        return 0;
    if (r->n_facets[k] == r->cap_facets[k]) {
        size_t cap = r->cap_facets[k] ? 2 * r->cap_facets[k] : 16;
        pdx_facet *nf = arena_alloc(&r->a, cap * sizeof *nf);
        if (!nf)
            return -1;
        if (r->n_facets[k])
            memcpy(nf, r->facets[k], r->n_facets[k] * sizeof *nf);
        r->facets[k] = nf;
        r->cap_facets[k] = cap;
    }
    pdx_facet *f = &r->facets[k][r->n_facets[k]];
    if (!(f->value = arena_strdup(&r->a, value)))
        return -1;
    f->count = count;
    r->n_facets[k]++;
    return 0;
}

size_t pdx_results_facet_count(const pdx_results *r, unsigned facet)
{
    int k = facet_index(facet);
    return r && k >= 0 ? r->n_facets[k] : 0;
}

const pdx_facet *pdx_results_facet(const pdx_results *r, unsigned facet,
                                   size_t i)
{
    int k = facet_index(facet);
    return r && k >= 0 && i < r->n_facets[k] ? &r->facets[k][i] : NULL;
}

/* Parentheses outside "phrases" must balance.  Xapian's QueryParser
 * reports only that a query failed to parse; this says where.  Positions
 * are 1-based byte offsets. */
static int check_parens(pdx_index *ix, const char *t)
{
    size_t open_at[64], depth = 0;
    int quoted = 0;
    for (size_t i = 0; t[i]; i++) {
        if (t[i] == '"')
            quoted = !quoted;
        else if (quoted)
            continue;
        else if (t[i] == '(') {
            if (depth == sizeof open_at / sizeof open_at[0])
                return set_error(ix, PDX_EQUERY,
                                 "query: parentheses nested deeper than "
                                 "%zu at position %zu",
                                 depth, i + 1);
            open_at[depth++] = i;
        } else if (t[i] == ')') {
            if (!depth)
                return set_error(ix, PDX_EQUERY,
                                 "query: ')' at position %zu has no "
                                 "matching '('",
                                 i + 1);
            depth--;
        }
    }
    if (depth)
        return set_error(ix, PDX_EQUERY,
                         "query: '(' at position %zu is never closed",
                         open_at[depth - 1] + 1);
    return 0;
}

/* A boolean operator needs a term on each side (NOT: after it; at the
 * start, NOT x means everything but x).  Xapian only says that a query
 * failed; this says where.  Quoted text is skipped. */
static int check_operators(pdx_index *ix, const char *t)
{
    size_t prev_end = 0; /* 0: at the start, or just after '(' */
    int prev_op = 0;     /* the token before was AND, OR or NOT */
    size_t prev_at = 0;
    const char *prev_name = "";
    for (size_t i = 0; t[i];) {
        if (isspace((unsigned char)t[i])) {
            i++;
            continue;
        }
        if (t[i] == '(') {
            prev_end = 0;
            prev_op = 0;
            i++;
            continue;
        }
        size_t j = i;
        if (t[i] == '"') {
            for (j = i + 1; t[j] && t[j] != '"'; j++)
                ;
            j += t[j] == '"';
        } else if (t[i] == ')') {
            j = i + 1;
        } else {
            while (t[j] && !isspace((unsigned char)t[j]) && t[j] != '(' &&
                   t[j] != ')')
                j++;
        }
        size_t n = j - i;
        int op = (n == 3 && !strncmp(t + i, "AND", 3)) ||
                 (n == 2 && !strncmp(t + i, "OR", 2)) ||
                 (n == 3 && !strncmp(t + i, "NOT", 3));
        int binary = op && t[i] != 'N';
        if (binary && (prev_end == 0 || prev_op))
            return set_error(ix, PDX_EQUERY,
                             "query: '%.*s' at position %zu has no term "
                             "before it",
                             (int)n, t + i, i + 1);
        if (t[i] == ')' && prev_op)
            return set_error(ix, PDX_EQUERY,
                             "query: '%s' at position %zu has no term after "
                             "it",
                             prev_name, prev_at + 1);
        if (t[i] != ')') {
            prev_op = op;
            prev_at = i;
            prev_name = binary ? (t[i] == 'A' ? "AND" : "OR") : "NOT";
            prev_end = j;
        }
        i = j;
    }
    if (prev_op)
        return set_error(ix, PDX_EQUERY,
                         "query: '%s' at position %zu has no term after it",
                         prev_name, prev_at + 1);
    return 0;
}

static int check_query(pdx_index *ix, const pdx_query *q)
{
    if (!q)
        return set_error(ix, PDX_EINVAL, "no query given");
    if (q->version != PDX_QUERY_VERSION)
        return set_error(ix, PDX_EVERSION,
                         "pdx_query version %u is not %d (initialise it "
                         "with PDX_QUERY_INIT)",
                         q->version, PDX_QUERY_VERSION);
    const char *t = q->text ? q->text : "";
    size_t n = strlen(t), bad;
    if (n > PDX_MAX_QUERY_BYTES)
        return set_error(ix, PDX_EINVAL,
                         "query is %zu bytes long; the limit is %d", n,
                         PDX_MAX_QUERY_BYTES);
    if (!text_utf8_valid(t, n, &bad))
        return set_error(ix, PDX_EQUERY,
                         "query is not valid UTF-8 at byte %zu", bad + 1);
    if (q->limit > PDX_MAX_LIMIT)
        return set_error(ix, PDX_EINVAL, "limit %zu is above %d", q->limit,
                         PDX_MAX_LIMIT);
    if (q->facets & ~(PDX_FACET_YEAR | PDX_FACET_CATEGORY | PDX_FACET_AUTHOR))
        return set_error(ix, PDX_EINVAL, "unknown facet bits 0x%x", q->facets);
    if (q->facets && (q->facet_limit == 0 || q->facet_limit > 1000000))
        return set_error(ix, PDX_EINVAL, "facet limit %zu is not in 1..1000000",
                         q->facet_limit);
    if (q->snippet_bytes > 100000)
        return set_error(ix, PDX_EINVAL, "snippet length %zu is above 100000",
                         q->snippet_bytes);
    if (q->offset > 100000000)
        return set_error(ix, PDX_EINVAL, "offset %zu is too large", q->offset);
    if (q->b > 1.0)
        return set_error(ix, PDX_EINVAL, "BM25 b must be in [0,1], not %g",
                         q->b);
    if (q->k1 > 1000.0)
        return set_error(ix, PDX_EINVAL, "BM25 k1 %g is unreasonably large",
                         q->k1);
    if (q->year_min < 0 || q->year_max < 0 || q->year_min > 9999 ||
        q->year_max > 9999)
        return set_error(ix, PDX_EINVAL, "years must be between 1 and 9999");
    if (q->year_min && q->year_max && q->year_min > q->year_max)
        return set_error(ix, PDX_EINVAL, "year range %d..%d is empty",
                         q->year_min, q->year_max);
    if ((q->n_categories && !q->categories) || (q->n_authors && !q->authors))
        return set_error(ix, PDX_EINVAL, "a filter has a count but no items");
    if (q->sort < PDX_SORT_AUTO || q->sort > PDX_SORT_OLDEST)
        return set_error(ix, PDX_EINVAL, "unknown sort order %d", q->sort);
    if (!q->lenient && (check_parens(ix, t) || check_operators(ix, t)))
        return ix->code;
    if (q->expand_weight > 1.0)
        return set_error(ix, PDX_EINVAL,
                         "expansion weight must be in (0,1], not %g",
                         q->expand_weight);
    if (q->title_weight > 100.0 || q->author_weight > 100.0)
        return set_error(ix, PDX_EINVAL, "field weights are at most 100");
    if (q->expand_docs > 1000 || q->expand_terms > 1000)
        return set_error(ix, PDX_EINVAL,
                         "expansion uses at most 1000 documents and terms");
    int has_text = 0;
    for (const char *p = t; *p; p++)
        if (!isspace((unsigned char)*p))
            has_text = 1;
    if (!has_text && !q->all && !q->n_categories && !q->n_authors &&
        !q->year_min && !q->year_max)
        return set_error(ix, PDX_EINVAL,
                         "empty query: give search words or at least one "
                         "filter (year, category, author)");
    return 0;
}

/* Author filter keys for one name as a user wrote it; see pdx_query. */
static int author_query_keys(pdx_index *ix, arena *a, const char *name,
                             shim_author_key *out, size_t *n)
{
    name_keys nk;
    size_t bad;
    if (!name || !text_utf8_valid(name, strlen(name), &bad))
        return set_error(ix, PDX_EINVAL, "author filter is not valid UTF-8");
    char *clean = text_clean(a, name);
    if (!clean || text_name_keys(a, clean, &nk))
        return set_error(ix, PDX_ENOMEM, "out of memory");
    if (!*nk.family)
        return set_error(ix, PDX_EINVAL,
                         "author filter \"%s\" has no family name", name);
    if (!*nk.initial) {
        out[(*n)++] = (shim_author_key){SHIM_AUTHOR_FAMILY, nk.family};
        return 0;
    }
    char *initial = join2(a, nk.family, nk.initial);
    if (!initial)
        return set_error(ix, PDX_ENOMEM, "out of memory");
    if (nk.given_is_initial) {
        out[(*n)++] = (shim_author_key){SHIM_AUTHOR_INITIAL, initial};
        return 0;
    }
    char *full = join2(a, nk.family, nk.given);
    if (!full)
        return set_error(ix, PDX_ENOMEM, "out of memory");
    /* The full name, or a work that only knows the initial. */
    out[(*n)++] = (shim_author_key){SHIM_AUTHOR_FULL, full};
    out[(*n)++] = (shim_author_key){SHIM_AUTHOR_FULL, initial};
    return 0;
}

int pdx_search(pdx_results **out, pdx_index *ix, const pdx_query *q)
{
    *out = NULL;
    if (!ix)
        return PDX_EINVAL;
    clear_error(ix);
    /* A version 1 caller's struct ends before `lenient`: read that much
     * and give the rest its defaults. */
    pdx_query v2 = PDX_QUERY_INIT;
    if (q && q->version == 1) {
        memcpy(&v2, q, offsetof(pdx_query, lenient));
        v2.version = PDX_QUERY_VERSION;
        q = &v2;
    }
    if (need_db(ix) || check_query(ix, q))
        return ix->code;

    arena a = {0};
    int rc = PDX_ENOMEM;
    pdx_results *r = calloc(1, sizeof *r);
    const char **cats =
        q->n_categories ? arena_alloc(&a, q->n_categories * sizeof *cats)
                        : NULL;
    shim_author_key *aks =
        q->n_authors ? arena_alloc(&a, 2 * q->n_authors * sizeof *aks) : NULL;
    if (!r || (q->n_categories && !cats) || (q->n_authors && !aks)) {
        set_error(ix, PDX_ENOMEM, "out of memory");
        goto fail;
    }
    size_t n_cats = 0, n_aks = 0;
    for (size_t i = 0; i < q->n_categories; i++) {
        char *k[2];
        size_t bad;
        if (!q->categories[i] ||
            !text_utf8_valid(q->categories[i], strlen(q->categories[i]), &bad)) {
            rc = set_error(ix, PDX_EINVAL, "category filter is not valid UTF-8");
            goto fail;
        }
        int nk = category_keys(&a, q->categories[i], 1, k);
        if (nk < 0) {
            set_error(ix, PDX_ENOMEM, "out of memory");
            goto fail;
        }
        if (nk == 0) {
            rc = set_error(ix, PDX_EINVAL, "empty category filter");
            goto fail;
        }
        cats[n_cats++] = k[0];
    }
    for (size_t i = 0; i < q->n_authors; i++)
        if ((rc = author_query_keys(ix, &a, q->authors[i], aks, &n_aks)))
            goto fail;

    const char *text = q->text ? q->text : "";
    int has_text = 0;
    for (const char *p = text; *p; p++)
        if (!isspace((unsigned char)*p))
            has_text = 1;
    pdx_sort sort = q->sort;
    if (sort == PDX_SORT_AUTO)
        sort = has_text ? PDX_SORT_RELEVANCE : PDX_SORT_NEWEST;
    shim_query sq = {
        .text = has_text ? text : "",
        .year_min = q->year_min,
        .year_max = q->year_max,
        .cat_keys = cats,
        .n_cat_keys = n_cats,
        .author_keys = aks,
        .n_author_keys = n_aks,
        .k1 = q->k1 < 0 ? PDX_DEFAULT_K1 : q->k1,
        .b = q->b < 0 ? PDX_DEFAULT_B : q->b,
        .offset = q->offset,
        .limit = q->limit,
        .sort = sort == PDX_SORT_NEWEST   ? SHIM_SORT_NEWEST
                : sort == PDX_SORT_OLDEST ? SHIM_SORT_OLDEST
                                          : SHIM_SORT_RELEVANCE,
        .exact_total = q->exact_total,
        .snippet_bytes = q->snippet_bytes,
        .explain = q->explain,
        .suggest = !q->no_suggest,
        .facets = q->facets & (PDX_FACET_YEAR | PDX_FACET_CATEGORY |
                               PDX_FACET_AUTHOR),
        .facet_limit = q->facet_limit,
        .lenient = q->lenient,
        .expand_docs = q->expand_docs,
        .expand_terms = q->expand_terms ? q->expand_terms
                                        : PDX_DEFAULT_EXPAND_TERMS,
        .expand_weight = q->expand_weight > 0 ? q->expand_weight
                                              : PDX_DEFAULT_EXPAND_WEIGHT,
        .title_weight = q->title_weight < 0 ? PDX_DEFAULT_TITLE_WEIGHT
                                            : q->title_weight,
        .author_weight = q->author_weight < 0 ? PDX_DEFAULT_AUTHOR_WEIGHT
                                              : q->author_weight,
    };
    r->offset = q->offset;
    shim_err e = {0, ""};
    rc = shim_search(&r->totals, ix->db, &sq, on_hit, on_facet, r, &e);
    if (rc) {
        from_shim(ix, rc, &e);
        goto fail;
    }
    arena_free(&a);
    *out = r;
    return 0;
fail:
    arena_free(&a);
    pdx_results_free(r);
    return ix->code ? ix->code : rc;
}

static int on_got(void *ctx, const char *data, size_t len)
{
    pdx_results *r = ctx;
    r->totals.estimated = r->totals.lower = r->totals.upper = r->n + 1;
    return on_hit(ctx, 0.0, data, len, NULL, NULL);
}

int pdx_get(pdx_results **out, pdx_index *ix, const char *id)
{
    *out = NULL;
    int entry = enter(ix);
    if (entry)
        return entry;
    if (!id || !*id || strlen(id) > PDX_ID_MAX)
        return set_error(ix, PDX_EINVAL, "pdx_get: invalid id");
    pdx_work probe = PDX_WORK_INIT;
    probe.id = id;
    probe.arxiv_id = id;
    arena a = {0};
    const char *keys[MERGE_MAX_KEYS + 1];
    size_t nk = merge_keys(&a, &probe, keys); /* XMA<id>, XI<id> */
    char *q = arena_alloc(&a, strlen(id) + 2);
    pdx_results *r = calloc(1, sizeof *r);
    int rc = PDX_ENOMEM;
    if (!q || !r) {
        set_error(ix, PDX_ENOMEM, "out of memory");
        goto done;
    }
    q[0] = 'Q';
    strcpy(q + 1, id);
    keys[nk++] = q;
    shim_err e = {0, ""};
    rc = shim_lookup(ix->db, keys, nk, on_got, r, &e);
    if (rc)
        from_shim(ix, rc, &e);
done:
    arena_free(&a);
    if (rc) {
        pdx_results_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

int pdx_similar(pdx_results **out, pdx_index *ix, const char *id,
                size_t limit)
{
    *out = NULL;
    int entry = enter(ix);
    if (entry)
        return entry;
    if (limit > PDX_MAX_LIMIT)
        return set_error(ix, PDX_EINVAL, "limit %zu is above %d", limit,
                         PDX_MAX_LIMIT);
    /* The work may go by another id than the one given. */
    pdx_results *found = NULL;
    int rc = pdx_get(&found, ix, id);
    if (rc)
        return rc;
    if (!pdx_results_count(found)) {
        pdx_results_free(found);
        return set_error(ix, PDX_ENOTFOUND, "no work with id '%s'", id);
    }
    pdx_results *r = calloc(1, sizeof *r);
    shim_err e = {0, ""};
    rc = r ? shim_similar(&r->totals, ix->db,
                          pdx_results_hit(found, 0)->work.id, PDX_SIMILAR_TERMS,
                          PDX_DEFAULT_K1, PDX_DEFAULT_B, limit, on_hit, r, &e)
           : PDX_ENOMEM;
    pdx_results_free(found);
    if (rc) {
        if (r)
            from_shim(ix, rc, &e);
        else
            set_error(ix, rc, "out of memory");
        pdx_results_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

const char *pdx_results_suggestion(const pdx_results *r)
{
    return r && r->totals.suggestion[0] ? r->totals.suggestion : NULL;
}

size_t pdx_results_count(const pdx_results *r) { return r ? r->n : 0; }

const pdx_hit *pdx_results_hit(const pdx_results *r, size_t i)
{
    return r && i < r->n ? &r->hits[i] : NULL;
}

size_t pdx_results_total(const pdx_results *r)
{
    return r ? r->totals.estimated : 0;
}

size_t pdx_results_total_lower(const pdx_results *r)
{
    return r ? r->totals.lower : 0;
}

size_t pdx_results_total_upper(const pdx_results *r)
{
    return r ? r->totals.upper : 0;
}

void pdx_results_free(pdx_results *r)
{
    if (!r)
        return;
    arena_free(&r->a);
    free(r->hits);
    free(r);
}

/* ---------------------------------------------------------- statistics */

static uint64_t dir_bytes(const char *path)
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

int pdx_stats_get(pdx_stats *out, pdx_index *ix)
{
    int entry = enter(ix);
    if (entry)
        return entry;
    if (!out || out->version != PDX_STATS_VERSION)
        return set_error(ix, PDX_EVERSION,
                         "pdx_stats must be initialised with PDX_STATS_INIT");
    shim_stats s;
    shim_err e = {0, ""};
    int rc = shim_stats_get(&s, ix->db, &e);
    if (rc)
        return from_shim(ix, rc, &e);
    out->works = s.docs;
    out->terms = s.terms;
    out->postings = s.postings;
    out->avg_length = s.avg_length;
    out->bytes = dir_bytes(ix->path);
    out->last_updated = s.last_updated;
    out->layout = s.layout;
    out->last_reindex = s.last_reindex;
    out->sources = s.sources;
    return 0;
}
