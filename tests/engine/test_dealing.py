"""Every game refuses a bad scenario or a bad planned deal in the same words (engine/dealing.py, written once): a
dealer that is not a seat, a planned deck that is not the game's deck, starting totals of the wrong length, a card
named more often than the deck holds it. Each a one-sentence OptionError, never a traceback."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from engine.cards import Card
from engine.errors import OptionError
from engine.game import Game, Scenario
from engine.registry import LISTINGS, get_entry

GAMES = [get_entry(known.entries[0][0]).game for known in LISTINGS]


def _game_id(game: Game[Any, Any, Any]) -> str:
    return game.key


def _refused(game: Game[Any, Any, Any], scenario: Scenario) -> str:
    players = game.default_players
    with pytest.raises(OptionError) as caught:
        game.new_match(players, game.options(), random.Random(0), scenario)
    return str(caught.value)


@pytest.mark.parametrize("game", GAMES, ids=_game_id)
def test_a_dealer_that_is_no_seat_is_refused_in_the_same_words(game: Game[Any, Any, Any]) -> None:
    players = game.default_players
    for dealer in (players, -1, True, "0"):
        said = _refused(game, Scenario(dealer=dealer))  # type: ignore[arg-type]
        assert said.startswith(f"the dealer must be a seat from 0 to {players - 1}, not "), said


@pytest.mark.parametrize("game", GAMES, ids=_game_id)
def test_a_planned_deck_that_is_not_the_games_deck_is_refused_in_the_same_words(game: Game[Any, Any, Any]) -> None:
    state = game.new_match(game.default_players, game.options(), random.Random(0))
    deck = state.full_deck()
    short = tuple(deck[1:])
    doubled = (deck[1], *deck[1:])
    for bad in (short, doubled):
        said = _refused(game, Scenario(decks=(bad,)))
        assert said == f"a planned deck must hold exactly the {len(deck)} cards of the game", said
    said = _refused(game, Scenario(decks=("AS 2S",)))  # type: ignore[arg-type]
    assert said.startswith("a planned deck is a sequence of cards, not "), said


@pytest.mark.parametrize("game", GAMES, ids=_game_id)
def test_starting_totals_of_the_wrong_length_are_refused_in_the_same_words(game: Game[Any, Any, Any]) -> None:
    players = game.default_players
    for bad in ((1,) * (players + 1), 7):
        said = _refused(game, Scenario(totals=bad))  # type: ignore[arg-type]
        assert re.fullmatch(rf"[a-z ()]+ are {players} whole numbers, not .+", said), said


@pytest.mark.parametrize("game", GAMES, ids=_game_id)
def test_a_card_named_twice_for_a_deal_is_refused_in_the_same_words(game: Game[Any, Any, Any]) -> None:
    players = game.default_players
    ace = Card.parse("AS")
    copies = game.new_match(players, game.options(), random.Random(0)).full_deck().count(ace) + 1
    assert copies <= players
    hands = [[ace] for _ in range(copies)] + [[] for _ in range(players - copies)]
    with pytest.raises(OptionError) as caught:
        game.deck_for(players, 0, hands, [])
    assert str(caught.value) == "more copies of AS named than the game has, or not a card of it"
