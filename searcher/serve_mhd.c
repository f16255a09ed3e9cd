/*
 * serve_mhd.c -- libmicrohttpd loaded with dlopen() when `paperdex serve`
 * starts (serve_mhd.h says why).  PDX_MHD_SONAME, the soname of the
 * library the build found (libmicrohttpd.so.12 on Debian 12), comes from
 * CMakeLists.txt, which reads it off the library itself.
 */
#include "serve_mhd.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifndef PDX_MHD_SONAME
#error "PDX_MHD_SONAME (libmicrohttpd's soname) is set by CMakeLists.txt"
#endif

struct serve_mhd mhd;

int serve_mhd_load(char *err, size_t len)
{
    if (mhd.start_daemon)
        return 0;
    /* RTLD_NOW: a missing function is found here, not mid-request. */
    void *lib = dlopen(PDX_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(err, len, "cannot load %s (Debian's libmicrohttpd12): %s",
                 PDX_MHD_SONAME, dlerror());
        return -1;
    }
    struct serve_mhd m;
    /* Each name with the type of its slot: dlsym()'s void * converted
     * through memcpy, as POSIX allows for a function's address. */
#define LOAD(f)                                                             \
    do {                                                                    \
        void *p = dlsym(lib, "MHD_" #f);                                    \
        if (!p) {                                                           \
            snprintf(err, len, "%s has no MHD_%s: %s", PDX_MHD_SONAME, #f,  \
                     dlerror());                                            \
            dlclose(lib);                                                   \
            return -1;                                                      \
        }                                                                   \
        memcpy(&m.f, &p, sizeof p);                                         \
    } while (0)
    LOAD(start_daemon);
    LOAD(stop_daemon);
    LOAD(add_connection);
    LOAD(create_response_from_buffer);
    LOAD(create_response_from_buffer_with_free_callback_cls);
    LOAD(add_response_header);
    LOAD(queue_response);
    LOAD(destroy_response);
    LOAD(lookup_connection_value);
    LOAD(get_connection_values);
    LOAD(get_connection_values_n);
    LOAD(get_connection_info);
    LOAD(suspend_connection);
    LOAD(resume_connection);
#undef LOAD
    mhd = m;
    return 0;
}
