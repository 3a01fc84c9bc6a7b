"""The review after the game (issue 31, point 4): the decisions of a person's seat where the hard bot would have
chosen otherwise, each with the hint's reason and what the move cost by the hard bot's own figures, and a summary.

- a stacked mistake is marked with the reason the table's hint gave at that moment and the cost the bot's own
  estimate gives, and the summary names the costliest move and its hand;
- a match played as the hint says has no mark; the same match always gets the same review;
- the review reads only the seat's view: a view sent through the codec (nothing but its data) gives the same
  judgement, and two deals that differ only in cards the seat cannot see give the same one;
- each game's judge: its cost, its words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from engine import codec
from engine.bots import DecisionCancelled, decision_rng
from engine.cards import Card, parse_cards
from engine.game import Action, Scenario
from engine.games.big2.hints import same_move
from engine.games.big2.rules import PASS, Play
from engine.games.chase.bots import HardChaseBot
from engine.games.chase.rules import ChaseAction
from engine.games.rank.bots import HardRankBot
from engine.games.rank.rules import Play as RankPlay
from engine.games.trash.hints import stock_fits
from engine.games.trash.rules import DISCARD, KEEP, STOCK, SWAP, PlaceKing
from engine.hints import Hint, Reviewer
from engine.records.record import Header, new_table
from engine.registry import get_entry, listings, reviewer_of
from engine.review import Mark, judge, review, review_steps
from engine.table import Table

SEED = 5

Chooser = Callable[[Table, int, Hint], Action]
"""What a person plays at a decision, given the table, the seat and the hint the table gives there."""


def stacked(
    key: str, players: int, hands: Sequence[str], rest: str = "", bots: Sequence[str | None] | None = None
) -> Table:
    """A table whose first deal gives seat i ``hands[i]`` (``rest`` next in the deck), dealt by the last seat (so
    seat 0 moves first); seat 0 is a person, the others ``medium`` unless ``bots`` says."""
    game = get_entry(key).game
    dealer = players - 1
    order = game.deck_for(players, dealer, [parse_cards(h) for h in hands], parse_cards(rest))
    levels = list(bots) if bots is not None else [None] + ["medium"] * (players - 1)
    return Table.create(key, players, seed=SEED, bots=levels, scenario=Scenario(decks=(order,), dealer=dealer))


def hint_of(table: Table, seat: int) -> Hint:
    hint = table.hint(seat, table.state.view(seat), table.state.legal_actions(), table.state.version)
    assert hint is not None
    return hint


def as_hinted(table: Table, seat: int, hint: Hint) -> Action:
    return hint.action


def against_the_hint(table: Table, seat: int, hint: Hint) -> Action:
    """Any other legal move than the hint's (the hint's when there is none)."""
    others = [a for a in table.state.legal_actions() if a != hint.action]
    return others[0] if others else hint.action


def play(table: Table, choose: Chooser, limit: int | None = None) -> dict[int, tuple[Hint, Action]]:
    """Play ``table`` on (its bots as ever, each person by ``choose``) to its end or ``limit`` actions; each
    person's decision with a choice, by the step that shows it: the table's hint there and the move made."""
    decisions: dict[int, tuple[Hint, Action]] = {}
    while not table.state.is_over and (limit is None or len(table.actions) < limit):
        seat = table.state.to_move
        assert seat is not None
        if table.seats[seat].is_bot:
            table.step_bot()
            continue
        legal = table.state.legal_actions()
        hint = hint_of(table, seat)
        move = choose(table, seat, hint) if len(legal) > 1 else legal[0]
        if len(legal) > 1:
            decisions[len(table.actions) + 1] = (hint, move)
        table.submit(seat, move)
    return decisions


def fresh(table: Table) -> Table:
    """The same match at its deal, as a kept game's record makes it again."""
    return new_table(Header.of(table))


# -- the reviewers ---------------------------------------------------------------------------------------------------
def test_every_game_names_its_reviewer() -> None:
    for known in listings():
        game = get_entry(known.entries[0][0]).game
        reviewer = reviewer_of(game)
        assert isinstance(reviewer, Reviewer), known.key
        assert reviewer.round_word == ("hand" if known.key == "chase" else "deal")


