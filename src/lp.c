/*
 * lp.c - line-protocol tokenizer, typed decoder and streaming decoder.
 *
 * One grammar, parse_line_impl(), reads one line from its first byte: it is
 * used on the whole input (mote_lp_next), on stream chunks
 * (mote_lp_stream_*), where running into the end of the bytes at hand means
 * "need more" instead of "end of input", and by iteration (its name() and
 * field()). Each token's common case (a plain name, a number, a string
 * without escapes) is a scan primitive and a test or two; everything else
 * (escapes, bytes >= 0x80, raw newlines, errors) goes on, from where the scan
 * stopped, in a helper out of the way (name_slow, string_rest), so no line is
 * read twice. A second, much smaller machine, split_scan(), knows only
 * enough of the grammar to find where a line ends (a '\n' outside a string
 * value, where a string value is a '"' right after a field's '='). It finds
 * the end of a bad line (so a batch goes on after it) and carries the state
 * of a line that straddles stream chunks. For every line parse_line() accepts,
 * both agree on its end; the fuzz target fuzz_lp_chunks checks that.
 */
#include "mote/lp.h"

#include <stddef.h>
#include <string.h>

#include "mote/num.h"
#include "lp_internal.h"
#include "mote_private.h"

/* Speed builds inline the scanners, instantiate the grammar twice (see
 * BOUNDED) and use the fast paths of plain names and strings, the
 * word-at-a-time scans and key prediction; small builds (MOTE_SMALL:
 * microcontrollers, -Os) keep one instance that reads byte by byte and take
 * integer conversion from num.c. Both give the same results (the unit suite
 * runs on both; fuzz_lp_decode compares them). */
#ifndef MOTE_LP_FAST /* tests/copies/meson.build sets it to 0 for a copy */
#define MOTE_LP_FAST (!MOTE_SMALL)
#endif
/* Inlining (mote_private.h's set): MOTE_FAST_INLINE for the grammar's
 * pieces, inlined into each caller in speed builds and one copy in small
 * ones; MOTE_SMALL_NOINLINE for helpers called from several places;
 * MOTE_SMALL_INLINE where folding into the callers measured smaller on
 * Cortex-M4 than one copy out of line; MOTE_COLD for skip_line(), both. The
 * attributes follow MOTE_SMALL, not MOTE_LP_FAST: the tests' hosted small
 * copy runs the small code paths with speed-build inlining. */

/* Byte classes (C_MEAS ... in lp_internal.h). */
#if MOTE_LP_FAST
const uint8_t mote__lp_cls[256] = {
     3,  3,  3,  3,  3,  3,  3,  3,  3,  3, 15,  3,  3,  7,  3,  3,
     3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,
     7,  0,  8,  0,  0,  0,  0,  0,  0,  0,  0,  0,  7, 48, 32,  0,
    48, 48, 48, 48, 48, 48, 48, 48, 48, 48,  0,  0,  0,  2,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 11,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  3,
    11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
    11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
    11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
    11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
    11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
    11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
    11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
    11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
};

#define CLS(c) mote__lp_cls[c]
#else
/* The same classes computed, byte by byte (the table costs 256 bytes of
 * flash). */
static MOTE_NOINLINE unsigned cls_of(uint8_t c)
{
    if ((unsigned)c - '0' < 10u || c == '-') return C_TIME;
    if (c == ' ' || c == ',') return C_MEAS | C_KEY | C_VAL;
    if (c == '"') return C_STR;
    if (c == '=') return C_KEY;
    if (c == '\\' || c >= 0x80) return C_MEAS | C_KEY | C_STR;
    if (c > 0x20 && c != 0x7f) return 0;
    /* controls and DEL; '\r' and '\n' end a value, '\n' a string too */
    return C_MEAS | C_KEY | (c == '\n' ? C_VAL | C_STR : c == '\r' ? C_VAL : 0);
}
#define CLS(c) cls_of(c)
#endif

const uint32_t mote__lp_ns_per[4] = {1, 1000, 1000000, 1000000000};

/*
 * Portable word-at-a-time scanning (SWAR, mote_private.h's mote__load8 and
 * byte tests; no SIMD here): 8 input bytes per step, loaded in memory order,
 * so the lowest flagged byte is the first one on any host. Speed builds scan
 * strings, timestamps and values this way where 8 bytes remain (the tail
 * goes byte by byte through the class table).
 */

/* ---- small helpers ------------------------------------------------------ */

static size_t count_nl(const uint8_t *p, const uint8_t *end)
{
    size_t n = 0;
    while (p < end) {
        const uint8_t *q = memchr(p, '\n', (size_t)(end - p));
        if (!q) break;
        n++;
        p = q + 1;
    }
    return n;
}

/* Integers: num's core (mote_private.h), inlined in speed builds; small
 * builds call num.c's parsers (one copy of the digit loop). The only sign
 * is one '-', as in Go's strconv.ParseInt: the grammar never lets a '+'
 * start a number, but mote_lp_field_decode() may be given one. */
#if MOTE_LP_FAST
static MOTE_INLINE mote_err parse_int(const uint8_t *s, size_t n, int64_t *out)
{
    return mote__num_i64(s, n, false, true, out); /* field values vary in length */
}
static MOTE_INLINE mote_err parse_uint(const uint8_t *s, size_t n, uint64_t *out)
{
    return mote__num_digits_of(s, n, true, out);
}
#else
static MOTE_NOINLINE mote_err parse_int(const uint8_t *s, size_t n, int64_t *out)
{
    /* mote_num_parse_i64 takes one leading '+' too. */
    if (n && s[0] == '+') return MOTE_ERR_BAD_VALUE;
    return mote_num_parse_i64(s, n, out);
}
#define parse_uint mote_num_parse_u64
#endif

/* Floats: num's parser; speed builds inline num's core for plain decimals
 * (mote_private.h), the common case of field values, and call the parser
 * for the rest (telegraf decode: 1,527 instructions per line against 1,554
 * with every float a call; timed, within this host's noise alone). */
#if MOTE_LP_FAST
#define parse_float mote__num_f64_plain_first
#define parse_float_field mote__num_f64_field /* a parsed field: never empty */
#else
#define parse_float mote_num_parse_f64
#define parse_float_field mote_num_parse_f64
#endif

/* Booleans: t T true True TRUE f F false False FALSE (the first five true). */
static MOTE_SMALL_NOINLINE mote_err parse_bool(mote_lp_field *f)
{
    /* each word after its length */
    const char *w = "\1t\1T\4true\4True\4TRUE\1f\1F\5false\5False\5FALSE";
    for (unsigned i = 0; i < 10; i++) {
        const size_t k = (unsigned char)*w++;
        if (k == f->raw.len && memcmp(w, f->raw.ptr, k) == 0) {
            f->value.b = i < 5;
            return MOTE_OK;
        }
        w += k;
    }
    return MOTE_ERR_BAD_VALUE;
}

/* The value of f; f->decoded is the caller's. Errors leave the value as it
 * was. Each parse is a tail call: no frame of ours under num's. The one
 * mapping of type to conversion; speed builds inline it into
 * mote_lp_point_decode()'s loop, ints first. Each branch loads f->raw
 * itself, member by member: fewer live registers at the type's tests. */
static MOTE_INLINE mote_err decode_value(mote_lp_field *f, const bool parsed)
{
    const mote_lp_type t = f->type;
    if (MOTE_LIKELY(t == MOTE_LP_INT)) return parse_int(f->raw.ptr, f->raw.len, &f->value.i);
    if (t == MOTE_LP_FLOAT) {
        if (parsed) return parse_float_field(f->raw.ptr, f->raw.len, &f->value.f);
        return parse_float(f->raw.ptr, f->raw.len, &f->value.f);
    }
    if (t == MOTE_LP_UINT) return parse_uint(f->raw.ptr, f->raw.len, &f->value.u);
    if (t == MOTE_LP_STRING) {
        f->value.s.ptr = f->raw.ptr;
        f->value.s.len = f->raw.len;
        f->value.s.escaped = f->raw.escaped;
        f->value.s.context = f->raw.context;
        return MOTE_OK;
    }
    if (t == MOTE_LP_BOOL) return parse_bool(f);
    return MOTE_ERR_INVALID;
}

/* decode_value() out of line, for the calls off the hot loop (fields
 * beyond the array, mote_lp_field_decode). */
static MOTE_NOINLINE mote_err decode_field(mote_lp_field *f)
{
    return decode_value(f, false);
}

/* Timestamp text (already known to be [-0-9]+) to ns in the precision. */
static MOTE_INLINE mote_err decode_time(const uint8_t *s, size_t n, mote_lp_precision prec,
                                        int64_t *out)
{
    int64_t v;
    if (parse_int(s, n, &v) != MOTE_OK) return MOTE_ERR_BAD_TIMESTAMP;
    int64_t m = mote__lp_ns_per[prec];
    /* |v| * m must fit: for m > 1, INT64_MIN / m is -(INT64_MAX / m) (m does
     * not divide 2^63), so one bound on the magnitude serves both signs. */
    uint64_t a = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
    if (m != 1 && a > (uint64_t)INT64_MAX / (uint64_t)m) return MOTE_ERR_BAD_TIMESTAMP;
    *out = v * m;
    return MOTE_OK;
}

#if MOTE_LP_FAST
/* decode_time() of a parsed point's time text ([-0-9]+): 19 bytes by num's
 * loop-free path for such text; other lengths, a '-' or a value out of
 * range by decode_time() from the start. */
static MOTE_INLINE mote_err decode_time_text(const uint8_t *s, size_t n, mote_lp_precision prec,
                                             int64_t *out)
{
    if (MOTE_LIKELY(n == 19)) {
        const uint64_t v = mote__num_digits19_known(s), m = mote__lp_ns_per[prec];
        if (MOTE_LIKELY(v <= (uint64_t)INT64_MAX && (m == 1 || v <= (uint64_t)INT64_MAX / m))) {
            *out = (int64_t)(v * m);
            return MOTE_OK;
        }
    }
    return decode_time(s, n, prec, out);
}
#endif

