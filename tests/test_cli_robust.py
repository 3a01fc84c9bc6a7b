"""``parlour`` as a hostile or unlucky user meets it (issue 26, point 8): Ctrl-C on ``simulate --jobs N``, seeds
at the edges of their documented range, and outputs that cannot write every character.

Each runs ``parlour`` in a real process (a pseudo-terminal where the terminal matters): signals, encodings and
exit statuses are the process's own."""

from __future__ import annotations

import argparse
import fcntl
import importlib
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from typing import Any

import pytest
from terminal import CLI, ROOT, clean_env, plain, run_on_terminal

import tui.cli
from engine.simulate import TIMING_FIELDS, simulate
from engine.table import MAX_SEED
from tui.cli import main, seed_number

psutil: Any = importlib.import_module("psutil")  # (it ships no type hints)


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CLI, *args],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
        errors="strict",  # (what the child wrote must be text: a replaced character arrives as "?")
        timeout=120,
        cwd=ROOT,
        env=env if env is not None else clean_env(),
    )


# -- Ctrl-C on simulate --jobs N ---------------------------------------------------------------------------------
LONG_RUN = ["simulate", "big2", "--players", "4", "--games", "5000", "--bots", "hard", "--json", "--jobs", "2"]
"""A run that takes far longer than any wait below (thousands of matches of the slowest bots): it ends only if
the interrupt stops it."""


AS_A_JOB = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
"""What a shell does for a job it runs in the foreground: Ctrl-C back to its default, whatever this test run
inherited (a run started in the background by a script ignores SIGINT, and so would every child it starts)."""


def _workers(parent: Any) -> list[Any]:
    """The parent's pool workers (not the resource tracker, which multiprocessing runs beside them)."""
    try:
        return [child for child in parent.children() if "spawn_main" in " ".join(child.cmdline())]
    except psutil.Error:
        return []


def _wait_for(condition: Any, what: str, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never came: {what}")
        time.sleep(0.02)  # (a poll's pause, not a synchronisation: the condition is what is waited for)


def _busy(worker: Any) -> bool:
    try:
        return bool(worker.cpu_times().user >= 1.5)  # past its start (an interpreter and the engine): playing matches
    except psutil.Error:
        return False


@pytest.mark.parametrize("moment", ["as the workers start", "while they play"])
def test_one_ctrl_c_stops_simulate_jobs_and_every_worker_in_one_line(moment: str) -> None:
    """A terminal's Ctrl-C is a SIGINT to every process of the job, the workers too: the run stops at the first,
    with status 130 and one line on stderr, and no worker is left running."""
    child = subprocess.Popen(
        [sys.executable, "-c", AS_A_JOB + CLI, *LONG_RUN],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=clean_env(),
        start_new_session=True,  # its own process group, as a shell gives a job: the SIGINT goes to all of it
    )
    try:
        parent = psutil.Process(child.pid)
        if moment == "as the workers start":
            _wait_for(lambda: _workers(parent), "a worker process")
        else:
            _wait_for(lambda: len(_workers(parent)) == 2 and all(_busy(w) for w in _workers(parent)), "busy workers")
        os.killpg(child.pid, signal.SIGINT)  # once
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    assert child.returncode == 130
    assert err == "parlour: interrupted\n"
    assert out == ""
    _wait_for(lambda: not _running_in_group(child.pid), "every worker stopped", timeout=30)


TAKES_THE_TERMINAL = "import os; os.close(os.open(os.ttyname(0), os.O_RDWR)); "
"""Opened by a session leader, the terminal becomes its controlling terminal, as a login shell's is: then the
terminal itself turns a typed Ctrl-C into a SIGINT to the job (``parlour`` and its workers)."""


def test_ctrl_c_typed_on_a_terminal_stops_the_run_under_its_progress_bar() -> None:
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    # (no --json: a progress bar)
    command = [sys.executable, "-c", AS_A_JOB + TAKES_THE_TERMINAL + CLI, *LONG_RUN[:-3], "--jobs", "2"]
    child = subprocess.Popen(
        command, stdin=terminal, stdout=terminal, stderr=terminal, cwd=ROOT, env=clean_env(), start_new_session=True
    )
    os.close(terminal)
    screen = b""

    def read() -> bool:
        """Take what the terminal shows so far; False once every copy of it is closed (the child is done)."""
        nonlocal screen
        while select.select([controller], [], [], 0)[0]:
            try:
                chunk = os.read(controller, 65536)
            except OSError:
                return False
            if not chunk:
                return False
            screen += chunk
        return True

    try:
        parent = psutil.Process(child.pid)

        def playing() -> bool:
            read()
            workers = _workers(parent)
            return b"Playing Big Two" in screen and len(workers) == 2 and all(_busy(w) for w in workers)

        _wait_for(playing, "the bar, and busy workers")
        os.write(controller, b"\x03")  # Ctrl-C, once
        _wait_for(lambda: not read() or child.poll() is not None, "the end of the run", timeout=60)
        child.wait(timeout=60)
        read()
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        os.close(controller)
    assert child.returncode == 130
    shown = plain(screen.decode(errors="replace"))
    assert shown.rstrip().endswith("parlour: interrupted")
    assert "Traceback" not in shown
    _wait_for(lambda: not _running_in_group(child.pid), "every worker stopped", timeout=30)


def test_a_worker_killed_mid_run_ends_the_run_in_one_line() -> None:
    """A worker that dies (the out-of-memory killer, a kill -9) would never bring its piece: the run ends with
    status 1 and one line, and the other worker is stopped too, instead of a wait without end."""
    child = subprocess.Popen(
        [sys.executable, "-c", CLI, *LONG_RUN],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=clean_env(),
        start_new_session=True,
    )
    try:
        parent = psutil.Process(child.pid)
        _wait_for(lambda: len(_workers(parent)) == 2 and all(_busy(w) for w in _workers(parent)), "busy workers")
        _workers(parent)[0].kill()
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    assert child.returncode == 1
    assert err.count("\n") == 1
    assert err.startswith("parlour: unexpected error: RuntimeError('a process of the run stopped")
    assert "exit status -9" in err
    assert out == ""
    _wait_for(lambda: not _running_in_group(child.pid), "every worker stopped", timeout=30)


def _running_in_group(group: int) -> list[int]:
    """The processes of process group ``group`` still running (a zombie waiting to be reaped has stopped)."""
    running = []
    for process in psutil.process_iter(["status"]):
        try:
            if os.getpgid(process.pid) == group and process.info["status"] != psutil.STATUS_ZOMBIE:
                running.append(process.pid)
        except (OSError, psutil.Error):
            continue
    return running


def test_a_library_caller_keeps_its_own_ctrl_c_handler() -> None:
    """``simulate(jobs=2)`` holds Ctrl-C only while its workers start: the caller's handler is back afterwards,
    and nothing is left blocked."""

    def mine(signum: int, frame: object) -> None:
        raise AssertionError("no Ctrl-C was sent")

    before = signal.signal(signal.SIGINT, mine)
    try:
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, set())
        simulate("screw", players=3, games=4, seed=1, bots=["easy"], jobs=2)
        assert signal.getsignal(signal.SIGINT) is mine
        assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == mask
    finally:
        signal.signal(signal.SIGINT, before)


