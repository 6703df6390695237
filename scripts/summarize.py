#!/usr/bin/env python3
"""Sum meson testlog.json files into one 'N passed, N failed' line.

    scripts/summarize.py [--extra-failed NAME ...] TESTLOG.json ...
    scripts/summarize.py --suites-of TESTLOG.json [meson test args ...]

Each result counts once: OK and EXPECTEDFAIL pass; everything else (FAIL,
ERROR, TIMEOUT, UNEXPECTEDPASS, and SKIP: a test that could not run did not
pass, and meson also reports a TAP test that printed no result as SKIP)
fails. Steps that failed before any test ran (a build error) are passed as
--extra-failed and count as failures; so does a summary of no test at all.
Exit status 1 if anything failed.

--suites-of: exit 1 unless every '--suite NAME' among the arguments has at
least one test in the log.
"""
import argparse
import json
import sys

if len(sys.argv) > 2 and sys.argv[1] == '--suites-of':
    with open(sys.argv[2]) as f:
        ran = {json.loads(l)['name'].split(' / ')[0].split(':')[-1] for l in f if l.strip()}
    args = sys.argv[3:]
    asked = [args[i + 1] for i, a in enumerate(args[:-1]) if a == '--suite']
    empty = [s for s in asked if s not in ran]
    for s in empty:
        print(f'    suite {s}: no test ran')
    sys.exit(1 if empty else 0)

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
