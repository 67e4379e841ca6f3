"""Auto-answers and deadlines: a rule never answers past the request's deadline unless it says
``send_late = true``; the skip is a decision with its reason (and, live, a line the user sees)."""

from __future__ import annotations

import asyncio

import pytest
from factories import make_request

from inspector.answer import rules
from inspector.answer.engine import AutoResponder, FakeScheduler
from inspector.live.hub_peers import HubBridge, PeerError
from inspector.live.hub_server import HubServer
from inspector.live.hub_session import prepare_hub
from inspector.live.session import LiveOptions
from inspector.model import Call, FakeClock

LATE = '[[rule]]\ntool = "read_screen"\nresult = { text = "x" }\ndelay_ms = 35000\n'


def engine(text: str, clock: FakeClock):
    scheduler = FakeScheduler(clock)
    sent: list[str] = []
    log = []
    responder = AutoResponder(
        rules.parse(text), scheduler, lambda call, draft, rule: sent.append(call.call_id), log=log.append
    )
    return scheduler, responder, sent, log


def test_a_rule_whose_delay_passes_the_deadline_is_skipped_and_says_why():
    clock = FakeClock(1000.0)
    scheduler, responder, sent, log = engine(LATE, clock)
    call = Call(make_request("r1", "read_screen", ts=1000.0, timeout_ms=30000))
    assert responder.offer(call) is None
    scheduler.advance(60)
    assert sent == []
    (decision,) = log
    assert decision.action == "skipped" and decision.rule_line == 1
    assert "5.0 s past the request's deadline" in decision.reason and "send_late = true" in decision.reason


def test_send_late_answers_anyway():
    clock = FakeClock(1000.0)
    scheduler, responder, sent, log = engine(LATE + "send_late = true\n", clock)
    call = Call(make_request("r1", "read_screen", ts=1000.0, timeout_ms=30000))
    assert responder.offer(call) is not None
    scheduler.advance(40)
    assert sent == ["r1"] and [d.action for d in log] == ["scheduled", "sent"]


def test_a_deadline_passed_while_waiting_is_checked_again_when_the_rule_fires():
    clock = FakeClock(1000.0)
    scheduler, responder, sent, log = engine(LATE.replace("35000", "1000"), clock)
    call = Call(make_request("r1", "read_screen", ts=970.5, timeout_ms=30000))  # 0.5 s left
    assert responder.offer(call) is None  # 1 s delay: it would land 0.5 s late
    call = Call(make_request("r2", "read_screen", ts=1000.0, timeout_ms=30000))
    responder.offer(call)
    call.request.timeout_ms = 500  # (a source may set the deadline after the offer)
    scheduler.advance(2)
    assert sent == [] and [d.action for d in log] == ["skipped", "scheduled", "skipped"]


def test_a_request_without_a_deadline_is_answered_after_any_delay():
    clock = FakeClock(1000.0)
    scheduler, responder, sent, _ = engine(LATE, clock)
    responder.offer(Call(make_request("r1", "read_screen", ts=1000.0, timeout_ms=None)))
    scheduler.advance(40)
    assert sent == ["r1"]


def test_send_late_must_be_a_boolean():
    with pytest.raises(rules.RulesError, match="line 5: send_late must be true or false"):
        rules.parse(LATE + 'send_late = "yes"\n')


async def test_the_hub_assistant_logs_the_skip_where_the_user_looks_and_sends_nothing(tmp_path):
    """The real bridge's case (issue 21): a rule answering at 35 s to a request the bridge drops at 30
    s. Here the bridge waits 0.3 s and the rule 0.6 s."""
    server = await HubServer("s").start()
    rules_file = tmp_path / "rules.toml"
    rules_file.write_text(LATE.replace("35000", "600"))
    tools = tmp_path / "tools.toml"
    tools.write_text('[[tool]]\nname = "read_screen"\ndescription = "screen"\n')
    options = LiveOptions(
        hub=server.url,
        as_assistant=True,
        tools=str(tools),
        answer_rules=str(rules_file),
        agent_secret="s",
        tool_timeout=0.3,
        no_record=True,
    )
    session = prepare_hub(options, env={})
    session.source.heartbeat_every = 0.05
    await session.source.start()
    bridge = await HubBridge(server.url, timeout=0.3).start()
    loop = asyncio.get_running_loop()
    end = loop.time() + 5
    while not bridge.assistant_available():
        assert loop.time() < end
        await asyncio.sleep(0.01)
    with pytest.raises(PeerError, match="timed out"):
        await bridge.request("read_screen")
    await asyncio.sleep(0.5)
    said = [m.text for m in session.store.items if getattr(m, "kind", "") == "auto-responder"]
    assert len(said) == 1 and "past the request's deadline" in said[0], said
    (call,) = session.store.all_calls()
    assert not call.answered
    await bridge.close()
    await session.stop()
    await server.close()
