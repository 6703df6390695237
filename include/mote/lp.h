/*
 * mote/lp.h - InfluxDB line protocol: zero-copy tokenizer, typed decoder,
 * streaming decoder and escaping writer.
 *
 *   measurement[,tag=value...] field=value[,field=value...] [timestamp]
 *
 * The decoder hands out views into the input, never copies: the measurement,
 * every tag key and value, every field key and raw value, and the timestamp.
 * A view (mote_lp_text) says whether it still holds escape sequences;
 * mote_lp_unescape() undoes them into a caller buffer on demand (the result
 * is never longer than the view). Nothing here allocates: there is no heap
 * use per line, and no fixed limit on the number of tags or fields (the
 * first ones go into caller arrays, all of them can be iterated).
 *
 * Errors are per line (partial-write semantics): a bad line yields one
 * mote_lp_error with code, line, column and byte offset and a short static
 * message, and decoding goes on with the next line, so a batch yields every
 * good point and every error, in input order.
 *
 * The dialect (docs/lp.md has the full list and the conformance deviations):
 *   - Lines end at '\n' or "\r\n" (a lone '\r' is an error, except as the
 *     last byte of the input). Blank lines, lines of spaces and comment lines
 *     (optional spaces, then '#') are skipped; leading spaces are allowed.
 *   - Measurement: any bytes but ',' ' ' and control bytes (0x00-0x1f, 0x7f),
 *     escapes "\," "\ ". Tag keys, tag values, field keys: any bytes but ','
 *     '=' ' ' and control bytes, escapes "\," "\=" "\ ". A backslash before
 *     any other byte is a literal backslash ("\\" stays two bytes). These and
 *     string values must be valid UTF-8.
 *   - Field values: float (decimal, optional fraction and exponent; no hex,
 *     no '_', no inf/nan), "12i" int64, "12u" uint64, "\"...\"" string (raw
 *     newlines allowed, escapes "\"" and "\\" only), booleans t T true True
 *     TRUE f F false False FALSE.
 *   - One or more spaces separate the sections; the timestamp is an int64 in
 *     the configured precision, converted to ns with an overflow check.
 *
 * Thread safety: a decoder, stream or writer is used by one thread at a time.
 */
#ifndef MOTE_LP_H
#define MOTE_LP_H

#include "mote/common.h"
#include "mote/arena.h"
#include "mote/buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Timestamp precision of the input (and of the writer's output). */
typedef enum mote_lp_precision {
    MOTE_LP_NS = 0,
    MOTE_LP_US = 1,
    MOTE_LP_MS = 2,
    MOTE_LP_S = 3
} mote_lp_precision;

/* Field value types. */
typedef enum mote_lp_type {
    MOTE_LP_FLOAT = 1,
    MOTE_LP_INT = 2,
    MOTE_LP_UINT = 3,
    MOTE_LP_STRING = 4,
    MOTE_LP_BOOL = 5
} mote_lp_type;

/* Escape context of a view: which escape sequences it may hold. */
enum {
    MOTE_LP_ESC_MEASUREMENT = 0, /* "\,"  "\ " */
    MOTE_LP_ESC_KEY = 1,         /* "\,"  "\="  "\ " (tag keys, tag values, field keys) */
    MOTE_LP_ESC_STRING = 2       /* "\""  "\\"  (string field values) */
};

/*
 * A view into the input as written. escaped is true if it holds at least one
 * escape sequence of its context (then mote_lp_unescape() gives the real
 * bytes, which are shorter); if false, ptr[0..len) are the real bytes.
 */
typedef struct mote_lp_text {
    const uint8_t *ptr;
    size_t len;
    bool escaped;
    uint8_t context;    /* MOTE_LP_ESC_* */
} mote_lp_text;

typedef struct mote_lp_tag {
    mote_lp_text key;
    mote_lp_text value;
} mote_lp_tag;

/*
 * A field. raw is the value as written: numbers without their 'i'/'u'
 * suffix, strings without their quotes (escaped if they hold "\"" or "\\"),
 * booleans as spelled; type is known from the syntax. The typed value is set
 * by mote_lp_point_decode() (for the fields in the caller array) or
 * mote_lp_field_decode(); for strings value.s is the same as raw.
 */
typedef struct mote_lp_field {
    mote_lp_text key;
    mote_lp_text raw;
    mote_lp_type type;
    bool decoded;       /* value below is valid */
    union {
        double f;
        int64_t i;
        uint64_t u;
        bool b;
        mote_lp_text s;
    } value;
} mote_lp_field;

