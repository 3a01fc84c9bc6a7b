"""Rank's dialogs: naming a Joker's rank, the card that may follow it, and the penalty table at the end of a deal.

A Joker is played from the hand like any card; the engine then asks its player for a rank (13 choices) and, when
the player holds a normal play on that rank, whether to add one. Each question is a small dialog over the table,
answered by a key or a click, so the hand's own keys (arrows, Enter) cannot send a half-made answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

from engine.cards import Card, Rank
from engine.games.rank.rules import RANKS, DealOver
from engine.hints import Hint
from tui.dialogs.round_over import DIALOG_KEYS, SeatRowsScreen
from tui.games.rank.words import a_rank, ordinal, penalty_text, rank_word
from tui.screens.table import HINT_THINKING
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.card import card_markup
from tui.words import who
from tui.words.faces import in_faces

RANK_KEYS: dict[Rank, str] = {
    Rank.ACE: "a",
    **{Rank(n): str(n) for n in range(2, 10)},
    Rank.TEN: "0",
    Rank.JACK: "j",
    Rank.QUEEN: "q",
    Rank.KING: "k",
}
"""The key that names each rank in the Joker dialog (0 is the 10)."""


AskHint = Callable[[Callable[[Hint | None], None]], bool]
"""Asks the table for a hint for the question a dialog puts, and has the dialog shown it (False: none is asked)."""


def ask_hint(dialog: ModalScreen[Any], ask: AskHint | None, where: str) -> None:
    """Ask for a hint from ``dialog`` and show it, its move and its reason, in its line ``where``."""
    line = dialog.query_one(where, Static)

    def show(hint: Hint | None) -> None:
        if dialog.is_attached:
            line.update(Content.styled(in_faces(f"Hint: {hint}"), "bold $text-success") if hint else "")

    if ask is not None and ask(show):
        line.update(HINT_THINKING)


class JokerNameScreen(ModalScreen[Rank]):
    """Name the rank of the Joker you just played: a key (A 2–9 0 J Q K) or a click. It cannot be left unanswered:
    the Joker is on the pile already and the table waits for its rank."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("table.tcss", "rank.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"name('{key}')", rank_word(rank), show=False) for rank, key in RANK_KEYS.items()),
        Binding("1", "name('a')", "Ace", show=False),
        Binding("t", "name('0')", "10", show=False),
        Binding("h", "hint", "Hint", tooltip="What the hard computer player would name, and why"),
        Binding("question_mark", "app.keys", "Keys", show=False),
    ]

    def __init__(self, top: str, hint: str = "", ask_hint: AskHint | None = None) -> None:
        """``top``: what the Joker lies on (words); ``hint``: the normal plays you hold, to help choose;
        ``ask_hint``: asks the table for a hint (None: the table offers none)."""
        super().__init__()
        self.top = top
        self.hint = hint
        self.ask_hint = ask_hint

    def compose(self) -> ComposeResult:
        with Vertical(id="rk-joker-dialog"):
            yield Static(Content("Name the Joker's rank"), id="rk-joker-title")
            yield Static(Content(f"It lies on {self.top}. {self.hint}".strip()), id="rk-joker-help")
            with Grid(id="rk-joker-ranks"):
                for rank in RANKS:
                    key = RANK_KEYS[rank]
                    yield Button(f"{rank.text} ({key})", id=f"rk-name-{key}", compact=True)
            yield Static("", id="rk-joker-hint", classes="rk-dialog-hint")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.ask_hint is not None if action == "hint" else True

    def action_hint(self) -> None:
        ask_hint(self, self.ask_hint, "#rk-joker-hint")

    def action_name(self, key: str) -> None:
        rank = next(r for r, k in RANK_KEYS.items() if k == key)
        self.dismiss(rank)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        key = (event.button.id or "").removeprefix("rk-name-")
        if key in RANK_KEYS.values():
            self.action_name(key)


