"""``inspector demo --hub``: the stand-in hub, a scripted agent and bridge, and the inspector joined to it.

By default the inspector is the hub's assistant: the bridge asks it for ``get_battery`` and
``get_clipboard`` each round and the person answers (``a``), or ``--auto`` answers with ``hub_rules.toml``.
With ``--as-monitor`` a scripted assistant answers and the inspector watches every frame.
Everything runs in this process: the hub and its peers on a thread of their own, the inspector on the main
thread. The hub is a stand-in (:mod:`inspector.live.hub_server`), not Alicia's server.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import threading
from concurrent.futures import Future
from typing import IO, TYPE_CHECKING, Any

from inspector.demo import running
from inspector.live.hub_peers import HubAgent, HubAssistant, HubBridge, PeerError, join, scripted_conversation
from inspector.live.hub_server import HubServer
from inspector.sources.tasks import cancel_all_others

if TYPE_CHECKING:
    from inspector.live.runner import ShowUi

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS_PATH = os.path.join(HERE, "hub_tools.toml")
RULES_PATH = os.path.join(HERE, "hub_rules.toml")
CONVERSATION = "conv_hub_demo"
SCRIPTED_ANSWERS: dict[str, dict[str, Any]] = {
    "get_battery": {"level": 64, "charging": True},
    "get_clipboard": {"text": "bread, milk"},
}


class HubDemo:
    """The stand-in hub and its scripted peers on their own thread and loop."""

    def __init__(self, *, rounds: int, speed: float, monitor: bool) -> None:
        self.secret = secrets.token_hex(12)
        self.rounds = rounds
        self.pause = 0.8 / max(speed, 0.01)
        self.monitor = monitor
        self.loop = asyncio.new_event_loop()
        self.server = HubServer(self.secret)
        self.finished: Future[None] = Future()
        self.log: list[str] = []
        self._thread = threading.Thread(target=self.loop.run_forever, name="hub-demo", daemon=True)

    def start(self) -> str:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(10)
        return self.server.url

    def go(self) -> None:
        """Start the script (once the inspector is connected)."""
        if not self.finished.running() and not self.finished.done():
            self.finished.set_running_or_notify_cancel()
            asyncio.run_coroutine_threadsafe(self._play(), self.loop)

    async def _play(self) -> None:
        url = self.server.url
        peers: list[Any] = []
        try:
            agent = await HubAgent(url, self.secret).start()
            client = await join(url, conversation=CONVERSATION)
            bridge = await HubBridge(url).start()
            peers = [agent, bridge]
            if self.monitor:
                peers.append(await HubAssistant(url, self.secret, SCRIPTED_ANSWERS).start())
            turn = 0
            while not self.rounds or turn < self.rounds:
                turn += 1
                await self._turn(turn, agent, client, bridge)
            await client.close()
        except Exception as exc:  # noqa: BLE001 - the demo's own peers: said, not raised
            self.log.append(f"the scripted peers stopped: {exc}")
        finally:
            for peer in peers:
                await peer.close()
            self.finished.set_result(None)

    async def _turn(self, turn: int, agent: HubAgent, client: Any, bridge: HubBridge) -> None:
        import inspector.protocols.alicia.hub as hub

        await client.send(hub.encode(2, {"id": f"um_{turn}", "content": "How is my phone?"}, CONVERSATION))
        await agent.play(scripted_conversation(f"_{turn}"), CONVERSATION, pause=self.pause)
        # the bridge asks only a fresh assistant (one heartbeat every 15 s), as bridge.go does
        for _ in range(200):
            if bridge.assistant_available():
                break
            await asyncio.sleep(0.1)
        for tool in ("get_battery", "get_clipboard"):
            try:
                body = await bridge.request(tool)
                self.log.append(f"{tool}: {body.get('result') if body.get('success') else body.get('error')}")
            except PeerError as exc:
                self.log.append(f"{tool}: {exc}")
            await asyncio.sleep(self.pause)

    def stop(self) -> None:
        """Cancel and await every task of the demo's loop (the script waiting on a request, the peers'
        readers, the hub's connections), close the hub, then stop and close the loop: a task left
        pending was destroyed with the loop, and its peers' ``close`` then ran with no loop (a
        traceback when the person quit with a request pending)."""

        async def close() -> None:
            await cancel_all_others()
            await self.server.close()
            await cancel_all_others()

        if self._thread.is_alive():
            try:
                asyncio.run_coroutine_threadsafe(close(), self.loop).result(10)
            except Exception:  # noqa: BLE001 - leaving anyway
                pass
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(5)
        if not self._thread.is_alive() and not self.loop.is_closed():
            self.loop.close()


def run_hub_demo(
    args: argparse.Namespace,
    out: IO[str] | None = None,
    err: IO[str] | None = None,
    show: ShowUi | None = None,
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    from inspector.live.hub_session import prepare_hub

    monitor = bool(getattr(args, "as_monitor", False))
    rules = args.answer_rules or (RULES_PATH if args.auto and not monitor else None)
    demo = HubDemo(rounds=running.rounds(args), speed=args.speed, monitor=monitor)
    url = demo.start()
    tools = None if monitor else TOOLS_PATH
    where = dict(hub=url, as_assistant=not monitor, tools=tools, agent_secret=demo.secret)
    try:
        session = running.prepare(prepare_hub, running.options(args, rules=rules, **where), err)
        if session is None:
            return running.EXIT_SETUP
        session.source.watch_state(lambda state: demo.go() if state.status.value == "connected" else None)

        async def finished() -> None:
            await asyncio.wrap_future(demo.finished)
            await asyncio.sleep(0.3)  # the last frames reach the inspector

        try:
            code = running.run(session, out, err, show, finished=finished)
        finally:
            session.close()
        if args.no_ui:
            for line in demo.log:
                err.write(f"inspector demo: bridge: {line}\n")
        return code
    finally:
        demo.stop()
