"""``--otlp URL``: a live store's calls streamed as spans as they end (OtlpStream), to a real OTLP/HTTP
endpoint: a subagent's call that ends first still names its parent call's span, each conversation's
span and the calls left without a result go out at close; an endpoint that does not answer is reported
once, and threading never waits on it."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the otlp extra is not installed")

from otlp_sink import OtlpSink  # noqa: E402

from inspector.live.otlp_out import OtlpStream  # noqa: E402
from inspector.model import CallStore, Outcome, Request, Result  # noqa: E402

T = 1_764_000_000.0


def by_call_id(spans):  # type: ignore[no-untyped-def]
    return {s.attributes["gen_ai.tool.call.id"]: s for s in spans if "gen_ai.tool.call.id" in s.attributes}


def test_calls_stream_as_they_end_nested_under_their_parent_and_the_rest_at_close() -> None:
    store = CallStore()
    with OtlpSink() as sink:
        stream = OtlpStream(store, sink.endpoint)
        store.ingest(Request("agent", "Agent", group="s1", ts=T))
        store.ingest(Request("grep", "Grep", group="s1", ts=T + 1, parent_id="agent"))
        store.ingest(Result("grep", Outcome.SUCCESS, group="s1", ts=T + 2))
        store.ingest(Result("agent", Outcome.ERROR, group="s1", ts=T + 3, error_message="boom"))
        store.ingest(Request("late", "Bash", group="s1", ts=T + 4))
        stream._builder._provider.force_flush()
        ended = sink.wait_spans(2)  # sent as they ended, before close
        assert {s.attributes["gen_ai.tool.call.id"] for s in ended} == {"grep", "agent"}
        stream.close()
        spans = sink.wait_spans(4)
    sent = by_call_id(spans)
    root = next(s for s in spans if s.name.startswith("invoke_agent"))
    assert sent["grep"].parent_id == sent["agent"].span_id  # it ended first and still names its parent
    assert sent["agent"].parent_id == root.span_id and sent["late"].parent_id == root.span_id
    assert {s.trace_id for s in spans} == {root.trace_id}
    assert sent["agent"].status == 2 and sent["agent"].attributes["error.type"] == "failed"
    assert sent["late"].attributes["inspector.call.unfinished"] is True
    assert sent["grep"].start_ns == round((T + 1) * 1e9) and sent["grep"].end_ns == round((T + 2) * 1e9)
    assert root.start_ns == round(T * 1e9)


def test_an_unreachable_endpoint_is_reported_once_and_never_waited_on() -> None:
    with OtlpSink() as sink:
        endpoint = sink.endpoint  # closed when the block ends: nothing listens there
    problems: list[str] = []
    reported = threading.Event()

    def on_problem(text: str) -> None:
        problems.append(text)
        reported.set()

    store = CallStore()
    stream = OtlpStream(store, endpoint, on_problem=on_problem, timeout=1.0)
    for index in range(3000):  # several batches, each refused
        store.ingest(Request(f"c{index}", "tool", group="g", ts=T + index))
        store.ingest(Result(f"c{index}", Outcome.SUCCESS, group="g", ts=T + index + 0.5))
    assert store.call_count == 3000  # threading went on while the exporter failed on its own thread
    assert reported.wait(120)
    stream.close()
    assert len(problems) == 1
    assert problems[0].startswith(f"OTLP export to {endpoint}/v1/traces failed: ")
    assert "Traceback" not in problems[0] and "\n" not in problems[0]


async def test_live_hub_no_ui_streams_its_calls_with_otlp(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``inspector live --hub URL --no-ui --otlp URL`` against the stand-in hub: the answered call is sent
    as it ends, the pending one at quit (unfinished), under the conversation's span."""
    import asyncio
    import json
    import os
    import signal
    import sys
    from pathlib import Path

    import inspector.protocols.alicia.hub as hub
    from inspector.live.hub_peers import HubAgent, join, scripted_conversation
    from inspector.live.hub_server import HubServer

    root = Path(__file__).resolve().parents[2]
    secret = "otlp-secret-5c1d"
    server = await HubServer(secret).start()
    with OtlpSink() as sink:
        env = {k: v for k, v in os.environ.items() if k != "ALICIA_AGENT_SECRET"} | {"PYTHONPATH": str(root)}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "inspector", "live", "--hub", server.url, "--no-ui", "--json", "--no-record",
            "--otlp", sink.endpoint,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env,
        )  # fmt: skip
        assert proc.stdout is not None
        seen: list[dict] = []

        async def until(check) -> None:  # type: ignore[no-untyped-def]
            while not any(check(x) for x in seen):
                line = await asyncio.wait_for(proc.stdout.readline(), 60)
                assert line, "the inspector ended early"
                seen.append(json.loads(line))

        await until(
            lambda x: x.get("event") == "message" and str(x.get("text", "")).startswith("connected to")
        )
        agent = await HubAgent(server.url, secret).start()
        client = await join(server.url, conversation="conv_otlp")
        await client.send(hub.encode(2, {"id": "um_1", "content": "weather?"}, "conv_otlp"))
        await agent.play(scripted_conversation(), "conv_otlp")
        await until(lambda x: x.get("event") == "message" and x.get("kind") == "AssistantMessage")
        proc.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(proc.communicate(), 60)
        await agent.close()
        await client.close()
        await server.close()
        assert proc.returncode == 0, err.decode()
        calls = {x["id"]: x["state"] for x in seen if x["event"] == "call"}
        spans = sink.wait_spans(len(calls) + 1)
    sent = by_call_id(spans)
    assert set(sent) == set(calls)
    root_span = next(s for s in spans if s.name.startswith("invoke_agent"))
    assert root_span.attributes["gen_ai.conversation.id"] == "conv_otlp"
    for call_id, state in calls.items():
        assert sent[call_id].trace_id == root_span.trace_id
        assert ("inspector.call.unfinished" in sent[call_id].attributes) == (state == "pending"), call_id
    assert "pending" in calls.values() and "succeeded" in calls.values()
