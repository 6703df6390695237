/*
 * cql_type.c - CQL type descriptors from CQL type text or Cassandra marshal
 * class names, into caller-supplied nodes.
 *
 * One loop with an explicit stack of open collections (no recursion), so
 * the stack stays small and fixed on Cortex-M. frozen<...>, FrozenType(...)
 * and ReversedType(...) wrappers are counted and closed in a loop (they
 * change nothing on the wire), so they cost no stack.
 */
#include "mote/cql.h"

#include <string.h>

#include "mote_private.h"

/* MOTE_SMALL_NOINLINE: out of line in MOTE_SMALL builds (Cortex-M size,
 * measured: node_at is one copy for its three call sites, parse_all apart
 * from its caller saves registers once, lookup apart from parse_all 20 bytes
 * less for 32 bytes more stack, mote_wire_type's 480 of 512 on Cortex-M4). */

/* An open collection while its parameters are parsed. */
typedef struct tframe {
    uint8_t kind;      /* bytes first: in 16-bit ldrb/strb reach from the parser */
    bool marshal;      /* its bracket style: (...) or <...>, its wrappers' too */
    uint8_t wraps;     /* wrapper closers owed after it */
    uint16_t nsub;
    size_t node;       /* its node index */
    size_t prev;       /* last child's node index */
} tframe;

typedef struct tparser {
    const char *s;     /* cursor */
    const char *end;
    mote_cql_type *nodes;
    size_t cap;
    size_t count;
    /* parse_all's open collections: here rather than in its own frame, so
     * that st[i] is the parser pointer plus small positive offsets (gcc
     * addresses a local array from the frame's end, with negative offsets
     * that Thumb encodes only in 32-bit instructions) */
    tframe st[MOTE_CQL_MAX_DEPTH];
} tparser;

/*
 * Names are case-insensitive in CQL text; marshal class names match exactly
 * (they are Java class names). cql_names holds the CQL names, NUL-separated,
 * in mote_cql_kind order (kind = index + 1), then the aliases varchar and
 * frozen, ended by an empty name: no pointer table (Cortex-M size). Marshal
 * names are stored without their common "Type" suffix; those that are just
 * a CQL name capitalized ("Ascii", "List", "Frozen") come from cql_names
 * (marshal_cap marks which), the rest from marshal_names with its kinds.
 */
static const char cql_names[] =
    "ascii\0bigint\0blob\0boolean\0counter\0date\0decimal\0double\0duration\0float\0"
    "inet\0int\0smallint\0text\0time\0timestamp\0timeuuid\0tinyint\0uuid\0varint\0"
    "list\0set\0map\0tuple\0vector\0"
    "varchar\0frozen\0";
#define NAME_KINDS 25 /* names before the aliases */
/* KIND_WRAP marks frozen/FrozenType/ReversedType. */
#define KIND_WRAP 100
#define BIT(k) (1ul << ((k) - 1))
static const unsigned long marshal_cap =
    BIT(MOTE_CQL_ASCII) | BIT(MOTE_CQL_BOOLEAN) | BIT(MOTE_CQL_DECIMAL) | BIT(MOTE_CQL_DOUBLE) |
    BIT(MOTE_CQL_DURATION) | BIT(MOTE_CQL_FLOAT) | BIT(MOTE_CQL_TIME) | BIT(MOTE_CQL_TIMESTAMP) |
    BIT(MOTE_CQL_LIST) | BIT(MOTE_CQL_SET) | BIT(MOTE_CQL_MAP) | BIT(MOTE_CQL_TUPLE) |
    BIT(MOTE_CQL_VECTOR) | BIT(NAME_KINDS + 2) /* Frozen */;
static const char marshal_names[] =
    "Long\0Bytes\0CounterColumn\0SimpleDate\0InetAddress\0Int32\0Short\0UTF8\0TimeUUID\0"
    "Byte\0UUID\0Integer\0LexicalUUID\0Date\0Reversed\0"; /* DateType: legacy, 8-byte millis */
static const uint8_t marshal_kinds[] = {
    MOTE_CQL_BIGINT, MOTE_CQL_BLOB, MOTE_CQL_COUNTER, MOTE_CQL_DATE, MOTE_CQL_INET,
    MOTE_CQL_INT, MOTE_CQL_SMALLINT, MOTE_CQL_TEXT, MOTE_CQL_TIMEUUID, MOTE_CQL_TINYINT,
    MOTE_CQL_UUID, MOTE_CQL_VARINT, MOTE_CQL_UUID, MOTE_CQL_TIMESTAMP, KIND_WRAP};

