"""The footer of every table: Textual's Footer, rebuilt only when the keys it shows have changed.

Textual's Footer takes down and mounts all its keys again each time a screen refreshes its bindings. A table
refreshes them after every move it draws (what you may do changes), so a Pilot game of Rank built some 850 footer
keys in 26 turns and spent a quarter of its time styling them, although most moves change no key at all and the
others only grey or light up a key or two. This footer compares the keys it would show (each key, its words, its
tooltip, whether it is enabled) with those it shows, and is rebuilt only when they differ. The menu and the
question before leaving use it too.

Greying a key in place sets what Textual's footer key reads when it is clicked (a greyed key rings), which Textual
does not make public: that is done only with the Textual it was checked against (:mod:`tui.terminal.textual_version`);
with any other, a change of which keys are enabled rebuilds the footer as Textual's own does.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.app import ComposeResult
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widgets import Footer

from tui.terminal.textual_version import textual_checked

KeyId = tuple[str, str]
"""A footer key: the key and its action."""


class KeyFooter(Footer):
    """A :class:`~textual.widgets.Footer` that is rebuilt only when its keys change, and greys keys in place."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._keys: tuple[Hashable, ...] | None = None
        self._enabled: dict[KeyId, bool] = {}

    def on_mount(self) -> None:
        super().on_mount()
        # Textual's Footer shows no key until its screen announces its bindings; a screen that announced them before
        # the footer was listening (it took focus first) would leave it empty until its next change.
        self.call_after_refresh(self.bindings_changed, self.screen)

    def compose(self) -> ComposeResult:
        # Textual's FooterKey starts compact, and each key of a binding is then bound to the footer's (not compact):
        # its class went on and off again, each time restyling the key, before the first frame. Those keys start as
        # the footer is instead (the palette's key is not bound, and stays compact).
        for widget in super().compose():
            compact = getattr(type(widget), "compact", None)  # a footer key's (Footer binds it to its own)
            if isinstance(compact, Reactive) and not widget.has_class("-command-palette"):
                widget.set_reactive(compact, self.compact)
            yield widget

    def keys_shown(self, screen: Screen[object]) -> tuple[tuple[Hashable, ...], dict[KeyId, bool]]:
        """What the footer would show for ``screen``: its keys (key, action, words, tooltip, group) and whether
        each is enabled (the first binding of an action is the one shown, as in Footer.compose)."""
        keys: list[Hashable] = [self.app.ENABLE_COMMAND_PALETTE, self.show_command_palette, self.compact]
        enabled: dict[KeyId, bool] = {}
        for _node, binding, on, tooltip in screen.active_bindings.values():
            if binding.show or binding.key == self.app.COMMAND_PALETTE_BINDING:
                group = binding.group.description if binding.group is not None else None
                keys.append((binding.key, binding.action, binding.description, tooltip, group, binding.show))
                enabled.setdefault((binding.key, binding.action), on)
        return tuple(keys), enabled

    def bindings_changed(self, screen: Screen[object]) -> None:
        # The same guards as Footer's: a footer of a screen not showing, or of an app without focus, waits.
        if self.is_attached and screen is self.screen and screen.app.app_focus:
            keys, enabled = self.keys_shown(screen)
            if self._keys is not None and keys == self._keys and (enabled == self._enabled or textual_checked()):
                if enabled != self._enabled:
                    self._enabled = enabled
                    for footer_key in self.query("FooterKey"):
                        on = enabled.get((getattr(footer_key, "key", ""), getattr(footer_key, "action", "")))
                        if on is not None:  # as FooterKey.__init__ marks a greyed key (a click on it rings)
                            footer_key._disabled = not on  # type: ignore[attr-defined]
                            footer_key.set_class(not on, "-disabled")
                return
            self._keys, self._enabled = keys, enabled
        super().bindings_changed(screen)
