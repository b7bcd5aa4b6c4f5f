"""Model erasers: linearisation, the seq2seq path on a small random T5, the causal path on the
embedded SmolLM2, and the prompted erasers through the project's OpenAI-compatible server."""

import pytest

from core.eraser4rag.erasers import EraserError, get_eraser
from core.eraser4rag.erasers.eraser4rag import Eraser4RAGEraser, load_rewriter
from core.eraser4rag.erasers.linearize import (
    SPECIAL_TOKENS,
    add_special_tokens,
    linearize,
    parse_linearized,
    rewriter_input,
    select_triples,
)
from core.llm import LocalChatClient
from core.model_loading import resolve_local_lm
from core.openai_server import serve
from core.settings import Settings
from tests.core.eraser4rag.erasers.erasers_fixtures import sample_request

PRIVATE = [("mara voss", "live_in", "harrow vale"), ("tomas reyl", "suffer_from", "asthma")]
PUBLIC = [("mara voss", "work_for", "lindqvist robotics")]


def _settings(**changes):
    return Settings(**changes)


def _tokenizer():
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(resolve_local_lm("", Settings().cache_dir))


def test_linearisation_round_trips_through_the_tokenizer_as_special_tokens():
    private_text, public_text = linearize(PRIVATE, PUBLIC)
    assert private_text.startswith("<rsubj> mara voss <rrel> live_in <robj> harrow vale <re>")
    assert public_text == "<csubj> mara voss <crel> work_for <cobj> lindqvist robotics <ce>"
    tokenizer = _tokenizer()
    before = len(tokenizer)
    assert add_special_tokens(tokenizer) == len(SPECIAL_TOKENS)
    assert add_special_tokens(tokenizer) == 0  # idempotent
    ids = tokenizer(rewriter_input("Mara Voss lives in Harrow Vale.", PRIVATE, PUBLIC))["input_ids"]
    marker_ids = [i for i in ids if i >= before]
    assert [tokenizer.convert_ids_to_tokens(i) for i in marker_ids] == list(SPECIAL_TOKENS[:4]) * 2 + list(
        SPECIAL_TOKENS[4:]
    )
    assert parse_linearized(tokenizer.decode(ids)) == (PRIVATE, PUBLIC)


def test_select_triples_keeps_document_related_triples_first_and_says_so():
    selection = select_triples("Tomas Reyl coughs.", PRIVATE, PUBLIC, lambda _k, _p: 1, budget=1)
    assert selection.private == (("tomas reyl", "suffer_from", "asthma"),) and selection.public == ()
    assert "private 1 of 2 kept, public 0 of 1 kept" in selection.note()


def test_seq2seq_path_on_a_small_t5_built_from_a_config(tmp_path):
    from transformers import T5Config, T5ForConditionalGeneration

    tokenizer = _tokenizer()
    config = T5Config(
        vocab_size=len(tokenizer) + 8,
        d_model=32,
        d_ff=64,
        d_kv=8,
        num_layers=1,
        num_heads=2,
        decoder_start_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.eos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    T5ForConditionalGeneration(config).save_pretrained(tmp_path)
    tokenizer.save_pretrained(tmp_path)
    load_rewriter.cache_clear()
    settings = _settings(
        rewriter_model=str(tmp_path),
        rewriter_max_new_tokens=6,
        rewriter_max_input_tokens=96,
        rewriter_window_sentences=2,
    )
    eraser = get_eraser("eraser4rag", settings)
    assert eraser.trained is False
    assert eraser.rewriter.seq2seq is True
    assert eraser.rewriter.tokenizer.convert_tokens_to_ids("<rsubj>") >= len(tokenizer)
    request = sample_request(("hr-record",))
    (rewrite,) = eraser.erase(request)
    assert rewrite.eraser == "eraser4rag" and rewrite.original == request.documents[0].text
    notes = " ".join(rewrite.notes)
    assert "rewritten in" in notes and "window(s)" in notes  # the long document was windowed, not cut
    assert "untrained" in notes
    for edit in rewrite.edits:
        assert rewrite.text[slice(*edit.rewrite_span)] is not None


def test_causal_path_on_the_embedded_smollm2_with_a_short_budget():
    settings = _settings(rewriter_max_new_tokens=4, rewriter_output="rewrite")
    eraser = Eraser4RAGEraser(settings)
    assert eraser.rewriter.seq2seq is False
    request = sample_request(("retriever-queries-q1-d0", "hr-record"), split_seed=None)
    short = next(d for d in request.documents if d.id == "retriever-queries-q1-d0")
    rewrite = eraser.rewrite_document(short, request, sorted(request.definition.private), [])
    assert rewrite.text and rewrite.seconds > 0


@pytest.fixture(scope="module")
def local_server():
    server, base_url = serve(LocalChatClient(""))
    yield base_url
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("name", ["llm-each", "llm-all", "abstraction"])
def test_prompted_erasers_through_the_openai_compatible_server(local_server, name):
    settings = _settings(llm_base_url=local_server, llm_model="local", rewriter_max_new_tokens=6)
    request = sample_request(("retriever-queries-q1-d0", "retriever-queries-q4-d0"), split_seed=0)
    rewrites = list(get_eraser(name, settings).erase(request))
    assert [r.doc_id for r in rewrites] == [d.id for d in request.documents]
    rewritten = [r for r in rewrites if r.removed or name == "llm-all"]
    assert rewritten, "the split gives these documents private triples"
    for rewrite in rewritten:
        assert rewrite.text != rewrite.original  # a 6-token budget cannot copy the document
        assert rewrite.edits and rewrite.eraser == name
        assert any("cut at 6 tokens" in note for note in rewrite.notes)


def test_failing_endpoint_names_the_document_and_keeps_earlier_rewrites():
    calls = []

    def flaky(messages):
        calls.append(messages)
        if len(calls) > 1:
            raise RuntimeError("backend crashed")
        return "Mara Voss is an engineer."

    server, base_url = serve(flaky)
    try:
        settings = _settings(llm_base_url=base_url, llm_model="flaky")
        request = sample_request(("hr-record", "retriever-queries-q1-d0"), split_seed=0)
        produced = []
        with pytest.raises(EraserError, match=r"document '.*'.*run again"):
            for rewrite in get_eraser("llm-all", settings).erase(request):
                produced.append(rewrite)
        assert len(produced) == 1 and produced[0].text == "Mara Voss is an engineer."
    finally:
        server.shutdown()
        server.server_close()
