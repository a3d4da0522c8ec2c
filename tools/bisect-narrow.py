#!/usr/bin/env python3
"""What a patch's header changes can break, for suite 21's per-patch builds.

    bisect-narrow.py KSRC COMMIT OUT [SINCE]
    bisect-narrow.py --self-test     what it narrows and what not, on examples

KSRC is the kernel tree checked out at COMMIT, OUT the kbuild output
directory of the build of COMMIT's parent, or of SINCE when given (its
.*.cmd files list what every object, assembler file and linker script was
made from; tools/relocate-seed.py gives the base step of suite 21 the
series tip's build, SINCE). Prints, for each header that differs between
them that it can narrow safely and that objects in OUT were made with:

    header ABSOLUTE-PATH INCLUDERS
    object RELATIVE-PATH        (zero or more: the includers that can break)

A header the patch changes is included by hundreds of objects (the x86
topology header by most of the kernel), and kbuild rebuilds them all,
although only an object that uses what the change declares, defines or
modifies can stop building. When every changed code line of the header's
diff with function context (git diff -W) declares, defines or calls only
functions, function pointers and macros, those names, and the names of the
functions and declarations around the changes (a changed body names its
function), are what the change touches; inside a function (an inline of
the header) every identifier of a changed line counts, parameters and
locals too, since one can only matter to an object that mentions it. An object can break when its source
or a header it was compiled with mentions one of them; the printed objects
are the includers that do. A mention inside the body of an inline function
of another header (energy_model.h's em_cpu_energy() calls map_util_freq(),
and device.h includes energy_model.h) does not make every includer of that
header a user: the inline's code is emitted only where it is called, so its
name joins the names instead (and so on, until no new name turns up), and
one includer of that header is rebuilt, which compiles its body; so is one
includer of the changed header when no user of its names is. Any other changed line (a type, member or
variable outside a function, or an #include, #if or other directive but
#define) prints nothing for that header: kbuild rebuilds every includer
as usual. So does a header the patch deletes. Suite 21 deletes the printed
objects, so that kbuild makes them again, and dates the header back (touch
-c), so that kbuild does not remake the others on its account. Objects
whose source the patch changes are rebuilt by kbuild anyway.
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


IDENT = re.compile(r"\b[A-Za-z_]\w*")


def strip_comments(text, incomment):
    """TEXT without its comments, given whether it starts inside a /* */
    comment; returns (code, whether it ends inside one)."""
    code = ""
    while text:
        if incomment:
            end = text.find("*/")
            if end < 0:
                return code, True
            text, incomment = text[end + 2:], False
            continue
        start, line = text.find("/*"), text.find("//")
        if line >= 0 and (start < 0 or line < start):
            return code + text[:line], False
        if start < 0:
            return code + text, False
        code, text, incomment = code + text[:start] + " ", text[start + 2:], True
    return code, incomment


def names_in(code):
    """Functions, function pointers and macros that CODE declares, defines
    or calls."""
    found = set(FPTR.findall(code)) | set(DEFINE.findall(code))
    found |= {n for n in CALL.findall(code) if n not in KEYWORDS}
    return found


TOPLEVEL_TYPE = re.compile(r"^\s*(struct|union|enum|typedef)\b")


def is_signature(code):
    """A top-level line that starts a function definition (not a prototype,
    not a struct, union, enum or typedef)."""
    return (bool(CALL.search(code)) and not TOPLEVEL_TYPE.match(code)
            and not code.rstrip().endswith(";") and "=" not in code)


def changed_names(diff):
    """The names a header diff (git diff -W) touches, or None when a changed
    line touches something these names cannot stand for (a variable, type or
    member outside a function, or a preprocessor line other than a #define):
    then nothing is narrowed. Inside a function (its signature and its body,
    an inline function of the header), every identifier of a changed line
    counts as a name it touches: a parameter, a local or a type used there
    can only matter to an object in which it is a macro; those identifiers
    are returned apart, as the second set of the pair (names, locals); the
    objects that name the function itself are rebuilt anyway."""
    names, local = set(), set()
    state = {"-": False, "+": False}     # inside a /* */ comment, per side
    in_func = {"-": False, "+": False}   # inside a function, per side
    for line in diff.splitlines():
        if line.startswith(("+++", "---", "@@", "diff ", "index ", "\\")):
            continue
        kind, text = line[:1], line[1:]
        sides = ("-", "+") if kind == " " else (kind,)
        if kind not in " +-":
            continue
        code, state[kind if kind != " " else "+"] = strip_comments(
            text, state[kind if kind != " " else "+"])
        if kind == " ":
            state["-"] = state["+"]
        # function context: a top-level signature opens it, a top-level }
        # closes it
        top = text[:1] not in ("", " ", "\t")
        if top and code.strip():
            sig = is_signature(code)
            for sd in sides:
                in_func[sd] = sig or (in_func[sd] and text[:1] == "{")
        inside = all(in_func[sd] for sd in sides)
        if kind == " ":
            # a top-level line (signature, declaration, macro) around a change
            if top and text[:1] not in ("}", "{"):
                names |= names_in(code)
            if top and text[:1] == "}":
                for sd in sides:
                    in_func[sd] = False
            continue
        if not code.strip():
            continue
        if code.lstrip().startswith("#"):
            if not DEFINE.match(code):
                return None
            names |= set(DEFINE.findall(code))
            continue
        found = names_in(code)
        others = {i for i in IDENT.findall(code) if i not in KEYWORDS} - found
        if others and not inside:
            return None
        names |= found
        local |= others
        if top and text[:1] == "}":
            in_func[kind] = False
    return names, local - names


AMBIGUOUS = "\0"      # a signature naming more than one candidate


def first_name(code):
    """The function a signature line names: its only call-like name that is
    not a keyword, or AMBIGUOUS when there are several (an attribute macro
    such as __printf(1, 2) before the name, __must_hold() after it)."""
    found = [n for n in CALL.findall(code) if n not in KEYWORDS]
    if not found:
        return None
    return found[0] if len(found) == 1 else AMBIGUOUS


def header_uses(lines, names):
    """Where a header (its LINES) mentions NAMES: (owners, macros, other).
    OWNERS are the inline functions whose bodies hold mentions; MACROS the
    macros whose definitions (continuation lines included) do, wherever
    they are defined; OTHER is true when a mention lies anywhere else (a
    declaration, another function's signature, a one-line function, the
    body of a function whose name the signature does not make certain).
    A body opens with a { in column 0 after a signature and closes with a }
    in column 0, kernel style; a function's own signature (its definition,
    a stub, a prototype of it) does not count as a use."""
    word = re.compile(r"\b(%s)\b" % "|".join(re.escape(n) for n in sorted(names)))
    owners, macros, other = set(), set(), False
    incomment, func, pending, define = False, None, None, None
    for text in lines:
        text = text.rstrip("\n")
        code, incomment = strip_comments(text, incomment)
        if define is None and code.lstrip().startswith("#"):
            m = DEFINE.match(code)
            define = m.group(1) if m else ""
        if define is not None:
            # a directive, continued by a backslash at the end of its line
            if word.search(code) and define:
                macros.add(define)
            elif word.search(code):
                other = True
            if not code.rstrip().endswith("\\"):
                define = None
            continue
        top = text[:1] not in ("", " ", "\t")
        if func is not None:
            if top and text[:1] == "}":
                func = None
                if word.search(code[1:]):
                    other = True
            elif word.search(code):
                if func == AMBIGUOUS:
                    other = True
                else:
                    owners.add(func)
            continue
        if top and code.strip() and text[:1] != "{":
            pending = first_name(code) if is_signature(code) else None
        own = pending if top and pending and pending != AMBIGUOUS else None
        if word.search(re.sub(r"\b%s\b" % own, " ", code) if own else code):
            other = True
        if top and text[:1] == "{" and pending:
            func, pending = pending, None
    return owners, macros, other


def body_owners(lines, names):
    """The inline functions whose bodies hold every mention of NAMES in a
    header (its LINES), or None when a mention lies anywhere else,
    a macro included: then the header counts as using the names."""
    owners, macros, other = header_uses(lines, names)
    return None if other or macros else owners


# objects made with flags of their own (the boot decompressor, the vDSO,
# the real-mode trampoline, host programs): not where to compile a body
SPECIAL = re.compile(r"(^|/)(boot|vdso|realmode|scripts|tools|usr)/")


def representative(objs):
    """The includer to compile a header's inline bodies in: one built with
    the kernel's usual flags where there is one."""
    return sorted(objs, key=lambda o: (bool(SPECIAL.search(o)), o))[0]


