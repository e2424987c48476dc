#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Speed of the Python binding (docs/python.md "Speed"), on one thread.

  single   one game at a time from Python: legal_actions(), a random choice,
           play() (events converted to Python objects): Python's own cost
           per action;
  batch    figaro.BatchEnv, N games stepped at once in C, self-play (every
           action comes from Python as one int32 per game), with a first-legal
           policy (mask.argmax) and with a uniformly random one in numpy;
           each step also writes N observations and masks;
  C        the same library's random playouts (fig_state_playout) called once
           per game: the engine with no Python and no observations.

Every figure is actions per second, best of --runs runs of --seconds each.
    python3 bench/python_bench.py [--batch 1024] [--seconds 2] [--runs 3]
"""
import argparse
import ctypes
import os
import platform
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import numpy as np  # noqa: E402

import figaro  # noqa: E402
from figaro import _lib  # noqa: E402


def best(fn, runs):
    return max(fn() for _ in range(runs))


def single(seconds):
    pick = random.Random(1)
    actions, seed, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g = figaro.Game(4, seed)
        seed += 1
        while not g.over:
            g.play(pick.choice(g.legal_actions()))
            actions += 1
    return actions / (time.perf_counter() - t0)


def batch(n, seconds, policy):
    env = figaro.BatchEnv(n, players=4, seat=None, autoreset=True)
    obs, mask = env.reset(range(n))
    rng = np.random.default_rng(1)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(20):
            if policy == "first":
                actions = mask.argmax(axis=1).astype(np.int32)
            else:   # the largest of uniform draws over the legal actions
                actions = (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1) \
                    .astype(np.int32)
            obs, reward, done, mask = env.step(actions)
        steps += 20
    return steps * n / (time.perf_counter() - t0)


def c_playouts(seconds):
    core = _lib.core
    setup = figaro.Setup.random(4, 1)._to_c()
    start = _lib.State()
    core.fig_state_init(ctypes.byref(start), ctypes.byref(setup))
    rng = figaro.Rng(1)
    st = _lib.State()
    actions, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(200):
            ctypes.pointer(st)[0] = start
            actions += core.fig_state_playout(ctypes.byref(st), ctypes.byref(rng._c), 0)
    return actions / (time.perf_counter() - t0)


def machine():
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d CPU(s), Python %s, numpy %s, %s" % (
        model, os.cpu_count() or 0, platform.python_version(), np.__version__,
        figaro.core_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print("machine: " + machine())
    rows = [
        ("single game from Python", best(lambda: single(args.seconds), args.runs)),
        ("batch of %d, first legal" % args.batch,
         best(lambda: batch(args.batch, args.seconds, "first"), args.runs)),
        ("batch of %d, uniform random" % args.batch,
         best(lambda: batch(args.batch, args.seconds, "random"), args.runs)),
        ("pure C random playouts", best(lambda: c_playouts(args.seconds), args.runs)),
    ]
    for name, rate in rows:
        print("%-34s %12.0f actions/s" % (name, rate))


if __name__ == "__main__":
    main()
