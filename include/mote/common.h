/*
 * mote/common.h - types shared by every mote module.
 *
 * One error enum for the whole library (0 is success), byte views, and the
 * allocator callback through which arenas grow. Every function that can fail
 * returns a mote_err (or reports one through an out parameter) and says in its
 * header comment which codes it returns.
 */
#ifndef MOTE_COMMON_H
#define MOTE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MOTE_VERSION_MAJOR 0
#define MOTE_VERSION_MINOR 1
#define MOTE_VERSION_PATCH 0
#define MOTE_VERSION_STRING "0.1.0"

/*
 * MOTE_SMALL selects the smaller of two equivalent code paths where a module
 * has both: no lookup tables, no unrolled or word-at-a-time fast paths. The
 * results are identical either way (the unit suite runs on both: the armhf
 * build forces MOTE_SMALL=1). Default: on when compiling for size (-Os, as
 * the Cortex-M cross files do); override with -DMOTE_SMALL=0/1 or meson
 * -Dsmall=true/false.
 */
#ifndef MOTE_SMALL
#if defined(__OPTIMIZE_SIZE__)
#define MOTE_SMALL 1
#else
#define MOTE_SMALL 0
#endif
#endif

/*
 * MOTE_NODISCARD marks a call whose result must be looked at: every call that
 * can fail (it returns a mote_err, or a count/pointer that says it failed).
 * Ignoring such a result is how a short write or a full buffer goes unseen, so
 * the compiler is asked to warn. Note that GCC's C attribute is not silenced
 * by a (void) cast: a caller that really has nothing to do with the result
 * still has to look at it (assert it, or branch on it).
 */
#if defined(__cplusplus) && __cplusplus >= 201703L
#define MOTE_NODISCARD [[nodiscard]]
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 202311L
#define MOTE_NODISCARD [[nodiscard]]
#elif defined(__GNUC__) || defined(__clang__)
#define MOTE_NODISCARD __attribute__((warn_unused_result))
#else
#define MOTE_NODISCARD
#endif

/*
 * Error codes. Values are stable: they are grouped by the layer that first
 * needs them, but any module may return any code whose meaning fits.
 * mote_err_name() gives the code as a short upper-case name ("TOO_LONG"),
 * mote_err_message() a one-line English description. Both return static
 * strings and never NULL (unknown codes give "UNKNOWN").
 */
