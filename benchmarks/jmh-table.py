#!/usr/bin/env python3
"""Turns JMH JSON results (-rf json) into a table: per benchmark the median of its forks' means, the
spread of the forks, and the ratio against Guava's RateLimiter measured in the same run.

    python3 benchmarks/jmh-table.py /tmp/bench-t1.json [/tmp/bench-t2.json ...]
"""
import json
import statistics
import sys


def rows(path):
    data = json.load(open(path))
    out = []
    for b in data:
        name = b["benchmark"].rsplit(".", 1)[1]
        params = ",".join(f"{k}={v}" for k, v in sorted((b.get("params") or {}).items()))
        forks = [statistics.mean(iters) for iters in b["primaryMetric"]["rawData"]]
        out.append((name + (f" ({params})" if params else ""), b["threads"], statistics.median(forks),
                    min(forks), max(forks), b["primaryMetric"]["scoreUnit"]))
    return out


def main():
    print("| benchmark | threads | median of forks | forks min-max | vs Guava |")
    print("|---|---:|---:|---:|---:|")
    for path in sys.argv[1:]:
        r = rows(path)
        guava = next((m for n, _, m, *_ in r if n.startswith("guavaAcquire")), None)
        for name, threads, median, lo, hi, unit in sorted(r, key=lambda x: -x[2]):
            ratio = f"{median / guava:.1f}x" if guava else "-"
            print(f"| {name} | {threads} | {median:.1f} {unit} | {lo:.1f}-{hi:.1f} | {ratio} |")


if __name__ == "__main__":
    main()
