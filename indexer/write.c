/*
 * write.c -- the write side of pdx_index: a record in (merged with the
 * works it belongs to, by corpus/merge.c's rules), works out, the
 * sources' fingerprints, commits, compaction.  Everything Xapian is
 * behind indexer/shim_write.h; the layout is common/layout.h's.
 *
 * The same functions (text.c) derive an author's or a category's keys
 * here and when a filter is given (searcher/search.c), so the two sides
 * cannot disagree.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../common/handle.h"
#include "../common/layout.h"
#include "../common/text.h"
#include "../corpus/merge.h"
#include "../corpus/record.h"
#include "shim_write.h"
#include "write.h"

int pdx_compact(pdx_index *ix, const char *dest)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (!dest || !*dest)
        return handle_error(ix, PDX_EINVAL, "no destination given");
    struct stat st;
    if (stat(dest, &st) == 0)
        return handle_error(ix, PDX_EINVAL,
                         "'%s' exists; compact writes a new directory", dest);
    shim_err e = {0, ""};
    int rc = shim_compact(ix->db, dest, &e);
    return rc ? handle_from_shim(ix, rc, &e) : 0;
}

int write_sync_dir(const char *path)
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

/* ------------------------------------------------------------- writing */

/* Write work m (its view computed) as one document, deleting the works
 * whose ids are in del (those it absorbed).  `fresh`: the caller has
 * looked the id up and no document has it, so the work is added without
 * Xapian looking for one to replace. */
static int put_work(pdx_index *ix, arena *a, const merge_work *m,
                    const char *const *del, size_t n_del, int fresh)
{
    /* A tombstone (every record set aside) is written with its ids, its
     * records' keys and XW, and nothing a search could find. */
    const int tomb = m->view.withdrawn;
    pdx_work shown = m->view;
    if (tomb) {
        pdx_work bare = PDX_WORK_INIT;
        bare.id = shown.id;
        shown = bare;
    }
    const pdx_work *w = &shown;
    char *json = merge_to_json(m);
    shim_author *authors =
        w->n_authors ? arena_alloc(a, w->n_authors * sizeof *authors) : NULL;
    const char **cats =
        w->n_categories ? arena_alloc(a, 2 * w->n_categories * sizeof *cats)
                        : NULL;
    const char **terms =
        arena_alloc(a, (m->n_src * (MERGE_MAX_KEYS + 2) + MERGE_MAX_CLASS + 2) *
                           sizeof *terms);
    const char **subj =
        w->n_subjects ? arena_alloc(a, w->n_subjects * sizeof *subj) : NULL;
    if (!json || (w->n_authors && !authors) || (w->n_categories && !cats) ||
        !terms || (w->n_subjects && !subj))
        goto oom;
    size_t n_subj = 0;
    for (size_t i = 0; i < w->n_subjects; i++) {
        char *k = text_fold(a, w->subjects[i], strlen(w->subjects[i]));
        if (!k)
            goto oom;
        if (*k)
            subj[n_subj++] = k;
    }
    for (size_t i = 0; i < w->n_authors; i++) {
        name_keys nk;
        if (text_name_keys_rules(a, w->authors[i], shim_name_rules(ix->db),
                                 &nk))
            goto oom;
        shim_author *sa = &authors[i];
        sa->name = w->authors[i];
        sa->family = nk.family;
        sa->full = "";
        /* the family name without its particles too ("berg" for van
         * der Berg), or the double family name ("garciamarquez" for
         * Gabriel García Márquez), so that either finds the author */
        const char *other = text_name_other_family(&nk);
        sa->bare = other ? other : "";
        sa->full_bare = "";
        if (*nk.family && *nk.initial) {
            /* "family given", or "family i" when only initials are
             * known: either way it begins with "family i", which an
             * author filter of initials finds as a prefix (layout 5). */
            const char *g = nk.given_is_initial ? nk.initial : nk.given;
            sa->full = text_join2(a, nk.family, g);
            if (!sa->full || (*sa->bare && !(sa->full_bare =
                                                 text_join2(a, sa->bare, g))))
                goto oom;
        }
    }
    size_t n_cats = 0;
    for (size_t i = 0; i < w->n_categories; i++) {
        char *k[TEXT_CATEGORY_KEYS];
        int nk = text_category_keys(a, w->categories[i], 0, k);
        if (nk < 0)
            goto oom;
        for (int j = 0; j < nk; j++)
            cats[n_cats++] = k[j];
    }
    size_t n_terms = 0;
    for (size_t i = 0; i < m->n_src; i++) {
        const pdx_work *r = &m->src[i].rec;
        n_terms += merge_stored_keys(a, r, w->id, terms + n_terms);
        if (r->source && (!(terms[n_terms++] = merge_file_key(a, r->source)) ||
                          !(terms[n_terms++] = merge_record_key(a, r))))
            goto oom;
    }
    n_terms += merge_class_terms(m, terms + n_terms);
    if (tomb)
        terms[n_terms++] = LAYOUT_TOMBSTONE;
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
        .subject_keys = subj,
        .n_subject_keys = n_subj,
        .subjects = w->subjects,
        .n_subjects = w->n_subjects,
        .terms = terms,
        .n_terms = n_terms,
        .delete_ids = del,
        .n_delete_ids = n_del,
        .fresh = fresh,
    };
    shim_err e = {0, ""};
    int rc = shim_put(ix->db, &d, &e);
    if (rc)
        handle_from_shim(ix, rc, &e);
    free(json);
    return rc;
