"""Run the inspector's headless commands in-process on hostile files, and build such files."""

from __future__ import annotations

import contextlib
import io
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspector.cli import main

HEADLESS = (["dump"], ["dump", "--json"], ["stats"], ["stats", "--json"], ["check"])


def run_cli(*args: str) -> tuple[int, str, str]:
    """``inspector ARGS`` in this process: (exit code, stdout, stderr); an exception propagates."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    # a terminal takes UTF-8: a lone surrogate that got this far would be a UnicodeEncodeError there
    out.getvalue().encode("utf-8")
    err.getvalue().encode("utf-8")
    return code, out.getvalue(), err.getvalue()


def envelope(kind: int, body: dict[str, Any], meta: dict[str, Any] | None = None, stanza: int = 1) -> dict:
    return {"stanzaId": stanza, "conversationId": "c1", "type": kind, "meta": meta or {}, "body": body}


def alicia_request(call_id: str = "t1", **body: Any) -> dict:
    fields = {
        "id": call_id,
        "toolName": "get_weather",
        "parameters": {"city": "Paris"},
        "execution": "server",
    }
    fields.update(conversationId="c1", messageId="m1")
    fields.update(body)
    return envelope(6, fields, {"timestamp": "2026-11-01T10:00:00Z"})


def alicia_result(call_id: str = "t1", **body: Any) -> dict:
    fields = {
        "id": call_id,
        "requestId": call_id,
        "success": True,
        "result": {"t": 18},
        "conversationId": "c1",
    }
    fields.update(body)
    return envelope(7, fields, {"timestamp": "2026-11-01T10:00:01Z"}, stanza=-2)


def rap_request(call_id: str = "c1", **extra: Any) -> dict:
    return {
        "ts": "2026-11-01T10:00:00Z",
        "operation": "deploy",
        "arguments": {"a": 1},
        "id": call_id,
        **extra,
    }


def rap_result(call_id: str = "c1", **extra: Any) -> dict:
    return {"ts": "2026-11-01T10:00:01Z", "type": "tool_result", "id": call_id, "text": "ok", **extra}


def claude_pair(call_id: str, tool_input: Any, result: Any = "done") -> list[dict]:
    """A Claude Code assistant tool_use and the user tool_result answering it."""
    base = {"sessionId": "s1", "version": "2.1.30", "cwd": "/w", "isSidechain": False, "userType": "external"}
    use = {"type": "tool_use", "id": call_id, "name": "Bash", "input": tool_input}
    answer = {"type": "tool_result", "tool_use_id": call_id, "content": result}
    return [
        {
            **base,
            "type": "assistant",
            "uuid": f"u-{call_id}-1",
            "parentUuid": None,
            "timestamp": "2026-11-01T10:00:00.000Z",
            "message": {"id": f"m-{call_id}", "role": "assistant", "content": [use]},
        },
        {
            **base,
            "type": "user",
            "uuid": f"u-{call_id}-2",
            "parentUuid": f"u-{call_id}-1",
            "timestamp": "2026-11-01T10:00:01.000Z",
            "message": {"role": "user", "content": [answer]},
        },
    ]


def jsonl(path: Path, records: list[Any]) -> Path:
    """Write records as JSON lines (big ints exact, ``\\ud800`` kept as escapes); a str is written as is."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read_everything(path: str, forced: str | None = None) -> int:
    """What the headless commands do with a file, without their argument parsing: load it, thread it,
    render every call as text and JSON, count it and check it. Returns the number of calls."""
    from inspector.calltext import call_json, item_text
    from inspector.model import Call, CallStore
    from inspector.model.stats import problems, session_stats
    from inspector.model.tool_stats import per_tool
    from inspector.model.values import dumps_json
    from inspector.sources.files import load
    from inspector.sources.session import UnusableInput, hydrate

    store = CallStore(keep_payloads=False)
    try:
        load([path], store, forced)
    except UnusableInput:
        return -1
    now = store.clock.now()
    for call in store.all_calls():
        request, results = hydrate(call)
        dumps_json(call_json(call, now, request, results)).encode("utf-8")
    for item in store.items:
        for node in item.walk() if isinstance(item, Call) else [item]:
            item_text(node, now)
    dumps_json(session_stats(store)).encode("utf-8")
    per_tool(store.all_calls(), now)
    problems(store)
    return store.call_count


# -- paths that are not regular files (issue 25 §1) ---------------------------------------------------
SPECIAL_KINDS = ("fifo", "dev_zero", "folder", "dangling", "unreadable")
"""What a hostile user puts where a file is expected: a FIFO nobody writes, a symlink to /dev/zero, a
folder with a session's name, a symlink to nothing, and a regular file whose read fails."""

KIND_WORDS = {
    "fifo": "FIFO",
    "dev_zero": "character device",
    "folder": ("folder", "directory"),
    "dangling": "symlink",
    "unreadable": ("Permission denied", "Input/output error"),
}


def make_special(path: Path, kind: str) -> Path:
    """Put a ``kind`` (see SPECIAL_KINDS) at ``path``; returns it. "unreadable" is a mode-000 file, or
    for root (who reads those) a symlink to /proc/self/mem, a regular file whose first read fails (EIO)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling":
        path.symlink_to(path.parent / "gone-away-target")
    elif kind == "unreadable":
        if os.geteuid() == 0:
            path.symlink_to("/proc/self/mem")
        else:
            path.write_text('{"a": 1}\n')
            path.chmod(0)
    else:
        raise ValueError(kind)
    return path


def names_kind(text: str, kind: str) -> bool:
    """True when ``text`` says what kind of path it met."""
    words = KIND_WORDS[kind]
    return any(word in text for word in ((words,) if isinstance(words, str) else words))


def _release_fifos(folder: Path) -> None:
    """Open every FIFO under ``folder`` for writing and close it: a reader stuck on one gets its EOF."""
    for path in folder.rglob("*"):
        try:
            if path.is_fifo():
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass


def within(seconds: float, fn: Callable[[], Any], folder: Path) -> Any:
    """``fn()`` run in a thread; fails if it has not returned within ``seconds`` (a blocked open or an
    endless read), releasing any FIFO under ``folder`` so the thread can end."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        _release_fifos(folder)
        thread.join(5)
        raise AssertionError(f"still running after {seconds} s (blocked on a special file?)")
    if "error" in box:
        raise box["error"]
    return box.get("value")
