"""Address blocks: a street-address detection grown into the whole address it is part of.

The recognisers (`core.aback.recognisers`) find pieces: a street ("42 Elm Street"), a unit ("Suite
540"), a box ("FPO AP 08653"). An address runs on over its house number, a street line above its unit
line, comma- or line-separated parts (city, region, country, postcode) and place words on its own line
("... Apt. 676 Hamilton ON"); what is left outside is read as a name or a date, or stays in a rewrite
that erased the rest ("ON for post mail?"). `extend_addresses` grows every studio address detection
over those and joins the pieces of one block.

`extend_addresses` reads the text with carriage returns as spaces (same offsets), so a file with
Windows line ends reads as one with Unix ones; the functions it calls expect text read so.
"""

from __future__ import annotations

import re

from core.aback.common_words import is_common
from core.aback.detections import SOURCE_STUDIO, Detection
from core.aback.recognisers import STREET_WORDS, country_pattern, detection_at

# Lower-case words inside place names ("Torres de Albánchez", "Ústí nad Labem", "Paterna del Madera",
# "Turkovice u Prelouce").
_PLACE_PARTICLES = frozenset(
    {"de", "del", "della", "di", "da", "do", "dos", "das", "la", "le", "les", "el", "y", "e", "nad", "pod",
     "an", "am", "im", "der", "van", "von", "den", "op", "sur", "sous", "en", "i", "a", "u", "v", "na"}
)  # fmt: skip
# A comma, or a line break with the next line's indent, quote marks or a comma the line opens with
# ("KERAVA\n, UU\n 51771"), or "???" (a bullet read in the wrong encoding, as a letterhead's lines open;
# a list's "- " or "* " would run an address over the list's next items).
_SEPARATOR = re.compile(r"[ \t]*,[ \t]*|[ \t]*\n[\s>]*(?:\?\?\?[ \t]+)?(?:,[ \t]*)?")
_PART_WORDS = 5
_POSTCODE = re.compile(r"(\d{4,6}(?:-\d{4})?)[?.!]?")
_STRIP = " \t>"
# "lives at 95 Lille Vibyvej 8": a house number and up to three words of the street's name before
# where the detector's address begins, on the same line.
_NUMBER_AND_WORDS_BEFORE = re.compile(
    r"(?:^|(?<=[\s:,]))\d{1,5}(?:[ \t]+\d{1,5})?[ \t]+(?P<words>(?:[^\W\d_][\w'’./-]*[ \t]+){1,3})$"
)
# "25 Rákóczi út 81. Suite 540": a whole street (house number, name, number) before a unit it owns.
_STREET_BEFORE = re.compile(
    r"(?:^|(?<=[\s:,]))\d{1,5}[ \t]+(?P<words>(?:[^\W\d_][\w'’./-]*[ \t]+){1,4})\d{1,5}[A-Za-z]?\.?,?[ \t]+$"
)
_UNIT_WORD = re.compile(r"(?i:apt\.?|apartment|suite|ste\.|unit|flat)\s*#?\s*\d")
# A street line: a house number, a street name and maybe a second number, nothing else.
_STREET_LINE = re.compile(r"^[ \t>]*\d{1,5}(?:[ \t]+\d{1,5})?[ \t]+(?P<first>[^\W\d_])[^\n:@]{1,50}$")
# US military mail: the ship's line (or the end of a sentence naming the ship) or the unit's line above
# its "FPO AE 37876" line; in capitals or, in a text written in lower case, in lower case.
_MILITARY_LINE = re.compile(r"[ADF]PO\s+A[AEP]\b|[adf]po\s+a[aep]\b")
_SHIP_OR_UNIT = re.compile(
    r"(?<!\w)(?:USNS|USNV|USS|USCGC|usns|usnv|uss|uscgc)(?:[ \t]+[^\W\d_][\w'’.-]*){1,3}[ \t]*$"
    r"|^[ \t>]*(?:PSC|CMR|Unit|psc|cmr|unit)[ \t]+\d{1,5}\b[^\n:@]{0,30}$"
)
_STREET_WORD = re.compile(rf"(?i:\b(?:{STREET_WORDS})\b)")
_NOT_A_STREET_NAME = frozenset(
    {"at", "to", "is", "was", "with", "in", "on", "of", "for", "the", "a", "an", "and", "from", "by", "my",
     "our", "his", "her", "their", "your", "send", "sent", "mail", "ship", "deliver", "live", "lives", "near",
     "address"}
)  # fmt: skip
_NAME_BEFORE_THE_NUMBER = re.compile(
    r"(?:^[ \t>]*|:[ \t]*|\b(?:is|to|at|with)[ \t]+)(?P<words>(?:[^\W\d_][\w'’.-]*[ \t]+){1,3})$"
)
_STREET_NAME_BETWEEN = re.compile(
    rf"[ \t,]+(?:[^\W\d_a-z][\w'’-]*[ \t]+){{1,3}}(?i:{STREET_WORDS}),?[ \t]*\n?[ \t]*"
)
_REGION_CODE = re.compile(r"(?!AM|PM)[A-Z]{2}")
# US ZIP or Canadian postal code after a region code
_ZIP_CODE = re.compile(r"[ \t]+(\d{5}(?:-\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d)\b")
_PLACE_WORD = re.compile(r"[^\W\d_][\w'’.-]*")
# words that say when, not where ("at 42 Elm Street Saturday", "12 March Suite 400", "10 AM Suite 400")
_TIME_WORD = re.compile(
    r"(?i)(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|tomorrow|yesterday|noon|midnight"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?|[ap]\.?m\.?"
)
_SAME_LINE_WORDS = 4
# the house number right before a street ("82 rue"), or two ("36 82 rue"), not a phone's last groups
_NUMBERS_BEFORE = re.compile(r"(?<!\d[ \t])(?<![\d-])\b\d{1,3}[ \t]+\d{1,5}[ \t]+$|\b\d{1,5}[ \t]+$")


