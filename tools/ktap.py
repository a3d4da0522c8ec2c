#!/usr/bin/env python3
"""KTAP for the harness: the writer the Python checkers use, and the counter
of tools/check.sh.

Writer (import ktap):
    t = ktap.Ktap(plan)        prints "TAP version 13" and "1..plan"
    t.ok(name, note="")        ok K name         (note: "# name: note" first)
    t.not_ok(name, why)        # name: why / not ok K name
    t.skip(name, why)          ok K name # SKIP why
    t.check(name, cond, note)  ok or not ok
    t.run(name, fn)            fn() returns (cond, note); an exception is a
                               not ok with its text, and the next check runs
The plan is the number of checks the checker has, written before any of
them runs: a check that never reports counts as a failure in the counter.
Checks() registers named checks and reports them with that plan.

Counter:
    ktap.py count SUITE FILE [EXIT_STATUS]
reads a suite's output (log lines and one KTAP document, results possibly
with nested documents indented by four spaces) and prints
    FAIL <suite>: <name>: <why>     one per failure
    SKIP <suite>: <name>: <why>     one per skip
    CACHED <suite>: <name>: <note>  one per "ok ... # cached" result: passed
                                    in an earlier run with the same inputs,
                                    not run again (never counted as passed)
    COUNT <passed> <failed> <skipped> <cached>
Why not the kernel's parser: 5.10's tools/testing/kunit/kunit.py parse
reads KUnit's own shape (suites with "# Subtest:" lines) and finds no test
in a flat document with a plan; the harness's results need the plan, the
nesting and the missing results counted as below.
A result with a nested document counts as its nested results (a parent
that says "not ok" although its children passed adds one failure of its
own). A document without a plan, a missing or extra result, a result out of
order, or no KTAP document at all is a failure; so is a non-zero exit status
with no failure reported.
"""
import re
import sys

RESULT = re.compile(r"^(not ok|ok)\s+(\d+)\b\s*(?:-\s*)?(.*)$")
PLAN = re.compile(r"^1\.\.(\d+)\s*$")
VERSION = re.compile(r"^K?TAP version \d+\s*$")
DIRECTIVE = re.compile(r"\s#\s*|^#\s*")


def _name(text):
    return " ".join(str(text).replace("#", " ").split())


class Ktap:
    def __init__(self, plan, out=None):
        self.out = out or sys.stdout
        self.n = 0
        self.failed = 0
        self._print("TAP version 13")
        self._print("1..%d" % plan)

    def _print(self, line):
        print(line, file=self.out, flush=True)

    def ok(self, name, note=""):
        self.n += 1
        if note:
            self._print("# %s: %s" % (_name(name), " ".join(str(note).split())))
        self._print("ok %d %s" % (self.n, _name(name)))

    def not_ok(self, name, why=""):
        self.n += 1
        self.failed += 1
        self._print("# %s: %s" % (_name(name), " ".join(str(why or "failed").split())[:2000]))
        self._print("not ok %d %s" % (self.n, _name(name)))

    def skip(self, name, why):
        self.n += 1
        self._print("ok %d %s # SKIP %s" % (self.n, _name(name), _name(why)))

    def check(self, name, cond, note=""):
        if cond:
            self.ok(name, note)
        else:
            self.not_ok(name, note)

    def run(self, name, fn):
        try:
            cond, note = fn()
        except Exception as e:  # a checker's bug fails one check, not all
            self.not_ok(name, "raised %s: %s" % (type(e).__name__, e))
            return
        self.check(name, cond, note)


class Checks:
    """Named checks, registered before any of them runs: their number is
    the plan.

        cs = Checks()
        @cs("name")
        def _():
            return passed, "what was seen"
        sys.exit(cs.report(err))   # err: why every check fails unrun
    """

    def __init__(self):
        self.list = []

    def __call__(self, name):
        def add(fn):
            self.list.append((name, fn))
            return fn
        return add

    def __iadd__(self, other):
        self.list.extend(other.list)
        return self

    def __len__(self):
        return len(self.list)

    def report(self, err=None, suffix=""):
        t = Ktap(len(self.list))
        for name, fn in self.list:
            if err:
                t.not_ok(name + suffix, err)
            else:
                t.run(name + suffix, fn)
        return 1 if t.failed else 0


class _Doc:
    def __init__(self, indent, name):
        self.indent = indent
        self.name = name
        self.plan = None
        self.next = 1
        self.leaves = []      # (status, name, why), status: pass fail skip
        self.pending = None   # leaves of a nested document awaiting its result
        self.diag = ""

    def error(self, why):
        self.leaves.append(("fail", self.name or "(document)", why))


