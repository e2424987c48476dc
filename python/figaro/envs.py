# SPDX-License-Identifier: MIT
"""Figaro in the APIs learning programs already use (docs/python.md):

    FigaroGym  the Gymnasium single-agent contract: one seat is yours, the
               others are played in C by bots (opponents="greedy", any bot
               spec, "random");
    FigaroAEC  the PettingZoo AEC contract: every seat an agent.

Neither needs gymnasium or pettingzoo. When they can be imported, their
spaces and base classes are used (gymnasium.Env, pettingzoo.AECEnv,
gymnasium.spaces); otherwise this module's small stand-ins with the same
names and behaviour (`figaro.envs.spaces.Box`, `Discrete`, `Dict`). numpy is
needed here (gymnasium needs it too).

Seeds, as everywhere in figaro: reset(seed=S) plays the game Game(players,
S); each later reset() without a seed plays the next game of that seed,
seed_derive(S, 2, k) for the k-th (k = 1, 2, ...); an environment never
seeded starts from S = 0. Every random choice, the bots' included, follows.
"""

import numpy as np

from . import _check
from .env import BatchEnv
from .game import NUM_ACTIONS, OBS_SIZE, FigaroError, Game, seed_derive

try:                                    # the real ones when installed
    import gymnasium as _gym
    from gymnasium import spaces as _gym_spaces
except ImportError:
    _gym = None
try:
    from pettingzoo import AECEnv as _AECEnv
except ImportError:
    _AECEnv = None

RESEED_SALT = 2     # seed_derive(S, RESEED_SALT, k): the k-th game after reset(seed=S)

if _gym is None:
    class spaces:                        # noqa: N801 - stands for gymnasium's module
        """The parts of gymnasium.spaces these environments use."""

        class Space:
            def __init__(self, shape, dtype, seed=None):
                self.shape, self.dtype = shape, np.dtype(dtype)
                self._np_random = None
                if seed is not None:
                    self.seed(seed)

            @property
            def np_random(self):
                if self._np_random is None:
                    self.seed()
                return self._np_random

            def seed(self, seed=None):
                self._np_random = np.random.default_rng(seed)
                return [seed]

            def __contains__(self, x):
                return self.contains(x)

        class Box(Space):
            def __init__(self, low, high, shape, dtype=np.float32, seed=None):
                super().__init__(tuple(shape), dtype, seed)
                self.low = np.full(self.shape, low, dtype=self.dtype)
                self.high = np.full(self.shape, high, dtype=self.dtype)

            def contains(self, x):
                if not isinstance(x, np.ndarray):
                    try:
                        x = np.asarray(x, dtype=self.dtype)
                    except (ValueError, TypeError):
                        return False
                return bool(np.can_cast(x.dtype, self.dtype) and x.shape == self.shape and
                            np.all(x >= self.low) and np.all(x <= self.high))

            def sample(self, mask=None):
                if self.dtype.kind in "iub":
                    return self.np_random.integers(self.low, self.high, endpoint=True,
                                                   dtype=self.dtype)
                high = np.where(np.isinf(self.high), self.low + 1.0, self.high)
                return self.np_random.uniform(self.low, high).astype(self.dtype)

            def __eq__(self, other):
                return isinstance(other, spaces.Box) and self.shape == other.shape and \
                    self.dtype == other.dtype and np.array_equal(self.low, other.low) and \
                    np.array_equal(self.high, other.high)

            def __repr__(self):
                return "Box(%s, %s, %s, %s)" % (self.low.min(), self.high.max(), self.shape,
                                                self.dtype)

        class Discrete(Space):
            def __init__(self, n, seed=None, start=0):
                super().__init__((), np.int64, seed)
                self.n, self.start = int(n), int(start)

            def contains(self, x):
                if isinstance(x, (bool, np.bool_)):
                    return False
                if isinstance(x, np.ndarray) and x.shape == () and x.dtype.kind in "iu":
                    x = int(x)
                return isinstance(x, (int, np.integer)) and \
                    self.start <= int(x) < self.start + self.n

            def sample(self, mask=None):
                if mask is not None:
                    mask = np.asarray(mask)
                    if mask.dtype != np.int8 or mask.shape != (self.n,):
                        raise ValueError("the mask of a Discrete(%d) is %d int8" % (
                            self.n, self.n))
                    legal = np.flatnonzero(mask)
                    if legal.size == 0:
                        return np.int64(self.start)
                    return np.int64(self.start + self.np_random.choice(legal))
                return np.int64(self.start + self.np_random.integers(self.n))

            def __eq__(self, other):
                return isinstance(other, spaces.Discrete) and (self.n, self.start) == (
                    other.n, other.start)

            def __repr__(self):
                return "Discrete(%d)" % self.n

        class Dict(Space):
            def __init__(self, parts, seed=None):
                super().__init__(None, np.float32, None)
                self.spaces = dict(parts)
                if seed is not None:
                    self.seed(seed)

            def seed(self, seed=None):
                seeds = np.random.SeedSequence(seed).spawn(len(self.spaces))
                for space, s in zip(self.spaces.values(), seeds):
                    space.seed(int(s.generate_state(1)[0]))
                return [seed]

            def __getitem__(self, key):
                return self.spaces[key]

            def contains(self, x):
                return isinstance(x, dict) and x.keys() == self.spaces.keys() and \
                    all(x[k] in space for k, space in self.spaces.items())

            def sample(self, mask=None):
                return {k: space.sample() for k, space in self.spaces.items()}

            def __eq__(self, other):
                return isinstance(other, spaces.Dict) and self.spaces == other.spaces

            def __repr__(self):
                return "Dict(%s)" % ", ".join("%r: %r" % kv for kv in self.spaces.items())

    class _GymBase:
        """What gymnasium.Env gives an environment: np_random, unwrapped, a
        with block, reset(seed=) seeding np_random."""
        metadata = {"render_modes": []}
        render_mode = None
        spec = None
        _np_random = None

        @property
        def np_random(self):
            if self._np_random is None:
                self._np_random = np.random.default_rng(0)
            return self._np_random

        def reset(self, *, seed=None, options=None):
            if seed is not None:
                self._np_random = np.random.default_rng(seed)

        @property
        def unwrapped(self):
            return self

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.close()
            return False
