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
    replay: str | None = None
    loading: float | None = None
    filter: str = ""

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
            self.replay,
            None if self.loading is None else round(self.loading, 2),
            self.filter,
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

    def _text(self, status: Status) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(one_line(status.sources, 60), self._style("source"))
        if status.connection:
            text.append("  ")
            connected = status.connection.startswith("connected")
            text.append(one_line(status.connection, 60), self._style("on" if connected else "off"))
        if status.loading is not None:
            text.append(f"  loading {status.loading * 100:.0f}%", self._style("on"))
        text.append("  ")
        for state, count in status.counts.items():
            text.append(f"{STATE_WORDS[state]} {count}", self._style(STATE_CLASSES[state]))
            text.append("  ")
        if status.orphans:
            text.append(f"orphan {status.orphans}  ", self._style("orphan"))
        if status.malformed:
            text.append(f"malformed {status.malformed}  ", self._style("malformed"))
        label = self._style("label")
        if status.filter:
            text.append("filter ", label)
            text.append(one_line(status.filter, 40))
            text.append(f" ({status.rows} rows)  ", label)
        if status.follow is not None:
            text.append("follow ", label)
            text.append("on" if status.follow else "off", self._style("on" if status.follow else "off"))
            text.append("  ")
        if status.replay:
            text.append("replay ", label)
            text.append(status.replay)
        return text
