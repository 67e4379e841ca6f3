"""The auto-responder's rules file (TOML): which tool gets which answer, checked at start with line numbers.

Example::

    [[rule]]
    tool = "read_*"                  # a glob on toolName
    result = { content = "hello", size = 5 }
    delay_ms = 200                   # optional
    send_late = true                 # optional: answer even past the request's deadline

    [[rule]]
    tool = "*"
    error = "unknown_tool"           # a standard code, or any custom code
    message = "Tool '{toolName}' is not supported by this client"   # optional, {toolName} {timeoutMs}

The first matching rule wins. Rules answer only requests a client may execute (``client`` and
``either``); ``execution = "client"`` or ``"either"`` in a rule narrows it further. An answer that would
go out after the request's deadline is skipped (and the skip logged), as the answer screen refuses a
late answer without a confirmation, unless the rule says ``send_late = true``: the requester has
usually given up by then (Alicia's mcp-assistant bridge drops an answer after its 30 s).
"""

from __future__ import annotations

import fnmatch
import re
import sys
from dataclasses import dataclass
from typing import Any

from inspector.answer import compose
from inspector.model import Call, Executor
from inspector.protocols import alicia
from inspector.smallfile import loads_toml, read_settings_bytes

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

KEYS = ("tool", "result", "error", "message", "delay_ms", "execution", "send_late")
_EXECUTIONS = {
    "client": (Executor.CLIENT,),
    "either": (Executor.EITHER,),
    "any": tuple(e for e in Executor if e.client_may_answer),
}
_LINE_IN_TOML_ERROR = re.compile(r"\(at line (\d+), column (\d+)\)")
_RULE_HEADER = re.compile(r"^\s*\[\[\s*rule\s*\]\]")


class RulesError(ValueError):
    """A rules file that cannot be used; ``str()`` reads ``FILE line N: reason``."""

    def __init__(self, path: str, line: int | None, reason: str) -> None:
        self.path = path
        self.line = line
        self.reason = reason
        where = f"{path} line {line}" if line else path
        super().__init__(f"{where}: {reason}")


@dataclass(frozen=True)
class Rule:
    """One ``[[rule]]``: a tool glob and the answer it gives."""

    tool: str
    result: dict[str, Any] | None = None
    error: str | None = None
    message: str | None = None
    delay_ms: int = 0
    execution: str = "any"
    line: int = 0
    send_late: bool = False

    def matches(self, call: Call) -> bool:
        """True for a client/either request whose tool name matches the glob."""
        executor = call.request.executor
        if executor not in _EXECUTIONS[self.execution]:
            return False
        return fnmatch.fnmatchcase(call.tool, self.tool)

    def draft(self, call: Call) -> compose.Draft:
        """The answer for ``call``: templates filled with its toolName and timeoutMs. Raises
        ``TemplateTooLarge`` when all of its strings together would pass FILL_LIMIT characters (the
        bound is checked string by string, before each is expanded)."""
        budget = [alicia.FILL_LIMIT]
        if self.error is not None:
            message = _fill_one(self.message, call, budget) if self.message is not None else None
            return compose.failure(self.error, message, result=_fill_strings(self.result, call, budget))
        return compose.success(_fill_strings(self.result or {}, call, budget))


def _fill_one(template: str, call: Call, budget: list[int]) -> str:
    filled = compose.fill(template, call, budget[0])
    budget[0] -= len(filled)
    return filled


def _fill_strings(value: Any, call: Call, budget: list[int]) -> Any:
    if isinstance(value, str):
        return _fill_one(value, call, budget)
    if isinstance(value, dict):
        return {k: _fill_strings(v, call, budget) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill_strings(v, call, budget) for v in value]
    return value


@dataclass(frozen=True)
class RuleSet:
    """Rules in file order; :meth:`match` returns the first that applies."""

    rules: tuple[Rule, ...]
    path: str = ""

    def match(self, call: Call) -> Rule | None:
        for rule in self.rules:
            if rule.matches(call):
                return rule
        return None

    def __len__(self) -> int:
        return len(self.rules)


