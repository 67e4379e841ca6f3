"""Claude Code tool calls: one-line parameter summaries, result outcomes and typed ``toolUseResult`` details."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from inspector.model.events import Outcome
from inspector.textsafe import one_line

if TYPE_CHECKING:
    from inspector.model.details import (
        BashDetail,
        FetchDetail,
        FileDetail,
        FileListDetail,
        PatchDetail,
        TaskDetail,
        TodoItem,
    )
# The detail types (inspector.model.details, and model.diff with difflib: a tenth of a headless command's
# start-up) are imported where a detail is built: a read that keeps no details (stats, dump) never does.

TASK_TOOLS = frozenset(("Task", "Agent"))
SUMMARY_LIMIT = 120

# The parameter that says what a call is about, per tool (first one present wins).
_SUMMARY_KEYS: dict[str, tuple[str, ...]] = {
    "Bash": ("command",),
    "Read": ("file_path",),
    "Edit": ("file_path",),
    "MultiEdit": ("file_path",),
    "Write": ("file_path",),
    "NotebookEdit": ("notebook_path",),
    "NotebookRead": ("notebook_path",),
    "Grep": ("pattern",),
    "Glob": ("pattern",),
    "LS": ("path",),
    "Task": ("description", "prompt"),
    "Agent": ("description", "prompt"),
    "WebFetch": ("url",),
    "WebSearch": ("query",),
    "BashOutput": ("bash_id", "shell_id"),
    "KillShell": ("shell_id",),
    "KillBash": ("shell_id",),
    "TaskOutput": ("task_id",),
    "Skill": ("skill", "command"),
    "SlashCommand": ("command",),
    "ExitPlanMode": ("plan",),
}
# Path-like hints kept from a request until its result arrives (for details the result lacks).
_HINT_KEYS = ("file_path", "notebook_path", "description")


# -- requests ------------------------------------------------------------------------------------


def summarize(tool: str, params: Any, cwd: str | None = None) -> str:
    """A short one-line human summary of a call's parameters; a path under ``cwd`` (the session's
    working directory) is shown relative to it."""
    if isinstance(params, dict):
        for key in _SUMMARY_KEYS.get(tool, ()):
            value = params.get(key)
            if isinstance(value, str) and value:
                if key in _PATH_KEYS:
                    value = relative(value, cwd)
                where = params.get("path") if tool in ("Grep", "Glob") else None
                if isinstance(where, str) and where:
                    value = f"{value}  in {relative(where, cwd)}"
                return one_line(value, SUMMARY_LIMIT)
        if tool == "TodoWrite":
            return _todo_summary(params.get("todos"))
        if tool == "AskUserQuestion":
            questions = params.get("questions")
            if isinstance(questions, list) and questions and isinstance(questions[0], dict):
                return one_line(str(questions[0].get("question", "")), SUMMARY_LIMIT)
    return one_line(_compact(params), SUMMARY_LIMIT)


_PATH_KEYS = frozenset({"file_path", "notebook_path", "path"})


def relative(path: str, cwd: str | None) -> str:
    """``path`` relative to ``cwd`` when it is under it (``.`` for ``cwd`` itself), else as it is."""
    if cwd and _WINDOWS.match(cwd):
        return _relative_windows(path, cwd)
    if not cwd or not path.startswith("/"):
        return path
    root = cwd.rstrip("/")
    if path == root or path == root + "/":
        return "."
    return path[len(root) + 1 :] if root and path.startswith(root + "/") else path


# A session run on Windows: its cwd is C:\Users\me\app (or \\server\share\app).
_WINDOWS = re.compile(r"[A-Za-z]:[\\/]|\\\\")


def _relative_windows(path: str, cwd: str) -> str:
    r"""As ``relative`` for a Windows session: either separator, and names compared without case, as the
    file system does (Claude Code writes ``c:\`` and ``C:/`` as well as ``C:\``); the rest keeps its spelling."""
    root = cwd.replace("/", "\\").rstrip("\\")
    head, rest = path[: len(root)].replace("/", "\\"), path[len(root) :]
    if not _WINDOWS.match(path) or head.casefold() != root.casefold() or rest[:1] not in ("", "\\", "/"):
        return path
    return rest[1:] or "."


def _todo_summary(todos: Any) -> str:
    if not isinstance(todos, list):
        return ""
    active = next(
        (t.get("content") for t in todos if isinstance(t, dict) and t.get("status") == "in_progress"), None
    )
    text = f"{len(todos)} todos" + (f", doing: {active}" if isinstance(active, str) else "")
    return one_line(text, SUMMARY_LIMIT)


def _compact(value: Any) -> str:
    """Compact JSON of ``value`` (a preview of its start is enough for a one-line summary)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))[: SUMMARY_LIMIT * 2]
    except (TypeError, ValueError, RecursionError):
        return type(value).__name__


