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

from core.types import TripleKey
from core.workspace import EXTRACTED_IDS_META, Workspace
from ui.render import esc

log = logging.getLogger("rps.sessions")

LOCAL_USER = "local"  # storage.models.LOCAL_USER (ui imports no SQLAlchemy)
BROWSER_STORAGE_KEY = "rps-browser-session"
# BrowserState encrypts with a secret the page itself carries, so it hides nothing from the
# browser's owner; the session id's protection is its randomness (128 bits).
BROWSER_STATE_SECRET = "rps-browser-session-v1"
WORKSPACE_NAME_META = "workspace_name"
MARKED_META = "marked_private"  # the marks; the privacy definition is recomputed from them on restore
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
    return hash((tuple(ws.corpus.documents), tuple(ws.corpus.queries), tuple(ws.triples),
                 frozenset(ws.extracted_ids)))


def marks_token(ws: Workspace) -> int:
    return hash((frozenset(ws.marked_private), ws.name))


def _keys(value: Any) -> list[TripleKey]:
    """Triple keys stored as JSON lists; anything malformed is skipped."""
    if not isinstance(value, list):
        return []
    return [
        (item[0], item[1], item[2])
        for item in value
        if isinstance(item, list) and len(item) == 3 and all(isinstance(part, str) for part in item)
    ]


@dataclass
class Autosaver:
    repository: Any  # storage.repository.Repository
    _saved: dict[str, tuple[int, int]] = field(default_factory=dict)  # session key -> tokens last saved

    def restore(self, ws: Workspace, key: str, user: str) -> bool:
        """Load the session's saved workspace into `ws`; False when this session has none yet."""
        if not self.repository.has_session(key, user):
            return False
        name = self.repository.session_name(key)
        ws.load(self.repository, name)
        meta = self.repository.corpus_meta(name)
        ws.name = str(meta.get(WORKSPACE_NAME_META) or "")
        known = ws.all_keys()
        ws.marked_private = {key for key in _keys(meta.get(MARKED_META)) if key in known}
        if ws.marked_private:
            ws.apply_filters()
        self._saved[key] = (corpus_token(ws), marks_token(ws))
        return True

    def save(self, ws: Workspace, key: str, user: str) -> bool:
        """Write what changed since this session's last save; returns whether anything was written."""
        if not key:  # an API call without a page load has no browser session
            return False
        tokens = (corpus_token(ws), marks_token(ws))
        last = self._saved.get(key)
        if last == tokens:
            return False
        corpus_changed = last is None or last[0] != tokens[0]
        self.repository.save_session(
            key,
            user,
            corpus=ws.corpus if corpus_changed else None,
            triples=ws.triples if corpus_changed else [],
            extractor=",".join(sorted({t.backend for t in ws.triples if t.backend})),
            meta={
                EXTRACTED_IDS_META: sorted(ws.extracted_ids),
                WORKSPACE_NAME_META: ws.name,
                MARKED_META: sorted(ws.marked_private),
            },
        )
        self._saved[key] = tokens
        return True

    def save_quietly(self, ws: Workspace, key: str, user: str) -> None:
        """`save` for the event chain: a failure is logged in one line and shown as a warning."""
        try:
            self.save(ws, key, user)
        except (RuntimeError, OSError, ValueError) as exc:
            log.warning("autosave of session %s failed: %s", key[:20], exc)
            gr.Warning(f"Your latest change could not be saved automatically: {esc(str(exc))}")
