// bench_scan.cc - the streaming scanner against its limits and baselines.
//
// Cases (inputs generated here, deterministic):
//   dump   a mysqldump-like script: DROP/CREATE TABLE, LOCK, multi-row
//          INSERTs of ~64 KiB per statement with strings, escapes, numbers,
//          dates and NULLs; ~8 MiB, fed in 64 KiB chunks.
//   quotes a quote-dense script: short statements made mostly of short
//          quoted strings with escapes and doubled quotes; ~4 MiB.
//   big    one 4.9 MB statement fed in 4 KiB chunks (the motivating case).
//   records a record stream for the `lines` dialect: line-protocol-like
//          records with quoted strings, escapes and now and then a raw
//          newline inside quotes; ~4 MiB in 64 KiB chunks.
//   pgdump a pg_dump plain script (postgres dialect): SET statements,
//          CREATE TABLE, COPY ... FROM stdin blocks of tab-separated rows
//          with \N and backslash escapes, each row a token; ~8 MiB in
//          64 KiB chunks.
//   pginserts a pg_dump --inserts script (postgres dialect): one INSERT per
//          row, standard strings with '' and text backslashes; ~8 MiB in
//          64 KiB chunks.
// Variants:
//   mote             mote_scanner, mysql dialect (lines, postgres where said)
//   portable         the same scanner built with MOTE_NO_SIMD (the portable_scan
//                    copy of tests/copies/meson.build):
//                    the portable C path, where "mote" may use SSE2
//   memchr           memchr for ';' ('\n' for records, pgdump and pginserts) over the same bytes:
//                    the physical limit
//   rescan           the motivating case's "before": on every 4 KiB chunk the
//                    split re-runs over the whole buffered text from its start
//   byteloop         (records only) the hand-written splitter: one pass, a
//                    quote flag and an escape flag per byte
//   sqlite3_complete (dump only) the sqlite3 shell's loop: append a line,
//                    call sqlite3_complete() on the buffer when it has a ';'
// Counter bytes_examined: bytes the variant looked at per pass over the input.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#ifdef MOTE_HAVE_SQLITE // set by bench/meson.build when libsqlite3 is found
#include <sqlite3.h>
#define HAVE_SQLITE 1
#endif

extern "C" {
#include "mote/arena.h"
#include "mote/scan.h"

// Every mote call here is set up to succeed; one that fails would make the
// numbers meaningless, so it stops the program (MOTE_NODISCARD, see common.h).
static inline void must(mote_err e)
{
    if (e != MOTE_OK) std::abort();
}
// scan.c again with MOTE_NO_SIMD, its names prefixed (tests/copies/meson.build)
#include "portable_scan.h"
}

