"""Where to connect and with which token: options and LIVEKIT_* variables, like LiveKit's own ``lk``.

With an API key and secret the inspector mints its own token (livekit-api): identity
``inspector-<random>`` unless given, hidden unless ``visible``, data publishing granted only when
answering is enabled. Secrets stay in this object: its ``repr`` never shows them.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from inspector.live.errors import SetupError, check_url

TOKEN_TTL_SECONDS = 6 * 3600


@dataclass(frozen=True)
class Credentials:
    """A URL and a token to join one room, with what the token says about it."""

    url: str
    room: str
    identity: str
    token: str = field(repr=False)
    minted: bool = False
    hidden: bool = True
    can_publish_data: bool = False
    secrets: tuple[str, ...] = field(default=(), repr=False)


def random_identity() -> str:
    return f"inspector-{secrets.token_hex(3)}"


def token_claims(token: str) -> dict[str, Any]:
    """The claims of a JWT, read without checking the signature (only the server can check it)."""
    parts = token.split(".")
    if len(parts) != 3:
        raise SetupError("the token given with --token is not a JWT (expected three dot-separated parts)")
    payload = parts[1] + "=" * (-len(parts[1]) % 4)
    try:
        claims = json.loads(base64.urlsafe_b64decode(payload))
    except (ValueError, UnicodeDecodeError):
        raise SetupError("the token given with --token is not a JWT (its payload is not JSON)") from None
    if not isinstance(claims, dict):
        raise SetupError("the token given with --token is not a JWT (its payload is not an object)")
    return claims


def mint(
    api_key: str, api_secret: str, *, identity: str, room: str, hidden: bool, can_publish_data: bool
) -> str:
    """A join token signed with the API secret (livekit-api)."""
    from datetime import timedelta

    from livekit import api

    grants = api.VideoGrants(
        room_join=True,
        room=room,
        hidden=hidden,
        can_publish=False,
        can_subscribe=True,
        can_publish_data=can_publish_data,
    )
    token = (
        api.AccessToken(api_key, api_secret)
        .with_identity(identity)
        .with_name(identity)
        .with_grants(grants)
        .with_ttl(timedelta(seconds=TOKEN_TTL_SECONDS))
    )
    return token.to_jwt()


def resolve(
    *,
    url: str | None,
    room: str | None,
    identity: str | None,
    token: str | None,
    api_key: str | None,
    api_secret: str | None,
    visible: bool,
    answering: bool,
    env: Mapping[str, str] | None = None,
) -> Credentials:
    """Combine options with LIVEKIT_URL / LIVEKIT_API_KEY / LIVEKIT_API_SECRET; raise SetupError when short."""
    env = os.environ if env is None else env
    url = url or env.get("LIVEKIT_URL") or ""
    if not url:
        raise SetupError("no LiveKit URL: give --url or set LIVEKIT_URL (for example ws://localhost:7880)")
    check_url(url)
    if token:
        return _from_token(url, room, identity, token)
    api_key = api_key or env.get("LIVEKIT_API_KEY") or ""
    api_secret = api_secret or env.get("LIVEKIT_API_SECRET") or ""
    if not api_key or not api_secret:
        missing = " and ".join(
            n for n, v in (("LIVEKIT_API_KEY", api_key), ("LIVEKIT_API_SECRET", api_secret)) if not v
        )
        raise SetupError(
            f"no token: give --token JWT, or an API key and secret to mint one "
            f"(--api-key/--api-secret or {missing})"
        )
    if not room:
        raise SetupError("which room? give --room NAME (the Alicia conversation id is the room name)")
    identity = identity or random_identity()
    minted = mint(
        api_key, api_secret, identity=identity, room=room, hidden=not visible, can_publish_data=answering
    )
    return Credentials(
        url=url,
        room=room,
        identity=identity,
        token=minted,
        minted=True,
        hidden=not visible,
        can_publish_data=answering,
        secrets=(api_secret, minted),
    )


def _from_token(url: str, room: str | None, identity: str | None, token: str) -> Credentials:
    claims = token_claims(token)
    video_claim = claims.get("video")
    video: dict[str, Any] = video_claim if isinstance(video_claim, dict) else {}
    token_room = video.get("room") if isinstance(video.get("room"), str) else ""
    if room and token_room and room != token_room:
        raise SetupError(
            f"the token is for room {token_room!r}, not {room!r}: drop --room or use a token for it"
        )
    sub = claims.get("sub") if isinstance(claims.get("sub"), str) else ""
    if identity and sub and identity != sub:
        raise SetupError(
            f"the token's identity is {sub!r}, not {identity!r}: drop --identity or mint another token"
        )
    publish = video.get("canPublishData")
    return Credentials(
        url=url,
        room=token_room or room or "",
        identity=sub or identity or "",
        token=token,
        minted=False,
        hidden=video.get("hidden") is True,
        can_publish_data=publish if isinstance(publish, bool) else True,
        secrets=(token,),
    )