/* Default time rounded down to a multiple of the precision (as Go's
 * time.Truncate does for these units). */
static int64_t truncate_time(int64_t t, mote_lp_precision prec)
{
    int64_t m = mote__lp_ns_per[prec];
    int64_t r = t % m; /* negative for a negative t off the grid */
    t -= r;            /* toward zero; one step more down unless that overflows */
    if (r < 0 && t >= INT64_MIN + m) t -= m;
    return t;
}

/* ---- the line parser ---------------------------------------------------- */

enum { R_POINT, R_SKIP, R_ERROR, R_MORE };

/* Kinds of names, in the order of the message groups below. */
enum { K_MEAS, K_TKEY, K_TVAL, K_FKEY };

/*
 * Error messages, one string: each entry is its mote_err code as one byte,
 * the text, a NUL; E_* index them (msg_at). One blob instead of a pointer per
 * message keeps them small on microcontrollers. The E_EMPTY and E_BAD groups go by
 * kind of name (E_EMPTY + K_TVAL is "empty tag value"); E_LONG is one entry.
 */
enum {
    E_EMPTY, E_LONG = E_EMPTY + 4, E_BAD, E_NO_FIELDS = E_BAD + 4, E_NO_VALUE,
    E_VALUE, E_AFTER_VALUE, E_STRING, E_LONG_STRING, E_UTF8, E_TIME, E_AFTER_TIME,
    E_COMMENT, E_CR, E_LINE, E_FLOAT, E_INT, E_UINT, E_STR, E_BOOL, E_RANGE
};
/* MOTE_SMALL (microcontrollers) keeps the codes and leaves the texts out
 * (the message is then the code's name, mote_err_message): one byte per
 * entry, so that entry i is at lp_msgs + i. */
#if MOTE_SMALL
#define T(text) ""
#else
#define T(text) text "\0"
#endif
static const char lp_msgs[] =
    "\052" T("empty measurement")
    "\052" T("empty tag key")
    "\052" T("empty tag value")
    "\052" T("empty field key")
    "\024" T("name too long")
    "\050" T("bad measurement")
    "\050" T("bad tag key")
    "\050" T("bad tag value")
    "\050" T("bad field key")
    "\051" T("no fields")
    "\053" T("no value")
    "\053" T("bad value")
    "\050" T("bad value end")
    "\057" T("unterminated string")
    "\024" T("string too long")
    "\050" T("bad UTF-8")
    "\055" T("invalid timestamp")
    "\050" T("bad timestamp end")
    "\050" T("bad comment")
    "\050" T("bad CR")
    "\024" T("line too long")
#if !MOTE_SMALL /* a decoded point's errors: MOTE_SMALL has just their codes */
    "\053" T("bad float")
    "\053" T("bad integer")
    "\053" T("bad unsigned")
    "\053" T("bad string")
    "\053" T("bad boolean")
    "\054" T("out of range")
#endif
    ;

/* Entry i of lp_msgs: [0] its code, from [1] its text (MOTE_SMALL: the
 * code alone). */
static const char *msg_at(unsigned i)
{
    const char *m = lp_msgs;
    while (i--) m += MOTE_SMALL ? 1 : strlen(m) + 1;
    return m;
}

/* What the grammar reads and never changes while it reads a line, kept
 * apart from the context so that it stays in registers (stores into the
 * point could alias the context's pointers). */
typedef struct lp_in {
    const uint8_t *end;      /* end of the bytes at hand */
    uintptr_t safe;          /* key prediction: 24 bytes may be read at p <= safe
                                (an address: 0 when fewer are at hand) */
    mote__lp_keys *ks;       /* the line's key prediction set (speed builds):
                                one base register for both arrays */
} lp_in;

typedef struct lp_ctx {
    const uint8_t *start;   /* first byte of the line */
    const uint8_t *end;     /* end of the bytes at hand */
    bool final;             /* end is the end of the input */
    bool esc;               /* string_rest()'s string, small builds' name_slow()'s
                               name holds an escape */
    int res;                /* R_MORE or R_ERROR when a helper returns NULL */
    mote_lp_decoder *kd;     /* key prediction (speed builds) */
    size_t max_key;          /* SIZE_MAX when unlimited */
    size_t max_string;       /* SIZE_MAX when unlimited */
    /* results */
    const uint8_t *line_end; /* after the line's '\n' (or end) */
    size_t nl;               /* '\n' bytes in the line, its terminator included */
    const uint8_t *err_at;
    unsigned err;            /* E_* of the error (resolved only when reported) */
} lp_ctx;

static MOTE_SMALL_INLINE int fail(lp_ctx *c, const uint8_t *at, unsigned e)
{
    c->err_at = at;
    c->err = e;
    c->res = R_ERROR;
    return R_ERROR;
}

static MOTE_SMALL_INLINE const uint8_t *failp(lp_ctx *c, const uint8_t *at, unsigned e)
{
    fail(c, at, e);
    return NULL;
}

/* The bytes ran out: NULL with R_MORE, or if they are all there is, the
 * error e at `at`. */
static MOTE_SMALL_INLINE const uint8_t *more(lp_ctx *c, const uint8_t *at, unsigned e)
{
    if (c->final) return failp(c, at, e);
    c->res = R_MORE;
    return NULL;
}

/*
 * The grammar below is instantiated twice in speed builds, `bounded` a
 * constant apart. Unbounded: the bytes at hand end in '\n' (every whole line
 * of a buffer or chunk), which stops every scan, so no scan checks the end,
 * and no limit on names and strings is set, so none is checked. Bounded
 * (the only instance in small builds): the end is checked, and read as a
 * '\n' would be, since either the bytes at hand are all there is (the
 * input's last line when it lacks a '\n', carried lines, iteration) or they
 * end in '\n' (lines under limits), where only a string value runs into
 * the end (string_rest() says "need more" there); limits are checked.
 */
#define BOUNDED (!MOTE_LP_FAST || bounded)


/* The byte at p, with the end of bounded bytes read as '\n'. */
static MOTE_ALWAYS_INLINE uint8_t at(const uint8_t *p, const uint8_t *end, const bool bounded)
{
    return BOUNDED && p == end ? (uint8_t)'\n' : *p;
}

/* First byte at or after p with a class bit of mask (every mask stops at
 * '\n'), or end. Byte by byte: names are short, and on regular data the
 * branch predictor learns their lengths (an 8-byte word test was slower). */
static MOTE_INLINE const uint8_t *scan_cls(const uint8_t *p, const uint8_t *end,
                                           unsigned mask, const bool bounded)
{
    if (BOUNDED) {
        while (p < end && !(CLS(*p) & mask)) p++;
        return p;
    }
    for (;;) { /* unrolled: each byte read exists, the last byte is a stop */
        if (CLS(p[0]) & mask) break;
        if (CLS(p[1]) & mask) { p += 1; break; }
        if (CLS(p[2]) & mask) { p += 2; break; }
        if (CLS(p[3]) & mask) { p += 3; break; }
        p += 4;
    }
#if defined(__GNUC__)
    /* The caller reads the stop byte again (one load) rather than have
     * each byte test copy it aside for the exit (one move per byte). */
    __asm__("" : "+r"(p));
#endif
    return p;
}

/* Index of the first of the 8 bytes at p that ends an unquoted field value
 * (',' ' ' '\r' '\n'), or 8. Control bytes are flagged as candidates too
 * (cheaper) and then checked in the table. */
static MOTE_INLINE unsigned value_end8(const uint8_t *p)
{
    const uint64_t x = mote__load8(p);
    /* Bytes below 0x21 and ',' by the classic borrow tests, which may also
     * flag bytes after one (cheaper than exact ones; each candidate is
     * checked in the table anyway). */
    const uint64_t y = x ^ (MOTE__ONES * ',');
    uint64_t m = (((x - MOTE__ONES * 0x21) & ~x) | ((y - MOTE__ONES) & ~y)) & MOTE__HIGHS;
    while (m) {
        const unsigned i = mote__first8(m);
        if (CLS(p[i]) & C_VAL) return i;
        m &= m - 1; /* a control byte that does not end the value */
    }
    return 8;
}

/* End of an unquoted field value (',' ' ' '\r' '\n', or end) whose first
 * byte p[0] is not a stop. Most values (small integers, booleans) end in the
 * next 4 bytes, and table tests cost less there than a word test; longer
 * ones go 8 bytes at a time (no branch per byte to mispredict). */
static MOTE_INLINE const uint8_t *scan_value(const uint8_t *p, const uint8_t *end,
                                             const bool bounded)
{
    if (!BOUNDED) {
        if (CLS(p[1]) & C_VAL) return p + 1;
        if (CLS(p[2]) & C_VAL) return p + 2;
        if (CLS(p[3]) & C_VAL) return p + 3;
        if (CLS(p[4]) & C_VAL) return p + 4;
        p += 5;
    }
    while (MOTE_LP_FAST && end - p >= 8) {
        const unsigned i = value_end8(p);
        if (i < 8) return p + i;
        p += 8;
    }
    return scan_cls(p, end, C_VAL, bounded);
}

/* First byte at or after p that may end or interrupt a string value ('"'
 * '\\' '\n' or a byte >= 0x80), or end. */
static MOTE_INLINE const uint8_t *scan_string(const uint8_t *p, const uint8_t *end,
                                              const bool bounded)
{
    while (MOTE_LP_FAST && end - p >= 8) {
        const uint64_t x = mote__load8(p);
        const uint64_t m =
            mote__eq8(x, '"') | mote__eq8(x, '\\') | mote__eq8(x, '\n') | (x & MOTE__HIGHS);
        if (m) return p + mote__first8(m);
        p += 8;
    }
    return scan_cls(p, end, C_STR, bounded);
}

