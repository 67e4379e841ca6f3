"""Gemini CLI tool calls: one ``toolCalls[]`` entry (call and result together) as a Request and a Result."""

from __future__ import annotations

import re
from typing import Any

import inspector.protocols.common.values as _values
from inspector.model.details import BashDetail, PatchDetail, TextDetail
from inspector.model.diff import has_hunk, parse_unified_diff
from inspector.model.events import Malformed, Outcome, RawRef, Request, Result
from inspector.textsafe import one_line

SHELL = "run_shell_command"
SUMMARY_LIMIT = 120
DISPLAY_LINES = 2000
# The statuses a call ends with (gemini-cli core/coreToolScheduler.ts); others (scheduled,
# validating, awaiting_approval, executing) mean the call is still running.
DONE = frozenset(("success", "error", "cancelled", "canceled"))
# Shell output keeps ``status: success`` when the command fails: the exit code is only in the text,
# ``Exit Code: N`` on a line of its own (old layout: always; new layout: only when N is not 0).
_EXIT_CODE = re.compile(r"^Exit Code: (-?\d{1,9})\s*$", re.MULTILINE)
# A refusal at the confirmation prompt: "[Operation Cancelled] Reason: <why>", the reason worded
# "User did not allow tool call" up to 2026-01 and "User denied execution." after (real sessions of
# both ages); "User cancelled the operation." is an interruption, not a refusal.
_DENIED = ("User denied execution", "User did not allow tool call")
# An error a policy rule gave instead of running the call (core/scheduler/policy.ts): refused, not failed.
_POLICY = "denied by policy"
_UNREAD: Any = object()  # not looked up by the caller yet
# The parameter that says what a call is about, per tool (first one present wins).
_SUMMARY_KEYS: dict[str, tuple[str, ...]] = {
    SHELL: ("command",),
    "read_file": ("file_path", "absolute_path"),
    "read_many_files": ("paths",),
    "write_file": ("file_path",),
    "replace": ("file_path",),
    "list_directory": ("dir_path", "path"),
    "glob": ("pattern",),
    "grep_search": ("pattern",),
    "search_file_content": ("pattern",),
    "google_web_search": ("query",),
    "web_fetch": ("prompt", "url"),
    "delegate_to_agent": ("objective", "agent_name"),
    "mcp_postgresql_execute_sql": ("sql",),
}


def call_id_of(entry: dict[str, Any], response: Any = _UNREAD) -> str:
    """The id a ``toolCalls[]`` entry is known by: its own, else its functionResponse's ('' if none).
    ``response``: the entry's functionResponse when the caller has looked it up already."""
    value = entry.get("id")
    if isinstance(value, str) and value:
        return value
    if response is _UNREAD:
        response = function_response(entry)
    value = response.get("id") if response is not None else None
    return value if isinstance(value, str) else ""


def request_of(
    entry: Any, group: str, raw: RawRef, *, response: Any = _UNREAD, ts: Any = _UNREAD
) -> Request | Malformed | None:
    """The request half of a ``toolCalls[]`` entry; None when only a result is there (an orphan).
    ``response`` (its functionResponse) and ``ts`` (its time), when the caller has read them already."""
    if not isinstance(entry, dict):
        return Malformed(raw.where, "a toolCalls entry must be a JSON object", source=raw.source, raw=raw)
    call_id = entry.get("id")
    name = entry.get("name")
    if not isinstance(call_id, str) or not call_id:
        if response is _UNREAD:
            response = function_response(entry)
        if response is not None and call_id_of(entry, response):
            return None  # a result without its call: shown as an orphan
        return Malformed(raw.where, "a tool call without a string 'id'", source=raw.source, raw=raw)
    if not isinstance(name, str) or not name:
        reason = f"tool call {one_line(call_id, 60)} without a string 'name'"
        return Malformed(raw.where, reason, source=raw.source, raw=raw)
    args = entry.get("args")
    return Request(
        call_id=call_id,
        tool=name,
        group=group,
        params=args,
        ts=_values.parse_time(entry.get("timestamp")) if ts is _UNREAD else ts,
        raw=raw,
        summary=summarize(name, args),
        extra=_request_extra(entry),
    )


