/*
 * mote/wire.h - the CQL native protocol v4, sans-I/O: request frames are
 * written into a buffer the caller sends, response frames are parsed from
 * bytes the caller received. Nothing here touches a socket, a clock or the
 * heap, so the module builds for bare metal as it does for a server.
 *
 * Frame (all integers big-endian):
 *   version [byte]  0x04 request, 0x84 response
 *   flags   [byte]  0x01 compressed, 0x02 tracing, 0x04 custom payload,
 *                   0x08 warnings
 *   stream  [short] signed; >= 0 chosen by the client, -1 for EVENTs
 *   opcode  [byte]
 *   length  [int]   body length; the frame (header and body) is at most
 *                   256 MiB, so the body at most 256 MiB - 9 bytes
 * A response body starts with the tracing id [uuid] (flag 0x02), the
 * warnings [string list] (0x08) and the custom payload [bytes map] (0x04),
 * in that order, then the opcode's own body. Compression is never asked for
 * (STARTUP carries no COMPRESSION), so a compressed response is an error.
 *
 * One context (mote_wire) per connection holds:
 *   - the stream table: an array of slots in caller memory, one per request
 *     that may be in flight. Each request encoder takes a free stream id
 *     from it and stores the caller's 64-bit tag there; the response with
 *     that stream id gives the tag back and frees the id, whatever order the
 *     responses come in.
 *   - the receive buffer: caller memory the received bytes go into, either
 *     written there directly (mote_wire_recv_space + mote_wire_recv_commit,
 *     no copy) or copied in (mote_wire_feed). mote_wire_next hands out one
 *     complete frame at a time as views into that buffer.
 * A response larger than the receive buffer is reported (MOTE_ERR_LIMIT,
 * with its stream id, tag and length) and its body discarded as it arrives,
 * so the frames after it are read normally.
 *
 * Response bodies are parsed by mote_wire_parse_* into small structs of
 * views and counts. Each parser checks the whole body (every length and
 * count against the bytes that are there, before it is used), so the
 * iterators over a parsed body (strings, column specs, cells) cannot fail.
 * Cells are [bytes] views: decode them with the cql module (mote/cql.h);
 * column types convert to mote_cql_type trees with mote_wire_type.
 *
 * Views stay valid until the next call of mote_wire_next, mote_wire_feed or
 * mote_wire_recv_space on the same context (the buffer is compacted then).
 *
 * Errors (mote_err): beyond the generic ones, parsers return
 * MOTE_ERR_TRUNCATED (body ends inside an item), MOTE_ERR_BAD_LENGTH
 * (negative or impossible length or count), MOTE_ERR_BAD_TYPE (unknown
 * result kind or type option id), MOTE_ERR_DEPTH (type options nested
 * deeper than MOTE_WIRE_MAX_OPTION_DEPTH), MOTE_ERR_TYPE (frame of another
 * opcode than the parser reads). Bytes after a complete body are ignored, as
 * the spec asks of clients (room for extensions). The frame layer has its
 * own codes: MOTE_ERR_PROTOCOL (the byte stream is not v4 response frames;
 * sticky, the connection must be closed) and MOTE_ERR_UNKNOWN_STREAM.
 */
#ifndef MOTE_WIRE_H
#define MOTE_WIRE_H

#include "mote/common.h"
#include "mote/buf.h"
#include "mote/cql.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MOTE_WIRE_VERSION 4
#define MOTE_WIRE_HEADER 9                 /* bytes in a frame header */
#define MOTE_WIRE_MAX_FRAME (256u << 20)   /* largest frame the spec allows */
#define MOTE_WIRE_MAX_BODY (MOTE_WIRE_MAX_FRAME - MOTE_WIRE_HEADER) /* its body */
#define MOTE_WIRE_MAX_STREAMS 32768        /* stream ids 0..32767 */
#define MOTE_WIRE_EVENT_STREAM (-1)
/* Type options nested deeper than this are MOTE_ERR_DEPTH when a result's
 * metadata is checked (mote_wire_type itself stops at MOTE_CQL_MAX_DEPTH). */
#define MOTE_WIRE_MAX_OPTION_DEPTH 16

/* Opcodes (frame header byte 4; mote_wire_frame stores them as uint8_t). */
typedef enum mote_wire_opcode {
    MOTE_WIRE_ERROR = 0x00,
    MOTE_WIRE_STARTUP = 0x01,
    MOTE_WIRE_READY = 0x02,
    MOTE_WIRE_AUTHENTICATE = 0x03,
    MOTE_WIRE_OPTIONS = 0x05,
    MOTE_WIRE_SUPPORTED = 0x06,
    MOTE_WIRE_QUERY = 0x07,
    MOTE_WIRE_RESULT = 0x08,
    MOTE_WIRE_PREPARE = 0x09,
    MOTE_WIRE_EXECUTE = 0x0A,
    MOTE_WIRE_REGISTER = 0x0B,
    MOTE_WIRE_EVENT = 0x0C,
    MOTE_WIRE_BATCH = 0x0D,
    MOTE_WIRE_AUTH_CHALLENGE = 0x0E,
    MOTE_WIRE_AUTH_RESPONSE = 0x0F,
    MOTE_WIRE_AUTH_SUCCESS = 0x10
} mote_wire_opcode;

