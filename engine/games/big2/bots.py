"""Bots for Big Two.

``easy`` plays a random legal play and passes now and then. ``medium`` splits its hand into a plan of
combinations (five-card hands that use up loose cards first, then triples, pairs and singles), leads its weakest
combination, follows with the cheapest combination of its plan, keeps its 2s and bombs for when they matter, and
plays to finish. ``hard`` is Monte Carlo over determinized deals: for up to ten candidate plays it deals the unseen
cards (consistently with what it has seen played, and favouring deals in which ``medium`` would have made the
others' choices), plays the deal out with ``medium`` for every seat, and by successive halving drops the worse half of
the candidates after each round of deals, until one is left. Its budget is counted in playouts, and no decision
depends on the clock (a time cap applies only when a caller sets ``time_budget``). Late in a deal, when the unseen
cards can be dealt in few ways, it lists them all and draws its deals from that law exactly.

A bot keeps no random state: ``choose(view, legal, rng)`` draws only from the ``rng`` it is handed, so the same view
and the same RNG give the same choice. Views carry cards, not combinations: the bots rebuild them with
:func:`~engine.games.big2.rules.classify` (cached, see :func:`combo_of`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, combinations
from math import comb

from engine.cards import Card
from engine.game import Game
from engine.games.big2.rules import (
    CORE,
    PASS,
    Big2Action,
    Big2Options,
    Big2View,
    Combo,
    HiddenDeal,
    PassTurn,
    Play,
    bits,
    classify_mask,
    encoding,
    legal_plays,
    match_rule,
)
from engine.games.big2.rules import combo_of as _classified

TWO = 12  # rank index of the 2, the highest rank
ACE = 11
BOMBS = ("four", "straight_flush", "dragon")

_PLANS: dict[tuple[int, str], tuple[Combo, ...]] = {}
_plan_combos: Callable[[int, str], tuple[Combo, ...]] = CORE.plan_combos
"""A hand's plan, made in the move core (:mod:`engine.games.big2.core`), which is compiled."""


def plan(mask: int, options: Big2Options) -> tuple[Combo, ...]:
    """Split a hand into combinations to play, weakest first. Cached: a hand's plan never changes.

    Five-card hands first, while one clears at least two ranks (three if topped by a 2) from what is left: the
    one that clears most, the weakest of those; then the rest by rank, as singles, pairs and triples (a four left
    over as two pairs).
    """
    key = (mask, options.suits)
    cached = _PLANS.get(key)
    if cached is not None:
        return cached
    result = _plan_combos(mask, options.suits)
    if len(_PLANS) > 50000:
        _PLANS.clear()
    _PLANS[key] = result
    return result


def _top_rank(combo: Combo) -> int:
    return (combo.mask.bit_length() - 1) // 4


def _is_control(combo: Combo) -> bool:
    return combo.kind in BOMBS or _top_rank(combo) == TWO


_MOVES: dict[tuple[int, Combo | None, int, int, str], Combo | None] = {}
_UNKNOWN = Combo("unknown", 0, 0, 0)
"""Not in :data:`_MOVES` yet (None there means pass)."""


def medium_move(
    mask: int,
    table: Combo | None,
    must_include: int,
    others_min: int,
    options: Big2Options,
) -> Combo | None:
    """The ``medium`` choice on bitmasks: a combination to play, or None to pass. Used by rollouts too.

    Cached: the choice depends only on the hand, the table, the card that must be played, whether an opponent is
    down to one card, two, or more, and the suit order; a search replays the same situations many times over.
    """
    key = (mask, table, must_include, others_min if others_min < 3 else 3, options.suits)
    try:
        return _MOVES[key]
    except KeyError:
        pass
    choice = _medium_choice(mask, table, must_include, others_min, options)
    if len(_MOVES) >= 200_000:
        _MOVES.clear()
    _MOVES[key] = choice
    return choice