/* End of the timestamp's bytes ('-' and digits). */
static MOTE_INLINE const uint8_t *scan_time(const uint8_t *p, const uint8_t *end)
{
    while (MOTE_LP_FAST && end - p >= 8) {
        /* Only the first flagged byte counts; a '-' is a time byte: go on
         * after it. */
        const uint64_t m = mote__not_digits8(mote__load8(p));
        if (m) {
            const unsigned i = mote__first8(m);
            if (p[i] != '-') return p + i;
            p += i + 1;
            continue;
        }
        p += 8;
    }
    while (p < end && (CLS(*p) & C_TIME)) p++;
    return p;
}

#if MOTE_LP_FAST
/* n bytes at a and b equal? Word compares (overlapping at the end). */
static MOTE_INLINE bool same_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (n >= 8) {
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            if (mote__load8(a + i) != mote__load8(b + i)) return false;
        }
        return mote__load8(a + n - 8) == mote__load8(b + n - 8);
    }
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i]) return false;
    }
    return true;
}

/* The first n + 1 bytes of a word (in memory order), n = 1..7. */
static const uint64_t first_bytes[8] = {
    0, 0xffffull, 0xffffffull, 0xffffffffull, 0xffffffffffull, 0xffffffffffffull,
    0xffffffffffffffull, ~0ull};

/* A remembered name and the byte after it: the first n + 1 bytes (n =
 * 1..23) at a and b equal? 24 bytes may be read at both. Words,
 * overlapping, the bytes after a short name masked off. */
static MOTE_INLINE bool same_name(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint64_t x = mote__load8(a) ^ mote__load8(b);
    if (n >= 8) {
        x |= mote__load8(a + n - 7) ^ mote__load8(b + n - 7);
        if (n >= 16) x |= mote__load8(a + 8) ^ mote__load8(b + 8);
    } else {
        x &= first_bytes[n];
    }
    return !x;
}

/*
 * Key prediction (speed builds): the end of the key at p if it is the one
 * remembered in slot `slot` (MOTE_LP_KEY_CACHE: none), else NULL. Lines of
 * one source mostly repeat their keys, so the key last seen in this position
 * (kp[0..n), remembered only after it passed every check of name(), with '='
 * at kp[n]) is compared first: if p holds the same n + 1 bytes, scanning
 * would stop exactly at the '=' and every check would pass. kp is earlier in
 * the same buffer than p, so what may be read at p may be read at kp. A key
 * and its '=' of up to 24 bytes compare as at most three words (overlapping;
 * the bytes after a short key masked off); longer keys are not remembered.
 * Tag i uses slot i % 16, field i slot 16 + i % 16 (a masked index needs no
 * bound test; a shared slot only predicts worse).
 */
static MOTE_INLINE const uint8_t *predict_key(const lp_in *c, const uint8_t *p, size_t slot)
{
    size_t n = slot < MOTE_LP_KEY_CACHE ? c->ks->len[slot] : 0; /* 0..23 */
    if (!n) return NULL;
    if (MOTE_LIKELY((uintptr_t)p <= c->safe)) {
        if (MOTE_LIKELY(same_name(p, c->ks->ptr[slot], n))) return p + n;
    } else if ((size_t)(c->end - p) > n && p[n] == '=' &&
               same_bytes(p, c->ks->ptr[slot], n)) {
        return p + n;
    }
    return NULL;
}

#if MOTE_LP_KEY_SETS > 1
/* Set k's measurement: the n bytes at m (n = 1..23, no escape) and the ','
 * or ' ' after them, if before end; n = 0: none. The first word is kept in
 * the set, so the usual short measurement is compared without a load of its
 * pointer. Without the byte after (the input's last line) the word matches
 * nothing: no line of the same input follows. */
static void meas_remember(mote__lp_keys *k, const uint8_t *m, size_t n, const uint8_t *end)
{
    uint64_t w = ' '; /* nothing: no line starts with a space here */
    uint64_t mask = 0xff;
    if (n && (size_t)(end - m) > n) {
        const size_t b = n < 8 ? n + 1 : 8;
        w = 0;
        for (size_t i = 0; i < b; i++) w |= (uint64_t)m[i] << (8 * i);
        mask = n < 8 ? first_bytes[n] : ~0ull;
    }
    k->meas = m;
    k->meas_word = w;
    k->meas_mask = mask;
    k->meas_len = (uint8_t)n;
}

/* The measurement of set ks (and its ',' or ' ') at p, where 24 bytes may
 * be read and p[0] is not a space? */
static MOTE_INLINE bool same_meas(const mote__lp_keys *ks, const uint8_t *p)
{
    if ((mote__load8(p) ^ ks->meas_word) & ks->meas_mask) return false;
    const size_t n = ks->meas_len;
    return MOTE_LIKELY(n < 8) || same_name(p, ks->meas, n);
}

/* The set at byte offset off (a multiple of the set's size: sets are found
 * by an add, not a multiply) in the decoder's sets. */
static MOTE_INLINE mote__lp_keys *keys_at(mote_lp_decoder *d, unsigned off)
{
    return (mote__lp_keys *)(void *)((unsigned char *)d->keys + off);
}

/*
 * The key prediction set for a line whose measurement [m, e) (checked by
 * name(); esc: it holds an escape; end: the end of the bytes at hand) is
 * not the one predicted: the set that holds it, else a new one (round
 * robin) that remembers it if it has at most 23 bytes and no escape (equal
 * bytes up to and with the byte after it then read as the same
 * measurement). The chosen set becomes the prediction after the previous
 * line's set. Sets are compared by length and a tag byte first, so lines
 * of many measurements in any order pay little more than the failed
 * prediction.
 */
static MOTE_NOINLINE mote__lp_keys *key_set(mote_lp_decoder *d, const uint8_t *m, const uint8_t *e,
                                            bool esc, const uint8_t *end)
{
    const size_t n = (size_t)(e - m);
    if (d->keys_miss >= 16) {
        /* 16 searches in a row found nothing: more measurements than sets
         * (in any order). Keep the last line's set, as with one set, and
         * search again only every 32nd line. */
        d->keys_miss = (uint8_t)(d->keys_miss == 47 ? 15 : d->keys_miss + 1);
        if (d->keys_miss != 15) return keys_at(d, d->keys_cur);
    }
    const uint8_t tag = (uint8_t)(m[n - 1] ^ (m[n >> 1] << 2));
    unsigned j = 0;
    if (n <= 23) {
        /* Length and tag as one compare: few sets get as far as memcmp. */
        const unsigned lt = (unsigned)n | (unsigned)tag << 8;
        for (; j < MOTE_LP_KEY_SETS; j++) {
            mote__lp_keys *k = &d->keys[j];
            if (((unsigned)k->meas_len | (unsigned)k->meas_tag << 8) == lt &&
                memcmp(k->meas, m, n) == 0) {
                meas_remember(k, m, n, end); /* with this line's byte after it */
                d->keys_miss = 0;
                break;
            }
        }
    } else {
        j = MOTE_LP_KEY_SETS;
    }
    if (j == MOTE_LP_KEY_SETS) {
        d->keys_miss++;
        j = d->keys_victim;
        mote__lp_keys *k = &d->keys[j];
        /* A measurement not remembered shares the set taken next. */
        const bool keep = !esc && n <= 23;
        meas_remember(k, m, keep ? n : 0, end);
        k->meas_tag = tag;
        if (keep) d->keys_victim = (uint8_t)((j + 1) & (MOTE_LP_KEY_SETS - 1));
    }
    const uint16_t off = (uint16_t)(j * sizeof(mote__lp_keys));
    keys_at(d, d->keys_cur)->next = off;
    d->keys_cur = off;
    return &d->keys[j];
}
#endif
#endif

/*
 * The grammar's writes of views and field kinds. On TSBS lines (about 200
 * stores per line) the stores, not the loads or the tests, set the
 * tokenizer's pace, so a view's two flag bytes go as one store (where the
 * target has unaligned 16-bit stores: gcc calls memcpy for it on Cortex-M0+)
 * and speed builds write a field's type and decoded flag as one store
 * (adjacent members, so it also writes the padding after them, which holds
 * nothing). The flags go in one value: four arguments, Arm's registers.
 */
#if defined(__BYTE_ORDER__) && \
    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ || __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
#define LP_ORDERED 1
#define LP_LE (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#else
#define LP_ORDERED 0
#endif
_Static_assert(offsetof(mote_lp_text, context) == offsetof(mote_lp_text, escaped) + 1 &&
                   sizeof(bool) == 1,
               "escaped and context are adjacent bytes");

static MOTE_ALWAYS_INLINE void put_text(mote_lp_text *t, const uint8_t *s, const uint8_t *e,
                                        unsigned flags)
{
    t->ptr = s;
    t->len = (size_t)(e - s);
#if LP_ORDERED && (!defined(__arm__) || defined(__ARM_FEATURE_UNALIGNED))
    const uint16_t f = (uint16_t)(LP_LE ? flags : flags << 8 | flags >> 8);
    memcpy((unsigned char *)t + offsetof(mote_lp_text, escaped), &f, 2);
#else
    t->escaped = flags & 1u;
    t->context = (uint8_t)(flags >> 8);
#endif
}
#define set_text(t, s, e, esc, ctx) put_text(t, s, e, (unsigned)(esc) | (unsigned)(ctx) << 8)

#if MOTE_LP_FAST && LP_ORDERED
_Static_assert(sizeof(mote_lp_type) == 4 &&
                   offsetof(mote_lp_field, decoded) == offsetof(mote_lp_field, type) + 4 &&
                   offsetof(mote_lp_field, value) >= offsetof(mote_lp_field, type) + 8,
               "type, decoded and padding fill 8 bytes");

