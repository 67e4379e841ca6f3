"""The filter bar's language: ``tool:Bash* state:failed -id:ab "two words"`` parsed into a fast predicate.

Grammar (terms are separated by spaces and all must match):

- ``tool:GLOB``      tool name, a case-insensitive glob (``tool:web_*``; without ``*?[`` it is exact)
- ``state:STATE``    pending, overdue, succeeded, failed, timed_out, canceled, denied; aliases ok,
  error/err, timeout, cancelled; flags orphan, late, dup/duplicate, violation, answered, diff, and
  kinds call, message, malformed. ``is:`` is a synonym of ``state:``.
- ``exec:WHO``       server, client or either (who executes the call)
- ``id:PREFIX``      call id prefix, case-insensitive
- ``group:VALUE``    group / conversation (``conv:`` is a synonym): prefix, or a glob with ``*?[``
- anything else     free text: case-insensitive substring of the tool name, call id, parameter
  summary, error code/message, or message text

A ``!`` or ``-`` before a term negates it; ``"double quotes"`` keep spaces in a value (``\\"`` inside);
an unquoted value may list alternatives with commas (``state:failed,timeout``). The empty filter matches
everything. Matching never decodes payloads; lowercase search text is computed once per item and cached.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from inspector.model.call import OUTCOME_STATE, Call, Item, OrphanResult, State
from inspector.model.events import Executor, Malformed, Message

Predicate = Callable[[object, "float | None"], bool]


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
}

_STATE_ALIASES = {
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

STATE_WORDS = tuple(sorted(_STATE_ALIASES))
"""Every word ``state:`` accepts (for completion in the UI)."""

_TIME_STATES = {"pending", "overdue"}

_GLOB_CHARS = re.compile(r"[*?\[]")


# -- cached lowercase text ---------------------------------------------------------------------
_HAY: dict[int, tuple[object, int, str]] = {}
_HAY_LIMIT = 500_000
_LOWER: dict[str, str] = {}


def clear_cache() -> None:
    """Forget cached search text (a long session's store was discarded; it is also bounded anyway)."""
    _HAY.clear()
    _LOWER.clear()


def _lower(value: str) -> str:
    """Lowercase a short, often repeated string (tool names, groups) through a small cache."""
    low = _LOWER.get(value)
    if low is None:
        if len(_LOWER) > 10_000:
            _LOWER.clear()
        low = _LOWER[value] = value.lower()
    return low


def _haystack_parts(item: object) -> list[str]:
    if isinstance(item, Call):
        request = item.request
        parts = [request.tool, request.call_id, request.summary]
        for result in item.results:
            parts.append(result.error_code or "")
            parts.append(result.error_message or "")
        return parts
    if isinstance(item, OrphanResult):
        result = item.result
        return [result.tool, result.call_id, result.error_code or "", result.error_message or ""]
    if isinstance(item, Message):
        return [item.kind, item.text]
    if isinstance(item, Malformed):
        return [item.reason, item.where]
    return []


def haystack(item: object) -> str:
    """The lowercase text free-text terms search in (cached; refreshed when a call gets a result)."""
    version = len(item.results) if isinstance(item, Call) else 0
    key = id(item)
    hit = _HAY.get(key)
    if hit is not None and hit[0] is item and hit[1] == version:
        return hit[2]
    text = "\x00".join(_haystack_parts(item)).lower()
    if len(_HAY) >= _HAY_LIMIT:
        _HAY.clear()
    _HAY[key] = (item, version, text)  # the item is kept alive, so its id cannot be reused meanwhile
    return text


# -- predicates ------------------------------------------------------------------------------
def _item_state(item: object, now: float | None) -> State | None:
    if isinstance(item, Call):
        return item.state(now)
    if isinstance(item, OrphanResult):
        return OUTCOME_STATE.get(item.result.outcome)
    return None


def _is_duplicate(item: object) -> bool:
    if not isinstance(item, Call):
        return False
    violation = item.request.violation or ""
    return item.duplicates > 0 or violation.startswith("duplicate request id")


def _has_violation(item: object) -> bool:
    if isinstance(item, Call):
        return bool(item.request.violation) or any(r.extra.get("violation") for r in item.results)
    if isinstance(item, OrphanResult):
        return bool(item.result.extra.get("violation"))
    return False


_FLAG_TESTS: dict[str, Predicate] = {
    "orphan": lambda item, now: isinstance(item, OrphanResult),
    "late": lambda item, now: isinstance(item, Call) and item.late,
    "duplicate": lambda item, now: _is_duplicate(item),
    "violation": lambda item, now: _has_violation(item),
    "answered": lambda item, now: isinstance(item, Call) and item.answered,
    "diff": lambda item, now: isinstance(item, Call) and item.has_diff,
    "call": lambda item, now: isinstance(item, Call),
    "message": lambda item, now: isinstance(item, Message),
    "malformed": lambda item, now: isinstance(item, Malformed),
}


def _state_test(word: str) -> Predicate:
    flag = _FLAG_TESTS.get(word)
    if flag is not None:
        return flag
    wanted = State(word)
    return lambda item, now: _item_state(item, now) is wanted


def _tool_test(pattern: str) -> Predicate:
    low = pattern.lower()
    if not _GLOB_CHARS.search(low):
        return lambda item, now: _lower(_tool_of(item)) == low
    match = re.compile(fnmatch.translate(low)).match
    return lambda item, now: match(_lower(_tool_of(item))) is not None


def _tool_of(item: object) -> str:
    if isinstance(item, Call):
        return item.request.tool
    if isinstance(item, OrphanResult):
        return item.result.tool
    return "\x00"  # matches no pattern but "*"; messages have no tool


def _group_of(item: object) -> str | None:
    if isinstance(item, Call):
        return item.request.group
    if isinstance(item, OrphanResult):
        return item.result.group
    if isinstance(item, Message):
        return item.group
    return None


def _group_test(value: str) -> Predicate:
    low = value.lower()
    if _GLOB_CHARS.search(low):
        match = re.compile(fnmatch.translate(low)).match

        def by_glob(item: object, now: float | None) -> bool:
            group = _group_of(item)
            return group is not None and match(_lower(group)) is not None

        return by_glob

    def by_prefix(item: object, now: float | None) -> bool:
        group = _group_of(item)
        return group is not None and _lower(group).startswith(low)

    return by_prefix


def _id_test(prefix: str) -> Predicate:
    low = prefix.lower()
    size = len(low)

    def by_id(item: object, now: float | None) -> bool:
        if isinstance(item, (Call, OrphanResult)):
            return item.call_id[:size].lower() == low
        return False

    return by_id


def _exec_test(executor: Executor) -> Predicate:
    return lambda item, now: isinstance(item, Call) and item.request.executor is executor


def _text_test(needle: str) -> Predicate:
    low = needle.lower()
    return lambda item, now: low in haystack(item)


# -- terms and the filter ----------------------------------------------------------------------
@dataclass(frozen=True)
class Term:
    """One parsed term: ``field`` is tool/state/exec/id/group/text; ``values`` are ORed alternatives."""

    field: str
    values: tuple[str, ...]
    negated: bool
    start: int
    end: int
    test: Predicate

    def matches(self, item: object, now: float | None) -> bool:
        return bool(self.test(item, now)) is not self.negated

    @property
    def time_dependent(self) -> bool:
        return self.field == "state" and any(v in _TIME_STATES for v in self.values)


class Filter:
    """A parsed filter. ``matches(item, now)`` is the whole API; ``now`` is the store clock's time."""

    __slots__ = ("text", "terms", "_must", "_must_not")

    def __init__(self, text: str = "", terms: Iterable[Term] = ()) -> None:
        self.text = text
        self.terms = tuple(terms)
        self._must = tuple(t.test for t in self.terms if not t.negated)
        self._must_not = tuple(t.test for t in self.terms if t.negated)

    @property
    def empty(self) -> bool:
        """True when the filter has no terms and so matches everything."""
        return not self.terms

    @property
    def time_dependent(self) -> bool:
        """True when the result can change with the clock alone (state:pending/overdue): re-filter on ticks."""
        return any(term.time_dependent for term in self.terms)

    def matches(self, item: Item | object, now: float | None = None) -> bool:
        """True when every term matches ``item`` (a Call, OrphanResult, Message or Malformed)."""
        for test in self._must:
            if not test(item, now):
                return False
        for test in self._must_not:
            if test(item, now):
                return False
        return True

    def matches_tree(self, item: Item | object, now: float | None = None) -> bool:
        """True when ``item`` or anything nested under it matches (to keep a parent call visible)."""
        if self.matches(item, now):
            return True
        if isinstance(item, Call):
            return any(self.matches_tree(child, now) for child in item.children)
        return False

    def select(self, items: Iterable[Item], now: float | None = None) -> list[Item]:
        """The items that match, in order (no descent into children)."""
        if not self.terms:
            return list(items)
        return [item for item in items if self.matches(item, now)]

    def __repr__(self) -> str:
        return f"Filter({self.text!r})"


def parse_filter(text: str) -> Filter:
    """Parse the filter bar's text; raises FilterError (with a column) when it is not valid."""
    return Filter(text, [_compile(token) for token in _tokens(text)])


# -- parsing -----------------------------------------------------------------------------------
@dataclass
class _Token:
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


def _tokens(text: str) -> Iterable[_Token]:
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
            yield _Token(None, "", value, True, negated, start, start + int(negated), pos)
            continue
        word_end = _read_bare(text, pos)
        colon = text.find(":", pos, word_end)
        key_text = text[pos:colon] if colon > pos else ""
        if not key_text:
            yield _Token(None, "", text[pos:word_end], False, negated, start, pos, word_end)
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
            yield _Token(None, "", text[pos:word_end], False, negated, start, pos, word_end)
            pos = word_end
            continue
        value_start = colon + 1
        if value_start < size and text[value_start] == '"':
            value, pos = _read_quoted(text, value_start)
            yield _Token(key, key_text, value, True, negated, start, value_start, pos)
            continue
        yield _Token(key, key_text, text[value_start:word_end], False, negated, start, value_start, word_end)
        pos = word_end


def _values(token: _Token) -> tuple[str, ...]:
    if token.key is not None and not token.value:
        raise FilterError(f"'{token.key_text}:' needs a value", token.start, token.value_start)
    if token.quoted or token.key is None:
        return (token.value,)
    parts = token.value.split(",")
    if any(not p for p in parts):
        raise FilterError("empty alternative in a comma list", token.value_start, token.end)
    return tuple(parts)


def _compile(token: _Token) -> Term:
    values = _values(token)
    field = token.key or "text"
    if field == "state":
        words = []
        for value in values:
            word = _STATE_ALIASES.get(value.lower())
            if word is None:
                raise FilterError(
                    f"unknown state '{value}' (try pending, overdue, succeeded, failed, timed_out, "
                    "canceled, denied, orphan, late, dup, violation, answered)",
                    token.value_start,
                    token.end,
                )
            words.append(word)
        values = tuple(words)
        tests = [_state_test(word) for word in values]
    elif field == "exec":
        tests = []
        for value in values:
            try:
                executor = Executor(value.lower())
            except ValueError:
                raise FilterError(
                    f"exec: takes server, client or either, not '{value}'", token.value_start, token.end
                ) from None
            tests.append(_exec_test(executor))
    else:
        make = {"tool": _tool_test, "id": _id_test, "group": _group_test, "text": _text_test}[field]
        tests = [make(value) for value in values]
    test = tests[0] if len(tests) == 1 else _any_of(tests)
    return Term(field, values, token.negated, token.start, token.end, test)


def _any_of(tests: list[Predicate]) -> Predicate:
    return lambda item, now: any(t(item, now) for t in tests)
