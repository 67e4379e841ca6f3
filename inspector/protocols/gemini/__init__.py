"""Google Gemini CLI sessions (``~/.gemini/tmp/*/chats/session-*.json[l]``): tool calls, results and text."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import inspector.protocols.common.jsonfile as _jsonfile
import inspector.protocols.common.reread as _reread
import inspector.protocols.common.values as _values
import inspector.protocols.gemini.checkpoint as gemini_checkpoint
import inspector.protocols.gemini.document as gemini_document
from inspector.model import values
from inspector.model.events import Event, Malformed, Message, RawRef, Request, Result, Skipped, noted
from inspector.model.values import MAX_TIME_S, MIN_TIME_S
from inspector.protocols.format import Format
from inspector.protocols.gemini.agents import agent_of, nested, unnamed
from inspector.protocols.gemini.calls import call_events
from inspector.protocols.sniffers.gemini import _KINDS, sniff

NAME = "gemini"
DESCRIPTION = (
    "Google Gemini CLI sessions (chats/session-*.json and *.jsonl) and saved chats (checkpoint-*.json)"
)

TEXT_LIMIT = 4000
_UNREAD: Any = object()  # a message's time not read yet


# -- the format-module contract ------------------------------------------------------------


def read(path: str, seen: set[str] | None = None, *, details: bool = True) -> Iterator[Event]:
    """Every event of a session file, either layout; bad records become Malformed, the rest still loads.

    The sub-agents its calls ran follow, each under its call, when their files are there
    (gemini_agents.py; ``seen``: the files already read). ``details=False`` (a store that drops
    payloads, ``read_bare``): results without details nor data, their ``has_diff`` still said."""
    seen = {os.path.abspath(path)} if seen is None else seen
    session = _Session(details=details)
    whole = gemini_document.split(path)  # a session document as the CLI writes it, split in one pass
    if whole is not None:
        session.document = True
        session._header(whole.header)
        session.add_items(path, whole.items)
    bad = session.bad
    for chunk in _jsonfile.read_chunks(path) if whole is None else ():
        if bad:  # said as they come, in the order they were found (all before the session's events, as
            yield from bad  # ever): a million malformed lines are not all held until the end
            bad.clear()
        value = chunk.value
        if type(value) is dict and chunk.note is None and "messages" not in value and "role" not in value:
            # a record of the JSON Lines layout (the common case): what add_line does, a message and a
            # $set of the session's fields (every other line, for its lastUpdated) without its calls
            message_id = value.get("id")
            if type(message_id) is str and message_id:
                session._message(
                    message_id, value, RawRef(path, chunk.where, chunk.offset, chunk.length, protocol=NAME)
                )
                continue
            fields = value.get("$set") if message_id is None else None
            if type(fields) is dict and "messages" not in fields and "id" not in value:
                session._header(fields)  # no place kept: nothing of it can be malformed
                continue
            session.add_line(value, _raw(path, chunk))
            continue
        raw = _raw(path, chunk)
        if chunk.error is not None:
            session.bad.append(Malformed(chunk.where, chunk.error, source=path, raw=raw))
            continue
        if chunk.note is not None and not (isinstance(chunk.value, dict) and "messages" in chunk.value):
            session.bad.append(Malformed(chunk.where, chunk.note, source=path, raw=raw))  # read all the same
        if type(chunk.value) is dict and "messages" not in chunk.value and "role" not in chunk.value:
            session.add_line(chunk.value, raw)  # a record of the JSON Lines layout (the common case)
        elif isinstance(chunk.value, dict) and "messages" in chunk.value:
            session.add_document(chunk, raw)  # the JSON layout: one document (pretty-printed or not)
        elif gemini_checkpoint.is_content(chunk.value):
            session.contents.append((chunk.value, raw))  # a saved chat: one {role, parts} item
        else:
            session.add_line(chunk.value, raw)
    yield from session.bad
    yield from session.events()
    _FOLLOWED[path] = session.follow_state(seen)
    again = read if details else _read_bare
    yield from nested(path, session.group, session.children, again, seen)
    yield from unnamed(path, session.group, session.spans, again, seen)


def _read_bare(path: str, seen: set[str] | None = None) -> Iterator[Event]:
    return read(path, seen, details=False)


def redecode(raw: RawRef) -> list[Event]:
    """Decode the one message record ``raw`` points at again (its calls, each with its result)."""
    data = _reread.reread(raw)
    value, error, _ = values.loads_noted(data)  # as the record was read
    if error is not None and data[:1] in (b"{", "{"):  # a saved chat's call: two contents, call and answer
        text = data if isinstance(data, str) else bytes(data).decode("utf-8", "replace")
        return gemini_checkpoint.redecode(raw, text)
    if error is not None:
        return [Malformed(raw.where, error, source=raw.source, raw=raw)]
    if gemini_checkpoint.is_content(value):
        return gemini_checkpoint.redecode(raw, json.dumps(value))
    if not isinstance(value, dict) or "id" not in value:
        return [Skipped("session record", raw.where)]
    return list(_message_events(value, raw, "", None, None))


def decode_line(line: bytes, raw: RawRef) -> list[Event]:
    """The events of one appended JSON Lines record, for following a growing session.

    A message id written again (the CLI rewrites a message as its tool calls run and end) adds only
    what is new: a call seen before is not requested again, a result seen before is not repeated.
    """
    state = _FOLLOWED.get(raw.source)
    if state is None or raw.where == "line 1":  # a new file, or the old one truncated and restarted
        state = _FOLLOWED[raw.source] = _Follow(seen={os.path.abspath(raw.source)})
    if state.document:
        return []  # a JSON document is rewritten whole, never appended to
    value, error, note = values.loads_noted(line.lstrip(b"\xef\xbb\xbf"))
    if error is not None:
        return [Malformed(raw.where, error, source=raw.source, raw=raw)]
    events = state.decode(value, raw)
    if note is not None:
        events = noted(note, raw, raw.where, events)
    ran = {agent: e.call_id for e in events if isinstance(e, Request) and (agent := agent_of(e))}
    return events + list(nested(raw.source, state.group, ran, read, state.seen)) if ran else events


def _raw(path: str, chunk: _jsonfile.Chunk) -> RawRef:
    return RawRef(path, chunk.where, chunk.offset, chunk.length, protocol=NAME)


# -- reading a whole file ------------------------------------------------------------------


@dataclass
class _Session:
    """A file's messages as the CLI would load it: the last record of an id wins, rewinds drop."""

    group: str = ""
    last_updated: float | None = None
    updates: list[Any] = field(default_factory=list)  # lastUpdated values given since (see _settle)
    document: bool = False
    # message id -> its events (_Prepared), or its record while it is the one last read (``pending``)
    messages: dict[str, _Prepared | tuple[dict[str, Any], RawRef]] = field(default_factory=dict)
    pending: str | None = None
    bad: list[Event] = field(default_factory=list)
    emitted: set[str] = field(default_factory=set)
    answered: set[str] = field(default_factory=set)
    children: dict[str, str] = field(default_factory=dict)  # sub-agent id -> the call that ran it
    contents: list[tuple[dict[str, Any], RawRef]] = field(default_factory=list)  # a saved chat's items
    # call id -> (when the model asked for it: its message's time, when it was over: the call's own time)
    spans: dict[str, tuple[float, float]] = field(default_factory=dict)
    details: bool = True  # False: results without details nor data (see read)

    def add_line(self, value: Any, raw: RawRef) -> None:
        message_id = value.get("id") if type(value) is dict else None
        if type(message_id) is str and message_id:  # a message: what _record_kind says, at once
            self._message(message_id, value, raw)
            return
        kind = _record_kind(value)
        if kind == "message":
            self._message(value["id"], value, raw)
        elif kind == "set":
            self._header(value["$set"])
            self._checkpoint(value["$set"].get("messages"), raw)
        elif kind == "rewind":
            self._rewind(value["$rewindTo"])
        elif kind == "header":
            self._header(value)
        else:
            self.bad.append(Malformed(raw.where, kind, source=raw.source, raw=raw))

    def add_document(self, chunk: _jsonfile.Chunk, raw: RawRef) -> None:
        value = chunk.value
        if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
            reason = "not a Gemini CLI session: no 'messages' array"
            self.bad.append(Malformed(chunk.where or "document", reason, source=raw.source, raw=raw))
            return
        self.document = True
        self._header(value)
        found = [item for key, item in _jsonfile.member_chunks(raw.read(), chunk) if key == "messages"]
        if chunk.note is not None and not any(item.note for item in found):  # bad bytes outside them
            self.bad.append(Malformed(chunk.where or "document", chunk.note, source=raw.source, raw=raw))
        self.add_items(raw.source, found)

    def add_items(self, path: str, items: Iterable[_jsonfile.Chunk]) -> None:
        """The items of a document's ``messages`` array."""
        for item in items:
            item_raw = RawRef(path, item.where, item.offset, item.length, protocol=NAME)  # _raw
            if item.note is not None:  # bytes not UTF-8, read as U+FFFD: said, and the message kept
                self.bad.append(Malformed(item.where, item.note, source=path, raw=item_raw))
            value = item.value
            message_id = value.get("id") if type(value) is dict else None
            if item.error is not None:
                self.bad.append(Malformed(item.where, item.error, source=path, raw=item_raw))
            elif type(message_id) is str and message_id:
                self._message(message_id, value, item_raw)  # _record_kind's "message"
            else:
                reason = "a message must be an object with a string 'id'"
                self.bad.append(Malformed(item.where, reason, source=path, raw=item_raw))

    def _message(self, message_id: str, value: dict[str, Any], raw: RawRef) -> None:
        """A message record: the last one of its id wins. Its events are made once the next record of
        another id comes (the CLI writes a message again, as its calls run and end, right after
        itself), and its decoded record freed: a session keeps events, not the file's records."""
        pending = self.pending
        if pending is not None and pending != message_id:
            self._prepare(pending)
        self.messages[message_id] = (value, raw)
        self.pending = message_id

    def _prepare(self, message_id: str) -> None:
        """The events of the message ``message_id`` while its record is still kept (it is the last one
        read: every other message's events are made already)."""
        entry = self.messages.get(message_id)
        if type(entry) is tuple:
            message, raw = entry
            stamp = message.get("timestamp")
            asked = _values.parse_time(stamp)
            results: list[tuple[Result, Any]] = []
            events = _message_events(message, raw, self.group, None, None, self.details, asked, results)
            self.messages[message_id] = _Prepared(events, results, stamp is not None, asked, self.group)

    def _header(self, fields: Any) -> None:
        if not isinstance(fields, dict):
            return
        session = fields.get("sessionId")
        if isinstance(session, str) and session and not self.group:
            self.group = session
        updated = fields.get("lastUpdated")
        if updated is not None:  # read when the session's end needs it (a JSON Lines log says it each turn)
            self.updates.append(updated)
            if len(self.updates) >= 64:
                self._settle()

    def _settle(self) -> None:
        """``last_updated``: the last lastUpdated given that is a time."""
        for updated in reversed(self.updates):
            parsed = _values.parse_time(updated)
            if parsed is not None:
                self.last_updated = parsed
                break
        self.updates.clear()

    def _checkpoint(self, messages: Any, raw: RawRef) -> None:
        """``{"$set": {"messages": [...]}}`` (the CLI's history sync, 2026-05+): the session's messages are
        these from now on, as gemini-cli's loadConversationRecord rebuilds them."""
        if not isinstance(messages, list):
            return
        self.messages, self.pending = {}, None
        for message in messages:
            if _record_kind(message) == "message":
                self._message(message["id"], message, raw)

    def _rewind(self, message_id: Any) -> None:
        # gemini-cli core/src/services/chatRecordingService.ts: rewindTo() removes "all messages from (and
        # including) the specified ID onwards"; its loader clears every message when the id is unknown.
        ids = list(self.messages)
        if isinstance(message_id, str) and message_id in self.messages:  # an array or object: no id
            for dropped in ids[ids.index(message_id) :]:
                del self.messages[dropped]
        else:
            self.messages.clear()

    def events(self) -> Iterator[Event]:
        if self.contents:
            self.document = True  # a saved chat is written whole, never appended to
            for event in gemini_checkpoint.events(self.contents, self.group):
                yield event
                self._note(event)
        self._settle()
        if self.pending is not None:
            self._prepare(self.pending)
        self.pending = None
        ordered: list[_Prepared] = list(self.messages.values())  # type: ignore[arg-type]
        group = self.group
        answered, emitted, children, spans = self.answered, self.emitted, self.children, self.spans
        for index, prepared in enumerate(ordered):
            # No time is stored for a result: the next message's time is the first moment it is
            # known to exist (the model's next turn reads it); the last message uses lastUpdated.
            later = index + 1 < len(ordered) and ordered[index + 1].stamped
            result_ts = ordered[index + 1].asked if later else self.last_updated
            asked = prepared.asked
            for event in prepared.finish(group, result_ts):
                yield event
                # what _note does, without its calls (call_events makes no subclass)
                if type(event) is Result:
                    answered.add(event.call_id)
                elif type(event) is Request:
                    call_id = event.call_id
                    emitted.add(call_id)
                    agent = event.extra.get("agentId")  # agent_of
                    if isinstance(agent, str) and agent:
                        children.setdefault(agent, call_id)
                    if asked is not None:  # a call's own time: when it ended
                        over = event.ts if event.ts is not None else result_ts
                        over = over or asked
                        spans.setdefault(call_id, (asked, over if over > asked else asked))  # max's

    def _note(self, event: Event) -> None:
        if isinstance(event, Request):
            self.emitted.add(event.call_id)
            if agent := agent_of(event):
                self.children.setdefault(agent, event.call_id)
        elif isinstance(event, Result):
            self.answered.add(event.call_id)

    def follow_state(self, seen: set[str]) -> _Follow:
        state = _Follow(group=self.group, document=self.document, last_ts=self.last_updated, seen=seen)
        state.requested, state.answered = self.emitted, self.answered
        state.texts = set(self.messages)
        return state


