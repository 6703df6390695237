/* common.c - error names and messages shared by every module. */
#include "mote/common.h"

typedef struct err_text {
    int code;
    const char *name;
    const char *message;
} err_text;

/* One row per code in mote/common.h; keep in the same order. */
static const err_text err_table[] = {
    {MOTE_OK, "OK", "success"},
    {MOTE_ERR_INVALID, "INVALID", "invalid argument"},
    {MOTE_ERR_NOMEM, "NOMEM", "out of memory"},
    {MOTE_ERR_OVERFLOW, "OVERFLOW", "size arithmetic overflow"},
    {MOTE_ERR_LIMIT, "LIMIT", "configured limit reached"},
    {MOTE_ERR_IO, "IO", "input/output error"},
    {MOTE_ERR_NEED_MORE, "NEED_MORE", "more input needed"},
    {MOTE_ERR_STATE, "STATE", "call not valid in this state"},
    {MOTE_ERR_SPACE, "SPACE", "output buffer too small"},
    {MOTE_ERR_TOO_LONG, "TOO_LONG", "token longer than the maximum"},
    {MOTE_ERR_UNTERMINATED_QUOTE, "UNTERMINATED_QUOTE", "end of input inside a quoted string"},
    {MOTE_ERR_UNTERMINATED_COMMENT, "UNTERMINATED_COMMENT", "end of input inside a comment"},
    {MOTE_ERR_BAD_DELIMITER, "BAD_DELIMITER", "invalid delimiter"},
    {MOTE_ERR_SYNTAX, "SYNTAX", "syntax error"},
    {MOTE_ERR_NO_FIELDS, "NO_FIELDS", "point has no fields"},
    {MOTE_ERR_EMPTY_NAME, "EMPTY_NAME", "empty measurement, key or tag value"},
    {MOTE_ERR_BAD_VALUE, "BAD_VALUE", "invalid field value"},
    {MOTE_ERR_RANGE, "RANGE", "number out of range"},
    {MOTE_ERR_BAD_TIMESTAMP, "BAD_TIMESTAMP", "invalid timestamp"},
    {MOTE_ERR_BAD_ESCAPE, "BAD_ESCAPE", "invalid escape"},
    {MOTE_ERR_UNTERMINATED_STRING, "UNTERMINATED_STRING", "string value without closing quote"},
    {MOTE_ERR_NOT_FINITE, "NOT_FINITE", "NaN or infinite number"},
    {MOTE_ERR_TYPE, "TYPE", "value has another type"},
    {MOTE_ERR_TRUNCATED, "TRUNCATED", "input ends before the value"},
    {MOTE_ERR_TRAILING, "TRAILING", "trailing bytes after the value"},
    {MOTE_ERR_BAD_LENGTH, "BAD_LENGTH", "invalid count or length"},
    {MOTE_ERR_BAD_VINT, "BAD_VINT", "malformed vint"},
    {MOTE_ERR_UNEXPECTED_NULL, "UNEXPECTED_NULL", "null where none is allowed"},
    {MOTE_ERR_DIMENSION, "DIMENSION", "element count does not match the type"},
    {MOTE_ERR_BAD_TYPE, "BAD_TYPE", "type not understood"},
    {MOTE_ERR_DEPTH, "DEPTH", "nesting too deep"},
    {MOTE_ERR_MISMATCH, "MISMATCH", "value does not fit the type"},
};

static const err_text *find_err(int code)
{
    for (size_t i = 0; i < sizeof err_table / sizeof err_table[0]; i++) {
        if (err_table[i].code == code) return &err_table[i];
    }
    return NULL;
}

const char *mote_err_name(int code)
{
    const err_text *e = find_err(code);
    return e ? e->name : "UNKNOWN";
}

const char *mote_err_message(int code)
{
    const err_text *e = find_err(code);
    return e ? e->message : "unknown error";
}
