"""The hint for Big Two: ``hard``'s choice, and why, read from the seat's own view.

The hint asks the hard bot (:class:`~engine.games.big2.bots.HardBig2Bot`, through its public ``choose`` only) for
its play, then explains the play from the view: how many cards it sheds, what it beats, which 2s or bombs it keeps
for control (or spends to take control), the card the first play must include, a player about to go out. A pass is
explained by what beating the table would have cost. Nothing but the view is read.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.bots import Bot
from engine.cards import Card, Rank
from engine.games.big2.rules import Big2Action, Big2View, Combo, Play, classify, combo_of, encoding, legal_plays
from engine.hints import Hint

BOMBS = frozenset({"four", "straight_flush", "dragon"})
"""The five-card hands (and the Dragon) that beat what lies below them whatever its kind."""
COUNTS = ("no cards", "one card", "two cards", "three cards", "four cards", "five cards")


def count_words(n: int) -> str:
    return COUNTS[n] if n < len(COUNTS) else f"{n} cards"


def cards_words(cards: Sequence[Card]) -> str:
    words = [card.pretty() for card in cards]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _control(combo: Combo) -> bool:
    """A bomb, or a single, pair or three of 2s: what wins a round (a straight with a 2 in it is no such thing)."""
    return combo.kind in BOMBS or (combo.size <= 3 and combo.cards[-1].rank is Rank.TWO)


def hint(bot: Bot, view: Big2View, legal: Sequence[Big2Action], rng: random.Random) -> Hint:
    """``bot``'s choice for the seat of ``view``, with its reason."""
    action = bot.choose(view, legal, rng)
    if view.seat is None:
        return Hint(action, "")
    if isinstance(action, Play):
        return Hint(action, _play(view, action.cards))
    return Hint(action, _pass(view))


def _others_min(view: Big2View) -> int:
    return min(n for seat, n in enumerate(view.counts) if seat != view.seat)


def _play(view: Big2View, cards: tuple[Card, ...]) -> str:
    options = view.options
    combo = classify(cards, options)
    if combo is None:
        return f"Play {cards_words(cards)}"
    what = combo.describe()
    left = [card for card in view.hand if card not in cards]
    start = f"Play {what}: "
    if not left:
        last = "it is your last card" if len(cards) == 1 else "they are your last cards"
        return start + f"{last}: you go out and win the deal"
    opening = ""
    if view.must_include is not None and view.must_include in cards:
        opening = f"the first play must include the {view.must_include.pretty()}; "
    reasons = [f"sheds {count_words(len(cards))}"]
    table = combo_of(view.table.cards, options) if view.table is not None else None
    enc = encoding(options)
    mask = enc.mask(view.hand)
    if table is not None:
        beating = [c for c in legal_plays(mask, table, options) if c.size == combo.size]
        if beating and combo.key == min(c.key for c in beating):
            reasons.append(f"is your cheapest way to beat {table.describe()}")
        else:
            reasons.append(f"beats {table.describe()}")
    elif view.must_include is None:
        lowest = view.hand[0]
        if lowest in cards:
            reasons.append(f"gets your lowest card, the {lowest.pretty()}, out of the way while you lead")
    if _control(combo):
        reasons.append("takes control: little can beat it, so you should win the round and lead the next one")
    else:
        kept = [card for card in left if card.rank is Rank.TWO]
        if kept:
            reasons.append(f"keeps your {cards_words(kept)} for control")
    text = start + opening + "it " + _joined(reasons)
    danger = _others_min(view)
    if danger <= 2:
        text += f"; a player has only {count_words(danger)} left, so holding back is dangerous now"
    return text


def _joined(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _pass(view: Big2View) -> str:
    options = view.options
    if view.table is None:
        return "Pass"
    table = combo_of(view.table.cards, options)
    enc = encoding(options)
    mask = enc.mask(view.hand)
    plays = legal_plays(mask, table, options)
    on_table = table.describe()
    if not plays:
        return f"Pass: nothing in your hand beats {on_table}"
    cheapest = min(plays, key=lambda c: (c.kind in BOMBS, c.key))
    later = "" if options.no_play_after_pass else "; you may still play later in this round"
    if _control(cheapest):
        return (
            f"Pass: beating {on_table} would cost you {cheapest.describe()}, better kept for control while you "
            f"still hold {count_words(len(view.hand))}{later}"
        )
    danger = _others_min(view)
    if danger > 2:
        return (
            f"Pass: beating {on_table} would spend {cheapest.describe()} on a round you need not win yet, as nobody "
            f"is close to going out{later}"
        )
    return (
        f"Pass: beating {on_table} would take {cheapest.describe()}, and the computer's playouts from here do better "
        f"keeping it, even with a player down to {count_words(danger)}{later}"
    )
