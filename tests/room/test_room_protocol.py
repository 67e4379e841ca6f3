"""The loopback room server without the LiveKit SDK: tokens, HTTP answers, signalling frames, data routing
between aiortc clients, and the `inspector room` command. Runs on a machine with only `lo` too."""

from __future__ import annotations

import asyncio
import base64
import logging
import subprocess
import sys
import urllib.error
import urllib.request

import jwt
import pytest

from inspector.room.tokens import Grant, TokenError, bearer_token, mint_token, verify_token

KEY, SECRET = "testkey", "a-test-secret-long-enough-for-hs256-and-for-the-hs512-case-below"
GUARD = 10.0  # seconds before a stuck wait fails (a guard, not a timing assertion)


# ---- tokens -------------------------------------------------------------------------------------------------


def test_a_minted_token_verifies_with_its_grants():
    token = mint_token(
        KEY,
        SECRET,
        "alice",
        "r1",
        name="Alice",
        hidden=True,
        can_publish_data=False,
        kind="agent",
        attributes={"a": "1"},
        metadata="m",
    )
    grant = verify_token(token, KEY, SECRET)
    assert grant == Grant(
        identity="alice",
        room="r1",
        name="Alice",
        metadata="m",
        kind="agent",
        attributes={"a": "1"},
        can_publish_data=False,
        hidden=True,
    )


def test_tokens_from_livekit_api_verify_too():
    api = pytest.importorskip("livekit.api")
    token = (
        api.AccessToken(KEY, SECRET)
        .with_identity("bob")
        .with_name("Bob")
        .with_grants(api.VideoGrants(room_join=True, room="r2", hidden=True))
        .to_jwt()
    )
    grant = verify_token(token, KEY, SECRET)
    assert (grant.identity, grant.room, grant.name, grant.hidden) == ("bob", "r2", "Bob", True)


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        (mint_token(KEY, "some-other-secret-of-32-bytes-or-more", "a", "r"), "signature does not match"),
        (mint_token("otherkey", SECRET, "a", "r"), "invalid API key"),
        (mint_token(KEY, SECRET, "a", "r", ttl=-3600), "expired"),
        (mint_token(KEY, SECRET, "a", "r", not_before=4102444800), "not valid before"),
        (mint_token(KEY, SECRET, "a", ""), "names no room"),
        (mint_token(KEY, SECRET, "", "r"), "no identity"),
        (
            jwt.encode(
                {"iss": KEY, "sub": "a", "video": {"roomJoin": True, "room": "r"}}, SECRET, algorithm="HS256"
            ),
            "'exp' claim is missing",
        ),
        (
            jwt.encode(
                {"iss": KEY, "sub": "a", "exp": 4102444800, "video": {"room": "r"}}, SECRET, algorithm="HS256"
            ),
            "roomJoin",
        ),
        (
            jwt.encode({"iss": KEY, "sub": "a", "exp": 4102444800}, SECRET, algorithm="HS256"),
            "no video grant",
        ),
        (
            jwt.encode({"iss": KEY, "sub": "a", "exp": 4102444800}, SECRET, algorithm="HS512"),
            "expected HS256",
        ),
        ("not-a-jwt", "not a JWT"),
    ],
    # named by the reason, not by the token: a token minted now differs from one second to the next, and
    # every pytest-xdist worker must collect the same test names
    ids=lambda value: "token" if value.startswith("eyJ") else None,
)
def test_bad_tokens_are_refused_with_a_reason(token, reason):
    with pytest.raises(TokenError, match=reason):
        verify_token(token, KEY, SECRET)


def test_time_checks_use_the_given_clock():
    token = mint_token(KEY, SECRET, "a", "r", ttl=100, now=1000)
    assert verify_token(token, KEY, SECRET, now=1050).identity == "a"
    with pytest.raises(TokenError, match="expired"):
        verify_token(token, KEY, SECRET, now=1000 + 100 + 61)


@pytest.mark.parametrize("header", [None, "", "Basic abc", "Bearer ", "Bearer"])
def test_authorization_header_must_be_bearer(header):
    with pytest.raises(TokenError, match="no access token"):
        bearer_token(header)


# ---- HTTP and signalling, with a raw WebSocket client --------------------------------------------------------


