/*
 * test_swap.c -- readers across a rebuild swapped in.  `paperdex index
 * --full` and `--jobs` build the new index beside the old one and put it
 * in the old one's place with one renameat2(RENAME_EXCHANGE).  Xapian's
 * glass backend opens each table file by name, one after the other, so a
 * reader opening (or reopening) the index just as the exchange lands could
 * hold tables of both indexes and read past the end of one ("EOF reading
 * block"): tests/cli/crash.py met it in CI, in one read of 95.
 *
 * Here one thread puts indexes of SMALL and BIG works (and copies of them)
 * in turn at the index's place, one exchange a millisecond (at most
 * SWAPS_PER_READ while no read finishes), while the
 * main thread reads through a handle opened once and through handles
 * opened afresh.  Every read must succeed and see one whole index: the
 * count and the first hits (scores included) of the small or of the big
 * one, never an error.  Without the check in common/shim.cc
 * (open_local_reader, with_reopen) about one read in 500 failed here.
 * The numbers of reads and directories are fixed; the spacing of the
 * exchanges only makes them realistic.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/paperdex.h"
#include "check.h"

enum { SMALL = 150, BIG = 3000 };
/* Reads on each kind of handle: PDX_TEST_SWAP_READS, else 3000 (the
 * sanitizer build reads fewer, tests/CMakeLists.txt). */
static int reads = 3000;

static char tmpdir[] = "/tmp/pdx-test-swap-XXXXXX";
/* Directories taking turns at the index's place: one comes back every
 * POOL - 1 exchanges (about as many ms).  A directory back within one
 * open is torn in a way no reader can see (the swapper's comment); with
 * 12, a read under ASan on a loaded 2-core machine (its 8 handles of
 * the bonus's cursors opened too) met that on every reading again now
 * and then. */
enum { POOL = 48 };
static char live[300], pool[POOL][300];
static atomic_int stop_swapping;
static atomic_long swaps;
/* Reads finished on either kind of handle (the main thread counts them). */
static atomic_long reads_done;
/* Exchanges at most while no read finishes.  A reader survives a swap
 * landing in it, and a few more (with_reopen reads again by name), but
 * no reader can keep up with swaps faster than it reads: under the
 * sanitizers on a loaded 2-core machine a read took 40 ms, long enough
 * for 40 exchanges and for its own directory to come back (POOL), and
 * then failed now and then.  Two keep the normal build's pace (about
 * one exchange a read) and hold a slow build to it. */
enum { SWAPS_PER_READ = 2 };

/* An index of n works at path: every work holds the word "common" and
 * enough others that the tables span many blocks, the others in another
 * order in the small and the big index, so that the works holding
 * "common lattice" side by side are not the same in both. */
static int build(const char *path, int n)
{
    pdx_index *ix = NULL;
    int rc = pdx_open(&ix, path, PDX_OPEN_WRITE | PDX_OPEN_CREATE);
    static const char *words[] = {"lattice", "quantum", "graph", "neural",
                                  "protein", "galaxy", "entropy", "sparse",
                                  "kernel", "manifold", "spectral", "flux"};
    for (int i = 0; i < n && rc == 0; i++) {
        char id[32], title[128], abstract[1024];
        size_t len = 0;
        snprintf(id, sizeof id, "swap.%05d", i);
        const int o = n == SMALL ? 3 : 7;
        snprintf(title, sizeof title, "common %s %s number%d",
                 words[(i + o) % 12], words[(i / 12 + o) % 12], i);
        for (int k = 0; k < 40; k++)
            len += (size_t)snprintf(abstract + len, sizeof abstract - len,
                                    "%s%d ", words[(i + k + o) % 12],
                                    (i * 7 + k) % 997);
        rc = check_put_work(ix, id, title, abstract, 2000 + i % 20);
        if (rc == 0 && i % 500 == 499)
            rc = pdx_commit(ix);
    }
    return check_build_done(ix, path, rc);
}

/* Exchanges live with pool[1], pool[2], ... in turn: a directory comes
 * back to live's place only every POOL exchanges.  A real rebuild swaps
 * once and removes the old index; a directory back within one open is
 * what a reader cannot tell from one never gone (it then relies on
 * reading again after an error). */
static void *swapper(void *arg)
{
    (void)arg;
    long seen = -1, since = 0;
    int k = 1;
    while (!atomic_load(&stop_swapping)) {
        if (atomic_load(&reads_done) != seen) {
            seen = atomic_load(&reads_done);
            since = 0;
        }
        if (since >= SWAPS_PER_READ) {
            usleep(200);
            continue;
        }
        if (renameat2(AT_FDCWD, live, AT_FDCWD, pool[k], RENAME_EXCHANGE)) {
            perror("renameat2");
            break;
        }
        since++;
        k = k % (POOL - 1) + 1;
        atomic_fetch_add(&swaps, 1);
        usleep(1000);
    }
    return NULL;
}

/* The works of YEAR in an index of n works (build() gives work i the
 * year 2000 + i % 20). */
enum { YEAR = 2005 };
#define IN_YEAR(n) (((n) + 19 - (YEAR - 2000)) / 20)

/* The number of works of YEAR matching "common lattice" on ix (every work
 * holds both words), or -1 with the error printed; in page, its first
 * hits' ids and scores (to 17 digits).  Two words, so that the
 * proximity bonus reads positions too, through the handles each reader
 * keeps for its word cursors (searcher/shim_read.cc, cursor_dbs), which
 * must follow the swaps as the reader does; one year, so that it weighs
 * a twentieth of the works (under the sanitizers, weighing them all
 * takes minutes). */
