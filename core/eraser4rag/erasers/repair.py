"""Turn the graph-guided eraser's removals into sentences that still read as written English.

The eraser chooses *what* to delete (the units of private triples, as character spans).
This module decides what else must go with them, sentence by sentence, on the parse of
the text before the deletion -- deletion-based sentence compression with grammaticality
constraints (Clarke & Lapata 2008; Filippova & Altun 2013): a word stays only while what
it needs stays too.

1. Whole units: a date, number or name the removal cut into is removed whole.
2. Orphans: an article, possessive, modifier, auxiliary or preposition whose head went
   goes too (an article before a removed first conjunct stays for the next conjunct).
3. Heads without their complement: a preposition without its object, "born" without its
   date or place, a verb without its object and a copula without its predicate lose
   their clause. A main clause's copula that lost its predicate keeps the predicate's
   public adjectives ("was an English politician" -> "was English") or the sentence is
   re-expressed from its public triples (`core.eraser4rag.erasers.realise`).
4. The text is tidied: emptied brackets, lifespans with one end ("(died 5 September
   1875)"), doubled punctuation, a dangling coordinator, article agreement, capitals.

Each candidate sentence is checked with `core.eraser4rag.erasers.fluency`; a sentence the rules
cannot mend is replaced by the realised public facts, or removed.

This module runs the steps sentence by sentence; the rules live beside it: `closure` (1-3),
`predicates` (a main predicate's replacement), `adjuncts` (whether a partial deletion removed only
adjuncts), `rendering` (4), `restating` (which public facts are said again), `grammar` (the
dependency vocabulary they share).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from core.eraser4rag.erasers.adjuncts import (
    a_bare_stub_left,
    bare_stub_clauses,
    has_verb,
    only_adjuncts_removed,
    widened_to_adjunct_clauses,
)
from core.eraser4rag.erasers.base import Edit, apply_replacements, edits_between
from core.eraser4rag.erasers.closure import close_deletions, closes_a_quotation
from core.eraser4rag.erasers.discourse import (
    NAME_PARTICLES,
    POSSESSIVE_PRONOUNS,
    SUBJECT_PRONOUNS,
    full_name_at_the_opening,
    restore_first_mentions,
    title_name,
    without_stranded_connective,
)
from core.eraser4rag.erasers.fluency import (
    Parser,
    broken_in_rewrite,
    is_subjectless,
    sentence_breakage,
    sentence_pieces,
)
from core.eraser4rag.erasers.grammar import (
    RELATIONAL_NOUNS,
    VERB_POS,
    inside_brackets,
    is_emphatic_reflexive,
    vaguely_counted,
)
from core.eraser4rag.erasers.realise import realise_facts
from core.eraser4rag.erasers.record_lines import joined_where_a_removal_crosses_lines, mend_record_lines
from core.eraser4rag.erasers.rendering import (
    balance_brackets,
    capitalise_new_sentence_starts,
    render,
    unmatched_brackets,
)
from core.eraser4rag.erasers.restating import (
    is_about_subject,
    is_past,
    named_as_the_sentence_did,
    one_name_per_person,
    overlaps,
    places_as_written,
    public_tail_tokens,
    roles_without_their_of,
    said_as_approximate,
    stated_in,
    verb_relation_said,
    with_article,
    with_time_qualifier,
)
from core.types import Span, Triple, TripleKey

Removal = tuple[Span, str, str, tuple[TripleKey, ...]]


def repair_removals(
    text: str,
    doc: Any,
    removals: Sequence[Removal],
    public: Iterable[Triple] = (),
    parse: Parser | None = None,
    title: str = "",
) -> tuple[str, tuple[Edit, ...]]:
    """The text with `removals` applied so that every touched sentence still reads; its edits.
    `title` is the document's title: who "he" is when the passage names its subject by surname only."""
    if not removals:
        return text, ()
    removed = removed_tokens(doc, [span for span, _new, _reason, _keys in removals])
    removed |= _alsos_of_what_went(doc, removed)
    pieces = joined_where_a_removal_crosses_lines(segments(doc), [span for span, *_rest in removals])
    removed |= _theres_of_places_that_went(pieces, removed)
    public = list(public)
    replacements: list[Removal] = []
    rewritten: dict[int, str] = {}
    for index, sent in enumerate(pieces):
        if _continues_a_dropped_clause(pieces, index, rewritten):
            rewritten[index] = ""
            span = _with_following_space(text, (sent.start_char, sent.end_char))
            replacements.append((span, "", "continued a removed clause", ()))
            continue
        removed |= _stressing_what_went(pieces, index, rewritten, removed)
        lost_its_year = _year_it_pointed_at_went(pieces, index, removed)
        unchanged = not any(t.i in removed for t in sent)
        if _points_back_at_a_dropped_sentence(pieces, index, rewritten, removed, title) or (
            lost_its_year and unchanged
        ):
            rewritten[index] = ""
            span = _with_following_space(text, (sent.start_char, sent.end_char))
            replacements.append((span, "", "pointed back at a removed sentence", ()))
            continue
        if unchanged:
            continue
        new = repaired_sentence(doc, sent, removed, public, parse, title)
        if lost_its_year and _YEAR_POINTER.search(new):
            new = ""  # "... after 1597, but a book ... published in Antwerp that year": which year now?
        if new and _said_elsewhere(new, text, sent, rewritten):
            new = ""  # a fact said again that the passage already says ("Arne Eidsmo died in October 2011.")
        rewritten[index] = new
        span = (sent.start_char, sent.end_char)
        reason, keys = _reasons_inside(removals, span)
        if not new:
            span = _with_following_space(text, span)
        replacements.append((span, new, reason, keys))
    replacements = _numbers_between_dropped_segments(text, pieces, rewritten, replacements)
    replacements = _after_dropped_sentences(text, pieces, rewritten, replacements)
    replacements = _end_cut_sentences(text, pieces, rewritten, replacements)
    replacements = _one_birth_sentence(text, pieces, rewritten, replacements)
    replacements = _without_announcements_of_what_went(text, pieces, rewritten, replacements)
    new_text, coarse = apply_replacements(text, replacements)
    new_text = capitalise_new_sentence_starts(text, mend_record_lines(text, new_text))
    private_tails = [key[2] for *_rest, keys in removals for key in keys]
    new_text = restore_first_mentions(doc, new_text, parse, title, private_tails)
    private_pairs = {(key[0], key[2]) for _span, _new, _reason, keys in removals for key in keys}
    new_text = full_name_at_the_opening(text, new_text, title, private_pairs)
    if not text[-1:].isspace():
        new_text = new_text.rstrip()  # the space before a dropped last segment
    new_text = _without_emptied_lines(text, new_text)
    # sentences are mended one at a time: a bracket cut in two by the splitter is balanced over the whole
    new_text = balance_brackets(new_text, *unmatched_brackets(text))
    if _only_headings_left(text, new_text) or _only_a_cut_fragment_left(pieces, rewritten):
        new_text = ""  # "Notable people with the surname include:" once every member went
    return new_text, rediff(text, new_text, coarse)