static MOTE_INLINE void set_type(mote_lp_field *f, mote_lp_type type, bool decoded)
{
    const uint64_t v = LP_LE ? (uint32_t)type | (uint64_t)decoded << 32
                             : (uint64_t)type << 32 | (uint64_t)decoded << 24;
    memcpy((unsigned char *)f + offsetof(mote_lp_field, type), &v, 8);
}
#else
#define set_type(f, t, dec) ((f)->type = (t), (f)->decoded = (dec))
#endif

/*
 * A name of kind k from s whose scan stopped at p on a byte that is not the
 * plain end of a non-empty name of its length limit (a backslash, a byte >=
 * 0x80, another stop): the rest of the name, then its checks, in their
 * order. Returns its end, or NULL with c->res R_ERROR, or R_MORE if the
 * bytes ran out and the input is not final (a backslash at the end may
 * escape the next byte). Out of the way of plain names.
 */
typedef struct lp_name {
    const uint8_t *end; /* NULL: error or need more (c->res) */
    bool esc;           /* holds an escape of its context */
} lp_name;

static MOTE_ALWAYS_INLINE lp_name name_rest(lp_ctx *c, const uint8_t *s, const uint8_t *p,
                                            unsigned k, const bool bounded)
{
    lp_name r = {NULL, false};
    const uint8_t *const end = c->end;
    const unsigned mask = k == K_MEAS ? C_MEAS : C_KEY;
    /* 2: a byte >= 0x80 was seen; in small builds also 1: an escape (one
     * register for both; speed builds set r.esc at once). */
    unsigned seen = 0;
    for (;;) {
        p = scan_cls(p, end, mask, bounded);
        if (BOUNDED && p == end) break;
        const uint8_t ch = *p;
        if (ch == '\\') {
            if (BOUNDED && p + 1 == end) { /* a backslash at the end of the input is literal */
                p = end;
                break;
            }
            const uint8_t n = p[1];
            if (n == ',' || n == ' ' || (k != K_MEAS && n == '=')) {
                if (MOTE_LP_FAST) r.esc = true;
                else seen |= 1;
                p++;
            }
            p++; /* else a literal backslash: the next byte is scanned normally */
            continue;
        }
        if (ch < 0x80) break;
        seen |= 2;
        p++;
    }
    if (p == end && !c->final) {
        c->res = R_MORE;
        return r;
    }
    const uint8_t ch = p < end ? *p : '\n';
    unsigned e;
    if ((k == K_TKEY || k == K_FKEY) && ch != '=') {
        e = E_BAD + k;
    } else if (p == s) {
        /* A measurement can be empty only before a ',' (else the line starts
         * with a byte no name can start with). */
        e = k == K_MEAS && ch != ',' ? E_BAD + k : E_EMPTY + k;
    } else if ((size_t)(p - s) > c->max_key) {
        e = E_LONG;
        p = s;
    } else if ((seen & 2) && !mote_utf8_valid(s, (size_t)(p - s))) {
        e = E_UTF8;
        p = s;
    } else {
        r.end = p;
        if (!MOTE_LP_FAST) r.esc = seen & 1;
        return r;
    }
    fail(c, p, e);
    return r;
}

/*
 * A name of kind k at s: returns its end, having checked it (for keys the
 * end is their '='; not empty, length limit, UTF-8), or NULL with c->res
 * R_MORE or R_ERROR. slot: key prediction slot (keys only). Every call site
 * passes a constant k: speed builds inline a copy per kind, small builds keep
 * one.
 */
#if MOTE_LP_FAST
/* name_rest() out of line, one copy per instance (the scan there then needs
 * no end checks for bytes that end in '\n'). */
static MOTE_NOINLINE lp_name name_slow_nl(lp_ctx *c, const uint8_t *s, const uint8_t *p, unsigned k)
{
    return name_rest(c, s, p, k, false);
}

static MOTE_NOINLINE lp_name name_slow_b(lp_ctx *c, const uint8_t *s, const uint8_t *p, unsigned k)
{
    return name_rest(c, s, p, k, true);
}
#define name_slow(c, s, p, k, bounded) \
    ((bounded) ? name_slow_b(c, s, p, k) : name_slow_nl(c, s, p, k))

static MOTE_FAST_INLINE lp_name name(lp_ctx *restrict c, const lp_in *in, const uint8_t *s, unsigned k,
                                     size_t slot, const bool bounded)
{
    const uint8_t *const end = in->end;
    const bool key = k == K_TKEY || k == K_FKEY;
    lp_name r = {NULL, false};
    if (key) {
        r.end = predict_key(in, s, slot);
        if (MOTE_LIKELY(r.end != NULL)) return r;
    }
    const uint8_t *p = scan_cls(s, end, k == K_MEAS ? C_MEAS : C_KEY, bounded);
    const uint8_t ch = at(p, end, bounded);
    /* One branch per test, each rarely taken (cheaper than one combined). */
    if (key) {
        if (MOTE_UNLIKELY(ch != '=')) return name_slow(c, s, p, k, bounded);
    } else if (MOTE_UNLIKELY(ch != ',' && ch != ' ')) {
        return name_slow(c, s, p, k, bounded);
    }
    if (MOTE_UNLIKELY(p == s)) return name_slow(c, s, p, k, bounded);
    if (BOUNDED && MOTE_UNLIKELY((size_t)(p - s) > c->max_key)) return name_slow(c, s, p, k, bounded);
    if (key && slot < MOTE_LP_KEY_CACHE && p - s <= 23) { /* a plain key: remember it */
        in->ks->ptr[slot] = s;
        in->ks->len[slot] = (uint8_t)(p - s);
    }
    r.end = p;
    return r;
}
#else
/* Small builds: no fast path; name_slow() does it all, the end in r0 and
 * the escape flag in the context, not an 8-byte result that AAPCS returns
 * through memory at every call. */
static MOTE_NOINLINE const uint8_t *name_slow(lp_ctx *c, const uint8_t *s, unsigned k)
{
    const lp_name r = name_rest(c, s, s, k, true);
    c->esc = r.esc;
    return r.end;
}

static MOTE_INLINE lp_name name(lp_ctx *restrict c, const lp_in *in, const uint8_t *s,
                                unsigned k, size_t slot, const bool bounded)
{
    (void)in, (void)slot, (void)bounded;
    lp_name r;
    r.end = name_slow(c, s, k);
    r.esc = c->esc;
    return r;
}
#endif

/* The type of an unquoted non-boolean value by its last byte: 'i' int, 'u'
 * uint, else float; *v1 (the value's end) then excludes the suffix. */
static MOTE_INLINE mote_lp_type number_type(const uint8_t **v1)
{
    const uint8_t last = (*v1)[-1];
    if (last != 'i' && last != 'u') return MOTE_LP_FLOAT;
    (*v1)--;
    return last == 'i' ? MOTE_LP_INT : MOTE_LP_UINT;
}

/*
 * The rest of a string value from p (v0: its opening quote), in speed
 * builds where the scan of a plain string stopped at a byte that is not its
 * closing quote: returns the closing quote, or NULL with c->res set. Sets
 * *escp (speed builds) or c->esc (small builds; escp unused) for an escape,
 * adds raw newlines to c->nl, checks the length limit and UTF-8. Out of the
 * way of plain strings.
 */
static MOTE_SMALL_INLINE const uint8_t *string_rest(lp_ctx *c, const uint8_t *v0,
                                                    const uint8_t *p, bool *restrict escp)
{
    const uint8_t *const end = c->end, *const s0 = v0 + 1;
    size_t nl = 0;
    bool hi = false, esc = false;
    for (;;) {
        p = scan_string(p, end, true);
        if (p == end) return more(c, v0, E_STRING);
        const uint8_t ch = *p;
        if (ch == '"') break;
        if (ch == '\n') {
            nl++;
        } else if (ch >= 0x80) {
            hi = true;
        } else if (p + 1 == end) { /* backslash */
            if (!c->final) {
                c->res = R_MORE;
                return NULL;
            }
        } else if (p[1] == '"' || p[1] == '\\') {
            if (MOTE_LP_FAST) *escp = true;
            else esc = true;
            p++;
        }
        p++;
    }
    if ((size_t)(p - s0) > c->max_string) return failp(c, s0, E_LONG_STRING);
    if (hi && !mote_utf8_valid(s0, (size_t)(p - s0))) return failp(c, s0, E_UTF8);
    c->nl += nl;
    /* Small builds: in the context, so that field()'s flag needs no stack
     * slot (speed builds: through escp, fewer instructions). */
    if (!MOTE_LP_FAST) c->esc = esc;
    return p;
}

/*
 * A field at p (key, '=', value) into f: returns the byte after its value
 * (after a string's closing quote), or NULL with c->res set.
 */
static MOTE_FAST_INLINE const uint8_t *field(lp_ctx *restrict c, const lp_in *in, const uint8_t *p,
                                             mote_lp_field *f, size_t slot, const bool bounded)
{
    const uint8_t *const end = in->end;
    const lp_name kn = name(c, in, p, K_FKEY, slot, bounded);
    if (MOTE_UNLIKELY(!kn.end)) return NULL;
    set_text(&f->key, p, kn.end, kn.esc, MOTE_LP_ESC_KEY);
    p = kn.end;
    const uint8_t *const v0 = ++p;
    const uint8_t ch = at(p, end, bounded);
    if (MOTE_LIKELY((ch >= '0' && ch <= '9') || ch == '-' || ch == '.')) {
        p = scan_value(p, end, bounded);
        const uint8_t *v1 = p;
        set_type(f, number_type(&v1), false);
        set_text(&f->raw, v0, v1, false, MOTE_LP_ESC_STRING);
        return p;
    }
    if (ch == 't' || ch == 'T' || ch == 'f' || ch == 'F') {
        p = scan_value(p, end, bounded);
        set_text(&f->raw, v0, p, false, MOTE_LP_ESC_STRING);
        set_type(f, MOTE_LP_BOOL, false);
        return p;
    }
    if (MOTE_UNLIKELY(ch != '"')) return failp(c, p, CLS(ch) & C_VAL ? E_NO_VALUE : E_VALUE);
    const uint8_t *const s0 = ++p;
    bool esc = false;
    /* Small builds: string_rest() does it all. */
    if (MOTE_LP_FAST) p = scan_string(p, end, bounded);
    if (MOTE_UNLIKELY(!MOTE_LP_FAST || p == end || *p != '"')) {
        p = string_rest(c, v0, p, MOTE_LP_FAST ? &esc : NULL);
        if (!p) return NULL;
        if (!MOTE_LP_FAST) esc = c->esc;
    } else if (MOTE_UNLIKELY(BOUNDED && (size_t)(p - s0) > c->max_string)) {
        return failp(c, s0, E_LONG_STRING);
    }
    set_text(&f->raw, s0, p, esc, MOTE_LP_ESC_STRING);
    set_type(f, MOTE_LP_STRING, true);
    f->value.s = f->raw;
    return p + 1;
}

