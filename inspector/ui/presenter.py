"""What the main screen shows, kept from a store's changes: rows, counts, the status line (no widgets)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from inspector.model import CallStore
from inspector.model.call import Item
from inspector.sources.base import Source
from inspector.sources.files import Opened, Progress
from inspector.ui.feed import StoreFeed, Tally
from inspector.ui.view import RowView
from inspector.ui.widgets.status_bar import Status

LOADING_REPAINT = 0.25
"""While a file loads, the list takes in new calls at most this often (seconds)."""

LIVE_REPAINT = 0.1
"""Otherwise (a flood of live packets) at most this often; a lone change after a quiet spell shows at once."""


@dataclass
class Redraw:
    """What a drain asks of the widgets: new rows (``reset`` when the store was replaced), or a repaint."""

    reset: bool = False
    rows: bool = False
    repaint: bool = False
    updated: list[Item] = field(default_factory=list)


class MainPresenter:
    """Coalesces a store's changes into redraws and assembles the status line.

    ``notify`` is called (from any thread) once per burst of changes; the screen then calls
    :meth:`flush_wait` and, when it says 0, :meth:`take_changes`.
    """

    def __init__(
        self,
        source: Source,
        view: RowView,
        notify: Callable[[], None],
        *,
        label: str = "",
        labels: dict[str, str] | None = None,
        opened: list[Opened] | None = None,
    ) -> None:
        self.source = source
        self.view = view
        self.tally = Tally()
        self.feed: StoreFeed | None = None
        self.load_progress: Progress | None = None
        self.judging: float | None = None  # how much of the rows a new filter has judged (None: none)
        self.label = label
        self.labels = labels or {}
        self.opened = opened or []
        self._notify = notify
        self._last_flush = float("-inf")

    @property
    def store(self) -> CallStore:
        return self.view.store

    def watch(self, store: CallStore) -> None:
        """Show ``store`` (at start, or the new one a replay rebuilt)."""
        if self.feed is None:
            self.view.store = store
            self.feed = StoreFeed(store, self._notify)
        else:
            self.feed.replace_store(store)

    def flush_wait(self, monotonic_now: float) -> float:
        """Seconds to wait before taking changes: a big file loading is taken a few times a second, a flood
        of live packets at most ten times a second, so key presses are never stuck behind repaints."""
        every = LOADING_REPAINT if self.load_progress is not None else LIVE_REPAINT
        return max(0.0, every - (monotonic_now - self._last_flush))

    def take_changes(self, now: float | None, monotonic_now: float) -> Redraw | None:
        """Drain the feed into the rows and the counts; None when nothing changed."""
        self._last_flush = monotonic_now
        if self.feed is None:
            return None
        changes = self.feed.drain()
        view = self.view
        view.seen = self.feed.seen_top
        if changes.empty:
            return None
        if changes.reset:
            self.tally = Tally()
            view.store = self.feed.store
            view.folded.clear()
            view.refolded.clear()
            self.tally.add(view.store.items)
        else:
            self.tally.add(changes.new_top)
            self.tally.add(changes.updated)
        rows = view.apply(changes, now) or changes.reset
        return Redraw(
            reset=changes.reset,
            rows=rows,
            repaint=bool(changes.updated) and not rows,
            updated=changes.updated,
        )

    def status(
        self, now: float | None, *, following: bool | None, replay: str | None, waiting: bool = False
    ) -> Status:
        """The status line at ``now``."""
        store = self.store
        view = self.view
        return Status(
            sources=self.sources_text(),
            connection=self.source.state.label
            if self.source.is_live
            else (self.source.state.export_error or None),
            counts=self.tally.counts(now),
            orphans=len(store.orphans),
            malformed=store.malformed_count,
            messages=store.message_count,
            rows=len(view),
            follow=following,
            follow_waiting=waiting,
            replay=replay,
            loading=self.load_progress.fraction if self.load_progress is not None else None,
            filter=view.filter.text if view.filter is not None else "",
            filtering=self.judging,
        )

    def sources_text(self) -> str:
        """The label given, else the files' names (three, then a count) and their formats."""
        if self.label:
            return self.label
        names = list(self.labels.values())
        formats = sorted({o.fmt.name for o in self.opened})
        text = ", ".join(names[:3]) + (f" +{len(names) - 3}" if len(names) > 3 else "")
        return f"{text} ({', '.join(formats)})" if formats else text
