"""The Screw/Chase table: the seats, your card, your actions, the event log and the rules pane.

The session plumbing (the event queue, the hold at the end of a hand, the bots) is in
:class:`tui.screens.session_screen.SessionScreen`; this screen says what the events mean and draws the table. The
queue stops at the end of a hand until the player has read the reveal.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from engine.errors import ParlourError
from engine.events import Event
from engine.games.chase import Eliminated, HandStarted, HandVoid, MatchOver, Paid, Revealed
from engine.session import Session
from tui.describe import describe, who
from tui.screens.results import MatchSummary
from tui.screens.reveal import HandReveal, RevealScreen
from tui.screens.session_screen import SESSION_BINDINGS, SessionScreen
from tui.widgets.card import CardFace
from tui.widgets.event_log import EventLog
from tui.widgets.seats import SeatRing

PLAY_ACTIONS = ("stay", "trade", "swap", "cut")


class TableScreen(SessionScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "stay", "Stay", tooltip="Keep your card"),
        Binding("t", "trade", "Trade", tooltip="Trade cards with the player to your left"),
        Binding("d", "swap", "Swap with deck", tooltip="Dealer: swap your card with the top card of the deck"),
        Binding("d", "cut", "Cut the pack", tooltip="Dealer: cut the pack and take the card turned up"),
        *SESSION_BINDINGS,
    ]

    def __init__(self, session: Session, *, seed: int | None = None, pace: float = 0.6) -> None:
        super().__init__(session, seed=seed, pace=pace)
        self._reveal: HandReveal | None = None
        """The hand being revealed, while its events are gathered or the player reads it."""
        self._hand = 0
        self._out_hand: dict[int, int] = {}
        self._winner: int | None = None
        self._pot: int = 0
        self._last_view: Any = None

    # -- layout --------------------------------------------------------------------------------------------------
    def compose_table(self) -> ComposeResult:
        yield SeatRing(len(self.names), id="seats")
        with Horizontal(id="middle"):
            with Vertical(id="hand-area"):
                yield Static("Your card", id="card-label")
                yield CardFace(None, id="my-card")
            with Vertical(id="controls"):
                yield Static("", id="status")
                yield Button("Stay (s)", id="stay", compact=True, disabled=True)
                yield Button("Trade (t)", id="trade", compact=True, disabled=True)
                yield Button(f"{self.deck_label} (d)", id="deck", compact=True, disabled=True)
                yield Static("", id="match-info")
            yield EventLog(id="log")

    @property
    def deck_action(self) -> str:
        return "cut" if getattr(self.session.options, "dealer_cuts", False) else "swap"

    @property
    def deck_label(self) -> str:
        return "Cut the pack" if self.deck_action == "cut" else "Swap with deck"

    # -- events in -----------------------------------------------------------------------------------------------
    def holds_back(self, event: Event) -> bool:
        return self._reveal is not None and isinstance(event, HandStarted)

    def handle(self, event: Event) -> None:
        line = describe(event, self.names, self.me, self.session.options)
        log = self.query_one(EventLog)
        if line is not None:
            log.add(line, emphasis=isinstance(event, HandStarted | MatchOver))
        if isinstance(event, HandStarted):
            self._hand = event.hand
        elif isinstance(event, Revealed):
            self._reveal = HandReveal(hand=self._hand, cards=list(event.cards))
        elif isinstance(event, Paid | Eliminated | HandVoid | MatchOver) and self._reveal is not None:
            if line is not None:
                self._reveal.lines.append(line)
            if isinstance(event, Paid):
                self._reveal.payers.add(event.seat)
        if isinstance(event, Eliminated):
            self._out_hand[event.seat] = self._hand
        elif isinstance(event, MatchOver):
            self._winner = event.winner
            self._pot = event.pot
            if self._reveal is not None:
                self._reveal.match_over = True

    # -- the reveal and the results ------------------------------------------------------------------------------
    def end_pending(self) -> bool:
        return self._reveal is not None

    def match_over_seen(self) -> bool:
        return self._reveal is not None and self._reveal.match_over

    def view_on_ended_round(self) -> bool:
        return self._reveal is not None and self.session.view().hand == self._reveal.hand

    def open_end_dialog(self) -> None:
        reveal = self._reveal
        assert reveal is not None
        self.query_one("#status", Static).update(f"Hand {reveal.hand}: cards up")
        if self._last_view is not None:
            self.query_one(SeatRing).show(
                self._last_view, self.names, self.me, revealed=dict(reveal.cards), payers=frozenset(reveal.payers)
            )
        self.app.push_screen(RevealScreen(reveal, self.names, self.me), callback=self._end_dialog_closed)

    def forget_ended_round(self) -> None:
        self._reveal = None

    def summary(self) -> MatchSummary:
        winner = self._winner
        places: list[tuple[int, str]] = []
        if winner is not None:
            places.append((1, who(winner, self.names, self.me, start=True)))
        # Later out is better; players out in the same hand share a place.
        out = sorted(self._out_hand.items(), key=lambda item: -item[1])
        place = 2
        previous_hand: int | None = None
        shared_place = 2
        for seat, hand in out:
            if hand != previous_hand:
                shared_place = place
                previous_hand = hand
            places.append((shared_place, who(seat, self.names, self.me, start=True)))
            place += 1
        winner_text = "You win" if winner == self.me else f"{who(winner, self.names, self.me)} wins"
        chase = getattr(self.session.options, "preset", None) == "chase"
        return MatchSummary(
            title=self.session.entry.title,
            winner=winner_text if winner is not None else "nobody wins",
            places=tuple(places),
            pot=self._pot if chase else None,
            seed=self.seed,
        )

    # -- drawing -------------------------------------------------------------------------------------------------
    def render_view(self) -> None:
        view = self.session.view()
        self._last_view = view
        self.show_seats(view)
        alive = view.alive(self.me)
        card_face = self.query_one("#my-card", CardFace)
        card_face.display = alive
        card_face.show(view.my_card if alive else None)
        self.query_one("#card-label", Static).update("Your card" if alive else "You are out")
        legal = self._legal_names()
        self.query_one("#stay", Button).disabled = "stay" not in legal
        self.query_one("#trade", Button).disabled = "trade" not in legal
        self.query_one("#deck", Button).disabled = self.deck_action not in legal
        self.query_one("#status", Static).update(self._status_text(view))
        info = [f"Hand {view.hand}"]
        if getattr(self.session.options, "preset", None) == "chase":
            info.append(f"Pot {view.pot}")
        self.query_one("#match-info", Static).update(" · ".join(info))
        self.refresh_bindings()

    def show_seats(self, view: Any) -> None:
        self.query_one(SeatRing).show(view, self.names, self.me, thinking=self._thinking)

    def _status_text(self, view: Any) -> str:
        if self.session.is_over:
            return "The match is over"
        if not view.alive(self.me):
            return "You are out — watching"
        if self.session.is_my_turn:
            return "Your turn"
        if view.to_move is not None:
            return f"{self.names[view.to_move]} to play"
        return ""

    def _legal_names(self) -> set[str]:
        if not self.idle():
            return set()
        return {str(action) for action in self.session.legal_actions()}

    # -- your actions --------------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in PLAY_ACTIONS:
            if action in ("swap", "cut") and action != self.deck_action:
                return False
            return action in self._legal_names()
        return True

    def _play(self, name: str) -> None:
        legal = {str(a): a for a in self.session.legal_actions()} if self._reveal is None else {}
        if name not in legal:
            self.notify(f"You cannot {name} now", severity="error")
            return
        try:
            self.session.submit(legal[name])
        except ParlourError as err:
            self.notify(str(err), severity="error")
            return
        self._drain()

    def action_stay(self) -> None:
        self._play("stay")

    def action_trade(self) -> None:
        self._play("trade")

    def action_swap(self) -> None:
        self._play("swap")

    def action_cut(self) -> None:
        self._play("cut")

    def action_deck(self) -> None:
        self._play(self.deck_action)

    @on(Button.Pressed, "#stay")
    def _stay_pressed(self) -> None:
        self.action_stay()

    @on(Button.Pressed, "#trade")
    def _trade_pressed(self) -> None:
        self.action_trade()

    @on(Button.Pressed, "#deck")
    def _deck_pressed(self) -> None:
        self.action_deck()
