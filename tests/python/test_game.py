# SPDX-License-Identifier: MIT
"""Games from Python agree with the `figaro` command move for move; errors
raise with the engine's message; events, explicit setups and deals, FGN,
views and sampling."""
import subprocess

import pytest

import figaro
from figaro import Action, FigaroError, Game, Setup

CASES = [(3, 1), (3, 77), (4, 7), (4, 12345), (5, 2), (5, 99), (6, 3), (6, 2024),
         (4, 18446744073709551615)]


def cli_record(cmd, players, seed):
    return subprocess.run([cmd, "random-game", "--players", str(players), "--seed", str(seed)],
                          check=True, capture_output=True, text=True).stdout


@pytest.mark.parametrize("players,seed", CASES)
def test_random_game_is_the_commands(figaro_cmd, players, seed):
    assert figaro.random_game(players, seed).to_fgn() == cli_record(figaro_cmd, players, seed)


@pytest.mark.parametrize("players,seed", CASES)
def test_replaying_the_commands_moves_gives_its_record(figaro_cmd, players, seed):
    text = cli_record(figaro_cmd, players, seed)
    moves = [line.split() for line in text.splitlines() if line[:1].isdigit()]
    assert len(moves) > 20
    g = Game(players, seed)
    for seat, action in moves:
        assert g.turn == int(seat)
        assert Action.parse(action, g.turn) in g.legal_actions()
        g.play(action)                 # FGN text; the game deals the next round itself
    assert g.over
    assert g.to_fgn() == text
    # and reading the record gives the same game back
    r = Game.from_fgn(text)
    assert r.to_fgn() == text
    assert r.moves() == g.moves()
    assert r.ranking() == g.ranking()
    assert [r.hands(k) for k in (1, 2, 3)] == [g.hands(k) for k in (1, 2, 3)]


def test_illegal_actions_raise_the_engines_message():
    g = Game(4, 7)            # seat 0 to move; hand R1 R2 B1 B2 B2 G1 G2 Y1 Y2 Y3 P1 P2 P2 RING RING
    before = g.to_fgn()
    with pytest.raises(FigaroError, match=r"^seat 0 has no R3 in hand$") as e:
        g.play("R3>2")
    assert e.value.kind == "input"
    with pytest.raises(FigaroError, match="cannot take: there is no face-up card"):
        g.play(Action.take())
    with pytest.raises(FigaroError, match="a ring is always played in front of oneself"):
        g.play(Action.play("RING", 2))
    with pytest.raises(FigaroError, match="the seats are 0 to 3"):
        g.play(Action.play("R1", 5))
    with pytest.raises(FigaroError, match="is not an action"):
        g.play("R9>1")
    assert g.to_fgn() == before      # nothing was recorded
    for a in ["Y3>0", "take", "G1>3", "P1>0"]:   # seat 1 takes, plays again (R9)
        g.play(a)
    assert g.turn == 3
    with pytest.raises(FigaroError, match=r"^seat 3 cannot play P2 in front of seat 1: seat 0 "
                       r"already has purple$"):
        g.play("P2>1")
    with pytest.raises(FigaroError, match=r"^seat 3 cannot play B2 in front of seat 3: that "
                       r"pile is green \(R6\)$"):
        g.play("B2>3")
    over = figaro.random_game(3, 5)
    with pytest.raises(FigaroError, match="the game is over") as e:
        over.play("take")
    assert e.value.kind == "state"


def test_fgn_errors_carry_the_line():
    text = figaro.random_game(4, 7).to_fgn().replace("1 take", "1 G3>2", 1)
    with pytest.raises(FigaroError) as e:
        Game.from_fgn(text)
    assert e.value.line == text.splitlines().index("1 G3>2") + 1
    assert "G3" in str(e.value)
    with pytest.raises(FigaroError, match="line|figaro"):
        Game.from_fgn("not a record\n")


def test_bad_setups_raise():
    with pytest.raises(FigaroError, match="3 to 6 players, not 7"):
        Game(7, 1)
    with pytest.raises(FigaroError, match="appears twice"):
        Game(setup=Setup(4, roads=[[9, 8, 7], [6, 5, 4], [3, 2, 2]]))
    with pytest.raises(FigaroError, match="must name the colour left out"):
        Game(setup=Setup(3))
    with pytest.raises(FigaroError, match="King must start"):
        Game(setup=Setup(5, king=5))