def _record_kind(value: Any) -> str:
    """``message``, ``set``, ``rewind``, ``header``, or why the record is none of them."""
    if not isinstance(value, dict):
        return "a session record must be a JSON object"
    if "id" in value:
        return (
            "message" if isinstance(value["id"], str) and value["id"] else "a message 'id' must be a string"
        )
    if "$set" in value:
        return "set" if isinstance(value["$set"], dict) else "'$set' must be an object"
    if "$rewindTo" in value:
        return "rewind"
    if "sessionId" in value:
        return "header"
    keys = ", ".join(list(value)[:6]) or "none"
    return f"not a Gemini CLI session record (keys: {keys})"


class _Prepared:
    """A message's events, made when its record was read (the record then freed), all but what only the
    whole file tells: its session's id when the header came later, and its results' times (the next
    message's time; see ``_Session.events``)."""

    __slots__ = ("events", "results", "stamped", "asked", "group")

    def __init__(
        self, events: list[Event], results: list[tuple[Result, Any]], stamped: bool, asked: Any, group: str
    ) -> None:
        self.events = events
        self.results = results  # each Result and its call's own time
        self.stamped = stamped  # the message has a timestamp (read or not)
        self.asked = asked  # the message's time
        self.group = group  # the session id its events were made with

    def finish(self, group: str, result_ts: float | None) -> list[Event]:
        """The events, in ``group``, each result at ``result_ts`` or its call's own time if later (as
        ``call_events`` sets it)."""
        if group != self.group:  # a header after the message: the events take the session's id
            for event in self.events:
                if isinstance(event, (Request, Result, Message)):
                    event.group = group
        for result, called in self.results:
            ts = result_ts
            if called is not None and (ts is None or ts < called):
                ts = called
            result.ts = ts if type(ts) is float and MIN_TIME_S <= ts <= MAX_TIME_S else values.time_s(ts)
        return self.events


