"""The dependency vocabulary the repair rules share: which relations are orphans, objects,
predicates and complements, the words that need a complement, and small tree helpers."""

from __future__ import annotations

from typing import Any

from core.eraser4rag.erasers.realise import DEMONYM

WHOLE_ENTITY_LABELS = {"DATE", "TIME", "CARDINAL", "QUANTITY", "MONEY", "PERCENT", "ORDINAL"}


# a title cut anywhere says nothing ("the case of Terry v. [Ohio]"): it goes whole
TITLE_LABELS = {"LAW", "WORK_OF_ART", "EVENT", "PRODUCT"}


NAME_LABELS = {"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "WORK_OF_ART", "EVENT", "PRODUCT", "LAW"}


ORPHAN_DEPS = {
    "det", "predet", "poss", "amod", "compound", "nummod", "case", "aux", "auxpass", "neg", "prep",
    "advmod", "npadvmod", "quantmod", "nmod", "appos", "acl", "relcl", "prt", "punct", "cc", "mark",
    "pobj", "dobj", "attr", "acomp", "pcomp", "agent", "dative", "oprd", "xcomp", "ccomp", "advcl",
}  # fmt: skip


OBJECT_DEPS = {"pobj", "pcomp"}


PREDICATE_DEPS = {"attr", "acomp", "oprd"}


COMPLEMENT_DEPS = PREDICATE_DEPS | {"dobj", "xcomp", "ccomp", "prep", "advmod", "npadvmod", "dative", "agent"}


OBJECT_OF_VERB = {"dobj", "oprd", "xcomp", "ccomp", "attr", "acomp"}


# nouns that say nothing without their "of" phrase ("He is part [of the ...]")
RELATIONAL_NOUNS = {
    "part", "one", "member", "native", "resident", "citizen", "graduate", "alumnus", "alumna", "daughter",
    "son", "wife", "husband", "father", "mother", "brother", "sister", "child", "widow", "grandson",
    "granddaughter", "nephew", "niece", "cousin", "population", "total", "number", "capacity", "pupil",
    "student", "apprentice", "disciple", "protégé", "successor", "predecessor", "assistant", "friend",
    "colleague", "partner", "teammate",
}  # fmt: skip


# roles that say nothing without their "of" phrase ("a former head [of X]", "an associate director [of Y]")
ROLE_NOUNS = {
    "head", "director", "chairman", "chairwoman", "chair", "president", "founder", "co-founder", "leader",
    "chief", "secretary", "editor", "manager", "captain", "commander", "governor", "mayor", "dean",
    "principal", "rector", "minister", "ambassador", "representative", "deputy", "vice-president",
    "treasurer", "curator", "professor", "coach", "owner", "author", "creator", "inventor", "holder",
    "supporter", "advocate", "opponent", "proponent", "critic", "member", "prebendary", "archdeacon",
    "bishop", "archbishop", "canon", "vicar", "chaplain", "abbot", "abbess", "prior", "provost",
    "justice", "counsel", "commissioner", "trustee", "fellow", "graduate", "alumnus", "alumna", "native",
    "citizen", "staff", "fan", "admirer", "practitioner", "exponent",
}  # fmt: skip

# nouns that say nothing once their adjective went ("a family of [Basque] origin")
NEEDS_ITS_KIND = {"citizen", "national", "citizenship", "nationality", "delegation"}
# a street's own word, part of its name: "[Törneby 2] street" is no street once the name went
STREET_NOUNS = {
    "street",
    "road",
    "avenue",
    "lane",
    "boulevard",
    "drive",
    "terrace",
    "crescent",
    "alley",
    "highway",
}
NEEDS_ITS_ADJECTIVE = {"origin", "descent", "ancestry", "extraction", "heritage", "parentage"}

# counts that say nothing of which ("many buildings", "a number of honours")
VAGUE_QUANTITIES = {"many", "several", "numerous", "various", "countless", "multiple"}
VAGUE_NUMBER_NOUNS = {"number", "variety", "range", "host", "series"}
COUNTED_TIMES = {"year", "month", "week", "day", "decade", "century", "time", "occasion", "season", "hour"}

# nouns about someone that say nothing once "of X" went ("a bronze life-size statue [of Richard Harris]")
DEPICTION_NOUNS = {
    "statue", "bust", "portrait", "biography", "memorial", "likeness", "photograph", "painting", "depiction",
    "caricature", "monument",
}  # fmt: skip
# works someone made: "a noted study" says nothing once its title went
WORK_NOUNS = {
    "study", "book", "novel", "album", "film", "song", "play", "poem", "opera", "paper", "article", "memoir",
    "treatise", "essay", "single", "documentary", "monograph", "thesis", "dissertation",
}  # fmt: skip
# nouns that say nothing once their phrase went, whatever else they keep ("his time [in Berlin]")
NEEDS_ITS_PHRASE = {
    "time", "contribution", "star", "stay", "visit", "seat", "spell", "border", "trip", "journey",
    "friendship", "relationship", "rivalry", "feud",  # a relation with nobody: "her close friendship"
}  # fmt: skip
# what needs its phrase once it is someone's: "discontinued his support [for the PIRA]" ("He received
# support" still reads)
POSSESSED_NEEDS_ITS_PHRASE = {"support"}

# what needs its "of" phrase, whatever other phrases stay
NEEDS_ITS_OF = ROLE_NOUNS | DEPICTION_NOUNS


# a verb's preposition that is its argument, not an adjunct ("was diagnosed [with a tumor]")
ARGUMENT_PREPOSITIONS = {
    ("diagnose", "with"), ("charge", "with"), ("credit", "with"), ("accuse", "of"), ("convict", "of"),
    ("consist", "of"), ("compose", "of"), ("marry", "to"), ("engage", "to"), ("relate", "to"),
    ("belong", "to"), ("refer", "to"), ("replace", "with"), ("replace", "by"), ("succeed", "by"),
    ("associate", "with"), ("know", "for"), ("know", "as"), ("elect", "to"), ("appoint", "to"),
    ("name", "after"), ("base", "on"), ("depend", "on"), ("rely", "on"), ("specialize", "in"),
    ("specialise", "in"), ("participate", "in"), ("result", "in"), ("suffer", "from"), ("go", "through"),
    ("go", "to"), ("go", "into"), ("come", "from"),
    # "he regarded the association [as the freedom fighters of our time]": without "as" another claim
    ("regard", "as"), ("describe", "as"), ("consider", "as"), ("view", "as"), ("see", "as"),
    ("portray", "as"), ("depict", "as"), ("label", "as"), ("brand", "as"), ("hail", "as"), ("treat", "as"),
    ("classify", "as"), ("establish", "as"),
    # "In 1917 he was a candidate [for alderman]", "He served [as city attorney] before ...": read as stubs
    ("candidate", "for"), ("serve", "as"),
    # "He duetted [with Celine Dion] on the song" (round 23): a duet is with someone
    ("duet", "with"), ("duette", "with"),  # the small model lemmatises "duetted" as "duette"
}  # fmt: skip


# adjectives that say nothing without what followed them ("being able [to play as a wicket-keeper]")
ADJECTIVES_WITH_COMPLEMENT = {
    "able",
    "unable",
    "known",
    "responsible",
    "eligible",
    "likely",
    "unlikely",
    "due",
    "interested",
    "involved",
    "instrumental",
    "fond",
    "aware",
    "capable",
    "famous",
    "renowned",
    "noted",
}


# verbs that say nothing without their object ("He also owned [and operated X].")
NEEDS_AN_OBJECT = {
    "own", "co-own", "operate", "found", "co-found", "establish", "manage", "run", "direct", "write",
    "co-write", "produce", "compose", "design", "build", "edit", "publish", "create", "develop", "host",
    "present", "organize", "organise", "launch", "start", "record", "release", "oppose", "delay",
    "support", "reject", "approve", "block", "condemn", "criticise", "criticize", "praise", "defend",
    "acquire", "buy", "sell", "purchase", "fund", "finance", "sponsor", "introduce", "promote",
}  # fmt: skip


# verbs that say little without one of these prepositions' phrases ("she returned [to Morocco] for some
# time", "nominated [for 21 Juno Awards] during his career", "went on to spend five years [at Bramall Lane]")
# verbs whose "as" phrase is their argument: "He served [as foreign editor] for Hearst" is no "served for"
ROLE_VERBS = {"serve"}

REQUIRED_PREPOSITIONS = {
    "return": {"to", "from"}, "nominate": {"for"}, "spend": {"at", "in", "with", "on", "as"},
    "emigrate": {"to"}, "immigrate": {"to"}, "relocate": {"to"}, "move": {"to"}, "transfer": {"to"},
    "dedicate": {"to"}, "devote": {"to"}, "shortlist": {"for"}, "induct": {"into"}, "send": {"to"},
    "offer": {"to"}, "reside": {"in", "at"}, "live": {"in", "at"}, "refer": {"to"},
}  # fmt: skip
REQUIRED_PREPOSITIONS.update({verb: {"as"} for verb in ROLE_VERBS})

# objects that say little without where or in what ("He received his early education [at Karachi].")
SAID_WITH_WHERE = {
    "education", "schooling", "training", "degree", "diploma", "doctorate", "career", "phd", "ph.d.", "dphil",
}  # fmt: skip

REFLEXIVES = {"himself", "herself", "themselves", "itself", "myself", "ourselves", "yourself"}


# verbs that read whole without what followed them ("He died [in Paris].")
STANDS_ALONE = {"die", "retire", "marry", "win", "lose", "graduate", "resign", "survive"}


CLAUSE_DEPS = {"relcl", "advcl", "ccomp", "xcomp", "conj", "acl", "pcomp", "parataxis"}


VERB_POS = {"VERB", "AUX"}


def inside_brackets(sent: Any, token: Any) -> bool:
    depth = 0
    for other in sent:
        if other.i >= token.i:
            break
        depth += (other.text == "(") - (other.text == ")")
    return depth > 0


def subtree(token: Any) -> set[int]:
    return {t.i for t in token.subtree}


def list_members(first: Any) -> list[Any]:
    """`first` and every conjunct hung under it, chained ("A, B and C" as A -> B -> C) or flat (B -> C,
    B -> D), in the order the parser hung them."""
    members = [first]
    for member in members:
        members.extend(c for c in member.children if c.dep_ == "conj")
    return members


def needs_its_phrase(noun: Any) -> bool:
    """A noun that says nothing once its phrase went (`NEEDS_ITS_PHRASE`, `POSSESSED_NEEDS_ITS_PHRASE`)."""
    lemma = noun.lemma_.lower()
    possessed = any(c.dep_ == "poss" for c in noun.children)
    return lemma in NEEDS_ITS_PHRASE or (possessed and lemma in POSSESSED_NEEDS_ITS_PHRASE)


def has_kept_conj(token: Any, removed: set[int]) -> bool:
    return next_kept_conj(token, removed) is not None


def next_kept_conj(token: Any, removed: set[int]) -> Any | None:
    """The first later member of the token's list that stays; the parser may chain the members, each
    hung on the one before ("engineer, [politician,] and activist"), so removed members are looked
    through."""
    members = [c for c in token.children if c.dep_ == "conj"]
    while members:
        member = min(members, key=lambda m: m.i)
        members.remove(member)
        if member.i not in removed:
            return member
        members.extend(c for c in member.children if c.dep_ == "conj")
    return None


def is_adjective(token: Any) -> bool:
    return token.pos_ == "ADJ" or token.ent_type_ == "NORP" or bool(DEMONYM.search(token.text))


SUBJECT_DEPS = {"nsubj", "nsubjpass"}


# a sentence needs a finite verb: "Group Portrait of X held at Y" kept two participles and lost "include"
FINITE_TAGS = {"VBD", "VBZ", "VBP", "MD"}


def same_kind(first: Any, second: Any) -> bool:
    """Two list members alike enough to be one list's: same part of speech and entity type, and no two
    different articles ("a member state" and "the United Nations" are a misparse, not a list)."""
    articles = (determiner(first), determiner(second))
    return (
        first.pos_ == second.pos_
        and (first.ent_type_ == second.ent_type_ or _two_bare_names(first, second, articles))
        and (None in articles or articles[0] == articles[1])
    )


# what the small parser labels a name as, often wrongly: "Sardinia and Liguria" came out GPE and PERSON
_NAME_LABELS = {"GPE", "LOC", "FAC", "ORG", "PERSON"}


def _two_bare_names(first: Any, second: Any, articles: tuple[str | None, str | None]) -> bool:
    return (
        first.pos_ == "PROPN"
        and articles == (None, None)
        and {first.ent_type_, second.ent_type_} <= _NAME_LABELS
    )


def determiner(token: Any) -> str | None:
    """The token's article, "a" for "an"."""
    article = next((c.lower_ for c in token.children if c.dep_ == "det"), None)
    return "a" if article == "an" else article


def vaguely_counted(noun: Any) -> bool:
    """ "many buildings", "a number of honours": a plural noun counted without saying which."""
    if noun.tag_ != "NNS" or noun.lemma_.lower() in COUNTED_TIMES:
        return False  # "for many years" says how long
    if any(c.lower_ in VAGUE_QUANTITIES and c.dep_ in {"amod", "det", "nummod"} for c in noun.children):
        return True
    of = noun.head
    return noun.dep_ == "pobj" and of.lower_ == "of" and of.head.lower_ in VAGUE_NUMBER_NOUNS


def has_its_of(noun: Any) -> bool:
    """The noun keeps an "of" phrase that says of what ("a citizen of France")."""
    return any(c.dep_ == "prep" and c.lower_ == "of" for c in noun.children)


def is_emphatic_reflexive(word: Any) -> bool:
    """ "was himself Archdeacon", "Sławek himself never became": a reflexive that is no object of its verb
    or preposition (the parser may call it attr) only stresses who; it is an adjunct."""
    return word.lower_ in {"himself", "herself", "themselves"} and word.dep_ not in {"dobj", "pobj", "dative"}


BIRTH_RELATIONS = {"son", "daughter", "child"}


# nouns for a part of a town, nothing once the town went ("[Cleveland's] Central neighborhood"); not
# "district", "quarter" or "side", which also name bodies, game periods and teams ("Houston's school
# district", "Denver's fourth quarter", "England's side")
PLACE_PARTS = {"neighborhood", "neighbourhood", "suburb", "downtown", "outskirts"}


def born_of_a_parent_hung_on_its_place(son: Any) -> Any | None:
    """The "born" of "born at Hamilton, South Australia, the son of John Barnes" when the parser hung "the
    son" on the place: he is the one born, not the place."""
    place = son.head
    if (
        son.dep_ != "appos"
        or son.lemma_.lower() not in BIRTH_RELATIONS
        or not any(c.dep_ == "det" for c in son.children)
        or (place.ent_type_ not in {"GPE", "LOC", "FAC", "ORG"} and place.lemma_.lower() not in PLACE_PARTS)
    ):
        return None
    return next((t for t in place.ancestors if t.lemma_ == "bear" and t.tag_ == "VBN"), None)


# roles a person holds at a place, which read without their "of" while the place is still named ("a
# professor [of Music] at Hampton University"); not stances or possessions ("an opponent [of slavery]")
HELD_AT_ROLES = {
    "professor", "lecturer", "director", "coach", "curator", "dean", "editor", "fellow", "chaplain",
    "manager", "principal", "researcher", "instructor", "teacher", "conductor", "organist",
}  # fmt: skip

# words that still say which one ("the first coach", "the only group", "the same club")
ONE_OF_A_KIND = {"first", "last", "only", "same", "sole", "next", "previous", "former", "latter"}


def named_phrases(noun: Any, prepositions: set[str]) -> list[Any]:
    """The noun's prepositions (of `prepositions`) whose object is a proper name ("coach [for the Western
    Bulldogs]", "professor [at Hampton University]")."""
    return [
        prep
        for prep in noun.children
        if prep.dep_ == "prep"
        and prep.lower_ in prepositions
        and any(c.dep_ == "pobj" and c.pos_ == "PROPN" for c in prep.children)
    ]


def says_which_one(noun: Any, removed: set[int]) -> bool:
    """A kept superlative, ordinal or "only"/"same" word before the noun."""
    return any(
        c.i not in removed and (c.tag_ == "JJS" or c.ent_type_ == "ORDINAL" or c.lower_ in ONE_OF_A_KIND)
        for c in noun.children
    )


def is_a_role_hung_on_an_object(token: Any) -> bool:
    """An "as" phrase the parser hung on a verb's prepositional object, a name, where it says the subject's
    role: "spent a year at 5Psolutions [as the assistant to Stephanie Kučera]"; not "such as", "as well as",
    "the same rank as", "his role as"."""
    noun = token.head
    if token.dep_ != "prep" or token.lower_ != "as" or token.i <= noun.i or noun.dep_ != "pobj":
        return False
    if noun.head.head.pos_ not in VERB_POS or not (noun.text[:1].isupper() or noun.text[:1].isdigit()):
        return False  # "his role as John", "the same rank as his father", "such areas as sabotage"
    if any(c.dep_ == "poss" or c.lower_ in {"same", "such"} or c.tag_ == "JJR" for c in noun.children):
        return False
    doc = token.doc
    after = doc[token.i + 1] if token.i + 1 < len(doc) else None
    return doc[token.i - 1].lower_ != "such" and (after is None or after.lower_ != "well")
