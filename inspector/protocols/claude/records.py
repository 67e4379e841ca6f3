"""Claude Code records: one decoded JSON line (user, assistant, progress, summary, system) into model events."""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import inspector.protocols.claude.commands as claude_commands
import inspector.protocols.claude.edits as claude_edits
import inspector.protocols.claude.marks as claude_marks
import inspector.protocols.common.values as _values
from inspector.model.events import (
    NO_EXTRA,
    Event,
    Malformed,
    Marker,
    Message,
    Outcome,
    RawRef,
    Request,
    Result,
    Skipped,
)
from inspector.protocols.claude.details import (
    TASK_TOOLS,
    details,
    has_diff,
    hint,
    outcome,
    summarize,
    terminal_content,
    terminal_text,
)
from inspector.protocols.claude.persisted import persisted
from inspector.protocols.claude.resume import Resume
from inspector.protocols.claude.rewrite import Rewrite, same_block
from inspector.protocols.claude.subagents import WORKFLOW_TOOL, Planner, prompt_text, workflow_run

TEXT_LIMIT = 2000  # conversation text kept per message (the full text stays in the file)
_INTERRUPTED = "[Request interrupted by user"
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


# -- reading state ---------------------------------------------------------------------------------


@dataclass(slots=True)
class RecordOrigin:
    """Where records come from: the session itself, a subagent file, or progress copies."""

    path: str
    parent: str | None = None  # the call every record nests under (subagent files, progress copies)
    agent: str = ""
    nested: bool = False  # records belong to one subagent (placement comes from here, not the record)
    copy: bool = False  # records may repeat calls already read: skip ids seen before


class ReadState:
    """What one read of a session knows so far: open calls, answered ids, sidechain links."""

    __slots__ = (
        "planner",
        "skip_agents",
        "siblings",
        "tools",
        "edits",
        "emitted",
        "done",
        "side",
        "seen_copies",
        "strings",
        "group",
        "marker",
        "resume",
        "rewrite",
        "elsewhere",
        "details",
        "saved",
    )

    def __init__(self, planner: Planner | None, details: bool = True, saved: bool | None = None) -> None:
        self.planner = planner
        self.details = details  # False: results carry no detail (the store drops them), only has_diff
        self.saved = details if saved is None else saved  # a saved output's detail, even without details
        self.skip_agents = planner.agent_ids_with_files() if planner is not None else frozenset()
        self.siblings: Container[str] = ()  # agent file read on its own: agents whose files are beside it
        self.tools: dict[str, tuple[str, str, str]] = {}  # open call id -> (tool, request hint, the id)
        self.edits: dict[str, Any] = {}  # open file-change call id -> its parameters (claude_edits)
        self.emitted: dict[str, RawRef] = {}  # call id requested so far -> its first record
        self.done: dict[str, RawRef] = {}  # call id answered so far -> its first record
        self.side: dict[str, str | None] = {}  # sidechain record uuid -> the Task call it belongs to
        self.seen_copies: set[str] = set()  # uuids of progress copies already read
        self.strings: dict[str, str] = {}
        self.group = ""
        self.marker: Marker | None = None  # the last compaction, waiting for its summary
        self.resume: Resume | None = None  # session ids seen, records repeated (a session file's read)
        self.rewrite = Rewrite()  # the session written into its own file again, once seen
        self.elsewhere: set[str] = set()  # call ids whose request another file of the set showed

    def intern(self, text: str) -> str:
        """One string for every equal text of the read: names, ids, and what calls repeat (a summary such
        as a command run again or a file read again, an error message: a third of those of a real
        transcript repeat one before them); the map goes with the read, the strings stay."""
        return self.strings.setdefault(text, text)


def bad(raw: RawRef, reason: str) -> Malformed:
    """A Malformed event for the record ``raw`` points at."""
    return Malformed(raw.where, reason, source=raw.source, raw=raw)


# -- records ---------------------------------------------------------------------------------------


def decode(record: dict[str, Any], raw: RawRef, session: ReadState, source: RecordOrigin) -> list[Event]:
    """The events of one decoded record; ``session`` keeps what later records need."""
    kind = record.get("type")
    if not isinstance(kind, str):
        return [bad(raw, "record without a string 'type'")]
    if kind == "user" or kind == "assistant":
        # the literal, not the record's own copy: every message, request and result keeps it as its kind
        # or sender (a fresh string per record was 1.5 MB of a 100 MB transcript's calls)
        return conversation(record, "user" if kind == "user" else "assistant", raw, session, source)
    if kind == "progress":
        return _progress(record, raw, session, source)
    if kind == "summary":
        return _summary(record, raw, session)
    if kind == "system":
        return _system(record, raw, session, source)
    return [Skipped(kind[:60] or "?", raw.where)]


