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
   re-expressed from its public triples (`core.erasers.realise`).
4. The text is tidied: emptied brackets, lifespans with one end ("(died 5 September
   1875)"), doubled punctuation, a dangling coordinator, article agreement, capitals.

Each candidate sentence is checked with `core.erasers.fluency`; a sentence the rules
cannot mend is replaced by the realised public facts, or removed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from core.erasers.base import Edit, apply_replacements, edits_between
from core.erasers.discourse import restore_first_mentions, title_name, without_stranded_connective
from core.erasers.fluency import Parser, article_disagreements, sentence_breakage, sentence_pieces
from core.erasers.mentions import find_mentions
from core.erasers.realise import DEMONYM, VERB_RELATION, realise_facts
from core.types import Span, Triple, TripleKey

Removal = tuple[Span, str, str, tuple[TripleKey, ...]]

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
    "supporter", "advocate", "opponent", "proponent", "critic", "member",
}  # fmt: skip
# a verb's preposition that is its argument, not an adjunct ("was diagnosed [with a tumor]")
ARGUMENT_PREPOSITIONS = {
    ("diagnose", "with"), ("charge", "with"), ("credit", "with"), ("accuse", "of"), ("convict", "of"),
    ("consist", "of"), ("compose", "of"), ("marry", "to"), ("engage", "to"), ("relate", "to"),
    ("belong", "to"), ("refer", "to"), ("replace", "with"), ("replace", "by"), ("succeed", "by"),
    ("associate", "with"), ("know", "for"), ("know", "as"), ("elect", "to"), ("appoint", "to"),
    ("name", "after"), ("base", "on"), ("depend", "on"), ("rely", "on"), ("specialize", "in"),
    ("specialise", "in"), ("participate", "in"), ("result", "in"), ("suffer", "from"), ("go", "through"),
    ("go", "to"), ("go", "into"), ("come", "from"),
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
}
# verbs that say nothing without their object ("He also owned [and operated X].")
NEEDS_AN_OBJECT = {
    "own", "co-own", "operate", "found", "co-found", "establish", "manage", "run", "direct", "write",
    "co-write", "produce", "compose", "design", "build", "edit", "publish", "create", "develop", "host",
    "present", "organize", "organise", "launch", "start", "record", "release",
}  # fmt: skip
# verbs that read whole without what followed them ("He died [in Paris].")
STANDS_ALONE = {"die", "retire", "marry", "win", "lose", "graduate", "resign", "return", "compete", "survive"}
CLAUSE_DEPS = {"relcl", "advcl", "ccomp", "xcomp", "conj", "acl", "pcomp", "parataxis"}
VERB_POS = {"VERB", "AUX"}


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
    public = list(public)
    replacements: list[Removal] = []
    rewritten: dict[int, str] = {}
    pieces = segments(doc)
    for index, sent in enumerate(pieces):
        if _continues_a_dropped_clause(pieces, index, rewritten):
            rewritten[index] = ""
            span = _with_following_space(text, (sent.start_char, sent.end_char))
            replacements.append((span, "", "continued a removed clause", ()))
            continue
        if not any(t.i in removed for t in sent):
            continue
        new = repaired_sentence(doc, sent, removed, public, parse, title)
        rewritten[index] = new
        span = (sent.start_char, sent.end_char)
        reason, keys = _reasons_inside(removals, span)
        if not new:
            span = _with_following_space(text, span)
        replacements.append((span, new, reason, keys))
    replacements = _after_dropped_sentences(text, pieces, rewritten, replacements)
    replacements = _end_cut_sentences(text, pieces, rewritten, replacements)
    new_text, coarse = apply_replacements(text, replacements)
    new_text = capitalise_new_sentence_starts(text, new_text)
    new_text = restore_first_mentions(doc, new_text, parse, title)
    return new_text, rediff(text, new_text, coarse)


def _after_dropped_sentences(
    text: str, pieces: list[Any], rewritten: dict[int, str], replacements: list[Removal]
) -> list[Removal]:
    """A sentence after one that went loses the opening that pointed back at it ("But", "During this
    time")."""
    by_span = {r[0][0]: r for r in replacements}
    for index, sent in enumerate(pieces):
        if index == 0 or rewritten.get(index - 1) != "" or rewritten.get(index) == "":
            continue
        if pieces[index - 1][-1].text not in {".", "!", "?"}:
            continue  # a list member or a clause after ";": not a sentence of its own
        current = rewritten.get(index, sent.text)
        mended = without_stranded_connective(current)
        if mended == current:
            continue
        old = by_span.get(sent.start_char, ((sent.start_char, sent.end_char), "", "pointed back", ()))
        by_span[sent.start_char] = (old[0], mended, old[2], old[3])
        rewritten[index] = mended
    return sorted(by_span.values(), key=lambda r: r[0][0])


def _continues_a_dropped_clause(pieces: list[Any], index: int, rewritten: dict[int, str]) -> bool:
    """A segment after a ";" that leans on the clause before it, which went: "...; and a MD from the
    College of Physicians" or "...; Chair of the Canadian Section ..." after "he serves as Chair of ...".
    (List pages, whose members have no verb, lose one member at a time.)"""
    if index == 0 or rewritten.get(index - 1) != "" or pieces[index - 1][-1].text != ";":
        return False
    before, piece = pieces[index - 1], pieces[index]
    if not any(t.pos_ in VERB_POS for t in before) and not _continues(before):
        return False
    return _continues(piece) or not any(t.pos_ in VERB_POS for t in piece)


def _continues(piece: Any) -> bool:
    return piece[0].dep_ == "cc" or piece[0].lower_ in {"and", "or", "but", "nor"}


