#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A small policy learnt by REINFORCE (numpy only) that beats random players.

The learner holds seat 0 of 4-player games against three uniformly random
players, all games stepped together in C by figaro.BatchEnv. The policy is a
one-hidden-layer network over the observation vector, its logits masked to
the legal actions; the reward is the final rank (+1 winner ... -1 last).
Before and after training it plays --eval games (fresh seeds) and prints the
win rate with a 95% Wilson interval: random play wins 1 game in 4.

    python3 examples/python/train_reinforce.py [--updates 80] [--batch 256] [--eval 4000]

About a minute on one core of a laptop with the defaults."""
import argparse
import math
import os
import sys
import time

import numpy as np

try:                     # the package pip installed (docs/python.md)
    import figaro
except ImportError:      # or the source tree's, with the libraries of `make`
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "python"))
    import figaro

PLAYERS = 4


class Policy:
    """logits = W2 relu(W1 x + b1) + b2, masked softmax over the actions."""

    def __init__(self, rng, hidden=64):
        n_in, n_out = figaro.OBS_SIZE, figaro.NUM_ACTIONS
        self.p = {
            "W1": rng.normal(0, 1 / math.sqrt(n_in), (n_in, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "W2": np.zeros((hidden, n_out), np.float32),   # starts uniform over legal actions
            "b2": np.zeros(n_out, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}   # Adam moments
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, obs, mask):
        h = np.maximum(obs @ self.p["W1"] + self.p["b1"], 0)
        logits = h @ self.p["W2"] + self.p["b2"]
        logits = np.where(mask, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits) * mask
        total = e.sum(axis=1, keepdims=True)
        total[total == 0] = 1          # rows of finished games have no legal action
        return h, e / total

    def act(self, obs, mask, rng, greedy=False):
        _, probs = self.forward(obs, mask)
        if greedy:
            return probs.argmax(axis=1).astype(np.int32)
        u = rng.random((len(probs), 1))
        return (probs.cumsum(axis=1) < u).sum(axis=1).clip(0, probs.shape[1] - 1).astype(np.int32)

    def update(self, obs, mask, actions, adv, lr=3e-3):
        """One Adam step on -mean(adv * log pi(a|s)) (+ a little entropy)."""
        h, probs = self.forward(obs, mask)
        n = len(obs)
        g_logits = probs.copy()
        g_logits[np.arange(n), actions] -= 1.0       # d(-log pi)/d logits
        g_logits *= adv[:, None] / n
        grads = {"W2": h.T @ g_logits, "b2": g_logits.sum(0)}
        g_h = (g_logits @ self.p["W2"].T) * (h > 0)
        grads["W1"] = obs.T @ g_h
        grads["b1"] = g_h.sum(0)
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            self.p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)


def wilson(wins, n, z=1.96):
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def evaluate(choose, games, seed, batch=500):
    """Win rate of `choose(obs, mask)` at seat 0 over `games` fresh games."""
    env = figaro.BatchEnv(batch, players=PLAYERS, seat=0, autoreset=False)
    wins = played = 0
    for start in range(0, games, batch):
        obs, mask = env.reset([figaro.seed_derive(seed, 1, start + i) for i in range(batch)])
        live = np.ones(batch, bool)
        while live.any():
            obs, reward, done, mask = env.step(choose(obs, mask))
            wins += int((reward[done] == 1.0).sum())
            live &= ~done
        played += batch
    return wins, played


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--updates", type=int, default=80, help="policy updates")
    ap.add_argument("--batch", type=int, default=256, help="games played at once")
    ap.add_argument("--steps", type=int, default=64, help="steps per update (per game)")
    ap.add_argument("--eval", type=int, default=4000, help="games per evaluation")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    policy = Policy(rng)

    def uniform(obs, mask):   # a uniformly random legal action per row
        u = rng.random((len(mask), 1)) * mask.sum(axis=1, keepdims=True)
        return (mask.cumsum(axis=1) > u).argmax(axis=1).astype(np.int32)

    wins, n = evaluate(uniform, args.eval, args.seed + 1000)
    lo, hi = wilson(wins, n)
    print("random policy: wins %.1f%% of %d games (95%% CI %.1f-%.1f%%)" % (
        100 * wins / n, n, 100 * lo, 100 * hi))

    env = figaro.BatchEnv(args.batch, players=PLAYERS, seat=0, autoreset=True)
    obs, mask = env.reset([figaro.seed_derive(args.seed, 2, i) for i in range(args.batch)])
    # per game: the decisions of the game in progress, until its reward arrives
    pending = [[] for _ in range(args.batch)]
    baseline, t0 = 0.0, time.time()
    for update in range(args.updates):
        batch_obs, batch_mask, batch_act, batch_ret = [], [], [], []
        finished = won = 0
        for _ in range(args.steps):
            actions = policy.act(obs, mask, rng)
            for i in range(args.batch):
                pending[i].append((obs[i].copy(), mask[i].copy(), actions[i]))
            obs, reward, done, mask = env.step(actions)
            for i in np.flatnonzero(done):
                for o, m, a in pending[i]:
                    batch_obs.append(o)
                    batch_mask.append(m)
                    batch_act.append(a)
                    batch_ret.append(reward[i])
                pending[i] = []
                finished += 1
                won += reward[i] == 1.0
        if not batch_ret:
            continue
        ret = np.array(batch_ret, np.float32)
        baseline = 0.9 * baseline + 0.1 * float(ret.mean())
        policy.update(np.array(batch_obs), np.array(batch_mask), np.array(batch_act),
                      ret - baseline)
        if update % 25 == 0 or update == args.updates - 1:
            print("update %3d: %4d games, won %4.1f%% (sampling), %.0f s" % (
                update, finished, 100 * won / max(finished, 1), time.time() - t0))

    wins, n = evaluate(lambda o, m: policy.act(o, m, rng, greedy=True), args.eval,
                       args.seed + 1000)
    lo, hi = wilson(wins, n)
    print("learnt policy: wins %.1f%% of %d games (95%% CI %.1f-%.1f%%) against 3 random "
          "players" % (100 * wins / n, n, 100 * lo, 100 * hi))


if __name__ == "__main__":
    main()