namespace {

struct Rng {
    uint64_t s = 0x9e3779b97f4a7c15ull;
    uint32_t next()
    {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return (uint32_t)(s >> 11);
    }
};

const char *const words[] = {"alpha", "beta", "gamma''s", "delta", "O\\'Brien", "x;y",
                             "line\\nbreak", "tab\\there", "quote \\\"q\\\"", "zeta"};

std::string gen_dump()
{
    Rng r;
    std::string s;
    s += "-- MySQL dump 10.13  Distrib 8.0.36\n/*!40101 SET NAMES utf8mb4 */;\n";
    for (int t = 0; s.size() < (8u << 20); t++) {
        char head[512];
        snprintf(head, sizeof head,
                 "\nDROP TABLE IF EXISTS `t%d`;\n"
                 "CREATE TABLE `t%d` (\n  `id` int NOT NULL,\n  `name` varchar(64) DEFAULT NULL,\n"
                 "  `price` decimal(10,2),\n  `created` datetime,\n  PRIMARY KEY (`id`)\n"
                 ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n"
                 "LOCK TABLES `t%d` WRITE;\n",
                 t, t, t);
        s += head;
        for (int stmt = 0; stmt < 16; stmt++) {
            s += "INSERT INTO `t" + std::to_string(t) + "` VALUES ";
            size_t start = s.size();
            for (int row = 0; s.size() - start < 65536; row++) {
                char buf[256];
                snprintf(buf, sizeof buf, "%s(%u,'%s %u',%u.%02u,'2024-%02u-%02u 12:%02u:00',%s)",
                         row ? "," : "", r.next() % 1000000, words[r.next() % 10], r.next() % 1000,
                         r.next() % 10000, r.next() % 100, 1 + r.next() % 12, 1 + r.next() % 28,
                         r.next() % 60, (r.next() % 5) ? "NULL" : "'note'");
                s += buf;
            }
            s += ";\n";
        }
        s += "UNLOCK TABLES;\n";
    }
    return s;
}

std::string gen_quotes()
{
    Rng r;
    std::string s;
    while (s.size() < (4u << 20)) {
        s += "select ";
        int n = 1 + (int)(r.next() % 12);
        for (int i = 0; i < n; i++) {
            switch (r.next() % 4) {
            case 0: s += "'a;b',"; break;
            case 1: s += "'it''s',"; break;
            case 2: s += "\"x\\\"y\","; break;
            default: s += "`c;d`,"; break;
            }
        }
        s += "'';\n";
    }
    return s;
}

std::string gen_big()
{
    Rng r;
    std::string s = "INSERT INTO blobs VALUES ";
    while (s.size() < 4900000) {
        char buf[96];
        snprintf(buf, sizeof buf, "(%u,'%08x%08x;%08x'),", r.next(), r.next(), r.next(), r.next());
        s += buf;
    }
    s += "(0,'');\n";
    return s;
}

std::string gen_records()
{
    Rng r;
    std::string s;
    static const char *const msgs[] = {"ok", "disk \\\"data 1\\\" is 58% full", "retry, then fail",
                                       "two\nlines", "path C:\\\\tmp", "plain text message"};
    while (s.size() < (4u << 20)) {
        char buf[256];
        snprintf(buf, sizeof buf,
                 "syslog,host=web-%02u,severity=%s code=%ui,msg=\"%s\",pid=%ui %u%09u\n",
                 r.next() % 50, (r.next() % 3) ? "info" : "warning", r.next() % 1000,
                 msgs[r.next() % 6], r.next() % 65536, 1700000000u + r.next() % 1000,
                 r.next() % 1000000000u);
        s += buf;
    }
    return s;
}

std::string gen_pgdump()
{
    Rng r;
    std::string s = "--\n-- PostgreSQL database dump\n--\n\n\\restrict k3y\n\n"
                    "SET statement_timeout = 0;\nSET client_encoding = 'UTF8';\n"
                    "SET standard_conforming_strings = on;\n"
                    "SELECT pg_catalog.set_config('search_path', '', false);\n";
    static const char *const texts[] = {"alpha", "it's", "tab\\there", "back\\\\slash", "\\N",
                                        "line\\nbreak", "O'Brien; x", "zeta"};
    for (int t = 0; s.size() < (8u << 20); t++) {
        char head[512];
        snprintf(head, sizeof head,
                 "\n--\n-- Name: t%d; Type: TABLE; Schema: public; Owner: u\n--\n\n"
                 "CREATE TABLE public.t%d (\n    id integer NOT NULL,\n    name text,\n"
                 "    price numeric(10,2),\n    created timestamp without time zone\n);\n\n"
                 "COPY public.t%d (id, name, price, created) FROM stdin;\n",
                 t, t, t);
        s += head;
        for (int row = 0; row < 4000; row++) {
            char buf[256];
            snprintf(buf, sizeof buf, "%u\t%s %u\t%u.%02u\t2024-%02u-%02u 12:%02u:00\n",
                     r.next() % 1000000, texts[r.next() % 8], r.next() % 1000, r.next() % 10000,
                     r.next() % 100, 1 + r.next() % 12, 1 + r.next() % 28, r.next() % 60);
            s += buf;
        }
        s += "\\.\n\n";
    }
    s += "\\unrestrict k3y\n";
    return s;
}

// pg_dump --inserts: one INSERT per row (standard strings, '' inside them,
// backslashes as text), the statement text the postgres dialect reads.
std::string gen_pginserts()
{
    Rng r;
    std::string s = "SET standard_conforming_strings = on;\n";
    static const char *const texts[] = {"alpha", "it''s", "tab\\there", "O''Brien; x", "zeta",
                                        "line one", "caf\xc3\xa9", "$1.50"};
    for (int t = 0; s.size() < (8u << 20); t++) {
        char head[128];
        snprintf(head, sizeof head, "\n--\n-- Data for Name: t%d; Type: TABLE DATA\n--\n\n", t);
        s += head;
        for (int row = 0; row < 4000; row++) {
            char buf[256];
            snprintf(buf, sizeof buf,
                     "INSERT INTO public.t%d VALUES (%u, '%s %u', %u.%02u, '2024-%02u-%02u 12:%02u:00');\n", t,
                     r.next() % 1000000, texts[r.next() % 8], r.next() % 1000, r.next() % 10000, r.next() % 100,
                     1 + r.next() % 12, 1 + r.next() % 28, r.next() % 60);
            s += buf;
        }
    }
    return s;
}

const std::string &input(int which)
{
    static const std::string dump = gen_dump();
    static const std::string quotes = gen_quotes();
    static const std::string big = gen_big();
    static const std::string records = gen_records();
    static const std::string pgdump = gen_pgdump();
    static const std::string pginserts = gen_pginserts();
    return which == 0 ? dump : which == 1 ? quotes : which == 2 ? big : which == 3 ? records : which == 4 ? pgdump : pginserts;
}

size_t chunk_of(int which) { return which == 2 ? 4096 : 65536; }

struct ScanApi {
    mote_err (*init)(mote_scanner *, const mote_scan_config *, mote_buf *);
    mote_err (*feed)(mote_scanner *, const void *, size_t);
    mote_err (*finish)(mote_scanner *);
    mote_err (*next)(mote_scanner *, mote_scan_token *);
    void (*get_stats)(const mote_scanner *, mote_scan_stats *);
};
const ScanApi library_api = {mote_scan_init, mote_scan_feed, mote_scan_finish, mote_scan_next,
                             mote_scan_get_stats};
const ScanApi portable_api = {portable_mote_scan_init, portable_mote_scan_feed, portable_mote_scan_finish,
                              portable_mote_scan_next, portable_mote_scan_get_stats};

void BM_mote(benchmark::State &state, int which, const ScanApi *api)
{
    const std::string &in = input(which);
    const size_t chunk = chunk_of(which);
    mote_arena arena;
    mote_pool pool;
    must(mote_arena_init(&arena, nullptr, 0, mote_heap_alloc, nullptr));
    must(mote_pool_init(&pool, &arena, 0));
    uint64_t examined = 0, tokens = 0;
    for (auto _ : state) {
        mote_buf carry;
        must(mote_buf_init_pool(&carry, &pool, 0));
        mote_scan_config cfg;
        must(mote_scan_config_init(&cfg, which == 3 ? MOTE_SCAN_LINES : which >= 4 ? MOTE_SCAN_POSTGRES : MOTE_SCAN_MYSQL));
        mote_scanner sc;
        api->init(&sc, &cfg, &carry);
        mote_scan_token tok;
        const uint8_t *p = (const uint8_t *)in.data();
        for (size_t off = 0; off < in.size(); off += chunk) {
            size_t k = in.size() - off < chunk ? in.size() - off : chunk;
            api->feed(&sc, p + off, k);
            while (api->next(&sc, &tok) == MOTE_OK) tokens++;
        }
        api->finish(&sc);
        while (api->next(&sc, &tok) == MOTE_OK) tokens++;
        mote_scan_stats st;
        api->get_stats(&sc, &st);
        examined = st.bytes_examined;
        mote_buf_free(&carry);
    }
    benchmark::DoNotOptimize(tokens);
    mote_arena_destroy(&arena);
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)in.size());
    state.counters["bytes_examined"] = (double)examined;
}

