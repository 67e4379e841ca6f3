"""Factories and a console harness for the renderer tests (calls, results, rendered output)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

from rich.console import Console, RenderableType

from inspector.model import Call, Executor, Outcome, Request, Result

SGR = re.compile(r"\x1b\[[0-9;]*m")
"""The only escape sequences Rich's own styling writes (colours, bold, ...)."""
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""Characters that must never reach the terminal from a session (tab included: it is expanded)."""


def make_request(
    call_id: str = "toolu_1",
    tool: str = "Bash",
    *,
    params: Any = None,
    ts: float | None = 1000.0,
    executor: Executor | None = Executor.CLIENT,
    timeout_ms: int | None = None,
    group: str = "g",
    violation: str | None = None,
    summary: str = "",
) -> Request:
    return Request(
        call_id=call_id,
        tool=tool,
        group=group,
        ts=ts,
        executor=executor,
        timeout_ms=timeout_ms,
        params=params if params is not None else {"command": "ls"},
        violation=violation,
        summary=summary,
    )


def make_result(
    outcome: Outcome = Outcome.SUCCESS,
    *,
    call_id: str = "toolu_1",
    details: Any = None,
    data: Any = None,
    ts: float | None = 1001.0,
    error_code: str | None = None,
    error_message: str | None = None,
    answered_by: str | None = None,
) -> Result:
    return Result(
        call_id=call_id,
        outcome=outcome,
        ts=ts,
        data=data,
        details=details,
        error_code=error_code,
        error_message=error_message,
        answered_by=answered_by,
    )


def make_call(request: Request | None = None, *results: Result) -> Call:
    call = Call(request or make_request())
    call.results.extend(results)
    return call


@dataclass
class Rendered:
    """What a terminal would get: ``text`` (plain, as read) and ``ansi`` (the bytes written)."""

    text: str
    ansi: str

    def escapes_outside_styling(self) -> list[str]:
        """Escape sequences or unsafe characters in the terminal output that are not Rich's SGR styling."""
        rest = SGR.sub("", self.ansi)
        return UNSAFE.findall(rest)


def render(renderable: RenderableType, width: int = 100) -> Rendered:
    """Render as a true-colour terminal of ``width`` columns would show it."""
    out = io.StringIO()
    console = Console(
        file=out,
        record=True,
        force_terminal=True,
        color_system="truecolor",
        width=width,
        legacy_windows=False,
        soft_wrap=False,
    )
    console.print(renderable)
    return Rendered(console.export_text(), out.getvalue())
