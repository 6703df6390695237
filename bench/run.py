#!/usr/bin/env python3
"""Run mote's benchmarks and print one readable table.

    bench/run.py [--build DIR] [--filter REGEX] [--repetitions N] [--rounds N]
                 [--min-time SECONDS] [--json OUT] [--cli-size-mb MB] [--no-peers]

Builds nothing: point --build at a release build configured with
-Dbenchmarks=enabled (default: build/release). Benchmarks are named
"<module>/<case>/<variant>"; "mote" is ours, every other variant is a
baseline or a physical limit. For each case the table shows the median time,
throughput (bytes/s if the benchmark sets bytes processed, else items/s: rows,
points) and the variant's speed
relative to "mote" (x > 1: mote is that many times faster than the variant).
Times are CPU times (google-benchmark's cpu_time, from which it computes the
throughput too): on a shared machine real time also counts the run queue.
The machine is shared and noisy: read ratios from one run, not absolute times
across runs.

--rounds N (default 1) runs each bench program and its peers N times in
turn, so that a ratio compares mote and its peer measured seconds apart, N
times over, instead of once: the table shows each row's median time over the
rounds, and with N > 1 each ratio is the median of the N per-round ratios,
followed by their range. (Seen on a 2-vCPU VM whose host was busy: one-round
ratios to VictoriaMetrics of 3.6x, 4.7x and 6.7x in three runs of the same
binaries minutes apart.)

Peer rows (in the same run, on the same bytes): the Go programs of bench/ref
(github.com/influxdata/line-protocol/v2 as "go_influx", the VictoriaMetrics
influx parser as "victoriametrics", the Apache Cassandra Go driver as
"gocql") are built with the go toolchain (PATH or /usr/local/go/bin; the
modules come from the Go module proxy or its cache) and run on bench_lp's own
corpora (written by bench_lp through MOTE_LP_BENCH_DUMP) and on bench_cql's
values, each pass repeated for --min-time like google-benchmark's, median of
--repetitions, right after the mote program of the same cases (the same load
on a shared machine), on one core (GOMAXPROCS=1) as mote's benchmarks. Their rows join mote's cases (lp/tsbs_decode/victoriametrics,
cql/vector_f32_768_encode/gocql, ...); what each measures is printed under
the table. Without go, or when a build fails, a note says so and the rest
runs. --no-peers skips them.

CLI rows ("cli/<case>/<variant>", after the google-benchmark ones): the
built 'mote' command timed on generated inputs of --cli-size-mb (default
200) MB with its output to /dev/null, beside 'cat' of the same file as the
floor: 'sql split' on tests/sql_servers/gen_dump.py's mysqldump-like
extended INSERTs and pg_dump-like COPY blocks of ~55-byte rows (one token
per row), and 'lp dump' on bench/ref/gen_tsbs.py's TSBS corpus (345-byte
lines, one JSON object each). Their time is the command's CPU time (user +
system, from wait4), the minimum of --repetitions runs: on a shared machine
the wall time of a whole process mostly measures the run queue. The inputs
are in the page cache (just written). --cli-size-mb 0 skips them.

Under the table, every speed target of issue 14 whose rows ran is checked
against this run and printed as met or NOT met, with the number measured
(TARGETS below): a target is read off the table it lives in, never from a
separate run.
"""
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile


def run_one(exe, args):
    out = subprocess.run([exe] + args, check=True, capture_output=True, text=True).stdout
    # A program none of whose benchmarks match --filter prints nothing.
    return json.loads(out) if out.strip() else {}


def mote_build(build):
    """'buildtype -Ox' of a meson build directory, from its introspection."""
    try:
        with open(os.path.join(build, 'meson-info', 'intro-buildoptions.json')) as f:
            o = {x['name']: x['value'] for x in json.load(f)}
        return f"{o['buildtype']} -O{o['optimization']}"
    except (OSError, ValueError, KeyError):
        return 'build type unknown'


