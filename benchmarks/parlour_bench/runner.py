"""``benchmarks/bench.py``: every figure of Parlour's speed beside its reference, measured in one run, and its table.

Each figure is measured in the same run as its reference, in alternating rounds, and is the median of them (see
:mod:`parlour_bench.measure`), so a ratio holds on a busy machine even when the absolute figures do not. The parts:

- the app (:mod:`parlour_bench.app`): start-up to the first frame and ``ctrl+q`` to exit against a one-Static Textual
  app, a hand's redraw against one ``Static.update``, and the longest frame while a bot thinks;
- the engine (:mod:`parlour_bench.engine`): random games per second through the table against the engine loop of each
  game, and Big Two move generation against its naive generator;
- the bots: every level's decision time per game, ``hard`` checked against its limits;
- the LAN (:mod:`parlour_bench.lan`): a move's round trip against a loopback echo, and how many tables one host serves.

A part that fails gives its rows an error (one sentence) and the others go on. ``--quick`` measures everything with
fewer rounds and smaller samples, within a minute on a 2-core machine; the full run takes several minutes.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from parlour_bench.measure import Row, failed, medians

THINK = 0.5
"""Seconds a LAN player thinks before a move, on average (as :data:`parlour_bench.lan.THINK`: that module is imported
only when its part runs)."""

START_LIMIT = 1.5
"""A table screen's start-up may take at most this many times the one-Static app's."""
QUIT_LIMIT = 0.05
"""Seconds from ``ctrl+q`` to the process's end, at most."""
FRAME_LIMIT = 0.1
"""Seconds: the longest a frame may wait while a bot thinks."""


@dataclass(frozen=True)
class Plan:
    """How much of everything a run measures."""

    app_runs: int
    """Rounds of start-up of every screen and its reference."""
    quit_runs: int
    """Rounds of quitting (each starts the app first, so a round costs more than a start-up's)."""
    hand_rounds: int
    hand_updates: int
    """Redraws per round of a hand (and of the reference Static)."""
    frame_seconds: float
    engine_rounds: int
    engine_seconds: float
    """Seconds of play per round, per game and path."""
    movegen_rounds: int
    movegen_hands: int
    movegen_games: int
    decision_samples: int
    decision_seconds: float
    """Seconds at most per game and level (at least one decision is timed)."""
    lan_rounds: int
    lan_moves: int
    lan_steps: tuple[int, ...]
    lan_seconds: float
    lan_budget: float
    lan_think: float
    """Seconds a LAN player thinks before a move, on average."""


QUICK = Plan(
    app_runs=2,
    quit_runs=1,
    hand_rounds=1,
    hand_updates=20,
    frame_seconds=1.5,
    engine_rounds=3,
    engine_seconds=0.08,
    movegen_rounds=3,
    movegen_hands=1,
    movegen_games=1,
    decision_samples=12,
    decision_seconds=1.5,
    lan_rounds=3,
    lan_moves=20,
    lan_steps=(16, 64),
    lan_seconds=0.8,
    lan_budget=6.0,
    lan_think=THINK,
)
FULL = Plan(
    app_runs=11,
    quit_runs=7,
    hand_rounds=7,
    hand_updates=200,
    frame_seconds=10.0,
    engine_rounds=7,
    engine_seconds=1.0,
    movegen_rounds=5,
    movegen_hands=20,
    movegen_games=4,
    decision_samples=200,
    decision_seconds=25.0,
    lan_rounds=7,
    lan_moves=100,
    lan_steps=(1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256),
    lan_seconds=4.0,
    lan_budget=150.0,
    lan_think=THINK,
)


@dataclass
class Report:
    rows: list[Row]
    quick: bool
    seconds: float
    date: str
    part_seconds: dict[str, float]
    """Seconds each part took (app, engine, bots, lan): what to trim when a run takes too long."""

    def to_json(self) -> dict[str, Any]:
        return {
            "quick": self.quick,
            "date": self.date,
            "seconds": round(self.seconds, 1),
            "part_seconds": {part: round(seconds, 1) for part, seconds in self.part_seconds.items()},
            "machine": machine(),
            "rows": [row.to_json() for row in self.rows],
        }


def machine() -> dict[str, Any]:
    """What the figures were measured on (and which Big Two move core ran: compiled at install or plain Python)."""
    from engine.games.big2 import rules as big2

    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.release()}",
        "big2_core": big2.CORE_KIND,
    }


Say = Callable[[str], None]


