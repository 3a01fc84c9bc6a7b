"""Where Parlour keeps what it can always make again (parsed stylesheets, compiled code): the user cache directory.

Read before anything else is imported (:mod:`tui.code_cache` is installed first thing), so it needs nothing but the
standard library, and :mod:`platformdirs` only when no directory is given.
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "PARLOUR_CACHE_DIR"
"""Set to a directory to keep the caches there instead of the user cache directory."""
DATA_ENV = "PARLOUR_DATA_DIR"
"""engine.records.paths.DATA_ENV (not imported: that would load the engine before the caches are read)."""


def cache_dir() -> Path:
    """``$PARLOUR_CACHE_DIR`` if set; else ``cache`` in ``$PARLOUR_DATA_DIR`` if that is set (a run told to keep its
    data somewhere, such as a test's, keeps everything there); else the user cache directory for Parlour. Created
    when first written."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        return Path(chosen)
    data = os.environ.get(DATA_ENV)
    if data:
        return Path(data) / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir("parlour"))
