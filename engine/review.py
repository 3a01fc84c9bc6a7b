"""A review after the game (issue 31): the decisions of a person's seat where the hint level would have chosen
otherwise, each with the hint's move and reason and what the other move cost, and a summary line.

The match's actions are played again through the engine on a fresh table of the match (a kept game's:
:func:`~engine.records.record.new_table` of its header), and at each decision of a reviewed seat (a person's: the
seats without a level) the game's reviewer
(:class:`~engine.hints.Reviewer`, named by its listing) judges the move made from that seat's view alone, with the
decision's own hint RNG (:func:`~engine.bots.decision_rng`, ``"hint"``): the hint it gives is the one the seat
would have been given at the table, and the same match always gets the same review. A move with no choice (one
legal action) is not a decision. :func:`review_steps` gives the review one decision at a time (a viewer shows the
marks as they come and may stop it); :func:`review` gives it whole.

>>> from engine.table import Table
>>> def fresh() -> Table:
...     return Table.create("screw", players=3, seed=4, bots=[None, "easy", "easy"])
>>> table = fresh()
>>> while not table.state.is_over:
...     if table.state.to_move == 0:
...         _ = table.submit(0, "stay")
...     else:
...         table.run()
>>> done = review(fresh(), table.actions)
>>> done.seats, done.decisions > 0, done.summary() == summary_line(done.marks, done.names, "hand", (0,))
((0,), True, True)
>>> review(Table.create("screw", players=3, seed=4, bots=["easy"] * 3), []).summary()
'Nothing to review: every seat was a computer player'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.bots import DecisionCancelled, decision_rng
from engine.errors import ParlourError
from engine.game import Action, Game
from engine.hints import Hint, Judgement
from engine.match import RoundStarted
from engine.registry import hint_level, hinter_of, make_bot, reviewer_of
from engine.table import Table

__all__ = [
    "Mark",
    "Review",
    "ReviewStep",
    "costliest",
    "judge",
    "nothing_to_review",
    "review",
    "review_steps",
    "reviewed_seats",
    "round_word",
    "summary_line",
]


@dataclass(frozen=True)
class Mark:
    """One decision where the hint level would have chosen otherwise."""

    step: int
    """The replay's step that shows the move: its action's number, from 1 (the viewer at this step shows it)."""
    seat: int
    round: int
    """The round (hand, deal) it was made in, from 1."""
    move: str
    """The move made, in words ("keeping the 5♦")."""
    hint: Hint
    """What the hint level would have done, and why."""
    cost: float
    """How much worse the move was, by the hint level's own figures, in the game's own unit (0 or more)."""
    worse: str = ""
    """How much worse, in words ("" when the hint's reason says it)."""


@dataclass(frozen=True)
class ReviewStep:
    """The review so far: how many of the decisions are judged, and the mark of the latest one (None: no mark)."""

    done: int
    total: int
    mark: Mark | None


@dataclass(frozen=True)
class Review:
    """A finished review: its marks in the order of the match, and its summary."""

    seats: tuple[int, ...]
    """The seats reviewed (a person's)."""
    names: tuple[str, ...]
    marks: tuple[Mark, ...]
    decisions: int
    """How many of the reviewed seats' moves were looked at (a move with no choice too: it is never marked)."""
    round_word: str
    nothing: str | None = None
    """Why there is nothing to review (no person's seat, a game without hints), or None."""

    def summary(self) -> str:
        """The review in one line ("3 decisions the hard bot would have made otherwise; the costliest: ...")."""
        if self.nothing is not None:
            return self.nothing
        return summary_line(self.marks, self.names, self.round_word, self.seats)


def reviewed_seats(table: Table) -> tuple[int, ...]:
    """The seats a review looks at: a person's (a seat without a computer player's level)."""
    return tuple(seat for seat, info in enumerate(table.seats) if info.level is None)


def costliest(marks: Sequence[Mark]) -> Mark | None:
    """The mark that cost most (the earliest of equal ones), None for none."""
    return max(marks, key=lambda mark: (mark.cost, -mark.step), default=None)


def summary_line(marks: Sequence[Mark], names: Sequence[str], round_word: str, seats: Sequence[int]) -> str:
    """The review's summary: how many decisions the hard bot would have made otherwise, and the costliest (by
    name, when several seats are reviewed)."""
    worst = costliest(marks)
    if worst is None:
        return "No decision the hard bot would have made otherwise"
    who = f" ({names[worst.seat]})" if len(seats) > 1 and 0 <= worst.seat < len(names) else ""
    where = f"{worst.move}{who} in {round_word} {worst.round}"
    if len(marks) == 1:
        return f"1 decision the hard bot would have made otherwise: {where}"
    return f"{len(marks)} decisions the hard bot would have made otherwise; the costliest: {where}"


def judge(
    game: Game[Any, Any, Any],
    seed: int,
    seat: int,
    version: int,
    view: Any,
    legal: Sequence[Action],
    chosen: Action,
    cancelled: Callable[[], bool] | None = None,
) -> Judgement | None:
    """What the game's hint level makes of ``chosen``, made by ``seat`` from ``view`` at the moment ``version`` of
    a table seeded ``seed`` (None: it would have made the move too, or there was no choice). Only ``view`` is read;
    the RNG is the decision's hint RNG. DecisionCancelled soon after ``cancelled`` says yes."""
    level = hint_level(game)
    if level is None or len(legal) < 2:
        return None
    bot = make_bot(game, level)
    rng = decision_rng(seed, seat, version, "hint", cancelled)
    reviewer = reviewer_of(game)
    if reviewer is not None:
        return reviewer.judge(bot, view, legal, chosen, rng)
    hinter = hinter_of(game)
    made = hinter(bot, view, legal, rng) if hinter is not None else Hint(bot.choose(view, legal, rng), "")
    return None if made.action == chosen else Judgement(made, 0.0, str(chosen))


def review_steps(
    table: Table,
    actions: Sequence[tuple[int, Action]],
    seats: Sequence[int] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Iterator[ReviewStep]:
    """The review of the match of ``actions``, played on ``table`` (a fresh table of the match, at its deal): one
    step for each action of a reviewed seat (``seats``, default :func:`reviewed_seats`), with its mark if it has
    one. Stops (DecisionCancelled) soon after ``cancelled`` says yes; ParlourError if an action is refused (the
    actions are not this table's match)."""
    if table.actions:
        raise ParlourError("a review plays the match again from its deal: the table has been played on")
    chosen = tuple(reviewed_seats(table) if seats is None else seats)
    game = table.game
    total = sum(1 for seat, _ in actions if seat in chosen)
    done = 0
    round_number, read = 0, 0
    for index, (seat, action) in enumerate(actions):
        if cancelled is not None and cancelled():
            raise DecisionCancelled
        mark = None
        if seat in chosen:
            state = table.state
            history = state.history
            for event in history[read:]:
                if isinstance(event, RoundStarted):
                    round_number = event.round
            read = len(history)
            view, legal = state.view(seat), state.legal_actions()
            found = judge(game, table.seed, seat, state.version, view, legal, action, cancelled)
            if found is not None:
                mark = Mark(index + 1, seat, round_number, found.move, found.hint, found.cost, found.worse)
        try:
            table.submit(seat, action)
        except ParlourError as err:
            raise ParlourError(f"action {index + 1} is refused by the engine: {err}") from None
        if seat in chosen:
            done += 1
            yield ReviewStep(done, total, mark)


def review(table: Table, actions: Sequence[tuple[int, Action]], seats: Sequence[int] | None = None) -> Review:
    """The whole review of the match of ``actions``, played on the fresh ``table`` (see :func:`review_steps`)."""
    chosen = tuple(reviewed_seats(table) if seats is None else seats)
    nothing = nothing_to_review(table.game, chosen)
    marks: list[Mark] = []
    decisions = 0
    if nothing is None:
        for step in review_steps(table, actions, chosen):
            decisions = step.done
            if step.mark is not None:
                marks.append(step.mark)
    return Review(chosen, table.names, tuple(marks), decisions, round_word(table.game), nothing)


def nothing_to_review(game: Game[Any, Any, Any], seats: Sequence[int]) -> str | None:
    """Why a match of ``game`` has nothing to review for ``seats``, or None when it has."""
    if not seats:
        return "Nothing to review: every seat was a computer player"
    if hint_level(game) is None:
        return f"Nothing to review: {game.name} gives no hints"
    return None


def round_word(game: Game[Any, Any, Any]) -> str:
    """The game's word for a round, as the summary uses it ("hand", "deal")."""
    found = reviewer_of(game)
    return "round" if found is None else found.round_word
