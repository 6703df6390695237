// bench_lp.cc - line-protocol decoding throughput.
//
// Two corpora, generated here at setup from a fixed seed (the generators are
// the functions gen_tsbs() and gen_telegraf() below):
//   tsbs     TSBS "cpu-only" style: 10 tags, 10 integer fields, ns timestamp
//   telegraf a telegraf-like mix: floats, unsigned, booleans, quoted strings
//            with escapes, escaped tag values, a few measurements
// Cases and variants ("mote" is ours):
//   lp/<corpus>_tokenize/mote    views only (mote_lp_next, no mote_lp_point_decode)
//   lp/<corpus>_decode/mote      every tag, every field value typed, the time
//   lp/<corpus>_stream/mote      full decode through the streaming decoder, 64 KiB chunks
//   .../append                   the motivating case's "before": a splitter that
//                                appends each byte into a fresh growing array
//                                per part (decode: plus strtoll/strtod/bool of
//                                each value and the timestamp)
//   .../memchr                   finding the line ends with memchr (the limit)
//   lp/<corpus>_write/mote       the corpus's points (decoded once at setup,
//                                names unescaped, values typed) written back
//                                with mote_lp_writer into one buffer: escaping,
//                                shortest floats, ns timestamps; for tsbs the
//                                output must equal the corpus byte for byte
//   lp/<corpus>_write/snprintf   the same points the way a C agent without a
//                                library writes them: names escaped byte by
//                                byte, numbers through snprintf ("%.17g" for
//                                floats: round-trips, but not shortest)
//   lp/<corpus>_write/memcpy     copying the corpus (the limit)
// Write rows count the bytes written.
// The append variant reports its heap allocations per line; mote makes none
// (libmote references no allocator at all).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "mote/lp.h"
}

namespace {

// Small deterministic PRNG (xorshift64*).
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ull;
    }
    unsigned below(unsigned n) { return static_cast<unsigned>(next() % n); }
};

// TSBS cpu-only: as written by tsbs_generate_data --use-case=cpu-only --format=influx.
std::string gen_tsbs(size_t lines) {
    static const char *const regions[] = {"us-east-1", "us-west-1", "us-west-2", "eu-west-1",
                                          "eu-central-1", "ap-southeast-1", "ap-southeast-2",
                                          "ap-northeast-1", "sa-east-1"};
    static const char *const oses[] = {"Ubuntu16.10", "Ubuntu16.04LTS", "Ubuntu15.10"};
    static const char *const arches[] = {"x64", "x86"};
    static const char *const teams[] = {"SF", "NYC", "LON", "CHI"};
    static const char *const envs[] = {"production", "staging", "test"};
    static const char *const fields[] = {"usage_user", "usage_system", "usage_idle", "usage_nice",
                                         "usage_iowait", "usage_irq", "usage_softirq",
                                         "usage_steal", "usage_guest", "usage_guest_nice"};
    Rng r(42);
    std::string out;
    const unsigned hosts = 100;
    uint64_t ts = 1451606400000000000ull;
    for (size_t i = 0; i < lines; i++) {
        unsigned h = static_cast<unsigned>(i % hosts);
        Rng hr(h + 1);  // per-host tag values are stable
        const char *region = regions[hr.below(9)];
        char line[1024];
        int n = snprintf(line, sizeof line,
                         "cpu,hostname=host_%u,region=%s,datacenter=%sa,rack=%u,os=%s,arch=%s,"
                         "team=%s,service=%u,service_version=%u,service_environment=%s",
                         h, region, region, hr.below(100), oses[hr.below(3)], arches[hr.below(2)],
                         teams[hr.below(4)], hr.below(20), hr.below(2), envs[hr.below(3)]);
        out.append(line, static_cast<size_t>(n));
        for (int f = 0; f < 10; f++) {
            n = snprintf(line, sizeof line, "%c%s=%ui", f ? ',' : ' ', fields[f], r.below(100));
            out.append(line, static_cast<size_t>(n));
        }
        if (h == hosts - 1) ts += 10000000000ull;
        n = snprintf(line, sizeof line, " %llu\n", static_cast<unsigned long long>(ts));
        out.append(line, static_cast<size_t>(n));
    }
    return out;
}

