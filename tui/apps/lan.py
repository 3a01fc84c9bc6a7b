"""The app of a player at a LAN host (``parlour join``, ``parlour host``, and every SSH guest): the lobby, and the
same table screens as local play, fed by a :class:`~engine.lan.remote_session.NetworkSession`.

The app owns the connection's lobby side: the host's lobby messages are posted to it from the connection's thread;
``started`` opens the game's table screen on the same session; when that screen is done (results, or the player
asks for the menu) the player leaves the table and is back in the lobby. A dropped connection is retried with the
player's token (the session does it); one that cannot come back ends the app with a sentence.
"""

from __future__ import annotations

import shlex
import signal
import threading
from collections.abc import Callable, Iterable
from types import FrameType
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from engine.errors import ParlourError
from engine.lan.remote_session import NetworkSession
from engine.registry import get_entry
from tui.apps.lan_records import LanRecords, keep_lan_records
from tui.apps.navigation import Navigation, Where, navigation_commands, table_in_stack
from tui.apps.notices import KeepsNotices
from tui.apps.sign_in import SignedIn, SignIn, SignInScreen
from tui.dialogs.confirm import ChoiceScreen, ConfirmScreen
from tui.games import screen_class
from tui.messages import MainMenu, PlayAgain
from tui.screens.lobby import ChatScreen, LobbyMessage, LobbyScreen
from tui.screens.table import TableScreen
from tui.settings.in_app import KeepsSettings, is_settings_screen
from tui.terminal.screen_styles import StylePaths, app_css_path, first_css_path

if TYPE_CHECKING:
    from engine.lan.lan_host import HostThread


