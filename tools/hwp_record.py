#!/usr/bin/env python3
"""The host-side record of the emulated HWP machine, and a guest's console.

As a module (tests/hwp-machine/check.py): parse_record(), parse_console()
and phases(). As a command (the main job):

    tools/hwp_record.py summary CONSOLE_LOG RECORD

prints what the guest of tools/main.sh saw and what the machine recorded,
one "key: value" line each. Every figure is simulated by the emulated
machine (Documentation/project/hwp-machine.md), not measured on hardware.
"""
import re
import sys

# The guest leaves marker N in the record by reading MSR MARK + N, which the
# machine does not implement (tools/hwp-guest/hwpload.c, "mark").
MARK = 0x4F4D0000


def parse_record(path):
    """Every event of the record, as a dict of its key=value fields."""
    events = []
    with open(path, errors="replace") as f:
        for line in f:
            kv = dict(re.findall(r"(\w+)=(\S+)", line))
            if "ev" in kv:
                events.append(kv)
    return events


def parse_console(path):
    """(phases {N: name}, keys {KEY: value}, dmesg lines) of a guest console."""
    phases, keys, dmesg = {}, {}, []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            m = re.match(r"^PHASE (\d+) (\S+)$", line)
            if m:
                phases[int(m.group(1))] = m.group(2)
                continue
            if line.startswith("DMESG: "):
                dmesg.append(line[7:])
                continue
            m = re.match(r"^([A-Z][A-Z0-9-]*)=(.*)$", line)
            if m:
                keys[m.group(1)] = m.group(2)
    return phases, keys, dmesg


def phases(events):
    """(requests, markers): every HWP_REQUEST write as a dict with cpu, min,
    max, des, epp, t (virtual ns) and phase (the last marker before it, 0
    before the first), and the set of markers found."""
    cur, reqs, marks = 0, [], set()
    for e in events:
        if e["ev"] == "gp" and e.get("op") == "rdmsr":
            msr = int(e["msr"], 16)
            if msr & 0xFFFF0000 == MARK:
                cur = msr & 0xFFFF
                marks.add(cur)
                continue
        if e["ev"] == "req":
            r = {k: int(e[k]) for k in ("cpu", "min", "max", "des", "epp")}
            r["t"] = int(e["t"])
            r["phase"] = cur
            reqs.append(r)
    return reqs, marks


def summary(console, record):
    ph, keys, _ = parse_console(console)
    reqs, _ = phases(parse_record(record))
    num = {name: n for n, name in ph.items()}

    def des(phase, cpu):
        return [r["des"] for r in reqs if r["phase"] == num.get(phase) and r["cpu"] == cpu]

    load, after = des("load", 1), des("after", 1)
    under = [r for r in reqs if r["phase"] == num.get("load") and r["cpu"] == 1]
    # the perf path: schedutil wrote CPU 1's request under load (at least
    # once), and the request in effect through the load, the one its start
    # found and every one written during it, always carried a DESIRED, some
    # above MIN (the frequency path writes the target into MIN and DESIRED)
    first = under[0]["t"] if under else None
    before = [r for r in reqs if r["cpu"] == 1 and first is not None and r["t"] < first]
    effect = before[-1:] + under
    perf = bool(under) and "load" in num and all(r["des"] for r in effect) \
        and any(r["min"] < r["des"] for r in effect)
    print("driver: %s, status %s, governor %s, HWP %s" % (
        keys.get("DRIVER", "?"), keys.get("STATUS", "?"), keys.get("GOVERNOR", "?"),
        "on" if keys.get("HWP", "0") != "0" else "off"))
    print("adjust_perf: %s" % (
        "in use (%d writes under load; every request in effect carried DESIRED, some above MIN)" % len(under) if perf
        else "NOT in use (writes under load, MIN/MAX/DESIRED: %s)" % (" ".join(
            "%d/%d/%d" % (r["min"], r["max"], r["des"]) for r in effect[-4:]) or "none")))
    print("desired: CPU 1 under load %s (last %s); after it %s (last %s); %d writes in all (simulated)" % (
        "-".join(str(x) for x in (min(load), max(load))) if load else "none",
        load[-1] if load else "-",
        "-".join(str(x) for x in (min(after), max(after))) if after else "no write",
        after[-1] if after else keys.get("AFTER-DESIRED1", "-"), len(reqs)))
    return 0 if perf and keys.get("DRIVER") == "intel_cpufreq" else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "summary":
        sys.exit(summary(sys.argv[2], sys.argv[3]))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
