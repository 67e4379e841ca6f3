"""Timeline math: idle gaps, the scale with collapsed gaps, zoom, pan, fit, ticks and eighth-block bars."""

from __future__ import annotations

import pytest

from inspector.ui.timescale import GAP_CELLS, Gap, Scale, bar_cells, idle_gaps, tick_label, tick_step, ticks


def test_idle_gaps_only_where_nothing_runs():
    spans = [(0, 10), (5, 20), (100, 110), (111, 112)]
    assert idle_gaps(spans, 30) == [Gap(20, 100)]
    assert idle_gaps(spans, 0.5) == [Gap(20, 100), Gap(110, 111)]
    assert idle_gaps([], 1) == []


def test_scale_maps_time_and_back_and_squeezes_gaps():
    scale = Scale(0.0, 1.0, (Gap(10, 3610),))
    assert scale.x(5) == pytest.approx(5)
    assert scale.x(3610) == pytest.approx(10 + GAP_CELLS)  # an hour away takes GAP_CELLS cells
    assert scale.x(3620) == pytest.approx(20 + GAP_CELLS)
    assert scale.time_at(scale.x(3615)) == pytest.approx(3615, abs=1e-6)
    assert scale.in_gap(100) and not scale.in_gap(5)


def test_zoom_keeps_the_anchor_and_pan_moves_by_cells():
    scale = Scale(0.0, 1.0)
    zoomed = scale.zoomed(2, 40)
    assert zoomed.per_cell == pytest.approx(0.5)
    assert zoomed.time_at(40) == pytest.approx(scale.time_at(40))
    assert scale.zoomed(0.5, 0).per_cell == pytest.approx(2)
    assert scale.panned(10).start == pytest.approx(10)
    assert scale.panned(-10).x(0) == pytest.approx(10)


def test_fit_shows_everything_and_follow_puts_now_near_the_right():
    fitted = Scale.fit(100.0, 200.0, 50)
    assert fitted.x(100) == pytest.approx(0) and fitted.x(200) == pytest.approx(50, abs=0.5)
    with_gap = Scale.fit(0.0, 7300.0, 50, [Gap(100, 7200)])
    assert with_gap.x(7300) == pytest.approx(50, abs=0.5)
    assert Scale(0, 1).following(500, 100).x(500) == pytest.approx(90)


@pytest.mark.parametrize(
    ("per_cell", "step"), [(0.0001, 0.001), (0.01, 0.1), (0.5, 5), (10, 120), (400, 7200)]
)
def test_tick_steps_stay_ten_cells_apart(per_cell, step):
    assert tick_step(per_cell) == step


def test_tick_labels_use_readable_units():
    assert [tick_label(v, s) for v, s in [(0, 1), (0.25, 0.05), (1.5, 0.5), (12, 2), (210, 30)]] == [
        "0",
        "250ms",
        "1.5s",
        "12s",
        "3m30s",
    ]
    assert tick_label(7200, 3600) == "2h" and tick_label(5400, 1800) == "1h30m"


@pytest.mark.parametrize(
    ("offset", "step", "label"),
    [
        (3630, 30, "1h00m30s"),
        (3660, 30, "1h01m"),
        (72 * 3600 + 30, 30, "72h00m30s"),
        (3725.5, 0.5, "1h02m05.5s"),
        (12.34, 0.01, "12.34s"),
        (61.25, 0.05, "1m01.25s"),
        (7500, 300, "2h05m"),
        (-30, 15, "-30s"),
    ],
)
def test_tick_labels_keep_the_unit_the_step_moves(offset, step, label):
    assert tick_label(offset, step) == label


@pytest.mark.parametrize(
    ("origin_offset", "per_cell", "width"),
    [
        (0.0, 0.001, 80),
        (3600.0, 1.5, 80),
        (72 * 3600.0, 1.7, 75),
        (3725.0, 0.05, 60),
        (86400.0 * 3, 3600.0, 70),
    ],
)
def test_ticks_never_repeat_a_label_and_leave_room_for_each(origin_offset, per_cell, width):
    """Ticks seconds apart an hour (or days) into a session read as distinct times, none overlapping."""
    scale = Scale(1000.0 + origin_offset, per_cell)
    found = ticks(scale, width, 1000.0)
    labels = [label for _, label in found]
    assert len(labels) >= 2 and len(set(labels)) == len(labels)
    assert all(b - a > len(label) for (a, label), (b, _) in zip(found, found[1:], strict=False))


def test_ticks_skip_gaps_and_are_relative_to_the_origin():
    scale = Scale(1000.0, 0.1)
    assert ticks(scale, 35, 1000.0) == [(0, "0"), (10, "1s"), (20, "2s"), (30, "3s")]
    gapped = Scale(0.0, 1.0, (Gap(15, 3600),))
    labels = [label for _, label in ticks(gapped, 60, 0.0)]
    assert labels[:2] == ["0", "10s"] and "1h" in " ".join(labels)


def test_bars_use_eighth_blocks():
    assert bar_cells(0, 3, 10) == [(0, "█", False), (1, "█", False), (2, "█", False)]
    assert bar_cells(0, 1.5, 10) == [(0, "█", False), (1, "▌", False)]
    # a start inside a cell: the part before it, inverted
    assert bar_cells(0.25, 2, 10) == [(0, "▎", True), (1, "█", False)]
    assert bar_cells(3, 3, 10) == [(3, "▏", False)]  # a zero-length call still shows
    assert bar_cells(-5, 1, 10) == [(0, "█", False)]  # clipped
    assert bar_cells(12, 14, 10) == [] and bar_cells(0, float("nan"), 10) == []


def test_spans_added_in_any_order_find_the_same_gaps_as_a_sorted_pass():
    import random

    from inspector.ui.timescale import Spans

    rng = random.Random(12)
    for _ in range(300):
        spans = []
        for _ in range(rng.randint(0, 30)):
            start = rng.choice([rng.uniform(0, 1000), rng.uniform(0, 50) * 100])
            spans.append((start, start + rng.choice([0, rng.uniform(0, 5), rng.uniform(0, 300)])))
        index = Spans(60)
        for start, end in spans:
            index.add(start, end)
        assert index.gaps == idle_gaps(spans, 60)
        if spans:
            assert index.extent == (min(a for a, _ in spans), max(b for _, b in spans))
        else:
            assert index.extent is None
