"""Sensitive attributes stated in running text: health (conditions, diagnoses, treatments,
medication, allergies, disabilities), money (salaries, debts), criminal and legal events, religion,
political and union membership, sexual orientation and ethnicity.

Each rule is a cue and the phrase it introduces ("diagnosed with type 2 diabetes" -> diagnosis
"type 2 diabetes"), or a listed term read with its own relation ("asthma" -> medical_condition, the
sentence rules' name, so one fact stays one triple). A
phrase ends at punctuation, a line break, a conjunction that starts a new clause or after
`MAX_PHRASE_WORDS` words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.aback.pii import MONEY_PATTERN

MAX_PHRASE_WORDS = 6
_PHRASE_STOP = re.compile(
    r"[.,;:!?()\n\"]|\s(?:and|but|which|who|that|since|because|after|before|when|while|so|for|in|on|at|"
    r"with|from|by|until|last|yesterday|today|daily|twice|once|every|per)\b",
    re.IGNORECASE,
)
_LEADING_ARTICLE = re.compile(r"(?:an?|the|his|her|their|my|our|some|acute|chronic)\s+", re.IGNORECASE)
_TRAILING_ORIGIN = re.compile(r"\s+(?:descent|origin|heritage|ancestry)$", re.IGNORECASE)


@dataclass(frozen=True)
class Attribute:
    relation: str
    start: int
    end: int
    value: str


def _cue(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern + r"\b", re.IGNORECASE)


_TREATMENT_WORDS = r"surgery|therapy|transplant|operation|chemotherapy|dialysis|ectomy|otomy|plasty"
_DOSE = r"\w+\s+\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|g|iu|units)\b"
_PARTY_AHEAD = r"(?=[\w ]{0,30}\b(?:Party|party)\b)"
_UNION_AHEAD = r"(?=[\w ]{0,30}\b(?:Union|union)\b)"

# (cue, relation): the phrase after the cue is the value.
PHRASE_CUES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (_cue(cue), relation)
    for cue, relation in (
        (r"\b(?:diagnosed|diagnosis of|diagnosed as having)\s+(?:with)?", "diagnosis"),
        (r"\b(?:suffers|suffering|suffered|suffer|recovering|recovered)\s+from", "medical_condition"),
        (r"\b(?:treated|treatment|being treated|hospitali[sz]ed|admitted)\s+for", "treated_for"),
        (rf"\b(?:underwent|undergoing|scheduled for|had)\s+(?:an?\s+)?(?=\w*(?:{_TREATMENT_WORDS}))",
         "treatment"),
        (rf"\b(?:prescribed|taking|takes|took|started on|is on)\s+(?={_DOSE})", "medication"),
        (r"\bprescribed", "medication"),
        (r"\ballergic\s+to", "allergy"),
        (r"\ballergy\s+to", "allergy"),
        (r"\b(?:arrested|detained)\s+for", "arrested_for"),
        (r"\bcharged\s+with", "charged_with"),
        (r"\b(?:convicted|found guilty)\s+of", "convicted_of"),
        (r"\b(?:sentenced)\s+to", "sentenced_to"),
        (r"\bindicted\s+(?:for|on)", "indicted_for"),
        (rf"\b(?:member of|joined|votes? for|voted for|supporter of|supports)\s+(?:the\s+)?{_PARTY_AHEAD}",
         "political_party"),
        (rf"\b(?:member of|joined|belongs to)\s+(?:the\s+)?{_UNION_AHEAD}", "union_membership"),
        (r"\bof\s+(?=[A-Z]\w+(?:[- ][A-Z]\w+)?\s+(?:descent|origin|heritage|ancestry)\b)", "ethnicity"),
    )
)  # fmt: skip

_CONDITIONS = (
    r"(?:type [12] )?diabetes|asthma|cancer|leuka?emia|lymphoma|tumou?r|hiv(?:/aids)?|aids|hepatitis [abc]"
    r"|tuberculosis|depression|anxiety(?: disorder)?|bipolar(?: disorder)?|schizophrenia|ptsd|ocd|adhd"
    r"|autism|epilepsy|hypertension|high blood pressure|dementia|alzheimer'?s(?: disease)?"
    r"|parkinson'?s(?: disease)?|multiple sclerosis|arthritis|migraines?|heart (?:disease|failure|attack)"
    r"|stroke|obesity|copd|covid(?:-19)?|pneumonia|anorexia|bulimia|eating disorder|substance abuse"
    r"|alcoholism|addiction|pregnant|pregnancy|miscarriage|infertility|concussion|fracture[sd]?|insomnia"
)
_DISABILITIES = (
    r"wheelchair(?: user)?|blind|deaf|hard of hearing|visually impaired|hearing impaired|paraly[sz]ed"
    r"|amputee|disabled|disability|dyslexia|learning disability"
)
_MARITAL = r"(?:married|divorced|widowed|separated|single)"
# (term, relation): a listed term is the value itself.
_TERMS: tuple[tuple[str, str], ...] = (
    (_CONDITIONS, "medical_condition"),
    (_DISABILITIES, "disability"),
    (r"bankrupt(?:cy)?|insolvent|foreclosure|evicted|eviction|repossessed|in arrears", "financial_event"),
    (
        r"criminal record|on probation|on parole|restraining order|incarcerated|in prison|in jail",
        "legal_status",
    ),
    (rf"(?<=\bis ){_MARITAL}|(?<=\bam ){_MARITAL}", "marital_status"),
)
TERMS = tuple((re.compile(rf"\b(?:{term})\b", re.IGNORECASE), relation) for term, relation in _TERMS)

# (word list, relation): the word after "is/am/a(n)/as" is the value ("she is Muslim").
_SELF_DESCRIBED = (
    (
        r"Muslim|Christian|Catholic|Protestant|Jewish|Jew|Hindu|Buddhist|Sikh|Mormon|Evangelical"
        r"|Orthodox|atheist|agnostic|Anglican|Baptist|Methodist|Lutheran|Shia|Sunni",
        "religion",
    ),
    (r"gay|lesbian|bisexual|homosexual|heterosexual|queer|asexual|pansexual", "sexual_orientation"),
    (r"transgender|trans|non-binary|nonbinary", "gender_identity"),
    (
        r"African[- ]American|Hispanic|Latino|Latina|Latinx|Caucasian|Roma|Romani|Aboriginal|Indigenous"
        r"|Native American|Pacific Islander|Black|White|Asian|Arab",
        "ethnicity",
    ),
)
_DESCRIBING = r"\b(?:is|am|are|was|as|identif(?:y|ies|ied) as|practising|practicing|devout)\s+"
_ARTICLE = r"(?:an?\s+|a\s+practising\s+|a\s+devout\s+)?"
_NOT_CUISINE = r"(?![- ]\w*(?:food|restaurant|cuisine|wine))"
SELF_DESCRIBED = tuple(
    (re.compile(rf"{_DESCRIBING}{_ARTICLE}(?P<v>{words})\b{_NOT_CUISINE}"), relation)
    for words, relation in _SELF_DESCRIBED
)

_WITHIN_30 = r"\b[^.;\n]{0,30}$"
_MONEY_CUES = (
    (
        re.compile(r"\b(?:salary|earns?|earning|earned|income|paid|wage|wages|pay)" + _WITHIN_30, re.I),
        "salary",
    ),
    (re.compile(r"\b(?:owes?|owed|owing|debt|loan|overdue|arrears|outstanding)" + _WITHIN_30, re.I), "debt"),
)


# Phrases that end at a known word: "the Liberal Party as well" -> "Liberal Party".
_ENDS_AT = {
    "political_party": re.compile(r"\b(?:Party|party)\b"),
    "union_membership": re.compile(r"\b(?:Union|union)\b"),
}


def _cut_at(text: str, bounds: tuple[int, int], end_word: re.Pattern[str]) -> tuple[int, int] | None:
    found = end_word.search(text, bounds[0], bounds[1])
    return (bounds[0], found.end()) if found else None


def phrase_after(text: str, start: int) -> tuple[int, int] | None:
    """The value phrase starting at `start`: up to a stop word or punctuation, at most a few words."""
    stop = _PHRASE_STOP.search(text, start)
    end = stop.start() if stop else len(text)
    words = list(re.finditer(r"\S+", text[start:end]))[:MAX_PHRASE_WORDS]
    if not words:
        return None
    phrase_start, phrase_end = start + words[0].start(), start + words[-1].end()
    while article := _LEADING_ARTICLE.match(text, phrase_start, phrase_end):
        phrase_start = article.end()
    if origin := _TRAILING_ORIGIN.search(text, phrase_start, phrase_end):
        phrase_end = origin.start()
    return (phrase_start, phrase_end) if phrase_end > phrase_start else None


def sensitive_attributes(text: str, in_record: bool = True) -> list[Attribute]:
    """Every sensitive attribute stated in `text`, the cue-introduced phrase winning over a listed
    term inside it. Listed terms alone ("cancer", "stroke") count only in a personal record: in an
    encyclopedic passage they name topics as often as someone's condition."""
    found: list[Attribute] = []
    for cue, relation in PHRASE_CUES:
        for match in cue.finditer(text):
            bounds = phrase_after(text, match.end())
            if bounds and relation in _ENDS_AT:
                bounds = _cut_at(text, bounds, _ENDS_AT[relation])
            if bounds and relation == "ethnicity":
                origin = re.search(r"\s+(?:descent|origin|heritage|ancestry)\b", text[bounds[0] : bounds[1]])
                bounds = (bounds[0], bounds[0] + origin.start()) if origin else bounds
            if bounds:
                found.append(Attribute(relation, *bounds, text[bounds[0] : bounds[1]]))
    for pattern, relation in TERMS if in_record else ():
        for match in pattern.finditer(text):
            found.append(Attribute(relation, match.start(), match.end(), match.group(0)))
    for pattern, relation in SELF_DESCRIBED:
        for match in pattern.finditer(text):
            found.append(Attribute(relation, match.start("v"), match.end("v"), match.group("v")))
    for match in MONEY_PATTERN.finditer(text):
        for cue, relation in _MONEY_CUES:
            if cue.search(text, max(0, match.start() - 60), match.start()):
                found.append(Attribute(relation, match.start(), match.end(), match.group(0)))
                break
    return _without_nested(found)


def _without_nested(found: list[Attribute]) -> list[Attribute]:
    kept: list[Attribute] = []
    for item in sorted(found, key=lambda a: (a.start, -(a.end - a.start))):
        if any(k.start <= item.start and item.end <= k.end for k in kept):
            continue
        kept.append(item)
    return kept
