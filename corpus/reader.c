/*
 * reader.c -- pdx_reader: a stream of records from one file, plain or
 * gzip-compressed, in any format paperdex reads (docs/formats.md).  With
 * PDX_FORMAT_AUTO the first bytes that are not white space decide, in
 * this order: ".I" is a SMART collection (testcoll.c); an XML root
 * element is MEDLINE/PubMed or OAI-PMH (xmlrec.c, on expat); '@' a
 * BibTeX file (bibtex.c); OpenAlex's merged-ids header its CSV
 * (openalex.c); '{' JSON lines, each line's keys telling an OpenAlex
 * work, an arXiv snapshot record, a BEIR document or paperdex's own
 * schema apart; anything else a profile page, read whole, whose style
 * page.c detects.  Every format but the page is streamed.
 *
 * gunzip.c reads both: it looks at the first bytes and inflates only a
 * real gzip stream (igzip or zlib), so the file name never matters.
 * transcode.c then hands on UTF-8: a file saved in UTF-16 or UTF-32, or
 * in the encoding its first line declares (JabRef's "% Encoding:"), is
 * converted; any other passes through.
 * One line (at most PDX_MAX_LINE bytes), or one XML or BibTeX record, is
 * in memory at a time, plus the record decoded from it, so memory is
 * bounded whatever the file's size.
 * With --jobs, several workers read one file of JSON lines and each
 * decodes every N-th line (reader_share_lines, reader.h).
 *
 * A bad line costs only itself: invalid UTF-8, a JSON syntax error, a field
 * of the wrong type, a record with neither title nor abstract are each
 * reported as file:line plus reason, and reading goes on.  A broken stream
 * (a truncated or corrupt .gz, a read error) ends the file: the records
 * before it have been delivered, and the error says at which line it broke.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/text.h"
#include "bibtex.h"
#include "gunzip.h"
#include "page.h"
#include "reader.h"
#include "record.h"
#include "tagged.h"
#include "testcoll.h"
#include "transcode.h"
#include "xmlrec.h"

#define CHUNK 65536

enum { MODE_UNDECIDED, MODE_JSON, MODE_PAGE, MODE_SMART, MODE_XML,
       MODE_BIBTEX, MODE_CSV, MODE_TAGGED };

struct pdx_reader {
    char *name;  /* for messages: the path, or "<stdin>" */
    gunzip *gz;
    transcode *tc;       /* gz's bytes as UTF-8 (transcode.h) */
    pdx_format format;   /* as asked */
    pdx_format detected; /* as read */
    int mode;
    page_date ref;       /* for page dates without a year */
    arena page_arena;    /* a page's text and items */
    page_item *items;
    size_t n_items, next_item;
    int page_eio;        /* the page's stream broke: EIO after its items */
    char buf[CHUNK];
    size_t pos, len;
    strbuf line;
    uint64_t lineno;
    int line_cut;        /* the last line read ended the file without '\n' */
    uint64_t rec_line;
    arena rec_arena;
    pdx_work rec;
    pdx_skip skip;
    strbuf err;
    int done;
    smart_rec smart;     /* MODE_SMART: the record being assembled */
    int smart_preamble;  /* text before the first .I was reported */
    tagged_rec tagged;   /* MODE_TAGGED: the record being assembled */
    int tagged_stray;    /* text outside a record was reported */
    xmlrec *xml;         /* MODE_XML */
    bibtex *bib;         /* MODE_BIBTEX */
    /* An OpenAlex API page on one line ({"meta", "results": [...]}): its
     * results, handed over one at a time. */
    cJSON *results_doc;
    const cJSON *results_next;
    uint64_t results_line;
    int json_started;    /* a JSON line was seen: no document now */
    int document;        /* the file is one pretty-printed JSON document */
    /* reader_share_lines: this reader decodes the lines whose number
     * (from 0) is share_k modulo share_n; share_n 0: every line. */
    unsigned share_k, share_n;
};

