#!/usr/bin/env python3
"""The host-side checks of the suites that boot the emulated HWP machine.

    check.py driver CONSOLE RECORD                   suite 56, guest.sh
    check.py m73 CONSOLE RECORD                      suite 71 (the 7.3 tip), m73-guest.sh
    check.py platform CONSOLE RECORD                 suite 59, platform-guest.sh
    check.py dec CONSOLE RECORD                      suite 59, dec-guest.sh
    check.py emulator CONSOLE RECORD TRANSCRIPT      suite 54, emulator-guest.sh
    check.py robustness CONSOLE RECORD SCENARIO...   suite 58, the record
    check.py scenarios CONSOLE SCENARIO...           suite 58, the guest's results
    check.py ab BASE_RECORD SERIES_RECORD            suite 57, the two kernels

CONSOLE and RECORD: hwp-machine.md. Each kind prints one KTAP document, plan first;
a check that raises fails alone; exit 1 on a failure. Every figure is simulated.
"""
import io
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import hwp_record  # noqa: E402
from hwp_record import Timeline  # noqa: E402
import ktap  # noqa: E402

# hwp-highest=30:24 (vCPU 1 an efficiency core); base 20 in 54 and 59's platform
HIGHEST = {0: 30, 1: 24}
GUARANTEED, BASE, EFFICIENT, LOWEST = 18, 20, 10, 8
# half the capacity: half the invariance reference (highest0), rounded up
HALF = (HIGHEST[0] + 1) // 2
# status, driver and governor after active -> passive
PASSIVE = ["passive", "intel_cpufreq", "schedutil"]


# ---- shared checks -----------------------------------------------------------

def markers(check, tl, name):
    @check(name)
    def _():
        missing = [p for n, p in tl.names.items() if n not in tl.marks]
        return (tl.names and not missing,
                "%d phases, missing in the record: %s" % (len(tl.names), missing or "none"))


def wobbly(check, tl):
    check("invariance stays on (no 'went wobbly')")(
        lambda: (tl.keys.get("WOBBLY") == "0", "WOBBLY=%s" % tl.keys.get("WOBBLY")))


def no_warning(check, tl, name):
    # (a console without phases is no evidence of a clean log)
    check(name)(lambda: (tl.names and not tl.dmesg, "; ".join(tl.dmesg[:3]) or "none"))


def trace_vs_record(check, tl, keys):
    @check("adjust_perf trace event: the requests it says were written are the record's, in order")
    def _():
        ev = re.compile(r" intel_pstate_adjust_perf: cpu=(\d+) .*hwp_min=(\d+) hwp_max=(\d+) hwp_desired=(\d+) written=1")
        with open(tl.console, errors="replace") as f:
            tr = [tuple(map(int, m.groups())) for m in map(ev.search, f) if m and m.string.startswith("TRACE: ")]
        on, off = tl.span("trace-on"), tl.span("trace-off")
        ok, notes = bool(on and off), []
        for cpu in (0, 1):
            t = [x[1:] for x in tr if x[0] == cpu]
            h = [(r["min"], r["max"], r["des"]) for r in tl.writes(cpu, on[0], off[0])] if ok else []
            # the event is on a little before the first marker and after the last
            at = [i for i in range(min(3, len(t) + 1)) if t[i:i + len(h)] == h and len(t) - i - len(h) <= 2]
            ok = ok and bool(at) and (cpu == 0 or len(h) >= 3)
            notes.append("CPU %d: %d written in the trace, %d in the record%s" % (
                cpu, len(t), len(h), "" if at else " (differ)"))
        return ok, "; ".join(notes) + "; %s events in all" % keys.get("TRACE-EVENTS")


def kselftest(check, tl, keys):
    """KSELFTEST-RC 0, and every result of the plan in KSELFTEST: lines ok, none skipped."""
    @check("kselftest intel_pstate/hwp_request passes on the real driver (no skip)")
    def _():
        out = [line.split(": ", 1)[1].strip() for line in open(tl.console, errors="replace") if line.startswith("KSELFTEST: ")]
        plan = [int(x[3:]) for x in out if re.fullmatch(r"1\.\.\d+", x)]
        oks = [x for x in out if re.match(r"ok \d+ ", x) and "# SKIP" not in x]
        said = [x for x in out if x.startswith("#") or x not in oks and " ok " in " " + x]  # its messages, results not ok
        return (keys.get("KSELFTEST-RC") == "0" and plan and len(oks) == plan[0], "exit status %s; %d of %s results ok, not skipped: %s"
                % (keys.get("KSELFTEST-RC"), len(oks), plan or "no plan", " | ".join(said)))


def at_end(check, tl, name, ph, cpu, cond, note=lambda seen: seen):
    """Check COND(the request in effect at the end of PH on CPU), noting
    NOTE(what PH wrote and left in effect)."""
    @check(name)
    def _():
        e = tl.end_state(ph, cpu)
        return e and cond(e), note(tl.seen(ph, cpu))


def reached_min(tl, ph, cpu, level):
    """Lowest DESIRED in effect in PH on CPU from its first at LEVEL on."""
    return min((r["des"] for r in tl.from_first(ph, cpu, lambda r: r["des"] == level)), default=None)


