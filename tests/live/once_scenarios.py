"""Scenarios of answering exactly once and of joining late (run by live_scenarios.py's main, on the loopback
room and the real LiveKit server): two inspectors in one room, a second answer, an answer to a requester
that left; an inspector joining a room already in use, where results come for requests it never saw."""

from __future__ import annotations

import asyncio
import os

import msgpack
from live_scenarios import ROOM, ROOM_NAME, Agent, auto_rules, make_source, run_cli, server_env, until
from servers import serve

from inspector.answer import compose
from inspector.model import CallStore


def _answers(agent: Agent) -> list[dict]:
    found = [msgpack.unpackb(data, raw=False) for data in agent.received]
    return [e for e in found if isinstance(e, dict) and e.get("type") == 7]


async def answer_once(out: str) -> dict:
    """Two headless inspectors with the same rules in one room, then the answer API: one answer each."""
    rules_path = auto_rules(out)
    async with serve() as server:
        # INSPECTOR_DATA_DIR: the test's, shared by both, as two inspectors of one user
        env = server_env(server)
        box: list[Agent] = []

        def said(lines: list[str]) -> bool:
            return any('"answered_by": "auto"' in x or "did not answer" in x for x in lines)

        async def play() -> None:
            await until(lambda: len(server.participants(ROOM_NAME)) == 2, 30)  # both inspectors are in
            agent = await Agent("agent-once").join(server)
            box.append(agent)
            await agent.request("t1", "read_local_file", "client")

        player = asyncio.ensure_future(play())
        args = ["live", "--no-ui", "--json", "--room", ROOM_NAME, "--no-record", "--answer-rules", rules_path]
        runs = await asyncio.gather(
            run_cli([*args, "--identity", "inspector-one"], env, stop_when=said, timeout=60),
            run_cli([*args, "--identity", "inspector-two"], env, stop_when=said, timeout=60),
        )
        await player
        agent = box[0]
        await asyncio.sleep(1.0)  # a second answer, were one sent, would come right after the first
        cli_answers = _answers(agent)

        # the answer API: a second answer refused; an answer to a requester that left refused
        store = CallStore()
        source = make_source(server, store, None, identity="inspector-api")
        await source.start()
        await until(lambda: "agent-once" in source.state.participants, 20)
        await agent.request("t2", "read_local_file", "client")
        await agent.request("t3", "read_local_file", "client")
        await until(lambda: store.find(ROOM, "t3") is not None, 20)
        first = await source.send_answer(store.find(ROOM, "t2"), compose.success({"n": 1}))
        refusals: dict[str, str] = {}
        try:
            await source.send_answer(store.find(ROOM, "t2"), compose.success({"n": 2}))
        except Exception as exc:  # noqa: BLE001 - reported to the test
            refusals["second"] = f"{type(exc).__name__}: {exc}"
        await until(lambda: len(_answers(agent)) >= len(cli_answers) + 1, 20)
        await agent.room.disconnect()
        await until(lambda: "agent-once" not in source.state.participants, 30)
        gone = store.find(ROOM, "t3")
        review = source.review_answer(gone, compose.success({}))
        try:
            await source.send_answer(gone, compose.success({}))
        except Exception as exc:  # noqa: BLE001 - reported to the test
            refusals["gone"] = f"{type(exc).__name__}: {exc}"
        state = gone.state(store.clock.now()).value
        # the agent's script run again: a new participant with the same identity asks t1 again, which
        # the first inspectors answered from this machine: a new request, answered
        again = await Agent("agent-once").join(server)
        await until(lambda: "agent-once" in source.state.participants, 20)
        await again.request("t1", "read_local_file", "client")
        await until(lambda: store.find(ROOM, "t1") is not None, 20)
        try:
            await source.send_answer(store.find(ROOM, "t1"), compose.success({"n": 3}))
        except Exception as exc:  # noqa: BLE001 - reported to the test
            refusals["rerun"] = f"{type(exc).__name__}: {exc}"
        await until(lambda: bool(_answers(again)) or "rerun" in refusals, 20)
        rerun_answers = _answers(again)
        await again.room.disconnect()
        await source.stop()
        return {
            "rerun_answers": rerun_answers,
            "runs": runs,
            "cli_answers": cli_answers,
            "api_answers": _answers(agent)[len(cli_answers) :],
            "first_stanza": first.stanza_id,
            "refusals": refusals,
            "gone_review": [i.kind for i in review.refusals],
            "gone_state": state,
        }


async def late_join(out: str) -> dict:
    """The agent asks before the inspector joins; the result comes after: recorded, replayed, checked."""
    path = os.path.join(out, "late.jsonl")
    async with serve() as server:
        env = server_env(server)
        agent = await Agent("agent-early").join(server)
        await agent.request("r_before", "web_search", "server")  # nobody else in the room: nobody sees it
        steps: list[str] = []

        async def play() -> None:
            await until(lambda: len(server.participants(ROOM_NAME)) == 2, 30)  # the inspector is in
            steps.append("in")
            await asyncio.sleep(1.0)  # its join is told to it before any packet of ours
            await agent.send(7, {"id": "r_before", "requestId": "r_before", "success": True, "result": {}})
            await agent.request("r_after", "web_search", "server")
            await agent.send(7, {"id": "r_after", "requestId": "r_after", "success": True, "result": {}})
            steps.append("sent")

        player = asyncio.ensure_future(play())
        live = await run_cli(
            ["live", "--no-ui", "--json", "--room", ROOM_NAME, "--record", path],
            env,
            stop_when=lambda lines: sum('"r_after"' in x for x in lines) >= 2,
            timeout=60,
            stages=steps,
        )
        await player
        await agent.room.disconnect()
    dump = await run_cli(["dump", "--json", path], os.environ)
    check = await run_cli(["check", path], os.environ)
    stats = await run_cli(["stats", "--json", path], os.environ)
    return {"live": live, "dump": dump, "check": check, "stats": stats}