def cli_rows(opt):
    """CPU time of whole commands on generated inputs, output to /dev/null."""
    mote = os.path.join(opt.build, 'tools', 'mote')
    if opt.cli_size_mb <= 0 or not os.access(mote, os.X_OK):
        return []
    here = os.path.dirname(os.path.abspath(__file__))
    gen_dump = [sys.executable, os.path.join(here, '..', 'tests', 'sql_servers', 'gen_dump.py'),
                str(opt.cli_size_mb)]
    # TSBS lines are 345 bytes on average: about --cli-size-mb MB of them
    gen_tsbs = [sys.executable, os.path.join(here, 'ref', 'gen_tsbs.py'),
                '--lines', str(int(opt.cli_size_mb * 1e6 / 345)), '-o']
    cases = [  # (case, generator command before the output path, mote's arguments)
        ('cli/sql_split_mysql_dump', gen_dump, None, ['sql', 'split', '--dialect', 'mysql']),
        ('cli/sql_split_pg_copy_rows', gen_dump, ['--pg-copy'], ['sql', 'split', '--dialect', 'postgres']),
        ('cli/lp_dump_tsbs', gen_tsbs, None, ['lp', 'dump']),
    ]
    rows = []
    with tempfile.TemporaryDirectory(prefix='mote-bench-') as tmp:
        for case, gen, gen_opts, args in cases:
            variants = {'mote': [mote] + args, 'cat': ['cat']}
            variants = {v: a for v, a in variants.items() if re.search(opt.filter, f'{case}/{v}')}
            if not variants:
                continue
            data = os.path.join(tmp, 'input')
            subprocess.run(gen + [data] + (gen_opts or []), check=True, capture_output=True)
            size = os.path.getsize(data)
            for variant, argv in variants.items():
                best = None
                for _ in range(max(1, opt.repetitions)):
                    with open(os.devnull, 'wb') as null:
                        p = subprocess.Popen(argv + [data], stdout=null)
                        _, status, ru = os.wait4(p.pid, 0)
                    # lp dump exits 1 on a bad line: the corpus has none
                    if os.waitstatus_to_exitcode(status) != 0:
                        sys.exit(f'{case}/{variant}: {argv[0]} failed')
                    t = ru.ru_utime + ru.ru_stime  # CPU time: see the docstring
                    best = t if best is None else min(best, t)
                rows.append({'name': f'{case}/{variant}', 'ns': best * 1e9, 'bps': size / best,
                             'items': None})
    return rows


# Peers: real libraries of other projects (bench/ref, Go) on the same bytes as
# mote's rows of the same case. What each one measures, printed under the table.
PEERS = {
    'go_influx': ('lp_go', 'github.com/influxdata/line-protocol/v2 v2.2.1 (Go, the reference decoder): '
                  'decode = measurement, every tag, every field typed (NextField), time in ns; '
                  'tokenize = the same with NextFieldBytes/TimeBytes (values not parsed); '
                  'write = the points written back with its Encoder (checked, tags sorted by key '
                  'as it requires), MB/s of the bytes written'),
    'victoriametrics': ('lp_vm_go', 'VictoriaMetrics lib/protoparser/influx v1.151.0 (Go, the fastest '
                        'Go parser we know): Rows.Unmarshal = measurement, tags, field values parsed '
                        'to float64 (string fields skipped), timestamp; rows reused between passes'),
    'gocql': ('cql_go', 'github.com/apache/cassandra-gocql-driver/v2 v2.1.2 (Go): Marshal/Unmarshal '
              'of the same values as mote\'s rows ([]float32, []int32: the same encoded bytes)'),
}

# go test -bench names of cql_go -> mote's case
CQL_PEER_CASES = {
    'VectorFloat768Encode': 'cql/vector_f32_768_encode',
    'VectorFloat768Decode': 'cql/vector_f32_768_decode',
    'ListInt1000Encode': 'cql/list_i32_1000_encode',
    'ListInt1000Decode': 'cql/list_i32_1000_decode',
}


def find_go():
    go = shutil.which('go')
    if not go and os.access('/usr/local/go/bin/go', os.X_OK):
        go = '/usr/local/go/bin/go'
    return go


