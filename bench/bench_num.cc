// bench_num.cc - mote/num.h against libc and the C++ standard library.
//
//   num/parse_telemetry/*  short decimals as telemetry carries them
//   num/parse_17digit/*    shortest round-trip strings of random doubles
//                          (16-17 digits: the Eisel-Lemire-style path)
//   num/parse_int/*        int64 fields
//   num/format_telemetry/* shortest formatting of telemetry-like values
//   num/format_random/*    shortest formatting of random doubles
// Variants: mote; strtod / strtoll (libc, C locale); from_chars / to_chars
// (libstdc++); snprintf17 ("%.17g": round-trips but not shortest); naive
// (snprintf "%.{1..17}g" + strtod until it round-trips: the obvious way to
// get the shortest digits with libc).
#include <benchmark/benchmark.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mote/num.h"

namespace {

std::vector<std::string> telemetry_strings()
{
    static const char *base[] = {
        "12.5",     "0.000123", "98765.4321", "-1.5e-7", "23.7",   "0.5",     "100",
        "-40.25",   "3.3",      "1013.25",    "0.98",    "65.2",   "1e-3",    "42",
        "12345.678", "0.01",    "-0.75",      "7.125",   "99.9",   "2.5e6",   "0.333",
        "1500.0",   "18.75",    "-3.14159",   "271.8",   "0.0625", "6.02e23", "1.0",
    };
    std::vector<std::string> v;
    for (const char *s : base) v.emplace_back(s);
    return v;
}

uint64_t xorshift(uint64_t &x)
{
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
}

std::vector<double> random_doubles(size_t n)
{
    std::vector<double> v;
    uint64_t x = 0x9E3779B97F4A7C15u;
    while (v.size() < n) {
        uint64_t b = xorshift(x) & 0x7FEFFFFFFFFFFFFFu;
        double d;
        std::memcpy(&d, &b, sizeof d);
        if (d != 0) v.push_back(d);
    }
    return v;
}

std::vector<std::string> shortest_strings(const std::vector<double> &v)
{
    std::vector<std::string> out;
    for (double d : v) {
        char buf[MOTE_NUM_F64_MAX];
        size_t n = 0;
        if (mote_num_format_f64(d, buf, sizeof buf, &n) != MOTE_OK) std::abort();
        out.emplace_back(buf, n);
    }
    return out;
}

std::vector<double> telemetry_doubles()
{
    std::vector<double> v;
    for (const auto &s : telemetry_strings()) v.push_back(std::strtod(s.c_str(), nullptr));
    return v;
}

size_t total_bytes(const std::vector<std::string> &v)
{
    size_t n = 0;
    for (const auto &s : v) n += s.size();
    return n;
}

// ---- parsing ----

void parse_mote(benchmark::State &st, const std::vector<std::string> &in)
{
    for (auto _ : st) {
        for (const auto &s : in) {
            double d;
            mote_err e = mote_num_parse_f64(reinterpret_cast<const uint8_t *>(s.data()), s.size(), &d);
            benchmark::DoNotOptimize(e);
            benchmark::DoNotOptimize(d);
        }
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(total_bytes(in)));
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(in.size()));
}

void parse_strtod(benchmark::State &st, const std::vector<std::string> &in)
{
    for (auto _ : st) {
        for (const auto &s : in) {
            double d = std::strtod(s.c_str(), nullptr);
            benchmark::DoNotOptimize(d);
        }
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(total_bytes(in)));
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(in.size()));
}

#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
#define HAVE_FP_CHARCONV 1
void parse_from_chars(benchmark::State &st, const std::vector<std::string> &in)
{
    for (auto _ : st) {
        for (const auto &s : in) {
            double d;
            auto r = std::from_chars(s.data(), s.data() + s.size(), d);
            benchmark::DoNotOptimize(r);
            benchmark::DoNotOptimize(d);
        }
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(total_bytes(in)));
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(in.size()));
}
#endif

const std::vector<std::string> &tele_in()
{
    static const std::vector<std::string> v = telemetry_strings();
    return v;
}