def _medium_choice(
    mask: int, table: Combo | None, must_include: int, others_min: int, options: Big2Options
) -> Combo | None:
    """``medium``'s rules. The plan answers most situations; every legal play is listed only when no part of the
    plan will do (that list costs more than the rest of the decision)."""
    if mask.bit_count() in (1, 2, 3, 5, 13):
        whole = classify_mask(mask, options)
        if (
            whole is not None
            and (not must_include or whole.mask & must_include)
            and (table is None or whole.beats(table))
        ):
            return whole  # the whole hand in one play: out
    if not mask:
        return None
    my_plan = plan(mask, options)
    danger = others_min <= 2
    if table is None:
        if must_include:
            for combo in my_plan:
                if combo.mask & must_include:
                    return combo
            legal = legal_plays(mask, table, options, must_include)
            return max(legal, key=lambda c: (c.size, -c.key)) if legal else None
        if others_min == 1:
            for combo in my_plan:
                if combo.size > 1:
                    return combo
            return max(my_plan, key=lambda c: c.key)  # a single: the highest, so the last card cannot follow
        return my_plan[0]
    if table.size == 1 and danger:
        top = mask.bit_length() - 1
        if table.kind == "single" and top > table.key:
            return Combo("single", 1 << top, top, 1, options.suits)  # the highest single
        legal = legal_plays(mask, table, options, must_include)
        return max(legal, key=lambda c: c.key if c.size == 1 else -1) if legal else None
    in_plan = [c for c in my_plan if c.size == table.size and c.beats(table)]
    if in_plan and must_include:
        in_plan = [c for c in in_plan if c.mask & must_include]
    if in_plan:
        choice = min(in_plan, key=lambda c: c.key)
        if _is_control(choice) and not danger and len(my_plan) > 3:
            return None  # keep the 2s and bombs for when they matter
        return choice
    if danger or len(my_plan) <= 2:
        legal = legal_plays(mask, table, options, must_include)
        return min(legal, key=lambda c: (c.kind in BOMBS, c.key)) if legal else None
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

    def __init__(self, game: Game[Big2Options, Big2View, Big2Action]) -> None:
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
    reads_view = False
    """It chooses from its legal actions alone: a table need not make it a view (see :mod:`engine.bots`)."""

    def __init__(self, game: Game[Big2Options, Big2View, Big2Action]) -> None:
        self.game = game

    def choose(self, view: Big2View | None, legal: Sequence[Big2Action], rng: random.Random) -> Big2Action:
        """Reads neither the view nor the plays: the legal actions list the pass last when one may pass (the pass
        is one object, :data:`PASS`), so the plays are the rest, taken without looking at each."""
        count = len(legal)
        if count and legal[-1] is PASS:
            plays = legal[:-1]
        else:
            plays = [a for a in legal if not isinstance(a, PassTurn)]
        if not plays or (len(plays) < count and rng.random() < self.pass_rate):
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
    """Play a deal out with ``medium`` at every seat; return the winner and every seat's cards left (as masks).

    The search's inner loop: :func:`medium_move`'s cache is read here directly, and a round ends when every seat
    but the last to play has passed.
    """
    n = len(hands)
    counts = [h.bit_count() for h in hands]
    suits = options.suits
    sit_out = options.no_play_after_pass
    moves = _MOVES
    for _ in range(2000):
        mask = hands[turn]
        others = min(counts[turn + 1 :] + counts[:turn])
        key = (mask, table, must_include, others if others < 3 else 3, suits)
        combo = moves.get(key, _UNKNOWN)
        if combo is _UNKNOWN:
            combo = medium_move(mask, table, must_include, others, options)
        if combo is None:
            passed[turn] = True
            if table_seat is not None and passed.count(True) - passed[table_seat] == n - 1:
                turn, table, table_seat = table_seat, None, None
                passed = [False] * n
                continue
        else:
            must_include = 0
            mask &= ~combo.mask
            hands[turn] = mask
            if not mask:
                return turn, hands
            counts[turn] -= combo.size
            table, table_seat = combo, turn
            if not sit_out:
                passed = [False] * n
        turn = turn + 1 if turn + 1 < n else 0
        if sit_out:
            while passed[turn] and turn != table_seat:
                turn = (turn + 1) % n
    raise RuntimeError("rollout did not finish")