# -- the app (app.py) --------------------------------------------------------------------------------------------
def app_part(plan: Plan, say: Say) -> list[Row]:
    from parlour_bench import app

    rows: list[Row] = []
    say("start-up of the menu and of each table")
    reference = "a Textual app with one Static"
    try:
        for figure in app.startup_figures(runs=plan.app_runs):
            row = Row(
                "app",
                f"start-up to the first frame: {figure.name}",
                figure.app * 1000,
                "ms",
                reference=figure.reference * 1000,
                reference_name=reference,
            )
            if figure.name.startswith("play "):
                row.limit = f"at most {START_LIMIT:g}x the reference"
                row.passed = figure.app <= START_LIMIT * figure.reference
            rows.append(row)
    except Exception as err:
        rows.append(failed("app", "start-up to the first frame", "ms", err, reference))
    say("quitting")
    try:
        for figure in app.quit_figures(runs=plan.quit_runs):
            rows.append(
                Row(
                    "app",
                    f"ctrl+q to the process's end: {figure.name}",
                    figure.app * 1000,
                    "ms",
                    reference=figure.reference * 1000,
                    reference_name=f"{reference}, quit the same way",
                    limit=f"under {QUIT_LIMIT * 1000:.0f} ms",
                    passed=figure.app < QUIT_LIMIT,
                )
            )
    except Exception as err:
        rows.append(failed("app", "ctrl+q to the process's end", "ms", err, reference))
    say("a hand's redraw")
    names = ["a hand of 13 cards redrawn", "a hand of 20 cards redrawn"]
    try:
        updates = plan.hand_updates
        reference_time, *hands = medians(
            [
                lambda: app.static_update(updates),
                lambda: app.hand_update(13, updates),
                lambda: app.hand_update(20, updates),
            ],
            plan.hand_rounds,
        )
        for name, seconds in zip(names, hands, strict=True):
            rows.append(
                Row(
                    "app",
                    name,
                    seconds * 1000,
                    "ms",
                    reference=reference_time * 1000,
                    reference_name="one Static.update, refreshed the same way",
                )
            )
    except Exception as err:
        rows += [failed("app", name, "ms", err, "one Static.update") for name in names]
    say("frames while a bot thinks")
    name = "the longest frame while hard Big Two bots think"
    try:
        gap = app.frame_gaps(plan.frame_seconds)
        rows.append(
            Row(
                "app",
                name,
                gap * 1000,
                "ms",
                limit=f"at most {FRAME_LIMIT * 1000:.0f} ms",
                passed=gap <= FRAME_LIMIT,
            )
        )
    except Exception as err:
        rows.append(failed("app", name, "ms", err))
    return rows


# -- the engine and the bots ----------------------------------------------------------------------------------------
def engine_part(plan: Plan, say: Say) -> list[Row]:
    from parlour_bench import engine

    rows = engine.engine_rows(plan.engine_rounds, plan.engine_seconds, report=lambda what: say(what))
    say("Big Two move generation")
    rows += engine.movegen_rows(plan.movegen_rounds, plan.movegen_hands, plan.movegen_games)
    return rows


def bots_part(plan: Plan, say: Say) -> list[Row]:
    from parlour_bench import engine

    rows = []
    for key in engine.GAME_KEYS:
        for level in engine.levels(key):
            say(f"{level} decisions of {key}")
            rows.append(engine.decision_row(key, level, plan.decision_samples, plan.decision_seconds))
    return rows


def lan_part(plan: Plan, say: Say) -> list[Row]:
    try:
        from parlour_bench import lan
    except Exception as err:  # pragma: no cover - the LAN code is part of the package
        return [failed("lan", "LAN", "ms", err)]
    say("a LAN move's round trip")
    rows = [lan.round_trip_row(plan.lan_rounds, plan.lan_moves)]
    say("LAN tables one host serves")
    steps = [step for step in plan.lan_steps if step <= lan.most_tables()] or [lan.most_tables()]
    rows.append(lan.concurrent_row(steps, plan.lan_seconds, plan.lan_budget, plan.lan_think))
    return rows


Part = Callable[[Plan, Say], list[Row]]
PARTS: tuple[Part, ...] = (app_part, engine_part, bots_part, lan_part)
PART_NAMES: dict[str, Part] = {part.__name__.removesuffix("_part"): part for part in PARTS}
"""Each part by the name ``--part`` takes: app, engine, bots, lan."""


def run(quick: bool = False, say: Say | None = None, parts: Sequence[Part] = PARTS, plan: Plan | None = None) -> Report:
    """Measure everything (``quick``: with the small plan, unless ``plan`` is given); ``say`` is told what is
    being measured."""
    plan = plan if plan is not None else QUICK if quick else FULL
    tell: Say = say if say is not None else (lambda what: None)
    started = time.perf_counter()
    date = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    rows: list[Row] = []
    spent: dict[str, float] = {}
    for part in parts:
        begun = time.perf_counter()
        rows += part(plan, tell)
        spent[part.__name__.removesuffix("_part")] = time.perf_counter() - begun
    return Report(rows, quick, time.perf_counter() - started, date, spent)


