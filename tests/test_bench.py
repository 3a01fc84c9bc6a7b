"""``benchmarks/bench.py``: each measurement gives positive numbers with tiny sizes, the table and the JSON show every
row, and bad arguments give one sentence. A real run takes a minute or more, so the parts are tested one by one here
with tiny sizes (the app's start-up and quit, which start the app on pseudo-terminals, are stood in for by fixed
numbers), and the command itself once, on its LAN part. Nothing here asserts how fast anything is."""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import bench
import parlour_bench
import pytest
from parlour_bench import app, engine, lan, runner
from parlour_bench.measure import Row, alternate, medians, percentile, rate
from parlour_bench.movegen import fast_plays, naive_plays, random_hands, situations

from engine.games.big2 import rules as big2

ROOT = Path(__file__).resolve().parent.parent
BENCH_MODULES = {"benchmarks", "parlour_bench", "bench"}
"""What the benchmarks' code is imported as."""

TINY = runner.Plan(
    app_runs=1,
    quit_runs=1,
    hand_rounds=1,
    hand_updates=1,
    frame_seconds=0.1,
    engine_rounds=1,
    engine_seconds=0.005,
    movegen_rounds=1,
    movegen_hands=1,
    movegen_games=1,
    decision_samples=2,
    decision_seconds=0.01,
    lan_rounds=1,
    lan_moves=3,
    lan_steps=(1, 2),
    lan_seconds=0.3,
    lan_budget=5.0,
    lan_think=0.01,
)


# -- the measuring -------------------------------------------------------------------------------------------------
def test_measures_alternate_within_each_round() -> None:
    order: list[str] = []
    results = alternate([lambda: order.append("a") or 1.0, lambda: order.append("b") or 2.0], 3)
    assert order == ["a", "b", "a", "b", "a", "b"]
    assert results == [[1.0] * 3, [2.0] * 3]
    values = iter([5.0, 1.0, 1.0, 9.0, 3.0, 2.0])
    assert medians([lambda: next(values), lambda: next(values)], 3) == [3.0, 2.0]


def test_percentile_and_rate() -> None:
    assert percentile(list(range(1, 101)), 0.95) == 96
    assert percentile([0.3, 0.1], 0.95) == 0.3  # a handful of values: the largest
    assert rate(lambda: 2, 0.01) > 0


def test_a_ratio_is_the_figure_over_its_reference() -> None:
    row = Row("engine", "x", 50.0, "games/s", reference=200.0)
    assert row.ratio == 0.25 and row.to_json()["ratio"] == 0.25
    assert Row("engine", "x", None, "games/s", reference=200.0, error="broke").ratio is None


# -- the engine ----------------------------------------------------------------------------------------------------
def test_every_game_key_is_benched() -> None:
    assert set(engine.GAME_KEYS) == {"screw", "chase", "big2", "trash", "rank"}


@pytest.mark.parametrize("key", engine.GAME_KEYS)
def test_games_per_second_of_each_game(key: str) -> None:
    assert engine.random_game(key, seed=3) > 0
    row = engine.games_per_second(key, rounds=1, seconds=0.005)
    assert row.error is None
    assert row.value is not None and row.value > 0 and row.reference is not None and row.reference > 0
    assert row.unit == "games/s" and "engine loop" in row.reference_name


def test_the_naive_generator_finds_the_engines_plays() -> None:
    generate = fast_plays()
    for hand in random_hands(2, seed=5):
        for table in situations().values():
            assert {c.mask for c in naive_plays(hand, table)} == {c.mask for c in generate(hand, table, 0)}


def test_move_generation_rows() -> None:
    rows = engine.movegen_rows(rounds=1, hands=1, games=1)
    assert len(rows) == len(situations()) + 1
    for row in rows:
        assert row.error is None and row.value and row.reference and row.value > row.reference > 0


@pytest.mark.parametrize("key", engine.GAME_KEYS)
def test_decision_times_of_every_level(key: str) -> None:
    assert engine.levels(key) == ("easy", "medium", "hard")
    for level in engine.levels(key):
        row = engine.decision_row(key, level, samples=2, seconds=0.01)
        assert row.error is None and row.value is not None and row.value > 0 and row.unit == "ms"
        assert row.extra["p95_ms"] >= row.value and row.extra["decisions"] >= 1
        assert (row.passed is not None) == (level == "hard")


