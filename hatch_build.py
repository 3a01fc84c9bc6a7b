"""Hatchling build hook: compile Big Two's move core with mypyc when the wheel is built (``pip install``).

``engine/games/big2_core.py`` is plain Python that mypyc can compile. This hook compiles a copy of it, named
``_parlour_big2_core`` and stamped with the CRC-32 and length of the source it came from (``SOURCE_STAMP``), and
puts the extension module in the wheel (an editable install too). :mod:`engine.games.big2` uses the compiled copy
only when that stamp matches the source beside it, so an edited source is never played by a stale build: it runs as
plain Python until the next install.

Where nothing can be compiled (no C compiler, no Python headers, mypyc failing), the wheel is built without it, with
a warning, and the engine plays the same games in plain Python. ``PARLOUR_NATIVE=0`` skips the compilation.

mypyc comes with mypy (a build requirement, see ``pyproject.toml``): it compiles our own typed Python, so the engine
keeps one language and one source.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("engine", "games", "big2_core.py")
MODULE = "_parlour_big2_core"
SETUP = (
    "from setuptools import setup\n"
    "from mypyc.build import mypycify\n"
    f"setup(name='parlour-big2-core', ext_modules=mypycify(['{MODULE}.py'], opt_level='3'))\n"
)


def compile_core(root: Path, work: Path) -> list[Path]:
    """Compile ``root``'s move core in ``work``: the extension modules built (raises RuntimeError on failure)."""
    text = (root / SOURCE).read_bytes()
    # As engine.games.big2.source_stamp takes it (this hook does not import the engine).
    stamp = f'\n\nSOURCE_STAMP: Final = "{zlib.crc32(text):08x}-{len(text)}"\n"""The source\'s CRC-32 and length."""\n'
    (work / f"{MODULE}.py").write_bytes(text + stamp.encode())
    (work / "setup.py").write_text(SETUP)
    try:
        done = subprocess.run(
            [sys.executable, "setup.py", "build_ext", "--inplace"],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise RuntimeError(str(error)) from error
    if done.returncode:
        raise RuntimeError((done.stdout[-2000:] + done.stderr[-2000:]).strip())
    built = sorted(p for p in work.iterdir() if p.suffix in (".so", ".pyd"))
    if not any(p.name.startswith(MODULE + ".") for p in built):
        raise RuntimeError(f"mypyc built no {MODULE} module")
    return built


class CoreBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._work: Path | None = None
        if self.target_name != "wheel":
            return
        if os.environ.get("PARLOUR_NATIVE") == "0":
            self.app.display_info("PARLOUR_NATIVE=0: Big Two's move core is not compiled (it runs as plain Python)")
            return
        work = self._work = Path(tempfile.mkdtemp(prefix="parlour-mypyc-"))
        try:
            built = compile_core(Path(self.root), work)
        except RuntimeError as error:
            self.app.display_warning(
                f"Big Two's move core was not compiled, so it runs as plain Python (the same games, slower): {error}"
            )
            return
        included = {str(path): path.name for path in built}  # at the top of site-packages
        if version == "editable":
            build_data["force_include_editable"] = {**self.build_config.get_force_include(), **included}
        else:
            build_data["force_include"].update(included)
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
        self.app.display_info(f"Big Two's move core compiled with mypyc: {', '.join(included.values())}")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)
