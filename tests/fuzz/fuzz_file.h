/*
 * fuzz_file.h -- the fuzzer's bytes as a file, for targets whose parser
 * opens its input by name (the record readers, the batch query reader).
 */
#ifndef PDX_FUZZ_FILE_H
#define PDX_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

/* Write data to an anonymous memory file and name it in path
 * (/proc/self/fd/N).  The descriptor, to close when done, or -1: the
 * input is then skipped. */
static inline int fuzz_file(const uint8_t *data, size_t size, char path[64])
{
    int fd = memfd_create("fuzz", 0);
    if (fd < 0)
        return -1;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return -1;
    }
    snprintf(path, 64, "/proc/self/fd/%d", fd);
    return fd;
}

#endif
