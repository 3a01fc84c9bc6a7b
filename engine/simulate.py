"""Bots against bots, headless: the figures behind ``parlour simulate``.

>>> report = simulate("screw", players=3, games=2, seed=1, bots=["easy", "medium", "hard"])
>>> report["games"], [s["bot"] for s in report["seats"]], sum(s["wins"] for s in report["seats"])
(2, ['easy', 'medium', 'hard'], 2)

With ``jobs``, the matches are shared among several processes and the report is the same, timing aside: match
``i`` has the same seed and line-up in any process, and the figures are added up here in match order.

>>> both = simulate("screw", players=3, games=4, seed=1, jobs=2)
>>> both == simulate("screw", players=3, games=4, seed=1) | {key: both[key] for key in TIMING_FIELDS}
True
"""

from __future__ import annotations

import contextlib
import math
import pickle
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, is_dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from engine.errors import OptionError
from engine.game import FinishedMatch
from engine.registry import check_level, get_entry
from engine.table import MAX_SEED, Table, check_seed, match_options

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess
    from multiprocessing.queues import Queue

TIMING_FIELDS = ("seconds", "games_per_second")
"""The report's fields that depend on the clock (and so differ between two runs of the same seed)."""

POLL_SECONDS = 0.5
"""With ``jobs``, how long the parent waits for a piece before it looks whether every worker is still running."""
CHUNKS_PER_JOB = 8
"""With ``jobs``, how many pieces each process gets on average: small enough pieces that the progress bar moves
and no process waits long for a slow one, big enough that handing them out costs little."""


def seat_bots(bots: Sequence[str], players: int) -> list[str]:
    """One difficulty per seat: a single name is used for every seat, otherwise there must be one per seat."""
    names = [b.strip().lower() for b in bots if isinstance(b, str) and b.strip()]
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise OptionError(f"--bots names {len(names)} bots for {players} players: give one, or one per seat")
    return names


@dataclass(frozen=True)
class _Run:
    """Everything a process needs to play any match of one run (plain data, so it crosses to a worker)."""

    game: str
    players: int
    seed: int
    levels: tuple[str, ...]
    preset: str | None
    variants: tuple[str, ...]
    deals: int | None
    rotate: bool

    def match_seed(self, index: int) -> int:
        """The seed match ``index`` is dealt from: ``seed * 1000003 + index``, taken modulo ``2**63`` so that every
        seed a table takes (up to MAX_SEED) gives match seeds a table takes too."""
        return (self.seed * 1_000_003 + index) % (MAX_SEED + 1)

    def shift(self, index: int) -> int:
        return index % self.players if self.rotate else 0

    def play(self, index: int) -> FinishedMatch:
        """Match ``index`` of the run, played out: its seed and line-up depend on the index alone, never on which
        process plays it or what it played before."""
        shift = self.shift(index)
        # Seat s holds line-up position (s - shift): position p sits at seat (p + shift).
        lineup = [self.levels[(seat - shift) % self.players] for seat in range(self.players)]
        table = Table.create(
            self.game,
            self.players,
            seed=self.match_seed(index),
            bots=lineup,
            preset=self.preset,
            variants=self.variants,
            deals=self.deals,
        )
        table.run()
        return table.state


class SeatReport(TypedDict):
    """One line-up position's figures in a :func:`simulate` report."""

    seat: int
    bot: str
    wins: float
    win_rate: float
    mean_score: float


class SimulateReport(TypedDict):
    """What :func:`simulate` returns (JSON data): the run, its timing, per-seat figures and the game's own."""

    game: str
    options: object
    players: int
    games: int
    seed: int
    bots: list[str]
    seconds: float
    games_per_second: float | None
    seats: list[SeatReport]
    stats: dict[str, Any]
    """``rotated`` and the game's own figures (:meth:`engine.game.Figures.report`), whose shape is the game's."""


_Result = tuple[int, bytes | None, Exception | None]
"""What a worker puts for each piece: its number, then its finished states pickled, or the error that stopped it."""