// Telegraf-like mix of input plugins.
std::string gen_telegraf(size_t lines) {
    Rng r(7);
    std::string out;
    char line[2048];
    uint64_t ts = 1700000000000000000ull;
    for (size_t i = 0; i < lines; i++) {
        int n = 0;
        ts += 1000000000ull;
        unsigned host = r.below(20);
        switch (i % 6) {
        case 0:
            n = snprintf(line, sizeof line,
                         "cpu,cpu=cpu%u,host=web-%02u usage_user=%u.%06u,usage_system=%u.%06u,"
                         "usage_idle=%u.%06u,usage_iowait=0.%06u %llu\n",
                         r.below(8), host, r.below(100), r.below(1000000), r.below(30),
                         r.below(1000000), r.below(100), r.below(1000000), r.below(1000000),
                         static_cast<unsigned long long>(ts));
            break;
        case 1:
            n = snprintf(line, sizeof line,
                         "mem,host=web-%02u available=%lluu,used=%lluu,used_percent=%u.%u,"
                         "swap_free=%lluu %llu\n",
                         host, static_cast<unsigned long long>(r.next() >> 30),
                         static_cast<unsigned long long>(r.next() >> 30), r.below(100), r.below(100000),
                         static_cast<unsigned long long>(r.next() >> 32),
                         static_cast<unsigned long long>(ts));
            break;
        case 2:
            n = snprintf(line, sizeof line,
                         "disk,device=disk%us%u,fstype=apfs,host=web-%02u,mode=rw,"
                         "path=/Volumes/Macintosh\\ HD\\,\\ Data free=%lluu,inodes_used=%lluu,"
                         "used_percent=%u.%u %llu\n",
                         r.below(4), r.below(4), host, static_cast<unsigned long long>(r.next() >> 24),
                         static_cast<unsigned long long>(r.next() >> 40), r.below(100),
                         r.below(1000000), static_cast<unsigned long long>(ts));
            break;
        case 3:
            n = snprintf(line, sizeof line,
                         "system,host=web-%02u load1=%u.%02u,load5=%u.%02u,n_cpus=8i,n_users=%ui,"
                         "uptime=%uu,uptime_format=\"%u days, %2u:%02u\" %llu\n",
                         host, r.below(8), r.below(100), r.below(8), r.below(100), r.below(10),
                         r.below(1000000), r.below(400), r.below(24), r.below(60),
                         static_cast<unsigned long long>(ts));
            break;
        case 4:
            n = snprintf(line, sizeof line,
                         "docker_container_status,container_image=registry/app\\=v%u,"
                         "container_name=app_%u,host=web-%02u oomkilled=%s,pid=%ui,"
                         "exitcode=0i,started_at=%llui,running=%s %llu\n",
                         r.below(9), r.below(50), host, r.below(2) ? "false" : "true",
                         r.below(65536), static_cast<unsigned long long>(ts / 1000),
                         r.below(2) ? "true" : "false", static_cast<unsigned long long>(ts));
            break;
        default:
            n = snprintf(line, sizeof line,
                         "syslog,appname=sshd,facility=auth,host=web-%02u,severity=info "
                         "message=\"Accepted publickey for user%u from 10.0.%u.%u port %u: "
                         "key \\\"ssh-ed25519\\\" path C:\\\\keys\",procid=\"%u\",severity_code=6i,"
                         "timestamp=%llui,version=1i %llu\n",
                         host, r.below(100), r.below(256), r.below(256), r.below(65536),
                         r.below(99999), static_cast<unsigned long long>(ts / 1000),
                         static_cast<unsigned long long>(ts));
            break;
        }
        out.append(line, static_cast<size_t>(n));
    }
    return out;
}