@pytest.fixture
async def server():
    from inspector.room.server import RoomServer

    events: list[str] = []
    async with RoomServer(port=0, api_key=KEY, api_secret=SECRET, on_event=events.append) as srv:
        srv.events = events
        yield srv


def http_get(url: str, token: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=GUARD) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


async def test_validate_endpoint_answers_with_the_reason(server):
    http = server.url.replace("ws://", "http://")
    good = server.mint_token("a", "r")
    bad = mint_token(KEY, SECRET, "a", "r", ttl=-3600)
    assert await asyncio.to_thread(http_get, f"{http}/rtc/v1/validate", good) == (200, "success")
    status, text = await asyncio.to_thread(http_get, f"{http}/rtc/validate?x=1", bad)
    assert status == 401 and "expired" in text
    status, text = await asyncio.to_thread(http_get, f"{http}/rtc/validate")
    assert status == 401 and "no access token" in text
    assert (await asyncio.to_thread(http_get, f"{http}/elsewhere"))[0] == 404


async def connect(server, identity: str, query: str = "sdk=python&protocol=16", *, token: str | None = None):
    from websockets.asyncio.client import connect as ws_connect

    token = token or server.mint_token(identity, "r")
    return await ws_connect(
        f"{server.url}/rtc?{query}", additional_headers={"Authorization": f"Bearer {token}"}
    )


async def receive(ws, kind: str):
    from livekit.protocol import rtc

    async def next_of_kind():
        while True:
            response = rtc.SignalResponse.FromString(await ws.recv())
            if response.WhichOneof("message") == kind:
                return getattr(response, kind)

    return await asyncio.wait_for(next_of_kind(), GUARD)


async def test_upgrade_with_a_bad_token_is_refused_with_401_and_the_reason(server):
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus) as info:
        await connect(
            server, "eve", token=mint_token(KEY, "wrong-secret-but-long-enough-00000000", "eve", "r")
        )
    assert info.value.response.status_code == 401
    assert b"signature does not match" in info.value.response.body
    assert server.rooms() == []


async def test_resume_and_malformed_joins_are_refused(server):
    from livekit.protocol import rtc
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus) as info:
        await connect(server, "a", "reconnect=1&sid=PA_x")
    assert info.value.response.status_code == 409
    resume = rtc.WrappedJoinRequest(join_request=rtc.JoinRequest(reconnect=True).SerializeToString())
    for query, status in [
        ("join_request=%%%", 400),
        ("join_request=" + base64.urlsafe_b64encode(resume.SerializeToString()).decode().rstrip("="), 409),
        ("", 400),
    ]:
        from websockets.asyncio.client import connect as ws_connect

        with pytest.raises(InvalidStatus) as info:
            await ws_connect(
                f"{server.url}/rtc/v1?{query}",
                additional_headers={"Authorization": f"Bearer {server.mint_token('a', 'r')}"},
            )
        assert info.value.response.status_code == status


async def test_join_response_pings_updates_and_leave(server):
    from livekit.protocol import models, rtc

    alice = await connect(server, "alice")
    join = await receive(alice, "join")
    assert join.participant.sid.startswith("PA_") and join.room.sid.startswith("RM_")
    assert join.participant.identity == "alice" and join.participant.state == models.ParticipantInfo.ACTIVE
    assert join.ping_interval > 0 and join.ping_timeout > 0 and not join.subscriber_primary
    assert list(join.other_participants) == []

    await alice.send(rtc.SignalRequest(ping_req=rtc.Ping(timestamp=1234, rtt=5)).SerializeToString())
    assert (await receive(alice, "pong_resp")).last_ping_timestamp == 1234
    await alice.send(b"\xff\x00 not a protobuf")  # ignored; the session goes on

    bob = await connect(server, "bob")
    bob_join = await receive(bob, "join")
    assert [p.identity for p in bob_join.other_participants] == ["alice"]
    update = await receive(alice, "update")
    assert [(p.identity, p.state) for p in update.participants] == [("bob", models.ParticipantInfo.ACTIVE)]

    await bob.send(rtc.SignalRequest(leave=rtc.LeaveRequest()).SerializeToString())
    update = await receive(alice, "update")
    assert [(p.identity, p.state) for p in update.participants] == [
        ("bob", models.ParticipantInfo.DISCONNECTED)
    ]
    assert [p.identity for p in server.participants("r")] == ["alice"]
    await alice.close()
    await bob.close()