def hint(params: Any) -> str:
    """What a result of this call may need from its request: a file path or a task description."""
    if isinstance(params, dict):
        for key in _HINT_KEYS:
            value = params.get(key)
            if isinstance(value, str):
                return value[:1000]
    return ""


# -- outcomes ------------------------------------------------------------------------------------

_INTERRUPTED = "[Request interrupted by user"
_DENIED = re.compile(
    r"The user doesn't want to (?:proceed with this tool use|take this action)"
    r"|User rejected"
    r"|Permission to use \S+ (?:.* )?(?:has been )?denied"
    r"|Claude requested permissions? to .* but you haven't granted it"
    r"|(?:This|The following) .*requires approval"
    r"|.* was blocked\. For security, Claude Code may only",
)
_REASON = "The user provided the following reason for the rejection:"
_TOOL_ERROR_TAGS = re.compile(r"</?tool_use_error>")
_EXIT_CODE = re.compile(r"(?:Error: )?Exit code (-?\d+)")


def content_text(content: Any, limit: int = 4000) -> str:
    """The text of a tool_result content: the string itself, or its text blocks joined."""
    if isinstance(content, str):
        return content[:limit]
    if isinstance(content, list):
        parts = [b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)]
        return "\n".join(parts)[:limit]
    return ""


def outcome(is_error: bool, content: Any) -> tuple[Outcome, str | None, str | None]:
    """``(outcome, error message, error code)`` of a tool_result."""
    text = content_text(content).strip()
    if text.startswith(_INTERRUPTED):
        return Outcome.CANCELED, "interrupted by the user", None
    if not is_error:
        return Outcome.SUCCESS, None, None
    if _DENIED.match(text):
        return Outcome.DENIED, _denial_message(text), "denied"
    message = _TOOL_ERROR_TAGS.sub("", text).strip()
    code = None
    exit_match = _EXIT_CODE.match(message)
    if exit_match:
        code = f"exit {exit_match.group(1)}"
    elif text.startswith("<tool_use_error>"):
        code = "tool_use_error"
    return Outcome.ERROR, _first_lines(message) or "error", code


def _denial_message(text: str) -> str:
    at = text.find(_REASON)
    if at >= 0:
        reason = text[at + len(_REASON) :].strip()
        return _first_lines(f"rejected by the user: {reason}")
    return _first_lines(text)


def _first_lines(text: str, lines: int = 3, limit: int = 300) -> str:
    kept = [line for line in text.splitlines() if line.strip()][:lines]
    joined = "\n".join(kept)
    return joined if len(joined) <= limit else joined[: limit - 1] + "…"


# -- toolUseResult details ------------------------------------------------------------------------


def details(tool: str, value: Any, request_hint: str = "") -> tuple[Any, bool]:
    """``(detail, has_diff)`` for a structured ``toolUseResult``; the tool name only breaks ties.

    The shape decides, so a result decoded alone (without its request) still gets its details.
    """
    from inspector.model.details import SearchDetail, TextDetail, TodoDetail

    if isinstance(value, str):
        return (TextDetail(value) if value else None), False
    if isinstance(value, list):
        text = content_text(value, 1_000_000)
        return (TextDetail(text) if text else None), False
    if not isinstance(value, dict):
        return None, False
    if _is_patch(tool, value):
        return _patch(value)
    if isinstance(value.get("file"), dict):
        return _file(value, request_hint), False
    if "stdout" in value or "stderr" in value:
        return _bash(value), False
    if "newTodos" in value or "oldTodos" in value:
        return TodoDetail(_todos(value.get("oldTodos")), _todos(value.get("newTodos"))), False
    if "filenames" in value or "numFiles" in value:
        return _file_list(value), False
    if "url" in value and ("code" in value or "result" in value):
        return _fetch(value), False
    if "query" in value and "results" in value:
        return SearchDetail(
            _str(value.get("query")), _list(value.get("results")), _num(value.get("durationSeconds"))
        ), False
    if tool in TASK_TOOLS or "totalToolUseCount" in value or ("agentId" in value and "status" in value):
        return _task(value, request_hint), False
    if isinstance(value.get("task"), dict):
        task = value["task"]
        text = _str(task.get("output")) or _str(task.get("result"))
        return (TextDetail(text) if text else None), False
    message = value.get("message")
    if isinstance(message, str) and message:
        return TextDetail(message), False
    return None, False


def has_diff(tool: str, value: Any) -> bool:
    """What ``details(tool, value)[1]`` says, without building the detail (for a read that drops
    details): a patch with at least one hunk (an object holding a list of lines, numbered or not)."""
    if not isinstance(value, dict) or not _is_patch(tool, value):
        return False
    patch = value.get("structuredPatch")
    return isinstance(patch, list) and any(
        isinstance(entry, dict) and isinstance(entry.get("lines"), list) for entry in patch
    )


