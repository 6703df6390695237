/*
 * buf_file.c - read a whole descriptor or file into a mote_buf with a single
 * copy (kernel -> buffer). Hosted builds only.
 *
 * A regular file's size from fstat reserves the buffer once, then read()
 * fills the buffer's tail directly. No temporary buffer exists, so peak
 * memory for an N-byte file is the buffer itself. Pipes, sockets and files
 * that grow while read fall back to doubling. Before any growth a one-byte
 * probe read checks for end of input, so a full buffer is never grown just
 * to learn that nothing more comes.
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
    /* Exactly the rest of the file: end of file is then found by the
     * one-byte probe in the read loop, which needs no storage. */
    return mote_buf_reserve(b, (size_t)size);
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
            /* Full (or storage-less): before growing, ask whether anything
             * is left. The usual answer at the end of a regular file is
             * "no", and then nothing was allocated for nothing: an empty
             * file costs no memory, a buffer exactly at its cap is fine. */
            uint8_t probe;
            ssize_t r = read_some(fd, &probe, 1);
            if (r < 0) return MOTE_ERR_IO;
            if (r == 0) return MOTE_OK;
            mote_err e = mote_buf_reserve(b, GROW_STEP);
            /* Near the cap a smaller step may still fit. */
            if (e == MOTE_ERR_LIMIT && b->max > b->len) e = mote_buf_reserve(b, b->max - b->len);
            if (e != MOTE_OK) return e; /* the probe byte is lost with the error */
            e = mote_buf_push(b, probe); /* room was just reserved */
            if (e != MOTE_OK) return e;
            continue;
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
