/*
 * pdx_readbench.c -- how fast a reader alone decodes a file: every record
 * of FILE read with pdx_reader_next() and nothing else (no index), so
 * that bench/formats.py can tell the readers' share of indexing time
 * from Xapian's.
 *
 * usage: pdx_readbench FILE   prints "records skipped seconds"
 */
#include <stdio.h>
#include <time.h>

#include "paperdex.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pdx_readbench FILE\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pdx_reader *r = NULL;
    if (pdx_reader_open(&r, argv[1], NULL)) {
        fprintf(stderr, "%s\n", pdx_reader_errmsg(r));
        pdx_reader_free(r);
        return 1;
    }
    unsigned long long n = 0, bad = 0;
    for (;;) {
        const pdx_work *w;
        int rc = pdx_reader_next(&w, r);
        if (rc == 0)
            n++;
        else if (rc == PDX_EINVAL)
            bad++;
        else
            break;
    }
    pdx_reader_free(r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%llu %llu %.3f\n", n, bad,
           (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    return 0;
}
