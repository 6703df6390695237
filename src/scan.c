/*
 * scan.c - one-shot split and the streaming statement / record scanner.
 *
 * One byte-level state machine looks at every byte once: run() resumes at
 * sc->pos with all lexer state in the context, so a token over many chunks
 * costs what it costs in one. Skip loops pass bytes that cannot change the
 * state (a class table, one bit per state); the others go through the state
 * handlers (step() and on_*(), which hold the dialect tests). Hosted builds
 * add a block path: 64-byte blocks become bit masks (SSE2, AVX2 chosen at run
 * time, NEON, or a table), strings come from prefix XORs (blk_kinds() where
 * quote kinds meet), escapes from backslash-run parity, lines from popcounts
 * (block_text()); record streams and COPY rows have a loop of their own
 * (line_next()).
 * Dialect state lives in unions (mote_scanner.ds, tk, d).
 */
#include "mote/scan.h"
#include "mote_private.h"

#include <stddef.h>
#include <string.h>
#if !MOTE_SMALL && !defined(MOTE_NO_SIMD) && defined(__SSE2__)
#include <emmintrin.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define BLK_AVX2 1 /* AVX2 too, where the CPU has it (see block_text()) */
#endif
#elif !MOTE_SMALL && !defined(MOTE_NO_SIMD) && defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#endif

/* ---------------------------------------------------------------- split */

mote_err mote_split(const uint8_t *in, size_t len, uint8_t delim,
                    mote_view *parts, size_t cap, size_t *count)
{
    if (!count || (!in && len) || (!parts && cap) || delim == '"' || delim == '\\')
        return MOTE_ERR_INVALID;
    size_t n = 0, start = 0;
    bool inq = false;
    /* i == len ends the last part like a delimiter would */
    for (size_t i = 0; i <= len; i++) {
        if (i < len) {
            uint8_t c = in[i];
            if (c == '\\') {
                if (i + 1 < len) i++; /* the escaped byte stays in the part, without meaning */
                continue;
            }
            if (c == '"') inq = !inq;
            if (c != delim || inq) continue;
        }
        if (i > start) {
            if (n < cap) parts[n] = (mote_view){in + start, i - start};
            n++;
        }
        start = i + 1;
    }
    *count = n;
    return n > cap ? MOTE_ERR_SPACE : MOTE_OK;
}

/* ------------------------------------------------------------- scanner */

/* q_esc[] and esc_out without an escape: no byte compares equal to it */
#define NO_ESC 0xffffu

/* Class bits: a byte with the bit of the current state set stops the skip loop of that state. */
enum {
    C_NORM = 0x01,
    C_Q0 = 0x02, /* quote slots 0..3: 0x02 0x04 0x08 0x10 */
    C_BLOCK = 0x20,
    C_LINE = 0x40, /* '\n' and '\r' alone (they have every bit): one test for a line break */
    C_DOLLAR = 0x80
};

/* In groups that step(), at_eof() and at_bound() test by range: comments
 * (S_LINE .. S_BSLASH; the open ones from S_XOPEN; openers still undecided
 * S_DASH .. S_XM), strings (S_QUOTE .. S_DTAG, the open ones up to
 * S_DMATCH), command lines (S_DCMD_WS ..). */
enum {
    S_LEAD,      /* sql dialects: skipping blanks before a statement */
    S_HEAD,      /* mysql: matching "delimiter" at statement start */
    S_NORMAL,
    S_ESC,       /* after an escape byte outside quotes */
    S_CSKIP,     /* postgres: the rest of a COPY ... FROM STDIN line */
    S_COPY,      /* postgres: a COPY data line */
    S_LINE,      /* line comment */
    S_XSTAR,     /* mysql, inside an executable comment: saw '*' */
    S_DASH,      /* saw '-' */
    S_DASH2,     /* mysql: saw "--", a comment only if a blank follows */
    S_SLASH,     /* saw '/' */
    S_XOPEN,     /* mysql: saw slash-star: an executable comment if '!' follows */
    S_XM,        /* ... saw slash-star-M */
    S_BLOCK,     /* block comment */
    S_BSTAR,     /* block comment, saw '*' */
    S_BSLASH,    /* nested block comment, saw '/' */
    S_QUOTE,
    S_QESC,      /* quote, after its escape byte */
    S_DOLLAR,    /* postgres: inside a dollar-quoted string */
    S_DMATCH,    /* postgres: matching the closing $tag$ */
    S_DTAG,      /* postgres: reading $tag$ */
    S_DCMD_WS,   /* mysql DELIMITER: blanks before the argument */
    S_DCMD_ARG,
    S_DCMD_REST, /* rest of the DELIMITER line, ignored */
    S_PCMD       /* postgres: a psql meta-command line */
};

/* States in which the delimiter is matched. */
#define KMP_STATES                                                                          \
    ((1u << S_LEAD) | (1u << S_HEAD) | (1u << S_NORMAL) | (1u << S_DASH) | (1u << S_DASH2) | \
     (1u << S_SLASH) | (1u << S_DTAG) | (1u << S_XSTAR))

/* run() results; at_end() also takes R_EOF (the end of input, nothing
 * open) and R_EOL_EOF (a command line ended by the end of input) */
enum { R_LIMIT, R_SPLIT, R_END, R_EOF, R_LINE, R_EOL_EOF };
#define R_TERM(r) (!((r) & 1)) /* R_END, R_LINE: ended by its delimiter or line break */
#define R_MORE (-1) /* (rec_run(): run() goes on, see there) */

/* sc->slow: reasons the skip loops of ordinary text stop at every byte */
enum {
    SL_LEAD = 1,  /* no code byte yet: comments and commands are told apart */
    SL_WORDS = 2, /* the statement's words matter (first word, COPY, CREATE, SET) */
    SL_XC = 4,    /* inside a mysql executable comment: '*' may close it */
    SL_LIT = 8    /* a SET statement's literal: its bytes matter too */
};

/* sc->lead: no code byte yet; LEAD_TRIMMED(): and leading blanks trimmed
 * (0 or 1), kept in lead's bit 1 (one byte to test). */
#define LEAD_INIT(sc) ((uint8_t)(1u | (sc)->trim << 1))
#define LEAD_TRIMMED(lead) ((lead) >> 1)

/* sc->wcls: what the statement's first word made of it (COPY to CREATE in
 * the order of their keywords) */
enum { WC_NONE, WC_FIRST, WC_COPY, WC_SET, WC_RESET, WC_CREATE };

/* sc->mode bits: the config flags of the same meaning */
#define MODE_NBE MOTE_SCAN_NO_BACKSLASH_ESCAPES
#define MODE_NONSTD MOTE_SCAN_PG_NONSTANDARD_STRINGS
#define MODE_ANSIQ MOTE_SCAN_ANSI_QUOTES
#define MODE_MY (MODE_NBE | MODE_ANSIQ) /* the sql_mode bits mysql follows */
#define MODE_CS 0x03u /* the charset (mote_scan_charset; postgres follows client_encoding) */

/* Two-byte charsets (mote_scan_config.charset): hosted builds; bare-metal
 * builds leave them out (meson passes MOTE_SCAN_CHARSETS=0 there: no room
 * in the Cortex-M budget, and no such dump to read) and refuse the config. */
#ifndef MOTE_SCAN_CHARSETS
#define MOTE_SCAN_CHARSETS 1
#endif
#define MB_ON(sc) (MOTE_SCAN_CHARSETS && (sc)->charset)
#define MODE_NO_AVX2 0x80u /* mote__scan_no_avx2(), for tests (no config flag in mode has it) */

/* The words the scanner acts on, length-prefixed, and their numbers. In
 * groups the code tests by range: the first four are those a first word may
 * be; FUNCTION PROCEDURE and OR REPLACE (pairs, in this order) the leading
 * words of a psql function body after CREATE; CREATE to EXPLAIN hold the
 * words sqlite3_complete() knows; SCS and ALL reset the strings mode;
 * DEFAULT to YES set it standard, OFF to NO nonstandard. */
static const char keywords[] =
    "\4copy\3set\5reset\6create\10function\11procedure\2or\7replace\3end\7trigger"
    "\4temp\11temporary\7explain\4from\5stdin\5begin\4case\7session\5local\10sql_mode"
    "\12@@sql_mode\22@@session.sql_mode\20@@local.sql_mode\33standard_conforming_strings"
    "\3all\2to\7default\2on\4true\3yes\3off\5false\2no"
#if MOTE_SCAN_CHARSETS
    "\17client_encoding"
#endif
    ;
enum {
    K_COPY, K_SET, K_RESET, K_CREATE, K_FUNCTION, K_PROCEDURE, K_OR, K_REPLACE, K_END, K_TRIGGER,
    K_TEMP, K_TEMPORARY, K_EXPLAIN, K_FROM, K_STDIN, K_BEGIN, K_CASE, K_SESSION, K_LOCAL,
    K_SQL_MODE, K_AT_SQL_MODE, K_AT_SESSION_SQL_MODE, K_AT_LOCAL_SQL_MODE, K_SCS, K_ALL, K_TO,
    K_DEFAULT, K_ON, K_TRUE, K_YES, K_OFF, K_FALSE, K_NO,
#if MOTE_SCAN_CHARSETS
    K_CLENC, /* (hosted builds: two-byte charsets) */
#endif
    K_NONE
};

/* sqlite3_complete() tokens and its transition table (a fact of SQLite's
 * behaviour: states INVALID START NORMAL EXPLAIN CREATE TRIGGER SEMI END). */
enum { TK_SEMI, TK_WS, TK_OTHER, TK_EXPLAIN, TK_CREATE, TK_TEMP, TK_TRIGGER, TK_END };
/* States NORMAL(2) and TRIGGER(5), where words cannot change the state: the
 * skip loops may run. The other dialects stay in NORMAL (only SEMI leaves it,
 * looked up at a delimiter), so this test needs no dialect check. */
#define TRIG_SKIP(t) ((0x24u >> (t)) & 1u)
/* (a row per state; the next state after token k in bits 4k..4k+3) */
#define SQ_ROW(a, b, c, d, e, f, g, h) \
    ((a) | (b) << 4 | (c) << 8 | (d) << 12 | (e) << 16 | (f) << 20 | (g) << 24 | (uint32_t)(h) << 28)
static const uint32_t sq_trans[8] = {
    /*            SEMI WS OTHER EXPLAIN CREATE TEMP TRIGGER END */
    /* INVALID */ SQ_ROW(1, 0, 2, 3, 4, 2, 2, 2),
    /* START   */ SQ_ROW(1, 1, 2, 3, 4, 2, 2, 2),
    /* NORMAL  */ SQ_ROW(1, 2, 2, 2, 2, 2, 2, 2),
    /* EXPLAIN */ SQ_ROW(1, 3, 3, 2, 4, 2, 2, 2),
    /* CREATE  */ SQ_ROW(1, 4, 2, 2, 2, 4, 5, 2),
    /* TRIGGER */ SQ_ROW(6, 5, 5, 5, 5, 5, 5, 5),
    /* SEMI    */ SQ_ROW(6, 6, 5, 5, 5, 5, 5, 7),
    /* END     */ SQ_ROW(1, 7, 5, 5, 5, 5, 5, 5),
};
#undef SQ_ROW
#define SQ_NEXT(t, tk) ((uint8_t)((sq_trans[t] >> (4 * (tk))) & 15u))

