"""Relations for the personal-data values the PII detector finds (`core.aback.pii`), named from the
value's type and the words before it in its clause ("born on" + a date -> `date_of_birth`, "send it
to" + an address -> `mailing_address`, "works at" + an organisation -> `employer`).
"""

from __future__ import annotations

import re

# Types whose value identifies or reaches a person wherever it occurs: kept in any document.
IDENTIFIER_TYPES: dict[str, str] = {
    "PHONE_NUMBER": "phone",
    "EMAIL_ADDRESS": "email",
    "CREDIT_CARD": "card_number",
    "IBAN_CODE": "iban",
    "US_SSN": "ssn",
    "US_ITIN": "tax_id",
    "US_PASSPORT": "passport_number",
    "US_DRIVER_LICENSE": "driver_license",
    "US_BANK_NUMBER": "bank_account",
    "UK_NHS": "nhs_number",
    "MEDICAL_LICENSE": "medical_license",
    "IP_ADDRESS": "ip_address",
    "ID": "id_number",
    "CRYPTO": "crypto_wallet",
}
# Types read as personal data only in a personal record (in an encyclopedic passage the sentence
# rules own names, places, organisations and dates).
RECORD_TYPES: dict[str, str] = {
    "ADDRESS": "address",
    "LOCATION": "location",
    "ORGANIZATION": "organization",
    "DATE_TIME": "date",
    "URL": "website",
    "DOMAIN_NAME": "website",
    "MONEY": "amount",
    "AGE": "age",
    "TITLE": "title",
}

# Presidio's guesses for a bare run of digits: the words before it say which number it is.
_NUMBER_TYPES = "ID US_DRIVER_LICENSE US_PASSPORT US_BANK_NUMBER"
# (types, cue before the value in its clause, relation): the first that matches names the relation. A
# cue may be up to `_GAP` before the value ("born on Monday, 12 May"); one that ends in "$" is right
# before it ("is from Haiti", not "songwriters from around the world to Texas").
_GAP = r"[^.;!?\n]{0,40}$"
_CUES: tuple[tuple[frozenset[str], re.Pattern[str], str], ...] = tuple(
    (frozenset(types.split()), re.compile(cue if cue.endswith("$") else cue + _GAP, re.IGNORECASE), relation)
    for types, cue, relation in (
        ("DATE_TIME", r"\b(?:born|birth|birthday|dob|d\.o\.b)\b", "date_of_birth"),
        ("DATE_TIME", r"\b(?:hired|joined|started|employed since|start date)\b", "start_date"),
        ("DATE_TIME", r"\b(?:admitted|discharged|appointment|surgery|visit)\b", "medical_date"),
        ("LOCATION ADDRESS", r"\bborn\b", "place_of_birth"),
        (  # "She moved here from Haiti": where she came from, not where she lives
            "LOCATION",
            r"\b(?:moved|relocated|came|emigrated|immigrated)\b[^.;!?\n]{0,30}\bfrom\s+(?:the\s+)?$",
            "place_of_origin",
        ),
        (
            "LOCATION ADDRESS",
            r"\b(?:live|lives|lived|living|reside|resides|resident|home|moved|relocated|stay|staying)\b",
            "residence",
        ),
        (
            "ADDRESS",
            r"\b(?:send|sent|ship|shipped|deliver|delivered|mail|mailed|post|forward)\b",
            "mailing_address",
        ),
        ("ADDRESS LOCATION", r"\b(?:office|work|works|working|workplace)\b", "work_location"),
        ("LOCATION", r"\b(?:native of|grew up)\b", "place_of_origin"),
        (  # "a performer from Algiers, Algeria": right after "from", or after a place and a comma
            "LOCATION",
            r"\bfrom\s+(?:the\s+)?(?:[^\W\d_][\w'.-]*(?:\s+[^\W\d_][\w'.-]*){0,3},\s+)?$",
            "place_of_origin",
        ),
        (
            "ORGANIZATION",
            r"\b(?:work|works|worked|working|employed|employer|job|hired|intern|interning)\b",
            "employer",
        ),
        (
            "ORGANIZATION",
            r"\b(?:study|studies|studied|student|attend|attends|attended|enrolled|graduated)\b",
            "educated_at",
        ),
        ("ORGANIZATION", r"\b(?:member of|joined|belongs? to)\b", "member_of"),
        ("ORGANIZATION", r"\b(?:bank|banks|account)\b", "bank"),
        ("PERSON LOCATION ORGANIZATION", r"\bmaiden name\b", "maiden_name"),
        ("PERSON", r"\b(?:nickname|known as|goes by|alias|calls? (?:me|him|her))\b", "nickname"),
        ("PERSON", r"\b(?:manager|supervisor|boss|reports to)\b", "manager"),
        ("PERSON", r"\b(?:doctor|physician|dr\.?|gp|therapist|nurse)\s*$", "doctor"),
        ("PERSON", r"\b(?:husband|wife|spouse|married to)\s*,?\s*$", "spouse"),
        ("PERSON", r"\b(?:partner|boyfriend|girlfriend|fianc[ée]e?)\s*,?\s*$", "partner"),
        ("PERSON", r"\b(?:son|daughter|child|kid)\s*,?\s*$", "child"),
        ("PERSON", r"\b(?:mother|father|mom|mum|dad|parent)\s*,?\s*$", "parent"),
        ("PERSON", r"\b(?:brother|sister|sibling)\s*,?\s*$", "sibling"),
        ("PERSON", r"\b(?:colleague|coworker|co-worker)\s*,?\s*$", "colleague"),
        ("PHONE_NUMBER", r"\b(?:fax)\b", "fax"),
        ("PHONE_NUMBER", r"\b(?:work|office)\b", "work_phone"),
        ("MONEY", r"\b(?:salary|earn|earns|earned|earning|income|paid|wage|pay)\b", "salary"),
        ("MONEY", r"\b(?:owe|owes|owed|debt|loan|overdue|arrears|outstanding|balance|due)\b", "debt"),
        (_NUMBER_TYPES, r"\bpassport\b", "passport_number"),
        (_NUMBER_TYPES, r"\b(?:driver'?s|driving) licen[cs]e\b", "driver_license"),
        (_NUMBER_TYPES, r"\b(?:account|acct)\b", "account_number"),
        ("ID", r"\bpatient\b", "patient_id"),
        ("ID", r"\bpolicy\b", "policy_number"),
        ("ID", r"\b(?:account|acct)\b", "account_number"),
        ("ID", r"\b(?:employee|staff)\b", "employee_id"),
    )
)  # fmt: skip