def held(check, tl, name, ph, cpu, level, cond=lambda e: True):
    """Check that DESIRED on CPU reaches LEVEL in PH, stays within 3 of it
    from then on and is LEVEL at the end, and COND(the request at the end)."""
    @check(name)
    def _():
        e, lm = tl.end_state(ph, cpu), reached_min(tl, ph, cpu, level)
        return (e and e["des"] == level and lm is not None and lm >= level - 3 and cond(e),
                "lowest from the first at %d on: %s; %s" % (level, lm, tl.seen(ph, cpu)))


def hexval(v):
    return int(v, 16) if v and v.startswith("0x") else None


def listed(rs):
    return (": " + Timeline.fmt(rs, 3)) if rs else ""


def repeats(tl, phases):
    """(writes, those repeating the request in effect on their CPU) of
    PHASES, on both CPUs."""
    n, again = 0, []
    for ph in phases:
        for cpu in (0, 1):
            for r in tl.phase_writes(ph, cpu):
                prev = [x for x in tl.reqs if x["cpu"] == cpu and x["t"] < r["t"]]
                n += 1
                if prev and all(prev[-1][k] == r[k] for k in ("min", "max", "des", "epp")):
                    again.append(r)
    return n, again


# ---- driver: the real intel_pstate, passive, schedutil (suite 56) ------------

