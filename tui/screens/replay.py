"""A kept game played back (``parlour replay FILE``, issue 11): step forward and back, jump to the start or the end,
and every hand shown (the game is over, nothing is secret any more).

:class:`ReplayScreen` steps an :class:`~engine.records.replays.ReplayCursor` (the engine plays the kept actions
again) and shows, after each action, what it did in the same words as the table's log, and every place a card can
be: each player's hand in full, and the other piles by their size and top card. Meanwhile it reviews the game
(:mod:`engine.review`, on a worker thread: Big Two's hard player takes a while a decision): the moves of a
person's seat where the hard bot (the hard computer player) would have chosen otherwise are marked as they are
found, each such step showing "Hard would: ..." with the hint's reason; ``n`` and ``p`` jump to the next and the
previous mark, and the review's summary is shown under the step's number once it is done (and in the move's pane
at the end of the match). Closing the viewer stops the review.

:class:`SeenReplayScreen` steps a LAN seat's record (:class:`~engine.records.seen.SeenCursor`: no seed, no hidden
card, so no engine to play it again) event by event, with the same keys: the event in the words the seat's log used,
and below it what the seat could see of the round so far: the round's log up to that event, what was shown to the
seat alone (its cards), and the totals after the last round.

A kept file is a stranger's: the engine checks its names, host and table code on the way in (no control or escape
characters), and every line shown here goes through :func:`printable` as well, so nothing a file holds can move
the cursor, set the terminal's title or clear the screen.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import Worker, get_current_worker

from engine.bots import DecisionCancelled
from engine.cards import Card
from engine.errors import ParlourError
from engine.events import Event
from engine.match import RoundOver, RoundStarted
from engine.names import printable
from engine.records.record import new_table
from engine.records.replays import ReplayCursor, ReplayError
from engine.records.seen import SeenCursor
from engine.registry import get_entry
from engine.review import Mark, Review, ReviewStep, nothing_to_review, review_steps, reviewed_seats, round_word
from tui.games import describer
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.card import card_markup
from tui.widgets.title_bar import TitleBar
from tui.words.faces import card_text

log = logging.getLogger("parlour.replay")

Words = Callable[[Event, Sequence[str], int | None], str | None]
"""A game's words for an event under the table's options (:func:`tui.games.describer`)."""


def printable_names(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(printable(name) for name in names)


def place_text(name: str, cards: Sequence[Card], names: Sequence[str]) -> Content:
    """One place of the table: a hand in full (``hand S``), any other pile by its size and top card."""
    if name.startswith("hand "):
        seat = int(name.split()[1])
        who = names[seat] if 0 <= seat < len(names) else name
        shown = Content(" ").join(card_markup(card) for card in cards) if cards else Content.styled("—", "$text-muted")
        return Content.assemble((f"{who[:14]:<14} ", "bold"), shown)
    count = f"{len(cards)} card" + ("" if len(cards) == 1 else "s")
    top = f", {card_text(cards[-1])} on top" if cards else ""
    return Content.styled(f"{name.capitalize():<14} {count}{top}", "$text-muted")


class Stepping(Protocol):
    """A kept game that a viewer steps through (either cursor)."""

    @property
    def position(self) -> int: ...

    @property
    def total(self) -> int: ...


class StepScreen(Screen[None]):
    """What both viewers share: the keys that step through a kept game, and its three panes."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", "Next"),
        Binding("l", "step(1)", "Next", show=False),
        Binding("left", "step(-1)", "Back"),
        Binding("h", "step(-1)", "Back", show=False),
        Binding("pagedown", "step(10)", "+10", show=False),
        Binding("pageup", "step(-10)", "−10", show=False),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
    ]

    cursor: Stepping
    reviews: ClassVar[bool] = False
    """Whether the screen shows a review's line (under the step's number)."""

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="replay-body"):
            yield Static("", id="replay-position")
            if self.reviews:
                yield Static("", id="replay-review")
            yield Static("", id="replay-move")
            with VerticalScroll(id="replay-places", can_focus=False):  # the keys step the game, not this
                yield Static("", id="replay-table")
        yield Footer(compact=True)

    def action_step(self, step: int) -> None:
        self.go(self.cursor.position + step)

    def action_jump(self, where: int) -> None:
        self.go(self.cursor.total if where < 0 else where)

    def action_close(self) -> None:
        self.app.exit()

    def go(self, position: int) -> None:
        raise NotImplementedError

    def show(self) -> None:
        raise NotImplementedError

    @property
    def move_text(self) -> str:
        """What the step just shown did, in words (for tests)."""
        return str(self.query_one("#replay-move", Static).render())

    @property
    def table_text(self) -> str:
        return str(self.query_one("#replay-table", Static).render())


MARKED = "the hard bot would have chosen otherwise"
"""What the step's number says of a marked move."""


