"""What an editable field holds is drawn inertly: the filter box with an id copied from a session and
pasted, the answer screen's message naming a peer's tool (ctrl+u), a paste into the JSON answer. Textual's
Input drew its value as it was: ESC, C1 controls and bidi overrides from a peer reached the terminal. The
values stay as they were (a filter compares them, an answer sends them)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import msgpack
from textual import events

from inspector.model import CallStore, FakeClock
from inspector.protocols import alicia
from inspector.sources.memory import MemorySource
from inspector.textsafe import char_for_char
from inspector.ui.screens.answer import AnswerScreen
from inspector.ui.widgets.filter_box import FilterBox

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))

from screen_text import screen_text, wait_for  # noqa: E402
from ui_factories import SIZE, T0, make_app  # noqa: E402

EVIL = "x\x1b]52;c;cHduZWQ=\x07\x1b]0;PWNED\x07\x1b[2J\x9b31m\x85\u202eevil\u2066\u200b\x00y"  # a peer sends no lone surrogate
ACTIVE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ud800]"
)


def drawn(widget) -> str:
    return "".join(segment.text for y in range(widget.size.height) for segment in widget.render_line(y))


def test_each_character_a_terminal_acts_on_is_one_visible_character():
    for text in (EVIL, "\ud800", "plain", "中文\u0301", "\t\n\r", "\U000e0041\xad\u2028"):
        stand_in = char_for_char(text)
        assert len(stand_in) == len(text) and not ACTIVE.search(stand_in.replace("\t", " "))
        assert [a for a, b in zip(text, stand_in, strict=True) if a != b] == [
            c for c in text if not c.isprintable() and c != "\t"
        ]


def live_app(tool: str):
    clock = FakeClock(T0)
    store = CallStore(clock=clock)
    source = MemorySource(store, identity="inspector-test", room="demo")
    body = {"id": EVIL, "messageId": "m1", "toolName": tool, "execution": "client", "parameters": {}}
    source.receive(
        alicia.encode_envelope(type_=6, body=body, conversation_id="c1", stanza_id=-1), participant="a"
    )
    return make_app(store, clock=clock, source=source, label="room"), source


async def test_a_pasted_id_in_the_filter_is_kept_and_drawn_inertly():
    app, _ = live_app("tool")
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: "tool" in screen_text(app))
        await pilot.press("slash")
        box = app.screen.query_one(FilterBox)
        box.post_message(events.Paste(f"id:{EVIL}"))
        pasted = f"id:{EVIL}".splitlines()[0]  # an Input takes a paste's first line: NEL (\x85) ends it
        assert await wait_for(pilot, lambda: box.value == pasted)
        assert not ACTIVE.search(drawn(box)) and "␛]52;c;" in drawn(box)
        assert not ACTIVE.search(screen_text(app))
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: "(1 row" in screen_text(app))  # the filter compares it as pasted


async def test_the_answer_message_naming_a_peers_tool_is_drawn_inertly_and_sent_as_it_is():
    app, source = live_app(f"tool{EVIL}")
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: "tool" in screen_text(app))
        await pilot.press("a", "ctrl+u")
        assert await wait_for(pilot, lambda: isinstance(app.screen, AnswerScreen))
        message = app.screen.query_one("#answer-message")
        assert await wait_for(pilot, lambda: EVIL in message.value)
        assert not ACTIVE.search(drawn(message)) and "␛]52" in drawn(message)
        area = app.screen.query_one("#answer-result")
        area.text = ""
        area.post_message(events.Paste(f'{{"why": "{EVIL}"}}'))  # a partial result, valid once escaped
        assert await wait_for(pilot, lambda: "\\u001b]52" in area.text)  # a JSON escape, not the ESC
        assert not ACTIVE.search(drawn(area))
        assert not ACTIVE.search(screen_text(app))
        await pilot.press("ctrl+s")
        assert await wait_for(pilot, lambda: source.sent)
        body = msgpack.unpackb(source.sent[0][0])["body"]
        assert body["errorCode"] == "unknown_tool" and f"tool{EVIL}" in body["errorMessage"]
        assert body["result"] == {"why": EVIL}
