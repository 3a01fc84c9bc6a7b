"""A full disk loses no game's statistics (issue 26, point 1).

The disk is made full for the files Parlour writes by a file size limit (``RLIMIT_FSIZE``, SIGXFSZ ignored: every
write past the limit fails, as on a disk with no room left; no mount, no privileges), in a child process, so the
test's own process keeps writing freely. The database and the queue file cannot take the game's row: the keeper
holds it, says so once, and counts it as soon as there is room again (here: at its close, once the limit is
lifted). A write cut short by the limit is never taken for a whole one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from engine.records.paths import data_dir

CHILD = textwrap.dedent(
    """
    import json, resource, signal, sys
    from engine.records.finish import Keeper
    from engine.records.paths import stats_path
    from engine.records.stats import pending_path, record_game, summary
    from engine.table import Table

    def finished(seed):
        table = Table.create("screw", players=3, seed=seed, bots=[None, "easy", "easy"])
        while not table.state.is_over:
            table.submit(table.state.to_move, table.state.legal_actions()[0])
        return table

    assert record_game(finished(1), 0) is None  # the statistics exist, with a game
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # (a write past the limit fails with an error, not a signal)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    told = []
    keeper = Keeper(told.append, retry_every=3600.0)  # (no retry before the close: the disk stays full till then)
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), hard))
    keeper.finish(finished(2), 0)
    assert keeper.flush(60.0)
    failing = sorted(keeper.failing)
    queue = pending_path(stats_path())
    queued = queue.read_bytes() if queue.exists() else b""
    resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))  # room again
    closed = keeper.close(60.0)
    print(json.dumps({"told": told, "failing": failing, "queued": queued.decode("utf-8", "replace"),
                      "closed": closed, "games": summary()["games"]}))
    """
)


def full_disk(limit: int) -> dict[str, object]:
    env = dict(os.environ)
    env["PARLOUR_DATA_DIR"] = str(data_dir())
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(limit)], env=env, capture_output=True, text=True, timeout=240, check=False
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_a_game_ended_on_a_full_disk_is_held_and_counted_when_there_is_room() -> None:
    result = full_disk(1)  # not a byte more: neither the database nor the queue takes the row
    assert result["failing"] == ["replay", "stats"]
    stats = [sentence for sentence in result["told"] if "statistics" in sentence]  # type: ignore[attr-defined]
    assert len(stats) == 1 and "nor kept to count later" in stats[0]
    assert stats[0].endswith("; Parlour holds it and tries again while it runs.")
    assert result["closed"] is True
    assert result["games"] == 2  # counted once there was room, at the keeper's close


def test_a_queued_row_cut_short_by_the_full_disk_is_not_taken_for_kept() -> None:
    result = full_disk(100)  # room for the start of the queued row only
    assert result["queued"] and "}" not in str(result["queued"])  # (the row was cut short)
    stats = [sentence for sentence in result["told"] if "statistics" in sentence]  # type: ignore[attr-defined]
    assert len(stats) == 1 and "nor kept to count later" in stats[0] and "waits in" not in stats[0]
    assert result["games"] == 2
