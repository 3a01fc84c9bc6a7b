"""The hint for Big Two: ``hard``'s choice, and why, read from the seat's own view.

The hint asks the hard bot (:class:`~engine.games.big2.bots.HardBig2Bot`, through its public ``choose`` only) for
its play, then explains the play from the view: how many cards it sheds, what it beats, which 2s or bombs it keeps
for control (or spends to take control), the card the first play must include, a player about to go out. A pass is
explained by what beating the table would have cost. Nothing but the view is read.

:func:`review` judges a move already made (:mod:`engine.review`): a move other than ``hard``'s costs what the two
score apart when ``hard``'s own search plays both out on the same sampled deals (its playouts and its score: the
deal's points, a won match far above them). The hint itself has no figure to reuse, so the review plays them out
with the search's own pieces (``HardBig2Bot.sample_deals`` and ``playout``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.bots import Bot
from engine.cards import Card, Rank
from engine.games.big2.bots import HardBig2Bot, table_combo
from engine.games.big2.rules import (
    Big2Action,
    Big2View,
    Combo,
    HiddenDeal,
    Play,
    classify,
    combo_of,
    encoding,
    legal_plays,
)
from engine.hints import Hint, Judgement, Reviewer

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


def same_move(one: Big2Action, other: Big2Action) -> bool:
    """The same move: a pass, or a play of the same cards (in whatever order)."""
    if isinstance(one, Play) and isinstance(other, Play):
        return frozenset(one.cards) == frozenset(other.cards)
    return one == other


REVIEW_DEALS = 100
"""How many of ``hard``'s sampled deals the review plays both moves out on (the same deals for both)."""


def review(
    bot: Bot, view: Big2View, legal: Sequence[Big2Action], chosen: Big2Action, rng: random.Random
) -> Judgement | None:
    """What ``hard`` makes of the move ``chosen`` (None: it would have made it too): its hint, and how much lower
    the move scores than the hint's when ``hard``'s search plays both out, on the same :data:`REVIEW_DEALS` of its
    sampled deals (drawn from the RNG after the hint's own search), with the playouts and the score the search
    itself uses: the deal's points to the seat, and a won match counted far above any deal's points."""
    made = hint(bot, view, legal, rng)
    if same_move(made.action, chosen):
        return None
    move = doing_words(view, chosen)
    if not isinstance(bot, HardBig2Bot) or view.seat is None:
        return Judgement(made, 0.0, move)
    theirs, mine = playout_scores(bot, view, [made.action, chosen], rng, REVIEW_DEALS)
    cost = max(0.0, theirs - mine)
    playouts = "in the computer's playouts from here"
    if cost < 0.5:
        worse = f"it makes little difference: {playouts} your move did about as well"
    elif _may_end_match(view) and cost >= bot.match_value / 20:
        worse = f"{playouts} it won the match less often"
    else:
        worse = f"{playouts} it came out about {round(cost)} point{'s' if round(cost) != 1 else ''} worse this deal"
    return Judgement(made, cost, move, worse)


def _may_end_match(view: Big2View) -> bool:
    """Whether this deal may be the match's last (the last of its deals, or a score limit that a deal may reach)."""
    options = view.options
    return options.score_limit is not None or view.deal >= options.deals


def playout_scores(
    bot: HardBig2Bot, view: Big2View, moves: Sequence[Big2Action], rng: random.Random, deals: int
) -> list[float]:
    """Each move's mean score over the same ``deals`` deals, sampled and played out as ``hard``'s search samples
    and plays them out (its deals favour those that explain the others' choices so far)."""
    hidden = HiddenDeal(view)
    sampled = bot.sample_deals(view, hidden, deals, rng)
    table = table_combo(view)
    picks = [combo_of(m.cards, view.options) if isinstance(m, Play) else None for m in moves]
    return [
        sum(bot.playout(view, table, list(hands), pick, hidden.must) for hands in sampled) / len(sampled)
        for pick in picks
    ]


def doing_words(view: Big2View, action: Big2Action) -> str:
    """A move as the review names it: "playing the 9♠ and 9♥", "playing a straight to the 9♠", "passing"."""
    if not isinstance(action, Play):
        if view.table is None:
            return "passing"
        return f"passing on {combo_of(view.table.cards, view.options).describe()}"
    cards = action.cards
    if len(cards) <= 3:
        return f"playing the {cards_words(cards)}"
    combo = classify(cards, view.options)
    return f"playing {combo.describe()}" if combo is not None else f"playing the {cards_words(cards)}"


REVIEWER = Reviewer(review, round_word="deal", unit="points of hard's playouts (a match won counts far more)")
"""The review of a finished match's moves (:mod:`engine.review`)."""
