"""A match as a record: a header (what was set up) and the actions, from which the engine rebuilds the match.

The engine is deterministic: the same game, options, seats and seed, and the same actions in the same order, give
the same match, card for card, whoever or whatever chose the actions and however long they took. So a record holds
no cards and no state: a :class:`Header` and ``table.actions``. :func:`rebuild` plays the actions again through a
fresh table and checks that each is accepted; the table it gives is the one that was recorded (the same cards, the
seat to move, the bots and their levels, the state of the RNG for what is still to come).

A header is read as a stranger's input (:meth:`Header.from_data`, :meth:`SeenHeader.from_data`): its game, preset,
variants and levels are checked against the registry (each variant one of the game's, all of them playable together
under the preset its options were made from), each name as a name typed at the table is
(:func:`engine.names.name_problem`: no control or escape characters), and a LAN record's host, table code and match
identity too; anything else is a :class:`RecordError`, so nothing a file holds reaches the terminal unchecked.

>>> from engine.table import Table
>>> table = Table.create("big2", players=4, seed=7, bots=[None, "easy", "easy", "easy"], variants=["Taiwan"])
>>> table.submit(0, table.state.legal_actions()[0])
[...]
>>> table.run()
>>> header = Header.of(table)
>>> header.game, header.variants, header.levels, Header.from_data(header.to_data()) == header
('big2', ('taiwan',), (None, 'easy', 'easy', 'easy'), True)
>>> again = rebuild(header, table.actions)
>>> again.state.view(0) == table.state.view(0) and again.state.to_move == table.state.to_move
True
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine import __version__, codec
from engine.cards import Card
from engine.errors import ParlourError, echo
from engine.game import Action, ActionT, Game, MatchResult, OptionsT, Scenario, ViewT
from engine.names import name_problem
from engine.registry import check_level, get_entry, make_bot
from engine.table import SeatInfo, Table, check_seed

if TYPE_CHECKING:
    from engine.session import TableInfo

FORMAT = 1
"""The record format this version writes and reads. A record of another format is refused, never guessed at."""
SEEN_FORMAT = "seen-1"
"""The format of a LAN seat's record of what it saw (:mod:`engine.records.seen`): not a number, so a reader of full
records only (an older Parlour) refuses it as another format, cleanly, and never tries to play it."""


class RecordError(ParlourError):
    """A record that cannot be used; the message is a clause (no capital, no full stop) for a sentence."""

    code = "bad_record"


class FormatError(RecordError):
    """A record written in another format (by another version of Parlour)."""


@dataclass(frozen=True)
class Header:
    """What a match was set up with: enough, with the actions, to rebuild it exactly."""

    game: str
    """The registry key the table was made with (``screw``, ``chase``, ``big2``...)."""
    preset: str
    variants: tuple[str, ...]
    options: object
    """The game's typed options (in the file, in the codec's form): the authority; preset and variants say it in
    words."""
    names: tuple[str, ...]
    levels: tuple[str | None, ...]
    """Each seat's computer player level, None for a person."""
    seed: int
    scenario: Scenario | None
    started_at: str
    """When the match began, UTC, ISO 8601."""
    parlour: str = __version__
    """The version of Parlour that wrote the record (shown; the format number is what is checked)."""
    format: int = FORMAT
    takebacks: int = 0
    """How many moves a person took back in the match (:meth:`engine.table.Table.take_back`): written only when
    some were (``"takebacks": 2``), so a record without it, of any age, is a match without takebacks."""

    @property
    def players(self) -> int:
        return len(self.names)

    @classmethod
    def of(cls, table: Table) -> Header:
        """The header of ``table`` as it is now (a seat taken over by a bot shows the bot's level)."""
        return cls(
            game=table.entry.key,
            preset=table.preset,
            variants=tuple(table.variants),
            options=table.options,
            names=tuple(seat.name for seat in table.seats),
            levels=tuple(seat.level for seat in table.seats),
            seed=table.seed,
            scenario=table.scenario,
            started_at=table.started_at,
            takebacks=table.takebacks,
        )

    def to_data(self) -> dict[str, Any]:
        """Plain JSON data (the options in the codec's form)."""
        marked = {"takebacks": self.takebacks} if self.takebacks else {}
        return marked | {
            "format": self.format,
            "parlour": self.parlour,
            "game": self.game,
            "preset": self.preset,
            "variants": list(self.variants),
            "options": codec.encode(self.options),
            "players": self.players,
            "names": list(self.names),
            "levels": list(self.levels),
            "seed": self.seed,
            "scenario": scenario_data(self.scenario),
            "started_at": self.started_at,
        }

    @classmethod
    def from_data(cls, data: object) -> Header:
        """The header in ``data``; FormatError for another format, RecordError for anything else wrong."""
        if not isinstance(data, Mapping):
            raise RecordError("its header is not a JSON object")
        version = data.get("format")
        if version != FORMAT:
            raise FormatError(
                f"it was written by another version of Parlour (record format {echo(version, 20)}, "
                f"this version reads format {FORMAT})"
            )
        try:
            entry = get_entry(_text(data, "game"))
            game = entry.game
            options = codec.decode(data.get("options"))
            expected = type(game.options(entry.preset))
            if not isinstance(options, expected):
                raise RecordError(f"its options are not {game.name}'s")
            names = _names(data)
            levels = _list(data, "levels")
            players = len(names)
            game.check_players(players)
            if data.get("players") != players or len(levels) != players:
                raise RecordError("its seats do not add up")
            checked: list[str | None] = [None if level is None else check_level(game, level) for level in levels]
            seed = data.get("seed")
            check_seed(seed)
            assert isinstance(seed, int)
            variants = _variants(data, game, options)
            started = _text(data, "started_at")
            datetime.datetime.fromisoformat(started)
            return cls(
                game=entry.key,
                preset=game.preset_key(options),
                variants=tuple(variants),
                options=options,
                names=tuple(names),
                levels=tuple(checked),
                seed=seed,
                scenario=read_scenario(data.get("scenario")),
                started_at=started,
                parlour=_version(data.get("parlour")),
                takebacks=_takebacks(data),
            )
        except RecordError:
            raise
        except ParlourError as err:
            raise RecordError(f"its header does not fit: {err}") from None
        except ValueError as err:
            raise RecordError(f"its header does not fit: {echo(str(err))}") from None


