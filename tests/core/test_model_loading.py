"""The lazy model cache loads the real embedded models, once."""

import numpy as np

from core import model_loading as models


def test_spacy_pipeline_is_cached_and_parses():
    nlp = models.get_spacy()
    assert nlp is models.get_spacy()
    doc = nlp("Mara Voss works for Lindqvist Robotics in Harrow Vale.")
    assert any(ent.label_ in {"PERSON", "ORG"} for ent in doc.ents)
    assert {"parser", "ner"} <= set(nlp.pipe_names)


def test_a_bracket_and_comma_glued_to_the_next_word_are_tokens_of_their_own():
    # PopQA dev (Arcangeli): "(1923–1998),Italian racewalker" was one token with the dates; a removal of
    # "Italian" took them along
    words = [
        t.text for t in models.get_spacy()("Telemaco Arcangeli (1923–1998),Italian racewalker; 1,000 people")
    ]
    assert words == [
        "Telemaco",
        "Arcangeli",
        "(",
        "1923–1998",
        ")",
        ",",
        "Italian",
        "racewalker",
        ";",
        "1,000",
        "people",
    ]


def test_embedder_gives_384_dimensional_unit_scale_vectors():
    embedder = models.get_embedder()
    vectors = embedder.encode(["a patient with asthma", "asthma patient"], normalize_embeddings=True)
    assert vectors.shape == (2, 384)
    assert float(np.dot(vectors[0], vectors[1])) > 0.7


def test_local_causal_lm_generates_with_its_chat_template(tmp_path):
    import os

    tokenizer, model = models.get_causal_lm("", os.environ["RPS_CACHE_DIR"])
    assert (tokenizer, model) == models.get_causal_lm("", os.environ["RPS_CACHE_DIR"])
    encoded = tokenizer.apply_chat_template(
        [{"role": "user", "content": "What is the capital of France?"}],
        add_generation_prompt=True,
        return_tensors="pt",
        return_dict=True,
    )
    output = model.generate(**encoded, max_new_tokens=8, do_sample=False)
    answer = tokenizer.decode(output[0][encoded["input_ids"].shape[1] :], skip_special_tokens=True)
    assert "Paris" in answer
