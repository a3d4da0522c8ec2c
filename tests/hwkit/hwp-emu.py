#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Emulated HWP for tests/60-hwkit.sh (hwp-emu.py ROOT NCPU MODE): keeps
HWP_REQUEST of fake CPUs as intel_pstate passive + schedutil with
->adjust_perf is specified to (DESIGN.md section 4), so that the
hwp_request selftest's own logic (sampling, checks, restore on every exit
path) can be tested where no HWP exists. ROOT/sys/cpuN/cpufreq/* and
ROOT/dev/cpu/N/msr (sparse; pread at the MSR number) stand in for sysfs and
/dev/cpu/N/msr. A CPU is busy while a running process named hwp_request*
is pinned to it alone. MODE: good; bad-min (MIN not capped at a lowered
MAX); freq-path (frequency path: the target in MIN and DESIRED alike); dec
(DEC on: DESIRED 0 on every path); dec-bad (DEC on, DESIRED as in good)."""
import glob
import struct
import sys
import time

root, ncpu, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
CAP, LOWEST, EPP = 40, 8, 0x80
util = [0.0] * ncpu


def rd(path, default=""):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def busy_cpus():
    busy = set()
    for st in glob.glob("/proc/[0-9]*/status"):
        try:
            with open(st) as f:
                d = dict(ln.split(":", 1) for ln in f if ":" in ln)
        except (OSError, ValueError):
            continue
        cpus = d.get("Cpus_allowed_list", "").strip()
        if (d.get("Name", "").strip().startswith("hwp_request") and
                d.get("State", "").strip().startswith("R") and cpus.isdigit()):
            busy.add(int(cpus))
    return busy


while True:
    busy = busy_cpus()
    for c in range(ncpu):
        util[c] = 1.0 if c in busy else util[c] * 0.5
        cf = "%s/sys/cpu%d/cpufreq" % (root, c)
        gov = rd(cf + "/scaling_governor")
        limit = int(rd(cf + "/scaling_max_freq", "4000000") or 4000000) // 100000
        hi = min(CAP, limit)
        target = max(1, -(-int(CAP * min(1.0, util[c] * 1.25) * 100) // 100))
        if gov == "performance":          # frequency path, strict: MIN = DESIRED = MAX
            lo = des = hi
            if mode == "dec":
                des = 0
        elif mode == "freq-path":       # frequency path: MIN = DESIRED = target
            lo = des = max(LOWEST, min(target, hi))
        else:
            # bad-min: MIN stays at full capacity above a lowered limit
            lo = CAP if mode == "bad-min" and c in busy and hi < CAP else LOWEST
            des = max(lo, min(target, hi))
            if mode == "dec":
                des = 0
        val = lo | hi << 8 | des << 16 | EPP << 24
        with open("%s/dev/cpu/%d/msr" % (root, c), "r+b") as f:
            f.seek(0x774)
            f.write(struct.pack("<Q", val))
    time.sleep(0.005)
