/*
 * replay.c - run every file under the given files/directories through
 * LLVMFuzzerTestOneInput, without libFuzzer. Each input is copied into a heap
 * block of exactly its size so sanitizers catch reads past the end. Used by
 * 'meson test --suite fuzz-regress' with gcc builds.
 *
 *   replay [--own DIR] PATH...
 *
 * --own DIR: the target's own seeds, which must hold at least one file (every
 * target replays every corpus, so an emptied one would go unnoticed).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long files_run;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *all = malloc(cap);
    if (!all) { fclose(f); return 1; }
    size_t n;
    while ((n = fread(all + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *grown = realloc(all, cap * 2);
            if (!grown) { free(all); fclose(f); return 1; }
            all = grown;
            cap *= 2;
        }
    }
    fclose(f);
    /* Exact-size copy: the byte after the input is outside the allocation. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) { free(all); return 1; }
    memcpy(exact, all, len);
    free(all);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    files_run++;
    return 0;
}

/* A path that opendir() refuses with ENOTDIR is a file. (Not stat(): under
 * clang 14's MemorySanitizer with bookworm's glibc 2.36 the struct stat that
 * stat() fills reads as uninitialised, and replay.c runs under MSan in CI.) */
static int run_path(const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        if (errno == ENOTDIR) return run_file(path);
        perror(path);
        return 1;
    }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        size_t need = strlen(path) + strlen(e->d_name) + 2;
        char *child = malloc(need);
        if (!child) { rc = 1; break; }
        snprintf(child, need, "%s/%s", path, e->d_name);
        rc |= run_path(child);
        free(child);
    }
    closedir(d);
    return rc;
}

/* Files (not starting with '.') directly in dir, or -1 if it cannot be read. */
static long count_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    long n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    int rc = 0, i = 1;
    if (argc > 2 && !strcmp(argv[1], "--own")) {
        if (count_files(argv[2]) <= 0) {
            fprintf(stderr, "replay: %s holds no seed: this target's own corpus is gone\n", argv[2]);
            rc = 1;
        }
        i = 3;
    }
    for (; i < argc; i++) rc |= run_path(argv[i]);
    /* The empty input is always worth one run. */
    LLVMFuzzerTestOneInput((const uint8_t *)"", 0);
    printf("replayed %lu files\n", files_run);
    /* No corpus file found is a broken test (a moved or emptied corpus
     * directory), not a pass. */
    if (files_run == 0) {
        fprintf(stderr, "replay: no corpus files found\n");
        return 1;
    }
    return rc;
}
