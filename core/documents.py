"""Uploads and validation: turn files into a `Corpus`, or say exactly what is wrong.

Formats, by extension:
- `.txt`, `.md`: one document; title = first markdown heading, else the file stem. A heading that
  opens the file becomes the title and is taken out of the text (the rest of the text is kept as is).
- `.pdf`: one document with the text of all pages (pypdf); a PDF without a text layer is refused.
- `.json`: a retriever record, a `{"title", "text"}` document, or a list mixing both.
- `.jsonl`: one retriever record or `{"title", "text"}` document per line; blank lines skipped.

A retriever record is `{"question": str, "answers": [str, ...], "ctxs": [{"title": str, "text": str}, ...]}`
(`answers` and ctx `title` are optional); it gives one `Query` and one `Document` per ctx.

Document and query ids are stable (the same file always gives the same ids) and unique within a file:
- single-document files: `<stem>`
- JSONL: query `<stem>-q<line>`, its ctxs `<stem>-q<line>-d<j>`, a document line `<stem>-l<line>`
- JSON list: query `<stem>-q<i>`, its ctxs `<stem>-q<i>-d<j>`, a document `<stem>-d<i>`
  (a single JSON record counts as i = 0)
where `<stem>` is the slug of the file stem, lines are 1-based and `i`, `j` are 0-based, as in the
field paths of error messages (`[2].ctxs[0].text`).

A file is loaded whole or not at all: one malformed JSONL line rejects the file with its line
number, so a corpus never silently misses records. `load_many` keeps the good files of a batch.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from core.types import Corpus, Document, Query

SUPPORTED_EXTENSIONS = (".txt", ".md", ".pdf", ".json", ".jsonl")
SAMPLE_DIR = Path(__file__).resolve().parents[1] / "assets" / "sample"
PASTED_FILE = "pasted text"
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_SLUG_JUNK = re.compile(r"[^a-z0-9]+")


class InputError(ValueError):
    """Bad input, with the file and, where known, the line and field at fault."""

    def __init__(
        self, file: str, line: int | None = None, field: str | None = None, message: str = ""
    ) -> None:
        self.file = file
        self.line = line
        self.field = field
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}, line {self.line}"
        return f"{where}: {self.message}"


# ---------------------------------------------------------------------------- public API


def load_bytes(name: str, data: bytes, max_bytes: int) -> Corpus:
    """Parse one uploaded file; raises `InputError` naming the file (and line/field) on bad input."""
    file = Path(name).name or name
    extension = Path(file).suffix.lower()
    if extension not in SUPPORTED_EXTENSIONS:
        shown = extension or "(no extension)"
        raise InputError(
            file, message=f"unsupported file type {shown}; supported: {', '.join(SUPPORTED_EXTENSIONS)}"
        )
    if len(data) > max_bytes:
        raise _too_big(file, len(data), max_bytes)
    if not data:
        raise InputError(file, message="empty file")
    stem = slugify(Path(file).stem)
    if extension == ".pdf":
        return Corpus(documents=[_pdf_document(file, stem, data)])
    text = _decode_text(file, data)
    if extension == ".json":
        return _json_corpus(file, stem, text)
    if extension == ".jsonl":
        return _jsonl_corpus(file, stem, text)
    return Corpus(documents=[_text_document(file, stem, text)])


def load_path(path: str | Path, max_bytes: int) -> Corpus:
    """Read a file from disk and parse it like an upload (size checked before reading)."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(path.name, message=f"cannot read file ({exc.strerror or exc})") from exc
    if size > max_bytes:
        raise _too_big(path.name, size, max_bytes)
    return load_bytes(path.name, path.read_bytes(), max_bytes)


def load_many(
    items: Iterable[tuple[str, bytes]],
    max_bytes: int,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Corpus, list[InputError]]:
    """Load every good file of a batch and collect one `InputError` per bad file.

    A file whose ids were already produced by an earlier file of the batch (same file stem, e.g.
    `notes.txt` and `notes.md`) is reported instead of being silently dropped.
    """
    items = list(items)
    corpus = Corpus()
    errors: list[InputError] = []
    for done, (name, data) in enumerate(items, start=1):
        try:
            loaded = load_bytes(name, data, max_bytes)
            _check_no_id_clash(name, loaded, corpus)
            corpus = corpus.merged_with(loaded)
        except InputError as exc:
            errors.append(exc)
        if progress is not None:
            progress(done, len(items))
    return corpus, errors


def corpus_from_text(text: str, title: str = "Pasted text") -> Corpus:
    """One document from pasted text; the id hashes the text, so pasting it again adds nothing."""
    text = _normalise_newlines(text)
    if "\x00" in text:
        raise InputError(PASTED_FILE, message="binary content (contains NUL characters), not text")
    if not text.strip():
        raise InputError(PASTED_FILE, message="no text: paste some text first")
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]
    title = title.strip() or "Pasted text"
    return Corpus(documents=[Document(id=f"pasted-{digest}", title=title, text=text, source=PASTED_FILE)])


