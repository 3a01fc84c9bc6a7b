"""Every key of the screen underneath, in a dialog over it (``?``): the game's own keys first (a table's moves, the
hand's cursor), then the keys the screen shares with others (rules, menu, quit, the log, the palette), then
Textual's scrolling, focus and copying keys.

Textual's own key panel docks beside the screen and squeezes a table at 80x24 into unreadable columns; this dialog
lies over the middle of the screen and leaves the table whole behind it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.key_footer import KeyFooter

GAME, SHARED, TEXTUAL = range(3)
"""The dialog's sections, in order."""

PALETTE = "The command palette: what can be done now"


@dataclass(frozen=True)
class KeyRow:
    """One line of the dialog: the keys that do one thing, and what it is."""

    keys: str
    what: str
    enabled: bool
    section: int
    """:data:`GAME`, :data:`SHARED` or :data:`TEXTUAL`."""


def _declared_by_textual(node: DOMNode, binding: Binding) -> bool:
    """Whether ``binding`` comes from one of Textual's own classes (or Textual added it itself), not Parlour's."""
    for cls in type(node).__mro__:
        for declared in cls.__dict__.get("BINDINGS", ()):
            if isinstance(declared, Binding) and (declared.key, declared.action) == (binding.key, binding.action):
                return cls.__module__.split(".")[0] == "textual"
    return True


def shared_keys(bindings: Iterable[BindingType]) -> frozenset[tuple[str, str]]:
    """The (key, action) pairs of ``bindings``: what :class:`KeysScreen` lists under the shared keys."""
    return frozenset((b.key, b.action) for b in bindings if isinstance(b, Binding))


def _section(node: DOMNode, binding: Binding, shared: Collection[tuple[str, str]]) -> int:
    if _declared_by_textual(node, binding):
        return TEXTUAL
    if isinstance(node, App) or (binding.key, binding.action) in shared:
        return SHARED  # (the app's keys, and those every table puts after its own)
    return GAME


def key_rows(screen: Screen[Any], shared: Collection[tuple[str, str]] = frozenset()) -> list[KeyRow]:
    """The keys active on ``screen`` (its own, its focused widget's and the app's), one row per action, in order:
    the game's, then the shared ones (the app's, and ``shared``: the (key, action) pairs the screen shares with
    others of its kind), then Textual's."""
    app = screen.app
    keys: dict[tuple[int, str], list[str]] = {}
    words: dict[tuple[int, str], str] = {}
    enabled: dict[tuple[int, str], bool] = {}
    for node, binding, on, tooltip in screen.active_bindings.values():
        if binding.system:
            continue
        if binding.action == "command_palette":
            section, what = SHARED, PALETTE
        else:
            section = _section(node, binding, shared)
            what = tooltip if tooltip and len(tooltip) > len(binding.description) else binding.description
            what = what or binding.action
        row = (section, binding.action.removeprefix("app."))  # (``q`` and ``ctrl+q`` ask the same question)
        shown = app.get_key_display(binding)
        if shown not in keys.setdefault(row, []):
            keys[row].append(shown)
        if len(what) > len(words.get(row, "")):
            words[row] = what  # (the action's best-described binding says what it does)
        enabled[row] = enabled.get(row, False) or on
    if app.ENABLE_COMMAND_PALETTE and (SHARED, "command_palette") not in keys:
        row = (SHARED, "command_palette")
        keys[row] = [app.get_key_display(Binding(app.COMMAND_PALETTE_BINDING, "command_palette"))]
        words[row], enabled[row] = PALETTE, True
    ordered = sorted(keys, key=lambda row: row[0])  # (stable: each section keeps the screen's own order)
    return [KeyRow(" ".join(keys[row]), words[row], enabled[row], row[0]) for row in ordered]


TABLE_TITLES = ("This game", "Every table", "Scrolling, focus and copying")
"""The sections' titles over a table."""
SCREEN_TITLES = ("This screen", "Every screen", "Scrolling, focus and copying")
"""The sections' titles over any other screen."""


class KeysScreen(ModalScreen[None]):
    """The keys of the screen underneath; ``?``, Esc or Enter closes it."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("question_mark", "close", "Close", show=False),
        Binding("enter", "close", "Close", show=False),
    ]

    def __init__(
        self,
        under: Screen[Any],
        shared: Collection[tuple[str, str]] = frozenset(),
        titles: tuple[str, str, str] = SCREEN_TITLES,
    ) -> None:
        """``shared``: the (key, action) pairs ``under`` shares with other screens of its kind (see
        :func:`shared_keys`); ``titles``: the three sections' titles."""
        super().__init__()
        self.rows = key_rows(under, shared)
        self.titles = titles

    def _lines(self) -> Iterator[Widget]:
        section = -1
        for row in self.rows:
            if row.section != section:
                section = row.section
                yield Static(Content(self.titles[section]), classes="keys-section")
            yield Horizontal(
                Static(Content(row.keys), classes="keys-keys"),
                Static(Content(row.what), classes="keys-what" if row.enabled else "keys-what keys-off"),
                classes="keys-row",
            )

    def compose(self) -> ComposeResult:
        with Vertical(id="keys-dialog"):
            yield Static(Content("Keys (Esc closes)"), id="keys-title")
            yield VerticalScroll(*self._lines(), id="keys-list")
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)
