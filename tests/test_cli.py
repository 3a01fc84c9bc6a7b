"""The ``parlour`` command line: its output, its JSON, bad arguments, no terminal, closed pipes and exit status."""

from __future__ import annotations

import argparse
import json
import os
import pty
import subprocess
import sys
import tempfile
import types
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from terminal import CLI, ROOT, plain, run_on_terminal

import tui.cli
from engine import __version__
from engine.registry import ENTRIES, get_entry
from engine.simulate import TIMING_FIELDS
from tui.cli import main


def run_cli(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """The console script as a user runs it, in its own process (no terminal: stdin is /dev/null)."""
    options: dict[str, Any] = {"capture_output": True, "stdin": subprocess.DEVNULL} | kwargs
    return subprocess.run([sys.executable, "-c", CLI, *args], text=True, timeout=120, cwd=ROOT, **options)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"parlour {__version__}"


@pytest.mark.parametrize("key", ["screw", "chase"])
def test_rules_prints_the_rules_pane_text(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", key]) == 0
    entry = get_entry(key)
    assert capsys.readouterr().out == entry.game.rules_summary(entry.game.options(entry.preset))


def test_rules_with_a_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "chase", "--variant", "high-card-pays"]) == 0
    out = capsys.readouterr().out
    assert "Ace** pays 2" in out and "highest" in out


def test_rules_of_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "# Screw Your Neighbor" in out and "# Chase the Ace" in out


def simulate_json(*extra: str) -> dict[str, Any]:
    result = run_cli("simulate", "chase", "--players", "4", "--games", "30", "--seed", "5", "--json", *extra)
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def test_simulate_json_fields_and_determinism() -> None:
    first = simulate_json("--bots", "hard,medium,easy,medium")
    second = simulate_json("--bots", "hard,medium,easy,medium")
    for field in ("game", "options", "players", "games", "seed", "seconds", "games_per_second", "seats"):
        assert field in first
    assert first["game"] == "chase" and first["players"] == 4 and first["games"] == 30 and first["seed"] == 5
    assert [s["bot"] for s in first["seats"]] == ["hard", "medium", "easy", "medium"]
    assert sum(s["wins"] for s in first["seats"]) == 30
    for seat in first["seats"]:
        assert set(seat) >= {"seat", "bot", "wins", "mean_score"}
    for timing in TIMING_FIELDS:
        first.pop(timing)
        second.pop(timing)
    assert first == second
    other_seed = run_cli("simulate", "chase", "--players", "4", "--games", "30", "--seed", "6", "--json")
    assert json.loads(other_seed.stdout)["seats"] != first["seats"]


