"""The rules as a player reads them, built from the game registry: ``docs/rules.md`` is this module's output.

Each registry key (``screw``, ``chase``, ``big2``...) gets the text of the app's rules pane for its default rules
(what ``parlour rules KEY`` prints), followed by the house rules that may be switched on under it. After changing
a game's rules text or its variants, regenerate the file (``tests/test_docs.py`` fails until it matches)::

    .venv/bin/python -m engine.rules_doc > docs/rules.md

>>> from engine.registry import get_entry
>>> section = entry_section(get_entry("big2"))
>>> section.startswith(entry_rules(get_entry("big2"))), HOUSE_RULES in section
(True, True)
"""

from __future__ import annotations

import io
import sys

from engine.game import GameEntry
from engine.registry import ENTRIES

REGENERATE = ".venv/bin/python -m engine.rules_doc > docs/rules.md"
"""The command that writes ``docs/rules.md``."""
HOUSE_RULES = "## House rules (variants)"

_HEADER = f"""\
<!-- Generated from the game registry: edit the games, not this file. Regenerate with
     {REGENERATE} -->

The rules of every game in Parlour, exactly as the rules pane in the app shows them (`parlour rules KEY` prints
one), each followed by the house rules that can be switched on from the menu or with `--variant KEY`.
"""


def entry_rules(entry: GameEntry) -> str:
    """The in-app rules text of a registry key, under its default rules."""
    return entry.game.rules_summary(entry.game.options(entry.preset))


def entry_variants(entry: GameEntry) -> str:
    """The house rules (variants) that may be switched on under a registry key, as a Markdown list."""
    variants = entry.game.useful_variants(entry.preset)
    lines = [HOUSE_RULES, ""]
    if not variants:
        lines.append("None: this game is played one way.")
    else:
        lines.append(f"Switch one on with `parlour play {entry.key} --variant KEY` (several: `--variant KEY,KEY`).")
        lines.append("")
        lines.extend(f"- **{v.name}** (`{v.key}`): {v.description}" for v in variants)
    return "\n".join(lines) + "\n"


def entry_section(entry: GameEntry) -> str:
    """One registry key's part of the document: its rules text, then its house rules."""
    return entry_rules(entry) + "\n" + entry_variants(entry)


def rules_document() -> str:
    """The whole of ``docs/rules.md``."""
    return "\n".join([_HEADER, *(entry_section(entry) for entry in ENTRIES)])


def main() -> None:
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8")  # the same bytes whatever the locale
    sys.stdout.write(rules_document())


if __name__ == "__main__":
    main()
