"""The ``parlour`` command line: its output, its JSON and how it treats bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine import __version__
from engine.games import get_entry
from engine.simulate import TIMING_FIELDS
from tui.cli import main


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The console script as a user runs it, in its own process."""
    code = "import sys; from tui.cli import run; sys.argv[0] = 'parlour'; run()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )


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


def simulate_json(*extra: str) -> dict:
    result = run_cli("simulate", "chase", "--players", "4", "--games", "30", "--seed", "5", "--json", *extra)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


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
        (["play", "chase", "--players", "lots"], "invalid int value"),
        (["play", "chase", "--variant", "jokers-wild"], "unknown variant"),
        (["play", "chase", "--preset", "poker"], "unknown preset"),
        (["play", "chase", "--difficulty", "godlike"], "invalid choice"),
        (["simulate", "chase", "--players", "3"], "required"),
        (["simulate", "chase", "--players", "3", "--games", "0"], "at least 1"),
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
