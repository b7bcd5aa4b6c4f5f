"""Rule-based triples from spaCy's dependency parse (the default, offline extractor).

Rules (docs/EXTRACTION.md lists them with real examples and known misses):

* birth and death dates and places from the parenthesis after a name (`lifespans.py`);
* descriptions, in a copula ("X was an English Conservative Party politician"), an
  apposition ("X, an Australian footballer") or after a lifespan in a list, split into
  facts: one `occupation` per coordinated noun, `country_of_citizenship` from a demonym,
  `member_of_political_party` from a party name, `instance_of` for things;
* subject-verb-object and subject-verb-preposition-object (active and passive), relative
  clauses, participles and conjoined verbs, whose subject is the clause's entity, never a
  predicate noun of an earlier clause; possessives ("X's father, Danny"); "City, Region"
  gives `located_in`;
* relation names go through the shared vocabulary (`vocabulary.py`): Wikidata property
  names where one fits, the verb lemma otherwise; a negation keeps a `not_` prefix.

Arguments are named entities, dates, quantities and specific noun phrases; generic or
pronoun-like nouns ("work", "one", "family") are dropped. Within one passage, a partial
name or a pronoun becomes a full name only when the referent is certain (the only
compatible earlier name, else the passage's title person); otherwise the triple is
dropped. Long documents are cut into chunks at paragraph or sentence boundaries so that
time stays linear in the length; progress is reported per chunk.

Where each rule family lives (one file each, named after what it holds):

| file | what it holds |
|---|---|
| `extractor.py` | `SpacyRuleExtractor`: the pipeline over chunks, one `ChunkRules` per chunk |
| `chunking.py` | `split_into_chunks`: long documents cut at paragraph or sentence ends |
| `chunk_rules.py` | `ChunkRules`: one chunk's state, the order rules run in, candidates to triples |
| `retokenize.py` | entity fixes before the rules: nicknames, possessive and coordinated names |
| `lifespans.py` | the parenthesis after a name: lifespans, lists of people, native names |
| `names.py` | birth names ("née"), titles before a name, relatives named after a copula |
| `degrees_and_fields.py` | academic majors and fields of work |
| `places.py` | "City, Region", apposed places, institution parts, a verb's place |
| `verbs.py` | relations by verb (active, passive, prepositions), positions held, copulas |
| `descriptions.py` | descriptions split into facts (occupation, citizenship, party, works) |
| `coordination.py` | coordinated description nouns and their shared heads |
| `appositions.py` | appositions and possessives |
| `arguments.py` | which tokens make a head or tail: text, kind, bounds |
| `mentions.py` | names per sentence, genders, pronoun referents |
| `context.py` | `Argument`, a candidate fact, `DocumentContext`, `title_person` |
| `tree.py` | dependency-tree helpers (conjuncts, phrase bounds, confidence) |
| `words.py` | the word, label and dependency sets the rules share |

Each family is a mixin of `ChunkRules` (state in `ChunkRules`, calls through `self`), so the
families import only the shared modules below them and never each other.
"""

from core.extract.spacy_rules.chunking import split_into_chunks
from core.extract.spacy_rules.context import Argument, DocumentContext, title_names_a_thing, title_person
from core.extract.spacy_rules.extractor import TITLE_ABBREVIATIONS, SpacyRuleExtractor

__all__ = [
    "TITLE_ABBREVIATIONS",
    "Argument",
    "DocumentContext",
    "SpacyRuleExtractor",
    "split_into_chunks",
    "title_names_a_thing",
    "title_person",
]
