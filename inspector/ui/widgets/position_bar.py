"""The replay position bar: play state, speed, a bar of how far the replay has come, times; click to seek."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from inspector.model.replay import Position, speed_label
from inspector.timefmt import clock_text


class PositionBar(Static):
    """One line: ``▶ 2x ━━━━━╸──── 12/40 10:00:04 → 10:01:30``."""

    COMPONENT_CLASSES = {"position-bar--done", "position-bar--todo", "position-bar--label"}

    class Seek(Message):
        """The user clicked the bar at ``fraction`` (0..1) of the events."""

        def __init__(self, fraction: float) -> None:
            super().__init__()
            self.fraction = fraction

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._state: tuple | None = None
        self._bar_x = 0
        self._bar_width = 0

    def show(self, position: Position, playing: bool, speed: float) -> None:
        state = (
            position.index,
            position.total,
            position.complete,
            round(position.time, 1),
            playing,
            speed,
            self.size.width,
        )
        if state == self._state:
            return
        self._state = state
        self.update(self._text(position, playing, speed), layout=False)

    def _text(self, position: Position, playing: bool, speed: float) -> Text:
        label = self.get_component_rich_style("position-bar--label", partial=True)
        head = f"{'▶' if playing else '⏸'} {speed_label(speed):>7} "
        tail = f" {position.index}/{position.total}{'' if position.complete else '+'}  {clock_text(position.time)} → {clock_text(position.end)}"
        width = max(10, self.size.width - len(head) - len(tail) - 1)
        done = round(position.fraction * width)
        self._bar_x, self._bar_width = len(head), width
        text = Text(head, style=label, no_wrap=True)
        text.append("━" * done, self.get_component_rich_style("position-bar--done", partial=True))
        text.append("─" * (width - done), self.get_component_rich_style("position-bar--todo", partial=True))
        text.append(tail, label)
        return text

    def on_click(self, event: events.Click) -> None:
        if self._bar_width and self._bar_x <= event.x < self._bar_x + self._bar_width:
            self.post_message(self.Seek((event.x - self._bar_x + 0.5) / self._bar_width))