def _group(record: dict[str, Any], session: ReadState) -> str:
    sid = record.get("sessionId")
    if isinstance(sid, str) and sid != session.group:
        session.group = session.intern(sid)
    return session.group


def conversation(
    record: dict[str, Any], kind: str, raw: RawRef, session: ReadState, source: RecordOrigin
) -> list[Event]:
    """The events of a user or assistant record (``kind``: the literal "user" or "assistant")."""
    message = record.get("message")
    if not isinstance(message, dict):
        return [bad(raw, "'message' is not an object")]
    content = message.get("content")
    if not isinstance(content, (str, list)):
        return [bad(raw, "'message.content' is neither text nor a list of blocks")]
    # what _group, time_of and _placement do, their common case without their calls (every record)
    sid = record.get("sessionId")
    if type(sid) is str and sid != session.group:
        session.group = session.intern(sid)
    group = session.group
    ts = record.get("timestamp")
    if type(ts) is str and len(ts) == 24 and ts[23] == "Z" and ts[19] == ".":
        try:
            ts = (_fromisoformat(ts[:23]) - _EPOCH).total_seconds()
        except ValueError:
            ts = _values.parse_time(ts)
    else:
        ts = time_of(ts)
    if source.nested or record.get("isSidechain") is True:
        parent, sender = _placement(record, kind, content, session, source)
    else:
        parent, sender = None, kind
    if kind == "user" and record.get("isCompactSummary") is True:
        text = prompt_text(content) or ""
        return [claude_marks.summary(text, session.marker, group, ts, raw, parent)]
    if isinstance(content, str):
        return [_text(kind, [content], record, group, ts, sender, raw, parent)]
    structured = _NOT_YET  # the record's toolUseResult, read at its first tool_result block
    message_id = message.get("id")
    # one string per API message: its records (one per block: parallel calls) repeat the id
    message_id = session.intern(message_id) if isinstance(message_id, str) else None
    texts: list[str] = []
    events: list[Event] = []
    begun: Marker | None = None  # the marker of a rewrite that begins in this record
    for block in content:
        btype = block.get("type") if isinstance(block, dict) else None
        if not isinstance(btype, str):
            events.append(bad(raw, "a content block without a string 'type'"))
        elif btype == "text":
            text = block.get("text")
            if isinstance(text, str) and text.strip():
                texts.append(text)
        elif btype == "tool_use" or btype == "server_tool_use":
            cwd = record.get("cwd")
            cwd = cwd if isinstance(cwd, str) else None
            event = _request(block, group, ts, sender, raw, parent, message_id, session, source, cwd)
            if event is None:
                event, begun = session.rewrite.repeat(True, group, ts, raw, parent, begun)
            events.append(event)
        elif btype == "tool_result" or btype.endswith("_tool_result"):
            if structured is _NOT_YET:  # the structured result belongs to a record's only tool_result
                if len(content) == 1:  # nearly every record: this block alone
                    results = 1 if btype == "tool_result" else 0
                else:
                    results = sum(
                        1 for b in content if isinstance(b, dict) and b.get("type") == "tool_result"
                    )
                structured = record.get("toolUseResult") if results == 1 else None
            answer = _result(block, structured, group, ts, sender, raw, session, source)
            if answer is None:
                answer, begun = session.rewrite.repeat(False, group, ts, raw, parent, begun)
            events.append(answer)
        elif btype == "image":
            texts.append("[image]")
        elif btype in ("thinking", "redacted_thinking"):
            events.append(Skipped("thinking", raw.where))
        else:
            events.append(Skipped(f"block {btype[:40]}", raw.where))
    if texts:
        if kind == "assistant" and not source.copy and session.rewrite.said_again(message_id, texts):
            skipped, begun = session.rewrite.repeat(None, group, ts, raw, parent, begun)
            events.insert(0, skipped)
        else:
            events.insert(0, _text(kind, texts, record, group, ts, sender, raw, parent))
    if begun is not None:
        events.insert(0, begun)
    return events


_NOT_YET: Any = object()


def _placement(
    record: dict[str, Any], kind: str, content: Any, session: ReadState, source: RecordOrigin
) -> tuple[str | None, str]:
    """``(parent call id, sender)`` of a user/assistant record (``conversation`` tells the common case,
    neither nested nor a sidechain, itself)."""
    if source.nested:
        return source.parent, source.agent or "subagent"
    if record.get("isSidechain") is not True:
        return None, kind
    uuid = record.get("uuid")
    up = record.get("parentUuid")
    if isinstance(up, str) and up in session.side:
        parent = session.side[up]
    elif up is None and session.planner is not None:  # the root of an inline subagent: its prompt
        parent = session.planner.match_prompt(prompt_text(content)) if kind == "user" else None
        if parent is None:
            parent = session.planner.oldest_uncovered(session.done)
    else:
        parent = None
    if isinstance(uuid, str):
        session.side[uuid] = parent
    agent = record.get("agentId")
    return parent, session.intern(agent) if isinstance(agent, str) and agent else "subagent"