def test_a_hard_bot_over_its_limits_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "decision_times", lambda *args: [0.5, 0.6, 2.5])
    assert engine.decision_row("big2", "hard", 3, 1.0).passed is False
    monkeypatch.setattr(engine, "decision_times", lambda *args: [0.5, 0.6, 0.7])
    assert engine.decision_row("big2", "hard", 3, 1.0).passed is True


# -- the LAN -------------------------------------------------------------------------------------------------------
def test_lan_round_trip_and_tables() -> None:
    trip = lan.round_trip_row(rounds=1, moves=3)
    assert trip.error is None and trip.value and trip.reference and trip.value > 0 and trip.reference > 0
    assert trip.extra["moves"] == 3
    served = lan.concurrent_row([1, 2], seconds=0.2, budget=5.0, think=0.01)
    assert served.error is None and served.unit == "tables"
    assert served.value in (0.0, 1.0, 2.0) and served.passed == (served.value > 0)
    assert served.extra["p95_ms_at_1_tables"] > 0


def test_the_ladder_stops_at_the_first_step_over_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    tried: list[int] = []

    def fake_load(tables: int, seconds: float, think: float) -> list[float]:
        tried.append(tables)
        return [0.01 * tables] * 20  # 10 ms a table: over 100 ms from 16 tables

    monkeypatch.setattr(lan, "load", fake_load)
    row = lan.concurrent_row([1, 4, 8, 16, 32], seconds=1.0, budget=60.0)
    assert tried == [1, 4, 8, 16]
    assert row.value == 8 and row.passed and row.extra["stopped_over_the_limit"] == 1.0
    assert "at least" not in runner.figure_text(row)
    tried.clear()
    row = lan.concurrent_row([1, 2], seconds=1.0, budget=60.0)
    assert tried == [1, 2] and row.value == 2 and runner.figure_text(row).startswith("at least 2 tables")


# -- the runner, its table and its JSON ----------------------------------------------------------------------------
def _fake_app() -> types.SimpleNamespace:
    """The app's measurements as fixed numbers (seconds): a menu and one table, their reference, a quit."""

    def figure(name: str, app: float, reference: float) -> Any:
        return types.SimpleNamespace(name=name, app=app, reference=reference)

    return types.SimpleNamespace(
        startup_figures=lambda runs: [figure("menu", 0.3, 0.2), figure("play big2", 0.4, 0.2)],
        quit_figures=lambda runs: [figure("play big2", 0.03, 0.2)],
        static_update=lambda updates: 0.001,
        hand_update=lambda cards, updates: 0.002 * cards / 13,
        frame_gaps=lambda seconds: 0.12,
    )


def test_the_app_rows_and_their_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parlour_bench, "app", _fake_app())
    rows = {row.name: row for row in runner.app_part(TINY, lambda what: None)}
    start = rows["start-up to the first frame: play big2"]
    assert (start.value, start.reference, start.ratio, start.passed) == (pytest.approx(400), 200, 2.0, False)
    assert rows["start-up to the first frame: menu"].passed is None  # the limit is the tables'
    assert rows["ctrl+q to the process's end: play big2"].passed is True
    assert rows["a hand of 20 cards redrawn"].ratio == pytest.approx(20 / 13 * 2)
    assert rows["the longest frame while hard Big Two bots think"].passed is False


def test_a_failing_measurement_is_one_rows_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = _fake_app()
    broken.frame_gaps = lambda seconds: (_ for _ in ()).throw(RuntimeError("no frame was drawn\nmore"))
    monkeypatch.setattr(parlour_bench, "app", broken)
    rows = runner.app_part(TINY, lambda what: None)
    assert rows[-1].value is None and rows[-1].error == "no frame was drawn"
    assert "not measured: no frame was drawn" in runner.figure_text(rows[-1])


@pytest.fixture(scope="module")
def report() -> runner.Report:
    """One whole run with tiny sizes (the app stood in for)."""
    patch = pytest.MonkeyPatch()
    patch.setattr(parlour_bench, "app", _fake_app())
    try:
        said: list[str] = []
        made = runner.run(quick=True, say=said.append, plan=TINY)
        assert said  # it says what it measures
        return made
    finally:
        patch.undo()


