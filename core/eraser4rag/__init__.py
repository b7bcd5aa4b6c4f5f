"""The Eraser4RAG method: the privacy definition over the global knowledge graph (`graph`, `names`,
`split`, `filters`, `risk`, `metrics`), rewriting documents without their private triples (`erasers/`,
`rewrites`, the user's session in `workspace/`), grading the rewrites (`erasers/evaluation`,
`erasers/leaks`, `metrics`), the annotation studio (`annotation/`) and rewriter training (`training/`).
Shared infrastructure (types, settings, models, documents, extraction, serialisation, the CLI) stays
at `core/`'s top level; ABack is `core/aback/`.
"""
