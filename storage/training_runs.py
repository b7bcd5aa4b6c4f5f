"""Training runs (SFT, RL) as the review studio records them: settings, the curve as it grows, the
artefact, and runs whose process died marked failed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from storage.annotation_tables import RUN_KINDS, RUN_STATUSES, TrainingRunRow
from storage.db import Database
from storage.tables import utc_now

SECRET_WORDS = ("api_key", "apikey", "secret", "password", "token_value")


@dataclass(frozen=True)
class TrainingRun:
    id: int
    kind: str
    status: str
    settings: dict[str, Any]
    curve: list[dict[str, Any]]
    artefact_dir: str
    message: str
    examples: int
    started_at: datetime
    updated_at: datetime
    finished_at: datetime | None = field(default=None)


class TrainingRunStore(Database):
    """The training-run part of `AnnotationStore`; a refused call raises the store's `error`."""

    def start_run(self, kind: str, settings: dict[str, Any], examples: int = 0) -> int:
        if kind not in RUN_KINDS:
            raise self.error(f"run kind {kind!r} is not one of {RUN_KINDS}")
        with self._transaction() as session:
            row = TrainingRunRow(
                kind=kind,
                status="running",
                settings=self._json_safe(settings),
                curve=[],
                artefact_dir="",
                message="",
                examples=examples,
                started_at=utc_now(),
                updated_at=utc_now(),
            )
            session.add(row)
            session.flush()
            return row.id

    def log_points(self, run_id: int, points: Sequence[dict[str, Any]]) -> None:
        """Append curve points (and mark the run alive)."""
        with self._transaction() as session:
            row = self._run_row(session, run_id)
            row.curve = [*row.curve, *(self._json_safe(p) for p in points)]
            row.updated_at = utc_now()

    def finish_run(self, run_id: int, status: str, message: str = "", artefact_dir: str = "") -> None:
        if status not in RUN_STATUSES or status == "running":
            raise self.error(f"a finished run's status is one of {RUN_STATUSES[1:]}, not {status!r}")
        with self._transaction() as session:
            row = self._run_row(session, run_id)
            row.status = status
            row.message = message
            row.artefact_dir = artefact_dir or row.artefact_dir
            row.updated_at = row.finished_at = utc_now()

    def run(self, run_id: int) -> TrainingRun:
        with self._transaction() as session:
            return _run_from_row(self._run_row(session, run_id))

    def runs(self, limit: int = 50) -> list[TrainingRun]:
        with self._transaction() as session:
            rows = session.scalars(select(TrainingRunRow).order_by(TrainingRunRow.id.desc()).limit(limit))
            return [_run_from_row(row) for row in rows]

    def fail_interrupted_runs(self, silent_for_s: float = 300.0) -> list[int]:
        """Mark failed the runs still 'running' and silent for `silent_for_s` (their process died)."""
        cutoff = utc_now() - timedelta(seconds=silent_for_s)
        with self._transaction() as session:
            rows = list(
                session.scalars(
                    select(TrainingRunRow).where(
                        TrainingRunRow.status == "running", TrainingRunRow.updated_at < cutoff
                    )
                )
            )
            for row in rows:
                row.status = "failed"
                row.message = (
                    f"interrupted: no progress since {row.updated_at:%Y-%m-%d %H:%M:%S} UTC "
                    "(the process running it stopped); start the run again"
                )
                row.finished_at = utc_now()
            return [row.id for row in rows]

    def _run_row(self, session: Session, run_id: int) -> TrainingRunRow:
        row = session.get(TrainingRunRow, run_id)
        if row is None:
            raise self.error(f"no training run {run_id}")
        return row

    def _json_safe(self, value: Any) -> Any:
        """Settings and curve points as JSON; anything named like a secret is refused, never stored."""
        if isinstance(value, dict):
            for key in value:
                if any(word in str(key).lower() for word in SECRET_WORDS):
                    raise self.error(f"refusing to store {key!r}: secrets are never written to the database")
            return {str(k): self._json_safe(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self._json_safe(v) for v in value]
        if isinstance(value, str | int | float | bool) or value is None:
            return value
        return str(value)


def _run_from_row(row: TrainingRunRow) -> TrainingRun:
    return TrainingRun(
        id=row.id,
        kind=row.kind,
        status=row.status,
        settings=dict(row.settings),
        curve=list(row.curve),
        artefact_dir=row.artefact_dir,
        message=row.message,
        examples=row.examples,
        started_at=row.started_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
    )
