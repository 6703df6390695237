/*
 * mote/scan.h - split SQL scripts and record streams into statements.
 *
 * Two layers:
 *
 * 1. mote_split(): one-shot split of a whole buffer on a single-byte
 *    delimiter, honouring double quotes and backslash escapes. Parts are
 *    views into the input; nothing is allocated.
 *
 * 2. mote_scanner: a streaming, resumable scanner. Push API:
 *
 *        mote_scan_feed(sc, chunk, n);
 *        while ((e = mote_scan_next(sc, &tok)) != MOTE_ERR_NEED_MORE)
 *            ... e == MOTE_OK: use tok.text; otherwise an error at tok.pos
 *        ... feed the next chunk, or mote_scan_finish(sc) at end of input
 *        and drain with mote_scan_next() until it returns NEED_MORE again.
 *
 *    or the pull API mote_scan_pull() over a read callback. Quote kind,
 *    escape, comment state, a partially matched delimiter, a partially read
 *    command line, the SQLite trigger state, postgres COPY data, parenthesis
 *    and BEGIN ... END depth, mysql executable comments, the word being read
 *    and the string modes set by SET statements are carried across chunk
 *    boundaries, so any chunking of the same input (down to one byte per
 *    feed) gives the same tokens, kinds, flags and errors. Each input byte
 *    is examined once: the scanner resumes exactly where it stopped (see
 *    mote_scan_stats.bytes_examined).
 *
 *    Tokens have a kind (mote_scan_kind): statements, client commands
 *    (mysql DELIMITER, psql backslash lines), postgres COPY data lines and,
 *    on request, comment-only text; and a "terminated" flag
 *    (MOTE_SCAN_TOK_TERMINATED), clear when the input ended first. An
 *    importer sends statements and COPY lines to the server and skips the
 *    rest (the scanner has already acted on DELIMITER).
 *
 * Memory: tokens that lie wholly inside a fed chunk are returned as views
 * into that chunk (no copy). Only the bytes of a token that is still open
 * when a chunk runs out are copied into the caller's mote_buf ("carry"); the
 * carry never holds anything but the current token (with its delimiter, once
 * that arrives), so memory is bounded by the longest token (or max_token)
 * and a delimiter - never by the input size. The mote_buf
 * grows by doubling only when one token outgrows it.
 *
 * Cost: one pass. The skip loops look up each byte's class in a table; a
 * token's bytes are copied at most once (into the carry, when it straddles a
 * chunk boundary). The sqlite dialect looks at every byte of the first word
 * or two of a statement (for CREATE TRIGGER), postgres looks back two bytes
 * at a quote or '$'. mysql and postgres look at every byte of a statement's
 * leading comments and first word, and of the whole of SET, COPY and CREATE
 * FUNCTION/PROCEDURE statements (postgres CREATE: up to its fourth word) and
 * of executable comments; postgres stops at every parenthesis.
 *
 * Positions: offset counts bytes from the start of the stream (a skipped BOM
 * included), line and column are 1-based, columns count bytes. LF, CR and
 * CRLF each count as one line break. NUL bytes are ordinary data.
 * A UTF-8 byte-order mark (EF BB BF) at offset 0 is skipped.
 */
#ifndef MOTE_SCAN_H
#define MOTE_SCAN_H

#include "mote/buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* One-shot split                                                           */
/* ------------------------------------------------------------------------ */

/*
 * Split in[0..len) on the byte delim. Rules (those of the motivating case's
 * splitOnDelimiter):
 *   - a '"' toggles "inside quotes"; a delim inside quotes does not split;
 *   - a '\\' escapes the next byte (inside or outside quotes): an escaped
 *     '"' or delim has no special meaning; the escape pair stays in the part
 *     as written;
 *   - consecutive, leading and trailing delimiters produce no empty parts;
 *   - an unterminated quote simply runs to the end of the input.
 * delim must not be '"' or '\\' (MOTE_ERR_INVALID).
 * Parts are views into in, in order, written to parts[0..cap); *count
 * receives the number of parts in the input even when it exceeds cap.
 * in may be NULL only if len == 0; parts may be NULL only if cap == 0.
 * Returns MOTE_OK, MOTE_ERR_SPACE (more than cap parts: the first cap are
 * written, *count tells how many there are) or MOTE_ERR_INVALID.
 */