def _alsos_of_what_went(doc: Any, removed: set[int]) -> set[int]:
    """ "Her daughter was also an actress." once "Lillian Lawrence was an [actress]" went, "His son was
    himself Archdeacon of Clonfert" once his father's archdeaconry went: "also" (an emphatic "himself")
    added to what the passage no longer says (and says it again); it goes, the sentence stays."""
    went = {doc[i].lemma_.lower() for i in removed if doc[i].pos_ in {"NOUN", "PROPN"}}
    return {word.i for word in doc if _stresses_what_went(word, went, removed)}


_PLACE_LABELS = {"GPE", "LOC", "FAC"}


def _theres_of_places_that_went(pieces: list[Any], removed: set[int]) -> set[int]:
    """ "Little is known of his life there" once the sentence before lost "and returned to Montreal" and
    names no other place: "there" would point at nothing; it goes, the sentence stays."""
    theres = set()
    for index in range(1, len(pieces)):
        before = pieces[index - 1]
        places = [t for t in before if t.ent_type_ in _PLACE_LABELS]
        if not places or any(t.i not in removed for t in places) or _names_a_kept_body(before, removed):
            continue
        for there in pieces[index]:
            if there.lower_ != "there" or there.dep_ != "advmod" or there.i in removed:
                continue
            if not any(t.ent_type_ in _PLACE_LABELS | {"ORG"} for t in pieces[index] if t.i < there.i):
                theres.add(there.i)  # "moved to Quebec City and died there" has its own place
    return theres


def _names_a_kept_body(piece: Any, removed: set[int]) -> bool:
    """ "He joined Harvard University [in Cambridge, Massachusetts]. He taught there": Harvard is "there"."""
    return any(t.ent_type_ == "ORG" and t.i not in removed for t in piece)


def _stressing_what_went(
    pieces: list[Any], index: int, rewritten: dict[int, str], removed: set[int]
) -> set[int]:
    """The same for a sentence the repair dropped whole or changed before this one: "His son was himself
    Archdeacon of Clonfert" after "...; and Archdeacon of Clonfert from 1812 until his death." went with
    the clause it continued; "She was previously an MP for Reykjavík" right after "She was a Member of the
    Althing (MP) from 2013 to 2017" went (a "previously" after a changed sentence still follows what it
    says: "She joined the BBC in 2005. She was previously a producer at ITV.")."""
    if not any(
        _an_also(word) or is_emphatic_reflexive(word) or _a_previously(word) for word in pieces[index]
    ):
        return set()  # most sentences: no need to gather what went before
    went = _lemmas_of_dropped_pieces(pieces, index, rewritten)
    went |= _nouns_reworded_away(pieces, index, rewritten)
    just_before = _lemmas_of_dropped_pieces(pieces, index, rewritten, since=index - 1) if index else set()
    if not went:
        return set()  # nothing went before (`just_before` is part of `went`)
    kept_before = _kept_text_before(pieces, index, rewritten)
    return {
        word.i
        for word in pieces[index]
        if _stresses_what_went(word, went, removed, kept_before)
        or (
            _a_previously(word)
            and word.i not in removed
            and _says_again_what_went(word, just_before, removed, kept_before)
        )
    }


def _stresses_what_went(word: Any, went: set[str], removed: set[int], kept_before: str = "") -> bool:
    """An "also" or emphatic "himself" whose verb's object or predicate is a noun that went (and that the
    kept text before does not say)."""
    if word.i in removed or not (_an_also(word) or is_emphatic_reflexive(word)):
        return False
    return _says_again_what_went(word, went, removed, kept_before)


def _says_again_what_went(word: Any, went: set[str], removed: set[int], kept_before: str) -> bool:
    said = [
        c for c in word.head.children if c.dep_ in {"attr", "dobj"} and c.i not in removed and c.i != word.i
    ]
    return any(n.lemma_.lower() in went and not _said_in(n, kept_before) for n in said)


def _an_also(word: Any) -> bool:
    return word.lower_ == "also" and word.dep_ == "advmod"


def _a_previously(word: Any) -> bool:
    return word.lower_ == "previously" and word.dep_ == "advmod"


def _nouns_reworded_away(pieces: list[Any], index: int, rewritten: dict[int, str]) -> set[str]:
    """The nouns a changed sentence before `index` no longer says, word for word ("MP" is not said by
    "MPs")."""
    gone = set()
    for i in range(index):
        if rewritten.get(i):
            words = set(re.findall(r"\w+", rewritten[i].lower()))
            gone |= {
                t.lemma_.lower() for t in pieces[i] if t.pos_ in {"NOUN", "PROPN"} and t.lower_ not in words
            }
    return gone


def _kept_text_before(pieces: list[Any], index: int, rewritten: dict[int, str]) -> str:
    return " ".join(rewritten.get(i, pieces[i].text) for i in range(index)).lower()


def _said_in(noun: Any, text: str) -> bool:
    """The noun, or its plural, as a word of `text` ("club" is not said by "clubhouse")."""
    forms = {re.escape(noun.lower_), re.escape(noun.lemma_.lower())}
    return re.search(rf"\b(?:{'|'.join(forms)})(?:e?s)?\b", text) is not None


def _only_a_cut_fragment_left(pieces: list[Any], rewritten: dict[int, str]) -> bool:
    """Every sentence went but the passage's last words, cut off by the retriever before their verb ("Later
    and with his") or right after it ("It was"): alone, they say nothing."""
    last = len(pieces) - 1
    return (
        last > 0
        and all(rewritten.get(i) == "" for i in range(last))
        and last not in rewritten
        and pieces[last][-1].text not in {".", "!", "?", '"', "”"}
        and (not _has_a_verb(pieces[last]) or len(pieces[last].text.split()) < 4)  # "It was"
    )


def _only_headings_left(text: str, new_text: str) -> bool:
    """Every sentence the rewrite kept announces a list (ends with ":") whose items all went."""
    kept = [piece.strip() for piece in sentence_pieces(new_text) if piece.strip()]
    return (
        bool(kept)
        and new_text.strip() != text.strip()
        and all(piece.endswith(":") and ";" not in piece and len(piece.split()) <= 12 for piece in kept)
    )


