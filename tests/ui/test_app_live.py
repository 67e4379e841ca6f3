"""A live source in the app: connection state in the status bar, and the answer screen end to end."""

from __future__ import annotations

import msgpack
from screen_text import screen_text, wait_for
from ui_factories import SIZE, T0, make_app

from inspector.model import CallStore, FakeClock, State
from inspector.protocols import alicia
from inspector.sources.memory import MemorySource
from inspector.ui.screens.answer import AnswerScreen
from inspector.ui.widgets.call_list import CallList


def request(call_id: str, execution: str = "client", timeout: int = 30_000) -> bytes:
    body = {
        "id": call_id,
        "messageId": "m1",
        "toolName": "read_local_file",
        "execution": execution,
        "parameters": {"filePath": "/x"},
        "timeoutMs": timeout,
    }
    return alicia.encode_envelope(type_=6, body=body, conversation_id="conv_1", stanza_id=-1)


def result(call_id: str) -> bytes:
    body = {"id": call_id, "requestId": call_id, "success": True, "result": {"from": "app"}}
    return alicia.encode_envelope(type_=7, body=body, conversation_id="conv_1", stanza_id=5)


async def shown(pilot, app, call_id: str) -> None:
    """Wait until the list has taken in ``call_id`` (a live list repaints on a throttling timer)."""
    items = lambda: app.screen.query_one(CallList).view.items  # noqa: E731
    assert await wait_for(pilot, lambda: any(getattr(i, "call_id", None) == call_id for i in items()))
    await pilot.pause()


def live_app():
    clock = FakeClock(T0)
    store = CallStore(clock=clock)
    source = MemorySource(store, identity="inspector-test", room="demo")
    return make_app(store, clock=clock, source=source, label="room demo"), source, store


async def test_live_calls_arrive_the_status_shows_the_connection_and_a_answers():
    app, source, store = live_app()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            if "connected" in screen_text(app):
                break
            await pilot.pause(0.05)
        status = screen_text(app).splitlines()[-2]
        assert "room demo" in status and "connected" in status
        source.receive(request("t1"), participant="agent", topic="alicia")
        await shown(pilot, app, "t1")
        call = store.find("conv_1", "t1")
        assert app.screen.query_one(CallList).item is call  # a live list follows new calls
        assert "30s" in screen_text(app)
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, AnswerScreen)
        assert "30.0 s left" in screen_text(app)
        area = app.screen.query_one("#answer-result")
        area.text = '{"content": "hello"}'
        await pilot.pause()
        assert '"content": "hello"' in screen_text(app)  # the exact envelope is previewed
        await pilot.press("ctrl+j")  # the ctrl+enter fallback sends
        await pilot.pause(0.2)
        assert not isinstance(app.screen, AnswerScreen)
        [(data, topic)] = source.sent
        assert msgpack.unpackb(data)["body"] == {
            "id": "t1",
            "requestId": "t1",
            "conversationId": "conv_1",
            "messageId": "m1",
            "success": True,
            "result": {"content": "hello"},
        }
        assert call.state(store.clock.now()) is State.SUCCEEDED and call.result.answered_by == "inspector"
        assert "answered by inspector" in screen_text(app)


async def test_quick_answer_unknown_tool_and_a_second_answer_is_refused():
    app, source, store = live_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        source.receive(request("t2"), participant="agent")
        await shown(pilot, app, "t2")
        await pilot.press("a", "ctrl+u")
        await pilot.pause()
        assert "Tool 'read_local_file' is not supported by this client" in screen_text(app)
        await pilot.press("ctrl+s")
        await pilot.pause(0.2)
        body = msgpack.unpackb(source.sent[0][0])["body"]
        assert body["errorCode"] == "unknown_tool" and body["success"] is False
        await pilot.press("a")
        await pilot.pause()
        assert not isinstance(app.screen, AnswerScreen)
        assert any("already answered (error, by inspector)" in str(n.message) for n in app._notifications)
        assert len(source.sent) == 1


async def test_a_result_that_comes_while_the_answer_screen_is_open_refuses_the_send():
    app, source, store = live_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        source.receive(request("t4"), participant="agent")
        await shown(pilot, app, "t4")
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, AnswerScreen)
        source.receive(result("t4"), participant="user-app")  # the real client answered meanwhile
        await pilot.press("ctrl+s")
        await pilot.pause(0.2)
        assert isinstance(app.screen, AnswerScreen) and source.sent == []
        assert "not sent: this request was already answered (success, by user-app)" in screen_text(app)


