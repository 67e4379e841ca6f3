"""Format detection looks past a first record longer than the head (issue 9: one record never hides the rest)."""

from __future__ import annotations

import json

import pytest

from inspector import protocols

LONG = "x" * (3 * protocols.HEAD_BYTES)

# one ordinary record of each line-oriented format, and a first record whose leading field is huge
SAMPLES = {
    "lmkit": (
        {"Id": "k2", "Name": "get_weather", "ArgumentsJson": "{}"},
        {"Id": LONG, "Name": "get_weather", "ArgumentsJson": "{}"},
    ),
    "rap": (
        {"type": "tool_call", "tool_call_id": "t2", "thread_id": "th", "name": "x", "arguments": {}},
        {
            "arguments": {"blob": LONG},
            "type": "tool_call",
            "tool_call_id": "t1",
            "thread_id": "th",
            "name": "x",
        },
    ),
    "claude": (
        {"type": "user", "sessionId": "s", "uuid": "u2", "message": {"role": "user", "content": "hi"}},
        {"sessionId": LONG, "type": "user", "uuid": "u1", "message": {"role": "user", "content": "hi"}},
    ),
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_huge_first_record_does_not_hide_the_format_of_the_rest(tmp_path, name):
    good, huge = SAMPLES[name]
    path = tmp_path / "case.jsonl"
    path.write_text(json.dumps(huge) + "\n" + json.dumps(good) + "\n")
    assert protocols.detect(str(path)).NAME == name


def test_a_file_of_one_huge_unknown_line_is_still_unknown_and_ends(tmp_path):
    path = tmp_path / "case.jsonl"
    path.write_text(json.dumps({"what": LONG}) + "\n" + json.dumps({"what": "else"}) + "\n")
    with pytest.raises(protocols.UnknownFormat):
        protocols.detect(str(path))


def test_a_head_of_several_lines_is_decided_by_the_head_alone(tmp_path):
    path = tmp_path / "case.jsonl"
    good, _ = SAMPLES["lmkit"]
    path.write_text(json.dumps({"what": "no"}) + "\n" + json.dumps(good) + "\n")
    assert protocols.detect(str(path)).NAME == "lmkit"
