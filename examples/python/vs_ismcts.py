#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A game against the ismcts bot: you (or, with --auto, the greedy bot) at
seat 0, ismcts at the other seats. You see only your view (R14).

    python3 examples/python/vs_ismcts.py [--players N] [--seed S] [--iters K] [--auto]

Type an action in FGN syntax (R2>1, J1>0, RING, take) or its number."""
import argparse
import os
import sys

try:                     # the package pip installed (docs/python.md)
    import figaro
except ImportError:      # or the source tree's, with the libraries of `make`
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "python"))
    import figaro


def show(view):
    print("\nround %d, your hand: %s" % (view.round, " ".join(view.hand)))
    for s, pile in enumerate(view.piles):
        mark = "*" if s == view.seat else " "
        print(" %sseat %d: %2d in hand, pile %-16s (total %d), stack %d%s" % (
            mark, s, view.hand_sizes[s], " ".join(pile.cards) or "-", pile.total,
            view.stacks[s], ", King" if s == view.king else ""))


def ask(game):
    legal = game.legal_actions()
    show(game.view(0))
    print("legal: " + "  ".join("%d:%s" % (i, a) for i, a in enumerate(legal)))
    while True:
        try:
            text = input("your action> ").strip()
        except EOFError:
            sys.exit(0)
        if text.isdigit() and int(text) < len(legal):
            return legal[int(text)]
        try:
            action = figaro.Action.parse(text, game.turn)
            why = game.state.check(action)
            if why is None:
                return action
            print(why)
        except figaro.FigaroError as e:
            print(e)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iters", type=int, default=2000, help="ismcts iterations per move")
    ap.add_argument("--auto", action="store_true", help="greedy plays seat 0")
    args = ap.parse_args()
    game = figaro.Game(args.players, args.seed)
    me = figaro.Bot("greedy", seed=args.seed) if args.auto else None
    bots = [figaro.Bot("ismcts:iters=%d" % args.iters, seed=args.seed + s)
            for s in range(1, args.players)]
    while not game.over:
        seat = game.turn
        if seat == 0:
            action = me.choose(game) if me else ask(game)
        else:
            action = bots[seat - 1].choose(game)
        game.play(action)
        print("seat %d: %s" % (seat, action))
    ranking = game.ranking()
    print("\nranking (shortest road first): %s" % ", ".join(
        "seat %d (%d)" % (s, game.road_length(s)) for s in ranking))
    print("you %s" % ("win!" if ranking[0] == 0 else "finish %d of %d" % (
        ranking.index(0) + 1, args.players)))


if __name__ == "__main__":
    main()