_LOCAL_OUTPUT = "<local-command-stdout>"
"""A local command's output (``/context``) keeps the terminal's colours: dropped (``terminal_text``)."""


def _text(
    kind: str,
    texts: list[str],
    record: dict[str, Any],
    group: str,
    ts: float | None,
    sender: str,
    raw: RawRef,
    parent: str | None,
) -> Message | Skipped:
    text = "\n".join(texts)
    if "\x1b" in text and _LOCAL_OUTPUT in text:
        text = terminal_text(text)
    if kind == "user":
        if record.get("isMeta") is True:
            return Skipped("meta", raw.where)
        if text.startswith(_INTERRUPTED):
            kind = "interrupt"
        elif text.startswith("<"):
            text = claude_commands.command_text(text) or text  # /context, not its markup
    return Message(kind, text[:TEXT_LIMIT], group, ts, sender, raw, parent, NO_EXTRA)


def _request(
    block: dict[str, Any],
    group: str,
    ts: float | None,
    sender: str,
    raw: RawRef,
    parent: str | None,
    message_id: str | None,
    session: ReadState,
    source: RecordOrigin,
    cwd: str | None = None,
) -> Event | None:
    """The call's Request; None when it repeats an earlier call whole (a session rewritten into its file)."""
    call_id = block.get("id")
    tool = block.get("name")
    if not isinstance(call_id, str) or not call_id:
        return bad(raw, "tool_use without a string 'id'")
    if not isinstance(tool, str):
        return bad(raw, f"tool_use {call_id[:60]} without a string 'name'")
    params = block.get("input")
    first = session.emitted.get(call_id)
    if first is not None:
        if source.copy:
            return Skipped("repeated call", raw.where)
        if same_block(first, "tool_use", "id", call_id, params):
            return None
    else:
        resume = session.resume
        if resume is not None and resume.together is not None and resume.repeats_call(call_id, raw, params):
            session.elsewhere.add(call_id)  # a resume written again with new uuids: shown from that file
            return Skipped("repeated by a resumed session", raw.where)
        session.emitted[call_id] = raw
    tool = session.intern(tool)
    session.tools[call_id] = (tool, hint(params) if session.details else "", call_id)  # hint: details only
    if tool in claude_edits.EDIT_TOOLS:
        session.edits[call_id] = params
    if tool in TASK_TOOLS and session.planner is not None and isinstance(params, dict):
        session.planner.add_task(call_id, params.get("prompt"), params.get("description"), params.get("name"))
    return Request(  # by position: a call per request without its keywords' matching
        call_id,
        tool,
        group,
        params,
        None,  # executor
        None,  # timeout_ms
        ts,
        sender,
        raw,
        parent,
        None,  # violation
        session.intern(summarize(tool, params, cwd)),  # one string per summary of the read
        message_id,
        NO_EXTRA,
    )


def _result(
    block: dict[str, Any],
    structured: Any,
    group: str,
    ts: float | None,
    sender: str,
    raw: RawRef,
    session: ReadState,
    source: RecordOrigin,
) -> Event | None:
    """The call's Result; None when it repeats an earlier answer whole (a session rewritten into its file)."""
    call_id = block.get("tool_use_id")
    if not isinstance(call_id, str) or not call_id:
        return bad(raw, "tool_result without a string 'tool_use_id'")
    first = session.done.get(call_id)
    if first is not None:
        if source.copy:
            return Skipped("repeated result", raw.where)
        if same_block(
            first, "tool_result", "tool_use_id", call_id, block.get("content"), block.get("is_error") is True
        ):
            return None
    resume = session.resume
    if first is None and resume is not None and resume.together is not None:
        content, error = block.get("content"), block.get("is_error") is True
        if resume.repeats_answer(call_id, raw, content, error, call_id in session.elsewhere):
            return Skipped("repeated by a resumed session", raw.where)
    # the request's string for the id, so the call keeps one copy of it, not one per record
    tool, request_hint, call_id = session.tools.pop(call_id, ("", "", call_id))
    if first is None:
        session.done[call_id] = raw
    content = terminal_content(block.get("content"))  # a command's colours, as the terminal showed them
    ended, message, code = outcome(block.get("is_error") is True, content)
    if message is not None:  # one string per error message of the read ("File has not been read yet")
        message = session.intern(message)
    if not session.details:
        detail, diff = None, structured is not None and has_diff(tool, structured)
        if session.saved:  # dump --json carries a saved output in full, and shows no other detail
            detail = persisted(raw.source, call_id, content, structured)
    else:
        detail, diff = details(tool, structured, request_hint) if structured is not None else (None, False)
        saved = persisted(raw.source, call_id, content, structured)
        if saved is not None:  # the transcript holds a preview; the output is in tool-results/
            saved.inner, detail = detail, saved
    edit = session.edits.pop(call_id, None)
    if edit is not None and not diff and ended is Outcome.SUCCESS:
        diff = claude_edits.changes(tool, edit)  # no structuredPatch: the detail diffs the request
    if session.planner is not None and isinstance(structured, dict) and (tool in TASK_TOOLS or not tool):
        session.planner.link(structured.get("agentId"), call_id)
    if session.planner is not None and tool == WORKFLOW_TOOL:  # its agents: subagents/workflows/<run>/
        run = workflow_run(structured, block.get("content"))
        if run is not None:
            session.planner.link_run(run, call_id)
    return Result(
        call_id, ended, group, content, code, message, ts, sender, raw, detail, diff, tool, extra=NO_EXTRA
    )


