"""The fault campaign's soak (benchmarks/fault_campaign.py): each kind of table it seats is a real
`simulate` run that finishes, and a run that does not is named by the command that replays it."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo import benchmark

from game.board import Variant

campaign = benchmark("fault_campaign")


@pytest.mark.parametrize("kind", ["bot", "chouette"])
def test_each_kind_of_soak_run_finishes(tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    assert campaign.soak(1, tmp_path, [Variant.RUNGAMMON], [kind]) == []
    out = capsys.readouterr().out
    assert f"soak {kind} rungammon: seeds 1, finished 1, not finished or failed 0" in out
    assert not list(tmp_path.iterdir())  # each run's record removed once judged


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seed"), [(Variant.BACKGAMMON, 21), (Variant.CATCHGAMMON, 25),
                                               (Variant.RUNGAMMON, 35)])
def test_the_chouettes_that_once_stalled_finish(tmp_path: Path, variant: Variant, seed: int) -> None:
    """The soak's runs that never finished before a done press during the bot's carried-out play was
    kept (CHANGELOG, "Fixed (the table: a done press during the bot's play)"): each is its whole `simulate`
    command again, and it must finish. The bots' networks choose the plays, so a new network may
    take these seeds elsewhere; they still must finish."""
    command = campaign.soak_command("chouette", variant, seed, tmp_path / "record")
    assert campaign.table_main(command) == 0, " ".join(command)


def test_a_run_that_does_not_finish_is_named_by_its_command(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[list[str]] = []

    def unfinished(argv: list[str]) -> int:
        ran.append(argv)
        Path(argv[-1]).mkdir()
        return 1

    monkeypatch.setattr(campaign, "table_main", unfinished)
    again = campaign.soak(2, tmp_path, [Variant.CATCHGAMMON], ["chouette"])
    assert again == [f"python -m firmware_host simulate --variant catchgammon --seed {seed} --chouette 3 --games 2 "
                     f"--bots Cy --quiet --record RECORD" for seed in (1, 2)]
    assert [argv[:4] for argv in ran] == [["simulate", "--variant", "catchgammon", "--seed"]] * 2
    out = capsys.readouterr().out
    assert "not finished (exit 1): python -m firmware_host simulate --variant catchgammon --seed 2" in out
    assert "finished 0, not finished or failed 2" in out
