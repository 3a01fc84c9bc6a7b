"""A reference Big Two opponent from outside Parlour's own bots, to measure them against something else.

It plays the classic greedy-with-control heuristics of public Big Two strategy write-ups and rule bots (in the
spirit of bluo42/big2-ai's; nothing of theirs is copied, and it was written without reading Parlour's bots):

- it splits its hand into *units*: five-card hands first (each taken only when it makes the hand shorter to play
  out, the one that leaves the fewest ranks, then the weakest, sparing the 2s), then triples, pairs and single
  cards by rank;
- leading, it plays its lowest unit that is not a control (a larger unit first on a tie), so low singles and whole
  combinations go out early; the first play of a deal is the unit holding the starting card;
- following, it beats with the smallest unit that beats the table, never breaking a unit while its hand is long;
- it keeps its 2s, any unbeatable single or pair and its strong five-card hands (full house and better) for
  control, passing rather than spending them on a cheap table while its hand is long;
- near the end (few cards left, or an opponent about to go out) it sheds anything that beats the table, and
  against an opponent with one card it plays singles from the top.

It chooses only from its seat's view (:class:`~engine.games.big2.rules.Big2View`: its own hand, the counts, the
table and the cards played) and the legal actions the table hands it, and draws nothing from its RNG: the same
view always gets the same answer. It plugs into a :class:`~engine.table.Table` like any bot (``choose(view, legal,
rng)``); :func:`seat_table` seats it, by the level name :data:`REFERENCE`, beside Parlour's own levels.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.bots import Bot
from engine.games.big2.rules import (
    PASS,
    Big2Action,
    Big2Options,
    Big2View,
    Combo,
    ComboCache,
    Play,
    classify_mask,
    encoding,
)
from engine.names import name_key
from engine.registry import get_entry, make_bot
from engine.table import SeatInfo, Table, default_name, match_options

REFERENCE = "reference"
"""The level name :func:`seat_table` seats this bot under."""

STRONG_FIVE = ("full_house", "four", "straight_flush")
"""Five-card hands kept for control while the hand is long."""

LONG_HAND = 6
"""A hand longer than this keeps its units whole and its control cards back."""

TWOS = 12
"""The rank index of the 2s (3 -> 0 ... A -> 11, 2 -> 12)."""


def _ranks(mask: int) -> int:
    """How many ranks a set of cards (a mask of the 52) has."""
    return sum(1 for rank in range(13) if mask >> 4 * rank & 15)


def _top_rank(mask: int) -> int:
    return (mask.bit_length() - 1) // 4


def _low_rank(mask: int) -> int:
    return ((mask & -mask).bit_length() - 1) // 4


_HANDS = ComboCache(limit=1024)
"""This bot's own cache of the hands' combinations (the rules' move generation, kept apart from the bots')."""


def _fives(mask: int, options: Big2Options) -> list[Combo]:
    """Every five-card hand in ``mask``."""
    return _HANDS.get(mask, options).of_size(5)


def units(mask: int, options: Big2Options) -> list[Combo]:
    """The hand split into the units it means to play: five-card hands, then triples, pairs and singles by rank.

    A five-card hand is taken while one makes the hand shorter to play out (one unit for the five cards, against
    the ranks they took away, a 2 spent in it counting as two units more); of those, the one that leaves the
    fewest, then the weakest."""
    out: list[Combo] = []
    rest = mask
    while rest.bit_count() >= 5:
        before = _ranks(rest)
        best: tuple[int, int] | None = None
        chosen: Combo | None = None
        for combo in _fives(rest, options):
            after = _ranks(rest & ~combo.mask) + 1 + 2 * (combo.mask >> 4 * TWOS != 0)
            if after >= before:
                continue
            score = (after, combo.key)
            if best is None or score < best:
                best, chosen = score, combo
        if chosen is None:
            break
        out.append(chosen)
        rest &= ~chosen.mask
    for rank in range(13):
        group = rest >> 4 * rank & 15
        if not group:
            continue
        cards = group << 4 * rank
        if group == 15:  # four of a kind with no kicker left: two pairs
            lowest = cards & -cards
            second = (cards ^ lowest) & -(cards ^ lowest)
            low = lowest | second
            for part in (low, cards & ~low):
                made = classify_mask(part, options)
                assert made is not None
                out.append(made)
            continue
        made = classify_mask(cards, options)
        assert made is not None
        out.append(made)
    return out


class ReferenceBig2Bot:
    """The reference opponent (see the module docstring): greedy with control, from its seat's view only."""

    difficulty = REFERENCE
    long_hand = LONG_HAND
    """A hand longer than this keeps its units whole and its control cards back."""
    keep_below = 10
    """A 2 or an unbeatable single or pair is kept back on a table whose top rank is below this (10: a King)."""

    def choose(self, view: Big2View, legal: Sequence[Big2Action], rng: random.Random) -> Big2Action:
        options = view.options
        enc = encoding(options)
        hand = enc.mask(view.hand)
        plays: dict[int, Play] = {}
        for action in legal:
            if isinstance(action, Play):
                plays[enc.mask(action.cards)] = action
        may_pass = PASS in legal
        if not plays:
            return PASS
        if hand in plays:
            return plays[hand]  # out at once
        seat = view.seat
        others = [count for other, count in enumerate(view.counts) if other != seat and count > 0]
        danger = min(others) if others else 13
        unseen = ~hand & ~enc.mask(view.played) & (1 << 52) - 1
        my_units = units(hand, options)
        long_hand = hand.bit_count() > self.long_hand
        if view.table is None:
            return self._lead(
                view, plays, my_units, unseen, danger, enc.mask([view.must_include]) if view.must_include else 0
            )
        table = classify_mask(enc.mask(view.table.cards), options)
        assert table is not None
        return self._follow(plays, my_units, table, unseen, danger, long_hand, may_pass, options)

    # -- leading ------------------------------------------------------------------------------------------------
    def _lead(
        self, view: Big2View, plays: dict[int, Play], my_units: list[Combo], unseen: int, danger: int, must: int
    ) -> Big2Action:
        if must:
            holding = [u for u in my_units if u.mask & must and u.mask in plays]
            if holding:
                return plays[holding[0].mask]
            return plays[min((m for m in plays if m & must), key=lambda m: (m.bit_count() == 1, m))]
        playable = [u for u in my_units if u.mask in plays]
        controls = [u for u in playable if _is_control(u, unseen)]
        free = [u for u in playable if not _is_control(u, unseen)]
        if controls and len(free) <= 1:
            # controls and at most one other: the controls first, then the other on the lead they win back
            return plays[max(controls, key=lambda u: (u.size, -u.key)).mask]
        if danger == 1:
            multi = [u for u in playable if u.size > 1]
            if multi:
                return plays[min(multi, key=lambda u: (_low_rank(u.mask), -u.size)).mask]
            return plays[max(u.mask for u in playable if u.size == 1)]
        pool = free or playable
        if danger == 2:
            no_pairs = [u for u in pool if u.size != 2]
            pool = no_pairs or pool
        chosen = min(pool, key=self._lead_order)
        return plays[chosen.mask]

    @staticmethod
    def _lead_order(unit: Combo) -> tuple[int, ...]:
        """Which unit to lead first: the lowest, a larger one first on a tie."""
        return (_low_rank(unit.mask), -unit.size, unit.key)

    # -- following ----------------------------------------------------------------------------------------------
    def _follow(
        self,
        plays: dict[int, Play],
        my_units: list[Combo],
        table: Combo,
        unseen: int,
        danger: int,
        long_hand: bool,
        may_pass: bool,
        options: Big2Options,
    ) -> Big2Action:
        whole = sorted((u for u in my_units if u.mask in plays), key=lambda u: (u.kind == "dragon", u.key))
        beating = [classify_mask(mask, options) for mask in plays]
        others = sorted((c for c in beating if c is not None), key=lambda c: (c.kind == "dragon", c.key))
        if table.size == 1 and danger == 1:
            return plays[others[-1].mask]  # stop the last card: the highest single
        if whole:
            choice = whole[0]
            if may_pass and long_hand and danger > 2 and self._keeps(choice, table, unseen):
                return PASS
            return plays[choice.mask]
        if not may_pass or not long_hand or danger <= 2:
            # few cards (or a threat): shed what beats the table, smallest first, sparing the 2s when it can
            spare = [c for c in others if not c.mask >> 4 * TWOS] or others
            return plays[spare[0].mask]
        return PASS

    def _keeps(self, unit: Combo, table: Combo, unseen: int) -> bool:
        """Whether ``unit`` is a control card worth more than this table: a 2 or an unbeatable single or pair on a
        low table, or a strong five-card hand on a weaker kind."""
        if unit.size in (1, 2):
            control = _top_rank(unit.mask) == TWOS or _is_control(unit, unseen)
            return control and _top_rank(table.mask) < self.keep_below
        if unit.size == 5:
            return unit.kind in STRONG_FIVE and table.kind not in STRONG_FIVE
        return False