def _progress(record: dict[str, Any], raw: RawRef, session: ReadState, source: RecordOrigin) -> list[Event]:
    """A 2.1.x ``agent_progress`` record: a copy of one subagent message, used only when it is the only copy."""
    data = record.get("data")
    if not isinstance(data, dict) or data.get("type") != "agent_progress":
        return [Skipped("progress", raw.where)]
    agent = data.get("agentId") if isinstance(data.get("agentId"), str) else ""
    inner = data.get("message")
    if (
        agent in session.skip_agents
        or agent in session.siblings
        or not isinstance(inner, dict)
        or inner.get("type") not in ("user", "assistant")
    ):
        return [Skipped("progress", raw.where)]
    uuid = inner.get("uuid")
    markers: tuple[Marker, ...] = ()
    if isinstance(uuid, str):
        if uuid in session.seen_copies:
            return [Skipped("progress", raw.where)]
        session.seen_copies.add(uuid)
        if uuid and session.resume is not None and session.resume.together is not None:
            markers, repeated = session.resume.elsewhere(uuid, record, raw, time_of)
            if repeated:
                return [Skipped("repeated by a resumed session", raw.where)]
    parent = record.get("parentToolUseID")
    parent = parent if isinstance(parent, str) and parent else source.parent
    if parent is not None and session.planner is not None:
        session.planner.cover(parent)
    nested = dict(inner)
    nested.setdefault("sessionId", record.get("sessionId"))
    nested.setdefault("timestamp", record.get("timestamp"))
    copy = RecordOrigin(
        source.path,
        parent=parent,
        agent=session.intern(agent) if agent else "subagent",
        nested=True,
        copy=True,
    )
    events = conversation(nested, nested["type"], raw, session, copy)
    return [*markers, *events] if markers else events


def _summary(record: dict[str, Any], raw: RawRef, session: ReadState) -> list[Event]:
    text = record.get("summary")
    if not isinstance(text, str):
        return [bad(raw, "summary record without a string 'summary'")]
    return [Message("summary", text[:TEXT_LIMIT], session.group, raw=raw, extra=NO_EXTRA)]


def _system(record: dict[str, Any], raw: RawRef, session: ReadState, source: RecordOrigin) -> list[Event]:
    content = record.get("content")
    subtype = record.get("subtype")
    if subtype in claude_marks.BOUNDARIES:
        tool_use = record.get("toolUseID")
        parent = tool_use if isinstance(tool_use, str) and tool_use else source.parent
        marker = claude_marks.boundary(
            record, _group(record, session), time_of(record.get("timestamp")), raw, parent
        )
        if marker.kind == "compaction":
            session.marker = marker
        return [marker]
    if not isinstance(content, str) or not content.strip():
        return [Skipped(f"system {subtype[:40]}" if isinstance(subtype, str) else "system", raw.where)]
    tool_use = record.get("toolUseID")
    parent = tool_use if isinstance(tool_use, str) and tool_use else source.parent
    text = _ANSI.sub("", content[: TEXT_LIMIT * 2])[:TEXT_LIMIT]
    return [
        Message(
            "system",
            text,
            _group(record, session),
            time_of(record.get("timestamp")),
            "system",
            raw,
            parent,
            NO_EXTRA,
        )
    ]


_EPOCH = datetime(1970, 1, 1)
_fromisoformat = datetime.fromisoformat


def time_of(value: Any) -> float | None:
    """Epoch seconds of a record's ``timestamp`` (the common ``...T..:..:..mmmZ`` form parsed directly:
    a naive UTC time minus the epoch, a third of the cost of making it aware first)."""
    if isinstance(value, str) and len(value) == 24 and value[23] == "Z" and value[19] == ".":
        try:
            return (datetime.fromisoformat(value[:23]) - _EPOCH).total_seconds()
        except ValueError:
            pass
    return _values.parse_time(value)
