"""Codex CLI shapes the corpus does not hold, taken from the CLI's own sources (openai/codex,
codex-rs/protocol/src/models.rs ResponseItem, protocol.rs RolloutItem / SessionMeta / *EndEvent)."""

from __future__ import annotations

import json
from pathlib import Path

from agent_records import SESSION, call, calls, env, event, first, load, meta, output, write

from inspector.model.events import Malformed, Marker, Outcome


def test_session_meta_with_session_id_and_parent_thread_id(tmp_path: Path) -> None:
    """Newer SessionMeta writes ``session_id`` (the reader falls back to ``id``) and ``parent_thread_id``."""
    payload = {"session_id": SESSION, "timestamp": "2026-05-12T10:00:00.000Z", "cwd": "/w",
               "originator": "codex_cli_rs", "cli_version": "0.150.0", "parent_thread_id": "019e-parent"}  # fmt: skip
    records = [env("session_meta", payload), call("exec_command", {"cmd": "ls"}, "call_1"),
               output("call_1", "Process exited with code 0\nOutput:\na")]  # fmt: skip
    events, store = load(write(tmp_path, records))
    marker = next(e for e in events if isinstance(e, Marker))
    assert "sub-agent" in marker.text and calls(store)["call_1"].group == SESSION


def test_end_event_status_declined_and_failed(tmp_path: Path) -> None:
    """``exec_command_end`` / ``patch_apply_end`` ``status``: completed, failed, declined (refused)."""
    records = [
        meta("0.140.0"),
        call("exec_command", {"cmd": "rm -rf build"}, "call_d"),
        event(
            {
                "type": "exec_command_end",
                "call_id": "call_d",
                "exit_code": -1,
                "status": "declined",
                "stdout": "",
                "stderr": "",
                "aggregated_output": "",
                "duration": {"secs": 0, "nanos": 0},
            }
        ),  # fmt: skip
        call("apply_patch", {"input": "x"}, "call_p", 3),
        event(
            {
                "type": "patch_apply_end",
                "call_id": "call_p",
                "stdout": "",
                "stderr": "no such file",
                "success": False,
                "changes": {},
                "status": "failed",
            },
            4,
        ),  # fmt: skip
    ]
    _, store = load(write(tmp_path, records))
    assert first(store, "call_d").outcome is Outcome.DENIED
    patch = first(store, "call_p")
    assert patch.outcome is Outcome.ERROR and "no such file" in (patch.error_message or "")


def test_mcp_end_ok_with_is_error_and_an_err_output(tmp_path: Path) -> None:
    """An MCP result ``Ok`` whose ``isError`` is true failed; an output ``err: ...`` is an MCP error."""
    records = [
        meta("0.121.0"),
        call("github__get_me", {}, "call_a"),
        event(
            {
                "type": "mcp_tool_call_end",
                "call_id": "call_a",
                "invocation": {"server": "github", "tool": "get_me"},
                "duration": {"secs": 0, "nanos": 5},
                "result": {"Ok": {"content": [{"type": "text", "text": "401"}], "isError": True}},
            }
        ),  # fmt: skip
        call("github__list", {}, "call_b", 3),
        output("call_b", 'err: "connection refused"', 4),
    ]
    _, store = load(write(tmp_path, records))
    assert first(store, "call_a").outcome is Outcome.ERROR
    assert first(store, "call_b").outcome is Outcome.ERROR


def test_output_object_with_success_false(tmp_path: Path) -> None:
    records = [meta("0.40.0"), call("shell", {"command": ["ls"]}, "call_s"),
               output("call_s", {"content": "sandbox denied the write", "success": False})]  # fmt: skip
    _, store = load(write(tmp_path, records))
    got = first(store, "call_s")
    assert got.outcome is Outcome.ERROR and "sandbox denied" in (got.error_message or "")


def test_namespaced_mcp_call_is_named_as_before(tmp_path: Path) -> None:
    """Newer MCP calls: ``name`` get_me and ``namespace`` mcp__github; other namespaces keep the name."""
    mcp = {"type": "function_call", "name": "get_me", "namespace": "mcp__github", "arguments": "{}",
           "call_id": "call_n"}  # fmt: skip
    spawn = {"type": "function_call", "name": "spawn_agent", "namespace": "multi_agent_v1",
             "arguments": json.dumps({"message": "go"}), "call_id": "call_sp"}  # fmt: skip
    records = [meta("0.150.0"), env("response_item", mcp, 1), output("call_n", "me"),
               env("response_item", spawn, 3), output("call_sp", '{"agent_id":"a1"}', 4)]  # fmt: skip
    _, store = load(write(tmp_path, records))
    got = calls(store)
    assert got["call_n"].request.tool == "mcp__github__get_me"
    assert got["call_sp"].request.tool == "spawn_agent"


def test_tool_search_call_and_output(tmp_path: Path) -> None:
    """``tool_search_call`` (arguments a JSON value) paired with ``tool_search_output`` by call_id, or with
    the open search when the output has none."""
    records = [
        meta("0.150.0"),
        env(
            "response_item",
            {
                "type": "tool_search_call",
                "call_id": "ts_1",
                "status": "completed",
                "execution": "client",
                "arguments": {"query": "calendar", "limit": 3},
            },
            1,
        ),  # fmt: skip
        env(
            "response_item",
            {
                "type": "tool_search_output",
                "call_id": "ts_1",
                "status": "completed",
                "execution": "client",
                "tools": [{"type": "function", "name": "list_events", "namespace": "mcp__calendar"}],
            },
            2,
        ),  # fmt: skip
        env(
            "response_item",
            {"type": "tool_search_call", "execution": "client", "arguments": {"query": "mail"}},
            3,
        ),
        env(
            "response_item",
            {"type": "tool_search_output", "status": "failed", "execution": "client", "tools": []},
            4,
        ),  # fmt: skip
    ]
    _, store = load(write(tmp_path, records))
    got = calls(store)
    assert len(got) == 2 and not store.orphans
    found = first(store, "ts_1")
    assert found.outcome is Outcome.SUCCESS and "mcp__calendar__list_events" in str(found.data)
    other = next(c for c in got.values() if c.call_id != "ts_1")
    assert other.result is not None and other.result.outcome is Outcome.ERROR


