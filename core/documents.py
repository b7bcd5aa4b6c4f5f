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

Passages (JSON/JSONL `text`, ctx `title`, questions, answers) are cleaned as retrieval dumps need:
HTML entities are decoded (`&ndash;` -> "–"), Wikipedia `<ref .../>` citation tags are dropped, and a
title repeated at the start of its passage ("Title\n\nText", "Gustav Seitz Gustav Seitz (1906 ...") is
taken out of the text (`separate_title`), so the title is never read as part of the first sentence.
A passage whose text is empty or whitespace is kept (shown as empty, never extracted): real retrieval
files carry them (about 4 % of PopQA's passages).

A file with bad records is refused by default with `BadRecords`, which lists every bad record at once
(file, line, field) and holds the good ones: `load_bytes(..., skip_bad=True)` (or `load_many(...,
skip_bad=True)`) loads the good records, so a corpus never silently misses records but one malformed
line never costs the user the others. `load_many` keeps the good files of a batch.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from core import jsonlimits
from core.types import Corpus, Document, Query, RetrievalSet

SUPPORTED_EXTENSIONS = (".txt", ".md", ".pdf", ".json", ".jsonl")
SAMPLE_DIR = Path(__file__).resolve().parents[1] / "assets" / "sample"
PASTED_FILE = "pasted text"
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_SLUG_JUNK = re.compile(r"[^a-z0-9]+")
_REF_TAG = re.compile(
    r"<ref\b[^<>]*/>|<ref\b[^<>]*>.*?</ref>|</?ref(?:erences)?\b[^<>]*>", re.IGNORECASE | re.DOTALL
)
_DISAMBIGUATION = re.compile(r"\s*\([^()]*\)$")
# Words that open a sentence, not a name: "Masayoshi Soken Born in La Paz ..." is a title fused
# with a sentence, "Marco Aurelio Denegri Santagadea (...)" is a longer name.
_SENTENCE_OPENERS = frozenset({"Born", "He", "She", "They", "His", "Her", "Their", "It", "Its"})
_HONORIFICS = frozenset(
    {
        "Dr",
        "Dr.",
        "Sir",
        "Dame",
        "Lord",
        "Lady",
        "Mr",
        "Mr.",
        "Mrs",
        "Mrs.",
        "Ms",
        "Ms.",
        "Prof",
        "Prof.",
        "Professor",
        "Colonel",
        "General",
        "Captain",
        "Rev",
        "Rev.",
        "Reverend",
    }
)
EMPTY_TITLE = "(empty passage)"
MAX_ERRORS_IN_MESSAGE = 5


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


class BadRecords(InputError):
    """A JSON/JSONL file with bad records: `errors` lists every one (file, line, field); `good`
    holds the `good_records` records that loaded, for the user to load on request."""

    def __init__(
        self, file: str, errors: list[InputError], good: Corpus, good_records: int, total_records: int
    ) -> None:
        self.errors = list(errors)
        self.good = good
        self.good_records = good_records
        self.total_records = total_records
        first = errors[0]
        listed = "; ".join(_where(e) for e in errors[:MAX_ERRORS_IN_MESSAGE])
        more = len(errors) - MAX_ERRORS_IN_MESSAGE
        listed += f"; and {more} more" if more > 0 else ""
        summary = f"{len(errors)} problem(s) in {total_records - good_records} of {total_records} record(s)"
        if good_records:
            summary += f"; the {good_records} good record(s) can be loaded on their own"
        super().__init__(file, first.line, first.field, f"{summary}: {listed}")

    def __str__(self) -> str:
        return f"{self.file}: {self.message}"


def _where(error: InputError) -> str:
    return f"line {error.line}: {error.message}" if error.line is not None else error.message


# ---------------------------------------------------------------------------- public API


def load_bytes(name: str, data: bytes, max_bytes: int, skip_bad: bool = False) -> Corpus:
    """Parse one uploaded file; raises `InputError` naming the file (and line/field) on bad input.

    A JSON/JSONL file with some bad records raises `BadRecords` (every bad record listed, the good
    ones in `.good`), or with `skip_bad` returns its good records.
    """
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
    if extension == ".jsonl":
        return _jsonl_corpus(file, stem, _jsonl_lines(file, data), skip_bad)
    text = _decode_text(file, data)
    if extension == ".json":
        return _json_corpus(file, stem, text, skip_bad)
    return Corpus(documents=[_text_document(file, stem, text)])


def load_path(path: str | Path, max_bytes: int, skip_bad: bool = False) -> Corpus:
    """Read a file from disk and parse it like an upload (size checked before reading)."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(path.name, message=f"cannot read file ({exc.strerror or exc})") from exc
    if size > max_bytes:
        raise _too_big(path.name, size, max_bytes)
    return load_bytes(path.name, path.read_bytes(), max_bytes, skip_bad)


def load_many(
    items: Iterable[tuple[str, bytes]],
    max_bytes: int,
    progress: Callable[[int, int], None] | None = None,
    skip_bad: bool = False,
) -> tuple[Corpus, list[InputError]]:
    """Load every good file of a batch and collect one `InputError` per bad file.

    A file with some bad records gives a `BadRecords` error; with `skip_bad` its good records are
    loaded as well (the error is still returned, so the user sees what was left out).

    A file whose ids were already produced by an earlier file of the batch (same file stem, e.g.
    `notes.txt` and `notes.md`) is reported instead of being silently dropped.
    """
    items = list(items)
    corpus = Corpus()
    errors: list[InputError] = []
    for done, (name, data) in enumerate(items, start=1):
        try:
            try:
                loaded = load_bytes(name, data, max_bytes)
            except BadRecords as exc:
                if not skip_bad or not exc.good_records:
                    raise
                errors.append(exc)
                loaded = exc.good
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


def clean_passage_text(text: str) -> str:
    """Newlines normalised, HTML entities decoded, Wikipedia `<ref>` citation tags removed."""
    text = html.unescape(_normalise_newlines(text))
    return _REF_TAG.sub("", text) if "<ref" in text.lower() else text


def separate_title(title: str, text: str) -> str:
    """`text` without a copy of `title` glued to its start, else `text` unchanged.

    Retrieval dumps often prefix a passage with its title: "Edward Corser\n\nEdward Bernard
    Cresset Corser (1852 – 1928) was ...", "Peter Frank (academic) Peter John Frank ...",
    "Shigeru Nakanishi Nakanishi graduated ...". Read as prose, the title fuses into the first
    sentence's subject. It is taken out only when what follows cannot continue the name: a line
    break, the title's disambiguation "(...)", the title or one of its words again, an honorific,
    or a word that opens a sentence. "Krarup is a Danish surname" or "Marco Aurelio Denegri
    Santagadea (16 May 1938 ...)" (title "Marco Aurelio Denegri") are left as they are.
    """
    body = text.lstrip()
    if not title or not body.startswith(title):
        return text
    rest = body[len(title) :]
    after = rest.lstrip()
    if not after or not rest[0].isspace():
        return text  # only the title, or the title's last word goes on ("Feilden" in "Feildens")
    if "\n" in rest[: len(rest) - len(after)]:
        return after
    base = _DISAMBIGUATION.sub("", title)
    first_word = after.split(None, 1)[0].rstrip(",;:")
    name_words = {word for word in base.split() if word[:1].isupper()}
    if base != title or after.startswith(base) or first_word in name_words:
        return after
    if first_word in _HONORIFICS or first_word in _SENTENCE_OPENERS:
        return after
    return text


def slugify(text: str) -> str:
    """Lower-case ASCII slug for ids ("Notes (v2)" -> "notes-v2"); "file" when nothing is left."""
    return _SLUG_JUNK.sub("-", text.lower()).strip("-") or "file"


# ---------------------------------------------------------------------------- text and PDF


def check_size(file: str, size: int, max_bytes: int) -> None:
    """InputError for a file over the upload limit, decided from its size before it is read."""
    if size > max_bytes:
        raise _too_big(file, size, max_bytes)


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
    # pypdf (~0.6 s) loads only for PDF uploads
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


class _Records:
    """What a JSON or JSONL file gave: good documents and queries, and every bad record's errors.

    Built in one pass: documents and queries are appended (never merged corpus by corpus, which
    copied the growing corpus once per record and made loading quadratic).
    """

    def __init__(self) -> None:
        self.documents: list[Document] = []
        self.queries: list[Query] = []
        self.errors: list[InputError] = []
        self.total = 0
        self.bad = 0

    def add(self, documents: list[Document], query: Query | None, errors: list[InputError]) -> None:
        self.total += 1
        if errors:
            self.bad += 1
            self.errors.extend(errors)
            return
        self.documents.extend(documents)
        if query is not None:
            self.queries.append(query)

    def result(self, file: str, skip_bad: bool) -> Corpus:
        corpus = Corpus(documents=self.documents, queries=self.queries)
        if not self.errors:
            return corpus
        if self.total == self.bad:
            if len(self.errors) == 1:
                raise self.errors[0]
            raise BadRecords(file, self.errors, Corpus(), 0, self.total)
        if skip_bad:
            return corpus
        raise BadRecords(file, self.errors, corpus, self.total - self.bad, self.total)


def _json_corpus(file: str, stem: str, text: str, skip_bad: bool) -> Corpus:
    try:
        value = jsonlimits.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(file, line=exc.lineno, message=_json_error_message(exc)) from exc
    except jsonlimits.JsonLimitError as exc:
        raise InputError(file, line=exc.line, message=exc.reason) from exc
    items = value if isinstance(value, list) else [value]
    if not items:
        raise InputError(file, message="empty list: no records or documents")
    records = _Records()
    for index, item in enumerate(items):
        path = f"[{index}]" if isinstance(value, list) else ""
        context = _RecordContext(file=file, line=None, path=path, source=f"{file}{path}")
        records.add(*_record_or_document(item, context, f"{stem}-q{index}", f"{stem}-d{index}"))
    return records.result(file, skip_bad)


def _jsonl_lines(file: str, data: bytes) -> list[str | InputError]:
    """The lines of a JSONL file; a line that is not UTF-8 becomes its own error, so one bad line
    does not cost the file its other lines (a binary file is still refused whole)."""
    try:
        return list(_decode_text(file, data).split("\n"))
    except InputError as whole:
        if b"\x00" in data or not data.strip():
            raise whole from None
    lines: list[str | InputError] = []
    for line_number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            lines.append(raw.decode("utf-8-sig" if line_number == 1 else "utf-8").rstrip("\r"))
        except UnicodeDecodeError as exc:
            lines.append(
                InputError(
                    file,
                    line=line_number,
                    message=f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}); "
                    "save the file as UTF-8 text",
                )
            )
    return lines


def _jsonl_corpus(file: str, stem: str, lines: list[str | InputError], skip_bad: bool) -> Corpus:
    records = _Records()
    for line_number, line in enumerate(lines, start=1):
        if isinstance(line, InputError):
            records.add([], None, [line])
            continue
        if not line.strip():
            continue
        try:
            item = jsonlimits.loads(line)
        except json.JSONDecodeError as exc:
            records.add([], None, [InputError(file, line=line_number, message=_json_error_message(exc))])
            continue
        except jsonlimits.JsonLimitError as exc:
            records.add([], None, [InputError(file, line=line_number, message=exc.reason)])
            continue
        context = _RecordContext(file=file, line=line_number, path="", source=f"{file}, line {line_number}")
        records.add(*_record_or_document(item, context, f"{stem}-q{line_number}", f"{stem}-l{line_number}"))
    return records.result(file, skip_bad)


def retriever_record(item: Any, file: str, line: int) -> RetrievalSet:
    """Line `line` of the JSONL file `file` as the studio loads it: one retriever record, cleaned
    (entities decoded, titles separated) and with the ids an upload of that file gives it.

    For batch commands that read a file record by record; raises `InputError` (every problem of
    the record named by file, line and field) when the line is not a good retriever record.
    """
    file = Path(file).name or file
    stem = slugify(Path(file).stem)
    context = _RecordContext(file=file, line=line, path="", source=f"{file}, line {line}")
    if not isinstance(item, dict) or ("question" not in item and "ctxs" not in item):
        got = f"keys: {', '.join(sorted(item)) or 'none'}" if isinstance(item, dict) else _json_type(item)
        raise context.whole_error(f"expected a retriever record (question, answers, ctxs), got {got}")
    documents, query, errors = _retriever_record(item, context, f"{stem}-q{line}")
    if errors or query is None:
        problems = errors or [context.whole_error("not a retriever record")]
        raise InputError(file, line, problems[0].field, "; ".join(e.message for e in problems))
    return RetrievalSet(query, tuple(documents))


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


_Parsed = tuple[list[Document], "Query | None", list[InputError]]


def _record_or_document(item: Any, context: _RecordContext, query_id: str, doc_id: str) -> _Parsed:
    """One record's documents and query, or every error found in it (all its fields are checked)."""
    if not isinstance(item, dict):
        error = context.whole_error(
            f"expected a JSON object (retriever record or {{title, text}} document), got {_json_type(item)}"
        )
        return [], None, [error]
    if "question" in item or "ctxs" in item:
        return _retriever_record(item, context, query_id)
    if "text" in item:
        errors: list[InputError] = []
        document = _plain_document(item, context, doc_id, errors)
        return ([document] if document is not None else []), None, errors
    keys = ", ".join(sorted(item)) or "none"
    error = context.whole_error(
        "expected a retriever record (question, answers, ctxs) or a document (title, text); "
        f"the object has keys: {keys}"
    )
    return [], None, [error]


def _retriever_record(item: dict[str, Any], context: _RecordContext, query_id: str) -> _Parsed:
    errors: list[InputError] = []
    question = _text_field(item, "question", context, errors, required=True)
    answers = _answers(item, context, errors)
    ctxs = item.get("ctxs")
    documents: list[Document] = []
    if ctxs is None:
        errors.append(context.error("ctxs", "missing (a list of {title, text} passages)"))
    elif not isinstance(ctxs, list):
        got = _json_type(ctxs)
        errors.append(context.error("ctxs", f"must be a list of {{title, text}} objects, got {got}"))
    elif not ctxs:
        errors.append(context.error("ctxs", "empty list (a record needs at least one passage)"))
    else:
        for j, ctx in enumerate(ctxs):
            default_title = f"{question} [{j}]" if question else f"passage {j}"
            document = _ctx_document(ctx, context, f"ctxs[{j}]", f"{query_id}-d{j}", default_title, errors)
            if document is not None:
                documents.append(document)
    if errors or question is None:
        return [], None, errors
    query = Query(id=query_id, text=question, answers=answers, doc_ids=tuple(doc.id for doc in documents))
    return documents, query, errors


def _ctx_document(
    ctx: Any, context: _RecordContext, name: str, doc_id: str, default_title: str, errors: list[InputError]
) -> Document | None:
    if not isinstance(ctx, dict):
        errors.append(context.error(name, f"must be an object with title and text, got {_json_type(ctx)}"))
        return None
    text = _text_field(ctx, "text", context, errors, prefix=f"{name}.", required=True, blank_ok=True)
    title = _text_field(ctx, "title", context, errors, prefix=f"{name}.")
    if text is None or title is None:
        return None
    title = " ".join(title.split()) or default_title
    source = f"{context.source}, {context.field(name)}"
    if "id" in ctx and isinstance(ctx["id"], (str, int)):
        source += f" (id {ctx['id']})"
    return Document(id=doc_id, title=title, text=separate_title(title, text), source=source)


def _plain_document(
    item: dict[str, Any], context: _RecordContext, doc_id: str, errors: list[InputError]
) -> Document | None:
    text = _text_field(item, "text", context, errors, required=True, blank_ok=True)
    title = _text_field(item, "title", context, errors)
    if text is None or title is None:
        return None
    title = " ".join(title.split()) or (text.strip().split("\n", 1)[0][:60] or EMPTY_TITLE)
    return Document(id=doc_id, title=title, text=separate_title(title, text), source=context.source)


def _answers(item: dict[str, Any], context: _RecordContext, errors: list[InputError]) -> tuple[str, ...]:
    answers = item.get("answers", [])
    if not isinstance(answers, list):
        errors.append(context.error("answers", f"must be a list of strings, got {_json_type(answers)}"))
        return ()
    for index, answer in enumerate(answers):
        if not isinstance(answer, str):
            errors.append(context.error(f"answers[{index}]", f"must be a string, got {_json_type(answer)}"))
            return ()
    return tuple(html.unescape(answer) for answer in answers)


def _text_field(
    item: dict[str, Any],
    key: str,
    context: _RecordContext,
    errors: list[InputError],
    prefix: str = "",
    required: bool = False,
    blank_ok: bool = False,
) -> str | None:
    """The cleaned string at `key` ("" when optional and absent or null); None after an error.

    A required field may be blank only when `blank_ok` (passages: real retrieval files carry empty
    ones, which are kept and never extracted); a null passage text counts as blank.
    """
    if key not in item:
        if required:
            errors.append(context.error(prefix + key, "missing"))
            return None
        return ""
    value = item[key]
    if value is None and (blank_ok or not required):
        return ""
    if not isinstance(value, str):
        errors.append(context.error(prefix + key, f"must be a string, got {_json_type(value)}"))
        return None
    if required and not blank_ok and not value.strip():
        errors.append(context.error(prefix + key, "empty text"))
        return None
    return clean_passage_text(value)


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
