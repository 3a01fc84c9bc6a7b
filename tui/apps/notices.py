"""What an app said in its toasts, kept to be read back."""

from __future__ import annotations

from collections import deque
from functools import cached_property
from typing import Any, ClassVar

from textual.notifications import SeverityLevel


class KeepsNotices:
    """Mixed into an :class:`~textual.app.App` (before it): every notification it shows (Textual's
    :meth:`~textual.app.App.notify`, called from any thread) is also kept in :attr:`notices`, the newest last."""

    NOTICES_KEPT: ClassVar[int] = 200

    @cached_property
    def notices(self) -> deque[str]:
        """The messages of the notifications shown so far, the last :attr:`NOTICES_KEPT` of them."""
        return deque(maxlen=self.NOTICES_KEPT)

    def notify(
        self: Any,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        self.notices.append(message)
        # (mypy cannot see the App after this mixin in the apps' method order)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)  # type: ignore[misc]