MOTE_NODISCARD mote_err mote_split(const uint8_t *in, size_t len, uint8_t delim,
                    mote_view *parts, size_t cap, size_t *count);

/* ------------------------------------------------------------------------ */
/* Streaming scanner                                                        */
/* ------------------------------------------------------------------------ */

typedef enum mote_scan_dialect {
    /*
     * generic: delimiter of 1..16 bytes (default ";"), quote bytes from
     * config.quotes (default "\"'"), escape byte config.escape (default '\\',
     * -1 for none; an escape works inside and outside quotes), comment
     * styles from config.comments (default none). Doubled quotes ('it''s')
     * need no flag: closing and reopening gives the same boundaries.
     */
    MOTE_SCAN_GENERIC = 0,
    /*
     * mysql: ' " ` quotes; backslash escapes inside ' and " (not inside
     * backticks) unless NO_BACKSLASH_ESCAPES is in force, nor inside " under
     * ANSI_QUOTES (there " quotes an identifier; both below); # and "-- "
     * comments ("--" followed by a byte <= 0x20 or 0x7f), block comments
     * (slash-star ... star-slash, not nested). Executable comments
     * (slash-star-bang and slash-star-M-bang, with or without version digits,
     * up to star-slash) are code, as in the server's lexer: quotes inside
     * them hide star-slash and the delimiter; an ordinary block comment
     * inside one ends at its own star-slash; a bare delimiter inside one
     * ends the statement (as in the mysql client).
     * The client command "DELIMITER xyz" at statement start
     * (case-insensitive, 1..16 bytes up to the next blank, rest of the line
     * ignored, no backslash) changes the delimiter and is returned as a
     * MOTE_SCAN_COMMAND token (its line, without the line break).
     * NO_BACKSLASH_ESCAPES and ANSI_QUOTES: from config
     * (MOTE_SCAN_NO_BACKSLASH_ESCAPES, MOTE_SCAN_ANSI_QUOTES), then followed
     * from the statements SET [SESSION|LOCAL] sql_mode = v,
     * SET @@sql_mode / @@session.sql_mode / @@local.sql_mode = v (also
     * inside executable comments; several assignments per SET). A quoted v
     * turns a mode on when it holds its name (any case; read by "NO_B" and
     * "ANSI", which no other mode name holds; ANSI includes ANSI_QUOTES),
     * off otherwise; DEFAULT turns both off;
     * @@sql_mode keeps them. Other combination modes that include
     * ANSI_QUOTES (ORACLE, MSSQL, DB2, MAXDB, POSTGRESQL) are not read as
     * such: the server lists ANSI_QUOTES in @@sql_mode with them, so dumps
     * name it. The dump
     * convention SET @x = @@sql_mode ... SET sql_mode = @x is followed: the
     * scanner remembers the mode saved in the last two user variables
     * assigned from @@sql_mode and restores it from them; an unknown @x (or
     * any other expression) restores the configured mode. The change takes
     * effect after the SET statement's delimiter.
     */
    MOTE_SCAN_MYSQL = 1,
    /*
     * sqlite: ' " ` and [...] quoting, no backslash escapes, "--" and
     * block comments (slash-star ... star-slash), and a CREATE [TEMP] TRIGGER ... END; body is one
     * statement: boundaries are exactly where sqlite3_complete() says a
     * statement is complete. Delimiter fixed to ";".
     */
    MOTE_SCAN_SQLITE = 2,
    /*
     * postgres (as psql splits a script): ' and " quoting, E'...' strings
     * with backslash escapes (a doubled quote inside keeps them on),
     * $tag$...$tag$ dollar quoting (tag: letter or _ then letters, digits,
     * _; up to 64 bytes), "--" comments, nested block comments
     * (slash-star ... star-slash). No statement ends inside parentheses
     * (depth counted outside quotes and comments, as psql does), nor inside
     * the BEGIN ... END of a CREATE [OR REPLACE] FUNCTION|PROCEDURE (psql's
     * rule: there BEGIN, and CASE inside a BEGIN, open and END closes, at
     * parenthesis depth 0; as in psql, an unquoted name "begin" there, a
     * schema begin.f() or a column ev.begin, counts too, and the rest of
     * the script becomes one statement, not terminated).
     * At statement start (leading comments split off), a line starting
     * with a backslash is a psql meta-command: a MOTE_SCAN_COMMAND token up
     * to the end of its line (e.g. \connect db, \restrict KEY).
     * After a statement COPY ... FROM STDIN (first word COPY, then the words
     * FROM STDIN at parenthesis depth 0, any case, options may follow),
     * the input is COPY data: text after the delimiter on the COPY line
     * is skipped when blank (else it is the first data line); then each line
     * is one MOTE_SCAN_COPY_DATA token (without "\n"; a "\r" before it is
     * removed and MOTE_SCAN_TOK_CR set; bytes raw, never trimmed, empty lines
     * kept) until a line "\." (a MOTE_SCAN_COPY_END token, text "\.").
     * A token is one line, which for csv data with quoted line breaks is
     * not one row: send each line with its line break. Memory stays bounded
     * by the longest line.
     * standard_conforming_strings: from config
     * (MOTE_SCAN_PG_NONSTANDARD_STRINGS: off), then followed from SET
     * [SESSION|LOCAL] standard_conforming_strings {=|TO} v (on/true/yes/1,
     * off/false/no/0, quoted or not; DEFAULT: on) and RESET
     * standard_conforming_strings / RESET ALL (on). When off, '' strings
     * take backslash escapes like E''. Effective after the statement.
     * client_encoding (hosted builds), as psql follows it: from config
     * (charset), then SET client_encoding {=|TO} v (the server's names and
     * aliases, quoted or not: SJIS, Shift_JIS, WIN932, GBK, GB18030, BIG5,
     * JOHAB ... pick their charset, any other the default; DEFAULT too),
     * RESET client_encoding / RESET ALL (the default). Not psql's \encoding.
     */
    MOTE_SCAN_POSTGRES = 3,
    /*
     * lines: newline-delimited records. '"' quotes may hold raw newlines; a
     * backslash escapes the next byte (a newline included) inside and outside
     * quotes. The token is the record without its "\n"; a "\r" just before
     * the "\n" is removed too (MOTE_SCAN_TOK_CR is set). Leading blanks are
     * kept; empty records are skipped unless MOTE_SCAN_KEEP_BLANK. Delimiter
     * fixed to "\n".
     */
    MOTE_SCAN_LINES = 4
} mote_scan_dialect;