_TWOS = 0xF << (4 * TWO)


def loss_points(mask: int, options: Big2Options) -> int:
    """The points a loser loses for the cards left (a bitmask): :func:`~engine.games.big2.rules.loss` without cards."""
    count = mask.bit_count()
    if options.scoring == "pagat":
        return count * (1 if count <= 9 else 2 if count <= 12 else 3)
    return count * (2 if count > 9 else 1) << (mask & _TWOS).bit_count()


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


def _agrees(choice: PastChoice, then: int, options: Big2Options) -> bool:
    """Whether ``medium`` holding ``then`` would have made ``choice``."""
    model = medium_move(then, choice.table, choice.must, choice.others_min, options)
    if choice.played is None:
        return model is None
    return model is not None and model.mask == choice.played.mask


def chain_deals(
    view: Big2View,
    hidden: HiddenDeal,
    evidence: Sequence[tuple[PastChoice, int]],
    count: int,
    burn: int,
    steps: int,
    noise: float,
    rng: random.Random,
    exact_limit: int = 0,
    chains: int = 1,
) -> list[list[int]]:
    """``count`` deals drawn from a Metropolis chain whose stationary law weighs a deal by ``noise`` for each of the
    others' past choices that ``medium`` would not have made with it (``1 - noise`` for each it would have).

    Uniform deals rarely explain what the others did; a chain of swaps keeps the deals that do. A step swaps an
    unseen card between two holders (two other seats, or a seat and the cards set aside with two players), and is
    kept with probability ``(noise / (1 - noise)) ** (more choices unexplained)``. The count of unexplained choices
    stops as soon as the step is sure to be refused, which most are.

    Late in a deal a chain of swaps mixes poorly (few swaps are kept, and its deals repeat): when the unseen cards
    can be dealt in at most ``exact_limit`` ways, the deals are drawn from that law exactly instead
    (:func:`exact_deals`).

    The deals come from ``chains`` chains, each from a uniform deal of its own with its own ``burn``: one chain
    that settles among a few deals that explain the choices stays there, and several spread the deals over more of
    those that do.
    """
    n = view.players
    me = view.seat
    options = view.options
    unseen = 0
    for v in hidden.unseen:
        unseen |= 1 << v

    def drawn() -> list[int]:
        """A uniform deal as the chain's holders: every seat's hand, then the cards set aside (two players)."""
        hands = hidden.sample(rng)
        dealt = 0
        for hand in hands:
            dealt |= hand
        return [*hands, unseen & ~dealt]

    masks = drawn()
    fixed = [*hidden.fixed, 0]
    holders = [s for s in range(n + 1) if s != me and masks[s] & ~fixed[s]]
    if len(holders) < 2:
        return [masks[:n] for _ in range(count)]
    by_seat: list[list[tuple[PastChoice, int]]] = [[] for _ in range(n + 1)]
    for choice, later in evidence:
        by_seat[choice.seat].append((choice, later))
    ratio = noise / (1.0 - noise)
    if exact_limit:
        exact = exact_deals(masks, fixed, holders, by_seat, ratio, count, exact_limit, options, rng)
        if exact is not None:
            return [hands[:n] for hands in exact]
    chains = max(1, chains)
    out: list[list[int]] = []
    for chain in range(chains):
        share = count // chains + (1 if chain < count % chains else 0)
        if not share:
            break  # fewer deals than chains: a chain for each
        if chain:
            masks = drawn()
        out += _chain(masks, fixed, holders, by_seat, ratio, share, burn, steps, options, rng)
    return [hands[:n] for hands in out]


