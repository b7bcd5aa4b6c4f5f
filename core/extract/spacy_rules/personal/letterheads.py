"""Letterheads and signature blocks: the short lines between a record's first line (its subject's
name) and its address or phone lines ("Helen Földesy / Training and development coordinator /
Practi-Plan / 12 Calle Mayor ..."), and an address's street number or street line that the detector
left out ("95 Lille Vibyvej 8" found as "Vibyvej 8"; "14 Republica de Chile 8305" above the "Suite 258"
line it found).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.aback.detections import Detection

MAX_LINES = 4
MAX_WORDS = 8
MAX_LINE_WORDS = 12  # an address on one line ("86 fuente del gallo 4 suite 236 corcubión a coruña")
NAME_PARTICLES = frozenset(
    {"&", "and", "of", "the", "de", "del", "van", "von", "da", "di", "du", "la", "le", "n'", "y", "und"}
)
# A line that starts a letterhead's address or contact part: a street number, a military or postal
# box ("PSC 7004, Box 8380", "Unit 3906 Box 2810", "USCGC Lussier", "P.O. Box 12").
_CONTACT_LINE = re.compile(r"[ \t>]*(?:\+?\(?\d|(?:PSC|Unit|USNS|USNV|USCGC|USS|P\.?\s?O\.?\s?Box)\b)", re.I)
# Words of a first or second person, or a request: a sentence, not a name, firm or job title.
_SENTENCE_WORDS = re.compile(r"\b(?:i|i'm|my|me|we|our|us|you|your|please|hi|hello|dear|thanks?)\b", re.I)
# Detections that a letterhead line may hold in part and still be read whole ("Kash n' Karry" with
# "Kash" found as an organisation); any other type on a line makes it a contact line.
_NAME_TYPES = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "NRP", "TITLE"})


@dataclass(frozen=True)
class LetterheadLine:
    start: int
    text: str
    job_title: bool  # in sentence case ("Booth cashier"): the subject's job, not a firm


def letterhead_lines(
    text: str, detections: Sequence[Detection], names: Sequence[tuple[int, int]]
) -> list[LetterheadLine]:
    """The lines above a record's address or contact lines, in the same block of lines, that read as
    a name, firm or job title and that no single detection already holds whole. `names`: (start, end)
    of the persons found. Only a record whose first line is a name alone (a letterhead) has its
    contact part begin at a street-number or postal-box line, and job titles in sentence case."""
    letterhead = _opens_with_name(text, names)
    end = _contact_part_start(text, detections, letterhead)
    if end is None:
        return []
    block_start = text.rfind("\n\n", 0, end)
    block_start = block_start + 2 if block_start >= 0 else 0
    uncased = not any(char.isupper() for char in text)
    found = []
    first_line_end = text.find("\n") if letterhead else -1
    for match in list(re.finditer(r"[^\n]+", text[block_start:end]))[-MAX_LINES:]:
        line = match.group(0).strip(" \t>")
        if not line or block_start + match.start() < first_line_end:
            continue  # the subject's own line
        start = block_start + match.start() + match.group(0).index(line)
        job_title = letterhead and _in_sentence_case(line)
        if _reads_as_heading(line, uncased, job_title) and not _held_or_contact(start, line, detections):
            found.append(LetterheadLine(start, line, job_title))
    return found


def _opens_with_name(text: str, names: Sequence[tuple[int, int]]) -> bool:
    """The first line is a name alone: a person found there (with a courtesy title at most), or two to
    four words shaped like a name that the detector missed ("Helen Földesy")."""
    first_line = text.split("\n", 1)[0]
    held = [text[s:e] for s, e in names if e <= len(first_line)]
    rest = first_line
    for name in held:
        rest = rest.replace(name, "")
    if held:
        return not re.sub(r"(?i)\b(?:dr|mr|mrs|ms|mx|prof)\.?", "", rest).strip(" \t>,.")
    words = first_line.strip(" \t>").split()
    uncased = not any(char.isupper() for char in text)
    return 2 <= len(words) <= 4 and all(
        re.fullmatch(r"[^\W\d_][\w'’-]*", w) and (uncased or _capitalised(w)) for w in words
    )


def _contact_part_start(text: str, detections: Sequence[Detection], letterhead: bool) -> int | None:
    """Where the block's address or contact lines begin: the first line that holds the start of an
    address detection, or, in a letterhead with none, the first later line that starts like a street
    number, a phone or a postal box; None when there is neither."""
    addresses = [_line_start(text, d.start) for d in detections if d.type == "ADDRESS"]
    first_line_end = text.find("\n")
    if addresses or first_line_end < 0 or not letterhead:
        return min(addresses, default=None)
    lines = re.finditer(r"^[^\n]*$", text[first_line_end + 1 :], re.MULTILINE)
    return next((first_line_end + 1 + m.start() for m in lines if _CONTACT_LINE.match(m.group(0))), None)


def _line_start(text: str, position: int) -> int:
    return text.rfind("\n", 0, position) + 1


def is_letterhead(text: str, names: Sequence[tuple[int, int]]) -> bool:
    """A record that opens with a name alone on its line, then at least two short lines that are no
    sentences (job, firm, address, phones): a letterhead or a signature block."""
    if not _opens_with_name(text, names):
        return False
    block = re.split(r"\n[ \t>]*\n", text, maxsplit=1)[0]
    lines = [line.strip(" \t>") for line in block.split("\n")[1:] if line.strip(" \t>")]
    if any(
        _SENTENCE.search(line) or _SENTENCE_WORDS.search(line) or len(line.split()) > MAX_LINE_WORDS
        for line in lines
    ):
        return False
    return sum(len(line.split()) <= MAX_WORDS for line in lines) >= 2


_SENTENCE = re.compile(r"[^\W\d_]{3,}[.?!]$")


def _reads_as_heading(line: str, uncased: bool, job_title: bool) -> bool:
    """A short line that is not a sentence: a name or a firm (each word capitalised), or a job title."""
    words = line.split()
    return (
        1 <= len(words) <= MAX_WORDS
        and not any(mark in line for mark in ":?!@")
        and not re.search(r"[,;]$|[^\W\d_]{5,}\.$", line)  # "Dear Sir,", "I moved here."
        and any(char.isalpha() for char in line)
        and not _SENTENCE_WORDS.search(line)
        and (uncased or job_title or all(_capitalised(w) for w in words))
    )


def _capitalised(word: str) -> bool:
    return word[0].isupper() or word[0].isdigit() or word.casefold() in NAME_PARTICLES


def _in_sentence_case(line: str) -> bool:
    words = [w for w in line.split() if w.casefold() not in NAME_PARTICLES and w[0].isalpha()]
    return len(words) >= 2 and words[0][0].isupper() and all(w[0].islower() for w in words[1:])


def _held_or_contact(start: int, line: str, detections: Sequence[Detection]) -> bool:
    """One detection holds the whole line (it is a node already), or the line holds a phone, an
    e-mail, an address or another identifier (a contact line)."""
    end = start + len(line)
    on_line = [d for d in detections if d.start < end and start < d.end]
    return any((d.start <= start and end <= d.end) or d.type not in _NAME_TYPES for d in on_line)


def starts_line(text: str, position: int) -> bool:
    return not text[text.rfind("\n", 0, position) + 1 : position].strip(" \t>")


# "lives at 95 Lille Vibyvej 8": a house number and up to three words of the street's name before
# where the detector's address begins, on the same line.
_NUMBER_AND_WORDS_BEFORE = re.compile(
    r"(?:^|(?<=[\s:,]))\d{1,5}(?:[ \t]+\d{1,5})?[ \t]+(?P<words>(?:[^\W\d_][\w'’./-]*[ \t]+){1,3})$"
)
# A street line: a house number, a street name and maybe a second number, nothing else.
_STREET_LINE = re.compile(r"^[ \t>]*\d{1,5}(?:[ \t]+\d{1,5})?[ \t]+[^\W\d_][^\n:@]{1,50}$")


def whole_addresses(text: str, detections: Sequence[Detection]) -> list[Detection]:
    """Address detections grown back over a street number left out before them on their line, or
    over the street line above them in the same block; detections inside the grown address that
    name no identifier (the street read as an organisation) go."""
    uncased = not any(char.isupper() for char in text)
    grown = []
    for item in detections:
        if item.type != "ADDRESS":
            continue
        start = _street_line_above(text, _street_number_before(text, item.start, uncased))
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


def _street_number_before(text: str, start: int, uncased: bool) -> int:
    line_start = text.rfind("\n", 0, start) + 1
    window_start = max(line_start, start - 60)
    match = _NUMBER_AND_WORDS_BEFORE.search(text[window_start:start])
    if match is None:
        return start
    words = match.group("words").split()
    if not uncased and not all(w[0].isupper() or w.casefold() in NAME_PARTICLES or "/" in w for w in words):
        return start  # "lives at 2 of the ..." is no street name
    return window_start + match.start()


def _street_line_above(text: str, start: int) -> int:
    if not starts_line(text, start):
        return start
    line_start = text.rfind("\n", 0, start) + 1
    if line_start < 2 or text[line_start - 2] == "\n":
        return start  # the first line, or a blank line above: another block
    above_start = text.rfind("\n", 0, line_start - 1) + 1
    above = text[above_start : line_start - 1]
    if not _STREET_LINE.match(above):
        return start
    return above_start + len(above) - len(above.lstrip(" \t>"))
