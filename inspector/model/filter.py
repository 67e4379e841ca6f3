"""The filter bar's language: ``tool:Bash* state:failed -id:ab "two words"`` parsed into a fast predicate.

Grammar (terms are separated by spaces and all must match):

- ``tool:GLOB``      tool name, a case-insensitive glob (``tool:web_*``; without ``*?[`` it is exact)
- ``state:STATE``    a call's state: pending, overdue, succeeded, failed, timed_out, canceled, denied
  (the names the status bar, the CLI and the JSON use; older spellings ok, error/err, timeout,
  cancelled are accepted); flags orphan, late, dup/duplicate, violation, answered, diff, and kinds
  call, message, malformed. ``is:`` is a synonym of ``state:``. A state matches calls only, as the
  status bar counts them: an orphan result is ``state:orphan``, whatever it says.
- ``exec:WHO``       server, client or either (who executes the call)
- ``id:PREFIX``      call id prefix, case-insensitive
- ``group:VALUE``    group / conversation (``conv:`` is a synonym): prefix, or a glob with ``*?[``
- ``param:TEXT``    a case-insensitive substring of the call's parameters (keys and values, as they read)
- ``result:TEXT``   ... of its results (the output, and the structured details such as a diff or a file)
- ``error:TEXT``    ... of its error code, error message or the output of a failed result
- anything else     free text: case-insensitive substring of the tool name, call id, parameter
  summary, error code/message, message text, or the call's parameters and results

A ``!`` or ``-`` before a term negates it; ``"double quotes"`` keep spaces in a value (``\\"`` inside);
an unquoted value may list alternatives with commas (``state:failed,timed_out``). The empty filter matches
everything. Searching payloads goes through ``Payloads`` (in memory by default; re-read from the files when
a big session dropped them) and each item's answer is remembered by the term.
"""

from __future__ import annotations

import fnmatch
import math
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from inspector.model.call import ALSO_IN, Call, Item, OrphanResult, State
from inspector.model.events import Executor, Malformed, Message
from inspector.model.filter_syntax import (
    FIELDS,
    STATE_ALIASES,
    STATE_WORDS,
    FilterError,
    Token,
    tokens,
    values_of,
)
from inspector.model.search import Payloads, Texts, deep_test

__all__ = [
    "FIELDS",
    "STATE_WORDS",
    "Filter",
    "FilterError",
    "Term",
    "clear_cache",
    "haystack",
    "parse_filter",
]

Predicate = Callable[[object, "float | None"], bool]


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
    """Case-fold a short, often repeated string (tool names, groups) through a small cache (every compare
    of the filter folds both sides with ``str.casefold``: "İ", "ß" and "ﬁ" match as typed)."""
    low = _LOWER.get(value)
    if low is None:
        if len(_LOWER) > 10_000:
            _LOWER.clear()
        low = _LOWER[value] = value.casefold()
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
    text = "\x00".join(_haystack_parts(item)).casefold()
    if len(_HAY) >= _HAY_LIMIT:
        _HAY.clear()
    _HAY[key] = (item, version, text)  # the item is kept alive, so its id cannot be reused meanwhile
    return text


# -- predicates ------------------------------------------------------------------------------
def _item_state(item: object, now: float | None) -> State | None:
    """A call's state; None for anything else (an orphan result is counted as an orphan, not by what it
    says, in the status bar as in the filter)."""
    return item.state(now) if isinstance(item, Call) else None


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
    low = pattern.casefold()
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


def _also_in(item: object) -> str | None:
    """The second group of a call that belongs to two (see :data:`inspector.model.call.ALSO_IN`)."""
    if isinstance(item, Call):
        also = item.request.extra.get(ALSO_IN)
        return also if isinstance(also, str) and also else None
    return None


def _group_test(value: str) -> Predicate:
    low = value.casefold()
    if _GLOB_CHARS.search(low):
        match = re.compile(fnmatch.translate(low)).match

        def by_glob(item: object, now: float | None) -> bool:
            group, also = _group_of(item), _also_in(item)
            return (group is not None and match(_lower(group)) is not None) or (
                also is not None and match(_lower(also)) is not None
            )

        return by_glob

    def by_prefix(item: object, now: float | None) -> bool:
        group, also = _group_of(item), _also_in(item)
        return (group is not None and _lower(group).startswith(low)) or (
            also is not None and _lower(also).startswith(low)
        )

    return by_prefix


