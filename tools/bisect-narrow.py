#!/usr/bin/env python3
"""What a patch's header changes can break, for suite 21's per-patch builds.

    bisect-narrow.py KSRC COMMIT OUT

KSRC is the kernel tree checked out at COMMIT, OUT the kbuild output
directory of the build of COMMIT's parent (its .*.cmd files list what every
object, assembler file and linker script was made from). Prints one line per changed header that
objects in OUT were compiled with:

    header ABSOLUTE-PATH INCLUDERS
    object RELATIVE-PATH        (zero or more: the includers that can break)

A header the patch changes is included by hundreds of objects (the x86
topology header by most of the kernel), and kbuild rebuilds them all,
although only an object that uses what the change declares, defines or
modifies can stop building. The names the change touches are taken from the
header's diff with function context (git diff -W): the names of functions,
function pointers and macros on changed lines, and on the top-level lines of
the functions and declarations around them (so a changed body names its
function). An object can break when its source or a header it was
compiled with mentions one of those names. The printed objects are the
includers of the changed headers that do; every other includer is left
alone: suite 21 deletes the printed objects, so that kbuild makes them
again, and dates the header back, so that kbuild does not remake the others
on its account. Objects whose source the patch changes are rebuilt by
kbuild anyway.
"""
import os
import re
import subprocess
import sys

KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "typeof", "__typeof__",
            "defined", "__attribute__", "alignof", "_Alignof", "do", "else",
            "void", "int", "char", "short", "long", "unsigned", "signed", "bool",
            "float", "double", "const", "volatile", "static", "inline", "extern",
            "struct", "union", "enum", "u8", "u16", "u32", "u64", "s8", "s16",
            "s32", "s64", "__always_inline"}
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
FPTR = re.compile(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)\s*\(")
DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def names_in(line):
    if line.lstrip().startswith(("*", "/*", "//")):
        return set()
    line = strip_comments(line)
    found = set(FPTR.findall(line)) | set(DEFINE.findall(line))
    found |= {n for n in CALL.findall(line) if n not in KEYWORDS}
    return found


def git(ksrc, *args):
    return subprocess.run(["git", "-C", ksrc] + list(args), check=True,
                          capture_output=True, text=True).stdout


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    ksrc, commit, out = (os.path.abspath(sys.argv[1]), sys.argv[2], os.path.abspath(sys.argv[3]))
    changed = git(ksrc, "diff-tree", "--no-commit-id", "--name-only", "-r", commit).split()
    headers = [f for f in changed if f.endswith(".h")]
    if not headers:
        return
    # object -> the files it was compiled from (kbuild's fixdep output)
    deps = {}
    for root, _dirs, files in os.walk(out):
        for f in files:
            if not (f.startswith(".") and f.endswith(".cmd")):
                continue
            path = os.path.join(root, f)
            with open(path, errors="replace") as fh:
                text = fh.read()
            m = re.search(r"^source_\S+ := (\S+)", text, re.M)
            d = re.search(r"^deps_\S+ := \\\n(.*?)\n\n", text, re.M | re.S)
            if not m or not d:
                continue
            # paths relative to OUT (where make runs; ccache's base_dir
            # makes them so) or absolute
            files_ = {os.path.normpath(os.path.join(out, m.group(1)))}
            for item in d.group(1).split():
                if item == "\\" or item.startswith("$(wildcard"):
                    continue
                files_.add(os.path.normpath(os.path.join(out, item)))
            obj = os.path.relpath(os.path.join(root, f[1:-4]), out)
            deps[obj] = files_
    for h in headers:
        diff = git(ksrc, "diff", "-W", "--no-color", commit + "^", commit, "--", h)
        # names on changed lines, and on the top-level lines (signatures,
        # declarations, macros) of the functions around them: with -W a
        # hunk holds every function it changes whole
        names = set()
        for line in diff.splitlines():
            if line.startswith(("+++", "---", "@@", "diff ", "index ")):
                continue
            if line[:1] in "+-":
                names |= names_in(line[1:])
            elif line[1:2] not in ("", " ", "\t", "}", "{"):
                names |= names_in(line[1:])
        absh = os.path.join(ksrc, h)
        includers = {o for o, fs in deps.items() if absh in fs}
        if not includers:
            continue
        print("header", absh, len(includers))
        if os.environ.get("BISECT_NARROW_DEBUG"):
            print("names", " ".join(sorted(names)), file=sys.stderr)
        if not names:
            continue
        hits = git(ksrc, "grep", "-l", "-w", *sum((["-e", n] for n in sorted(names)), []),
                   "--", "*.c", "*.h", "*.S").split()
        # the changed headers themselves name what they declare: every
        # includer has them; what counts is a use elsewhere
        mention = {os.path.join(ksrc, p) for p in hits if p not in headers}
        for o in sorted(includers):
            if deps[o] & mention:
                print("object", o)


if __name__ == "__main__":
    main()
