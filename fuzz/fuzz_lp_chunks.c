/*
 * fuzz_lp_chunks.c - the streaming decoder gives the same points and errors
 * (same positions) as the whole-input decoder, for any chunking: splits
 * between a backslash and the byte it escapes, inside quoted strings, between
 * CR and LF all arise from the chunk sizes. Views of stream points must lie
 * in the current chunk or the carry buffer.
 * Byte 0: options; byte 1: carry size; byte 2: seed of the chunk sizes.
 */
#include "lp_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3) return 0;
    mote_lp_config opt;
    opts_from(data[0], &opt);
    size_t carry_cap = 2 + (size_t)data[1] * 2; /* 2..512 */
    uint32_t seed = data[2];
    data += 3;
    size -= 3;
    /* The stream's limit is min(max_line, carry_cap - 1); make the whole
     * decoder use the same one. */
    if (opt.max_line == 0 || opt.max_line > carry_cap - 1) opt.max_line = carry_cap - 1;

    fbuf whole = {0}, part = {0};
    decode_whole(data, size, &opt, &whole);

    uint8_t *carry = malloc(carry_cap);
    if (!carry) abort();
    for (int round = 0; round < 3; round++) {
        part.n = 0;
        mote_lp_stream s;
        if (mote_lp_stream_init(&s, &opt, carry, carry_cap) != MOTE_OK) abort();
        size_t off = 0;
        const uint8_t *chunk = data;
        size_t chunk_len = 0;
        bool finished = false;
        mote_lp_tag tags[3];
        mote_lp_field fields[3];
        for (size_t guard = 0;; guard++) {
            if (guard > 4 * size + 16) abort();
            mote_lp_point pt;
            if (mote_lp_point_init(&pt, tags, 3, fields, 3) != MOTE_OK) abort();
            mote_lp_error err;
            mote_err rc = mote_lp_stream_next(&s, &pt, &err);
            if (rc == MOTE_OK) rc = mote_lp_point_decode(&pt, &opt, &err);
            if (rc == MOTE_ERR_NEED_MORE) {
                if (finished) break;
                if (off == size) {
                    if (mote_lp_stream_finish(&s) != MOTE_OK) abort();
                    finished = true;
                    continue;
                }
                /* round 0: 1-byte chunks; then random sizes */
                size_t k = round == 0 ? 1 : 1 + rnd(&seed) % (round == 1 ? 8 : 64);
                if (k > size - off) k = size - off;
                /* A chunk of its own heap block: reads past it are caught. */
                uint8_t *c = malloc(k);
                if (!c) abort();
                memcpy(c, data + off, k);
                if (chunk != data) free((void *)chunk);
                chunk = c;
                chunk_len = k;
                if (mote_lp_stream_feed(&s, c, k) != MOTE_OK) abort();
                off += k;
                continue;
            }
            if (rc == MOTE_OK) {
                bool in_chunk = pt.measurement.ptr >= chunk && pt.measurement.ptr < chunk + chunk_len;
                if (in_chunk) fb_point(&part, &pt, chunk, chunk + chunk_len);
                else fb_point(&part, &pt, carry, carry + carry_cap);
            } else {
                fb_error(&part, rc, &err, size);
            }
        }
        if (chunk != data) free((void *)chunk);
        if (part.n != whole.n || (part.n && memcmp(part.p, whole.p, part.n) != 0)) abort();
        if (size > 4096) break; /* bounded work */
    }
    free(carry);
    free(whole.p);
    free(part.p);
    return 0;
}