static MOTE_SMALL_NOINLINE bool is_blank(uint8_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static uint8_t lower(uint8_t c) { return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c; }
static bool is_digit(uint8_t c) { return c >= '0' && c <= '9'; }

/* SQLite's IdChar(): letters, digits, '_', '$' and every byte >= 0x80;
 * PostgreSQL's identifier continuation bytes are the same. */
static bool sq_idchar(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '$' || c >= 0x80;
}

static void set_delim(mote_scanner *sc, const uint8_t *d, size_t n)
{
    memcpy(sc->delim, d, n);
    sc->dlen = (uint8_t)n;
    /* KMP failure function (kmp[0]: 0 since init), so that "xaab" with delimiter "ab" is found: after a
     * mismatch the match resumes at the longest border (km: reset_token() follows both calls). */
    uint8_t k = 0;
    for (size_t j = 1; j < n; j++) {
        while (k > 0 && d[j] != d[k]) k = sc->kmp[k - 1];
        if (d[j] == d[k]) k++;
        sc->kmp[j] = k;
    }
}

/* Private comments bit: postgres dollar quoting ('$' may open a tag; generic
 * configs mask their comments to the public bits). */
#define DOLLAR_QUOTES 0x20u

#if !MOTE_SMALL
/* The block path (hosted builds): in ordinary text and inside the first
 * quote kind, 64 bytes at a time become bit masks, and quotes, escapes and
 * the end of the run come from word arithmetic, not a branch per byte. The
 * portable classifier's table maps a byte to one bit per plane (plane k in
 * bit 16k), so that sixteen bytes' words, shifted by position and added,
 * put plane k of those bytes in bits 16k..16k+15. Planes: the quote; bytes
 * that stop the path outside strings (the other quote; '-', "--" checked
 * where found); backslash; line breaks. The stop set is generous (a stop
 * that means nothing to the dialect hands one byte to the switch);
 * blk_setup() keeps the path off where a byte the dialect needs is missing. */
enum { P_QUOTE, P_STOP, P_BSL, P_LB };
#define PB(k) ((uint64_t)1 << (16 * (k)))
/* Bytes that stop the block path outside strings, besides the other quote. */
#define BLK_STOP_BYTES(X) X('-') X(';') X('`') X('#') X('[') X('$') X('|') X('/')
#define BLK_STOP_INIT(c) [c] = PB(P_STOP),
#define BLK_TABLE(q, other, more)                                                           \
    {                                                                                       \
        BLK_STOP_BYTES(BLK_STOP_INIT) more[q] = PB(P_QUOTE), [other] = PB(P_STOP),          \
        ['\\'] = PB(P_BSL), ['\n'] = PB(P_LB), ['\r'] = PB(P_LB),                            \
    }
/* blk 1: '\'' strings, 2: '"' strings, 3: postgres ('\'' strings; '(' and ')'
 * stop too, its `more`, and blk_segment() counts them: one compare for both
 * in the vector classifiers, (byte | 1) == ')') */
static const uint64_t blk_tables[3][256] = {BLK_TABLE('\'', '"', ), BLK_TABLE('"', '\'', ),
                                            BLK_TABLE('\'', '"', BLK_STOP_INIT('(') BLK_STOP_INIT(')'))};

/* blk_flags */
enum {
    BLK_ESC = 1,     /* backslash escapes inside the quote */
    BLK_ESC_OUT = 2, /* ... and outside it (lines) */
    BLK_NL_STOP = 4, /* '\n' outside strings is the delimiter */
    BLK_DASH = 8,    /* "--" outside strings may open a comment */
    BLK_AVX2F = 16,  /* the CPU has AVX2 (and so POPCNT, BMI1), see block_text() */
    BLK_REC = 32,    /* records: rec_run() may hand tokens out (see there) */
    BLK_LINES = 64,  /* the lines dialect's flags, '"', no stop bytes (block_lines()) */
    BLK_CONST = 128, /* blk_const() found blk_mysql's, blk_sqlite's or blk_pg's configuration */
    BLK_PG = 256     /* (not in blk_flags: blk 3) postgres: parentheses counted, E'' stops */
};
#define BLK_LINES_F (BLK_ESC | BLK_ESC_OUT | BLK_NL_STOP)
/* The block loops' flags for a configuration that is none of the constant ones. */
static MOTE_INLINE unsigned blk_fl(const mote_scanner *sc)
{
    return (unsigned)sc->blk_flags | (sc->blk == 3 ? (unsigned)BLK_PG : 0u);
}

/* Whether (and how) the block path runs for this configuration; with every build_cls(). */
static void blk_setup(mote_scanner *sc)
{
    sc->blk = sc->blk_flags = sc->blk_slots = 0;
    const uint8_t q = sc->q_close[0];
    const int qe = sc->q_esc[0] > 0xff ? -1 : sc->q_esc[0], eo = sc->esc_out > 0xff ? -1 : sc->esc_out;
    /* postgres: with standard strings only (a string with an escape byte
     * closes in on_string(), which notes where) */
    const bool pg = sc->dialect == MOTE_SCAN_POSTGRES;
    if ((q != '\'' && q != '"') || sc->open_slot[q] != 1 || (pg && qe >= 0)) return;
    if (!(qe < 0 && eo < 0) && !(qe == '\\' && (eo < 0 || eo == '\\'))) return;
    const uint8_t d0 = sc->delim[0];
    if (d0 == q || d0 == '\\' || d0 == '-' || (pg && (d0 == '(' || d0 == ')')) || MB_ON(sc)) return;
    const uint64_t *t = blk_tables[pg ? 2 : q == '"'];
    uint8_t f = (uint8_t)((qe == '\\' ? BLK_ESC : 0) | (eo == '\\' ? BLK_ESC_OUT : 0) |
                          (d0 == '\n' ? BLK_NL_STOP : 0) |
                          ((sc->comments & (MOTE_SCAN_COMMENT_DASH | MOTE_SCAN_COMMENT_DASH_SPACE))
                               ? BLK_DASH : 0));
#ifdef BLK_AVX2
    if (!(sc->mode & MODE_NO_AVX2) && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") &&
        __builtin_cpu_supports("bmi") && __builtin_cpu_supports("pclmul"))
        f |= BLK_AVX2F;
#endif
    /* Records: nothing but quotes, escapes and a one-byte delimiter matter
     * (the lines dialect; generic ones without comments), so every token
     * starts in state NORMAL with no word, comment, trigger or mode state. */
    if (sc->dlen == 1 && !sc->trim && !(sc->comments & 0x0fu) &&
        (sc->dialect == MOTE_SCAN_LINES || sc->dialect == MOTE_SCAN_GENERIC))
        f |= BLK_REC;
    /* the slots whose strings it reads (blk_kinds()): closed by their
     * opener, not the delimiter's first byte, escaped by a backslash (bit 4
     * + slot) or not at all */
    uint8_t slots = 0;
    for (unsigned k = 0; k < 4; k++) {
        const uint8_t c = sc->q_close[k];
        const unsigned e = sc->q_esc[k];
        if (sc->open_slot[c] == k + 1 && c != d0 && (e == NO_ESC || (e == '\\' && (f & BLK_ESC))))
            slots |= (uint8_t)((1u | (e == '\\') << 4) << k);
    }
    /* Every byte that matters outside strings must stop the path or be
     * handled by it (the quote, escapes, line breaks, dashes). The SIMD
     * classifiers compare with exactly these stop bytes (6 at most), those
     * slots' quotes last: blk_multi() compares only the others (an odd
     * count's pair takes one quote along, masked). */
    uint8_t quote[sizeof sc->blk_stop];
    unsigned n = 0, nq = 0;
    for (unsigned c = 0; c < 256; c++) {
        if (!(sc->cls[c] & C_NORM) || c == q || c == '\n' || c == '\r') continue;
        if (c == '\\' && (f & BLK_ESC_OUT)) continue;
        if (pg && (c == '(' || c == ')')) continue; /* (blk 3: compared apart) */
        if (!(t[c] & PB(P_STOP)) || n + nq == sizeof sc->blk_stop) return;
        const unsigned s = sc->open_slot[c];
        if (s && ((slots >> (s - 1u)) & 1u)) quote[nq++] = (uint8_t)c;
        else sc->blk_stop[n++] = (uint8_t)c;
    }
    sc->blk_nother = (uint8_t)n;
    memcpy(sc->blk_stop + n, quote, nq);
    n += nq;
    /* unused entries repeat a stop byte */
    for (unsigned j = n; j < sizeof sc->blk_stop; j++) sc->blk_stop[j] = sc->blk_stop[0];
    sc->blk_nstop = (uint8_t)n;
    if (n == 0 && q == '"' && (f & (BLK_LINES_F | BLK_DASH)) == BLK_LINES_F) f |= BLK_LINES;
    sc->blk_slots = slots;
    sc->blk = (uint8_t)(pg ? 3 : 1 + (q == '"'));
    sc->blk_flags = f;
}
#endif

#if MOTE_SCAN_CHARSETS
/* The two-byte charsets (mote_scan_charset - 1): their lead bytes are one
 * range once XORed with x (Shift_JIS's 0x81..0x9f and 0xe0..0xfc become
 * 0xa1..0xdc), lo .. lo + span; a trail is at least tmin (GB18030's
 * four-byte characters are two such pairs). */
static const struct {
    uint8_t x, lo, span, tmin;
} mb_sets[3] = {{0x20, 0xa1, 0x3b, 0x40}, {0, 0x81, 0x7d, 0x30}, {0, 0x84, 0x75, 0x30}};

/* A byte the switch is about to read, with a charset: a trail is read as
 * 0xff (as psql reads them: an identifier byte that ends or escapes
 * nothing); a lead makes the next byte a trail if it may be one. */
static MOTE_SMALL_NOINLINE uint8_t mb_byte(mote_scanner *sc, uint8_t c)
{
    const unsigned k = sc->charset - 1u;
    if (sc->mbt) {
        sc->mbt = 0;
        if (c >= mb_sets[k].tmin) return 0xff;
    } else {
        sc->mbt = (uint8_t)((c ^ mb_sets[k].x) - mb_sets[k].lo) <= mb_sets[k].span;
    }
    return c;
}
#endif

/* The class table from the quote slots, delimiter, escapes (the mode's
 * first) and comment styles: at init, and when a DELIMITER command or a SET
 * statement changes them. Line breaks stop every skip loop (lines count). */
static void build_cls(mote_scanner *sc)
{
    /* byte, comments bits that must all be set, class bits it gets */
    static const uint8_t extra[][3] = {
        {'#', MOTE_SCAN_COMMENT_HASH, C_NORM},
        {'-', MOTE_SCAN_COMMENT_DASH, C_NORM},
        {'-', MOTE_SCAN_COMMENT_DASH_SPACE, C_NORM},
        {'/', MOTE_SCAN_COMMENT_BLOCK, C_NORM},
        {'*', MOTE_SCAN_COMMENT_BLOCK, C_BLOCK},
        {'/', MOTE_SCAN_COMMENT_BLOCK | MOTE_SCAN_COMMENT_NESTED, C_BLOCK},
        {'$', DOLLAR_QUOTES, C_NORM},
        {'(', DOLLAR_QUOTES, C_NORM}, /* postgres counts parentheses */
        {')', DOLLAR_QUOTES, C_NORM},
        {'$', 0, C_DOLLAR},
        {'\n', 0, 0xff},
        {'\r', 0, 0xff},
    };
#if MOTE_SCAN_CHARSETS
    sc->charset = sc->mode & MODE_CS;
#endif
    /* the escapes that sql_mode / standard_conforming_strings decide (mysql ' and ", "
     * an identifier under ANSI_QUOTES; postgres '') */
    if (sc->dialect == MOTE_SCAN_MYSQL) {
        sc->q_esc[0] = (sc->mode & MODE_NBE) ? NO_ESC : '\\';
        sc->q_esc[1] = (sc->mode & MODE_MY) ? NO_ESC : '\\';
    } else if (sc->dialect == MOTE_SCAN_POSTGRES)
        sc->q_esc[0] = (sc->mode & MODE_NONSTD) ? '\\' : NO_ESC;
    uint8_t *cls = sc->cls;
    for (unsigned c = 0; c < 256; c++) cls[c] = sc->open_slot[c] ? C_NORM : 0;
    /* (unused slots, closer 0, mark only bits no state uses) */
    for (unsigned k = 0; k < 4; k++) {
        const uint8_t bit = (uint8_t)(C_Q0 << k);
        cls[sc->q_close[k]] |= bit;
        if (sc->q_esc[k] <= 0xff) cls[sc->q_esc[k]] |= bit;
    }
    cls[sc->delim[0]] |= C_NORM;
    if (sc->esc_out <= 0xff) cls[sc->esc_out] |= C_NORM;
    for (unsigned j = 0; j < sizeof extra / sizeof extra[0]; j++)
        if ((sc->comments & extra[j][1]) == extra[j][1]) cls[extra[j][0]] |= extra[j][2];
#if MOTE_SCAN_CHARSETS
    /* a two-byte character's lead stops the skip loops of text and strings */
    if (sc->charset) {
        const unsigned k = sc->charset - 1u;
        for (unsigned j = 0; j <= mb_sets[k].span; j++)
            cls[(uint8_t)(mb_sets[k].lo + j) ^ mb_sets[k].x] |= C_NORM | C_Q0 | C_Q0 << 1 | C_Q0 << 2 | C_Q0 << 3;
    }
#endif
#if !MOTE_SMALL
    blk_setup(sc);
#endif
}

mote_err mote_scan_config_init(mote_scan_config *cfg, mote_scan_dialect dialect)
{
    if (!cfg) return MOTE_ERR_INVALID;
    memset(cfg, 0, sizeof *cfg);
    cfg->dialect = dialect;
    cfg->escape = '\\';
    return (unsigned)dialect > MOTE_SCAN_LINES ? MOTE_ERR_INVALID : MOTE_OK;
}

/* The fixed dialects as data: quote openers and escapes per slot (escape
 * 0: none; a quote closes with itself, sqlite's '[' with ']'), comment
 * styles, and the one delimiter allowed (0: any). */
static const struct {
    char open[5], esc[4];
    uint8_t comments, fixed;
} dialects[4] = {
    /* mysql */ {"'\"`", "\\\\",
                 MOTE_SCAN_COMMENT_HASH | MOTE_SCAN_COMMENT_DASH_SPACE | MOTE_SCAN_COMMENT_BLOCK, 0},
    /* sqlite */ {"'\"`[", "", MOTE_SCAN_COMMENT_DASH | MOTE_SCAN_COMMENT_BLOCK, ';'},
    /* postgres */ {"'\"'", {0, 0, '\\', 0},
                    MOTE_SCAN_COMMENT_DASH | MOTE_SCAN_COMMENT_BLOCK | MOTE_SCAN_COMMENT_NESTED | DOLLAR_QUOTES, 0},
    /* lines */ {"\"", "\\", 0, '\n'},
};

static MOTE_SMALL_NOINLINE void set_pos(const mote_scanner *sc, mote_pos *p, size_t idx)
{
    p->offset = sc->base + idx;
    p->line = sc->line;
    p->column = p->offset - sc->line_start + 1;
}

static MOTE_SMALL_NOINLINE void tok_begin(mote_scanner *sc, size_t i)
{
    sc->tok_start = i;
    set_pos(sc, &sc->tok_pos, i);
}

/* Comments are handed out: KEEP_COMMENTS, and not over max_token (cdrop;
 * small builds also set it per token where comments are not kept). */
static MOTE_SMALL_INLINE bool keep_comments(const mote_scanner *sc)
{
    return (MOTE_SMALL || (sc->flags & MOTE_SCAN_KEEP_COMMENTS)) && !sc->cdrop;
}

/* The blanks before a statement hold a comment that is handed out: the
 * token starts at it (trimmed blanks and dropped comments move the start). */
static MOTE_SMALL_INLINE bool lead_comment_kept(const mote_scanner *sc) { return sc->cmt && keep_comments(sc); }

/* Start the next token: trimming (sql dialects) or mysql matching DELIMITER; comments told apart
 * if any; the first word read by mysql and postgres. Every token passes here, so the flags are
 * computed, not branched on: mysql and postgres are the odd dialect numbers, and the flags' values
 * below let the compiler use those bits as they are. rec: a configuration of records (BLK_REC:
 * none of these), for line_next(). */
_Static_assert(SL_LEAD == 1 && SL_WORDS == 2 && WC_FIRST == 1 && MOTE_SCAN_MYSQL == 1 &&
                   MOTE_SCAN_POSTGRES == 3 && MOTE_SCAN_LINES == 4, "reset_token(): odd dialects read words");
static MOTE_INLINE void reset_token(mote_scanner *sc, bool rec, bool first)
{
    const unsigned d = rec ? MOTE_SCAN_GENERIC : sc->dialect, cmt = !rec && (sc->comments & 0x0fu);
    /* (the per-token fields, the dialect's among them, are one block) */
    const size_t block = offsetof(mote_scanner, tokflags) + sizeof sc->tokflags - offsetof(mote_scanner, kind);
    if (!MOTE_SMALL && !rec && !first) {
        /* speed builds: the token's first state, lead, slow and wcls, fixed by the configuration,
         * as the first token's reset computed them (mote_scan_init()) */
        sc->state = sc->tok_init[0];
        memset(&sc->kind, 0, block);
        sc->slow = sc->tok_init[2];
        sc->lead = sc->tok_init[1];
        sc->wcls = sc->tok_init[3];
    } else {
        sc->state = !rec && sc->trim ? S_LEAD : d == MOTE_SCAN_MYSQL ? S_HEAD : S_NORMAL;
        memset(&sc->kind, 0, block);
        if (MOTE_SMALL) sc->cdrop = !(sc->flags & MOTE_SCAN_KEEP_COMMENTS); /* (see keep_comments()) */
        const unsigned words = d & 1u; /* mysql or postgres */
        sc->slow = (uint8_t)(cmt * SL_LEAD | words * SL_WORDS);
        sc->lead = (uint8_t)(cmt * LEAD_INIT(sc));
        sc->wcls = (uint8_t)(words * WC_FIRST);
    }
    if (d == MOTE_SCAN_POSTGRES) {
        if (sc->ds.pg.copy) {
            /* COPY data: the rest of the COPY line (copy 1: the COPY
             * statement ended at its delimiter), then one token per line */
            sc->state = sc->ds.pg.copy == 1 ? S_CSKIP : S_COPY;
            sc->ds.pg.copy = 3;
            sc->kind = MOTE_SCAN_COPY_DATA;
            sc->lead = sc->slow = 0;
            sc->wcls = WC_NONE;
        }
        /* no bytes before the token (prev_byte(); speed builds count hist_n) */
        if (MOTE_SMALL) sc->hist[0] = sc->hist[1] = ' ';
    }
    if (d == MOTE_SCAN_SQLITE) sc->trig = 1; /* (the others stay in 2: mote_scan_init()) */
    /* (speed builds: a lead's first byte goes through lead_blanks(), which sets them or leaves
     * that to on_lead() or lead_word()) */
    if (MOTE_SMALL || sc->state != S_LEAD) tok_begin(sc, sc->pos);
}

mote_err mote_scan_init(mote_scanner *sc, const mote_scan_config *cfg, mote_buf *carry)
{
    /* a charset: mysql and postgres (the odd dialects) */
    if (!sc || !cfg || !carry ||
        (MOTE_SCAN_CHARSETS ? (unsigned)cfg->charset > MOTE_SCAN_CHARSET_JOHAB || (cfg->charset && !(cfg->dialect & 1))
                            : cfg->charset != 0))
        return MOTE_ERR_INVALID;
    memset(sc, 0, sizeof *sc);
    sc->carry = carry;
    sc->max_token = cfg->max_token;
    sc->dialect = (uint8_t)cfg->dialect;
    sc->flags = (uint8_t)cfg->flags;
    sc->esc_out = NO_ESC;
    if ((cfg->flags & MOTE_SCAN_PIECES) && cfg->max_token == 0) return MOTE_ERR_INVALID;
    const uint8_t *d = cfg->delim;
    size_t dn = cfg->delim_len;
    if ((unsigned)cfg->dialect > MOTE_SCAN_LINES) return MOTE_ERR_INVALID;
    const int gesc = cfg->escape;
    const char *q, *qesc = NULL;
    if (cfg->dialect == MOTE_SCAN_GENERIC) {
        if (gesc < -1 || gesc > 255) return MOTE_ERR_INVALID;
        q = cfg->quotes ? cfg->quotes : "\"'";
        sc->esc_out = (uint16_t)gesc; /* (-1: NO_ESC) */
        sc->comments = (uint8_t)(cfg->comments & 0x1fu);
    } else {
        const unsigned di = (unsigned)cfg->dialect - 1u;
        q = dialects[di].open;
        qesc = dialects[di].esc;
        sc->comments = dialects[di].comments;
        const uint8_t *fixed = &dialects[di].fixed;
        if (*fixed) {
            if (d && !(dn == 1 && d[0] == *fixed)) return MOTE_ERR_BAD_DELIMITER;
            if (!d) {
                d = fixed;
                dn = 1;
            }
        }
        if (cfg->dialect == MOTE_SCAN_LINES) sc->esc_out = '\\';
        else sc->trim = 1;
    }
    for (unsigned k = 0; q[k]; k++) {
        uint8_t b = (uint8_t)q[k];
        int e = gesc;
        if (qesc) e = qesc[k] ? (uint8_t)qesc[k] : -1;
        else if (k >= 4 || (int)b == gesc) return MOTE_ERR_INVALID;
        /* The first slot an opener is given keeps it (postgres E'' strings
         * share the opener of '' and are entered by lookback); a generic
         * configuration's quotes must differ. */
        if (!sc->open_slot[b]) sc->open_slot[b] = (uint8_t)(k + 1);
        else if (!qesc) return MOTE_ERR_INVALID;
        sc->q_close[k] = (uint8_t)(qesc && b == '[' ? ']' : b);
        sc->q_esc[k] = (uint16_t)e; /* (-1: NO_ESC) */
    }
    if (cfg->flags & MOTE_SCAN_KEEP_LEADING) sc->trim = 0;
    /* (then at_end() syncs them) */
    sc->mode = sc->mode_next = (uint8_t)((cfg->flags & (MODE_MY | MODE_NONSTD)) | (MOTE_SCAN_CHARSETS ? cfg->charset : 0u));
    if (!d) {
        d = (const uint8_t *)";";
        dn = 1;
    }
    if (dn == 0 || dn > sizeof sc->delim) return MOTE_ERR_BAD_DELIMITER;
    set_delim(sc, d, dn);
    build_cls(sc);
    sc->line = 1;
    sc->trig = 2;
    reset_token(sc, false, true);
#if !MOTE_SMALL
    /* what every token starts with (reset_token() sets COPY data's own after these) */
    sc->tok_init[0] = sc->state;
    sc->tok_init[1] = sc->lead;
    sc->tok_init[2] = sc->slow;
    sc->tok_init[3] = sc->wcls;
#endif
    return MOTE_OK;
}

static const uint8_t bom[3] = {0xEF, 0xBB, 0xBF};

static MOTE_SMALL_NOINLINE void install(mote_scanner *sc, const uint8_t *data, size_t len)
{
    sc->base += sc->chunk_len;
    sc->chunk = data;
    sc->chunk_len = len;
    sc->pos = 0;
    sc->tok_start = 0;
}

mote_err mote_scan_feed(mote_scanner *sc, const void *data, size_t len)
{
    if (!sc || (!data && len)) return MOTE_ERR_INVALID;
    if (sc->chunk || sc->finished) return MOTE_ERR_STATE;
    const uint8_t *d = data ? (const uint8_t *)data : (const uint8_t *)"";
    sc->stats.bytes_fed += len;
    const uint8_t k = sc->bom;
    if (k < 3) {
        /* A UTF-8 BOM at offset 0 is skipped. Matched bytes of a BOM split
         * over chunks wait, unexamined; if it is none they are scanned
         * first, from bom[] itself. */
        size_t j = 0;
        while (k + j < 3 && j < len && d[j] == bom[k + j]) j++;
        if (k + j < 3 && j == len) {
            sc->bom = (uint8_t)(k + j);
            return MOTE_OK; /* still undecided; next() says NEED_MORE */
        }
        sc->bom = 4;
        if (k + j == 3) {
            /* the chunk starts after the BOM: stream offset 3, column 1 */
            sc->stats.bytes_examined = 3;
            sc->line_start = 3;
            sc->tok_pos.offset = 3;
            sc->chunk_len = 3; /* install() moves base past it */
            d += j;
            len -= j;
        } else if (k) {
            install(sc, bom, k);
            sc->next_chunk = d;
            sc->next_len = len;
            return MOTE_OK;
        }
    }
    install(sc, d, len);
    return MOTE_OK;
}

mote_err mote_scan_finish(mote_scanner *sc)
{
    if (!sc) return MOTE_ERR_INVALID;
    if (sc->chunk) return MOTE_ERR_STATE;
    sc->finished = 1;
    const uint8_t k = sc->bom;
    sc->bom = 4;
    if (k < 3 && k) install(sc, bom, k); /* a BOM prefix at the end is data */
    return MOTE_OK;
}

/* ------------------------------------------------------- state machine */

static MOTE_SMALL_NOINLINE void newline(mote_scanner *sc, uint8_t c, size_t idx)
{
    /* "\r\n" is one break: a '\n' at the line start a '\r' set counts no line */
    const uint64_t off = sc->base + idx;
    if (!(c == '\n' && sc->cr && off == sc->line_start)) sc->line++;
    /* (small builds: c is '\n', even, or '\r', odd, as every caller tests) */
    sc->cr = MOTE_SMALL ? c & 1 : c == '\r';
    sc->line_start = off + 1;
}

/* One KMP step; true when the delimiter is complete. */
static bool kmp_step(mote_scanner *sc, uint8_t c)
{
    uint8_t k = sc->km;
    /* (speed builds) most bytes: no match under way and none starting */
    if (!MOTE_SMALL && k == 0 && c != sc->delim[0]) return false;
    while (k > 0 && sc->delim[k] != c) k = sc->kmp[k - 1];
    if (sc->delim[k] == c) k++;
    if (k == sc->dlen) {
        sc->km = 0;
        return true;
    }
    sc->km = k;
    return false;
}

static MOTE_SMALL_NOINLINE void sq_tok(mote_scanner *sc, unsigned tk) { sc->trig = SQ_NEXT(sc->trig, tk); }

/* A token other than a word, for sqlite (the test in one place: smaller). */
static MOTE_SMALL_NOINLINE void sq_other(mote_scanner *sc)
{
    if (sc->dialect == MOTE_SCAN_SQLITE) sq_tok(sc, TK_OTHER);
}

/* Byte `back` (1 or 2) before chunk index idx within the current token:
 * from the chunk, the carry or hist (the last two bytes handed out or
 * dropped, hist_n of them; small builds blank hist at the token's start
 * instead), else a blank. Postgres's E'' and $tag$ open only at a word's
 * start: where this byte is no identifier byte (a blank: none). */
static uint8_t prev_byte(const mote_scanner *sc, size_t idx, size_t back)
{
    size_t in_chunk = idx - sc->tok_start;
    if (back <= in_chunk) return sc->chunk[idx - back];
    back -= in_chunk;
    size_t cl = sc->carry->len;
    if (back <= cl) return sc->carry->data[cl - back];
    back -= cl;
    if (!MOTE_SMALL && back > sc->hist_n) return ' ';
    return sc->hist[2 - back];
}

/* Postgres: a '\'' at chunk index idx that opens a string opens an escape
 * string (quote slot 2): E'..' where the E starts a word, and a quote right
 * after one closed ('' goes on in it). */
static MOTE_SMALL_INLINE bool pg_estring(const mote_scanner *sc, size_t idx)
{
    const uint8_t b1 = prev_byte(sc, idx, 1);
    return sc->base + idx == sc->d.pg.eclose || ((b1 == 'E' || b1 == 'e') && !sq_idchar(prev_byte(sc, idx, 2)));
}

/* Postgres counts parentheses outside strings and comments: a delimiter
 * inside them ends nothing (on_delim()). */
static MOTE_SMALL_INLINE void pg_paren(mote_scanner *sc, uint8_t c)
{
    if (c == '(') sc->tk.pg.pdepth++;
    else if (sc->tk.pg.pdepth) sc->tk.pg.pdepth--;
}

/* hist takes the last two of p[0..n) */
static void hist_push(mote_scanner *sc, const uint8_t *p, size_t n)
{
    for (size_t j = n > 2 ? n - 2 : 0; j < n; j++) {
        sc->hist[0] = sc->hist[1];
        sc->hist[1] = p[j];
        if (!MOTE_SMALL && sc->hist_n < 2) sc->hist_n++;
    }
}

/* Find the first byte at or after *pi (below lim) with `mask` in the class table: true with *pi
 * at it, else false with *pi = lim (the throughput on ordinary text). Small builds: the byte loop
 * alone. Speed builds: short runs (quote-dense text) end in the first four bytes, tested one by
 * one; longer ones go eight class bytes to a word (input byte k in bits 8k..8k+7), the hit found
 * with one ctz: one branch per eight bytes, one mispredicted at a run's end. Callers branch on
 * the result once (inlined, the compiler joins the hit paths). */
static MOTE_INLINE bool find(const uint8_t *cls, const uint8_t *p, size_t *pi, size_t lim, uint8_t mask)
{
    size_t i = *pi;
#if !MOTE_SMALL
    if (i + 4 <= lim) {
        if (cls[p[i]] & mask) return true;
        if (cls[p[i + 1]] & mask) return *pi = i + 1, true;
        if (cls[p[i + 2]] & mask) return *pi = i + 2, true;
        if (cls[p[i + 3]] & mask) return *pi = i + 3, true;
        i += 4;
    }
    const uint64_t m = mask * (uint64_t)0x0101010101010101u;
    while (lim - i >= 8) {
        const uint8_t *q = p + i;
        uint64_t w = (uint64_t)cls[q[0]] | (uint64_t)cls[q[1]] << 8 |
                     (uint64_t)cls[q[2]] << 16 | (uint64_t)cls[q[3]] << 24 |
                     (uint64_t)cls[q[4]] << 32 | (uint64_t)cls[q[5]] << 40 |
                     (uint64_t)cls[q[6]] << 48 | (uint64_t)cls[q[7]] << 56;
        w &= m;
        if (w) {
            *pi = i + (mote__ctz64(w) >> 3);
            return true;
        }
        i += 8;
    }
#endif
    for (; i < lim; i++)
        if (cls[p[i]] & mask) return *pi = i, true;
    *pi = lim;
    return false;
}

#if !MOTE_SMALL

/* Lowest and highest set bit of a non-zero word (mote_private.h). */
static MOTE_INLINE unsigned low_bit(uint64_t x) { return mote__ctz64(x); }
static MOTE_INLINE unsigned high_bit(uint64_t x) { return 63u - mote__clz64(x); }

/* Bit j set: an odd number of set bits of x at positions <= j (inside a
 * string after its opening quote, up to and without its closing one). */
static MOTE_INLINE uint64_t prefix_xor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/* Positions escaped by a backslash run: each byte that follows a run of odd
 * length (bit 0 when `pend`, a run the previous block left odd). In a run
 * [s, e) the bytes s + 1, s + 3, ... up to e are escaped: where b << 1 is
 * set, the bytes of the other parity than s. So odd positions, but in the
 * spans (s, e] of runs with odd s, even ones: adding those runs' start bits
 * to the runs carries each to its end e, and the bits that change are the
 * span and s. The carry out of bit 63 is such a run reaching the block's
 * end (odd s, so odd length: the next block's first byte is escaped).
 * Backslash bits themselves may come out either way; no caller reads them. */
static MOTE_INLINE uint64_t escaped_by(uint64_t bs, uint64_t *pend)
{
    const uint64_t odd = 0xaaaaaaaaaaaaaaaau;
    const uint64_t b = bs & ~*pend; /* an escaped backslash escapes nothing */
    const uint64_t odd_starts = b & ~(b << 1) & odd;
    const uint64_t sum = b + odd_starts;
    const uint64_t span = (b ^ sum) & ~odd_starts;
    const uint64_t esc = ((b << 1) & (odd ^ span)) | *pend;
    *pend = sum < b;
    return esc;
}

/* open_pos where a run of the block path ends at i in the string whose opening quote's offset, and its block's
 * line start as column, blk_segment() put there (the run's line breaks are '\n': a '\r' stops it). */
static MOTE_NOINLINE void blk_open_pos(mote_scanner *sc, const uint8_t *p, size_t i)
{
    const size_t o = (size_t)(sc->open_pos.offset - sc->base);
    uint64_t n = 0, ls = sc->open_pos.column;
    for (size_t j = o; j < i; j++) n += p[j] == '\n';
    for (size_t j = o; n && j && o - j < 64 && sc->base + j > ls; j--) if (p[j - 1] == '\n') ls = sc->base + j;
    sc->open_pos.line = sc->line - n;
    sc->open_pos.column = sc->open_pos.offset - (n ? ls : sc->line_start) + 1;
}

/* One 64-byte block's masks (bit j: byte j): the first quote kind, stop
 * bytes, backslashes, '\n', '\r', and the bytes escaped by a backslash. */
typedef struct blk_masks {
    uint64_t q, stop, bs, nl, cr, esc;
} blk_masks;

/* What the classifiers read of the scanner, copied into the block loops'
 * locals (the first loop once per run, measured fewer instructions than
 * reading *sc, which the loops store to, per block). */
typedef struct blk_cfg {
    uint8_t close[4];        /* the slots' quotes (close[0]: the first kind's) */
    uint8_t stop[6], nstop;  /* blk_stop, blk_nstop */
    uint8_t slots;           /* blk_slots */
    /* constant ones, AVX2: the blk_shuf rows (+ 1; 0: none) for
     * stop[0..nstop) and for all six */
    uint8_t shuf[2];
} blk_cfg;

static MOTE_INLINE void blk_cfg_of(const mote_scanner *sc, bool lines, blk_cfg *c)
{
    memcpy(c->close, sc->q_close, sizeof c->close);
    memcpy(c->stop, sc->blk_stop, sizeof c->stop);
    c->nstop = lines ? 0 : sc->blk_nstop;
    c->slots = sc->blk_slots;
    c->shuf[0] = c->shuf[1] = 0;
}

/* Classify the 64 bytes at r into the masks but esc. blk picks the quote
 * (1: '\'', 2: '"'). The portable version looks bytes up in the table
 * (-Dsimd=disabled, s390x, armhf); SSE2 (every x86-64) and NEON (every
 * aarch64) compare sixteen bytes at once with the same byte sets (the
 * chunking tests check both against the byte loop). */
#if !defined(MOTE_NO_SIMD) && defined(__SSE2__)
#define BLK_VECTOR 1
typedef __m128i blk_vec;
#define BLK_SPLAT(c) _mm_set1_epi8((char)(c))
#define BLK_LOAD(r) _mm_loadu_si128((const __m128i *)(const void *)(r))
#define BLK_EQ(v, w) _mm_cmpeq_epi8(v, w)
#define BLK_OR(a, b) _mm_or_si128(a, b)
#define BLK_NONE(v) (_mm_movemask_epi8(v) == 0)
static MOTE_INLINE uint64_t blk_movemask(__m128i a, __m128i b, __m128i c, __m128i d)
{
    return (uint64_t)(unsigned)_mm_movemask_epi8(a) | (uint64_t)(unsigned)_mm_movemask_epi8(b) << 16 |
           (uint64_t)(unsigned)_mm_movemask_epi8(c) << 32 | (uint64_t)(unsigned)_mm_movemask_epi8(d) << 48;
}

#ifdef BLK_AVX2
/* AVX2 (chosen at run time, see block_text()): the same masks from 32 bytes
 * per compare, and prefix_xor() as one carry-less multiply by all ones. */
#define BLK_AVX2_FN __attribute__((target("avx2,popcnt,bmi")))
#define BLK_CLMUL_FN __attribute__((target("avx2,popcnt,bmi,pclmul")))
/* the AVX2 entry points: every call inlined (gcc leaves blk_classify_avx2(),
 * which cannot be always_inline under another target, out of line) */
#define BLK_FLAT __attribute__((flatten))
static BLK_CLMUL_FN inline uint64_t prefix_xor_clmul(uint64_t x)
{
    const __m128i v = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)x), _mm_set1_epi8(-1), 0);
    return (uint64_t)_mm_cvtsi128_si64(v);
}

