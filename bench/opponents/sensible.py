#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A held-out opponent: a sensible one-move player speaking FEP (docs/fep.md).

The built-in bots were tuned against `greedy` and against each other; this
player exists so that their strength can also be measured against a style they
never met while being tuned ("win by playing better, not by learning
greedy's habits"). Nothing in src/ reads it, and no bot parameter may be chosen
by its results: it is a test set, not a training set.

It scores every legal action for the seat to move, in cards, and plays the
best (ties: the first in a random order):
  - collecting costs the table: a Take, or a card that brings one's own pile
    to 6, which counts twice (a take can be chosen when the table is small;
    feeding one's own pile to 6 is a blunder to avoid);
  - making another seat collect gains the cards it collects;
  - a pile left at 3, 4 or 5 risks being pushed to 6: one's own is a loss in
    proportion to the table, another seat's a smaller gain;
  - a ring trades one's own pile for the right-hand neighbour's (R7): worth
    the difference of their risks, and a ring kept is an escape;
  - 3s and jesters are hard to place late: shed them a little earlier.

    figaro arena --players 4 --games 200 --jobs 2 --move-ms 1000 \\
        --bot ismcts:ms=100 --bot 'cmd:python3 bench/opponents/sensible.py' \\
        --bot 'cmd:python3 bench/opponents/sensible.py' \\
        --bot 'cmd:python3 bench/opponents/sensible.py'
"""
import os
import random
import sys

# The FEP loop and the table kept from the moves (R5-R8) are the example engine's.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
from engine import Engine, value, main as serve  # noqa: E402

RISK = {3: 0.25, 4: 0.625, 5: 0.875}   # chance a pile at this total reaches 6 before long


class Player(Engine):
    def __init__(self):
        super().__init__()
        self.rng = random.Random(0)

    def table(self):
        return sum(len(p) for p in self.piles)

    def total(self, seat):
        return sum(value(c) for c in self.piles[seat])

    def score(self, card, t):
        table = self.table()
        if card == "take":
            return -table - 0.25
        if card == "RING":
            right = (self.seat - 1) % self.players
            mine, theirs = RISK.get(self.total(self.seat), 0), RISK.get(self.total(right), 0)
            return (mine - theirs) * (table + 3) - 0.75
        total = self.total(t) + value(card)
        shed = 0.5 if card[1] == "3" else 0.25 if card[0] == "J" else 0
        if total >= 6:
            return -2 * (table + 1) if t == self.seat else table + 1
        if t == self.seat:
            return -RISK.get(total, 0) * (table + 2) + shed
        return RISK.get(total, 0) * (table + 2) / 4 + shed

    def choose(self):
        plays = self.legal_plays() + ([("take", None)] if self.table() else [])
        self.rng.shuffle(plays)
        card, t = max(plays, key=lambda p: self.score(*p))
        if card in ("take", "RING"):
            return card
        return f"{card}>{t}"


if __name__ == "__main__":
    serve(Player(), "sensible.py")
