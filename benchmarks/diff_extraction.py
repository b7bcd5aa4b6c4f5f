"""Does a change to the spaCy rules change what they extract from real passages?

Two modes:

* `dump --out FILE`: runs the spaCy-rules extractor over every passage with text of the dev
  file (benchmarks/data/popqa_dev.jsonl: 50 questions x 25 passages), in the two forms passages
  reach the extractor: as the studio loads them (`core.documents`: entities decoded, title taken
  out of the text, the title passed as `titles`) and as they are in the file (raw text, no
  title). Writes one JSON line per passage and form: every field of every triple the extractor
  returns, in the order it returns them (head, relation, tail, doc_id, span, confidence,
  backend), or the error the passage raised. `--rules OLD_spacy_rules.py` dumps another copy of
  the rules instead of the installed package (e.g. `git show REV:core/extract/spacy_rules.py`, for a
  revision from before the rules became the package `core/extract/spacy_rules/`; for a later
  revision, run `dump` in a checkout of it: `git worktree add /tmp/old REV`).
* `compare OLD NEW`: prints every passage whose line differs (and passages only one file holds)
  and exits 1 on any difference, 0 when the files agree line for line.

Usage: python benchmarks/diff_extraction.py dump --out /tmp/before.jsonl [--path FILE] [--rules PY]
       python benchmarks/diff_extraction.py compare /tmp/before.jsonl /tmp/after.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from core.documents import load_path  # noqa: E402

Item = tuple[str, str, str]  # (id, text, title)
DEFAULT_PATH = REPO / "benchmarks" / "data" / "popqa_dev.jsonl"


def passages(path: Path) -> dict[str, list[Item]]:
    """Every non-empty passage of the file, as the studio loads it and as it is in the file."""
    corpus = load_path(path, max_bytes=path.stat().st_size + 1)
    studio = [(d.id, d.text, d.title) for d in corpus.documents if d.text.strip()]
    raw: list[Item] = []
    with path.open(encoding="utf-8") as handle:
        for line_number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            for j, ctx in enumerate(json.loads(line)["ctxs"]):
                if (ctx.get("text") or "").strip():
                    raw.append((f"raw-q{line_number}-d{j}", ctx["text"], ""))
    return {"studio": studio, "raw": raw}


def triple_fields(triple: Any) -> dict[str, Any]:
    return {
        "head": triple.head,
        "relation": triple.relation,
        "tail": triple.tail,
        "doc_id": triple.doc_id,
        "span": list(triple.span),
        "confidence": triple.confidence,
        "backend": triple.backend,
    }


def extraction_records(extractor: Any, forms: dict[str, list[Item]]) -> Iterator[dict[str, Any]]:
    """One record per passage and form: its triples in extraction order, or its error."""
    for form, items in forms.items():
        for doc_id, text, title in items:
            record: dict[str, Any] = {"form": form, "doc_id": doc_id}
            try:
                triples = extractor.extract_many([(doc_id, text)], titles={doc_id: title} if title else None)
            except Exception as exc:  # every failure is what this script reports
                record["error"] = f"{type(exc).__name__}: {exc}"
            else:
                record["triples"] = [triple_fields(t) for t in triples]
            yield record


def make_extractor(rules: str | None) -> Any:
    if rules:
        from bench_extraction_quality import rules_extractor

        return rules_extractor(rules)
    from core.extract import get_extractor
    from core.settings import Settings

    return get_extractor("spacy", Settings())


def dump(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    forms = passages(args.path)
    extractor = make_extractor(args.rules)
    counts = {form: 0 for form in forms}
    triples = errors = 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as handle:
        for record in extraction_records(extractor, forms):
            handle.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
            counts[record["form"]] += 1
            triples += len(record.get("triples", []))
            errors += "error" in record
    shown = ", ".join(f"{form} {count}" for form, count in counts.items())
    print(
        f"dumped {shown} passages, {triples} triples, {errors} errors to {args.out} "
        f"in {time.perf_counter() - started:.0f} s"
    )
    return 0


def read_records(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    records: dict[tuple[str, str], dict[str, Any]] = {}
    with path.open(encoding="utf-8") as handle:
        for line_number, line in enumerate(handle, start=1):
            try:
                record = json.loads(line)
                records[(record["form"], record["doc_id"])] = record
            except (json.JSONDecodeError, KeyError) as exc:
                raise SystemExit(f"{path}:{line_number}: not a dump line ({exc})") from exc
    return records


def record_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Readable lines for what changed in one passage's record."""
    if "error" in old or "error" in new:
        return [f"  error: {old.get('error')!r} -> {new.get('error')!r}"]
    old_lines = [json.dumps(t, ensure_ascii=False, sort_keys=True) for t in old["triples"]]
    new_lines = [json.dumps(t, ensure_ascii=False, sort_keys=True) for t in new["triples"]]
    lines = [f"  - {line}" for line in old_lines if line not in new_lines]
    lines += [f"  + {line}" for line in new_lines if line not in old_lines]
    return lines or ["  same triples, other order"]


def compare(args: argparse.Namespace) -> int:
    old, new = read_records(args.old), read_records(args.new)
    differing = 0
    for key in sorted(old.keys() | new.keys()):
        if old.get(key) == new.get(key):
            continue
        differing += 1
        form, doc_id = key
        if key not in old or key not in new:
            print(f"{form} {doc_id}: only in {args.new if key not in old else args.old}")
            continue
        print(f"{form} {doc_id}:")
        print("\n".join(record_differences(old[key], new[key])))
    forms = sorted({form for form, _ in new})
    counts = ", ".join(f"{form} {sum(1 for f, _ in new if f == form)}" for form in forms)
    print(f"diff_extraction: {differing} differences on {counts} passages")
    return 1 if differing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    modes = parser.add_subparsers(dest="mode", required=True)
    dumping = modes.add_parser("dump", help="extract every dev passage and write the triples as JSONL")
    dumping.add_argument("--out", type=Path, required=True)
    dumping.add_argument("--path", type=Path, default=DEFAULT_PATH)
    dumping.add_argument("--rules", help="another copy of spacy_rules.py instead of the package")
    dumping.set_defaults(run=dump)
    comparing = modes.add_parser("compare", help="print the differences of two dumps; exit 1 on any")
    comparing.add_argument("old", type=Path)
    comparing.add_argument("new", type=Path)
    comparing.set_defaults(run=compare)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
