#!/usr/bin/env python3
"""Sum meson testlog.json files into one 'N passed, N failed' line.

    scripts/summarize.py [--extra-failed NAME ...] TESTLOG.json ...

Each result counts once: OK and EXPECTEDFAIL pass, SKIP is counted apart,
everything else (FAIL, ERROR, TIMEOUT, UNEXPECTEDPASS) fails. Steps that
failed before any test ran (a build error) are passed as --extra-failed and
count as failures. Exit status 1 if anything failed.
"""
import argparse
import json
import sys

ap = argparse.ArgumentParser()
ap.add_argument('--extra-failed', action='append', default=[])
ap.add_argument('logs', nargs='*')
opt = ap.parse_args()

passed = failed = skipped = 0
for path in opt.logs:
    try:
        with open(path) as f:
            lines = [l for l in f if l.strip()]
    except OSError as e:
        print(f'missing test log {path}: {e}')
        failed += 1
        continue
    for line in lines:
        r = json.loads(line)
        res = r.get('result')
        if res in ('OK', 'EXPECTEDFAIL'):
            passed += 1
        elif res == 'SKIP':
            skipped += 1
        else:
            failed += 1
            print(f"FAILED: {r.get('name')} ({res}) in {path}")
for step in opt.extra_failed:
    print(f'FAILED step: {step}')
    failed += 1
tail = f', {skipped} skipped' if skipped else ''
print(f'{passed} passed, {failed} failed{tail}')
sys.exit(1 if failed else 0)
