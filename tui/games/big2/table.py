"""The Big Two table: the other players, the play to beat, your hand, your actions, the deal's log, the rules.

The session plumbing (the event queue, the hold at the end of a deal, the results) is in
:class:`tui.screens.table.TableScreen`, shared with the Chase/Screw table; this screen says what the
events mean, draws the table and asks the session for hints. The host's bots wait while the scoring is open.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from engine.cards import Card
from engine.errors import ParlourError
from engine.events import Event
from engine.game import Action
from engine.games.big2.rules import PASS, Big2View, DealOver, PassTurn, Play, Played, classify
from engine.games.big2.rules import encoding as big2_encoding
from engine.hints import Hint
from engine.match import MatchOver, RoundOver, RoundStarted
from engine.session import Session, Snapshot
from tui.games.big2.seats import Big2Seats
from tui.games.big2.words import cards_text, describe_big2, play_words, signed
from tui.screens.quick import unfocusable
from tui.screens.table import HINT_THINKING, SESSION_BINDINGS, TableScreen, turn_keys
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.card import FaceSize, card_markup, faces_fitting
from tui.widgets.event_log import EventLog
from tui.widgets.hand import HandStrip
from tui.widgets.quiet import set_border, set_text
from tui.widgets.room import TableRoom
from tui.widgets.seats import clocked, seat_clock
from tui.words import and_list, count_of, who
from tui.words.faces import card_text

if TYPE_CHECKING:
    from tui.dialogs.results import MatchSummary

TURN_ACTIONS = ("play", "pass_turn", "hint")


class Big2TableScreen(TableScreen):
    CSS_PATH: ClassVar[StylePaths] = css_paths("table.tcss", "big2.tcss", "dialogs.tcss", "settings.tcss")

    GAME_KEY: ClassVar[str] = "big2"
    MIN_SIZE: ClassVar[tuple[int, int]] = (64, 20)
    """Measured (three or four players): the smallest terminal the table is complete at (tests/tui/test_layout.py)."""
    AUTO_FOCUS = "#hand"
    STATUS_ID = "b2-status"
    SEAT_ACTIONS: ClassVar[frozenset[str]] = frozenset({"cursor", "toggle_card", "clear_selection", "sort"})
    # No priority bindings: every key goes the same way (to the focused hand, then up to the screen), so a burst
    # such as "right space enter" is applied in the order it was typed.
    BINDINGS: ClassVar[list[BindingType]] = [
        *turn_keys(
            Binding("enter", "play", "Play", tooltip="Play the selected cards"),
            Binding("p", "play", "Play", show=False),
            Binding("x", "pass_turn", "Pass"),
            Binding("h", "hint", "Hint", tooltip="Select what the hard computer player would play"),
        ),
        Binding("left", "cursor(-1)", "Card to the left", show=False),
        Binding("right", "cursor(1)", "Card to the right", show=False),
        Binding("space", "toggle_card", "Select", show=False),  # the status line says it; ? lists it
        Binding("escape", "clear_selection", "Clear"),
        Binding("o", "sort", "Sort", show=False),  # the hand's title says it: "by rank (o)"
        *SESSION_BINDINGS,
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.players = len(self.names)
        self._scoring: DealOver | None = None
        """The deal just over, from its DealOver event until the player has read the scoring."""
        self._message: Content | None = None
        """An explanation (a rejected play, a hint) shown in the status line until the selection changes."""
        self._message_for: tuple[Card, ...] = ()
        """The selection the message is about."""
        self._table_faces: FaceSize = "mini"
        """The largest faces the play on the table is drawn with (the room's height decides)."""

    # -- layout --------------------------------------------------------------------------------------------------
    def compose_table(self) -> ComposeResult:
        me = self.me if self.me is not None else 0
        others = [(me + i) % self.players for i in range(1, self.players)]
        if self.me is None:
            others = [0, *others]
        # The others on top; the play to beat (on the felt) beside the log; your hand at the bottom, its cards as
        # large as the room's height allows (the strip picks the size from its height, see styles/big2.tcss).
        with TableRoom(id="room"):
            yield Big2Seats(others, id="b2-seats")
            with Horizontal(id="b2-middle"):
                with Vertical(id="b2-felt"):
                    yield Static("", id="b2-play")
                    yield Static("", id="b2-turn")
                    with Horizontal(id="b2-actions"):
                        # The buttons take no focus: enter and space belong to the hand.
                        yield unfocusable(Button("Play (p)", id="b2-play-button", variant="primary", compact=True))
                        yield unfocusable(Button("Pass (x)", id="b2-pass-button", compact=True))
                        yield unfocusable(Button("Hint (h)", id="b2-hint-button", compact=True))
                yield EventLog(id="log")
            yield Static("", id="b2-status")
            yield HandStrip(id="hand")

    @on(TableRoom.Resized)
    def _room_resized(self, message: TableRoom.Resized) -> None:
        """The play on the table is drawn for the felt's new width and the room's height."""
        message.stop()
        room = message.room
        self._table_faces = "huge" if room.has_class("-taller") else "large" if room.has_class("-tall") else "mini"
        self.call_after_refresh(self._draw_table)

    def _draw_table(self) -> None:
        if self.snapshot is not None and self.is_attached:
            view = self.snapshot.view
            assert isinstance(view, Big2View)
            self.query_one("#b2-play", Static).update(self._table_text(view))

    def set_up(self) -> None:
        self.query_one(EventLog).can_focus = False
        self.query_one("#b2-felt").border_title = "On the table"
        if self.watching:  # the table as the public sees it: no hand of yours, no moves
            for widget in self.query("#hand, #b2-actions, #b2-status"):
                widget.display = False
            self.query_one(HandStrip).can_focus = False
        self.query_one("#b2-hint-button", Button).display = self.hints_offered
        enc = big2_encoding(self.options)
        hand = self.query_one(HandStrip)
        hand.set_order(
            lambda card: (enc.to_int[card], 0),
            lambda card: (enc.to_int[card] % 4, enc.to_int[card] // 4),
        )

    # -- events in -----------------------------------------------------------------------------------------------
    def handle(self, event: Event) -> None:
        line = describe_big2(event, self.names, self.me, self.options)
        if line is not None:
            self.query_one(EventLog).add(line, emphasis=isinstance(event, RoundStarted | DealOver | MatchOver))
        if isinstance(event, RoundStarted):
            self._scoring = None
            self.query_one(HandStrip).clear()
        elif isinstance(event, Played) and event.seat == self.me:
            # The table is not drawn again while the deal's scoring is up: take the cards out here, so the hand
            # under the scoring dialog is the hand that went out.
            hand = self.query_one(HandStrip)
            hand.show(card for card in hand.cards if card not in event.cards)
        elif isinstance(event, DealOver):
            self._scoring = event

    # -- the scoring and the results -----------------------------------------------------------------------------
    def round_dialog(self, event: RoundOver) -> ModalScreen[None]:
        deal = self._scoring
        assert deal is not None, "a Big Two deal ends with its DealOver before the round marker"
        from tui.games.big2.scoring import Big2ScoringScreen  # (loaded at the first deal's end, not with the table)

        return Big2ScoringScreen(deal, event.round, self.names, self.me, event.last, self.options)

    def summary(self) -> MatchSummary:
        over = self._match_over
        totals = over.totals if over is not None else self.view.totals
        best = max(totals)
        winners = over.winners if over is not None else tuple(s for s in range(self.players) if totals[s] == best)
        ranked = sorted(range(self.players), key=lambda s: -totals[s])
        places: list[tuple[int, str]] = []
        for seat in ranked:
            place = 1 + sum(1 for other in range(self.players) if totals[other] > totals[seat])
            places.append((place, f"{who(seat, self.names, self.me, start=True):<12} {signed(totals[seat]):>5}"))
        names = [who(seat, self.names, self.me, start=i == 0) for i, seat in enumerate(winners)]
        verb = "win" if len(names) > 1 or winners[0] == self.me else "wins"
        from tui.dialogs.results import MatchSummary  # loaded at a match's end, not with the table

        return MatchSummary(
            title=self.session.entry.title,
            winner=f"{and_list(names)} {verb}",
            places=tuple(places),
            pot=None,
            seed=self.seed,
        )

    # -- drawing -------------------------------------------------------------------------------------------------
    @property
    def view(self) -> Big2View:
        snap = self.table_snapshot
        view = snap.view
        assert isinstance(view, Big2View)
        return view

    def render_snapshot(self, snapshot: Snapshot) -> None:
        view = snapshot.view
        assert isinstance(view, Big2View)
        clock = self.clock_shown()
        self.query_one(Big2Seats).show(view, self.names, thinking=self.thinking, clock=clock)
        hand = self.query_one(HandStrip)
        hand.show(view.hand)
        order = "rank" if hand.sort == "rank" else "suit"
        me = who(self.me, self.names, self.me, start=True) if self.me is not None else "Watching"
        mine = view.totals[self.me] if self.me is not None else 0
        title = Content(f"{me} · {count_of(len(view.hand), 'card')} · by {order} (o)")
        set_border(
            hand,
            clocked(title, seat_clock(clock, self.me)),
            f"total {signed(mine)} · deal {view.deal} of {view.options.deals}",
        )
        hand.set_class(view.to_move == self.me, "-to-move")
        set_text(self.query_one("#b2-play", Static), self._table_text(view))
        set_text(self.query_one("#b2-turn", Static), self._turn_text(view))
        self.query_one("#b2-pass-button", Button).disabled = not self._may("pass_turn")
        self.query_one("#b2-hint-button", Button).disabled = not self._may("hint")
        self._show_status()

    def _table_text(self, view: Big2View) -> Content:
        if view.table is None or view.table_seat is None:
            leader = view.to_move
            if leader is None:
                return Content.styled("The deal is over", "$text-muted")
            text = "You lead" if leader == self.me else f"{self.names[leader]} leads"
            if view.must_include is not None:
                text += f": the first play must include the {card_text(view.must_include)}"
            return Content.styled(text, "italic $text-muted")
        cards = view.table.cards
        combo = classify(cards, view.options)
        what = play_words(cards, combo.kind) if combo is not None else cards_text(cards)
        room = self.query_one("#b2-play", Static).content_size.width or 36
        shown = faces_fitting(cards, room, self._table_faces) or Content(" ").join(card_markup(c) for c in cards)
        name = who(view.table_seat, self.names, self.me, start=True)
        return Content.assemble((f"{name}: ", "bold"), what) + Content("\n") + shown

    def _turn_text(self, view: Big2View) -> Content:
        if view.to_move is None:
            return Content("")
        if view.to_move == self.me:
            if view.table is None:
                if view.must_include is not None:
                    return Content.styled(
                        f"Your turn: lead with the {card_text(view.must_include)}", "bold $text-accent"
                    )
                return Content.styled("Your turn: lead any combination", "bold $text-accent")
            return Content.styled("Your turn: beat it, or pass", "bold $text-accent")
        return Content.styled(f"{self.names[view.to_move]} to play", "$text-muted")

    def _selection_text(self) -> Content:
        cards = self.query_one(HandStrip).selection
        view = self.view
        if not cards:
            if view.to_move == self.me:
                return Content.styled("Select cards with ← → and space (or click), then Enter", "$text-muted")
            return Content("")
        combo = classify(cards, view.options)
        shown = cards_text(cards)
        if combo is None:
            return Content.assemble("Selected: ", (shown, "bold"), (" — not a combination", "$text-error"))
        text = Content.assemble("Selected: ", (play_words(cards, combo.kind), "bold"))
        table = classify(view.table.cards, view.options) if view.table is not None else None
        if table is not None and view.table is not None:
            on_table = play_words(view.table.cards, table.kind)
            if combo.beats(table):
                text += Content.styled(f" — beats {on_table}", "$text-success")
            else:
                text += Content.styled(f" — does not beat {on_table}", "$text-error")
        elif view.must_include is not None and view.must_include not in cards:
            text += Content.styled(f" — must include the {card_text(view.must_include)}", "$text-error")
        return text

    def _show_status(self) -> None:
        status = self.query_one("#b2-status", Static)
        set_text(status, self._message if self._message is not None else self._selection_text())
        self.query_one("#b2-play-button", Button).disabled = not self._may("play")
        self.refresh_bindings()

    @property
    def status_text(self) -> str:
        """The status line as plain text (for tests)."""
        return str(self.query_one("#b2-status", Static).render())

    @on(HandStrip.SelectionChanged)
    def _selection_changed(self, message: HandStrip.SelectionChanged) -> None:
        message.stop()
        if message.selected != self._message_for:
            self._message = None  # the explanation was about another selection
        if self.snapshot is not None:
            self._show_status()

    # -- your actions --------------------------------------------------------------------------------------------
    def _may(self, action: str) -> bool:
        if not self.my_turn:
            return False
        if action == "play":
            return bool(self.query_one(HandStrip).selection)
        if action == "pass_turn":
            return PASS in self.legal
        if action == "hint":
            return self.hints_offered and not self.hint_busy
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A move you cannot make now is greyed (None): pressed anyway, it says why in the status line."""
        if self.hides(action):
            return False
        if action == "hint" and not self.hints_offered:
            return False  # (a LAN table made without hints)
        if action in TURN_ACTIONS:
            return True if self._may(action) else None
        if action == "clear_selection":
            return bool(self.query_one(HandStrip).selected)  # else escape goes back to the menu
        return super().check_action(action, parameters)

    def _why_not(self, action: str) -> str:
        waiting = self.why_not_now()
        if waiting:
            return waiting
        if action == "play":
            return "Choose cards first: ←/→ to move, space to select (or click them), then Enter"
        if action == "pass_turn":
            return "You lead: play any combination (you may not pass)"
        return "A hint is being worked out"

    def commands(self) -> Iterator[SystemCommand]:
        if self._may("play"):
            yield SystemCommand("Play", "Play the selected cards (Enter)", self.action_play)
        if self._may("pass_turn"):
            yield SystemCommand("Pass", "Pass this turn (x)", self.action_pass_turn)
        if self._may("hint"):
            yield SystemCommand("Hint", "Select what the hard computer player would play (h)", self.action_hint)
        if not self.watching:
            yield SystemCommand("Sort hand", "By rank or by suit (o)", self.action_sort)

    def _explain(self, text: str) -> None:
        self.refuse(text)
        self._message = Content.styled(self.refusal or text, "bold $text-error")  # (in the faces chosen)
        self._message_for = self.query_one(HandStrip).selection
        self._show_status()

    def action_play(self) -> None:
        if not self._may("play"):
            self._explain(self._why_not("play"))
            return
        hand = self.query_one(HandStrip)
        enc = big2_encoding(self.options)
        cards = tuple(sorted(hand.selection, key=lambda card: enc.to_int[card]))
        self._send(Play(cards), f"Cannot play {cards_text(cards)}: ")

    def action_pass_turn(self) -> None:
        if self._may("pass_turn"):
            self._send(PASS, "")
        else:
            self._explain(self._why_not("pass_turn"))

    def _send(self, action: Action, prefix: str) -> None:
        try:
            self.session.submit(action)
        except ParlourError as err:
            self._explain(f"{prefix}{err}")
            return
        self._message = None
        self.query_one(HandStrip).clear()
        self._drain()

    def action_cursor(self, step: int) -> None:
        self.query_one(HandStrip).move(step)

    def action_toggle_card(self) -> None:
        self.query_one(HandStrip).toggle()

    def action_clear_selection(self) -> None:
        self.query_one(HandStrip).clear()

    def action_sort(self) -> None:
        self.query_one(HandStrip).toggle_sort()
        if self.snapshot is not None:
            self.render_snapshot(self.snapshot)

    @on(Button.Pressed, "#b2-play-button")
    def _play_pressed(self) -> None:
        self.action_play()

    @on(Button.Pressed, "#b2-pass-button")
    def _pass_pressed(self) -> None:
        self.action_pass_turn()

    @on(Button.Pressed, "#b2-hint-button")
    def _hint_pressed(self) -> None:
        self.action_hint()

    # -- the hint ------------------------------------------------------------------------------------------------
    def action_hint(self) -> None:
        if not self._may("hint"):
            self._explain(self._why_not("hint"))
            return
        if self.request_hint(self._hint_found):
            self._message = HINT_THINKING
            self._show_status()

    def _hint_found(self, version: int, hint: Hint | None) -> None:
        if self.snapshot is None or self.snapshot.version != version or hint is None:
            self._message = None
            self._show_status()
            return  # the table moved on while the hint was worked out
        action = hint.action
        hand = self.query_one(HandStrip)
        if isinstance(action, PassTurn):
            hand.clear()
            self._message = Content.styled("Hint: pass (x) · why: in the log", "bold $text-success")
        elif isinstance(action, Play):
            hand.select(action.cards, hint=True)
            combo = classify(action.cards, self.options)
            what = play_words(action.cards, combo.kind) if combo is not None else cards_text(action.cards)
            self._message = Content.assemble(
                ("Hint: ", "bold $text-success"), what, " — Enter plays it · why: in the log"
            )
        self.log_hint(hint)
        self._message_for = hand.selection
        self._show_status()


def hand_cards(screen: Big2TableScreen) -> tuple[Card, ...]:
    """The cards as the hand widget shows them, left to right."""
    return screen.query_one(HandStrip).cards
