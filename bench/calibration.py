#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""calibration.py - what a bot's search believes about its games, against what
happened in them (docs/bots.md, Results).

Reads finished game records (FGN, e.g. an arena's --records) and follows the
seat whose name starts with --name in each (the arena names a bot by its
spec). It replays each game through the Python binding (python/figaro) and,
at the followed seat's first move of each round and at its first move of the
second half of round 3, asks a fresh bot for the move (--spec, seeded from
--seed, the record's place in the list and the round: the same run gives the
same figures). The search's root statistics (fig_bot_analysis) give its
estimate of the seat's chance to finish first and of its final place. It
prints, for each of those points, the mean estimates next to the seat's
actual wins and mean place, the win estimate the played move leaves to a
move searched at least a quarter as often (what the search's aim gives up for
its place, in its own eyes; the noise of the estimates makes it above 0 even
for `win=1`), and the estimates by fifths (0-20% ... 80-100%) with the share
won.

A search that models its opponents well is calibrated: of the positions it
gives 40%, it wins about 40%. An estimate below the result says the opponents
are weaker than the search takes them to be; above it, stronger.

  bench/calibration.py --name ismcts --spec ismcts:iters=5000 rec/*.fgn
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python"))

import figaro  # noqa: E402
from followed import followed_seat  # noqa: E402

FIFTHS = ["0-20%", "20-40%", "40-60%", "60-80%", "80-100%"]


def points_of(game, me):
    """(round, index of the move, point name) where the seat is asked: its first
    move of each round and its first move of the second half of round 3."""
    out = []
    for r in (1, 2, 3):
        moves = game.moves(r)
        mine = [i for i, (seat, _) in enumerate(moves) if seat == me]
        if mine:
            out.append((r, mine[0], "round %d, first move" % r))
        if r == 3:
            late = [i for i in mine if i >= len(moves) // 2]
            if late:
                out.append((r, late[0], "round 3, halfway"))
    return out


def follow(path, n, prefix, spec, seed):
    """The estimates at each point of one record, with the result: a list of
    (point, estimated win, estimated place, won, place, win left); None if
    the game is unfinished."""
    try:
        with open(path, encoding="utf-8") as f:
            full = figaro.Game.from_fgn(f.read())
    except (OSError, UnicodeDecodeError, figaro.FigaroError) as e:
        sys.exit("%s: %s" % (path, e))
    if not full.over:
        return None
    me = followed_seat(path, full.names or [], prefix)
    ranking = full.ranking()
    place = ranking.index(me) + 1
    asked = {(r, i): name for r, i, name in points_of(full, me)}
    game = figaro.Game(setup=full.setup, auto_deal=False)
    out = []
    for r in (1, 2, 3):
        game.deal(hands=[list(h) for h in full.hands(r)])
        for i, (_, action) in enumerate(full.moves(r)):
            if (r, i) in asked:
                with figaro.Bot(spec, seed=figaro.seed_derive(seed, n, r)) as bot:
                    bot.choose(game)
                    a = bot.analysis()
                if a is None:
                    sys.exit("%s: the bot %s reports no search (use ismcts or a level)" % (
                        path, spec))
                # The best win estimate among the moves searched at least a
                # quarter as often as the one played: what the search's aim
                # gave up for the place, in its own eyes.
                best = max(float(w) for w, v in zip(a.win, a.visits) if 4 * v >= a.visits[0])
                out.append((asked[(r, i)], float(a.win[0]), float(a.place[0]), place == 1, place,
                            best - float(a.win[0])))
            game.play(action)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--name", required=True, help="the start of the followed seat's name")
    ap.add_argument("--spec", default="ismcts:iters=5000", help="the bot whose search is asked")
    ap.add_argument("--seed", type=int, default=1, help="the bots' seeds derive from it")
    ap.add_argument("records", nargs="+")
    a = ap.parse_args()
    if not 0 <= a.seed < 2**64:
        ap.error("--seed takes a whole number from 0 to 2^64 - 1")
    try:
        figaro.Bot(a.spec).close()
    except figaro.FigaroError as e:
        sys.exit("--spec %s: %s" % (a.spec, e))
    rows = {}
    games = 0
    for n, path in enumerate(a.records):
        got = follow(path, n, a.name, a.spec, a.seed)
        if got is None:
            continue
        games += 1
        for point, *row in got:
            rows.setdefault(point, []).append(row)
    print("%d games of %s*, asked to %s" % (games, a.name, a.spec))
    print("%-22s %6s %9s %7s %10s %7s %9s" % ("point", "games", "est. win", "won", "est. place",
                                              "place", "win left"))
    for point in sorted(rows):
        v = rows[point]
        m = len(v)
        mean = [sum(x[k] for x in v) / m for k in range(5)]
        print("%-22s %6d %8.1f%% %6.1f%% %10.2f %7.2f %8.1f%%" % (
            point, m, 100 * mean[0], 100 * mean[2], mean[1], mean[3], 100 * mean[4]))
        fifths = [[0, 0, 0.0] for _ in FIFTHS]
        for est, _, won, _, _ in v:
            f = fifths[min(int(est * 5), 4)]
            f[0] += 1
            f[1] += won
            f[2] += est
        print("    " + "; ".join("%s: %d, est. %.0f%%, won %.0f%%" % (
            FIFTHS[k], c, 100 * s / c, 100 * w / c) for k, (c, w, s) in enumerate(fifths) if c))


if __name__ == "__main__":
    main()
