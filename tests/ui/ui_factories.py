"""Stores and apps for the UI tests: every kind of row, a fake clock, a fixed size, no user files."""

from __future__ import annotations

from inspector.config import Config
from inspector.model import (
    CallStore,
    Executor,
    FakeClock,
    Malformed,
    Message,
    Outcome,
    RawRef,
    Request,
    Result,
)
from inspector.model.details import PatchDetail
from inspector.model.diff import hunks_from_structured_patch
from inspector.sources.feeds import StoreSource
from inspector.ui.app import InspectorApp
from inspector.ui.options import UiOptions

T0 = 1_700_000_000.0
"""The fake clock's start: 2023-11-14 22:13:20 UTC."""

SIZE = (120, 34)

NASTY = {
    "markup": "[bold red]boom[/] [link=http://x]y[/link]",
    "ansi": "\x1b[31mred\x1b[0m \x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\",
    "osc52": "\x1b]52;c;aGVsbG8=\x07",
    "controls": "a\x00b\x07c\x08d\re\x7f",
    "bidi": "abc\u202edcba\u2066x\u2069",
    "long": "L" * 5000,
}


def browser_app(folder, codex=None, gemini=None) -> InspectorApp:
    """The app on the session browser of ``folder`` (Claude Code), ``codex`` and ``gemini`` (folders, or
    None for the default ones)."""
    options = UiOptions(
        theme_dirs=[],
        claude_dir=str(folder),
        codex_dir=str(codex) if codex else None,
        gemini_dir=str(gemini) if gemini else None,
    )
    return InspectorApp(options, clock=FakeClock(T0), config=Config())


def request(
    call_id: str,
    tool: str = "web_search",
    *,
    ts: float = T0,
    timeout_ms: int | None = 30_000,
    executor: Executor | None = Executor.CLIENT,
    params=None,
    summary: str | None = None,
    parent_id: str | None = None,
    violation: str | None = None,
    group: str = "g",
) -> Request:
    params = params if params is not None else {"q": call_id}
    return Request(
        call_id=call_id,
        tool=tool,
        group=group,
        ts=ts,
        executor=executor,
        timeout_ms=timeout_ms,
        params=params,
        summary=summary if summary is not None else f"q={call_id}",
        parent_id=parent_id,
        violation=violation,
    )


def result(
    call_id: str,
    outcome: Outcome = Outcome.SUCCESS,
    *,
    ts: float = T0 + 1,
    data=None,
    error_code: str | None = None,
    error_message: str | None = None,
    details=None,
    has_diff: bool = False,
    group: str = "g",
    tool: str = "",
) -> Result:
    return Result(
        call_id=call_id,
        outcome=outcome,
        group=group,
        ts=ts,
        data=data if data is not None else {"ok": True},
        error_code=error_code,
        error_message=error_message,
        details=details,
        has_diff=has_diff,
        tool=tool,
    )


def patch_result(call_id: str, ts: float) -> Result:
    patch = [
        {
            "oldStart": 1,
            "oldLines": 3,
            "newStart": 1,
            "newLines": 3,
            "lines": [" import os", "-print('old')", "+print('new')", " # end"],
        }
    ]
    detail = PatchDetail(path="src/app.py", hunks=hunks_from_structured_patch(patch))
    return result(
        call_id,
        ts=ts,
        details=detail,
        has_diff=True,
        data={"filePath": "src/app.py", "structuredPatch": patch},
    )


def sample_store(clock: FakeClock | None = None) -> CallStore:
    """One of everything: states, a countdown, nested calls, orphan, malformed, messages, a diff."""
    clock = clock or FakeClock(T0 + 5)
    store = CallStore(clock=clock)
    ingest = store.ingest
    ingest(Message(kind="UserMessage", text="Plan my evening in Rome.", ts=T0 - 1, group="g"))
    ingest(request("ok1", "get_weather", ts=T0, params={"city": "Rome"}, summary="Rome"))
    ingest(result("ok1", ts=T0 + 0.4, data={"temp": 21}))
    ingest(request("fail1", "web_search", ts=T0 + 0.5))
    ingest(
        result(
            "fail1",
            Outcome.ERROR,
            ts=T0 + 1.2,
            error_code="execution_error",
            error_message="Network unreachable",
        )
    )
    ingest(
        request(
            "task1", "Task", ts=T0 + 1, timeout_ms=None, executor=Executor.SERVER, summary="explore the repo"
        )
    )
    ingest(request("sub1", "Read", ts=T0 + 1.1, timeout_ms=None, parent_id="task1", summary="README.md"))
    ingest(result("sub1", ts=T0 + 1.3))
    ingest(request("sub2", "Edit", ts=T0 + 1.4, timeout_ms=None, parent_id="task1", summary="src/app.py"))
    ingest(patch_result("sub2", ts=T0 + 1.6))
    ingest(result("task1", ts=T0 + 2))
    ingest(request("late1", "book_table", ts=T0 + 2, timeout_ms=500, executor=Executor.SERVER))
    ingest(result("late1", Outcome.TIMEOUT, ts=T0 + 3, error_code="timeout"))
    ingest(
        Result(
            call_id="ghost",
            outcome=Outcome.ERROR,
            group="g",
            ts=T0 + 3,
            tool="ghost_tool",
            error_message="unknown tool",
        )
    )
    ingest(
        request(
            "viol1",
            "send_sms",
            ts=T0 + 3.5,
            executor=None,
            timeout_ms=None,
            violation="no 'execution': execution is REQUIRED",
        )
    )
    ingest(result("viol1", ts=T0 + 3.7))
    ingest(
        Malformed(
            where="line 17",
            reason="not MessagePack: FormatError",
            source="s",
            raw=RawRef(source="s", where="line 17", data=b"\xc1garbage"),
        )
    )
    ingest(request("wait1", "take_photo", ts=T0 + 4, timeout_ms=30_000))
    ingest(request("wait2", "translate", ts=T0 + 4.5, timeout_ms=None, executor=Executor.EITHER))
    ingest(Message(kind="AssistantMessage", text="Booked for 20:00.", ts=T0 + 4.8, group="g"))
    store.end()  # the ghost result is an orphan, not a result still waiting for its request
    return store


