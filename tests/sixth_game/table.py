"""High Card at the table: every seat's card (face down until shown), your Reveal move, the log; the end of a deal
in a dialog of its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from engine.events import Event
from engine.match import RoundOver, RoundStarted
from engine.session import Session, Snapshot
from sixth_game.rules import HighCardAction, HighCardView
from sixth_game.ui import UI_LISTING
from sixth_game.words import describe
from tui.dialogs.round_over import RoundOverScreen, next_bindings
from tui.screens.table import SESSION_BINDINGS, TableScreen, turn_keys
from tui.terminal.screen_styles import StylePaths
from tui.widgets.event_log import EventLog
from tui.words import who, winner_sentence
from tui.words.faces import card_text

if TYPE_CHECKING:
    from tui.dialogs.results import MatchSummary


class DealOverScreen(RoundOverScreen):
    NEXT = "Next deal"
    BINDINGS: ClassVar[list[BindingType]] = next_bindings(NEXT)

    def __init__(self, lines: list[str], last: bool) -> None:
        super().__init__()
        self.lines = lines
        self.is_last = last

    def compose(self) -> ComposeResult:
        with Vertical(id="hc-deal-over"):
            yield Static("\n".join(self.lines), id="hc-deal-lines")
            yield self.next_button(self.is_last)


class HighCardTableScreen(TableScreen):
    CSS_PATH: ClassVar[StylePaths] = [*TableScreen.CSS_PATH, *UI_LISTING.styles]
    """The shared table's stylesheets, then its own (a path: it is not one of the app's ``styles/``)."""
    GAME_KEY: ClassVar[str] = UI_LISTING.key
    BINDINGS: ClassVar[list[BindingType]] = [
        *turn_keys(Binding("v", "reveal", "Reveal", tooltip="Turn your card face up")),
        *SESSION_BINDINGS,
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self._deal_lines: list[str] = []

    def compose_table(self) -> ComposeResult:
        with Vertical(id="hc-table"):
            yield Static("", id="hc-seats")
            yield Static("", id="status")
            yield Button("Reveal (v)", id="reveal", compact=True, disabled=True)
            yield EventLog(id="log")

    def handle(self, event: Event) -> None:
        line = describe(event, self.names, self.me, self.options)
        if isinstance(event, RoundStarted):
            self._deal_lines = []
        if line is not None:
            self.query_one(EventLog).add(line, emphasis=isinstance(event, RoundStarted))
            self._deal_lines.append(line)

    def render_snapshot(self, snapshot: Snapshot) -> None:
        view = snapshot.view
        assert isinstance(view, HighCardView)
        rows = []
        for seat in range(view.players):
            shown = view.shown[seat] if seat < len(view.shown) else None
            if shown is not None:
                card = card_text(shown)
            elif seat == self.me and view.my_card is not None:
                card = f"{card_text(view.my_card)} (face down)"
            else:
                card = "a card face down"
            rows.append(f"{who(seat, self.names, self.me, start=True)}: {card} · {view.totals[seat]} points")
        self.query_one("#hc-seats", Static).update("\n".join(rows))
        status = "The match is over" if snapshot.over else "Your turn" if snapshot.legal else ""
        if not status and snapshot.to_move is not None:
            status = f"{self.names[snapshot.to_move]} to reveal"
        self.query_one("#status", Static).update(status)
        self.query_one("#reveal", Button).disabled = not snapshot.legal

    def round_dialog(self, event: RoundOver) -> ModalScreen[None]:
        return DealOverScreen(list(self._deal_lines), event.last)

    def summary(self) -> MatchSummary:
        from tui.dialogs.results import MatchSummary

        over = self._match_over
        totals = over.totals if over is not None else ()
        ranked = sorted(range(len(totals)), key=lambda seat: -totals[seat])
        return MatchSummary(
            title=self.session.entry.title,
            winner=winner_sentence(over.winners if over is not None else (), self.names, self.me),
            places=tuple((place + 1, who(seat, self.names, self.me, start=True)) for place, seat in enumerate(ranked)),
            pot=None,
            seed=self.seed,
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.hides(action):
            return False
        if action == "reveal":
            return True if self.legal else None
        return super().check_action(action, parameters)

    def action_reveal(self) -> None:
        if not self.legal:
            self.refuse(self.why_not_now() or "You cannot reveal now")
            return
        self.submit(HighCardAction.REVEAL)

    @on(Button.Pressed, "#reveal")
    def _reveal_pressed(self) -> None:
        self.action_reveal()
