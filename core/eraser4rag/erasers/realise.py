"""Say a sentence's public facts again when the sentence itself had to go.

A small template realiser, one template per relation family: Wikidata-style relations
("occupation", "date_of_birth", ...) and the extractor's verb relations ("move_to",
"serve_in": the verb's past form and its preposition). Facts of one head become one
sentence ("Henry Feilden was born on 21 February 1818 and died on 5 September 1875.").
A relation without a template is not said at all: a lost public fact is better than a
sentence that states something the passage did not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.types import Triple

_HAS_DAY = re.compile(r"(?<![\d,])\b\d{1,2}(?:st|nd|rd|th)?\b(?!\d)")
_DEGREE_WORD = re.compile(r"\b(?:degree|diploma|certificate|doctorate|licentiate)\b", re.IGNORECASE)
DEMONYM = re.compile(r"^(?:[A-Z][a-z]+-)*[A-Z][a-z]+(?:an|ian|ese|ish|ch|i|ic|ean|ine)$")

IRREGULAR_PAST = {
    "be": "was", "have": "had", "win": "won", "make": "made", "teach": "taught", "become": "became",
    "give": "gave", "write": "wrote", "lead": "led", "build": "built", "hold": "held", "take": "took",
    "begin": "began", "leave": "left", "meet": "met", "go": "went", "get": "got", "run": "ran",
    "know": "knew", "see": "saw", "bring": "brought", "buy": "bought", "sell": "sold", "speak": "spoke",
    "draw": "drew", "fight": "fought", "grow": "grew", "sing": "sang", "lose": "lost", "spend": "spent",
    "send": "sent", "come": "came", "study": "studied", "marry": "married", "compose": "composed",
    "stop": "stopped", "plan": "planned", "set": "set", "put": "put", "read": "read", "bear": "bore",
}  # fmt: skip
# verbs the extractor's relations are named after that a template may inflect ("move_to" -> "moved to");
# a relation named after a noun ("artist_from") has no template
KNOWN_VERBS = set(IRREGULAR_PAST) | {
    "play", "serve", "receive", "work", "join", "move", "graduate", "return", "represent", "live", "appear",
    "compete", "die", "found", "establish", "elect", "appoint", "train", "start", "retire", "debut", "star",
    "perform", "publish", "release", "record", "coach", "manage", "design", "direct", "produce",
    "settle", "emigrate", "immigrate", "relocate", "travel", "belong", "transfer", "sign", "loan", "score",
    "finish", "rank", "reside", "stay", "remain", "enrol", "enroll", "attend", "specialise", "specialize",
    "collaborate", "contribute", "convert", "name", "rename", "nominate", "award", "honour", "honor",
}  # fmt: skip
# verbs said by template only where they read without their object: "moved to Paris", "played for
# Hull"; "joined [the Canadian Militia] as Medical Officer" and "spent [five years] at Bramall Lane" do not
NEED_THEIR_OBJECT = {
    "join", "found", "establish", "publish", "release", "record", "design", "direct", "produce", "manage",
    "receive", "attend", "spend", "make", "take", "give", "lead", "build", "hold", "have", "get", "buy",
    "sell", "bring", "send", "see", "know", "meet", "draw", "put", "set", "read", "bear", "compose", "win",
    "lose", "plan", "stop", "represent", "score", "finish", "rank", "name", "rename",
}  # fmt: skip
# verbs the extractor names relations after from their passive ("was elected to the Senate")
SAID_IN_THE_PASSIVE = {"elect", "appoint", "nominate", "award", "honour", "honor", "loan"}
VERB_RELATION = re.compile(r"^([a-z]+)_(in|at|for|to|from|with|as|on|by|under|into|of)$")


_REPEATABLE = {"was", "is"}  # "was born ... and was a member of": every other verb is said once


def realise_facts(facts: Iterable[Triple], past: bool = True) -> str:
    """One sentence per head saying every fact that has a template; "" when none has."""
    facts = [f for f in facts if f.head[:1].isupper()]  # a name, not an extraction fragment
    tails: dict[str, dict[str, list[str]]] = {}
    for fact in facts:
        if not _reads_alone(fact.tail):
            continue
        said = tails.setdefault(fact.head, {}).setdefault(fact.relation, [])
        if fact.tail.strip() and fact.tail not in said:
            said.append(fact.tail)
    sentences = []
    for head, relations in tails.items():
        phrases = _head_phrases(relations, past)
        if phrases:
            sentences.append(f"{head} {_join(phrases)}.")
    return " ".join(sentences)


def _head_phrases(relations: dict[str, list[str]], past: bool) -> list[str]:
    """The verb phrases of one head's facts: one per relation ("was a director, a presenter and a
    writer"), birth date, place and name said together ("was born Mark McDermott in Albany on 1 May
    1961"), each verb once."""
    birth = _birth_phrase(relations)
    phrases = [birth] if birth else []
    demonyms = [v for v in relations.get("country_of_citizenship", []) if DEMONYM.search(v)]
    for relation, values in relations.items():
        if relation in {"date_of_birth", "place_of_birth", "birth_name"}:
            continue
        if relation == "country_of_citizenship" and demonyms and relations.get("occupation"):
            continue  # said with the occupation: "was an Irish entrepreneur"
        if relation == "occupation" and len(demonyms) == 1:
            values = [f"{demonyms[0]} {values[0]}", *values[1:]]
        phrase = _relation_phrase(relation, values, past)
        verbs = {p.split()[0] for p in phrases if p.split()[0] not in _REPEATABLE}
        if phrase and phrase not in phrases and phrase.split()[0] not in verbs:
            phrases.append(phrase)
    return _one_copula(sorted(phrases, key=_said_order))