const char *mote_cql_kind_name(mote_cql_kind kind)
{
    unsigned k = kind; /* counted down as a plain unsigned: no narrowing per step */
    if (k < 1 || k > NAME_KINDS) return "?";
    const char *s = cql_names;
    while (--k) {
        while (*s++) {
        }
    }
    return s;
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
    while (p->s < p->end && is_space(*p->s)) p->s++;
}

/* Skips spaces; true if c comes next (and is consumed then). */
static bool eat(tparser *p, char c)
{
    skip_space(p);
    if (p->s < p->end && *p->s == c) {
        p->s++;
        return true;
    }
    return false;
}

/* Index + 1 of id[0..n) in a name table, or 0. mode 0: CQL text, any case;
 * 1: exact; 2: first letter upper case, the rest exact. */
static size_t find_name(const char *tab, const char *id, size_t n, int mode)
{
    for (size_t k = 1; *tab; k++) {
        size_t i = 0;
        for (; i < n && tab[i]; i++) {
            /* Tables hold lower-case letters and digits: among identifier
             * bytes, | 0x20 changes only upper-case letters (to lower case)
             * and '_' (to 0x7f, in no name); ^ 0x20 turns an upper-case
             * letter into the lower-case one, anything else into no name. */
            char c = (char)(id[i] | (mode == 0 ? 0x20 : 0));
            if (mode == 2 && i == 0) c ^= 0x20;
            if (c != tab[i]) break;
        }
        if (i == n && tab[i] == '\0') return k;
        while (*tab++) {
        }
    }
    return 0;
}

/* Kind of an identifier (KIND_WRAP for a wrapper), or 0. Sets *marshal if
 * it is a marshal class name. */
static MOTE_SMALL_NOINLINE int lookup(const char *id, size_t n, bool *marshal)
{
    size_t k = find_name(cql_names, id, n, 0);
    *marshal = false;
    if (k) return k > NAME_KINDS ? (k == NAME_KINDS + 1 ? MOTE_CQL_TEXT : KIND_WRAP) : (int)k;
    *marshal = true;
    /* A marshal name is bare ("Int32Type") or in Cassandra's one package of
     * them: the server prefixes a name without a dot with it and loads a
     * dotted one as it is, and every type class lives there. The part after
     * the last dot must end in "Type" (left out of the tables). */
    static const char pkg[] = "org.apache.cassandra.db.marshal.";
    size_t b = n;
    while (b > 0 && id[b - 1] != '.') b--;
    if (b && (b != sizeof pkg - 1 || memcmp(id, pkg, b) != 0)) return 0;
    id += b;
    n -= b;
    if (n < 4 || memcmp(id + n - 4, "Type", 4) != 0) return 0;
    n -= 4;
    k = find_name(cql_names, id, n, 2);
    if (k && (marshal_cap & BIT(k))) return k > NAME_KINDS ? KIND_WRAP : (int)k;
    k = find_name(marshal_names, id, n, 1);
    return k ? marshal_kinds[k - 1] : 0;
}

/* Node i, or NULL when counting (no nodes: cap is 0) or past cap. */
static MOTE_SMALL_NOINLINE mote_cql_type *node_at(tparser *p, size_t i)
{
    return i < p->cap ? &p->nodes[i] : NULL;
}

/* The next node (NULL when counting or past cap), written whole: smaller
 * than zeroed, then set. */
static MOTE_SMALL_NOINLINE mote_cql_type *new_node(tparser *p, mote_cql_kind kind, bool frozen)
{
    mote_cql_type *t = node_at(p, p->count++);
    if (t) *t = (mote_cql_type){.kind = (uint8_t)kind, .frozen = frozen,
                                .fixed = mote_cql_kind_fixed(kind)};
    return t;
}

/* Closes n wrappers of one bracket style. */
static bool close_wraps(tparser *p, unsigned n, bool marshal)
{
    while (n--) {
        if (!eat(p, marshal ? ')' : '>')) return false;
    }
    return true;
}

/*
 * Iterative parser: an explicit stack of open collections (MOTE_CQL_MAX_DEPTH
 * small frames) instead of recursion, so the stack a call needs is fixed and
 * small (Cortex-M budget), whatever the input. Nodes are numbered in
 * preorder; counting mode (no node storage) walks the same way. Wrappers
 * (frozen<...>, FrozenType(...), ReversedType(...)) change nothing on the
 * wire: they are counted and closed after the element, not nested.
 */
