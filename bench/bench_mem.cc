// bench_mem.cc - memory layer against the C heap.
//
//   mem/arena_alloc/{mote,malloc}       one 16..64 B allocation (bulk release
//                                       amortised: arena reset / free of 4096)
//   mem/pool_get_put/{mote,malloc}      get+put vs malloc+free, 16..256 B
//   mem/buf_append/{mote,realloc}       build 1 MiB from 100 B appends
//   mem/read_file/{mote,read_copy}      whole 4 MiB file: mote_buf_read_file vs
//                                       read into a temporary, copy to the final
//                                       buffer; counter peak_bytes = most bytes
//                                       held from the allocator at once
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <malloc.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "mote/buf.h"

// Every mote call here is set up to succeed; one that fails would make the
// numbers meaningless, so it stops the program (MOTE_NODISCARD, see common.h).
static inline void must(mote_err e)
{
    if (e != MOTE_OK) std::abort();
}

namespace {

constexpr size_t kSizes[8] = {16, 24, 32, 40, 48, 56, 64, 32};

// Keep glibc from trimming the heap top and from unmapping big blocks after
// every iteration: otherwise whoever holds more bytes pays page faults on
// every run and the comparison measures the kernel, not the code. Every
// benchmark in this program runs under the same setting.
const int kMallocTuned = [] {
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    return 0;
}();

// ---- arena allocation ----

void BM_arena_alloc_mote(benchmark::State &state)
{
    static uint8_t mem[1 << 20];
    mote_arena a;
    must(mote_arena_init(&a, mem, sizeof mem, nullptr, nullptr));
    size_t i = 0;
    for (auto _ : state) {
        void *p = mote_arena_alloc(&a, kSizes[i++ & 7]);
        if (__builtin_expect(p == nullptr, 0)) {
            mote_arena_reset(&a, false);
            p = mote_arena_alloc(&a, kSizes[i & 7]);
        }
        benchmark::DoNotOptimize(p);
    }
    mote_arena_destroy(&a);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_arena_alloc_mote)->Name("mem/arena_alloc/mote");

void BM_arena_alloc_malloc(benchmark::State &state)
{
    std::vector<void *> live(4096);
    size_t n = 0, i = 0;
    for (auto _ : state) {
        // const: DoNotOptimize's input-only form. With the in-out one
        // ("+m,r") gcc 12 -O2 with -fsanitize=address,undefined stored
        // another value in live[] (free() of a stack address).
        void *const p = std::malloc(kSizes[i++ & 7]);
        benchmark::DoNotOptimize(p);
        live[n++] = p;
        if (n == live.size()) {
            for (void *q : live) std::free(q);
            n = 0;
        }
    }
    for (size_t k = 0; k < n; k++) std::free(live[k]);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_arena_alloc_malloc)->Name("mem/arena_alloc/malloc");

// ---- pool get + put ----

constexpr size_t kPoolSizes[8] = {16, 100, 32, 256, 64, 200, 48, 128};

void BM_pool_get_put_mote(benchmark::State &state)
{
    static uint8_t mem[1 << 16];
    mote_arena a;
    mote_pool p;
    must(mote_arena_init(&a, mem, sizeof mem, nullptr, nullptr));
    must(mote_pool_init(&p, &a, 0));
    size_t i = 0;
    for (auto _ : state) {
        void *const b = mote_pool_get(&p, kPoolSizes[i++ & 7], nullptr); // const: see above
        benchmark::DoNotOptimize(b);
        must(mote_pool_put(&p, b));
    }
    mote_arena_destroy(&a);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_pool_get_put_mote)->Name("mem/pool_get_put/mote");

void BM_pool_get_put_malloc(benchmark::State &state)
{
    size_t i = 0;
    for (auto _ : state) {
        void *const b = std::malloc(kPoolSizes[i++ & 7]); // const: see above
        benchmark::DoNotOptimize(b);
        std::free(b);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_pool_get_put_malloc)->Name("mem/pool_get_put/malloc");

// ---- buffer growth ----

constexpr size_t kBuildTotal = 1 << 20;
constexpr size_t kPiece = 100;
// kPiece read as a value the compiler cannot know. Not DoNotOptimize() on a
// local: its in-out form ("+m,r") made gcc 12 -O2 with
// -fsanitize=address,undefined hand back another value (appends of 300 MB).
volatile size_t kPieceOpaque = kPiece;

void BM_buf_append_mote(benchmark::State &state)
{
    static uint8_t piece[kPiece];
    mote_arena a;
    must(mote_arena_init(&a, nullptr, 0, mote_heap_alloc, nullptr));
    for (auto _ : state) {
        mote_buf b;
        must(mote_buf_init_arena(&b, &a, 0));
        const size_t piece_len = kPieceOpaque; // not a constant: a real append's size is not
        for (size_t n = 0; n < kBuildTotal; n += piece_len) must(mote_buf_append(&b, piece, piece_len));
        benchmark::DoNotOptimize(b.data);
        mote_arena_reset(&a, true);
    }
    mote_arena_destroy(&a);
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kBuildTotal));
}
BENCHMARK(BM_buf_append_mote)->Name("mem/buf_append/mote");

