/*
 * fuzz_reader.c -- libFuzzer target for every record reader: the input is
 * a file (JSON lines, a profile page, XML, BibTeX; plain or gzip) read to
 * the end with every format, forced and detected.  With FUZZ_ONLY set to
 * a format (fuzz_pubmed.c, fuzz_oai.c, fuzz_openalex.c, fuzz_bibtex.c),
 * that format alone, forced and detected: the fuzzer's time goes to it.
 * Everything the reader returns is checked for the reader's own promises:
 * valid UTF-8, an id within PDX_ID_MAX, a title or an abstract.
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
    close(fd);
    return 0;
}