static long commons(pdx_index *ix, const char *how, char *page, size_t len)
{
    pdx_query q = PDX_QUERY_INIT;
    q.text = "common lattice";
    q.year_min = q.year_max = YEAR;
    q.exact_total = 1;
    q.limit = 3;
    pdx_results *r = NULL;
    page[0] = '\0';
    if (pdx_search(&r, ix, &q) != 0) {
        fprintf(stderr, "%s: search: %s\n", how, pdx_errmsg(ix));
        pdx_results_free(r);
        return -1;
    }
    size_t at = 0;
    for (size_t i = 0; i < pdx_results_count(r) && at < len; i++)
        at += (size_t)snprintf(page + at, len - at, "%s:%.17g ",
                               pdx_results_hit(r, i)->work->id,
                               pdx_results_hit(r, i)->score);
    long n = (long)pdx_results_total(r);
    pdx_results_free(r);
    return n;
}

/* The pages of the small and the big index, read before the swaps. */
static char want[2][256];

/* Whether n and page are one whole index's: its count and its page, the
 * bonus's positions read from that index too. */
static int whole(long n, const char *page)
{
    return (n == IN_YEAR(SMALL) && strcmp(page, want[0]) == 0) ||
           (n == IN_YEAR(BIG) && strcmp(page, want[1]) == 0);
}

int main(void)
{
    /* the bonus's cursors take their own handles at once, not only after
     * 64 chunk reads a handle, which these small indexes never make */
    setenv("PDX_TEST_CURSOR_DBS_AFTER", "0", 1);
    const char *nreads = getenv("PDX_TEST_SWAP_READS");
    if (nreads && atoi(nreads) > 0)
        reads = atoi(nreads);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(live, sizeof live, "%s/db", tmpdir);
    for (int k = 1; k < POOL; k++)
        snprintf(pool[k], sizeof pool[k], "%s/db.full-%d", tmpdir, k);
    if (build(live, SMALL) || build(pool[1], BIG)) {
        CHECK(0);
        return check_done();
    }
    for (int k = 2; k < POOL; k++) {
        char cmd[700];
        snprintf(cmd, sizeof cmd, "cp -a %s %s", k % 2 ? pool[1] : live,
                 pool[k]);
        if (system(cmd) != 0) {
            CHECK(0);
            return check_done();
        }
    }
    /* RENAME_EXCHANGE needs a file system that has it (tmpfs and ext4 do). */
    if (renameat2(AT_FDCWD, live, AT_FDCWD, pool[1], RENAME_EXCHANGE) != 0) {
        printf("SKIP: renameat2(RENAME_EXCHANGE) not supported here\n");
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
        if (system(cmd) != 0)
            return 1;
        return 77;
    }

    /* live holds the big index now, pool[1] the small one */
    for (int b = 0; b < 2; b++) {
        pdx_index *ix = NULL;
        CHECK_INT(pdx_open(&ix, b ? live : pool[1], PDX_OPEN_READ), 0);
        CHECK_INT(commons(ix, "before the swaps", want[b], sizeof want[b]),
                  b ? IN_YEAR(BIG) : IN_YEAR(SMALL));
        CHECK(strchr(want[b], ':') != NULL);
        pdx_close(ix);
    }

    pdx_index *kept = NULL;
    CHECK_INT(pdx_open(&kept, live, PDX_OPEN_READ), 0);
    pthread_t t;
    pthread_create(&t, NULL, swapper, NULL);

    long kept_bad = 0, fresh_bad = 0, open_bad = 0, sizes[2] = {0, 0};
    for (int i = 0; i < reads; i++) {
        char page[256];
        long n = commons(kept, "the handle opened once", page, sizeof page);
        atomic_fetch_add(&reads_done, 1);
        kept_bad += !whole(n, page);
        if (whole(n, page))
            sizes[n == IN_YEAR(BIG)]++;
        pdx_index *ix = NULL;
        int rc = pdx_open(&ix, live, PDX_OPEN_READ);
        if (rc) {
            fprintf(stderr, "open: %s\n", ix ? pdx_errmsg(ix) : "no memory");
            open_bad++;
        } else {
            pdx_stats st = PDX_STATS_INIT;
            long m = commons(ix, "a handle opened afresh", page, sizeof page);
            atomic_fetch_add(&reads_done, 1);
            fresh_bad += !whole(m, page);
            if (pdx_stats_get(&st, ix) != 0 ||
                !(st.works == SMALL || st.works == BIG))
                fresh_bad++;
        }
        pdx_close(ix);
    }
    atomic_store(&stop_swapping, 1);
    pthread_join(t, NULL);
    pdx_close(kept);

    printf("%ld exchanges during %d reads on each kind of handle; the kept "
           "handle saw the small index %ld times, the big one %ld\n",
           (long)atomic_load(&swaps), reads, sizes[0], sizes[1]);
    CHECK(atomic_load(&swaps) > 0);
    CHECK_INT(kept_bad, 0);  /* the handle opened once: whole answers */
    CHECK_INT(open_bad, 0);  /* opening never fails */
    CHECK_INT(fresh_bad, 0); /* handles opened afresh: whole answers */
    /* The kept handle follows the swaps: it saw both indexes. */
    CHECK(sizes[0] > 0 && sizes[1] > 0);

    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return check_done();
}
