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

    def show(self, loading: bool) -> None:
        """Shown while a load runs, by its screen's ``-loading`` class (main.tcss: the one rule that reads
        it): only this bar is styled again (the class alone restyled the screen's every node, a hundred
        and more, as a load began and ended)."""
        screen = self.screen
        if screen.has_class("-loading") == loading:
            return
        screen.set_class(loading, "-loading", update=False)
        self.update_node_styles()

    def draw(self, progress: Progress | None) -> None:
        """The bar at ``progress`` (None: the load is done)."""
        self._drawn = time.monotonic()
        self.update(progress=100 if progress is None else progress.fraction * 100)
