"""Generated hostile input for every format (issue 9): whatever one record holds, every headless command
ends with exit 0, 1 or 2, no traceback, in bounded time, and the other calls are still read."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import hostile_gen as gen
import pytest
from hostile_io import HEADLESS, names_kind, read_everything, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
BOUND_S = 30  # the bound for one command on one file
CASES = {"count": 0}


class _Overtime(Exception):
    pass


def _alarm(signum, frame):
    raise _Overtime(f"a command ran past {BOUND_S} s")


@pytest.fixture(autouse=True)
def _bounded():
    """Every command on every file ends within ``BOUND_S`` (a hang fails the test, never the run)."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def _commands(path: Path, kind: str) -> dict[str, tuple[int, str, str]]:
    forced = gen.FORCED.get(kind)
    outcomes = {}
    for command in HEADLESS:
        args = [*command, str(path), *(["--format", forced] if forced else [])]
        signal.alarm(BOUND_S)
        code, out, err = run_cli(*args)  # an exception here is a traceback the user would see
        signal.alarm(0)
        assert code in (0, 1, 2), (args, code, err)
        assert "Traceback" not in err
        if code == 2:
            assert len(err.strip().splitlines()) == 1, err
        outcomes[" ".join(command)] = (code, out, err)
    CASES["count"] += 1
    return outcomes


def _ids_in_dump(outcomes) -> set[str]:
    code, out, _ = outcomes["dump --json"]
    return {obj["id"] for obj in map(json.loads, out.splitlines()) if "id" in obj} if code != 2 else set()


def _check_others_still_count(kind, base, index, outcomes) -> None:
    bad_id = base[index][0]
    if not bad_id:  # a corpus-based base: ids unknown
        return
    others = {call_id for call_id, _ in base if call_id and call_id != bad_id}
    assert others <= _ids_in_dump(outcomes), (kind, index)


MUTATION = settings(
    max_examples=int(os.environ.get("INSPECTOR_HOSTILE_EXAMPLES", "20")),
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)


@pytest.mark.parametrize("kind", sorted(gen.BASES))
@MUTATION
@given(data=st.data())
def test_one_hostile_field_in_one_record(tmp_path_factory, kind, data):
    base = gen.BASES[kind][1]()
    index = data.draw(st.integers(0, len(base) - 1), label="record")
    paths = gen.paths_of(base[index][1])
    path = data.draw(st.sampled_from(paths), label="field")
    value = data.draw(st.sampled_from([*gen.HOSTILE_VALUES, gen.DEEP_MARK]), label="value")
    folder = tmp_path_factory.mktemp("gen")
    written = gen.write_mutated(folder, kind, base, index, path, value, "case")
    outcomes = _commands(written, kind)
    _check_others_still_count(kind, base, index, outcomes)


@pytest.mark.parametrize("kind", sorted(gen.BASES))
def test_every_field_of_every_record_takes_every_kind_of_hostile_value(tmp_path, kind):
    """A sweep: each field of each record gets values in turn (every class reaches every field)."""
    base = gen.BASES[kind][1]()
    forced = gen.FORCED.get(kind)
    values = [*gen.HOSTILE_VALUES, gen.DEEP_MARK]
    turn = 0
    for index in range(min(len(base), 2)):  # a request and its result
        for path in gen.paths_of(base[index][1]):
            for _ in range(3):
                value = values[turn % len(values)]
                turn += 7  # co-prime with the list: every value meets every kind of field
                written = gen.write_mutated(tmp_path, kind, base, index, path, value, f"sweep{turn}")
                signal.alarm(BOUND_S)
                calls = read_everything(str(written), forced)
                signal.alarm(0)
                CASES["count"] += 1
                assert calls == -1 or calls >= len({i for i, _ in base if i}) - 1 or not base[index][0], (
                    path,
                    value,
                )


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(gen.BASES))
def test_truncation_at_every_byte(tmp_path, kind):
    forced = gen.FORCED.get(kind)
    cuts = gen.truncations(tmp_path, kind)
    for number, cut in enumerate(cuts):
        signal.alarm(BOUND_S)
        read_everything(str(cut), forced)
        signal.alarm(0)
        CASES["count"] += 1
        if number % 40 == 0:
            _commands(cut, kind)


