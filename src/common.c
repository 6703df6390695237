/* common.c - error names and messages shared by every module. */
#include <string.h>

#include "mote/common.h"

/* One entry per code in mote/common.h, in the same order: the code here,
 * "NAME\0message\0" in err_text. Packed rather than a table of pointers:
 * on a 32-bit microcontroller that saves 300 of 1550 bytes. */
static const uint8_t err_codes[] = {
    MOTE_OK,
    MOTE_ERR_INVALID,
    MOTE_ERR_NOMEM,
    MOTE_ERR_OVERFLOW,
    MOTE_ERR_LIMIT,
    MOTE_ERR_IO,
    MOTE_ERR_NEED_MORE,
    MOTE_ERR_STATE,
    MOTE_ERR_SPACE,
    MOTE_ERR_TOO_LONG,
    MOTE_ERR_UNTERMINATED_QUOTE,
    MOTE_ERR_UNTERMINATED_COMMENT,
    MOTE_ERR_BAD_DELIMITER,
    MOTE_ERR_SYNTAX,
    MOTE_ERR_NO_FIELDS,
    MOTE_ERR_EMPTY_NAME,
    MOTE_ERR_BAD_VALUE,
    MOTE_ERR_RANGE,
    MOTE_ERR_BAD_TIMESTAMP,
    MOTE_ERR_BAD_ESCAPE,
    MOTE_ERR_UNTERMINATED_STRING,
    MOTE_ERR_NOT_FINITE,
    MOTE_ERR_TYPE,
    MOTE_ERR_TRUNCATED,
    MOTE_ERR_TRAILING,
    MOTE_ERR_BAD_LENGTH,
    MOTE_ERR_BAD_VINT,
    MOTE_ERR_UNEXPECTED_NULL,
    MOTE_ERR_DIMENSION,
    MOTE_ERR_BAD_TYPE,
    MOTE_ERR_DEPTH,
    MOTE_ERR_MISMATCH,
};

static const char err_text[] =
    "OK\0success\0"
    "INVALID\0invalid argument\0"
    "NOMEM\0out of memory\0"
    "OVERFLOW\0size arithmetic overflow\0"
    "LIMIT\0configured limit reached\0"
    "IO\0input/output error\0"
    "NEED_MORE\0more input needed\0"
    "STATE\0call not valid in this state\0"
    "SPACE\0output buffer too small\0"
    "TOO_LONG\0token longer than the maximum\0"
    "UNTERMINATED_QUOTE\0end of input inside a quoted string\0"
    "UNTERMINATED_COMMENT\0end of input inside a comment\0"
    "BAD_DELIMITER\0invalid delimiter\0"
    "SYNTAX\0syntax error\0"
    "NO_FIELDS\0point has no fields\0"
    "EMPTY_NAME\0empty measurement, key or tag value\0"
    "BAD_VALUE\0invalid field value\0"
    "RANGE\0number out of range\0"
    "BAD_TIMESTAMP\0invalid timestamp\0"
    "BAD_ESCAPE\0invalid escape\0"
    "UNTERMINATED_STRING\0string value without closing quote\0"
    "NOT_FINITE\0NaN or infinite number\0"
    "TYPE\0value has another type\0"
    "TRUNCATED\0input ends before the value\0"
    "TRAILING\0trailing bytes after the value\0"
    "BAD_LENGTH\0invalid count or length\0"
    "BAD_VINT\0malformed vint\0"
    "UNEXPECTED_NULL\0null where none is allowed\0"
    "DIMENSION\0element count does not match the type\0"
    "BAD_TYPE\0type not understood\0"
    "DEPTH\0nesting too deep\0"
    "MISMATCH\0value does not fit the type\0";

/* The name (which 0) or message (which 1) of code, or NULL. */
static const char *find_err(int code, int which)
{
    const char *s = err_text;
    for (size_t i = 0; i < sizeof err_codes; i++) {
        if (err_codes[i] == code) return which ? s + strlen(s) + 1 : s;
        s += strlen(s) + 1;
        s += strlen(s) + 1;
    }
    return NULL;
}

const char *mote_err_name(int code)
{
    const char *s = find_err(code, 0);
    return s ? s : "UNKNOWN";
}

const char *mote_err_message(int code)
{
    const char *s = find_err(code, 1);
    return s ? s : "unknown error";
}