def _request_extra(entry: dict[str, Any]) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    for key in ("displayName", "description", "agentId"):  # agentId: the subagent this call ran
        value = entry.get(key)
        if isinstance(value, str) and value:
            extra[key] = value
    return extra


def summarize(tool: str, args: Any) -> str:
    """A one-line summary of a call's arguments: a shell call's command as the command it is."""
    if isinstance(args, dict):
        for key in _SUMMARY_KEYS.get(tool, ()):
            value = args.get(key)
            if isinstance(value, str) and value:
                where = args.get("dir_path") if tool == SHELL else None
                if isinstance(where, str) and where:
                    value = f"{value}  in {where}"
                return one_line(value, SUMMARY_LIMIT)
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                return one_line(", ".join(value), SUMMARY_LIMIT)
    return one_line(_values.arguments_summary(args), SUMMARY_LIMIT)


def is_answered(entry: Any) -> bool:
    """True when the entry holds a result: a functionResponse, or a status a call ends with."""
    if not isinstance(entry, dict):
        return False
    status = entry.get("status")
    return function_response(entry) is not None or (isinstance(status, str) and status in DONE)


def function_response(entry: dict[str, Any]) -> dict[str, Any] | None:
    # ``result`` is a PartListUnion (gemini-cli chatRecordingTypes.ts ToolCallRecord): a list of parts as
    # the CLI writes it today, but the type also allows one part on its own or a string.
    parts = entry.get("result")
    if isinstance(parts, dict):
        parts = [parts]
    if not isinstance(parts, list):
        return None
    for part in parts:
        if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
            response: dict[str, Any] = part["functionResponse"]
            return response
    return None


def result_of(
    entry: Any,
    group: str,
    raw: RawRef,
    ts: float | None,
    *,
    details: bool = True,
    response: Any = _UNREAD,
    called: Any = _UNREAD,
) -> Result | None:
    """The result half of a ``toolCalls[]`` entry, or None while the call has none.

    ``ts`` is when the result is known to exist: Gemini CLI stores no time for a result, so the
    caller passes the next record's time (see gemini.py). ``details=False`` (a store that drops
    payloads): no detail and no data, ``has_diff`` still. ``response`` (the entry's functionResponse)
    and ``called`` (its own time): a caller that read them already, and knows the entry answered.
    """
    if response is _UNREAD:
        if not isinstance(entry, dict) or not is_answered(entry):
            return None
        response = function_response(entry)
    call_id = call_id_of(entry, response)
    if not call_id:
        return None
    name = entry.get("name")
    tool = name if isinstance(name, str) else ""
    body = response.get("response") if response is not None else None
    output = body.get("output") if isinstance(body, dict) else None
    if response is None and isinstance(entry.get("result"), str):
        output = entry["result"]  # a bare string result (PartListUnion allows one)
    error = body.get("error") if isinstance(body, dict) else None
    data: Any = output if output is not None else body
    status = entry.get("status")
    extra: dict[str, Any] = {"status": status}
    if response is not None and response.get("id") not in (None, call_id):
        extra["response_id"] = response.get("id")
    outcome, message, code = _outcome(status, tool, output, error)
    if called is _UNREAD:
        called = _values.parse_time(entry.get("timestamp"))
    if called is not None and (ts is None or ts < called):
        ts = called  # the record holding the result was written at or after the call's own time
    display = entry.get("resultDisplay")
    if details:
        detail, has_diff = _details(tool, display, output)
    else:
        detail, data = None, None
        diff = display.get("fileDiff") if isinstance(display, dict) else None
        has_diff = isinstance(diff, str) and has_hunk(diff)  # what _patch says, without the hunks
    return Result(
        call_id=call_id,
        outcome=outcome,
        group=group,
        data=data,
        error_code=code,
        error_message=message,
        ts=ts,
        raw=raw,
        details=detail,
        has_diff=has_diff,
        tool=tool,
        extra=extra,
    )


def exit_code(output: Any) -> int | None:
    """The last ``Exit Code: N`` of a shell call's output text, if any."""
    if not isinstance(output, str) or "Exit Code: " not in output:  # the test in C first
        return None
    found = _EXIT_CODE.findall(output)
    return int(found[-1]) if found else None


