#!/usr/bin/env python3
"""Generate a TSBS "cpu-only" style line-protocol corpus, deterministically.

Each line: measurement `cpu`, 10 tags (hostname, region, datacenter, rack, os,
arch, team, service, service_version, service_environment), 10 integer fields
(usage_user ... usage_guest_nice, `i` suffix), nanosecond timestamp. Hosts
report in turn every 10 s from 2016-01-01T00:00:00Z, as TSBS does. Same
arguments, same bytes (random.Random with a fixed seed; Python >= 3.2).

Usage: python3 bench/ref/gen_tsbs.py [--lines N] [--hosts H] [--seed S] [-o FILE]
"""
import argparse
import random
import sys

REGIONS = [
    ("us-east-1", ["us-east-1a", "us-east-1b", "us-east-1c", "us-east-1e"]),
    ("us-west-1", ["us-west-1a", "us-west-1b"]),
    ("us-west-2", ["us-west-2a", "us-west-2b", "us-west-2c"]),
    ("eu-west-1", ["eu-west-1a", "eu-west-1b", "eu-west-1c"]),
    ("eu-central-1", ["eu-central-1a", "eu-central-1b"]),
    ("ap-southeast-1", ["ap-southeast-1a", "ap-southeast-1b"]),
    ("ap-southeast-2", ["ap-southeast-2a", "ap-southeast-2b"]),
    ("ap-northeast-1", ["ap-northeast-1a", "ap-northeast-1c"]),
    ("sa-east-1", ["sa-east-1a", "sa-east-1b", "sa-east-1c"]),
]
OSES = ["Ubuntu16.10", "Ubuntu16.04LTS", "Ubuntu15.10"]
ARCHES = ["x64", "x86"]
TEAMS = ["SF", "NYC", "LON", "CHI"]
ENVS = ["production", "staging", "test"]
FIELDS = ["usage_user", "usage_system", "usage_idle", "usage_nice", "usage_iowait",
          "usage_irq", "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"]
START_NS = 1451606400 * 10**9  # 2016-01-01T00:00:00Z
STEP_NS = 10 * 10**9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=100000)
    ap.add_argument("--hosts", type=int, default=100)
    ap.add_argument("--seed", type=int, default=123)
    ap.add_argument("-o", "--out", default="-")
    a = ap.parse_args()
    rnd = random.Random(a.seed)

    hosts = []
    for h in range(a.hosts):
        region, dcs = rnd.choice(REGIONS)
        tags = ("cpu,hostname=host_%d,region=%s,datacenter=%s,rack=%d,os=%s,arch=%s,"
                "team=%s,service=%d,service_version=%d,service_environment=%s" % (
                    h, region, rnd.choice(dcs), rnd.randrange(100), rnd.choice(OSES),
                    rnd.choice(ARCHES), rnd.choice(TEAMS), rnd.randrange(20),
                    rnd.randrange(2), rnd.choice(ENVS)))
        hosts.append([tags, [rnd.randrange(101) for _ in FIELDS]])

    out = sys.stdout if a.out == "-" else open(a.out, "w", newline="\n")
    buf = []
    for i in range(a.lines):
        h = hosts[i % a.hosts]
        vals = h[1]
        for j in range(len(vals)):  # bounded random walk in 0..100, like TSBS
            vals[j] = min(100, max(0, vals[j] + rnd.randint(-5, 5)))
        ts = START_NS + (i // a.hosts) * STEP_NS
        buf.append("%s %s %d\n" % (h[0], ",".join("%s=%di" % (f, v) for f, v in zip(FIELDS, vals)), ts))
        if len(buf) >= 4096:
            out.write("".join(buf))
            buf = []
    out.write("".join(buf))
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