async def ended_on_purpose(out: str) -> dict:
    """Two inspectors with one identity, then (on the real server) the room deleted: neither rejoins."""
    async with serve() as server:
        env = server_env(server)
        args = [
            "live",
            "--no-ui",
            "--json",
            "--room",
            ROOM_NAME,
            "--no-record",
            "--identity",
            "inspector-same",
        ]
        first = asyncio.ensure_future(run_cli(args, env, timeout=60))
        await until(lambda: len(server.participants(ROOM_NAME)) == 1, 30)
        second = asyncio.ensure_future(run_cli(args, env, timeout=60))
        # the first is pushed out and stays out: ended on its own; the second stays until stopped
        pushed_out = await asyncio.wait_for(first, 60)
        await asyncio.sleep(2.0)  # a rejoin, were one tried, would push the second out in this time
        in_room = [p.identity for p in server.participants(ROOM_NAME)]
        deleted = None
        if hasattr(server, "delete_room"):  # the real server's RoomService
            await server.delete_room(ROOM_NAME)
            deleted = await asyncio.wait_for(second, 60)
            await asyncio.sleep(2.0)
            in_room_after = [p.identity for p in server.participants(ROOM_NAME)]
        else:
            second.cancel()
            in_room_after = []
        return {
            "pushed_out": pushed_out,
            "in_room": in_room,
            "deleted": deleted,
            "in_room_after": in_room_after,
            "server": "real" if deleted is not None else "loopback",
        }


async def foreign_data(out: str) -> dict:
    """Another app's data on the room's data channel (LiveKit's chat, a status line) beside Alicia's."""
    path = os.path.join(out, "foreign.jsonl")
    async with serve() as server:
        env = server_env(server)

        async def play() -> Agent:
            await until(lambda: len(server.participants(ROOM_NAME)) == 1, 30)  # the inspector is in
            agent = await Agent("agent-chat").join(server)
            chat = b'{"id": "m1", "message": "hello from the chat", "timestamp": 1767225600000}'
            await agent.room.local_participant.publish_data(chat, reliable=True, topic="lk.chat")
            await agent.room.local_participant.publish_data(b"typing", reliable=True, topic="status")
            await agent.request("r1", "web_search", "server")
            return agent

        player = asyncio.ensure_future(play())
        live = await run_cli(
            ["live", "--no-ui", "--json", "--room", ROOM_NAME, "--record", path],
            env,
            stop_when=lambda lines: any('"r1"' in x for x in lines),
            timeout=60,
        )
        agent = await player
        await agent.room.disconnect()
    dump = await run_cli(["dump", "--messages", path], os.environ)
    check = await run_cli(["check", path], os.environ)
    return {"live": live, "dump": dump, "check": check}


async def server_replay(out: str) -> dict:
    """The server's replay to a reconnected client (05-reconnection-semantics): the envelopes it sent come
    again with their stanzaIds; the inspector in the room sees each twice."""
    from inspector.protocols import alicia

    path = os.path.join(out, "replay.jsonl")
    rules_path = auto_rules(out)
    async with serve() as server:
        env = server_env(server)
        sent: list[bytes] = []
        box: list[Agent] = []

        def envelope(stanza: int, type_: int, body: dict) -> bytes:
            data = alicia.encode_envelope(type_=type_, body=body, conversation_id=ROOM, stanza_id=stanza)
            sent.append(data)
            return data

        async def play() -> None:
            await until(lambda: len(server.participants(ROOM_NAME)) == 1, 30)  # the inspector is in
            agent = await Agent("agent-replay").join(server)
            box.append(agent)
            request = {"id": "s1", "messageId": "m1", "toolName": "web_search", "execution": "server"}
            await agent.send(0, None, raw=envelope(-1, 6, {**request, "parameters": {}, "timeoutMs": 30000}))
            result = {"id": "s1", "requestId": "s1", "success": True, "result": {"hits": 1}}
            await agent.send(0, None, raw=envelope(-2, 7, result))
            client = {"id": "c1", "messageId": "m1", "toolName": "read_file", "execution": "client"}
            await agent.send(0, None, raw=envelope(-3, 6, {**client, "parameters": {}, "timeoutMs": 30000}))
            await agent.send(0, None, raw=envelope(-4, 3, {"id": "a1", "content": "searching"}))
            await until(lambda: len(agent.received) >= 1, 20)  # the rules answered c1
            for data in list(sent):  # the replay: the same envelopes, the same stanzaIds
                await agent.send(0, None, raw=data)
            await agent.request("after", "web_search", "server")

        player = asyncio.ensure_future(play())
        live = await run_cli(
            [
                "live",
                "--no-ui",
                "--json",
                "--room",
                ROOM_NAME,
                "--record",
                path,
                "--answer-rules",
                rules_path,
            ],
            env,
            stop_when=lambda lines: any('"after"' in x for x in lines),
            timeout=60,
        )
        await player
        agent = box[0]
        await asyncio.sleep(1.0)  # a second answer, were one sent, would have come by now
        answers = _answers(agent)
        await agent.room.disconnect()
    dump = await run_cli(["dump", "--json", path], os.environ)
    check = await run_cli(["check", path], os.environ)
    return {"live": live, "dump": dump, "check": check, "answers": answers}


SCENARIOS = {
    "server_replay": server_replay,
    "answer_once": answer_once,
    "late_join": late_join,
    "ended_on_purpose": ended_on_purpose,
    "foreign_data": foreign_data,
}