typedef enum mote_err {
    MOTE_OK = 0,

    /* general, 1..19 */
    MOTE_ERR_INVALID = 1,      /* bad argument: NULL context, bad alignment, bad option */
    MOTE_ERR_NOMEM = 2,        /* arena/pool/allocator could not provide memory */
    MOTE_ERR_OVERFLOW = 3,     /* size arithmetic would overflow size_t (or a format limit) */
    MOTE_ERR_LIMIT = 4,        /* a configured cap was reached (buffer cap, depth limit) */
    MOTE_ERR_IO = 5,           /* read/write/fstat failed; errno holds the reason */
    MOTE_ERR_NEED_MORE = 6,    /* not an error: streaming call needs more input */
    MOTE_ERR_STATE = 7,        /* call not valid in the object's current state */
    MOTE_ERR_SPACE = 8,        /* caller-supplied output buffer too small (size reported) */

    /* scan, 20..39 */
    MOTE_ERR_TOO_LONG = 20,          /* token longer than the configured maximum */
    MOTE_ERR_UNTERMINATED_QUOTE = 21,/* end of input inside a quoted string */
    MOTE_ERR_UNTERMINATED_COMMENT = 22, /* end of input inside a block comment */
    MOTE_ERR_BAD_DELIMITER = 23,     /* DELIMITER command or option with a bad delimiter */

    /* lp, 40..69 */
    MOTE_ERR_SYNTAX = 40,            /* generic line-protocol syntax error */
    MOTE_ERR_NO_FIELDS = 41,         /* a point without any field */
    MOTE_ERR_EMPTY_NAME = 42,        /* empty measurement, tag key, tag value or field key */
    MOTE_ERR_BAD_VALUE = 43,         /* field value not a valid float/int/uint/bool/string */
    MOTE_ERR_RANGE = 44,             /* number outside the range of its type */
    MOTE_ERR_BAD_TIMESTAMP = 45,     /* timestamp not an integer or out of range */
    MOTE_ERR_BAD_ESCAPE = 46,        /* e.g. tag value ending in a backslash */
    MOTE_ERR_UNTERMINATED_STRING = 47, /* string field without closing quote */
    MOTE_ERR_NOT_FINITE = 48,        /* NaN or infinity where the format has none */
    MOTE_ERR_TYPE = 49,              /* value of another type than asked for */

    /* cql, 70..99 */
    MOTE_ERR_TRUNCATED = 70,         /* input ends before the value does */
    MOTE_ERR_TRAILING = 71,          /* bytes left over after the value */
    MOTE_ERR_BAD_LENGTH = 72,        /* negative or impossible count/length */
    MOTE_ERR_BAD_VINT = 73,          /* malformed or overlong vint */
    MOTE_ERR_UNEXPECTED_NULL = 74,   /* null where none is allowed (vector element) */
    MOTE_ERR_DIMENSION = 75,         /* element count does not match the type */
    MOTE_ERR_BAD_TYPE = 76,          /* type text / marshal class name not understood */
    MOTE_ERR_DEPTH = 77,             /* nesting deeper than the configured limit */
    MOTE_ERR_MISMATCH = 78,          /* value does not fit the type */
    MOTE_ERR_DUPLICATE = 79,         /* set element or map key given twice */

    /* wire, 100..119 */
    MOTE_ERR_PROTOCOL = 100,         /* bytes received are not CQL v4 response frames
                                        (version byte, body over 256 MiB, bad stream id,
                                        compressed body): close the connection */
    MOTE_ERR_UNKNOWN_STREAM = 101    /* response on a stream id with no request in flight */
} mote_err;

/*
 * True if s[0..n) is valid UTF-8 as RFC 3629 defines it: no overlong forms,
 * no surrogates (U+D800..U+DFFF), nothing past U+10FFFF. The rule Cassandra's
 * text validator and the line-protocol reference decoder both apply; s may
 * be NULL when n is 0.
 */
bool mote_utf8_valid(const void *s, size_t n);

/* Short static name of an error code, e.g. "TOO_LONG"; "OK" for 0. */
const char *mote_err_name(mote_err code);
/* One-line static description of an error code. In MOTE_SMALL builds
 * (microcontrollers) the descriptions are left out to save 700 bytes of
 * flash and this returns the name, as mote_err_name() does. */
const char *mote_err_message(mote_err code);

/* A read-only view of bytes owned by someone else. */
typedef struct mote_view {
    const uint8_t *ptr;
    size_t len;
} mote_view;

/*
 * Position of a byte in a stream. offset counts bytes from the start of the
 * stream (0-based); line and column are 1-based, column counts bytes.
 * 64-bit so that streams larger than 4 GiB on 32-bit hosts stay exact.
 */
typedef struct mote_pos {
    uint64_t offset;
    uint64_t line;
    uint64_t column;
} mote_pos;

/*
 * Allocator callback, the only way mote obtains memory beyond what the caller
 * handed over:
 *   ptr == NULL, new_size > 0 : allocate new_size bytes, aligned for any type
 *   ptr != NULL, new_size == 0: free ptr (old_size is its size); return NULL
 *   ptr != NULL, new_size > 0 : resize (may move), like realloc
 * Returns NULL on failure (the old block stays valid). ctx is passed through.
 */
typedef void *(*mote_alloc_fn)(void *ctx, void *ptr, size_t old_size, size_t new_size);

/* Size arithmetic helpers: return true and store the result if it fits. */
static inline bool mote_size_add(size_t a, size_t b, size_t *out)
{
    if (a > SIZE_MAX - b) return false;
    *out = a + b;
    return true;
}

static inline bool mote_size_mul(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a) return false;
    *out = a * b;
    return true;
}

#ifdef __cplusplus
}
#endif

#endif /* MOTE_COMMON_H */
