"""`figaro serve` on PostgreSQL (tests/run.sh runs this file with pytest).

A throwaway PostgreSQL 15 is started once for the module (tests/net/pg.sh:
initdb into a temporary folder, pg_ctl on a free loopback port, as `nobody`
when run as root) and stopped at the end. On it:
  - the storage's contract (tests/unit/test_db.c, the tests SQLite passes in
    the unit run) runs again, on PostgreSQL;
  - a server with --db postgresql://... plays, is killed with SIGKILL mid-game
    and started again: nothing acknowledged is lost;
  - what a bad --db gets."""
import hashlib
import os
import random
import subprocess

import pytest

from test_serve import (ROOT, Server, figaro_cmd, fetch, play, run, seat_two)

PG_SH = os.path.join(ROOT, "tests", "net", "pg.sh")


@pytest.fixture(scope="module")
def pg():
    out = subprocess.run(["sh", PG_SH, "start"], stdout=subprocess.PIPE, check=True,
                         timeout=120).stdout.decode().split()
    assert len(out) == 2 and out[1].startswith("postgresql://"), out
    try:
        yield out[1]
    finally:
        subprocess.run(["sh", PG_SH, "stop", out[0]], check=True, timeout=60)


def psql(url, sql):
    """One statement through psql, its rows as lists of strings."""
    out = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1",
                          "-d", url, "-c", sql], stdout=subprocess.PIPE, check=True,
                         timeout=30).stdout.decode()
    return [line.split("\t") for line in out.splitlines() if line]


def test_storage_contract_on_postgresql(pg):
    """tests/unit/test_db.c, every test, on PostgreSQL."""
    # a database of its own: its games are made up, not all of them replay
    psql(pg, "CREATE DATABASE contract")
    binary = os.path.join(os.path.dirname(figaro_cmd()), "test_db")
    r = subprocess.run([binary], env=dict(os.environ,
                                          FIGARO_TEST_DB=pg.rsplit("/", 1)[0] + "/contract"),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    out = r.stdout.decode(errors="replace")
    assert r.returncode == 0, out
    assert "storage: postgresql://figaro:***@" in out, out   # no password in a log
    assert "PASSED" in out and "FAILED" not in out, out


def test_schema_version_and_settings(pg, tmp_path):
    srv = Server(str(tmp_path), db=pg)
    try:
        assert srv.http("/healthz")[0] == 200
        assert psql(pg, "SELECT version FROM figaro_schema") == [["3"]]
        log = srv.log()
        assert "node 127.0.0.1:%d" % srv.port in log
    finally:
        srv.stop()
    # a newer schema than the program's is refused, and says so
    psql(pg, "UPDATE figaro_schema SET version = 99")
    try:
        r = subprocess.run([figaro_cmd(), "serve", "--listen", "127.0.0.1:0", "--db", pg],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    finally:
        psql(pg, "UPDATE figaro_schema SET version = 3")
    assert r.returncode == 1
    assert b"version 99, newer than this program's (3)" in r.stderr, r.stderr


def test_sigkill_mid_game_then_restart_on_postgresql(pg, tmp_path):
    """Every acknowledged action is in PostgreSQL before anyone is told of it."""
    data = str(tmp_path)
    srv = Server(data, "--node", "alpha", db=pg)
    rng = random.Random(26)

    async def first():
        ann, bob = await seat_two(srv.url)
        await play([ann, bob], rng, stop_after=8)
        return ann, bob

    try:
        ann, bob = run(first())
    finally:
        srv.kill()      # SIGKILL: no chance to tidy anything
    told = list(ann.actions)
    assert len(told) >= 8
    stored = psql(pg, "SELECT seat, action FROM actions WHERE code = '%s' AND game = 1 "
                      "ORDER BY idx" % ann.table)
    assert [(int(s), a) for s, a in stored][:len(told)] == told

    srv = Server(data, "--node", "alpha", db=pg)   # a restart under its name: its tables at once
    try:
        async def second():
            for c in (ann, bob):
                c.ws = None
                await c.connect(srv.url)
                await c.take_back()
                await c.expect("snapshot")    # a new epoch: the whole state
                assert c.actions[:len(told)] == told, c.name
            await play([ann, bob], rng)
            assert ann.over and bob.over and ann.actions == bob.actions
            for c in (ann, bob):
                await c.ws.close()

        run(second())
        code, fgn = fetch(srv, ann.record)
        assert code == 200 and "Ann" in fgn
        # the tokens are stored as their SHA-256 only
        hashes = psql(pg, "SELECT token_hash FROM seats WHERE code = '%s' AND kind = 'person'"
                          % ann.table)
        assert sorted(h for (h,) in hashes) == sorted(
            hashlib.sha256(c.token.encode()).hexdigest() for c in (ann, bob))
    finally:
        srv.stop()


def test_bad_db_options(tmp_path):
    def serve(*args):
        return subprocess.run([figaro_cmd(), "serve", "--listen", "127.0.0.1:0"] + list(args),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)

    r = serve("--db", "mysql://x@y/z")
    assert r.returncode == 2 and b"--db: 'mysql://x@y/z' is neither sqlite:PATH" in r.stderr
    r = serve("--db", "sqlite:%s/x.sqlite" % tmp_path, "--data", str(tmp_path))
    assert r.returncode == 2 and b"--db and --data: give one" in r.stderr
    r = serve("--node", "a b", "--data", str(tmp_path))
    assert r.returncode == 2 and b"--node: 'a b'" in r.stderr
    # nobody listens there: exit 1, the reason, and never the password
    r = serve("--db", "postgresql://ann:s3cret@127.0.0.1:1/none?connect_timeout=5")
    assert r.returncode == 1, r.stderr
    assert b"database: connection" in r.stderr and b"s3cret" not in r.stderr, r.stderr
