#!/usr/bin/env python3
"""The KTAP document of tests/58-robustness.sh's guest scenarios.

    results.py guest CONSOLE SCENARIO...

The host's view of tests/robustness/guest.sh, whose console lines
"R-PASS: NAME", "R-FAIL: NAME: WHY", "R-SKIP: NAME: WHY" keep their own
protocol. The plan is the list of SCENARIOs the host asked for (setup,
governors, ..., selftest.basic, ..., freeze, teardown), known before the
guest runs. Each scenario is one result with the guest's
lines named NAME or NAME.* as its nested document; a scenario with no line
on the console failed to report and fails. A last result, "guest", holds
the lines of no scenario, the guest's end (R-DONE) and its own count of
failures against the R-FAIL lines that reached the console.

Exit status 1 if anything failed.
"""
import io
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import ktap  # noqa: E402

# a kernel message may follow a result on the same console line: cut it
KMSG = re.compile(r"\[ *\d+\.\d+\] .*$")


def parse(path, prefix):
    """[(status, name, why)] of the lines PREFIX(PASS|FAIL|SKIP): ..."""
    pat = re.compile(r"^%s(PASS|FAIL|SKIP): (.*)$" % re.escape(prefix))
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = pat.match(KMSG.sub("", line.rstrip("\r\n")).rstrip())
            if m:
                name, _, why = m.group(2).partition(": ")
                out.append((m.group(1), name.strip(), why.strip()))
    return out


def emit(t, results):
    for st, name, why in results:
        if st == "PASS":
            t.ok(name, why)
        elif st == "SKIP":
            t.skip(name, why or "skipped")
        else:
            t.not_ok(name, why or "failed")


def nested(results, indent="    "):
    """A nested document of RESULTS, indented; True if all passed."""
    buf = io.StringIO()
    t = ktap.Ktap(len(results), out=buf)
    emit(t, results)
    for line in buf.getvalue().splitlines():
        print(indent + line)
    return not t.failed


def guest(console, scenarios):
    lines = parse(console, "R-")
    text = open(console, errors="replace").read()
    t = ktap.Ktap(len(scenarios) + 1)
    used = set()
    for sc in scenarios:
        mine = [(i, r) for i, r in enumerate(lines) if r[1] == sc or r[1].startswith(sc + ".")]
        used.update(i for i, _ in mine)
        if not mine:
            t.not_ok(sc, "no result of this scenario reached the console")
            continue
        ok = nested([r for _, r in mine])
        t.check(sc, ok, "" if ok else "a check of the scenario failed")
    rest = [r for i, r in enumerate(lines) if i not in used]
    m = re.search(r"^R-DONE: (\d+) failure", text, re.M)
    nfail = sum(1 for st, _, _ in lines if st == "FAIL")
    rest.append(("PASS" if m else "FAIL", "finished",
                 "R-DONE: %s failure(s)" % m.group(1) if m else "the scenario script did not finish (no R-DONE)"))
    rest.append(("PASS" if m and int(m.group(1)) == nfail else "FAIL", "failure_count",
                 "the guest counted %s failure(s), the console shows %d R-FAIL lines" % (
                     m.group(1) if m else "?", nfail)))
    ok = nested(rest)
    t.check("guest", ok, "" if ok else "see above")
    return 1 if t.failed else 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "guest":
        return guest(argv[1], argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
