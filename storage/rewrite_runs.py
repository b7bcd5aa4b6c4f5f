"""Saved rewrite runs of a corpus: each run's settings, figures and one rewrite per passage."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from core.eraser4rag.rewrites import RewriteRun
from core.serialize import BundleError, rewrite_run_from_dict, rewrite_run_to_dict
from storage.store import StorageError, Store, bump_version, clean_name, corpus_by_name, json_dict
from storage.tables import RewriteRow, RewriteRunRow


class RewriteRunStore(Store):
    """Reads and writes the rewrite runs of saved corpora."""

    def save_rewrites(self, corpus_name: str, runs: list[RewriteRun]) -> None:
        """Replace the saved rewrite runs of a corpus with `runs` (each names its definition).

        Runs are kept whatever the definition has become since: a stale run stays saved and is
        reported stale by whoever compares its fingerprint with the current definition.
        """
        with self._transaction() as session:
            corpus_row = corpus_by_name(session, corpus_name)
            bump_version(session, corpus_row)
            corpus_row.rewrite_runs.clear()
            session.flush()
            corpus_row.rewrite_runs = [rewrite_run_row(run) for run in runs]
            session.flush()

    def load_rewrites(self, corpus_name: str, definition_name: str | None = None) -> list[RewriteRun]:
        """Saved rewrite runs of a corpus (of one definition when `definition_name` is given)."""
        with self._sessions() as session:
            corpus_row = corpus_by_name(session, corpus_name)
            return runs_of(session, corpus_row.id, corpus_name, definition_name)


def runs_of(
    session: Session, corpus_id: int, corpus_name: str, definition_name: str | None = None
) -> list[RewriteRun]:
    """The corpus's rewrite runs in the order they were saved (of one definition when named)."""
    statement = (
        select(RewriteRunRow)
        .options(selectinload(RewriteRunRow.rewrites))
        .where(RewriteRunRow.corpus_id == corpus_id)
        .order_by(RewriteRunRow.id)
    )
    if definition_name is not None:
        statement = statement.where(RewriteRunRow.definition_name == definition_name.strip())
    try:
        return [rewrite_run_from_row(row) for row in session.scalars(statement)]
    except BundleError as exc:
        raise StorageError(f"a saved rewrite of {corpus_name!r} is damaged: {exc.message}") from exc


def rewrite_run_row(run: RewriteRun) -> RewriteRunRow:
    values = rewrite_run_to_dict(run)
    return RewriteRunRow(
        definition_name=clean_name(run.definition_name, "definition name"),
        label=run.label,
        eraser=run.eraser,
        verify=run.verify,
        trained=run.trained,
        fingerprint=run.fingerprint,
        created_at=run.created_at,
        doc_ids=values["doc_ids"],
        problems=values["problems"],
        metrics=json_dict(values["metrics"], "metrics"),
        accuracy=json_dict(values["accuracy"], "accuracy"),
        rewrites=[
            RewriteRow(
                position=i,
                doc_id=item["doc_id"],
                original=item["original"],
                text=item["text"],
                edits=item["edits"],
                removed=item["removed"],
                kept=item["kept"],
                seconds=item["seconds"],
                notes=item["notes"],
                repairs=item["repairs"],
            )
            for i, item in enumerate(values["rewrites"])
        ],
    )


def rewrite_run_from_row(row: RewriteRunRow) -> RewriteRun:
    return rewrite_run_from_dict(
        {
            "eraser": row.eraser,
            "verify": row.verify,
            "trained": row.trained,
            "fingerprint": row.fingerprint,
            "definition": row.definition_name,
            "created_at": row.created_at,
            "doc_ids": row.doc_ids,
            "problems": row.problems,
            "metrics": row.metrics,
            "accuracy": row.accuracy,
            "rewrites": [
                {
                    "doc_id": r.doc_id,
                    "eraser": row.eraser,
                    "original": r.original,
                    "text": r.text,
                    "edits": r.edits,
                    "removed": r.removed,
                    "kept": r.kept,
                    "seconds": r.seconds,
                    "notes": r.notes,
                    "repairs": r.repairs,
                }
                for r in row.rewrites
            ],
        },
        f"rewrite_runs[{row.label}]",
    )
