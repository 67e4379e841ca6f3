"""The supervised child of ``inspector live`` / ``inspector demo``: reads its arguments from the environment."""

from __future__ import annotations

import argparse
import os
import sys

from inspector.live.supervise import read_payload


def main() -> int:
    payload = read_payload()
    os.environ.update(payload.get("env") or {})  # this process's own copy; not visible in /proc/*/environ
    args = argparse.Namespace(**payload["args"])
    from inspector.cli import live_cmd

    if payload["command"] == "demo":
        return live_cmd.run_demo_here(args)
    return live_cmd.run_live_here(args)


if __name__ == "__main__":
    try:
        code = main()
    except KeyboardInterrupt:
        code = 130
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
