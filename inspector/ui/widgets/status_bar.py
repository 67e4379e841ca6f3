"""The status bar: sources, connection, counts per state, follow mode, replay position, loading progress."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual.widgets import Static

from inspector.model import State
from inspector.textsafe import one_line
from inspector.ui.render.rows import STATE_WORDS

STATE_CLASSES = {state: state.value.replace("_", "-") for state in State}


@dataclass
class Status:
    """Everything the status bar shows; the screen fills it in and calls ``StatusBar.show``."""

    sources: str = ""
    connection: str | None = None
    counts: dict[State, int] = field(default_factory=dict)
    orphans: int = 0
    malformed: int = 0
    messages: int = 0
    rows: int = 0
    follow: bool | None = None
    follow_waiting: bool = False  # a followed path is gone or not a regular file: being tried again
    replay: str | None = None
    loading: float | None = None
    filter: str = ""
    filtering: float | None = None  # a new filter's judging, done in part

    def signature(self) -> tuple:
        return (
            self.sources,
            self.connection,
            tuple(self.counts.items()),
            self.orphans,
            self.malformed,
            self.messages,
            self.rows,
            self.follow,
            self.follow_waiting,
            self.replay,
            None if self.loading is None else round(self.loading, 2),
            self.filter,
            None if self.filtering is None else round(self.filtering, 2),
        )


class StatusBar(Static):
    """One line at the bottom; redrawn only when what it says changes."""

    COMPONENT_CLASSES = {
        f"status-bar--{name}"
        for name in [*STATE_CLASSES.values(), "orphan", "malformed", "label", "on", "off", "source"]
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._signature: tuple | None = None
        self.status = Status()

    def show(self, status: Status) -> None:
        self.status = status
        signature = status.signature()
        if signature == self._signature:
            return
        self._signature = signature
        self.update(self._text(status), layout=False)  # one line, fixed size: no layout pass

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._signature = None
        if self.is_mounted:
            self.show(self.status)

    def _style(self, name: str):
        return self.get_component_rich_style(f"status-bar--{name}", partial=True)

    def on_resize(self) -> None:
        self._signature = None  # what fits depends on the width
        if self.is_mounted:
            self.show(self.status)

    def _text(self, status: Status) -> Text:
        parts = self._parts(status)
        return fit([text for _, text in parts], [priority for priority, _ in parts], self.content_size.width)

    def _parts(self, status: Status) -> list[tuple[int, Text]]:
        """The bar's parts in the order shown, each with its priority (the lowest goes first when the
        line is too narrow): the filter, the replay and the loading progress always stay."""
        parts: list[tuple[int, Text]] = [(SOURCES, Text(one_line(status.sources, 60), self._style("source")))]
        if status.connection:
            connected = status.connection.startswith("connected")
            parts.append(
                (6, Text(one_line(status.connection, 60), self._style("on" if connected else "off")))
            )
        if status.loading is not None:
            parts.append((KEEP, Text(f"loading {status.loading * 100:.0f}%", self._style("on"))))
        for state, count in status.counts.items():
            style = self._style(STATE_CLASSES[state])
            parts.append((STATE_PRIORITY.get(state, 3), Text(f"{STATE_WORDS[state]} {count}", style)))
        if status.orphans:
            parts.append((5, Text(f"orphan {status.orphans}", self._style("orphan"))))
        if status.malformed:
            parts.append((5, Text(f"malformed {status.malformed}", self._style("malformed"))))
        label = self._style("label")
        if status.filter:
            rows = "1 row" if status.rows == 1 else f"{status.rows} rows"
            parts.append(
                (KEEP, Text.assemble(("filter ", label), one_line(status.filter, 40), (f" ({rows})", label)))
            )
        if status.filtering is not None:
            parts.append((KEEP, Text(f"filtering {status.filtering * 100:.0f}%", self._style("on"))))
        if status.follow is not None:
            on = "on" if status.follow else "off"
            shown = "waiting" if status.follow and status.follow_waiting else on
            parts.append(
                (
                    7,
                    Text.assemble(
                        ("follow ", label), (shown, self._style("off" if shown == "waiting" else on))
                    ),
                )
            )
        if status.replay:
            parts.append((KEEP, Text.assemble(("replay ", label), status.replay)))
        return parts


SOURCES, KEEP = 4, 100
STATE_PRIORITY = {State.FAILED: 5, State.PENDING: 5, State.OVERDUE: 5, State.TIMED_OUT: 4, State.SUCCEEDED: 2}
SEPARATOR = "  "
MIN_SOURCES = 12
"""The sources shrink to this many cells (with an ellipsis) when their turn comes; they never go."""


def fit(parts: list[Text], priorities: list[int], width: int) -> Text:
    """``parts`` joined by two spaces in at most ``width`` cells (0 or less: no limit). While too wide,
    the part of lowest priority (the rightmost among equals) goes, except the first (the sources),
    which shrinks instead, and parts of priority KEEP, which always stay."""
    parts = [part.copy() for part in parts]
    kept = list(range(len(parts)))

    def total() -> int:
        return sum(parts[i].cell_len for i in kept) + len(SEPARATOR) * max(0, len(kept) - 1)

    while width > 0 and total() > width:
        candidates = [
            i for i in kept if priorities[i] < KEEP and not (i == 0 and parts[0].cell_len <= MIN_SOURCES)
        ]
        if not candidates:
            break
        lowest = min(candidates, key=lambda i: (priorities[i], -i))
        if lowest == 0:
            parts[0].truncate(max(MIN_SOURCES, parts[0].cell_len - (total() - width)), overflow="ellipsis")
        else:
            kept.remove(lowest)
    line = Text(no_wrap=True, overflow="ellipsis")
    for number, index in enumerate(kept):
        if number:
            line.append(SEPARATOR)
        line.append_text(parts[index])
    return line
