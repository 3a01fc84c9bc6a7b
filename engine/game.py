"""What every game provides: a definition (options, players, rules text) and a state driven by actions."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from engine.errors import GameOverError, IllegalActionError, NotYourTurnError, OptionError
from engine.events import Event

Action = Any  # each game has its own action type; every one is hashable and has a text form via ``str``
OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True)
class Variant:
    """A named house-rule option, discoverable by key (``--variant high-card-pays``)."""

    key: str
    name: str
    description: str


@dataclass(frozen=True)
class Preset:
    key: str
    name: str
    description: str


@dataclass(frozen=True)
class MatchResult:
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    """One figure per seat, higher is better (lives left, points...)."""


@dataclass
class GameState(ABC):
    """The full, authoritative state of one match. Changes only through :meth:`apply`."""

    players: int
    history: list[Event] = field(default_factory=list, init=False)

    # -- what every state answers ------------------------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat that must act now, or ``None`` when the match is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take now (empty when the match is over)."""

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Carry out a legal action for the seat to move and return the events it caused."""

    @abstractmethod
    def view(self, seat: int | None) -> Any:
        """What ``seat`` may know now (``None``: a spectator)."""

    @abstractmethod
    def clone(self) -> GameState:
        """An independent deep copy (the RNG included)."""

    @property
    @abstractmethod
    def result(self) -> MatchResult | None:
        """The outcome once the match is over."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read an action from its text form; raise InvalidActionError when it is not one."""

    # -- check, then do ----------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def check(self, seat: int, action: Action) -> None:
        """Raise the error that :meth:`apply` would raise, without changing anything."""
        if self.is_over:
            raise GameOverError("the match is over")
        if seat != self.to_move:
            raise NotYourTurnError(f"it is not seat {seat}'s turn (seat {self.to_move} is to move)")
        legal = self.legal_actions()
        if action not in legal:
            allowed = ", ".join(str(a) for a in legal)
            raise IllegalActionError(f"{action} is not allowed now; you may: {allowed}")

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Check then do: apply ``action`` for ``seat`` and return the new events (appended to the history)."""
        self.check(seat, action)
        events = self._apply(action)
        self.history.extend(events)
        return events


class Game(ABC, Generic[OptionsT]):
    """A game's definition: its name, its options and how to start a match."""

    key: ClassVar[str]
    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]

    @property
    @abstractmethod
    def presets(self) -> Sequence[Preset]: ...

    @property
    @abstractmethod
    def variants(self) -> Sequence[Variant]: ...

    @abstractmethod
    def options(self, preset: str | None = None, variants: Sequence[str] = ()) -> OptionsT:
        """Build the typed options from a preset key and variant keys; raise OptionError on an unknown key."""

    @abstractmethod
    def new_match(self, players: int, options: OptionsT, rng: random.Random) -> GameState: ...

    @abstractmethod
    def determinize(self, view: Any, rng: random.Random) -> GameState:
        """A full state consistent with everything in ``view``, every card the view does not show sampled.

        Built from the view alone, so a search bot using it cannot learn a hidden card.
        """

    @abstractmethod
    def rules_summary(self, options: OptionsT | None = None) -> str:
        """Markdown shown in the rules pane and by ``parlour rules``."""

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise OptionError(f"{self.name} takes {self.min_players} to {self.max_players} players, not {players}")
