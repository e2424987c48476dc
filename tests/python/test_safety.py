# SPDX-License-Identifier: MIT
"""Safe, and one meaning for everything: every buffer handed to C
is checked; an int is a mask index everywhere; seeds, seats and indices
follow one rule; rewards and ranking before the end; text of positions; the
errors are FigaroError, ValueError or TypeError with a message."""
import ctypes
import subprocess
import sys

import numpy as np
import pytest

import figaro
from figaro import Action, BatchEnv, FigaroError, Game, NUM_ACTIONS, OBS_SIZE


def test_a_wrong_out_buffer_is_an_error_not_a_crash(root):
    """The crash of the issue, in a loop, in a child interpreter: a SIGSEGV
    shows as a failure instead of ending the test run."""
    code = """
import sys; sys.path.insert(0, %r)
import numpy as np, figaro
g = figaro.Game(4, 1)
for _ in range(2000):
    try:
        g.observation(0, out=np.zeros(1, np.float32))
    except ValueError as e:
        msg = str(e)
print(msg)
""" % (root + "/python",)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "out must hold 187 items, not 1 (shape (1,))\n"


def test_every_out_buffer_is_checked():
    g = Game(4, 1)
    want_obs, want_mask = g.observation(0), g.action_mask()
    bad_obs = [
        (np.zeros(OBS_SIZE, np.float64), TypeError, "dtype float32, not float64"),
        (np.zeros(OBS_SIZE, np.int32), TypeError, "dtype float32"),
        (np.zeros(OBS_SIZE - 1, np.float32), ValueError, "187 items, not 186"),
        (np.zeros(2 * OBS_SIZE, np.float32)[::2], ValueError, "C-contiguous"),
        (np.zeros(OBS_SIZE, np.float32), ValueError, "read-only"),   # made read-only below
        ((ctypes.c_double * OBS_SIZE)(), TypeError, "ctypes array of c_float"),
        ((ctypes.c_float * 10)(), ValueError, "187 items, not 10"),
        ([0.0] * OBS_SIZE, TypeError, "numpy array of float32"),
        (bytearray(4 * OBS_SIZE), TypeError, "not bytearray"),
    ]
    bad_obs[4][0].flags.writeable = False
    for buf, exc, match in bad_obs:
        before = bytes(buf) if not isinstance(buf, list) else None
        with pytest.raises(exc, match=match):
            g.observation(0, out=buf)
        with pytest.raises(exc, match=match):
            g.view(1).observation(out=buf)
        if before is not None:
            assert bytes(buf) == before          # nothing was written
    for buf, exc, match in [
            (np.zeros(NUM_ACTIONS, np.int64), TypeError, "dtype bool or uint8, not int64"),
            (np.zeros(NUM_ACTIONS - 1, bool), ValueError, "109 items, not 108"),
            (np.zeros((NUM_ACTIONS, 2), bool)[:, 0], ValueError, "C-contiguous"),
            ((ctypes.c_int * NUM_ACTIONS)(), TypeError, "c_ubyte")]:
        with pytest.raises(exc, match=match):
            g.action_mask(out=buf)
    # the right buffers are filled, and returned
    obs = np.full(OBS_SIZE, 7, np.float32)
    assert g.observation(0, out=obs) is obs and np.array_equal(obs, want_obs)
    mask = np.ones(NUM_ACTIONS, np.uint8)
    assert g.action_mask(out=mask) is mask and np.array_equal(mask.astype(bool), want_mask)
    two_d = np.zeros((11, 17), np.float32)            # any shape of the right size
    g.observation(0, out=two_d)
    assert np.array_equal(two_d.ravel(), want_obs)
    c_obs = (ctypes.c_float * OBS_SIZE)()
    g.observation(0, out=c_obs)
    assert list(c_obs) == want_obs.tolist()