def extend_addresses(text: str, detections: list[Detection]) -> list[Detection]:
    """Studio street-address detections grown into whole address blocks (see the module's docstring);
    other detections are returned as they are."""
    plain = text.replace("\r", " ")
    uncased = not any(char.isupper() for char in text)
    extended = []
    for item in detections:
        if item.type != "ADDRESS" or item.source != SOURCE_STUDIO:
            extended.append(item)
            continue
        start, end = block_start(plain, item.start, uncased), block_end(plain, item.end, uncased)
        extended.append(detection_at(text, start, end, "ADDRESS", item.score, SOURCE_STUDIO))
    return _merged_address_blocks(text, extended)


def block_start(text: str, start: int, uncased: bool) -> int:
    """Where the address that a detection starting at `start` begins: over a street before its unit on
    the same line, its house number, the words of its street's name, and, above a unit or military
    mail line, the street, ship or unit line."""
    start = _street_before_a_unit(text, start, uncased)
    number = _NUMBERS_BEFORE.search(text[max(0, start - 14) : start])
    if number:
        start -= len(number.group(0))
    start = _street_name_before_its_number(text, street_number_before(text, start, uncased), uncased)
    return _street_or_ship_line_above(text, start, uncased)


def _street_name_before_its_number(text: str, start: int, uncased: bool) -> int:
    """The street's name said before the house number ("Vesturgata 66 Lucchese Street", "Långlöt 44 Horký
    Street"), one word no dictionary lists, where an address is given: at the line's start or after "is",
    "to", "at", "with" or a colon; else `start`."""
    if not text[start : start + 1].isdigit():
        return start
    window_start = max(line_start(text, start), start - 60)
    match = _NAME_BEFORE_THE_NUMBER.search(text[window_start:start])
    if match is None:
        return start
    words = match.group("words").split()
    # one word no dictionary lists: "Långlöt 44", "Vesturgata 66"; not "Invoice 44", "Tom Green 12"
    if len(words) != 1 or is_common(words[0].strip(".,")) or words[0].lower() in _NOT_A_STREET_NAME:
        return start
    if _TIME_WORD.fullmatch(words[0]) or not (uncased or words[0][0].isupper()):
        return start
    return window_start + match.start("words")


def block_end(text: str, end: int, uncased: bool) -> int:
    """Where the address that a detection ending at `end` ends: over place words on its line, up to
    four separated parts, place words on the last part's line."""
    end = _places_on_the_line(text, end, uncased)
    for _part in range(4):
        separator = _SEPARATOR.match(text, end)
        length = _address_part_length(text, separator.end(), uncased) if separator else 0
        if not length:
            break
        end = separator.end() + length  # type: ignore[union-attr]
    return _places_on_the_line(text, end, uncased)


def line_start(text: str, position: int) -> int:
    return text.rfind("\n", 0, position) + 1


def starts_line(text: str, position: int) -> bool:
    return not text[line_start(text, position) : position].strip(_STRIP)