static void set_err(pdx_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_err(pdx_reader *r, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    sb_clear(&r->err);
    sb_puts(&r->err, tmp);
}

static const char *const format_names[PDX_FORMAT__COUNT] = {
    "auto", "arxiv", "jsonl", "profile", "list", "abstracts", "listing",
    "compact", "smart", "beir", "pubmed", "openalex", "oai", "bibtex",
    "medline", "ris"};

const char *pdx_format_name(pdx_format f)
{
    return (unsigned)f < PDX_FORMAT__COUNT ? format_names[f] : "unknown";
}

int pdx_format_parse(const char *name, pdx_format *out)
{
    for (int i = 0; i < PDX_FORMAT__COUNT; i++)
        if (name && !strcmp(name, format_names[i])) {
            *out = (pdx_format)i;
            return 0;
        }
    return -1;
}

int pdx_reader_open(pdx_reader **out, const char *path,
                    const pdx_reader_options *opts)
{
    const pdx_reader_options defaults = PDX_READER_OPTIONS_INIT;
    pdx_reader *r = calloc(1, sizeof *r);
    *out = r;
    if (!r)
        return PDX_ENOMEM;
    r->line = (strbuf)STRBUF_INIT;
    r->err = (strbuf)STRBUF_INIT;
    smart_init(&r->smart);
    tagged_init(&r->tagged, TAGGED_MEDLINE);
    int is_stdin = !path || !strcmp(path, "-");
    r->name = strdup(is_stdin ? "<stdin>" : path);
    if (!r->name)
        return PDX_ENOMEM;
    if (!opts)
        opts = &defaults;
    if (opts->version != PDX_READER_OPTIONS_VERSION) {
        set_err(r, "%s: pdx_reader_options version %u is not %d", r->name,
                opts->version, PDX_READER_OPTIONS_VERSION);
        return PDX_EVERSION;
    }
    r->format = opts->format;
    if ((unsigned)r->format >= PDX_FORMAT__COUNT) {
        set_err(r, "%s: unknown format %d", r->name, (int)r->format);
        return PDX_EINVAL;
    }
    if (opts->page_date) {
        if (strlen(opts->page_date) != 10 ||
            !record_date_valid(opts->page_date)) {
            set_err(r, "page date must be YYYY-MM-DD, not \"%s\"",
                    opts->page_date);
            return PDX_EINVAL;
        }
        r->ref.y = atoi(opts->page_date);
        r->ref.m = atoi(opts->page_date + 5);
        r->ref.d = atoi(opts->page_date + 8);
    }
    int fd = is_stdin ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        set_err(r, "%s: cannot open: %s", r->name, strerror(e));
        return e == ENOENT ? PDX_ENOTFOUND : PDX_EIO;
    }
    struct stat st;
    int have_st = fstat(fd, &st) == 0;
    if (have_st && S_ISDIR(st.st_mode)) {
        close(fd);
        set_err(r, "%s: is a directory, not a file of records", r->name);
        return PDX_EINVAL;
    }
    if (!r->ref.y) { /* the page was saved when the file was last written */
        time_t t = have_st && S_ISREG(st.st_mode) ? st.st_mtime : time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        r->ref = (page_date){tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday};
    }
    r->gz = gunzip_open(fd, CHUNK);
    if (!r->gz) {
        close(fd);
        set_err(r, "%s: cannot read: out of memory", r->name);
        return PDX_ENOMEM;
    }
    r->tc = transcode_open(r->gz);
    if (!r->tc) {
        set_err(r, "%s: cannot read: out of memory", r->name);
        return PDX_ENOMEM;
    }
    return 0;
}

/* Refill r->buf.  Returns bytes read, 0 at a clean end, -1 when the
 * stream broke (message set). */
static int refill(pdx_reader *r)
{
    long n = transcode_read(r->tc, r->buf, CHUNK);
    if (n > 0) {
        r->pos = 0;
        r->len = (size_t)n;
        return (int)n;
    }
    if (n < 0) {
        set_err(r, "%s:%llu: cannot read on: %s", r->name,
                (unsigned long long)r->lineno + 1, transcode_errmsg(r->tc));
        return -1;
    }
    return 0;
}

/* Read one line (without its newline) into r->line.  Returns 1 for a
 * line, 0 at a clean end, -1 when the stream broke (message set), -2 when
 * the line was longer than PDX_MAX_LINE (consumed, message set).  A line
 * may hold NUL bytes; they are caught later as invalid UTF-8. */
static int read_line(pdx_reader *r)
{
    int too_long = 0, any = 0;
    sb_clear(&r->line);
    for (;;) {
        if (r->pos == r->len) {
            int rc = refill(r);
            if (rc < 0)
                return -1;
            if (rc == 0) {
                if (!any)
                    return 0;
                r->line_cut = 1;
                break; /* a last line without a newline */
            }
        }
        any = 1;
        const char *p = r->buf + r->pos;
        size_t avail = r->len - r->pos;
        const char *nl = memchr(p, '\n', avail);
        size_t take = nl ? (size_t)(nl - p) : avail;
        if (!too_long && r->line.len + take > PDX_MAX_LINE)
            too_long = 1;
        if (!too_long)
            sb_append(&r->line, p, take);
        r->pos += take + (nl != NULL);
        if (nl)
            break;
    }
    r->lineno++;
    if (!r->line.ok) {
        set_err(r, "%s:%llu: out of memory reading the line", r->name,
                (unsigned long long)r->lineno);
        return -1;
    }
    if (too_long) {
        set_err(r, "%s:%llu: line longer than %u bytes, skipped", r->name,
                (unsigned long long)r->lineno, PDX_MAX_LINE);
        return -2;
    }
    return 1;
}

