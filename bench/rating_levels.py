#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""rating_levels.py - the bot levels' fixed points on the people's rating
scale (docs/ratings.md), from an arena round-robin of the levels.

  figaro arena --players 4 --games G --jobs 1 --seed S --round-robin \
      --anchor beginner --bot beginner --bot easy --bot normal --bot hard \
      --bot max --records DIR --json > arena.json
  bench/rating_levels.py arena.json DIR [--figaro build/figaro] [--boot B]
      [--check [--orders N]]

1. The conversion. The arena fits Plackett-Luce strengths to the finishing
   orders and prints R = 400 log10(gamma / gamma_beginner). Weng and Lin's
   model is Plackett-Luce with strengths exp(mu / c), c^2 the sum over the
   game's players of sigma^2 + beta^2; so mu - mu_beginner = c ln(gamma /
   gamma_beginner) = c ln(10) R / 400, with the c of the games a person's
   rating moves in: a settled person (sigma_p, the steady sigma of someone
   who plays often: tau^2 added before each game balances what a game takes
   away) at a table of four with three levels (sigma_L each). beginner is
   mu0 = 25: a new person is taken to play like a newcomer, which beginner is
   built to match (docs/play.md). sigma_L is the measurement's own
   uncertainty: the median over the levels of the 95% interval's half-width
   / 1.96, on the mu scale.

   The steps between neighbouring levels get their own intervals: the same
   fit (reproduced here, the arena's numbers to the decimal) on B bootstrap
   samples of the deals (`figaro replay --json` gives each record's order).

2. The check (--check, with a build whose levels carry the constants): each level in turn is rated as a person would be, its
   name changed so that `figaro rate --levels` takes it for a newcomer while
   the other levels stay fixed points, over the arena's games in N random
   orders. Where its rating ends (the mean over the orders, and their
   spread) is where a person who played exactly like it would end: it should
   fall within the level's interval. Also the alternative the conversion is
   measured against: every level free, all new at first, the same games in
   the same orders, shifted so that beginner is 25.
"""
import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys

MU0 = 25.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
LEVELS = ["beginner", "easy", "normal", "hard", "max"]


def steady_sigma(sigma_l):
    """The sigma a person settles at, playing four-player games against three
    levels of sigma sigma_l, places at random (sigma hardly depends on the
    results): the fixed point of one game's tau^2 and shrinkage, iterated."""
    var = (25.0 / 3.0) ** 2
    # Equal strengths: the person's p over the choice sets of its place k
    # (1..4) are 1/4, 1/3, ... (Algorithm 4's eta, averaged over the place).
    etas = []
    for place in range(1, 5):
        etas.append(sum((1.0 / m) * (1 - 1.0 / m) for m in range(4, 4 - place, -1)))
    eta = sum(etas) / 4
    for _ in range(100000):
        v = var + TAU ** 2
        c2 = 4 * BETA ** 2 + 3 * sigma_l ** 2 + v
        delta = math.sqrt(v) / math.sqrt(c2) * v / c2 * eta
        var = v * max(1 - delta, 1e-4)
    return math.sqrt(var)


def convert(arena):
    r = arena["ratings"]
    assert r["anchor"] == "beginner", "the run must be anchored at beginner"
    by = {e["spec"]: e for e in r["entrants"]}
    ln10 = math.log(10) / 400
    # sigma_L, then c, then sigma_L again on the new scale (converges at once).
    c = 2 * BETA
    for _ in range(20):
        halves = [(by[l]["ci95"][1] - by[l]["ci95"][0]) / 2 / 1.96 * c * ln10
                  for l in LEVELS if l != "beginner"]
        sigma_l = statistics.median(halves)
        sigma_p = steady_sigma(sigma_l)
        c = math.sqrt(4 * BETA ** 2 + 3 * sigma_l ** 2 + sigma_p ** 2)
    out = {}
    for l in LEVELS:
        e = by[l]
        out[l] = {"R": e["rating"], "R_ci": e["ci95"],
                  "mu": MU0 + c * ln10 * e["rating"],
                  "mu_ci": [MU0 + c * ln10 * x for x in e["ci95"]]}
    return out, sigma_l, sigma_p, c


def orders_of(figaro, records):
    """Each record's finishing order (names best first) and deal, in file
    order."""
    games, deals = [], []
    for f in sorted(os.listdir(records)):
        path = os.path.join(records, f)
        names = None
        with open(path) as fh:
            for line in fh:
                if line.startswith("names "):
                    names = line.split()[1:]
                if line.startswith("# figaro arena game"):
                    deals.append(int(line.split("deal ")[1].split(",")[0]))
        rep = json.loads(subprocess.run([figaro, "replay", "--json", path], check=True,
                                        capture_output=True).stdout)
        assert rep["finished"], path
        games.append([names[s] for s in rep["ranking"]])
    return games, deals


def pl_fit(games, names):
    """Plackett-Luce strengths by Hunter's MM iterations with the arena's weak
    prior (src/host/stats.c: one virtual win and loss against a reference of
    strength 1), as 400 log10 ratings; the same numbers as the arena's."""
    wins = {n: 1.0 for n in names}
    for order in games:
        for who in order[:-1]:
            wins[who] += 1
    gamma = {n: 1.0 for n in names}
    for _ in range(10000):
        den = {n: 2 / (gamma[n] + 1) for n in names}
        for order in games:
            suffix = [0.0] * (len(order) + 1)
            for t in range(len(order) - 1, -1, -1):
                suffix[t] = suffix[t + 1] + gamma[order[t]]
            acc = 0.0
            for t, who in enumerate(order):
                if t < len(order) - 1:
                    acc += 1 / suffix[t]
                den[who] += acc
        nxt = {n: wins[n] / den[n] for n in names}
        change = max(abs(nxt[n] / gamma[n] - 1) for n in names)
        gamma = nxt
        if change < 1e-10:
            break
    return {n: 400 * math.log10(gamma[n]) for n in names}


def steps(games, deals, boot, seed):
    """Each level's rating over the one below it, with a 95% percentile
    interval of a bootstrap over deals (a deal's games share its cards)."""
    full = pl_fit(games, LEVELS)
    by_deal = {}
    for g, d in zip(games, deals):
        by_deal.setdefault(d, []).append(g)
    keys = sorted(by_deal)
    rng = random.Random(seed)
    reps = {l: [] for l in LEVELS[1:]}
    for _ in range(boot):
        sample = [g for _ in keys for g in by_deal[rng.choice(keys)]]
        r = pl_fit(sample, LEVELS)
        for lo, hi in zip(LEVELS, LEVELS[1:]):
            reps[hi].append(r[hi] - r[lo])
    out = {}
    for lo, hi in zip(LEVELS, LEVELS[1:]):
        v = sorted(reps[hi]) or [math.nan]
        out[hi] = (full[hi] - full[lo], v[int(0.025 * (len(v) - 1))], v[int(0.975 * (len(v) - 1))])
    return full, out


def rate(figaro, lines):
    res = subprocess.run([figaro, "rate", "--levels"], input="".join(lines).encode(),
                         capture_output=True, check=True)
    return {p["name"]: p for p in json.loads(res.stdout)["players"]}


def check(figaro, games, n_orders, seed):
    rng = random.Random(seed)
    orders = []
    for _ in range(n_orders):
        g = list(games)
        rng.shuffle(g)
        orders.append(g)
    person = {}
    free = {l: [] for l in LEVELS}
    for level in LEVELS:
        ends, sigmas = [], []
        for g in orders:
            lines = [" ".join(n + "~" if n == level else n for n in order) + "\n" for order in g
                     if level in order]
            p = rate(figaro, lines)[level + "~"]
            ends.append(p["mu"])
            sigmas.append(p["sigma"])
        person[level] = (statistics.mean(ends), statistics.stdev(ends), statistics.mean(sigmas),
                         len(lines))
    for g in orders:
        lines = [" ".join(n + "~" for n in order) + "\n" for order in g]
        p = rate(figaro, lines)
        shift = MU0 - p["beginner~"]["mu"]
        for l in LEVELS:
            free[l].append(p[l + "~"]["mu"] + shift)
    return person, {l: (statistics.mean(v), statistics.stdev(v)) for l, v in free.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("arena")
    ap.add_argument("records")
    ap.add_argument("--figaro", default="build/figaro")
    ap.add_argument("--check", action="store_true",
                    help="rate each level as a person with this build's `figaro rate --levels`")
    ap.add_argument("--orders", type=int, default=40)
    ap.add_argument("--boot", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    with open(a.arena) as fh:
        arena = json.load(fh)
    conv, sigma_l, sigma_p, c = convert(arena)
    games, deals = orders_of(a.figaro, a.records)
    full, step = steps(games, deals, a.boot, a.seed)
    arena_r = {e["spec"]: e["rating"] for e in arena["ratings"]["entrants"]}
    print("games %d (%d deals); the fit here against the arena's: %s"
          % (len(games), len(set(deals)), ", ".join("%s %+.1f/%+.1f" % (l, full[l] - full["beginner"],
                                                                       arena_r[l]) for l in LEVELS)))
    print("anchor beginner = %.0f; sigma_L %.3f, settled person's sigma %.3f, c %.4f "
          "(2 beta = %.4f): %.5f mu per arena point"
          % (MU0, sigma_l, sigma_p, c, 2 * BETA, c * math.log(10) / 400))
    k = c * math.log(10) / 400
    print("\n| level | arena rating [95%] | mu [95%] | step over the level below [95%], in mu |")
    print("|---|---|---|---|")
    for l in LEVELS:
        v = conv[l]
        st = ("%+.1f [%+.1f, %+.1f]" % tuple(k * x for x in step[l])) if l in step else ""
        print("| `%s` | %+.0f [%+.0f, %+.0f] | **%.1f** [%.1f, %.1f] | %s |"
              % (l, v["R"], v["R_ci"][0], v["R_ci"][1], v["mu"], v["mu_ci"][0], v["mu_ci"][1],
                 st))
    print("\nfor src/ai/bot.c:")
    for l in LEVELS:
        print("    %s: mu %.1f" % (l, conv[l]["mu"]))
    print("    sigma %.1f" % sigma_l)
    if not a.check:
        return
    person, free = check(a.figaro, games, a.orders, a.seed)
    print("\nchecked over %d orders of %d games:" % (a.orders, len(games)))
    print("| level | its mu | rated as a person: mean end mu (sd over orders), sigma, games "
          "| all free, beginner = 25 |")
    print("|---|---|---|---|")
    for l in LEVELS:
        m, sd, s, n = person[l]
        fm, fsd = free[l]
        print("| `%s` | %.1f | %.2f (%.2f), %.2f, %d | %.2f (%.2f) |"
              % (l, conv[l]["mu"], m, sd, s, n, fm, fsd))


if __name__ == "__main__":
    sys.exit(main())
