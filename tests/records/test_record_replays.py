"""Replays: every finished match kept as JSON Lines, played again event by event; one edited event is found."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from records_helpers import MATCHES, bot_match, play_out

from engine import codec
from engine.records import paths
from engine.records.replays import ReplayError, check_replay, keep_replay, list_replays, verify_replay
from engine.table import Table


def finished(game: str = "screw", seed: int = 5) -> Table:
    players = 2 if game == "trash" else 3
    deals = 1 if game in ("big2", "rank") else None
    return play_out(bot_match(game, players, [None] + ["easy"] * (players - 1), seed=seed, deals=deals))


def lines(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write(path: Path, data: list[Any]) -> None:
    path.write_text("".join(json.dumps(item) + "\n" for item in data), encoding="utf-8")


@pytest.mark.parametrize(("game", "players", "bots", "variants", "deals", "seed"), MATCHES)
def test_a_kept_match_of_every_game_plays_again_identically(
    game: str, players: int, bots: list[str], variants: tuple[str, ...], deals: int | None, seed: int
) -> None:
    table = play_out(bot_match(game, players, bots, variants, deals, seed))
    path = keep_replay(table)
    assert path.parent == paths.replays_dir() and path.name.endswith(f"-{game}-{seed}.jsonl")
    check = verify_replay(path)
    assert check.difference is None
    assert (check.actions, check.events) == (len(table.actions), len(table.state.history))
    data = lines(path)
    header = data[0]
    assert header["format"] == 1 and header["game"] == game and header["seed"] == seed
    assert header["variants"] == list(variants) and header["levels"] == bots
    assert header["result"]["winners"] == list(table.state.result.winners)  # type: ignore[union-attr]
    assert codec.decode(header["options"]) == table.options
    assert len(data) == 2 + len(table.actions)
    # Every event of the match, in full and in order, in the codec's form.
    assert [e for line in data[1:] for e in line["events"]] == [codec.encode(e) for e in table.state.history]
    assert [(line["seat"], codec.decode(line["action"])) for line in data[2:]] == table.actions


def test_one_edited_event_is_found_with_its_action_number() -> None:
    path = keep_replay(finished("big2"))
    data = lines(path)
    number = 7
    event = data[1 + number]["events"][0]
    assert event["type"] == "Played"
    event["seat"] = (event["seat"] + 1) % 3
    write(path, data)
    difference = check_replay(path)
    assert difference is not None and difference.startswith(f"Action {number} (seat ")
    assert "event 1 (Played): expected seat " in difference and "\n" not in difference


def test_an_edited_deal_a_missing_event_an_edited_action_and_a_cut_are_found() -> None:
    path = keep_replay(finished("screw"))
    data = lines(path)

    deal = json.loads(json.dumps(data))
    deal[1]["events"][1]["card"] = "KS" if deal[1]["events"][1].get("card") != "KS" else "QS"
    write(path, deal)
    assert check_replay(path).startswith("The deal (before any action), event 2")  # type: ignore[union-attr]

    missing = json.loads(json.dumps(data))
    missing[3]["events"].append(missing[3]["events"][0])
    write(path, missing)
    expected, found = len(missing[3]["events"]), len(data[3]["events"])
    assert check_replay(path) == f"Action 2 ({_describe(data[3])}): expected {expected} events but found {found}."

    refused = json.loads(json.dumps(data))
    refused[2]["seat"] = (refused[2]["seat"] + 1) % 3
    write(path, refused)
    assert "is refused by the engine: it is not seat" in check_replay(path)  # type: ignore[operator]

    write(path, data[:-3])
    cut = check_replay(path)
    assert cut is not None and cut.startswith(f"After the last action ({len(data) - 5}): expected the result ")

    write(path, data)
    assert check_replay(path) is None


def _describe(line: dict[str, Any]) -> str:
    return f"seat {line['seat']}'s {str(codec.decode(line['action']))!r}"


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("", "is empty"),
        ("not json\n", "Line 1 of"),
        ('{"format": 2}\n', "cannot be checked: it was written by another version of Parlour"),
        ("[1]\n", "is not a replay: its header is not a JSON object"),
    ],
)
def test_a_file_that_is_not_a_replay_is_one_sentence(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ReplayError) as caught:
        verify_replay(path)
    assert words in str(caught.value) and str(caught.value).endswith(".") and "\n" not in str(caught.value)


def test_a_missing_file_and_a_bad_line_are_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match=r"^There is no file .*nothing\.jsonl\.$"):
        verify_replay(tmp_path / "nothing.jsonl")
    path = keep_replay(finished())
    text = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([*text[:4], "[garbage", *text[4:]]) + "\n", encoding="utf-8")
    with pytest.raises(ReplayError, match=r"^Line 5 of .* is not JSON, so the file is not a replay\.$"):
        verify_replay(path)
    path.write_text("\n".join([text[0], "[1, 2]"]) + "\n", encoding="utf-8")
    with pytest.raises(ReplayError, match="has no line for the deal"):
        verify_replay(path)


def test_only_a_finished_match_is_kept() -> None:
    with pytest.raises(Exception, match="only a finished match"):
        keep_replay(bot_match("screw", 3, [None, "easy", "easy"]))


def test_the_kept_games_are_listed_newest_first_and_a_name_is_never_reused() -> None:
    first = keep_replay(finished("screw", seed=5))
    second = keep_replay(finished("screw", seed=5))  # the same game and seed, maybe the same second
    third = keep_replay(finished("trash", seed=8))
    assert len({first, second, third}) == 3
    (paths.replays_dir() / "broken.jsonl").write_text("garbage\n")
    (paths.replays_dir() / "notes.txt").write_text("not a replay\n")
    kept = list_replays()
    assert [info.path for info in kept[:3]] == [third, second, first]
    assert kept[0].game == "Trash" and kept[0].players == ("You", "Ben") and kept[0].result.endswith(" won")
    assert kept[-1].path.name == "broken.jsonl" and kept[-1].problem == "it is not a replay"
    assert len(kept) == 4


def test_no_replays_directory_is_no_games() -> None:
    assert list_replays() == []