/* The reason a record is skipped, for a message: it may quote the
 * record's bytes, and a byte that is not UTF-8 is shown as '?'. */
static int skip(pdx_reader *r, pdx_skip why, const char *text)
{
    char detail[512];
    size_t n = strlen(text), bad;
    if (n >= sizeof detail)
        n = sizeof detail - 1;
    memcpy(detail, text, n);
    detail[n] = '\0';
    while (!text_utf8_valid(detail, n, &bad))
        detail[bad] = '?';
    /* what the bytes were read as, when not as they are */
    char as[128] = "";
    if (transcode_from(r->tc))
        snprintf(as, sizeof as, " (the file was converted from %s)",
                 transcode_from(r->tc));
    else if (transcode_unknown(r->tc))
        snprintf(as, sizeof as, " (the file's first line declares %s, which "
                 "cannot be converted here: read as UTF-8)",
                 transcode_unknown(r->tc));
    r->skip = why;
    set_err(r, "%s:%llu: %s, skipped%s", r->name,
            (unsigned long long)r->rec_line, detail, as);
    return PDX_EINVAL;
}

/* Complete the decoded r->rec with record_finish() unless its decoder
 * already refused it (k != PDX_SKIP_NONE); a refusal becomes a skip whose
 * reason is why.  Releases why.  0, or PDX_EINVAL for a skipped record. */
static int finish_record(pdx_reader *r, pdx_skip k, strbuf *why)
{
    if (k == PDX_SKIP_NONE)
        k = record_finish(&r->rec_arena, &r->rec, why);
    int rc = k == PDX_SKIP_NONE
                 ? 0
                 : skip(r, k, why->s ? why->s : "bad record");
    sb_release(why);
    return rc;
}

/* Hand over r->rec, read at r->rec_line, unless decoding it gave rc (a
 * skip or an error), which is returned. */
static int deliver(const pdx_work **out, pdx_reader *r, int rc)
{
    if (rc)
        return rc;
    r->rec.source = r->name;
    r->rec.source_line = r->rec_line;
    *out = &r->rec;
    return 0;
}

/* Decode one JSON object into r->rec: arXiv snapshot, BEIR, OpenAlex or
 * paperdex's own schema, as forced or as its keys say. */
static int decode_object(pdx_reader *r, const cJSON *obj)
{
    strbuf why = STRBUF_INIT;
    pdx_format f = r->format;
    /* OpenAlex first: its keys (an openalex.org/W id, authorships, the
     * inverted abstract) are its own, while a real OpenAlex work also
     * carries "versions", one of the arXiv snapshot's keys. */
    if (f == PDX_FORMAT_AUTO)
        f = openalex_looks_like(obj) ? PDX_FORMAT_OPENALEX
            : arxiv_looks_like(obj)  ? PDX_FORMAT_ARXIV
            : beir_looks_like(obj)   ? PDX_FORMAT_BEIR
                                     : PDX_FORMAT_JSONL;
    pdx_skip k = f == PDX_FORMAT_ARXIV  ? arxiv_decode(&r->rec_arena, &r->rec, obj, &why)
                 : f == PDX_FORMAT_BEIR ? beir_decode(&r->rec_arena, &r->rec, obj, &why)
                 : f == PDX_FORMAT_OPENALEX
                     ? openalex_decode(&r->rec_arena, &r->rec, obj, &why)
                     : jsonl_decode(&r->rec_arena, &r->rec, obj, &why);
    return finish_record(r, k, &why);
}

/* Keep an OpenAlex API page (obj, now the reader's) to hand its results
 * over one by one; the first of them was read at r->rec_line. */
static void take_results(pdx_reader *r, cJSON *obj, const cJSON *results)
{
    r->results_doc = obj;
    r->results_next = results->child;
    r->results_line = r->rec_line;
}

/* Decode the line in r->line into r->rec.  1 when the line is an
 * OpenAlex API page, whose results are handed over next. */