def load_sample_corpus() -> Corpus:
    """The bundled fictional corpus in `assets/sample/`, all files merged in name order.

    Fictional people and organisations in and around the town of Harrow Vale, written as short
    subject-verb-object sentences so that rule-based extraction finds the triples. Planted
    multi-document inferences (a private fact stated in one document, reachable through public
    triples of others, as in Eraser4RAG Figure 1):
    - Mara Voss live_in Harrow Vale: Mara Voss work_for Lindqvist Robotics (mara_voss.md) +
      Lindqvist Robotics located_in Harrow Vale (lindqvist_robotics.md); stated in hr_record.md.
    - Tomas Reyl suffer_from asthma: Priya Okafor treat Tomas Reyl + Priya Okafor
      specialize_in asthma (saint_alder_clinic.md); stated in hr_record.md.
    - Tomas Reyl live_in Eastmere: Tomas Reyl work_for Corvane Logistics (harrow_vale_news.md) +
      Corvane Logistics located_in Eastmere (retriever_queries.jsonl); stated in hr_record.md.
    - family: Tomas Reyl married_to Elin Voss, Elin Voss sister_of Mara Voss, which links the two
      chains into one connected graph.
    hr_record.md also holds one person's address, phone number and birth date (Tomas Reyl).
    retriever_queries.jsonl holds four retriever-format queries whose ctxs repeat and extend
    these facts, so the graph joins across queries and documents. Neutral public facts (the town
    library, the river, the founder, the market) sit around the private ones.
    """
    items = [(path.name, path.read_bytes()) for path in sorted(SAMPLE_DIR.iterdir()) if path.is_file()]
    corpus, errors = load_many(items, max_bytes=max(len(data) for _, data in items) + 1)
    if errors:
        raise errors[0]
    return corpus


def slugify(text: str) -> str:
    """Lower-case ASCII slug for ids ("Notes (v2)" -> "notes-v2"); "file" when nothing is left."""
    return _SLUG_JUNK.sub("-", text.lower()).strip("-") or "file"


# ---------------------------------------------------------------------------- text and PDF


def _too_big(file: str, size: int, max_bytes: int) -> InputError:
    return InputError(
        file,
        message=f"file is {size:,} bytes, over the upload limit of {max_bytes:,} bytes "
        "(setting RPS_MAX_UPLOAD_BYTES / --max-upload-bytes)",
    )


def _normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _decode_text(file: str, data: bytes) -> str:
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputError(file, line=line, message="binary content (contains NUL bytes), not a text file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            file,
            line=line,
            message=f"binary or non-UTF-8 content (byte 0x{data[exc.start]:02x} at offset {exc.start} "
            "is not valid UTF-8); save the file as UTF-8 text",
        ) from exc
    text = _normalise_newlines(text)
    if not text.strip():
        raise InputError(file, message="empty text (the file holds only whitespace)")
    return text


def _text_document(file: str, stem: str, text: str) -> Document:
    heading = _HEADING.search(text)
    if heading is None:
        return Document(id=stem, title=Path(file).stem, text=text, source=file)
    title = heading.group(1).strip()
    if not text[: heading.start()].strip() and text[heading.end() :].strip():
        # A leading title line has no full stop, so the parser would glue it onto the first sentence.
        text = text[heading.end() :].lstrip("\n")
    return Document(id=stem, title=title, text=text, source=file)


def _pdf_document(file: str, stem: str, data: bytes) -> Document:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    if not data.lstrip()[:5] == b"%PDF-":
        raise InputError(file, message="not a PDF (the file does not start with %PDF-)")
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise InputError(file, message="encrypted PDF; remove the password and upload again")
        pages = [page.extract_text() or "" for page in reader.pages]
        title = (reader.metadata.title if reader.metadata else None) or ""
    except InputError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as exc:
        raise InputError(file, message=f"unreadable PDF ({exc})") from exc
    text = _normalise_newlines("\n\n".join(page.strip() for page in pages if page.strip()))
    if not text.strip():
        raise InputError(file, message="no extractable text (a scanned PDF needs OCR first)")
    return Document(id=stem, title=str(title).strip() or Path(file).stem, text=text, source=file)


# ---------------------------------------------------------------------------- JSON and JSONL


def _json_corpus(file: str, stem: str, text: str) -> Corpus:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(file, line=exc.lineno, message=_json_error_message(exc)) from exc
    items = value if isinstance(value, list) else [value]
    if not items:
        raise InputError(file, message="empty list: no records or documents")
    corpus = Corpus()
    for index, item in enumerate(items):
        path = f"[{index}]" if isinstance(value, list) else ""
        context = _RecordContext(file=file, line=None, path=path, source=f"{file}{path}")
        loaded = _record_or_document(item, context, f"{stem}-q{index}", f"{stem}-d{index}")
        corpus = corpus.merged_with(loaded)
    return corpus


def _jsonl_corpus(file: str, stem: str, text: str) -> Corpus:
    corpus = Corpus()
    for line_number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(file, line=line_number, message=_json_error_message(exc)) from exc
        context = _RecordContext(file=file, line=line_number, path="", source=f"{file}, line {line_number}")
        loaded = _record_or_document(item, context, f"{stem}-q{line_number}", f"{stem}-l{line_number}")
        corpus = corpus.merged_with(loaded)
    return corpus


