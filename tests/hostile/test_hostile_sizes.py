"""Size never takes the keys away (issue 25 §3): a filter of many alternatives is bounded, and the
lists it may hold are tested at once per row (a set, one regex, one ``startswith``), not one Python
test per row and alternative."""

from __future__ import annotations

import pytest
from factories import make_request

from inspector.model import Call
from inspector.model.filter import FilterError, parse_filter
from inspector.model.filter_syntax import MAX_ALTERNATIVES

CALLS = [Call(make_request(f"id-{n:05d}", f"tool_{n}")) for n in range(10_000)]


def matching(text: str) -> set[str]:
    flt = parse_filter(text)
    return {call.call_id for call in CALLS if flt.matches(call, None)}


@pytest.mark.parametrize("field", ["tool", "id", "param", "group", "state"])
def test_a_list_past_the_bound_is_refused_with_where_and_why(field):
    with pytest.raises(FilterError) as caught:
        parse_filter(f"{field}:" + ",".join(f"v{n}" for n in range(5_000)))
    assert f"at most {MAX_ALTERNATIVES:,} alternatives" in caught.value.message
    assert "5,000 given" in caught.value.message and caught.value.position == len(field) + 1


def test_a_thousand_tool_names_and_globs_match_as_one_test():
    names = [f"tool_{n}" for n in range(0, 2 * (MAX_ALTERNATIVES - 2), 2)]
    found = matching("tool:" + ",".join([*names, "TOOL_99*", "tool_7?"]))
    expected = {f"id-{n:05d}" for n in range(0, 2 * (MAX_ALTERNATIVES - 2), 2)}
    expected |= {f"id-{n:05d}" for n in [99, *range(990, 1000), *range(9900, 10_000)]}
    expected |= {f"id-{n:05d}" for n in range(70, 80)}
    assert found == expected
    assert matching("-tool:" + ",".join(names)) == {c.call_id for c in CALLS} - {
        f"id-{n:05d}" for n in range(0, 2 * (MAX_ALTERNATIVES - 2), 2)
    }


def test_a_thousand_id_prefixes_match_as_one_test():
    prefixes = [f"ID-{n:04d}" for n in range(MAX_ALTERNATIVES)]  # each names ten calls
    assert len(matching("id:" + ",".join(prefixes))) == 10_000
    assert matching("id:id-0001,id-09999,nope") == {f"id-{n:05d}" for n in range(10, 20)} | {"id-09999"}