def _chain(
    masks: list[int],
    fixed: Sequence[int],
    holders: Sequence[int],
    by_seat: Sequence[Sequence[tuple[PastChoice, int]]],
    ratio: float,
    count: int,
    burn: int,
    steps: int,
    options: Big2Options,
    rng: random.Random,
) -> list[list[int]]:
    """One chain of :func:`chain_deals` from the deal ``masks`` (changed in place; ``fixed``: the cards each holder is
    known to hold, never swapped): ``count`` deals, ``steps`` swaps apart after ``burn`` swaps."""
    movable = [bits(mask & ~known) for mask, known in zip(masks, fixed, strict=True)]
    unexplained = [
        sum(1 for c, later in choices if not _agrees(c, masks[s] | later, options)) for s, choices in enumerate(by_seat)
    ]
    out: list[list[int]] = []
    total = burn + steps * count
    for step in range(total):
        a, b = rng.sample(holders, 2)
        i = rng.randrange(len(movable[a]))
        j = rng.randrange(len(movable[b]))
        swap = (1 << movable[a][i]) | (1 << movable[b][j])
        chance = rng.random()
        allowed = 0
        while allowed < 52 and ratio ** (allowed + 1) > chance:
            allowed += 1
        limit = unexplained[a] + unexplained[b] + allowed
        new_a, new_b = masks[a] ^ swap, masks[b] ^ swap
        count_a = count_b = 0
        for choice, later in by_seat[a]:
            if not _agrees(choice, new_a | later, options):
                count_a += 1
                if count_a > limit:
                    break
        if count_a <= limit:
            for choice, later in by_seat[b]:
                if not _agrees(choice, new_b | later, options):
                    count_b += 1
                    if count_a + count_b > limit:
                        break
            if count_a + count_b <= limit:
                masks[a], masks[b] = new_a, new_b
                movable[a][i], movable[b][j] = movable[b][j], movable[a][i]
                unexplained[a], unexplained[b] = count_a, count_b
        if step >= burn and (step - burn) % steps == steps - 1:
            out.append(list(masks))
    return out


def exact_deals(
    masks: list[int],
    fixed: Sequence[int],
    holders: Sequence[int],
    by_seat: Sequence[Sequence[tuple[PastChoice, int]]],
    ratio: float,
    count: int,
    limit: int,
    options: Big2Options,
    rng: random.Random,
) -> list[list[int]] | None:
    """``count`` deals drawn independently from the law of :func:`chain_deals` (each deal weighed by ``ratio`` to the
    power of the others' choices it leaves unexplained), by listing every deal of the cards the ``holders`` may hold;
    None when there are more than ``limit`` such deals.

    The weight of a deal is the product of each holder's, so each holder's weight is worked out once for each hand it
    may hold, and the deals are then weighed by multiplying.
    """
    free = [masks[s] & ~fixed[s] for s in holders]
    needs = [m.bit_count() for m in free]
    pool = 0
    for m in free:
        pool |= m
    left = pool.bit_count()
    ways = 1
    for need in needs:
        ways *= comb(left, need)
        left -= need
        if ways > limit:
            return None
    weights: list[dict[int, float]] = [{} for _ in holders]

    def weight(index: int, hand: int) -> float:
        known = weights[index]
        found = known.get(hand)
        if found is None:
            seat = holders[index]
            whole = fixed[seat] | hand
            missed = sum(1 for choice, later in by_seat[seat] if not _agrees(choice, whole | later, options))
            found = known[hand] = ratio**missed
        return found

    deals: list[list[int]] = []
    totals: list[float] = []
    last = len(holders) - 1

    def deal(index: int, rest: int, hands: list[int], w: float) -> None:
        if index == last:
            deals.append([*hands, rest])
            totals.append(w * weight(index, rest))
            return
        for cards in combinations(bits(rest), needs[index]):
            hand = 0
            for v in cards:
                hand |= 1 << v
            deal(index + 1, rest & ~hand, [*hands, hand], w * weight(index, hand))

    deal(0, pool, [], 1.0)
    out = []
    for chosen in rng.choices(deals, cum_weights=list(accumulate(totals)), k=count):
        hands = list(masks)
        for index, seat in enumerate(holders):
            hands[seat] = fixed[seat] | chosen[index]
        out.append(hands)
    return out