class LanApp(Navigation, KeepsSettings, KeepsNotices, App[None]):
    TITLE = "Parlour"
    CSS_PATH: ClassVar[StylePaths] = app_css_path()  # and each screen's own, when shown
    BINDINGS: ClassVar[list[BindingType]] = [
        *Navigation.NAVIGATION_BINDINGS,
        Binding("q", "leave('quit')", "Quit", tooltip="Quit Parlour (asks first while a match is on)"),
        Binding("ctrl+t", "chat", "Chat", priority=True),
    ]
    MENU_LABEL = "Lobby"
    LEAVE_DETAIL = (
        "The match goes on without you: a computer player takes your seat (a table with nobody else at it ends)."
    )

    conn: NetworkSession
    lobby: LobbyScreen

    def __init__(
        self,
        conn: NetworkSession | None,
        *,
        banner: str = "",
        table: str | None = None,
        hosting: HostThread | None = None,
        sign_in: SignIn | None = None,
    ) -> None:
        """``conn``: the session at the host; None with ``sign_in``: the app asks the name (and the password) first
        and connects itself (a browser session)."""
        super().__init__(css_path=first_css_path(LobbyScreen))
        self.hosting = hosting
        """The host this app runs (``parlour host``): quitting while it has tables in play asks what becomes of them."""
        self.host_stopping = False
        """The player chose how the host stops, and it is stopping: its goodbye is no news to show."""
        self.load_settings()
        self.sign_in = sign_in
        self._banner, self._table = banner, table
        self._stop_watching: Callable[[], None] | None = None
        self._records: LanRecords | None = None
        if conn is not None:
            self._use_session(conn)
        elif sign_in is None:
            raise ValueError("LanApp needs a session at the host, or a SignIn to make one")
        self._statuses: dict[int, tuple[str | None, str]] = {}
        """Each seat's (name, status) at the last table summary: what changed is told during a game."""
        self.farewell: str | None = None
        """Why the app ended, when it was the host's doing (printed by the command after the screen is restored)."""
        self._before_sigterm: Callable[[int, FrameType | None], Any] | int | None = None
        """The SIGTERM handler this hosting app replaced (given back as it ends)."""

    @property
    def attached(self) -> bool:
        """The app has its session at the host (not before the player signed in)."""
        return self._stop_watching is not None

    def _use_session(self, conn: NetworkSession) -> None:
        self.conn = conn
        self.lobby = LobbyScreen(conn, banner=self._banner, table=self._table)
        self._stop_watching = conn.watch(self._from_host)
        self._records = keep_lan_records(self, conn)  # every match seen at this seat kept (tui/apps/lan_records.py)

    def on_mount(self) -> None:
        self.apply_loaded_settings()
        if self.attached:
            self.push_screen(self.lobby)
        else:
            assert self.sign_in is not None
            self.push_screen(SignInScreen(self.sign_in))
        if self.hosting is not None:
            self._catch_sigterm()

    def on_unmount(self) -> None:
        if self._stop_watching is not None:
            self._stop_watching()
        if self._records is not None:
            self._records.close()
        if self._before_sigterm is not None:
            signal.signal(signal.SIGTERM, self._before_sigterm)
            self._before_sigterm = None

    def _catch_sigterm(self) -> None:
        """``kill`` (SIGTERM) of the hosting app stops its host as "keep the tables for the next start" does (with
        ``--no-keep``: as "end them"), and the app quits as at ``q``: the terminal given back, the farewell printed.
        (Python's default for SIGTERM ends the process at once: the terminal was left in the app's modes.) Only on
        the main thread, where Python runs signal handlers."""
        if threading.current_thread() is not threading.main_thread():
            return

        def terminated(signum: int, frame: FrameType | None) -> None:
            # Posted from a thread of its own: a message posted from another thread wakes the app's loop.
            threading.Thread(target=self.call_later, args=(self._terminated,), name="sigterm", daemon=True).start()

        try:
            self._before_sigterm = signal.signal(signal.SIGTERM, terminated)
        except (ValueError, OSError):
            self._before_sigterm = None

    def _terminated(self) -> None:
        if self.hosting is None or self.host_stopping:
            return
        if not self.hosting.tables_in_play():
            self.exit()
            return
        self.stop_host("keep" if self.hosting.keeps_tables else "end")

    def on_signed_in(self, message: SignedIn) -> None:
        """Connect as the player asked (on a thread: the host may take a while), then the lobby; a refusal is said
        on the sign-in screen, which stays."""
        message.stop()
        sign_in, screen = self.sign_in, self.screen
        if sign_in is None or self.attached or not isinstance(screen, SignInScreen):
            return

        def waiting(text: str) -> None:
            self.call_from_thread(screen.waiting, text)

        def connect() -> None:
            try:
                conn = sign_in.connect(message.player, message.password, waiting)
            except ParlourError as err:
                said = str(err)
                focus = "password" if sign_in.password and "password" in said.lower() else "name"
                self.call_from_thread(screen.failed, said, focus)
                return
            self.call_from_thread(self._signed_in, conn)

        self.run_worker(connect, thread=True, group="sign-in", exit_on_error=False)

    def _signed_in(self, conn: NetworkSession) -> None:
        if self.attached or not self.is_running:
            conn.close()
            return
        self._use_session(conn)
        self.switch_screen(self.lobby)

    # -- the host's lobby messages ---------------------------------------------------------------------------------
    def _from_host(self, data: dict[str, Any]) -> None:
        """On the connection's thread: hand the message to the app's own (post_message is thread-safe)."""
        if self.host_stopping and data.get("type") in ("lost", "bye"):
            return  # this app stopped its own host: the app ends with what became of the tables
        self.post_message(LobbyMessage(data))

    def on_lobby_message(self, message: LobbyMessage) -> None:
        data = message.data
        kind = data.get("type")
        if kind == "started" and not isinstance(self.screen, TableScreen):
            self.open_table()
        elif kind == "table" and isinstance(data.get("table"), dict):
            self._seat_news(data["table"])
        elif kind == "chat" and isinstance(self.screen, TableScreen):
            self.notify(f"{data.get('name')}: {data.get('text')}", title="Chat", markup=False)
        elif kind == "lost":
            if data.get("final"):
                self.farewell = f"parlour: the connection to the host is gone: {data.get('reason')}"
                self.exit(return_code=1)
                return
            self.notify("The connection to the host dropped: coming back…", severity="warning", markup=False)
        elif kind == "resumed":
            self.notify("Back at the host.", markup=False)
        elif kind == "asking":
            self._asked(data)
        elif kind == "clock" and (table := table_in_stack(self)) is not None:
            table.hear_clock(data)  # (the table watches the session too: this covers a clock heard before it did)
        if self.lobby.is_attached:
            self.lobby.heard(data)

    def _asked(self, data: dict[str, Any]) -> None:
        """Someone gave a name of a player away from a seat in play, without its token: is it them? One key."""
        request, name, seat = data.get("request"), str(data.get("name", "?")), data.get("seat")
        if not isinstance(request, str):
            return
        where = f"seat {seat + 1} at table {data.get('table')}" if isinstance(seat, int) else "their seat"
        question = f"{name} asks to be let back into {where}."
        detail = (
            f"From {data.get('address', 'an unknown address')}, without the seat's token (their client lost it). "
            "Let them in only if it really is them: they will see that seat's cards."
        )

        dialog = ConfirmScreen(question, detail, yes="Let in", no="Refuse")
        over = False  # the host gave up on the request (its timeout passed): no answer is sent any more

        def answered(yes: bool | None) -> None:
            if over:
                return

            def send() -> None:
                try:
                    self.conn.let_in(request, bool(yes))
                except ParlourError as err:
                    self.call_from_thread(self.notify, f"Not answered: {err}", severity="error", markup=False)

            self.run_worker(send, thread=True, group="let-in", exit_on_error=False)

        def gave_up() -> None:
            nonlocal over
            if dialog not in self.screen_stack:
                return  # answered in time
            over = True
            if self.screen is dialog:  # (dismiss takes the top screen off: only when the question is on top)
                dialog.dismiss(None)
            self.notify(f"{name} was not let back in: nobody answered in time.", markup=False)

        timeout = data.get("timeout")
        if isinstance(timeout, int | float) and not isinstance(timeout, bool) and 0 < timeout < 86400:
            self.set_timer(float(timeout), gave_up)
        self.push_screen(dialog, callback=answered)

    def _seat_news(self, summary: dict[str, Any]) -> None:
        """During a game, say when a player drops, is replaced by a bot, or comes back (the lobby shows it too)."""
        seats = {int(s["seat"]): (s.get("name"), str(s.get("status"))) for s in summary.get("seats", [])}
        before, self._statuses = self._statuses, seats
        if summary.get("state") != "playing" or not any(isinstance(s, TableScreen) for s in self.screen_stack):
            return
        for seat, (name, status) in seats.items():
            was = before.get(seat)
            if was is None or was[1] == status:
                continue
            who = name if name is not None else was[0]
            words = {
                "away": f"{who} lost the connection: waiting for them to come back",
                "replaced": f"{who} is away: a bot plays their seat until they return",
                "connected": f"{who} is back",
                "bot": f"{who} left: a bot plays their seat",
            }.get(status)
            if words and who is not None and who != self.conn.welcome.get("name"):
                self.notify(words, markup=False)

    def open_table(self) -> None:
        try:
            screen = screen_class(get_entry(self.conn.info.key))(self.conn)
        except ParlourError as err:
            self.notify(f"Cannot show that table: {err}", severity="error", markup=False)
            return
        self._show(screen)

    def back_to_lobby(self) -> None:
        """Leave the table (a bot takes the seat if the game goes on) and show the lobby."""

        def leave() -> None:
            try:
                self.conn.leave()
            except ParlourError as err:
                self.call_from_thread(self.notify, f"Could not leave the table: {err}", severity="error", markup=False)

        if self.conn.table is not None:
            self.run_worker(leave, thread=True, group="leave", exit_on_error=False)
        self._show(self.lobby)

    def on_main_menu(self, message: MainMenu) -> None:
        message.stop()
        self.back_to_lobby()

    def on_play_again(self, message: PlayAgain) -> None:
        message.stop()
        self.back_to_lobby()

    def _show(self, screen: Screen[Any]) -> None:
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if self.screen is screen:
            return
        if isinstance(self.screen, TableScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "chat" and not self.attached:
            return False  # (no table to talk to before the player has signed in: not offered in the footer)
        if action == "chat" and self.screen is self.lobby:
            return False  # (the lobby's own key, /, says it in the footer: ctrl+t there would say it twice)
        return super().check_action(action, parameters)

    def action_chat(self) -> None:
        """Say something at your table, from any screen (the lobby has its own line for it)."""
        if not self.attached:
            return
        if self.screen is self.lobby:
            self.lobby.action_chat()
            return
        if self.conn.table is None or isinstance(self.screen, ChatScreen):
            return

        def said(text: str | None) -> None:
            if not text:
                return

            def send() -> None:
                try:
                    self.conn.chat(text)
                except ParlourError as err:
                    self.call_from_thread(self.notify, f"Not sent: {err}", severity="error", markup=False)

            self.run_worker(send, thread=True, group="chat", exit_on_error=False)

        self.push_screen(ChatScreen(), callback=said)

    # -- quitting the host's own app ---------------------------------------------------------------------------------
    def action_leave(self, where: Where) -> None:
        """Quit, or go back to the lobby (:class:`Navigation`); quitting may ask first (:meth:`asked_first`)."""
        if where == "quit" and self.asked_first():
            return
        super().action_leave(where)

    async def action_quit(self) -> None:
        """Every way of quitting (the lobby's ``q``, the palette, after a question) comes here."""
        if self.asked_first():
            return
        await super().action_quit()

    def asked_first(self) -> bool:
        """While the host this app runs has tables in play (anybody's), quitting asks what becomes of them
        (:meth:`ask_about_tables`): True when it asks (or, ctrl+q on the question, takes the answer that loses
        nothing); False when quitting may go ahead."""
        if self.hosting is None or self.host_stopping:
            return False
        if isinstance(self.screen, ChoiceScreen):
            self.screen.dismiss("keep" if self.hosting.keeps_tables else "end")
            return True
        in_play = self.hosting.tables_in_play()
        if not in_play:
            return False
        self.ask_about_tables(in_play)
        return True

    def ask_about_tables(self, in_play: list[str]) -> None:
        assert self.hosting is not None
        count = f"{len(in_play)} table is" if len(in_play) == 1 else f"{len(in_play)} tables are"
        question = f"Quit Parlour? {count} in play at your host ({', '.join(in_play)})."
        if self.hosting.keeps_tables:
            server = self.hosting.host.server
            if self._my_seat_in_play():
                yours = (
                    f"; your seat waits {_seconds(server.resume_window)} for you ({self._join_again()} takes you "
                    f"back; a bot plays it after {_seconds(server.takeover_after)}, and a table with nobody else at "
                    "it then ends)"
                )
            else:
                yours = ""
            detail = (
                "Keep serving: the host goes on in the background, and everybody comes back to it by "
                f"themselves{yours}.\n"
                "Keep for the next start: the host stops, everybody is disconnected, and the next parlour host "
                "offers the tables again where they stopped.\n"
                "End them: the tables end for everybody."
            )
            choices = [
                ("background", "Keep serving in the background", "b"),
                ("keep", "Keep the tables for the next start", "k"),
                ("end", "End them", "e"),
                ("stay", "Stay", "s"),
            ]
        else:
            detail = "This host keeps nothing (--no-keep): quitting ends the tables for everybody at them."
            choices = [("end", "End them and quit", "e"), ("stay", "Stay", "s")]

        def answered(answer: str | None) -> None:
            if answer is not None:
                self.stop_host(answer)

        self.push_screen(ChoiceScreen(question, detail, choices), callback=answered)

    def stop_host(self, answer: str) -> None:
        """Stop the host as ``answer`` says (``background``, ``keep`` or ``end``), then quit; the command prints
        :attr:`farewell`. The host stops before this app's own connection is closed: a goodbye from this player
        first would leave its seat to a bot (and a table with nobody else would end)."""
        hosting = self.hosting
        assert hosting is not None
        self.host_stopping = True
        self.notify("Stopping the host…", markup=False)

        def stop() -> None:
            in_play = hosting.tables_in_play()
            one = len(in_play) == 1
            tables = f"the table {in_play[0]}" if one else f"the tables {', '.join(in_play)}"
            kept = f"{'is' if one else 'are'} kept: the next parlour host offers {'it' if one else 'them'} again"
            seated = self._my_seat_in_play()
            hosting.stop(end_tables=answer == "end")
            self.conn.close()  # (it has heard the host's goodbye: nothing is sent)
            if answer == "end":
                self.farewell = f"parlour: {tables} ended."
            elif answer == "keep":
                self.farewell = f"parlour: {tables} {kept}."
            else:
                self.farewell = self._serve_in_background(hosting, tables, one, kept, seated)
            self.call_from_thread(self.exit)

        self.run_worker(stop, thread=True, group="quit", exit_on_error=False)

    def _serve_in_background(self, hosting: HostThread, tables: str, one: bool, kept: str, seated: bool) -> str:
        from engine.lan.lan_host import HostingError, start_background
        from engine.records.paths import host_log_path

        try:
            background = start_background(hosting.host.settings, hosting.host.port, host_log_path())
        except HostingError as err:
            return f"parlour: {err}; {tables} {kept}."
        back = f"; {self._join_again()} takes you back to your seat" if seated else ""
        return (
            f"parlour: {tables} {'goes' if one else 'go'} on in a host in the background (process {background.pid}), "
            f"logging to {background.log}{back}; stop it with: kill {background.pid}"
        )

    def _my_seat_in_play(self) -> bool:
        """Whether this app's player has a seat at a table whose match is in play (not only watching one)."""
        summary = self.conn.table
        me = self.conn.welcome.get("name")
        return (
            summary is not None
            and summary.get("state") == "playing"
            and any(isinstance(s, dict) and s.get("name") == me for s in summary.get("seats", []))
        )

    def _join_again(self) -> str:
        """The command that takes this app's player back to its seat at the host this app runs (its token is kept)."""
        from engine.lan.lan_host import join_address

        assert self.hosting is not None
        name = str(self.conn.welcome.get("name", ""))
        return f"parlour join {join_address('127.0.0.1', self.hosting.host.port)} --name {shlex.quote(name)}"

    def open_settings_dialog(self) -> None:
        """The settings dialog over the current screen (its module, with its form widgets, loaded the first time)."""
        from tui.dialogs.settings import open_settings

        open_settings(self)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from navigation_commands(self, super().get_system_commands(screen))
        if isinstance(screen, TableScreen):
            yield from screen.commands()
            yield SystemCommand("Toggle rules", "Show or hide the rules pane (r)", screen.action_toggle_rules)
            leaving = (
                "Stop watching this table (m)" if screen.watching else "Leave this table (m; a bot takes your seat)"
            )
            yield SystemCommand("Back to the lobby", leaving, lambda: self.action_leave("menu"))
        if not is_settings_screen(screen):
            yield SystemCommand("Settings", "Theme and card faces", self.open_settings_dialog)


def _seconds(value: float) -> str:
    """A wait in words: ``2 minutes``, ``1 minute``, ``45 seconds``."""
    if value >= 60 and value % 60 == 0:
        minutes = int(value // 60)
        return "1 minute" if minutes == 1 else f"{minutes} minutes"
    return f"{value:g} seconds"