def without_broken_sentences(
    text: str, new_text: str, edits: tuple[Edit, ...], parse: Parser | None = None
) -> tuple[str, tuple[Edit, ...], int]:
    """`new_text` without the sentences in which the checker finds a construction the rewrite added
    (a sentence that does not read goes whole, as the repair's own fallback does); its edits against
    `text`, and how many sentences went. For removals the repair did not choose itself."""
    broken = broken_in_rewrite(text, new_text, parse)
    if not broken:
        return new_text, edits, 0
    kept, dropped, offset = [], 0, 0
    for piece in sentence_pieces(new_text):
        span = (offset, offset + len(piece))
        offset += len(piece)
        if piece.strip() and any(span[0] <= b.span[0] < span[1] for b in broken):
            dropped += 1
            kept.append("\n" if piece.endswith("\n") else "")
        else:
            kept.append(piece)
    mended = _without_emptied_lines(text, capitalise_new_sentence_starts(text, "".join(kept)))
    if not text[-1:].isspace():
        mended = mended.rstrip()
    return mended, rediff(text, mended, edits), dropped


def _without_emptied_lines(text: str, new_text: str) -> str:
    """Dropped paragraphs leave their line breaks: at most one blank line between paragraphs, none
    where the original had none, and none before the first unless the original opened with one."""
    new_text = re.sub(r"\n[ \t]*\n(?:[ \t]*\n)+", "\n\n", new_text)
    if not re.search(r"\n[ \t]*\n", text):  # a record's lines ("Name / Firm / Street"): no blank line
        new_text = re.sub(r"\n(?:[ \t]*\n)+", "\n", new_text)
    if not text.startswith("\n"):
        new_text = new_text.lstrip("\n")
    return new_text


def _said_elsewhere(new: str, text: str, sent: Any, rewritten: dict[int, str]) -> bool:
    """Whether another sentence of the passage already says `new`: a rewritten one under any subject
    form ("He died in October 2011." after "Arne Eidsmo died in October 2011."), an untouched one word
    for word (its own original, which a partial deletion may leave it equal to, does not count)."""
    others = text[: sent.start_char] + "\n" + text[sent.end_char :]
    said = _predicate(new)  # "He died in October 2011." says what "Arne Eidsmo died in October 2011." does
    return any(_predicate(other) == said for other in rewritten.values()) or new in others


_LEADING_SUBJECT = re.compile(r"^(?:He|She|[A-Z][\w.'’-]*(?:\s+(?:[A-Z][\w.'’-]*|de|van|von))*)\s+(?=[a-z])")


def _predicate(sentence: str) -> str:
    return _LEADING_SUBJECT.sub("", sentence.strip())


def _numbers_between_dropped_segments(
    text: str, pieces: list[Any], rewritten: dict[int, str], replacements: list[Removal]
) -> list[Removal]:
    """ "[... address to the same: Király u.] 15. [Ástráðsson Street / Suite 001 ...]": a segment of digits
    and marks alone, which the sentence splitter cut from a value that went, goes when what stood on both
    sides of it went."""
    added = []
    for index, piece in enumerate(pieces):
        if index in rewritten or any(char.isalpha() for char in piece.text):
            continue
        if 0 < index < len(pieces) - 1 and rewritten.get(index - 1) == rewritten.get(index + 1) == "":
            rewritten[index] = ""
            span = _with_following_space(text, (piece.start_char, piece.end_char))
            added.append((span, "", "left of a removed value", ()))
    return sorted([*replacements, *added], key=lambda r: r[0][0])


def _after_dropped_sentences(
    text: str, pieces: list[Any], rewritten: dict[int, str], replacements: list[Removal]
) -> list[Removal]:
    """A sentence after one that went loses the opening that pointed back at it ("But", "During this
    time")."""
    by_span = {r[0][0]: r for r in replacements}
    for index, sent in enumerate(pieces):
        if rewritten.get(index) == "" or not _after_a_dropped_sentence(pieces, index, rewritten):
            continue  # (after a list member or a clause after ";", not a sentence of its own)
        current = rewritten.get(index, sent.text)
        mended = _without_a_time_of_what_went(without_stranded_connective(current), sent, pieces[index - 1])
        if all(rewritten.get(i) == "" for i in range(index)):
            mended = _without_also(mended)  # "Webb also works as a sound designer" now opens the passage
        if mended == current:
            continue
        old = by_span.get(sent.start_char, ((sent.start_char, sent.end_char), "", "pointed back", ()))
        by_span[sent.start_char] = (old[0], mended, old[2], old[3])
        rewritten[index] = mended
    return sorted(by_span.values(), key=lambda r: r[0][0])


_ALSO = re.compile(r"(?<=\w)\s+also\b(?=\s+\w)")
_TIME_OPENINGS = {"after", "following", "before", "during", "since", "until", "upon"}


def _without_a_time_of_what_went(sentence: str, piece: Any, dropped: Any) -> str:
    """ "After the Olympics, he worked at a ski school" right after the sentence that named those Olympics
    (the 1972 ones) went: said after the 1964 Olympics of an earlier sentence, it would move him back in
    time (round 36's reader). The opening goes ("After" + "the" + a bare noun + its comma); the sentence
    stays. "After the war he moved", "After the death of his wife in London," keep theirs."""
    words = [t for t in piece if not t.is_space]
    if len(words) < 4 or words[0].lower_ not in _TIME_OPENINGS or words[0].dep_ != "prep":
        return sentence
    nouns = [c for c in words[0].children if c.dep_ == "pobj"]
    if len(nouns) != 1 or any(c.dep_ != "det" or c.lower_ != "the" for c in nouns[0].children):
        return sentence
    noun, doc = nouns[0], piece.doc
    if noun.i + 1 >= len(doc) or doc[noun.i + 1].text != "," or noun.i != words[0].i + 2:
        return sentence
    if noun.lemma_.lower() not in {t.lemma_.lower() for t in dropped if t.pos_ in {"NOUN", "PROPN"}}:
        return sentence
    opening = doc[words[0].i : noun.i + 2].text
    lead, body = sentence[: len(sentence) - len(sentence.lstrip())], sentence.lstrip()
    if not body.startswith(opening):
        return sentence
    rest = body[len(opening) :].lstrip()
    return lead + rest[:1].upper() + rest[1:]


def _without_also(sentence: str) -> str:
    """The sentence without an "also" that added to what went before it, when nothing goes before it; one
    after a first clause of its own sentence stays ("best known for X, and is also known for Y")."""
    match = _ALSO.search(sentence)
    if match is None or re.search(r"[,;]|\band\b", sentence[: match.start()]):
        return sentence
    return sentence[: match.start()] + sentence[match.end() :]


