#!/usr/bin/env python3
"""KTAP for the harness: the writer the Python checkers use (Ktap, Checks), and
the counter of tools/check.sh:
    ktap.py count SUITE FILE [EXIT_STATUS]
prints FAIL, SKIP and CACHED <suite>: <name>: <why> lines, then
COUNT <passed> <failed> <skipped> <cached>. harness.md, "Tool reference"; what
counts as a failure: "Test suites".
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
        self.n = self.failed = 0
        self._print("TAP version 13\n1..%d" % plan)

    def _print(self, text):
        print(text, file=self.out, flush=True)

    def _result(self, status, name, diag=None, directive=""):
        self.n += 1
        if diag is not None:
            self._print("# %s: %s" % (_name(name), diag))
        self._print("%s %d %s%s" % (status, self.n, _name(name), directive))

    def ok(self, name, note=""):
        self._result("ok", name, " ".join(str(note).split()) if note else None)

    def not_ok(self, name, why=""):
        self.failed += 1
        self._result("not ok", name, " ".join(str(why or "failed").split())[:2000])

    def skip(self, name, why):
        self._result("ok", name, directive=" # SKIP " + _name(why))

    def check(self, name, cond, note=""):
        (self.ok if cond else self.not_ok)(name, note)

    def run(self, name, fn):
        try:
            cond, note = fn()
        except Exception as e:  # a checker's bug fails one check, not all
            self.not_ok(name, "raised %s: %s" % (type(e).__name__, e))
            return
        self.check(name, cond, note)


class Checks:
    """Named checks, registered before any of them runs (harness.md, "Tool reference")."""

    def __init__(self):
        self.list = []

    def __call__(self, name):
        def add(fn):
            self.list.append((name, fn))
            return fn
        return add

    def report(self, err=None, suffix=""):
        t = Ktap(len(self.list))
        for name, fn in self.list:
            t.not_ok(name + suffix, err) if err else t.run(name + suffix, fn)
        return 1 if t.failed else 0


class _Doc:
    def __init__(self, indent, name):
        self.indent, self.name, self.plan, self.next = indent, name, None, 1
        self.leaves = []      # (status, name, why), status: pass fail skip cached
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
            ndocs += indent == 0
            stack.append(_Doc(indent, suite if indent == 0 else ""))
            continue
        if not stack:
            continue
        plan, result = PLAN.match(body), RESULT.match(body)
        if plan or result:
            close_deeper(indent)
            if not stack or stack[-1].indent != indent:
                continue  # indented text that is not in a document
            doc = stack[-1]
        if plan:
            if doc.plan is None and doc.next == 1:
                doc.plan = int(plan.group(1))
            else:
                doc.error("a plan after results or a second plan")
        elif result:
            status, num, rest = result.group(1), int(result.group(2)), result.group(3)
            name, directive = (DIRECTIVE.split(rest, 1) + [""])[:2]
            name, directive = name.strip() or "result %d" % num, directive.strip()
            if doc.plan is None:
                doc.error("result %d (%s) before the plan" % (num, name))
            if num != doc.next:
                doc.error("result %d (%s) where %d was due" % (num, name, doc.next))
            doc.next = num + 1
            why = doc.diag[len(name) + 2:] if doc.diag.startswith(name + ": ") else doc.diag
            children, doc.pending, doc.diag = doc.pending or [], None, ""
            doc.leaves += [(st, "%s.%s" % (name, n), w) for st, n, w in children]
            if status == "not ok":
                if not any(st == "fail" for st, _, _ in children):
                    doc.leaves.append(("fail", name, why or "not ok"))
            elif children:
                pass  # an ok parent counts as its children only
            elif directive.upper().startswith("SKIP"):
                doc.leaves.append(("skip", name, directive[4:].strip() or "skipped"))
            elif directive.lower().startswith("cached"):
                doc.leaves.append(("cached", name, directive[6:].strip()))
            else:
                doc.leaves.append(("pass", name, ""))
        elif body.startswith("#") and stack[-1].indent == indent:
            stack[-1].diag = body[1:].strip()  # "# NAME: why", just before a result
    close_deeper(-1)
    if ndocs == 0:
        top.append(("fail", suite, "no KTAP output (no 'TAP version' line)"))
    return top


def main(argv):
    if len(argv) < 3 or argv[0] != "count":
        print(__doc__, file=sys.stderr)
        return 2
    suite, path, status = (argv[1:] + ["0"])[:3]
    with open(path, errors="replace") as f:
        leaves = count(f, suite)
    if status == "124":
        leaves.append(("fail", suite, "killed by the suite timeout (SUITE_TIMEOUT)"))
    elif status != "0" and not any(st == "fail" for st, _, _ in leaves):
        leaves.append(("fail", suite, "exited with status %s without reporting a failure" % status))
    tally = dict.fromkeys(("pass", "fail", "skip", "cached"), 0)
    for st, name, why in leaves:
        tally[st] += 1
        if st != "pass":
            print("%s %s: %s: %s" % (st.upper(), suite, name, why))
    print("COUNT %(pass)d %(fail)d %(skip)d %(cached)d" % tally)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
