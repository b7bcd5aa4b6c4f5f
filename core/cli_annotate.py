"""`annotate` and `train` commands of `python -m core.cli` (the annotation studio without the UI).

    python -m core.cli annotate tasks IN.jsonl [--ratio 0.25] [--seed 0] [--windows [N]]
    python -m core.cli annotate candidates --source model|ERASER [--verify] [--batch NAME]
    python -m core.cli annotate status
    python -m core.cli annotate export --out SFT.jsonl [--dataset DIR]
    python -m core.cli annotate import FILE_OR_DATASET [--annotator NAME]
    python -m core.cli train sft --out ADAPTER [--data FILE] [--epochs 3] [--lr 5e-5] [--max-steps N]
    python -m core.cli train rl --sft ADAPTER --out ADAPTER [--method ppo|grpo] [--iterations 700] ...

The store is `--annotation-db` (a SQLAlchemy URL or SQLite path; default: `--db`). Every
training run is recorded there with its settings, curve, adapter folder and outcome.
"""

from __future__ import annotations

import argparse
import sys
import threading
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from tqdm import tqdm

from core.eraser4rag.annotation.agreement import cohen_kappa
from core.eraser4rag.annotation.export import deduplicate, read_examples, save_dataset, trainable, write_jsonl
from core.eraser4rag.annotation.run import (
    make_source,
    run_candidates,
    tasks_from_retrieval_file,
    tasks_from_workspace,
)
from core.eraser4rag.training.grpo import GrpoSettings, train_grpo
from core.eraser4rag.training.jobs import run_recorded
from core.eraser4rag.training.ppo import PpoSettings, train_ppo
from core.eraser4rag.training.sft import SftSettings, train_sft
from core.eraser4rag.training.tagger import (
    EPOCHS,
    TaggerSettings,
    read_windows,
    train_tagger,
    windows_from_examples,
)
from core.eraser4rag.workspace import Workspace
from core.extract import get_extractor
from core.settings import Settings


def _store(settings: Settings) -> Any:
    # core opens storage only in its command-line commands (docs/ARCHITECTURE.md)
    from storage.annotation_store import AnnotationStore

    return AnnotationStore(settings.annotation_store_url)