/* Frame flags. */
enum {
    MOTE_WIRE_F_COMPRESSION = 0x01,
    MOTE_WIRE_F_TRACING = 0x02,
    MOTE_WIRE_F_PAYLOAD = 0x04,
    MOTE_WIRE_F_WARNING = 0x08
};

/* Consistency levels ([consistency], a [short]; mote_wire_params stores them
 * as uint16_t). */
typedef enum mote_wire_consistency {
    MOTE_WIRE_ANY = 0x0000,
    MOTE_WIRE_ONE = 0x0001,
    MOTE_WIRE_TWO = 0x0002,
    MOTE_WIRE_THREE = 0x0003,
    MOTE_WIRE_QUORUM = 0x0004,
    MOTE_WIRE_ALL = 0x0005,
    MOTE_WIRE_LOCAL_QUORUM = 0x0006,
    MOTE_WIRE_EACH_QUORUM = 0x0007,
    MOTE_WIRE_SERIAL = 0x0008,
    MOTE_WIRE_LOCAL_SERIAL = 0x0009,
    MOTE_WIRE_LOCAL_ONE = 0x000A
} mote_wire_consistency;

/* Batch types (mote_wire_batch_begin). */
typedef enum mote_wire_batch_type {
    MOTE_WIRE_BATCH_LOGGED = 0,
    MOTE_WIRE_BATCH_UNLOGGED = 1,
    MOTE_WIRE_BATCH_COUNTER = 2
} mote_wire_batch_type;

/* RESULT kinds (mote_wire_result.kind; the parser refuses others). */
typedef enum mote_wire_result_kind {
    MOTE_WIRE_RESULT_VOID = 0x0001,
    MOTE_WIRE_RESULT_ROWS = 0x0002,
    MOTE_WIRE_RESULT_SET_KEYSPACE = 0x0003,
    MOTE_WIRE_RESULT_PREPARED = 0x0004,
    MOTE_WIRE_RESULT_SCHEMA_CHANGE = 0x0005
} mote_wire_result_kind;

/* Rows / prepared metadata flags. */
enum {
    MOTE_WIRE_META_GLOBAL_SPEC = 0x0001,
    MOTE_WIRE_META_MORE_PAGES = 0x0002,
    MOTE_WIRE_META_NO_METADATA = 0x0004
};

/* ERROR codes (section 9 of the v4 spec). These are the codes v4 defines,
 * not a closed set: a server sends others (later protocol versions add
 * some), and mote_wire_parse_error hands any code on. So a code is held and
 * passed as the protocol's int32_t (mote_wire_error.code,
 * mote_wire_error_retryable), not as this enum (see docs/api.md, Types). */
typedef enum mote_wire_error_code {
    MOTE_WIRE_E_SERVER = 0x0000,
    MOTE_WIRE_E_PROTOCOL = 0x000A,
    MOTE_WIRE_E_BAD_CREDENTIALS = 0x0100,
    MOTE_WIRE_E_UNAVAILABLE = 0x1000,
    MOTE_WIRE_E_OVERLOADED = 0x1001,
    MOTE_WIRE_E_IS_BOOTSTRAPPING = 0x1002,
    MOTE_WIRE_E_TRUNCATE = 0x1003,
    MOTE_WIRE_E_WRITE_TIMEOUT = 0x1100,
    MOTE_WIRE_E_READ_TIMEOUT = 0x1200,
    MOTE_WIRE_E_READ_FAILURE = 0x1300,
    MOTE_WIRE_E_FUNCTION_FAILURE = 0x1400,
    MOTE_WIRE_E_WRITE_FAILURE = 0x1500,
    MOTE_WIRE_E_SYNTAX = 0x2000,
    MOTE_WIRE_E_UNAUTHORIZED = 0x2100,
    MOTE_WIRE_E_INVALID = 0x2200,
    MOTE_WIRE_E_CONFIG = 0x2300,
    MOTE_WIRE_E_ALREADY_EXISTS = 0x2400,
    MOTE_WIRE_E_UNPREPARED = 0x2500
} mote_wire_error_code;

/* ---- context, stream table, receiving ----------------------------------- */

/* One stream-table entry. Private; sized so callers can declare arrays. */
typedef struct mote_wire_slot {
    uint64_t tag;
    int32_t next;      /* next free slot, -1 = none */
    uint8_t busy;      /* 0 free, 1 in flight, 2 released (orphaned) */
    uint8_t opcode;    /* request opcode */
    uint16_t pad;
} mote_wire_slot;

