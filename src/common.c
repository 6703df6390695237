/* common.c - error names and messages shared by every module. */
#include <string.h>

#include "mote/common.h"

/* MOTE_SMALL leaves the descriptions out: the message is then the name. */
#if MOTE_SMALL
#define MSG(text) ""
#else
#define MSG(text) text "\0"
#endif

/* One entry per code in mote/common.h, in the same order: "NAME\0message\0"
 * (MOTE_SMALL: "NAME\0"), ended by an empty name. Codes count up by one
 * from entry to entry; the first of each group in mote/common.h is marked
 * by a byte below 'A' in front of its name: half its code, in octal (every
 * name and message starts with a letter). No table of
 * codes or pointers: Cortex-M size. */
static const char err_text[] =
    "OK\0" MSG("success")
    "INVALID\0" MSG("invalid argument")
    "NOMEM\0" MSG("out of memory")
    "OVERFLOW\0" MSG("size arithmetic overflow")
    "LIMIT\0" MSG("configured limit reached")
    "IO\0" MSG("input/output error")
    "NEED_MORE\0" MSG("more input needed")
    "STATE\0" MSG("call not valid in this state")
    "SPACE\0" MSG("output buffer too small")
    "\012" "TOO_LONG\0" MSG("token longer than the maximum")
    "UNTERMINATED_QUOTE\0" MSG("end of input inside a quoted string")
    "UNTERMINATED_COMMENT\0" MSG("end of input inside a comment")
    "BAD_DELIMITER\0" MSG("invalid delimiter")
    "\024" "SYNTAX\0" MSG("syntax error")
    "NO_FIELDS\0" MSG("point has no fields")
    "EMPTY_NAME\0" MSG("empty measurement, key or tag value")
    "BAD_VALUE\0" MSG("invalid field value")
    "RANGE\0" MSG("number out of range")
    "BAD_TIMESTAMP\0" MSG("invalid timestamp")
    "BAD_ESCAPE\0" MSG("invalid escape")
    "UNTERMINATED_STRING\0" MSG("string value without closing quote")
    "NOT_FINITE\0" MSG("NaN or infinite number")
    "TYPE\0" MSG("value has another type")
    "\043" "TRUNCATED\0" MSG("input ends before the value")
    "TRAILING\0" MSG("trailing bytes after the value")
    "BAD_LENGTH\0" MSG("invalid count or length")
    "BAD_VINT\0" MSG("malformed vint")
    "UNEXPECTED_NULL\0" MSG("null where none is allowed")
    "DIMENSION\0" MSG("element count does not match the type")
    "BAD_TYPE\0" MSG("type not understood")
    "DEPTH\0" MSG("nesting too deep")
    "MISMATCH\0" MSG("value does not fit the type")
    "DUPLICATE\0" MSG("set element or map key given twice")
    "\062" "PROTOCOL\0" MSG("not a CQL v4 response frame")
    "UNKNOWN_STREAM\0" MSG("response on a stream id not in flight")
    "\0" /* "": the end; then the entry for a code not in the table */
    "UNKNOWN\0" MSG("unknown error");

/* The name (which 0) or message (which 1) of code; an unknown code's come
 * after the table's end (one string base, no second literal). */
static const char *find_err(int code, int which)
{
    const char *s = err_text;
    for (int c = 0; *s; c++) {
        if (*s < 'A') c = 2 * *s++; /* a group starts */
        if (c == code) return which && !MOTE_SMALL ? s + strlen(s) + 1 : s;
        s += strlen(s) + 1;
        if (!MOTE_SMALL) s += strlen(s) + 1;
    }
    s++; /* past the end: UNKNOWN */
    return which && !MOTE_SMALL ? s + strlen(s) + 1 : s;
}

const char *mote_err_name(mote_err code)
{
    return find_err(code, 0);
}

const char *mote_err_message(mote_err code)
{
#if MOTE_SMALL
    return mote_err_name(code); /* no descriptions: the name, an unknown code's too */
#else
    return find_err(code, 1);
#endif
}

bool mote_utf8_valid(const void *data, size_t n)
{
    /* (the end as an integer: data may be NULL with n 0, and NULL + 0 is
     * undefined in C) */
    const uint8_t *s = data, *const end = (const uint8_t *)((uintptr_t)s + n);
    while (s < end) {
        unsigned c = *s++;
        if (c < 0x80) continue;
        if (c < 0xc2 || c > 0xf4) return false;
        /* bytes that follow; the first of them has a narrower range after
         * E0 (no overlongs), ED (no surrogates), F0 (overlongs), F4 (max) */
        size_t need = 1u + (c >= 0xe0) + (c >= 0xf0);
        unsigned lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
        unsigned hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
        if ((size_t)(end - s) < need) return false;
        do {
            c = *s++;
            if (c < lo || c > hi) return false;
            lo = 0x80;
            hi = 0xbf;
        } while (--need);
    }
    return true;
}
