"""The real LiveKit SDK against the loopback room server: joins, leaves, data packets, hidden and dropped peers.

The SDK can abort its process at interpreter exit, so every scenario runs in a child process (this file
run as a script), which prints its findings as JSON and ends with os._exit; pytest only asserts on them.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import traceback
from typing import Any

import pytest

HERE = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
WAIT = 15.0  # seconds before a stuck wait gives up (a guard, not a timing assertion)


def _has_non_loopback_interface() -> bool:
    try:
        import ifaddr
    except ImportError:
        return True  # cannot tell; let the scenarios say what happens
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            address = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            if address not in ("127.0.0.1", "::1") and not address.startswith("fe80"):
                return True
    return False


pytestmark = [
    pytest.mark.skipif(
        not _has_non_loopback_interface(),
        reason="only the loopback interface is up: libwebrtc (in the LiveKit SDK) offers no loopback ICE "
        "candidates, so SDK participants cannot reach the room server here",
    ),
    # one pytest-xdist worker for the module: its scenarios run once per module (the fixtures below),
    # spread over workers they ran once in each
    pytest.mark.xdist_group("room_server"),
    pytest.mark.slow,  # SDK participants in child processes, on our room and the real server: end to end
]


# ---- the child process: scenarios with the real SDK ---------------------------------------------------------


async def until(predicate, what: str, timeout: float = WAIT) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


class Peer:
    """One SDK participant and everything it saw."""

    def __init__(self, identity: str) -> None:
        from livekit import rtc

        self.identity = identity
        self.room = rtc.Room()
        self.events: list[list[str]] = []
        self.data: list[dict[str, Any]] = []
        self.room.on("participant_connected", lambda p: self.events.append(["connected", p.identity]))
        self.room.on("participant_disconnected", lambda p: self.events.append(["disconnected", p.identity]))
        self.room.on("disconnected", lambda reason: self.events.append(["room_disconnected", str(reason)]))
        self.room.on("data_received", self._on_data)

    def _on_data(self, packet) -> None:
        self.data.append(
            {
                "data": packet.data.decode(errors="replace"),
                "kind": int(packet.kind),
                "topic": packet.topic,
                "from": packet.participant.identity if packet.participant else None,
            }
        )

    async def join(self, server, room: str, **grant: Any) -> Peer:
        from livekit import rtc

        options = rtc.RoomOptions(single_peer_connection=grant.pop("single_pc", None))
        await self.room.connect(server.url, server.mint_token(self.identity, room, **grant), options)
        return self

    @property
    def remote(self) -> list[str]:
        return sorted(self.room.remote_participants)

    async def send(self, text: str, **options: Any) -> None:
        await self.room.local_participant.publish_data(text.encode(), **options)


async def scenario_exchange(server) -> dict[str, Any]:
    alice = await Peer("alice").join(server, "talk")
    bob = await Peer("bob").join(server, "talk")
    await until(lambda: ["connected", "bob"] in alice.events, "alice to see bob join")
    seen_by_bob = bob.remote
    await alice.send("hello bob", reliable=True, topic="chat")
    await alice.send("fast", reliable=False, topic="telemetry")
    await bob.send("hello alice", reliable=True, topic="chat")
    carol = await Peer("carol").join(server, "talk")
    await until(lambda: len(alice.remote) == 2, "alice to see carol")
    await alice.send("only for bob", topic="private", destination_identities=["bob"])
    await alice.send("for everyone", topic="public")
    await until(lambda: len(bob.data) >= 4 and len(carol.data) >= 1, "the packets")
    await bob.room.disconnect()
    await until(lambda: ["disconnected", "bob"] in alice.events, "alice to see bob leave")
    listed = [p.identity for p in server.participants("talk")]
    await alice.room.disconnect()
    await carol.room.disconnect()
    return {
        "bob_saw_on_join": seen_by_bob,
        "bob_data": bob.data,
        "alice_data": alice.data,
        "carol_data": carol.data,
        "alice_events": alice.events,
        "listed_after_bob_left": listed,
    }


async def scenario_early_packets(server) -> dict[str, Any]:
    """Packets sent the moment a participant is announced, before its data channels open, all arrive."""
    alice = await Peer("alice").join(server, "early")
    sends: list[asyncio.Future[None]] = []

    def burst(participant) -> None:
        for n in range(20):
            sends.append(asyncio.ensure_future(alice.send(f"early {n}", topic="early")))

    alice.room.on("participant_connected", burst)
    bob = await Peer("bob").join(server, "early")
    await until(lambda: len(bob.data) >= 20, "20 early packets")
    await asyncio.gather(*sends)
    await bob.room.disconnect()
    await alice.room.disconnect()
    return {"bob_data": [d["data"] for d in bob.data]}


async def scenario_rpc_and_streams(server) -> dict[str, Any]:
    """RPC and text streams ride on data packets (rpc_*, stream_*): the room forwards them as they are."""
    alice = await Peer("alice").join(server, "rpc")
    bob = await Peer("bob").join(server, "rpc")
    await until(lambda: "bob" in alice.remote, "alice to see bob")

    @bob.room.local_participant.register_rpc_method("echo")
    async def echo(data) -> str:
        return f"{data.caller_identity} said {data.payload}"

    texts: list[str] = []

    async def read(reader, identity: str) -> None:
        texts.append(f"{identity}: {await reader.read_all()}")

    bob.room.register_text_stream_handler(
        "notes", lambda reader, identity: asyncio.ensure_future(read(reader, identity))
    )
    reply = await alice.room.local_participant.perform_rpc(
        destination_identity="bob", method="echo", payload="hi"
    )
    await alice.room.local_participant.send_text("a longer note " * 100, topic="notes")
    await until(lambda: texts, "the text stream")
    await alice.room.disconnect()
    await bob.room.disconnect()
    return {"reply": reply, "texts": texts}


async def scenario_bad_tokens(server) -> dict[str, Any]:
    from livekit import rtc

    from inspector.room.tokens import mint_token

    tokens = {
        "wrong_secret": mint_token(server.api_key, "another-secret-that-is-long-enough-0000", "eve", "talk"),
        "expired": mint_token(server.api_key, server.api_secret, "eve", "talk", ttl=-3600),
        "wrong_key": mint_token("otherkey", server.api_secret, "eve", "talk"),
    }
    errors = {}
    for name, token in tokens.items():
        room = rtc.Room()
        try:
            await room.connect(server.url, token)
            errors[name] = None
        except rtc.ConnectError as exc:
            errors[name] = exc.message
    return {"errors": errors, "rooms": server.rooms()}


async def scenario_hidden(server) -> dict[str, Any]:
    alice = await Peer("alice").join(server, "watch")
    ghost = await Peer("ghost").join(server, "watch", hidden=True)
    bob = await Peer("bob").join(server, "watch")
    await until(lambda: ["connected", "bob"] in alice.events, "alice to see bob")
    await alice.send("to the room", topic="t")
    await until(lambda: len(ghost.data) >= 1 and len(bob.data) >= 1, "the packet")
    listed = {p.identity: p.hidden for p in server.participants("watch")}
    result = {
        "alice_remote": alice.remote,
        "bob_remote": bob.remote,
        "ghost_remote": ghost.remote,
        "alice_events": list(alice.events),
        "ghost_data": ghost.data,
        "listed": listed,
    }
    await ghost.room.disconnect()
    await until(lambda: "ghost" not in {p.identity for p in server.participants("watch")}, "ghost to leave")
    # a hidden leave must not reach the others either: had the server told alice, it would have done so
    # before telling her of carol, who joins after it on the same signal connection
    carol = await Peer("carol").join(server, "watch")
    await until(lambda: ["connected", "carol"] in alice.events, "alice to see carol")
    result["alice_events_after_ghost_left"] = list(alice.events)
    for peer in (alice, bob, carol):
        await peer.room.disconnect()
    return result


async def scenario_kicked(server) -> dict[str, Any]:
    alice = await Peer("alice").join(server, "kick")
    bob = await Peer("bob").join(server, "kick")
    carol = await Peer("carol").join(server, "kick")
    await until(lambda: len(alice.remote) == 2, "alice to see bob and carol")
    assert await server.drop("bob", rejoin=False)
    await until(lambda: ["disconnected", "bob"] in alice.events, "alice to see bob dropped")
    await until(lambda: any(e[0] == "room_disconnected" for e in bob.events), "bob to give up")
    assert await server.remove("carol")
    await until(lambda: any(e[0] == "room_disconnected" for e in carol.events), "carol to be removed")
    await until(lambda: ["disconnected", "carol"] in alice.events, "alice to see carol removed")
    listed = [p.identity for p in server.participants("kick")]
    await alice.room.disconnect()
    return {
        "alice_events": alice.events,
        "bob_events": bob.events,
        "carol_events": carol.events,
        "alice_remote": alice.remote,
        "listed": listed,
    }


async def scenario_fallback(server) -> dict[str, Any]:
    """The /rtc path: a server without /rtc/v1 (the SDK falls back) and an SDK that asks for /rtc."""
    from inspector.room.server import RoomServer

    async with RoomServer(
        port=0,
        api_key=server.api_key,
        api_secret=server.api_secret,
        single_pc=False,
        on_event=lambda line: None,
    ) as old:
        alice = await Peer("alice").join(old, "old")
        bob = await Peer("bob").join(old, "old", single_pc=False)
        await until(lambda: ["connected", "bob"] in alice.events, "alice to see bob")
        await alice.send("over /rtc", topic="v0")
        await bob.send("back", reliable=False, topic="v0")
        await until(lambda: len(bob.data) >= 1 and len(alice.data) >= 1, "the packets")
        paths = sorted(p.path for p in old.participants("old"))
        await alice.room.disconnect()
        await bob.room.disconnect()
    return {"paths": paths, "bob_data": bob.data, "alice_data": alice.data}


SCENARIOS = {name[len("scenario_") :]: fn for name, fn in globals().items() if name.startswith("scenario_")}


async def run_scenarios(names: list[str]) -> dict[str, Any]:
    from contextlib import nullcontext

    from servers import on_real_server

    from inspector.room.server import RoomServer

    results: dict[str, Any] = {}
    real = on_real_server()  # the same scenarios on the real LiveKit server, when the test asks for it
    serving: Any = nullcontext(real) if real is not None else RoomServer(port=0, on_event=lambda line: None)
    async with serving as server:
        for name in names:
            try:
                results[name] = {"ok": await asyncio.wait_for(SCENARIOS[name](server), 40)}
            except BaseException:  # noqa: BLE001 - reported to the test, which fails with it
                results[name] = {"error": traceback.format_exc()}
    return results


def child_main(names: list[str]) -> None:
    sys.path.insert(0, ROOT)
    sys.path.insert(0, os.path.join(ROOT, "tests", "live"))
    results = asyncio.run(run_scenarios(names))
    sys.stdout.write("RESULTS " + json.dumps(results) + "\n")
    sys.stdout.flush()
    os._exit(0)


# ---- the pytest side ----------------------------------------------------------------------------------------

GROUPS = [["exchange", "early_packets", "rpc_and_streams", "bad_tokens"], ["hidden", "kicked", "fallback"]]
ON_BOTH = ["exchange", "early_packets", "rpc_and_streams", "hidden"]
"""The scenarios that also run on the real LiveKit server: the room's behaviour must match it. The others
test what only our room has (its error wording, cutting a connection, its /rtc fallback server)."""


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    """Run the scenario groups in two child processes at once; merge what they found."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    procs = [
        subprocess.Popen(
            [sys.executable, HERE, *group],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        for group in GROUPS
    ]
    merged: dict[str, Any] = {}
    for proc in procs:
        out, err = proc.communicate(timeout=150)
        lines = [line for line in out.splitlines() if line.startswith("RESULTS ")]
        if not lines:
            pytest.fail(f"scenario process ended with {proc.returncode} and no results:\n{err[-3000:]}")
        merged.update(json.loads(lines[-1][len("RESULTS ") :]))
    return merged


