#!/usr/bin/env python3
"""Make a copy of one tree's kbuild output a seed for another worktree.

    relocate-seed.py OUT SEED_OUT OLD_TREE NEW_TREE

OUT is a fresh copy (cp -a) of SEED_OUT, a finished build of the kernel
tree OLD_TREE; NEW_TREE is another worktree of the same repository (the
bisect's, at the base). tools/build-kernel.sh calls this for SEED=NAME
when NAME was built from another tree, so that the new build rebuilds what
differs instead of everything.

kbuild decides what to remake from two things: the command line recorded
in each target's .*.cmd file (if_changed), and the times of the files in
its dependency list (fixdep's deps_ lines). A plain copy fails both: the
commands and the lists name OLD_TREE (absolutely, or relative to the
output directory, as ccache's base_dir writes them), and every file of a
worktree checked out after the seed was built is newer than its objects.
So, in OUT:

 1. every text file's mentions of OLD_TREE, absolute or relative, become
    NEW_TREE's: the commands are then those of NEW_TREE;
 2. the files that can differ between the trees are listed: NEW_TREE's
    work tree against OLD_TREE's HEAD, either tree's uncommitted or
    untracked files, and OLD_TREE's files modified after the seed was
    configured (SEED_OUT/.config), whose objects may predate them; a file
    modified after the seed's build finished (SEED_OUT/.build-stats)
    means the seed is out of date, and it refuses;
 3. every target whose source or dependency list names one of them is
    deleted, with its .cmd file, so that kbuild makes it again (with
    SEED_NARROW=1, for a header that only the commits change, only the
    includers tools/bisect-narrow.py names: suite 21's base step);
 4. every file of OUT is dated now, newer than any source of NEW_TREE, so
    that kbuild keeps the rest: their inputs have the same content as
    those they were made from. Configuration changes still rebuild what
    they touch: the build's syncconfig dates the changed symbols' files
    in include/config/ after this.

Some inputs are not in any dependency list: kbuild's scripts and host
tools, objtool's sources, the initramfs sources, the syscall tables and
other generator inputs (a generated file's .cmd may name them on its
command line only, which counts as a dependency here, or not at all: a
source or header that a Makefile or Kbuild file names is taken for one).
When one of them differs, it refuses (exit status 2, the reason on
stderr; any other failure exits 1) and the caller builds from scratch. Makefiles,
Kbuild and Kconfig files are fine: kbuild compares the recorded commands
(so object lists and flags are checked), and the configuration is
regenerated. Documentation and kselftests are not part of the build.

Prints one line: how many targets were deleted, of how many.
"""
import os
import subprocess
import sys
import time

# what may differ: sources and headers (in dependency lists), build files
# (commands compared), and what the kernel build does not read
SAFE_SUFFIXES = (".c", ".h", ".S")
SAFE_NAMES = ("Makefile", "Kbuild", "MAINTAINERS")
SAFE_TOP = ("Documentation/", "tools/testing/")
UNSAFE_TOP = ("scripts/", "tools/", "usr/")


def git(tree, *args):
    return subprocess.run(["git", "-C", tree, *args], check=True,
                          capture_output=True, text=True).stdout


def changed_paths(old, new, ref_time, built_time):
    """(every path that may differ, those of them that differ for another
    reason than the commits, paths of OLD newer than the seed's build)"""
    paths, local, stale = set(), set(), []
    old_head = git(old, "rev-parse", "HEAD").strip()
    paths.update(git(new, "diff", "--name-only", "--no-renames", old_head).split("\n"))
    for tree in (old, new):
        local.update(git(tree, "diff", "--name-only", "--no-renames", "HEAD").split("\n"))
        local.update(git(tree, "ls-files", "--others", "--exclude-standard").split("\n"))
    for path in git(old, "ls-files", "-z").split("\0"):
        if not path:
            continue
        try:
            mtime = os.lstat(os.path.join(old, path)).st_mtime
        except FileNotFoundError:
            local.add(path)
            continue
        if mtime > ref_time:
            local.add(path)
        if mtime > built_time:
            stale.append(path)
    local.discard("")
    paths |= local
    paths.discard("")
    return paths, local, stale


def unsafe(path):
    if path.startswith(SAFE_TOP):
        return False
    if path.startswith(UNSAFE_TOP):
        return True
    base = os.path.basename(path)
    return not (path.endswith(SAFE_SUFFIXES) or base in SAFE_NAMES or base.startswith("Kconfig"))


