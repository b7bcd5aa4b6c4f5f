"""Extraction quality against a hand-written gold set, and the PopQA occupation check.

Gold file (JSONL, one passage a line): `{"id", "title", "text", "facts": [[head, relation,
tail], ...], "optional": [...], "aliases": {"canonical": ["variant", ...]}}`. `facts` is every
fact a careful reader lists; `optional` holds correct statements a reader would not require
(time qualifiers, hedged or restated facts): they count as correct for precision and are not
needed for recall. A predicted head or tail matches a gold entity when both normalise
(`normalize_entity`) to the same text directly or through the passage's aliases.

Two matchings: *pair* (relation-agnostic: the ordered head and tail match) and *relation*
(the relation name matches too).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from core.extract.base import Extractor
from core.types import Triple, normalize_entity, normalize_relation

_PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")


@dataclass(frozen=True)
class GoldPassage:
    id: str
    title: str
    text: str
    facts: tuple[tuple[str, str, str], ...]
    optional: tuple[tuple[str, str, str], ...] = ()
    aliases: dict[str, str] = field(default_factory=dict)  # normalised variant -> normalised canonical

    def canonical(self, text: str) -> str:
        norm = normalize_entity(text)
        return self.aliases.get(norm, norm)

    def gold_keys(self, optional: bool = False) -> list[tuple[str, str, str]]:
        rows = self.optional if optional else self.facts
        return [(self.canonical(h), normalize_relation(r), self.canonical(t)) for h, r, t in rows]


@dataclass(frozen=True)
class Score:
    """Precision and recall by pair (relation-agnostic) and by relation."""

    predicted: int
    gold: int
    pair_correct: int
    pair_found: int
    relation_correct: int
    relation_found: int

    @property
    def pair_precision(self) -> float:
        return self.pair_correct / self.predicted if self.predicted else 0.0

    @property
    def pair_recall(self) -> float:
        return self.pair_found / self.gold if self.gold else 0.0

    @property
    def relation_precision(self) -> float:
        return self.relation_correct / self.predicted if self.predicted else 0.0

    @property
    def relation_recall(self) -> float:
        return self.relation_found / self.gold if self.gold else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "predicted": self.predicted,
            "gold": self.gold,
            "pair_precision": round(self.pair_precision, 3),
            "pair_recall": round(self.pair_recall, 3),
            "relation_precision": round(self.relation_precision, 3),
            "relation_recall": round(self.relation_recall, 3),
        }


def load_gold(path: str | Path) -> list[GoldPassage]:
    """Read a gold JSONL file; a malformed line raises ValueError naming file and line."""
    passages = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            aliases = {}
            for canonical, variants in row.get("aliases", {}).items():
                for variant in variants:
                    aliases[normalize_entity(variant)] = normalize_entity(canonical)
            passages.append(
                GoldPassage(
                    id=str(row["id"]),
                    title=row.get("title", ""),
                    text=row["text"],
                    facts=tuple(tuple(f) for f in row["facts"]),
                    optional=tuple(tuple(f) for f in row.get("optional", [])),
                    aliases=aliases,
                )
            )
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path}, line {number}: not a gold passage ({error})") from error
    return passages


def score_passage(passage: GoldPassage, triples: Iterable[Triple]) -> Score:
    predicted = {
        (passage.canonical(t.head), normalize_relation(t.relation), passage.canonical(t.tail))
        for t in triples
    }
    gold = passage.gold_keys()
    accepted = gold + passage.gold_keys(optional=True)
    pairs = {(h, t) for h, _, t in accepted}
    keys = set(accepted)
    predicted_pairs = {(h, t) for h, _, t in predicted}
    return Score(
        predicted=len(predicted),
        gold=len(gold),
        pair_correct=sum((h, t) in pairs for h, _, t in predicted),
        pair_found=sum((h, t) in predicted_pairs for h, _, t in gold),
        relation_correct=sum(key in keys for key in predicted),
        relation_found=sum(key in predicted for key in gold),
    )


def total(scores: Iterable[Score]) -> Score:
    scores = list(scores)
    return Score(*(sum(getattr(s, name) for s in scores) for name in Score.__dataclass_fields__))


def score_extractor(passages: Sequence[GoldPassage], extractor: Extractor) -> tuple[Score, list[Triple]]:
    """The extractor's score on the gold passages (each passage extracted with its title)."""
    triples = extractor.extract_many(
        [(p.id, p.text) for p in passages], titles={p.id: p.title for p in passages}
    )
    by_doc: dict[str, list[Triple]] = {}
    for triple in triples:
        by_doc.setdefault(triple.doc_id, []).append(triple)
    return total(score_passage(p, by_doc.get(p.id, [])) for p in passages), triples


# -- the PopQA occupation check -----------------------------------------------------------


def subject_name(wiki_title: str) -> str:
    """ "Henry Feilden (Conservative politician)" -> "Henry Feilden"."""
    return _PARENTHETICAL.sub("", wiki_title).strip()


def _names_subject(head: str, subject: str) -> bool:
    """All of the subject's words are in the head; an initial ("A.") matches a name it abbreviates."""
    head_words = normalize_entity(head).split()
    subject_words = normalize_entity(subject).split()
    if not head_words:
        return False
    return all(
        word in head_words or (word.endswith(".") and any(h.startswith(word[:-1]) for h in head_words))
        for word in subject_words
    )


def _states(text: str, answers: Sequence[str]) -> bool:
    lowered = text.casefold()
    return any(re.search(rf"\b{re.escape(a.casefold())}\b", lowered) for a in answers)


def _names_answer(tail: str, answers: Sequence[str]) -> bool:
    norm = normalize_entity(tail)
    return any(norm == a.casefold() or norm.endswith(" " + a.casefold()) for a in answers)


def occupation_check(
    questions: Sequence[dict], triples_by_doc: dict[str, list[Triple]], relation: str | None = "occupation"
) -> dict[str, object]:
    """Share of occupation questions whose subject gets the asked occupation as a triple.

    Counted over questions whose passages state it: a passage mentioning the subject's name
    (or titled with it) and containing one of the answers. `relation=None` accepts any relation.
    """
    stated, found, missed = 0, 0, []
    for q_index, question in enumerate(questions):
        if question.get("prop") != "occupation":
            continue
        subject, answers = subject_name(question["s_wiki_title"]), question["answers"]
        passages = [
            (f"q{q_index}-c{c_index}", ctx)
            for c_index, ctx in enumerate(question["ctxs"])
            if (subject_name(ctx.get("title", "")) == subject or subject.casefold() in ctx["text"].casefold())
            and _states(ctx["text"], answers)
        ]
        if not passages:
            continue
        stated += 1
        hit = any(
            _names_subject(t.head, subject)
            and _names_answer(t.tail, answers)
            and (relation is None or t.relation == relation)
            for doc_id, _ in passages
            for t in triples_by_doc.get(doc_id, [])
        )
        found += hit
        if not hit:
            missed.append(question["question"])
    return {
        "stated": stated,
        "found": found,
        "share": round(found / stated, 3) if stated else 0.0,
        "missed": missed,
    }