def git(ksrc, *args):
    return subprocess.run(["git", "-C", ksrc] + list(args), check=True,
                          capture_output=True, text=True).stdout


class Sources:
    """The source files the objects in OUT were made from (nothing else
    can matter to them), read once, searched with regular expressions."""

    def __init__(self, ksrc, files):
        self.ksrc, self.text = ksrc, {}
        for f in sorted(files):
            if f.startswith(ksrc + os.sep) and f.endswith((".c", ".h", ".S")):
                try:
                    with open(f, errors="replace") as fh:
                        self.text[f] = fh.read()
                except OSError:
                    pass

    def grep(self, regex):
        """The files (absolute paths) in which REGEX matches."""
        r = re.compile(regex, re.M)
        return [f for f, t in self.text.items() if r.search(t)]


SELF_TEST = [
    # (what, diff, expected names or None)
    ("a new declaration and inline", "@@\n+u64 foo(void);\n+/* a\n+ * b(c) d\n+ */\n"
     "+static inline u64 bar(void)\n+{\n+\treturn 1ULL << 10;\n+}\n", ({"foo", "bar"}, set())),
    ("a macro", "@@\n+#define FOO(x) bar(x)\n", ({"FOO"}, set())),
    ("a changed body names its function", "@@\n static inline int f(void)\n {\n"
     "-\treturn g();\n+\treturn h();\n }\n", ({"f", "g", "h"}, set())),
    ("a member", "@@\n struct s {\n+\tint x;\n };\n", None),
    ("an #include", "@@\n+#include <linux/x.h>\n", None),
    ("an #ifdef", "@@\n-#ifdef CONFIG_A\n+#ifdef CONFIG_B\n", None),
    ("a pointer store in a body", "@@\n int f(int *v)\n {\n-\t*v = g(1);\n+\t*v = h(1);\n }\n",
     ({"f", "g", "h"}, {"v"})),
    ("a parameter in a body", "@@\n static inline int f(int a)\n {\n-\treturn a;\n+\treturn a + 1;\n }\n",
     ({"f"}, {"a"})),
    ("a new inline with a parameter", "@@\n+static inline unsigned long f(unsigned long util)\n+{\n"
     "+\treturn util + (util >> 2);\n+}\n", ({"f"}, {"util"})),
    ("a member after an inline", "@@\n static inline int f(int a)\n {\n \treturn a;\n }\n"
     " struct s {\n+\tint x;\n };\n", None),
    ("a variable after a function", "@@\n+int f(void)\n+{\n+\treturn 0;\n+}\n+int counter;\n", None),
    ("a typedef", "@@\n+typedef int foo_t;\n", None),
    ("an extern variable", "@@\n+extern int foo_var;\n", None),
]


