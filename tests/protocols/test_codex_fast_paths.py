"""The Codex reader's short cuts give what the long way gives: a text handed to msgspec as it is (calls._loads)
reads as ``values.loads_json`` reads it, and a summary's scalar is written as ``json.dumps`` writes it."""

from __future__ import annotations

import json

import pytest

from inspector.model import values
from inspector.protocols.codex import calls
from inspector.protocols.common.values import _scalar, arguments_summary, preview

TEXTS = [
    '{"output": "ok", "metadata": {"exit_code": 3, "duration_seconds": 1.5}}',
    '  \n\t{"a": 1}  \n',
    '\x0c{"a": 1}',  # a blank lstrip takes off and JSON has none of
    '\u2028{"a": 1}',
    '{"a": "\ud800"}',  # a lone surrogate in the text itself
    '{"a": "\\ud800 and \\udc00"}',  # lone surrogates escaped
    '{"a": "\\ud83d\\ude00"}',  # a pair escaped
    '{"a": NaN}',
    '{"a": 1e400}',
    '{"a": ' + "9" * 5000 + "}",  # past Python's digit limit
    '{"a": 123456789012345678901234567890}',
    "[" * 300 + "]" * 300,
    '{"a": ' + "[" * 300 + "]" * 300 + "}",
    '{"a": 1} trailing',
    '{"a": "\x01"}',  # a raw control character
    '\x00{"a": 1}\x00',
    '{"a": 1, "a": 2}',
    "",
    "   ",
    "{bad",
    '"just text"',
    "[1, 2.5, true, null]",
    '{"emoji": "\U0001f600", "cjk": "\u4e2d\u6587\uff0c"}',
]


@pytest.mark.parametrize("text", TEXTS)
def test_text_read_as_loads_json_reads_it(text: str) -> None:
    assert repr(calls._loads(text)) == repr(values.loads_json(text))
    assert repr(calls._loads(text, stripped=True)) == repr(values.loads_json(text.lstrip()))


@pytest.mark.parametrize("text", TEXTS)
def test_exit_code_and_body_of_odd_texts(text: str) -> None:
    """exit_code and body read a JSON output through the short cut: the same as through loads_json."""
    value, _ = values.loads_json(text.lstrip())
    meta = value.get("metadata") if isinstance(value, dict) else None
    code = meta.get("exit_code") if isinstance(meta, dict) else None
    if text.lstrip().startswith("{") and isinstance(code, int):
        assert calls.exit_code(text) == code
    calls.body(text)  # never raises


SCALARS = [0, -1, 7, 10**30, -(10**30), 10**4299, 10**4300, True, False, None, 1.5, -0.0,
           float("inf"), float("-inf"), float("nan"), 1e300, "text", "", [1], {"a": 1}, (1, 2)]  # fmt: skip


def _scalar_long_way(item: object) -> str:
    if item is None or isinstance(item, (bool, int, float)):
        try:
            return json.dumps(item)
        except ValueError:
            return "<huge number>"
    return str(item)


@pytest.mark.parametrize("item", SCALARS, ids=lambda item: type(item).__name__)
def test_scalar_as_json_writes_it(item: object) -> None:
    if isinstance(item, (list, dict)):
        return
    assert _scalar(item) == _scalar_long_way(item)


def test_summary_of_scalars_as_their_preview() -> None:
    """A value that is neither text nor a container is written as preview writes it, at any budget."""
    for limit in (1, 5, 200):
        for item in SCALARS:
            args = {"a": "x" * (limit - 1), "b": item, "c": item}
            parts = []
            used = 0
            for key, value in args.items():  # the loop of arguments_summary, through preview
                if used >= limit:
                    break
                shown = value[:limit] if isinstance(value, str) else preview(value, limit - used)
                parts.append(f"{key}={shown}")
                used += len(parts[-1]) + 1
            assert arguments_summary(args, limit) == " ".join(parts)
