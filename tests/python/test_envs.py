# SPDX-License-Identifier: MIT
"""figaro.envs: the Gymnasium and PettingZoo contracts. Debian 12 packages
neither gymnasium nor pettingzoo, so these tests replay the checks of their
own API tests (gymnasium.utils.env_checker.check_env, pettingzoo.test.
api_test and seed_test): the types and spaces of what reset, step, observe
and last return, seeding and determinism, masks, done agents stepped with
None, and the end of a game."""
import numpy as np
import pytest

import figaro
from figaro import FigaroError, Game, NUM_ACTIONS, OBS_SIZE
from figaro.envs import FigaroAEC, FigaroGym, spaces


def gym_episode(env, seed, policy_seed):
    """One game from reset(seed=) with actions sampled by the action space
    under the mask; returns every (obs, reward, terminated, info) seen."""
    env.action_space.seed(policy_seed)
    obs, info = env.reset(seed=seed)
    out = [(obs, 0.0, False, info)]
    terminated = False
    while not terminated:
        action = env.action_space.sample(mask=info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        assert truncated is False
        out.append((obs, reward, terminated, info))
    return out


def test_gym_contract():
    env = FigaroGym(players=4, seat=2, opponents="greedy", render_mode="ansi")
    # spaces (check_env: check_spaces)
    assert isinstance(env.observation_space, spaces.Box)
    assert isinstance(env.action_space, spaces.Discrete)
    assert env.observation_space.shape == (OBS_SIZE,) and env.action_space.n == NUM_ACTIONS
    assert env.observation_space.dtype == np.float32
    # reset (check_reset_return_type, check_reset_seed, check_reset_options)
    obs, info = env.reset(seed=11)
    assert isinstance(obs, np.ndarray) and isinstance(info, dict)
    assert obs.dtype == np.float32 and obs in env.observation_space
    again, _ = env.reset(seed=11)
    assert np.array_equal(obs, again)
    assert np.array_equal(obs, Game(4, 11).observation(2)) or Game(4, 11).turn != 2
    other, _ = env.reset(seed=12)
    assert not np.array_equal(obs, other)
    env.reset(seed=11, options={})
    assert isinstance(env.np_random, np.random.Generator)
    # info carries the mask, int8 as Discrete.sample(mask=) takes it
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,) and mask.sum() > 0
    assert np.array_equal(mask.astype(bool), env.action_masks())
    # step (check_step_determinism, the passive checker's types), whole episodes
    first = gym_episode(env, 5, 1)
    second = gym_episode(env, 5, 1)
    assert len(first) == len(second) > 5
    for (o1, r1, t1, i1), (o2, r2, t2, i2) in zip(first, second):
        assert np.array_equal(o1, o2) and r1 == r2 and t1 == t2
        assert np.array_equal(i1["action_mask"], i2["action_mask"])
    for obs, reward, terminated, info in first:
        assert obs in env.observation_space and isinstance(reward, float)
        assert isinstance(terminated, bool)
    assert all(r == 0.0 for _, r, _, _ in first[:-1])
    final_obs, final_reward, _, final_info = first[-1]
    assert final_reward in (1.0, 1 / 3, -1 / 3, -1.0) or final_reward == pytest.approx(1 / 3) \
        or final_reward == pytest.approx(-1 / 3)
    assert not final_info["action_mask"].any()
    assert final_obs[9] == 1.0                       # phase one-hot: over
    # the game and the text of what the seat knows
    text = env.render()
    assert isinstance(text, str) and "seat 2's view" in text and "over" in text
    with pytest.raises(FigaroError, match="over"):
        env.step(0)
    env.close()


def test_gym_reset_without_seed_plays_the_next_games():
    env = FigaroGym(players=3, seat=0, opponents="random")
    a, ia = env.reset(seed=40)
    b, ib = env.reset()
    c, ic = env.reset()
    assert ia["game_seed"] == 40
    assert ib["game_seed"] == figaro.seed_derive(40, 2, 1)
    assert ic["game_seed"] == figaro.seed_derive(40, 2, 2)
    fresh = FigaroGym(players=3, seat=0, opponents="random")
    assert fresh.reset()[1]["game_seed"] == figaro.seed_derive(0, 2, 1)   # never seeded: 0
    with pytest.raises(FigaroError):
        env.reset(seed=-1)


