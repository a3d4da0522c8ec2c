#!/usr/bin/env python3
"""Summarize the intel_pstate_adjust_perf tracepoint in ftrace text output
(/sys/kernel/tracing/trace, trace_pipe or `trace-cmd report`; TRACE "-" is
stdin). One row per CPU: events, registers written, seconds covered, the
request hwp_min/hwp_desired/hwp_max as min/median/max HWP level, the median
target_perf in % of capacity, and the share of hwp_desired=0 (floor or DEC).
--svg plots hints (% of capacity) and request (HWP levels) for up to 8 CPUs.
Exit status 1 if TRACE holds no such event."""
import argparse
import re
import statistics
import sys
import xml.etree.ElementTree as ET

EVENT = re.compile(r"\s(\d+(?:\.\d+)?):\s+(?:intel_pstate:)?intel_pstate_adjust_perf:\s(.*)")
FIELDS = "cpu min_perf target_perf max_perf capacity hwp_min hwp_max hwp_desired written".split()
HEADER = "cpu events written written% seconds hwp_min hwp_desired hwp_max target% desired0%".split()
PANELS = 8
COLORS = ("#1f77b4", "#2ca02c", "#d62728")
W, H, LEFT, PW = 900, 110, 70, 720        # image width, sub-panel height, plot left and width
SUBPANELS = ((True, "hints", "% of capacity", ("min_perf", "target_perf", "max_perf")),
             (False, "HWP request", "HWP level", ("hwp_min", "hwp_desired", "hwp_max")))


def parse(lines, cpu=None):
    """({cpu: [(time, {field: int})] in time order}, number of event lines
    missing a field), of CPU cpu alone if it is given."""
    cpus, bad = {}, 0
    for line in lines:
        m = EVENT.search(line)
        if not m:
            continue
        f = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", m.group(2))}
        if not all(k in f for k in FIELDS):
            bad += 1            # a truncated line
        elif cpu in (None, f["cpu"]):
            cpus.setdefault(f["cpu"], []).append((float(m.group(1)), f))
    return {c: sorted(e, key=lambda e: e[0]) for c, e in sorted(cpus.items())}, bad


def pct(f, key):
    return 100.0 * f[key] / (f["capacity"] or 1)


def row(cpu, evs):
    """The table's cells for one CPU; medians of levels are levels seen."""
    n, col = len(evs), lambda k: [f[k] for _, f in evs]
    w = sum(col("written"))
    return [str(cpu), str(n), str(w), "%.1f" % (100.0 * w / n), "%.3f" % (evs[-1][0] - evs[0][0])] + [
        "%d/%d/%d" % (min(col(k)), statistics.median_low(col(k)), max(col(k)))
        for k in ("hwp_min", "hwp_desired", "hwp_max")] + [
        "%.1f" % statistics.median(pct(f, "target_perf") for _, f in evs),
        "%.1f" % (100.0 * col("hwp_desired").count(0) / n)]


def table(cpus):
    rows = [HEADER] + [row(c, e) for c, e in cpus.items()]
    wid = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    return "".join("  ".join(s.rjust(w) for s, w in zip(r, wid)) + "\n" for r in rows)


def text(x, y, s, attrs=""):
    return '<text x="%.1f" y="%.1f" %s>%s</text>' % (x, y, attrs, s)


def svg(cpus):
    """A plot over time: per CPU the hints, then the request, as step lines."""
    shown = list(cpus.items())[:PANELS]
    t0 = min(e[0][0] for _, e in shown)
    span = (max(e[-1][0] for _, e in shown) - t0) or 1.0
    x = lambda t: LEFT + PW * (t - t0) / span
    out, y = [], 20
    if len(cpus) > PANELS:
        out.append(text(LEFT, 14, "%d more CPUs not shown (use --cpu N)" % (len(cpus) - PANELS)))
    for cpu, evs in shown:
        for hints, title, unit, keys in SUBPANELS:
            series = [[(t, pct(f, k) if hints else f[k]) for t, f in evs] for k in keys]
            top = max([100 if hints else 1] + [v for s in series for _, v in s])
            yv = lambda v: y + 15 + H - H * v / top
            out += [text(LEFT, y + 10, "CPU %d: %s" % (cpu, title), 'font-weight="bold"'),
                    '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>' % (LEFT, y + 15, PW, H),
                    text(0, 0, unit, 'transform="translate(14,%d) rotate(-90)" text-anchor="middle"' % (y + 15 + H / 2))]
            out += [text(LEFT - 4, yv(v) + 4, "%g" % round(v, 1), 'text-anchor="end"') for v in (0, top / 2, top)]
            out += [text(x(t0 + span * i / 4), y + H + 28, "%.3g" % (span * i / 4), 'text-anchor="middle"')
                    for i in range(5)]
            for s, color, name, i in zip(series, COLORS, keys, range(3)):
                # the points where the value changes, the last value held to the
                # end of the time axis, and a horizontal-vertical step between them
                ch = [p for j, p in enumerate(s) if not j or p[1] != s[j - 1][1]] + [(t0 + span, s[-1][1])]
                pts = ch[:1] + [q for a, b in zip(ch, ch[1:]) for q in ((b[0], a[1]), b)]
                out.append('<polyline fill="none" stroke="%s" points="%s"/>'
                           % (color, " ".join("%.1f,%.1f" % (x(t), yv(v)) for t, v in pts)))
                out.append(text(LEFT + PW + 8, y + 30 + 15 * i, name, 'fill="%s"' % color))
            y += H + 40
        y += 10
    out.append(text(LEFT + PW / 2, y, "time (s) since the first event shown", 'text-anchor="middle"'))
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
            'font-size="11">\n<rect width="100%%" height="100%%" fill="white"/>\n%s\n</svg>\n'
            % (W, y + 10, "\n".join(out)))