typedef struct mote_wire {
    mote_err err;              /* private; sticky MOTE_ERR_PROTOCOL */
    mote_wire_slot *slots;
    uint32_t nslots;
    uint32_t inflight;         /* ids taken: in flight or orphaned */
    uint32_t orphans;          /* ids released, awaiting their response */
    int32_t free_head;
    uint8_t *rx;
    size_t rx_cap;
    size_t rx_pos;             /* first unconsumed byte */
    size_t rx_len;             /* bytes held: rx[0..rx_len) */
    size_t rx_done;            /* bytes of the frame last handed out */
    size_t skip;               /* body bytes still to discard */
} mote_wire;

/*
 * Set up a connection context. slots[0..nslots) is the stream table: at most
 * nslots requests in flight, stream ids 0..nslots-1 (nslots is clamped to
 * MOTE_WIRE_MAX_STREAMS). rx[0..rx_cap) is the receive buffer; a response
 * whose body is longer than rx_cap - MOTE_WIRE_HEADER cannot be read and is
 * skipped (mote_wire_next). Both arrays belong to the caller and must
 * outlive the context. Returns MOTE_OK or MOTE_ERR_INVALID (NULL w, slots
 * NULL or nslots 0, rx NULL or rx_cap < MOTE_WIRE_HEADER).
 */
MOTE_NODISCARD mote_err mote_wire_init(mote_wire *w, mote_wire_slot *slots, size_t nslots, uint8_t *rx,
                        size_t rx_cap);

/* Requests in flight: stream ids taken and not yet answered, not counting
 * orphaned ones (mote_wire_orphans). 0 for a NULL w. */
size_t mote_wire_inflight(const mote_wire *w);

/*
 * Give up on a request without its response (e.g. the caller timed it out).
 * Its stream id is orphaned: it stays out of use until a response with that
 * id arrives, so that a late answer to the released request is never taken
 * for the answer to a newer one (as the drivers do with orphaned streams).
 * That response is then MOTE_ERR_UNKNOWN_STREAM from mote_wire_next (tag 0)
 * and the id is free again. A response that never comes keeps its id out
 * of use for the life of the connection: a connection whose ids are mostly
 * orphaned (mote_wire_orphans against the slots given to mote_wire_init)
 * should be closed and replaced. A request still being built is dropped
 * with mote_wire_abort instead (it was never sent: its id is free at once).
 * Returns MOTE_OK, or MOTE_ERR_INVALID if stream is not in flight (an
 * orphaned id included).
 */
MOTE_NODISCARD mote_err mote_wire_release(mote_wire *w, int stream);

/* Stream ids released with mote_wire_release whose response has not come
 * yet (out of use meanwhile). 0 for a NULL w. */
size_t mote_wire_orphans(const mote_wire *w);

/*
 * Zero-copy receive: *avail receives how many bytes may be written at the
 * returned pointer (the buffer is compacted first; the views of the frame
 * last returned become invalid). After writing n <= *avail bytes there
 * (e.g. with recv()), call mote_wire_recv_commit(w, n). *avail is 0 only
 * while a complete frame is waiting: call mote_wire_next first.
 */
uint8_t *mote_wire_recv_space(mote_wire *w, size_t *avail);
void mote_wire_recv_commit(mote_wire *w, size_t n);

/*
 * Copy-in receive: take up to n bytes of data; returns how many were taken
 * (fewer than n when the buffer is full: call mote_wire_next, then feed the
 * rest). Bytes of a body being skipped are taken and dropped.
 */
size_t mote_wire_feed(mote_wire *w, const void *data, size_t n);

/* One received response frame. Views point into the receive buffer. */
typedef struct mote_wire_frame {
    uint8_t version;       /* 0x84 */
    uint8_t flags;         /* MOTE_WIRE_F_* */
    uint8_t opcode;        /* response opcode (mote_wire_opcode) */
    uint8_t req_opcode;    /* opcode of the request it answers (0 for events) */
    int16_t stream;
    uint32_t length;       /* body length from the header */
    uint64_t tag;          /* tag given with the request; 0 for events */
    mote_view body;        /* the opcode's body: after tracing id, warnings, payload */
    mote_view tracing_id;  /* 16 bytes, or {NULL, 0} */
    mote_view warnings;    /* the raw [string list], or {NULL, 0}: mote_wire_strings */
    mote_view payload;     /* the raw [bytes map], or {NULL, 0} */
} mote_wire_frame;

