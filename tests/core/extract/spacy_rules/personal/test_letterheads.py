"""Letterheads, signature blocks and whole street addresses (issue 19), on records of the PII set's
development part and through the real extractor and detector."""

from core.aback.detections import Detection
from core.extract.spacy_rules.personal.letterheads import is_letterhead, letterhead_lines, whole_addresses
from tests.extract_helpers import facts


def test_a_letterhead_gives_its_subjects_job_firm_address_and_phone_lines(extractor):
    text = (
        "Michael Fleischer\nBenefits manager\nSoul Sounds Unlimited\n"
        "63 Ommerweg 159 Suite 287 Hellendoorn Saudi Arabia"
    )
    found = facts(extractor.extract("r0", text))
    assert ("record r0", "subject", "Michael Fleischer") in found
    assert ("Michael Fleischer", "occupation", "Benefits manager") in found
    assert ("record r0", "mentions", "Soul Sounds Unlimited") in found  # a firm or a second name: not said
    text = (
        "Ms. Alicia Laaksonen\nThink Computer Corporation\nLargo Prazeres 26 Christensen Street\n Apt. 485\n"
        " Picoto\n Singapore 72705\n046 406 6044 office\n2546712361 fax"
    )
    found = facts(extractor.extract("r1", text))
    assert (
        "Alicia Laaksonen",
        "employer",
        "Think Computer Corporation",
    ) in found  # above an address mid-line
    assert ("Alicia Laaksonen", "work_phone", "046 406 6044") in found  # no region: the line's name says
    assert not any(tail == "Ms. Alicia Laaksonen" for _, _, tail in found)  # the subject's line is no firm


def test_a_name_line_without_a_detection_opens_a_letterhead(extractor):
    text = (
        "dominique kapanen\ndairy scientist\nkiddie city\n86 fuente del gallo 4 suite 236 corcubión a coruña"
    )
    found = facts(extractor.extract("r2", text))
    assert ("record r2", "subject", "dominique kapanen") in found


def test_prose_and_notes_are_no_letterhead():
    assert not is_letterhead("Anna Berg\nI moved here last year.\nMy new flat is nice.", [])
    assert not is_letterhead("Patient seen today.\nBP 120/80\n3 tablets daily", [])
    assert is_letterhead("Anna Berg\nNurse\nCity Hospital\n12 Main Street", [(0, 9)])


def test_a_line_partly_detected_is_read_whole_a_line_wholly_detected_is_left():
    text = "Bridget Frandsen\nFood cooking machine operator\nKash n' Karry\n34 ul. Zuchów 65\n Apt. 291"
    detections = [
        Detection("Bridget Frandsen", "PERSON", 0, 16, 0.85, "ner"),
        Detection("Kash", "ORGANIZATION", 47, 51, 0.85, "ner"),
        Detection("34 ul. Zuchów 65\n Apt. 291", "ADDRESS", 61, len(text), 0.6, "studio"),
    ]
    lines = [(line.text, line.kind) for line in letterhead_lines(text, detections, [(0, 16)])]
    assert lines == [("Food cooking machine operator", "occupation"), ("Kash n' Karry", "employer")]


def test_an_address_grows_over_its_street_number_or_the_street_line_above():
    text = "Christina Pena lives at 95 Lille Vibyvej 8, Måløv"
    found = whole_addresses(text, [Detection("Vibyvej 8, Måløv", "ADDRESS", 33, len(text), 0.6, "studio")])
    assert [d.text for d in found] == ["95 Lille Vibyvej 8, Måløv"]
    text = "14 Republica de Chile 8305\n Suite 258\n Blanquillo"
    detections = [
        Detection("Republica de Chile 8305", "ORGANIZATION", 3, 26, 0.85, "ner"),
        Detection("Suite 258\n Blanquillo", "ADDRESS", 28, len(text), 0.6, "studio"),
    ]
    assert [d.text for d in whole_addresses(text, detections)] == [text]  # the street read as a firm goes
    text = "He lives at 2 of the houses on Main Street"
    detection = Detection("Main Street", "ADDRESS", 31, len(text), 0.6, "studio")
    assert whole_addresses(text, [detection]) == [detection]  # "2 of the houses" is no street name