def driver(check, tl, keys):
    reqs, fmt, phase_writes, seen = tl.reqs, tl.fmt, tl.phase_writes, tl.seen
    H1 = HIGHEST[1]

    @check("guest: intel_cpufreq in passive mode with HWP enabled, schedutil")
    def _():
        return (keys.get("DRIVER") == "intel_cpufreq" and keys.get("STATUS") == "passive"
                and keys.get("HWP", "0") != "0" and keys.get("PM-ENABLE") == "0x1"
                and keys.get("GOVERNOR0") == "schedutil" and keys.get("GOVERNOR1") == "schedutil",
                "driver %s, status %s, 'HWP enabled' lines %s, IA32_PM_ENABLE %s, governors %s/%s" % (
                    keys.get("DRIVER"), keys.get("STATUS"), keys.get("HWP"), keys.get("PM-ENABLE"),
                    keys.get("GOVERNOR0"), keys.get("GOVERNOR1")))

    markers(check, tl, "record: every phase marker reached the host")
    wobbly(check, tl)

    @check("every write with DESIRED: MIN <= DESIRED <= MAX")
    def _():
        bad = [r for r in reqs if r["des"] and not (r["min"] <= r["des"] <= r["max"])]
        return reqs and not bad, "%d writes, %d violate it%s" % (len(reqs), len(bad), listed(bad))

    # (the frequency path puts the target level into MIN and DESIRED alike)
    @check("schedutil's perf hook in use: DESIRED on every write under load")
    def _():
        su = phase_writes("spin-cpu0", 0) + phase_writes("spin-cpu1", 1)
        return (su and all(r["des"] for r in su) and any(r["min"] < r["des"] for r in su),
                "%d writes under load, %d with DESIRED 0, %d with MIN < DESIRED" % (
                    len(su), sum(1 for r in su if not r["des"]), sum(1 for r in su if r["min"] < r["des"])))

    for cpu in (0, 1):
        at_end(check, tl, "full load on CPU %d: DESIRED rises to its highest level %d" % (cpu, HIGHEST[cpu]),
               "spin-cpu%d" % cpu, cpu, lambda e, h=HIGHEST[cpu]: e["des"] == h and e["max"] == h)

    # to the bottom half by the end of the wake probes; the guest's read of
    # the register must be a DESIRED in effect in the probes' phase
    @check("idle: DESIRED falls")
    def _():
        load = tl.end_state("spin-cpu1", 1)
        rs = phase_writes("idle", 1) + phase_writes("idle-wake", 1)
        low = min((r["des"] for r in rs), default=None)
        reg = keys.get("IDLE-DESIRED1", "?")
        sp = tl.span("idle-wake")
        wake = tl.since(1, *sp) if sp else []
        return (load and low is not None and low <= H1 // 2 and reg.isdigit()
                and int(reg) in [r["des"] for r in wake],
                "after full load %s, lowest in idle and the wake probes %s (the guest reads %s at the end); %s" % (
                    load and load["des"], low, reg, fmt(rs)))

    # under a 30/30 ms load: requests >= rate_limit_us apart (10% for the clocks)
    def gaps(us):
        rs = phase_writes("ratelimit-%d-cpu1" % us, 1)
        gs = [(b["t"] - a["t"]) / 1e6 for a, b in zip(rs, rs[1:])]
        sp = tl.span("ratelimit-%d-cpu1" % us)
        rate = len(rs) / ((sp[1] - sp[0]) / 1e9) if sp else 0
        return (keys.get("RATE-LIMIT-US-%d" % us) == str(us) and len(rs) >= 3, gs,
                "rate_limit_us %s; %d requests in %s s (%.1f per s), shortest gap %s ms; %s" % (
                    keys.get("RATE-LIMIT-US-%d" % us), len(rs), "%.1f" % ((sp[1] - sp[0]) / 1e9) if sp else "-",
                    rate, "%.1f" % min(gs) if gs else "-", fmt(rs)), rate)

    @check("rate_limit_us holds on the perf path (20 ms between requests, at most 55 per s)")
    def _():
        ok, gs, why, rate = gaps(20000)
        return ok and min(gs) >= 18 and rate <= 55, why

    @check("rate_limit_us 0: the same load brings requests closer than 20 ms (the control)")
    def _():
        ok, gs, why, rate = gaps(0)
        return ok and min(gs) < 18, why

    # a bound, not a level: how far below MAX a duty cycle settles under
    # TCG varies between runs
    @check("periodic load (30% duty): DESIRED below MAX from its first request below it on")
    def _():
        rs = tl.from_first("periodic-30", 1, lambda r: r["des"] < H1)
        return (rs and max(r["des"] for r in rs) < H1, "highest DESIRED %s, MAX %s; %s" % (
            max((r["des"] for r in rs), default=None), H1, fmt(phase_writes("periodic-30", 1))))

    for cpu in (0, 1):
        held(check, tl, "99%%-busy thread, turbo, CPU %d: DESIRED reaches and holds %d" % (cpu, HIGHEST[cpu]),
             "busy99-turbo-cpu%d" % cpu, cpu, HIGHEST[cpu])

    @check("perf hook: an unchanged request is not written again")
    def _():
        steady = ("spin-cpu0", "spin-cpu1", "idle", "idle-wake", "periodic-30",
                  "busy99-turbo-cpu0", "busy99-turbo-cpu1", "uclamp-max-cpu1",
                  "uclamp-min-cpu1", "noturbo-busy99-cpu0", "noturbo-busy99-cpu1")
        n, again = repeats(tl, steady)
        return (n and not again, "%d writes in %d phases under schedutil, %d repeat the request in effect%s" % (
            n, len(steady), len(again), listed(again)))

    at_end(check, tl, "uclamp max 512, full load, CPU 1: MAX and DESIRED capped at %d" % HALF, "uclamp-max-cpu1", 1,
           lambda e: e["max"] == HALF and e["des"] == HALF and e["min"] <= HALF)

    @check("uclamp min 512, light load, CPU 1: MIN %d required" % HALF)
    def _():
        rs = phase_writes("uclamp-min-cpu1", 1)
        probe = phase_writes("idle-wake", 1)
        return (rs and max(r["min"] for r in rs) >= HALF
                and all(r["des"] >= r["min"] for r in rs if r["min"] >= HALF),
                "highest MIN %s (in the wake probe without uclamp: %s); %s" % (
                    max((r["min"] for r in rs), default=None),
                    max((r["min"] for r in probe), default=None), fmt(rs)))

    at_end(check, tl, "scaling_max_freq 2.0 GHz under load: MIN, DESIRED, MAX <= 20", "max-freq-low", 1,
           lambda e: (e["des"] == 20 and e["max"] == 20 and phase_writes("max-freq-low", 1) and all(
               r["min"] <= 20 and r["des"] <= 20 and r["max"] <= 20 for r in phase_writes("max-freq-low", 1))),
           lambda s: "sysfs reads %s; %s" % (keys.get("MAXFREQ-LOW"), s))

    at_end(check, tl, "scaling_max_freq restored: back up to %d" % H1, "max-freq-restored", 1,
           lambda e: e["des"] == H1 and e["max"] == H1)

    for ph, cpu, what in (("noturbo-spin-cpu0", 0, "pure spin"),
                          ("noturbo-busy99-cpu0", 0, "99%-busy thread"),
                          ("noturbo-busy99-cpu1", 1, "99%-busy thread, efficiency core")):
        held(check, tl, "no_turbo, %s, CPU %d: settles at the guaranteed level %d, no decay" % (what, cpu, GUARANTEED),
             ph, cpu, GUARANTEED, lambda e: keys.get("NO-TURBO") == "1" and e["max"] == GUARANTEED)

    at_end(check, tl, "turbo back on: the efficiency core returns to %d" % H1, "turbo-back-busy99-cpu1", 1,
           lambda e: e["des"] == H1)

    # performance and powersave ask for their target strictly, userspace puts it
    # in MIN and DESIRED; patch 16: userspace starts at policy->cur, the perf
    # path's DESIRED (without it: the frequency path's last request, at CPU init)
    at_end(check, tl, "schedutil to userspace under load: starts at DESIRED's frequency (policy->cur, %d kHz)"
           % (H1 * 100000), "gov-userspace-cur", 1,
           lambda e: keys.get("SETSPEED-FROM-SCHEDUTIL") == str(H1 * 100000) and e["min"] == e["des"] == H1,
           lambda seen: "scaling_setspeed %s; %s" % (keys.get("SETSPEED-FROM-SCHEDUTIL"), seen))
    at_end(check, tl, "performance governor: frequency path (MIN = DESIRED = MAX = %d)" % H1, "gov-performance", 1,
           lambda e: e["min"] == e["des"] == e["max"] == H1)
    at_end(check, tl, "powersave governor: frequency path (MIN = DESIRED = MAX = %d)" % LOWEST, "gov-powersave", 1,
           lambda e: e["min"] == e["des"] == e["max"] == LOWEST)
    at_end(check, tl, "userspace governor at 2.0 GHz: frequency path (MIN = DESIRED = 20, MAX = %d)" % H1,
           "gov-userspace", 1, lambda e: e["min"] == e["des"] == 20 and e["max"] == H1)
    at_end(check, tl, "back to schedutil under load: hints again (DESIRED %d)" % H1, "gov-schedutil", 1,
           lambda e: phase_writes("gov-schedutil", 1) and all(r["des"] for r in phase_writes("gov-schedutil", 1))
           and e["des"] == H1)

    at_end(check, tl, "CPU 1 offline: DESIRED 0 written for it, no hint after", "offline", 1,
           lambda e: keys.get("OFFLINE1") == "0" and e["des"] == 0)
    at_end(check, tl, "CPU 1 online: steering resumes (DESIRED %d under load)" % H1, "online", 1,
           lambda e: e["des"] == H1)

    @check("suspend to idle: DESIRED cleared while suspended (pm_test delay, 5 s)")
    def _():
        rs = phase_writes("suspend", 1)
        cleared = [i for i, r in enumerate(rs) if r["des"] == 0]
        gap = None
        if cleared:
            nxt = [r for r in rs[cleared[0]:] + phase_writes("resumed", 1) if r["des"]]
            gap = (nxt[0]["t"] - rs[cleared[0]]["t"]) / 1e9 if nxt else None
        return (keys.get("SUSPEND-RC") == "0" and cleared and gap is not None and gap >= 4,
                "echo freeze: status %s; DESIRED 0 for %s s before the next hint; %s" % (
                    keys.get("SUSPEND-RC"), "%.1f" % gap if gap is not None else "?", fmt(rs)))

    at_end(check, tl, "resume: steering again (DESIRED %d under load)" % H1, "resumed", 1, lambda e: e["des"] == H1)

    @check("passive -> active under load: no hint left (DESIRED 0, none set)")
    def _():
        rs, e = phase_writes("active", 1), tl.end_state("active", 1)
        return (rs and e and e["des"] == 0 and not any(r["des"] for r in rs if r["t"] >= rs[0]["t"]
                                                        and rs.index(r) >= [x["des"] for x in rs].index(0)),
                "%s; status and driver: %s" % (seen("active", 1), keys.get("STATUS-ACTIVE")))

    at_end(check, tl, "active -> passive under load: hints again", "passive-again", 1,
           lambda e: e["des"] == H1 and (keys.get("STATUS-PASSIVE") or "").split()[:3] == PASSIVE,
           lambda s: "%s; status, driver, governor: %s" % (s, keys.get("STATUS-PASSIVE")))

    # under no_turbo the base frequency (the guaranteed level here)
    @check("cpuinfo_max_freq follows no_turbo (%d00000 kHz under it, then %d00000 and %d00000)" % (
        GUARANTEED, HIGHEST[0], H1))
    def _():
        on, off = keys.get("CPUINFO-MAX-NOTURBO"), keys.get("CPUINFO-MAX-TURBO")
        back = keys.get("CPUINFO-MAX-ONLINE-NOTURBO")
        return (on == "%d00000 %d00000" % (GUARANTEED, GUARANTEED)
                and off == "%d00000 %d00000" % (HIGHEST[0], H1) and back == "%d00000" % GUARANTEED,
                "cpu0 and cpu1: under no_turbo %s, after it %s; cpu1 back online after no_turbo was set while it was offline: %s" % (
                    on, off, back))

    @check("adjust_perf_mode: hints at boot; a bad string fails and changes nothing; floor when written")
    def _():
        k = [keys.get(x) for x in ("MODE", "MODE-BOGUS-RC", "MODE-AFTER-BOGUS", "MODE-FLOOR")]
        return (k[0] == "hints" and k[1] not in (None, "0") and k[2] == "hints" and k[3] == "floor",
                "at boot %s; 'bogus': exit status %s, then %s; after 'floor': %s" % tuple(k))

    def switched(name, ph, new, end):
        """PH has a request of NEW's mode, as every later one; END(its end state, those) holds."""
        @check(name)
        def _():
            rs, e = phase_writes(ph, 1), tl.end_state(ph, 1)
            first = next((i for i, r in enumerate(rs) if new(r)), None)
            return (first is not None and all(new(r) for r in rs[first:]) and e and end(e, rs[first:]), seen(ph, 1))

    def floor(r):
        return r["des"] == 0
    switched("floor under load: MIN %d, DESIRED 0 from the first floor request on" % H1, "floor", floor,
             lambda e, rs: (e["min"], e["max"]) == (H1, H1))
    switched("hints again under load: DESIRED %d above MIN from the first hints request on" % H1,
             "hints-again", lambda r: r["des"] != 0, lambda e, rs: e["des"] == H1 and e["min"] < e["des"])
    # (a fall, not where it stands at the end: the wake-ups that let it fall raise it again)
    switched("floor when idle: MIN falls to the lower half, DESIRED stays 0", "floor-idle", floor,
             lambda e, rs: min(r["min"] for r in rs) <= H1 // 2)

    trace_vs_record(check, tl, keys)

    @check("kselftest without /dev/cpu/N/msr passes from the adjust_perf trace (no skip)")
    def _():
        with open(tl.console, errors="replace") as f:
            out = [line.rstrip() for line in f if line.startswith("KSELFTEST-TRACE: ")]
        via = [x for x in out if "no msr driver: request from" in x]
        return (keys.get("KSELFTEST-TRACE-RC") == "0" and via and not any(" # SKIP" in x for x in out),
                "exit status %s; %s" % (keys.get("KSELFTEST-TRACE-RC"), (via or out[-1:] or ["no output"])[0]))

    kselftest(check, tl, keys)
    no_warning(check, tl, "no warning in the guest's kernel log")


# ---- platform: a base ratio above the guaranteed level (suite 59) ------------

def platform(check, tl, keys):
    markers(check, tl, "platform: every phase marker reached the host")
    for cpu in (0, 1):
        for lvl in (12, 24):
            @check("CPU %d held at level %d by scaling_min/max_freq: MIN = MAX = DESIRED = %d" % (cpu, lvl, lvl))
            def _(ph="clk-%d-%d" % (cpu, lvl), cpu=cpu, lvl=lvl):
                rs, end = tl.effective(ph, cpu), tl.end_state(ph, cpu)
                return (rs and all(r["min"] == r["max"] == r["des"] == lvl for r in rs[1:]) and end and end["des"] == lvl,
                        tl.fmt(rs))

    @check("re-registration: status passive again, no_turbo reads 0")
    def _():
        return (keys.get("REREG-NO-TURBO-SET") == "1" and keys.get("REREG-NO-TURBO") == "0"
                and (keys.get("REREG-STATUS") or "").split() == PASSIVE,
                "no_turbo %s -> %s after active -> passive; status, driver, governor: %s" % (
                    keys.get("REREG-NO-TURBO-SET"), keys.get("REREG-NO-TURBO"), keys.get("REREG-STATUS")))

    @check("99%%-busy thread after no_turbo 1 and active -> passive: reaches and holds %d, as after boot" % HIGHEST[0])
    def _():
        fresh, again = tl.end_state("busy99-fresh", 0), tl.end_state("busy99-rereg", 0)
        lf, la = (reached_min(tl, ph, 0, HIGHEST[0]) for ph in ("busy99-fresh", "busy99-rereg"))
        return (fresh and again and fresh["des"] == again["des"] == HIGHEST[0]
                and lf is not None and la is not None and la >= HIGHEST[0] - 3,
                "lowest from the first at the top on, after boot: %s, %s; after the re-registration: %s, %s" % (
                    lf, tl.seen("busy99-fresh", 0), la, tl.seen("busy99-rereg", 0)))

    # no mid-range load: under TCG its level varies between runs; MAX under
    # uclamp max shows the reference exactly
    @check("uclamp max 512 on a full spin: MAX %d (half the reference) after boot and after the re-registration" % HALF)
    def _():
        ef, ea = tl.end_state("umax-fresh", 0), tl.end_state("umax-rereg", 0)
        return (ef and ea and ef["max"] == ea["max"] == HALF,
                "after boot %s; after the re-registration %s" % (tl.seen("umax-fresh", 0), tl.seen("umax-rereg", 0)))

    # the requests written from the platform's turbo-off on
    for ph, what in (("fw-turbo-off-umin", "uclamp minimum 1024"), ("fw-turbo-off-spin", "full spin")):
        @check("turbo off by the platform, %s: MIN and MAX never above the guaranteed level %d" % (what, GUARANTEED))
        def _(ph=ph):
            off0, on0 = (tl.span("fw-turbo-off") or (0, 0))[0], (tl.span("fw-turbo-on") or (0, 0))[0]
            rs = [r for r in tl.effective(ph, 0) if off0 <= r["t"] < on0]
            over = [r for r in rs if r["min"] > GUARANTEED or r["max"] > GUARANTEED]
            return (keys.get("FW-NO-TURBO") == "1" and rs and not over,
                    "no_turbo reads %s; %d of %d requests in effect above %d; %s" % (
                        keys.get("FW-NO-TURBO"), len(over), len(rs), GUARANTEED, tl.seen(ph, 0)))

    at_end(check, tl, "turbo off by the platform, uclamp minimum 1024: MIN = MAX = DESIRED = %d" % GUARANTEED,
           "fw-turbo-off-umin", 0, lambda e: e["min"] == e["max"] == e["des"] == GUARANTEED)

    at_end(check, tl, "turbo back on: full spin reaches %d again" % HIGHEST[0], "fw-turbo-on-spin", 0,
           lambda e: keys.get("FW-NO-TURBO-BACK") == "0" and e["des"] == HIGHEST[0],
           lambda s: "no_turbo reads %s; %s" % (keys.get("FW-NO-TURBO-BACK"), s))

    check("monitor: the driver's limits follow at the next limits update (scaling_max_freq 1.4 GHz with no_turbo)")(
        lambda: (keys.get("GUAR-MAXFREQ") == "1400000 1400000", "scaling_max_freq %s" % keys.get("GUAR-MAXFREQ")))

    for cpu in (0, 1):
        @check("guaranteed 14, no_turbo, uclamp minimum 1024, CPU %d: MIN = MAX = DESIRED = 14, never above" % cpu)
        def _(cpu=cpu):
            ph = "guar-low-umin-cpu%d" % cpu
            rs, e = tl.effective(ph, cpu), tl.end_state(ph, cpu)
            over = [r for r in rs if r["min"] > 14 or r["max"] > 14]
            return (keys.get("GUAR-CAPS") == "14 14" and rs and not over
                    and e and e["min"] == e["max"] == e["des"] == 14,
                    "the guest read guaranteed %s; %s" % (keys.get("GUAR-CAPS"), tl.seen(ph, cpu)))

    wobbly(check, tl)
    no_warning(check, tl, "platform: no warning in the guest's kernel log")


# ---- dec: MSR_POWER_CTL bit 27 set (suite 59) --------------------------------

def dec(check, tl, keys):
    markers(check, tl, "dec: every phase marker reached the host")

    @check("DEC: MSR_POWER_CTL bit 27 set, intel_cpufreq in passive mode with HWP")
    def _():
        return (keys.get("DRIVER") == "intel_cpufreq" and keys.get("STATUS") == "passive"
                and keys.get("POWER-CTL", "").startswith("0x") and int(keys["POWER-CTL"], 16) >> 27 & 1,
                "driver %s, status %s, POWER_CTL %s" % (keys.get("DRIVER"), keys.get("STATUS"), keys.get("POWER-CTL")))

    @check("DEC: no HWP_REQUEST write carries a DESIRED level")
    def _():
        withdes = [r for r in tl.reqs if r["des"]]
        return tl.reqs and not withdes, "%d writes, %d with DESIRED: %s" % (len(tl.reqs), len(withdes), tl.fmt(withdes, 4))

    for cpu in (0, 1):
        # (the register may hold its reset value, never written again)
        @check("DEC, full load on CPU %d: MAX at its highest level %d, DESIRED 0 (the register under the load)" % (
            cpu, HIGHEST[cpu]))
        def _(cpu=cpu):
            v = keys.get("REQ-SPIN%d" % cpu, "")
            req = hexval(v)
            e = tl.end_state("spin-cpu%d" % cpu, cpu)
            return (req is not None and (req >> 8) & 255 == HIGHEST[cpu] and (req >> 16) & 255 == 0
                    and (e is None or (e["max"], e["des"]) == (HIGHEST[cpu], 0)),
                    "HWP_REQUEST %s (MIN/MAX/DESIRED %s); record: %s" % (
                        v or "?", "%d/%d/%d" % (req & 255, (req >> 8) & 255, (req >> 16) & 255) if req is not None else "?",
                        tl.seen("spin-cpu%d" % cpu, cpu)))

    # the uclamp phases change the request: without their writes it shows nothing
    @check("DEC: an unchanged request is not written again under schedutil")
    def _():
        n, again = repeats(tl, ("spin-cpu0", "spin-cpu1", "uclamp-max-cpu1", "uclamp-min-cpu1"))
        umax, umin = tl.phase_writes("uclamp-max-cpu1", 1), tl.phase_writes("uclamp-min-cpu1", 1)
        return (umax and umin and not again,
                "%d writes in the schedutil load phases (uclamp max %d, uclamp min %d on CPU 1), "
                "%d repeat the request in effect%s" % (
                    n, len(umax), len(umin), len(again), listed(again)))

    at_end(check, tl, "DEC, uclamp max 512, full load, CPU 1: MAX capped at %d" % HALF, "uclamp-max-cpu1", 1,
           lambda e: e["max"] == HALF and e["min"] <= HALF)

    @check("DEC, uclamp min 512, light load, CPU 1: MIN %d required" % HALF)
    def _():
        rs = tl.phase_writes("uclamp-min-cpu1", 1)
        return rs and max(r["min"] for r in rs) >= HALF, tl.seen("uclamp-min-cpu1", 1)

    at_end(check, tl, "DEC, performance governor: frequency path MIN = MAX = %d" % HIGHEST[1], "gov-performance", 1,
           lambda e: e["min"] == e["max"] == HIGHEST[1])
    no_warning(check, tl, "dec: no warning in the guest's kernel log")


# ---- emulator: the machine itself, base ratio 20 (suite 54): QEMU's model ---

def emulator(check, tl, keys, transcript):
    def events(ev, cpu=None):
        return [e for e in tl.events if e["ev"] == ev and (cpu is None or e.get("cpu") == cpu)]

    markers(check, tl, "every phase marker reached the host")

    @check("HWP capabilities per vCPU as given: 30/18/10/8 and 24/18/10/8, cpu1 cpuinfo_max_freq 2.4 GHz")
    def _():
        want = [LOWEST << 24 | EFFICIENT << 16 | GUARANTEED << 8 | HIGHEST[c] for c in (0, 1)]
        got = [hexval(keys.get("CAP%d" % c)) for c in (0, 1)]
        f1 = keys.get("CPU1-FREQ", "").split()
        return (got == want and len(f1) == 2 and f1[1] == "2400000",
                "CAP0 %s CAP1 %s (want %#x %#x), cpu1 cpuinfo min/max %s" % (
                    keys.get("CAP0"), keys.get("CAP1"), want[0], want[1], " ".join(f1) or "none"))

    # one recorded for cpu0: in effect when the read began, or written during it
    @check("HWP_REQUEST read through /dev/cpu/0/msr is the request the machine has in effect")
    def _():
        v = hexval(keys.get("REQ0"))
        sp = tl.span("req-read")
        ws = events("req", "0")
        before = [e for e in ws if sp and int(e["t"]) <= sp[0]]
        cand = (before[-1:] + [e for e in ws if sp[0] < int(e["t"]) < sp[1]]) if sp else []
        vals = [int(e["req"], 16) for e in cand]
        return (v is not None and v in vals,
                "read %s; the machine's record has in effect then: %s" % (
                    keys.get("REQ0"), " ".join("%#x" % x for x in vals) or "none"))

    # the PIT's quick calibration, then the HPET's refinement the kernel keeps
    for k, tol in (("TSC-DETECTED", 0.005), ("TSC-REFINED", 0.001)):
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

    # over 2 s of a spin: the vCPU never halts
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

    for cpu in (0, 1):
        @check("CPU %d at exit: MPERF counted %s ticks per busy ns (the base frequency, within 0.5%%)" % (
            cpu, BASE / 10))
        def _(cpu=cpu):
            es = events("summary", str(cpu))
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

    @check("turbo off on cpu0 (MISC_ENABLE bit 38): seen by cpu1, running level capped at %d" % GUARANTEED)
    def _():
        m1, ps = hexval(keys.get("MISC-ENABLE1")), hexval(keys.get("PERF-STATUS0"))
        # cpu0's levels from the turbo-off event to the next marker
        sp = tl.span("turbo-off")
        turbo = [e for e in events("turbo") if e.get("disabled") == "1" and sp and sp[0] <= int(e["t"]) < sp[1]]
        lv = [int(e["new"]) for e in events("level", "0") if turbo and int(turbo[0]["t"]) <= int(e["t"]) < sp[1]]
        return (turbo and m1 is not None and m1 >> 38 & 1 and ps is not None
                and 0 < (ps >> 8) & 255 <= GUARANTEED and all(x <= GUARANTEED for x in lv),
                "%d turbo-off events recorded in the phase, cpu1 MISC_ENABLE %s, cpu0 PERF_STATUS %s, "
                "cpu0 levels recorded meanwhile %s" % (
                    len(turbo), keys.get("MISC-ENABLE1"), keys.get("PERF-STATUS0"), lv or "none"))

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

    @check("monitor: guaranteed level 18 -> 14 on both vCPUs, HWP_STATUS bit 0 set, cleared by writing 0")
    def _():
        ev = events("guaranteed")
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


# ---- robustness: each scenario's record (suite 58, robustness.md) -----------
# scenarios that run schedutil under load: also writes of its perf path
STEERED = ("governors", "hotplug", "limits", "modes", "freeze")


def robustness(tl, err, expected):
    caps = {}
    try:
        caps = {int(e["cpu"]): (int(e["lowest"]), int(e["highest"])) for e in tl.events if e["ev"] == "caps"}
    except Exception as e:  # every check fails, by name
        err = "cannot read the console or the record: %s: %s" % (type(e).__name__, e)
    num, reqs = tl.num, tl.reqs if not err else []
    cs = check = ktap.Checks()

    @check("record.markers")
    def _():
        missing = sorted(s for s in expected if s not in num or num[s] not in tl.marks)
        return (not missing and caps,
                "%d scenario markers expected, %s missing on the console or in the record; capabilities of %d CPUs" % (
                    len(expected), missing or "none", len(caps)))

    def in_order(r):
        lo, hi = caps.get(r["cpu"], (0, 255))
        return (r["min"] <= r["max"] and lo <= r["min"] <= hi and r["max"] >= lo
                and (not r["des"] or r["min"] <= r["des"] <= r["max"] and r["des"] <= hi))

    def ordered(rs):
        wrong = ["cpu%d %s" % (r["cpu"], hwp_record.mmd(r)) for r in rs if not in_order(r)]
        if not rs:
            return False, "no write in this scenario: nothing shows the order of its requests"
        return (not wrong,
                "%d writes, all MIN <= DESIRED <= MAX within the CPU's levels" % len(rs) if not wrong
                else "%d of %d writes out of order or out of range (MIN/MAX/DESIRED): %s" % (
                    len(wrong), len(rs), " ".join(wrong[:6])))

    def perf_path(rs):
        perf = [r for r in rs if r["des"] and r["min"] < r["des"]]
        cpus = sorted({r["cpu"] for r in perf})
        return (caps and len(cpus) == len(caps),
                "%d writes with DESIRED above MIN, on CPUs %s of %d" % (len(perf), cpus, len(caps)))

    def scen_check(what, scen, fn):
        @check("record.%s.%s" % (scen, what))
        def _():
            if scen not in num:
                return False, "no R-MARK of this scenario on the console"
            return fn([r for r in reqs if r["phase"] == num[scen]])

    for scen in expected:
        scen_check("ordered", scen, ordered)
        if scen in STEERED:
            scen_check("perf_path", scen, perf_path)
    rc = cs.report(err)
    print("# record: %d HWP_REQUEST writes in all (simulated machine)" % len(reqs))
    return rc


# ---- scenarios: the guest's R-PASS/R-FAIL/R-SKIP lines (suite 58) -----------
# one result per SCENARIO asked for, its lines NAME or NAME.* nested; a last
# one, "guest": the other lines, R-DONE and its count of R-FAIL lines

# a kernel message may follow a result on the same console line: cut it
KMSG = re.compile(r"\[ *\d+\.\d+\] .*$")
RESULT = re.compile(r"^R-(PASS|FAIL|SKIP): (.*)$")


def nested(t, name, results, why):
    """Result NAME of T: a nested document of RESULTS [(status, name, why)],
    indented, ok if all passed, else not ok with WHY."""
    buf = io.StringIO()
    n = ktap.Ktap(len(results), out=buf)
    for st, rname, rwhy in results:
        if st == "SKIP":
            n.skip(rname, rwhy or "skipped")
        else:
            n.check(rname, st == "PASS", rwhy)
    for line in buf.getvalue().splitlines():
        print("    " + line)
    t.check(name, not n.failed, why if n.failed else "")


def scenarios(console, asked):
    lines = []
    with open(console, errors="replace") as f:
        text = f.read()
    for m in filter(None, (RESULT.match(KMSG.sub("", line).rstrip()) for line in text.split("\n"))):
        name, _, why = m.group(2).partition(": ")
        lines.append((m.group(1), name.strip(), why.strip()))
    t = ktap.Ktap(len(asked) + 1)
    used = set()
    for sc in asked:
        mine = [(i, r) for i, r in enumerate(lines) if r[1] == sc or r[1].startswith(sc + ".")]
        used.update(i for i, _ in mine)
        if not mine:
            t.not_ok(sc, "no result of this scenario reached the console")
        else:
            nested(t, sc, [r for _, r in mine], "a check of the scenario failed")
    rest = [r for i, r in enumerate(lines) if i not in used]
    m = re.search(r"^R-DONE: (\d+) failure", text, re.M)
    nfail = sum(1 for st, _, _ in lines if st == "FAIL")
    rest.append(("PASS" if m else "FAIL", "finished",
                 "R-DONE: %s failure(s)" % m.group(1) if m else "the scenario script did not finish (no R-DONE)"))
    rest.append(("PASS" if m and int(m.group(1)) == nfail else "FAIL", "failure_count",
                 "the guest counted %s failure(s), the console shows %d R-FAIL lines" % (
                     m.group(1) if m else "?", nfail)))
    nested(t, "guest", rest, "see above")
    return 1 if t.failed else 0


# ---- ab: what each kernel asked the machine for (suite 57) -------------------

def ab(base, series):
    def requests(k, rec):
        reqs, _ = hwp_record.phases(hwp_record.parse_record(rec))
        des = [r for r in reqs if r["des"]]
        if k == "base":
            return (reqs and not des,
                    "%d writes, %d with DESIRED set (the base writes its target into MIN only)" % (len(reqs), len(des)))
        # ab-guest.sh's marker 1 starts the hints run, 2 the floor run
        hints = [r for r in reqs if r["phase"] == 1]
        floor = [r for r in reqs if r["phase"] == 2]
        first = next((i for i, r in enumerate(floor) if r["des"] == 0), None)
        steer = [r for r in hints if r["des"] and r["min"] < r["des"]]
        fl = floor[first:] if first is not None else []
        return (steer and fl and not any(r["des"] for r in fl) and len({r["min"] for r in fl}) > 1,
                "hints: %d writes, %d with DESIRED above MIN; floor: %d writes, from the first floor one on "
                "%d with DESIRED set, MIN %s" % (len(hints), len(steer), len(floor), sum(1 for r in fl if r["des"]),
                                                 "-".join(map(str, sorted({r["min"] for r in fl}))) or "none"))

    t = ktap.Ktap(2)
    for k, rec in (("base", base), ("series", series)):
        t.run("%s requests (simulated machine)" % k, lambda k=k, rec=rec: requests(k, rec))
    return 1 if t.failed else 0


# ---- m73: the mainline series' tip on 7.3 (suite 71) ---------------------------

def m73(check, tl, keys):
    markers(check, tl, "m73: every phase marker reached the host")
    trace_vs_record(check, tl, keys)

    @check("the KUnit suite intel_pstate_adjust_perf passes, every case reported")
    def _():
        ku = [line.split(": ", 1)[1].strip() for line in open(tl.console, errors="replace") if line.startswith("KUNIT: ")]
        at = ku.index("# Subtest: intel_pstate_adjust_perf") if "# Subtest: intel_pstate_adjust_perf" in ku else len(ku)
        plan = [int(x[3:]) for x in ku[at + 1:at + 2] if re.fullmatch(r"1\.\.\d+", x)]  # the suite's plan: its cases
        cases = [x for x in ku if re.match(r"ok \d+ adjust_perf_test_", x)]
        return (keys.get("KUNIT-RC") == "0" and "ok 1 intel_pstate_adjust_perf" in ku and plan and len(cases) == plan[0]
                and not [x for x in ku if x.startswith("not ok")], "insmod %s; %d of %s cases ok; %s" % (
                    keys.get("KUNIT-RC"), len(cases), plan or "no plan", " | ".join(ku[-3:]) or "no KUnit output"))

    kselftest(check, tl, keys)
    no_warning(check, tl, "m73: no warning in the guest's kernel log")


# ---- main ----------------------------------------------------------------------

# kind: (its checks, its number of arguments)
KINDS = {"driver": (driver, 2), "platform": (platform, 2), "dec": (dec, 2), "emulator": (emulator, 3),
         "m73": (m73, 2)}


def main(argv):
    kind, args = (argv[0], argv[1:]) if argv else ("", [])
    if kind == "scenarios" and args:
        return scenarios(args[0], args[1:])
    if kind == "ab" and len(args) == 2:
        return ab(*args)
    if kind == "robustness" and len(args) >= 3:
        return robustness(*Timeline.load(args[0], args[1]), args[2:])
    if kind not in KINDS or len(args) != KINDS[kind][1]:
        print(__doc__, file=sys.stderr)
        return 2
    tl, err = Timeline.load(args[0], args[1])
    cs = ktap.Checks()
    try:
        KINDS[kind][0](cs, tl, tl.keys, *args[2:])
    except Exception as e:  # a check that cannot even be named fails the document
        ktap.Ktap(1).not_ok("checker setup", repr(e))
        return 1
    return cs.report(err, " (simulated)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
