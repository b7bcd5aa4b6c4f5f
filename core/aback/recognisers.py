"""The studio's own PII recognisers, each kept because it raised recall on the development part of
the PII set without lowering precision below the target (docs/ABACK.md): street addresses in US and
European forms and their address blocks, phone numbers, identifiers, money, courtesy titles, country
names (assets/pii/countries.txt), names in lists. `core.aback.pii.PiiDetector` runs them beside
Presidio's."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from core.aback.detections import SOURCE_GAZETTEER, SOURCE_NER, SOURCE_STUDIO, Detection

STREET_WORDS = (
    r"street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|circle|"
    r"cir|parkway|pkwy|trail|highway|hwy|square|sq|crescent|close|row|alley|plaza|hill|grove|gardens|"
    r"park|walk|mews|green|loop|pike|ridge|crossing"
)
# European street-name suffixes glued to the name ("Michaelkirchstr.", "Frørupvej", "Hochstrasse").
_GLUED_SUFFIX = (
    r"(?:stra(?:ss|ß)e|str\.|weg|gasse|allee|platz|vej|gade|gatan|vägen|veien|laan|straat|"
    r"plein|kade|katu|kuja|tie|polku|utca|ulica|ulice|cesta|gata|brücke|bakken|letta)"
)
# Street-type words that come before the name ("via raffaele conforti 74", "Rua Augusta 12").
_LEADING_TYPE = (
    r"(?:via|viale|piazza|corso|rue|quai|avenue|av\.|calle|avenida|rua|r\.?|travessa|largo|"
    r"praça|plaza|paseo|camino|carrer|ulica|ul\.|estrada)"
)
# Street-type words a house number comes before ("6 Rue Hsine Eloued"); not "via" ("in 1990 via Moscow").
_NUMBER_FIRST_TYPE = (
    r"rue|boulevard|bd\.?|avenue|av\.|calle|avenida|rua|travessa|largo|praça|paseo|camino|carrer|ulica|ul\.|"
    r"estrada|piazza|viale|corso|quai|chemin|allée|impasse|cours|c/"
)
_WHERE_AN_ADDRESS_IS_GIVEN = (
    r"(?:(?m:^)[ \t>]*|(?<=[:,])[ \t]*|(?<=\bat)[ \t]+|(?<=\bto)[ \t]+|(?<=\bis)[ \t]+|(?<=\bwith)[ \t]+)"
)
_NAME_PARTICLE = r"(?:(?:de|du|des|la|le|del|da|do|dos|das|di|van|von)[ \t]+)"
# Street-type words that come lower-case after the name ("Veres Pálné u. 91", "Rákóczi út 81", "Gosposka
# ulica 61").
_TRAILING_TYPE = r"(?:u\.|út|útja|utca|tér|krt\.|körút|köz|sétány|fasor|ulica|ulice|cesta)"
_WORD = r"[^\W\d_][\w'.-]*"
_CAP_WORD = r"[^\W\d_a-zß-ÿ][\w'.-]*"  # starts with a letter that is not lower-case
# a word of a street's name after its type: no unit ("24 14 rue du Président Roosevelt Apt. 889")
_STREET_NAME_WORD = rf"(?!(?i:apt|apartment|suite|unit|flat)\b){_CAP_WORD}"
_NAME_PART = rf"{_NAME_PARTICLE}{{0,2}}{_STREET_NAME_WORD}"
_UNIT = r"(?:,?\s*(?:apt\.?|apartment|suite|ste\.?|unit|flat|#)\s*[A-Za-z0-9-]+)"
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")

ADDRESS_PATTERNS: tuple[tuple[re.Pattern[str], float], ...] = (
    # 81 Long Street / 24 Cherry Lane Apt. 3
    (re.compile(rf"\b\d{{1,6}}[A-Za-z]?\s+(?:{_WORD}\s+){{0,4}}(?i:{STREET_WORDS})\b\.?{_UNIT}?"), 0.6),
    # Michaelkirchstr. 15 / hochstrasse 63 / Frørupvej 65
    (re.compile(rf"(?i:\b{_WORD}?{_GLUED_SUFFIX})\s*\d{{1,5}}[A-Za-z]?\b\.?{_UNIT}?"), 0.6),
    # via raffaele conforti 74 / R Nossa Senhora Graça 75
    (re.compile(rf"(?i:\b{_LEADING_TYPE})\s+(?:{_WORD}\s+){{1,4}}\d{{1,5}}[A-Za-z]?\b"), 0.5),
    # 70 Algade 49 / 43 Ρ. Φεραίου 13 (house number, name, number: many European formats)
    (re.compile(rf"\b\d{{1,5}}\s+(?:{_CAP_WORD}\s+){{1,3}}\d{{1,5}}\b\.?"), 0.45),
    # 6 Rue Hsine Eloued / 23 49 boulevard Amiral Courbet (the house number before a street type that leads),
    # where an address is given: at a line's start or after "at", "to", "is", "with", a colon or a comma
    # ("in season 7 Rue McClanahan joined", "in the 1990s Rue Cler" are none)
    (
        re.compile(
            rf"{_WHERE_AN_ADDRESS_IS_GIVEN}(?:\d{{1,4}}[ \t]+)?(?!(?:1[5-9]|2[01])\d\d)\d{{1,4}}[A-Za-z]?,?"
            rf"[ \t]+(?i:{_NUMBER_FIRST_TYPE})[ \t]+"
            rf"{_NAME_PART}(?:[ \t]+{_NAME_PART}){{0,3}}"
            r"(?:[ \t]+\d{1,5}[A-Za-z]?\b\.?)?"
        ),
        0.65,
    ),
    # 63 Agip u. 96. / 26 Veres Pálné u. 91. / 25 Rákóczi út 81 (a street type after the name, lower-case)
    # (not "from 10 Uhr u. 12 Uhr": German "u." is "und" between times)
    (
        re.compile(rf"\b\d{{1,5}}\s+(?:(?!Uhr\b){_WORD}\s+){{1,3}}{_TRAILING_TYPE}\s+\d{{1,5}}\b\.?"),
        0.5,
    ),
    # Suite 616 / Apt. 977 / Unit 8505 Box 3866 / P.O. Box 101 / PSC 9236, Box 1684
    (
        re.compile(
            r"(?i:\b(?:apt\.?|apartment|suite|unit))\s*#?\s*\d{1,5}[A-Za-z]?\b(?:\s+(?:Box|box|BOX)\s+\d{1,6})?"
        ),
        0.5,
    ),
    (re.compile(r"(?i:\b(?:P\.?\s?O\.?\s*Box|PSC\s+\d{1,5},?\s+Box)\s+\d{1,6}\b)"), 0.7),
    (
        re.compile(r"\b(?:[ADF]PO\s+A[AEP]|[adf]po\s+a[aep])\s+\d{5}\b"),
        0.7,
    ),  # US military (and diplomatic) mail
)
IDENTIFIER_PATTERN = re.compile(
    r"(?i:\b(?:account|acct|patient|policy|member|record|client|customer|case)\.?\s*"
    r"(?:id|no\.?|number|#)?\s*[:#]?\s*)(?=[A-Z0-9-]*\d)([A-Z0-9][A-Z0-9-]{4,})\b"
    r"|\b([A-Z]{2,5}-\d{4,}(?:-\d+)*)\b"
)
MONEY_PATTERN = re.compile(
    r"(?:[$€£]\s?\d{1,3}(?:,\d{3})+(?:\.\d{2})?"
    r"|[$€£]\s?\d+(?:\.\d+)?(?:\s?(?:k|K|million|m|M)\b)?"
    r"|\b\d{1,3}(?:,\d{3})+(?:\.\d{2})?\s?(?:USD|EUR|GBP|dollars)\b)"
)
# one line's digit groups: a postcode and the next line's number are no phone ("... 36907\n22 498317 office")
PHONE_PATTERN = re.compile(
    r"(?<![\w+/.-])(?:\+\d{1,3}[ \t.-]?)?(?:\(\d{1,5}\)[ \t]?)?\d{1,5}(?:[ \t.-]\d{1,5}){1,5}"
    r"(?:\s?(?:x|ext\.?)\s?\d{1,6})?(?![\w/]|[.-]\d)"
)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}")
TITLE_PATTERN = re.compile(
    r"\b(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.(?=\s+\w)|\b(?:Miss|Mister|Madam)(?=\s+[A-Z])", re.IGNORECASE
)
# Labels of form fields ("Name:", "Phone") that spaCy glues to the entity on the line above.
FIELD_LABELS = frozenset(
    {
        "name",
        "address",
        "phone",
        "tel",
        "telephone",
        "email",
        "e-mail",
        "fax",
        "mobile",
        "office",
        "company",
        "title",
        "date",
        "dob",
        "account",
        "user",
        "customer",
        "card",
    }
)
COUNTRIES_PATH = Path(__file__).resolve().parents[2] / "assets" / "pii" / "countries.txt"


@lru_cache(maxsize=1)
def country_pattern() -> re.Pattern[str]:
    names = [
        line.strip()
        for line in COUNTRIES_PATH.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return list_pattern(names) or re.compile(r"(?!x)x")


def phone_detections(text: str) -> list[Detection]:
    """Digit groups with 7-15 digits in all (national and international formats Presidio's
    `phonenumbers` check rejects without a region), not ISO dates or times."""
    found = []
    for match in PHONE_PATTERN.finditer(text):
        value = match.group(0)
        digits = sum(char.isdigit() for char in value.split("x")[0])
        if 7 <= digits <= 15 and not _ISO_DATE.search(value):
            found.append(detection_at(text, match.start(), match.end(), "PHONE_NUMBER", 0.4, SOURCE_STUDIO))
    return found


# "My zip code is 49865": a postcode that its label names (alone, it reads as a year or a number).
LABELLED_POSTCODE = re.compile(r"(?i:\b(?:zip|postal|post)\s?code\b(?:\s+is)?)[\s:#]*(\d{4,6}(?:-\d{4})?)\b")


def address_detections(text: str) -> list[Detection]:
    found = [
        detection_at(text, m.start(1), m.end(1), "ADDRESS", 0.6, SOURCE_STUDIO)
        for m in LABELLED_POSTCODE.finditer(text)
    ]
    for pattern, score in ADDRESS_PATTERNS:
        for match in pattern.finditer(text):
            if not _starts_with_month(match.group(0)):
                found.append(detection_at(text, match.start(), match.end(), "ADDRESS", score, SOURCE_STUDIO))
    return found


def _starts_with_month(value: str) -> bool:
    """ "12 May 2020" is a date, not "number name number" address."""
    words = value.split()
    return len(words) > 1 and words[1][:3].casefold() in _MONTHS


def studio_detections(text: str) -> list[Detection]:
    """Street addresses, phone numbers, country names, courtesy titles, account/patient/policy
    identifiers and money amounts (the studio's recognisers)."""
    found = address_detections(text) + phone_detections(text)
    found += [
        detection_at(text, m.start(), m.end(), "LOCATION", 0.6, SOURCE_GAZETTEER)
        for m in country_pattern().finditer(text)
    ]
    found += [
        detection_at(text, m.start(), m.end(), "TITLE", 0.5, SOURCE_STUDIO)
        for m in TITLE_PATTERN.finditer(text)
    ]
    for match in IDENTIFIER_PATTERN.finditer(text):
        group = 1 if match.group(1) else 2
        found.append(detection_at(text, match.start(group), match.end(group), "ID", 0.6, SOURCE_STUDIO))
    found += [
        detection_at(text, m.start(), m.end(), "MONEY", 0.5, SOURCE_STUDIO)
        for m in MONEY_PATTERN.finditer(text)
    ]
    return [item for item in found if item.end > item.start]


# "Malon, Mark, Kaylee and Jennifer": three or more capitalised words joined by commas / "and" / "or".
_NAME_LIST = re.compile(
    r"\b[A-Z][^\W\d_]+(?:,[ \t]+[A-Z][^\W\d_]+)+,?[ \t]+(?:and|or|&)[ \t]+"
    r"[A-Z][^\W\d_]+\b|\b[A-Z][^\W\d_]+(?:,[ \t]+[A-Z][^\W\d_]+){2,}\b"
)
_LIST_ITEM = re.compile(r"[A-Z][^\W\d_]+")


def names_in_lists(text: str, detections: list[Detection]) -> list[Detection]:
    """Items of an enumeration of single capitalised words in which NER found at least two names.

    spaCy's small model often misses the first or an unusual name of a list ("They had 6: Malon,
    Mark, Kaylee, ..." gave no entity for Malon): an item of a list that is mostly names is a name.
    Items NER labelled otherwise keep their detection; only undetected items are added."""
    added = []
    for match in _NAME_LIST.finditer(text):
        items = [
            (match.start() + item.start(), match.start() + item.end())
            for item in _LIST_ITEM.finditer(match.group(0))
            if item.group(0) not in ("And", "Or")
        ]
        covered = [[d for d in detections if d.start < end and start < d.end] for start, end in items]
        names = sum(any(d.type == "PERSON" for d in hits) for hits in covered)
        if names < 2 or 2 * names < len(items):
            continue
        added += [
            detection_at(text, start, end, "PERSON", 0.6, SOURCE_STUDIO)
            for (start, end), hits in zip(items, covered, strict=True)
            if not hits
        ]
    return added


def detection_at(text: str, start: int, end: int, kind: str, score: float, source: str) -> Detection:
    """A detection with surrounding whitespace and trailing ",;:" trimmed from its range."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ",;:"):
        end -= 1
    return Detection(text[start:end], kind, start, end, float(score), source)


_DATE_WORDS = re.compile(
    r"(?i)\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\b"
)


def is_vague_date(item: Detection) -> bool:
    """spaCy DATE/TIME without a digit, weekday or month name ("this morning", "the following year")."""
    return (
        item.type == "DATE_TIME"
        and item.source == SOURCE_NER
        and not any(c.isdigit() for c in item.text)
        and not _DATE_WORDS.search(item.text)
    )


def split_at_lines(text: str, item: Detection) -> list[Detection]:
    """An NER entity that runs over line breaks, cut into its lines; form-field labels are dropped."""
    if "\n" not in item.text:
        return [item]
    pieces = []
    for match in re.finditer(r"[^\n]+", item.text):
        piece = detection_at(
            text, item.start + match.start(), item.start + match.end(), item.type, item.score, item.source
        )
        core = piece.text.strip(" >:-")
        if len(core) >= 2 and core.casefold() not in FIELD_LABELS:
            pieces.append(piece)
    return pieces


def list_pattern(terms: Sequence[str]) -> re.Pattern[str] | None:
    """A pattern matching any of `terms` as whole words, case-insensitively (None without a term)."""
    terms = [term for term in terms if term]
    if not terms:
        return None
    alternatives = "|".join(re.escape(term) for term in sorted(terms, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
