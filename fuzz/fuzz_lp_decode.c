/*
 * fuzz_lp_decode.c - whole-input decoding of any bytes. Properties:
 *   - every view lies inside the input; unescaping never makes a view longer
 *     (and an escaped view always shorter); arrays and iteration agree;
 *   - every error has a known code, a message, and a position inside the
 *     input (offset, line >= 1, column >= 1, at or after its line's start);
 *   - decoding is deterministic (two runs give the same results);
 *   - converting a tokenized point's values and time one by one succeeds
 *     exactly when mote_lp_point_decode does, and its errors lie in the line.
 * Byte 0 chooses the options; the rest is the input.
 */
#include "lp_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    mote_lp_options opt;
    opts_from(data[0], &opt);
    data++;
    size--;

    fbuf a = {0}, b = {0};
    decode_whole(data, size, &opt, &a);
    decode_whole(data, size, &opt, &b);
    if (a.n != b.n || (a.n && memcmp(a.p, b.p, a.n) != 0)) abort();

    /* Tokenize, then decode: converting the values and time one by one
     * succeeds exactly when mote_lp_point_decode does, and a decode error
     * lies inside its line. */
    mote_lp_decoder tok;
    mote_lp_decoder_init(&tok, data, size, &opt);
    for (;;) {
        mote_lp_point pt;
        mote_lp_error e;
        mote_lp_point_init(&pt, NULL, 0, NULL, 0);
        mote_err r = mote_lp_next(&tok, &pt, &e);
        if (r == MOTE_ERR_NEED_MORE) break;
        if (r != MOTE_OK) continue;
        mote_lp_iter it;
        mote_lp_field f;
        bool all_ok = true;
        mote_lp_fields_begin(&pt, &it);
        while (mote_lp_fields_next(&it, &f)) {
            if (mote_lp_field_decode(&f) != MOTE_OK) all_ok = false;
        }
        if (mote_lp_point_decode_time(&pt, opt.precision, opt.default_time) != MOTE_OK)
            all_ok = false;
        int64_t t = pt.time;
        r = mote_lp_point_decode(&pt, &opt, &e);
        if ((r == MOTE_OK) != all_ok) abort();
        if (r == MOTE_OK && pt.time != t) abort();
        if (r != MOTE_OK) {
            fbuf tmp = {0};
            fb_error(&tmp, r, &e, size);
            free(tmp.p);
            if (e.pos.offset < pt.offset || e.pos.offset > pt.offset + pt.text.len) abort();
        }
    }
    free(a.p);
    free(b.p);
    return 0;
}
