"""Play in the browser: ``parlour host --web-port 8080`` lets a guest with nothing but a web browser sit at the
host's tables from ``http://HOST:8080/``.

This module holds what the host needs to know about the browser door without the optional dependency that serves it
(``pip install 'parlour[web]'``: textual-serve and its web server): the settings, the command line each browser
session runs, and the one sentence said when the dependency is missing. The door itself, a wrapper of textual-serve,
is :mod:`engine.lan.web_gateway`.

Each browser session is the shape of an SSH guest's (:mod:`engine.lan.ssh`): one ``parlour join`` process of its own
(the command the UI names, ``HostSettings.guest_command``), to this host, run by textual-serve on a pipe with
Textual's web driver instead of a pty. A browser has no user name and no password prompt of its own, so the
session's app asks for both before the lobby opens (:data:`ASK_ENV`): the password the host's LAN guests give, sent
to the host by the app as any ``parlour join`` sends it, so nothing of the host's is shown before it is right.
"""

from __future__ import annotations

import importlib.metadata
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.errors import ParlourError
from engine.lan.secrets_input import SECRET_ENVIRONMENT
from engine.lan.tokens import GUEST_ENV, GUEST_KEY_ENV
from engine.records.paths import DATA_ENV, data_dir

ASK_ENV = "PARLOUR_ASK"
"""Set for the ``parlour join`` of a browser session: ``name`` (the app asks the player's name before it connects)
or ``name,password`` (and the host's password too)."""

SESSION_ENV = "PARLOUR_WEB_SESSION"
"""The marker of one browser session's process (a random id), by which the gateway finds it to end it."""

PASSWORD_ENV = "PARLOUR_PASSWORD"
"""What ``parlour join`` reads a password from: never inherited by a browser session (its player types it)."""

WEB_GUEST = "web"
"""``PARLOUR_GUEST`` of a browser session: a guest with no identity of its own, who keeps no token."""

MISSING = "Play in the browser (--web-port) needs textual-serve: install it with pip install 'parlour[web]'."
"""Said instead of a traceback when ``--web-port`` is given and the optional dependency is not installed."""

SERVE_MAJOR = 1
"""The major release of textual-serve the gateway was written for: its public ``Server`` and ``AppService``."""

_NOT_INHERITED = (
    *SECRET_ENVIRONMENT,
    PASSWORD_ENV,
    GUEST_KEY_ENV,
    "SSH_AUTH_SOCK",
    "SSH_AGENT_PID",
    "DISPLAY",
    "XAUTHORITY",
)
"""The host's variables a browser session's process never sees: its secrets, its agent and its display."""


class WebUnavailable(ParlourError):
    """The browser door cannot be opened here (the optional dependency is missing, or of another major release)."""


def check_available() -> None:
    """WebUnavailable (with one sentence) unless textual-serve of the major release the gateway knows is installed.
    Asked before anything is imported from it."""
    try:
        found = importlib.metadata.version("textual-serve")
    except importlib.metadata.PackageNotFoundError:
        raise WebUnavailable(MISSING) from None
    major = found.partition(".")[0]
    if major != str(SERVE_MAJOR):
        raise WebUnavailable(
            f"Play in the browser needs textual-serve {SERVE_MAJOR}.x, not {found}: "
            "install it with pip install 'parlour[web]'."
        )


@dataclass(frozen=True)
class WebSettings:
    """How the browser door listens and how many it lets in."""

    bind: str = "127.0.0.1"
    """The address to listen on ("": every address of this machine, as the LAN server's own default)."""
    port: int = 8080
    max_guests: int = 32
    """Browser sessions at once; past it a browser is shown a page saying the host is full, and no process starts."""
    title: str = "Parlour"
    """The page's title."""
    stop_grace: float = 3.0
    """Seconds a session's process has to end after its tab closed (it is asked to quit) before it is terminated,
    and again before it is killed."""


def local_address(bind: str) -> str:
    """Where a process on this machine reaches a server bound to ``bind``: loopback for every-address binds, else the
    bound address itself.

    >>> local_address(""), local_address("0.0.0.0"), local_address("::"), local_address("192.168.1.5")
    ('127.0.0.1', '127.0.0.1', '::1', '192.168.1.5')
    """
    if bind in ("", "0.0.0.0"):
        return "127.0.0.1"
    if bind == "::":
        return "::1"
    return bind


def guest_dir() -> Path:
    """The data directory browser guests share (``guests/web`` under the host's)."""
    return data_dir() / "guests" / WEB_GUEST


def session_log() -> Path:
    """Where the browser sessions' processes write their standard error (textual-serve would copy it to the host's
    standard output, which is the host's own screen when it sits in its lobby)."""
    return guest_dir() / "sessions.log"


def session_command(program: Sequence[str], host: str, port: int, password_needed: bool, session_id: str) -> str:
    """The shell command line (textual-serve runs each with ``/bin/sh -c``) of one browser session: ``program``
    (the UI's ``parlour join``) to the host at ``host``:``port``, marked ``session_id`` (:data:`SESSION_ENV`),
    asking the player's name (and, when ``password_needed``, the host's password) in the app; without the host's
    secrets in its environment, with the data directory that browser guests share (:func:`guest_dir`), its
    standard error appended to :func:`session_log`.

    >>> command = session_command(["/usr/bin/python3", "-m", "tui", "join"], "127.0.0.1", 7777, True, "c0ffee")
    >>> command.startswith("exec env -u PARLOUR_HOST_PASSWORD "), " -m tui join 127.0.0.1:7777 2>>" in command
    (True, True)
    >>> "PARLOUR_ASK=name,password" in command, "PARLOUR_GUEST=web" in command, "PARLOUR_WEB_SESSION=c0ffee" in command
    (True, True, True)
    """
    if not program:
        raise ValueError("a browser session needs a command: what it runs (the UI's parlour join)")
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    words = ["env"]
    for name in _NOT_INHERITED:
        words += ["-u", name]
    words.append(f"{GUEST_ENV}={WEB_GUEST}")
    words.append(f"{DATA_ENV}={guest_dir()}")
    words.append(f"{SESSION_ENV}={session_id}")
    words.append(f"{ASK_ENV}={'name,password' if password_needed else 'name'}")
    words += [*program, where]
    return f"exec {shlex.join(words)} 2>>{shlex.quote(str(session_log()))}"


def web_address(address: str, port: int) -> str:
    """The page's address for a browser, an IPv6 address in brackets.

    >>> web_address("192.168.1.5", 8080), web_address("fd00::2", 8080)
    ('http://192.168.1.5:8080/', 'http://[fd00::2]:8080/')
    """
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/"
