/*
 * transcode.c -- a file's bytes as UTF-8: UTF-16 and UTF-32 by their
 * byte order mark (or UTF-16 by the NULs of its ASCII), and the
 * encoding a first line "% Encoding: NAME" declares, converted with
 * glibc's iconv; anything else passed through.  transcode.h says why
 * and what becomes of bytes the encoding does not allow.
 */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "transcode.h"

/* The bytes looked at before deciding: enough for a first line. */
#define PEEK 256

struct transcode {
    gunzip *gz;
    int decided;
    iconv_t cd;        /* (iconv_t)-1: the bytes pass through */
    size_t unit;       /* bytes of one code unit of `from`: 1, 2 or 4 */
    char from[48];     /* "" when passing through */
    char unknown[48];  /* a declared encoding iconv does not know */
    size_t in_pos, in_len; /* in[in_pos..in_len): read, not yet handed on */
    int eof;           /* gz has ended */
    int broke;         /* gz broke: once in[] is used up, -1 */
    char in[65536];
};

transcode *transcode_open(gunzip *gz)
{
    transcode *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->gz = gz;
    t->cd = (iconv_t)-1;
    t->unit = 1;
    return t;
}

/* Move the unread bytes of in[] to its start and read more after them:
 * 1 if some came, 0 at the end of the file, -1 when it broke. */
static int fill(transcode *t)
{
    if (t->in_pos) {
        memmove(t->in, t->in + t->in_pos, t->in_len - t->in_pos);
        t->in_len -= t->in_pos;
        t->in_pos = 0;
    }
    if (t->broke)
        return -1;
    if (t->eof || t->in_len == sizeof t->in)
        return 0;
    long n = gunzip_read(t->gz, t->in + t->in_len, sizeof t->in - t->in_len);
    if (n < 0) {
        t->broke = 1;
        return -1;
    }
    if (n == 0) {
        t->eof = 1;
        return 0;
    }
    t->in_len += (size_t)n;
    return 1;
}

/* Convert from `name` from now on, its byte order mark (skip bytes)
 * left out.  0, or -1 when iconv does not know the name. */
static int convert_from(transcode *t, const char *name, size_t skip,
                        size_t unit)
{
    t->cd = iconv_open("UTF-8", name);
    if (t->cd == (iconv_t)-1)
        return -1;
    snprintf(t->from, sizeof t->from, "%s", name);
    t->in_pos = skip;
    t->unit = unit;
    return 0;
}

/* The encoding a first line "% Encoding: NAME" (JabRef's) declares, as
 * written, into name; 0 when there is no such line. */
static int declared(const transcode *t, char name[48])
{
    static const char decl[] = "% Encoding:";
    const size_t dl = sizeof decl - 1;
    if (t->in_len < dl || memcmp(t->in, decl, dl))
        return 0;
    size_t i = dl, k = 0;
    while (i < t->in_len && (t->in[i] == ' ' || t->in[i] == '\t'))
        i++;
    for (; i < t->in_len && k < 47; i++, k++) {
        unsigned char c = (unsigned char)t->in[i];
        if (!isalnum(c) && c != '-' && c != '_' && c != '.' && c != ':')
            break;
        name[k] = (char)c;
    }
    name[k] = '\0';
    return k > 0;
}