def generator_inputs(tree, changed):
    """Sources and headers that a Makefile or Kbuild file of the kernel
    names (a generator's input, such as cpufeatures.h for capflags.c):
    what they make may have no dependency list. Kbuild's generic-y,
    mandatory-y and generated-y lines only name a header to wrap."""
    names = {os.path.basename(p): p for p in changed if p.endswith(SAFE_SUFFIXES)}
    if not names:
        return []
    hits = set()
    files = git(tree, "ls-files", "-z", "--", "*Makefile*", "*Kbuild*").split("\0")
    for f in files:
        if not f or f.startswith(("tools/", "Documentation/")):
            continue
        try:
            with open(os.path.join(tree, f), errors="replace") as fh:
                text = fh.read()
        except FileNotFoundError:
            continue
        for line in text.splitlines():
            if line.lstrip().startswith(("generic-y", "mandatory-y", "generated-y", "#")):
                continue
            for word in line.replace("/", " ").replace(":", " ").split():
                if word in names:
                    hits.add(f"{names[word]} (named in {f})")
    return sorted(hits)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.split("\n\n")[1])
    out, seed_out, old, new = (os.path.realpath(a) for a in sys.argv[1:])
    if git(old, "rev-parse", "--path-format=absolute", "--git-common-dir") != \
            git(new, "rev-parse", "--path-format=absolute", "--git-common-dir"):
        print(f"relocate-seed: {old} and {new} are not worktrees of one repository", file=sys.stderr)
        sys.exit(2)
    changed, local, stale = changed_paths(old, new, os.stat(os.path.join(seed_out, ".config")).st_mtime,
                                   os.stat(os.path.join(seed_out, ".build-stats")).st_mtime)
    if stale:
        print(f"relocate-seed: {seed_out} is older than {old}/{stale[0]}"
              + (f" and {len(stale) - 1} more files" if len(stale) > 1 else "")
              + ": build it again first", file=sys.stderr)
        sys.exit(2)
    bad = sorted(p for p in changed if unsafe(p)) + generator_inputs(new, changed)
    if bad:
        print("relocate-seed: these differ and are not tracked by kbuild's dependency lists: "
              + " ".join(bad[:5]) + (" ..." if len(bad) > 5 else ""), file=sys.stderr)
        sys.exit(2)

    # 1. rewrite the trees' names: absolute, and relative to the output directory
    subst = [(old.encode() + b"/", new.encode() + b"/"),
             (os.path.relpath(old, seed_out).encode() + b"/", os.path.relpath(new, out).encode() + b"/")]
    cmds = []
    for root, dirs, files in os.walk(out):
        for name in files:
            path = os.path.join(root, name)
            if os.path.islink(path):
                continue
            if name.startswith(".") and name.endswith(".cmd"):
                cmds.append(path)
            with open(path, "rb") as f:
                data = f.read(8192)
                if b"\0" in data:
                    continue        # objects, vmlinux: their commands are in .cmd files
                data += f.read()
            if not any(o in data for o, _ in subst):
                continue
            for o, n in subst:
                data = data.replace(o, n)
            st = os.stat(path)
            with open(path, "wb") as f:
                f.write(data)
            os.chmod(path, st.st_mode)
    src = os.path.join(out, "source")
    if os.path.islink(src):
        os.unlink(src)
        os.symlink(new, src)

    # 2. and 3. delete what was made from a file that differs; with
    # SEED_NARROW=1 (suite 21's base step), a header that only the commits
    # change and tools/bisect-narrow.py can narrow deletes only the
    # includers it names, as a patch's header change does in suite 21
    differ = {os.path.join(new, p) for p in changed}
    deleted = set()
    narrowed = ""
    if os.environ.get("SEED_NARROW") == "1":
        old_head = git(old, "rev-parse", "HEAD").strip()
        new_head = git(new, "rev-parse", "HEAD").strip()
        r = subprocess.run([os.path.join(os.path.dirname(os.path.realpath(__file__)), "bisect-narrow.py"),
                            new, new_head, out, old_head], capture_output=True, text=True)
        if r.returncode != 0:
            print("relocate-seed: bisect-narrow.py failed:\n" + r.stderr, file=sys.stderr)
            sys.exit(1)
        header, blocks = None, {}
        for line in r.stdout.splitlines():
            kind, path = line.split()[:2]
            if kind == "header":
                header = path
                blocks[header] = (int(line.split()[2]), [])
            elif kind == "object" and header:
                blocks[header][1].append(path)
        parts = []
        for h, (n, objs) in blocks.items():
            if os.path.relpath(h, new) in local:
                continue        # also changed outside the commits: not narrowed
            differ.discard(h)
            for o in objs:
                if os.path.lexists(os.path.join(out, o)):
                    os.unlink(os.path.join(out, o))
                deleted.add(os.path.join(out, o))
            parts.append(f"{os.path.relpath(h, new)}: {len(objs)} of {n} includers")
        narrowed = "; narrowed " + ", ".join(parts) if parts else ""
    for cmd in cmds:
        with open(cmd, errors="replace") as f:
            lines = f.read().split("\n")
        hit = False
        for line in lines:
            if line.startswith("cmd_") and ":=" in line:
                # a generated file's inputs may be on its command line only
                for word in line.split(":=", 1)[1].split():
                    word = word.lstrip("<>").split("=")[-1].split(",")[-1]
                    if "/" in word and os.path.normpath(os.path.join(out, word)) in differ:
                        hit = True
                if hit:
                    break
                continue
            line = line.strip().rstrip("\\").strip()
            if line.startswith("source_") and ":=" in line:
                line = line.split(":=", 1)[1].strip()
            # dependency paths are relative to the output directory (or absolute)
            if not line or line.startswith(("$(", "cmd_", "deps_")) or " " in line or line.endswith(":"):
                continue
            if os.path.normpath(os.path.join(out, line)) in differ:
                hit = True
                break
        if hit:
            d, name = os.path.split(cmd)
            target = os.path.join(d, name[1:-len(".cmd")])
            for p in (target, cmd):
                if os.path.lexists(p):
                    os.unlink(p)
            deleted.add(target)

    # 4. everything else is as new as the worktree (the kernel's clock for
    # file times is coarser than time.time(): 2 s back, so that a file the
    # build dates later is newer for certain)
    now = time.time() - 2
    for root, dirs, files in os.walk(out):
        for name in files + dirs:
            os.utime(os.path.join(root, name), (now, now), follow_symlinks=False)
    print(f"relocated from {old}: {len(changed)} files differ, {len(deleted)} of {len(cmds)} targets to remake{narrowed}")


if __name__ == "__main__":
    main()
