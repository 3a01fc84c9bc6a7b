"""Where ``parlour host`` takes its passwords from: a flag (which other users of the machine can read in ``ps``),
a file (its first line) or an environment variable, in that order.

>>> import os, tempfile
>>> with tempfile.NamedTemporaryFile("w", delete=False) as file:
...     _ = file.write("open sesame\\nnot this line\\n")
>>> password_from(None, file.name, "--ssh-password-file", SSH_PASSWORD_ENV)
'open sesame'
>>> os.unlink(file.name)
>>> password_from("typed", None, "--password-file", HOST_PASSWORD_ENV)
'typed'
"""

from __future__ import annotations

import os
from pathlib import Path

from engine.errors import OptionError

HOST_PASSWORD_ENV = "PARLOUR_HOST_PASSWORD"
"""The LAN password of ``parlour host`` when neither ``--password`` nor ``--password-file`` is given."""

SSH_PASSWORD_ENV = "PARLOUR_SSH_PASSWORD"
"""The SSH password of ``parlour host`` when neither ``--ssh-password`` nor ``--ssh-password-file`` is given."""

SECRET_ENVIRONMENT = (HOST_PASSWORD_ENV, SSH_PASSWORD_ENV)
"""The host's own secrets in its environment: nothing the host starts for a guest inherits them."""

_FILE_LIMIT = 64 * 1024
"""Bytes read from a password file at most (its first line is all that is used)."""


def read_password_file(path: str | Path, flag: str) -> str:
    """The first line of the file at ``path``, its line ending stripped; OptionError (one sentence naming
    ``flag``) when the file cannot be read, is not text, or its first line is empty."""
    try:
        with open(path, "rb") as file:
            data = file.read(_FILE_LIMIT)
    except OSError as error:
        reason = (error.strerror or type(error).__name__).lower()
        raise OptionError(f"{flag}: cannot read {path} ({reason})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise OptionError(f"{flag}: {path} is not UTF-8 text") from None
    first = text.split("\n", 1)[0].removesuffix("\r")
    if not first:
        raise OptionError(f"{flag}: the first line of {path} is empty, and it should hold the password")
    return first


def password_from(given: str | None, file: str | Path | None, flag: str, env: str) -> str | None:
    """The password given on the command line, else the one in ``file`` (read with :func:`read_password_file`),
    else ``$env`` when it is set and not empty, else None."""
    if given is not None:
        return given
    if file is not None:
        return read_password_file(file, flag)
    return os.environ.get(env) or None
