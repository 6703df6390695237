// bench_cql.cc - CQL collection codecs against memcpy and a generic path.
//
//   cql/vector_f32_768_{encode,decode}/*    vector<float, 768> (3,072 bytes)
//   cql/vector_f64_1536_{encode,decode}/*   vector<double, 1536> (12,288 bytes)
//   cql/list_i32_1000_{encode,decode}/*     list<int> of 1,000 (8,004 bytes)
//   cql/list_text_100_{encode,decode}/*     list<text> of 100 16-byte strings
//   cql/map_text_bigint_100_{encode,decode}/* map<text, bigint> of 100
// Variants: mote (bulk typed entry points); memcpy (copying the same number
// of encoded bytes: the limit); generic (element by element: the general
// writer for encode, the element iterator plus a scalar load for decode);
// portable (the body kernel forced to the portable loop: what the SIMD
// kernels add; vector<float> and list<int> only).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mote/be.h"
#include "mote/cql.h"
#include "../src/cql_kernels.h" /* private kernels, measured alone */

// Every mote call here is set up to succeed; one that fails would make the
// numbers meaningless, so it stops the program (MOTE_NODISCARD, see common.h).
static inline void must(mote_err e)
{
    if (e != MOTE_OK) std::abort();
}

namespace {

struct Type {
    mote_cql_type nodes[8];
    const mote_cql_type *t = nullptr;
    explicit Type(const char *s)
    {
        if (mote_cql_type_parse(s, std::strlen(s), nodes, 8, nullptr, &t) != MOTE_OK) std::abort();
    }
};

template <class T> std::vector<T> values(size_t n)
{
    std::vector<T> v(n);
    for (size_t i = 0; i < n; i++) v[i] = static_cast<T>(static_cast<double>(i) * 0.37 - 100.0);
    return v;
}

struct Texts {
    std::vector<std::string> s;
    std::vector<mote_view> v;
    explicit Texts(size_t n, const char *prefix)
    {
        for (size_t i = 0; i < n; i++) s.push_back(std::string(prefix) + std::to_string(1000000 + i));
        for (auto &x : s) v.push_back({reinterpret_cast<const uint8_t *>(x.data()), x.size()});
    }
};

void set_bytes(benchmark::State &st, size_t n)
{
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * n));
}

// ---- vectors -------------------------------------------------------------

template <class T, mote_cql_kind Kind, size_t Dim>
void vector_encode_mote(benchmark::State &st)
{
    auto v = values<T>(Dim);
    std::vector<uint8_t> out(Dim * sizeof(T));
    size_t w = 0;
    for (auto _ : st) {
        if (mote_cql_encode_vector(Kind, v.data(), Dim, out.data(), out.size(), &w)) st.SkipWithError("encode");
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, w);
}

template <class T, size_t Dim> void vector_memcpy(benchmark::State &st)
{
    auto v = values<T>(Dim);
    std::vector<uint8_t> out(Dim * sizeof(T));
    for (auto _ : st) {
        std::memcpy(out.data(), v.data(), out.size());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, out.size());
}

template <class T, size_t Dim> void vector_encode_generic(benchmark::State &st, const char *type)
{
    Type ty(type);
    auto v = values<T>(Dim);
    std::vector<uint8_t> out(Dim * sizeof(T));
    size_t w = 0;
    for (auto _ : st) {
        mote_cql_writer wr;
        must(mote_cql_writer_init(&wr, ty.t, out.data(), out.size()));
        mote_cql_write_begin(&wr);
        for (size_t i = 0; i < Dim; i++) mote_cql_write_float(&wr, v[i]);
        mote_cql_write_end(&wr);
        if (mote_cql_writer_finish(&wr, &w)) st.SkipWithError("writer");
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, w);
}