# -- how the figures are written --------------------------------------------------------------------------------------
def number(value: float, unit: str) -> str:
    """A figure with its unit, to the precision it deserves."""
    if unit in ("tables",):
        return f"{value:,.0f} {unit}"
    if value >= 100:
        text = f"{value:,.0f}"
    elif value >= 10:
        text = f"{value:.1f}"
    elif value >= 1:
        text = f"{value:.2f}"
    else:
        text = f"{value:.3f}"
    return f"{text} {unit}"


def figure_text(row: Row) -> str:
    if row.value is None:
        return f"not measured: {row.error}"
    text = number(row.value, row.unit)
    if row.extra.get("stopped_over_the_limit") == 0.0:
        text = f"at least {text}"  # the ladder ended at its top (or its time) with every step within the limit
    if "p95_ms" in row.extra:
        text += f" (95th percentile {number(row.extra['p95_ms'], 'ms')})"
    return text


def reference_text(row: Row) -> str:
    if row.reference is None:
        return row.reference_name
    return f"{number(row.reference, row.unit)}: {row.reference_name}"


def ratio_text(row: Row) -> str:
    ratio = row.ratio
    if ratio is None:
        return ""
    if ratio >= 100:
        return f"{ratio:,.0f}x"
    return f"{ratio:.2f}x"


def limit_text(row: Row) -> str:
    if not row.limit:
        return ""
    if row.passed is None:
        return row.limit
    return f"{'pass' if row.passed else 'FAIL'}: {row.limit}"


SECTIONS = {"app": "The app", "engine": "The engine", "bots": "The bots", "lan": "LAN play"}
HEADINGS = ("measure", "figure", "reference (same run)", "x the reference", "limit")


def cells(row: Row) -> tuple[str, str, str, str, str]:
    return (row.name, figure_text(row), reference_text(row), ratio_text(row), limit_text(row))


def heading(report: Report) -> str:
    kind = "quick run" if report.quick else "full run"
    parts = ", ".join(f"{part} {seconds:.0f} s" for part, seconds in report.part_seconds.items())
    return (
        f"benchmarks/bench.py, {kind} of {report.date} on {os.cpu_count()} cores: {report.seconds:.0f} s ({parts}).\n"
        "Each figure and its reference are medians of alternating rounds in this run; a ratio is the figure "
        f"divided by its reference. Big Two's move core: {machine()['big2_core']}."
    )


def plain(report: Report, out: TextIO) -> None:
    """The table as plain text: one block per section, aligned columns."""
    out.write(heading(report) + "\n")
    for section, title in SECTIONS.items():
        rows = [cells(row) for row in report.rows if row.section == section]
        if not rows:
            continue
        table = [HEADINGS, *rows]
        widths = [max(len(line[column]) for line in table) for column in range(len(HEADINGS))]
        out.write(f"\n{title}\n")
        for line in table:
            out.write("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip() + "\n")


def rich_table(report: Report, out: TextIO) -> None:
    """The table for a terminal (Rich): one table per section, a failed limit in red."""
    from rich.console import Console
    from rich.table import Table as RichTable
    from rich.text import Text

    console = Console(file=out)
    console.print(heading(report))
    for section, title in SECTIONS.items():
        rows = [row for row in report.rows if row.section == section]
        if not rows:
            continue
        table = RichTable(title=title, title_justify="left", expand=False)
        for name in HEADINGS:
            table.add_column(name, justify="right" if name == "x the reference" else "left")
        for row in rows:
            name, figure, reference, ratio, limit = cells(row)
            style = "red" if row.passed is False or row.value is None else ("green" if row.passed else "")
            table.add_row(
                name, Text(figure, style="red" if row.value is None else ""), reference, ratio, Text(limit, style=style)
            )
        console.print(table)


def write(report: Report, out: TextIO, as_json: bool, terminal: bool) -> None:
    if as_json:
        out.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
    elif terminal:
        rich_table(report, out)
    else:
        plain(report, out)


def status(show: bool) -> Any:
    """A status line on stderr naming what is being measured (a context manager giving ``say``), or none."""
    import contextlib

    if not show:
        return contextlib.nullcontext(lambda what: None)
    from rich.console import Console

    @contextlib.contextmanager
    def shown() -> Any:
        console = Console(stderr=True)
        with console.status("bench") as line:

            def say(what: str) -> None:
                line.update(f"bench: measuring {what}")

            yield say

    return shown()


def main(
    quick: bool,
    as_json: bool,
    out: TextIO,
    terminal: bool,
    show_status: bool,
    parts: Sequence[Part] = PARTS,
) -> int:
    """Measure ``parts`` (every one by default), then print the table on ``out`` (Rich on a ``terminal``, else plain
    text) or the JSON; ``show_status``: name what is being measured on stderr meanwhile. Status 0: a figure that
    could not be measured, or a limit not kept, is in the table, not in the status."""
    with status(show_status) as say:
        report = run(quick, say, parts)
    write(report, out, as_json, terminal)
    return 0