def _expected_names() -> set[str]:
    names = {f"random games through the table ({engine.describe(key)})" for key in engine.GAME_KEYS}
    names |= {
        f"{level} bot decision ({engine.describe(key)})" for key in engine.GAME_KEYS for level in engine.levels(key)
    }
    names |= {f"Big Two legal plays, {situation} (13-card hands)" for situation in situations()}
    return names


def test_the_run_has_every_row_with_a_unit(report: runner.Report) -> None:
    names = {row.name for row in report.rows}
    assert _expected_names() <= names
    assert {row.section for row in report.rows} == {"app", "engine", "bots", "lan"}
    for row in report.rows:
        assert row.error is None, (row.name, row.error)
        assert row.value is not None and row.unit
    assert set(report.part_seconds) == {"app", "engine", "bots", "lan"}


def test_the_json_has_every_row(report: runner.Report) -> None:
    out = io.StringIO()
    runner.write(report, out, as_json=True, terminal=False)
    data = json.loads(out.getvalue())
    assert data["quick"] is True and data["machine"]["cpus"] >= 1
    assert data["machine"]["big2_core"] == big2.CORE_KIND  # compiled at install, or plain Python
    assert [row["name"] for row in data["rows"]] == [row.name for row in report.rows]
    assert all(row["unit"] and "ratio" in row for row in data["rows"])


@pytest.mark.parametrize("terminal", [False, True])
def test_the_table_has_every_row(report: runner.Report, terminal: bool) -> None:
    out = io.StringIO()
    runner.write(report, out, as_json=False, terminal=terminal)
    text = out.getvalue()
    if not terminal:
        for row in report.rows:
            assert row.name in text and runner.figure_text(row) in text
        assert "\x1b[" not in text
    for title in runner.SECTIONS.values():
        assert title in text
    assert "x the reference" in text and "games/s" in text and " ms" in text


# -- the app's probes, in this process ----------------------------------------------------------------------------
def test_the_redraw_probes_measure_a_hand_and_a_static() -> None:
    """Seconds per redraw, the hand's and one Static's, measured the same way (how long they take is the bench's
    figure, not this test's)."""
    assert app.static_update(5) > 0
    assert app.hand_update(13, 5) > 0


# -- the command ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [["--fast"], ["now"], ["--json=yes"], ["--part", "gpu"]])
def test_bad_arguments_give_one_sentence(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench.main(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("benchmarks/bench.py: error:")


def test_the_command_prints_the_json_of_the_parts_asked_for(
    report: runner.Report, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    asked: list[tuple[bool, list[str]]] = []

    def fake_run(quick: bool, say: Any, parts: Any) -> runner.Report:
        asked.append((quick, [part.__name__ for part in parts]))
        return report

    monkeypatch.setattr(runner, "run", fake_run)
    assert bench.main(["--json", "--quick"]) == 0
    assert asked == [(True, ["app_part", "engine_part", "bots_part", "lan_part"])]
    assert len(json.loads(capsys.readouterr().out)["rows"]) == len(report.rows)
    assert bench.main(["--part", "lan", "--part", "engine"]) == 0
    assert asked[-1] == (False, ["lan_part", "engine_part"])
    assert "The engine" in capsys.readouterr().out


def test_bench_help_fits_80_columns(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--help"])
    assert max(len(line) for line in capsys.readouterr().out.splitlines()) <= 80


def test_the_script_runs_from_the_repository_root() -> None:
    """``python benchmarks/bench.py --quick --json`` as documented, on its LAN part (the quickest): one JSON object
    whose rows were all measured (the ladder of tables one host serves included: its players all come from
    127.0.0.1)."""
    done = subprocess.run(
        [sys.executable, "benchmarks/bench.py", "--quick", "--json", "--part", "lan"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["quick"] is True and set(data["part_seconds"]) == {"lan"}
    assert len(data["rows"]) == 2
    for row in data["rows"]:
        assert row["section"] == "lan" and row["error"] is None and row["value"] is not None, row


def test_the_product_never_imports_the_benchmarks() -> None:
    """The benchmarks are not in the wheel (its packages are engine and tui): nothing there may import them."""
    found = []
    for path in sorted([*(ROOT / "engine").rglob("*.py"), *(ROOT / "tui").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            found += [f"{path.relative_to(ROOT)}: {name}" for name in names if name.split(".")[0] in BENCH_MODULES]
    assert found == []
