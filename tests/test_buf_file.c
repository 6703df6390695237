/* test_buf_file.c - mote_buf_read_fd / mote_buf_read_file (hosted). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "mote/buf.h"
#include "counting_alloc.h"

#define PAGE 4096u

static uint8_t pattern(size_t i) { return (uint8_t)((i * 2654435761u) >> 13); }

/* Write an n-byte pattern file to a fresh temporary path (static storage). */
static const char *make_file(size_t n)
{
    static char path[64];
    strcpy(path, "/tmp/mote_test_buf_file_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    uint8_t chunk[4096];
    for (size_t off = 0; off < n;) {
        size_t k = n - off < sizeof chunk ? n - off : sizeof chunk;
        for (size_t i = 0; i < k; i++) chunk[i] = pattern(off + i);
        assert_int_equal(write(fd, chunk, k), (ssize_t)k);
        off += k;
    }
    close(fd);
    return path;
}

static void check_pattern(const uint8_t *p, size_t n, size_t from)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != pattern(from + i)) fail_msg("byte %zu differs", i);
}

/* A regular file arrives whole, and the allocator never holds more than
 * N + one page: one exact reservation, no temporary, no regrowth. */
static void regular_file_single_reservation(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 100, 4095, 4096, 4097, 100000, 3 * 1024 * 1024 + 17};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        const char *path = make_file(n);
        counting_alloc c;
        counting_init(&c);
        mote_arena a;
        assert_int_equal(mote_arena_init(&a, NULL, 0, counting_fn, &c), MOTE_OK);
        mote_arena_set_min_block(&a, 64);
        mote_buf b;
        assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
        assert_int_equal(mote_buf_read_file(&b, path), MOTE_OK);
        assert_int_equal(b.len, n);
        check_pattern(b.data, n, 0);
        assert_true(c.peak <= n + PAGE);
        assert_int_equal(c.calls, 1);
        mote_arena_destroy(&a);
        unlink(path);
    }
}

/* Same property with a pool whose max is below the file size: the buffer
 * is one oversize allocation of N + 1 bytes (plus a header). */
static void regular_file_through_pool(void **state)
{
    (void)state;
    const size_t n = 200000;
    const char *path = make_file(n);
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, NULL, 0, counting_fn, &c), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 4096), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_pool(&b, &p, 0), MOTE_OK);
    assert_int_equal(mote_buf_read_file(&b, path), MOTE_OK);
    assert_int_equal(b.len, n);
    check_pattern(b.data, n, 0);
    assert_true(c.peak <= n + PAGE);
    mote_buf_free(&b);
    assert_int_equal(c.live, 0);
    mote_arena_destroy(&a);
    unlink(path);
}

/* An empty file: OK, nothing appended, nothing allocated. */
static void empty_file(void **state)
{
    (void)state;
    const char *path = make_file(0);
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, NULL, 0, counting_fn, &c), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    assert_int_equal(mote_buf_read_file(&b, path), MOTE_OK);
    assert_int_equal(b.len, 0);
    /* The end-of-file probe needs no storage: nothing allocated. */
    assert_int_equal(c.calls, 0);
    assert_null(b.data);
    mote_arena_destroy(&a);
    unlink(path);
}

/* Reading appends after existing content and starts at the fd's offset. */
static void appends_from_current_offset(void **state)
{
    (void)state;
    const size_t n = 10000;
    const char *path = make_file(n);
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, NULL, 0, counting_fn, &c), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "head", 4), MOTE_OK);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(lseek(fd, 3000, SEEK_SET), 3000);
    assert_int_equal(mote_buf_read_fd(&b, fd), MOTE_OK);
    close(fd);
    assert_int_equal(b.len, 4 + n - 3000);
    assert_memory_equal(b.data, "head", 4);
    check_pattern(b.data + 4, n - 3000, 3000);
    mote_arena_destroy(&a);
    unlink(path);
}

/* A pipe (size unknown) is read completely by doubling growth; a writer
 * child makes it larger than the pipe's kernel buffer. */
static void pipe_read_completely(void **state)
{
    (void)state;
    const size_t n = 1000003;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        uint8_t chunk[777];
        for (size_t off = 0; off < n;) {
            size_t k = n - off < sizeof chunk ? n - off : sizeof chunk;
            for (size_t i = 0; i < k; i++) chunk[i] = pattern(off + i);
            if (write(fds[1], chunk, k) != (ssize_t)k) _exit(1);
            off += k;
        }
        _exit(0);
    }
    close(fds[1]);
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, NULL, 0, counting_fn, &c), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    assert_int_equal(mote_buf_read_fd(&b, fds[0]), MOTE_OK);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(b.len, n);
    check_pattern(b.data, n, 0);
    assert_true(c.calls <= 24); /* doubling: logarithmic number of blocks */
    mote_arena_destroy(&a);
}

