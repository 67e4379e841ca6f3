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


FIRST = "9cd28a74-da7e-4458-a91a-fffec2be9d7a"
RESUMED = "613a9a68-8816-40b2-a2d4-041ade599da6"


def session_meta(thread: str, second: int = 0) -> dict[str, object]:
    return env("session_meta", {"id": thread, "timestamp": "2025-09-16T04:47:48.362Z", "cwd": "/w",
                                "originator": "codex_cli_rs", "cli_version": "0.36.0"}, second)  # fmt: skip


def test_a_resumed_rollout_opened_with_the_one_it_replays_shows_each_call_once(tmp_path: Path) -> None:
    """``codex resume`` (0.36, real: Hoper-J/cpolar-connect) writes a new rollout that starts with its own
    session_meta, then the earlier thread's, then replays the earlier items before going on: a folder
    holding both showed 109 calls where there are 58. A call asked in the earlier file and answered
    only after the resume keeps that answer."""
    day = tmp_path / "sessions" / "2025" / "09" / "16"
    earlier = [session_meta(FIRST), call("shell", {"command": ["ls"]}, "call_1"),
               output("call_1", json.dumps({"output": "a", "metadata": {"exit_code": 0}}), 3),
               call("shell", {"command": ["make"]}, "call_2", 4)]  # fmt: skip
    replay = [r for r in earlier if r["type"] != "session_meta"]
    later = [session_meta(RESUMED), session_meta(FIRST, 1), *replay,
             output("call_2", json.dumps({"output": "built", "metadata": {"exit_code": 0}}), 5),
             call("shell", {"command": ["git", "status"]}, "call_3", 6),
             output("call_3", json.dumps({"output": "clean", "metadata": {"exit_code": 0}}), 7)]  # fmt: skip
    first_path = write(day, earlier, f"rollout-2025-09-16T12-47-48-{FIRST}.jsonl")
    later_path = write(day, later, f"rollout-2025-09-16T14-12-31-{RESUMED}.jsonl")
    for order in ([first_path, later_path], [later_path, first_path]):
        store = CallStore()
        load_files([str(p) for p in order], store)
        got = {c.call_id: c for c in store.all_calls()}
        assert store.call_count == 3 and sorted(got) == ["call_1", "call_2", "call_3"], order
        assert all(c.result is not None for c in got.values()), order  # call_2's answer came after the resume
        assert store.duplicate_results == 0 and not store.malformed
    _, alone = load(later_path)
    assert sorted(calls(alone)) == ["call_1", "call_2", "call_3"]
