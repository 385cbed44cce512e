"""benchmarks/bench_controller.py's floor under the ZONE_CHANGE figure: the journal's fsyncs timed
where they run, and the verdict it draws from them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from repo import benchmark

from game.board import Variant
from game.zones import Capability

bench = benchmark("bench_controller")


def test_the_meter_times_each_fsync_and_still_calls_the_fsync_it_wraps(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []

    def slow(fd: int) -> None:  # the kernel's work, as CPU the calling thread spends
        synced.append(fd)
        sum(range(200_000))

    monkeypatch.setattr(os, "fsync", slow)  # the meter wraps whatever fsync there is
    meter = bench.FsyncMeter()
    fd = os.open(tmp_path / "journal", os.O_WRONLY | os.O_CREAT)
    try:
        meter(fd)
        once = meter.cpu
        meter(fd)
    finally:
        os.close(fd)
    assert synced == [fd, fd]
    assert 0.0 < once < meter.cpu

    def failing(fd: int) -> None:
        sum(range(200_000))  # CPU spent before the disk refused
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    meter = bench.FsyncMeter()
    with pytest.raises(OSError):
        meter(3)
    assert meter.cpu > 0.0  # a failed fsync's CPU is counted too


def run(fsync_cpu: float, frames: int, turns: int, fsyncs: int) -> object:
    made = bench.Run(Variant.BACKGAMMON, Capability.COUNTS)
    for _ in range(frames):
        made.frames.add(10e-6, 5e-6, 368.9e-6, False)
    made.roll_arrivals = [0.2e-3] * turns
    made.fsync_cpu, made.fsyncs = fsync_cpu, fsyncs
    return made


def test_the_floor_says_the_target_is_out_of_reach_only_when_even_the_smallest_floor_is_over_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    # 23 fsyncs of 100 us over 100 frames: 23 us a frame, 6.2% of 368.9 us; 40 of 60 us over 200: 3.3%
    bench.durability_floor([run(23 * 100e-6, 100, 10, 23), run(23 * 100e-6, 100, 10, 23)])
    out = capsys.readouterr().out
    assert "smallest: 23.0 us a frame, 6.23% of its wire time" in out
    assert "100.0 us each fsync, 2.30 a turn, 10.0 frames a turn" in out
    assert "out of reach" in out
    bench.durability_floor([run(23 * 100e-6, 100, 10, 23), run(40 * 60e-6, 200, 20, 40)])
    out = capsys.readouterr().out
    assert "smallest: 12.0 us a frame, 3.25% of its wire time" in out
    assert "largest: 23.0 us a frame, 6.23%" in out
    assert "out of reach" not in out
