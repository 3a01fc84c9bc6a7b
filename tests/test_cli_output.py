"""How the ``parlour`` command reads: help that lists every game, preset and house rule (within 80 columns), rules
formatted on a terminal and plain Markdown when piped, and a progress bar for ``simulate`` only where a person
watches. Terminals are real pseudo-terminals (``pty.openpty``), so Rich and ``isatty`` decide as they do for users.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import unicodedata

import pytest
from terminal import CLI, ROOT, Run, clean_env, plain, run_on_terminal

from engine.registry import ENTRIES, GAMES, difficulties
from engine.simulate import TIMING_FIELDS, simulate
from tui.cli import main, progress_bar


def run_cli(
    args: list[str], *, stdout_tty: bool, stderr_tty: bool, env: dict[str, str] | None = None, width: int = 100
) -> Run:
    """``parlour ARGS`` with stdout and/or stderr on a pseudo-terminal of ``width`` columns (the others to files;
    stdin is /dev/null)."""
    return run_on_terminal(
        args, stdin_tty=False, stdout_tty=stdout_tty, stderr_tty=stderr_tty, size=(width, 40), env=env
    )


def piped(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CLI, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env if env is not None else clean_env(),
    )


def columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


# -- help ----------------------------------------------------------------------------------------------------------
def help_text(*command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--help"])
    assert exit_info.value.code == 0
    return capsys.readouterr().out


def preset_blocks(text: str) -> dict[tuple[str, str], list[str]]:
    """The variant keys listed under each ``--preset KEY`` line of a help text, by (game key, preset key).

    The game is the last one whose key heads a line (two spaces, the key, two spaces) above the preset."""
    blocks: dict[tuple[str, str], list[str]] = {}
    game_keys = {entry.key: entry.game.key for entry in ENTRIES}
    game: str | None = None
    current: list[str] | None = None
    for line in text.splitlines():
        heading = re.match(r"^  (\S+)  \S", line)
        if heading and heading.group(1) in game_keys:
            game, current = game_keys[heading.group(1)], None
        elif preset := re.match(r"^    --preset (\S+?)[ :]", line):
            assert game is not None, line
            current = blocks.setdefault((game, preset.group(1)), [])
        elif current is not None and (variant := re.match(r"^      (\S+)  ", line)):
            current.append(variant.group(1))
        elif not line.startswith(" " * 8):  # neither a variant nor the wrapped end of one
            current = None
    return blocks


@pytest.mark.parametrize("command", ["play", "rules", "simulate"])
def test_help_lists_every_game_preset_and_house_rule(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = help_text(command, capsys=capsys)
    for entry in ENTRIES:
        assert re.search(rf"^  {re.escape(entry.key)}  +{re.escape(entry.title)}\b", out, re.M), entry.key
        for alias in entry.aliases:
            assert alias in out
    blocks = preset_blocks(out)
    expected = {
        (game.key, preset.key): [v.key for v in game.useful_variants(preset.key)]
        for game in GAMES
        for preset in game.presets
    }
    assert blocks == expected
    for game in GAMES:
        for variant in game.variants:
            assert f"{variant.key}  " in out
            first_words = " ".join(variant.description.split()[:4])
            assert first_words in " ".join(out.split()), variant.key
        for preset in game.presets:
            assert " ".join(preset.description.split()[:3]) in " ".join(out.split()), preset.key
    levels = out.count("computer players: ")
    assert levels == (0 if command == "rules" else len(GAMES))
    if command != "rules":
        for game in GAMES:
            assert f"computer players: {', '.join(difficulties(game))}" in out


def test_help_says_which_preset_each_game_key_plays(capsys: pytest.CaptureFixture[str]) -> None:
    """Two keys share one game (screw, chase): the help says which preset each of them starts from."""
    out = " ".join(help_text("play", capsys=capsys).split())
    for entry in ENTRIES:
        if len(entry.game.presets) > 1:
            assert f"--preset {entry.preset} (the default of {entry.key})" in out


def test_play_help_keeps_its_difficulty_choices(capsys: pytest.CaptureFixture[str]) -> None:
    out = help_text("play", capsys=capsys)
    assert "{easy,medium,hard}" in out and "--variant V" in out and "--preset P" in out


def test_the_commands_help_lists_the_commands_and_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    out = help_text(capsys=capsys)
    for command in ("play", "rules", "simulate", "host", "join"):
        assert re.search(rf"^    {command}  ", out, re.M), command
    for entry in ENTRIES:
        assert f"{entry.key} ({entry.title})" in " ".join(out.split())
    assert "parlour play --help" in out


@pytest.mark.parametrize("command", [[], ["play"], ["rules"], ["simulate"], ["host"], ["join"]])
def test_every_help_fits_80_columns(command: list[str]) -> None:
    """argparse wraps its own part to the terminal (COLUMNS); the lists written here are wrapped to fit too."""
    result = piped([*command, "--help"], env=clean_env(COLUMNS="80"))
    assert result.returncode == 0, result.stderr
    wide = [line for line in result.stdout.splitlines() if columns(line) > 79]
    assert wide == []


def test_host_and_join_help_name_their_options(capsys: pytest.CaptureFixture[str]) -> None:
    host = help_text("host", capsys=capsys)
    for option in ("--headless", "--bind", "--port", "--password", "--name", "--ssh-port", "--ssh-password"):
        assert option in host
    join = help_text("join", capsys=capsys)
    for option in ("HOST[:PORT]", "--name", "--password", "--table", "PARLOUR_PASSWORD"):
        assert option in join


# -- rules: formatted on a terminal, Markdown anywhere else --------------------------------------------------------
def summary(key: str | None, variants: tuple[str, ...] = ()) -> str:
    entries = [e for e in ENTRIES if key is None or e.key == key]
    return "\n".join(e.game.rules_summary(e.game.options(e.preset, variants)) for e in entries)


@pytest.mark.parametrize(
    "args, key, variants", [([], None, ()), (["chase", "--variant", "no-honour"], "chase", ("no-honour",))]
)
def test_piped_rules_are_the_markdown_byte_for_byte(
    args: list[str], key: str | None, variants: tuple[str, ...]
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", CLI, "rules", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        cwd=ROOT,
        env=clean_env(),
    )
    assert result.returncode == 0
    assert result.stdout == summary(key, variants).encode()
    assert result.stderr == b""


def markdown_marks(text: str) -> list[str]:
    """Lines of ``text`` that still show Markdown: ``**`` anywhere, or a heading's ``#``."""
    return [line for line in text.splitlines() if "**" in line or re.match(r"^\s*#+ ", line)]


