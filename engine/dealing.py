"""Dealing, written once for every game: a scenario's first dealer, totals and planned decks checked; a planned deck
laid out from the cards each seat is to be dealt; and the cards a seat has not seen, for a determinized state.

Each game's ``new_match`` and ``deck_for`` use these, so that every game refuses a bad scenario in the same words:

>>> from engine.cards import parse_cards, standard_deck
>>> order = lay_out(2, 1, [parse_cards("AS 2S"), parse_cards("3H")], parse_cards("KD"), standard_deck(), [2, 2])
>>> [str(c) for c in order[:5]], len(order)
(['AS', '3H', '2S', '3S', 'KD'], 52)
>>> first_dealer(4, 7, random.Random(0))
Traceback (most recent call last):
...
engine.errors.OptionError: the dealer must be a seat from 0 to 3, not 7
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.cards import Card
from engine.errors import OptionError, echo

__all__ = ["check_dealer", "check_planned_decks", "check_totals", "first_dealer", "lay_out", "take_named", "unseen"]


def check_dealer(players: int, dealer: object) -> int:
    """``dealer`` if it is a seat of a table of ``players``, else OptionError."""
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise OptionError(f"the dealer must be a seat from 0 to {players - 1}, not {echo(dealer)}")
    return dealer


def first_dealer(players: int, dealer: object, rng: random.Random) -> int:
    """A match's first dealer: a scenario's ``dealer``, checked, or (None) a seat drawn by lot from ``rng``."""
    if dealer is None:
        return rng.randrange(players)
    return check_dealer(players, dealer)


def check_totals(
    players: int, totals: object, what: str, low: int | None = 0, high: int | None = None
) -> list[int] | None:
    """A scenario's starting totals (None: none given), one whole number per seat from ``low`` to ``high`` (None:
    no bound); ``what`` names them in the error."""
    if totals is None:
        return None
    if not isinstance(totals, tuple | list) or len(totals) != players:
        raise OptionError(f"{what} are {players} whole numbers, not {echo(totals)}")
    for total in totals:
        if (
            isinstance(total, bool)
            or not isinstance(total, int)
            or (low is not None and total < low)
            or (high is not None and total > high)
        ):
            bounds = f" from {low}" if low is not None else ""
            bounds += f" to {high}" if high is not None else ""
            raise OptionError(f"{what} are whole numbers{bounds}, not {echo(totals)}")
    return list(totals)


def check_planned_decks(decks: Iterable[object], cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """A scenario's planned decks, each checked to hold exactly ``cards`` (the game's deck, in any order)."""
    full = Counter(cards)
    planned: list[tuple[Card, ...]] = []
    for order in decks:
        if not isinstance(order, tuple | list) or not all(isinstance(card, Card) for card in order):
            raise OptionError(f"a planned deck is a sequence of cards, not {echo(order)}")
        if Counter(order) != full:
            raise OptionError(f"a planned deck must hold exactly the {len(cards)} cards of the game")
        planned.append(tuple(order))
    return planned


def take_named(pool: list[Card], named: Iterable[object]) -> None:
    """Take each of ``named`` out of ``pool`` (the game's deck): OptionError if it is not a card of the deck, or is
    named more often than the deck holds it."""
    for card in named:
        if not isinstance(card, Card) or card not in pool:
            text = str(card) if isinstance(card, Card) else echo(card)
            raise OptionError(f"more copies of {text} named than the game has, or not a card of it")
        pool.remove(card)


def lay_out(
    players: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    rest: Sequence[Card],
    deck: Sequence[Card],
    counts: Sequence[int],
    *,
    by_round: bool = True,
) -> tuple[Card, ...]:
    """A planned deck that deals seat ``s`` the cards ``hands[s]`` (a seat not named, or named short, gets cards not
    named, in the order of ``deck``) when ``dealer`` deals, then holds ``rest``, then the cards of ``deck`` not
    named. Seat ``s`` is dealt ``counts[s]`` cards from the dealer's left: one card at a time round the table
    (``by_round``), or each seat's cards together."""
    if len(hands) > players:
        raise OptionError(f"{len(hands)} hands for {players} players")
    if len(counts) != players:
        raise OptionError(f"one count of cards per seat ({players}), not {echo(counts)}")
    pool = list(deck)
    take_named(pool, [card for hand in hands for card in hand] + list(rest))
    wanted = [list(hands[seat]) if seat < len(hands) else [] for seat in range(players)]
    for seat, hand in enumerate(wanted):
        if len(hand) > counts[seat]:
            raise OptionError(f"seat {seat} is dealt {counts[seat]} cards, not {len(hand)}")
    seats = [(dealer + 1 + i) % players for i in range(players)]
    if by_round:
        seats = [seat for round_ in range(max(counts, default=0)) for seat in seats if round_ < counts[seat]]
    else:
        seats = [seat for seat in seats for _ in range(counts[seat])]
    order = [wanted[seat].pop(0) if wanted[seat] else pool.pop(0) for seat in seats]
    return (*order, *rest, *pool)


def unseen(deck: Iterable[Card], seen: Iterable[Card], key: Callable[[Card], Any]) -> list[Card]:
    """The cards of ``deck`` less those of ``seen`` (each as often as it is seen), in the order of ``key``: what a
    determinized state deals at random (the same order each time, so that the same RNG deals the same cards)."""
    left = Counter(deck)
    left.subtract(seen)
    return [card for card, count in sorted(left.items(), key=lambda item: key(item[0])) for _ in range(count)]