def _message_events(
    message: dict[str, Any],
    raw: RawRef,
    group: str,
    result_ts: float | None,
    state: _Follow | None,
    details: bool = True,
    ts: Any = _UNREAD,
    results: list[tuple[Result, Any]] | None = None,
) -> list[Event]:
    """A message's text (when it has some) and its tool calls, each call followed by its result; a shape
    no rule foresaw is one Malformed, never the end of the file.

    With ``state`` (following), only what that state has not seen yet. ``ts``: the message's time when
    the caller has read it already; ``results`` (when given) gets each Result with its call's own time.
    """
    try:
        if ts is _UNREAD:
            ts = _values.parse_time(message.get("timestamp"))
        message_id = message["id"]
        content = message.get("content")
        text = content if type(content) is str else _text(content)
        written = message.get("type")
        kind = _KINDS.get(written) if type(written) is str else None
        if kind is None:
            kind = str(written)[:40]
        out: list[Event] = []
        if text and (state is None or message_id not in state.texts):
            if state is not None:
                state.texts.add(message_id)
            extra = {"message_id": message_id}
            out.append(Message(kind, text[:TEXT_LIMIT], group, ts, kind, raw, None, extra))  # by position
        calls = message.get("toolCalls")
        if calls is None:
            return out
        if not isinstance(calls, list):
            out.append(Malformed(raw.where, "'toolCalls' must be an array", source=raw.source, raw=raw))
            return out
        requested, answered = (None, None) if state is None else (state.requested, state.answered)
        for entry in calls:
            if isinstance(entry, dict):
                call_events(entry, group, raw, result_ts, details, out, results, requested, answered)
            else:  # no request, and no result: not answered
                reason = "a toolCalls entry must be a JSON object"
                out.append(Malformed(raw.where, reason, source=raw.source, raw=raw))
        return out
    except Exception as exc:  # noqa: BLE001 - one bad message must not hide the others
        if results:
            results.clear()
        reason = f"could not decode: {type(exc).__name__}: {str(exc)[:160]}"
        return [Malformed(raw.where, reason, source=raw.source, raw=raw)]