def _continues_a_dropped_clause(pieces: list[Any], index: int, rewritten: dict[int, str]) -> bool:
    """A segment after a ";" that leans on the clause before it, which went: "...; and a MD from the
    College of Physicians" or "...; Chair of the Canadian Section ..." after "he serves as Chair of ...".
    (List pages, whose members have no verb, lose one member at a time.)"""
    if (
        _closes_a_bracket_of_a_dropped_piece(pieces, index, rewritten)
        or _inside_a_dropped_quotation(pieces, index, rewritten)
        or _a_line_going_on_from_a_dropped_one(pieces, index, rewritten)
    ):
        return True
    if index == 0 or rewritten.get(index - 1) != "" or pieces[index - 1][-1].text != ";":
        return False
    start = index - 1  # past verbless segments that went with it ("...; Chair of X; Chair of Y")
    while start > 0 and not _has_a_verb(pieces[start]) and not _continues(pieces[start]):
        if is_a_list_page(pieces[start].doc.text):
            return False  # a list page's members went one at a time
        if rewritten.get(start - 1) != "" or pieces[start - 1][-1].text != ";":
            return False
        start -= 1
    before, piece = pieces[start], pieces[index]
    if not _has_a_verb(before) and not _continues(before):
        return False
    return _continues(piece) or not _has_a_verb(piece)


def _closes_a_bracket_of_a_dropped_piece(pieces: list[Any], index: int, rewritten: dict[int, str]) -> bool:
    """The parser ended a sentence inside a bracket ("the periodical [http://... ''Technai." | "An
    international journal on ancient science and technology], and serves on the board ..."): once the
    first part went, the rest is a fragment that closes a bracket nothing opened."""
    if index == 0 or rewritten.get(index - 1) != "":
        return False
    return _open_brackets(pieces[index - 1].text) > 0 and _open_brackets(pieces[index].text) < 0


def _inside_a_dropped_quotation(pieces: list[Any], index: int, rewritten: dict[int, str]) -> bool:
    """'while Bunbury writes "He was an aged man ... amongst young officers.' went, and the quotation went on
    in the next sentence: 'But though it appeared a little out of fashion, there was much care and valour in
    that Scotchman".' is no one's words now, and closes a quotation the rewrite never opens. Only a
    quotation that a dropped sentence opened and never closed, up to the mark that closes it."""
    opener = index - 1
    while opener >= 0 and rewritten.get(opener) == "" and not _QUOTE_MARK.search(pieces[opener].text):
        opener -= 1  # sentences inside the quotation that went with it
    if opener < 0 or rewritten.get(opener) != "" or not _leaves_a_quotation_open(pieces[opener].text):
        return False
    text = pieces[index].doc.text
    closing = _QUOTE_MARK.search(text, pieces[index].start_char)
    return closing is not None and closes_a_quotation(text, closing.start())


_QUOTE_MARK = re.compile(r'(?<!\d)["\u201c\u201d]')  # not an inch mark ('6\'2" tall')


def _leaves_a_quotation_open(text: str) -> bool:
    marks = [m.start() for m in _QUOTE_MARK.finditer(text)]
    return bool(marks) and not closes_a_quotation(text, marks[-1]) and len(marks) % 2 == 1


def _a_line_going_on_from_a_dropped_one(pieces: list[Any], index: int, rewritten: dict[int, str]) -> bool:
    """A record's short verbless line that opens on a comma goes on from the line above ("Sečovlje / , nan /
    45956", an address over three lines); once that line went, it is a scrap of it."""
    piece = pieces[index]
    if index == 0 or rewritten.get(index - 1) != "" or not piece.text.lstrip().startswith(","):
        return False
    if _has_a_verb(piece) or len(piece.text.split()) > 4:
        return False  # "\n, could you update my account please?" is a request of its own
    doc = piece.doc
    return "\n" in doc.text[pieces[index - 1].end_char : pieces[index].start_char + 1]


def _open_brackets(text: str) -> int:
    return sum(text.count(c) for c in "([") - sum(text.count(c) for c in ")]")


def _has_a_verb(piece: Any) -> bool:
    """A verb outside brackets: a list member's "(born 1960)" makes no clause of it."""
    return any(token.pos_ in VERB_POS and not inside_brackets(piece, token) for token in piece)


DEMONSTRATIVES = {"this", "that", "these", "those"}


def _points_back_at_a_dropped_sentence(
    pieces: list[Any], index: int, rewritten: dict[int, str], removed: set[int], title: str = ""
) -> bool:
    """ "He remained in this position for three years." after the sentence that named the position went:
    "this position" ("the same university") would point at whatever the passage now says before it."""
    if not _after_a_dropped_sentence(pieces, index, rewritten):
        return False
    piece = pieces[index]
    # an opening that pointed back ("During this time, ...") is cut off instead, see _after_dropped_sentences
    opening = len(piece.text) - len(without_stranded_connective(piece.text))
    kept_before = _kept_text_before(pieces, index, rewritten)
    if _they_open(piece, removed):
        return True  # "They had at least eight children." after the marriage went
    if _someone_else_opens(pieces, index, title):
        return True  # "He and his wife had two daughters; William Archibald was their only son."
    if _opens_on_its_verb(piece) and not kept_before.strip():
        return True  # "Died in Paddington." went on from "He was a painter, born in New York."
    latter = _THE_LATTER.search(piece.text)
    if latter and not re.search(r",|\band\b", piece.text[: latter.start()]):
        return True  # "Laake testified at the latter's post-war trial": the latter of two now gone
    went_just_before = _lemmas_of_dropped_pieces(pieces, index, rewritten, since=index - 1)
    went_before = _lemmas_of_dropped_pieces(pieces, index, rewritten)
    return any(
        (
            (t.lower_ in DEMONSTRATIVES and t.dep_ == "det")
            or (t.lower_ == "same" and t.dep_ == "amod")
            or _bare_pointer(t, kept_before)
            or _names_what_went(t, went_before if t.lower_ == "the" else went_just_before, kept_before)
        )
        and t.idx - piece.start_char >= opening
        and t.i not in removed
        and t.head.i not in removed
        and not _points_inside_its_sentence(t, piece.start)
        for t in piece
    ) or any(
        _pronoun_pointing_back(t, kept_before, title) and t.idx - piece.start_char >= opening for t in piece
    )


# nouns that "the" makes point back at the one the passage named ("He won the seat at a by-election")
POINTER_NOUNS = {
    "seat", "post", "office", "position", "role", "title", "club", "band", "team", "party", "expedition",
    "company", "firm", "community", "series", "show", "album", "film", "ship", "project", "campaign",
    "course", "faculty", "programme", "program", "idea",
    "trial", "conflict", "battle",
    "churchyard", "cemetery", "church", "school", "college", "hospital", "estate", "newspaper", "magazine",
    "voyage", "journey", "trip", "crossing", "marriage", "wedding", "illness", "accident", "election",
    "by-election", "appointment", "tour", "wound", "injury",
    "association", "society", "organization", "organisation", "federation", "league", "union",
}  # fmt: skip
_SAYS_WHICH = {"amod", "compound", "prep", "poss", "nummod", "relcl", "acl"}


