/*
 * fuzz_batch.c -- libFuzzer target for the query-file parser behind
 * `paperdex search --batch` (searcher/batch.c): the input is a query file
 * in any of its three forms (qid<TAB>text lines, BEIR JSON lines, SMART).
 * Every query it returns must keep the parser's promises: a qid a TREC run
 * line can carry (1..PDX_ID_MAX bytes of valid UTF-8, no white space or
 * control byte), a text, and a line number within the file.
 *
 * batch.c reports bad entries through the CLI's cli_error(); the CLI's
 * main() lives in the same file as it, so this target brings its own.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../searcher/cli.h"
#include "../../common/text.h"
#include "../../searcher/batch.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path);
    if (fd < 0)
        return 0;
    unsigned long long lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    batch_queries l = {0};
    int bad = 0;
    if (batch_read_queries(&l, path, &bad) == 0) {
        for (size_t i = 0; i < l.n; i++) {
            const batch_query *q = &l.v[i];
            size_t n = strlen(q->qid), at;
            if (n == 0 || n > PDX_ID_MAX || !text_utf8_valid(q->qid, n, &at))
                abort();
            for (size_t k = 0; k < n; k++)
                if ((unsigned char)q->qid[k] <= 0x20 || q->qid[k] == 0x7f)
                    abort();
            if (!q->text || q->line < 1 || q->line > lines)
                abort();
        }
    }
    batch_queries_free(&l);
    close(fd);
    return 0;
}
