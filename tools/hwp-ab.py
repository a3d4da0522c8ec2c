#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hwp-ab: measure package energy and speed of the field's workloads, A/B.

run: a CSV file per run in DIR/runs (per mode with --modes: adjust_perf_mode
A/B on one kernel); compare: the table (baseline: the first config or --base)
and DIR/summary.csv; the adjust_perf trace's counts, where it exists, go into
the rows. hardware-guide.md section 5; plan, import: hwp-machine.md, 57.
"""

import argparse
import csv
import glob
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "hwp-ab")
HELPERS = ("periodic", "pingpong", "spawn")
PERIODIC_HZ = (73, 113, 211, 347, 401)
WORKLOADS = ["periodic-%dHz" % hz for hz in PERIODIC_HZ] + ["serial", "pingpong"]
RUN_FIELDS = ["kernel", "driver", "governor", "label", "workload", "repeat",
              "seconds", "energy_j", "power_w", "perf", "perf_unit", "detail"]
SUMMARY_FIELDS = ["workload", "config", "runs", "seconds", "energy_j",
                  "power_w", "perf", "perf_unit", "perf_better",
                  "energy_vs_base_pct", "perf_vs_base_pct", "writes_per_s"]
CPUFREQ = "/sys/devices/system/cpu/cpufreq"
MODE = "/sys/devices/system/cpu/intel_pstate/adjust_perf_mode"
EVENT = "events/intel_pstate/intel_pstate_adjust_perf/enable"
RAPL_EVENT = "/sys/bus/event_source/devices/power/events/energy-pkg"


class Fatal(Exception):
    pass


def log(msg):
    print("hwp-ab: " + msg, file=sys.stderr, flush=True)


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def build_helpers(bindir):
    """Compile the C helpers with gcc into bindir (when sources changed)."""
    os.makedirs(bindir, exist_ok=True)
    cc = os.environ.get("CC", "gcc")
    if not shutil.which(cc):
        raise Fatal("no C compiler (%s): install gcc (apt install gcc libc6-dev)" % cc)
    paths = {}
    for name in HELPERS:
        src = os.path.join(SRC, name + ".c")
        out = os.path.join(bindir, name)
        deps = [src, os.path.join(SRC, "work.h")]
        if not os.path.exists(out) or any(os.path.getmtime(d) > os.path.getmtime(out)
                                          for d in deps):
            cmd = [cc, "-O2", "-Wall", "-pthread", "-o", out + ".tmp", src]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                raise Fatal("compiling %s failed:\n%s" % (src, r.stderr))
            os.replace(out + ".tmp", out)
        paths[name] = out
    return paths


def parse_kv(text):
    return dict(re.findall(r"(\w+)=(\S+)", text))


def measure(cmd, energy):
    """cmd's output and, with energy, the package energy it took in joules."""
    if not energy:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            raise Fatal("%s failed: %s" % (" ".join(cmd), r.stderr.strip()))
        return r.stdout, None
    with tempfile.NamedTemporaryFile("r", suffix=".perf") as out:
        full = ["perf", "stat", "-a", "-x,", "-e", "power/energy-pkg/",
                "-o", out.name, "--"] + cmd
        r = subprocess.run(full, capture_output=True, text=True)
        if r.returncode:
            raise Fatal("perf stat failed: %s" % (r.stderr.strip() or r.stdout))
        text = out.read()
    for line in text.splitlines():
        f = line.split(",")
        if len(f) > 2 and "energy-pkg" in line:
            try:
                return r.stdout, float(f[0])
            except ValueError:
                raise Fatal("perf could not count power/energy-pkg/ (%s); "
                            "run as root or set kernel.perf_event_paranoid=-1"
                            % f[0])
    raise Fatal("no power/energy-pkg/ count in perf's output:\n" + text)


def check_energy():
    why = []
    if not os.path.exists(RAPL_EVENT):
        why.append("no RAPL energy-pkg event (%s missing: not an Intel/AMD CPU "
                   "with RAPL, or a VM)" % RAPL_EVENT)
    if shutil.which("perf") is None:
        why.append("perf not installed (apt install linux-perf)")
    if why:
        raise Fatal("cannot measure package energy: %s; --dry-run runs without energy"
                    % "; ".join(why))


