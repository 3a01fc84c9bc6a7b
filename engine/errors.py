"""A small error hierarchy. Every rejected action raises one of these and leaves the state exactly as it was."""


class ParlourError(Exception):
    """Base of every error the engine raises on purpose; its message is meant for a player."""


class InvalidActionError(ParlourError):
    """The text of an action, a card or an option could not be read."""


class IllegalActionError(ParlourError):
    """A well-formed action that the rules do not allow now."""


class NotYourTurnError(IllegalActionError):
    """An action from a seat that is not the one to move."""


class GameOverError(IllegalActionError):
    """An action after the match has ended."""


class UnknownGameError(ParlourError):
    """No game is registered under that name."""


class OptionError(ParlourError):
    """A bad number of players, preset or variant."""
