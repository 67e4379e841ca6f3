"""The real Alicia stack for tests: ../shared/alicia-real's build.sh and stack.sh on free ports, a private
Postgres, everything stopped and removed after; the inspector run beside it as the command line runs it.

``Stack.skip_reason()`` says why it cannot run here (no ../shared, no Postgres 15 with pgvector).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from servers import free_port  # below the ephemeral range: no client's connect takes it

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
HARNESS = SHARED / "alicia-real"
BINARIES = SHARED / "real-servers"
PG_BIN = Path("/usr/lib/postgresql/15/bin")
PGVECTOR = Path("/usr/share/postgresql/15/extension/vector.control")
WORK = Path(tempfile.gettempdir()) / f"inspector-alicia-real-{os.getuid()}"  # binaries, kept between runs


class Stack:
    """alicia-api, alicia-agent (+ the mcp-assistant bridge), Postgres and the scripted LLM."""

    def __init__(self) -> None:
        self.run = Path(tempfile.mkdtemp(prefix="alicia-run-"))  # under /tmp: the postgres user reaches it
        os.chmod(self.run, 0o755)
        self.secret = secrets.token_hex(12)
        self.api_port, self.pg_port, self.llm_port = free_port(), free_port(), free_port()
        self.env = {
            **os.environ,
            "ALICIA_REAL_WORK": str(WORK),
            "ALICIA_REAL_RUN": str(self.run),
            "PGPORT": str(self.pg_port),
            "API_PORT": str(self.api_port),
            "LLM_PORT": str(self.llm_port),
            "ALICIA_AGENT_SECRET": self.secret,
            "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        }
        self.procs: list[subprocess.Popen[bytes]] = []

    @staticmethod
    def skip_reason() -> str | None:
        if not (HARNESS / "stack.sh").is_file() or not (BINARIES / "alicia-api.xz").is_file():
            return "../shared/alicia-real and ../shared/real-servers are not present (the real Alicia server)"
        if not (PG_BIN / "postgres").is_file() or not PGVECTOR.is_file():
            return (
                "Postgres 15 with pgvector is not installed (../shared/alicia-real/build.sh installs them; "
                ".ci/run calls it)"
            )
        if shutil.which("curl") is None:
            return "curl is missing (stack.sh checks the API's health with it)"
        return None

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.api_port}"

    @property
    def hub(self) -> str:
        return f"ws://127.0.0.1:{self.api_port}/api/v1/ws"

    def start(self) -> None:
        self._guard()
        WORK.mkdir(parents=True, exist_ok=True)
        with open(WORK / ".lock", "w") as lock:  # one unpacking at a time (xdist workers, engineers)
            fcntl.flock(lock, fcntl.LOCK_EX)
            self._script("build.sh", timeout=900)
        self._script("stack.sh", "start", timeout=180)

    def _guard(self) -> None:
        """A watcher that stops the stack and removes its folder once this process is gone, however it
        ends (a test run killed by a timeout runs no teardown): it first ends a ``stack.sh start`` still
        running (its own process group, named in ``.starter``), then stops what it started."""
        starter = self.run / ".starter"
        script = (
            f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 2; done; "
            f'[ -s "{starter}" ] && kill -- -"$(cat "{starter}")" 2>/dev/null; sleep 1; '
            f'bash "{HARNESS / "stack.sh"}" stop >/dev/null 2>&1; rm -rf "{self.run}"'
        )
        subprocess.Popen(
            ["bash", "-c", script],
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def stop(self) -> None:
        for proc in self.procs:
            self.end(proc)
        with contextlib.suppress(Exception):
            self._script("stack.sh", "stop", timeout=60)
        shutil.rmtree(self.run, ignore_errors=True)

    def _script(self, name: str, *args: str, timeout: float) -> str:
        proc = subprocess.Popen(
            ["bash", str(HARNESS / name), *args],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own process group: the guard can end it
        )
        if args[:1] == ("start",):
            (self.run / ".starter").write_text(str(proc.pid))
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            out, err = proc.communicate()
        done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
        if args[:1] == ("start",):
            (self.run / ".starter").unlink(missing_ok=True)
        if done.returncode != 0:
            logs = "".join(
                f"\n--- {log.name}\n{log.read_text(errors='replace')[-1500:]}"
                for log in self.run.glob("*.log")
            )
            raise RuntimeError(
                f"{name} {' '.join(args)} failed ({done.returncode}): {done.stderr[-3000:]}{logs}"
            )
        return done.stdout

    def log(self, name: str) -> str:
        path = self.run / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    # -- the inspector and the web client -----------------------------------------------------------
    def inspector(self, out: Path, *args: str) -> subprocess.Popen[bytes]:
        """``inspector live --hub`` headless with JSON lines into ``out`` (stderr beside it)."""
        command = [sys.executable, "-m", "inspector", "live", "--hub", self.hub, "--no-ui", "--json", *args]
        proc = subprocess.Popen(
            command,
            env={**self.env, "INSPECTOR_DATA_DIR": str(out.parent / "data")},
            stdin=subprocess.PIPE,
            stdout=open(out, "wb"),  # noqa: SIM115 - closed with the process
            stderr=open(out.with_suffix(".err"), "wb"),  # noqa: SIM115
        )
        self.procs.append(proc)
        return proc

    def drive(self, *turns: str, timeout: float = 240) -> list[dict]:
        """drive.py's turns (``ws:TEXT``, ``rest:TEXT``, ``sync:TEXT``): every line it printed."""
        done = subprocess.run(
            [sys.executable, str(HARNESS / "drive.py"), self.api, *turns],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]

    @staticmethod
    def end(proc: subprocess.Popen[bytes], sig: int = signal.SIGINT) -> None:
        if proc.poll() is None:
            proc.send_signal(sig)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def lines(path: Path) -> list[dict]:
    """The JSON lines a headless inspector printed so far."""
    if not path.exists():
        return []
    found = []
    for line in path.read_text(errors="replace").splitlines():
        with contextlib.suppress(ValueError):
            found.append(json.loads(line))
    return found


def wait_for(check, timeout: float, what: str, every: float = 0.2):
    """Poll ``check()`` until it returns something true; fails naming ``what``."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(every)
