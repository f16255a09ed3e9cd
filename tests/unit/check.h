/*
 * check.h -- the smallest test harness that can fail: CHECK() records a
 * failure with file:line and goes on, and check_done() prints the closing
 * line "N passed, N failed" and gives the exit status.
 */
#ifndef PDX_CHECK_H
#define PDX_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_pass, check_fail;

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (cond)                                                          \
            check_pass++;                                                  \
        else {                                                             \
            check_fail++;                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__,         \
                    __LINE__, #cond);                                      \
        }                                                                  \
    } while (0)

#define CHECK_STR(got, want)                                               \
    do {                                                                   \
        const char *g_ = (got), *w_ = (want);                              \
        if (g_ && w_ && !strcmp(g_, w_))                                   \
            check_pass++;                                                  \
        else {                                                             \
            check_fail++;                                                  \
            fprintf(stderr, "%s:%d: %s is \"%s\", want \"%s\"\n",          \
                    __FILE__, __LINE__, #got, g_ ? g_ : "(null)",          \
                    w_ ? w_ : "(null)");                                   \
        }                                                                  \
    } while (0)

#define CHECK_INT(got, want)                                               \
    do {                                                                   \
        long long g_ = (long long)(got), w_ = (long long)(want);           \
        if (g_ == w_)                                                      \
            check_pass++;                                                  \
        else {                                                             \
            check_fail++;                                                  \
            fprintf(stderr, "%s:%d: %s is %lld, want %lld\n", __FILE__,    \
                    __LINE__, #got, g_, w_);                               \
        }                                                                  \
    } while (0)

#ifdef __cplusplus
#include <dirent.h>
#include <stdlib.h>

#include <algorithm>
#include <string>
#include <vector>
/* C++ tests: the work directory a test is given, emptied (removed and
 * made again); false, with the reason printed, if it cannot be. */
static inline bool check_work_dir(const std::string &dir)
{
    if (system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str()) != 0) {
        fprintf(stderr, "cannot make %s\n", dir.c_str());
        return false;
    }
    return true;
}

/* C++ tests: the files of a directory (corpus/samples), sorted: a fixed
 * order. */
static inline std::vector<std::string> check_files_in(const std::string &dir)
{
    std::vector<std::string> v;
    DIR *d = opendir(dir.c_str());
    if (!d)
        return v;
    while (struct dirent *de = readdir(d))
        if (de->d_name[0] != '.')
            v.push_back(dir + "/" + de->d_name);
    closedir(d);
    std::sort(v.begin(), v.end());
    return v;
}

/* C++ tests: a check whose failure prints a message built at run time. */
static inline void check(bool ok, const std::string &what)
{
    if (ok) {
        check_pass++;
    } else {
        check_fail++;
        fprintf(stderr, "CHECK failed: %s\n", what.c_str());
    }
}
#endif

#ifndef __cplusplus
#include <stdlib.h>

/* A scratch directory for a test's files: check_scratch_init("record")
 * makes /tmp/pdx-test-record-XXXXXX (0, or -1 with the reason printed),
 * check_path() names a file in it (valid until the next call),
 * check_put_file() writes one (a failure is a failed check), and
 * check_scratch_done() removes the directory and all in it. */
static char check_scratch_dir[128];

static inline int check_scratch_init(const char *test)
{
    snprintf(check_scratch_dir, sizeof check_scratch_dir,
             "/tmp/pdx-test-%s-XXXXXX", test);
    if (!mkdtemp(check_scratch_dir)) {
        perror("mkdtemp");
        return -1;
    }
    return 0;
}

static inline const char *check_path(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", check_scratch_dir, name);
    return p;
}

static inline void check_put_file(const char *name, const void *data,
                                  size_t n)
{
    FILE *f = fopen(check_path(name), "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(data, 1, n, f) == n);
        fclose(f);
    }
}

static inline void check_scratch_done(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", check_scratch_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", check_scratch_dir);
}

#ifdef PAPERDEX_H
/* Puts an invented work with one author ("A. Author") and the given
 * year into ix: pdx_put's code. */
static inline int check_put_work(pdx_index *ix, const char *id,
                                 const char *title, const char *abstract,
                                 int year)
{
    const char *authors[] = {"A. Author"};
    pdx_work w = PDX_WORK_INIT;
    w.id = id;
    w.title = title;
    w.abstract = abstract;
    w.authors = authors;
    w.n_authors = 1;
    w.year = year;
    return pdx_put(ix, &w);
}

/* The end of a test's build of the index at path: commits when rc is 0,
 * prints the error if any, closes ix; the build's code. */
static inline int check_build_done(pdx_index *ix, const char *path, int rc)
{
    if (rc == 0)
        rc = pdx_commit(ix);
    if (rc)
        fprintf(stderr, "%s: %s\n", path, pdx_errmsg(ix));
    pdx_close(ix);
    return rc;
}
#endif
#endif

static inline int check_done(void)
{
    printf("%d passed, %d failed\n", check_pass, check_fail);
    return check_fail ? 1 : (check_pass ? 0 : 1);
}

#endif
