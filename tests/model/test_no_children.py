"""A call with nothing under it shares one empty children list; the store gives a call its own list at its
first nested item, and nothing else can write to the shared one."""

from __future__ import annotations

import copy

import pytest

from inspector.model import CallStore, Message, Outcome, Request, Result
from inspector.model.call import NO_CHILDREN


def test_calls_share_the_empty_children_until_something_nests_under_them() -> None:
    store = CallStore()
    for call_id in ("a", "b", "c"):
        store.ingest(Request(call_id, "Task"))
    store.ingest(Request("a1", "Read", parent_id="a"))
    store.ingest(Message("assistant", "inside a", parent_id="a"))
    store.ingest(Request("b1", "Read", parent_id="b"))
    store.ingest(Result("a1", Outcome.SUCCESS))
    a, b, c = (store.find("", call_id) for call_id in ("a", "b", "c"))
    assert a is not None and b is not None and c is not None
    assert c.children is NO_CHILDREN and NO_CHILDREN == []
    assert [getattr(item, "call_id", None) for item in a.children] == ["a1", None]
    assert [item.call_id for item in b.children] == ["b1"]  # type: ignore[union-attr]
    assert a.children is not b.children and NO_CHILDREN == []
    a1 = store.find("", "a1")
    assert a1 is not None and a1.children is NO_CHILDREN and a1.depth == 1
    assert [call.call_id for call in store.all_calls()] == ["a", "a1", "b", "b1", "c"]


def test_the_shared_empty_children_refuse_every_write_and_survive_copies() -> None:
    for write in (
        lambda: NO_CHILDREN.append(1),
        lambda: NO_CHILDREN.extend([1]),
        lambda: NO_CHILDREN.insert(0, 1),
        lambda: NO_CHILDREN.__setitem__(slice(0, 0), [1]),
        lambda: NO_CHILDREN.__iadd__([1]),
    ):
        with pytest.raises(TypeError):
            write()
    assert NO_CHILDREN == [] and copy.copy(NO_CHILDREN) is NO_CHILDREN
    assert copy.deepcopy(NO_CHILDREN) is NO_CHILDREN
