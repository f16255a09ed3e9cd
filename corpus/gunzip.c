/*
 * gunzip.c -- a file's bytes, inflated by ISA-L's igzip when it is a
 * gzip file; see gunzip.h for why and what it promises.
 *
 * The first bytes decide: a gzip member begins 1f 8b.  igzip, with
 * crc_flag ISAL_GZIP, parses a member's header, inflates its deflate
 * blocks and checks its trailer's CRC-32 and length; its block_state is
 * ISAL_BLOCK_FINISH when the member is whole.  Then the next input
 * bytes either begin another member (the state is reset for it) or end
 * the stream, as in zlib's gzread.  Input that runs out inside a member
 * is a truncated file.
 */
#include "gunzip.h"

#include <errno.h>
#include <isa-l/igzip_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { UNDECIDED, PLAIN, GZIP, ENDED, BROKEN };

struct gunzip {
    int fd;
    int mode;
    int eof;               /* read() gave 0 */
    uint64_t taken;        /* bytes read from fd */
    const char *err;       /* BROKEN: why */
    char errbuf[128];
    struct inflate_state st;
    uint8_t *in;           /* input buffer: st.next_in .. + st.avail_in */
    size_t cap;
};

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
    isal_inflate_init(&g->st);
    g->st.next_in = g->in;
    g->st.avail_in = 0;
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
    if (g->st.avail_in && g->st.next_in != g->in)
        memmove(g->in, g->st.next_in, g->st.avail_in);
    g->st.next_in = g->in;
    for (;;) {
        ssize_t n = read(g->fd, g->in + g->st.avail_in,
                         g->cap - g->st.avail_in);
        if (n > 0) {
            g->st.avail_in += (uint32_t)n;
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
    while (g->st.avail_in < 2) {
        int rc = fill(g);
        if (rc <= 0)
            return rc;
    }
    return 0;
}

static int at_magic(const gunzip *g)
{
    return g->st.avail_in >= 2 && g->st.next_in[0] == 0x1f &&
           g->st.next_in[1] == 0x8b;
}

long gunzip_read(gunzip *g, char *buf, size_t cap)
{
    if (g->mode == UNDECIDED) {
        if (want2(g) < 0)
            return -1;
        g->mode = at_magic(g) ? GZIP : PLAIN;
        if (g->mode == GZIP)
            g->st.crc_flag = ISAL_GZIP;
    }
    if (g->mode == ENDED)
        return 0;
    if (g->mode == BROKEN)
        return -1;
    if (g->mode == PLAIN) {
        if (!g->st.avail_in && fill(g) < 0)
            return -1;
        size_t n = g->st.avail_in < cap ? g->st.avail_in : cap;
        memcpy(buf, g->st.next_in, n);
        g->st.next_in += n;
        g->st.avail_in -= (uint32_t)n;
        return (long)n;
    }
    if (cap > UINT32_MAX)
        cap = UINT32_MAX;
    for (;;) {
        if (g->st.block_state == ISAL_BLOCK_FINISH) {
            /* A whole member: another one, or the end. */
            if (want2(g) < 0)
                return -1;
            if (!at_magic(g)) {
                g->mode = ENDED; /* the end, or bytes that zlib ignores too */
                return 0;
            }
            uint8_t *next = g->st.next_in;
            uint32_t avail = g->st.avail_in;
            isal_inflate_reset(&g->st);
            g->st.crc_flag = ISAL_GZIP;
            g->st.next_in = next;
            g->st.avail_in = avail;
        }
        if (!g->st.avail_in) {
            int rc = fill(g);
            if (rc < 0)
                return -1;
            if (rc == 0)
                return broke(g, "the compressed stream ends early: the .gz "
                                "file is truncated");
        }
        g->st.next_out = (uint8_t *)buf;
        g->st.avail_out = (uint32_t)cap;
        int rc = isal_inflate(&g->st);
        long made = (long)(cap - g->st.avail_out);
        if (rc < 0) {
            /* The bytes before the break first; the error on the next call. */
            broke(g, rc == ISAL_INCORRECT_CHECKSUM
                         ? "the .gz data is corrupt (its check does not match)"
                         : "the .gz data is corrupt");
            return made ? made : -1;
        }
        if (made)
            return made;
    }
}

const char *gunzip_errmsg(const gunzip *g)
{
    return g->err ? g->err : "";
}

uint64_t gunzip_offset(const gunzip *g)
{
    return g->taken - g->st.avail_in;
}

void gunzip_close(gunzip *g)
{
    if (!g)
        return;
    close(g->fd);
    free(g->in);
    free(g);
}
