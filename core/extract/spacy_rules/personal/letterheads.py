"""Letterheads and signature blocks: the short lines between a record's first line (its subject's
name) and its address or phone lines ("Helen Földesy / Training and development coordinator /
Practi-Plan / 12 Calle Mayor ..."), and an address's street number or street line that the detector
left out ("95 Lille Vibyvej 8" found as "Vibyvej 8"; "14 Republica de Chile 8305" above the "Suite 258"
line it found).

Every function here reads the text with carriage returns as spaces (`_unix`: same offsets), so a file
with Windows line ends reads as one with Unix ones.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.aback.address_blocks import (
    is_street_line,
    line_start,
    starts_line,
    street_line_above,
    street_number_before,
)
from core.aback.detections import Detection
from core.aback.pii import is_uncased

MAX_LINES = 4
MAX_WORDS = 8
MAX_LINE_WORDS = 12  # an address on one line ("86 fuente del gallo 4 suite 236 corcubión a coruña")
MIN_PHONE_DIGITS = 7
# Words inside a name, firm or street name that are written in lower case ("Torres de Albánchez",
# "Kash n' Karry"); `proper_nouns` joins runs of proper nouns over them too.
NAME_PARTICLES = frozenset(
    [
        "&",
        "-",
        "and",
        "of",
        "the",
        "de",
        "del",
        "der",
        "van",
        "von",
        "den",
        "da",
        "di",
        "du",
        "la",
        "le",
        "n'",
        "y",
        "und",
    ]
)
ORGANISATION_WORD = re.compile(
    r"\b(?:ltd|inc|llc|llp|co|corp|corporation|company|gmbh|plc|ag|sa|group|bank|services|solutions|"
    r"technologies|systems|university|college|school|hospital|clinic|city|store|stores|shop|foundation)\b",
    re.IGNORECASE,
)
_STRIP = " \t>"
_COURTESY_TITLE = re.compile(r"\b(?:mrs|mr|ms|mx|dr|prof)\b\.?", re.IGNORECASE)
_POSTAL_BOX = re.compile(r"[ \t>]*(?:PSC|Unit|USNS|USNV|USCGC|USS|P\.?\s?O\.?\s?Box)\b", re.IGNORECASE)
# Words of a first or second person, a greeting or a request: a sentence, not a name, firm or job
# title. Lower or title case only: "ME" and "US" in capitals are a state and a country.
_SENTENCE_WORDS = re.compile(
    r"\b(?:I|I'm|[Mm]y|[Mm]e|[Ww]e|[Oo]ur|[Uu]s|[Yy]ou|[Yy]our|[Pp]lease|[Hh]i|[Hh]ello|[Dd]ear"
    r"|[Tt]hanks?|[Rr]egards)\b"
)
_SENTENCE_END = re.compile(r"[^\W\d_]{3,}[.?!]$")
# Detections that a letterhead line may hold in part and still be read whole ("Kash n' Karry" with
# "Kash" found as an organisation); any other type on a line makes it a contact line.
_NAME_TYPES = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "NRP", "TITLE"})


@dataclass(frozen=True)
class LetterheadLine:
    start: int
    text: str
    # "occupation" (sentence case: "Booth cashier"), "employer" (one word, an organisation word, or
    # an organisation the detector found part of: "Experian", "Kash n' Karry"), else "mentions"
    kind: str


def letterhead_lines(
    text: str, detections: Sequence[Detection], names: Sequence[tuple[int, int]]
) -> list[LetterheadLine]:
    """The lines above a record's address or contact lines, in the same block of lines, that read as
    a name, firm or job title and that no single detection already holds whole. `names`: (start, end)
    of the persons found. Only a record whose first line is a name alone (a letterhead) has its
    contact part begin above an address found mid-line or at a street-number, phone or postal-box
    line, and job titles in sentence case; other records only above an address that starts a line."""
    text = _unix(text)
    letterhead = _opens_with_name(text, names)
    end = _contact_part_start(text, detections, letterhead)
    if end is None:
        return []
    block_start = text.rfind("\n\n", 0, end)
    block_start = block_start + 2 if block_start >= 0 else 0
    uncased = is_uncased(text)
    found = []
    first_line_end = text.find("\n") if letterhead else -1
    for match in list(re.finditer(r"[^\n]+", text[block_start:end]))[-MAX_LINES:]:
        line = match.group(0).strip(_STRIP)
        if not line or block_start + match.start() < first_line_end:
            continue  # the subject's own line
        start = block_start + match.start() + match.group(0).index(line)
        job_title = letterhead and _in_sentence_case(line)
        if _reads_as_heading(line, uncased, job_title) and not _held_or_contact(start, line, detections):
            found.append(LetterheadLine(start, line, _kind(start, line, detections, letterhead, job_title)))
    return found


def is_letterhead(text: str, names: Sequence[tuple[int, int]]) -> bool:
    """A record that opens with a name alone on its line, then at least two short lines that are no
    sentences (job, firm, address, phones): a letterhead or a signature block."""
    text = _unix(text)
    if not _opens_with_name(text, names):
        return False
    block = re.split(r"\n[ \t>]*\n", text, maxsplit=1)[0]
    lines = [line.strip(_STRIP) for line in block.split("\n")[1:] if line.strip(_STRIP)]
    if any(_is_sentence(line) or len(line.split()) > MAX_LINE_WORDS for line in lines):
        return False
    return sum(len(line.split()) <= MAX_WORDS for line in lines) >= 2


def _unix(text: str) -> str:
    return text.replace("\r", " ")


def _opens_with_name(text: str, names: Sequence[tuple[int, int]]) -> bool:
    """The first line is a name alone: a person found there (with a courtesy title at most), or two to
    four words shaped like a name that the detector missed ("Helen Földesy")."""
    first_line = text.split("\n", 1)[0]
    held = [text[s:e] for s, e in names if e <= len(first_line)]
    rest = first_line
    for name in held:
        rest = rest.replace(name, "")
    if held:
        return not _COURTESY_TITLE.sub("", rest).strip(_STRIP + ",.")
    words = first_line.strip(_STRIP).split()
    uncased = is_uncased(text)
    return 2 <= len(words) <= 4 and all(
        re.fullmatch(r"[^\W\d_][\w'’-]*", w) and (uncased or _capitalised(w)) for w in words
    )


def _contact_part_start(text: str, detections: Sequence[Detection], letterhead: bool) -> int | None:
    """Where the block's address or contact lines begin: the first address detection that starts a
    line; in a letterhead, the first line that holds an address detection or, with none, the first
    later street, phone or postal-box line. None when there is neither."""
    if not letterhead:
        return min(
            (d.start for d in detections if d.type == "ADDRESS" and starts_line(text, d.start)), default=None
        )
    addresses = [line_start(text, d.start) for d in detections if d.type == "ADDRESS"]
    first_line_end = text.find("\n")
    if addresses or first_line_end < 0:
        return min(addresses, default=None)
    lines = re.finditer(r"^[^\n]*$", text[first_line_end + 1 :], re.MULTILINE)
    uncased = is_uncased(text)
    starts = (first_line_end + 1 + m.start() for m in lines if _is_contact_line(m.group(0), uncased))
    return next(starts, None)


def _is_contact_line(line: str, uncased: bool) -> bool:
    """A street line ("63 Ommerweg 159"), a phone line ("455 6186 office", "(69) 948-538-Office") or a
    postal box line."""
    digits = sum(char.isdigit() for char in line)
    phone = digits >= MIN_PHONE_DIGITS and not re.search(r"[^\W\d_]", _PHONE_LABELS.sub("", line))
    return bool(_POSTAL_BOX.match(line)) or phone or is_street_line(line, uncased)


_PHONE_LABELS = re.compile(r"\b(?:office|fax|mobile|cell|home|work|tel|phone|ext|x)\b|(?<=\d)x(?=\d)", re.I)


def _is_sentence(line: str) -> bool:
    return bool(_SENTENCE_END.search(line) or _SENTENCE_WORDS.search(line))


def _reads_as_heading(line: str, uncased: bool, job_title: bool) -> bool:
    """A short line that is not a sentence: a name or a firm (each word capitalised), or a job title."""
    words = line.split()
    return (
        1 <= len(words) <= MAX_WORDS
        and not any(mark in line for mark in ":?!@")
        and not re.search(r"[,;]$|[^\W\d_]{5,}\.$", line)  # "Dear Sir,", "I moved here."
        and any(char.isalpha() for char in line)
        and not _is_sentence(line)
        and (uncased or job_title or all(_capitalised(w) for w in words))
    )


def _capitalised(word: str) -> bool:
    return word[0].isupper() or word[0].isdigit() or word.casefold() in NAME_PARTICLES


def _kind(start: int, line: str, detections: Sequence[Detection], letterhead: bool, job_title: bool) -> str:
    if job_title:
        return "occupation"
    return "employer" if letterhead and _firm(start, line, detections) else "mentions"


def _firm(start: int, line: str, detections: Sequence[Detection]) -> bool:
    end = start + len(line)
    return (
        len(line.split()) == 1
        or bool(ORGANISATION_WORD.search(line))
        or any(d.type == "ORGANIZATION" and d.start < end and start < d.end for d in detections)
    )


def _in_sentence_case(line: str) -> bool:
    words = [w for w in line.split() if w.casefold() not in NAME_PARTICLES and w[0].isalpha()]
    return len(words) >= 2 and words[0][0].isupper() and all(w[0].islower() for w in words[1:])


def _held_or_contact(start: int, line: str, detections: Sequence[Detection]) -> bool:
    """One detection holds the whole line (it is a node already), or the line holds a phone, an
    e-mail, an address or another identifier (a contact line)."""
    end = start + len(line)
    on_line = [d for d in detections if d.start < end and start < d.end]
    return any((d.start <= start and end <= d.end) or d.type not in _NAME_TYPES for d in on_line)


def whole_addresses(text: str, detections: Sequence[Detection]) -> list[Detection]:
    """Address detections grown back over a street number left out before them on their line, or
    over the street line above them in the same block; detections inside the grown address that
    name no identifier (the street read as an organisation) go."""
    text = _unix(text)
    uncased = is_uncased(text)
    grown = []
    for item in detections:
        if item.type != "ADDRESS":
            continue
        start = street_line_above(text, street_number_before(text, item.start, uncased), uncased)
        if start < item.start:
            whole = Detection(text[start : item.end], "ADDRESS", start, item.end, item.score, item.source)
            grown.append(whole)
    if not grown:
        return list(detections)
    kept: list[Any] = [
        d
        for d in detections
        if not any(g.start <= d.start and d.end <= g.end for g in grown)
        or d.type not in _NAME_TYPES | {"ADDRESS", "DATE_TIME"}
    ]
    return sorted([*kept, *grown], key=lambda d: (d.start, d.end))
