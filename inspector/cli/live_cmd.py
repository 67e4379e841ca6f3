"""``inspector live`` (join a LiveKit room) and ``inspector demo`` (a simulated agent in a loopback room)."""

from __future__ import annotations

import argparse

from inspector.cli import hub_cmd, otlp_cmd

LIVE_EPILOG = """\
Reads LIVEKIT_URL, LIVEKIT_API_KEY and LIVEKIT_API_SECRET like LiveKit's `lk`. With a key and secret the
inspector mints its own token: identity inspector-<random>, hidden from the others (--visible to show it),
allowed to publish data only when answering is on. Exit codes: 0 stopped, 1 connection lost, 2 could not
start (options, rules file, or joining the room), 3 the LiveKit SDK's native core crashed (the recording
so far is kept and its path printed), 4 the recording stopped during the session (disk full, write error).
"""


def _answer_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--answer",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="allow answering client requests (default: on with the UI or with --answer-rules)",
    )
    parser.add_argument(
        "--answer-rules", metavar="FILE", help="auto-respond with the rules in this TOML file"
    )
    parser.add_argument(
        "--record",
        metavar="PATH",
        help="record every packet to PATH (default: the data dir; demo: a temporary file)",
    )
    parser.add_argument("--no-record", action="store_true", help="do not record")
    parser.add_argument(
        "--append",
        action="store_true",
        help="with --record: continue an existing recording of the same room (else a new file beside it)",
    )
    parser.add_argument(
        "--no-ui", action="store_true", help="print calls as they are threaded instead of the UI"
    )
    parser.add_argument("--json", action="store_true", help="with --no-ui: one JSON object per event")
    parser.add_argument(
        "--give-up-after",
        type=float,
        metavar="SECONDS",
        help="stop trying to (re)join after the room has been out of reach this long (default: keep trying)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="with --no-ui: show the SDK's warnings")


def register(sub: argparse._SubParsersAction) -> None:
    live = sub.add_parser(
        "live",
        help="join a LiveKit room (or an Alicia hub with --hub) and watch (and answer) tool calls live",
        epilog=LIVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    live.add_argument("--url", help="LiveKit server URL (default: $LIVEKIT_URL)")
    live.add_argument("--room", help="room name (the Alicia conversation id)")
    live.add_argument("--identity", help="participant identity (default: inspector-<random>)")
    live.add_argument("--token", metavar="JWT", help="join with this token instead of minting one")
    live.add_argument("--api-key", metavar="K", help="API key (default: $LIVEKIT_API_KEY)")
    live.add_argument("--api-secret", metavar="S", help="API secret (default: $LIVEKIT_API_SECRET)")
    live.add_argument(
        "--visible", action="store_true", help="join as a visible participant (default: hidden)"
    )
    _answer_options(live)
    otlp_cmd.add_stream_options(live)
    hub_cmd.add_live_options(live)
    live.epilog = LIVE_EPILOG + "\n" + hub_cmd.HUB_EPILOG
    live.set_defaults(handler=run_live_command, opens_ui="live")

    demo = sub.add_parser(
        "demo",
        help="a simulated Alicia agent in a loopback room (or on your LiveKit server), watched by the inspector",
        description="Starts the loopback room server, a scripted agent, and the inspector "
        "joined to them. Needs the room extra: pip install 'toolcall-inspector[room]'. With --url (or "
        "LIVEKIT_URL, LIVEKIT_API_KEY and LIVEKIT_API_SECRET all set) the agent plays in a new room on that "
        "LiveKit server instead.",
    )
    demo.add_argument("--url", help="play on this LiveKit server instead of the loopback room")
    demo.add_argument("--api-key", metavar="K", help="with --url: API key (default: $LIVEKIT_API_KEY)")
    demo.add_argument(
        "--api-secret", metavar="S", help="with --url: API secret (default: $LIVEKIT_API_SECRET)"
    )
    demo.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="how many times the agent plays its script (default: 1 with --no-ui, else endless)",
    )
    demo.add_argument("--auto", action="store_true", help="auto-answer with the demo's built-in rules")
    demo.add_argument("--speed", type=float, default=1.0, help="play the script faster (2 = twice as fast)")
    _answer_options(demo)
    hub_cmd.add_demo_options(demo)
    demo.set_defaults(handler=run_demo_command, opens_ui="demo")


def _exit_now(code: int) -> int:
    """End the process at once once the SDK has been loaded: its Rust runtime can abort during the normal
    interpreter shutdown (exit 134 after a clean run), so flush and leave without it."""
    import sys

    if "livekit.rtc" in sys.modules:
        import os

        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    return code


def _supervised(command: str, args: argparse.Namespace) -> int:
    """Run the command in a child process that may crash in the SDK (see inspector.live.supervise)."""
    from inspector.live.supervise import child_command, supervise

    plain = {k: v for k, v in vars(args).items() if k != "handler"}
    argv, env = child_command(command, plain)
    return supervise(argv, env)


def run_live_command(args: argparse.Namespace) -> int:
    if getattr(args, "hub", None):
        return hub_cmd.run_live_hub(args)
    return _supervised("live", args)


def run_demo_command(args: argparse.Namespace) -> int:
    if getattr(args, "hub", False):
        return hub_cmd.run_demo_hub(args)
    return _supervised("demo", args)


def run_live_here(args: argparse.Namespace) -> int:
    """``inspector live`` in this process (the supervised child)."""
    from inspector.live.runner import run
    from inspector.live.session import LiveOptions
    from inspector.ui.app import show_session

    return _exit_now(run(LiveOptions.from_args(args), show=show_session))


def run_demo_here(args: argparse.Namespace) -> int:
    """``inspector demo`` in this process (the supervised child)."""
    from inspector.demo.launcher import run_demo
    from inspector.ui.app import show_session

    return _exit_now(run_demo(args, show=show_session))