@pytest.fixture(scope="module")
def real_results(real_livekit) -> dict[str, Any]:
    """The ``ON_BOTH`` scenarios on the real LiveKit server (the session's)."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env["INSPECTOR_TEST_LIVEKIT"] = real_livekit.spec()
    proc = subprocess.run(
        [sys.executable, HERE, *ON_BOTH], capture_output=True, text=True, env=env, cwd=ROOT, timeout=200
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULTS ")]
    if not lines:
        pytest.fail(f"scenario process ended with {proc.returncode} and no results:\n{proc.stderr[-3000:]}")
    return json.loads(lines[-1][len("RESULTS ") :])


@pytest.fixture(params=["loopback", "real"])
def on_both(request) -> dict[str, Any]:
    """The results of our room, then of the real server, for the tests that must hold on both."""
    return request.getfixturevalue("results" if request.param == "loopback" else "real_results")


def outcome(results: dict[str, Any], name: str) -> dict[str, Any]:
    found = results[name]
    assert "error" not in found, found.get("error")
    return found["ok"]


def test_two_participants_see_each_other_and_exchange_reliable_and_lossy_packets(on_both):
    r = outcome(on_both, "exchange")
    assert r["bob_saw_on_join"] == ["alice"]
    assert ["connected", "bob"] in r["alice_events"] and ["connected", "carol"] in r["alice_events"]
    got = {(d["data"], d["kind"], d["topic"], d["from"]) for d in r["bob_data"]}
    assert ("hello bob", 1, "chat", "alice") in got  # KIND_RELIABLE = 1
    assert ("fast", 0, "telemetry", "alice") in got  # KIND_LOSSY = 0
    assert ("only for bob", 1, "private", "alice") in got
    assert [(d["data"], d["from"]) for d in r["alice_data"]] == [("hello alice", "bob")]
    carol_got = [d["data"] for d in r["carol_data"]]
    assert "for everyone" in carol_got and "only for bob" not in carol_got


def test_leaving_participant_is_reported_and_unlisted(on_both):
    r = outcome(on_both, "exchange")
    assert ["disconnected", "bob"] in r["alice_events"]
    assert sorted(r["listed_after_bob_left"]) == ["alice", "carol"]


def test_packets_sent_before_the_receivers_channel_opens_are_queued_not_lost(on_both):
    r = outcome(on_both, "early_packets")
    assert r["bob_data"] == [f"early {n}" for n in range(20)]


def test_rpc_and_text_streams_pass_through(on_both):
    r = outcome(on_both, "rpc_and_streams")
    assert r["reply"] == "alice said hi"
    assert r["texts"] == ["alice: " + "a longer note " * 100]


def test_bad_tokens_are_refused_with_a_readable_reason(results):
    r = outcome(results, "bad_tokens")
    errors = r["errors"]
    assert errors["wrong_secret"] and "signature does not match" in errors["wrong_secret"]
    assert errors["expired"] and "expired" in errors["expired"]
    assert errors["wrong_key"] and "otherkey" in errors["wrong_key"]
    assert "401" in errors["wrong_secret"]
    assert r["rooms"] == []  # nobody got in


def test_hidden_participant_receives_but_is_not_listed_to_others(on_both):
    r = outcome(on_both, "hidden")
    assert r["alice_remote"] == ["bob"] and r["bob_remote"] == ["alice"]
    assert r["ghost_remote"] == ["alice", "bob"]
    assert [(d["data"], d["from"]) for d in r["ghost_data"]] == [("to the room", "alice")]
    assert r["listed"] == {"alice": False, "ghost": True, "bob": False}
    assert not any("ghost" in event for event in r["alice_events_after_ghost_left"])


def test_dropped_and_removed_participants_show_as_disconnected(results):
    r = outcome(results, "kicked")
    assert ["disconnected", "bob"] in r["alice_events"]
    assert ["disconnected", "carol"] in r["alice_events"]
    assert any(e[0] == "room_disconnected" for e in r["bob_events"])
    assert ["room_disconnected", "4"] in r["carol_events"]  # DisconnectReason.PARTICIPANT_REMOVED
    assert r["alice_remote"] == [] and r["listed"] == ["alice"]


def test_the_rtc_fallback_path_carries_data_too(results):
    r = outcome(results, "fallback")
    assert r["paths"] == ["v0", "v0"]
    assert [(d["data"], d["from"]) for d in r["bob_data"]] == [("over /rtc", "alice")]
    assert [(d["data"], d["kind"]) for d in r["alice_data"]] == [("back", 0)]


if __name__ == "__main__":
    child_main(sys.argv[1:])