def load(path: str) -> RuleSet:
    """Read and check a rules file; raises :class:`RulesError` (with a line when one can be found)."""
    try:
        text = read_settings_bytes(path).decode("utf-8")
    except OSError as exc:
        raise RulesError(path, None, f"cannot read the rules file: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RulesError(path, None, "the rules file is not UTF-8 text") from None
    return parse(text, path)


def parse(text: str, path: str = "<rules>") -> RuleSet:
    """Parse rules from TOML text (see the module docstring for the shape)."""
    try:
        doc = loads_toml(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _LINE_IN_TOML_ERROR.search(message)
        line = int(match.group(1)) if match else None
        if match is None and "end of document" in message:
            line = max(1, len(text.rstrip("\n").splitlines()))
        reason = (
            _LINE_IN_TOML_ERROR.sub("", message)
            .replace("(at end of document)", "at the end of the file")
            .strip()
        )
        if match:
            reason += f" (column {match.group(2)})"
        raise RulesError(path, line, f"not valid TOML: {reason}") from None
    lines = text.splitlines()
    spans = _rule_spans(lines)
    for key in doc:
        if key != "rule":
            raise RulesError(
                path,
                _key_line(lines, 0, len(lines), key),
                f"unknown top-level key '{key}' (the file holds [[rule]] tables only)",
            )
    raw_rules = doc.get("rule", [])
    if not isinstance(raw_rules, list):
        raise RulesError(
            path, _key_line(lines, 0, len(lines), "rule"), "'rule' must be an array of tables: [[rule]]"
        )
    rules = []
    for index, raw in enumerate(raw_rules):
        start, end = spans[index] if index < len(spans) else (0, len(lines))
        rules.append(_rule(raw, path, lines, start, end))
    return RuleSet(tuple(rules), path)


def _rule_spans(lines: list[str]) -> list[tuple[int, int]]:
    """(start, end) line indexes of each ``[[rule]]`` table, in order."""
    starts = [i for i, line in enumerate(lines) if _RULE_HEADER.match(line)]
    return [(s, starts[n + 1] if n + 1 < len(starts) else len(lines)) for n, s in enumerate(starts)]


def _key_line(lines: list[str], start: int, end: int, key: str) -> int:
    """1-based line of ``key =`` (or ``[rule.key]``) within the span, else the span's first line."""
    pattern = re.compile(rf"^\s*(?:{re.escape(key)}\s*=|\[\s*rule\s*\.\s*{re.escape(key)}\s*\])")
    for i in range(start, min(end, len(lines))):
        if pattern.match(lines[i]):
            return i + 1
    return start + 1


def _rule(raw: Any, path: str, lines: list[str], start: int, end: int) -> Rule:
    def fail(key: str | None, reason: str) -> RulesError:
        line = _key_line(lines, start, end, key) if key else start + 1
        return RulesError(path, line, reason)

    if not isinstance(raw, dict):
        raise fail(None, "each rule must be a table")
    for key in raw:
        if key not in KEYS:
            raise fail(key, f"unknown key '{key}' in [[rule]] (known: {', '.join(KEYS)})")
    tool = raw.get("tool")
    if not isinstance(tool, str) or not tool:
        raise fail("tool" if "tool" in raw else None, 'every rule needs tool = "glob" (e.g. "*" or "read_*")')
    has_result, has_error = "result" in raw, "error" in raw
    if not has_result and not has_error:  # both together: an error with partial results
        raise fail(None, f"rule for '{tool}' needs either result = {{...}} or error = \"code\"")
    result = raw.get("result")
    if has_result and not isinstance(result, dict):
        raise fail("result", 'result must be a map (a TOML table such as { content = "hi" })')
    error = raw.get("error")
    if has_error:
        if not isinstance(error, str) or not error.strip() or error == compose.CUSTOM:
            raise fail(
                "error",
                'error must be an error code such as "unknown_tool", "invalid_parameters", '
                '"execution_error", "timeout" or a custom code',
            )
    message = raw.get("message")
    if message is not None and not isinstance(message, str):
        raise fail("message", "message must be text (it may use {toolName} and {timeoutMs})")
    if message is not None and not has_error:
        raise fail("message", 'message goes with error = "code"; a successful result has no message')
    delay = raw.get("delay_ms", 0)
    if isinstance(delay, bool) or not isinstance(delay, int) or delay < 0:
        raise fail("delay_ms", "delay_ms must be a whole number of milliseconds, 0 or more")
    send_late = raw.get("send_late", False)
    if not isinstance(send_late, bool):
        raise fail("send_late", "send_late must be true or false (answer even past the deadline)")
    execution = raw.get("execution", "any")
    if execution not in _EXECUTIONS:
        raise fail(
            "execution", 'execution must be "client", "either" or "any" (server requests are never answered)'
        )
    return Rule(
        tool=tool,
        result=result if isinstance(result, dict) else None,
        error=error.strip() if has_error and isinstance(error, str) else None,
        message=message,
        delay_ms=delay,
        execution=execution,
        line=start + 1,
        send_late=send_late,
    )
