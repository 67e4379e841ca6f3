"""Claude Code transcripts: tool_use / tool_result pairs, conversation text and subagents, from .jsonl files."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from msgspec import DecodeError, ValidationError

import inspector.protocols.claude.shape as _shape
import inspector.protocols.common.reread as _reread
from inspector.model import values
from inspector.model.events import Event, Malformed, RawRef, Request, Skipped, noted
from inspector.protocols.claude.records import ReadState, RecordOrigin, bad, conversation, decode, time_of
from inspector.protocols.claude.resume import Resume, Together
from inspector.protocols.claude.rewrite import Rewrite
from inspector.protocols.claude.subagents import AgentFile, Planner, SiblingAgents, agent_id_of, is_agent_file
from inspector.protocols.common.lineblocks import line_blocks, take_text
from inspector.protocols.format import Format
from inspector.protocols.sniffers.claude import sniff
from inspector.userpath import open_binary

NAME = "claude"
DESCRIPTION = "Claude Code transcripts (~/.claude/projects/*/*.jsonl), with their subagents"

_BOM = b"\xef\xbb\xbf"
_SPACE = b" \t\r\n"
# Record types that are never shown: skipped from their first bytes, without decoding the line.
_CHEAP_SKIPS = tuple(
    (f'{{"type":"{kind}"'.encode(), kind)
    for kind in ("file-history-snapshot", "queue-operation", "last-prompt", "permission-mode")
)
_PROGRESS_HEAD = b'"type":"progress"'
_SHAPED_MAX = 1 << 16  # the longest line decoded to the keys the reader uses (_decode_bytes)
_AGENT_KEY = b'"agentId":"'


# -- the format-module contract ---------------------------------------------------------------------


def read(
    path: str,
    together: Together | None = None,
    index: int = 0,
    *,
    details: bool = True,
    saved: bool | None = None,
) -> Iterator[Event]:
    """Every event of a session file, then of its subagent files (nested under their Task/Agent call).

    ``together`` is shared by the files of one :func:`read_set` (``index`` is this one's place).
    Only a missing or unreadable session file raises (OSError); anything else becomes an event.
    ``details=False`` leaves out what a store that drops payloads would drop: each result's detail
    (its ``has_diff`` stays), read again from the record when it is shown; with ``saved=True`` too, a
    result whose output Claude Code saved to a file still says where (``read_lean``: ``dump --json``).
    """
    agent_file = is_agent_file(path)
    planner = None if agent_file else Planner(path)
    session = ReadState(planner, details, saved)
    if not agent_file:
        session.resume = Resume(together, index)
    else:  # read on its own: the progress copies it holds of agents whose own files are beside it are not read
        session.siblings = SiblingAgents(path)
        if together is not None:  # with others (its session's file missing): what they showed is not again
            session.resume = Resume(together, index)
    if planner is not None and together is not None:
        planner.used = together.agent_files  # a subagent file read for one file is not read again
    source = RecordOrigin(path, agent=agent_id_of(path), nested=True) if agent_file else RecordOrigin(path)
    yield from _read_file(path, session, source)
    if planner is None:
        return
    planner.session_id = session.group
    if session.resume is not None:
        planner.sessions = session.resume.groups
    while True:
        files = planner.next_files()
        if not files:
            break
        for file in files:
            yield from _read_agent(file, session)
    _remember(path, (session.emitted, session.done, session.rewrite))


def read_set(paths: list[str], *, details: bool = True, saved: bool | None = None) -> list[Iterator[Event]]:
    """Files opened together: a record read from one is not shown again from another (a resumed
    session repeats the one it continues), read in the order given."""
    together = Together(paths)
    return [read(path, together, index, details=details, saved=saved) for index, path in enumerate(paths)]


def redecode(raw: RawRef) -> list[Event]:
    """Decode the one line ``raw`` points at again (links to other lines are not restored)."""
    return _decode_line(_reread.reread(raw), raw, ReadState(None))


_FOLLOWED_KEPT = 16
_FOLLOWED: dict[str, tuple[dict[str, RawRef], dict[str, RawRef], Rewrite]] = {}
"""Per session file read or followed: the calls requested and answered so far and its rewrite, so that
a session rewritten into its own file while it is followed still shows each call once."""


def _remember(path: str, seen: tuple[dict[str, RawRef], dict[str, RawRef], Rewrite]) -> None:
    """Keep what a read of ``path`` saw, for its follow; the files read last only (an app that opens
    session after session holds a few, not all)."""
    _FOLLOWED.pop(path, None)
    _FOLLOWED[path] = seen
    while len(_FOLLOWED) > _FOLLOWED_KEPT:
        del _FOLLOWED[next(iter(_FOLLOWED))]


def decode_line(line: bytes | str, raw: RawRef) -> list[Event]:
    """The events of one line appended to a followed file (what its read or follow saw before is known:
    a call written again whole is the same call; line 1 is a new file, or the old one started again)."""
    state = ReadState(None)
    if is_agent_file(raw.source):  # as its read: copies of the agents whose files are beside it are theirs
        state.siblings = SiblingAgents(raw.source)
    seen = None if raw.where == "line 1" else _FOLLOWED.get(raw.source)
    if seen is None:
        _remember(raw.source, (state.emitted, state.done, state.rewrite))
    else:
        state.emitted, state.done, state.rewrite = seen
    return _decode_line(line, raw, state)


def _decode_line(line: bytes | str, raw: RawRef, state: ReadState) -> list[Event]:
    """The events of one line on its own (a followed line, or a stored record read again)."""
    path = raw.source
    source = (
        RecordOrigin(path, agent=agent_id_of(path), nested=True)
        if is_agent_file(path)
        else RecordOrigin(path)
    )
    if isinstance(line, bytes) and line.startswith(_BOM):
        line = line[len(_BOM) :]
    if not line.strip():
        return []
    return _decode_bytes(line, raw, state, source)


# -- lines -------------------------------------------------------------------------------------------


BLOCK = 1 << 18
"""A transcript is read in blocks of this size (common/lineblocks.py); a longer line comes alone."""
_POOL: list[bytearray] = []
"""The block buffers kept between reads: a fresh 256 KB buffer costs a page fault per 4 KB."""


def release_buffers() -> None:
    """Let go of the read buffers kept for the next read (``protocols.release_buffers``)."""
    _POOL.clear()


def _read_file(path: str, session: ReadState, source: RecordOrigin) -> Iterator[Event]:
    line_place = RawRef.line
    huge = values.HUGE_TEXT
    # The per-line work is inline (a call per line with its eight arguments was a tenth of a read):
    # blank lines and skipped records cost a few tests of their bytes, a record one parse. A line is
    # decoded from a view of the block's buffer: a fresh bytes object per line cost a page fault per
    # 4 KB on the lines of hundreds of kilobytes that transcripts hold (pasted images, file contents).
    with open_binary(path) as fh:
        number = 0
        skip_agents = session.skip_agents
        for base, buf, size, own in line_blocks(fh, BLOCK, _POOL):
            find = buf.find
            pos = 0
            with memoryview(buf) as view:
                while pos < size:
                    start = pos
                    end = find(b"\n", pos, size) + 1 or size
                    pos = end
                    number += 1
                    offset = base + start
                    if number == 1 and buf.startswith(_BOM, start, end):
                        start += len(_BOM)
                        offset += len(_BOM)
                    # the newline (a line holds one, at its end, but for the file's last line), then any
                    # carriage returns before it
                    stop = end - 1 if buf[end - 1] == 10 else end
                    while stop > start and buf[stop - 1] == 13:
                        stop -= 1
                    if stop == start or (buf[start] in _SPACE and not buf[start:stop].strip()):
                        continue
                    raw = line_place(path, number, offset, stop - start, NAME)
                    if buf[stop - 1] == 125 and (skip_agents or buf.startswith(b'{"type":"', start, stop)):
                        # maybe a record skipped whole (_prefilter)
                        kind = _prefilter(buf, start, stop, skip_agents)
                        if kind is not None:
                            yield Skipped(kind, raw.where)
                            continue
                    if own and stop - start > huge:
                        # a huge line, alone in its buffer: its text replaces its bytes (the parse holds
                        # text and value only)
                        view.release()
                        text = take_text(buf, start, stop)
                        if text is not None:
                            yield from _decode_bytes(text, raw, session, source)
                            continue
                        view = memoryview(buf)  # not UTF-8: the bytes are kept, and decoded
                    line = view[start:stop]
                    try:
                        events = _decode_bytes(line, raw, session, source)
                    finally:
                        line.release()
                    yield from events


def _read_agent(file: AgentFile, session: ReadState) -> Iterator[Event]:
    """A subagent file's events; one not linked to a call is shown only when it made calls."""
    source = RecordOrigin(
        file.path, parent=file.parent, agent=session.intern(file.agent_id), nested=True, copy=True
    )
    try:
        if file.linked:
            yield from _read_file(file.path, session, source)
            return
        events = list(_read_file(file.path, session, source))
    except OSError as exc:
        yield Malformed(file.path, f"could not read subagent file: {exc.strerror or exc}", source=file.path)
        return
    if any(isinstance(event, Request) for event in events):
        yield from events
    else:
        yield Skipped("subagent without calls", file.path)


def _prefilter(buf: bytes | bytearray, start: int, stop: int, skip_agents: frozenset[str]) -> str | None:
    """The kind of a record ending with "}" that is skipped whole, found without decoding it (None:
    decode it; a line not ending so is left to the decoder, which says what is wrong)."""
    if buf.startswith(b'{"type":"', start, stop):
        for prefix, kind in _CHEAP_SKIPS:
            if buf.startswith(prefix, start, stop):
                return kind
    if skip_agents and buf.find(_PROGRESS_HEAD, start, min(stop, start + 4096)) >= 0:
        # A progress copy of a subagent whose own file is read: the data's agentId is the last one.
        at = buf.rfind(_AGENT_KEY, start, stop)
        if at >= 0:
            begin = at + len(_AGENT_KEY)
            agent = bytes(buf[begin : buf.find(b'"', begin, stop)]).decode("utf-8", "replace")
            if agent in skip_agents and buf.find(b'"agent_progress"', start, stop) >= 0:
                return "progress"
    return None


def _decode_bytes(line: Any, raw: RawRef, session: ReadState, source: RecordOrigin) -> list[Event]:
    # A line of ASCII bytes up to 64 KB (nearly every line of a transcript): decoded to the keys the
    # reader uses (claude/shape.py), the rest passed over unbuilt. ASCII only: msgspec checks no UTF-8 in
    # what it passes over, and a byte that is not UTF-8 must be said wherever it is. Longer lines (an
    # image, a file's contents) gain little, and their copy for the check would cost fresh pages.
    value: Any = _UNSHAPED
    refused = False
    if not isinstance(line, str) and len(line) <= _SHAPED_MAX and bytes(line).isascii():
        try:
            # a read without details asks a result's toolUseResult a few keys only (shape.ResultFacts)
            value = (_shape.decode if session.details or session.saved else _shape.decode_bare)(line)
        except (ValueError, TypeError, RecursionError) as exc:
            # the full parse says what is wrong; a line that is no JSON text at all (not a record of
            # another shape) is not handed to msgspec again: the stdlib alone says why
            refused = isinstance(exc, DecodeError) and not isinstance(exc, ValidationError)
    note = None
    if value is _UNSHAPED:
        # msgspec, else the stdlib parser: exact ints, lone surrogates replaced (model/values.py)
        value, error, note = values.loads_refused(line) if refused else values.loads_noted(line)
        if error is not None:
            return [Malformed(raw.where, error, source=raw.source, raw=raw)]
    events: list[Event]
    if not isinstance(value, dict):
        events = [bad(raw, f"not a record: a JSON {type(value).__name__}, not an object")]
    else:  # the record's events, in this function: a call per line less
        try:
            resume = session.resume
            markers, repeated = _NO_MARKERS, False
            if resume is None:
                pass
            elif source.nested:  # a subagent's own file: its records may have been shown by another file
                uuid = value.get("uuid")
                if resume.together is not None and type(uuid) is str and uuid:
                    markers, repeated = resume.elsewhere(uuid, value, raw, time_of)
            else:
                sid = value.get("sessionId")
                # a record of a session already seen, its file read alone (nearly every record): see
                # has nothing to say of it, and is not asked
                if resume.together is not None or type(sid) is not str or sid not in resume.known:
                    markers, repeated = resume.see(value, raw, time_of)
            if repeated:
                events = [Skipped("repeated by a resumed session", raw.where)]
            else:  # decode's dispatch, its common case without its call
                kind = value.get("type")
                if kind == "assistant":
                    events = conversation(value, "assistant", raw, session, source)
                elif kind == "user":
                    events = conversation(value, "user", raw, session, source)
                else:
                    events = decode(value, raw, session, source)
            if markers:
                events = [*markers, *events]
        except Exception as exc:  # noqa: BLE001 - a record no rule foresaw must not stop the file
            events = [bad(raw, f"could not decode: {type(exc).__name__}: {str(exc)[:160]}")]
    # a line's place is text only when asked (RawRef.where): asked here only for the rare noted line
    return events if note is None else noted(note, raw, raw.where, events)


_UNSHAPED: Any = object()
_NO_MARKERS: tuple[Any, ...] = ()


FORMAT = Format(
    NAME,
    DESCRIPTION,
    sniff,
    read,
    redecode,
    decode_line=decode_line,
    read_set=read_set,
    read_bare=partial(read, details=False),
    read_set_bare=partial(read_set, details=False),
    read_lean=partial(read, details=False, saved=True),
    read_set_lean=partial(read_set, details=False, saved=True),
)
"""This format for the registry (:func:`inspector.protocols.get`)."""
