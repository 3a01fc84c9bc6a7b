"""The registry lists every game without loading it, each listing says what its game's spec says, a game defined
elsewhere comes and goes with ``register``/``unregister``, and nothing but a game's own packages names its key."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from engine import codec
from engine.errors import CodecError, ParlourError, UnknownGameError
from engine.listing import Listing
from engine.registry import (
    ENTRIES,
    LISTINGS,
    bot_levels,
    entries,
    games,
    get_entry,
    hint_level,
    listing,
    listings,
    register,
    unregister,
)


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
        after = sorted(m for m in sys.modules if m.startswith("engine.games.") and m not in before)
        # Big Two's move core: the plain module or its compiled copy (engine.games.big2._native*), whichever is used
        after = [m for m in after if m != "engine.games.big2.core" and not m.startswith("engine.games.big2._native")]
        print(before, after, len(titles))
        """
    )
    # Finding the games imports each game's package (its listing) and nothing in it.
    packages = "['engine.games.big2', 'engine.games.chase', 'engine.games.rank', 'engine.games.trash']"
    assert out == f"{packages} ['engine.games.big2.bots', 'engine.games.big2.rules'] 5"


def test_decoding_loads_the_game_it_names() -> None:
    out = _run(
        """
        import sys
        import engine.registry
        from engine import codec
        event = codec.loads('{"game":"trash","type":"TrashOptions"}')
        print(type(event).__name__, "engine.games.trash.rules" in sys.modules, "engine.games.rank.rules" in sys.modules)
        """
    )
    assert out == "TrashOptions True False"


def test_an_unknown_type_of_a_known_game_is_still_refused() -> None:
    with pytest.raises(CodecError, match="unknown type"):
        codec.loads('{"game":"rank","type":"NoSuchThing"}')


def test_the_games_are_found_in_their_packages_in_their_order() -> None:
    assert [known.key for known in listings()] == ["chase", "big2", "trash", "rank"]
    assert LISTINGS == listings()
    assert ENTRIES == entries()


def _stand_in(key: str, names: tuple[str, ...]) -> Listing:
    """Chase's spec and bots under another listing (its key is the spec's, as the registry requires)."""
    chase = listing("chase")
    return Listing(key, chase.spec, chase.bots, tuple((name, None, name.title(), ()) for name in names), (2, 3, 4))


def test_a_game_registered_from_elsewhere_comes_and_goes() -> None:
    before = entries()
    extra = Listing(
        "nogame",
        "engine.games.chase.rules:ChaseGame",
        (("easy", "engine.bots:RandomBot"),),
        (("nogame", None, "No Game", ("ng",)),),
        (2, 2, 2),
        hint=None,
    )
    register(extra)
    try:
        assert listings()[-1] is extra
        assert get_entry("NG").key == "nogame"
        assert listing("nogame") is extra
        assert [entry.key for entry in entries()][-1] == "nogame"
        from engine import registry

        assert registry.ENTRIES[-1].key == "nogame"
        with pytest.raises(ParlourError, match="registered already"):
            register(extra)
    finally:
        unregister("nogame")
    assert entries() == before
    with pytest.raises(UnknownGameError):
        get_entry("nogame")
    unregister("nogame")  # twice: nothing


def test_a_name_of_a_registered_game_cannot_be_taken() -> None:
    with pytest.raises(ParlourError, match="'syn' is another registered game's"):
        register(_stand_in("other", ("syn",)))
    assert "other" not in [known.key for known in listings()]


def test_the_hint_level_is_the_listings() -> None:
    assert [hint_level(get_entry(known.key).game) for known in listings()] == [known.hint for known in listings()]


def test_a_listing_whose_spec_plays_another_game_is_refused_when_loaded() -> None:
    register(_stand_in("other", ("other-game",)))
    try:
        with pytest.raises(ParlourError, match="plays 'chase', not its listing's 'other'"):
            get_entry("other-game").game  # noqa: B018 (reading it loads it)
    finally:
        unregister("other")
    assert listing("chase").key == "chase" and get_entry("screw").game.key == "chase"
