#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""round_stats.py - where one player's games are won and lost, round by round
(docs/bots.md, "How strength is measured").

Reads finished game records (FGN, e.g. an arena's --records) through
`figaro replay --json` and follows the seat whose name starts with --name in
each (the arena names a bot by its spec). Prints, for that player:

  - per round: how often it got each road piece (R11: "longest" ... "none",
    none meaning the fewest cards) and its win rate when it did;
  - its standing after round 2 (its road against the shortest of the others')
    and, for each standing, how often it then had the fewest cards of round 3
    (no piece, and R12's exchange) and how often it won;
  - when it led after round 2: the rank of its round-3 card count (most
    first), won and lost.

  bench/round_stats.py --figaro build/figaro --name ismcts rec/*.fgn
"""
import argparse
import collections
import json
import subprocess
import sys

from followed import followed_seat


def piece_label(index, players):
    """The road piece a round gave, by its place in the group (longest first)."""
    if index is None:
        return "none"
    if index == 0:
        return "longest"
    if index == players - 2:
        return "shortest"
    return "middle %d" % index


def load(figaro, path, prefix):
    """(the followed seat, the replay's JSON) of a finished record, else None."""
    with open(path, encoding="utf-8") as f:
        names = next((line.split()[1:] for line in f if line.startswith("names ")), [])
    me = followed_seat(path, names, prefix)
    out = subprocess.run([figaro, "replay", "--json", path], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("%s: figaro replay failed: %s" % (path, out.stderr.strip()))
    game = json.loads(out.stdout)
    return (me, game) if game.get("finished") else None


def pct(part, whole):
    return "%5.1f%%" % (100.0 * part / whole) if whole else "    -"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--figaro", default="build/figaro")
    ap.add_argument("--name", required=True, help="the start of the followed seat's name")
    ap.add_argument("records", nargs="+")
    a = ap.parse_args()

    games = wins = 0
    by_round = [collections.Counter() for _ in range(3)]      # label -> rounds
    won_round = [collections.Counter() for _ in range(3)]     # label -> games won
    standing = collections.Counter()                          # (standing, what) -> games
    lead_rank = collections.Counter()                         # (rank, won) -> games
    for path in a.records:
        got = load(a.figaro, path, a.name)
        if not got:
            continue
        me, g = got
        n, rounds, won = g["players"], g["rounds"], g["winner"] == me
        games += 1
        wins += won
        for r in range(3):
            pieces = rounds[r]["pieces"]
            # pieces[s] is a length (all differ, R1): its place among those
            # handed out, longest first, names it
            group = sorted((p for p in pieces if p is not None), reverse=True)
            mine = pieces[me]
            label = piece_label(None if mine is None else group.index(mine), n)
            by_round[r][label] += 1
            won_round[r][label] += won
        road = [sum(rounds[r]["pieces"][s] or 0 for r in range(2)) for s in range(n)]
        gap = min(road[s] for s in range(n) if s != me) - road[me]
        where = ("leads by 10+" if gap >= 10 else "leads by 5-9" if gap >= 5
                 else "leads by 1-4" if gap > 0 else "tied" if gap == 0
                 else "behind by 1-5" if gap >= -5 else "behind by 6+")
        standing[(where, "games")] += 1
        standing[(where, "fewest")] += rounds[2]["pieces"][me] is None
        standing[(where, "won")] += won
        if gap > 0:
            stacks = rounds[2]["stacks"]
            rank = sorted(range(n), key=lambda s: (-stacks[s], s != me)).index(me)
            lead_rank[(rank, won)] += 1
    if not games:
        sys.exit("no finished game among the records")

    print("%d games of %s*: won %d (%s)" % (games, a.name, wins, pct(wins, games)))
    print("\nround  piece     rounds  share   won")
    for r in range(3):
        for label, count in sorted(by_round[r].items(), key=lambda kv: kv[0]):
            print("%5d  %-8s  %6d  %s  %s" % (r + 1, label, count, pct(count, games),
                                             pct(won_round[r][label], count)))
    print("\nafter round 2    games  fewest in round 3   won")
    for where in ("leads by 10+", "leads by 5-9", "leads by 1-4", "tied", "behind by 1-5",
                  "behind by 6+"):
        k = standing[(where, "games")]
        if k:
            print("%-14s  %6d  %s             %s" % (where, k, pct(standing[(where, "fewest")], k),
                                                   pct(standing[(where, "won")], k)))
    print("\nleading after round 2, its round-3 cards (1 = the most): won / lost")
    for rank in range(max((r for r, _ in lead_rank), default=-1) + 1):
        print("  %d: %d / %d" % (rank + 1, lead_rank[(rank, True)], lead_rank[(rank, False)]))


if __name__ == "__main__":
    main()
