"""``inspector demo``: a loopback room, a simulated Alicia agent, and the inspector joined to them."""

from __future__ import annotations

import os
import tempfile
from typing import Any


def demo_record(args: Any) -> str | None:
    """Where a demo records: ``--record PATH`` when given, else a new temporary file (a demo leaves
    nothing in the data directory); None with ``--no-record``."""
    if getattr(args, "no_record", False):
        return None
    if getattr(args, "record", None):
        return str(args.record)
    return os.path.join(tempfile.mkdtemp(prefix="inspector-demo-"), "demo.recording.jsonl")