const std::string &corpus(int which) {
    static const std::string tsbs = gen_tsbs(4000);
    static const std::string tele = gen_telegraf(6000);
    return which == 0 ? tsbs : tele;
}

size_t count_lines(const std::string &s) {
    size_t n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

// ---- mote -----------------------------------------------------------------

void run_mote(benchmark::State &state, int which, bool tokenize) {
    const std::string &in = corpus(which);
    mote_lp_config opt;
    if (mote_lp_config_init(&opt) != MOTE_OK) abort();
    mote_lp_tag tags[16];
    mote_lp_field fields[16];
    for (auto _ : state) {
        mote_lp_decoder d;
        if (mote_lp_decoder_init(&d, in.data(), in.size(), &opt) != MOTE_OK) abort();
        mote_lp_point pt;
        if (mote_lp_point_init(&pt, tags, 16, fields, 16) != MOTE_OK) abort();
        uint64_t sum = 0;
        mote_err rc;
        while ((rc = mote_lp_next(&d, &pt, nullptr)) != MOTE_ERR_NEED_MORE) {
            if (rc != MOTE_OK) abort();
            sum += pt.ntags + pt.tags[pt.ntags - 1].value.len;
            if (!tokenize) {
                if (mote_lp_point_decode(&pt, &opt, nullptr) != MOTE_OK) abort();
                for (size_t i = 0; i < pt.nfields; i++) sum += static_cast<uint64_t>(fields[i].value.i);
                sum += static_cast<uint64_t>(pt.time);
            } else {
                sum += pt.nfields + fields[pt.nfields - 1].raw.len + pt.time_text.len;
            }
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * in.size()));
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * count_lines(in)));
}

void run_mote_stream(benchmark::State &state, int which) {
    const std::string &in = corpus(which);
    static uint8_t carry[1 << 16];
    mote_lp_tag tags[16];
    mote_lp_field fields[16];
    const size_t chunk = 65536;
    for (auto _ : state) {
        mote_lp_stream s;
        if (mote_lp_stream_init(&s, nullptr, carry, sizeof carry) != MOTE_OK) abort();
        size_t off = 0;
        bool done = false;
        uint64_t sum = 0;
        for (;;) {
            mote_lp_point pt;
            if (mote_lp_point_init(&pt, tags, 16, fields, 16) != MOTE_OK) abort();
            mote_err rc = mote_lp_stream_next(&s, &pt, nullptr);
            if (rc == MOTE_ERR_NEED_MORE) {
                if (done) break;
                if (off == in.size()) {
                    if (mote_lp_stream_finish(&s) != MOTE_OK) abort();
                    done = true;
                    continue;
                }
                size_t k = std::min(chunk, in.size() - off);
                if (mote_lp_stream_feed(&s, in.data() + off, k) != MOTE_OK) abort();
                off += k;
                continue;
            }
            if (rc != MOTE_OK || mote_lp_point_decode(&pt, nullptr, nullptr) != MOTE_OK) abort();
            for (size_t i = 0; i < pt.nfields && i < 16; i++) sum += static_cast<uint64_t>(fields[i].value.i);
            sum += static_cast<uint64_t>(pt.time) + pt.ntags;
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * in.size()));
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * count_lines(in)));
}

// ---- the per-byte-append splitter (the motivating "before") ----------------

size_t g_allocs;

template <class T>
struct CountingAlloc {
    using value_type = T;
    CountingAlloc() = default;
    template <class U>
    CountingAlloc(const CountingAlloc<U> &) {}
    T *allocate(size_t n) {
        g_allocs++;
        return static_cast<T *>(::operator new(n * sizeof(T)));
    }
    void deallocate(T *p, size_t) { ::operator delete(p); }
    template <class U>
    bool operator==(const CountingAlloc<U> &) const { return true; }
    template <class U>
    bool operator!=(const CountingAlloc<U> &) const { return false; }
};

using Part = std::vector<char, CountingAlloc<char>>;
struct Token {
    Part bytes;
    char ended_by;  // ',', '=', ' ' or '\n'
};
using Parts = std::vector<Token, CountingAlloc<Token>>;