static int decode_line(pdx_reader *r)
{
    const char *s = r->line.s;
    size_t n = r->line.len;
    size_t bad;
    char detail[512];
    if (!text_utf8_valid(s, n, &bad)) {
        snprintf(detail, sizeof detail, "invalid UTF-8 at byte %zu", bad + 1);
        return skip(r, PDX_SKIP_UTF8, detail);
    }
    const char *end = NULL;
    cJSON *obj = cJSON_ParseWithLengthOpts(s, n, &end, 0);
    if (!obj) {
        /* On failure cJSON points `end` at the error. */
        size_t col = (end && end >= s && end <= s + n) ? (size_t)(end - s) + 1
                                                       : 0;
        snprintf(detail, sizeof detail, "malformed JSON near byte %zu", col);
        return skip(r, PDX_SKIP_JSON, detail);
    }
    size_t rest = (size_t)(end - s);
    while (rest < n && (s[rest] == ' ' || s[rest] == '\t' || s[rest] == '\r'))
        rest++;
    if (rest != n || !cJSON_IsObject(obj)) {
        cJSON_Delete(obj);
        snprintf(detail, sizeof detail, "%s",
                 rest != n ? "text after the JSON object"
                           : "the line is not a JSON object");
        return skip(r, PDX_SKIP_JSON, detail);
    }
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(obj, "results");
    if (cJSON_IsArray(results) &&
        (r->format == PDX_FORMAT_OPENALEX ||
         (r->format == PDX_FORMAT_AUTO &&
          cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(obj, "meta"))))) {
        take_results(r, obj, results);
        return 1;
    }
    int rc = decode_object(r, obj);
    cJSON_Delete(obj);
    return rc;
}

/* The rest of a file whose first line is a lone '{': one JSON document,
 * at most PDX_MAX_PAGE bytes.  1 when it is an API page (its results come
 * next), 0 with r->rec for a single object, PDX_EINVAL for a skip,
 * PDX_EIO when the stream broke (message set). */
static int load_document(pdx_reader *r)
{
    strbuf doc = STRBUF_INIT;
    sb_puts(&doc, "{\n");
    int rc;
    while ((rc = read_line(r)) != 0) {
        if (rc == -1) {
            sb_release(&doc);
            return PDX_EIO;
        }
        if (rc == -2 || doc.len + r->line.len + 1 > PDX_MAX_PAGE) {
            sb_release(&doc);
            r->done = 1;
            return skip(r, PDX_SKIP_TOOLONG, "a JSON document longer than "
                                             "16 MiB is not read");
        }
        sb_append(&doc, r->line.s, r->line.len);
        sb_putc(&doc, '\n');
    }
    r->done = 1; /* the document was the whole file */
    size_t bad;
    if (!doc.ok) {
        sb_release(&doc);
        return skip(r, PDX_SKIP_JSON, "out of memory reading the document");
    }
    if (!text_utf8_valid(doc.s, doc.len, &bad)) {
        char detail[128];
        snprintf(detail, sizeof detail, "invalid UTF-8 at byte %zu of the "
                 "document", bad + 1);
        sb_release(&doc);
        return skip(r, PDX_SKIP_UTF8, detail);
    }
    const char *end = NULL;
    cJSON *obj = cJSON_ParseWithLengthOpts(doc.s, doc.len, &end, 0);
    size_t at = end ? (size_t)(end - doc.s) + 1 : 0;
    sb_release(&doc);
    if (!cJSON_IsObject(obj)) {
        char detail[128];
        snprintf(detail, sizeof detail, "malformed JSON document near byte "
                 "%zu", at);
        cJSON_Delete(obj);
        return skip(r, PDX_SKIP_JSON, detail);
    }
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(obj, "results");
    if (cJSON_IsArray(results)) {
        r->done = 0; /* the results are still to come */
        take_results(r, obj, results);
        return 1;
    }
    rc = decode_object(r, obj);
    cJSON_Delete(obj);
    return rc;
}

/* Hand the reader's bytes to xmlrec and bibtex: what decide_mode()
 * looked at first, then the rest of the file. */
static int pull(void *ctx, char *buf, int cap)
{
    pdx_reader *r = ctx;
    if (r->pos == r->len) {
        int rc = refill(r);
        if (rc <= 0)
            return rc;
    }
    size_t n = r->len - r->pos;
    if (n > (size_t)cap)
        n = (size_t)cap;
    memcpy(buf, r->buf + r->pos, n);
    r->pos += n;
    return (int)n;
}

static int start_xml(pdx_reader *r)
{
    r->mode = MODE_XML;
    r->xml = xmlrec_new(r->name,
                        r->format == PDX_FORMAT_AUTO ? PDX_FORMAT_AUTO : r->format,
                        transcode_from(r->tc) != NULL);
    return r->xml ? 0 : -1;
}

