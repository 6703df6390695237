/*
 * fuzz_lp_roundtrip.c - every decoded point can be written, and decoding what
 * was written gives the same point: measurement, tags, fields (types and
 * values bit for bit, strings byte for byte) and time.
 * Byte 0: options (precision and limits); the rest is the input.
 */
#include "lp_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t *unesc(const mote_lp_text *t, size_t *n)
{
    uint8_t *p = malloc(t->len + 1);
    if (!p || mote_lp_unescape(t, p, t->len, n) != MOTE_OK) abort();
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    mote_lp_config opt;
    opts_from(data[0], &opt);
    opt.precision = MOTE_LP_NS; /* the writer writes ns exactly */
    opt.default_time = 0;
    data++;
    size--;
    mote_lp_decoder d;
    if (mote_lp_decoder_init(&d, data, size, &opt) != MOTE_OK) abort();
    size_t cap = 2 * size + 64;
    uint8_t *out = malloc(cap);
    if (!out) abort();
    for (;;) {
        mote_lp_point pt;
        if (mote_lp_point_init(&pt, NULL, 0, NULL, 0) != MOTE_OK) abort();
        mote_err rc = mote_lp_next(&d, &pt, NULL);
        if (rc == MOTE_ERR_NEED_MORE) break;
        if (rc == MOTE_OK) rc = mote_lp_point_decode(&pt, &opt, NULL);
        if (rc != MOTE_OK) continue;

        mote_lp_writer w;
        if (mote_lp_writer_init(&w, out, cap, MOTE_LP_NS) != MOTE_OK) abort();
        size_t n;
        uint8_t *s = unesc(&pt.measurement, &n);
        if (mote_lp_write_measurement(&w, s, n) != MOTE_OK) abort();
        free(s);
        mote_lp_iter it;
        mote_lp_tag tag;
        mote_lp_tags_begin(&pt, &it);
        while (mote_lp_tags_next(&it, &tag)) {
            size_t kn, vn;
            uint8_t *k = unesc(&tag.key, &kn), *v = unesc(&tag.value, &vn);
            if (mote_lp_write_tag(&w, k, kn, v, vn) != MOTE_OK) abort();
            free(k);
            free(v);
        }
        mote_lp_field f;
        mote_lp_fields_begin(&pt, &it);
        while (mote_lp_fields_next(&it, &f)) {
            if (mote_lp_field_decode(&f) != MOTE_OK) abort();
            size_t kn;
            uint8_t *k = unesc(&f.key, &kn);
            mote_err wr = MOTE_ERR_INVALID;
            switch (f.type) {
            case MOTE_LP_FLOAT: wr = mote_lp_write_float(&w, k, kn, f.value.f); break;
            case MOTE_LP_INT: wr = mote_lp_write_int(&w, k, kn, f.value.i); break;
            case MOTE_LP_UINT: wr = mote_lp_write_uint(&w, k, kn, f.value.u); break;
            case MOTE_LP_BOOL: wr = mote_lp_write_bool(&w, k, kn, f.value.b); break;
            case MOTE_LP_STRING: {
                size_t sn;
                uint8_t *sv = unesc(&f.value.s, &sn);
                wr = mote_lp_write_string(&w, k, kn, sv, sn);
                free(sv);
                break;
            }
            }
            if (wr != MOTE_OK) abort();
            free(k);
        }
        if (mote_lp_write_end(&w, pt.has_time ? &pt.time : NULL) != MOTE_OK) abort();
        size_t len = mote_lp_writer_length(&w);

        /* Decode what was written: one point, serialized the same way. The
         * limits stay off: escaping may make names longer. */
        mote_lp_config o2;
        if (mote_lp_config_init(&o2) != MOTE_OK) abort();
        fbuf a = {0}, b = {0};
        fb_point(&a, &pt, data, data + size);
        decode_one(out, len, &o2, &b);
        /* offsets and lines differ; compare from the measurement on */
        const size_t skip = FB_POINT_BODY;
        if (a.n != b.n || memcmp(a.p + skip, b.p + skip, a.n - skip) != 0) abort();
        free(a.p);
        free(b.p);
    }
    free(out);
    return 0;
}
