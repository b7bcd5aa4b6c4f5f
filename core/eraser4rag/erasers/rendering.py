"""The kept tokens as text, and the text tidied: brackets, lifespans with one end, doubled
punctuation, dangling coordinators, article agreement, capitals."""

from __future__ import annotations

import re
from typing import Any

from core.eraser4rag.erasers.fluency import article_disagreements, sentence_pieces
from core.eraser4rag.erasers.grammar import ROLE_NOUNS, VERB_POS, list_members, subtree
from core.eraser4rag.erasers.pointers import (
    articles_of_institutions_of_places_that_went,
    articles_of_objects_whose_name_went,
    articles_of_places_that_went,
    articles_of_roles_that_went,
)


def capitalise_new_sentence_starts(original: str, text: str) -> str:
    """A clause now after a full stop ("...; he graduated" after a realised sentence) starts a sentence; not
    in a text written all in lower case (a chat: "what's the address? it's in the corner of ...")."""
    if not any(char.isupper() for char in original):
        return text
    kept = set(sentence_pieces(original))
    pieces = sentence_pieces(text)
    mended = []
    for index, piece in enumerate(pieces):
        previous = pieces[index - 1].rstrip() if index else ""
        if piece[:1].islower() and piece not in kept and previous.endswith((".", "!", "?")):
            piece = piece[0].upper() + piece[1:]
        mended.append(piece)
    return "".join(mended)


def render(sent: Any, removed: set[int]) -> str:
    """The kept tokens of the sentence with their spacing, tidied."""
    pieces: list[str] = []
    pending_space = False
    needs_article = _lost_possessor(sent, removed)
    shared_articles = _shared_article_lost(sent, removed) | _article_for_a_role_left_bare(sent, removed)
    coordinators = _restored_coordinators(sent, removed)
    known_as = _known_by_a_bare_name(sent, removed)
    indefinite = (
        articles_of_places_that_went(sent, removed)
        | articles_of_institutions_of_places_that_went(sent, removed)
        | articles_of_roles_that_went(sent, removed)
        | articles_of_objects_whose_name_went(sent, removed)
    )
    # words said another way: "the battle" for a plural left with one member, "a minister" for a title
    reworded = _plurals_left_with_one_member(sent, removed) | _titles_without_their_portfolio(sent, removed)
    removed = (
        (removed | _number_signs_of_removed_numbers(sent, removed))
        - _commas_that_set_off_a_kept_phrase(sent, removed)
        | _serial_commas_of_two(sent, removed)
        | _comma_after_a_removed_phrase(sent, removed)
        | _commas_of_a_removed_apposition(sent, removed)
    )
    for token in sent:
        if token.i in needs_article:
            pieces.append("the ")
        elif token.i in shared_articles:
            pieces.append(shared_articles[token.i] + " ")
        if token.i in coordinators:
            if pieces:
                pieces[-1] = pieces[-1].rstrip()
            pieces.append(" and ")
            continue
        if token.i in removed:
            pending_space = pending_space or bool(token.whitespace_)
            continue
        if pending_space and pieces and not pieces[-1][-1:].isspace() and token.text[:1] not in ".,;:!?)]":
            pieces.append(" ")
        pending_space = False
        if token.i in indefinite:
            pieces.append("a" + token.whitespace_)
            continue
        if token.i in reworded:
            pieces.append(reworded[token.i] + token.whitespace_)
            continue
        pieces.append("as" + token.whitespace_ if token.i in known_as else token.text_with_ws)
    text = "".join(pieces).strip()
    if sent[0].i in removed:  # "[He studied law] and an MD ..." loses the coordinator it began with
        text = _LEADING_COORDINATOR.sub("", text)
    return tidy(text, capitalise=sent.text[:1].isupper() or sent[0].i in removed, brackets_beyond=sent.text)


def _known_by_a_bare_name(sent: Any, removed: set[int]) -> set[int]:
    """ "known by [his kunya Abu Luqman,] Abu Ayyub al-Ansari": "by" said what named him; before the bare
    name that is left it reads "known as"."""
    found = set()
    for by in sent:
        if by.lower_ != "by" or by.i in removed or by.head.lemma_ != "know" or by.i + 1 not in removed:
            continue
        following = next((t for t in sent if t.i > by.i and t.i not in removed), None)
        if following is not None and following.pos_ == "PROPN":
            found.add(by.i)
    return found


