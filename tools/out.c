/* out.c - the tool's buffered, checked output and its JSON writer, shared
 * by 'mote sql split' and 'mote lp dump' (see tool.h).
 *
 * The writer is the CLI's cost (the parsers under it run at several GB/s),
 * so output goes into one buffer of the tool's own instead of through stdio
 * per byte or per field: text is escaped eight bytes at a time, and only the
 * bytes that need attention are handled one by one. */
#include "tool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mote/be.h"
#include "mote/common.h"

int tool_buf_open(tool_buf *o, FILE *f)
{
    o->p = malloc(TOOL_BUF_CAP);
    o->len = 0;
    o->f = f;
    o->err = 0;
    o->failed = false;
    return o->p ? 0 : -1;
}

void tool_buf_flush(tool_buf *o)
{
    /* a short write leaves ferror(f) set and errno saying why */
    if (o->len && !o->failed && fwrite(o->p, 1, o->len, o->f) != o->len) {
        o->failed = true;
        o->err = errno ? errno : EIO;
    }
    o->len = 0;
}

int tool_buf_check(tool_buf *o, const char *what)
{
    if (!o->failed) return 0;
    errno = o->err; /* tool_out_ok reports errno's reason, once per stream */
    int rc = tool_out_ok(o->f, what);
    return rc ? rc : tool_io_error(what, o->err);
}

int tool_buf_close(tool_buf *o, const char *what)
{
    tool_buf_flush(o);
    int rc = tool_buf_check(o, what);
    free(o->p);
    o->p = NULL;
    return rc;
}

void tool_buf_str(tool_buf *o, const char *s)
{
    tool_buf_mem(o, s, strlen(s));
}

/* Decimal digits of v at d, two at a time from a table, back to front
 * (the length found first by comparisons: through a stack temporary the
 * 2-byte stores stalled the wider load that copied them out). Four numbers
 * per token made the library's digit-at-a-time mote_num_format_u64 (small
 * code for microcontrollers) 30% of 'sql split's time on COPY data, one
 * short token per row. */
uint8_t *tool_put_u64(uint8_t *d, uint64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";
    size_t n = 1;
    for (uint64_t p = 10; n < 20 && v >= p; p *= 10) n++;
    uint8_t *e = d + n;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        e -= 2;
        memcpy(e, pairs + 2 * r, 2);
    }
    if (v >= 10) {
        memcpy(e - 2, pairs + 2 * v, 2);
    } else {
        e[-1] = (uint8_t)('0' + v);
    }
    return d + n;
}

uint8_t *tool_put_i64(uint8_t *d, int64_t v)
{
    if (v >= 0) return tool_put_u64(d, (uint64_t)v);
    *d++ = '-';
    return tool_put_u64(d, 0 - (uint64_t)v); /* INT64_MIN too: unsigned negation */
}

void tool_buf_u64(tool_buf *o, uint64_t v)
{
    uint8_t *d = tool_buf_room(o, 20);
    o->len = (size_t)(tool_put_u64(d, v) - o->p);
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull
#define LOWS (~HIGHS)

/* Eight bytes as a little-endian word on any host: byte i in bits 8i..8i+7,
 * so the lowest set bit of a mask names the first byte. */
static inline uint64_t load64(const uint8_t *p)
{
    uint64_t w;
#if MOTE_BE_HOST_LITTLE || MOTE_BE_HOST_BIG
    memcpy(&w, p, 8);
#if MOTE_BE_HOST_BIG
    w = mote_bswap64(w);
#endif
#else
    w = 0;
    for (int i = 7; i >= 0; i--) w = w << 8 | p[i];
#endif
    return w;
}

/* Exact per-byte masks (bit 7 of each byte that matches, no borrow from one
 * byte into the next: the high bit is set aside before adding), so every
 * hit of a word is handled without loading it again. */
static inline uint64_t bytes_eq(uint64_t w, uint8_t c)
{
    uint64_t x = w ^ (ONES * c);
    return ~(((x & LOWS) + LOWS) | x) & HIGHS;
}

static inline uint64_t bytes_below_20(uint64_t w)
{
    return ~(((w & LOWS) + ONES * 0x60) | w) & HIGHS;
}

/* Bytes of w the style writes otherwise than as themselves (with
 * TOOL_JSON_UTF8_CHECK: also every byte >= 0x80, to validate its run). */
static inline uint64_t json_hits(uint64_t w, tool_json_style style)
{
    uint64_t m = bytes_below_20(w) | bytes_eq(w, '"') | bytes_eq(w, '\\');
    if (style == TOOL_JSON_BYTES) m |= (((w & LOWS) + ONES) | w) & HIGHS; /* >= 0x7f */
    else if (style == TOOL_JSON_UTF8_CHECK) m |= w & HIGHS;
    return m;
}

/* Length of the run of bytes >= 0x80 at p[0..avail) (at least 1 when
 * p[0] is one). Valid UTF-8 is ASCII bytes and whole multibyte sequences,
 * whose bytes are all >= 0x80, so text is valid iff each such run is. */
static inline size_t high_run(const uint8_t *p, size_t avail)
{
    size_t i = 0;
    while (avail - i >= 8) {
        uint64_t lo = ~load64(p + i) & HIGHS;
        if (lo) return i + (size_t)__builtin_ctzll(lo) / 8;
        i += 8;
    }
    while (i < avail && p[i] >= 0x80) i++;
    return i;
}

bool tool_utf8_ok(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (n - i >= 8) {
            uint64_t h = load64(p + i) & HIGHS;
            if (!h) {
                i += 8;
                continue;
            }
            i += (size_t)__builtin_ctzll(h) / 8;
        } else if (p[i] < 0x80) {
            i++;
            continue;
        }
        size_t len = high_run(p + i, n - i);
        if (!mote_utf8_valid(p + i, len)) return false;
        i += len;
    }
    return true;
}

