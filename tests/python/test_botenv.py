# SPDX-License-Identifier: MIT
"""C bots inside BatchEnv (figaro/bot_batch.h) and the search's analysis from
Python: a batch against greedy bots plays, game for game, what single games
against figaro.Bot give; the final observation survives autoreset; the
opponents are reproducible; the analysis agrees with the mask."""
import numpy as np
import pytest

import figaro
from figaro import BatchEnv, Bot, FigaroError, Game, NUM_ACTIONS


def test_greedy_opponents_are_the_single_games_bots():
    n, players, seat = 8, 4, 1
    seeds = [500 + i for i in range(n)]
    env = BatchEnv(n, players=players, seat=seat, opponents="greedy", autoreset=True)
    obs, mask = env.reset(seeds)
    games = [Game(players, s) for s in seeds]
    bots = [{s: Bot("greedy", seed=figaro.seed_derive(seed, 1, s))
             for s in range(players) if s != seat} for seed in seeds]

    def to_learner(i):
        g = games[i]
        while not g.over and g.turn != seat:
            bots[i][g.turn].play(g)

    for i in range(n):
        to_learner(i)
    pick = np.random.default_rng(3)
    finished = 0
    while finished < n:
        actions = np.zeros(n, dtype=np.int64)
        for i, g in enumerate(games):
            actions[i] = pick.choice(np.flatnonzero(mask[i]))
            if g.over:
                continue
            assert env.turn[i] == seat
            assert np.array_equal(obs[i], g.observation(seat))
            assert np.array_equal(mask[i], g.action_mask())
        obs, rewards, done, mask = env.step(actions)
        for i, g in enumerate(games):
            if g.over:
                continue
            g.play(int(actions[i]))
            to_learner(i)
            assert bool(done[i]) == g.over
            assert rewards[i] == g.rewards()[seat]
            if g.over:
                finished += 1
                # the finished game as the learner saw it, while obs shows the next one
                assert np.array_equal(env.final_obs[i], g.state.observation(seat))
                assert env.game_seeds()[i] == figaro.seed_derive(seeds[i], 0, 1)
                assert env.state(i) != g.state and env.turn[i] == seat
            else:
                assert not env.final_obs[i].any()
    env.close()
    with pytest.raises(FigaroError, match="closed"):
        env.step(actions)


def play_out(env, seeds, steps):
    """Obs, rewards of a fixed policy (the first legal index) for steps steps."""
    obs, mask = env.reset(seeds)
    out = [obs.copy()]
    for _ in range(steps):
        obs, rewards, done, mask = env.step(mask.argmax(axis=1))
        out += [obs.copy(), rewards.copy()]
    return out


def test_search_opponents_are_reproducible():
    a = BatchEnv(3, players=3, seat=0, opponents="ismcts:iters=60")
    b = BatchEnv(3, players=3, seat=0, opponents="ismcts:iters=60")
    ra, rb = play_out(a, [1, 2, 3], 12), play_out(b, [1, 2, 3], 12)
    assert all(np.array_equal(x, y) for x, y in zip(ra, rb))
    rc = play_out(BatchEnv(3, players=3, seat=0, opponents="random"), [1, 2, 3], 12)
    assert not all(np.array_equal(x, y) for x, y in zip(ra, rc))


def test_stronger_opponents_win_more():
    """A random learner at seat 0 of 4-player games: its mean reward against
    greedy bots is below its mean against random players."""
    def mean_reward(opponents):
        env = BatchEnv(64, players=4, seat=0, opponents=opponents)
        obs, mask = env.reset(range(64))
        rng, total, games = np.random.default_rng(0), 0.0, 0
        while games < 128:
            choice = (rng.random(mask.shape) * mask).argmax(axis=1)
            obs, rewards, done, mask = env.step(choice)
            total += float(rewards.sum())
            games += int(done.sum())
        return total / games
    against_random, against_greedy = mean_reward("random"), mean_reward("greedy")
    assert abs(against_random) < 0.25           # about even among four random players
    assert against_greedy < against_random - 0.2


def test_bad_opponents_are_refused():
    with pytest.raises(FigaroError, match="'nobot' is not a bot"):
        BatchEnv(2, opponents="nobot")
    with pytest.raises(FigaroError, match="self-play"):
        BatchEnv(2, seat=None, opponents="greedy")
    with pytest.raises(TypeError):
        BatchEnv(2, opponents=None)


def test_the_search_analysis_as_arrays():
    g = Game(4, 21)
    rng = figaro.Rng(2)
    for _ in range(6):
        g.play(g.state.random_action(rng))
    with Bot("ismcts:iters=400", seed=4) as bot, Bot("greedy") as greedy:
        assert bot.analysis() is None                 # nothing thought yet
        chosen = bot.choose(g)
        an = bot.analysis()
        assert greedy.choose(g) and greedy.analysis() is None
    assert an.seat == g.turn and an.iterations >= 400
    legal = g.legal_actions()
    assert set(an.actions) <= set(legal) and chosen in an.actions
    assert an.visits.dtype == np.uint32 and an.win.dtype == np.float64
    assert list(an.index) == [g.action_index(a) for a in an.actions]
    assert (np.diff(an.visits.astype(np.int64)) <= 0).all()        # most visited first
    assert an.share.sum() == pytest.approx(1.0)
    assert ((an.win >= 0) & (an.win <= 1)).all()
    assert ((an.place >= 1) & (an.place <= 4)).all()
    policy = an.policy()
    mask = g.action_mask()
    assert policy.shape == (NUM_ACTIONS,) and policy.sum() == pytest.approx(1.0)
    assert not policy[~mask].any()
    assert str(an.actions[0]) in repr(an)
