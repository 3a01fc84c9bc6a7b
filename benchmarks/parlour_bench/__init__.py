"""The code behind ``benchmarks/bench.py``: Parlour's speed, each figure measured beside its reference in one run.

:mod:`parlour_bench.runner` runs the parts and prints the table (or the JSON); :mod:`parlour_bench.app` measures the
app, :mod:`parlour_bench.engine` the engine and the bots, :mod:`parlour_bench.lan` LAN play (with the host and its
players of :mod:`parlour_bench.loopback`); :mod:`parlour_bench.measure` holds what they share (alternating rounds,
medians, rows) and :mod:`parlour_bench.movegen` the naive Big Two move generator the engine's is measured against.

Not part of Parlour (not in the wheel; nothing in ``engine`` or ``tui`` imports it): the scripts of ``benchmarks/``
import it as a sibling (``.venv/bin/python benchmarks/bench.py`` puts ``benchmarks/`` first on the path) and import
Parlour as any program does.
"""