def _is_control(unit: Combo, unseen: int) -> bool:
    """No unseen cards could beat ``unit`` (a single or pair), or it is a strong five-card hand."""
    if unit.size == 1:
        return unseen >> unit.key == 0
    if unit.size == 2:
        for rank in range(13):
            group = unseen >> 4 * rank & 15
            if group.bit_count() >= 2 and 4 * rank + group.bit_length() - 1 > unit.key:
                return False
        return True
    if unit.size == 5:
        return unit.kind in STRONG_FIVE
    return False


def make_level(level: str) -> Bot:
    """A bot of ``level`` for Big Two: one of Parlour's levels (``easy``, ``medium``, ``hard``) or the reference."""
    if level == REFERENCE:
        return ReferenceBig2Bot()
    return make_bot(get_entry("big2").game, level)


def seat_table(levels: Sequence[str], seed: int, deals: int = 1) -> Table:
    """A Big Two table of bots, seat ``i`` playing ``levels[i]`` (Parlour's levels or :data:`REFERENCE`).

    ``Table.create`` seats only the levels the registry lists; a bot object of one's own is seated through the
    table's own constructor, with a :class:`~engine.table.SeatInfo` that holds it. The deal is the one
    ``Table.create("big2", len(levels), seed=seed, ...)`` would deal."""
    entry = get_entry("big2")
    options: Any = match_options(entry, None, (), deals)
    seats = []
    taken: set[str] = set()
    for seat, level in enumerate(levels):
        name = default_name(seat, level, taken)
        taken.add(name_key(name))
        seats.append(SeatInfo(name=name, level=level, bot=make_level(level)))
    return Table(entry, options, seats, seed)
