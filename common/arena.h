/*
 * arena.h -- bump allocation for records and result sets, and a growable
 * string buffer.
 *
 * A record read from a file, or a page of search hits, is a tree of small
 * strings that all die together.  Allocating them from one arena makes the
 * owner's free function a single call and removes every per-string leak
 * path.  Pointers into an arena stay valid until arena_reset/arena_free:
 * blocks are chained, never moved.
 */
#ifndef PDX_ARENA_H
#define PDX_ARENA_H

#include <stddef.h>

typedef struct arena_block arena_block;
typedef struct arena {
    arena_block *head;
} arena;

/* Allocate n bytes aligned for any type.  NULL on out-of-memory. */
void *arena_alloc(arena *a, size_t n);
/* Copy s[0..n) plus a NUL.  NULL on out-of-memory. */
char *arena_strndup(arena *a, const char *s, size_t n);
/* Copy s; NULL in gives NULL out (and is not an error). */
char *arena_strdup(arena *a, const char *s);
/* x followed by y, in a.  NULL on out-of-memory. */
char *arena_concat(arena *a, const char *x, const char *y);
/* Release everything; the arena stays usable. */
void arena_reset(arena *a);
#define arena_free arena_reset

/* A NUL-terminated growable buffer.  `ok` turns 0 after a failed growth and
 * every later append is then ignored, so callers check once at the end. */
typedef struct strbuf {
    char *s;
    size_t len, cap;
    int ok;
} strbuf;

#define STRBUF_INIT {NULL, 0, 0, 1}
void sb_append(strbuf *b, const char *s, size_t n);
void sb_puts(strbuf *b, const char *s);
void sb_putc(strbuf *b, char c);
void sb_printf(strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sb_clear(strbuf *b); /* keeps the memory */
void sb_release(strbuf *b);

#endif