// Split one line into parts on ',', '=' and ' ' outside double quotes,
// honouring backslash escapes; every byte is appended to a fresh part.
const char *append_split(const char *p, const char *end, Parts &parts) {
    parts.emplace_back();
    bool quoted = false, escaped = false;
    for (; p < end; p++) {
        char c = *p;
        if (escaped) {
            escaped = false;
        } else if (c == '\\') {
            escaped = true;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (!quoted && c == '\n') {
            parts.back().ended_by = '\n';
            return p + 1;
        } else if (!quoted && (c == ',' || c == '=' || c == ' ')) {
            parts.back().ended_by = c;
            parts.emplace_back();
            continue;
        }
        parts.back().bytes.push_back(c);
    }
    parts.back().ended_by = '\n';
    return end;
}

void run_append(benchmark::State &state, int which, bool decode) {
    const std::string &in = corpus(which);
    size_t lines = count_lines(in);
    g_allocs = 0;
    for (auto _ : state) {
        const char *p = in.data(), *end = p + in.size();
        uint64_t sum = 0;
        while (p < end) {
            Parts parts;  // fresh per line, as in the motivating case
            p = append_split(p, end, parts);
            sum += parts.size();
            if (!decode) continue;
            // Fields follow the first space; values follow '='; the part after
            // the second space is the timestamp.
            int spaces = 0;
            for (size_t i = 0; i < parts.size(); i++) {
                Part &b = parts[i].bytes;
                bool value = i > 0 && parts[i - 1].ended_by == '=';
                if (spaces == 2 && !b.empty()) {
                    b.push_back(0);
                    sum += static_cast<uint64_t>(strtoll(b.data(), nullptr, 10));
                } else if (spaces == 1 && value && !b.empty()) {
                    char last = b.back();
                    if (b[0] == '"') {
                        sum += b.size();
                    } else if (b[0] == 't' || b[0] == 'T' || b[0] == 'f' || b[0] == 'F') {
                        sum += b[0] == 't' || b[0] == 'T';
                    } else if (last == 'i') {
                        b.back() = 0;
                        sum += static_cast<uint64_t>(strtoll(b.data(), nullptr, 10));
                    } else if (last == 'u') {
                        b.back() = 0;
                        sum += strtoull(b.data(), nullptr, 10);
                    } else {
                        b.push_back(0);
                        sum += static_cast<uint64_t>(strtod(b.data(), nullptr));
                    }
                }
                if (parts[i].ended_by == ' ') spaces++;
            }
        }
        benchmark::DoNotOptimize(sum);
    }
    state.counters["allocs_per_line"] = static_cast<double>(g_allocs) /
                                        static_cast<double>(state.iterations() * lines);
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * in.size()));
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * lines));
}

// ---- memchr: the limit ------------------------------------------------------

void run_memchr(benchmark::State &state, int which) {
    const std::string &in = corpus(which);
    for (auto _ : state) {
        const char *p = in.data(), *end = p + in.size();
        size_t n = 0;
        while ((p = static_cast<const char *>(memchr(p, '\n', static_cast<size_t>(end - p))))) {
            n++;
            p++;
        }
        benchmark::DoNotOptimize(n);
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * in.size()));
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * count_lines(in)));
}

// ---- writing: the corpus's points back to line protocol -------------------

struct WField {
    std::string key, s;
    mote_lp_type type;
    double f;
    int64_t i;
    uint64_t u;
    bool b;
};
struct WPoint {
    std::string meas;
    std::vector<std::pair<std::string, std::string>> tags;
    std::vector<WField> fields;
    int64_t time;
    bool has_time;
};

std::string unescaped(const mote_lp_text &t) {
    std::string out(t.len, '\0');
    size_t n = 0;
    if (mote_lp_unescape(&t, reinterpret_cast<uint8_t *>(&out[0]), out.size(), &n) != MOTE_OK) abort();
    out.resize(n);
    return out;
}

