# SPDX-License-Identifier: MIT
"""bench/calibration.py (docs/bots.md): it follows the named seat of real
records, counts its games and wins as they were, gives estimates that are
chances, says the same twice, and refuses records it cannot follow."""
import os
import re
import subprocess
import sys

from figaro import Bot, Game, play_game

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
SCRIPT = os.path.join(ROOT, "bench", "calibration.py")


def records(tmp_path, games=6):
    """Finished games of one searching seat (its seat moves from game to game)
    against greedy, written as FGN; returns the paths and that seat's wins."""
    paths, wins = [], 0
    for n in range(games):
        g = Game(4, 500 + n)
        me = n % 4
        g.names = ["ismcts:iters=200" if s == me else "greedy-%d" % s for s in range(4)]
        bots = [Bot("ismcts:iters=200", seed=n) if s == me else Bot("greedy", seed=s)
                for s in range(4)]
        wins += play_game(g, bots)[0] == me
        for b in bots:
            b.close()
        path = tmp_path / ("game-%d.fgn" % n)
        path.write_text(g.to_fgn(), encoding="utf-8")
        paths.append(str(path))
    return paths, wins


def run(*args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    return subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True,
                          text=True, env=env)


def test_follows_the_named_seat(tmp_path):
    paths, wins = records(tmp_path)
    out = run("--name", "ismcts", "--spec", "ismcts:iters=300", *paths)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "6 games of ismcts*, asked to ismcts:iters=300"
    row_re = (r"(round \d, [a-z ]+?)\s+(\d+)\s+([\d.]+)%\s+([\d.]+)%\s+([\d.]+)\s+([\d.]+)"
              r"\s+(-?[\d.]+)%$")
    rows = {m.group(1): m for m in (re.match(row_re, line) for line in lines) if m}
    for r in (1, 2, 3):
        row = rows["round %d, first move" % r]
        assert int(row.group(2)) == 6
        assert 0 <= float(row.group(3)) <= 100
        assert float(row.group(4)) == round(100 * wins / 6, 1)
        assert 1 <= float(row.group(5)) <= 4
        assert 0 <= float(row.group(7)) <= 100
    # The same run, the same figures.
    assert run("--name", "ismcts", "--spec", "ismcts:iters=300", *paths).stdout == out.stdout


def test_refuses_what_it_cannot_follow(tmp_path):
    paths, _ = records(tmp_path, games=1)
    out = run("--name", "nobody", *paths)
    assert out.returncode == 1 and "game-0.fgn: 0 seats named nobody*" in out.stderr
    out = run("--name", "ismcts", "--spec", "greedy", *paths)
    assert out.returncode == 1 and "reports no search" in out.stderr
    out = run("--name", "ismcts", "--spec", "ismcts:bogus=1", *paths)
    assert out.returncode == 1 and "--spec ismcts:bogus=1" in out.stderr
    bad = tmp_path / "bad.fgn"
    bad.write_text("FGN 1\nplayers 9\n", encoding="utf-8")
    out = run("--name", "ismcts", str(bad))
    assert out.returncode == 1 and "bad.fgn" in out.stderr
    out = run("--name", "ismcts", str(tmp_path / "missing.fgn"))
    assert out.returncode == 1 and "missing.fgn" in out.stderr and "Traceback" not in out.stderr
    out = run("--name", "ismcts", "--seed", "-1", *paths)
    assert out.returncode == 2 and "--seed" in out.stderr
