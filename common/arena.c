/*
 * arena.c -- chained-block bump allocator and growable string buffer.
 * See arena.h for why records and result pages use them.
 */
#include "arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_MIN 4096
#define ALIGN 16

struct arena_block {
    arena_block *next;
    size_t used, cap;
    _Alignas(ALIGN) unsigned char data[];
};

void *arena_alloc(arena *a, size_t n)
{
    size_t need = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    arena_block *b = a->head;
    if (need < n)
        return NULL;
    if (!b || b->cap - b->used < need) {
        size_t cap = need > BLOCK_MIN ? need : BLOCK_MIN;
        arena_block *nb = malloc(sizeof *nb + cap);
        if (!nb)
            return NULL;
        nb->used = 0;
        nb->cap = cap;
        /* A big one-off allocation goes behind the current block so that
         * the current block's free space is not wasted. */
        if (b && need > BLOCK_MIN) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += need;
    return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(arena *a, const char *s)
{
    return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

char *arena_concat(arena *a, const char *x, const char *y)
{
    size_t nx = strlen(x), ny = strlen(y);
    char *s = arena_alloc(a, nx + ny + 1);
    if (s) {
        memcpy(s, x, nx);
        memcpy(s + nx, y, ny + 1);
    }
    return s;
}

void arena_reset(arena *a)
{
    arena_block *b = a->head;
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}

static int sb_grow(strbuf *b, size_t extra)
{
    if (!b->ok)
        return 0;
    if (b->len + extra + 1 <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) {
        if (cap > ((size_t)-1) / 2) {
            b->ok = 0;
            return 0;
        }
        cap *= 2;
    }
    char *s = realloc(b->s, cap);
    if (!s) {
        b->ok = 0;
        return 0;
    }
    b->s = s;
    b->cap = cap;
    return 1;
}

void sb_append(strbuf *b, const char *s, size_t n)
{
    if (!sb_grow(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_puts(strbuf *b, const char *s) { sb_append(b, s, strlen(s)); }

void sb_putc(strbuf *b, char c) { sb_append(b, &c, 1); }

void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->ok = 0;
        return;
    }
    if (!sb_grow(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void sb_clear(strbuf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

void sb_release(strbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
    b->ok = 1;
}
