"""Bots for Big Two.

``easy`` plays a random legal play and passes now and then. ``medium`` splits its hand into a plan of
combinations (five-card hands that use up loose cards first, then triples, pairs and singles), leads its weakest
combination, follows with the cheapest combination of its plan, keeps its 2s and bombs for when they matter, and
plays to finish. ``hard`` is flat Monte Carlo over determinized deals: for a handful of candidate plays it deals the
unseen cards at random (consistently with what it has seen played), plays the deal out with ``medium`` for every
seat, and keeps the candidate with the best average score. Its budget is counted in playouts, and no decision
depends on the clock (a time cap applies only when a caller sets ``time_budget``).

A bot keeps no random state: ``choose(view, legal, rng)`` draws only from the ``rng`` it is handed, so the same view
and the same RNG give the same choice. Views carry cards, not combinations: the bots rebuild them with
:func:`~engine.games.big2.classify` (cached, see :func:`combo_of`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.cards import Card
from engine.game import Game
from engine.games.big2 import (
    COMBOS,
    PASS,
    Big2Action,
    Big2Options,
    Big2View,
    Combo,
    HiddenDeal,
    PassTurn,
    Play,
    encoding,
    legal_plays,
    loss,
)
from engine.games.big2 import combo_of as _classified

TWO = 12  # rank index of the 2, the highest rank
ACE = 11
BOMBS = ("four", "straight_flush", "dragon")

_PLANS: dict[tuple[int, str], tuple[Combo, ...]] = {}


def _groups(mask: int) -> int:
    """How many ranks the cards cover: about how many plays it takes to get rid of them without five-card hands."""
    ranks = 0
    while mask:
        low = mask & -mask
        ranks |= 1 << ((low.bit_length() - 1) // 4)
        mask ^= low
    return ranks.bit_count()


def plan(mask: int, options: Big2Options) -> tuple[Combo, ...]:
    """Split a hand into combinations to play, weakest first. Cached: a hand's plan never changes."""
    key = (mask, options.suits)
    cached = _PLANS.get(key)
    if cached is not None:
        return cached
    combos: list[Combo] = []
    remaining = mask
    while True:
        best: Combo | None = None
        best_gain = 0.0
        base = _groups(remaining)
        for five in COMBOS.get(remaining, options).of_size(5):
            rest = remaining & ~five.mask
            gain = base - _groups(rest) - 1.0
            top_rank = (five.mask.bit_length() - 1) // 4
            if top_rank == TWO:
                gain -= 1.5  # a five-card hand topped by a 2 spends a control card
            if gain > best_gain or (best is not None and gain == best_gain and five.key < best.key):
                best, best_gain = five, gain
        if best is None:
            break
        combos.append(best)
        remaining &= ~best.mask
    hand = COMBOS.get(remaining, options)
    for group in hand.by_rank:
        if not group:
            continue
        m = 0
        for v in group:
            m |= 1 << v
        if len(group) == 4:  # four without a single to go with it: two pairs
            first = (1 << group[0]) | (1 << group[1])
            combos.append(Combo("pair", first, group[1], 2, options.suits))
            combos.append(Combo("pair", m & ~first, group[3], 2, options.suits))
        else:
            kind = ("single", "pair", "triple")[len(group) - 1]
            combos.append(Combo(kind, m, group[-1], len(group), options.suits))
    combos.sort(key=lambda c: c.mask & -c.mask)  # by the lowest card in each
    result = tuple(combos)
    if len(_PLANS) > 20000:
        _PLANS.clear()
    _PLANS[key] = result
    return result


def _top_rank(combo: Combo) -> int:
    return (combo.mask.bit_length() - 1) // 4


def _is_control(combo: Combo) -> bool:
    return combo.kind in BOMBS or _top_rank(combo) == TWO


def medium_move(
    mask: int,
    table: Combo | None,
    must_include: int,
    others_min: int,
    options: Big2Options,
) -> Combo | None:
    """The ``medium`` choice on bitmasks: a combination to play, or None to pass. Used by rollouts too."""
    legal = legal_plays(mask, table, options, must_include)
    if not legal:
        return None
    for combo in legal:
        if combo.mask == mask:
            return combo  # the whole hand in one play: out
    my_plan = plan(mask, options)
    danger = others_min <= 2
    if table is None:
        if must_include:
            own = [c for c in my_plan if c.mask & must_include and c in legal]
            if own:
                return own[0]
            return max(legal, key=lambda c: (c.size, -c.key))
        choices = list(my_plan)
        if danger and others_min == 1:
            multi = [c for c in choices if c.size > 1]
            if multi:
                return multi[0]
            return max(choices, key=lambda c: c.key)  # a single: the highest, so the last card cannot follow
        return choices[0]
    in_plan = [c for c in my_plan if c.size == table.size and c.beats(table)]
    if table.size == 1 and danger:
        return max(legal, key=lambda c: c.key if c.size == 1 else -1)
    if in_plan:
        choice = min(in_plan, key=lambda c: c.key)
        if _is_control(choice) and not danger and len(my_plan) > 3:
            return None  # keep the 2s and bombs for when they matter
        return choice
    if danger or len(my_plan) <= 2:
        return min(legal, key=lambda c: (c.kind in BOMBS, c.key))
    return None


