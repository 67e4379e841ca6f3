"""The UI needs a terminal: without one (a script, a pipe, a service) it is refused with what to use instead.

Textual drawn to a file or a pipe (it draws on stderr) writes escape codes there, and with no keyboard it never quits: a
command started from a script kept a core busy after its parent was gone. The commands that open the
UI (``open``, ``live``, ``demo``) ask :func:`missing` first and exit 2 with its words.
"""

from __future__ import annotations

import os
import sys


def missing(command: str, *, no_ui: bool = False) -> str | None:
    """Why the UI cannot start here (stdin, stdout or stderr, where Textual draws, is not a terminal),
    or None when it can."""
    named = (("stdout", sys.stdout), ("stdin", sys.stdin), ("stderr", sys.stderr))
    streams = [name for name, stream in named if not _tty(stream)]
    if not streams:
        return None
    what = ", ".join(streams[:-1]) + (" and " if len(streams) > 1 else "") + streams[-1]
    instead = (
        "use --no-ui to print the calls as they come"
        if no_ui
        else "for text use 'inspector dump PATH' or 'inspector stats PATH' (--json for a program)"
    )
    return f"inspector {command}: the UI needs a terminal and {what} {'is' if len(streams) == 1 else 'are'} not one; {instead}"


def _tty(stream: object) -> bool:
    try:
        return stream is not None and os.isatty(stream.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False
