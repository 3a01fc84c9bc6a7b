"""The keys every app shares, and leaving.

:class:`Navigation` is mixed into both apps (local play and LAN play), so the same keys do the same thing on every
screen: ``q`` (and ``ctrl+q``) quits, ``m`` goes back to the menu (or the lobby) from a table, each asking first
while a match is in progress (not a spectator, who leaves nothing behind); ``?`` shows every key of the screen;
``ctrl+c`` says how to quit, and what becomes of the match. A
screen that needs one of those letters for itself (the Joker dialog names the Queen with ``q``) binds it, and its
own binding wins; ``ctrl+q`` still quits.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, ClassVar, Literal

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType

from tui.dialogs.confirm import ConfirmScreen
from tui.messages import MainMenu
from tui.screens.table import SESSION_BINDINGS, TableScreen

Where = Literal["quit", "menu"]


def table_in_stack(app: App[Any]) -> TableScreen | None:
    """The table screen under whatever dialogs are open, if any."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, TableScreen):
            return screen
    return None


def navigation_commands(app: Navigation, commands: Iterable[SystemCommand]) -> Iterator[SystemCommand]:
    """Textual's own palette entries, with its Quit (which would leave at once) asking first like ``q``."""
    for command in commands:
        if command.title == "Quit":
            yield SystemCommand(
                "Quit", "Quit Parlour (q; asks first while a match is on)", lambda: app.action_leave("quit")
            )
        else:
            yield command


class Navigation:
    """The keys and the leaving every Parlour app shares (mixed into an :class:`~textual.app.App`)."""

    MENU_LABEL: ClassVar[str] = "Menu"
    """What ``m`` leads back to, as the footer says it."""
    LEAVE_DETAIL: ClassVar[str] = (
        "The match is saved: Parlour offers it again at its next start (unless you begin another game first)."
    )
    """What leaving a match in progress means, said under the question."""

    NAVIGATION_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "leave('quit')", "Quit", show=False, priority=True),
        Binding("question_mark", "keys", "Keys", tooltip="Show or hide every key of this screen"),
    ]

    def action_keys(self: Any) -> None:
        """Show every key of the screen (its own first) in a dialog over it, or close that dialog."""
        from tui.dialogs.keys import TABLE_TITLES, KeysScreen, shared_keys  # (read at the first ?, not at start-up)

        if isinstance(self.screen, KeysScreen):
            self.screen.dismiss(None)
        elif isinstance(self.screen, TableScreen):
            self.push_screen(KeysScreen(self.screen, shared_keys(SESSION_BINDINGS), TABLE_TITLES))
        else:
            self.push_screen(KeysScreen(self.screen))

    def action_help_quit(self: Any) -> None:
        """``ctrl+c``, which Textual binds to this action: it never quits a Textual app (it copies in a text field), so
        a player who presses it out of habit is told, in a notice, how to quit and what becomes of the match.
        (Textual's own version names a key only if one is bound to its ``quit`` action, and ``q`` asks first.)"""
        table = table_in_stack(self)
        if table is not None and table.in_progress and not table.watching:
            text = f"q quits (ctrl+q too), asking first. {self.LEAVE_DETAIL}"
        else:
            text = "q quits Parlour (ctrl+q too)."
        self.notify(text, title="Ctrl+C does not quit", markup=False)

    def action_leave(self: Any, where: Where) -> None:
        """Quit, or go back to the menu; while a match is in progress, ask first."""
        if isinstance(self.screen, ConfirmScreen):
            if where == "quit":
                self.leave_now(where)  # ctrl+q twice quits
            return
        table = table_in_stack(self)
        if where == "menu" and table is None:
            return
        if table is None or not table.in_progress or table.watching:
            self.leave_now(where)  # (a spectator leaves nothing behind: no seat, no match of theirs)
            return
        question = "Quit Parlour?" if where == "quit" else f"Back to the {self.MENU_LABEL.lower()}?"
        detail = self.LEAVE_DETAIL

        def answered(yes: bool | None) -> None:
            if yes:
                self.leave_now(where)

        self.push_screen(ConfirmScreen(question, detail, yes="Leave", no="Stay"), callback=answered)

    def leave_now(self: Any, where: Where) -> None:
        if where == "quit":
            self.call_later(self.run_action, "quit")  # the app's own quit (ParlourApp closes its table first)
        else:
            self.post_message(MainMenu())
