"""`inspector room`: run a loopback LiveKit-compatible room server in the foreground (not a LiveKit server)."""

from __future__ import annotations

import argparse
import sys

MISSING_EXTRA = "inspector room needs the room extra: pip install 'toolcall-inspector[room]'"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "room",
        help="run a local stand-in LiveKit room server (data packets only) for trying things",
        description=(
            "Run a small LiveKit-compatible room server on this machine so LiveKit SDK participants can "
            "join rooms and exchange data packets without a LiveKit server. It is a local stand-in for "
            "trying things, not a LiveKit server: no media, no TURN, no resume. It prints LIVEKIT_URL, "
            "LIVEKIT_API_KEY and LIVEKIT_API_SECRET to paste into a shell, then logs joins and leaves. "
            "Ctrl-C stops it."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=7880, help="port (default 7880; 0 picks a free one)")
    parser.add_argument("--api-key", default=None, help="API key tokens must be issued by (default devkey)")
    parser.add_argument(
        "--api-secret",
        default=None,
        help="secret tokens must be signed with (default: a fixed development secret)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        import aiortc  # noqa: F401
        import livekit.protocol  # noqa: F401
        import websockets  # noqa: F401

        from inspector.room.server import RoomServer
        from inspector.room.tokens import DEV_API_KEY, DEV_API_SECRET
    except ImportError:
        print(MISSING_EXTRA, file=sys.stderr)
        return 2
    import asyncio

    api_key = args.api_key or DEV_API_KEY
    api_secret = args.api_secret or DEV_API_SECRET
    if len(api_secret.encode()) < 32:
        print("warning: an API secret under 32 bytes is weak (PyJWT warns about it too)", file=sys.stderr)
    server = RoomServer(args.host, args.port, api_key, api_secret, on_event=_log)
    try:
        asyncio.run(_serve(server))
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        print(
            f"inspector room: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        return 1
    print("room server stopped", file=sys.stderr)
    return 0


async def _serve(server) -> None:
    import asyncio

    async with server:
        print(f"LIVEKIT_URL={server.url}")
        print(f"LIVEKIT_API_KEY={server.api_key}")
        print(f"LIVEKIT_API_SECRET={server.api_secret}", flush=True)
        print(
            "# a local stand-in room server for trying things, not a LiveKit server; Ctrl-C stops it",
            file=sys.stderr,
            flush=True,
        )
        await asyncio.Event().wait()


def _log(line: str) -> None:
    import time

    from inspector.textsafe import clean

    print(f"{time.strftime('%H:%M:%S')} {clean(line, keep_newlines=False)}", file=sys.stderr, flush=True)
