"""A player's resume tokens, kept on disk per host so that ``parlour join`` after a crash is back in the seat at once.

A host's ``welcome`` gives each player a secret token; with it, and only with it, the player takes its seat again
(a name alone never does: :mod:`engine.lan.server`). The client keeps the token of each host it is at in
``data_dir()/tokens/``, one file per host (and, for an SSH guest, per key the guest logged in with:
``PARLOUR_GUEST_KEY``), readable by its user only (mode 0600, in a directory of mode 0700). A file is written each
time the host welcomes the player (a resume may bring a new token) and removed when the player says goodbye, or the
host no longer knows the token.

An SSH guest who logged in with a password has no identity of its own (every such guest runs as the host's user,
with the same data directory): ``PARLOUR_GUEST`` set without a key keeps no token at all.

>>> import os, tempfile
>>> with tempfile.TemporaryDirectory() as where:
...     os.environ["PARLOUR_DATA_DIR"] = where
...     try:
...         keep_token("192.168.1.20", 7777, "Ann", "QIFRFoWSngMqjAU1f_9SmbWt")
...         found = kept_token("192.168.1.20", 7777, "ann"), kept_token("192.168.1.20", 7777, "Bob")
...         mode = oct(token_path("192.168.1.20", 7777).stat().st_mode & 0o777)
...         forget_token("192.168.1.20", 7777)
...         gone = kept_token("192.168.1.20", 7777, "Ann")
...     finally:
...         del os.environ["PARLOUR_DATA_DIR"]
>>> found, mode, gone
(('QIFRFoWSngMqjAU1f_9SmbWt', None), '0o600', None)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

from engine.names import name_key
from engine.records.paths import data_dir, write_atomically

TOKENS_DIR = "tokens"
GUEST_ENV = "PARLOUR_GUEST"
"""Set (to any value) for the ``parlour join`` an SSH guest runs."""
GUEST_KEY_ENV = "PARLOUR_GUEST_KEY"
"""The fingerprint of the key an SSH guest logged in with: that guest's tokens are kept apart from others'."""


def token_path(host: str, port: int) -> Path | None:
    """The file of the token for the host at ``host``:``port`` (None: this client keeps no tokens)."""
    guest_key = os.environ.get(GUEST_KEY_ENV) or ""
    if os.environ.get(GUEST_ENV) and not guest_key:
        return None
    slot = hashlib.sha256(f"{host.lower()}\0{port}\0{guest_key}".encode()).hexdigest()[:32]
    return data_dir() / TOKENS_DIR / f"{slot}.json"


def kept_token(host: str, port: int, name: str) -> str | None:
    """The token kept for ``name`` at that host, or None (none kept, another name's, or an unreadable file)."""
    path = token_path(host, port)
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("token"), str) or not isinstance(data.get("name"), str):
        return None
    return str(data["token"]) if name_key(data["name"]) == name_key(name) else None


def keep_token(host: str, port: int, name: str, token: str) -> str | None:
    """Keep ``token`` for ``name`` at that host; None, or one sentence when it could not be written."""
    path = token_path(host, port)
    if path is None:
        return None
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_atomically(path, json.dumps({"host": host, "port": port, "name": name, "token": token}) + "\n")
        os.chmod(path, 0o600)  # (the temporary file already is: whatever the umask)
    except OSError as err:
        return f"Your seat's token could not be kept in {path.parent} ({err.strerror or err})."
    return None


def forget_token(host: str, port: int) -> None:
    """The token for that host is of no more use (the player said goodbye, or the host refused it)."""
    path = token_path(host, port)
    if path is not None:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)
