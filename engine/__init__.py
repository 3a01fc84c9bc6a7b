"""Parlour's game engine: pure, deterministic rules with no UI and no I/O.

Nothing in this package may import ``textual`` or ``asyncio`` (a test checks it).
"""

__version__ = "0.1.0"
