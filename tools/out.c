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

#include "mote/common.h"
#include "mote_private.h"

static void esc_table_init(void);

int tool_buf_open(tool_buf *o, FILE *f)
{
    esc_table_init();
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

void tool_buf_u64(tool_buf *o, uint64_t v)
{
    uint8_t *d = tool_buf_room(o, TOOL_U64_ROOM);
    o->len = (size_t)(tool_put_u64(d, v) - o->p);
}

void tool_buf_error(tool_buf *o, const char *name, const char *message, uint64_t line,
                    const char *pos_key, uint64_t pos)
{
    tool_buf_lit(o, "{\"error\":\"");
    tool_buf_str(o, name);
    tool_buf_lit(o, "\",\"message\":\"");
    tool_buf_json(o, (const uint8_t *)message, strlen(message), TOOL_JSON_UTF8);
    tool_buf_lit(o, "\",\"line\":");
    tool_buf_u64(o, line);
    tool_buf_lit(o, ",\"");
    tool_buf_str(o, pos_key);
    tool_buf_lit(o, "\":");
    tool_buf_u64(o, pos);
    tool_buf_lit(o, "}\n");
}

/* The word-at-a-time helpers are the library's own (src/mote_private.h):
 * mote__load8/mote__load4/mote__store8 keep memory order on any host (the
 * lowest set bit of a mask names the first byte), mote__eq8/mote__lt8 flag
 * bytes. */

/* The k bytes at p (1 <= k <= 7) as a word like mote__load8's, zero above, from
 * loads inside p[0..k) only: two overlapping 4-byte loads, or three single
 * bytes (overlapping ones OR the same value twice). */
static inline uint64_t load_partial(const uint8_t *p, size_t k)
{
    if (k >= 4) return mote__load4(p) | (uint64_t)mote__load4(p + k - 4) << (8 * (k - 4));
    return p[0] | (uint64_t)p[k >> 1] << (8 * (k >> 1)) | (uint64_t)p[k - 1] << (8 * (k - 1));
}

/* Bytes of w written escaped, as bits 0..7 (bit i: byte i), only those of
 * the first k bytes (1 <= k <= 8): tool.h's test (SSE2 compares the eight
 * bytes in a vector register: a third of the instructions of the portable
 * masks, which stay for every other target and for -Dsimd=disabled). */
static inline unsigned json_hits(uint64_t w, size_t k)
{
#if defined(TOOL_SSE2)
    return tool_json_hits_v16(_mm_cvtsi64_si128((long long)w)) & ((1u << k) - 1);
#else
    return tool_json_hits8(w) & ((1u << k) - 1);
#endif
}

/* json_hits() of two words at once (a's first k bytes, b's), nonzero if
 * either has a byte to escape: SSE2 tests both in one register. */
static inline unsigned json_hits2(uint64_t a, uint64_t b, size_t k)
{
#if defined(TOOL_SSE2)
    const unsigned first = (1u << k) - 1;
    return tool_json_hits_v16(_mm_set_epi64x((long long)b, (long long)a)) & (first | first << 8);
#else
    return json_hits(a, k) | json_hits(b, k);
#endif
}

/* Length of the run of bytes >= 0x80 at p[0..avail) (at least 1 when
 * p[0] is one). Valid UTF-8 is ASCII bytes and whole multibyte sequences,
 * whose bytes are all >= 0x80, so text is valid iff each such run is. */
static inline size_t high_run(const uint8_t *p, size_t avail)
{
    size_t i = 0;
    while (avail - i >= 8) {
        uint64_t lo = ~mote__load8(p + i) & MOTE__HIGHS;
        if (lo) return i + mote__first8(lo);
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
            uint64_t h = mote__load8(p + i) & MOTE__HIGHS;
            if (!h) {
                i += 8;
                continue;
            }
            i += mote__first8(h);
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

/* The escape of every byte json_hits() flags, as an 8-byte word and a
 * length: a hit is written with one store and one add, no branch on which
 * escape it is (a switch's jump table mispredicted on every tab of COPY
 * data). */
static struct esc_table {
    uint8_t w[256][8];
    uint8_t len[256];
} esc_table;

static void esc_table_init(void)
{
    static const char hex[] = "0123456789abcdef";
    static const uint8_t short_esc[32] = {['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n',
                                          ['\f'] = 'f', ['\r'] = 'r'};
    if (esc_table.len[0]) return;
    for (unsigned c = 0; c < 256; c++) {
        uint8_t *w = esc_table.w[c];
        if (c == '"' || c == '\\' || (c < 0x20 && short_esc[c])) {
            w[0] = '\\';
            w[1] = c < 0x20 ? short_esc[c] : (uint8_t)c;
            esc_table.len[c] = 2;
        } else if (c < 0x20) {
            memcpy(w, "\\u00", 4);
            w[4] = (uint8_t)hex[c >> 4];
            w[5] = (uint8_t)hex[c & 15];
            esc_table.len[c] = 6;
        } else {
            w[0] = (uint8_t)c;
            esc_table.len[c] = 1;
        }
    }
}

/* The escape of one byte c (a hit of json_hits) at
 * d, 8 bytes stored (the slack takes the rest); returns the end. */
static inline uint8_t *put_escape(uint8_t *d, uint8_t c)
{
    memcpy(d, esc_table.w[c], 8);
    return d + esc_table.len[c];
}

static MOTE_NOINLINE bool json_any(tool_buf *o, const uint8_t *p, size_t n, tool_json_style style);

bool tool_buf_json(tool_buf *o, const uint8_t *p, size_t n, tool_json_style style)
{
    /* Short text with nothing to escape (the names, keys and tag values of
     * lp dump, TOOL_JSON_UTF8) as one or two words, tested and stored,
     * before json_any()'s segments and frame: lp dump of TSBS lines spent 45
     * instructions per string there before its first word. Not for sql
     * split's tokens (TOOL_JSON_UTF8_CHECK, or TOOL_JSON_UTF8 only for
     * tokens too long for this): short COPY rows have tabs to escape, and
     * took 1% more instructions with the test in front (0.5% still, for the
     * call: json_any() inlined here costs lp dump 8%). */
    if (style == TOOL_JSON_UTF8 && n - 1 < 16 && TOOL_BUF_CAP - o->len >= 16 + TOOL_BUF_SLACK) {
        const size_t k = n >= 8 ? 8 : n;
        const uint64_t a = n >= 8 ? mote__load8(p) : load_partial(p, n);
        const uint64_t b = n > 8 ? mote__load8(p + n - 8) : a; /* (overlapping a) */
        if (!json_hits2(a, b, k)) {
            uint8_t *d = o->p + o->len;
            mote__store8(d, a);
            if (n > 8) mote__store8(d + n - 8, b);
            o->len += n;
            return true;
        }
    }
    return json_any(o, p, n, style);
}

/* tool_buf_json()'s general case: any length, escapes, bytes >= 0x80. */
static MOTE_NOINLINE bool json_any(tool_buf *o, const uint8_t *p, size_t n, tool_json_style style)
{
    /* UTF-8 is checked after the text is written, only over the words that
     * had a byte >= 0x80 (most text is ASCII), so the escape loop below has no
     * UTF-8 case: multibyte sequences are copied like any clean byte. That
     * needs the caller's room for all of it (nothing flushed to take back);
     * without it, check first. */
    if (style == TOOL_JSON_UTF8_CHECK && (TOOL_BUF_CAP - o->len) / 6 < n + TOOL_BUF_SLACK) {
        if (!tool_utf8_ok(p, n)) return false;
        style = TOOL_JSON_UTF8;
    }
    const uint8_t *s = p, *pend = p + n;
    /* the words with a byte >= 0x80, from the first one's start to the last
     * one's end: the bytes around them are ASCII, so this span starts and
     * ends at whole sequences, and only it needs the validator */
    const uint8_t *hi_first = NULL, *hi_end = NULL;
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
            /* eight bytes, or the last 1..7 (text shorter than a word, a
             * tail) without reading past them; the word is stored from the
             * register, so nothing past the text is read either */
            size_t k = (size_t)(pend - s);
            uint64_t w;
            if (k >= 8) {
                k = 8;
                w = mote__load8(s);
            } else {
                w = load_partial(s, k);
            }
            unsigned m = json_hits(w, k);
            if (w & MOTE__HIGHS) {
                if (!hi_first) hi_first = s;
                hi_end = s + k;
            }
            mote__store8(d, w); /* the clean bytes before the first hit */
            if (!m) {
                d += k;
                s += k;
                continue;
            }
            /* every hit of the word in turn, each followed by the rest of
             * the word (the slack takes what lands past) */
            size_t done = 0;
            do {
                size_t i = (size_t)mote__ctz64(m);
                d = put_escape(d + (i - done), (uint8_t)(w >> (8 * i)));
                done = i + 1;
                mote__store8(d, w >> (8 * i) >> 8);
                m &= m - 1;
            } while (m);
            d += k - done;
            s += k;
        }
        o->len = (size_t)(d - o->p);
    }
    return style != TOOL_JSON_UTF8_CHECK || !hi_first ||
           mote_utf8_valid(hi_first, (size_t)(hi_end - hi_first));
}
