"""The annotation store: tasks, candidates with scores, reviews, annotators; training runs come from
`storage.training_runs.TrainingRunStore`, its base.

Opens any SQLAlchemy URL (`sqlite:///...`, `postgresql://...`) or a SQLite file path; a
SQLite database runs in WAL mode with foreign keys and a busy timeout, so several
annotators (threads or processes) can write at once. Opening brings the schema to the
migrations' head. Every public method is one transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import and_, exists, func, select
from sqlalchemy.orm import Session, aliased, object_session

from core.eraser4rag.annotation.candidates import CandidateProposal
from core.eraser4rag.annotation.scoring import Scores
from core.eraser4rag.annotation.tasks import AnnotationTask, keys_from_json, text_hash
from storage.annotation_tables import (
    DECISIONS,
    SOURCE_KINDS,
    AnnotationTaskRow,
    AnnotatorRow,
    CandidateRow,
    ReviewRow,
    ReviewUndoRow,
)
from storage.db import (
    insert_ignoring_duplicates,
    lock_key,
)
from storage.tables import utc_now
from storage.training_runs import TrainingRunStore

VIEWS = ("pending", "filtered-out", "disagreed", "all")
POSITIVE = ("accept", "edit")  # a reviewed candidate that goes into the training set


class AnnotationStoreError(RuntimeError):
    """A refused store operation; the message says what and why."""


@dataclass(frozen=True)
class StoredCandidate:
    id: int
    task_id: int
    source_kind: str
    source: str
    prompt: str
    text: str
    prompt_tokens: int
    completion_tokens: int
    tokens_estimated: bool
    seconds: float
    r_pri: float | None
    r_pub: float | None
    leaked: tuple[tuple[str, str, str], ...]
    scored_with: str
    passed_filter: bool
    notes: tuple[str, ...]


@dataclass(frozen=True)
class ReviewItem:
    task: AnnotationTask
    candidate: StoredCandidate
    reviews: tuple[tuple[str, str], ...]  # (annotator, decision) already on this candidate
    remaining: int  # candidates left in this view for this annotator, this one included
    version: int = 0  # of the asking annotator's review of it (0: none yet); `review` checks it


@dataclass(frozen=True)
class UndoneReview:
    """A review `undo_last_review` deleted: its candidate, decision and edited text ("" unless an edit)."""

    candidate_id: int
    decision: str
    edited_text: str = ""


@dataclass(frozen=True)
class AnnotatorProgress:
    annotator: str
    reviewed: int
    accepted: int
    edited: int
    rejected: int
    mean_seconds: float


@dataclass(frozen=True)
class AcceptedExample:
    task: AnnotationTask
    target: str
    candidate_id: int
    source: str


class AnnotationStore(TrainingRunStore):
    error = AnnotationStoreError

    def __init__(self, url_or_path: str | Path) -> None:
        self.url = str(url_or_path)
        super().__init__(url_or_path)  # migrations run under a cross-process lock

    # --- annotators -----------------------------------------------------------------------------

    def annotator_id(self, name: str) -> int:
        """The annotator's id, created on first use (names are trimmed, 1-200 characters)."""
        clean = _clean_annotator(name)
        with self._transaction() as session:
            return _annotator_id(session, clean)

    def annotators(self) -> list[str]:
        with self._transaction() as session:
            return list(session.scalars(select(AnnotatorRow.name).order_by(AnnotatorRow.name)))

    # --- tasks and candidates -------------------------------------------------------------------

    def add_tasks(self, tasks: Iterable[AnnotationTask]) -> list[int]:
        """Ids of the tasks in order; a task already stored (same content) keeps its id."""
        ids: list[int] = []
        with self._transaction() as session:
            for task in tasks:
                ids.append(_task_id(session, task))
        return ids

    def withdraw_superseded(self, batch: str, current: Iterable[int]) -> int:
        """Delete the tasks of `batch` that an item in `current` replaces (same definition and passage,
        other content: the privacy marks changed) and that nobody has reviewed, with their candidates;
        returns how many. Reviewed ones stay: a person's decision is never deleted."""
        current_ids = set(current)
        with self._transaction() as session:
            rows = list(session.scalars(select(AnnotationTaskRow).where(AnnotationTaskRow.batch == batch)))
            replaced = {(row.definition, row.doc_id) for row in rows if row.id in current_ids}
            reviewed = exists().where(
                and_(CandidateRow.task_id == AnnotationTaskRow.id, ReviewRow.candidate_id == CandidateRow.id)
            )
            stale = [
                row.id
                for row in rows
                if row.id not in current_ids and (row.definition, row.doc_id) in replaced
            ]
            if not stale:
                return 0
            unreviewed = list(
                session.scalars(
                    select(AnnotationTaskRow.id).where(AnnotationTaskRow.id.in_(stale), ~reviewed)
                )
            )
            for task_id in unreviewed:
                session.delete(session.get(AnnotationTaskRow, task_id))
            return len(unreviewed)

    def task(self, task_id: int) -> AnnotationTask:
        with self._transaction() as session:
            row = session.get(AnnotationTaskRow, task_id)
            if row is None:
                raise AnnotationStoreError(f"no annotation task {task_id}")
            return _task_from_row(row)

    def tasks(self, batch: str | None = None) -> list[AnnotationTask]:
        with self._transaction() as session:
            query = select(AnnotationTaskRow).order_by(AnnotationTaskRow.id)
            if batch is not None:
                query = query.where(AnnotationTaskRow.batch == batch)
            return [_task_from_row(row) for row in session.scalars(query)]

    def tasks_without_candidate_from(self, source: str, batch: str | None = None) -> list[AnnotationTask]:
        """Tasks `source` has not proposed for yet: a stopped candidate run resumes with these."""
        with self._transaction() as session:
            has = exists().where(
                and_(CandidateRow.task_id == AnnotationTaskRow.id, CandidateRow.source == source)
            )
            query = select(AnnotationTaskRow).where(~has).order_by(AnnotationTaskRow.id)
            if batch is not None:
                query = query.where(AnnotationTaskRow.batch == batch)
            return [_task_from_row(row) for row in session.scalars(query)]

    def add_candidate(self, task_id: int, proposal: CandidateProposal, scores: Scores | None) -> int:
        """The candidate's id; the same text from the same source for the same task is stored once."""
        if proposal.source_kind not in SOURCE_KINDS:
            raise AnnotationStoreError(f"source kind {proposal.source_kind!r} is not one of {SOURCE_KINDS}")
        with self._transaction() as session:
            return _candidate_id(session, task_id, proposal, scores)

    def candidate(self, candidate_id: int) -> StoredCandidate:
        with self._transaction() as session:
            row = session.get(CandidateRow, candidate_id)
            if row is None:
                raise AnnotationStoreError(f"no candidate {candidate_id}")
            return _candidate_from_row(row)

    def candidates(self, task_id: int) -> list[StoredCandidate]:
        with self._transaction() as session:
            rows = session.scalars(
                select(CandidateRow).where(CandidateRow.task_id == task_id).order_by(CandidateRow.id)
            )
            return [_candidate_from_row(row) for row in rows]

    def counts(self) -> dict[str, int]:
        with self._transaction() as session:
            return {
                "tasks": session.scalar(select(func.count()).select_from(AnnotationTaskRow)) or 0,
                "candidates": session.scalar(select(func.count()).select_from(CandidateRow)) or 0,
                "passed_filter": session.scalar(
                    select(func.count()).select_from(CandidateRow).where(CandidateRow.passed_filter.is_(True))
                )
                or 0,
                "reviews": session.scalar(select(func.count()).select_from(ReviewRow)) or 0,
            }

    # --- the review queue -----------------------------------------------------------------------

    def next_item(
        self, annotator: str, view: str = "pending", overlap: bool = False, after: int | None = None
    ) -> ReviewItem | None:
        """The next candidate for `annotator` in `view`, by task then filter-passed first.

        pending: not reviewed by this annotator, and (unless `overlap`, where two people
        review the same items) by nobody, and not excluded by the automatic filter; filtered-out:
        the same but failed the automatic filter (the two views part the unreviewed items);
        disagreed: reviewed by two or more people who disagree; all: every candidate.
        `after` skips to candidates after that id.
        """
        if view not in VIEWS:
            raise AnnotationStoreError(f"view {view!r} is not one of {VIEWS}")
        with self._transaction() as session:
            annotator_id = _annotator_id(session, _clean_annotator(annotator))
            condition = _view_condition(view, annotator_id, overlap)
            query = select(CandidateRow).where(condition)
            if after is not None:
                query = query.where(CandidateRow.id > after)
            row = session.scalars(query.order_by(CandidateRow.id).limit(1)).first()
            if row is None:
                return None
            remaining = session.scalar(select(func.count()).select_from(CandidateRow).where(condition)) or 0
            return _review_item(row, remaining, annotator_id)

    def item(
        self, candidate_id: int, view: str = "all", annotator: str = "", overlap: bool = False
    ) -> ReviewItem:
        """One candidate as a review item (e.g. the one an undo brings back)."""
        with self._transaction() as session:
            row = session.get(CandidateRow, candidate_id)
            if row is None:
                raise AnnotationStoreError(f"no candidate {candidate_id}")
            remaining, annotator_id = 1, None
            if annotator:
                annotator_id = _annotator_id(session, _clean_annotator(annotator))
                condition = _view_condition(view, annotator_id, overlap)
                count = select(func.count()).select_from(CandidateRow).where(condition)
                remaining = session.scalar(count) or 0
            return _review_item(row, remaining, annotator_id)

    def review(
        self,
        candidate_id: int,
        annotator: str,
        decision: str,
        edited_text: str = "",
        seconds: float = 0.0,
        expected_version: int | None = None,
    ) -> int:
        """Record (or replace) `annotator`'s decision on a candidate; returns the review id.

        `expected_version`: the version of this annotator's review the decision was made on (0: none
        yet, see `review_version`); if it changed meanwhile (another tab, another device) nothing is
        written and the error says to reload the item.
        """
        if decision not in DECISIONS:
            raise AnnotationStoreError(f"decision {decision!r} is not one of {DECISIONS}")
        if decision == "edit" and not edited_text.strip():
            raise AnnotationStoreError("an edit needs the edited text: it is empty")
        with self._transaction() as session:
            if session.get(CandidateRow, candidate_id) is None:
                raise AnnotationStoreError(f"no candidate {candidate_id}")
            annotator_id = _annotator_id(session, _clean_annotator(annotator))
            lock_key(session, f"review:{candidate_id}:{annotator_id}")
            row = session.scalar(
                select(ReviewRow).where(
                    ReviewRow.candidate_id == candidate_id, ReviewRow.annotator_id == annotator_id
                )
            )
            current = row.version if row is not None else _undone_version(session, candidate_id, annotator_id)
            if expected_version is not None and expected_version != current:
                raise AnnotationStoreError(
                    f"candidate {candidate_id}: your review changed elsewhere since you opened it (version "
                    f"{expected_version}, now {current}); nothing was saved. "
                    "Reload the item and review again."
                )
            if row is None:
                row = ReviewRow(candidate_id=candidate_id, annotator_id=annotator_id, version=current + 1)
                session.add(row)
            else:
                row.version = current + 1
            row.decision = decision
            row.edited_text = edited_text if decision == "edit" else ""
            row.seconds = max(0.0, float(seconds))
            row.created_at = utc_now()
            session.flush()
            return row.id

    def review_version(self, candidate_id: int, annotator: str) -> int:
        """The version of `annotator`'s review of the candidate (0: never reviewed by them; an undone
        review keeps counting)."""
        with self._sessions() as session:
            annotator_id = session.scalar(
                select(AnnotatorRow.id).where(AnnotatorRow.name == _clean_annotator(annotator))
            )
            if annotator_id is None:
                return 0
            version = session.scalar(
                select(ReviewRow.version).where(
                    ReviewRow.candidate_id == candidate_id, ReviewRow.annotator_id == annotator_id
                )
            )
            return (
                int(version) if version is not None else _undone_version(session, candidate_id, annotator_id)
            )

    def undo_last(self, annotator: str) -> int | None:
        """Delete `annotator`'s latest review; returns its candidate id (None when there is none)."""
        undone = self.undo_last_review(annotator)
        return undone.candidate_id if undone is not None else None

    def undo_last_review(self, annotator: str) -> UndoneReview | None:
        """Delete `annotator`'s latest review; returns what it said (None when there is none), so the
        page can show the item as it was before, an edit with the text its annotator wrote.
        The undo is itself a change: the version moves on, so a tab that showed the review refuses to
        overwrite the pending item."""
        with self._transaction() as session:
            annotator_id = _annotator_id(session, _clean_annotator(annotator))
            row = session.scalars(
                select(ReviewRow)
                .where(ReviewRow.annotator_id == annotator_id)
                .order_by(ReviewRow.created_at.desc(), ReviewRow.id.desc())
                .limit(1)
            ).first()
            if row is None:
                return None
            candidate_id = row.candidate_id
            lock_key(session, f"review:{candidate_id}:{annotator_id}")
            undone = session.get(ReviewUndoRow, (candidate_id, annotator_id))
            if undone is None:
                session.add(
                    ReviewUndoRow(
                        candidate_id=candidate_id, annotator_id=annotator_id, version=row.version + 1
                    )
                )
            else:
                undone.version = row.version + 1
            undone_review = UndoneReview(candidate_id, row.decision, row.edited_text or "")
            session.delete(row)
            return undone_review

    def progress(self) -> list[AnnotatorProgress]:
        with self._transaction() as session:
            rows = session.execute(
                select(AnnotatorRow.name, ReviewRow.decision, func.count(), func.avg(ReviewRow.seconds))
                .join(ReviewRow, ReviewRow.annotator_id == AnnotatorRow.id)
                .group_by(AnnotatorRow.name, ReviewRow.decision)
            ).all()
        by_name: dict[str, dict[str, Any]] = {}
        for name, decision, count, mean in rows:
            entry = by_name.setdefault(name, {"seconds": 0.0, "n": 0})
            entry[decision] = count
            entry["seconds"] += (mean or 0.0) * count
            entry["n"] += count
        return [
            AnnotatorProgress(
                annotator=name,
                reviewed=e["n"],
                accepted=e.get("accept", 0),
                edited=e.get("edit", 0),
                rejected=e.get("reject", 0),
                mean_seconds=e["seconds"] / e["n"] if e["n"] else 0.0,
            )
            for name, e in sorted(by_name.items())
        ]

    def decision_pairs(self, first: str, second: str) -> list[tuple[str, str]]:
        """(first's decision, second's decision) on every candidate both reviewed."""
        a, b = aliased(ReviewRow), aliased(ReviewRow)
        with self._transaction() as session:
            first_id = _annotator_id(session, _clean_annotator(first))
            second_id = _annotator_id(session, _clean_annotator(second))
            rows = session.execute(
                select(a.decision, b.decision)
                .join(b, a.candidate_id == b.candidate_id)
                .where(a.annotator_id == first_id, b.annotator_id == second_id)
                .order_by(a.candidate_id)
            ).all()
            return [(x, y) for x, y in rows]

    def accepted_examples(self) -> list[AcceptedExample]:
        """Candidates every reviewer accepted or edited; the target is the latest edit, else the text."""
        with self._transaction() as session:
            negative = exists().where(
                and_(ReviewRow.candidate_id == CandidateRow.id, ReviewRow.decision == "reject")
            )
            reviewed = exists().where(ReviewRow.candidate_id == CandidateRow.id)
            rows = session.scalars(select(CandidateRow).where(reviewed, ~negative).order_by(CandidateRow.id))
            examples = []
            for row in rows:
                edits = [r for r in row.reviews if r.decision == "edit"]
                target = max(edits, key=lambda r: (r.created_at, r.id)).edited_text if edits else row.text
                examples.append(AcceptedExample(_task_from_row(row.task), target, row.id, row.source))
            return examples

    def accepted_pairs(self) -> list[tuple[AnnotationTask, str]]:
        """(task, target) of every accepted example: what each training path reads."""
        return [(example.task, example.target) for example in self.accepted_examples()]

    def import_examples(
        self, examples: Sequence[tuple[AnnotationTask, str]], annotator: str, source: str
    ) -> tuple[int, int]:
        """Store imported (task, target) pairs as accepted by `annotator`; returns (added, duplicates)."""
        added = duplicates = 0
        with self._transaction() as session:
            annotator_id = _annotator_id(session, _clean_annotator(annotator))
            for task, target in examples:
                task_id = _task_id(session, task)
                proposal = CandidateProposal("import", source, target)
                before = session.scalar(  # the same rewrite of the same task, from any source
                    select(CandidateRow.id).where(
                        CandidateRow.task_id == task_id, CandidateRow.text_hash == text_hash(target)
                    )
                )
                if before is not None:
                    duplicates += 1
                    continue
                candidate_id = _candidate_id(session, task_id, proposal, None)
                session.add(
                    ReviewRow(
                        candidate_id=candidate_id,
                        annotator_id=annotator_id,
                        decision="accept",
                        edited_text="",
                        seconds=0.0,
                        created_at=utc_now(),
                    )
                )
                added += 1
        return added, duplicates


