/*
 * cql_type.c - CQL type descriptors from CQL type text or Cassandra marshal
 * class names, into caller-supplied nodes.
 *
 * A recursive-descent parser; recursion is bounded by MOTE_CQL_MAX_DEPTH and
 * each frame holds only a few words, so the stack stays small on Cortex-M.
 * frozen<...>, FrozenType(...) and ReversedType(...) wrappers are unwrapped
 * in a loop (they change nothing on the wire), so they cost no recursion.
 */
#include "mote/cql.h"

typedef struct tparser {
    const char *s;
    size_t len;
    size_t pos;
    mote_cql_type *nodes;
    size_t cap;
    size_t count;
    mote_err err;
} tparser;

/* Names are case-insensitive in CQL text; marshal class names match exactly
 * (they are Java class names). */
typedef struct kind_name {
    const char *name;
    uint8_t kind;
} kind_name;

static const kind_name cql_names[] = {
    {"ascii", MOTE_CQL_ASCII},       {"bigint", MOTE_CQL_BIGINT},
    {"blob", MOTE_CQL_BLOB},         {"boolean", MOTE_CQL_BOOLEAN},
    {"counter", MOTE_CQL_COUNTER},   {"date", MOTE_CQL_DATE},
    {"decimal", MOTE_CQL_DECIMAL},   {"double", MOTE_CQL_DOUBLE},
    {"duration", MOTE_CQL_DURATION}, {"float", MOTE_CQL_FLOAT},
    {"inet", MOTE_CQL_INET},         {"int", MOTE_CQL_INT},
    {"smallint", MOTE_CQL_SMALLINT}, {"text", MOTE_CQL_TEXT},
    {"varchar", MOTE_CQL_TEXT},      {"time", MOTE_CQL_TIME},
    {"timestamp", MOTE_CQL_TIMESTAMP}, {"timeuuid", MOTE_CQL_TIMEUUID},
    {"tinyint", MOTE_CQL_TINYINT},   {"uuid", MOTE_CQL_UUID},
    {"varint", MOTE_CQL_VARINT},     {"list", MOTE_CQL_LIST},
    {"set", MOTE_CQL_SET},           {"map", MOTE_CQL_MAP},
    {"tuple", MOTE_CQL_TUPLE},       {"vector", MOTE_CQL_VECTOR},
};

static const kind_name marshal_names[] = {
    {"AsciiType", MOTE_CQL_ASCII},          {"LongType", MOTE_CQL_BIGINT},
    {"BytesType", MOTE_CQL_BLOB},           {"BooleanType", MOTE_CQL_BOOLEAN},
    {"CounterColumnType", MOTE_CQL_COUNTER}, {"SimpleDateType", MOTE_CQL_DATE},
    {"DecimalType", MOTE_CQL_DECIMAL},      {"DoubleType", MOTE_CQL_DOUBLE},
    {"DurationType", MOTE_CQL_DURATION},    {"FloatType", MOTE_CQL_FLOAT},
    {"InetAddressType", MOTE_CQL_INET},     {"Int32Type", MOTE_CQL_INT},
    {"ShortType", MOTE_CQL_SMALLINT},       {"UTF8Type", MOTE_CQL_TEXT},
    {"TimeType", MOTE_CQL_TIME},            {"TimestampType", MOTE_CQL_TIMESTAMP},
    {"DateType", MOTE_CQL_TIMESTAMP},       /* legacy name, same 8-byte millis */
    {"TimeUUIDType", MOTE_CQL_TIMEUUID},    {"ByteType", MOTE_CQL_TINYINT},
    {"UUIDType", MOTE_CQL_UUID},            {"LexicalUUIDType", MOTE_CQL_UUID},
    {"IntegerType", MOTE_CQL_VARINT},       {"ListType", MOTE_CQL_LIST},
    {"SetType", MOTE_CQL_SET},              {"MapType", MOTE_CQL_MAP},
    {"TupleType", MOTE_CQL_TUPLE},          {"VectorType", MOTE_CQL_VECTOR},
};

const char *mote_cql_kind_name(int kind)
{
    /* cql_names is in kind order except for the "varchar" alias. */
    for (size_t i = 0; i < sizeof cql_names / sizeof cql_names[0]; i++) {
        if (cql_names[i].kind == kind) return cql_names[i].name;
    }
    return "?";
}

