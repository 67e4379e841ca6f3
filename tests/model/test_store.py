"""Threading, states, deadlines, orphans, duplicates and nesting in the call store."""

from __future__ import annotations

from factories import make_request, make_result

from inspector.model import CallStore, FakeClock, Message, OrphanResult, Outcome, State
from inspector.model.stats import problems, session_stats


def store() -> CallStore:
    return CallStore(clock=FakeClock(1000.0))


def test_request_then_result_threads_into_one_call():
    s = store()
    call = s.ingest(make_request())
    s.ingest(make_result(ts=1002.5))
    assert s.items == [call]
    assert call.state(1003) is State.SUCCEEDED
    assert call.latency_ms == 2500.0


def test_pending_turns_overdue_at_the_deadline_and_late_result_is_flagged():
    s = store()
    call = s.ingest(make_request(ts=1000.0, timeout_ms=5000))
    assert call.state(1004.9) is State.PENDING
    assert call.remaining(1004.0) == 1.0
    assert call.state(1005.0) is State.OVERDUE
    s.ingest(make_result(ts=1007.0))
    assert call.state(1010) is State.SUCCEEDED
    assert call.late


def test_first_result_decides_and_duplicates_are_counted():
    s = store()
    call = s.ingest(make_request())
    s.ingest(make_result(outcome=Outcome.ERROR, error_code="execution_error"))
    s.ingest(make_result(outcome=Outcome.SUCCESS))
    assert call.state() is State.FAILED
    assert call.duplicates == 1
    assert s.duplicate_results == 1


def test_orphan_result_is_its_own_item_never_attached():
    s = store()
    call = s.ingest(make_request("a"))
    orphan = s.ingest(make_result("zzz"))
    assert isinstance(orphan, OrphanResult)
    assert call.results == []
    assert s.items == [call, orphan]


def test_groups_and_sources_keep_ids_apart():
    s = store()
    a = s.ingest(make_request("x", group="conv1"))
    b = s.ingest(make_request("x", group="conv2"))
    s.ingest(make_result("x", group="conv2"))
    assert not a.results and len(b.results) == 1
    c = s.ingest(make_request("y"), ns="file1")
    orphan = s.ingest(make_result("y"), ns="file2")
    assert isinstance(orphan, OrphanResult) and not c.results


def test_outcomes_map_to_states():
    for outcome, state in [
        (Outcome.TIMEOUT, State.TIMED_OUT),
        (Outcome.CANCELED, State.CANCELED),
        (Outcome.DENIED, State.DENIED),
    ]:
        s = store()
        call = s.ingest(make_request())
        s.ingest(make_result(outcome=outcome))
        assert call.state() is state


def test_nested_calls_sit_under_their_parent():
    s = store()
    task = s.ingest(make_request("task", "Task"))
    child = s.ingest(make_request("c", "Bash", parent_id="task"))
    s.ingest(Message(kind="assistant", text="hi", parent_id="task"))
    assert s.items == [task]
    assert task.children[0] is child and child.parent is task and child.depth == 1
    assert [c.call_id for c in s.all_calls()] == ["task", "c"]
    figures = session_stats(s)
    assert figures["calls"] == 2 and figures["nested"] == 1 and figures["top_level"] == 1


def test_duplicate_request_id_is_a_violation_and_results_go_to_the_first():
    s = store()
    first = s.ingest(make_request("d"))
    second = s.ingest(make_request("d"))
    s.ingest(make_result("d"))
    assert len(first.results) == 1 and not second.results
    assert "duplicate request id" in second.request.violation


def test_stats_and_problems():
    s = store()
    s.ingest(make_request("a"))  # client request, never answered
    s.ingest(make_request("b"))
    s.ingest(make_result("b", ts=1000.2))
    s.ingest(make_result("nope"))
    figures = session_stats(s, now=1010.0)
    assert figures["states"]["overdue"] == 1 and figures["states"]["succeeded"] == 1
    assert figures["orphan_results"] == 1
    assert figures["p50_ms"] == 200.0
    found = [what for _, what in problems(s, now=1010.0)]
    assert any("orphan" in w for w in found)
    assert any("never got a result" in w for w in found)