_POSSESSIVES = POSSESSIVE_PRONOUNS | {"its", "their"}
# "his grandfather" says who by itself, whatever the dropped sentence said of him
_SAYS_WHO = RELATIONAL_NOUNS | {
    "grandfather",
    "grandmother",
    "grandparent",
    "parent",
    "uncle",
    "aunt",
    "family",
}


def _possessed_thing(possessive: Any) -> bool:
    return (
        possessive.lower_ in _POSSESSIVES
        and possessive.dep_ == "poss"
        and possessive.head.lemma_.lower() not in _SAYS_WHO
    )


_THE_LATTER = re.compile(r"\bthe (?:latter|former)\b", re.IGNORECASE)


def _bare_pointer(article: Any, kept_before: str) -> bool:
    """ "the seat" with nothing of its own saying which, its noun said nowhere before it in what is kept."""
    noun = article.head
    return (
        article.lower_ == "the"
        and article.dep_ == "det"
        and noun.lemma_.lower() in POINTER_NOUNS
        and not any(c.dep_ in _SAYS_WHICH for c in noun.children)
        and noun.lower_ not in kept_before
    )


def _pronoun_pointing_back(pronoun: Any, kept_before: str, title: str = "") -> bool:
    """ "Is that correct?" after "You said your email is [...]." went: a demonstrative standing for what the
    dropped sentence said (the subject or object of its main verb; not "that of Picasso", "like this:");
    "You can always depend on him." with nothing kept before it to be "him", in a text no name titles."""
    doc = pronoun.doc
    if pronoun.lower_ in {"this", "that"} and pronoun.tag_ == "DT":
        after = doc[pronoun.i + 1].text if pronoun.i + 1 < len(doc) else ""
        return (
            pronoun.dep_ in {"nsubj", "nsubjpass", "dobj", "attr"}
            and pronoun.head.i == pronoun.sent.root.i
            and not any(c.lower_ == "of" for c in pronoun.children)
            and after != ":"
        )
    if _titled_by_a_name_it_says(doc.text, title) or kept_before.strip():
        return False  # the name comes back for the pronoun (`restore_first_mentions`)
    if pronoun.tag_ != "PRP" or pronoun.lower_ not in {"him", "her", "them"}:
        return False
    if pronoun.dep_ not in {"dobj", "pobj", "dative"}:
        return False
    # "Søren Krarup has a writing career behind him", "Upon her death ... described her": said in its sentence
    before = pronoun.doc[pronoun.sent.start : pronoun.i]
    return not any(t.pos_ in {"PROPN", "NOUN"} or t.lower_ in _THIRD_PERSON for t in before)


def _titled_by_a_name_it_says(text: str, title: str) -> bool:
    """A title that is a name the passage says ("Søren Krarup"); not a placeholder ("Pasted text")."""
    words = re.sub(r"\s*\([^()]*\)\s*$", "", title).split()
    return bool(words) and re.search(rf"\b{re.escape(words[-1])}\b", text) is not None


_THIRD_PERSON = {"he", "she", "they", "his", "her", "their", "it", "its"}


def _they_open(piece: Any, removed: set[int]) -> bool:
    """The sentence's subject is "they" (or "their ..."): right after a dropped sentence, the people it
    meant were most likely named there."""
    subjects = [t for t in piece if t.dep_ in {"nsubj", "nsubjpass"} and t.head.dep_ == "ROOT"]
    if not subjects or subjects[0].i in removed:
        return False
    subject = subjects[0]
    if subject.lower_ == "they" or any(c.lower_ == "their" and c.dep_ == "poss" for c in subject.children):
        return True
    # "[He and his wife had two daughters;] William Archibald was their only son": whose son now?
    predicates = [t for t in piece if t.dep_ in {"attr", "dobj"} and t.head.dep_ == "ROOT"]
    return any(c.lower_ == "their" and c.dep_ == "poss" for p in predicates for c in p.children)


def _someone_else_opens(pieces: list[Any], index: int, title: str) -> bool:
    """ "He" opens the sentence and the sentence names the title's person too: "he" is someone else, named in
    the dropped sentence before ("Wall the elder got married ..." went, the father's family would become
    his son's)."""
    piece = pieces[index]
    opening = _first_word(piece)
    name = title_name(title).split()
    if opening is None or opening.lower_ not in SUBJECT_PRONOUNS or not name:
        return False
    sentence = [piece]
    while sentence[-1][-1].text == ";" and index + len(sentence) < len(pieces):
        sentence.append(pieces[index + len(sentence)])
    for part in sentence:
        names = [" ".join(t.text for t in ent) for ent in part.ents if ent.label_ == "PERSON"]
        if any(_names_the_title_person(n.split(), name) for n in names):
            return True
    return False


def _opens_on_its_verb(piece: Any) -> bool:
    """A sentence without a subject that opens on its verb ("Died in Paddington, London in 1888."): it went
    on from the sentence before, whose subject it shared."""
    first = _first_word(piece)
    root = piece.root
    return first is not None and first.i == root.i and root.tag_ in {"VBD", "VBN"} and is_subjectless(piece)


def _first_word(piece: Any) -> Any | None:
    return next((t for t in piece if not t.is_space and not t.is_punct), None)


def _names_the_title_person(words: list[str], name: list[str]) -> bool:
    """ "William Archibald" or "Wall" of "William Archibald Wall"."""
    return bool(words) and all(w in name for w in words) and (len(words) >= 2 or words == name[-1:])


def _lemmas_of_dropped_pieces(
    pieces: list[Any], index: int, rewritten: dict[int, str], since: int = 0
) -> set[str]:
    """What the dropped sentences before `index` named, and the verbs of the one just before: "[Timme was
    wounded at Chickamauga;] the wound was so severe", "[His younger brother was Andrew.] ... The brothers
    lived together" ("[He worked as a teacher.] [...] The work was translated" is another work). A "his"
    looks only at the sentence just before: "His most famous case" needs no case said before."""
    return {
        t.lemma_.lower()
        for i in range(since, index)
        if rewritten.get(i) == ""
        for t in pieces[i]
        if t.pos_ in {"NOUN", "PROPN"} or (t.pos_ == "VERB" and i == index - 1)
    }


