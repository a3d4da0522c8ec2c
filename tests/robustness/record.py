#!/usr/bin/env python3
"""Host-side checks of the robustness run on the emulated HWP machine.

    tests/robustness/record.py CONSOLE RECORD

CONSOLE is the guest's console log (R-MARK N <scenario> lines from
tests/robustness/guest.sh), RECORD the machine's record of every
HWP_REQUEST write (tools/hwp_record.py parses both). For every scenario:

  - every write is in order: MIN <= MAX, and DESIRED is 0 or within
    [MIN, MAX]; every field is within [lowest, highest] of that CPU's
    capabilities (DESIRED 0 and MAX above highest excepted: 0 means "no
    hint", and a MAX above highest asks for no limit);
  - the scenarios that run schedutil under load (governors, hotplug,
    limits, modes, freeze) have writes of schedutil's perf path:
    DESIRED set and above MIN, which the frequency path never writes
    (there MIN is the target, and DESIRED too).

Prints PASS:/FAIL:/INFO: lines named robustness.record.*; exit 1 on a
failure. The figures are the emulated machine's (simulated).
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import hwp_record  # noqa: E402

STEERED = ("governors", "hotplug", "limits", "modes", "freeze")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    names = {}
    with open(sys.argv[1], errors="replace") as f:
        for line in f:
            m = re.match(r"^R-MARK (\d+) ([a-z0-9.]+)", line.strip("\r\n"))
            if m:
                names[int(m.group(1))] = m.group(2)
    events = hwp_record.parse_record(sys.argv[2])
    caps = {}
    for e in events:
        if e["ev"] == "caps":
            caps[int(e["cpu"])] = (int(e["lowest"]), int(e["highest"]))
    reqs, marks = hwp_record.phases(events)
    bad = 0

    def out(ok, name, why):
        nonlocal bad
        if ok:
            print("PASS: robustness.record.%s (%s)" % (name, why))
        else:
            print("FAIL: robustness.record.%s: %s" % (name, why))
            bad += 1

    missing = sorted(n for n in names if n not in marks)
    out(names and not missing and caps, "markers",
        "%d scenario markers on the console, %s missing in the record; capabilities of %d CPUs" % (
            len(names), missing or "none", len(caps)))
    for n in sorted(names):
        scen = names[n]
        rs = [r for r in reqs if r["phase"] == n]
        wrong = []
        for r in rs:
            lo, hi = caps.get(r["cpu"], (0, 255))
            ok = r["min"] <= r["max"] and lo <= r["min"] <= hi and r["max"] >= lo
            if r["des"]:
                ok = ok and r["min"] <= r["des"] <= r["max"] and r["des"] <= hi
            if not ok:
                wrong.append("cpu%d %d/%d/%d" % (r["cpu"], r["min"], r["max"], r["des"]))
        out(not wrong, scen + ".ordered",
            "%d writes, all MIN <= DESIRED <= MAX within the CPU's levels" % len(rs) if not wrong
            else "%d of %d writes out of order or out of range (MIN/MAX/DESIRED): %s" % (
                len(wrong), len(rs), " ".join(wrong[:6])))
        if scen in STEERED:
            perf = [r for r in rs if r["des"] and r["min"] < r["des"]]
            cpus = sorted({r["cpu"] for r in perf})
            out(len(cpus) == len(caps), scen + ".perf_path",
                "%d writes with DESIRED above MIN, on CPUs %s of %d" % (len(perf), cpus, len(caps)))
    print("INFO: robustness.record: %d HWP_REQUEST writes in all (simulated machine)" % len(reqs))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
