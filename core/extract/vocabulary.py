"""The canonical relation vocabulary shared by every backend, and the word lists behind it.

Common facts about people, places and organisations are named as Wikidata properties in
snake_case (`occupation`, `date_of_birth`, `place_of_birth`, `educated_at`, `employer`,
...), so that the spaCy rules, the LLM and ReLiK name the same fact the same way. A
relation with no property that fits keeps its verb-lemma name (`found`, `debut_in`).

`canonical_relation(relation, tail_kind)` maps a lemma-convention relation ("born_in",
"work_for", "study_at") to its property; `tail_kind` ("date", "place", "person", "org" or
None) decides between date and place properties ("born_in" + a date -> date_of_birth).
"""

from __future__ import annotations

import re
from functools import lru_cache

from core.extract.lifespans import DATE
from core.types import normalize_relation

TailKind = str | None

# Wikidata properties (snake_case labels) that relations are mapped to.
PROPERTIES = frozenset(
    {
        "occupation",
        "date_of_birth",
        "place_of_birth",
        "date_of_death",
        "place_of_death",
        "cause_of_death",
        "educated_at",
        "employer",
        "member_of_political_party",
        "member_of",
        "member_of_sports_team",
        "spouse",
        "child",
        "father",
        "mother",
        "sibling",
        "relative",
        "award_received",
        "position_held",
        "country_of_citizenship",
        "country",
        "located_in",
        "residence",
        "medical_condition",
        "instance_of",
        "notable_work",
        "founded_by",
        "headquarters_location",
        "nominated_for",
        "academic_degree",
        "academic_major",
        "participant_in",
        "field_of_work",
        "part_of",
        "floruit",
        "work_period_start",
        "work_period_end",
        "sport",
        "military_rank",
        "noble_title",
        "genre",
        "publication_date",
        "country_of_origin",
        "director",
        "cast_member",
        "screenwriter",
        "producer",
        "composer",
        "author",
        "performer",
    }
)

# relation -> property, whatever the tail.
_FIXED = {
    "educated_at": "educated_at",
    "educate_at": "educated_at",
    "study_at": "educated_at",
    "graduate_from": "educated_at",
    "graduated_from": "educated_at",
    "attend": "educated_at",
    "enrol_at": "educated_at",
    "enroll_at": "educated_at",
    "enrol_in": "educated_at",
    "student_at": "educated_at",
    "graduate_of": "educated_at",
    "alumnus_of": "educated_at",
    "work_for": "employer",
    "work_at": "employer",
    "employed_by": "employer",
    "employed_at": "employer",
    "employee_of": "employer",
    "employ_by": "employer",
    "hired_by": "employer",
    "work_with": "employer",
    "marry": "spouse",
    "married_to": "spouse",
    "wed": "spouse",
    "husband": "spouse",
    "wife": "spouse",
    "husband_of": "spouse",
    "wife_of": "spouse",
    "spouse_of": "spouse",
    "married": "spouse",
    "son": "child",
    "daughter": "child",
    "child": "child",
    "father": "father",
    "mother": "mother",
    "brother": "sibling",
    "sister": "sibling",
    "sibling": "sibling",
    "located_in": "located_in",
    "locate_in": "located_in",
    "situated_in": "located_in",
    "situate_in": "located_in",
    "lie_in": "located_in",
    "based_in": "located_in",
    "headquartered_in": "headquarters_location",
    "live_in": "residence",
    "reside_in": "residence",
    "resident_of": "residence",
    "live_at": "residence",
    "suffer_from": "medical_condition",
    "diagnosed_with": "medical_condition",
    "diagnose_with": "medical_condition",
    "die_of": "cause_of_death",
    "die_from": "cause_of_death",
    "serve_as": "position_held",
    "appointed_as": "position_held",
    "elected_as": "position_held",
    "play_for": "member_of_sports_team",
    "sign_for": "member_of_sports_team",
    "sign_with": "member_of_sports_team",
    "founded_by": "founded_by",
    "co_founded_by": "founded_by",
    "win": "award_received",
    "receive": "award_received",
    "awarded": "award_received",
    "award": "award_received",
    "nominated_for": "nominated_for",
    "directed_by": "director",
    "direct_by": "director",
    "co_directed_by": "director",
    "produced_by": "producer",
    "produce_by": "producer",
    "composed_by": "composer",
    "compose_by": "composer",
    "star": "cast_member",
    "starring": "cast_member",
    "album_by": "performer",
    "single_by": "performer",
    "song_by": "performer",
    "novel_by": "author",
    "book_by": "author",
    "poem_by": "author",
}
# relation -> property by tail kind: (date property, place property).
_BY_KIND = {
    "born": ("date_of_birth", "place_of_birth"),
    "born_in": ("date_of_birth", "place_of_birth"),
    "born_on": ("date_of_birth", "place_of_birth"),
    "born_at": ("date_of_birth", "place_of_birth"),
    "die": ("date_of_death", "place_of_death"),
    "die_in": ("date_of_death", "place_of_death"),
    "die_on": ("date_of_death", "place_of_death"),
    "die_at": ("date_of_death", "place_of_death"),
    "died_in": ("date_of_death", "place_of_death"),
}
# Properties whose value is a named place or organisation, never a common noun or a person.
_ENTITY_PROPERTIES = frozenset(
    {
        "employer",
        "residence",
        "educated_at",
        "located_in",
        "headquarters_location",
        "member_of_sports_team",
    }
)
_AWARD_WORDS = re.compile(
    r"\b(award|prize|medal|order|cross|trophy|honou?r|fellowship|laureate|decoration)s?\b", re.I
)
_PARTY_WORD = re.compile(r"\bpart(y|ies)\b", re.I)
_RELEASE_RELATIONS = frozenset(
    f"{verb}{preposition}"
    for verb in ("release", "released", "premiere", "premiered", "publish", "published", "issue", "issued")
    for preposition in ("", "_in", "_on")
)
# Joining a school (or completing a degree there) is studying there; joining a company is not.
_ENTERING_VERBS = frozenset(
    {
        "join",
        "admitted_to",
        "admit_to",
        "enter",
        "matriculate_at",
        "matriculate",
        "enrol",
        "enroll",
        "complete_at",
    }
    | {f"{verb}_{prep}" for verb in ("receive", "hold", "earn", "obtain", "gain") for prep in ("from", "at")}
)
_SCHOOL_WORDS = re.compile(
    r"\b(universit\w*|college|school|academy|polytechni\w*|conservato\w*|seminary|gymnasium|lyc[eé]e?|lyceum)\b",
    re.I,
)