@dataclass(frozen=True)
class SeenHeader:
    """What a LAN seat knew of its table: the game and its rules, who sat where, and whose record it is."""

    game: str
    """The registry key of the game (``screw``, ``big2``...)."""
    preset: str
    variants: tuple[str, ...]
    options: object
    names: tuple[str, ...]
    levels: tuple[str | None, ...]
    """Each seat's bot level at the start, None for a person."""
    seat: int | None
    """The seat this record is of (None: a spectator's)."""
    host: str
    """The host's name (its ``welcome``)."""
    table: str
    """The table's code."""
    match: str | None
    """The match's identity (the host's ``started``): its full replay carries the same."""
    started_at: str
    """When this seat's game began, UTC, ISO 8601."""
    parlour: str = __version__

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def who(self) -> str:
        """Whose record it is, in words: ``Ann (seat 1)``, ``a spectator``."""
        if self.seat is None:
            return "a spectator"
        return f"{self.names[self.seat]} (seat {self.seat})"

    @classmethod
    def of(
        cls,
        info: TableInfo,
        *,
        host: str,
        table: str,
        match: str | None,
        variants: Sequence[str] = (),
        started_at: str | None = None,
    ) -> SeenHeader:
        """The header of a LAN session's record, from its table's information (``started_at`` default: now)."""
        game = get_entry(info.key).game
        return cls(
            game=info.key,
            preset=game.preset_key(info.options),
            variants=tuple(variants),
            options=info.options,
            names=tuple(info.names),
            levels=tuple(info.bots),
            seat=info.seat,
            host=host,
            table=table,
            match=match,
            started_at=started_at or datetime.datetime.now(datetime.UTC).isoformat(),
        )

    def to_data(self) -> dict[str, Any]:
        return {
            "format": SEEN_FORMAT,
            "seen": True,
            "parlour": self.parlour,
            "game": self.game,
            "preset": self.preset,
            "variants": list(self.variants),
            "options": codec.encode(self.options),
            "players": self.players,
            "names": list(self.names),
            "levels": list(self.levels),
            "seat": self.seat,
            "host": self.host,
            "table": self.table,
            "match": self.match,
            "started_at": self.started_at,
        }

    @classmethod
    def from_data(cls, data: object) -> SeenHeader:
        """The header in ``data``; RecordError (a clause) for anything that does not fit."""
        if not isinstance(data, Mapping) or data.get("format") != SEEN_FORMAT:
            raise RecordError("it is not the record of what a seat saw")
        try:
            entry = get_entry(_text(data, "game"))
            game = entry.game
            options = codec.decode(data.get("options"))
            if not isinstance(options, type(game.options(entry.preset))):
                raise RecordError(f"its options are not {game.name}'s")
            names = _names(data)
            levels = _list(data, "levels")
            players = len(names)
            game.check_players(players)
            if data.get("players") != players or len(levels) != players:
                raise RecordError("its seats do not add up")
            checked = tuple(None if level is None else check_level(game, level) for level in levels)
            seat = data.get("seat")
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
                raise RecordError(f"its seat {echo(seat, 20)} is not one of the table's")
            if seat is not None and checked[seat] is not None:
                raise RecordError(f"its seat {seat} was a bot's, not a person's")
            variants = _variants(data, game, options)
            match = data.get("match")
            if match is not None and (not isinstance(match, str) or not _MATCH.fullmatch(match)):
                raise RecordError(f"its match {echo(match, 40)} is not a match's identity")
            started = _text(data, "started_at")
            datetime.datetime.fromisoformat(started)
            return cls(
                game=entry.key,
                preset=game.preset_key(options),
                variants=tuple(variants),
                options=options,
                names=tuple(names),
                levels=checked,
                seat=seat,
                host=_host(data),
                table=_code(data),
                match=match,
                started_at=started,
                parlour=_version(data.get("parlour")),
            )
        except RecordError:
            raise
        except ParlourError as err:
            raise RecordError(f"its header does not fit: {err}") from None
        except ValueError as err:
            raise RecordError(f"its header does not fit: {echo(str(err))}") from None


