/*
 * buf_file.c - read a whole descriptor or file into a mote_buf with a single
 * copy (kernel -> buffer). Hosted builds only.
 *
 * A regular file's size from fstat reserves the buffer once (size + 1, so
 * the read that reports end of file needs no extra growth), then read()
 * fills the buffer's tail directly. No temporary buffer exists, so peak
 * memory for an N-byte file is the buffer itself. Pipes, sockets and files
 * that grow while read fall back to doubling.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "mote/buf.h"

#define GROW_STEP 4096u
/* One read() call moves at most this much (Linux caps reads near 2 GiB). */
#define MAX_READ ((size_t)1 << 30)

/* Reserve for a regular file: what is left from the current offset. */
static mote_err reserve_for_file(mote_buf *b, int fd, const struct stat *st)
{
    if (st->st_size <= 0) return MOTE_OK;
    uintmax_t size = (uintmax_t)st->st_size;
    off_t pos = lseek(fd, 0, SEEK_CUR);
    if (pos > 0) size = (uintmax_t)pos >= size ? 0 : size - (uintmax_t)pos;
    if (size == 0) return MOTE_OK;
    if (size > SIZE_MAX) return MOTE_ERR_OVERFLOW;
    size_t n = (size_t)size;
    /* One spare byte so the end-of-file read has somewhere to point. A
     * capped buffer with exactly n free is fine too (see read loop). */
    if (n < SIZE_MAX) {
        mote_err e = mote_buf_reserve(b, n + 1);
        if (e == MOTE_OK) return MOTE_OK;
        if (e == MOTE_ERR_NOMEM) return e;
    }
    return mote_buf_reserve(b, n);
}

static ssize_t read_some(int fd, void *dst, size_t n)
{
    ssize_t r;
    do {
        r = read(fd, dst, n);
    } while (r < 0 && errno == EINTR);
    return r;
}

mote_err mote_buf_read_fd(mote_buf *b, int fd)
{
    if (!b) return MOTE_ERR_INVALID;
    struct stat st;
    if (fstat(fd, &st) != 0) return MOTE_ERR_IO;
    if (S_ISREG(st.st_mode)) {
        mote_err e = reserve_for_file(b, fd, &st);
        if (e != MOTE_OK) return e;
    }
    for (;;) {
        size_t avail;
        uint8_t *tail = mote_buf_tail(b, &avail);
        if (avail == 0) {
            mote_err e = mote_buf_reserve(b, GROW_STEP);
            /* Near the cap a smaller step may still fit. */
            if (e == MOTE_ERR_LIMIT && b->max > b->len) e = mote_buf_reserve(b, b->max - b->len);
            if (e == MOTE_ERR_LIMIT || e == MOTE_ERR_OVERFLOW) {
                /* Full at the cap: fine if the input ends exactly here.
                 * A probe byte that does arrive is lost with the error. */
                uint8_t probe;
                ssize_t r = read_some(fd, &probe, 1);
                if (r < 0) return MOTE_ERR_IO;
                return r == 0 ? MOTE_OK : e;
            }
            if (e != MOTE_OK) return e;
            tail = mote_buf_tail(b, &avail);
        }
        ssize_t r = read_some(fd, tail, avail < MAX_READ ? avail : MAX_READ);
        if (r < 0) return MOTE_ERR_IO;
        if (r == 0) return MOTE_OK;
        mote_buf_commit(b, (size_t)r);
    }
}

mote_err mote_buf_read_file(mote_buf *b, const char *path)
{
    if (!b || !path) return MOTE_ERR_INVALID;
    int fd;
    do {
        fd = open(path, O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return MOTE_ERR_IO;
    mote_err e = mote_buf_read_fd(b, fd);
    int saved = errno;
    (void)close(fd);
    errno = saved;
    return e;
}
