#!/usr/bin/env python3
"""Run mote's benchmarks and print one readable table.

    bench/run.py [--build DIR] [--filter REGEX] [--repetitions N]
                 [--min-time SECONDS] [--json OUT]

Builds nothing: point --build at a release build configured with
-Dbenchmarks=enabled (default: build/release). Benchmarks are named
"<module>/<case>/<variant>"; "mote" is ours, every other variant is a
baseline or a physical limit. For each case the table shows the median time,
throughput (bytes/s if the benchmark sets bytes processed, else items/s: rows,
points) and the variant's speed
relative to "mote" (x > 1: mote is that many times faster than the variant).
The machine is shared and noisy: read ratios from one run, not absolute times
across runs.

CLI rows ("cli/<case>/<variant>", after the google-benchmark ones): the
built 'mote' command timed on generated dumps (tests/sql_servers/gen_dump.py,
--cli-size-mb, default 200: mysqldump-like extended INSERTs, and pg_dump-like
COPY blocks of ~55-byte rows, one token per row) with its output to
/dev/null, beside 'cat' of the same file as the floor. Their time is the command's CPU time (user +
system, from wait4), the minimum of --repetitions runs: on a shared machine
the wall time of a whole process mostly measures the run queue. The dumps
are in the page cache (just written). --cli-size-mb 0 skips them.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile


def run_one(exe, args):
    out = subprocess.run([exe] + args, check=True, capture_output=True, text=True).stdout
    # A program none of whose benchmarks match --filter prints nothing.
    return json.loads(out) if out.strip() else {}


def cli_rows(opt):
    """CPU time of whole commands on generated dumps, output to /dev/null."""
    mote = os.path.join(opt.build, 'tools', 'mote')
    if opt.cli_size_mb <= 0 or not os.access(mote, os.X_OK):
        return []
    here = os.path.dirname(os.path.abspath(__file__))
    gen = os.path.join(here, '..', 'tests', 'sql_servers', 'gen_dump.py')
    cases = [  # (case, generator options, dialect)
        ('cli/sql_split_mysql_dump', [], 'mysql'),
        ('cli/sql_split_pg_copy_rows', ['--pg-copy'], 'postgres'),
    ]
    rows = []
    with tempfile.TemporaryDirectory(prefix='mote-bench-') as tmp:
        for case, gen_opts, dialect in cases:
            variants = {'mote': [mote, 'sql', 'split', '--dialect', dialect], 'cat': ['cat']}
            variants = {v: a for v, a in variants.items() if re.search(opt.filter, f'{case}/{v}')}
            if not variants:
                continue
            dump = os.path.join(tmp, 'dump.sql')
            subprocess.run([sys.executable, gen, str(opt.cli_size_mb), dump] + gen_opts,
                           check=True, capture_output=True)
            size = os.path.getsize(dump)
            for variant, argv in variants.items():
                best = None
                for _ in range(max(1, opt.repetitions)):
                    with open(os.devnull, 'wb') as null:
                        p = subprocess.Popen(argv + [dump], stdout=null)
                        _, status, ru = os.wait4(p.pid, 0)
                    if os.waitstatus_to_exitcode(status) != 0:
                        sys.exit(f'{case}/{variant}: {argv[0]} failed')
                    t = ru.ru_utime + ru.ru_stime  # CPU time: see the docstring
                    best = t if best is None else min(best, t)
                rows.append({'name': f'{case}/{variant}', 'ns': best * 1e9, 'bps': size / best,
                             'items': None})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', default='build/release')
    ap.add_argument('--filter', default='.')
    ap.add_argument('--repetitions', type=int, default=5)
    ap.add_argument('--min-time', default='0.05')
    ap.add_argument('--json', help='write all raw results to this file')
    ap.add_argument('--cli-size-mb', type=float, default=200,
                    help='size of the generated dump for the CLI rows (0: none)')
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
    rows, raw = [], []
    for exe in exes:
        data = run_one(exe, args)
        raw.append({'program': os.path.basename(exe), 'result': data})
        for b in data.get('benchmarks', []):
            if b.get('aggregate_name', 'median') != 'median':
                continue
            name = b.get('run_name', b['name'])
            rows.append({
                'name': name,
                'ns': b['real_time'] * {'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9}[b.get('time_unit', 'ns')],
                'bps': b.get('bytes_per_second'),
                'items': b.get('items_per_second'),
            })
    rows += cli_rows(opt)
    if raw and 'context' in raw[0]['result']:
        ctx = raw[0]['result']['context']
        print(f"# {ctx.get('host_name', '?')}: {ctx.get('num_cpus')} cpus @ {ctx.get('mhz_per_cpu')} MHz, "
              f"build {ctx.get('library_build_type')}, {opt.repetitions} repetitions, median")

    groups = {}
    for r in rows:
        parts = r['name'].split('/')
        case = '/'.join(parts[:-1]) if len(parts) > 1 else r['name']
        r['variant'] = parts[-1] if len(parts) > 1 else 'mote'
        groups.setdefault(case, []).append(r)

    print(f"{'case':<44} {'variant':<16} {'time':>12} {'throughput':>12} {'vs mote':>9}")
    for case, rs in groups.items():
        ours = next((r for r in rs if r['variant'] == 'mote'), None)
        for r in rs:
            t = r['ns']
            tstr = f'{t:.1f} ns' if t < 1e4 else f'{t / 1e3:.1f} us' if t < 1e7 else f'{t / 1e6:.1f} ms'
            # bytes/s where a benchmark sets it, else items/s (rows, points)
            thr = (f"{r['bps'] / 1e9:.2f} GB/s" if r['bps'] else
                   f"{r['items'] / 1e6:.1f} M/s" if r['items'] else '')
            ratio = f"{t / ours['ns']:.2f}x" if ours and r is not ours else ''
            print(f"{case:<44} {r['variant']:<16} {tstr:>12} {thr:>12} {ratio:>9}")
    if opt.json:
        with open(opt.json, 'w') as f:
            json.dump({'rows': rows, 'raw': raw}, f, indent=1)


if __name__ == '__main__':
    main()