/*
 * At p, after the field section or a timestamp and its spaces: accept the end
 * of the line. Returns R_POINT (c->line_end set), R_MORE or R_ERROR (message
 * e, or E_CR for a CR not before '\n').
 */
static int take_eol(lp_ctx *c, const uint8_t *p, unsigned e)
{
    const uint8_t *end = c->end;
    if (p < end && *p == '\r') {
        if (p + 1 < end && p[1] != '\n') return fail(c, p, E_CR);
        p++;
    }
    if (p == end) {
        if (!c->final) return R_MORE;
        c->line_end = end; /* also after a CR as the last byte of the input */
        return R_POINT;
    }
    if (*p == '\n') {
        c->line_end = p + 1;
        c->nl++;
        return R_POINT;
    }
    return fail(c, p, e);
}

/* A line that starts (after spaces) at p with '#', '\n' or '\r': a comment
 * (printable ASCII and bytes >= 0x80) or blank line, skipped. */
static MOTE_COLD int skip_line(lp_ctx *c, const uint8_t *p)
{
    if (p < c->end && *p == '#') {
        p++;
        while (p < c->end && *p >= 0x20 && *p != 0x7f) p++;
    }
    int r = take_eol(c, p, E_COMMENT);
    return r == R_POINT ? R_SKIP : r;
}

/* The line grammar: one line from c->start into *pt. */
static MOTE_INLINE int parse_line_impl(lp_ctx *restrict c, mote_lp_point *pt, const bool bounded)
{
    const uint8_t *p = c->start;
    const uint8_t *const end = c->end;
    /* Where fewer than 24 bytes are at hand, no name is compared by words. */
    const uintptr_t safe = end - p >= 24 ? (uintptr_t)(end - 24) : 0;

    c->nl = 0;
    /* Leading spaces, blank lines, comments. */
    uint8_t ch = at(p, end, bounded);
    if (!MOTE_LP_FAST || MOTE_UNLIKELY(ch == ' ' || ch == '#' || ch == '\n' || ch == '\r')) {
        while (p < end && *p == ' ') p++;
        if (p == end || *p == '#' || *p == '\n' || *p == '\r') return skip_line(c, p);
    }

    /* Measurement, then tags: each name checked by name(), then what follows
     * it (the same after the measurement and after a tag value). */
    const uint8_t *const m0 = p;
    lp_name n;
#if MOTE_LP_FAST && MOTE_LP_KEY_SETS > 1
    /* The key prediction set of the line's measurement: first the one whose
     * line followed the last line of the previous line's set; if it holds
     * this measurement (with the same ',' or ' ' after it), the measurement
     * is compared, not scanned. */
    mote_lp_decoder *const kd = c->kd;
    const uint16_t j = keys_at(kd, kd->keys_cur)->next;
    mote__lp_keys *ks = keys_at(kd, j);
    if (MOTE_LIKELY((uintptr_t)p <= safe && same_meas(ks, p))) {
        n.end = p + ks->meas_len;
        n.esc = false;
        kd->keys_cur = j;
    } else {
        const lp_in in0 = {end, safe, NULL};
        n = name(c, &in0, p, K_MEAS, 0, bounded);
        if (MOTE_UNLIKELY(!n.end)) return c->res;
        ks = key_set(kd, m0, n.end, n.esc, end);
    }
    const lp_in in = {end, safe, ks};
#else
    const lp_in in = {end, safe, MOTE_LP_FAST ? &c->kd->keys[0] : NULL};
    n = name(c, &in, p, K_MEAS, 0, bounded);
    if (MOTE_UNLIKELY(!n.end)) return c->res;
#endif
    p = n.end;
    set_text(&pt->measurement, m0, p, n.esc, MOTE_LP_ESC_MEASUREMENT);
    pt->offset = (uint64_t)(m0 - c->start); /* made absolute by the caller */
    pt->text.ptr = m0;
    mote_lp_tag *const tags = pt->tags;
    const size_t tags_cap = pt->tags_cap;
    size_t nt = 0;
    unsigned k = K_MEAS;
    for (;;) {
        ch = at(p, end, bounded);
        if (ch != ',') {
            if (MOTE_LIKELY(ch == ' ')) break;
            return fail(c, p, ch == '\n' || ch == '\r' ? E_NO_FIELDS : E_BAD + k);
        }
        const uint8_t *const k0 = ++p;
        const lp_name kn = name(c, &in, p, K_TKEY, nt & (MOTE_LP_KEY_CACHE / 2 - 1), bounded);
        if (MOTE_UNLIKELY(!kn.end)) return c->res;
        const uint8_t *const v0 = kn.end + 1;
        n = name(c, &in, v0, K_TVAL, 0, bounded);
        if (MOTE_UNLIKELY(!n.end)) return c->res;
        p = n.end;
        if (nt < tags_cap) {
            set_text(&tags[nt].key, k0, kn.end, kn.esc, MOTE_LP_ESC_KEY);
            set_text(&tags[nt].value, v0, p, n.esc, MOTE_LP_ESC_KEY);
        }
        nt++;
        k = K_TVAL;
    }
    /* The tags as written; without tags, empty at the measurement's end
     * (where p still is). */
    const uint8_t *const t1 = nt ? m0 + pt->measurement.len + 1 : p;
    pt->tag_section.ptr = t1;
    pt->tag_section.len = (size_t)(p - t1);
    pt->ntags = nt;

    /* Fields: after one or more spaces. */
    do p++; while (at(p, end, bounded) == ' ');
    /* A line end where the first key would start: tested here in small
     * builds (less code); speed builds leave it to field()'s failure. */
    ch = at(p, end, bounded);
    if (!MOTE_LP_FAST && MOTE_UNLIKELY(ch == '\n' || ch == '\r')) return fail(c, p, E_NO_FIELDS);
    mote_lp_field *const fields = pt->fields;
    const size_t fields_cap = pt->fields_cap;
    /* Section starts go into the point at once: fewer values live in the
     * field loop, whose spills (stores) cost more than the reloads. */
    pt->field_section.ptr = p;
    size_t nf = 0;
    mote_lp_field scratch;
    for (;;) {
        mote_lp_field *f = nf < fields_cap ? &fields[nf] : &scratch;
        p = field(c, &in, p, f,
                  MOTE_LP_KEY_CACHE / 2 + (nf & (MOTE_LP_KEY_CACHE / 2 - 1)), bounded);
        if (MOTE_UNLIKELY(!p)) {
            /* No field key starts with '\n' or '\r': field() failed there. */
            const uint8_t *const fs = pt->field_section.ptr;
            ch = at(fs, end, bounded);
            if (MOTE_LP_FAST && !nf && (ch == '\n' || ch == '\r')) return fail(c, fs, E_NO_FIELDS);
            return c->res;
        }
        nf++;
        ch = at(p, end, bounded);
        if (ch == ',') {
            p++;
            continue;
        }
        if (MOTE_LIKELY(ch == ' ' || ch == '\n' || ch == '\r')) break;
        return fail(c, p, E_AFTER_VALUE);
    }
    pt->field_section.len = (size_t)(p - pt->field_section.ptr);
    pt->nfields = nf;

    /* Timestamp, if any, and the end of the line. */
    while (at(p, end, bounded) == ' ') p++;
    const uint8_t *const t0 = p;
    ch = at(p, end, bounded);
    const bool has_time = ch != '\n' && ch != '\r';
    if (has_time) {
        p = scan_time(p, end);
        pt->time_text.len = (size_t)(p - t0);
        ch = at(p, end, bounded);
        if (MOTE_UNLIKELY(ch != '\n')) {
            if (ch != ' ' && ch != '\r') return fail(c, t0, E_TIME);
            while (at(p, end, bounded) == ' ') p++;
        }
    } else {
        pt->time_text.len = 0;
    }
    if (MOTE_LIKELY(!BOUNDED && *p == '\n')) { /* the common case first */
        c->line_end = p + 1;
        c->nl++;
    } else {
        const int r = take_eol(c, p, E_AFTER_TIME);
        if (MOTE_UNLIKELY(r != R_POINT)) return r;
    }
    pt->has_time = has_time;
    pt->time_text.ptr = t0;
    pt->decoded = false;
    pt->time = 0;
    /* The line's text: up to its "\n", "\r\n", final "\r" or end, all at p. */
    pt->text.len = (size_t)(p - pt->text.ptr);
    return R_POINT;
}

static int parse_line_bounded(lp_ctx *restrict c, mote_lp_point *pt)
{
    return parse_line_impl(c, pt, true);
}

/* Speed builds: the unbounded instance for bytes that end in '\n' and no
 * limit on names and strings (nearly every line), the bounded one for the
 * rest. */
static MOTE_INLINE int parse_line(lp_ctx *c, mote_lp_point *pt)
{
    if (MOTE_LP_FAST && c->end[-1] == '\n' && (c->max_key & c->max_string) == SIZE_MAX) {
        return parse_line_impl(c, pt, false);
    }
    return parse_line_bounded(c, pt);
}