def write(path, value):
    try:
        with open(path, "w") as f:
            f.write(value)
    except OSError as e:
        raise Fatal("cannot write %r to %s: %s" % (value, path, e.strerror))


class Trace:
    """The intel_pstate_adjust_perf event in a tracefs instance of our own
    (nobody else's tracing is touched), removed again by close()."""

    def __init__(self):
        self.dir = None
        for root in ("/sys/kernel/tracing", "/sys/kernel/debug/tracing"):
            if os.path.exists(os.path.join(root, EVENT)):
                self.dir = os.path.join(root, "instances", "hwp_ab_%d" % os.getpid())
                try:
                    os.mkdir(self.dir)
                    write(os.path.join(self.dir, EVENT), "1")
                except (OSError, Fatal) as e:
                    self.close()
                    raise Fatal("cannot set up the trace instance: %s" % e)
                break

    def start(self):
        if self.dir:
            write(os.path.join(self.dir, "trace"), "")

    def view(self):
        """'trace_events=N trace_written=M' since start(), or 'trace=NA'."""
        if not self.dir:
            return "trace=NA"
        text = read(os.path.join(self.dir, "trace"), "")
        return "trace_events=%d trace_written=%d" % (
            text.count(": intel_pstate_adjust_perf: "), len(re.findall(r" written=1\b", text)))

    def close(self):
        if self.dir and os.path.isdir(self.dir):
            try:
                os.rmdir(self.dir)
            except OSError as e:
                log("could not remove %s: %s" % (self.dir, e.strerror))


def cpufreq(attr, default):
    """attr of every cpufreq policy, the distinct values joined with '+'."""
    vals = sorted({read(p + "/" + attr, default)
                   for p in glob.glob(os.path.join(CPUFREQ, "policy*"))} - {None})
    return "+".join(vals) or "none"


def calibrate(rdir, bins, dry):
    """Iterations per second flat out, measured once per results dir."""
    path = os.path.join(rdir, "calibration.txt")
    kv = parse_kv(read(path, ""))
    if "iters_per_s" in kv:
        return float(kv["iters_per_s"])
    out = subprocess.run([bins["periodic"], "-c", "0.05" if dry else "2"],
                         capture_output=True, text=True, check=True).stdout
    ips = float(parse_kv(out)["iters_per_s"])
    if not dry:
        with open(path, "w") as f:
            f.write("iters_per_s=%.0f measured=%s kernel=%s\n"
                    % (ips, time.strftime("%Y-%m-%dT%H:%M:%S"), platform.release()))
    return ips


def perf_key(name):
    """The output key of a workload's speed metric, its unit and direction."""
    if name.startswith("periodic-"):
        return "work_us_mean", "us/packet", "lower"
    return ("processes_per_s", "proc/s", "higher") if name == "serial" else ("roundtrips_per_s", "rt/s", "higher")


def workload_cmd(name, bins, ips, a):
    if name.startswith("periodic-"):
        hz = int(name[len("periodic-"):-2])
        periods = max(1, int(hz * a.duration))
        iters = max(1, int(ips * a.duty / hz))
        return [bins["periodic"], str(hz), str(periods), str(iters)]
    if name == "serial":
        iters = max(1, int(ips * 0.0005))      # 0.5 ms of work per process
        return [bins["spawn"], str(a.processes), str(iters)]
    return [bins["pingpong"], str(a.roundtrips)]


def run_name(*parts):
    return "_".join(re.sub(r"[^A-Za-z0-9.+-]+", "-", x).strip("-") or "x"
                    for x in parts if x)


