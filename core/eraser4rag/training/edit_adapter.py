"""Train the edit-script adapter of `eraser4rag` from `core.eraser4rag.training.edit_data`'s JSONL.

    python -m core.eraser4rag.training.edit_adapter WORK/edit_train.jsonl --out WORK/adapter \\
        [--steps 250] [--lr 2e-4] [--summary WORK/data_summary.json]

SFT (TRL SFTTrainer + peft LoRA on q/k/v/o and the eight marker rows, as `train sft` does)
with the edit form's prompt cue and targets; a fixed seed (0) and a fixed example order.
Writes the adapter, its `training.json` (settings, loss curve, the recipe) and, with
`--summary`, the data summary into the adapter folder.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import signal
import threading
from pathlib import Path

from core.eraser4rag.annotation.export import Example, read_examples
from core.eraser4rag.erasers.edit_script import KEEP
from core.eraser4rag.training.common import RunHooks
from core.eraser4rag.training.sft import SftSettings, train_sft
from core.settings import Settings


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--steps", type=int, default=130)
    parser.add_argument("--lr", type=float, default=2e-4)
    parser.add_argument("--top-layers", type=int, default=8, help="LoRA in the top N layers only (0: all)")
    parser.add_argument("--summary", type=Path, help="data summary to copy into the adapter folder")
    parser.add_argument(
        "--copy-share",
        type=float,
        default=0.05,
        help="at most this share of the examples copy their window (KEEP); the rest are dropped",
    )
    parser.add_argument(
        "--max-minutes", type=float, default=0.0, help="stop (and save) after this many minutes (0: no limit)"
    )
    args = parser.parse_args()
    examples, copies_dropped = with_copy_share(read_examples(args.data), args.copy_share)
    random.Random(0).shuffle(examples)  # the Trainer shuffles too; this fixes what a --steps cut sees
    settings = SftSettings(
        epochs=1.0,
        learning_rate=args.lr,
        max_steps=args.steps,
        max_input_tokens=Settings().rewriter_edit_input_tokens,  # what eraser4rag gives the edit form
        max_target_tokens=96,  # an edit script's budget at inference (EDIT_SCRIPT_TOKENS)
        target_modules=("q_proj", "k_proj", "v_proj", "o_proj"),
        output_form="edits",
        top_layers=args.top_layers,
        seed=0,
    )
    stop = threading.Event()  # SIGUSR1 or --max-minutes ends the run early; the adapter so far is saved
    signal.signal(signal.SIGUSR1, lambda *_: stop.set())
    if args.max_minutes > 0:
        timer = threading.Timer(args.max_minutes * 60, stop.set)
        timer.daemon = True
        timer.start()
    hooks = RunHooks(on_point=lambda point: print(json.dumps(point), flush=True), cancelled=stop)
    result = train_sft(examples, args.out, settings, hooks)
    card_path = args.out / "training.json"
    card = json.loads(card_path.read_text(encoding="utf-8"))
    card["recipe"] = {
        "built_by": "benchmarks/build_adapter.sh (CPU only, seed 0)",
        "data": "questions 1-40 of popqa_dev.jsonl (PopQA, MIT; Wikipedia passages, CC BY-SA); "
        "41-50 never used",
        "definition": "per question one global graph (spaCy), connected random 25 % private split, seed 0",
        "targets": "edit scripts (CUT/DEL/REP..BY/KEEP) derived from graph-guided + verify per private "
        "2-sentence window; kept only when the applied script has no broken construction and no strict "
        "or partial leak (core.eraser4rag.training.edit_data)",
        "reviewed_by_people": False,
        "examples": len(examples),
        "copy_examples": sum(is_copy(e) for e in examples),
        "copy_examples_dropped": copies_dropped,
        "sft": "TRL SFTTrainer, LoRA r=8 on q/k/v/o of "
        + (f"the top {args.top_layers} layers" if args.top_layers else "every layer + the eight marker rows")
        + f", lr {args.lr}, batch 1, {result.steps} steps in {result.seconds:.0f} s"
        + (" (stopped early: SIGUSR1 or --max-minutes)" if result.cancelled else ""),
        "inference": "eraser4rag, rewriter_output = edits: private windows only, batched greedy decoding "
        "with anchors constrained to the window's text",
    }
    card_path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    if args.summary:
        shutil.copy(args.summary, args.out / "data_summary.json")
    print(f"adapter: {args.out} ({result.steps} steps, {result.seconds:.0f} s)")


def is_copy(example: Example) -> bool:
    return example[1].strip() == KEEP


def with_copy_share(examples: list[Example], share: float) -> tuple[list[Example], int]:
    """The examples with the copying ones (KEEP) cut down to at most `share` of the whole (a
    fixed, seeded choice), and how many were dropped. A model shown many KEEPs learns to copy."""
    copies = [e for e in examples if is_copy(e)]
    edits = [e for e in examples if not is_copy(e)]
    room = int(share / (1.0 - share) * len(edits)) if share < 1.0 else len(copies)
    kept = random.Random(0).sample(copies, min(room, len(copies)))
    return edits + kept, len(copies) - len(kept)


if __name__ == "__main__":
    main()
