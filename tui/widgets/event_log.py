"""The event log: one plain line per event, card names coloured by suit (two colours or four, :mod:`tui.words.faces`).

The lines are wrapped again whenever the log's width changes (the terminal, or the rules pane opening beside it):
a RichLog keeps its lines as wrapped when written, so a log that narrowed would cut its words and scroll sideways.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual import events
from textual.theme import Theme
from textual.widgets import RichLog

from engine.cards import Card, Rank, Suit
from tui.words.faces import card_style

_CARD = re.compile(r"\b(?:10|[2-9AJQK])([♠♥♦♣]|[SHDC]\b)")
_SUIT_OF = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


class EventLog(RichLog):
    """What happened, newest at the bottom. Redrawn when the theme changes, so red suits stay readable."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, auto_scroll=True, min_width=20)
        self._entries: list[tuple[str, bool]] = []
        self._wrapped_at = 0
        """The width the lines were last wrapped to (0: not yet known)."""
        self._width_seen = False
        """A resize with a width has come (RichLog writes the lines held back until then at the first)."""
        self._variables: dict[str, str] | None = None
        """The theme's colours, asked of the app once per theme (working them out takes as long as a few lines)."""
        self._rewrite_next: Callable[[str], list[str]] | None = None

    @property
    def lines_written(self) -> list[str]:
        return [line for line, _ in self._entries]

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, _: Theme) -> None:
        self._variables = None
        self._rewrite()

    def on_resize(self, event: events.Resize) -> None:
        # RichLog's own handler runs after this one and writes the lines held back until the size was known.
        width = self.scrollable_content_region.width
        if self._width_seen and self._wrapped_at and width != self._wrapped_at:
            self._rewrite()
        self._wrapped_at = width
        if event.size.width:
            self._width_seen = True

    def _rewrite(self) -> None:
        """Write every line again (a new width, a new theme), keeping the newest in view."""
        self.clear()
        for line, emphasis in self._entries:
            self._write_line(line, emphasis)

    def add(self, line: str, *, emphasis: bool = False) -> None:
        rewrite, self._rewrite_next = self._rewrite_next, None
        for text in rewrite(line) if rewrite is not None else (line,):
            self._entries.append((text, emphasis))
            self._write_line(text, emphasis)

    def rewrite_next(self, rewrite: Callable[[str], list[str]] | None) -> None:
        """Write the next line added as the lines ``rewrite`` makes of it (once; None: as it comes)."""
        self._rewrite_next = rewrite

    def _write_line(self, line: str, emphasis: bool) -> None:
        text = Text(line, style=Style(bold=True) if emphasis else "")
        variables = self._variables
        if variables is None:
            variables = self._variables = self.app.get_css_variables()
        for match in _CARD.finditer(line):
            suit = _SUIT_OF.get(match.group(1), match.group(1))
            style = card_style(Card(Rank.ACE, Suit(suit)))
            colour = style.removeprefix("bold ").removeprefix("$")
            shade = variables.get(colour) if colour != "text" else None
            text.stylize(Style.parse(f"bold {shade}") if shade else Style(bold=True), match.start(), match.end())
        self.write(text)
