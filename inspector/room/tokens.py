"""Access tokens for the loopback room server: mint and check LiveKit-style HS256 JWTs (PyJWT only)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import jwt
from jwt.types import Options

# the same development defaults as `livekit-server --dev` (the secret is >= 32 bytes, so PyJWT is quiet)
DEV_API_KEY = "devkey"
DEV_API_SECRET = "secret-for-local-development-only-0123456789"
DEFAULT_TTL = 6 * 3600.0
LEEWAY = 60.0  # seconds of clock skew allowed on exp / nbf, as LiveKit's own verifier does


class TokenError(Exception):
    """A token was refused; ``str(error)`` is the reason shown to the client."""


@dataclass(frozen=True)
class Grant:
    """What a verified token allows: who joins which room, with which permissions."""

    identity: str
    room: str
    name: str = ""
    metadata: str = ""
    kind: str = ""
    attributes: dict[str, str] = field(default_factory=dict)
    can_publish: bool = True
    can_subscribe: bool = True
    can_publish_data: bool = True
    hidden: bool = False
    room_admin: bool = False


def mint_token(
    api_key: str,
    api_secret: str,
    identity: str,
    room: str,
    *,
    name: str = "",
    hidden: bool = False,
    can_publish: bool = True,
    can_subscribe: bool = True,
    can_publish_data: bool = True,
    metadata: str = "",
    kind: str = "",
    attributes: dict[str, str] | None = None,
    ttl: float = DEFAULT_TTL,
    not_before: float | None = None,
    now: float | None = None,
) -> str:
    """Sign a join token with the claims the LiveKit SDKs and servers use."""
    issued = time.time() if now is None else now
    video: dict[str, Any] = {
        "roomJoin": True,
        "room": room,
        "canPublish": can_publish,
        "canSubscribe": can_subscribe,
        "canPublishData": can_publish_data,
    }
    if hidden:
        video["hidden"] = True
    claims: dict[str, Any] = {
        "iss": api_key,
        "sub": identity,
        "nbf": int(issued if not_before is None else not_before),
        "exp": int(issued + ttl),
        "video": video,
    }
    if name:
        claims["name"] = name
    if metadata:
        claims["metadata"] = metadata
    if kind:
        claims["kind"] = kind
    if attributes:
        claims["attributes"] = dict(attributes)
    return jwt.encode(claims, api_secret, algorithm="HS256")


def bearer_token(authorization: str | None) -> str:
    """The token in an ``Authorization: Bearer <jwt>`` header, or TokenError."""
    if not authorization:
        raise TokenError("no access token: the request has no Authorization header")
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TokenError("no access token: the Authorization header is not 'Bearer <token>'")
    return token.strip()


def verify_token(token: str, api_key: str, api_secret: str, *, now: float | None = None) -> Grant:
    """Check signature, issuer, exp/nbf and the video grant; raise TokenError with a readable reason."""
    claims = _decode(token, api_key, api_secret, now)
    video = claims.get("video")
    if not isinstance(video, dict):
        raise TokenError("the token has no video grant: it cannot join a room")
    if video.get("roomJoin") is not True:
        raise TokenError("the token's video grant does not allow joining a room (roomJoin is not true)")
    room = video.get("room")
    if not isinstance(room, str) or not room:
        raise TokenError("the token's video grant names no room")
    identity = claims.get("sub")
    if not isinstance(identity, str) or not identity:
        raise TokenError("the token has no identity (the 'sub' claim is empty)")
    attributes = claims.get("attributes")
    return Grant(
        identity=identity,
        room=room,
        name=_text(claims.get("name")),
        metadata=_text(claims.get("metadata")),
        kind=_text(claims.get("kind")),
        attributes={str(k): str(v) for k, v in attributes.items()} if isinstance(attributes, dict) else {},
        can_publish=_flag(video, "canPublish", True),
        can_subscribe=_flag(video, "canSubscribe", True),
        can_publish_data=_flag(video, "canPublishData", True),
        hidden=_flag(video, "hidden", False),
        room_admin=_flag(video, "roomAdmin", False),
    )


def _decode(token: str, api_key: str, api_secret: str, now: float | None) -> dict[str, Any]:
    try:
        header = jwt.get_unverified_header(token)
        unverified = jwt.decode(token, options={"verify_signature": False})
    except jwt.PyJWTError as exc:
        raise TokenError(f"invalid token: not a JWT ({exc})") from None
    if header.get("alg") != "HS256":
        raise TokenError(f"invalid token: signed with {header.get('alg')!r}, expected HS256")
    issuer = unverified.get("iss")
    if issuer != api_key:
        raise TokenError(
            f"invalid API key: the token was issued by {issuer!r}, which is not this server's key"
        )
    options: Options = {"require": ["exp"], "verify_iat": False}
    if now is not None:  # checked below against the given clock instead of the system one
        options["verify_exp"] = False
        options["verify_nbf"] = False
    try:
        claims = jwt.decode(
            token, api_secret, algorithms=["HS256"], issuer=api_key, leeway=LEEWAY, options=options
        )
    except jwt.InvalidSignatureError:
        raise TokenError("invalid token: the signature does not match this server's API secret") from None
    except jwt.ExpiredSignatureError:
        raise TokenError(f"invalid token: it expired at {_when(unverified.get('exp'))}") from None
    except jwt.ImmatureSignatureError:
        raise TokenError(f"invalid token: not valid before {_when(unverified.get('nbf'))}") from None
    except jwt.MissingRequiredClaimError as exc:
        raise TokenError(f"invalid token: the '{exc.claim}' claim is missing") from None
    except jwt.PyJWTError as exc:
        raise TokenError(f"invalid token: {exc}") from None
    if now is not None:
        _check_times(claims, now)
    return claims


def _check_times(claims: dict[str, Any], now: float) -> None:
    exp, nbf = claims.get("exp"), claims.get("nbf")
    if isinstance(exp, (int, float)) and now > exp + LEEWAY:
        raise TokenError(f"invalid token: it expired at {_when(exp)}")
    if isinstance(nbf, (int, float)) and now < nbf - LEEWAY:
        raise TokenError(f"invalid token: not valid before {_when(nbf)}")


def _when(value: object) -> str:
    if isinstance(value, (int, float)):
        return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(value))
    return repr(value)


def _flag(video: dict[str, Any], key: str, default: bool) -> bool:
    value = video.get(key)
    return value if isinstance(value, bool) else default


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
