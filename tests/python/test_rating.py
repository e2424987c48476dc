# SPDX-License-Identifier: MIT
"""The people's rating (src/host/rating.c, through `figaro rate`) against a
second implementation written here from the paper: R. C. Weng and C.-J. Lin,
"A Bayesian Approximation Method for Online Ranking", JMLR 12 (2011),
Algorithm 4 (the Plackett-Luce model), with the paper's ties (A_q) and the
constants of docs/ratings.md. Many random series of games with ties, among
players old and new, give the same mu and sigma to 1e-9; bad input is refused
with its file, line and column."""
import json
import math
import random
import subprocess

import pytest

MU0 = 25.0
SIGMA0 = 25.0 / 3.0
BETA = SIGMA0 / 2.0
KAPPA = 0.0001
TAU = MU0 / 300.0


def update(players):
    """One game. players: a list of dicts with mu, sigma, rank (1 = first,
    ties share), fixed. Returns the new (mu, sigma) of each, in order.

    Written from the paper's procedure: the players sorted by rank, c from
    every player's variance, and for each q the set C_q of those ranked at
    or below q, its sum of exp(theta/c), and A_q the players tied with q."""
    n = len(players)
    var = [p["sigma"] ** 2 + (0.0 if p["fixed"] else TAU ** 2) for p in players]
    c = math.sqrt(sum(v + BETA ** 2 for v in var))
    strength = [math.exp(p["mu"] / c) for p in players]
    by_rank = sorted(range(n), key=lambda i: players[i]["rank"])
    choice = {}  # q -> (sum over C_q of exp(mu/c), A_q)
    for q in by_rank:
        rq = players[q]["rank"]
        below = [s for s in by_rank if players[s]["rank"] >= rq]
        tied = [s for s in by_rank if players[s]["rank"] == rq]
        choice[q] = (math.fsum(strength[s] for s in below), len(tied))
    out = []
    for i, p in enumerate(players):
        if p["fixed"]:
            out.append((p["mu"], p["sigma"]))
            continue
        omega = 0.0
        eta = 0.0
        for q in by_rank:
            if players[q]["rank"] > p["rank"]:
                break
            total, a_q = choice[q]
            p_iq = strength[i] / total
            omega += ((1.0 if q == i else 0.0) - p_iq) / a_q
            eta += p_iq * (1.0 - p_iq) / a_q
        gamma = math.sqrt(var[i]) / c
        mu = p["mu"] + var[i] / c * omega
        delta = gamma * var[i] / c ** 2 * eta
        sigma = math.sqrt(var[i] * max(1.0 - delta, KAPPA))
        out.append((mu, sigma))
    return out


def rate_series(games, fixed=None):
    """games: lists of groups (best first) of names. fixed: name -> (mu,
    sigma) of the players who are fixed points (bot levels). Returns name ->
    [mu, sigma, games]."""
    fixed = fixed or {}
    table = {}
    for groups in games:
        players = []
        place = 1
        for group in groups:
            for name in group:
                r = table.setdefault(name, list(fixed.get(name, (MU0, SIGMA0))) + [0])
                players.append({"name": name, "mu": r[0], "sigma": r[1], "rank": place,
                                "fixed": name in fixed})
            place += len(group)
        for p, (mu, sigma) in zip(players, update(players)):
            table[p["name"]][:2] = [mu, sigma]
            table[p["name"]][2] += 1
    return table


def as_text(games):
    return "".join(" ".join("=".join(g) for g in groups) + "\n" for groups in games)


LEVELS = ["beginner", "easy", "normal", "hard", "max"]


def run_rate(figaro_cmd, text, *args):
    return subprocess.run([figaro_cmd, "rate", *args], input=text.encode(),
                          capture_output=True, timeout=120)


def random_games(rng, count, pool):
    games = []
    for _ in range(count):
        n = rng.randint(2, min(6, len(pool)))
        names = rng.sample(pool, n)
        groups = []
        while names:
            # About one game in three has a tie somewhere.
            size = 1 if len(names) == 1 or rng.random() < 0.8 else rng.randint(2, len(names))
            groups.append(names[:size])
            names = names[size:]
        games.append(groups)
    return games


def test_worked_example_of_the_unit_test():
    """tests/unit/test_rating.c works this game by hand."""
    out = update([{"mu": 27, "sigma": 5, "rank": 2, "fixed": False},
                  {"mu": 25, "sigma": SIGMA0, "rank": 1, "fixed": False},
                  {"mu": 21, "sigma": 3, "rank": 3, "fixed": False}])
    want = [(26.9541456, 4.9232106), (28.6481170, 8.0479696), (20.5434023, 2.9922850)]
    for (mu, sigma), (wmu, wsigma) in zip(out, want):
        assert abs(mu - wmu) < 1e-6 and abs(sigma - wsigma) < 1e-6


@pytest.mark.parametrize("seed", range(8))
def test_random_series_match(figaro_cmd, seed):
    rng = random.Random(1000 + seed)
    pool = ["p%d" % i for i in range(rng.randint(3, 14))]
    games = random_games(rng, 400, pool)
    res = run_rate(figaro_cmd, as_text(games))
    assert res.returncode == 0, res.stderr.decode()
    got = json.loads(res.stdout)
    want = rate_series(games)
    assert got["games"] == len(games)
    assert got["model"]["mu0"] == MU0 and got["model"]["tau"] == TAU
    assert [p["name"] for p in got["players"]] == list(want)   # first seen first
    ties = sum(any(len(g) > 1 for g in groups) for groups in games)
    assert ties > 50   # the series does exercise ties
    for p in got["players"]:
        mu, sigma, n = want[p["name"]]
        assert p["games"] == n
        assert p["mu"] == pytest.approx(mu, abs=1e-9), p["name"]
        assert p["sigma"] == pytest.approx(sigma, abs=1e-9), p["name"]
        assert p["conservative"] == pytest.approx(mu - 3 * sigma, abs=1e-9)


