"""Big Two's fast paths give what the plain definitions give (issue 12: the engine 8x a reference engine).

``legal_actions`` reads singles, pairs and triples from tables made once and filters five-card hands from the hand
the seat was dealt; ``apply`` checks a listed action on bitmasks. Each is compared here with the plain definition:
the legal actions are the plays of ``legal_plays`` then the pass; a listed play does to the state exactly what the
same cards typed by a person do; a hand's combinations filtered from a bigger hand are those built from scratch.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from big2_helpers import GAME, VARIANT_KEYS, opts, random_positions, snapshot

import engine.registry  # noqa: F401  (registers the games with the codec)
from engine import codec
from engine.errors import NotYourTurnError
from engine.games.big2.rules import (
    PASS,
    Big2State,
    ComboCache,
    HandCombos,
    PassTurn,
    Play,
    _five_card,
    encoding,
    play_of,
)

VARIANT_SETS = [(), *[(key,) for key in VARIANT_KEYS], ("taiwan", "no-play-after-pass")]


def plain_legal_actions(state: Big2State) -> list[object]:
    """The definition the fast ``legal_actions`` must keep: every legal combination, then the pass if allowed."""
    actions: list[object] = [Play(c.cards) for c in state.legal_plays()]
    if state.may_pass:
        actions.append(PASS)
    return actions


@pytest.mark.parametrize("seed", range(4))
def test_legal_actions_are_the_legal_plays_in_order_then_the_pass(seed: int) -> None:
    for state in random_positions(60, seed, VARIANT_SETS, steps=(0, 60)):
        fast = state.legal_actions()
        assert fast == plain_legal_actions(state)
        assert [str(a) for a in fast] == [str(a) for a in plain_legal_actions(state)]


@pytest.mark.parametrize("seed", range(3))
def test_a_listed_play_does_what_the_same_cards_typed_do(seed: int) -> None:
    """The short way (a play that knows its combination, the pass) and the long way (text, a Play of cards in any
    order) leave equal states and make equal events, whatever is chosen."""
    rng = random.Random(seed)
    for state in random_positions(40, seed, VARIANT_SETS, steps=(0, 40)):
        listed = rng.choice(state.legal_actions())
        typed: object = "pass" if listed is PASS else " ".join(str(c) for c in reversed(listed.cards))  # type: ignore[union-attr]
        seat = state.to_move
        short, long = state.clone(), state.clone()
        assert short.apply(seat, listed) == long.apply(seat, typed)  # type: ignore[arg-type]
        assert snapshot(short)[:2] == snapshot(long)[:2]
        assert [codec.dumps(e) for e in short.history] == [codec.dumps(e) for e in long.history]


def test_a_listed_play_is_refused_like_any_other_once_it_is_not_legal() -> None:
    state = random_positions(1, 7, [()], steps=(0, 1))[0]
    seat = state.to_move
    assert seat is not None
    play = state.legal_actions()[0]
    other = (seat + 1) % state.players
    before = snapshot(state)
    with pytest.raises(NotYourTurnError, match="not seat"):
        state.apply(other, play)
    assert snapshot(state) == before


def test_play_of_is_a_play_of_the_same_cards() -> None:
    options = opts()
    hand = HandCombos(encoding(options).mask(GAME.new_match(4, options, random.Random(3)).zones()["hand 0"]), options)
    for combo in hand.all():
        made = play_of(combo)
        plain = Play(combo.cards)
        assert made == plain and hash(made) == hash(plain) and str(made) == str(plain)
        assert codec.dumps(made) == codec.dumps(plain)
        assert pickle.loads(pickle.dumps(play_of(combo))) == plain
        assert copy.deepcopy(play_of(combo)) == plain


def test_there_is_one_pass() -> None:
    assert PassTurn() is PASS
    assert codec.decode(codec.encode(PASS)) is PASS
    assert pickle.loads(pickle.dumps(PASS)) is PASS and copy.deepcopy(PASS) is PASS
    assert PassTurn() == PASS and hash(PassTurn()) == hash(PASS)


def test_the_cache_keeps_a_hands_combinations() -> None:
    options = opts()
    cache = ComboCache()
    dealt = sum(1 << v for v in range(0, 52, 4))
    hand = cache.get(dealt, options)
    assert hand.mask == dealt and hand is cache.get(dealt, options)
    assert hand.of_size(5) == HandCombos(dealt, options).of_size(5)


@pytest.mark.parametrize("suits", ["seed", "standard"])
def test_the_five_card_hands_that_hold_a_card_are_the_hands_of_the_whole_hand_that_hold_it(suits: str) -> None:
    """The first play of a deal makes only the five-card hands holding the card that must open, in the order the
    whole hand's list has them."""
    rng = random.Random(21)
    checked = 0
    for _ in range(400):
        mask = sum(1 << v for v in rng.sample(range(52), rng.choice((13, 13, 17, 20))))
        must = 1 << rng.choice([v for v in range(52) if mask >> v & 1])
        whole = sorted(_five_card(mask, suits), key=lambda c: c.key)
        held = sorted(_five_card(mask, suits, must), key=lambda c: c.key)
        assert held == [c for c in whole if c.mask & must]
        checked += bool(held)
    assert checked > 50


@pytest.mark.parametrize("suits", ["seed", "standard"])
def test_the_five_card_hands_above_a_table_are_the_top_of_the_whole_list(suits: str) -> None:
    """A follow of a five-card hand that has no list to filter builds only the hands above the table's key: sorted,
    they are the end of the whole hand's sorted list, for a table of every kind (and keys between the kinds)."""
    rng = random.Random(22)
    checked = 0
    for _ in range(300):
        mask = sum(1 << v for v in rng.sample(range(52), rng.choice((7, 9, 11, 13, 13, 17))))
        whole = sorted(_five_card(mask, suits), key=lambda c: c.key)
        for above in sorted({c.key for c in whole} | {999, 1003, 2025, 3006, 4011, 5017, 5039}):
            top = sorted(_five_card(mask, suits, above=above), key=lambda c: c.key)
            assert top == [c for c in whole if c.key > above]
            checked += bool(top) and len(top) < len(whole)
    assert checked > 100


@pytest.mark.parametrize("seed", range(3))
def test_the_seat_to_move_is_kept_beside_the_turn(seed: int) -> None:
    """``to_move`` is a plain attribute, written wherever the turn moves: it is the turn until the match ends, then
    None, after every kind of move, in every variant, with 2 to 4 players and over several deals; a copy, a clone
    and a state sampled from a seat's view keep it too."""
    rng = random.Random(seed)
    for variants in VARIANT_SETS:
        state = GAME.new_match(rng.randrange(2, 5), opts(*variants, deals=2), random.Random(rng.random()))
        while True:
            assert state.to_move == (None if state.progress.over else state.turn)
            for other in (state.clone(), copy.copy(state), GAME.determinize(state.view(state.turn), rng)):
                assert other.to_move == (None if other.progress.over else other.turn)
            if state.is_over:
                break
            legal = state.legal_actions()
            # Now and then an action the long way (the same cards, typed), which must move the turn the same.
            action = rng.choice(legal)
            if isinstance(action, Play) and rng.random() < 0.2:
                action = Play(action.cards)
            state.apply(state.turn, action)
        assert state.to_move is None and state.legal_actions() == []
