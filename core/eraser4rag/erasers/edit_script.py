"""Edit scripts: what the `eraser4rag` rewriter writes in its default ("edit") form.

Instead of the whole rewritten window, the model writes which spans to delete or replace,
each anchored by its verbatim text in the window:

    CUT He married
    DEL in Hampstead, London
    REP He was born on 3 May 1901
    BY He was born

`CUT A` deletes the whole sentence holding `A` (a few words of it are enough); `DEL A`
deletes the first occurrence of `A` (with one neighbouring space, so no double space is
left); `REP A` followed by `BY R` replaces it with `R`; a lone `KEEP` changes nothing. Text
outside the anchors is kept verbatim by construction.

An anchor is a whole-word span of the window: it starts and ends where a whitespace-separated
word does (`is_word_boundary`), so "DEL autho" never cuts "authored" in two, and no anchor is
edited twice in one script: each anchor takes its first whole-word occurrence that overlaps
nothing an earlier line changes (the same text written twice edits two occurrences, and is
rejected where it occurs once). A `REP` line takes exactly
one `BY` line; the replacement is one line, holds no keyword as a word (a model that writes
"BY BY BY" has lost the format) and is at most `REPLACEMENT_EXTRA_CHARS` longer than its
anchor. A script that breaks any of these, or whose anchor is not in the window, or whose
anchors overlap, is rejected with a reason naming its line (`ScriptError`); the eraser then
falls back and says so.

`script_for` derives the script that turns a window into a given rewrite (training targets,
from the graph-guided eraser's rewrite), word by word, with anchors widened until they are
unique in the window.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.eraser4rag.erasers.sentences import split_at_stops

CUT = "CUT"
DELETE = "DEL"
REPLACE = "REP"
BY = "BY"
KEEP = "KEEP"
KEYWORDS = (CUT, DELETE, REPLACE, BY, KEEP)
# An erasing replacement is shorter than its anchor (20 characters shorter at the median of the
# 537 REP lines of the dev SFT data); it is longer only by the words a derived script joins to an
# insertion ("REP an / BY a stage"), 38 characters at most there. Past this slack the model is
# writing new text, which an eraser has no reason to do.
REPLACEMENT_EXTRA_CHARS = 48
_WORD = re.compile(r"\S+")
_KEYWORD_WORD = re.compile(r"\b(?:" + "|".join(KEYWORDS) + r")\b")
_CLOSING = " ,.;:!?)]\n"


class ScriptError(ValueError):
    """An edit script that does not parse or does not apply to its window; `kind` names the
    rule it breaks in a few words (for counts), the message says where and how."""

    def __init__(self, message: str, kind: str = "does not parse") -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Edit:
    anchor: str
    replacement: str = ""  # "" deletes the anchor
    sentence: bool = False  # CUT: delete the whole sentence holding the anchor
    line: int = field(default=0, compare=False)  # the script line that wrote it (for messages)


def is_word_boundary(text: str, position: int) -> bool:
    """True where a whitespace-separated word of `text` starts or ends: an anchor is a run of
    whole words as `script_for` writes every training anchor, so "autho" (of "authored"), the
    "(" of "(Project" and the "-" of "Jersey-based" are not anchors."""
    if position <= 0 or position >= len(text):
        return True
    return text[position - 1].isspace() or text[position].isspace()


def max_replacement_chars(anchor: str) -> int:
    """The longest replacement a REP line of `anchor` may have."""
    return len(anchor) + REPLACEMENT_EXTRA_CHARS


def format_script(edits: Sequence[Edit]) -> str:
    """The script's text, one line per deletion and two per replacement; KEEP for none."""
    if not edits:
        return KEEP + "\n"
    lines = []
    for edit in edits:
        if edit.sentence:
            lines.append(f"{CUT} {edit.anchor}")
        elif edit.replacement:
            lines += [f"{REPLACE} {edit.anchor}", f"{BY} {edit.replacement}"]
        else:
            lines.append(f"{DELETE} {edit.anchor}")
    return "\n".join(lines) + "\n"


