"""The Screw/Chase table: the seats, your card, your actions, the event log and the rules pane.

The session plumbing (the event queue, the hold at the end of a hand, the results) is in
:class:`tui.screens.session_screen.SessionScreen`; this screen says what the events mean and draws the table.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from engine.events import Event
from engine.games.chase import ChaseAction, ChaseView, Eliminated, HandVoid, Paid, Revealed
from engine.match import MatchOver, RoundOver, RoundStarted
from engine.session import Session, Snapshot
from tui.describe import describe, who
from tui.screens.results import MatchSummary
from tui.screens.reveal import HandReveal, RevealScreen
from tui.screens.session_screen import SESSION_BINDINGS, SessionScreen
from tui.widgets.card import CardFace
from tui.widgets.event_log import EventLog
from tui.widgets.seats import SeatRing

PLAY_ACTIONS = ("stay", "trade", "swap", "cut")


class TableScreen(SessionScreen):
    GAME_KEY: ClassVar[str] = "chase"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "stay", "Stay", tooltip="Keep your card"),
        Binding("t", "trade", "Trade", tooltip="Trade cards with the player to your left"),
        Binding("d", "swap", "Swap with deck", tooltip="Dealer: swap your card with the top card of the deck"),
        Binding("d", "cut", "Cut the pack", tooltip="Dealer: cut the pack and take the card turned up"),
        *SESSION_BINDINGS,
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self._reveal: HandReveal | None = None
        """The hand being revealed, from its Revealed event until the player has read it."""
        self._out_hand: dict[int, int] = {}

    @property
    def title_text(self) -> str:
        return self.session.entry.title

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
        return "cut" if getattr(self.options, "dealer_cuts", False) else "swap"

    @property
    def deck_label(self) -> str:
        return "Cut the pack" if self.deck_action == "cut" else "Swap with deck"

    @property
    def view(self) -> ChaseView:
        snap = self.snapshot if self.snapshot is not None else self.session.snapshot()
        view = snap.view
        assert isinstance(view, ChaseView)
        return view

    # -- events in -----------------------------------------------------------------------------------------------
    def handle(self, event: Event) -> None:
        # The pot the winner takes is in the view (the match's last event comes after the last payment).
        pot = self.session.snapshot().view.pot if isinstance(event, MatchOver) else None
        line = describe(event, self.names, self.me, self.options, pot=pot)
        if line is not None:
            self.query_one(EventLog).add(line, emphasis=isinstance(event, RoundStarted | MatchOver))
        if isinstance(event, RoundStarted):
            self._reveal = None
        elif isinstance(event, Revealed):
            self._reveal = HandReveal(hand=self.round, cards=list(event.cards))
        elif isinstance(event, Paid | Eliminated | HandVoid | MatchOver) and self._reveal is not None:
            if line is not None:
                self._reveal.lines.append(line)
            if isinstance(event, Paid):
                self._reveal.payers.add(event.seat)
        if isinstance(event, Eliminated):
            self._out_hand[event.seat] = self.round

    # -- the reveal and the results ------------------------------------------------------------------------------
    def round_dialog(self, event: RoundOver) -> ModalScreen[None]:
        reveal = self._reveal or HandReveal(hand=event.round, cards=[])
        reveal.match_over = event.last
        self.query_one("#status", Static).update(f"Hand {reveal.hand}: cards up")
        if self.snapshot is not None:
            self.query_one(SeatRing).show(
                self.snapshot.view, self.names, self.me, revealed=dict(reveal.cards), payers=frozenset(reveal.payers)
            )
        return RevealScreen(reveal, self.names, self.me)

    def summary(self) -> MatchSummary:
        over = self._match_over
        winner = over.winners[0] if over is not None and over.winners else None
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
        if winner is None:
            winner_text = "nobody wins"
        elif winner == self.me:
            winner_text = "You win"
        else:
            winner_text = f"{who(winner, self.names, self.me)} wins"
        chase = getattr(self.options, "preset", None) == "chase"
        return MatchSummary(
            title=self.session.entry.title,
            winner=winner_text,
            places=tuple(places),
            pot=self.view.pot if chase else None,
            seed=self.seed,
        )

    # -- drawing -------------------------------------------------------------------------------------------------
    def render_snapshot(self, snapshot: Snapshot) -> None:
        view = snapshot.view
        assert isinstance(view, ChaseView)
        self.query_one(SeatRing).show(view, self.names, self.me, thinking=self.thinking)
        alive = self.me is not None and view.alive(self.me)
        card_face = self.query_one("#my-card", CardFace)
        card_face.display = alive
        card_face.show(view.my_card if alive else None)
        self.query_one("#card-label", Static).update("Your card" if alive else "")
        legal = self._legal_names()
        self.query_one("#stay", Button).disabled = "stay" not in legal
        self.query_one("#trade", Button).disabled = "trade" not in legal
        self.query_one("#deck", Button).disabled = self.deck_action not in legal
        self.query_one("#status", Static).update(self._status_text(snapshot))
        info = [f"Hand {view.hand}"]
        if getattr(self.options, "preset", None) == "chase":
            info.append(f"Pot {view.pot}")
        self.query_one("#match-info", Static).update(" · ".join(info))

    def _status_text(self, snapshot: Snapshot) -> Content:
        view = snapshot.view
        if snapshot.over:
            return Content("The match is over")
        if self.me is not None and not view.alive(self.me):
            return Content("You are out — watching")
        if snapshot.legal:
            return Content("Your turn")
        if snapshot.to_move is not None:
            return Content(f"{self.names[snapshot.to_move]} to play")  # a name: plain text
        return Content("")

    def _legal_names(self) -> set[str]:
        return {str(action) for action in self.legal}

    # -- your actions --------------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in PLAY_ACTIONS:
            if action in ("swap", "cut") and action != self.deck_action:
                return False
            return action in self._legal_names()
        return True

    def commands(self) -> Iterator[SystemCommand]:
        legal = self._legal_names()
        if "stay" in legal:
            yield SystemCommand("Stay", "Keep your card (s)", self.action_stay)
        if "trade" in legal:
            yield SystemCommand("Trade", "Trade cards with the player to your left (t)", self.action_trade)
        if self.deck_action in legal:
            yield SystemCommand(self.deck_label, "Dealer only (d)", self.action_deck)

    def _play(self, name: str) -> None:
        legal = {str(a): a for a in self.legal}
        if name not in legal:
            self.notify(f"You cannot {name} now", severity="error", markup=False)
            return
        self.submit(legal[name])

    def action_stay(self) -> None:
        self._play(ChaseAction.STAY.value)

    def action_trade(self) -> None:
        self._play(ChaseAction.TRADE.value)

    def action_swap(self) -> None:
        self._play(ChaseAction.SWAP.value)

    def action_cut(self) -> None:
        self._play(ChaseAction.CUT.value)

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
