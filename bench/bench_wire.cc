// bench_wire.cc - the CQL v4 client module: request encoding and response
// parsing, per row.
//
//   wire/execute_5/*        one EXECUTE frame for a 5-value row (text
//                           measurement, frozen<map<text,text>> tags already
//                           encoded, timestamp, double, bigint): header,
//                           prepared id, parameters, values, stream id taken
//                           and given back. Target: >= 10 M rows/s.
//   wire/batch_100x5/*      an unlogged BATCH of 100 such rows (per row)
//   wire/rows_100x5_parse/* a RESULT Rows frame of 100 rows x 5 columns:
//                           parse (every length checked) and visit every cell
//   wire/token_16/*         Murmur3 token of a 16-byte partition key
// Variants: mote; memcpy (copying the finished frame's bytes: the limit of
// any encoder that writes them).
// Items are rows: items_per_second is rows/s, time per iteration / rows in
// it is ns/row.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "mote/be.h"
#include "mote/cql.h"
#include "mote/wire.h"

namespace {

struct Row {
    uint8_t meas[8];
    std::vector<uint8_t> tags;
    uint8_t ts[8], val[8], n[8];
    Row()
    {
        std::memcpy(meas, "cpu_load", 8);
        mote_view k[2] = {{(const uint8_t *)"host", 4}, {(const uint8_t *)"region", 6}};
        mote_view v[2] = {{(const uint8_t *)"server01", 8}, {(const uint8_t *)"eu-west", 7}};
        size_t sz = 0;
        if (mote_cql_map_size(MOTE_CQL_TEXT, k, MOTE_CQL_TEXT, v, 2, &sz) != MOTE_OK) std::abort();
        tags.resize(sz);
        size_t wrote = 0;
        if (mote_cql_encode_map(MOTE_CQL_TEXT, k, MOTE_CQL_TEXT, v, 2, tags.data(), sz, &wrote) != MOTE_OK) std::abort();
        mote_be_store64(ts, 1700000000000ull);
        mote_be_storef64(val, 0.64);
        mote_be_store64(n, 42);
    }
};

const uint8_t prepared_id[16] = {0x8f, 0x12, 0x33, 0x41, 0x09, 0xaa, 0x10, 0x52,
                                 0x77, 0x01, 0xc3, 0x9e, 0x20, 0x4d, 0x66, 0xf0};

struct Conn {
    mote_wire_slot slots[64];
    uint8_t rx[256];
    mote_wire w;
    Conn() { reset(); }
    void reset()
    {
        if (mote_wire_init(&w, slots, 64, rx, sizeof rx) != MOTE_OK) std::abort();
    }
    // What the responses do: the stream ids come back. (mote_wire_release
    // would orphan them until a response came: a new context instead, every
    // 64 requests.)
    void answered()
    {
        if (mote_wire_inflight(&w) == 64) reset();
    }
};

inline void add_values(mote_wire_req *r, const Row &row)
{
    mote_wire_value(r, row.meas, sizeof row.meas);
    mote_wire_value(r, row.tags.data(), row.tags.size());
    mote_wire_value(r, row.ts, 8);
    mote_wire_value(r, row.val, 8);
    mote_wire_value(r, row.n, 8);
}

void execute_5_mote(benchmark::State &st)
{
    Row row;
    Conn c;
    static uint8_t mem[1 << 16];
    mote_buf out;
    if (mote_buf_init_fixed(&out, mem, sizeof mem) != MOTE_OK) std::abort();
    mote_wire_params p{};
    p.consistency = MOTE_WIRE_LOCAL_ONE;
    for (auto _ : st) {
        if (out.len > sizeof mem - 256) mote_buf_clear(&out);
        mote_wire_req r;
        int s;
        if (mote_wire_execute_begin(&r, &c.w, &out, 1, prepared_id, sizeof prepared_id, &p) != MOTE_OK)
            std::abort();
        add_values(&r, row);
        if (mote_wire_end(&r, &s) != MOTE_OK) std::abort();
        c.answered();
    }
    benchmark::DoNotOptimize(mem);
    st.SetItemsProcessed(static_cast<int64_t>(st.iterations()));
}

void execute_5_memcpy(benchmark::State &st)
{
    Row row;
    Conn c;
    static uint8_t mem[1 << 16];
    mote_buf out;
    if (mote_buf_init_fixed(&out, mem, sizeof mem) != MOTE_OK) std::abort();
    mote_wire_params p{};
    p.consistency = MOTE_WIRE_LOCAL_ONE;
    mote_wire_req r;
    if (mote_wire_execute_begin(&r, &c.w, &out, 1, prepared_id, sizeof prepared_id, &p) != MOTE_OK)
        std::abort();
    add_values(&r, row);
    if (mote_wire_end(&r, nullptr) != MOTE_OK) std::abort();
    std::vector<uint8_t> frame(mem, mem + out.len);
    static uint8_t dst[1 << 16];
    size_t at = 0;
    for (auto _ : st) {
        if (at > sizeof dst - 256) at = 0;
        std::memcpy(dst + at, frame.data(), frame.size());
        at += frame.size();
        benchmark::ClobberMemory();
    }
    benchmark::DoNotOptimize(dst);
    st.SetItemsProcessed(static_cast<int64_t>(st.iterations()));
}

void batch_100x5_mote(benchmark::State &st)
{
    Row row;
    Conn c;
    static uint8_t mem[1 << 16];
    mote_buf out;
    if (mote_buf_init_fixed(&out, mem, sizeof mem) != MOTE_OK) std::abort();
    mote_wire_params p{};
    p.consistency = MOTE_WIRE_LOCAL_ONE;
    for (auto _ : st) {
        mote_buf_clear(&out);
        mote_wire_req r;
        int s;
        if (mote_wire_batch_begin(&r, &c.w, &out, 1, MOTE_WIRE_BATCH_UNLOGGED, &p) != MOTE_OK) std::abort();
        for (int i = 0; i < 100; i++) {
            mote_wire_batch_prepared(&r, prepared_id, sizeof prepared_id);
            add_values(&r, row);
        }
        if (mote_wire_end(&r, &s) != MOTE_OK) std::abort();
        c.answered();
    }
    benchmark::DoNotOptimize(mem);
    st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * 100));
}