/*
 * One decoded line. Before decoding, give it caller arrays with
 * mote_lp_point_init(); the decoder fills the first tags_cap tags and
 * fields_cap fields and sets ntags/nfields to the totals of the line (which
 * may be larger: iterate with mote_lp_tags_begin()/mote_lp_fields_begin() to
 * see them all). Arrays may be NULL with cap 0 (iteration only).
 * All views point into the input (or into a stream's carry buffer) and stay
 * valid as long as that memory does (for a stream: until its next call).
 */
typedef struct mote_lp_point {
    mote_lp_text measurement;
    bool has_time;
    bool decoded;            /* mote_lp_point_decode() succeeded: values and time set */
    mote_lp_tag *tags;
    size_t tags_cap;
    size_t ntags;
    mote_lp_field *fields;
    size_t fields_cap;
    size_t nfields;
    mote_view tag_section;   /* the tags as written (after the measurement's ','), may be empty */
    mote_view field_section; /* the fields as written */
    mote_view time_text;     /* the timestamp as written; len 0 if absent */
    int64_t time;            /* ns (after mote_lp_point_decode); the default time,
                                rounded down to the precision, if absent */
    mote_view text;          /* the line from its measurement on, without "\n" / "\r\n" */
    uint64_t offset;         /* byte offset of the measurement in the input/stream */
    uint64_t line;           /* its 1-based line number */
    uint64_t column;         /* its 1-based column (1 unless the line starts with spaces) */
    mote_lp_field spare;     /* private: where mote_lp_point_decode() checks a field
                                beyond fields_cap (no big local on a small stack) */
} mote_lp_point;

/* A per-line error. message is static (a short English phrase; in MOTE_SMALL
 * builds the code's name, see mote_err_message); pos is where the problem
 * was found. */
typedef struct mote_lp_error {
    mote_err code;
    mote_pos pos;
    const char *message;
    uint64_t line_offset;    /* byte offset of the start of the bad line */
} mote_lp_error;

typedef struct mote_lp_config {
    mote_lp_precision precision; /* of timestamps in the input; default ns */
    int64_t default_time;        /* ns, for points without a timestamp; default 0 */
    size_t max_line;             /* longest line in bytes (without "\n"), 0 = no limit */
    size_t max_key;              /* longest measurement/tag key/tag value/field key as
                                    written, 0 = no limit */
    size_t max_string;           /* longest string field value as written, 0 = no limit */
} mote_lp_config;

#define MOTE_LP_KEY_CACHE 32
/* Key prediction sets, one per measurement seen lately: 8 on 64-bit
 * targets, 1 (no measurement kept) on 32-bit ones such as microcontrollers.
 * Chosen by the target's pointer width, so a library and its caller always
 * agree on the struct's size. */
#if defined(UINTPTR_MAX) && UINTPTR_MAX > 0xffffffffu
#define MOTE_LP_KEY_SETS 8
#else
#define MOTE_LP_KEY_SETS 1
#endif

/* Private: one key prediction set. */
typedef struct mote__lp_keys {
    /* Where the last keys seen in each tag/field position (modulo 16) of a
     * line of this set are in the input (len 0: none). A key equal to its
     * predecessor is compared, not scanned. */
    const uint8_t *ptr[MOTE_LP_KEY_CACHE];
    uint8_t len[MOTE_LP_KEY_CACHE];
#if MOTE_LP_KEY_SETS > 1
    const uint8_t *meas; /* the set's measurement in the input, its ',' or ' ' after it */
    uint64_t meas_word;  /* its first 8 bytes with the byte after (as read by
                            a little-endian load) ... */
    uint64_t meas_mask;  /* ... and which of them count (none: never equal) */
    uint8_t meas_len;    /* 0: none */
    uint8_t meas_tag;    /* two of its bytes mixed: compared before them all */
    uint16_t next;       /* set of the line that followed the last one of this
                            set (byte offset in keys) */
#endif
} mote__lp_keys;

/* A byte offset and its line number (private): one pointer hands both to
 * the library's error path (four argument registers on Arm). */
typedef struct mote__lp_at {
    uint64_t offset;
    uint64_t line;
} mote__lp_at;

