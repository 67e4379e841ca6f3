"""The supervisor's words when its child dies name what happened; arguments travel by pipe, not env."""

from __future__ import annotations

import signal

from inspector.live.supervise import ARGS_ENV, child_command, crash_message


def test_the_message_names_the_cause():
    status = {"recording": "/tmp/r.jsonl"}
    assert "crash inside the LiveKit SDK" in crash_message(-signal.SIGSEGV, status)
    assert "crash inside the LiveKit SDK" in crash_message(134, {})
    killed = crash_message(-signal.SIGKILL, status)
    assert "killed (SIGKILL)" in killed and "LiveKit SDK" not in killed and "/tmp/r.jsonl" in killed
    assert "SIGHUP" in crash_message(-signal.SIGHUP, {}) and "LiveKit SDK" not in crash_message(
        -signal.SIGHUP, {}
    )


def test_the_secret_is_not_in_the_childs_command_line_or_environment(monkeypatch):
    monkeypatch.setenv("LIVEKIT_API_SECRET", "s3cret-value-for-the-test")
    argv, env = child_command("live", {"api_secret": "typed-secret", "room": "r"})
    visible = " ".join(argv) + " ".join(f"{k}={v}" for k, v in env.items() if not k.startswith("\0"))
    assert "s3cret-value-for-the-test" not in visible and "typed-secret" not in visible
    assert "LIVEKIT_API_SECRET" not in env and ARGS_ENV not in env  # supervise() adds only the pipe's fd


def test_rejoin_backs_off_and_does_not_retry_what_waiting_cannot_fix():
    from inspector.sources.rejoin import backoff, retryable

    assert [backoff(n) for n in (1, 2, 3, 4, 5, 6, 9)] == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    assert retryable("nothing is listening at ws://x (connection refused): is the LiveKit server running?")
    assert not retryable("the server refused the access token (401): check LIVEKIT_API_KEY")


async def test_a_room_the_server_ended_on_purpose_is_not_joined_again_but_a_shut_down_one_is():
    import asyncio

    from inspector.sources.base import SourceState
    from inspector.sources.rejoin import stay_joined

    class Room:
        """Joins at once; each join is lost at once for the next of ``losses``, then stays."""

        def __init__(self, losses: list[str]) -> None:
            self.losses = losses
            self.joins = 0
            self.said: list[str] = []
            self.state = SourceState()
            self.lost: asyncio.Event | None = None

        async def start(self) -> None:
            self.joins += 1
            self.lost = asyncio.Event()
            if self.losses:
                self.state = SourceState(detail=self.losses.pop(0))
                self.lost.set()

        async def leave_quietly(self) -> None:
            pass

        def note_retry(self, attempt: int, delay: float, reason: str) -> None:
            self.said.append(f"retry {reason}")

        def note_final(self, reason: str) -> None:
            self.said.append(reason)

    for reason, why in (
        ("another participant joined with the same identity", "give each its own --identity"),
        ("the room was deleted", "would create the room anew"),
        ("removed from the room by the server", "on purpose"),
    ):
        room = Room([reason])
        outcome = await asyncio.wait_for(stay_joined(room, asyncio.Event(), give_up_after=None), 5)
        assert not outcome.stopped and outcome.joined and room.joins == 1
        assert outcome.reason.startswith(f"{reason}: not joining again (") and why in outcome.reason
        assert room.said == [outcome.reason]
    stop = asyncio.Event()
    room = Room(["the server shut down"])
    staying = asyncio.ensure_future(stay_joined(room, stop, give_up_after=None))
    for _ in range(200):
        if room.joins == 2:
            break
        await asyncio.sleep(0.01)
    stop.set()
    outcome = await asyncio.wait_for(staying, 5)
    assert outcome.stopped and room.joins == 2 and room.said == ["retry the server shut down"]
