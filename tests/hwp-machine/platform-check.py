#!/usr/bin/env python3
"""Assertions of tests/59-hwp-platform.sh on the emulated HWP machine.

    platform-check.py platform CONSOLE_LOG RECORD MONITOR_TRANSCRIPT
    platform-check.py dec CONSOLE_LOG RECORD

"platform": the boot of tests/hwp-machine/platform-guest.sh (base ratio 20,
guaranteed 18, highest 30 and 24): the guest's clocks, the invariance
reference after a re-registration, turbo turned off by the platform, the
guaranteed level changed through the monitor. "dec": the boot of
tests/hwp-machine/dec-guest.sh (MSR_POWER_CTL bit 27 set). Prints one line
per check, "PASS: hwp-platform <name>: <what was seen>" or "FAIL: ...".
Every figure comes from the emulated machine: simulated, not measured on
hardware.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from hwp_record import Timeline  # noqa: E402

HIGHEST = {0: 30, 1: 24}
GUARANTEED, BASE, LOWEST = 18, 20, 8


def platform(tl, transcript, check):
    keys = tl.keys

    # ---- clocks (the TSC at the base frequency) ---------------------------
    for k in ("TSC-DETECTED", "TSC-REFINED"):
        v = keys.get(k, "")
        try:
            mhz = float(v)
        except ValueError:
            mhz = None
        # the boot's quick calibration against the PIT (seen 1999.026 and
        # 2000.001 MHz for 2000 in two runs: within 0.5%), then the
        # refinement against the HPET over a second, the frequency the
        # kernel keeps: within 0.1%
        tol = 0.005 if k == "TSC-DETECTED" else 0.001
        check("boot log: %s TSC frequency = the base ratio's %d MHz (within %.1f%%)" % (
            "calibrated" if k == "TSC-DETECTED" else "refined", BASE * 100, tol * 100),
            mhz is not None and abs(mhz - BASE * 100) <= BASE * 100 * tol,
            "tsc: %s MHz (clocksource %s)" % (v or "none", keys.get("CLOCKSOURCE")))
    for cpu in (0, 1):
        for lvl in (12, 24):
            v = keys.get("CLK-%d-%d" % (cpu, lvl), "").split()
            want = lvl * 100000
            ok = len(v) == 4 and all(x.replace(".", "", 1).isdigit() for x in v)
            if ok:
                lo, hi, cur, mhz = int(v[0]), int(v[1]), int(v[2]), float(v[3])
                ok = lo == hi == want and abs(cur - want) <= 0.02 * want \
                    and abs(mhz * 1000 - want) <= 0.02 * want
            rs = tl.effective("clk-%d-%d" % (cpu, lvl), cpu)
            held = rs and all(r["min"] == r["max"] == r["des"] == lvl for r in rs[1:]) \
                and tl.end_state("clk-%d-%d" % (cpu, lvl), cpu)["des"] == lvl
            check("CPU %d held at level %d: scaling_cur_freq and /proc/cpuinfo read %d MHz within 2%%" % (
                cpu, lvl, lvl * 100), ok and held,
                "scaling_min/max_freq, scaling_cur_freq (kHz), cpuinfo MHz: %s; %s" % (
                    " ".join(v) or "none", tl.fmt(rs)))
            # the counters over 2 s of the hold, whatever the kernel makes
            # of them: MPERF at the TSC's rate (the vCPU never halts under
            # the spin), APERF at level / base of it
            c = keys.get("CNT-%d-%d" % (cpu, lvl), "").split()
            try:
                dt, dm, da = (int(x) for x in c)
            except ValueError:
                dt = dm = da = 0
            check("CPU %d held at level %d: MPERF counts at the TSC's rate, APERF at %d/%d of it (within 2%%)" % (
                cpu, lvl, lvl, BASE),
                dt > 0 and dm > 0 and abs(dm / dt - 1) <= 0.02 and abs(da / dm - lvl / BASE) <= 0.02 * lvl / BASE,
                "over %.3f s of TSC: MPERF/TSC %s, APERF/MPERF %s (want %.3f)" % (
                    dt / (BASE * 1e8), "%.4f" % (dm / dt) if dt else "?",
                    "%.4f" % (da / dm) if dm else "?", lvl / BASE))
    # the machine's own account at exit: MPERF ticks per busy ns = base / 10
    for e in (e for e in tl.events if e["ev"] == "summary"):
        busy, mperf = int(e["busy_ns"]), int(e["mperf"])
        check("CPU %s at exit: MPERF counted %d ticks per busy ns (the base frequency, within 0.5%%)" % (
            e["cpu"], BASE // 10) if BASE % 10 == 0 else "CPU %s at exit: MPERF rate" % e["cpu"],
            busy > 0 and abs(mperf / busy - BASE / 10) <= 0.005 * BASE / 10,
            "mperf %d over %d busy ns: %.5f per ns" % (mperf, busy, mperf / busy if busy else 0))
    # wall-clock time: the guest's 10 s against the host's clock
    try:
        guest = float(keys["UPTIME-END"]) - float(keys["UPTIME-START"])
        host = (tl.mark_ht[tl.num["wall-end"]] - tl.mark_ht[tl.num["wall-start"]]) / 1e9
    except (KeyError, ValueError):
        guest = host = None
    check("wall-clock time in the guest follows the host's (within 1%)",
          guest and host and abs(guest - host) <= 0.01 * host + 0.02,
          "guest %s s, host %s s between the markers" % (
              "%.2f" % guest if guest else "?", "%.3f" % host if host else "?"))

    # ---- the invariance reference after a re-registration (item 1) ---------
    check("re-registration: status passive again, no_turbo reads 0",
          keys.get("REREG-NO-TURBO-SET") == "1" and keys.get("REREG-NO-TURBO") == "0"
          and (keys.get("REREG-STATUS") or "").split() == ["passive", "intel_cpufreq", "schedutil"],
          "no_turbo %s -> %s after active -> passive; status, driver, governor: %s" % (
              keys.get("REREG-NO-TURBO-SET"), keys.get("REREG-NO-TURBO"), keys.get("REREG-STATUS")))
    fresh, again = tl.end_state("busy99-fresh", 0), tl.end_state("busy99-rereg", 0)
    lf, la = tl.late_min("busy99-fresh", 0), tl.late_min("busy99-rereg", 0)
    check("99%%-busy thread after no_turbo 1 and active -> passive: reaches and holds %d, as after boot" % HIGHEST[0],
          fresh and again and fresh["des"] == again["des"] == HIGHEST[0]
          and lf is not None and la is not None and la >= HIGHEST[0] - 3,
          "after boot: lowest over the second half %s, %s; after the re-registration: %s, %s" % (
              lf, tl.seen("busy99-fresh", 0), la, tl.seen("busy99-rereg", 0)))

    def median_late(phase):
        sp = tl.span(phase)
        if not sp:
            return None
        mid = (sp[0] + sp[1]) // 2
        rs = [r for r in (tl.in_effect(0, mid),) if r] + tl.writes(0, mid, sp[1] - tl.GRACE)
        return statistics.median(r["des"] for r in rs) if rs else None
    # (A 90%-busy thread is not checked: its 1 ms sleeps overrun under TCG,
    # more on a loaded host, and the level it settles at varied from 16 to
    # 30 between runs of the same kernel after boot, and 22 against 29 in
    # one fresh-clone run of v6, so a pass/fail on it is flaky. The 99%-busy
    # thread above and the uclamp maximum below are deterministic.)
    half = (HIGHEST[0] + 1) // 2
    ef, ea = tl.end_state("umax-fresh", 0), tl.end_state("umax-rereg", 0)
    check("uclamp max 512 on a full spin: MAX %d (half the reference) after boot and after the re-registration" % half,
          ef and ea and ef["max"] == ea["max"] == half,
          "after boot %s; after the re-registration %s" % (tl.seen("umax-fresh", 0), tl.seen("umax-rereg", 0)))
    mf, ma = median_late("busy60-fresh"), median_late("busy60-rereg")
    check("60%-busy thread: the same requests after the re-registration as after boot (median DESIRED within 2)",
          mf is not None and ma is not None and abs(mf - ma) <= 2,
          "median DESIRED over the second half: after boot %s, after the re-registration %s; %s | %s" % (
              mf, ma, tl.fmt(tl.phase_writes("busy60-fresh", 0), 3),
              tl.fmt(tl.phase_writes("busy60-rereg", 0), 3)))

    # ---- turbo off by the platform at run time (item 2) ---------------------
    # every request written from the moment the platform turned turbo off
    # (the one in effect before may have been written with turbo on)
    off0, on0 = (tl.span("fw-turbo-off") or (0, 0))[0], (tl.span("fw-turbo-on") or (0, 0))[0]
    for ph, what in (("fw-turbo-off-umin", "uclamp minimum 1024"), ("fw-turbo-off-spin", "full spin")):
        rs = [r for r in tl.effective(ph, 0) if off0 <= r["t"] < on0]
        over = [r for r in rs if r["min"] > GUARANTEED or r["max"] > GUARANTEED]
        check("turbo off by the platform, %s: MIN and MAX never above the guaranteed level %d" % (what, GUARANTEED),
              keys.get("FW-NO-TURBO") == "1" and rs and not over,
              "no_turbo reads %s; %d of %d requests in effect above %d; %s" % (
                  keys.get("FW-NO-TURBO"), len(over), len(rs), GUARANTEED, tl.seen(ph, 0)))
    e = tl.end_state("fw-turbo-off-umin", 0)
    check("turbo off by the platform, uclamp minimum 1024: MIN = MAX = DESIRED = %d" % GUARANTEED,
          e and e["min"] == e["max"] == e["des"] == GUARANTEED, tl.seen("fw-turbo-off-umin", 0))
    e = tl.end_state("fw-turbo-on-spin", 0)
    check("turbo back on: full spin reaches %d again" % HIGHEST[0],
          keys.get("FW-NO-TURBO-BACK") == "0" and e and e["des"] == HIGHEST[0],
          "no_turbo reads %s; %s" % (keys.get("FW-NO-TURBO-BACK"), tl.seen("fw-turbo-on-spin", 0)))

    # ---- the guaranteed level changed through the monitor -------------------
    ev = [e for e in tl.events if e["ev"] == "guaranteed"]
    st = (keys.get("GUAR-STATUS") or "").split()
    check("monitor: guaranteed level 18 -> 14 on both vCPUs, HWP_STATUS bit 0 set, cleared by writing 0",
          keys.get("GUAR-CAPS") == "14 14" and len(st) == 2
          and all(int(x, 16) & 1 for x in st)
          and keys.get("GUAR-STATUS-CLEARED") == "0x0 0x0"
          and sorted((e["cpu"], e["old"], e["new"]) for e in ev if e["new"] == "14") == [("0", "18", "14"), ("1", "18", "14")],
          "capabilities' guaranteed %s, HWP_STATUS %s, after writing 0 %s; record: %s" % (
              keys.get("GUAR-CAPS"), keys.get("GUAR-STATUS"), keys.get("GUAR-STATUS-CLEARED"),
              " ".join("cpu%s:%s->%s" % (e["cpu"], e["old"], e["new"]) for e in ev) or "none"))
    check("monitor: the driver's limits follow at the next limits update (scaling_max_freq 1.4 GHz with no_turbo)",
          keys.get("GUAR-MAXFREQ") == "1400000 1400000", "scaling_max_freq %s" % keys.get("GUAR-MAXFREQ"))
    for cpu in (0, 1):
        ph = "guar-low-umin-cpu%d" % cpu
        rs, e = tl.effective(ph, cpu), tl.end_state(ph, cpu)
        over = [r for r in rs if r["min"] > 14 or r["max"] > 14]
        check("guaranteed 14, no_turbo, uclamp minimum 1024, CPU %d: MIN = MAX = DESIRED = 14, never above" % cpu,
              rs and not over and e and e["min"] == e["max"] == e["des"] == 14, tl.seen(ph, cpu))
    text = open(transcript, errors="replace").read() if os.path.exists(transcript) else ""
    check("monitor: a guaranteed level above the highest is refused by QEMU and changes nothing",
          "(must be refused)" in text and "is not in [efficient" in text and "UNEXPECTED" not in text
          and keys.get("GUAR-BACK") == "18 18",
          "guaranteed after the refused 31: %s; transcript: %d commands%s" % (
              keys.get("GUAR-BACK"), text.count("\ncommand ") + text.startswith("command "),
              ", one UNEXPECTED" if "UNEXPECTED" in text else ""))

    check("invariance stays on (no 'went wobbly')", keys.get("WOBBLY") == "0", "WOBBLY=%s" % keys.get("WOBBLY"))


def dec(tl, check):
    keys = tl.keys
    check("DEC: MSR_POWER_CTL bit 27 set, intel_cpufreq in passive mode with HWP",
          keys.get("DRIVER") == "intel_cpufreq" and keys.get("STATUS") == "passive"
          and keys.get("POWER-CTL", "").startswith("0x") and int(keys["POWER-CTL"], 16) >> 27 & 1,
          "driver %s, status %s, POWER_CTL %s" % (keys.get("DRIVER"), keys.get("STATUS"), keys.get("POWER-CTL")))
    withdes = [r for r in tl.reqs if r["des"]]
    check("DEC: no HWP_REQUEST write carries a DESIRED level",
          tl.reqs and not withdes, "%d writes, %d with DESIRED: %s" % (
              len(tl.reqs), len(withdes), tl.fmt(withdes, 4)))
    for cpu in (0, 1):
        # the guest's read of HWP_REQUEST under the load (the request may be
        # the register's reset value, which the driver does not write again)
        v = keys.get("REQ-SPIN%d" % cpu, "")
        req = int(v, 16) if v.startswith("0x") else None
        e = tl.end_state("spin-cpu%d" % cpu, cpu)
        check("DEC, full load on CPU %d: MAX at its highest level %d, DESIRED 0 (the register under the load)" % (
            cpu, HIGHEST[cpu]),
            req is not None and (req >> 8) & 255 == HIGHEST[cpu] and (req >> 16) & 255 == 0
            and (e is None or (e["max"], e["des"]) == (HIGHEST[cpu], 0)),
            "HWP_REQUEST %s (MIN/MAX/DESIRED %s); record: %s" % (
                v or "?", "%d/%d/%d" % (req & 255, (req >> 8) & 255, (req >> 16) & 255) if req is not None else "?",
                tl.seen("spin-cpu%d" % cpu, cpu)))
    # with DESIRED held at 0, hints that differ only in their DESIRED level
    # give the same request: ->adjust_perf() must not write it again
    n, again = 0, []
    for ph in ("spin-cpu0", "spin-cpu1", "uclamp-max-cpu1", "uclamp-min-cpu1"):
        for cpu in (0, 1):
            for r in tl.phase_writes(ph, cpu):
                prev = [x for x in tl.reqs if x["cpu"] == cpu and x["t"] < r["t"]]
                n += 1
                if prev and all(prev[-1][k] == r[k] for k in ("min", "max", "des", "epp")):
                    again.append(r)
    check("DEC: an unchanged request is not written again under schedutil",
          not again, "%d writes in the schedutil load phases, %d repeat the request in effect%s" % (
              n, len(again), (": " + tl.fmt(again, 3)) if again else ""))
    half = (HIGHEST[0] + 1) // 2
    e = tl.end_state("uclamp-max-cpu1", 1)
    check("DEC, uclamp max 512, full load, CPU 1: MAX capped at %d" % half,
          e and e["max"] == half and e["min"] <= half, tl.seen("uclamp-max-cpu1", 1))
    rs = tl.phase_writes("uclamp-min-cpu1", 1)
    check("DEC, uclamp min 512, light load, CPU 1: MIN %d required" % half,
          rs and max(r["min"] for r in rs) >= half, tl.seen("uclamp-min-cpu1", 1))
    e = tl.end_state("gov-performance", 1)
    check("DEC, performance governor: frequency path MIN = MAX = %d" % HIGHEST[1],
          e and e["min"] == e["max"] == HIGHEST[1], tl.seen("gov-performance", 1))
    check("DEC: no warning in the guest's kernel log", not tl.dmesg, "; ".join(tl.dmesg[:3]) or "none")


def main():
    args = sys.argv[1:]
    if not ((len(args) == 4 and args[0] == "platform") or (len(args) == 3 and args[0] == "dec")):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    tl = Timeline(args[1], args[2])
    results = []

    def check(name, ok, seen):
        results.append((name, bool(ok), seen))

    missing = [p for n, p in tl.names.items() if n not in tl.marks]
    check("%s: every phase marker reached the host" % args[0], tl.names and not missing,
          "%d phases, missing in the record: %s" % (len(tl.names), missing or "none"))
    if args[0] == "platform":
        platform(tl, args[3], check)
        check("platform: no warning in the guest's kernel log", not tl.dmesg, "; ".join(tl.dmesg[:3]) or "none")
    else:
        dec(tl, check)
    for name, ok, what in results:
        print("%s: hwp-platform %s: %s (simulated)" % ("PASS" if ok else "FAIL", name, what))


if __name__ == "__main__":
    main()
