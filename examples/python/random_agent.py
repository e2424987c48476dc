#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A random agent: plays one game of Figaro with uniformly random legal actions
and prints what happens, then the record (FGN).

    python3 examples/python/random_agent.py [--players N] [--seed S]

Run from the source tree after `make` (the package finds build/), or with
the package installed."""
import argparse
import os
import random
import sys

try:                     # the package pip installed (docs/python.md)
    import figaro
except ImportError:      # or the source tree's, with the libraries of `make`
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "python"))
    import figaro


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    pick = random.Random(args.seed)
    game = figaro.Game(args.players, args.seed)     # setup and deals from the seed
    while not game.over:
        seat = game.turn
        action = pick.choice(game.legal_actions())
        for ev in game.play(action):
            if ev.type in ("play", "ring"):
                print("seat %d plays %s" % (seat, action))
            elif ev.type == "collect":
                print("  seat %d collects %d card(s) (%s)" % (ev.seat, ev.count, ev.reason))
            elif ev.type == "round_end":
                print("round %d ends; stacks %s" % (ev.round, list(ev.counts)))
            elif ev.type == "piece":
                print("  seat %d gets a road piece of %d" % (ev.seat, ev.a))
            elif ev.type == "game_over":
                print("game over: ranking %s, roads %s" % (list(ev.counts), list(ev.totals)))
    print()
    print(game.to_fgn(), end="")


if __name__ == "__main__":
    main()