def _chunks(games: int, jobs: int) -> list[tuple[int, int]]:
    size = max(1, math.ceil(games / (jobs * CHUNKS_PER_JOB)))
    return [(start, min(games, start + size)) for start in range(0, games, size)]


def _worker_start() -> None:
    """Each worker's first step: Ctrl-C is the parent's to answer (it stops every worker), so a worker ignores it,
    then lets it through (it was born with it held, :func:`_interrupts_held`: one pressed meanwhile is dropped)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _answers_signals() -> bool:
    """Whether this thread may hold and set signal handlers (Python lets the main thread alone; some platforms none
    of the masks)."""
    return threading.current_thread() is threading.main_thread() and hasattr(signal, "pthread_sigmask")


@contextlib.contextmanager
def _interrupts_held() -> Iterator[list[int]]:
    """Ctrl-C held while the workers start, so that they are born with it blocked (a terminal sends it to every
    process of the job, workers included) and none can die of it before :func:`_worker_start`. One pressed
    meanwhile is not lost: it is in the list yielded once the hold ends (the caller raises KeyboardInterrupt)."""
    pressed: list[int] = []
    if not _answers_signals():
        yield pressed
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield pressed
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        # (signal.signal runs the handler of a signal that came in the meantime before it changes the handler)
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)


@contextlib.contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """Ctrl-C ignored while the workers are stopped: a second one cannot leave any of them running."""
    if not _answers_signals():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)


def _portable(err: Exception) -> Exception:
    """``err`` if it crosses to the parent (pickles and back), else a RuntimeError that says what it was."""
    try:
        copy = pickle.loads(pickle.dumps(err))
    except Exception:
        return RuntimeError(f"{type(err).__name__}: {err}")
    return copy if isinstance(copy, Exception) else err


def _worker(run: _Run, pieces: Queue[tuple[int, int, int] | None], results: Queue[_Result]) -> None:
    """A worker process: plays each piece ``(number, start, stop)`` it takes from ``pieces`` until it takes None,
    and puts ``(number, states, None)`` on ``results``, the finished states pickled (so that a state that cannot
    cross is an error here, not a piece lost in the queue's thread), or ``(number, None, error)`` and stops."""
    _worker_start()
    while (piece := pieces.get()) is not None:
        number, start, stop = piece
        try:
            states = pickle.dumps([run.play(index) for index in range(start, stop)])
        except Exception as err:
            results.put((number, None, _portable(err)))
            return
        results.put((number, states, None))


def _next_result(results: Queue[_Result], workers: Sequence[BaseProcess]) -> _Result:
    """The next piece a worker finished; RuntimeError when a worker stopped before the pieces were all played
    (killed, out of memory): its piece would never come."""
    while True:
        try:
            return results.get(timeout=POLL_SECONDS)
        except queue.Empty:
            codes = [worker.exitcode for worker in workers]
        if any(code not in (None, 0) for code in codes) or None not in codes:
            try:  # (what a worker put just before it ended is still to be read)
                return results.get(timeout=POLL_SECONDS)
            except queue.Empty:
                stopped = next((code for code in codes if code), 0)
                raise RuntimeError(
                    f"a process of the run stopped before its matches were played (exit status {stopped})"
                ) from None


def _in_processes(
    run: _Run, games: int, jobs: int, progress: Callable[[int, int], None] | None
) -> Iterator[FinishedMatch]:
    """Every match's finished state in match order, played by ``jobs`` processes. Pieces finish in any order;
    each is held until those before it have been given out, and ``progress`` counts matches as pieces finish.

    Stopped early (Ctrl-C, a worker's error or its end, a caller that stops reading), every worker is stopped at
    once, its piece unfinished, and the exception goes on to the caller."""
    import multiprocessing

    # "spawn": a fresh interpreter per worker, safe whatever threads the caller runs (fork is not).
    context = multiprocessing.get_context("spawn")
    chunks = _chunks(games, jobs)
    pieces: Queue[tuple[int, int, int] | None] = context.Queue()
    results: Queue[_Result] = context.Queue()
    workers = [
        context.Process(target=_worker, args=(run, pieces, results), name=f"simulate-{number}", daemon=True)
        for number in range(min(jobs, len(chunks)))
    ]
    for number, (start, stop) in enumerate(chunks):
        pieces.put((number, start, stop))
    for _worker_process in workers:
        pieces.put(None)  # one end for each worker, after every piece
    finished = False
    try:
        with _interrupts_held() as pressed:
            for worker in workers:
                worker.start()
        if pressed:
            raise KeyboardInterrupt
        done: dict[int, list[FinishedMatch]] = {}
        played = 0
        following = 0
        for _piece in chunks:
            number, states, error = _next_result(results, workers)
            if error is not None:
                raise error
            assert states is not None
            done[number] = pickle.loads(states)
            played += len(done[number])
            if progress is not None:
                progress(played, games)
            while following in done:
                yield from done.pop(following)
                following += 1
        finished = True
    finally:
        if not finished:
            pieces.cancel_join_thread()  # (the pieces nobody will take must not hold this process at its exit)
            with _interrupts_ignored():
                for worker in workers:
                    if worker.is_alive():
                        worker.terminate()
        for worker in workers:
            if worker.pid is not None:
                worker.join()
        pieces.close()
        results.close()


def simulate(
    game: str,
    players: int,
    games: int,
    seed: int = 0,
    bots: Sequence[str] = ("medium",),
    preset: str | None = None,
    variants: Sequence[str] = (),
    deals: int | None = None,
    rotate: bool = False,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
) -> SimulateReport:
    """Play ``games`` matches between bots and report per-seat wins and scores (and game-specific stats).

    With ``rotate``, match ``i`` seats the bots turned ``i`` places round the table, so each bot plays every seat
    equally often; the per-seat figures are then per *line-up position* (the order of ``bots``).

    ``progress``, if given, is called as ``progress(done, games)`` after each match (with ``jobs``, after each
    piece of matches a process finishes), so a caller can show how far a long run has got (the CLI's progress bar)
    without this module knowing anything about terminals.

    ``jobs`` processes share the matches (1: all in this process). Each match is the same whoever plays it, and
    the figures are added up here in match order, so the report is the same for any ``jobs``, timing aside.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionError("--games must be at least 1")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise OptionError(f"--jobs must be a whole number from 1 (the number of processes), not {jobs!r}")
    check_seed(seed)
    entry = get_entry(game)
    entry.game.check_players(players)
    levels = seat_bots(bots, players)
    options = match_options(entry, preset, variants, deals)
    for level in dict.fromkeys(levels):
        check_level(entry.game, level)  # a bad level is refused here, before any process starts
    run = _Run(entry.key, players, seed, tuple(levels), preset, tuple(variants), deals, rotate)
    parallel = jobs > 1 and games > 1
    wins = [0.0] * players
    score_sums = [0.0] * players
    figures = entry.game.figures()
    started = time.perf_counter()
    if parallel:
        states: Iterator[FinishedMatch] = _in_processes(run, games, jobs, progress)
    else:
        states = (run.play(index) for index in range(games))
    for index, state in enumerate(states):
        result = state.result
        assert result is not None
        shift = run.shift(index)
        position = [(seat - shift) % players for seat in range(players)]
        for seat in result.winners:
            wins[position[seat]] += 1 / len(result.winners)  # a shared win is shared
        for seat, score in enumerate(result.scores):
            score_sums[position[seat]] += score
        figures.add(state, position)
        if progress is not None and not parallel:
            progress(index + 1, games)
    seconds = time.perf_counter() - started
    seats: list[SeatReport] = [
        {
            "seat": seat,
            "bot": levels[seat],
            "wins": int(wins[seat]) if wins[seat].is_integer() else round(wins[seat], 4),
            "win_rate": round(wins[seat] / games, 4),
            "mean_score": round(score_sums[seat] / games, 4),
        }
        for seat in range(players)
    ]
    stats: dict[str, object] = {"rotated": rotate} | figures.report()
    return {
        "game": entry.key,
        "options": asdict(options) if is_dataclass(options) and not isinstance(options, type) else str(options),
        "players": players,
        "games": games,
        "seed": seed,
        "bots": levels,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
        "seats": seats,
        "stats": stats,
    }