// A Rows response of 100 rows of the 5 columns above.
std::vector<uint8_t> rows_frame()
{
    Row row;
    std::vector<uint8_t> b;
    auto u16 = [&](uint16_t v) { b.push_back(uint8_t(v >> 8)); b.push_back(uint8_t(v)); };
    auto i32 = [&](int32_t v) { for (int k = 3; k >= 0; k--) b.push_back(uint8_t(uint32_t(v) >> (8 * k))); };
    auto str = [&](const char *s) { u16(uint16_t(std::strlen(s))); b.insert(b.end(), s, s + std::strlen(s)); };
    auto bytes = [&](const uint8_t *p, size_t n) { i32(int32_t(n)); b.insert(b.end(), p, p + n); };
    b.insert(b.end(), {0x84, 0, 0, 0, MOTE_WIRE_RESULT, 0, 0, 0, 0});
    i32(MOTE_WIRE_RESULT_ROWS);
    i32(MOTE_WIRE_META_GLOBAL_SPEC);
    i32(5);
    str("metrics");
    str("lp");
    str("measurement"); u16(0x000D);
    str("tags"); u16(0x0021); u16(0x000D); u16(0x000D);
    str("time"); u16(0x000B);
    str("value"); u16(0x0007);
    str("n"); u16(0x0002);
    i32(100);
    for (int i = 0; i < 100; i++) {
        bytes(row.meas, 8);
        bytes(row.tags.data(), row.tags.size());
        bytes(row.ts, 8);
        bytes(row.val, 8);
        bytes(row.n, 8);
    }
    mote_be_store32(b.data() + 5, uint32_t(b.size() - 9));
    return b;
}

void rows_100x5_parse_mote(benchmark::State &st)
{
    std::vector<uint8_t> fr = rows_frame();
    mote_wire_frame f{};
    f.opcode = MOTE_WIRE_RESULT;
    f.body.ptr = fr.data() + 9;
    f.body.len = fr.size() - 9;
    for (auto _ : st) {
        mote_wire_result r;
        if (mote_wire_parse_result(&f, &r) != MOTE_OK) std::abort();
        mote_wire_cells cells;
        if (mote_wire_cells_init(&cells, &r) != MOTE_OK) std::abort();
        mote_view v;
        size_t sum = 0;
        while (mote_wire_cell_next(&cells, &v, nullptr, nullptr)) sum += v.len;
        benchmark::DoNotOptimize(sum);
    }
    st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * 100));
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * fr.size()));
}

void token_16_mote(benchmark::State &st)
{
    uint8_t key[16];
    for (int i = 0; i < 16; i++) key[i] = uint8_t(i * 37);
    for (auto _ : st) {
        key[0]++;
        benchmark::DoNotOptimize(mote_wire_token(key, sizeof key));
    }
    st.SetItemsProcessed(static_cast<int64_t>(st.iterations()));
}

}  // namespace

BENCHMARK(execute_5_mote)->Name("wire/execute_5/mote");
BENCHMARK(execute_5_memcpy)->Name("wire/execute_5/memcpy");
BENCHMARK(batch_100x5_mote)->Name("wire/batch_100x5/mote");
BENCHMARK(rows_100x5_parse_mote)->Name("wire/rows_100x5_parse/mote");
BENCHMARK(token_16_mote)->Name("wire/token_16/mote");

BENCHMARK_MAIN();