async def test_same_identity_again_replaces_the_first_connection(server):
    from livekit.protocol import models

    first = await connect(server, "alice")
    await receive(first, "join")
    watcher = await connect(server, "watcher")
    await receive(watcher, "join")
    second = await connect(server, "alice")
    await receive(second, "join")
    leave = await receive(first, "leave")
    assert leave.reason == models.DisconnectReason.DUPLICATE_IDENTITY
    gone = await receive(watcher, "update")
    back = await receive(watcher, "update")
    assert (gone.participants[0].state, back.participants[0].state) == (
        models.ParticipantInfo.DISCONNECTED,
        models.ParticipantInfo.ACTIVE,
    )
    assert len(server.participants("r")) == 2
    for ws in (first, second, watcher):
        await ws.close()


async def test_remove_sends_a_leave_and_tells_the_others(server):
    from livekit.protocol import models

    alice, bob = await connect(server, "alice"), await connect(server, "bob")
    await receive(alice, "join")
    await receive(bob, "join")
    assert await server.remove("bob")
    assert (await receive(bob, "leave")).reason == models.DisconnectReason.PARTICIPANT_REMOVED
    assert (await receive(alice, "update")).participants[0].state == models.ParticipantInfo.ACTIVE
    assert (await receive(alice, "update")).participants[0].state == models.ParticipantInfo.DISCONNECTED
    assert not await server.remove("bob")
    await alice.close()


# ---- data packets between two aiortc clients (no SDK, works on `lo` alone) ------------------------------------


async def aiortc_client(server, identity: str, **grant):
    """Join over /rtc/v1 the way the SDK does, with an aiortc peer connection and its data channels."""
    from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription
    from livekit.protocol import rtc
    from websockets.asyncio.client import connect as ws_connect

    pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
    channels = {
        "_reliable": pc.createDataChannel("_reliable"),
        "_lossy": pc.createDataChannel("_lossy", ordered=False, maxRetransmits=0),
    }
    inbox: list[tuple[str, bytes]] = []
    for label, channel in channels.items():
        channel.on("message", lambda data, label=label: inbox.append((label, data)))
    await pc.setLocalDescription(await pc.createOffer())
    join = rtc.JoinRequest(
        publisher_offer=rtc.SessionDescription(type="offer", sdp=pc.localDescription.sdp, id=1)
    )
    wrapped = rtc.WrappedJoinRequest(join_request=join.SerializeToString()).SerializeToString()
    query = "join_request=" + base64.urlsafe_b64encode(wrapped).decode().rstrip("=")
    token = server.mint_token(identity, "data", **grant)
    ws = await ws_connect(
        f"{server.url}/rtc/v1?{query}", additional_headers={"Authorization": f"Bearer {token}"}
    )
    await receive(ws, "join")
    answer = await receive(ws, "answer")
    assert answer.id == 1
    await pc.setRemoteDescription(RTCSessionDescription(sdp=answer.sdp, type="answer"))
    for channel in channels.values():
        await until_true(lambda channel=channel: channel.readyState == "open")
    return pc, ws, channels, inbox


async def until_true(predicate) -> None:
    async def poll():
        while not predicate():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), GUARD)