def test_every_game_alone(figaro_cmd):
    """Many single games, each rated from new players: every shape of ranking
    with ties for 2 to 6 players."""
    rng = random.Random(7)
    for _ in range(60):
        games = random_games(rng, 1, ["a", "b", "c", "d", "e", "f"])
        res = run_rate(figaro_cmd, as_text(games))
        assert res.returncode == 0, res.stderr.decode()
        want = rate_series(games)
        for p in json.loads(res.stdout)["players"]:
            assert p["mu"] == pytest.approx(want[p["name"]][0], abs=1e-12)
            assert p["sigma"] == pytest.approx(want[p["name"]][1], abs=1e-12)


def test_same_games_same_ratings(figaro_cmd):
    text = as_text(random_games(random.Random(3), 200, list("abcdefgh")))
    assert run_rate(figaro_cmd, text).stdout == run_rate(figaro_cmd, text).stdout


@pytest.mark.parametrize("text, where", [
    ("ann bob\nann\n", "standard input:2: a game of one player"),
    ("ann bob=\n", "standard input:1: column 9: a name is missing"),
    ("a b c d e f g\n", "standard input:1: column 13: more than 6 players"),
    ("ann bob ann\n", "standard input:1: column 9: 'ann' is in this game twice"),
    ("ann b\x01b\n", "standard input:1: column 6: a control character"),
    ("ann " + "x" * 65 + "\n", "standard input:1: column 5: a name of 65 bytes"),
])
def test_bad_input(figaro_cmd, text, where):
    res = run_rate(figaro_cmd, text)
    assert res.returncode == 1
    assert res.stdout == b""
    assert where in res.stderr.decode()


def test_bad_bytes_and_usage(figaro_cmd, tmp_path):
    res = subprocess.run([figaro_cmd, "rate"], input=b"ann b\xffc\n", capture_output=True)
    assert res.returncode == 1 and b"column 6: a name is not UTF-8" in res.stderr
    res = subprocess.run([figaro_cmd, "rate"], input=b"ann bob\nann\0 bob\n",
                         capture_output=True)
    assert res.returncode == 1 and b"standard input:2: column 4: a control character (byte 0)" in res.stderr
    missing = tmp_path / "missing.txt"
    res = subprocess.run([figaro_cmd, "rate", str(missing)], capture_output=True)
    assert res.returncode == 1 and str(missing).encode() in res.stderr
    res = subprocess.run([figaro_cmd, "rate", "--frobnicate"], capture_output=True)
    assert res.returncode == 2
    # Two files are one series, in order; comments and blank lines hold no game.
    (tmp_path / "a.txt").write_text("# week 1\nann bob cid\n\n")
    (tmp_path / "b.txt").write_text("cid=bob ann   # a game left early\n")
    res = subprocess.run([figaro_cmd, "rate", str(tmp_path / "a.txt"), str(tmp_path / "b.txt")],
                         capture_output=True)
    assert res.returncode == 0, res.stderr
    got = {p["name"]: p for p in json.loads(res.stdout)["players"]}
    want = rate_series([[["ann"], ["bob"], ["cid"]], [["cid", "bob"], ["ann"]]])
    for name, (mu, sigma, n) in want.items():
        assert got[name]["mu"] == pytest.approx(mu, abs=1e-12) and got[name]["games"] == n


def test_levels_are_fixed_points(figaro_cmd):
    """With --levels a player named after a bot level is that level's fixed
    point: never moved, and in the others' update with its own mu and sigma
    (no tau): the reference treats it so, its constants read from the
    output."""
    rng = random.Random(11)
    games = random_games(rng, 300, ["ann", "bob", "cid", "dan"] + LEVELS)
    res = run_rate(figaro_cmd, as_text(games), "--levels")
    assert res.returncode == 0, res.stderr.decode()
    got = {p["name"]: p for p in json.loads(res.stdout)["players"]}
    fixed = {l: (got[l]["mu"], got[l]["sigma"]) for l in LEVELS}
    assert [fixed[l][0] for l in LEVELS] == sorted(fixed[l][0] for l in LEVELS)
    assert fixed["beginner"][0] == MU0
    want = rate_series(games, fixed)
    for name, p in got.items():
        mu, sigma, n = want[name]
        assert p["level"] == (name if name in LEVELS else None)
        assert p["games"] == n
        assert p["mu"] == pytest.approx(mu, abs=1e-9), name
        assert p["sigma"] == pytest.approx(sigma, abs=1e-9), name
        # between: the levels' mu just below (at most) and above the player's
        below = [l for l in LEVELS if fixed[l][0] <= p["mu"]]
        above = [l for l in LEVELS if fixed[l][0] > p["mu"]]
        assert p["between"] == [below[-1] if below else None, above[0] if above else None]
    # Without --levels the same names are people like any other.
    plain = {p["name"]: p for p in json.loads(run_rate(figaro_cmd, as_text(games)).stdout)["players"]}
    assert plain["max"]["level"] is None
    assert plain["max"]["mu"] == pytest.approx(rate_series(games)["max"][0], abs=1e-9)