def test_rules_on_a_terminal_are_formatted() -> None:
    run = run_cli(["rules", "chase"], stdout_tty=True, stderr_tty=False, width=120)
    assert run.status == 0 and run.stderr == ""
    text = plain(run.terminal)
    assert markdown_marks(text) == []
    assert "Chase the Ace" in text and "3 tokens" in text and "• " in text  # the words, and Rich's bullets
    assert "\x1b[1m" in run.terminal or "\x1b[1;" in run.terminal  # bold, where the Markdown had **
    assert max(columns(line.rstrip()) for line in text.splitlines()) <= 100  # prose no wider than RULES_WIDTH


def test_rules_of_every_game_on_a_terminal_show_no_markdown() -> None:
    run = run_cli(["rules"], stdout_tty=True, stderr_tty=False, width=80)
    text = plain(run.terminal)
    assert run.status == 0 and markdown_marks(text) == []
    for entry in ENTRIES:
        assert entry.game.rules_summary(entry.game.options(entry.preset)).splitlines()[0].lstrip("# ") in text
    assert max(columns(line.rstrip()) for line in text.splitlines()) <= 80


def test_no_color_keeps_the_formatting_without_colours() -> None:
    run = run_cli(["rules", "big2"], stdout_tty=True, stderr_tty=False, env=clean_env(NO_COLOR="1"))
    assert run.status == 0
    assert markdown_marks(plain(run.terminal)) == []
    codes = re.findall(r"\x1b\[([0-9;]*)m", run.terminal)
    assert codes, "bold and underline stay"
    colours = [c for c in codes if re.search(r"(^|;)(3[0-9]|4[0-9]|9[0-7]|10[0-7])(;|$)", c)]
    assert colours == []


def test_a_dumb_terminal_gets_plain_formatted_text() -> None:
    run = run_cli(["rules", "trash"], stdout_tty=True, stderr_tty=False, env=clean_env(TERM="dumb"))
    assert run.status == 0
    assert "\x1b" not in run.terminal
    assert markdown_marks(run.terminal) == []
    assert "Trash" in run.terminal


# -- simulate: a progress bar where a person watches ---------------------------------------------------------------
SIM = ["simulate", "chase", "--players", "4", "--games", "300", "--seed", "3"]


