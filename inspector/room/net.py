"""Small pieces of the loopback room server's signalling: HTTP replies, leave messages, ICE addresses."""

from __future__ import annotations

import socket
import time

from livekit.protocol import models, rtc
from websockets.datastructures import Headers
from websockets.http11 import Response


def has_non_loopback_interface() -> bool:
    import ifaddr  # installed with aioice

    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            address = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            if not address.startswith(("127.", "fe80")) and address != "::1":
                return True
    return False


def leave(reason: models.DisconnectReason) -> rtc.SignalResponse:
    return rtc.SignalResponse(
        leave=rtc.LeaveRequest(can_reconnect=False, reason=reason, action=rtc.LeaveRequest.Action.DISCONNECT)
    )


def respond(status: int, text: str) -> Response:
    body = text.encode()
    headers = Headers([("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))])
    reasons = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 409: "Conflict"}
    return Response(status, reasons.get(status, "Error"), headers, body)


def now_ms() -> int:
    return int(time.time() * 1000)


def ice_addresses(host: str) -> list[str]:
    """Where ICE candidates are gathered: the listening address, loopback for local names, [] for all."""
    if host in ("0.0.0.0", "::"):
        return []  # every interface (aioice's own choice)
    if host in ("", "localhost", "::1", "127.0.0.1"):
        return ["127.0.0.1"]
    try:
        return [socket.gethostbyname(host)]
    except OSError:
        return ["127.0.0.1"]


def url_host(host: str) -> str:
    if host in ("", "0.0.0.0", "::"):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host