def _end_cut_sentences(
    text: str, pieces: list[Any], rewritten: dict[int, str], replacements: list[Removal]
) -> list[Removal]:
    """A sentence cut into segments ("He was editor of X, 1854-56; proprietor of Y.") whose last
    segments all went ends with the full stop they carried, not with the kept segment's ";"."""
    ends = _sentence_ends(text)
    by_span = {r[0][0]: r for r in replacements}
    for index, sent in enumerate(pieces):
        final = (
            sent.end_char in ends
            or "\n" in text[sent.end_char : sent.end_char + 1]
            or index == len(pieces) - 1
        )
        if (
            not final
            or index not in rewritten
            or rewritten[index]
            or not sent.text.rstrip().endswith((".", "!", "?"))
        ):
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
        ended = re.sub(r"[\s,;:–—-]+$", "", kept) + sent.text.rstrip()[-1]
        start = pieces[earlier].start_char
        if start in by_span:
            old = by_span[start]
            by_span[start] = (old[0], ended, old[2], old[3])
        else:
            by_span[start] = ((start, pieces[earlier].end_char), ended, "", ())
    return sorted(by_span.values(), key=lambda r: r[0][0])


def capitalise_new_sentence_starts(original: str, text: str) -> str:
    """A clause now after a full stop ("...; he graduated" after a realised sentence) starts a sentence."""
    kept = set(sentence_pieces(original))
    pieces = sentence_pieces(text)
    mended = []
    for index, piece in enumerate(pieces):
        previous = pieces[index - 1].rstrip() if index else ""
        if piece[:1].islower() and piece not in kept and previous.endswith((".", "!", "?")):
            piece = piece[0].upper() + piece[1:]
        mended.append(piece)
    return "".join(mended)


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
        widened = _widened_to_adjunct_clauses(sent, local)
        candidate = _partial_deletion(sent, widened, keep, parse) if widened != local else ""
    if candidate:
        return candidate
    if sent[-1].text == ";":
        return ""  # a list member: a sentence said in its place would break the list
    stated = [
        t
        for t in public
        if _stated_in(doc, sent, t) and is_about_subject(sent, t.head, title) and _verb_relation_said(sent, t)
    ]
    facts = one_name_per_person([_with_article(doc.text, t) for t in stated], sent.text)
    facts = places_as_written(facts, sent.text)
    return realise_facts(facts, past=_is_past(sent))


def _partial_deletion(sent: Any, removed: set[int], keep: set[int], parse: Parser | None) -> str:
    """The sentence without `removed` and what depended on it, when that still reads; "" otherwise."""
    closed, needs_realising = close_deletions(sent, removed, keep)
    if needs_realising or not only_adjuncts_removed(sent, closed):
        return ""
    candidate = render(sent, closed)
    if sentence_breakage(sent.text, candidate, parse) or not _has_verb(sent, closed):
        return ""
    return candidate


# clauses a sentence reads without: "is a former football player [who played 11 seasons in the NFL]"
ADJUNCT_CLAUSES = {"relcl", "acl", "advcl", "appos", "parataxis"}


def _widened_to_adjunct_clauses(sent: Any, removed: set[int]) -> set[int]:
    """Each removal that cannot go alone takes the nearest adjunct clause around it with it."""
    widened = set(removed)
    for token in sent:
        if token.i not in removed or (token.head.i in removed and token.head.i != token.i):
            continue
        inside = (a for a in token.ancestors if sent.start <= a.i < sent.end)  # segment, not parser sentence
        clause = next((a for a in inside if a.dep_ in ADJUNCT_CLAUSES), None)
        if clause is not None and _has_a_pronoun_subject(clause):
            continue  # "on the way [he fell ill at Moffat]": a main clause the parser hung on a noun
        if clause is not None and clause.head.i not in removed:
            widened |= _subtree(clause)
    return widened


# what a sentence can lose and still say the rest as written: modifiers, appositions, relative
# clauses, a list member, a bracket's content, a time or place adjunct. Losing an object, a
# predicate, a subject or a negation leaves a stub that reads as a different claim ("He was director.",
# "he coached at the youth.", "She has been published among other publications.").
ADJUNCT_DEPS = {
    "amod", "compound", "appos", "nummod", "advmod", "npadvmod", "relcl", "acl", "conj", "cc", "parataxis",
    "punct", "det", "poss", "predet", "quantmod", "nmod", "case", "prt", "mark", "advcl", "meta", "dep",
    "preconj",
}  # fmt: skip
PLACE_OR_TIME = {"DATE", "TIME", "GPE", "LOC", "FAC"}


def only_adjuncts_removed(sent: Any, removed: set[int]) -> bool:
    """Whether every removed subtree of the sentence is an adjunct its head can do without."""
    if _orphaned_its(sent, removed):
        return False  # "was elected [to the Central Workers Committee], as its youngest member"
    if _conjunct_lost_its_subject(sent, removed):
        return False  # "on the way [he fell ill at Moffat], and died there"
    if _verbs_run_together(sent, removed):
        return False  # "He graduated from X [and then learned Y from Z who] was Living National Treasure"
    for token in sent:
        if token.i not in removed or (token.head.i in removed and token.head.i != token.i):
            continue
        if _restricts_a_superlative(token):
            return False  # "the first cookbook author [published in colonial America]" would claim more
        if token.is_punct or token.text in {"(", ")", "[", "]"} or _inside_brackets(sent, token):
            continue
        if token.dep_ == "prep" and not _droppable_prep(token, removed):
            return False
        if token.dep_ in PREDICATE_DEPS and _keeps_an_adjective(token, removed):
            continue  # "was [an] Italian [painter]" -> "was Italian": the copula keeps a predicate
        if token.dep_ in PREDICATE_DEPS | {"ROOT"} and _conjunct_took_its_place(token, removed):
            continue  # "He [became a barrister and] was involved with ...": the next conjunct stays
        if token.dep_ != "prep" and token.dep_ not in ADJUNCT_DEPS:
            return False
        if token.dep_ == "conj" and not _has_kept_conj(token.head, removed) and token.head.i in removed:
            return False
    return True


def _has_a_pronoun_subject(clause: Any) -> bool:
    return any(
        c.dep_ in SUBJECT_DEPS and c.lower_ in {"he", "she", "they", "it", "i", "we"} for c in clause.children
    )