/* config.comments bits (generic dialect; the others set their own). */
#define MOTE_SCAN_COMMENT_HASH        0x01u /* # to end of line */
#define MOTE_SCAN_COMMENT_DASH        0x02u /* -- to end of line */
#define MOTE_SCAN_COMMENT_DASH_SPACE  0x04u /* -- then byte <= 0x20: to end of line */
#define MOTE_SCAN_COMMENT_BLOCK       0x08u /* slash-star ... star-slash */
#define MOTE_SCAN_COMMENT_NESTED      0x10u /* block comments nest (with BLOCK) */

/* config.flags */
/* Also return blank tokens: empty ones and, where leading blanks are
 * trimmed (sql dialects), blank-only ones ("a;;" gives "a" and ""). The
 * trailing rest after the last delimiter is never returned when blank.
 * Default: skipped. */
#define MOTE_SCAN_KEEP_BLANK  0x01u
/* A token longer than max_token is handed out in pieces of max_token bytes,
 * each but the last flagged MOTE_SCAN_TOK_CONTINUES, instead of a TOO_LONG
 * error. For hosts that cannot hold one statement. */
#define MOTE_SCAN_PIECES      0x02u
/* Keep leading blanks (space, \t, \n, \r, \f, \v) in tokens. The sql
 * dialects trim them by default (so a token's position is that of its first
 * real byte); generic and lines keep them always. */