def canonical_relation(relation: str, tail_kind: TailKind = None, tail_text: str = "") -> str:
    """The property name for a lemma-convention relation, else the relation itself.

    A negated relation ("not_live_in") is never mapped: no positive fact comes from it.
    """
    name = normalize_relation(relation)
    if not name or name.startswith("not_"):
        return name
    if name in PROPERTIES:
        return _party_member(name, tail_text)
    if name in _BY_KIND:
        date_property, place_property = _BY_KIND[name]
        if tail_kind == "date":
            return date_property
        return place_property if tail_kind in {"place", "org", "name"} else name
    if name in {"study", "major_in", "read"} and tail_kind == "common":
        return "academic_major"  # "studied law": a field, shared by many; a category value
    if (
        name in {"specialize_in", "specialise_in", "specializing_in", "specialising_in"}
        and tail_kind == "common"
    ):
        return "field_of_work"  # "a historian specializing in labor history"
    if name in _RELEASE_RELATIONS and tail_kind == "date":
        return "publication_date"  # "released on November 30, 1982", "premiered in 1968"
    if name in {"compete_in", "play", "participate_in"} and names_a_sport(tail_text):
        return "sport"  # "competed in alpine skiing", "played cricket"
    if name in _ENTERING_VERBS and _SCHOOL_WORDS.search(tail_text):
        return "educated_at"  # "joined the Ecole Polytechnique", "was admitted to the School of Mines"
    mapped = _FIXED.get(name)
    if mapped == "award_received" and not _AWARD_WORDS.search(tail_text):
        return name  # "won the election", "received a letter" are not awards
    if mapped in _ENTITY_PROPERTIES and tail_kind in {"person", "common", "date"}:
        return name  # "worked with Mara", "worked for a change of air" name no employer
    if mapped is not None:
        return _party_member(mapped, tail_text)
    if name in {"member_of", "represent", "join"} or name.endswith("_member_of"):
        return _party_member("member_of", tail_text) if _PARTY_WORD.search(tail_text) else name
    return name


_DEMONYM_ENDINGS = ("an", "ese", "ish", "ic", "i", "ch", "er")