/* The bytes the AVX2 classifier compares with where they are constants (the
 * constant configurations' bytes, blk_mysql; backslash, line breaks),
 * broadcast in memory: gcc builds a constant vector in three instructions
 * (a general register, vmovd, vpbroadcastb), per run, one run per statement
 * in quote-dense text; a load is one. blk_k32_at() hides the table from the
 * constant folding that would turn the loads back into those. */
#define BLK_K32(X) X(0, '\'') X(1, '"') X(2, '`') X(3, ']') X(4, '[') X(5, '#') X(6, '-') X(7, '/') \
    X(8, ';') X(9, '\\') X(10, '\n') X(11, '\r')
#define BLK_X8(c) c, c, c, c, c, c, c, c
#define BLK_K32_ROW(k, c) [k] = {BLK_X8(c), BLK_X8(c), BLK_X8(c), BLK_X8(c)},
#define BLK_K32_CASE(k, c) case c: return k;
typedef uint8_t blk_k32_row_t[32];
static const blk_k32_row_t blk_k32[12] __attribute__((aligned(32))) = {BLK_K32(BLK_K32_ROW)};
/* the row of byte c (one of BLK_K32's, known at compile time) */
static MOTE_INLINE unsigned blk_k32_row(uint8_t c)
{
    switch (c) { BLK_K32(BLK_K32_CASE) default: return 0; }
}
#undef BLK_K32_ROW
#undef BLK_K32_CASE
#undef BLK_X8
static MOTE_INLINE const blk_k32_row_t *blk_k32_at(void)
{
    const blk_k32_row_t *k = blk_k32;
    __asm__("" : "+r"(k)); /* (an opaque copy of the address) */
    return k;
}

/* Stop sets whose bytes (below 0x80) differ in their low four bits, as
 * VPSHUFB tables (both lanes): the entry for each stop byte's low bits is
 * that byte, the others a byte with other low bits; a byte equals its
 * entry exactly when it is a stop (0x80 and up look up 0). One shuffle and
 * one compare per 32 bytes instead of one compare per stop byte and the
 * ORs (blk_mysql's four and six: callgrind dump row 0.27, quotes row 0.2
 * instructions per byte less). blk_pg's holds its parentheses too. */
#define BLK_SHUF_AT(c) [(c) & 15] = (c), [16 + ((c) & 15)] = (c),
static const uint8_t blk_shuf[3][32] __attribute__((aligned(32))) = {
    {BLK_SHUF_AT(0x80) BLK_SHUF_AT('#') BLK_SHUF_AT('-') BLK_SHUF_AT('/') BLK_SHUF_AT(';')},
    {BLK_SHUF_AT('`') BLK_SHUF_AT('"') BLK_SHUF_AT('#') BLK_SHUF_AT('-') BLK_SHUF_AT('/') BLK_SHUF_AT(';')},
    {BLK_SHUF_AT(0x80) BLK_SHUF_AT('"') BLK_SHUF_AT('$') BLK_SHUF_AT('(') BLK_SHUF_AT(')') BLK_SHUF_AT('-')
         BLK_SHUF_AT('/') BLK_SHUF_AT(';')},
};
#undef BLK_SHUF_AT

/* kv: blk_k32_at(); konst: c is a constant configuration's (or lines), whose
 * quotes and stop bytes then come from kv too (the backslash and line breaks
 * are constants in every configuration). */
static BLK_AVX2_FN inline void blk_classify_avx2(const blk_cfg *c, bool lines, bool konst, const blk_k32_row_t *kv,
                                                 bool parens, const uint8_t *r, blk_masks *m, uint64_t *q)
{
    const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)r);
    const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(r + 32));
#define BLK_M2(x, y) ((uint64_t)(uint32_t)_mm256_movemask_epi8(x) | (uint64_t)(uint32_t)_mm256_movemask_epi8(y) << 32)
/* byte c broadcast: from kv where mem, else built */
#define BLK_SPL(c, mem) (mem ? _mm256_load_si256((const __m256i *)(const void *)kv[blk_k32_row(c)]) \
                             : _mm256_set1_epi8((char)(c)))
#define BLK_EQ2(c, mem) BLK_M2(_mm256_cmpeq_epi8(a, BLK_SPL(c, mem)), _mm256_cmpeq_epi8(b, BLK_SPL(c, mem)))
    m->q = BLK_EQ2(lines ? '"' : c->close[0], konst);
    if (q) { /* (every kind's quotes: see blk_classify()) */
        q[0] = m->q;
        q[1] = q[2] = q[3] = 0;
        for (unsigned w = c->slots & 14u; w; w &= w - 1) q[low_bit(w)] = BLK_EQ2(c->close[low_bit(w)], konst);
    }
    m->stop = 0;
    const unsigned sr = konst ? c->shuf[c->nstop == sizeof c->stop] : 0;
    if (!lines && sr) {
        const __m256i t = _mm256_load_si256((const __m256i *)(const void *)blk_shuf[sr - 1]);
        m->stop = BLK_M2(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(t, a), a),
                         _mm256_cmpeq_epi8(_mm256_shuffle_epi8(t, b), b));
    } else if (!lines && c->nstop) { /* (in pairs, as blk_stops()) */
#define BLK_ST2(x, j) _mm256_or_si256(_mm256_cmpeq_epi8(x, BLK_SPL(c->stop[j], konst)), \
                                      _mm256_cmpeq_epi8(x, BLK_SPL(c->stop[j + 1], konst)))
        __m256i sa = BLK_ST2(a, 0), sb = BLK_ST2(b, 0);
        if (c->nstop > 2) sa = _mm256_or_si256(sa, BLK_ST2(a, 2)), sb = _mm256_or_si256(sb, BLK_ST2(b, 2));
        if (c->nstop > 4) sa = _mm256_or_si256(sa, BLK_ST2(a, 4)), sb = _mm256_or_si256(sb, BLK_ST2(b, 4));
#undef BLK_ST2
        m->stop = BLK_M2(sa, sb);
    }
    if (parens && !sr) { /* blk 3: '(' and ')', as blk_classify() */
        const __m256i one = _mm256_set1_epi8(1), cp = _mm256_set1_epi8(')');
        m->stop |= BLK_M2(_mm256_cmpeq_epi8(_mm256_or_si256(a, one), cp),
                          _mm256_cmpeq_epi8(_mm256_or_si256(b, one), cp));
    }
    m->bs = BLK_EQ2('\\', true);
    /* Line breaks are rare: '\r' in most text, '\n' too in the first loop's long runs (not postgres's:
     * pg_dump's INSERTs end in most of their blocks). One VPTEST for the block, their masks only where
     * it holds one (callgrind dump row 2.68 -> 2.66, quotes 10.69 -> 10.62; dump 4.24 -> 4.54 GB/s). */
#define BLK_ANY(c) _mm256_or_si256(_mm256_cmpeq_epi8(a, BLK_SPL(c, true)), _mm256_cmpeq_epi8(b, BLK_SPL(c, true)))
    const bool first = !q && !lines && !parens;
    const __m256i lb = first ? _mm256_or_si256(BLK_ANY('\r'), BLK_ANY('\n')) : BLK_ANY('\r');
    m->nl = first ? 0 : BLK_EQ2('\n', true);
    m->cr = 0;
    if (!_mm256_testz_si256(lb, lb)) {
        if (first) m->nl = BLK_EQ2('\n', true);
        m->cr = BLK_EQ2('\r', true);
    }
#undef BLK_ANY
#undef BLK_EQ2
#undef BLK_SPL
#undef BLK_M2
}
#endif
#elif !defined(MOTE_NO_SIMD) && defined(__aarch64__) && defined(__ARM_NEON)
#define BLK_VECTOR 1
typedef uint8x16_t blk_vec;
#define BLK_SPLAT(c) vdupq_n_u8(c)
#define BLK_LOAD(r) vld1q_u8(r)
#define BLK_EQ(v, w) vceqq_u8(v, w)
#define BLK_OR(a, b) vorrq_u8(a, b)
#define BLK_NONE(v) (vmaxvq_u8(v) == 0)
/* 64 compare results (0xff / 0) to a bit mask: weigh each lane by its bit
 * within its group of eight, then three rounds of pairwise adds sum every
 * group of eight lanes into one byte, in input order. */
static MOTE_INLINE uint64_t blk_movemask(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d)
{
    static const uint8_t weight[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t w = vld1q_u8(weight);
    uint8x16_t s = vpaddq_u8(vpaddq_u8(vandq_u8(a, w), vandq_u8(b, w)),
                             vpaddq_u8(vandq_u8(c, w), vandq_u8(d, w)));
    s = vpaddq_u8(s, s);
    return vgetq_lane_u64(vreinterpretq_u64_u8(s), 0);
}
#else
#define BLK_VECTOR 0
typedef uint8_t blk_vec; /* the portable version looks stops up in the table */
#define BLK_SPLAT(c) (c)
#endif

/* prefix_xor() by the build's instructions, or with avx2 (in blk_kinds()) by PCLMULQDQ */
static MOTE_INLINE uint64_t blk_pxor(uint64_t x, bool avx2)
{
#ifdef BLK_AVX2
    if (avx2) return prefix_xor_clmul(x);
#endif
    (void)avx2;
    return prefix_xor(x);
}

#if BLK_VECTOR
/* Bytes of v equal to any of the scanner's stop bytes (sc->blk_stop, n > 0
 * of them, broadcast), compared in pairs (an odd count repeats one). */
static MOTE_INLINE blk_vec blk_stops(blk_vec v, const blk_vec *sv, unsigned n)
{
    blk_vec s = BLK_OR(BLK_EQ(v, sv[0]), BLK_EQ(v, sv[1]));
    if (n > 2) s = BLK_OR(s, BLK_OR(BLK_EQ(v, sv[2]), BLK_EQ(v, sv[3])));
    if (n > 4) s = BLK_OR(s, BLK_OR(BLK_EQ(v, sv[4]), BLK_EQ(v, sv[5])));
    return s;
}
#endif

/* With q (vector builds, for blk_kinds()), also each slot's quotes: q[s]
 * for the slots in blk_slots, else 0 (q[0] = m->q). */
static MOTE_INLINE void blk_classify(const blk_cfg *c, const uint64_t *t, unsigned blk, const blk_vec *sv,
                                     unsigned ns, const uint8_t *r, blk_masks *m, uint64_t *q)
{
#if BLK_VECTOR
    (void)t;
    const blk_vec v0 = BLK_LOAD(r), v1 = BLK_LOAD(r + 16), v2 = BLK_LOAD(r + 32), v3 = BLK_LOAD(r + 48);
#define BLK_MASK(c) blk_movemask(BLK_EQ(v0, BLK_SPLAT(c)), BLK_EQ(v1, BLK_SPLAT(c)), \
                                 BLK_EQ(v2, BLK_SPLAT(c)), BLK_EQ(v3, BLK_SPLAT(c)))
    m->q = BLK_MASK(blk == 2 ? '"' : '\'');
    if (q) {
        q[0] = m->q;
        q[1] = q[2] = q[3] = 0;
        for (unsigned w = c->slots & 14u; w; w &= w - 1) q[low_bit(w)] = BLK_MASK(c->close[low_bit(w)]);
    }
    m->stop = ns ? blk_movemask(blk_stops(v0, sv, ns), blk_stops(v1, sv, ns), blk_stops(v2, sv, ns),
                              blk_stops(v3, sv, ns))
               : 0;
    if (blk == 3) { /* '(' and ')': (byte | 1) == ')' */
        const blk_vec one = BLK_SPLAT(1), cp = BLK_SPLAT(')');
        m->stop |= blk_movemask(BLK_EQ(BLK_OR(v0, one), cp), BLK_EQ(BLK_OR(v1, one), cp),
                                BLK_EQ(BLK_OR(v2, one), cp), BLK_EQ(BLK_OR(v3, one), cp));
    }
    m->bs = BLK_MASK('\\');
    /* line breaks, as blk_classify_avx2() tests them (the first loop: no q, stop bytes, not postgres) */
#define BLK_ANY(c) BLK_OR(BLK_OR(BLK_EQ(v0, BLK_SPLAT(c)), BLK_EQ(v1, BLK_SPLAT(c))), \
                          BLK_OR(BLK_EQ(v2, BLK_SPLAT(c)), BLK_EQ(v3, BLK_SPLAT(c))))
    const bool first = !q && ns && blk != 3;
    m->nl = first ? 0 : BLK_MASK('\n');
    m->cr = 0;
    if (!BLK_NONE(first ? BLK_OR(BLK_ANY('\r'), BLK_ANY('\n')) : BLK_ANY('\r'))) {
        if (first) m->nl = BLK_MASK('\n');
        m->cr = BLK_MASK('\r');
    }