def is_street_line(line: str, uncased: bool) -> bool:
    """A house number then a street name: capitalised ("14 Republica de Chile 8305"), or in a text
    written in lower case, ending on a number ("19 guipúzcoa 1268"); not "2 tablets daily"."""
    match = _STREET_LINE.match(line)
    if match is None:
        return False
    return match.group("first").isupper() or (uncased and bool(re.search(r"\d\s*$", line)))


def street_number_before(text: str, start: int, uncased: bool) -> int:
    window_start = max(line_start(text, start), start - 60)
    match = _NUMBER_AND_WORDS_BEFORE.search(text[window_start:start])
    if match is None or not _names_a_street(match.group("words"), uncased):
        return start  # "lives at 2 of the houses", "on 12 March": no street; "32 Pernilles vei 115" is one
    return window_start + match.start()


def _names_a_street(words: str, uncased: bool) -> bool:
    first = words.split()[0]
    return (uncased or first[0].isupper() or "/" in first) and not _TIME_WORD.fullmatch(first.rstrip(",."))


def street_line_above(text: str, start: int, uncased: bool) -> int:
    """The start of the street line right above the line that `start` opens, in the same block; else
    `start`."""
    above = _line_above(text, start)
    if above is None or not is_street_line(above[1], uncased):
        return start
    return above[0] + len(above[1]) - len(above[1].lstrip(_STRIP))


def _street_or_ship_line_above(text: str, start: int, uncased: bool) -> int:
    """Above a unit line ("Suite 258"), a street line that ends on its number or says it is a street
    ("14 Republica de Chile 8305"), not a phone, firm or agenda line; above a military mail line, the
    ship or unit ("USCGC Bustos", "Unit 3191 Box 3770"); else `start`."""
    above = _line_above(text, start)
    if above is None:
        return start
    above_start, line = above
    if _MILITARY_LINE.match(text, start):
        ship_or_unit = _SHIP_OR_UNIT.search(line)
        return above_start + ship_or_unit.start() if ship_or_unit else start
    if not _UNIT_WORD.match(text, start) or sum(char.isdigit() for char in line) >= 7:
        return start
    if not (re.search(r"\d[A-Za-z]?\.?\s*$", line) or _STREET_WORD.search(line)):
        return start
    return street_line_above(text, start, uncased)


def _line_above(text: str, start: int) -> tuple[int, str] | None:
    """Where the line above the line `start` opens begins, and the line; None when `start` opens no
    line, or it is the first line, or a blank line is above (another block)."""
    if not starts_line(text, start):
        return None
    start_of_line = line_start(text, start)
    if start_of_line < 2 or not text[line_start(text, start_of_line - 1) : start_of_line - 1].strip():
        return None
    above_start = line_start(text, start_of_line - 1)
    return above_start, text[above_start : start_of_line - 1]


def _street_before_a_unit(text: str, start: int, uncased: bool) -> int:
    if not _UNIT_WORD.match(text, start):
        return start
    window_start = max(line_start(text, start), start - 80)
    match = _STREET_BEFORE.search(text[window_start:start])
    if match is None or not _names_a_street(match.group("words"), uncased):
        return start
    return window_start + match.start()


def _places_on_the_line(text: str, end: int, uncased: bool) -> int:
    """The end of the place words that follow an address on its own line with no comma: up to four
    capitalised words (of any case in a text written in lower case) that end on a country's name and
    then the line, the sentence or the clause ("... Apt. 208 Santa Luzia Cape Verde"), or that a US or
    Canadian region code closes, with its ZIP code if one follows ("... Apt. 676 Hamilton ON for post
    mail?"); else `end`. A name, a weekday or a sign-off after an address ends on neither."""
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    position, run_start = end, -1
    for count in range(_SAME_LINE_WORDS + 1):
        word = re.match(r"[ \t]+([^\s,;]+)", text[position:line_end])
        if word is None:
            break
        value = word.group(1)
        bare, at = value.rstrip("?.!"), position + word.start(1)
        if count and not uncased and _REGION_CODE.fullmatch(bare):
            zip_code = _ZIP_CODE.match(text, at + 2)
            return zip_code.end(1) if zip_code else at + 2
        if count == _SAME_LINE_WORDS or not _is_place_word(bare, uncased):
            return end
        run_start = at if run_start < 0 else run_start
        position = at + len(bare)
        if bare != value:
            break  # the sentence ends on it
    if run_start < 0 or not _ends_on_a_country(text[run_start:position]):
        return end
    return position