#define MOTE_SCAN_KEEP_LEADING 0x04u
/* Return comment-only text as MOTE_SCAN_COMMENT tokens (sql dialects and
 * generic with comment styles): the comments (and blanks between them) that
 * precede a statement's first code byte, and comment-only text before a
 * delimiter or at the end of the input. Default: such text is skipped and
 * never held (it does not count against max_token). A statement's own
 * text never starts with a comment when its dialect trims leading blanks. */
#define MOTE_SCAN_KEEP_COMMENTS 0x08u
/* mysql: start with NO_BACKSLASH_ESCAPES in force (a backslash is an
 * ordinary byte in ' and " strings). SET sql_mode statements change it. */
#define MOTE_SCAN_NO_BACKSLASH_ESCAPES 0x10u
/* postgres: start with standard_conforming_strings off ('' strings take
 * backslash escapes). SET standard_conforming_strings changes it. */
#define MOTE_SCAN_PG_NONSTANDARD_STRINGS 0x20u
/* mysql: start with ANSI_QUOTES in force ("..." quotes an identifier, in
 * which a backslash is an ordinary byte). SET sql_mode statements change it. */
#define MOTE_SCAN_ANSI_QUOTES 0x40u

/* The character set of the input, where it matters: a charset whose
 * two-byte characters may end in an ASCII byte (0x40..0x7e, Shift_JIS's
 * and GBK's '\\' and '`' among them) must be named, or such a byte is read
 * as an escape or a closing quote. mysql and postgres dialects only; the
 * default suits UTF-8, Latin-1, EUC-JP, EUC-KR and every other charset
 * whose multibyte characters have no byte below 0x80. With one of the
 * others, a lead byte makes the next byte (if it is at least 0x40, for GBK
 * and JOHAB 0x30) part of its character, which nothing else reads: as the
 * mysql client does with --default-character-set and psql with
 * client_encoding (postgres follows SET client_encoding; mysql, as its
 * client, does not follow SET NAMES). Such input does not take the block path (hosted builds'
 * 64-byte SIMD classifier): it is scanned at the byte loops' speed.
 * Freestanding builds (meson's system 'none', or MOTE_SCAN_CHARSETS=0 when
 * compiling scan.c) leave these charsets out: mote_scan_init() refuses one. */
typedef enum mote_scan_charset {
    MOTE_SCAN_CHARSET_ASCII = 0, /* ASCII-safe: UTF-8 and the like (default) */
    MOTE_SCAN_CHARSET_SJIS = 1,  /* Shift_JIS, cp932, SHIFT_JIS_2004: lead bytes 0x81..0x9f, 0xe0..0xfc */
    MOTE_SCAN_CHARSET_GBK = 2,   /* GBK, cp936, GB18030, Big5, Big5-HKSCS: lead bytes 0x81..0xfe */
    MOTE_SCAN_CHARSET_JOHAB = 3  /* JOHAB (psql): lead bytes 0x84..0xf9 */
} mote_scan_charset;

typedef struct mote_scan_config {
    mote_scan_dialect dialect;
    /* Delimiter (generic, mysql initial, postgres): NULL = ";" (1..16 bytes;
     * sqlite and lines accept only their own). */
    const uint8_t *delim;
    size_t delim_len;
    /* Longest token held, 0 = no limit but the mote_buf's own cap. */
    size_t max_token;
    unsigned flags;
    /* generic only: */
    const char *quotes;  /* NUL-terminated, up to 4 distinct bytes; NULL = "\"'" */
    int escape;          /* escape byte, -1 = none */
    unsigned comments;   /* MOTE_SCAN_COMMENT_* */
    /* mysql and postgres only: */
    mote_scan_charset charset; /* default ASCII */
} mote_scan_config;

/* Fill *cfg with the defaults of a dialect (delim NULL, no max, flags 0).
 * Returns MOTE_OK, or MOTE_ERR_INVALID for a NULL cfg or an unknown dialect
 * (*cfg is filled all the same; mote_scan_init() rejects that dialect). */
MOTE_NODISCARD mote_err mote_scan_config_init(mote_scan_config *cfg, mote_scan_dialect dialect);

