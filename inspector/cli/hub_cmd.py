"""The ``--hub`` options of ``inspector live`` and ``inspector demo``: Alicia's WebSocket hub."""

from __future__ import annotations

import argparse

HUB_EPILOG = """\
With --hub URL (Alicia's WebSocket hub, e.g. wss://host/api/v1/ws) the inspector joins the hub instead
of a LiveKit room: as a monitor (no secret needed; every frame, src -> dst) or, with --as-assistant,
as the assistant that executes client tools (registers --tools, heartbeats, answers from the answer
screen or --answer-rules). The agent secret comes from ALICIA_AGENT_SECRET or --agent-secret (prefer
the variable: an option shows in `ps`); it is sent as a Bearer header only, never shown or recorded.
A refused secret exits 2 with the hub's reason.
"""


def add_live_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("Alicia's WebSocket hub (instead of a LiveKit room)")
    group.add_argument("--hub", metavar="URL", help="join the hub at URL (ws:// or wss://.../api/v1/ws)")
    group.add_argument(
        "--as-assistant", action="store_true", help="join as the hub's assistant (default: as a monitor)"
    )
    group.add_argument("--tools", metavar="FILE", help="with --as-assistant: the [[tool]] tables to register")
    group.add_argument(
        "--agent-secret", metavar="S", help="the hub's agent secret (default: $ALICIA_AGENT_SECRET)"
    )
    group.add_argument(
        "--origin",
        metavar="URL",
        help="the Origin header to send (a hub whose ALLOWED_ORIGINS lists origins refuses an empty one)",
    )
    group.add_argument(
        "--tool-timeout",
        type=float,
        metavar="SECONDS",
        help="countdown of a request from the hub, which carries no timeout (default: 30, the bridge's wait)",
    )


def add_demo_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--hub",
        action="store_true",
        help="a local stand-in of Alicia's WebSocket hub instead of the loopback room (no extra needed)",
    )
    parser.add_argument(
        "--as-monitor",
        action="store_true",
        help="with --hub: watch as a monitor while a scripted assistant answers (default: you are the assistant)",
    )


def run_live_hub(args: argparse.Namespace) -> int:
    """``inspector live --hub``: in this process (no LiveKit SDK to supervise)."""
    from inspector.live.runner import run
    from inspector.live.session import LiveOptions
    from inspector.ui.app import show_session

    return run(LiveOptions.from_args(args), show=show_session)


def run_demo_hub(args: argparse.Namespace) -> int:
    """``inspector demo --hub``: the stand-in hub, a scripted agent and bridge, and the inspector."""
    from inspector.demo.hub_demo import run_hub_demo
    from inspector.ui.app import show_session

    return run_hub_demo(args, show=show_session)