def _conjunct_lost_its_subject(sent: Any, removed: set[int]) -> bool:
    """A kept conjoined verb without a subject of its own whose first verb, and that verb's subject, went
    (unless the sentence root itself went: `_promote_conjoined_clause` gives the subject back)."""
    for token in sent:
        verb = token.head
        if token.i in removed or token.dep_ != "conj" or token.pos_ not in VERB_POS or verb.i not in removed:
            continue
        if verb.dep_ == "ROOT" or any(c.dep_ in SUBJECT_DEPS for c in token.children):
            continue
        if all(c.i in removed for c in verb.children if c.dep_ in SUBJECT_DEPS):
            return True
    return False


def _verbs_run_together(sent: Any, removed: set[int]) -> bool:
    """A kept conjoined verb whose coordinator went, with no comma before it either."""
    for token in sent:
        if (
            token.i in removed
            or token.dep_ != "conj"
            or token.pos_ not in VERB_POS
            or token.head.i in removed
        ):
            continue
        between = [t for t in sent if token.head.i < t.i < token.left_edge.i and t.i not in removed]
        coordinators = [t for t in between if t.dep_ in {"cc", "punct"} and t.text not in {'"', "'"}]
        if between and not coordinators:
            return True
    return False


def _conjunct_took_its_place(token: Any, removed: set[int]) -> bool:
    """A removed main verb whose conjoined verb stays, or a removed predicate whose copula keeps a
    conjoined one (see `_promote_conjoined_clause`)."""
    if token.dep_ == "ROOT":
        return any(c.dep_ == "conj" and c.i not in removed and c.pos_ in VERB_POS for c in token.children)
    return _kept_conjoined_predicate(token.head, removed) is not None


def _kept_conjoined_predicate(copula: Any, removed: set[int]) -> Any | None:
    """A kept noun or adjective the parser hung on the copula as a conjunct ("was X and a member of Y")."""
    return next(
        (
            c
            for c in copula.children
            if c.dep_ == "conj" and c.i not in removed and c.pos_ in {"NOUN", "PROPN", "ADJ"}
        ),
        None,
    )


def _keeps_an_adjective(noun: Any, removed: set[int]) -> bool:
    return any(
        c.dep_ in {"amod", "compound"} and c.i not in removed and _is_adjective(c) for c in noun.children
    )


# "the same year [he left Ireland]": the noun says nothing without what restricts it
RESTRICTING_WORDS = {"first", "last", "only", "sole", "same"}


NOT_ITS = {"PERSON", "DATE", "TIME", "CARDINAL", "ORDINAL", "NORP"}


def _orphaned_its(sent: Any, removed: set[int]) -> bool:
    """A kept "its" or "whose" after a removed thing (not a person) it most likely pointed at."""
    things = [
        t.i for t in sent if t.i in removed and t.pos_ in {"NOUN", "PROPN"} and t.ent_type_ not in NOT_ITS
    ]
    pointers = [t for t in sent if t.lower_ in {"its", "whose"} and t.i not in removed]
    return any(i < t.i for t in pointers for i in things)


def _restricts_a_superlative(token: Any) -> bool:
    """A modifier of a noun that is "the first", "the only", "the largest", "the same" ...: it limits the
    claim or completes it."""
    noun = token.head
    if token.dep_ not in {"prep", "acl", "relcl", "amod", "compound"} or noun.pos_ not in {"NOUN", "PROPN"}:
        return False
    return any(
        c.tag_ in {"JJS", "RBS"} or c.lower_ in RESTRICTING_WORDS or c.ent_type_ == "ORDINAL"
        for c in noun.children
        if c.i != token.i
    )


def _droppable_prep(prep: Any, removed: set[int]) -> bool:
    """A prepositional phrase its head can lose: a modifier of a noun with its article, a time or place,
    or one beside the verb's object."""
    head = prep.head
    if head.tag_ == "NN" and not any(c.dep_ in {"det", "poss"} and c.i not in removed for c in head.children):
        return False  # a bare noun needs its phrase: "He was director [of the museum]."
    if prep.lower_ == "of" and head.lemma_.lower() in ROLE_NOUNS:
        return False  # "Eiland is a former head [of the National Security Council]": head of what?
    if (head.lemma_.lower(), prep.lower_) in ARGUMENT_PREPOSITIONS:
        return False
    if any(c.dep_ == "nummod" and c.i not in removed for c in head.children):
        return False  # "appeared in 13 games [in the Major Leagues]": the count would cover more
    if head.pos_ not in VERB_POS:
        return True  # a noun's or adjective's modifier ("a member [of the party]")
    if any(t.ent_type_ in PLACE_OR_TIME for t in prep.subtree if t.i != prep.i):
        return True
    if _counts_something(head, removed):
        return False  # "won 32 Grands Prix [with Renault]"
    kept = [c for c in head.children if c.i not in removed and c.dep_ in OBJECT_OF_VERB | {"prep"}]
    return bool(kept) or head.lemma_ in STANDS_ALONE


def _counts_something(verb: Any, removed: set[int]) -> bool:
    """A kept count among the verb's complements ("13 games", "32 Grands Prix")."""
    return any(
        t.dep_ == "nummod" and t.i not in removed and t.head.i not in removed
        for c in verb.children
        if c.dep_ in OBJECT_OF_VERB | {"prep", "dobj"} and c.i not in removed
        for t in c.subtree
    )


def _inside_brackets(sent: Any, token: Any) -> bool:
    depth = 0
    for other in sent:
        if other.i >= token.i:
            break
        depth += (other.text == "(") - (other.text == ")")
    return depth > 0


def _with_article(text: str, triple: Triple) -> Triple:
    """The tail as the text names it: "the Royal Spanish Academy", not "Royal Spanish Academy"."""
    pattern = re.compile(rf"\bthe\s+{re.escape(triple.tail)}\b")
    if triple.tail[:1].isupper() and pattern.search(text):
        return replace(triple, tail="the " + triple.tail)
    return triple


def public_tail_tokens(doc: Any, sent: Any, public: Sequence[Triple]) -> set[int]:
    """Tokens of the sentence that name a public triple's tail."""
    tokens: set[int] = set()
    for triple in public:
        for start, end in find_mentions(doc.text, triple.tail, within=(sent.start_char, sent.end_char)):
            tokens.update(t.i for t in sent if start <= t.idx < end)
    return tokens


