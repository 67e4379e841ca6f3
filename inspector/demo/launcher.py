"""``inspector demo``: start the loopback room, the simulated agent (a child process) and the inspector.

With ``--url`` (or ``LIVEKIT_URL`` with ``LIVEKIT_API_KEY`` and ``LIVEKIT_API_SECRET`` set, as LiveKit's
``lk`` reads them) the agent plays in a new room on that server instead, its tokens minted with that key.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from inspector.demo import running
from inspector.live.session import prepare_room
from inspector.sources.base import SourceState, SourceStatus
from inspector.userpath import open_append

if TYPE_CHECKING:
    from inspector.live.runner import ShowUi

PARTICIPANTS = ("demo-agent", "demo-user")
RULES_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "demo_rules.toml")
EXIT_SETUP = running.EXIT_SETUP


def _room_server_class(err: IO[str]):
    try:
        from inspector.room import RoomServerThread

        return RoomServerThread
    except ImportError as exc:
        err.write(
            f"inspector demo: the loopback room needs the room extra (missing module {exc.name!r}): "
            "pip install 'toolcall-inspector[room]'\n"
        )
        return None


@dataclass(frozen=True)
class GivenServer:
    """A LiveKit server the user named: tokens for the demo's participants are minted with its key."""

    url: str
    api_key: str
    api_secret: str

    def mint_token(self, identity: str, room: str, *, name: str = "") -> str:
        from inspector.live.credentials import mint

        del name  # the identity is the name shown
        return mint(
            self.api_key, self.api_secret, identity=identity, room=room, hidden=False, can_publish_data=True
        )


def given_server(args: argparse.Namespace, env: Any = None) -> GivenServer | None:
    """The server ``--url`` names (or ``LIVEKIT_URL`` with a key and secret), else None: the loopback room.

    Raises SetupError when a URL is given without the key and secret the demo needs to mint tokens."""
    from inspector.live.errors import SetupError, check_url

    env = os.environ if env is None else env
    url = getattr(args, "url", None)
    key = getattr(args, "api_key", None) or env.get("LIVEKIT_API_KEY") or ""
    secret = getattr(args, "api_secret", None) or env.get("LIVEKIT_API_SECRET") or ""
    if not url:
        url = env.get("LIVEKIT_URL") or ""
        if not (url and key and secret):
            return None  # nothing (or not all) set: the loopback room
    check_url(url)
    if not key or not secret:
        raise SetupError(
            f"the demo mints tokens for its agent on {url}: give --api-key and --api-secret "
            "(or LIVEKIT_API_KEY and LIVEKIT_API_SECRET)"
        )
    return GivenServer(url, key, secret)


class AgentProcess:
    """The simulated agent in its own process (the SDK can abort at exit; the inspector must not)."""

    def __init__(
        self,
        url: str,
        room: str,
        agent_token: str,
        user_token: str,
        *,
        rounds: int,
        speed: float,
        log_path: str,
    ) -> None:
        self.log_path = log_path
        self._log = open_append(log_path)
        command = [
            sys.executable,
            "-m",
            "inspector.demo.agent",
            "--url",
            url,
            "--room",
            room,
            "--tokens-on-stdin",
            "--rounds",
            str(rounds),
            "--speed",
            str(speed),
        ]
        # its tokens come through the pipe: the API secret (in this process's environment when the user
        # set it) stays out of the agent's
        env = {k: v for k, v in os.environ.items() if not k.startswith("LIVEKIT_")}
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=self._log, stderr=subprocess.STDOUT, env=env
        )
        assert self.proc.stdin is not None
        try:  # the tokens go through the pipe, not on the agent's command line
            self.proc.stdin.write(json.dumps({"agent": agent_token, "user": user_token}).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        self._started = False

    def go(self, state: SourceState | None = None) -> None:
        """Tell the agent to start its script (once, when the inspector is in the room and has been told
        that the agent and its user are: a real server tells a hidden inspector up to 3 s late, and the
        agent's requests would wait for that before anyone could answer them)."""
        if self._started or (state is not None and state.status is not SourceStatus.CONNECTED):
            return
        if state is not None and not set(PARTICIPANTS) <= set(state.participants):
            return
        self._started = True
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(b"go\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    async def finished(self) -> int:
        return await asyncio.get_running_loop().run_in_executor(None, self.proc.wait)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


def run_demo(
    args: argparse.Namespace,
    out: IO[str] | None = None,
    err: IO[str] | None = None,
    show: ShowUi | None = None,
) -> int:
    """Run the demo; exit code 2 when the room extra is missing or nothing can connect here."""
    out = out or sys.stdout
    err = err or sys.stderr
    from inspector.live import netcheck
    from inspector.live.errors import SetupError

    try:
        given = given_server(args)
    except SetupError as exc:
        err.write(f"inspector demo: {exc}\n")
        return EXIT_SETUP
    if given is None and netcheck.only_loopback():
        err.write(f"inspector demo: {netcheck.ONLY_LO_EXPLANATION}\n")
        return EXIT_SETUP
    serving: Any = contextlib.nullcontext(given)
    if given is None:
        server_class = _room_server_class(err)
        if server_class is None:
            return EXIT_SETUP
        serving = server_class(port=0)
    rules = args.answer_rules or (RULES_PATH if args.auto else None)
    with serving as server:
        room = f"conv_demo_{secrets.token_hex(3)}"
        where = dict(url=server.url, room=room, api_key=server.api_key, api_secret=server.api_secret)
        session = running.prepare(prepare_room, running.options(args, rules=rules, **where), err)
        if session is None:
            return EXIT_SETUP
        log_path = os.path.join(tempfile.gettempdir(), f"inspector-demo-agent-{room}.log")
        agent = AgentProcess(
            server.url,
            room,
            server.mint_token(PARTICIPANTS[0], room, name="Alicia (demo)"),
            server.mint_token(PARTICIPANTS[1], room, name="Demo user"),
            rounds=running.rounds(args),
            speed=args.speed,
            log_path=log_path,
        )
        session.source.watch_state(agent.go)
        note = f"room {room} at {server.url}; agent log {agent.log_path}"
        try:
            return running.run(session, out, err, show, finished=agent.finished, note=note)
        finally:
            agent.stop()
            session.close()
