"""Why joining a room failed, in words a user can act on: URL, token, network, the only-`lo` sandbox."""

from __future__ import annotations

import asyncio
import errno
import socket
from urllib.parse import urlsplit

from inspector.live import netcheck

SCHEMES = ("ws", "wss", "http", "https")


class SetupError(Exception):
    """A problem with the options or credentials, found before connecting (exit code 2)."""


def check_url(url: str) -> tuple[str, int]:
    """``(host, port)`` of a LiveKit URL, or :class:`SetupError` saying what is wrong with it."""
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise SetupError(
            f"the LiveKit URL {url!r} must start with ws://, wss://, http:// or https:// "
            "(for example ws://localhost:7880)"
        )
    if not parts.hostname:
        raise SetupError(f"the LiveKit URL {url!r} has no host name")
    try:
        port = parts.port
    except ValueError:
        raise SetupError(f"the LiveKit URL {url!r} has an invalid port") from None
    return parts.hostname, port or (443 if parts.scheme in ("wss", "https") else 80)


async def preflight(url: str, timeout: float = 5.0) -> str | None:
    """Check what can be checked before the SDK tries (and retries) for a minute: a reason, or None.

    A plain TCP connection to the server's port, then whether this machine has any address libwebrtc
    can use (with only `lo`, the WebRTC connection can never come up).
    """
    host, port = check_url(url)
    where = f"{host}:{port}"
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except asyncio.TimeoutError:
        return f"no answer from {where} within {timeout:.0f} s: check the URL, the network and any firewall"
    except socket.gaierror:
        return f"cannot resolve the host name {host!r} in the URL: check the URL (and DNS)"
    except ConnectionRefusedError:
        return (
            f"nothing is listening at {where} (connection refused): is the LiveKit server running, "
            "and is the URL's port right?"
        )
    except OSError as exc:
        if exc.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH):
            return f"no route to {where} ({exc.strerror}): check the network, VPN or the URL"
        return f"cannot reach {where}: {exc.strerror or exc}"
    writer.close()
    if netcheck.only_loopback():
        return f"{where} answers, but {netcheck.ONLY_LO_EXPLANATION}"
    return None


def explain(url: str, exc: BaseException, *, minted: bool = False) -> str:
    """A sentence for a failed ``room.connect`` (the SDK's ConnectError text is kept only as a detail)."""
    message = str(getattr(exc, "message", "") or exc)
    lower = message.lower()
    if "401" in message or "unauthorized" in lower or "403" in message:
        reason = message.split(" - ", 1)[1] if " - " in message else message
        hint = (
            "check that LIVEKIT_API_KEY / LIVEKIT_API_SECRET (or --api-key / --api-secret) are the server's"
            if minted
            else "check the token given with --token (expired? for another server?)"
        )
        return f"the server refused the access token ({reason.strip()}): {hint}"
    if "unsupported scheme" in lower or "parse the url" in lower:
        return f"the URL {url!r} is not a LiveKit URL: use ws://host:port or wss://host"
    if "connection refused" in lower:
        return f"nothing is listening at {url} (connection refused): is the LiveKit server running?"
    if "lookup address" in lower or "name or service not known" in lower:
        return f"cannot resolve the host in {url}: check the URL"
    if "no route" in lower or "unreachable" in lower:
        return f"no route to {url}: check the network, VPN or the URL"
    if "timed out" in lower or "timeout" in lower or "pc_connection" in lower:
        if netcheck.only_loopback():
            return f"the connection to {url} timed out: {netcheck.ONLY_LO_EXPLANATION}"
        return (
            f"the connection to {url} timed out: the server answered but the WebRTC data connection did "
            "not come up (is UDP blocked by a firewall?)"
        )
    if "404" in message:
        return f"{url} answered 404: it does not look like a LiveKit server (check the URL and its path)"
    return f"could not join the room at {url}: {message}"
