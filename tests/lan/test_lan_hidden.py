"""Hidden information over the LAN: complete matches of every game over real sockets, with several network players,
a spectator and the host's bots; every byte each client received is checked, card by card (a regex over the JSON
text), against what that seat was entitled to see at that moment, by the rules (the conformance harness's witnesses,
fed the full history: never the engine's own redaction).

The moment of a line: an event is the history's event it stands for; a snapshot is the table at its ``version``
(how many actions were applied), whose place in the history is noted as each action is applied (``Table.submit`` is
wrapped for that). Any other line (welcome, table news, chat...) may name no card at all. The table's options are
public rules that may name a card as a rule (Big Two's lead card) and are cut out of the text first.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from lan_helpers import client, play_to_the_end, players_for, running, start_table, until, watch_to_the_end

from engine import codec
from engine.registry import ENTRIES, get_entry
from engine.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
conformance = importlib.import_module("conformance")

KEYS = [entry.key for entry in ENTRIES]


@pytest.mark.parametrize("key", KEYS)
async def test_every_byte_names_only_cards_the_seat_may_see(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    marks: dict[int, dict[int, int]] = {}
    """id(table) -> version -> the length of the history once that version's events are in it."""
    original = Table.submit

    def submit(self: Table, seat: int, action: object) -> Any:
        book = marks.setdefault(id(self), {})
        book.setdefault(self.state.version, len(self.state.history))
        events = original(self, seat, action)
        book[self.state.version] = len(self.state.history)
        return events

    monkeypatch.setattr(Table, "submit", submit)
    players = players_for(key)
    async with running(seed=40 + KEYS.index(key)) as server:
        people = [await client(server, f"P{n}") for n in range(players - 1)]
        watcher = await client(server, "Watcher")
        late = await client(server, "Late")
        code = await start_table(server, people, key, spectators=[watcher])

        async def join_late() -> None:  # a spectator who comes in while the match is being played
            playing = server.tables[code].host
            assert playing is not None
            await until(lambda: playing.table.state.version > 0)  # once a move has been made
            await late.send({"type": "spectate", "table": code})
            await watch_to_the_end(late)

        await asyncio.gather(play_to_the_end(people, seed=17, as_text=0.5), watch_to_the_end(watcher), join_late())
        host = server.tables[code].host
        assert host is not None and host.table.state.is_over and not host.errors
        for c in [*people, watcher, late]:
            await c.close()
    table = host.table
    book = marks[id(table)]
    history = table.state.history
    game_key = get_entry(key).game.key
    watchers: list[int | None] = [*range(players), None]
    # What each watcher may see after each event of the history (in events), and in a view at each length.
    witness = conformance.PLUGS[game_key].witness(players)
    in_views = [{w: witness.may_see_in_view(w) for w in watchers}]
    in_events = []
    for event in history:
        witness.feed(event)
        in_events.append({w: witness.may_see(w) for w in watchers})
        in_views.append({w: witness.may_see_in_view(w) for w in watchers})
    # The version each event came with (the action that made it; 0 for the first deal).
    made_at = [min(v for v, length in book.items() if length > i) for i in range(len(history))]
    rules = codec.dumps(table.options)
    checked = {"event": 0, "snapshot": 0, "other": 0}
    for seat, c in [*enumerate(people), (None, watcher), (None, late)]:
        mine = [i for i, event in enumerate(history) if event.for_seat(seat) is not None]
        events_seen = 0
        first_snapshot = True
        for raw in c.raw:
            text = raw.decode("utf-8").replace(rules, "")
            cards = conformance.card_tokens(text)
            data = json.loads(raw)
            kind = data["type"]
            if kind == "event":
                index = mine[events_seen]
                events_seen += 1
                assert data["event"] == codec.encode(history[index].for_seat(seat)), "an event out of order"
                # A snapshot of the event's version (or later) already shows it.
                assert data["version"] >= made_at[index], "an event's version is older than its action"
                allowed = in_events[index][seat]
                checked["event"] += 1
            elif kind == "snapshot":
                assert data["snapshot"]["seat"] == seat
                if first_snapshot:  # it shows exactly the events sent before it
                    shown = book[data["snapshot"]["version"]]
                    assert events_seen == sum(1 for i in mine if i < shown), "the first snapshot and events disagree"
                    first_snapshot = False
                allowed = in_views[book[data["snapshot"]["version"]]][seat]
                checked["snapshot"] += 1
            else:
                if kind == "started":  # the seed would deal every card to come: it never crosses the wire
                    assert data["info"]["seed"] is None, "the table's seed was sent"
                allowed = set()
                checked["other"] += 1
            leaked = cards - allowed
            assert not leaked, f"seat {seat} was sent {sorted(leaked)} in a {kind} line: {text[:300]}"
        assert events_seen == len(mine), f"seat {seat} got {events_seen} of its {len(mine)} events"
    assert checked["event"] > 50 and checked["snapshot"] > 5 and checked["other"] > 5, checked
