"""``inspector FILE --follow --otlp URL``: the file's calls go out as spans as they are read (those that
ended), and at quit the calls still open (unfinished) and the conversation's span, subagent calls under
their parent's span; all to a real OTLP/HTTP endpoint."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from screen_text import wait_for
from ui_factories import SIZE, file_app

pytest.importorskip("opentelemetry.sdk", reason="the otlp extra is not installed")

from otlp_sink import OtlpSink  # noqa: E402

from inspector.model import CallStore  # noqa: E402
from inspector.sources.files import load  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CLAUDE = ROOT / "sample_sessions/claude/-home-dev-demo-app/5a3e0000-0000-4000-8000-000000000001.jsonl"


async def test_a_followed_file_streams_its_calls_and_the_rest_at_quit(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    shutil.copy(CLAUDE, path)
    store = CallStore()
    load([str(path)], store)
    store.clock = store.end_clock()
    answered = [c.call_id for c in store.all_calls() if c.results]
    open_calls = [c.call_id for c in store.all_calls() if not c.results]
    assert answered and open_calls
    with OtlpSink() as sink:
        app = file_app([path], follow=True, otlp=sink.endpoint)
        async with app.run_test(size=SIZE) as pilot:
            assert await wait_for(pilot, lambda: len(sink.spans) >= len(answered), 60)
            got = {s.attributes.get("gen_ai.tool.call.id") for s in sink.spans}
            assert set(answered) <= got and not set(open_calls) & got  # only what ended, so far
        spans = sink.wait_spans(store.call_count + 1)  # at quit: the open calls and the session's span
    sent = {s.attributes["gen_ai.tool.call.id"]: s for s in spans if "gen_ai.tool.call.id" in s.attributes}
    assert set(sent) == {c.call_id for c in store.all_calls()}
    assert all(sent[c].attributes.get("inspector.call.unfinished") is True for c in open_calls)
    for call in store.all_calls():
        if call.parent is not None:
            assert sent[call.call_id].parent_id == sent[call.parent.call_id].span_id