def _names(data: Mapping[str, Any]) -> list[str]:
    """The seats' names, each checked as a name typed at the table is (:func:`engine.names.name_problem`)."""
    names = _list(data, "names")
    for seat, name in enumerate(names):
        if not isinstance(name, str):
            raise RecordError("a seat's name is not text")
        problem = name_problem(name)
        if problem is not None:
            raise RecordError(f"seat {seat}'s name {echo(name, 40)} is not a name ({problem})")
    return names


def _variants(data: Mapping[str, Any], game: Game[OptionsT, ViewT, ActionT], options: OptionsT) -> list[str]:
    """The variants, each one of the game's and all of them playable together under the record's preset; the
    preset the header names, the one its options were built from."""
    preset = data.get("preset")
    known_presets = {p.key for p in game.presets}
    expected = game.preset_key(options)
    if not isinstance(preset, str) or (preset not in known_presets and preset != expected):
        raise RecordError(f"its preset {echo(preset, 40)} is not one of {game.name}'s")
    if preset != expected:
        raise RecordError(f"its preset {echo(preset, 40)} is not the one its options were made from")
    variants = _list(data, "variants")
    known = {v.key for v in game.variants}
    if not all(isinstance(variant, str) for variant in variants):
        raise RecordError("a variant is not text")
    for variant in variants:
        if variant not in known:
            raise RecordError(f"its variant {echo(variant, 40)} is not one of {game.name}'s")
    if len(set(variants)) != len(variants):
        raise RecordError("it names a variant twice")
    try:
        game.options(preset, variants)
    except ParlourError as err:
        raise RecordError(f"its variants cannot be played together: {err}") from None
    return variants


_MATCH = re.compile(r"[A-Za-z0-9._:|+-]{1,128}")
"""A match's identity as a host writes it (letters, digits and a little punctuation)."""
_CODE = re.compile(r"[A-Za-z0-9]{1,16}")
"""A LAN table's code."""


def _takebacks(data: Mapping[str, Any]) -> int:
    """How many moves were taken back (0 when the record does not say: every record written before takebacks)."""
    value = data.get("takebacks", 0)
    if type(value) is not int or not 0 <= value <= 10**9:
        raise RecordError(f"its number of takebacks {echo(value, 20)} is not a whole number from 0")
    return value


