"""A walkthrough of a game's rules: for each rule of its rules text, a stacked deal played a step at a time.

Opened from the rules pane ("Show me"). A game's listing names its walkthrough (``Listing.walkthrough``,
``module:function``), a function ``walkthrough(preset) -> Walkthrough`` beside its rules. Each :class:`Step` is a
deal stacked through the scenario API (:class:`~engine.game.Scenario`), a few moves made before it opens
(``setup``) and the moves it shows, each with a sentence on what happens and why. A move may be *asked*: the player
makes it (or presses Enter to see it made); any other legal move is refused with the step's own words, and
nothing changes.

Which rules a step shows is written as fragments of the rules text (:attr:`Step.rules`): each fragment must occur
in exactly one of the game's rules (:func:`rule_units`: every bullet and paragraph of the rules pane's text, and
every house rule), and every rule must be shown by at least one step (:func:`uncovered`). A step's position and its
outcome are the engine's: :class:`Walk` plays it through the game's own :meth:`~engine.game.GameState.apply`, and
checks after each move the events it names (:attr:`Move.shows`) and its condition (:attr:`Move.expect`), so
``tests/engine/test_walkthroughs.py`` plays every step of every game and fails on one the rules no longer allow.

This module imports only the engine's core, so a game's package may import it.

>>> units = rule_units("# G\\n\\nIntro.\\n\\n## A hand\\n- One **rule**,\\n  two lines.\\n  - A sub-rule.\\n")
>>> [unit.text for unit in units]
['Intro.', 'One rule, two lines.', 'A sub-rule.']
>>> [unit.section for unit in units]
['', 'A hand', 'A hand']
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import parse_cards
from engine.errors import ParlourError
from engine.events import Event
from engine.game import Game, GameState, Scenario

__all__ = [
    "Check",
    "Move",
    "RuleUnit",
    "Step",
    "Walk",
    "Walkthrough",
    "WalkthroughError",
    "all_of",
    "cards_shown",
    "matching_units",
    "rule_units",
    "uncovered",
]

SEAT_NAMES = ("You", "Ada", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")
"""The players' names in a walkthrough: seat 0 is the player."""


Check = Callable[[Any], bool]
"""A condition on a game's state after a move (:attr:`Move.expect`)."""


def all_of(*checks: Check) -> Check:
    """The condition that every one of ``checks`` holds."""
    return lambda state: all(check(state) for check in checks)


def cards_shown(text: str) -> str:
    """Cards as a player reads them: ``"3D 3S JK"`` is ``"3♦ 3♠ Joker"``."""
    return " ".join(card.pretty() for card in parse_cards(text))


class WalkthroughError(ParlourError):
    """A step the rules do not allow (a move that is not legal there, an outcome that did not happen)."""


@dataclass(frozen=True)
class Move:
    """One move of a step: who makes it, the action in its text form, and what it shows."""

    seat: int
    action: str
    """The action as the game's ``parse_action`` reads it (``"trade"``, ``"play 3D 3S"``...)."""
    says: str
    """After the move: what happened and why, in a sentence or two a player who does not know the game follows."""
    asked: bool = False
    """The player is asked to make this move (its ``seat`` is then 0); else it is shown being made."""
    ask: str = ""
    """Before an asked move: what the player is asked to do ("Trade with Ada: press t")."""
    shows: tuple[str, ...] = ()
    """Names of event classes that must be among the move's events (``"TradeBlocked"``)."""
    expect: Check | None = None
    """A condition on the game's state after the move (the test and :class:`Walk` check it)."""


@dataclass(frozen=True)
class Step:
    """One rule (or a few that go together) shown on a stacked deal."""

    title: str
    rules: tuple[str, ...]
    """Fragments of the rules text, each found in exactly one rule (see :func:`matching_units`)."""
    intro: str
    """Before the first move: the position, and what to watch."""
    players: int
    scenario: Scenario
    moves: tuple[Move, ...]
    setup: tuple[tuple[int, str], ...] = ()
    """Moves made before the step opens, as (seat, action text)."""
    variants: tuple[str, ...] = ()
    """House rules switched on for this step."""
    seed: int = 0
    """The RNG of whatever chance the stacked decks leave (a reshuffle, a joker put back)."""
    names: tuple[str, ...] = ()
    """The players' names (default: :data:`SEAT_NAMES`)."""

    def seat_names(self) -> tuple[str, ...]:
        names = self.names or SEAT_NAMES
        return tuple(names[: self.players])


@dataclass(frozen=True)
class Walkthrough:
    """A game's walkthrough under one preset: its steps, in the order of the rules."""

    steps: tuple[Step, ...]
    table: Callable[[Any, Sequence[str]], list[str]] | None = None
    """The position as a player reads it, one line a place (``state, names -> lines``); None: every place of the
    game's :meth:`~engine.game.GameState.zones`, every card shown."""


@dataclass(frozen=True)
class RuleUnit:
    """One rule of a rules text: a bullet (with its continuation lines) or a paragraph, in plain words."""

    section: str
    """The ``##`` heading it is under ("" before the first)."""
    text: str


_MARKUP = re.compile(r"\*\*|`")
_BULLET = re.compile(r"^(\s*)- (.*)$")


def _plain(text: str) -> str:
    return " ".join(_MARKUP.sub("", text).split())


