"""``parlour bench``: Parlour's speed, each figure measured beside its reference in the same run.

:mod:`tui.bench.runner` runs the parts and prints the table (or the JSON); :mod:`tui.bench.app` measures the app,
:mod:`tui.bench.engine` the engine and the bots, :mod:`tui.bench.lan` LAN play; :mod:`tui.bench.measure` holds
what they share (alternating rounds, medians, rows) and :mod:`tui.bench.movegen` the naive Big Two move generator
the engine's is measured against. Nothing here is imported unless ``parlour bench`` (or a benchmark script) runs.
"""