def test_listeners_hear_every_change():
    s = store()
    seen = []
    s.subscribe(seen.append)
    call = s.ingest(make_request())
    s.ingest(make_result())
    assert seen == [call, call] and s.version == 2


def test_a_nested_request_after_its_result_goes_under_its_parent_in_its_own_namespace():
    s = store()
    parent = s.ingest(make_request("task"), ns="b.jsonl")
    s.ingest(make_request("other"), ns="a.jsonl")
    orphan = s.ingest(make_result("child"), ns="b.jsonl")
    assert orphan in s.items
    child = s.ingest(make_request("child", parent_id="task"), ns="b.jsonl")
    assert child in parent.children and child.parent is parent and child.depth == 1
    assert child.results == [orphan.result]
    assert orphan not in s.items and s.orphans == []
    assert [item for item in s.items if isinstance(item, OrphanResult)] == []
    assert s.removed_top == 1 and s.joined == 1


def test_a_top_level_request_after_its_results_takes_the_first_row_and_drops_the_others():
    s = store()
    first = s.ingest(make_result("x", ts=1001.0))
    s.ingest(make_request("y"))
    second = s.ingest(make_result("x", ts=1002.0))
    call = s.ingest(make_request("x"))
    assert s.items[0] is call and second not in s.items and first not in s.items
    assert call.results == [first.result, second.result]
    assert s.removed_top == 1 and s.orphans == []


def test_calls_are_found_by_namespace_group_and_id_and_a_repeated_id_keeps_the_first():
    s = store()
    a = s.ingest(make_request("x", group="conv1"))
    b = s.ingest(make_request("x", group="conv2"))
    c = s.ingest(make_request("x", group="conv1"), ns="file1")
    again = s.ingest(make_request("x", group="conv1"))  # a duplicate: results go to the first
    assert again.request.violation and again is not a
    assert len(s.calls) == 3 and bool(s.calls)
    assert dict(s.calls) == {("", "conv1", "x"): a, ("", "conv2", "x"): b, ("file1", "conv1", "x"): c}
    assert s.calls[("file1", "conv1", "x")] is c and s.calls.get(("file1", "conv2", "x")) is None
    assert ("", "conv2", "x") in s.calls and ("nope", "conv1", "x") not in s.calls
    assert list(s.calls.values()) == [a, b, c]
    s.ingest(make_result("x", group=""), ns="file1")  # no group: found by its id in its namespace
    assert len(c.results) == 1 and not a.results and not b.results
    assert not CallStore().calls and len(CallStore().calls) == 0


def test_an_id_in_several_groups_threads_each_groups_results_and_nests_under_its_first_call():
    """The calls of one id in three groups: each group's results and duplicates go to its own call, a
    result without a group and a call nested by its parent's id go to the id's first call (whatever its
    group), and every key is listed once."""
    s = store()
    first, second, third = (s.ingest(make_request("x", group=g)) for g in ("g2", "g1", "g3"))
    again = s.ingest(make_request("x", group="g3"))
    for group in ("g1", "g3", "g3"):
        s.ingest(make_result("x", group=group))
    s.ingest(make_result("x", group=""))
    child = s.ingest(make_request("y", group="g1", parent_id="x"))
    assert again.request.violation and s.items == [first, second, third, again]
    assert [len(call.results) for call in (first, second, third, again)] == [1, 1, 2, 0]
    assert child.parent is first and first.children == [child]
    assert sorted(s.calls) == [("", "g1", "x"), ("", "g1", "y"), ("", "g2", "x"), ("", "g3", "x")]
    assert len(s.calls) == 4 and s.duplicate_results == 1
    assert s.find("g3", "x") is third and s.find("", "x") is first and s.find("g4", "x") is None