#undef BLK_ANY
#undef BLK_MASK
#else
    (void)c, (void)blk, (void)sv, (void)ns, (void)q;
    uint64_t qq = 0, st = 0, b = 0, lb = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
    for (unsigned h = 0; h < 4; h++) {
        const uint8_t *x8 = r + 16 * h;
        /* + is | here: the shifted planes never overlap. Plane k of the
         * 16 bytes lands in bits 16k..16k+15. */
        const uint64_t x = t[x8[0]] + (t[x8[1]] << 1) + (t[x8[2]] << 2) + (t[x8[3]] << 3) +
                           ((t[x8[4]] + (t[x8[5]] << 1) + (t[x8[6]] << 2) + (t[x8[7]] << 3)) << 4);
        const uint64_t y = t[x8[8]] + (t[x8[9]] << 1) + (t[x8[10]] << 2) + (t[x8[11]] << 3) +
                           ((t[x8[12]] + (t[x8[13]] << 1) + (t[x8[14]] << 2) + (t[x8[15]] << 3)) << 4);
        const uint64_t z = x + (y << 8);
        qq |= (z & 0xffffu) << (16 * h);
        st |= ((z >> (16 * P_STOP)) & 0xffffu) << (16 * h);
        b |= ((z >> (16 * P_BSL)) & 0xffffu) << (16 * h);
        lb |= (z >> (16 * P_LB)) << (16 * h);
    }
    /* line breaks are rare: tell them apart one by one */
    uint64_t cr = 0;
    for (uint64_t w = lb; w; w &= w - 1) {
        const unsigned k = low_bit(w);
        if (r[k] == '\r') cr |= (uint64_t)1 << k;
    }
    m->q = qq;
    m->stop = st;
    m->bs = b;
    m->nl = lb & ~cr;
    m->cr = cr;
#endif
}

/*
 * Inside quote slot `slot` at i: a string's bytes up to its closer, by the
 * class table (text_loops()). Returns the index after the closer (*closed set), or where the
 * switch must look (a line break, an escape before one or at lim), or lim.
 */
static MOTE_INLINE size_t quote_run(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim,
                                    unsigned slot, bool *closed)
{
    const uint8_t mask = (uint8_t)(C_Q0 << slot);
    const uint8_t close = sc->q_close[slot];
    const int esc = sc->q_esc[slot]; /* (NO_ESC matches no byte) */
    *closed = false;
    for (;;) {
        if (!find(sc->cls, p, &i, lim, mask)) return i;
        const uint8_t c = p[i];
        if (c == close) {
            *closed = true;
            return i + 1;
        }
        if ((int)c != esc || lim - i < 2 || p[i + 1] == '\n' || p[i + 1] == '\r') return i;
        sc->tokflags |= MOTE_SCAN_TOK_ESCAPES;
        i += 2;
    }
}

/*
 * The block at i, given its string regions `in` (bit j: byte j is inside a
 * string; an opening quote is, a closing one is not) and the quote bytes
 * that open or close one (m->q but escaped ones): the bit k (64: none) of the first byte the
 * block path cannot pass, outside strings (a stop byte, a lone backslash
 * where escapes work only in strings, "--", the delimiter line break) or
 * anywhere ('\r'). Counts the lines before it, sets the escape flag and
 * open_pos's offset; *inside: the state at byte k, or after the block. sel: selects,
 * not branches, where they would go as the data does (blk_multi(): in
 * quote-dense text, whether a string holds an escape).
 */
static MOTE_INLINE unsigned blk_segment(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim,
                                        const blk_masks *m, unsigned f, uint64_t in, uint64_t *inside, bool sel)
{
    const uint64_t out = ~in & ~m->esc;
    uint64_t stop = (m->stop & out) | m->cr;
    if (!(f & BLK_ESC_OUT)) stop |= m->bs & ~in; /* outside strings '\' is text: the switch says */
    if (f & BLK_NL_STOP) stop |= m->nl & out;
    unsigned k;
    if (!BLK_VECTOR || !(f & BLK_NL_STOP)) {
        k = stop ? low_bit(stop) : 64u;
    } else {
        /* Records: the first line break (or other stop) is almost always
         * outside strings; taking it before the string mask is known lets
         * the next record start early (a branch, not a data dependence).
         * The check only confirms it (stop is a subset of cand). */
        const uint64_t cand = m->stop | m->cr | m->nl | ((f & BLK_ESC_OUT) ? 0 : m->bs);
        k = cand ? low_bit(cand) : 64u;
        if (MOTE_UNLIKELY(k != 64 && !((stop >> k) & 1u))) k = stop ? low_bit(stop) : 64u;
    }
    /* a '-' stops only as "--" where that may open a comment; postgres's
     * parentheses pass, counted below */
    uint64_t parens = 0;
    for (; k != 64; stop &= stop - 1, k = stop ? low_bit(stop) : 64u) { /* (stop's lowest bit is k) */
        const uint8_t c = p[i + k];
        if (c == '-') {
            if ((f & BLK_DASH) && (i + k + 1 >= lim || p[i + k + 1] == '-')) break;
        } else if (!(f & BLK_PG) || (c != '(' && c != ')')) {
            break;
        } else {
            parens |= (uint64_t)1 << k;
        }
    }
    bool at_open = false; /* postgres: k is an E'' string's opening quote */
    if (f & BLK_PG) {
        /* The '\'' quotes before k that open a string were read as standard
         * ones (the prefix XOR): the first that opens an escape string ends
         * the run there, for on_code() and on_string(). */
        for (uint64_t o = m->q & ~m->esc & in & (k == 64 ? UINT64_MAX : ((uint64_t)1 << k) - 1u); o; o &= o - 1) {
            const unsigned b = low_bit(o);
            if (p[i + b] == '\'' && pg_estring(sc, i + b)) {
                k = b;
                at_open = true;
                break;
            }
        }
        for (parens &= k == 64 ? UINT64_MAX : ((uint64_t)1 << k) - 1u; parens; parens &= parens - 1)
            pg_paren(sc, p[i + low_bit(parens)]);
    }
    const uint64_t below = k == 64 ? UINT64_MAX : ((uint64_t)1 << k) - 1u;
    *inside = at_open ? 0u : k == 64 ? in >> 63 : (in >> k) & 1u;
    const bool esc = (m->bs & below & ((f & BLK_ESC_OUT) ? UINT64_MAX : in)) != 0;
    if (sel) sc->tokflags |= (0u - (unsigned)esc) & MOTE_SCAN_TOK_ESCAPES;
    else if (esc) sc->tokflags |= MOTE_SCAN_TOK_ESCAPES;
    /* the last string opened (its line and column: blk_done(), if the run ends in it) */
    const uint64_t opens = m->q & ~m->esc & in & below;
    if (*inside && opens) sc->open_pos.offset = sc->base + i + high_bit(opens), sc->open_pos.column = sc->line_start;
    const uint64_t nlb = m->nl & below;
    if (nlb) {
        sc->line += mote__popcount64(nlb);
        sc->cr = 0;
        sc->line_start = sc->base + i + high_bit(nlb) + 1;
    }
    return k;
}

/*
 * Strings of every quote kind blk_slots names in the block at r (q[s]: slot
 * s's quotes), slot st - 1 open at its start (st 0: none), read from the
 * left: a quote outside strings opens one, the next quote of its kind
 * closes it, other quotes between are text. First as if every unescaped
 * quote opened or closed one (one prefix XOR). That is the reading when
 * every string ends at a quote of its own kind: a string's start, added to
 * its bits, carries to the byte after it, so one add per kind (but the
 * first) gives the ends of that kind's strings, which must be the ends
 * that are that kind's quotes (then the first kind's are too). Else the
 * quotes are walked one by one, as the byte loops read them (no limit on
 * quotes inside other kinds' strings). Sets m->q to the quotes that open or
 * close a string, takes the quotes out of m->stop, and gives the strings in
 * *in (an opening quote is inside, a closing one is not) and where they
 * start in *starts. False where a backslash lies where it escapes nothing
 * (m->esc would be wrong): the byte loops read that block.
 */
static MOTE_INLINE bool blk_kinds(unsigned slots, const uint8_t *open_slot, const uint8_t *r, const uint64_t q[4],
                                  blk_masks *m, unsigned f, unsigned st, uint64_t *in, uint64_t *starts, bool avx2)
{
    const uint64_t open = (uint64_t)0 - (st != 0);
    uint64_t a = (q[0] | q[1] | q[2] | q[3]) & ~m->esc;
    uint64_t x = blk_pxor(a, avx2) ^ open, s0 = x & ~(x << 1 | (open & 1u));
    /* (a string open at the block's start ends at its first quote) */
    uint64_t bad = st ? a & ((uint64_t)0 - a) & ~q[st - 1] : 0;
    const uint64_t ends = (x + s0) & ~x;
    for (unsigned w = slots & 14u; w; w &= w - 1) {
        const uint64_t qs = q[low_bit(w)];
        bad |= ((x + (s0 & qs)) & ~x) ^ (ends & qs);
    }
    if (bad) {
        unsigned cur = st;
        uint64_t w = a;
        for (a = 0; w; w &= w - 1) {
            const unsigned b = low_bit(w), k = open_slot[r[b]]; /* (slot + 1) */
            if (cur == 0 || cur == k) {
                cur ^= k;
                a |= (uint64_t)1 << b;
            }
        }
        x = blk_pxor(a, avx2) ^ open;
        s0 = x & ~(x << 1 | (open & 1u));
    }
    m->q = a;
    m->stop &= ~(q[1] | q[2] | q[3]);
    *in = x;
    *starts = s0;
    /* (without escapes m->bs is 0; with them no test for backslashes: in
     * quote-dense text they come and go at random) */
    if (!(f & BLK_ESC)) return true;
    /* backslashes escape in strings of slots with bit 4 + slot (and outside
     * strings with BLK_ESC_OUT) */
    uint64_t ne = 0;
    for (unsigned w = slots & ~(slots >> 4) & 15u; w; w &= w - 1) ne |= q[low_bit(w)];
    uint64_t escin = x & ~(x + (s0 & ~ne));
    /* (the string open at the block's start escapes up to its first quote, all of it without one) */
    escin |= ((uint64_t)0 - (st && ((slots >> (3 + st)) & 1u))) & ((a & ((uint64_t)0 - a)) - 1u);
    if (f & BLK_ESC_OUT) escin |= ~x;
    return !(m->bs & ~escin);
}

/* The end of a run of the block path at i (from start): the state there (st: 0 outside strings,
 * slot + 1 in one; pend: an escape pending), whether the next run starts in blk_multi() (kinds: the
 * last block held other kinds' quotes), and the back-off (a branch on a miss, rare where runs end at
 * the delimiter: callgrind quotes row 11.22 -> 11.15). */
static MOTE_INLINE size_t blk_done(mote_scanner *sc, const uint8_t *p, size_t start, size_t i, size_t lim,
                                   unsigned st, uint64_t pend, bool kinds, bool lines)
{
    if (st && sc->open_pos.offset >= sc->base + start) blk_open_pos(sc, p, i);
    if (!lines) {
        sc->slot = (uint8_t)(st ? st - 1u : 0);
        sc->blk_multi = kinds;
    }
    sc->state = st ? (pend ? S_QESC : S_QUOTE) : (pend ? S_ESC : S_NORMAL);
    /* A short run not ended by the delimiter (for the portable classifier,
     * no cheaper than the byte loops, any short run): text the byte loops
     * do better. Leave it to them for a while, longer after each miss in a
     * row. */
    const unsigned n = sc->blk_miss;
    if (MOTE_UNLIKELY(i - start < 64 && (!BLK_VECTOR || lim - i < 64 || p[i] != (lines ? '\n' : sc->delim[0])))) {
        sc->blk_resume = sc->base + i + ((uint64_t)256 << n);
        sc->blk_miss = (uint8_t)(n + (n < 4));
    } else {
        sc->blk_miss = 0;
    }
    return i;
}

/* What blk_multi() hands back: where it stopped; more: a block without
 * other kinds' quotes passed and 64 bytes are left, so the first loop goes
 * on from i in state st, pend (else blk_done() was called). */
typedef struct blk_ret {
    size_t i;
    uint8_t st, pend, more;
} blk_ret;

/* The block loop where several quote kinds' strings meet (blk_kinds()),
 * from i in state st (run started at start). Out of line, state in and out
 * by value: the first loop's registers stay its own. f: blk_flags; kc: what
 * the classifier reads, if constant (block_multi_with()), else NULL. */
static MOTE_INLINE blk_ret blk_multi_with(mote_scanner *sc, const uint8_t *p, size_t start, size_t i, size_t lim,
                                          unsigned st, uint64_t pend, bool avx2, unsigned f, const blk_cfg *kc)
{
    const uint64_t *t = blk_tables[sc->blk - 1];
    blk_vec sv[sizeof sc->blk_stop];
    const uint8_t *stop = kc ? kc->stop : sc->blk_stop;
    /* (constant: all, the unused ones are dropped) */
    const unsigned nsv = avx2 || !BLK_VECTOR ? 0 : kc ? sizeof sc->blk_stop : (sc->blk_nother + 1u) & ~1u;
    for (unsigned j = 0; j < nsv; j++) sv[j] = BLK_SPLAT(stop[j]);
#ifdef BLK_AVX2
    const blk_k32_row_t *kv = avx2 ? blk_k32_at() : NULL;
#endif
    bool kinds = false;
    while (lim - i >= 64) {
        /* (copied per block: measured fewer instructions in runs of one or
         * two blocks, quote-dense statements, than copied before the loop) */
        blk_cfg c;
        if (kc) {
            c = *kc;
        } else {
            blk_cfg_of(sc, false, &c);
            c.nstop = sc->blk_nother;
        }
        blk_masks m;
        uint64_t q[4], in, starts, inside;
#ifdef BLK_AVX2
        if (avx2) blk_classify_avx2(&c, false, kc != NULL, kv, (f & BLK_PG) != 0, p + i, &m, q);
        else
#endif
        blk_classify(&c, t, kc ? 1u : sc->blk, sv, c.nstop, p + i, &m, q); /* (constant: '\'' first) */
        const uint64_t pend0 = pend;
        m.esc = 0;
        if (f & BLK_ESC) {
            m.esc = escaped_by(m.bs, &pend); /* (no test: here backslashes come and go at random) */
        } else {
            m.bs = 0;
        }
        if (!blk_kinds(c.slots, sc->open_slot, p + i, q, &m, f, st, &in, &starts, avx2)) {
            pend = pend0; /* (the byte loops read this block) */
            break;
        }
        const unsigned k = blk_segment(sc, p, i, lim, &m, f, in, &inside, true);
        if (inside) { /* the slot of the string there: the byte it starts at, or the one open before */
            const uint64_t sb = starts & (UINT64_MAX >> (63u - (k == 64 ? 63u : k)));
            st = sb ? sc->open_slot[p[i + high_bit(sb)]] : st;
        } else {
            st = 0;
        }
        kinds = ((q[1] | q[2] | q[3]) != 0) | (st > 1);
        if (k != 64) {
            i += k;
            pend = (m.esc >> k) & 1u;
            break;
        }
        i += 64;
        if (!kinds && lim - i >= 64) return (blk_ret){i, (uint8_t)st, (uint8_t)pend, 1};
    }
    return (blk_ret){blk_done(sc, p, start, i, lim, st, pend, kinds, false), 0, 0, 0};
}
/* (entered outside strings, no escape pending: st and pend 0) */
#ifdef BLK_AVX2
static BLK_CLMUL_FN BLK_FLAT MOTE_NOINLINE blk_ret blk_multi_avx2(mote_scanner *sc, const uint8_t *p, size_t start, size_t i,
                                                                  size_t lim)
{
    return blk_multi_with(sc, p, start, i, lim, 0, 0, true, blk_fl(sc), NULL);
}
#endif
static MOTE_NOINLINE blk_ret blk_multi_any(mote_scanner *sc, const uint8_t *p, size_t start, size_t i, size_t lim)
{
    return blk_multi_with(sc, p, start, i, lim, 0, 0, false, blk_fl(sc), NULL);
}
static MOTE_INLINE blk_ret blk_multi(mote_scanner *sc, const uint8_t *p, size_t start, size_t i, size_t lim, bool avx2)
{
#ifdef BLK_AVX2
    if (avx2) return blk_multi_avx2(sc, p, start, i, lim);
#endif
    (void)avx2;
    return blk_multi_any(sc, p, start, i, lim);
}

/* The built-in dialects whose statements mix quote kinds (mysql: '"` with
 * backslash escapes in the first two; sqlite: '"` without escapes): their
 * flags but BLK_AVX2F and what blk_cfg_of() would copy (nstop: blk_nother;
 * blk_nstop is 6). blk_multi_with() (both) and the first-kind loop (mysql)
 * get them as constants: slot loops and stop compares unrolled, flag tests
 * gone, constant vectors (callgrind quotes row 14.9 -> 13.0 instructions per
 * byte, dump 3.60 -> 3.55; x86-64 object 13 KB larger). Other
 * configurations (SET statements, DELIMITER, generic ones) take the copy
 * that reads the scanner. */
enum { BLK_MYSQL_F = BLK_ESC | BLK_DASH, BLK_SQLITE_F = BLK_DASH, BLK_PG_F = BLK_DASH | BLK_PG };
static const blk_cfg blk_mysql = {{'\'', '"', '`', 0}, {'#', '-', '/', ';', '"', '`'}, 4, 0x37, {1, 2}};
static const blk_cfg blk_sqlite = {{'\'', '"', '`', ']'}, {'-', '/', ';', '[', '"', '`'}, 4, 0x07, {0, 0}};
/* postgres, standard strings, first loop (callgrind pginserts row 10.21 -> 7.58, SSE2 12.51 -> 10.77) */
static const blk_cfg blk_pg = {{'\'', '"', '\'', 0}, {'$', '-', '/', ';', '"', '$'}, 4, 0x03, {3, 3}};

static MOTE_INLINE bool blk_is(const mote_scanner *sc, unsigned f, const blk_cfg *k, bool first)
{
    /* (blk_multi_with() reads blk_nother stop bytes, the first loop all six: they fix blk_nstop) */
    return (blk_fl(sc) & ~(unsigned)BLK_AVX2F) == f && sc->blk_slots == k->slots && sc->blk_nother == k->nstop &&
           !memcmp(sc->q_close, k->close, sizeof k->close) &&
           !memcmp(sc->blk_stop, k->stop, first ? sizeof k->stop : k->nstop);
}

/* blk_flags but BLK_AVX2F, with BLK_CONST where the configuration is
 * blk_mysql's (BLK_MYSQL_F, all of it), blk_sqlite's (BLK_SQLITE_F, as
 * blk_multi_with() reads it) or blk_pg's (its flags blk_sqlite's, blk 3):
 * decided at the configuration's first run and kept in the flags (blk_setup()
 * writes them anew), one test per run, not blk_is()'s dozen (callgrind quotes
 * row: 10 instructions per statement). */
static MOTE_INLINE unsigned blk_const(mote_scanner *sc)
{
    unsigned f = sc->blk_flags;
    if (!(f & BLK_CONST) && (blk_is(sc, BLK_MYSQL_F, &blk_mysql, true) ||
                             blk_is(sc, BLK_SQLITE_F, &blk_sqlite, false) || blk_is(sc, BLK_PG_F, &blk_pg, true)))
        sc->blk_flags = (uint8_t)(f |= BLK_CONST);
    return f & ~(unsigned)BLK_AVX2F;
}

/* For tests/test_scan.c: the constant configuration a scanner's block path
 * runs with (1 blk_mysql, 2 blk_sqlite, 3 blk_pg, 0 none), so that a change
 * to blk_setup() that parts from one fails a test instead of only losing its
 * speed (the tokens stay the same either way). */
int mote__scan_blk_const(mote_scanner *sc);
int mote__scan_blk_const(mote_scanner *sc)
{
    const unsigned f = blk_const(sc);
    return f == (BLK_MYSQL_F | BLK_CONST) ? 1 : f == (BLK_SQLITE_F | BLK_CONST) ? 2 + (sc->blk == 3) : 0;
}