static int is_utf8_name(const char *n)
{
    static const char *const same[] = {"UTF-8", "UTF8", "US-ASCII",
                                       "ASCII", "ANSI_X3.4-1968"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        if (!strcasecmp(n, same[i]))
            return 1;
    return 0;
}

/* Look at the first bytes and choose (transcode.h's table). */
static void decide(transcode *t)
{
    t->decided = 1;
    while (t->in_len < PEEK && fill(t) > 0)
        ;
    const unsigned char *b = (const unsigned char *)t->in;
    size_t n = t->in_len;
    if (n >= 4 && !memcmp(b, "\xff\xfe\0\0", 4)) {
        convert_from(t, "UTF-32LE", 4, 4);
    } else if (n >= 4 && !memcmp(b, "\0\0\xfe\xff", 4)) {
        convert_from(t, "UTF-32BE", 4, 4);
    } else if (n >= 2 && b[0] == 0xff && b[1] == 0xfe) {
        convert_from(t, "UTF-16LE", 2, 2);
    } else if (n >= 2 && b[0] == 0xfe && b[1] == 0xff) {
        convert_from(t, "UTF-16BE", 2, 2);
    } else if (n >= 4 && b[0] && b[0] < 0x80 && !b[1] && b[2] &&
               b[2] < 0x80 && !b[3]) {
        convert_from(t, "UTF-16LE", 0, 2);
    } else if (n >= 4 && !b[0] && b[1] && b[1] < 0x80 && !b[2] && b[3] &&
               b[3] < 0x80) {
        convert_from(t, "UTF-16BE", 0, 2);
    } else {
        char name[48];
        if (!declared(t, name) || is_utf8_name(name))
            return;
        /* Java's legacy names: ISO8859_1 is iconv's ISO8859-1 */
        char alt[48];
        snprintf(alt, sizeof alt, "%s", name);
        for (char *p = alt; *p; p++)
            if (*p == '_')
                *p = '-';
        if (convert_from(t, name, 0, 1) && convert_from(t, alt, 0, 1))
            snprintf(t->unknown, sizeof t->unknown, "%s", name);
        else
            snprintf(t->from, sizeof t->from, "%s", name);
    }
}

long transcode_read(transcode *t, char *buf, size_t cap)
{
    if (!t->decided)
        decide(t);
    if (t->cd == (iconv_t)-1) { /* what decide() read, then the rest */
        if (t->in_pos < t->in_len) {
            size_t k = t->in_len - t->in_pos;
            if (k > cap)
                k = cap;
            memcpy(buf, t->in + t->in_pos, k);
            t->in_pos += k;
            return (long)k;
        }
        if (t->broke)
            return -1;
        if (t->eof)
            return 0;
        long n = gunzip_read(t->gz, buf, cap);
        t->broke = n < 0;
        t->eof = n == 0;
        return n;
    }
    char *op = buf;
    size_t oleft = cap;
    while (oleft >= 8) { /* room for a character and more */
        if (t->in_pos == t->in_len && fill(t) <= 0)
            break;
        char *ip = t->in + t->in_pos;
        size_t ileft = t->in_len - t->in_pos;
        size_t r = iconv(t->cd, &ip, &ileft, &op, &oleft);
        int e = errno;
        t->in_pos = (size_t)(ip - t->in);
        if (r != (size_t)-1)
            continue; /* all converted: read on */
        if (e == E2BIG)
            break;
        if (e == EINVAL && fill(t) > 0)
            continue; /* a character cut by the end of in[]: its rest */
        /* A sequence the encoding does not allow, or one the file ends
         * (or breaks) inside: 0xFF, which no UTF-8 text holds. */
        *op++ = '\xff';
        oleft--;
        size_t k = e == EINVAL ? t->in_len - t->in_pos : t->unit;
        if (k > t->in_len - t->in_pos)
            k = t->in_len - t->in_pos;
        t->in_pos += k;
    }
    if (op > buf)
        return (long)(op - buf);
    return t->broke ? -1 : 0;
}

const char *transcode_from(const transcode *t)
{
    return t && t->from[0] ? t->from : NULL; /* set only once iconv opened */
}

const char *transcode_unknown(const transcode *t)
{
    return t && t->unknown[0] ? t->unknown : NULL;
}

const char *transcode_errmsg(const transcode *t)
{
    return gunzip_errmsg(t->gz);
}

void transcode_close(transcode *t)
{
    if (!t)
        return;
    if (t->cd != (iconv_t)-1)
        iconv_close(t->cd);
    free(t);
}