def test_a_calls_figures_are_its_state_latency_diff_and_lateness():
    """Call.figures (what stats reads of every call in one go) says what state, latency_ms, has_diff and
    late say one by one, for calls unanswered, overdue, answered in time, late, without a time or a
    timeout, answered before they were asked, with a diff, in every outcome, and answered twice."""
    import itertools

    from inspector.model import Call

    checked = 0
    for ts, timeout, answer, outcome, diff, twice in itertools.product(
        (1000.0, None),
        (5000, None),
        (None, 999.0, 1001.0, 1005.0, 1010.0, "none"),
        list(Outcome),
        (False, True),
        (0, 1),
    ):
        call = Call(make_request("c", ts=ts if ts is not None else 0.0, timeout_ms=timeout))
        if ts is None:
            call.request.ts = None
        if answer is not None:
            for _ in range(1 + twice):
                result = make_result("c", outcome, ts=answer if answer != "none" else 0.0)
                if answer == "none":
                    result.ts = None
                result.has_diff = diff
                call.results.append(result)
        for now in (None, 1002.0, 1006.0):
            assert call.figures(now) == (call.state(now), call.latency_ms, call.has_diff, call.late)
            checked += 1
    assert checked > 500


def test_a_result_soon_after_the_session_began_listening_may_answer_a_request_it_never_saw():
    """A room keeps no history: joined where others already were (or a hub, or a rejoin), a result whose
    request may have come before is an orphan that says so; long after, a plain orphan. ``check`` reports
    both, the first with its reason."""
    s = store()
    s.ingest(Message(kind="participant", text="agent is in the room", ts=1000.0, extra={"unseen": "before"}))
    soon = s.ingest(make_result("before_join", ts=1004.0))
    later = s.ingest(make_result("never_asked", ts=1000.0 + 31.0))  # past the longest timeout (30 s)
    assert isinstance(soon, OrphanResult) and soon.unseen_before == 1000.0
    assert isinstance(later, OrphanResult) and later.unseen_before is None
    assert [what for _, what in problems(s, 2000.0)] == [
        "orphan result for id 'before_join': no request has that id (it came 4.0 s after the inspector began "
        "listening: its request may have gone by unseen)",
        "orphan result for id 'never_asked': no request has that id",
    ]
    figures = session_stats(s)
    assert figures["orphan_results"] == 2 and figures["unseen_results"] == 1
    assert "unseen_results" not in session_stats(store())  # only where there are some
    # a message without the mark (a participant who joined after the inspector) changes nothing
    fresh = store()
    fresh.ingest(Message(kind="participant", text="agent joined", ts=1000.0, extra={"change": "joined"}))
    assert fresh.ingest(make_result("x", ts=1001.0)).unseen_before is None


def test_the_mark_is_recorded_and_read_back(tmp_path):
    from inspector.protocols.recording import RecordingWriter
    from inspector.sources.files import load

    path = tmp_path / "rec.jsonl"
    writer = RecordingWriter(str(path), {"room": "r"})
    writer.event("participant", "agent is in the room", ts=1000.0, identity="agent", unseen="before")
    writer.close()
    again = CallStore()
    load([str(path)], again)
    assert again.listening_since == 1000.0


def test_when_every_server_stanza_was_seen_a_result_without_request_is_an_orphan_again():
    """The server numbers its envelopes -1, -2, ...: seeing -1 first after joining means nothing it sent
    was missed, so an unknown id is an orphan; seeing -5 first means -1..-4 went by unseen."""

    def joined(first_stanza: int) -> CallStore:
        s = store()
        mark = {"unseen": "before"}
        s.ingest(Message(kind="participant", text="agent is in the room", ts=1000.0, extra=mark))
        s.ingest(Message(kind="UserMessage", group="g", ts=1001.0, extra={"stanzaId": first_stanza}))
        return s

    complete = joined(-1)
    assert complete.ingest(make_result("ghost", ts=1002.0)).unseen_before is None
    missed = joined(-5)
    assert missed.ingest(make_result("ghost", ts=1002.0)).unseen_before == 1000.0
    # a rejoin: the next server stanza follows the last one seen (none missed), or skips some
    for following, unseen in ((-2, None), (-4, 1010.0)):
        s = joined(-1)
        s.ingest(Message(kind="connection", text="connected", ts=1010.0, extra={"unseen": "before"}))
        s.ingest(Message(kind="AssistantMessage", group="g", ts=1011.0, extra={"stanzaId": following}))
        assert s.ingest(make_result("ghost", ts=1012.0)).unseen_before == unseen