// The corpus decoded once, every tag and field through the iterators.
const std::vector<WPoint> &points(int which) {
    static std::vector<WPoint> pts[2];
    std::vector<WPoint> &v = pts[which];
    if (!v.empty()) return v;
    const std::string &in = corpus(which);
    mote_lp_decoder d;
    if (mote_lp_decoder_init(&d, in.data(), in.size(), nullptr) != MOTE_OK) abort();
    mote_lp_point pt;
    if (mote_lp_point_init(&pt, nullptr, 0, nullptr, 0) != MOTE_OK) abort();
    mote_err rc;
    while ((rc = mote_lp_next(&d, &pt, nullptr)) != MOTE_ERR_NEED_MORE) {
        if (rc != MOTE_OK || mote_lp_point_decode(&pt, nullptr, nullptr) != MOTE_OK) abort();
        WPoint w;
        w.meas = unescaped(pt.measurement);
        mote_lp_iter it;
        mote_lp_tag tag;
        for (mote_lp_tags_begin(&pt, &it); mote_lp_tags_next(&it, &tag);)
            w.tags.emplace_back(unescaped(tag.key), unescaped(tag.value));
        mote_lp_field f;
        for (mote_lp_fields_begin(&pt, &it); mote_lp_fields_next(&it, &f);) {
            if (mote_lp_field_decode(&f) != MOTE_OK) abort();
            WField x{unescaped(f.key), "", f.type, 0, 0, 0, false};
            if (f.type == MOTE_LP_FLOAT) x.f = f.value.f;
            if (f.type == MOTE_LP_INT) x.i = f.value.i;
            if (f.type == MOTE_LP_UINT) x.u = f.value.u;
            if (f.type == MOTE_LP_BOOL) x.b = f.value.b;
            if (f.type == MOTE_LP_STRING) x.s = unescaped(f.value.s);
            w.fields.push_back(x);
        }
        w.time = pt.time;
        w.has_time = pt.has_time;
        v.push_back(std::move(w));
    }
    return v;
}

size_t write_mote(const std::vector<WPoint> &pts, std::vector<char> &out) {
    mote_lp_writer w;
    if (mote_lp_writer_init(&w, out.data(), out.size(), MOTE_LP_NS) != MOTE_OK) abort();
    for (const WPoint &p : pts) {
        mote_err rc = mote_lp_write_measurement(&w, p.meas.data(), p.meas.size());
        for (const auto &t : p.tags)
            if (rc == MOTE_OK) rc = mote_lp_write_tag(&w, t.first.data(), t.first.size(), t.second.data(), t.second.size());
        for (const WField &f : p.fields) {
            if (rc != MOTE_OK) break;
            const char *k = f.key.data();
            const size_t kn = f.key.size();
            switch (f.type) {
            case MOTE_LP_FLOAT: rc = mote_lp_write_float(&w, k, kn, f.f); break;
            case MOTE_LP_INT: rc = mote_lp_write_int(&w, k, kn, f.i); break;
            case MOTE_LP_UINT: rc = mote_lp_write_uint(&w, k, kn, f.u); break;
            case MOTE_LP_BOOL: rc = mote_lp_write_bool(&w, k, kn, f.b); break;
            default: rc = mote_lp_write_string(&w, k, kn, f.s.data(), f.s.size()); break;
            }
        }
        if (rc != MOTE_OK || mote_lp_write_end(&w, p.has_time ? &p.time : nullptr) != MOTE_OK) abort();
    }
    return mote_lp_writer_length(&w);
}

// A name byte by byte, escaping what the writer escapes (`esc`), as a C
// agent without a library does it.
char *put_escaped(char *o, const std::string &s, const char *esc) {
    for (char c : s) {
        if (strchr(esc, c)) *o++ = '\\';
        *o++ = c;
    }
    return o;
}