def without_timing(table: str) -> list[str]:
    """The table's lines but the one with the time taken ('1.23 s, 456.7 games/s')."""
    return [line for line in table.splitlines() if not re.match(r"^\d+\.\d+ s, ", line)]


def test_a_terminal_shows_a_progress_bar_and_the_same_figures() -> None:
    shown = run_cli(SIM, stdout_tty=False, stderr_tty=True)
    quiet = piped(SIM)
    assert shown.status == 0 and quiet.returncode == 0
    bar = plain(shown.terminal)
    assert "Playing Chase the Ace" in bar and "━" in bar
    assert re.search(r"\b\d+/300 games\b", bar), bar[-500:]
    assert quiet.stderr == ""  # piped: no bar, not a byte
    assert without_timing(shown.stdout) == without_timing(quiet.stdout)
    assert "Playing" not in shown.stdout and "\x1b" not in shown.stdout


def test_no_bar_with_json_even_on_a_terminal() -> None:
    run = run_cli([*SIM, "--json"], stdout_tty=False, stderr_tty=True)
    assert run.status == 0
    assert run.terminal == ""


def timeless(text: str) -> str:
    """JSON output with its timing figures (which no two runs share) replaced by a mark."""
    for field in TIMING_FIELDS:
        text, count = re.subn(rf'"{field}": [^,}}]+', f'"{field}": "~"', text)
        assert count == 1, field
    return text


def test_json_is_the_same_with_and_without_a_terminal() -> None:
    """Byte for byte but the timings: the terminal only turns each newline into CR LF, as any terminal does."""
    on_terminal = run_cli([*SIM, "--json"], stdout_tty=True, stderr_tty=True)
    quiet = piped([*SIM, "--json"])
    assert on_terminal.status == 0 and quiet.returncode == 0 and quiet.stderr == ""
    assert "\x1b" not in on_terminal.terminal
    assert timeless(on_terminal.terminal.replace("\r\n", "\n")) == timeless(quiet.stdout)
    assert json.loads(quiet.stdout)["games"] == 300


def test_simulate_reports_each_match_to_its_progress_callback() -> None:
    calls: list[tuple[int, int]] = []
    report = simulate("screw", players=3, games=4, seed=2, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert report == simulate("screw", players=3, games=4, seed=2) | {k: report[k] for k in TIMING_FIELDS}


def test_no_bar_asked_for_means_no_callback() -> None:
    with progress_bar("Playing", 3, show=False) as progress:
        assert progress is None


# -- the command's own usage, help and pager -----------------------------------------------------------------------
def test_replay_help_describes_the_viewer_and_check(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(help_text("replay", capsys=capsys).split())
    assert "Watch a kept game again in the app, a move at a time" in text
    assert "Right (or l) the next move" in text and "Esc or q to leave" in text
    assert "With --check, play it again through the engine" in text


@pytest.mark.parametrize(
    ("args", "usage"),
    [
        (["rules", "nosuch"], "usage: parlour rules "),
        (["simulate", "screw", "--players", "99", "--games", "1"], "usage: parlour simulate "),
        (["play", "nosuch"], "usage: parlour play "),
    ],
)
def test_an_error_found_after_parsing_shows_the_commands_usage(args: list[str], usage: str) -> None:
    run = piped(args)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.startswith(usage), run.stderr
    assert run.stderr.splitlines()[-1].startswith("parlour: error: ")


def rules_lines(key: str) -> list[str]:
    entry = next(e for e in ENTRIES if e.key == key)
    return entry.game.rules_summary(entry.game.options(entry.preset)).rstrip().splitlines()


def test_rules_taller_than_the_terminal_open_at_their_top_in_a_pager() -> None:
    first, last = rules_lines("rank")[0].lstrip("# "), rules_lines("rank")[-1].lstrip("- ")
    run = run_on_terminal(
        ["rules", "rank"], steps=[(first, b"q")], size=(80, 24), env=clean_env(PAGER="", LESS=""), timeout=60
    )
    assert run.status == 0 and run.typed == 1
    text = plain(run.terminal)
    assert first in text
    assert last not in " ".join(text.split()), "the pager shows the top and waits: the end is not written"


def test_rules_that_fit_the_terminal_are_written_without_a_pager() -> None:
    run = run_on_terminal(["rules", "screw"], size=(100, 200), env=clean_env(PAGER="", LESS=""), timeout=60)
    assert run.status == 0 and run.typed == 0
    assert rules_lines("screw")[-1].lstrip("- ") in " ".join(plain(run.terminal).split())