def _names_what_went(article: Any, dropped_nouns: set[str], kept_before: str) -> bool:
    """ "The stud farm was sold" right after the sentence that bought "a stud farm" went: a subject's "the"
    (or "her": "Her cancer has been linked to ..." after the diagnosis went) points at a noun only the
    dropped sentence said, and nothing of its own says which. (An object's need not: "He survived the war"
    after "He served during the war" went names a war everyone knows.)"""
    noun = article.head
    return (
        ((article.lower_ == "the" and article.dep_ == "det") or _possessed_thing(article))
        and noun.pos_ == "NOUN"
        and noun.dep_ in {"nsubj", "nsubjpass"}
        and noun.lemma_.lower() in dropped_nouns
        and noun.lower_ not in kept_before
        and noun.lemma_.lower() not in kept_before
        and not any(c.dep_ in {"prep", "relcl", "acl", "appos"} for c in noun.children)
    )


def _after_a_dropped_sentence(pieces: list[Any], index: int, rewritten: dict[int, str]) -> bool:
    """The piece before went, and was a sentence or a clause ending with ";" (a list page's member is
    none: its members say nothing of each other)."""
    if index == 0 or rewritten.get(index - 1) != "":
        return False
    end = pieces[index - 1][-1].text
    return end in {".", "!", "?"} or (end == ";" and not is_a_list_page(pieces[index].doc.text))


_YEAR_POINTER = re.compile(r"\b(?:that|the same|the following|the next|the previous) year\b", re.IGNORECASE)


def _year_it_pointed_at_went(pieces: list[Any], index: int, removed: set[int]) -> bool:
    """ "In July of that year he accepted a position" after the sentence before lost every date it said,
    or "published in Antwerp that year" after its own "after 1597" went: "that year" would now be
    another year, the last one the passage still names."""
    piece = pieces[index]
    match = _YEAR_POINTER.search(piece.text)
    if match is None:
        return False
    at = piece.start_char + match.start()
    years_before = [t for t in piece if t.idx < at and t.ent_type_ == "DATE" and t.like_num]
    if years_before:
        return years_before[-1].i in removed
    if index == 0:
        return False
    dates = [t for t in pieces[index - 1] if t.ent_type_ == "DATE" and t.like_num]
    return bool(dates) and all(t.i in removed for t in dates)


# "to this day", "at that point" say when, not what went
TIME_IDIOMS = {"day", "date", "point", "moment"}


def _points_at_what_went(sent: Any, removed: set[int]) -> bool:
    """A kept "that conflict" whose noun nothing before it says, after words of its sentence that went:
    it pointed at them ("the Quasi-War")."""
    said_before = sent.doc.text[: sent.start_char].lower()
    for token in sent:
        if token.i in removed or token.lower_ not in DEMONSTRATIVES or token.dep_ != "det":
            continue
        noun = token.head
        kept_before = {t.lemma_.lower() for t in sent if t.i < token.i and t.i not in removed}
        names_kept_before = any(t.pos_ == "PROPN" and t.i not in removed for t in sent if t.i < token.i)
        if (
            not names_kept_before  # "Kiev Polytechnic Institute ... that university's": said another way
            and any(t.i in removed and t.pos_ in {"NOUN", "PROPN"} for t in sent if t.i < token.i)
            and noun.i not in removed
            and noun.pos_ == "NOUN"
            and noun.lemma_.lower() not in kept_before
            and noun.lower_ not in said_before
            and noun.lower_ not in TIME_IDIOMS
            and token.ent_type_ in {"", "DATE", "TIME"}
        ):
            return True
    return False


def _points_inside_its_sentence(demonstrative: Any, start: int = 0) -> bool:
    """Whether "that" can point at something its own sentence says: a second clause ("He had a stint as
    the ruck coach ..., but left that role"), an earlier word of the same noun ("Having won the Nobel Prize,
    he gave that prize away"), a title ("That '70s Show") or an idiom ("to this day")."""
    noun = demonstrative.head
    # from `start`: a clause before a ";" that went says nothing any more
    earlier = {  # nouns: '"Battery is found in me" shows that these early shows' names no shows before
        t.lemma_.lower()
        for t in demonstrative.sent
        if start <= t.i < demonstrative.i and t.pos_ in {"NOUN", "PROPN"}
    }
    return (
        any(a.dep_ == "conj" and a.pos_ in VERB_POS for a in demonstrative.ancestors)
        or noun.lemma_.lower() in earlier
        or noun.pos_ == "PROPN"
        or demonstrative.ent_type_ not in {"", "DATE", "TIME"}  # "that year" is a pointer, a name is not
        or (demonstrative.text[:1].isupper() and demonstrative.i != demonstrative.sent.start)  # a title
        or noun.lower_ in TIME_IDIOMS
    )


def _continues(piece: Any) -> bool:
    return piece[0].dep_ == "cc" or piece[0].lower_ in {"and", "or", "but", "nor"}


_BORN_WHEN = re.compile(
    r"^(?P<head>[^.;]+?) was born (?P<when>on \d{1,2} [A-Z][a-z]+ \d{3,4}|on [A-Z][a-z]+ \d{1,2}, \d{3,4}"
    r"|in (?:[A-Z][a-z]+ )?\d{3,4})(?P<died> and died [^.;]+)?\.$"
)
_BORN_WHERE = re.compile(
    r"^(?P<subject>He|She|[A-Z][\w'-]+(?: [A-Z][\w'-]+){0,3}) was born (?P<where>(?:in|at) .+)$", re.S
)


def _one_birth_sentence(
    text: str, pieces: list[Any], rewritten: dict[int, str], replacements: list[Removal]
) -> list[Removal]:
    """A rewritten "Gustav Seitz was born on 11 September 1906." before a kept "Seitz was born in the
    Neckarau quarter of Mannheim." says "born" twice; the two become one sentence (round 36: also after
    "... and died on 18 November 1889.", and without the kept sentence's year said again)."""
    by_span = {r[0][0]: r for r in replacements}
    for index in range(len(pieces) - 1):
        when = _BORN_WHEN.match(rewritten.get(index) or "")
        after = rewritten.get(index + 1, pieces[index + 1].text)
        where = _BORN_WHERE.match(after) if when else None
        if when is None or where is None or not _same_person(where["subject"], when["head"]):
            continue
        if (
            when["died"]
            and re.search(r"\bdied\b", where["where"])
            and not _DIED_WHERE_LAST.search(where["where"])
        ):
            continue  # "born in Stockport, died there ...": the death would be said twice
        start, next_start = pieces[index].start_char, pieces[index + 1].start_char
        old = by_span[start]
        by_span[start] = (old[0], _born_when_and_where(when, where["where"]), old[2], old[3])
        old_next = by_span.get(next_start, ((next_start, pieces[index + 1].end_char), "", "said in one", ()))
        by_span[next_start] = (_with_following_space(text, old_next[0]), "", old_next[2], old_next[3])
        rewritten[index], rewritten[index + 1] = by_span[start][1], ""
    return sorted(by_span.values(), key=lambda r: r[0][0])


