/*
 * serve_mhd.h -- libmicrohttpd, loaded when `paperdex serve` starts
 * (serve_mhd.c), not when the program does.
 *
 * Why.  Debian's libmicrohttpd is built with GnuTLS, which brings nine
 * more shared libraries (nettle, gmp, p11-kit, libtasn1, ...) and
 * initialises itself in a constructor.  Linked to the program, every
 * `paperdex search`, `show` or `index` would load and initialise them
 * for nothing: about a third of a short command's time.  So the program
 * is not linked to libmicrohttpd; `serve` loads it with dlopen() and
 * calls it through the table below, whose pointers have the types of the
 * header's own declarations (the compiler checks every call).
 */
#ifndef PDX_SERVE_MHD_H
#define PDX_SERVE_MHD_H

#include <stddef.h>

#include <microhttpd.h>

/* The functions of libmicrohttpd that the server calls, named as in the
 * header without their MHD_ prefix: mhd.start_daemon(...) is
 * MHD_start_daemon(...). */
struct serve_mhd {
    __typeof__(MHD_start_daemon) *start_daemon;
    __typeof__(MHD_stop_daemon) *stop_daemon;
    __typeof__(MHD_add_connection) *add_connection;
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_create_response_from_buffer_with_free_callback_cls)
        *create_response_from_buffer_with_free_callback_cls;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_destroy_response) *destroy_response;
    __typeof__(MHD_lookup_connection_value) *lookup_connection_value;
    __typeof__(MHD_get_connection_values) *get_connection_values;
    __typeof__(MHD_get_connection_values_n) *get_connection_values_n;
    __typeof__(MHD_get_connection_info) *get_connection_info;
    __typeof__(MHD_suspend_connection) *suspend_connection;
    __typeof__(MHD_resume_connection) *resume_connection;
};

/* Filled by serve_mhd_load(); all NULL before. */
extern struct serve_mhd mhd;

/* Load libmicrohttpd (the soname the program was built against) and
 * fill mhd.  0, or -1 with why in err (len bytes: the library or the
 * function that could not be found, and dlerror()'s words).  Loaded
 * once for the process and never unloaded; call it from one thread. */
int serve_mhd_load(char *err, size_t len);

#endif