/* A capped buffer: a file of exactly the cap is OK; a larger one is LIMIT
 * with the first 'cap' bytes intact. */
static void cap_applies_to_files(void **state)
{
    (void)state;
    static uint8_t mem[1 << 16];
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, mem, sizeof mem, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    const char *path = make_file(5000);
    mote_buf b;
    assert_int_equal(mote_buf_init_pool(&b, &p, 5000), MOTE_OK);
    assert_int_equal(mote_buf_read_file(&b, path), MOTE_OK);
    assert_int_equal(b.len, 5000);
    check_pattern(b.data, 5000, 0);
    mote_buf_free(&b);
    assert_int_equal(mote_buf_init_pool(&b, &p, 3000), MOTE_OK);
    assert_int_equal(mote_buf_read_file(&b, path), MOTE_ERR_LIMIT);
    assert_int_equal(b.len, 0); /* the size is known up front: nothing read */
    mote_buf_free(&b);
    unlink(path);
    /* A pipe has no size: the cap is reached while reading. */
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    uint8_t data[4000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = pattern(i);
    assert_int_equal(write(fds[1], data, sizeof data), (ssize_t)sizeof data);
    close(fds[1]);
    assert_int_equal(mote_buf_init_pool(&b, &p, 3000), MOTE_OK);
    assert_int_equal(mote_buf_read_fd(&b, fds[0]), MOTE_ERR_LIMIT);
    assert_int_equal(b.len, 3000);
    check_pattern(b.data, 3000, 0);
    close(fds[0]);
    mote_buf_free(&b);
    /* Fixed buffer exactly the size of the input: OK. */
    uint8_t fixed[4000];
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], data, sizeof data), (ssize_t)sizeof data);
    close(fds[1]);
    assert_int_equal(mote_buf_init_fixed(&b, fixed, sizeof fixed), MOTE_OK);
    assert_int_equal(mote_buf_read_fd(&b, fds[0]), MOTE_OK);
    assert_int_equal(b.len, 4000);
    close(fds[0]);
    /* One byte more than fits: LIMIT, the bytes that fit are kept. */
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], data, sizeof data), (ssize_t)sizeof data);
    close(fds[1]);
    assert_int_equal(mote_buf_init_fixed(&b, fixed, sizeof fixed - 1), MOTE_OK);
    assert_int_equal(mote_buf_read_fd(&b, fds[0]), MOTE_ERR_LIMIT);
    assert_int_equal(b.len, 3999);
    check_pattern(b.data, 3999, 0);
    close(fds[0]);
    mote_arena_destroy(&a);
}

/* Errors: missing file and bad descriptor are IO with errno set; NULL
 * arguments are INVALID; the buffer is unchanged. */
static void errors_reported(void **state)
{
    (void)state;
    uint8_t mem[16];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "keep", 4), MOTE_OK);
    errno = 0;
    assert_int_equal(mote_buf_read_file(&b, "/nonexistent/mote/file"), MOTE_ERR_IO);
    assert_int_equal(errno, ENOENT);
    errno = 0;
    assert_int_equal(mote_buf_read_fd(&b, -1), MOTE_ERR_IO);
    assert_int_equal(errno, EBADF);
    assert_int_equal(mote_buf_read_file(&b, NULL), MOTE_ERR_INVALID);
    assert_int_equal(mote_buf_read_file(NULL, "/dev/null"), MOTE_ERR_INVALID);
    assert_int_equal(mote_buf_read_fd(NULL, 0), MOTE_ERR_INVALID);
    /* A directory opens but cannot be read. */
    assert_int_equal(mote_buf_read_file(&b, "/"), MOTE_ERR_IO);
    assert_int_equal(b.len, 4);
    assert_memory_equal(b.data, "keep", 4);
}

/* A character device without a size (/dev/null) reads as empty. */
static void device_without_size_reads_empty(void **state)
{
    (void)state;
    static uint8_t mem[1 << 14];
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, mem, sizeof mem, NULL, NULL), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    /* /dev/null is a character device: no size, immediate EOF. */
    assert_int_equal(mote_buf_read_file(&b, "/dev/null"), MOTE_OK);
    assert_int_equal(b.len, 0);
    mote_arena_destroy(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regular_file_single_reservation),
        cmocka_unit_test(regular_file_through_pool),
        cmocka_unit_test(empty_file),
        cmocka_unit_test(appends_from_current_offset),
        cmocka_unit_test(pipe_read_completely),
        cmocka_unit_test(cap_applies_to_files),
        cmocka_unit_test(errors_reported),
        cmocka_unit_test(device_without_size_reads_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