class FollowUpScreen(ModalScreen[Card | None]):
    """The card you may add after a Joker (a normal play on the named rank), or none: 1–9 or a click; x or Esc for
    no follow-up."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("table.tcss", "rank.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"choose({n - 1})", "", show=False) for n in range(1, 10)),
        Binding("x", "decline", "No follow-up"),
        Binding("escape", "decline", "No follow-up", show=False),
        Binding("h", "hint", "Hint", tooltip="What the hard computer player would do, and why"),
        *DIALOG_KEYS,
    ]

    def __init__(self, rank: Rank, cards: Sequence[Card], ask_hint: AskHint | None = None) -> None:
        """``ask_hint``: asks the table for a hint (None: the table offers none)."""
        super().__init__()
        self.rank = rank
        self.cards = tuple(cards)
        self.ask_hint = ask_hint

    def compose(self) -> ComposeResult:
        with Vertical(id="rk-follow-dialog"):
            yield Static(Content(f"The Joker is {a_rank(self.rank)}: add a card?"), id="rk-follow-title")
            with Horizontal(id="rk-follow-cards"):
                for index, card in enumerate(self.cards):
                    label = Content.assemble(card_markup(card), f" ({index + 1})") if index < 9 else card_markup(card)
                    yield Button(label, id=f"rk-follow-{index}", compact=True)
                yield Button("No follow-up (x)", id="rk-follow-none", variant="primary", compact=True)
            yield Static("", id="rk-follow-hint", classes="rk-dialog-hint")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.ask_hint is not None if action == "hint" else True

    def action_hint(self) -> None:
        ask_hint(self, self.ask_hint, "#rk-follow-hint")

    def action_choose(self, index: int) -> None:
        if 0 <= index < len(self.cards):
            self.dismiss(self.cards[index])

    def action_decline(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        name = (event.button.id or "").removeprefix("rk-follow-")
        if name == "none":
            self.dismiss(None)
        elif name.isdigit():
            self.action_choose(int(name))


def penalty_rows(deal: DealOver, names: Sequence[str], me: int | None, out: Sequence[int]) -> list[tuple[int, Content]]:
    """(seat, its line) per player: name, how the deal went, this deal's point and the match's total (names
    plain)."""
    rows: list[tuple[int, Content]] = []
    order = [*out, *(s for s in range(len(deal.penalties)) if s not in out and s != deal.loser), deal.loser]
    for seat in order:
        name = who(seat, names, me, start=True)
        if seat == deal.loser:
            how = Content.assemble(("lost", "bold $text-error"), "  ")
            held = deal.hands[seat] if seat < len(deal.hands) else ()
            how += Content(" ").join(card_markup(card) for card in held[:12])
            if len(held) > 12:
                how += Content(f" +{len(held) - 12}")
        elif seat in out:
            how = Content.styled(f"out {ordinal(out.index(seat) + 1)}", "$text-success")
        else:
            how = Content.styled("out", "$text-success")
        point = "+1" if seat == deal.loser else " 0"
        row = Content.assemble(
            (f"{name[:12]:<12} ", "bold"),
            (f"{point:>3}", "bold $text-error" if seat == deal.loser else "$text-muted"),
            ("  total ", "$text-muted"),
            (f"{deal.penalties[seat]:>2}", "bold"),
            "  ",
            how,
        )
        rows.append((seat, row))
    return rows


class RankDealScreen(SeatRowsScreen):
    """The end of a deal: who lost it (their cards shown) and every player's penalty points so far."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss", "rank.tcss")

    PREFIX = "rk-deal"

    def __init__(
        self,
        deal: DealOver,
        number: int,
        deals: int,
        names: Sequence[str],
        me: int | None,
        last: bool,
        out: Sequence[int] = (),
    ) -> None:
        """``out``: the seats in the order they went out for good this deal."""
        super().__init__(number, names, me, last)
        self.deal = deal
        self.deals = deals
        self.out = tuple(out)

    @property
    def title_text(self) -> str:
        loser = self.deal.loser
        verb = "lose" if loser == self.me else "loses"
        return f"Deal {self.number} of {self.deals} — {who(loser, self.names, self.me, start=True)} {verb} the deal"

    @property
    def sub_text(self) -> str:
        return f"1 penalty point, {penalty_text(self.deal.penalties[self.deal.loser])} in all"

    def rows(self) -> Iterable[tuple[int, Content]]:
        return penalty_rows(self.deal, self.names, self.me, self.out)
