"""A call's detail is bounded by what it shows, never by what the call holds: the parts of a detail share
one budget of lines (search results and their links, the files of a diff, a call's duplicate results and
their errors, the hunks of a patch), and a diff computed from an edit's texts takes bounded work whatever
the texts (difflib's matcher took 12-36 s on 10,000 repeated or reordered lines; a call answered 5,000
times made a detail of 2.5 million lines: each froze the app)."""

from __future__ import annotations

import io
import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from factories import make_request, make_result
from hostile_io import claude_pair, jsonl
from rich.console import Console

from inspector.model import Call, Outcome
from inspector.model.details import (
    DisplayDetail,
    PatchDetail,
    SearchDetail,
    Segment,
    TodoDetail,
    TodoItem,
)
from inspector.model.diff import FileDiff, hunks_from_structured_patch, hunks_from_texts, parse_unified_diff
from inspector.ui.render import render_call
from inspector.ui.render.theme import RenderTheme

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))

from screen_text import screen_text, wait_for  # noqa: E402
from ui_factories import file_app  # noqa: E402

THEME = RenderTheme.dark()
BOUND = 12_000
"""Lines a detail may take at most with the default limits (2,000 lines a text; 20 results)."""


def _lines(renderable) -> int:
    console = Console(width=120, file=io.StringIO(), color_system=None)
    return len(console.render_lines(renderable, pad=False))


def _hunks(count: int, lines: int = 1):
    return hunks_from_structured_patch(
        [
            {
                "oldStart": n,
                "oldLines": lines,
                "newStart": n,
                "newLines": lines,
                "lines": ["-a", "+b"] * lines,
            }
            for n in range(1, count + 1)
        ]
    )


def _with(detail, tool: str = "Bash", results: int = 1, error: str | None = None, **result_args) -> Call:
    call = Call(make_request("c", tool))
    for _ in range(results):
        call.results.append(replace(make_result("c", **result_args), details=detail, error_message=error))
    return call


