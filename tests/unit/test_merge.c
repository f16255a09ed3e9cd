/*
 * test_merge.c -- the merge lookup prunes only what the merge rules
 * reject.  A new record looks a work up by title or abstract only among
 * works without the class terms (XMCa/d/i/t) of what the record has
 * itself (merge_lookup_of, merge_class_terms).  That is safe only if every
 * work merge_matches() would join is still found, by the pruned keys or
 * by the arXiv id, DOI, own id or Q<id> keys.  This test checks it over
 * many random records and works whose fields are drawn from small pools,
 * so that equal and different ids, DOIs, titles and abstracts meet in
 * every combination; and that the pruning does prune.
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/arena.h"
#include "../../corpus/merge.h"
#include "check.h"

static unsigned long long rng = 20261123;

static unsigned pick(unsigned n)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng >> 33) % n);
}

/* A record with each field absent or one of two values. */
static void random_record(pdx_work *w, unsigned line)
{
    static const char *arxiv[] = {NULL, NULL, "2101.00001", "2101.00002v2"};
    static const char *doi[] = {NULL, NULL, "10.1000/A", "10.1000/b"};
    static const char *own[] = {NULL, "x1", "x2"};
    static const char *title[] = {NULL, "Editorial", "editorial.", "Preface"};
    static const char *abstract[] = {NULL, "No abstract available.",
                                     "no abstract  available", "Other text."};
    static char ids[4096][32];
    const pdx_work init = PDX_WORK_INIT;
    *w = init;
    w->arxiv_id = arxiv[pick(4)];
    w->doi = doi[pick(4)];
    const char *o = own[pick(3)];
    if (o)
        w->id = o;
    else if (w->arxiv_id)
        w->id = w->arxiv_id; /* an arXiv id standing as the id */
    else {
        snprintf(ids[line % 4096], sizeof ids[0], "pdx:%u", line);
        w->id = ids[line % 4096]; /* derived by paperdex */
    }
    w->title = title[pick(4)];
    w->abstract = abstract[pick(4)];
    if (!w->title && !w->abstract)
        w->abstract = "Other text.";
    if (!w->title && pick(2)) {
        w->title = w->abstract; /* a title derived from the abstract */
        w->title_derived = 1;
    }
    w->source = "f.jsonl";
    w->source_line = line;
}

static int has(const char *const *terms, size_t n, const char *t)
{
    for (size_t i = 0; t && i < n; i++)
        if (!strcmp(terms[i], t))
            return 1;
    return 0;
}

static int any(const char *const *terms, size_t n, const char *const *of,
               size_t n_of)
{
    for (size_t i = 0; i < n_of; i++)
        if (has(terms, n, of[i]))
            return 1;
    return 0;
}

int main(void)
{
    int found_by_pruned = 0, pruned_away = 0, matched = 0, missed = 0;
    unsigned line = 1;
    for (int round = 0; round < 20000; round++) {
        arena a = {0};
        merge_work m = {0};
        merge_src src[3];
        m.src = src;
        m.n_src = 1 + pick(3);
        for (size_t i = 0; i < m.n_src; i++)
            random_record(&src[i].rec, line++);
        strbuf why = STRBUF_INIT;
        if (merge_view(&a, &m, &why)) {
            sb_release(&why);
            arena_free(&a);
            continue; /* sources that cannot form one view */
        }
        sb_release(&why);
        /* The work's terms, as indexer/write.c stores them. */
        const char *terms[3 * MERGE_MAX_KEYS + MERGE_MAX_CLASS + 1];
        size_t nt = 0;
        for (size_t i = 0; i < m.n_src; i++)
            nt += merge_keys(&a, &src[i].rec, terms + nt);
        nt += merge_class_terms(&m, terms + nt);
        char q[64];
        snprintf(q, sizeof q, "Q%s", m.view.id);
        terms[nt++] = q;

        pdx_work r;
        random_record(&r, line++);
        merge_lookup l;
        CHECK_INT(merge_lookup_of(&a, &r, &l), 0);
        char rq[64];
        snprintf(rq, sizeof rq, "Q%s", r.id);
        int plain = any(terms, nt, l.plain, l.n_plain) || has(terms, nt, rq);
        int by_title = has(terms, nt, l.title) &&
                       !any(terms, nt, l.title_not, l.n_title_not);
        int by_abstract = has(terms, nt, l.abstract) &&
                          !any(terms, nt, l.abstract_not, l.n_abstract_not);
        int raw = has(terms, nt, l.title) || has(terms, nt, l.abstract);
        if (merge_matches(&a, &r, &m)) {
            matched++;
            if (!(plain || by_title || by_abstract)) {
                missed++;
                if (missed <= 5)
                    fprintf(stderr, "missed: record %s/%s/%s/%s/%s\n",
                            r.id, r.arxiv_id ? r.arxiv_id : "-",
                            r.doi ? r.doi : "-", r.title ? r.title : "-",
                            r.abstract ? r.abstract : "-");
            }
            found_by_pruned += !plain && (by_title || by_abstract);
        } else if (raw && !plain && !by_title && !by_abstract) {
            pruned_away++;
        }
        arena_free(&a);
    }
    CHECK_INT(missed, 0);
    CHECK(matched > 1000);
    CHECK(found_by_pruned > 100); /* the title and abstract rules do work */
    CHECK(pruned_away > 1000);    /* and the pruning does prune */
    printf("%d matches (%d found only by title or abstract), %d candidates "
           "pruned away\n",
           matched, found_by_pruned, pruned_away);
    return check_done();
}