const std::vector<std::string> &d17_in()
{
    static const std::vector<std::string> v = shortest_strings(random_doubles(1000));
    return v;
}

void BM_parse_tele_mote(benchmark::State &st) { parse_mote(st, tele_in()); }
void BM_parse_tele_strtod(benchmark::State &st) { parse_strtod(st, tele_in()); }
void BM_parse_d17_mote(benchmark::State &st) { parse_mote(st, d17_in()); }
void BM_parse_d17_strtod(benchmark::State &st) { parse_strtod(st, d17_in()); }
BENCHMARK(BM_parse_tele_mote)->Name("num/parse_telemetry/mote");
BENCHMARK(BM_parse_tele_strtod)->Name("num/parse_telemetry/strtod");
BENCHMARK(BM_parse_d17_mote)->Name("num/parse_17digit/mote");
BENCHMARK(BM_parse_d17_strtod)->Name("num/parse_17digit/strtod");
#ifdef HAVE_FP_CHARCONV
void BM_parse_tele_fc(benchmark::State &st) { parse_from_chars(st, tele_in()); }
void BM_parse_d17_fc(benchmark::State &st) { parse_from_chars(st, d17_in()); }
BENCHMARK(BM_parse_tele_fc)->Name("num/parse_telemetry/from_chars");
BENCHMARK(BM_parse_d17_fc)->Name("num/parse_17digit/from_chars");
#endif

const std::vector<std::string> &int_in()
{
    static const std::vector<std::string> v = [] {
        std::vector<std::string> r;
        uint64_t x = 12345;
        for (int i = 0; i < 256; i++) {
            int64_t val = int64_t(xorshift(x) >> (xorshift(x) % 64)) * ((i & 1) ? -1 : 1);
            r.push_back(std::to_string(val));
        }
        return r;
    }();
    return v;
}

void BM_parse_int_mote(benchmark::State &st)
{
    const auto &in = int_in();
    for (auto _ : st) {
        for (const auto &s : in) {
            int64_t v;
            mote_err e = mote_num_parse_i64(reinterpret_cast<const uint8_t *>(s.data()), s.size(), &v);
            benchmark::DoNotOptimize(e);
            benchmark::DoNotOptimize(v);
        }
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(total_bytes(in)));
}

void BM_parse_int_strtoll(benchmark::State &st)
{
    const auto &in = int_in();
    for (auto _ : st) {
        for (const auto &s : in) {
            long long v = std::strtoll(s.c_str(), nullptr, 10);
            benchmark::DoNotOptimize(v);
        }
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(total_bytes(in)));
}
BENCHMARK(BM_parse_int_mote)->Name("num/parse_int/mote");
BENCHMARK(BM_parse_int_strtoll)->Name("num/parse_int/strtoll");

// ---- formatting ----

const std::vector<double> &tele_vals()
{
    static const std::vector<double> v = telemetry_doubles();
    return v;
}

const std::vector<double> &rand_vals()
{
    static const std::vector<double> v = random_doubles(1000);
    return v;
}

void format_mote(benchmark::State &st, const std::vector<double> &in)
{
    char buf[MOTE_NUM_F64_MAX];
    size_t bytes = 0;
    for (auto _ : st) {
        for (double d : in) {
            size_t n = 0;
            mote_err e = mote_num_format_f64(d, buf, sizeof buf, &n);
            benchmark::DoNotOptimize(e);
            bytes += n;
            benchmark::DoNotOptimize(buf);
        }
    }
    st.SetBytesProcessed(int64_t(bytes));
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(in.size()));
}

void format_snprintf17(benchmark::State &st, const std::vector<double> &in)
{
    char buf[32];
    size_t bytes = 0;
    for (auto _ : st) {
        for (double d : in) {
            int n = std::snprintf(buf, sizeof buf, "%.17g", d);
            bytes += size_t(n);
            benchmark::DoNotOptimize(buf);
        }
    }
    st.SetBytesProcessed(int64_t(bytes));
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(in.size()));
}

