"""Answering exactly once, on the loopback room and the real LiveKit server: two inspectors in one room
with the same rules send one answer between them; a second answer and an answer to a requester that left
the room are refused, saying why, and nothing goes out."""

from __future__ import annotations

import json


def test_one_answer_per_request_between_two_inspectors_and_none_to_a_requester_gone(scenario):
    r = scenario("answer_once", timeout=200)
    outputs = {}
    for run in r["runs"]:
        assert "Traceback" not in run["stderr"], run["stderr"]
        outputs[run["code"], len(outputs)] = [json.loads(line) for line in run["stdout"].splitlines()]
    # the agent got exactly one answer to t1, from one of the two inspectors
    assert [a["body"]["id"] for a in r["cli_answers"]] == ["t1"]
    answered, refused = [], []
    for events in outputs.values():
        t1 = [e for e in events if e.get("event") == "call" and e["id"] == "t1"]
        skips = [e["text"] for e in events if e.get("kind") == "auto-responder" and "t1" in e["text"]]
        (answered if t1 and t1[-1]["results"] else refused).append(skips)
    assert len(answered) == 1 and len(refused) == 1, outputs
    [[skip]] = refused
    assert (
        "did not answer read_local_file t1 (rule at line 1): this request was already answered from this "
        "machine (by inspector-"
        in skip
        and "sent exactly once per request" in skip
    )

    # the answer API: the second answer is refused in words, the first alone reached the agent
    assert [a["body"]["id"] for a in r["api_answers"]] == ["t2"]
    assert r["refusals"]["second"] == (
        "AnswerRefused: this request was already answered (success, by inspector): a ToolUseResult is "
        "sent exactly once per request, so a second answer is not sent"
    )
    # the requester left: the preview and the send refuse, and the call stays unanswered
    assert r["gone_review"] == ["requester_gone"]
    assert r["refusals"]["gone"] == (
        "AnswerRefused: agent-once, the participant that sent this request, is no longer in the room: the "
        "answer goes to it alone and would reach nobody, so it is not sent"
    )
    assert r["gone_state"] == "pending"
    # the agent's script run again (a new participant, the same identity and ids) is answered
    assert "rerun" not in r["refusals"], r["refusals"]
    assert [a["body"]["id"] for a in r["rerun_answers"]] == ["t1"]


def test_a_result_for_a_request_sent_before_the_inspector_joined_is_an_orphan_that_says_why(scenario):
    r = scenario("late_join", timeout=200)
    assert r["live"]["code"] == 0, r["live"]["stderr"]
    events = [json.loads(line) for line in r["live"]["stdout"].splitlines()]
    present = [e for e in events if e.get("kind") == "participant" and "is in the room" in e["text"]]
    assert [e["text"] for e in present] == ["agent-early is in the room"]
    [unseen] = [e for e in events if e["event"] == "orphan"]
    assert unseen["id"] == "r_before" and unseen["unseen_before"] == present[0]["ts"]
    after = [e for e in events if e.get("id") == "r_after"]
    assert after[-1]["state"] == "succeeded" and "unseen_before" not in after[-1]
    # the recording replays to the same: an orphan, whose line in check says why it may be one
    dumped = [json.loads(line) for line in r["dump"]["stdout"].splitlines()]
    assert {
        "orphan_result": "r_before",
        "where": unseen_where(dumped),
        "outcome": "success",
        "unseen_before": unseen["unseen_before"],
    } in dumped
    assert r["check"]["code"] == 1, r["check"]["stdout"] + r["check"]["stderr"]
    assert "orphan result for id 'r_before'" in r["check"]["stdout"]
    assert "after the inspector began listening: its request may have gone by unseen" in r["check"]["stdout"]
    figures = json.loads(r["stats"]["stdout"])
    assert (figures["orphan_results"], figures["unseen_results"]) == (1, 1)


