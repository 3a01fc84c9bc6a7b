"""The registry lists every game without loading it, and each listing says what its game's spec says."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from engine import codec
from engine.errors import CodecError
from engine.registry import ENTRIES, LISTINGS, Listing, bot_levels, games, get_entry, listing


@pytest.mark.parametrize("known", LISTINGS, ids=lambda known: known.key)
def test_each_listing_agrees_with_its_games_spec(known: Listing) -> None:
    found = listing(known.entries[0][0])
    assert found is known
    game = get_entry(found.entries[0][0]).game
    assert game.key == found.key
    assert tuple((e.key, e.preset, e.title, e.aliases) for e in game.entries()) == found.entries
    assert (game.min_players, game.default_players, game.max_players) == found.players
    assert tuple(bot_levels(game)) == found.levels


def test_every_entry_of_a_game_gives_the_same_game() -> None:
    for game in games():
        mine = [entry for entry in ENTRIES if entry.game is game]
        assert [entry.key for entry in mine] == [entry.key for entry in game.entries()]


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout.strip()


def test_a_game_is_loaded_only_when_it_is_needed() -> None:
    out = _run(
        """
        import sys
        from engine.registry import ENTRIES, get_entry, listing
        titles = [entry.title for entry in ENTRIES]
        assert listing("capsa").players == (2, 4, 4)
        before = sorted(m for m in sys.modules if m.startswith("engine.games."))
        get_entry("big2").game.new_match
        after = sorted(m for m in sys.modules if m.startswith("engine.games."))
        # Big Two's move core: the plain module or its compiled copy (engine.games.big2._native*), whichever is used
        after = [m for m in after if m != "engine.games.big2.core" and not m.startswith("engine.games.big2._native")]
        print(before, after, len(titles))
        """
    )
    assert out == "[] ['engine.games.big2', 'engine.games.big2.bots', 'engine.games.big2.rules'] 5"


def test_decoding_loads_the_game_it_names() -> None:
    out = _run(
        """
        import sys
        import engine.registry
        from engine import codec
        event = codec.loads('{"game":"trash","type":"TrashOptions"}')
        print(type(event).__name__, "engine.games.trash.rules" in sys.modules, "engine.games.rank" in sys.modules)
        """
    )
    assert out == "TrashOptions True False"


def test_an_unknown_type_of_a_known_game_is_still_refused() -> None:
    with pytest.raises(CodecError, match="unknown type"):
        codec.loads('{"game":"rank","type":"NoSuchThing"}')