# --- helpers ----------------------------------------------------------------------------------------


def _clean_annotator(name: str) -> str:
    clean = " ".join(str(name).split())
    if not clean:
        raise AnnotationStoreError("sign in or give an annotator name: every review records who made it")
    if len(clean) > 200:
        raise AnnotationStoreError("an annotator name is at most 200 characters")
    return clean


def _review_item(row: CandidateRow, remaining: int, annotator_id: int | None) -> ReviewItem:
    """`row` as a review item, read in the caller's transaction with the asking annotator's version."""
    reviews = tuple((r.annotator.name, r.decision) for r in row.reviews)
    version = next((r.version for r in row.reviews if r.annotator_id == annotator_id), None)
    if version is None:
        session = object_session(row)
        version = _undone_version(session, row.id, annotator_id) if session and annotator_id else 0
    return ReviewItem(_task_from_row(row.task), _candidate_from_row(row), reviews, remaining, version)


def _undone_version(session: Session, candidate_id: int, annotator_id: int) -> int:
    """The version an undone review ended at (0: never reviewed by this annotator)."""
    version = session.scalar(
        select(ReviewUndoRow.version).where(
            ReviewUndoRow.candidate_id == candidate_id, ReviewUndoRow.annotator_id == annotator_id
        )
    )
    return int(version or 0)


