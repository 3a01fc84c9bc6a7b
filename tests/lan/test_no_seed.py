"""No session is told the table's seed (issue 26, point 7): the seed deals the very hands, so a seat or a spectator
that knew it could work out every card still to come. The table keeps it, a replay of the match keeps it, and the
local app, which made the table, shows it in the table's subtitle from there, never from the session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import codec
from engine.play.local_sessions import CodecSession
from engine.play.table_host import TableHost
from engine.records.replays import keep_replay, load_replay
from engine.session import Update
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.screens.table import TableScreen

SEED = 987_654_321
"""A seed whose digits would stand out in any text a session receives."""


@pytest.fixture
def host() -> Iterator[TableHost]:
    made = TableHost.create("screw", players=3, seed=SEED, bots=[None, "easy", "easy"], names=["Ann"])
    yield made
    made.close()


def test_no_session_of_a_local_table_is_told_its_seed(host: TableHost) -> None:
    seat, spectator = host.connect(0), host.connect(None)
    through_the_codec = CodecSession(host.connect(0))
    for session in (seat, spectator, through_the_codec):
        assert session.info.seed is None
        assert str(SEED) not in codec.dumps(session.info)
    assert all(host.info(who).seed is None for who in (0, 1, 2, None))
    assert seat.info.seat == 0 and spectator.info.seat is None  # (the rest of what they are told is still there)
    assert host.table.seed == SEED  # the table keeps it: it deals the next rounds


def test_a_finished_match_keeps_its_seed_in_its_replay_only(host: TableHost, tmp_path: Path) -> None:
    """A whole match watched as a spectator and as the person's seat: nothing either is sent names the seed, and
    the replay of the match has it (so the match can be played again from it)."""
    heard: list[str] = []

    def hear(update: Update) -> None:
        heard.extend(codec.dumps(event) for event in update.events)
        heard.append(codec.dumps(update.snapshot))

    spectator = host.connect(None)
    spectator.subscribe(hear)
    table = host.table
    host.seat_bot(0, "easy")  # the person's seat played by a bot, so that the match plays to its end by itself
    assert host.wait_idle(60) and table.state.is_over and not host.errors
    assert len(heard) > 10 and not any(str(SEED) in line for line in heard)
    assert str(SEED) not in codec.dumps(spectator.snapshot())
    header, actions = load_replay(keep_replay(table, tmp_path))
    assert header.seed == SEED and len(actions) == len(table.actions)


async def test_the_local_app_shows_the_seed_it_made_the_table_with() -> None:
    app = ParlourApp(start=PlayConfig(game="screw", players=3, seed=SEED, difficulty="easy"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(300):
            if isinstance(app.screen, TableScreen) and app.screen.is_mounted and app.screen.sub_title:
                break
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert screen.session.info.seed is None  # not from the session...
        assert screen.sub_title.endswith(f"· seed {SEED}")  # ...from the app that made the table
