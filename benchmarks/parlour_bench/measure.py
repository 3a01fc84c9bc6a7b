"""What every figure of ``benchmarks/bench.py`` is made of: rounds taken in turn, medians, percentiles and rows.

A figure and its reference are measured in alternating rounds (reference, subject, reference, subject, ...) and
each is the median of its rounds: a machine that gets busier halfway through weighs on both alike, and one slow
round does not move the figure. A ratio is always the figure divided by its reference, in the same unit.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

Measure = Callable[[], float]


def alternate(measures: Sequence[Measure], rounds: int) -> list[list[float]]:
    """Every measure's results of ``rounds`` rounds, the measures taken in turn within each round."""
    results: list[list[float]] = [[] for _ in measures]
    for _ in range(max(1, rounds)):
        for index, measure in enumerate(measures):
            results[index].append(measure())
    return results


def medians(measures: Sequence[Measure], rounds: int) -> list[float]:
    """The median of each measure over ``rounds`` alternating rounds."""
    return [statistics.median(values) for values in alternate(measures, rounds)]


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank; the largest for a handful of values)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def rate(work: Callable[[], int], seconds: float) -> float:
    """Units of work per second: ``work`` (which returns how many units it did) is called until ``seconds`` have
    passed, at least once."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


@dataclass
class Row:
    """One line of the bench's table (and one object of its JSON)."""

    section: str
    """The group it is shown under: app, engine, bots, lan."""
    name: str
    """What was measured, in plain words."""
    value: float | None
    """The figure, in ``unit`` (None: it could not be measured; ``error`` says why)."""
    unit: str
    reference: float | None = None
    """The reference's figure, in the same unit, measured in the same run."""
    reference_name: str = ""
    """What the reference is."""
    limit: str = ""
    """The bound the figure must keep (empty: none), in words."""
    passed: bool | None = None
    """Whether the figure keeps ``limit`` (None: no limit, or not measured)."""
    extra: dict[str, float] = field(default_factory=dict)
    """Further numbers of the row (a 95th percentile, a count of samples), each name saying its unit."""
    error: str | None = None
    """Why there is no figure: one sentence."""

    @property
    def ratio(self) -> float | None:
        """The figure as a multiple of its reference ("x the reference")."""
        if self.value is None or not self.reference:
            return None
        return self.value / self.reference

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["ratio"] = None if self.ratio is None else round(self.ratio, 3)
        for key in ("value", "reference"):
            if isinstance(data[key], float):
                data[key] = round(data[key], 6)
        data["extra"] = {key: round(value, 6) for key, value in self.extra.items()}
        return data


def failed(section: str, name: str, unit: str, err: BaseException, reference_name: str = "") -> Row:
    """The row of a figure that could not be measured, with the reason in one sentence."""
    said = str(err).strip() or type(err).__name__
    return Row(section, name, None, unit, reference_name=reference_name, error=said.splitlines()[0])
