# SPDX-License-Identifier: MIT
"""Several `figaro serve` on one PostgreSQL behind HAProxy, for the browser
test of a server's loss (tests/web/failover.spec.js): the parts
tests/net/test_pg.py starts, started the same way (tests/net/pg.sh, front.py
with the shipped deploy/haproxy.cfg, test_serve.Server), driven by lines on
standard input, each answered by one JSON line on standard output:

  (at start)     {"url": "http://127.0.0.1:PORT/", "servers": ["web1", ...]}
  table          {"table": CODE, "node": NAME}: a table (a person's seat
                 open, two random bots) made on a server the front does not
                 send its code to, so that a page that opens it is answered
                 `moved` first
  owner CODE     {"owner": NAME}: the table's driver, as PostgreSQL says
  kill NAME      {"killed": NAME}: SIGKILL, answered once HAProxy saw it down
  stop           {"stopped": true, "failures": [...]}: every server stopped
                 (SIGTERM; a bad exit or a sanitizer's report is a failure),
                 HAProxy too, the cluster removed; also at the end of input

Usage: FIGARO=build/test/figaro /usr/bin/python3 tests/net/cluster.py [N]
(N servers, 3 by default, --lease 2 so that a lost server's tables come back
within seconds)."""
import asyncio
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from front import Front  # noqa: E402
from test_serve import Client, Server  # noqa: E402

PG_SH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pg.sh")


def psql(url, sql):
    out = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url,
                          "-c", sql], stdout=subprocess.PIPE, check=True,
                         timeout=30).stdout.decode()
    return out.strip()


async def make_table(servers, front):
    """A table on a server that is not the front's guess for its code."""
    for _ in range(20):
        for name, srv in servers.items():
            c = Client("Maker")
            await c.connect(srv.url)
            await c.hello()
            await c.send({"type": "create", "seats": [
                {"kind": "person"}, {"kind": "bot", "level": "random"},
                {"kind": "bot", "level": "random"}]})
            code = (await c.expect("created"))["table"]
            await c.ws.close()
            probe = Client("Probe")
            await probe.connect(front.url + "?table=" + code)
            await probe.hello()
            await probe.send({"type": "spectate", "table": code})
            m = await probe.recv()
            while m["type"] not in ("error", "snapshot"):
                m = await probe.recv()
            await probe.ws.close()
            if m["type"] == "error" and m["code"] == "moved" and m["node"] == name:
                return {"table": code, "node": name}
    raise AssertionError("every table made was the front's guess")


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    out = subprocess.run(["sh", PG_SH, "start"], stdout=subprocess.PIPE, check=True,
                         timeout=120).stdout.decode().split()
    pgdir, db = out
    tmp = tempfile.TemporaryDirectory(prefix="figaro-cluster-")
    servers, front, failures = {}, None, []

    def say(obj):
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()

    try:
        for i in range(1, n + 1):
            name = "web%d" % i
            d = os.path.join(tmp.name, name)
            os.mkdir(d)
            servers[name] = Server(d, "--node", name, "--lease", "2", "--trust-proxy",
                                   "127.0.0.1", db=db)
        front = Front(tmp.name, servers)
        say({"url": "http://127.0.0.1:%d/" % front.port, "servers": sorted(servers)})
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "table":
                say(asyncio.run(asyncio.wait_for(make_table(servers, front), 60)))
            elif words[0] == "owner":
                say({"owner": psql(db, "SELECT owner FROM tables WHERE code = '%s'"
                                   % words[1].replace("'", ""))})
            elif words[0] == "kill":
                servers[words[1]].kill()
                front.wait({words[1]: "DOWN"})
                say({"killed": words[1]})
            elif words[0] == "stop":
                break
            else:
                say({"error": "unknown command %r" % words[0]})
    finally:
        if front:
            front.stop()
        for name, srv in servers.items():
            if srv.err.closed:
                continue
            try:
                srv.stop()
            except AssertionError as e:
                failures.append("%s: %s" % (name, e))
        subprocess.run(["sh", PG_SH, "stop", pgdir], check=True, timeout=60)
        tmp.cleanup()
        say({"stopped": True, "failures": failures})


if __name__ == "__main__":
    main()
