"""The ``parlour`` command. Bad arguments print a usage message and exit with status 2; no traceback ever.

Everything it knows about games comes from the registry (:mod:`engine.registry`): their keys, aliases, presets,
variants, computer players and ``simulate`` figures. Nothing here matches on a game's key.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from engine import __version__
from engine.errors import OptionError, ParlourError, echo
from engine.names import NAME_LIMIT, is_control, name_problem, printable
from engine.registry import ENTRIES, check_level, difficulties, entries, games, get_entry, listings
from engine.table import MAX_SEED, check_seed

if TYPE_CHECKING:
    from textual.app import App

    from engine.lan.lan_host import HostThread
    from engine.lan.remote_session import NetworkSession

_KEYS = [entry.key for entry in ENTRIES]
GAMES_HELP = f"{' or '.join(filter(None, [', '.join(_KEYS[:-1]), _KEYS[-1]]))} (listed below, with their aliases)"
"""The longest player name, in characters."""
NEEDS_TERMINAL = "parlour: the game needs a terminal"


@cache
def _help_width() -> int:
    """The width argparse's formatters take (the terminal's columns less 2), asked of the terminal once."""
    return shutil.get_terminal_size().columns - 2


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter, at the terminal's width asked once (:func:`_help_width`)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, _help_width() if width is None else width)


class _RawFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter that keeps descriptions as written, at the terminal's width asked once."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, _help_width() if width is None else width)


class _Parser(argparse.ArgumentParser):
    """argparse, but every error ends in a usage message and status 2 (argparse's own convention), and an epilog
    may be a function: it is called when the help is shown (the games' lists walk the whole registry; opening the
    app does not need them). Its formatters take the terminal's width asked once: argparse makes one for every
    argument added (to check it), and each asked the terminal again."""

    def __init__(self, *args: Any, formatter_class: type[argparse.HelpFormatter] | None = None, **kwargs: Any) -> None:
        kwargs["formatter_class"] = (
            _RawFormatter if formatter_class is argparse.RawDescriptionHelpFormatter else _Formatter
        )
        super().__init__(*args, **kwargs)
        self.commands: dict[str, argparse.ArgumentParser] = {}
        """Each command's own parser, by its name (for its usage under an error found after parsing)."""

    def format_help(self) -> str:
        if callable(self.epilog):
            self.epilog = self.epilog()
        return super().format_help()

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


# -- argument types: a bad value is refused by argparse with its message and status 2 ------------------------------
def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None


def at_least_one(text: str) -> int:
    """A count (players, games, deals): a whole number from 1."""
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1, not {value}")
    return value


def seed_number(text: str) -> int:
    """A seed: a whole number from 0 to MAX_SEED (a negative seed would deal what its positive twin deals). A
    refusal quotes the text as typed (``-007``, ``1_000``: not the number it was read as)."""
    refusal = f"a seed is a whole number from 0 to {MAX_SEED}, not {text[:40]!r}"
    digits = text.strip().removeprefix("-").removeprefix("+").replace("_", "")
    if digits.isascii() and digits.isdigit() and len(digits.lstrip("0")) > len(str(MAX_SEED)):
        raise argparse.ArgumentTypeError(refusal)  # (int() refuses the longest numbers as if they were none)
    try:
        return check_seed(_whole_number(text))
    except OptionError:
        raise argparse.ArgumentTypeError(refusal) from None


def player_name(text: str) -> str:
    """A name shown at the table: plain text of 1 to NAME_LIMIT characters, no control characters.

    Characters that mean something to Textual's markup (``[b]``) are allowed: the UI shows names as plain text.
    """
    problem = name_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text.strip()


def _variants(values: Sequence[str] | None) -> tuple[str, ...]:
    out: list[str] = []
    for value in values or ():
        out.extend(v for v in value.split(",") if v)
    return tuple(out)


# -- help texts from the registry ----------------------------------------------------------------------------------
def _levels() -> list[str]:
    """Every computer player level of any game, weakest first (from the registry's listings: no game is loaded)."""
    levels: list[str] = []
    for entry in listings():
        levels.extend(level for level, _bot in entry.bots if level not in levels)
    return levels


HELP_WIDTH = 79
"""The widest line of the help texts written here: they read without wrapping in a terminal of 80 columns."""


def _hanging(head: str, text: str, indent: int) -> list[str]:
    """``head`` then ``text`` wrapped to HELP_WIDTH, its further lines indented by ``indent`` spaces."""
    wrap = textwrap.TextWrapper(width=HELP_WIDTH, initial_indent=head, subsequent_indent=" " * indent)
    return wrap.wrap(text)


def _paragraph(text: str) -> str:
    """A description for a parser whose formatter keeps line breaks as written: wrapped here, to HELP_WIDTH."""
    return textwrap.fill(text, HELP_WIDTH)


def games_epilog(levels: bool = True) -> str:
    """What the help of ``play``, ``rules`` and ``simulate`` lists under the options: every game key, the presets of
    its game with the house rules (variant keys) each preset can take, and (with ``levels``) the computer players.

    Built from the registry, so a new game, preset or variant shows here with no change to this file. Games that
    share one set of rules (Screw Your Neighbor and Chase the Ace) are listed together, each preset once.
    """
    lines = _hanging(
        "",
        "Games (GAME), their presets (--preset P) and the house rules each preset can take (--variant V; "
        "repeat it or separate keys with commas):",
        0,
    )
    for game in games():
        entries_of_game = [entry for entry in entries() if entry.game is game]
        key_width = max(len(entry.key) for entry in entries_of_game)
        lines.append("")
        for entry in entries_of_game:
            also = f" (also {', '.join(entry.aliases)})" if entry.aliases else ""
            lines.extend(_hanging(f"  {entry.key:<{key_width}}  ", f"{entry.title}{also}", key_width + 4))
        plays = {entry.key: game.preset_key(game.options(entry.preset)) for entry in entries_of_game}
        for preset in game.presets:
            keys = [key for key, chosen in plays.items() if chosen == preset.key]
            note = f" (the default of {' and '.join(keys)})" if len(game.presets) > 1 and keys else ""
            lines.extend(_hanging("    ", f"--preset {preset.key}{note}: {preset.description}", 8))
            variants = game.useful_variants(preset.key)
            if not variants:
                lines.append("      no house rules to choose")
            variant_width = max((len(variant.key) for variant in variants), default=0)
            for variant in variants:
                head = f"      {variant.key:<{variant_width}}  "
                lines.extend(_hanging(head, variant.description, len(head)))
        if levels:
            lines.append(f"    computer players: {', '.join(difficulties(game))}")
    return "\n".join(lines)


def commands_epilog() -> str:
    """What ``parlour --help`` lists under the commands: the games, and where their house rules are listed."""
    games = ", ".join(f"{entry.key} ({entry.title})" for entry in entries())
    lines = _hanging("games: ", games, 2)
    lines.extend(_hanging("", "`parlour play --help` (or rules, simulate) lists their presets and house rules.", 0))
    return "\n".join(lines)


def build_parser(command: str | None = None) -> _Parser:
    """The command line's parser. With ``command`` (the command a command line names), only that command's options
    are added: the others are listed with their one-line help, which is all a command line naming another one needs
    (their options took a few milliseconds of every start)."""

    def wanted(name: str) -> bool:
        return command is None or command == name  # "" wants none

    parser = _Parser(
        prog="parlour",
        description="Card games in the terminal. With no command, opens the main menu.",
        epilog=commands_epilog,  # called by _Parser.format_help
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"parlour {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    levels = _levels()
    preset_help = "the preset (listed below); the game key already implies one"
    variant_help = "a house rule of the preset (listed below); repeat it or separate keys with commas"

    play = sub.add_parser(
        "play",
        help="play a game against computer opponents",
        description=_paragraph("Play a game against computer opponents, in the full-screen app."),
        epilog=games_epilog,  # type: ignore[arg-type]
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if wanted("play"):
        play.add_argument("game", metavar="GAME", help=f"the game: {GAMES_HELP}")
        play.add_argument(
            "--players",
            type=at_least_one,
            help="number of players, you included (default: your settings, else the game's)",
        )
        play.add_argument(
            "--seed",
            type=seed_number,
            help=f"seed for the deal, a whole number from 0 to {MAX_SEED} (same seed, same cards)",
        )
        play.add_argument("--preset", metavar="P", help=preset_help)
        play.add_argument("--variant", action="append", metavar="V", help=variant_help)
        play.add_argument(
            "--difficulty", choices=levels, help="the computer players' level (default: your settings', else medium)"
        )
        play.add_argument(
            "--name", default="You", type=player_name, help=f"your name at the table (at most {NAME_LIMIT} characters)"
        )

    rules = sub.add_parser(
        "rules",
        help="print the rules summary of a game",
        description=_paragraph(
            "Print the rules summary of a game: formatted on a terminal, plain Markdown when piped or redirected."
        ),
        epilog=partial(games_epilog, levels=False),  # type: ignore[arg-type]
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if wanted("rules"):
        rules.add_argument("game", metavar="GAME", nargs="?", help=f"the game (default: every game): {GAMES_HELP}")
        rules.add_argument("--preset", metavar="P", help=preset_help)
        rules.add_argument("--variant", action="append", metavar="V", help=variant_help)

    sim = sub.add_parser(
        "simulate",
        help="let bots play each other headless and print the figures",
        description=_paragraph(
            "Let bots play each other headless and print the figures. On a terminal, a progress bar on standard "
            "error shows how far the run has got (never with --json, never when piped)."
        ),
        epilog=games_epilog,  # type: ignore[arg-type]
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if wanted("simulate"):
        sim.add_argument("game", metavar="GAME", help=f"the game: {GAMES_HELP}")
        sim.add_argument("--players", type=at_least_one, required=True, help="number of players")
        sim.add_argument("--games", type=at_least_one, required=True, help="number of matches to play")
        sim.add_argument(
            "--seed", type=seed_number, default=0, help=f"base seed, a whole number from 0 to {MAX_SEED} (default 0)"
        )
        sim.add_argument(
            "--bots", default="medium", help=f"level per seat ({', '.join(levels)}), comma-separated; one: every seat"
        )
        sim.add_argument("--preset", metavar="P", help=preset_help)
        sim.add_argument("--variant", action="append", metavar="V", help=variant_help)
        sim.add_argument("--deals", type=at_least_one, help="deals per match, for games played in deals (Big Two)")
        sim.add_argument("--rotate", action="store_true", help="turn the line-up one seat round the table each match")
        sim.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
        sim.add_argument(
            "--jobs", type=at_least_one, default=1, help="processes to share the matches (default 1); same figures"
        )

    host = sub.add_parser(
        "host", help="host LAN play and sit in its lobby (with --headless: only the server, logging to stderr)"
    )
    if wanted("host"):
        host.add_argument("--headless", action="store_true", help="run only the server, until Ctrl+C or SIGTERM")
        host.add_argument(
            "--bind",
            default="",
            metavar="ADDR",
            help="the address to listen on (default: every address of this machine, IPv4 and IPv6; 0.0.0.0: every "
            "IPv4 one)",
        )
        host.add_argument("--port", type=port_number, default=7777, help="the TCP port (default 7777; 0: any free one)")
        lan_password = host.add_mutually_exclusive_group()
        lan_password.add_argument(
            "--password",
            help="a password every guest must give (other users of this machine can read it in ps: prefer "
            "--password-file or PARLOUR_HOST_PASSWORD)",
        )
        lan_password.add_argument(
            "--password-file", metavar="FILE", help="read the guests' password from the first line of FILE"
        )
        host.add_argument(
            "--name", default=default_name(), type=player_name, help="your name at the tables, and the host's name"
        )
        host.add_argument(
            "--no-keep",
            action="store_true",
            help="do not save the tables in play (nor offer saved ones again); by default a restarted host offers them",
        )
        host.add_argument("--ssh-port", type=port_number, metavar="PORT", help="also serve the game over SSH on PORT")
        ssh_password = host.add_mutually_exclusive_group()
        ssh_password.add_argument(
            "--ssh-password",
            metavar="P",
            help="the password SSH guests log in with (other users of this machine can read it in ps: prefer "
            "--ssh-password-file or PARLOUR_SSH_PASSWORD)",
        )
        ssh_password.add_argument(
            "--ssh-password-file", metavar="FILE", help="read the SSH guests' password from the first line of FILE"
        )
        host.add_argument(
            "--ssh-keys", metavar="FILE", help="an authorized_keys file: SSH guests log in with one of its keys"
        )
        host.add_argument(
            "--web-port",
            type=port_number,
            metavar="PORT",
            help="also serve the game to web browsers on PORT, at the address the host listens on (needs "
            "pip install 'parlour[web]'); each browser is asked for a name (and the password)",
        )

    join = sub.add_parser("join", help="join a LAN host and open its lobby")
    if wanted("join"):
        join.add_argument("address", metavar="HOST[:PORT]", type=host_address, help="the host (default port 7777)")
        join.add_argument(
            "--name", default=default_name(), type=player_name, help=f"your name (at most {NAME_LIMIT} characters)"
        )
        join.add_argument("--password", help="the host's password (or set PARLOUR_PASSWORD)")
        join.add_argument("--table", type=table_code, metavar="CODE", help="go straight to the table with this code")

    sub.add_parser(
        "replays",
        help="list the finished games kept as replays, newest first",
        description=_paragraph("List the finished games kept as replays, newest first."),
    )
    replay = sub.add_parser(
        "replay",
        help="watch a kept game again, a move at a time, or check it (--check)",
        description=_paragraph(
            "Watch a kept game again in the app, a move at a time: Right (or l) the next move, Left (or h) the one "
            "before, Page Down and Page Up ten at a time, Home the start, End the end, Esc or q to leave. With "
            "--check, play it again through the engine instead and compare every event (exit 0 when identical, 1 "
            "with the first difference). FILE is a path, or a name that `parlour replays` lists."
        ),
    )
    if wanted("replay"):
        replay.add_argument("file", metavar="FILE", help="the replay (.jsonl)")
        replay.add_argument(
            "--check",
            action="store_true",
            help="play it again through the engine and compare every event (a LAN game as a seat saw it: check it on "
            "its own, and against the host's replay of the same match when that is here)",
        )
    stats = sub.add_parser(
        "stats",
        help="print your statistics per game, preset and opponent level",
        description=_paragraph("Print your statistics per game, preset and opponents' level."),
    )
    if wanted("stats"):
        stats.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.commands.update(sub.choices)
    return parser


DEFAULT_PORT = 7777


def default_name() -> str:
    """The login name, as a player name (``Guest`` when it is not one)."""
    import getpass

    try:
        return player_name(getpass.getuser()[:NAME_LIMIT])
    except (argparse.ArgumentTypeError, OSError, KeyError):
        return "Guest"


def host_address(text: str) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT`` or ``[IPv6]:PORT``."""
    text = text.strip()
    host, port = text, DEFAULT_PORT
    if text.startswith("["):
        inside, _, rest = text[1:].partition("]")
        host = inside
        if rest:
            if not rest.startswith(":"):
                raise argparse.ArgumentTypeError(f"not HOST[:PORT]: {text[:60]!r}")
            port = port_number(rest[1:])
    elif text.count(":") == 1:
        host, _, number = text.partition(":")
        port = port_number(number)
    if not host or any(c.isspace() or is_control(c) for c in host) or len(host) > 253:
        raise argparse.ArgumentTypeError(f"not HOST[:PORT]: {text[:60]!r}")
    if port == 0:
        raise argparse.ArgumentTypeError("port 0 cannot be joined: give the host's port")
    return host, port


def table_code(text: str) -> str:
    code = text.strip().upper()
    if len(code) != 4 or not code.isascii() or not code.isalpha():
        raise argparse.ArgumentTypeError(f"a table code is four letters, such as NGQC, not {text[:20]!r}")
    return code


def port_number(text: str) -> int:
    value = _whole_number(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 0 to 65535, not {value}")
    return value


# -- running -------------------------------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    try:
        for stream in (sys.stdout, sys.stderr):
            _replace_unwritable(stream)
        words = list(sys.argv[1:] if argv is None else argv)
        # Only the options of the command named ("": none, for the menu); anything else gets the whole parser.
        named = (words[0] if words[0] in COMMANDS else None) if words else ""
        parser = build_parser(named)
        args = parser.parse_args(words)
        if args.command not in APP_COMMANDS:
            gc.enable()  # collection was paused for the start-up of an app (tui.launch): none will start
        try:
            if args.command == "rules":
                code = _rules(args)
            elif args.command == "simulate":
                code = _simulate(args)
            elif args.command == "host":
                code = _host(args)
            elif args.command == "join":
                code = _join(args)
            elif args.command in RECORD_COMMANDS:
                code = RECORD_COMMANDS[args.command](args)
            else:
                code = _play(args)
        except ParlourError as err:
            parser.commands.get(args.command or "", parser).print_usage(sys.stderr)  # (the command's own usage)
            print(f"parlour: error: {err}", file=sys.stderr)
            return 2
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return code
    except BrokenPipeError:
        # The reader went away (`parlour rules | head -1`): nothing left to say to anybody.
        _silence_stdout()
        return 0
    except KeyboardInterrupt:  # Ctrl-C: whatever ran was stopped (a simulate's workers too), said in one line
        with contextlib.suppress(Exception):
            # (on a terminal, after the ^C it echoed)
            print(f"{chr(10) if is_terminal(sys.stderr) else ''}parlour: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # the last line of defence: a user never sees a traceback
        if os.environ.get("PARLOUR_DEBUG"):
            raise
        with contextlib.suppress(Exception):
            print(
                f"parlour: unexpected error: {echo(err, UNEXPECTED_LIMIT)} (set PARLOUR_DEBUG=1 to see the details)",
                file=sys.stderr,
            )
        return 1


UNEXPECTED_LIMIT = 160
"""The most of an unexpected error's text the last line of defence quotes (the error can hold a whole text)."""


def _replace_unwritable(stream: TextIO | None) -> None:
    """Let ``stream`` replace what its encoding cannot write (``?``) instead of failing: an output that cannot take
    every character (``PYTHONIOENCODING=ascii``, a Latin-1 terminal) still gets every line. Streams that already
    choose (``surrogateescape``: bytes that came in undecodable go out as they came) and objects that are not text
    files are left as they are."""
    if stream is None or getattr(stream, "errors", None) != "strict":
        return
    with contextlib.suppress(AttributeError, ValueError, OSError):
        stream.reconfigure(errors="replace")  # type: ignore[attr-defined]


def _silence_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush has nowhere to fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture): nothing to silence
        pass


def _rules(args: argparse.Namespace) -> int:
    variants = _variants(args.variant)
    if args.game is None and (args.preset or variants):
        raise OptionError("--preset and --variant need a GAME: parlour rules GAME --variant V")
    chosen = [get_entry(args.game)] if args.game else list(entries())
    texts = []
    for entry in chosen:
        options = entry.game.options(args.preset or entry.preset, variants)
        texts.append(entry.game.rules_summary(options))
    print_markdown("\n".join(texts))
    return 0


RULES_WIDTH = 100
"""The widest the rules are set on a terminal: prose in longer lines is hard to follow."""


def is_terminal(stream: TextIO | None) -> bool:
    """Whether ``stream`` is a terminal (a closed stream, or one that is not a file, is not)."""
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError, AttributeError):
        return False


def print_markdown(text: str, stream: TextIO | None = None) -> None:
    """Print Markdown as formatted text on a terminal (Rich), and as the Markdown itself, byte for byte, anywhere
    else: a pipe or a file keeps text that other tools (and ``parlour rules > rules.md``) can use.

    Rich honours ``NO_COLOR`` (no colours, bold and underline kept) and ``TERM=dumb`` (no escape codes at all); in
    every case the ``**`` and ``#`` of the Markdown are set as formatting, never shown.
    """
    out = stream if stream is not None else sys.stdout
    text = _writable(text, out)
    if not is_terminal(out):
        out.write(text)
        return
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console(file=out)
    console.width = min(console.width, RULES_WIDTH)
    with console.capture() as formatted:
        console.print(Markdown(text))
    shown = formatted.get()
    if not _encodes("•", console.encoding):  # (Rich's bullets are its own: the output has no character for them)
        shown = _writable(shown, out)
    if shown.count("\n") < console.height or not is_terminal(sys.stdin) or not page(shown, out):
        out.write(shown)


PAGER = ("less", "-R", "-F", "-X", "-K")
"""The pager for a text taller than the terminal when ``PAGER`` names none: ``less`` keeping the colours (-R),
leaving at once when the text fits after all (-F), the text left on the screen after it (-X), Ctrl-C leaving (-K)."""


def page(text: str, out: TextIO) -> bool:
    """Show ``text`` in the user's pager (``PAGER``, else :data:`PAGER`), its top first; whether it was shown (not
    when there is no such pager)."""
    import shlex
    import subprocess

    try:
        command = shlex.split(os.environ.get("PAGER", "")) or list(PAGER)
    except ValueError:  # (quotes left open: no pager anybody could mean)
        command = list(PAGER)
    out.flush()
    try:
        pager = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=out, encoding=out.encoding, errors="replace")
    except OSError:
        return False
    assert pager.stdin is not None  # (asked for above)
    with contextlib.suppress(BrokenPipeError):  # (the reader left the pager before the end: nothing more to show)
        pager.stdin.write(text)
    with contextlib.suppress(BrokenPipeError):
        pager.stdin.close()
    while True:
        try:
            pager.wait()
            return True
        except KeyboardInterrupt:  # (the pager has the terminal: Ctrl-C is its to act on, as in git's pager)
            continue


STAND_INS = {"…": "...", "–": "-", "—": "-", "×": "x", "•": "*", "★": "*"}
"""Plain letters for the punctuation of the rules texts, where the output has no character for it."""


def _writable(text: str, stream: TextIO) -> str:
    """``text`` as ``stream``'s encoding can write it: where it cannot, suit symbols become the letters of the plain
    card faces (``10H``, ``S > H``), a little punctuation its ASCII look-alike, and anything else ``?``."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        pass
    except LookupError:  # (an encoding Python does not know: the stream's own errors setting decides)
        return text
    from engine.cards import Suit

    stand_ins = {suit.symbol: suit.value for suit in Suit} | STAND_INS
    for wide, narrow in stand_ins.items():
        if wide in text and not _encodes(wide, encoding):
            text = text.replace(wide, narrow)
    return text.encode(encoding, errors="replace").decode(encoding)


def _encodes(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _figure(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"{'-' if value is None else value!s:>15}"
    return f"{value:>15.3f}"


@contextlib.contextmanager
def progress_bar(title: str, games: int, show: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr for a run of ``games`` matches, as the callback ``simulate`` calls after each match
    (None when ``show`` is false: nothing is drawn). The bar is cleared when the run ends, so the figures printed
    next stand alone on the screen."""
    if not show:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task(title, total=games)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


def _simulate(args: argparse.Namespace) -> int:
    from engine.simulate import simulate  # here, not at the top: opening the app does not need it

    entry = get_entry(args.game)
    # The bar is for a person watching: not in --json output, not when stderr goes to a file or a pipe.
    show = not args.json and is_terminal(sys.stderr)
    with progress_bar(f"Playing {entry.title}", args.games, show) as progress:
        report = simulate(
            entry.key,
            players=args.players,
            games=args.games,
            seed=args.seed,
            bots=args.bots.split(","),
            preset=args.preset,
            variants=_variants(args.variant),
            deals=args.deals,
            rotate=args.rotate,
            progress=progress,
            jobs=args.jobs,
        )
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return 0
    column = entry.game.figures().column
    print(f"{report['game']}: {report['games']} games, {report['players']} players, seed {report['seed']}")
    print(f"{report['seconds']:.2f} s, {report['games_per_second']} games/s")
    stats = {s["seat"]: s for s in report["stats"].get("seats", [])}
    print(f"{'seat':>4}  {'bot':<8}{'wins':>8}{'win %':>8}{'mean score':>12}{column.replace('_', ' '):>15}")
    for seat in report["seats"]:
        line = f"{seat['seat']:>4}  {seat['bot']:<8}{seat['wins']:>8g}{100 * seat['win_rate']:>7.1f}%"
        line += f"{seat['mean_score']:>12.3f}{_figure(stats.get(seat['seat'], {}).get(column))}"
        print(line)
    return 0


def terminal_problem(stdin: TextIO | None = None, stdout: TextIO | None = None) -> str | None:
    """Why the full-screen app cannot run here (None: it can). Asked before Textual is imported.

    ``TEXTUAL_DRIVER`` set (``textual serve``, a web driver) means the caller chose a driver that needs no terminal.
    """
    if os.environ.get("TEXTUAL_DRIVER"):
        return None
    streams = ((stdin or sys.stdin, "standard input"), (stdout or sys.stdout, "standard output"))
    for stream, what in streams:
        if not is_terminal(stream):
            return f"{what} is not a terminal (`parlour rules` and `parlour simulate` print plain text)"
    return None


def run_app(app: App[Any], *, headless: bool = False) -> int:
    """Run the app to its end; its exit status (Textual sets 1 when the app crashed).

    On a terminal the app quits at once (:mod:`tui.terminal.driver`: no input poll to wait out, where the installed
    Textual is the one that driver was written for); the objects made while importing it are kept out of the
    collector's sight (:func:`tui.terminal.driver.freeze_heap`), and so are those still alive when it ends
    (:func:`tui.terminal.driver.settle_heap`: the interpreter's last collection would walk them all again)."""
    from textual.app import App as TextualApp

    if headless or sys.platform == "win32" or not isinstance(app, TextualApp):  # (not a Textual app: a test's stand-in)
        app.run(headless=headless)
    else:
        from tui.terminal.driver import freeze_heap, settle_heap, use_quick_exit

        use_quick_exit(app)
        freeze_heap()
        app.run()
        settle_heap()
    code = app.return_code
    return code if code else 0


def _play(args: argparse.Namespace) -> int:
    if args.command is None:
        problem = terminal_problem()
        if problem:
            print(f"{NEEDS_TERMINAL}: {problem}", file=sys.stderr)
            return 2
        from tui.apps.parlour import ParlourApp

        return run_app(ParlourApp())
    # Everything that can be wrong with the arguments is found before the screen is taken over.
    entry = get_entry(args.game)
    players = args.players if args.players is not None else entry.game.default_players
    entry.game.check_players(players)
    variants = _variants(args.variant)
    entry.game.options(args.preset or entry.preset, variants)
    difficulty = args.difficulty if args.difficulty is not None else "medium"
    check_level(entry.game, difficulty)
    # What was not given comes from your settings' defaults for the game (the app reads them).
    open_fields = tuple(f for f, given in (("players", args.players), ("difficulty", args.difficulty)) if given is None)
    problem = terminal_problem()
    if problem:
        print(f"{NEEDS_TERMINAL}: {problem}", file=sys.stderr)
        return 2
    from tui.apps.parlour import ParlourApp, PlayConfig

    config = PlayConfig(
        game=entry.key,
        players=players,
        seed=args.seed,
        preset=args.preset,
        variants=variants,
        difficulty=difficulty,
        name=args.name,
        from_settings=open_fields,
    )
    return run_app(ParlourApp(start=config))


def _host_passwords(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """The LAN and SSH passwords of ``parlour host``: each from its flag, else its file (the first line), else its
    environment variable (the SSH one only with ``--ssh-port``). OptionError for a file that cannot be used."""
    from engine.lan.secrets_input import HOST_PASSWORD_ENV, SSH_PASSWORD_ENV, password_from

    if args.ssh_port is None and args.ssh_password_file is not None:
        raise OptionError("--ssh-password-file needs --ssh-port")
    lan = password_from(args.password, args.password_file, "--password-file", HOST_PASSWORD_ENV)
    if args.ssh_port is None:
        return lan, args.ssh_password
    return lan, password_from(args.ssh_password, args.ssh_password_file, "--ssh-password-file", SSH_PASSWORD_ENV)


def guest_command() -> tuple[str, ...]:
    """What an SSH guest (and a browser session) of ``parlour host`` runs: ``parlour join`` in this interpreter (the
    host adds where to join, and the SSH guest's name: :class:`~engine.lan.lan_host.HostSettings`). The engine never
    starts the UI itself."""
    return (sys.executable, "-m", "tui", "join")


def headless_command() -> tuple[str, ...]:
    """What a ``parlour host`` that goes on in the background runs: ``parlour host --headless`` in this
    interpreter (the host adds its settings' options: :func:`~engine.lan.lan_host.background_command`)."""
    return (sys.executable, "-m", "tui", "host", "--headless")


def _host(args: argparse.Namespace) -> int:
    """``parlour host``: a LAN host on a thread of its own and its lobby for you; with ``--headless`` the server
    alone, logging to stderr, until Ctrl+C or SIGTERM (status 0)."""
    from engine.lan.lan_host import HostingError, HostSettings, HostThread, run_headless
    from engine.records.paths import host_dir

    args.password, args.ssh_password = _host_passwords(args)
    if args.ssh_port is not None and args.ssh_password is None and args.ssh_keys is None:
        raise OptionError(
            "--ssh-port needs --ssh-password, --ssh-password-file, PARLOUR_SSH_PASSWORD or --ssh-keys: "
            "SSH guests must log in somehow"
        )
    if args.ssh_port is None and (args.ssh_password is not None or args.ssh_keys is not None):
        raise OptionError("--ssh-password and --ssh-keys need --ssh-port")
    keys = Path(args.ssh_keys) if args.ssh_keys else None
    if keys is not None and not keys.is_file():
        raise OptionError(f"no authorized-keys file at {args.ssh_keys}")
    if args.web_port is not None:
        from engine.lan.web import WebUnavailable, check_available

        try:
            check_available()
        except WebUnavailable as err:
            print(f"parlour: {err}", file=sys.stderr)
            return 2
    settings = HostSettings(
        bind=args.bind,
        port=args.port,
        name=args.name,
        password=args.password,
        ssh_port=args.ssh_port,
        ssh_password=args.ssh_password,
        ssh_keys=keys,
        web_port=args.web_port,
        keep=None if args.no_keep else host_dir(),
        guest_command=guest_command(),
        headless_command=headless_command(),
    )
    import logging

    if args.headless:
        logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
        return run_headless(settings)
    problem = terminal_problem()
    if problem:
        print(f"{NEEDS_TERMINAL}: {problem} (parlour host --headless runs the server alone)", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.CRITICAL)  # the screen is the app's: the server keeps quiet
    running = HostThread(settings)
    try:
        host = running.start()
    except HostingError as err:
        print(f"parlour: {err}", file=sys.stderr)
        return 2
    try:
        where = host.where()
        for line in [*host.server.problems, *where]:
            print(line, flush=True)
        banner = "\n".join(where)
        return _lobby("127.0.0.1", host.port, args.name, args.password, None, banner=banner, hosting=running)
    finally:
        running.stop()  # (the app may have stopped it already, as the player chose: then nothing more happens)


def _join(args: argparse.Namespace) -> int:
    """``parlour join HOST[:PORT]``: connect, then the lobby (or straight to ``--table``)."""
    host, port = args.address
    from engine.lan.web import ASK_ENV

    asked = os.environ.get(ASK_ENV)
    if asked:  # (a browser session: its player types the name, and the password, in the app)
        return _signing_in(host, port, "password" in asked.split(","), args.table)
    password = args.password if args.password is not None else os.environ.get("PARLOUR_PASSWORD")
    return _lobby(host, port, args.name, password, args.table)


def _signing_in(host: str, port: int, password: bool, table: str | None) -> int:
    """``parlour join`` with ``PARLOUR_ASK`` set: the app asks the player's name (and the host's password) on its
    first screen, then connects (:mod:`tui.apps.sign_in`)."""
    problem = terminal_problem()
    if problem:
        print(f"{NEEDS_TERMINAL}: {problem}", file=sys.stderr)
        return 2
    from tui.apps.lan import LanApp
    from tui.apps.sign_in import SignIn

    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    connections: list[NetworkSession] = []

    def connect(name: str, given: str | None, waiting: Callable[[str], None]) -> NetworkSession:
        try:
            conn = _connect(host, port, name, given, waiting=waiting)
        except ParlourError as err:
            said = str(err)
            raise ParlourError(said if said.startswith("cannot") else f"The host refused: {said}") from None
        connections.append(conn)
        return conn

    app = LanApp(None, table=table, sign_in=SignIn(where=where, password=password, connect=connect))
    try:
        code = run_app(app)
        if app.farewell:
            print(app.farewell, file=sys.stderr)
        return code
    finally:
        for conn in connections:
            conn.close()


def _lobby(
    host: str,
    port: int,
    name: str,
    password: str | None,
    table: str | None,
    banner: str = "",
    hosting: HostThread | None = None,
) -> int:
    """Connect to the host at ``host``:``port`` as ``name`` and run the lobby app; 2 with one sentence when the host
    cannot be joined. ``hosting``: the host this process runs (the app asks what becomes of its tables on quit)."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        conn = _connect(host, port, name, password)
    except ParlourError as err:
        said = str(err)
        print(
            f"parlour: {said}" if said.startswith("cannot") else f"parlour: cannot join {where}: {said}",
            file=sys.stderr,
        )
        return 2
    try:
        if table is not None and not any(str(t.get("code")) == table for t in conn.tables()):
            print(f"parlour: the host at {where} has no table {table}", file=sys.stderr)
            return 2
        problem = terminal_problem()
        if problem:
            print(f"{NEEDS_TERMINAL}: {problem}", file=sys.stderr)
            return 2
        from tui.apps.lan import LanApp

        app = LanApp(conn, banner=banner, table=table, hosting=hosting)
        code = run_app(app)
        if app.farewell:
            print(app.farewell, file=sys.stderr)
        return code
    except ParlourError as err:
        print(f"parlour: the connection to {where} failed: {err}", file=sys.stderr)
        return 1
    finally:
        said_bye = conn.connected
        conn.close()
        if said_bye:
            from engine.lan.tokens import forget_token

            forget_token(host, port)  # (the host has forgotten this player: the token opens nothing any more)


def _connect(
    host: str, port: int, name: str, password: str | None, waiting: Callable[[str], None] | None = None
) -> NetworkSession:
    """A session at the host, back in this player's seat when a token kept from an earlier connection (a crash, a
    lost network) still holds; a name that is of a player away from a seat there asks the table to let it back in.
    Each welcome's token is kept on disk (:mod:`engine.lan.tokens`). ``waiting``: told what the host says while the
    table is asked (default: a line on stderr)."""
    from engine.lan.remote_session import HostRefusal, NetworkSession
    from engine.lan.tokens import forget_token, keep_token, kept_token
    from engine.records.paths import one_line

    conn: NetworkSession | None = None
    token = kept_token(host, port, name)
    if token is not None:
        try:
            conn = NetworkSession.connect(host, port, name, password=password, timeout=5.0, token=token)
        except HostRefusal as err:
            if err.reason != "bad_token":
                raise
            forget_token(host, port)  # the host no longer knows it (its time ran out, or another host now)
    if conn is None:

        def asking(data: dict[str, Any]) -> None:
            said = f"{one_line(str(data.get('message', 'waiting for the table')))}..."
            if waiting is not None:
                waiting(said)
            else:
                print(f"parlour: {said}", file=sys.stderr)

        conn = NetworkSession.connect(host, port, name, password=password, timeout=5.0, ask=asking)

    def kept(welcome: dict[str, Any]) -> str | None:
        return keep_token(host, port, str(welcome.get("name", name)), str(welcome.get("token")))

    problem = kept(conn.welcome)
    if problem is not None:  # (said once, before the screen is taken: the game goes on without it)
        print(f"parlour: {problem}", file=sys.stderr)
    conn.on_welcome = kept
    return conn


# -- replays and statistics (engine.records) -------------------------------------------------------------------------
def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _columns(rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> list[str]:
    """Rows of text as aligned columns (the columns in ``right`` aligned right), two spaces apart."""
    widths = [max(len(row[index]) for row in rows) for index in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(width) if index in right else cell.ljust(width)
            for index, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def _replays(args: argparse.Namespace) -> int:
    """``parlour replays``: the kept games, newest first."""
    from engine.records.paths import replays_dir
    from engine.records.replays import list_replays

    where = replays_dir()
    kept = list_replays(where)
    if not kept:
        print(f"No games kept yet: each finished game is kept in {where}.")
        return 0
    print(printable(f"{_plural(len(kept), 'game')} kept in {where}, newest first:"))
    rows = [["date", "game", "players", "result", "file"]]
    for info in kept:
        when = info.finished_at.astimezone().strftime("%Y-%m-%d %H:%M") if info.finished_at else "?"
        result = info.result if info.problem is None else f"cannot be read: {info.problem}"
        if info.seen is not None and info.problem is None:
            result = f"{result}; {info.seen}"
        if info.takebacks and info.problem is None:
            result = f"{result}; with takebacks ({info.takebacks})"
        cells = [when, info.game or "?", ", ".join(info.players), result, info.path.name]
        rows.append([printable(cell) for cell in cells])  # (a file's name and contents are a stranger's text)
    for line in _columns(rows):
        print(line)
    return 0


def _replay_file(text: str) -> Path:
    """FILE as given, or the kept replay of that name (what ``parlour replays`` lists)."""
    from engine.records.paths import replays_dir

    path = Path(text)
    if not path.exists() and path.name == text and (replays_dir() / text).exists():
        return replays_dir() / text
    return path


def _replay(args: argparse.Namespace) -> int:
    """``parlour replay FILE``: the game played back in the app; with ``--check``: 0 identical, 1 with the first
    difference. 2 for a file that is no replay (or no terminal for the app). A LAN seat's record (what it saw) is
    stepped through event by event, and checked on its own and against the host's replay when it is here."""
    from engine.records.replays import ReplayCursor, ReplayError, is_seen_file, verify_replay
    from engine.records.seen import SeenCursor, check_seen

    path = _replay_file(args.file)
    if not path.is_file():
        try:
            mode = path.stat().st_mode
        except OSError:  # (nothing there, a link to nothing)
            mode = None
        if mode is not None:  # a FIFO, a directory, a device: said as what it is, never opened
            from engine.records.paths import kind_of

            print(f"parlour: {printable(args.file)} is not a replay: {kind_of(mode)}", file=sys.stderr)
            return 2
        print(f"parlour: there is no replay {args.file}", file=sys.stderr)
        return 2
    seen = is_seen_file(path)
    if not args.check:
        try:
            cursor: ReplayCursor | SeenCursor = SeenCursor.open(path) if seen else ReplayCursor.open(path)
        except ReplayError as err:
            print(f"parlour: {err}", file=sys.stderr)
            return 2
        problem = terminal_problem()
        if problem:
            print(f"{NEEDS_TERMINAL}: {problem}", file=sys.stderr)
            return 2
        from tui.apps.replay import ReplayApp

        return run_app(ReplayApp(cursor))
    if seen:
        try:
            found = check_seen(path)
        except ReplayError as err:
            print(f"parlour: {err}", file=sys.stderr)
            return 2
        print(found.sentence())
        return 0 if found.difference is None else 1
    try:
        check = verify_replay(path)
    except ReplayError as err:
        print(f"parlour: {err}", file=sys.stderr)
        return 2
    if check.difference is not None:
        print(f"different: {check.difference}")
        return 1
    print(f"identical: {_plural(check.actions, 'action')}, {_plural(check.events, 'event')}")
    return 0


def _stats(args: argparse.Namespace) -> int:
    """``parlour stats [--json]``: the statistics per game, preset and opponents' level."""
    from engine.records.stats import StatsError, summary

    try:
        report = summary()
    except StatsError as err:
        print(f"parlour: {err}", file=sys.stderr)
        return 1
    if report["problem"]:
        print(f"parlour: {report['problem']}", file=sys.stderr)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return 0
    if not report["groups"]:
        print(f"No games counted yet: each finished game is counted in {report['path']}.")
        return 0
    rows = [["game", "opponents", "games", "wins", "win %", "streak", "best", "mean score", "figures"]]
    for group in report["groups"]:
        figures = "; ".join(
            f"{group['labels'][name]} {'-' if value is None else f'{value:g}'}"
            for name, value in group["figures"].items()
        )
        rows.append(
            [
                group["preset_name"],
                group["opponents"],
                str(group["games"]),
                str(group["wins"]),
                f"{100 * group['win_rate']:.1f}%",
                str(group["streak"]),
                str(group["best_streak"]),
                f"{group['mean_score']:.2f}",
                figures,
            ]
        )
    for line in _columns(rows, right=(2, 3, 4, 5, 6, 7)):
        print(line)
    return 0


RECORD_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "replays": _replays,
    "replay": _replay,
    "stats": _stats,
}


COMMANDS = frozenset({"play", "rules", "simulate", "host", "join", "replays", "replay", "stats"})
"""Every command :func:`build_parser` knows (a test checks the two agree)."""
APP_COMMANDS = frozenset({None, "play", "join", "replay"})
"""The commands that start the full-screen app."""


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
