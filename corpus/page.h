/*
 * page.h -- researcher-profile and listing pages (page.c): five styles,
 * detected from the content.  Internal to libpaperdex; pdx_reader is the
 * public way in.
 */
#ifndef PDX_PAGE_H
#define PDX_PAGE_H

#include "record.h"

typedef struct page_date {
    int y, m, d;
} page_date;

/* One block of a page: a record, or (when `warning` is set) a complaint
 * about the block starting at w.source_line. */
typedef struct page_item {
    pdx_work w;
    const char *warning;
} page_item;

/* Parse a whole page text[0..len) read from file `name` (kept by
 * pointer: it must outlive the items).  `style` is a page format, or
 * PDX_FORMAT_AUTO to detect it; *detected says which was used
 * (PDX_FORMAT_AUTO when none matched).  Items are allocated in `a`, in
 * page order.  Returns 0, or -1 on out-of-memory. */
int page_parse(arena *a, const char *name, char *text, size_t len,
               pdx_format style, page_date ref, page_item **items,
               size_t *n_items, pdx_format *detected);

#endif
