"""A terminal driver that ends the process once a text is drawn: what ``benchmarks/startup_instructions.py`` counts.

Named by ``TEXTUAL_DRIVER=parlour_bench.first_frame:FirstFrameDriver`` (Textual's public way to choose the driver),
with the text in ``$PARLOUR_BENCH_MARKER``: it is Textual's own :class:`LinuxDriver` until the first write that holds
the text; then it writes ``[first frame]`` to the terminal and ends the process with ``SIGTERM``, at once, so a count
of instructions (callgrind, which writes its figures when the process it watches dies of a signal) runs from the
interpreter's start to the first frame and no further.
"""

from __future__ import annotations

import os
import signal
import sys

from textual.drivers.linux_driver import LinuxDriver

MARKER_VARIABLE = "PARLOUR_BENCH_MARKER"
DRIVER = f"{__name__}:FirstFrameDriver"
"""The value of ``TEXTUAL_DRIVER`` that chooses this driver."""
SEEN = b"\n[first frame]\n"
"""What the driver writes to the terminal when the marker was drawn."""


class FirstFrameDriver(LinuxDriver):
    """Textual's Linux driver, ending the process at the first write that holds ``$PARLOUR_BENCH_MARKER``."""

    def write(self, data: str) -> None:
        super().write(data)
        marker = os.environ.get(MARKER_VARIABLE)
        if marker and marker in data:  # (the driver's thread writes it out: this says it was drawn)
            os.write(sys.__stdout__.fileno() if sys.__stdout__ else 1, SEEN)
            signal.raise_signal(signal.SIGTERM)
