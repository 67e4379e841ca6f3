"""Peak memory for one huge single-line record (a 200 MB tool result in a Claude Code transcript).

Run: ``python bench/bench_huge_record.py [--mb 200] [--format claude|alicia|rap]``. Writes a session whose
one result line is ``--mb`` MB between ordinary calls, then measures, each in a fresh child process:

* the baseline: Python reading the same file's bytes and nothing else (``open().read()``);
* ``inspector stats`` and ``inspector dump`` on it;

and prints peak RSS, and the extra RSS over the interpreter's own as a multiple of the record's size
(the issue's budget: within about 2x the record).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PEAK = """
import resource, runpy, sys
sys.argv = sys.argv[1:]
code = 0
try:
    if sys.argv[0] == "--read":
        open(sys.argv[1], "rb").read()
    elif sys.argv[0] == "--import":
        import inspector.cli, inspector.protocols.claude, inspector.protocols.rap  # noqa: F401
    else:
        from inspector.cli import main
        import contextlib, os
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):  # a pipe, as a user's
            code = main(sys.argv)
finally:
    # VmHWM: this process's own high-water mark (ru_maxrss would carry the forking parent's over exec)
    hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM:")]
    kb = int(hwm[0].split()[1]) if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sys.stderr.write(f"PEAK {kb}\\n")
sys.exit(code)
"""


def _claude_lines(size: int) -> list[str]:
    base = {"sessionId": "s", "version": "2.1.30", "cwd": "/w", "isSidechain": False, "userType": "external"}
    lines = []
    for index, content in enumerate(["small", "x" * size, "small"]):
        call = f"toolu_{index}"
        use = {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": "cat big.log"}}
        lines.append(
            json.dumps(
                {
                    **base,
                    "type": "assistant",
                    "uuid": f"a{index}",
                    "parentUuid": None,
                    "timestamp": "2026-11-01T10:00:00Z",
                    "message": {"id": f"m{index}", "role": "assistant", "content": [use]},
                }
            )
        )
        result = {"type": "tool_result", "tool_use_id": call, "content": content}
        lines.append(
            json.dumps(
                {
                    **base,
                    "type": "user",
                    "uuid": f"u{index}",
                    "parentUuid": f"a{index}",
                    "timestamp": "2026-11-01T10:00:01Z",
                    "message": {"role": "user", "content": [result]},
                }
            )
        )
    return lines


def _rap_lines(size: int) -> list[str]:
    lines = []
    for index, text in enumerate(["small", "x" * size, "small"]):
        lines.append(
            json.dumps({"ts": "2026-11-01T10:00:00Z", "operation": "op", "arguments": {}, "id": f"c{index}"})
        )
        lines.append(
            json.dumps({"ts": "2026-11-01T10:00:01Z", "type": "tool_result", "id": f"c{index}", "text": text})
        )
    return lines


def _peak_kb(args: list[str]) -> tuple[int, float]:
    env = {**os.environ, "PYTHONPATH": ROOT}
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", PEAK, *args], capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - started
    peak = [line for line in proc.stderr.splitlines() if line.startswith("PEAK ")]
    if not peak:
        raise SystemExit(f"no figure from {args}: {proc.stderr[-2000:]}")
    return int(peak[-1].split()[1]), elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--format", choices=("claude", "rap"), default="claude")
    args = parser.parse_args()
    size = args.mb * 1024 * 1024
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, f"huge.{args.format}.jsonl")
        lines = (_claude_lines if args.format == "claude" else _rap_lines)(size)
        with open(path, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        del lines
        record = os.path.getsize(path)
        print(f"file: {record / 2**20:.0f} MB, one record of {args.mb} MB ({args.format})")
        interpreter, _ = _peak_kb(["--import"])
        baseline, _ = _peak_kb(["--read", path])
        print(f"{'what':<28}{'peak RSS':>12}{'over imports':>14}{'x record':>10}{'seconds':>9}")
        print(f"{'python + imports':<28}{interpreter / 1024:>10.0f} MB{'':>14}{'':>10}")
        extra = (baseline - interpreter) * 1024 / size
        print(
            f"{'baseline: read the bytes':<28}{baseline / 1024:>10.0f} MB{(baseline - interpreter) / 1024:>11.0f} MB{extra:>9.2f}x"
        )
        for command in (["stats"], ["dump"], ["dump", "--json"]):
            peak, seconds = _peak_kb([*command, path])
            ratio = (peak - interpreter) * 1024 / size
            name = "inspector " + " ".join(command)
            print(
                f"{name:<28}{peak / 1024:>10.0f} MB{(peak - interpreter) / 1024:>11.0f} MB{ratio:>9.2f}x{seconds:>9.1f}"
            )


if __name__ == "__main__":
    main()
