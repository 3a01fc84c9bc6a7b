"""What one seat saw of a LAN match (issue 25, point 6): kept beside the replays, read back, listed, checked on its
own and against the host's full replay, and counted in the statistics apart from local games."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from records_helpers import MATCHES, bot_match, play_out

from engine import codec
from engine.records.finish import finish_seen
from engine.records.record import FormatError, Header, SeenHeader
from engine.records.replays import ReplayError, keep_replay, list_replays, load_replay, verify_replay
from engine.records.seen import SeenCursor, SeenRecord, check_seen, find_host_replay, keep_seen, load_seen
from engine.records.stats import MIGRATIONS, SCHEMA, game_figures, played_seen, record_game, summary
from engine.registry import listing_of_game
from engine.session import TableInfo
from engine.table import Table


def seen_of(table: Table, seat: int | None, match: str | None = "m-1") -> SeenRecord:
    """What ``seat`` (a person's, whatever played it here) was sent of the match at ``table``."""
    levels = tuple(None if other == seat else info.level for other, info in enumerate(table.seats))
    info = TableInfo(table.entry.key, table.options, table.names, levels, None, seat)
    header = SeenHeader.of(info, host="Parlour", table="NGQC", match=match, variants=table.variants)
    events = [e for e in (event.for_seat(seat) for event in table.state.history) if e is not None]
    return SeenRecord(header, events)


def host_replay(table: Table, where: Path, match: str = "m-1") -> Path:
    return keep_replay(table, where, extra={"table": "NGQC", "match": match, "host": "Parlour"})


def lines_of(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path: Path, lines: list[Any]) -> None:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


@pytest.mark.parametrize(("game", "players", "bots", "variants", "deals", "seed"), MATCHES)
def test_every_seat_and_a_spectator_match_the_hosts_replay(
    tmp_path: Path, game: str, players: int, bots: list[str], variants: tuple[str, ...], deals: int | None, seed: int
) -> None:
    table = play_out(bot_match(game, players, bots, variants, deals, seed))
    kept = host_replay(table, tmp_path)
    for seat in [*range(players), None]:
        record = seen_of(table, seat)
        path = keep_seen(record, tmp_path)
        back = load_seen(path)
        assert back.header == record.header
        assert codec.dumps(back.events) == codec.dumps(record.events)
        check = check_seen(path, tmp_path)
        assert check.difference is None and check.host_replay == kept, check.sentence()
        assert check.sentence().startswith(f"identical: {len(record.events)} events")
        # Nothing hidden from the seat is in its file: every event is public or addressed to it.
        for line in lines_of(path)[1:]:
            audience = line["event"]["audience"]
            assert audience is None or (seat is not None and seat in audience)


@pytest.mark.parametrize(("game", "players", "bots", "variants", "deals", "seed"), MATCHES)
def test_score_winners_and_figures_from_a_seats_events_are_the_engines(
    game: str, players: int, bots: list[str], variants: tuple[str, ...], deals: int | None, seed: int
) -> None:
    for number in range(3):
        table = play_out(bot_match(game, players, bots, variants, deals, seed + 31 * number))
        result = table.state.result
        assert result is not None
        spec = table.game.key
        for seat in range(players):
            played = played_seen(seen_of(table, seat))
            assert played.score == result.scores[seat], (spec, seat)
            assert played.winners == result.winners
            counter = game_figures(spec)[0]
            assert counter is not None, spec
            assert played.counts == counter(table.state.history, seat)
        assert listing_of_game(spec).scorer is not None, spec


def test_on_its_own_it_says_the_hosts_replay_is_not_here(tmp_path: Path) -> None:
    table = play_out(bot_match("big2", 2, ["easy", "easy"], deals=1, seed=3))
    path = keep_seen(seen_of(table, 1), tmp_path)
    check = check_seen(path, tmp_path)
    assert check.difference is None and check.host_replay is None
    assert check.sentence().startswith("checked on its own: the host's replay is not here")
    # The host's replay of another match does not count.
    host_replay(table, tmp_path, match="another")
    assert check_seen(path, tmp_path).host_replay is None
    # A copy of the host's replay put in the replays directory is found there.
    elsewhere = tmp_path / "replays"
    kept = host_replay(table, elsewhere)
    assert find_host_replay("m-1", [elsewhere]) == kept
    assert check_seen(path, elsewhere).host_replay == kept


def test_a_changed_event_is_found_against_the_hosts_replay(tmp_path: Path) -> None:
    table = play_out(bot_match("screw", 3, ["easy"] * 3, seed=5))
    host_replay(table, tmp_path)
    path = keep_seen(seen_of(table, 0), tmp_path)
    lines = lines_of(path)
    number = next(i for i, line in enumerate(lines[1:], start=1) if line["event"]["type"] == "Paid")
    lines[number]["event"]["amount"] += 1
    write_lines(path, lines)
    check = check_seen(path, tmp_path)
    assert check.difference is not None and check.difference.startswith(f"Event {number} (Paid): expected amount")
    assert check.sentence().startswith("different: ")
    # One event missing: the counts differ.
    del lines[number]
    lines[0]["events"] -= 1
    write_lines(path, lines)
    difference = check_seen(path, tmp_path).difference
    assert difference is not None and f"Event {number} " in difference


def test_a_record_that_does_not_hold_together_is_found_on_its_own(tmp_path: Path) -> None:
    table = play_out(bot_match("big2", 2, ["easy", "easy"], deals=1, seed=3))
    path = keep_seen(seen_of(table, 0, match=None), tmp_path)
    good = lines_of(path)

    def check(change: Any) -> str | None:
        lines = json.loads(json.dumps(good))
        change(lines)
        write_lines(path, lines)
        return check_seen(path, tmp_path).difference

    def other_seats_hand(lines: list[Any]) -> None:  # a card another seat was dealt, in seat 0's record
        other = next(e for e in table.state.history if type(e).__name__ == "HandDealt" and e.audience == {1})
        index = next(i for i, line in enumerate(lines) if i and line["event"]["type"] == "HandDealt")
        lines[index]["event"] = codec.encode(other)

    def another_games_event(lines: list[Any]) -> None:
        lines[2]["event"] = {"game": "chase", "type": "Stayed", "audience": None, "seat": 0}

    def no_end(lines: list[Any]) -> None:
        del lines[-1]

    def seat_out_of_range(lines: list[Any]) -> None:
        index = next(i for i, line in enumerate(lines) if i and line["event"]["type"] == "Played")
        lines[index]["event"]["seat"] = 7

    def wrong_result(lines: list[Any]) -> None:
        lines[0]["result"]["winners"] = [1 - lines[0]["result"]["winners"][0]]

    assert check(lambda lines: None) is None
    assert "was for other eyes than Ana (seat 0)'s" in str(check(other_seats_hand))
    assert "is not one of Big Two's" in str(check(another_games_event))
    assert "does not end" in str(check(no_end))
    assert "names seat 7" in str(check(seat_out_of_range))
    assert "its header says the result" in str(check(wrong_result)).lower()


def test_files_that_are_no_record_are_one_sentence(tmp_path: Path) -> None:
    table = play_out(bot_match("big2", 2, ["easy", "easy"], deals=1, seed=3))
    path = keep_seen(seen_of(table, 0), tmp_path)
    lines = lines_of(path)
    bad = [
        (lambda ls: ls.__setitem__(0, {**ls[0], "seat": 5}), "is not one of the table's"),
        (lambda ls: ls.__setitem__(0, {**ls[0], "levels": ["easy", "easy"]}), "was a bot's"),
        (lambda ls: ls.__setitem__(0, {**ls[0], "names": ["Ann", "Ben", "Cy"]}), "do not add up"),
        (lambda ls: ls.__setitem__(3, {"event": {"game": "big2", "type": "NoSuchThing"}}), "cannot be read"),
        (lambda ls: ls.__setitem__(3, [1, 2]), "is not an event"),
    ]
    for change, words in bad:
        changed = json.loads(json.dumps(lines))
        change(changed)
        write_lines(path, changed)
        with pytest.raises(ReplayError, match=words) as caught:
            check_seen(path, tmp_path)
        assert str(caught.value).endswith(".") and "\n" not in str(caught.value)
    path.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(ReplayError, match="is not JSON"):
        load_seen(path)


def test_older_readers_and_the_full_replay_checks_refuse_it_cleanly(tmp_path: Path) -> None:
    table = play_out(bot_match("screw", 3, ["easy"] * 3, seed=5))
    path = keep_seen(seen_of(table, 1), tmp_path)
    first = lines_of(path)[0]
    assert first["seen"] is True and "seed" not in first
    with pytest.raises(FormatError, match="another version of Parlour"):
        Header.from_data(first)  # what a reader of full replays only makes of it
    for reader in (verify_replay, load_replay):
        with pytest.raises(ReplayError, match="what one seat saw of a LAN game"):
            reader(path)


def test_parlour_replays_lists_it_beside_the_full_replays(tmp_path: Path) -> None:
    table = play_out(bot_match("screw", 3, ["easy"] * 3, seed=5))
    full = host_replay(table, tmp_path)
    mine = keep_seen(seen_of(table, 1), tmp_path)
    watched = keep_seen(seen_of(table, None), tmp_path)
    kept = {info.path: info for info in list_replays(tmp_path)}
    assert set(kept) == {full, mine, watched}
    assert kept[full].seen is None and kept[full].problem is None
    assert kept[mine].seen == "as Ben (seat 1) saw it at Parlour, table NGQC" and kept[mine].problem is None
    assert kept[mine].result == kept[full].result and kept[mine].game == kept[full].game
    assert kept[watched].seen is not None and kept[watched].seen.startswith("as a spectator")
    assert mine.name.endswith("-screw-NGQC-seat1.jsonl") and watched.name.endswith("-watch.jsonl")


def test_the_cursor_steps_through_the_events() -> None:
    table = play_out(bot_match("big2", 2, ["easy", "easy"], deals=1, seed=3))
    record = seen_of(table, 0)
    cursor = SeenCursor(record)
    assert cursor.position == 0 and cursor.last_events() == [] and cursor.total == len(record.events)
    cursor.go(3)
    assert cursor.last_events() == [record.events[2]] and cursor.shown() == record.events[:3]
    cursor.go(10**6)
    assert cursor.position == cursor.total
    cursor.go(-5)
    assert cursor.position == 0


# -- statistics ------------------------------------------------------------------------------------------------------
def test_a_lan_game_is_counted_apart_with_its_opponents_listed(tmp_path: Path) -> None:
    stats = tmp_path / "stats.sqlite3"
    local = play_out(bot_match("screw", 4, [None, "medium", "medium", "medium"], seed=5))
    assert record_game(local, 0, path=stats) is None
    lan = play_out(bot_match("screw", 4, ["medium"] * 4, seed=6))
    lan.seats[1].level = None  # Ben is a person at the LAN table
    record = seen_of(lan, 0)
    assert record.header.levels == (None, None, "medium", "medium")
    assert record_game(record, path=stats) is None
    assert record_game(record, path=stats) is None  # the same match counts once
    groups = summary(stats)["groups"]
    assert [(g["kind"], g["level"], g["games"]) for g in groups] == [
        ("local", "medium", 1),
        ("lan", "people: Ben; bots: medium x2", 1),
    ]
    assert groups[1]["opponents"] == "LAN: people: Ben; bots: medium x2"
    result = lan.state.result
    assert result is not None
    assert groups[1]["wins"] == int(0 in result.winners) and groups[1]["mean_score"] == result.scores[0]
    assert sorted(groups[1]["figures"]) == ["hands_paid", "paid_per_hand"]


def test_a_lan_game_against_bots_only_is_not_merged_with_a_local_one(tmp_path: Path) -> None:
    stats = tmp_path / "stats.sqlite3"
    for seed in (5, 6):
        table = play_out(bot_match("big2", 4, [None, "medium", "medium", "medium"], deals=1, seed=seed))
        assert record_game(table, 0, path=stats) is None
        assert record_game(seen_of(table, 0, match=f"m{seed}"), path=stats) is None
    groups = summary(stats)["groups"]
    assert [(g["kind"], g["level"], g["games"]) for g in groups] == [
        ("local", "medium", 2),
        ("lan", "bots: medium x3", 2),
    ]


def test_finish_seen_keeps_and_counts_a_player_but_only_keeps_a_spectator(tmp_path: Path) -> None:
    stats = tmp_path / "stats.sqlite3"
    table = play_out(bot_match("screw", 3, ["easy"] * 3, seed=5))
    watched = finish_seen(seen_of(table, None), tmp_path, stats)
    assert watched.problems == [] and watched.replay is not None and not stats.exists()
    played = finish_seen(seen_of(table, 2), tmp_path, stats)
    assert played.problems == [] and played.replay is not None
    assert summary(stats)["games"] == 1
    with pytest.raises(Exception, match="spectator"):
        record_game(seen_of(table, None), path=stats)


def test_finish_seen_says_a_disk_problem_in_sentences(tmp_path: Path) -> None:
    table = play_out(bot_match("screw", 3, ["easy"] * 3, seed=5))
    blocked = tmp_path / "file"
    blocked.write_text("not a directory", encoding="utf-8")
    done = finish_seen(seen_of(table, 0), blocked / "replays", blocked / "stats.sqlite3")
    assert done.replay is None and len(done.problems) == 2
    assert done.problems[0].startswith("The replay of this game could not be kept (")
    assert all(problem.endswith(".") and "\n" not in problem for problem in done.problems)


def test_statistics_of_the_first_schema_are_migrated(tmp_path: Path) -> None:
    stats = tmp_path / "stats.sqlite3"
    conn = sqlite3.connect(stats)
    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute(
        "INSERT INTO games (match, finished_at, game, preset, level, players, seat, won, shared, score, counts, seed)"
        " VALUES ('m', '2024-01-01T00:00:00+00:00', 'screw', 'screw', 'easy', 3, 0, 1, 0, 2.0, '{}', 5)"
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    report = summary(stats)
    assert report["schema"] == SCHEMA == 2
    assert [(g["kind"], g["level"], g["games"], g["wins"]) for g in report["groups"]] == [("local", "easy", 1, 1)]
