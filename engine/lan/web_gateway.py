"""The browser door of ``parlour host --web-port``: textual-serve, wrapped to add what it lacks (a cap on sessions,
a page that says so past it, a bounded end of every session's process, and a start and a close on the host's own
event loop).

textual-serve (Textualize's) serves a Textual app to a web page: its page and its terminal emulator (xterm.js), a
websocket per browser tab, and per websocket one process of a command (run with ``/bin/sh -c``) on pipes, with
Textual's web driver. It has no authentication and no limit, and it runs its web server with ``aiohttp.web.run_app``
on a loop of its own. This module uses its **public** API only, and only textual-serve 1.x (checked by
:func:`engine.lan.web.check_available` before this module is imported; ``pyproject.toml`` pins the same range):

- :class:`textual_serve.server.Server`, subclassed: its ``statics_path`` (the page's script and styles) and
  ``download_manager`` (files an app hands the browser), its ``handle_download``; its ``handle_index`` and
  ``handle_websocket`` are overridden (the documented way to change them), because the page's addresses must be
  the ones the browser used (textual-serve writes one fixed ``public_url`` into the page, which is wrong for a host
  reached at several addresses) and because the cap and the end of a session are decided there;
- :class:`textual_serve.app_service.AppService`: one session's process (``start``, ``send_bytes``,
  ``set_terminal_size``, ``blur``, ``focus``, ``stop``).

The aiohttp application is built here (with the routes textual-serve's page expects) and run with aiohttp's public
``AppRunner`` and ``TCPSite`` on the host's loop. A session whose process does not end within
``WebSettings.stop_grace`` seconds of its tab closing (it is first asked to quit, as textual-serve does) is sent
SIGTERM, then SIGKILL: AppService keeps its process to itself, so each session's command carries a marker in its
environment (:data:`~engine.lan.web.SESSION_ENV`) by which the gateway finds its process among the host's children
(psutil).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import importlib
import logging
import os
import signal
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from engine.lan.web import SESSION_ENV, WebSettings

log = logging.getLogger("parlour.web")

Command = Callable[[str], str]
"""``command(session_id) -> shell command line`` of a session's process; it must set
:data:`~engine.lan.web.SESSION_ENV` to ``session_id`` in the process's environment (``session_command`` does)."""

HEARTBEAT = 15.0
"""Seconds between the websocket's pings: a browser that vanished without closing it is noticed within about twice
that (textual-serve's own value)."""

CLOSE_TIMEOUT = 2.0
"""Seconds a closing websocket waits for the browser's answer (a tab that went away gives none)."""

EXIT_POLL = 0.1
"""Seconds between looks at whether an ended session's process has exited."""

FULL_TEXT = "This Parlour host is full ({limit} players in the browser): try again later."

