#!/usr/bin/env python3
"""Instruction counts of the hot loops against a baseline (bench/counts.tsv).

The scan, lp and num rows that issue 14's speed targets name, and lp's
stream and writer rows, each run once under callgrind by bench/count on the
benchmarks' own inputs (MOTE_SCAN_BENCH_DUMP, MOTE_LP_BENCH_DUMP,
MOTE_NUM_BENCH_DUMP). Counted: the library's entry points (mote_scan_next;
mote_lp_next or mote_lp_stream_next and mote_lp_point_decode;
mote_lp_write_*; num's parse and format calls) and in them the library's
own instructions, not libc's. Unlike time on a shared host, the count of a
given build is the same on every run, so a change that makes a hot loop do
more shows here as a number, not as noise: a row more than --tolerance (2%)
above its baseline fails. Fewer is reported; --update writes the new counts
as the baseline (commit it with the change that earned it).

The baseline is gcc 12 (Debian bookworm), x86-64, `--buildtype=release`, as
scripts/test's release step builds; another architecture, a build of
another configuration (sanitizers, small, no SIMD) or no valgrind skips the
check (exit 77; a failure where MOTE_REQUIRE_COUNTS is set, as in CI). The scanner's rows run its block path without AVX2 (the SSE2
classifier: any x86-64) and, where the CPU has AVX2, with it.

  bench/counts.py --build build/release [--update] [--tolerance 0.02]
"""
import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
SCAN = [  # name, dialect (mote_scan_dialect), chunk: as bench_scan's BM_mote
    ('dump', 1, 65536), ('quotes', 1, 65536), ('big', 1, 4096),
    ('records', 4, 65536), ('pgdump', 3, 65536), ('pginserts', 3, 65536)]
LP = ['tsbs', 'telegraf']


def cpu_has_avx2():
    try:
        flags = open('/proc/cpuinfo').read().split()
    except OSError:
        return False
    return all(f in flags for f in ('avx2', 'bmi1', 'popcnt', 'pclmulqdq'))