def _restored_coordinators(sent: Any, removed: set[int]) -> set[int]:
    """Commas that become "and" when a list lost its last member with the coordinator
    ("a narrator, a verse-reader[ and an actor]" -> "a narrator and a verse-reader"), read off the text
    order: the small parser often hangs list members as appositions or modifiers, not conjuncts."""
    doc = sent.doc
    commas = set()
    for token in sent:
        if token.i not in removed or token.lower_ not in {"and", "or"}:
            continue
        after = token.i
        while after < sent.end and after in removed:
            after += 1
        if after < sent.end and doc[after].text not in {".", ";", ":", "!", "?"}:
            comma = _comma_before_removed_member(token, removed, after)
            if comma is not None:  # "an actor, [director and] producer": the comma before it says "and"
                commas.add(comma)
            continue  # the list goes on after the removed member, or this was no list's end
        comma = token.i - 1
        if any(c.dep_ == "conj" and c.i > token.i and c.pos_ in VERB_POS for c in token.head.children):
            continue  # "..., the daughter of a naval officer[, and returned to ...]": a clause, not a member
        # removed commas are passed over: "playwright, [activist,] filmmaker [and actor]"
        while (
            comma >= sent.start
            and (doc[comma].text != "," or comma in removed)
            and (
                doc[comma].pos_ not in VERB_POS or doc[comma].dep_ in {"compound", "amod"}
            )  # "greatest hits"
        ):
            comma -= 1
        if comma >= sent.start and doc[comma].text == "," and comma not in removed:
            members = [i for i in range(comma + 1, token.i) if i not in removed]
            if members:
                commas.add(comma)
    return commas


def _serial_commas_of_two(sent: Any, removed: set[int]) -> set[int]:
    """The commas before "and" in a list that kept two of its members: "a bachelor's degree[, a Master of
    Arts], and a Doctor of Philosophy" reads without them ("X, and Y" is a list of three). Read off the text
    order (the small parser often hangs members as modifiers): a removed member between two kept commas,
    the second before "and", and no kept comma before the first."""
    doc, commas = sent.doc, set()
    for cc in sent:
        if cc.i in removed or cc.lower_ not in {"and", "or"}:
            continue
        second = cc.i - 1
        if second < sent.start or doc[second].text != "," or second in removed:
            continue
        if _two_members_kept_of_more(cc, removed):
            # "an [English architect,] artist, and topographical illustrator"; "three BAFTA Awards, [a
            # Primetime Emmy Award,] and four ...": every comma after the first kept member
            start = second
            while start - 1 >= sent.start and (start - 1 in removed or doc[start - 1].text == ","):
                start -= 1
            commas |= {i for i in range(start, cc.i) if doc[i].text == "," and i not in removed}
            continue
        first = second - 1
        while first >= sent.start and first in removed:
            first -= 1
        if first == second - 1 or first < sent.start or doc[first].text != ",":
            continue
        if not any(doc[i].text == "," and i not in removed for i in range(sent.start, first)):
            commas |= {first, second}
    return commas


def _two_members_kept_of_more(cc: Any, removed: set[int]) -> bool:
    """The list `cc` joins kept two of its three or more members (its first went)."""
    first = cc.head
    while first.dep_ == "conj" and first.head.i != first.i:
        first = first.head
    members = sorted(list_members(first), key=lambda m: m.i)
    kept = [m for m in members if m.i not in removed]
    nouns = all(m.pos_ in {"NOUN", "PROPN", "ADJ"} for m in members)  # a clause's comma before "and" reads
    return nouns and len(members) >= 3 and len(kept) == 2 and members[0].i in removed


def _comma_after_a_removed_phrase(sent: Any, removed: set[int]) -> set[int]:
    """The comma that parted a removed phrase from the next phrase of the same verb: "was born [in
    September 1952], in San Francisco" reads "was born in San Francisco", not "was born, in ..."."""
    doc, commas = sent.doc, set()
    for comma in sent:
        if comma.text != "," or comma.i in removed or comma.i + 1 >= sent.end or comma.i - 1 not in removed:
            continue
        start = comma.i - 1
        while start - 1 >= sent.start and start - 1 in removed:
            start -= 1
        before, first, after = doc[start - 1], doc[start], doc[comma.i + 1]
        if start <= sent.start or before.is_punct or first.dep_ != "prep" or after.i in removed:
            continue
        # "a country [in West Africa], on the coastline"
        next_phrase = after.dep_ == "prep" and first.head.i in {after.head.i, before.i}
        if next_phrase or _second_of_two_members(first, after):
            commas.add(comma.i)
    return commas


