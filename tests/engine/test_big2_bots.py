"""Bots for Big Two: always legal, ``medium`` plays sensibly, ``hard`` answers, and ``medium`` beats ``easy``."""

from __future__ import annotations

import dataclasses
import random

import pytest
from big2_helpers import GAME, act, card, cards, opts, position, random_positions

from engine.games.big2 import core as big2_core
from engine.games.big2 import rules as big2_rules
from engine.games.big2.bots import (
    HardBig2Bot,
    MediumBig2Bot,
    chain_deals,
    halving_schedule,
    loss_points,
    medium_move,
    plan,
)
from engine.games.big2.rules import (
    PASS,
    Big2Options,
    Big2State,
    Big2View,
    Combo,
    DealOver,
    HiddenDeal,
    PassTurn,
    Play,
    bits,
    encoding,
    legal_plays,
    loss,
)
from engine.registry import difficulties, make_bot
from engine.table import Table

VARIANT_SETS: list[tuple[str, ...]] = [(), ("standard-suits",), ("taiwan", "no-play-after-pass"), ("pagat-scoring",)]


def test_levels() -> None:
    assert difficulties(GAME) == ("easy", "medium", "hard")


@pytest.mark.parametrize(("level", "count"), [("easy", 400), ("medium", 400), ("hard", 12)])
def test_bot_chooses_only_legal_actions(level: str, count: int) -> None:
    bot = make_bot(GAME, level)
    if isinstance(bot, HardBig2Bot):
        bot.playouts = 12
    kinds = set()
    rng = random.Random(1)
    for state in random_positions(count, len(level), VARIANT_SETS):
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        before = state.view(seat)
        action = bot.choose(state.view(seat), legal, rng)
        assert state.view(seat) == before, "choosing changes nothing"
        state.check(seat, action)
        kinds.add("pass" if isinstance(action, PassTurn) else "play")
    if level != "hard":
        assert kinds == {"pass", "play"}


def test_medium_never_passes_when_leading() -> None:
    bot = make_bot(GAME, "medium")
    leading = 0
    for state in random_positions(400, 7, VARIANT_SETS):
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        if not view.leading:
            continue
        leading += 1
        action = bot.choose(view, state.legal_actions(), random.Random(0))
        assert action != PASS
        if view.must_include:  # the first lead (with two players the 3D may be set aside: the lowest dealt card)
            assert isinstance(action, Play) and view.must_include in action.cards
    assert leading > 30


@pytest.mark.parametrize(
    ("hands", "table", "out"),
    [
        pytest.param(["5C 5D", "9S KH"], None, "5C 5D", id="leads-a-pair-that-is-the-whole-hand"),
        pytest.param(["3C 4D 5H 6S 7C", "9S KH"], None, "3C 4D 5H 6S 7C", id="leads-a-straight-that-is-its-hand"),
        pytest.param(["5C 5D", "4S 4H 9C"], "4S 4H", "5C 5D", id="beats-a-pair-with-its-last-two-cards"),
        pytest.param(["2S", "AS 4C"], "AS", "2S", id="beats-a-single-with-its-last-card"),
    ],
)
def test_medium_plays_the_whole_hand_when_it_can(hands: list[str], table: str | None, out: str) -> None:
    state = position(hands, turn=0) if table is None else position(hands, turn=1)
    if table is not None:
        act(state, table)
    assert state.to_move == 0
    bot = make_bot(GAME, "medium")
    action = bot.choose(state.view(0), state.legal_actions(), random.Random(0))
    assert isinstance(action, Play) and set(action.cards) == {card(c) for c in out.split()}


@pytest.mark.parametrize("seed", range(8))
def test_medium_first_lead_includes_the_lead_card(seed: int) -> None:
    variants = VARIANT_SETS[seed % len(VARIANT_SETS)]
    state = GAME.new_match(4, opts(*variants), random.Random(seed))
    seat = state.to_move
    assert seat is not None
    bot = make_bot(GAME, "medium")
    action = bot.choose(state.view(seat), state.legal_actions(), random.Random(seed))
    assert isinstance(action, Play) and state.options.lead_card in action.cards
    state.check(seat, action)