/* For tests and fuzz targets: this scanner's block path without AVX2 (the
 * SSE2 classifier then, as on CPUs without AVX2), so that one process
 * compares both on the same input. After mote_scan_init(); it holds until
 * the next init. A no-op where the build has no AVX2 path. */
void mote__scan_no_avx2(mote_scanner *sc);
void mote__scan_no_avx2(mote_scanner *sc)
{
    sc->mode |= MODE_NO_AVX2; /* kept by SET statements, which change their bits only */
    sc->mode_next |= MODE_NO_AVX2;
    sc->blk_flags &= (uint8_t)~BLK_AVX2F;
}

/*
 * The block path: from i (state st, pend as in blk_done(), no delimiter
 * byte matched, no "\r" just counted; the run started at start), while 64
 * bytes remain below lim, blocks become masks, the first quote kind's
 * strings a prefix XOR, other quote bytes stops. Where another kind's
 * string opens, blk_multi() reads on while blocks hold other kinds (and the
 * next run starts there if the last block did: block_text()). Sets the
 * state and slot at the returned index. lines: the configuration is
 * BLK_LINES (flags, quote and delimiter constant; no stop bytes, no other
 * quotes). fl: blk_flags; kc: what the classifier reads, if constant (see
 * blk_mysql), else NULL.
 */
static MOTE_INLINE size_t block_text_with(mote_scanner *sc, const uint8_t *p, size_t start, size_t i, size_t lim,
                                          unsigned st, uint64_t pend, bool avx2, bool lines, unsigned fl,
                                          const blk_cfg *kc)
{
    const uint64_t *t = blk_tables[lines ? 1 : sc->blk - 1];
    const unsigned f = lines ? BLK_LINES_F : fl;
    blk_cfg c;
    if (kc) {
        c = *kc;
        c.nstop = sizeof c.stop;
    } else {
        blk_cfg_of(sc, lines, &c);
    }
    blk_vec sv[sizeof sc->blk_stop];
    /* (the compares go in pairs: an odd count repeats one) */
    const unsigned nsv = avx2 || lines || !BLK_VECTOR ? 0 : (c.nstop + 1u) & ~1u;
    for (unsigned j = 0; j < nsv; j++) sv[j] = BLK_SPLAT(c.stop[j]);
#ifdef BLK_AVX2
    const blk_k32_row_t *kv = avx2 ? blk_k32_at() : NULL;
#endif
    while (lim - i >= 64) {
        blk_masks m;
#ifdef BLK_AVX2
        if (avx2) blk_classify_avx2(&c, lines, lines || kc, kv, (f & BLK_PG) != 0, p + i, &m, NULL);
        else
#endif
        blk_classify(&c, t, lines ? 2 : (f & BLK_PG) ? 3u : kc ? 1u : sc->blk, sv, lines ? 0 : c.nstop, p + i, &m, NULL);
        m.esc = 0;
        if (f & BLK_ESC) {
            if (m.bs | pend) m.esc = escaped_by(m.bs, &pend);
        } else {
            m.bs = 0; /* no escapes at all: a backslash is text */
        }
        /* (the shift chain here: the multiply's latency shows, measured) */
        const uint64_t in = prefix_xor(m.q & ~m.esc) ^ ((uint64_t)0 - st);
        uint64_t inside;
        const unsigned k = blk_segment(sc, p, i, lim, &m, f, in, &inside, BLK_VECTOR && !lines);
        st = (unsigned)inside;
        if (MOTE_LIKELY(k == 64)) {
            i += 64;
            continue;
        }
        i += k;
        pend = (m.esc >> k) & 1u;
        /* the switch's byte, or another kind's string opens there */
        const unsigned os = sc->open_slot[p[i]];
        if (!BLK_VECTOR || lines || inside || os < 2 || !((c.slots >> (os - 1u)) & 1u)) break;
        const blk_ret r = blk_multi(sc, p, start, i, lim, avx2);
        if (!r.more) return r.i;
        i = r.i, st = r.st, pend = r.pend;
    }
    return blk_done(sc, p, start, i, lim, st, pend, false, lines);
}

/* The block path from i in state NORMAL or QUOTE where another kind's
 * string is open or the last run's last block held other kinds: in
 * blk_multi() first (its loop inlined here: a call less per run where
 * every statement holds several kinds, measured). */
static MOTE_INLINE size_t block_multi_with(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim, bool avx2)
{
    const unsigned st = sc->state != S_QUOTE ? 0 : sc->slot + 1u, a = avx2 ? BLK_AVX2F : 0u;
    blk_ret r;
    const unsigned k = blk_const(sc);
    if (k == (BLK_MYSQL_F | BLK_CONST))
        r = blk_multi_with(sc, p, i, i, lim, st, 0, avx2, BLK_MYSQL_F | a, &blk_mysql);
    else if (k == (BLK_SQLITE_F | BLK_CONST) && sc->blk != 3) /* (blk_pg: flags as blk_sqlite's) */
        r = blk_multi_with(sc, p, i, i, lim, st, 0, avx2, BLK_SQLITE_F | a, &blk_sqlite);
    else
        r = blk_multi_with(sc, p, i, i, lim, st, 0, avx2, blk_fl(sc), NULL);
    if (!r.more) return r.i;
    return block_text_with(sc, p, i, r.i, lim, r.st, r.pend, avx2, false, blk_fl(sc), NULL);
}

/* block_multi_with() with blk_mysql's loops alone (block_multimy_avx2(), block_multimy_any()). */
static MOTE_INLINE size_t block_multi_mysql(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim, bool avx2)
{
    const unsigned st = sc->state != S_QUOTE ? 0 : sc->slot + 1u, f = BLK_MYSQL_F | (avx2 ? BLK_AVX2F : 0u);
    const blk_ret r = blk_multi_with(sc, p, i, i, lim, st, 0, avx2, f, &blk_mysql);
    return r.more ? block_text_with(sc, p, i, r.i, lim, r.st, r.pend, avx2, false, f, &blk_mysql) : r.i;
}

/* block_text_with() for AVX2 and for the build's own classifier, from i in
 * state NORMAL or QUOTE. (The portable classifier leaves other kinds to
 * the byte loops.) */
#ifdef BLK_AVX2
static BLK_CLMUL_FN BLK_FLAT MOTE_NOINLINE size_t block_multi_avx2(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    return block_multi_with(sc, p, i, lim, true);
}
static BLK_AVX2_FN BLK_FLAT MOTE_NOINLINE size_t block_first_avx2(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    const unsigned st = sc->state == S_QUOTE;
    if (blk_const(sc) == (BLK_MYSQL_F | BLK_CONST))
        return block_text_with(sc, p, i, i, lim, st, 0, true, false, BLK_MYSQL_F | BLK_AVX2F, &blk_mysql);
    return block_text_with(sc, p, i, i, lim, st, 0, true, false, blk_fl(sc), NULL);
}
/* blk_mysql's multi loop apart (block_text() chooses it once blk_const() has found that configuration),
 * from the other configurations' and without the general first loop: with the test above, callgrind
 * quotes row 10.62 -> 10.49, 1.32 -> 1.38 GB/s (alone 10.69 -> 10.66, 1.31 -> 1.33). */
static BLK_CLMUL_FN BLK_FLAT MOTE_NOINLINE size_t block_multimy_avx2(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    return block_multi_mysql(sc, p, i, lim, true);
}
/* postgres (blk 3) apart: blk_pg's loop in block_first_avx2() took registers
 * from blk_mysql's (callgrind dump row 2.68 -> 2.74); called from there,
 * pginserts 7.69 -> 7.95. */
static BLK_AVX2_FN BLK_FLAT MOTE_NOINLINE size_t block_pg_avx2(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    if (blk_const(sc) != (BLK_SQLITE_F | BLK_CONST)) return block_first_avx2(sc, p, i, lim);
    return block_text_with(sc, p, i, i, lim, sc->state == S_QUOTE, 0, true, false, BLK_PG_F, &blk_pg);
}
static BLK_AVX2_FN size_t block_lines_avx2(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    return block_text_with(sc, p, i, i, lim, sc->state == S_QUOTE, 0, true, true, 0, NULL);
}
#endif
static MOTE_NOINLINE size_t block_multi_any(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    return block_multi_with(sc, p, i, lim, false);
}
/* (blk_mysql's, as block_multimy_avx2(): SSE2 quotes row 14.13 -> 14.07, 1.09 -> 1.16 GB/s) */
static MOTE_NOINLINE size_t block_multimy_any(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    return block_multi_mysql(sc, p, i, lim, false);
}
static MOTE_NOINLINE size_t block_text_any(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    const unsigned st = sc->state == S_QUOTE;
    if (BLK_VECTOR && blk_const(sc) == (BLK_MYSQL_F | BLK_CONST))
        return block_text_with(sc, p, i, i, lim, st, 0, false, false, BLK_MYSQL_F, &blk_mysql);
    return block_text_with(sc, p, i, i, lim, st, 0, false, false, sc->blk_flags, NULL);
}
/* postgres's copies apart (the others test no postgres rule; blk_pg's in
 * block_text_any() took registers from blk_mysql's, SSE2 dump row 4.55 ->
 * 4.59). */
static MOTE_NOINLINE size_t block_pg_any(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    const unsigned st = sc->state == S_QUOTE;
    if (BLK_VECTOR && blk_const(sc) == (BLK_SQLITE_F | BLK_CONST))
        return block_text_with(sc, p, i, i, lim, st, 0, false, false, BLK_PG_F, &blk_pg);
    return block_text_with(sc, p, i, i, lim, st, 0, false, false, sc->blk_flags | BLK_PG, NULL);
}
static MOTE_NOINLINE size_t block_lines_any(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    return block_text_with(sc, p, i, i, lim, sc->state == S_QUOTE, 0, false, true, 0, NULL);
}

static MOTE_INLINE size_t block_text(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
#ifdef BLK_AVX2
    /* (the test apart from the vector functions, whose prologues cost more than it; here, not in a
     * function of its own: one call less per run, callgrind quotes row 11.24 -> 11.22) */
    if (sc->blk_flags & BLK_AVX2F)
        return sc->blk_multi || (sc->state == S_QUOTE && sc->slot)
                   ? ((sc->blk_flags & ~BLK_AVX2F) == (BLK_MYSQL_F | BLK_CONST) ? block_multimy_avx2(sc, p, i, lim)
                                                                                 : block_multi_avx2(sc, p, i, lim))
               : sc->blk == 3                                      ? block_pg_avx2(sc, p, i, lim)
                                                                    : block_first_avx2(sc, p, i, lim);
#endif
    return BLK_VECTOR && (sc->blk_multi || (sc->state == S_QUOTE && sc->slot))
               ? (sc->blk_flags == (BLK_MYSQL_F | BLK_CONST) ? block_multimy_any(sc, p, i, lim) : block_multi_any(sc, p, i, lim))
           : sc->blk == 3                                                     ? block_pg_any(sc, p, i, lim)
                                                                               : block_text_any(sc, p, i, lim);
}

/* block_text() for records (rec_run()): with BLK_LINES, a copy for the
 * lines dialect's configuration, its flags and bytes constants. */
static MOTE_INLINE size_t block_lines(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    if (!(sc->blk_flags & BLK_LINES)) return block_text(sc, p, i, lim);
#ifdef BLK_AVX2
    if (sc->blk_flags & BLK_AVX2F) return block_lines_avx2(sc, p, i, lim);
#endif
    return block_lines_any(sc, p, i, lim);
}

/* The block path's tests that change with the position: 64 bytes left,
 * past a miss's back-off, not at a '\r' line's start. */
static MOTE_INLINE bool blk_here(const mote_scanner *sc, size_t i, size_t lim)
{
    return lim - i >= 64 && sc->base + i >= sc->blk_resume && !(sc->cr && sc->base + i == sc->line_start);
}

/* The first chunk index past the block path's back-off (blk_resume). */
static MOTE_INLINE size_t blk_from(const mote_scanner *sc, size_t lim)
{
    if (sc->blk_resume <= sc->base) return 0;
    const uint64_t d = sc->blk_resume - sc->base;
    return d > lim ? SIZE_MAX : (size_t)d;
}

/*
 * The hot path of SQL dumps, text and strings alternating: NORMAL -> QUOTE
 * -> NORMAL inline (state in locals), up to the first byte the general
 * switch must see (a comment opener, the delimiter, a line break, an escape
 * at the chunk's end, ...) or lim. Not where a quote opener needs context
 * (postgres E'', sqlite outside NORMAL/TRIGGER): see run(). Out of line, so
 * that its loops keep their registers.
 */
static MOTE_NOINLINE size_t text_loops(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    /* where words, comments or '*' matter (sc->slow): one string at most;
     * else the block path's back-off as an index (blk_here() decides), so
     * that one compare per string does both tests. */
    size_t blk_at = 0;
    if (TRIG_SKIP(sc->trig) && !sc->slow) blk_at = sc->blk ? blk_from(sc, lim) : SIZE_MAX;
    /* the state in locals, written back once at the end */
    bool quote = sc->state == S_QUOTE;
    unsigned slot = sc->slot;
    size_t open = SIZE_MAX; /* the last string opened here, at open */
    const bool pg = sc->dialect == MOTE_SCAN_POSTGRES;
    /* postgres's parentheses, counted here as on_code() counts them where
     * no word matters (as on the block path) */
    const bool parens = pg && !sc->slow;
    for (;;) {
        if (!quote) {
            if (!find(sc->cls, p, &i, lim, C_NORM)) break;
            const uint8_t c = p[i];
            const unsigned os = sc->open_slot[c];
            /* a quote byte that also starts the delimiter: the switch
             * matches the delimiter first */
            if (c == sc->delim[0]) break;
            if (!os) {
                if (!parens || (c != '(' && c != ')')) break;
                pg_paren(sc, c);
                i++;
                continue;
            }
            slot = os - 1u;
            /* postgres: a string with an escape byte (E'..', or '..' with nonstandard strings)
             * closes in on_string(), which notes where (a quote there reopens it) */
            if (pg) {
                if (c == '\'' && pg_estring(sc, i)) slot = 2;
                if (sc->q_esc[slot] <= 0xff) break;
            }
            open = i++;
        }
        bool closed;
        i = quote_run(sc, p, i, lim, slot, &closed);
        quote = !closed;
        if (quote) break;
        if (MOTE_UNLIKELY(i >= blk_at)) {
            if (!TRIG_SKIP(sc->trig) || sc->slow) break;
            if (blk_here(sc, i, lim)) {
                sc->state = S_NORMAL;
                i = block_text(sc, p, i, lim);
                if (sc->state != S_NORMAL && sc->state != S_QUOTE) return i;
                quote = sc->state == S_QUOTE;
                slot = sc->slot;
                open = SIZE_MAX; /* (block_text() set open_pos) */
                blk_at = blk_from(sc, lim);
            }
        }
    }
    sc->state = quote ? S_QUOTE : S_NORMAL;
    sc->slot = (uint8_t)slot;
    /* only an open string's error reads open_pos, and no line break was passed since its opener */
    if (quote && open != SIZE_MAX) set_pos(sc, &sc->open_pos, open);
    return i;
}

/* text_loops() for run(), where a run of the block path that ends at a stop
 * byte (a record's line break, a statement's delimiter) goes straight back
 * to the switch, without the call. */
static MOTE_INLINE size_t fast_text(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    if (sc->blk && blk_here(sc, i, lim) && TRIG_SKIP(sc->trig) && !sc->slow &&
        (sc->state == S_NORMAL || !sc->slot || (BLK_VECTOR && ((sc->blk_slots >> sc->slot) & 1u)))) {
        i = block_text(sc, p, i, lim);
        if (sc->state != S_NORMAL && sc->state != S_QUOTE) return i;
        /* (text_loops() would return here at once) */
        if (sc->state == S_NORMAL && lim - i >= 64) return i;
    }
    return text_loops(sc, p, i, lim);
}

#endif /* !MOTE_SMALL */

/* Finish a mysql DELIMITER command: install the argument or flag an error. */
static bool dcmd_done(mote_scanner *sc)
{
    if (sc->tk.my.arglen == 0 || sc->tk.my.argbad) return false;
    set_delim(sc, sc->d.my.arg, sc->tk.my.arglen);
    build_cls(sc);
    return true;
}

/* ------------------------------------------------- statement structure */

/* The token's first code byte (after comments or nothing): kept comments
 * are handed out apart (R_SPLIT). A no-op after it. */
static void lead_code(mote_scanner *sc)
{
    const uint8_t lead = sc->lead;
    if (!lead) return;
    sc->lead = 0;
    sc->slow &= (uint8_t)~SL_LEAD;
    if ((LEAD_TRIMMED(lead) & sc->cmt) && keep_comments(sc) && !sc->dropping) sc->split = 1;
}

/* A comment opened before any code byte. Where leading blanks are trimmed
 * and comments not kept, its bytes are dropped at once (held() counts none). */
static void lead_comment(mote_scanner *sc, size_t i)
{
    if (!sc->lead) return;
    sc->cmt = 1;
    if (LEAD_TRIMMED(sc->lead) && !keep_comments(sc)) {
        mote_buf_clear(sc->carry);
        sc->tok_start = i;
    }
}

/* The state after a comment: before the statement's first code byte, or in it. */
static uint8_t after_comment(const mote_scanner *sc) { return LEAD_TRIMMED(sc->lead) ? S_LEAD : S_NORMAL; }

/* A byte that may open a comment of the configured styles. */
static MOTE_SMALL_NOINLINE bool comment_opener(const mote_scanner *sc, uint8_t c)
{
    const unsigned m = sc->comments;
    return (c == '#' && (m & MOTE_SCAN_COMMENT_HASH)) ||
           (c == '-' && (m & (MOTE_SCAN_COMMENT_DASH | MOTE_SCAN_COMMENT_DASH_SPACE))) ||
           (c == '/' && (m & MOTE_SCAN_COMMENT_BLOCK));
}

static void words_stop(mote_scanner *sc)
{
    sc->wcls = WC_NONE;
    sc->wlen = 0; /* (nor the word being read) */
    sc->slow &= (uint8_t)~(SL_WORDS | SL_LIT);
}

/* Bytes of a word: identifiers (postgres: letters, digits, _, $, bytes >=
 * 0x80; mysql adds @ and . so that @@session.sql_mode is one word). */
static MOTE_SMALL_INLINE bool word_char(const mote_scanner *sc, uint8_t c)
{
    return sq_idchar(c) || (sc->dialect == MOTE_SCAN_MYSQL && (c == '@' || c == '.'));
}

/* The first keyword before last that the word (sc->word, n bytes) spells
 * (last K_NONE) or begins (a smaller last); else K_NONE. */
static int kw_find(const mote_scanner *sc, size_t n, int last)
{
    const char *k = keywords;
    for (int j = 0; j < last; j++) {
        const size_t len = (uint8_t)*k++;
        if ((last == K_NONE ? len == n : n <= len) && memcmp(k, sc->word, n) == 0) return j;
        k += len;
    }
    return K_NONE;
}

/* mysql: the sql_mode saved in a user variable (hash h), else the configured one. */
static uint8_t var_mode(const mote_scanner *sc, uint32_t h)
{
    for (unsigned j = 0; j < 2; j++)
        if (sc->d.my.vhash[j] == h) return sc->ds.my.vmode[j];
    return sc->flags & MODE_MY;
}

static void var_save(mote_scanner *sc, uint32_t h, uint8_t m)
{
    if (sc->d.my.vhash[0] != h) {
        sc->d.my.vhash[1] = sc->d.my.vhash[0];
        sc->ds.my.vmode[1] = sc->ds.my.vmode[0];
        sc->d.my.vhash[0] = h;
    }
    sc->ds.my.vmode[0] = m;
}

#if MOTE_SCAN_CHARSETS
/* postgres: the charset of the client_encoding named by the word or literal
 * in sc->word (wlen bytes, lower case), by the server's names and aliases
 * with their letters and digits alone (Shift_JIS is sjis); 0 (ASCII-safe:
 * UTF8, the EUCs, UHC, the single-byte ones) for every other. */
