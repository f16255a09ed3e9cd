/*
 * cite.c -- works written as citations (the contracts are in cite.h), so
 * that a researcher takes a result into Zotero, JabRef or a LaTeX paper
 * without retyping it.
 *
 * Each format says what the work has, and nothing it does not:
 *
 *   BibTeX    @article when the work has a venue (its journal), else
 *             @misc; author "Family, Given and ..."; arXiv's eprint,
 *             archivePrefix and primaryClass as arXiv's own export writes
 *             them; the key is the first author's family name, the year
 *             and the title's first word ("lindqvist2020coral"), with a
 *             letter added when the document has it already.  Text is
 *             escaped for LaTeX (& % $ # _ { } \ ~ ^).
 *   RIS       TY JOUR with a venue, UNPB for an arXiv preprint without
 *             one, else GEN; AU "Family, Given" per author; CRLF line ends
 *             and ER closing each record, as the RIS specification has it.
 *   CSL-JSON  one array of CSL items (citeproc's input, what Zotero and
 *             pandoc read): type article-journal with a venue, else
 *             article; author [{family, given}]; issued date-parts.
 *
 * A name is split as its record writes it: "Family, Given" at the comma;
 * "Given Family" before the last word, particles staying with the family
 * ("Jan van der Berg" is van der Berg, Jan).
 */
#include "cite.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include <utf8proc.h>


int cite_parse_format(const char *s, cite_format *out)
{
    if (!strcmp(s, "bibtex"))
        *out = CITE_BIBTEX;
    else if (!strcmp(s, "ris"))
        *out = CITE_RIS;
    else if (!strcmp(s, "csljson"))
        *out = CITE_CSLJSON;
    else
        return -1;
    return 0;
}

const char *cite_media_type(cite_format fmt)
{
    switch (fmt) {
    case CITE_BIBTEX: return "application/x-bibtex; charset=utf-8";
    case CITE_RIS: return "application/x-research-info-systems; charset=utf-8";
    default: return "application/vnd.citationstyles.csl+json; charset=utf-8";
    }
}

/* Is the word at p (len bytes) a generational suffix (Jr, Sr., III)? */
static int is_suffix(const char *p, size_t len)
{
    static const char *const suffixes[] = {"jr", "jr.", "sr", "sr.", "ii",
                                           "iii", "iv", NULL};
    for (size_t i = 0; suffixes[i]; i++)
        if (strlen(suffixes[i]) == len && !strncasecmp(p, suffixes[i], len))
            return 1;
    return 0;
}

/* A name's family and given names and suffix as written (fam, given and
 * suffix, each at least as long as name).  "Family, Given[, Jr.]" splits
 * at the commas; "Given Family [Jr]" before its last word (a suffix set
 * aside first), with the particles that open the family name (van, von,
 * de, der, ...) kept with it; one word is a family name. */
static void split_name(const char *name, char *fam, char *given,
                       char *suffix)
{
    static const char *const particles[] = {
        "van", "von", "de", "der", "den", "del", "della", "di", "da", "dos",
        "das", "du", "la", "le", "ten", "ter", "zu", "st.", "bin", "ibn",
        "\xc3\x93", "\xc3\xb3", "n\xc3\xad", "N\xc3\xad", NULL}; /* Ó, ó, ní, Ní */
    suffix[0] = '\0';
    const char *comma = strchr(name, ',');
    if (comma) {
        size_t n = (size_t)(comma - name);
        memcpy(fam, name, n);
        fam[n] = '\0';
        const char *g = comma + 1;
        while (*g == ' ')
            g++;
        strcpy(given, g);
        char *c2 = strchr(given, ','); /* "Family, Given, Jr." */
        if (c2) {
            const char *sx = c2 + 1;
            while (*sx == ' ')
                sx++;
            strcpy(suffix, sx);
            *c2 = '\0';
        } else if (is_suffix(given, strlen(given))) { /* "Smith, Jr., John" */
            strcpy(suffix, given);
            given[0] = '\0';
        }
        return;
    }
    /* the start of each word */
    const char *w[64];
    size_t nw = 0;
    for (const char *p = name; *p && nw < 64;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        w[nw++] = p;
        while (*p && *p != ' ')
            p++;
    }
    size_t end = strlen(name);
    if (nw > 2 && is_suffix(w[nw - 1], strcspn(w[nw - 1], " "))) {
        strcpy(suffix, w[nw - 1]);
        end = (size_t)(w[nw - 1] - name);
        nw--;
    }
    size_t first = nw ? nw - 1 : 0; /* the family's first word */
    while (first > 1) {
        const char *p = w[first - 1];
        size_t len = strcspn(p, " ");
        int particle = 0;
        for (size_t i = 0; !particle && particles[i]; i++)
            particle = strlen(particles[i]) == len &&
                       !strncasecmp(p, particles[i], len);
        if (!particle)
            break;
        first--;
    }
    if (nw < 2) {
        memcpy(fam, name, end);
        fam[end] = '\0';
        given[0] = '\0';
        return;
    }
    size_t gn = (size_t)(w[first] - name);
    while (gn && name[gn - 1] == ' ')
        gn--;
    memcpy(given, name, gn);
    given[gn] = '\0';
    size_t fn = end - (size_t)(w[first] - name);
    memcpy(fam, w[first], fn);
    fam[fn] = '\0';
}

