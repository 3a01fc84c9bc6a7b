"""A screen styled once when it opens, not three times.

Textual styles every widget as it is mounted. Then, by default, it styles the whole screen again twice before the
first frame: when the screen is shown (``ScreenResume`` restyles every widget on it, although nothing has changed
since they were mounted) and on the first resize, if the screen's breakpoint classes (``-narrow``/``-wide``) are
set then (each class change restyles every widget under the screen). On a table of a hundred widgets those two
passes were a third of the time from start to the first frame.

:class:`StyledOnce` skips the restyle of the first ``ScreenResume`` (later ones, such as the table showing again
when a dialog closes, restyle as usual), and :func:`preset_breakpoints` gives a screen its breakpoint classes for
the terminal's size before its widgets exist, so the first resize finds them already right. Textual restyles on
its own whatever depends on order as widgets are mounted (``:first-child``, ``:odd``...), and focus, hover and
``disabled`` changes restyle the widget concerned. One thing it does not notice is ``can_focus`` changing (the
``:can-focus`` pseudo-class: Textual fades a disabled widget that can take focus): set it before the widget is
mounted (:func:`unfocusable`), or restyle the widget after.
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual import events
from textual.screen import Screen
from textual.widget import Widget

__all__ = ["StyledOnce", "preset_breakpoints", "unfocusable"]


class StyledOnce:
    """Mixed into a :class:`~textual.screen.Screen` (before it in the bases): no full restyle when first shown."""

    _shown_once = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Screen._on_screen_resume (a subclass's handler comes first along the MRO), which restyles
        # every widget of the screen when the event asks for it.
        if not self._shown_once:
            self._shown_once = True
            event.refresh_styles = False
            # Its widgets are styled as they mount, after the screen's CSS_PATH was read; the screen itself was
            # styled before (Textual reads a screen's files once it has made the screen): it alone is styled again.
            self.app.stylesheet.apply(self)  # type: ignore[attr-defined]


def preset_breakpoints(screen: Screen[Any]) -> None:
    """Set ``screen``'s breakpoint classes for the terminal's present size, as its first resize would. Call it at the
    start of ``compose``: the screen has no widgets yet, so changing its classes restyles only itself."""
    try:
        width, height = screen.app.size
    except RuntimeError:  # no app running
        return
    app = screen.app
    horizontal = (
        app.HORIZONTAL_BREAKPOINTS if screen.HORIZONTAL_BREAKPOINTS is None else screen.HORIZONTAL_BREAKPOINTS
    ) or []
    vertical = (app.VERTICAL_BREAKPOINTS if screen.VERTICAL_BREAKPOINTS is None else screen.VERTICAL_BREAKPOINTS) or []
    classes = {name: False for _, name in [*horizontal, *vertical]}
    for dimension, breakpoints in ((width, horizontal), (height, vertical)):
        for threshold, name in sorted(breakpoints, reverse=True):
            if dimension >= threshold:
                classes[name] = True
                break
    if classes:
        screen.update_classes(classes, animate=False)


W = TypeVar("W", bound=Widget)


def unfocusable(widget: W) -> W:
    """``widget``, unable to take focus (the keys belong to the screen): for ``compose``, before it is styled."""
    widget.can_focus = False
    return widget
