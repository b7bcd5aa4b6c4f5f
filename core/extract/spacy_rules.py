"""Rule-based triples from spaCy's dependency parse (the default, offline extractor).

Patterns (docs/EXTRACTION.md lists them with examples and known misses):
subject-verb-object, subject-verb-preposition-object (active and passive), copula with a
noun or adjective and a preposition ("is the CEO of" -> `ceo_of`), appositions ("Mara
Voss, a nurse at X," -> `nurse_at`), possessives with a named apposition ("Mara's sister
Ida" -> `sister`), participle modifiers ("a company based in X"), relative clauses,
conjoined subjects/objects/verbs. Arguments are whole entity / noun-phrase spans; within
one document a later partial name ("Voss") becomes the earlier full name ("Mara Voss")
when only one full name fits, and he/she/it become an entity only when exactly one
compatible entity is in the previous sentence or earlier in the same sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from core.extract.base import DEFAULT_SPACY_MODEL, Extractor, Progress, join_relation, relation_word
from core.types import Triple

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
VALUE_LABELS = {"DATE", "TIME", "MONEY", "QUANTITY", "PERCENT", "CARDINAL", "ORDINAL"}
PERSON_PRONOUNS = {"he", "she", "him", "her", "his", "hers"}
THING_PRONOUNS = {"it", "its"}
PRONOUN_LABELS = {"person": {"PERSON"}, "thing": {"ORG", "FAC", "GPE", "LOC", "PRODUCT"}}
RELATIVE_PRONOUNS = {"who", "whom", "which", "that"}
SUBJECT_DEPS = {"nsubj", "nsubjpass"}
PREP_DEPS = {"prep", "agent", "dative"}
MODIFIER_DEPS = {"compound", "amod", "nummod", "nmod"}
CONTROL_DEPS = {"conj", "xcomp"}
MODIFIED_NOUN_DEPS = {"acl", "relcl"}

CONFIDENCE_BOTH_ENTITIES = 1.0
CONFIDENCE_ONE_ENTITY = 0.7
CONFIDENCE_NO_ENTITY = 0.4
PRONOUN_PENALTY = 0.9
BATCH_SIZE = 32


@dataclass(frozen=True)
class _NamedEntity:
    """A named-entity mention as a token range without leading determiners."""

    start: int
    end: int
    label: str
    text: str

    @property
    def words(self) -> frozenset[str]:
        return frozenset(self.text.split())


@dataclass(frozen=True)
class Argument:
    """A resolved head or tail: its text, whether it is an entity, whether a pronoun was resolved."""

    text: str
    is_entity: bool
    from_pronoun: bool = False


class _DocumentRules:
    """Triples of one parsed document; holds the per-document entity table for mention merging."""

    def __init__(self, doc_id: str, doc: Any) -> None:
        self.doc_id = doc_id
        self.doc = doc
        self.sentences = list(doc.sents)
        self.sentence_of = [0] * len(doc)
        for index, sent in enumerate(self.sentences):
            for i in range(sent.start, sent.end):
                self.sentence_of[i] = index
        self.entity_of: dict[int, Any] = {}
        for ent in doc.ents:
            for i in range(ent.start, ent.end):
                self.entity_of[i] = ent
        self.text = doc.text
        self.named = [self._named(ent) for ent in doc.ents if ent.label_ in NAMED_LABELS]
        self.mentions = self._entity_mentions()

    # -- triples -------------------------------------------------------------------------

    def triples(self) -> list[Triple]:
        seen: set[tuple[tuple[str, str, str], tuple[int, int]]] = set()
        result: list[Triple] = []
        for token in self.doc:
            for head_token, words, tail_token in self._candidates(token):
                triple = self._make_triple(head_token, words, tail_token)
                if triple is None or (triple.key, triple.span) in seen:
                    continue
                seen.add((triple.key, triple.span))
                result.append(triple)
        return result

    def _candidates(self, token: Any) -> Iterator[tuple[Any, list[str], Any]]:
        if token.pos_ in {"VERB", "AUX"} and token.dep_ not in {"aux", "auxpass"}:
            yield from self._verb_triples(token)
        elif token.dep_ == "appos":
            yield from self._apposition_triples(token)
        elif token.dep_ == "poss":
            yield from self._possessive_triples(token)

    def _verb_triples(self, verb: Any) -> Iterator[tuple[Any, list[str], Any]]:
        subjects = self._subjects(verb)
        if not subjects:
            return
        negation = ["not"] if any(c.dep_ == "neg" for c in verb.children) else []
        complements = [c for c in verb.children if c.dep_ in {"attr", "acomp"}]
        if complements:
            linking = [] if verb.lemma_.lower() == "be" else [relation_word(verb)]
            for subject in subjects:
                for complement in complements:
                    yield from self._copula_triples(subject, negation + linking, complement)
            return
        words = [*negation, relation_word(verb)] + [c.lower_ for c in verb.children if c.dep_ == "prt"]
        for subject in subjects:
            for obj in _children(verb, {"dobj"}):
                yield subject, words, obj
                yield from self._object_modifier_triples(subject, words, obj)
            for prep, pobj in _prepositional_objects(verb):
                yield subject, [*words, prep.lower_], pobj

    def _copula_triples(
        self, subject: Any, words: list[str], complement: Any
    ) -> Iterator[tuple[Any, list[str], Any]]:
        """Copula: "X is the CEO of Y" -> ceo_of; "X is married to Y" -> married_to; "X's employer is Y"."""
        noun_words = [*words, complement.lower_]
        preps = list(_prepositional_objects(complement))
        for prep, pobj in preps:
            yield subject, [*noun_words, prep.lower_], pobj
        if preps or complement.dep_ != "attr":
            return
        owner = next(iter(_children(subject, {"poss"})), None)
        if owner is not None and subject.pos_ == "NOUN":
            yield owner, [*words, subject.lower_], complement
        else:
            yield subject, words or ["be"], complement

    def _object_modifier_triples(
        self, subject: Any, words: list[str], obj: Any
    ) -> Iterator[tuple[Any, list[str], Any]]:
        """A common-noun object's prepositional entity.

        "of" makes a relational noun ("chairs the board of Y" -> chair_board_of); any other
        preposition is taken to modify the verb, which the parser often misattaches
        ("studied engineering at Y" -> study_at).
        """
        if self._is_entity_token(obj):
            return
        for prep, pobj in _prepositional_objects(obj):
            if self._is_entity_token(pobj):
                noun = [obj.lower_] if prep.lower_ == "of" else []
                yield subject, [*words, *noun, prep.lower_], pobj

    def _apposition_triples(self, appos: Any) -> Iterator[tuple[Any, list[str], Any]]:
        """Apposition: "Mara Voss, a nurse at St Olave Hospital," -> nurse_at."""
        head = appos.head
        if not self._is_entity_token(head) or self._is_entity_token(appos) or appos.pos_ != "NOUN":
            return
        preps = list(_prepositional_objects(appos))
        for prep, pobj in preps:
            yield head, [appos.lower_, prep.lower_], pobj
        if not preps:
            yield head, ["be"], appos

    def _possessive_triples(self, owner: Any) -> Iterator[tuple[Any, list[str], Any]]:
        """Possessive: "Mara's sister Ida" -> (Mara, sister, Ida)."""
        noun = owner.head
        if noun.pos_ != "NOUN":
            return
        for named in _children(noun, {"appos"}):
            if self._is_entity_token(named):
                yield owner, [noun.lower_], named

    # -- subjects and arguments ----------------------------------------------------------

    def _subjects(self, verb: Any) -> list[Any]:
        direct = _children(verb, SUBJECT_DEPS)
        if direct:
            return direct
        if verb.dep_ in CONTROL_DEPS and verb.head is not verb and verb.head.pos_ in {"VERB", "AUX"}:
            return self._subjects(verb.head)
        if verb.dep_ in MODIFIED_NOUN_DEPS:
            return [verb.head]
        return []

    def _make_triple(self, head_token: Any, words: list[str], tail_token: Any) -> Triple | None:
        head = self._argument(head_token)
        tail = self._argument(tail_token)
        relation = join_relation(words)
        if head is None or tail is None or not relation:
            return None
        triple = Triple(
            head=head.text,
            relation=relation,
            tail=tail.text,
            doc_id=self.doc_id,
            span=self._sentence_span(head_token, tail_token),
            confidence=_confidence(head, tail),
            backend="spacy",
        )
        return None if triple.key[0] == triple.key[2] or not triple.key[0] or not triple.key[2] else triple

    def _argument(self, token: Any) -> Argument | None:
        token = self._nominal(token)
        lower = token.lower_
        if token.pos_ == "PRON" or lower in PERSON_PRONOUNS | THING_PRONOUNS:
            name = self._resolve_pronoun(token)
            return None if name is None else Argument(name, is_entity=True, from_pronoun=True)
        start, end = self._phrase_bounds(token)
        text = self.doc[start:end].text.strip()
        if not text:
            return None
        full = self._fuller_entity(text, start)
        if full is not None:
            return Argument(full.text, is_entity=True)
        return Argument(text, is_entity=self._is_entity_token(token))

    def _nominal(self, token: Any) -> Any:
        """The token an argument stands for: a relative pronoun's noun, an apposition's entity."""
        if token.lower_ in RELATIVE_PRONOUNS and token.head.dep_ == "relcl":
            return token.head.head
        if token.pos_ == "NOUN":
            named = [c for c in token.children if c.dep_ == "appos" and self._is_entity_token(c)]
            if named:
                return named[0]
            if token.dep_ == "appos" and self._is_entity_token(token.head):
                return token.head
        return token

    def _is_entity_token(self, token: Any) -> bool:
        ent = self.entity_of.get(token.i)
        if ent is not None:
            return ent.label_ in NAMED_LABELS or ent.label_ in VALUE_LABELS
        return token.pos_ == "PROPN"

    def _phrase_bounds(self, token: Any) -> tuple[int, int]:
        """Token range of the entity containing the token, else of its noun phrase."""
        ent = self.entity_of.get(token.i)
        if ent is not None:
            return self._strip_bounds(ent.start, ent.end)
        return self._strip_bounds(*_noun_phrase_bounds(token))

    def _strip_bounds(self, start: int, end: int) -> tuple[int, int]:
        """Without leading determiners ("the") or a trailing possessive ("'s")."""
        while start < end and self.doc[start].pos_ == "DET":
            start += 1
        while end > start and self.doc[end - 1].tag_ == "POS":
            end -= 1
        return start, end

    def _named(self, ent: Any) -> _NamedEntity:
        start, end = self._strip_bounds(ent.start, ent.end)
        return _NamedEntity(start, end, ent.label_, self.doc[start:end].text.strip())

    # -- mention merging -----------------------------------------------------------------

    def _fuller_entity(self, text: str, phrase_start: int) -> _NamedEntity | None:
        """The one earlier full name containing a partial capitalised name ("Voss" -> "Mara Voss")."""
        words = text.split()
        if not words or not all(w[:1].isupper() for w in words):
            return None
        partial = frozenset(words)
        fuller = {
            named.text: named for named in self.named if named.end <= phrase_start and partial < named.words
        }
        return next(iter(fuller.values())) if len(fuller) == 1 else None

    def _entity_mentions(self) -> list[tuple[int, str, str]]:
        """(token index, canonical name, label) of every entity mention, merged partial names included."""
        mentions = []
        for named in self.named:
            full = self._fuller_entity(named.text, named.start) or named
            mentions.append((named.start, full.text, full.label))
        for token in self.doc:
            if token.i not in self.entity_of and token.pos_ in {"PROPN", "NOUN"}:
                full = self._fuller_entity(token.text, token.i)
                if full is not None:
                    mentions.append((token.i, full.text, full.label))
        return mentions

    def _resolve_pronoun(self, pronoun: Any) -> str | None:
        lower = pronoun.lower_
        if lower in PERSON_PRONOUNS:
            labels = PRONOUN_LABELS["person"]
        elif lower in THING_PRONOUNS:
            labels = PRONOUN_LABELS["thing"]
        else:
            return None
        sentence = self.sentence_of[pronoun.i]
        candidates = {
            name
            for index, name, label in self.mentions
            if label in labels and index < pronoun.i and self.sentence_of[index] in {sentence - 1, sentence}
        }
        return candidates.pop() if len(candidates) == 1 else None

    def _sentence_span(self, head_token: Any, tail_token: Any) -> tuple[int, int]:
        first = self.sentences[self.sentence_of[min(head_token.i, tail_token.i)]]
        last = self.sentences[self.sentence_of[max(head_token.i, tail_token.i)]]
        start, end = first.start_char, last.end_char
        while end > start and self.text[end - 1].isspace():
            end -= 1
        return start, end


def _children(token: Any, deps: set[str]) -> list[Any]:
    """Children with one of `deps`, each followed by its conjuncts ("Siemens and Bosch")."""
    found: list[Any] = []
    for child in token.children:
        if child.dep_ in deps:
            found.append(child)
            found.extend(child.conjuncts)
    return found


def _prepositional_objects(token: Any) -> Iterable[tuple[Any, Any]]:
    for prep in token.children:
        if prep.dep_ in PREP_DEPS:
            for pobj in _children(prep, {"pobj"}):
                yield prep, pobj


def _noun_phrase_bounds(token: Any) -> tuple[int, int]:
    """Token range of the head token with its adjacent compound/adjective/number modifiers."""
    start = token.i
    for child in reversed(list(token.lefts)):
        if child.dep_ not in MODIFIER_DEPS or child.right_edge.i != start - 1:
            break
        start = child.left_edge.i
    return start, token.i + 1


def _confidence(head: Argument, tail: Argument) -> float:
    entities = int(head.is_entity) + int(tail.is_entity)
    score = (CONFIDENCE_NO_ENTITY, CONFIDENCE_ONE_ENTITY, CONFIDENCE_BOTH_ENTITIES)[entities]
    if head.from_pronoun or tail.from_pronoun:
        score *= PRONOUN_PENALTY
    return round(score, 3)


class SpacyRuleExtractor(Extractor):
    name = "spacy"

    def __init__(self, model: str = DEFAULT_SPACY_MODEL) -> None:
        self.model = model

    @property
    def nlp(self) -> Any:
        from core.models import get_spacy

        return get_spacy(self.model)

    def extract(self, doc_id: str, text: str) -> list[Triple]:
        return _DocumentRules(doc_id, self.nlp(text)).triples()

    def extract_many(
        self, items: Sequence[tuple[str, str]], progress: Progress | None = None
    ) -> list[Triple]:
        triples: list[Triple] = []
        texts = (text for _, text in items)
        for done, ((doc_id, _), doc) in enumerate(
            zip(items, self.nlp.pipe(texts, batch_size=BATCH_SIZE), strict=True), start=1
        ):
            triples.extend(_DocumentRules(doc_id, doc).triples())
            if progress is not None:
                progress(done, len(items))
        return triples
