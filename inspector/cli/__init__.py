"""The command line. Each command lives in its own module with ``register(subparsers)``;
heavy imports (textual, livekit) happen only inside the command that needs them."""

from __future__ import annotations

import argparse
import importlib
import sys

from inspector import __version__

# command name -> module under inspector.cli that registers it
COMMAND_MODULES = {
    "open": "ui_cmd",
    "dump": "headless",
    "stats": "headless",
    "check": "headless",
    "live": "live_cmd",
    "room": "room_cmd",
    "demo": "live_cmd",
    "export-otlp": "otlp_cmd",
    "otlp-listen": "otlp_cmd",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone (only its module is imported: a headless
    command on a small file spent a third of its start-up importing the others' live and OTLP code)."""
    parser = argparse.ArgumentParser(
        prog="inspector",
        description=(
            "Inspect the tool calls of AI agents: open Claude Code transcripts, Codex CLI and Gemini CLI "
            "sessions, Alicia recordings, RAP and LM-Kit logs, or join a live LiveKit room or Alicia hub. "
            "`inspector PATH...` is short for `inspector open PATH...`; "
            "`inspector` alone browses your Claude Code, Codex and Gemini sessions."
        ),
    )
    parser.add_argument("--version", action="version", version=f"inspector {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    seen: set[str] = set()
    for name, module_name in COMMAND_MODULES.items():
        if module_name in seen or (command is not None and name != command):
            continue
        seen.add(module_name)
        module = importlib.import_module(f"inspector.cli.{module_name}")
        module.register(sub)
    return parser


def _normalise(argv: list[str]) -> list[str]:
    """Treat ``inspector PATH...`` as ``inspector open PATH...`` and a bare ``inspector`` as ``open``."""
    if not argv:
        return ["open"]
    first = argv[0]
    if first in COMMAND_MODULES or first in ("-h", "--help", "--version"):
        return argv
    return ["open", *argv]


def _filter_values(argv: list[str]) -> list[str]:
    """``--filter -state:ok``: a filter value may start with ``-`` (a negation); argparse would take it
    for an option, so it is joined to its option (``--filter=-state:ok``)."""
    out: list[str] = []
    index = 0
    while index < len(argv):
        if argv[index] == "--filter" and index + 1 < len(argv) and argv[index + 1].startswith(("-", "!")):
            out.append(f"--filter={argv[index + 1]}")
            index += 2
            continue
        out.append(argv[index])
        index += 1
    return out


def main(argv: list[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list == ["--version"]:  # answered before anything else is imported
        print(f"inspector {__version__}")
        return 0
    normalised = _normalise(args_list)
    parser = build_parser(normalised[0] if normalised[0] in COMMAND_MODULES else None)
    args = parser.parse_args(_filter_values(normalised))
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    _tolerant_streams()
    opens_ui = getattr(args, "opens_ui", None)
    if opens_ui and not getattr(args, "no_ui", False):
        from inspector.cli import terminal

        refusal = terminal.missing(opens_ui, no_ui=hasattr(args, "no_ui"))
        if refusal:
            print(refusal, file=sys.stderr)
            return 2
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, as other command-line tools do
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _tolerant_streams() -> None:
    """A character the terminal's encoding lacks (an ASCII locale, a lone surrogate some decoder let
    through) is written as a ``\\u`` escape, never a UnicodeEncodeError with a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