class Peers:
    """The peers of bench/ref on mote's own corpora and values, in this run:
    built first (so no build runs between measurements), each group measured
    right after the mote program of the same cases (bench_lp, bench_cql) so
    that both meet the same load on a shared machine. GOMAXPROCS=1: one core,
    as mote's benchmarks use (the Go runtime would otherwise run its
    collector on the other one)."""

    def __init__(self, opt, notes, tmp):
        self.opt, self.notes, self.tmp = opt, notes, tmp
        self.lp_cases = [(f'lp/{c}_{k}', peer, c, k) for c in ('tsbs', 'telegraf')
                         for k, peer in (('decode', 'go_influx'), ('tokenize', 'go_influx'),
                                         ('decode', 'victoriametrics'), ('write', 'go_influx'))]
        self.lp_cases = [x for x in self.lp_cases if re.search(opt.filter, f'{x[0]}/{x[1]}')]
        self.cql_cases = {g: c for g, c in CQL_PEER_CASES.items()
                          if re.search(opt.filter, f'{c}/gocql')}
        self.exe = {}
        if not opt.peers or (not self.lp_cases and not self.cql_cases):
            self.lp_cases, self.cql_cases = [], {}
            return
        go = find_go()
        if not go:
            notes.append('peers skipped: no go toolchain (PATH or /usr/local/go/bin)')
            self.lp_cases, self.cql_cases = [], {}
            return
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ref')
        need = {v for _, v, _, _ in self.lp_cases} | ({'gocql'} if self.cql_cases else set())
        for variant in sorted(need):
            d = os.path.join(here, PEERS[variant][0])
            exe = os.path.join(tmp, variant)
            cmd = [go, 'test', '-c', '-o', exe, '.'] if variant == 'gocql' else [go, 'build', '-o', exe, '.']
            r = subprocess.run(cmd, cwd=d, capture_output=True, text=True)
            if r.returncode != 0:  # no module proxy, an old toolchain: say so, go on
                notes.append(f'peer {variant} not built ({" ".join(cmd[1:3])} in bench/ref/'
                             f'{PEERS[variant][0]}): {" ".join(r.stderr.strip().splitlines()[-1:])}')
                continue
            self.exe[variant] = exe
        self.env = dict(os.environ, GOMAXPROCS='1')

    def after(self, program):
        """Rows of the peers of the cases of one bench program."""
        if program == 'bench_lp':
            return self.lp_rows()
        if program == 'bench_cql':
            return self.cql_rows()
        return []

    def lp_rows(self):
        cases = [x for x in self.lp_cases if x[1] in self.exe]
        if not cases:
            return []
        opt, rows = self.opt, []
        # the exact bytes of bench_lp's corpora, written by bench_lp itself
        bench_lp = os.path.join(opt.build, 'bench', 'bench_lp')
        if not os.access(bench_lp, os.X_OK):
            return []
        subprocess.run([bench_lp, '--benchmark_filter=^$'], check=True, capture_output=True,
                       env=dict(os.environ, MOTE_LP_BENCH_DUMP=self.tmp))
        for case, variant, corpus, kind in cases:
            path = os.path.join(self.tmp, corpus + '.lp')
            with open(path, 'rb') as f:
                data = f.read()
            argv = [self.exe[variant], '-reps', str(max(3, opt.repetitions)),
                    '-min-time', str(opt.min_time)]
            argv += {'tokenize': ['-tokenize'], 'write': ['-encode']}.get(kind, [])
            out = subprocess.run(argv + [path], check=True, capture_output=True, text=True,
                                 env=self.env).stdout
            m = re.search(r'cpu time: median ([0-9.]+) MB/s', out)
            if not m:
                sys.exit(f'{case}/{variant}: no "cpu time: median ... MB/s" in its output:\n{out}')
            bps = float(m.group(1)) * 1e6
            size = len(data)
            if kind == 'write':  # one pass is the bytes it wrote (its "checksum")
                w = re.search(r'checksum ([0-9a-f]+)', out)
                if not w:
                    sys.exit(f'{case}/{variant}: no "checksum" (bytes written) in its output:\n{out}')
                size = int(w.group(1), 16)
            rows.append({'name': f'{case}/{variant}', 'ns': size / bps * 1e9, 'bps': bps,
                         'items': data.count(b'\n') * bps / len(data)})
        return rows

    def cql_rows(self):
        if not self.cql_cases or 'gocql' not in self.exe:
            return []
        pattern = '^Benchmark(' + '|'.join(self.cql_cases) + ')$'
        out = subprocess.run([self.exe['gocql'], '-test.run', '^$', '-test.bench', pattern,
                              '-test.count', str(max(3, self.opt.repetitions)),
                              '-test.benchtime', f'{self.opt.min_time}s'],
                             check=True, capture_output=True, text=True, env=self.env).stdout
        got = {}
        for line in out.splitlines():
            m = re.match(r'Benchmark(\w+?)(-\d+)?\s+\d+\s+([0-9.]+) ns/op\s+([0-9.]+) MB/s'
                         r'\s+([0-9.]+) cpu-ns/op', line)
            if m:  # bytes per op from wall time and MB/s; the rate from CPU time
                nbytes = float(m.group(4)) * 1e6 * float(m.group(3)) * 1e-9
                got.setdefault(m.group(1), []).append((float(m.group(5)), nbytes))
        rows = []
        for g, case in self.cql_cases.items():
            if g in got:
                ns = statistics.median([x[0] for x in got[g]])
                rows.append({'name': f'{case}/gocql', 'ns': ns, 'bps': got[g][0][1] / ns * 1e9,
                             'items': None})
        return rows