def test_an_envelope_that_comes_again_with_its_stanza_id_is_a_retransmission_not_a_duplicate():
    """A server replays what a reconnected client missed with the original stanzaIds
    (05-reconnection-semantics): in the room, the same request and result come twice."""
    from factories import make_request as request_of

    s = store()
    req = request_of("r1", ts=1000.0)
    req.extra = {"stanzaId": -1}
    call = s.ingest(req)
    res = make_result("r1", ts=1001.0)
    res.extra = {"stanzaId": -2}
    s.ingest(res)
    again_req = request_of("r1", ts=1005.0)
    again_req.extra = {"stanzaId": -1}
    again_res = make_result("r1", ts=1005.1)
    again_res.extra = {"stanzaId": -2}
    assert s.ingest(again_req) is call and s.ingest(again_res) is call
    assert list(s.all_calls()) == [call] and s.call_count == 1 and s.items == [call]
    assert call.duplicates == 0 and call.request.violation is None and s.retransmitted == 2
    assert "came again with the same stanzaId (-1, -2)" in call.notes["retransmitted"]
    # another envelope with the same id is still what it was: a duplicate request, a duplicate result
    other = request_of("r1", ts=1006.0)
    other.extra = {"stanzaId": -3}
    assert s.ingest(other) is not call and "duplicate request id" in (other.violation or "")
    late = make_result("r1", ts=1007.0)
    late.extra = {"stanzaId": -4}
    s.ingest(late)
    assert call.duplicates == 1
    # a message replayed: shown once; another message with that stanzaId (a different kind) is its own
    said = Message(kind="AssistantMessage", text="hi", group="g", ts=1008.0, extra={"stanzaId": -5})
    s.ingest(said)
    s.ingest(Message(kind="AssistantMessage", text="hi", group="g", ts=1009.0, extra={"stanzaId": -5}))
    s.ingest(Message(kind="UserMessage", text="yo", group="g", ts=1009.0, extra={"stanzaId": -5}))
    assert [m.kind for m in s.items if isinstance(m, Message)] == ["AssistantMessage", "UserMessage"]
    assert s.retransmitted == 3 and s.message_count == 2


def test_a_stanza_id_written_on_every_envelope_tells_nothing_and_merges_no_duplicate():
    """A peer that writes one stanzaId on all it sends (-1 here) has no replay to tell apart: its result
    sent twice is a duplicate, its second request with an id a duplicate request, each message its own;
    while a conversation whose stanzaIds are each its own still has its replay threaded once."""
    from factories import make_request as request_of

    s = store()
    for call_id in ("r1", "r2"):
        req = request_of(call_id, ts=1000.0)
        req.extra = {"stanzaId": -1}
        s.ingest(req)
    for ts in (1001.0, 1002.0):
        res = make_result("r1", ts=ts)
        res.extra = {"stanzaId": -1}
        s.ingest(res)
    again = request_of("r2", ts=1003.0)
    again.extra = {"stanzaId": -1}
    s.ingest(again)
    for ts in (1004.0, 1005.0):
        s.ingest(Message(kind="AssistantMessage", text="hi", group="g", ts=ts, extra={"stanzaId": -1}))
    first = s.find("", "r1")
    assert first is not None and first.duplicates == 1
    assert s.call_count == 3 and "duplicate request id" in (again.violation or "")
    assert s.retransmitted == 0 and s.message_count == 2
    # another conversation, numbered one by one, is told apart as before
    replayed = request_of("r9", ts=1006.0)
    replayed.group = "other"
    replayed.extra = {"stanzaId": -7}
    call = s.ingest(replayed)
    copy = request_of("r9", ts=1007.0)
    copy.group = "other"
    copy.extra = {"stanzaId": -7}
    assert s.ingest(copy) is call and s.retransmitted == 1


def test_the_stanza_log_forgets_its_oldest_past_its_limit(monkeypatch):
    from inspector.model import stanzas

    monkeypatch.setattr(stanzas, "LIMIT", 3)
    log = stanzas.StanzaLog()
    assert [log.again("", "g", n, ("m", n)) for n in range(4)] == [False] * 4
    assert log.again("", "g", 3, ("m", 3)) and not log.again("", "g", 0, ("m", 0))  # 0 was forgotten
