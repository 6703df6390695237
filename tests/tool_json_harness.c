/* tool_json_harness.c - drives the tool's JSON writer (tools/out.c) for
 * tests/tool_json.py: reads records "u32 length (little-endian), u8 style,
 * bytes" from stdin and writes, for each, a run of 'x' (length % 97 bytes:
 * moves where the writer's buffer fills) and the text as tool_buf_json
 * writes it in that style, then '\n'. TOOL_JSON_UTF8_CHECK as 'sql split'
 * uses it: room for the worst case made first and the output dropped for
 * "!BAD" when the text is not UTF-8, or checked first when it is longer.
 * Style 2 is TOOL_JSON_UTF8 through tool_json_short first (tool.h, the short
 * path of 'lp dump'), the text followed by 16 bytes that JSON would escape
 * (the path reads them and must not flag or write them), tool_buf_json when
 * it declines; stderr gets "short N": how many texts it took. */
#include "tool.h"

#include <stdlib.h>

int main(void)
{
    tool_buf o;
    if (tool_buf_open(&o, stdout) != 0) return 2;
    unsigned long shorts = 0;
    for (;;) {
        unsigned char h[5];
        if (fread(h, 1, 5, stdin) != 5) break;
        size_t n = (size_t)h[0] | (size_t)h[1] << 8 | (size_t)h[2] << 16 | (size_t)h[3] << 24;
        tool_json_style style = (tool_json_style)h[4];
        uint8_t *p = malloc(n ? n : 1); /* exactly n: ASan sees any read past it */
        if (!p || fread(p, 1, n, stdin) != n) return 2;
        for (size_t i = 0; i < n % 97; i++) tool_buf_lit(&o, "x");
        if (style == TOOL_JSON_UTF8_CHECK) {
            size_t need = (n + TOOL_BUF_SLACK) * 6;
            if (need <= TOOL_BUF_CAP) {
                tool_buf_room(&o, need);
                size_t mark = o.len;
                if (!tool_buf_json(&o, p, n, style)) {
                    o.len = mark;
                    tool_buf_lit(&o, "!BAD");
                }
            } else if (tool_utf8_ok(p, n)) {
                tool_buf_json(&o, p, n, TOOL_JSON_UTF8);
            } else {
                tool_buf_lit(&o, "!BAD");
            }
        } else if (style == 2) {
            uint8_t *q = malloc(n + 16); /* the text and 16 readable bytes, as tool_json_short needs */
            if (!q) return 2;
            if (n) memcpy(q, p, n);
            static const uint8_t escaped[4] = {'"', '\\', 0x01, '\n'};
            for (size_t i = 0; i < 16; i++) q[n + i] = escaped[i % 4];
            uint8_t *d = tool_buf_room(&o, TOOL_JSON_SHORT_ROOM);
            uint8_t *e = tool_json_short(d, q, n);
            if (e) {
                o.len = (size_t)(e - o.p);
                shorts++;
            } else {
                tool_buf_json(&o, p, n, TOOL_JSON_UTF8);
            }
            free(q);
        } else {
            tool_buf_json(&o, p, n, style);
        }
        tool_buf_lit(&o, "\n");
        free(p);
    }
    fprintf(stderr, "short %lu\n", shorts);
    return tool_buf_close(&o, "stdout") ? 1 : 0;
}