/* ---- the line splitter -------------------------------------------------- */

enum {
    S_START,    /* line start, skipping spaces */
    S_COMMENT,
    S_MEAS,     /* measurement and tags: only an unescaped ' ' matters */
    S_MEAS_ESC, /* after '\\' there */
    S_FSTART,   /* spaces before the first field */
    S_KEY,      /* field key */
    S_KEY_ESC,
    S_VSTART,   /* right after a field's '=' */
    S_VALUE,    /* unquoted value, or after a string's closing quote */
    S_STR,      /* inside a string value: '\n' does not end the line */
    S_STR_ESC,
    S_TIME      /* timestamp and whatever follows it */
};

/*
 * Advance the split state over [p, end). Returns the byte after the '\n' that
 * ends the line (state back to S_START), or NULL if the line goes on. The
 * machine is a table: for each state, the next one for each byte class in a
 * nibble; class 0 is any other byte, 1..7 are the bytes of split_bytes; S_END
 * means the line ended. Per state: a '\n' ends the line except inside a
 * string; a '\\' moves to the escape state of names and strings, where the
 * next byte is taken (another '\\' may escape again); ' ' moves from the
 * measurement and tags to the fields and from the fields to the timestamp;
 * '=' to a value's start, where '"' opens a string, which the next '"' ends;
 * ',' from a value to the next key; '#' at the start makes a comment. (A
 * table: less than half the code of a switch on a Cortex-M4.)
 */
#define S_END 12
static const uint32_t split_next[12] = {
    0x222310c2, /* S_START */
    0x111111c1, /* S_COMMENT */
    0x222324c2, /* S_MEAS */
    0x222322c2, /* S_MEAS_ESC */
    0x557654c5, /* S_FSTART */
    0x55765bc5, /* S_KEY */
    0x555655c5, /* S_KEY_ESC */
    0x59888bc8, /* S_VSTART */
    0x58888bc8, /* S_VALUE */
    0x989a9999, /* S_STR */
    0x99999999, /* S_STR_ESC */
    0xbbbbbbcb, /* S_TIME */
};

#if MOTE_LP_FAST
/* The byte classes as a table in speed builds (a stream splits the line it
 * carries over a chunk boundary, so this runs on about 1% of the bytes). */
static const uint8_t split_cls[256] = {
    ['\n'] = 1, [' '] = 2, ['#'] = 3, ['\\'] = 4, ['='] = 5, ['"'] = 6, [','] = 7};
#define SPLIT_CLASS(ch) split_cls[ch]
#else
static unsigned split_class(uint8_t ch)
{
    static const char split_bytes[] = "\n #\\=\",";
    unsigned k = 7;
    while (k && (uint8_t)split_bytes[k - 1] != ch) k--;
    return k;
}
#define SPLIT_CLASS(ch) split_class(ch)
#endif

static const uint8_t *split_scan(uint8_t *state, const uint8_t *p, const uint8_t *end)
{
    unsigned s = *state;
    for (; p < end; p++) {
        s = (split_next[s] >> (4 * SPLIT_CLASS(*p))) & 15u;
        if (s == S_END) {
            *state = S_START;
            return p + 1;
        }
    }
    *state = (uint8_t)s;
    return NULL;
}

/* ---- whole-input decoder ------------------------------------------------ */

mote_err mote_lp_config_init(mote_lp_config *cfg)
{
    if (!cfg) return MOTE_ERR_INVALID;
    memset(cfg, 0, sizeof *cfg);
    cfg->precision = MOTE_LP_NS;
    return MOTE_OK;
}

mote_err mote_lp_point_init(mote_lp_point *pt, mote_lp_tag *tags, size_t tags_cap,
                            mote_lp_field *fields, size_t fields_cap)
{
    if (!pt) return MOTE_ERR_INVALID;
#if MOTE_LP_FAST
    /* In 64-byte pieces: gcc's x86-64 tuning clears a block of more than
     * 80 bytes with `rep stos`, whose start-up (tens of cycles) cost a
     * caller that sets up a point per line (the stream benchmark) ~10%;
     * pieces are cleared with vector stores. */
    unsigned char *const z = (unsigned char *)pt;
    size_t i = 0;
    for (; i + 64 <= sizeof *pt; i += 64) memset(z + i, 0, 64);
    memset(z + i, 0, sizeof *pt - i);
#else
    memset(pt, 0, sizeof *pt);
#endif
    if ((!tags && tags_cap) || (!fields && fields_cap)) return MOTE_ERR_INVALID;
    pt->tags = tags;
    pt->tags_cap = tags_cap;
    pt->fields = fields;
    pt->fields_cap = fields_cap;
    return MOTE_OK;
}

/* d as its callers cleared it (zero: offset 0; without cfg the defaults,
 * MOTE_LP_NS being 0) with cfg and the first line number. */
static MOTE_SMALL_NOINLINE mote_err init_dec(mote_lp_decoder *d, const mote_lp_config *cfg)
{
    _Static_assert(MOTE_LP_NS == 0, "a cleared config has the default precision");
    if (cfg) {
        if ((unsigned)cfg->precision > MOTE_LP_S) return MOTE_ERR_INVALID;
        d->cfg = *cfg;
    }
    /* No limit: the largest one (what the parser compares with). */
    if (!d->cfg.max_line) d->cfg.max_line = SIZE_MAX;
    if (!d->cfg.max_key) d->cfg.max_key = SIZE_MAX;
    if (!d->cfg.max_string) d->cfg.max_string = SIZE_MAX;
    d->at.line = 1;
    return MOTE_OK;
}

#if MOTE_LP_FAST
/* Forget every remembered key and measurement (they point into a buffer
 * that is about to change). */
static void keys_forget(mote_lp_decoder *d)
{
    for (unsigned j = 0; j < MOTE_LP_KEY_SETS; j++) {
        memset(d->keys[j].len, 0, sizeof d->keys[j].len);
#if MOTE_LP_KEY_SETS > 1
        meas_remember(&d->keys[j], NULL, 0, NULL);
#endif
    }
}
#else
#define keys_forget(d) ((void)0) /* small builds predict no keys */
#endif

mote_err mote_lp_decoder_init(mote_lp_decoder *d, const void *data, size_t len,
                              const mote_lp_config *cfg)
{
    if (!d || (!data && len > 0)) return MOTE_ERR_INVALID;
#if MOTE_LP_FAST && MOTE_LP_KEY_SETS > 1
    /* All but the key sets (last in the decoder): their pointers (2 KiB)
     * are read only where a length says so, and a decoder may be set up
     * for every small input. */
    memset(d, 0, offsetof(mote_lp_decoder, keys));
    keys_forget(d);
    for (unsigned j = 0; j < MOTE_LP_KEY_SETS; j++) d->keys[j].next = 0;
#else
    memset(d, 0, sizeof *d);
#endif
    mote_err rc = init_dec(d, cfg);
    if (rc != MOTE_OK) return rc;
    d->cur = data;
    /* (data may be NULL with len 0: NULL + 0 is undefined in C, an address
     * computed as an integer is not; the end is then NULL too) */
    d->end = (const uint8_t *)((uintptr_t)data + len);
    return MOTE_OK;
}

/* A decoded point's errors have no entry in MOTE_SMALL builds. */
#if MOTE_SMALL
#define PE_ENTRY(e)
#else
#define PE_ENTRY(e) , e
#endif

/* Fill *err (if not NULL) for an error at `at` in the line starting at start
 * (w: its byte offset and line number): message entry m, line and column
 * found by counting the '\n' bytes (raw newlines of string values) before
 * it. Returns the code. */
static MOTE_SMALL_NOINLINE mote_err set_error(mote_lp_error *err, const char *m, const uint8_t *start,
                                              const uint8_t *at, const mote__lp_at *w)
{
    const mote_err code = (mote_err)m[0];
    if (!err) return code;
    uint64_t line = w->line;
    const uint8_t *col0 = start;
    for (const uint8_t *q = start; q < at; q++) {
        if (*q == '\n') {
            line++;
            col0 = q + 1;
        }
    }
    err->code = code;
    err->message = MOTE_SMALL ? mote_err_message(code) : m + 1;
    err->pos.offset = w->offset + (uint64_t)(at - start);
    err->pos.line = line;
    err->pos.column = (uint64_t)(at - col0) + 1;
    err->line_offset = w->offset;
    return err->code;
}

/*
 * Finish one line that parse_line() has seen in full: r is its result,
 * [c->start, c->line_end) its bytes, w the position of its start. Applies
 * the line-length limit, fills the point's absolute position or the error.
 * Returns MOTE_OK (point), MOTE_ERR_NEED_MORE (skipped line: go on) or the
 * line's error code.
 */
static MOTE_FAST_INLINE mote_err finish_line(lp_ctx *c, int r, const mote__lp_at *w, size_t max_line,
                                             mote_lp_point *pt, mote_lp_error *err)
{
    /* The line's bytes with its '\n' first: within the limit, so is the
     * line (and without a limit, max_line is SIZE_MAX). */
    const uint8_t *rec_end = c->line_end;
    size_t len = (size_t)(rec_end - c->start);
    if (MOTE_UNLIKELY(len > max_line)) {
        if (rec_end[-1] == '\n') len--;
        if (len > max_line) r = fail(c, c->start, E_LINE);
    }
    if (MOTE_LIKELY(r == R_POINT)) {
        pt->column = 1 + pt->offset; /* a line starts in column 1 */
        pt->offset += w->offset;
        pt->line = w->line;
        return MOTE_OK;
    }
    if (r == R_SKIP) return MOTE_ERR_NEED_MORE;
    return set_error(err, msg_at(c->err), c->start, c->err_at, w);
}

/* A context for the bytes [start, end), the last of the input (a caller
 * with more to come clears c->final: four arguments, Arm's registers). */
