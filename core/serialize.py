"""Plain-dict (JSON-ready) forms of the studio's nouns, and the portable bundle format.

Every `*_to_dict` has a `*_from_dict` that gives back an equal object. Readers
validate as they go and raise `BundleError` (an `InputError`) whose `field` is the path
of the bad value inside the bundle, e.g. `triples[4].span`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core import jsonlimits
from core.documents import InputError
from core.eraser4rag.erasers.base import Edit, Rewrite
from core.eraser4rag.filters import FilterMove, PrivacyDefinition
from core.eraser4rag.rewrites import DocProblem, RewriteRun
from core.types import Corpus, Document, Query, Span, Triple, TripleKey, triple_to_dict

BUNDLE_FORMAT = "rag-privacy-studio/1"
_MISSING: Any = object()


class BundleError(InputError):
    """Invalid serialized data; `field` is the path of the offending value ("" for the whole input)."""

    def __init__(self, field: str, message: str, file: str = "bundle") -> None:
        super().__init__(file, None, field, f"{field}: {message}" if field else message)


@dataclass
class Bundle:
    name: str
    corpus: Corpus
    triples: list[Triple]
    definitions: dict[str, PrivacyDefinition] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    rewrites: list[RewriteRun] = field(default_factory=list)  # each names its definition


# --- validation helpers -------------------------------------------------------------------------


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _type_name(value: object) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}
    return names.get(type(value), "number" if isinstance(value, int | float) else type(value).__name__)


def _expect_dict(value: object, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise BundleError(path, f"expected an object, got {_type_name(value)}")
    return value


def _expect_list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise BundleError(path, f"expected an array, got {_type_name(value)}")
    return list(value)


def _get(data: Mapping[str, Any], key: str, path: str, default: Any = _MISSING) -> Any:
    if key in data:
        return data[key]
    if default is _MISSING:
        raise BundleError(_join(path, key), "required field is missing")
    return default


def _expect_str(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise BundleError(path, f"expected a string, got {_type_name(value)}")
    return value


def _str_field(data: Mapping[str, Any], key: str, path: str, default: Any = _MISSING) -> str:
    return _expect_str(_get(data, key, path, default), _join(path, key))


def _nonempty_str_field(data: Mapping[str, Any], key: str, path: str) -> str:
    value = _str_field(data, key, path)
    if not value.strip():
        raise BundleError(_join(path, key), "must not be empty")
    return value


def _str_tuple(value: object, path: str) -> tuple[str, ...]:
    return tuple(_expect_str(item, f"{path}[{i}]") for i, item in enumerate(_expect_list(value, path)))


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- documents, queries, corpora ----------------------------------------------------------------


def document_to_dict(document: Document) -> dict[str, Any]:
    return {"id": document.id, "title": document.title, "text": document.text, "source": document.source}


def document_from_dict(data: object, path: str = "document") -> Document:
    data = _expect_dict(data, path)
    return Document(
        id=_nonempty_str_field(data, "id", path),
        title=_str_field(data, "title", path, ""),
        text=_str_field(data, "text", path),
        source=_str_field(data, "source", path, ""),
    )


def query_to_dict(query: Query) -> dict[str, Any]:
    return {
        "id": query.id,
        "text": query.text,
        "answers": list(query.answers),
        "doc_ids": list(query.doc_ids),
    }


def query_from_dict(data: object, path: str = "query") -> Query:
    data = _expect_dict(data, path)
    return Query(
        id=_nonempty_str_field(data, "id", path),
        text=_str_field(data, "text", path),
        answers=_str_tuple(_get(data, "answers", path, []), _join(path, "answers")),
        doc_ids=_str_tuple(_get(data, "doc_ids", path, []), _join(path, "doc_ids")),
    )


def corpus_to_dict(corpus: Corpus) -> dict[str, Any]:
    return {
        "documents": [document_to_dict(doc) for doc in corpus.documents],
        "queries": [query_to_dict(query) for query in corpus.queries],
    }


def corpus_from_dict(data: object, path: str = "corpus") -> Corpus:
    data = _expect_dict(data, path)
    docs_path, queries_path = _join(path, "documents"), _join(path, "queries")
    documents = [
        document_from_dict(item, f"{docs_path}[{i}]")
        for i, item in enumerate(_expect_list(_get(data, "documents", path), docs_path))
    ]
    queries = [
        query_from_dict(item, f"{queries_path}[{i}]")
        for i, item in enumerate(_expect_list(_get(data, "queries", path, []), queries_path))
    ]
    _reject_duplicate_ids([doc.id for doc in documents], docs_path)
    _reject_duplicate_ids([query.id for query in queries], queries_path)
    return Corpus(documents=documents, queries=queries)


def _reject_duplicate_ids(ids: list[str], path: str) -> None:
    seen: set[str] = set()
    for i, item_id in enumerate(ids):
        if item_id in seen:
            raise BundleError(f"{path}[{i}].id", f"duplicate id {item_id!r}")
        seen.add(item_id)


# --- triples ------------------------------------------------------------------------------------


def span_from_value(value: object, path: str) -> Span:
    items = _expect_list(value, path)
    if len(items) != 2 or not all(_is_int(item) for item in items):
        raise BundleError(path, "expected [start, end] with two integers")
    start, end = items
    if not 0 <= start <= end:
        raise BundleError(path, f"expected 0 <= start <= end, got [{start}, {end}]")
    return (start, end)


def triple_from_dict(data: object, path: str = "triple") -> Triple:
    data = _expect_dict(data, path)
    confidence = _get(data, "confidence", path, 1.0)
    if not _is_number(confidence):
        raise BundleError(_join(path, "confidence"), f"expected a number, got {_type_name(confidence)}")
    return Triple(
        head=_nonempty_str_field(data, "head", path),
        relation=_nonempty_str_field(data, "relation", path),
        tail=_nonempty_str_field(data, "tail", path),
        doc_id=_nonempty_str_field(data, "doc_id", path),
        span=span_from_value(_get(data, "span", path, [0, 0]), _join(path, "span")),
        confidence=float(confidence),
        backend=_str_field(data, "backend", path, ""),
        category=_str_field(data, "category", path, ""),
    )


def _check_triples_against_corpus(triples: list[Triple], corpus: Corpus, path: str) -> None:
    texts = {doc.id: doc.text for doc in corpus.documents}
    texts.update({query.id: query.text for query in corpus.queries})
    for i, triple in enumerate(triples):
        if triple.doc_id not in texts:
            raise BundleError(f"{path}[{i}].doc_id", f"no document or query with id {triple.doc_id!r}")
        length = len(texts[triple.doc_id])
        if triple.span[1] > length:
            message = f"end {triple.span[1]} is past the end of {triple.doc_id!r} ({length} chars)"
            raise BundleError(f"{path}[{i}].span", message)


# --- privacy definitions ------------------------------------------------------------------------


def key_to_list(key: TripleKey) -> list[str]:
    return [key[0], key[1], key[2]]


def key_from_value(value: object, path: str) -> TripleKey:
    items = _expect_list(value, path)
    if len(items) != 3 or not all(isinstance(item, str) for item in items):
        raise BundleError(path, "expected a triple key [head, relation, tail] of three strings")
    return (items[0], items[1], items[2])


def keys_to_list(keys: frozenset[TripleKey] | set[TripleKey]) -> list[list[str]]:
    return [key_to_list(key) for key in sorted(keys)]


def keys_from_value(value: object, path: str) -> frozenset[TripleKey]:
    return frozenset(key_from_value(item, f"{path}[{i}]") for i, item in enumerate(_expect_list(value, path)))


def filter_move_to_dict(move: FilterMove) -> dict[str, Any]:
    return {"key": key_to_list(move.key), "filter": move.filter, "path": [key_to_list(k) for k in move.path]}


def filter_move_from_dict(data: object, path: str = "move") -> FilterMove:
    data = _expect_dict(data, path)
    path_path = _join(path, "path")
    return FilterMove(
        key=key_from_value(_get(data, "key", path), _join(path, "key")),
        filter=_str_field(data, "filter", path),
        path=tuple(
            key_from_value(item, f"{path_path}[{i}]")
            for i, item in enumerate(_expect_list(_get(data, "path", path, []), path_path))
        ),
    )


def privacy_definition_to_dict(definition: PrivacyDefinition) -> dict[str, Any]:
    return {
        "private": keys_to_list(definition.private),
        "public": keys_to_list(definition.public),
        "excluded": keys_to_list(definition.excluded),
        "marked": keys_to_list(definition.marked),
        "query": keys_to_list(definition.query),
        "moves": [filter_move_to_dict(move) for move in definition.moves],
    }


def privacy_definition_from_dict(data: object, path: str = "definition") -> PrivacyDefinition:
    data = _expect_dict(data, path)
    moves_path = _join(path, "moves")
    return PrivacyDefinition(
        private=keys_from_value(_get(data, "private", path), _join(path, "private")),
        public=keys_from_value(_get(data, "public", path), _join(path, "public")),
        excluded=keys_from_value(_get(data, "excluded", path, []), _join(path, "excluded")),
        moves=tuple(
            filter_move_from_dict(item, f"{moves_path}[{i}]")
            for i, item in enumerate(_expect_list(_get(data, "moves", path, []), moves_path))
        ),
        marked=keys_from_value(_get(data, "marked", path, []), _join(path, "marked")),
        query=keys_from_value(_get(data, "query", path, []), _join(path, "query")),
    )


# --- rewrites -----------------------------------------------------------------------------------

EDIT_KINDS = ("removed", "inserted", "replaced")


def edit_to_dict(edit: Edit) -> dict[str, Any]:
    return {
        "kind": edit.kind,
        "original_span": list(edit.original_span),
        "rewrite_span": list(edit.rewrite_span),
        "reason": edit.reason,
        "keys": [key_to_list(k) for k in edit.keys],
    }


def edit_from_dict(data: object, path: str = "edit") -> Edit:
    data = _expect_dict(data, path)
    kind = _str_field(data, "kind", path)
    if kind not in EDIT_KINDS:
        raise BundleError(_join(path, "kind"), f"expected one of {', '.join(EDIT_KINDS)}, got {kind!r}")
    return Edit(
        kind=kind,  # type: ignore[arg-type]
        original_span=span_from_value(_get(data, "original_span", path), _join(path, "original_span")),
        rewrite_span=span_from_value(_get(data, "rewrite_span", path), _join(path, "rewrite_span")),
        reason=_str_field(data, "reason", path, ""),
        keys=_key_tuple(_get(data, "keys", path, []), _join(path, "keys")),
    )


def _key_tuple(value: object, path: str) -> tuple[TripleKey, ...]:
    return tuple(key_from_value(item, f"{path}[{i}]") for i, item in enumerate(_expect_list(value, path)))


def rewrite_to_dict(rewrite: Rewrite) -> dict[str, Any]:
    return {
        "doc_id": rewrite.doc_id,
        "eraser": rewrite.eraser,
        "original": rewrite.original,
        "text": rewrite.text,
        "edits": [edit_to_dict(e) for e in rewrite.edits],
        "removed": [key_to_list(k) for k in rewrite.removed],
        "kept": [key_to_list(k) for k in rewrite.kept],
        "seconds": rewrite.seconds,
        "notes": list(rewrite.notes),
        "repairs": list(rewrite.repairs),
        "fallbacks": list(rewrite.fallbacks),
    }


def rewrite_from_dict(data: object, path: str = "rewrite") -> Rewrite:
    data = _expect_dict(data, path)
    seconds = _get(data, "seconds", path, 0.0)
    if not _is_number(seconds) or seconds < 0:
        raise BundleError(_join(path, "seconds"), "expected a non-negative number")
    original = _str_field(data, "original", path)
    text = _str_field(data, "text", path)
    edits_path = _join(path, "edits")
    edits = tuple(
        edit_from_dict(item, f"{edits_path}[{i}]")
        for i, item in enumerate(_expect_list(_get(data, "edits", path, []), edits_path))
    )
    for i, edit in enumerate(edits):
        if edit.original_span[1] > len(original) or edit.rewrite_span[1] > len(text):
            raise BundleError(f"{edits_path}[{i}]", "span is past the end of the original or the rewrite")
    return Rewrite(
        doc_id=_nonempty_str_field(data, "doc_id", path),
        eraser=_str_field(data, "eraser", path, ""),
        original=original,
        text=text,
        edits=edits,
        removed=_key_tuple(_get(data, "removed", path, []), _join(path, "removed")),
        kept=_key_tuple(_get(data, "kept", path, []), _join(path, "kept")),
        seconds=float(seconds),
        notes=_str_tuple(_get(data, "notes", path, []), _join(path, "notes")),
        repairs=_str_tuple(_get(data, "repairs", path, []), _join(path, "repairs")),
        fallbacks=_str_tuple(_get(data, "fallbacks", path, []), _join(path, "fallbacks")),
    )


def rewrite_run_to_dict(run: RewriteRun) -> dict[str, Any]:
    return {
        "eraser": run.eraser,
        "verify": run.verify,
        "trained": run.trained,
        "fingerprint": run.fingerprint,
        "definition": run.definition_name,
        "created_at": run.created_at,
        "doc_ids": list(run.doc_ids),
        "rewrites": [rewrite_to_dict(r) for r in run.rewrites],
        "problems": [{"doc_id": p.doc_id, "message": p.message} for p in run.problems],
        "metrics": run.metrics,
        "accuracy": run.accuracy,
    }


def _bool_field(data: Mapping[str, Any], key: str, path: str, default: bool) -> bool:
    value = _get(data, key, path, default)
    if not isinstance(value, bool):
        raise BundleError(_join(path, key), f"expected true or false, got {_type_name(value)}")
    return value


def rewrite_run_from_dict(data: object, path: str = "rewrite_run") -> RewriteRun:
    data = _expect_dict(data, path)
    rewrites_path, problems_path = _join(path, "rewrites"), _join(path, "problems")
    problems = []
    for i, item in enumerate(_expect_list(_get(data, "problems", path, []), problems_path)):
        item = _expect_dict(item, f"{problems_path}[{i}]")
        problems.append(
            DocProblem(
                _str_field(item, "doc_id", f"{problems_path}[{i}]"),
                _str_field(item, "message", f"{problems_path}[{i}]"),
            )
        )
    return RewriteRun(
        eraser=_nonempty_str_field(data, "eraser", path),
        verify=_bool_field(data, "verify", path, False),
        trained=_bool_field(data, "trained", path, True),
        fingerprint=_str_field(data, "fingerprint", path),
        definition_name=_nonempty_str_field(data, "definition", path),
        created_at=_str_field(data, "created_at", path, ""),
        doc_ids=_str_tuple(_get(data, "doc_ids", path), _join(path, "doc_ids")),
        rewrites=tuple(
            rewrite_from_dict(item, f"{rewrites_path}[{i}]")
            for i, item in enumerate(_expect_list(_get(data, "rewrites", path, []), rewrites_path))
        ),
        problems=tuple(problems),
        metrics=dict(_expect_dict(_get(data, "metrics", path, {}), _join(path, "metrics"))),
        accuracy=dict(_expect_dict(_get(data, "accuracy", path, {}), _join(path, "accuracy"))),
    )


def _check_runs_against_corpus(runs: list[RewriteRun], corpus: Corpus, path: str) -> None:
    """Every run's documents exist. Its definition may be gone (marks cleared since): the run is then
    kept as stale, as the workspace shows it."""
    doc_ids = corpus.document_ids()
    for i, run in enumerate(runs):
        for j, doc_id in enumerate(run.doc_ids):
            if doc_id not in doc_ids:
                raise BundleError(f"{path}[{i}].doc_ids[{j}]", f"no document with id {doc_id!r}")
        for j, rewrite in enumerate(run.rewrites):
            if rewrite.doc_id not in run.doc_ids:
                message = f"{rewrite.doc_id!r} is not in doc_ids"
                raise BundleError(f"{path}[{i}].rewrites[{j}].doc_id", message)


# --- bundles ------------------------------------------------------------------------------------


def export_bundle(
    name: str,
    corpus: Corpus,
    triples: list[Triple],
    definitions: dict[str, PrivacyDefinition] | None = None,
    meta: dict[str, Any] | None = None,
    rewrites: list[RewriteRun] | None = None,
) -> dict[str, Any]:
    """A JSON-ready dict holding a corpus, its triples, named privacy definitions and the rewrite
    runs made under them (each run names its definition)."""
    return {
        "format": BUNDLE_FORMAT,
        "name": name,
        "corpus": corpus_to_dict(corpus),
        "triples": [triple_to_dict(triple) for triple in triples],
        "definitions": {
            def_name: privacy_definition_to_dict(definition)
            for def_name, definition in sorted((definitions or {}).items())
        },
        "meta": dict(meta or {}),
        "rewrites": [rewrite_run_to_dict(run) for run in rewrites or ()],
    }


def parse_bundle_json(text: str) -> object:
    """The JSON of a bundle, read strictly: BundleError names a malformed spot, nesting deeper than
    `jsonlimits.MAX_JSON_DEPTH`, NaN, Infinity, a number that overflows, or an oversized integer."""
    try:
        return jsonlimits.loads(text)
    except json.JSONDecodeError as exc:
        raise BundleError("", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc
    except jsonlimits.JsonLimitError as exc:
        raise BundleError("", f"refused JSON: {exc}") from exc


def import_bundle(data: object) -> Bundle:
    """Validate and read a bundle written by `export_bundle`; raises `BundleError` naming the bad field."""
    root = _expect_dict(data, "")
    found_format = _get(root, "format", "")
    if found_format != BUNDLE_FORMAT:
        raise BundleError("format", f"expected {BUNDLE_FORMAT!r}, got {found_format!r}")
    name = _nonempty_str_field(root, "name", "")
    corpus = corpus_from_dict(_get(root, "corpus", ""), "corpus")
    triples = [
        triple_from_dict(item, f"triples[{i}]")
        for i, item in enumerate(_expect_list(_get(root, "triples", "", []), "triples"))
    ]
    _check_triples_against_corpus(triples, corpus, "triples")
    definitions_data = _expect_dict(_get(root, "definitions", "", {}), "definitions")
    definitions = {}
    for def_name, definition in definitions_data.items():
        if not def_name.strip():
            raise BundleError("definitions", "a definition name must not be empty")
        definitions[def_name] = privacy_definition_from_dict(definition, f"definitions.{def_name}")
    runs = [
        rewrite_run_from_dict(item, f"rewrites[{i}]")
        for i, item in enumerate(_expect_list(_get(root, "rewrites", "", []), "rewrites"))
    ]
    _check_runs_against_corpus(runs, corpus, "rewrites")
    return Bundle(
        name=name,
        corpus=corpus,
        triples=triples,
        definitions=definitions,
        meta=dict(_expect_dict(_get(root, "meta", "", {}), "meta")),
        rewrites=runs,
    )
