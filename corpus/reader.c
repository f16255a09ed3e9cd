/*
 * reader.c -- pdx_reader: a stream of records from one file of JSON lines,
 * plain or gzip-compressed.
 *
 * zlib's gzread reads both: it looks at the first bytes and inflates only a
 * real gzip stream, so the file name never matters.  One line is in memory
 * at a time (at most PDX_MAX_LINE bytes), plus the record decoded from it,
 * so memory is bounded whatever the file's size.
 *
 * A bad line costs only itself: invalid UTF-8, a JSON syntax error, a field
 * of the wrong type, a record with neither title nor abstract are each
 * reported as file:line plus reason, and reading goes on.  A broken stream
 * (a truncated or corrupt .gz, a read error) ends the file: the records
 * before it have been delivered, and the error says at which line it broke.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "../common/text.h"
#include "record.h"

#define CHUNK 65536

struct pdx_reader {
    char *name;  /* for messages: the path, or "<stdin>" */
    gzFile gz;
    pdx_format format;
    char buf[CHUNK];
    size_t pos, len;
    strbuf line;
    uint64_t lineno;
    uint64_t rec_line;
    arena rec_arena;
    pdx_work rec;
    pdx_skip skip;
    strbuf err;
    int done;
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

int pdx_reader_open(pdx_reader **out, const char *path, pdx_format format)
{
    pdx_reader *r = calloc(1, sizeof *r);
    *out = r;
    if (!r)
        return PDX_ENOMEM;
    r->line = (strbuf)STRBUF_INIT;
    r->err = (strbuf)STRBUF_INIT;
    r->format = format;
    int is_stdin = !path || !strcmp(path, "-");
    r->name = strdup(is_stdin ? "<stdin>" : path);
    if (!r->name)
        return PDX_ENOMEM;
    if (format != PDX_FORMAT_AUTO && format != PDX_FORMAT_ARXIV &&
        format != PDX_FORMAT_JSONL) {
        set_err(r, "%s: unknown format %d", r->name, (int)format);
        return PDX_EINVAL;
    }
    int fd = is_stdin ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        set_err(r, "%s: cannot open: %s", r->name, strerror(e));
        return e == ENOENT ? PDX_ENOTFOUND : PDX_EIO;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        set_err(r, "%s: is a directory, not a file of records", r->name);
        return PDX_EINVAL;
    }
    r->gz = gzdopen(fd, "rb");
    if (!r->gz) {
        close(fd);
        set_err(r, "%s: cannot read: out of memory", r->name);
        return PDX_ENOMEM;
    }
    gzbuffer(r->gz, CHUNK);
    return 0;
}

/* Refill r->buf.  Returns bytes read, 0 at a clean end, -1 when the
 * stream broke (message set). */
static int refill(pdx_reader *r)
{
    int n = gzread(r->gz, r->buf, CHUNK);
    if (n > 0) {
        r->pos = 0;
        r->len = (size_t)n;
        return n;
    }
    int zerr;
    const char *zmsg = gzerror(r->gz, &zerr);
    if (n < 0 || (zerr != Z_OK && zerr != Z_STREAM_END)) {
        /* zlib's own message names "<fd:N>", not the file: say it
         * ourselves. */
        const char *what = zerr == Z_ERRNO       ? strerror(errno)
                           : zerr == Z_BUF_ERROR ? "the compressed stream "
                                                   "ends early: the .gz file "
                                                   "is truncated"
                           : zerr == Z_DATA_ERROR ? "the .gz data is corrupt"
                                                  : zmsg;
        set_err(r, "%s:%llu: cannot read on: %s", r->name,
                (unsigned long long)r->lineno + 1, what);
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

static int skip(pdx_reader *r, pdx_skip why, const char *detail)
{
    r->skip = why;
    set_err(r, "%s:%llu: %s, skipped", r->name,
            (unsigned long long)r->rec_line, detail);
    return PDX_EINVAL;
}

/* Decode the line in r->line into r->rec. */
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
    strbuf why = STRBUF_INIT;
    int arxiv = r->format == PDX_FORMAT_ARXIV ||
                (r->format == PDX_FORMAT_AUTO && arxiv_looks_like(obj));
    pdx_skip k = arxiv ? arxiv_decode(&r->rec_arena, &r->rec, obj, &why)
                       : jsonl_decode(&r->rec_arena, &r->rec, obj, &why);
    if (k == PDX_SKIP_NONE)
        k = record_finish(&r->rec_arena, &r->rec, &why);
    cJSON_Delete(obj);
    if (k != PDX_SKIP_NONE) {
        snprintf(detail, sizeof detail, "%s",
                 why.s ? why.s : "bad record");
        sb_release(&why);
        return skip(r, k, detail);
    }
    sb_release(&why);
    return 0;
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
    for (;;) {
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
        if (rc == -2) {
            r->skip = PDX_SKIP_TOOLONG;
            return PDX_EINVAL;
        }
        size_t i = 0;
        while (i < r->line.len && strchr(" \t\r", r->line.s[i]))
            i++;
        if (i == r->line.len)
            continue; /* blank lines separate nothing; not records */
        rc = decode_line(r);
        if (rc)
            return rc;
        *out = &r->rec;
        return 0;
    }
}

pdx_skip pdx_reader_skip(const pdx_reader *r) { return r ? r->skip : 0; }

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
    z_off_t off = gzoffset(r->gz);
    return off < 0 ? 0 : (uint64_t)off;
}

void pdx_reader_free(pdx_reader *r)
{
    if (!r)
        return;
    if (r->gz)
        gzclose(r->gz);
    arena_free(&r->rec_arena);
    sb_release(&r->line);
    sb_release(&r->err);
    free(r->name);
    free(r);
}
