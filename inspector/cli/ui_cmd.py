"""The ``open`` command (placeholder until the Textual app lands)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("open", help="open sessions in the inspector")
    parser.add_argument("paths", nargs="*", metavar="PATH")
    parser.set_defaults(handler=lambda args: 2)