BODY_TEST = [
    # (what, header text, names, expected owners or None)
    ("a call in an inline's body", "static inline int\ng(int x)\n{\n\treturn f(x);\n}\n",
     {"f"}, {"g"}),
    ("a call in a macro", "#define G(x) f(x)\n", {"f"}, None),
    ("a prototype", "int f(int x);\n", {"f"}, None),
    ("a one-line inline", "static inline int g(void) { return f(1); }\n", {"f"}, None),
    ("a one-line inline named like a prefix", "static inline int f(int x) { return foo(x); }\n", {"foo"}, None),
    ("a signature", "static inline int g(int f)\n{\n\treturn 0;\n}\n", {"f"}, None),
    ("its own definition and stub", "static inline int f(int a,\n\tint b)\n{\n\treturn g(a);\n}\n"
     "static inline int f(int a, int b)\n{\n\treturn 0;\n}\n", {"f"}, set()),
    ("a macro that makes a function", "#define MAKE(x) \\\nstatic inline int x(void) \\\n{ \\\n"
     "\treturn f(); \\\n}\nstatic inline int g(void)\n{\n\treturn 0;\n}\n", {"f"}, None),
    ("a #define in a body", "static inline int g(void)\n{\n#define H() f()\n\treturn 0;\n}\n", {"f"}, None),
    ("an attribute macro before the name", "static inline __printf(1, 2) void g(const char *s, ...)\n{\n"
     "\tf();\n}\n", {"f"}, None),
    ("an attribute on the line before", "static inline __printf(1, 2)\nvoid g(const char *s, ...)\n{\n"
     "\tf();\n}\n", {"f"}, {"g"}),
    ("after a prototype, outside a body", "int h(int a,\n\tint b);\nextern int f;\n", {"f"}, None),
    ("two bodies and an #ifdef inside", "static inline void a(void)\n{\n#ifdef X\n\tf();\n#endif\n}\n"
     "/* f() */\nstatic inline void b(void)\n{\n\tf();\n}\n", {"f"}, {"a", "b"}),
]


