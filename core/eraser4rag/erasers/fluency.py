"""Broken constructions a deletion can leave, found from the parse of each changed sentence.

A rewrite is *broken* when a sentence it changed holds a construction its original
sentence did not: a copula, auxiliary, preposition, article, possessive or conjunction
left without its complement ("was.", "born in.", "a ,", "and."), an emptied or
half-emptied bracket ("()", "(born)", "(– 1875)"), a dangling hyphen ("-born"), doubled
punctuation (", ,"), an article that no longer agrees with the next word ("an professional"),
a lower-case sentence start, or a sentence that lost every verb. Only what the rewrite
added counts: an odd construction the original already had is not the eraser's doing.

Used on every eraser's rewrites (metrics, the Rewrite tab's diff, annotation candidates)
and by the graph-guided eraser to choose among its candidate deletions.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from core.eraser4rag.erasers.sentences import sentence_pieces

Parser = Callable[[str], Any]

COPULAS = r"(?:is|was|are|were|be|been|being|am|has|have|had|became|becomes|remains|remained)"
PREPOSITIONS = (
    r"(?:in|on|at|of|for|from|to|by|with|into|onto|during|since|after|before|under|between|"
    r"among|about|against|through|towards?|upon|within|without|near|including|like|via|than)"
)
# "her" is left out: as an object pronoun it ends clauses ("hired her.")
DETERMINERS = r"(?:(?-i:a|A)(?!\.)|an|the|his|their|its|my|our|your|whose)"
CONJUNCTIONS = r"(?:and|or|but|nor)"
_END = r"\s*(?:[.,;:!?)]|$)"

PATTERNS: dict[str, re.Pattern[str]] = {
    "copula without complement": re.compile(
        rf"\b{COPULAS}{_END}|\b(?:is|was|are|were)\s+(?:and|or|but)\s", re.IGNORECASE
    ),
    "preposition without object": re.compile(rf"\b{PREPOSITIONS}{_END}", re.IGNORECASE),
    # "and she took." : a verb that always takes an object lost it
    "verb without object": re.compile(
        rf"\b(?:took|takes|made|makes|gave|gives|received|receives|obtained|earned|became|becomes|joined|"
        rf"joins|founded|attended|attends|signed|described|entered|reached|included|includes|"
        rf"contains|contained|featured|features|owned|owns){_END}"
    ),
    "article or possessive without noun": re.compile(rf"\b{DETERMINERS}{_END}", re.IGNORECASE),
    "conjunction without conjunct": re.compile(
        rf"\b{CONJUNCTIONS}{_END}|(?:^|[(,;]\s*){CONJUNCTIONS}\s*[,;]", re.IGNORECASE
    ),
    "emptied bracket": re.compile(r"\(\s*[,;:–—\-]*\s*\)|\[\s*\]|\"\s*\"|“\s*”|\s\"\s*[.,;:]"),
    "half-emptied bracket": re.compile(r"\(\s*[,;:–—\-]|[,;:–—\-]\s*\)"),
    "born without complement": re.compile(
        r"\b(?:born|née|died|nee)\s*(?:[,;:)]|\.(?!\w))|\bborn\s+(?:is|was|are|were|died)\b",
        re.IGNORECASE,
    ),
    # "described her as a watchdog who.": the relative clause went
    "relative pronoun without clause": re.compile(r"\b(?:who|whom|which)\s*(?:[.;!?]|$)"),
    "subordinator without clause": re.compile(
        r"(?:^|[,;]\s*)(?:Although|Though|While|Whilst|Because|Unless|Whereas|Despite|Including)\s*[,;.]",
        re.IGNORECASE,
    ),
    # "her grandfather, was a Mayor": the name between the comma pair went
    # "John Paul Wallach, was a journalist": the phrase between the name and its verb went
    "comma between subject and verb": re.compile(
        r"\b(?:[Hh]e|[Ss]he|[a-z]{3,}),\s+(?:is|was|are|were)\s"
        r"|^\W*(?:[A-Z][\w.'’-]*\s+){0,4}[A-Z][\w.'’-]*,\s+(?:is|was|are|were)\s"
    ),
    # "He served, a representative.": the "as" phrase went and the parser's next list member stayed
    "verb cut from its role": re.compile(
        r"\b(?:served|serves|worked|works|acted|acts|stood|played|plays|appeared|starred|competed|trained|"
        r"qualified|practised|practiced|began|started|ran)\s*,\s+(?:a|an|the)\s+[\w-]+\s*(?:[.;]|$)"
    ),
    # "He was assistant editor He was founder": a sentence lost its full stop
    "sentences run together": re.compile(
        r"[a-z0-9]\s+(?:He|She|They|His|Her|Their|It|Its|This|These)\s+[a-z]{2,}"
    ),
    # "He retired.", "McKay graduated.", "She lives.", "He took part.", "He offered his services.", "She had
    # her secondary education.": read as stubs by the cold readers of rounds 16 to 19
    "stub sentence": re.compile(
        r"^\W*(?:[A-Z][\w'’.-]*\s+){1,3}"
        r"(?:(?:has\s+|had\s+)?(?:retired|graduated|lives|lived|taken part|took part)"
        r"|was\s+born\s+into\s+a\s+family"
        r"|\w+\s+(?:his|her|their|the)\s+(?:(?:secondary|primary|early|higher|university)\s+)?"
        r"(?:services|career|education|function|duties|studies|training))\s*[.;]?\s*$"
    ),
    "doubled word": re.compile(r"\b(and|or|but|the|a|an|of|in|to|for|with)\s+\1\b", re.IGNORECASE),
    "dangling hyphen": re.compile(r"(?:^|\s)-\w|\w-(?:\s|$|[.,;:)])|\s[–—]\s*[,.;:)]|[(,;]\s*[–—]\s"),
    "unfinished sentence": re.compile(r",\s*$"),
    # "Was the county leader of ...": the subject went with the clause before
    "sentence without subject": re.compile(r"^\s*(?:Was|Were|Is|Are|Has|Have|Had)\s+(?!.*\?\s*$)"),
    "doubled punctuation": re.compile(r"[,;:]\s*[,;:.!?]|\.\s*[,;:]|\s[.,;:](?=\s|$)"),
}
_ARTICLE = re.compile(r"\b(a|an|A|An)\s+([A-Za-z][\w'-]*)")
# words whose first letter misleads: "a university", "an hour", "an MBA"
_VOWEL_SOUND_CONSONANT = re.compile(r"^(?:hour|honou?r|honest|heir|herb)", re.IGNORECASE)
_CONSONANT_SOUND_VOWEL = re.compile(r"^(?:uni|use|usu|uti|ure|euro?|eu|one|once|ewe|u-|uk\b)", re.IGNORECASE)
_VOWEL_LETTER_ACRONYM = re.compile(r"^[AEFHILMNORSX][A-Z0-9]+$")
_VERB_POS = {"VERB", "AUX"}


@dataclass(frozen=True)
class Broken:
    """One broken construction in a rewrite: its kind and where (characters of the rewrite)."""

    kind: str
    span: tuple[int, int]
    excerpt: str


def article_disagreements(text: str) -> list[tuple[int, int]]:
    """Spans of "a"/"an" that do not agree with the next word's sound ("an professional")."""
    found = []
    for match in _ARTICLE.finditer(text):
        article, word = match.group(1).lower(), match.group(2)
        if word.isupper() and len(word) > 1:
            wants_an = bool(_VOWEL_LETTER_ACRONYM.match(word))
        elif _VOWEL_SOUND_CONSONANT.match(word):
            wants_an = True
        elif _CONSONANT_SOUND_VOWEL.match(word):
            wants_an = False
        else:
            wants_an = word[0].lower() in "aeiou"
        if wants_an != (article == "an"):
            found.append((match.start(), match.end()))
    return found


