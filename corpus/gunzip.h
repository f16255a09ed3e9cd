/*
 * gunzip.h -- the bytes of a file of records, plain or gzip-compressed,
 * as reader.c reads them: a gzip file is inflated, anything else passed
 * through.  The inflater is ISA-L's igzip (libisal) where it is built in,
 * zlib's inflate elsewhere.
 *
 * Why igzip where it can: it inflates the arXiv 101k's 63 MB .gz about
 * four times as fast as zlib (`igzip -dc` against `zcat`), and
 * every `paperdex index --jobs N` worker inflates the whole of a file the workers share
 * (corpus/reader.h), as every re-run of cron inflates a changed
 * snapshot whole.  The fallback is zlib's inflate, not gzread, so that
 * both inflaters sit behind one loop that does what gzread does: the gzip magic
 * decides, not the file's name; members written one after another (`cat
 * a.gz b.gz`) are one stream; bytes after the last member that do not
 * begin another are ignored; a stream that ends inside a member, or
 * whose data or check is wrong, is an error after the bytes before it.
 *
 * Internal to libpaperdex.  One thread per gunzip.
 */
#ifndef PDX_GUNZIP_H
#define PDX_GUNZIP_H

#include <stddef.h>
#include <stdint.h>

typedef struct gunzip gunzip;

/* Read the file open on fd (which is the gunzip's from now on, closed by
 * gunzip_close) with input buffers of `inbuf` bytes.  NULL on
 * out-of-memory (fd then still the caller's). */
gunzip *gunzip_open(int fd, size_t inbuf);

/* Up to cap bytes of the file's content into buf: their count; 0 at the
 * end; -1 once the stream broke (after every byte before the break was
 * returned), gunzip_errmsg saying why, and from then on. */
long gunzip_read(gunzip *g, char *buf, size_t cap);

/* Why gunzip_read returned -1: "the .gz file is truncated ...", "the
 * .gz data is corrupt", or a read error's strerror. */
const char *gunzip_errmsg(const gunzip *g);

/* The bytes of the file (compressed, for a .gz) taken in so far. */
uint64_t gunzip_offset(const gunzip *g);

/* Close the file and free g.  NULL is ignored. */
void gunzip_close(gunzip *g);

#endif