/* What a token is. Errors come with MOTE_SCAN_STATEMENT. */
typedef enum mote_scan_kind {
    MOTE_SCAN_STATEMENT = 0, /* a statement (or record) for the server */
    MOTE_SCAN_COMMAND,       /* a client command: mysql DELIMITER, psql \... line */
    MOTE_SCAN_COPY_DATA,     /* postgres: one line of COPY ... FROM STDIN data */
    MOTE_SCAN_COPY_END,      /* postgres: the "\." line that ends COPY data */
    MOTE_SCAN_COMMENT        /* comment-only text (MOTE_SCAN_KEEP_COMMENTS) */
} mote_scan_kind;

/* Token flags */
/* "terminated": the token ended where its kind ends - a statement at its
 * delimiter, a command or COPY line at its line break, a leading comment at
 * the statement it precedes. Clear when the input ended first (the partial
 * last statement of a truncated dump), and on every piece but the last. */
#define MOTE_SCAN_TOK_DELIM     0x01u
#define MOTE_SCAN_TOK_TERMINATED MOTE_SCAN_TOK_DELIM
#define MOTE_SCAN_TOK_CONTINUES 0x02u /* a piece; more of this token follows */
#define MOTE_SCAN_TOK_ESCAPES   0x04u /* holds an escape byte (text is raw) */
#define MOTE_SCAN_TOK_CR        0x08u /* lines, COPY data: a "\r" before the "\n" was removed */

/*
 * A token (statement / record / command / COPY line / comment, see kind) or
 * an error. On MOTE_OK text is the token without its delimiter (a command or
 * COPY line: without its line break), a view valid until the next call on the scanner (and
 * only while the fed chunk is alive, for tokens inside it); pos is the
 * position of its first byte (for a piece: of the piece; a piece's line and
 * column are approximate when a line break lies in the up to 15 bytes held
 * back for a possible delimiter). On an error text is
 * empty, pos is where the problem starts (the token's start for TOO_LONG, the
 * opening quote or comment for UNTERMINATED_*, the DELIMITER command for
 * BAD_DELIMITER) and message is a static English sentence.
 */
typedef struct mote_scan_token {
    mote_view text;
    mote_pos pos;
    unsigned flags;
    mote_scan_kind kind;
    const char *message;
} mote_scan_token;

typedef struct mote_scan_stats {
    uint64_t bytes_fed;      /* bytes given to feed() */
    uint64_t bytes_examined; /* bytes the state machine stepped over; == bytes_fed at end */
    uint64_t bytes_copied;   /* bytes copied into the carry buffer */
    uint64_t tokens;         /* tokens (pieces) returned */
    uint64_t errors;         /* errors returned */
    size_t carry_peak;       /* most bytes the carry held at once */
} mote_scan_stats;

/* Read callback of the pull API: read up to cap bytes into dst; return the
 * count, 0 at end of input, negative on error. */
typedef long (*mote_scan_read_fn)(void *ctx, uint8_t *dst, size_t cap);

/* The context. Fields are private; it is visible only so callers can place
 * it on the stack, statically or in an arena. About 1 KiB on 64-bit hosts
 * (two 256-byte class tables). */