def close_deletions(sent: Any, removed: set[int], keep: set[int]) -> tuple[set[int], bool]:
    """Removed tokens closed under the grammatical rules; True when the main predicate is gone."""
    removed = set(removed)
    _expand_entities(sent, removed, keep)
    for _round in range(8):
        before = len(removed)
        _whole_quotations(sent, removed)
        _remove_premodifier_conjuncts(sent, removed)
        _remove_orphans(sent, removed)
        lost = _remove_heads_without_complement(sent, removed, keep)
        if lost:
            return removed, True
        _remove_dangling_hyphens(sent, removed)
        for token in sent:
            if token.i not in removed and token.dep_ in {"appos", "conj", "pobj", "npadvmod"}:
                _lost_of_complement(token, removed)
        if len(removed) == before:
            break
    _pair_brackets(sent, removed)
    _keep_the_full_stop(sent, removed)
    root = sent.root
    kept = [t for t in sent if t.i not in removed and not t.is_punct]
    return removed, root.i in removed and bool(kept) and not any(t.pos_ in VERB_POS for t in kept)


def _keep_the_full_stop(sent: Any, removed: set[int]) -> None:
    """A removed last clause ("..., and he was then raised to post-captain on 9 July 1798.") takes its
    words, not the sentence's full stop: without it the next sentence runs on ("1795 He captured")."""
    if not any(t.i not in removed and not t.is_punct for t in sent):
        return
    for token in reversed(sent):
        if token.text in {".", "!", "?"}:
            removed.discard(token.i)
            return
        if not token.is_punct and not token.is_space:
            return


def _pair_brackets(sent: Any, removed: set[int]) -> None:
    """A bracket goes with its partner: "(born 1888 in Beuthen, [Germany (now Bytom, Poland)], died ...)"
    must not keep the inner ")" and so close the outer bracket early. An emptied pair goes whole; a pair
    whose content stays keeps both ends."""
    opened: list[int] = []
    for token in sent:
        if token.text == "(":
            opened.append(token.i)
        elif token.text == ")" and opened:
            start, end = opened.pop(), token.i
            inside = range(start + 1, end)
            if all(i in removed for i in inside):
                removed.update((start, end))
            else:
                removed.difference_update((start, end))


QUOTE_MARKS = {'"', "“", "”", "„"}


def _whole_quotations(sent: Any, removed: set[int]) -> None:
    """A quotation is kept word for word or not at all: "one of the foremost citizens [Chicago] has ever
    had" would misquote, and a lone quote mark left by a removed title opens a quotation that never ends."""
    marks = [t.i for t in sent if t.text in QUOTE_MARKS]
    for start, end in zip(marks[::2], marks[1::2], strict=False):
        inside = range(start + 1, end)
        if any(i in removed for i in inside):
            removed.update(range(start, end + 1))


MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
    r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
DATE_PATTERN = re.compile(
    rf"\b(?:\d{{1,2}}\s+{MONTH}(?:\s+\d{{3,4}})?|{MONTH}\s+\d{{1,2}}(?:,?\s+\d{{3,4}})?|{MONTH}\s+\d{{3,4}}|\d{{3,4}})\b"
)


def _expand_entities(sent: Any, removed: set[int], keep: set[int]) -> None:
    """A date, number or name the removal cut into goes whole (public tails excepted, with their article:
    "a member of [the] Folketing")."""
    doc = sent.doc
    articles = {c.i for i in keep for c in doc[i].children if c.dep_ in {"det", "predet"}}
    for ent in sent.ents:
        for inside in _range_parts(ent):
            _expand_entity(ent.label_, [i for i in inside if i not in keep | articles], removed)
    for unit in _date_units(sent):
        _expand_entity("DATE", sorted(unit), removed)
    _expand_named_sports(sent, removed)


# a demonym that names a sport, not a nationality: "American football player" without "American" is
# a player of another game; the sport's name goes whole
NAMED_SPORTS = {
    ("american", "football"),
    ("canadian", "football"),
    ("australian", "rules"),
    ("gaelic", "football"),
}


def _expand_named_sports(sent: Any, removed: set[int]) -> None:
    doc = sent.doc
    for token in sent:
        if token.i not in removed or token.i + 1 >= sent.end:
            continue
        if (token.lower_, doc[token.i + 1].lower_) in NAMED_SPORTS:
            sport = doc[token.i + 1 : min(token.i + 4, sent.end)]
            last = next((t.i for t in sport if t.lower_ == "football"), token.i + 1)
            removed.update(range(token.i + 1, last + 1))


def _range_parts(ent: Any) -> list[list[int]]:
    """A date range ("21 February 1818 – 5 September 1875") is two dates: each is a whole unit."""
    parts: list[list[int]] = [[]]
    for token in ent:
        if token.text in {"–", "—", "-", "to"} and ent.label_ == "DATE":
            parts.append([])
        else:
            parts[-1].append(token.i)
    return [part for part in parts if part]


def _expand_entity(label: str, inside: list[int], removed: set[int]) -> None:
    if inside:
        cut = sum(1 for i in inside if i in removed)
        if not cut or cut == len(inside):
            return
        if label in WHOLE_ENTITY_LABELS | TITLE_LABELS or (label in NAME_LABELS and 2 * cut >= len(inside)):
            removed.update(inside)


def _subtree(token: Any) -> set[int]:
    return {t.i for t in token.subtree}


def _date_units(sent: Any) -> list[set[int]]:
    units = []
    for match in DATE_PATTERN.finditer(sent.text):
        start, end = match.start() + sent.start_char, match.end() + sent.start_char
        units.append({t.i for t in sent if start <= t.idx < end})
    return units