def _json_error_message(exc: json.JSONDecodeError) -> str:
    return f"malformed JSON ({exc.msg} at column {exc.colno})"


class _RecordContext:
    """Where a JSON value sits: file, line (JSONL) and the JSON path prefix, for error messages."""

    def __init__(self, file: str, line: int | None, path: str, source: str) -> None:
        self.file = file
        self.line = line
        self.path = path
        self.source = source

    def field(self, name: str) -> str:
        if not self.path:
            return name
        return f"{self.path}{name}" if name.startswith("[") else f"{self.path}.{name}"

    def error(self, name: str, message: str) -> InputError:
        field = self.field(name)
        return InputError(self.file, line=self.line, field=field, message=f"field {field}: {message}")

    def whole_error(self, message: str) -> InputError:
        prefix = f"{self.path}: " if self.path else ""
        return InputError(self.file, line=self.line, field=self.path or None, message=prefix + message)


def _record_or_document(item: Any, context: _RecordContext, query_id: str, doc_id: str) -> Corpus:
    if not isinstance(item, dict):
        raise context.whole_error(
            f"expected a JSON object (retriever record or {{title, text}} document), got {_json_type(item)}"
        )
    if "question" in item or "ctxs" in item:
        return _retriever_record(item, context, query_id)
    if "text" in item:
        return Corpus(documents=[_plain_document(item, context, doc_id)])
    keys = ", ".join(sorted(item)) or "none"
    raise context.whole_error(
        "expected a retriever record (question, answers, ctxs) or a document (title, text); "
        f"the object has keys: {keys}"
    )


def _retriever_record(item: dict[str, Any], context: _RecordContext, query_id: str) -> Corpus:
    question = _required_text(item, "question", context)
    answers = _answers(item, context)
    ctxs = item.get("ctxs")
    if ctxs is None:
        raise context.error("ctxs", "missing (a list of {title, text} passages)")
    if not isinstance(ctxs, list):
        raise context.error("ctxs", f"must be a list of {{title, text}} objects, got {_json_type(ctxs)}")
    if not ctxs:
        raise context.error("ctxs", "empty list (a record needs at least one passage)")
    documents = [
        _ctx_document(ctx, context, f"ctxs[{j}]", f"{query_id}-d{j}", default_title=f"{question} [{j}]")
        for j, ctx in enumerate(ctxs)
    ]
    query = Query(id=query_id, text=question, answers=answers, doc_ids=tuple(doc.id for doc in documents))
    return Corpus(documents=documents, queries=[query])


def _ctx_document(ctx: Any, context: _RecordContext, name: str, doc_id: str, default_title: str) -> Document:
    if not isinstance(ctx, dict):
        raise context.error(name, f"must be an object with title and text, got {_json_type(ctx)}")
    text = _required_text(ctx, "text", context, prefix=f"{name}.")
    title = _optional_text(ctx, "title", context, prefix=f"{name}.") or default_title
    source = f"{context.source}, {context.field(name)}"
    if "id" in ctx and isinstance(ctx["id"], (str, int)):
        source += f" (id {ctx['id']})"
    return Document(id=doc_id, title=title, text=text, source=source)


def _plain_document(item: dict[str, Any], context: _RecordContext, doc_id: str) -> Document:
    text = _required_text(item, "text", context)
    title = _optional_text(item, "title", context) or text.strip().split("\n", 1)[0][:60]
    return Document(id=doc_id, title=title, text=text, source=context.source)


def _answers(item: dict[str, Any], context: _RecordContext) -> tuple[str, ...]:
    answers = item.get("answers", [])
    if not isinstance(answers, list):
        raise context.error("answers", f"must be a list of strings, got {_json_type(answers)}")
    for index, answer in enumerate(answers):
        if not isinstance(answer, str):
            raise context.error(f"answers[{index}]", f"must be a string, got {_json_type(answer)}")
    return tuple(answers)


def _required_text(item: dict[str, Any], key: str, context: _RecordContext, prefix: str = "") -> str:
    if key not in item:
        raise context.error(prefix + key, "missing")
    value = item[key]
    if not isinstance(value, str):
        raise context.error(prefix + key, f"must be a string, got {_json_type(value)}")
    if not value.strip():
        raise context.error(prefix + key, "empty text")
    return _normalise_newlines(value)


def _optional_text(item: dict[str, Any], key: str, context: _RecordContext, prefix: str = "") -> str:
    value = item.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise context.error(prefix + key, f"must be a string, got {_json_type(value)}")
    return value.strip()


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _check_no_id_clash(name: str, loaded: Corpus, earlier: Corpus) -> None:
    doc_clash = loaded.document_ids() & earlier.document_ids()
    clashing = sorted(doc_clash | (loaded.query_ids() & earlier.query_ids()))
    if clashing:
        raise InputError(
            Path(name).name or name,
            message=f"ids {', '.join(clashing[:3])} are already used by an earlier file of this upload "
            "(same file name stem); rename the file",
        )