def _host(data: Mapping[str, Any]) -> str:
    """A LAN host's name, checked as a person's name is (it is shown beside the names)."""
    host = _text(data, "host")
    problem = name_problem(host)
    if problem is not None:
        raise RecordError(f"its host's name {echo(host, 40)} is not a name ({problem})")
    return host


def _code(data: Mapping[str, Any]) -> str:
    code = _text(data, "table")
    if not _CODE.fullmatch(code):
        raise RecordError(f"its table {echo(code, 40)} is not a table's code")
    return code


def _version(value: object) -> str:
    """The version of Parlour that wrote the record, as shown: ``?`` for anything but a plain version number."""
    if isinstance(value, str) and re.fullmatch(r"[0-9A-Za-z.+-]{1,40}", value):
        return value
    return "?"


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise RecordError(f"its {key} is not text")
    return value


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise RecordError(f"its {key} is not a list")
    return value


def scenario_data(scenario: Scenario | None) -> dict[str, Any] | None:
    """A planned start (stacked decks, the first dealer, the starting totals) as plain data."""
    if scenario is None:
        return None
    return {
        "decks": [[str(card) for card in deck] for deck in scenario.decks],
        "dealer": scenario.dealer,
        "totals": None if scenario.totals is None else list(scenario.totals),
    }


def read_scenario(data: object) -> Scenario | None:
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise RecordError("its planned start is not a JSON object")
    decks = data.get("decks", [])
    dealer = data.get("dealer")
    totals = data.get("totals")
    if not isinstance(decks, list) or not all(isinstance(deck, list) for deck in decks):
        raise RecordError("its planned decks are not lists of cards")
    if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)):
        raise RecordError("its planned dealer is not a seat")
    if totals is not None and (
        not isinstance(totals, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in totals)
    ):
        raise RecordError("its planned totals are not whole numbers")
    try:
        cards = tuple(tuple(Card.parse(text) for text in deck) for deck in decks)
    except (ParlourError, ValueError, TypeError, AttributeError):
        raise RecordError("its planned decks hold something that is not a card") from None
    return Scenario(decks=cards, dealer=dealer, totals=None if totals is None else tuple(totals))


def result_data(result: MatchResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {"winners": list(result.winners), "scores": list(result.scores)}


def action_data(seat: int, action: Action) -> list[object]:
    """One recorded action as plain data: ``[seat, action in the codec's form]``."""
    return [seat, codec.encode(action)]


def read_action(data: object) -> tuple[int, Action]:
    """A ``[seat, action]`` pair back; RecordError when it is not one."""
    if not isinstance(data, list) or len(data) != 2:
        raise RecordError(f"{echo(data, 60)} is not a [seat, action] pair")
    seat, action = data
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RecordError(f"{echo(seat, 20)} is not a seat")
    try:
        return seat, codec.decode(action)
    except ParlourError as err:
        raise RecordError(f"an action cannot be read: {err}") from None


def new_table(header: Header) -> Table:
    """A fresh table set up as ``header`` says: no action played yet."""
    entry = get_entry(header.game)
    seats = [
        SeatInfo(name=name, level=level, bot=make_bot(entry.game, level) if level is not None else None)
        for name, level in zip(header.names, header.levels, strict=True)
    ]
    try:
        table = Table(entry, header.options, seats, header.seed, header.scenario)
    except ParlourError as err:
        raise RecordError(f"its setup cannot be played: {err}") from None
    table.variants = header.variants
    table.started_at = header.started_at
    table.takebacks = header.takebacks
    return table


def describe_action(seat: int, action: Action) -> str:
    return f"seat {seat}'s {echo(str(action), 60)}"


def rebuild(header: Header, actions: Iterable[tuple[int, Action]]) -> Table:
    """The match ``header`` and ``actions`` record: a fresh table with every action played again, each checked.

    RecordError naming the first action the engine refuses (the rules have changed since, or the record is wrong).
    """
    table = new_table(header)
    for number, (seat, action) in enumerate(actions, start=1):
        try:
            table.submit(seat, action)
        except ParlourError as err:
            raise RecordError(f"action {number} ({describe_action(seat, action)}) is refused: {err}") from None
    return table
