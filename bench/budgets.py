"""Performance budgets: each ratio measured against its own baseline in the same run; exit 1 past a budget.

Run: ``python bench/budgets.py`` (full: a 100 MB Claude Code transcript, 20 MB Codex and Gemini files; a few
minutes) or ``python bench/budgets.py --quick`` (what ``.ci/run`` runs: 32 MB and 4 MB files, under a minute).
``--only NAME`` runs the budgets whose name starts with NAME; ``--corpus DIR`` is the shared corpus.

Every figure is a ratio of two measures taken here, interleaved, the best of several runs:

- ``stats``: the CPU time (user + system) of ``inspector stats BIG`` against a bare stdlib pass, a
  ``python -c`` that ``json.loads`` every line of the same file. In ``--quick`` mode both are taken minus
  the same command on a tiny file (start-up is its own budget, and on a small file it is all there is).
- ``stats memory`` (full run only): the peak RSS of ``inspector stats BIG`` above that of ``inspector stats
  TINY``, against the file's size.
- ``start-up``: ``inspector stats`` on a small file against ``python -c "import textual"`` (a headless
  command imports no UI), CPU time, byte-code cached (as an installed wheel has it) in the run's
  temporary folder, whatever PYTHONDONTWRITEBYTECODE says.
- ``dump --json``: like ``stats``, ``inspector dump --json BIG > /dev/null``.
- ``codex`` / ``gemini`` / ``gemini document``: reading a session into a store as ``inspector stats`` does
  (``session.load``) against ``json.loads`` of its lines (of the whole document), CPU time in one process.
- ``app first rows``: the app (Textual, headless) opening BIG until its first rows show, against opening a
  1 MB transcript; ``app all calls``: until the load is done and every call counted, against the bare pass
  over BIG in the same process (both minus the 1 MB file's with ``--quick``); ``app RSS`` (full run only:
  a file under ``sources.files.BIG_FILES`` keeps its payloads): the app's RSS with BIG loaded, against the
  file's size; ``app RSS of the file``: that RSS above the app's with a 40-line file, against the file's
  size (what the app keeps of a load: the issue's 0.5x cannot be met while the app alone, before any call,
  is 0.46x-0.48x of the 100 MB file; see ``STANDS``).

A budget has a goal (what the issue asked) and a failing line past it (``MARGIN`` times the goal, or times
where the budget still stands when the goal is not met yet: ``STANDS``): the machines this runs on are
shared (2 cores, others' work), so the line sits where a real regression (1.8x) fails and noise does not. A budget past its line
is measured again, twice at most, and fails only when every measure is past it. The exit status is 1 when any ratio is past its failing line (0, measuring nothing, without
the corpus).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))

CORPUS = ROOT.parent / "shared" / "corpus"
TREE = [ROOT]
"""The inspector tree measured (``--tree``: another checkout, to compare before and after in one run)."""
MARGIN = {"quick": 1.5, "full": 1.35}
"""The failing line is the goal (or where a budget stands) times this. CPU times of full runs moved by
under ±10 % from run to run here (2 cores, others' work), wall times and --quick's small differences by
up to ±30 %: the line sits where a real regression (1.8x; the full run fails the tree before issue 23's
stats, 2.5x against 1.75x) fails and noise does not."""
# Where a budget still stands above its goal (the ratio measured when this line was last moved, per
# mode): its failing line is that level times MARGIN, so the check catches a change that loses more, and
# the table still says the goal is not met. Lower a figure when a change wins the speed back; drop it
# when the goal is met.
STANDS: dict[str, dict[str, float]] = {  # measured at the commit that added this script (issue 23)
    "quick": {
        # stats: the goal met (0.92x-0.99x; 1.28x-1.40x before its table was written without Rich, 1.5x
        # before msgspec): its line is 1.0 x MARGIN
        # 1.48x-1.67x in four runs once rollouts were read in blocks (1.7x-2.1x before; 3.3x before results
        # were read without details, quiet records dropped)
        "codex": 1.7,
        # gemini: the goal met (1.33x-1.51x in four runs, 1.49x-2.14x for the tree before, interleaved)
        # once a session kept its messages' events, not their records, and read a call in one pass
        # (1.62x-1.87x once JSON Lines were read in blocks; 3.2x before): its line is 1.5 x MARGIN
        # gemini document: the goal met (1.27x-1.39x in four runs, 1.43x-1.61x for the tree before,
        # interleaved) once a shell call's exit code was looked for only where it is written and a call's
        # events were made with fewer calls (1.3x-1.6x before; 3.6x before its messages were split in
        # one pass): its line is 1.5 x MARGIN
        "app first rows": 3.3,  # wall time on a loaded machine: 0.9x to 3.3x from run to run
        "app all calls": 2.4,  # 1.6x-2.3x (4.8 before the load's collector, frames and restyles were cut)
    },
    "full": {
        # 1.50 before msgspec (0.68 s vs 0.45 s); 1.16x-1.22x before its table was written without Rich,
        # 1.13x-1.15x after (0.52-0.53 s vs 0.46 s), start-up 0.10 s of it (0.12-0.13 s before);
        # 1.07x-1.13x (0.49-0.50 s vs 0.44-0.46 s; 1.17x-1.20x, 0.53-0.54 s, at 58385a4 in the same
        # session) once stats read each call once, and the detail types, the Claude Code reader for
        # other formats and each line's place as text were no longer made for nothing; 1.02x-1.07x in
        # eight runs (0.45-0.48 s vs 0.44-0.46 s) once the store, the events' times, stats' pass and a
        # record's parse took less per event (0.91x-1.08x, median 1.06x, for the tree before, interleaved);
        # 0.90x-1.04x, median 1.02x, in five runs (0.45-0.52 s vs 0.44-0.57 s) once a record took fewer
        # calls, a line's place no checks, a record of a known session no resume and a result's
        # toolUseResult its few keys (1.09x-1.15x, 0.49-0.52 s, for 79ba10e, interleaved; -9.3% instructions)
        "stats": 1.04,
        # 1.51x-1.53x (1.63x-1.67x before a line's parse and length took no call nor copy and a
        # patch_apply_end's has_diff built no diff; 2.83x before read_bare, quiet records dropped, msgspec);
        # read in blocks: 1.52x-1.61x in a session where the line-by-line read was 1.61x-1.66x
        "codex": 1.55,
        # gemini: the goal met in the median (1.12x-1.82x, median 1.41x, in fifteen runs on a loaded
        # machine; 1.49x-2.14x, median 1.58x, for the trees before, interleaved) once a session kept its
        # messages' events, not their records, and read a call in one pass (1.61x-1.70x when its line was
        # set; 1.82x-1.97x before JSON Lines were read in blocks; 2.94x before): its line is 1.5 x MARGIN
        # gemini document: the goal met (1.23x-1.45x, median 1.32x, in eleven runs; 1.30x-1.63x, median
        # 1.39x, for the tree before, interleaved) once a shell call's exit code was looked for only where
        # it is written and a call's events were made with fewer calls (1.56x-1.71x when its line was set;
        # 3.34x before): its line is 1.5 x MARGIN
        "app first rows": 1.6,
        # app all calls: the goal met (1.78x-2.10x in five runs; 2.82x before), its line is 2.0 x MARGIN
        # The goal (0.5x) cannot be met while the calls stay in memory as objects: the app with a 40-line
        # file is 46.6 MB (Python 8.7, site, asyncio and Textual's imports 25.0, a bare Textual app
        # running 1.9, the inspector's modules with msgspec, ctypes and json 5.5, its screen running 5.5:
        # 25 widgets and 113 nodes of their component classes, the CSS, the first detail), 0.47x of the
        # file before any call is kept, which leaves 3.4 MB, 310 bytes a call, for 8,469 calls and 2,525
        # messages (a Request and its Result alone are 288). Loaded, they add 11.8 MB: 1.4 KB a call, most
        # of it the objects themselves (a request and a result 144 bytes each, the call 80 and its number
        # 32, the places of its two records 56 each and their packed numbers 40 each, a time 24 each, the
        # result's list, the id, the summary), the messages' text (0.7 MB), the store's maps and the
        # follow's (2 x 0.4 MB), the rows, the allocator's slack (about 2 MB).
        # 0.63x-0.64x before a line's place packed, built-in themes unchecked, no answer editor, OTLP,
        # LM-Kit nor Gemini telemetry reader imported for a file, a shared empty children list, the
        # reader's buffer let go and repeated summaries shared (0.69x-0.70x before one C heap for the
        # threads, the shared empty extra, lines kept by number and the store's maps without key tuples;
        # 0.76x before shared strings, the heap given back).
        "app RSS": 0.6,  # 0.59x-0.60x (58-60 MB)
    },
}
CHILD_TIMEOUT = 600
"""The failing line is the goal times this: noise (±30 %) stays under it, a 1.8x regression does not."""

BARE = (
    "import json, sys\n"
    "with open(sys.argv[1], 'rb') as fh:\n"
    "    for line in fh:\n"
    "        if line.strip():\n"
    "            json.loads(line)\n"
)


CONFIRMS = 2
"""How many more times a budget past its line is measured before it fails (see ``confirm``)."""

MODE = ["full"]
PYCACHE: list[str] = []
"""Where the children's byte-code is cached (a folder of the run's temporary one)."""


@dataclass
class Row:
    name: str
    ratio: float
    goal: float
    figures: str

    @property
    def fail_at(self) -> float:
        return max(self.goal, STANDS[MODE[0]].get(self.name, 0.0)) * MARGIN[MODE[0]]

    @property
    def verdict(self) -> str:
        if self.ratio > self.fail_at:
            return "FAIL"
        return "ok" if self.ratio <= self.goal else "over goal"


# -- measuring --------------------------------------------------------------------------------------


def run_child(args: list[str], stdout: Any = subprocess.DEVNULL) -> tuple[float, int]:
    """CPU seconds (user + system) and peak RSS in bytes of one child process run to its end."""
    # run from the measured tree: ``python -m`` puts the working folder first on sys.path
    child = subprocess.Popen(args, stdout=stdout, stderr=subprocess.PIPE, env=child_env(), cwd=TREE[0])
    assert child.stderr is not None
    errors = child.stderr.read()  # a command that hangs is stopped by the timeout of the caller (.ci/run)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):  # 1: the file holds malformed records, which is no failure here
        raise SystemExit(f"{' '.join(args)} failed ({child.returncode}): {errors.decode(errors='replace')}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def best(repeat: int, *commands: list[str]) -> list[tuple[float, int]]:
    """The least CPU time and RSS of each command over ``repeat`` rounds, the commands interleaved."""
    found = [(float("inf"), 1 << 62)] * len(commands)
    for _ in range(repeat):
        for index, command in enumerate(commands):
            cpu, rss = run_child(command)
            found[index] = (min(found[index][0], cpu), min(found[index][1], rss))
    return found


def inspector(*args: str) -> list[str]:
    return [sys.executable, "-m", "inspector", *args]


def bare(path: Path) -> list[str]:
    return [sys.executable, "-c", BARE, str(path)]


# -- the budgets ------------------------------------------------------------------------------------


def command_budget(
    name: str, goal: float, args: list[str], big: Path, tiny: Path, quick: bool, repeat: int
) -> Row:
    """A headless command on BIG against the bare pass (both minus the tiny file's run with --quick)."""
    (cmd, _), (base, _) = best(repeat, inspector(*args, str(big)), bare(big))
    figures = f"{cmd:.2f} s CPU vs {base:.2f} s"
    if quick:
        (cmd_tiny, _), (base_tiny, _) = best(repeat, inspector(*args, str(tiny)), bare(tiny))
        cmd, base = cmd - cmd_tiny, base - base_tiny
        figures = f"{cmd:.2f} s CPU vs {base:.2f} s, start-up taken off"
    return Row(name, cmd / max(base, 1e-3), goal, figures)


def memory_budget(big: Path, tiny: Path, repeat: int) -> Row:
    (_, rss_big), (_, rss_tiny) = best(repeat, inspector("stats", str(big)), inspector("stats", str(tiny)))
    grown = max(rss_big - rss_tiny, 0)
    size = big.stat().st_size
    return Row(
        "stats memory",
        grown / size,
        0.4,
        f"{grown / 1e6:.0f} MB above a tiny file's, {size / 1e6:.0f} MB file",
    )


def startup_budget(small: Path, repeat: int) -> Row:
    (cmd, _), (textual, _) = best(
        repeat, inspector("stats", str(small)), [sys.executable, "-c", "import textual"]
    )
    return Row(
        "start-up",
        cmd / textual,
        1.2,
        f"stats {small.stat().st_size / 1e3:.0f} KB {cmd:.3f} s vs import textual {textual:.3f} s",
    )


def child_env() -> dict[str, str]:
    """The measured tree first on the path, and byte-code cached as an installed wheel has it: with
    PYTHONDONTWRITEBYTECODE (set on some machines) every run compiled the whole tree again, which is
    most of a headless command's start-up (0.23 s against 0.13 s cached here). The cache goes in the
    run's temporary folder, not into the tree."""
    env = dict(os.environ, PYTHONPATH=str(TREE[0]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if PYCACHE:
        env["PYTHONPYCACHEPREFIX"] = PYCACHE[0]
    return env


def child_json(args: list[str]) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--tree", str(TREE[0]), *args],
        capture_output=True,
        text=True,
        env=child_env(),
        cwd=TREE[0],
        check=False,
        timeout=CHILD_TIMEOUT,
    )
    if out.returncode != 0:
        raise SystemExit(f"budgets {' '.join(args)} failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


# -- in a child process: reads and the app ----------------------------------------------------------


def cpu_best(repeat: int, work: Callable[[], object]) -> float:
    found = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        found = min(found, time.process_time() - start)
    return found


def bare_parse(path: Path) -> Callable[[], None]:
    """``json.loads`` of every line (of the whole document for a JSON document), bytes read beforehand."""
    data = path.read_bytes()
    if path.suffix == ".json":
        return lambda: json.loads(data) and None
    lines = [line for line in data.splitlines() if line.strip()]

    def run() -> None:
        for line in lines:
            json.loads(line)

    return run


def child_read(path: str, repeat: int) -> dict[str, float]:
    from inspector.model import CallStore

    try:
        from inspector.sources.files import load
    except ImportError:  # a tree from before load moved (--tree: a before-and-after run)
        from inspector.session import load  # type: ignore[no-redef]

    base = bare_parse(Path(path))
    loaded = float("inf")
    baseline = float("inf")
    for _ in range(repeat):  # interleaved, so both see the same machine
        baseline = min(baseline, cpu_best(1, base))
        loaded = min(loaded, cpu_best(1, lambda: load([path], CallStore(keep_payloads=False))))
    return {"read": loaded, "bare": baseline}


def rss_now() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def the_list(app: Any) -> Any:
    """The app's call list (``#calls``; a tree from before it had an id: the first CallList)."""
    from inspector.ui.widgets.call_list import CallList

    found = app.screen.query("#calls")
    return found.first() if found else app.screen.query_one(CallList)


async def open_in_app(path: str) -> tuple[float, float]:
    """Seconds (wall) until the app shows its first rows of ``path``, and CPU seconds (every thread of
    the process: the loader's and the UI's) until its load is done."""
    sys.path.insert(0, str(TREE[0] / "tests" / "ui"))
    from ui_factories import file_app

    app = file_app([path])
    started, cpu = time.perf_counter(), time.process_time()
    async with app.run_test(size=(120, 40)) as pilot:
        call_list = the_list(app)
        while not len(call_list.view):
            await asyncio.sleep(0.002)
        first = time.perf_counter() - started
        while app.screen.has_class("-loading"):
            await asyncio.sleep(0.005)
        done = time.process_time() - cpu
        await pilot.pause()
    return first, done


def child_app(big: str, small: str, tiny: str, repeat: int, quick: bool) -> dict[str, float]:
    base_big, base_small = bare_parse(Path(big)), bare_parse(Path(small))
    found = dict.fromkeys(("bare", "bare_small", "first_small", "done_small", "first_big", "done_big"), 1e9)

    def keep(name: str, seconds: float) -> None:
        found[name] = min(found[name], seconds)

    asyncio.run(open_in_app(small))  # once unmeasured: the first app of a process imports and compiles
    for _ in range(repeat):
        for name, work in (("bare", base_big), ("bare_small", base_small)):
            keep(name, cpu_best(1, work))
        first, done = asyncio.run(open_in_app(small))
        keep("first_small", first)
        keep("done_small", done)
        first, done = asyncio.run(open_in_app(big))
        keep("first_big", first)
        keep("done_big", done)
    del base_big, base_small
    if not quick:  # each in a process that has read nothing else
        found["rss"] = child_json(["--child-rss", big])["rss"]
        found["rss_tiny"] = child_json(["--child-rss", tiny])["rss"]
    return found


def child_rss(path: str) -> dict[str, float]:
    """The RSS of the app's process with ``path`` loaded (the app still running)."""
    result: dict[str, float] = {}

    async def run() -> None:
        sys.path.insert(0, str(TREE[0] / "tests" / "ui"))
        from ui_factories import file_app

        app = file_app([path])
        async with app.run_test(size=(120, 40)) as pilot:
            call_list = the_list(app)
            while not len(call_list.view) or app.screen.has_class("-loading"):
                await asyncio.sleep(0.01)
            await pilot.pause()
            result["rss"] = rss_now()

    asyncio.run(run())
    return result


# -- files ------------------------------------------------------------------------------------------


@dataclass
class Files:
    claude_big: Path
    claude_small: Path  # about 1 MB: the app's first rows of it are the baseline of the big file's
    claude_tiny: Path  # a few records: start-up, and what --quick takes off
    agents: list[tuple[str, Path]]


def build_files(folder: Path, corpus: Path, claude_mb: float, agents_mb: float, write: bool = True) -> Files:
    from bench_agents import build_codex, build_gemini_document, build_gemini_lines
    from make_big_transcript import build

    claude = corpus / "claude"
    big, small, tiny = folder / "big.jsonl", folder / "small.jsonl", folder / "tiny.jsonl"
    rollout = folder / "codex" / "rollout-2025-11-23T00-00-00-big.jsonl"
    lines = folder / "gemini" / "chats" / "session-big.jsonl"
    document = folder / "gemini-doc" / "chats" / "session-big.json"
    files = Files(big, small, tiny, [("codex", rollout), ("gemini", lines), ("gemini document", document)])
    if not write:
        return files
    build(big, int(claude_mb * 1e6), claude)
    build(small, 1_000_000, claude)
    with small.open("rb") as fh:
        tiny.write_bytes(b"".join(fh.readline() for _ in range(40)))
    for path in (rollout, lines, document):
        path.parent.mkdir(parents=True)
    size = int(agents_mb * 1e6)
    build_codex(rollout, size, corpus / "codex")
    build_gemini_lines(lines, size, corpus / "gemini")
    build_gemini_document(document, size, corpus / "gemini")
    return files


# -- main -------------------------------------------------------------------------------------------

BUDGETS = ("stats", "stats memory", "start-up", "dump --json", "codex", "gemini", "gemini document", "app")


def measure(files: Files, quick: bool, repeat: int, only: list[str]) -> list[Row]:
    def wanted(name: str) -> bool:
        return not only or any(name.startswith(prefix) for prefix in only)

    rows: list[Row] = []
    big, tiny = files.claude_big, files.claude_tiny
    if wanted("stats"):
        rows.append(command_budget("stats", 1.0, ["stats"], big, tiny, quick, repeat))
    if wanted("stats memory") and not quick:  # a small file's read is lost in the start-up's peak
        rows.append(memory_budget(big, tiny, max(1, repeat - 1)))
    if wanted("start-up"):
        rows.append(startup_budget(tiny, repeat + 2))
    if wanted("dump --json"):
        rows.append(
            command_budget("dump --json", 2.0, ["dump", "--json"], big, tiny, quick, max(1, repeat - 1))
        )
    for name, path in files.agents:
        if wanted(name):
            got = child_json(["--child-read", str(path), str(repeat)])
            rows.append(
                Row(
                    name,
                    got["read"] / got["bare"],
                    1.5,
                    f"{got['read']:.2f} s CPU vs {got['bare']:.2f} s, {path.stat().st_size / 1e6:.0f} MB",
                )
            )
    if wanted("app"):
        app_args = [str(big), str(files.claude_small), str(tiny), str(max(1, repeat - 1)), str(int(quick))]
        got = child_json(["--child-app", *app_args])
        size = big.stat().st_size
        first = Row(
            "app first rows",
            got["first_big"] / got["first_small"],
            1.0,
            f"{got['first_big']:.2f} s vs {got['first_small']:.2f} s for 1 MB (wall)",
        )
        if quick:  # the app's start-up and the small file's load taken off; no RSS (a file under
            # BIG_FILES keeps its payloads: only a big one tells what the app keeps of a load)
            done, base = got["done_big"] - got["done_small"], got["bare"] - got["bare_small"]
            rows += [
                first,
                Row(
                    "app all calls",
                    done / base,
                    2.0,
                    f"{done:.2f} s vs {base:.2f} s (CPU), start-up taken off",
                ),
            ]
        else:
            rows += [
                first,
                Row(
                    "app all calls",
                    got["done_big"] / got["bare"],
                    2.0,
                    f"{got['done_big']:.2f} s vs {got['bare']:.2f} s (CPU)",
                ),
                Row(
                    "app RSS",
                    got["rss"] / size,
                    0.5,
                    f"{got['rss'] / 1e6:.0f} MB with {size / 1e6:.0f} MB loaded",
                ),
                Row(
                    "app RSS of the file",
                    max(got["rss"] - got["rss_tiny"], 0) / size,
                    0.15,
                    f"{(got['rss'] - got['rss_tiny']) / 1e6:.1f} MB above the app with a 40-line file "
                    f"({got['rss_tiny'] / 1e6:.0f} MB)",
                ),
            ]
    return rows


def confirm(files: Files, quick: bool, repeat: int, rows: list[Row]) -> list[Row]:
    """Measure again, up to ``CONFIRMS`` times, a budget past its line: it fails only when every measure is.

    A real regression stays past the line in each; a stall of the shared machine during one measure (seen:
    stats at 1.48x, 0.69 s CPU, once in 25 full runs whose others gave 0.9x-1.1x) does not."""
    confirmed: list[Row] = []
    for row in rows:
        # the app's three budgets are one measure
        prefix = "app" if row.name.startswith("app ") else row.name
        for _ in range(CONFIRMS):
            if row.verdict != "FAIL":
                break
            again = next(r for r in measure(files, quick, repeat, [prefix]) if r.name == row.name)
            print(f"{row.name}: {row.ratio:.2f}x is past its line; measured again: {again.ratio:.2f}x")
            row = min(row, again, key=lambda r: r.ratio)
        confirmed.append(row)
    return confirmed


def print_table(rows: list[Row]) -> None:
    width = max([16, *(len(row.name) for row in rows)])
    print(f"{'budget':{width}} {'ratio':>6} {'goal':>6} {'fails':>6}  {'':9} figures")
    for row in rows:
        print(
            f"{row.name:{width}} {row.ratio:5.2f}x {row.goal:5.2f}x {row.fail_at:5.2f}x  {row.verdict:9} {row.figures}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small files, fewer runs (CI)")
    parser.add_argument("--only", action="append", default=[], help="only budgets starting with this")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the inspector checkout to measure")
    parser.add_argument("--repeat", type=int, help="runs of each measure (best kept)")
    parser.add_argument("--child-read", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--child-app", nargs=5, help=argparse.SUPPRESS)
    parser.add_argument("--child-rss", help=argparse.SUPPRESS)
    parser.add_argument("--child-build", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    TREE[0] = args.tree.resolve()
    sys.path.insert(0, str(TREE[0]))
    if args.child_read:
        print(json.dumps(child_read(args.child_read[0], int(args.child_read[1]))))
        return 0
    if args.child_app:
        big, small, tiny, repeat, quick = args.child_app
        print(json.dumps(child_app(big, small, tiny, int(repeat), quick == "1")))
        return 0
    if args.child_build:
        folder, corpus, claude_mb, agents_mb = args.child_build
        build_files(Path(folder), Path(corpus), float(claude_mb), float(agents_mb))
        return 0
    if args.child_rss:
        print(json.dumps(child_rss(args.child_rss)))
        return 0
    if not all((args.corpus / kind).is_dir() for kind in ("claude", "codex", "gemini")):
        print(f"no corpus at {args.corpus} (claude, codex, gemini): no budget measured", file=sys.stderr)
        return 0
    MODE[0] = "quick" if args.quick else "full"
    claude_mb, agents_mb = (32.0, 4.0) if args.quick else (100.0, 20.0)
    repeat = args.repeat or (2 if args.quick else 3)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="budgets-") as folder:
        # built by a child: a child's peak RSS counts its parent's at the fork (Linux keeps the larger
        # at exec), so this process stays small
        subprocess.run(
            [
                sys.executable,
                __file__,
                "--child-build",
                folder,
                str(args.corpus),
                str(claude_mb),
                str(agents_mb),
            ],
            check=True,
            timeout=CHILD_TIMEOUT,
        )
        files = build_files(Path(folder), args.corpus, claude_mb, agents_mb, write=False)
        PYCACHE.append(str(Path(folder) / "pycache"))
        best(1, inspector("stats", str(files.claude_tiny)), [sys.executable, "-c", "import textual"])
        rows = measure(files, args.quick, repeat, args.only)
        rows = confirm(files, args.quick, repeat, rows)
    print_table(rows)
    failed = [row.name for row in rows if row.verdict == "FAIL"]
    print(
        f"{len(rows)} budgets in {time.monotonic() - started:.0f} s; "
        + (f"past the line: {', '.join(failed)}" if failed else "none past its line")
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
