"""The quick-exit driver is used only with the Textual it was written for (tui.terminal.textual_version), and
otherwise the app keeps Textual's own driver."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.drivers.linux_driver import LinuxDriver

from tui.terminal import driver
from tui.terminal.driver import QuickExitDriver, loop_last, use_quick_exit
from tui.terminal.textual_version import CHECKED_TEXTUAL, checked_in, textual_checked


def test_the_installed_textual_is_the_one_checked() -> None:
    import importlib.metadata

    assert textual_checked() == (importlib.metadata.version("textual") in CHECKED_TEXTUAL)
    assert textual_checked()  # pyproject.toml pins one of them


@pytest.mark.parametrize(
    ("names", "checked"),
    [
        ([f"textual-{CHECKED_TEXTUAL[0]}.dist-info"], True),
        (["textual-8.2.9.dist-info"], False),
        (["textual-9.0.0.dist-info"], False),
        ([f"textual-{CHECKED_TEXTUAL[0]}.dist-info", "textual-8.2.9.dist-info"], False),  # which one is it?
        ([], False),
        ([f"textual_other-{CHECKED_TEXTUAL[0]}.dist-info"], False),
    ],
)
def test_a_textual_is_checked_only_by_its_own_version(names: list[str], checked: bool, tmp_path: Path) -> None:
    (tmp_path / "textual").mkdir()
    for name in names:
        (tmp_path / name).mkdir()
    assert checked_in(tmp_path) is checked


def test_a_missing_folder_is_not_checked(tmp_path: Path) -> None:
    assert not checked_in(tmp_path / "nowhere")


def test_the_quick_driver_only_with_the_checked_textual(monkeypatch: pytest.MonkeyPatch) -> None:
    app: App[None] = App()
    app.driver_class = LinuxDriver
    monkeypatch.setattr(driver, "textual_checked", lambda: False)
    use_quick_exit(app)
    assert app.driver_class is LinuxDriver
    monkeypatch.setattr(driver, "textual_checked", lambda: True)
    use_quick_exit(app)
    assert app.driver_class is QuickExitDriver


def test_another_driver_is_left_as_it_is() -> None:
    app: App[None] = App()
    other = type("Other", (LinuxDriver,), {})
    app.driver_class = other
    use_quick_exit(app)
    assert app.driver_class is other


def test_loop_last() -> None:
    assert list(loop_last([])) == []
    assert list(loop_last("a")) == [(True, "a")]
    assert list(loop_last("abc")) == [(False, "a"), (False, "b"), (True, "c")]