static MOTE_SMALL_NOINLINE void ctx_init(lp_ctx *c, mote_lp_decoder *d, const uint8_t *start,
                     const uint8_t *end)
{
    c->start = start;
    c->end = end;
    c->final = true;
    c->max_string = d->cfg.max_string;
    c->kd = d;
    c->max_key = d->cfg.max_key;
}

/* Internal result of line_at(): the line does not end in the bytes at hand
 * (never returned by a public call). */
#define LP_CARRY MOTE_ERR_IO

/*
 * Decode the line at d->cur, parsed over [d->cur, pend) (st NULL, final:
 * d->end ends the input; else pend is after the chunk's last '\n'). The
 * line's end is the parser's, or for a line it cannot take the splitter's
 * (*st: its state there). Returns as finish_line(), or LP_CARRY if not
 * final and the line goes on past d->end (nothing consumed). final
 * follows from st: five arguments.
 */
static MOTE_FAST_INLINE mote_err line_at(mote_lp_decoder **dp, const uint8_t *pend, uint8_t *st,
                        mote_lp_point *pt, mote_lp_error *err)
{
    mote_lp_decoder *d = *dp;
    const bool final = !st; /* the whole input: no state to hand back */
    uint8_t st0;
    if (final) st = &st0;
    lp_ctx c;
    int r = R_MORE;
    const uint8_t *p = d->cur, *rec_end;
    size_t nl;
    if (p < pend) {
        ctx_init(&c, d, p, pend);
        c.final = final;
        r = parse_line(&c, pt);
#if MOTE_LP_FAST
        /* The decoder read back from the context and handed back to the
         * caller's loop: no copy of it is live over the parse, whose
         * registers then hold the line's key set. Volatile: a plain read
         * would reuse the copy. The line's start too (the stream kept it
         * in a register over the parse, its field count on the stack). */
        *dp = d = *(mote_lp_decoder *const volatile *)&c.kd;
        p = *(const uint8_t *const volatile *)&c.start;
#endif
    }
    if (r == R_POINT || r == R_SKIP) {
        rec_end = c.line_end;
        nl = c.nl;
    } else {
        *st = S_START;
        rec_end = split_scan(st, p, d->end);
        if (!rec_end) {
            if (!final) return LP_CARRY;
            rec_end = d->end;
        }
        if (r == R_MORE) {
            /* The splitter saw the line end before the parser did; decode
             * exactly those bytes, as the whole-input decoder would. */
            ctx_init(&c, d, p, rec_end);
            r = parse_line(&c, pt);
        }
        nl = count_nl(p, rec_end);
    }
    c.line_end = rec_end; /* the splitter's end: finish_line()'s too */
    /* Small builds finish the line before d moves on (its position read in
     * place: smaller), speed builds after, from a copy (faster). */
#if MOTE_LP_FAST
    mote__lp_at w = d->at;
#else
    mote_err rc = finish_line(&c, r, &d->at, d->cfg.max_line, pt, err);
#endif
    d->cur = rec_end;
    d->at.offset += (uint64_t)(rec_end - p);
    d->at.line += nl;
#if MOTE_LP_FAST
    return finish_line(&c, r, &w, d->cfg.max_line, pt, err);
#else
    return rc;
#endif
}

MOTE_ALIGN_ENTRY
mote_err mote_lp_next(mote_lp_decoder *d, mote_lp_point *pt, mote_lp_error *err)
{
    if (!d || !pt) return MOTE_ERR_INVALID;
    while (d->cur < d->end) {
        mote_err rc = line_at(&d, d->end, NULL, pt, err);
        if (rc != MOTE_ERR_NEED_MORE) return rc;
    }
    return MOTE_ERR_NEED_MORE;
}

/* ---- streaming decoder -------------------------------------------------- */

mote_err mote_lp_stream_init(mote_lp_stream *s, const mote_lp_config *cfg,
                             uint8_t *carry, size_t carry_cap)
{
    if (!s || !carry || carry_cap < 2) return MOTE_ERR_INVALID;
    memset(s, 0, sizeof *s);
    mote_err rc = init_dec(&s->dec, cfg);
    if (rc != MOTE_OK) return rc;
    /* A line that straddles chunks must fit the carry buffer with its '\n':
     * the effective limit is the smaller of max_line and carry_cap - 1. */
    if (s->dec.cfg.max_line > carry_cap - 1) {
        s->dec.cfg.max_line = carry_cap - 1;
    }
    s->carry = carry;
    s->carry_cap = carry_cap;
    s->state = S_START;
    return MOTE_OK;
}

mote_err mote_lp_stream_feed(mote_lp_stream *s, const void *chunk, size_t len)
{
    if (!s || (!chunk && len > 0)) return MOTE_ERR_INVALID;
    if (s->finished || s->dec.cur != s->dec.end) return MOTE_ERR_STATE;
    /* Predicted keys point into the previous chunk, which may be gone. */
    keys_forget(&s->dec);
    s->dec.cur = chunk;
    s->dec.end = (const uint8_t *)((uintptr_t)chunk + len); /* (NULL, 0) too: see decoder_init */
    /* Lines are tried in place only up to the last '\n' of the chunk: they
     * then end in a '\n' (the parser's fast mode), and the unfinished tail
     * goes straight to the carry buffer without a parse attempt. */
    const uint8_t *q = s->dec.end;
    while (q > s->dec.cur && q[-1] != '\n') q--;
    s->nl_end = q;
    return MOTE_OK;
}

mote_err mote_lp_stream_finish(mote_lp_stream *s)
{
    if (!s) return MOTE_ERR_INVALID;
    if (s->dec.cur != s->dec.end) return MOTE_ERR_STATE;
    s->finished = true;
    return MOTE_OK;
}

/* Start gathering the line at d->cur (not complete in this chunk). */
static void carry_begin(mote_lp_stream *s, uint8_t state)
{
    mote_lp_decoder *d = &s->dec;
    s->carrying = true;
    s->state = state;
    s->rec = d->at;
    s->carry_len = 0;
    s->dropping = false;
}

/* Append the next n bytes of the gathered line (or only count them if it is
 * too long to keep). Line numbers advance as the bytes go by. */
static void carry_add(mote_lp_stream *s, size_t n)
{
    mote_lp_decoder *d = &s->dec;
    if (n > s->carry_cap - s->carry_len) s->dropping = true;
    if (!s->dropping) {
        memcpy(s->carry + s->carry_len, d->cur, n);
        s->carry_len += n;
    }
    d->at.line += count_nl(d->cur, d->cur + n);
    d->cur += n;
    d->at.offset += n;
}

/* Decode the gathered line (complete: it ends in '\n' or the input ended). */
static MOTE_SMALL_INLINE mote_err carry_end(mote_lp_stream *s, mote_lp_point *pt,
                                            mote_lp_error *err)
{
    mote_lp_decoder *d = &s->dec;
    s->carrying = false;
    if (s->dropping) {
        /* Its bytes are gone; only its start is known: the error is there. */
        s->dropping = false;
        return set_error(err, msg_at(E_LINE), s->carry, s->carry, &s->rec); /* MOTE_ERR_TOO_LONG */
    }
    const uint8_t *b = s->carry, *e = s->carry + s->carry_len;
    lp_ctx c;
    ctx_init(&c, d, b, e);
    /* No key prediction across the carry and the chunk: the words compared
     * at a remembered key must be in the buffer the key is in. */
    keys_forget(d);
    int r = parse_line(&c, pt);
    keys_forget(d);
    s->carry_len = 0;
    c.line_end = e;
    return finish_line(&c, r, &s->rec, d->cfg.max_line, pt, err);
}

MOTE_ALIGN_ENTRY
mote_err mote_lp_stream_next(mote_lp_stream *s, mote_lp_point *pt, mote_lp_error *err)
{
    if (!s || !pt) return MOTE_ERR_INVALID;
    mote_lp_decoder *d = &s->dec;
    for (;;) {
        if (s->carrying) {
            if (d->cur == d->end) {
                if (!s->finished) return MOTE_ERR_NEED_MORE;
            } else {
                const uint8_t *e = split_scan(&s->state, d->cur, d->end);
                carry_add(s, (size_t)((e ? e : d->end) - d->cur));
                if (!e) continue; /* chunk used up */
            }
            mote_err rc = carry_end(s, pt, err);
            if (rc != MOTE_ERR_NEED_MORE) return rc;
            continue;
        }
        if (d->cur == d->end) return MOTE_ERR_NEED_MORE;

        /* The line in place (parsed if a '\n' follows), else carried. The
         * splitter's state at the end of the chunk: into a local in speed
         * builds (the stream is not held over the parse), straight into the
         * stream in small builds (read only while carrying: 10 bytes less). */
#if MOTE_LP_FAST
        uint8_t st, *stp = &st;
#else
        uint8_t *stp = &s->state;
#endif
        mote_err rc = line_at(&d, s->nl_end, stp, pt, err);
        /* The stream from its decoder as line_at() gives it back (not
         * held over the parse either). */
        s = (mote_lp_stream *)(void *)((unsigned char *)d - offsetof(mote_lp_stream, dec));
        if (rc == LP_CARRY) {
            carry_begin(s, *stp);
            carry_add(s, (size_t)(d->end - d->cur));
            continue;
        }
        if (rc != MOTE_ERR_NEED_MORE) return rc;
    }
}

/* ---- iteration, on-demand decoding, unescaping -------------------------- */

void mote_lp_tags_begin(const mote_lp_point *pt, mote_lp_iter *it)
{
    if (!it) return;
    it->p = pt ? pt->tag_section.ptr : NULL;
    it->end = pt ? pt->tag_section.ptr + pt->tag_section.len : NULL;
}

/* A parser context over a section of a parsed point (no limits, no key
 * prediction): iteration reads sections with the parser's own name() and
 * field(), so both see the same names and values. */
