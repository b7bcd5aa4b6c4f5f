"""Sessions that last: each browser's (or signed-in user's) workspace is autosaved and restored.

Without sign-in a browser is known by a random id kept in its localStorage (`gr.BrowserState`);
with sign-in the session belongs to the user, whichever browser they use. `StudioContext`
calls `Autosaver.save` after every action; it writes only what changed since the last save
of that session: the documents and triples when they changed, otherwise just the marks.
"""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from core.eraser4rag.workspace import EXTRACTED_IDS_META, SCOPE_META, UNDO_META, Workspace
from ui import messages

log = logging.getLogger("rps.sessions")

LOCAL_USER = "local"  # storage.tables.LOCAL_USER (ui imports no SQLAlchemy)
BROWSER_STORAGE_KEY = "rps-browser-session"
# BrowserState encrypts with a secret the page itself carries, so it hides nothing from the
# browser's owner; the session id's protection is its randomness (128 bits).
BROWSER_STATE_SECRET = "rps-browser-session-v1"
WORKSPACE_NAME_META = "workspace_name"
WORKSPACE_VERSION_META = "workspace_version"  # the named workspace's version this session is based on
_BROWSER_ID = re.compile(r"^[0-9a-f]{32}$")


def user_of(request: gr.Request | None) -> str:
    """The signed-in user, or the local user when the studio runs without sign-in."""
    name = getattr(request, "username", None) if request is not None else None
    return name or LOCAL_USER


def session_key(user: str, browser_id: str) -> str:
    return f"user:{user}" if user != LOCAL_USER else f"browser:{browser_id}"


def valid_browser_id(value: Any) -> str:
    """The stored browser id, or a fresh random one when there is none (or it is malformed)."""
    return value if isinstance(value, str) and _BROWSER_ID.match(value) else secrets.token_hex(16)


def corpus_token(ws: Workspace) -> int:
    """Changes when documents, queries, triples or what was extracted change (str hashes are cached)."""
    return hash(
        (tuple(ws.corpus.documents), tuple(ws.corpus.queries), tuple(ws.triples), frozenset(ws.extracted_ids))
    )


def marks_token(ws: Workspace) -> int:
    """Changes when the marks of any scope (whole corpus or one question), the scope or the name change."""
    other_scopes = frozenset((scope, frozenset(marks)) for scope, marks in ws.scope_marks.items())
    undo_steps = (len(ws.mark_history), tuple(sorted((k, len(v)) for k, v in ws.scope_histories.items())))
    return hash((frozenset(ws.marked_private), ws.scope, other_scopes, ws.name, ws.saved_version, undo_steps))


def rewrites_token(ws: Workspace) -> int:
    """Changes when a rewrite run is added, grows, is finished or measured (runs are immutable)."""
    return hash(
        tuple(
            (
                scope,
                label,
                run.created_at,
                len(run.rewrites),
                len(run.problems),
                bool(run.metrics),
                bool(run.accuracy),
            )
            for scope, runs in sorted(ws.all_rewrite_runs.items())
            for label, run in sorted(runs.items())
        )
    )


@dataclass
class Autosaver:
    repository: Any  # storage.repository.Repository
    _saved: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # session key -> tokens last saved

    def restore(self, ws: Workspace, key: str, user: str) -> bool:
        """Load the session's saved workspace into `ws`; False when this session has none yet."""
        if not self.repository.has_session(key, user):
            return False
        name = self.repository.session_name(key)
        ws.load(self.repository, name)  # documents, triples, scope and every scope's marks
        meta = self.repository.corpus_meta(name)
        ws.name = str(meta.get(WORKSPACE_NAME_META) or "")
        version = meta.get(WORKSPACE_VERSION_META)
        ws.saved_version = version if isinstance(version, int) and ws.name else None
        ws.base_marks = {}  # unknown: a merge on the next save keeps every mark of both sides
        self._saved[key] = (corpus_token(ws), marks_token(ws), rewrites_token(ws))
        return True

    def save(self, ws: Workspace, key: str, user: str) -> bool:
        """Write what changed since this session's last save; returns whether anything was written."""
        if not key:  # an API call without a page load has no browser session
            return False
        tokens = (corpus_token(ws), marks_token(ws), rewrites_token(ws))
        last = self._saved.get(key)
        if last == tokens:
            return False
        corpus_changed = last is None or last[0] != tokens[0]
        marks_changed = corpus_changed or last is None or last[1] != tokens[1]
        meta: dict[str, Any] = {
            EXTRACTED_IDS_META: sorted(ws.extracted_ids),
            WORKSPACE_NAME_META: ws.name,
            WORKSPACE_VERSION_META: ws.saved_version,
        }
        if ws.scope is not None:
            meta[SCOPE_META] = ws.scope
        undo_steps = ws.undo_to_meta()
        if undo_steps:
            meta[UNDO_META] = undo_steps
        self.repository.save_session(
            key,
            user,
            corpus=ws.corpus if corpus_changed else None,
            triples=ws.triples if corpus_changed else [],
            extractor=",".join(sorted({t.backend for t in ws.triples if t.backend})),
            meta=meta,
            definitions=ws.scope_definitions() if marks_changed else None,
        )
        if last is None or last[2] != tokens[2]:  # rewrite runs are saved only when they changed
            runs = [run for runs in ws.all_rewrite_runs.values() for run in runs.values()]
            self.repository.save_rewrites(self.repository.session_name(key), runs)
        self._saved[key] = tokens
        return True

    def save_quietly(self, ws: Workspace, key: str, user: str) -> None:
        """`save` for the event chain: a failure is logged in one line and shown as a warning."""
        try:
            self.save(ws, key, user)
        except (RuntimeError, OSError, ValueError) as exc:
            log.warning("autosave of session %s failed: %s", key[:20], exc)
            messages.warning(f"Your latest change could not be saved automatically: {exc}")
