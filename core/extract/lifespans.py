"""Birth and death facts from the parenthesis after a name, as encyclopedias write them.

    (born 12 May 1950)            -> date_of_birth 12 May 1950
    (born 1964 in Turin)          -> date_of_birth 1964, place_of_birth Turin
    (1871–1951), (c. 1554 – 1598) -> date_of_birth 1871, date_of_death 1951
    (16 June 1839, in Blackburn – 25 June 1887) -> ..., place_of_birth Blackburn
    (Palermo, 11 August 1970)     -> place_of_birth Palermo, date_of_birth 11 August 1970
    (died 3 May 1901 in Lyon)     -> date_of_death, place_of_death
    (1891)                        -> nothing: a lone year is a work's date in a citation
    (fl. 1558 – 1595)             -> work_period_start 1558, work_period_end 1595: the years
                                     someone was active, no birth or death
    (Russian: Иван Петров; born 5 May 1950) -> date_of_birth: the native name is passed over

`parse_parenthetical(text)` returns (property, value, start, end) with the value's character
offsets in `text`; it reads nothing when the parenthesis holds no date (an acronym, a
native-script name) and never guesses a place that is not capitalised.
"""

from __future__ import annotations

import re

_MONTHS = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?"
)
DATE = re.compile(
    rf"\b(?:\d{{1,2}}\s+{_MONTHS}\s+\d{{3,4}}"  # 12 May 1950
    rf"|{_MONTHS}\s+\d{{1,2}},?\s+\d{{3,4}}"  # May 12, 1950
    rf"|{_MONTHS}\s+\d{{3,4}}"  # May 1950
    r"|\d{1,2}/\d{1,2}/\d{4}"  # 04/02/1966
    r"|\d{3,4}(?:s\b)?)(?!\d)"  # 1950, 1950s
)
_DASH = re.compile(r"\s*(?:–|—|-|\bto\b)\s*")
_BORN = re.compile(r"^\s*(?:born|b\.)\s+", re.I)
_DIED = re.compile(r"(?:^|[,;]\s*|\s)(?:died|d\.)\s+", re.I)
_QUALIFIERS = re.compile(r"\b(?:c\.|ca\.|circa|probably|possibly|about|around|before|after)\s*", re.I)
_FLORUIT = re.compile(r"^\s*(?:fl\.|flourished|active)\s", re.I)
_PLACE_WORDS = re.compile(r"^(?:[,\s]|\b(?:in|at|on|near|and)\b)+|(?:[,\s]|\b(?:in|at|on)\b)+$", re.I)
_PLACE = re.compile(
    r"^[A-Z][\w.'’-]*(?:[ ,]+(?:[A-Z][\w.'’-]*|de|del|di|da|von|van|upon|on|of|the|la|le)){0,5}$"
)
_BARE_YEAR = re.compile(r"^\d{3,4}s?$")
_UNKNOWN = re.compile(r"\b(?:unknown|uncertain)\b", re.I)

Fact = tuple[str, str, int, int]


def parse_parenthetical(text: str) -> list[Fact]:
    """Birth and death facts stated in a parenthesis's inner text (offsets into `text`).

    "born" before capitalised words and no date ("born David Wilson; 29 November 1948") gives a
    `place_of_birth` that the caller turns into a `birth_name` when the tagger calls it a person.
    Statements without a date before the lifespan ("Russian: Иван Петров; born 5 May 1950",
    "pronounced ...; 1820 – 1895") are passed over.
    """
    start = _lifespan_clause_start(text)
    return [(prop, value, s + start, e + start) for prop, value, s, e in _parse_lifespan(text[start:])]


def _lifespan_clause_start(text: str) -> int:
    """Where the first ";"-separated statement holding a date or "born"/"died" begins."""
    start = 0
    for clause in text.split(";"):
        if DATE.search(clause) or _BORN.match(clause) or _DIED.search(clause):
            return start + len(clause) - len(clause.lstrip())
        start += len(clause) + 1
    return 0