int mote_cql_kind_fixed(int kind)
{
    switch (kind) {
    case MOTE_CQL_BOOLEAN: return 1;
    case MOTE_CQL_INT:
    case MOTE_CQL_FLOAT: return 4;
    case MOTE_CQL_BIGINT:
    case MOTE_CQL_DOUBLE:
    case MOTE_CQL_TIMESTAMP: return 8;
    case MOTE_CQL_UUID:
    case MOTE_CQL_TIMEUUID: return 16;
    default: return -1;
    }
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '$';
}

static void skip_space(tparser *p)
{
    while (p->pos < p->len && is_space(p->s[p->pos])) p->pos++;
}

static bool eat(tparser *p, char c)
{
    skip_space(p);
    if (p->pos < p->len && p->s[p->pos] == c) {
        p->pos++;
        return true;
    }
    return false;
}

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static bool name_eq(const char *a, size_t n, const char *b, bool fold)
{
    size_t i = 0;
    for (; i < n; i++) {
        if (b[i] == '\0') return false;
        if ((fold ? lower(a[i]) : a[i]) != b[i]) return false;
    }
    return b[i] == '\0';
}

/* Kind of an identifier, or 0. Sets *marshal if it was a marshal name. */
static int lookup(const char *id, size_t n, bool *marshal)
{
    for (size_t i = 0; i < sizeof cql_names / sizeof cql_names[0]; i++) {
        if (name_eq(id, n, cql_names[i].name, true)) {
            *marshal = false;
            return cql_names[i].kind;
        }
    }
    /* Marshal names may carry a package: match the part after the last dot. */
    size_t start = n;
    while (start > 0 && id[start - 1] != '.') start--;
    for (size_t i = 0; i < sizeof marshal_names / sizeof marshal_names[0]; i++) {
        if (name_eq(id + start, n - start, marshal_names[i].name, false)) {
            *marshal = true;
            return marshal_names[i].kind;
        }
    }
    return 0;
}

static bool fail(tparser *p, mote_err e)
{
    if (p->err == MOTE_OK) p->err = e;
    return false;
}

/* Reads an identifier; false if there is none. */
static bool ident(tparser *p, const char **id, size_t *n)
{
    skip_space(p);
    size_t b = p->pos;
    while (p->pos < p->len && is_ident(p->s[p->pos])) p->pos++;
    *id = p->s + b;
    *n = p->pos - b;
    return *n > 0;
}

/* Last dot-separated part of a (marshal) name. */
static size_t base_start(const char *id, size_t n)
{
    size_t start = n;
    while (start > 0 && id[start - 1] != '.') start--;
    return start;
}

/* Wrapper names that do not change the wire format. */
static bool is_wrapper(const char *id, size_t n, bool *marshal)
{
    if (name_eq(id, n, "frozen", true)) {
        *marshal = false;
        return true;
    }
    size_t start = base_start(id, n);
    if (name_eq(id + start, n - start, "FrozenType", false) ||
        name_eq(id + start, n - start, "ReversedType", false)) {
        *marshal = true;
        return true;
    }
    return false;
}

static mote_cql_type *node_at(tparser *p, size_t i)
{
    return (p->nodes && i < p->cap) ? &p->nodes[i] : NULL;
}

/* An element's head: wrappers, then its name. */
typedef struct thead {
    int kind;
    bool marshal;      /* marshal-class style: (...) brackets */
    bool frozen;
    uint8_t wraps;     /* wrapper closers owed after the element */
    bool wmarshal;     /* their bracket style */
} thead;

static bool read_head(tparser *p, thead *h)
{
    const char *id;
    size_t n;
    bool marshal = false;
    h->wraps = 0;
    h->wmarshal = false;
    h->frozen = false;
    for (;;) {
        if (!ident(p, &id, &n)) return fail(p, MOTE_ERR_BAD_TYPE);
        if (!is_wrapper(id, n, &marshal)) break;
        /* All wrappers around one type use one bracket style. */
        if (h->wraps > 0 && marshal != h->wmarshal) return fail(p, MOTE_ERR_BAD_TYPE);
        if (h->wraps >= 64) return fail(p, MOTE_ERR_DEPTH);
        if (!eat(p, marshal ? '(' : '<')) return fail(p, MOTE_ERR_BAD_TYPE);
        h->wmarshal = marshal;
        h->wraps++;
        if (lower(id[base_start(id, n)]) == 'f') h->frozen = true; /* not ReversedType */
    }
    h->kind = lookup(id, n, &h->marshal);
    if (h->kind == 0) return fail(p, MOTE_ERR_BAD_TYPE);
    if (h->wraps && h->marshal != h->wmarshal) return fail(p, MOTE_ERR_BAD_TYPE);
    return true;
}

