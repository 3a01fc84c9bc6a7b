"""Big Two events in plain words, as the event log and the scoring show them.

The engine's events carry data (the cards and kind of a play, how a loss was counted); the words are made here.

>>> from engine.games.big2.rules import Passed
>>> describe_big2(Passed(seat=2), ("You", "Ana", "Ben"), me=0)
'Ben passes'
>>> from engine.cards import parse_cards
>>> play_words(parse_cards("5C 6D 7H 8S 9S"), "straight")
'a straight to the 9♠'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.cards import Card
from engine.events import Event
from engine.games.big2.rules import (
    RANK_PLURAL,
    STRAIGHTS,
    DealOver,
    DealStarted,
    HandDealt,
    Loss,
    Passed,
    Played,
    RoundWon,
    rank_index,
)
from engine.match import MatchOver, RoundOver, RoundStarted
from tui.words import and_list, count_of, who
from tui.words.faces import card_text


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card_text(card) for card in cards)


def left_text(left: int) -> str:
    if left == 0:
        return "out of cards!"
    if left == 1:
        return "1 card left!"
    return f"{left} left"


def signed(points: int) -> str:
    """+12, −4, 0 (a real minus sign)."""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"−{-points}"
    return "0"


def _rank(card: Card) -> int:
    return rank_index(card.rank)


def play_words(cards: Sequence[Card], kind: str) -> str:
    """A play in words: "the 7♥", "a pair of 9s", "a full house, Kings full", "a straight to the 9♠", "a flush, A♥
    high", "the Dragon". Only ranks matter to these words, so no suit order is needed."""
    if not cards:
        return "nothing"
    if any(card.suit is None for card in cards):
        return cards_text(cards)
    ranks = Counter(_rank(card) for card in cards)
    highest = max(cards, key=_rank)
    most = max(ranks, key=lambda r: (ranks[r], r))
    if kind == "single":
        return f"the {card_text(cards[0])}"
    if kind == "pair":
        return f"a pair of {RANK_PLURAL[most]}"
    if kind == "triple":
        return f"three of {RANK_PLURAL[most]}"
    if kind == "full_house":
        return f"a full house, {RANK_PLURAL[most]} full"
    if kind == "four":
        return f"four {RANK_PLURAL[most]}"
    if kind in ("straight", "straight_flush"):
        name = "straight flush" if kind == "straight_flush" else "straight"
        top = next((t for sequence, t in STRAIGHTS if set(sequence) == set(ranks)), _rank(highest))
        top_card = next((card for card in cards if _rank(card) == top), highest)
        return f"a {name} to the {card_text(top_card)}"
    if kind == "flush":
        return f"a flush, {card_text(highest)} high"
    if kind == "dragon":
        return "the Dragon"
    return cards_text(cards)


def loss_steps(lost: Loss, options: Any = None) -> tuple[str, ...]:
    """How a loss was counted, step by step: "3 cards: 3", "a 2 left: ×2" (the scoring is in ``options``)."""
    count = lost.cards
    steps = [f"{count_of(count, 'card')}: {count}"]
    if getattr(options, "scoring", "seed") == "pagat":
        if lost.multiplier > 1:
            steps.append(f"{count} cards left: ×{lost.multiplier}")
    else:
        if count > 9:
            steps.append("more than nine cards: ×2")
        steps.extend("a 2 left: ×2" for _ in range(lost.twos))
    return tuple(steps)


def describe_big2(event: Event, names: Sequence[str], me: int | None, options: Any = None) -> str | None:
    """One line of plain words for a Big Two ``event`` as seat ``me`` sees it, or None when it needs no line."""
    if isinstance(event, RoundStarted):
        if event.dealer is None:
            return f"Deal {event.round}"
        dealer = "you deal" if event.dealer == me else f"{who(event.dealer, names, me)} deals"
        return f"Deal {event.round} — {dealer}"
    if isinstance(event, DealStarted):
        card = card_text(event.lead_card)
        if event.leader == me:
            return f"You hold the {card} and lead"
        return f"{who(event.leader, names, me)} holds the {card} and leads"
    if isinstance(event, HandDealt):
        return None  # your hand is on the table; the others' are only counts
    if isinstance(event, Played):
        actor = who(event.seat, names, me, start=True)
        verb = "play" if event.seat == me else "plays"
        what = play_words(event.cards, event.kind)
        if event.kind != "single":
            what += f" ({cards_text(event.cards)})"
        return f"{actor} {verb} {what} — {left_text(event.left)}"
    if isinstance(event, Passed):
        return "You pass" if event.seat == me else f"{who(event.seat, names, me)} passes"
    if isinstance(event, RoundWon):
        if event.seat == me:
            return "You win the round and lead"
        return f"{who(event.seat, names, me)} wins the round and leads"
    if isinstance(event, DealOver):
        gain = event.deltas[event.winner]
        if event.winner == me:
            return f"You win the deal: {signed(gain)}"
        return f"{who(event.winner, names, me)} wins the deal: {signed(gain)}"
    if isinstance(event, RoundOver):
        return None  # the DealOver before it has the line
    if isinstance(event, MatchOver):
        winners = [who(seat, names, me, start=i == 0) for i, seat in enumerate(event.winners)]
        best = signed(event.totals[event.winners[0]]) if event.winners else "0"
        verb = "win" if len(winners) > 1 or (event.winners and event.winners[0] == me) else "wins"
        return f"{and_list(winners)} {verb} the match with {best}"
    return None