/*
 * Take the next complete response frame into *f. Returns:
 *   MOTE_OK            *f is a frame. If it answers a request (stream >= 0),
 *                      its stream id is free again and f->tag is the
 *                      request's tag. EVENTs have stream -1.
 *   MOTE_ERR_NEED_MORE no complete frame yet: receive more bytes.
 *   MOTE_ERR_LIMIT     the frame's body does not fit the receive buffer.
 *                      f has the header fields (stream, opcode, length, tag,
 *                      req_opcode) and empty views; the stream id is freed
 *                      and the body is discarded as it arrives. Keep
 *                      receiving and calling mote_wire_next.
 *   MOTE_ERR_UNKNOWN_STREAM  a response on a stream id with no request in
 *                      flight (or a non-EVENT on stream -1, or an EVENT on
 *                      another); f is filled as for MOTE_OK (body, tracing
 *                      id, warnings, payload: a late ERROR can be read with
 *                      mote_wire_parse_error) but tag and req_opcode are 0;
 *                      the frame is consumed. The response on an orphaned
 *                      id (mote_wire_release) is one: that id is free again.
 *                      (One that is compressed, or whose prefixes run past
 *                      its body, is PROTOCOL or TRUNCATED / BAD_LENGTH as
 *                      below, with tag 0.)
 *   MOTE_ERR_PROTOCOL  the frame is compressed (f filled, body raw, frame
 *                      consumed, stream freed, not sticky); or the header is not a v4
 *                      response (version byte other than 0x84, body length
 *                      over MOTE_WIRE_MAX_BODY, negative stream other than
 *                      -1): sticky, every later call returns it, f has the
 *                      header fields as read.
 *   MOTE_ERR_TRUNCATED / MOTE_ERR_BAD_LENGTH  the tracing id, warnings or
 *                      custom payload run past the body; f has the header
 *                      fields, the frame is consumed, its stream freed.
 *   MOTE_ERR_INVALID   NULL w or f.
 * f->body etc. stay valid until the next mote_wire_next, mote_wire_feed or
 * mote_wire_recv_space call.
 */
MOTE_NODISCARD mote_err mote_wire_next(mote_wire *w, mote_wire_frame *f);

/* ---- requests ------------------------------------------------------------
 *
 * Each encoder appends one complete frame to out (a mote_buf: growable, or
 * fixed over caller memory) and takes a stream id for it, which it returns
 * in *stream (may be NULL). On error nothing is appended (out->len is what
 * it was) and no stream id is taken. Errors: MOTE_ERR_INVALID (NULL w or
 * out, NULL data with a non-zero length), MOTE_ERR_LIMIT (no free stream id,
 * orphaned ones being out of use; or out's cap reached), MOTE_ERR_NOMEM,
 * MOTE_ERR_OVERFLOW (a string longer than its length field, more than 65535
 * values or statements, a body over MOTE_WIRE_MAX_BODY).
 */

/* STARTUP with {"CQL_VERSION": "3.0.0"} (no compression). */
MOTE_NODISCARD mote_err mote_wire_startup(mote_wire *w, mote_buf *out, uint64_t tag, int *stream);
/* OPTIONS (empty body); answered by SUPPORTED. */
MOTE_NODISCARD mote_err mote_wire_options(mote_wire *w, mote_buf *out, uint64_t tag, int *stream);
/* AUTH_RESPONSE with token as [bytes] (token NULL with n 0: a null token). */
MOTE_NODISCARD mote_err mote_wire_auth_response(mote_wire *w, mote_buf *out, uint64_t tag, const void *token,
                                 size_t n, int *stream);
/* AUTH_RESPONSE with the SASL PLAIN token "\0user\0password" (what
 * PasswordAuthenticator expects). */
MOTE_NODISCARD mote_err mote_wire_auth_plain(mote_wire *w, mote_buf *out, uint64_t tag, const char *user,
                              size_t ulen, const char *password, size_t plen, int *stream);
/* Event types for mote_wire_register (a bit set). */
enum {
    MOTE_WIRE_EVENT_TOPOLOGY = 0x01,   /* "TOPOLOGY_CHANGE": nodes added, removed */
    MOTE_WIRE_EVENT_STATUS = 0x02,     /* "STATUS_CHANGE": nodes up, down */
    MOTE_WIRE_EVENT_SCHEMA = 0x04,     /* "SCHEMA_CHANGE" */
    MOTE_WIRE_EVENT_ALL = 0x07
};
/* REGISTER for the event types in events (MOTE_WIRE_EVENT_* bits, at least
 * one; 0 or another bit is MOTE_ERR_INVALID), sent as a [string list];
 * answered by READY. The server then sends those events on stream -1 of
 * this connection (mote_wire_next gives them with stream -1, tag 0; read
 * them with mote_wire_parse_event). */
MOTE_NODISCARD mote_err mote_wire_register(mote_wire *w, mote_buf *out, uint64_t tag,
                                          unsigned events, int *stream);
/* PREPARE of cql[0..len) ([long string]); answered by RESULT Prepared. */
MOTE_NODISCARD mote_err mote_wire_prepare(mote_wire *w, mote_buf *out, uint64_t tag, const char *cql,
                           size_t len, int *stream);