# -- a known mistake -------------------------------------------------------------------------------------------------
def test_keeping_a_low_card_is_marked_with_the_hints_reason_and_its_cost() -> None:
    # Seat 0 holds the 2♣, the second-lowest card, first to move: the hard bot trades it. The player stays, then
    # plays every later decision as the hint says.
    table = stacked("screw", 4, ["2C", "9H", "JD", "5S"], rest="4D")
    view, legal = table.state.view(0), table.state.legal_actions()
    first = hint_of(table, 0)
    assert first.action is ChaseAction.TRADE
    estimate = HardChaseBot(table.game).estimate(view, legal, decision_rng(SEED, 0, 0, "hint"))
    table.submit(0, ChaseAction.STAY)
    play(table, as_hinted)
    done = review(fresh(table), table.actions)
    assert done.seats == (0,)
    assert [mark.step for mark in done.marks] == [1]
    mark = done.marks[0]
    assert mark.hint == first  # the very hint the table gave, reason and all
    assert mark.hint.reason.startswith("Trade with the player on your left: keeping your 2♣ pays in about ")
    assert mark.cost == pytest.approx(estimate.costs[ChaseAction.STAY] - estimate.costs[ChaseAction.TRADE])
    assert mark.cost > 0.2  # a 2 kept pays most hands; traded, far fewer
    assert (mark.seat, mark.round, mark.move) == (0, 1, "keeping the 2♣")
    assert done.summary() == "1 decision the hard bot would have made otherwise: keeping the 2♣ in hand 1"


def test_the_summary_names_the_costliest_of_the_marked_moves() -> None:
    table = stacked("screw", 4, ["2C", "9H", "JD", "5S"], rest="4D")
    decisions = play(table, against_the_hint)
    done = review(fresh(table), table.actions)
    assert len(done.marks) >= 3
    for mark in done.marks:  # each mark is a decision against the hint, with the hint the table gave there
        hint, move = decisions[mark.step]
        assert mark.hint == hint and table.actions[mark.step - 1] == (0, move)
    assert {mark.step for mark in done.marks} <= set(decisions)
    rounds = [mark.round for mark in done.marks]
    assert rounds == sorted(rounds) and rounds[-1] > 1
    worst = max(done.marks, key=lambda mark: mark.cost)
    assert all(worst.cost >= mark.cost for mark in done.marks) and worst.cost > min(m.cost for m in done.marks)
    assert done.summary() == (
        f"{len(done.marks)} decisions the hard bot would have made otherwise; the costliest: {worst.move} in hand "
        f"{worst.round}"
    )


def test_two_people_at_one_table_are_named_in_the_summary() -> None:
    table = stacked("screw", 3, ["2C", "AH", "JD"], rest="4D", bots=[None, None, "medium"])
    table.submit(0, ChaseAction.STAY)  # both keep a low card the hard bot would trade
    table.submit(1, ChaseAction.STAY)
    done = review(fresh(table), table.actions)
    assert done.seats == (0, 1) and [mark.seat for mark in done.marks] == [0, 1]
    worst = max(done.marks, key=lambda mark: mark.cost)
    assert worst.move == ("keeping the 2♣", "keeping the A♥")[worst.seat]
    assert done.summary() == (
        f"2 decisions the hard bot would have made otherwise; the costliest: {worst.move} ({table.names[worst.seat]}) "
        "in hand 1"
    )


# -- no mark, the same review ----------------------------------------------------------------------------------------
PLAYED_AS_HARD = [
    pytest.param("screw", 4, None, id="screw"),
    pytest.param("chase", 5, None, id="chase"),
    pytest.param("trash", 2, None, id="trash"),
    pytest.param("rank", 3, 300, id="rank"),
    pytest.param("big2", 4, 16, id="big2"),
]


@pytest.mark.parametrize(("key", "players", "limit"), PLAYED_AS_HARD)
def test_a_match_played_as_the_hint_says_has_no_mark(key: str, players: int, limit: int | None) -> None:
    table = Table.create(key, players, seed=SEED, bots=[None] + ["medium"] * (players - 1))
    decisions = play(table, as_hinted, limit)
    assert decisions  # (the person did have choices)
    done = review(fresh(table), table.actions)
    assert done.marks == () and done.decisions == sum(1 for seat, _ in table.actions if seat == 0)
    assert done.summary() == "No decision the hard bot would have made otherwise"


def test_the_same_match_gets_the_same_review() -> None:
    table = Table.create("chase", 4, seed=SEED, bots=[None, "medium", "medium", "medium"])
    play(table, against_the_hint)
    first, second = review(fresh(table), table.actions), review(fresh(table), table.actions)
    assert first.marks and first == second


def test_a_match_of_bots_has_nothing_to_review() -> None:
    table = Table.create("screw", 3, seed=SEED, bots=["medium"] * 3)
    table.run()
    done = review(fresh(table), table.actions)
    assert done.seats == () and done.marks == ()
    assert done.summary() == "Nothing to review: every seat was a computer player"


def test_a_review_stops_when_asked() -> None:
    table = Table.create("screw", 4, seed=SEED, bots=[None, "medium", "medium", "medium"])
    play(table, against_the_hint)
    steps = review_steps(fresh(table), table.actions, cancelled=lambda: True)
    with pytest.raises(DecisionCancelled):
        next(steps)