def count(build, out, funcs, args):
    """instructions counted in funcs while bench/count runs with args, and
    the number it prints (tokens, points or numbers)"""
    cmd = ['valgrind', '--tool=callgrind', '--callgrind-out-file=' + out]
    cmd += ['--toggle-collect=' + f for f in funcs]
    exe = os.path.join(build, 'bench', 'count')
    cmd += [exe] + args
    env = {k: v for k, v in os.environ.items() if not k.startswith('MALLOC_')}
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f'counts: {" ".join(args)}: exit {p.returncode}\n{p.stderr[-2000:]}')
    # The library's own instructions only (it is linked into count): what
    # libc's memcpy or malloc cost there depends on the CPU (glibc picks a
    # variant per CPU) and on the environment (MALLOC_PERTURB_, which meson
    # test sets, has malloc fill memory).
    a = subprocess.run(['callgrind_annotate', '--threshold=100', '--inclusive=no', out],
                       capture_output=True, text=True, check=True).stdout
    total = 0
    for line in a.splitlines():
        m = re.match(r'\s*([\d,]+)\s.*\[(.*)\]\s*$', line)
        if m and os.path.realpath(m.group(2)) == os.path.realpath(exe):
            total += int(m.group(1).replace(',', ''))
    if total == 0:
        sys.exit(f'counts: no instructions of {exe} in {out}')
    return total, int(p.stdout.split()[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', required=True, help='a release build with -Dbenchmarks=enabled')
    ap.add_argument('--baseline', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'counts.tsv'))
    ap.add_argument('--tolerance', type=float, default=0.02)
    ap.add_argument('--update', action='store_true', help='write the counts measured as the baseline')
    a = ap.parse_args()

    # (scripts/test sets MOTE_REQUIRE_COUNTS: there a skip is a failure)
    skip = 1 if os.environ.get('MOTE_REQUIRE_COUNTS') else SKIP
    if platform.machine() != 'x86_64':
        print(f'counts: skipped: the baseline is x86-64\'s, this is {platform.machine()}')
        return skip
    if not shutil.which('valgrind'):
        print('counts: skipped: valgrind is not installed (scripts/deps installs it)')
        return skip
    build = os.path.abspath(a.build)
    # The baseline's configuration only: another build's counts differ (and a
    # sanitizer's runtime does not run under valgrind).
    opts = {o['name']: o['value'] for o in
            json.load(open(os.path.join(build, 'meson-info', 'intro-buildoptions.json')))}
    want = {'buildtype': 'release', 'b_sanitize': 'none', 'b_coverage': False, 'small': 'auto', 'simd': 'auto'}
    other = [f'{k}={opts.get(k)}' for k, v in want.items() if opts.get(k) != v]
    if other:
        print(f'counts: skipped: the baseline is a plain --buildtype=release build\'s, this one has {", ".join(other)}')
        return skip
    avx2 = cpu_has_avx2()
    base = {}
    if os.path.exists(a.baseline):
        for line in open(a.baseline):
            if line.strip() and not line.startswith('#'):
                k, v = line.split('\t')[:2]
                base[k] = float(v)

    rows = []  # (name, value, unit)
    with tempfile.TemporaryDirectory(prefix='mote-counts-') as tmp:
        env = dict(os.environ, MOTE_SCAN_BENCH_DUMP=tmp, MOTE_LP_BENCH_DUMP=tmp, MOTE_NUM_BENCH_DUMP=tmp)
        for b in ('bench_scan', 'bench_lp', 'bench_num'):
            subprocess.run([os.path.join(build, 'bench', b), '--benchmark_list_tests=true'],
                           env=env, check=True, stdout=subprocess.DEVNULL)
        out = os.path.join(tmp, 'callgrind.out')
        for name, dialect, chunk in SCAN:
            path = os.path.join(tmp, name + '.sql')
            size = os.path.getsize(path)
            for variant in (['avx2'] if avx2 else []) + ['sse2']:
                args = ['scan', path, str(dialect), str(chunk)] + (['sse2'] if variant == 'sse2' else [])
                n, _ = count(build, out, ['mote_scan_next'], args)
                rows.append((f'scan/{name}/{variant}', n / size, 'per byte'))
        for corpus in LP:
            path = os.path.join(tmp, corpus + '.lp')
            for how in ('tokenize', 'decode', 'stream', 'write'):
                funcs = {'tokenize': ['mote_lp_next'], 'decode': ['mote_lp_next', 'mote_lp_point_decode'],
                         'stream': ['mote_lp_stream_next', 'mote_lp_point_decode'],
                         'write': ['mote_lp_write_*']}[how]
                n, points = count(build, out, funcs, ['lp', path, how])
                rows.append((f'lp/{corpus}_{how}', n / points, 'per line'))

        for name, how, func in (('parse_telemetry', 'parse', 'mote_num_parse_f64'),
                                ('parse_17digit', 'parse', 'mote_num_parse_f64'),
                                ('parse_int', 'parse_int', 'mote_num_parse_i64'),
                                ('format_telemetry', 'format', 'mote_num_format_f64'),
                                ('format_random', 'format', 'mote_num_format_f64')):
            n, items = count(build, out, [func], ['num', os.path.join(tmp, name + '.txt'), how])
            rows.append((f'num/{name}', n / items, 'per number'))

    failed = 0
    print(f'{"row":28} {"baseline":>10} {"now":>10} {"change":>8}  instructions')
    for name, v, unit in rows:
        b = base.get(name)
        if b is None:
            note = 'NO BASELINE'
            failed += not a.update
        else:
            d = v / b - 1
            note = f'{d:+.2%}'
            if d > a.tolerance:
                note += '  FAIL: more than the baseline allows'
                failed += not a.update
            elif d < -a.tolerance:
                note += '  fewer: --update to keep it'
        print(f'{name:28} {b if b is not None else float("nan"):10.3f} {v:10.3f} {note:>8}  {unit}')
    if not avx2:
        print('(no AVX2 on this CPU: the scanner\'s AVX2 rows were not run)')
    if a.update:
        keep = {k: v for k, v in base.items()}
        keep.update({name: v for name, v, _ in rows})
        with open(a.baseline, 'w') as f:
            f.write('# bench/counts.py: instructions per byte (scan), line (lp) or number (num) of the hot loops;\n'
                    '# gcc 12, x86-64, --buildtype=release (scripts/test\'s release build)\n')
            for k in sorted(keep):
                f.write(f'{k}\t{keep[k]:.4f}\n')
        print(f'baseline written: {a.baseline}')
        return 0
    print(f'counts: {len(rows) - failed} rows within {a.tolerance:.0%} of the baseline, {failed} not')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
