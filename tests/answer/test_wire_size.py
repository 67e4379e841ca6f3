"""The size check counts the LiveKit packet, not only the envelope (figures measured with the real SDK)."""

from __future__ import annotations

from factories import make_request

from inspector.answer import compose
from inspector.answer.wire_size import packet_overhead
from inspector.model import Call, Executor

# (identity length, topic length, destination lengths) -> the SDK's largest accepted payload was 64000 - this
MEASURED = [
    (1, 0, [], 36),
    (1, 6, [7], 51),
    (1, 200, [200], 440),
    (50, 0, [], 85),
    (50, 6, [7], 100),
    (50, 200, [200], 489),
    (200, 0, [], 236),
    (200, 6, [7], 251),
    (200, 200, [200], 640),
]


def test_the_overhead_matches_what_the_sdk_accepted():
    for ident, topic, dests, overhead in MEASURED:
        assert packet_overhead(
            identity="i" * ident, topic="t" * topic, destinations=["d" * n for n in dests]
        ) == (overhead)


def test_a_63998_byte_envelope_is_refused_when_the_packet_would_be_larger():
    call = Call(make_request("t1", executor=Executor.CLIENT, group="conv_1"))
    overhead = packet_overhead(identity="inspector-abc", topic="alicia", destinations=["agent-1"])
    n = 63000
    n += 63998 - compose.review(call, compose.success({"c": "x" * n}), now=0, stanza_id=1).size
    review = compose.review(call, compose.success({"c": "x" * n}), now=0, stanza_id=1, overhead=overhead)
    assert review.size == 63998 and review.wire_size == 63998 + overhead
    assert [i.kind for i in review.refusals] == ["too_large"] and "on the wire" in review.refusals[0].message