size_t write_snprintf(const std::vector<WPoint> &pts, std::vector<char> &out) {
    char *o = out.data(), *const end = o + out.size();
    for (const WPoint &p : pts) {
        if (end - o < 4096) abort();  // (the buffer is sized for the corpus)
        o = put_escaped(o, p.meas, ", ");
        for (const auto &t : p.tags) {
            *o++ = ',';
            o = put_escaped(o, t.first, ",= ");
            *o++ = '=';
            o = put_escaped(o, t.second, ",= ");
        }
        char sep = ' ';
        for (const WField &f : p.fields) {
            *o++ = sep;
            sep = ',';
            o = put_escaped(o, f.key, ",= ");
            *o++ = '=';
            switch (f.type) {
            case MOTE_LP_FLOAT: o += snprintf(o, 32, "%.17g", f.f); break;
            case MOTE_LP_INT: o += snprintf(o, 32, "%lldi", static_cast<long long>(f.i)); break;
            case MOTE_LP_UINT: o += snprintf(o, 32, "%lluu", static_cast<unsigned long long>(f.u)); break;
            case MOTE_LP_BOOL: o += snprintf(o, 32, "%s", f.b ? "true" : "false"); break;
            default:
                *o++ = '"';
                o = put_escaped(o, f.s, "\"\\");
                *o++ = '"';
                break;
            }
        }
        if (p.has_time) o += snprintf(o, 32, " %lld", static_cast<long long>(p.time));
        *o++ = '\n';
    }
    return static_cast<size_t>(o - out.data());
}

void run_write(benchmark::State &state, int which, int how) {
    const std::vector<WPoint> &pts = points(which);
    const std::string &in = corpus(which);
    std::vector<char> out(in.size() * 2 + 65536);
    size_t n = 0;
    if (how == 0) {
        n = write_mote(pts, out);
        // tsbs is written as the writer writes it: the same bytes back
        if (which == 0 && (n != in.size() || memcmp(out.data(), in.data(), n) != 0)) abort();
    }
    for (auto _ : state) {
        if (how == 0) {
            n = write_mote(pts, out);
        } else if (how == 1) {
            n = write_snprintf(pts, out);
        } else {
            n = in.size();
            memcpy(out.data(), in.data(), n);
        }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n));
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * pts.size()));
}

}  // namespace

int main(int argc, char **argv) {
    // MOTE_LP_BENCH_DUMP=DIR writes the two corpora as DIR/tsbs.lp and
    // DIR/telegraf.lp (bench/run.py runs the Go peers of bench/ref on them).
    if (const char *dir = getenv("MOTE_LP_BENCH_DUMP")) {
        for (int which = 0; which < 2; which++) {
            std::string path = std::string(dir) + (which == 0 ? "/tsbs.lp" : "/telegraf.lp");
            FILE *f = fopen(path.c_str(), "wb");
            if (!f || fwrite(corpus(which).data(), 1, corpus(which).size(), f) != corpus(which).size() ||
                fclose(f) != 0)
                return 1;
        }
    }
    // Explicit names: "<module>/<case>/<variant>".
    for (int which = 0; which < 2; which++) {
        std::string c = which == 0 ? "lp/tsbs" : "lp/telegraf";
        benchmark::RegisterBenchmark((c + "_tokenize/mote").c_str(), run_mote, which, true);
        benchmark::RegisterBenchmark((c + "_tokenize/append").c_str(), run_append, which, false);
        benchmark::RegisterBenchmark((c + "_tokenize/memchr").c_str(), run_memchr, which);
        benchmark::RegisterBenchmark((c + "_decode/mote").c_str(), run_mote, which, false);
        benchmark::RegisterBenchmark((c + "_decode/append").c_str(), run_append, which, true);
        benchmark::RegisterBenchmark((c + "_decode/memchr").c_str(), run_memchr, which);
        benchmark::RegisterBenchmark((c + "_stream/mote").c_str(), run_mote_stream, which);
        benchmark::RegisterBenchmark((c + "_write/mote").c_str(), run_write, which, 0);
        benchmark::RegisterBenchmark((c + "_write/snprintf").c_str(), run_write, which, 1);
        benchmark::RegisterBenchmark((c + "_write/memcpy").c_str(), run_write, which, 2);
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
