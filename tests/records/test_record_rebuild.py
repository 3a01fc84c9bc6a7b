"""A record (header + actions) rebuilds the very table it was taken from, at any point of a match of any game."""

from __future__ import annotations

import json
from typing import Any

import pytest
from records_helpers import MATCHES, bot_match, picture, play_out

from engine.cards import parse_cards
from engine.errors import NotYourTurnError
from engine.game import Scenario
from engine.games.chase.rules import ChaseAction
from engine.records.record import FormatError, Header, RecordError, action_data, read_action, rebuild
from engine.registry import get_entry
from engine.table import Table


def through_json(header: Header, actions: list[tuple[int, Any]]) -> tuple[Header, list[tuple[int, Any]]]:
    """The header and actions as a file holds them, read back."""
    data = json.loads(json.dumps({"header": header.to_data(), "actions": [action_data(s, a) for s, a in actions]}))
    return Header.from_data(data["header"]), [read_action(item) for item in data["actions"]]


@pytest.mark.parametrize(("game", "players", "bots", "variants", "deals", "seed"), MATCHES)
def test_a_rebuilt_table_is_the_original_and_plays_on_the_same(
    game: str, players: int, bots: list[str], variants: tuple[str, ...], deals: int | None, seed: int
) -> None:
    # The first seat is a person's (its moves: the first legal action); the others are bots of several levels.
    table = bot_match(game, players, [None, *bots[1:]], variants, deals, seed)
    header = Header.of(table)
    total = len(play_out(bot_match(game, players, [None, *bots[1:]], variants, deals, seed)).actions)
    cuts = sorted({0, 1, total // 3, (2 * total) // 3})
    pictures = {}
    for cut in cuts:
        play_out(table, limit=cut)
        pictures[cut] = picture(table)
    play_out(table)
    final = picture(table)
    assert table.state.is_over and len(table.actions) == total

    for cut in cuts:
        read_header, actions = through_json(header, table.actions[:cut])
        rebuilt = rebuild(read_header, actions)
        assert picture(rebuilt) == pictures[cut], f"after {cut} of {total} actions"
        assert rebuilt.started_at == table.started_at and rebuilt.variants == table.variants
        # The same bots and levels, the same RNG for what is still to come: it plays on to the very same end.
        play_out(rebuilt)
        assert picture(rebuilt) == final, f"played on from {cut} of {total} actions"


def test_every_action_is_kept_with_its_seat_as_an_object_and_a_refusal_keeps_nothing() -> None:
    table = Table.create("screw", players=3, seed=4, bots=[None, "easy", "easy"])
    table.run()
    assert [seat for seat, _ in table.actions] == [1, 2]  # the bots' moves are kept too
    before = (list(table.actions), list(table.bounds))
    with pytest.raises(NotYourTurnError):
        table.submit(1, "stay")
    assert (table.actions, table.bounds) == before
    events = table.submit(0, "stay")  # text, read by the game
    assert table.actions[-1] == (0, ChaseAction.STAY) and isinstance(table.actions[-1][1], ChaseAction)
    assert table.state.history[table.bounds[-2] : table.bounds[-1]] == events


def test_a_planned_start_is_kept_and_dealt_again() -> None:
    game = get_entry("screw").game
    order = game.deck_for(players=3, dealer=2, hands=[parse_cards("2C"), parse_cards("9H"), parse_cards("KD")])
    scenario = Scenario(decks=(order,), dealer=2, totals=(1, 3, 3))
    table = Table.create("screw", players=3, seed=1, bots=[None, "easy", "easy"], scenario=scenario)
    table.submit(0, "trade")
    table.run()
    header, actions = through_json(Header.of(table), table.actions)
    assert header.scenario == scenario
    rebuilt = rebuild(header, actions)
    assert picture(rebuilt) == picture(table)
    assert [str(card) for card in rebuilt.state.zones()["hand 0"]] != []


def test_an_action_the_engine_refuses_is_named() -> None:
    table = play_out(Table.create("big2", players=4, seed=3, bots=["easy"] * 4), limit=6)
    actions = list(table.actions)
    actions[4] = actions[3]  # the previous seat's move again
    with pytest.raises(RecordError, match=r"^action 5 \(seat \d's .*\) is refused: "):
        rebuild(Header.of(table), actions)


def good_header() -> dict[str, Any]:
    return Header.of(Table.create("chase", players=3, seed=9, bots=[None, "easy", "hard"])).to_data()


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        ({"format": 2}, FormatError, "another version of Parlour (record format 2"),
        ({"format": None}, FormatError, "record format None"),
        ({"game": "poker"}, RecordError, "no game called 'poker'"),
        ({"game": 3}, RecordError, "its game is not text"),
        ({"options": {"game": "big2", "type": "Big2Options"}}, RecordError, "its options are not"),
        ({"options": "high"}, RecordError, "its options are not"),
        ({"levels": [None, "easy"]}, RecordError, "its seats do not add up"),
        ({"levels": [None, "easy", "godlike"]}, RecordError, "unknown difficulty"),
        ({"names": ["a", "b", 3]}, RecordError, "a seat's name is not text"),
        ({"names": "abc"}, RecordError, "its names is not a list"),
        ({"players": 4}, RecordError, "its seats do not add up"),
        ({"seed": -1}, RecordError, "a seed is a whole number"),
        ({"seed": "7"}, RecordError, "a seed is a whole number"),
        ({"variants": [1]}, RecordError, "a variant is not text"),
        ({"started_at": "yesterday"}, RecordError, "its header does not fit"),
        ({"scenario": {"decks": [["ZZ"]]}}, RecordError, "not a card"),
        ({"scenario": [1]}, RecordError, "planned start is not a JSON object"),
    ],
)
def test_a_header_that_does_not_fit_is_refused_with_a_clause(
    change: dict[str, Any], error: type[Exception], words: str
) -> None:
    data = good_header() | change
    with pytest.raises(error) as caught:
        Header.from_data(data)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_header_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(RecordError, match="not a JSON object"):
        Header.from_data([1, 2])
    assert Header.from_data(good_header()).levels == (None, "easy", "hard")
