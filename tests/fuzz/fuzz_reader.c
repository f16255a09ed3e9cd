/*
 * fuzz_reader.c -- libFuzzer target for every record reader: the input is
 * a file (JSON lines, a profile page, XML, BibTeX; plain or gzip) read to
 * the end with every format, forced and detected.  With FUZZ_ONLY set to
 * a format (fuzz_pubmed.c, fuzz_oai.c, fuzz_openalex.c, fuzz_bibtex.c),
 * that format alone, forced and detected: the fuzzer's time goes to it.
 * Everything the reader returns is checked for the reader's own promises:
 * valid UTF-8, an id within PDX_ID_MAX, a title or an abstract.  And the
 * file read by two readers that share its lines (corpus/reader.h, as two
 * `index --jobs 2` workers do) gives, between them, every record one
 * reader gives, bad ones included; a file they do not share, all of them
 * to each.
 *
 * Built with clang -fsanitize=fuzzer when PDX_FUZZ=ON; otherwise linked
 * with replay.c, a main() that runs the target over files, so gcc builds
 * replay the seed corpus as a CTest test.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/paperdex.h"
#include "../../common/text.h"
#include "../../corpus/reader.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_work(const pdx_work *w)
{
    size_t bad;
    if (!w->id || !*w->id || strlen(w->id) > PDX_ID_MAX)
        abort();
    /* A withdrawal carries identity only, and always an identity. */
    if (w->withdrawn && !w->pmid && !w->openalex_id && !w->arxiv_id)
        abort();
    if (!w->withdrawn && (!w->title || !*w->title) &&
        (!w->abstract || !*w->abstract))
        abort();
    for (size_t i = 0; i < w->n_subjects; i++)
        if (!w->subjects[i] ||
            !text_utf8_valid(w->subjects[i], strlen(w->subjects[i]), &bad))
            abort();
    const char *more[] = {w->pmid, w->pmcid, w->openalex_id, w->source_key,
                          w->doi, w->arxiv_id, w->comments};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        if (more[i] && !text_utf8_valid(more[i], strlen(more[i]), &bad))
            abort();
    const char *fields[] = {w->id, w->title, w->abstract, w->date, w->venue};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (fields[i] && !text_utf8_valid(fields[i], strlen(fields[i]), &bad))
            abort();
    for (size_t i = 0; i < w->n_authors; i++)
        if (!text_utf8_valid(w->authors[i], strlen(w->authors[i]), &bad))
            abort();
}

#ifndef FUZZ_ONLY
/* The records (bad ones included) reader k of n gives of path, read to
 * its end or its break (n 0: the one reader of the whole file); *shares
 * as reader_shares_lines says at the end. */
static long count_records(const char *path, unsigned k, unsigned n,
                          int *shares)
{
    pdx_reader *r = NULL;
    pdx_reader_options ro = PDX_READER_OPTIONS_INIT;
    ro.page_date = "2024-02-29";
    long count = 0;
    *shares = 0;
    if (pdx_reader_open(&r, path, &ro) == 0) {
        if (n)
            reader_share_lines(r, k, n);
        for (;;) {
            const pdx_work *w;
            int rc = pdx_reader_next(&w, r);
            if (rc != 0 && rc != PDX_EINVAL)
                break;
            count++;
        }
        *shares = reader_shares_lines(r);
    }
    pdx_reader_free(r);
    return count;
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path);
    if (fd < 0)
        return 0;
    for (int f = 0; f < PDX_FORMAT__COUNT; f++) {
#ifdef FUZZ_ONLY
        if (f != FUZZ_ONLY && f != PDX_FORMAT_AUTO)
            continue;
#endif
        pdx_reader *r = NULL;
        pdx_reader_options ro = PDX_READER_OPTIONS_INIT;
        ro.format = (pdx_format)f;
        ro.page_date = "2024-02-29";
        if (pdx_reader_open(&r, path, &ro) == 0) {
            for (;;) {
                const pdx_work *w;
                int rc = pdx_reader_next(&w, r);
                if (rc == 0)
                    check_work(w);
                else if (rc != PDX_EINVAL)
                    break;
            }
        }
        pdx_reader_free(r);
    }
#ifndef FUZZ_ONLY
    int whole_shares, s0, s1;
    long whole = count_records(path, 0, 0, &whole_shares);
    long c0 = count_records(path, 0, 2, &s0), c1 = count_records(path, 1, 2, &s1);
    if (whole_shares || s0 != s1)
        abort(); /* one reader shares nothing; two agree whether they do */
    if (s0 ? c0 + c1 != whole : c0 != whole || c1 != whole)
        abort();
#endif
    close(fd);
    return 0;
}
