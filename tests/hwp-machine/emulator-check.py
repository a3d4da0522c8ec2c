#!/usr/bin/env python3
"""Checks of the emulated HWP machine itself (tests/54-emulator-hwp-machine.sh).

    emulator-check.py CONSOLE_LOG RECORD MONITOR_TRANSCRIPT

The boot of tests/hwp-machine/emulator-guest.sh on the machine with
hwp-highest=30:24, guaranteed 18, base ratio 20: what the guest reads back
of what the harness gave the machine, and the machine's own account. These
check QEMU's model, not the series. Prints one KTAP document: the plan
first, one result per check with what was seen; a check that raises fails
alone. Every figure is simulated.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from hwp_record import Timeline  # noqa: E402
import ktap  # noqa: E402

HIGHEST = {0: 30, 1: 24}
GUARANTEED, BASE, EFFICIENT, LOWEST = 18, 20, 10, 8


def hexval(v):
    return int(v, 16) if v and v.startswith("0x") else None


def checks(tl, transcript):
    keys = tl.keys
    cs = check = ktap.Checks()

    @check("every phase marker reached the host")
    def _():
        missing = [p for n, p in tl.names.items() if n not in tl.marks]
        return (tl.names and not missing,
                "%d phases, missing in the record: %s" % (len(tl.names), missing or "none"))


    @check("HWP capabilities per vCPU as given: 30/18/10/8 and 24/18/10/8, cpu1 cpuinfo_max_freq 2.4 GHz")
    def _():
        want = [LOWEST << 24 | EFFICIENT << 16 | GUARANTEED << 8 | HIGHEST[c] for c in (0, 1)]
        got = [hexval(keys.get("CAP%d" % c)) for c in (0, 1)]
        f1 = keys.get("CPU1-FREQ", "").split()
        return (got == want and len(f1) == 2 and f1[1] == "2400000",
                "CAP0 %s CAP1 %s (want %#x %#x), cpu1 cpuinfo min/max %s" % (
                    keys.get("CAP0"), keys.get("CAP1"), want[0], want[1], " ".join(f1) or "none"))

    # the value read must be a request the machine recorded for cpu0 (not
    # just any 16 hex digits), the one in effect when the read began or one
    # written during it
    @check("HWP_REQUEST read through /dev/cpu/0/msr is the request the machine has in effect")
    def _():
        v = hexval(keys.get("REQ0"))
        sp = tl.span("req-read")
        ws = [e for e in tl.events if e["ev"] == "req" and e.get("cpu") == "0"]
        before = [e for e in ws if sp and int(e["t"]) <= sp[0]]
        cand = (before[-1:] + [e for e in ws if sp[0] < int(e["t"]) < sp[1]]) if sp else []
        vals = [int(e["req"], 16) for e in cand]
        return (v is not None and v in vals,
                "read %s; the machine's record has in effect then: %s" % (
                    keys.get("REQ0"), " ".join("%#x" % x for x in vals) or "none"))

    for k in ("TSC-DETECTED", "TSC-REFINED"):
        # the boot's quick calibration against the PIT is coarse (within
        # 0.5%), then the
        # refinement against the HPET over a second, the frequency the
        # kernel keeps: within 0.1%
        tol = 0.005 if k == "TSC-DETECTED" else 0.001

        @check("boot log: %s TSC frequency = the base ratio's %d MHz (within %.1f%%)" % (
            "calibrated" if k == "TSC-DETECTED" else "refined", BASE * 100, tol * 100))
        def _(k=k, tol=tol):
            v = keys.get(k, "")
            try:
                mhz = float(v)
            except ValueError:
                mhz = None
            return (mhz is not None and abs(mhz - BASE * 100) <= BASE * 100 * tol,
                    "tsc: %s MHz (clocksource %s)" % (v or "none", keys.get("CLOCKSOURCE")))

    # the counters over 2 s of the hold: MPERF
    # at the TSC's rate (the vCPU never halts under the spin), APERF at
    # level / base of it
    for cpu in (0, 1):
        for lvl in (12, 24):
            @check("CPU %d held at level %d: MPERF counts at the TSC's rate, APERF at %d/%d of it (within 2%%)" % (
                cpu, lvl, lvl, BASE))
            def _(cpu=cpu, lvl=lvl):
                c = keys.get("CNT-%d-%d" % (cpu, lvl), "").split()
                try:
                    dt, dm, da = (int(x) for x in c)
                except ValueError:
                    dt = dm = da = 0
                return (dt > 0 and dm > 0 and abs(dm / dt - 1) <= 0.02 and abs(da / dm - lvl / BASE) <= 0.02 * lvl / BASE,
                        "over %.3f s of TSC: MPERF/TSC %s, APERF/MPERF %s (want %.3f)" % (
                            dt / (BASE * 1e8), "%.4f" % (dm / dt) if dt else "?",
                            "%.4f" % (da / dm) if dm else "?", lvl / BASE))

    # the machine's own account at exit: MPERF ticks per busy ns
    for cpu in (0, 1):
        @check("CPU %d at exit: MPERF counted %s ticks per busy ns (the base frequency, within 0.5%%)" % (
            cpu, BASE / 10))
        def _(cpu=cpu):
            es = [e for e in tl.events if e["ev"] == "summary" and e.get("cpu") == str(cpu)]
            if not es:
                return False, "no summary event for CPU %d in the record" % cpu
            busy, mperf = int(es[-1]["busy_ns"]), int(es[-1]["mperf"])
            return (busy > 0 and abs(mperf / busy - BASE / 10) <= 0.005 * BASE / 10,
                    "mperf %d over %d busy ns: %.5f per ns" % (mperf, busy, mperf / busy if busy else 0))

    @check("simulated package energy counter advances under load, RAPL unit register 0xa0e03")
    def _():
        e = keys.get("ENERGY", "").split()
        if len(e) != 3 or None in [hexval(x) for x in e]:
            return False, "PKG_ENERGY_STATUS before, after, RAPL_POWER_UNIT: '%s'" % keys.get("ENERGY")
        d = (hexval(e[1]) - hexval(e[0])) & 0xffffffff
        return (d > 0 and hexval(e[2]) == 0xa0e03,
                "PKG_ENERGY_STATUS +%d units of 2^-14 J = %.2f J over 2 s of load, RAPL_POWER_UNIT %s" % (
                    d, d / 16384, e[2]))

    # turbo disabled caps the running level at the guaranteed one
    @check("turbo off on cpu0 (MISC_ENABLE bit 38): seen by cpu1, running level capped at %d" % GUARANTEED)
    def _():
        m1, ps = hexval(keys.get("MISC-ENABLE1")), hexval(keys.get("PERF-STATUS0"))
        # the levels cpu0 ran at from the machine's turbo-off event to the
        # guest's next marker
        sp = tl.span("turbo-off")
        turbo = [e for e in tl.events if e["ev"] == "turbo" and e.get("disabled") == "1"
                 and sp and sp[0] <= int(e["t"]) < sp[1]]
        lv = [int(e["new"]) for e in tl.events if e["ev"] == "level" and e.get("cpu") == "0"
              and turbo and int(turbo[0]["t"]) <= int(e["t"]) < sp[1]]
        return (turbo and m1 is not None and m1 >> 38 & 1 and ps is not None
                and 0 < (ps >> 8) & 255 <= GUARANTEED and all(x <= GUARANTEED for x in lv),
                "%d turbo-off events recorded in the phase, cpu1 MISC_ENABLE %s, cpu0 PERF_STATUS %s, "
                "cpu0 levels recorded meanwhile %s" % (
                    len(turbo), keys.get("MISC-ENABLE1"), keys.get("PERF-STATUS0"), lv or "none"))

    # wall-clock time: the guest's 10 s against the host's clock
    @check("wall-clock time in the guest follows the host's (within 1%)")
    def _():
        try:
            guest = float(keys["UPTIME-END"]) - float(keys["UPTIME-START"])
            host = (tl.mark_ht[tl.num["wall-end"]] - tl.mark_ht[tl.num["wall-start"]]) / 1e9
        except (KeyError, ValueError):
            guest = host = None
        return (guest and host and abs(guest - host) <= 0.01 * host + 0.02,
                "guest %s s, host %s s between the markers" % (
                    "%.2f" % guest if guest else "?", "%.3f" % host if host else "?"))

    # the guaranteed level changed through the monitor
    @check("monitor: guaranteed level 18 -> 14 on both vCPUs, HWP_STATUS bit 0 set, cleared by writing 0")
    def _():
        ev = [e for e in tl.events if e["ev"] == "guaranteed"]
        st = (keys.get("GUAR-STATUS") or "").split()
        return (keys.get("GUAR-CAPS") == "14 14" and len(st) == 2
                and all(int(x, 16) & 1 for x in st)
                and keys.get("GUAR-STATUS-CLEARED") == "0x0 0x0"
                and sorted((e["cpu"], e["old"], e["new"]) for e in ev if e["new"] == "14") == [("0", "18", "14"), ("1", "18", "14")],
                "capabilities' guaranteed %s, HWP_STATUS %s, after writing 0 %s; record: %s" % (
                    keys.get("GUAR-CAPS"), keys.get("GUAR-STATUS"), keys.get("GUAR-STATUS-CLEARED"),
                    " ".join("cpu%s:%s->%s" % (e["cpu"], e["old"], e["new"]) for e in ev) or "none"))

    @check("monitor: a guaranteed level above the highest is refused by QEMU and changes nothing")
    def _():
        text = open(transcript, errors="replace").read() if os.path.exists(transcript) else ""
        return ("(must be refused)" in text and "is not in [efficient" in text and "UNEXPECTED" not in text
                and keys.get("GUAR-BACK") == "18 18",
                "guaranteed after the refused 31: %s; transcript: %d commands%s" % (
                    keys.get("GUAR-BACK"), text.count("\ncommand ") + text.startswith("command "),
                    ", one UNEXPECTED" if "UNEXPECTED" in text else ""))
    return cs


def main():
    args = sys.argv[1:]
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    tl, err = Timeline.load(args[0], args[1])
    cs = checks(tl, args[2])
    return cs.report(err, " (simulated)")


if __name__ == "__main__":
    sys.exit(main())