void format_naive(benchmark::State &st, const std::vector<double> &in)
{
    char buf[32];
    size_t bytes = 0;
    for (auto _ : st) {
        for (double d : in) {
            int n = 0;
            for (int p = 1; p <= 17; p++) {
                n = std::snprintf(buf, sizeof buf, "%.*g", p, d);
                if (std::strtod(buf, nullptr) == d) break;
            }
            bytes += size_t(n);
            benchmark::DoNotOptimize(buf);
        }
    }
    st.SetBytesProcessed(int64_t(bytes));
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(in.size()));
}

#ifdef HAVE_FP_CHARCONV
void format_to_chars(benchmark::State &st, const std::vector<double> &in)
{
    char buf[32];
    size_t bytes = 0;
    for (auto _ : st) {
        for (double d : in) {
            auto r = std::to_chars(buf, buf + sizeof buf, d);
            bytes += size_t(r.ptr - buf);
            benchmark::DoNotOptimize(buf);
        }
    }
    st.SetBytesProcessed(int64_t(bytes));
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(in.size()));
}
#endif

void BM_fmt_tele_mote(benchmark::State &st) { format_mote(st, tele_vals()); }
void BM_fmt_tele_s17(benchmark::State &st) { format_snprintf17(st, tele_vals()); }
void BM_fmt_tele_naive(benchmark::State &st) { format_naive(st, tele_vals()); }
void BM_fmt_rand_mote(benchmark::State &st) { format_mote(st, rand_vals()); }
void BM_fmt_rand_s17(benchmark::State &st) { format_snprintf17(st, rand_vals()); }
void BM_fmt_rand_naive(benchmark::State &st) { format_naive(st, rand_vals()); }
BENCHMARK(BM_fmt_tele_mote)->Name("num/format_telemetry/mote");
BENCHMARK(BM_fmt_tele_s17)->Name("num/format_telemetry/snprintf17");
BENCHMARK(BM_fmt_tele_naive)->Name("num/format_telemetry/naive");
BENCHMARK(BM_fmt_rand_mote)->Name("num/format_random/mote");
BENCHMARK(BM_fmt_rand_s17)->Name("num/format_random/snprintf17");
BENCHMARK(BM_fmt_rand_naive)->Name("num/format_random/naive");
#ifdef HAVE_FP_CHARCONV
void BM_fmt_tele_tc(benchmark::State &st) { format_to_chars(st, tele_vals()); }
void BM_fmt_rand_tc(benchmark::State &st) { format_to_chars(st, rand_vals()); }
BENCHMARK(BM_fmt_tele_tc)->Name("num/format_telemetry/to_chars");
BENCHMARK(BM_fmt_rand_tc)->Name("num/format_random/to_chars");
#endif

} // namespace

int main(int argc, char **argv)
{
    // MOTE_NUM_BENCH_DUMP=DIR writes the rows' inputs (bench/counts.py counts
    // num's instructions on them): DIR/parse_{telemetry,17digit,int}.txt one
    // text a line, DIR/format_{telemetry,random}.txt one double a line as the
    // 16 hex digits of its bits.
    if (const char *dir = getenv("MOTE_NUM_BENCH_DUMP")) {
        const std::vector<std::string> *texts[] = {&tele_in(), &d17_in(), &int_in()};
        const char *tnames[] = {"parse_telemetry", "parse_17digit", "parse_int"};
        for (int k = 0; k < 3; k++) {
            FILE *f = fopen((std::string(dir) + "/" + tnames[k] + ".txt").c_str(), "w");
            if (!f) return 1;
            for (const auto &t : *texts[k]) fprintf(f, "%s\n", t.c_str());
            if (fclose(f) != 0) return 1;
        }
        const std::vector<double> *vals[] = {&tele_vals(), &rand_vals()};
        const char *vnames[] = {"format_telemetry", "format_random"};
        for (int k = 0; k < 2; k++) {
            FILE *f = fopen((std::string(dir) + "/" + vnames[k] + ".txt").c_str(), "w");
            if (!f) return 1;
            for (double d : *vals[k]) {
                uint64_t b;
                std::memcpy(&b, &d, sizeof b);
                fprintf(f, "%016llx\n", (unsigned long long)b);
            }
            if (fclose(f) != 0) return 1;
        }
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