def _bar(description: str, unit: str) -> tuple[Any, Any]:
    bar = tqdm(desc=description, unit=unit)

    def update(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    return bar, update


def cmd_tasks(args: argparse.Namespace, settings: Settings) -> int:
    ratio = settings.private_ratio if args.annotate_ratio is None else args.annotate_ratio
    seed = settings.seed if args.annotate_seed is None else args.annotate_seed
    if args.workspace:
        return _tasks_from_saved_workspace(args, settings)
    if not args.input:
        raise SystemExit("give a retrieval JSONL file, or --workspace NAME for a saved workspace's marks")
    bar, update = _bar("building tasks", "record")
    with bar:
        tasks = tasks_from_retrieval_file(
            Path(args.input),
            get_extractor(settings.extractor, settings),
            ratio,
            seed,
            update,
            window_sentences=_window_sentences(args.windows, settings),
        )
    with _store(settings) as store:
        before = store.counts()["tasks"]
        store.add_tasks(tasks)
        added = store.counts()["tasks"] - before
    print(f"{len(tasks)} task(s) from {args.input} ({added} new, {len(tasks) - added} already stored)")
    return 0


def _tasks_from_saved_workspace(args: argparse.Namespace, settings: Settings) -> int:
    """Tasks from the marks made in the studio, as saved under a workspace name in --db."""
    # core opens storage only in its command-line commands (docs/ARCHITECTURE.md)
    from storage.repository import Repository

    workspace = Workspace()
    with Repository(settings.db) as repo:
        workspace.load(repo, args.workspace)  # an unknown name is reported by the CLI's error handler
    tasks = tasks_from_workspace(
        workspace, f"workspace:{args.workspace}", _window_sentences(args.windows, settings)
    )
    if not tasks:
        raise SystemExit(
            f"workspace {args.workspace!r} has no private triple: mark some in the studio and save it again"
        )
    with _store(settings) as store:
        before = store.counts()["tasks"]
        store.add_tasks(tasks)
        added = store.counts()["tasks"] - before
    stored = f"{added} new, {len(tasks) - added} already stored"
    print(f"{len(tasks)} task(s) from workspace {args.workspace} ({stored})")
    return 0


def _window_sentences(windows: str | None, settings: Settings) -> int:
    """0 (whole documents) unless --windows: "settings" = --rewriter-window-sentences, or a number."""
    if windows is None:
        return 0
    if windows == "settings":
        return settings.rewriter_window_sentences
    try:
        return max(0, int(windows))
    except ValueError:
        raise SystemExit(f"--windows {windows!r}: give a number of sentences or 'settings'") from None


def cmd_candidates(args: argparse.Namespace, settings: Settings) -> int:
    source = make_source(args.source, settings, verify=args.verify)
    evaluator = get_extractor(settings.eval_extractor or settings.extractor, settings)
    with _store(settings) as store:
        tasks = store.tasks_without_candidate_from(source.source, args.batch)  # resumes a stopped run
        bar, update = _bar(f"candidates from {source.source}", "task")
        with bar:
            report = run_candidates(store, tasks, source, evaluator, settings, progress=update)
    tokens = f"{report.prompt_tokens} prompt + {report.completion_tokens} completion tokens"
    print(
        f"{report.stored} candidate(s) stored, {report.passed} passed the filter "
        f"(r_pri <= {settings.annotate_max_r_pri}, r_pub > {settings.annotate_min_r_pub}); "
        f"{tokens}{' (estimated)' if report.tokens_estimated else ''}"
    )
    for error in report.failed:
        print(f"failed: {error}", file=sys.stderr)
    return 0 if not report.failed else 1


def cmd_status(args: argparse.Namespace, settings: Settings) -> int:
    with _store(settings) as store:
        for run_id in store.fail_interrupted_runs():
            print(f"run {run_id} had stopped without finishing: marked failed")
        counts = store.counts()
        print(", ".join(f"{k}: {v}" for k, v in counts.items()))
        progress = store.progress()
        for p in progress:
            print(
                f"  {p.annotator}: {p.reviewed} reviewed ({p.accepted} accepted, {p.edited} edited, "
                f"{p.rejected} rejected), {p.mean_seconds:.1f} s per review"
            )
        names = [p.annotator for p in progress]
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                agreement = cohen_kappa(store.decision_pairs(first, second))
                if agreement.items:
                    kappa = "undefined" if agreement.kappa is None else f"{agreement.kappa:.3f}"
                    print(f"  agreement {first} / {second}: {agreement.items} shared, kappa {kappa}")
        for run in store.runs(limit=5):
            print(
                f"  run {run.id} {run.kind} {run.status}: {len(run.curve)} point(s) "
                f"{run.artefact_dir} {run.message}"
            )
    return 0


def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    with _store(settings) as store:
        examples = filter_passed_examples(store) if args.filter_passed else store.accepted_pairs()
    what = "filter-passed (not reviewed)" if args.filter_passed else "accepted"
    count = write_jsonl(Path(args.out), examples)
    print(f"{count} {what} example(s) written to {args.out}")
    if args.dataset:
        save_dataset(Path(args.dataset), examples)
        print(f"datasets dataset saved to {args.dataset} (datasets.load_from_disk)")
    return 0


def filter_passed_examples(store: Any) -> list[tuple[Any, str]]:
    """Every stored candidate that passed the paper's automatic filter (r_pri and r_pub), with no
    human review: the paper's training set before people look at it. Reviews are not consulted."""
    examples = [
        (task, candidate.text)
        for task in store.tasks()
        for candidate in store.candidates(task.id)
        if candidate.passed_filter and candidate.text.strip()
    ]
    return deduplicate(examples)[0]


def cmd_import(args: argparse.Namespace, settings: Settings) -> int:
    path = Path(args.path)
    examples = read_examples(path)
    with _store(settings) as store:
        added, duplicates = store.import_examples(examples, args.annotator, f"import:{path.name}")
    print(f"{added} example(s) imported from {path}, {duplicates} already stored")
    return 0


def cmd_train_sft(args: argparse.Namespace, settings: Settings) -> int:
    sft = SftSettings(
        model=args.model or settings.rewriter_model,
        cache_dir=settings.cache_dir,
        seed=settings.seed,
        max_input_tokens=settings.rewriter_max_input_tokens,  # the budget eraser4rag will give it
    )
    overrides = {
        "epochs": args.epochs,
        "learning_rate": args.lr,
        "max_steps": args.max_steps,
        "batch_size": args.batch_size,
        "lora_r": args.lora_r,
        "max_input_tokens": args.max_input_tokens,
        "max_target_tokens": args.max_target_tokens,
        "target_modules": _module_names(args.lora_targets),
        "change_weight": args.change_weight,
    }
    sft = replace(sft, **{k: v for k, v in overrides.items() if v is not None})
    with _store(settings) as store:
        examples = read_examples(Path(args.data)) if args.data else trainable(store.accepted_pairs())
        return _recorded(
            store,
            "sft",
            sft,
            len(examples),
            Path(args.out),
            lambda hooks: train_sft(examples, Path(args.out), sft, hooks),
        )


def _module_names(value: str | None) -> tuple[str, ...] | None:
    return tuple(name.strip() for name in value.split(",") if name.strip()) if value else None


def cmd_train_rl(args: argparse.Namespace, settings: Settings) -> int:
    """PPO (the compact loop, core/eraser4rag/training/ppo.py) or GRPO (TRL's GRPOTrainer,
    core/eraser4rag/training/grpo.py)."""
    common = {
        "sft_adapter": args.sft,
        "model": args.model or settings.rewriter_model,
        "cache_dir": settings.cache_dir,
        "seed": settings.seed,
        "max_input_tokens": settings.rewriter_max_input_tokens,  # the budget eraser4rag will give it
    }
    overrides = {
        "iterations": args.iterations,
        "learning_rate": args.lr,
        "max_new_tokens": args.max_new_tokens,
        "max_input_tokens": args.max_input_tokens,
    }
    if args.method == "grpo":
        overrides |= {"num_generations": args.group_size, "beta": args.kl_coef}
        config: Any = GrpoSettings(**common)
        train: Any = train_grpo
    else:
        overrides |= {"group_size": args.group_size, "kl_coef": args.kl_coef}
        config = PpoSettings(**common)
        train = train_ppo
    config = replace(config, **{k: v for k, v in overrides.items() if v is not None})
    evaluator = get_extractor(settings.eval_extractor or settings.extractor, settings)
    with _store(settings) as store:
        tasks = [t for t, _ in read_examples(Path(args.data))] if args.data else store.tasks()
        return _recorded(
            store,
            "rl",
            config,
            len(tasks),
            Path(args.out),
            lambda hooks: train(tasks, Path(args.out), config, evaluator, hooks),
        )


def cmd_train_tagger(args: argparse.Namespace, settings: Settings) -> int:
    """The deletion tagger (the shipped form of eraser4rag, core/eraser4rag/training/tagger.py) on
    accepted reviews and/or window files (`edit_data` output, `annotate export` files)."""
    config = TaggerSettings(
        model=args.model or settings.rewriter_model,
        cache_dir=settings.cache_dir,
        epochs=args.epochs or EPOCHS,
        rl_iterations=args.rl_iterations,
    )
    with _store(settings) as store:
        rows = read_windows(*map(Path, args.data)) if args.data else []
        if not args.data or args.with_reviews:
            rows += windows_from_examples(store.accepted_pairs())
        out = Path(args.out)
        return _recorded(
            store, "tagger", config, len(rows), out, lambda hooks: train_tagger(rows, out, config, hooks)
        )


def _recorded(store: Any, kind: str, config: Any, examples: int, out: Path, train: Any) -> int:
    """Run `train(hooks)` as a run recorded in the store, with a progress bar."""
    run_id = store.start_run(kind, asdict(config), examples)
    bar = tqdm(desc=f"{kind} run {run_id}", unit="step")

    def on_point(point: dict[str, Any]) -> None:
        bar.update(1)
        bar.set_postfix({k: round(v, 4) for k, v in point.items() if isinstance(v, float)})

    try:
        status = run_recorded(store, run_id, out, train, threading.Event(), on_point)
    except KeyboardInterrupt:
        print(f"run {run_id} cancelled", file=sys.stderr)
        return 130
    finally:
        bar.close()
    print(f"run {run_id} {status}: adapter written to {out} (use --rewriter-adapter {out})")
    return 0


def add_commands(commands: Any) -> None:
    annotate = commands.add_parser("annotate", help="annotation tasks, candidates, export and import")
    sub = annotate.add_subparsers(dest="annotate_command", required=True)
    tasks = sub.add_parser("tasks", help="tasks from a retrieval JSONL file (one graph and split per record)")
    tasks.add_argument("input", metavar="IN.jsonl", nargs="?", help="retrieval records (or --workspace)")
    tasks.add_argument(
        "--workspace", help="a workspace saved in the studio (--db): tasks from its own private marks"
    )
    tasks.add_argument("--ratio", type=float, dest="annotate_ratio", help="private share (--private-ratio)")
    tasks.add_argument("--seed", type=int, dest="annotate_seed", help="split seed (the global --seed)")
    tasks.add_argument(
        "--windows",
        nargs="?",
        const="settings",
        help="one task per sentence window that mentions a private triple, cut as eraser4rag cuts at "
        "inference (sentences per window: N, or --rewriter-window-sentences when given no value)",
    )
    tasks.set_defaults(run=cmd_tasks)
    candidates = sub.add_parser("candidates", help="propose, score and store a candidate per task")
    candidates.add_argument(
        "--source", default="model", help="model (the chat endpoint, else the local model) or an eraser name"
    )
    candidates.add_argument("--verify", action="store_true", help="verify and repair eraser candidates")
    candidates.add_argument("--batch", help="only tasks of this batch (the input file name)")
    candidates.set_defaults(run=cmd_candidates)
    sub.add_parser("status", help="counts, progress per annotator, agreement, runs").set_defaults(
        run=cmd_status
    )
    export = sub.add_parser("export", help="accepted examples as SFT JSONL (and a datasets dataset)")
    export.add_argument("--out", required=True)
    export.add_argument("--dataset", help="also save a datasets dataset to this folder")
    export.add_argument(
        "--filter-passed",
        action="store_true",
        help="candidates that passed the automatic filter (r_pri, r_pub), without human review",
    )
    export.set_defaults(run=cmd_export)
    imported = sub.add_parser("import", help="import an exported JSONL file or dataset folder")
    imported.add_argument("path")
    imported.add_argument("--annotator", default="import", help="recorded as the reviewer of imported items")
    imported.set_defaults(run=cmd_import)

    train = commands.add_parser("train", help="train the eraser4rag rewriter (SFT, then RL)")
    kinds = train.add_subparsers(dest="train_command", required=True)
    sft = kinds.add_parser("sft", help="supervised fine-tuning on accepted examples (LoRA)")
    sft.add_argument("--out", required=True, help="adapter folder to write")
    sft.add_argument(
        "--data", help="exported JSONL or dataset folder (default: the store's accepted examples)"
    )
    sft.add_argument("--model", help="base model (default: --rewriter-model, else embedded SmolLM2)")
    sft.add_argument("--epochs", type=float)
    sft.add_argument("--lr", type=float)
    sft.add_argument("--max-steps", type=int)
    sft.add_argument("--batch-size", type=int)
    sft.add_argument("--lora-r", type=int)
    sft.add_argument(
        "--change-weight",
        type=float,
        help="weigh the loss on target tokens where the rewrite departs from the input (default 1: plain)",
    )
    sft.add_argument("--lora-targets", help="comma-separated module names (default: q and v projections)")
    sft.add_argument(
        "--max-input-tokens",
        type=int,
        help="document + linearised triples budget (default: --rewriter-max-input-tokens)",
    )
    sft.add_argument("--max-target-tokens", type=int, help="rewrite budget")
    sft.set_defaults(run=cmd_train_sft)
    tagger = kinds.add_parser(
        "tagger", help="the deletion tagger (eraser4rag's shipped form) on accepted reviews or window files"
    )
    tagger.add_argument("--out", required=True, help="tagger folder to write (use it as --rewriter-adapter)")
    tagger.add_argument(
        "--data", nargs="+", help="edit_data or annotate export JSONL files (default: the accepted items)"
    )
    tagger.add_argument(
        "--with-reviews", action="store_true", help="with --data: add the store's accepted items"
    )
    tagger.add_argument("--model", help="base model (default: --rewriter-model, else embedded SmolLM2)")
    tagger.add_argument("--epochs", type=int, help=f"full-batch epochs of the head (default {EPOCHS})")
    tagger.add_argument("--rl-iterations", type=int, default=0, help="RL after the fit (kept only if better)")
    tagger.set_defaults(run=cmd_train_tagger)
    rl = kinds.add_parser("rl", help="RL with R = r_pub * exp(-p * r_pri) from the SFT adapter")
    rl.add_argument("--sft", required=True, help="the SFT adapter folder to start from")
    rl.add_argument("--out", required=True, help="adapter folder to write")
    rl.add_argument("--data", help="exported JSONL or dataset folder (default: every task in the store)")
    rl.add_argument("--model", help="base model of the SFT adapter")
    rl.add_argument("--iterations", type=int)
    rl.add_argument("--lr", type=float)
    rl.add_argument(
        "--method",
        choices=("ppo", "grpo"),
        default="ppo",
        help="ppo: the compact PPO loop; grpo: TRL's GRPOTrainer (KL to the SFT model, see README)",
    )
    rl.add_argument("--group-size", type=int, help="samples per input (GRPO: num_generations)")
    rl.add_argument("--max-new-tokens", type=int)
    rl.add_argument("--kl-coef", type=float, help="KL penalty weight (GRPO: beta)")
    rl.add_argument("--max-input-tokens", type=int, help="document + linearised triples budget")
    rl.set_defaults(run=cmd_train_rl)