def _annotator_id(session: Session, name: str) -> int:
    """The annotator's id; a first use creates it (two first uses at once both get the one row)."""
    found = session.scalar(select(AnnotatorRow.id).where(AnnotatorRow.name == name))
    if found is not None:
        return found
    insert_ignoring_duplicates(session, AnnotatorRow, {"name": name, "created_at": utc_now()})
    return int(session.scalar(select(AnnotatorRow.id).where(AnnotatorRow.name == name)))


def _task_id(session: Session, task: AnnotationTask) -> int:
    key = task.key
    lock_key(session, "task:" + key)
    found = session.scalar(select(AnnotationTaskRow.id).where(AnnotationTaskRow.key == key))
    if found is not None:
        return found
    row = AnnotationTaskRow(
        key=key,
        batch=task.batch,
        definition=task.definition,
        doc_id=task.doc_id,
        title=task.title,
        text=task.text,
        query=task.query,
        private=[list(k) for k in task.private],
        public=[list(k) for k in task.public],
        global_private=[list(k) for k in task.global_private],
        global_public=[list(k) for k in task.global_public],
        occurrences=[list(o) for o in task.occurrences],
        created_at=utc_now(),
    )
    session.add(row)
    session.flush()
    return row.id


def _candidate_id(session: Session, task_id: int, proposal: CandidateProposal, scores: Scores | None) -> int:
    digest = text_hash(proposal.text)
    lock_key(session, f"candidate:{task_id}:{proposal.source}:{digest}")
    found = session.scalar(
        select(CandidateRow.id).where(
            CandidateRow.task_id == task_id,
            CandidateRow.source == proposal.source,
            CandidateRow.text_hash == digest,
        )
    )
    if found is not None:
        return found
    if session.get(AnnotationTaskRow, task_id) is None:
        raise AnnotationStoreError(f"no annotation task {task_id}")
    row = CandidateRow(
        task_id=task_id,
        source_kind=proposal.source_kind,
        source=proposal.source,
        prompt=proposal.prompt,
        text=proposal.text,
        text_hash=digest,
        prompt_tokens=proposal.prompt_tokens,
        completion_tokens=proposal.completion_tokens,
        tokens_estimated=proposal.tokens_estimated,
        seconds=proposal.seconds,
        r_pri=scores.r_pri if scores else None,
        r_pub=scores.r_pub if scores else None,
        leaked=[list(k) for k in scores.leaked] if scores else [],
        scored_with=scores.scored_with if scores else "",
        passed_filter=bool(scores and scores.passed),
        notes=list(proposal.notes),
        created_at=utc_now(),
    )
    session.add(row)
    session.flush()
    return row.id


