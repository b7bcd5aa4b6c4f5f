"""Accepted annotations as SFT data: JSONL and a Hugging Face `datasets` dataset on disk.

Each record is one training example in TRL's prompt-completion form: `prompt` is the
rewriter's input (the document and the linearised global G_pri / G_pub with the special
triple tokens, `core.eraser4rag.erasers.linearize.rewriter_input`, exactly what `eraser4rag` feeds
the model) and `completion` the reviewed rewrite. The task's fields travel beside them, so
a file imports back into the store and training can re-select triples for its context.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.eraser4rag.annotation.tasks import AnnotationTask, keys_from_json
from core.eraser4rag.erasers.fluency import broken_in_rewrite
from core.eraser4rag.erasers.linearize import rewriter_input
from core.model_loading import get_spacy

Example = tuple[AnnotationTask, str]  # (task, target rewrite)
REQUIRED = ("document", "completion", "private", "public", "global_private", "global_public")


class ExportFormatError(ValueError):
    """A record that cannot be read back; the message names the file, line and field."""


def sft_record(task: AnnotationTask, target: str) -> dict[str, Any]:
    return {
        "prompt": rewriter_input(task.text, task.global_private, task.global_public),
        "completion": " " + target.strip(),
        "document": task.text,
        "doc_id": task.doc_id,
        "title": task.title,
        "query": task.query,
        "batch": task.batch,
        "definition": task.definition,
        "private": [list(k) for k in task.private],
        "public": [list(k) for k in task.public],
        "global_private": [list(k) for k in task.global_private],
        "global_public": [list(k) for k in task.global_public],
        "occurrences": [list(o) for o in task.occurrences],
    }


def deduplicate(examples: Sequence[Example]) -> tuple[list[Example], int]:
    """Examples with the same task content and target kept once; returns (kept, dropped)."""
    seen: set[tuple[str, str]] = set()
    kept: list[Example] = []
    for task, target in examples:
        marker = (task.key, target.strip())
        if marker not in seen:
            seen.add(marker)
            kept.append((task, target))
    return kept, len(examples) - len(kept)


def fluent_examples(examples: Sequence[Example]) -> tuple[list[Example], int]:
    """Examples whose target reads as written (no broken construction it added); returns (kept, dropped).
    A broken target never reaches SFT data, whoever accepted it."""
    parse = get_spacy()
    kept = [(task, target) for task, target in examples if not broken_in_rewrite(task.text, target, parse)]
    return kept, len(examples) - len(kept)


def trainable(examples: Sequence[Example]) -> list[Example]:
    """What training may learn from: each example once, and only targets that read as written."""
    return fluent_examples(deduplicate(examples)[0])[0]


def write_jsonl(path: Path, examples: Sequence[Example]) -> int:
    examples = fluent_examples(examples)[0]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for task, target in examples:
            handle.write(json.dumps(sft_record(task, target), ensure_ascii=False) + "\n")
    return len(examples)


def save_dataset(folder: Path, examples: Sequence[Example]) -> int:
    examples = fluent_examples(examples)[0]
    """A `datasets.Dataset` saved with `save_to_disk` (load it with `datasets.load_from_disk`)."""
    # datasets (~2 s) loads only when a dataset is written or trained on
    from datasets import Dataset

    records = [_flat(sft_record(task, target)) for task, target in examples]
    Dataset.from_list(records).save_to_disk(str(folder))
    return len(records)


def _flat(record: dict[str, Any]) -> dict[str, Any]:
    # Arrow needs one type per column: nested triple lists travel as JSON strings.
    nested = ("private", "public", "global_private", "global_public", "occurrences")
    return {k: json.dumps(v, ensure_ascii=False) if k in nested else v for k, v in record.items()}


def read_examples(path: Path) -> list[Example]:
    """Examples from an exported JSONL file or a saved dataset folder, deduplicated."""
    if path.is_dir():
        # datasets (~2 s) loads only when a dataset is written or trained on
        from datasets import load_from_disk

        rows = [(f"{path.name} row {i + 1}", dict(row)) for i, row in enumerate(load_from_disk(str(path)))]
    else:
        rows = []
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    rows.append((f"{path.name} line {number}", json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise ExportFormatError(f"{path.name} line {number}: not JSON ({exc.msg})") from None
    kept, _ = deduplicate([example_from_record(record, where) for where, record in rows])
    return kept


def example_from_record(record: Any, where: str) -> Example:
    if not isinstance(record, dict):
        raise ExportFormatError(f"{where}: a record must be a JSON object")
    missing = [name for name in REQUIRED if name not in record]
    if missing:
        raise ExportFormatError(f"{where}: missing field(s) {', '.join(missing)}")
    values = {name: _nested(record.get(name, []), where, name) for name in (*REQUIRED[2:], "occurrences")}
    try:
        keys = {name: keys_from_json(values[name], f"{where} field {name}") for name in REQUIRED[2:]}
        occurrences = tuple((o[0], o[1], o[2], int(o[3]), int(o[4])) for o in values["occurrences"])
    except (ValueError, IndexError, TypeError) as exc:
        raise ExportFormatError(f"{where}: {exc}") from None
    if not isinstance(record["document"], str) or not isinstance(record["completion"], str):
        raise ExportFormatError(f"{where}: fields document and completion must be strings")
    target = record["completion"].strip()
    if not target:
        raise ExportFormatError(f"{where} field completion: the rewrite is empty")
    task = AnnotationTask(
        doc_id=str(record.get("doc_id", "")),
        text=record["document"],
        private=keys["private"],
        public=keys["public"],
        global_private=keys["global_private"],
        global_public=keys["global_public"],
        occurrences=occurrences,
        title=str(record.get("title", "")),
        query=str(record.get("query", "")),
        batch=str(record.get("batch", "")),
        definition=str(record.get("definition", "")),
    )
    return task, target


def _nested(value: Any, where: str, name: str) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            raise ExportFormatError(f"{where} field {name}: not a JSON list") from None
    return value
