"""Does a change to the spaCy rules change what they extract from real passages?

Extracts every passage of the dev file (benchmarks/data/popqa_dev.jsonl: 50 questions x 25
passages) twice with each of two copies of `spacy_rules.py`, in the two forms passages reach
the extractor: as the studio loads them (`core.documents`: entities decoded, title taken out of
the text, the title passed as `titles`) and as they are in the file (raw text, no title). Every
triple (head, relation, tail, span) of every passage is compared; a passage whose extraction
raises is listed with the error.

Usage: python benchmarks/diff_extraction.py --rules OLD_spacy_rules.py [--path FILE] [--out JSON]
       (e.g. `git show REV:core/extract/spacy_rules.py > /tmp/old_rules.py`)
Exit status 0 when the two copies agree on every passage and neither raises, else 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_extraction_quality import rules_extractor  # noqa: E402

from core.documents import load_path  # noqa: E402
from core.extract import get_extractor  # noqa: E402
from core.settings import Settings  # noqa: E402

Item = tuple[str, str, str]  # (id, text, title)


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


def extract_each(extractor, items: list[Item]) -> dict[str, list | str]:
    """Each passage's triples as sorted (head, relation, tail, start, end), or its error."""
    found: dict[str, list | str] = {}
    for doc_id, text, title in items:
        try:
            triples = extractor.extract_many([(doc_id, text)], titles={doc_id: title} if title else None)
        except Exception as exc:  # every failure is what this script reports
            found[doc_id] = f"{type(exc).__name__}: {exc}"
            continue
        found[doc_id] = sorted([t.head, t.relation, t.tail, t.span[0], t.span[1]] for t in triples)
    return found


def compare(old: dict[str, list | str], new: dict[str, list | str]) -> dict[str, object]:
    differing = sorted(d for d in new if new[d] != old.get(d))
    return {
        "passages": len(new),
        "triples_old": sum(len(v) for v in old.values() if isinstance(v, list)),
        "triples_new": sum(len(v) for v in new.values() if isinstance(v, list)),
        "errors_old": {d: v for d, v in old.items() if isinstance(v, str)},
        "errors_new": {d: v for d, v in new.items() if isinstance(v, str)},
        "differing": {d: {"old": old.get(d), "new": new[d]} for d in differing},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", required=True, help="the other copy of spacy_rules.py")
    parser.add_argument("--path", type=Path, default=REPO / "benchmarks" / "data" / "popqa_dev.jsonl")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "diff_extraction.json")
    args = parser.parse_args(argv)
    current = get_extractor("spacy", Settings())
    other = rules_extractor(args.rules)
    started = time.perf_counter()
    report: dict[str, object] = {"rules": args.rules, "path": str(args.path)}
    same = True
    for form, items in passages(args.path).items():
        result = compare(extract_each(other, items), extract_each(current, items))
        report[form] = result
        same = same and not result["differing"] and not result["errors_new"] and not result["errors_old"]
        print(
            f"{form}: {result['passages']} passages, triples {result['triples_old']} -> "
            f"{result['triples_new']}, {len(result['differing'])} passage(s) differ, errors "
            f"{len(result['errors_old'])} -> {len(result['errors_new'])}"
        )
        for doc_id, error in {**result["errors_old"], **result["errors_new"]}.items():
            print(f"  {doc_id}: {error}")
    report["seconds"] = time.perf_counter() - started
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
