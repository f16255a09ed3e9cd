/*
 * version.c -- run-time version and error-code names.  PDX_VERSION in the
 * header is what a program was compiled against; pdx_version() is what it
 * runs with.  A mismatch is the caller's to detect, as with zlib.
 */
#include "paperdex.h"

const char *pdx_version(void) { return PDX_VERSION; }

unsigned pdx_vernum(void) { return PDX_VERNUM; }

const char *pdx_strerror(int code)
{
    switch (code) {
    case PDX_OK: return "ok";
    case PDX_ERROR: return "error";
    case PDX_ENOTFOUND: return "not found";
    case PDX_ELOCKED: return "locked";
    case PDX_ECORRUPT: return "corrupt index";
    case PDX_EQUERY: return "query syntax error";
    case PDX_EINVAL: return "invalid argument";
    case PDX_ENOMEM: return "out of memory";
    case PDX_EVERSION: return "version mismatch";
    case PDX_EIO: return "I/O error";
    case PDX_ENOTINDEX: return "not a paperdex index";
    case PDX_ITEROVER: return "end of iteration";
    default: return "unknown error";
    }
}
