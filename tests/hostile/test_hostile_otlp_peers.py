"""Peers of the OTLP receiver that break off (`otlp-listen`): one that announces more bytes than it sends
and then goes silent or closes, one that sends half its headers, one that leaves before the answer. Each
costs its own request, said as a malformed record; no traceback reaches the terminal (one did, from the
server's thread, for a peer gone before the answer) and no thread waits on a silent peer forever; the
next request is read."""

from __future__ import annotations

import asyncio
import socket
import threading
from pathlib import Path

from inspector.model import CallStore, Malformed
from inspector.sources.otlp_receiver import OtlpSource

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otlp"
GOOD = (FIXTURES / "genai_spans.jsonl").read_bytes().splitlines()[0]


async def until(condition, seconds: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, "the condition never held"
        await asyncio.sleep(0.02)


def _post(body: bytes, length: int | None = None) -> bytes:
    head = (
        f"POST /v1/traces HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: {length or len(body)}"
    )
    return head.encode() + b"\r\n\r\n" + body


def _send(port: int, data: bytes, *, then: str) -> bytes:
    """Send ``data``; then "wait" for the answer (or the server closing), "close" the writing side and
    wait, or "leave" at once (before any answer)."""
    with socket.create_connection(("127.0.0.1", port)) as peer:
        peer.sendall(data)
        if then == "leave":
            return b""
        if then == "close":
            peer.shutdown(socket.SHUT_WR)
        peer.settimeout(20)
        return peer.recv(65536)


def _handlers() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if "process_request" in thread.name]


def _reasons(store: CallStore) -> list[str]:
    return [item.reason for item in store.items if isinstance(item, Malformed)]


async def test_peers_that_break_off_cost_only_their_request_and_are_said(capfd):
    store = CallStore()
    source = OtlpSource(store, port=0, peer_timeout=0.5)
    await source.start()
    try:
        port = source.port
        silent = await asyncio.to_thread(_send, port, _post(b'{"resourceSpans"', 400), then="wait")
        assert silent == b""  # closed once the peer stayed silent past the timeout
        await asyncio.to_thread(_send, port, _post(b'{"resourceSpans"', 400), then="close")
        await asyncio.to_thread(_send, port, b"POST /v1/traces HTTP/1.1\r\nContent-Len", then="wait")
        for _ in range(5):  # gone before the answer: the answer meets a closed connection
            await asyncio.to_thread(_send, port, _post(b"[1, 2"), then="leave")
        answer = await asyncio.to_thread(_send, port, _post(GOOD), then="wait")
        assert answer.startswith(b"HTTP/1.1 200")
        await until(lambda: store.call_count >= 1 and len(_reasons(store)) >= 7)
        reasons = _reasons(store)
        assert "the peer stopped sending after 400 bytes were announced" in reasons
        assert "body cut short: 16 of 400 bytes" in reasons
        assert sum(reason.startswith("not JSON") for reason in reasons) == 5
        await until(lambda: not _handlers(), 10)  # no handler left waiting on a silent peer
    finally:
        await source.stop()
    assert "Traceback" not in capfd.readouterr().err
