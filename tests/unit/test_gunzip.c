/*
 * test_gunzip.c -- corpus/gunzip.c, ISA-L's igzip behind reader.c, read
 * against zlib's gzread as the oracle it replaced: the same bytes from a
 * plain file, one gzip member, members one after another, trailing bytes
 * that begin no member, and an empty file; and, for a file cut at 150
 * points and one with a byte changed at 150 points after its header, an
 * error exactly where gzread reports one, with only bytes of the content
 * before it for a cut file.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../../corpus/gunzip.h"
#include "check.h"

/* data gzip-compressed as one member, malloc'd, its size in *n. */
static unsigned char *gz_member(const char *data, size_t len, size_t *n)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    CHECK(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) ==
          Z_OK);
    size_t cap = deflateBound(&z, len);
    unsigned char *out = malloc(cap);
    z.next_in = (unsigned char *)data;
    z.avail_in = (unsigned)len;
    z.next_out = out;
    z.avail_out = (unsigned)cap;
    CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
    *n = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

typedef struct got {
    char *s;
    size_t n;
    int broke;
} got;

static got by_gunzip(const char *name)
{
    got g = {malloc(1 << 21), 0, 0};
    int fd = open(check_path(name), O_RDONLY);
    gunzip *z = gunzip_open(fd, 65536);
    CHECK(z != NULL);
    long k;
    while (z && (k = gunzip_read(z, g.s + g.n, 4096)) != 0) {
        if (k < 0) {
            g.broke = 1;
            CHECK(*gunzip_errmsg(z) != '\0');
            break;
        }
        g.n += (size_t)k;
        CHECK(g.n <= (1 << 21) - 4096);
    }
    CHECK(!z || gunzip_offset(z) <= (uint64_t)lseek(fd, 0, SEEK_END));
    gunzip_close(z);
    return g;
}

static got by_zlib(const char *name)
{
    got g = {malloc(1 << 21), 0, 0};
    gzFile z = gzopen(check_path(name), "rb");
    int k;
    while ((k = gzread(z, g.s + g.n, 4096)) > 0)
        g.n += (size_t)k;
    int err;
    gzerror(z, &err);
    g.broke = k < 0 || (err != Z_OK && err != Z_STREAM_END);
    gzclose(z);
    return g;
}

/* name read both ways: the same bytes, and no error. */
static void same(const char *name, const char *want, size_t want_n)
{
    got a = by_gunzip(name), b = by_zlib(name);
    CHECK(!a.broke && !b.broke);
    CHECK(a.n == want_n && b.n == want_n);
    CHECK(a.n == want_n && !memcmp(a.s, want, want_n));
    if (a.n != want_n || a.broke)
        fprintf(stderr, "  %s: %zu bytes (want %zu), broke %d\n", name, a.n,
                want_n, a.broke);
    free(a.s);
    free(b.s);
}

int main(void)
{
    if (check_scratch_init("gunzip"))
        return 1;
    /* 400 KB of lines, words repeating as text does */
    size_t len = 0, cap = 400000;
    char *text = malloc(cap + 200);
    for (unsigned i = 0; len < cap; i++)
        len += (size_t)sprintf(text + len, "{\"id\":\"r%u\",\"title\":\"a "
                               "record of words %x and %u\"}\n", i,
                               i * 2654435761u, i % 977);
    size_t n1, n2;
    unsigned char *m1 = gz_member(text, len / 3, &n1);
    unsigned char *m2 = gz_member(text + len / 3, len - len / 3, &n2);
    unsigned char *two = malloc(n1 + n2 + 16);
    memcpy(two, m1, n1);
    memcpy(two + n1, m2, n2);

    check_put_file("plain.jsonl", text, len);
    same("plain.jsonl", text, len);
    check_put_file("empty", "", 0);
    same("empty", "", 0);
    check_put_file("one.gz", m1, n1);
    same("one.gz", text, len / 3);
    check_put_file("two.gz", two, n1 + n2);
    same("two.gz", text, len);
    memcpy(two + n1 + n2, "not gzip\n", 9);
    check_put_file("trailing.gz", two, n1 + n2 + 9);
    same("trailing.gz", text, len);
    two[n1 + n2] = 0x1f;
    check_put_file("trailing1.gz", two, n1 + n2 + 1);
    same("trailing1.gz", text, len);

    /* Cut anywhere: an error where zlib reports one (a cut at the
     * members' boundary is a whole file), and only the content's bytes
     * before it. */
    unsigned cut_bad = 0, cut_errors = 0;
    for (unsigned i = 0; i < 150; i++) {
        size_t at = i == 149 ? n1 : (n1 + n2) * i / 149;
        check_put_file("cut.gz", two, at);
        got a = by_gunzip("cut.gz"), b = by_zlib("cut.gz");
        cut_errors += a.broke;
        if (a.broke != b.broke || a.n > len || memcmp(a.s, text, a.n)) {
            cut_bad++;
            fprintf(stderr, "  cut at %zu: gunzip %zu bytes broke %d, zlib "
                    "%zu bytes broke %d\n", at, a.n, a.broke, b.n, b.broke);
        }
        free(a.s);
        free(b.s);
    }
    CHECK(cut_bad == 0);
    CHECK(cut_errors > 100); /* most cuts fall inside a member */

    /* A byte changed after the header: broken exactly when zlib says. */
    unsigned flip_bad = 0, flip_errors = 0;
    for (unsigned i = 0; i < 150; i++) {
        size_t at = 10 + (n1 + n2 - 10) * i / 150;
        unsigned char *bad = malloc(n1 + n2);
        memcpy(bad, two, n1 + n2);
        bad[at] ^= (unsigned char)(1u << (i % 8));
        check_put_file("flip.gz", bad, n1 + n2);
        free(bad);
        got a = by_gunzip("flip.gz"), b = by_zlib("flip.gz");
        flip_errors += a.broke;
        if (a.broke != b.broke) {
            flip_bad++;
            fprintf(stderr, "  byte %zu changed: gunzip broke %d, zlib "
                    "broke %d\n", at, a.broke, b.broke);
        }
        free(a.s);
        free(b.s);
    }
    CHECK(flip_bad == 0);
    CHECK(flip_errors > 100);

    check_scratch_done();
    free(text);
    free(m1);
    free(m2);
    free(two);
    return check_done();
}
