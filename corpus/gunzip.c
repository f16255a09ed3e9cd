/*
 * gunzip.c -- a file's bytes, inflated when it is a gzip file; see
 * gunzip.h for why and what it promises.
 *
 * The first bytes decide: a gzip member begins 1f 8b.  The inflater
 * parses a member's header, inflates its deflate blocks and checks its
 * trailer's CRC-32 and length; a member is whole when the inflater says
 * it has finished.  Then the next input bytes either begin another
 * member (the inflater is reset for it) or end the stream, as in zlib's
 * gzread.  Input that runs out inside a member is a truncated file.
 *
 * Two inflaters, one at build time: ISA-L's igzip (PDX_HAVE_ISAL, the
 * default where libisal is packaged: about twice zlib's rate on x86-64)
 * and zlib's inflate (everywhere else).  Only inflate_* below differs;
 * the input buffer, the member loop and the messages are shared.
 */
#include "gunzip.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if PDX_HAVE_ISAL
#include <isa-l/igzip_lib.h>
typedef struct inflate_state inflater;
#else
#include <zlib.h>
typedef z_stream inflater;
#endif

enum { UNDECIDED, PLAIN, GZIP, ENDED, BROKEN };

struct gunzip {
    int fd;
    int mode;
    int eof;               /* read() gave 0 */
    uint64_t taken;        /* bytes read from fd */
    const char *err;       /* BROKEN: why */
    char errbuf[128];
    inflater st;
    int st_ready;          /* st initialised (zlib: must be ended) */
    int member_done;       /* the inflater finished a member */
    uint8_t *next_in;      /* unread input: next_in .. + avail_in */
    uint32_t avail_in;
    uint8_t *in;           /* input buffer */
    size_t cap;
};

enum { INFLATE_MORE = 0, INFLATE_END = 1, INFLATE_CORRUPT = -1,
       INFLATE_BAD_CHECK = -2, INFLATE_NOMEM = -3 };

#if PDX_HAVE_ISAL
/* Start a gzip member: 0, or INFLATE_NOMEM. */
static int inflate_begin(gunzip *g)
{
    if (!g->st_ready)
        isal_inflate_init(&g->st);
    else
        isal_inflate_reset(&g->st);
    g->st_ready = 1;
    g->st.crc_flag = ISAL_GZIP;
    return 0;
}

/* Inflate from g's input into out[0..*cap); *cap becomes the bytes made.
 * INFLATE_MORE, INFLATE_END (the member is whole), or an error. */
static int inflate_step(gunzip *g, uint8_t *out, uint32_t *cap)
{
    g->st.next_in = g->next_in;
    g->st.avail_in = g->avail_in;
    g->st.next_out = out;
    g->st.avail_out = *cap;
    int rc = isal_inflate(&g->st);
    *cap -= g->st.avail_out;
    g->next_in = g->st.next_in;
    g->avail_in = g->st.avail_in;
    if (rc < 0)
        return rc == ISAL_INCORRECT_CHECKSUM ? INFLATE_BAD_CHECK
                                             : INFLATE_CORRUPT;
    return g->st.block_state == ISAL_BLOCK_FINISH ? INFLATE_END : INFLATE_MORE;
}

static void inflate_end_all(gunzip *g) { (void)g; }
#else
static int inflate_begin(gunzip *g)
{
    if (!g->st_ready) {
        memset(&g->st, 0, sizeof g->st);
        if (inflateInit2(&g->st, 16 + MAX_WBITS) != Z_OK) /* gzip only */
            return INFLATE_NOMEM;
        g->st_ready = 1;
        return 0;
    }
    return inflateReset(&g->st) == Z_OK ? 0 : INFLATE_NOMEM;
}

static int inflate_step(gunzip *g, uint8_t *out, uint32_t *cap)
{
    g->st.next_in = g->next_in;
    g->st.avail_in = g->avail_in;
    g->st.next_out = out;
    g->st.avail_out = *cap;
    int rc = inflate(&g->st, Z_NO_FLUSH);
    *cap -= g->st.avail_out;
    g->next_in = g->st.next_in;
    g->avail_in = g->st.avail_in;
    if (rc == Z_STREAM_END)
        return INFLATE_END;
    if (rc == Z_OK || rc == Z_BUF_ERROR) /* Z_BUF_ERROR: needs more input */
        return INFLATE_MORE;
    if (rc == Z_MEM_ERROR)
        return INFLATE_NOMEM;
    if (rc == Z_DATA_ERROR && g->st.msg &&
        (strstr(g->st.msg, "incorrect data check") ||
         strstr(g->st.msg, "incorrect length check")))
        return INFLATE_BAD_CHECK;
    return INFLATE_CORRUPT;
}

