/*
 * transcode.h -- the bytes of a file of records as UTF-8, as reader.c
 * reads them, when the file says it was saved in another encoding.
 *
 * Why.  Every reader takes UTF-8, and a line or record that is not is
 * named and skipped.  But reference managers and editors save in other
 * encodings and say so: Windows tools (Notepad's "Unicode", Excel,
 * EndNote, JabRef's UTF-16) write UTF-16 with a byte order mark, and
 * JabRef opens a BibTeX file it saved in a legacy encoding with the line
 * "% Encoding: windows-1252" (or ISO8859_1, Cp1250, ...).  Read as UTF-8
 * such a file loses every record, or every record with an accent; JabRef
 * and Zotero read both.  So:
 *
 *   a UTF-16 or UTF-32 byte order mark      that encoding, the mark left out;
 *   no mark, but ASCII text with a NUL      UTF-16LE or UTF-16BE (UTF-8
 *     after or before each of the first     text has no NUL bytes);
 *     two characters
 *   a first line "% Encoding: NAME"         NAME, unless it is UTF-8 or
 *                                           ASCII (Java's names too:
 *                                           ISO8859_1, Cp1252);
 *   anything else                           passed through as it is.
 *
 * XML is left to expat, which reads the encoding its declaration names,
 * unless it came in UTF-16 and was converted here (then the XML reader
 * is told the bytes are UTF-8: transcode_from).  The conversion is
 * glibc's iconv.  A byte sequence that is not valid in the file's
 * encoding becomes the byte 0xFF, never valid UTF-8, so the line or
 * record that holds it is named and skipped as any invalid text is;
 * newlines are kept, so line numbers are the file's.
 *
 * Internal to libpaperdex.  One thread per transcode.
 */
#ifndef PDX_TRANSCODE_H
#define PDX_TRANSCODE_H

#include <stddef.h>

#include "gunzip.h"

typedef struct transcode transcode;

/* A reader of gz's content as UTF-8.  gz stays the caller's, and must
 * outlive the transcode.  NULL on out-of-memory. */
transcode *transcode_open(gunzip *gz);

/* Up to cap bytes (cap at least 8) of the content, as UTF-8, into buf:
 * their count; 0 at the end; -1 once the stream below broke (after every
 * byte before the break was returned), transcode_errmsg saying why. */
long transcode_read(transcode *t, char *buf, size_t cap);

/* The encoding the file is converted from ("UTF-16LE", "windows-1252"),
 * once the first transcode_read has returned; NULL when its bytes pass
 * through as they are. */
const char *transcode_from(const transcode *t);

/* A first line "% Encoding: NAME" that this system cannot convert from:
 * NAME (the bytes then pass through); else NULL. */
const char *transcode_unknown(const transcode *t);

/* Why transcode_read returned -1 (gunzip_errmsg's reason). */
const char *transcode_errmsg(const transcode *t);

/* Free t (not its gunzip).  NULL is ignored. */
void transcode_close(transcode *t);

#endif