def test_huge_declared_messagepack_lengths(tmp_path):
    for kind, path in gen.huge_length_files(tmp_path):
        outcomes = _commands(path, kind)
        code, out, err = outcomes["stats --json"]
        assert code == 1, (path.name, err)  # the bad packet is malformed; the file is still read
        assert json.loads(out)["calls"] == 2, path.name


def test_a_few_real_processes(tmp_path):
    """The real command line on a few generated files: exit 0/1/2, no traceback on stderr."""
    base = gen.BASES["alicia-json"][1]()
    files = [
        (
            "alicia-json",
            gen.write_mutated(tmp_path, "alicia-json", base, 0, ("body", "timeoutMs"), 10**400, "a"),
        ),
        ("rap", gen.write_mutated(tmp_path, "rap", gen.BASES["rap"][1](), 1, ("text",), "\ud800", "b")),
        ("alicia-msgpack", gen.huge_length_files(tmp_path)[0][1]),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for kind, path in files:
        for command in (["dump", "--json"], ["stats"]):
            forced = gen.FORCED.get(kind)
            args = [
                sys.executable,
                "-m",
                "inspector",
                *command,
                str(path),
                *(["--format", forced] if forced else []),
            ]
            proc = subprocess.run(args, capture_output=True, text=True, timeout=60, env=env)
            assert proc.returncode in (0, 1, 2) and "Traceback" not in proc.stderr, proc.stderr


def test_every_format_as_a_special_path(tmp_path):
    """A FIFO, /dev/zero, a folder, a dangling symlink or an unreadable file in place of every format's
    session: every headless command (forced format too) exits 2 with one line naming it, never hangs."""
    for kind, special, path in gen.special_sessions(tmp_path):
        forced = gen.FORCED.get(kind, gen.format_of(kind))
        for command in HEADLESS:
            for extra in ([], ["--format", forced]):
                signal.alarm(BOUND_S)
                code, out, err = run_cli(*command, str(path), *extra)
                signal.alarm(0)
                assert code == 2 and len(err.strip().splitlines()) == 1, (kind, special, command, err)
                assert path.name in err and names_kind(err, special), (kind, special, err)
                CASES["count"] += 1


def test_every_format_the_inspector_reads_has_a_generated_base():
    from inspector import protocols

    assert set(protocols.FORMAT_NAMES) <= {gen.format_of(kind) for kind in gen.BASES}
    assert all(call_id for kind in gen.BASES for call_id, _ in gen.BASES[kind][1]() if call_id) and all(
        {"k1", "k2", "k3"} <= {call_id for call_id, _ in gen.BASES[kind][1]()} for kind in gen.BASES
    )  # every base names its calls, so the good ones around a bad record are checked


def test_zz_report_how_many_cases_ran():
    print(f"\nhostile cases run: {CASES['count']}")


def test_a_lone_surrogate_in_a_gemini_telemetry_object_is_made_valid(tmp_path):
    """Found by the generator (issue 25's class): the telemetry reader's own parser let a lone surrogate
    through, and dump died on it with UnicodeEncodeError."""
    path = tmp_path / "telemetry.log"
    path.write_text(
        '{\n  "attributes": {"event.name": "gemini_cli.tool_call", "function_name": "read_file",\n'
        '    "function_args": "{\\"p\\": \\"\\ud800\\"}", "prompt_id": "p1", "success": true}\n}\n'
    )
    from inspector.protocols import gemini_telemetry

    events = list(gemini_telemetry.FORMAT.read(str(path)))
    assert events
    for event in events:
        repr(getattr(event, "params", None)).encode("utf-8")  # raises on a lone surrogate
    assert "\ufffd" in repr([getattr(event, "params", None) for event in events])


@pytest.mark.parametrize("kind", sorted(gen.BASES))
@pytest.mark.parametrize("value", ["x" * 200_000, gen.DEEP_MARK], ids=["long", "deep"])
def test_a_long_or_deep_first_record_never_hides_the_format_of_the_rest(tmp_path, kind, value):
    """Detection reads a file's head: a first record's field past the head (a long string, a deep value)
    once made a Gemini telemetry outfile, pretty-printed objects, 'not a format the inspector reads'. Each
    field of the first record in turn: the others' calls are still read, without --format."""
    if kind in gen.FORCED:
        pytest.skip("read with --format: detection is not asked")
    base = gen.BASES[kind][1]()
    others = len({call_id for call_id, _ in base if call_id and call_id != base[0][0]})
    for number, path in enumerate(p for p in gen.paths_of(base[0][1]) if len(p) == 1):
        written = gen.write_mutated(tmp_path, kind, base, 0, path, value, f"first{number}")
        signal.alarm(BOUND_S)
        calls = read_everything(str(written))
        signal.alarm(0)
        assert calls >= others, (kind, path, calls)


def _read_as_the_user_sees_it(path: Path, forced: str | None) -> tuple[list, list[str]]:
    """Every call of ``path`` as dump --json writes it (payloads read again from the file), and the
    reasons of its malformed records."""
    from inspector.calljson import call_json
    from inspector.model import CallStore, Malformed
    from inspector.sources.files import load
    from inspector.sources.session import hydrate

    store = CallStore(keep_payloads=False)
    load([str(path)], store, forced)
    calls = []
    for call in store.all_calls():
        request, results = hydrate(call)
        shown = call_json(call, 0.0, request, results)
        for key in ("raw", "where", "offset", "length"):  # where the record is: its bytes differ
            shown.pop(key, None)
        calls.append(json.loads(json.dumps(shown, default=str)))
    return calls, [m.reason for m in store.malformed if isinstance(m, Malformed)]


FOLLOWED = ("claude", "recording", "alicia-json", "alicia-hex", "rap", "lmkit", "codex", "gemini", "otlp")
"""The kinds written as lines, which --follow decodes one appended line at a time."""


def _followed(path: Path, kind: str, said_as: str = "invalid UTF-8") -> tuple[list, list, int]:
    """The requests and results --follow makes of ``path``'s lines, and how many said invalid UTF-8."""
    from inspector import protocols
    from inspector.model import Malformed, Request, Result
    from inspector.sources.tail import decode_lines

    fmt = protocols.get(gen.format_of(kind))
    lines = path.read_bytes().splitlines(keepends=True)
    events = decode_lines(fmt, lines, 1, str(path), 0)  # type: ignore[arg-type]
    requests = [(e.call_id, e.tool, e.params) for e in events if isinstance(e, Request)]
    results = [(e.call_id, e.outcome, e.data) for e in events if isinstance(e, Result)]
    said = sum(1 for e in events if isinstance(e, Malformed) and said_as in e.reason)
    return requests, results, said


SAID = {"utf8": "invalid UTF-8", "controls": "control characters"}


@pytest.mark.parametrize("bad_kind", sorted(gen.BAD_BYTES))
@pytest.mark.parametrize("kind", sorted(gen.BASES))
def test_bytes_that_are_not_utf8_in_any_field_are_read_as_u_fffd_and_said(tmp_path, kind, bad_kind):
    """Bytes that are not UTF-8 inside a string of any field of any record: the record is read as if it
    held U+FFFD for each bad byte (every call the same as in that file, none lost), and one malformed
    record says the line held invalid UTF-8. Invalid UTF-8 made the whole record malformed, its call lost.
    The same for control characters raw inside a JSON string (NUL, ESC, BEL, a tab: JSON wants them
    escaped): read as the same characters escaped, and said (a Gemini document was lost whole)."""
    if bad_kind == "controls" and kind in ("alicia-msgpack", "alicia-hex"):
        pytest.skip("MessagePack strings may hold any character")
    forced = gen.FORCED.get(kind)
    base = gen.BASES[kind][1]()
    tried = 0
    for index in range(len(base)):
        for path in gen.paths_of(base[index][1]):
            bad, good = gen.bad_utf8_pair(tmp_path, kind, base, index, path, bad_kind)
            if bad.read_bytes() == good.read_bytes():
                continue  # never expected: the mark was not written
            signal.alarm(BOUND_S)
            bad_calls, bad_reasons = _read_as_the_user_sees_it(bad, forced)
            good_calls, good_reasons = _read_as_the_user_sees_it(good, forced)
            signal.alarm(0)
            said = [reason for reason in bad_reasons if SAID[bad_kind] in reason]
            assert len(said) == 1, (kind, index, path, bad_reasons)
            assert [r for r in bad_reasons if r not in said] == good_reasons, (kind, index, path)
            assert bad_calls == good_calls, (kind, index, path)
            if kind in FOLLOWED:
                bad_followed = _followed(bad, kind, SAID[bad_kind])
                assert bad_followed == (*_followed(good, kind, SAID[bad_kind])[:2], 1), (kind, index, path)
            tried += 1
            CASES["count"] += 1
    assert tried > 10


@pytest.mark.parametrize("kind", sorted(gen.BASES))
def test_nul_bytes_a_crash_left_before_a_record_hide_nothing(tmp_path, kind):
    """A run of NUL bytes before a record (what a file system leaves after a crash, before the next
    write): the record is read, and one malformed record says so; it was lost with its call."""
    if kind in ("alicia-msgpack", "gemini-json"):
        pytest.skip("not written as lines or objects one after another")
    forced = gen.FORCED.get(kind)
    good, _ = gen.good_file(tmp_path, kind)
    data = good.read_bytes()
    good_calls, _ = _read_as_the_user_sees_it(good, forced)
    starts = [  # not the file's first byte: NULs there make a file whose format cannot be told
        at + 1 for at in range(len(data) - 1) if data[at : at + 2] in (b"\n{", b"\n0", b"\n8", b"\n9")
    ]
    for start in starts:
        padded = tmp_path / ("padded-" + good.name)
        padded.write_bytes(data[:start] + b"\x00" * 4096 + data[start:])
        calls, reasons = _read_as_the_user_sees_it(padded, forced)
        assert calls == good_calls and [r for r in reasons if "NUL" in r] == [
            "had 4096 NUL bytes around it (as a crash leaves in a file)"
            if kind != "gemini_telemetry"
            else "had 4096 NUL bytes before it (as a crash leaves in a file)"
        ], (kind, start, reasons)
        CASES["count"] += 1


def _ended_and_latencies(path: Path, forced: str | None) -> tuple[set[str], dict[str, object], list[str]]:
    from inspector.model import CallStore, State
    from inspector.sources.files import load

    store = CallStore()
    load([str(path)], store, forced)
    now = 4_102_444_800.0  # 2100: any deadline has passed
    calls = list(store.all_calls())
    ended = {c.call_id for c in calls if c.state(now) not in (State.PENDING, State.OVERDUE)}
    return ended, {c.call_id: c.latency_ms for c in calls}, [m.reason for m in store.malformed]


def _a_time_after(nanos: object, start: float) -> bool:
    try:
        seconds = int(nanos) / 1e9  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return False
    return start <= seconds <= 253402300799.0


@pytest.mark.parametrize("kind", sorted(gen.BASES))
def test_a_time_that_is_no_time_never_makes_an_ended_call_pending_or_a_negative_duration(tmp_path, kind):
    """Every time field of every record (a start, an end, a timestamp, a duration) holding what is no
    time (text, negative, NaN, past 9999, before the start, the wrong type): every call that ended still
    ends, none takes a negative time, and the rest of the file is read. An OTLP span whose end time
    could not be read stayed pending for ever (a countdown to nothing); it is ended, its end unknown,
    and said."""
    forced = gen.FORCED.get(kind)
    base = gen.BASES[kind][1]()
    good, _ = gen.good_file(tmp_path, kind)
    ended, _, _ = _ended_and_latencies(good, forced)
    assert ended, kind
    tried = 0
    for index in range(len(base)):
        for path in (p for p in gen.paths_of(base[index][1]) if gen.is_time_path(p)):
            for number, value in enumerate(gen.TIME_VALUES):
                written = gen.write_mutated(tmp_path, kind, base, index, path, value, f"time{number}")
                signal.alarm(BOUND_S)
                now_ended, latencies, reasons = _ended_and_latencies(written, forced)
                signal.alarm(0)
                case = (kind, index, path, value)
                assert all(ms is None or ms >= 0 for ms in latencies.values()), (case, latencies)
                assert ended <= now_ended, (case, ended - now_ended, reasons)
                if kind == "otlp" and path[-1] == "endTimeUnixNano":  # said unless a time after the start
                    said = any("end unknown" in r for r in reasons)
                    assert said != _a_time_after(value, 1764000000.1), (case, reasons)
                tried += 1
                CASES["count"] += 1
    assert tried or kind in ("lmkit", "rap", "alicia-json", "alicia-hex", "alicia-msgpack"), kind


@pytest.mark.parametrize("kind", sorted(gen.BASES))
def test_a_file_named_twice_is_read_once(tmp_path, kind):
    """The same session named twice, through a symlink, or as a path beside its folder: each call once,
    and a note says which path was the same file (RAP, LM-Kit, OTLP, Gemini, recordings and Alicia files
    showed every call twice)."""
    from inspector.model import CallStore
    from inspector.sources.files import load

    forced = gen.FORCED.get(kind)
    folder = tmp_path / "s"
    folder.mkdir()
    good, _ = gen.good_file(folder, kind)
    link = tmp_path / ("link-" + good.name)
    link.symlink_to(good)
    once = CallStore()
    load([str(good)], once, forced)
    ways = [[str(good), str(good)], [str(good), str(link)], [str(link), str(folder / ".." / "s" / good.name)]]
    if forced is None and kind != "gemini_telemetry":  # a folder opens the sessions it holds
        ways.append([str(folder), str(good)])
    for paths in ways:
        store, notes = CallStore(), []
        load(paths, store, forced, notes=notes)
        assert store.call_count == once.call_count, (kind, paths)
        assert len(notes) == 1 and "again: read once" in notes[0], (kind, paths, notes)


WRONG_IDS = [7, 12345678901234567890123, 1.5, True, None, "", {"a": 1}, ["k1"], "x" * 100_000]


@pytest.mark.parametrize("kind", sorted(gen.BASES))
def test_an_id_of_any_kind_is_read_or_said_never_dropped(tmp_path, kind):
    """A call whose id (in its request and its result alike) is a number, a huge number, empty, an
    object, an array, null or 100 KB of text: the call is read under some id, or a malformed record says
    why it is not; the other calls are read. A Gemini CLI call whose id was not a string vanished
    without a word."""
    from inspector.model import CallStore
    from inspector.sources.files import load

    forced = gen.FORCED.get(kind)
    base = gen.BASES[kind][1]()
    for new in WRONG_IDS:
        records = [
            json.loads(json.dumps(record).replace('"k1"', json.dumps(new))) if call_id == "k1" else record
            for call_id, record in base
        ]
        path = gen.write_case(tmp_path, kind, records, "ids")
        store = CallStore()
        load([str(path)], store, forced)
        others = [c for c in store.all_calls() if c.call_id in ("k2", "k3")]
        assert len(others) == 2, (kind, new)
        kept = [c for c in store.all_calls() if c.call_id not in ("k2", "k3")]
        assert kept or store.malformed, (kind, repr(new)[:40])
        CASES["count"] += 1


@pytest.mark.parametrize("kind", [*FOLLOWED, "alicia-msgpack", "gemini-json", "gemini_telemetry"])
def test_a_value_nested_50000_deep_costs_only_itself(tmp_path, kind):
    """A value nested 50,000 levels deep in any field of any record of any format (JSON lines, a
    document's items, telemetry objects, MessagePack packets in a file or as hex lines): the record is
    read with a stand-in for what is past 200 levels, and said (the whole record was malformed: an OTLP
    batch lost every span for one deep attribute, a call its request for one deep argument, a packet
    past the unpacker's 1,024 levels its envelope)."""
    from inspector.model import CallStore
    from inspector.sources.files import load

    forced = gen.FORCED.get(kind)
    base = gen.BASES[kind][1]()
    tried = 0
    for index in range(min(len(base), 2)):  # a request and its result
        for path in gen.paths_of(base[index][1])[::3]:  # every third field: the way in is the same
            shallow = gen.write_mutated(tmp_path, kind, base, index, path, [["x"]], "shallow")  # an array too
            deep = gen.write_mutated(tmp_path, kind, base, index, path, gen.DEEP_MARK, "deep")
            found = {}
            for name, written in (("shallow", shallow), ("deep", deep)):
                store = CallStore()
                signal.alarm(BOUND_S)
                load([str(written)], store, forced)
                signal.alarm(0)
                found[name] = ({c.call_id for c in store.all_calls()}, [m.reason for m in store.malformed])
            assert found["deep"][0] == found["shallow"][0], (kind, index, path, found["deep"][1])
            said = [r for r in found["deep"][1] if "levels deep: what is past 200" in r]
            assert len(said) == 1, (kind, index, path, found["deep"][1])
            tried += 1
            CASES["count"] += 1
    assert tried >= 3