def _one_copula(phrases: list[str]) -> list[str]:
    """ "was a drover and married to Mary", not "was a drover, was married to Mary" (a list of predicates
    each with its own "was" reads as a list of sentences cut short)."""
    copulas = [p for p in phrases if _said_order(p) == 1]
    if len(copulas) < 2:
        return phrases
    verb = copulas[0].split()[0]
    merged = f"{verb} " + _join([p.split(" ", 1)[1] for p in copulas])
    first = phrases.index(copulas[0])
    rest = [p for p in phrases if p not in copulas]
    return [*rest[:first], merged, *rest[first:]]


def _said_order(phrase: str) -> int:
    """Birth, what a person was, what they did, then death: "John Challis was American and died in 1974",
    not "died in 1974 and was American"."""
    if phrase.startswith(("was born", "is born")):
        return 0
    if phrase.startswith(("was ", "is ")):
        return 1
    return 3 if phrase.startswith("died") else 2


def _birth_phrase(relations: dict[str, list[str]]) -> str:
    parts = []
    if relations.get("birth_name"):
        parts.append(relations["birth_name"][0])
    if relations.get("place_of_birth"):
        parts.append(f"in {relations['place_of_birth'][0]}")
    if relations.get("date_of_birth"):
        date = relations["date_of_birth"][0]
        parts.append(f"{'on' if _HAS_DAY.search(date) else 'in'} {date}")
    return "was born " + " ".join(parts) if parts else ""


def _relation_phrase(relation: str, values: list[str], past: bool) -> str:
    if not values:
        return ""
    if relation == "occupation" and len(values) > 1:
        return f"{'was' if past else 'is'} " + _join([_with_article(v) for v in values])
    if relation == "country_of_citizenship":
        demonyms = [v for v in values if DEMONYM.search(v)]
        return (
            f"{'was' if past else 'is'} {_join(demonyms)}"
            if demonyms
            else predicate(relation, values[0], past)
        )
    if relation not in _TEMPLATED and VERB_RELATION.match(relation):
        values = [v for v in values if _named(v)]  # "settled in Hamilton [and 1953]"
    return predicate(relation, _join(values), past) if values else ""


def predicate(relation: str, tail: str, past: bool = True) -> str:
    """The verb phrase saying (x, relation, tail) of x, or "" without a template."""
    templates = _relation_templates(tail, past)
    if relation in templates:
        return templates[relation]
    match = VERB_RELATION.match(relation)
    # a verb's relation reads only with a named tail ("moved to Paris", not "began as apprentice")
    if match and match.group(1) in KNOWN_VERBS and _named(tail):
        verb, preposition = match.groups()
        if verb in NEED_THEIR_OBJECT:
            return ""
        if verb in SAID_IN_THE_PASSIVE:
            return f"{'was' if past else 'is'} {past_tense(verb)} {preposition} {tail}"  # all regular
        return f"{past_tense(verb) if past else present_tense(verb)} {preposition} {tail}"
    return ""


