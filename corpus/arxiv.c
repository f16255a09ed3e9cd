/*
 * arxiv.c -- the arXiv metadata snapshot schema (one JSON object a line, as
 * in Kaggle's arxiv-metadata-oai-snapshot and ../shared/data).
 *
 * Fields used: id, title, abstract, authors (one string), authors_parsed
 * ([[family, given, suffix], ...]), categories (space-separated), versions
 * ([{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}, ...]),
 * update_date, doi, journal-ref, comments.  Text is unwrapped (the
 * snapshot keeps the submitters' line breaks) and TeX accents in names and
 * text are decoded (Bal\'azs -> Balázs).
 *
 * The date of a work is, in order of preference:
 *   1. the first version's "created" date (YYYY-MM-DD);
 *   2. the YYMM of the id, new style "2103.00823" or old style
 *      "hep-th/9901001" (YYYY-MM; old-style YY >= 91 is 19YY);
 *   3. update_date.
 * The year is that date's year.  (update_date is the date of the latest
 * metadata change, so it is the last resort, not the first.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/text.h"
#include "record.h"

int arxiv_looks_like(const cJSON *obj)
{
    static const char *const keys[] = {"authors_parsed", "update_date",
                                       "submitter",      "journal-ref",
                                       "versions",       "report-no"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (cJSON_GetObjectItemCaseSensitive(obj, keys[i]))
            return 1;
    return 0;
}

/* "Mon, 2 Apr 2007 19:18:42 GMT" -> "2007-04-02" */
int arxiv_version_date(const char *s, char out[32])
{
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    char mon[4];
    int day, year;
    const char *comma = strchr(s, ',');
    if (sscanf(comma ? comma + 1 : s, "%d %3s %d", &day, mon, &year) != 3)
        return -1;
    const char *m = strstr(months, mon);
    if (!m || strlen(mon) != 3 || (m - months) % 3)
        return -1;
    snprintf(out, 32, "%04d-%02d-%02d", year, (int)(m - months) / 3 + 1, day);
    return record_date_valid(out) ? 0 : -1;
}

static int all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

/* YYMM of an arXiv id -> "YYYY-MM", or -1. */
static int id_date(const char *id, char out[32])
{
    const char *slash = strchr(id, '/');
    int yy, mm, year;
    if (slash) { /* old style: archive/YYMMNNN */
        if (strlen(slash + 1) < 7 || !all_digits(slash + 1, 7))
            return -1;
        yy = (slash[1] - '0') * 10 + (slash[2] - '0');
        mm = (slash[3] - '0') * 10 + (slash[4] - '0');
        year = yy >= 91 ? 1900 + yy : 2000 + yy;
    } else { /* new style: YYMM.NNNN or YYMM.NNNNN, optional vN */
        size_t n = strcspn(id, "v");
        if (!(n == 9 || n == 10) || id[4] != '.' || !all_digits(id, 4) ||
            !all_digits(id + 5, n - 5))
            return -1;
        yy = (id[0] - '0') * 10 + (id[1] - '0');
        mm = (id[2] - '0') * 10 + (id[3] - '0');
        year = 2000 + yy;
    }
    if (mm < 1 || mm > 12)
        return -1;
    snprintf(out, 32, "%04d-%02d", year, mm);
    return 0;
}

/* authors_parsed -> display names "Given Family Suffix".  Returns 1 if it
 * was usable, 0 if absent or malformed (the caller falls back to the
 * authors string), -1 on out-of-memory. */
static int parsed_authors(arena *a, pdx_work *w, const cJSON *ap)
{
    if (!cJSON_IsArray(ap) || cJSON_GetArraySize(ap) == 0)
        return 0;
    size_t n = (size_t)cJSON_GetArraySize(ap), k = 0;
    const char **names = arena_alloc(a, n * sizeof *names);
    if (!names)
        return -1;
    const cJSON *e;
    cJSON_ArrayForEach(e, ap)
    {
        const cJSON *part[3] = {NULL, NULL, NULL};
        if (!cJSON_IsArray(e))
            return 0;
        for (int i = 0; i < 3; i++) {
            part[i] = cJSON_GetArrayItem(e, i);
            if (part[i] && !cJSON_IsString(part[i]))
                return 0;
        }
        if (!part[0])
            return 0;
        strbuf b = STRBUF_INIT;
        if (part[1] && *part[1]->valuestring) {
            sb_puts(&b, part[1]->valuestring);
            sb_putc(&b, ' ');
        }
        sb_puts(&b, part[0]->valuestring);
        if (part[2] && *part[2]->valuestring) {
            sb_putc(&b, ' ');
            sb_puts(&b, part[2]->valuestring);
        }
        char *c = b.ok && b.s ? text_clean(a, b.s) : NULL;
        int ok = b.ok;
        sb_release(&b);
        if (!ok || !c)
            return -1;
        if (*c)
            names[k++] = c;
    }
    w->authors = names;
    w->n_authors = k;
    return 1;
}

pdx_skip arxiv_decode(arena *a, pdx_work *w, const cJSON *obj, strbuf *why)
{
    const pdx_work init = PDX_WORK_INIT;
    *w = init;
    if (rec_string(a, obj, "id", REC_COLLAPSE, &w->id, why))
        return PDX_SKIP_FIELD;
    if (!w->id) {
        sb_puts(why, "arXiv record has no \"id\"");
        return PDX_SKIP_ID;
    }
    w->arxiv_id = w->id;
    if (rec_string(a, obj, "title", REC_TEX, &w->title, why) ||
        rec_string(a, obj, "abstract", REC_TEX, &w->abstract, why) ||
        rec_list(a, obj, "categories", 0, REC_COLLAPSE, &w->categories,
                 &w->n_categories, why) ||
        rec_string(a, obj, "doi", REC_COLLAPSE, &w->doi, why) ||
        rec_string(a, obj, "journal-ref", REC_TEX, &w->venue, why) ||
        rec_string(a, obj, "comments", REC_TEX, &w->comments, why))
        return PDX_SKIP_FIELD;

    int pa = parsed_authors(
        a, w, cJSON_GetObjectItemCaseSensitive(obj, "authors_parsed"));
    if (pa < 0) {
        sb_puts(why, "out of memory");
        return PDX_SKIP_FIELD;
    }
    if (pa == 0 && rec_list(a, obj, "authors", 1, REC_TEX, &w->authors,
                            &w->n_authors, why))
        return PDX_SKIP_FIELD;

    char date[32];
    const cJSON *versions = cJSON_GetObjectItemCaseSensitive(obj, "versions");
    const cJSON *v0 = cJSON_IsArray(versions) ? cJSON_GetArrayItem(versions, 0)
                                              : NULL;
    const cJSON *created = cJSON_GetObjectItemCaseSensitive(v0, "created");
    const char *upd = NULL;
    if (cJSON_IsString(created) && arxiv_version_date(created->valuestring, date) == 0)
        w->date = arena_strdup(a, date);
    else if (id_date(w->id, date) == 0)
        w->date = arena_strdup(a, date);
    else if (rec_string(a, obj, "update_date", REC_COLLAPSE, &upd, why))
        return PDX_SKIP_FIELD;
    else if (upd && record_date_valid(upd))
        w->date = upd;
    if (w->date)
        w->year = atoi(w->date);
    return PDX_SKIP_NONE;
}