static int start_bibtex(pdx_reader *r)
{
    r->mode = MODE_BIBTEX;
    r->detected = PDX_FORMAT_BIBTEX;
    r->bib = bibtex_new(r->name);
    return r->bib ? 0 : -1;
}

static int start_tagged(pdx_reader *r, tagged_kind kind)
{
    r->mode = MODE_TAGGED;
    r->tagged.kind = kind;
    r->detected = kind == TAGGED_RIS ? PDX_FORMAT_RIS : PDX_FORMAT_MEDLINE;
    return 0;
}

/* Choose JSON lines or a page from the first non-blank byte. */
static int decide_mode(pdx_reader *r)
{
    if (r->format == PDX_FORMAT_ARXIV || r->format == PDX_FORMAT_JSONL ||
        r->format == PDX_FORMAT_BEIR) {
        r->mode = MODE_JSON;
        r->detected = r->format;
        return 0;
    }
    if (r->format == PDX_FORMAT_SMART) {
        r->mode = MODE_SMART;
        r->detected = r->format;
        return 0;
    }
    if (r->format == PDX_FORMAT_MEDLINE || r->format == PDX_FORMAT_RIS)
        return start_tagged(r, r->format == PDX_FORMAT_RIS ? TAGGED_RIS
                                                           : TAGGED_MEDLINE);
    if (r->format == PDX_FORMAT_PUBMED || r->format == PDX_FORMAT_OAI)
        return start_xml(r);
    if (r->format == PDX_FORMAT_BIBTEX)
        return start_bibtex(r);
    if (r->format != PDX_FORMAT_AUTO && r->format != PDX_FORMAT_OPENALEX) {
        r->mode = MODE_PAGE;
        return 0;
    }
    for (;;) {
        /* Look without consuming, so that line numbers stay right. */
        size_t k = r->pos;
        while (k < r->len && isspace((unsigned char)r->buf[k]))
            k++;
        if (k < r->len) {
            /* ".I" needs the next two bytes; a buffer ending right after
             * the '.' is as good as impossible (the chunk is 64 KiB). */
            if (r->buf[k] == '.' && k + 2 < r->len && r->buf[k + 1] == 'I' &&
                strchr(" \t\r\n", r->buf[k + 2])) {
                r->mode = MODE_SMART;
                r->detected = PDX_FORMAT_SMART;
                return 0;
            }
            if (xmlrec_looks_like(r->buf + r->pos, r->len - r->pos))
                return start_xml(r);
            if (bibtex_looks_like(r->buf + k, r->len - k))
                return start_bibtex(r);
            tagged_kind kind;
            if (tagged_looks_like(r->buf + k, r->len - k, &kind))
                return start_tagged(r, kind);
            if (openalex_merged_header(r->buf + k, r->len - k)) {
                r->mode = MODE_CSV;
                r->detected = PDX_FORMAT_OPENALEX;
                return 0;
            }
            r->mode = r->buf[k] == '{' ? MODE_JSON : MODE_PAGE;
            if (r->format == PDX_FORMAT_OPENALEX) {
                r->mode = MODE_JSON;
                r->detected = PDX_FORMAT_OPENALEX;
            }
            return 0;
        }
        for (k = r->pos; k < r->len; k++) /* blank lines, all of them */
            r->lineno += r->buf[k] == '\n';
        r->pos = r->len;
        int rc = refill(r);
        if (rc <= 0) { /* empty, or broken before any text */
            r->mode = MODE_JSON;
            return rc;
        }
    }
}

/* Read the whole page and parse it into r->items. */
static int load_page(pdx_reader *r)
{
    strbuf page = STRBUF_INIT;
    sb_append(&page, "", 0);
    for (;;) {
        sb_append(&page, r->buf + r->pos, r->len - r->pos);
        r->pos = r->len;
        if (page.len > PDX_MAX_PAGE) {
            set_err(r, "%s: a page larger than %u bytes is not read",
                    r->name, PDX_MAX_PAGE);
            sb_release(&page);
            return PDX_EIO;
        }
        int rc = refill(r);
        if (rc < 0) { /* parse what arrived, then report the break */
            r->page_eio = 1;
            break;
        }
        if (rc == 0)
            break;
    }
    if (!page.ok) {
        sb_release(&page);
        set_err(r, "%s: out of memory reading the page", r->name);
        return PDX_ENOMEM;
    }
    char *text = arena_strndup(&r->page_arena, page.s, page.len);
    size_t len = page.len;
    sb_release(&page);
    if (!text || page_parse(&r->page_arena, r->name, text, len, r->format,
                            r->ref, &r->items, &r->n_items,
                            &r->detected)) {
        set_err(r, "%s: out of memory parsing the page", r->name);
        return PDX_ENOMEM;
    }
    return 0;
}

