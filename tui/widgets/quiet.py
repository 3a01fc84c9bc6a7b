"""Change a widget only when what it shows changes, and lay out the screen only when a size can change.

A table redraws everything from a fresh snapshot after every move, and most of its widgets show what they showed
before. Textual repaints a widget whenever its border title is set, even to the same words, and lays out the whole
screen after every ``Static.update`` (its size might follow its text): each move cost a full layout and a repaint
of the hand. These helpers skip what changes nothing, and ask for a layout only when the widget's size follows its
text (an ``auto`` width or height); a widget given its size by the CSS is only repainted.

>>> from textual.content import Content
>>> same(Content.styled("to play", "bold"), Content.styled("to play", "bold")), same("a", "a")
(True, True)
>>> same(Content.styled("to play", "bold"), Content("to play")), same("1", 1)
(False, False)
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

__all__ = ["same", "set_border", "set_text"]

_GIVEN: WeakKeyDictionary[Widget, dict[str, tuple[object, object]]] = WeakKeyDictionary()
"""For each widget and border attribute set through :func:`set_border`: what it was given, and what Textual stored
for it (if the widget's stored title is no longer that object, something else set it since)."""
_UNSET = object()


def same(old: object, new: object) -> bool:
    """Whether two things to show are the same to the eye: equal text, or equal Content with the same styles (Content
    compares its text only)."""
    if old is new:
        return True
    if isinstance(old, Content) and isinstance(new, Content):
        return old.plain == new.plain and old.spans == new.spans
    return type(old) is str and type(new) is str and old == new


def set_text(static: Static, content: Any) -> None:
    """``static.update(content)``, unless it shows just that already; with a layout only if its size follows its
    text."""
    if same(static.content, content):
        return
    width, height = static.styles.width, static.styles.height
    static.update(content, layout=height is None or height.is_auto or (width is not None and width.is_auto))


def set_border(widget: Widget, title: object = _UNSET, subtitle: object = _UNSET) -> None:
    """Set ``widget``'s border title and subtitle (those given), each only if it differs from what it shows: setting
    either repaints the whole widget."""
    given = _GIVEN.setdefault(widget, {})
    for name, value in (("border_title", title), ("border_subtitle", subtitle)):
        if value is _UNSET:
            continue
        shown = getattr(widget, name)  # (Textual's public getter: the title as it shows it, in markup)
        last, last_shown = given.get(name, (_UNSET, _UNSET))
        if last_shown == shown and same(last, value):
            continue
        setattr(widget, name, value)
        given[name] = (value, getattr(widget, name))
