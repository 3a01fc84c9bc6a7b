"""The sdist holds what the whole suite reads, the two wheels (compiled and pure Python) hold what the installed app
needs, the metadata says what a packager needs to know, and the code base stays ruff-clean.

The wheels are tried in fresh virtual environments of every Python we claim by ``.ci/wheels`` (run by ``.ci/run``).
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUITE_READS = ("engine", "tui", "tests", "docs", "styles", "examples", "benchmarks", ".ci")
"""The folders the suite imports, reads or runs (README.md and the top-level files besides)."""
TOP_FILES = ("README.md", "LICENSE", "pyproject.toml", "hatch_build.py", ".gitignore")
NATIVE = "_native"
HAS_COMPILER = shutil.which("cc") is not None or shutil.which("gcc") is not None

# The sdist's files, the wheels' contents and metadata, ruff: the same whichever Python builds or runs them. The
# wheels' compiled core is built and tried on every Python by .ci/wheels.
pytestmark = pytest.mark.same_on_every_python


def _build(out: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """``python -m build --no-isolation`` of the checkout into ``out``: the ``build`` frontend and the build
    requirements (hatchling, mypy, setuptools) come with the ``test`` extra, and ``build`` checks they meet
    ``[build-system] requires`` before it starts. An isolated build would fetch and install them afresh for each of
    the builds below; ``.ci/wheels`` builds the wheels isolated, as a packager does."""
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout + done.stderr


def _built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]) -> Path:
    """The folder ``name`` that ``build`` fills, built once for the whole run: xdist hands out tests, not files
    (``--dist worksteal``), so several workers may ask for the same wheels. Under xdist each worker's base temporary
    folder lies in the run's own (``PYTEST_XDIST_WORKER`` names the worker), and the folder is kept there, behind a
    lock, for every worker; run without xdist, in the run's own. A build that failed half way is built again."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    shared = root / "built-once"
    shared.mkdir(exist_ok=True)
    out = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        done = out / ".built"
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            build(out)
            done.touch()
    return out


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist, and the default wheel built from it (as ``python -m build`` does): compiled where it can be."""
    env = dict(os.environ)
    env.pop("PARLOUR_NATIVE", None)
    out = _built_once(tmp_path_factory, "dists", lambda folder: _build(folder, env=env))
    (sdist,) = out.glob("parlour-*.tar.gz")
    (wheel,) = out.glob("parlour-*.whl")
    return sdist, wheel


@pytest.fixture(scope="module")
def sdist(dists: tuple[Path, Path]) -> Path:
    return dists[0]


@pytest.fixture(scope="module")
def wheel(dists: tuple[Path, Path]) -> Path:
    return dists[1]


@pytest.fixture(scope="module")
def pure_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    env = dict(os.environ, PARLOUR_NATIVE="0")
    out = _built_once(tmp_path_factory, "pure", lambda folder: _build(folder, "--wheel", env=env))
    (built,) = out.glob("parlour-*.whl")
    return built


def _sdist_names(sdist: Path) -> set[str]:
    with tarfile.open(sdist) as archive:
        names = [member.name for member in archive.getmembers() if member.isfile()]
    top = sdist.name.removesuffix(".tar.gz") + "/"
    assert all(name.startswith(top) for name in names), names
    return {name.removeprefix(top) for name in names}


def _source_files() -> set[str]:
    """Every file under the folders the suite reads, but caches and builds (an editable install's core)."""
    found = set(TOP_FILES)
    for folder in SUITE_READS:
        for path in (ROOT / folder).rglob("*"):
            parts = path.relative_to(ROOT).parts
            if path.is_file() and "__pycache__" not in parts and not path.name.startswith(NATIVE):
                found.add("/".join(parts))
    return found


def test_the_sdist_holds_every_file_the_suite_reads(sdist: Path) -> None:
    names = _sdist_names(sdist)
    missing = sorted(_source_files() - names)
    assert not missing, missing
    for needed in ("examples/bot_client.py", "docs/protocol.md", "styles/base.tcss", ".ci/run", ".ci/wheels"):
        assert needed in names, needed
    assert any(name.startswith("tests/tui/__snapshots__/") and name.endswith(".svg") for name in names)


def test_the_sdist_holds_no_build_and_no_cache(sdist: Path) -> None:
    names = _sdist_names(sdist)
    assert not [n for n in names if n.endswith((".so", ".pyd", ".pyc")) or "__pycache__" in n], names
    assert not [n for n in names if n.startswith((".venv", ".git/", "dist/", "build/"))], names


def _wheel_names(wheel: Path) -> list[str]:
    return zipfile.ZipFile(wheel).namelist()


def _dist_info_dir(wheel: Path) -> str:
    return "-".join(wheel.name.split("-")[:2]) + ".dist-info"


def _dist_info(wheel: Path, name: str) -> str:
    return zipfile.ZipFile(wheel).read(f"{_dist_info_dir(wheel)}/{name}").decode()


@pytest.mark.parametrize("kind", ["compiled", "pure"])
def test_each_wheel_holds_the_packages_styles_license_types_and_entry_point(
    kind: str, wheel: Path, pure_wheel: Path
) -> None:
    built = wheel if kind == "compiled" else pure_wheel
    names = _wheel_names(built)
    styles = sorted(n for n in names if n.startswith("tui/styles/") and n.endswith(".tcss"))
    assert {Path(n).name for n in styles} == {p.name for p in (ROOT / "styles").glob("*.tcss")}
    assert "engine/games/chase/rules.py" in names and "engine/games/big2/core.py" in names and "tui/cli.py" in names
    assert "engine/py.typed" in names
    tops = {n.split("/", 1)[0] for n in names}
    assert tops == {"engine", "tui", _dist_info_dir(built)}, tops  # no module at the top of site-packages
    assert "parlour = tui.launch:run" in _dist_info(built, "entry_points.txt")
    assert _dist_info(built, "licenses/LICENSE") == (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_the_metadata_names_the_license_classifiers_and_safe_asyncssh(wheel: Path) -> None:
    metadata = _dist_info(wheel, "METADATA")
    assert "License-Expression: MIT" in metadata.splitlines()
    classifiers = {line.removeprefix("Classifier: ") for line in metadata.splitlines() if line.startswith("Classifier")}
    for needed in (
        "License :: OSI Approved :: MIT License",
        "Environment :: Console :: Curses",
        "Topic :: Games/Entertainment :: Board Games",
        "Operating System :: POSIX :: Linux",
        "Typing :: Typed",
    ):
        assert needed in classifiers, classifiers
    (asyncssh,) = [line for line in metadata.splitlines() if line.startswith("Requires-Dist: asyncssh")]
    assert ">=2.23.1" in asyncssh, asyncssh


def test_the_pythons_claimed_are_the_pythons_ci_tries() -> None:
    """The classifiers name 3.11, 3.12 and 3.13; .ci/run runs the suite on each and .ci/wheels installs the wheels
    into each."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    claimed = sorted(
        c.rsplit(" ", 1)[1]
        for c in project["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    )
    assert claimed == ["3.11", "3.12", "3.13"]
    assert project["requires-python"] == ">=3.11"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    wheels = (ROOT / ".ci" / "wheels").read_text(encoding="utf-8")
    assert re.search(r"^PYTHONS=\"(.*)\"$", wheels, re.M) is not None
    assert sorted(re.findall(r"^PYTHONS=\"(.*)\"$", wheels, re.M)[0].split()) == claimed
    assert sorted(re.findall(r"^SUITE_PYTHONS=\"(.*)\"$", ci, re.M)[0].split()) == claimed[1:]
    assert ".ci/wheels" in ci


def _core_kind(site: Path, cwd: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("PARLOUR_NATIVE", None)
    code = "import engine.games.big2.rules as b; print(b.CORE_KIND)"
    result = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_installed_app_finds_its_styles(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import tui, tui.apps.parlour, tui.terminal.screen_styles; from pathlib import Path; "
        "d = tui.terminal.screen_styles.styles_dir(); "
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


def test_the_compiled_wheel_holds_the_core_inside_engine_and_uses_it_only_with_its_source(
    wheel: Path, tmp_path: Path
) -> None:
    """The build hook (hatch_build.py) compiles engine/games/big2/core.py with mypyc where there is a C compiler
    (this machine kind has one) into engine/games/big2/; the installed engine uses the compiled module, and stops
    using it once the source beside it is not the one it was compiled from."""
    names = _wheel_names(wheel)
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    if not HAS_COMPILER:
        assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
        assert _core_kind(site, tmp_path) == "plain Python (no compiled core was built at install)"
        return
    compiled = [n for n in names if n.endswith((".so", ".pyd"))]
    assert compiled and all(n.startswith(f"engine/games/big2/{NATIVE}") for n in compiled), compiled
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert re.fullmatch(rf"parlour-[^-]+-{python}-{python}-[a-z0-9_]+\.whl", wheel.name), wheel.name
    assert "Root-Is-Purelib: false" in _dist_info(wheel, "WHEEL").splitlines()
    assert _core_kind(site, tmp_path) == "compiled with mypyc"
    with (site / "engine" / "games" / "big2" / "core.py").open("a") as source:
        source.write("# edited after the build\n")
    assert _core_kind(site, tmp_path).startswith("plain Python (the compiled core comes from another source")


def test_parlour_native_0_builds_a_pure_python_wheel(pure_wheel: Path, tmp_path: Path) -> None:
    assert pure_wheel.name.endswith("-py3-none-any.whl"), pure_wheel.name
    assert not [n for n in _wheel_names(pure_wheel) if n.endswith((".so", ".pyd"))]
    assert "Root-Is-Purelib: true" in _dist_info(pure_wheel, "WHEEL").splitlines()
    site = tmp_path / "site"
    zipfile.ZipFile(pure_wheel).extractall(site)
    assert _core_kind(site, tmp_path) == "plain Python (no compiled core was built at install)"


def test_a_build_without_a_c_compiler_makes_a_pure_wheel_and_warns(tmp_path: Path) -> None:
    """No C compiler (``CC`` names none on PATH): the wheel is pure Python, and the build says why."""
    env = dict(os.environ, CC="parlour-no-such-cc")
    env.pop("PARLOUR_NATIVE", None)
    output = _build(tmp_path, "--wheel", env=env)
    (built,) = tmp_path.glob("parlour-*.whl")
    assert built.name.endswith("-py3-none-any.whl"), built.name
    assert not [n for n in _wheel_names(built) if n.endswith((".so", ".pyd"))]
    assert "Big Two's move core was not compiled, so this is a pure Python wheel" in output, output[-3000:]
    assert "no C compiler" in output, output[-3000:]


def test_ruff_is_clean() -> None:
    """ruff comes with the ``test`` extra, next to this interpreter."""
    ruff = Path(sys.executable).parent / "ruff"
    result = subprocess.run([str(ruff), "check", str(ROOT)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout


def test_ci_runs_exactly_the_readme_test_command() -> None:
    """The Quick start's test command is what CI runs first (.ci/run), so a fresh machine and CI agree."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = [line for line in quick_start.splitlines() if line.startswith("python3 -m venv")]
    assert len(commands) == 2, commands  # one runs the app, one runs the tests
    (test_command,) = [c for c in commands if "pytest" in c]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert [line for line in ci if line.startswith("python3")] == [test_command]