/* A name split (split_name), in memory of its own: free_parts. */
typedef struct parts {
    char *family, *given, *suffix;
} parts;

static parts split(const char *name)
{
    size_t n = strlen(name) + 1;
    parts p = {malloc(n), malloc(n), malloc(n)};
    if (!p.family || !p.given || !p.suffix) {
        free(p.family);
        free(p.given);
        free(p.suffix);
        return (parts){NULL, NULL, NULL};
    }
    split_name(name, p.family, p.given, p.suffix);
    char *each[3] = {p.family, p.given, p.suffix};
    for (int i = 0; i < 3; i++) {
        size_t k = strlen(each[i]);
        while (k && each[i][k - 1] == ' ')
            each[i][--k] = '\0';
    }
    return p;
}

static void free_parts(parts p)
{
    free(p.family);
    free(p.given);
    free(p.suffix);
}

/* ---------------------------------------------------------------- BibTeX */

static void bib_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': case '%': case '$': case '#': case '_': case '{': case '}':
            fputc('\\', f);
            fputc(*s, f);
            break;
        case '\\': fputs("\\textbackslash{}", f); break;
        case '~': fputs("\\textasciitilde{}", f); break;
        case '^': fputs("\\textasciicircum{}", f); break;
        case '\n': case '\r': case '\t': fputc(' ', f); break;
        default: fputc(*s, f);
        }
    }
}

static void bib_field(FILE *f, const char *name, const char *value)
{
    if (!value || !*value)
        return;
    fprintf(f, ",\n  %s = {", name);
    bib_text(f, value);
    fputc('}', f);
}

/* The letters a-z of s folded (accents off, lower case: "Løvås" is
 * "lovas"), at most max. */
static void key_part(const char *s, char *out, size_t max)
{
    size_t n = 0;
    utf8proc_uint8_t *folded = NULL;
    if (s && utf8proc_map((const utf8proc_uint8_t *)s, 0, &folded,
                          UTF8PROC_NULLTERM | UTF8PROC_STABLE |
                              UTF8PROC_DECOMPOSE | UTF8PROC_STRIPMARK |
                              UTF8PROC_CASEFOLD) < 0)
        folded = NULL;
    /* letters that carry no mark to strip: ø, æ, ß, ł, đ, ð, þ */
    static const char *const plain[][2] = {
        {"\xc3\xb8", "o"}, {"\xc3\xa6", "ae"}, {"\xc3\x9f", "ss"},
        {"\xc5\x82", "l"}, {"\xc4\x91", "d"}, {"\xc3\xb0", "d"},
        {"\xc3\xbe", "th"}};
    for (const utf8proc_uint8_t *p = folded; p && *p && n < max; p++) {
        if (*p >= 'a' && *p <= 'z') {
            out[n++] = (char)*p;
            continue;
        }
        for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
            if (!strncmp((const char *)p, plain[i][0], 2)) {
                for (const char *q = plain[i][1]; *q && n < max; q++)
                    out[n++] = *q;
                p++;
                break;
            }
    }
    out[n] = '\0';
    free(folded);
}

/* The title's first word that is not a small one, for the key. */
static void title_word(const char *title, char *out, size_t max)
{
    static const char *const small[] = {"a", "an", "the", "on", "of", "in",
                                        "and", "for", "to", "with", "from",
                                        "at", "by", "is", "are", NULL};
    out[0] = '\0';
    const char *p = title;
    while (p && *p) {
        while (*p && !isalnum((unsigned char)*p) && !((unsigned char)*p & 0x80))
            p++;
        const char *w = p;
        while (*p && (isalnum((unsigned char)*p) || ((unsigned char)*p & 0x80)))
            p++;
        char word[64], part[32];
        size_t n = (size_t)(p - w) < sizeof word - 1 ? (size_t)(p - w) : sizeof word - 1;
        memcpy(word, w, n);
        word[n] = '\0';
        key_part(word, part, sizeof part - 1);
        int is_small = !*part;
        for (size_t i = 0; !is_small && small[i]; i++)
            is_small = !strcmp(part, small[i]);
        if (!is_small) {
            snprintf(out, max, "%s", part);
            return;
        }
    }
}

