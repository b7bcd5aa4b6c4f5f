"""A detected PII value (`Detection`), where it came from, and which of two overlapping ones wins."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

SOURCE_NER = "ner"  # spaCy entities through Presidio's SpacyRecognizer
SOURCE_PATTERN = "pattern"  # Presidio's pattern recognisers (checksums, phonenumbers, tldextract)
SOURCE_STUDIO = "studio"  # the studio's recognisers below
SOURCE_GAZETTEER = "gazetteer"  # country names (assets/pii/countries.txt)
SOURCE_DENY = "deny_list"


@dataclass(frozen=True)
class Detection:
    text: str
    type: str
    start: int
    end: int
    score: float
    source: str  # ner | pattern | studio | gazetteer | deny_list

    def as_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "type": self.type,
            "start": self.start,
            "end": self.end,
            "score": round(self.score, 4),
            "source": self.source,
        }


# Which of two overlapping detections wins: checked formats beat NER guesses, NER beats the gazetteer.
RANK = {SOURCE_DENY: 3, SOURCE_PATTERN: 2, SOURCE_STUDIO: 2, SOURCE_NER: 1, SOURCE_GAZETTEER: 0}


def resolve_overlaps(detections: Iterable[Detection]) -> list[Detection]:
    """Rank, then score, then length decide; a detection overlapping an already kept one is dropped."""
    kept: list[Detection] = []
    order = sorted(detections, key=lambda d: (-RANK.get(d.source, 1), -d.score, -(d.end - d.start), d.start))
    for item in order:
        if all(item.end <= other.start or other.end <= item.start for other in kept):
            kept.append(item)
    return sorted(kept, key=lambda d: (d.start, d.end))
