/*
 * fatal.cc -- the process-wide handler for the one failure Xapian cannot
 * recover from: a write that fails inside a commit on a handle opened
 * with DB_DANGEROUS (shim.cc, NOSYNC_FLAGS) leaves the writer unusable,
 * and Xapian ends in std::terminate.  pdx_exit_on_fatal (paperdex.h)
 * installs the handler, which names the failure, removes a rebuild's
 * work directory (shim_fatal_work_dir) and exits with the caller's
 * status; shim_remove_tree is the removal both use.
 */
#include <xapian.h>

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <ftw.h>
#include <string>

#include "shim_db.hh"

/* pdx_exit_on_fatal: see paperdex.h.  The handler may run on any thread;
 * it only formats and writes, then ends the process without running
 * destructors or exit handlers (the state they would clean up is what
 * failed). */
namespace {
const char *fatal_prog = "paperdex";
int fatal_status = 1;
/* shim_fatal_work_dir's: a fixed buffer, so that the handler reads it
 * without allocating. */
char fatal_dir[4096];

[[noreturn]] void exit_on_fatal()
{
    int err = errno;
    std::string what;
    if (std::exception_ptr ep = std::current_exception()) {
        try {
            std::rethrow_exception(ep);
        } catch (const Xapian::Error &x) {
            what = x.get_description();
        } catch (const std::exception &x) {
            what = x.what();
        } catch (...) {
        }
    }
    if (what.empty())
        what = std::string("a write failed inside a commit (last system "
                           "error: ") + strerror(err) + ")";
    if (fatal_dir[0]) {
        /* A rebuild beside the index: the old one was never touched.
         * With --jobs, another worker thread may still be writing its
         * shard there, and a file it makes between the removal of a
         * directory's files and the directory itself keeps the
         * directory (seen once in CI): remove again until it is gone,
         * for up to a second (a thread cannot make files in a directory
         * that no longer exists). */
        for (int tries = 0; tries < 100; tries++) {
            shim_remove_tree(fatal_dir);
            struct stat st;
            if (lstat(fatal_dir, &st) != 0)
                break;
            usleep(10000);
        }
        fprintf(stderr, "%s: index I/O error: %s; Xapian could not recover "
                "from it, so the run stops here: the rebuild failed: the "
                "index is as it was (its work directory %s removed)\n",
                fatal_prog, what.c_str(), fatal_dir);
    } else {
        fprintf(stderr, "%s: index I/O error: %s; Xapian could not recover "
                "from it, so the run stops here: the index keeps its last "
                "commit\n", fatal_prog, what.c_str());
    }
    fflush(stderr);
    /* exit_group itself, not _exit(): a sanitizer build intercepts _exit
     * to check for leaks, and would report what the frames std::terminate
     * abandoned (Xapian's, mid-commit) still hold, then abort. */
    syscall(SYS_exit_group, fatal_status);
    _exit(fatal_status);
}
} // namespace

static int remove_entry(const char *path, const struct stat *, int flag,
                        struct FTW *)
{
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

extern "C" void shim_remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

extern "C" void shim_fatal_work_dir(const char *dir)
{
    size_t n = dir ? strlen(dir) : sizeof fatal_dir;
    if (n < sizeof fatal_dir)
        memcpy(fatal_dir, dir, n + 1);
    else
        fatal_dir[0] = '\0';
}

extern "C" void pdx_exit_on_fatal(const char *prog, int status)
{
    if (prog && *prog)
        fatal_prog = prog;
    fatal_status = status;
    std::set_terminate(exit_on_fatal);
}