def nasty_store(clock: FakeClock | None = None) -> CallStore:
    """Calls whose tool names, ids, summaries and errors carry markup, escapes and control characters."""
    store = CallStore(clock=clock or FakeClock(T0 + 5))
    for index, (name, text) in enumerate(NASTY.items()):
        store.ingest(
            request(f"{name}-{text}", f"tool{text}", ts=T0 + index, summary=text, params={"x": text})
        )
        store.ingest(
            result(f"{name}-{text}", Outcome.ERROR, ts=T0 + index + 0.5, error_code=text, error_message=text)
        )
    store.ingest(Message(kind=f"Kind{NASTY['ansi']}", text=NASTY["osc52"], ts=T0 + 9))
    store.ingest(Malformed(where=NASTY["bidi"], reason=NASTY["markup"]))
    return store


def make_app(
    store: CallStore | None = None,
    *,
    clock: FakeClock | None = None,
    config: Config | None = None,
    options: UiOptions | None = None,
    label: str = "test session",
    source=None,
) -> InspectorApp:
    """An app on ``store`` with a fake clock and no user theme folder or config."""
    clock = clock or (
        store.clock if store is not None and isinstance(store.clock, FakeClock) else FakeClock(T0 + 5)
    )
    store = store if store is not None else sample_store(clock)
    options = options or UiOptions(theme_dirs=[])
    if options.theme_dirs is None:
        options.theme_dirs = []
    source = source if source is not None else StoreSource(store, label)
    return InspectorApp(options, clock=clock, config=config or Config(), source=source, label=label)


def file_app(paths: list[str], *, clock: FakeClock | None = None, **option_args) -> InspectorApp:
    """An app opening ``paths`` as ``inspector open`` would."""
    options = UiOptions(paths=[str(p) for p in paths], theme_dirs=[], **option_args)
    return InspectorApp(options, clock=clock or FakeClock(T0 + 5), config=Config())


def kinds_store(clock: FakeClock | None = None) -> CallStore:
    """One finished call per kind of result detail (for the detail snapshots)."""
    from inspector.model.details import (
        BashDetail,
        DisplayDetail,
        FetchDetail,
        FileDetail,
        Segment,
        TaskDetail,
        TodoDetail,
        TodoItem,
    )
    from inspector.model.diff import parse_unified_diff

    store = CallStore(clock=clock or FakeClock(T0 + 60))
    ingest = store.ingest
    diff_text = "--- a/api.py\n+++ b/api.py\n@@ -1,3 +1,3 @@\n def ping():\n-    return 'pong'\n+    return 'PONG'\n # done\n"
    kinds = [
        (
            "bash1",
            "Bash",
            {"command": "pytest -q"},
            BashDetail(stdout="3 passed in 0.12s\n", stderr="warning: x\n", exit_code=0),
        ),
        (
            "read1",
            "Read",
            {"file_path": "src/app.py"},
            FileDetail(
                path="src/app.py",
                content="import os\n\nprint('hi')\n",
                start_line=1,
                num_lines=3,
                total_lines=3,
            ),
        ),
        (
            "todo1",
            "TodoWrite",
            {"todos": []},
            TodoDetail(
                old=[TodoItem("write tests", "in_progress")],
                new=[TodoItem("write tests", "completed"), TodoItem("ship it", "pending")],
            ),
        ),
        (
            "fetch1",
            "WebFetch",
            {"url": "https://example.org"},
            FetchDetail(
                url="https://example.org",
                code=200,
                code_text="OK",
                size=1234,
                duration_ms=850,
                result="# Example\nbody",
            ),
        ),
        (
            "task9",
            "Task",
            {"description": "explore"},
            TaskDetail(
                agent_id="a1",
                status="completed",
                description="explore",
                prompt="Find the bug",
                content="Found it in api.py",
                tool_count=3,
                duration_ms=61000,
                tokens=12345,
            ),
        ),
        (
            "rap1",
            "deploy",
            {"service": "api"},
            DisplayDetail(
                segments=[Segment("diff", diff_text, parse_unified_diff(diff_text))],
                text="Deployed api: 1 file changed",
            ),
        ),
    ]
    for index, (call_id, tool, params, detail) in enumerate(kinds):
        ingest(request(call_id, tool, ts=T0 + index, timeout_ms=None, params=params, summary=str(params)))
        ingest(
            result(
                call_id,
                ts=T0 + index + 0.3,
                details=detail,
                data={"detail": type(detail).__name__},
                has_diff=isinstance(detail, DisplayDetail),
            )
        )
    ingest(
        request(
            "edit1",
            "Edit",
            ts=T0 + 7,
            timeout_ms=None,
            params={"file_path": "src/app.py"},
            summary="src/app.py",
        )
    )
    ingest(patch_result("edit1", ts=T0 + 7.2))
    ingest(request("err1", "web_search", ts=T0 + 8, params={"q": "rome"}))
    ingest(
        result(
            "err1",
            Outcome.ERROR,
            ts=T0 + 9,
            data={},
            error_code="execution_error",
            error_message="Network unreachable",
        )
    )
    return store
