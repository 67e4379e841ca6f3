"""Codex CLI tool calls: their parameters, and how an output says the call ended (exit codes, refusals)."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from typing import Any

from inspector.model import values
from inspector.model.events import Outcome

_decode: Callable[[str], Any]
try:  # what loads_json tries first, given the text itself (msgspec reads a str as its UTF-8)
    from msgspec.json import Decoder as _Decoder

    _decode = _Decoder().decode
except ImportError:  # pragma: no cover

    def _decode(text: str) -> Any:
        raise ValueError("no msgspec: loads_json reads every text")


# Where the exit code lives, by version (see ../shared/reference/agent-formats.md 1.6).
_EXIT_TEXT = re.compile(r"^(?:Exit code: |Process exited with code )(-?\d+)\s*$", re.MULTILINE)
_EXIT_JSON = re.compile(r'"exit_code"\s*:\s*(-?\d+)')
_DURATION = re.compile(r'"duration_seconds"\s*:\s*([0-9.]+)')
_WALL = re.compile(r"^Wall time:? ([0-9.]+) seconds", re.MULTILINE)
_RUNNING = re.compile(
    r"^(?:Process running with session ID|Script running with cell ID) (\w+)\s*$", re.MULTILINE
)
# The header lines a shell output starts with (0.77 shell_command, exec_command, 0.145 apply_patch)
_HEADER = ("Command: ", "Chunk ID: ", "Exit code: ", "Wall time: ", "Process exited", "Process running")
# What Codex puts before an output it shortened for the model (0.4x-0.5x shell): the text that follows is
# the output itself, so a failure it starts with ("failed in sandbox: ...") is still the first thing said.
_TRUNCATED = re.compile(r"\ATotal output lines: \d+[ \t]*\r?\n(?:[ \t]*\r?\n)*")
# Each mark holds "user", "Rejected(", "aborted" or "interrupted": a head without them is looked at once.
_DENIED = ("rejected by user", "user denied", "Rejected(", "denied by user")
_CANCELED = ("aborted by user", "interrupted by user", "command aborted", "was interrupted")
_ERRORS = (
    "error:",
    "tool call error",
    "apply_patch verification failed",
    "Script failed",
    "exec_command failed",
    "failed in sandbox",
    "execution error:",
    "err: ",  # an MCP call's error as the output item holds it (ResponseInputItem::McpToolCallOutput)
)
# A call Codex refused before running anything: its arguments did not parse, or no handler takes it
# (codex-rs: tools/handlers parse_arguments, "failed to parse function arguments: {err}", the serde error
# shown with Display or Debug; "failed to parse apply_patch: {err}"; the router's "unsupported call:
# {name}", "unsupported custom tool call: {name}", "unsupported payload for {tool} handler").
_REFUSED = re.compile(
    r"\s*(?:failed to parse (?:function|[\w.-]{1,64}) arguments: |failed to parse apply_patch: "
    r"|unsupported (?:custom tool )?call: |unsupported payload for )"
)
SHELL_TOOLS = ("shell", "shell_command", "exec_command", "local_shell", "container.exec")


def params(name: str, arguments: Any) -> Any:
    """A ``function_call``'s arguments decoded, with a shell command as one command line, not an argv list."""
    value: Any = arguments
    if isinstance(arguments, str):
        value, error = _loads(arguments)  # exact, valid text, never a RecursionError
        if error is not None:
            return arguments
    if isinstance(value, dict):
        command = value.get("command")
        if isinstance(command, list) and all(isinstance(part, str) for part in command):
            value = dict(value)
            value["command"] = command_line(command)
    return value


def _loads(text: str, stripped: bool = False) -> tuple[Any, str | None]:
    """``values.loads_json(text)`` (of ``text.lstrip()`` when ``stripped``): msgspec is handed the text
    itself, without the copies (the stripped text, its UTF-8 bytes) and calls ``loads_json`` makes on its
    way to msgspec; what msgspec refuses (lone surrogates, NaN, depth, leading blanks JSON has none of)
    and a text past ``values.HUGE_TEXT`` are read by ``loads_json`` as before. A text msgspec reads is one
    with JSON blanks at most around its value, which ``lstrip`` would have taken off: the same value."""
    if len(text) <= values.HUGE_TEXT:
        try:
            return _decode(text), None
        except (ValueError, TypeError, RecursionError):
            pass
    return values.loads_json(text.lstrip() if stripped else text)


