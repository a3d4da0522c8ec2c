#!/usr/bin/env python3
"""Assertions of tests/56-hwp-driver.sh on the emulated HWP machine.

    check.py [--levels HIGHEST0:HIGHEST1:GUARANTEED:LOWEST] CONSOLE_LOG RECORD

Reads the guest's console (PHASE lines, KEY=value lines) and the host-side
record of the machine (one event per line, see Documentation/project/hwp-machine.md),
cuts the record into phases at the guest's markers, and prints one KTAP
document: the plan (the number of checks, known before any runs), then one
result per check, with what was seen on a diagnostic line; a check that
raises fails alone, the others still run. A phase
runs from its marker to the next one; "in effect" is the last request written
for a CPU at a given time, whichever phase wrote it. Every figure comes from
the emulated machine: simulated, not measured on hardware.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from hwp_record import Timeline  # noqa: E402
import ktap  # noqa: E402


def checks(tl, highest, hi0, guar, lowest):
    """Every check as (name, fn): fn() returns (passed, what was seen)."""
    names, keys, dmesg, reqs, marks = tl.names, tl.keys, tl.dmesg, tl.reqs, tl.marks
    span, writes, in_effect, fmt = tl.span, tl.writes, tl.in_effect, tl.fmt
    phase_writes, end_state, late_min, seen = tl.phase_writes, tl.end_state, tl.late_min, tl.seen
    cs = check = ktap.Checks()

    # ---- the machine and the driver -----------------------------------
    @check("guest: intel_cpufreq in passive mode with HWP enabled, schedutil")
    def _():
        return (keys.get("DRIVER") == "intel_cpufreq" and keys.get("STATUS") == "passive"
                and keys.get("HWP", "0") != "0" and keys.get("PM-ENABLE") == "0x1"
                and keys.get("GOVERNOR0") == "schedutil" and keys.get("GOVERNOR1") == "schedutil",
                "driver %s, status %s, 'HWP enabled' lines %s, IA32_PM_ENABLE %s, governors %s/%s" % (
                    keys.get("DRIVER"), keys.get("STATUS"), keys.get("HWP"), keys.get("PM-ENABLE"),
                    keys.get("GOVERNOR0"), keys.get("GOVERNOR1")))

    @check("record: every phase marker reached the host")
    def _():
        missing = [p for n, p in names.items() if n not in marks]
        return (names and not missing,
                "%d phases, missing in the record: %s" % (len(names), missing or "none"))

    @check("invariance stays on (no 'went wobbly')")
    def _():
        return keys.get("WOBBLY") == "0", "WOBBLY=%s" % keys.get("WOBBLY")

    @check("every write with DESIRED: MIN <= DESIRED <= MAX")
    def _():
        bad = [r for r in reqs if r["des"] and not (r["min"] <= r["des"] <= r["max"])]
        return (reqs and not bad,
                "%d writes, %d violate it%s" % (len(reqs), len(bad), (": " + fmt(bad, 3)) if bad else ""))

    # the perf hook: under schedutil with load every write carries DESIRED,
    # with MIN below it (the frequency path puts the target level into MIN
    # and DESIRED alike)
    @check("schedutil's perf hook in use: DESIRED on every write under load")
    def _():
        su = phase_writes("spin-cpu0", 0) + phase_writes("spin-cpu1", 1)
        return (su and all(r["des"] for r in su) and any(r["min"] < r["des"] for r in su),
                "%d writes under load, %d with DESIRED 0, %d with MIN < DESIRED" % (
                    len(su), sum(1 for r in su if not r["des"]), sum(1 for r in su if r["min"] < r["des"])))

    # ---- load, idle, periodic -----------------------------------------
    for ph, cpu in (("spin-cpu0", 0), ("spin-cpu1", 1)):
        @check("full load on CPU %d: DESIRED rises to its highest level %d" % (cpu, highest[cpu]))
        def _(ph=ph, cpu=cpu):
            e = end_state(ph, cpu)
            return e and e["des"] == highest[cpu] and e["max"] == highest[cpu], seen(ph, cpu)

    # idle: the request falls to the bottom half by the end of the wake
    # probes (an idle CPU sends no update: the request follows the decayed
    # utilization at its next wakeup, so the guest wakes CPU 1 briefly until
    # it does, at most 20 times); the
    # guest's own read of the register, taken in the wake probe's phase,
    # must be a DESIRED the host saw in effect then (the shell's own work on
    # the CPU after the probe, new tasks and iowait boost, may raise it again)
    @check("idle: DESIRED falls")
    def _():
        load = end_state("spin-cpu1", 1)
        rs = phase_writes("idle", 1) + phase_writes("idle-wake", 1)
        low = min((r["des"] for r in rs), default=None)
        reg = keys.get("IDLE-DESIRED1", "?")
        sp = span("idle-wake")
        wake = ([r for r in (in_effect(1, sp[0]),) if r] + writes(1, *sp)) if sp else []
        return (load and low is not None and low <= highest[1] // 2 and reg.isdigit()
                and int(reg) in [r["des"] for r in wake],
                "after full load %s, lowest in idle and the wake probes %s (the guest reads %s at the end); %s" % (
                    load and load["des"], low, reg, fmt(rs)))

    # schedutil's rate limit holds on the perf path: under a load whose
    # utilization moves at nearly every tick (30 ms on, 30 ms off),
    # consecutive requests of the CPU are at least rate_limit_us (20 ms)
    # apart; 10% for the clocks
    @check("rate_limit_us holds on the perf path (20 ms between requests)")
    def _():
        rs = phase_writes("ratelimit-cpu1", 1)
        gaps = [(b["t"] - a["t"]) / 1e6 for a, b in zip(rs, rs[1:])]
        return (keys.get("RATE-LIMIT-US") == "20000" and len(rs) >= 3 and min(gaps) >= 18,
                "rate_limit_us %s; %d requests under the load, shortest gap %s ms; %s" % (
                    keys.get("RATE-LIMIT-US"), len(rs), "%.1f" % min(gaps) if gaps else "-", fmt(rs)))

    # the second half of the load, up to GRACE before its end: when the load
    # exits, the next phase's marker task starts on the CPU with a new task's
    # utilization, and its request, written just before the marker, is not
    # the periodic load's
    @check("periodic load (30% duty): DESIRED well below MAX")
    def _():
        sp = span("periodic-30")
        if sp:
            mid = (sp[0] + sp[1]) // 2
            late = [r for r in (in_effect(1, mid),) if r] + writes(1, mid, sp[1] - tl.GRACE)
        else:
            late = []
        med = statistics.median(r["des"] for r in late) if late else None
        return (late and med <= 0.75 * highest[1] and max(r["des"] for r in late) < highest[1],
                "second half: median DESIRED %s, highest %s, MAX %s; %s" % (
                    med, max((r["des"] for r in late), default=None), highest[1],
                    fmt(phase_writes("periodic-30", 1))))

    for ph, cpu in (("busy99-turbo-cpu0", 0), ("busy99-turbo-cpu1", 1)):
        @check("99%%-busy thread, turbo, CPU %d: DESIRED reaches and holds %d" % (cpu, highest[cpu]))
        def _(ph=ph, cpu=cpu):
            e, lm = end_state(ph, cpu), late_min(ph, cpu)
            return (e and e["des"] == highest[cpu] and lm is not None and lm >= highest[cpu] - 3,
                    "lowest in effect over the second half %s; %s" % (lm, seen(ph, cpu)))

    # ---- an unchanged request is not written again ------------------------
    # In the phases where only schedutil's perf hook writes (load under
    # schedutil, no sysfs write), ->adjust_perf() writes the register only
    # when the request differs from the one it last wrote for the CPU: no
    # write may repeat the request in effect on its CPU just before it.
    @check("perf hook: an unchanged request is not written again")
    def _():
        steady = ("spin-cpu0", "spin-cpu1", "idle", "idle-wake", "periodic-30",
                  "busy99-turbo-cpu0", "busy99-turbo-cpu1", "uclamp-max-cpu1",
                  "uclamp-min-cpu1", "noturbo-busy99-cpu0", "noturbo-busy99-cpu1")
        key = ("min", "max", "des", "epp")
        n, again = 0, []
        for ph in steady:
            for cpu in (0, 1):
                for r in phase_writes(ph, cpu):
                    prev = [x for x in reqs if x["cpu"] == cpu and x["t"] < r["t"]]
                    n += 1
                    if prev and all(prev[-1][k] == r[k] for k in key):
                        again.append(r)
        return (n and not again,
                "%d writes in %d phases under schedutil, %d repeat the request in effect%s" % (
                    n, len(steady), len(again), (": " + fmt(again, 3)) if again else ""))

    # ---- uclamp -----------------------------------------------------------
    # Half the capacity maps to half the invariance reference, rounded up: the
    # reference is the machine's 4-core turbo level, its highest level
    # (MSR_TURBO_RATIO_LIMIT holds highest0 for every core count).
    half = (hi0 + 1) // 2

    @check("uclamp max 512, full load, CPU 1: MAX and DESIRED capped at %d" % half)
    def _():
        e = end_state("uclamp-max-cpu1", 1)
        return (e and e["max"] == half and e["des"] == half and e["min"] <= half,
                seen("uclamp-max-cpu1", 1))

    @check("uclamp min 512, light load, CPU 1: MIN %d required" % half)
    def _():
        rs = phase_writes("uclamp-min-cpu1", 1)
        probe = phase_writes("idle-wake", 1)
        return (rs and max(r["min"] for r in rs) >= half
                and all(r["des"] >= r["min"] for r in rs if r["min"] >= half),
                "highest MIN %s (in the wake probe without uclamp: %s); %s" % (
                    max((r["min"] for r in rs), default=None),
                    max((r["min"] for r in probe), default=None), fmt(rs)))

    # ---- scaling_max_freq -----------------------------------------------
    @check("scaling_max_freq 2.0 GHz under load: MIN, DESIRED, MAX <= 20")
    def _():
        rs = phase_writes("max-freq-low", 1)
        e = end_state("max-freq-low", 1)
        return (rs and all(r["min"] <= 20 and r["des"] <= 20 and r["max"] <= 20 for r in rs)
                and e and e["des"] == 20 and e["max"] == 20,
                "sysfs reads %s; %s" % (keys.get("MAXFREQ-LOW"), seen("max-freq-low", 1)))

    @check("scaling_max_freq restored: back up to %d" % highest[1])
    def _():
        e = end_state("max-freq-restored", 1)
        return e and e["des"] == highest[1] and e["max"] == highest[1], seen("max-freq-restored", 1)

    # ---- no_turbo --------------------------------------------------------
    for ph, cpu, what in (("noturbo-spin-cpu0", 0, "pure spin"),
                          ("noturbo-busy99-cpu0", 0, "99%-busy thread"),
                          ("noturbo-busy99-cpu1", 1, "99%-busy thread, efficiency core")):
        @check("no_turbo, %s, CPU %d: settles at the guaranteed level %d, no decay" % (what, cpu, guar))
        def _(ph=ph, cpu=cpu):
            e, lm = end_state(ph, cpu), late_min(ph, cpu)
            return (keys.get("NO-TURBO") == "1" and e and e["des"] == guar and e["max"] == guar
                    and lm is not None and lm >= guar - 1,
                    "lowest in effect over the second half %s; %s" % (lm, seen(ph, cpu)))

    @check("turbo back on: the efficiency core returns to %d" % highest[1])
    def _():
        e = end_state("turbo-back-busy99-cpu1", 1)
        return e and e["des"] == highest[1], seen("turbo-back-busy99-cpu1", 1)

    # ---- governors -------------------------------------------------------
    # performance and powersave ask for their target strictly: MIN, DESIRED
    # and MAX all at it
    @check("performance governor: frequency path (MIN = DESIRED = MAX = %d)" % highest[1])
    def _():
        e = end_state("gov-performance", 1)
        return e and e["min"] == e["des"] == e["max"] == highest[1], seen("gov-performance", 1)

    @check("powersave governor: frequency path (MIN = DESIRED = MAX = %d)" % lowest)
    def _():
        e = end_state("gov-powersave", 1)
        return e and e["min"] == e["des"] == e["max"] == lowest, seen("gov-powersave", 1)

    # userspace does not ask strictly: its target goes into MIN and DESIRED
    # (level 20 for 2.0 GHz), MAX stays the policy maximum
    @check("userspace governor at 2.0 GHz: frequency path (MIN = DESIRED = 20, MAX = %d)" % highest[1])
    def _():
        e = end_state("gov-userspace", 1)
        return e and e["min"] == e["des"] == 20 and e["max"] == highest[1], seen("gov-userspace", 1)

    @check("back to schedutil under load: hints again (DESIRED %d)" % highest[1])
    def _():
        rs, e = phase_writes("gov-schedutil", 1), end_state("gov-schedutil", 1)
        return rs and all(r["des"] for r in rs) and e and e["des"] == highest[1], seen("gov-schedutil", 1)

    # ---- hotplug, suspend, mode switch -----------------------------------
    @check("CPU 1 offline: DESIRED 0 written for it, no hint after")
    def _():
        e = end_state("offline", 1)
        return keys.get("OFFLINE1") == "0" and e and e["des"] == 0, seen("offline", 1)

    @check("CPU 1 online: steering resumes (DESIRED %d under load)" % highest[1])
    def _():
        e = end_state("online", 1)
        return e and e["des"] == highest[1], seen("online", 1)

    @check("suspend to idle: DESIRED cleared while suspended (pm_test delay, 5 s)")
    def _():
        rs = phase_writes("suspend", 1)
        cleared = [i for i, r in enumerate(rs) if r["des"] == 0]
        gap = None
        if cleared:
            nxt = [r for r in rs[cleared[0]:] if r["des"]] + phase_writes("resumed", 1)
            nxt = [r for r in nxt if r["des"]]
            gap = (nxt[0]["t"] - rs[cleared[0]]["t"]) / 1e9 if nxt else None
        return (keys.get("SUSPEND-RC") == "0" and cleared and gap is not None and gap >= 4,
                "echo freeze: status %s; DESIRED 0 for %s s before the next hint; %s" % (
                    keys.get("SUSPEND-RC"), "%.1f" % gap if gap is not None else "?", fmt(rs)))

    @check("resume: steering again (DESIRED %d under load)" % highest[1])
    def _():
        e = end_state("resumed", 1)
        return e and e["des"] == highest[1], seen("resumed", 1)

    @check("passive -> active under load: no hint left (DESIRED 0, none set)")
    def _():
        rs, e = phase_writes("active", 1), end_state("active", 1)
        return (rs and e and e["des"] == 0 and not any(r["des"] for r in rs if r["t"] >= rs[0]["t"]
                                                        and rs.index(r) >= [x["des"] for x in rs].index(0)),
                "%s; status and driver: %s" % (seen("active", 1), keys.get("STATUS-ACTIVE")))

    @check("active -> passive under load: hints again")
    def _():
        e = end_state("passive-again", 1)
        return (e and e["des"] == highest[1] and
                (keys.get("STATUS-PASSIVE") or "").split()[:3] == ["passive", "intel_cpufreq", "schedutil"],
                "%s; status, driver, governor: %s" % (seen("passive-again", 1), keys.get("STATUS-PASSIVE")))

    # cpuinfo.max_freq follows no_turbo (the base frequency, the guaranteed
    # level here, under it; each CPU's highest level without it), so that
    # the frequency path's 1.25 * max_freq * util / capacity does not ask
    # for more once utilization is relative to the base frequency
    @check("cpuinfo_max_freq follows no_turbo (%d00000 kHz under it, then %d00000 and %d00000)" % (
        guar, highest[0], highest[1]))
    def _():
        on, off = keys.get("CPUINFO-MAX-NOTURBO"), keys.get("CPUINFO-MAX-TURBO")
        back = keys.get("CPUINFO-MAX-ONLINE-NOTURBO")
        return (on == "%d00000 %d00000" % (guar, guar) and off == "%d00000 %d00000" % (highest[0], highest[1])
                and back == "%d00000" % guar,
                "cpu0 and cpu1: under no_turbo %s, after it %s; cpu1 back online after no_turbo was set while it was offline: %s" % (
                    on, off, back))

    # ---- the kselftest ----------------------------------------------------
    @check("kselftest intel_pstate/hwp_request passes on the real driver (no skip)")
    def _():
        return keys.get("KSELFTEST-RC") == "0", "exit status %s" % keys.get("KSELFTEST-RC")

    @check("no warning in the guest's kernel log")
    def _():
        # (a console without phases is no evidence of a clean log)
        return names and not dmesg, "; ".join(dmesg[:3]) or "none"

    return cs


def main():
    args = sys.argv[1:]
    levels = "30:24:18:8"
    if "--levels" in args:
        i = args.index("--levels")
        levels = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    hi0, hi1, guar, lowest = (int(x) for x in levels.split(":"))
    highest = {0: hi0, 1: hi1}
    tl, err = Timeline.load(args[0], args[1])
    try:
        cs = checks(tl, highest, hi0, guar, lowest)
    except Exception as e:  # a check that cannot even be named fails the document
        t = ktap.Ktap(1)
        t.not_ok("checker setup", repr(e))
        return 1
    return cs.report(err, " (simulated)")


if __name__ == "__main__":
    sys.exit(main())