def _remove_orphans(sent: Any, removed: set[int]) -> None:
    dates = _date_units(sent)
    # the other end of a lifespan hangs on the first date in the parse, but is a fact of its own
    intact = {i for unit in dates if not unit & removed for i in unit}
    dated = {i for unit in dates for i in unit}
    for token in sent:
        if (token.i in intact or token.text in {"–", "—"}) and token.head.i in dated:
            continue  # tidy() turns "(– 1875)" into "(died 1875)" and drops "(–)"
        if token.i in removed or token.head.i == token.i or token.head.i not in removed:
            continue
        if token.dep_ == "cc" and not _kept_conjunct_before(token, removed):
            removed.add(token.i)  # "won [the Nobel Prize] and a medal": the list's first member went
            continue
        if token.dep_ in {"conj", "cc"} or (
            token.dep_ in {"det", "predet"} and _has_kept_conj(token.head, removed)
        ):
            continue  # a coordinated list loses one member; the next conjunct takes the article
        if token.text in {"(", ")", "[", "]"} or (token.is_punct and token.i == sent.end - 1):
            continue  # brackets and the full stop go only when emptied (tidy), not with their parse head
        if token.head.dep_ == "conj" and token.i < token.head.head.i:
            continue  # hung on a removed second conjunct but said before the first: shared by both
        if _joined_by_slash(token, token.head):
            removed.add(token.i + 1)  # "Scottish/[American] parents": Scottish stays, the slash goes
            continue
        if token.dep_ in ORPHAN_DEPS:
            removed.update(_subtree(token))
    for token in sent:  # "worked on both television [and radio]"
        if (
            token.dep_ == "preconj"
            and token.head.i not in removed
            and not _has_kept_conj(token.head, removed)
        ):
            removed.add(token.i)


def _joined_by_slash(token: Any, head: Any) -> bool:
    doc = token.doc
    return (
        head.i == token.i + 2
        and doc[token.i + 1].text == "/"
        and not token.whitespace_
        and not doc[token.i + 1].whitespace_
    )


# nouns that name a person ("singer", "actor", "pianist", "student") rather than a field ("theatre")
PERSON_NOUN = re.compile(r"(?:er|or|ist|ian|[ae]nt|m[ae]n|ess|ive|ary|ee|ar|ic|[eo]t|ef|ain|ate|ite|ard)$")


def _remove_premodifier_conjuncts(sent: Any, removed: set[int]) -> None:
    """ "an American theatre and [silent film actress]": the parser joins "theatre" to "actress", but
    it modifies her as "film" does; without "actress" it would say she was a theatre, so it goes too."""
    for token in sent:
        head = token.head
        if (
            token.i in removed
            and token.dep_ == "conj"
            and token.pos_ == "NOUN"
            and head.i not in removed
            and head.pos_ == "NOUN"
            and head.i < token.i
            and any(c.dep_ in {"compound", "amod"} and c.i < token.i for c in token.children)
            and not PERSON_NOUN.search(head.lower_)
            and all(t.dep_ == "cc" or t.i in removed for t in sent.doc[head.i + 1 : token.i])
        ):
            removed.add(head.i)
            removed.update(c.i for c in head.children if c.dep_ == "cc")


def _kept_conjunct_before(cc: Any, removed: set[int]) -> bool:
    head = cc.head
    members = [head] + [c for c in head.children if c.dep_ == "conj"]
    return any(m.i < cc.i and m.i not in removed for m in members)


def _has_kept_conj(token: Any, removed: set[int]) -> bool:
    return any(child.dep_ == "conj" and child.i not in removed for child in token.children)


def _remove_heads_without_complement(sent: Any, removed: set[int], keep: set[int]) -> bool:
    """Drop prepositions, "born", verbs and copulas whose complements all went; True: the root lost one."""
    for token in sent:
        if token.i in removed:
            continue
        lost = _lost_complement(token, removed)
        if not lost:
            continue
        if token.dep_ == "ROOT" or token.head.i == token.i or token.head not in token.sent:
            if token.lemma_ == "be" and _keep_public_adjectives(token, removed, keep):
                continue
            if _promote_conjoined_clause(token, removed):
                continue
            return True
        marks = {i for c in token.children if c.dep_ == "mark" for i in _subtree(c)}
        removed.update(_clause_tokens(token) - marks)  # "as he [from 1960 to 2001] published"
    return False


def _lost_complement(token: Any, removed: set[int]) -> bool:
    children = list(token.children)
    if token.pos_ == "ADP" and token.dep_ in {"prep", "agent", "dative"}:
        # the parser may hang what follows "from" as "1960" (npadvmod) and "to 2001" (prep)
        objects = [c for c in children if c.dep_ in OBJECT_DEPS] or [
            c for c in children if c.dep_ in {"npadvmod", "prep", "nummod"}
        ]
        return bool(objects) and all(c.i in removed for c in objects)
    if token.lower_ in {"born", "née", "nee", "died"}:
        parts = [c for c in children if not c.is_punct]
        return bool(parts) and all(c.i in removed for c in parts)
    if token.pos_ == "ADJ" and token.lower_ in ADJECTIVES_WITH_COMPLEMENT:
        parts = [c for c in children if c.dep_ in {"xcomp", "prep", "ccomp"}]
        return bool(parts) and all(c.i in removed for c in parts)
    if token.pos_ not in VERB_POS:
        return False
    if _lost_shared_object(token, removed):
        return True
    stands_alone = token.lemma_ in STANDS_ALONE and not _participle_clause(token)
    if token.lemma_ != "be" and not stands_alone and _lost_every_right_complement(token, removed):
        return True
    copula = token.lemma_ == "be"
    needed = [c for c in children if c.dep_ in (PREDICATE_DEPS if copula else OBJECT_OF_VERB)]
    if not needed or not all(c.i in removed or _lost_of_complement(c, removed) for c in needed):
        return False
    if any(_has_kept_conj(c, removed) for c in needed):
        return False  # the predicate's next conjunct takes its place
    # what follows the verb completes it ("when" before it does not); a transitive verb's object is not
    # replaced by a prepositional phrase ("received [a degree] in painting")
    # and a copula whose predicate went is not completed by what is left ("was [an announcer] during the war")
    completing = {"xcomp", "ccomp"} if copula else COMPLEMENT_DEPS - {"prep", "advmod", "npadvmod"}
    others = [c for c in children if c.dep_ in completing and c.i not in removed and c.i > token.i]
    # "recognized [Harrison] and rewarded him": the object is shared with a kept conjunct
    shared = token.lemma_ != "be" and any(
        c.dep_ == "conj" and c.i not in removed and any(g.dep_ == "dobj" for g in c.children)
        for c in children
    )
    return not others and not shared


