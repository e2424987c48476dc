#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A policy network trained with PPO (PyTorch) against figaro's greedy bots.

The learner holds seat 0 of 4-player games whose other seats are the C bots
of --opponents (greedy by default), every game of a figaro.BatchEnv stepped
together in C. The network reads the 187-float observation of its seat and
gives logits over the 109 action indices, masked to the legal actions, and a
value (the expected final reward: +1 winner ... -1 last). Proximal Policy
Optimization: rollouts of --steps decisions in each of --envs games, advantages
by GAE, --epochs passes of clipped-surrogate updates in minibatches.

Before and after training the policy (the most probable legal action) plays
--eval games against the same opponents, the same seeds both times, and the
win rate is printed with a 95% Wilson interval; --also-random evaluates
against random players too. Everything is seeded (--seed): two runs print
the same numbers (one thread; PyTorch's deterministic algorithms).

    python3 examples/python/ppo_train.py [--updates 600] [--envs 128] [--eval 1000]

Needs PyTorch (Debian: python3-torch) and numpy; docs/python.md gives the
figures of a full run."""
import argparse
import math
import os
import sys
import time

import numpy as np
import torch
from torch import nn

try:                     # the package pip installed (docs/python.md)
    import figaro
except ImportError:      # or the source tree's, with the libraries of `make`
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "python"))
    import figaro

PLAYERS = 4
# seed_derive streams of this program: training games, evaluation games
TRAIN_STREAM, EVAL_STREAM = 7, 8


class Policy(nn.Module):
    """Two tanh layers shared by the policy's logits and the value."""

    def __init__(self, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(figaro.OBS_SIZE, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.logits = nn.Linear(hidden, figaro.NUM_ACTIONS)
        self.value = nn.Linear(hidden, 1)
        for layer in list(self.body) + [self.logits, self.value]:
            if isinstance(layer, nn.Linear):
                nn.init.orthogonal_(layer.weight, math.sqrt(2))
                nn.init.zeros_(layer.bias)
        # near-uniform over the legal actions at the start, values near 0
        nn.init.orthogonal_(self.logits.weight, 0.01)
        nn.init.orthogonal_(self.value.weight, 1.0)

    def forward(self, obs, mask):
        h = self.body(obs)
        # an illegal action gets a logit so low that its probability is 0; a
        # row without a legal action (a finished game) stays finite
        logits = self.logits(h).masked_fill(~mask, -1e9)
        return logits, self.value(h).squeeze(-1)

    @torch.no_grad()
    def act(self, obs, mask):
        """The most probable legal action of each row (what is evaluated)."""
        logits, _ = self(torch.from_numpy(obs), torch.from_numpy(mask))
        return logits.argmax(dim=1).to(torch.int32).numpy()


def wilson(wins, n, z=1.96):
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def evaluate(choose, opponents, games=1000, seed=1, batch=250):
    """`choose(obs, mask)` at seat 0 of `games` games against `opponents`, the
    games of seeds seed_derive(seed, EVAL_STREAM, i): (wins, games, mean
    reward)."""
    wins = played = 0
    rewards = []
    with figaro.BatchEnv(batch, players=PLAYERS, seat=0, autoreset=False,
                         opponents=opponents) as env:
        for start in range(0, games, batch):
            n = min(batch, games - start)
            seeds = [figaro.seed_derive(seed, EVAL_STREAM, start + i) for i in range(batch)]
            obs, mask = env.reset(seeds)
            live = np.ones(batch, bool)
            while live.any():
                obs, reward, done, mask = env.step(choose(obs, mask))
                ended = done & live
                ended[n:] = False              # a short last batch counts its first n
                wins += int((reward[ended] == 1.0).sum())
                rewards += reward[ended].tolist()
                live &= ~done
            played += n
    return wins, played, math.fsum(rewards) / played     # fsum: whatever the order


def describe(name, result):
    wins, n, mean = result
    lo, hi = wilson(wins, n)
    return "%s: wins %.1f%% of %d games (95%% CI %.1f-%.1f%%), mean reward %+.3f" % (
        name, 100 * wins / n, n, 100 * lo, 100 * hi, mean)


def train(policy, opponents="greedy", updates=600, envs=128, steps=64, epochs=3,
          minibatch=1024, lr=1e-3, gamma=1.0, lam=0.95, clip=0.2, ent_coef=0.01,
          vf_coef=0.5, seed=1, log=None):
    """PPO against `opponents`; returns one dict per update: the losses
    averaged over its minibatches (policy_loss, value_loss, entropy, kl),
    value_error (the critic's squared error on the fresh rollout, before
    learning from it, over the returns' variance), and the games finished
    and won while sampling."""
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(policy.parameters(), lr=lr, eps=1e-5)
    history = []
    obs_buf = torch.zeros(steps, envs, figaro.OBS_SIZE)
    mask_buf = torch.zeros(steps, envs, figaro.NUM_ACTIONS, dtype=torch.bool)
    act_buf = torch.zeros(steps, envs, dtype=torch.long)
    logp_buf = torch.zeros(steps, envs)
    val_buf = torch.zeros(steps, envs)
    rew_buf = torch.zeros(steps, envs)
    done_buf = torch.zeros(steps, envs)
    with figaro.BatchEnv(envs, players=PLAYERS, seat=0, autoreset=True,
                         opponents=opponents) as env:
        obs, mask = env.reset([figaro.seed_derive(seed, TRAIN_STREAM, i) for i in range(envs)])
        for update in range(updates):
            frac = 1.0 - update / updates                 # the learning rate falls to 0
            for g in opt.param_groups:
                g["lr"] = lr * frac
            finished = won = 0
            # ---- rollout: `steps` decisions in every game (the C bots move between)
            with torch.no_grad():
                for t in range(steps):
                    obs_buf[t].copy_(torch.from_numpy(obs))     # env's arrays are reused
                    mask_buf[t].copy_(torch.from_numpy(mask))
                    logits, value = policy(obs_buf[t], mask_buf[t])
                    probs = torch.softmax(logits, dim=1)
                    action = torch.multinomial(probs, 1, generator=gen).squeeze(1)
                    act_buf[t] = action
                    logp_buf[t] = torch.log_softmax(logits, dim=1).gather(
                        1, action[:, None]).squeeze(1)
                    val_buf[t] = value
                    obs, reward, done, mask = env.step(action.to(torch.int32).numpy())
                    rew_buf[t].copy_(torch.from_numpy(reward))
                    done_buf[t].copy_(torch.from_numpy(done.astype(np.float32)))
                    finished += int(done.sum())
                    won += int((reward[done] == 1.0).sum())
                # ---- advantages (GAE); a finished game's next value is 0
                _, next_value = policy(torch.from_numpy(obs), torch.from_numpy(mask))
                adv = torch.zeros(steps, envs)
                gae = torch.zeros(envs)
                for t in reversed(range(steps)):
                    live = 1.0 - done_buf[t]
                    nv = next_value if t == steps - 1 else val_buf[t + 1]
                    delta = rew_buf[t] + gamma * nv * live - val_buf[t]
                    gae = delta + gamma * lam * live * gae
                    adv[t] = gae
                ret = adv + val_buf
                # the critic's error on this fresh rollout, before it learns
                # from it, over the returns' variance: 1 knows nothing, 0 all
                fresh = float((adv ** 2).mean() / ret.var().clamp_min(1e-8))
            # ---- PPO: `epochs` passes over the rollout in shuffled minibatches
            b_obs, b_mask = obs_buf.reshape(-1, figaro.OBS_SIZE), mask_buf.reshape(
                -1, figaro.NUM_ACTIONS)
            b_act, b_logp, b_adv, b_ret = (x.reshape(-1) for x in (act_buf, logp_buf, adv, ret))
            sums = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "kl": 0.0}
            count = 0
            for _ in range(epochs):
                order = torch.randperm(len(b_act), generator=gen)
                for start in range(0, len(order), minibatch):
                    i = order[start:start + minibatch]
                    logits, value = policy(b_obs[i], b_mask[i])
                    logp_all = torch.log_softmax(logits, dim=1)
                    logp = logp_all.gather(1, b_act[i][:, None]).squeeze(1)
                    entropy = -(logp_all.exp() * logp_all).sum(1).mean()
                    a = b_adv[i]
                    a = (a - a.mean()) / (a.std() + 1e-8)
                    ratio = (logp - b_logp[i]).exp()
                    pg = -torch.min(ratio * a, ratio.clamp(1 - clip, 1 + clip) * a).mean()
                    vl = 0.5 * ((value - b_ret[i]) ** 2).mean()
                    loss = pg + vf_coef * vl - ent_coef * entropy
                    opt.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                    opt.step()
                    sums["policy_loss"] += float(pg)
                    sums["value_loss"] += float(vl)
                    sums["entropy"] += float(entropy)
                    sums["kl"] += float((b_logp[i] - logp).mean())
                    count += 1
            row = {k: v / count for k, v in sums.items()}
            row.update(update=update, games=finished, won=won, value_error=fresh)
            history.append(row)
            if log:
                log(row)
    return history


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--updates", type=int, default=600, help="PPO updates (rollouts)")
    ap.add_argument("--envs", type=int, default=128, help="games played at once")
    ap.add_argument("--steps", type=int, default=64, help="decisions per game per rollout")
    ap.add_argument("--epochs", type=int, default=3, help="passes over each rollout")
    ap.add_argument("--hidden", type=int, default=64, help="units of each hidden layer")
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate at the start")
    ap.add_argument("--opponents", default="greedy",
                    help="the bots at seats 1-3 (figaro.Bot specs)")
    ap.add_argument("--eval", type=int, default=1000, help="games per evaluation")
    ap.add_argument("--also-random", action="store_true", help="evaluate against random too")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log-every", type=int, default=10, help="print every N updates")
    ap.add_argument("--save", help="write the trained network's state_dict here")
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(args.seed)
    policy = Policy(args.hidden)

    def report(when):
        print(describe("%s, against 3 %s" % (when, args.opponents),
                       evaluate(policy.act, args.opponents, args.eval, args.seed)))
        if args.also_random:
            print(describe("%s, against 3 random" % when,
                           evaluate(policy.act, "random", args.eval, args.seed)))

    report("before training")
    t0, c0 = time.time(), time.process_time()

    def log(row):
        u = row["update"]
        if u % args.log_every == 0 or u == args.updates - 1:
            print("update %4d: %4d games, won %5.1f%% (sampling), critic's error %.3f, value "
                  "loss %.4f, policy loss %+.4f, entropy %.3f, %.0f s" % (
                      u, row["games"], 100 * row["won"] / max(row["games"], 1),
                      row["value_error"], row["value_loss"], row["policy_loss"], row["entropy"],
                      time.time() - t0), flush=True)

    train(policy, args.opponents, args.updates, args.envs, args.steps, args.epochs, lr=args.lr,
          seed=args.seed, log=log)
    print("training: %d updates, %d decisions, %.0f s (%.0f s of CPU)" % (
        args.updates, args.updates * args.envs * args.steps, time.time() - t0,
        time.process_time() - c0))
    report("after training")
    if args.save:
        torch.save(policy.state_dict(), args.save)


if __name__ == "__main__":
    main()
