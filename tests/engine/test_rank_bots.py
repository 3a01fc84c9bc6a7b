"""The Rank bots: each of ``medium``'s habits on a made-up table, ``hard`` choosing among distinct choices only,
and every bot's choice legal over whole seeded matches. (The strength figures come from `parlour simulate`;
docs/performance.md quotes them.)"""

from __future__ import annotations

import random

import pytest

from engine.bots import RandomBot
from engine.cards import Card, Rank, parse_cards
from engine.games.rank.bots import HardRankBot, MediumRankBot, best_name, keeper_choice, medium_choice
from engine.games.rank.rules import DRAW, PASS, Name, Play, RankGame, RankOptions, RankPhase, RankView

GAME = RankGame()


def view(
    hand: str,
    top: str,
    *,
    named: Rank | None = None,
    phase: RankPhase = RankPhase.PLAY,
    pending: int | None = None,
    counts: tuple[int, ...] = (0, 5, 5, 5),
) -> RankView:
    """Seat 0 to move at a four-player table."""
    cards = tuple(parse_cards(hand))
    top_card = Card.parse(top)
    rank = named if top_card.rank is Rank.JOKER else top_card.rank
    return RankView(
        seat=0,
        players=4,
        deal=1,
        deals=5,
        dealer=3,
        hand=cards,
        counts=(len(cards), *counts[1:]),
        top=top_card,
        named=named,
        rank=rank,
        pile=6,
        stock=30,
        to_move=0,
        phase=phase,
        pending=pending,
        out=(),
        penalties=(0, 0, 0, 0),
        winners=(),
    )


def test_medium_keeps_its_hand_connected() -> None:
    # On a 6, with 5 7 9 9: playing the 7 leaves 5, 9, 9, each two from the 7 (ready when the pile comes back
    # round); playing the 5 leaves 7, 9, 9, of which only the 7 is two from the 5.
    table = view("5S 7H 9C 9D", "6D")
    legal = [Play(Card.parse(c)) for c in ("5S", "7H")]
    assert medium_choice(table, legal) == Play(Card.parse("7H"))


def test_medium_saves_an_ace_while_it_has_another_normal_play() -> None:
    table = view("AS 3H 8C", "2D")  # the Ace and the 3 are both normal plays on a 2
    legal = [Play(Card.parse("AS")), Play(Card.parse("3H"))]
    assert medium_choice(table, legal) == Play(Card.parse("3H"))


def test_medium_spends_an_escape_when_stuck_rather_than_drawing() -> None:
    table = view("AS 9H 9C", "5D")
    legal = [Play(Card.parse("AS")), DRAW]
    assert medium_choice(table, legal) == Play(Card.parse("AS"))
    only_draw = view("9H 9C", "5D")
    assert medium_choice(only_draw, [DRAW]) == DRAW


def test_medium_plays_a_joker_that_brings_a_follow_up_and_names_to_fit_it() -> None:
    table = view("JK AS 9H 9C", "5D")
    legal = [Play(Card.parse("JK")), Play(Card.parse("AS")), DRAW]
    assert medium_choice(table, legal) == Play(Card.parse("JK"))
    naming = view("AS 9H 9C", "JK", phase=RankPhase.NAME)
    rank, follow = best_name(naming)
    assert follow is not None and follow.rank is Rank.NINE  # it names an 8 or a 10 and adds a 9
    assert rank in (Rank.EIGHT, Rank.TEN)
    choice = medium_choice(naming, [Name(r) for r in Rank if r is not Rank.JOKER])
    assert choice == Name(rank)


def test_medium_always_adds_the_follow_up() -> None:
    table = view("9H 4C", "JK", named=Rank.EIGHT, phase=RankPhase.FOLLOW)
    assert medium_choice(table, [Play(Card.parse("9H")), PASS]) == Play(Card.parse("9H"))


def test_hard_compares_one_play_per_rank() -> None:
    table = view("7S 7H 5C", "6D")
    legal = [Play(Card.parse(c)) for c in ("5C", "7S", "7H")]
    picks = HardRankBot(GAME).candidates(table, legal)
    assert len(picks) == 2 and {p.card.rank for p in picks if isinstance(p, Play)} == {Rank.FIVE, Rank.SEVEN}


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_bot_choice_is_legal_and_hard_is_reproducible(players: int) -> None:
    bots = [RandomBot(GAME), MediumRankBot(GAME), HardRankBot(GAME)]
    hard = HardRankBot(GAME)
    hard.playouts, hard.horizon = 6, 20  # small: this checks legality, not strength
    bots[2] = hard
    state = GAME.new_match(players, RankOptions(deals=1), random.Random(players))
    steps = 0
    while state.to_move is not None and steps < 400:
        seat = state.to_move
        legal = state.legal_actions()
        bot = bots[seat % 3]
        view_now = state.view(seat)
        action = bot.choose(view_now, legal, random.Random(steps))
        assert action in legal
        if bot is hard:
            assert hard.choose(view_now, legal, random.Random(steps)) == action, "same view and RNG, same choice"
        state.apply(seat, action)
        steps += 1
    assert steps > 20


def test_hard_keeps_an_ace_for_the_finish() -> None:
    hard = HardRankBot(GAME)
    stuck = view("AS 9H 9C", "5D")  # three cards, no normal play: draw, and keep the Ace
    assert hard.choose(stuck, [Play(Card.parse("AS")), DRAW], random.Random(1)) == DRAW
    knock = view("AS 9H 9C", "5D", pending=3, counts=(0, 5, 5, 0))  # seat 3 went out: knock it back in
    assert keeper_choice(knock, [Play(Card.parse("AS")), DRAW]) == Play(Card.parse("AS"))
    finish = view("AS 9H", "5D")  # two cards: the Ace goes now (medium's choice, which hard's search may keep)
    assert keeper_choice(finish, [Play(Card.parse("AS")), DRAW]) == Play(Card.parse("AS"))
    assert hard.endgame(finish) and not hard.endgame(stuck)
