"""Plain-dict (JSON-ready) forms of the studio's nouns, and the portable bundle format.

Every `*_to_dict` has a `*_from_dict` that gives back an equal object. Readers
validate as they go and raise `BundleError` (an `InputError`) whose `field` is the path
of the bad value inside the bundle, e.g. `triples[4].span`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.documents import InputError
from core.filters import FilterMove, PrivacyDefinition
from core.types import Corpus, Document, Query, Span, Triple, TripleKey

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


def triple_to_dict(triple: Triple) -> dict[str, Any]:
    return {
        "head": triple.head,
        "relation": triple.relation,
        "tail": triple.tail,
        "doc_id": triple.doc_id,
        "span": [triple.span[0], triple.span[1]],
        "confidence": triple.confidence,
        "backend": triple.backend,
    }


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


# --- bundles ------------------------------------------------------------------------------------


def export_bundle(
    name: str,
    corpus: Corpus,
    triples: list[Triple],
    definitions: dict[str, PrivacyDefinition] | None = None,
    meta: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A JSON-ready dict holding a corpus, its triples and named privacy definitions."""
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
    }


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
    return Bundle(
        name=name,
        corpus=corpus,
        triples=triples,
        definitions=definitions,
        meta=dict(_expect_dict(_get(root, "meta", "", {}), "meta")),
    )