def _is_place_word(word: str, uncased: bool) -> bool:
    if not _PLACE_WORD.fullmatch(word) or _TIME_WORD.fullmatch(word):
        return False
    return uncased or word[0].isupper() or word in _PLACE_PARTICLES


def _ends_on_a_country(words: str) -> bool:
    return any(match.end() == len(words) for match in country_pattern().finditer(words))


def _merged_address_blocks(text: str, detections: list[Detection]) -> list[Detection]:
    """Studio address pieces that overlap once grown ("99 Colonia Ofir 9881" grown over the next line
    and "Apt. 139" grown over the city and country), or stand side by side on one line ("03 Rua D 25
    Apt. 208"), are one address: their union, not the piece with the higher score."""
    pieces = sorted(
        (d for d in detections if d.type == "ADDRESS" and d.source == SOURCE_STUDIO), key=lambda d: d.start
    )
    others = [d for d in detections if not (d.type == "ADDRESS" and d.source == SOURCE_STUDIO)]
    merged: list[Detection] = []
    for item in pieces:
        last = merged[-1] if merged else None
        if last is not None and (
            item.start < last.end or _joins_two_pieces(text[last.end : item.start], text[last.end - 1])
        ):
            end = max(last.end, item.end)
            merged[-1] = detection_at(
                text, last.start, end, "ADDRESS", max(last.score, item.score), SOURCE_STUDIO
            )
        else:
            merged.append(item)
    return others + merged


def _joins_two_pieces(gap: str, last_char: str) -> bool:
    """Nothing but spaces and commas, or a street's name, stands between two pieces of one address:
    "Floridusgasse 89 Oomen Street / Suite 096" (a rewrite had left "Oomen Street" of it); not after a
    piece that ended a sentence ("Frørupvej 65. Tom Green. Suite 5")."""
    if not gap.strip(" \t,"):
        return True
    return last_char != "." and _STREET_NAME_BETWEEN.fullmatch(gap) is not None


def _a_country_and_its_postcode(text: str, start: int) -> int:
    """The length of a country's name at `start` with the postcode after it, ending its part; or 0."""
    country = country_pattern().match(text, start)
    if country is None:
        return 0
    end = country.end()
    postcode = re.match(r"[ \t]+(\d{4,6}(?:-\d{4})?)\b", text[end:])
    end += postcode.end() if postcode else 0
    closes = end == len(text) or text[end] in "\n,?.!" or (postcode is not None and text[end].isspace())
    return end - start if closes else 0  # not "..., Georgia said"


def _address_part_length(text: str, start: int, uncased: bool) -> int:
    """Length of the address part (city, region, country, postcode) at `start`, or 0 when there is none.

    A part runs to the next comma or line break if it has at most five words; otherwise it may end
    on a postcode within its first five words ("IL 62704 and works as ..." gives "IL 62704")."""
    segment = re.match(r"[^\n,@:;]{1,60}", text[start:])
    if segment is None or not (segment.group(0)[0].isalnum()):
        return 0
    country = _a_country_and_its_postcode(text, start)
    if country:
        return country  # "Saint Vincent and the Grenadines 36907": six words, two in lower case
    sentence_end = re.search(r"(?<=[^\W\d_]{4})\.\s", segment.group(0))  # "Berlin. Dr. Ana" ends at "Berlin"
    if sentence_end:
        segment = re.match(f"[^\\n,@:;]{{1,{sentence_end.start()}}}", text[start:])
        if segment is None:
            return 0
    first = segment.group(0)[0]
    if not (first.isdigit() or first.isupper() or uncased):
        return 0
    words = list(re.finditer(r"\S+", segment.group(0)))
    ends_part = (
        sentence_end is not None or segment.end() == len(text) - start or text[start + segment.end()] in "\n,"
    )
    capitalised = uncased or (
        all(not word.group(0)[0].islower() or word.group(0) in _PLACE_PARTICLES for word in words)
        and words[0].group(0)[0].isupper()
        and words[-1].group(0) not in _PLACE_PARTICLES  # "Fax na" is no place: a particle stands between
    )
    if len(words) <= _PART_WORDS and ends_part and capitalised:
        length = len(segment.group(0).rstrip(" .\t"))
    else:
        postcodes = [
            word.start() + len(match.group(1))
            for word in words[:_PART_WORDS]
            if (match := _POSTCODE.fullmatch(word.group(0)))
        ]
        length = postcodes[0] if postcodes else 0
    return length if sum(char.isdigit() for char in text[start : start + length]) < 7 else 0