def _view_condition(view: str, annotator_id: int, overlap: bool) -> Any:
    mine = exists().where(
        and_(ReviewRow.candidate_id == CandidateRow.id, ReviewRow.annotator_id == annotator_id)
    )
    anyone = exists().where(ReviewRow.candidate_id == CandidateRow.id)
    unreviewed = ~mine if overlap else ~anyone
    if view == "pending":  # what the automatic filter excluded is listed under filtered-out only
        return and_(unreviewed, CandidateRow.passed_filter.is_not(False))
    if view == "filtered-out":
        return and_(unreviewed, CandidateRow.passed_filter.is_(False))
    if view == "disagreed":
        yes = exists().where(
            and_(ReviewRow.candidate_id == CandidateRow.id, ReviewRow.decision.in_(POSITIVE))
        )
        no = exists().where(and_(ReviewRow.candidate_id == CandidateRow.id, ReviewRow.decision == "reject"))
        return and_(yes, no)
    return CandidateRow.id.is_not(None)


def _task_from_row(row: AnnotationTaskRow) -> AnnotationTask:
    where = f"task {row.id}"
    return AnnotationTask(
        doc_id=row.doc_id,
        text=row.text,
        private=keys_from_json(row.private, f"{where} private"),
        public=keys_from_json(row.public, f"{where} public"),
        global_private=keys_from_json(row.global_private, f"{where} global_private"),
        global_public=keys_from_json(row.global_public, f"{where} global_public"),
        occurrences=tuple((o[0], o[1], o[2], int(o[3]), int(o[4])) for o in row.occurrences),
        title=row.title,
        query=row.query,
        batch=row.batch,
        definition=row.definition,
        id=row.id,
    )


def _candidate_from_row(row: CandidateRow) -> StoredCandidate:
    return StoredCandidate(
        id=row.id,
        task_id=row.task_id,
        source_kind=row.source_kind,
        source=row.source,
        prompt=row.prompt,
        text=row.text,
        prompt_tokens=row.prompt_tokens,
        completion_tokens=row.completion_tokens,
        tokens_estimated=row.tokens_estimated,
        seconds=row.seconds,
        r_pri=row.r_pri,
        r_pub=row.r_pub,
        leaked=tuple((k[0], k[1], k[2]) for k in row.leaked),
        scored_with=row.scored_with,
        passed_filter=row.passed_filter,
        notes=tuple(row.notes),
    )