/* Fields are private; the struct is visible so callers can place it anywhere. */
typedef struct mote_lp_decoder {
    const uint8_t *cur;
    const uint8_t *end;
    mote__lp_at at;      /* stream offset and line number of cur */
    mote_lp_config cfg;
#if MOTE_LP_KEY_SETS > 1
    uint16_t keys_cur;   /* set of the last line (byte offset in keys) */
    uint8_t keys_victim; /* next set to take for a new measurement */
    uint8_t keys_miss;   /* searches in a row that found no set */
#endif
    mote__lp_keys keys[MOTE_LP_KEY_SETS]; /* key prediction: last */
} mote_lp_decoder;

/* Defaults: ns precision, default time 0, no limits. Returns MOTE_OK, or
 * MOTE_ERR_INVALID if cfg is NULL. */
MOTE_NODISCARD mote_err mote_lp_config_init(mote_lp_config *cfg);

/* Set the caller arrays of a point (either may be NULL with cap 0) and clear
 * the rest. Returns MOTE_OK, or MOTE_ERR_INVALID if pt is NULL (nothing
 * written) or an array is NULL with a cap > 0 (the point is cleared and
 * left with no arrays: it can still be used for iteration). */
MOTE_NODISCARD mote_err mote_lp_point_init(mote_lp_point *pt, mote_lp_tag *tags, size_t tags_cap,
                                           mote_lp_field *fields, size_t fields_cap);

/*
 * Start decoding data[0..len), the complete input. cfg may be NULL
 * (defaults). The caller keeps data alive and unchanged while the decoder and
 * any point views are used. Returns MOTE_OK, or MOTE_ERR_INVALID (d NULL,
 * data NULL with len > 0, bad precision).
 */
MOTE_NODISCARD mote_err mote_lp_decoder_init(mote_lp_decoder *d, const void *data, size_t len,
                              const mote_lp_config *cfg);

/*
 * Tokenize the next line (blank and comment lines are skipped): every view,
 * the kind of every field value, the timestamp's text; the whole line is
 * checked except the conversion of values and timestamp, which
 * mote_lp_point_decode() does (a separate call, so that a program that only
 * tokenizes links no number conversion: no floating point, no 64-bit
 * division on small cores).
 * Returns:
 *   MOTE_OK            *pt holds a point (views into the input).
 *   MOTE_ERR_NEED_MORE the input is used up; no more points (not an error).
 *   any other code     the line was bad: *err (if not NULL) says where and
 *                      why, the line is skipped, the next call goes on with
 *                      the next line. Codes: MOTE_ERR_SYNTAX, _NO_FIELDS,
 *                      _EMPTY_NAME, _BAD_VALUE (missing value or one of no
 *                      known kind), _BAD_TIMESTAMP, _UNTERMINATED_STRING,
 *                      _TOO_LONG (a limit of the options), and
 *                      MOTE_ERR_INVALID if d or pt is NULL.
 * A line that ends in the middle of a string value runs on to the string's
 * closing quote (raw newlines are part of a string).
 */
MOTE_NODISCARD mote_err mote_lp_next(mote_lp_decoder *d, mote_lp_point *pt, mote_lp_error *err);

/*
 * Typed decoding of a point from mote_lp_next()/mote_lp_stream_next():
 * converts the values of the fields in the caller array (value set, decoded
 * true), checks those beyond it, and converts the timestamp to ns in
 * cfg->precision (absent: cfg->default_time rounded down to the precision).
 * cfg may be NULL (ns, default time 0). Returns MOTE_OK (pt->decoded set), or
 * for a bad value MOTE_ERR_BAD_VALUE, MOTE_ERR_RANGE or
 * MOTE_ERR_BAD_TIMESTAMP with *err (if not NULL) giving its position: the
 * whole line is then bad (decoding goes on with the next line as usual).
 * MOTE_ERR_INVALID for a NULL pt or a bad precision.
 *
 *   while ((rc = mote_lp_next(&d, &pt, &err)) != MOTE_ERR_NEED_MORE) {
 *       if (rc == MOTE_OK) rc = mote_lp_point_decode(&pt, &cfg, &err);
 *       ...
 */
MOTE_NODISCARD mote_err mote_lp_point_decode(mote_lp_point *pt, const mote_lp_config *cfg, mote_lp_error *err);

/*
 * Streaming decoder: the same points and errors as mote_lp_next() on the
 * whole input, for any chunking (a split may fall anywhere: between a
 * backslash and the byte it escapes, inside a string, between CR and LF).
 *
 * Lines complete inside a chunk are decoded in place (views into the chunk).
 * A line that straddles chunks is gathered in the caller's carry buffer: its
 * bytes are copied there once, and the split state (section, string, escape)
 * is kept, so nothing already seen is scanned again when the next chunk
 * arrives. A line longer than carry_cap - 1 bytes (or than cfg->max_line) is
 * dropped and reported as MOTE_ERR_TOO_LONG at its start; memory use is
 * fixed at carry_cap.
 */
