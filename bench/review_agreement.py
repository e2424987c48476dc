#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""review_agreement.py - how stable the review's grades are (docs/bots.md, Review).

Reviews each game (FGN records) for the chosen seats with several seeds
(`figaro review FILE --seat S --seed K --json`, the review's own search
unless options after `--` say otherwise), one review at a time, and reports:

  - the agreement: over every pair of seeds and every move, the share of the
    moves that got the same grade from both reviews;
  - the agreement where it is harder: over the moves that at least one of the
    two reviews graded (not "good"), the share with the same grade;
  - the grades given, and the seconds a review took: processor time (what it
    takes on a free core of this machine) and wall clock (with the load).

  bench/review_agreement.py --figaro build/figaro --seats 0,1,2,3 \
      --seeds 1,2,3 rec/game-*.fgn [-- --iters 5000]
"""
import argparse
import itertools
import resource
import json
import subprocess
import sys
import time

GRADES = ["good", "inaccuracy", "mistake", "blunder"]


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--figaro", default="build/figaro")
    p.add_argument("--seats", default="0,1,2,3")
    p.add_argument("--seeds", default="1,2,3")
    p.add_argument("records", nargs="+")
    a = p.parse_args(argv)
    seats = [int(s) for s in a.seats.split(",")]
    seeds = [int(s) for s in a.seeds.split(",")]
    same = total = gsame = gtotal = 0
    counts = {g: 0 for g in GRADES}
    seconds, cpu = [], []
    for rec in a.records:
        for seat in seats:
            reviews = []
            for seed in seeds:
                t0 = time.monotonic()
                c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                out = subprocess.run([a.figaro, "review", rec, "--seat", str(seat), "--seed",
                                      str(seed), "--json"] + extra,
                                     check=True, capture_output=True, text=True).stdout
                seconds.append(time.monotonic() - t0)
                c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.append(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime)
                grades = [m["grade"] for m in json.loads(out)["moves"]]
                for g in grades:
                    counts[g] += 1
                reviews.append(grades)
            for x, y in itertools.combinations(reviews, 2):
                for gx, gy in zip(x, y):
                    total += 1
                    same += gx == gy
                    if gx != "good" or gy != "good":
                        gtotal += 1
                        gsame += gx == gy
            print(f"{rec} seat {seat}: " + " | ".join(
                " ".join(str(r.count(g)) for g in GRADES[1:]) for r in reviews), flush=True)
    n = len(a.records) * len(seats)
    print(f"{n} reviews x {len(seeds)} seeds ({len(seconds)} reviews, "
          f"{sum(counts.values())} moves graded in all)")
    print("grades given: " + ", ".join(f"{g} {counts[g]}" for g in GRADES))
    print(f"agreement, every move: {same}/{total} = {100 * same / max(total, 1):.1f}%")
    print(f"agreement, moves graded by either review: {gsame}/{gtotal} = "
          f"{100 * gsame / max(gtotal, 1):.1f}%")
    print(f"seconds per review: processor mean {sum(cpu) / len(cpu):.1f}, max {max(cpu):.1f}; "
          f"wall clock mean {sum(seconds) / len(seconds):.1f}, max {max(seconds):.1f}")


if __name__ == "__main__":
    main()
