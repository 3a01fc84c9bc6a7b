"""Helpers for the engine tests of Big Two (RULES.md §3).

Two ways to set up an exact position
------------------------------------
:func:`stacked_deal` starts a real match through the public scenario API: ``Big2Game.deck_for`` lays out a deck
that deals each seat the planned cards (then what is left: the 52nd card with three players, the set-aside cards
with two), and ``Big2Game.new_match(..., Scenario(decks=..., dealer=...))`` deals it. Positions later in a deal are
reached by playing actions from there.

:func:`position` builds a :class:`Big2State` from its fields, for the one thing no real deal gives: hands of any
size (as text, one string per seat), whose turn it is, what is on the table, so that a rule reads in a few cards.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from conformance import Plug, RoundWitness
from game_helpers import act as act
from game_helpers import cards_in as cards_in
from game_helpers import of_type as of_type
from game_helpers import snapshot as snapshot

from engine.cards import Card, parse_cards, standard_deck
from engine.events import Event
from engine.game import Scenario
from engine.games.big2.rules import Big2Game, Big2Options, Big2State, Combo, classify, encoding, match_rule
from engine.match import MatchProgress

GAME = Big2Game()
FULL_DECK: frozenset[Card] = frozenset(standard_deck())
SEED = GAME.options()
VARIANT_KEYS = ("standard-suits", "taiwan", "no-play-after-pass", "pagat-scoring")


def opts(*variants: str, deals: int | None = None) -> Big2Options:
    options = GAME.options(variants=variants)
    return options if deals is None else dataclasses.replace(options, deals=deals)


def card(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def combo(text: str, options: Big2Options = SEED) -> Combo:
    """The combination the cards form (the test fails if they form none)."""
    found = classify(parse_cards(text), options)
    assert found is not None, f"{text} is not a combination"
    return found


def mask(text: str | Sequence[Card], options: Big2Options = SEED) -> int:
    chosen = parse_cards(text) if isinstance(text, str) else text
    return encoding(options).mask(chosen)


def hand_of(state: Big2State, seat: int) -> set[Card]:
    return set(state.zones()[f"hand {seat}"])


def position(
    hands: Sequence[str],
    options: Big2Options = SEED,
    turn: int | None = None,
    table: str | None = None,
    table_seat: int | None = None,
    first_lead: bool = False,
) -> Big2State:
    """A state built from its fields: ``hands[s]`` is seat s's cards as text (any number). With ``first_lead`` the
    holder of the lead card is to move and must include it (the start of a deal); otherwise ``turn`` (default 0)
    moves freely. The first deal of a match, dealt by the last seat."""
    enc = encoding(options)
    masks = [enc.mask(parse_cards(h)) for h in hands]
    n = len(hands)
    must = 0
    if first_lead:
        must = enc.mask([options.lead_card])
        holders = [s for s in range(n) if masks[s] & must]
        assert holders, "nobody holds the lead card"
        turn = holders[0]
    progress = MatchProgress.starting(n, match_rule(options), dealer=n - 1)
    progress.start_round(seats=tuple(range(n)))
    dealt = 0
    for m in masks:
        dealt |= m
    return Big2State(
        players=n,
        options=options,
        rng=random.Random(0),
        progress=progress,
        hands=masks,
        table=combo(table, options) if table else None,
        table_seat=table_seat if table else None,
        passed=[False] * n,
        turn=turn if turn is not None else 0,
        must_include=must,
        played=combo(table, options).mask if table else 0,
        start_counts=tuple(m.bit_count() for m in masks),
    )


def deck_for(
    hands: Sequence[str | Sequence[Card]], rest: str | Sequence[Card] = "", dealer: int | None = None
) -> tuple[Card, ...]:
    """The deck order (from ``Big2Game.deck_for``) that deals seat i ``hands[i]`` when ``dealer`` (default: the
    last seat) deals, and leaves ``rest`` after them."""
    n = len(hands)
    per_seat = [parse_cards(h) if isinstance(h, str) else list(h) for h in hands]
    after = parse_cards(rest) if isinstance(rest, str) else list(rest)
    return GAME.deck_for(n, n - 1 if dealer is None else dealer, per_seat, after)


def stacked_deal(
    hands: Sequence[str | Sequence[Card]],
    options: Big2Options = SEED,
    rest: str = "",
    dealer: int | None = None,
    totals: Sequence[int] | None = None,
) -> Big2State:
    """A match whose first deal gives seat i exactly ``hands[i]`` (then ``rest`` lies next in the deck), dealt by
    ``dealer`` (default: the last seat), from the public scenario API."""
    n = len(hands)
    chosen = n - 1 if dealer is None else dealer
    scenario = Scenario(
        decks=(deck_for(hands, rest, chosen),),
        dealer=chosen,
        totals=tuple(totals) if totals is not None else None,
    )
    return GAME.new_match(n, options, random.Random(0), scenario)


def split_deck(players: int, seed: int) -> list[list[Card]]:
    """A random full deal (13 each; 17 with three players) as lists of cards, the rest last."""
    deck = standard_deck()
    random.Random(seed).shuffle(deck)
    per = 17 if players == 3 else 13
    return [deck[s * per : (s + 1) * per] for s in range(players)] + [deck[players * per :]]


def random_positions(
    count: int, seed: int, variant_sets: Sequence[tuple[str, ...]], steps: tuple[int, int] = (0, 50)
) -> list[Big2State]:
    """``count`` one-deal positions (not over) from random play over 2..4 players and the given variant sets,
    after a random number of actions in ``range(*steps)`` (0 gives the first lead of a deal)."""
    rng = random.Random(seed)
    out: list[Big2State] = []
    while len(out) < count:
        options = opts(*rng.choice(list(variant_sets)), deals=1)
        state = GAME.new_match(rng.randrange(2, 5), options, random.Random(rng.random()))
        for _ in range(rng.randrange(*steps)):
            if state.is_over:
                break
            seat = state.to_move
            assert seat is not None
            state.apply(seat, rng.choice(state.legal_actions()))
        if not state.is_over:
            out.append(state)
    return out


# ---------------------------------------------------------------------------------------------------------------
# The game's plug into the conformance harness: what each seat may see, from RULES.md (never from the engine's
# redaction); found by the harness as ``PLUG`` of ``<key>_helpers`` (conformance.PLUGS)
# ---------------------------------------------------------------------------------------------------------------
class Big2Witness(RoundWitness):
    """Big Two (RULES.md §3): a seat sees its own hand; everybody sees the card that must open the deal (its
    holder must lead it), every card played and every hand shown at the end of a deal. Nothing lasts past the
    deal, except that a view may keep the last deal's hands shown (its summary)."""

    def learn(self, event: Event) -> None:
        from engine.games.big2 import rules as big2

        if isinstance(event, big2.HandDealt):
            self.show(event.seat, event.cards or ())
        elif isinstance(event, big2.DealStarted):
            self.show_all([event.lead_card])
        elif isinstance(event, big2.Played):
            self.show_all(event.cards)
        elif isinstance(event, big2.DealOver):
            shown = [card for hand in event.hands for card in hand]
            self.show_all(shown)
            self.carry = {str(c) for c in shown}


def _big2_hidden_masks(state: Any, seat: int | None, allowed: set[str]) -> list[int]:
    """The bitmasks of the hands (and, with two players, the cards set aside) that hold a card ``seat`` may not
    see. A mask below 2**16 (only 3s to 6s) is left out: it could be a count or a total by chance."""
    masks = [mask for other, mask in enumerate(state.hands) if other != seat]
    if state.players == 2:
        masks.append(state.set_aside)
    return [mask for mask in masks if mask >= 1 << 16 and not {str(card) for card in state.enc.cards(mask)} <= allowed]


PLUG = Plug(Big2Witness, max_actions=110, deals=2, hidden_masks=_big2_hidden_masks)
"""The game's plug into the conformance harness (:data:`conformance.PLUGS`)."""
