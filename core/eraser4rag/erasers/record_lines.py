"""What a removal leaves on the lines of a record (a form, a letterhead, a message), where the parse of
prose does not reach: a line opening on the punctuation of a value that went ("[DPO AP 27173]? I am in
Melliste" leaves "? I am in Melliste"), a colon whose value went ("for this card: [4556...]"), and a
contact label whose number went ("[438.812.1525] fax").

Only lines the removal changed are touched; a line the original already had is kept as it was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from core.types import Span

CONTACT_LABELS = frozenset(
    {"office", "fax", "mobile", "cell", "phone", "tel", "telephone", "home", "work", "email", "e-mail"}
)
_STRANDED_OPENING = re.compile(r"^(?P<indent>\s*)(?P<marks>[?!;:,.]+)\s+(?=\S)")  # "? I am in"
_DANGLING_COLON = re.compile(r"\s*:\s*$")
_MARKS = "?!;:,."
_SENTENCE_WORDS = 3
_LABEL_PUNCTUATION = " \t-,.:;()[]\\"
_ANNOUNCES_ITS_VALUE = re.compile(r"(?i)\b(?:the same|the following|as follows|this one|these|here)\s*$")
_SENTENCE_END = re.compile(r"[.?!](?=\s)")
_ABBREVIATION = re.compile(r"(?:\b(?:Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr|Mt|vs)|\b[A-Z]|\.[A-Za-z])\.$")


def mend_record_lines(original: str, new_text: str) -> str:
    """`new_text` with each changed line mended (see the module); a line left with nothing goes."""
    kept = set(original.split("\n"))
    lines: list[str] = []
    new_lines = new_text.split("\n")
    for index, line in enumerate(new_lines):
        if line not in kept:
            if line.strip() and not line.strip(_MARKS + " \t"):
                if not _opens_a_line_of(original, line.strip()):  # the "???" lines open with, as a bullet
                    _end_with(lines, line.strip()[:1])  # " ?" alone once the address before it went
                continue
            stranded = _STRANDED_OPENING.match(line)
            if stranded and not _opens_a_line_of(original, stranded.group("marks")):
                line = stranded.group("indent") + line[stranded.end() :]
                _end_with(lines, stranded.group("marks").strip()[:1])
            line = _mended_line(line, original, _ends_its_block(new_lines, index))
            if line is None:
                continue
        lines.append(line)
    return "\n".join(lines)


def _opens_a_line_of(original: str, marks: str) -> bool:
    """The original opens lines with these marks itself (a list page's " ; Masayoshi Ōhira")."""
    return re.search(rf"(?m)^\s*{re.escape(marks)}[ \t]", original) is not None


def _ends_its_block(lines: list[str], index: int) -> bool:
    """The last line, or one before a blank line: nothing under it that a colon could open."""
    return index == len(lines) - 1 or not lines[index + 1].strip()


def _end_with(lines: list[str], mark: str) -> None:
    """The sentence end a line opened on goes back to the line before ("Box 3770\n? I am" reads "Box
    3770? / I am"); a comma, semicolon or colon just goes."""
    if mark in {"?", "!", "."} and lines and lines[-1].strip() and lines[-1].rstrip()[-1] not in ".?!:;,":
        lines[-1] = lines[-1].rstrip() + mark


def _mended_line(line: str, original: str, last: bool) -> str | None:
    if _a_label_whose_number_went(line, original):
        return None  # "fax" once its number went
    colon = _DANGLING_COLON.search(line)
    if not colon or not last or not _a_value_followed(line[: colon.start()], original):
        return line
    before = _last_sentence_end(line[: colon.start()])
    said = line[before : colon.start()].split()
    if _ANNOUNCES_ITS_VALUE.search(line[: colon.start()]):
        # "I want to update my address to the same: [81 Stallstigen 19 ...]": "the same" said nothing more
        return line[:before].rstrip() or None
    # a sentence ("Lucas had given Maria his address: [16 Blæsenborgvej 5]"), not a form's key ("Name:")
    if len(said) >= _SENTENCE_WORDS:
        return line[: colon.start()] + "."
    if before:  # a speaker's or a key's label after a sentence: "What's the name? User: [Shawn Osborne]"
        return line[:before].rstrip()
    return line


def _last_sentence_end(text: str) -> int:
    """Where the last sentence of `text` that ends before its end stops (after its mark), or 0: a full
    stop after a title or an initial ("Dr. Smith at:") ends none."""
    ends = [
        m.end()
        for m in _SENTENCE_END.finditer(text)
        if not _ABBREVIATION.search(text[max(0, m.start() - 8) : m.start() + 1])
    ]
    return ends[-1] if ends else 0


def _a_label_whose_number_went(line: str, original: str) -> bool:
    """A line that is only a contact label ("fax", "-Office", "Tel.") where the original gave that label
    a number on a line ("438.812.1525 fax"); not a word of prose ("home") that a removal left alone."""
    label = line.strip().strip(_LABEL_PUNCTUATION).lower()
    if label not in CONTACT_LABELS:
        return False
    word = re.escape(label)
    return re.search(rf"(?im)\d[^\n]*\b{word}\b|\b{word}\b\W*\d", original) is not None


def _a_value_followed(before_colon: str, original: str) -> bool:
    """The original went on after this colon on the same line ("for this card: 4556...")."""
    return re.search(rf"{re.escape(before_colon.strip())}[ \t]*:[ \t]*\S", original) is not None


def joined_where_a_removal_crosses_lines(pieces: list[Any], spans: Sequence[Span]) -> list[Any]:
    """Segments (`repair.segments`: spaCy spans, cut at line breaks) joined again where one removed value
    runs over the break between them: "The letter arrived at [Unit 5906 Box 6078\nDPO AP 49101] last
    night." is one sentence, repaired as one, not a line that lost its end and a line "last night.". A
    form's key ("To: [12 Elm Street\nSpringfield]") keeps its line: the key stays a key."""
    joined: list[Any] = []
    for piece in pieces:
        last = joined[-1] if joined else None
        if last is not None and _one_value_runs_over(last, piece, spans):
            joined[-1] = last.doc[last.start : piece.end]
        else:
            joined.append(piece)
    return joined


def _one_value_runs_over(last: Any, piece: Any, spans: Sequence[Span]) -> bool:
    text = last.doc.text
    if "\n" not in text[last.end_char : piece.start_char]:
        return False
    return any(
        start < last.end_char and piece.start_char < end and ":" not in text[last.start_char : start]
        for start, end in spans
    )