_DIED_WHERE_LAST = re.compile(r"\band died (?:in|at) [^,.;]+\.?$")


def _born_when_and_where(when: re.Match[str], where: str) -> str:
    """ "John Barnes was born on 24 December 1817 in Stockport and died on 18 November 1889." from the
    realised "... born on 24 December 1817 and died on ..." and a kept "born in Stockport in 1817."."""
    year = re.search(r"\d{3,4}$", when["when"])
    place = where.rstrip()
    if year:  # the kept sentence's own date of the birth, not a later event's year
        place = re.sub(rf",?\s+(?:on|in)\s+(?:[^,.;]*?\s)?{year.group(0)}\b", "", place, count=1)
    if not when["died"]:
        return f"{when['head']} was born {when['when']} {place}{where[len(where.rstrip()) :]}"
    if _DIED_WHERE_LAST.search(place):  # "... and died in Dunedin on 18 November 1889."
        died_when = when["died"].split(" died ", 1)[1]
        return f"{when['head']} was born {when['when']} {place.rstrip('.')} {died_when}."
    if re.search(r",| and ", place):  # "at Rome and was a pupil of ...": the death gets its own sentence
        surname = when["head"].split()[-1]
        return (
            f"{when['head']} was born {when['when']} {place} {surname}{when['died'].replace(' and', '', 1)}."
        )
    return f"{when['head']} was born {when['when']} {place.rstrip('.')}{when['died']}."


def _without_announcements_of_what_went(
    text: str, pieces: list[Any], rewritten: dict[int, str], replacements: list[Removal]
) -> list[Removal]:
    """ "He was given a number of honours." once every sentence after it that said which went: a sentence
    that ends on a vague count ("several awards", "a number of honours") announced what followed. A
    heading the retriever left last ("Notable people with the surname include:") goes with the sentence
    before it ("Butson is a surname."), which it pointed back at."""
    by_span = {r[0][0]: r for r in replacements}
    last = len(pieces) - 1
    if (
        last > 0
        and last not in rewritten
        and rewritten.get(last - 1) == ""
        and pieces[last].text.endswith(":")
    ):
        rewritten[last] = ""
        span = _with_following_space(text, (pieces[last].start_char, pieces[last].end_char))
        by_span[pieces[last].start_char] = (span, "", "announced what went", ())
    for index in range(len(pieces) - 1):
        piece = pieces[index]
        if index in rewritten or rewritten.get(index + 1) != "" or not _ends_on_a_vague_count(piece):
            continue
        rewritten[index] = ""
        by_span[piece.start_char] = (
            _with_following_space(text, (piece.start_char, piece.end_char)),
            "",
            "announced what went",
            (),
        )
    return sorted(by_span.values(), key=lambda r: r[0][0])


def _ends_on_a_vague_count(piece: Any) -> bool:
    """The sentence (not a list's piece) ends on its object, counted without saying which."""
    words = [t for t in piece if not t.is_punct]
    if not words or not words[0].is_title or not piece.text.rstrip().endswith("."):
        return False
    noun = words[-1]
    counted = noun.head.head if noun.dep_ == "pobj" and noun.head.lower_ == "of" else noun
    return (
        counted.dep_ in {"dobj", "attr"}
        and vaguely_counted(noun)
        and not any(c.dep_ in {"prep", "acl", "relcl"} for c in noun.children)
    )


def _same_person(subject: str, head: str) -> bool:
    return subject in {"He", "She"} or set(subject.split()) <= set(head.split())


def _end_cut_sentences(
    text: str, pieces: list[Any], rewritten: dict[int, str], replacements: list[Removal]
) -> list[Removal]:
    """A sentence cut into segments ("He was editor of X, 1854-56; proprietor of Y.") whose last
    segments all went ends with the full stop they carried (or none, as it did), not with the kept
    segment's ";"."""
    ends = _sentence_ends(text)
    by_span = {r[0][0]: r for r in replacements}
    for index, sent in enumerate(pieces):
        final = (
            sent.end_char in ends
            or "\n" in text[sent.end_char : sent.end_char + 1]
            or index == len(pieces) - 1
        )
        if not final or index not in rewritten or rewritten[index]:
            continue
        earlier = index - 1
        while earlier >= 0 and earlier in rewritten and not rewritten[earlier]:
            earlier -= 1
        if (
            earlier < 0
            or pieces[earlier].end_char in ends
            or "\n" in text[pieces[earlier].end_char : sent.start_char]
        ):
            continue
        kept = rewritten.get(earlier, pieces[earlier].text)
        if kept.rstrip().endswith((".", "!", "?")):
            continue
        # a list that ended without a full stop ("...; William Feilden (1772–1850), British politician")
        # ends without one when its last members go, not on the kept member's ";"
        mark = sent.text.rstrip()[-1] if sent.text.rstrip().endswith((".", "!", "?")) else ""
        ended = re.sub(r"[\s,;:–—-]+$", "", kept) + mark
        start = pieces[earlier].start_char
        if start in by_span:
            old = by_span[start]
            by_span[start] = (old[0], ended, old[2], old[3])
        else:
            by_span[start] = ((start, pieces[earlier].end_char), ended, "", ())
    return sorted(by_span.values(), key=lambda r: r[0][0])


def segments(doc: Any) -> list[Any]:
    """The text's sentences (as the fluency checker cuts them, whatever the parser's own split), cut
    further at line breaks and at top-level semicolons (list pages: "A, actor ; B, poet"), without the
    whitespace around them: each is repaired, checked and, if need be, dropped on its own."""
    ends = _sentence_ends(doc.text)
    pieces = []
    start = 0
    depth = 0  # a semicolon inside brackets ends nothing
    for token in doc:
        depth = max(0, depth + (token.text == "(") - (token.text == ")"))
        boundary = (
            (token.is_space and "\n" in token.text)
            or "\n" in token.whitespace_
            or (token.text == ";" and depth == 0)
            or (token.idx + len(token.text)) in ends
        )
        if boundary:
            pieces.append(doc[start : token.i + (0 if token.is_space else 1)])
            start = token.i + 1
    pieces.append(doc[start : len(doc)])
    trimmed = [_strip_space(piece) for piece in pieces]
    return [piece for piece in trimmed if len(piece)]


def _sentence_ends(text: str) -> set[int]:
    ends, offset = set(), 0
    for sentence in sentence_pieces(text):
        offset += len(sentence)
        ends.add(offset - (len(sentence) - len(sentence.rstrip())))
    return ends