def case_of(name):
    parts = name.split('/')
    return ('/'.join(parts[:-1]), parts[-1]) if len(parts) > 1 else (name, 'mote')


def merge_rounds(rounds):
    """One row per benchmark: its median time, throughput and items over the
    rounds, and the per-round ratios to mote's row of the same case and round
    (in 'ratios')."""
    by_name, order = {}, []
    for k, rs in enumerate(rounds):
        ours = {case_of(r['name'])[0]: r for r in rs if case_of(r['name'])[1] == 'mote'}
        for r in rs:
            if r['name'] not in by_name:
                by_name[r['name']] = []
                order.append(r['name'])
            mine = ours.get(case_of(r['name'])[0])
            by_name[r['name']].append((r, r['ns'] / mine['ns'] if mine else None))
    rows = []
    for name in order:
        got = by_name[name]
        mid = lambda key: statistics.median([r[key] for r, _ in got]) if all(r[key] for r, _ in got) else None
        rows.append({'name': name, 'ns': statistics.median([r['ns'] for r, _ in got]), 'bps': mid('bps'),
                     'items': mid('items'), 'ratios': [x for _, x in got if x is not None]})
    return rows


# Issue 14's speed targets, checked against the rows of this run: (row, what
# is compared, the bound, the words). 'gbps': the row's throughput in
# GB/s is at least the bound; 'ratio': the row's time over mote's of the same
# case (the table's "vs mote", the median of the rounds' ratios) is at least
# the bound, so 1.0 means "mote at least as fast".
TARGETS = [
    ('lp/tsbs_tokenize/mote', 'gbps', 4.0, 'lp TSBS tokenize >= 4 GB/s'),
    ('lp/tsbs_decode/mote', 'gbps', 3.0, 'lp TSBS full decode >= 3 GB/s'),
    ('lp/telegraf_decode/mote', 'gbps', 1.6, 'lp telegraf-like full decode >= 1.6 GB/s'),
    ('lp/tsbs_decode/victoriametrics', 'ratio', 5.0, 'lp TSBS full decode >= 5x VictoriaMetrics'),
    ('lp/telegraf_decode/victoriametrics', 'ratio', 5.0,
     'lp telegraf-like full decode >= 5x VictoriaMetrics'),
    ('num/parse_telemetry/from_chars', 'ratio', 1.0, 'num parse >= std::from_chars (telemetry)'),
    ('num/parse_17digit/from_chars', 'ratio', 1.0, 'num parse >= std::from_chars (17 digits)'),
    ('num/format_random/to_chars', 'ratio', 1.0, 'num shortest format >= std::to_chars (random)'),
    ('scan/dump/mote', 'gbps', 4.0, 'scan mysqldump-like >= 4 GB/s'),
    ('scan/quotes/mote', 'gbps', 1.5, 'scan quote-dense >= 1.5 GB/s'),
    ('scan/records/mote', 'gbps', 3.0, 'scan record stream >= 3 GB/s'),
    ('scan/big/mote', 'gbps', 4.0, 'scan one big statement >= 4 GB/s'),
    ('cli/lp_dump_tsbs/mote', 'gbps', 0.5, 'CLI mote lp dump to /dev/null >= 500 MB/s'),
]


def ratio_to(r, ours, opt):
    """The table's "vs mote" of row r: with rounds, the median of the
    per-round ratios; else its time over mote's."""
    if opt.rounds > 1 and r.get('ratios'):
        return statistics.median(r['ratios'])
    return r['ns'] / ours['ns']


