"""The Screw/Chase table: the seats, your card, your actions, the event log and the rules pane.

The session plumbing (the event queue, the hold at the end of a hand, the results) is in
:class:`tui.screens.table.TableScreen`; this screen says what the events mean and draws the table.
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

from engine.cards import Rank
from engine.events import Event
from engine.games.chase.rules import ChaseAction, ChaseView, Eliminated, HandVoid, Paid, Revealed
from engine.hints import Hint
from engine.match import MatchOver, RoundOver, RoundStarted
from engine.session import Session, Snapshot
from tui.games.chase.seats import SeatRing
from tui.games.chase.words import describe, face, who
from tui.screens.table import SESSION_BINDINGS, TableScreen, turn_keys
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.card import BigSize, CardFace
from tui.widgets.event_log import EventLog
from tui.widgets.quiet import set_text
from tui.widgets.room import TableRoom

if TYPE_CHECKING:
    from tui.dialogs.results import MatchSummary
    from tui.games.chase.reveal import (
        HandReveal,  # (loaded with a hand's first reveal, the end-of-hand dialog's module)
    )

PLAY_ACTIONS = ("stay", "trade", "swap", "cut")
DECK_HELP = {
    "swap": "Swap your card with the top card of the deck",
    "cut": "Cut the pack and take the card turned up",
}


class ChaseTableScreen(TableScreen):
    CSS_PATH: ClassVar[StylePaths] = css_paths("table.tcss", "chase.tcss", "dialogs.tcss", "settings.tcss")
    GAME_KEY: ClassVar[str] = "chase"
    MIN_SIZE: ClassVar[tuple[int, int]] = (59, 21)
    """Measured (ten players): the smallest terminal the table is complete at (tests/tui/test_layout.py)."""
    BINDINGS: ClassVar[list[BindingType]] = [
        *turn_keys(
            Binding("s", "stay", "Stay", tooltip="Keep your card"),
            Binding("t", "trade", "Trade", tooltip="Trade cards with the player to your left"),
            Binding("d", "swap", "Swap with deck", tooltip="Dealer: swap your card with the top card of the deck"),
            Binding("d", "cut", "Cut the pack", tooltip="Dealer: cut the pack and take the card turned up"),
            Binding("h", "hint", "Hint", tooltip="What the hard computer player would do, and why"),
        ),
        *SESSION_BINDINGS,
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self._reveal: HandReveal | None = None
        """The hand being revealed, from its Revealed event until the player has read it."""
        self._out_hand: dict[int, int] = {}
        self._hint_note: tuple[int, Content] | None = None
        """What the status line says of a hint (being worked out, or found) and the version it is for."""

    @property
    def title_text(self) -> str:
        return self.session.entry.title

    # -- layout --------------------------------------------------------------------------------------------------
    def compose_table(self) -> ComposeResult:
        # The seats across the top; below, your card and your moves on the felt, beside the log. With room the
        # felt takes half the width and holds them large in its middle, the seats show their cards as faces.
        with TableRoom(id="room"):
            yield SeatRing(len(self.names), id="seats")
            with Horizontal(id="middle"):
                with Horizontal(id="felt"):
                    with Vertical(id="hand-area"):
                        yield Static("Your card", id="card-label")
                        yield CardFace(None, id="my-card")
                    with Vertical(id="controls"):
                        yield Static("", id="status")
                        yield Button("Stay (s)", id="stay", compact=True, disabled=True)
                        yield Button("Trade (t)", id="trade", compact=True, disabled=True)
                        yield Button(f"{self.deck_label} (d)", id="deck", compact=True, disabled=True)
                        yield Button("Hint (h)", id="hint", compact=True, disabled=True)
                        yield Static("", id="match-info")
                yield EventLog(id="log")

    def set_up(self) -> None:
        if self.watching:  # the table as the public sees it: no card of yours, no moves
            self.query_one("#hand-area").display = False
        self.query_one("#hint", Button).display = self.hints_offered

    @on(TableRoom.Resized)
    def _room_resized(self, message: TableRoom.Resized) -> None:
        """Cards as large as the room allows: your card, and the seats' cards as faces when the seats are tall."""
        message.stop()
        room = message.room
        size: BigSize = "normal"
        if room.has_class("-wide"):  # a narrow felt keeps the card its own width
            size = "bigger" if room.has_class("-taller") else "big" if room.has_class("-tall") else "normal"
        self.query_one("#my-card", CardFace).resize_to(size)
        self.query_one(SeatRing).faces = room.has_class("-tall")
        self.query_one("#felt").border_title = "Your card" if room.has_class("-wide") and not self.watching else ""

    @property
    def deck_action(self) -> str:
        return "cut" if getattr(self.options, "dealer_cuts", False) else "swap"

    @property
    def deck_label(self) -> str:
        return "Cut the pack" if self.deck_action == "cut" else "Swap with deck"

    def out_of_the_round(self) -> bool:
        """Out of the match: the hands go on without you."""
        return self.me is not None and self.snapshot is not None and not self.view.alive(self.me)

    @property
    def view(self) -> ChaseView:
        snap = self.table_snapshot
        view = snap.view
        assert isinstance(view, ChaseView)
        return view

    # -- events in -----------------------------------------------------------------------------------------------
    def handle(self, event: Event) -> None:
        # The pot the winner takes is in the view (the match's last event comes after the last payment).
        pot = self.arriving.view.pot if isinstance(event, MatchOver) and self.arriving is not None else None
        line = describe(event, self.names, self.me, self.options, pot=pot)
        if line is not None:
            self.query_one(EventLog).add(line, emphasis=isinstance(event, RoundStarted | MatchOver))
        if isinstance(event, RoundStarted):
            self._reveal = None
        elif isinstance(event, Revealed):
            from tui.games.chase.reveal import HandReveal

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
        from tui.games.chase.reveal import HandReveal, RevealScreen

        reveal = self._reveal or HandReveal(hand=event.round, cards=[])
        reveal.match_over = event.last
        self.query_one("#status", Static).update(f"Hand {reveal.hand}: cards up")
        mine = dict(reveal.cards).get(self.me) if self.me is not None else None
        if mine is not None:
            self.query_one("#my-card", CardFace).show(mine)  # the card you hold at the end (a cut or a trade)
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
        from tui.dialogs.results import MatchSummary  # loaded at a match's end, not with the table

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
        self.query_one(SeatRing).show(view, self.names, self.me, thinking=self.thinking, clock=self.clock_shown())
        alive = self.me is not None and view.alive(self.me)
        card_face = self.query_one("#my-card", CardFace)
        card_face.display = alive
        card_face.show(view.my_card if alive else None)
        set_text(self.query_one("#card-label", Static), "Your card" if alive else "")
        legal = self._legal_names()
        for button in self.query("#stay, #trade, #deck").results(Button):
            button.display = alive  # out of the match: no moves to offer, not even greyed ones
        hint_button = self.query_one("#hint", Button)
        hint_button.display = alive and self.hints_offered
        hint_button.disabled = not self.may_hint()
        self.query_one("#stay", Button).disabled = "stay" not in legal
        self.query_one("#trade", Button).disabled = "trade" not in legal
        self.query_one("#deck", Button).disabled = self.deck_action not in legal
        set_text(self.query_one("#status", Static), self._status_text(snapshot))
        info = [f"Hand {view.hand}"]
        if getattr(self.options, "preset", None) == "chase":
            info.append(f"Pot {view.pot}")
        set_text(self.query_one("#match-info", Static), " · ".join(info))

    def _status_text(self, snapshot: Snapshot) -> Content:
        view = snapshot.view
        if snapshot.over:
            return Content("The match is over")
        if self.me is not None and not view.alive(self.me):
            return Content("Out of the match: watching to the end")
        note = self._hint_note
        if note is not None and note[0] == snapshot.version and snapshot.legal:
            return note[1]
        if snapshot.legal:
            return Content("Your turn")
        if snapshot.to_move is not None:
            return Content(f"{self.names[snapshot.to_move]} to play")  # a name: plain text
        return Content("")

    def _legal_names(self) -> set[str]:
        return {str(action) for action in self.legal}

    # -- your actions --------------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A move you cannot make now is greyed (None); a dealer's move is not shown to the others at all, nor the
        dealer's other deck move."""
        if self.hides(action):
            return False
        if action == "explain" and parameters and parameters[0] in ("swap", "cut"):
            # The dealer's move is hidden from the others, yet its key, pressed by one of them, is answered.
            return parameters[0] == self.deck_action and self.me is not None and self.snapshot is not None
        if action == "hint":
            if not self.hints_offered:
                return False  # (a LAN table made without hints)
            return True if self.may_hint() else None
        if action in PLAY_ACTIONS:
            if action in ("swap", "cut") and (action != self.deck_action or not self._dealing()):
                return False
            return True if action in self._legal_names() else None
        return super().check_action(action, parameters)

    def _dealing(self) -> bool:
        """Do you deal this hand?"""
        snap = self.snapshot
        return snap is not None and self.me is not None and getattr(snap.view, "dealer", None) == self.me

    def commands(self) -> Iterator[SystemCommand]:
        legal = self._legal_names()
        if "stay" in legal:
            yield SystemCommand("Stay", "Keep your card (s)", self.action_stay)
        if "trade" in legal:
            yield SystemCommand("Trade", "Trade cards with the player to your left (t)", self.action_trade)
        if self.deck_action in legal:
            yield SystemCommand(self.deck_label, f"{DECK_HELP[self.deck_action]} (d)", self.action_deck)
        if self.may_hint():
            yield self.hint_command(self.action_hint)

    # -- the hint ------------------------------------------------------------------------------------------------
    def action_hint(self) -> None:
        if not self.may_hint():
            self.refuse(self.why_not_now() or "A hint is being worked out")
            return
        if self.request_hint(self._hint_found) and self.snapshot is not None:
            self._hint_note = (self.snapshot.version, Content.styled("Thinking of a hint…", "italic"))
            self.render_snapshot(self.snapshot)

    def _hint_found(self, version: int, hint: Hint | None) -> None:
        self._hint_note = None
        if hint is not None and self.snapshot is not None and self.snapshot.version == version:
            self._hint_note = (version, Content.styled(f"Hint: {hint.move}", "bold $text-success"))
            self.log_hint(hint)
        if self.snapshot is not None:
            self.render_snapshot(self.snapshot)

    @on(Button.Pressed, "#hint")
    def _hint_pressed(self) -> None:
        self.action_hint()

    def _play(self, name: str) -> None:
        legal = {str(a): a for a in self.legal}
        if name not in legal:
            self.refuse(self.why_not_now() or self._why_not(name))
            return
        self.submit(legal[name])

    def _why_not(self, name: str) -> str:
        """Why the move ``name`` is not yours to make on your turn, in the game's words and your card faces."""
        view = self.view
        mine = view.my_card
        deck_move = "swap with the deck" if self.deck_action == "swap" else "cut the pack"
        if name in ("swap", "cut") and not self._dealing():
            return f"Only the dealer may {deck_move}: {self.names[view.dealer]} deals this hand"
        if mine is not None and mine.rank is Rank.KING:
            return f"You hold {face(mine)}: whoever holds a King must stay"
        if name == "trade" and self._dealing():
            return f"The dealer does not trade: you may stay or {deck_move} (d)"
        if name == "trade":
            left = view.left_of(view.seat) if view.seat is not None else None
            theirs = dict(view.known).get(left) if left is not None else None
            if left is not None and theirs is not None and theirs.rank is Rank.KING:
                return f"{self.names[left]} to your left shows {face(theirs)}: nobody trades into a King"
        return f"You cannot {name} now"

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
