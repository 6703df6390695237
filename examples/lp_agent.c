/*
 * lp_agent.c - a telemetry agent's core: InfluxDB line protocol in, CQL row
 * values out, in one fixed block of memory.
 *
 *   lp_agent [--arena BYTES] [--chunk BYTES] [--precision ns|us|ms|s]
 *            [--out FILE] [--hex] [--cql] [FILE|-]
 *   lp_agent --cassandra HOST:PORT [--keyspace KS] [--table T] [--create]
 *            [--user U --password-file F] [--batch N] [--inflight N]
 *            [--arena BYTES] [--chunk BYTES] [--precision P] [FILE|-]
 *
 * Each point becomes the bound values of one row of
 *
 *   CREATE TABLE metrics (measurement text, tags frozen<map<text,text>>,
 *       time timestamp, fields map<text,double>, text_fields map<text,text>,
 *       PRIMARY KEY ((measurement, tags), time))
 *
 * (tags is frozen: a column of the primary key must be; a non-frozen map
 * there is refused by the server. Frozen or not, the value bytes are the
 * same.)
 *
 * encoded exactly as a driver binds them: integer, unsigned and boolean
 * fields widened to double (true 1.0, false 0.0), string fields into
 * text_fields, the time in milliseconds (ns rounded down). Names, keys and
 * values are unescaped.
 *
 * --out FILE writes the rows: each row is five cells in column order, each
 * cell a CQL [bytes]: a 4-byte big-endian length, then that many bytes
 * (maps as the protocol encodes them, count 0 for an empty one). No header,
 * no separator: a reader takes five cells at a time. --hex prints each row's
 * cells as hex on stdout. --cql prints each row as an INSERT statement with
 * cqlsh literals (mote/cql_literal.h, formatted from the encoded cells, so
 * it shows exactly what was encoded), after the CREATE TABLE above: a
 * newcomer can read it and paste it into cqlsh. Statistics go to stderr: points, bad lines (each
 * with its line and column), bytes in and out, MB/s, the arena's high water.
 *
 * Memory: one block of --arena bytes (default 256 KiB) taken at start; after
 * that nothing is allocated. From it: the read chunk, stdio's output buffer,
 * the carry for a line that straddles chunks (a quarter of the arena: a
 * longer line is reported as TOO_LONG and skipped), and per-point scratch
 * that is released after every point (arena save/restore). Resident memory
 * is therefore the same for a 10 MB and a 10 GB input.
 *
 * Repeated keys in a point: a tag key given twice makes the line bad
 * (reported as DUPLICATE with the column of the second one), as InfluxDB
 * refuses such a point ("duplicate tags") and a map with a repeated key is
 * not a map (the server would silently keep the last entry). A field key
 * given twice: the last value wins, as in InfluxDB, where the later field
 * replaces the earlier one, across fields and text_fields alike
 * (m f=1,f="x" writes text_fields {f: x} and no numeric f).
 *
 * Network mode (--cassandra HOST:PORT): the rows go to the server instead,
 * over mote's sans-I/O wire module, with the socket, poll() and the clock
 * here. At start: STARTUP (and SASL PLAIN if the server asks for a login),
 * --create's CREATE KEYSPACE / CREATE TABLE IF NOT EXISTS, and PREPARE of
 * the INSERT. Rows are encoded once, into batch slots (--inflight + 1 of
 * them, together 3/8 of the arena); a full slot (--batch rows, or no room
 * for the next row) becomes one UNLOGGED BATCH of EXECUTEs of the prepared
 * INSERT (a single row: one EXECUTE), consistency ONE, pipelined with the
 * others on one non-blocking connection. A slot is kept until the server
 * answers for it, so a request can be built again: Overloaded,
 * Is_bootstrapping, Unavailable and Write/Read_timeout are retried after
 * 10 ms, doubled per try up to 2 s, at most 8 tries; Unprepared leads to a
 * new PREPARE and a re-send; a batch refused for any other reason (say, one
 * row's partition key over the server's 64 KiB limit) is sent again one row
 * at a time, so only the rows at fault fail, each reported as
 * "rejected line N: <the server's message>", and the rest are written. At
 * the end: rows written, rows failed, retries. The carry is an eighth of the
 * arena in this mode (lines up to 32 KiB by default); a row bigger than a
 * slot is rejected with a hint to raise --arena. Outside the arena: the C
 * library's getaddrinfo() for HOST, once at start. A lost connection ends
 * the run (exit 2); the rows in flight then are not known to be written.
 *
 * Why mote_lp_stream and not the generic scanner's "lines" dialect: in line
 * protocol a '"' opens a string only in a field value (m,t="x v=1 is a tag
 * value holding a quote), so only the lp grammar knows where a record ends.
 * Exit status: 0, 1 if any line was bad or any row rejected, 2 for usage,
 * I/O or connection errors.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "mote/mote.h"

#define NCELLS 5
#define ARRAY_CAP 64 /* tags/fields decoded in place; more are iterated */

typedef struct agent {
    mote_arena arena;
    mote_lp_config opt;
    FILE *out;      /* --out, or NULL */
    struct net *net; /* --cassandra, or NULL */
    const char *out_name; /* for messages */
    int hex;
    int cql;        /* --cql: rows as INSERT statements */
    const mote_cql_type *cell_type[NCELLS]; /* for --cql */
    unsigned long long points, bad, bytes_in, bytes_out;
} agent;

typedef struct row {
    mote_view name;
    mote_view *tag_k, *tag_v;
    const uint8_t **tag_raw; /* where each tag key is in the line (for messages) */
    size_t ntags;
    mote_view *num_k, *str_k, *str_v;
    double *num_v;
    size_t nnum, nstr;
    int64_t time_ms;
} row;

static int usage(const char *msg)
{
    if (msg) fprintf(stderr, "lp_agent: %s (try --help)\n", msg);
    else
        printf("usage: lp_agent [--arena BYTES] [--chunk BYTES] [--precision ns|us|ms|s]\n"
               "                [--out FILE] [--hex] [--cql] [FILE|-]\n"
               "Read line protocol (default stdin), turn each point into the CQL values of a\n"
               "row (measurement text, tags frozen<map<text,text>>, time timestamp,\n"
               "fields map<text,double>, text_fields map<text,text>).\n"
               "  --arena BYTES     all the memory the agent uses (default 262144)\n"
               "  --chunk BYTES     read size (default 16384, at most a quarter of the arena)\n"
               "  --precision P     timestamp unit of the input (default ns)\n"
               "  --out FILE        write rows: five [bytes] cells per row ('-' = stdout)\n"
               "  --hex             print each row's cells as hex\n"
               "  --cql             print each row as a CQL INSERT statement (cqlsh literals)\n"
               "Or write the rows into Cassandra / ScyllaDB (CQL native protocol v4):\n"
               "  --cassandra HOST:PORT  the server (one connection)\n"
               "  --keyspace KS     keyspace (default mote)\n"
               "  --table T         table (default metrics)\n"
               "  --create          create the keyspace (SimpleStrategy, RF 1) and table if absent\n"
               "  --user U          login (PasswordAuthenticator, SASL PLAIN) ...\n"
               "  --password-file F ... with the password on F's first line\n"
               "  --batch N         rows per UNLOGGED BATCH (default 32; 1: plain EXECUTEs)\n"
               "  --inflight N      requests in flight (default 4)\n"
               "  Prints rows written, rows failed (each with its line) and retries.\n"
               "Sizes take a binary suffix: 256K, 1M (1K = 1024 bytes).\n"
               "Statistics go to stderr. Exit 0; 1 if any line was bad or any row rejected\n"
               "(each reported, the rest processed); 2 on a usage, I/O or connection error\n"
               "(one line: WHAT: REASON).\n");
    if (!msg && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "lp_agent: stdout: %s\n", strerror(errno ? errno : EIO));
        return 2;
    }
    return msg ? 2 : 0;
}