def test_an_int_is_a_mask_index_everywhere():
    g = Game(4, 7)
    mask = g.action_mask()
    i = int(mask.argmax())
    expected = g.action_at(i)
    a = g.copy()
    a.play(i)                                # the natural thing to write
    assert a.moves() == [(0, expected)]
    b = g.copy()
    b.play(np.int64(i))                      # numpy integers too
    assert b.moves() == a.moves()
    st = g.state
    st.apply(np.flatnonzero(mask)[-1])
    assert st.view(0).hand != g.view(0).hand
    assert g.state.check(i) is None
    # the engine's code only by name
    code = expected.code
    assert Action.from_code(code) == expected and not isinstance(expected, int)
    c = g.copy()
    c.play(Action.from_code(code))
    assert c.moves() == a.moves()
    # refused: bools, floats, indices outside the mask, illegal indices
    for bad, exc in [(True, TypeError), (1.0, TypeError), (np.float32(3), TypeError),
                     (np.bool_(True), TypeError), (None, TypeError), ([1], TypeError),
                     (-1, FigaroError), (NUM_ACTIONS, FigaroError), (2**70, FigaroError)]:
        with pytest.raises(exc) as e:
            g.play(bad)
        assert str(e.value)
    illegal = next(k for k in range(NUM_ACTIONS) if not mask[k] and k % 6 < 4)
    with pytest.raises(FigaroError, match=r"^seat 0 "):
        g.play(illegal)
    with pytest.raises(TypeError):
        Action(5)
    with pytest.raises(TypeError):
        g.action_index(5)
    with pytest.raises(TypeError):
        g.action_at(2.0)
    assert g.moves() == []                   # nothing was played


def test_batch_seat_is_validated_and_self_play_is_explicit():
    with pytest.raises(FigaroError, match="0 to 3, or None for self-play"):
        BatchEnv(2, players=4, seat=-1)
    with pytest.raises(FigaroError, match="0 to 2, or None"):
        BatchEnv(2, players=3, seat=3)
    with pytest.raises(TypeError, match="bool"):
        BatchEnv(2, players=4, seat=True)
    with pytest.raises(TypeError):
        BatchEnv(2, players=4.0)
    with pytest.raises(TypeError):
        BatchEnv(2.5)
    with pytest.raises(FigaroError, match="at least one game"):
        BatchEnv(0)
    env = BatchEnv(3, players=5, seat=None, autoreset=False)
    env.reset([1, 2, 3])
    seen = np.zeros((3, 5))
    while not (env.turn == -1).all():
        _, rewards, done, mask = env.step(env.mask.argmax(axis=1))
        assert rewards.shape == (3, 5)
        seen[done] = rewards[done]
    for i in range(3):               # every seat's reward: the ranking's
        assert sorted(seen[i]) == pytest.approx([-1, -0.5, 0, 0.5, 1])


def test_rewards_are_zero_and_ranking_refused_before_the_end():
    g = Game(4, 3)
    assert g.rewards() == [0.0] * 4
    with pytest.raises(FigaroError, match="not over") as e:
        g.ranking()
    assert e.value.kind == "state"
    over = figaro.random_game(4, 3)
    ranking = over.ranking()
    assert sorted(ranking) == [0, 1, 2, 3]
    rewards = over.rewards()
    assert [rewards[s] for s in ranking] == pytest.approx([1, 1 / 3, -1 / 3, -1])
    assert over.turn == -1 and over.state.turn == -1 and over.view(0).turn == -1


def test_seeds_follow_one_rule():
    top = 2**64 - 1
    for bad, exc in [(2**64, FigaroError), (-1, FigaroError), (1.0, TypeError),
                     (True, TypeError), ("7", TypeError), (None, FigaroError)]:
        with pytest.raises(exc):
            Game(4, bad)
        if bad is not None:
            with pytest.raises(exc):
                BatchEnv(1, players=4).reset([bad])
            with pytest.raises(exc):
                figaro.Rng(bad)
            with pytest.raises(exc):
                figaro.Bot("random", seed=bad)
            with pytest.raises(exc):
                Game(4, 1).view(0).sample(bad)
    with pytest.raises(FigaroError, match=r"seed must be 0 to 18446744073709551615, not -1"):
        Game(4, -1)
    # the largest seed and numpy integers are the same game everywhere
    env = BatchEnv(2, players=4, seat=None)
    obs, _ = env.reset([top, np.uint64(top)])
    g = Game(4, np.uint64(top))
    assert g.to_fgn() == Game(4, top).to_fgn() != Game(4, 0).to_fgn()
    assert np.array_equal(obs[0], g.observation()) and np.array_equal(obs[1], obs[0])