static unsigned pg_encoding(const mote_scanner *sc)
{
    static const struct {
        char name[13];
        uint8_t cs;
    } names[] = {
        {"sjis", MOTE_SCAN_CHARSET_SJIS},       {"shiftjis", MOTE_SCAN_CHARSET_SJIS},
        {"mskanji", MOTE_SCAN_CHARSET_SJIS},    {"win932", MOTE_SCAN_CHARSET_SJIS},
        {"windows932", MOTE_SCAN_CHARSET_SJIS}, {"shiftjis2004", MOTE_SCAN_CHARSET_SJIS},
        {"gbk", MOTE_SCAN_CHARSET_GBK},         {"win936", MOTE_SCAN_CHARSET_GBK},
        {"windows936", MOTE_SCAN_CHARSET_GBK},  {"gb18030", MOTE_SCAN_CHARSET_GBK},
        {"big5", MOTE_SCAN_CHARSET_GBK},        {"win950", MOTE_SCAN_CHARSET_GBK},
        {"windows950", MOTE_SCAN_CHARSET_GBK},  {"johab", MOTE_SCAN_CHARSET_JOHAB},
    };
    char clean[sizeof sc->word + 1];
    size_t m = 0;
    for (size_t i = 0; i < sc->wlen; i++)
        if (is_digit(sc->word[i]) || (sc->word[i] >= 'a' && sc->word[i] <= 'z')) clean[m++] = (char)sc->word[i];
    clean[m] = 0;
    for (size_t j = 0; j < sizeof names / sizeof names[0]; j++)
        if (strcmp(names[j].name, clean) == 0) return names[j].cs;
    return 0;
}
#endif

/* A word (how: 0), literal (1) or user variable (2) of a SET statement.
 * wst: 0 the target, 1 before its value, 2 the value, 3 done (mysql: until
 * ','), 4 an item that does not matter. */
static void set_word(mote_scanner *sc, int k, unsigned how)
{
    if (sc->wst == 0 && (k == K_SESSION || k == K_LOCAL)) return; /* (both dialects) */
    if (sc->dialect == MOTE_SCAN_POSTGRES) {
        /* standard_conforming_strings (wst 0 -> 1), TO (1 -> 2); client_encoding
         * (0 -> 5, TO 5 -> 6; hosted builds) */
        if ((sc->wst == 0 && k == K_SCS && how == 0) || (sc->wst == 1 && k == K_TO)) {
            sc->wst++;
            return;
        }
#if MOTE_SCAN_CHARSETS
        if ((sc->wst == 0 && k == K_CLENC && how == 0) || (sc->wst == 5 && k == K_TO)) {
            sc->wst = sc->wst ? 6 : 5;
            return;
        }
        if (sc->wst == 6)
            sc->mode_next = (uint8_t)((sc->mode_next & ~MODE_CS) | (k == K_DEFAULT ? 0u : pg_encoding(sc)));
#endif
        if (sc->wst == 2 && k >= K_DEFAULT && k <= K_NO)
            sc->mode_next = (uint8_t)((sc->mode_next & ~MODE_NONSTD) | (k >= K_OFF ? MODE_NONSTD : 0));
        words_stop(sc);
        return;
    }
    if (sc->wst == 0) {
        /* the target: sql_mode (vt 0) or a user variable (its hash), else an item that does not matter */
        const bool mode = how == 0 && k >= K_SQL_MODE && k <= K_AT_LOCAL_SQL_MODE;
        sc->wst = mode || how == 2 ? 1 : 4;
        sc->d.my.vt = mode ? 0 : sc->whash | 1u;
    } else if (sc->wst == 2) {
        uint8_t m = sc->flags & MODE_MY; /* an expression: the configured mode */
        if (how == 1) m = sc->litm;
        else if (k >= K_AT_SQL_MODE && k <= K_AT_LOCAL_SQL_MODE) m = sc->mode_next & MODE_MY;
        else if (k == K_DEFAULT) m = 0;
        else if (how == 2) m = var_mode(sc, sc->whash | 1u);
        if (sc->d.my.vt) var_save(sc, sc->d.my.vt, m);
        else sc->mode_next = (uint8_t)((sc->mode_next & ~MODE_MY) | m);
        sc->wst = 3;
    }
}

/* The first word's first n bytes (sc->word) may still become one of those
 * that matter (mysql SET; postgres COPY, CREATE, SET, RESET), or are a
 * number (mysql version digits), which is skipped. */
static bool first_word_may(const mote_scanner *sc, size_t n)
{
    if (is_digit(sc->word[0])) return true;
    if (sc->dialect == MOTE_SCAN_MYSQL) return n <= 3 && sc->word[n - 1] == (uint8_t)"set"[n - 1];
    return kw_find(sc, n, K_CREATE + 1) != K_NONE;
}

/* A word (sc->word, n bytes; keyword k) of a postgres or mysql statement ended. */
static MOTE_SMALL_INLINE void word_end(mote_scanner *sc, int k, size_t n)
{
    if (is_digit(sc->word[0])) return; /* a number (or mysql version digits) */
    switch (sc->wcls) {
    case WC_FIRST:
        /* COPY SET RESET CREATE in the order of their classes (mysql's: only prefixes of SET) */
        sc->wcls = (uint8_t)(k <= K_CREATE ? k + WC_COPY : WC_NONE);
        if (sc->wcls == WC_CREATE) sc->wst = 1;
        if (sc->wcls == WC_NONE) words_stop(sc);
        return;
    case WC_COPY:
        /* COPY ... FROM STDIN: the words FROM STDIN outside parentheses */
        if (sc->tk.pg.pdepth) return;
        if (sc->wst && k == K_STDIN) sc->ds.pg.copy = 1;
        sc->wst = k == K_FROM;
        return;
    case WC_CREATE:
        /* psql's rule: the leading words CREATE [OR REPLACE]
         * FUNCTION|PROCEDURE make BEGIN (and CASE inside it) open what END
         * closes, outside parentheses. wst: 1 after CREATE, 2 after OR, 3
         * after REPLACE, 4 in the body; other leading words: words stop. */
        if (sc->wst < 4) {
            if ((unsigned)(k - K_FUNCTION) < 2u && (sc->wst & 1u)) sc->wst = 4;
            else if (k == K_OR - 1 + sc->wst) sc->wst++;
            else words_stop(sc);
        } else if (sc->tk.pg.pdepth == 0 && (k == K_BEGIN || (sc->tk.pg.bdepth && (k == K_CASE || k == K_END)))) {
            sc->tk.pg.bdepth += k == K_END ? UINT32_MAX : 1u; /* (END: one less) */
        }
        return;
    case WC_RESET:
        if (k >= K_SCS && k <= K_ALL) sc->mode_next &= (uint8_t)~MODE_NONSTD;
#if MOTE_SCAN_CHARSETS
        if (k == K_ALL || k == K_CLENC) sc->mode_next &= (uint8_t)~MODE_CS; /* (the default: ASCII-safe) */
#endif
        words_stop(sc);
        return;
    case WC_SET:
        set_word(sc, k, n >= 2 && sc->word[0] == '@' && sc->word[1] != '@' ? 2u : 0u);
        return;
    }
}

/* The word being read (sc->word, sc->wlen) ended: the dialect reads it. */
static MOTE_SMALL_NOINLINE void any_word_end(mote_scanner *sc)
{
    static const uint8_t tk_of[] = {TK_CREATE, TK_OTHER, TK_OTHER, TK_OTHER, TK_OTHER,
                                    TK_END, TK_TRIGGER, TK_TEMP, TK_TEMP, TK_EXPLAIN};
    const size_t n = sc->wlen;
    const int k = kw_find(sc, n, K_NONE);
    if (sc->dialect == MOTE_SCAN_SQLITE) {
        /* the keywords sqlite3_complete() knows */
        const unsigned t = (unsigned)k - K_CREATE;
        sq_tok(sc, t < sizeof tk_of ? tk_of[t] : TK_OTHER);
    } else {
        word_end(sc, k, n); /* (the word still in sc->word, wlen: pg_encoding()) */
    }
    sc->wlen = 0;
}

/* A byte of neither word nor blank, outside quotes and comments, while
 * words matter (quote openers included). */
static MOTE_SMALL_INLINE void word_punct(mote_scanner *sc, uint8_t c)
{
    if (sc->wcls == WC_FIRST) {
        words_stop(sc); /* the statement starts with no word */
    } else if (sc->wcls == WC_SET) {
        if (sc->open_slot[c]) {
            /* a literal: its bytes are looked at (lit_byte) */
            sc->slow |= SL_LIT;
            sc->litm = 0;
            sc->litw = 0;
            sc->wlen = 0;
        } else if (c == '=') {
            if (sc->wst == 1 || sc->wst == 5) sc->wst++; /* (5: postgres client_encoding) */
        } else if (c == ',') {
            sc->wst = 0;
        } else if (c != ':' && sc->wst == 2) {
            set_word(sc, K_NONE, 0);
        }
    }
}

/* A byte of the word or literal being read (lower case); a word stops at
 * sizeof word bytes, longer than every keyword either way. */
_Static_assert(sizeof(((mote_scanner *)0)->word) > sizeof "standard_conforming_strings" - 1,
               "a word of sizeof word bytes is longer than every keyword");
static MOTE_SMALL_NOINLINE void word_add(mote_scanner *sc, uint8_t lc)
{
    if (sc->wlen < sizeof sc->word) sc->word[sc->wlen++] = lc;
}

/* A byte of a SET statement's literal: the sql_mode names that matter, by
 * the literal's last four bytes: "no_b" is in NO_BACKSLASH_ESCAPES and no
 * other name, "ansi" in ANSI_QUOTES and ANSI (which holds it) alone. */
static MOTE_SMALL_INLINE void lit_byte(mote_scanner *sc, uint8_t c)
{
    const uint8_t lc = lower(c);
    const uint32_t w = sc->litw = sc->litw << 8 | lc;
    if (w == ((uint32_t)'n' << 24 | 'o' << 16 | '_' << 8 | 'b')) sc->litm |= MODE_NBE;
    if (w == ((uint32_t)'a' << 24 | 'n' << 16 | 's' << 8 | 'i')) sc->litm |= MODE_ANSIQ;
    word_add(sc, lc);
}

/* ------------------------------------------------------- state handlers */

/* What a state handler asks of run() after a byte: the next byte; this one
 * again in the state it set (A_AGAIN: with the delimiter match; A_CODE: as
 * code, the match done); on_word(), on_head() or on_delim() for it (one call
 * site each: small builds inline them); or the token's end (A_END; A_LINE:
 * a command or COPY line). */
enum { A_NEXT, A_END, A_LINE, A_AGAIN, A_CODE, A_WORD, A_HEAD, A_DELIM };

/* The state becomes st; a is what run() does next. */
static int enter(mote_scanner *sc, uint8_t st, int a)
{
    sc->state = st;
    return a;
}

/* A comment of state st opens; its bytes start after idx. */
static int open_comment(mote_scanner *sc, uint8_t st, size_t idx)
{
    sc->state = st;
    lead_comment(sc, idx + 1);
    return A_NEXT;
}

/* A command line starts in state st (its first code byte seen). */
static int command(mote_scanner *sc, uint8_t st)
{
    sc->state = st;
    sc->kind = MOTE_SCAN_COMMAND;
    words_stop(sc);
    return A_NEXT;
}

/* A word's byte: mysql and postgres keep the first word's while it may still
 * spell a keyword that matters, sqlite every word's while its trigger state needs them. */
static int on_word(mote_scanner *sc, uint8_t c, size_t idx)
{
    const uint8_t lc = lower(c);
    if (sc->wlen == 0) sc->whash = 2166136261u;
    sc->whash = (sc->whash ^ lc) * 16777619u;
    word_add(sc, lc);
    /* most first words show in a letter or two that they do not matter: back to the skip loops */
    if (sc->wcls != WC_FIRST) return A_NEXT;
    bool may = first_word_may(sc, sc->wlen);
    /* (speed builds) mysql, at the first byte: the word's next bytes in the chunk may tell
     * already (only "set" matters), so that they need not come here. */
    if (!MOTE_SMALL && sc->dialect == MOTE_SCAN_MYSQL && sc->wlen == 1)
        for (size_t j = idx + 1, n = 1; may && n < 4 && j < sc->chunk_len && word_char(sc, sc->chunk[j]); j++) {
            sc->word[n++] = lower(sc->chunk[j]);
            may = first_word_may(sc, n);
        }
    if (!may) words_stop(sc);
    return A_NEXT;
}

/* A byte of code outside quotes and comments (no word being read). idx is
 * its index, idx + 1 the next byte's. */
static int on_code(mote_scanner *sc, uint8_t c, size_t idx)
{
    const bool pg = sc->dialect == MOTE_SCAN_POSTGRES;
    /* Quote openers, the escape, comment openers and postgres's '$' '(' ')'
     * have C_NORM: of the other bytes only mysql's '*' needs a test below
     * (small builds test every byte: smaller). */
    const bool marked = MOTE_SMALL || (sc->cls[c] & C_NORM) || c == '*';
    if (sc->lead && !is_blank(c) && !(marked && comment_opener(sc, c))) {
        lead_code(sc);
        if (pg && c == '\\') return command(sc, S_PCMD); /* a psql meta-command: its line */
    }
    uint8_t next = S_NORMAL;
    if (!marked) {
        /* (none of the below) */
    } else if (sc->open_slot[c]) {
        unsigned slot = sc->open_slot[c] - 1u;
        if (pg && c == '\'' && pg_estring(sc, idx)) slot = 2;
        sc->slot = (uint8_t)slot;
        sc->km = 0; /* now: fast_text() may leave the quote without the switch */
        sq_other(sc);
        if (MOTE_SMALL || (sc->slow & SL_WORDS)) word_punct(sc, c); /* (a no-op without SL_WORDS) */
        next = S_QUOTE;
    } else if ((int)c == sc->esc_out) {
        sc->state = S_ESC;
        sc->tokflags |= MOTE_SCAN_TOK_ESCAPES;
        return A_NEXT;
    } else if (comment_opener(sc, c)) {
        if (c == '#') return open_comment(sc, S_LINE, idx);
        if (c == '-') return enter(sc, S_DASH, A_NEXT);
        next = S_SLASH;
    } else if (c == '*' && (MOTE_SMALL || sc->dialect == MOTE_SCAN_MYSQL) && (sc->slow & SL_XC)) {
        /* (SL_XC is mysql's alone; the dialect test helps the speed build's register allocation) */
        return enter(sc, S_XSTAR, A_NEXT);
    } else if (pg) {
        if (c == '$' && !sq_idchar(prev_byte(sc, idx, 1))) {
            sc->ds.pg.taglen = 0;
            next = S_DTAG;
        } else if (c == '(') { /* (a branch per byte: pg_paren() folds to one step each, 20 bytes */
            pg_paren(sc, c);     /* less on Cortex-M4 than one branch for both) */
        } else if (c == ')') {
            pg_paren(sc, c);
        }
    }
    if (next != S_NORMAL) {
        /* a quote or comment may open here: where an error points */
        set_pos(sc, &sc->open_pos, idx);
        return enter(sc, next, A_NEXT);
    }
    /* (SL_WORDS: mysql and postgres only) */
    if (sc->slow & SL_WORDS) {
        if (word_char(sc, c)) return A_WORD;
        if (!is_blank(c)) word_punct(sc, c);
    } else if (sc->dialect == MOTE_SCAN_SQLITE) {
        if (sq_idchar(c)) {
            if (!TRIG_SKIP(sc->trig)) return A_WORD;
        } else if (!is_blank(c) || c == '\v') {
            sq_tok(sc, TK_OTHER);
        }
    }
    return A_NEXT;
}

/* A blank before a statement (sqlite3_complete() counts \v as a token). */
static MOTE_SMALL_INLINE bool lead_blank(const mote_scanner *sc, uint8_t c)
{
    return is_blank(c) && !(sc->dialect == MOTE_SCAN_SQLITE && c == '\v');
}

/* Blanks before a statement (sql dialects). */
static MOTE_SMALL_INLINE int on_lead(mote_scanner *sc, uint8_t c, size_t idx)
{
    const bool blank = lead_blank(sc, c);
    /* where kept comments end (only they read it: small builds set it always) */
    if (!blank && (MOTE_SMALL || (sc->flags & MOTE_SCAN_KEEP_COMMENTS))) set_pos(sc, &sc->lead_pos, idx);
    if (!lead_comment_kept(sc)) tok_begin(sc, blank ? idx + 1 : idx);
    if (blank) return A_NEXT;
    /* mysql: a DELIMITER command? (speed builds: on_head() sends other bytes on) */
    if (sc->dialect != MOTE_SCAN_MYSQL || (!MOTE_SMALL && (c | 0x20) != 'd')) return enter(sc, S_NORMAL, A_CODE);
    return enter(sc, S_HEAD, A_HEAD);
}

/* A delimiter completed: it ends the statement unless a sqlite trigger body,
 * postgres parentheses or a BEGIN ATOMIC body hold it. */
static MOTE_SMALL_INLINE int on_delim(mote_scanner *sc)
{
    if (sc->dialect == MOTE_SCAN_SQLITE) {
        const uint8_t nt = SQ_NEXT(sc->trig, TK_SEMI);
        if (nt != 1) {
            sc->trig = nt; /* ';' inside a trigger body */
            return A_NEXT;
        }
    }
    if (sc->dialect == MOTE_SCAN_POSTGRES && (sc->tk.pg.pdepth | sc->tk.pg.bdepth)) return A_NEXT;
    return A_END;
}

#if !MOTE_SMALL
/* Speed builds: blanks before a statement (no delimiter byte matched) as on_lead() takes them, up
 * to the delimiter's first byte (step()'s). The token begins at the stop, there or at lim (a code
 * byte: on_lead() or lead_word() sets it; reset_token() leaves it to them). */
static MOTE_INLINE size_t lead_blanks(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    uint8_t c; /* (i < lim: lead_skip()'s one caller, run()'s loop, tests it) */
    while ((c = p[i]) != sc->delim[0] && lead_blank(sc, c)) {
        if (sc->cls[c] & C_LINE) newline(sc, c, i);
        if (++i == lim) break;
    }
    if ((i == lim || c == sc->delim[0]) && !lead_comment_kept(sc)) tok_begin(sc, i);
    return i;
}

/* Speed builds: the statement's first code byte p[i] (state S_LEAD, lead_blanks() stopped there)
 * when the first word it starts cannot be one the dialect acts on (mysql SET, postgres COPY SET
 * RESET CREATE), or it starts no word: what on_lead(), on_code() and on_word() do for it, in one
 * step (true: the byte is taken, words stop). False, nothing changed: step() takes the byte, as
 * for a marked byte (quotes, comment openers, the delimiter), a kept comment before it, sqlite
 * (its trigger state reads words), a number (mysql version digits), mysql's 'd' (DELIMITER:
 * on_head()), psql's '\', or fewer than 8 bytes left in the chunk. The word's letters are
 * compared 8 at a time: OR 0x20 makes them lower case, each keyword is one masked compare. */
static MOTE_INLINE bool lead_word(mote_scanner *sc, const uint8_t *p, size_t i)
{
    const uint8_t c = p[i];
    if (!(sc->slow & SL_WORDS) || (sc->cls[c] & C_NORM) || c == '\\' || lead_comment_kept(sc)) return false;
    if (word_char(sc, c)) {
        const bool my = sc->dialect == MOTE_SCAN_MYSQL;
        if (is_digit(c) || (my && (c | 0x20) == 'd') || sc->chunk_len - i < 8) return false;
        const uint64_t w = mote__load8(p + i) | 0x2020202020202020u;
        const char *k = keywords;
        for (int j = 0; j <= K_CREATE; j++) {
            const unsigned len = (uint8_t)*k++;
            if ((j == K_SET || !my) && !((w ^ mote__load8((const uint8_t *)k)) & (((uint64_t)1 << 8 * len) - 1)) &&
                !word_char(sc, p[i + len]))
                return false;
            k += len;
        }
    }
    if (sc->flags & MOTE_SCAN_KEEP_COMMENTS) set_pos(sc, &sc->lead_pos, i);
    tok_begin(sc, i);
    sc->lead = 0;
    words_stop(sc);
    sc->slow = 0; /* (SL_LEAD too; SL_XC only after a lead) */
    sc->state = S_NORMAL;
    return true;
}

