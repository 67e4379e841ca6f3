"""The filter bar's syntax: terms, fields, quotes, negation and comma lists, with errors that say where."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class FilterError(ValueError):
    """A filter that cannot be parsed: ``message`` says why, ``position``/``end`` say where (0-based)."""

    def __init__(self, message: str, position: int, end: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position
        self.end = position + 1 if end is None else end

    def __str__(self) -> str:
        return f"{self.message} (column {self.position + 1})"


# -- field aliases ---------------------------------------------------------------------------
FIELDS = {
    "tool": "tool",
    "state": "state",
    "is": "state",
    "exec": "exec",
    "executor": "exec",
    "execution": "exec",
    "id": "id",
    "group": "group",
    "conv": "group",
    "conversation": "group",
    "param": "param",
    "params": "param",
    "result": "result",
    "results": "result",
    "error": "error",
    "errors": "error",
}

STATE_ALIASES = {
    "ok": "succeeded",
    "success": "succeeded",
    "succeeded": "succeeded",
    "error": "failed",
    "err": "failed",
    "fail": "failed",
    "failed": "failed",
    "timeout": "timed_out",
    "timed_out": "timed_out",
    "timed-out": "timed_out",
    "timedout": "timed_out",
    "canceled": "canceled",
    "cancelled": "canceled",
    "cancel": "canceled",
    "denied": "denied",
    "pending": "pending",
    "overdue": "overdue",
    "dup": "duplicate",
    "duplicate": "duplicate",
    "duplicates": "duplicate",
    "orphan": "orphan",
    "late": "late",
    "violation": "violation",
    "answered": "answered",
    "diff": "diff",
    "call": "call",
    "message": "message",
    "msg": "message",
    "malformed": "malformed",
}

STATE_WORDS = tuple(sorted(STATE_ALIASES))
"""Every word ``state:`` accepts (for completion in the UI)."""


# -- parsing -----------------------------------------------------------------------------------
@dataclass
class Token:
    key: str | None
    key_text: str
    value: str
    quoted: bool
    negated: bool
    start: int
    value_start: int
    end: int


def _read_quoted(text: str, pos: int) -> tuple[str, int]:
    """Read a quoted string starting at the quote at ``pos``; returns (value, position after it)."""
    out: list[str] = []
    i = pos + 1
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in '"\\':
            out.append(text[i + 1])
            i += 2
            continue
        if ch == '"':
            end = i + 1
            if end < len(text) and not text[end].isspace():
                raise FilterError("put a space after the closing quote", end)
            return "".join(out), end
        out.append(ch)
        i += 1
    raise FilterError("this quote is never closed", pos, len(text))


def _read_bare(text: str, pos: int) -> int:
    end = pos
    while end < len(text) and not text[end].isspace():
        end += 1
    return end


def tokens(text: str) -> Iterable[Token]:
    pos = 0
    size = len(text)
    while pos < size:
        if text[pos].isspace():
            pos += 1
            continue
        start = pos
        negated = text[pos] in "!-"
        if negated:
            pos += 1
            if pos >= size or text[pos].isspace():
                raise FilterError(f"'{text[start]}' negates the term after it, but nothing follows", start)
        if text[pos] == '"':
            value, pos = _read_quoted(text, pos)
            yield Token(None, "", value, True, negated, start, start + int(negated), pos)
            continue
        word_end = _read_bare(text, pos)
        colon = text.find(":", pos, word_end)
        key_text = text[pos:colon] if colon > pos else ""
        if not key_text:
            yield Token(None, "", text[pos:word_end], False, negated, start, pos, word_end)
            pos = word_end
            continue
        key = FIELDS.get(key_text.lower())
        if key is None:
            if key_text.isalpha():
                known = ", ".join(sorted({k for k in FIELDS if FIELDS[k] == k}))
                raise FilterError(
                    f"unknown field '{key_text}:' (fields: {known}); quote text that contains a colon",
                    pos,
                    colon + 1,
                )
            yield Token(None, "", text[pos:word_end], False, negated, start, pos, word_end)
            pos = word_end
            continue
        value_start = colon + 1
        if value_start < size and text[value_start] == '"':
            value, pos = _read_quoted(text, value_start)
            yield Token(key, key_text, value, True, negated, start, value_start, pos)
            continue
        yield Token(key, key_text, text[value_start:word_end], False, negated, start, value_start, word_end)
        pos = word_end


def values_of(token: Token) -> tuple[str, ...]:
    if token.key is not None and not token.value:
        raise FilterError(f"'{token.key_text}:' needs a value", token.start, token.value_start)
    if token.quoted or token.key is None:
        return (token.value,)
    parts = token.value.split(",")
    if any(not p for p in parts):
        raise FilterError("empty alternative in a comma list", token.value_start, token.end)
    if len(parts) > MAX_ALTERNATIVES:
        raise FilterError(
            f"at most {MAX_ALTERNATIVES:,} alternatives in one term ({len(parts):,} given)",
            token.value_start,
            token.end,
        )
    return tuple(parts)


MAX_ALTERNATIVES = 1000
"""Alternatives one comma list may hold: every row is tested against them on each change of the list,
on the UI's thread (5,000 of them on 10,000 calls took 26 s with the keys dead)."""
