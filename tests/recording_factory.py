"""A small Alicia recording written by the real writer: one request answered, one left without a result."""

from __future__ import annotations

import base64
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


def big_recording(path: Path, records: int, *, step: float = 0.01) -> Path:
    """A recording of ``records`` packets (requests and their results, alternating, ``step`` s apart),
    written as the real writer writes each line but through one buffered file (a million lines in
    seconds, not one flush each)."""
    with path.open("wb") as fh:
        fh.write(recording._encode_line({"format": recording.FORMAT_ID, "version": recording.VERSION}))
        for index in range(records):
            call = f"c{index // 2}"
            if index % 2 == 0:
                data = alicia.encode_envelope(
                    type_=6,
                    body={
                        "id": call,
                        "toolName": f"tool_{index % 7}",
                        "execution": "server",
                        "parameters": {"n": index},
                    },
                    conversation_id="c",
                    stanza_id=-1 - index,
                )
            else:
                data = alicia.encode_tool_result(
                    conversation_id="c", stanza_id=index, call_id=call, success=True, result={"n": index}
                )
            line = {
                "t": START + index * step,
                "dir": "in",
                "participant": "agent",
                "topic": "",
                "reliable": True,
                "raw": base64.b64encode(data).decode("ascii"),
                "decoded": alicia.unpack(data),
            }
            fh.write(recording._encode_line(line))
    return path
