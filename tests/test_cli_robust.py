"""``parlour`` as a hostile or unlucky user meets it (issue 26, point 8): Ctrl-C on ``simulate --jobs N``, seeds
at the edges of their documented range, and outputs that cannot write every character.

Each runs ``parlour`` in a real process (a pseudo-terminal where the terminal matters): signals, encodings and
exit statuses are the process's own."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest
from terminal import CLI, ROOT, clean_env

from engine.simulate import TIMING_FIELDS, simulate
from engine.table import MAX_SEED
from tui.cli import main, seed_number


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CLI, *args],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
        errors="strict",  # (what the child wrote must be text: a replaced character arrives as "?")
        timeout=120,
        cwd=ROOT,
        env=env if env is not None else clean_env(),
    )


# -- --seed: the documented range, and refusals that quote what was typed ------------------------------------------
def test_the_help_and_the_refusal_say_the_same_range() -> None:
    for command in ("play", "simulate"):
        shown = run_cli(command, "--help")
        assert f"from 0 to {MAX_SEED}" in " ".join(shown.stdout.split())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"`--seed S`: a whole number from 0 to {MAX_SEED}" in readme


@pytest.mark.parametrize("typed", ["0", "7", "007", "1_000", " 12 ", str(MAX_SEED), "0" * 30 + "5"])
def test_a_seed_in_the_range_is_taken(typed: str) -> None:
    assert seed_number(typed) == int(typed)


@pytest.mark.parametrize(
    "typed",
    [
        "-1",
        "-0005",
        str(MAX_SEED + 1),
        "1_0000_0000_0000_0000_0000",
        pytest.param("9" * 5000, id="5000-digits"),  # (int() takes no more than 4300 digits)
        "+" + "1" * 25,
    ],
)
def test_a_seed_out_of_range_is_refused_quoting_what_was_typed(typed: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        seed_number(typed)
    assert str(refused.value) == f"a seed is a whole number from 0 to {MAX_SEED}, not {typed[:40]!r}"


def test_simulate_takes_the_largest_seed_in_any_number_of_processes(capsys: pytest.CaptureFixture[str]) -> None:
    """Match ``i`` is dealt from ``seed * 1000003 + i`` modulo 2**63, so the largest seed is as good as any (it
    used to be refused quoting a match's seed, a number nobody typed)."""
    reports = []
    for jobs in ("1", "2"):
        args = ["simulate", "chase", "--players", "3", "--games", "3", "--bots", "easy", "--json", "--jobs", jobs]
        assert main([*args, "--seed", str(MAX_SEED)]) == 0
        report = json.loads(capsys.readouterr().out)
        reports.append({key: value for key, value in report.items() if key not in TIMING_FIELDS})
    assert reports[0] == reports[1]
    assert reports[0]["seed"] == MAX_SEED and reports[0]["games"] == 3


def test_small_seeds_deal_the_matches_they_always_dealt() -> None:
    """The modulo changes no seed below 2**63 / 1000003: every figure measured before still holds."""
    from engine.table import Table

    report = simulate("screw", players=3, games=2, seed=5, bots=["easy"])
    wins = [0, 0, 0]
    for index in range(2):
        table = Table.create("screw", 3, seed=5 * 1_000_003 + index, bots=["easy"] * 3)
        table.run()
        assert table.state.result is not None
        for seat in table.state.result.winners:
            wins[seat] += 1
    assert [seat["wins"] for seat in report["seats"]] == wins


def test_a_refused_seed_on_the_command_line_quotes_the_text() -> None:
    result = run_cli("simulate", "chase", "--players", "3", "--games", "2", "--seed", "-0005")
    assert result.returncode == 2
    assert f"argument --seed: a seed is a whole number from 0 to {MAX_SEED}, not '-0005'" in result.stderr
    assert "Traceback" not in result.stderr
