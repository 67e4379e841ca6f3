"""``inspector dump --json`` writes each call as the read threaded it (the same figures as ``stats``, the
output a later record brought, the store's own violations), and its one-pass encoding writes what the
careful one writes for every payload, hostile ones included."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.calljson import call_json, call_json_text
from inspector.model import Call, Outcome, Request, Result
from inspector.model.values import dumps_json
from inspector.protocols import alicia, recording

REAL = Path(__file__).resolve().parent / "fixtures" / "real"
OUTCOME_STATE = {"success": "succeeded", "error": "failed", "timeout": "timed_out"}
OUTCOME_STATE |= {"canceled": "canceled", "denied": "denied"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inspector", *args], capture_output=True, text=True, timeout=120
    )


def dumped(path: Path) -> list[dict]:
    proc = run("dump", "--json", str(path))
    assert proc.returncode in (0, 1), proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.mark.parametrize(
    "path",
    [
        REAL / "fabien-lessirard_dotfiles" / "session-2026-01-24T18-48-36d4e89a.json",  # Gemini
        REAL / "Xu-Wentao_dotfile" / "rollout-2026-04-08T22-02-46-019d6d67-1952-7e83-93ef-94497e3c15b6.jsonl",
        REAL
        / "EdofEngland_code_butler"
        / "rollout-2025-11-24T13-02-00-019ab73e-8c11-7ad2-b604-5987891db560.jsonl",
        REAL / "fabien-lessirard_dotfiles" / "0d783c0d-6315-4770-aa90-8e59abd50388.jsonl",  # Claude Code
    ],
    ids=lambda p: p.name[:20],
)
def test_each_call_says_what_stats_counts(path):
    """A result's time, outcome and diff are those its call was judged by: the time the latency is
    taken from (a Gemini result's own, not its message's), the outcome the state comes from, the diff
    stats counts (a Codex patch or a Claude Code edit, whose diff another record gives)."""
    calls = [one for one in dumped(path) if "id" in one]
    stats = json.loads(run("stats", "--json", str(path)).stdout)
    assert calls and len(calls) == stats["calls"]
    answered = [one for one in calls if one["results"]]
    for one in answered:
        first = one["results"][0]
        assert OUTCOME_STATE[first["outcome"]] == one["state"], one["id"]
        if one["latency_ms"] is not None and first["ts"] is not None:
            assert abs((first["ts"] - one["ts"]) * 1000 - one["latency_ms"]) < 1, one["id"]
    assert sum(1 for one in answered if one["results"][0]["has_diff"]) == stats["with_diff"]


def test_a_codex_commands_output_from_its_end_record_is_written():
    rollout = (
        REAL / "Xu-Wentao_dotfile" / "rollout-2026-04-08T22-02-46-019d6d67-1952-7e83-93ef-94497e3c15b6.jsonl"
    )
    outputs = [
        one["results"][0]["data"] for one in dumped(rollout) if "id" in one and one["tool"] == "exec_command"
    ]
    assert outputs and all(isinstance(data, str) for data in outputs)
    assert any("==> Fetching downloads for: font-maple-mono-nf-cn" in data for data in outputs)


def test_a_duplicate_request_keeps_its_violation(tmp_path):
    path = tmp_path / "twice.jsonl"
    with recording.RecordingWriter(str(path), {"room": "t"}) as rec:
        for stanza, ts in ((-1, 10.0), (-2, 10.5)):
            body = {"id": "a", "toolName": "calc", "execution": "client", "parameters": {"x": stanza}}
            envelope = alicia.encode_envelope(type_=6, body=body, conversation_id="c", stanza_id=stanza)
            rec.write("in", envelope, ts=ts)
    calls = dumped(path)
    assert [one["params"] for one in calls] == [{"x": -1}, {"x": -2}]
    assert calls[0]["violation"] is None
    assert "duplicate request id 'a'" in calls[1]["violation"]
    assert "duplicate request id" in run("check", str(path)).stdout


class Opaque:
    def __repr__(self) -> str:
        return "Opaque()"


def _deep(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def _cycle() -> dict:
    value: dict = {}
    value["self"] = value
    return value


HOSTILE = [
    {"a": [1, 2.5, None, True], "é": "ü"},
    float("nan"),
    {"x": float("inf"), "y": -float("inf")},
    10**5000,  # past the digit limit of int -> str
    2**70,
    b"\x00\xff",
    Opaque(),
    {1: "int key", 2.5: "float key", None: "none key", False: "bool key"},
    {(1, 2): "tuple key"},
    "\ud800 lone \udfff",
    "\x1b[2J\x07\x9b\x85 \u202e\u2066evil\u2069 \u2028\ufeff \U000e0041 \x7f",
    '\n\r\t\b\f\x00\x1f"\\',
    _deep(50),
    _deep(5000),
    _cycle(),
    ["a"] * 3,
]


@pytest.mark.parametrize("payload", HOSTILE, ids=range(len(HOSTILE)))
def test_the_one_pass_text_is_the_careful_ones(payload):
    request = Request("c1", "tool", "g", params=payload, ts=1.0)
    call = Call(request)
    call.results.append(
        Result("c1", Outcome.SUCCESS, "g", data=payload, ts=2.0, error_message="\x1b]0;t\x07")
    )
    try:
        careful = dumps_json(call_json(call, 2.0))
    except (RecursionError, ValueError) as exc:  # nested past what the encoder follows, or an int past
        # the digit limit that no reader makes (loads_json keeps its digits): the one pass fails alike
        with pytest.raises(type(exc)):
            call_json_text(call, 2.0)
        return
    text = call_json_text(call, 2.0)
    assert text == careful
    assert json.loads(text)["id"] == "c1"
    assert not any(ch in text for ch in "\x1b\x07\x9b\x85\u202e\u2028\x7f")