def count(lines, suite):
    stack = []     # open documents, innermost last
    top = []       # leaves of closed top-level documents
    ndocs = 0

    def close(doc):
        if doc.plan is None:
            doc.error("KTAP document without a plan")
        elif doc.plan == 0 and doc.indent == 0:
            doc.error("a plan of no result (1..0)")
        else:
            got = doc.next - 1
            for k in range(got + 1, doc.plan + 1):
                doc.leaves.append(("fail", "%s result %d" % (doc.name or "plan", k),
                                   "planned (1..%d) but never reported" % doc.plan))
            if got > doc.plan:
                doc.error("%d results for a plan of %d" % (got, doc.plan))
        if doc.pending is not None:
            doc.leaves.extend(doc.pending)
            doc.error("nested document without a result line")
        return doc.leaves

    def close_deeper(indent):
        while stack and stack[-1].indent > indent:
            doc = stack.pop()
            leaves = close(doc)
            if stack and stack[-1].indent <= indent:
                parent = stack[-1]
                parent.pending = (parent.pending or []) + leaves
            elif doc.indent == 0:
                top.extend(leaves)
            else:
                top.append(("fail", suite, "an indented KTAP document outside the "
                            "suite's own (its %d results not counted)" % len(leaves)))

    for raw in lines:
        line = raw.rstrip("\r\n")
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        if VERSION.match(body):
            close_deeper(indent)
            if stack and stack[-1].indent == indent:
                if indent == 0:
                    stack[-1].error("a second KTAP document in one suite")
                    continue
                close_deeper(indent - 1)
            if indent == 0:
                ndocs += 1
            stack.append(_Doc(indent, suite if indent == 0 else ""))
            continue
        if not stack:
            continue
        m = PLAN.match(body)
        if m:
            close_deeper(indent)
            if not stack:
                continue
            doc = stack[-1]
            if doc.indent == indent:
                if doc.plan is None and doc.next == 1:
                    doc.plan = int(m.group(1))
                else:
                    doc.error("a plan after results or a second plan")
            continue
        m = RESULT.match(body)
        if m:
            close_deeper(indent)
            if not stack:
                continue
            doc = stack[-1]
            if doc.indent != indent:
                continue  # indented text that is not in a document
            status, num, rest = m.group(1), int(m.group(2)), m.group(3)
            name, directive = (DIRECTIVE.split(rest, 1) + [""])[:2]
            name = name.strip() or "result %d" % num
            directive = directive.strip()
            if doc.plan is None:
                doc.error("result %d (%s) before the plan" % (num, name))
            if num != doc.next:
                doc.error("result %d (%s) where %d was due" % (num, name, doc.next))
            doc.next = num + 1
            full = name
            why = doc.diag
            if why.startswith(name + ": "):
                why = why[len(name) + 2:]
            children, doc.pending = doc.pending, None
            if children:
                for st, n, w in children:
                    doc.leaves.append((st, "%s.%s" % (name, n), w))
                if status == "not ok" and not any(st == "fail" for st, _, _ in children):
                    doc.leaves.append(("fail", name, why or "not ok"))
            elif status == "ok" and directive.upper().startswith("SKIP"):
                doc.leaves.append(("skip", full, directive[4:].strip() or "skipped"))
            elif status == "ok" and directive.lower().startswith("cached"):
                doc.leaves.append(("cached", full, directive[6:].strip()))
            elif status == "ok":
                doc.leaves.append(("pass", full, ""))
            else:
                doc.leaves.append(("fail", full, why or "not ok"))
            doc.diag = ""
            continue
        if body.startswith("#") and stack[-1].indent == indent:
            # "# NAME: why", written just before a result by the helpers
            stack[-1].diag = body[1:].strip()
    close_deeper(-1)
    leaves = top
    if ndocs == 0:
        leaves.append(("fail", suite, "no KTAP output (no 'TAP version' line)"))
    return leaves


def main(argv):
    if len(argv) < 3 or argv[0] != "count":
        print(__doc__, file=sys.stderr)
        return 2
    suite, path = argv[1], argv[2]
    status = argv[3] if len(argv) > 3 else "0"
    with open(path, errors="replace") as f:
        leaves = count(f, suite)
    if status == "124":
        leaves.append(("fail", suite, "killed by the suite timeout (SUITE_TIMEOUT)"))
    elif status != "0" and not any(st == "fail" for st, _, _ in leaves):
        leaves.append(("fail", suite, "exited with status %s without reporting a failure" % status))
    p = f = s = c = 0
    for st, name, why in leaves:
        if st == "pass":
            p += 1
        elif st == "fail":
            f += 1
            print("FAIL %s: %s: %s" % (suite, name, why))
        elif st == "cached":
            c += 1
            print("CACHED %s: %s: %s" % (suite, name, why))
        else:
            s += 1
            print("SKIP %s: %s: %s" % (suite, name, why))
    print("COUNT %d %d %d %d" % (p, f, s, c))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
