"""textsafe: every character that could act on a terminal or hide text gets a visible stand-in."""

from __future__ import annotations

import pytest

from inspector.textsafe import clean, one_line, summarize


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("a\x1b[31mb", "a␛[31mb"),
        ("osc\x1b]52;c;aGk=\x07", "osc␛]52;c;aGk=␇"),
        ("nul\x00del\x7f", "nul␀del␡"),
        ("cr\rlf", "cr␍lf"),
        ("c1\x9bcsi\x85nel", "c1\\u009bcsi\\u0085nel"),
        ("rlo\u202eevil", "rlo\\u202eevil"),
        ("iso\u2066x\u2069", "iso\\u2066x\\u2069"),
        ("zw\u200bsp\ufeff", "zw\\u200bsp\\ufeff"),
        ("soft\xadhyphen", "soft\\u00adhyphen"),
        ("tag\U000e0041\U000e007f", "tag\\U000e0041\\U000e007f"),
        ("lone\ud800surrogate\udfff", "lone\ufffdsurrogate\ufffd"),
        ("tab\there", "tab    here"),
    ],
)
def test_clean_makes_each_hazard_visible(raw, shown):
    assert clean(raw) == shown
    shown.encode("utf-8")


def test_clean_keeps_ordinary_text_and_newlines():
    text = "héllo wörld 日本語 🎉\nsecond [bold]line[/bold]"
    assert clean(text) == text
    assert clean("a\nb", keep_newlines=False) == "a⏎b"
    assert clean("a\r\nb", keep_newlines=False) == "a⏎b"


def test_clean_accepts_non_strings():
    assert clean(12) == "12"  # type: ignore[arg-type]


def test_one_line_cuts_and_flattens():
    assert one_line("x" * 500, 10) == "x" * 9 + "…"
    assert one_line("a\nb\x1b", 10) == "a⏎b␛"


def test_summarize_a_parameter_map():
    assert summarize({"command": "ls\x1b[2J"}) == "ls␛[2J"
    assert summarize({"a": 1, "b": [1, 2], "c": {"x": 1}}) == "a=1, b=[2], c={…}"
