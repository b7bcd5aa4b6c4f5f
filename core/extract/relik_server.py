"""ReLiK worker process: JSON lines on stdin -> triplets as JSON lines on stdout.

Runs inside the interpreter of a separate environment where `relik` is installed
(relik pins an old torch/transformers that the studio cannot share); it imports
nothing from the studio, only the standard library and the backend.

    python relik_server.py --model relik-ie/relik-relation-extraction-small

Protocol: after loading it prints {"ready": true, "model": M} (or {"fatal": message}
and exits 1). Each request line {"id": ..., "text": ...} is answered by one line
{"id": ..., "triplets": [{"subject", "label", "object", "confidence", "start", "end"}]}
or {"id": ..., "error": message}. `start`/`end` are the character range from the
subject's start to the object's end (null when neither can be located in the text).
`--backend module:attr` (or `path/to/file.py:attr`) names the class with
`from_pretrained`; the default is `relik:Relik`.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
import traceback
from typing import Any, TextIO


def load_backend(spec: str) -> Any:
    module_name, _, attr = spec.rpartition(":")
    if not module_name or not attr:
        raise ValueError(f"--backend {spec!r}: expected module:attr or path/to/file.py:attr")
    if module_name.endswith(".py"):
        file_spec = importlib.util.spec_from_file_location("relik_backend_module", module_name)
        if file_spec is None or file_spec.loader is None:
            raise ImportError(f"cannot load backend file {module_name}")
        module = importlib.util.module_from_spec(file_spec)
        sys.modules[file_spec.name] = module  # dataclasses look their module up while executing it
        file_spec.loader.exec_module(module)
    else:
        module = importlib.import_module(module_name)
    return getattr(module, attr)


def locate(text: str, span: Any, search_from: int = 0) -> tuple[int, int] | None:
    """Character range of a ReLiK span: its own offsets when they match the text, else a search."""
    surface = str(getattr(span, "text", "") or "")
    start, end = getattr(span, "start", None), getattr(span, "end", None)
    if isinstance(start, int) and isinstance(end, int) and surface and text[start:end] == surface:
        return start, end
    if not surface:
        return None
    found = text.find(surface, search_from)
    if found < 0:
        found = text.find(surface)
    return (found, found + len(surface)) if found >= 0 else None


def triplet_to_dict(text: str, triplet: Any) -> dict[str, Any]:
    subject, obj = triplet.subject, triplet.object
    subject_range = locate(text, subject)
    object_range = locate(text, obj, subject_range[0] if subject_range else 0)
    ranges = [r for r in (subject_range, object_range) if r is not None]
    return {
        "subject": str(subject.text),
        "label": str(triplet.label),
        "object": str(obj.text),
        "confidence": float(getattr(triplet, "confidence", 1.0) or 0.0),
        "start": min(r[0] for r in ranges) if ranges else None,
        "end": max(r[1] for r in ranges) if ranges else None,
    }


def output_triplets(output: Any) -> list[Any]:
    """RelikOutput calls them `triplets` in 1.0.7 and `triples` in some versions."""
    triplets = getattr(output, "triplets", None)
    if triplets is None:
        triplets = getattr(output, "triples", None)
    return list(triplets or [])


def answer(model: Any, line: str) -> dict[str, Any]:
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"id": None, "error": f"request is not JSON: {exc.msg}"}
    if not isinstance(request, dict) or not isinstance(request.get("text"), str):
        return {"id": None, "error": "request must be an object with a string 'text'"}
    request_id, text = request.get("id"), request["text"]
    try:
        output = model(text)
        return {"id": request_id, "triplets": [triplet_to_dict(text, t) for t in output_triplets(output)]}
    except Exception as exc:
        return {"id": request_id, "error": f"{type(exc).__name__}: {exc}"}


def send(out: TextIO, payload: dict[str, Any]) -> None:
    out.write(json.dumps(payload) + "\n")
    out.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", required=True, help="ReLiK model id or folder")
    parser.add_argument(
        "--backend", default="relik:Relik", help="module:attr of the class with from_pretrained"
    )
    args = parser.parse_args(argv)
    protocol_out = sys.stdout
    sys.stdout = sys.stderr  # libraries that print must not corrupt the protocol stream
    try:
        model = load_backend(args.backend).from_pretrained(args.model)
    except Exception as exc:
        traceback.print_exc()
        send(
            protocol_out,
            {"fatal": f"cannot load {args.model!r} with {args.backend}: {type(exc).__name__}: {exc}"},
        )
        return 1
    send(protocol_out, {"ready": True, "model": args.model})
    for line in sys.stdin:
        if line.strip():
            send(protocol_out, answer(model, line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
