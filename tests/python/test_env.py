# SPDX-License-Identifier: MIT
"""BatchEnv: the batch and the single-game API agree; illegal actions raise
and change nothing; autoreset; the observations do not leak."""

import numpy as np
import pytest

import figaro
from figaro import BatchEnv, FigaroError, Game, _lib


def env_state(env, i):
    """The C state of row i (for comparing with a single game)."""
    e = _lib.Env.from_buffer(env._envs, i * _lib.core.fig_env_size())
    return bytes(e.st)


@pytest.mark.parametrize("players,seat", [(3, 0), (4, 1), (5, 4), (6, 2)])
def test_batch_agrees_with_single_games(players, seat):
    n = 24
    seeds = [1000 * players + i for i in range(n)]
    env = BatchEnv(n, players=players, seat=seat, autoreset=False)
    obs, mask = env.reset(seeds)
    games = [Game(players, s) for s in seeds]
    opp = [figaro.Rng(s, 4) for s in seeds]     # the batch's opponents draw from stream 4
    pick = np.random.default_rng(players)
    finished = 0

    def to_learner(i):
        g = games[i]
        while not g.over and g.turn != seat:
            g.play(g.state.random_action(opp[i]))

    for i in range(n):
        to_learner(i)
    while finished < n:
        actions = np.zeros(n, dtype=np.int32)
        for i, g in enumerate(games):
            if g.over:
                assert env.turn[i] == -1 and not mask[i].any()
                continue
            assert env.turn[i] == seat
            assert np.array_equal(obs[i], g.observation(seat))
            assert np.array_equal(mask[i], g.action_mask())
            actions[i] = pick.choice(np.flatnonzero(mask[i]))
        obs, rewards, done, mask = env.step(actions)
        assert rewards.shape == (n,)
        for i, g in enumerate(games):
            if g.over:
                continue
            g.play(g.action_at(int(actions[i])))
            to_learner(i)
            assert bool(done[i]) == g.over
            assert rewards[i] == (g.rewards()[seat] if g.over else 0.0)
            if g.over:
                finished += 1
                assert env_state(env, i) == bytes(g.state._c)


def test_self_play_batch_plays_the_commands_games(figaro_cmd):
    import subprocess
    seeds = [5, 6, 7, 8]
    env = BatchEnv(4, players=5, seat=None, autoreset=False)
    obs, mask = env.reset(seeds)
    games = [Game(5, s) for s in seeds]
    rngs = [figaro.Rng(s, 4) for s in seeds]
    while not all(g.over for g in games):
        acts = []
        for i, g in enumerate(games):
            if g.over:
                acts.append(0)
                continue
            assert env.turn[i] == g.turn
            a = g.state.random_action(rngs[i])
            acts.append(g.action_index(a))
            g.play(a)
        obs, rewards, done, mask = env.step(acts)
        assert rewards.shape == (4, 5)
    for i, s in enumerate(seeds):
        ref = subprocess.run([figaro_cmd, "random-game", "--players", "5", "--seed", str(s)],
                             check=True, capture_output=True, text=True).stdout
        assert games[i].to_fgn() == ref
        assert env_state(env, i) == bytes(games[i].state._c)


def test_illegal_actions_raise_and_change_nothing():
    env = BatchEnv(6, players=4, seat=0)
    obs, mask = env.reset(range(6))
    first = mask.argmax(axis=1).astype(np.int32)
    before = bytes(env._envs), obs.copy()
    bad = first.copy()
    bad[2] = next(i for i in range(figaro.NUM_ACTIONS) if not mask[2, i] and i % 6 < 4)
    with pytest.raises(FigaroError, match=r"^game 2: seat 0 "):
        env.step(bad)
    bad[2] = 500
    with pytest.raises(FigaroError, match="500 is not an action index"):
        env.step(bad)
    with pytest.raises(FigaroError, match="6 integers"):
        env.step(first[:5])
    with pytest.raises(TypeError, match="integers"):
        env.step(first.astype(np.float64))
    with pytest.raises(TypeError, match="integer"):
        env.step([0.0] * 6)
    with pytest.raises(FigaroError, match="out of range"):
        env.step(first.astype(np.int64) + (1 << 32))
    assert bytes(env._envs) == before[0] and np.array_equal(obs, before[1])
    env.step(first)                                  # and the legal ones still play
    assert bytes(env._envs) != before[0]
    with pytest.raises(FigaroError, match="3 to 6 players, not 2"):
        BatchEnv(4, players=2)
    with pytest.raises(FigaroError, match="seat must be"):
        BatchEnv(4, players=4, seat=4)
    with pytest.raises(FigaroError, match="reset"):
        BatchEnv(2, players=4).step([0, 0])
    with pytest.raises(FigaroError, match="3 seeds"):
        BatchEnv(2, players=4).reset([1, 2, 3])


def test_autoreset_restarts_from_derived_seeds():
    n = 8
    env = BatchEnv(n, players=3, seat=1, autoreset=True)
    obs, mask = env.reset(range(100, 100 + n))
    ends, wins = 0, 0
    for _ in range(300):
        obs, rewards, done, mask = env.step(mask.argmax(axis=1).astype(np.int32))
        assert (env.turn == 1).all() and mask.any(axis=1).all()
        ends += int(done.sum())
        wins += int((rewards[done] == 1.0).sum())
        assert (rewards[~done] == 0).all()
    assert ends >= 2 * n
    finished = env.games_finished()
    assert sum(finished) == ends
    for i, seed in enumerate(env.game_seeds()):
        assert seed == figaro.seed_derive(100 + i, 0, finished[i])


def test_batch_observations_do_not_leak():
    """Rows whose states differ only in another seat's hand look the same."""
    env = BatchEnv(2, players=4, seat=None, autoreset=False)
    obs, mask = env.reset([9, 9])
    # make row 1 a copy of row 0 with two other seats' hands swapped
    size = _lib.core.fig_env_size()
    e0 = _lib.Env.from_buffer(env._envs, 0)
    e1 = _lib.Env.from_buffer(env._envs, size)
    me = e0.st.turn
    a, b = (me + 1) % 4, (me + 2) % 4
    ka = next(k for k in range(18) if e1.st.hand[a].n[k] and not e1.st.hand[b].n[k])
    kb = next(k for k in range(18) if e1.st.hand[b].n[k] and not e1.st.hand[a].n[k])
    for h, take, give in ((e1.st.hand[a], ka, kb), (e1.st.hand[b], kb, ka)):
        h.n[take] -= 1
        h.n[give] += 1
    for s in (a, b):
        e1.st.present[s] = sum(1 << k for k in range(18) if e1.st.hand[s].n[k])
    assert bytes(e0.st) != bytes(e1.st)
    act = [int(mask[0].argmax())] * 2
    obs, _, _, mask = env.step(act)   # both rows: the same public action
    assert env.turn[0] == env.turn[1] == a
    # seat a's own observation shows its hand ...
    assert not np.array_equal(obs[0], obs[1])
    # ... while every other seat's observation of the two rows is identical
    st0 = figaro.State(_lib.Env.from_buffer(env._envs, 0).st)
    st1 = figaro.State(_lib.Env.from_buffer(env._envs, size).st)
    for seat in range(4):
        same = np.array_equal(st0.observation(seat), st1.observation(seat))
        assert same == (seat not in (a, b))