typedef struct mote_lp_stream {
    /* Private. On 32-bit targets bytes first, then words, the decoder
     * (with its key prediction set) last: every field stays within the
     * short load/store offsets of a 16-bit Thumb instruction on Cortex-M.
     * On 64-bit ones the decoder first, at the stream's own address (no
     * register to compute it per call). */
#if MOTE_LP_KEY_SETS > 1
    mote_lp_decoder dec;
#endif
    uint8_t state;         /* split state at the end of the carried bytes */
    bool carrying;         /* a line is being gathered */
    bool dropping;         /* ...and is too long: its bytes are discarded */
    bool finished;
    uint8_t *carry;
    size_t carry_cap;
    size_t carry_len;
    const uint8_t *nl_end; /* after the current chunk's last '\n' */
    mote__lp_at rec;       /* start of the carried/dropped line */
#if MOTE_LP_KEY_SETS == 1
    mote_lp_decoder dec;
#endif
} mote_lp_stream;

/*
 * carry[0..carry_cap) holds a line that straddles chunks (carry_cap >= 2; a
 * line of up to carry_cap - 1 bytes can straddle). Returns MOTE_OK or
 * MOTE_ERR_INVALID.
 */
MOTE_NODISCARD mote_err mote_lp_stream_init(mote_lp_stream *s, const mote_lp_config *cfg,
                             uint8_t *carry, size_t carry_cap);

/*
 * Hand over the next chunk (len may be 0). The previous chunk must be used up
 * (mote_lp_stream_next() returned MOTE_ERR_NEED_MORE); the caller keeps this
 * chunk alive until then. Returns MOTE_OK, MOTE_ERR_STATE (previous chunk not
 * used up, or after finish), MOTE_ERR_INVALID.
 */
MOTE_NODISCARD mote_err mote_lp_stream_feed(mote_lp_stream *s, const void *chunk, size_t len);

/* No more input: a carried last line without '\n' is decoded by the next
 * calls. Returns MOTE_OK or MOTE_ERR_STATE (chunk not used up). */
MOTE_NODISCARD mote_err mote_lp_stream_finish(mote_lp_stream *s);

/*
 * Next point or error, as mote_lp_next(). MOTE_ERR_NEED_MORE: feed the next
 * chunk (or, after finish, the input is done). Views stay valid until the
 * next call on the stream (and while the current chunk lives).
 */
MOTE_NODISCARD mote_err mote_lp_stream_next(mote_lp_stream *s, mote_lp_point *pt, mote_lp_error *err);

/* Iteration over all tags / fields of a decoded point (also those beyond the
 * caller arrays). The iterator points into the point's views. */
typedef struct mote_lp_iter {
    const uint8_t *p;
    const uint8_t *end;
} mote_lp_iter;

void mote_lp_tags_begin(const mote_lp_point *pt, mote_lp_iter *it);
/* true and *tag set, or false after the last tag. */
bool mote_lp_tags_next(mote_lp_iter *it, mote_lp_tag *tag);
void mote_lp_fields_begin(const mote_lp_point *pt, mote_lp_iter *it);
/* true and *field set (its value not converted: mote_lp_field_decode()),
 * false after the last. */
bool mote_lp_fields_next(mote_lp_iter *it, mote_lp_field *field);

/*
 * Convert f->raw to its typed value (e.g. for a field from iteration).
 * Returns MOTE_OK (f->decoded set), MOTE_ERR_BAD_VALUE (syntax),
 * MOTE_ERR_RANGE (out of range for its type) or MOTE_ERR_INVALID.
 */
MOTE_NODISCARD mote_err mote_lp_field_decode(mote_lp_field *f);

/*
 * Convert only the point's time_text to ns in the given precision (the
 * default time, rounded down to the precision, when absent). Returns MOTE_OK (pt->time set),
 * MOTE_ERR_BAD_TIMESTAMP or MOTE_ERR_INVALID.
 */
MOTE_NODISCARD mote_err mote_lp_point_decode_time(mote_lp_point *pt, mote_lp_precision precision,
                                   int64_t default_time);

/*
 * Undo the escapes of t into out[0..cap): writes the real bytes, sets *len.
 * The result is never longer than t->len, so cap >= t->len always suffices.
 * out may alias nothing in the input. Returns MOTE_OK, MOTE_ERR_SPACE (cap
 * too small; *len holds the needed size) or MOTE_ERR_INVALID.
 */
