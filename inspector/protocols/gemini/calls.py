"""Gemini CLI tool calls: one ``toolCalls[]`` entry (call and result together) as a Request and a Result."""

from __future__ import annotations

import re
from typing import Any

import inspector.protocols.common.values as _values
from inspector.model.details import BashDetail, PatchDetail, TextDetail
from inspector.model.diff import has_hunk, parse_unified_diff
from inspector.model.events import Event, Malformed, Outcome, RawRef, Request, Result
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


def call_events(
    entry: dict[str, Any],
    group: str,
    raw: RawRef,
    result_ts: float | None,
    details: bool,
    out: list[Event],
    results: list[tuple[Result, Any]] | None = None,
    requested: set[str] | None = None,
    answered: set[str] | None = None,
) -> None:
    """A ``toolCalls[]`` entry's request and, once the call is over, its result, added to ``out``, read
    from the entry in one pass. The request: none when only a result is there (an orphan), Malformed
    for a call without an id or a name. The result: ``result_ts`` is when it is known to exist (Gemini
    CLI stores no time for a result: the caller passes the next record's time, see gemini.py), the
    call's own time when later; ``details=False`` (a store that drops payloads): no detail and no data,
    ``has_diff`` still. ``results`` gets each result with its call's own time; ``requested`` and
    ``answered`` (following a file): the ids shown already, whose request or result is not added again.
    """
    # The entry's values are a JSON parse's (exact types): ``type(v) is str`` says what isinstance does.
    get = entry.get
    result_value: Any = get("result")
    # ``result`` is a PartListUnion (gemini-cli chatRecordingTypes.ts ToolCallRecord): a list of parts as
    # the CLI writes it today, but the type also allows one part on its own or a string.
    response: dict[str, Any] | None = None
    result_type = type(result_value)
    if result_type is list:
        for part in result_value:
            if type(part) is dict:
                found = part.get("functionResponse")
                if type(found) is dict:
                    response = found
                    break
    elif result_type is dict:
        found = result_value.get("functionResponse")
        if type(found) is dict:
            response = found
    own: Any = get("id")
    has_id = type(own) is str and own != ""
    call_id: str
    if has_id:
        call_id = own
    else:  # the id its functionResponse gives ('' if none)
        given = response.get("id") if response is not None else None
        call_id = given if type(given) is str else ""
    name = get("name")
    called = _values.parse_time(get("timestamp"))  # the call's own time
    if requested is None or call_id not in requested:
        if not has_id:
            if response is None or not call_id:  # else a result without its call: shown as an orphan
                out.append(
                    Malformed(raw.where, "a tool call without a string 'id'", source=raw.source, raw=raw)
                )
        elif type(name) is not str or not name:
            reason = f"tool call {one_line(call_id, 60)} without a string 'name'"
            out.append(Malformed(raw.where, reason, source=raw.source, raw=raw))
        else:
            extra: dict[str, Any] = {}
            value = get("displayName")
            if type(value) is str and value:
                extra["displayName"] = value
            value = get("description")
            if type(value) is str and value:
                extra["description"] = value
            value = get("agentId")  # the subagent this call ran
            if type(value) is str and value:
                extra["agentId"] = value
            args = get("args")
            summary = summarize(name, args)
            # by position: params, executor, timeout, time, sender, place, parent, violation, summary,
            # message id, extra
            out.append(
                Request(
                    call_id, name, group, args, None, None, called, "", raw, None, None, summary, None, extra
                )
            )
        if requested is not None and call_id:
            requested.add(call_id)
    status = get("status")
    if response is None and not (type(status) is str and status in DONE):
        return  # not over yet
    if not call_id or (answered is not None and call_id in answered):
        return
    tool = name if type(name) is str else ""
    body = response.get("response") if response is not None else None
    if type(body) is dict:
        output, error = body.get("output"), body.get("error")
    else:
        output = error = None
    if response is None and result_type is str:
        output = result_value  # a bare string result (PartListUnion allows one)
    data: Any = output if output is not None else body
    result_extra: dict[str, Any] = {"status": status}
    if response is not None:
        given = response.get("id")
        if given is not None and given != call_id:
            result_extra["response_id"] = given
    if status == "success" and tool != SHELL:  # what _outcome says for it, without its call
        outcome, message, code = Outcome.SUCCESS, None, None
    else:
        outcome, message, code = _outcome(status, tool, output, error)
    ts = result_ts
    if called is not None and (ts is None or ts < called):
        ts = called  # the record holding the result was written at or after the call's own time
    display = get("resultDisplay")
    if details:
        detail, has_diff = _details(tool, display, output)
    else:
        detail, data = None, None
        diff = display.get("fileDiff") if type(display) is dict else None
        has_diff = type(diff) is str and has_hunk(diff)  # what _patch says, without the hunks
    # by position (no keywords to match): data, error code and message, time, sender, place, detail,
    # has_diff, tool, answered_by, extra
    result = Result(
        call_id, outcome, group, data, code, message, ts, "", raw, detail, has_diff, tool, None, result_extra
    )
    if answered is not None:
        answered.add(call_id)
    if results is not None:
        results.append((result, called))
    out.append(result)


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


def exit_code(output: Any) -> int | None:
    """The last ``Exit Code: N`` of a shell call's output text, if any.

    The pattern is tried only where its words are, from the last back (a match cannot reach past the
    next line's start: what ``findall`` would find last), not by a search that tries it at every
    character of the output (a shell call's output is kilobytes: a twentieth of a session's read)."""
    if not isinstance(output, str):
        return None
    at = output.rfind("Exit Code: ")
    while at >= 0:
        found = _EXIT_CODE.match(output, at)  # ``^`` still asks for a line's start at ``at``
        if found is not None:
            return int(found.group(1))
        at = output.rfind("Exit Code: ", 0, at)
    return None


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
