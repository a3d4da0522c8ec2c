#!/usr/bin/env python3
"""Host-side checks of the robustness run on the emulated HWP machine.

    tests/robustness/record.py CONSOLE RECORD SCENARIO...

CONSOLE is the guest's console log (R-MARK N <scenario> lines from
tests/robustness/guest.sh), RECORD the machine's record of every
HWP_REQUEST write (tools/hwp_record.py parses both), SCENARIO the marks
the host expects (setup, governors, ..., end), known before the run. For
every expected scenario:

  - its marker is on the console and in the record;
  - it has writes, and every write is in order: MIN <= MAX, and DESIRED is 0 or within
    [MIN, MAX]; every field is within [lowest, highest] of that CPU's
    capabilities (DESIRED 0 and MAX above highest excepted: 0 means "no
    hint", and a MAX above highest asks for no limit);
  - the scenarios that run schedutil under load (governors, hotplug,
    limits, modes, freeze) have writes of schedutil's perf path:
    DESIRED set and above MIN, which the frequency path never writes
    (there MIN is the target, and DESIRED too).

Prints one KTAP document (its plan first: 1 + one per scenario + one per
steered scenario); a check that raises fails alone; exit 1 on a failure.
The figures are the emulated machine's (simulated).
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import hwp_record  # noqa: E402
import ktap  # noqa: E402

STEERED = ("governors", "hotplug", "limits", "modes", "freeze")


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    console, record, expected = sys.argv[1], sys.argv[2], sys.argv[3:]
    checks = [("markers", None)]
    for scen in expected:
        checks.append((scen + ".ordered", scen))
        if scen in STEERED:
            checks.append((scen + ".perf_path", scen))
    t = ktap.Ktap(len(checks))
    names, caps, reqs, marks, err = {}, {}, [], set(), None
    try:
        with open(console, errors="replace") as f:
            for line in f:
                m = re.match(r"^R-MARK (\d+) ([a-z0-9.]+)", line.strip("\r\n"))
                if m:
                    names[int(m.group(1))] = m.group(2)
        events = hwp_record.parse_record(record)
        for e in events:
            if e["ev"] == "caps":
                caps[int(e["cpu"])] = (int(e["lowest"]), int(e["highest"]))
        reqs, marks = hwp_record.phases(events)
    except Exception as e:  # every check fails, by name
        err = "cannot read the console or the record: %s: %s" % (type(e).__name__, e)
    num = {scen: n for n, scen in names.items()}

    def markers():
        missing = sorted(s for s in expected if s not in num or num[s] not in marks)
        return (not missing and caps,
                "%d scenario markers expected, %s missing on the console or in the record; capabilities of %d CPUs" % (
                    len(expected), missing or "none", len(caps)))

    def ordered(scen):
        if scen not in num:
            return False, "no R-MARK of this scenario on the console"
        rs = [r for r in reqs if r["phase"] == num[scen]]
        wrong = []
        for r in rs:
            lo, hi = caps.get(r["cpu"], (0, 255))
            ok = r["min"] <= r["max"] and lo <= r["min"] <= hi and r["max"] >= lo
            if r["des"]:
                ok = ok and r["min"] <= r["des"] <= r["max"] and r["des"] <= hi
            if not ok:
                wrong.append("cpu%d %d/%d/%d" % (r["cpu"], r["min"], r["max"], r["des"]))
        if not rs:
            return False, "no write in this scenario: nothing shows the order of its requests"
        return (not wrong,
                "%d writes, all MIN <= DESIRED <= MAX within the CPU's levels" % len(rs) if not wrong
                else "%d of %d writes out of order or out of range (MIN/MAX/DESIRED): %s" % (
                    len(wrong), len(rs), " ".join(wrong[:6])))

    def perf_path(scen):
        if scen not in num:
            return False, "no R-MARK of this scenario on the console"
        rs = [r for r in reqs if r["phase"] == num[scen]]
        perf = [r for r in rs if r["des"] and r["min"] < r["des"]]
        cpus = sorted({r["cpu"] for r in perf})
        return (caps and len(cpus) == len(caps),
                "%d writes with DESIRED above MIN, on CPUs %s of %d" % (len(perf), cpus, len(caps)))

    for name, scen in checks:
        if err:
            t.not_ok("record." + name, err)
        elif scen is None:
            t.run("record." + name, markers)
        elif name.endswith(".perf_path"):
            t.run("record." + name, lambda scen=scen: perf_path(scen))
        else:
            t.run("record." + name, lambda scen=scen: ordered(scen))
    print("# record: %d HWP_REQUEST writes in all (simulated machine)" % len(reqs))
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
