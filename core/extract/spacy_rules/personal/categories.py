"""The kinds of personal data a triple can hold, and the category of each relation the personal-data
rules write (`Triple.category`).

The categories follow the confidential categories text-anonymisation benchmarks use (direct
identifiers, quasi-identifiers, and the special categories of personal data: health, beliefs,
sexuality, ethnicity, criminal and financial matters); the analyst sees them in the graph.
"""

from __future__ import annotations

from core.types import normalize_relation

NAME = "name"
CONTACT = "contact"
IDENTIFIER = "identifier"
FINANCIAL = "financial"
BIRTH = "birth"
LOCATION = "location"
EMPLOYMENT = "employment"
EDUCATION = "education"
DATE = "date"
HEALTH = "health"
FAMILY = "family"
CRIMINAL = "criminal"
RELIGION = "religion"
POLITICS = "politics"
UNION = "union"
SEXUALITY = "sexuality"
ETHNICITY = "ethnicity"
OTHER = "personal"

CATEGORIES = (
    NAME, CONTACT, IDENTIFIER, FINANCIAL, BIRTH, LOCATION, EMPLOYMENT, EDUCATION, DATE, HEALTH,
    FAMILY, CRIMINAL, RELIGION, POLITICS, UNION, SEXUALITY, ETHNICITY, OTHER,
)  # fmt: skip

_RELATION_CATEGORY: dict[str, str] = {
    **dict.fromkeys(
        ("subject", "mentions", "name", "maiden_name", "title", "nickname", "username", "signed_by"), NAME
    ),
    **dict.fromkeys(
        ("phone", "mobile", "fax", "email", "address", "residence", "mailing_address", "work_address",
         "website", "ip_address", "emergency_contact"),
        CONTACT,
    ),
    **dict.fromkeys(
        ("ssn", "passport_number", "driver_license", "id_number", "national_id", "medical_license",
         "nhs_number", "tax_id", "employee_id", "patient_id", "policy_number", "account_number",
         "license_plate"),
        IDENTIFIER,
    ),
    **dict.fromkeys(
        ("card_number", "iban", "bank_account", "salary", "income", "debt", "amount", "financial_event"),
        FINANCIAL,
    ),
    **dict.fromkeys(("date_of_birth", "place_of_birth", "age", "gender", "sex"), BIRTH),
    **dict.fromkeys(("location", "place_of_origin", "nationality", "work_location"), LOCATION),
    **dict.fromkeys(
        ("employer", "department", "manager", "supervisor", "job_title", "position",
         "occupation", "colleague", "start_date", "work_phone"),
        EMPLOYMENT,
    ),
    **dict.fromkeys(("educated_at", "school", "degree"), EDUCATION),
    **dict.fromkeys(("date",), DATE),
    **dict.fromkeys(
        ("medical_condition", "health_condition", "diagnosis", "treated_for", "treatment", "medication",
         "allergy", "disability", "doctor", "blood_type", "symptom"),
        HEALTH,
    ),
    **dict.fromkeys(
        ("spouse", "partner", "child", "son", "daughter", "mother", "father", "parent", "sibling",
         "brother", "sister", "relative", "grandparent", "grandchild", "next_of_kin", "marital_status"),
        FAMILY,
    ),
    # the sentence rules' "X is the sister of Y" relations
    **dict.fromkeys(
        (f"{kin}_of" for kin in ("spouse", "wife", "husband", "partner", "child", "son", "daughter", "mother",
                                 "father", "parent", "sibling", "brother", "sister", "grandson",
                                 "granddaughter", "grandmother", "grandfather", "niece", "nephew", "aunt",
                                 "uncle", "cousin")),
        FAMILY,
    ),
    **dict.fromkeys(
        ("arrested_for", "charged_with", "convicted_of", "sentenced_to", "indicted_for",
         "legal_status", "criminal_record"),
        CRIMINAL,
    ),
    **dict.fromkeys(("religion",), RELIGION),
    **dict.fromkeys(("political_party", "political_affiliation"), POLITICS),
    **dict.fromkeys(("union_membership",), UNION),
    **dict.fromkeys(("sexual_orientation", "gender_identity"), SEXUALITY),
    **dict.fromkeys(("ethnicity", "race"), ETHNICITY),
}  # fmt: skip


def listed_category(relation: str) -> str:
    """The category of a relation listed here (a sentence rule's `residence`, `medical_condition`,
    `spouse`, ...), "" for any other relation."""
    return _RELATION_CATEGORY.get(normalize_relation(relation), "")


def category_of(relation: str) -> str:
    """The category of a personal-data relation; `OTHER` for a form field nobody listed."""
    return _RELATION_CATEGORY.get(normalize_relation(relation), OTHER)
