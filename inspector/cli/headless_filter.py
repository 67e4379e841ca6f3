"""``--filter EXPR`` for dump, stats and check: the UI's grammar and error messages, payloads re-read from files."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the grammar is imported by a command given a filter only (7 ms of every start-up)
    from inspector.model.filter import Filter


def add_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--filter",
        metavar="EXPR",
        help='only what matches, in the UI\'s filter grammar (tool:Bash state:failed param:TEXT "free text")',
    )


class BadFilter(Exception):
    """The expression could not be parsed; the message was printed."""


def parse(expr: str | None) -> Filter | None:
    """The parsed filter (None without one); prints the UI's message with a caret and raises BadFilter."""
    if not expr or not expr.strip():
        return None
    from inspector.model.filter import FilterError, parse_filter
    from inspector.sources.payloads import FilePayloads

    try:
        return parse_filter(expr, FilePayloads())
    except FilterError as exc:
        from inspector.textsafe import one_line

        print(
            f"inspector: --filter: {one_line(exc.message, 300)} (column {exc.position + 1})", file=sys.stderr
        )
        print(f"  {one_line(expr, 300)}", file=sys.stderr)
        print(f"  {' ' * exc.position}^", file=sys.stderr)
        raise BadFilter from None


def keep_function(flt: Filter | None, now: float | None) -> Any:
    """``keep(item)`` for the model's figures: the items the filter matches (None without a filter)."""
    if flt is None:
        return None
    return lambda item: flt.matches(item, now)