LINKS = [{"title": "t", "url": "https://example.com/x"}] * 1_000
HOSTILE = {
    "search results of many links": _with(SearchDetail("q", [{"content": LINKS}] * 1_000)),
    "search results of JSON": _with(SearchDetail("q", [{"links": LINKS}] * 300)),
    "search results of text": _with(SearchDetail("q", ["a\nb\nc"] * 20_000)),
    "a segment of many files": _with(
        DisplayDetail([Segment("diff", "x", diffs=[FileDiff("/f", _hunks(1_000))] * 300)], text="x")
    ),
    "a patch of 100,000 empty hunks": _with(PatchDetail("/f", _hunks(100_000, 0)), "Edit"),
    "thousands of duplicate results": _with(None, results=3_000, data="\n".join(["dup"] * 500)),
    "thousands of errors": _with(None, results=3_000, outcome=Outcome.ERROR, error="\n".join(["why"] * 500)),
    "todos removed by the hundred thousand": _with(
        TodoDetail(old=[TodoItem(f"t{n}") for n in range(100_000)], new=[]), "TodoWrite"
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_detail_is_bounded_whatever_the_call_holds(name):
    call = HOSTILE[name]
    for raw in (False, True):
        shown = render_call(call, width=120, theme=THEME, now=None, raw=raw)
        assert _lines(shown) <= BOUND
        text = Console(width=120, file=io.StringIO(), color_system=None, record=True)
        text.print(shown)
        if not raw and "not shown" not in text.export_text():
            pytest.fail(f"{name}: nothing says what was left out")


def _applied(old: str, hunks) -> list[str]:
    """``old``'s lines with ``hunks`` applied."""
    lines, out, at = old.splitlines(), [], 0
    for hunk in hunks:
        start = hunk.old_start - 1 if hunk.old_lines else hunk.old_start
        out += lines[at:start]
        out += [line.text for line in hunk.lines if line.kind in " +"]
        at = start + hunk.old_lines
    return out + lines[at:]


N = 10_000
ADVERSE = {  # texts that made difflib's matcher quadratic or worse (seconds to a minute each)
    "one line repeated": ("a\n" * N, "b\n" + "a\n" * N),
    "two lines alternating": ("a\nb\n" * (N // 2), "b\na\n" * (N // 2)),
    "blank lines": ("\n" * N, "x\n" + "\n" * N),
    "neighbours swapped": (
        "".join(f"{n}\n" for n in range(N)),
        "".join(f"{n + 1 - 2 * (n % 2)}\n" for n in range(N)),
    ),
    "a hundred lines, reordered": (
        "".join(f"x{n % 100}\n" for n in range(N)),
        "".join(f"x{n * 7 % 100}\n" for n in range(N)),
    ),
}


@pytest.mark.parametrize("name", sorted(ADVERSE))
def test_a_diff_of_adverse_texts_is_right_and_its_work_bounded(name):
    old, new = ADVERSE[name]
    assert _applied(old, hunks_from_texts(old, new)) == new.splitlines()
    gave_up = hunks_from_texts(old, new, budget=0)  # the matcher's budget spent at once: all changed
    assert _applied(old, gave_up) == new.splitlines()


def test_a_small_change_in_a_long_repetitive_text_is_found_exactly():
    old = "".join(f"x{n % 3}\n" for n in range(N))
    new = old[: 3 * 5000] + "inserted\n" + old[3 * 5000 :]
    [hunk] = hunks_from_texts(old, new)
    assert [(line.kind, line.text) for line in hunk.lines if line.kind != " "] == [("+", "inserted")]


def test_the_fewest_lines_change_and_the_diff_applies():
    import random

    chance = random.Random(7)
    for _ in range(2_000):
        old = "".join(chance.choice("abc\n") for _ in range(chance.randrange(40)))
        new = "".join(chance.choice("abc\n") for _ in range(chance.randrange(40)))
        hunks = hunks_from_texts(old, new, context=chance.choice([0, 1, 3]))
        assert _applied(old, hunks) == new.splitlines()
        for hunk in hunks:
            assert sum(line.kind in " -" for line in hunk.lines) == hunk.old_lines
            assert sum(line.kind in " +" for line in hunk.lines) == hunk.new_lines
        changed = sum(line.kind in "+-" for hunk in hunks_from_texts(old, new) for line in hunk.lines)
        assert changed <= _lcs_changes(old.splitlines(), new.splitlines())


def _lcs_changes(a: list[str], b: list[str]) -> int:
    """Lines removed and added by a shortest edit (the longest common subsequence kept)."""
    row = [0] * (len(b) + 1)
    for x in a:
        previous = 0
        for j, y in enumerate(b, start=1):
            previous, row[j] = row[j], previous + 1 if x == y else max(row[j], row[j - 1])
    return len(a) + len(b) - 2 * row[-1]


async def test_the_app_moves_through_such_calls_and_shows_each(tmp_path):
    old, new = ADVERSE["neighbours swapped"]
    edit = claude_pair("edit", {"file_path": "/f", "old_string": old, "new_string": new}, "ok")
    edit[0]["message"]["content"][0]["name"] = "Edit"
    answered = claude_pair("answered", {"command": "x"}, "first")
    again = json.dumps(answered[1])
    answered += [json.loads(again.replace('"first"', json.dumps("\n".join(["dup"] * 200))))] * 3_000
    path = jsonl(tmp_path / "s.jsonl", [*claude_pair("before", {"command": "x"}), *edit, *answered])
    app = file_app([str(path)])
    async with app.run_test(size=(120, 50)) as pilot:
        assert await wait_for(pilot, lambda: "id before" in screen_text(app), 20)
        for shown in ("id edit", "id answered"):
            await pilot.press("j")
            assert await wait_for(pilot, lambda: shown in screen_text(app), 20), shown  # noqa: B023
        assert "3000 duplicate results" in screen_text(app)


def test_a_unified_diff_is_parsed_in_one_pass_whatever_its_lines_start_with():
    """A hunk's lines that start like a file header ('--- ') were counted again at each one (47 s for
    20,000): the parse reads them as the hunk's, and counts each once."""
    lines = 20_000
    text = f"--- a/f\n+++ b/f\n@@ -1,{2 * lines} +1,{lines} @@\n" + "--- x\n" * lines + " same\n" * lines
    [parsed] = parse_unified_diff(text)
    [hunk] = parsed.hunks
    assert [line.kind for line in hunk.lines] == ["-"] * lines + [" "] * lines
    assert {line.text for line in hunk.lines if line.kind == "-"} == {"-- x"}


def _counting_words(count: list[int]):
    class Word(str):
        __slots__ = ()

        def __eq__(self, other: object) -> bool:
            count[0] += 1
            return str.__eq__(self, other)

        __hash__ = str.__hash__

    return Word


def test_words_are_marked_within_one_budget_for_the_whole_diff(monkeypatch):
    """Every removed line paired with an added one is compared word by word: 1,000 pairs of lines of
    repeated words (0.6 s each with difflib's matcher) cost one budget of steps in all, and the words of
    a usual changed line are still marked."""
    import inspector.ui.render.words as words

    compared = [0]
    word = _counting_words(compared)
    real = words._TOKEN

    class Tokens:
        @staticmethod
        def findall(text: str) -> list[str]:
            return [word(token) for token in real.findall(text)]

    monkeypatch.setattr(words, "_TOKEN", Tokens)
    old = "".join(f"x{n % 7}," for n in range(330))[:990]
    new = "".join(f"x{n * 3 % 7}," for n in range(330))[:990]
    patch = [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": [f"-{old}", f"+{new}"]}]
    detail = PatchDetail("/f.txt", hunks_from_structured_patch(patch * 1_000))
    _lines(render_call(_with(detail, "Edit"), width=120, theme=THEME, now=None))
    assert compared[0] < 2 * words.WORD_BUDGET  # one compare a step, at most, plus the head and tail
    assert words.changed_ranges("let x = 1;", "let x = 2;") == ([(8, 9)], [(8, 9)])
