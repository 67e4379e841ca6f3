"""The load's progress bar: how much of the session files is read, drawn a few times a second at most."""

from __future__ import annotations

import time

from textual.widgets import ProgressBar

from inspector.sources.files import Progress
from inspector.ui.presenter import LOADING_REPAINT


class LoadingBar(ProgressBar):
    """A progress bar without an ETA; shown while the screen has ``-loading`` (main.tcss)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(total=100, show_eta=False, id=id)
        self._drawn = float("-inf")  # when it was last drawn (monotonic)

    @property
    def drawn_lately(self) -> bool:
        """True when the bar was drawn less than LOADING_REPAINT seconds ago (the list's flush, due as
        often, or a later report will draw it: one frame, not two)."""
        return time.monotonic() - self._drawn < LOADING_REPAINT

    def draw(self, progress: Progress | None) -> None:
        """The bar at ``progress`` (None: the load is done)."""
        self._drawn = time.monotonic()
        self.update(progress=100 if progress is None else progress.fraction * 100)