oom:
    free(json);
    return handle_error(ix, PDX_ENOMEM, "out of memory");
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
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (w && (w->version < 1 || w->version > PDX_WORK_VERSION))
        return handle_error(ix, PDX_EVERSION,
                            "pdx_work version %u is not 1 to %d (initialise "
                            "it with PDX_WORK_INIT or pdx_work_init)",
                            w->version, PDX_WORK_VERSION);
    /* An older caller's struct ends before pmid (version 1) or
     * merged_into (version 2): read that much, the rest empty. */
    pdx_work w2 = PDX_WORK_INIT;
    if (w && w->version < PDX_WORK_VERSION) {
        memcpy(&w2, w, w->version == 1 ? PDX_WORK_V1_SIZE : PDX_WORK_V2_SIZE);
        w2.version = PDX_WORK_VERSION;
        w = &w2;
    }
    strbuf why = STRBUF_INIT;
    if (record_check(w, &why)) {
        handle_error(ix, PDX_EINVAL, "invalid work%s%s: %s", w && w->id ? " " : "",
                  w && w->id ? w->id : "", why.s ? why.s : "out of memory");
        sb_release(&why);
        return PDX_EINVAL;
    }

    arena a = {0};
    int rc = PDX_ENOMEM;
    merge_lookup look;
    const char *keys[MERGE_MAX_KEYS + 1];
    char *q = arena_concat(&a, LAYOUT_P_ID, w->id);
    if (!q || merge_lookup_of(&a, w, &look))
        goto oom;
    size_t nk = look.n_plain;
    memcpy(keys, look.plain, nk * sizeof *keys);
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
        handle_from_shim(ix, rc, &e);
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
                    handle_from_shim(ix, rc, &e);
                    goto done;
                }
            } else if (merge_view(&a, cw, &why) ||
                       (rc = put_work(ix, &a, cw, gone, 1, 0))) {
                if (!ix->code)
                    rc = handle_error(ix, PDX_EINVAL, "%s",
                                   why.s ? why.s : "cannot re-merge");
                goto done;
            }
        }
    }
    if (merge_view(&a, &m, &why)) {
        rc = handle_error(ix, PDX_EINVAL, "invalid work %s: %s", w->id,
                       why.s ? why.s : "cannot merge");
        goto done;
    }
    /* No candidate at all: nothing holds Q<id> (it was looked up). */
    rc = put_work(ix, &a, &m, del, n_del, c.n == 0);
    goto done;
oom:
    rc = handle_error(ix, PDX_ENOMEM, "out of memory");
done:
    sb_release(&why);
    arena_free(&a);
    return rc;
}

int write_strlist_add(write_strlist *l, const char *str, size_t n)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = cap;
    }
    if (!(l->v[l->n] = strndup(str, n)))
        return -1;
    l->n++;
    return 0;
}

void write_strlist_free(write_strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    *l = (write_strlist){0};
}

static int on_shared_term(void *ctx, const char *data, size_t len)
{
    return write_strlist_add(ctx, data, len);
}

static int count_term(void *ctx, const char *data, size_t len)
{
    (void)data;
    (void)len;
    ++*(size_t *)ctx;
    return 0;
}