def command_line(argv: list[str]) -> str:
    """``["bash", "-lc", "ls -la"]`` -> ``ls -la``; other argv lists quoted as a shell would read them."""
    if len(argv) == 3 and argv[1] in ("-lc", "-c") and argv[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh"):
        return argv[2]
    return shlex.join(argv)


def output_text(output: Any) -> str:
    """The text of an output: a string, or the text items of a content list (images named, not inlined)."""
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        parts = []
        for item in output:
            if isinstance(item, dict):
                text = item.get("text")
                parts.append(text if isinstance(text, str) else f"[{item.get('type', 'item')}]")
            else:
                parts.append(str(item))
        return "\n".join(parts)
    if isinstance(output, dict):
        content = output.get("content")
        return output_text(content) if content is not None else json.dumps(output, ensure_ascii=False)
    return "" if output is None else str(output)


def exit_code(text: str) -> int | None:
    """The exit code an output reports: ``metadata.exit_code`` of a JSON output, ``Exit code: N``,
    ``Process exited with code N``, or ``exit_code`` of code-mode JSON items (the last one wins)."""
    if _starts_with(text, "{"):
        value, _ = _loads(text, stripped=True)
        if isinstance(value, dict):
            meta = value.get("metadata")
            code = meta.get("exit_code") if isinstance(meta, dict) else value.get("exit_code")
            if isinstance(code, int) and not isinstance(code, bool):
                return code
    found = _last(text, _EXIT_TEXT, ("Exit code: ", "Process exited with code "), True)
    if found is None:
        found = _last(text, _EXIT_JSON, ('"exit_code"',), False)
    code = values.parse_int(found) if found is not None else None
    return code if isinstance(code, int) else None  # more digits than Python reads: no code


def _last(text: str, pattern: re.Pattern[str], marks: tuple[str, ...], line_start: bool) -> str | None:
    """The group of the last match of ``pattern`` in ``text`` (what ``findall(text)[-1]`` gives: no match
    can hold the start of another), tried only where one of ``marks`` (how a match starts) is found from
    the end: a search in C instead of the regex's walk through the whole text."""
    best: tuple[int, str] | None = None
    for mark in marks:
        at = text.rfind(mark)
        while at >= 0 and (best is None or at > best[0]):
            if not line_start or at == 0 or text[at - 1] == "\n":
                match = pattern.match(text, at)
                if match is not None:
                    best = (at, match.group(1))
                    break
            at = text.rfind(mark, 0, at)
    return best[1] if best is not None else None


def duration_s(text: str) -> float | None:
    """``metadata.duration_seconds`` or ``Wall time: X seconds`` of an output."""
    head = text[:2000]
    match = (_DURATION.search(head) if '"duration_seconds"' in head else None) or (
        _WALL.search(head) if "Wall time" in head else None
    )
    try:
        return float(match.group(1)) if match else None
    except ValueError:
        return None


def body(text: str) -> str:
    """What the command printed: a legacy JSON output's ``output``, the text items of a JSON content
    list (legacy MCP), the part after ``Output:`` of a text with a header (0.77+); else ``text``."""
    if _starts_with(text, "{") or _starts_with(text, "["):
        value, error = _loads(text, stripped=True)
        if error is not None:
            return text
        inner = value.get("output") if isinstance(value, dict) else None
        if isinstance(inner, str) and "metadata" in value:
            return inner
        if isinstance(value, list) and value and all(isinstance(v, dict) and "text" in v for v in value):
            return output_text(value)
        return text
    if text.startswith(_HEADER):
        head, found, rest = text.partition("\nOutput:\n")
        if found and len(head) < 2000:
            return rest
    return text


def running(text: str) -> str | None:
    """The session (exec_command) or cell (code mode) of a process still running, from its output."""
    head = text[:2000]
    if " running with " not in head:  # what every match holds: no regular expression's walk without it
        return None
    found = _RUNNING.search(head)
    return found.group(1) if found and exit_code(text) is None else None


def script(text: str) -> str | None:
    """``completed``, ``failed`` or ``running``: how a code-mode output's first item says the script did."""
    if text.startswith("Script "):
        for state in ("completed", "failed", "running"):
            if text.startswith(state, 7):
                return state
    return None


def _starts_with(text: str, mark: str) -> bool:
    """``text.lstrip().startswith(mark)`` without a copy of a long text."""
    if text.startswith(mark):
        return True
    return text[:1].isspace() and text.lstrip().startswith(mark)


def _head(text: str, size: int) -> str:
    """``text.lstrip()[:size]`` without a copy of a long text."""
    head = text[: 2 * size].lstrip()
    return head[:size] if len(head) >= size or len(text) <= 2 * size else text.lstrip()[:size]


def outcome(text: str, code: int | None) -> tuple[Outcome, str | None]:
    """How the output says the call ended, and the message when it did not succeed."""
    head = _head(text, 600)
    if head.startswith("Total output lines: "):
        head = _TRUNCATED.sub("", head, count=1)
    head = head[:400]
    state = script(text)
    if state is not None:  # code mode: the script's own verdict, whatever the commands inside exited with
        return (Outcome.ERROR, _first(head)) if state == "failed" else (Outcome.SUCCESS, None)
    if _REFUSED.match(head):  # the command never ran, whatever the text goes on to quote
        return Outcome.ERROR, _first(head)
    if "user" in head or "Rejected(" in head or "aborted" in head or "interrupted" in head:  # in every mark
        for mark in _DENIED:
            if mark in head:
                return Outcome.DENIED, _first(head)
        for mark in _CANCELED:
            if mark in head:
                return Outcome.CANCELED, _first(head)
    if code is not None:
        return (Outcome.SUCCESS, None) if code == 0 else (Outcome.ERROR, f"exit code {code}")
    if head.lstrip().startswith(_ERRORS) or head.startswith("Script failed"):
        return Outcome.ERROR, _first(head)
    return Outcome.SUCCESS, None


def _first(head: str) -> str:
    """The first line of a head (what a failed call's message says)."""
    return head.strip().splitlines()[0] if head.strip() else ""
