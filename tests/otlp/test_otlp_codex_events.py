"""Codex's tool events as real Codex exports them, read as the rollout shows the same calls.

Codex 0.169 (checked by tests/otlp/test_codex_live.py against the real binary) sends its events through
the tracing-to-OpenTelemetry bridge: the record's ``eventName`` is the call site (``event
otel/src/tool_result.rs:54``), the event's name is the ``event.name`` attribute, the body is empty, and a
``codex.tool_result`` says ``success`` "true" for a command that ran and exited non-zero (the output
says ``Process exited with code 3``). Two kinds are tested here:

- wherever a record puts its event's name (body, ``event.name``, ``eventName``) while the others hold a
  call site or the short name, its tool events are read;
- every call of every pinned real Codex rollout, its output sent as a ``codex.tool_result`` would send
  it, reads as the rollout reader reads it: outcome, exit code, message and shown output; a process
  still running when its ``exec_command`` returned included, ended by a later poll's output (8 such
  calls in two of the rollouts).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.model import Call, CallStore, State
from inspector.sources.files import load

ROOT = Path(__file__).resolve().parents[2]
ROLLOUTS = sorted((ROOT / "tests" / "fixtures" / "real").rglob("rollout-*.jsonl"))
GROUP = "019a0000-0000-7000-8000-0000000c0de5"


def _value(v: Any) -> dict[str, Any]:
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    return {"stringValue": str(v)}


def _record(name: str, at_ms: int, placement: str, **attrs: Any) -> dict[str, Any]:
    """A log record naming ``name`` the way ``placement`` says (the others left as Codex or Claude Code
    leave them)."""
    pairs = dict(attrs)
    record: dict[str, Any] = {"observedTimeUnixNano": str(at_ms * 1_000_000), "severityNumber": 9}
    short = name.rpartition(".")[2]
    if placement == "bridge":  # Codex: attribute full, eventName the call site, no body
        pairs["event.name"] = name
        record["eventName"] = "event otel/src/tool_result.rs:54"
    elif placement == "field":  # the newer SDKs: eventName alone
        record["eventName"] = name
    elif placement == "body":  # Claude Code: body full, attribute short
        pairs["event.name"] = short
        record["body"] = {"stringValue": name}
    elif placement == "short_field":  # eventName short, the attribute full
        pairs["event.name"] = name
        record["eventName"] = short
    pairs.setdefault("conversation.id", GROUP)
    record["attributes"] = [{"key": k, "value": _value(v)} for k, v in pairs.items()]
    return record


def _logs_line(records: list[dict[str, Any]]) -> str:
    resource = {"attributes": [{"key": "service.name", "value": {"stringValue": "codex_exec"}}]}
    scope = {"scope": {"name": "codex_otel.log_only"}, "logRecords": records}
    return json.dumps({"resourceLogs": [{"resource": resource, "scopeLogs": [scope]}]})


def _read(path: Path) -> CallStore:
    store = CallStore()
    load([str(path)], store)
    return store


def _calls(store: CallStore) -> dict[str, Call]:
    return {call.request.call_id: call for call in store.all_calls()}


@pytest.mark.parametrize("placement", ["bridge", "field", "body", "short_field"])
def test_tool_events_are_found_wherever_their_name_is(tmp_path: Path, placement: str) -> None:
    records = [
        _record(
            "codex.tool_decision", 1000, placement, tool_name="exec_command", call_id="call_a",
            decision="approved", source="Config",
        ),
        _record(
            "codex.tool_result", 1400, placement, tool_name="exec_command", call_id="call_a",
            arguments='{"cmd": "echo hi"}', duration_ms="400", success="true",
            output="Chunk ID: 1\nWall time: 0.4 seconds\nProcess exited with code 0\nOutput:\nhi\n",
        ),
        _record("codex.tool_decision", 2000, placement, tool_name="exec_command", call_id="call_b",
                decision="denied", source="User"),
        _record("codex.sse_event", 2100, placement, **{"event.kind": "response.completed"}),
    ]  # fmt: skip
    path = tmp_path / "codex.otlp.jsonl"
    path.write_text(_logs_line(records) + "\n")
    store = _read(path)
    calls = _calls(store)
    assert sorted(calls) == ["call_a", "call_b"]
    assert calls["call_a"].request.params == {"cmd": "echo hi"}
    assert calls["call_a"].results[0].data == "hi\n"
    assert calls["call_b"].state() is State.DENIED
    assert store.skipped.get("log codex.sse_event", 0) + store.skipped.get("log sse_event", 0) == 1
    assert not store.malformed


def _payloads(path: Path) -> Iterator[tuple[Any, dict[str, Any]]]:
    """(record type, payload) of each line of a rollout that parses and holds an object payload."""
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        payload = record.get("payload") if isinstance(record, dict) else None
        if isinstance(payload, dict):
            yield record.get("type"), payload


def _rollout_outputs(path: Path) -> list[tuple[str, str, str, str]]:
    """(call id, tool, arguments, output text) of each function call answered by a text output."""
    tools: dict[str, tuple[str, str]] = {}
    found = []
    for kind, payload in _payloads(path):
        if kind != "response_item":
            continue
        if payload.get("type") == "function_call" and isinstance(payload.get("arguments"), str):
            tools[payload.get("call_id")] = (payload.get("name"), payload["arguments"])
        elif payload.get("type") == "function_call_output" and isinstance(payload.get("output"), str):
            call = tools.get(payload.get("call_id"))
            if call is not None:
                found.append((payload["call_id"], call[0], call[1], payload["output"]))
    return found


@pytest.mark.skipif(not ROLLOUTS, reason="no pinned real Codex rollouts in tests/fixtures/real")
@pytest.mark.parametrize("rollout", ROLLOUTS, ids=lambda p: p.parent.name)
def test_codex_tool_results_read_as_the_rollout_reads_them(tmp_path: Path, rollout: Path) -> None:
    pairs = _rollout_outputs(rollout)
    if not pairs:
        pytest.skip("no function_call answered by a text output")
    from_rollout = _calls(_read(rollout))
    records = []
    for n, (call_id, tool, arguments, output) in enumerate(pairs):
        records.append(
            _record(
                "codex.tool_result", 1000 + n, "bridge", tool_name=tool, call_id=call_id,
                arguments=arguments, output=output, success="true", duration_ms="1",
            )
        )  # fmt: skip
    path = tmp_path / "codex.otlp.jsonl"
    path.write_text("".join(_logs_line(records[i : i + 50]) + "\n" for i in range(0, len(records), 50)))
    from_telemetry = _calls(_read(path))
    compared = 0
    ended = _ended(rollout)
    for call_id, tool, _arguments, _output in pairs:
        want = from_rollout.get(call_id)
        # a call the rollout decided with more than the outputs (an exec_command_end or another *_end
        # event, which telemetry does not carry; a reviewer's verdict) is not what this compares; a
        # process still running, ended by a later poll's output, is
        if want is None or len(want.results) != 1 or want.results[0].extra.get("review"):
            continue
        if call_id in ended:
            continue
        got = from_telemetry[call_id]
        assert got.request.tool == tool
        assert got.request.params == want.request.params, call_id
        mine, theirs = got.results[0], want.results[0]
        assert (mine.outcome, mine.error_code, mine.error_message) == (
            theirs.outcome,
            theirs.error_code,
            theirs.error_message,
        ), call_id
        assert mine.data == theirs.data, call_id
        compared += 1
    assert compared, "no call of this rollout was decided by its output alone"


def _ended(path: Path) -> set[str]:
    """The calls a rollout has an ``*_end`` event for (exec_command_end, patch_apply_end, ...)."""
    return {
        payload.get("call_id")
        for _, payload in _payloads(path)
        if str(payload.get("type", "")).endswith("_end")
    }


@pytest.mark.parametrize(
    ("agent", "id_key", "args_key"),
    [("codex", "call_id", "arguments"), ("claude_code", "tool_use_id", "tool_input")],
)
def test_a_decision_alone_in_its_body_gets_its_arguments_from_the_result(
    agent: str, id_key: str, args_key: str
) -> None:
    """Live (``otlp-listen``) and followed, each body is decoded as it comes: Codex sent a call's
    decision in one body and its result, which alone carries the arguments, in a later one (real Codex
    0.169: bodies 1 and 4); the call, shown since the decision, takes its arguments with the result."""
    from inspector.model.events import RawRef
    from inspector.protocols.otlp import Decoder

    decoder, store = Decoder(), CallStore()
    common = {id_key: "call_x", "tool_name": "exec_command"}
    bodies = [
        [_record(f"{agent}.tool_decision", 1000, "bridge", decision="accept", source="config", **common)],
        [_record(f"{agent}.tool_decision", 1100, "bridge", decision="reject", source="user",
                 **{id_key: "call_no", "tool_name": "exec_command"})],
        [_record(f"{agent}.tool_result", 1400, "bridge", success="true", duration_ms="400", output="hi\n",
                 **{args_key: '{"cmd": "echo hi"}'}, **common)],
    ]  # fmt: skip
    shown = []
    for n, records in enumerate(bodies, 1):
        raw = RawRef("otlp", f"POST /v1/logs #{n}", protocol="otlp")
        for event in decoder.feed(json.loads(_logs_line(records)), raw):
            store.ingest(event)
        shown.append(_calls(store)["call_x"].request.params)
    assert shown[0] is None  # nothing said the arguments yet
    call = _calls(store)["call_x"]
    assert call.request.params == {"cmd": "echo hi"}
    assert call.request.summary == "cmd=echo hi"
    assert call.state() is State.SUCCEEDED
    assert (
        _calls(store)["call_no"].state() is State.DENIED and _calls(store)["call_no"].request.params is None
    )


def test_a_protobuf_body_is_recorded_with_integer_enums() -> None:
    """What ``otlp-listen --record`` writes of a protobuf body (Codex sends protobuf) is OTLP JSON:
    enums as integers, as the file exporter and the Collector write them, not protobuf's enum names."""
    pytest.importorskip("opentelemetry.proto", reason="the otlp extra is not installed")
    from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    from inspector.sources.otlp_receiver import body_json

    logs = ExportLogsServiceRequest()
    record = logs.resource_logs.add().scope_logs.add().log_records.add()
    record.severity_number = 9
    record.event_name = "event otel/src/tool_result.rs:54"
    traces = ExportTraceServiceRequest()
    span = traces.resource_spans.add().scope_spans.add().spans.add()
    span.trace_id, span.span_id, span.name, span.kind = b"\x01" * 16, b"\x02" * 8, "exec_command", 1
    span.status.code = 2
    logged, _ = body_json("logs", logs.SerializeToString(), "application/x-protobuf")
    traced, _ = body_json("traces", traces.SerializeToString(), "application/x-protobuf")
    assert logged["resourceLogs"][0]["scopeLogs"][0]["logRecords"][0]["severityNumber"] == 9
    sent = traced["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    assert (sent["kind"], sent["status"]["code"], sent["spanId"]) == (1, 2, "02" * 8)


def test_a_process_still_running_is_decided_by_its_poll_in_a_later_body() -> None:
    """Real Codex: ``exec_command`` returned "Process running with session ID 1955" (its tool_result says
    success) and a ``write_stdin`` poll of that session later said "Process exited with code 4": the
    first call stays open, then fails with exit code 4 and what the process printed, as in the rollout."""
    from inspector.model.events import RawRef
    from inspector.protocols.otlp import Decoder

    decoder, store = Decoder(), CallStore()
    starter = _record(
        "codex.tool_result",
        1250,
        "bridge",
        tool_name="exec_command",
        call_id="call_slow",
        success="true",
        arguments='{"cmd": "sleep 2; echo done; exit 4", "yield_time_ms": 250}',
        duration_ms="251",
        output="Chunk ID: 9c6857\nWall time: 0.2511 seconds\nProcess running with session ID 1955\n"
        "Original token count: 0\nOutput:\n",
    )
    poll = _record(
        "codex.tool_result", 3260, "bridge", tool_name="write_stdin", call_id="call_poll", success="true",
        arguments='{"session_id": 1955, "chars": "", "yield_time_ms": 10000}', duration_ms="1966",
        output="Chunk ID: d82713\nWall time: 1.9654 seconds\nProcess exited with code 4\n"
        "Original token count: 2\nOutput:\ndone\n",
    )  # fmt: skip
    states = []
    for n, record in enumerate([starter, poll], 1):
        raw = RawRef("otlp", f"POST /v1/logs #{n}", protocol="otlp")
        for event in decoder.feed(json.loads(_logs_line([record])), raw):
            store.ingest(event)
        states.append(_calls(store)["call_slow"].state())
    assert states == [State.PENDING, State.FAILED]
    slow = _calls(store)["call_slow"]
    assert (slow.results[0].error_code, slow.results[0].data) == ("4", "done\n")
    assert slow.latency_ms is not None and abs(slow.latency_ms - (3260 - 1250 + 251)) < 1
    assert _calls(store)["call_poll"].state() is State.FAILED