/* Would putting again a record of one of works c join it to another of
 * them (pdx_put's rule: the record matches the work, or bears its id)?
 * Works that merely share a key (two papers with one title and different
 * arXiv ids) would come out as they are: rewriting them is wasted.  A
 * join with a work outside c shares another key with it, whose group is
 * looked at in its turn. */
static int any_joins(arena *a, const candidates *c)
{
    for (size_t k = 0; k < c->n; k++)
        for (size_t j = 0; j < c->v[k].n_src; j++) {
            const pdx_work *r = &c->v[k].src[j].rec;
            for (size_t o = 0; o < c->n; o++)
                if (o != k && (merge_matches(a, r, &c->v[o]) ||
                               (r->id && !strcmp(c->v[o].view.id, r->id))))
                    return 1;
        }
    return 0;
}

/* Is the pair key[0] = XI<x> or XMA<x>, key[1] = Q<x> worth reading the
 * works of (*worth)?  Only if some work holds Q<x>, or two the key: XI<x>
 * is in every work named by another id (an OpenAlex record's W-id in a
 * work named by its arXiv id), and two term frequencies cost less than
 * reading that work. */
static int worth_a_look(shim_db *db, const char *const key[2], int *worth,
                        shim_err *e)
{
    uint64_t q = 0, held = 0;
    int rc = shim_termfreq(db, key[1], &q, e);
    if (!rc && !q)
        rc = shim_termfreq(db, key[0], &held, e);
    *worth = q > 0 || held > 1;
    return rc;
}

/* Groups regrouped between commits in write_remerge. */
#define REMERGE_BATCH 1000

int write_remerge(pdx_index *ix, size_t *regrouped)
{
    if (regrouped)
        *regrouped = 0;
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    /* The merge keys two works share; XS (source positions) and XP (file
     * keys) are not evidence of the same work.  An arXiv id x, or an id x
     * a source gave, is XMA<x> or XI<x> in a work of another id and Q<x>
     * in the work of id x (merge_stored_keys): works that share it hold
     * Q<x> twice, or XMA<x> / XI<x> once or more, each then looked up
     * with Q<x>. */
    static const struct {
        const char *prefix;
        unsigned min_works;
    } shared[] = {{LAYOUT_P_ARXIV, 1},      {LAYOUT_P_DOI, 2},
                  {LAYOUT_P_PMID, 2},       {LAYOUT_P_OPENALEX, 2},
                  {LAYOUT_P_ID, 2},         {LAYOUT_P_SOURCE_ID, 1},
                  {LAYOUT_P_TITLE_HASH, 2}, {LAYOUT_P_ABSTRACT_HASH, 2}};
    write_strlist terms = {0};
    shim_err e = {0, ""};
    int rc = 0;
    size_t groups = 0;
    for (size_t i = 0; i < sizeof shared / sizeof shared[0] && !rc; i++)
        rc = shim_terms(ix->db, shared[i].prefix, shared[i].min_works,
                        on_shared_term, &terms, &e);
    if (rc) {
        handle_from_shim(ix, rc, &e);
        goto done;
    }
    for (size_t i = 0; i < terms.n && !rc; i++) {
        arena a = {0};
        candidates c = {.a = &a};
        const char *key[2] = {terms.v[i], NULL};
        size_t nk = 1;
        int worth = 1;
        if (merge_stood_for(key[0]) && !(key[nk++] = merge_stand_in(&a, key[0])))
            rc = handle_error(ix, PDX_ENOMEM, "out of memory");
        else if (nk == 2 && (rc = worth_a_look(ix->db, key, &worth, &e)))
            handle_from_shim(ix, rc, &e);
        else if (worth &&
                 (rc = shim_lookup(ix->db, key, nk, on_candidate, &c, &e)))
            handle_from_shim(ix, rc, &e);
        else if (worth && c.n > 1 && any_joins(&a, &c)) {
            /* The first work stays; every record of the others is put
             * again: pdx_put finds the work it came from by its id and
             * the first by the shared key, takes the record out of the
             * one and merges it by the usual rules, as one index built in
             * one pass would have.  (Taking every work out and putting
             * all their records back gives the same index, since putting
             * the first work's records again makes the first work: it
             * cost 2 deletions and 2 documents a pair where this costs
             * 1 and 1.) */
            for (size_t k = 1; k < c.n && !rc; k++)
                for (size_t j = 0; j < c.v[k].n_src && !rc; j++)
                    rc = pdx_put(ix, &c.v[k].src[j].rec);
            if (!rc && regrouped)
                (*regrouped)++;
            /* Each commit holds whole groups; without them Xapian holds
             * every change in memory (200 MB for 10,000 groups). */
            if (!rc && ++groups % REMERGE_BATCH == 0)
                rc = pdx_commit(ix);
        }
        arena_free(&a);
    }
done:
    write_strlist_free(&terms);
    return rc;
}