static MOTE_SMALL_NOINLINE mote_err parse_all(tparser *p)
{
    tframe *st = p->st;
    unsigned depth = 0;
    for (;;) {
        /* An element starts: wrappers, then its name. All wrappers around
         * one type and the type itself use one bracket style. */
        unsigned hwraps = 0;
        bool hmarshal, hwmarshal = false, frozen = false;
        mote_cql_kind kind; /* or KIND_WRAP: the enum type keeps it one byte on short-enum ABIs */
        for (;;) {
            skip_space(p);
            const char *id = p->s;
            while (p->s < p->end && is_ident(*p->s)) p->s++;
            size_t n = (size_t)(p->s - id);
            if (n == 0) return MOTE_ERR_BAD_TYPE;
            kind = (mote_cql_kind)lookup(id, n, &hmarshal);
            if (kind != KIND_WRAP) break;
            if (hwraps > 0 && hmarshal != hwmarshal) return MOTE_ERR_BAD_TYPE;
            if (hwraps >= 64) return MOTE_ERR_DEPTH;
            if (!eat(p, hmarshal ? '(' : '<')) return MOTE_ERR_BAD_TYPE;
            hwmarshal = hmarshal;
            hwraps++;
            if (id[n - 5] != 'd') frozen = true; /* all but Reverse(d)Type */
        }
        if (kind == 0 || (hwraps && hmarshal != hwmarshal)) return MOTE_ERR_BAD_TYPE;
        if (depth >= MOTE_CQL_MAX_DEPTH) return MOTE_ERR_DEPTH;
        /* Its node, and its link into the parent. */
        /* (the fixed length found again: one value less live around the
         * call) */
        size_t me = p->count;
        mote_cql_type *t = new_node(p, kind, frozen);
        int32_t fixed = mote_cql_kind_fixed(kind);
        if (depth > 0) {
            tframe *f = &st[depth - 1];
            if (f->nsub == 0xffffu) return MOTE_ERR_BAD_TYPE;
            /* The server's rules (Cassandra's CQL3Type): no counter in a
             * list, set, map or tuple; a vector may hold one (Cassandra
             * stores vector<counter, n> values). No duration as a set
             * element or a map key (durations have no order); the server
             * also refuses one nested deeper there (set<frozen<tuple<
             * duration>>>), which this one-level check lets through. */
            if (kind == MOTE_CQL_COUNTER && f->kind != MOTE_CQL_VECTOR) return MOTE_ERR_BAD_TYPE;
            if (kind == MOTE_CQL_DURATION &&
                (f->kind == MOTE_CQL_SET || (f->kind == MOTE_CQL_MAP && f->nsub == 0)))
                return MOTE_ERR_BAD_TYPE;
            mote_cql_type *link = node_at(p, f->nsub == 0 ? f->node : f->prev);
            if (link) {
                if (f->nsub == 0) link->sub = t;
                else link->next = t;
            }
            f->prev = me;
            f->nsub++;
        }
        if (kind >= MOTE_CQL_LIST) {
            if (!eat(p, hmarshal ? '(' : '<')) return MOTE_ERR_BAD_TYPE;
            tframe *h = &st[depth];
            h->marshal = hmarshal;
            h->wraps = (uint8_t)hwraps;
            h->node = me;
            h->prev = me;
            h->nsub = 0;
            h->kind = (uint8_t)kind;
            depth++;
            continue; /* parse its first parameter */
        }
        /* A complete element: close its wrappers, then every collection it
         * completes. */
        unsigned wraps = hwraps;
        bool wmarshal = hmarshal; /* the wrappers' style, checked above */
        for (;;) {
            if (!close_wraps(p, wraps, wmarshal)) return MOTE_ERR_BAD_TYPE;
            if (depth == 0) { /* the whole text: nothing but spaces may follow */
                skip_space(p);
                return p->s == p->end ? MOTE_OK : MOTE_ERR_BAD_TYPE;
            }
            tframe *f = &st[depth - 1];
            const char close = f->marshal ? ')' : '>';
            uint32_t dim = 0;
            if (f->kind == MOTE_CQL_VECTOR) {
                if (!eat(p, ',')) return MOTE_ERR_BAD_TYPE;
                skip_space(p);
                uint32_t d = 0; /* <= INT32_MAX / 10 before each step: no wrap */
                while (p->s < p->end && *p->s >= '0' && *p->s <= '9') {
                    if (d > INT32_MAX / 10) return MOTE_ERR_BAD_TYPE;
                    d = d * 10 + (uint32_t)(*p->s++ - '0');
                }
                /* 1..INT32_MAX: no digits or 0 wrap to UINT32_MAX here, and a
                 * last step past INT32_MAX (at most 2^31 + 1) fails too. */
                if (d - 1u >= (uint32_t)INT32_MAX) return MOTE_ERR_BAD_TYPE;
                dim = d;
                /* A vector of a fixed-length type is itself fixed (Cassandra's
                 * VectorType.valueLengthIfFixed), so it packs inside vectors. */
                if (fixed >= 0) { /* then fixed >= 1 */
                    if (d > (uint32_t)INT32_MAX / (uint32_t)fixed) return MOTE_ERR_BAD_TYPE;
                    fixed = (int32_t)((uint32_t)fixed * d);
                }
                if (!eat(p, close)) return MOTE_ERR_BAD_TYPE;
            } else if (eat(p, close)) {
                size_t want = f->kind == MOTE_CQL_MAP ? 2 : 1;
                if (f->kind != MOTE_CQL_TUPLE && f->nsub != want) return MOTE_ERR_BAD_TYPE;
                fixed = -1;
            } else if (eat(p, ',')) {
                break; /* next parameter of this collection */
            } else {
                return MOTE_ERR_BAD_TYPE;
            }
            /* The collection is complete. */
            mote_cql_type *c = node_at(p, f->node);
            if (c) {
                c->nsub = f->nsub;
                c->dim = dim;
                c->fixed = fixed;
            }
            wraps = f->wraps;
            wmarshal = f->marshal;
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
    tparser p; /* set member by member: st needs no zeroing */
    p.s = text;
    p.end = text ? text + len : text;
    p.nodes = nodes;
    p.cap = cap;
    p.count = 0;
    mote_err e = parse_all(&p);
    if (e) return e;
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
    if (e != MOTE_ERR_SPACE) return e; /* SPACE: counted (never OK: a type has a node) */
    mote_cql_type *nodes = (mote_cql_type *)mote_arena_alloc_array(
        a, need, sizeof(mote_cql_type), _Alignof(mote_cql_type));
    if (!nodes) return MOTE_ERR_NOMEM;
    return mote_cql_type_parse(text, len, nodes, need, NULL, root);
}

/* Formatted text so far: written while it fits, always counted. */
typedef struct tout {
    char *out;
    size_t cap;
    size_t at;
} tout;

static void put_str(tout *o, const char *s)
{
    size_t at = o->at; /* in a register: no store per byte */
    for (; *s; s++, at++) {
        if (at < o->cap) o->out[at] = *s;
    }
    o->at = at;
}

static void put_dim(tout *o, uint32_t d)
{
    char num[12];
    size_t k = sizeof num - 1;
    num[k] = '\0';
    do {
        num[--k] = (char)('0' + d % 10);
        d /= 10;
    } while (d);
    put_str(o, ", ");
    put_str(o, num + k);
}

/* Iterative preorder walk with a stack of open collections (no recursion:
 * fixed stack use). Types deeper than MOTE_CQL_MAX_DEPTH (only possible when
 * built by hand) are cut off with "...". */
mote_err mote_cql_type_format(const mote_cql_type *t, char *out, size_t cap, size_t *len)
{
    if (!t) {
        if (len) *len = 0;
        return MOTE_ERR_INVALID;
    }
    tout o = {out, out ? cap : 0, 0};
    const mote_cql_type *open[MOTE_CQL_MAX_DEPTH];
    unsigned depth = 0;
    const mote_cql_type *c = t;
    for (;;) {
        /* write the head of c, descend into its children */
        if (c->frozen) put_str(&o, "frozen<");
        put_str(&o, mote_cql_kind_name(c->kind));
        if (c->kind >= MOTE_CQL_LIST && c->sub && depth < MOTE_CQL_MAX_DEPTH) {
            put_str(&o, "<");
            open[depth++] = c;
            c = c->sub;
            continue;
        }
        if (c->kind >= MOTE_CQL_LIST) /* "<>" or "<...>" from one string: no branch */
            put_str(&o, &"<>\0<...>"[3 * (c->sub != NULL)]);
        if (c->frozen) put_str(&o, ">");
        /* c is complete: move to its sibling, or close parents */
        for (;;) {
            if (depth == 0) {
                if (len) *len = o.at;
                return o.at <= o.cap ? MOTE_OK : MOTE_ERR_SPACE; /* o.cap is 0 without out */
            }
            const mote_cql_type *parent = open[depth - 1];
            if (c->next && parent->kind != MOTE_CQL_VECTOR) {
                put_str(&o, ", ");
                c = c->next;
                break;
            }
            if (parent->kind == MOTE_CQL_VECTOR) put_dim(&o, parent->dim);
            put_str(&o, ">");
            if (parent->frozen) put_str(&o, ">");
            c = parent;
            depth--;
        }
    }
}