/*
 * Query parameters of QUERY and EXECUTE, and the tail of BATCH. Zero it,
 * then set what is wanted. Fields:
 *   consistency          [consistency] of the request (default 0 = ANY:
 *                        set it); past LOCAL_ONE (0x000A) is
 *                        MOTE_ERR_INVALID at begin.
 *   serial_consistency   SERIAL or LOCAL_SERIAL to send flag 0x10; 0 = not
 *                        sent (ANY is never a serial consistency); another
 *                        value is MOTE_ERR_INVALID at begin.
 *   page_size            > 0: flag 0x04 with this [int]; <= 0: not sent.
 *   paging_state         ptr != NULL: flag 0x08 with this [bytes] (a view of
 *                        a previous Rows result's paging state; it must stay
 *                        valid until mote_wire_end). Not for BATCH.
 *   skip_metadata        flag 0x02 (rows come without column specs; use the
 *                        prepared result metadata). Not for BATCH.
 *   has_timestamp        flag 0x20 with timestamp [long] (microseconds;
 *                        negative is MOTE_ERR_INVALID at begin: "negative
 *                        values are forbidden", spec 4.1.4).
 *   tracing              the frame's tracing flag (0x02): the server traces
 *                        the request, and its response carries the tracing
 *                        session id (mote_wire_frame.tracing_id; the trace
 *                        is read from system_traces.sessions / .events).
 * Flag 0x01 (values) is set by mote_wire_end when values were given; names
 * for values (0x40) are never sent.
 */
typedef struct mote_wire_params {
    uint16_t consistency;          /* mote_wire_consistency */
    uint16_t serial_consistency;   /* mote_wire_consistency */
    int32_t page_size;
    mote_view paging_state;
    int64_t timestamp;
    bool skip_metadata;
    bool has_timestamp;
    bool tracing;
} mote_wire_params;

/*
 * Builder for requests that carry values: QUERY, EXECUTE, BATCH. Begin,
 * append values (and, in a batch, statements), then end. Values go into out
 * directly, so a value can also be encoded in place by the cql module: call
 * mote_wire_value_open, append the encoded value to out (e.g. with
 * mote_cql_encode_list_buf or mote_buf_append), then mote_wire_value_close,
 * which writes its length in front.
 * Errors are sticky: after the first, every call returns it, and
 * mote_wire_end returns it and removes the partial frame (frees the stream
 * id). mote_wire_abort does the same on purpose. So the calls between begin
 * and end (mote_wire_batch_query, mote_wire_batch_prepared, mote_wire_value,
 * _value_null, _value_unset, _value_open, _value_close) are made to be
 * chained and are not MOTE_NODISCARD: their error comes back from
 * mote_wire_end, which is (as are the *_begin calls; a failed begin leaves
 * its error in r too, so the chain after it is harmless: end also takes
 * back what the caller appended to out between value_open and value_close
 * since). A NULL r is
 * MOTE_ERR_INVALID from every call, end included. A request is open from
 * begin until end or abort: do not begin another on the same out meanwhile.
 */
/* Private: where a request is written, with its sticky error (the
 * writer's state, shared by every request builder). */
typedef struct mote__wire_out {
    mote_buf *b;
    mote_err err;
} mote__wire_out;

typedef struct mote_wire_req {
    mote__wire_out o;          /* private: out and the sticky error */
    uint8_t opcode;            /* (byte fields early: short Cortex-M loads) */
    int stream;
    mote_wire_params p;        /* (early too: its bytes within 32 of r) */
    mote_wire *w;
    size_t start;              /* offset of the frame header in out */
    size_t count_at;           /* offset of the current [short] value count, or 0
                                  (none: no offset after a frame header is 0);
                                  QUERY/EXECUTE: where it goes, written with
                                  the first value */
    size_t value_at;           /* offset of an open value's [int], or 0 (none) */
    uint32_t nvalues;          /* values of the current statement */
    uint32_t nstmts;           /* batch statements */
} mote_wire_req;

/* QUERY of cql[0..len) with parameters p (NULL: consistency ONE, nothing
 * else). */
MOTE_NODISCARD mote_err mote_wire_query_begin(mote_wire_req *r, mote_wire *w, mote_buf *out, uint64_t tag,
                               const char *cql, size_t len, const mote_wire_params *p);
/* EXECUTE of prepared id[0..idlen) (the [short bytes] id of RESULT
 * Prepared) with parameters p (NULL as above). */
MOTE_NODISCARD mote_err mote_wire_execute_begin(mote_wire_req *r, mote_wire *w, mote_buf *out, uint64_t tag,
                                 const void *id, size_t idlen, const mote_wire_params *p);
/* BATCH of the given type with parameters p (consistency,
 * serial_consistency, has_timestamp/timestamp; the others must be zero:
 * MOTE_ERR_INVALID, as is a type outside the enum). Add statements with mote_wire_batch_query /
 * mote_wire_batch_prepared, each followed by its values. */
