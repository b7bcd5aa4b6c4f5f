"""SFT data for the edit-script rewriter: one example per private window of a retrieval set.

    python -m core.eraser4rag.training.edit_data popqa_dev.jsonl --first 40 --out WORK/edit_train.jsonl \\
        --summary WORK/data_summary.json

Per record (its global graph, the connected random 25 % private split, seed 0, as at
inference): the graph-guided eraser rewrites every passage and verify repairs what
re-extraction still finds. Each passage is cut into the windows `eraser4rag` cuts
(`core.eraser4rag.erasers.windows`); for every window that mentions a private triple, the part of the
rewrite that belongs to it becomes an edit script (`edit_script.script_for`). The script is
applied to the window, and the example is kept only when that result reads (no broken
construction, `core.eraser4rag.erasers.fluency`) and the independent string grading
(`evaluation.grade_strings`) finds no strict and no partial leak of a private triple that
the passage holds (g_i,pri, what the benchmarks grade). The summary
says how many examples cut something and how many copy (`KEEP`), and why others were dropped.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.eraser4rag.annotation.export import sft_record
from core.eraser4rag.annotation.tasks import AnnotationTask
from core.eraser4rag.erasers import get_eraser
from core.eraser4rag.erasers.base import EraseRequest, Rewrite
from core.eraser4rag.erasers.batch import build_request
from core.eraser4rag.erasers.edit_script import (
    Edit,
    ScriptError,
    apply_script,
    format_script,
    parse_script,
    script_for,
)
from core.eraser4rag.erasers.evaluation import grade_strings
from core.eraser4rag.erasers.graph_guided import ParseCache
from core.eraser4rag.erasers.verify import verify_and_repair
from core.eraser4rag.erasers.windows import windows_of
from core.extract import get_extractor
from core.settings import from_env
from core.types import Document

_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class WindowExample:
    task: AnnotationTask
    script: str
    applied: str
    cut: bool


def window_rewrite(original: str, rewrite: str, span: tuple[int, int]) -> str:
    """The words of `rewrite` that replace the words of `original` inside `span`, space-joined.
    An edit that straddles the border deletes the words on each side; its new words (if any)
    go to the window of its first word."""
    before = [(m.group(), m.start()) for m in _WORD.finditer(original)]
    after = [m.group() for m in _WORD.finditer(rewrite)]
    inside = [span[0] <= start < span[1] for _word, start in before]
    matcher = difflib.SequenceMatcher(None, [w for w, _s in before], after, autojunk=False)
    words: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            words += [after[j1 + k - i1] for k in range(i1, i2) if inside[k]]
            continue
        owner = inside[i1] if i1 < i2 else (inside[i1 - 1] if i1 > 0 else bool(inside) and inside[0])
        if owner:
            words += after[j1:j2]
    return " ".join(words)


def request_examples(
    request: EraseRequest, rewrites: Sequence[Rewrite], size: int
) -> Iterator[WindowExample | str]:
    """The kept examples of one request, and for each dropped window the reason (a string)."""
    private = tuple(sorted(request.definition.private))
    public = tuple(sorted(request.definition.public))
    by_id = {r.doc_id: r for r in rewrites}
    for document in request.documents:
        rewrite = by_id.get(document.id)
        if rewrite is None or not document.text.strip():
            continue
        occurrences = request.triples_of(document.id)
        keys = request.private_keys_of(document.id)  # what the benchmarks grade (g_i,pri)
        for window in windows_of(document.text, size, occurrences, private):
            if not window.private:
                continue
            text = window.text.strip()
            target = window_rewrite(document.text, rewrite.text, window.span)
            edits = script_for(text, target)
            script = format_script(edits)
            applied = _applied_or_error(text, script)
            if isinstance(applied, ScriptError):
                yield f"the derived script does not apply ({applied.kind})"
                continue
            if applied != _applied_or_error(text, edits):  # the script's text lost something
                yield "the script does not round-trip (an anchor spans a line break)"
                continue
            grade = grade_strings(Document(document.id, document.title, text), applied, keys, ())
            if grade["broken"]:
                yield "broken construction"
            elif grade["strict_leaked"]:
                yield "strict leak"
            elif grade["partial_leaked"]:
                yield "partial leak"
            else:
                task = _task(document, text, request, private, public)
                yield WindowExample(task, script, applied, bool(edits))


def _applied_or_error(window: str, script: str | list[Edit]) -> str | ScriptError:
    try:
        return apply_script(window, parse_script(script) if isinstance(script, str) else script)
    except ScriptError as exc:
        return exc


def _task(
    document: Document,
    text: str,
    request: EraseRequest,
    private: tuple[Any, ...],
    public: tuple[Any, ...],
) -> AnnotationTask:
    return AnnotationTask(
        doc_id=document.id,
        text=text,
        private=request.private_keys_of(document.id),
        public=request.public_keys_of(document.id),
        global_private=private,
        global_public=public,
        title=document.title,
    )


def build(path: Path, first: int, size: int, skip: int = 0) -> tuple[list[WindowExample], dict[str, Any]]:
    settings = from_env()
    extractor = get_extractor(settings.extractor, settings)
    eraser = get_eraser("graph-guided", settings)
    parse = ParseCache(settings.spacy_model)
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()][skip:first]
    examples: list[WindowExample] = []
    dropped: Counter[str] = Counter()
    for number, line in enumerate(lines, start=skip + 1):
        request = build_request(json.loads(line), f"{path.name} line {number}", extractor, 0.25, 0)
        rewrites, _ = verify_and_repair(request, list(eraser.erase(request)), extractor, parse)
        for item in request_examples(request, rewrites, size):
            if isinstance(item, str):
                dropped[item] += 1
            else:
                examples.append(item)
        print(f"record {number}: {len(examples)} examples so far, dropped {dict(dropped)}", flush=True)
    summary = {
        "data": f"{path.name}, records {skip + 1}-{skip + len(lines)}",
        "examples": len(examples),
        "examples_that_cut": sum(e.cut for e in examples),
        "examples_that_copy": sum(not e.cut for e in examples),
        "dropped": dict(dropped),
        "targets": "edit scripts derived from graph-guided + verify, per private window of "
        f"{size} sentences; kept only when the applied script has no broken construction and "
        "no strict or partial leak (string grading)",
    }
    return examples, summary


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", type=Path)
    parser.add_argument("--first", type=int, default=40, help="records to use (the rest stay held back)")
    parser.add_argument(
        "--skip",
        type=int,
        default=0,
        help="leading records to leave out (held-back data: --skip 40 --first 50)",
    )
    parser.add_argument("--window-sentences", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--summary", type=Path, required=True)
    args = parser.parse_args()
    examples, summary = build(args.path, args.first, args.window_sentences, args.skip)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as handle:
        for example in examples:
            record = sft_record(example.task, example.script)
            record["applied"] = example.applied
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    args.summary.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
