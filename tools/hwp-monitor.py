#!/usr/bin/env python3
"""Relay the monitor commands that a guest of the emulated HWP machine asks for.

    tools/hwp-monitor.py CONSOLE_LOG SOCKET TRANSCRIPT

Started by tools/qemu-run.sh --monitor-relay. harness.md, "Tool reference";
hwp-machine.md, "Platform events".
"""
import json
import os
import socket
import sys
import time

PREFIX = "HWP-MONITOR: "
REFUSE = "HWP-MONITOR-REFUSE: "


class Qmp:
    def __init__(self, sock):
        self.sock, self.buf = sock, b""

    def message(self):
        """The next JSON message from QEMU."""
        while b"\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("QEMU closed the monitor")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def command(self, text):
        """Send one command (JSON text); QEMU's answer to it, events skipped."""
        self.sock.sendall(text.encode() + b"\n")
        while True:
            m = self.message()
            if "return" in m or "error" in m:
                return m


def connect(path, deadline):
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    console, path, transcript = sys.argv[1:]
    rc = 0
    with open(transcript, "w") as out:
        try:
            sock = connect(path, time.monotonic() + 60)
            qmp = Qmp(sock)
            qmp.message()               # the greeting
            if "return" not in qmp.command('{"execute": "qmp_capabilities"}'):
                raise ConnectionError("qmp_capabilities refused")
        except (OSError, ConnectionError, ValueError) as e:
            out.write("error: cannot reach the monitor at %s: %s\n" % (path, e))
            return 1
        try:
            cpus = {"@cpu%d" % c["cpu-index"]: c["qom-path"]
                    for c in qmp.command('{"execute": "query-cpus-fast"}').get("return", [])}
        except (OSError, ConnectionError, ValueError, KeyError) as e:
            out.write("error: query-cpus-fast: %s\n" % e)
            return 1
        out.write("vCPUs: %s\n" % " ".join("%s=%s" % kv for kv in sorted(cpus.items())))
        done, pos, partial = 0, 0, b""
        while True:
            lines = []
            if os.path.exists(console):
                with open(console, "rb") as f:
                    f.seek(pos)
                    *lines, partial = (partial + f.read()).split(b"\n")
                    pos = f.tell()
            for line in lines:
                line = line.decode(errors="replace").rstrip("\r")
                if line.startswith("QEMU-TEST-END"):
                    return rc
                if line.startswith(PREFIX):
                    cmd, want_error = line[len(PREFIX):].strip(), False
                elif line.startswith(REFUSE):
                    cmd, want_error = line[len(REFUSE):].strip(), True
                else:
                    continue
                done += 1
                try:
                    req = json.loads(cmd)
                    if not isinstance(req, dict):
                        raise ValueError("not a JSON object")
                    args = req.get("arguments", {})
                    for k, v in args.items():
                        if isinstance(v, str) and v.startswith("@cpu"):
                            if v not in cpus:
                                raise ValueError("no vCPU %s" % v[4:])
                            args[k] = cpus[v]
                    answer = qmp.command(json.dumps(req))
                except ValueError as e:
                    # our own error, not QEMU's: never an expected refusal
                    out.write("command %d: %s\nerror: %s  <- UNEXPECTED\n" % (done, cmd, e))
                    out.flush()
                    rc = 1
                    continue
                except (OSError, ConnectionError) as e:
                    out.write("command %d: %s\nerror: %s\n" % (done, cmd, e))
                    return 1
                refused = isinstance(answer.get("error"), dict) and "class" in answer["error"]
                ok = refused == want_error
                out.write("command %d%s: %s\nanswer: %s%s\n" % (
                    done, " (must be refused)" if want_error else "", cmd,
                    json.dumps(answer), "" if ok else "  <- UNEXPECTED"))
                out.flush()
                if not ok:
                    rc = 1
            try:
                sock.setblocking(False)
                if sock.recv(1, socket.MSG_PEEK) == b"":
                    return rc           # QEMU exited
            except BlockingIOError:
                pass
            except OSError:
                return rc
            finally:
                sock.setblocking(True)
            time.sleep(0.1)


if __name__ == "__main__":
    sys.exit(main())
