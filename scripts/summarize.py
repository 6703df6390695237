#!/usr/bin/env python3
"""Sum meson testlog.json files into one 'N passed, N failed' line.

    scripts/summarize.py [--extra-failed NAME ...] TESTLOG.json ...

Each result counts once: OK and EXPECTEDFAIL pass; everything else (FAIL,
ERROR, TIMEOUT, UNEXPECTEDPASS, and SKIP: a test that could not run did not
pass, and meson also reports a TAP test that printed no result as SKIP)
fails. Steps that failed before any test ran (a build error) are passed as
--extra-failed and count as failures; so does a summary of no test at all.
Exit status 1 if anything failed.
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
            failed += 1
            print(f"SKIPPED (counted as failed): {r.get('name')} in {path}")
        else:
            failed += 1
            print(f"FAILED: {r.get('name')} ({res}) in {path}")
for step in opt.extra_failed:
    print(f'FAILED step: {step}')
    failed += 1
if passed + failed == 0:
    print('FAILED: no test ran at all')
    failed += 1
print(f'{passed} passed, {failed} failed')
sys.exit(1 if failed else 0)