def test_a_table_played_on_is_refused() -> None:
    table = Table.create("screw", 3, seed=SEED, bots=[None, "medium", "medium"])
    play(table, as_hinted)
    with pytest.raises(Exception, match="from its deal"):
        next(review_steps(table, table.actions))


# -- hidden information ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("key", "players", "limit"), [("screw", 4, None), ("rank", 3, 200), ("big2", 4, 10)])
def test_the_review_of_a_seat_is_made_from_its_view_alone(key: str, players: int, limit: int | None) -> None:
    table = Table.create(key, players, seed=SEED, bots=[None] + ["medium"] * (players - 1))
    play(table, against_the_hint, limit)
    done = review(fresh(table), table.actions)
    assert done.marks
    marks = {mark.step: mark for mark in done.marks}
    again = fresh(table)
    for index, (seat, action) in enumerate(table.actions):
        if seat == 0:
            state = again.state
            view = codec.loads(codec.dumps(state.view(0)))  # its data only: no way back to the state
            found = judge(again.game, SEED, 0, state.version, view, state.legal_actions(), action)
            mark = marks.get(index + 1)
            if mark is None:
                assert found is None
            else:
                assert found is not None
                assert (found.hint, found.cost, found.move, found.worse) == (
                    mark.hint,
                    mark.cost,
                    mark.move,
                    mark.worse,
                )
        again.submit(seat, action)


HIDDEN = [
    # Seat 0 holds the same cards in both; everything it cannot see differs.
    ("screw", 4, ["2C", "9H", "JD", "5S"], ["2C", "QC", "3D", "AS"], "4D", "KC"),
    ("rank", 3, ["7C 5H 9D 3S KH", "2C 2D 2H 2S JK"], ["7C 5H 9D 3S KH", "QC QD QH QS 4C"], "8H", "8H"),
    (
        "big2",
        4,
        ["3D 3S 4D 5C 6H 7S 9D 10S JH QC KD AS 2S", "3C 5D 5S 6D 7C 8D 9C 10D JD QD KC AD 2D"],
        ["3D 3S 4D 5C 6H 7S 9D 10S JH QC KD AS 2S", "3H 5H 4C 6C 7D 8H 9H 10H JC QH KH AC 2C"],
        "",
        "",
    ),
]


@pytest.mark.parametrize(
    ("key", "players", "one", "other", "rest_one", "rest_other"), HIDDEN, ids=[row[0] for row in HIDDEN]
)
def test_cards_the_seat_cannot_see_change_nothing(
    key: str, players: int, one: list[str], other: list[str], rest_one: str, rest_other: str
) -> None:
    first, second = stacked(key, players, one, rest_one), stacked(key, players, other, rest_other)
    assert codec.dumps(first.state.view(0)) == codec.dumps(second.state.view(0))
    assert first.state.zones() != second.state.zones()
    marks: list[tuple[Mark, ...]] = []
    for table in (first, second):
        move = against_the_hint(table, 0, hint_of(table, 0))  # the same in both: the same view, the same hint
        kept = fresh(table)
        table.submit(0, move)
        marks.append(review(kept, table.actions).marks)
    assert marks[0] and marks[0] == marks[1]


# -- each game's judge -----------------------------------------------------------------------------------------------
def judged(table: Table, move: Action) -> Mark:
    """The review's mark of ``move`` played by seat 0 now."""
    kept = fresh(table)
    table.submit(0, move)
    done = review(kept, table.actions)
    assert len(done.marks) == 1 and done.marks[0].step == len(table.actions)
    return done.marks[0]


def test_trash_the_stock_rather_than_a_discard_that_fits_costs_the_sure_card() -> None:
    table = stacked(
        "trash", 2, ["AS 2S 3S 4S 5S 6S 7C 8S 9S 10S", "AD 2D 3D 4D 5D 6D 8D 9D 10D JD"], "7H QH KH", [None, None]
    )
    table.submit(0, STOCK)  # the 7♥ goes on slot 7 and turns up the 7♣, which has nowhere to go
    assert table.state.to_move == 1 and str(table.state.view(1).discard[-1]) == "7C"
    view = table.state.view(1)
    fits = stock_fits(view, 1)
    assert 0 < fits < 1
    kept = fresh(table)
    table.submit(1, STOCK)
    done = review(kept, table.actions, seats=(1,))
    (mark,) = done.marks
    assert mark.hint.action == DISCARD and mark.hint.reason.startswith("Take the discard: the 7♣ fills slot 7")
    assert mark.cost == pytest.approx(1 - fits)
    assert mark.move == "drawing from the stock"
    assert mark.worse.startswith("a card from the stock fits one of your slots only ")