@lru_cache(maxsize=1 << 16)
def combo_of(cards: tuple[Card, ...], options: Big2Options) -> Combo:
    """The combination of a play seen in a view (the table, the log), rebuilt from its cards once and cached."""
    return _classified(cards, options)


def table_combo(view: Big2View) -> Combo | None:
    """The combination to beat in ``view`` (None when leading)."""
    return combo_of(view.table.cards, view.options) if view.table is not None else None


def _others_min(counts: Sequence[int], seat: int) -> int:
    return min(c for s, c in enumerate(counts) if s != seat)


class MediumBig2Bot:
    difficulty = "medium"

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game

    def choose(self, view: Big2View, legal: Sequence[Big2Action], rng: random.Random) -> Big2Action:
        assert view.seat is not None
        enc = encoding(view.options)
        must = enc.mask([view.must_include]) if view.must_include else 0
        table = table_combo(view)
        combo = medium_move(enc.mask(view.hand), table, must, _others_min(view.counts, view.seat), view.options)
        if combo is None:
            return PASS
        return Play(combo.cards)


class EasyBig2Bot:
    """``easy``: a random legal play; passes a quarter of the time when it may."""

    difficulty = "easy"
    pass_rate = 0.25

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game

    def choose(self, view: Big2View, legal: Sequence[Big2Action], rng: random.Random) -> Big2Action:
        plays = [a for a in legal if not isinstance(a, PassTurn)]
        if not plays or (PASS in legal and rng.random() < self.pass_rate):
            return PASS
        return rng.choice(plays)


def rollout(
    hands: list[int],
    table: Combo | None,
    table_seat: int | None,
    passed: list[bool],
    turn: int,
    must_include: int,
    options: Big2Options,
) -> tuple[int, list[int]]:
    """Play a deal out with ``medium`` at every seat; return the winner and every seat's cards left (as masks)."""
    n = len(hands)
    counts = [h.bit_count() for h in hands]
    for _ in range(2000):
        mask = hands[turn]
        others = min(counts[s] for s in range(n) if s != turn)
        combo = medium_move(mask, table, must_include, others, options)
        if combo is None:
            passed[turn] = True
            if table_seat is not None and all(passed[s] for s in range(n) if s != table_seat):
                turn, table, table_seat = table_seat, None, None
                passed = [False] * n
                continue
        else:
            must_include = 0
            mask &= ~combo.mask
            hands[turn] = mask
            counts[turn] -= combo.size
            if not mask:
                return turn, hands
            table, table_seat = combo, turn
            if not options.no_play_after_pass:
                passed = [False] * n
        turn = (turn + 1) % n
        if options.no_play_after_pass:
            while passed[turn] and turn != table_seat:
                turn = (turn + 1) % n
    raise RuntimeError("rollout did not finish")


def deal_delta(seat: int, winner: int, hands: Sequence[int], options: Big2Options) -> int:
    """What ``seat`` gains (or loses) from a finished deal under the scoring in force."""
    enc = encoding(options)
    losses = [0 if s == winner else loss(enc.cards(h), options).points for s, h in enumerate(hands)]
    return sum(losses) if seat == winner else -losses[seat]


@dataclass(frozen=True)
class PastChoice:
    """A choice another seat made this deal, with what it saw then (its hand aside)."""

    index: int
    seat: int
    played: Combo | None
    table: Combo | None
    must: int
    others_min: int


def past_choices(view: Big2View) -> list[PastChoice]:
    """Replay the deal's public log to recover the situation of every choice made so far."""
    enc = encoding(view.options)
    n = view.players
    counts = list(view.start_counts)
    table: Combo | None = None
    table_seat: int | None = None
    passed = [False] * n
    must = enc.mask([view.opening]) if view.opening else 0
    out = []
    for index, (seat, cards) in enumerate(view.log):
        combo = combo_of(cards, view.options) if cards is not None else None
        others = min(counts[s] for s in range(n) if s != seat)
        out.append(PastChoice(index, seat, combo, table, must, others))
        if combo is None:
            passed[seat] = True
            if table_seat is not None and all(passed[s] for s in range(n) if s != table_seat):
                table, table_seat, passed = None, None, [False] * n
        else:
            counts[seat] -= combo.size
            table, table_seat, must = combo, seat, 0
            if not view.options.no_play_after_pass:
                passed = [False] * n
    return out