def test_simulate_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "screw", "--players", "3", "--games", "5", "--bots", "easy"]) == 0
    out = capsys.readouterr().out
    assert "pays per hand" in out and out.count("easy") == 3


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "poker"], "no game called 'poker'"),
        (["play", "chase", "--players", "11"], "takes 2 to 10 players"),
        (["play", "chase", "--players", "lots"], "not a whole number: 'lots'"),
        (["play", "chase", "--players", "0"], "must be a whole number from 1, not 0"),
        (["play", "chase", "--players", "-3"], "must be a whole number from 1, not -3"),
        (["play", "chase", "--seed", "-5"], "a seed is a whole number from 0"),
        (["play", "chase", "--seed", "1.5"], "not a whole number: '1.5'"),
        (["simulate", "chase", "--players", "3", "--games", "2", "--seed", "-1"], "a seed is a whole number from 0"),
        (["simulate", "chase", "--players", "0", "--games", "2"], "must be a whole number from 1, not 0"),
        (["simulate", "chase", "--players", "3", "--games", "-2"], "must be a whole number from 1, not -2"),
        (["simulate", "big2", "--players", "4", "--games", "2", "--deals", "0"], "must be a whole number from 1"),
        (["play", "chase", "--name", "A" * 25], "at most 24 characters, not 25"),
        (["play", "chase", "--name", "Ana\nBen"], "control characters such as '\\n'"),
        (["play", "chase", "--name", "Ana\x1b[31m"], "control characters such as '\\x1b'"),
        (["play", "chase", "--name", "\u202eanA"], "control characters such as '\\u202e'"),
        (["play", "chase", "--name", "   "], "at least one character"),
        (["play", "big2", "--variant", "standard-suits,taiwan"], "'standard-suits' and 'taiwan'"),
        (["play", "big2", "--variant", "taiwan", "--variant", "standard-suits"], "'taiwan' and 'standard-suits'"),
        (["play", "screw", "--variant", "on-honour,no-honour"], "'on-honour' and 'no-honour'"),
        (["rules", "screw", "--variant", "no-honour"], "'no-honour' changes nothing in the preset 'screw'"),
        (["rules", "chase", "--variant", "on-honour"], "'on-honour' changes nothing in the preset 'chase'"),
        (["rules", "--variant", "taiwan"], "need a GAME"),
        (["play", "chase", "--variant", "jokers-wild"], "unknown variant"),
        (["play", "chase", "--preset", "poker"], "unknown preset"),
        (["play", "chase", "--difficulty", "godlike"], "invalid choice"),
        (["simulate", "chase", "--players", "3"], "required"),
        (["simulate", "chase", "--players", "3", "--games", "2", "--bots", "easy,hard"], "one per seat"),
        (["simulate", "chase", "--players", "3", "--games", "2", "--bots", "genius"], "unknown difficulty"),
        (["rules", "poker"], "no game called"),
        (["dance"], "invalid choice"),
    ],
)
def test_bad_arguments_give_usage_and_status_2(args: list[str], message: str) -> None:
    result = run_cli(*args)
    assert result.returncode == 2
    assert "usage: parlour" in result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "\x1b" not in result.stderr + result.stdout


def test_a_name_may_hold_markup_characters_and_letters_of_any_one_script() -> None:
    assert tui.cli.player_name(" Ana[/b] ") == "Ana[/b]"
    assert tui.cli.player_name("[@click=app.quit]Q[/]") == "[@click=app.quit]Q[/]"
    assert tui.cli.player_name("Zoë 🂡") == "Zoë 🂡"
    assert tui.cli.player_name("李 🂡") == "李 🂡"
    with pytest.raises(argparse.ArgumentTypeError, match="two scripts"):  # a name that could pass for another
        tui.cli.player_name("Zoë 李")
    assert tui.cli.player_name("A" * 24) == "A" * 24


# -- the full-screen app needs a terminal --------------------------------------------------------------------------
PROBE = (
    "import sys; from tui.cli import main; sys.argv[0] = 'parlour'; code = main(sys.argv[1:]); "
    "print('textual loaded' if 'textual' in sys.modules else 'no textual', file=sys.stderr); sys.exit(code)"
)


@pytest.mark.parametrize("args", [[], ["play", "chase"], ["play", "big2", "--players", "3", "--seed", "7"]])
def test_no_terminal_on_stdin_gives_one_line_and_status_2(args: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_DRIVER"}
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=env,
    )
    assert result.returncode == 2
    first, probe = result.stderr.splitlines()
    assert first.startswith("parlour: the game needs a terminal: standard input is not a terminal"), first
    assert probe == "no textual"  # refused before Textual was imported
    assert result.stdout == ""  # no escape codes


def test_no_terminal_on_stdout_gives_one_line_and_status_2() -> None:
    """A terminal on stdin but output piped away (``parlour play chase | tee log``)."""
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_DRIVER"}
    controller, terminal = pty.openpty()
    try:
        result = subprocess.run(
            [sys.executable, "-c", PROBE, "play", "chase"],
            stdin=terminal,
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
            env=env,
        )
    finally:
        os.close(terminal)
        os.close(controller)
    assert result.returncode == 2
    first, probe = result.stderr.splitlines()
    assert first.startswith("parlour: the game needs a terminal: standard output is not a terminal"), first
    assert probe == "no textual"
    assert result.stdout == ""