void BM_buf_append_realloc(benchmark::State &state)
{
    static uint8_t piece[kPiece];
    for (auto _ : state) {
        uint8_t *data = nullptr;
        size_t len = 0, cap = 0;
        const size_t piece_len = kPieceOpaque;
        for (size_t n = 0; n < kBuildTotal; n += piece_len) {
            if (cap - len < piece_len) {
                size_t nc = cap ? cap * 2 : 16;
                while (nc - len < piece_len) nc *= 2;
                data = static_cast<uint8_t *>(std::realloc(data, nc));
                cap = nc;
            }
            std::memcpy(data + len, piece, piece_len);
            len += piece_len;
        }
        uint8_t *const built = data; // const: see kPieceOpaque
        benchmark::DoNotOptimize(built);
        std::free(data);
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kBuildTotal));
}
BENCHMARK(BM_buf_append_realloc)->Name("mem/buf_append/realloc");

// ---- whole-file read ----

// Heap allocator that remembers the most bytes it held at once.
struct Peak {
    size_t live = 0, peak = 0;
};

void *peak_alloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    Peak *pk = static_cast<Peak *>(ctx);
    if (new_size == 0) {
        std::free(ptr);
        pk->live -= old_size;
        return nullptr;
    }
    void *p = std::realloc(ptr, new_size);
    if (!p) return nullptr;
    pk->live += new_size - (ptr ? old_size : 0);
    if (pk->live > pk->peak) pk->peak = pk->live;
    return p;
}

constexpr size_t kFileSize = 4u << 20;

const char *bench_file()
{
    static std::string path;
    if (path.empty()) {

        path = "/tmp/mote_bench_mem_" + std::to_string(getpid());
        FILE *f = std::fopen(path.c_str(), "wb");
        if (!f) std::abort();
        std::vector<char> chunk(1 << 16);
        for (size_t i = 0; i < chunk.size(); i++) chunk[i] = char('a' + i % 26);
        for (size_t n = 0; n < kFileSize; n += chunk.size()) std::fwrite(chunk.data(), 1, chunk.size(), f);
        std::fclose(f);
        std::atexit([] { unlink(path.c_str()); });
    }
    return path.c_str();
}

void BM_read_file_mote(benchmark::State &state)
{
    const char *path = bench_file();
    Peak pk;
    mote_arena a;
    must(mote_arena_init(&a, nullptr, 0, peak_alloc, &pk));
    for (auto _ : state) {
        mote_buf b;
        must(mote_buf_init_arena(&b, &a, 0));
        if (mote_buf_read_file(&b, path) != MOTE_OK || b.len != kFileSize) state.SkipWithError("read");
        benchmark::DoNotOptimize(b.data);
        mote_arena_reset(&a, true);
    }
    mote_arena_destroy(&a);
    state.counters["peak_bytes"] = double(pk.peak);
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kFileSize));
}
BENCHMARK(BM_read_file_mote)->Name("mem/read_file/mote")->Unit(benchmark::kMicrosecond);

// Baseline: the pattern the issue describes - read everything into a
// temporary, then copy it into the final buffer of exact size.
void BM_read_file_read_copy(benchmark::State &state)
{
    const char *path = bench_file();
    Peak pk;
    for (auto _ : state) {
        int fd = open(path, O_RDONLY);
        struct stat st;
        fstat(fd, &st);
        size_t n = size_t(st.st_size), len = 0;
        uint8_t *tmp = static_cast<uint8_t *>(peak_alloc(&pk, nullptr, 0, n + 1));
        ssize_t r;
        while ((r = read(fd, tmp + len, n + 1 - len)) > 0) len += size_t(r);
        close(fd);
        uint8_t *out = static_cast<uint8_t *>(peak_alloc(&pk, nullptr, 0, len));
        std::memcpy(out, tmp, len);
        peak_alloc(&pk, tmp, n + 1, 0);
        if (len != kFileSize) state.SkipWithError("read");
        benchmark::DoNotOptimize(out);
        peak_alloc(&pk, out, len, 0);
    }
    state.counters["peak_bytes"] = double(pk.peak);
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kFileSize));
}
BENCHMARK(BM_read_file_read_copy)->Name("mem/read_file/read_copy")->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