def _lost_shared_object(verb: Any, removed: set[int]) -> bool:
    """ "He also owned [and operated IMPACC Consulting]": the parser hangs a shared object on the second
    verb only; when that verb and its object go, the first has lost its object too."""
    if verb.lemma_ not in NEEDS_AN_OBJECT or any(c.dep_ in OBJECT_OF_VERB for c in verb.children):
        return False  # "the Kingdom of Italy attacked [and took possession of ...]" reads whole
    for second in verb.children:
        if second.dep_ != "conj" or second.i not in removed or second.i != verb.i + 2:
            continue
        objects = [c for c in second.children if c.dep_ == "dobj"]
        if objects and all(o.i in removed for o in objects) and verb.doc[verb.i + 1].dep_ == "cc":
            return True
    return False


def _participle_clause(verb: Any) -> bool:
    """ "..., returning in 1930": a participle clause says nothing once its complements went."""
    return verb.dep_ in {"advcl", "acl", "conj"} and verb.tag_ in {"VBG", "VBN"}


def _lost_every_right_complement(verb: Any, removed: set[int]) -> bool:
    """'Geraghty served [as a law clerk ...]', 'James currently lives [in Parkview]'."""
    after = [c for c in verb.children if c.i > verb.i and c.dep_ in COMPLEMENT_DEPS | {"dobj", "oprd"}]
    return bool(after) and all(c.i in removed for c in after)


def _lost_of_complement(noun: Any, removed: set[int]) -> bool:
    """'part' whose 'of ...' went is as good as gone; so is a bare 'the period' whose 'from 1971 to
    1978' went ('the founder [of X]')."""
    if noun.lower_ not in RELATIONAL_NOUNS and not _bare_definite(noun):
        return False
    phrases = [c for c in noun.children if c.dep_ in {"prep", "poss"}]
    if phrases and all(p.i in removed for p in phrases):
        removed.update(_subtree(noun) - _kept_conjuncts(noun, removed))
        return True
    return False


def _kept_conjuncts(token: Any, removed: set[int]) -> set[int]:
    """Tokens of the kept conjuncts hung on `token`: "[a member of X from 1912 to 1928 and] a member of Y"
    keeps the second member when the first goes."""
    return {i for c in token.children if c.dep_ == "conj" and c.i not in removed for i in _subtree(c)}


def _noun_phrase(head: Any) -> list[Any]:
    """The head's modifiers and theirs, without clauses or prepositional phrases."""
    found, frontier = [], [head]
    while frontier:
        token = frontier.pop()
        for child in token.children:
            if child.dep_ not in {"relcl", "acl", "prep", "conj", "appos", "advcl"}:
                found.append(child)
                frontier.append(child)
    return found


def _bare_definite(noun: Any) -> bool:
    if noun.pos_ != "NOUN":
        return False
    children = list(noun.children)
    has_the = any(c.dep_ == "det" and c.lower_ == "the" for c in children)
    modified = any(c.dep_ in {"amod", "compound", "nummod", "nmod", "acl", "relcl"} for c in children)
    return has_the and not modified


def _keep_public_adjectives(copula: Any, removed: set[int], keep: set[int]) -> bool:
    """'was an English politician' with only 'English' public keeps 'was English'."""
    adjectives = [
        t
        for child in copula.children
        if child.dep_ in PREDICATE_DEPS
        for t in _noun_phrase(child)
        if t.dep_ in {"amod", "compound"} and t.i in keep and t.i in removed and _is_adjective(t)
    ]
    adjectives = list({t.lower_: t for t in adjectives}.values())
    if not adjectives:
        return False
    for adjective in adjectives:
        removed.discard(adjective.i)
    doc = copula.doc
    for adjective in adjectives:  # "Italian-Swiss" keeps its hyphen
        hyphen = adjective.i + 1
        if hyphen + 1 < len(doc) and doc[hyphen].text == "-" and doc[hyphen + 1].i not in removed:
            removed.discard(hyphen)
    return True


def _clause_tokens(token: Any) -> set[int]:
    """The tokens a clause takes with it; a conjunct takes its coordinator, not what precedes the first
    conjunct (the parser may hang a shared "when" on the second)."""
    if token.dep_ != "conj":
        return _subtree(token)
    return {i for i in _subtree(token) if i > token.head.i} | _swallow_coordinator(token)


def _promote_conjoined_clause(root: Any, removed: set[int]) -> bool:
    """'He is [a Muslim] and he's the youngest son' -> 'He's the youngest son': a conjoined clause takes
    the place of the main clause that lost its predicate (with its subject when it had none of its own)."""
    clause = next(
        (c for c in root.children if c.dep_ == "conj" and c.i not in removed and c.pos_ in VERB_POS),
        None,
    )
    if clause is None:
        return _promote_conjoined_predicate(root, removed)
    if _points_into(clause, root, removed):
        return False  # "he [became head coach of the team and] prepared it": "it" was the team
    keep = _subtree(clause) | {t.i for t in root.subtree if t.is_punct and t.i > clause.right_edge.i}
    if not any(c.dep_ in {"nsubj", "nsubjpass"} for c in clause.children):
        # "He [became a barrister and] was involved with the case": the second verb shares the subject
        subject = next((c for c in root.children if c.dep_ in {"nsubj", "nsubjpass"} and c.i < root.i), None)
        finite = clause.tag_ in FINITE_TAGS | {"VBN", "VBG"} or any(
            c.dep_ in {"aux", "auxpass"} for c in clause.children
        )
        if subject is None or not finite or subject.i in removed:
            return False
        keep |= _subtree(subject)
        keep -= {c.i for c in clause.children if c.dep_ == "cc"}
        if clause.tag_ in {"VBN", "VBG"} and not any(c.dep_ in {"aux", "auxpass"} for c in clause.children):
            # "Harrison was [drafted into the Army and] posted to Germany": the auxiliary is shared
            keep |= {c.i for c in root.children if c.dep_ in {"aux", "auxpass", "neg"} and c.i < root.i}
    promoted = {t.i for t in root.subtree if t.i not in keep}
    if not any(t.dep_ in SUBJECT_DEPS and t.i not in removed | promoted for t in root.sent):
        return False  # "On the way [he fell ill at Moffat], and died there": nobody left to die
    removed.update(promoted)
    return True


