"""The simulated agent as an SDK participant (plus a simulated user), run in its own process by the demo.

    python -m inspector.demo.agent --url URL --agent-token JWT --user-token JWT --room NAME [--rounds N]

It waits for a line ``go`` on stdin (sent once the inspector has joined), plays the script
(:mod:`inspector.demo.script`) ``--rounds`` times (0 = until stopped), then leaves. The SDK may abort at
interpreter exit, so the process ends with ``os._exit``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys

import msgpack

from inspector.demo.script import Conversation


def log(line: str) -> None:
    print(line, flush=True)


async def connect(url: str, token: str):
    from livekit import rtc

    room = rtc.Room()
    await room.connect(url, token, rtc.RoomOptions(auto_subscribe=False))
    return room


async def wait_for_go(wait: bool) -> None:
    if not wait:
        return
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    if not line:  # the launcher went away
        raise SystemExit(0)


def read_tokens(args: argparse.Namespace) -> None:
    """With ``--tokens-on-stdin``, the first stdin line is ``{"agent": JWT, "user": JWT}``: tokens never
    sit on a command line that ``ps`` shows."""
    if not args.tokens_on_stdin:
        return
    try:
        tokens = json.loads(sys.stdin.readline() or "{}")
    except ValueError:
        tokens = {}
    args.agent_token = str(tokens.get("agent") or "") if isinstance(tokens, dict) else ""
    args.user_token = str(tokens.get("user") or "") if isinstance(tokens, dict) else ""


async def main(args: argparse.Namespace) -> int:
    read_tokens(args)
    agent = await connect(args.url, args.agent_token)
    user = await connect(args.url, args.user_token) if args.user_token else None
    log(f"agent joined {args.room} as {agent.local_participant.identity}")

    async def send(envelope: dict, role: str) -> None:
        room = user if role == "user" and user is not None else agent
        await room.local_participant.publish_data(
            msgpack.packb(envelope, use_bin_type=True), reliable=True, topic=args.topic
        )

    conversation = Conversation(args.room, send, speed=args.speed, log=log)

    def on_data(packet) -> None:
        sender = packet.participant.identity if packet.participant is not None else ""
        conversation.received(bytes(packet.data), sender)
        log(f"received {len(packet.data)} bytes from {sender or 'the server'}")

    agent.on("data_received", on_data)
    await wait_for_go(args.wait)
    number = 0
    while args.rounds == 0 or number < args.rounds:
        number += 1
        log(f"round {number}")
        await conversation.play_round(number)
        if args.rounds == 0 or number < args.rounds:
            await conversation.pause(args.between)
    await asyncio.sleep(0.5)  # let the last packets leave
    for room in (user, agent):
        if room is not None:
            await room.disconnect()
    log(f"done: {len(conversation.received_results)} results received")
    return 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="inspector.demo.agent", description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--room", required=True, help="the room name, also the conversationId")
    parser.add_argument("--agent-token", default="")
    parser.add_argument(
        "--tokens-on-stdin", action="store_true", help="read the tokens from stdin's first line"
    )
    parser.add_argument("--user-token", default="")
    parser.add_argument("--rounds", type=int, default=1, help="0 plays until stopped")
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--between", type=float, default=8.0, help="seconds between rounds")
    parser.add_argument("--topic", default="", help="data packet topic")
    parser.add_argument("--no-wait", dest="wait", action="store_false", help="start without waiting for 'go'")
    return parser.parse_args(argv)


if __name__ == "__main__":
    code = 1
    try:
        code = asyncio.run(main(parse()))
    except KeyboardInterrupt:
        code = 130
    except SystemExit as exc:
        code = int(exc.code or 0)
    except Exception as exc:  # noqa: BLE001 - told in the agent's log, then a clean exit code
        log(f"agent stopped: {type(exc).__name__}: {getattr(exc, 'message', exc)}")
    sys.stdout.flush()
    os._exit(code)