def rule_units(markdown: str) -> list[RuleUnit]:
    """Every rule of a rules text: each bullet and each paragraph (headings are not rules). Under the house rules'
    heading only the bullets count (its paragraphs say how to switch one on)."""
    units: list[RuleUnit] = []
    section = ""
    current: list[str] | None = None

    def close() -> None:
        nonlocal current
        if current:
            units.append(RuleUnit(section, _plain(" ".join(current))))
        current = None

    for line in markdown.splitlines():
        if not line.strip():
            close()
            continue
        if line.startswith("#"):
            close()
            section = line.lstrip("#").strip() if line.startswith("##") else ""
            continue
        bullet = _BULLET.match(line)
        if bullet is not None:
            close()
            current = [bullet.group(2)]
        elif current is not None:
            current.append(line.strip())
        elif not section.startswith("House rules"):
            current = [line.strip()]
    close()
    return units


def matching_units(fragment: str, units: Sequence[RuleUnit]) -> list[RuleUnit]:
    """The rules whose plain text holds ``fragment`` (markup and spacing ignored, case kept)."""
    wanted = _plain(fragment)
    return [unit for unit in units if wanted in unit.text]


def uncovered(walkthrough: Walkthrough, units: Sequence[RuleUnit]) -> list[RuleUnit]:
    """The rules no step of ``walkthrough`` shows."""
    shown = {
        id(unit) for step in walkthrough.steps for fragment in step.rules for unit in matching_units(fragment, units)
    }
    return [unit for unit in units if id(unit) not in shown]


@dataclass
class Walk:
    """One step being played: the state after its setup, then after each move made.

    >>> from engine.cards import parse_cards
    >>> from engine.registry import get_entry
    >>> game = get_entry("screw").game
    >>> deck = game.deck_for(players=2, dealer=1, hands=[parse_cards("2C"), parse_cards("9H")])
    >>> step = Step("Trade", ("trades",), "You hold the 2♣.", 2, Scenario(decks=(deck,), dealer=1),
    ...             (Move(0, "trade", "You now hold the 9♥.", asked=True),))
    >>> walk = Walk(game, game.options("screw"), step)
    >>> walk.refusal("stay")
    'Not this time: trade (or press Enter to see it made)'
    >>> [type(event).__name__ for event in walk.make("trade")][:1]
    ['Traded']
    >>> walk.done, [str(card) for card in walk.state.zones()["hand 0"]]
    (True, ['9H'])
    """

    game: Game[Any, Any, Any]
    options: Any
    step: Step
    state: GameState[Any, Any, Any] = field(init=False)
    made: int = field(default=0, init=False)
    """How many of the step's moves have been made."""
    events: list[Event] = field(default_factory=list, init=False)
    """The events of the last move made (or of the setup, before the first)."""

    def __post_init__(self) -> None:
        step = self.step
        options = self.options
        for key in step.variants:
            options = self.game.with_variant(options, key)
        self.options = options
        self.state = self.game.new_match(step.players, options, random.Random(step.seed), step.scenario)
        self.events = list(self.state.history)
        for seat, action in step.setup:
            self.events = self._apply(seat, action, f"setup move {action!r}")

    @property
    def done(self) -> bool:
        return self.made >= len(self.step.moves)

    @property
    def next_move(self) -> Move | None:
        return None if self.done else self.step.moves[self.made]

    def _apply(self, seat: int, action: str, what: str) -> list[Event]:
        try:
            return self.state.apply(seat, action)
        except ParlourError as err:
            raise WalkthroughError(f"{self.step.title}: {what} for seat {seat} is refused: {err}") from err

    def refusal(self, action: object) -> str | None:
        """Why ``action`` is not the move asked now (None: it is). Nothing changes either way."""
        move = self.next_move
        if move is None:
            return "This step is over"
        try:
            wanted = self.state.coerce_action(move.action)
            given = self.state.coerce_action(action)
        except ParlourError as err:
            return str(err)
        if given == wanted:
            return None
        return f"Not this time: {move.action} (or press Enter to see it made)"

    def make(self, action: object | None = None) -> list[Event]:
        """Make the step's next move (``action``: the player's own, which must be that move; None: make it for
        them) and check what it shows; WalkthroughError when the rules did otherwise."""
        move = self.next_move
        if move is None:
            raise WalkthroughError(f"{self.step.title}: no move is left to make")
        if action is not None and (why := self.refusal(action)) is not None:
            raise WalkthroughError(why)
        events = self._apply(move.seat, move.action, f"move {self.made + 1} ({move.action!r})")
        kinds = {type(event).__name__ for event in events}
        missing = [name for name in move.shows if name not in kinds]
        if missing:
            raise WalkthroughError(
                f"{self.step.title}: move {self.made + 1} ({move.action!r}) did not cause {', '.join(missing)}"
                f" (it caused {', '.join(sorted(kinds)) or 'nothing'})"
            )
        if move.expect is not None and not move.expect(self.state):
            raise WalkthroughError(
                f"{self.step.title}: after move {self.made + 1} ({move.action!r}) {move.says!r} is not so"
            )
        self.made += 1
        self.events = events
        return events

    def play_out(self) -> None:
        """Make every move left (a test's run of the step)."""
        while not self.done:
            self.make()
