"""A small JSON state file that every inspector on the machine shares (the stanzaIds sent, the requests
answered): read, changed and written back whole under an exclusive lock, one writer at a time."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from inspector.userpath import create_new, open_append


@contextlib.contextmanager
def locked(path: Path, read: Callable[[], dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The state ``read`` gives, under the lock of ``path``; written back, when changed, as a new file put
    in its place (a reader never sees half of one)."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    with open_append(str(path.with_suffix(".lock"))) as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        state = read()
        before = dict(state)
        yield state
        if state == before:
            return
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)  # left by a crash: written afresh, never through what is there
        with create_new(str(tmp)) as fh:
            json.dump(state, fh)
        os.replace(tmp, path)