static bool close_wraps(tparser *p, unsigned wraps, bool wmarshal)
{
    for (unsigned i = 0; i < wraps; i++) {
        if (!eat(p, wmarshal ? ')' : '>')) return fail(p, MOTE_ERR_BAD_TYPE);
    }
    return true;
}

/* An open collection while its parameters are parsed. */
typedef struct tframe {
    size_t node;       /* its node index */
    size_t prev;       /* last child's node index */
    uint16_t nsub;
    uint8_t kind;
    bool marshal;
    uint8_t wraps;
    bool wmarshal;
} tframe;

/*
 * Iterative parser: an explicit stack of open collections (MOTE_CQL_MAX_DEPTH
 * small frames) instead of recursion, so the stack a call needs is fixed and
 * small (Cortex-M budget), whatever the input. Nodes are numbered in
 * preorder; counting mode (no node storage) walks the same way.
 */
static bool parse_all(tparser *p)
{
    tframe st[MOTE_CQL_MAX_DEPTH];
    unsigned depth = 0;
    for (;;) {
        /* An element starts: its head, its node, its link into the parent. */
        thead h;
        if (!read_head(p, &h)) return false;
        if (depth >= MOTE_CQL_MAX_DEPTH) return fail(p, MOTE_ERR_DEPTH);
        size_t me = p->count++;
        mote_cql_type *t = node_at(p, me);
        if (t) {
            t->kind = (uint8_t)h.kind;
            t->frozen = h.frozen;
            t->nsub = 0;
            t->dim = 0;
            t->fixed = mote_cql_kind_fixed(h.kind);
            t->sub = NULL;
            t->next = NULL;
        }
        if (depth > 0) {
            tframe *f = &st[depth - 1];
            if (f->nsub == 0xffffu) return fail(p, MOTE_ERR_BAD_TYPE);
            mote_cql_type *link = node_at(p, f->nsub == 0 ? f->node : f->prev);
            if (link) {
                if (f->nsub == 0) link->sub = t;
                else link->next = t;
            }
            f->prev = me;
            f->nsub++;
        }
        if (h.kind >= MOTE_CQL_LIST) {
            if (!eat(p, h.marshal ? '(' : '<')) return fail(p, MOTE_ERR_BAD_TYPE);
            tframe *f = &st[depth++];
            f->node = me;
            f->prev = me;
            f->nsub = 0;
            f->kind = (uint8_t)h.kind;
            f->marshal = h.marshal;
            f->wraps = h.wraps;
            f->wmarshal = h.wmarshal;
            continue; /* parse its first parameter */
        }
        if (!close_wraps(p, h.wraps, h.wmarshal)) return false;
        /* A complete element: close every collection it completes. */
        int32_t last_fixed = mote_cql_kind_fixed(h.kind);
        for (;;) {
            if (depth == 0) return true;
            tframe *f = &st[depth - 1];
            const char close = f->marshal ? ')' : '>';
            uint32_t dim = 0;
            int32_t fixed = -1;
            if (f->kind == MOTE_CQL_VECTOR) {
                if (!eat(p, ',')) return fail(p, MOTE_ERR_BAD_TYPE);
                skip_space(p);
                uint64_t d = 0;
                size_t digits = 0;
                while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
                    d = d * 10 + (uint64_t)(p->s[p->pos] - '0');
                    if (d > INT32_MAX) return fail(p, MOTE_ERR_BAD_TYPE);
                    p->pos++;
                    digits++;
                }
                if (digits == 0 || d == 0) return fail(p, MOTE_ERR_BAD_TYPE);
                dim = (uint32_t)d;
                /* A vector of a fixed-length type is itself fixed (Cassandra's
                 * VectorType.valueLengthIfFixed), so it packs inside vectors. */
                if (last_fixed >= 0) {
                    if ((uint64_t)last_fixed * d > INT32_MAX) return fail(p, MOTE_ERR_BAD_TYPE);
                    fixed = (int32_t)((uint64_t)last_fixed * d);
                }
                if (!eat(p, close)) return fail(p, MOTE_ERR_BAD_TYPE);
            } else if (eat(p, close)) {
                size_t want = f->kind == MOTE_CQL_MAP ? 2 : 1;
                if (f->kind != MOTE_CQL_TUPLE && f->nsub != want) return fail(p, MOTE_ERR_BAD_TYPE);
            } else if (eat(p, ',')) {
                break; /* next parameter of this collection */
            } else {
                return fail(p, MOTE_ERR_BAD_TYPE);
            }
            /* The collection is complete. */
            mote_cql_type *c = node_at(p, f->node);
            if (c) {
                c->nsub = f->nsub;
                c->dim = dim;
                c->fixed = fixed;
            }
            if (!close_wraps(p, f->wraps, f->wmarshal)) return false;
            last_fixed = fixed;
            depth--;
        }
    }
}

