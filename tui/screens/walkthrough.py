"""A walkthrough of a game's rules (issue 31): each rule played on a stacked deal, one step at a time.

Opened with "Show me" from the rules (the menu's rules screen, a table's rules pane): :class:`WalkthroughScreen`
shows one :class:`~engine.walkthrough.Step` of the game's :class:`~engine.walkthrough.Walkthrough` at a time, played
by a :class:`~engine.walkthrough.Walk` through the game's own rules. A step shows its title, the rules it is about
(their text from the rules pane, :func:`~engine.walkthrough.matching_units`), its intro and the position (the
walkthrough's own ``table`` lines, or every place of the game with every card); after each move, the log's words
for what it did (:func:`tui.games.describer`, as seat 0, "You", reads them) and the step's sentence on why.

Enter makes the next move. A move the player is asked to make shows what to do and the seat's legal moves in a
list: the one asked makes it, any other is refused in the step's words (nothing changes), and the list's first
choice, on which it opens, has the move made for the player (so Enter alone goes through every step). At a step's
end Enter goes to the next. ``n`` / ``p`` (or the arrows) go to the next and the previous step, each from its
start; ``r`` plays the step again; Escape closes. A step the rules refuse (its setup or a move is not legal there,
an outcome did not happen: :class:`~engine.walkthrough.WalkthroughError`) says so in place of its moves, and the
other steps can still be shown.

The steps are played under the game's default rules (its preset), each step switching on its own house rules: a
step is written for those, and a table's or the menu's house rules could make it refuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.cards import Card
from engine.errors import ParlourError
from engine.events import Event
from engine.game import GameEntry, GameState
from engine.match import RoundOver, RoundStarted
from engine.rules_doc import entry_section
from engine.walkthrough import RuleUnit, Step, Walk, Walkthrough, matching_units, rule_units
from tui.games import describer
from tui.screens.replay import place_text
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.card import card_markup
from tui.widgets.key_footer import KeyFooter
from tui.widgets.title_bar import TitleBar
from tui.words.faces import card_text, in_faces

__all__ = ["SEE_IT_MADE", "WalkthroughScreen", "action_words", "position_text", "step_rules"]

SEE_IT_MADE = "See it made"
"""The first choice of an asked move's list: the move is made for the player."""


def step_rules(step: Step, units: Sequence[RuleUnit]) -> list[RuleUnit]:
    """The rules ``step`` shows, in the order it names them, each once (a fragment found in no rule is shown as
    written)."""
    found: list[RuleUnit] = []
    for fragment in step.rules:
        matched = matching_units(fragment, units) or [RuleUnit("", fragment)]
        found.extend(unit for unit in matched if unit not in found)
    return found


def action_words(action: object) -> str:
    """A legal action as the list shows it: its text, each card in it with its suit (``3D 3S`` is ``3♦ 3♠``), the
    first word with a capital (``Trade``)."""
    words: list[str] = []
    for token in str(action).split():
        try:
            words.append(card_text(Card.parse(token)))
        except ParlourError:
            words.append(token)
    text = " ".join(words)
    return text[:1].upper() + text[1:]


REFUSED_STEP = "The rules no longer allow this step as it is written; the other steps can still be shown."
"""Below the engine's words, when a step cannot be shown or cannot go on."""
NEXT_ROUND = "The round is over, and the next one is dealt:"
"""Above the position after a move that ended a round (the engine deals the next one at once)."""


def next_round(events: Sequence[Event]) -> int | None:
    """Where the next round starts in ``events`` (the index of its RoundStarted, after a RoundOver), or None."""
    over = False
    for index, event in enumerate(events):
        if isinstance(event, RoundOver):
            over = True
        elif over and isinstance(event, RoundStarted):
            return index
    return None


def _place(name: str, cards: Sequence[Card], names: Sequence[str]) -> Content:
    """One place with every card: a hand as the replay viewer shows it, any other pile card by card."""
    if name.startswith("hand "):
        return place_text(name, cards, names)
    count = f"({len(cards)})"
    label = Content.styled(f"{name.capitalize():<10}{count:>4} ", "bold")
    if not cards:
        return Content.assemble(label, Content.styled("—", "$text-muted"))
    return Content.assemble(label, Content(" ").join(card_markup(card) for card in cards))


def position_text(walkthrough: Walkthrough, state: GameState[Any, Any, Any], names: Sequence[str]) -> Content:
    """The position as the walkthrough shows it (its ``table`` lines), else every place of the game with every card:
    the hands first, then the other piles."""
    if walkthrough.table is not None:
        return Content("\n".join(in_faces(line) for line in walkthrough.table(state, names)))
    places = state.zones()
    hands = [_place(name, cards, names) for name, cards in places.items() if name.startswith("hand ")]
    piles = [_place(name, cards, names) for name, cards in places.items() if not name.startswith("hand ")]
    return Content("\n").join([*hands, *piles])