def is_demonym(text: str) -> bool:
    """ "English", "Franco-Flemish", "African American": a nationality word, not "SF" or "NFL"."""
    words = re.split(r"[\s-]+", text.strip())
    last = words[-1].casefold() if words else ""
    return last in DEMONYMS or (len(last) > 3 and words[-1][:1].isupper() and last.endswith(_DEMONYM_ENDINGS))


_DATE_TEXT = re.compile(
    r"^(?:c\.\s*)?(?:\d{1,2}\s+)?(?:[A-Z][a-z]+\.?\s+)?(?:\d{1,2},?\s+)?\d{3,4}s?$|^\d{1,2}/\d{1,2}/\d{2,4}$"
)


def tail_kind_of_text(text: str) -> str:
    """A tail's kind from its text alone (for backends without a parse): date, name or common."""
    stripped = text.strip()
    if _DATE_TEXT.match(stripped):
        return "date"
    return "name" if stripped[:1].isupper() else "common"


def _party_member(name: str, tail_text: str) -> str:
    if name == "member_of" and _PARTY_WORD.search(tail_text):
        return "member_of_political_party"
    return name


def word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Demonyms that NER folds into an organisation name ("English Conservative Party").
DEMONYMS = word_set(
    """afghan albanian algerian american andorran angolan argentine argentinian armenian australian
    austrian azerbaijani bahamian bahraini bangladeshi barbadian belarusian belgian belizean beninese
    bhutanese bolivian bosnian brazilian british bruneian bulgarian burmese burundian cambodian
    cameroonian canadian chadian chilean chinese colombian congolese croatian cuban cypriot czech
    danish dominican dutch ecuadorian egyptian emirati english eritrean estonian ethiopian fijian
    filipino finnish flemish french gabonese gambian georgian german ghanaian greek grenadian
    guatemalan guinean guyanese haitian honduran hungarian icelandic indian indonesian iranian iraqi
    irish israeli italian ivorian jamaican japanese jordanian kazakh kenyan korean kosovar kuwaiti
    kyrgyz lao latvian lebanese liberian libyan lithuanian luxembourgish macedonian malagasy malawian
    malaysian maldivian malian maltese mauritanian mauritian mexican moldovan monegasque mongolian
    montenegrin moroccan mozambican namibian nepali nepalese nicaraguan nigerian nigerien norwegian
    omani pakistani palestinian panamanian paraguayan persian peruvian polish portuguese qatari
    romanian russian rwandan salvadoran samoan saudi scottish senegalese serbian sierra singaporean
    slovak slovenian somali spanish sri sudanese surinamese swazi swedish swiss syrian taiwanese tajik
    tanzanian thai togolese tongan trinidadian tunisian turkish turkmen ugandan ukrainian uruguayan
    uzbek venezuelan vietnamese welsh yemeni zambian zimbabwean soviet prussian bavarian ottoman
    byzantine roman venetian neapolitan sicilian catalan basque galician breton corsican flemish
    walloon québécois quebecois"""
)

# Nouns that name no particular thing: never graph nodes, whatever their modifiers.
GENERIC_NOUNS = word_set(
    """one ones other others some any all both each many few most several none another thing things
    something anything everything nothing someone anyone everyone somebody anybody everybody
    work works time times member members family families career careers part parts way ways lot
    lots kind kinds type types number numbers year years day days people person persons man men
    woman women group groups series place places end side role roles use case cases area areas order
    life lives name names home world song songs film films album albums book books show shows episode
    episodes game games match matches season seasons team teams players fact facts result
    results reason reasons point points period periods term terms rest amount amounts level levels
    form forms field fields house subject subjects matter matters deal issue issues event events
    project projects job jobs position positions interest interests activity activities effort
    efforts experience experiences success need needs idea ideas question questions answer answers
    attention help support list lists version versions variety range ranges percent majority
    minority total half couple pair age ages stage stages moment moments occasion occasions
    instance instances example examples addition same first second third last following former
    latter beginning start front back top bottom middle centre center thousands hundreds dozens
    millions death birth much little more less enough plenty retirement childhood youth adulthood
    marriage divorce graduation favor favour spite behalf lieu regard respect east west north south
    northeast northwest southeast southwest round rounds trade profession vocation topic topics
    aspect aspects intersection"""
)

# Description nouns that are relations, not occupations ("a member of", "the son of").
RELATIONAL_NOUNS = word_set(
    """member members son daughter child children father mother brother sister husband wife
    grandson granddaughter grandfather grandmother nephew niece uncle aunt cousin widow widower
    stepfather stepmother stepson stepdaughter stepbrother stepsister half-brother half-sister
    parent parents sons daughters brothers sisters
    descendant ancestor native resident citizen part one recipient winner founder head leader
    candidate graduate alumnus alumna friend partner colleague pupil disciple protégé subject
    namesake brainchild home birthplace seat capital village town city suburb municipality
    district county region province state country river island mountain lake village"""
)