static int cite_bibtex(FILE *f, const pdx_work *const *works, size_t n)
{
    char (*keys)[96] = calloc(n ? n : 1, sizeof *keys);
    if (!keys)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const pdx_work *w = works[i];
        char fam[40] = "", word[40], year[8];
        if (w->n_authors) {
            parts first = split(w->authors[0]);
            if (first.family)
                key_part(first.family, fam, sizeof fam - 1);
            free_parts(first);
        }
        title_word(w->title, word, sizeof word);
        snprintf(year, sizeof year, "%d", w->year);
        char *key = keys[i];
        snprintf(key, sizeof keys[i], "%s%s%s", *fam ? fam : "anon",
                 w->year ? year : "", word);
        /* unique within the document: a, b, ... z, then numbers */
        size_t base = strlen(key);
        for (int suffix = 0;; suffix++) {
            int seen = 0;
            for (size_t j = 0; j < i && !seen; j++)
                seen = !strcmp(keys[j], key);
            if (!seen)
                break;
            if (suffix < 26)
                snprintf(key + base, sizeof keys[i] - base, "%c", 'a' + suffix);
            else
                snprintf(key + base, sizeof keys[i] - base, "%d", suffix);
        }
        fprintf(f, "%s@%s{%s", i ? "\n" : "", w->venue && *w->venue ? "article" : "misc",
                key);
        bib_field(f, "title", w->title);
        if (w->n_authors) {
            fputs(",\n  author = {", f);
            for (size_t k = 0; k < w->n_authors; k++) {
                parts pa = split(w->authors[k]);
                if (!pa.family) {
                    free(keys);
                    return -1;
                }
                if (k)
                    fputs(" and ", f);
                bib_text(f, pa.family); /* "Last, Jr, First" */
                if (*pa.suffix) {
                    fputs(", ", f);
                    bib_text(f, pa.suffix);
                }
                if (*pa.given || *pa.suffix) {
                    fputs(", ", f);
                    bib_text(f, pa.given);
                }
                free_parts(pa);
            }
            if (w->authors_truncated)
                fputs(" and others", f);
            fputc('}', f);
        }
        if (w->year)
            fprintf(f, ",\n  year = {%d}", w->year);
        bib_field(f, "journal", w->venue);
        bib_field(f, "doi", w->doi);
        if (w->arxiv_id && *w->arxiv_id) {
            bib_field(f, "eprint", w->arxiv_id);
            fputs(",\n  archivePrefix = {arXiv}", f);
            if (w->n_categories)
                bib_field(f, "primaryClass", w->categories[0]);
        }
        bib_field(f, "pmid", w->pmid);
        bib_field(f, "abstract", w->abstract);
        fputs("\n}\n", f);
    }
    free(keys);
    return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------------- RIS */

static void ris_line(FILE *f, const char *tag, const char *value)
{
    if (!value || !*value)
        return;
    fprintf(f, "%s  - ", tag);
    for (const char *p = value; *p; p++)
        fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
    fputs("\r\n", f);
}

static int cite_ris(FILE *f, const pdx_work *const *works, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const pdx_work *w = works[i];
        ris_line(f, "TY", w->venue && *w->venue ? "JOUR"
                          : w->arxiv_id && *w->arxiv_id ? "UNPB"
                                                        : "GEN");
        ris_line(f, "TI", w->title);
        for (size_t k = 0; k < w->n_authors; k++) {
            parts pa = split(w->authors[k]);
            if (!pa.family)
                return -1;
            fprintf(f, "AU  - %s%s%s%s%s\r\n", pa.family, /* Last, First, Jr */
                    *pa.given || *pa.suffix ? ", " : "", pa.given,
                    *pa.suffix ? ", " : "", pa.suffix);
            free_parts(pa);
        }
        if (w->year) {
            char y[8];
            snprintf(y, sizeof y, "%d", w->year);
            ris_line(f, "PY", y);
        }
        if (w->date && strlen(w->date) >= 4) { /* RIS's DA is YYYY/MM/DD */
            char da[16];
            snprintf(da, sizeof da, "%s", w->date);
            for (char *p = da; *p; p++)
                if (*p == '-')
                    *p = '/';
            ris_line(f, "DA", da);
        }
        ris_line(f, "JO", w->venue);
        ris_line(f, "DO", w->doi);
        if (w->arxiv_id && *w->arxiv_id)
            fprintf(f, "UR  - https://arxiv.org/abs/%s\r\n", w->arxiv_id);
        ris_line(f, "AN", w->pmid); /* PubMed's accession number */
        if (w->pmid && *w->pmid)
            ris_line(f, "DB", "PubMed");
        ris_line(f, "AB", w->abstract);
        for (size_t k = 0; k < w->n_subjects; k++)
            ris_line(f, "KW", w->subjects[k]);
        ris_line(f, "ID", w->id);
        fputs("ER  - \r\n", f);
        if (i + 1 < n)
            fputs("\r\n", f);
    }
    return ferror(f) ? -1 : 0;
}

