"""Once the terminal is gone the process ends, even when the orderly quit hangs (Textual's output thread
dies on a failed write to a closed pseudo-terminal and its driver then waits forever at exit: an app was
found asleep an hour after its terminal closed)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STUCK = textwrap.dedent(
    """
    import threading
    from inspector.ui.hangup import HangupWatch

    class App:
        def set_interval(self, *args, **kwargs):
            pass

    stuck = threading.Event()
    watch = HangupWatch(App(), on_lost=lambda: None, give_up_after=0.5)  # the quit it asks never ends
    watch.lost()
    stuck.wait(60)  # the output went to /dev/null with the terminal: only the status can tell
    """
)


def test_a_quit_that_hangs_after_the_terminal_went_still_ends_the_process():
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", STUCK],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 129  # 128 + SIGHUP, as the orderly quit after a hang-up says (else 0, 60 s on)
    assert time.monotonic() - started < 30