template <class T, mote_cql_kind Kind, size_t Dim> void vector_decode_mote(benchmark::State &st)
{
    auto v = values<T>(Dim);
    std::vector<uint8_t> in(Dim * sizeof(T));
    size_t w;
    must(mote_cql_encode_vector(Kind, v.data(), Dim, in.data(), in.size(), &w));
    std::vector<T> back(Dim);
    for (auto _ : st) {
        if (mote_cql_decode_vector(Kind, in.data(), in.size(), back.data(), Dim)) st.SkipWithError("decode");
        benchmark::DoNotOptimize(back.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, in.size());
}

template <class T, mote_cql_kind Kind, size_t Dim> void vector_decode_generic(benchmark::State &st, const char *type)
{
    Type ty(type);
    auto v = values<T>(Dim);
    std::vector<uint8_t> in(Dim * sizeof(T));
    size_t w;
    must(mote_cql_encode_vector(Kind, v.data(), Dim, in.data(), in.size(), &w));
    std::vector<T> back(Dim);
    for (auto _ : st) {
        mote_cql_iter it;
        must(mote_cql_iter_init(&it, ty.t, in.data(), in.size()));
        mote_cql_value e;
        size_t i = 0;
        while (mote_cql_iter_next(&it, &e)) {
            if (sizeof(T) == 4) {
                float f = mote_be_loadf32(e.ptr);
                std::memcpy(&back[i++], &f, sizeof f);
            } else {
                double d = mote_be_loadf64(e.ptr);
                std::memcpy(&back[i++], &d, sizeof d);
            }
        }
        if (mote_cql_iter_err(&it)) st.SkipWithError("iter");
        benchmark::DoNotOptimize(back.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, in.size());
}

// ---- list<int> -----------------------------------------------------------------

constexpr size_t kList = 1000;

void list_i32_encode_mote(benchmark::State &st)
{
    auto v = values<int32_t>(kList);
    std::vector<uint8_t> out(4 + kList * 8);
    size_t w = 0;
    for (auto _ : st) {
        if (mote_cql_encode_list(MOTE_CQL_INT, v.data(), kList, out.data(), out.size(), &w)) st.SkipWithError("encode");
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, w);
}

void list_i32_memcpy(benchmark::State &st)
{
    std::vector<uint8_t> src(4 + kList * 8, 1), out(4 + kList * 8);
    for (auto _ : st) {
        std::memcpy(out.data(), src.data(), out.size());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, out.size());
}

void list_i32_encode_generic(benchmark::State &st)
{
    Type ty("list<int>");
    auto v = values<int32_t>(kList);
    std::vector<uint8_t> out(4 + kList * 8);
    size_t w = 0;
    for (auto _ : st) {
        mote_cql_writer wr;
        must(mote_cql_writer_init(&wr, ty.t, out.data(), out.size()));
        mote_cql_write_begin(&wr);
        for (size_t i = 0; i < kList; i++) mote_cql_write_int(&wr, v[i]);
        mote_cql_write_end(&wr);
        if (mote_cql_writer_finish(&wr, &w)) st.SkipWithError("writer");
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, w);
}

void list_i32_decode_mote(benchmark::State &st)
{
    auto v = values<int32_t>(kList);
    std::vector<uint8_t> in(4 + kList * 8);
    size_t w, n;
    must(mote_cql_encode_list(MOTE_CQL_INT, v.data(), kList, in.data(), in.size(), &w));
    std::vector<int32_t> back(kList);
    for (auto _ : st) {
        if (mote_cql_decode_list(MOTE_CQL_INT, in.data(), in.size(), back.data(), kList, &n)) st.SkipWithError("decode");
        benchmark::DoNotOptimize(back.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, in.size());
}

void list_i32_decode_generic(benchmark::State &st)
{
    Type ty("list<int>");
    auto v = values<int32_t>(kList);
    std::vector<uint8_t> in(4 + kList * 8);
    size_t w;
    must(mote_cql_encode_list(MOTE_CQL_INT, v.data(), kList, in.data(), in.size(), &w));
    std::vector<int32_t> back(kList);
    for (auto _ : st) {
        mote_cql_iter it;
        must(mote_cql_iter_init(&it, ty.t, in.data(), in.size()));
        mote_cql_value e;
        size_t i = 0;
        while (mote_cql_iter_next(&it, &e)) back[i++] = static_cast<int32_t>(mote_be_load32(e.ptr));
        if (mote_cql_iter_err(&it)) st.SkipWithError("iter");
        benchmark::DoNotOptimize(back.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, in.size());
}

// ---- list<text> and map<text, bigint> ------------------------------------------------

constexpr size_t kText = 100;

void list_text_encode_mote(benchmark::State &st)
{
    Texts t(kText, "sensor-id-");
    size_t need;
    must(mote_cql_list_size(MOTE_CQL_TEXT, t.v.data(), kText, &need));
    std::vector<uint8_t> out(need);
    size_t w = 0;
    for (auto _ : st) {
        if (mote_cql_encode_list(MOTE_CQL_TEXT, t.v.data(), kText, out.data(), out.size(), &w)) st.SkipWithError("encode");
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, w);
}

void list_text_memcpy(benchmark::State &st)
{
    Texts t(kText, "sensor-id-");
    size_t need;
    must(mote_cql_list_size(MOTE_CQL_TEXT, t.v.data(), kText, &need));
    std::vector<uint8_t> src(need, 1), out(need);
    for (auto _ : st) {
        std::memcpy(out.data(), src.data(), need);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, need);
}

void list_text_encode_generic(benchmark::State &st)
{
    Type ty("list<text>");
    Texts t(kText, "sensor-id-");
    size_t need;
    must(mote_cql_list_size(MOTE_CQL_TEXT, t.v.data(), kText, &need));
    std::vector<uint8_t> out(need);
    size_t w = 0;
    for (auto _ : st) {
        mote_cql_writer wr;
        must(mote_cql_writer_init(&wr, ty.t, out.data(), out.size()));
        mote_cql_write_begin(&wr);
        for (auto &x : t.v) mote_cql_write_bytes(&wr, x.ptr, x.len);
        mote_cql_write_end(&wr);
        if (mote_cql_writer_finish(&wr, &w)) st.SkipWithError("writer");
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, w);
}

void list_text_decode_mote(benchmark::State &st)
{
    Texts t(kText, "sensor-id-");
    size_t need, n;
    must(mote_cql_list_size(MOTE_CQL_TEXT, t.v.data(), kText, &need));
    std::vector<uint8_t> in(need);
    must(mote_cql_encode_list(MOTE_CQL_TEXT, t.v.data(), kText, in.data(), need, &need));
    std::vector<mote_view> back(kText);
    for (auto _ : st) {
        if (mote_cql_decode_list(MOTE_CQL_TEXT, in.data(), in.size(), back.data(), kText, &n)) st.SkipWithError("decode");
        benchmark::DoNotOptimize(back.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, in.size());
}

void list_text_decode_generic(benchmark::State &st)
{
    Type ty("list<text>");
    Texts t(kText, "sensor-id-");
    size_t need;
    must(mote_cql_list_size(MOTE_CQL_TEXT, t.v.data(), kText, &need));
    std::vector<uint8_t> in(need);
    must(mote_cql_encode_list(MOTE_CQL_TEXT, t.v.data(), kText, in.data(), need, &need));
    std::vector<mote_view> back(kText);
    for (auto _ : st) {
        mote_cql_iter it;
        must(mote_cql_iter_init(&it, ty.t, in.data(), in.size()));
        mote_cql_value e;
        size_t i = 0;
        while (mote_cql_iter_next(&it, &e)) back[i++] = {e.ptr, e.len};
        if (mote_cql_iter_err(&it)) st.SkipWithError("iter");
        benchmark::DoNotOptimize(back.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, in.size());
}

struct MapData {
    Texts k{kText, "metric."};
    std::vector<int64_t> v = values<int64_t>(kText);
    size_t need = 0;
    MapData() { must(mote_cql_map_size(MOTE_CQL_TEXT, k.v.data(), MOTE_CQL_BIGINT, v.data(), kText, &need)); }
};

void map_encode_mote(benchmark::State &st)
{
    MapData m;
    std::vector<uint8_t> out(m.need);
    size_t w = 0;
    for (auto _ : st) {
        if (mote_cql_encode_map(MOTE_CQL_TEXT, m.k.v.data(), MOTE_CQL_BIGINT, m.v.data(), kText, out.data(),
                                out.size(), &w))
            st.SkipWithError("encode");
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, w);
}

void map_memcpy(benchmark::State &st)
{
    MapData m;
    std::vector<uint8_t> src(m.need, 1), out(m.need);
    for (auto _ : st) {
        std::memcpy(out.data(), src.data(), m.need);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, m.need);
}

void map_encode_generic(benchmark::State &st)
{
    Type ty("map<text, bigint>");
    MapData m;
    std::vector<uint8_t> out(m.need);
    size_t w = 0;
    for (auto _ : st) {
        mote_cql_writer wr;
        must(mote_cql_writer_init(&wr, ty.t, out.data(), out.size()));
        mote_cql_write_begin(&wr);
        for (size_t i = 0; i < kText; i++) {
            mote_cql_write_bytes(&wr, m.k.v[i].ptr, m.k.v[i].len);
            mote_cql_write_int(&wr, m.v[i]);
        }
        mote_cql_write_end(&wr);
        if (mote_cql_writer_finish(&wr, &w)) st.SkipWithError("writer");
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, w);
}

void map_decode_mote(benchmark::State &st)
{
    MapData m;
    std::vector<uint8_t> in(m.need);
    size_t w, n;
    must(mote_cql_encode_map(MOTE_CQL_TEXT, m.k.v.data(), MOTE_CQL_BIGINT, m.v.data(), kText, in.data(), in.size(), &w));
    std::vector<mote_view> kb(kText);
    std::vector<int64_t> vb(kText);
    for (auto _ : st) {
        if (mote_cql_decode_map(MOTE_CQL_TEXT, in.data(), in.size(), kb.data(), MOTE_CQL_BIGINT, vb.data(), kText, &n))
            st.SkipWithError("decode");
        benchmark::DoNotOptimize(kb.data());
        benchmark::DoNotOptimize(vb.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, in.size());
}

void map_decode_generic(benchmark::State &st)
{
    Type ty("map<text, bigint>");
    MapData m;
    std::vector<uint8_t> in(m.need);
    size_t w;
    must(mote_cql_encode_map(MOTE_CQL_TEXT, m.k.v.data(), MOTE_CQL_BIGINT, m.v.data(), kText, in.data(), in.size(), &w));
    std::vector<mote_view> kb(kText);
    std::vector<int64_t> vb(kText);
    for (auto _ : st) {
        mote_cql_iter it;
        must(mote_cql_iter_init(&it, ty.t, in.data(), in.size()));
        mote_cql_value e;
        size_t i = 0;
        while (mote_cql_iter_next(&it, &e)) {
            if (i & 1) vb[i / 2] = static_cast<int64_t>(mote_be_load64(e.ptr));
            else kb[i / 2] = {e.ptr, e.len};
            i++;
        }
        if (mote_cql_iter_err(&it)) st.SkipWithError("iter");
        benchmark::DoNotOptimize(kb.data());
        benchmark::DoNotOptimize(vb.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, in.size());
}

void vec_f32_portable(benchmark::State &st)
{
    auto v = values<float>(768);
    std::vector<uint8_t> out(768 * 4);
    for (auto _ : st) {
        mote__cql_bswap32(out.data(), reinterpret_cast<const uint8_t *>(v.data()), 768, MOTE_CQL_SIMD_PORTABLE);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, out.size());
}

void list_i32_encode_portable(benchmark::State &st)
{
    auto v = values<int32_t>(kList);
    std::vector<uint8_t> out(4 + kList * 8);
    for (auto _ : st) {
        mote_be_store32(out.data(), kList);
        mote__cql_list_put32(out.data() + 4, reinterpret_cast<const uint8_t *>(v.data()), kList,
                             MOTE_CQL_SIMD_PORTABLE);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, out.size());
}

void list_i32_decode_portable(benchmark::State &st)
{
    auto v = values<int32_t>(kList);
    std::vector<uint8_t> in(4 + kList * 8);
    size_t w;
    must(mote_cql_encode_list(MOTE_CQL_INT, v.data(), kList, in.data(), in.size(), &w));
    std::vector<int32_t> back(kList);
    for (auto _ : st) {
        if (!mote__cql_list_get32(reinterpret_cast<uint8_t *>(back.data()), in.data() + 4, kList,
                                  MOTE_CQL_SIMD_PORTABLE))
            st.SkipWithError("decode");
        benchmark::DoNotOptimize(back.data());
        benchmark::ClobberMemory();
    }
    set_bytes(st, in.size());
}

void vec_f32_encode_generic(benchmark::State &st) { vector_encode_generic<float, 768>(st, "vector<float, 768>"); }
void vec_f32_decode_generic(benchmark::State &st)
{
    vector_decode_generic<float, MOTE_CQL_FLOAT, 768>(st, "vector<float, 768>");
}
void vec_f64_encode_generic(benchmark::State &st) { vector_encode_generic<double, 1536>(st, "vector<double, 1536>"); }
void vec_f64_decode_generic(benchmark::State &st)
{
    vector_decode_generic<double, MOTE_CQL_DOUBLE, 1536>(st, "vector<double, 1536>");
}

}  // namespace

BENCHMARK((vector_encode_mote<float, MOTE_CQL_FLOAT, 768>))->Name("cql/vector_f32_768_encode/mote");
BENCHMARK(vector_memcpy<float, 768>)->Name("cql/vector_f32_768_encode/memcpy");
BENCHMARK(vec_f32_encode_generic)->Name("cql/vector_f32_768_encode/generic");
BENCHMARK(vec_f32_portable)->Name("cql/vector_f32_768_encode/portable");
BENCHMARK(vector_decode_mote<float, MOTE_CQL_FLOAT, 768>)->Name("cql/vector_f32_768_decode/mote");
BENCHMARK(vector_memcpy<float, 768>)->Name("cql/vector_f32_768_decode/memcpy");
BENCHMARK(vec_f32_decode_generic)->Name("cql/vector_f32_768_decode/generic");
BENCHMARK(vec_f32_portable)->Name("cql/vector_f32_768_decode/portable");

BENCHMARK(vector_encode_mote<double, MOTE_CQL_DOUBLE, 1536>)->Name("cql/vector_f64_1536_encode/mote");
BENCHMARK(vector_memcpy<double, 1536>)->Name("cql/vector_f64_1536_encode/memcpy");
BENCHMARK(vec_f64_encode_generic)->Name("cql/vector_f64_1536_encode/generic");
BENCHMARK(vector_decode_mote<double, MOTE_CQL_DOUBLE, 1536>)->Name("cql/vector_f64_1536_decode/mote");
BENCHMARK(vector_memcpy<double, 1536>)->Name("cql/vector_f64_1536_decode/memcpy");
BENCHMARK(vec_f64_decode_generic)->Name("cql/vector_f64_1536_decode/generic");

BENCHMARK(list_i32_encode_mote)->Name("cql/list_i32_1000_encode/mote");
BENCHMARK(list_i32_memcpy)->Name("cql/list_i32_1000_encode/memcpy");
BENCHMARK(list_i32_encode_generic)->Name("cql/list_i32_1000_encode/generic");
BENCHMARK(list_i32_encode_portable)->Name("cql/list_i32_1000_encode/portable");
BENCHMARK(list_i32_decode_mote)->Name("cql/list_i32_1000_decode/mote");
BENCHMARK(list_i32_memcpy)->Name("cql/list_i32_1000_decode/memcpy");
BENCHMARK(list_i32_decode_generic)->Name("cql/list_i32_1000_decode/generic");
BENCHMARK(list_i32_decode_portable)->Name("cql/list_i32_1000_decode/portable");

BENCHMARK(list_text_encode_mote)->Name("cql/list_text_100_encode/mote");
BENCHMARK(list_text_memcpy)->Name("cql/list_text_100_encode/memcpy");
BENCHMARK(list_text_encode_generic)->Name("cql/list_text_100_encode/generic");
BENCHMARK(list_text_decode_mote)->Name("cql/list_text_100_decode/mote");
BENCHMARK(list_text_memcpy)->Name("cql/list_text_100_decode/memcpy");
BENCHMARK(list_text_decode_generic)->Name("cql/list_text_100_decode/generic");

BENCHMARK(map_encode_mote)->Name("cql/map_text_bigint_100_encode/mote");
BENCHMARK(map_memcpy)->Name("cql/map_text_bigint_100_encode/memcpy");
BENCHMARK(map_encode_generic)->Name("cql/map_text_bigint_100_encode/generic");
BENCHMARK(map_decode_mote)->Name("cql/map_text_bigint_100_decode/mote");
BENCHMARK(map_memcpy)->Name("cql/map_text_bigint_100_decode/memcpy");
BENCHMARK(map_decode_generic)->Name("cql/map_text_bigint_100_decode/generic");

BENCHMARK_MAIN();