class HardBig2Bot:
    """``hard``: flat Monte Carlo over determinized deals with ``medium`` playouts.

    Each sampled deal is weighted by how well it explains the other players' recent choices, taking them to play
    like ``medium`` most of the time (``model_noise`` is how often a choice is taken to go against that).
    """

    difficulty = "hard"
    playouts = 240
    """Playouts per decision, shared among the candidates: the budget that makes a seeded match reproducible."""
    time_budget: float | None = None
    """Seconds a decision may take at most, or None (the default): no clock at all, so the same view and RNG
    always give the same choice. Only a caller that wants a cap (and accepts that the load then changes the
    choice) sets one."""
    max_candidates = 6
    win_bonus = 0.0
    """Added to a playout's score when this seat wins the deal, on top of the points."""
    inference_depth = 8
    """How many of the others' latest choices weigh a sampled deal (0: no inference)."""
    model_noise = 0.3

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game

    def candidates(self, view: Big2View) -> list[Combo | None]:
        """A few plays worth comparing: medium's, pass, the cheapest of each size, the strongest single..."""
        assert view.seat is not None
        enc = encoding(view.options)
        mask = enc.mask(view.hand)
        must = enc.mask([view.must_include]) if view.must_include else 0
        table = table_combo(view)
        legal = legal_plays(mask, table, view.options, must)
        picks: list[Combo | None] = []

        def add(choice: Combo | None) -> None:
            if choice not in picks and len(picks) < self.max_candidates:
                picks.append(choice)

        add(medium_move(mask, table, must, _others_min(view.counts, view.seat), view.options))
        if table is not None:
            add(None)
        my_plan = plan(mask, view.options)
        for combo in my_plan:
            if combo in legal:
                add(combo)
        by_size: dict[int, list[Combo]] = {}
        for combo in legal:
            by_size.setdefault(combo.size, []).append(combo)
        for size in sorted(by_size, reverse=True):
            group = sorted(by_size[size], key=lambda c: c.key)
            add(group[0])
            add(group[-1])
        return picks

    def choose(self, view: Big2View, legal: Sequence[Big2Action], rng: random.Random) -> Big2Action:
        if len(legal) == 1:
            return legal[0]
        picks = self.candidates(view)
        if len(picks) == 1:
            return _as_action(picks[0])
        scores = self.evaluate(view, picks, rng)
        best = max(range(len(picks)), key=lambda i: scores[i])
        return _as_action(picks[best])

    def evaluate(self, view: Big2View, picks: Sequence[Combo | None], rng: random.Random) -> list[float]:
        """Average deal score of each candidate over the same determinized deals."""
        assert view.seat is not None
        hidden = HiddenDeal(view)
        must = hidden.must
        evidence = self._evidence(view)
        table = table_combo(view)
        totals = [0.0] * len(picks)
        weight_sum = 0.0
        rounds = max(1, self.playouts // len(picks))
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        for done in range(rounds):
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            hands = hidden.sample(rng)
            weight = self._weight(view, hands, evidence)
            weight_sum += weight
            for index, pick in enumerate(picks):
                totals[index] += weight * self._playout(view, table, list(hands), pick, must)
        return [t / weight_sum for t in totals]

    def _evidence(self, view: Big2View) -> list[tuple[PastChoice, int]]:
        """The others' latest choices, each with the cards its seat has played since (back in hand then)."""
        if self.inference_depth <= 0:
            return []
        choices = [c for c in past_choices(view) if c.seat != view.seat][-self.inference_depth :]
        out = []
        for choice in choices:
            later = 0
            for seat, cards in view.log[choice.index :]:
                if seat == choice.seat and cards is not None:
                    later |= combo_of(cards, view.options).mask
            out.append((choice, later))
        return out

    def _weight(self, view: Big2View, hands: Sequence[int], evidence: Sequence[tuple[PastChoice, int]]) -> float:
        weight = 1.0
        for choice, later in evidence:
            then = hands[choice.seat] | later
            model = medium_move(then, choice.table, choice.must, choice.others_min, view.options)
            if choice.played is None:
                agrees = model is None
            else:
                agrees = model is not None and model.mask == choice.played.mask
            weight *= 1.0 - self.model_noise if agrees else self.model_noise
        return weight

    def _playout(self, view: Big2View, table: Combo | None, hands: list[int], pick: Combo | None, must: int) -> float:
        seat = view.seat
        assert seat is not None
        n = view.players
        options = view.options
        passed = list(view.passed)
        table_seat = view.table_seat
        if pick is None:
            passed[seat] = True
            if table_seat is not None and all(passed[s] for s in range(n) if s != table_seat):
                winner, left = rollout(hands, None, None, [False] * n, table_seat, 0, options)
                return self._score(seat, winner, left, options)
        else:
            hands[seat] &= ~pick.mask
            if not hands[seat]:
                return self._score(seat, seat, hands, options)
            table, table_seat = pick, seat
            must = 0
            if not options.no_play_after_pass:
                passed = [False] * n
        turn = (seat + 1) % n
        if options.no_play_after_pass:
            while passed[turn] and turn != table_seat:
                turn = (turn + 1) % n
        winner, left = rollout(hands, table, table_seat, passed, turn, must, options)
        return self._score(seat, winner, left, options)

    def _score(self, seat: int, winner: int, hands: Sequence[int], options: Big2Options) -> float:
        bonus = self.win_bonus if winner == seat else 0.0
        return deal_delta(seat, winner, hands, options) + bonus


def _as_action(choice: Combo | None) -> Big2Action:
    return PASS if choice is None else Play(choice.cards)