async def test_data_packets_are_stamped_routed_and_kept_on_their_kind_of_channel(server):
    from livekit.protocol import models

    a_pc, a_ws, a_channels, _ = await aiortc_client(server, "alice")
    b_pc, b_ws, _, b_inbox = await aiortc_client(server, "bob")
    c_pc, c_ws, c_channels, c_inbox = await aiortc_client(server, "carol", can_publish_data=False)

    def packet(text: str, **fields) -> bytes:
        return models.DataPacket(
            participant_identity="forged", user=models.UserPacket(payload=text.encode(), topic="t", **fields)
        ).SerializeToString()

    a_channels["_reliable"].send(b"\x0a\xff garbage")
    a_channels["_reliable"].send(packet("to all"))
    a_channels["_lossy"].send(packet("lossy"))
    a_channels["_reliable"].send(packet("to carol", destination_identities=["carol"]))
    await until_true(lambda: len(b_inbox) >= 2 and len(c_inbox) >= 3)
    received = {(label, models.DataPacket.FromString(data).user.payload.decode()) for label, data in b_inbox}
    assert received == {("_reliable", "to all"), ("_lossy", "lossy")}
    stamped = models.DataPacket.FromString(b_inbox[0][1])
    alice_sid = next(p.sid for p in server.participants("data") if p.identity == "alice")
    assert (stamped.participant_identity, stamped.participant_sid) == ("alice", alice_sid)
    assert stamped.user.participant_identity == "alice"
    assert {models.DataPacket.FromString(d).user.payload for _, d in c_inbox} == {
        b"to all",
        b"lossy",
        b"to carol",
    }

    # carol may not publish data: what she sends goes nowhere; alice's marker after it still arrives
    dropped: list[str] = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = lambda record: dropped.append(record.getMessage())  # type: ignore[method-assign]
    room_log = logging.getLogger("inspector.room")
    level = room_log.level
    room_log.addHandler(handler)
    room_log.setLevel(logging.DEBUG)
    try:
        c_channels["_reliable"].send(packet("from carol"))
        # wait until the server has had carol's packet (and dropped it), not for a fixed time
        await until_true(lambda: any("carol may not publish data" in line for line in dropped))
    finally:
        room_log.removeHandler(handler)
        room_log.setLevel(level)
    a_channels["_reliable"].send(packet("marker"))
    await until_true(lambda: any(b"marker" in data for _, data in b_inbox))
    assert not any(b"from carol" in data for _, data in b_inbox)
    for pc, ws in ((a_pc, a_ws), (b_pc, b_ws), (c_pc, c_ws)):
        await ws.close()
        await pc.close()


# ---- the command ------------------------------------------------------------------------------------------------


def test_room_command_without_the_extra_says_how_to_install_it():
    code = (
        "import sys; sys.modules['aiortc'] = None\n"
        "from inspector.cli import main\n"
        "raise SystemExit(main(['room', '--port', '0']))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "pip install 'toolcall-inspector[room]'" in proc.stderr
    assert proc.stdout == ""


def test_room_command_prints_pasteable_settings_and_stops_on_ctrl_c():
    import signal

    proc = subprocess.Popen(
        [sys.executable, "-m", "inspector", "room", "--port", "0", "--api-key", "k1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [proc.stdout.readline().strip() for _ in range(3)]
        assert lines[0].startswith("LIVEKIT_URL=ws://127.0.0.1:") and not lines[0].endswith(":0")
        assert lines[1] == "LIVEKIT_API_KEY=k1"
        assert lines[2].startswith("LIVEKIT_API_SECRET=") and len(lines[2].split("=", 1)[1]) >= 32
        url = lines[0].split("=", 1)[1].replace("ws://", "http://")
        assert http_get(url + "/")[0] == 200
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "not a LiveKit server" in err


def test_room_server_thread_serves_synchronous_callers():
    from livekit.protocol import rtc
    from websockets.sync.client import connect as sync_connect

    from inspector.room.thread import RoomServerThread

    events: list[str] = []
    with RoomServerThread(port=0, api_key=KEY, api_secret=SECRET, on_event=events.append) as room:
        token = room.mint_token("alice", "demo")
        with sync_connect(
            f"{room.url}/rtc?sdk=python",
            additional_headers={"Authorization": f"Bearer {token}"},
            open_timeout=GUARD,
        ) as ws:
            join = rtc.SignalResponse.FromString(ws.recv(timeout=GUARD)).join
            assert join.participant.identity == "alice"
            assert [p.identity for p in room.participants("demo")] == ["alice"]
            assert room.drop("alice") and not room.drop("alice")
            assert room.participants("demo") == []
    assert any(line.startswith("join  demo: alice") for line in events)
    assert any("dropped" in line for line in events)
    with pytest.raises(RuntimeError, match="not running"):
        room.participants("demo")


def test_room_server_thread_reports_a_port_in_use():
    from inspector.room.thread import RoomServerThread

    with RoomServerThread(port=0) as first:
        port = int(first.url.rsplit(":", 1)[1])
        with pytest.raises(OSError):
            RoomServerThread(port=port).start()


def test_a_token_with_the_wrong_key_is_not_told_the_servers_key():
    with pytest.raises(TokenError) as caught:
        verify_token(mint_token("otherkey", SECRET, "a", "r"), KEY, SECRET)
    assert KEY not in str(caught.value) and "'otherkey'" in str(caught.value)
