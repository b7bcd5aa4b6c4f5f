"""Markup in pasted text is blanked out before parsing, character for character: HTML tags, script
and style elements with their code, Markdown emphasis, code ticks and link brackets. Spans keep their
offsets in the original text, and no entity comes out as "Zora Quill</b" or "Oakport</i"."""

from __future__ import annotations

import re

HTML_TAG = re.compile(
    r"<(script|style)\b[^<>]*>.*?</\1\s*>"  # an element whose content is code, not text
    r"|<!--.*?-->|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>",
    re.DOTALL | re.IGNORECASE,
)
MARKDOWN_LINK = re.compile(r"\[([^\[\]\n]+)\]\((?:[^()\s]|\([^()\s]*\))+\)")
EMPHASIS = re.compile(r"\*\*|__|`+|(?<![\w*])\*(?=[^\s*])|(?<=[^\s*])\*(?![\w*])")


def without_markup(text: str) -> str:
    """`text` with markup characters replaced by spaces (same length, same offsets)."""
    if not any(mark in text for mark in "<*_`["):
        return text
    characters = list(text)
    for match in HTML_TAG.finditer(text):
        _blank(characters, match.start(), match.end())
    for match in MARKDOWN_LINK.finditer(text):
        _blank(characters, match.start(), match.start(1))  # "["
        _blank(characters, match.end(1), match.end())  # "](url)"
    for match in EMPHASIS.finditer(text):
        _blank(characters, match.start(), match.end())
    return "".join(characters)


def _blank(characters: list[str], start: int, end: int) -> None:
    for index in range(start, end):
        if characters[index] != "\n":
            characters[index] = " "