typedef struct mote_scanner {
    /* (byte fields first, then words: within reach of the 16-bit loads and
     * stores of Cortex-M, which take a byte up to offset 31 and a word up to
     * 124; the tables last) */
    uint8_t state, dialect, flags, trim;
    uint8_t comments, slot, dlen, bom;
    uint8_t trig;            /* sqlite3_complete() state (the others: 2, NORMAL) */
    uint8_t mode, mode_next; /* NO_BACKSLASH_ESCAPES, ANSI_QUOTES / nonstandard strings in force (+ a test bit); after this statement */
    uint8_t finished, done, dropping;
    uint8_t hist[2];         /* postgres: last bytes of the token handed out or dropped */
    union {                  /* a dialect's bytes kept across tokens, within reach */
        struct {
            uint8_t vmode[2];        /* sql_mode saved in two user variables */
        } my;
        struct {
            uint8_t taglen, tagk;    /* the $tag$ being read or matched */
            uint8_t copy;            /* COPY FROM STDIN: 1 statement, 3 data */
        } pg;
    } ds;
    /* per token, cleared together (kind ... tokflags) */
    uint8_t kind;            /* kind of the open token (0: by its bytes) */
    uint8_t lead, cmt, cdrop, split; /* no code yet; comments seen; not kept; split pending */
    uint8_t slow;            /* why the skip loops must stop at every byte */
    uint8_t wcls, wst;       /* statement class by its first word; state within it (CREATE: leading words read) */
    uint8_t litm;            /* the sql_mode bits a SET literal names (litw: its last four bytes) */
    uint8_t wlen;            /* word being read (keywords), mysql DELIMITER match */
    uint8_t km;              /* delimiter bytes matched */
    uint8_t mbt;             /* the next byte may be a two-byte character's trail (charset) */
    uint8_t pieces_out, hist_n; /* pieces handed out; bytes in hist (speed builds; small: blanks for none) */
    union {                  /* what one dialect alone keeps per token */
        struct {
            uint8_t arglen, argbad;  /* the DELIMITER argument */
        } my;
        struct {
            uint32_t pdepth, bdepth; /* parenthesis and BEGIN ... END depth */
        } pg;
    } tk;
    unsigned tokflags;
    uint32_t litw;
    uint16_t q_esc[4];       /* escape byte per quote slot, 0xffff none (in reach of 16-bit ldrh) */
    uint16_t esc_out;        /* escape outside quotes, 0xffff none */
    uint8_t cr;              /* the last line break was "\r" */
    uint8_t charset;         /* mote_scan_charset */
    uint8_t blk_miss;        /* hosted builds: block path misses in a row */
    mote_buf *carry;
    size_t max_token;
    const uint8_t *chunk;
    size_t chunk_len, pos, tok_start, carry_drop;
    uint32_t whash;          /* word hash */
    unsigned depth;          /* nested comment depth */
    const uint8_t *next_chunk;
    size_t next_len;
    uint64_t base;           /* stream offset of chunk[0] */
    uint64_t line, line_start;
    uint64_t blk_resume;     /* no block path before this stream offset */
    /* (the arrays the code indexes before the positions, which are copied
     * whole: Cortex-M0+ names an offset up to 255 with one 16-bit movs) */
    uint8_t q_close[4];
    uint8_t delim[16], kmp[16];
    uint8_t word[28];
    mote_pos tok_pos, open_pos, lead_pos;
    uint8_t blk, blk_flags;  /* hosted builds: 64-byte block path (0: off; 1, 2: quote ' or ", 3: postgres) */
    uint8_t blk_slots;       /* ... the quote slots it reads, and which of them backslashes escape */
    uint8_t blk_stop[6], blk_nstop; /* ... the bytes that stop it outside strings */
    uint8_t blk_multi;       /* ... its last block held quotes of slots 1..3 (start with those) */
    uint8_t blk_nother;      /* ... blk_stop's first entries that are no slot's quote */
    uint8_t tok_init[4];     /* hosted builds: a token's first state, lead, slow, wcls (in padding) */
    /* what one dialect alone keeps across tokens */
    union {
        struct {
            uint8_t arg[16];         /* the DELIMITER argument (read only up to arglen) */
            uint32_t vhash[2], vt;   /* the hashes of ds.my.vmode's variables; the SET target */
        } my;
        struct {
            uint8_t tag[64];         /* (ds.pg.taglen bytes) */
            uint64_t eclose;         /* offset after the close of an escape string */
            uint64_t cr;             /* hosted builds, COPY data: offset of the chunk's next '\r' (or its end) */
        } pg;
    } d;
    mote_scan_stats stats;
    uint8_t open_slot[256];  /* quote byte -> slot + 1 */
    uint8_t cls[256];        /* per-byte class bits for the fast skip loops */
} mote_scanner;