def unseen_where(dumped: list[dict]) -> str:
    return next(d["where"] for d in dumped if d.get("orphan_result") == "r_before")


def test_a_room_the_server_ended_on_purpose_is_not_joined_again(scenario):
    """Rejoining would undo what the server did: two inspectors with one identity pushed each other out
    every half second for ever (the real server), and a deleted room was created again by the rejoin."""
    r = scenario("ended_on_purpose", timeout=200)
    out = r["pushed_out"]
    assert out["code"] == 1 and "Traceback" not in out["stderr"], out["stderr"]
    texts = [json.loads(line).get("text", "") for line in out["stdout"].splitlines()]
    assert sum(t.startswith("connected to room") for t in texts) == 1  # joined once, never again
    assert (
        "another participant joined with the same identity: not joining again (two inspectors with one "
        "identity push each other out of the room for ever: give each its own --identity)" in texts
    )
    assert "not joining again" in out["stderr"]
    assert r["in_room"] == ["inspector-same"]  # the second one stayed
    if r["server"] == "real":
        deleted = r["deleted"]
        assert deleted["code"] == 1, deleted["stderr"]
        texts = [json.loads(line).get("text", "") for line in deleted["stdout"].splitlines()]
        assert texts[-1] == (
            "the room was deleted: not joining again (joining again would create the room anew, empty)"
        )
        assert r["in_room_after"] == []  # not created again


def test_another_apps_data_in_the_room_is_one_message_each_live_and_replayed(scenario):
    r = scenario("foreign_data", timeout=200)
    assert r["live"]["code"] == 0, r["live"]["stderr"]
    events = [json.loads(line) for line in r["live"]["stdout"].splitlines()]
    assert not [e for e in events if e["event"] == "malformed"]
    foreign = [e["text"] for e in events if e.get("kind") == "not Alicia"]
    assert foreign == [
        "74 bytes of JSON on topic lk.chat, not an Alicia envelope: "
        '{"id": "m1", "message": "hello from the chat", "timestamp": 1767225600000}',
        "6 bytes of text on topic status, not an Alicia envelope: typing",
    ]
    assert [e["id"] for e in events if e["event"] == "call"] == ["r1"]
    replayed = [
        line.split(" not Alicia: ", 1)[1]
        for line in r["dump"]["stdout"].splitlines()
        if " not Alicia: " in line
    ]
    assert replayed == foreign
    assert r["check"]["code"] == 0, r["check"]["stdout"]


def test_the_servers_replay_after_a_reconnection_is_not_a_second_request_nor_answered_twice(scenario):
    r = scenario("server_replay", timeout=200)
    assert r["live"]["code"] == 0, r["live"]["stderr"]
    assert [a["body"]["id"] for a in r["answers"]] == ["c1"]  # answered once, though asked twice
    events = [json.loads(line) for line in r["live"]["stdout"].splitlines()]
    final = {e["id"]: e for e in events if e["event"] == "call"}
    assert set(final) == {"s1", "c1", "after"}
    for call_id in ("s1", "c1"):
        call = final[call_id]
        assert call["state"] == "succeeded" and call["duplicates"] == 0 and call["violation"] is None
        assert "came again with the same stanzaId" in call["notes"]["retransmitted"]
    assert not [e for e in events if e.get("kind") == "auto-responder"]  # nothing refused: nothing tried
    assert [e["text"] for e in events if e.get("kind") == "AssistantMessage"] == ["searching"]  # once
    # the recording replays to the same: one call each, no duplicate, no violation; check passes
    dumped = {d["id"]: d for d in map(json.loads, r["dump"]["stdout"].splitlines()) if "id" in d}
    assert set(dumped) == {"s1", "c1", "after"}
    assert all(dumped[k]["duplicates"] == 0 and dumped[k]["notes"] == final[k]["notes"] for k in ("s1", "c1"))
    assert r["check"]["code"] == 0, r["check"]["stdout"]