void BM_memchr(benchmark::State &state, int which)
{
    const std::string &in = input(which);
    const int delim = which >= 3 ? '\n' : ';';
    size_t count = 0;
    for (auto _ : state) {
        const char *p = in.data(), *end = p + in.size();
        while ((p = (const char *)memchr(p, delim, (size_t)(end - p))) != nullptr) {
            count++;
            p++;
        }
    }
    benchmark::DoNotOptimize(count);
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)in.size());
    state.counters["bytes_examined"] = (double)in.size();
}

// The "before": a split callback that finds the first ';' outside quotes by
// scanning the buffered text from its start, called again from the start
// every time a 4 KiB read appends to the buffer.
size_t find_end(const char *p, size_t n, uint64_t *examined)
{
    char q = 0;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (q) {
            if (c == '\\') i++;
            else if (c == q) q = 0;
        } else if (c == '\'' || c == '"' || c == '`') {
            q = c;
        } else if (c == ';') {
            *examined += i + 1;
            return i + 1;
        }
    }
    *examined += n;
    return 0;
}

void BM_rescan(benchmark::State &state, int which)
{
    const std::string &in = input(which);
    uint64_t examined = 0, tokens = 0;
    for (auto _ : state) {
        examined = 0;
        std::string buf;
        for (size_t off = 0; off < in.size(); off += 4096) {
            buf.append(in, off, 4096);
            size_t start = 0, e;
            while ((e = find_end(buf.data() + start, buf.size() - start, &examined)) != 0) {
                tokens++;
                start += e;
            }
            buf.erase(0, start);
        }
    }
    benchmark::DoNotOptimize(tokens);
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)in.size());
    state.counters["bytes_examined"] = (double)examined;
}

