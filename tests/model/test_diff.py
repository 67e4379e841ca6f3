"""Diff hunks from structuredPatch and from unified diffs number their lines the same way."""

from __future__ import annotations

from inspector.model.diff import hunks_from_structured_patch, parse_unified_diff


def test_structured_patch_numbers_old_and_new_lines():
    (hunk,) = hunks_from_structured_patch(
        [
            {
                "oldStart": 10,
                "oldLines": 3,
                "newStart": 10,
                "newLines": 4,
                "lines": [" a", "-b", "+c", "+d", " e"],
            }
        ]
    )
    assert [(line.kind, line.old_no, line.new_no) for line in hunk.lines] == [
        (" ", 10, 10),
        ("-", 11, None),
        ("+", None, 11),
        ("+", None, 12),
        (" ", 12, 13),
    ]


def test_unified_diff_with_headers_and_two_files():
    text = (
        "--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n-old\n+new\n same\n"
        "--- y.rs\n+++ y.rs\n@@ -5 +5,2 @@ fn main\n ctx\n+added\n"
    )
    files = parse_unified_diff(text)
    assert [f.path for f in files] == ["x.py", "y.rs"]
    assert files[0].added == 1 and files[0].removed == 1
    hunk = files[1].hunks[0]
    assert hunk.header == "fn main" and hunk.lines[1].new_no == 6


def test_patch_without_file_headers_takes_the_given_path():
    files = parse_unified_diff("@@ -1,1 +1,1 @@\n-a\n+b\n", path="z.txt")
    assert files[0].path == "z.txt" and len(files[0].hunks[0].lines) == 2


def test_bad_entries_are_skipped():
    assert hunks_from_structured_patch([None, {"lines": "x"}, 5]) == []
    assert hunks_from_structured_patch("nope") == []
