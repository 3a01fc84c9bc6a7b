"""The project's documents: docs/rules.md is what the registry builds and what the app shows; every document that
README.md or docs/ names exists; the architecture names files that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.game import GameEntry
from engine.registry import ENTRIES
from engine.rules_doc import HOUSE_RULES, REGENERATE, rules_document
from tui.cli import main

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_rules_md_is_what_the_registry_builds() -> None:
    assert RULES.read_text(encoding="utf-8") == rules_document(), (
        f"docs/rules.md is out of date with the games' rules: regenerate it with `{REGENERATE}`"
    )


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry.key for entry in ENTRIES])
def test_rules_md_holds_the_in_app_rules_text(entry: GameEntry, capsys: pytest.CaptureFixture[str]) -> None:
    """Each key's section of docs/rules.md is the text `parlour rules KEY` prints (the rules pane's), then the
    house rules that may be switched on under that key, read from the file itself."""
    assert main(["rules", entry.key]) == 0
    in_app = capsys.readouterr().out
    document = RULES.read_text(encoding="utf-8")
    start = document.find(in_app + "\n" + HOUSE_RULES)
    assert start > 0 and document[start - 1] == "\n", f"regenerate docs/rules.md with `{REGENERATE}`"
    house_rules = document[start + len(in_app) :].split("\n# ")[0]
    useful = entry.game.useful_variants(entry.preset)
    for variant in useful:
        assert f"(`{variant.key}`): {variant.description}" in house_rules
    for variant in entry.game.variants:
        if variant not in useful:
            assert f"(`{variant.key}`)" not in house_rules  # refused under this key: not offered


MENTION = re.compile(r"(?<![\w/.-])((?:\.\./)?(?:[\w.-]+/)*[\w.-]+\.md)\b")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("document", DOCUMENTS, ids=[p.name for p in DOCUMENTS])
def test_every_document_named_exists(document: Path) -> None:
    """A document named in README.md or docs/ (``docs/rules.md``, a link) is in the repository."""
    text = document.read_text(encoding="utf-8")
    missing = []
    for name in set(MENTION.findall(text)):
        # A bare name is read from the repository root (as README.md writes them) or beside the document.
        if not any((base / name).exists() for base in (ROOT, document.parent)):
            missing.append(name)
    for target in set(LINK.findall(text)):
        if "://" not in target and not (document.parent / target).exists():
            missing.append(target)
    assert not missing, f"{document.relative_to(ROOT)} names what the repository lacks: {sorted(missing)}"


def test_readme_points_to_the_documents() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rules.md" in readme and "docs/architecture.md" in readme


PATH = re.compile(r"(?<![\w/.])((?:engine|tui|tests|styles|docs)/[\w/]+(?:\.\w+)?)(?![\w/.<*])")


def test_the_architecture_names_files_that_exist() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    paths = set(PATH.findall(text))
    assert len(paths) > 10  # the pattern finds the paths the document names
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"
