"""Bots for Screw Your Neighbor / Chase the Ace.

``medium`` trades away a card below a threshold, but as the dealer (nobody acts after it) it first uses the cards
it knows the holders of (the one it gave away in a trade, Kings shown): it stays when one of them pays instead of
it, and swaps or cuts when they make it pay. ``hard`` estimates, for each choice, the lives it expects to pay:
it samples the hidden cards consistently with its view (Kings shown, cards seen in trades, blocked trades, cards
known to be out), weights each sample by how likely it makes the choices the players before it already made,
plays the rest of the hand out with a model of the others, and takes the choice that costs least. Its samples come
from the ``rng`` the table hands it for this decision: the bots keep no random state of their own.

With three players or more, ``hard``'s model dealer uses what it knows as ``medium``'s does (the card it gave away
to the player on its right, Kings shown), and a close call is sampled five times as long. Against ``medium`` that
leaves little to gain: over 21,801 positions of six-player Screw matches, each choice played on by the real bots,
the best choice from what the seat can see is nearly what ``hard`` plays (docs/performance.md has the figures).
With two players it plays as before, the solved game's strategy (Le Her).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, Rank, standard_deck
from engine.game import Game
from engine.games.chase.rules import (
    Acted,
    ChaseAction,
    ChaseOptions,
    ChaseView,
    card_strength,
    left_of,
    payments,
)

LOW_THRESHOLD = 6
"""Lowest card pays: trade away an Ace .. 6."""
HIGH_THRESHOLD = 9
"""High card pays: trade away a 9 .. Queen (and any Ace)."""


def wants_to_swap(card: Card, options: ChaseOptions) -> bool:
    """The threshold rule: does this card look worth giving away?"""
    if card.rank is Rank.KING:
        return False
    if options.high_card_pays:
        return card.rank is Rank.ACE or card.rank >= HIGH_THRESHOLD
    return card.rank <= LOW_THRESHOLD


def certain_payment(view: ChaseView, card: Card) -> bool | None:
    """At the dealer's turn, with ``card`` in hand: True when the cards this seat knows the holders of make it pay
    for certain, False when one of them pays instead of it whatever the unseen cards are, None when they do not
    decide. Only the dealer's: nobody acts after it, so every card it knows the holder of stays where it is (before
    the dealer, a known card may still be traded on and swapped away)."""
    if view.seat is None or view.turn != len(view.order) - 1:
        return None
    held = {seat: known for seat, known in view.known if seat in view.order}
    held[view.seat] = card
    pays = view.seat in payments(held, view.options)
    if not pays:
        # Lowest pays: an unseen card can only lower the lowest, never to this one (high card pays: raise the
        # highest); an Ace that pays 2 is in ``payments`` whatever the others hold.
        return False
    return True if len(held) == len(view.order) else None


class MediumChaseBot:
    """``medium``: a sensible threshold. Trades (or goes to the deck) with a card it would rather not hold; as the
    dealer it first uses what it knows for certain (:func:`certain_payment`)."""

    difficulty = "medium"

    def __init__(self, game: Game[ChaseOptions, ChaseView, ChaseAction]) -> None:
        self.game = game

    def choose(self, view: ChaseView, legal: Sequence[ChaseAction], rng: random.Random) -> ChaseAction:
        card = view.my_card
        active = [a for a in legal if a is not ChaseAction.STAY]
        if card is None or not active:
            return ChaseAction.STAY
        certain = certain_payment(view, card)
        if certain is not None:
            return active[0] if certain else ChaseAction.STAY
        return active[0] if wants_to_swap(card, view.options) else ChaseAction.STAY


def worse_for(new: Card, old: Card, options: ChaseOptions) -> bool:
    """Is holding ``new`` worse than holding ``old`` (likelier to pay)? Lowest pays: a lower card is worse; high
    card pays: an Ace is the worst card, then the higher the worse, and a King never pays."""
    if options.high_card_pays:

        def danger(card: Card) -> int:
            if card.rank is Rank.ACE:
                return 100
            if card.rank is Rank.KING:
                return -1
            return card_strength(card, options)

        return danger(new) > danger(old)
    return card_strength(new, options) < card_strength(old, options)


@dataclass(frozen=True)
class ChaseEstimate:
    """What ``hard`` worked out for each legal action over its sampled deals (each a share of the weighted
    samples): the lives it expects to pay, how often it pays at all, how often the card it ends up with is worse
    than the one it holds, and (a trade) how often the trade is blocked by a King."""

    costs: dict[ChaseAction, float]
    pays: dict[ChaseAction, float]
    worse: dict[ChaseAction, float]
    blocked: dict[ChaseAction, float]
    samples: float
    """The weight of the samples that explain what the others did (0: none did, every figure is 0)."""


class HardChaseBot:
    """``hard``: picks the choice with the lowest expected payment over sampled deals."""

    difficulty = "hard"
    samples = 200
    """Deals sampled for a decision."""
    close_samples = 1000
    """With three players or more, the deals a close call is sampled to (see :meth:`estimate`)."""
    close = 0.1
    """How near the two cheapest choices' expected costs (in lives) make a close call."""
    model_noise = 0.15
    """How often the model of the other players is taken to go against the threshold rule."""

    def __init__(self, game: Game[ChaseOptions, ChaseView, ChaseAction]) -> None:
        self.game = game

    def choose(self, view: ChaseView, legal: Sequence[ChaseAction], rng: random.Random) -> ChaseAction:
        if len(legal) == 1:
            return legal[0]
        return self.pick(legal, self.expected_costs(view, legal, rng))

    @staticmethod
    def pick(legal: Sequence[ChaseAction], costs: dict[ChaseAction, float]) -> ChaseAction:
        """The choice that costs least (staying on a tie)."""
        return min(legal, key=lambda a: (costs[a], a is not ChaseAction.STAY))

    def expected_costs(
        self, view: ChaseView, legal: Sequence[ChaseAction], rng: random.Random
    ) -> dict[ChaseAction, float]:
        """Expected lives paid by this seat after each legal action."""
        return self.estimate(view, legal, rng).costs

    def estimate(self, view: ChaseView, legal: Sequence[ChaseAction], rng: random.Random) -> ChaseEstimate:
        """Every figure of :class:`ChaseEstimate` for each legal action, from the same samples (the same draws from
        ``rng`` as :meth:`expected_costs`, so the choice made from them is the bot's).

        With three players or more, a close call (the two cheapest choices within :attr:`close` of each other after
        :attr:`samples` deals) is sampled on to :attr:`close_samples` deals, and the dealer of the play-outs uses what
        it knows as ``medium``'s does (:func:`certain_payment`). With two players every decision is as it was
        measured against the solved game (Le Her): :attr:`samples` deals, the dealer by the threshold rule."""
        assert view.seat is not None
        known = dict(view.known)
        seen = set(known.values()) | set(view.gone)
        pool = [c for c in standard_deck() if c not in seen]
        hidden = sorted((s for s in view.order if s not in known), key=lambda s: s not in view.not_king)
        no_king = [s in view.not_king for s in hidden]
        base: list[Card | None] = [None] * view.players
        for seat, card in known.items():
            base[seat] = card
        totals = {a: 0.0 for a in legal}
        pays = {a: 0.0 for a in legal}
        worse = {a: 0.0 for a in legal}
        blocked = {a: 0.0 for a in legal}
        mine = view.my_card
        neighbour = left_of(view.seat, view.lives)
        weight_sum = 0.0
        # Worked out once for every sample and every candidate action: the threshold rule for each rank (it looks
        # at nothing else) and, for each seat still to act, its left neighbour and what it does with a card it
        # wants rid of.
        swap = {c.rank: wants_to_swap(c, view.options) for c in standard_deck()}
        lefts = {s: left_of(s, view.lives) for s in view.order}
        rest = [
            (s, lefts[s], view.options.dealer_action if s == view.dealer else ChaseAction.TRADE)
            for s in view.order[view.turn :]
        ]
        dealer = _dealer_model(view) if len(view.order) >= 3 else None
        # Only the hidden seats' cards and one deck card matter: draw that many, plus room to skip the 4 Kings.
        draw = min(len(pool), len(hidden) + 5)
        limit = self.samples
        done = 0
        while done < limit:
            done += 1
            deck = rng.sample(pool, draw)
            cards = list(base)
            for seat, needs_no_king in zip(hidden, no_king, strict=True):
                index = 0
                if needs_no_king:
                    while deck[index].rank is Rank.KING:
                        index += 1
                cards[seat] = deck.pop(index)
            weight = self._likelihood(view, cards, swap, lefts)
            if weight != 0.0:
                weight_sum += weight
                for action in legal:
                    cost = _play_out(view, rest, swap, list(cards), deck[0], action, dealer)
                    totals[action] += weight * cost
                    if cost:
                        pays[action] += weight
                    if mine is None or action is ChaseAction.STAY:
                        continue
                    got = cards[neighbour] if action is ChaseAction.TRADE else deck[0]
                    assert got is not None
                    if action is ChaseAction.TRADE and got.rank is Rank.KING:
                        blocked[action] += weight
                    elif worse_for(got, mine, view.options):
                        worse[action] += weight
            if done == self.samples and dealer is not None and weight_sum > 0.0:
                first, second = sorted(totals.values())[:2]
                if second - first < self.close * weight_sum:
                    limit = self.close_samples
        if weight_sum == 0.0:
            zero = {a: 0.0 for a in legal}
            return ChaseEstimate(zero, dict(zero), dict(zero), dict(zero), 0.0)
        return ChaseEstimate(
            {a: t / weight_sum for a, t in totals.items()},
            {a: t / weight_sum for a, t in pays.items()},
            {a: t / weight_sum for a, t in worse.items()},
            {a: t / weight_sum for a, t in blocked.items()},
            weight_sum,
        )

    def _likelihood(
        self, view: ChaseView, cards: list[Card | None], swap: dict[Rank, bool], lefts: dict[int, int]
    ) -> float:
        """How likely the others' choices so far are, if they held the cards of this sample when they chose
        (``swap``: :func:`wants_to_swap` for each rank; ``lefts``: each seat's left neighbour)."""
        held = list(cards)
        weight = 1.0
        for index in range(view.turn - 1, -1, -1):
            seat = view.order[index]
            if view.acted[seat] is Acted.TRADED:
                left = lefts[seat]
                held[seat], held[left] = held[left], held[seat]
            if seat == view.seat:
                continue
            card = held[seat]
            assert card is not None
            if card.rank is Rank.KING:
                continue
            traded = view.acted[seat] in (Acted.TRADED, Acted.BLOCKED)
            agrees = traded == swap[card.rank]
            weight *= 1.0 - self.model_noise if agrees else self.model_noise
        return weight


