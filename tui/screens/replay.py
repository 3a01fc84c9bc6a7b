"""A kept game played back (``parlour replay FILE``, issue 11): step forward and back, jump to the start or the end,
and every hand shown (the game is over, nothing is secret any more).

:class:`ReplayScreen` steps an :class:`~engine.records.replays.ReplayCursor` (the engine plays the kept actions
again) and shows, after each action, what it did in the same words as the table's log, and every place a card can
be: each player's hand in full, and the other piles by their size and top card.

:class:`SeenReplayScreen` steps a LAN seat's record (:class:`~engine.records.seen.SeenCursor`: no seed, no hidden
card, so no engine to play it again) event by event, with the same keys: the event in the words the seat's log used,
and below it what the seat could see of the round so far: the round's log up to that event, what was shown to the
seat alone (its cards), and the totals after the last round.

A kept file is a stranger's: the engine checks its names, host and table code on the way in (no control or escape
characters), and every line shown here goes through :func:`printable` as well, so nothing a file holds can move
the cursor, set the terminal's title or clear the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static

from engine.cards import Card
from engine.events import Event
from engine.match import RoundOver, RoundStarted
from engine.names import printable
from engine.records.replays import ReplayCursor, ReplayError
from engine.records.seen import SeenCursor
from engine.registry import get_entry
from tui.games import describer
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.card import card_markup
from tui.widgets.title_bar import TitleBar
from tui.words.faces import card_text

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

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="replay-body"):
            yield Static("", id="replay-position")
            yield Static("", id="replay-move")
            with VerticalScroll(id="replay-places", can_focus=False):  # the keys step the game, not this
                yield Static("", id="replay-table")
        yield Footer()

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


class ReplayScreen(StepScreen):
    """One kept game, any step of it."""

    cursor: ReplayCursor

    def __init__(self, cursor: ReplayCursor) -> None:
        super().__init__()
        self.cursor = cursor
        header = cursor.header
        self.words = describer(cursor.table.entry.key, header.options)

    def on_mount(self) -> None:
        header = self.cursor.header
        taken = f" · with takebacks ({header.takebacks})" if header.takebacks else ""
        self.sub_title = f"Replay · {self.cursor.table.entry.title} · seed {header.seed}{taken}"
        self.show()

    def go(self, position: int) -> None:
        try:
            self.cursor.go(position)
        except ReplayError as err:
            self.notify(str(err), severity="error", markup=False)
        self.show()

    def show(self) -> None:
        cursor = self.cursor
        names = printable_names(cursor.names)
        self.query_one("#replay-position", Static).update(
            Content.styled(f"Move {cursor.position} of {cursor.total}", "bold $text-accent")
        )
        lines = [
            printable(line) for event in cursor.last_events() if (line := self.words(event, names, None)) is not None
        ]
        if cursor.position == 0:
            lines.insert(0, "The deal, before any move")
        self.query_one("#replay-move", Static).update(Content("\n".join(lines) or "—"))
        places = cursor.table.state.zones()
        shown = [place_text(name, cards, names) for name, cards in places.items() if name.startswith("hand ")]
        shown += [place_text(name, cards, names) for name, cards in places.items() if not name.startswith("hand ")]
        self.query_one("#replay-table", Static).update(Content("\n").join(shown))


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
