"""The event log: one plain line per event, card names coloured by suit."""

from __future__ import annotations

import re

from rich.style import Style
from rich.text import Text
from textual.widgets import RichLog

_RED_CARD = re.compile(r"\b(?:10|[2-9AJQK])[♥♦]")
_BLACK_CARD = re.compile(r"\b(?:10|[2-9AJQK])[♠♣]")


class EventLog(RichLog):
    """What happened, newest at the bottom."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, auto_scroll=True, min_width=20)
        self.lines_written: list[str] = []

    def add(self, line: str, *, emphasis: bool = False) -> None:
        self.lines_written.append(line)
        text = Text(line, style=Style(bold=True) if emphasis else "")
        variables = self.app.get_css_variables()
        red = variables.get("text-error", "red")
        for match in _RED_CARD.finditer(line):
            text.stylize(Style.parse(f"bold {red}"), match.start(), match.end())
        for match in _BLACK_CARD.finditer(line):
            text.stylize(Style(bold=True), match.start(), match.end())
        self.write(text)