def test_trash_leaving_a_king_on_its_slot_costs_a_card() -> None:
    # Seat 0's chain: the K♠ drawn goes on slot 1 and turns up the A♣... which takes slot 1 back only by a swap.
    table = stacked(
        "trash", 2, ["AC 2S 3S 4S 5S 6S 7S 8S 9S 10S", "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D"], "KS", [None, None]
    )
    table.submit(0, STOCK)
    while SWAP not in table.state.legal_actions():
        legal = table.state.legal_actions()
        assert table.state.to_move == 0 and all(isinstance(a, PlaceKing) for a in legal), legal
        table.submit(0, PlaceKing(1) if PlaceKing(1) in legal else legal[0])
    assert KEEP in table.state.legal_actions()
    mark = judged(table, KEEP)
    assert mark.hint.action == SWAP and mark.cost == 1.0
    assert mark.move.startswith("leaving the King on slot ")
    assert mark.worse == "leaving the King there turns one card fewer face up"


def test_trash_a_king_on_a_slot_as_likely_to_fill_itself_is_no_mark() -> None:
    # Every face-down slot has as many cards still to come (nothing of seat 1's ranks is in sight): the hard bot
    # takes the lowest slot, and any other is as good by its count.
    table = stacked(
        "trash", 2, ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D"], "KS", [None, None]
    )
    table.submit(0, STOCK)
    legal = table.state.legal_actions()
    assert PlaceKing(1) in legal and PlaceKing(9) in legal and hint_of(table, 0).action == PlaceKing(1)
    kept = fresh(table)
    table.submit(0, PlaceKing(9))
    assert review(kept, table.actions).marks == ()


def test_rank_another_play_than_the_hard_bots_is_judged_by_its_own_playouts() -> None:
    # The 7♣ keeps the 5♥ and the 9♦ to answer the pile later; the 9♦ keeps only the 7♣. Away from the end of the
    # deal the bot's rule decides, and its search, asked of the two plays, gives the cost.
    table = stacked("rank", 3, ["7C 5H 9D 3S KH"], rest="8H")
    view, legal = table.state.view(0), table.state.legal_actions()
    hint = hint_of(table, 0)
    nine = RankPlay(Card.parse("9D"))
    assert hint.action == RankPlay(Card.parse("7C")) and nine in legal
    found = HardRankBot(table.game).search(view, legal, [hint.action, nine], decision_rng(SEED, 0, 0, "hint"))
    mark = judged(table, nine)
    assert mark.hint == hint and mark.move == "playing the 9♦"
    assert mark.cost == pytest.approx(max(0.0, found.shares[0] - found.shares[1]))
    assert f"in {found.rounds} deals played on from here" in mark.worse


def test_rank_a_card_of_the_same_rank_is_the_same_move() -> None:
    table = stacked("rank", 3, ["7C 7H 9D 3S KH"], rest="8H")
    hint = hint_of(table, 0)
    assert isinstance(hint.action, RankPlay) and hint.action.card.rank.word == "7"
    other = next(a for a in table.state.legal_actions() if isinstance(a, RankPlay) and a != hint.action)
    kept = fresh(table)
    table.submit(0, other)
    assert review(kept, table.actions).marks == ()


def test_big2_a_pass_where_the_hard_bot_plays() -> None:
    table = stacked("big2", 4, ["3D 4C", "2S 2H 5C", "6C 7C", "8C 9C"], bots=[None, None, "medium", "medium"])
    table.submit(0, Play((Card.parse("3D"),)))
    hint = hint_of(table, 1)
    assert isinstance(hint.action, Play)
    kept = fresh(table)
    table.submit(1, PASS)
    done = review(kept, table.actions, seats=(1,))
    (mark,) = done.marks
    assert mark.hint == hint and mark.move == "passing on the 3♦" and mark.cost >= 0
    assert mark.worse.startswith(("in the computer's playouts from here", "it makes little difference"))


def test_big2_the_same_cards_in_another_order_are_the_same_move() -> None:
    table = stacked("big2", 4, ["3D 4C", "2S 2H 5C", "6C 7C", "8C 9C"], bots=[None, None, "medium", "medium"])
    table.submit(0, Play((Card.parse("3D"),)))
    view, legal, version = table.state.view(1), table.state.legal_actions(), table.state.version
    hint = hint_of(table, 1)
    assert judge(table.game, SEED, 1, version, view, legal, hint.action) is None
    pair = Play((Card.parse("2S"), Card.parse("2H")))
    assert same_move(pair, Play(tuple(reversed(pair.cards)))) and not same_move(pair, PASS)
