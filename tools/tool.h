/* tool.h - helpers shared by the mote command-line tool's subcommands. */
#ifndef MOTE_TOOL_H
#define MOTE_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mote_private.h" /* bit helpers (src/, tools/meson.build's tool_inc) */

#if defined(__SSE2__) && !defined(MOTE_NO_SIMD)
#define TOOL_SSE2 1
#include <emmintrin.h>
#endif

/* Exit statuses shared by all subcommands, one meaning each:
 *   0  success
 *   1  bad records: each one reported, the rest of the input processed
 *   2  usage error or I/O error (a one-line message with errno's reason)
 * A failed write is an I/O error: partial output never exits 0. */
enum { TOOL_OK = 0, TOOL_DATA_ERROR = 1, TOOL_USAGE = 2, TOOL_IO = 2 };

/* The table above, for 'mote --help' and every command's --help. */
#define TOOL_EXIT_TABLE                                                          \
    "Exit status: 0 ok; 1 bad records (each reported, the rest processed);\n"    \
    "2 usage or I/O error (one line 'mote: WHAT: REASON' on stderr).\n"

/* ---- Buffered, checked output (out.c) ----------------------------------
 * A command's output goes into a TOOL_BUF_CAP buffer of its own and reaches
 * the FILE in whole buffers: no stdio call per field. 32 KiB is as fast as
 * 1 MiB here (measured) and keeps a process's memory near its input's
 * longest record. A failed write sets failed (and err): the caller checks it
 * after each record (tool_buf_check) and stops with exit 2. */
enum { TOOL_BUF_CAP = 1u << 15 };
/* Room a writer may use past what it reserved: an 8-byte word store and a
 * word's escapes past the end of a segment, in input bytes (x 6 output). */
enum { TOOL_BUF_SLACK = 16 };

typedef struct tool_buf {
    uint8_t *p;
    size_t len;
    FILE *f;
    int err;     /* errno of the failed write */
    bool failed; /* a write failed: stop, exit 2 */
} tool_buf;

/* Allocate the buffer for f; 0, or -1 when out of memory. */
int tool_buf_open(tool_buf *o, FILE *f);
/* Write out what is buffered (nothing once a write has failed). */
void tool_buf_flush(tool_buf *o);
/* 0 if no write has failed, else "mote: <what>: <reason>" once and TOOL_IO. */
int tool_buf_check(tool_buf *o, const char *what);
/* Flush, check as above, free the buffer (f stays open: tool_finish closes
 * stdout). */
int tool_buf_close(tool_buf *o, const char *what);

/* Room for n more contiguous bytes (n <= TOOL_BUF_CAP) at the returned
 * pointer, o->p + o->len; the caller writes and then advances o->len. */
static inline uint8_t *tool_buf_room(tool_buf *o, size_t n)
{
    if (TOOL_BUF_CAP - o->len < n) tool_buf_flush(o);
    return o->p + o->len;
}

static inline void tool_buf_mem(tool_buf *o, const void *s, size_t n)
{
    memcpy(tool_buf_room(o, n), s, n);
    o->len += n;
}
/* A string literal, its length known at compile time. */
#define tool_buf_lit(o, lit) tool_buf_mem((o), "" lit, sizeof(lit) - 1)
/* Bytes of a literal at d (room made by the caller); the end. (d is
 * evaluated twice: a variable, not a call.) */
#define TOOL_PUT_LIT(d, lit) (memcpy((d), "" lit, sizeof(lit) - 1), (d) + sizeof(lit) - 1)
/* The same with its terminating NUL stored too, as scratch that what follows
 * overwrites: one 4-byte (8-byte) store for a literal of 3 (7) bytes instead
 * of two or three. Room for sizeof(lit) bytes. */
#define TOOL_PUT_LIT_W(d, lit) (memcpy((d), "" lit, sizeof(lit)), (d) + sizeof(lit) - 1)
void tool_buf_str(tool_buf *o, const char *s);

/* Decimal digits of v at d; returns the end. The library's formatter
 * (src/mote_private.h), inlined: whole 8-byte stores, so the caller makes
 * room for 24 bytes (25 with tool_put_i64's sign). */