def _strip_space(span: Any) -> Any:
    start, end = span.start, span.end
    doc = span.doc
    while start < end and doc[start].is_space:
        start += 1
    while end > start and doc[end - 1].is_space:
        end -= 1
    return doc[start:end]


def removed_tokens(doc: Any, spans: Sequence[Span]) -> set[int]:
    """Tokens whose middle character lies inside a removed span."""
    removed = set()
    for token in doc:
        middle = token.idx + len(token.text) / 2
        if any(start <= middle < end for start, end in spans):
            removed.add(token.i)
    return removed


def repaired_sentence(
    doc: Any,
    sent: Any,
    removed: set[int],
    public: Sequence[Triple],
    parse: Parser | None = None,
    title: str = "",
) -> str:
    """The sentence with its removed tokens and what depended on them gone, tidied, or its realisation."""
    local = {t.i for t in sent if t.i in removed}
    keep = public_tail_tokens(doc, sent, public)
    candidate = _partial_deletion(sent, local, keep, parse)
    if not candidate:
        widened = widened_to_adjunct_clauses(sent, local)
        candidate = _partial_deletion(sent, widened, keep, parse) if widened != local else ""
    if candidate and _points_at_what_went(sent, local):
        candidate = ""  # "[He was a commander in the Quasi-War] and following the end of that conflict ..."
    if candidate and is_a_list_page(doc.text) and _only_its_name_left(candidate, sent.text):
        return ""  # "Christopher Butson;": a member without what it said of the person says nothing
    if candidate:
        return candidate
    if sent[-1].text == ";" or is_a_list_page(doc.text):
        return ""  # a list member: a sentence said in its place would break the list
    stated = [
        t
        for t in public
        if stated_in(doc, sent, t, local)
        and is_about_subject(sent, t.head, title)
        and verb_relation_said(sent, t)
        and not said_as_approximate(sent.text, t)
    ]
    facts = [with_time_qualifier(sent.text, with_article(doc.text, t)) for t in stated]
    facts = one_name_per_person(facts, sent.text)
    facts = roles_without_their_of(places_as_written(facts, sent.text), sent.text)
    facts = named_as_the_sentence_did(facts, sent)
    return realise_facts(facts, past=is_past(sent))


def is_a_list_page(text: str) -> bool:
    """A name list ("Jon Eikemo (born 1939), Norwegian actor ; Olve Eikemo ..."): its members have no verb,
    and one said as a sentence ("Olve Eikemo was born in 1973 and is a musician.") is no member of it."""
    return text.count(" ; ") >= 2 or (text.count(" ; ") == 1 and "include:" in text)


_BRACKETED = re.compile(r"\([^()]*\)")


def _words_outside_brackets(member: str) -> list[str]:
    return _BRACKETED.sub(" ", member).replace(";", " ").replace(",", " ").split()


def _bare_name(member: str) -> bool:
    """A list member that is a name and its dates only ("Carl B. Stokes (1927–1996);")."""
    words = _words_outside_brackets(member)
    return bool(words) and all(w[:1].isupper() or w in NAME_PARTICLES for w in words)


def _only_its_name_left(candidate: str, member: str) -> bool:
    """The member said more than its name before ("Hotta Masayoshi (堀田 正睦), Japanese Rōjū", every word
    capitalised) and says only the name now ("George Dundas, Sea Lord" still says what he was)."""
    name = re.split(r"[(,;]", member)[0].split()
    left = _words_outside_brackets(candidate)
    return _bare_name(candidate) and left == name and len(left) < len(_words_outside_brackets(member))


def _partial_deletion(sent: Any, removed: set[int], keep: set[int], parse: Parser | None) -> str:
    """The sentence without `removed` and what depended on it, when that still reads; "" otherwise."""
    closed, needs_realising = close_deletions(sent, removed, keep)
    if a_bare_stub_left(sent, closed, keep):
        return ""  # "He debuted on stage [in 1957 at the National Theatre]."
    stubs = bare_stub_clauses(sent, closed, keep)  # "[, and is also known for his roles]"
    if stubs and not needs_realising:
        with_stubs, needs = close_deletions(sent, closed | stubs, keep)
        if not has_verb(sent, with_stubs):
            return ""  # the stub was all it had left: "[He was X, and] ultimately graduated with honors"
        if not needs and only_adjuncts_removed(sent, with_stubs):
            closed = with_stubs  # else the clause stays: better a stub than a lost sentence
    if needs_realising or not only_adjuncts_removed(sent, closed):
        return ""
    if _pronoun_pointed_into_a_removed_clause(sent, closed):
        return ""
    candidate = render(sent, closed)
    if sentence_breakage(sent.text, candidate, parse) or not has_verb(sent, closed):
        return ""
    return candidate


_CLAUSE_POINTERS = {"it", "this", "these"}


def _pronoun_pointed_into_a_removed_clause(sent: Any, removed: set[int]) -> bool:
    """ "[When the Liberal Party cabinet appointed Laake,] it was generally viewed as a political move": the
    subject "it" meant what the removed clause before it said."""
    root = sent.root
    subject = next((c for c in root.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
    if subject is None or subject.lower_ not in _CLAUSE_POINTERS or subject.i in removed:
        return False
    if subject.lower_ == "it" and subject.dep_ != "nsubjpass":
        return False  # "[When he arrived,] it was raining", "it was in London that ...": no pointer
    return any(c.dep_ == "advcl" and c.i < subject.i and c.i in removed for c in root.children)


def rediff(original: str, text: str, previous: tuple[Edit, ...]) -> tuple[Edit, ...]:
    """Character-level edits of `text` against `original`; an edit inside an earlier (coarser) edit keeps
    its reason and keys."""
    edits = []
    for edit in edits_between(original, text):
        source = next(
            (
                e
                for e in previous
                if e.original_span[0] <= edit.original_span[1] and edit.original_span[0] <= e.original_span[1]
            ),
            None,
        )
        if source is not None:
            edit = Edit(edit.kind, edit.original_span, edit.rewrite_span, source.reason, source.keys)
        edits.append(edit)
    return tuple(edits)


def _reasons_inside(removals: Sequence[Removal], span: Span) -> tuple[str, tuple[TripleKey, ...]]:
    inside = [r for r in removals if overlaps(r[0], span)]
    reasons = list(dict.fromkeys(r[2] for r in inside))
    keys = tuple(dict.fromkeys(k for r in inside for k in r[3]))
    return "; ".join(reasons), keys


def _with_following_space(text: str, span: Span) -> Span:
    start, end = span
    while end < len(text) and text[end] in " \t":
        end += 1
    return start, end
