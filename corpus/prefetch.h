/*
 * prefetch.h -- a pdx_reader read on a thread of its own, a few dozen
 * records ahead of the caller, so that decoding the next records (gzip,
 * JSON, UTF-8 checks, cleaning) overlaps the caller's work on the last
 * ones.  For the indexer's one-job run on a machine with a core to
 * spare.
 *
 * The calls mirror pdx_reader's: prefetch_next() gives the records in
 * the reader's order with the reader's return codes, and the skip, line,
 * offset and message of the record it returned.  Made with threaded = 0,
 * a prefetch is a plain pass-through (no thread, no copy), so the
 * caller has one loop either way.
 *
 * Internal to libpaperdex.  One caller thread per prefetch.
 */
#ifndef PDX_PREFETCH_H
#define PDX_PREFETCH_H

#include <stdint.h>

#include "../common/paperdex.h"

typedef struct prefetch prefetch;

/* Wrap rd (which is the prefetch's from now on: prefetch_free frees
 * it).  threaded: read on a thread of its own; nonzero is honoured only
 * for a regular file (a pipe or a terminal could block the thread where
 * it cannot be stopped).  0, or PDX_ENOMEM (rd then still the caller's).
 * When no thread can be started the prefetch passes through. */
int prefetch_open(prefetch **out, pdx_reader *rd, const char *path,
                   int threaded);

/* As pdx_reader_next: the next record in *out (valid until the next
 * call), 0; PDX_EINVAL for a skipped bad record; PDX_ITEROVER at the
 * end; PDX_EIO / PDX_ENOMEM when the stream broke (and from then on). */
int prefetch_next(prefetch *ra, const pdx_work **out);

/* Of the record (or failure) prefetch_next last returned, as
 * pdx_reader_skip, pdx_reader_errmsg, pdx_reader_line and
 * pdx_reader_offset would have said right after reading it. */
pdx_skip prefetch_skip(const prefetch *ra);
const char *prefetch_errmsg(const prefetch *ra);
uint64_t prefetch_line(const prefetch *ra);
uint64_t prefetch_offset(const prefetch *ra);
/* ... and as reader_shares_lines (corpus/reader.h). */
int prefetch_shared(const prefetch *ra);

/* Whether a thread reads ahead (0: the calls pass through). */
int prefetch_threaded(const prefetch *ra);

/* Stop the thread (after the record it is decoding) and free it all,
 * the reader too.  NULL is ignored. */
void prefetch_free(prefetch *ra);

#endif