/* Speed builds: run()'s skip in state S_LEAD (no delimiter byte matched): the blanks, the first
 * word's first byte where lead_word() takes it, then the skip of state NORMAL that run()'s next
 * pass would make, and a one-byte delimiter where that stops, if it ends the statement as step()
 * and on_delim() would (end: run() returns R_END, i after it). So a statement needs one
 * pass of run() and no switch. Inlined into run() (measured against out of line, once the token's
 * reset took its start values from tok_init: quotes 1.02x, pgdump's COPY rows 1.02-1.03x; before that,
 * inline lost 1-2% on COPY rows). */
typedef struct {
    size_t i;
    bool end;
} lead_stop;
static MOTE_INLINE lead_stop lead_skip(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    i = lead_blanks(sc, p, i, lim);
    if (i == lim || !lead_word(sc, p, i)) return (lead_stop){i, false};
    /* state NORMAL, slow 0, km 0, no word: the skip of ordinary text */
    i = fast_text(sc, p, i + 1, lim);
    if (i >= lim || sc->state != S_NORMAL || sc->dlen != 1 || p[i] != sc->delim[0] || on_delim(sc) != A_END)
        return (lead_stop){i, false};
    if (sc->cls[p[i]] & C_LINE) newline(sc, p[i], i);
    return (lead_stop){i + 1, true};
}
#endif

/* mysql: the letters of "delimiter" at statement start, then a blank. */
static int on_head(mote_scanner *sc, uint8_t c)
{
    if (sc->wlen < 9) {
        /* all its letters lower case: c | 0x20 matches both cases */
        if ((c | 0x20) == "delimiter"[sc->wlen]) {
            sc->wlen++;
            return A_NEXT;
        }
    } else if (c == ' ' || c == '\t') {
        /* arglen and argbad were cleared by reset_token() */
        lead_code(sc);
        return command(sc, S_DCMD_WS);
    } else if (c == '\n' || c == '\r') {
        return A_LINE; /* no argument: arglen is 0, the command fails */
    }
    if (sc->wlen) words_stop(sc); /* a word starting "d": not SET */
    return enter(sc, S_NORMAL, A_CODE);
}

/* A command line: mysql DELIMITER (blanks, argument, ignored rest) or a psql meta-command. */
static int on_command(mote_scanner *sc, uint8_t c)
{
    const uint8_t st = sc->state;
    if (c == '\n' || c == '\r') return A_LINE;
    if (st == S_PCMD || st == S_DCMD_REST) return A_NEXT;
    if (c == ' ' || c == '\t') {
        if (st == S_DCMD_ARG) sc->state = S_DCMD_REST;
        return A_NEXT;
    }
    sc->state = S_DCMD_ARG;
    /* too long or holding a backslash: the command fails */
    if (sc->tk.my.arglen < sizeof sc->d.my.arg && c != '\\') sc->d.my.arg[sc->tk.my.arglen++] = c;
    else sc->tk.my.argbad = 1;
    return A_NEXT;
}

/* A lone '-' or '/' was an operator: a token for sqlite; c is code. */
static MOTE_SMALL_INLINE int lone(mote_scanner *sc)
{
    lead_code(sc);
    sq_other(sc);
    return enter(sc, S_NORMAL, A_CODE);
}

/* Comment openers and closers, executable comments. */
static int on_comment(mote_scanner *sc, uint8_t c, size_t idx)
{
    const uint8_t st = sc->state;
    switch (st) {
    case S_DASH:
        if (c != '-') return lone(sc);
        if (!(sc->comments & MOTE_SCAN_COMMENT_DASH)) return enter(sc, S_DASH2, A_NEXT);
        return open_comment(sc, S_LINE, idx);
    case S_DASH2:
        if (c <= 0x20 || c == 0x7f) {
            sc->km = 0;
            return open_comment(sc, (c == '\n' || c == '\r') ? after_comment(sc) : S_LINE, idx);
        }
        lead_code(sc);
        return enter(sc, S_NORMAL, A_CODE);
    case S_SLASH:
        if (c != '*') return lone(sc);
        sc->depth = 1;
        /* mysql: executable? */
        if (sc->dialect == MOTE_SCAN_MYSQL && !(sc->slow & SL_XC)) return enter(sc, S_XOPEN, A_NEXT);
        return open_comment(sc, S_BLOCK, idx);
    case S_XOPEN:
    case S_XM:
        if (c == '!') {
            /* slash-star-bang, slash-star-M-bang: code up to star-slash */
            sc->slow |= SL_XC;
            lead_code(sc);
            return enter(sc, S_NORMAL, A_NEXT);
        }
        if (c == 'M' && st == S_XOPEN) return enter(sc, S_XM, A_NEXT);
        /* an ordinary comment, c its first byte */
        lead_comment(sc, idx + 1);
        return enter(sc, S_BLOCK, A_AGAIN);
    case S_XSTAR:
        sc->state = S_NORMAL;
        if (c != '/') return A_CODE;
        sc->slow &= (uint8_t)~SL_XC;
        return A_NEXT;
    case S_LINE:
        if (c != '\n') return A_NEXT;
        /* the newline ends the comment and is code (it may start the delimiter) */
        return enter(sc, after_comment(sc), A_AGAIN);
    case S_BLOCK:
        if (c == '*') sc->state = S_BSTAR;
        else if (c == '/' && (sc->comments & MOTE_SCAN_COMMENT_NESTED)) sc->state = S_BSLASH;
        return A_NEXT;
    case S_BSTAR:
        if (c == '/') sc->state = --sc->depth == 0 ? after_comment(sc) : S_BLOCK;
        else if (c != '*') sc->state = S_BLOCK;
        return A_NEXT;
    default: /* S_BSLASH */
        if (c == '*' && sc->depth < UINT32_MAX) sc->depth++;
        if (c != '/') sc->state = S_BLOCK;
        return A_NEXT;
    }
}

/* Strings: quotes and their escapes, postgres dollar quotes. */
static int on_string(mote_scanner *sc, uint8_t c, size_t idx)
{
    switch (sc->state) {
    case S_QUOTE:
        if (c == sc->q_close[sc->slot]) {
            sc->state = S_NORMAL;
            /* an escape string closed: a quote right here reopens it */
            if (sc->dialect == MOTE_SCAN_POSTGRES && sc->q_esc[sc->slot] <= 0xff)
                sc->d.pg.eclose = sc->base + idx + 1;
            if (sc->slow & SL_LIT) { /* a SET statement's literal ended */
                sc->slow &= (uint8_t)~SL_LIT;
                set_word(sc, kw_find(sc, sc->wlen, K_NONE), 1); /* (wlen: see pg_encoding()) */
                sc->wlen = 0;
            }
        } else if ((int)c == sc->q_esc[sc->slot]) {
            sc->state = S_QESC;
            sc->tokflags |= MOTE_SCAN_TOK_ESCAPES;
        } else if (sc->slow & SL_LIT) {
            lit_byte(sc, c);
        }
        return A_NEXT;
    case S_QESC:
        sc->state = S_QUOTE;
        if (sc->slow & SL_LIT) lit_byte(sc, c);
        return A_NEXT;
    case S_DTAG:
        if (c == '$') return enter(sc, S_DOLLAR, A_NEXT);
        /* a tag byte: an identifier byte but '$' (taken above), no digit first */
        if (sc->ds.pg.taglen < sizeof sc->d.pg.tag && sq_idchar(c) && (sc->ds.pg.taglen || !is_digit(c))) {
            sc->d.pg.tag[sc->ds.pg.taglen++] = c;
            return A_NEXT;
        }
        return enter(sc, S_NORMAL, A_CODE);
    case S_DOLLAR:
        if (c == '$') {
            sc->state = S_DMATCH;
            sc->ds.pg.tagk = 0;
        }
        return A_NEXT;
    default: /* S_DMATCH */
        if (c == '$') {
            if (sc->ds.pg.tagk == sc->ds.pg.taglen) sc->state = S_NORMAL;
            else sc->ds.pg.tagk = 0;
        } else if (sc->ds.pg.tagk < sc->ds.pg.taglen && c == sc->d.pg.tag[sc->ds.pg.tagk]) {
            sc->ds.pg.tagk++;
        } else {
            sc->state = S_DOLLAR;
        }
        return A_NEXT;
    }
}

/* One byte in the current state. The delimiter is matched here alone, in
 * the states where it counts; comments and DELIMITER commands start the
 * match afresh, an escape outside quotes keeps it. */
static MOTE_SMALL_INLINE int step(mote_scanner *sc, uint8_t c, size_t idx)
{
    const uint8_t st = sc->state;
    if ((1u << st) & KMP_STATES) {
        if (kmp_step(sc, c)) {
            /* (from S_LEAD: an empty token; sqlite reads words only in
             * S_NORMAL, mysql's S_HEAD matches no word) */
            if (st == S_NORMAL && sc->wlen) any_word_end(sc);
            else if (st != S_NORMAL) sq_other(sc);
            return enter(sc, S_NORMAL, A_DELIM);
        }
    } else if (st != S_ESC) {
        sc->km = 0;
    }
    /* (small builds test the groups by range: smaller than the jump table) */
#if MOTE_SMALL
    if (st >= S_DCMD_WS) return on_command(sc, c);
    if (st >= S_QUOTE) return on_string(sc, c, idx);
    if (st >= S_LINE) return on_comment(sc, c, idx);
#endif
    switch (st) {
    case S_LEAD: return on_lead(sc, c, idx);
    case S_HEAD: return A_HEAD;
    case S_DCMD_WS: case S_DCMD_ARG: case S_DCMD_REST: case S_PCMD: return on_command(sc, c);
    case S_QUOTE: case S_QESC: case S_DTAG: case S_DOLLAR: case S_DMATCH: return on_string(sc, c, idx);
    case S_ESC: return enter(sc, S_NORMAL, A_NEXT);
    case S_CSKIP:
        /* the COPY line's rest: blanks; data starts on the next line */
        if (c != '\n' && is_blank(c)) {
            sc->tok_start = idx + 1;
            return A_NEXT;
        }
        sc->state = S_COPY;
        tok_begin(sc, c == '\n' ? idx + 1 : idx);
        return A_NEXT;
    case S_COPY: return c == '\n' ? A_LINE : A_NEXT;
    case S_NORMAL:
        if (sc->wlen) {
            if (word_char(sc, c)) return A_WORD; /* (sqlite: sq_idchar()) */
            any_word_end(sc);
        }
        return A_CODE;
    default: return on_comment(sc, c, idx);
    }
}

/* COPY data (state S_COPY) from i: the index of the row's '\n', else of the
 * chunk's next '\r' (lines count: step() takes it), else lim. The chunk's
 * next '\r' is looked for once, not per row (d.pg.cr: its offset, or the
 * chunk's end: a stop that means nothing). */
static MOTE_INLINE size_t copy_skip(mote_scanner *sc, const uint8_t *p, size_t i, size_t lim)
{
    if (sc->d.pg.cr < sc->base + i) {
        const uint8_t *cr = memchr(p + i, '\r', sc->chunk_len - i);
        sc->d.pg.cr = sc->base + (cr ? (size_t)(cr - p) : sc->chunk_len);
    }
    const size_t e = (size_t)(sc->d.pg.cr - sc->base) < lim ? (size_t)(sc->d.pg.cr - sc->base) : lim;
    const uint8_t *nl = memchr(p + i, '\n', e - i);
    return nl ? (size_t)(nl - p) : e;
}

/* The state machine over chunk[pos..lim): R_LIMIT at lim; R_END when a
 * delimiter completed (pos after it; the token may be empty); R_LINE when a
 * command or COPY data line ended at its line break; R_SPLIT when leading
 * kept comments end at the first code byte (sc->lead_pos). Inlined under
 * MOTE_SMALL: smaller, and the stack stays within its budget. */
static MOTE_SMALL_INLINE int run(mote_scanner *sc, size_t lim)
{
    const uint8_t *p = sc->chunk;
    const uint8_t *cls = sc->cls;
    size_t i = sc->pos;
    const size_t start = i;
    int r = R_LIMIT;

    while (i < lim) {
        if (sc->split) break;
        const uint8_t st = sc->state;
        /* One skip for every state (its class bit; 0: none). Hosted builds
         * take a statement's lead through lead_skip() (tested first: once per
         * statement, measured faster), text and strings through fast_text()
         * and COPY data through memchr(). */
        static const uint8_t skip_mask[S_PCMD + 1] = {
            [S_NORMAL] = C_NORM, [S_QUOTE] = C_Q0, [S_BLOCK] = C_BLOCK, [S_LINE] = C_LINE,
            [S_COPY] = C_LINE, [S_PCMD] = C_LINE, [S_DOLLAR] = C_DOLLAR,
        };
#if !MOTE_SMALL
        if (st == S_LEAD && !sc->km) {
            const lead_stop ls = lead_skip(sc, p, i, lim);
            i = ls.i;
            if (ls.end) {
                r = R_END;
                break;
            }
        } else
#endif
        if (!MOTE_SMALL && st == S_COPY) {
            i = copy_skip(sc, p, i, lim);
            if (i < lim && p[i] == '\n') {
                /* the line break ends the row, as step() would (A_LINE; km stays 0) */
                newline(sc, '\n', i++);
                r = R_LINE;
                break;
            }
        } else {
            uint8_t mask = skip_mask[st];
            /* sqlite outside states NORMAL(2)/TRIGGER(5) must see every word */
            if (st == S_NORMAL && (sc->km || !TRIG_SKIP(sc->trig) || sc->slow)) mask = 0;
            if (st == S_QUOTE) mask = (uint8_t)((sc->slow & SL_LIT) ? 0 : C_Q0 << sc->slot);
            if (MB_ON(sc) && MOTE_UNLIKELY(sc->mbt)) mask = 0; /* a trail goes to the switch */
#if !MOTE_SMALL
            /* (postgres: a string with an escape byte is read here, see text_loops()) */
            if (mask && (st == S_NORMAL || (st == S_QUOTE && !(sc->dialect == MOTE_SCAN_POSTGRES &&
                                                                sc->q_esc[sc->slot] <= 0xff))))
                i = fast_text(sc, p, i, lim);
            else
#endif
            if (mask) find(cls, p, &i, lim, mask);
        }
        if (i >= lim) break;
        const size_t idx = i;
        uint8_t c = p[i++];
#if MOTE_SCAN_CHARSETS
        if (MOTE_UNLIKELY(sc->charset)) c = mb_byte(sc, c);
#endif
        if (cls[c] & C_LINE) newline(sc, c, idx);
        int a = A_AGAIN;
        while (a >= A_AGAIN) {
            switch (a) {
            case A_AGAIN: a = step(sc, c, idx); break;
            case A_CODE: a = on_code(sc, c, idx); break;
            case A_WORD: a = on_word(sc, c, idx); break;
            case A_HEAD: a = on_head(sc, c); break;
            default: a = on_delim(sc); break;
            }
        }
        if (a != A_NEXT) {
            r = a == A_END ? R_END : R_LINE;
            break;
        }
    }
    if (r == R_LIMIT && sc->split) r = R_SPLIT;
    sc->stats.bytes_examined += i - start;
    sc->pos = i;
    return r;
}

/* ------------------------------------------------------------ driver */

/* The scanner keeps none of the open token's bytes: blanks or comments not
 * kept before it, the rest of a COPY line. */
static bool holds_nothing(const mote_scanner *sc)
{
    const uint8_t st = sc->state;
    if (st == S_CSKIP) return true;
    if (!LEAD_TRIMMED(sc->lead) || lead_comment_kept(sc)) return false;
    return st == S_LEAD || st == S_LINE || (st >= S_BLOCK && st <= S_BSLASH);
}

static MOTE_SMALL_NOINLINE size_t held(const mote_scanner *sc)
{
    if (holds_nothing(sc)) return 0;
    return sc->carry->len + (sc->pos - sc->tok_start);
}

static MOTE_SMALL_NOINLINE unsigned tok_kind(const mote_scanner *sc)
{
    if (sc->kind) return sc->kind;
    return sc->lead && sc->cmt ? MOTE_SCAN_COMMENT : MOTE_SCAN_STATEMENT;
}

/* (n 0 appends nothing: OK, the counts stay) */
static mote_err carry_append(mote_scanner *sc, const uint8_t *p, size_t n)
{
    mote_err e = mote_buf_append(sc->carry, p, n);
    if (e != MOTE_OK) return e == MOTE_ERR_NOMEM ? MOTE_ERR_NOMEM : MOTE_ERR_TOO_LONG;
    sc->stats.bytes_copied += n;
    if (sc->carry->len > sc->stats.carry_peak) sc->stats.carry_peak = sc->carry->len;
    return MOTE_OK;
}

/* Hand out a token (e == MOTE_OK) or an error with its position. A whole token
 * over max_token (not in pieces) becomes MOTE_ERR_TOO_LONG here, where every token passes. */
static MOTE_SMALL_NOINLINE mote_err emit(mote_scanner *sc, mote_scan_token *tok, mote_err e,
                                         const uint8_t *p, size_t n, unsigned flags, unsigned kind)
{
    /* an unterminated quote or comment: where it opened (before e may become TOO_LONG) */
    const mote_pos *pos =
        e == MOTE_ERR_UNTERMINATED_QUOTE || e == MOTE_ERR_UNTERMINATED_COMMENT ? &sc->open_pos : &sc->tok_pos;
    if (sc->max_token && n > sc->max_token && !(sc->flags & MOTE_SCAN_PIECES)) {
        e = MOTE_ERR_TOO_LONG;
        n = 0;
        flags = 0;
        kind = MOTE_SCAN_STATEMENT; /* (errors come with it: fail() passes it too) */
    }
    tok->text.ptr = n ? p : (const uint8_t *)"";
    tok->text.len = n;
    tok->pos = *pos;
    tok->flags = flags;
    tok->kind = (mote_scan_kind)kind;
    tok->message = e ? mote_err_message((int)e) : NULL;
    if (e) sc->stats.errors++;
    else sc->stats.tokens++;
    return e;
}

static mote_err fail(mote_scanner *sc, mote_scan_token *tok, mote_err e)
{
    return emit(sc, tok, e, NULL, 0, 0, MOTE_SCAN_STATEMENT);
}

/* Drop the current token's bytes from here on, up to its delimiter. */
static MOTE_SMALL_NOINLINE void start_drop(mote_scanner *sc)
{
    if (holds_nothing(sc)) return;
    hist_push(sc, sc->carry->data, sc->carry->len);
    if (sc->chunk) hist_push(sc, sc->chunk + sc->tok_start, sc->pos - sc->tok_start);
    mote_buf_clear(sc->carry);
    sc->tok_start = sc->pos;
    sc->dropping = 1;
}

/* The open token's bytes chunk[tok_start..pos) as one view: in place while
 * nothing is carried, else appended to the carry (error: carry full; at the
 * end of input all of it is carried). */
static MOTE_SMALL_INLINE mote_err gather(mote_scanner *sc, const uint8_t **p, size_t *n)
{
    const uint8_t *s = sc->chunk ? sc->chunk + sc->tok_start : NULL;
    size_t k = sc->chunk ? sc->pos - sc->tok_start : 0;
    mote_err e = MOTE_OK;
    if (sc->carry->len) {
        e = carry_append(sc, s, k);
        s = sc->carry->data;
        k = sc->carry->len;
    }
    *p = s;
    *n = k;
    return e;
}

/* The first k held bytes of the open token: *pp views them (valid until
 * the next call) and the token goes on after them. */
static mote_err cut_front(mote_scanner *sc, size_t k, const uint8_t **pp)
{
    const size_t cl = sc->carry->len;
    mote_err e = MOTE_OK;
    if (k > cl) {
        if (cl == 0) { /* all in place */
            *pp = sc->chunk + sc->tok_start;
            sc->tok_start += k;
            return MOTE_OK;
        }
        e = carry_append(sc, sc->chunk + sc->tok_start, k - cl);
        sc->tok_start += k - cl;
        k = sc->carry->len;
    }
    /* all carried (or none) */
    *pp = sc->carry->data;
    sc->carry_drop = k;
    return e;
}