def _outcome(status: Any, tool: str, output: Any, error: Any) -> tuple[Outcome, str | None, str | None]:
    """``(outcome, error message, error code)`` from a call's status and response."""
    text = error if isinstance(error, str) else None
    status = status if isinstance(status, str) else None  # an array or object is no status
    if status in ("cancelled", "canceled"):
        if text and any(words in text for words in _DENIED):
            return Outcome.DENIED, _first_lines(text), "denied"
        return Outcome.CANCELED, _first_lines(text) if text else "canceled", None
    if status == "error" and text and _POLICY in text:
        return Outcome.DENIED, _first_lines(text), "denied"
    if status == "error" or (status not in DONE and text):
        return Outcome.ERROR, _first_lines(text) if text else "error", None
    if tool == SHELL:
        code = exit_code(output)
        if code is not None and code != 0:
            return Outcome.ERROR, f"exit code {code}", f"exit {code}"
    return Outcome.SUCCESS, None, None


def _first_lines(text: str, lines: int = 3, limit: int = 300) -> str:
    kept = [line for line in text.splitlines() if line.strip()][:lines]
    joined = one_line(" / ".join(kept), limit) if len(kept) > 1 else one_line("".join(kept), limit)
    return joined or "error"


def _details(tool: str, display: Any, output: Any) -> tuple[Any, bool]:
    """``(detail, has_diff)``: a file change as diff hunks (the viewer of Claude's structuredPatch)."""
    if isinstance(display, dict) and isinstance(display.get("fileDiff"), str):
        return _patch(display)
    if tool == SHELL and isinstance(output, str):
        return BashDetail(output, exit_code=exit_code(output)), False
    shown = display_text(display)
    if shown:
        return TextDetail(shown), False
    return None, False


def display_text(display: Any) -> str:
    """A ``resultDisplay`` as the text it shows: a string; ``{summary, files}`` (list_directory) or
    ``{summary, matches}`` (grep) as the summary and one line per entry; a list of lines of styled
    spans ``[[{text, bold, fg, ...}, ...], ...]`` (2026-04 shell output) as their text. '' for others."""
    if isinstance(display, str):
        return display
    lines: list[str] = []
    if isinstance(display, dict):
        summary = display.get("summary")
        if isinstance(summary, str) and summary:
            lines.append(summary)
        for key in ("files", "matches"):
            items = display.get(key)
            if isinstance(items, list):
                lines += [_entry(item) for item in items[:DISPLAY_LINES]]
    elif isinstance(display, list):
        lines = [_spans(line) for line in display[:DISPLAY_LINES]]
    return "\n".join(lines)


def _entry(item: Any) -> str:
    """One file or match: a name, or ``path:line: text`` of a grep match."""
    if not isinstance(item, dict):
        return _spans(item)
    path = next((item[k] for k in ("filePath", "file", "path", "name") if isinstance(item.get(k), str)), "")
    number = next((item[k] for k in ("lineNumber", "line_number") if isinstance(item.get(k), int)), None)
    text = next((item[k] for k in ("line", "text", "content") if isinstance(item.get(k), str)), "")
    where = f"{path}:{number}" if number is not None else path
    return f"{where}: {text}" if where and text else where or text


def _spans(line: Any) -> str:
    """The text of one line of styled spans (a list of ``{text, ...}``), a span, or a plain value."""
    if isinstance(line, str):
        return line
    if isinstance(line, dict):
        text = line.get("text")
        return text if isinstance(text, str) else ""
    if isinstance(line, list):
        return "".join(_spans(span) for span in line if not isinstance(span, list))
    return "" if line is None else str(line)


def _patch(display: dict[str, Any]) -> tuple[PatchDetail, bool]:
    name = display.get("filePath") or display.get("fileName")
    path = name if isinstance(name, str) else ""
    files = parse_unified_diff(display["fileDiff"], path)
    hunks = [hunk for file in files for hunk in file.hunks]
    kind = "create" if display.get("isNewFile") is True else "update"
    content = display.get("newContent") if kind == "create" else None
    detail = PatchDetail(path, hunks, kind=kind, content=content if isinstance(content, str) else None)
    return detail, bool(hunks)