def make_row(meta, w, rep, out, joules):
    """One row of a run file, from a helper's key=value output line; meta:
    kernel, driver, governor, label."""
    key, unit, _ = perf_key(w)
    kv = parse_kv(out)
    if "seconds" not in kv or key not in kv:
        raise Fatal("workload %s #%s: no seconds= or %s= in its output: %r" % (w, rep, key, out))
    secs = float(kv["seconds"])
    detail = ["%s=%s" % (k, kv[k]) for k in ("overruns", "trace_events", "trace_written") if k in kv]
    return dict(zip(RUN_FIELDS, meta), workload=w, repeat=rep,
                seconds="%.4f" % secs,
                energy_j="NA" if joules is None else "%.3f" % joules,
                power_w="NA" if joules is None else "%.3f" % (joules / secs),
                perf=kv[key], perf_unit=unit, detail=" ".join(detail))


def write_csv(path, fields, rows):
    with open(path + ".tmp", "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        wr.writeheader()
        wr.writerows(rows)
    os.replace(path + ".tmp", path)
    log("wrote %s" % path)
    return path


def write_run(rdir, name, rows):
    os.makedirs(os.path.join(rdir, "runs"), exist_ok=True)
    return write_csv(os.path.join(rdir, "runs", name + ".csv"), RUN_FIELDS, rows)


def import_console(a):
    """A run file per AB-RUN line of a machine's console: AB-RUN kernel=K
    driver=D governor=G [mode=M: the label gets -M], then per workload AB-ROW
    repeat=R workload=W energy_uj=E|NA [trace_events=N trace_written=N] <the
    helper's output line>."""
    head, rows, runs = None, [], []
    with open(a.console, errors="replace") as f:
        for line in f:
            line = line.strip("\r\n")
            if line.startswith("AB-RUN "):
                runs.append(rows)
                head, rows = parse_kv(line), []
                mode = head.get("mode", "none")
                label = a.label + ("-" + mode if mode != "none" else "")
            elif line.startswith("AB-ROW "):
                if head is None:
                    raise Fatal("%s: AB-ROW before AB-RUN" % a.console)
                kv = parse_kv(line)
                w = kv.get("workload")
                if w not in WORKLOADS:
                    raise Fatal("%s: unknown workload in %r" % (a.console, line))
                meta = tuple(head.get(k, "?") for k in RUN_FIELDS[:3]) + (label,)
                e = kv.get("energy_uj", "NA")
                joules = None if e == "NA" else int(e) / 1e6
                rows.append(make_row(meta, w, int(kv.get("repeat", "1")), line, joules))
    runs.append(rows)
    labels = [rs[0]["label"] for rs in runs[1:] if rs]
    if not runs[1:] or not all(runs[1:]) or len(set(labels)) != len(labels):
        raise Fatal("%s: want AB-RUN lines, each of another mode, each with AB-ROW lines" % a.console)
    return [write_run(a.results, run_name(*[rs[0][k] for k in RUN_FIELDS[:4]]), rs) for rs in runs[1:]]


def do_run(a):
    rdir = a.results
    os.makedirs(os.path.join(rdir, "runs"), exist_ok=True)
    if not a.dry_run:
        check_energy()
    modes = [m for m in a.modes.split(",") if m]
    if modes and (set(modes) - {"hints", "floor"} or len(set(modes)) != len(modes)):
        raise Fatal("--modes: hints and floor, each once (not %r)" % a.modes)
    if modes and not (os.path.exists(MODE) and cpufreq("scaling_driver", None) == "intel_cpufreq"
                      and cpufreq("scaling_governor", "?") == "schedutil"):
        raise Fatal("--modes needs %s (the series' patch 20), intel_pstate=passive and schedutil" % MODE)
    bins = build_helpers(os.path.join(rdir, "bin"))
    ips = calibrate(rdir, bins, a.dry_run)
    old_mode, trace, stamp = read(MODE), Trace(), time.strftime("%Y%m%dT%H%M%S")
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    runs = {}
    try:
        for rep in range(1, a.repeat + 1):
            for w in a.workloads:
                for mode in modes or [None]:
                    if mode:
                        write(MODE, mode)
                    meta = (platform.release(), cpufreq("scaling_driver", None),
                            cpufreq("scaling_governor", "?"), "-".join(x for x in (a.label, mode) if x))
                    if meta not in runs:
                        log("run %s: kernel %s, driver %s, governor %s, meter %s"
                            % ((run_name(*meta, stamp),) + meta[:3] + ("none" if a.dry_run else "perf",)))
                    cmd = workload_cmd(w, bins, ips, a)
                    if a.settle and not a.dry_run:
                        time.sleep(a.settle)
                    trace.start()
                    out, joules = measure(cmd, not a.dry_run)
                    row = make_row(meta, w, rep, trace.view() + " " + out, joules)
                    runs.setdefault(meta, []).append(row)
                    log("  %-14s #%d %8.2f s  %s J  %s %s  %s" % (
                        w, rep, float(row["seconds"]), row["energy_j"], row["perf"],
                        row["perf_unit"], row["detail"]))
    finally:
        if modes and old_mode:
            write(MODE, old_mode)
        trace.close()
    return [write_run(rdir, run_name(*meta, stamp), rows) for meta, rows in runs.items()]


def fnum(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def mean(vals):
    vals = [v for v in vals if v is not None]
    return statistics.mean(vals) if vals else None


def compare(files, base, csv_out):
    rows = []
    for fn in files:
        with open(fn, newline="") as f:
            rd = csv.DictReader(f)
            if rd.fieldnames != RUN_FIELDS:
                raise Fatal("%s is not a hwp-ab run file" % fn)
            rows.extend(rd)
    if not rows:
        raise Fatal("no runs to compare")
    for r in rows:
        r["config"] = "/".join(x for x in (r["kernel"], r["driver"], r["governor"], r["label"]) if x)
    configs = list(dict.fromkeys(r["config"] for r in rows))
    match = [c for c in configs if base in c] if base else configs
    if not match:
        raise Fatal("--base %s matches no config (have: %s)" % (base, ", ".join(configs)))
    base_cfg = match[0]
    workloads = [w for w in WORKLOADS if any(r["workload"] == w for r in rows)]
    summary = []
    for w in workloads:
        agg = {}
        for c in configs:
            sel = [r for r in rows if r["workload"] == w and r["config"] == c]
            if not sel:
                continue
            agg[c] = dict(workload=w, config=c, runs=len(sel),
                          perf_unit=sel[0]["perf_unit"], perf_better=perf_key(w)[2],
                          writes_per_s=mean(fnum(parse_kv(r["detail"]).get("trace_written"))
                                            / fnum(r["seconds"]) for r in sel
                                            if "trace_written" in r["detail"] and fnum(r["seconds"])),
                          **{k: mean(fnum(r[k]) for r in sel)
                             for k in ("seconds", "energy_j", "power_w", "perf")})
        b = agg.get(base_cfg)
        for c, s in agg.items():
            def pct(k):
                if not b or b[k] in (None, 0) or s[k] is None:
                    return None
                return 100.0 * (s[k] - b[k]) / b[k]
            s["energy_vs_base_pct"] = pct("energy_j")
            s["perf_vs_base_pct"] = pct("perf")
            summary.append(s)

    def fmt(v, spec):
        return "NA" if v is None else format(v, spec)

    cw = max(len(c) for c in configs)
    print("baseline: %s" % base_cfg)
    hdr = "%-14s %-*s %4s %9s %10s %8s %12s %-10s %8s %8s %8s" % (
        "workload", cw, "config", "runs", "time_s", "energy_J", "pkg_W",
        "perf", "unit", "dE%", "dPerf%", "writes/s")
    print(hdr)
    print("-" * len(hdr))
    for s in summary:
        print("%-14s %-*s %4d %9s %10s %8s %12s %-10s %8s %8s %8s" % (
            s["workload"], cw, s["config"], s["runs"], fmt(s["seconds"], ".2f"),
            fmt(s["energy_j"], ".1f"), fmt(s["power_w"], ".2f"),
            fmt(s["perf"], ".1f"), s["perf_unit"],
            fmt(s["energy_vs_base_pct"], "+.1f"), fmt(s["perf_vs_base_pct"], "+.1f"),
            fmt(s["writes_per_s"], ".1f")))
    print("dE%: package energy vs the baseline (negative = saves energy); "
          "dPerf%: perf vs the baseline (us/packet: lower is better; /s: higher is better); "
          "writes/s: HWP_REQUEST writes per second (the adjust_perf trace event)")
    write_csv(csv_out, SUMMARY_FIELDS, [{k: "" if s[k] is None else "%.4f" % s[k] if isinstance(s[k], float) else s[k]
                                         for k in SUMMARY_FIELDS} for s in summary])


def main(argv):
    p = argparse.ArgumentParser(prog="hwp-ab.py", description=__doc__.split("\n")[0],
                                epilog="See Documentation/project/hardware-guide.md.")
    sub = p.add_subparsers(dest="cmd", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-r", "--results", default="hwp-ab-results", help="results directory (default: ./hwp-ab-results)")
    runopts = argparse.ArgumentParser(add_help=False)
    for flag, typ, default, what in (
            ("--repeat", int, 3, "repetitions of every workload"),
            ("--duration", float, 30.0, "seconds of each periodic load"),
            ("--duty", float, 0.25, "periodic work per period, as a fraction of the period at full speed"),
            ("--processes", int, 3000, "processes of the serial load"),
            ("--roundtrips", int, 300000, "round trips of the pingpong load"),
            ("--settle", float, 2.0, "idle seconds before each workload")):
        runopts.add_argument(flag, type=typ, default=default, help="%s (default %g)" % (what, default))
    runopts.add_argument("-l", "--label", default="", help="label for this run, e.g. stock or series")
    runopts.add_argument("--only", default="", help="comma-separated workloads (default: all of %s)" % ",".join(WORKLOADS))
    runopts.add_argument("--dry-run", action="store_true", help="tiny workloads, no energy")
    pr = sub.add_parser("run", parents=[common, runopts], help="one run")
    pr.add_argument("--modes", default="", help="hints,floor: A/B of intel_pstate's adjust_perf_mode on this kernel, "
                    "one run file each (the mode is restored at the end)")
    pp = sub.add_parser("plan", parents=[runopts], help="commands of a run, for a machine without Python")
    pp.add_argument("--ips", type=float, required=True, help="that machine's calibration: 'periodic -c' iterations per second")
    pi = sub.add_parser("import", parents=[common], help="a run file from a machine's console")
    pi.add_argument("-l", "--label", required=True, help="label for this run, e.g. base or series")
    pi.add_argument("console", help="console log with AB-RUN and AB-ROW lines")
    pc = sub.add_parser("compare", parents=[common], help="table and CSV")
    pc.add_argument("--base", help="baseline: the config containing this text")
    pc.add_argument("--csv", help="summary CSV (default: RESULTS/summary.csv)")
    pc.add_argument("files", nargs="*", help="run files (default: RESULTS/runs/*.csv)")
    a = p.parse_args(argv)

    if a.cmd in ("run", "plan"):
        a.workloads = [w for w in a.only.split(",") if w] or WORKLOADS
        bad = [w for w in a.workloads if w not in WORKLOADS]
        if bad:
            raise Fatal("unknown workload %s (have: %s)" % (",".join(bad), ",".join(WORKLOADS)))
        if a.dry_run:
            a.duration, a.processes, a.roundtrips, a.repeat = 0.1, 10, 1000, 1

    if a.cmd == "plan":             # the commands of one run, for a machine that runs them itself
        if a.ips <= 0:
            raise Fatal("--ips must be positive")
        for rep in range(1, a.repeat + 1):
            for w in a.workloads:
                print("%d %s %s" % (rep, w, " ".join(workload_cmd(w, {h: h for h in HELPERS}, a.ips, a))))
    elif a.cmd == "import":
        import_console(a)
    elif a.cmd == "run":
        do_run(a)
    else:
        files = a.files or sorted(glob.glob(os.path.join(a.results, "runs", "*.csv")),
                                  key=os.path.getmtime)
        compare(files, a.base, a.csv or os.path.join(a.results, "summary.csv"))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Fatal as e:
        log(str(e))
        sys.exit(2)
    except KeyboardInterrupt:
        log("interrupted")
        sys.exit(130)