def parse_script(text: str) -> list[Edit]:
    """The edits of a script; ScriptError naming the line that does not parse."""
    lines = [(n, line.strip()) for n, line in enumerate(text.strip().splitlines(), start=1) if line.strip()]
    if not lines:
        raise ScriptError("the model wrote an empty script")
    if [line for _n, line in lines] == [KEEP]:
        return []
    edits: list[Edit] = []
    index = 0
    while index < len(lines):
        number, line = lines[index]
        keyword, _, anchor = line.partition(" ")
        anchor = anchor.strip()
        if keyword == CUT and anchor:
            edits.append(Edit(anchor, sentence=True, line=number))
        elif keyword == DELETE and anchor:
            edits.append(Edit(anchor, line=number))
        elif keyword == REPLACE and anchor:
            following = lines[index + 1] if index + 1 < len(lines) else (number + 1, "")
            edits.append(Edit(anchor, _replacement(anchor, *following), line=number))
            index += 1
        elif keyword == BY:
            raise ScriptError(
                f"script line {number}: a second BY line, or BY without REP: {line!r}", "a stray BY line"
            )
        else:
            raise ScriptError(f"script line {number}: expected CUT, DEL or REP and a text, got {line!r}")
        index += 1
    return edits


def _replacement(anchor: str, number: int, line: str) -> str:
    """The text of the BY line that follows `REP anchor`; ScriptError when it is missing, repeats
    a keyword or is too long."""
    by, _, replacement = line.partition(" ")
    if by != BY:
        raise ScriptError(f"script line {number}: expected 'BY <text>' after 'REP {anchor}'")
    replacement = replacement.strip()
    repeated = _KEYWORD_WORD.search(replacement)
    if repeated:
        raise ScriptError(
            f"script line {number}: the replacement repeats the keyword {repeated.group()!r}: {line!r}",
            "a keyword in a replacement",
        )
    if len(replacement) > max_replacement_chars(anchor):
        raise ScriptError(
            f"script line {number}: a replacement of {len(replacement)} characters for an anchor of "
            f"{len(anchor)} (at most {REPLACEMENT_EXTRA_CHARS} more)",
            "a replacement too long",
        )
    return replacement


def apply_script(window: str, edits: Sequence[Edit]) -> str:
    """The window with the edits applied, each line's anchor at its first occurrence that
    overlaps no earlier line's edit; ScriptError when an anchor is missing or has no such
    occurrence (written again where it occurs once, or inside an earlier CUT's sentence)."""
    spans: list[tuple[int, int, str]] = []
    for edit in edits:
        spans.append(edit_span(window, edit, [(start, end) for start, end, _r in spans]))
    text = window
    for start, end, replacement in sorted(spans, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text.strip()


def edit_span(window: str, edit: Edit, taken: Sequence[tuple[int, int]] = ()) -> tuple[int, int, str]:
    """(start, end, replacement) of what `edit` changes in `window`: the first whole-word
    occurrence of its anchor whose span overlaps none of `taken` (the earlier lines' spans),
    its sentence for CUT, a deletion with one neighbouring space. ScriptError when the anchor
    is not a whole-word span of the window, or every occurrence overlaps an earlier edit."""
    occurrences = whole_word_positions(window, edit.anchor)
    if not occurrences:
        why, kind = _why_not_found(window, edit.anchor)
        raise ScriptError(f"{_where(edit)}anchor {edit.anchor!r} {why}", kind)
    for start in occurrences:
        if edit.sentence:
            span = _sentence_around(window, start)
        else:
            span = _widened(window, start, start + len(edit.anchor), edit.replacement, taken)
        if not any(span[0] < end and start_ < span[1] for start_, end in taken):
            return span
    raise ScriptError(
        f"{_where(edit)}anchor {edit.anchor!r} overlaps what an earlier line of the script changes",
        "overlapping anchors",
    )


def whole_word_positions(window: str, anchor: str) -> list[int]:
    """Where `anchor` occurs in `window` as a whole-word span, first to last."""
    found = []
    start = window.find(anchor)
    while start >= 0:
        if is_word_boundary(window, start) and is_word_boundary(window, start + len(anchor)):
            found.append(start)
        start = window.find(anchor, start + 1)
    return found


def _why_not_found(window: str, anchor: str) -> tuple[str, str]:
    start = window.find(anchor)
    if start < 0:
        return "is not in the window", "an anchor not in the window"
    left = start
    while left > 0 and not is_word_boundary(window, left):
        left -= 1
    right = start + len(anchor)
    while right < len(window) and not is_word_boundary(window, right):
        right += 1
    return (
        f"starts or ends inside a word (the window has {window[left:right]!r})",
        "an anchor inside a word",
    )


def _where(edit: Edit) -> str:
    return f"script line {edit.line}: " if edit.line else ""


def _sentence_around(window: str, position: int) -> tuple[int, int, str]:
    start = 0
    for sentence in split_at_stops(window):
        if start <= position < start + len(sentence):
            return start, start + len(sentence), ""
        start += len(sentence)
    return start, len(window), ""


def _widened(
    window: str, start: int, end: int, replacement: str, taken: Sequence[tuple[int, int]] = ()
) -> tuple[int, int, str]:
    """A deletion takes one neighbouring space with it (before a closing mark: the space
    before), unless an earlier edit (`taken`) already took that space."""
    if replacement:
        return start, end, replacement
    candidates = []
    if start > 0 and window[start - 1] == " " and (end == len(window) or window[end] in _CLOSING):
        candidates.append((start - 1, end))
    if end < len(window) and window[end] == " ":
        candidates.append((start, end + 1))
    for first, last in candidates:
        if not any(first < other_end and other_start < last for other_start, other_end in taken):
            return first, last, ""
    return start, end, ""


def script_for(window: str, rewrite: str) -> list[Edit]:
    """Edits that turn `window` into `rewrite` word by word (insertions join a neighbouring
    word); every anchor is unique in the window."""
    before = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(window)]
    after = [m.group() for m in _WORD.finditer(rewrite)]
    matcher = difflib.SequenceMatcher(None, [w for w, _s, _e in before], after, autojunk=False)
    sentence_of = _sentence_numbers(window, before)
    edits: list[Edit] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "delete":
            edits += _deletions(window, before, sentence_of, i1, i2)
            continue
        inserted = " ".join(after[j1:j2])
        if i1 == i2:  # pure insertion: anchor on the word before (or after, at the start)
            if not before:
                continue
            if i1 > 0:
                i1, inserted = i1 - 1, f"{before[i1 - 1][0]} {inserted}"
            else:
                i2, inserted = 1, f"{inserted} {before[0][0]}"
        edits.append(_unique(window, before, i1, i2, inserted))
    return edits


