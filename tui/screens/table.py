"""The table: the seats, your card, your actions, the event log and the rules pane.

The screen talks only to a :class:`engine.session.Session`, so a LAN session can take the place of a local one.
Events come in through ``session.subscribe`` (from any thread) and are queued; the queue is worked off on the UI
thread, and it stops at the end of a hand until the player has read the reveal.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Markdown, Static
from textual.worker import get_current_worker

from engine.errors import ParlourError
from engine.events import Event
from engine.games.chase import Eliminated, HandStarted, HandVoid, MatchOver, Paid, Revealed
from engine.session import Session
from tui.describe import describe, who
from tui.messages import EngineEvent
from tui.screens.results import MatchSummary, ResultChoice, ResultsScreen
from tui.screens.reveal import HandReveal, RevealScreen
from tui.widgets.card import CardFace
from tui.widgets.event_log import EventLog
from tui.widgets.seats import SeatRing

PLAY_ACTIONS = ("stay", "trade", "swap", "cut")


class TableScreen(Screen[None]):
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-narrow"), (110, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "stay", "Stay", tooltip="Keep your card"),
        Binding("t", "trade", "Trade", tooltip="Trade cards with the player to your left"),
        Binding("d", "swap", "Swap with deck", tooltip="Dealer: swap your card with the top card of the deck"),
        Binding("d", "cut", "Cut the pack", tooltip="Dealer: cut the pack and take the card turned up"),
        Binding("r", "toggle_rules", "Rules"),
        Binding("f1", "toggle_rules", "Rules", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, session: Session, *, seed: int | None = None, pace: float = 0.6) -> None:
        super().__init__()
        self.session = session
        self.seed = seed
        self.pace = pace
        self.names: tuple[str, ...] = tuple(session.names)
        self.me: int = session.seat
        self._inbox: deque[Event] = deque()
        self._inbox_lock = threading.Lock()
        self._reveal: HandReveal | None = None
        """The hand being revealed, while its events are gathered or the player reads it."""
        self._reveal_open = False
        self._bot_busy = False
        self._thinking: int | None = None
        self._hand = 0
        self._out_hand: dict[int, int] = {}
        self._winner: int | None = None
        self._pot: int = 0
        self._results_shown = False
        self._unsubscribe: Any = None
        self._last_view: Any = None

    # -- layout --------------------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            with Vertical(id="main"):
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
            with VerticalScroll(id="rules-pane"):
                yield Markdown(self.rules_markdown, id="rules-text")
        yield Footer()

    @property
    def deck_action(self) -> str:
        return "cut" if getattr(self.session.options, "dealer_cuts", False) else "swap"

    @property
    def deck_label(self) -> str:
        return "Cut the pack" if self.deck_action == "cut" else "Swap with deck"

    @property
    def rules_markdown(self) -> str:
        return self.session.entry.game.rules_summary(self.session.options)

    def on_mount(self) -> None:
        title = self.session.entry.title
        self.sub_title = f"{title} · seed {self.seed}" if self.seed is not None else title
        self.query_one(EventLog).border_title = "What happened"
        self._unsubscribe = self.session.subscribe(self._from_session)
        self._drain()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    # -- events in -----------------------------------------------------------------------------------------------
    def _from_session(self, event: Event) -> None:
        """Session callback: may run on any thread, so it only queues the event and posts a message."""
        with self._inbox_lock:
            self._inbox.append(event)
        self.post_message(EngineEvent(event))

    def on_engine_event(self, message: EngineEvent) -> None:
        message.stop()
        self._drain()

    def _next_event(self) -> Event | None:
        with self._inbox_lock:
            if not self._inbox:
                return None
            # The next hand waits until the player has read the reveal of this one.
            if self._reveal is not None and isinstance(self._inbox[0], HandStarted):
                return None
            return self._inbox.popleft()

    def _drain(self) -> None:
        if self._reveal_open or not self.is_mounted:
            return
        while (event := self._next_event()) is not None:
            self._handle(event)
        if self._reveal is not None and not self._still_gathering():
            self._open_reveal()
            return
        if self._reveal is None:
            self._render_view()
            self._maybe_start_bot()

    def _still_gathering(self) -> bool:
        """True while the end-of-hand events may still be on their way (a remote session sends them one by one)."""
        if self._reveal is None:
            return False
        if self._reveal.match_over:
            return False
        with self._inbox_lock:
            waiting = bool(self._inbox)
        return not waiting and not self.session.is_over and self.session.view().hand == self._reveal.hand

    def _handle(self, event: Event) -> None:
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
    def _open_reveal(self) -> None:
        reveal = self._reveal
        assert reveal is not None
        self._reveal_open = True
        self._thinking = None
        self.query_one("#status", Static).update(f"Hand {reveal.hand}: cards up")
        if self._last_view is not None:
            self.query_one(SeatRing).show(
                self._last_view, self.names, self.me, revealed=dict(reveal.cards), payers=frozenset(reveal.payers)
            )
        self.app.push_screen(RevealScreen(reveal, self.names, self.me), callback=self._reveal_closed)

    def _reveal_closed(self, _: None = None) -> None:
        self._reveal_open = False
        match_over = self._reveal is not None and self._reveal.match_over
        self._reveal = None
        if match_over or self.session.is_over:
            self._render_view()
            self._show_results()
            return
        self._drain()

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

    def _show_results(self) -> None:
        if self._results_shown:
            return
        self._results_shown = True
        self.app.push_screen(ResultsScreen(self.summary()), callback=self._results_chosen)

    def _results_chosen(self, choice: ResultChoice | None) -> None:
        from tui.app import ParlourApp

        app = self.app
        if choice == "quit":
            app.exit()
        elif isinstance(app, ParlourApp):
            if choice == "again":
                app.play_again()
            elif choice == "menu":
                app.main_menu()

    # -- drawing -------------------------------------------------------------------------------------------------
    def _render_view(self) -> None:
        view = self.session.view()
        self._last_view = view
        self.query_one(SeatRing).show(view, self.names, self.me, thinking=self._thinking)
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
        if self._reveal is not None or self._reveal_open:
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

    def action_toggle_rules(self) -> None:
        self.toggle_class("-rules-open")

    @property
    def rules_open(self) -> bool:
        return self.has_class("-rules-open")

    @on(Button.Pressed, "#stay")
    def _stay_pressed(self) -> None:
        self.action_stay()

    @on(Button.Pressed, "#trade")
    def _trade_pressed(self) -> None:
        self.action_trade()

    @on(Button.Pressed, "#deck")
    def _deck_pressed(self) -> None:
        self.action_deck()

    # -- the computer players ------------------------------------------------------------------------------------
    def _maybe_start_bot(self) -> None:
        if self._bot_busy or self._reveal is not None or self._reveal_open or self.session.is_over:
            return
        if not self.session.bot_pending():
            return
        self._bot_busy = True
        self._thinking = self.session.view().to_move
        self.query_one(SeatRing).show(self.session.view(), self.names, self.me, thinking=self._thinking)
        self._bot_turn()

    @work(thread=True, exclusive=True, group="bots")
    def _bot_turn(self) -> None:
        worker = get_current_worker()
        try:
            seat, action = self.session.think()
        except ParlourError:
            self.app.call_from_thread(self._bot_done, None, None)
            return
        if self.pace > 0:
            time.sleep(self.pace)
        if worker.is_cancelled:
            return
        try:
            self.app.call_from_thread(self._bot_done, seat, action)
        except RuntimeError:
            pass  # the app is closing

    def _bot_done(self, seat: int | None, action: Any) -> None:
        self._bot_busy = False
        self._thinking = None
        if not self.is_attached or seat is None:
            return
        try:
            self.session.play(seat, action)
        except ParlourError as err:
            self.notify(str(err), severity="error")
        self._drain()