_PAGE = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>{title}</title>
    <link rel="stylesheet" href="{static}css/xterm.css">
    <script src="{static}js/textual.js"></script>
    <style>
      html, body {{ margin: 0; height: 100%; overflow: hidden; background: #0c181f; color: #f0f0f0; }}
      body {{ font-family: monospace; }}
      /* The page never scrolls: xterm.js keeps its input textarea at the cursor, which after the window shrinks
         can lie below the terminal; clipped here, it cannot make the page taller and scroll the table away. */
      .textual-terminal {{ width: 100vw; height: 100vh; position: relative; overflow: clip; }}
      .closed {{ display: none; position: absolute; inset: 0; align-items: center; justify-content: center; }}
      body.-closed .closed {{ display: flex; background: rgba(12, 24, 31, 0.9); }}
      .closed div {{ padding: 2em; background: #12232d; text-align: center; }}
      button {{ margin-top: 1em; padding: 0.6em 2em; font: inherit; }}
    </style>
  </head>
  <body>
    <div class="closed"><div id="closed-message">Your Parlour session has ended.<br>
      <button type="button" onclick="window.location.reload()">Join again</button></div></div>
    <div id="terminal" class="textual-terminal" data-session-websocket-url="{websocket}" data-font-size="{font_size}">
    </div>
  </body>
</html>
"""

_FULL_PAGE = """<!DOCTYPE html>
<html lang="en">
  <head><meta charset="utf-8"><title>{title}</title></head>
  <body style="background: #0c181f; color: #f0f0f0; font-family: sans-serif; padding: 3em;">
    <h1>{title}</h1>
    <p id="full">{text}</p>
  </body>
</html>
"""


def _font_size(text: str) -> int:
    try:
        return min(max(int(text), 8), 48)
    except ValueError:
        return 16


def _size(text: str, default: int) -> int:
    try:
        return min(max(int(text), 1), 1000)
    except ValueError:
        return default


def _marked(session_id: str) -> list[Any]:
    """The host's child processes whose environment carries ``session_id`` (psutil: the standard library cannot
    read another process's environment)."""
    try:
        psutil: Any = importlib.import_module("psutil")  # (it ships no type hints)
        children = psutil.Process(os.getpid()).children(recursive=True)
    except Exception:
        return []
    found = []
    for child in children:
        with contextlib.suppress(Exception):  # (gone meanwhile, or not ours to read)
            if child.environ().get(SESSION_ENV) == session_id:
                found.append(child)
    return found


def _running(process: Any) -> bool:
    """The process has not exited (a zombie has: the event loop's child watcher reaps it)."""
    try:
        return bool(process.is_running() and process.status() != "zombie")
    except Exception:  # (gone meanwhile)
        return False


class _Session:
    def __init__(self, session_id: str, websocket: web.WebSocketResponse, service: AppService) -> None:
        self.id = session_id
        self.websocket = websocket
        self.service = service
        self.ending: asyncio.Task[None] | None = None
        """Its process being ended (once, whoever asks first: the tab's handler or the gateway's close)."""


class _ParlourServer(Server):
    """textual-serve's Server with Parlour's page, cap and session ends (see the module's docstring)."""

    def __init__(self, gateway: WebGateway) -> None:
        settings = gateway.settings
        super().__init__("parlour join", host=settings.bind or "0.0.0.0", port=settings.port, title=settings.title)
        self.gateway = gateway

    def make_application(self) -> web.Application:
        app = web.Application()
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        return app

    def full_text(self) -> str:
        return FULL_TEXT.format(limit=self.gateway.settings.max_guests)

    async def handle_index(self, request: web.Request) -> web.Response:
        title = html.escape(self.gateway.settings.title)
        if self.gateway.full:
            page = _FULL_PAGE.format(title=title, text=html.escape(self.full_text()))
            return web.Response(text=page, content_type="text/html", status=503)
        host = request.host  # the address the browser used, so that the websocket goes where the page came from
        page = _PAGE.format(
            title=title,
            static="/static/",
            websocket=html.escape(f"{'wss' if request.secure else 'ws'}://{host}/ws", quote=True),
            font_size=_font_size(request.query.get("fontsize", "16")),
        )
        return web.Response(text=page, content_type="text/html")

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        gateway = self.gateway
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc.lower() != request.host.lower():
            # A page of another site driving a session from a visitor's browser (the door has no cookie to steal,
            # but it is reachable only from the LAN, and that page should not reach it through the visitor).
            log.info("a websocket from %s refused: its page is from %s", request.remote, origin[:100])
            raise web.HTTPForbidden(text="Parlour's page only.")
        websocket = web.WebSocketResponse(heartbeat=HEARTBEAT, timeout=CLOSE_TIMEOUT)
        await websocket.prepare(request)
        if gateway.full or gateway.closing:
            words = self.full_text() if not gateway.closing else "This Parlour host is stopping."
            log.info("a browser from %s turned away: %s", request.remote, words)
            with contextlib.suppress(Exception):
                await websocket.send_bytes(f"\r\n  {words}\r\n".encode())
            await websocket.close()
            return websocket
        session_id = uuid.uuid4().hex

        async def close() -> None:  # (what the service calls when its app exits: the tab shows the session ended)
            await websocket.close()

        service = AppService(
            gateway.command(session_id),
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.download_manager,
        )
        session = _Session(session_id, websocket, service)
        gateway.sessions_open[session_id] = session
        log.info("a browser from %s opened a session (%s)", request.remote, session_id[:8])
        try:
            width, height = _size(request.query.get("width", "80"), 80), _size(request.query.get("height", "24"), 24)
            await service.start(width, height)
            await self._pump(websocket, service)
        except Exception as error:  # one browser's failure must not reach the host
            log.warning("the browser session %s failed: %s", session_id[:8], error)
        finally:
            await gateway.end_session(session)
            with contextlib.suppress(Exception):
                await websocket.close()
        return websocket

    async def _pump(self, websocket: web.WebSocketResponse, service: AppService) -> None:
        """The browser's messages to the session's process, as textual-serve's own handler passes them on."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = message.json()
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            except (ValueError, TypeError, IndexError, KeyError):
                continue  # a browser's nonsense is dropped
            if kind == "stdin" and isinstance(data, str):
                await service.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                width, height = data.get("width"), data.get("height")
                if isinstance(width, int) and isinstance(height, int) and 0 < width <= 1000 and 0 < height <= 1000:
                    await service.set_terminal_size(width, height)
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()


class WebGateway:
    """The browser door: ``start`` listens on ``settings.bind``:``settings.port``; ``close`` ends every session
    (each process asked to quit, then terminated, then killed), closes the listener, and leaves no task behind."""

    def __init__(self, settings: WebSettings, command: Command) -> None:
        if settings.max_guests < 1:
            raise ValueError(f"the browser setting max_guests is at least 1, not {settings.max_guests}")
        self.settings = settings
        self.command = command
        self.sessions_open: dict[str, _Session] = {}
        self.closing = False
        self._server = _ParlourServer(self)
        self._runner: web.AppRunner | None = None
        self._port = 0

    @property
    def full(self) -> bool:
        return len(self.sessions_open) >= self.settings.max_guests

    @property
    def sessions(self) -> int:
        """Browser sessions open now (each with its process, or about to have one)."""
        return len(self.sessions_open)

    @property
    def port(self) -> int:
        """The port listened on (0 before ``start``)."""
        return self._port

    async def start(self) -> int:
        """Listen; the bound port (useful with port 0). OSError when the port cannot be bound."""
        if self._runner is not None:
            return self._port
        self.closing = False
        runner = web.AppRunner(
            self._server.make_application(), handle_signals=False, access_log=None, shutdown_timeout=CLOSE_TIMEOUT
        )
        await runner.setup()
        site = web.TCPSite(runner, host=self.settings.bind or None, port=self.settings.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self._port = int(runner.addresses[0][1]) if runner.addresses else self.settings.port
        log.info("serving browsers on port %d", self._port)
        return self._port

    async def end_session(self, session: _Session) -> None:
        """End a session's process: asked to quit (textual-serve's ``stop``), then SIGTERM, then SIGKILL, each after
        ``stop_grace`` seconds; the session is forgotten once its process is gone. Done once, on a task of its own
        that a cancelled caller (the tab's handler, as the server shuts down) does not cancel."""
        if session.ending is None:
            session.ending = asyncio.get_running_loop().create_task(self._end(session))
        await asyncio.shield(session.ending)

    async def _end(self, session: _Session) -> None:
        stopping = asyncio.ensure_future(session.service.stop())
        try:
            for signum in (None, signal.SIGTERM, signal.SIGKILL):
                if signum is not None:
                    for process in _marked(session.id):
                        log.info("the process of browser session %s lingers: %s", session.id[:8], signum.name)
                        with contextlib.suppress(Exception):
                            process.send_signal(signum)
                if await self._gone(session, stopping):
                    break
        finally:
            if not stopping.done():
                stopping.cancel()
            with contextlib.suppress(BaseException):
                await stopping
            self.sessions_open.pop(session.id, None)
            log.info("browser session %s ended", session.id[:8])

    async def _gone(self, session: _Session, stopping: asyncio.Future[None]) -> bool:
        """Whether, within ``stop_grace`` seconds, the service has stopped and the session's process has exited
        (its output closing is not enough: a process may close it and go on for a while)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.stop_grace
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(stopping), self.settings.stop_grace)
        while True:
            alive = [process for process in _marked(session.id) if _running(process)]
            if stopping.done() and not alive:
                return True
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(EXIT_POLL)

    async def close(self) -> None:
        """Every session's process ended first (a handler cancelled by the server's shutdown could not end its
        own), then their websockets and the listener closed."""
        self.closing = True
        sessions = list(self.sessions_open.values())
        await asyncio.gather(*(self.end_session(session) for session in sessions), return_exceptions=True)
        for session in sessions:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(session.websocket.close(), CLOSE_TIMEOUT)
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