def _sentence_numbers(window: str, words: list[tuple[str, int, int]]) -> list[int]:
    ends = []
    position = 0
    for sentence in split_at_stops(window):
        position += len(sentence)
        ends.append(position)
    return [next(n for n, end in enumerate(ends) if start < end) for _w, start, _e in words]


def _deletions(
    window: str, words: list[tuple[str, int, int]], sentence_of: list[int], first: int, last: int
) -> list[Edit]:
    """Deleting words[first:last]: one CUT per whole sentence inside, DEL for the rest."""
    edits: list[Edit] = []
    run_start = first
    for number in sorted(set(sentence_of[first:last])):
        members = [k for k, s in enumerate(sentence_of) if s == number]
        if members[0] >= first and members[-1] < last:
            if run_start < members[0]:
                edits.append(_unique(window, words, run_start, members[0], ""))
            edits.append(_cut(window, words, members))
            run_start = members[-1] + 1
    if run_start < last:
        edits.append(_unique(window, words, run_start, last, ""))
    return edits


def _cut(window: str, words: list[tuple[str, int, int]], members: list[int]) -> Edit:
    """CUT anchored by the shortest run of the sentence's first words (two at least) that is unique."""
    for count in range(min(2, len(members)), len(members) + 1):
        anchor = window[words[members[0]][1] : words[members[count - 1]][2]]
        if window.count(anchor) == 1:
            return Edit(anchor, sentence=True)
    return Edit(window[words[members[0]][1] : words[members[-1]][2]], sentence=True)


def _unique(window: str, words: list[tuple[str, int, int]], first: int, last: int, replacement: str) -> Edit:
    """The edit of words[first:last], its anchor widened by neighbouring words until unique."""
    left, right = first, last
    while True:
        start, end = words[left][1], words[right - 1][2]
        anchor = window[start:end]
        if window.count(anchor) == 1 and window.find(anchor) == start:
            break
        if left == 0 and right == len(words):
            break
        if right < len(words):
            right += 1
        else:
            left -= 1
    prefix = window[words[left][1] : words[first][1]] if left < first else ""
    suffix = window[words[last - 1][2] : words[right - 1][2]] if right > last else ""
    replacement = _joined(prefix, replacement, suffix)
    return Edit(anchor, replacement)


def _joined(prefix: str, middle: str, suffix: str) -> str:
    if not prefix and not suffix:
        return middle
    text = prefix.rstrip() + (" " + middle if middle else "")
    if suffix:
        stripped = suffix.lstrip()
        glue = "" if not middle and stripped[:1] in tuple(_CLOSING.strip()) and not prefix else " "
        text = (text + glue + stripped) if text else stripped
    text = re.sub(r" +([,.;:!?)])", r"\1", text.strip())
    return text
