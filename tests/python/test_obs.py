# SPDX-License-Identifier: MIT
"""The observation vector and the action mask from Python (docs/python.md):
nothing hidden leaks, the layout is the documented one, the mask is the legal
set."""
import numpy as np
import pytest

import figaro
from figaro import Game, OBS_SIZE, NUM_ACTIONS

DECK = {"1": 3, "2": 6, "3": 1, "J1": 3, "J2": 2, "RING": 5}


def played_game(players, seed, actions):
    g = Game(players, seed)
    rng = figaro.Rng(seed, 9)
    for _ in range(actions):
        g.play(g.state.random_action(rng))
    return g


@pytest.mark.parametrize("players,seed", [(3, 4), (4, 8), (5, 15), (6, 16)])
def test_two_states_differing_in_another_hand_give_one_observation(players, seed):
    g = played_game(players, seed, 9)
    me = g.turn
    view = g.view(me)
    # Samples of the view: the same for `me`, other hands dealt differently.
    a, b = view.sample(1), view.sample(2)
    other = (me + 1) % players
    assert a.hand(other) != b.hand(other)
    assert a.hand(me) == b.hand(me)
    oa, ob = a.observation(me), b.observation(me)
    assert oa.dtype == np.float32 and oa.shape == (OBS_SIZE,)
    assert np.array_equal(oa, ob)
    assert np.array_equal(oa, g.observation(me))
    # the other seat's own observation does show its hand: not a constant vector
    assert not np.array_equal(a.observation(other), b.observation(other))
    assert np.array_equal(a.action_mask(), b.action_mask())


def test_layout_hand_roads_and_seats():
    g = played_game(4, 21, 6)
    me = g.turn
    o = g.observation(me)
    st = g.state
    assert o[0:4].tolist() == [0, 1, 0, 0]                      # 4 players
    assert o[4 + g.round - 1] == 1 and o[7 + 1] == 1            # round, phase play
    hand = st.hand(me)
    for k, code in enumerate(figaro.KINDS):
        scale = DECK.get(code, DECK.get(code[-1]))
        assert o[16 + k] == pytest.approx(hand.count(code) / scale)
    seats = o[67:].reshape(6, 20)
    for rel in range(4):
        s = (me + rel) % 4
        assert seats[rel, 0] == 1
        assert seats[rel, 1] == (s == me)
        assert seats[rel, 2] == (s == st.king)
        assert seats[rel, 3] == pytest.approx(st.hand_sizes[s] / 15)
        assert seats[rel, 10] == pytest.approx(st.piles[s].total / 5)
    assert not seats[4:].any()
    assert o[52:55].tolist() == pytest.approx([x / 15 for x in st.road_groups[0]])


def test_mask_is_the_legal_set():
    for players, seed in [(3, 1), (5, 2), (6, 3)]:
        g = Game(players, seed)
        rng = figaro.Rng(seed)
        while not g.over:
            legal = g.legal_actions()
            mask = g.action_mask()
            assert mask.dtype == bool and mask.shape == (NUM_ACTIONS,)
            idx = sorted(g.action_index(a) for a in legal)
            assert np.flatnonzero(mask).tolist() == idx
            assert all(g.action_at(g.action_index(a)) == a for a in legal)
            g.play(g.state.random_action(rng))
    with pytest.raises(figaro.FigaroError):
        Game(4, 1).action_at(NUM_ACTIONS)


def test_without_numpy_plain_arrays(tmp_path, root):
    """The package works when numpy cannot be imported."""
    import subprocess
    import sys
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "sys.path.insert(0, %r)\n"
        "import figaro\n"
        "g = figaro.Game(4, 5)\n"
        "o = g.observation(); m = g.action_mask()\n"
        "assert len(o) == figaro.OBS_SIZE and sum(m) == len(g.legal_actions())\n"
        "env = figaro.BatchEnv(3, players=4, seat=None)\n"
        "obs, mask = env.reset([5, 6, 7])\n"
        "assert list(obs[0]) == list(o) and len(obs) == 3 and env.turn[0] == g.turn\n"
        "acts = [next(i for i in range(figaro.NUM_ACTIONS) if mask[r][i]) for r in range(3)]\n"
        "obs, rew, done, mask = env.step(acts)\n"
        "assert len(rew) == 3 and len(rew[0]) == 4\n"
        "g.play(g.action_at(acts[0]))\n"
        "assert list(obs[0]) == list(g.observation()) and env.turn[0] == g.turn\n"
        "print('ok')\n" % (root + "/python",))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "ok\n"