def halving_schedule(candidates: int, budget: int) -> list[int]:
    """How many deals each round of successive halving plays out, for ``candidates`` picks and about ``budget``
    playouts in all.

    A round plays every pick still in the running on its deals, then keeps the better half (rounded up): 10 picks
    take four rounds (10, 5, 3 and 2 picks). Each round gets an equal share of the budget, so a round with fewer
    picks plays out more deals; every round plays at least one deal.
    """
    sizes = []
    alive = candidates
    while alive > 1:
        sizes.append(alive)
        alive = (alive + 1) // 2
    if not sizes:
        return []
    share = budget / len(sizes)
    return [max(1, int(share / size)) for size in sizes]


class HardBig2Bot:
    """``hard``: Monte Carlo over determinized deals with ``medium`` playouts, by successive halving.

    The deals come from Metropolis chains (:func:`chain_deals`, ``chains`` of them) that favour those in which
    ``medium`` would have made the others' choices so far: a deal that explains what the others did is likelier to
    be the real one than a uniform draw. Up to ``max_candidates`` plays are compared (:meth:`candidates`); each round
    of deals plays out those still in the running on the same deals and drops the worse half (:meth:`select`), so
    the budget goes to the plays that stay close.

    How often it wins against ``medium``, and how long it thinks: ``benchmarks/big2_strength.py`` (the figures are
    in ``docs/performance.md``).
    """

    difficulty = "hard"
    playouts = 900
    """Playouts per decision when every card is in hand, shared among the candidates: the budget that makes a seeded
    match reproducible."""
    time_budget: float | None = None
    """Seconds a decision may take at most, or None (the default): no clock at all, so the same view and RNG
    always give the same choice. Only a caller that wants a cap (and accepts that the load then changes the
    choice) sets one."""
    max_candidates = 10
    """How many plays the search compares (see :meth:`candidates`)."""
    inference_depth = 60
    """How many of the others' latest choices the sampled deals should explain (0: uniform deals)."""
    chain_steps = 10
    chain_burn = 100
    chain_noise = 0.1
    """The chain's deals are ``chain_steps`` swaps apart, after ``chain_burn`` swaps; ``chain_noise`` is how often
    it takes another seat to have gone against ``medium`` (see :func:`chain_deals`)."""
    chains = 4
    """How many chains share a decision's deals (see :func:`chain_deals`)."""
    exact_limit = 5000
    """Late in a deal, when the unseen cards can be dealt in at most this many ways, the deals are drawn from the
    chain's law exactly (:func:`exact_deals`) rather than by the chain (0: always the chain)."""
    max_scale = 2.0
    """At most this many times ``playouts`` late in a deal, when playouts are short (1: the same budget throughout)."""
    match_value = 1000.0
    """Added to a playout's score when the deal ends the match and this seat wins it: in the match's last deal
    (every deal of a one-deal game) going out first is all that counts, not the points (a deal's points are far
    below 1000, so they only break ties between playouts won or lost alike)."""

    def __init__(self, game: Game[Big2Options, Big2View, Big2Action]) -> None:
        self.game = game

    def candidates(self, view: Big2View) -> list[Combo | None]:
        """Up to ``max_candidates`` plays worth comparing: medium's, pass, the combinations of its plan, the cheapest
        and the strongest play of each size; then, while there is room, the other legal plays (the most cards
        first, then the lowest)."""
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
        for combo in sorted(legal, key=lambda c: (-c.size, c.key)):  # the rest: the most cards, the lowest first
            if len(picks) >= self.max_candidates:
                break
            add(combo)
        return picks

    def choose(self, view: Big2View, legal: Sequence[Big2Action], rng: random.Random) -> Big2Action:
        if len(legal) == 1:
            return legal[0]
        picks = self.candidates(view)
        if len(picks) == 1:
            return _as_action(picks[0])
        return _as_action(picks[self.select(view, picks, rng)])

    def select(self, view: Big2View, picks: Sequence[Combo | None], rng: random.Random) -> int:
        """The index of the pick that survives successive halving over determinized deals.

        Every pick still in the running is played out on the same deals in a round (so they are compared deal by
        deal); after each round the worse half (by total score since the first round, the earlier pick on a tie)
        is dropped, until one is left. The rounds share :meth:`budget` equally (see :func:`halving_schedule`): the
        few picks that last are played out on many more deals than the many that are soon dropped.
        """
        assert view.seat is not None
        hidden = HiddenDeal(view)
        must = hidden.must
        table = table_combo(view)
        schedule = halving_schedule(len(picks), self.budget(view))
        deals = self.sample_deals(view, hidden, sum(schedule), rng)
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        totals = [0.0] * len(picks)
        alive = list(range(len(picks)))
        played = 0
        for per_round in schedule:
            for hands in deals[played : played + per_round]:
                if deadline is not None and played and time.perf_counter() > deadline:
                    return min(alive, key=lambda i: (-totals[i], i))
                played += 1
                for index in alive:
                    totals[index] += self.playout(view, table, list(hands), picks[index], must)
            alive.sort(key=lambda i: (-totals[i], i))
            del alive[(len(alive) + 1) // 2 :]
        return alive[0]

    def budget(self, view: Big2View) -> int:
        """How many playouts the decision may take in all. ``playouts`` is the budget when every card is still in
        hand; as the deal goes on, playouts get shorter (about in proportion to the cards left), so up to
        ``max_scale`` times as many fit in the same time."""
        scale = min(self.max_scale, sum(view.start_counts) / max(1, sum(view.counts)))
        return max(1, int(self.playouts * scale))

    def sample_deals(self, view: Big2View, hidden: HiddenDeal, count: int, rng: random.Random) -> list[list[int]]:
        """``count`` deals of the cards ``view`` does not show, as the search samples them: favouring the deals
        that explain the others' choices so far (:meth:`evidence`), else uniformly."""
        evidence = self.evidence(view)
        if not evidence:
            return [hidden.sample(rng) for _ in range(count)]
        return chain_deals(
            view,
            hidden,
            evidence,
            count,
            self.chain_burn,
            self.chain_steps,
            self.chain_noise,
            rng,
            self.exact_limit,
            self.chains,
        )

    def evidence(self, view: Big2View) -> list[tuple[PastChoice, int]]:
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

    def playout(self, view: Big2View, table: Combo | None, hands: list[int], pick: Combo | None, must: int) -> float:
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
                return self._score(view, winner, left)
        else:
            hands[seat] &= ~pick.mask
            if not hands[seat]:
                return self._score(view, seat, hands)
            table, table_seat = pick, seat
            must = 0
            if not options.no_play_after_pass:
                passed = [False] * n
        turn = (seat + 1) % n
        if options.no_play_after_pass:
            while passed[turn] and turn != table_seat:
                turn = (turn + 1) % n
        winner, left = rollout(hands, table, table_seat, passed, turn, must, options)
        return self._score(view, winner, left)

    def _score(self, view: Big2View, winner: int, hands: Sequence[int]) -> float:
        """The points this seat gains from the finished deal; plus ``match_value`` (shared in a tie) when the deal
        ends the match and this seat wins it."""
        seat = view.seat
        assert seat is not None
        options = view.options
        deltas = [0 if s == winner else -loss_points(h, options) for s, h in enumerate(hands)]
        deltas[winner] = -sum(deltas)
        score = float(deltas[seat])
        if self.match_value:
            totals = [t + d for t, d in zip(view.totals, deltas, strict=True)]
            rule = match_rule(options)
            if rule.is_over(view.deal, totals):
                winners = rule.winners(totals)
                if seat in winners:
                    score += self.match_value / len(winners)
        return score


def _as_action(choice: Combo | None) -> Big2Action:
    return PASS if choice is None else Play(choice.cards)