else:
    spaces = _gym_spaces
    _GymBase = _gym.Env


def _observation_space():
    # counts and lengths over fixed scales: 0 and up (an explicit setup's
    # roads may exceed the usual scale), never negative
    return spaces.Box(0.0, np.inf, (OBS_SIZE,), np.float32)


class _Seeds:
    """The seed rule of the module's docstring."""

    def __init__(self):
        self.base, self.k = 0, 0

    def next(self, seed):
        if seed is not None:
            self.base, self.k = _check.seed(seed), 0
            return self.base
        self.k += 1
        return seed_derive(self.base, RESEED_SALT, self.k)


class FigaroGym(_GymBase):
    """FigaroGym(players=4, seat=0, opponents="greedy", render_mode=None)

    The Gymnasium contract for one seat of a game whose other seats are
    played in C by `opponents` (a bot spec, docs/bots.md: "greedy",
    "ismcts:iters=200", "normal", or "random"). reset(seed=) -> (obs,
    info); step(action) -> (obs, reward, terminated, truncated, info).
    obs is the seat's observation vector (float32, OBS_SIZE), action an
    index of the action mask (Discrete(NUM_ACTIONS)); info["action_mask"]
    is the mask (int8, as Discrete.sample(mask=) takes it; all 0 once the
    game is over). The reward is 0 until the step that ends the game, then
    +1 for the winner down to -1 for the last; truncated is always False.
    An illegal action raises FigaroError and changes nothing. The
    observation returned at the end is the finished game from the seat."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, players=4, seat=0, opponents="greedy", render_mode=None):
        players = _check.players(players)
        seat = _check.seat(seat, players)
        if render_mode not in (None, "ansi"):
            raise FigaroError("render_mode is None or 'ansi', not %r" % (render_mode,))
        self.players, self.seat, self.opponents = players, seat, opponents
        self.render_mode = render_mode
        self._env = BatchEnv(1, players=players, seat=seat, autoreset=False,
                             opponents=opponents)
        self.observation_space = _observation_space()
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._seeds = _Seeds()
        self._started = False
        self._over = False

    def _info(self):
        return {"action_mask": self._env.mask[0].astype(np.int8),
                "game_seed": self._env.game_seeds()[0]}

    def reset(self, *, seed=None, options=None):
        game_seed = self._seeds.next(seed)     # checked first: one rule for seeds
        super().reset(seed=seed)
        obs, _ = self._env.reset([game_seed])
        self._started, self._over = True, False
        return obs[0].copy(), self._info()

    def step(self, action):
        if not self._started:
            raise FigaroError("reset the environment before stepping it", "state")
        if self._over:
            raise FigaroError("the game is over: reset the environment", "state")
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action[()]
        index = _check.integer(action, "action")
        obs, rewards, done, _ = self._env.step([index])
        self._over = bool(done[0])
        out = self._env.final_obs[0] if self._over else obs[0]
        return out.copy(), float(rewards[0]), self._over, False, self._info()

    def action_masks(self):
        """The current mask as bools (the name sb3-contrib's MaskablePPO calls)."""
        return self._env.mask[0].copy()

    def render(self):
        """'ansi': the seat's information state as text (what it knows)."""
        if self.render_mode == "ansi" and self._started:
            return self._env.state(0).information_state_string(self.seat)
        return None

    def close(self):
        self._env.close()


if _AECEnv is None:
    class _AECBase:
        """What pettingzoo.AECEnv gives an environment: agent_iter, last, the
        removal of a done agent by step(None), reward bookkeeping."""
        metadata = {}
        possible_agents = []
        agents = []

        @property
        def num_agents(self):
            return len(self.agents)

        @property
        def max_num_agents(self):
            return len(self.possible_agents)

        @property
        def unwrapped(self):
            return self

        def agent_iter(self, max_iter=2**63):
            """The agent to act, while there are agents (at most max_iter)."""
            n = 0
            while self.agents and n < max_iter:
                yield self.agent_selection
                n += 1

        def last(self, observe=True):
            agent = self.agent_selection
            obs = self.observe(agent) if observe else None
            return (obs, self._cumulative_rewards[agent], self.terminations[agent],
                    self.truncations[agent], self.infos[agent])

        def _clear_rewards(self):
            for agent in self.rewards:
                self.rewards[agent] = 0

        def _accumulate_rewards(self):
            for agent, reward in self.rewards.items():
                self._cumulative_rewards[agent] += reward

        def _was_dead_step(self, action):
            if action is not None:
                raise ValueError("when an agent is done, the only valid action is None")
            agent = self.agent_selection
            for d in (self.terminations, self.truncations, self.rewards,
                      self._cumulative_rewards, self.infos):
                del d[agent]
            self.agents.remove(agent)
            dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
            if dead:
                self.agent_selection = dead[0]
            self._clear_rewards()

        def __str__(self):
            return self.metadata.get("name", type(self).__name__)
else:
    _AECBase = _AECEnv


class FigaroAEC(_AECBase):
    """FigaroAEC(players=4, render_mode=None)

    The PettingZoo AEC contract: agents "player_0" ... (agent k is seat k),
    agent_selection the seat to move; observe(agent) -> {"observation":
    float32 OBS_SIZE, "action_mask": int8 NUM_ACTIONS (all 0 but for the
    agent to move)}; step(index) plays a mask index for agent_selection
    (FigaroError if illegal), step(None) removes an agent that is done.
    Rewards are 0 until the game ends, then every seat's, +1 for the winner
    down to -1; all agents terminate together, truncation never happens.
    The game itself is `env.game` (a figaro.Game: every hand, not for the
    agents' eyes)."""

    metadata = {"render_modes": ["ansi"], "name": "figaro_v0", "is_parallelizable": False,
                "render_fps": 4}

    def __init__(self, players=4, render_mode=None):
        players = _check.players(players)
        if render_mode not in (None, "ansi"):
            raise FigaroError("render_mode is None or 'ansi', not %r" % (render_mode,))
        self.render_mode = render_mode
        self.players = players
        self.possible_agents = ["player_%d" % s for s in range(players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: spaces.Dict({
            "observation": _observation_space(),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seeds = _Seeds()
        self.game = None
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self.game = Game(self.players, self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.turn]

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self.game.turn == seat:
            mask[self.game.action_mask()] = 1
        return {"observation": self.game.observation(seat), "action_mask": mask}

    def step(self, action):
        if self.game is None:
            raise FigaroError("reset the environment before stepping it", "state")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        if action is None:
            raise FigaroError("%s is to move: None is only for an agent that is done" % agent)
        self._cumulative_rewards[agent] = 0.0
        self.game.play(action)                 # an int: a mask index; checked by the engine
        self._clear_rewards()
        if self.game.over:
            for a, r in zip(self.possible_agents, self.game.rewards()):
                self.rewards[a] = r
                self.terminations[a] = True
            seat = self.agent_name_mapping[agent]
            self.agent_selection = self.possible_agents[(seat + 1) % self.players]
        else:
            self.agent_selection = self.possible_agents[self.game.turn]
        self._accumulate_rewards()

    def render(self):
        """'ansi': the information state of the agent to move as text."""
        if self.render_mode == "ansi" and self.game is not None:
            seat = self.agent_name_mapping[self.agent_selection]
            return self.game.information_state_string(seat)
        return None

    def close(self):
        pass
