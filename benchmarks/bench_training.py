"""Seconds per SFT step, per PPO iteration and per GRPO step with the embedded SmolLM2 on this CPU,
and how they scale with document length (1x, 2x, 4x the same text, in one run: compare ratios).

    .venv/bin/python benchmarks/bench_training.py [--steps 3] [--repeats 1,2,4] [--group 2]

The document is a sentence repeated; the rewrite budget of RL sampling grows with it as in
training (1.5 x the document's tokens + 16, the eraser's rule), so sampling dominates RL
time on longer documents. The first SFT step (warm-up) is left out; each RL figure is the
time between two curve points, i.e. one whole iteration after the first. Writes
benchmarks/results/training.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from core.eraser4rag.annotation.tasks import AnnotationTask  # noqa: E402
from core.eraser4rag.training.common import RunHooks  # noqa: E402
from core.eraser4rag.training.grpo import GrpoSettings, train_grpo  # noqa: E402
from core.eraser4rag.training.ppo import PpoSettings, train_ppo  # noqa: E402
from core.eraser4rag.training.sft import SftSettings, train_sft  # noqa: E402
from core.extract import get_extractor  # noqa: E402
from core.settings import Settings  # noqa: E402

SENTENCE = "Mara Voss lives in Harrow Vale and works as an architect at Lindqvist Robotics. "
PRIVATE = (("mara voss", "residence", "harrow vale"),)
PUBLIC = (("mara voss", "occupation", "architect"),)


def task(repeats: int) -> AnnotationTask:
    return AnnotationTask("d", SENTENCE * repeats, PRIVATE, PUBLIC, PRIVATE, PUBLIC)


def stamped() -> tuple[RunHooks, list[float]]:
    stamps: list[float] = []
    return RunHooks(on_point=lambda _point: stamps.append(time.perf_counter())), stamps


def per_step(stamps: list[float]) -> float:
    return (stamps[-1] - stamps[0]) / max(1, len(stamps) - 1)


def measure(repeats: int, folder: Path, steps: int, group: int, evaluator: Any) -> dict[str, Any]:
    example = task(repeats)
    target = SENTENCE.replace("lives in Harrow Vale and ", "") * repeats
    sft_dir = folder / f"sft{repeats}"
    hooks, stamps = stamped()
    train_sft([(example, target)], sft_dir, SftSettings(max_steps=steps + 1), hooks)
    sft = per_step(stamps)
    budget = 1024  # the sampling budget follows the document (1.5 x its tokens + 16)
    ppo = _timed(
        lambda hooks: train_ppo(
            [example],
            folder / f"ppo{repeats}",
            PpoSettings(sft_adapter=str(sft_dir), iterations=2, group_size=group, max_new_tokens=budget),
            evaluator,
            hooks,
        )
    )
    words = len(example.text.split())
    grpo_budget = int(words * 1.3 * 1.5) + 16  # GRPO has a fixed completion length: the same rule, in words
    grpo = _timed(
        lambda hooks: train_grpo(
            [example],
            folder / f"grpo{repeats}",
            GrpoSettings(
                sft_adapter=str(sft_dir), iterations=2, num_generations=group, max_new_tokens=grpo_budget
            ),
            evaluator,
            hooks,
        )
    )
    return {
        "words": words,
        "sft_s_per_step": round(sft, 2),
        "ppo_s_per_iteration": round(ppo, 2),
        "grpo_s_per_step": round(grpo, 2),
        "grpo_completion_tokens": grpo_budget,
    }


def _timed(run: Callable[[RunHooks], Any]) -> float:
    hooks, stamps = stamped()
    run(hooks)
    return per_step(stamps)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=3, help="timed SFT steps (after one warm-up step)")
    parser.add_argument("--repeats", default="1,2,4", help="document lengths, in repeats of the sentence")
    parser.add_argument("--group", type=int, default=2, help="RL samples per input")
    args = parser.parse_args()
    evaluator = get_extractor("spacy", Settings())
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for repeats in (int(r) for r in args.repeats.split(",")):
            rows.append(measure(repeats, Path(folder), args.steps, args.group, evaluator))
            print(rows[-1], flush=True)
    base = rows[0]
    for row in rows:
        for key in ("sft_s_per_step", "ppo_s_per_iteration", "grpo_s_per_step"):
            row[key.replace("_s_per", "_ratio_per")] = round(row[key] / base[key], 2) if base[key] else None
    out = REPO / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    report = {"machine": f"{platform.machine()}, CPU", "group": args.group, "rows": rows}
    (out / "training.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
