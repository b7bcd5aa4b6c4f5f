"""The two ways the erasers cut a text into sentences; both keep every character, so that
"".join of the pieces gives the text back.

They differ on purpose, and each caller needs its own:

* `split_at_stops` breaks after every ".", "!" or "?" followed by white space, initials and
  abbreviations included ("James B." ends a piece). It cuts eraser4rag's windows, the edit
  scripts of a window, the annotation tasks that trained the shipped adapter, and the sentence
  pairs LM fluency compares: the adapter learnt windows cut this way, and the README's
  figures were measured on them, so this cut stays as it is.
* `sentence_pieces` cuts as a reader does: no break after an initial or an abbreviation, or after
  a bracket's "?" that a word in lower case follows ("(died 1732?) was"); a closing quote or bracket
  stays with its sentence, and a line break ends a piece (a title line is no part of the next
  sentence). The broken-construction checker, repair and discourse
  compare the sentences of an original and its rewrite one by one and need these.
"""

from __future__ import annotations

import re

_STOP = re.compile(r"(?<=[.!?])\s+(?=\S)")

_BREAK = re.compile(r"(?<=[.!?])[\"”’)]*\s+(?=\S)")
# words before a full stop that end no sentence: initials ("James B. Zagel"), abbreviations and
# dotted abbreviations ("a B.Ped. degree", "B.Sc."); a title in a chat's lower case ("dr. gregory")
_NO_END = re.compile(
    r"(?:\b[A-Z]|\b[A-Za-z]{1,3}\.[A-Za-z]{1,4}|\b(?:mr|mrs|ms|dr|prof)|\b(?:Mr|Mrs|Ms|Dr|Prof|St|Jr|Sr|Mt|Ft|Gen|Col|Lt|Capt|Sgt|Rev|Revd|Ven|Rt|Msgr|Hon|Gov|Sen|Rep|Pres|No|Nos|"
    r"vs|v|etc|Inc|Ltd|Co|Corp|Bros|approx|c|ca|b|d|fl|r|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|"
    r"U\.S|U\.K|D\.C|Ph\.D|a\.m|p\.m|e\.g|i\.e))\.[\"”’)]*$"
)


def split_at_stops(text: str) -> list[str]:
    """Pieces ending after every ".", "!" or "?" and its trailing white space."""
    pieces: list[str] = []
    start = 0
    for match in _STOP.finditer(text):
        pieces.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        pieces.append(text[start:])
    return pieces


def sentence_pieces(text: str) -> list[str]:
    """Sentences with their trailing whitespace, a line break ending one too; no break after an
    initial or abbreviation."""
    pieces: list[str] = []
    start = 0
    for match in _BREAK.finditer(text):
        if "\n" not in match.group() and _ends_no_sentence(text, start, match):
            continue
        pieces.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        pieces.append(text[start:])
    return [line for piece in pieces for line in piece.splitlines(keepends=True)]


def _ends_no_sentence(text: str, start: int, stop: re.Match[str]) -> bool:
    """An initial or abbreviation before the stop, or a bracket's "?" that a word in lower case follows
    ("Eliza Smith (died 1732?) was one of ...")."""
    if _NO_END.search(text[max(start, stop.start() - 12) : stop.start()]):
        return True
    return ")" in stop.group() and text[stop.end() : stop.end() + 1].islower()
