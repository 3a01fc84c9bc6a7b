"""The Rank table: the other players, the pile's top card and the stock, whose turn and what you may do, the log,
your hand, the rules.

One card is played at a time, so the hand has one chosen card (the cursor's): ←/→ or a click choose it, Enter (or
the Play button) plays it; ``d`` draws, ``x`` passes. Every key is always live and a key that does nothing now is
refused in words on the status line (why, and what you may do instead), never sent. A Joker asks two questions
after it is played, the rank it counts as and the card that may follow: each is a dialog
(:mod:`tui.games.rank.dialogs`) opened when the engine asks it. The session plumbing is in
:class:`TableScreen`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from engine.cards import Card, Rank, sort_key
from engine.events import Event
from engine.game import Action
from engine.games.rank.rules import (
    DRAW,
    PASS,
    DealOver,
    DealStarted,
    Name,
    OutForGood,
    Play,
    Played,
    PlayKind,
    RankPhase,
    RankView,
    is_normal,
)
from engine.hints import Hint
from engine.match import MatchOver, RoundOver, RoundStarted
from engine.session import Session, Snapshot
from tui.games.rank.dialogs import FollowUpScreen, JokerNameScreen, RankDealScreen
from tui.games.rank.seats import RankSeats, waiting_on
from tui.games.rank.words import RankNarrator, options_text, penalty_text, top_text
from tui.screens.quick import unfocusable
from tui.screens.table import HINT_THINKING, SESSION_BINDINGS, TableScreen, hint_status, turn_keys
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.card import FaceSize, faces_row
from tui.widgets.event_log import EventLog
from tui.widgets.hand import HandStrip
from tui.widgets.quiet import set_border, set_text
from tui.widgets.room import TableRoom
from tui.widgets.seats import THINKING, clocked, seat_clock
from tui.words import who, winner_sentence
from tui.words.faces import card_text

if TYPE_CHECKING:
    from tui.dialogs.results import MatchSummary


def by_rank(card: Card) -> tuple[int, int]:
    """Ace low … King, jokers last; then the suit."""
    rank, suit = sort_key(card)
    return (rank if rank else 14), "SHDC".find(suit)


def by_suit(card: Card) -> tuple[int, int]:
    rank, suit = sort_key(card)
    return ("SHDC".find(suit) if suit else 4), rank


class RankTableScreen(TableScreen):
    CSS_PATH: ClassVar[StylePaths] = css_paths("table.tcss", "rank.tcss", "dialogs.tcss", "settings.tcss")

    GAME_KEY: ClassVar[str] = "rank"
    MIN_SIZE: ClassVar[tuple[int, int]] = (64, 24)
    """Measured (ten players): the smallest terminal the table is complete at (tests/tui/test_layout.py)."""
    STATUS_ID = "rk-status"
    AUTO_FOCUS = "#hand"
    SEAT_ACTIONS: ClassVar[frozenset[str]] = frozenset({"cursor", "cursor_end", "sort"})
    BINDINGS: ClassVar[list[BindingType]] = [
        *turn_keys(
            Binding("enter", "play", "Play", tooltip="Play the chosen card"),
            Binding("p", "play", "Play", show=False),
            Binding("d", "draw", "Draw", tooltip="Draw a card (only with no normal play)"),
            Binding("x", "pass_turn", "Pass", tooltip="Pass (only when nothing can be played or drawn)"),
            Binding("h", "hint", "Hint", tooltip="What the hard computer player would do, and why"),
        ),
        Binding("left", "cursor(-1)", "Card to the left", show=False),
        Binding("right", "cursor(1)", "Card to the right", show=False),
        Binding("home", "cursor_end(0)", "", show=False),
        Binding("end", "cursor_end(1)", "", show=False),
        Binding("o", "sort", "Sort"),
        *SESSION_BINDINGS,
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.players = len(self.names)
        self.narrator = RankNarrator(self.names, self.me)
        self._deal_over: DealOver | None = None
        self._out: list[int] = []
        """The seats out for good this deal, in order (kept for the end-of-deal dialog)."""
        self._message: Content | None = None
        self._message_version: int | None = None
        self._hint_selection: tuple[Card, ...] | None = None
        """The card a hint moved the cursor to (its selection changing to that keeps the hint said)."""
        self._under: str | None = None
        """The card your Joker was played on (the Joker dialog says it), in words."""
        self._turn_seen: int | None = None
        """The snapshot version the cursor was last put on a playable card for (once per turn)."""
        self._asking: int | None = None
        """The snapshot version a Joker dialog is open for (one dialog per question)."""
        self._top_face: FaceSize = "mini"
        """The size the pile's top card is drawn at (the room's height decides)."""

    # -- layout --------------------------------------------------------------------------------------------------
    @property
    def seat_order(self) -> list[int]:
        """The other players in turn order after you (everyone, from seat 0, when watching)."""
        me = self.me if self.me is not None else -1
        start = me + 1 if self.me is not None else 0
        return [(start + i) % self.players for i in range(self.players) if (start + i) % self.players != me]

    def compose_table(self) -> ComposeResult:
        # The others on top; the pile (its top card as a face, as large as the room allows) beside the log; your
        # hand at the bottom, its faces as large as the strip's height allows (see styles/rank.tcss).
        with TableRoom(id="room"):
            yield RankSeats(self.seat_order, id="rk-seats")
            with Horizontal(id="rk-middle"):
                with Vertical(id="rk-felt"):
                    with Horizontal(id="rk-pile-row"):
                        yield Static("", id="rk-top")
                        yield Static("", id="rk-piles")
                    yield Static("", id="rk-turn")
                    with Horizontal(id="rk-actions"):
                        # The buttons take no focus: enter belongs to the hand.
                        yield unfocusable(
                            Button("Play (⏎)", id="rk-play", variant="primary", compact=True, disabled=True)
                        )
                        yield unfocusable(Button("Draw (d)", id="rk-draw", compact=True, disabled=True))
                        yield unfocusable(Button("Pass (x)", id="rk-pass", compact=True, disabled=True))
                        yield unfocusable(Button("Hint (h)", id="rk-hint", compact=True, disabled=True))
                yield EventLog(id="log")
            yield Static("", id="rk-status")
            yield HandStrip(id="hand", single=True)

    @on(TableRoom.Resized)
    def _room_resized(self, message: TableRoom.Resized) -> None:
        """The pile's top card as large as the room's height allows."""
        message.stop()
        room = message.room
        self._top_face = "huge" if room.has_class("-taller") else "large" if room.has_class("-tall") else "mini"
        self._draw_top()
        seats = self.query_one(RankSeats)
        seats.compact = seats.rows > 1 and not room.has_class("-tall")

    def _draw_top(self) -> None:
        view = self.snapshot.view if self.snapshot is not None else None
        top = view.top if isinstance(view, RankView) else None
        self.query_one("#rk-top", Static).update(faces_row((top,), self._top_face) if top is not None else "")

    def set_up(self) -> None:
        self.query_one(EventLog).can_focus = False
        self.query_one("#rk-felt").border_title = "The pile"
        if self.watching:  # the table as the public sees it: no hand of yours, no moves
            for widget in self.query("#hand, #rk-actions, #rk-status"):
                widget.display = False
            self.query_one(HandStrip).can_focus = False
        self.query_one(HandStrip).set_order(by_rank, by_suit)
        if not self.hints_offered:
            self.query_one("#rk-hint", Button).display = False  # (else the room's width says: styles/rank.tcss)

    # -- events in -----------------------------------------------------------------------------------------------
    def handle(self, event: Event) -> None:
        log = self.query_one(EventLog)
        for line in self.narrator.feed(event):
            log.add(line, emphasis=isinstance(event, RoundStarted | DealOver | MatchOver | OutForGood))
        if isinstance(event, DealStarted):
            self._deal_over = None
            self._out = []
        elif isinstance(event, OutForGood):
            self._out.append(event.seat)
        elif isinstance(event, Played) and event.kind is PlayKind.JOKER and event.seat == self.me:
            before = self.snapshot.view if self.snapshot is not None else None
            if isinstance(before, RankView) and before.top is not None:
                self._under = f"the {top_text(before.top, before.named)}"
        elif isinstance(event, DealOver):
            self._deal_over = event

    # -- the end of a deal and the results -----------------------------------------------------------------------
    def round_dialog(self, event: RoundOver) -> ModalScreen[None]:
        for line in self.narrator.flush():
            self.query_one(EventLog).add(line)
        deal = self._deal_over
        assert deal is not None, "a Rank deal ends with its DealOver before the round marker"
        deals = getattr(self.options, "deals", event.round)
        return RankDealScreen(deal, event.round, deals, self.names, self.me, event.last, out=self._out)

    def summary(self) -> MatchSummary:
        over = self._match_over
        view = self.view
        totals = over.totals if over is not None else view.penalties
        winners = over.winners if over is not None else view.winners
        ranked = sorted(range(self.players), key=lambda s: (totals[s], s not in winners))
        places: list[tuple[int, str]] = []
        for seat in ranked:
            place = 1 + sum(1 for other in range(self.players) if totals[other] < totals[seat])
            name = who(seat, self.names, self.me, start=True)
            places.append((place, f"{name:<12} {penalty_text(totals[seat])}"))
        from tui.dialogs.results import MatchSummary  # loaded at a match's end, not with the table

        return MatchSummary(
            title=self.session.entry.title,
            winner=winner_sentence(winners, self.names, self.me),
            places=tuple(places),
            pot=None,
            seed=self.seed,
        )

    # -- drawing -------------------------------------------------------------------------------------------------
    def out_of_the_round(self) -> bool:
        """Out of this deal: your hand is played out."""
        return self.me is not None and self.snapshot is not None and self.me in self.view.out

    @property
    def view(self) -> RankView:
        snap = self.table_snapshot
        view = snap.view
        assert isinstance(view, RankView)
        return view

    def render_snapshot(self, snapshot: Snapshot) -> None:
        view = snapshot.view
        assert isinstance(view, RankView)
        log = self.query_one(EventLog)
        for line in self.narrator.flush():
            log.add(line)
        if self._message_version is not None and self._message_version != snapshot.version:
            self._message = None  # the explanation was about an earlier moment
        mine = self.my_turn
        thinking = self.thinking
        clock = self.clock_shown()
        self.query_one(RankSeats).show(view, self.names, self.me, thinking=thinking, clock=clock)
        hand = self.query_one(HandStrip)
        hand.show(view.hand)
        playable = self._playable() if mine and view.phase is RankPhase.PLAY else []
        hand.mark_playable(playable)
        chosen = self._chosen()
        if playable and (chosen is None or chosen not in playable) and self._turn_seen != snapshot.version:
            hand.move_to(playable[0])  # your turn: the cursor starts on a card you may play
        self._turn_seen = snapshot.version if mine else None
        me = who(self.me, self.names, self.me, start=True) if self.me is not None else "Watching"
        count = len(view.hand)
        points = view.penalties[self.me] if self.me is not None and self.me < len(view.penalties) else 0
        title = Content(f"{me} · {count} card{'s' * (count != 1)} · by {hand.sort} (o)")
        set_border(
            hand,
            clocked(title, seat_clock(clock, self.me)),
            f"{penalty_text(points)} · deal {view.deal} of {view.deals}",
        )
        hand.set_class(mine, "-to-move")
        self._draw_top()
        set_text(self.query_one("#rk-piles", Static), self._piles_text(view))
        set_text(self.query_one("#rk-turn", Static), self._turn_text(view, mine, thinking))
        legal = set(self.legal)
        self.query_one("#rk-play", Button).disabled = not any(isinstance(a, Play) for a in legal)
        self.query_one("#rk-draw", Button).disabled = DRAW not in legal
        self.query_one("#rk-pass", Button).disabled = not (PASS in legal and view.phase is RankPhase.PLAY)
        self.query_one("#rk-hint", Button).disabled = not self.may_hint()
        self._show_status(view, mine)
        if mine and view.phase in (RankPhase.NAME, RankPhase.FOLLOW) and self._asking != snapshot.version:
            self._ask(view, snapshot.version)

    def _playable(self) -> list[Card]:
        return [a.card for a in self.legal if isinstance(a, Play)]

    def _piles_text(self, view: RankView) -> Content:
        if view.top is None:
            top = Content.styled("The pile is empty", "$text-muted")
        else:
            shown = top_text(view.top, view.named)
            style = "bold $text-error" if view.top.is_red else "bold $text"
            top = Content.assemble("Top: ", (shown, style))
        stock = Content.assemble("Stock ", (f"{view.stock}", "bold"), ("  ·  pile ", "$text-muted"), f"{view.pile}")
        lines = [top, stock]
        if view.pending is not None:
            nxt = waiting_on(view, view.pending)
            name = who(view.pending, self.names, self.me, start=True)
            on = f": waiting on {who(nxt, self.names, self.me)}" if nxt is not None else ""
            lines.append(Content.styled(f"{name} out?{on}", "italic $text-warning"))
        return Content("\n").join(lines)

    def _turn_text(self, view: RankView, mine: bool, thinking: int | None) -> Content:
        seat = view.to_move
        if view.phase is RankPhase.OVER or seat is None:
            return Content.styled("The match is over", "$text-muted")
        if not mine:
            if seat == self.me:
                return Content.styled("Your turn…", "$text-muted")
            name = self.names[seat]  # plain text, as typed
            if thinking == seat:
                return Content.assemble(f"{name} ", THINKING)
            if view.phase is RankPhase.NAME:
                return Content.styled(f"{name} names the Joker's rank", "$text-muted")
            return Content.styled(f"{name} to play", "$text-muted")
        text = options_text(view, self.legal)
        return Content.styled(f"Your turn: {text}", "bold $text-accent")

    def _show_status(self, view: RankView, mine: bool) -> None:
        status = self.query_one("#rk-status", Static)
        if self._message is not None:
            status.update(self._message)
            return
        if not mine or view.phase is not RankPhase.PLAY:
            status.update(Content(""))
            return
        chosen = self._chosen()
        if chosen is None:
            status.update(Content(""))
            return
        if Play(chosen) in self.legal:
            status.update(Content.assemble(("Enter plays the ", "$text-muted"), (card_text(chosen), "bold"), ""))
        else:
            status.update(
                Content.assemble(
                    (card_text(chosen), "bold"),
                    (f" cannot be played now ({self._why_not(view, chosen)})", "$text-muted"),
                )
            )

    def _chosen(self) -> Card | None:
        hand = self.query_one(HandStrip)
        selection = hand.selection
        return selection[0] if selection else None

    @property
    def status_text(self) -> str:
        """The status line as plain text (for tests)."""
        return str(self.query_one("#rk-status", Static).render())

    @property
    def turn_text(self) -> str:
        return str(self.query_one("#rk-turn", Static).render())

    @on(HandStrip.SelectionChanged)
    def _selection_changed(self, message: HandStrip.SelectionChanged) -> None:
        message.stop()
        hinted, self._hint_selection = self._hint_selection, None
        if hinted is None or message.selected != hinted:  # (the hint's own move of the cursor keeps it said)
            self._message = None
        if self.snapshot is not None:
            self._show_status(self.view, self.my_turn)

    # -- the Joker's questions -----------------------------------------------------------------------------------
    def _ask(self, view: RankView, version: int) -> None:
        self._asking = version
        if view.phase is RankPhase.NAME:
            held = sorted({card.rank for card in view.hand if card.suit is not None}, key=int)
            hint = f"You hold: {', '.join(r.text for r in held)}." if held else ""
            dialog = JokerNameScreen(self._under_joker(), hint, self._dialog_hint if self.hints_offered else None)
            self.app.push_screen(dialog, callback=self._named)
        else:
            rank = view.rank or Rank.ACE
            follow = FollowUpScreen(rank, self._playable(), self._dialog_hint if self.hints_offered else None)
            self.app.push_screen(follow, callback=self._followed)

    def _dialog_hint(self, show: Callable[[Hint | None], None]) -> bool:
        """A hint for the Joker's question, shown by its dialog (and written in the log)."""

        def found(version: int, hint: Hint | None) -> None:
            if hint is not None and self.snapshot is not None and self.snapshot.version == version:
                self.log_hint(hint)
                show(hint)
            else:
                show(None)

        return self.request_hint(found)

    def _under_joker(self) -> str:
        return self._under or "the pile"

    def _named(self, rank: Rank | None) -> None:
        if rank is not None:
            self._send(Name(rank))

    def _followed(self, card: Card | None) -> None:
        self._send(Play(card) if card is not None else PASS)

    # -- your moves ----------------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A move you cannot make now is greyed (None): pressed anyway, it is refused in words (``explain``)."""
        if self.hides(action):
            return False
        legal = self.legal
        if action == "play":
            chosen = self._chosen() if legal else None
            return True if chosen is not None and Play(chosen) in legal else None
        if action == "draw":
            return True if DRAW in legal else None
        if action == "pass_turn":
            return True if PASS in legal and self.view.phase is RankPhase.PLAY else None
        if action == "hint":
            if not self.hints_offered:
                return False  # (a LAN table made without hints)
            return True if self.may_hint() else None
        return super().check_action(action, parameters)

    def commands(self) -> Iterator[SystemCommand]:
        legal = self.legal
        chosen = self._chosen()
        if chosen is not None and Play(chosen) in legal:
            yield SystemCommand("Play", f"Play the {card_text(chosen)} (Enter)", self.action_play)
        if DRAW in legal:
            yield SystemCommand("Draw", "Draw a card (d)", self.action_draw)
        if PASS in legal and self.view.phase is RankPhase.PLAY:
            yield SystemCommand("Pass", "Pass: nothing can be played or drawn (x)", self.action_pass_turn)
        if self.may_hint():
            yield self.hint_command(self.action_hint)
        if not self.watching:
            yield SystemCommand("Sort hand", "By rank or by suit (o)", self.action_sort)

    # -- the hint ------------------------------------------------------------------------------------------------
    def action_hint(self) -> None:
        if not self.may_hint():
            self.refuse(self._not_now() or "A hint is being worked out")
            return
        if self.request_hint(self._hint_found) and self.snapshot is not None:
            self._message = HINT_THINKING
            self._message_version = self.snapshot.version
            self.query_one("#rk-status", Static).update(self._message)
            self.refresh_bindings()

    def _hint_found(self, version: int, hint: Hint | None) -> None:
        if self.snapshot is None or self.snapshot.version != version or hint is None:
            self._message = None
        else:
            hand = self.query_one(HandStrip)
            if isinstance(hint.action, Play):
                hand.move_to(hint.action.card)  # Enter plays it
                self._hint_selection = hand.selection
            self._message = hint_status(hint.move)
            self._message_version = version
            self.log_hint(hint)
        if self.snapshot is not None:
            self.render_snapshot(self.snapshot)

    @on(Button.Pressed, "#rk-hint")
    def _hint_pressed(self) -> None:
        self.action_hint()

    def refuse(self, text: str) -> None:
        """Say why a key does nothing now, once, in the status line; nothing is sent."""
        super().refuse(text)
        self._message = Content.styled(self.refusal or text, "bold $text-error")  # (in the faces chosen)
        self._message_version = self.snapshot.version if self.snapshot is not None else None
        self.query_one("#rk-status", Static).update(self._message)

    def _not_now(self) -> str | None:
        """Why no move of yours can be made now, or None when it is your move."""
        if self.me is None:
            return "You are watching this table"
        if self.table_over:
            return "The match is over"
        if not self.idle():
            return "Wait a moment: the end of the deal is showing"
        if not self.my_turn:
            seat = self.view.to_move
            name = self.names[seat] if seat is not None else "nobody"
            return f"It is not your turn: {name} is playing"
        phase = self.view.phase
        if phase is RankPhase.NAME:
            return "Name the Joker's rank first"
        if phase is RankPhase.FOLLOW:
            return "Add a card after the Joker, or not, first"
        return None

    def _why_not(self, view: RankView, card: Card) -> str:
        """Why ``card`` is not a play now, in words."""
        rank = view.rank
        options = options_text(view, self.legal)
        if rank is not None and is_normal(card, rank):
            return options
        if any(isinstance(a, Play) and is_normal(a.card, rank) for a in self.legal):
            return f"you hold a normal play: {options}"
        return options

    def _send(self, action: Action) -> None:
        error = self.submit(action)
        if error is not None:
            self.refuse(str(error))
        else:
            self._message = None

    def action_play(self) -> None:
        reason = self._not_now()
        if reason is not None:
            self.refuse(reason)
            return
        card = self._chosen()
        if card is None:
            self.refuse("You have no card to play")
            return
        if Play(card) not in self.legal:
            self.refuse(f"The {card_text(card)} cannot be played now: {self._why_not(self.view, card)}")
            return
        self._send(Play(card))

    def action_draw(self) -> None:
        reason = self._not_now()
        if reason is not None:
            self.refuse(reason)
            return
        if DRAW not in self.legal:
            view = self.view
            if any(isinstance(a, Play) and is_normal(a.card, view.rank) for a in self.legal):
                self.refuse(f"No draw: you hold a normal play and must make it ({options_text(view, self.legal)})")
            else:
                self.refuse("Nothing to draw: the stock and the pile are empty")
            return
        self._send(DRAW)

    def action_pass_turn(self) -> None:
        reason = self._not_now()
        if reason is not None:
            self.refuse(reason)
            return
        if PASS not in self.legal:
            self.refuse(f"No passing while you can play or draw: {options_text(self.view, self.legal)}")
            return
        self._send(PASS)

    def action_cursor(self, step: int) -> None:
        self.query_one(HandStrip).move(step)

    def action_cursor_end(self, end: int) -> None:
        hand = self.query_one(HandStrip)
        if hand.cards:
            hand.move_to(hand.cards[-1 if end else 0])

    def action_sort(self) -> None:
        self.query_one(HandStrip).toggle_sort()
        if self.snapshot is not None:
            self.render_snapshot(self.snapshot)

    @on(Button.Pressed, "#rk-play")
    def _play_pressed(self) -> None:
        self.action_play()

    @on(Button.Pressed, "#rk-draw")
    def _draw_pressed(self) -> None:
        self.action_draw()

    @on(Button.Pressed, "#rk-pass")
    def _pass_pressed(self) -> None:
        self.action_pass_turn()