# "At the age of almost 82 years, Licht died.": "died" ends a sentence that still says something
_DIED_AS_MAIN_VERB = re.compile(r"\b(?:[A-Z][\w'’-]+|he|she|they)\s+died\s*\.(?!\w)")


def pattern_findings(sentence: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of every text pattern of a broken construction in one sentence."""
    findings = [
        (kind, m.span())
        for kind, pattern in PATTERNS.items()
        for m in pattern.finditer(sentence)
        if not (kind == "born without complement" and _ends_a_sentence_that_says_more(sentence, m))
    ]
    findings += [("article disagreement", span) for span in article_disagreements(sentence)]
    if sentence.count('"') % 2 or sentence.count("“") != sentence.count("”"):
        findings.append(("unbalanced quotation", (0, min(len(sentence), 12))))
    stripped = sentence.lstrip(" \t\n\"'“(")
    if stripped[:1].islower():
        findings.append(("lower-case sentence start", (0, min(len(sentence), 12))))
    if stripped[:1] in {",", ";", ":", ".", "–", "—", ")"}:
        findings.append(("sentence starts with punctuation", (0, min(len(sentence), 12))))
    return findings


def _ends_a_sentence_that_says_more(sentence: str, match: re.Match[str]) -> bool:
    """ "died." after its subject, in a sentence with more to say than who died ("He died." is a stub)."""
    main_verb = _DIED_AS_MAIN_VERB.search(sentence, max(0, match.start() - 40))
    if main_verb is None or main_verb.end() < match.end() or main_verb.start() > match.start():
        return False
    before = sentence[: main_verb.start()].split()
    return len(before) >= 3


def lost_every_verb(original: str, rewrite: str, parse: Parser) -> bool:
    """Whether the rewritten sentence has no verb although its original had one."""
    if not rewrite.strip() or not original.strip():
        return False
    has_verb = any(t.pos_ in _VERB_POS for t in parse(rewrite))
    return not has_verb and any(t.pos_ in _VERB_POS for t in parse(original))


def bare_singular_predicates(sentence: str, parse: Parser) -> int:
    """Count of singular common nouns after a copula with no article or other modifier ("is publisher.")."""
    count = 0
    for token in parse(sentence):
        if (
            token.dep_ == "attr"
            and token.tag_ == "NN"
            and not any(
                c.dep_ in {"det", "poss", "nummod", "amod", "compound", "predet"} for c in token.children
            )
        ):
            count += 1
    return count


_FINITE_TAGS = {"VBD", "VBZ", "VBP"}
_SUBJECTS = {"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"}


def is_subjectless(sent: Any) -> bool:
    """The span's finite main verb (or a participle it opens on) has no subject, nor any other verb of it
    ("Graduated with honors.", "Died in Paddington."; a misparsed "X was born in 1650, was a painter"
    still has one)."""
    root = sent.root
    return (root.tag_ in _FINITE_TAGS or (root.tag_ == "VBN" and root.i == sent.start)) and not any(
        token.dep_ in _SUBJECTS for token in sent
    )


def subjectless_main_verbs(sentence: str, parse: Parser) -> int:
    """Count of sentences without a subject (`is_subjectless`)."""
    return sum(1 for sent in parse(sentence).sents if is_subjectless(sent))


def sentence_breakage(original: str, rewrite: str, parse: Parser | None = None) -> list[Broken]:
    """Constructions of the rewritten sentence that its original did not hold."""
    before = Counter(kind for kind, _span in pattern_findings(original))
    seen: Counter[str] = Counter()
    broken = []
    for kind, span in sorted(pattern_findings(rewrite), key=lambda f: f[1]):
        seen[kind] += 1
        if seen[kind] > before[kind]:
            broken.append(Broken(kind, span, _excerpt(rewrite, span)))
    if parse is not None and bare_singular_predicates(rewrite, parse) > bare_singular_predicates(
        original, parse
    ):
        broken.append(Broken("noun without article", (0, len(rewrite)), _excerpt(rewrite, (0, len(rewrite)))))
    if parse is not None and subjectless_main_verbs(rewrite, parse) > subjectless_main_verbs(original, parse):
        broken.append(Broken("verb without subject", (0, len(rewrite)), _excerpt(rewrite, (0, len(rewrite)))))
    if parse is not None and lost_every_verb(original, rewrite, parse):
        broken.append(
            Broken("sentence without a verb", (0, len(rewrite)), _excerpt(rewrite, (0, len(rewrite))))
        )
    return broken


def changed_sentences(original: str, rewrite: str) -> list[tuple[str, str, int]]:
    """(original sentence, rewritten sentence, offset in the rewrite) for each rewritten sentence
    that is not in the original verbatim, paired with its most similar original sentence."""
    originals = [s.strip() for s in _sentences(original) if s.strip()]
    if not originals:
        return []
    verbatim = set(originals)
    pairs = []
    offset = 0
    for piece in _sentences(rewrite):
        sentence = piece.strip()
        start = offset + (len(piece) - len(piece.lstrip()))
        offset += len(piece)
        if not sentence or sentence in verbatim:
            continue
        pairs.append((_most_similar(sentence, originals), sentence, start))
    return pairs


def _sentences(text: str) -> list[str]:
    return sentence_pieces(text)


def _most_similar(sentence: str, candidates: Iterable[str]) -> str:
    return max(candidates, key=lambda c: SequenceMatcher(None, c, sentence, autojunk=False).ratio())


def broken_in_rewrite(original: str, rewrite: str, parse: Parser | None = None) -> tuple[Broken, ...]:
    """Every broken construction the rewrite added, spans in characters of the rewrite."""
    if original == rewrite:
        return ()
    found = []
    for source, sentence, start in changed_sentences(original, rewrite):
        for item in sentence_breakage(source, sentence, parse):
            span = (item.span[0] + start, item.span[1] + start)
            found.append(Broken(item.kind, span, item.excerpt))
    return tuple(found)


def is_broken(original: str, rewrite: str, parse: Parser | None = None) -> bool:
    return bool(broken_in_rewrite(original, rewrite, parse))


def _excerpt(text: str, span: tuple[int, int], width: int = 30) -> str:
    start, end = max(0, span[0] - width), min(len(text), span[1] + width)
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