class ReplayScreen(StepScreen):
    """One kept game, any step of it, with its review: the person's moves where hard would have chosen otherwise."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "mark(1)", "Next mark"),
        Binding("p", "mark(-1)", "Prev mark"),
    ]

    cursor: ReplayCursor
    reviews = True

    class Reviewed(Message):
        """One more move reviewed (posted from the review's thread)."""

        def __init__(self, step: ReviewStep) -> None:
            super().__init__()
            self.step = step

    class ReviewEnded(Message):
        """The review is done, or could not be (``problem``: one sentence); posted from the review's thread."""

        def __init__(self, problem: str | None = None) -> None:
            super().__init__()
            self.problem = problem

    def __init__(self, cursor: ReplayCursor) -> None:
        super().__init__()
        self.cursor = cursor
        header = cursor.header
        self.words = describer(cursor.table.entry.key, header.options)
        self.seats = reviewed_seats(cursor.table)
        self.me: int | None = self.seats[0] if len(self.seats) == 1 else None
        """The one person's seat, whose moves the log words as theirs ("You stayed", "you pay 1"): every card is
        shown anyway in a replay (None: no person, or several)."""
        self.marks: dict[int, Mark] = {}
        """The marks found so far, by the step that shows each."""
        self.reviewed = 0
        self.to_review = sum(1 for seat, _ in cursor.actions if seat in self.seats)
        self.review: Review | None = None
        """The finished review (None while it runs)."""
        self.review_problem: str | None = nothing_to_review(cursor.table.game, self.seats)
        self.review_worker: Worker[None] | None = None
        self.review_stopped = threading.Event()
        """Set when the review's thread has returned (done, failed or stopped)."""

    def on_mount(self) -> None:
        header = self.cursor.header
        taken = f" · with takebacks ({header.takebacks})" if header.takebacks else ""
        self.sub_title = f"Replay · {self.cursor.table.entry.title} · seed {header.seed}{taken}"
        if self.review_problem is None:
            self.review_worker = self.run_worker(
                self._review, thread=True, group="review", exclusive=True, exit_on_error=False
            )
        else:
            self.review_stopped.set()
        self.show()

    # -- on the review's thread: nothing here touches a widget, each step is posted ---------------------------------
    def _review(self) -> None:
        worker = get_current_worker()
        cursor = self.cursor
        try:
            table = new_table(cursor.header)
            for step in review_steps(table, cursor.actions, self.seats, lambda: worker.is_cancelled):
                self.post_message(self.Reviewed(step))
            self.post_message(self.ReviewEnded())
        except DecisionCancelled:
            pass  # the viewer closed
        except ParlourError as err:
            self.post_message(self.ReviewEnded(f"The game could not be reviewed: {err}."))
        except Exception as err:  # a bug: said in one sentence, and logged
            log.exception("the game could not be reviewed")
            self.post_message(self.ReviewEnded(f"The game could not be reviewed ({type(err).__name__})."))
        finally:
            self.review_stopped.set()

    # -- on the screen's thread --------------------------------------------------------------------------------------
    def on_replay_screen_reviewed(self, message: ReplayScreen.Reviewed) -> None:
        message.stop()
        step = message.step
        self.reviewed, self.to_review = step.done, step.total
        if step.mark is not None:
            self.marks[step.mark.step] = step.mark
        self.show()

    def on_replay_screen_review_ended(self, message: ReplayScreen.ReviewEnded) -> None:
        message.stop()
        if message.problem is not None:
            self.review_problem = message.problem
        else:
            marks = tuple(self.marks[step] for step in sorted(self.marks))
            game = self.cursor.table.game
            self.review = Review(self.seats, self.cursor.names, marks, self.reviewed, round_word(game))
        self.show()

    def action_mark(self, direction: int) -> None:
        """Go to the next (``1``) or the previous (``-1``) marked move."""
        here = self.cursor.position
        steps = sorted(self.marks)
        found = [s for s in steps if s > here] if direction > 0 else [s for s in reversed(steps) if s < here]
        if found:
            self.go(found[0])
        elif not steps:
            self.notify("No move is marked yet." if self.review is None else "No move is marked.", markup=False)
        else:
            self.notify(f"No marked move {'after' if direction > 0 else 'before'} this one.", markup=False)

    @property
    def review_text(self) -> str:
        """The review's line: its progress, its summary once done, or why there is none."""
        if self.review_problem is not None:
            return self.review_problem
        if self.review is not None:
            if self.cursor.position == self.cursor.total:  # the move's pane says the summary here
                count = len(self.review.marks)
                if not count:
                    return "Review done: no move is marked."
                if count == 1:
                    return "Review done: press p to see the marked move."
                return f"Review done: press p and n to see the {count} marked moves."
            return f"Review: {self.review.summary()}"
        found = len(self.marks)
        marked = f", {found} marked so far" if found else ""
        return f"Reviewing your moves against the hard bot: {self.reviewed} of {self.to_review}{marked}…"

    def go(self, position: int) -> None:
        try:
            self.cursor.go(position)
        except ReplayError as err:
            self.notify(str(err), severity="error", markup=False)
        self.show()

    def show(self) -> None:
        cursor = self.cursor
        names = printable_names(cursor.names)
        mark = self.marks.get(cursor.position)
        position = Content.styled(f"Move {cursor.position} of {cursor.total}", "bold $text-accent")
        if mark is not None:
            position = Content.assemble(position, (f" · {MARKED}", "$warning"))
        self.query_one("#replay-position", Static).update(position)
        self.query_one("#replay-review", Static).update(Content(printable(self.review_text)))
        lines = [
            Content(printable(line))
            for event in cursor.last_events()
            if (line := self.words(event, names, self.me)) is not None
        ]
        if cursor.position == 0:
            lines.insert(0, Content("The deal, before any move"))
        if mark is not None:
            lines.append(Content.assemble(("Hard would: ", "bold $warning"), printable(str(mark.hint))))
            if mark.worse:
                lines.append(Content(printable(f"Your move, {mark.move}: {mark.worse}")))
        if cursor.position == cursor.total and self.review is not None:
            lines.append(Content.assemble(("Review: ", "bold"), printable(self.review.summary())))
        self.query_one("#replay-move", Static).update(Content("\n").join(lines) if lines else Content("—"))
        places = cursor.table.state.zones()
        shown = [place_text(name, cards, names) for name, cards in places.items() if name.startswith("hand ")]
        shown += [place_text(name, cards, names) for name, cards in places.items() if not name.startswith("hand ")]
        self.query_one("#replay-table", Static).update(Content("\n").join(shown))

    @property
    def review_line(self) -> str:
        """The review's line as shown (for tests)."""
        return str(self.query_one("#replay-review", Static).render())

    @property
    def position_text(self) -> str:
        return str(self.query_one("#replay-position", Static).render())


ROUND_LINES = 40
"""The most lines of the round's log shown below the event (the latest ones)."""


def event_words(event: Event, words: Words, names: Sequence[str], seat: int | None) -> str | None:
    """``event`` as the seat's log said it, or, for an event the log does not word, its kind and the cards it showed
    the seat (``Hand dealt: 3♥ 4♠ …``); None for an event with neither."""
    said = words(event, names, seat)
    if said is not None:
        return said
    cards = _cards_of(event)
    if not cards or event.audience is None:
        return None
    kind = "".join(f" {c.lower()}" if c.isupper() else c for c in type(event).__name__).strip().capitalize()
    return f"{kind}: {' '.join(card_text(card) for card in cards)}"


def _cards_of(event: Event) -> list[Card]:
    found: list[Card] = []
    for value in vars(event).values():
        if isinstance(value, Card):
            found.append(value)
        elif isinstance(value, tuple | list) and value and all(isinstance(item, Card) for item in value):
            found.extend(value)
    return found


class SeenReplayScreen(StepScreen):
    """A LAN seat's record, any event of it: only what that seat could see."""

    cursor: SeenCursor

    def __init__(self, cursor: SeenCursor) -> None:
        super().__init__()
        self.cursor = cursor
        self.words = describer(cursor.header.game, cursor.header.options)

    def on_mount(self) -> None:
        header = self.cursor.header
        self.sub_title = printable(f"Replay · {get_entry(header.game).title} · as {header.who} saw it at {header.host}")
        self.show()

    def go(self, position: int) -> None:
        self.cursor.go(position)
        self.show()

    def show(self) -> None:
        cursor = self.cursor
        header = cursor.header
        names, seat = printable_names(cursor.names), header.seat
        self.query_one("#replay-position", Static).update(
            Content.styled(f"Event {cursor.position} of {cursor.total}", "bold $text-accent")
        )
        lines = [
            printable(line) for event in cursor.last_events() if (line := event_words(event, self.words, names, seat))
        ]
        if cursor.position == 0:
            lines.insert(
                0, printable(f"Before the first event: table {header.table} at {header.host}, as {header.who} saw it")
            )
        self.query_one("#replay-move", Static).update(Content("\n".join(lines) or "—"))
        self.query_one("#replay-table", Static).update(self.seen_text())

    def seen_text(self) -> Content:
        """What the seat could see of the round so far: its log, what only it was shown, the totals."""
        shown = self.cursor.shown()
        start = max((i for i, event in enumerate(shown) if isinstance(event, RoundStarted)), default=0)
        names, seat = printable_names(self.cursor.names), self.cursor.header.seat
        log = [printable(line) for event in shown[start:] if (line := event_words(event, self.words, names, seat))]
        private = [
            printable(line)
            for event in shown[start:]
            if event.audience is not None and (line := event_words(event, self.words, names, seat))
        ]
        parts = [Content.styled("This round so far", "bold")]
        parts += [Content(line) for line in log[-ROUND_LINES:]] or [Content.styled("—", "$text-muted")]
        if private:
            parts += [Content(""), Content.styled("Shown to you alone", "bold")]
            parts += [Content(line) for line in private[-ROUND_LINES:]]
        totals = next((event.totals for event in reversed(shown) if isinstance(event, RoundOver)), None)
        if totals is not None:
            parts += [Content(""), Content.styled("Totals after the last round", "bold")]
            parts.append(Content(" · ".join(f"{names[i]} {total}" for i, total in enumerate(totals) if i < len(names))))
        return Content("\n").join(parts)