/* -------------------------------------------------------------- CSL-JSON */

static cJSON *csl_item(const pdx_work *w)
{
    cJSON *o = cJSON_CreateObject();
    int ok = o && cJSON_AddStringToObject(o, "id", w->id) &&
             cJSON_AddStringToObject(o, "type", w->venue && *w->venue
                                                    ? "article-journal"
                                                    : "article");
    if (ok && w->title)
        ok = cJSON_AddStringToObject(o, "title", w->title) != NULL;
    if (ok && w->n_authors) {
        cJSON *au = cJSON_AddArrayToObject(o, "author");
        ok = au != NULL;
        for (size_t k = 0; ok && k < w->n_authors; k++) {
            parts pa = split(w->authors[k]);
            cJSON *p = pa.family ? cJSON_CreateObject() : NULL;
            ok = p && cJSON_AddItemToArray(au, p) &&
                 cJSON_AddStringToObject(p, "family", pa.family) &&
                 (!*pa.given || cJSON_AddStringToObject(p, "given", pa.given)) &&
                 (!*pa.suffix || cJSON_AddStringToObject(p, "suffix", pa.suffix));
            free_parts(pa);
        }
    }
    if (ok && w->year) {
        int y = 0, m = 0, d = 0;
        int got = w->date ? sscanf(w->date, "%d-%d-%d", &y, &m, &d) : 0;
        if (got < 1 || y != w->year)
            got = 1, y = w->year;
        cJSON *issued = cJSON_AddObjectToObject(o, "issued");
        cJSON *dp = issued ? cJSON_AddArrayToObject(issued, "date-parts") : NULL;
        cJSON *one = cJSON_CreateArray();
        ok = dp && one && cJSON_AddItemToArray(dp, one);
        int v[3] = {y, m, d};
        for (int i = 0; ok && i < got; i++)
            ok = cJSON_AddItemToArray(one, cJSON_CreateNumber(v[i]));
    }
    const char *fields[][2] = {{"container-title", w->venue}, {"DOI", w->doi},
                               {"PMID", w->pmid}, {"PMCID", w->pmcid},
                               {"abstract", w->abstract}};
    for (size_t i = 0; ok && i < sizeof fields / sizeof fields[0]; i++)
        if (fields[i][1] && *fields[i][1])
            ok = cJSON_AddStringToObject(o, fields[i][0], fields[i][1]) != NULL;
    if (ok && w->arxiv_id && *w->arxiv_id) {
        char url[160];
        snprintf(url, sizeof url, "https://arxiv.org/abs/%s", w->arxiv_id);
        ok = cJSON_AddStringToObject(o, "URL", url) &&
             cJSON_AddStringToObject(o, "number", w->arxiv_id) &&
             ((w->venue && *w->venue) ||
              cJSON_AddStringToObject(o, "publisher", "arXiv"));
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static int cite_csljson(FILE *f, const pdx_work *const *works, size_t n)
{
    cJSON *all = cJSON_CreateArray();
    int ok = all != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        cJSON *item = csl_item(works[i]);
        ok = item && cJSON_AddItemToArray(all, item);
        if (!ok)
            cJSON_Delete(item);
    }
    char *s = ok ? cJSON_Print(all) : NULL;
    cJSON_Delete(all);
    if (!s)
        return -1;
    fputs(s, f);
    fputc('\n', f);
    cJSON_free(s);
    return ferror(f) ? -1 : 0;
}

int cite_works(FILE *f, cite_format fmt, const pdx_work *const *works,
               size_t n)
{
    switch (fmt) {
    case CITE_BIBTEX: return cite_bibtex(f, works, n);
    case CITE_RIS: return cite_ris(f, works, n);
    default: return cite_csljson(f, works, n);
    }
}