class StepBody(VerticalScroll):
    """The step (its title, rules, intro and position), scrolled when it does not fit; after a move it keeps the
    position in sight (``follow``) as the moves below it take more or less room."""

    follow: Widget | None = None

    def keep_in_sight(self) -> None:
        if self.follow is not None:
            self.follow.scroll_visible(animate=False, top=True)

    def on_resize(self) -> None:
        self.keep_in_sight()  # (the room for the step is known only once the moves below it are laid out)


class WalkthroughScreen(Screen[None]):
    """The walkthrough of ``entry``'s rules: ``walkthrough``'s steps, played under ``options`` (default: the
    entry's preset), one at a time."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss")
    AUTO_FOCUS = ""  # the list of moves takes the focus only while a move is asked (else Enter is the screen's)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "go_on", "Go on", tooltip="Make the next move, or go on to the next step"),
        Binding("n", "step(1)", "Next step"),
        Binding("right", "step(1)", "Next step", show=False),
        Binding("p", "step(-1)", "Previous step"),
        Binding("left", "step(-1)", "Previous step", show=False),
        Binding("r", "restart", "Again", tooltip="Play this step again from its start"),
        Binding("escape", "close", "Close"),
        Binding("up", "scroll_body('up')", "Scroll up", show=False),
        Binding("down", "scroll_body('down')", "Scroll down", show=False),
        Binding("pageup", "scroll_body('page_up')", "Page up", show=False),
        Binding("pagedown", "scroll_body('page_down')", "Page down", show=False),
    ]

    def __init__(self, entry: GameEntry, walkthrough: Walkthrough, options: Any = None) -> None:
        super().__init__()
        self.entry = entry
        self.walkthrough = walkthrough
        self.options: Any = options if options is not None else entry.game.options(entry.preset)
        self.units = rule_units(entry_section(entry))
        self.index = 0
        """The step shown (from 0)."""
        self.walk: Walk | None = None
        """The step being played (None when its setup was refused)."""
        self.problem: str | None = None
        """Why the step cannot go on (its setup or a move refused): no move is offered any more."""
        self.refused: str | None = None
        """Why the move chosen is not the one asked (until a move is made)."""
        self.choices: list[object] = []
        """The legal actions the list offers, in its order (after its first choice, :data:`SEE_IT_MADE`)."""

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with StepBody(id="walk-body", can_focus=False):  # the keys play the step; up, down and the pages scroll
            yield Static("", id="walk-heading")
            yield Static("", id="walk-rules")
            yield Static("", id="walk-intro")
            yield Static("", id="walk-table")
        with Vertical(id="walk-foot"):
            yield Static("", id="walk-said")
            yield Static("", id="walk-ask")
            yield OptionList(id="walk-choices")
            yield Static("", id="walk-prompt")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = f"Walkthrough · {self.entry.title}"
        self.open_step(0)

    # -- steps -----------------------------------------------------------------------------------------------------
    @property
    def steps(self) -> tuple[Step, ...]:
        return self.walkthrough.steps

    @property
    def step(self) -> Step:
        return self.steps[self.index]

    @property
    def names(self) -> tuple[str, ...]:
        return self.step.seat_names()

    def open_step(self, index: int) -> None:
        """Show step ``index`` from its start (its setup made, none of its moves)."""
        self.index = index
        self.problem = self.refused = None
        self.walk = None
        if self.steps:
            try:
                self.walk = Walk(self.entry.game, self.options, self.step)
            except ParlourError as err:  # a WalkthroughError, or a scenario the game cannot deal
                self.problem = str(err)
        body = self.query_one(StepBody)
        body.follow = None
        body.scroll_home(animate=False)
        self.show()

    def make(self, action: object | None) -> None:
        """Make the step's next move (``action``: the player's, which is the one asked; None: for them)."""
        walk = self.walk
        if walk is None or walk.done or self.problem is not None:
            return
        try:
            walk.make(action)
        except ParlourError as err:
            self.problem = str(err)
        self.refused = None
        self.show()

    # -- keys --------------------------------------------------------------------------------------------------------
    def action_go_on(self) -> None:
        walk = self.walk
        if walk is not None and not walk.done and self.problem is None:
            self.make(None)
        elif self.index + 1 < len(self.steps):
            self.open_step(self.index + 1)
        else:
            self.dismiss(None)

    def action_step(self, by: int) -> None:
        index = self.index + by
        if not 0 <= index < len(self.steps):
            self.app.bell()
            return
        self.open_step(index)

    def action_restart(self) -> None:
        if self.steps:
            self.open_step(self.index)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll_body(self, how: str) -> None:
        body = self.query_one(StepBody)
        {
            "up": body.scroll_up,
            "down": body.scroll_down,
            "page_up": body.scroll_page_up,
            "page_down": body.scroll_page_down,
        }[how]()

    @on(OptionList.OptionSelected, "#walk-choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        walk = self.walk
        if walk is None or event.option_index == 0:
            self.make(None)
            return
        action = self.choices[event.option_index - 1]
        why = walk.refusal(action)
        if why is None:
            self.make(action)
            return
        self.refused = in_faces(why)
        self.show()

    # -- drawing -----------------------------------------------------------------------------------------------------
    def show(self) -> None:
        if not self.steps:
            self.query_one("#walk-heading", Static).update(Content.styled("This game has no steps to show", "bold"))
            self._show_moves(None)
            return
        step = self.step
        self.query_one("#walk-heading", Static).update(
            Content.assemble(
                (f"Step {self.index + 1} of {len(self.steps)}", "bold $text-accent"),
                ("  ", ""),
                (in_faces(step.title), "bold"),
            )
        )
        rules = step_rules(step, self.units)
        label = Content.styled("The rule" if len(rules) == 1 else "The rules", "bold $text-accent")
        bullet = "• " if len(rules) > 1 else ""
        self.query_one("#walk-rules", Static).update(
            Content("\n").join([label, *(Content(bullet + in_faces(unit.text)) for unit in rules)])
        )
        self.query_one("#walk-intro", Static).update(Content(in_faces(step.intro)))
        walk = self.walk
        table = self.query_one("#walk-table", Static)
        table.display = walk is not None
        if walk is not None:
            shown = position_text(self.walkthrough, walk.state, self.names)
            if walk.made > 0 and next_round(walk.events) is not None:
                shown = Content("\n").join([Content.styled(NEXT_ROUND, "italic $text-muted"), shown])
            table.update(shown)
            if walk.made > 0:  # the position after the move, in sight (at 24 rows the rules above may hide it)
                body = self.query_one(StepBody)
                body.follow = table
                self.call_after_refresh(body.keep_in_sight)
        self._show_moves(walk)

    def _show_moves(self, walk: Walk | None) -> None:
        said = self.query_one("#walk-said", Static)
        ask = self.query_one("#walk-ask", Static)
        choices = self.query_one("#walk-choices", OptionList)
        said.set_class(self.problem is not None, "-problem")
        if self.problem is not None:
            said.border_title = "This step cannot be shown" if walk is None else "This step stops here"
            said.update(
                Content("\n").join([Content(in_faces(self.problem)), Content.styled(REFUSED_STEP, "$text-muted")])
            )
        elif walk is not None and walk.made > 0:
            made = walk.step.moves[walk.made - 1]
            said.border_title = f"Move {walk.made} of {len(walk.step.moves)} · {self._who(made.seat)}"
            said.update(self._said(walk))
        said.display = self.problem is not None or (walk is not None and walk.made > 0)
        move = walk.next_move if walk is not None and self.problem is None else None
        asked = move is not None and move.asked
        ask.display = choices.display = asked
        if move is not None and asked:
            assert walk is not None
            text = Content.assemble(("Your move: ", "bold $text-success"), in_faces(move.ask))
            if self.refused is not None:
                text = Content.assemble(text, "\n", (self.refused, "bold $text-error"))
            ask.update(text)
            state = walk.state
            self.choices = list(state.legal_actions()) if state.to_move == move.seat else []
            choices.set_options(
                [Option(Content.styled(f"▸ {SEE_IT_MADE}", "italic"), id="see")]
                + [Option(action_words(action)) for action in self.choices]
            )
            choices.highlighted = 0
            choices.focus()
        else:
            self.choices = []
            choices.clear_options()
            if choices.has_focus:
                self.set_focus(None)  # Enter goes on (the list took it while it was shown)
        self.query_one("#walk-prompt", Static).update(self._prompt(walk))

    def _who(self, seat: int) -> str:
        names = self.names
        return names[seat] if 0 <= seat < len(names) else f"Seat {seat}"

    def _said(self, walk: Walk) -> Content:
        """The last move: the log's words for its events (as seat 0 reads them), then why."""
        words = describer(self.entry.key, walk.options)
        names = self.names
        events = walk.events
        lines = [
            Content.styled(line, "$text-muted")
            for event in events[: next_round(events)]
            if (seen := event.for_seat(0)) is not None and (line := words(seen, names, 0))
        ]
        move = walk.step.moves[walk.made - 1]
        return Content("\n").join([*lines, Content.styled(in_faces(move.says), "bold")])

    def _prompt(self, walk: Walk | None) -> Content:
        last = self.index + 1 >= len(self.steps)
        onward = (
            "Enter or Escape: close · p: the step before"
            if last
            else f"Enter: step {self.index + 2} of {len(self.steps)}, {in_faces(self.steps[self.index + 1].title)}"
        )
        if self.problem is not None or walk is None:
            return Content.styled(f"{onward} · r: try this step again", "$text-muted")
        move = walk.next_move
        if move is None:
            return Content.assemble(("End of this step. ", "bold"), (onward, "$text-muted"))
        if move.asked:
            return Content.assemble(
                ("↑ ↓", "bold"), (" pick a move, ", "$text-muted"), ("Enter", "bold"), (" makes it", "$text-muted")
            )
        who = "your" if move.seat == 0 else f"{self._who(move.seat)}'s"
        return Content.assemble(("Enter", "bold"), (f": see {who} move", ""))

    # -- for tests -----------------------------------------------------------------------------------------------------
    def text_of(self, widget_id: str) -> str:
        """What the part ``widget_id`` (``walk-said``, ``walk-table``...) shows, as plain text."""
        return str(self.query_one(f"#{widget_id}", Static).render())
