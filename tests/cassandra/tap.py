"""TAP output for the Cassandra test scripts: check() prints one numbered
'ok' / 'not ok' line per assertion, done() the plan and the exit status
(1 if any check failed)."""
import sys

_checks = 0
_failures = 0


def check(ok, what):
    global _checks, _failures
    _checks += 1
    print(('ok %d - ' if ok else 'not ok %d - ') % _checks + what, flush=True)
    if not ok:
        _failures += 1


def done():
    print('1..%d' % _checks)
    sys.exit(1 if _failures else 0)