def _second_of_two_members(first: Any, after: Any) -> bool:
    """ "a screenwriter [with more than 15 screen credits], and a playwright": the comma set the long first
    member off; two short ones read without it (the parser may hang "and a playwright" on the verb)."""
    member, joint = first.head, after.head
    members = [c for c in joint.children if c.dep_ == "conj"]
    return (
        after.dep_ == "cc"
        and member.pos_ in {"NOUN", "PROPN"}
        and joint.i in {member.i, member.head.i}
        and len(members) == 1
        and members[0].pos_ in {"NOUN", "PROPN"}
    )


def _commas_that_set_off_a_kept_phrase(sent: Any, removed: set[int]) -> set[int]:
    """A removed phrase's last comma that also set off the kept phrase after it: "to the University of
    Königsberg [as a professor of medicine], his final position" keeps its comma."""
    commas = set()
    for comma in sent:
        if comma.text != "," or comma.i not in removed or comma.i + 1 >= sent.end - 1:
            continue
        start = _start_of_removed_run(sent, removed, comma.i)
        if (
            comma.i + 1 not in removed
            and _alone_in_its_sentence_part(sent, start, comma.i)
            and _set_off_phrase(sent.doc[comma.i + 1], start)
        ):
            commas.add(comma.i)
    return commas


def _start_of_removed_run(sent: Any, removed: set[int], index: int) -> int:
    while index - 1 >= sent.start and index - 1 in removed:
        index -= 1
    return index


def _alone_in_its_sentence_part(sent: Any, start: int, comma: int) -> bool:
    """The run follows a word, not punctuation, and holds no comma of its own before its last."""
    doc = sent.doc
    if start == sent.start or doc[start - 1].is_punct:
        return False
    return all(doc[i].text != "," for i in range(start, comma))


def _set_off_phrase(first: Any, start: int) -> bool:
    """The phrase `first` opens is an apposition or predicate noun of a word before the removed run."""
    phrase = first
    while phrase.head.i > first.i - 1 and phrase.head.i != phrase.i:
        phrase = phrase.head
    # a name after the comma is more often the removed name's place ("[Wolfson College], Oxford")
    return phrase.dep_ in {"appos", "oprd", "npadvmod"} and phrase.pos_ == "NOUN" and phrase.head.i < start


def _commas_of_a_removed_apposition(sent: Any, removed: set[int]) -> set[int]:
    """The commas around an apposition that went: "collaborated with her sister[, Lucy Kennedy Miller,] to
    uncover" reads "with her sister to uncover", not "with her sister, to uncover"."""
    doc, commas = sent.doc, set()
    for token in sent:
        if token.dep_ != "appos" or any(t.i not in removed for t in token.subtree):
            continue
        before = token.left_edge.i - 1
        if before < sent.start or doc[before].text != "," or before in removed:
            continue
        commas.add(before)
        after = token.right_edge.i + 1
        while after < sent.end and after in removed:
            after += 1
        if after < sent.end and doc[after].text == "," and not _opens_a_clause(doc, after + 1, sent.end):
            commas.add(after)
    return commas


def _opens_a_clause(doc: Any, index: int, end: int) -> bool:
    """Whether the words after a comma go on with a clause of their own ("..., and he ...", "..., who",
    "..., died 4 October 1973")."""
    if index >= end:
        return False
    token = doc[index]
    return (
        token.dep_ in {"cc", "nsubj", "mark", "conj", "parataxis"}
        or token.tag_ in {"WP", "WDT"}
        or (token.dep_ == "advcl" and token.tag_ in {"VBN", "VBD", "VBG"})
    )


def _comma_before_removed_member(cc: Any, removed: set[int], after: int) -> int | None:
    """The kept comma before the removed run that holds `cc`, when that run is one list member between
    two kept ones (the member before the comma, and the conjunct at `after`)."""
    doc, member = cc.doc, cc.head
    if member.i not in removed or member.dep_ != "conj" or member.i > cc.i:
        return None
    if not any(c.dep_ == "conj" and c.i not in removed and c.left_edge.i == after for c in member.children):
        return None
    start = member.left_edge.i
    while start - 1 >= 0 and start - 1 in removed:
        start -= 1
    comma = start - 1
    earlier = member.head
    while earlier.i in removed and earlier.dep_ == "conj":
        earlier = earlier.head
    if comma < 0 or doc[comma].text != "," or comma in removed or earlier.i in removed or earlier.i > comma:
        return None
    return comma


