"""Codex sub-agent threads as 0.104 writes them (real: h-morishita-esol/devenv and
taturou/codex-chrome-extension, 2026-02): no ``collab_agent_spawn_end`` event; the ``spawn_agent`` call's
output is ``{"agent_id": "<thread id>"}`` and the thread is a rollout of its own, whose ``session_meta``
names the parent (``source.subagent.thread_spawn.parent_thread_id``). Its calls nest under the spawn call,
and a folder holding both rollouts shows each call once."""

from __future__ import annotations

import json
from pathlib import Path

from agent_records import SESSION, call, calls, env, load, meta, output, write

from inspector.model import CallStore
from inspector.sources.files import load as load_files

CHILD = "019c755f-a102-7ab2-bde8-460b1d554d4d"


def parent_records() -> list[dict[str, object]]:
    return [
        meta("0.104.0"),
        call("spawn_agent", {"agent_type": "explorer", "message": "review the requirements"}, "call_s"),
        output("call_s", json.dumps({"agent_id": CHILD}), 3),
        call("wait", {"ids": [CHILD], "timeout_ms": 120000}, "call_w", 4),
        output("call_w", json.dumps({"status": {CHILD: {"completed": "done"}}}), 9),
    ]


def child_records() -> list[dict[str, object]]:
    source = {"subagent": {"thread_spawn": {"parent_thread_id": SESSION, "depth": 1}}}
    payload = {"id": CHILD, "timestamp": "2026-02-19T10:08:47.000Z", "cwd": "/w", "originator": "codex_cli_rs",
               "cli_version": "0.104.0", "source": source}  # fmt: skip
    return [env("session_meta", payload, 4), call("exec_command", {"cmd": "ls"}, "call_c", 5),
            output("call_c", "Process exited with code 0\nOutput:\na", 6)]  # fmt: skip


def write_both(folder: Path) -> tuple[Path, Path]:
    day = folder / "sessions" / "2026" / "02" / "19"
    parent = write(day, parent_records(), f"rollout-2026-02-19T19-07-06-{SESSION}.jsonl")
    child = write(day, child_records(), f"rollout-2026-02-19T19-08-47-{CHILD}.jsonl")
    return parent, child


def test_a_thread_named_by_the_spawn_output_nests_under_the_spawn_call(tmp_path: Path) -> None:
    parent, _ = write_both(tmp_path)
    _, store = load(parent)
    got = calls(store)
    assert set(got) == {"call_s", "call_w", "call_c"}
    assert got["call_c"].parent is got["call_s"] and got["call_c"].group == CHILD


def test_a_folder_of_a_parent_and_its_thread_shows_each_call_once(tmp_path: Path) -> None:
    """Both rollouts opened together (a sessions folder): the thread is read under its spawn call only
    (before, its calls showed twice: nested, then again as a session of its own)."""
    parent, child = write_both(tmp_path)
    for order in ([parent, child], [child, parent]):
        store = CallStore()
        load_files([str(p) for p in order], store)
        got = {c.call_id: c for c in store.all_calls()}
        assert store.call_count == 3 and sorted(got) == ["call_c", "call_s", "call_w"]
        assert store.duplicate_results == 0 and not store.malformed
    store = CallStore()
    load_files([str(parent), str(child)], store)
    assert next(c for c in store.all_calls() if c.call_id == "call_c").parent is not None