int pdx_delete(pdx_index *ix, const char *id)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (!id || !*id || strlen(id) > PDX_ID_MAX)
        return handle_error(ix, PDX_EINVAL, "pdx_delete: invalid id");
    /* The work may go by another id than the one given (an arXiv id, or
     * another source's): found by the keys pdx_get uses. */
    arena a = {0};
    const char *keys[MERGE_MAX_KEYS + 1];
    size_t nk = merge_id_keys(&a, id, keys);
    candidates c = {.a = &a};
    shim_err e = {0, ""};
    int rc = 0;
    if (!nk)
        rc = handle_error(ix, PDX_ENOMEM, "out of memory");
    else if ((rc = shim_lookup(ix->db, keys, nk, on_candidate, &c, &e)))
        handle_from_shim(ix, rc, &e);
    for (size_t i = 0; rc == 0 && i < c.n; i++)
        if ((rc = shim_delete(ix->db, c.v[i].view.id, &e)))
            handle_from_shim(ix, rc, &e);
    arena_free(&a);
    return rc;
}

int pdx_commit(pdx_index *ix)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    shim_err e = {0, ""};
    int rc = shim_commit(ix->db, &e);
    return rc ? handle_from_shim(ix, rc, &e) : 0;
}

/* ------------------------------------------------------------- sources */

#define SRC_META LAYOUT_META_SOURCE

int pdx_source_set(pdx_index *ix, const pdx_source *s)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (s && s->version != PDX_SOURCE_VERSION)
        return handle_error(ix, PDX_EVERSION,
                            "pdx_source version %u is not %d (initialise it "
                            "with PDX_SOURCE_INIT or pdx_source_init)",
                            s->version, PDX_SOURCE_VERSION);
    if (!s || !s->path || !*s->path)
        return handle_error(ix, PDX_EINVAL, "pdx_source_set: no path");
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
        return handle_error(ix, PDX_ENOMEM, "out of memory");
    char key[64];
    handle_source_key(s->path, key);
    shim_err e = {0, ""};
    int rc = shim_meta_set(ix->db, key, json, &e);
    free(json);
    return rc ? handle_from_shim(ix, rc, &e) : 0;
}

/* One work fed by the source being removed: drop that source's records;
 * delete the work, or merge it again from the rest.  The lookup first
 * collects the stored record of every work the source fed (the callbacks
 * write, and a writer's posting list must not change under its iterator),
 * so memory grows with the source: its works' stored JSON, about 2 KB
 * each (20 MB for a file of 10,000 records); each work's merge arena is
 * freed before the next. */
typedef struct remove_ctx {
    pdx_index *ix;
    const char *path;
    const char *record; /* only the record with this record term, or NULL */
    int rc;
    arena *out;          /* where the removed record's id is copied */
    const char **id;
} remove_ctx;

/* Is source record r one remove_from_work takes out? */
static int removed_here(arena *a, const remove_ctx *rc, const pdx_work *r)
{
    if (!r->source || strcmp(r->source, rc->path))
        return 0;
    if (!rc->record)
        return 1;
    const char *k = merge_record_key(a, r);
    return k && !strcmp(k, rc->record);
}

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
        for (size_t j = 0; j < cw.n_src; j++) {
            if (!removed_here(&a, rc, &cw.src[j].rec))
                cw.src[kept++] = cw.src[j];
            else if (rc->id && !**rc->id && cw.src[j].rec.id)
                *rc->id = arena_strdup(rc->out, cw.src[j].rec.id);
        }
        if (kept == cw.n_src) { /* nothing of it here (a stale lookup) */
            sb_release(&why);
            arena_free(&a);
            return 0;
        }
        cw.n_src = kept;
        if (kept == 0) {
            if ((rc->rc = shim_delete(rc->ix->db, cw.view.id, &e)))
                handle_from_shim(rc->ix, rc->rc, &e);
        } else if (merge_view(&a, &cw, &why)) {
            rc->rc = handle_error(rc->ix, PDX_ERROR, "cannot merge %s again: %s",
                               cw.view.id, why.s ? why.s : "?");
        } else {
            rc->rc = put_work(rc->ix, &a, &cw, old, 1, 0);
        }
    }
    sb_release(&why);
    arena_free(&a);
    return rc->rc ? 1 : 0;
}