def _shared_article_lost(sent: Any, removed: set[int]) -> dict[int, str]:
    """The article a removed first member shared with the next ("was [a key member and] participant"
    -> "was a participant"), placed before that member's first kept word."""
    placed = {}
    for article in sent:
        noun = article.head
        if article.i not in removed or article.dep_ != "det" or noun.i not in removed:
            continue
        for member in noun.children:
            if (
                member.dep_ == "conj"
                and member.i not in removed
                and member.tag_ == "NN"
                and not any(c.dep_ in {"det", "poss"} for c in member.children)
            ):
                first = min(t.i for t in member.subtree if t.i not in removed)
                placed[first] = article.text.lower() if article.i != sent.start else article.text
    return placed


def _article_for_a_role_left_bare(sent: Any, removed: set[int]) -> dict[int, str]:
    """ "met famous kabuki actor [Nakamura Kichiemon I] whose ...": a role said before a name takes no
    article; once the name went, the role is the noun and needs one ("met a famous kabuki actor whose").
    The parser hangs the name on the role (appos) or the role on the name (compound)."""
    placed = {}
    for role in sent:
        if role.i in removed or role.tag_ != "NN" or not _named_by_a_removed_name(role, removed):
            continue
        noun = role.head if role.dep_ == "compound" else role
        if any(
            c.dep_ in {"det", "poss", "nummod"} and c.i not in removed
            for c in (*noun.children, *role.children)
        ):
            continue  # "the famous actor [X]" still reads
        if noun.dep_ in {"dobj", "pobj", "attr", "appos", "conj"}:
            placed[min(t.i for t in role.subtree if t.i not in removed)] = "a"
    return placed


def _plurals_left_with_one_member(sent: Any, removed: set[int]) -> dict[int, str]:
    """ "the battles of Perryville, Stones River[, Hoover's Gap, and Chickamauga]": a plural that named a list
    of which one member is left names one thing ("the battle of Stones River"). A subject keeps its plural,
    which its verb agrees with."""
    singular = {}
    for noun in sent:
        if noun.i in removed or noun.tag_ != "NNS" or noun.lemma_.lower() not in ONE_PER_MEMBER:
            continue
        if noun.dep_ in {"nsubj", "nsubjpass"} or _one_of_several(noun):
            continue
        if not any(c.dep_ == "det" and c.lower_ == "the" for c in noun.children):
            continue
        for preposition in noun.children:
            if preposition.dep_ != "prep" or preposition.lower_ != "of" or preposition.i in removed:
                continue
            objects = [c for c in preposition.children if c.dep_ == "pobj"]
            members = list_members(objects[0]) if objects else []
            kept = [m for m in members if m.i not in removed]
            if len(members) >= 2 and len(kept) == 1 and noun.lemma_ != noun.lower_:
                lemma = noun.lemma_
                singular[noun.i] = lemma[:1].upper() + lemma[1:] if noun.text[:1].isupper() else lemma
    return singular


# plurals that name one thing per member of their "of" list ("the battles of Perryville and Stones River");
# "the novels of Dickens and Thackeray" are many per member and stay plural
ONE_PER_MEMBER = {"battle", "siege", "campaign", "war", "election", "tournament", "championship"}


def _titles_without_their_portfolio(sent: Any, removed: set[int]) -> dict[int, str]:
    """ "She is Minister [for Refugees] in the government of Hassan Diab": a capitalised title names one
    office; without its portfolio it is one of several ("She is a minister in the government ...")."""
    return {
        title.i: "a " + title.lower_
        for title in sent
        if title.i not in removed
        and title.tag_ == "NNP"
        and title.lower_ in ROLE_NOUNS
        and title.dep_ in {"attr", "oprd"}
        and title.ent_type_ != "PERSON"
        and not any(c.i not in removed and c.dep_ in {"det", "poss", "compound"} for c in title.children)
        and _lost_every_portfolio(title, removed)
        and not _negated(title.head)
    }


def _lost_every_portfolio(title: Any, removed: set[int]) -> bool:
    """ "Secretary of State [for Wales]" keeps a portfolio; "Minister [for Refugees]" lost its only one."""
    portfolios = [c for c in title.children if c.dep_ == "prep" and c.lower_ in {"for", "of"}]
    return bool(portfolios) and all(subtree(c) <= removed for c in portfolios)


def _negated(verb: Any) -> bool:
    """ "He was never Minister [for Defence]": "never a minister" would deny every ministry."""
    return any(c.dep_ == "neg" or c.lower_ == "never" for c in verb.children)