def _relation_templates(tail: str, past: bool) -> dict[str, str]:
    """The Wikidata-style relations' phrases for one tail."""
    be = "was" if past else "is"
    on = "on" if _HAS_DAY.search(tail) else "in"  # "on 16 October 2011", "in October 2011", "in 1941"
    return {
        "date_of_birth": f"was born {on} {tail}",  # born and died are past whatever the sentence's tense
        "date_of_death": f"died {on} {tail}",
        "place_of_birth": f"was born in {tail}",
        "place_of_death": f"died in {tail}",
        "occupation": f"{be} {_with_article(tail)}",
        "country_of_citizenship": f"{be} {tail}" if DEMONYM.search(tail) else f"{be} a citizen of {tail}",
        "educated_at": f"studied at {tail}",
        "employer": f"worked for {tail}",
        "member_of_sports_team": f"played for {tail}",
        "member_of_political_party": f"{be} a member of {tail}",
        "member_of": f"{be} a member of {tail}",
        "position_held": f"served as {tail}",
        "award_received": f"received {_common_with_article(tail)}",
        "spouse": f"{be} married to {tail}",
        "residence": f"lived in {tail}",
        "academic_degree": f"{'earned' if past else 'holds'} {_degree(tail)}",
        "field_of_work": f"worked in {tail}",
        "known_as": f"{be} known as {tail}",
        "birth_name": f"was born {tail}",
    }


def past_tense(verb: str) -> str:
    if verb in IRREGULAR_PAST:
        return IRREGULAR_PAST[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and len(verb) > 2 and verb[-2] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def present_tense(verb: str) -> str:
    if verb == "be":
        return "is"
    if verb == "have":
        return "has"
    if verb.endswith(("s", "sh", "ch", "x", "o")):
        return verb + "es"
    if verb.endswith("y") and len(verb) > 2 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# a tail that reads only where it was written ("the only such maker", "the same university")
_NEEDS_ITS_CONTEXT = {"only", "such", "same", "other", "sole", "very", "this", "that", "these", "those"}


# what a list page says of a name as a word ("Hutchings is a surname"), never of a person who bears it
_WORDS_FOR_A_NAME = {"surname", "given name", "family name", "first name", "forename", "name", "nickname"}


def _named(tail: str) -> bool:
    """A name, with the article the text gave it or not ("the Cabinet")."""
    return tail.removeprefix("the ")[:1].isupper()


def _reads_alone(tail: str) -> bool:
    if tail.lower().strip() in _WORDS_FOR_A_NAME:
        return False
    words = tail.split()
    return (
        bool(words)
        and words[0].lower() not in {"née", "nee"}
        and not any(word.lower() in _NEEDS_ITS_CONTEXT for word in words)
    )


def _degree(tail: str) -> str:
    """ "a Bachelor of Medicine degree", "a master's degree": a degree named as a title gets its noun."""
    named = tail if _DEGREE_WORD.search(tail) else f"{tail} degree"
    return ("an " if named[:1].lower() in "aeiou" else "a ") + named


def _common_with_article(noun: str) -> str:
    """ "received a gold medal"; a named award ("the Nobel Prize", "Padma Shri") reads as written."""
    first = noun.split()[0] if noun.split() else ""
    if not noun[:1].islower() or first in {"a", "an", "the", "his", "her", "their"} or first[:1].isdigit():
        return noun
    return _with_article(noun)


def _with_article(noun: str) -> str:
    if noun[:1].isupper() and " " in noun and noun.split()[-1][:1].isupper():
        return (
            noun  # a named title ("Bachelor of Arts") reads without one; "American football player" needs one
        )
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _join(phrases: list[str]) -> str:
    if len(phrases) == 1:
        return phrases[0]
    return ", ".join(phrases[:-1]) + " and " + phrases[-1]


_TEMPLATED = frozenset(_relation_templates("", True))  # after the helpers the templates call