def test_bad_arguments_are_reported_before_the_terminal() -> None:
    """Without a terminal, a mistake in the arguments is still the message the user gets."""
    result = run_cli("play", "chase", "--variant", "jokers-wild")
    assert result.returncode == 2 and "unknown variant" in result.stderr and "terminal" not in result.stderr


# -- a closed pipe is a quiet exit --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["rules"],
        ["rules", "big2"],
        ["play", "--help"],
        ["simulate", "chase", "--players", "3", "--games", "3", "--json"],
        ["simulate", "big2", "--players", "4", "--games", "1", "--deals", "1", "--bots", "easy"],
    ],
)
def test_a_closed_pipe_is_a_quiet_exit(args: list[str]) -> None:
    """``parlour rules | true``: the reader is gone before anything is written."""
    reader, writer = os.pipe()
    os.close(reader)  # nobody will ever read: every write fails with EPIPE
    with tempfile.TemporaryFile() as errors:
        try:
            done = subprocess.run(
                [sys.executable, "-c", CLI, *args], stdin=subprocess.DEVNULL, stdout=writer, stderr=errors, timeout=120
            )
        finally:
            os.close(writer)
        errors.seek(0)
        stderr = errors.read().decode()
    assert done.returncode == 0, stderr
    assert stderr == ""