# -- --seed: the documented range, and refusals that quote what was typed ------------------------------------------
def test_the_help_and_the_refusal_say_the_same_range() -> None:
    for command in ("play", "simulate"):
        shown = run_cli(command, "--help")
        assert f"from 0 to {MAX_SEED}" in " ".join(shown.stdout.split())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"`--seed S`: a whole number from 0 to {MAX_SEED}" in readme


@pytest.mark.parametrize("typed", ["0", "7", "007", "1_000", " 12 ", str(MAX_SEED), "0" * 30 + "5"])
def test_a_seed_in_the_range_is_taken(typed: str) -> None:
    assert seed_number(typed) == int(typed)


@pytest.mark.parametrize(
    "typed",
    [
        "-1",
        "-0005",
        str(MAX_SEED + 1),
        "1_0000_0000_0000_0000_0000",
        pytest.param("9" * 5000, id="5000-digits"),  # (int() takes no more than 4300 digits)
        "+" + "1" * 25,
    ],
)
def test_a_seed_out_of_range_is_refused_quoting_what_was_typed(typed: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        seed_number(typed)
    assert str(refused.value) == f"a seed is a whole number from 0 to {MAX_SEED}, not {typed[:40]!r}"


def test_simulate_takes_the_largest_seed_in_any_number_of_processes(capsys: pytest.CaptureFixture[str]) -> None:
    """Match ``i`` is dealt from ``seed * 1000003 + i`` modulo 2**63, so the largest seed is as good as any (it
    used to be refused quoting a match's seed, a number nobody typed)."""
    reports = []
    for jobs in ("1", "2"):
        args = ["simulate", "chase", "--players", "3", "--games", "3", "--bots", "easy", "--json", "--jobs", jobs]
        assert main([*args, "--seed", str(MAX_SEED)]) == 0
        report = json.loads(capsys.readouterr().out)
        reports.append({key: value for key, value in report.items() if key not in TIMING_FIELDS})
    assert reports[0] == reports[1]
    assert reports[0]["seed"] == MAX_SEED and reports[0]["games"] == 3


def test_small_seeds_deal_the_matches_they_always_dealt() -> None:
    """The modulo changes no seed below 2**63 / 1000003: every figure measured before still holds."""
    from engine.table import Table

    report = simulate("screw", players=3, games=2, seed=5, bots=["easy"])
    wins = [0, 0, 0]
    for index in range(2):
        table = Table.create("screw", 3, seed=5 * 1_000_003 + index, bots=["easy"] * 3)
        table.run()
        assert table.state.result is not None
        for seat in table.state.result.winners:
            wins[seat] += 1
    assert [seat["wins"] for seat in report["seats"]] == wins


def test_a_refused_seed_on_the_command_line_quotes_the_text() -> None:
    result = run_cli("simulate", "chase", "--players", "3", "--games", "2", "--seed", "-0005")
    assert result.returncode == 2
    assert f"argument --seed: a seed is a whole number from 0 to {MAX_SEED}, not '-0005'" in result.stderr
    assert "Traceback" not in result.stderr


# -- an output that cannot write a character ---------------------------------------------------------------------
ASCII = clean_env(PYTHONIOENCODING="ascii")


def test_rules_on_an_ascii_pipe_write_suit_letters() -> None:
    result = run_cli("rules", "screw", env=ASCII)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.isascii()
    assert "Ties are broken by suit, **S > H > C > D**" in result.stdout
    assert "# Screw Your Neighbor" in result.stdout


def test_every_rules_text_and_help_on_an_ascii_pipe() -> None:
    for args in (["rules"], ["simulate", "--help"], ["play", "--help"], ["--help"]):
        result = run_cli(*args, env=ASCII)
        assert result.returncode == 0, (args, result.stderr)
        assert result.stderr == ""
        assert result.stdout.isascii() and len(result.stdout) > 500


def test_rules_on_an_ascii_terminal_are_formatted_with_letters() -> None:
    run = run_on_terminal(["rules", "screw"], env=ASCII, size=(80, 60))  # (tall enough for the rules: no pager)
    assert run.status == 0
    screen = plain(run.terminal)
    assert "Ties are broken by suit, S > H > C > D" in screen
    assert " * Both players in a trade see both cards" in screen  # Rich's bullet, in a letter the output has
    assert "unexpected" not in screen and "Traceback" not in screen


def test_records_and_simulate_on_an_ascii_pipe(tmp_path: Any) -> None:
    """Text of any script reaches the output as far as it can: a data directory named in letters the output has
    no character for is listed with ``?`` in their place."""
    where = tmp_path / "données"
    env = ASCII | {"PARLOUR_DATA_DIR": str(where)}
    replays = run_cli("replays", env=env)
    assert replays.returncode == 0, replays.stderr
    assert f"kept in {tmp_path}/donn?es" in replays.stdout
    stats = run_cli("stats", env=env)
    assert stats.returncode == 0, stats.stderr
    assert "donn?es" in stats.stdout
    table = run_cli("simulate", "chase", "--players", "3", "--games", "2", "--bots", "easy", env=env)
    assert table.returncode == 0, table.stderr
    assert "chase: 2 games, 3 players" in table.stdout


def test_an_unexpected_error_is_one_short_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The last line of defence quotes the error, cut short: never a whole text it carried."""

    def fails(args: argparse.Namespace) -> int:
        raise UnicodeEncodeError("ascii", "rules " * 500, 5, 6, "ordinal not in range(128)")

    monkeypatch.delenv("PARLOUR_DEBUG", raising=False)
    monkeypatch.setattr(tui.cli, "_rules", fails)
    assert main(["rules"]) == 1
    said = capsys.readouterr().err
    assert said.startswith("parlour: unexpected error: UnicodeEncodeError(")
    assert said.count("\n") == 1
    assert len(said) < 300


def test_replays_lists_a_file_s_name_and_contents_without_its_escape_codes(tmp_path: Any) -> None:
    """A replay file whose name and header hold escape codes (put there by hand: a name read from a file is a
    stranger's text) is listed with each control character written out, never sent to the terminal."""
    from engine.records.replays import keep_replay
    from engine.table import Table

    table = Table.create("screw", players=3, seed=5, bots=["easy", "easy", "easy"])
    table.run()
    kept = keep_replay(table, tmp_path / "replays")
    kept.rename(kept.with_name("evil\x1b]0;owned\x07.jsonl"))
    result = run_cli("replays", env=clean_env(PARLOUR_DATA_DIR=str(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "evil\\x1b]0;owned\\x07.jsonl" in result.stdout
