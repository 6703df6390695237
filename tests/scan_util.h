/*
 * scan_util.h - test helper shared by the scan unit tests: run the scanner
 * over a whole input in chunks of a given size and write a transcript, one
 * line per token or error, so that chunkings can be compared as strings.
 */
#ifndef SCAN_UTIL_H
#define SCAN_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mote/scan.h"

/* The scanner a transcript is made with: its functions, and what runs
 * between init and the first feed (NULL: nothing). scan_portable below
 * names the functions of the portable copy of scan.c
 * (tests/copies/meson.build) where the includer links it and included its
 * header first. */
typedef struct scan_impl {
    mote_err (*init)(mote_scanner *, const mote_scan_config *, mote_buf *);
    mote_err (*feed)(mote_scanner *, const void *, size_t);
    mote_err (*finish)(mote_scanner *);
    mote_err (*next)(mote_scanner *, mote_scan_token *);
    void (*get_stats)(const mote_scanner *, mote_scan_stats *);
    void (*after_init)(mote_scanner *);
} scan_impl;

#define SCAN_IMPL(prefix, after_init)                                                              \
    {prefix##mote_scan_init, prefix##mote_scan_feed, prefix##mote_scan_finish, prefix##mote_scan_next, \
     prefix##mote_scan_get_stats, after_init}

__attribute__((unused)) static const scan_impl scan_lib = SCAN_IMPL(, NULL);
#if !MOTE_SMALL
/* src/scan.c, for tests: the block path without AVX2 (SSE2 or NEON) */
void mote__scan_no_avx2(mote_scanner *sc);
__attribute__((unused)) static const scan_impl scan_lib_no_avx2 = SCAN_IMPL(, mote__scan_no_avx2);
#endif
#ifdef MOTE_COPY_PORTABLE_SCAN_H
/* scan.c again without SIMD (its table classifier), where the includer
 * links that copy and included its header first */
__attribute__((unused)) static const scan_impl scan_portable = SCAN_IMPL(portable_, NULL);
#endif
#ifdef MOTE_COPY_SMALL_SCAN_H
/* scan.c again as small builds have it: the grammar alone, none of the
 * speed builds' paths (the same condition: the includer links the copy) */
__attribute__((unused)) static const scan_impl scan_small = SCAN_IMPL(small_, NULL);
#endif

typedef struct transcript {
    char *s;
    size_t len, cap;
    mote_scan_stats stats;
} transcript;

static void tr_add(transcript *t, const char *p, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t nc = (t->cap ? t->cap * 2 : 256);
        while (nc < t->len + n + 1) nc *= 2;
        t->s = realloc(t->s, nc);
        if (!t->s) abort();
        t->cap = nc;
    }
    memcpy(t->s + t->len, p, n);
    t->len += n;
    t->s[t->len] = 0;
}

/* Token lines: "L:C@O|text|" (+ "+" if CONTINUES, "$" if not terminated,
 * "r" if a "\r" was removed, then the kind: "C" command, "D" COPY data, "E"
 * COPY end, "M" comment);
 * error lines: "!NAME@L:C@O". Each followed by '\n'. Non-printing bytes of
 * text are written as \xHH. */
/* Set: token lines also carry "e" when the token holds escapes. */
static int tr_show_escapes;

static void tr_token(transcript *t, mote_err e, const mote_scan_token *tok)
{
    char head[128];
    if (e != MOTE_OK) {
        snprintf(head, sizeof head, "!%s@%llu:%llu@%llu\n", mote_err_name((int)e),
                 (unsigned long long)tok->pos.line, (unsigned long long)tok->pos.column,
                 (unsigned long long)tok->pos.offset);
        tr_add(t, head, strlen(head));
        return;
    }
    static const char *const kinds[] = {"", "C", "D", "E", "M"};
    snprintf(head, sizeof head, "%llu:%llu@%llu%s%s%s%s%s|", (unsigned long long)tok->pos.line,
             (unsigned long long)tok->pos.column, (unsigned long long)tok->pos.offset,
             (tok->flags & MOTE_SCAN_TOK_CONTINUES) ? "+" : "",
             (tok->flags & (MOTE_SCAN_TOK_DELIM | MOTE_SCAN_TOK_CONTINUES)) ? "" : "$",
             (tr_show_escapes && (tok->flags & MOTE_SCAN_TOK_ESCAPES)) ? "e" : "",
             (tok->flags & MOTE_SCAN_TOK_CR) ? "r" : "", kinds[tok->kind <= 4 ? tok->kind : 0]);
    tr_add(t, head, strlen(head));
    for (size_t i = 0; i < tok->text.len; i++) {
        unsigned char c = tok->text.ptr[i];
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            tr_add(t, (const char *)&c, 1);
        } else {
            char x[8];
            snprintf(x, sizeof x, "\\x%02x", c);
            tr_add(t, x, 4);
        }
    }
    tr_add(t, "|\n", 2);
}

