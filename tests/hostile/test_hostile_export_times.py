"""Times OTLP cannot carry (issue 25's numbers, at export): a call whose start or end lies past 2554 or
before 1970 is sent with the nearest time a span can hold, and every other call is sent with it (one
such call made the SDK refuse the whole batch: ``export-otlp`` exited 3 and sent nothing)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the otlp extra is not installed")

import hostile_gen as gen
from hostile_io import run_cli
from otlp_sink import OtlpSink

from inspector.live.otlp_out import NS_MAX, SpanBuilder
from inspector.model import Call
from inspector.model.events import Outcome, Request, Result

FAR = ["18446744073709551616", "99999999999999999999", str(10**30)]  # ns: 2554, 5138, 10^21 s (no date)


@pytest.mark.parametrize("far", FAR)
def test_an_otlp_file_with_a_span_past_2554_exports_every_call(tmp_path: Path, far: str) -> None:
    records = [record for _, record in gen.BASES["otlp"][1]()]
    span = records[0]["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    span["startTimeUnixNano"] = span["endTimeUnixNano"] = far
    path = tmp_path / "far.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    with OtlpSink() as sink:
        code, out, err = run_cli("export-otlp", str(path), "--endpoint", sink.endpoint)
        assert code in (0, 1), err
        spans = sink.wait_spans(4)  # k1, k2, k3 and their conversation's
    sent = {s.attributes.get("gen_ai.tool.call.id"): s for s in spans}
    assert {"k1", "k2", "k3"} <= set(sent)
    if far != FAR[-1]:  # a date, past what a span holds: the last it holds
        assert sent["k1"].start_ns == sent["k1"].end_ns == NS_MAX
    assert all(0 < s.start_ns <= s.end_ns <= NS_MAX for s in spans)


@pytest.mark.parametrize("ts", [-5.0, -1e18, 1e12, 1e300, math.inf, -math.inf, math.nan])
def test_any_time_a_call_may_hold_makes_a_span(ts: float) -> None:
    call = Call(Request("c1", "tool", group="g", ts=ts))
    call.results.append(Result("c1", Outcome.SUCCESS, group="g", ts=ts))
    builder = SpanBuilder()
    conversation = builder.start_conversation("g", "agent", ts)
    builder.call_span(call, conversation, ts, ts, None, unfinished=False)
    builder.end_span(conversation, ts)
    spans = builder.take()
    assert len(spans) == 2
    assert all(0 <= span.start_time <= span.end_time <= NS_MAX for span in spans)