def test_hard_returns_a_legal_action() -> None:
    bot = make_bot(GAME, "hard")
    assert isinstance(bot, HardBig2Bot)
    bot.playouts = 24
    rng = random.Random(3)
    positions = random_positions(8, 99, VARIANT_SETS)
    positions.append(GAME.new_match(4, opts(deals=1), random.Random(5)))  # the first lead
    for state in positions:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        action = bot.choose(state.view(seat), legal, rng)
        state.check(seat, action)


def test_hard_plays_a_whole_deal() -> None:
    table = Table.create("big2", players=3, seed=4, bots=["hard", "easy", "medium"], deals=1)
    bot = table.seats[0].bot
    assert isinstance(bot, HardBig2Bot)
    bot.playouts = 12
    table.run()
    assert table.state.is_over


def test_medium_beats_easy() -> None:
    """Seat 0 medium against three easy bots over 60 one-deal games: it wins more than half the deals (about 90%
    measured), far above the 25% of an equal player."""
    wins = 0
    games = 60
    for seed in range(games):
        options = dataclasses.replace(GAME.options(), deals=1)
        table = Table.create("big2", players=4, seed=seed, bots=["medium", "easy", "easy", "easy"], deals=1)
        assert table.options == options
        table.run()
        (over,) = [e for e in table.state.history if isinstance(e, DealOver)]
        wins += over.winner == 0
    assert wins / games > 0.5


