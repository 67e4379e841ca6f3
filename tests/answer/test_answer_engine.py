"""The auto-responder with a fake clock: delays, first rule wins, no double answers."""

from __future__ import annotations

from factories import make_request, make_result

from inspector.answer import rules
from inspector.answer.engine import AutoResponder, FakeScheduler
from inspector.model import Call, Executor, FakeClock

RULES = """\
[[rule]]
tool = "slow_*"
result = { ok = true }
delay_ms = 1500

[[rule]]
tool = "*"
error = "unknown_tool"
"""


def setup():
    clock = FakeClock(1000.0)
    scheduler = FakeScheduler(clock)
    sent = []
    engine = AutoResponder(
        rules.parse(RULES),
        scheduler,
        lambda call, draft, rule: sent.append((call.call_id, draft, rule.line, clock.now())),
    )
    return clock, scheduler, engine, sent


def call(call_id, tool, executor=Executor.CLIENT):
    return Call(make_request(call_id, tool, executor=executor))


def test_immediate_and_delayed_answers_follow_the_fake_clock():
    clock, scheduler, engine, sent = setup()
    engine.offer(call("a", "web_search"))
    engine.offer(call("b", "slow_tool"))
    assert sent == [] and engine.waiting == 2
    scheduler.advance(0)
    assert [(s[0], s[1].error_code) for s in sent] == [("a", "unknown_tool")]
    scheduler.advance(1.4)
    assert len(sent) == 1
    scheduler.advance(0.2)
    assert [s[0] for s in sent] == ["a", "b"]
    assert sent[1][1].success and sent[1][3] == 1001.5
    assert engine.waiting == 0


def test_server_requests_and_answered_calls_are_left_alone():
    _, scheduler, engine, sent = setup()
    assert engine.offer(call("s", "web_search", Executor.SERVER)) is None
    answered = call("d", "web_search")
    answered.results.append(make_result("d"))
    assert engine.offer(answered) is None
    scheduler.advance(10)
    assert sent == []


def test_an_answer_arriving_during_the_delay_cancels_the_auto_answer():
    _, scheduler, engine, sent = setup()
    slow = call("b", "slow_tool")
    engine.offer(slow)
    assert engine.offer(slow) is None  # offered twice, scheduled once
    scheduler.advance(1.0)
    slow.results.append(make_result("b"))  # a person answered meanwhile
    scheduler.advance(1.0)
    assert sent == []
    assert [d.action for d in engine.decisions] == ["scheduled", "skipped"]


def test_cancel_all_forgets_waiting_answers():
    _, scheduler, engine, sent = setup()
    engine.offer(call("b", "slow_tool"))
    engine.cancel_all()
    scheduler.advance(5)
    assert sent == [] and scheduler.pending == 0
