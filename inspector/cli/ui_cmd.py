"""The ``open`` command: sessions in the Textual app (``inspector PATH...``; bare ``inspector`` browses)."""

from __future__ import annotations

import argparse
import os
import sys

from inspector import protocols
from inspector.cli import otlp_cmd


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "open",
        help="open sessions in the inspector (no PATH: browse Claude Code, Codex and Gemini sessions)",
        description="Open session files side by side; with no PATH, browse the sessions found under "
        "~/.claude/projects, ~/.codex/sessions and ~/.gemini/tmp (or --claude-dir / INSPECTOR_CLAUDE_DIR, "
        "--codex-dir / INSPECTOR_CODEX_DIR / CODEX_HOME, --gemini-dir / INSPECTOR_GEMINI_DIR).",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH")
    parser.add_argument("--format", choices=protocols.FORMAT_NAMES, help="force a format")
    parser.add_argument(
        "--theme",
        metavar="NAME|PATH",
        help="a built-in theme (dark, light, high-contrast), a theme in the themes folder, or a .toml file",
    )
    parser.add_argument("--follow", action="store_true", help="watch the files for new records (F toggles)")
    parser.add_argument("--replay", action="store_true", help="play the session back in its own time")
    parser.add_argument("--speed", default=None, metavar="SPEED", help="replay speed: 1, 2, 10 or instant")
    parser.add_argument("--claude-dir", metavar="DIR", help="where Claude Code keeps its sessions")
    parser.add_argument(
        "--codex-dir",
        metavar="DIR",
        help="where Codex CLI keeps its rollouts (default: $CODEX_HOME/sessions)",
    )
    parser.add_argument(
        "--gemini-dir", metavar="DIR", help="where Gemini CLI keeps its sessions (~/.gemini/tmp)"
    )
    parser.add_argument(
        "--hide-messages", action="store_true", help="start with conversation messages hidden"
    )
    parser.add_argument("--export-dir", metavar="DIR", help="where x writes exports (default: here)")
    otlp_cmd.add_stream_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from inspector.config import load_config
    from inspector.model.replay import parse_speed
    from inspector.sources.files import open_paths
    from inspector.sources.session import UnusableInput
    from inspector.ui.options import UiOptions

    config, warnings = load_config()
    try:
        speed = parse_speed(args.speed) if args.speed is not None else config.replay_speed
    except ValueError as exc:
        print(f"inspector: {exc}", file=sys.stderr)
        return 2
    skipped: list[str] = []
    notes: list[str] = []
    try:
        opened = open_paths(args.paths, args.format, skipped, notes)
    except UnusableInput as exc:
        print(f"inspector: {exc}", file=sys.stderr)
        return 2
    from inspector.cli import terminal

    refusal = terminal.missing("open")  # after the paths: a wrong one is said first
    if refusal:
        print(refusal, file=sys.stderr)
        return 2
    options = UiOptions(
        paths=list(args.paths),
        format=args.format,
        theme=args.theme,
        follow=args.follow,
        replay=args.replay,
        speed=speed,
        claude_dir=args.claude_dir,
        codex_dir=args.codex_dir,
        gemini_dir=args.gemini_dir,
        hide_messages=args.hide_messages,
        export_dir=args.export_dir,
        otlp=args.otlp,
        otlp_content=args.otlp_content,
        otlp_content_limit=args.otlp_content_limit,
        opening=[f"skipped {reason}" for reason in skipped] + notes,
    )
    from inspector.sources.feeds import feed_for
    from inspector.ui.app import run_open

    follow = args.follow or config.follow
    folders = [path for path in args.paths if os.path.isdir(path)]
    source = (
        feed_for(
            opened=opened,
            follow=follow,
            replay=args.replay,
            speed=speed,
            folders=folders,
            forced=args.format,
        )
        if opened
        else None
    )
    return run_open(options, config, warnings, source)