def _one_of_several(noun: Any) -> bool:
    """ "one of the battles of ...", "most of the battles": the plural is what the count picks from."""
    return (
        noun.dep_ == "pobj"
        and noun.head.lower_ in {"of", "among"}
        and noun.head.head.pos_ in {"NUM", "ADJ", "PRON", "NOUN"}
    )


def _named_by_a_removed_name(role: Any, removed: set[int]) -> bool:
    if role.dep_ == "compound":
        return role.head.i in removed and role.head.pos_ == "PROPN"
    names = [c for c in role.children if c.dep_ == "appos" and c.i > role.i]
    return bool(names) and all(c.i in removed and c.pos_ in {"PROPN", "PRON"} for c in names)


def _lost_possessor(sent: Any, removed: set[int]) -> set[int]:
    """First kept tokens of noun phrases whose possessor went ("[Japan's] island" -> "the island")."""
    starts = set()
    for token in sent:
        if token.i in removed:
            continue
        possessors = [c for c in token.children if c.dep_ == "poss"]
        determiners = [c for c in token.children if c.dep_ in {"det", "poss"} and c.i not in removed]
        if possessors and all(p.i in removed for p in possessors) and not determiners:
            first = min((t.i for t in token.subtree if t.i not in removed), default=token.i)
            starts.add(first)
    return starts


_LIFESPAN_DIED = re.compile(r"\(\s*[–—-]\s*([^()]*?\d[^()]*?)\s*\)")


# "(1902 in Lichtensteig - 1980)" without its birth year
_LIFESPAN_PLACE_FIRST = re.compile(r"\(\s*(in\s+[^()–—\-\d]+?)\s*[–—-]\s*(\d[^()]*?)\s*\)")


_LIFESPAN_BORN = re.compile(r"\(\s*(?!fl\.?\s)([^()–—-]*?\d[^()–—-]*?)\s*[–—-]\s*\)")
# "(fl. 1558 – [1601])": a year someone was active in is no birth year
_FLOURISHED_OPEN = re.compile(r"\(\s*(fl\.?\s[^()–—-]*?\d[^()–—-]*?)\s*[–—-]\s*\)")


_EMPTY_BRACKET = re.compile(
    r"\s*\(\s*(?:[,;:–—-]|(?:born|b\.|née|nee|died|d\.|fl\.)?\s*(?:\?|c\.|ca\.|circa)?)\s*\)"
)


_BRACKET_OPEN_PUNCT = re.compile(r"\(\s*[,;:]\s*")


_BRACKET_CLOSE_PUNCT = re.compile(r"\s*[,;:]\s*\)")


# "born [in Grenaa], to vicar Vilhelm Krarup": the comma parted two phrases of which one went
_BORN_COMMA = re.compile(r"\b(born|died),\s+(?=(?:to|in|on|at|near)\b)")


_BORN_ALONE = re.compile(r"\(\s*born\s*[,;]\s*")


_DOUBLED = re.compile(r"([,;:])(?:\s*[,;:])+")


_BEFORE_STOP = re.compile(r"\s*[,;:]\s*([.!?])")


# not before a colon that opens a word: "at the :de:Mix & Genest AG" keeps its space
_SPACE_BEFORE = re.compile(r"[ \t]+([,.;!?)]|:(?!\w))")


_SPACE_AFTER_OPEN = re.compile(r"\(\s+")


_DANGLING_COORDINATOR = re.compile(r",?\s+(?:and|or|but)\s*([.!?;)])")


_LEADING_COORDINATOR = re.compile(r"^(?:and|or|but|nor)\s+", re.IGNORECASE)


_LONE_APOSTROPHE = re.compile(r"(?<=\s)['’]s?\s+")


_LONE_DASH = re.compile(r"\s*[—]\s*(?=(?:and|or|but)\b|[,.;:)]|$)")


_LEADING_PUNCT = re.compile(r"^[\s,;:–—-]+")


_SPACES = re.compile(r"[ \t]{2,}")


# "he won the Stakes and[ for the Stable, owned by X], he captured": the fronted phrase's comma stays behind
_COORDINATOR_COMMA = re.compile(r"\b(and|or|but),\s+(?=[a-z])")
# "John Paul Wallach, [(1943 – 2002) born in New York City,] was a journalist": the comma that closed the
# removed phrase is left between the name and its verb
_NAME_COMMA_VERB = re.compile(r"^(\W*(?:[A-Z][\w.'’-]*\s+){0,4}[A-Z][\w.'’-]*),(\s+(?:is|was|are|were)\s)")
_EMPTY_QUOTES = re.compile(r"\s*(?:\"\s*\"|“\s*”)")