/*
 * Prepare sc with cfg (copied; cfg->delim and cfg->quotes need not outlive
 * the call) and the carry buffer carry, which the caller initialised with
 * mote_buf_init_pool/arena/fixed and which must outlive the scanner; its
 * contents are the scanner's from now on. max_token 0 means no limit beyond
 * the buffer's own cap (a full buffer counts as TOO_LONG). max_token gives the
 * same errors for any chunking; the buffer's cap is a memory safety net whose
 * errors depend on chunking (only bytes of tokens that straddle chunks are
 * stored, each with its delimiter: n + the delimiter's length bytes for a
 * token of n), so when results must not, give the buffer room for
 * max_token + the longest delimiter in force (lines and postgres COPY
 * rows: + 2, for "\r\n", or + 1 in pieces; + 16 always suffices).
 * Returns MOTE_OK, MOTE_ERR_INVALID (NULL argument, bad dialect, more than 4
 * quotes, PIECES without max_token, a charset outside mysql and postgres or
 * in a build without them) or MOTE_ERR_BAD_DELIMITER (delimiter
 * empty, longer than 16 bytes, or not the fixed one of sqlite/lines).
 */
MOTE_NODISCARD mote_err mote_scan_init(mote_scanner *sc, const mote_scan_config *cfg, mote_buf *carry);

/*
 * Give the scanner the next chunk of input. The bytes are not copied: they
 * MUST stay unchanged until mote_scan_next() has returned MOTE_ERR_NEED_MORE
 * (then the scanner has copied what it still needs). len 0 is allowed.
 * Returns MOTE_OK, MOTE_ERR_STATE (the previous chunk is not drained yet, or
 * finish() was called) or MOTE_ERR_INVALID (NULL data with len > 0, NULL sc).
 */
MOTE_NODISCARD mote_err mote_scan_feed(mote_scanner *sc, const void *data, size_t len);

/* Declare the end of input. Returns MOTE_OK or MOTE_ERR_STATE (a chunk is
 * not drained yet). Call mote_scan_next() afterwards for the last tokens. */
MOTE_NODISCARD mote_err mote_scan_finish(mote_scanner *sc);

/*
 * Take the next token. Returns:
 *   MOTE_OK           *tok holds a token;
 *   MOTE_ERR_NEED_MORE the fed input is used up: feed more or finish(); after
 *                     finish() it means the stream is exhausted;
 *   MOTE_ERR_TOO_LONG token over max_token (or the carry buffer's cap): its
 *                     bytes are dropped up to the next delimiter (quotes and
 *                     comments still tracked; a command or COPY line: up to
 *                     its line break), later tokens are not lost; kept
 *                     leading comments over max_token are reported and the
 *                     rest of them skipped, the statement after them is
 *                     kept (comments never come in pieces);
 *   MOTE_ERR_NOMEM    the carry could not grow: the token is dropped likewise;
 *   MOTE_ERR_UNTERMINATED_QUOTE / _COMMENT at end of input (the token is
 *                     dropped; pos names where it opened);
 *   MOTE_ERR_BAD_DELIMITER a mysql DELIMITER command without a usable
 *                     argument (the old delimiter stays);
 *   MOTE_ERR_INVALID  NULL argument.
 * Every error is recoverable: keep calling mote_scan_next().
 */
MOTE_NODISCARD mote_err mote_scan_next(mote_scanner *sc, mote_scan_token *tok);

/*
 * Pull API: like mote_scan_next(), but when input is needed it reads up to
 * chunk_size bytes into chunk (caller memory, must stay the same across calls
 * and live as long as returned views) through read(ctx, ...), feeds them, and
 * calls finish() at end of input. Returns as next(); MOTE_ERR_NEED_MORE only
 * when the stream is exhausted; MOTE_ERR_IO when read() fails (call again to
 * retry).
 */
MOTE_NODISCARD mote_err mote_scan_pull(mote_scanner *sc, mote_scan_read_fn read, void *ctx,
                        uint8_t *chunk, size_t chunk_size, mote_scan_token *tok);

/* Statistics so far (never fails; zeros for NULL sc). */
void mote_scan_get_stats(const mote_scanner *sc, mote_scan_stats *out);

/* The delimiter now in force (a mysql DELIMITER command changes it); valid
 * until the next call. */
mote_view mote_scan_delimiter(const mote_scanner *sc);

#ifdef __cplusplus
}
#endif

#endif /* MOTE_SCAN_H */