enum { TOOL_U64_ROOM = 24 };
static inline uint8_t *tool_put_u64(uint8_t *d, uint64_t v)
{
    return d + mote__num_put_u64(d, v);
}

/* As tool_put_u64, with a '-' first when v < 0: room for 25 bytes. */
static inline uint8_t *tool_put_i64(uint8_t *d, int64_t v)
{
    uint64_t u = (uint64_t)v;
    if (v < 0) {
        *d++ = '-';
        u = 0 - u; /* INT64_MIN too: unsigned negation */
    }
    return tool_put_u64(d, u);
}

void tool_buf_u64(tool_buf *o, uint64_t v);

/* ---- The bytes JSON escapes: '"', '\\' and those below 0x20 -------------
 * One test for every writer of JSON text (out.c's escaper and the short
 * path below), 16 bytes at a time: SSE2 compares (all of x86-64), else the
 * library's SWAR masks over two words (every other target, and
 * -Dsimd=disabled: MOTE_NO_SIMD, as in the library). tool_v16 is 16 bytes
 * in a register or two; the lowest bit of a mask names the first byte. */
#if defined(TOOL_SSE2)
typedef __m128i tool_v16;
static inline tool_v16 tool_v16_load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
static inline void tool_v16_store(uint8_t *d, tool_v16 v)
{
    _mm_storeu_si128((__m128i *)(void *)d, v);
}
/* The bytes of v JSON escapes, as bits 0..15 (bit i: byte i). */
static inline unsigned tool_json_hits_v16(tool_v16 v)
{
    __m128i m = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v),
                             _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                          _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
    return (unsigned)_mm_movemask_epi8(m);
}
#else
/* The bytes of w (a word from mote__load8) JSON escapes, as bits 0..7. */
static inline unsigned tool_json_hits8(uint64_t w)
{
    uint64_t m = mote__lt8(w, 0x20) | mote__eq8(w, '"') | mote__eq8(w, '\\');
    /* bit 7 of byte i to bit i (multiply-gather: no two terms carry into
     * the same bit) */
    return (unsigned)(((m >> 7) * 0x0102040810204080ull) >> 56);
}
typedef struct tool_v16 {
    uint64_t lo, hi;
} tool_v16;
static inline tool_v16 tool_v16_load(const uint8_t *p)
{
    tool_v16 v = {mote__load8(p), mote__load8(p + 8)};
    return v;
}
static inline void tool_v16_store(uint8_t *d, tool_v16 v)
{
    mote__store8(d, v.lo);
    mote__store8(d + 8, v.hi);
}
static inline unsigned tool_json_hits_v16(tool_v16 v)
{
    return tool_json_hits8(v.lo) | tool_json_hits8(v.hi) << 8;
}
#endif

/* Room tool_json_short may write at d. */
enum { TOOL_JSON_SHORT_ROOM = 32 };

/* tool_buf_json's short path for a writer that has made room itself
 * (TOOL_JSON_SHORT_ROOM bytes at d, which may all be written) and knows what
 * follows its text: p[0..n) is written at d as the inside of a JSON string,
 * style TOOL_JSON_UTF8, when n <= 32 and no byte of it needs escaping;
 * returns the end (d + n). Else NULL, nothing counted (the bytes at d are
 * scratch): the caller goes through tool_buf_json.
 * MUST: p[0..16) readable whatever n (the rest of the caller's line, say):
 * text under 16 bytes is tested and copied as one 16-byte load, with no
 * partial loads or length-dependent copies; the bytes past n are masked out
 * of the test, and their copies past d + n are overwritten by what follows.
 * 'mote lp dump' of TSBS spent ~50 instructions per name, key and tag value
 * in tool_buf_json's own short path (a call, the room and style tests, up to
 * three partial loads); this is about 15 for text up to 16 bytes. */