/* A positive byte count with an optional binary suffix K, M or G ("256K"),
 * on mote's own exact integer parser (no locale). */
static int parse_size(const char *s, size_t *out)
{
    size_t v;
    if (mote_num_parse_size((const uint8_t *)s, strlen(s), &v) != MOTE_OK || v == 0 ||
        v > SIZE_MAX / 2)
        return -1;
    *out = v;
    return 0;
}

/* One line "lp_agent: WHAT: REASON" for a failed read or write; the caller
 * exits 2. */
static int io_error(const char *what, int err)
{
    fprintf(stderr, "lp_agent: %s: %s\n", what, strerror(err ? err : EIO));
    return 2;
}

/* The real bytes of a name or value: the input itself when it holds no
 * escapes, else an unescaped copy in the per-point scratch arena. */
static mote_err text_of(agent *ag, const mote_lp_text *t, mote_view *v)
{
    return mote_lp_unescape_arena(t, &ag->arena, v);
}

/* Duplicate field keys: the last one wins, as in InfluxDB (a point's fields
 * form a map there, later keys replacing earlier ones), whichever of the two
 * maps (fields, text_fields) the earlier one went to. The server would keep
 * the last entry of a map with a repeated key too, but silently and only
 * within one map; this makes the rule explicit and the same for both. */
/* Remove key from the parallel arrays keys[0..*n) / vals (elements of vsize
 * bytes); true if it was there. */
static bool drop_key(mote_view *keys, void *vals, size_t vsize, size_t *n, mote_view key)
{
    for (size_t i = 0; i < *n; i++)
        if (keys[i].len == key.len && !memcmp(keys[i].ptr, key.ptr, key.len)) {
            size_t rest = *n - i - 1;
            memmove(&keys[i], &keys[i + 1], rest * sizeof *keys);
            memmove((char *)vals + i * vsize, (char *)vals + (i + 1) * vsize, rest * vsize);
            (*n)--;
            return true;
        }
    return false;
}

static void drop_field(row *r, mote_view key)
{
    if (!drop_key(r->num_k, r->num_v, sizeof *r->num_v, &r->nnum, key))
        drop_key(r->str_k, r->str_v, sizeof *r->str_v, &r->nstr, key);
}

static mote_err add_field(agent *ag, row *r, mote_lp_field *f)
{
    mote_err e = f->decoded ? MOTE_OK : mote_lp_field_decode(f);
    if (e != MOTE_OK) return e;
    mote_view key;
    if ((e = text_of(ag, &f->key, &key)) != MOTE_OK) return e;
    drop_field(r, key);
    double d;
    switch (f->type) {
    case MOTE_LP_FLOAT: d = f->value.f; break;
    case MOTE_LP_INT: d = (double)f->value.i; break;
    case MOTE_LP_UINT: d = (double)f->value.u; break;
    case MOTE_LP_BOOL: d = f->value.b ? 1.0 : 0.0; break;
    default: /* string */
        r->str_k[r->nstr] = key;
        if ((e = text_of(ag, &f->value.s, &r->str_v[r->nstr])) != MOTE_OK) return e;
        r->nstr++;
        return MOTE_OK;
    }
    r->num_k[r->nnum] = key;
    r->num_v[r->nnum++] = d;
    return MOTE_OK;
}

/* A repeated tag key: InfluxDB refuses such a point ("duplicate tags"), and
 * in the row it would be a map with a repeated key, of which the server
 * silently keeps the last entry. The line is bad; *col gets the column of
 * the second occurrence. Keys compare unescaped (what the map would hold). */
static bool duplicate_tag(const mote_lp_point *pt, const row *r, const uint8_t *const *raw,
                          uint64_t *col)
{
    for (size_t i = 1; i < r->ntags; i++)
        for (size_t j = 0; j < i; j++)
            if (r->tag_k[i].len == r->tag_k[j].len &&
                !memcmp(r->tag_k[i].ptr, r->tag_k[j].ptr, r->tag_k[i].len)) {
                *col = pt->column + (uint64_t)(raw[i] - pt->text.ptr);
                return true;
            }
    return false;
}

/* Gather a decoded point's names and values, unescaped, into r. */
static mote_err collect(agent *ag, mote_lp_point *pt, row *r)
{
    mote_arena *a = &ag->arena;
    size_t nt = pt->ntags, nf = pt->nfields;
    r->tag_k = mote_arena_alloc_array(a, nt ? nt : 1, 2 * sizeof(mote_view), _Alignof(mote_view));
    r->tag_raw = mote_arena_alloc_array(a, nt ? nt : 1, sizeof(uint8_t *), _Alignof(uint8_t *));
    r->num_k = mote_arena_alloc_array(a, nf, 3 * sizeof(mote_view), _Alignof(mote_view));
    r->num_v = mote_arena_alloc_array(a, nf, sizeof(double), _Alignof(double));
    if (!r->tag_k || !r->tag_raw || !r->num_k || !r->num_v) return MOTE_ERR_NOMEM;
    r->tag_v = r->tag_k + (nt ? nt : 1);
    r->str_k = r->num_k + nf;
    r->str_v = r->str_k + nf;
    r->ntags = r->nnum = r->nstr = 0;

    mote_err e = text_of(ag, &pt->measurement, &r->name);
    mote_lp_iter it;
    mote_lp_tag tag;
    mote_lp_field field;
    /* The first ARRAY_CAP tags and fields are in the point's arrays (fields
     * already typed); the iterators reach the rest. */
    if (nt <= pt->tags_cap) {
        for (size_t i = 0; e == MOTE_OK && i < nt; i++, r->ntags++)
            if (r->tag_raw[i] = pt->tags[i].key.ptr,
                (e = text_of(ag, &pt->tags[i].key, &r->tag_k[i])) == MOTE_OK)
                e = text_of(ag, &pt->tags[i].value, &r->tag_v[i]);
    } else {
        for (mote_lp_tags_begin(pt, &it); e == MOTE_OK && mote_lp_tags_next(&it, &tag); r->ntags++)
            if (r->tag_raw[r->ntags] = tag.key.ptr,
                (e = text_of(ag, &tag.key, &r->tag_k[r->ntags])) == MOTE_OK)
                e = text_of(ag, &tag.value, &r->tag_v[r->ntags]);
    }
    if (nf <= pt->fields_cap) {
        for (size_t i = 0; e == MOTE_OK && i < nf; i++) e = add_field(ag, r, &pt->fields[i]);
    } else {
        for (mote_lp_fields_begin(pt, &it); e == MOTE_OK && mote_lp_fields_next(&it, &field);)
            e = add_field(ag, r, &field);
    }
    /* CQL timestamp: milliseconds since the epoch; floor, also before 1970. */
    int64_t t = pt->time;
    r->time_ms = t / 1000000 - (t % 1000000 < 0);
    return e;
}