// Records: what one writes by hand, one pass with a quote flag and an
// escape flag, a record ending at a newline outside quotes.
void BM_byteloop(benchmark::State &state, int which)
{
    const std::string &in = input(which);
    size_t count = 0;
    for (auto _ : state) {
        bool q = false, esc = false;
        for (char c : in) {
            if (esc) esc = false;
            else if (c == '\\') esc = true;
            else if (c == '"') q = !q;
            else if (c == '\n' && !q) count++;
        }
    }
    benchmark::DoNotOptimize(count);
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)in.size());
    state.counters["bytes_examined"] = (double)in.size();
}

#ifdef HAVE_SQLITE
void BM_sqlite3_complete(benchmark::State &state, int which)
{
    const std::string &in = input(which);
    uint64_t examined = 0, tokens = 0;
    for (auto _ : state) {
        examined = 0;
        std::string buf;
        size_t off = 0;
        while (off < in.size()) {
            size_t nl = in.find('\n', off);
            size_t e = nl == std::string::npos ? in.size() : nl + 1;
            bool semi = memchr(in.data() + off, ';', e - off) != nullptr;
            buf.append(in, off, e - off);
            off = e;
            if (semi) {
                examined += buf.size();
                if (sqlite3_complete(buf.c_str())) {
                    tokens++;
                    buf.clear();
                }
            }
        }
    }
    benchmark::DoNotOptimize(tokens);
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)in.size());
    state.counters["bytes_examined"] = (double)examined;
}
#endif

void register_all()
{
    const char *cases[] = {"dump", "quotes", "big", "records", "pgdump", "pginserts"};
    for (int w = 0; w < 6; w++) {
        std::string c = std::string("scan/") + cases[w] + "/";
        benchmark::RegisterBenchmark((c + "mote").c_str(), BM_mote, w, &library_api);
        benchmark::RegisterBenchmark((c + "portable").c_str(), BM_mote, w, &portable_api);
        benchmark::RegisterBenchmark((c + "memchr").c_str(), BM_memchr, w);
        if (w == 3) benchmark::RegisterBenchmark((c + "byteloop").c_str(), BM_byteloop, w);
        else if (w < 3) benchmark::RegisterBenchmark((c + "rescan").c_str(), BM_rescan, w);
#ifdef HAVE_SQLITE
        if (w == 0) benchmark::RegisterBenchmark((c + "sqlite3_complete").c_str(), BM_sqlite3_complete, w);
#endif
    }
}

} // namespace

int main(int argc, char **argv)
{
    // MOTE_SCAN_BENCH_DUMP=DIR writes the six inputs as DIR/<case>.sql
    // (bench/counts.py counts the scanner's instructions on them).
    if (const char *dir = getenv("MOTE_SCAN_BENCH_DUMP")) {
        const char *cases[] = {"dump", "quotes", "big", "records", "pgdump", "pginserts"};
        for (int w = 0; w < 6; w++) {
            std::string path = std::string(dir) + "/" + cases[w] + ".sql";
            FILE *f = fopen(path.c_str(), "wb");
            if (!f || fwrite(input(w).data(), 1, input(w).size(), f) != input(w).size() || fclose(f) != 0) return 1;
        }
    }
    register_all();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
