"""Session files before and after reading: their format, the error for an unusable path, folders
expanded, and a call's full record read back when it is shown."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard, TypeVar

from inspector import protocols
from inspector.model import Call, Request, Result
from inspector.model.events import RawRef
from inspector.protocols import empty
from inspector.protocols.format import Format
from inspector.textsafe import clean

if TYPE_CHECKING:
    from inspector.model.details import PersistedDetail

E = TypeVar("E", Request, Result)

SAVED_OUTPUT_LIMIT = 1 << 30
"""Bytes of a saved output carried by ``dump --json`` (past it, the rest is left out and said so)."""


class UnusableInput(Exception):
    """A path that cannot be opened at all (missing, unreadable, unknown format)."""

    def __str__(self) -> str:  # it names a path, which may hold escapes: one inert line
        return clean(super().__str__(), keep_newlines=False)


@dataclass
class FileSummary:
    """One opened path: its format and what reading it found."""

    path: str
    format: str
    events: int = 0
    malformed: int = 0
    label: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def resolve_format(path: str, forced: str | None = None) -> Format:
    """The format for ``path``, forced or detected; raises UnusableInput with one clear line."""
    if not os.path.exists(path):
        if os.path.islink(path):
            raise UnusableInput(f"{path}: is a symlink to a missing file")
        raise UnusableInput(f"{path}: no such file")
    if os.path.isdir(path):
        raise UnusableInput(f"{path}: is a directory (give a session file)")
    try:
        if forced:
            return protocols.get(forced)
        if empty.is_empty(path):
            return empty.for_path(path)  # a session with no record yet: its name or folder says the format
        return protocols.detect(path)
    except protocols.UnknownFormat as exc:
        raise UnusableInput(str(exc)) from None
    except OSError as exc:
        raise UnusableInput(f"{path}: {exc.strerror or exc}") from None


def expand_folders(paths: list[str], notes: list[str] | None = None) -> list[str]:
    """Each folder replaced by the sessions of every format under it, oldest first (a resumed session
    after the one it continues: see sources.folders); raises UnusableInput for a folder that holds none.
    What the user should be told of a folder's files (subagents whose session is missing) goes to
    ``notes``."""
    if not any(os.path.isdir(path) for path in paths):
        return paths
    from inspector.sources.folders import LOOKED_FOR, sessions_in

    expanded: list[str] = []
    for path in paths:
        if not os.path.isdir(path):
            expanded.append(path)
            continue
        found = sessions_in(path)
        if not found.paths:
            hidden = [
                name for name in (".claude", ".codex", ".gemini") if os.path.isdir(os.path.join(path, name))
            ]
            hint = f"; hidden folders are not searched: open {', '.join(hidden)} itself" if hidden else ""
            raise UnusableInput(f"{path}: a folder with {LOOKED_FOR} (give session files{hint})")
        expanded += found.paths
        if notes is not None:
            notes += found.notes
    return expanded


def hydrate(call: Call, *, most: int | None = None) -> tuple[Request, list[Result]]:
    """The call's request and results with payloads, decoded again from the raw records if dropped
    (only the first ``most`` results when given: the others are returned as they are).

    Only the payloads come from the record read again (parameters, a result's data and detail): the rest
    is what the read of the whole session made of it, which one line alone cannot say (a result's
    own time, its outcome and diff from another record, a duplicate request's violation)."""
    request = call.request
    if request.params is None and request.raw is not None:
        fresh_request = _redecode_one(request.raw, Request, call.call_id)
        if fresh_request is not None:
            request = dataclasses.replace(request, params=fresh_request.params)
    results = []
    for index, result in enumerate(call.results):
        if most is not None and index >= most:
            results += call.results[index:]
            break
        if result.data is None and result.details is None and result.raw is not None:
            fresh = _redecode_one(result.raw, Result, call.call_id)
            if fresh is not None:
                result = dataclasses.replace(result, data=fresh.data, details=fresh.details)
        results.append(result)
    return request, results


def _persisted(detail: object) -> TypeGuard[PersistedDetail]:
    # the detail types imported only where a detail is met (see protocols/claude/details.py)
    from inspector.model.details import PersistedDetail

    return isinstance(detail, PersistedDetail)


def with_saved_outputs(results: list[Result]) -> list[Result]:
    """The results with a Claude Code externalised output (a ``<persisted-output>`` stub, the output in
    ``tool-results/``) carried in full, as the detail shows it: ``data`` is the saved output, colours
    dropped, when its file is here; ``extra["saved_output"]`` says where the data came from (the file, or
    the transcript's preview and why the file could not be read)."""
    fresh = []
    for result in results:
        detail = result.details
        if detail is None or not _persisted(detail):
            fresh.append(result)
            continue
        text, size, problem = detail.read(SAVED_OUTPUT_LIMIT)
        where = {"saved_as": detail.saved_as, "path": detail.local}
        if text is None:
            saved = {"from": "transcript", **where, "problem": problem, "size": detail.size}
            fresh.append(dataclasses.replace(result, extra={**result.extra, "saved_output": saved}))
            continue
        saved = {"from": "tool-results/" + os.path.basename(detail.local), **where, "size": size}
        if size > SAVED_OUTPUT_LIMIT:
            saved["cut_at"] = SAVED_OUTPUT_LIMIT
        from inspector.protocols.claude.details import terminal_text  # (a Claude Code output: its reader)

        data = terminal_text(text)
        del text
        fresh.append(dataclasses.replace(result, data=data, extra={**result.extra, "saved_output": saved}))
    return fresh


def _redecode_one(raw: RawRef, kind: type[E], call_id: str) -> E | None:
    if not raw.protocol:
        return None
    try:
        events = protocols.get(raw.protocol).redecode(raw)
    except (OSError, protocols.UnknownFormat):
        return None
    for event in events:
        if isinstance(event, kind) and event.call_id == call_id:
            return event
    return None