# ---------------------------------------------------------------------------------------------------------------
# No bot keeps random state or reads the clock: its choice is a function of the view and the RNG it is handed.
# ---------------------------------------------------------------------------------------------------------------
def _stopped_clock(*args: object) -> float:
    raise AssertionError("a bot read the clock")


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_choice_depends_on_the_view_and_the_rng_only(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same view and the same RNG seed give the same choice, and no decision reads the clock (``hard`` has no
    time budget unless a caller sets one)."""
    bot = make_bot(GAME, level)
    if isinstance(bot, HardBig2Bot):
        assert bot.time_budget is None
        bot.playouts = 30
    positions = random_positions(6 if level == "hard" else 40, 17, VARIANT_SETS, steps=(0, 30))
    first = []
    for state in positions:
        seat = state.to_move
        assert seat is not None
        first.append(bot.choose(state.view(seat), state.legal_actions(), random.Random(seat)))
    with monkeypatch.context() as patched:
        for name in ("perf_counter", "monotonic", "time", "perf_counter_ns", "monotonic_ns", "time_ns"):
            patched.setattr(f"time.{name}", _stopped_clock)
        again = []
        for state in positions:
            seat = state.to_move
            assert seat is not None
            again.append(bot.choose(state.view(seat), state.legal_actions(), random.Random(seat)))
    assert again == first


def test_hard_reads_the_clock_only_with_a_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = make_bot(GAME, "hard")
    assert isinstance(bot, HardBig2Bot)
    bot.playouts, bot.time_budget = 12, 60.0
    calls = []

    def clock() -> float:
        calls.append(1)
        return 0.0

    monkeypatch.setattr("time.perf_counter", clock)
    state = GAME.new_match(4, opts(deals=1), random.Random(5))
    seat = state.to_move
    assert seat is not None and len(bot.candidates(state.view(seat))) > 1
    bot.choose(state.view(seat), state.legal_actions(), random.Random(0))
    assert calls


def test_a_seeded_table_plays_the_same_match_twice() -> None:
    def moves() -> list[str]:
        table = Table.create("big2", players=3, seed=8, bots=["hard", "medium", "easy"], deals=1)
        hard = table.seats[0].bot
        assert isinstance(hard, HardBig2Bot)
        hard.playouts = 12
        table.run()
        state = table.state
        assert isinstance(state, Big2State)
        return [type(e).__name__ + str(getattr(e, "cards", "")) for e in state.history]

    assert moves() == moves()


@pytest.mark.parametrize("budget", [1, 12, 400, 800])
@pytest.mark.parametrize("candidates", [2, 3, 5, 6, 9, 10, 17])
def test_halving_schedule_ends_with_one_pick_within_the_budget(candidates: int, budget: int) -> None:
    """Each round keeps the better half of its picks (rounded up) and has an equal share of the budget: at most
    that share of playouts, or one deal when the share is smaller."""
    schedule = halving_schedule(candidates, budget)
    alive = candidates
    playouts = 0
    for deals in schedule:
        assert deals >= 1
        assert deals * alive <= max(budget / len(schedule), alive)
        playouts += deals * alive
        alive = (alive + 1) // 2
    assert alive == 1, "the last round leaves one pick"
    if budget >= 400:
        assert budget * 0.9 <= playouts <= budget
        assert schedule == sorted(schedule), "fewer picks, more deals each"
    assert halving_schedule(1, budget) == []


class _Handicapped(HardBig2Bot):
    """``hard`` with one pick made to lose: its playouts score 10,000 less. Every playout is logged."""

    loser: Combo | None = None

    def __init__(self, log: list[tuple[Combo | None, tuple[int, ...]]]) -> None:
        super().__init__(GAME)
        self.log = log

    def playout(self, view: Big2View, table: Combo | None, hands: list[int], pick: Combo | None, must: int) -> float:
        self.log.append((pick, tuple(hands)))
        score = super().playout(view, table, hands, pick, must)
        return score - 10_000.0 if pick == self.loser else score


def test_successive_halving_drops_a_losing_pick_after_the_first_round_and_repeats_itself() -> None:
    """A pick that loses every playout is played out on the first round's deals only, and never chosen; the picks
    of a round all play the same deals; the playouts stay within the budget; and the same RNG gives the same
    search, playout for playout."""
    state = GAME.new_match(4, opts(deals=1), random.Random(0))
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    searches = []
    for _ in range(2):
        log: list[tuple[Combo | None, tuple[int, ...]]] = []
        bot = _Handicapped(log)
        bot.playouts = 60
        picks = bot.candidates(view)
        assert len(picks) == bot.max_candidates == 10
        bot.loser = picks[0]  # medium's own play: else the first pick wins ties
        schedule = halving_schedule(len(picks), bot.budget(view))
        assert len(schedule) == 4
        chosen = bot.select(view, picks, random.Random(7))
        searches.append((chosen, log))
        assert chosen != 0
        assert sum(1 for pick, _ in log if pick == picks[0]) == schedule[0]
        assert sum(1 for pick, _ in log if pick == picks[chosen]) == sum(schedule), "the winner plays every deal"
        assert len(log) <= bot.budget(view)
        first_round = {hands for pick, hands in log[: schedule[0] * len(picks)]}
        assert len(first_round) == schedule[0], "every pick of a round is played on the same deals"
    assert searches[0] == searches[1]


def test_hard_goes_out_when_it_can() -> None:
    """With only the pair of 2s left, which beats the table, ``hard`` plays it rather than passing."""
    state = position(["2S 2H", "3C 4C 5C", "6C 7C 8C", "9C TC JC"], turn=0, table="5D 5H", table_seat=3)
    view = state.view(0)
    bot = make_bot(GAME, "hard")
    assert isinstance(bot, HardBig2Bot)
    bot.playouts = 12
    action = bot.choose(view, state.legal_actions(), random.Random(0))
    assert isinstance(action, Play) and set(action.cards) == set(cards("2S 2H"))


# ---------------------------------------------------------------------------------------------------------------
# medium's fast rules agree with their plain definition. ``plan`` and ``medium_move`` avoid listing every play of a
# hand (the search calls them millions of times); these references list them, as the rules read.
# ---------------------------------------------------------------------------------------------------------------
BOMB_KINDS = ("four", "straight_flush", "dragon")


def ranks_held(mask: int) -> int:
    return len({v // 4 for v in bits(mask)})


def reference_plan(mask: int, options: Big2Options) -> tuple[Combo, ...]:
    """Five-card hands first, greedily: the one that clears most ranks less one (less 1.5 more when topped by a 2),
    while that is above zero, the lowest of equal gains, the first the game lists of equal keys; then the rest
    by rank (a four left over as two pairs), all sorted by their lowest card."""
    combos: list[Combo] = []
    remaining = mask
    while True:
        best: Combo | None = None
        best_gain = 0.0
        for five in (c for c in legal_plays(remaining, None, options) if c.size == 5):
            gain = ranks_held(remaining) - ranks_held(remaining & ~five.mask) - 1.0
            if (five.mask.bit_length() - 1) // 4 == 12:
                gain -= 1.5
            if gain > best_gain or (best is not None and gain == best_gain and five.key < best.key):
                best, best_gain = five, gain
        if best is None:
            break
        combos.append(best)
        remaining &= ~best.mask
    for rank in range(13):
        values = [v for v in range(rank * 4, rank * 4 + 4) if remaining >> v & 1]
        if len(values) == 4:
            combos.append(Combo("pair", (1 << values[0]) | (1 << values[1]), values[1], 2, options.suits))
            combos.append(Combo("pair", (1 << values[2]) | (1 << values[3]), values[3], 2, options.suits))
        elif values:
            kind = ("single", "pair", "triple")[len(values) - 1]
            combos.append(Combo(kind, sum(1 << v for v in values), values[-1], len(values), options.suits))
    combos.sort(key=lambda c: c.mask & -c.mask)
    return tuple(combos)


def reference_medium(mask: int, table: Combo | None, must: int, others_min: int, options: Big2Options) -> Combo | None:
    legal = legal_plays(mask, table, options, must)
    if not legal:
        return None
    for combo in legal:
        if combo.mask == mask:
            return combo
    my_plan = reference_plan(mask, options)
    danger = others_min <= 2
    if table is None:
        if must:
            own = [c for c in my_plan if c.mask & must and c in legal]
            return own[0] if own else max(legal, key=lambda c: (c.size, -c.key))
        if others_min == 1:
            multi = [c for c in my_plan if c.size > 1]
            return multi[0] if multi else max(my_plan, key=lambda c: c.key)
        return my_plan[0]
    in_plan = [c for c in my_plan if c.size == table.size and c.beats(table)]
    if table.size == 1 and danger:
        return max(legal, key=lambda c: c.key if c.size == 1 else -1)
    if in_plan:
        choice = min(in_plan, key=lambda c: c.key)
        controls = choice.kind in BOMB_KINDS or (choice.mask.bit_length() - 1) // 4 == 12
        return None if controls and not danger and len(my_plan) > 3 else choice
    if danger or len(my_plan) <= 2:
        return min(legal, key=lambda c: (c.kind in BOMB_KINDS, c.key))
    return None


def random_hand(rng: random.Random) -> int:
    """A hand of 1 to 17 cards; a third of them heavy in one suit or in pairs, where five-card hands abound."""
    size = rng.randint(1, 17)
    style = rng.randrange(3)
    if style == 0:
        values = rng.sample(range(52), size)
    elif style == 1:
        suit = rng.randrange(4)
        values = rng.sample(range(suit, 52, 4), min(size, 9)) + rng.sample(range(52), size // 3)
    else:
        values = [r * 4 + s for r in rng.sample(range(13), 5) for s in rng.sample(range(4), rng.randint(2, 3))]
    return sum(1 << v for v in set(values))


@pytest.mark.parametrize("suits", ["seed", "standard"])
def test_plan_matches_its_plain_definition(suits: str) -> None:
    options = Big2Options(suits=suits)
    rng = random.Random(suits)
    for _ in range(400):
        hand = random_hand(rng)
        assert plan(hand, options) == reference_plan(hand, options), encoding(options).cards(hand)


@pytest.mark.parametrize("suits", ["seed", "standard"])
def test_plan_is_the_same_from_the_plain_core(suits: str) -> None:
    """The plan is made in the move core, compiled or not: the plain module's makes the same (a compiled core in
    use is then checked against its source)."""
    options = Big2Options(suits=suits)
    rng = random.Random(f"core {suits}")
    in_use = big2_rules.CORE
    big2_rules.use_core(big2_core)  # binds the plain module to the engine's objects
    try:
        for _ in range(400):
            hand = random_hand(rng)
            assert big2_core.plan_combos(hand, suits) == plan(hand, options), encoding(options).cards(hand)
    finally:
        big2_rules.use_core(in_use)


@pytest.mark.parametrize(
    "hand",
    [
        "3C 4C 4D 5C 6C 6D 7C",  # the first straight to the 7C is a straight flush: the next one takes the 6D
        "3C 4C 4D 5C 5S 6C 7C 9H",
        "AC 2C 2D 3C 4C 5C 5H 8S",  # A2345: the 2 is not the top card, but the straight holds one
        "10S JS QS KS AS AD 3C 3D",  # a straight flush, or the straight that keeps it
        "5C 5D 5H 9S 9D KH KS 2S 2D",  # full houses: which pair goes with the three
        "7C 7D 7H 7S 3D 8C 2H",  # four of a kind and its single
        "3H 5H 7H 9H JH KH 2H 4S",  # a flush of seven: which five
    ],
)
@pytest.mark.parametrize("suits", ["seed", "standard"])
def test_plan_of_hands_rich_in_five_card_hands(hand: str, suits: str) -> None:
    options = Big2Options(suits=suits)
    hand_mask = encoding(options).mask(cards(hand))
    assert plan(hand_mask, options) == reference_plan(hand_mask, options)


@pytest.mark.parametrize("suits", ["seed", "standard"])
def test_medium_move_matches_its_plain_definition(suits: str) -> None:
    """On hands of every size, against tables of every kind, with and without the lead card to include, and with
    the others holding 1, 2 or more cards; twice, so the cached answer is checked too."""
    options = Big2Options(suits=suits)
    rng = random.Random(suits)
    cases = []
    for _ in range(400):
        hand = random_hand(rng)
        other = random_hand(rng) & ~hand
        tables = legal_plays(other, None, options) if other else []
        table = rng.choice(tables) if tables and rng.random() < 0.8 else None
        must = 0
        if table is None and rng.random() < 0.2:
            must = hand & -hand
        cases.append((hand, table, must, rng.choice([1, 2, 3, 7])))
    for _ in range(2):
        for hand, table, must, others_min in cases:
            expected = reference_medium(hand, table, must, others_min, options)
            assert medium_move(hand, table, must, others_min, options) == expected, (hand, table, must, others_min)


def test_loss_points_counts_like_the_game() -> None:
    rng = random.Random(2)
    for options in (Big2Options(), Big2Options(scoring="pagat"), Big2Options(suits="standard")):
        enc = encoding(options)
        for _ in range(300):
            left = random_hand(rng) & ((1 << 52) - 1)
            assert loss_points(left, options) == loss(enc.cards(left), options).points


@pytest.mark.parametrize("chains", [1, 4])
def test_chain_deals_keep_what_the_seat_knows_and_explain_the_others(chains: int) -> None:
    """Deals from the chains (one, or several sharing the deals) give each seat its count of cards, keep this
    seat's hand, never deal a played card, and explain the others' choices (all made by ``medium``) far more often
    than uniform deals do."""
    bot = make_bot(GAME, "hard")
    assert isinstance(bot, HardBig2Bot)
    medium = MediumBig2Bot(GAME)
    explained = {"chain": 0, "uniform": 0}
    positions = 0
    for seed in range(6):
        state = GAME.new_match(4, opts(deals=1), random.Random(seed))
        for _ in range(14 + seed):
            seat = state.to_move
            assert seat is not None
            state.apply(seat, medium.choose(state.view(seat), state.legal_actions(), random.Random(0)))
        seat = state.to_move
        assert seat is not None and not state.is_over
        view = state.view(seat)
        enc = encoding(view.options)
        hidden = HiddenDeal(view)
        evidence = bot.evidence(view)
        assert evidence
        positions += 1
        rng = random.Random(seed)
        chain = chain_deals(view, hidden, evidence, 20, 100, 4, 0.1, rng, chains=chains)
        uniform = [hidden.sample(rng) for _ in range(20)]
        for name, deals in (("chain", chain), ("uniform", uniform)):
            assert len(deals) == 20
            for hands in deals:
                assert [h.bit_count() for h in hands] == list(view.counts)
                assert hands[seat] == enc.mask(view.hand)
                dealt = 0
                for hand in hands:
                    assert not hand & dealt and not hand & enc.mask(view.played)
                    dealt |= hand
                for choice, later in evidence:
                    then = hands[choice.seat] | later
                    model = medium_move(then, choice.table, choice.must, choice.others_min, view.options)
                    explained[name] += (model.mask if model else None) == (
                        choice.played.mask if choice.played else None
                    )
    assert positions == 6
    assert explained["chain"] > 1.2 * explained["uniform"], explained


def test_several_chains_spread_the_deals_over_more_of_those_that_explain_the_choices() -> None:
    """One chain that settles among a few deals explaining the others' choices repeats them; four chains, each
    from a uniform deal of its own, give more different deals for the same number of deals and swaps between them
    (the reason ``hard`` runs several)."""
    bot = make_bot(GAME, "hard")
    assert isinstance(bot, HardBig2Bot)
    medium = MediumBig2Bot(GAME)
    distinct = {1: 0, 4: 0}
    positions = 0
    for seed in range(8):
        state = GAME.new_match(4, opts(deals=1), random.Random(seed))
        for _ in range(16 + seed):
            seat = state.to_move
            if seat is None:
                break
            state.apply(seat, medium.choose(state.view(seat), state.legal_actions(), random.Random(0)))
        seat = state.to_move
        if seat is None:
            continue
        positions += 1
        view = state.view(seat)
        hidden = HiddenDeal(view)
        evidence = bot.evidence(view)
        for chains in distinct:
            deals = chain_deals(view, hidden, evidence, 40, 100, 4, 0.1, random.Random(seed), chains=chains)
            assert len(deals) == 40
            distinct[chains] += len({tuple(hands) for hands in deals})
        few = chain_deals(view, hidden, evidence, 3, 100, 4, 0.1, random.Random(seed), chains=4)
        assert len(few) == 3  # fewer deals than chains: one chain for each
    assert positions >= 5, positions
    assert distinct[4] > distinct[1], distinct


def test_late_deals_are_drawn_exactly_and_explain_every_choice() -> None:
    """Late in a deal, when the unseen cards can be dealt in few ways, the deals are drawn from the chain's law by
    listing them all: with a noise near 0 every deal drawn explains every choice the others made (all by
    ``medium``, so the real deal does), which a chain of swaps stuck in a poor deal would not."""
    bot = make_bot(GAME, "hard")
    assert isinstance(bot, HardBig2Bot)
    medium = MediumBig2Bot(GAME)
    positions = 0
    for seed in range(12):
        state = GAME.new_match(4, opts(deals=1), random.Random(seed))
        view = None
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            candidate = state.view(seat)
            if len(HiddenDeal(candidate).unseen) <= 9 and bot.evidence(candidate):
                view = candidate
                break
            state.apply(seat, medium.choose(candidate, state.legal_actions(), random.Random(0)))
        if view is None:
            continue
        assert view.seat is not None
        positions += 1
        enc = encoding(view.options)
        hidden = HiddenDeal(view)
        evidence = bot.evidence(view)
        deals = chain_deals(view, hidden, evidence, 30, 100, 4, 1e-9, random.Random(seed), exact_limit=10**6)
        assert len(deals) == 30
        for hands in deals:
            assert [h.bit_count() for h in hands] == list(view.counts)
            assert hands[view.seat] == enc.mask(view.hand)
            dealt = 0
            for hand in hands:
                assert not hand & dealt and not hand & enc.mask(view.played)
                dealt |= hand
            for choice, later in evidence:
                model = medium_move(
                    hands[choice.seat] | later, choice.table, choice.must, choice.others_min, view.options
                )
                assert (model.mask if model else None) == (choice.played.mask if choice.played else None)
    assert positions >= 6, positions
