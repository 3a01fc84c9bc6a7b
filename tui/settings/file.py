"""Your settings, kept between runs in a small TOML file.

What is kept: your name, the theme, how cards are written (suit symbols or plain letters, two colours or four),
whether the terminal's bell rings at your turn (off by default), the pace of the computer players and of a chain
of placements, and for each game the opponents' level and the number of players the menu starts from. The file
lives in the user config directory (``platformdirs.user_config_dir("parlour")``, or ``$PARLOUR_CONFIG_DIR`` when
set: the tests point it at a temporary directory) and reads like this::

    name = "Ann"
    theme = "nord"
    faces = "letters"
    four_colour = true
    bell = true
    bot_pace = 0.6
    chain_pace = 0.35

    [games.big2]
    difficulty = "hard"
    players = 4

A file that cannot be used (not text, not TOML, a value of the wrong type or out of range, an unknown theme, larger
than :data:`MAX_BYTES`, or not a regular file at all: a FIFO, a directory or a device in its place, never opened to
be read, so never waited on) is never deleted and never half-used: :func:`load` moves it aside to
``settings.toml.bad`` (``.bad-2``, ... so an older one is never overwritten), returns the defaults, and says what
was wrong in one sentence for the app to show.
A file that is missing is simply the defaults. Keys this version does not know are ignored but kept: they are
written back on the next save, so a newer Parlour's settings survive a run of an older one.

Saving is atomic (a temporary file in the same directory, flushed to disk, then renamed over the old one): a crash
or a full disk mid-save leaves the old file whole.

>>> settings = Settings(name="Ann", four_colour=True)
>>> loads(dumps(settings)) == settings
True
"""

from __future__ import annotations

import copy
import datetime
import math
import os
import re
import unicodedata
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import platformdirs
from textual.theme import BUILTIN_THEMES

from engine.errors import ParlourError, echo
from engine.names import NAME_LIMIT, name_problem
from engine.records.paths import (
    TooLargeError,
    UnreadableError,
    move_aside,
    one_line,
    read_regular,
    write_atomically,
)
from engine.registry import entries, listing

__all__ = [
    "FACES",
    "MAX_PACE",
    "NAME_LIMIT",
    "GameDefaults",
    "Settings",
    "SettingsError",
    "config_dir",
    "dumps",
    "load",
    "loads",
    "name_problem",
    "save",
    "settings_path",
    "store",
]

CONFIG_ENV = "PARLOUR_CONFIG_DIR"
"""Set to a directory to keep the settings there instead of the user config directory (the tests do)."""
FILE_NAME = "settings.toml"
MAX_PACE = 5.0
"""The slowest pace accepted, in seconds: beyond it a table looks stuck."""
MAX_BYTES = 256 * 1024
"""A settings file is a few hundred bytes; one larger than this is not read (it is set aside)."""
FACES = ("symbols", "letters")
Faces = Literal["symbols", "letters"]
DEFAULT_THEME = "textual-dark"
BOT_PACE = 0.6
"""Seconds a computer player's move stays on screen before the next, by default."""
CHAIN_PACE = 0.35
"""Seconds each step of a chain of placements (Trash) stays on screen, by default."""


class SettingsError(ParlourError, ValueError):
    """A settings file (or a value in it) that cannot be used; the message says what, as part of a sentence."""

    code = "bad_settings"


@dataclass(frozen=True)
class GameDefaults:
    """What the menu starts from for one game."""

    difficulty: str = "medium"
    players: int = 4


def default_games() -> dict[str, GameDefaults]:
    """Every game of the registry at its own defaults (its default number of players, medium opponents)."""
    games: dict[str, GameDefaults] = {}
    for entry in entries():  # read from the registry's listings: no game is loaded for this
        known = listing(entry)
        levels = known.levels
        level = "medium" if "medium" in levels else levels[0]
        games[entry.key] = GameDefaults(difficulty=level, players=known.players[1])
    return games


