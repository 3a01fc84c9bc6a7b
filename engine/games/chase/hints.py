"""The hint for Screw Your Neighbor / Chase the Ace: ``hard``'s choice, and why, from its own estimates.

``hard`` samples the cards it cannot see (:meth:`~engine.games.chase.bots.HardChaseBot.estimate`) and plays the hand
out for each choice: the reason says how often it expects to pay if it makes the move and if it does not, and how
often the other choice leaves it a worse card. Only the seat's view is read.

:func:`review` judges a move already made (:mod:`engine.review`): a move other than ``hard``'s costs the lives it is
expected to pay more, from the very estimate the hint is made from.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.bots import Bot
from engine.cards import Card, Rank
from engine.games.chase.bots import ChaseEstimate, HardChaseBot
from engine.games.chase.rules import ChaseAction, ChaseView
from engine.hints import Hint, Judgement, Reviewer, chance_words, times_in

MOVE = {
    ChaseAction.STAY: "Stay",
    ChaseAction.TRADE: "Trade with the player on your left",
    ChaseAction.SWAP: "Swap with the deck",
    ChaseAction.CUT: "Cut the pack",
}
"""Each move as the hint starts its sentence."""
DOING = {
    ChaseAction.STAY: "keeping it",
    ChaseAction.TRADE: "trading",
    ChaseAction.SWAP: "swapping with the deck",
    ChaseAction.CUT: "cutting the pack",
}
"""Each move as the reason names it."""


def often(share: float, does: str, never: str) -> str:
    """``does`` with how often ("gives you a worse card 6 times in 10"), or ``never`` when it almost never does."""
    count = times_in(share)
    return never if count == "almost never" else f"{does} {count}"


def pays(share: float, against: float | None = None, verb: str = "pays") -> str:
    """How often a card pays, in words: "pays in about 1 hand in 12", "almost never pays". When ``against`` (the
    other choice's chance) would read the same, both are counted in hundreds so the difference shows."""
    if against is not None and pays(share, verb=verb) == pays(against, verb=verb) and 0.005 < share < 0.995:
        return f"{verb} in about {round(share * 100)} hands in 100"
    if share <= 0.005:
        return f"almost never {verb}"
    if share >= 0.995:
        return f"almost always {verb}"
    return f"{verb} in {chance_words(share)}"


def hint(bot: Bot, view: ChaseView, legal: Sequence[ChaseAction], rng: random.Random) -> Hint:
    """``bot``'s choice for the seat of ``view`` (``hard``'s, with its reason; another bot's with a short one)."""
    return _hinted(bot, view, legal, rng)[0]


def _hinted(
    bot: Bot, view: ChaseView, legal: Sequence[ChaseAction], rng: random.Random
) -> tuple[Hint, ChaseEstimate | None]:
    """The hint, and ``hard``'s estimate it comes from (None when there is none)."""
    card = view.my_card
    if len(legal) == 1:
        return Hint(legal[0], _only_move(view, legal[0], card)), None
    if card is None or not isinstance(bot, HardChaseBot):
        action = bot.choose(view, legal, rng)
        words = f"{MOVE[action]}: the computer player's choice" if isinstance(action, ChaseAction) else ""
        return Hint(action, words), None
    estimate = bot.estimate(view, legal, rng)
    action = bot.pick(legal, estimate.costs)
    return Hint(action, reason(action, legal, card, estimate)), estimate


def review(
    bot: Bot, view: ChaseView, legal: Sequence[ChaseAction], chosen: ChaseAction, rng: random.Random
) -> Judgement | None:
    """What ``hard`` makes of the move ``chosen`` (None: it would have made it too, or its estimate rates both moves
    alike): its hint, and the lives the move is expected to cost more than the hint's, from the same estimate (the
    reason compares the two already)."""
    made, estimate = _hinted(bot, view, legal, rng)
    if made.action == chosen or (estimate is not None and estimate.costs[chosen] == estimate.costs[made.action]):
        return None  # (a tie: hard only prefers staying among equal choices)
    cost = 0.0 if estimate is None else max(0.0, estimate.costs[chosen] - estimate.costs[made.action])
    return Judgement(made, cost, doing_words(chosen, view.my_card))


def doing_words(action: ChaseAction, card: Card | None) -> str:
    """A move as the review names it: "keeping the 5♦", "trading away the 5♦", "cutting the pack"."""
    mine = "" if card is None else f" the {card.pretty()}"
    if action is ChaseAction.STAY:
        return f"keeping{mine}" if mine else "staying"
    if action is ChaseAction.TRADE:
        return f"trading away{mine}" if mine else "trading"
    if action is ChaseAction.SWAP:
        return f"swapping{mine} with the deck" if mine else "swapping with the deck"
    return "cutting the pack"


REVIEWER = Reviewer(review, round_word="hand", unit="lives expected to be paid")
"""The review of a finished match's moves (:mod:`engine.review`)."""


def _only_move(view: ChaseView, action: ChaseAction, card: Card | None) -> str:
    if action is ChaseAction.STAY and card is not None and view.seat is not None:
        if card.rank is Rank.KING:
            return f"Stay: your {card.pretty()} is a King, which never pays, and a King cannot be traded away"
        shown = dict(view.known).get(view.left_of(view.seat))
        if shown is not None and shown.rank is Rank.KING:
            return f"Stay: the player on your left shows the {shown.pretty()}, and nobody can trade with a King"
    return f"{MOVE[action]}: it is the only move you have"


def reason(action: ChaseAction, legal: Sequence[ChaseAction], card: Card, estimate: ChaseEstimate) -> str:
    """The sentence for ``action`` from ``estimate``'s figures, against the best other choice."""
    others = [a for a in legal if a is not action]
    other = min(others, key=lambda a: estimate.costs[a])
    if estimate.samples == 0.0:
        return f"{MOVE[action]}: no deal fits what the others did, so nothing is gained by moving"
    mine = f"your {card.pretty()}"
    chosen, rival = estimate.pays[action], estimate.pays[other]
    if action is ChaseAction.STAY:
        text = f"Stay: {mine} {pays(chosen, rival)} here; {DOING[other]} "
        worse, blocked = estimate.worse[other], estimate.blocked[other]
        if times_in(blocked) != "almost never":
            text += f"runs into a King {times_in(blocked)}, "
        worse_card = often(worse, "gives you a worse card", "almost never gives you a worse card")
        return text + f"{worse_card} and {pays(rival, chosen)}"
    text = (
        f"{MOVE[action]}: keeping {mine} {pays(rival, chosen)} here; "
        f"after {DOING[action]} you {pays(chosen, rival, verb='pay')}"
    )
    text += f", and the card you get {often(estimate.worse[action], 'is worse', 'is almost never worse')}"
    blocked = estimate.blocked[action]
    if times_in(blocked) != "almost never":
        text += f" (a King blocks the trade {times_in(blocked)})"
    return text