/* The five cells of r, each as [bytes]: their sizes (sz[]) and the total. */
static mote_err row_size(const row *r, size_t sz[NCELLS], size_t *total)
{
    mote_err e;
    sz[0] = r->name.len;
    sz[2] = 8;
    if ((e = mote_cql_map_size(MOTE_CQL_TEXT, r->tag_k, MOTE_CQL_TEXT, r->tag_v, r->ntags, &sz[1])) ||
        (e = mote_cql_map_size(MOTE_CQL_TEXT, r->num_k, MOTE_CQL_DOUBLE, r->num_v, r->nnum, &sz[3])) ||
        (e = mote_cql_map_size(MOTE_CQL_TEXT, r->str_k, MOTE_CQL_TEXT, r->str_v, r->nstr, &sz[4])))
        return e;
    *total = 0;
    for (int i = 0; i < NCELLS; i++) {
        if (sz[i] > MOTE_CQL_MAX_LEN || !mote_size_add(*total, 4 + sz[i], total)) return MOTE_ERR_OVERFLOW;
    }
    return MOTE_OK;
}

/* Write the cells sized by row_size into p (exactly the total). */
static mote_err row_write(const row *r, const size_t sz[NCELLS], uint8_t *p)
{
    mote_err e = MOTE_OK;
    for (int i = 0; i < NCELLS; i++) {
        mote_be_store32(p, (uint32_t)sz[i]);
        p += 4;
        switch (i) {
        case 0: if (sz[0]) memcpy(p, r->name.ptr, sz[0]); break;
        case 1: e = mote_cql_encode_map(MOTE_CQL_TEXT, r->tag_k, MOTE_CQL_TEXT, r->tag_v, r->ntags, p, sz[1], NULL); break;
        case 2: mote_be_store64(p, (uint64_t)r->time_ms); break;
        case 3: e = mote_cql_encode_map(MOTE_CQL_TEXT, r->num_k, MOTE_CQL_DOUBLE, r->num_v, r->nnum, p, sz[3], NULL); break;
        default: e = mote_cql_encode_map(MOTE_CQL_TEXT, r->str_k, MOTE_CQL_TEXT, r->str_v, r->nstr, p, sz[4], NULL); break;
        }
        if (e != MOTE_OK) return e;
        p += sz[i];
    }
    return MOTE_OK;
}

/* Encode r's five cells into scratch; the row is out[0..len). */
static mote_err encode_row(agent *ag, const row *r, uint8_t **out, size_t *len)
{
    size_t sz[NCELLS], total;
    mote_err e = row_size(r, sz, &total);
    if (e != MOTE_OK) return e;
    uint8_t *p = mote_arena_alloc_aligned(&ag->arena, total, 1);
    if (!p) return MOTE_ERR_NOMEM;
    *out = p;
    *len = total;
    return row_write(r, sz, p);
}

static int print_hex(const uint8_t *p, unsigned long long n)
{
    printf("row %llu:", n);
    for (int c = 0; c < NCELLS; c++) {
        size_t cl = mote_be_load32(p);
        p += 4;
        putchar(' ');
        for (size_t i = 0; i < cl; i++) printf("%02x", p[i]);
        if (!cl) printf("-");
        p += cl;
    }
    putchar('\n');
    return ferror(stdout) ? -1 : 0; /* errno holds the reason */
}

/* The table the rows belong to, for --cql (cqlsh accepts it as is). */
static const char create_table[] =
    "CREATE TABLE IF NOT EXISTS metrics (measurement text, tags frozen<map<text, text>>,\n"
    "    time timestamp, fields map<text, double>, text_fields map<text, text>,\n"
    "    PRIMARY KEY ((measurement, tags), time));\n";

/* The row as "INSERT INTO metrics (...) VALUES (...);": each cell formatted
 * as a cqlsh literal from its encoded bytes, in per-point scratch. */
static int print_cql(agent *ag, const uint8_t *p)
{
    fputs("INSERT INTO metrics (measurement, tags, time, fields, text_fields) VALUES (", stdout);
    for (int c = 0; c < NCELLS; c++) {
        size_t cl = mote_be_load32(p), n = 0;
        p += 4;
        /* a first guess that fits most rows; the exact size if not */
        size_t cap = cl < SIZE_MAX / 4 - 64 ? 3 * cl + 64 : 0;
        char *text = mote_arena_alloc_aligned(&ag->arena, cap, 1);
        mote_err e = text ? mote_cql_literal_format(ag->cell_type[c], p, cl, text, cap, &n, &ag->arena)
                          : MOTE_ERR_NOMEM;
        if (e == MOTE_ERR_SPACE && (text = mote_arena_alloc_aligned(&ag->arena, n, 1)) != NULL)
            e = mote_cql_literal_format(ag->cell_type[c], p, cl, text, n, &n, &ag->arena);
        if (e != MOTE_OK) return -2; /* the cells were just encoded: only memory can fail */
        if (c) fputs(", ", stdout);
        fwrite(text, 1, n, stdout);
        p += cl;
    }
    fputs(");\n", stdout);
    return ferror(stdout) ? -1 : 0;
}

static void report(agent *ag, const char *what, uint64_t line, uint64_t column, mote_err code,
                   const char *msg)
{
    ag->bad++;
    fprintf(stderr, "lp_agent: %s line %llu, column %llu: %s: %s\n", what,
            (unsigned long long)line, (unsigned long long)column, mote_err_name(code), msg);
}

/* ---- network mode: rows into a server over the CQL native protocol ------
 *
 * The protocol is mote's wire module (sans-I/O: it builds request frames
 * and parses response frames); the socket, poll() and the clock are here.
 *
 * Rows are kept per batch slot until the server has answered for them,
 * because a request may have to be sent again: a retryable error
 * (Overloaded, Is_bootstrapping, Unavailable, Read_timeout, and
 * Write_timeout because the INSERTs are idempotent) after a
 * bounded exponential backoff, an Unprepared after a new PREPARE. A slot
 * holds up to --batch rows as their five encoded cells plus each row's
 * input line number; a request is built from it into the send buffer only
 * when it can go out (so a re-send gets a fresh stream id and the current
 * prepared id). A batch the server refuses for another reason is split: its
 * rows go again one EXECUTE at a time, so only the rows the server rejects
 * fail, each reported with its line, and the rest are written.
 */
#define NET_MAX_TRIES 8        /* sends of one request before its rows fail */
#define NET_BACKOFF_MS 10      /* first retry delay; doubled per try ... */
#define NET_BACKOFF_MAX_MS 2000 /* ... up to this */
#define NET_IDLE_MS 60000      /* no answer for this long: give up */
#define NET_MAX_ID 64          /* longest prepared id accepted */
#define TAG_SYNC 0xFFFFFFFFull /* handshake, --create, first PREPARE */
#define TAG_PREPARE 0xFFFFFFFEull

enum { SLOT_FREE, SLOT_FILLING, SLOT_READY, SLOT_SENT, SLOT_WAIT };