static inline uint8_t *tool_json_short(uint8_t *d, const uint8_t *p, size_t n)
{
    const tool_v16 a = tool_v16_load(p);
    if (n <= 16) {
        if (tool_json_hits_v16(a) & ((1u << n) - 1)) return NULL; /* (n 0: d) */
        tool_v16_store(d, a);
        return d + n;
    }
    if (n > 32) return NULL;
    /* 17..32 bytes: the first 16 and the last 16, overlapping */
    const tool_v16 b = tool_v16_load(p + n - 16);
    if (tool_json_hits_v16(a) | tool_json_hits_v16(b)) return NULL;
    tool_v16_store(d, a);
    tool_v16_store(d + n - 16, b);
    return d + n;
}

/* How tool_buf_json writes the inside of a JSON string. */
typedef enum tool_json_style {
    /* the bytes are UTF-8 and stay as they are; only '"', '\\' and bytes
     * below 0x20 are escaped (\b \t \n \f \r where JSON has them, else
     * \u00XX) */
    TOOL_JSON_UTF8,
    /* the same, and stop with false at the first byte that is not UTF-8 */
    TOOL_JSON_UTF8_CHECK
} tool_json_style;

/* p[0..n) as the inside of a JSON string in the given style; true, or false
 * (TOOL_JSON_UTF8_CHECK met a byte that is not UTF-8: the caller drops what
 * was written, after making room for all of it first so that nothing was
 * flushed: (n + TOOL_BUF_SLACK) * 6 bytes). */
bool tool_buf_json(tool_buf *o, const uint8_t *p, size_t n, tool_json_style style);
/* One bad record, the same for every command:
 *   {"error":"NAME","message":"MESSAGE","line":LINE,"POS_KEY":POS}\n
 * (the message is static ASCII text). */
void tool_buf_error(tool_buf *o, const char *name, const char *message, uint64_t line,
                    const char *pos_key, uint64_t pos);
/* p[0..n) is valid UTF-8 (RFC 3629), ASCII skipped eight bytes at a time. */
bool tool_utf8_ok(const uint8_t *p, size_t n);

/* Print "mote: <msg>" to stderr and return TOOL_USAGE. */
int tool_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Print "mote: <what>: <strerror(err)>" (err 0: EIO's text) and return
 * TOOL_IO. */
int tool_io_error(const char *what, int err);

/* Parse a size argument: decimal digits, optionally followed by one binary
 * suffix K, M or G (case-insensitive; 1K = 1024), e.g. "65536", "64K",
 * "1G". 0 is accepted (callers decide what it means). Returns 0 on success,
 * -1 if not of that form or the value does not fit size_t. */
int tool_parse_size(const char *s, size_t *out);
/* Parse a signed decimal int64 argument; 0 on success, -1 otherwise. */
int tool_parse_i64(const char *s, int64_t *out);

/* Open FILE or "-" (stdin) for reading; NULL (and a one-line error naming
 * the file, with errno's reason) on failure. */
FILE *tool_open_input(const char *path);
/* The name to show for an input path in messages ("-" is "stdin"). */
const char *tool_input_name(const char *path);

/* Read up to n bytes; returns the count (0 at end of input or on error). On
 * a read error (a directory, a closed or unreadable descriptor) prints
 * "mote: <name>: <reason>" and sets *failed (stays false otherwise). */
size_t tool_read(FILE *in, const char *path, void *buf, size_t n, bool *failed);

/* Checked output. tool_out_ok: 0 if no write to f has failed so far, else
 * prints "mote: <what>: <reason>" and returns TOOL_IO; call it after each
 * record so a full disk or a closed pipe stops the work early.
 * tool_out_close: flush, check and close f (stdout too: the last chance to
 * see a deferred error); 0 or TOOL_IO as above. */
int tool_out_ok(FILE *f, const char *what);
int tool_out_close(FILE *f, const char *what);
/* Wraps a command's result: closes stdout checked; a failure there turns
 * any status into TOOL_IO. */
int tool_finish(int status);

/* Subcommands; each takes argv after the command word (argv[0] = command). */
int tool_cmd_sql(int argc, char **argv);
int tool_cmd_lp(int argc, char **argv);
int tool_cmd_cql(int argc, char **argv);

#endif