/* R_SPLIT: the kept comments before the first code byte are a token of
 * their own; the statement starts at sc->lead_pos. */
static MOTE_COLD mote_err at_split(mote_scanner *sc, mote_scan_token *tok)
{
    sc->split = 0;
    const size_t k = (size_t)(sc->lead_pos.offset - sc->tok_pos.offset);
    const uint8_t *p;
    mote_err e = cut_front(sc, k, &p);
    /* emit() copies tok_pos out before the statement's position replaces it */
    if (e != MOTE_OK) e = fail(sc, tok, e);
    else e = k ? emit(sc, tok, MOTE_OK, p, k, MOTE_SCAN_TOK_DELIM, MOTE_SCAN_COMMENT) : MOTE_ERR_NEED_MORE;
    sc->tok_pos = sc->lead_pos;
    sc->cmt = 0;
    /* (pieces_out and hist stay as reset_token() left them: kept comments come
     * in no pieces, a dropped token splits nothing) */
    return e;
}

/* The COPY data line "\." ends the data. */
static MOTE_SMALL_NOINLINE bool copy_end(unsigned kind, const uint8_t *p, size_t n)
{
    return kind == MOTE_SCAN_COPY_DATA && n == 2 && p[0] == '\\' && p[1] == '.';
}

/* The length of a token's n bytes at p to hand out: 0 for the rest after
 * the last delimiter (R_EOF) when it is a statement of blanks alone. */
static MOTE_SMALL_NOINLINE size_t rest_len(const mote_scanner *sc, const uint8_t *p, size_t n, int r, unsigned kind)
{
    size_t k = n;
    if (r == R_EOF && kind == MOTE_SCAN_STATEMENT)
        while (k && lead_blank(sc, p[k - 1])) k--;
    return k ? n : 0;
}

/* The one set of rules for a token's bytes p[0..n), of kind `kind`, ended as r says (at_end(),
 * line_next()): its delimiter or line break cut (a delimiter starting with blanks may begin before
 * a trimmed token: then it is empty), a record's or COPY row's '\r' before its line break too, the
 * end of a COPY block recognised; handed out unless empty (empty ones count with KEEP_BLANK, as
 * COPY rows and as the last of a token's pieces) or the blank rest at the end of input
 * (rest_len()). MOTE_ERR_NEED_MORE: nothing out. (Inlined:
 * smaller; -O3 inlines it at both calls by itself.) */
static MOTE_SMALL_INLINE mote_err hand_token(mote_scanner *sc, mote_scan_token *tok, const uint8_t *p,
                                             size_t n, int r, unsigned kind)
{
    const bool term = R_TERM(r);
    unsigned flags = sc->tokflags | (term ? MOTE_SCAN_TOK_DELIM : 0u);
    const size_t cut = r == R_END ? sc->dlen : r == R_LINE;
    n = n > cut ? n - cut : 0;
    if ((sc->dialect == MOTE_SCAN_LINES || kind == MOTE_SCAN_COPY_DATA) && n > 0 && p[n - 1] == '\r' && term) {
        n--;
        flags |= MOTE_SCAN_TOK_CR;
    }
    if (copy_end(kind, p, n)) {
        kind = MOTE_SCAN_COPY_END;
        sc->ds.pg.copy = 0;
    }
    /* the rest after the last delimiter is not handed out when blank (a
     * generic script's last "\n", say): no statement was cut there */
    n = rest_len(sc, p, n, r, kind);
    if (n || sc->pieces_out ||
        (r != R_EOF && (kind == MOTE_SCAN_COPY_DATA || (sc->flags & MOTE_SCAN_KEEP_BLANK))))
        return emit(sc, tok, MOTE_OK, p, n, flags, kind);
    return MOTE_ERR_NEED_MORE;
}

/* A delimiter completed (R_END) or a command or COPY line ended (R_LINE, or
 * R_EOL_EOF at the end of input), or the input ended (R_EOF): hand out
 * the token, drop it, or report the error; then start the next token.
 * Returns MOTE_ERR_NEED_MORE when there is nothing to hand out. */
static MOTE_INLINE mote_err at_end(mote_scanner *sc, mote_scan_token *tok, int r)
{
    mote_err e = MOTE_ERR_NEED_MORE;
    const uint8_t *p;
    size_t n;
    const bool dropped = sc->dropping;
    bool handed = false; /* a token (or nothing) was handed out */
    sc->dropping = 0;
    const unsigned kind = tok_kind(sc);
    if (r >= R_LINE && sc->dialect == MOTE_SCAN_MYSQL && !dcmd_done(sc)) {
        if (!dropped) e = MOTE_ERR_BAD_DELIMITER;
    } else if (dropped || (kind == MOTE_SCAN_COMMENT && !keep_comments(sc))) {
        /* nothing to hand out */
    } else if ((e = gather(sc, &p, &n)) == MOTE_OK) {
        /* consumed at the next call (the token's view stays valid till then) */
        sc->carry_drop = sc->carry->len;
        e = hand_token(sc, tok, p, n, r, kind);
        handed = true;
    }
    if (!handed) {
        /* a failed command or carry, or a dropped token: nothing is kept
         * (a dropped token's carry is already empty) */
        if (e != MOTE_ERR_NEED_MORE) e = fail(sc, tok, e);
        mote_buf_clear(sc->carry);
    }
    /* a SET statement changed how strings are read */
    if (sc->mode_next != sc->mode) {
        sc->mode = sc->mode_next;
        build_cls(sc);
    }
    /* emit() has copied tok_pos out */
    reset_token(sc, false, false);
    return e;
}

/* End of input, everything scanned. */
static MOTE_COLD mote_err at_eof(mote_scanner *sc, mote_scan_token *tok)
{
    sc->done = 1;
    if (sc->dropping) return MOTE_ERR_NEED_MORE;
    const uint8_t st = sc->state;
    if (st >= S_XOPEN && st <= S_DMATCH) {
        mote_buf_clear(sc->carry);
        return fail(sc, tok, st >= S_QUOTE ? MOTE_ERR_UNTERMINATED_QUOTE : MOTE_ERR_UNTERMINATED_COMMENT);
    }
    int r = R_EOF;
    if (st >= S_DCMD_WS || (st == S_HEAD && sc->wlen >= 9)) r = R_EOL_EOF;
    else if (holds_nothing(sc)) return MOTE_ERR_NEED_MORE;
    return at_end(sc, tok, r);
}

/* The token reached its size bound without ending: error or piece. */
static MOTE_COLD mote_err at_bound(mote_scanner *sc, mote_scan_token *tok)
{
    /* start_drop() keeps tok_pos: errors report it afterwards */
    mote_err e = MOTE_ERR_TOO_LONG;
    const uint8_t *p;
    size_t n;
    const size_t m = sc->max_token;
    if ((LEAD_TRIMMED(sc->lead) & sc->cmt) && keep_comments(sc)) {
        /* Kept comments over max_token (never in pieces): reported, their rest
         * skipped as if not kept; a candidate opener at the end ("/" of a
         * possible slash-star-bang) stays held. */
        e = fail(sc, tok, e); /* (at tok_pos, before it moves) */
        const uint8_t st = sc->state;
        const bool cand = st >= S_DASH && st <= S_XM; /* DASH DASH2 SLASH XOPEN XM */
        const size_t tail = cand ? (size_t)(sc->base + sc->pos - sc->lead_pos.offset) : 0;
        cut_front(sc, held(sc) - tail, &p);
        if (cand) sc->tok_pos = sc->lead_pos;
        else set_pos(sc, &sc->tok_pos, sc->pos);
        sc->cdrop = 1;
        return e;
    }
    const bool in_place = sc->carry->len == 0;
    if (!(sc->flags & MOTE_SCAN_PIECES) || (e = gather(sc, &p, &n)) != MOTE_OK) {
        start_drop(sc);
        return fail(sc, tok, e);
    }
    if (in_place) {
        sc->tok_start += m;
    } else {
        sc->tok_start = sc->pos;
        sc->carry_drop = m;
    }
    /* emit() copies tok_pos out before it moves to the next piece */
    emit(sc, tok, MOTE_OK, p, m, sc->tokflags | MOTE_SCAN_TOK_CONTINUES, tok_kind(sc));
    hist_push(sc, p, m);
    /* The next piece starts `rest` (< delimiter length) bytes back. */
    const size_t rest = n - m;
    mote_pos *np = &sc->tok_pos;
    set_pos(sc, np, sc->pos);
    np->offset -= rest;
    np->column = np->column > rest ? np->column - rest : 1;
    sc->pieces_out = 1;
    return MOTE_OK;
}

#if !MOTE_SMALL
/* Records (BLK_REC) at a token's start, in state NORMAL, with the block
 * path free to run at pos: run()'s first skip, as fast_text() does it. The
 * usual stop, the one-byte delimiter outside strings, is taken here as
 * step() and on_delim() would: R_END, pos after it. Else R_MORE: run() goes
 * on from where the skip stopped. */
static MOTE_INLINE int rec_run(mote_scanner *sc, size_t lim)
{
    const uint8_t *p = sc->chunk;
    const size_t start = sc->pos;
    size_t i = block_lines(sc, p, start, lim);
    int r = R_END;
    if (MOTE_LIKELY(sc->state == S_NORMAL && i < lim && p[i] == sc->delim[0])) {
        const uint8_t c = p[i];
        if (c == '\n' || c == '\r') newline(sc, c, i);
        i++;
    } else {
        /* run() goes on from i with its skip, which must not try the block
         * path here again (a miss): the byte loops stop at once at a byte
         * the block path stopped at (or step() would pass it, as they do) */
        if (sc->blk_resume <= sc->base + i) sc->blk_resume = sc->base + i + 1;
        r = R_MORE;
    }
    sc->stats.bytes_examined += i - start;
    sc->pos = i;
    return r;
}
#endif

/* The bytes the open token may hold, max_token set, with its end: a record
 * or COPY line ends at one byte (two: "\r\n", unless in pieces); kinds known
 * only within the token (commands) keep the statement's bound, so that it
 * does not change with the chunking. */
static size_t tok_bound(const mote_scanner *sc)
{
    const bool line = sc->kind == MOTE_SCAN_COPY_DATA || sc->dialect == MOTE_SCAN_LINES;
    return sc->max_token + (line ? 1u + !(sc->flags & MOTE_SCAN_PIECES) : sc->dlen);
}

/* mote_scan_next() for any configuration. (MOTE_COLD: out of line in speed
 * builds, for line_next()'s loop, which calls it too; folded in under MOTE_SMALL.) */
static MOTE_COLD mote_err next_token(mote_scanner *sc, mote_scan_token *tok)
{
    for (;;) {
        /* bytes of the token handed out last, kept valid until this call */
        if (sc->carry_drop) {
            mote_buf_consume(sc->carry, sc->carry_drop);
            sc->carry_drop = 0;
        }
        /* (done: at_eof() ran, with no chunk, and none can come; speed builds test it only then,
         * small builds first: smaller) */
        if (MOTE_SMALL && sc->done) return MOTE_ERR_NEED_MORE;
        if (!sc->chunk || sc->pos == sc->chunk_len) {
            if (!MOTE_SMALL && sc->done) return MOTE_ERR_NEED_MORE;
            if (sc->chunk) {
                /* Chunk used up: keep the open token's bytes (only those). */
                size_t n = sc->chunk_len - sc->tok_start;
                if (!holds_nothing(sc)) {
                    if (sc->dropping) {
                        hist_push(sc, sc->chunk + sc->tok_start, n);
                    } else {
                        mote_err e = carry_append(sc, sc->chunk + sc->tok_start, n);
                        if (e != MOTE_OK) {
                            start_drop(sc);
                            sc->chunk = NULL;
                            return fail(sc, tok, e);
                        }
                    }
                }
                sc->chunk = NULL;
                if (sc->next_chunk) { /* the BOM prefix was data; now the chunk */
                    install(sc, sc->next_chunk, sc->next_len);
                    sc->next_chunk = NULL;
                    continue;
                }
            }
            if (!sc->finished) return MOTE_ERR_NEED_MORE;
            return at_eof(sc, tok);
        }
        size_t lim = sc->chunk_len;
        if (sc->max_token && !sc->dropping) {
            const size_t bound = tok_bound(sc);
            size_t h = held(sc);
            if (h >= bound) return at_bound(sc, tok);
            if (bound - h < lim - sc->pos) lim = sc->pos + (bound - h);
        }
        /* R_LIMIT: the chunk is used up or the bound is hit, both handled at the top of the loop */
        int r = run(sc, lim);
        if (r != R_LIMIT) {
            /* (speed builds: R_END, most tokens' end, gets at_end() with r constant) */
            mote_err e = !MOTE_SMALL && r == R_END ? at_end(sc, tok, R_END)
                         : r == R_SPLIT             ? at_split(sc, tok)
                                                    : at_end(sc, tok, r);
            if (e != MOTE_ERR_NEED_MORE) return e;
        }
    }
}

#if !MOTE_SMALL
/* mote_scan_next() while each token is a record that rec_run() ends (L_REC: BLK_REC), a COPY row that
 * copy_skip() does (L_COPY) or a statement that lead_skip() does (L_STMT): a short loop, at_end()'s body
 * in place; all else (a row with a '\r', a lead lead_skip() leaves to the switch, a token over the chunk
 * or max_token), next_token(). A copy per kind, bounded and not (LINE_NEXT: no bound tests). */
enum { L_REC, L_COPY, L_STMT };
static MOTE_INLINE mote_err line_next(mote_scanner *sc, mote_scan_token *tok, const unsigned how, const bool bounded)
{
    /* (bounded: max_token, as next_token() bounds the token, the same for every token here, whose kind
     * stays; unbounded, the loop's test lets the compiler drop emit()'s. Nothing carried, dropped or to
     * drop from the carry: next_token() does those; a NULL chunk: none fed, or the end.) */
    const size_t bound = bounded ? tok_bound(sc) : 0;
    while (!sc->carry_drop && (bounded || !sc->max_token) && sc->chunk && !sc->carry->len && !sc->dropping) {
        const size_t i = sc->pos;
        size_t lim = sc->chunk_len;
        if (bounded) { /* (a statement at S_LEAD holds what held() says) */
            const size_t h = how == L_STMT ? held(sc) : i - sc->tok_start;
            if (h >= bound) break;
            if (bound - h < lim - i) lim = i + (bound - h);
        }
        mote_err e;
        if (how == L_REC) {
            if (sc->state != S_NORMAL || !blk_here(sc, i, lim) || rec_run(sc, lim) == R_MORE) break;
            e = hand_token(sc, tok, sc->chunk + sc->tok_start, sc->pos - sc->tok_start, R_END,
                           MOTE_SCAN_STATEMENT);
            reset_token(sc, true, false);
        } else if (how == L_STMT) { /* (no words read, no handler run: kind STATEMENT, mode_next == mode) */
            if (sc->state != S_LEAD || sc->km || sc->split || i == lim) break;
            const lead_stop ls = lead_skip(sc, sc->chunk, i, lim);
            sc->stats.bytes_examined += ls.i - i;
            sc->pos = ls.i;
            if (!ls.end && ls.i < lim && sc->blk_resume <= sc->base + ls.i) sc->blk_resume = sc->base + ls.i + 1;
            if (!ls.end) break; /* run() goes on from there, its skip without the block path here (a miss) */
            e = hand_token(sc, tok, sc->chunk + sc->tok_start, ls.i - sc->tok_start, R_END, MOTE_SCAN_STATEMENT);
            reset_token(sc, false, false);
        } else {
            if (sc->state != S_COPY) break;
            const size_t nl = copy_skip(sc, sc->chunk, i, lim);
            sc->stats.bytes_examined += nl - i;
            sc->pos = nl;
            if (nl == lim || sc->chunk[nl] != '\n') break; /* run() goes on from there */
            /* the row's end, as run() takes it */
            newline(sc, '\n', nl);
            sc->stats.bytes_examined++;
            sc->pos = nl + 1;
            const bool whole = !sc->pieces_out;
            e = hand_token(sc, tok, sc->chunk + sc->tok_start, sc->pos - sc->tok_start, R_LINE,
                           MOTE_SCAN_COPY_DATA);
            /* A row read whole leaves the token's fields as reset_token() set them for COPY data
             * (only pieces change them): the next row needs its start only. The "\." row ends
             * the data (hand_token() cleared ds.pg.copy). */
            if (MOTE_LIKELY(whole && sc->ds.pg.copy)) tok_begin(sc, sc->pos);
            else reset_token(sc, false, false);
        }
        if (e != MOTE_ERR_NEED_MORE) return e;
    }
    return next_token(sc, tok);
}

#define LINE_NEXT(how) (sc->max_token ? line_next(sc, tok, how, true) : line_next(sc, tok, how, false))
static MOTE_NOINLINE mote_err rec_next(mote_scanner *sc, mote_scan_token *tok) { return LINE_NEXT(L_REC); }
#ifdef BLK_AVX2
static BLK_AVX2_FN BLK_FLAT MOTE_NOINLINE mote_err rec_avx2(mote_scanner *sc, mote_scan_token *tok)
{
    return LINE_NEXT(L_REC); /* (block_lines_avx2() inlined: no call per record) */
}
#endif
static MOTE_NOINLINE mote_err copy_next(mote_scanner *sc, mote_scan_token *tok) { return LINE_NEXT(L_COPY); }
static MOTE_NOINLINE mote_err stmt_next(mote_scanner *sc, mote_scan_token *tok) { return LINE_NEXT(L_STMT); }
#endif

mote_err mote_scan_next(mote_scanner *sc, mote_scan_token *tok)
{
    if (!sc || !tok) return MOTE_ERR_INVALID;
#if !MOTE_SMALL
    if (sc->blk_flags & BLK_REC) {
#ifdef BLK_AVX2
        __asm__("" ::: "memory"); /* (blk_flags read again: one instruction less on the other tokens' way) */
        if (sc->blk_flags & BLK_AVX2F) return rec_avx2(sc, tok);
#endif
        return rec_next(sc, tok);
    }
    if (sc->state == S_COPY) return copy_next(sc, tok);
#if defined(__GNUC__)
    __asm__("" ::: "memory"); /* (two loads of the state, one instruction less on the COPY rows' way) */
#endif
    if (sc->state == S_LEAD && (sc->dialect & 1u)) return stmt_next(sc, tok); /* (mysql, postgres: lead_word()) */
#endif
    return next_token(sc, tok);
}

mote_err mote_scan_pull(mote_scanner *sc, mote_scan_read_fn read, void *ctx,
                        uint8_t *chunk, size_t chunk_size, mote_scan_token *tok)
{
    if (!sc || !read || !chunk || !chunk_size || !tok) return MOTE_ERR_INVALID;
    for (;;) {
        mote_err e = mote_scan_next(sc, tok);
        /* (after finish(), NEED_MORE comes only with done set: at_eof()) */
        if (e != MOTE_ERR_NEED_MORE || sc->done) return e;
        long n = read(ctx, chunk, chunk_size);
        if (n < 0) return MOTE_ERR_IO;
        /* the scanner is drained here (next() said NEED_MORE), so these
         * cannot fail; their codes are passed on all the same */
        mote_err fe = n == 0 ? mote_scan_finish(sc) : mote_scan_feed(sc, chunk, (size_t)n);
        if (fe != MOTE_OK) return fe;
    }
}

void mote_scan_get_stats(const mote_scanner *sc, mote_scan_stats *out)
{
    if (!out) return;
    /* (bytes_examined is counted where the loops step, not derived from the
     * position: the tests' witness that no byte is scanned twice) */
    if (!sc) memset(out, 0, sizeof *out);
    else memcpy(out, &sc->stats, sizeof *out); /* (a call: smaller than the copy inlined) */
}

mote_view mote_scan_delimiter(const mote_scanner *sc)
{
    return sc ? (mote_view){sc->delim, sc->dlen} : (mote_view){(const uint8_t *)"", 0};
}
