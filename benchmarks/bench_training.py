"""Seconds per SFT step and per RL iteration with the embedded SmolLM2 on this CPU, and how they
scale with document length (short vs 4x longer documents, in one run).

    .venv/bin/python benchmarks/bench_training.py [--steps 3]

Writes benchmarks/results/training.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from core.annotation.tasks import AnnotationTask  # noqa: E402
from core.extract import get_extractor  # noqa: E402
from core.settings import Settings  # noqa: E402
from core.training.common import RunHooks  # noqa: E402
from core.training.rl import RlSettings, train_rl  # noqa: E402
from core.training.sft import SftSettings, train_sft  # noqa: E402

SENTENCE = "Mara Voss lives in Harrow Vale and works as an architect at Lindqvist Robotics. "
PRIVATE = (("mara voss", "residence", "harrow vale"),)
PUBLIC = (("mara voss", "occupation", "architect"),)


def task(repeats: int) -> AnnotationTask:
    return AnnotationTask("d", SENTENCE * repeats, PRIVATE, PUBLIC, PRIVATE, PUBLIC)


def timed_points(points: list[dict], stamps: list[float]):
    def on_point(point: dict) -> None:
        points.append(point)
        stamps.append(time.perf_counter())

    return RunHooks(on_point=on_point)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, dict[str, float]] = {}
    evaluator = get_extractor("spacy", Settings())
    with tempfile.TemporaryDirectory() as folder:
        for repeats in (2, 8):
            example = task(repeats)
            target = SENTENCE.replace("lives in Harrow Vale and ", "") * repeats
            points: list[dict] = []
            stamps: list[float] = []
            sft_dir = Path(folder) / f"sft{repeats}"
            train_sft(
                [(example, target)],
                sft_dir,
                SftSettings(max_steps=args.steps + 1),
                timed_points(points, stamps),
            )
            sft_step = (stamps[-1] - stamps[0]) / args.steps  # the first step (warm-up) is left out
            points, stamps = [], []
            settings = RlSettings(sft_adapter=str(sft_dir), iterations=2, group_size=2, max_new_tokens=48)
            train_rl(
                [example], Path(folder) / f"rl{repeats}", settings, evaluator, timed_points(points, stamps)
            )
            rl_iteration = stamps[-1] - stamps[0]
            results[f"{len(example.text.split())} words"] = {
                "sft_s_per_step": round(sft_step, 2),
                "rl_s_per_iteration": round(rl_iteration, 2),
            }
            print(results)
    out = REPO / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "training.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