def check_targets(rows, opt):
    """Lines saying, for each target whose row ran, what this run measured
    and whether that meets it."""
    by_name = {r['name']: r for r in rows}
    mote = {case_of(r['name'])[0]: r for r in rows if case_of(r['name'])[1] == 'mote'}
    out = []
    for name, kind, bound, words in TARGETS:
        r = by_name.get(name)
        if not r:
            continue
        if kind == 'gbps':
            if not r['bps']:
                continue
            got, shown = r['bps'] / 1e9, f"{r['bps'] / 1e9:.2f} GB/s"
        else:
            ours = mote.get(case_of(name)[0])
            if not ours:
                continue
            got = ratio_to(r, ours, opt)
            shown = f'{got:.2f}x'
        out.append(f"# target {'met    ' if got >= bound else 'NOT met'}  {words}: {shown}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', default='build/release')
    ap.add_argument('--filter', default='.')
    ap.add_argument('--repetitions', type=int, default=5)
    ap.add_argument('--rounds', type=int, default=1,
                    help='run each program and its peers this many times in turn; '
                         'ratios are the median of the per-round ratios')
    ap.add_argument('--min-time', default='0.05')
    ap.add_argument('--json', help='write all raw results to this file')
    ap.add_argument('--cli-size-mb', type=float, default=200,
                    help='size of the generated inputs for the CLI rows (0: none)')
    ap.add_argument('--no-peers', dest='peers', action='store_false',
                    help='skip the Go peers of bench/ref (run when a go toolchain is found)')
    opt = ap.parse_args()

    exes = sorted(glob.glob(os.path.join(opt.build, 'bench', 'bench_*')))
    exes = [e for e in exes if os.access(e, os.X_OK) and not e.endswith('.p')]
    if not exes:
        sys.exit(f'no benchmark programs under {opt.build}/bench '
                 '(configure with -Dbenchmarks=enabled --buildtype=release)')
    args = ['--benchmark_format=json', f'--benchmark_filter={opt.filter}',
            f'--benchmark_repetitions={opt.repetitions}',
            f'--benchmark_min_time={opt.min_time}',
            '--benchmark_report_aggregates_only=true']
    raw, notes = [], []
    rounds = [[] for _ in range(max(1, opt.rounds))]  # rounds[k]: the rows of round k
    tmp = tempfile.TemporaryDirectory(prefix='mote-peers-')
    peers = Peers(opt, notes, tmp.name)
    for exe in exes:
        for k, got in enumerate(rounds):
            data = run_one(exe, args)
            raw.append({'program': os.path.basename(exe), 'round': k, 'result': data})
            for b in data.get('benchmarks', []):
                if b.get('aggregate_name', 'median') != 'median':
                    continue
                name = b.get('run_name', b['name'])
                got.append({
                    'name': name,
                    # CPU time, as the throughput google-benchmark computes: the
                    # time and the ratio then agree with it (real time also
                    # counts the run queue of a shared machine)
                    'ns': b['cpu_time'] * {'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9}[b.get('time_unit', 'ns')],
                    'bps': b.get('bytes_per_second'),
                    'items': b.get('items_per_second'),
                })
            got += peers.after(os.path.basename(exe))
    rows = merge_rounds(rounds)
    tmp.cleanup()
    rows += cli_rows(opt)
    ctx = next((r['result']['context'] for r in raw if 'context' in r['result']), None)
    if ctx:
        # google-benchmark's "library_build_type" is how its own library was
        # built (Debian's says debug: no NDEBUG), not mote's: mote's build
        # type comes from the meson build directory
        print(f"# {ctx.get('host_name', '?')}: {ctx.get('num_cpus')} cpus @ {ctx.get('mhz_per_cpu')} MHz, "
              f"mote {mote_build(opt.build)}, {opt.repetitions} repetitions, median"
              + (f", {opt.rounds} rounds (ratio: median of the rounds', then their range)"
                 if opt.rounds > 1 else ''))

    groups = {}
    for r in rows:
        case, r['variant'] = case_of(r['name'])
        groups.setdefault(case, []).append(r)

    print(f"{'case':<44} {'variant':<16} {'time':>12} {'throughput':>12} {'vs mote':>9}"
          + ('  range' if opt.rounds > 1 else ''))
    for case, rs in groups.items():
        ours = next((r for r in rs if r['variant'] == 'mote'), None)
        for r in rs:
            t = r['ns']
            tstr = f'{t:.1f} ns' if t < 1e4 else f'{t / 1e3:.1f} us' if t < 1e7 else f'{t / 1e6:.1f} ms'
            # bytes/s where a benchmark sets it, else items/s (rows, points)
            thr = (f"{r['bps'] / 1e9:.2f} GB/s" if r['bps'] else
                   f"{r['items'] / 1e6:.1f} M/s" if r['items'] else '')
            ratio = rng = ''
            if ours and r is not ours:
                ratio = f"{ratio_to(r, ours, opt):.2f}x"
                if opt.rounds > 1 and r.get('ratios'):
                    rng = f"  {min(r['ratios']):.2f}-{max(r['ratios']):.2f}"
            print(f"{case:<44} {r['variant']:<16} {tstr:>12} {thr:>12} {ratio:>9}{rng}")
    shown = {r['variant'] for r in rows}
    for v, (d, what) in PEERS.items():
        if v in shown:
            print(f'# {v} (bench/ref/{d}): {what}')
    for line in check_targets(rows, opt):
        print(line)
    for n in notes:
        print(f'# {n}')
    if opt.json:
        with open(opt.json, 'w') as f:
            json.dump({'rows': rows, 'raw': raw}, f, indent=1)


if __name__ == '__main__':
    main()
