"""What ABack's tab retrieves and watches: the retrieval database (the workspace corpus or the demo
records), the records retrieved for a question with the indicators detected in them, the indicator box
as Generate reads it, and the verdict an answer gets. The tab (`ui.aback_tab`) wires these to its
components; the methods are `core.aback`'s."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import gradio as gr

from core.aback.data import Record
from core.aback.indicators import (
    Indicator,
    collect_indicators,
    filter_indicators,
    indicators_to_lines,
    not_in_query,
)
from core.aback.monitor import LeakMonitor
from core.aback.pii import PiiOptions
from core.eraser4rag.workspace import Workspace
from core.llm import get_chat_client
from core.retrieval import retriever_for
from core.settings import Settings
from core.types import Document


@dataclass(frozen=True)
class RetrievedSet:
    """One question's retrieval: the records found and the indicators detected in them.

    The indicator box belongs to the last RetrievedSet; Generate uses the box only while the question
    and its records are the same, and otherwise detects the indicators again for the question asked."""

    query: str
    doc_ids: tuple[str, ...]
    indicators: tuple[Indicator, ...]

    def belongs_to(self, query: str, hits: Sequence[tuple[Document, float]]) -> bool:
        return self.query == query.strip() and self.doc_ids == tuple(doc.id for doc, _ in hits)


@dataclass(frozen=True)
class DemoDatabase:
    """The demo records loaded in this session (their case summaries are the retrieval database)."""

    records: tuple[Record, ...] = ()

    def documents(self) -> list[Document]:
        return [record.document() for record in self.records]


def database(ws: Workspace, demo: DemoDatabase | None) -> list[Document]:
    if demo is not None and demo.records:
        return demo.documents()
    return list(ws.corpus.documents)


def retrieve(
    ws: Workspace, demo: DemoDatabase | None, query: str, k: int, settings: Settings
) -> list[tuple[Document, float]]:
    if not query.strip():
        raise ValueError("type a question first")
    documents = database(ws, demo)
    if not documents:
        raise ValueError("the retrieval database is empty: add documents or load the PriGenQA demo records")
    hits = retriever_for(documents, settings.embedder).top_k(query, int(k))
    if not hits:
        raise ValueError("nothing was retrieved for this question: add documents or load the demo records")
    return hits


def retrieved_set(
    ws: Workspace,
    query: str,
    hits: Sequence[tuple[Document, float]],
    settings: Settings,
    use_llm: bool = False,
) -> RetrievedSet:
    """The records of `hits` and the indicators detected in them, for `query`."""
    found = detected_indicators(ws, [doc for doc, _ in hits], settings, use_llm=use_llm)
    return RetrievedSet(query.strip(), tuple(doc.id for doc, _ in hits), tuple(found))


def detected_indicators(
    ws: Workspace, documents: Sequence[Document], settings: Settings, use_llm: bool = False
) -> list[Indicator]:
    """Graph, PII-detector (Presidio + studio recognisers) and optional LLM indicators, typed and scored."""
    client = None
    if use_llm:
        client = get_chat_client(settings)
    return collect_indicators(
        [doc.text for doc in documents],
        private_entities=ws.private_entities(),
        client=client,
        spacy_model=settings.spacy_model,
        options=PiiOptions.from_settings(settings),
    )


def suggested_indicators(
    ws: Workspace, documents: Sequence[Document], settings: Settings, use_llm: bool = False
) -> str:
    return indicators_to_lines(detected_indicators(ws, documents, settings, use_llm))


def indicator_types(indicators: Sequence[Indicator]) -> list[tuple[str, str]]:
    """(label with count, type) choices for the type filter, most frequent first."""
    counts = Counter(indicator.kind for indicator in indicators)
    return [(f"{kind} ({count})", kind) for kind, count in counts.most_common()]


def kept_indicator_lines(indicators: Sequence[Indicator], kept_types: Sequence[str], min_score: float) -> str:
    """The indicator box for the types the user keeps and the minimum score."""
    dropped = {indicator.kind for indicator in indicators} - set(kept_types)
    return indicators_to_lines(filter_indicators(indicators, dropped, float(min_score or 0.0)))


@dataclass(frozen=True)
class IndicatorBox:
    """The indicator box as Generate reads it: its lines, the retrieval they belong to, the filters."""

    lines: str
    found: RetrievedSet | None = None
    kept_types: list[str] | None = None  # None: every type
    min_score: float = 0.0
    use_llm: bool = False


@dataclass(frozen=True)
class WatchList:
    """What Generate watches: the indicator lines shown, the retrieval they come from, and why."""

    lines: str
    found: RetrievedSet
    type_choices: Any  # a gr.update for the type filter (gr.skip() when unchanged)
    note: str  # "" when the box was used as it was


def watch_list(
    ws: Workspace, text: str, hits: Sequence[tuple[Document, float]], box: IndicatorBox, settings: Settings
) -> WatchList:
    """The indicator box when it belongs to this question and these records, else indicators detected
    again in the records retrieved for `text` (the box's type and score filters carried over)."""
    if box.found is not None and box.found.belongs_to(text, hits) and box.lines.strip():
        return WatchList(box.lines, box.found, gr.skip(), "")
    found = retrieved_set(ws, text, hits, settings, use_llm=box.use_llm)
    kinds = [kind for _label, kind in indicator_types(found.indicators)]
    if box.found is not None and box.kept_types is not None:
        dropped = {indicator.kind for indicator in box.found.indicators} - set(box.kept_types)
        kinds = [kind for kind in kinds if kind not in dropped]
    lines = kept_indicator_lines(found.indicators, kinds, box.min_score)
    if box.found is None or not box.lines.strip():
        note = f"Indicators detected in the {len(hits)} record(s) retrieved for this question. "
    else:
        note = (
            "The indicator box held another question's indicators: they were replaced by those of "
            f"the {len(hits)} record(s) retrieved for this question. "
        )
    choices = gr.update(choices=indicator_types(found.indicators), value=kinds)
    return WatchList(lines, found, choices, note)


def answer_verdict(
    defence: str, text: str, indicators: Sequence[str], backtracks: int | None = None
) -> dict[str, Any]:
    """One answer for scripts: its text, the indicators it prints and the verdict ("leak"/"no leak")."""
    leaked = list(dict.fromkeys(leak.indicator for leak in LeakMonitor(indicators).find_leaks(text)))
    verdict: dict[str, Any] = {
        "defence": defence,
        "text": text,
        "leaks": leaked,
        "verdict": "leak" if leaked else "no leak",
    }
    if backtracks is not None:
        verdict["backtracks"] = backtracks
    return verdict


def verdict_indicators(watched: Sequence[str], found: RetrievedSet, question: str) -> list[str]:
    """The indicators an answer's "leak" label is computed against: the watched ones and every value
    detected in the records (a type unticked in the box still leaks when printed)."""
    detected = not_in_query([indicator.text for indicator in found.indicators], question)
    return list(dict.fromkeys([*watched, *detected]))