SAMPLE = """# tracer: nop
 bash-1234    [001] d..2  100.000000: intel_pstate_adjust_perf: cpu=1 min_perf=0 target_perf=512 max_perf=1024 capacity=1024 hwp_min=8 hwp_max=30 hwp_desired=19 written=1
 <idle>-0     [000] d.h2. 100.500000: intel_pstate_adjust_perf: cpu=0 min_perf=256 target_perf=1024 max_perf=1024 capacity=1024 hwp_min=30 hwp_max=30 hwp_desired=0 written=0
 bash-1234    [001] d..2. 101.000000: sched_switch: prev_comm=bash prev_pid=1234 next_comm=swapper/1 next_pid=0
 bash-1234    [001] 102.250000: intel_pstate:intel_pstate_adjust_perf: cpu=1 min_perf=0 target_perf=256 max_perf=1024 capacity=1024 hwp_min=8 hwp_max=30 hwp_desired=12 written=1
 bash-1234    [001] d..2  103.000000: intel_pstate_adjust_perf: cpu=1 min_perf=0 target_perf=1024 max_perf=1024 capac"""


def self_test():
    cpus, bad = parse(SAMPLE.splitlines())
    doc = ET.fromstring(svg(cpus))
    checks = [
        ("3 events, 1 truncated line", ([len(e) for e in cpus.values()], bad), ([1, 2], 1)),
        ("table row of CPU 0", row(0, cpus[0]),
         ["0", "1", "0", "0.0", "0.000", "30/30/30", "0/0/0", "30/30/30", "100.0", "100.0"]),
        ("table row of CPU 1", row(1, cpus[1]),
         ["1", "2", "2", "100.0", "2.250", "8/8/8", "12/12/19", "30/30/30", "37.5", "0.0"]),
        ("--cpu 1 keeps CPU 1 alone", list(parse(SAMPLE.splitlines(), 1)[0]), [1]),
        ("svg: 12 step lines", len(doc.findall(".//{http://www.w3.org/2000/svg}polyline")), 12),
        ("svg says CPUs beyond 8 are cut", "2 more CPUs" in svg({c: cpus[1] for c in range(10)}), True),
    ]
    print("TAP version 13\n1..%d" % len(checks))
    for i, (name, got, want) in enumerate(checks, 1):
        if got != want:
            print("# %s: got %r, want %r" % (name, got, want))
        print("%s %d - %s" % ("ok" if got == want else "not ok", i, name))
    return 0 if all(c[1] == c[2] for c in checks) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace", nargs="?", metavar="TRACE", type=argparse.FileType("r", errors="replace"))
    ap.add_argument("--cpu", type=int, metavar="N", help="only CPU N")
    ap.add_argument("--svg", metavar="FILE", help="write the plot to FILE")
    ap.add_argument("--self-test", action="store_true", help="check the tool on a built-in sample (KTAP)")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if a.trace is None:
        ap.error("TRACE is required")
    cpus, bad = parse(a.trace, a.cpu)
    if not cpus:
        sys.exit("hwp-trace: no intel_pstate_adjust_perf event in %s%s"
                 % (a.trace.name, "" if a.cpu is None else " for CPU %d" % a.cpu))
    if bad:
        print("hwp-trace: %d incomplete event line(s) skipped" % bad, file=sys.stderr)
    sys.stdout.write(table(cpus))
    if a.svg:
        with open(a.svg, "w") as f:
            f.write(svg(cpus))


if __name__ == "__main__":
    sys.exit(main())
