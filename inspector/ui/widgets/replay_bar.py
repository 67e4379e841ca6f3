"""The replay bar: a replay's position bar with the replay's controls (play, pause, step, speed, seek by click).

It holds the source's replay capability (``Source.replaying``: None when the source is no replay) and
works its control once the recording is read. What a move changes beyond the bar (the store the rows show
when a seek built it again, the clock) is the screen's: the key routes return whether the store was built
again, and a click on the bar posts :class:`ReplayBar.Moved`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from inspector.ui.widgets.position_bar import PositionBar

if TYPE_CHECKING:
    from inspector.sources.feeds import ReplaySource
    from inspector.sources.replaying import ReplayControl


class ReplayBar(PositionBar):
    """The position of the replay (``PositionBar``), and its transport."""

    class Moved(Message):
        """The replay moved by a click on the bar; ``rebuilt``: its store was built again."""

        def __init__(self, rebuilt: bool) -> None:
            super().__init__()
            self.rebuilt = rebuilt

    def __init__(self, replaying: ReplaySource | None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.replaying = replaying

    @property
    def control(self) -> ReplayControl | None:
        """The replay's controls (None when this is no replay, or before its first batch is read)."""
        return self.replaying.control if self.replaying is not None else None

    def _control_or_say(self) -> ReplayControl | None:
        control = self.control
        if control is None:
            self.notify("Not a replay: open a recording with --replay to play it back.", timeout=3)
        return control

    def play_pause(self) -> bool | None:
        """Play or pause; whether the store was built again (None: no replay to play)."""
        control = self._control_or_say()
        return control.toggle() if control is not None else None

    def step(self, direction: int) -> bool | None:
        """One event forward (1) or back (-1); whether the store was built again (None: no replay)."""
        control = self._control_or_say()
        return control.step(direction) if control is not None else None

    def speed(self, direction: int) -> bool | None:
        """Faster (1) or slower (-1), said in a notice; False (None: no replay)."""
        control = self._control_or_say()
        if control is None:
            return None
        label = control.speed(direction)
        self.notify(f"Replay speed {label}.", timeout=2)
        return False

    def show_position(self) -> None:
        """Draw where the replay is now."""
        control = self.control
        if control is not None:
            replayer = control.replayer
            self.show(replayer.position, replayer.playing, replayer.speed)

    def on_position_bar_seek(self, message: PositionBar.Seek) -> None:
        message.stop()
        control = self.control
        if control is not None:
            self.post_message(self.Moved(control.apply(control.replayer.seek_fraction(message.fraction))))