int write_source_remove(pdx_index *ix, const char *path)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (!path || !*path)
        return handle_error(ix, PDX_EINVAL, "write_source_remove: no path");
    arena a = {0};
    const char *keys[1] = {merge_file_key(&a, path)};
    remove_ctx rc = {ix, path, NULL, 0, NULL, NULL};
    shim_err e = {0, ""};
    int r = keys[0] ? shim_lookup(ix->db, keys, 1, remove_from_work, &rc, &e)
                    : PDX_ENOMEM;
    arena_free(&a);
    if (rc.rc)
        return rc.rc;
    if (r)
        return handle_from_shim(ix, r, &e);
    char key[64];
    handle_source_key(path, key);
    if ((r = shim_meta_set(ix->db, key, "", &e)))
        return handle_from_shim(ix, r, &e);
    return 0;
}

int write_clear(pdx_index *ix)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    shim_err e = {0, ""};
    int rc = shim_clear(ix->db, SRC_META, &e);
    return rc ? handle_from_shim(ix, rc, &e) : 0;
}

int write_mark_reindexed(pdx_index *ix)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    char now[32];
    snprintf(now, sizeof now, "%lld", (long long)time(NULL));
    shim_err e = {0, ""};
    int rc = shim_meta_set(ix->db, LAYOUT_META_REINDEXED, now, &e);
    return rc ? handle_from_shim(ix, rc, &e) : 0;
}

/* ---------------------------------------------- record-level sync (sync.c) */

int write_record_state(pdx_index *ix, const pdx_work *w, write_rec *state)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (!w || !w->source)
        return handle_error(ix, PDX_EINVAL, "write_record_state: no source");
    arena a = {0};
    const char *key = merge_record_key(&a, w);
    uint64_t tf = 0;
    shim_err e = {0, ""};
    int rc = key ? shim_termfreq(ix->db, key, &tf, &e) : PDX_ENOMEM;
    *state = WRITE_REC_NEW;
    if (!rc && tf) {
        *state = WRITE_REC_UNCHANGED;
    } else if (!rc) {
        /* Another version of the record at this place? */
        const char *prefix = merge_record_prefix(&a, w->source, w);
        size_t n = 0;
        rc = prefix ? shim_terms(ix->db, prefix, 1, count_term, &n, &e)
                    : PDX_ENOMEM;
        if (!rc && n)
            *state = WRITE_REC_CHANGED;
    }
    arena_free(&a);
    if (rc == PDX_ENOMEM && !e.msg[0])
        return handle_error(ix, rc, "out of memory");
    return rc ? handle_from_shim(ix, rc, &e) : 0;
}

int write_file_records(pdx_index *ix, const char *path,
                       int (*fn)(void *, const char *, size_t), void *ctx)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    arena a = {0};
    const char *prefix = merge_record_prefix(&a, path, NULL);
    shim_err e = {0, ""};
    int rc = prefix ? shim_terms(ix->db, prefix, 1, fn, ctx, &e) : PDX_ENOMEM;
    arena_free(&a);
    if (rc == PDX_ENOMEM && !e.msg[0])
        return handle_error(ix, rc, "out of memory");
    return rc ? handle_from_shim(ix, rc, &e) : 0;
}

int write_remove_record(pdx_index *ix, const char *path, const char *term,
                        arena *out, const char **id)
{
    int entry = handle_enter(ix);
    if (entry)
        return entry;
    if (id)
        *id = "";
    const char *keys[1] = {term};
    remove_ctx rc = {ix, path, term, 0, out, id};
    shim_err e = {0, ""};
    int r = shim_lookup(ix->db, keys, 1, remove_from_work, &rc, &e);
    if (rc.rc)
        return rc.rc;
    return r ? handle_from_shim(ix, r, &e) : 0;
}
