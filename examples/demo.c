/*
 * demo.c - the memory layer at work: read a file into one buffer taken from
 * a pool, which carves its buffers from an arena over a static block (and
 * grows through the C heap only if that block runs out), then print what the
 * arena and the pool did.
 *
 *   demo [FILE]      default: this program's source, else generated text
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mote/mote.h"

static uint8_t block[32 * 1024]; /* the arena's own memory: no heap needed */

/* Without a file, a few hundred lines of made-up telemetry. */
static mote_err generate(mote_buf *b)
{
    char line[96];
    for (int i = 0; i < 300; i++) {
        int n = snprintf(line, sizeof line, "cpu,host=node%d usage=%d.%d %d000000000\n",
                         i % 7, (i * 37) % 100, i % 10, 1700000000 + i);
        mote_err e = mote_buf_append(b, line, (size_t)n);
        if (e != MOTE_OK) return e;
    }
    return MOTE_OK;
}

int main(int argc, char **argv)
{
    mote_arena arena;
    mote_pool pool;
    mote_buf buf;
    if (mote_arena_init(&arena, block, sizeof block, mote_heap_alloc, NULL) != MOTE_OK ||
        mote_pool_init(&pool, &arena, 64 * 1024) != MOTE_OK || /* larger buffers bypass the pool */
        mote_buf_init_pool(&buf, &pool, 0) != MOTE_OK)
        return 2;

    if (argc > 2 || (argc == 2 && argv[1][0] == '-' && argv[1][1])) {
        /* --help, an option or a second file: the usage, as the other examples */
        const bool help = argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
        fputs("usage: demo [FILE]   (default: this program's source, else generated text)\n",
              help ? stdout : stderr);
        return help ? (fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2) : 2;
    }
    const char *source = argc > 1 ? argv[1] : NULL;
    mote_err e = MOTE_ERR_IO;
    if (source) {
        e = mote_buf_read_file(&buf, source);
    } else {
        static const char *const own[] = {"examples/demo.c", __FILE__};
        for (size_t i = 0; i < 2 && e != MOTE_OK; i++) e = mote_buf_read_file(&buf, source = own[i]);
        if (e != MOTE_OK) {
            mote_buf_clear(&buf);
            e = generate(&buf);
            source = "(generated text)";
        }
    }
    if (e != MOTE_OK) {
        fprintf(stderr, "demo: %s: %s\n", source, e == MOTE_ERR_IO ? strerror(errno) : mote_err_message(e));
        return 2; /* I/O, not a bad record */
    }

    /* Work on the content the way an agent would: each line copied into a
     * scratch buffer from the pool and given back, so the pool recycles. */
    size_t lines = 0, longest = 0;
    const uint8_t *p = buf.data, *end = buf.data + buf.len;
    while (p < end) {
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        uint8_t *scratch = mote_pool_get(&pool, len, NULL);
        if (scratch) {
            memcpy(scratch, p, len);
            if (mote_pool_put(&pool, scratch) != MOTE_OK) return 2;
        }
        if (len > longest) longest = len;
        lines++;
        p += len + (nl != NULL);
    }

    mote_arena_stats as;
    mote_pool_stats ps;
    mote_arena_get_stats(&arena, &as);
    mote_pool_get_stats(&pool, &ps);
    printf("read %s: %zu bytes, %zu lines (longest %zu bytes) in one %zu-byte buffer\n",
           source, buf.len, lines, longest, buf.cap);
    printf("arena: %zu of %zu bytes used, high water %zu, %zu chained blocks, %zu failed\n",
           as.used, as.capacity, as.high_water, as.blocks, as.failed);
    printf("pool:  %zu hits, %zu misses, %zu drops, %zu failures, %zu bytes outstanding\n",
           ps.hits, ps.misses, ps.drops, ps.failures, ps.outstanding);

    mote_buf_free(&buf);
    mote_arena_destroy(&arena);
    /* the report is the program's whole output: check that it arrived */
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
        fprintf(stderr, "demo: stdout: %s\n", strerror(errno ? errno : EIO));
        return 2;
    }
    return 0;
}
