#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A tiny Figaro engine speaking FEP (docs/fep.md), standard library only.

Try it against the built-in bots:
    figaro arena --players 4 --games 8 --move-ms 200 \\
        --bot 'cmd:python3 examples/engine.py' --bot greedy --bot random --bot random

FEP in short: the host writes one line per event on our standard input and we
answer on standard output, one line each, flushed at once. We learn only what
our seat may know: the setup, our own hand, and every action as it is taken
(our own included). We never apply our own answer: the host echoes it back as
a `move` line, so that is the one place where the table changes.

Strategy: the first legal play that does not make us collect the table
(collected cards count against us: the most cards get the longest road piece),
else the first legal play, else take.
"""
import sys

COLOURS = "RBGYP"


def value(card):
    """Face value (rules R1): colour cards 1-3, jesters 1-2, a ring 0."""
    return 0 if card == "RING" else int(card[1])


def colour(card):
    """R, B, G, Y, P for colour cards; None for jesters (J1, J2) and rings."""
    return card[0] if card[0] in COLOURS and card != "RING" else None


def pile_colour(pile):
    return next((colour(c) for c in pile if colour(c)), None)


class Engine:
    def __init__(self):
        self.seat, self.players, self.hand, self.piles = 0, 0, [], []

    def apply(self, seat, action):
        """Follows one public action: `R2>1`, `J1>3`, `RING` or `take`."""
        if action == "take":                      # R5: the taker collects everything
            self.piles = [[] for _ in range(self.players)]
            return
        card, _, target = action.partition(">")
        if seat == self.seat:
            self.hand.remove(card)
        if card == "RING":                        # R7: every pile moves one seat left
            self.piles[seat].append(card)
            self.piles = [self.piles[(s - 1) % self.players] for s in range(self.players)]
            return
        pile = self.piles[int(target)]
        pile.append(card)
        if sum(value(c) for c in pile) >= 6:      # R8: that player collects the table
            self.piles = [[] for _ in range(self.players)]

    def legal_plays(self):
        """Every (card, target) the rules allow (R6, R7), in a fixed order."""
        plays = []
        for card in sorted(set(self.hand)):
            if card == "RING":
                plays.append(("RING", self.seat))
                continue
            for t in range(self.players):
                c = colour(card)
                others = [pile_colour(p) for s, p in enumerate(self.piles) if s != t]
                if c is None or (pile_colour(self.piles[t]) in (None, c) and c not in others):
                    plays.append((card, t))
        return plays

    def choose(self):
        plays = self.legal_plays()
        for card, t in plays:
            mine = sum(value(c) for c in self.piles[t]) + value(card)
            if t != self.seat or mine < 6:
                return card if card == "RING" else f"{card}>{t}"
        if plays:
            card, t = plays[0]
            return card if card == "RING" else f"{card}>{t}"
        return "take"                             # no play: we must take (R5)


def main(engine=None, name="example.py"):
    """Serves FEP on standard input and output for engine (an Engine)."""
    engine = engine or Engine()
    for line in iter(sys.stdin.readline, ""):   # readline: answer each line as it comes
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "fep":                          # the handshake: fep 1 -> [id ...] fepok
            print("id name " + name, flush=True)
            print("fepok", flush=True)
        elif cmd == "game":                       # game players N seat S king K removed C roads ...
            keys = dict(zip(words[1:7:2], words[2:8:2]))
            engine.players, engine.seat = int(keys["players"]), int(keys["seat"])
        elif cmd == "round":                      # round R hand <cards>: a new deal, a clear table
            engine.hand = words[3:]
            engine.piles = [[] for _ in range(engine.players)]
        elif cmd == "move":                       # move <seat> <action>: anyone's, ours included
            engine.apply(int(words[1]), words[2])
        elif cmd == "go":                         # go <ms>: our turn; answer in time
            print("play " + engine.choose(), flush=True)
        elif cmd == "quit":
            break
        # names and gameover need no answer; anything else we ignore.


if __name__ == "__main__":
    main()
