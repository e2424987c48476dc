# SPDX-License-Identifier: MIT
"""The built-in bots from Python: they play legal games, are reproducible
from their seed, see only their own seat (R14), and refuse bad specs."""
import pytest

import figaro
from figaro import Bot, FigaroError, Game, play_game


def test_greedy_and_ismcts_play_whole_games():
    for players, seed in [(3, 2), (4, 3), (6, 4)]:
        g = Game(players, seed)
        bots = [Bot("greedy", seed=s) if s % 2 else Bot("ismcts:iters=150", seed=s)
                for s in range(players)]
        ranking = play_game(g, bots)
        assert g.over and sorted(ranking) == list(range(players))
        assert all(b.overrules == 0 for b in bots)
        assert Game.from_fgn(g.to_fgn()).to_fgn() == g.to_fgn()
        for b in bots:
            b.close()


def test_bots_are_reproducible_from_their_seed():
    def record(seed):
        g = Game(4, 77)
        with Bot("ismcts:iters=100", seed=seed) as a, Bot("greedy", seed=seed) as b:
            play_game(g, [a, b, lambda game: game.legal_actions()[0], b.__class__("random", 1)])
        return g.to_fgn()
    assert record(5) == record(5)
    assert record(5) != record(6)


def hidden_swap(game, seat, a, b):
    """The same game with one card swapped between the round-1 hands of a and b."""
    hands = [list(h) for h in game.hands(1)]
    ka = next(c for c in hands[a] if c not in hands[b])
    kb = next(c for c in hands[b] if c not in hands[a])
    hands[a][hands[a].index(ka)] = kb
    hands[b][hands[b].index(kb)] = ka
    g = Game(setup=figaro.Setup._from_c(game._c.setup), auto_deal=False)
    g.deal(hands)
    return g


@pytest.mark.parametrize("spec", ["greedy", "ismcts:iters=300"])
def test_a_bot_sees_only_its_seat(spec):
    g = Game(4, 40)
    me = g.turn
    other = hidden_swap(g, me, (me + 1) % 4, (me + 2) % 4)
    assert other.hands(1) != g.hands(1) and other.view(me) == g.view(me)
    with Bot(spec, seed=3) as x, Bot(spec, seed=3) as y:
        assert x.choose(g) == y.choose(other)
        assert x.seat == me


def test_bad_specs_and_turns():
    with pytest.raises(FigaroError, match="'nobot' is not a bot"):
        Bot("nobot")
    with pytest.raises(FigaroError, match="iters"):
        Bot("ismcts:iters=-4")
    g = Game(4, 1)
    with Bot("greedy") as b:
        b.choose(g)                       # the bot takes the seat to move
        g.play(g.legal_actions()[0])
        with pytest.raises(FigaroError, match="turn"):
            b.choose(g)
    with pytest.raises(FigaroError, match="over"):
        Bot("greedy").choose(figaro.random_game(3, 3))