async def test_server_requests_cannot_be_answered():
    app, source, store = live_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        source.receive(request("s1", execution="server"), participant="agent")
        await shown(pilot, app, "s1")
        await pilot.press("a")
        await pilot.pause()
        assert not isinstance(app.screen, AnswerScreen)
        assert any("client or either" in str(n.message) for n in app._notifications)
        assert source.sent == []


async def test_a_live_list_follows_new_calls_until_the_person_moves_up():
    app, source, store = live_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for index in range(3):
            source.receive(request(f"f{index}"), participant="agent")
        await shown(pilot, app, "f2")
        call_list = app.screen.query_one(CallList)
        assert call_list.item.call_id == "f2"
        await pilot.press("k")
        source.receive(request("f3"), participant="agent")
        await shown(pilot, app, "f3")
        assert call_list.item.call_id == "f1"  # moved up: the cursor stays where the person put it
        await pilot.press("G")
        source.receive(request("f4"), participant="agent")
        await shown(pilot, app, "f4")
        assert call_list.item.call_id == "f4"


async def test_a_70_kb_answer_is_previewed_in_part_checked_when_typing_pauses_and_sent_whole():
    app, source, store = live_app()
    async with app.run_test(size=SIZE) as pilot:
        await source.start()
        source.receive(request("t1"), participant="agent", topic="alicia")
        await shown(pilot, app, "t1")
        await pilot.press("a")
        await pilot.pause()
        area = app.screen.query_one("#answer-result")
        content = "y" * 63_000  # 70 KB of preview would be 63 KB of MessagePack: under the packet limit
        area.text = '{"content": "' + content + '"}'
        area.move_cursor((0, 20))  # inside the string value
        await pilot.press("z")
        assert not area.soft_wrap  # one 70 KB line is not re-wrapped on every key

        def preview() -> str:
            group = app.screen.query_one("#answer-preview").content
            return "".join(getattr(part, "plain", "") for part in getattr(group, "renderables", ()))

        # the check runs once typing pauses (debounced): wait for the preview it paints
        assert await wait_for(pilot, lambda: "more characters (all of them are sent)" in preview())
        assert preview().endswith("more characters (all of them are sent)") and len(preview()) < 7_000
        await pilot.press("ctrl+j")
        assert await wait_for(pilot, lambda: len(source.sent) == 1)
        [(data, _)] = source.sent
        assert len(msgpack.unpackb(data)["body"]["result"]["content"]) == 63_001


async def test_the_answer_preview_shows_the_stanza_id_that_is_sent_and_an_outdated_one_is_shown_again():
    import re

    clock = FakeClock(1_767_225_600.0)  # a real date: the stanzaId's time base rises 4 times a second
    store = CallStore(clock=clock)
    source = MemorySource(store, identity="inspector-test", room="demo")
    app = make_app(store, clock=clock, source=source, label="room demo")

    def previewed() -> int:
        found = re.search(r"bytes on the wire, stanzaId (\d+)", screen_text(app))
        assert found, screen_text(app)
        return int(found.group(1))

    async with app.run_test(size=SIZE) as pilot:
        await source.start()
        for call_id in ("t1", "t2"):
            source.receive(request(call_id), participant="agent", topic="alicia")
        await shown(pilot, app, "t2")
        await pilot.press("a")
        assert await wait_for(
            pilot, lambda: isinstance(app.screen, AnswerScreen) and "stanzaId" in screen_text(app)
        )
        stanza = previewed()
        clock.advance(3.0)  # time passes between reading the preview and sending
        await pilot.press("ctrl+s")
        assert await wait_for(pilot, lambda: len(source.sent) == 1)
        assert msgpack.unpackb(source.sent[0][0])["stanzaId"] == stanza
        notes = lambda: [str(n.message) for n in app._notifications]  # noqa: E731
        assert await wait_for(pilot, lambda: any(f"(stanzaId {stanza})" in note for note in notes()))

        # another client uses the previewed id before the send: nothing goes out, the new id is shown
        await pilot.press("k")
        await pilot.press("a")
        assert await wait_for(
            pilot, lambda: isinstance(app.screen, AnswerScreen) and "stanzaId" in screen_text(app)
        )
        stanza = previewed()
        user = {"id": "u", "content": "hi"}
        source.receive(alicia.encode_envelope(type_=2, body=user, conversation_id="conv_1", stanza_id=stanza))
        await pilot.press("ctrl+s")
        assert await wait_for(pilot, lambda: "not sent:" in screen_text(app))
        assert len(source.sent) == 1 and previewed() > stanza
        again = previewed()
        await pilot.press("ctrl+s")
        assert await wait_for(pilot, lambda: len(source.sent) == 2)
        assert msgpack.unpackb(source.sent[1][0])["stanzaId"] == again