MOTE_NODISCARD mote_err mote_wire_batch_begin(mote_wire_req *r, mote_wire *w, mote_buf *out,
                                             uint64_t tag, mote_wire_batch_type type,
                                             const mote_wire_params *p);
mote_err mote_wire_batch_query(mote_wire_req *r, const char *cql, size_t len);
mote_err mote_wire_batch_prepared(mote_wire_req *r, const void *id, size_t idlen);

/* Append one bound value: n bytes at v as [value] (an empty value is v
 * non-NULL or NULL with n 0), a null ([int] -1) or not set ([int] -2).
 * MOTE_ERR_STATE: no statement to bind to (batch before its first
 * statement) or a value is open. MOTE_ERR_OVERFLOW: 65535 values already,
 * or n > 2^31-1. */
mote_err mote_wire_value(mote_wire_req *r, const void *v, size_t n);
mote_err mote_wire_value_null(mote_wire_req *r);
mote_err mote_wire_value_unset(mote_wire_req *r);
/* Open a value whose bytes the caller appends to out itself; close writes
 * their count as its length (MOTE_ERR_OVERFLOW over 2^31-1; MOTE_ERR_STATE
 * if no value is open, or out shrank below the value's start). */
mote_err mote_wire_value_open(mote_wire_req *r);
mote_err mote_wire_value_close(mote_wire_req *r);

/* Finish the frame: trailing parameters, body length. Returns MOTE_OK and
 * the stream id in *stream (may be NULL), or the sticky error (frame
 * removed, stream freed), MOTE_ERR_STATE if a value is still open or a
 * batch has no statement. */
MOTE_NODISCARD mote_err mote_wire_end(mote_wire_req *r, int *stream);
/* Drop the request being built: out back to its length before begin, the
 * stream id freed. Safe to call after end (does nothing then); end is still
 * the call that closes the request. */
void mote_wire_abort(mote_wire_req *r);

/* ---- responses ----------------------------------------------------------- */

/* Private: a cursor over response bytes, with its sticky error (the
 * iterators below step their own, so next reads in place). */
typedef struct mote__wire_rd {
    const uint8_t *p;
    const uint8_t *end;
    mote_err err;
} mote__wire_rd;

/* Iterator over a [string list] (e.g. frame warnings, function argument
 * types): mote_wire_strings sets it up from the list's raw bytes (which a
 * parser has checked); next gives each [string] as a view. */
typedef struct mote_wire_list {
    mote__wire_rd r;           /* private */
    uint32_t left;
} mote_wire_list;

/* Returns MOTE_OK, or MOTE_ERR_TRUNCATED / MOTE_ERR_BAD_LENGTH if raw is not
 * one complete [string list] (for lists a parser handed out it is OK). An
 * empty view is an empty list. */
MOTE_NODISCARD mote_err mote_wire_strings(mote_wire_list *it, mote_view raw);
bool mote_wire_list_next(mote_wire_list *it, mote_view *s);
size_t mote_wire_list_count(const mote_wire_list *it);  /* items still to come */

/* AUTHENTICATE: the authenticator class name ([string]). */
MOTE_NODISCARD mote_err mote_wire_parse_authenticate(const mote_wire_frame *f, mote_view *authenticator);
/* AUTH_CHALLENGE or AUTH_SUCCESS: the [bytes] token (ptr NULL if null). */
MOTE_NODISCARD mote_err mote_wire_parse_auth_token(const mote_wire_frame *f, mote_view *token);

/* SUPPORTED: a [string multimap]. parse checks it and sets up iteration;
 * next gives each key with its values as a list iterator. */
typedef struct mote_wire_multimap {
    mote__wire_rd r;           /* private */
    uint32_t left;
} mote_wire_multimap;
MOTE_NODISCARD mote_err mote_wire_parse_supported(const mote_wire_frame *f, mote_wire_multimap *m);
bool mote_wire_multimap_next(mote_wire_multimap *m, mote_view *key, mote_wire_list *values);

/* A schema change (RESULT Schema_change, EVENT SCHEMA_CHANGE). */
typedef struct mote_wire_schema_change {
    mote_view change;          /* "CREATED", "UPDATED", "DROPPED" */
    mote_view target;          /* "KEYSPACE", "TABLE", "TYPE", "FUNCTION", "AGGREGATE" */
    mote_view keyspace;
    mote_view name;            /* table/type/function/aggregate; {NULL,0} for KEYSPACE */
    mote_view arg_types;       /* FUNCTION/AGGREGATE: raw [string list]; else {NULL,0} */
} mote_wire_schema_change;

/*
 * Metadata of a result (Rows metadata, and both parts of Prepared). The
 * column specs are checked when the result is parsed; iterate them with
 * mote_wire_columns.
 */