/* The escape of one byte c (a hit of json_hits other than a UTF-8 byte) at
 * d; returns the end. */
static inline uint8_t *put_escape(uint8_t *d, uint8_t c, tool_json_style style)
{
    static const char hex[] = "0123456789abcdef";
    /* a table, not a switch: the jump table's indirect branch mispredicted
     * on every tab of COPY data */
    static const uint8_t short_esc[32] = {['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n',
                                          ['\f'] = 'f', ['\r'] = 'r'};
    d[0] = '\\';
    uint8_t e2 = c == '"' || c == '\\' ? c : style != TOOL_JSON_BYTES && c < 0x20 ? short_esc[c] : 0;
    if (e2) {
        d[1] = e2;
        return d + 2;
    }
    memcpy(d + 1, "u00", 3);
    d[4] = (uint8_t)hex[c >> 4];
    d[5] = (uint8_t)hex[c & 15];
    return d + 6;
}

bool tool_buf_json(tool_buf *o, const uint8_t *p, size_t n, tool_json_style style)
{
    const uint8_t *s = p, *pend = p + n;
    while (s < pend) {
        /* a segment whose worst case (6 output bytes per input byte) fits */
        size_t left = (size_t)(pend - s), seg = (TOOL_BUF_CAP - o->len) / 6;
        seg = seg > TOOL_BUF_SLACK ? seg - TOOL_BUF_SLACK : 0;
        if (seg < left && seg < 64) { /* (never when the caller made room for all) */
            tool_buf_flush(o);
            seg = TOOL_BUF_CAP / 6 - TOOL_BUF_SLACK;
        }
        if (seg > left) seg = left;
        uint8_t *d = o->p + o->len;
        const uint8_t *end = s + seg;
        while (s < end) {
            if (pend - s >= 8) {
                uint64_t w = load64(s), m = json_hits(w, style);
                memcpy(d, s, 8); /* the clean bytes before the first hit */
                if (!m) {
                    d += 8;
                    s += 8;
                    continue;
                }
                /* every hit of the word in turn, each followed by a copy of
                 * the rest of the word (the slack takes what lands past) */
                size_t done = 0;
                do {
                    size_t i = (size_t)__builtin_ctzll(m) / 8;
                    if (s[i] >= 0x80 && style != TOOL_JSON_BYTES) {
                        d += i - done; /* a UTF-8 run: below */
                        s += i;
                        goto byte;
                    }
                    d = put_escape(d + (i - done), s[i], style);
                    done = i + 1;
                    memcpy(d, s + done, 8);
                    m &= m - 1;
                } while (m);
                d += 8 - done;
                s += 8;
                continue;
            }
        byte:
            if (s >= end) break;
            uint8_t c = *s;
            if (c >= 0x80 && style != TOOL_JSON_BYTES) {
                /* the run, cut before a lead byte where it leaves the
                 * segment (past it by 3 bytes at most: within the slack) */
                size_t len = high_run(s, (size_t)(pend - s)), cap = (size_t)(end - s) + 3;
                if (len > cap) {
                    len = cap;
                    while (len && (s[len] & 0xc0) == 0x80) len--;
                    if (!len) len = 1; /* not UTF-8 anyway */
                }
                if (style == TOOL_JSON_UTF8_CHECK && !mote_utf8_valid(s, len)) return false;
                memcpy(d, s, len);
                d += len;
                s += len;
                continue;
            }
            s++;
            if (c >= 0x20 && c != '"' && c != '\\' && (c < 0x7f || style != TOOL_JSON_BYTES)) {
                *d++ = c;
                continue;
            }
            d = put_escape(d, c, style);
        }
        o->len = (size_t)(d - o->p);
    }
    return true;
}