def _strongest_mark(match: re.Match[str]) -> str:
    """', ;' -> ';': a list's separator outlives the comma of a removed member."""
    marks = match.group(0)
    return next(mark for mark in (";", ":", ",") if mark in marks)


def tidy(text: str, capitalise: bool = True, brackets_beyond: str = "") -> str:
    """Punctuation and articles after deletions: brackets, lifespans, commas, a/an, capitals."""
    text = _LIFESPAN_DIED.sub(r"(died \1)", text)
    text = _LIFESPAN_PLACE_FIRST.sub(r"(born \1, died \2)", text)
    text = _LIFESPAN_BORN.sub(r"(born \1)", text)
    text = _FLOURISHED_OPEN.sub(r"(\1)", text)
    text = _BORN_ALONE.sub("(", text)
    text = _BORN_COMMA.sub(r"\1 ", text)
    for _round in range(3):
        text = _EMPTY_BRACKET.sub("", text)
        text = _EMPTY_QUOTES.sub("", text)
        text = _BRACKET_OPEN_PUNCT.sub("(", text)
        text = _BRACKET_CLOSE_PUNCT.sub(")", text)
        text = _DOUBLED.sub(_strongest_mark, text)
        text = _BEFORE_STOP.sub(r"\1", text)
        text = _LONE_DASH.sub(" ", text)
        text = _LONE_APOSTROPHE.sub("", text)
        text = _DANGLING_COORDINATOR.sub(r"\1", text)
    text = balance_brackets(text, *unmatched_brackets(brackets_beyond))
    text = _SPACE_BEFORE.sub(r"\1", text)
    text = _SPACE_AFTER_OPEN.sub("(", text)
    text = _SPACES.sub(" ", text)
    text = _LEADING_PUNCT.sub("", text)
    text = _NAME_COMMA_VERB.sub(r"\1\2", text)
    text = _COORDINATOR_COMMA.sub(r"\1 ", text)
    text = fix_articles(text)
    if capitalise and text[:1].islower():
        text = text[0].upper() + text[1:]
    return text.strip()


def _number_signs_of_removed_numbers(sent: Any, removed: set[int]) -> set[int]:
    """ "on my card # [5378797340791478] for": the sign goes with its number ("order # 5521" keeps it)."""
    doc = sent.doc
    return {
        t.i
        for t in sent
        if t.text == "#"
        and t.i + 1 < sent.end
        and t.i + 1 in removed
        and any(c.isdigit() for c in doc[t.i + 1].text)
    }


def balance_brackets(text: str, closes_before: int = 0, opens_after: int = 0) -> str:
    """Drop a ")" that closes nothing and a "(" that is never closed (half a removed bracket). A sentence
    the splitter cut inside a bracket keeps the first `closes_before` lone ")" (its "(" is in a sentence
    before) and the last `opens_after` lone "(": "Answer: Tube Snake Boogie, go figure)" after "(What did
    he put at #1 you ask?"."""
    closers, openers = _lone_brackets(text)
    for index in sorted(
        closers[closes_before:] + openers[: max(0, len(openers) - opens_after)], reverse=True
    ):
        text = text[:index] + text[index + 1 :]
    return text


def unmatched_brackets(text: str) -> tuple[int, int]:
    """How many ")" in `text` close nothing, and how many "(" are never closed."""
    closers, openers = _lone_brackets(text)
    return len(closers), len(openers)


def _lone_brackets(text: str) -> tuple[list[int], list[int]]:
    """Where `text` has a ")" that closes nothing, and a "(" never closed."""
    unmatched: list[int] = []
    open_at: list[int] = []
    for index, char in enumerate(text):
        if char == "(":
            open_at.append(index)
        elif char == ")":
            if open_at:
                open_at.pop()
            else:
                unmatched.append(index)
    return unmatched, open_at


def fix_articles(text: str) -> str:
    """'an professional' -> 'a professional', 'a engineer' -> 'an engineer'."""
    for start, end in reversed(article_disagreements(text)):
        article, rest = text[start:end].split(None, 1)
        swapped = {"a": "an", "an": "a", "A": "An", "An": "A"}[article]
        text = text[:start] + swapped + " " + rest + text[end:]
    return text