# Adjectives dropped from an occupation ("former professional footballer" -> "professional footballer").
NON_OCCUPATION_ADJECTIVES = word_set(
    """former retired noted famous prominent leading well known well-known prolific skilled successful
    notable renowned best great greatest early late first second third last current future onetime
    one-time erstwhile acclaimed celebrated distinguished eminent popular influential important
    talented accomplished award-winning young old elder veteran active"""
)

MALE_NOUNS = word_set("father son brother husband uncle nephew grandfather grandson king prince mr sir lord")
FEMALE_NOUNS = word_set(
    "mother daughter sister wife aunt niece grandmother granddaughter queen princess mrs ms miss lady dame"
)

# Relations whose tail is a class the head belongs to, not a thing of its own: many unrelated
# heads share "politician", "american" or "bachelor's degree", and a path through such a
# shared value says nothing about any one of them (see core/graph.py, `inference_key`).
CATEGORY_RELATIONS = frozenset(
    {
        "occupation",
        "country_of_citizenship",
        "instance_of",
        "academic_degree",
        "academic_major",
        "award_received",
        "position_held",
        "field_of_work",
        "genre",
        "sport",
        "movement",
        "religion",
        "medical_condition",
        "cause_of_death",
        "military_rank",
        "noble_title",
    }
)


def is_category_value(relation: str, tail: str) -> bool:
    """Whether `tail` is a value of its head rather than a thing of its own.

    A category relation's tail, a demonym ("american"), or a literal: a date or a number
    ("1988" is the birth year of one head and the founding year of another; it links neither).
    """
    return (
        relation in CATEGORY_RELATIONS
        or normalize_relation(relation) in CATEGORY_RELATIONS
        or _is_value(tail)
    )


@lru_cache(maxsize=65536)
def _is_value(tail: str) -> bool:
    """A demonym, a date or a number (cached: risk computations ask for every key's tail)."""
    stripped = tail.strip()
    return is_demonym(stripped) or bool(_DATE_ANY_CASE.match(stripped) or _NUMBER_TEXT.match(stripped))


_NUMBER_TEXT = re.compile(r"^[\d.,]+%?$")
# A whole date as a value ("12 may 1950", "may 12, 1950", "1950s", "early 1910s"; keys are
# case-folded), with month names only: "entity 1234" is no date.
_DATE_ANY_CASE = re.compile(rf"^(?:c\.\s*|early\s+|mid\s+|late\s+)?(?:{DATE.pattern})$", re.I)

# Kinship nouns: "has a sister, Tegan" names a sibling, not a possession.
KIN_NOUNS = (
    MALE_NOUNS | FEMALE_NOUNS | word_set("sibling siblings child children parent cousin")
) - word_set("king prince queen princess mr sir lord mrs ms miss lady dame")

# Academic degrees: "a master's degree in Economics" is an `academic_degree` (a category value).
DEGREE_NOUNS = word_set(
    """degree degrees diploma certificate phd ph.d. ph.d doctorate ba b.a. b.a bsc b.sc. b.sc ma m.a. m.a
    msc m.sc. m.sc mba llb llm licence license med m.ed. mphil dphil meng bba bfa mfa bmus mmus edd"""
)