static MOTE_SMALL_NOINLINE void iter_ctx(lp_ctx *c, const uint8_t *end)
{
    memset(c, 0, sizeof *c);
    c->end = end;
    c->final = true;
    c->max_key = c->max_string = SIZE_MAX;
}

bool mote_lp_tags_next(mote_lp_iter *it, mote_lp_tag *tag)
{
    if (!it || !tag || !it->p || it->p >= it->end) return false;
    lp_ctx c;
    iter_ctx(&c, it->end);
    const uint8_t *k0 = it->p;
    const lp_in in = {it->end, 0, NULL};
    const lp_name kn = name(&c, &in, k0, K_TKEY, MOTE_LP_KEY_CACHE, true);
    if (!kn.end) return false;
    const lp_name vn = name(&c, &in, kn.end + 1, K_TVAL, 0, true);
    if (!vn.end) return false;
    const uint8_t *p = vn.end;
    set_text(&tag->key, k0, kn.end, kn.esc, MOTE_LP_ESC_KEY);
    set_text(&tag->value, kn.end + 1, p, vn.esc, MOTE_LP_ESC_KEY);
    if (p < it->end) p++; /* ',' */
    it->p = p;
    return true;
}

void mote_lp_fields_begin(const mote_lp_point *pt, mote_lp_iter *it)
{
    if (!it) return;
    it->p = pt ? pt->field_section.ptr : NULL;
    it->end = pt ? pt->field_section.ptr + pt->field_section.len : NULL;
}

bool mote_lp_fields_next(mote_lp_iter *it, mote_lp_field *f)
{
    if (!it || !f || !it->p || it->p >= it->end) return false;
    lp_ctx c;
    iter_ctx(&c, it->end);
    const lp_in in = {it->end, 0, NULL};
    const uint8_t *p = field(&c, &in, it->p, f, MOTE_LP_KEY_CACHE, true);
    if (!p) return false;
    if (p < it->end) p++; /* ',' */
    it->p = p;
    return true;
}

mote_err mote_lp_field_decode(mote_lp_field *f)
{
    if (!f || (!f->raw.ptr && f->raw.len > 0)) return MOTE_ERR_INVALID;
    mote_err rc = decode_field(f);
    if (rc != MOTE_ERR_INVALID) f->decoded = rc == MOTE_OK;
    return rc;
}

/* The field after f of a point (f NULL: its first), NULL after its last: in
 * the point's array, and beyond it parsed into pt->spare from the bytes after
 * f (its raw bytes, a closing quote or an 'i'/'u', then ','). */
static MOTE_SMALL_NOINLINE mote_lp_field *next_field(mote_lp_point *pt, mote_lp_field *f)
{
    const uint8_t *p = pt->field_section.ptr, *end = p + pt->field_section.len;
    if (f != &pt->spare) {
        size_t i = f ? (size_t)(f - pt->fields) + 1 : 0;
        if (i < pt->fields_cap) return i < pt->nfields ? &pt->fields[i] : NULL;
    }
    if (f) {
        p = f->raw.ptr + f->raw.len + (f->type != MOTE_LP_FLOAT && f->type != MOTE_LP_BOOL);
        if (p < end) p++;
    }
    mote_lp_iter it = {p, end};
    return mote_lp_fields_next(&it, &pt->spare) ? &pt->spare : NULL;
}

/* Error at byte `at` of a decoded point's line: code, message E_* e (not
 * in MOTE_SMALL builds: PE_ENTRY). The line starts column - 1 bytes
 * (spaces) before the point's text. Out of line in every build: an error
 * path, kept out of mote_lp_point_decode()'s loop. */
static MOTE_NOINLINE mote_err point_error(const mote_lp_point *pt, const uint8_t *at,
                                          mote_err code PE_ENTRY(unsigned e), mote_lp_error *err)
{
    uint64_t lead = pt->column - 1;
    mote__lp_at w = {pt->offset - lead, pt->line};
#if MOTE_SMALL
    const char m = (char)code; /* no entry: the code alone */
    return set_error(err, &m, pt->text.ptr - lead, at, &w);
#else
    set_error(err, msg_at(e), pt->text.ptr - lead, at, &w);
    if (err) err->code = code;
    return code;
#endif
}

static MOTE_SMALL_INLINE mote_err field_error(const mote_lp_point *pt, const mote_lp_field *f,
                                              mote_err rc, mote_lp_error *err)
{
#if MOTE_SMALL
    return point_error(pt, f->raw.ptr, rc, err);
#else
    /* By type (E_FLOAT + FLOAT - 1 ...), or out of range; strings are never
     * decoded with an error. */
    unsigned t = (unsigned)f->type - 1u;
    if (t > 4) t = 0;
    return point_error(pt, f->raw.ptr, rc, rc == MOTE_ERR_RANGE ? E_RANGE : E_FLOAT + t, err);
#endif
}

/* The timestamp part of mote_lp_point_decode(). */
static MOTE_SMALL_INLINE mote_err point_time(mote_lp_point *pt, const mote_lp_config *cfg,
                                             mote_lp_error *err)
{
    mote_lp_precision prec = cfg ? cfg->precision : MOTE_LP_NS;
#if MOTE_LP_FAST
    /* The time text of a parsed point is known to be [-0-9]+: no recheck. */
    if (!pt->has_time) {
        pt->time = truncate_time(cfg ? cfg->default_time : 0, prec);
    } else if (decode_time_text(pt->time_text.ptr, pt->time_text.len, prec, &pt->time) != MOTE_OK) {
#else
    if (mote_lp_point_decode_time(pt, prec, cfg ? cfg->default_time : 0) != MOTE_OK) {
#endif
        return point_error(pt, pt->time_text.ptr, MOTE_ERR_BAD_TIMESTAMP PE_ENTRY(E_TIME), err);
    }
    pt->decoded = true;
    return MOTE_OK;
}

MOTE_ALIGN_ENTRY
mote_err mote_lp_point_decode(mote_lp_point *pt, const mote_lp_config *cfg, mote_lp_error *err)
{
    if (!pt || (cfg && (unsigned)cfg->precision > MOTE_LP_S)) return MOTE_ERR_INVALID;
    /* Field by field, here and not in a helper, with four live values: a
     * float's parse needs nearly all of a Cortex-M0+'s 512-byte budget. */
    mote_lp_field *f = NULL;
#if MOTE_LP_FAST
    /* The fields in the array first, with decode_value() inline (ints
     * first, the common case), by a pointer (the stores to a field could
     * alias pt->fields). */
    const size_t n = pt->nfields < pt->fields_cap ? pt->nfields : pt->fields_cap;
    if (n) {
        mote_lp_field *const last = pt->fields + (n - 1);
        for (f = pt->fields;; f++) {
            const mote_err rc = decode_value(f, true); /* fields from the grammar */
            f->decoded = rc == MOTE_OK;
            if (rc != MOTE_OK) return field_error(pt, f, rc, err);
            if (f == last) break;
        }
    }
    if (pt->nfields > n) /* fields beyond the array (small builds: all) */
#endif
    {
        while ((f = next_field(pt, f)) != NULL) {
            mote_err rc = decode_field(f);
            f->decoded = rc == MOTE_OK;
            if (rc != MOTE_OK) return field_error(pt, f, rc, err);
        }
    }
    return point_time(pt, cfg, err);
}

mote_err mote_lp_point_decode_time(mote_lp_point *pt, mote_lp_precision precision,
                                   int64_t default_time)
{
    if (!pt || (unsigned)precision > MOTE_LP_S) return MOTE_ERR_INVALID;
    if (!pt->has_time) {
        pt->time = truncate_time(default_time, precision);
        return MOTE_OK;
    }
    /* Both integer parsers reject all but [-]digits: the grammar's [-0-9]+
     * needs no check of its own. */
    return decode_time(pt->time_text.ptr, pt->time_text.len, precision, &pt->time);
}

mote_err mote_lp_unescape(const mote_lp_text *t, uint8_t *out, size_t cap, size_t *len)
{
    if (!t || !len || (!t->ptr && t->len > 0) || (!out && cap > 0)) return MOTE_ERR_INVALID;
    const uint8_t *p = t->ptr, *end = t->ptr + t->len;
    size_t n = 0;
    if (MOTE_LP_FAST && !t->escaped) { /* small builds: the loop below */
        *len = t->len;
        if (cap < t->len) return MOTE_ERR_SPACE;
        if (t->len) memcpy(out, p, t->len);
        return MOTE_OK;
    }
    while (p < end) {
        uint8_t ch = *p++;
        /* What a backslash escapes: MEASUREMENT " ,", KEY " ,=", else
         * "\"\\"; tested as the parser tests it (name_rest, string_rest),
         * not by memchr over a set (smaller). */
        if (ch == '\\' && t->escaped && p < end) {
            const uint8_t e = *p;
            if (t->context < MOTE_LP_ESC_STRING
                    ? e == ',' || e == ' ' || (t->context == MOTE_LP_ESC_KEY && e == '=')
                    : e == '"' || e == '\\') {
                ch = *p++;
            }
        }
        if (n < cap) out[n] = ch;
        n++;
    }
    *len = n;
    return n <= cap ? MOTE_OK : MOTE_ERR_SPACE;
}

mote_err mote_lp_unescape_arena(const mote_lp_text *t, mote_arena *arena, mote_view *out)
{
    if (!t || !out || (!t->ptr && t->len > 0)) return MOTE_ERR_INVALID;
    if (!t->escaped) {
        out->ptr = t->ptr;
        out->len = t->len;
        return MOTE_OK;
    }
    if (!arena) return MOTE_ERR_INVALID;
    uint8_t *mem = mote_arena_alloc_aligned(arena, t->len, 1);
    if (!mem) return MOTE_ERR_NOMEM;
    size_t n = 0;
    mote_err e = mote_lp_unescape(t, mem, t->len, &n); /* never longer than the view */
    if (e != MOTE_OK) return e;
    out->ptr = mem;
    out->len = n;
    return MOTE_OK;
}