static void inflate_end_all(gunzip *g)
{
    if (g->st_ready)
        inflateEnd(&g->st);
}
#endif

gunzip *gunzip_open(int fd, size_t inbuf)
{
    gunzip *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->cap = inbuf < 4096 ? 4096 : inbuf;
    g->in = malloc(g->cap);
    if (!g->in) {
        free(g);
        return NULL;
    }
    g->fd = fd;
    g->mode = UNDECIDED;
    g->next_in = g->in;
    g->avail_in = 0;
    return g;
}

static long broke(gunzip *g, const char *why)
{
    g->mode = BROKEN;
    g->err = why;
    return -1;
}

/* Read more input after what is left of it.  1 if bytes came, 0 at the
 * end of the file, -1 on a read error (g broken). */
static int fill(gunzip *g)
{
    if (g->eof)
        return 0;
    if (g->avail_in && g->next_in != g->in)
        memmove(g->in, g->next_in, g->avail_in);
    g->next_in = g->in;
    for (;;) {
        ssize_t n = read(g->fd, g->in + g->avail_in,
                         g->cap - g->avail_in);
        if (n > 0) {
            g->avail_in += (uint32_t)n;
            g->taken += (uint64_t)n;
            return 1;
        }
        if (n == 0) {
            g->eof = 1;
            return 0;
        }
        if (errno != EINTR) {
            snprintf(g->errbuf, sizeof g->errbuf, "%s", strerror(errno));
            broke(g, g->errbuf);
            return -1;
        }
    }
}

/* Make sure at least two input bytes are there (fewer at the end): 0, or
 * -1 on a read error. */
static int want2(gunzip *g)
{
    while (g->avail_in < 2) {
        int rc = fill(g);
        if (rc <= 0)
            return rc;
    }
    return 0;
}

static int at_magic(const gunzip *g)
{
    return g->avail_in >= 2 && g->next_in[0] == 0x1f &&
           g->next_in[1] == 0x8b;
}

long gunzip_read(gunzip *g, char *buf, size_t cap)
{
    if (g->mode == UNDECIDED) {
        if (want2(g) < 0)
            return -1;
        g->mode = at_magic(g) ? GZIP : PLAIN;
        if (g->mode == GZIP && inflate_begin(g))
            return broke(g, "out of memory");
    }
    if (g->mode == ENDED)
        return 0;
    if (g->mode == BROKEN)
        return -1;
    if (g->mode == PLAIN) {
        if (!g->avail_in && fill(g) < 0)
            return -1;
        size_t n = g->avail_in < cap ? g->avail_in : cap;
        memcpy(buf, g->next_in, n);
        g->next_in += n;
        g->avail_in -= (uint32_t)n;
        return (long)n;
    }
    if (cap > UINT32_MAX)
        cap = UINT32_MAX;
    for (;;) {
        if (g->member_done) {
            /* A whole member: another one, or the end. */
            if (want2(g) < 0)
                return -1;
            if (!at_magic(g)) {
                g->mode = ENDED; /* the end, or bytes that zlib ignores too */
                return 0;
            }
            if (inflate_begin(g))
                return broke(g, "out of memory");
            g->member_done = 0;
        }
        if (!g->avail_in) {
            int rc = fill(g);
            if (rc < 0)
                return -1;
            if (rc == 0)
                return broke(g, "the compressed stream ends early: the .gz "
                                "file is truncated");
        }
        uint32_t made = (uint32_t)cap;
        int rc = inflate_step(g, (uint8_t *)buf, &made);
        if (rc < 0) {
            /* The bytes before the break first; the error on the next call. */
            broke(g, rc == INFLATE_BAD_CHECK
                         ? "the .gz data is corrupt (its check does not match)"
                     : rc == INFLATE_NOMEM ? "out of memory"
                                           : "the .gz data is corrupt");
            return made ? (long)made : -1;
        }
        if (rc == INFLATE_END)
            g->member_done = 1;
        if (made)
            return (long)made;
    }
}

const char *gunzip_errmsg(const gunzip *g)
{
    return g->err ? g->err : "";
}

uint64_t gunzip_offset(const gunzip *g)
{
    return g->taken - g->avail_in;
}

void gunzip_close(gunzip *g)
{
    if (!g)
        return;
    close(g->fd);
    inflate_end_all(g);
    free(g->in);
    free(g);
}
