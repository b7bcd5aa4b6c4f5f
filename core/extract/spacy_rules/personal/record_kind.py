"""Is a text a personal record (a form, note, message, letter, file about someone) or ordinary prose
such as an encyclopedic passage? Personal records get every personal-data value as a node and their
sensitive attributes; other prose only identifiers (phone numbers, e-mails, cards, ...), since the
sentence rules own its names, places, dates and conditions (a biography's date of birth is already
a triple, a place they refused to attach for want of a certain subject stays unattached, and the
extraction benchmark's figures on Wikipedia must not drop).

A record shows itself by what it holds, not by its length or title: it speaks in the first or
second person, greets, holds "Key:" lines, opens as a record's genre does ("Patient ...", "Incident
report:"), names a personal-identity field ("maiden name", "date of
birth"), or holds an identifier or a street address (`in_record_detections`). Names, places, dates,
ages and illnesses alone are no evidence: biographies have them too. Untitled texts and files
without evidence are read halfway (`has_article_title`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from core.extract.spacy_rules.personal.forms import KEY_RELATIONS, form_fields, key_spans, relation_of_key
from core.extract.spacy_rules.personal.owners import SUBJECT_KEYS

_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”")
# Lower case anywhere ("i want", "my card"; a lone "i" before a lower-case word: "Mo i Rana" is a
# place), "I" before a lower-case word but not after a capitalised one ("World War I was", "James I
# had" are numerals), a capital "My"/"You"/"We" only where a sentence or line starts: inside a
# sentence it is a title's word ("starred in My Fair Lady"). "mine" is left out: a coal mine.
_FIRST_SECOND_PERSON = re.compile(
    r"\b(?:i(?=\s+[a-z])|i'm|i've|i'd|i'll|me|my|myself|we|our|ours|us|you|your|yours)\b"
    r"|(?<![A-Z][a-z])(?<![A-Z][a-z]{2})(?<![A-Z][a-z]{3})(?<![A-Z][a-z]{4})(?<![A-Z][a-z]{5})"
    r"(?<!\b[A-Z])\s\bI(?:'m|'ve|'d|'ll)?\b(?=\s+[a-z])"
    r"|^I\b|(?:^|[.!?]\s+|\n\s*)(?:My|Me|We|Our|You|Your)\b"
)
# A "Key:" line shows a record when its key names personal data ("Name:", "Phone:", "DOB:"), not any
# label ("Copa del Rey: 2009-10" in a footballer's honours).
PERSONAL_KEY_RELATIONS = frozenset(KEY_RELATIONS.values())
# One such word in a long text is a quotation; a record uses them throughout.
WORDS_PER_PERSONAL_WORD = 50
_IDENTITY_FIELD = re.compile(r"\b(?:maiden name|date of birth|birth ?date|d\.?o\.?b\b)", re.IGNORECASE)
# Words that name a record's genre or its subject's role in it ("Patient: ...", "Visit note",
# "Incident report:"), at the start of the text or of a line.
_RECORD_GENRE = re.compile(
    r"(?:^|\n)\s*(?:patient|client|customer|employee|tenant|applicant|claimant|policyholder|"
    r"case (?:summary|note|file)|visit note|incident report|intake|referral|discharge summary|"
    r"note from|reference for|performance review)\b",
    re.IGNORECASE,
)
_GREETING = re.compile(r"^\s*(?:dear|hi|hello|hey|good (?:morning|afternoon|evening))\b", re.IGNORECASE)
# Detector types whose presence makes a text a personal record. Not the studio's loose "ID" pattern
# ("STS-134") nor a bare street-address match ("1981 in Wheat Ridge", "10 km race walk"): an address
# counts when it spans lines (an address block) or follows "lives at", "send it to", "address".
RECORD_EVIDENCE_TYPES = frozenset(
    {
        "PHONE_NUMBER", "EMAIL_ADDRESS", "CREDIT_CARD", "IBAN_CODE", "US_SSN", "US_ITIN", "US_PASSPORT",
        "US_DRIVER_LICENSE", "US_BANK_NUMBER", "UK_NHS", "MEDICAL_LICENSE", "IP_ADDRESS",
    }
)  # fmt: skip
_SENTENCE_END = re.compile(r"[^\W\d_]{3,}\.$")
_ADDRESS_CUE = re.compile(
    r"\b(?:live|lives|lived|living|reside|resides|address|home|moved|send|sent|ship|deliver|mail|zip)\b[^.;!?]{0,40}$",
    re.IGNORECASE,
)


def speaks_personally(text: str) -> bool:
    """First or second person outside quotations, a greeting, a personal-identity field, a record's
    genre word ("Patient ...", "Incident report"), or a "Key:" line whose key names personal data."""
    unquoted = _QUOTED.sub(" ", text)
    personal_words = len(_FIRST_SECOND_PERSON.findall(unquoted))
    return bool(
        personal_words >= max(1, len(text.split()) // WORDS_PER_PERSONAL_WORD)
        or _GREETING.match(text)
        or _IDENTITY_FIELD.search(text)
        or _RECORD_GENRE.search(text)
        or any(_names_personal_data(key) for key in _keys(text))
    )


def _keys(text: str) -> list[str]:
    """Every key, a chat turn's "User:" after a question on the same line included."""
    return [key for _, _, key in key_spans(text)] + [item.key for item in form_fields(text)]


def _names_personal_data(key: str) -> bool:
    return key.casefold().strip() in SUBJECT_KEYS or relation_of_key(key) in PERSONAL_KEY_RELATIONS


def _is_address_block(value: str) -> bool:
    """Short lines, one under the other ("98 P.O. Box 101\\n Suite 242"), none ending a sentence
    ("2016 Logie Awards.\\n\\nOn 26" is two paragraphs)."""
    lines = [line.strip() for line in value.split("\n") if line.strip()]
    return len(lines) > 1 and all(len(line.split()) <= 6 and not _SENTENCE_END.search(line) for line in lines)


def in_record_detections(text: str, detections: Iterable[Any]) -> bool:
    """An identifier, or an address block or a stated address, among the detections."""
    return any(
        item.type in RECORD_EVIDENCE_TYPES
        or (
            item.type == "ADDRESS"
            and (
                _is_address_block(item.text)
                or _ADDRESS_CUE.search(text, 0, item.start)
                or _is_address_block(_lines_around(text, item.start, item.end))
            )
        )
        for item in detections
    )


def _lines_around(text: str, start: int, end: int) -> str:
    """The run of non-blank lines that holds `start`..`end` (a letterhead: name, job, firm, address)."""
    block_start = text.rfind("\n\n", 0, start)
    block_end = text.find("\n\n", end)
    return text[block_start + 2 if block_start >= 0 else 0 : block_end if block_end >= 0 else len(text)]


_FILE_NAME = re.compile(r"[_\\/]|\.\w{2,4}$|^\S*\d\S*$")


def has_article_title(title: str) -> bool:
    """A title such as an encyclopedia gives ("Edwin Ellis (musician)"), not none or a file name
    ("staff_0231", "note.txt", "record-12"). Untitled text and files are read as possible records:
    a name in them becomes a node even without other evidence, but a value nobody owns does not."""
    return bool(title.strip()) and not _FILE_NAME.search(title.strip())