def _parse_lifespan(text: str) -> list[Fact]:
    born = _BORN.match(text)
    floruit = _FLORUIT.match(text)
    if floruit:
        return _floruit(text, floruit.end())
    if not DATE.search(text) and not born:
        return []
    first_clause_end = _first_clause_end(text)
    died = _DIED.search(text)
    if born:
        end = died.start() if died else first_clause_end
        facts = _side(text, born.end(), end, "birth")
        if died:
            facts += _side(text, died.end(), len(text), "death")
        elif facts and facts[0][0] == "place_of_birth" and first_clause_end < len(text):
            # "born David Wilson; 29 November 1948": the date after the name is the birth date
            facts += _side(text, first_clause_end + 1, len(text), "birth")[:1]
        return facts
    if (died and died.start() == 0) or (died and not DATE.search(text[: died.start()])):
        return _side(text, died.end(), first_clause_end, "death")
    dash = _lifespan_dash(text, first_clause_end)
    if dash is not None:
        return _side(text, 0, dash.start(), "birth") + _side(text, dash.end(), first_clause_end, "death")
    facts = _side(text, 0, first_clause_end, "birth")
    if len(facts) == 1 and _BARE_YEAR.match(facts[0][1]):
        return []  # "Benjamin Daydon Jackson (1891)": a bibliography's year, no birth
    return facts


def _floruit(text: str, start: int) -> list[Fact]:
    """ "fl. 1558 – 1595": the years someone was active (work_period_start/end), no birth or death."""
    end = _first_clause_end(text)
    dash = _lifespan_dash(text, end)
    if dash is None:
        date = DATE.search(text, start, end)
        return [("floruit", date.group(0), date.start(), date.end())] if date else []
    first, last = DATE.search(text, start, dash.start()), DATE.search(text, dash.end(), end)
    if first is None or last is None:
        return []
    return [
        ("work_period_start", first.group(0), first.start(), first.end()),
        ("work_period_end", last.group(0), last.start(), last.end()),
    ]


def _first_clause_end(text: str) -> int:
    """Where a second statement ("; a.k.a. ...", ", date of death unknown") begins."""
    end = len(text)
    semicolon = text.find(";")
    if semicolon >= 0:
        end = semicolon
    unknown = _UNKNOWN.search(text, 0, end)
    if unknown:
        comma = text.rfind(",", 0, unknown.start())
        end = comma if comma >= 0 else unknown.start()
    return end


def _lifespan_dash(text: str, end: int) -> re.Match[str] | None:
    """The dash between a birth and a death date: both sides hold a date."""
    for dash in _DASH.finditer(text, 0, end):
        if DATE.search(text, 0, dash.start()) and DATE.search(text, dash.end(), end):
            return dash
    return None


def _side(text: str, start: int, end: int, event: str) -> list[Fact]:
    """The date and the place of one side ("16 June 1839, in Blackburn")."""
    if _UNKNOWN.search(text, start, end):
        return []
    facts: list[Fact] = []
    date = DATE.search(text, start, end)
    if date is not None:
        facts.append((f"date_of_{event}", date.group(0), date.start(), date.end()))
        rests = [(start, date.start()), (date.end(), end)]
    else:
        rests = [(start, end)]
    for rest_start, rest_end in rests:
        place = _place(text, rest_start, rest_end)
        if place is not None:
            facts.append((f"place_of_{event}", *place))
            break
    return facts


def _place(text: str, start: int, end: int) -> tuple[str, int, int] | None:
    chunk = text[start:end]
    cleaned = _QUALIFIERS.sub(lambda m: " " * len(m.group(0)), chunk)
    stripped = _PLACE_WORDS.sub("", cleaned.strip())
    if not stripped or not _PLACE.match(stripped):
        return None
    offset = start + chunk.find(stripped) if stripped in chunk else start
    return stripped, offset, offset + len(stripped)