def _groups_test(values: tuple[str, ...]) -> Predicate:
    """One test for a list of group prefixes and globs: one ``startswith`` for the prefixes, one regex for
    the globs (a test per alternative made 1,000 groups on 10,000 calls take 8 s)."""
    lows = [value.casefold() for value in values]
    prefixes = tuple(low for low in lows if not _GLOB_CHARS.search(low))
    globs = [fnmatch.translate(low) for low in lows if _GLOB_CHARS.search(low)]
    match = re.compile("|".join(globs)).match if globs else None

    def one(group: str | None) -> bool:
        if group is None:
            return False
        low = _lower(group)
        return low.startswith(prefixes) or (match is not None and match(low) is not None)

    def by_groups(item: object, now: float | None) -> bool:
        return one(_group_of(item)) or one(_also_in(item))

    return by_groups


def _states_test(words: tuple[str, ...]) -> Predicate:
    """One test for a list of states and flags: the item's state is asked once, then looked up in a set
    (a test per alternative asked it again for each: 1,000 states on 10,000 calls took 5 s)."""
    flags = [_FLAG_TESTS[word] for word in words if word in _FLAG_TESTS]
    states = frozenset(State(word) for word in words if word not in _FLAG_TESTS)

    def by_states(item: object, now: float | None) -> bool:
        if states and _item_state(item, now) in states:
            return True
        return any(flag(item, now) for flag in flags)

    return by_states


def _tools_test(patterns: tuple[str, ...]) -> Predicate:
    """One test for a list of tool names and globs: a set for the names, one regex for the globs (a
    test per alternative cost a Python call per row and alternative)."""
    lows = [pattern.casefold() for pattern in patterns]
    names = frozenset(low for low in lows if not _GLOB_CHARS.search(low))
    globs = [fnmatch.translate(low) for low in lows if _GLOB_CHARS.search(low)]
    match = re.compile("|".join(globs)).match if globs else None

    def by_tool(item: object, now: float | None) -> bool:
        tool = _lower(_tool_of(item))
        return tool in names or (match is not None and match(tool) is not None)

    return by_tool


def _ids_test(prefixes: tuple[str, ...]) -> Predicate:
    """One test for a list of id prefixes (``str.startswith`` takes them all at once)."""
    lows = tuple(prefix.casefold() for prefix in prefixes)
    size = max(len(low) for low in lows)

    def by_ids(item: object, now: float | None) -> bool:
        return isinstance(item, (Call, OrphanResult)) and item.call_id[:size].casefold().startswith(lows)

    return by_ids


def _id_test(prefix: str) -> Predicate:
    low = prefix.casefold()
    size = len(low)

    def by_id(item: object, now: float | None) -> bool:
        # the id's first ``size`` characters fold to at least ``size`` (casefold never shortens): "İ"
        # folds to two, so comparing slices of equal length missed an id starting with it
        if isinstance(item, (Call, OrphanResult)):
            return item.call_id[:size].casefold().startswith(low)
        return False

    return by_id


def _exec_test(executor: Executor) -> Predicate:
    return lambda item, now: isinstance(item, Call) and item.request.executor is executor


def _text_test(needle: str, payloads: Payloads | None, texts: Texts) -> Predicate:
    low = needle.casefold()
    deep = deep_test((low,), "any", payloads, texts)
    return lambda item, now: low in haystack(item) or deep(item)