def test_gym_refuses_what_it_should():
    env = FigaroGym(players=4, seat=0)
    with pytest.raises(FigaroError, match="reset"):
        env.step(0)
    obs, info = env.reset(seed=3)
    illegal = next(i for i in range(NUM_ACTIONS) if not info["action_mask"][i] and i % 6 < 4)
    with pytest.raises(FigaroError, match="^game 0: seat 0"):
        env.step(illegal)
    with pytest.raises(TypeError):
        env.step(1.0)
    obs2, *_ = env.step(np.int64(int(np.flatnonzero(info["action_mask"])[0])))
    assert obs2 in env.observation_space
    for bad in [dict(players=7), dict(seat=4), dict(opponents="nobot"),
                dict(render_mode="human")]:
        with pytest.raises((FigaroError, TypeError)):
            FigaroGym(**bad)


def aec_play(env, seed, policy_seed):
    """The loop of pettingzoo's api_test: agent_iter, last, sample under the
    mask, None for done agents. Returns the trajectory and the final rewards."""
    env.reset(seed=seed)
    for a in env.possible_agents:
        env.action_space(a).seed(policy_seed)
    trajectory, final = [], {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        assert agent == env.agent_selection
        assert obs in env.observation_space(agent)
        assert isinstance(reward, float) and isinstance(info, dict)
        assert truncation is False
        if termination:
            final[agent] = reward
            action = None
        else:
            assert obs["action_mask"].any()
            # only the agent to move has legal actions
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            action = env.action_space(agent).sample(mask=obs["action_mask"])
            assert obs["action_mask"][action] == 1
        trajectory.append((agent, obs["observation"].copy(), action))
        env.step(action)
    return trajectory, final


def test_aec_contract():
    env = FigaroAEC(players=5, render_mode="ansi")
    assert env.possible_agents == ["player_%d" % s for s in range(5)]
    # the spaces are the same objects each call (api_test)
    for a in env.possible_agents:
        assert env.observation_space(a) is env.observation_space(a)
        assert env.action_space(a) is env.action_space(a)
    assert env.reset(seed=9) is None
    assert env.agents == env.possible_agents and env.num_agents == env.max_num_agents == 5
    g = Game(5, 9)
    assert env.agent_selection == "player_%d" % g.turn
    obs = env.observe(env.agent_selection)
    assert set(obs) == {"observation", "action_mask"}
    assert obs["action_mask"].dtype == np.int8
    assert np.array_equal(obs["observation"], g.observation(g.turn))
    assert np.array_equal(obs["action_mask"].astype(bool), g.action_mask())
    # an observation handed out is not changed by later steps
    kept = obs["observation"].copy()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert np.array_equal(obs["observation"], kept)
    assert "view" in env.render()
    # whole games: every agent is stepped with None once done, then removed
    trajectory, final = aec_play(env, 21, 3)
    assert env.agents == [] and len(trajectory) > 50
    assert sorted(final) == env.possible_agents
    assert sorted(final.values()) == pytest.approx([-1, -0.5, 0, 0.5, 1])
    assert sum(final.values()) == pytest.approx(0)
    assert dict(zip(env.possible_agents, env.game.rewards())) == pytest.approx(final)
    assert env.game.over


def test_aec_seeding_is_deterministic():
    """pettingzoo.test.seed_test: two environments, one seed, one trajectory."""
    t1, f1 = aec_play(FigaroAEC(players=3), 77, 5)
    t2, f2 = aec_play(FigaroAEC(players=3), 77, 5)
    assert len(t1) == len(t2)
    for (a1, o1, x1), (a2, o2, x2) in zip(t1, t2):
        assert a1 == a2 and np.array_equal(o1, o2) and x1 == x2
    assert f1 == f2
    t3, _ = aec_play(FigaroAEC(players=3), 78, 5)
    assert [a for a, _, _ in t3] != [a for a, _, _ in t1] or \
        any(not np.array_equal(x[1], y[1]) for x, y in zip(t1, t3))


def test_aec_refuses_what_it_should():
    env = FigaroAEC(players=4)
    with pytest.raises(FigaroError, match="reset"):
        env.step(0)
    env.reset(seed=4)
    agent = env.agent_selection
    with pytest.raises(FigaroError, match="None is only for an agent that is done"):
        env.step(None)
    mask = env.observe(agent)["action_mask"]
    illegal = next(i for i in range(NUM_ACTIONS) if not mask[i] and i % 6 < 4)
    with pytest.raises(FigaroError):
        env.step(illegal)
    with pytest.raises(TypeError):
        env.step(True)
    assert env.agent_selection == agent and env.game.moves() == []
    # a done agent takes only None
    while not env.game.over:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    with pytest.raises(ValueError, match="None"):
        env.step(0)