mote_err mote_cql_type_parse(const char *text, size_t len, mote_cql_type *nodes, size_t cap,
                             size_t *used, const mote_cql_type **root)
{
    if (root) *root = NULL;
    if (used) *used = 0;
    if ((!text && len > 0) || !root || (!nodes && cap > 0)) return MOTE_ERR_INVALID;
    tparser p = {text, len, 0, nodes, cap, 0, MOTE_OK};
    bool ok = parse_all(&p);
    if (ok) {
        skip_space(&p);
        if (p.pos != p.len) ok = fail(&p, MOTE_ERR_BAD_TYPE);
    }
    if (!ok) return p.err;
    if (used) *used = p.count;
    if (p.count > cap) return MOTE_ERR_SPACE;
    *root = &nodes[0];
    return MOTE_OK;
}

mote_err mote_cql_type_parse_arena(mote_arena *a, const char *text, size_t len,
                                   const mote_cql_type **root)
{
    if (root) *root = NULL;
    if (!a || !root) return MOTE_ERR_INVALID;
    size_t need = 0;
    mote_err e = mote_cql_type_parse(text, len, NULL, 0, &need, root);
    if (e != MOTE_ERR_SPACE) return e ? e : MOTE_ERR_INVALID; /* SPACE: counted */
    mote_cql_type *nodes = (mote_cql_type *)mote_arena_alloc_array(
        a, need, sizeof(mote_cql_type), _Alignof(mote_cql_type));
    if (!nodes) return MOTE_ERR_NOMEM;
    return mote_cql_type_parse(text, len, nodes, need, NULL, root);
}

/* Appends s to out if it fits; always advances the needed length. */
static void put_str(char *out, size_t cap, size_t *at, const char *s)
{
    for (; *s; s++, (*at)++) {
        if (*at < cap) out[*at] = *s;
    }
}

static void put_dim(char *out, size_t cap, size_t *at, uint32_t d)
{
    char num[12];
    size_t k = sizeof num - 1;
    num[k] = '\0';
    do {
        num[--k] = (char)('0' + d % 10);
        d /= 10;
    } while (d);
    put_str(out, cap, at, ", ");
    put_str(out, cap, at, num + k);
}

/* Iterative preorder walk with a stack of open collections (no recursion:
 * fixed stack use). Types deeper than MOTE_CQL_MAX_DEPTH (only possible when
 * built by hand) are cut off with "...". */
size_t mote_cql_type_format(const mote_cql_type *t, char *out, size_t cap)
{
    if (!t) return 0;
    if (!out) cap = 0;
    const mote_cql_type *open[MOTE_CQL_MAX_DEPTH];
    unsigned depth = 0;
    size_t at = 0;
    const mote_cql_type *c = t;
    for (;;) {
        /* write the head of c, descend into its children */
        if (c->frozen) put_str(out, cap, &at, "frozen<");
        put_str(out, cap, &at, mote_cql_kind_name(c->kind));
        if (c->kind >= MOTE_CQL_LIST && c->sub && depth < MOTE_CQL_MAX_DEPTH) {
            put_str(out, cap, &at, "<");
            open[depth++] = c;
            c = c->sub;
            continue;
        }
        if (c->kind >= MOTE_CQL_LIST) put_str(out, cap, &at, c->sub ? "<...>" : "<>");
        if (c->frozen) put_str(out, cap, &at, ">");
        /* c is complete: move to its sibling, or close parents */
        for (;;) {
            if (depth == 0) return at;
            const mote_cql_type *parent = open[depth - 1];
            if (c->next && parent->kind != MOTE_CQL_VECTOR) {
                put_str(out, cap, &at, ", ");
                c = c->next;
                break;
            }
            if (parent->kind == MOTE_CQL_VECTOR) put_dim(out, cap, &at, parent->dim);
            put_str(out, cap, &at, ">");
            if (parent->frozen) put_str(out, cap, &at, ">");
            c = parent;
            depth--;
        }
    }
}