def _text(content: Any) -> str:
    """A message's content: a string (2025 files) or a list of parts ``[{"text": ...}]`` (2026)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


# -- following a growing JSON Lines file ---------------------------------------------------


@dataclass
class _Follow:
    """What a followed file has shown so far, so a message written again adds only what is new."""

    group: str = ""
    document: bool = False
    last_ts: float | None = None
    requested: set[str] = field(default_factory=set)
    answered: set[str] = field(default_factory=set)
    texts: set[str] = field(default_factory=set)
    seen: set[str] = field(default_factory=set)  # the files read: this one and its sub-agents'

    def decode(self, value: Any, raw: RawRef) -> list[Event]:
        kind = _record_kind(value)
        if kind == "header":
            self.group = value["sessionId"] if isinstance(value["sessionId"], str) else self.group
            self.document = isinstance(value.get("messages"), list)
            return []
        if kind == "set":
            self.last_ts = _values.parse_time(value["$set"].get("lastUpdated")) or self.last_ts
            synced = value["$set"].get("messages")  # a history sync: what is new in it is shown
            if isinstance(synced, list):
                found = (m for m in synced if _record_kind(m) == "message")
                return [e for m in found for e in _message_events(m, raw, self.group, self.last_ts, self)]
            return []
        if kind == "rewind":
            text = (
                f"rewound to before message {str(value['$rewindTo'])[:80]}: the calls from there on are "
                "dropped from the session (open the file again to see it without them)"
            )
            return [Message("info", text, self.group, self.last_ts, "gemini", raw)]
        if kind != "message":
            return [Malformed(raw.where, kind, source=raw.source, raw=raw)]
        ts = _values.parse_time(value.get("timestamp"))
        if ts is not None and (self.last_ts is None or ts > self.last_ts):
            self.last_ts = ts
        # While following, a result is stamped with the newest time the file has shown so far (the
        # CLI stores none for it); reading the finished file uses the next message's time instead.
        return _message_events(value, raw, self.group, self.last_ts, self)


_FOLLOWED: dict[str, _Follow] = {}
"""Per followed path: what it has shown (seeded by ``read`` so a follow after a load adds only news)."""


FORMAT = Format(NAME, DESCRIPTION, sniff, read, redecode, decode_line=decode_line, read_bare=_read_bare)
"""This format for the registry (:func:`inspector.protocols.get`)."""