# Occupation nouns that the agent-noun endings of `is_person_noun` miss.
_PERSON_NOUNS = word_set(
    """poet nurse chef cook model monk nun priest bishop cardinal pope saint king queen prince
    princess duke earl baron count lord lady knight judge justice spy pilot coach scout guide
    clerk diplomat athlete architect aristocrat bureaucrat democrat republican autocrat technocrat
    playwright wright smith mason critic cleric medic mechanic academic magnate mogul tycoon heir
    heiress envoy consul delegate rabbi imam pastor vicar abbot friar deacon chaplain surgeon
    physician musician magician technician statistician paediatrician pediatrician beautician
    comedian guardian historian librarian veterinarian vet dj mc emcee host anchor star icon
    hero heroine idol legend celebrity personality official sheriff marshal general admiral
    colonel major captain lieutenant sergeant corporal private commodore brigadier cadet
    samurai ninja shaman sultan emir shah tsar czar khan emperor empress chief chieftain
    graduate alumnus alumna fellow scholar student apprentice intern trainee nominee laureate
    goalkeeper quarterback pitcher catcher shortstop infielder outfielder midfielder forward
    defender striker winger centre center guard tackle end back jockey referee umpire
    astronaut cosmonaut aviator sailor marine soldier warrior veteran pioneer settler colonist
    philanthropist patron activist feminist advocate ceo cfo coo cto chair secretary dean head
    principal chancellor rector provost registrar artisan partisan courtesan impresario analyst
    pedagogue ideologue demagogue figure identity"""
)
# Domain nouns with an agent-like ending ("theater and film actor").
_NOT_PERSON_NOUNS = word_set(
    """theater theatre soccer computer poker paper water power summer winter border timber rubber
    leather silver copper laser order color colour horror labor labour motor interior sector
    cancer character number chamber center centre"""
)
_AGENT_ENDINGS = ("er", "or", "ist", "ian", "ant", "ess", "eer", "man", "woman", "ee", "ive", "eur", "ent")


def is_person_noun(word: str) -> bool:
    """ "consultant", "officer", "poet": a noun naming a person; "management", "film", "military": not.

    Decides whether "management and IT consultant" shares its head noun (management
    consultant, IT consultant) or lists two occupations ("poet and rugby player").
    """
    lower = word.casefold()
    if lower in _PERSON_NOUNS:
        return True
    if lower in _NOT_PERSON_NOUNS or lower.endswith("ment"):
        return False
    return lower.endswith(_AGENT_ENDINGS)


# Titles written before a name ("Governor Clarence D. Martin", "Captain Raginis"): the relation
# they state. "Sir", "Dr" and the like are honorifics, no position; "Father", "Sister" are kin.
_TITLE_RELATIONS = {
    **dict.fromkeys(
        word_set(
            """president vice-president governor senator congressman congresswoman mayor premier
            chancellor minister secretary ambassador judge justice bishop archbishop cardinal pope
            rabbi imam commissioner councillor councilor alderman sheriff"""
        ),
        "position_held",
    ),
    **dict.fromkeys(
        word_set(
            """general colonel major captain lieutenant sergeant corporal admiral commodore brigadier
            commander marshal"""
        ),
        "military_rank",
    ),
    **dict.fromkeys(
        word_set("duke duchess earl count countess baron baroness marquess marquis viscount"), "noble_title"
    ),
}
PERSONAL_HONORIFICS = word_set("sir dame dr dr. mr mr. mrs mrs. ms ms. saint st. reverend rev. lord lady")


def title_relation(word: str) -> str | None:
    """The relation a title before a name states ("captain" -> military_rank), else None."""
    return _TITLE_RELATIONS.get(word.casefold())


# Sports, as Wikidata names them ("competed in alpine skiing" -> sport).
_SPORT_NAMES = word_set(
    """baseball basketball football soccer cricket tennis golf hockey rugby volleyball handball
    boxing wrestling cycling skiing swimming rowing fencing snooker darts badminton squash lacrosse
    softball netball polo judo karate taekwondo athletics bobsleigh curling motorsport"""
) | {
    "american football", "canadian football", "australian rules football", "gaelic football",
    "association football", "ice hockey", "field hockey", "table tennis", "water polo",
    "rugby union", "rugby league", "alpine skiing", "cross-country skiing", "ski jumping",
    "figure skating", "speed skating", "beach volleyball", "horse racing", "auto racing",
}  # fmt: skip


def names_a_sport(text: str) -> bool:
    return text.casefold().strip() in _SPORT_NAMES


# Players and their positions: "a wide receiver for the Bengals" plays for a team, not an employer.
_ATHLETE_NOUNS = word_set(
    """player footballer cricketer athlete pitcher catcher shortstop infielder outfielder baseman
    quarterback receiver linebacker lineman tackle cornerback safety halfback fullback running
    goalkeeper goaltender keeper defender midfielder forward striker winger centre center guard
    batsman bowler wicketkeeper jockey racer driver rider cyclist skater boxer wrestler"""
)


def is_athlete_noun(lemma: str) -> bool:
    return lemma.casefold() in _ATHLETE_NOUNS


# "his work on X", "the study of X", "His academic focus includes X": X is a field of work.
FIELD_NOUNS = word_set(
    "work research study studies focus publications writings expertise specialty speciality"
)
# "has published on X", "lectured on X", "wrote about X".
FIELD_VERBS = word_set("publish lecture write research")