def self_test():
    bad = 0
    for what, text, names, want in BODY_TEST:
        got = body_owners(text.splitlines(True), names)
        if got != want:
            print("FAIL: bisect-narrow: %s: got %s, want %s" % (what, got, want))
            bad += 1
    for what, diff, want in SELF_TEST:
        got = changed_names(diff)
        if got != want:
            print("FAIL: bisect-narrow: %s: got %s, want %s" % (what, got, want))
            bad += 1
    total = len(SELF_TEST) + len(BODY_TEST)
    print("%d of %d cases as expected" % (total - bad, total))
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if len(sys.argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    ksrc, commit, out = (os.path.abspath(sys.argv[1]), sys.argv[2], os.path.abspath(sys.argv[3]))
    since = sys.argv[4] if len(sys.argv) == 5 else commit + "^"
    changed = git(ksrc, "diff", "--name-only", "--no-renames", since, commit).split()
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
    sources = Sources(ksrc, set().union(*deps.values()) if deps else set())
    changed_h = {os.path.join(ksrc, h) for h in headers}
    for h in headers:
        absh = os.path.join(ksrc, h)
        if not os.path.exists(absh):
            continue        # deleted: kbuild rebuilds (and fails) its includers
        diff = git(ksrc, "diff", "-W", "--no-color", since, commit, "--", h)
        found = changed_names(diff)
        includers = {o for o, fs in deps.items() if absh in fs}
        if os.environ.get("BISECT_NARROW_DEBUG"):
            print(h, "names, locals", found, file=sys.stderr)
        if not includers or not found or not found[0]:
            continue        # nothing to narrow, or not safely: kbuild as usual
        names, local = found
        print("header", absh, len(includers))
        # the changed headers themselves name what they declare: every
        # includer has them; what counts is a use elsewhere
        mention, bodies, seen, frontier = set(), set(), set(names), set(names)
        while frontier:
            hits = sources.grep(r"\b(%s)\b" % "|".join(sorted(frontier)))
            new = set()
            for full in hits:
                if full in mention:
                    continue
                if full in changed_h:
                    # its own inlines and macros that use the names are
                    # names of the change too (its prototypes are not uses)
                    owners, macros, _ = header_uses(sources.text[full].splitlines(True), seen)
                    new |= (owners | macros) - seen
                    continue
                owners = None
                if full.endswith(".h"):
                    owners = body_owners(sources.text[full].splitlines(True), seen)
                if owners is None:
                    mention.add(full)
                else:
                    bodies.add(full)
                    new |= owners - seen
            seen |= new
            frontier = new
        bodies -= mention
        # a parameter or local of an inline function matters where it is a macro
        if local:
            mention |= {f for f in sources.grep(r"^[ \t]*#[ \t]*define[ \t]+(%s)\b"
                                                % "|".join(sorted(local))) if f not in changed_h}
        if os.environ.get("BISECT_NARROW_DEBUG"):
            print(h, "names", sorted(seen), "bodies", sorted(bodies), file=sys.stderr)
        rebuilt = {o for o in includers if deps[o] & mention}
        # one includer compiles each body that names them, and the header
        for b in sorted(bodies) + [absh]:
            users = [o for o in includers if b in deps[o]]
            if users and not any(b in deps[o] for o in rebuilt):
                rebuilt.add(representative(users))
        for o in sorted(rebuilt):
            print("object", o)


if __name__ == "__main__":
    main()