typedef struct mote_wire_meta {
    uint32_t flags;            /* MOTE_WIRE_META_* */
    uint32_t ncols;            /* columns (rows) or bind markers (prepared) */
    mote_view paging_state;    /* ptr NULL unless MORE_PAGES (then not NULL:
                                  a null one is BAD_LENGTH) */
    mote_view keyspace;        /* global table spec, or {NULL,0} */
    mote_view table;
    uint32_t npk;              /* prepared bind metadata: partition-key indexes
                                  (<= ncols, each < ncols: checked) */
    const uint8_t *pk;         /* npk big-endian [short]s: mote_wire_pk_index */
    mote_view specs;           /* raw column specs (empty if NO_METADATA) */
} mote_wire_meta;

/* i-th partition-key index of a prepared statement's bind metadata (the bind
 * marker holding partition-key component i), or -1 if i >= npk. */
int mote_wire_pk_index(const mote_wire_meta *m, size_t i);

typedef struct mote_wire_column {
    mote_view keyspace;        /* from the spec, or the global table spec */
    mote_view table;
    mote_view name;
    mote_view type;            /* the raw [option]: mote_wire_type */
    uint16_t type_id;          /* its option id (0x0009 int, 0x0020 list...) */
} mote_wire_column;

typedef struct mote_wire_columns_it {
    const mote_wire_meta *m;   /* private */
    mote__wire_rd r;
    uint32_t left;
} mote_wire_columns_it;
/* Set up iteration over m's column specs (none if m has NO_METADATA).
 * Returns MOTE_OK, or MOTE_ERR_INVALID for a NULL it or m (nothing written:
 * look at the result before calling next). */
MOTE_NODISCARD mote_err mote_wire_columns(mote_wire_columns_it *it, const mote_wire_meta *m);
bool mote_wire_column_next(mote_wire_columns_it *it, mote_wire_column *c);

/*
 * Convert a column's [option] into a mote_cql_type tree in nodes[0..cap)
 * (root nodes[0], stored in *root; *used receives the node count needed,
 * also on MOTE_ERR_SPACE, when nodes[0..cap) holds nothing usable; nodes NULL
 * with cap 0 measures; used may be NULL; at most 65534 nodes are used,
 * whatever cap). Native ids map to their kinds (varchar -> text,
 * 0x0015 -> duration), list/set/map/tuple to theirs; a UDT becomes a
 * frozen TUPLE of its field types (same wire format; the names are in the
 * option); Custom parses its class name with mote_cql_type_parse (so
 * VectorType(FloatType, 3) and DurationType work). Errors: MOTE_ERR_BAD_TYPE
 * (unknown id or class), MOTE_ERR_DEPTH (the tree, a Custom class name's
 * levels included, deeper than MOTE_CQL_MAX_DEPTH; a Custom's own levels
 * are counted once its nodes fit, so a count with too few nodes may say
 * SPACE where the call with enough says DEPTH),
 * MOTE_ERR_SPACE, MOTE_ERR_TRUNCATED / MOTE_ERR_BAD_LENGTH (option bytes
 * not well-formed; not for options from a parsed result), MOTE_ERR_INVALID.
 */
MOTE_NODISCARD mote_err mote_wire_type(mote_view option, mote_cql_type *nodes, size_t cap, size_t *used,
                        const mote_cql_type **root);

typedef struct mote_wire_result {
    int32_t kind;              /* mote_wire_result_kind */
    mote_wire_meta meta;       /* ROWS: the rows' metadata; PREPARED: result metadata */
    mote_wire_meta bind;       /* PREPARED: bind markers (with pk indexes) */
    mote_view id;              /* PREPARED: the statement id for EXECUTE */
    uint32_t nrows;            /* ROWS */
    mote_view rows;            /* ROWS: nrows * ncols [bytes], checked */
    mote_view keyspace;        /* SET_KEYSPACE */
    mote_wire_schema_change change; /* SCHEMA_CHANGE */
} mote_wire_result;

/*
 * RESULT: the kind and its body, all of it checked (every spec, type option
 * and cell length), so iteration cannot fail afterwards. Besides the
 * generic codes, MOTE_ERR_BAD_LENGTH for what no server sends: more
 * partition-key indexes than bind markers or an index past them, MORE_PAGES
 * with a null paging state, rows without columns.
 */
MOTE_NODISCARD mote_err mote_wire_parse_result(const mote_wire_frame *f, mote_wire_result *r);

/* Cells of a Rows result in row-major order. next gives one cell: ptr NULL
 * for null, ptr non-NULL (len may be 0: an "empty" value) otherwise; row
 * and col say where it is. false after the last cell. */