typedef struct slot {
    uint8_t *store;            /* rows: five [bytes] cells each */
    size_t used, cap;
    uint32_t *off;             /* row i is store[off[i]..off[i+1]) */
    uint64_t *line;            /* input line of row i */
    uint32_t nrows;
    uint32_t cur;              /* split: next row to send alone */
    uint8_t state, split;
    unsigned tries;
    unsigned gen;              /* prepare generation it was built with */
    int64_t due_ms;            /* SLOT_WAIT: when to send again */
} slot;

typedef struct net {
    int fd;
    mote_wire w;
    mote_buf tx;               /* frames built and not yet written */
    slot *slots;
    unsigned nslots, batch;
    int filling;               /* slot being filled, or -1 */
    uint8_t id[NET_MAX_ID];    /* prepared INSERT id */
    size_t idlen;
    unsigned gen;              /* bumped by each PREPARE answered */
    bool need_prepare, preparing;
    char *insert;              /* the INSERT text */
    int64_t last_rx_ms;
    unsigned long long written, failed, retries;
} net;

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int net_fatal(const char *what, const char *why)
{
    fprintf(stderr, "lp_agent: %s: %s\n", what, why);
    return -1;
}

/* Connect to HOST:PORT (blocking connect, then non-blocking I/O). */
static int net_connect(const char *hostport)
{
    char host[256];
    const char *colon = strrchr(hostport, ':');
    size_t hl = colon ? (size_t)(colon - hostport) : 0;
    if (!colon || hl == 0 || hl >= sizeof host || !colon[1]) {
        fprintf(stderr, "lp_agent: --cassandra wants HOST:PORT\n");
        return -1;
    }
    memcpy(host, hostport, hl);
    host[hl] = 0;
    if (host[0] == '[' && hl > 2 && host[hl - 1] == ']') { /* [::1]:9042 */
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = 0;
    }
    struct addrinfo hints, *res = NULL, *ai;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "lp_agent: %s: %s\n", hostport, gai_strerror(rc));
        return -1;
    }
    int fd = -1, err = 0;
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) { err = errno; continue; }
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
        err = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        fprintf(stderr, "lp_agent: %s: %s\n", hostport, strerror(err ? err : ECONNREFUSED));
        return -1;
    }
    int one = 1;
    /* requests are whole frames written at once: no Nagle delay on the last */
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
        fprintf(stderr, "lp_agent: %s: %s\n", hostport, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* Write what tx holds (as much as the socket takes). */
static int net_flush(net *n)
{
    while (n->tx.len > 0) {
        ssize_t k = send(n->fd, n->tx.data, n->tx.len, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
            return net_fatal("send", strerror(errno));
        }
        mote_buf_consume(&n->tx, (size_t)k);
    }
    return 0;
}

/* Read what the socket has into the wire module's receive buffer. Returns
 * 1 if bytes came, 0 if none were waiting, -1 on a closed or broken
 * connection. Only called when no complete frame is waiting. */
static int net_read(net *n)
{
    size_t avail;
    uint8_t *p = mote_wire_recv_space(&n->w, &avail);
    if (avail == 0) return 0;
    for (;;) {
        ssize_t k = recv(n->fd, p, avail, 0);
        if (k > 0) {
            mote_wire_recv_commit(&n->w, (size_t)k);
            n->last_rx_ms = now_ms();
            return 1;
        }
        if (k == 0) return net_fatal("server", "closed the connection");
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
        return net_fatal("recv", strerror(errno));
    }
}

/* Wait for the socket (readable, or writable while tx holds bytes), at most
 * timeout ms (-1: no limit). */
static int net_wait(net *n, int timeout)
{
    struct pollfd p = {.fd = n->fd, .events = POLLIN | (n->tx.len ? POLLOUT : 0)};
    int k = poll(&p, 1, timeout);
    if (k < 0 && errno != EINTR) return net_fatal("poll", strerror(errno));
    return 0;
}

/* A request outside the row traffic (handshake, --create, the first
 * PREPARE): send it and wait for its answer; other frames (events) are
 * skipped. The frame stays valid until the next receive. */
static int net_sync(net *n, mote_wire_frame *f)
{
    int64_t start = now_ms();
    for (;;) {
        mote_err e = mote_wire_next(&n->w, f);
        if (e == MOTE_OK) {
            if (f->stream >= 0 && f->tag == TAG_SYNC) return 0;
            continue; /* an event */
        }
        if (e != MOTE_ERR_NEED_MORE) return net_fatal("response", mote_err_message(e));
        if (net_flush(n) < 0) return -1;
        int got = net_read(n);
        if (got < 0) return -1;
        if (got == 0) {
            if (now_ms() - start > NET_IDLE_MS) return net_fatal("server", "no answer");
            if (net_wait(n, 1000) < 0) return -1;
        }
    }
}

/* An ERROR frame as one message line; returns the error code (0 if the
 * frame was not a well-formed ERROR). */
static int32_t net_error(const mote_wire_frame *f, const char *what)
{
    mote_wire_error er;
    if (f->opcode != MOTE_WIRE_ERROR || mote_wire_parse_error(f, &er) != MOTE_OK) {
        fprintf(stderr, "lp_agent: %s: unexpected response (opcode 0x%02x)\n", what, f->opcode);
        return 0;
    }
    fprintf(stderr, "lp_agent: %s: server error 0x%04x: %.*s\n", what, (unsigned)er.code,
            (int)(er.message.len > 400 ? 400 : er.message.len), (const char *)er.message.ptr);
    return er.code;
}

static int net_query_sync(net *n, const char *cql, const char *what)
{
    mote_wire_req r;
    mote_wire_params p;
    memset(&p, 0, sizeof p);
    p.consistency = MOTE_WIRE_ONE;
    mote_wire_frame f;
    if (mote_wire_query_begin(&r, &n->w, &n->tx, TAG_SYNC, cql, strlen(cql), &p) != MOTE_OK ||
        mote_wire_end(&r, NULL) != MOTE_OK)
        return net_fatal(what, "cannot build the request");
    if (net_sync(n, &f) < 0) return -1;
    if (f.opcode != MOTE_WIRE_RESULT) {
        net_error(&f, what);
        return -1;
    }
    return 0;
}

/* RESULT Prepared for the INSERT: keep its id; the table must take the five
 * values. */
static int net_prepared(net *n, const mote_wire_frame *f)
{
    mote_wire_result res;
    if (f->opcode != MOTE_WIRE_RESULT) {
        net_error(f, "PREPARE");
        return -1;
    }
    mote_err e = mote_wire_parse_result(f, &res);
    if (e != MOTE_OK || res.kind != MOTE_WIRE_RESULT_PREPARED)
        return net_fatal("PREPARE", e != MOTE_OK ? mote_err_message(e) : "not a Prepared result");
    if (res.bind.ncols != NCELLS) return net_fatal("PREPARE", "the INSERT does not take 5 values");
    if (res.id.len == 0 || res.id.len > NET_MAX_ID) return net_fatal("PREPARE", "prepared id too long");
    memcpy(n->id, res.id.ptr, res.id.len);
    n->idlen = res.id.len;
    n->gen++;
    return 0;
}

static bool ident_ok(const char *s)
{
    if (!*s || strlen(s) > 48) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

typedef struct net_opts {
    const char *hostport, *keyspace, *table, *user, *password_file;
    unsigned batch, inflight;
    bool create;
} net_opts;

/* Read the password: the first line of the file, without its newline. */
static int read_password(const char *path, char *buf, size_t cap, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return io_error(path, errno);
    setvbuf(f, NULL, _IONBF, 0);
    size_t k = fread(buf, 1, cap, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) return io_error(path, EIO);
    size_t i = 0;
    while (i < k && buf[i] != '\n' && buf[i] != '\r') i++;
    if (i == cap) {
        fprintf(stderr, "lp_agent: %s: password longer than %zu bytes\n", path, cap - 1);
        return 2;
    }
    *len = i;
    return 0;
}

/* Connect, log in, --create, prepare the INSERT. All memory from the arena. */
static int net_open(agent *ag, net *n, const net_opts *o)
{
    mote_arena *a = &ag->arena;
    memset(n, 0, sizeof *n);
    n->fd = -1;
    n->filling = -1;
    n->batch = o->batch;
    n->nslots = o->inflight;
    if (!ident_ok(o->keyspace) || !ident_ok(o->table)) {
        fprintf(stderr, "lp_agent: --keyspace and --table: letters, digits and _ only\n");
        return 2;
    }
    /* Memory: 3/8 of the arena for the slots (one more than --inflight, so
     * one can fill while the others are out), the send buffer one slot plus
     * the per-row statement overhead of a batch, 8 KiB to receive (answers
     * to INSERTs are small; a larger frame is skipped and counted). */
    size_t slot_cap = ag->arena.capacity / 8 * 3 / (n->nslots + 1);
    /* a batch is one frame: keep it far below the protocol's 256 MiB body
     * (and row offsets in 32 bits) whatever --arena is */
    if (slot_cap > (64u << 20)) slot_cap = 64u << 20;
    size_t tx_cap = slot_cap + (size_t)n->batch * (1 + 2 + NET_MAX_ID + 2) + 512;
    size_t rx_cap = 8192;
    n->nslots += 1;
    n->slots = mote_arena_alloc_array(a, n->nslots, sizeof(slot), _Alignof(slot));
    mote_wire_slot *ws = mote_arena_alloc_array(a, n->nslots + 2, sizeof(mote_wire_slot),
                                                _Alignof(mote_wire_slot));
    uint8_t *rx = mote_arena_alloc_aligned(a, rx_cap, 16);
    uint8_t *tx = mote_arena_alloc_aligned(a, tx_cap, 16);
    n->insert = mote_arena_alloc_aligned(a, 256, 1);
    char *pw = mote_arena_alloc_aligned(a, 256, 1);
    if (!n->slots || !ws || !rx || !tx || !n->insert || !pw) {
        fprintf(stderr, "lp_agent: --arena too small for --inflight and --batch\n");
        return 2;
    }
    for (unsigned i = 0; i < n->nslots; i++) {
        slot *s = &n->slots[i];
        memset(s, 0, sizeof *s);
        s->cap = slot_cap;
        s->store = mote_arena_alloc_aligned(a, slot_cap, 8);
        s->off = mote_arena_alloc_array(a, n->batch + 1, sizeof(uint32_t), _Alignof(uint32_t));
        s->line = mote_arena_alloc_array(a, n->batch, sizeof(uint64_t), _Alignof(uint64_t));
        if (!s->store || !s->off || !s->line) {
            fprintf(stderr, "lp_agent: --arena too small for --inflight and --batch\n");
            return 2;
        }
    }
    if (mote_buf_init_fixed(&n->tx, tx, tx_cap) != MOTE_OK) return 2;
    if (mote_wire_init(&n->w, ws, n->nslots + 2, rx, rx_cap) != MOTE_OK) return 2;

    size_t pwlen = 0;
    if (o->password_file) {
        int rc = read_password(o->password_file, pw, 256, &pwlen);
        if (rc) return rc;
    }
    if ((n->fd = net_connect(o->hostport)) < 0) return 2;
    n->last_rx_ms = now_ms();

    mote_wire_frame f;
    if (mote_wire_startup(&n->w, &n->tx, TAG_SYNC, NULL) != MOTE_OK || net_sync(n, &f) < 0) return 2;
    if (f.opcode == MOTE_WIRE_AUTHENTICATE) {
        if (!o->user) {
            fprintf(stderr, "lp_agent: the server asks for a login: --user and --password-file\n");
            return 2;
        }
        /* SASL PLAIN, what PasswordAuthenticator takes */
        if (mote_wire_auth_plain(&n->w, &n->tx, TAG_SYNC, o->user, strlen(o->user), pw, pwlen,
                                 NULL) != MOTE_OK ||
            net_sync(n, &f) < 0)
            return 2;
        if (f.opcode != MOTE_WIRE_AUTH_SUCCESS) {
            net_error(&f, "login");
            return 2;
        }
    } else if (f.opcode != MOTE_WIRE_READY) {
        net_error(&f, "STARTUP");
        return 2;
    }
    memset(pw, 0, 256);

    if (o->create) {
        char q[512];
        snprintf(q, sizeof q,
                 "CREATE KEYSPACE IF NOT EXISTS %s WITH replication = "
                 "{'class': 'SimpleStrategy', 'replication_factor': 1}", o->keyspace);
        if (net_query_sync(n, q, "CREATE KEYSPACE") < 0) return 2;
        snprintf(q, sizeof q,
                 "CREATE TABLE IF NOT EXISTS %s.%s (measurement text, tags frozen<map<text,text>>, "
                 "time timestamp, fields map<text,double>, text_fields map<text,text>, "
                 "PRIMARY KEY ((measurement, tags), time))", o->keyspace, o->table);
        if (net_query_sync(n, q, "CREATE TABLE") < 0) return 2;
    }
    snprintf(n->insert, 256,
             "INSERT INTO %s.%s (measurement, tags, time, fields, text_fields) VALUES (?, ?, ?, ?, ?)",
             o->keyspace, o->table);
    if (mote_wire_prepare(&n->w, &n->tx, TAG_SYNC, n->insert, strlen(n->insert), NULL) != MOTE_OK ||
        net_sync(n, &f) < 0 || net_prepared(n, &f) < 0)
        return 2;
    return 0;
}

/* Build the request for slot i into tx: the whole batch, or (one row, or a
 * split batch) one EXECUTE. MOTE_ERR_LIMIT: tx or the stream ids are full
 * for now. */
static mote_err net_build(net *n, unsigned i)
{
    slot *s = &n->slots[i];
    mote_wire_params p;
    memset(&p, 0, sizeof p);
    p.consistency = MOTE_WIRE_ONE;
    mote_wire_req r;
    mote_err e;
    uint32_t first = s->split ? s->cur : 0, last = s->split ? s->cur + 1 : s->nrows;
    bool one = last - first == 1;
    if (one)
        e = mote_wire_execute_begin(&r, &n->w, &n->tx, i, n->id, n->idlen, &p);
    else
        e = mote_wire_batch_begin(&r, &n->w, &n->tx, i, MOTE_WIRE_BATCH_UNLOGGED, &p);
    if (e != MOTE_OK) return e;
    for (uint32_t k = first; k < last; k++) {
        if (!one) mote_wire_batch_prepared(&r, n->id, n->idlen);
        const uint8_t *c = s->store + s->off[k];
        for (int j = 0; j < NCELLS; j++) {
            size_t len = mote_be_load32(c);
            mote_wire_value(&r, c + 4, len);
            c += 4 + len;
        }
    }
    e = mote_wire_end(&r, NULL);
    if (e == MOTE_OK) {
        s->state = SLOT_SENT;
        s->gen = n->gen;
    }
    return e;
}

static void net_free_slot(slot *s)
{
    s->state = SLOT_FREE;
    s->used = 0;
    s->nrows = 0;
    s->cur = 0;
    s->split = 0;
    s->tries = 0;
}

/* Rows first..last of s failed for good: each reported with its line. */
static void net_fail_rows(agent *ag, net *n, slot *s, uint32_t first, uint32_t last, const char *why,
                          mote_view msg)
{
    for (uint32_t k = first; k < last; k++) {
        fprintf(stderr, "lp_agent: rejected line %llu: %s%.*s\n", (unsigned long long)s->line[k], why,
                (int)(msg.len > 300 ? 300 : msg.len), msg.ptr ? (const char *)msg.ptr : "");
        n->failed++;
    }
    (void)ag;
}

/* The server's answer for slot i. */
static void net_answer(agent *ag, net *n, unsigned i, const mote_wire_frame *f, mote_err fe)
{
    slot *s = &n->slots[i];
    uint32_t first = s->split ? s->cur : 0, last = s->split ? s->cur + 1 : s->nrows;
    if (fe == MOTE_OK && f->opcode == MOTE_WIRE_RESULT) {
        n->written += last - first;
        s->tries = 0;
        if (s->split && ++s->cur < s->nrows) s->state = SLOT_READY;
        else net_free_slot(s);
        return;
    }
    mote_wire_error er;
    memset(&er, 0, sizeof er);
    if (fe != MOTE_OK) {
        er.code = -1;
        er.message.ptr = (const uint8_t *)mote_err_message(fe);
        er.message.len = strlen((const char *)er.message.ptr);
    } else if (f->opcode != MOTE_WIRE_ERROR || mote_wire_parse_error(f, &er) != MOTE_OK) {
        er.code = -1;
        er.message.ptr = (const uint8_t *)"malformed response";
        er.message.len = 18;
    }
    if (er.code == MOTE_WIRE_E_UNPREPARED) {
        /* the server forgot the INSERT (restart, TRUNCATE
         * system.prepared_statements, schema change): prepare it again
         * unless a newer PREPARE is already done or under way */
        if (++s->tries < NET_MAX_TRIES) {
            n->retries++;
            if (s->gen == n->gen && !n->preparing) n->need_prepare = true;
            s->state = SLOT_READY;
            return;
        }
    } else if (er.code > 0 && (mote_wire_error_retryable(er.code) ||
                               er.code == MOTE_WIRE_E_WRITE_TIMEOUT)) {
        /* (a WRITE_TIMEOUT too: the write may have been applied, and these
         * INSERTs of given values, alone or in an UNLOGGED BATCH, are
         * idempotent: applying one twice leaves the same row; wire.h) */
        if (++s->tries < NET_MAX_TRIES) {
            n->retries++;
            int64_t d = NET_BACKOFF_MS;
            for (unsigned k = 1; k < s->tries && d < NET_BACKOFF_MAX_MS; k++) d *= 2;
            s->state = SLOT_WAIT;
            s->due_ms = now_ms() + (d > NET_BACKOFF_MAX_MS ? NET_BACKOFF_MAX_MS : d);
            return;
        }
    } else if (!s->split && s->nrows > 1) {
        /* refused as a whole: find the rows at fault one by one */
        s->split = 1;
        s->cur = 0;
        s->tries = 0;
        s->state = SLOT_READY;
        return;
    }
    net_fail_rows(ag, n, s, first, last, s->tries >= NET_MAX_TRIES ? "gave up after retries: " : "",
                  er.message);
    s->tries = 0;
    if (s->split && ++s->cur < s->nrows) s->state = SLOT_READY;
    else net_free_slot(s);
}

/* One round of I/O: due retries become ready, ready slots are built into
 * tx (after a pending PREPARE), tx is written, answers are read and
 * dispatched. block: wait (poll) for progress when nothing could be done
 * at once. Returns -1 on a fatal connection error. */
static int net_pump(agent *ag, net *n, bool block)
{
    int64_t now = now_ms(), next_due = -1;
    for (unsigned i = 0; i < n->nslots; i++) {
        slot *s = &n->slots[i];
        if (s->state == SLOT_WAIT) {
            if (s->due_ms <= now) s->state = SLOT_READY;
            else if (next_due < 0 || s->due_ms < next_due) next_due = s->due_ms;
        }
    }
    if (n->need_prepare && !n->preparing &&
        mote_wire_prepare(&n->w, &n->tx, TAG_PREPARE, n->insert, strlen(n->insert), NULL) == MOTE_OK) {
        n->need_prepare = false;
        n->preparing = true;
    }
    if (!n->preparing && !n->need_prepare)
        for (unsigned i = 0; i < n->nslots; i++) {
            if (n->slots[i].state != SLOT_READY) continue;
            mote_err be = net_build(n, i);
            if (be == MOTE_OK) continue;
            /* tx is sized for a full slot and there is a stream id per slot:
             * with nothing waiting to go out, a failure would repeat forever */
            if (n->tx.len == 0) return net_fatal("request", mote_err_message(be));
            break; /* room again once tx is written */
        }
    if (net_flush(n) < 0) return -1;

    bool progress = false;
    for (;;) {
        mote_wire_frame f;
        mote_err e = mote_wire_next(&n->w, &f);
        if (e == MOTE_ERR_NEED_MORE) {
            int got = net_read(n);
            if (got < 0) return -1;
            if (got == 0) break;
            continue;
        }
        /* not v4 response frames, or a compressed one (never asked for):
         * nothing more on this connection can be trusted */
        if (e == MOTE_ERR_PROTOCOL) return net_fatal("server", "not a CQL v4 response stream");
        progress = true;
        if (f.stream < 0 || e == MOTE_ERR_UNKNOWN_STREAM) continue; /* events, strays */
        if (f.tag == TAG_PREPARE) {
            n->preparing = false;
            if (e != MOTE_OK || net_prepared(n, &f) < 0) return -1;
            continue;
        }
        if (f.tag < n->nslots) net_answer(ag, n, (unsigned)f.tag, &f, e);
    }
    if (progress || !block) return 0;
    /* nothing came: wait for the socket or the next retry */
    int inflight = (int)mote_wire_inflight(&n->w);
    if (inflight == 0 && next_due < 0 && n->tx.len == 0) return 0;
    if (inflight > 0 && now_ms() - n->last_rx_ms > NET_IDLE_MS)
        return net_fatal("server", "no answer for 60 s");
    int timeout = next_due >= 0 ? (int)(next_due - now_ms()) : 1000;
    if (timeout < 0) timeout = 0;
    if (timeout > 1000) timeout = 1000;
    return net_wait(n, timeout);
}

/* Slot index to put the next row into (one that is FILLING or FREE), doing
 * I/O until one is there. */
static int net_slot(agent *ag, net *n)
{
    for (;;) {
        if (n->filling >= 0) return n->filling;
        for (unsigned i = 0; i < n->nslots; i++)
            if (n->slots[i].state == SLOT_FREE) {
                n->slots[i].state = SLOT_FILLING;
                n->filling = (int)i;
                return (int)i;
            }
        if (net_pump(ag, n, true) < 0) return -1;
    }
}

static int net_close_filling(agent *ag, net *n)
{
    if (n->filling < 0) return 0;
    slot *s = &n->slots[n->filling];
    n->filling = -1;
    if (s->nrows == 0) {
        s->state = SLOT_FREE;
        return 0;
    }
    s->off[s->nrows] = (uint32_t)s->used;
    s->state = SLOT_READY;
    return net_pump(ag, n, false);
}

/* Put one encoded row into the filling slot; a full slot goes out. */
static int net_add_row(agent *ag, net *n, const row *r, uint64_t line, size_t *bytes)
{
    size_t sz[NCELLS], total;
    mote_err e = row_size(r, sz, &total);
    int i = n->filling >= 0 ? n->filling : net_slot(ag, n);
    if (i < 0) return -1;
    slot *s = &n->slots[i];
    if (e != MOTE_OK) { /* (total unset: a cell over CQL's 2 GiB, or a size overflow) */
        fprintf(stderr, "lp_agent: rejected line %llu: row cannot be encoded: %s\n",
                (unsigned long long)line, mote_err_message(e));
        n->failed++;
        return 0;
    }
    if (total > s->cap) {
        fprintf(stderr, "lp_agent: rejected line %llu: row of %zu bytes does not fit a batch slot "
                "of %zu bytes (raise --arena or lower --inflight)\n", (unsigned long long)line,
                total, s->cap);
        n->failed++;
        return 0;
    }
    if (s->used + total > s->cap) {
        if (net_close_filling(ag, n) < 0 || (i = net_slot(ag, n)) < 0) return -1;
        s = &n->slots[i];
    }
    if (row_write(r, sz, s->store + s->used) != MOTE_OK) return net_fatal("encode", "row changed size");
    s->off[s->nrows] = (uint32_t)s->used;
    s->line[s->nrows++] = line;
    s->used += total;
    *bytes = total;
    if (s->nrows == n->batch) return net_close_filling(ag, n);
    return 0;
}

/* End of input: send the last rows and wait for every answer. */
static int net_finish(agent *ag, net *n)
{
    if (net_close_filling(ag, n) < 0) return -1;
    for (;;) {
        bool busy = n->need_prepare || n->preparing;
        for (unsigned i = 0; i < n->nslots && !busy; i++) busy = n->slots[i].state != SLOT_FREE;
        if (!busy) return 0;
        if (net_pump(ag, n, true) < 0) return -1;
    }
}

/* One point from the stream: decode, gather, encode, write. Scratch memory
 * is given back whatever happens. */
static int handle_point(agent *ag, mote_lp_point *pt)
{
    mote_lp_error err;
    mote_err e = mote_lp_point_decode(pt, &ag->opt, &err);
    if (e != MOTE_OK) {
        report(ag, "bad", err.pos.line, err.pos.column, e, err.message);
        return 0;
    }
    mote_arena_mark mark = mote_arena_save(&ag->arena);
    row r;
    uint8_t *bytes = NULL;
    size_t len = 0;
    uint64_t col;
    e = collect(ag, pt, &r);
    if (e == MOTE_OK && duplicate_tag(pt, &r, r.tag_raw, &col)) {
        report(ag, "bad", pt->line, col, MOTE_ERR_DUPLICATE, "tag key given twice");
    } else if (e == MOTE_OK && ag->net) {
        if (net_add_row(ag, ag->net, &r, pt->line, &len) < 0) e = MOTE_ERR_IO;
        else {
            ag->points++;
            ag->bytes_out += len;
        }
    } else if (e == MOTE_OK && (e = encode_row(ag, &r, &bytes, &len)) != MOTE_OK) {
        report(ag, "cannot encode", pt->line, pt->column, e, mote_err_message(e));
    } else if (e != MOTE_OK) {
        report(ag, "cannot encode", pt->line, pt->column, e, mote_err_message(e));
    } else {
        ag->points++;
        ag->bytes_out += len;
        /* every write checked: a full disk or a closed pipe stops the agent
         * with exit 2 instead of dropping rows */
        int pc = 0;
        if ((ag->hex && print_hex(bytes, ag->points) != 0) ||
            (ag->cql && (pc = print_cql(ag, bytes)) == -1)) {
            io_error("stdout", errno);
            e = MOTE_ERR_IO;
        } else if (pc == -2) {
            report(ag, "cannot show (arena too small)", pt->line, pt->column, MOTE_ERR_NOMEM,
                   mote_err_message(MOTE_ERR_NOMEM));
        } else if (ag->out && fwrite(bytes, 1, len, ag->out) != len) {
            io_error(ag->out_name, errno);
            e = MOTE_ERR_IO;
        }
    }
    mote_arena_restore(&ag->arena, mark);
    return e == MOTE_ERR_IO ? -1 : 0;
}

int main(int argc, char **argv)
{
    size_t arena_size = 256 * 1024, chunk_size = 16 * 1024;
    const char *in_path = "-", *out_path = NULL;
    int have_in = 0;
    agent ag;
    memset(&ag, 0, sizeof ag);
    if (mote_lp_config_init(&ag.opt) != MOTE_OK) return 2; /* not NULL: cannot fail */
    net_opts no = {.keyspace = "mote", .table = "metrics", .batch = 32, .inflight = 4};
    net nt;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(NULL);
        if (!strcmp(a, "--hex")) { ag.hex = 1; continue; }
        if (!strcmp(a, "--cql")) { ag.cql = 1; continue; }
        if (!strcmp(a, "--create")) { no.create = true; continue; }
        if (!strcmp(a, "--cassandra") || !strcmp(a, "--keyspace") || !strcmp(a, "--table") ||
            !strcmp(a, "--user") || !strcmp(a, "--password-file")) {
            if (!val) return usage("option needs a value");
            i++;
            const char **dst = a[2] == 'c' ? &no.hostport : a[2] == 'k' ? &no.keyspace :
                               a[2] == 't' ? &no.table : a[2] == 'u' ? &no.user : &no.password_file;
            *dst = val;
            continue;
        }
        if (!strcmp(a, "--batch") || !strcmp(a, "--inflight")) {
            uint64_t v;
            if (!val || mote_num_parse_u64((const uint8_t *)val, strlen(val), &v) != MOTE_OK || v == 0 ||
                v > (a[2] == 'b' ? 10000u : 1000u))
                return usage("--batch is 1..10000, --inflight 1..1000");
            i++;
            *(a[2] == 'b' ? &no.batch : &no.inflight) = (unsigned)v;
            continue;
        }
        if (!strcmp(a, "--arena") || !strcmp(a, "--chunk") || !strcmp(a, "--precision") ||
            !strcmp(a, "--out")) {
            if (!val) return usage("option needs a value");
            i++;
            if (!strcmp(a, "--out")) out_path = val;
            else if (!strcmp(a, "--precision")) {
                static const char *const names[] = {"ns", "us", "ms", "s"};
                int k = 0;
                while (k < 4 && strcmp(val, names[k])) k++;
                if (k == 4) return usage("--precision is ns, us, ms or s");
                ag.opt.precision = (mote_lp_precision)k;
            } else if (parse_size(val, a[2] == 'a' ? &arena_size : &chunk_size)) {
                return usage("--arena and --chunk need a positive number of bytes");
            }
            continue;
        }
        if (a[0] == '-' && a[1]) return usage("unknown option");
        if (have_in) return usage("more than one input file");
        in_path = a;
        have_in = 1;
    }
    if (arena_size < 4096 || chunk_size > arena_size / 4)
        return usage("--arena must be at least 4096 bytes and four times --chunk");
    if (no.hostport && (out_path || ag.hex || ag.cql))
        return usage("--cassandra writes to the server: no --out, --hex or --cql");
    if (!no.hostport && (no.create || no.user || no.password_file))
        return usage("--create, --user and --password-file go with --cassandra");

    /* A closed stdout would be taken by the next open (the input, or the
     * --out file, which --hex would then write into): refuse it up front. */
    if ((ag.hex || ag.cql || (out_path && !strcmp(out_path, "-"))) && fcntl(1, F_GETFD) < 0)
        return io_error("stdout", errno);
    FILE *in = strcmp(in_path, "-") ? fopen(in_path, "rb") : stdin;
    if (!in) return io_error(in_path, errno);
    if (out_path) { /* not with --cassandra */
        ag.out = strcmp(out_path, "-") ? fopen(out_path, "wb") : stdout;
        ag.out_name = strcmp(out_path, "-") ? out_path : "stdout";
        if (!ag.out) return io_error(out_path, errno);
    }

    /* The one allocation: everything below is carved from this block. */
    void *block = malloc(arena_size);
    if (!block || mote_arena_init(&ag.arena, block, arena_size, NULL, NULL) != MOTE_OK) {
        fprintf(stderr, "lp_agent: cannot get %zu bytes\n", arena_size);
        return 2;
    }
    /* Network mode: the slots, send and receive buffers come first (3/8 of
     * the arena and a little), so the carry is an eighth instead of a
     * quarter: lines up to that long. */
    if (no.hostport) {
        int rc = net_open(&ag, &nt, &no);
        if (rc) {
            if (nt.fd >= 0) close(nt.fd);
            if (in != stdin) fclose(in);
            free(block);
            return rc;
        }
        ag.net = &nt;
    }
    size_t carry_size = arena_size / (ag.net ? 8 : 4), stdio_size = chunk_size;
    uint8_t *chunk = mote_arena_alloc_aligned(&ag.arena, chunk_size, 16);
    uint8_t *carry = mote_arena_alloc_aligned(&ag.arena, carry_size, 16);
    char *iobuf = ag.out ? mote_arena_alloc_aligned(&ag.arena, stdio_size, 16) : NULL;
    mote_lp_stream st;
    if (!chunk || !carry || (ag.out && !iobuf) ||
        mote_lp_stream_init(&st, &ag.opt, carry, carry_size) != MOTE_OK) {
        fprintf(stderr, "lp_agent: arena too small\n");
        return 2;
    }
    /* stdio would malloc its own buffers on first use; give it ours (the
     * input needs none: fread fills our chunk directly). */
    setvbuf(in, NULL, _IONBF, 0);
    if (ag.out) setvbuf(ag.out, iobuf, _IOFBF, stdio_size);
    if (ag.cql) {
        /* the five column types, parsed once into static nodes */
        static const char *const types[NCELLS] = {"text", "map<text, text>", "timestamp",
                                                  "map<text, double>", "map<text, text>"};
        static mote_cql_type nodes[NCELLS][4];
        for (int c = 0; c < NCELLS; c++)
            if (mote_cql_type_parse(types[c], strlen(types[c]), nodes[c], 4, NULL, &ag.cell_type[c]) != MOTE_OK)
                return usage("internal: cell type");
        fputs(create_table, stdout);
    }
    if ((ag.hex || ag.cql) && ag.out != stdout) {
        char *hexbuf = mote_arena_alloc_aligned(&ag.arena, 4096, 16);
        if (hexbuf) setvbuf(stdout, hexbuf, _IOLBF, 4096); /* rows in order with stderr */
    }

    mote_lp_tag tags[ARRAY_CAP];
    mote_lp_field fields[ARRAY_CAP];
    mote_lp_point pt;
    mote_lp_error err;
    int io_failed = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int eof = 0; !eof && !io_failed;) {
        errno = 0;
        size_t n = fread(chunk, 1, chunk_size, in);
        if (n == 0) {
            if (ferror(in)) { /* a directory, a closed descriptor: errno says */
                io_failed = io_error(strcmp(in_path, "-") ? in_path : "stdin", errno);
                break;
            }
            eof = 1;
            if (mote_lp_stream_finish(&st) != MOTE_OK) return 2; /* drained: cannot fail */
        } else {
            ag.bytes_in += n;
            if (mote_lp_stream_feed(&st, chunk, n) != MOTE_OK) return 2; /* likewise */
        }
        for (;;) {
            if (mote_lp_point_init(&pt, tags, ARRAY_CAP, fields, ARRAY_CAP) != MOTE_OK) return 2; /* cannot fail */
            mote_err e = mote_lp_stream_next(&st, &pt, &err);
            if (e == MOTE_ERR_NEED_MORE) break;
            if (e != MOTE_OK) report(&ag, "bad", err.pos.line, err.pos.column, e, err.message);
            else if (handle_point(&ag, &pt) < 0) { /* reported there */
                io_failed = 1;
                break;
            }
        }
    }
    /* the rows still in slots go out, every answer is waited for */
    if (ag.net && !io_failed && net_finish(&ag, ag.net) < 0) io_failed = 2;
    /* the last buffer goes out here: a full disk shows up now or never */
    if (ag.out && ag.out != stdout) {
        errno = 0;
        if ((fflush(ag.out) != 0 || ferror(ag.out)) && !io_failed) io_failed = io_error(out_path, errno);
        if (fclose(ag.out) != 0 && !io_failed) io_failed = io_error(out_path, errno);
    }
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && !io_failed) io_failed = io_error("stdout", errno);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

    mote_arena_stats as;
    mote_arena_get_stats(&ag.arena, &as);
    fprintf(stderr,
            "lp_agent: %llu points, %llu bad lines; %llu bytes in, %llu bytes out; "
            "%.3f s, %.1f MB/s; arena %zu bytes, high water %zu\n",
            ag.points, ag.bad, ag.bytes_in, ag.bytes_out, secs,
            secs > 0 ? (double)ag.bytes_in / secs / 1e6 : 0.0, as.capacity, as.high_water);
    if (ag.net) {
        fprintf(stderr, "lp_agent: %llu rows written, %llu rows failed, %llu retries\n",
                nt.written, nt.failed, nt.retries);
        close(nt.fd);
    }
    if (in != stdin) fclose(in);
    /* stdout's buffer may live in the block: close it (checked) before the
     * block goes */
    errno = 0;
    if (fclose(stdout) != 0 && !io_failed) io_failed = io_error("stdout", errno);
    free(block);
    return io_failed ? 2 : ag.bad || (ag.net && nt.failed) ? 1 : 0;
}
