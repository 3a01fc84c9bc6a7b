"""A small error hierarchy. Every rejected action raises one of these and leaves the state exactly as it was.

Each error has a short ``code`` for the wire (``parlour``'s protocol answers a rejection with it), and
:func:`error_for` turns a code and a message back into the same class on the other side.

>>> error_for("not_your_turn", "wait").__class__.__name__
'NotYourTurnError'
>>> len(echo("x" * 5000)) <= ECHO_LIMIT + 2
True
"""

from __future__ import annotations

ECHO_LIMIT = 200
"""At most this many characters of what someone sent are repeated in an error message."""


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """``value`` as an error message may quote it: its ``repr``, cut to ``limit`` characters."""
    try:
        text = repr(value)
    except Exception:  # a garbage object whose repr itself fails
        text = f"<{type(value).__name__}>"
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


class ParlourError(Exception):
    """Base of every error the engine raises on purpose; its message is meant for a player.

    ``code`` is the kind's (a class attribute) unless an error is given its own (a protocol refusal carries the code
    it was sent with)."""

    code: str = "error"


class InvalidActionError(ParlourError):
    """The text or object of an action, a card or an option could not be read."""

    code = "invalid"


class IllegalActionError(ParlourError):
    """A well-formed action that the rules do not allow now."""

    code = "illegal"


class NotYourTurnError(IllegalActionError):
    """An action from a seat that is not the one to move."""

    code = "not_your_turn"


class GameOverError(IllegalActionError):
    """An action after the match has ended."""

    code = "game_over"


class SeatError(ParlourError):
    """A seat number that is not a seat at this table."""

    code = "bad_seat"


class UnknownGameError(ParlourError):
    """No game is registered under that name."""

    code = "unknown_game"


class OptionError(ParlourError):
    """A bad number of players, preset, variant, seed or other table setting."""

    code = "bad_option"


class CodecError(ParlourError):
    """Data that does not decode into a view, event, action or options object."""

    code = "bad_data"


ERRORS: tuple[type[ParlourError], ...] = (
    ParlourError,
    InvalidActionError,
    IllegalActionError,
    NotYourTurnError,
    GameOverError,
    SeatError,
    UnknownGameError,
    OptionError,
    CodecError,
)
_BY_CODE = {cls.code: cls for cls in ERRORS}


def error_for(code: str, message: str) -> ParlourError:
    """The error a code names (a plain :class:`ParlourError` for a code this version does not know)."""
    return _BY_CODE.get(code, ParlourError)(message)