def test_events_of_a_take_and_of_the_end():
    g = Game(4, 7)
    assert [e.type for e in g.play("Y3>0")] == ["play"]
    ev = g.play("take")
    assert [e.type for e in ev] == ["take", "collect"]
    assert ev[1].seat == 1 and ev[1].count == 1 and ev[1].reason == "take"
    g = figaro.random_game(5, 11)
    last = Game(5, 11)
    events = []
    for _, a in g.moves():
        events += last.play(a)
    types = [e.type for e in events]
    assert types.count("round_end") == 3 and types[-1] == "game_over"
    assert list(events[-1].counts) == last.ranking()
    assert list(events[-1].totals) == [last.road_length(s) for s in range(5)]
    assert types.count("piece") + types.count("no_piece") == 3 * 5


def test_explicit_setup_and_deal():
    setup = Setup(3, king=2, removed="green", roads=[[15, 3], [14, 4], [13, 5]])
    g = Game(setup=setup, names=["Ann", "Bob", "Cy"])
    assert g.phase == "deal" and g.legal_actions() == []
    deck = [c for c in figaro.KINDS for _ in range({"1": 3, "2": 6, "3": 1}.get(c[-1], 0))
            if c[0] != "G" and c[0] != "J"] + ["J1"] * 2 + ["J2"] + ["RING"] * 2
    assert len(deck) == 45
    with pytest.raises(FigaroError, match="R4|hand|deck"):
        g.deal([deck[:14], deck[14:30], deck[30:]])
    g.deal([deck[0:15], " ".join(deck[15:30]), deck[30:45]])
    assert g.turn == 2 and g.view(2).hand == tuple(deck[30:45])
    g.play(g.legal_actions()[0])
    text = g.to_fgn()
    assert "names Ann Bob Cy" in text or "Ann" in text
    again = Game.from_fgn(text)
    assert again.setup == Setup(3, king=2, removed="green", roads=[[15, 3], [14, 4], [13, 5]])
    assert again.names == ["Ann", "Bob", "Cy"] and again.to_fgn() == text


def test_names_a_record_cannot_hold_are_refused():
    """FGN's names line is N words (fgn.md): a name with a space, a '#' (a
    comment) or a control character would make a record that no reader takes
    back, so the names are refused, and the names kept are the old ones."""
    g = Game(4, 1)
    g.names = ["Ann", "Bob", "Cy", "Dee"]
    for bad in ["Ann Lee", "Ann#2", "Ann\x7f", "\u00e9\t", ""]:
        with pytest.raises(FigaroError, match="a name in a record"):
            g.names = [bad, "Bob", "Cy", "Dee"]
        assert g.names == ["Ann", "Bob", "Cy", "Dee"]
    g.names = ["Zo\u00eb", "Bob", "Cy", "Dee"]
    assert Game.from_fgn(g.to_fgn()).names == ["Zo\u00eb", "Bob", "Cy", "Dee"]


def test_views_and_sampling():
    g = Game(5, 31)
    rng = figaro.Rng(1)
    for _ in range(17):
        g.play(g.state.random_action(rng))
    st = g.state
    for seat in range(5):
        v = g.view(seat)
        assert v.hand == st.hand(seat)
        assert v.hand_sizes == st.hand_sizes and v.piles[0].cards == st.piles[0].cards
        others = sorted(c for s in range(5) if s != seat for c in st.hand(s))
        assert sorted(v.unseen) == others
        samples = [v.sample(seed) for seed in range(6)]
        for s in samples:
            assert s.view(seat) == v            # consistent with what the seat knows
            assert s.hand(seat) == st.hand(seat)
        assert len({tuple(s.hand((seat + 1) % 5)) for s in samples}) > 1
        assert v != g.view((seat + 1) % 5)


def test_actions_print_and_parse():
    assert str(Action.play("B2", 3)) == "B2>3" and str(Action.take()) == "take"
    assert Action.parse("ring", 4) == Action.play("RING", 4) and str(Action.parse("RING", 4)) == "RING"
    assert Action.parse("j1>0").kind == "J1" and Action.parse("j1>0").target == 0
    with pytest.raises(FigaroError):
        Action.parse("RING")            # no actor: the target is unknown
