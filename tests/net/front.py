# SPDX-License-Identifier: MIT
"""HAProxy in front of several `figaro serve`, for tests/net/test_pg.py and
bench/server_bench.py: the shipped deploy/haproxy.cfg, its addresses changed
to the servers' loopback ports and a free port of its own, and a stats socket
to see the servers' health as HAProxy does. Debian's haproxy (2.6); nothing
but the standard library here."""
import os
import re
import socket
import subprocess
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))


class Front:
    """HAProxy with deploy/haproxy.cfg in front of servers ({name: a server
    with .port}, the names those of the file's `server` lines), its files in
    the folder tmp."""

    def __init__(self, tmp, servers):
        with open(os.path.join(ROOT, "deploy", "haproxy.cfg")) as f:
            cfg = f.read()
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        cfg, n = re.subn(r"bind 127\.0\.0\.1:\d+", "bind 127.0.0.1:%d" % self.port, cfg)
        assert n == 1
        for name, srv in servers.items():
            cfg, n = re.subn(r"server %s 127\.0\.0\.1:\d+" % name,
                             "server %s 127.0.0.1:%d" % (name, srv.port), cfg)
            assert n == 1, name
        # its state, for the caller: the servers' health as HAProxy sees it
        self.sock = os.path.join(str(tmp), "haproxy.sock")
        cfg, n = re.subn(r"^global\n", "global\n    stats socket %s\n" % self.sock, cfg,
                         flags=re.M)
        assert n == 1
        path = os.path.join(str(tmp), "haproxy.cfg")
        with open(path, "w") as f:
            f.write(cfg)
        self.log = open(os.path.join(str(tmp), "haproxy.log"), "wb")
        self.proc = subprocess.Popen(["haproxy", "-db", "-f", path], stdout=self.log,
                                     stderr=subprocess.STDOUT)
        self.url = "ws://127.0.0.1:%d/ws" % self.port
        try:
            self.wait({n: "UP" for n in servers})
        except BaseException:
            self.proc.kill()
            self.proc.wait(10)
            self.log.close()
            raise

    def states(self):
        """{server: "UP" or "DOWN"...} as HAProxy's health checks see them."""
        s = socket.socket(socket.AF_UNIX)
        try:
            s.connect(self.sock)
            s.sendall(b"show stat\n")
            out = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                out += chunk
        except OSError:
            return {}
        finally:
            s.close()
        rows = [line.split(",") for line in out.decode().splitlines() if line and line[0] != "#"]
        return {r[1]: r[17].split()[0] for r in rows if r[0] == "figaro_servers"
                and r[1] != "BACKEND"}

    def wait(self, want, seconds=20):
        t0 = time.monotonic()
        while True:
            got = self.states()
            if all(got.get(k) == v for k, v in want.items()):
                return
            assert self.proc.poll() is None, "haproxy exited"
            assert time.monotonic() - t0 < seconds, "haproxy: %r, not %r" % (got, want)
            time.sleep(0.2)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)
        self.log.close()
