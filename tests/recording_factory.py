"""A small Alicia recording written by the real writer: one request answered, one left without a result."""

from __future__ import annotations

from pathlib import Path

from inspector.protocols import alicia, recording

START = 1_700_000_010.0
"""The first record's time; the unanswered request's deadline is 1 s later, the last record 5.2 s later."""


def unanswered_recording(path: Path) -> Path:
    """``sms`` (client, 1 s timeout) never gets a result; the recording ends 4.2 s past its deadline."""
    with recording.RecordingWriter(str(path), {"room": "t"}) as rec:
        rec.write(
            "in",
            alicia.encode_envelope(
                type_=6,
                body={
                    "id": "sms",
                    "toolName": "send_sms",
                    "execution": "client",
                    "timeoutMs": 1000,
                    "parameters": {"to": "+3906000"},
                },
                conversation_id="c",
                stanza_id=-1,
            ),
            ts=START,
        )
        rec.write(
            "in",
            alicia.encode_envelope(
                type_=6,
                body={"id": "calc", "toolName": "calc", "execution": "server", "parameters": {"x": 1}},
                conversation_id="c",
                stanza_id=-2,
            ),
            ts=START + 5.0,
        )
        rec.write(
            "in",
            alicia.encode_tool_result(
                conversation_id="c", stanza_id=1, call_id="calc", success=True, result={}
            ),
            ts=START + 5.2,
        )
    return path
