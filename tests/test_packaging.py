"""The wheel ships the styles, the installed app finds them, and the code base stays ruff-clean."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = out.glob("parlour-*.whl")
    return built


def test_wheel_holds_packages_styles_and_entry_point(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    styles = sorted(n for n in names if n.startswith("tui/styles/") and n.endswith(".tcss"))
    assert styles, names
    assert {Path(n).name for n in styles} == {p.name for p in (ROOT / "styles").glob("*.tcss")}
    assert "engine/games/chase.py" in names and "tui/cli.py" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "parlour = tui.launch:run" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_installed_app_finds_its_styles(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import tui, tui.app, tui.screen_styles; from pathlib import Path; d = tui.screen_styles.styles_dir(); "
        f"assert Path(tui.__file__).is_relative_to(Path(r'{site}')), tui.__file__; "
        f"assert d.is_relative_to(Path(r'{site}')), d; "
        "print(sorted(p.name for p in d.glob('*.tcss')))"
    )
    env = dict(os.environ, PYTHONPATH=str(site))
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert ".tcss" in result.stdout


def _core_kind(site: Path, cwd: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("PARLOUR_NATIVE", None)
    code = "import engine.games.big2 as b; print(b.CORE_KIND)"
    result = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_wheel_holds_big2s_move_core_compiled_and_uses_it_only_with_its_source(wheel: Path, tmp_path: Path) -> None:
    """The build hook (hatch_build.py) compiles engine/games/big2_core.py with mypyc where there is a C compiler
    (this machine kind has one); the installed engine uses the compiled module, and stops using it once the source
    beside it is not the one it was compiled from."""
    names = zipfile.ZipFile(wheel).namelist()
    compiled = [n for n in names if n.startswith("_parlour_big2_core.") and n.endswith((".so", ".pyd"))]
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        assert not compiled and wheel.name.endswith("-py3-none-any.whl"), names
        assert _core_kind(site, tmp_path).startswith("plain Python")
        return
    assert len(compiled) == 1, names
    assert not wheel.name.endswith("-none-any.whl"), wheel.name  # a wheel for this platform
    assert _core_kind(site, tmp_path) == "compiled with mypyc"
    with (site / "engine" / "games" / "big2_core.py").open("a") as source:
        source.write("# edited after the build\n")
    assert _core_kind(site, tmp_path).startswith("plain Python (the compiled core comes from another source")


def test_ruff_is_clean() -> None:
    """ruff comes with the ``test`` extra, next to this interpreter."""
    ruff = Path(sys.executable).parent / "ruff"
    result = subprocess.run([str(ruff), "check", str(ROOT)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout


def test_ci_runs_exactly_the_readme_test_command() -> None:
    """The Quick start's test command is what CI runs (.ci/run), so a fresh machine and CI agree."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = [line for line in quick_start.splitlines() if line.startswith("python3 -m venv")]
    assert len(commands) == 2, commands  # one runs the app, one runs the tests
    (test_command,) = [c for c in commands if "pytest" in c]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert [line for line in ci if line.startswith("python3")] == [test_command]