THING_PRONOUNS = {"it", "its", "them", "their", "this", "these", "those"}


def _points_into(clause: Any, root: Any, removed: set[int]) -> bool:
    """Whether the clause has a pronoun for a thing the removed part of the root's clause named."""
    pronouns = [t for t in clause.subtree if t.lower_ in THING_PRONOUNS and t.pos_ in {"PRON", "DET"}]
    things = [
        t
        for t in root.subtree
        if t.i in removed and t.i < clause.i and t.pos_ in {"NOUN", "PROPN"} and t.ent_type_ != "PERSON"
    ]
    return bool(pronouns and things)


def _promote_conjoined_predicate(copula: Any, removed: set[int]) -> bool:
    """ "He was [a member of X from 1912 to 1928 and] a member of Y": the parser hangs the second
    predicate on the copula; it takes the first one's place, and what stood between them goes."""
    if copula.lemma_ != "be":
        return False
    second = _kept_conjoined_predicate(copula, removed)
    if second is None:
        return False
    removed.update(t.i for t in copula.subtree if copula.i < t.i < second.left_edge.i)
    return True


def _is_adjective(token: Any) -> bool:
    return token.pos_ == "ADJ" or token.ent_type_ == "NORP" or bool(DEMONYM.search(token.text))


def _swallow_coordinator(token: Any) -> set[int]:
    """The coordinator and comma before a removed conjunct ("..., and composer")."""
    doc = token.doc
    first = token.left_edge.i
    taken = set()
    while first > 0 and doc[first - 1].text in {",", "and", "or", ";"}:
        first -= 1
        taken.add(first)
    return taken


def _remove_dangling_hyphens(sent: Any, removed: set[int]) -> None:
    """'London-born' without 'London' loses the whole hyphenated word."""
    doc = sent.doc
    for token in sent:
        if token.text not in {"-", "–"} or token.whitespace_ or token.i in removed:
            continue
        before = token.i > 0 and doc[token.i - 1].i in removed and not doc[token.i - 1].whitespace_
        if before:
            word = token.i
            while word < sent.end and not doc[word].whitespace_ and word + 1 < sent.end:
                removed.add(word)
                word += 1
            removed.add(word)


def render(sent: Any, removed: set[int]) -> str:
    """The kept tokens of the sentence with their spacing, tidied."""
    pieces: list[str] = []
    pending_space = False
    needs_article = _lost_possessor(sent, removed)
    coordinators = _restored_coordinators(sent, removed)
    for token in sent:
        if token.i in needs_article:
            pieces.append("the ")
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
        pieces.append(token.text_with_ws)
    text = "".join(pieces).strip()
    if sent[0].i in removed:  # "[He studied law] and an MD ..." loses the coordinator it began with
        text = _LEADING_COORDINATOR.sub("", text)
    return tidy(text, capitalise=sent.text[:1].isupper() or sent[0].i in removed)


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
            continue  # the list goes on after the removed member, or this was no list's end
        comma = token.i - 1
        while comma >= sent.start and doc[comma].text != "," and doc[comma].pos_ not in VERB_POS:
            comma -= 1
        if comma >= sent.start and doc[comma].text == "," and comma not in removed:
            members = [i for i in range(comma + 1, token.i) if i not in removed]
            if members:
                commas.add(comma)
    return commas


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
_LIFESPAN_BORN = re.compile(r"\(\s*([^()–—-]*?\d[^()–—-]*?)\s*[–—-]\s*\)")
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
_SPACE_BEFORE = re.compile(r"[ \t]+([,.;:!?)])")
_SPACE_AFTER_OPEN = re.compile(r"\(\s+")
_DANGLING_COORDINATOR = re.compile(r",?\s+(?:and|or|but)\s*([.!?;)])")
_LEADING_COORDINATOR = re.compile(r"^(?:and|or|but|nor)\s+", re.IGNORECASE)
_LONE_APOSTROPHE = re.compile(r"(?<=\s)['’]s?\s+")
_LONE_DASH = re.compile(r"\s*[—]\s*(?=(?:and|or|but)\b|[,.;:)]|$)")
_LEADING_PUNCT = re.compile(r"^[\s,;:–—-]+")
_SPACES = re.compile(r"[ \t]{2,}")
_EMPTY_QUOTES = re.compile(r"\s*(?:\"\s*\"|“\s*”)")


def _strongest_mark(match: re.Match[str]) -> str:
    """', ;' -> ';': a list's separator outlives the comma of a removed member."""
    marks = match.group(0)
    return next(mark for mark in (";", ":", ",") if mark in marks)


def tidy(text: str, capitalise: bool = True) -> str:
    """Punctuation and articles after deletions: brackets, lifespans, commas, a/an, capitals."""
    text = _LIFESPAN_DIED.sub(r"(died \1)", text)
    text = _LIFESPAN_PLACE_FIRST.sub(r"(born \1, died \2)", text)
    text = _LIFESPAN_BORN.sub(r"(born \1)", text)
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
    text = balance_brackets(text)
    text = _SPACE_BEFORE.sub(r"\1", text)
    text = _SPACE_AFTER_OPEN.sub("(", text)
    text = _SPACES.sub(" ", text)
    text = _LEADING_PUNCT.sub("", text)
    text = fix_articles(text)
    if capitalise and text[:1].islower():
        text = text[0].upper() + text[1:]
    return text.strip()


