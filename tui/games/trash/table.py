"""The Trash table: the other players' layouts, the stock, the discard pile and the card in hand, your layout, your
choices, the log and the rules.

One move in Trash makes a chain of events (a card drawn, put on its slot, the card there turned up and put on its
own slot, …). The screen plays a chain back one step at a time (:meth:`TrashTableScreen.step_pause`, a short
pause after each step when the app is paced), drawing the table from :func:`step_view` (the last view drawn with
the events so far applied), so a person can follow where each card went; once the queue is empty the table is
drawn again from the session's snapshot. The session plumbing is in :class:`TableScreen`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from engine.events import Event
from engine.game import Action
from engine.games.trash.rules import (
    DISCARD,
    KEEP,
    SWAP,
    Completed,
    DealOver,
    DealStarted,
    Discarded,
    Draw,
    Drew,
    FinalRound,
    KingPlaced,
    KingReplaced,
    PickedUp,
    Placed,
    PlaceKing,
    StockShuffled,
    TrashPhase,
    TrashView,
    deck_of,
    slot_of,
)
from engine.hints import Hint
from engine.match import MatchOver, RoundOver
from engine.session import Session, Snapshot
from tui.games.trash.layout import CardSize, LayoutPanel, panel_width
from tui.games.trash.words import SOURCE_WORDS, TrashNarrator, slot_label, you_first
from tui.screens.quick import unfocusable
from tui.screens.table import HINT_THINKING, SESSION_BINDINGS, TableScreen, hint_status, turn_keys
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.card import card_markup, empty_face, face_rows
from tui.widgets.event_log import EventLog
from tui.widgets.quiet import set_text
from tui.widgets.room import TableRoom
from tui.widgets.seats import THINKING, seat_clock
from tui.words import count_of, who, winner_sentence
from tui.words.faces import card_text

if TYPE_CHECKING:
    from tui.dialogs.results import MatchSummary

STEP_PAUSE = 0.35
"""Seconds each step of a chain stays on screen before the next (when the app is paced at all)."""

PILES_TEXT_WIDTH = 32
"""The columns the piles take as text beside the other layout (two players)."""
PILES_FACES_WIDTH = 48
"""The columns the piles take as faces."""

STEP_EVENTS = (StockShuffled, Drew, Placed, KingPlaced, KingReplaced, PickedUp, Discarded, Completed, FinalRound)
"""The events that are steps of a chain: each is held on screen for :data:`STEP_PAUSE`."""


def step_view(view: TrashView, event: Event) -> TrashView:
    """``view`` with ``event`` applied: what the table looks like one step further into a chain.

    Only what the screen draws is kept up (layouts, piles, the held card, whose turn); the session's next
    snapshot replaces it all once the queue is worked off."""
    if isinstance(event, DealStarted):
        players = view.players
        return replace(
            view,
            deal=event.deal,
            sizes=tuple(event.sizes),
            first=event.first,
            layouts=tuple((None,) * size for size in event.sizes),
            stock=len(deck_of(players)) - sum(event.sizes),
            discard=(),
            held=None,
            held_from=None,
            to_move=event.first,
            phase=TrashPhase.DRAW,
            final_round=False,
            completed=(),
            turns=(0,) * players,
        )
    if isinstance(event, StockShuffled):
        return replace(view, stock=event.cards, discard=view.discard[-1:])
    if isinstance(event, Drew):
        turns = tuple(t + (seat == event.seat) for seat, t in enumerate(view.turns))
        if event.source == "discard":
            return replace(
                view, held=event.card, held_from="discard", discard=view.discard[:-1], to_move=event.seat, turns=turns
            )
        return replace(
            view, held=event.card, held_from="stock", stock=max(0, view.stock - 1), to_move=event.seat, turns=turns
        )
    if isinstance(event, Placed | KingPlaced | KingReplaced):
        layouts = [list(layout) for layout in view.layouts]
        if 0 <= event.seat < len(layouts) and 1 <= event.slot <= len(layouts[event.seat]):
            layouts[event.seat][event.slot - 1] = event.card
        held, held_from = (event.king, "king") if isinstance(event, KingReplaced) else (None, None)
        return replace(view, layouts=tuple(tuple(layout) for layout in layouts), held=held, held_from=held_from)
    if isinstance(event, PickedUp):
        return replace(view, held=event.card, held_from="slot")
    if isinstance(event, Discarded):
        return replace(view, discard=(*view.discard, event.card), held=None, held_from=None)
    if isinstance(event, Completed):
        return replace(view, completed=(*view.completed, event.seat))
    if isinstance(event, FinalRound):
        return replace(view, final_round=True)
    return view


def changed_slot(event: Event) -> tuple[int, int] | None:
    """The (seat, slot) an event changed, for the grid to mark while the chain plays."""
    if isinstance(event, Placed | KingPlaced | KingReplaced | PickedUp):
        return event.seat, event.slot
    return None


class TrashTableScreen(TableScreen):
    CSS_PATH: ClassVar[StylePaths] = css_paths("table.tcss", "trash.tcss", "dialogs.tcss", "settings.tcss")

    GAME_KEY: ClassVar[str] = "trash"
    MIN_SIZE: ClassVar[tuple[int, int]] = (78, 20)
    """Measured (four players, three layouts across): the smallest terminal the table is complete at
    (tests/tui/test_layout.py)."""
    STATUS_ID = "tr-status"
    BINDINGS: ClassVar[list[BindingType]] = [
        *turn_keys(
            Binding("s", "draw('stock')", "Stock", tooltip="Draw the top card of the stock"),
            Binding("d", "draw('discard')", "Discard", tooltip="Take the top card of the discard pile"),
            Binding("w", "swap", "Swap", tooltip="Put the held card in place of the King on its slot"),
            Binding("x", "keep", "Keep", tooltip="Leave the King where it is: the held card is discarded"),
            *(Binding(str(n % 10), f"slot({n})", f"Slot {n}", show=False) for n in range(1, 11)),
            # (its button says the key: the footer has no room left at 80 columns)
            Binding("h", "hint", "Hint", tooltip="What the hard computer player would do, and why", show=False),
        ),
        *SESSION_BINDINGS,
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.players = len(self.names)
        self.narrator = TrashNarrator(self.names, self.me)
        self._shown: TrashView | None = None
        """The table as drawn now: the last snapshot's view, a few steps further into a chain while one plays."""
        self._fresh: tuple[int, int] | None = None
        self._deal_over: DealOver | None = None
        """The deal just over, from its DealOver event until its dialog is closed."""
        self._deal_view: TrashView | None = None
        """The table as the deal ended (the layouts the end-of-deal dialog shows)."""
        self._message: Content | None = None
        self._message_version: int | None = None
        self._pile_faces = False
        """Draw the stock, the discard pile and the held card as faces (a tall room), else as two lines of text."""

    # -- layout --------------------------------------------------------------------------------------------------
    @property
    def near(self) -> int:
        """The seat whose layout is drawn large at the bottom: yours, or the first seat's when watching (the
        others' layouts then fit across the top as they do for a player)."""
        return self.me if self.me is not None else 0

    @property
    def seat_order(self) -> list[int]:
        """The other players in turn order after the :attr:`near` seat."""
        near = self.near
        return [(near + i) % self.players for i in range(1, self.players)]

    @property
    def piles_on_top(self) -> bool:
        """Two players: the piles beside the other layout, so the log gets the room; more: the piles over yours."""
        return self.players <= 2

    def compose_table(self) -> ComposeResult:
        with TableRoom(id="room"):
            with Horizontal(id="tr-others", classes="-with-piles" if self.piles_on_top else ""):
                for seat in self.seat_order:
                    yield LayoutPanel(seat, "small")
                if self.piles_on_top:
                    yield Static("", id="tr-piles", classes="-top")
            with Horizontal(id="tr-middle"):
                with Vertical(id="tr-mine"):
                    if not self.piles_on_top:
                        yield Static("", id="tr-piles")
                    yield LayoutPanel(self.near, "medium", mine=True)
                    yield Static("", id="tr-turn")
                    with Horizontal(id="tr-actions"):
                        # The buttons take no focus: the keys go to the screen's bindings.
                        yield unfocusable(
                            Button("Stock (s)", id="tr-stock", variant="primary", compact=True, disabled=True)
                        )
                        yield unfocusable(Button("Discard (d)", id="tr-discard", compact=True, disabled=True))
                        yield unfocusable(
                            Button("Swap (w)", id="tr-swap", variant="primary", compact=True, disabled=True)
                        )
                        yield unfocusable(Button("Keep (x)", id="tr-keep", compact=True, disabled=True))
                        yield unfocusable(Button("Hint (h)", id="tr-hint", compact=True, disabled=True))
                yield EventLog(id="log")
            yield Static("", id="tr-status")

    def set_up(self) -> None:
        self.query_one(EventLog).can_focus = False
        if self.watching:  # the table as the public sees it: no moves (and no layout of yours)
            for widget in self.query("#tr-actions, #tr-status"):
                widget.display = False
        if not self.hints_offered:
            self.query_one("#tr-hint", Button).display = False

    @on(TableRoom.Resized)
    def _room_resized(self, message: TableRoom.Resized) -> None:
        message.stop()
        self._fit_sizes(message.room)

    def _fit_sizes(self, room: TableRoom) -> None:
        """Cards as large as the room allows: your layout largest (wide rooms only, so the log keeps its width),
        the others' as large as fits beside each other (and the piles), the piles as faces in a tall room."""
        tall, taller, wide = room.has_class("-tall"), room.has_class("-taller"), room.has_class("-wide")
        mine: CardSize = ("xl" if taller else "large" if tall else "medium") if wide else "medium"
        others = [panel for panel in self.query(LayoutPanel) if not panel.mine]
        piles = PILES_FACES_WIDTH if tall else PILES_TEXT_WIDTH
        room_width = room.room_size.width - (piles if self.piles_on_top else 0)
        largest: list[CardSize] = ["large", "medium", "small"] if taller else ["medium", "small"] if tall else []
        fits = [size for size in largest if len(others) * panel_width(size) <= room_width]
        other: CardSize = fits[0] if fits else "small"
        for panel in self.query(LayoutPanel):
            size = mine if panel.mine else other
            if panel.card_size != size:
                panel.set_size(size)
        self._pile_faces = tall
        if self._shown is not None:
            self._draw(self._shown, live=self.idle() and self._shown is self.view)

    # -- events in -----------------------------------------------------------------------------------------------
    @property
    def pace(self) -> float:
        """The pause after each step of a chain: the app's ``chain_pace`` (a setting; 0 when the app is not paced,
        as in tests), else :data:`STEP_PAUSE`."""
        pace = getattr(self.app, "chain_pace", STEP_PAUSE)
        return float(pace) if isinstance(pace, int | float) and pace > 0 else 0.0

    def step_pause(self, event: Event) -> float:
        if self.snapshot is None or not isinstance(event, STEP_EVENTS):
            return 0.0  # the history replayed when the table opens is not played back step by step
        return self.pace

    def handle(self, event: Event) -> None:
        log = self.query_one(EventLog)
        for line in self.narrator.feed(event):
            log.add(line, emphasis=isinstance(event, DealStarted | DealOver | MatchOver | Completed))
        if self._shown is not None:
            self._shown = step_view(self._shown, event)
            self._fresh = changed_slot(event) or (self._fresh if isinstance(event, Discarded | Completed) else None)
        if isinstance(event, DealStarted):
            self._deal_over = None
            self._deal_view = None
        elif isinstance(event, DealOver):
            self._deal_over = event
            self._deal_view = self._shown
        if self._shown is not None and (self.step_pause(event) > 0 or isinstance(event, DealOver | RoundOver)):
            self._draw(self._shown, live=False)

    # -- the end of a deal and the results -----------------------------------------------------------------------
    def round_dialog(self, event: RoundOver) -> ModalScreen[None]:
        for line in self.narrator.flush():
            self.query_one(EventLog).add(line)
        deal = self._deal_over or DealOver(winners=event.winners, sizes=self.view.sizes, next_sizes=None)
        view = self._deal_view or self._shown or self.view
        from tui.games.trash.deal_end import TrashDealScreen  # (loaded at the first deal's end, not with the table)

        return TrashDealScreen(deal, event.round, view, self.names, self.me, event.last, match=self.is_match)

    @property
    def is_match(self) -> bool:
        return bool(getattr(self.options, "match", False))

    def summary(self) -> MatchSummary:
        over = self._match_over
        view = self.view
        totals = over.totals if over is not None else view.totals
        winners = over.winners if over is not None else view.winners
        if not totals:
            totals = tuple(0 for _ in range(self.players))

        def down(seat: int) -> int:
            return sum(1 for card in view.layouts[seat] if card is None) if seat < len(view.layouts) else 0

        if self.is_match:
            ranked = sorted(range(self.players), key=lambda s: (s not in winners, totals[s], down(s)))
        else:
            ranked = sorted(range(self.players), key=lambda s: (s not in winners, -totals[s], down(s)))
        places: list[tuple[int, str]] = []
        for index, seat in enumerate(ranked):
            previous = ranked[index - 1] if index else None
            if previous is not None and (seat in winners) == (previous in winners) and seat in winners:
                place = places[-1][0]  # a shared win
            else:
                place = index + 1
            name = who(seat, self.names, self.me, start=True)
            if seat in winners:
                detail = "won"
            elif self.is_match:
                detail = f"{totals[seat]}-card layout"
            else:
                detail = f"{down(seat)} face down"
            places.append((place, f"{name:<12} {detail}"))
        from tui.dialogs.results import MatchSummary  # loaded at a match's end, not with the table

        return MatchSummary(
            title=self.session.entry.title,
            winner=winner_sentence(you_first(winners, self.me), self.names, self.me),
            places=tuple(places),
            pot=None,
            seed=self.seed,
        )

    # -- drawing -------------------------------------------------------------------------------------------------
    @property
    def view(self) -> TrashView:
        snap = self.table_snapshot
        view = snap.view
        assert isinstance(view, TrashView)
        return view

    def render_snapshot(self, snapshot: Snapshot) -> None:
        view = snapshot.view
        assert isinstance(view, TrashView)
        for line in self.narrator.flush():
            self.query_one(EventLog).add(line)
        if self._message_version is not None and self._message_version != snapshot.version:
            self._message = None  # the explanation was about an earlier moment
        self._shown = view
        self._fresh = None
        self._draw(view, live=True)

    def _draw(self, view: TrashView, *, live: bool) -> None:
        """Draw the table from ``view``: the snapshot's (``live``: your choices are offered), or one step of a
        chain (nothing is offered until the chain has played)."""
        mine = live and self.my_turn
        thinking = self.thinking if live else None
        picking = mine and view.phase is TrashPhase.KING and view.to_move == self.me
        clock = self.clock_shown() if live else None
        for panel in self.query(LayoutPanel):
            seat = panel.seat
            if seat >= len(view.layouts):
                continue
            panel.show(
                view.layouts[seat],
                who(seat, self.names, self.me, start=True) if seat == self.me else self.names[seat],
                to_move=view.to_move == seat and view.phase is not TrashPhase.OVER,
                picking=picking and seat == self.me,
                fresh=self._fresh[1] if self._fresh is not None and self._fresh[0] == seat else None,
                subtitle=self._seat_subtitle(view, seat, thinking == seat),
                clock=seat_clock(clock, seat),
            )
        set_text(self.query_one("#tr-piles", Static), self._piles_text(view))
        set_text(self.query_one("#tr-turn", Static), self._turn_text(view, mine, thinking))
        legal = {str(action) for action in self.legal} if live else set()
        self.query_one("#tr-stock", Button).disabled = "stock" not in legal
        self.query_one("#tr-discard", Button).disabled = "discard" not in legal
        self.query_one("#tr-swap", Button).disabled = "swap" not in legal
        self.query_one("#tr-keep", Button).disabled = "pass" not in legal
        self.query_one("#tr-hint", Button).disabled = not (live and self.may_hint())
        # The buttons of the question asked now: swap or keep while a King could be swapped out, else the piles.
        swapping = mine and view.phase is TrashPhase.SWAP
        for button_id, shown in (("tr-stock", not swapping), ("tr-discard", not swapping)):
            self.query_one(f"#{button_id}", Button).display = shown
        for button_id in ("tr-swap", "tr-keep"):
            self.query_one(f"#{button_id}", Button).display = swapping
        self._show_status(view, mine)

    def _seat_subtitle(self, view: TrashView, seat: int, thinking: bool) -> str:
        size = view.sizes[seat] if seat < len(view.sizes) else 10
        down = sum(1 for card in view.layouts[seat] if card is None)
        parts = [count_of(size, "card") if self.is_match else f"{down} down"]
        if self.is_match:
            parts.append(f"{down} down")
        if seat in view.completed:
            parts = ["complete!"]
        if thinking:
            parts.append("thinking…")
        return " · ".join(parts)

    def _piles_text(self, view: TrashView) -> Content:
        if self._pile_faces:
            return self._piles_faces(view)
        top = view.discard[-1] if view.discard else None
        discard = (
            Content.assemble("Discard ", card_markup(top), f" ({len(view.discard)})")
            if top is not None
            else Content.styled("Discard empty", "$text-muted")
        )
        stock = Content.assemble("Stock ", (f"{view.stock}", "bold"))
        first = Content.assemble(stock, "  ·  ", discard)
        if view.final_round:
            first += Content.styled("  · last turn", "bold $text-warning")
        if view.held is None:
            held = Content.styled("Held: nothing", "$text-muted")
        else:
            holder = "You hold" if view.to_move == self.me else f"{self.names[view.to_move or 0]} holds"
            where = SOURCE_WORDS.get(view.held_from or "", view.held_from or "")
            held = Content.assemble(f"{holder} the ", card_markup(view.held), (f" {where}", "$text-muted"))
        return Content("\n").join([first, held])

    def _piles_faces(self, view: TrashView) -> Content:
        """The stock (a back), the top of the discard pile and the card in hand as faces, each with its words
        above and below."""
        top = view.discard[-1] if view.discard else None
        if view.held is None:
            holder, where = "Held", "nothing"
        else:
            holder = "You hold" if view.to_move == self.me else f"{self.names[view.to_move or 0]} holds"
            where = SOURCE_WORDS.get(view.held_from or "", view.held_from or "")
        discard = face_rows(top, "medium") if top is not None else empty_face()
        held = face_rows(view.held, "medium") if view.held is not None else empty_face()
        columns = [
            ("Stock", face_rows(None, "medium") if view.stock else empty_face(), count_of(view.stock, "card")),
            ("Discard", discard, count_of(len(view.discard), "card") if view.discard else "empty"),
            (holder, held, where),
        ]
        widths = [10, 10, max(len(holder), len(where), 7)]
        lines: list[Content] = []
        for row in range(7):
            parts: list[Content] = []
            for (label, face, caption), width in zip(columns, widths, strict=True):
                if row == 0:
                    part = Content.styled(label.ljust(width), "$text-muted")
                elif row == 6:
                    part = Content.styled(caption.ljust(width), "$text-muted")
                else:
                    part = face[row - 1] + Content(" " * (width - 7))
                parts.append(part)
            if row == 0 and view.final_round:
                parts.append(Content.styled("last turn", "bold $text-warning"))
            lines.append(Content(" ").join(parts))
        return Content("\n").join(lines)

    def _turn_text(self, view: TrashView, mine: bool, thinking: int | None) -> Content:
        seat = view.to_move
        if view.phase is TrashPhase.OVER or seat is None:
            return Content.styled("The deal is over", "$text-muted")
        if not mine:
            if seat == self.me:
                return Content.styled("Your turn: the chain plays…", "$text-muted")
            name = self.names[seat]  # plain text, as typed
            if thinking == seat:
                return Content.assemble(f"{name} ", THINKING)
            if view.held is not None:
                return Content.styled(f"{name}'s turn: playing the {card_text(view.held)}", "$text-muted")
            return Content.styled(f"{name} to play", "$text-muted")
        held = card_text(view.held) if view.held is not None else "card"
        if view.phase is TrashPhase.DRAW:
            top = view.discard[-1] if view.discard else None
            if top is not None and DISCARD in self.legal:
                text = f"Your turn: draw from the stock (s) or take the {card_text(top)} (d)"
            else:
                text = "Your turn: draw from the stock (s)"
        elif view.phase is TrashPhase.KING:
            text = f"Place the {held}: its slot's key (1–9, 0 for 10) or click a face-down card"
        elif view.phase is TrashPhase.SWAP:
            slot = slot_label(slot_of(view.held) or 0) if view.held is not None else "?"
            if KEEP in self.legal:
                text = f"The {held} may replace the King on slot {slot}: swap (w) or keep the King (x)"
            else:
                text = f"The {held} came from the discard pile: it must replace the King on slot {slot} (w)"
        else:
            text = "Your turn"
        return Content.styled(text, "bold $text-accent")

    def _show_status(self, view: TrashView, mine: bool) -> None:
        status = self.query_one("#tr-status", Static)
        if self._message is not None:
            status.update(self._message)
            return
        if mine and view.phase is TrashPhase.KING:
            slots = ", ".join(slot_label(s) for s in view.face_down(self.me or 0))
            status.update(Content.styled(f"Face-down slots: {slots}", "$text-muted"))
        else:
            status.update(Content(""))

    @property
    def status_text(self) -> str:
        """The status line as plain text (for tests)."""
        return str(self.query_one("#tr-status", Static).render())

    @property
    def turn_text(self) -> str:
        return str(self.query_one("#tr-turn", Static).render())

    # -- your choices --------------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A move you cannot make now is greyed (None): pressed anyway, it is refused in words (``explain``)."""
        if self.hides(action):
            return False
        legal = self.legal
        if action == "draw" and parameters:
            return True if Draw(str(parameters[0])) in legal else None
        if action == "swap":
            return True if SWAP in legal else None
        if action == "keep":
            return True if KEEP in legal else None
        if action == "slot" and parameters and isinstance(parameters[0], int):
            return True if PlaceKing(parameters[0]) in legal else None
        if action == "hint":
            if not self.hints_offered:
                return False  # (a LAN table made without hints)
            return True if self.may_hint() else None
        return super().check_action(action, parameters)

    def commands(self) -> Iterator[SystemCommand]:
        legal = {str(action): action for action in self.legal}
        if "stock" in legal:
            yield SystemCommand(
                "Draw from the stock", "Take the stock's top card (s)", lambda: self.action_draw("stock")
            )
        if "discard" in legal:
            yield SystemCommand(
                "Take the discard", "Take the discard pile's top card (d)", lambda: self.action_draw("discard")
            )
        if "swap" in legal:
            yield SystemCommand("Swap the King out", "Put the held card in place of the King (w)", self.action_swap)
        if "pass" in legal:
            yield SystemCommand("Keep the King", "Discard the held card (x)", self.action_keep)
        if self.may_hint():
            yield self.hint_command(self.action_hint)

    # -- the hint ------------------------------------------------------------------------------------------------
    def action_hint(self) -> None:
        if not self.may_hint():
            self.refuse(self._not_now() or "A hint is being worked out")
            return
        if self.request_hint(self._hint_found) and self.snapshot is not None:
            self._message = HINT_THINKING
            self._message_version = self.snapshot.version
            self.query_one("#tr-status", Static).update(self._message)
            self.refresh_bindings()

    def _hint_found(self, version: int, hint: Hint | None) -> None:
        if self.snapshot is None or self.snapshot.version != version or hint is None:
            self._message = None
        else:
            self._message = hint_status(hint.move)
            self._message_version = version
            self.log_hint(hint)
        if self.snapshot is not None:
            self.render_snapshot(self.snapshot)

    @on(Button.Pressed, "#tr-hint")
    def _hint_pressed(self) -> None:
        self.action_hint()

    def refuse(self, text: str) -> None:
        """Say why a key does nothing now, once, in the status line; nothing is sent."""
        super().refuse(text)
        self._message = Content.styled(self.refusal or text, "bold $text-error")  # (in the faces chosen)
        self._message_version = self.snapshot.version if self.snapshot is not None else None
        self.query_one("#tr-status", Static).update(self._message)

    def _not_now(self) -> str | None:
        """Why no move of yours can be made now, or None when it is your move."""
        if self.me is None:
            return "You are watching this table"
        if not self.idle():
            return "Wait a moment: the last moves are still being shown"
        view = self.view
        if view.phase is TrashPhase.OVER or self.table_over:
            return "The game is over"
        if not self.my_turn:
            seat = view.to_move
            name = self.names[seat] if seat is not None else "nobody"
            return f"It is not your turn: {name} is playing"
        return None

    def _first(self, view: TrashView) -> str:
        """What must be done first in the current phase (for a key that belongs to another phase)."""
        held = card_text(view.held) if view.held is not None else "card"
        if view.phase is TrashPhase.KING:
            return f"Place the {held} first: press a face-down slot's key or click it"
        if view.phase is TrashPhase.SWAP:
            return "Choose first: swap (w) or keep the King (x)" if KEEP in self.legal else "Swap first (w)"
        return "Draw first: from the stock (s) or the discard pile (d)"

    def _send(self, action: Action) -> None:
        error = self.submit(action)
        if error is not None:
            self.refuse(str(error))
        else:
            self._message = None

    def action_draw(self, source: str) -> None:
        reason = self._not_now()
        if reason is not None:
            self.refuse(reason)
            return
        view = self.view
        if view.phase is not TrashPhase.DRAW:
            self.refuse(self._first(view))
            return
        if Draw(source) not in self.legal:
            top = view.discard[-1] if view.discard else None
            if source == "discard" and top is None:
                self.refuse("The discard pile is empty: draw from the stock (s)")
            elif source == "discard" and top is not None:
                self.refuse(f"The {card_text(top)} has no place in your layout now: draw from the stock (s)")
            else:
                self.refuse("The stock is empty")
            return
        self._send(Draw(source))

    def action_slot(self, slot: int) -> None:
        reason = self._not_now()
        if reason is not None:
            self.refuse(reason)
            return
        view = self.view
        if view.phase is not TrashPhase.KING:
            self.refuse(f"A slot's key places a King, and you hold no King to place ({self._first(view).lower()})")
            return
        me = self.me or 0
        size = view.sizes[me]
        if slot > size:
            self.refuse(f"Your layout has {size} slots: choose a face-down one")
            return
        if PlaceKing(slot) not in self.legal:
            card = view.layouts[me][slot - 1]
            shown = f"the {card_text(card)}" if card is not None else "a card"
            self.refuse(f"Slot {slot_label(slot)} is face up ({shown}): a King goes on a face-down slot")
            return
        self._send(PlaceKing(slot))

    def action_swap(self) -> None:
        reason = self._not_now()
        if reason is not None:
            self.refuse(reason)
            return
        view = self.view
        if SWAP not in self.legal:
            self.refuse(f"Nothing to swap now ({self._first(view).lower()})")
            return
        self._send(SWAP)

    def action_keep(self) -> None:
        reason = self._not_now()
        if reason is not None:
            self.refuse(reason)
            return
        view = self.view
        if KEEP not in self.legal:
            if view.phase is TrashPhase.SWAP:
                self.refuse("A card taken from the discard pile must be placed: swap (w)")
            else:
                self.refuse(f"Nothing to keep now ({self._first(view).lower()})")
            return
        self._send(KEEP)

    @on(LayoutPanel.Clicked)
    def _slot_clicked(self, message: LayoutPanel.Clicked) -> None:
        message.stop()
        if message.seat != self.me:
            self.refuse(f"That is {self.names[message.seat]}'s layout: a King goes on a face-down card of yours")
            return
        self.action_slot(message.slot)

    @on(Button.Pressed, "#tr-stock")
    def _stock_pressed(self) -> None:
        self.action_draw("stock")

    @on(Button.Pressed, "#tr-discard")
    def _discard_pressed(self) -> None:
        self.action_draw("discard")

    @on(Button.Pressed, "#tr-swap")
    def _swap_pressed(self) -> None:
        self.action_swap()

    @on(Button.Pressed, "#tr-keep")
    def _keep_pressed(self) -> None:
        self.action_keep()
