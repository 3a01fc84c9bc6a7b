"""What a player's name may be, wherever it is given: on the command line, in the settings, over the network.

A name is shown as plain text everywhere (``[b]x[/b]`` stays as typed), so only control and format characters are
refused: they could move the cursor, recolour the terminal or reverse the text around them. Zero-width joiners are
kept, as they hold emoji sequences together.

>>> name_problem("Ann"), name_problem("  "), name_problem("A" * 25)
(None, 'a name needs at least one character other than spaces', 'a name is at most 24 characters, not 25')
>>> name_problem("Ann\\x1b[31m")
"a name may not hold control characters such as '\\\\x1b'"
"""

from __future__ import annotations

import unicodedata

__all__ = ["NAME_LIMIT", "is_control", "name_problem"]

NAME_LIMIT = 24
"""The longest name, in characters, once trimmed."""
_JOINERS = frozenset("\u200c\u200d")


def is_control(char: str) -> bool:
    """A control or format character (a zero-width joiner is neither here)."""
    return char not in _JOINERS and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp")


def name_problem(text: str) -> str | None:
    """Why ``text`` cannot be a name, or None when it can (names are used trimmed)."""
    name = text.strip()
    if not name:
        return "a name needs at least one character other than spaces"
    bad = next((c for c in name if is_control(c)), None)
    if bad is not None:
        return f"a name may not hold control characters such as {bad!a}"
    if len(name) > NAME_LIMIT:
        return f"a name is at most {NAME_LIMIT} characters, not {len(name)}"
    return None