/* Scan in[0..n) with cfg in chunks of `chunk` bytes (each chunk copied into
 * its own exact-size heap block, freed after NEED_MORE, so a view that
 * outlives its chunk is caught by ASan). Carry: a fixed buffer of carry_cap
 * bytes (0: in + 64). */
static transcript scan_chunks_with(const scan_impl *im, const mote_scan_config *cfg, const void *in,
                                   size_t n, size_t chunk, uint32_t seed, size_t carry_cap)
{
    transcript t = {0};
    tr_add(&t, "", 0);
    if (carry_cap == 0) carry_cap = n + 64;
    uint8_t *mem = malloc(carry_cap);
    mote_buf buf;
    if (mote_buf_init_fixed(&buf, mem, carry_cap) != MOTE_OK) abort(); /* malloc failed */
    mote_scanner sc;
    mote_err e = im->init(&sc, cfg, &buf);
    if (e != MOTE_OK) {
        tr_add(&t, "INIT\n", 5);
        free(mem);
        return t;
    }
    if (im->after_init) im->after_init(&sc);
    const uint8_t *p = in;
    size_t off = 0;
    mote_scan_token tok;
    for (;;) {
        size_t want = chunk;
        if (seed) { /* varying chunk sizes, mostly small */
            seed = seed * 1103515245u + 12345u;
            want = (seed >> 16) % 8 == 0 ? 1 + (seed >> 8) % 300 : 1 + (seed >> 16) % 9;
        }
        size_t k = n - off < want ? n - off : want;
        uint8_t *copy = NULL;
        if (k) {
            copy = malloc(k);
            memcpy(copy, p + off, k);
            if (im->feed(&sc, copy, k) != MOTE_OK) abort();
            off += k;
        } else {
            if (im->finish(&sc) != MOTE_OK) abort();
        }
        while ((e = im->next(&sc, &tok)) != MOTE_ERR_NEED_MORE) tr_token(&t, e, &tok);
        free(copy);
        if (!k) break;
    }
    im->get_stats(&sc, &t.stats);
    free(mem);
    return t;
}

static transcript scan_chunks(const mote_scan_config *cfg, const void *in, size_t n, size_t chunk,
                              uint32_t seed, size_t carry_cap)
{
    return scan_chunks_with(&scan_lib, cfg, in, n, chunk, seed, carry_cap);
}

static transcript scan_all(const mote_scan_config *cfg, const void *in, size_t n, size_t chunk,
                           size_t carry_cap)
{
    return scan_chunks(cfg, in, n, chunk, 0, carry_cap);
}

/* The scanners this process has, k modulo their count: 0 the library as
 * built (AVX2 where the CPU has it), then its block path without AVX2
 * (SSE2, NEON) and, where linked, the portable copy's table classifier and
 * the small copy's grammar alone. */
static const scan_impl *scan_variant(size_t k, const char **name)
{
    static const struct {
        const char *name;
        const scan_impl *im;
    } variants[] = {
        {"library", &scan_lib},
#if !MOTE_SMALL
        {"no avx2", &scan_lib_no_avx2},
#endif
#ifdef MOTE_COPY_PORTABLE_SCAN_H
        {"portable", &scan_portable},
#endif
#ifdef MOTE_COPY_SMALL_SCAN_H
        {"grammar alone (small build)", &scan_small},
#endif
    };
    const size_t v = k % (sizeof variants / sizeof variants[0]);
    if (name) *name = variants[v].name;
    return variants[v].im;
}

/* The whole input through every scanner but the library: NULL if each
 * transcript (tokens, positions, flags, bytes examined) equals want's, else
 * the name of the first that differs. */
__attribute__((unused)) static const char *scan_variants_differ(const mote_scan_config *cfg,
                                                                const void *in, size_t n,
                                                                const transcript *want)
{
    const char *name;
    const scan_impl *im;
    for (size_t k = 1; (im = scan_variant(k, &name)) != &scan_lib; k++) {
        transcript t = scan_chunks_with(im, cfg, in, n, n ? n : 1, 0, 0);
        const bool same = strcmp(t.s, want->s) == 0 && t.stats.bytes_examined == want->stats.bytes_examined;
        free(t.s);
        if (!same) return name;
    }
    return NULL;
}

#endif
