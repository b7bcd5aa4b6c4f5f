"""Annotation tasks built from a real PopQA retrieval record (tests/data/popqa_slice.jsonl)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from core.eraser4rag.annotation.tasks import AnnotationTask, tasks_from_request

SLICE = Path(__file__).resolve().parent / "data" / "popqa_slice.jsonl"


def popqa_records() -> list[dict]:
    return [json.loads(line) for line in SLICE.read_text(encoding="utf-8").splitlines() if line.strip()]


@lru_cache(maxsize=1)
def popqa_tasks() -> tuple[AnnotationTask, ...]:
    """Tasks of every record of the slice: spaCy triples, the paper's 25 % connected split, seed 0."""
    from core.eraser4rag.erasers.batch import build_request
    from core.extract import get_extractor
    from core.settings import Settings

    extractor = get_extractor("spacy", Settings())
    tasks: list[AnnotationTask] = []
    for number, record in enumerate(popqa_records(), start=1):
        request = build_request(record, f"record {number}", extractor, 0.25, 0)
        tasks.extend(tasks_from_request(request, batch="popqa_slice", definition="random 25% seed 0"))
    return tuple(tasks)


def tiny_task(
    doc_id: str = "d1", text: str = "Mara Voss lives in Harrow Vale. She works as an architect."
) -> AnnotationTask:
    private = (("mara voss", "residence", "harrow vale"),)
    public = (("mara voss", "occupation", "architect"),)
    return AnnotationTask(
        doc_id=doc_id,
        text=text,
        private=private,
        public=public,
        global_private=private,
        global_public=public,
        occurrences=(
            ("mara voss", "residence", "harrow vale", 0, 31),
            ("mara voss", "occupation", "architect", 32, 58),
        ),
        batch="tiny",
    )
