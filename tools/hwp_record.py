#!/usr/bin/env python3
"""The emulated HWP machine's record and a guest's console (hwp-machine.md).

    tools/hwp_record.py summary CONSOLE_LOG RECORD    (tools/hwp-steer.sh)

prints what the guest saw and the machine recorded (simulated figures).
"""
import re
import sys

# marker N: the guest reads MSR MARK + N, not implemented (hwpload.c "mark")
MARK = 0x4F4D0000


def mark_of(e):
    """The marker N that the event E records, or None."""
    if e["ev"] == "gp" and e.get("op") == "rdmsr" and int(e["msr"], 16) & 0xFFFF0000 == MARK:
        return int(e["msr"], 16) & 0xFFFF
    return None


def mmd(r):
    return "%d/%d/%d" % (r["min"], r["max"], r["des"])


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
            # guest-lib.sh's mark(), and robustness/guest.sh's (a kernel message may follow)
            m = re.match(r"^PHASE (\d+) (\S+)$", line) or re.match(r"^R-MARK (\d+) ([a-z0-9.]+)", line)
            if m:
                phases[int(m.group(1))] = m.group(2)
            elif line.startswith("DMESG: "):
                dmesg.append(line[7:])
            elif k := re.match(r"^([A-Z][A-Z0-9-]*)=(.*)$", line):
                keys[k.group(1)] = k.group(2)
    return phases, keys, dmesg


def phases(events):
    """(requests, markers): every HWP_REQUEST write as a dict with cpu, min,
    max, des, epp, t (virtual ns) and phase (the last marker before it, 0
    before the first), and the first event of each marker found, by its
    number."""
    cur, reqs, marks = 0, [], {}
    for e in events:
        m = mark_of(e)
        if m is not None:
            cur = m
            marks.setdefault(m, e)
        elif e["ev"] == "req":
            r = {k: int(e[k]) for k in ("cpu", "min", "max", "des", "epp")}
            r["t"] = int(e["t"])
            r["phase"] = cur
            reqs.append(r)
    return reqs, marks


class Timeline:
    """A guest console and the machine's record, cut into phases at the
    guest's markers. A phase runs from its marker to the next one; "in
    effect" is the last request written for a CPU at a given time,
    whichever phase wrote it. Times are the record's (virtual ns)."""

    # the end of a phase, read GRACE before the next marker: not the request
    # a load's exit leaves just before it (under TCG about 1 ms)
    GRACE = 50 * 1000 * 1000    # ns

    @classmethod
    def load(cls, console, record):
        """(the timeline, None); or, when the logs cannot be read, an empty
        timeline (to name the checks) and why."""
        try:
            return cls(console, record), None
        except Exception as e:  # every check then fails with this, by name
            return cls(), "cannot read the console or the record: %s: %s" % (type(e).__name__, e)

    def __init__(self, console=None, record=None):
        self.names, self.keys, self.dmesg = parse_console(console) if console is not None else ({}, {}, [])
        self.console = console
        self.events = parse_record(record) if record is not None else []
        self.reqs, self.marks = phases(self.events)
        self.mark_t = {m: int(e["t"]) for m, e in self.marks.items()}
        self.mark_ht = {m: int(e["ht"]) for m, e in self.marks.items()}
        self.t_last = int(self.events[-1]["t"]) if self.events else 0
        self.num = {name: n for n, name in self.names.items()}

    def span(self, phase):
        n = self.num.get(phase)
        if n is None or n not in self.mark_t:
            return None
        later = [t for m, t in self.mark_t.items() if m > n]
        return self.mark_t[n], min(later) if later else self.t_last

    def writes(self, cpu, t0, t1):
        return [r for r in self.reqs if r["cpu"] == cpu and t0 <= r["t"] < t1]

    def in_effect(self, cpu, t):
        rs = [r for r in self.reqs if r["cpu"] == cpu and r["t"] <= t]
        return rs[-1] if rs else None

    def phase_writes(self, phase, cpu):
        sp = self.span(phase)
        return self.writes(cpu, *sp) if sp else []

    def since(self, cpu, t0, t1):
        """The request in effect at T0 and every one written up to T1."""
        return [r for r in (self.in_effect(cpu, t0),) if r] + self.writes(cpu, t0, t1)

    def effective(self, phase, cpu):
        """The request in effect when the phase starts and every one written
        in it (up to GRACE before its end)."""
        sp = self.span(phase)
        return self.since(cpu, sp[0], sp[1] - self.GRACE) if sp else []

    def end_state(self, phase, cpu):
        sp = self.span(phase)
        return self.in_effect(cpu, sp[1] - self.GRACE) if sp else None

    def from_first(self, phase, cpu, pred):
        """effective() from the first request written in the phase that
        satisfies PRED on (a load's start may dip first), else from the one
        in effect at its start if that does; [] if none does."""
        rs = self.effective(phase, cpu)
        start = 0 if rs and pred(rs[0]) else len(rs)
        return rs[next((i for i, r in enumerate(rs) if i and pred(r)), start):]

    @staticmethod
    def fmt(rs, k=6):
        s = " ".join(mmd(r) for r in rs[-k:])
        return "%d writes, last MIN/MAX/DESIRED %s" % (len(rs), s or "none")

    def seen(self, phase, cpu):
        e = self.end_state(phase, cpu)
        return "%s; in effect at the end %s" % (
            self.fmt(self.phase_writes(phase, cpu)),
            mmd(e) if e else "none")


def summary(console, record):
    ph, keys, _ = parse_console(console)
    reqs, _ = phases(parse_record(record))
    num = {name: n for n, name in ph.items()}

    def writes(phase):
        return [r for r in reqs if r["phase"] == num.get(phase) and r["cpu"] == 1]

    under = writes("spin-cpu1")
    load, after = [r["des"] for r in under], [r["des"] for r in writes("idle") + writes("idle-wake")]
    # the perf path: CPU 1 written under load, every request in effect with DESIRED, some above MIN
    effect = [r for r in reqs if r["cpu"] == 1 and under and r["t"] < under[0]["t"]][-1:] + under
    perf = bool(under) and "spin-cpu1" in num and all(r["des"] for r in effect) \
        and any(r["min"] < r["des"] for r in effect)
    print("driver: %s, status %s, governor %s, HWP %s" % (
        keys.get("DRIVER", "?"), keys.get("STATUS", "?"), keys.get("GOVERNOR1", "?"),
        "on" if keys.get("HWP", "0") != "0" else "off"))
    print("adjust_perf: %s" % (
        "in use (%d writes under load; every request in effect carried DESIRED, some above MIN)" % len(under) if perf
        else "NOT in use (writes under load, MIN/MAX/DESIRED: %s)" % (" ".join(map(mmd, effect[-4:])) or "none")))
    print("desired: CPU 1 under load %s (last %s); after it %s (last %s); %d writes in all (simulated)" % (
        "%d-%d" % (min(load), max(load)) if load else "none", load[-1] if load else "-",
        "%d-%d" % (min(after), max(after)) if after else "no write",
        after[-1] if after else keys.get("IDLE-DESIRED1", "-"), len(reqs)))
    return 0 if perf and keys.get("DRIVER") == "intel_cpufreq" else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "summary":
        sys.exit(summary(sys.argv[2], sys.argv[3]))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