MOTE_NODISCARD mote_err mote_lp_unescape(const mote_lp_text *t, uint8_t *out, size_t cap, size_t *len);

/*
 * The real bytes of t as a view: t itself when it holds no escapes (no copy),
 * else a copy unescaped into memory from the arena (at most t->len bytes,
 * living as long as the arena's allocation). Returns MOTE_OK,
 * MOTE_ERR_NOMEM (the arena could not give the memory; *out unchanged) or
 * MOTE_ERR_INVALID.
 */
MOTE_NODISCARD mote_err mote_lp_unescape_arena(const mote_lp_text *t, mote_arena *arena, mote_view *out);

/* ---------------------------------------------------------------------------
 * Writer. Builds lines call by call into a caller buffer:
 *   measurement, tags (0+), fields (1+), end (timestamp optional).
 * Every name and value is given unescaped and escaped as the grammar needs.
 * What cannot be written is refused with an error and nothing of the line is
 * kept (the output is rolled back to the end of the previous line):
 *   MOTE_ERR_EMPTY_NAME  empty measurement, tag key, tag value or field key
 *   MOTE_ERR_BAD_ESCAPE  one of those ending in a backslash (it would escape
 *                        the separator after it)
 *   MOTE_ERR_SYNTAX      control byte (0x00-0x1f, 0x7f) in a name or key,
 *                        measurement starting with '#', invalid UTF-8
 *   MOTE_ERR_NOT_FINITE  NaN or infinite float
 *   MOTE_ERR_STATE       calls out of order (tag after field, end without field)
 *   MOTE_ERR_SPACE       output buffer full (caller buffer)
 *   MOTE_ERR_LIMIT, MOTE_ERR_NOMEM, MOTE_ERR_OVERFLOW  a mote_buf could not grow
 * After an error every call of that line returns the same error until the next
 * mote_lp_write_measurement(), which starts a new line.
 * --------------------------------------------------------------------------- */
typedef struct mote_lp_writer {
    mote_buf *buf;       /* the caller's buffer (init_buf), or NULL: own */
    size_t line_start;   /* where the line being built starts */
    mote_lp_precision precision;
    uint8_t state;       /* private */
    mote_err err;        /* sticky error of the current line */
    mote_buf own;        /* private: init()'s out[0..cap) as a fixed buffer
                          * (last: the fields above keep short offsets) */
} mote_lp_writer;

/* Write into out[0..cap). precision is that of timestamps written by
 * mote_lp_write_end (ns are divided, truncating toward zero). */
MOTE_NODISCARD mote_err mote_lp_writer_init(mote_lp_writer *w, void *out, size_t cap,
                             mote_lp_precision precision);

/*
 * Append lines to a growable buffer (pool, arena or fixed storage; see
 * buf.h): complete lines are buf->data[0..buf->len); a failed line leaves
 * buf->len where it was before the line. The caller keeps buf alive.
 */
MOTE_NODISCARD mote_err mote_lp_writer_init_buf(mote_lp_writer *w, mote_buf *buf,
                                 mote_lp_precision precision);

/* Bytes of complete lines written so far: out[0..n) (for a buf writer: the
 * buffer's length after the last complete line, earlier content included). */
size_t mote_lp_writer_length(const mote_lp_writer *w);

mote_err mote_lp_write_measurement(mote_lp_writer *w, const void *name, size_t len);
/* Tags are written in the order given (InfluxDB sorts them itself). */
mote_err mote_lp_write_tag(mote_lp_writer *w, const void *key, size_t klen,
                           const void *value, size_t vlen);
mote_err mote_lp_write_float(mote_lp_writer *w, const void *key, size_t klen, double v);
mote_err mote_lp_write_int(mote_lp_writer *w, const void *key, size_t klen, int64_t v);
mote_err mote_lp_write_uint(mote_lp_writer *w, const void *key, size_t klen, uint64_t v);
mote_err mote_lp_write_bool(mote_lp_writer *w, const void *key, size_t klen, bool v);
mote_err mote_lp_write_string(mote_lp_writer *w, const void *key, size_t klen,
                              const void *s, size_t slen);
/* End the line with "\n"; time_ns NULL writes no timestamp. */
MOTE_NODISCARD mote_err mote_lp_write_end(mote_lp_writer *w, const int64_t *time_ns);

#ifdef __cplusplus
}
#endif

#endif /* MOTE_LP_H */