def test_image_generation_call(tmp_path: Path) -> None:
    item = {"type": "image_generation_call", "id": "ig_1", "status": "completed",
            "revised_prompt": "a gray tabby cat", "result": "iVBORw0KGgo" * 100}  # fmt: skip
    _, store = load(write(tmp_path, [meta("0.150.0"), env("response_item", item, 1)]))
    got = first(store, "ig_1")
    assert got.outcome is Outcome.SUCCESS and "base64" in str(got.data)
    assert calls(store)["ig_1"].request.params == {"revised_prompt": "a gray tabby cat"}


def test_unknown_items_records_and_fields_do_not_break_pairing(tmp_path: Path) -> None:
    """Newer rollout items (``inter_agent_communication``, ``agent_message``, ``context_compaction``,
    an ``ordinal`` on each line, fields never seen) are skipped; the calls around them still pair."""
    records = [
        meta("0.150.0"),
        call("exec_command", {"cmd": "make"}, "call_x"),
        {
            **env("inter_agent_communication", {"author": "a", "recipient": "b", "content": []}, 2),
            "ordinal": 3,
        },
        env(
            "response_item",
            {
                "type": "agent_message",
                "author": "a",
                "recipient": "b",
                "content": [{"type": "input_text", "text": "hi"}],
            },
            2,
        ),  # fmt: skip
        env("response_item", {"type": "context_compaction", "encrypted_content": "zzz"}, 2),
        env("event_msg", {"type": "item_completed", "item": {"type": "Plan", "text": "x"}}, 2),
        env("future_record", {"anything": [1, 2]}, 2),
        {**output("call_x", "Process exited with code 2\nOutput:\nfail", 3), "ordinal": 9, "new": {"x": 1}},
        output("call_missing_id_next", "x", 4) | {"payload": {"type": "function_call_output", "output": "x"}},
    ]
    events, store = load(write(tmp_path, records))
    assert not [e for e in events if isinstance(e, Malformed)]
    assert first(store, "call_x").outcome is Outcome.ERROR and not store.orphans


def _spawning(child: str) -> list[dict[str, object]]:
    spawn = {"type": "collab_agent_spawn_end", "call_id": "call_s", "sender_thread_id": SESSION,
             "new_thread_id": child, "new_agent_nickname": "Russell", "prompt": "review"}  # fmt: skip
    return [meta("0.126.0"), call("spawn_agent", {"message": "review"}, "call_s"), event(spawn),
            output("call_s", json.dumps({"agent_id": child}), 3)]  # fmt: skip


def _thread(child: str, parent: str, call_id: str) -> list[dict[str, object]]:
    source = {"subagent": {"thread_spawn": {"parent_thread_id": parent, "depth": 1}}}
    payload = {"id": child, "timestamp": "2026-05-12T10:00:04.000Z", "cwd": "/w", "originator": "codex_cli_rs",
               "cli_version": "0.126.0", "source": source}  # fmt: skip
    return [env("session_meta", payload, 4), call("exec_command", {"cmd": "git diff"}, call_id, 5),
            output(call_id, "Process exited with code 0\nOutput:\n", 6)]  # fmt: skip


def test_a_sub_agent_thread_nests_under_its_spawn_call(tmp_path: Path) -> None:
    """The spawned thread's rollout (beside the parent, or in another date folder of the same sessions
    root) is read after the parent, its calls under the ``spawn_agent`` call, at every depth."""
    child, grandchild = "019e0000-0000-7000-8000-00000000000c", "019e0000-0000-7000-8000-00000000000d"
    day = tmp_path / "sessions" / "2026" / "05" / "12"
    parent = write(day, _spawning(child), f"rollout-2026-05-12T10-00-00-{SESSION}.jsonl")
    mine = _thread(child, SESSION, "call_c")
    grand = {"type": "collab_agent_spawn_end", "call_id": "call_c2", "new_thread_id": grandchild}
    write(day, [*mine, call("spawn_agent", {"message": "deeper"}, "call_c2", 7), event(grand, 8),
                output("call_c2", "{}", 9)], f"rollout-2026-05-12T10-00-04-{child}.jsonl")  # fmt: skip
    write(tmp_path / "sessions" / "2026" / "05" / "13", _thread(grandchild, child, "call_g"),
          f"rollout-2026-05-13T00-00-01-{grandchild}.jsonl")  # fmt: skip
    _, store = load(parent)
    got = calls(store)
    assert got["call_c"].parent is got["call_s"] and got["call_c2"].parent is got["call_s"]
    assert got["call_g"].parent is got["call_c2"] and got["call_g"].depth == 2
    assert first(store, "call_c").outcome is Outcome.SUCCESS and not store.orphans
    assert len([c for c in got.values() if c.parent is None]) == 1


def test_a_spawned_thread_that_is_not_here_is_left_out(tmp_path: Path) -> None:
    _, store = load(write(tmp_path, _spawning("019e0000-0000-7000-8000-0000000000ff")))
    assert list(calls(store)) == ["call_s"]