def _dealer_model(view: ChaseView) -> dict[int, Card]:
    """What the dealer knows of the others' cards before the play-out, as far as this seat can tell whatever the
    sample: the Kings shown (in the view's known cards every King but this seat's own is public). The card the
    dealer gave away to the player on its right, if that one traded with it already, is the sample's; see
    :func:`_play_out`."""
    return {s: c for s, c in view.known if c.rank is Rank.KING and s != view.seat and s in view.order}


def _play_out(
    view: ChaseView,
    rest: list[tuple[int, int, ChaseAction]],
    swap: dict[Rank, bool],
    cards: list[Card | None],
    deck_card: Card,
    first: ChaseAction,
    dealer_knows: dict[int, Card] | None = None,
) -> int:
    """Play the rest of the hand: this seat takes ``first``, the others follow the threshold rule.

    ``rest`` is each seat still to act, in order, with its left neighbour and what it does with a card it wants rid
    of; ``swap`` is :func:`wants_to_swap` for each rank. ``deck_card`` is a card drawn at random from the unseen
    ones: the top of the deck or the card a cut turns up. With ``dealer_knows`` (the Kings shown:
    :func:`_dealer_model`), the dealer first uses, as ``medium``'s does, the cards it knows the holders of: those
    Kings, any King a trade runs into, and the card it gave the player on its right if that one traded with it.
    """
    options = view.options
    me = view.seat
    order = view.order
    knows: dict[int, Card] | None = None
    if dealer_knows is not None:
        knows = dict(dealer_knows)
        right = order[-2]
        if view.acted[right] is Acted.TRADED:
            traded = cards[right]  # it acted before this seat, so it holds the dealer's old card still
            assert traded is not None
            knows[right] = traded
    for seat, left, wanted in rest:
        card = cards[seat]
        assert card is not None
        if seat == me:
            action = first
        elif card.rank is Rank.KING:
            action = ChaseAction.STAY
        elif knows is not None and seat == view.dealer:
            action = _dealer_choice(knows, seat, card, wanted, swap, view)
        elif not swap[card.rank]:
            action = ChaseAction.STAY
        else:
            action = wanted
        if action is ChaseAction.TRADE:
            other = cards[left]
            assert other is not None
            if other.rank is not Rank.KING:
                cards[seat], cards[left] = other, card
                if knows is not None and left == view.dealer:
                    knows[seat] = other
            elif knows is not None:
                knows[left] = other  # shown to everyone
        elif action is not ChaseAction.STAY:
            cards[seat] = deck_card
    held = {s: c for s in order if (c := cards[s]) is not None}
    owed = payments(held, options)
    if owed and all(view.lives[s] - owed.get(s, 0) <= 0 for s in order):
        return 0  # the hand would be dealt again
    assert me is not None
    return owed.get(me, 0)


def _dealer_choice(
    knows: dict[int, Card], seat: int, card: Card, wanted: ChaseAction, swap: dict[Rank, bool], view: ChaseView
) -> ChaseAction:
    """``medium``'s choice as the dealer (:func:`certain_payment`) from the cards it knows the holders of."""
    held = dict(knows)
    held[seat] = card
    if seat not in payments(held, view.options):
        return ChaseAction.STAY
    if len(held) == len(view.order) or swap[card.rank]:
        return wanted
    return ChaseAction.STAY