# A word right after a phone number that says which line it is ("042 078 6381-office", "(fax)").
_PHONE_AFTER = (
    (re.compile(r"^\W{0,3}(?:fax)\b", re.IGNORECASE), "fax"),
    (re.compile(r"^\W{0,3}(?:office|work)\b", re.IGNORECASE), "work_phone"),
    (re.compile(r"^\W{0,3}(?:mobile|cell)\b", re.IGNORECASE), "mobile"),
    (re.compile(r"^\W{0,3}(?:home)\b", re.IGNORECASE), "phone"),
)
# Terms spaCy tags as organisations that name no organisation ("withdraw money from the ATM").
NOT_ORGANISATIONS = frozenset(
    {"atm", "iban", "pin", "ssn", "cvv", "otp", "sms", "pdf", "usb", "faq", "id", "dob"}
)


def relation_for(kind: str, before: str, in_record: bool, after: str = "") -> str | None:
    """The relation for a value of type `kind` between the clause text `before` and `after`; None
    when the value is not read as personal data here (a place in an encyclopedic passage)."""
    if kind == "PHONE_NUMBER":
        for cue, relation in _PHONE_AFTER:
            if cue.search(after):
                return relation
    if _NEGATION.search(before):
        before = ""  # "She does not live in Paris": the cue is denied, only the type is left
    for types, cue, relation in _CUES:
        if (
            kind in types
            and cue.search(before)
            and (kind in IDENTIFIER_TYPES or in_record or relation in _ANYWHERE)
        ):
            return relation
    if kind in IDENTIFIER_TYPES:
        return IDENTIFIER_TYPES[kind]
    if in_record:
        return RECORD_TYPES.get(kind)
    return None


_NEGATION = re.compile(r"\b(?:not|never|no longer)\b|n't\b", re.IGNORECASE)
# Cue relations kept in encyclopedic text too: the value is personal data whoever it belongs to.
_ANYWHERE = frozenset({"maiden_name"})

AGE_PATTERN = re.compile(
    r"\b(?:aged?\s*:?\s*(?P<a>\d{1,3})\b|(?P<b>\d{1,3})[- ](?:years?|yrs?)[- ]old\b"
    r"|(?P<c>\d{1,3})\s?(?:yo|y/o)\b)",
    re.IGNORECASE,
)


ZIP_PATTERN = re.compile(
    r"\b(?:zip|postal|post) ?code\s*(?:is|:)?\s*(?P<v>[A-Z0-9]{3,5}(?:[ -][A-Z0-9]{3,4})?)\b", re.I
)


# A phone number with the name of its line right after it ("9885 1152-Office", "455 6186 office"):
# the detector reads a short national number only with its region; the line's name says it is one.
LABELLED_PHONE = re.compile(
    r"(?<![\w+(.-])\+?\(?\d[\d ().-]{5,20}\d"
    r"(?=[ \t]*-?[ \t]*(?:office|fax|mobile|cell|home|work|tel|phone)\b)",
    re.IGNORECASE,
)
MIN_PHONE_DIGITS = 7


def labelled_phone_values(text: str) -> list[tuple[int, int]]:
    """(start, end) of each phone number followed by the name of its line."""
    return [
        (match.start(), match.end())
        for match in LABELLED_PHONE.finditer(text)
        if sum(char.isdigit() for char in match.group(0)) >= MIN_PHONE_DIGITS
    ]


def zip_values(text: str) -> list[tuple[int, int]]:
    """(start, end) of each stated postal code ("My zip code is 40938")."""
    return [(match.start("v"), match.end("v")) for match in ZIP_PATTERN.finditer(text)]


def age_values(text: str) -> list[tuple[int, int]]:
    """(start, end) of each stated age ("aged 45", "a 45-year-old", "45 y/o")."""
    spans = []
    for match in AGE_PATTERN.finditer(text):
        group = next(name for name in ("a", "b", "c") if match.group(name))
        spans.append((match.start(group), match.end(group)))
    return spans