@dataclass(frozen=True)
class Settings:
    name: str = "You"
    """Your name at the table (at most :data:`NAME_LIMIT` characters, no control characters)."""
    theme: str = DEFAULT_THEME
    """A Textual theme's name."""
    faces: Faces = "symbols"
    """``symbols`` (``10♥``) or ``letters`` (``10H``, for terminals without the suit symbols)."""
    four_colour: bool = False
    """Diamonds and clubs in colours of their own, for players who tell red from black poorly."""
    bell: bool = False
    """The terminal's bell when your turn comes after a wait, and when a LAN table's clock has 10 s left for you."""
    bot_pace: float = BOT_PACE
    """Seconds a computer player's move stays on screen before the next (0 to :data:`MAX_PACE`)."""
    chain_pace: float = CHAIN_PACE
    """Seconds each step of a chain of placements stays on screen (0 to :data:`MAX_PACE`)."""
    games: Mapping[str, GameDefaults] = field(default_factory=default_games)
    """Per game key: the difficulty and number of players the menu starts from (the last chosen there)."""
    last_game: str | None = None
    """The key of the game last started from the menu: the menu opens on it (None: the first game)."""
    unknown: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The whole file as read: the keys this version does not know are written back from it."""

    def game(self, key: str) -> GameDefaults:
        """The defaults for ``key`` (the game's own when the settings have none)."""
        found = self.games.get(key)
        return found if found is not None else default_games().get(key, GameDefaults())

    def with_game(self, key: str, defaults: GameDefaults) -> Settings:
        return replace(self, games={**self.games, key: defaults})


# -- where -------------------------------------------------------------------------------------------------------
def config_dir() -> Path:
    """``$PARLOUR_CONFIG_DIR`` if set, else the user config directory for Parlour."""
    chosen = os.environ.get(CONFIG_ENV)
    return Path(chosen) if chosen else Path(platformdirs.user_config_dir("parlour"))


def settings_path() -> Path:
    return config_dir() / FILE_NAME


# -- checking ----------------------------------------------------------------------------------------------------
def _pace(data: Mapping[str, Any], key: str, default: float) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_PACE:
        raise SettingsError(f"{key} should be a number of seconds from 0 to {MAX_PACE:g}, not {echo(value, 40)}")
    return float(value)


def _games(data: object) -> dict[str, GameDefaults]:
    games = default_games()
    if data is None:
        return games
    if not isinstance(data, dict):
        raise SettingsError(f"games should be a table of games, not {echo(data, 40)}")
    for key, table in data.items():
        if key not in games:
            continue  # a game this version does not have: kept in the file, not used
        if not isinstance(table, dict):
            raise SettingsError(f"games.{key} should be a table, not {echo(table, 40)}")
        known = listing(key)
        fewest, _usual, most = known.players
        default = games[key]
        level = table.get("difficulty", default.difficulty)
        levels = known.levels
        if level not in levels:
            raise SettingsError(f"games.{key}.difficulty should be one of {', '.join(levels)}, not {echo(level, 40)}")
        players = table.get("players", default.players)
        if isinstance(players, bool) or not isinstance(players, int):
            raise SettingsError(f"games.{key}.players should be a whole number, not {echo(players, 40)}")
        if not fewest <= players <= most:
            raise SettingsError(f"games.{key}.players should be from {fewest} to {most}, not {players}")
        games[key] = GameDefaults(difficulty=level, players=players)
    return games


def _last_game(value: object) -> str | None:
    """A game key this version has, or None (a game it has not, or no text: the menu opens on the first)."""
    keys = {entry.key for entry in entries()}
    return value if isinstance(value, str) and value in keys else None


def from_data(data: Mapping[str, Any], themes: Collection[str] = BUILTIN_THEMES) -> Settings:
    """Settings from a parsed TOML document; SettingsError naming the first value that cannot be used."""
    name = data.get("name", "You")
    if not isinstance(name, str):
        raise SettingsError(f"name should be text, not {echo(name, 40)}")
    problem = name_problem(name)
    if problem is not None:
        raise SettingsError(f"name is not usable: {problem}")
    theme = data.get("theme", DEFAULT_THEME)
    if not isinstance(theme, str) or theme not in themes:
        raise SettingsError(f"theme {echo(theme, 40)} is not one of the themes this version has")
    faces = data.get("faces", "symbols")
    if faces not in FACES:
        raise SettingsError(f"faces should be {' or '.join(map(repr, FACES))}, not {echo(faces, 40)}")
    four_colour = data.get("four_colour", False)
    if not isinstance(four_colour, bool):
        raise SettingsError(f"four_colour should be true or false, not {echo(four_colour, 40)}")
    bell = data.get("bell", False)
    if not isinstance(bell, bool):
        raise SettingsError(f"bell should be true or false, not {echo(bell, 40)}")
    return Settings(
        name=name.strip(),
        theme=theme,
        faces=faces,
        four_colour=four_colour,
        bell=bell,
        bot_pace=_pace(data, "bot_pace", BOT_PACE),
        chain_pace=_pace(data, "chain_pace", CHAIN_PACE),
        games=_games(data.get("games")),
        last_game=_last_game(data.get("last_game")),
        unknown=copy.deepcopy(dict(data)),
    )


def loads(text: str, themes: Collection[str] = BUILTIN_THEMES) -> Settings:
    """Settings from TOML text; SettingsError if it is not TOML or holds a value that cannot be used."""
    import tomllib  # here: without a settings file (the first start, a test) the app never needs it

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise SettingsError(f"it is not valid TOML: {err}") from None
    return from_data(data, themes)


# -- reading -----------------------------------------------------------------------------------------------------
def load(path: Path | None = None, themes: Collection[str] = BUILTIN_THEMES) -> tuple[Settings, str | None]:
    """The settings in ``path`` (default :func:`settings_path`), and a problem to tell the player or None.

    A missing file gives the defaults and no problem. A file that cannot be used gives the defaults and one
    sentence saying what was wrong and where the file went: it is moved aside, never deleted.
    """
    path = settings_path() if path is None else path
    try:
        raw = read_regular(path, MAX_BYTES)
    except FileNotFoundError:
        return Settings(), None
    except TooLargeError:
        return Settings(), _set_aside(path, f"it is larger than {MAX_BYTES // 1024} KB, far more than settings take")
    except UnreadableError as err:  # a FIFO, a directory, a device: never opened to be read, so never waited on
        return Settings(), _set_aside(path, str(err))
    except OSError as err:
        return Settings(), _set_aside(path, f"it could not be read: {err.strerror or err}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return Settings(), _set_aside(path, "it is not UTF-8 text")
    try:
        return loads(text, themes), None
    except SettingsError as err:
        return Settings(), _set_aside(path, str(err))


def _set_aside(path: Path, reason: str) -> str:
    """Move the file that cannot be used out of the way; the one sentence that tells the player."""
    reason = one_line(reason)
    try:
        aside = move_aside(path)
    except OSError as err:
        return (
            f"The settings file {path} could not be used ({reason}) nor moved aside ({err.strerror or err}), "
            "so the defaults are used for now."
        )
    return (
        f"The settings file {path} could not be used ({reason}), so it was moved to {aside.name} "
        "and the defaults are used."
    )


# -- writing -----------------------------------------------------------------------------------------------------
def to_data(settings: Settings) -> dict[str, Any]:
    """The settings as a TOML document: the known keys over whatever else the file held."""
    data: dict[str, Any] = copy.deepcopy(dict(settings.unknown))
    data.update(
        name=settings.name,
        theme=settings.theme,
        faces=settings.faces,
        four_colour=settings.four_colour,
        bell=settings.bell,
        bot_pace=settings.bot_pace,
        chain_pace=settings.chain_pace,
    )
    if settings.last_game is not None:
        data["last_game"] = settings.last_game
    games = data.get("games")
    games = dict(games) if isinstance(games, dict) else {}
    for key, defaults in settings.games.items():
        table = games.get(key)
        table = dict(table) if isinstance(table, dict) else {}
        table.update(difficulty=defaults.difficulty, players=defaults.players)
        games[key] = table
    data["games"] = games
    return data


HEADER = (
    "# Parlour's settings, written by its settings screen (s at the main menu).\n"
    "# A file that cannot be read is moved aside (settings.toml.bad) and the defaults are used.\n"
)


def dumps(settings: Settings) -> str:
    """The settings as TOML text (what :func:`save` writes)."""
    return HEADER + "\n" + _table_text(to_data(settings), ())


def save(settings: Settings, path: Path | None = None) -> None:
    """Write the settings to ``path`` (default :func:`settings_path`) atomically; OSError if that fails.

    The text goes to a temporary file in the same directory, is flushed to disk, and then replaces the old file in
    one step: a crash or a full disk mid-save leaves the old file whole, never a half-written one.
    """
    write_atomically(settings_path() if path is None else path, dumps(settings))


def store(settings: Settings, path: Path | None = None) -> str | None:
    """:func:`save`, with a failure as one sentence to tell the player (None when the file was written)."""
    path = settings_path() if path is None else path
    try:
        save(settings, path)
    except OSError as err:
        return f"Your settings could not be saved to {path} ({one_line(err.strerror or str(err))})."
    return None


_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _string(key)


def _string(text: str) -> str:
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif unicodedata.category(char) == "Cc":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _value(value: Any) -> str:
    """One TOML value, written inline (a table inside an array becomes an inline table)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, datetime.date | datetime.time):  # datetime is a date
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"not a TOML value: {type(value).__name__}")


def _table_text(table: Mapping[str, Any], path: tuple[str, ...]) -> str:
    """A table's keys and values, then each of its sub-tables under its own ``[a.b]`` header."""
    lines = [f"{_key(key)} = {_value(value)}" for key, value in table.items() if not isinstance(value, dict)]
    text = "".join(line + "\n" for line in lines)
    for key, value in table.items():
        if isinstance(value, dict):
            sub = (*path, key)
            scalars = any(not isinstance(v, dict) for v in value.values())
            if text:
                text += "\n"
            if scalars or not value:
                text += "[" + ".".join(_key(part) for part in sub) + "]\n"
            text += _table_text(value, sub)
    return text
