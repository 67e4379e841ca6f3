"""Text search in calls' parameters and results, for the filter's free text and its param:, result:, error: terms."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from inspector.model.call import Call, OrphanResult
from inspector.model.events import Outcome, Request, Result

TEXT_BUDGET = 4 * 1024 * 1024
"""At most this many characters of one payload are searched (a bigger one is searched in its first part)."""


def flatten(value: Any, budget: int = TEXT_BUDGET) -> str:
    """Every key and scalar of ``value`` (JSON-like data or result details), lowercase, one per line.

    Strings are searched as they read (real newlines and quotes, not JSON escapes).
    """
    parts: list[str] = []
    size = 0
    stack: list[Any] = [value]
    while stack and size < budget:
        item = stack.pop()
        if isinstance(item, str):
            text = item
        elif item is None or isinstance(item, (bool, bytes, bytearray)):
            continue
        elif isinstance(item, (int, float)):
            text = str(item)
        elif isinstance(item, dict):
            for key, inner in reversed(list(item.items())):
                stack.append(inner)
                stack.append(str(key))
            continue
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
            continue
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(reversed([getattr(item, f.name, None) for f in dataclasses.fields(item)]))
            continue
        else:
            continue
        parts.append(text[: budget - size])
        size += len(text)
    return "\n".join(parts).casefold()


def result_value(result: Result) -> list[Any]:
    """What a result says: its data and its structured details."""
    return [result.data, result.details]


class Payloads:
    """How a filter reaches the payloads of a call: the ones in memory (subclasses re-read dropped ones).

    ``may_hold(call, needles)`` is a cheap test that may answer True when unsure (a subclass looks in
    the raw records' bytes first, so a 100 MB session is not decoded again for every search).
    """

    def request(self, call: Call) -> Request:
        return call.request

    def results(self, call: Call) -> list[Result]:
        return call.results

    def may_hold(self, call: Call, needles: tuple[str, ...]) -> bool:
        return True


IN_MEMORY = Payloads()

Where = str  # "param", "result", "error" or "any"


class Texts:
    """The searched text of the item last asked about, shared by the terms of one filter.

    A filter asks each of its terms about one item before the next item, so ``param:a param:b ...``
    flattens the item's parameters once, not once per term (a hundred such terms on 10,000 calls took
    21 s). One filter is asked from one thread at a time; each filter has its own.
    """

    __slots__ = ("_item", "_version", "_texts")

    def __init__(self) -> None:
        self._item: object = None
        self._version = -1
        self._texts: dict[tuple[Where, int], list[str]] = {}

    def get(self, item: object, version: int, where: Where, source: Payloads) -> list[str]:
        if item is not self._item or version != self._version:
            self._item, self._version, self._texts = item, version, {}
        key = (where, id(source))
        found = self._texts.get(key)
        if found is None:
            found = self._texts[key] = _texts(item, where, source)
        return found


def _texts(item: object, where: Where, source: Payloads) -> list[str]:
    if isinstance(item, OrphanResult):
        return [_result_text(item.result, where)] if where in ("result", "any", "error") else []
    assert isinstance(item, Call)
    found = []
    if where in ("param", "any"):
        found.append(flatten(source.request(item).params))
    if where in ("result", "any", "error"):
        found += [_result_text(result, where) for result in source.results(item)]
    return found


def deep_test(
    needles: tuple[str, ...], where: Where, payloads: Payloads | None, texts: Texts | None = None
) -> Callable[[object], bool]:
    """A test: does a call's (or orphan result's) payload in ``where`` hold one of the lowercase ``needles``?

    Each item's answer is remembered (until the call gets another result), so re-applying the same
    filter as rows arrive costs nothing for the rows already seen. ``texts``: the filter's shared
    :class:`Texts` (its terms flatten an item once between them).
    """
    source = payloads or IN_MEMORY
    shared = texts or Texts()
    memo: dict[int, tuple[object, int, bool]] = {}

    def test(item: object) -> bool:
        if not isinstance(item, (Call, OrphanResult)):
            return False
        version = len(item.results) if isinstance(item, Call) else 0
        hit = memo.get(id(item))
        if hit is not None and hit[0] is item and hit[1] == version:
            return hit[2]
        if isinstance(item, Call) and not source.may_hold(item, needles):
            answer = False
        else:
            found = shared.get(item, version, where, source)
            answer = any(needle in text for text in found for needle in needles)
        memo[id(item)] = (item, version, answer)
        return answer

    return test


def _result_text(result: Result, where: Where) -> str:
    if where == "error":
        if result.outcome is Outcome.SUCCESS:
            return ""
        return flatten([result.error_code, result.error_message, *result_value(result)])
    return flatten(result_value(result))
