"""Another file's calls nested under the call that started them (Codex threads, Gemini sub-agents)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator

from inspector.model.events import Event, Malformed, Message, Request


def nest_files(
    found: Iterable[tuple[str | None, str | None]],
    read: Callable[[str, set[str]], Iterator[Event]],
    seen: set[str],
    what: str,
) -> Iterator[Event]:
    """The events of each ``(path, call id)`` whose file is there, its top-level calls and messages under
    that call (a call id None: they stay at the top level). ``seen`` holds the files already read, so a file is never read twice nor under itself;
    one that cannot be read is one malformed record naming ``what`` it is."""
    for path, call_id in found:
        if path is None or os.path.abspath(path) in seen:
            continue
        seen.add(os.path.abspath(path))
        try:
            for event in read(path, seen):
                if isinstance(event, (Request, Message)) and event.parent_id is None:
                    event.parent_id = call_id
                yield event
        except OSError as exc:
            yield Malformed(path, f"could not read {what}: {exc.strerror or exc}", source=path)
