"""Quit when the terminal goes away: on SIGHUP, or when stdin or stdout hangs up without one.

A process the terminal does not control (started from a script, or under ``setsid``) gets no SIGHUP
when its terminal closes; Textual's input thread then reads end-of-file in a busy loop and the app
keeps a core running long after its parent is gone. Once a second the app asks the kernel whether its
terminal hung up (``poll`` reports POLLHUP/POLLERR/POLLNVAL even when nothing else is asked), and quits.
The output is sent to /dev/null first: nothing can be drawn on a terminal that is gone.

Quitting can itself hang on a terminal that is gone: Textual's output thread dies on the first write
that fails (EIO) while its queue still takes writes, and at exit the driver waits for room in that queue
forever (seen: an app left asleep for an hour after its pseudo-terminal closed, its new output thread
never drained). So once the terminal is gone the process ends within ``GIVE_UP_AFTER`` seconds whatever
the orderly quit is doing (leaving a live room and writing the recording fit well within it).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

HUNG_UP = select.POLLHUP | select.POLLERR | select.POLLNVAL
EXIT_HANGUP = 128 + signal.SIGHUP
CHECK_EVERY = 1.0
GIVE_UP_AFTER = 15.0


class HangupWatch:
    """Watches the terminal of a running (not headless) app and calls ``on_lost`` once when it goes."""

    def __init__(self, app: Any, on_lost: Callable[[], None], give_up_after: float = GIVE_UP_AFTER) -> None:
        self.app = app
        self.on_lost = on_lost
        self.give_up_after = give_up_after
        self.gone = False
        self._poll = select.poll()
        self._signal = False

    def start(self) -> None:
        for stream in (sys.__stdin__, sys.__stdout__):
            with contextlib.suppress(AttributeError, OSError, ValueError):
                self._poll.register(stream.fileno(), 0)  # type: ignore[union-attr]
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self.lost)
            self._signal = True
        self.app.set_interval(CHECK_EVERY, self.check, name="hangup")

    def stop(self) -> None:
        if self._signal:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().remove_signal_handler(signal.SIGHUP)
            self._signal = False

    def check(self) -> None:
        """Quit when stdin or stdout reports a hang-up (no blocking: a poll of zero seconds)."""
        if any(mask & HUNG_UP for _, mask in self._poll.poll(0)):
            self.lost()

    def lost(self) -> None:
        if self.gone:
            return
        self.gone = True
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (1, 2):
                os.dup2(devnull, fd)
            os.close(devnull)
        threading.Thread(target=self._end_anyway, name="hangup-deadline", daemon=True).start()
        self.on_lost()

    def _end_anyway(self) -> None:
        """If the orderly quit has not ended the process in time, end it (status 129, as after SIGHUP)."""
        time.sleep(self.give_up_after)
        os._exit(EXIT_HANGUP)