/* The next item of a parsed page. */
static int next_page_item(const pdx_work **out, pdx_reader *r)
{
    if (r->next_item == r->n_items) {
        if (r->page_eio) {
            r->page_eio = 0;
            r->done = -1;
            return PDX_EIO; /* message set by refill() */
        }
        r->done = 1;
        return PDX_ITEROVER;
    }
    page_item *it = &r->items[r->next_item++];
    r->rec_line = it->w.source_line;
    if (it->warning)
        return skip(r, PDX_SKIP_PAGE, it->warning);
    r->rec = it->w;
    strbuf why = STRBUF_INIT;
    int rc = finish_record(r, PDX_SKIP_NONE, &why);
    if (rc == 0)
        *out = &r->rec;
    return rc;
}

/* Finish the SMART record in r->smart into r->rec. */
static int smart_emit(const pdx_work **out, pdx_reader *r)
{
    strbuf why = STRBUF_INIT;
    r->rec_line = r->smart.line;
    pdx_skip k = smart_finish(&r->smart, &r->rec_arena, &r->rec, &why);
    return deliver(out, r, finish_record(r, k, &why));
}

/* The next line of a format whose records span lines (SMART, MEDLINE,
 * RIS) into r->line: 1; 0 at the end of the file, -1 when it broke (the
 * records before the break were delivered).  An over-long line is
 * passed over and spoils the record it is in (*too_long). */
static int record_line(pdx_reader *r, int *too_long)
{
    for (;;) {
        int rc = read_line(r);
        if (rc == -2) {
            *too_long = 1;
            continue;
        }
        if (rc <= 0)
            r->done = rc == 0 ? 1 : -1;
        return rc;
    }
}

/* The next SMART record: lines up to the next ".I" (or the end). */
static int next_smart(const pdx_work **out, pdx_reader *r)
{
    for (;;) {
        int rc = record_line(r, &r->smart.too_long);
        if (rc < 0)
            return PDX_EIO;
        if (rc == 0)
            return r->smart.open ? smart_emit(out, r) : PDX_ITEROVER;
        const char *s = r->line.s;
        size_t n = r->line.len;
        int m = smart_marker(s, n);
        if (m == 'I') {
            int had = r->smart.open;
            /* Emit the finished record first, then open the new one; the
             * new .I's text is kept aside because emitting clears. */
            if (had) {
                strbuf next = STRBUF_INIT;
                sb_append(&next, s + 2, n - 2);
                uint64_t at = r->lineno;
                rc = smart_emit(out, r);
                smart_start(&r->smart, next.s ? next.s : "", next.len, at);
                sb_release(&next);
                return rc;
            }
            smart_start(&r->smart, s + 2, n - 2, r->lineno);
        } else if (m) {
            if (r->smart.open)
                smart_field(&r->smart, m);
        } else if (r->smart.open) {
            smart_text(&r->smart, s, n, r->lineno);
        } else {
            size_t i = 0;
            while (i < n && isspace((unsigned char)s[i]))
                i++;
            if (i < n && !r->smart_preamble) {
                r->smart_preamble = 1;
                r->rec_line = r->lineno;
                return skip(r, PDX_SKIP_FIELD,
                            "text before the first .I record marker");
            }
        }
    }
}

/* Finish the MEDLINE or RIS record in r->tagged into r->rec. */
static int tagged_emit(const pdx_work **out, pdx_reader *r)
{
    strbuf why = STRBUF_INIT;
    r->rec_line = r->tagged.line;
    pdx_skip k = tagged_finish(&r->tagged, &r->rec_arena, &r->rec, &why);
    return deliver(out, r, finish_record(r, k, &why));
}

/* The next MEDLINE or RIS record: tag lines up to its end (a blank line,
 * ER), the next record's first line, or the end of the file. */
