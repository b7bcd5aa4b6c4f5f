"""Forms and key-value records: "Key: value" lines (several on a line when set apart by a tab, two
spaces, "|" or ";"), headers whose value is the block under them, and multi-line address blocks.

A value ends at its line unless its key names an address or it is a header ("Address:" alone on its
line); then the next lines join it up to a blank line or the next "Key:" line, so a value never
swallows the next line's key. A value of more than `MAX_VALUE_WORDS` words, or a question, is prose after a
label ("Notes: the patient reported ...", "Bot: What's your name?"), not a field; a chat line's
"User: ..." after a sentence end starts a field of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from core.types import Triple, normalize_entity, normalize_relation

MAX_KEY_WORDS = 5
MAX_VALUE_WORDS = 14
MAX_CONTINUATION_LINES = 4
_KEY_LINE = re.compile(
    r"^[ \t>*•-]*(?P<key>[^\W\d_][\w /&()'.#-]{0,38}?)[ \t]*:(?!//)[ \t]*(?P<value>[^\n]*)$", re.MULTILINE
)
_NEXT_FIELD = re.compile(
    r"(?:[ \t]{2,}|\t|[ \t]*[|;][ \t]*|(?<=[.?!])[ \t]+)(?=[^\W\d_][\w /'.-]{0,30}:[ \t])"
)
_NOT_KEYS = frozenset({"http", "https", "mailto", "ftp", "re", "fw", "fwd", "note", "nb", "ps"})
# A full stop after a word of 3+ letters, before a capitalised word: the value's sentence ends there
# ("St. Anne's" and "Dr. Hansen" do not end one).
_SENTENCE_END = re.compile(r"(?<=[^\W\d_]{3})\.(?=[ \t]+[A-Z])")
_ADDRESS_KEY = re.compile(r"address|residence|street|domicile|location", re.IGNORECASE)

KEY_RELATIONS: dict[str, str] = {
    **dict.fromkeys(
        ("dob", "d.o.b", "date of birth", "birth date", "birthdate", "birthday", "born"), "date_of_birth"
    ),
    **dict.fromkeys(("place of birth", "birthplace", "birth place"), "place_of_birth"),
    **dict.fromkeys(
        (
            "phone",
            "tel",
            "telephone",
            "phone number",
            "telephone number",
            "mobile",
            "cell",
            "cell phone",
            "mobile phone",
            "mobile number",
            "home phone",
            "contact number",
            "contact phone",
        ),
        "phone",
    ),
    **dict.fromkeys(("work phone", "office phone", "work number"), "work_phone"),
    **dict.fromkeys(("email", "e-mail", "email address", "e-mail address", "mail"), "email"),
    **dict.fromkeys(("address", "postal address", "mailing address", "street address"), "address"),
    **dict.fromkeys(("home address", "residence", "home", "domicile", "lives at", "lives in"), "residence"),
    **dict.fromkeys(("work address", "office address", "office"), "work_address"),
    **dict.fromkeys(("ssn", "social security number", "social security no", "social security"), "ssn"),
    **dict.fromkeys(("passport", "passport no", "passport number"), "passport_number"),
    **dict.fromkeys(
        (
            "driver's license",
            "drivers license",
            "driving licence",
            "driver license",
            "licence number",
            "license number",
        ),
        "driver_license",
    ),
    **dict.fromkeys(("iban",), "iban"),
    **dict.fromkeys(("card", "card number", "credit card", "card no", "credit card number"), "card_number"),
    **dict.fromkeys(("account", "account number", "account no", "bank account"), "account_number"),
    **dict.fromkeys(
        ("employer", "company", "organisation", "organization", "works at", "works for"), "employer"
    ),
    **dict.fromkeys(("department", "dept", "division", "team", "unit"), "department"),
    **dict.fromkeys(
        ("manager", "line manager", "supervisor", "reports to", "reporting to", "boss"), "manager"
    ),
    **dict.fromkeys(
        ("job title", "title", "position", "role", "occupation", "job", "profession"), "job_title"
    ),
    **dict.fromkeys(
        (
            "diagnosis",
            "diagnoses",
            "condition",
            "conditions",
            "medical condition",
            "medical history",
            "illness",
        ),
        "diagnosis",
    ),
    **dict.fromkeys(
        ("medication", "medications", "medicine", "prescription", "prescriptions", "drugs"), "medication"
    ),
    **dict.fromkeys(("allergy", "allergies", "known allergies"), "allergy"),
    **dict.fromkeys(("treatment", "therapy", "procedure"), "treatment"),
    **dict.fromkeys(("disability", "disabilities"), "disability"),
    **dict.fromkeys(
        ("doctor", "physician", "gp", "general practitioner", "attending physician", "treating physician"),
        "doctor",
    ),
    **dict.fromkeys(("emergency contact", "in case of emergency", "ice"), "emergency_contact"),
    **dict.fromkeys(("next of kin", "nok"), "next_of_kin"),
    **dict.fromkeys(("spouse", "husband", "wife", "partner"), "spouse"),
    **dict.fromkeys(("children", "child", "dependants", "dependents"), "child"),
    **dict.fromkeys(("religion", "faith", "religious affiliation"), "religion"),
    **dict.fromkeys(("ethnicity", "ethnic origin", "race"), "ethnicity"),
    **dict.fromkeys(("nationality", "citizenship"), "nationality"),
    **dict.fromkeys(("gender", "sex"), "gender"),
    **dict.fromkeys(("age",), "age"),
    **dict.fromkeys(("marital status", "civil status"), "marital_status"),
    **dict.fromkeys(
        ("salary", "annual salary", "base salary", "pay", "income", "wage", "compensation"), "salary"
    ),
    **dict.fromkeys(("debt", "outstanding balance", "amount owed", "balance due", "arrears"), "debt"),
    **dict.fromkeys(
        ("employee id", "staff id", "employee no", "employee number", "staff number", "personnel number"),
        "employee_id",
    ),
    **dict.fromkeys(("patient id", "mrn", "medical record number", "patient number"), "patient_id"),
    **dict.fromkeys(("policy number", "policy no", "policy"), "policy_number"),
    **dict.fromkeys(("blood type", "blood group"), "blood_type"),
    **dict.fromkeys(("sexual orientation", "orientation"), "sexual_orientation"),
    **dict.fromkeys(("political party", "party affiliation", "political affiliation"), "political_party"),
    **dict.fromkeys(("union", "union membership", "trade union"), "union_membership"),
    **dict.fromkeys(("criminal record", "convictions", "offence", "offense", "charges"), "criminal_record"),
    **dict.fromkeys(("start date", "hire date", "date of hire", "joined"), "start_date"),
    **dict.fromkeys(("ip", "ip address"), "ip_address"),
    **dict.fromkeys(("website", "url", "web"), "website"),
    **dict.fromkeys(("username", "user name", "login", "user id"), "username"),
    **dict.fromkeys(("nickname", "known as", "alias"), "nickname"),
    **dict.fromkeys(("maiden name", "birth name", "née"), "maiden_name"),
    **dict.fromkeys(
        ("national id", "id number", "id", "national insurance number", "ni number"), "id_number"
    ),
    **dict.fromkeys(("tax id", "tin", "tax number"), "tax_id"),
    **dict.fromkeys(("license plate", "licence plate", "plate", "registration"), "license_plate"),
}


@dataclass(frozen=True)
class Field:
    key: str
    value: str
    key_start: int
    start: int  # value start in the text
    end: int  # value end in the text

    @property
    def relation(self) -> str:
        return relation_of_key(self.key)


def relation_of_key(key: str) -> str:
    """The relation a key names; a key that ends in a known one takes it ("Here's my SSN" -> ssn)."""
    words = key.casefold().replace("_", " ").rstrip(".").split()
    for start in range(len(words)):
        if relation := KEY_RELATIONS.get(" ".join(words[start:])):
            return relation
    return normalize_relation(" ".join(words))


def is_key(key: str) -> bool:
    words = key.split()
    return 0 < len(words) <= MAX_KEY_WORDS and key.casefold().strip() not in _NOT_KEYS


def form_fields(text: str) -> list[Field]:
    """Every "Key: value" field of `text`, in order; headers take the block under them."""
    fields: list[Field] = []
    key_lines = [m for m in _KEY_LINE.finditer(text) if is_key(m.group("key"))]
    key_line_starts = {m.start() for m in key_lines}
    for match in key_lines:
        fields.extend(_fields_of_line(text, match, key_line_starts))
    return [f for f in fields if _is_field_value(f.value)]


def _is_field_value(value: str) -> bool:
    """A short value that is no question, exclamation or sentence ("Bot: What's the name on the
    account?", "Comments: Rahul asked for leave.")."""
    words = len(value.split())
    is_sentence = value.endswith(".") and words >= 6
    return bool(value) and words <= MAX_VALUE_WORDS and not value.endswith(("?", "!")) and not is_sentence


def key_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, key) of every field key, including those of prose values."""
    return [
        (m.start("key"), m.end("key"), m.group("key"))
        for m in _KEY_LINE.finditer(text)
        if is_key(m.group("key"))
    ]


def _fields_of_line(text: str, match: re.Match[str], key_line_starts: set[int]) -> Iterator[Field]:
    key, key_start = match.group("key"), match.start("key")
    start, end = match.start("value"), match.end("value")
    cut = _NEXT_FIELD.search(text, start, end)
    if cut is not None:  # "Name: Anna Berg    DOB: 1/2/1980": the rest of the line is more fields
        yield from _same_line_fields(text, key, key_start, start, end)
        return
    if not text[start:end].strip() or _ADDRESS_KEY.search(key):
        end = _continued_end(text, end, key_line_starts)
    if sentence_end := _SENTENCE_END.search(text, start, end):  # "Supervisor: Hana Dvořák. Viktor was ..."
        end = sentence_end.start()
    value_start = start + len(text[start:end]) - len(text[start:end].lstrip())
    value = text[value_start:end].strip()
    yield Field(key.strip(), value, key_start, value_start, value_start + len(value))


def _same_line_fields(text: str, key: str, key_start: int, start: int, end: int) -> Iterator[Field]:
    line = text[start:end]
    pieces = _NEXT_FIELD.split(line)
    offset = start
    current_key, current_key_start = key, key_start
    for index, piece in enumerate(pieces):
        piece_start = text.index(piece, offset) if piece else offset
        offset = piece_start + len(piece)
        if index > 0:
            current_key, _, rest = piece.partition(":")
            current_key_start = piece_start
            if not is_key(current_key):
                continue
            piece_start += len(current_key) + 1
            piece = rest
        value = piece.strip()
        value_start = piece_start + len(piece) - len(piece.lstrip())
        yield Field(current_key.strip(), value, current_key_start, value_start, value_start + len(value))


def _continued_end(text: str, end: int, key_line_starts: set[int]) -> int:
    """End of a value that goes on over the next lines, up to a blank line or the next key line."""
    position = end
    for _ in range(MAX_CONTINUATION_LINES):
        if position >= len(text) or text[position] != "\n":
            break
        next_start = position + 1
        next_end = text.find("\n", next_start)
        next_end = len(text) if next_end < 0 else next_end
        if not text[next_start:next_end].strip() or next_start in key_line_starts:
            break
        if any(next_start <= s < next_end for s in key_line_starts):
            break
        position = next_end
    return position


def crosses_fields(triple: Triple, text: str, keys: list[tuple[int, int, str]]) -> bool:
    """A sentence-rule triple read across form fields: its sentence runs over a field's key, or a
    node holds a line break or a key ("Emergency contact" as an occupation)."""
    if not keys:
        return False
    if "\n" in triple.head or "\n" in triple.tail:
        return True
    start, end = triple.span
    if any(start < key_start < end for key_start, _, _ in keys):
        return True
    key_names = {normalize_entity(key) for _, _, key in keys}
    return any(_holds_key(normalize_entity(node), key_names) for node in (triple.head, triple.tail))


def _holds_key(node: str, key_names: set[str]) -> bool:
    return node in key_names or any(
        re.search(rf"\b{re.escape(name)}\b", node) for name in key_names if len(name) > 3
    )
