"""Hatchling build hook: compile Big Two's move core with mypyc when the wheel is built (``pip install``).

``engine/games/big2/core.py`` is plain Python that mypyc can compile. This hook compiles a copy of it, named
``engine.games.big2._native`` and stamped with the CRC-32 and length of the source it came from (``SOURCE_STAMP``),
and puts the extension modules inside the ``engine`` package, beside the source. :mod:`engine.games.big2.rules` uses
the compiled copy only when that stamp matches the source beside it, so an edited source is never played by a stale
build: it runs as plain Python until the next install.

Two wheels come from one source:

- compiled (the default): the extension modules in ``engine/games/big2/``, tagged for this interpreter and platform
  (``cp311-cp311-linux_x86_64``, say), so one is built per Python;
- pure Python, ``py3-none-any``: with ``PARLOUR_NATIVE=0`` in the environment, or by itself, with a warning, where
  nothing can be compiled (no C compiler, no Python headers, mypyc failing). The engine plays the same games.

An editable install (``pip install -e .``) runs from the source tree, so the hook builds the extension modules in
place, in ``engine/games/big2/`` (ignored by git, left out of the sdist and of the wheels, whose own copy is built for
them). Their file names carry the interpreter's tag, so one checkout serves several Pythons' editable installs.

mypyc comes with mypy (a build requirement, see ``pyproject.toml``): it compiles our own typed Python, so the engine
keeps one language and one source.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zlib
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("engine", "games", "big2", "core.py")
PACKAGE = Path("engine", "games", "big2")
MODULE = "_native"
"""The compiled copy's name inside ``engine.games.big2`` (``engine.games.big2.rules.NATIVE_MODULE`` names it in
full)."""
SETUP = (
    "from setuptools import setup\n"
    "from mypyc.build import mypycify\n"
    f"setup(name='parlour-big2-core', ext_modules=mypycify(['{PACKAGE.as_posix()}/{MODULE}.py'], opt_level='3'))\n"
)


def native_files(directory: Path) -> list[Path]:
    """The compiled core's extension modules in ``directory`` for the interpreter running this hook."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return sorted(p for p in directory.glob(f"{MODULE}*{suffix}") if p.is_file())


def check_compiler() -> None:
    """Raise RuntimeError when the C compiler that setuptools would run (``CC``, else Python's own) is not found."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    program = shlex.split(compiler)[0] if compiler.strip() else ""
    if not program or shutil.which(program) is None:
        raise RuntimeError(f"no C compiler ({compiler!r} is not on PATH)")


def compile_core(root: Path, work: Path) -> list[Path]:
    """Compile ``root``'s move core in ``work``: the extension modules built (raises RuntimeError on failure)."""
    check_compiler()
    text = (root / SOURCE).read_bytes()
    # As engine.games.big2.rules.source_stamp takes it (this hook does not import the engine).
    stamp = f'\n\nSOURCE_STAMP: Final = "{zlib.crc32(text):08x}-{len(text)}"\n"""The source\'s CRC-32 and length."""\n'
    package = work / PACKAGE
    package.mkdir(parents=True)
    for depth in range(1, len(PACKAGE.parts) + 1):  # empty packages, so that mypyc names the module in full
        (work / Path(*PACKAGE.parts[:depth]) / "__init__.py").write_text("")
    (package / f"{MODULE}.py").write_bytes(text + stamp.encode())
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
    built = native_files(package)
    if not any(p.name.split(".", 1)[0] == MODULE for p in built):
        raise RuntimeError(f"mypyc built no {MODULE} module")
    return built


class CoreBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._work: Path | None = None
        if self.target_name != "wheel":
            return
        in_place = Path(self.root) / PACKAGE
        if os.environ.get("PARLOUR_NATIVE") == "0":
            if version == "editable":
                for old in native_files(in_place):
                    old.unlink()
            self.app.display_info("PARLOUR_NATIVE=0: a pure Python wheel (Big Two's move core runs as plain Python)")
            return
        work = self._work = Path(tempfile.mkdtemp(prefix="parlour-mypyc-"))
        try:
            built = compile_core(Path(self.root), work)
        except RuntimeError as error:
            self.app.display_warning(
                "Big Two's move core was not compiled, so this is a pure Python wheel and the core runs as plain "
                f"Python (the same games, slower): {error}"
            )
            return
        if version == "editable":
            for old in native_files(in_place):
                old.unlink()
            for path in built:
                shutil.copy2(path, in_place / path.name)
            self.app.display_info(f"Big Two's move core compiled with mypyc into {in_place}")
            return
        build_data["force_include"].update({str(path): (PACKAGE / path.name).as_posix() for path in built})
        build_data["pure_python"] = False
        build_data["infer_tag"] = True  # this interpreter's tag and this platform's
        self.app.display_info(f"Big Two's move core compiled with mypyc: {', '.join(p.name for p in built)}")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)