static int next_tagged(const pdx_work **out, pdx_reader *r)
{
    for (;;) {
        int rc = record_line(r, &r->tagged.too_long);
        if (rc < 0)
            return PDX_EIO;
        if (rc == 0 && tagged_open(&r->tagged) &&
            (r->tagged.kind == TAGGED_RIS || r->line_cut)) {
            /* An RIS record without its ER, a MEDLINE record whose last
             * line has no newline: an export caught half written.  The
             * record is named, and keeps its earlier version. */
            r->rec_line = r->tagged.line;
            tagged_drop(&r->tagged);
            return skip(r, PDX_SKIP_FIELD,
                        r->tagged.kind == TAGGED_RIS
                            ? "the file ends inside a record (no ER line)"
                            : "the file ends inside a record (its last "
                              "line has no newline)");
        }
        if (rc == 0)
            return tagged_open(&r->tagged) ? tagged_emit(out, r)
                                           : PDX_ITEROVER;
        int m = tagged_line(&r->tagged, r->line.s, r->line.len, r->lineno);
        if (m == TAGGED_NEXT) {
            rc = tagged_emit(out, r);
            tagged_line(&r->tagged, r->line.s, r->line.len, r->lineno);
            return rc;
        }
        if (m == TAGGED_END)
            return tagged_emit(out, r);
        if (m == TAGGED_STRAY && !r->tagged_stray) {
            r->tagged_stray = 1;
            r->rec_line = r->lineno;
            return skip(r, PDX_SKIP_FIELD,
                        r->tagged.kind == TAGGED_RIS
                            ? "text outside an RIS record (a record opens "
                              "with TY and ends with ER)"
                            : "text outside a MEDLINE record (a record "
                              "opens with its PMID- line)");
        }
    }
}

/* The next record of an XML or BibTeX file. */
static int next_streamed(const pdx_work **out, pdx_reader *r)
{
    strbuf why = STRBUF_INIT;
    uint64_t line = 0;
    int rc = r->xml ? xmlrec_next(r->xml, &r->rec_arena, &r->rec, &line, &why,
                                  pull, r)
                    : bibtex_next(r->bib, &r->rec_arena, &r->rec, &line, &why,
                                  pull, r);
    if (r->xml && xmlrec_format(r->xml) != PDX_FORMAT_AUTO)
        r->detected = xmlrec_format(r->xml);
    r->rec_line = line;
    if (rc == 1) /* finish_record releases why */
        return deliver(out, r, finish_record(r, PDX_SKIP_NONE, &why));
    if (rc == -1) { /* a bad record: named, and reading goes on */
        pdx_skip kind = r->bib ? bibtex_skip_kind(r->bib) : PDX_SKIP_FIELD;
        int k = skip(r, kind, why.s ? why.s : "bad record");
        sb_release(&why);
        return k;
    }
    if (rc == 0) {
        sb_release(&why);
        r->done = 1;
        return PDX_ITEROVER;
    }
    /* -2: the XML cannot be read on (message in why); -3: the stream
     * broke (message set by refill). */
    if (rc == -2)
        set_err(r, "%s", why.s ? why.s : "cannot read on");
    sb_release(&why);
    r->done = -1;
    return PDX_EIO;
}

/* A line of OpenAlex's merged_ids CSV (the header skipped) into r->rec. */
static int decode_csv_line(pdx_reader *r)
{
    strbuf why = STRBUF_INIT;
    pdx_skip k = PDX_SKIP_UTF8;
    size_t bad;
    if (text_utf8_valid(r->line.s, r->line.len, &bad))
        k = openalex_merged_decode(&r->rec_arena, &r->rec, r->line.s,
                                   r->line.len, &why);
    else
        sb_puts(&why, "invalid UTF-8");
    return finish_record(r, k, &why);
}

