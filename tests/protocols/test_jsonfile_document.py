"""A JSON document read whole (one object, orjson) or item by item: the same values, spans and errors."""

from __future__ import annotations

from pathlib import Path

import inspector.protocols.common.jsonfile as _jsonfile


def _chunks(path: Path) -> list[tuple[str, int, int, int, object, str | None]]:
    return [(c.where, c.offset, c.length, c.line, c.value, c.error) for c in _jsonfile.read_chunks(str(path))]


def test_one_object_keeps_span_line_and_exact_integers(tmp_path: Path) -> None:
    big = "9" * 5000  # past Python's digit limit: kept as its digits, never a ValueError
    body = '{\n "n": 18446744073709551617,\n "big": ' + big + ',\n "s": "é\\ud800",\n "m": [1, 2]\n}'
    path = tmp_path / "doc.json"
    path.write_bytes(b"\n\n  " + body.encode() + b"\n \n")
    [(where, offset, length, line, value, error)] = _chunks(path)
    assert (where, offset, line, error) == ("line 3", 4, 3, None)
    assert path.read_bytes()[offset : offset + length] == body.encode()
    assert isinstance(value, dict)
    assert value["n"] == 18446744073709551617 and value["big"] == big and value["s"] == "é\ufffd"


def test_members_keep_integers_past_the_digit_limit(tmp_path: Path) -> None:
    big = "7" * 4400
    path = tmp_path / "doc.json"
    path.write_text('{\n"messages": [{"id": "a", "n": ' + big + '}, {"id": "b", "n": 3}]\n}\n')
    [chunk] = _jsonfile.read_chunks(str(path))
    items = [item for _, item in _jsonfile.member_chunks(path.read_bytes(), chunk)]
    assert [(i.where, i.value) for i in items] == [("line 2 messages[0]", {"id": "a", "n": big}),
                                                    ("line 2 messages[1]", {"id": "b", "n": 3})]  # fmt: skip


def test_what_is_not_one_object_takes_the_general_path(tmp_path: Path) -> None:
    path = tmp_path / "docs.json"
    path.write_bytes(b'{\n"a": 1}\n{"b": [2,\n')  # two documents, the second broken
    found = _chunks(path)
    assert found[0][4] == {"a": 1} and found[0][:4] == ("line 1", 0, 9, 1)
    assert found[1][4] is None and found[1][5] is not None
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{\n"a": "\xff"\n}\n')  # not UTF-8: read with U+FFFD, and said
    [(_, _, _, _, value, error)] = _chunks(bad)
    assert value == {"a": "\ufffd"} and error is None
    [chunk] = _jsonfile.read_chunks(str(bad))
    assert chunk.note is not None and "invalid UTF-8" in chunk.note


def test_a_member_item_nested_too_deeply_costs_only_itself(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    path = tmp_path / "doc.json"
    path.write_text('{"messages": [{"id": "a"}, ' + deep + ', {"id": "b"}], "x": {"y": 1}}\n')
    [chunk] = _jsonfile.read_chunks(str(path))
    items = list(_jsonfile.member_chunks(path.read_bytes(), chunk))
    found = [
        (key, item.value if key != "messages" or item.value != items[1][1].value else "deep", item.error)
        for key, item in items
    ]
    assert found == [
        ("messages", {"id": "a"}, None),
        ("messages", "deep", None),  # read with a stand-in past 200 levels, and said
        ("messages", {"id": "b"}, None),
        ("x", {"y": 1}, None),
    ]
    deep_item = items[1][1]
    assert deep_item.note is not None and "nested 100000 levels deep" in deep_item.note
    value = deep_item.value
    for _ in range(200):
        assert isinstance(value, list) and len(value) == 1
        value = value[0]
    assert value == "(nested too deeply to show)"