def _is_patch(tool: str, value: dict[str, Any]) -> bool:
    if "structuredPatch" in value:
        return True
    if "filePath" not in value:
        return False
    return (
        tool in ("Edit", "MultiEdit", "Write")
        or "oldString" in value
        or value.get("type") in ("create", "update")
    )


def _patch(value: dict[str, Any]) -> tuple[PatchDetail, bool]:
    from inspector.model.details import PatchDetail
    from inspector.model.diff import hunks_from_structured_patch

    hunks = hunks_from_structured_patch(value.get("structuredPatch"))
    kind = "create" if value.get("type") == "create" else "update"
    detail = PatchDetail(
        _str(value.get("filePath")),
        hunks,
        kind=kind,
        content=value.get("content") if kind == "create" and isinstance(value.get("content"), str) else None,
        user_modified=value.get("userModified") is True,
    )
    return detail, bool(hunks)


def _file(value: dict[str, Any], request_hint: str) -> FileDetail:
    from inspector.model.details import FileDetail

    file = value["file"]
    if value.get("type") == "image" or "base64" in file:
        mime = file.get("type")
        return FileDetail(request_hint, is_image=True, mime=mime if isinstance(mime, str) else None)
    return FileDetail(
        _str(file.get("filePath")) or request_hint,
        _str(file.get("content")),
        start_line=_int(file.get("startLine")) or 1,
        num_lines=_int(file.get("numLines")),
        total_lines=_int(file.get("totalLines")),
    )


def _bash(value: dict[str, Any]) -> BashDetail:
    from inspector.model.details import BashDetail

    background = value.get("backgroundTaskId")
    note = value.get("returnCodeInterpretation")
    return BashDetail(
        terminal_text(_str(value.get("stdout"))),
        terminal_text(_str(value.get("stderr"))),
        interrupted=value.get("interrupted") is True,
        note=note if isinstance(note, str) and note else None,
        background_id=background if isinstance(background, str) and background else None,
        exit_code=_int(value.get("exitCode")),
    )


def _todos(items: Any) -> list[TodoItem]:
    from inspector.model.details import TodoItem

    todos = []
    for item in _list(items):
        if isinstance(item, dict):
            status = item.get("status")
            todos.append(
                TodoItem(
                    _str(item.get("content")),
                    status if isinstance(status, str) else "pending",
                    _str(item.get("activeForm")),
                )
            )
    return todos


def _file_list(value: dict[str, Any]) -> FileListDetail:
    from inspector.model.details import FileListDetail

    names = [name for name in _list(value.get("filenames")) if isinstance(name, str)]
    content = value.get("content")
    mode = value.get("mode")
    return FileListDetail(
        names,
        _int(value.get("numFiles")),
        value.get("truncated") is True,
        content if isinstance(content, str) else None,
        mode if isinstance(mode, str) else None,
        _int(value.get("numLines")),
    )


def _fetch(value: dict[str, Any]) -> FetchDetail:
    from inspector.model.details import FetchDetail

    return FetchDetail(
        _str(value.get("url")),
        _int(value.get("code")),
        _str(value.get("codeText")),
        _int(value.get("bytes")),
        _num(value.get("durationMs")),
        _str(value.get("result")),
    )


def _task(value: dict[str, Any], description: str) -> TaskDetail:
    from inspector.model.details import TaskDetail

    agent = value.get("agentId")
    status = value.get("status")
    return TaskDetail(
        agent if isinstance(agent, str) else None,
        status if isinstance(status, str) else None,
        _str(value.get("description")) or description,
        _str(value.get("prompt")),
        content_text(value.get("content"), 1_000_000),
        _int(value.get("totalToolUseCount")),
        _num(value.get("totalDurationMs")),
        _int(value.get("totalTokens")),
    )


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


_TERMINAL_STYLING = re.compile(r"\x1b\[(?:[0-9;:]*m|\?[0-9;]*[hl])")
"""Colours (SGR) and mode switches (``ESC[?2026h``, ``ESC[?25l``) that a command printed and Claude Code kept in
the transcript (a test runner's coloured report, ``/context``): dropped so the text reads as it did in the
terminal. Any other escape stays and is shown as a visible stand-in, like every escape from a session."""


def terminal_text(text: str) -> str:
    """``text`` without the colours and mode switches a terminal would have applied."""
    return _TERMINAL_STYLING.sub("", text) if "\x1b" in text else text


def terminal_content(content: Any) -> Any:
    """A tool_result's content (a string, or a list of blocks) with terminal styling dropped from its text."""
    if isinstance(content, str):
        return terminal_text(content)
    if not isinstance(content, list):
        return content
    return [
        {**block, "text": terminal_text(block["text"])}
        if isinstance(block, dict) and isinstance(block.get("text"), str) and "\x1b" in block["text"]
        else block
        for block in content
    ]


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _num(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            return None
    return None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