def balance_brackets(text: str) -> str:
    """Drop a ")" that closes nothing and a "(" that is never closed (half a removed bracket)."""
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
    for index in sorted(unmatched + open_at, reverse=True):
        text = text[:index] + text[index + 1 :]
    return text


def fix_articles(text: str) -> str:
    """'an professional' -> 'a professional', 'a engineer' -> 'an engineer'."""
    for start, end in reversed(article_disagreements(text)):
        article, rest = text[start:end].split(None, 1)
        swapped = {"a": "an", "an": "a", "A": "An", "An": "A"}[article]
        text = text[:start] + swapped + " " + rest + text[end:]
    return text


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
    inside = [r for r in removals if _overlaps(r[0], span)]
    reasons = list(dict.fromkeys(r[2] for r in inside))
    keys = tuple(dict.fromkeys(k for r in inside for k in r[3]))
    return "; ".join(reasons), keys


def _overlaps(a: Span, b: Span) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _with_following_space(text: str, span: Span) -> Span:
    start, end = span
    while end < len(text) and text[end] in " \t":
        end += 1
    return start, end


def _stated_in(doc: Any, sent: Any, triple: Triple) -> bool:
    """A public fact the sentence states: its tail is named there, and its head too or its span is there."""
    span = (sent.start_char, sent.end_char)
    if not find_mentions(doc.text, triple.tail, within=span):
        return False
    return _overlaps(triple.span, span) or bool(find_mentions(doc.text, triple.head, within=span))


SUBJECT_DEPS = {"nsubj", "nsubjpass"}
PERSONAL_PRONOUNS = {"he", "she", "his", "her"}


def is_about_subject(sent: Any, head: str, title: str = "") -> bool:
    """Whether a fact of `head` is a fact of the sentence's subject: the subject names the head, or is
    "he"/"she" and the head is the person the document is about. A sentence said again in place of one
    about someone else ("The two Conservatives ... Mr Justice Willes") would state a new claim
    ("Willes served as Justice."); a head the extractor misread ("State of Wisconsin" in "Secretary of
    State of Wisconsin (1882–1891)") would be born in 1882."""
    subjects = [t for t in sent if t.dep_ in SUBJECT_DEPS and t.head == sent.root] or [
        t for t in sent if t.dep_ in SUBJECT_DEPS
    ]
    if not subjects:
        return False
    subject = subjects[0]
    head_words = {w for w in head.split() if w[:1].isupper()}
    if subject.lower_ in PERSONAL_PRONOUNS:
        person = title_name(title)
        return (bool(person) and bool(head_words & set(person.split()))) or _names_a_person(sent.doc, head)
    named = {t.text for t in subject.subtree if t.pos_ == "PROPN"}
    person = title_name(title)
    if person and named == {person.split()[-1]} and head_words - named:
        # "Krarup was born ... to Bodil Marie Krarup": the surname is the title's person, not his mother
        return bool(head_words & set(person.split()[:-1]))
    return bool(named) and (named <= set(head.split()) or head_words <= named)


def one_name_per_person(facts: Sequence[Triple], sentence: str) -> list[Triple]:
    """Facts of heads that share a surname ("Ludovico Seitz, or Ludwig Seitz") under the name the sentence
    gives first: one person is said once, not once per name."""
    first: dict[str, str] = {}
    for head in sorted({f.head for f in facts}, key=lambda h: (sentence.find(h) % (len(sentence) + 1), h)):
        first.setdefault(head.split()[-1] if head.split() else head, head)
    return [
        replace(f, head=first.get(f.head.split()[-1] if f.head.split() else f.head, f.head)) for f in facts
    ]


def places_as_written(facts: Sequence[Triple], sentence: str) -> list[Triple]:
    """Two tails of one relation the sentence wrote as one place ("lived in Milwaukee, Wisconsin") are
    one tail: said apart they would be two places ("lived in Milwaukee and Wisconsin")."""
    facts = list(facts)
    for first in list(facts):
        for second in list(facts):
            same = (first.head, first.relation) == (second.head, second.relation) and first is not second
            same = same and first.tail[:1].isupper() and second.tail[:1].isupper()  # places are names
            if same and first in facts and second in facts and f"{first.tail}, {second.tail}" in sentence:
                facts[facts.index(first)] = replace(first, tail=f"{first.tail}, {second.tail}")
                facts.remove(second)
    return facts


def _verb_relation_said(sent: Any, triple: Triple) -> bool:
    """A relation named after a verb and its preposition ("publish_in") is said again only where the
    sentence has that verb with that preposition: "He published 20 papers ... and died in Grimstad"
    gave (Grigson, publish_in, Grimstad), which would read "Grigson published in Grimstad."."""
    match = VERB_RELATION.match(triple.relation)
    if match is None:
        return True
    verb, preposition = match.groups()
    return any(
        t.lemma_.lower() == verb and any(c.dep_ == "prep" and c.lower_ == preposition for c in t.children)
        for t in sent
    )


def _names_a_person(doc: Any, head: str) -> bool:
    return any(ent.label_ == "PERSON" and (ent.text in head or head in ent.text) for ent in doc.ents)


def _has_verb(sent: Any, removed: set[int]) -> bool:
    """A sentence that had a verb outside brackets keeps one: "Hermann Kober (born 1888 in Beuthen, died
    4 October 1973)." is no sentence, though "born" and "died" are left (the parser hung "was ..." on
    "died")."""
    verbs = [t for t in sent if t.tag_ in FINITE_TAGS and not _inside_brackets(sent, t)]
    return not verbs or any(t.i not in removed for t in verbs)


# a sentence needs a finite verb: "Group Portrait of X held at Y" kept two participles and lost "include"
FINITE_TAGS = {"VBD", "VBZ", "VBP", "MD"}


def _is_past(sent: Any) -> bool:
    """The tense of the sentence's main verb (present for "is", past for "was")."""
    root = sent.root
    verbs = [root] + [c for c in root.children if c.dep_ in {"aux", "auxpass"}]
    return not any(v.tag_ in {"VBZ", "VBP"} for v in verbs)
