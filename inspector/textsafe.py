"""Make session text inert before it reaches a terminal: no escapes, no control or bidi characters."""

from __future__ import annotations

import re

# C0 and C1 controls except tab and newline, DEL, plus bidi overrides/isolates and other invisible
# formatting characters that can reorder or hide what a person reads (soft hyphen, interlinear
# annotation marks, and the Unicode tag characters used to smuggle invisible text into prompts).
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e"
    "\u2060-\u2069\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)

_SURROGATE = re.compile("[\ud800-\udfff]")


def _visible(match: re.Match[str]) -> str:
    ch = match.group(0)
    code = ord(ch)
    if code == 0x1B:
        return "␛"
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␀ ␁ ... ␟
    if code == 0x7F:
        return "␡"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def clean(text: str, keep_newlines: bool = True) -> str:
    """Replace every character that could act on a terminal with a visible stand-in.

    Tabs become spaces (so widths are predictable); newlines stay unless ``keep_newlines`` is false,
    in which case they show as ``⏎``. Lone surrogates become U+FFFD.
    """
    if not isinstance(text, str):
        text = str(text)
    if text.isprintable():  # the common case: no control, format (bidi) or surrogate characters
        return text
    if "\t" in text:
        text = text.replace("\t", "    ")
    if not keep_newlines:
        text = text.replace("\r\n", "⏎").replace("\n", "⏎")
        if text.isprintable():  # its line ends (and tabs) were all that was unsafe: nothing else to do
            return text
    text = _UNSAFE.sub(_visible, text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = _SURROGATE.sub("\ufffd", text)
    return text


def char_for_char(text: str) -> str:
    """``text`` with each character :func:`clean` replaces (and each lone surrogate, and a newline) replaced
    by one visible character: a control picture (``␛`` for ESC) for C0 controls and DEL, U+FFFD for the
    rest. As long as ``text``, character for character (an editable field maps its cursor by index)."""
    if text.isprintable():
        return text
    return _SURROGATE.sub("\ufffd", _UNSAFE_OR_NEWLINE.sub(_one_visible, text))


_UNSAFE_OR_NEWLINE = re.compile(f"{_UNSAFE.pattern[:-1]}\n]")


def _one_visible(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return chr(0x2400 + code) if code < 0x20 else "␡" if code == 0x7F else "\ufffd"


def one_line(text: str, limit: int = 120) -> str:
    """A cleaned single-line preview of at most ``limit`` characters."""
    text = clean(text[: limit * 4] if isinstance(text, str) else str(text), keep_newlines=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summarize(value: object, limit: int = 100) -> str:
    """A short one-line summary of tool parameters: ``key=value, key=value`` for a map."""
    if isinstance(value, dict):
        parts = []
        size = 0
        for key, item in value.items():
            if isinstance(item, str):
                text = item[:limit]
            elif isinstance(item, (int, float, bool)) or item is None:
                text = str(item)
            elif isinstance(item, (dict, list)):
                text = "{…}" if isinstance(item, dict) else f"[{len(item)}]"
            else:
                text = type(item).__name__
            part = text if len(value) == 1 else f"{key}={text}"
            parts.append(part)
            size += len(part) + 2
            if size > limit:
                break
        return one_line(", ".join(parts), limit)
    if isinstance(value, str):
        return one_line(value, limit)
    if isinstance(value, list):
        return one_line(f"[{len(value)} items]", limit)
    return one_line(str(value), limit)


# -- Markdown --------------------------------------------------------------------------------
# What can start a construct mid-line: emphasis, code, links and images, tables, strikethrough; an
# underscore only at a word's edge (inside a word, as in ``web_search``, it is plain text).
_MD_SPECIAL = re.compile(r"[\\`*\[\]!|~]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
_MD_HTML = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def md_text(text: str) -> str:
    """Session text for a Markdown heading or paragraph: inert (no link, image, HTML or emphasis)."""
    text = one_line(text, 10_000)
    text = "".join(_MD_HTML.get(ch, ch) for ch in text) if any(ch in text for ch in "<>&") else text
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(0), text)


def md_code(text: str) -> str:
    """Session text as one Markdown code span: a fence longer than any run of backticks inside."""
    text = one_line(text, 10_000)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"