int pdx_reader_next(const pdx_work **out, pdx_reader *r)
{
    *out = NULL;
    if (!r)
        return PDX_EINVAL;
    r->skip = PDX_SKIP_NONE;
    arena_reset(&r->rec_arena);
    if (r->done || !r->gz)
        return r->done < 0 ? PDX_EIO : PDX_ITEROVER;
    if (r->mode == MODE_UNDECIDED) {
        int rc = decide_mode(r);
        if (rc < 0) {
            r->done = -1;
            return PDX_EIO;
        }
        if (r->mode == MODE_PAGE && (rc = load_page(r)) != 0) {
            r->done = -1;
            return rc;
        }
    }
    if (r->mode == MODE_PAGE)
        return next_page_item(out, r);
    if (r->mode == MODE_SMART)
        return next_smart(out, r);
    if (r->mode == MODE_TAGGED)
        return next_tagged(out, r);
    if (r->mode == MODE_XML || r->mode == MODE_BIBTEX)
        return next_streamed(out, r);
    for (;;) {
        if (r->results_doc) { /* an OpenAlex API page's next result */
            const cJSON *it = r->results_next;
            if (!it) {
                cJSON_Delete(r->results_doc);
                r->results_doc = NULL;
                continue;
            }
            r->results_next = it->next;
            r->rec_line = r->results_line;
            return deliver(out, r,
                           cJSON_IsObject(it)
                               ? decode_object(r, it)
                               : skip(r, PDX_SKIP_JSON,
                                      "a result is not an object"));
        }
        int rc = read_line(r);
        if (rc == 0) {
            r->done = 1;
            return PDX_ITEROVER;
        }
        if (rc == -1) {
            r->done = -1;
            return PDX_EIO;
        }
        r->rec_line = r->lineno;
        /* Shared lines: another reader's line is passed over unread
         * (a first line that opens a document is everyone's). */
        int others = r->share_n > 1 &&
                     (r->lineno - 1) % r->share_n != r->share_k;
        if (rc == -2) {
            if (others)
                continue;
            r->skip = PDX_SKIP_TOOLONG;
            return PDX_EINVAL;
        }
        size_t i = 0;
        while (i < r->line.len && strchr(" \t\r", r->line.s[i]))
            i++;
        if (i == r->line.len)
            continue; /* blank lines separate nothing; not records */
        if (r->mode == MODE_JSON && !r->json_started) {
            r->json_started = 1;
            size_t e = r->line.len; /* the line's first non-blank is at i */
            while (e > i && strchr(" \t\r", r->line.s[e - 1]))
                e--;
            if (e - i == 1 && r->line.s[i] == '{') {
                /* A pretty-printed document (an API page saved through
                 * jq): read whole, then its results one by one. */
                r->document = 1;
                rc = load_document(r);
                if (rc == 1)
                    continue;
                if (rc == PDX_EIO)
                    r->done = -1;
                return deliver(out, r, rc);
            }
        }
        if (r->mode == MODE_CSV &&
            (r->lineno == 1 || openalex_merged_header(r->line.s, r->line.len)))
            continue; /* the header */
        if (others)
            continue;
        rc = r->mode == MODE_CSV ? decode_csv_line(r) : decode_line(r);
        if (rc == 1)
            continue; /* an API page: its results come next */
        return deliver(out, r, rc);
    }
}

void reader_share_lines(pdx_reader *r, unsigned k, unsigned n)
{
    if (r && n >= 2 && k < n) {
        r->share_k = k;
        r->share_n = n;
    }
}

int reader_shares_lines(const pdx_reader *r)
{
    return r && r->share_n > 1 && !r->document &&
           (r->mode == MODE_JSON || r->mode == MODE_CSV);
}

pdx_skip pdx_reader_skip(const pdx_reader *r) { return r ? r->skip : 0; }

int reader_skip_damages(pdx_skip k)
{
    return k == PDX_SKIP_UTF8 || k == PDX_SKIP_JSON || k == PDX_SKIP_FIELD ||
           k == PDX_SKIP_TOOLONG;
}

pdx_format pdx_reader_format(const pdx_reader *r)
{
    return r ? r->detected : PDX_FORMAT_AUTO;
}

const char *pdx_skip_name(pdx_skip s)
{
    switch (s) {
    case PDX_SKIP_NONE: return "none";
    case PDX_SKIP_UTF8: return "invalid UTF-8";
    case PDX_SKIP_JSON: return "malformed JSON";
    case PDX_SKIP_FIELD: return "bad field";
    case PDX_SKIP_EMPTY: return "no title or abstract";
    case PDX_SKIP_ID: return "no usable id";
    case PDX_SKIP_TOOLONG: return "line too long";
    case PDX_SKIP_PAGE: return "page block";
    default: return "unknown";
    }
}

const char *pdx_reader_errmsg(const pdx_reader *r)
{
    if (!r)
        return "out of memory";
    return r->err.s ? r->err.s : "";
}

uint64_t pdx_reader_line(const pdx_reader *r) { return r ? r->rec_line : 0; }

uint64_t pdx_reader_offset(const pdx_reader *r)
{
    if (!r || !r->gz)
        return 0;
    return gunzip_offset(r->gz);
}

void pdx_reader_free(pdx_reader *r)
{
    if (!r)
        return;
    transcode_close(r->tc);
    if (r->gz)
        gunzip_close(r->gz);
    arena_free(&r->rec_arena);
    arena_free(&r->page_arena);
    sb_release(&r->line);
    sb_release(&r->err);
    smart_release(&r->smart);
    tagged_release(&r->tagged);
    xmlrec_free(r->xml);
    bibtex_free(r->bib);
    cJSON_Delete(r->results_doc);
    free(r->name);
    free(r);
}
