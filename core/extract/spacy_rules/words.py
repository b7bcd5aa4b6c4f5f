"""Word, label and dependency sets and patterns the rules share."""

from __future__ import annotations

import re

NAMED_LABELS = {
    "PERSON",
    "ORG",
    "GPE",
    "FAC",
    "LOC",
    "NORP",
    "PRODUCT",
    "EVENT",
    "WORK_OF_ART",
    "LAW",
    "LANGUAGE",
}


VALUE_LABELS = {"DATE", "TIME", "MONEY", "QUANTITY", "PERCENT", "CARDINAL"}


PLACE_LABELS = {"GPE", "LOC", "FAC"}


# "president of <org>", "mayor of <city>", "ambassador to <country>"
TITLE_OBJECT_LABELS = {"ORG", "GPE", "FAC"}


ORGANISATION_LABELS = {"ORG", "GPE"}


THING_LABELS = {"ORG", "FAC", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW"}


MALE_PRONOUNS = {"he", "him", "his", "himself"}


FEMALE_PRONOUNS = {"she", "her", "hers", "herself"}


PERSON_PRONOUNS = MALE_PRONOUNS | FEMALE_PRONOUNS


THING_PRONOUNS = {"it", "its"}


RELATIVE_PRONOUNS = {"who", "whom", "which", "that", "whose"}


PERSON_RELATIVES = {"who", "whom"}


NAMING_DEPS = {"oprd", "attr", "dobj"}


SUBJECT_DEPS = {"nsubj", "nsubjpass"}


PREP_DEPS = {"prep", "agent", "dative"}


MODIFIER_DEPS = {"compound", "amod", "nummod", "nmod"}


CONTROL_DEPS = {"conj", "xcomp"}


MODIFIED_NOUN_DEPS = {"acl", "relcl"}


DESCRIPTION_DEPS = {"attr", "appos", "conj"}


# Nouns that name a class, not a thing, when they stand alone ("attended college", "by degree").
BARE_CLASS_NOUNS = frozenset({"degree", "diploma", "certificate", "college", "school", "university"})


PLACE_NOUNS = frozenset(
    {
        "city", "town", "village", "municipality", "province", "state", "county", "district", "region",
        "island", "commune", "parish", "suburb", "borough", "farm", "estate", "hamlet", "settlement",
        "neighbourhood", "neighborhood", "quarter", "canton", "prefecture", "township", "governorate",
        "oblast", "voivodeship", "arrondissement",
    }
)  # fmt: skip


NAME_PARTICLES = frozenset(
    {"di", "de", "da", "del", "della", "des", "du", "of", "von", "van", "upon", "am", "an", "la", "le"}
)


MAIDEN_MARKERS = {"née", "nee", "née:"}


OPENING_PRONOUN = re.compile(r"^\s*(?:He|She|His|Her)\b")


PARTY_MEMBER_WORDS = {"republican", "democrat", "conservative", "liberal", "socialist", "communist"}


TITLE_MODIFIERS = {
    "Vice",
    "Rear",
    "Deputy",
    "Chief",
    "Field",
    "Air",
    "Force",
    "Staff",
    "Second",
    "First",
    "Prime",
}


TIME_PREPOSITIONS = {"before", "after", "while", "since", "upon", "on"}


INITIALS = re.compile(r"(?:[A-Z]\.)+")


POSTNOMINAL = re.compile(r"^(?:[A-Z]{2,5}|[A-Z]{2,4}\.?)$")


LEADING_WORDS = {"between", "from", "since", "until", "circa", "around"}  # the tagger puts them in a DATE


LIST_POS = {"DET", "ADJ", "NOUN", "PROPN", "NUM", "CCONJ", "ADV"}


LINKING_VERBS = {"be", "become", "remain"}


CONFIDENCE_BOTH_ENTITIES = 1.0


CONFIDENCE_ONE_ENTITY = 0.7


CONFIDENCE_NO_ENTITY = 0.4


PRONOUN_PENALTY = 0.9


TITLE_QUALIFIER = re.compile(r"\s*\([^)]*\)\s*$")


DATE_RANGE = re.compile(r"^(.+?)\s+(?:to|until|till|through|–|-)\s+(.+)$")


COUNT = re.compile(
    r"^(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|several|multiple)\s+(?=\S)", re.I
)


BETWEEN_RANGE = re.compile(r"^(.+?)\s+and\s+(.+)$")


NAME_WORD = re.compile(r"^[^\W\d_][\w.'’-]*$")  # any script's letter first ("Álvarez"); case checked apart


ORGANISATION_WORDS = {
    "company",
    "inc",
    "inc.",
    "ltd",
    "ltd.",
    "corporation",
    "corp",
    "corp.",
    "university",
    "college",
    "school",
    "party",
    "club",
    "association",
    "society",
    "council",
    "bank",
    "group",
    "records",
    "band",
    "fc",
    "league",
    "institute",
    "museum",
    "church",
    "hospital",
    "foundation",
    "agency",
    "ministry",
    "department",
    "board",
    "committee",
    "commission",
    "union",
    "federation",
    "theatre",
    "theater",
    "orchestra",
    "press",
    "team",
}


# A parenthesis holding only a non-Latin-script name, optionally after "Language:".
NATIVE_NAME = re.compile(
    r"^\s*(?:[A-Z][a-z]+:\s*)?([^\x00-\x1f\x21-\x7f\u00c0-\u024f\u2010-\u2015]{2,}?)\s*$"
)


# Words that end the name of a building or an institution ("the Queen's Theatre").
NAMED_PLACE_WORDS = ORGANISATION_WORDS | {
    "theatre", "theater", "hospital", "cathedral", "chapel", "abbey", "hall", "college", "school",
    "church", "infirmary", "academy", "gallery", "park", "gardens", "stadium", "inn", "arms",
}  # fmt: skip


# Title qualifiers of things that are no person: "Perfume (Japanese band)", "Foo (TV series)".
THING_QUALIFIERS = {
    "band", "group", "company", "magazine", "newspaper", "ship", "horse", "river", "mountain", "village",
    "town", "city", "county", "district", "surname", "name", "disambiguation", "genus", "species",
    "franchise", "character", "software", "website", "organisation", "organization", "school",
    "university", "station", "building", "team", "club", "party", "tv",
}  # fmt: skip


# Units of a university: "School of ...", "Department of ...".
UNIT_WORDS = frozenset({"school", "department", "faculty", "institute", "college", "centre", "center"})


CONNECTORS = {"de", "del", "della", "di", "da", "von", "van", "der", "le", "la", "bin", "ibn", "al", "y"}


# Names of events: a parenthesis of years after them is no lifespan.
EVENT_WORDS = frozenset(
    {
        "war", "battle", "revolution", "rebellion", "uprising", "siege", "campaign", "expedition",
        "crisis", "championship", "championships", "cup", "olympics", "games", "festival", "election",
        "elections", "treaty", "act", "season", "tour", "exhibition", "conference", "congress",
    }
)  # fmt: skip


# Verbs whose complement clause states no fact ("wanted to be a teacher").
UNREALISED_VERBS = frozenset(
    {
        "want",
        "hope",
        "wish",
        "plan",
        "aspire",
        "try",
        "attempt",
        "intend",
        "dream",
        "seek",
        "refuse",
        "decline",
        "fail",
    }
)


KIN_WORDS = frozenset(
    {
        "son",
        "daughter",
        "child",
        "father",
        "mother",
        "sibling",
        "brother",
        "sister",
        "spouse",
        "wife",
        "husband",
    }
)


# Fields whose name begins with a nationality: the adjective names the field, not the person.
DEMONYM_FIELDS = frozenset(
    {
        "american football", "canadian football", "australian rules", "gaelic football", "gaelic games",
        "french horn", "english horn", "irish dance", "scottish country", "indian classical",
        "chinese classical", "persian classical",
    }
)  # fmt: skip