typedef struct mote_wire_cells {
    mote__wire_rd r;           /* private */
    uint32_t ncols;
    uint32_t row;              /* row of the next cell */
    uint32_t col;              /* column of the next cell */
    uint32_t nrows;
} mote_wire_cells;
/* Returns MOTE_OK, MOTE_ERR_INVALID for a NULL it or r, MOTE_ERR_TYPE for
 * a result that is not Rows. On an error nothing is written (look at the
 * result before calling next). */
MOTE_NODISCARD mote_err mote_wire_cells_init(mote_wire_cells *it, const mote_wire_result *r);
bool mote_wire_cell_next(mote_wire_cells *it, mote_view *cell, uint32_t *row, uint32_t *col);

/* ERROR: code, message and the code-specific fields (those that do not
 * apply are zero / empty). An unknown code gives code and message only. */
typedef struct mote_wire_error {
    int32_t code;              /* mote_wire_error_code, or another the server sent */
    mote_view message;
    uint16_t consistency;      /* UNAVAILABLE, *_TIMEOUT, *_FAILURE */
    int32_t required;          /* UNAVAILABLE */
    int32_t alive;             /* UNAVAILABLE */
    int32_t received;          /* *_TIMEOUT, *_FAILURE */
    int32_t blockfor;          /* *_TIMEOUT, *_FAILURE */
    int32_t numfailures;       /* *_FAILURE */
    bool data_present;         /* READ_TIMEOUT, READ_FAILURE */
    mote_view write_type;      /* WRITE_TIMEOUT, WRITE_FAILURE ("SIMPLE", "BATCH"...) */
    mote_view keyspace;        /* ALREADY_EXISTS, FUNCTION_FAILURE */
    mote_view table;           /* ALREADY_EXISTS (empty for a keyspace) */
    mote_view function;        /* FUNCTION_FAILURE */
    mote_view arg_types;       /* FUNCTION_FAILURE: raw [string list] */
    mote_view id;              /* UNPREPARED: the statement id to re-prepare */
} mote_wire_error;
MOTE_NODISCARD mote_err mote_wire_parse_error(const mote_wire_frame *f, mote_wire_error *e);

/* True for the error codes after which the same request may be sent again
 * as it is, whatever it does: OVERLOADED, IS_BOOTSTRAPPING, UNAVAILABLE
 * (the coordinator applied nothing) and READ_TIMEOUT (a read changes
 * nothing). Not WRITE_TIMEOUT: the write may have been applied on some
 * replicas, so sending it again is safe only for an idempotent statement,
 * which the caller knows and this code does not; a COUNTER write (counter
 * increments are not idempotent) or a non-idempotent write_type (SIMPLE,
 * BATCH, UNLOGGED_BATCH of such statements) must not be retried blindly,
 * and BATCH_LOG means the batch log write timed out (the batch itself will
 * be replayed). The drivers' default policies retry a WRITE_TIMEOUT only
 * for idempotent statements. (UNPREPARED needs a PREPARE first.) */
bool mote_wire_error_retryable(int32_t code);

/* EVENT (stream -1): type and its fields. TOPOLOGY_CHANGE / STATUS_CHANGE
 * set change ("NEW_NODE", "REMOVED_NODE", "UP", "DOWN"), address (4 or 16
 * bytes) and port; SCHEMA_CHANGE sets schema. Another event type gives
 * MOTE_OK with only type set (skip it). */
typedef struct mote_wire_event {
    mote_view type;            /* "TOPOLOGY_CHANGE", "STATUS_CHANGE", "SCHEMA_CHANGE" */
    mote_view change;
    mote_view address;
    int32_t port;
    mote_wire_schema_change schema;
} mote_wire_event;
MOTE_NODISCARD mote_err mote_wire_parse_event(const mote_wire_frame *f, mote_wire_event *e);

/* ---- token-aware routing --------------------------------------------------
 *
 * The Murmur3Partitioner token of a partition key: the first 64 bits of
 * Cassandra's MurmurHash3_x64_128 (seed 0) of the key bytes, with the
 * server's quirk kept (the tail bytes are mixed in as sign-extended Java
 * bytes), and INT64_MIN mapped to INT64_MAX as the partitioner does.
 * A single-column key is its value's bytes (as sent in EXECUTE). A
 * composite key (several partition-key columns) is the concatenation, per
 * component in partition-key order, of a 2-byte big-endian length, the
 * value bytes and a 0x00 byte.
 */
int64_t mote_wire_token(const void *key, size_t len);
/* Composite key from parts[0..n) (n >= 1; with n == 1 this is the single-key
 * token of parts[0], as the server computes it). Returns MOTE_OK,
 * MOTE_ERR_INVALID (NULL token, parts NULL with n > 0, n == 0, a part with
 * NULL ptr and len > 0), MOTE_ERR_OVERFLOW (a component over 65535 bytes). */
MOTE_NODISCARD mote_err mote_wire_token_parts(const mote_view *parts, size_t n, int64_t *token);

#ifdef __cplusplus
}
#endif

#endif /* MOTE_WIRE_H */
