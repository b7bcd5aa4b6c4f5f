"""The ABack benchmark end to end on the real SmolLM2 with tiny budgets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.lib.aback_bench import BOUNDARY_1, BOUNDARY_2, main, markdown_table, parse_args

pytestmark = pytest.mark.slow


def test_cli_writes_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.md"
    code = main(
        [
            "--n",
            "2",
            "--seed",
            "0",
            "--k",
            "1",
            "--max-new-tokens",
            "4",
            "--defences",
            "post_mask,aback",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    table = out.read_text()
    for title in ("Boundary 1 (no retrieval)", "Boundary 2 (no protection)", "Post Mask", "ABack"):
        assert f"| {title} |" in table
    assert "ALR % ↓" in table and "METEOR ↑" in table and "degenerate % ↓" in table
    payload = json.loads(out.with_suffix(".json").read_text())
    rows = {row["defence"]: row for row in payload["scores"]}
    assert list(rows) == [BOUNDARY_1, BOUNDARY_2, "post_mask", "aback"]
    for row in rows.values():
        assert all(0 <= value <= 1 for value in row["privacy"].values())
        assert 0 <= row["utility"]["rouge_l"] <= 1 and 0 <= row["utility"]["meteor"] <= 1
        assert row["answers"] == 4 and 0 <= row["degenerate"] <= row["answers"]  # 2 attacked + 2 utility
    # Post Mask masks the Boundary 2 answer: it can never leak more
    assert rows["post_mask"]["privacy"]["alr"] <= rows[BOUNDARY_2]["privacy"]["alr"]
    assert payload["config"]["n"] == 2
    assert "| Defence |" in capsys.readouterr().out


def test_bad_arguments_fail_clearly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["--defences", "nope", "--out", str(tmp_path / "x.md")]) == 2
    assert "unknown defence 'nope'" in capsys.readouterr().err
    assert parse_args(["--sweep", "--m", "7"]).m == 7
    monkeypatch.delenv("RPS_LLM_BASE_URL", raising=False)
    assert main(["--judge", "--out", str(tmp_path / "x.md")]) == 2
    assert "RPS_LLM_BASE_URL" in capsys.readouterr().err


def test_markdown_table_marks_undefined_scores() -> None:
    from benchmarks.lib.aback_bench import DefenceScores
    from benchmarks.lib.aback_metrics import PrivacyScores, UtilityScores

    row = DefenceScores("aback", "ABack", PrivacyScores(0.1, 0.5, 0.0), UtilityScores(0.3, 0.25))
    table = markdown_table([row])
    assert "| ABack | n/a | n/a | 10.0 | 50.0 | 0.0 | n/a | 0.30 | 0.25 | n/a | 0 | 0 | – |" in table
    # degenerate share, backtracks, refusals, invented specifics (regenerated answers inventing, per 100
    # regenerated tokens, share of whole answers) and seconds per answer over the answers counted
    row = DefenceScores(
        "aback",
        "ABack",
        PrivacyScores(0.1, 0.5, 0.0),
        UtilityScores(0.3, 0.25),
        backtracks=3,
        seconds=12.0,
        answers=4,
        degenerate=1,
        refusals=2,
        regenerated_answers=2,
        regenerated_inventing=1,
        invented_specifics=3,
        regenerated_tokens=40,
        inventing_answers=1,
    )
    assert "| 0.30 | 0.25 | 25.0 | 3 | 2 | 1 / 2 | 7.5 | 25.0 | 3.0 |" in markdown_table([row])


def test_report_names_the_attack_used() -> None:
    from benchmarks.lib.aback_bench import ATTACK_DESCRIPTIONS, BenchConfig, DefenceScores, report
    from benchmarks.lib.aback_metrics import PrivacyScores, UtilityScores
    from core.aback.config import ABackConfig
    from core.aback.data import ATTACKS

    assert set(ATTACK_DESCRIPTIONS) == set(ATTACKS)
    row = DefenceScores("aback", "ABack", PrivacyScores(0.1, 0.5, 0.0), UtilityScores(0.3, 0.25))
    text = report(BenchConfig(attack="repeat"), "m", [row], ABackConfig())
    assert "Privacy metrics under the repeat attack" in text and "static" not in text
    assert "under the static prompt-injection attack" in report(BenchConfig(), "m", [row], ABackConfig())


def test_run_bench_retrieves_with_the_configured_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks.lib import aback_bench as bench
    from core.aback.baselines import Generator
    from core.aback.data import generate
    from core.llm import ChatClient
    from core.settings import Settings

    class Echo(ChatClient):
        name = "echo"

        def chat(self, messages, max_tokens=256, temperature=0.0, seed=None) -> str:  # type: ignore[no-untyped-def]
            return "Save ten percent of your income."

    class NoRecords:
        def top_k(self, query: str, k: int) -> list:  # type: ignore[type-arg]
            return []

    seen: list[str] = []

    def fake_retriever_for(documents, embedder_name=""):  # type: ignore[no-untyped-def]
        seen.append(embedder_name)
        return NoRecords()

    monkeypatch.setattr(bench, "retriever_for", fake_retriever_for)
    generator = Generator(client=Echo(), settings=Settings(embedder="my-embedder"))
    scores = bench.run_bench(bench.BenchConfig(n=1, defences=()), generator, generate(1, 0))
    assert seen == ["my-embedder"]
    assert [item.defence for item in scores] == [bench.BOUNDARY_1, bench.BOUNDARY_2]


def test_boundaries_are_reused_only_from_the_same_configuration(tmp_path: Path) -> None:
    from benchmarks.lib.aback_bench import BenchConfig, DefenceScores, load_reusable, scores_json
    from benchmarks.lib.aback_metrics import PrivacyScores, UtilityScores

    names = (BOUNDARY_1, BOUNDARY_2, "aback")
    rows = [
        DefenceScores(
            name,
            name.title(),
            PrivacyScores(0.1 * i, 0.2, 0.0),
            UtilityScores(0.1, 0.2),
            answers=4,
            degenerate=i,
        )
        for i, name in enumerate(names)
    ]
    config = BenchConfig(n=2, attack="repeat")
    earlier = tmp_path / "earlier.json"
    earlier.write_text(
        json.dumps(
            {
                "config": {**config.__dict__, "defences": list(config.defences)},
                "model": "m",
                "scores": scores_json(rows),
            }
        )
    )
    reused = load_reusable(earlier, config, "m")
    assert [row.defence for row in reused] == [BOUNDARY_1, BOUNDARY_2]
    assert reused[1].privacy.alr == pytest.approx(0.1) and reused[1].degenerate == 1
    with pytest.raises(ValueError, match="n, attack differ"):
        load_reusable(earlier, BenchConfig(n=3), "m")
    with pytest.raises(ValueError, match="model differ"):
        load_reusable(earlier, config, "other")
