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


def test_a_one_line_text_whose_only_hazards_were_line_ends_and_tabs_is_shown_as_the_full_pass_shows_it():
    """clean(keep_newlines=False) returns once its line ends and tabs are replaced when what is left is
    printable: the same text as running every hazard's replacement over it, for texts mixing line ends,
    tabs and each kind of hazard (every character the replacement acts on is one str.isprintable refuses)."""
    import random
    import re

    from inspector import textsafe

    hazards = [chr(c) for c in range(0x00, 0x20)] + [chr(c) for c in range(0x7F, 0xA0)]
    hazards += ["\xad", "\u061c", "\u180e", "\u200b", "\u200f", "\u2028", "\u2029", "\u202e", "\u2066"]
    hazards += ["\u2065", "\ufeff", "\ufffa", "\U000e0000", "\U000e0041", "\ud800", "\udfff"]
    plain = ["a", " ", "é", "€", "中", "😀", "\u0301", "\n", "\r\n", "\t", "\r"]

    def full_pass(text: str) -> str:
        text = text.replace("\t", "    ").replace("\r\n", "⏎").replace("\n", "⏎")
        text = textsafe._UNSAFE.sub(textsafe._visible, text)
        return re.sub("[\ud800-\udfff]", "\ufffd", text)

    assert all(
        not ch.isprintable() for ch in hazards if textsafe._UNSAFE.match(ch) or "\ud800" <= ch <= "\udfff"
    )
    rng = random.Random(23)
    for _ in range(20_000):
        pieces = rng.choices(plain, k=rng.randint(0, 12))
        if rng.random() < 0.5:
            pieces.insert(rng.randint(0, len(pieces)), rng.choice(hazards))
        text = "".join(pieces)
        assert clean(text, keep_newlines=False) == full_pass(text), repr(text)
