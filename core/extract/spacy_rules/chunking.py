"""Long documents cut into chunks at paragraph or sentence ends (time stays linear in length)."""

from __future__ import annotations

import re

CHUNK_CHARS = 20_000


def split_into_chunks(text: str, size: int = CHUNK_CHARS) -> list[tuple[int, str]]:
    """(offset, chunk) pieces of at most ~`size` characters, cut at a paragraph, else a sentence end.

    A list written as "A, American actor ; B (born 1971), ... ; C ..." (two or more " ; ")
    is cut at each " ; ": the parser would otherwise attach one entry's words to another.
    """
    if text.count(" ; ") >= 2 and len(text) <= size:
        return _list_entries(text)
    if len(text) <= size:
        return [(0, text)]
    chunks: list[tuple[int, str]] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            cut = text.rfind("\n", start + size // 2, end)
            if cut < 0:
                cut = max(text.rfind(". ", start + size // 2, end), text.rfind("? ", start + size // 2, end))
                cut = cut + 1 if cut >= 0 else -1
            if cut < 0:
                cut = text.rfind(" ", start + size // 2, end)
            end = cut + 1 if cut >= 0 else end
        chunks.append((start, text[start:end]))
        start = end
    return chunks


def _list_entries(text: str) -> list[tuple[int, str]]:
    entries, start = [], 0
    for match in re.finditer(r" ; ", text):
        entries.append((start, text[start : match.start()]))
        start = match.end()
    entries.append((start, text[start:]))
    return [(offset, entry) for offset, entry in entries if entry.strip()]
