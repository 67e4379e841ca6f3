"""With the real SDK, peers shaped as longregen/alicia's code: results threaded by ``requestId`` and before
their request; answers that the Go server and the first Android client both read, sent on the request's
topic to the requester only; a stanzaId sequence per conversation (tests/live/peer_scenarios.py)."""

from __future__ import annotations

TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"


def test_real_peers_are_threaded_and_read_the_answers(scenario):
    r = scenario("real_peers")
    # the app's result came first and was held (not an orphan), then joined its lossy request
    assert r["held_before"].count("OrphanResult") == 1
    early = r["early"]
    assert early["state"] == "succeeded" and early["results"] == 1 and r["orphans"] == 0
    assert early["result_id"] == "0d6f3c1e-uuid" and early["params"] == {"detail": True}
    assert early["violation"] is None  # the Go request has no execution timeout and says `arguments`
    assert early["trace"]["traceparent"] == TRACEPARENT == early["result_trace"]["traceparent"]

    # both answers went back to the asking agent, on the topic its requests came on
    (ok, ok_topic), (fail, fail_topic) = r["agent"]
    assert ok_topic == fail_topic == "alicia-tools"
    assert ok["body"] == {
        "id": "go_ok",
        "requestId": "go_ok",
        "conversationId": "conv_test",
        "messageId": "msg_go",
        "success": True,
        "result": {"level": 80},
    }
    assert fail["body"]["errorCode"] == "execution_error"
    assert fail["body"]["errorMessage"] == fail["body"]["error"] == "battery service gone"
    assert r["go_reads"] == [
        {"conversationId": "conv_test", "requestId": "go_ok", "success": True, "error": ""},
        {
            "conversationId": "conv_test",
            "requestId": "go_fail",
            "success": False,
            "error": "battery service gone",
        },
    ]
    assert r["android_refuses"] == ["", "", ""]
    [(two, two_topic)] = r["other"]
    assert two_topic == "lk-two" and two["conversationId"] == "conv_two"
    assert r["app_results"] == 0  # nobody else in the room is sent an answer

    # each conversation has its own sequence: conv_test goes on above its client's 2,000,000,000
    stanzas = r["stanzas"]
    assert 2_000_000_000 < stanzas["ok"] < stanzas["fail"] and stanzas["two"] < 2_000_000_000
    assert ok["stanzaId"] == stanzas["ok"] and two["stanzaId"] == stanzas["two"]


def test_demo_puts_no_token_or_secret_on_a_command_line_or_in_an_environment(scenario):
    r = scenario("demo_secrets", timeout=200)
    assert r["code"] == 0
    processes = r["processes"]
    assert len(processes) >= 2 and any(p["agent"] for p in processes)  # the inspector's child and the agent
    for process in processes:
        assert not (process["jwt_cmdline"] or process["jwt_environ"] or process["secret_environ"]), process


def test_kill_9_of_inspector_live_with_its_ui_takes_the_sdk_child_out_of_the_room(scenario):
    r = scenario("kill_nine_ui", timeout=200)
    assert r["children"] == 1  # the supervised child that holds the SDK
    assert r["left"] and r["alive"] == [], r
