/* test_cql_type.c - CQL type descriptors from type text and marshal names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mote/cql.h"
#include "test_data.h"

static mote_cql_type nodes[64];

static const mote_cql_type *parse_ok(const char *s)
{
    const mote_cql_type *t = NULL;
    size_t used = 0;
    mote_err e = mote_cql_type_parse(s, strlen(s), nodes, 64, &used, &t);
    if (e) fail_msg("parse '%s': %s", s, mote_err_name(e));
    assert_non_null(t);
    assert_true(used >= 1);
    return t;
}

static mote_err parse_err(const char *s)
{
    const mote_cql_type *t = (const mote_cql_type *)1;
    mote_err e = mote_cql_type_parse(s, strlen(s), nodes, 64, NULL, &t);
    assert_null(t);
    return e;
}

static void assert_formats(const char *in, const char *want)
{
    const mote_cql_type *t = parse_ok(in);
    char buf[256];
    size_t n = 0;
    assert_int_equal(mote_cql_type_format(t, buf, sizeof buf - 1, &n), MOTE_OK);
    buf[n] = '\0';
    assert_string_equal(buf, want);
}

/* Native names map to kinds, case-insensitively, varchar = text; the fixed
 * column follows Cassandra's vector rule. */
static void natives_and_fixed_lengths(void **state)
{
    (void)state;
    static const struct { const char *s; int kind; int fixed; } cases[] = {
        {"boolean", MOTE_CQL_BOOLEAN, 1}, {"int", MOTE_CQL_INT, 4},
        {"FLOAT", MOTE_CQL_FLOAT, 4},     {"bigint", MOTE_CQL_BIGINT, 8},
        {"double", MOTE_CQL_DOUBLE, 8},   {"timestamp", MOTE_CQL_TIMESTAMP, 8},
        {"uuid", MOTE_CQL_UUID, 16},      {"timeuuid", MOTE_CQL_TIMEUUID, 16},
        {"tinyint", MOTE_CQL_TINYINT, -1}, {"smallint", MOTE_CQL_SMALLINT, -1},
        {"date", MOTE_CQL_DATE, -1},      {"time", MOTE_CQL_TIME, -1},
        {"counter", MOTE_CQL_COUNTER, -1}, {"text", MOTE_CQL_TEXT, -1},
        {"varchar", MOTE_CQL_TEXT, -1},   {"ascii", MOTE_CQL_ASCII, -1},
        {"blob", MOTE_CQL_BLOB, -1},      {"varint", MOTE_CQL_VARINT, -1},
        {"decimal", MOTE_CQL_DECIMAL, -1}, {"inet", MOTE_CQL_INET, -1},
        {"duration", MOTE_CQL_DURATION, -1}, {"BigInt", MOTE_CQL_BIGINT, 8},
        {"tExT", MOTE_CQL_TEXT, -1},      {"VARCHAR", MOTE_CQL_TEXT, -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const mote_cql_type *t = parse_ok(cases[i].s);
        assert_int_equal(t->kind, cases[i].kind);
        assert_int_equal(t->fixed, cases[i].fixed);
        assert_int_equal(mote_cql_kind_fixed(cases[i].kind), cases[i].fixed);
    }
}

/* Collections carry their children in order; vectors their dimension. */
static void collections_have_children(void **state)
{
    (void)state;
    const mote_cql_type *t = parse_ok("map<text, frozen<list<int>>>");
    assert_int_equal(t->kind, MOTE_CQL_MAP);
    assert_int_equal(t->nsub, 2);
    assert_int_equal(t->sub->kind, MOTE_CQL_TEXT);
    assert_int_equal(t->sub->next->kind, MOTE_CQL_LIST);
    assert_true(t->sub->next->frozen);
    assert_int_equal(t->sub->next->sub->kind, MOTE_CQL_INT);
    assert_null(t->sub->next->next);

    t = parse_ok(" vector < float , 768 > ");
    assert_int_equal(t->kind, MOTE_CQL_VECTOR);
    assert_int_equal(t->dim, 768);
    assert_int_equal(t->fixed, 768 * 4);

    t = parse_ok("tuple<int, text, uuid>");
    assert_int_equal(t->nsub, 3);
    assert_int_equal(t->sub->next->next->kind, MOTE_CQL_UUID);
    assert_int_equal(t->fixed, -1);

    /* A vector of a fixed-length vector is itself fixed. */
    t = parse_ok("vector<vector<float, 2>, 3>");
    assert_int_equal(t->fixed, 24);
    t = parse_ok("vector<vector<text, 2>, 3>");
    assert_int_equal(t->fixed, -1);
    t = parse_ok("vector<smallint, 3>");
    assert_int_equal(t->fixed, -1);
}

/* Marshal class names, with or without the package, nested and frozen. */
static void marshal_class_names(void **state)
{
    (void)state;
    const mote_cql_type *t = parse_ok(
        "org.apache.cassandra.db.marshal.VectorType(org.apache.cassandra.db.marshal.FloatType, 768)");
    assert_int_equal(t->kind, MOTE_CQL_VECTOR);
    assert_int_equal(t->dim, 768);
    assert_int_equal(t->sub->kind, MOTE_CQL_FLOAT);
    assert_formats("MapType(UTF8Type,org.apache.cassandra.db.marshal.FrozenType(ListType(Int32Type)))",
                   "map<text, frozen<list<int>>>");
    assert_formats("SetType(ReversedType(LongType))", "set<bigint>");
    assert_formats("TupleType(Int32Type,UUIDType,BooleanType)", "tuple<int, uuid, boolean>");
    assert_formats("ListType(SimpleDateType)", "list<date>");
    assert_formats("ListType(ShortType)", "list<smallint>");
    assert_formats("ListType(ByteType)", "list<tinyint>");
    assert_formats("ListType(IntegerType)", "list<varint>");
    assert_formats("VectorType(CounterColumnType, 2)", "vector<counter, 2>");
}

/* The server's type rules (Cassandra's CQL3Type and TypeParser, checked in
 * its source): a marshal class name is bare or in the package
 * org.apache.cassandra.db.marshal; no counter in a list, set, map or tuple
 * (a vector may hold one: Cassandra stores vector<counter, n> values); no
 * duration as a set element or a map key. In CQL text and class names
 * alike. */
static void server_type_rules(void **state)
{
    (void)state;
    static const char *refused[] = {
        "x.Int32Type", "com.example.Int32Type", "org.apache.cassandra.db.Int32Type",
        "org.apache.cassandra.db.marshal.x.Int32Type", ".Int32Type",
        "ListType(x.Int32Type)", "org.apache.cassandra.db.marshal.ListType(y.UTF8Type)",
        "list<counter>", "set<counter>", "map<counter, int>", "map<int, counter>",
        "frozen<list<counter>>", "tuple<int, counter>", "list<frozen<tuple<counter>>>",
        "ListType(CounterColumnType)", "MapType(UTF8Type,CounterColumnType)",
        "TupleType(CounterColumnType)",
        "set<duration>", "frozen<set<duration>>", "map<duration, int>",
        "SetType(DurationType)", "MapType(DurationType,Int32Type)",
        /* class names match exactly: CQL text's any case is not theirs */
        "asciiType", "ASCIIType", "int32Type", "listType(Int32Type)", "UTf8Type", "in_t",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        mote_err e = parse_err(refused[i]);
        if (e != MOTE_ERR_BAD_TYPE) fail_msg("'%s' gave %s", refused[i], mote_err_name(e));
    }
    assert_formats("org.apache.cassandra.db.marshal.Int32Type", "int");
    assert_formats("Int32Type", "int");
    assert_formats("vector<counter, 3>", "vector<counter, 3>");
    assert_formats("list<duration>", "list<duration>");
    assert_formats("map<int, duration>", "map<int, duration>");
    assert_formats("tuple<duration>", "tuple<duration>");
    assert_formats("counter", "counter");
}

/* format() writes canonical CQL that parses back to the same thing. */
static void format_round_trips(void **state)
{
    (void)state;
    assert_formats("LIST<INT>", "list<int>");
    assert_formats("frozen<map<varchar,tuple<int,blob>>>", "frozen<map<text, tuple<int, blob>>>");
    assert_formats("vector<vector<float,2>,3>", "vector<vector<float, 2>, 3>");
    char small[4];
    const mote_cql_type *t = parse_ok("list<int>");
    size_t need = 0;
    assert_int_equal(mote_cql_type_format(t, small, sizeof small, &need), MOTE_ERR_SPACE);
    assert_int_equal(need, 9);
    assert_int_equal(mote_cql_type_format(t, NULL, 0, &need), MOTE_ERR_SPACE);
    assert_int_equal(need, 9);
    assert_int_equal(mote_cql_type_format(NULL, small, sizeof small, &need), MOTE_ERR_INVALID);
    assert_int_equal(need, 0);
    /* hand-built: a collection without children is "list<>"; a chain deeper
     * than MOTE_CQL_MAX_DEPTH is cut off with "<...>" */
    mote_cql_type deep[MOTE_CQL_MAX_DEPTH + 2];
    memset(deep, 0, sizeof deep);
    for (size_t i = 0; i <= MOTE_CQL_MAX_DEPTH; i++) {
        deep[i].kind = MOTE_CQL_LIST;
        deep[i].nsub = 1;
        deep[i].sub = &deep[i + 1];
    }
    deep[MOTE_CQL_MAX_DEPTH + 1].kind = MOTE_CQL_INT;
    char buf[256];
    size_t n = 0;
    mote_cql_type empty = {MOTE_CQL_SET, 0, 0, 0, -1, NULL, NULL};
    assert_int_equal(mote_cql_type_format(&empty, buf, sizeof buf, &n), MOTE_OK);
    assert_int_equal(n, 5);
    assert_memory_equal(buf, "set<>", 5);
    assert_int_equal(mote_cql_type_format(deep, buf, sizeof buf, &n), MOTE_OK);
    char want[256];
    size_t w = 0;
    for (int i = 0; i < MOTE_CQL_MAX_DEPTH; i++) w += (size_t)sprintf(want + w, "list<");
    w += (size_t)sprintf(want + w, "list<...>");
    for (int i = 0; i < MOTE_CQL_MAX_DEPTH; i++) want[w++] = '>';
    assert_int_equal(n, w);
    assert_memory_equal(buf, want, w);
}

/* Bad text is BAD_TYPE, never a partial descriptor. */
static void bad_types_are_rejected(void **state)
{
    (void)state;
    static const char *bad[] = {
        "", " ", "lists<int>", "list<int", "list<int>>", "list<>", "list<int,int>",
        "map<int>", "map<int,int,int>", "vector<float>", "vector<float,0>",
        "vector<float,-1>", "vector<float,2147483648>", "vector<float, 3x>", "int<int>",
        "vector<float,>", "vector<float, >", "vector<float,00>", "VectorType(FloatType,)",
        "tuple<>", "frozen<int", "frozen<ListType(Int32Type)>", "FrozenType<int>",
        "ListType<int>", "list(int)", "int int", "vector<vector<float,65536>,65536>",
        "org.apache.cassandra.db.marshal.Int32Typ", "Set Type(Int32Type)",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mote_err e = parse_err(bad[i]);
        if (e != MOTE_ERR_BAD_TYPE) fail_msg("'%s' gave %s", bad[i], mote_err_name(e));
    }
}

/* Nesting beyond MOTE_CQL_MAX_DEPTH is DEPTH (and stops recursing). */
static void depth_is_limited(void **state)
{
    (void)state;
    char buf[4096];
    size_t n = 0;
    for (int i = 0; i < MOTE_CQL_MAX_DEPTH - 1; i++) n += (size_t)sprintf(buf + n, "list<");
    n += (size_t)sprintf(buf + n, "int");
    for (int i = 0; i < MOTE_CQL_MAX_DEPTH - 1; i++) buf[n++] = '>';
    buf[n] = '\0';
    parse_ok(buf); /* exactly at the limit */
    n = 0;
    for (int i = 0; i < MOTE_CQL_MAX_DEPTH; i++) n += (size_t)sprintf(buf + n, "list<");
    n += (size_t)sprintf(buf + n, "int");
    for (int i = 0; i < MOTE_CQL_MAX_DEPTH; i++) buf[n++] = '>';
    buf[n] = '\0';
    assert_int_equal(parse_err(buf), MOTE_ERR_DEPTH);
    /* A long chain of frozen<> does not recurse, but is still bounded. */
    n = 0;
    for (int i = 0; i < 500; i++) n += (size_t)sprintf(buf + n, "frozen<");
    buf[n] = '\0';
    assert_int_equal(parse_err(buf), MOTE_ERR_DEPTH);
}

/* Too few nodes: SPACE with the count needed; counting mode with NULL. */
static void node_space_is_reported(void **state)
{
    (void)state;
    const char *s = "map<text, tuple<int, bigint>>";
    const mote_cql_type *t = NULL;
    size_t used = 0;
    assert_int_equal(mote_cql_type_parse(s, strlen(s), NULL, 0, &used, &t), MOTE_ERR_SPACE);
    assert_int_equal(used, 5);
    assert_null(t);
    mote_cql_type few[4];
    assert_int_equal(mote_cql_type_parse(s, strlen(s), few, 4, &used, &t), MOTE_ERR_SPACE);
    assert_int_equal(used, 5);
    mote_cql_type enough[5];
    assert_int_equal(mote_cql_type_parse(s, strlen(s), enough, 5, &used, &t), MOTE_OK);
    assert_true(t == &enough[0]);
    assert_int_equal(mote_cql_type_parse(NULL, 3, enough, 5, &used, &t), MOTE_ERR_INVALID);
}

/* Descriptors from an arena take exactly the nodes needed; a full arena is
 * NOMEM, bad text allocates nothing. */
static void arena_parse(void **state)
{
    (void)state;
    static uint8_t block[5 * sizeof(mote_cql_type) + 64];
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    const mote_cql_type *t = NULL;
    const char *s = "map<text, tuple<int, bigint>>";
    assert_int_equal(mote_cql_type_parse_arena(&a, s, strlen(s), &t), MOTE_OK);
    assert_non_null(t);
    assert_int_equal(t->sub->next->nsub, 2);
    mote_arena_stats st;
    mote_arena_get_stats(&a, &st);
    size_t used = st.used;
    assert_true(used >= 5 * sizeof(mote_cql_type));
    assert_int_equal(mote_cql_type_parse_arena(&a, "list<", 5, &t), MOTE_ERR_BAD_TYPE);
    assert_null(t);
    mote_arena_get_stats(&a, &st);
    assert_int_equal(st.used, used);
    assert_int_equal(mote_cql_type_parse_arena(&a, s, strlen(s), &t), MOTE_ERR_NOMEM);
    assert_int_equal(mote_cql_type_parse_arena(NULL, s, strlen(s), &t), MOTE_ERR_INVALID);
}

/* Same type tree, ignoring frozen<> (Cassandra's class names mark only the
 * outermost frozen level; everything inside it is frozen anyway). */
static bool same_tree(const mote_cql_type *a, const mote_cql_type *b)
{
    if (a->kind != b->kind || a->nsub != b->nsub || a->dim != b->dim || a->fixed != b->fixed)
        return false;
    const mote_cql_type *x = a->sub, *y = b->sub;
    for (; x && y; x = x->next, y = y->next) {
        if (!same_tree(x, y)) return false;
    }
    return x == NULL && y == NULL;
}

/* A counter in a list, set, map or tuple (server_type_rules): the clients'
 * golden lines hold a few such types. */
static bool server_refuses(const char *cql)
{
    return strstr(cql, "counter") && !strstr(cql, "vector<counter");
}

/* tests/data/cql_golden_types.tsv (from the golden generator): each CQL type
 * text and Cassandra's marshal class name for it parse to the same type. */
static void golden_type_names_agree(void **state)
{
    (void)state;
    FILE *f = test_data_open("cql_golden_types.tsv", "r");
    static char line[8192];
    size_t lines = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *cql = line, *cls = strchr(line, '\t');
        assert_non_null(cls);
        *cls++ = '\0';
        char *end = strchr(cls, '\t');
        if (end) *end = '\0';
        char a[512], b[512];
        mote_cql_type n2[64];
        const mote_cql_type *ta, *tb;
        if (server_refuses(cql)) { /* clients parse them; the server and mote do not */
            if (parse_err(cql) != MOTE_ERR_BAD_TYPE || parse_err(cls) != MOTE_ERR_BAD_TYPE)
                fail_msg("'%s' / '%s' not refused", cql, cls);
            lines++;
            continue;
        }
        if (mote_cql_type_parse(cql, strlen(cql), nodes, 64, NULL, &ta)) fail_msg("CQL '%s'", cql);
        if (mote_cql_type_parse(cls, strlen(cls), n2, 64, NULL, &tb)) fail_msg("class '%s'", cls);
        size_t la = 0, lb = 0;
        assert_int_equal(mote_cql_type_format(ta, a, sizeof a - 1, &la), MOTE_OK);
        assert_int_equal(mote_cql_type_format(tb, b, sizeof b - 1, &lb), MOTE_OK);
        a[la] = b[lb] = '\0';
        if (!same_tree(ta, tb)) fail_msg("'%s' -> %s but '%s' -> %s", cql, a, cls, b);
        lines++;
    }
    fclose(f);
    assert_true(lines > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(natives_and_fixed_lengths),
        cmocka_unit_test(collections_have_children),
        cmocka_unit_test(marshal_class_names),
        cmocka_unit_test(server_type_rules),
        cmocka_unit_test(format_round_trips),
        cmocka_unit_test(bad_types_are_rejected),
        cmocka_unit_test(depth_is_limited),
        cmocka_unit_test(node_space_is_reported),
        cmocka_unit_test(golden_type_names_agree),
        cmocka_unit_test(arena_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