def test_output_cut_short_is_a_quiet_exit() -> None:
    """``parlour rules | head -c1``: the reader takes one byte and leaves."""
    with tempfile.TemporaryFile() as errors:
        child = subprocess.Popen(
            [sys.executable, "-c", CLI, "rules"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors
        )
        assert child.stdout is not None
        assert child.stdout.read(1)
        child.stdout.close()
        assert child.wait(timeout=60) == 0
        errors.seek(0)
        assert errors.read().decode() == ""


# -- the app's exit status -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FakeConfig:
    game: str
    players: int
    seed: int | None
    preset: str | None
    variants: tuple[str, ...]
    difficulty: str
    name: str
    from_settings: tuple[str, ...] = ()


class FakeApp:
    """Stands in for ParlourApp: records its start and ends with the return code it is told to."""

    started: ClassVar[list[FakeConfig | None]] = []
    code: ClassVar[int | None] = 0

    def __init__(self, start: FakeConfig | None = None) -> None:
        self.start = start
        self.return_code: int | None = None

    def run(self, headless: bool = False) -> None:
        FakeApp.started.append(self.start)
        self.return_code = FakeApp.code


@pytest.fixture
def fake_app(monkeypatch: pytest.MonkeyPatch) -> type[FakeApp]:
    module = types.ModuleType("tui.apps.parlour")
    module.ParlourApp = FakeApp  # type: ignore[attr-defined]
    module.PlayConfig = FakeConfig  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tui.apps.parlour", module)
    monkeypatch.setattr(tui.cli, "terminal_problem", lambda: None)
    FakeApp.started = []
    return FakeApp


@pytest.mark.parametrize("code, status", [(0, 0), (None, 0), (1, 1), (3, 3)])
def test_the_exit_status_is_the_apps(fake_app: type[FakeApp], code: int | None, status: int) -> None:
    fake_app.code = code
    assert main(["play", "chase"]) == status
    assert main([]) == status
    assert fake_app.started[1] is None  # no command: the main menu


def test_play_starts_the_app_with_the_checked_arguments(fake_app: type[FakeApp]) -> None:
    fake_app.code = 0
    argv = ["play", "cta", "--players", "4", "--seed", "9", "--variant", "high-card-pays", "--difficulty", "hard"]
    assert main([*argv, "--name", " Ana[/b] "]) == 0
    assert fake_app.started == [FakeConfig("chase", 4, 9, None, ("high-card-pays",), "hard", "Ana[/b]")]


def test_play_leaves_players_and_difficulty_to_your_settings_when_not_given(fake_app: type[FakeApp]) -> None:
    """Not given: the game's own defaults for the checks, and the app fills them from your settings for the game."""
    assert main(["play", "big2"]) == 0
    assert fake_app.started == [FakeConfig("big2", 4, None, None, (), "medium", "You", ("players", "difficulty"))]


def test_a_crashed_app_exits_non_zero() -> None:
    """What the CLI relies on: Textual sets ``return_code`` to 1 when the app dies of an unhandled error."""
    from textual.app import App

    class Crashing(App[None]):
        def on_mount(self) -> None:
            raise RuntimeError("boom")

    assert tui.cli.run_app(Crashing(), headless=True) == 1


@pytest.mark.parametrize("key", [e.key for e in ENTRIES])
def test_the_game_runs_in_a_terminal_and_quits_cleanly(key: str) -> None:
    """The whole way from the command line to a table and out: ``ctrl+q`` asks (a match is on), ``y`` leaves, and
    the status is 0 with no traceback."""
    steps = [("Parlour", b"\x11"), ("Quit Parlour?", b"y")]
    run = run_on_terminal(["play", key, "--seed", "7", "--name", "Ana[/b]"], steps=steps, timeout=60)
    output = plain(run.terminal)
    assert "Traceback" not in output, output[-3000:]
    assert run.typed == len(steps), f"stopped before step {run.typed + 1}: {output[-3000:]}"
    assert run.status == 0


# -- help and figures from the registry ----------------------------------------------------------------------------
# The help texts (games, presets, house rules, 80 columns) are tested in tests/test_cli_output.py.


def test_the_cli_matches_no_game_key() -> None:
    source = (ROOT / "tui" / "cli.py").read_text(encoding="utf-8")
    for entry in ENTRIES:
        for name in (entry.key, *entry.aliases):
            assert f'"{name}"' not in source and f"'{name}'" not in source, name


@pytest.mark.parametrize("key", [e.key for e in ENTRIES])
def test_simulate_table_shows_the_games_own_figure(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    entry = get_entry(key)
    players = max(entry.game.min_players, min(3, entry.game.max_players))
    extra = ["--deals", "1"] if hasattr(entry.game.options(entry.preset), "deals") else []
    assert main(["simulate", key, "--players", str(players), "--games", "2", "--bots", "easy", *extra]) == 0
    out = capsys.readouterr().out
    column = entry.game.figures().column.replace("_", " ")
    header = next(line for line in out.splitlines() if line.lstrip().startswith("seat"))
    assert header.rstrip().endswith(column)
    rows = [line.split() for line in out.splitlines() if line[:4].strip().isdigit()]
    assert len(rows) == players and all(row[-1] != "-" for row in rows)


def test_the_parser_knows_every_command_and_builds_only_the_one_named() -> None:
    """main() builds only the options of the command a command line names (a few milliseconds of every start);
    the full parser, and each command's, read the same command lines."""
    import contextlib
    import io

    from tui.cli import COMMANDS, build_parser

    def help_of(parser: argparse.ArgumentParser, *words: str) -> str:
        said = io.StringIO()
        with contextlib.redirect_stdout(said), pytest.raises(SystemExit):
            parser.parse_args([*words, "--help"])
        return said.getvalue()

    def options_of(parser: argparse.ArgumentParser, name: str) -> list[str]:
        return [line.split()[0] for line in help_of(parser, name).splitlines() if line.startswith("  -")]

    full = build_parser()
    for name in COMMANDS:
        only = build_parser(name)
        assert help_of(only, name) == help_of(full, name)
        assert len(options_of(full, name)) > 1 or name == "replays"  # (the list of replays takes no option)
        for other in COMMANDS - {name}:
            assert options_of(only, other) == ["-h,"]  # only its --help
        assert all(options_of(build_parser(""), other) == ["-h,"] for other in COMMANDS)  # the menu: none
    line = ["play", "big2", "--seed", "3", "--players", "3", "--variant", "taiwan"]
    assert build_parser("play").parse_args(line) == build_parser().parse_args(line)