def test_text_of_positions_and_information_states():
    g = Game(4, 12345, names=["Ann", "Bob", "Cy", "Di"])
    rng = figaro.Rng(5)
    for _ in range(9):
        g.play(g.state.random_action(rng))
    st = g.state
    text = str(st)
    assert "round 1 of 3, play, seat %d to move" % g.turn in text
    for s in range(4):
        assert "hand " + " ".join(st.hand(s)) in text
    assert "Ann Bob Cy Di" in str(g) and text in str(g) and "seed 12345" in repr(g)
    assert repr(st).startswith("<figaro.State 4 players")
    me = g.turn
    v = g.view(me)
    info = g.information_state_string(me)
    assert info == str(v) == v.information_state_string() == st.information_state_string(me)
    assert "hand " + " ".join(st.hand(me)) in info
    for s in range(4):
        if s != me:          # no other hand in the seat's text
            n = len(st.hand(s))
            assert "seat %d: %d card%s |" % (s, n, "" if n == 1 else "s") in info
    # the same for every state the seat cannot tell apart, different for another seat
    for seed in range(5):
        assert v.sample(seed).information_state_string(me) == info
    assert g.information_state_string((me + 1) % 4) != info
    assert len({v.sample(seed) for seed in range(5)}) > 1      # different states ...
    # State is hashable, equal states hash alike
    copies = {st, st.copy(), g.state}
    assert len(copies) == 1 and hash(st) == hash(st.copy())
    over = figaro.random_game(3, 8)
    assert "over" in str(over.state) and "to move" not in str(over.state)


def test_errors_are_figaro_value_or_type_errors():
    g = Game(4, 1)
    calls = [lambda: g.view("0"), lambda: g.view(4), lambda: g.view(-1), lambda: g.view(1.0),
             lambda: g.observation("x"), lambda: g.state.hand(9), lambda: g.hands(0),
             lambda: g.hands("1"), lambda: g.moves(4), lambda: g.road_length(7),
             lambda: g.state.roads(None), lambda: g.deal(), lambda: Game("4", 1),
             lambda: Game(players=4), lambda: Game(setup="x"), lambda: Game.from_fgn(3),
             lambda: Game(setup=figaro.Setup(4, king="a")),
             lambda: Game(setup=figaro.Setup(4, king=9)),
             lambda: Action.parse(5), lambda: Action.parse("R1>1", actor=9),
             lambda: Action.play("R9", 1), lambda: Action.from_code(-3),
             lambda: Action.from_code(0xFFFF), lambda: figaro.kind_index(3),
             lambda: figaro.seed_derive(1, -1, 0), lambda: g.state.random_action(3),
             lambda: figaro.Bot(3), lambda: figaro.Bot("greedy").choose("g"),
             lambda: figaro.play_game(g, "abcd"), lambda: BatchEnv(1).reset(5),
             lambda: BatchEnv(1).reset("ab"), lambda: BatchEnv(1, opponents=3),
             lambda: BatchEnv(1, seat=None, opponents="greedy"),
             lambda: BatchEnv(1, opponents="nobot"), lambda: BatchEnv(1).state(3), lambda: setattr(g, "names", ["a", 2, "c", "d"])]
    for call in calls:
        with pytest.raises((FigaroError, ValueError, TypeError)) as e:
            call()
        assert type(e.value) in (FigaroError, ValueError, TypeError), call
        assert str(e.value), call