def _payload_test(field: str, values: tuple[str, ...], payloads: Payloads | None, texts: Texts) -> Predicate:
    lows = tuple(value.casefold() for value in values)
    deep = deep_test(lows, field, payloads, texts)
    if field != "error":
        return lambda item, now: deep(item)

    def in_error(item: object, now: float | None) -> bool:
        results = (
            item.results
            if isinstance(item, Call)
            else [item.result]
            if isinstance(item, OrphanResult)
            else []
        )
        said = "\x00".join(f"{r.error_code or ''}\x00{r.error_message or ''}" for r in results).casefold()
        return any(low in said for low in lows) or deep(item)

    return in_error


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
    def highlights(self) -> tuple[str, ...]:
        """The text the filter looks for (free text, param:, result:, error:), to mark in the detail."""
        return tuple(v for t in self.terms if t.field in _SEARCHED and not t.negated for v in t.values if v)

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

    def judge(
        self,
        items: Sequence[Item],
        now: float | None = None,
        *,
        start: int = 0,
        until: float = math.inf,
        cancelled: Callable[[], bool] = lambda: False,
        breathe: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> int:
        """Ask the filter about ``items[start:]`` and everything nested under them, so that asking again
        is answered from memory (payload terms remember each item's answer): the slow part of a filter,
        done where it may take its time (a thread, or a slice of the UI's).

        Returns the index reached: ``len(items)`` when done, less when ``cancelled()`` turned true or
        ``clock()`` passed ``until``. ``breathe`` > 0: every ``breathe`` seconds the interpreter lock is
        let go (``time.sleep(0)``), so a UI thread waiting for it takes it at once.
        """
        if not self.terms:
            return len(items)
        next_breath = clock() + breathe if breathe > 0 else math.inf
        index = start
        while index < len(items):
            if cancelled():
                return index
            stack: list[object] = [items[index]]
            while stack:
                item = stack.pop()
                self.matches(item, now)
                if isinstance(item, Call) and item.children:
                    stack.extend(item.children)
            index += 1
            moment = clock()
            if moment >= until:
                return index
            if moment >= next_breath:
                time.sleep(0)  # lets the interpreter lock go: a thread waiting for it takes it now
                next_breath = clock() + breathe
        return index

    def select(self, items: Iterable[Item], now: float | None = None) -> list[Item]:
        """The items that match, in order (no descent into children)."""
        if not self.terms:
            return list(items)
        return [item for item in items if self.matches(item, now)]

    def __repr__(self) -> str:
        return f"Filter({self.text!r})"


_SEARCHED = frozenset({"text", "param", "result", "error"})


def parse_filter(text: str, payloads: Payloads | None = None) -> Filter:
    """Parse the filter bar's text; raises FilterError (with a column) when it is not valid.

    ``payloads`` reaches the calls' parameters and results (default: the ones in memory).
    """
    texts = Texts()  # the terms flatten an item's payloads once between them
    return Filter(text, [_compile(token, payloads, texts) for token in tokens(text)])


def _compile(token: Token, payloads: Payloads | None, texts: Texts) -> Term:
    values = values_of(token)
    field = token.key or "text"
    if field == "state":
        words = []
        for value in values:
            word = STATE_ALIASES.get(value.casefold())
            if word is None:
                raise FilterError(
                    f"unknown state '{value}' (try pending, overdue, succeeded, failed, timed_out, "
                    "canceled, denied, orphan, late, dup, violation, answered)",
                    token.value_start,
                    token.end,
                )
            words.append(word)
        values = tuple(dict.fromkeys(words))  # each once: 'failed' a thousand times is one test
        tests = [_state_test(values[0])] if len(values) == 1 else [_states_test(values)]
    elif field == "exec":
        executors: dict[Executor, None] = {}  # each once, in order
        for value in values:
            try:
                executors[Executor(value.casefold())] = None
            except ValueError:
                raise FilterError(
                    f"exec: takes server, client or either, not '{value}'", token.value_start, token.end
                ) from None
        tests = [_exec_test(executor) for executor in executors]
    elif field in ("param", "result", "error"):
        tests = [_payload_test(field, values, payloads, texts)]
    elif field == "text":
        tests = [_text_test(value, payloads, texts) for value in values]
    elif field == "tool" and len(values) > 1:
        tests = [_tools_test(values)]
    elif field == "id" and len(values) > 1:
        tests = [_ids_test(values)]
    elif field == "group" and len(values) > 1:
        tests = [_groups_test(values)]
    else:
        make = {"tool": _tool_test, "id": _id_test, "group": _group_test}[field]
        tests = [make(value) for value in values]
    test = tests[0] if len(tests) == 1 else _any_of(tests)
    if field == "state" and token.negated and not _KIND_WORDS.intersection(values):
        test = _calls_only(test)
    return Term(field, values, token.negated, token.start, token.end, test)


_KIND_WORDS = frozenset({"call", "message", "malformed"})


def _calls_only(test: Predicate) -> Predicate:
    """A negated state term speaks of calls (``-state:ok``: the calls that are not ok), so messages,
    which have no state, are left out too rather than kept by the negation."""
    return lambda item, now: isinstance(item, Message) or test(item, now)


def _any_of(tests: list[Predicate]) -> Predicate:
    return lambda item, now: any(t(item, now) for t in tests)
