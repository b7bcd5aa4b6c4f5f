"""Removals closed under the grammatical rules: whole units, orphans, punctuation, and heads without
their complement (`complements.py`) (Clarke & Lapata 2008; Filippova & Altun 2013: a word stays only
while what it needs stays)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from core.eraser4rag.erasers.attachment import (
    remove_adverbs_before_a_removed_phrase,
    remove_unattached_continuations,
)
from core.eraser4rag.erasers.complements import (
    lost_of_complement,
    next_member_hung_elsewhere,
    remove_heads_without_complement,
    remove_phrases_of_removed_conjuncts,
)
from core.eraser4rag.erasers.coordination import (
    remove_appositions_of_a_removed_object,
    remove_coordinators_before_a_like_member,
    remove_modifiers_of_a_removed_last_member,
    remove_names_listed_after_a_plural,
    remove_participles_of_a_removed_phrase,
    remove_relative_clauses_of_a_removed_name,
    remove_subordinators_of_removed_clauses,
    remove_time_clauses_of_a_removed_relative_clause,
)
from core.eraser4rag.erasers.grammar import (
    DEPICTION_NOUNS,
    NAME_LABELS,
    NEEDS_ITS_KIND,
    ORPHAN_DEPS,
    STREET_NOUNS,
    SUBJECT_DEPS,
    TITLE_LABELS,
    VAGUE_NUMBER_NOUNS,
    VERB_POS,
    WHOLE_ENTITY_LABELS,
    WORK_NOUNS,
    born_of_a_parent_hung_on_its_place,
    has_its_of,
    has_kept_conj,
    is_a_role_hung_on_an_object,
    needs_its_phrase,
    next_kept_conj,
    subtree,
    vaguely_counted,
)
from core.eraser4rag.erasers.pointers import (
    PLACE_POINTERS,
    named_by_a_close_apposition,
    remove_bare_nouns_whose_number_went,
    remove_parts_of_removed_places,
    remove_pointers_to_removed_places,
    sayable_with_a,
)
from core.eraser4rag.erasers.predicates import (
    is_participle,
)


def close_deletions(
    sent: Any, removed: set[int], keep: set[int], set_parents_aside: bool = True
) -> tuple[set[int], bool]:
    """Removed tokens closed under the grammatical rules; True when the main predicate is gone."""
    removed = set(removed)
    parents = _parents_of_the_born(sent, removed, keep) if set_parents_aside else set()
    _expand_entities(sent, removed, keep)
    for _round in range(8):
        before = len(removed)
        _whole_quotations(sent, removed)
        _remove_premodifier_conjuncts(sent, removed)
        _remove_generic_name_heads(sent, removed)
        _remove_nouns_named_by_close_apposition(sent, removed)
        _expand_company_names(sent, removed)
        _remove_asides_of_removed_nouns(sent, removed, keep)
        _remove_places_of_removed_names(sent, removed, keep)
        _remove_vague_quantities_without_their_examples(sent, removed)
        _remove_objects_that_lost_what_said_which(sent, removed)
        _remove_works_that_lost_their_title(sent, removed, keep)
        _remove_nouns_that_lost_their_kind(sent, removed)
        _remove_streets_whose_name_went(sent, removed)
        _remove_objects_that_lost_their_phrase(sent, removed)
        _remove_coordinators_without_a_next_member(sent, removed)
        remove_coordinators_before_a_like_member(sent, removed)
        remove_names_listed_after_a_plural(sent, removed)
        remove_time_clauses_of_a_removed_relative_clause(sent, removed)
        remove_subordinators_of_removed_clauses(sent, removed)
        remove_participles_of_a_removed_phrase(sent, removed)
        remove_appositions_of_a_removed_object(sent, removed)
        remove_modifiers_of_a_removed_last_member(sent, removed, keep)
        remove_relative_clauses_of_a_removed_name(sent, removed)
        remove_pointers_to_removed_places(sent, removed)
        remove_parts_of_removed_places(sent, removed)
        remove_bare_nouns_whose_number_went(sent, removed)
        remove_unattached_continuations(sent, removed)
        remove_adverbs_before_a_removed_phrase(sent, removed)
        _remove_members_that_lost_their_date(sent, removed)
        _remove_echoes_of_removed_phrases(sent, removed)
        _whole_fixed_pairs(sent, removed)
        _remove_range_ends_without_their_start(sent, removed)
        _remove_period_starts_without_their_end(sent, removed)
        _remove_orphans(sent, removed)
        _remove_own_without_its_possessor(sent, removed)
        remove_phrases_of_removed_conjuncts(sent, removed)
        _remove_commas_before_members_hung_elsewhere(sent, removed)
        _remove_counts_of_what_went(sent, removed)
        _remove_maiden_names_without_nee(sent, removed)
        lost = remove_heads_without_complement(sent, removed, keep)
        if lost:
            return removed, True
        _remove_dangling_hyphens(sent, removed)
        for token in sent:
            if token.i not in removed and token.dep_ in {"appos", "conj", "pobj", "npadvmod"}:
                lost_of_complement(token, removed)
            elif token.i not in removed and token.dep_ in SUBJECT_DEPS and token.lower_ in DEPICTION_NOUNS:
                lost_of_complement(token, removed)  # "Another statue [of Richard Harris] has been erected"
        if len(removed) == before:
            break
    _give_back_the_parents_of_the_born(sent, removed, parents)
    _pair_brackets(sent, removed)
    _close_interrupting_commas(sent, removed)
    _remove_commas_after_fronted_adjuncts(sent, removed)
    _keep_the_full_stop(sent, removed)
    root = sent.root
    kept = [t for t in sent if t.i not in removed and not t.is_punct]
    return removed, root.i in removed and bool(kept) and not any(t.pos_ in VERB_POS for t in kept)


def _remove_own_without_its_possessor(sent: Any, removed: set[int]) -> None:
    """ "He had [his] own lawyer's office": "own" needs its possessor ("the own office" does not read)."""
    for token in sent:
        if token.i in removed or token.lower_ != "own" or token.head.i in removed:
            continue
        possessors = [c for c in token.head.children if c.dep_ == "poss"]
        if possessors and all(p.i in removed for p in possessors):
            removed.add(token.i)


def _remove_echoes_of_removed_phrases(sent: Any, removed: set[int]) -> None:
    """ "a master's degree [from Tulane University], and a Doctor of Philosophy, also from Tulane": "also"
    said its phrase again; without the first, the second would read as said of both, so both go."""
    for also in sent:
        phrase = also.head
        if also.lower_ != "also" or also.i in removed or phrase.pos_ != "ADP" or phrase.i in removed:
            continue
        if any(
            t.i in removed and t.lower_ == phrase.lower_ and t.pos_ == "ADP" for t in sent if t.i < also.i
        ):
            echo = subtree(phrase)
            removed.update(echo)
            before, after = min(echo) - 1, max(echo) + 1
            doc = sent.doc
            if before >= sent.start and after < sent.end and doc[before].text == doc[after].text == ",":
                removed.update({before, after})  # "a Doctor of Philosophy[, also from Tulane,] in 1994"


def _close_interrupting_commas(sent: Any, removed: set[int]) -> None:
    """ "He rebuilt[, between 1692 and 1693,] the fallen dome": an adjunct set off by commas between a
    verb and what follows takes both commas (tidy would keep one: "He rebuilt, the fallen dome")."""
    doc = sent.doc
    for run in _removed_runs(sent, removed):
        first, last = run[0], run[-1]
        if first - 2 < sent.start or last + 1 >= sent.end:
            continue
        before, after, verb = doc[first - 1], doc[last + 1], doc[first - 2]
        tops = [doc[i] for i in run if doc[i].head.i not in run]
        if (
            before.text == ","
            and after.text == ","
            and before.i not in removed
            and after.i not in removed
            and verb.pos_ in {"VERB", "AUX"}
            and tops
            and all(t.head.i == verb.i and t.dep_ in {"prep", "npadvmod", "advmod", "advcl"} for t in tops)
        ):
            removed.update({before.i, after.i})


def _remove_commas_after_fronted_adjuncts(sent: Any, removed: set[int]) -> None:
    """ "said that [at age 79], he and his partner could not afford": a clause's fronted adjunct takes the
    comma that set it off (tidy would keep it: "said that, he")."""
    doc = sent.doc
    for run in _removed_runs(sent, removed):
        first, last = run[0], run[-1]
        comma = last + 1
        if first - 1 < sent.start or comma >= sent.end or doc[comma].text != "," or comma in removed:
            continue
        opener = doc[first - 1]
        tops = [doc[i] for i in run if doc[i].head.i not in run]
        if (
            opener.dep_ in {"mark", "cc"}
            and opener.i not in removed
            and tops
            and all(t.head.i > comma and t.dep_ in {"prep", "npadvmod", "advmod", "advcl"} for t in tops)
        ):
            removed.add(comma)


def _removed_runs(sent: Any, removed: set[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for token in sent:
        if token.i in removed:
            if runs and runs[-1][-1] == token.i - 1:
                runs[-1].append(token.i)
            else:
                runs.append([token.i])
    return runs


def _keep_the_full_stop(sent: Any, removed: set[int]) -> None:
    """A removed last clause ("..., and he was then raised to post-captain on 9 July 1798.") takes its
    words, not the sentence's full stop: without it the next sentence runs on ("1795 He captured")."""
    if not any(t.i not in removed and not t.is_punct for t in sent):
        return
    for token in reversed(sent):
        if token.text in {".", "!", "?"}:
            removed.discard(token.i)
            return
        if not token.is_punct and not token.is_space:
            return


def _pair_brackets(sent: Any, removed: set[int]) -> None:
    """A bracket goes with its partner: "(born 1888 in Beuthen, [Germany (now Bytom, Poland)], died ...)"
    must not keep the inner ")" and so close the outer bracket early. An emptied pair goes whole; a pair
    whose content stays keeps both ends; a lifespan left with its place alone goes whole ("(Milan [1840 -
    1913])" would read as a name's disambiguation)."""
    doc = sent.doc
    for start, end in _bracket_pairs(sent):
        inside = range(start + 1, end)
        kept = [doc[i] for i in inside if i not in removed and not doc[i].is_punct]
        lost_dates = any(i in removed and doc[i].ent_type_ == "DATE" for i in inside)
        if lost_dates and kept and all(t.ent_type_ in {"GPE", "LOC"} for t in kept):
            removed.update(range(start, end + 1))
        elif all(i in removed for i in inside):
            removed.update((start, end))
        else:
            removed.difference_update((start, end))


# fixed pairs a reader takes as one word ("track and field"): one half goes with the other
FIXED_PAIRS = {("track", "field"), ("rock", "roll"), ("arts", "crafts"), ("research", "development")}


def _remove_range_ends_without_their_start(sent: Any, removed: set[int]) -> None:
    """ "[From 1887] to 1890 he founded the review": the "to" of a range whose start went reads as where he
    went ("To 1890 he founded"); it goes too. "until his death" and a start without its end ("From 1887 he
    edited it") still read."""
    doc = sent.doc
    for end in sent:
        if end.i in removed or end.lower_ != "to" or end.i == sent.start:
            continue
        start_value = doc[end.i - 1]
        start = start_value.head
        if (
            start_value.i in removed
            and start_value.ent_type_ == "DATE"  # "rose [from 12] to 40" still reads
            and start.lower_ == "from"
            and start.i in removed
        ):
            removed.update(subtree(end))


PERIOD_NOUNS = {"period", "year", "span", "era", "time"}


def _range_ends_of(start: Any) -> list[Any]:
    """The prepositions that end a "from" range: hung on "from" or on its date ("from [1971] to 1978")."""
    values = [c for c in start.children if c.dep_ == "pobj" and (c.ent_type_ == "DATE" or c.like_num)]
    return [c for head in (start, *values) for c in head.children if c.dep_ == "prep"]


def _remove_period_starts_without_their_end(sent: Any, removed: set[int]) -> None:
    """ "during the period from 1971 [to 1978]": a period is its two ends, and "the period from 1971" reads
    as cut off; its start goes too (and "the period" with it, `lost_of_complement`). "He served from 1990
    [to 1995]" still reads."""
    for start in sent:
        period = start.head
        if start.i in removed or start.lower_ != "from" or period.lemma_.lower() not in PERIOD_NOUNS:
            continue
        if period.dep_ in SUBJECT_DEPS:
            continue  # a subject keeps its range: "The period was his most productive" points at nothing
        ends = [c for c in _range_ends_of(start) if c.lower_ in {"to", "until", "till"}]
        if ends and all(end.i in removed for end in ends):
            removed.update(subtree(start))


def _whole_fixed_pairs(sent: Any, removed: set[int]) -> None:
    doc = sent.doc
    for token in sent:
        end = token.i + 2
        if end >= sent.end or doc[token.i + 1].lower_ != "and":
            continue
        if (token.lower_, doc[end].lower_) in FIXED_PAIRS and (token.i in removed or end in removed):
            removed.update(range(token.i, end + 1))


def _remove_asides_of_removed_nouns(sent: Any, removed: set[int], keep: set[int]) -> None:
    """ "born in 1882 to [Edward Corser and Mary Jane] (née Stewart)": a bracket right after a noun says
    something about that noun (the parser often hangs it on the verb); when the noun goes, so does its
    aside, or it would describe whatever now stands before it ("born in 1882 (née Stewart)")."""
    doc = sent.doc
    for start, end in _bracket_pairs(sent):
        before = doc[start - 1] if start > sent.start else None
        inside = set(range(start + 1, end))
        if (
            before is not None
            and before.i in removed
            and before.pos_ in {"PROPN", "NOUN"}
            and inside
            and not inside & keep
            and not _a_maiden_name(before)
        ):
            removed.update(range(start, end + 1))


def _remove_vague_quantities_without_their_examples(sent: Any, removed: set[int]) -> None:
    """ "He designed many buildings [in London, including the Church of St Peter's]": "many buildings" said
    something only through what went; left bare it is a hollow stub, and it goes like an object that went."""
    for noun in sent:
        if noun.i in removed or not vaguely_counted(noun):
            continue
        specifics = [c for c in noun.children if c.dep_ in {"prep", "acl", "relcl", "appos"}]
        if specifics and all(c.i in removed for c in specifics):
            number = noun.head.head if noun.head.lower_ == "of" else None
            whole = number if number is not None and number.lower_ in VAGUE_NUMBER_NOUNS else noun
            removed.update(subtree(whole))


def _remove_commas_before_members_hung_elsewhere(sent: Any, removed: set[int]) -> None:
    """ "for [the BC Lions], Ottawa Renegades": the next member takes the removed one's place, without
    the comma that parted them; when the preposition went too, the list's other members go with it
    ("[alongside Kaleemullah Khan], Sunil Chetri ..." would name them among what he is)."""
    for token in sent:
        if token.i not in removed or token.dep_ != "pobj":
            continue
        following = next_member_hung_elsewhere(token, removed)
        if following is None:
            continue
        removed.add(max(subtree(token)) + 1)
        if token.head.i in removed:
            removed.update(subtree(following))


def _remove_counts_of_what_went(sent: Any, removed: set[int]) -> None:
    """ "[1st XI footballer] for four": a bare count leaves its noun to the words before it; when those
    went, "He was educated for four." counts nothing."""
    for prep in sent:
        objects = [c for c in prep.children if c.dep_ == "pobj"]
        if prep.i in removed or prep.dep_ != "prep" or len(objects) != 1 or prep.i - 1 not in removed:
            continue
        count = objects[0]
        if count.pos_ == "NUM" and not list(count.children) and count.ent_type_ != "DATE":
            removed.update(subtree(prep))


def _remove_maiden_names_without_nee(sent: Any, removed: set[int]) -> None:
    """ "Lillian Metge [née] Grubb" would make the maiden name part of her married name: the name "née"
    introduced goes with it."""
    doc = sent.doc
    for nee in sent:
        if nee.i not in removed or nee.lower_ not in {"née", "nee"}:
            continue
        following = nee.i + 1
        while following < sent.end and doc[following].pos_ == "PROPN":
            removed.add(following)
            following += 1


def _a_maiden_name(name: Any) -> bool:
    """The name's words follow "née": the bracket after it is its person's ("Metge née Grubb (1871–1954)")."""
    start = name.i
    while start > name.sent.start and name.doc[start - 1].pos_ == "PROPN":
        start -= 1
    return start > name.sent.start and name.doc[start - 1].lower_ in {"née", "nee"}


def _remove_objects_that_lost_what_said_which(sent: Any, removed: set[int]) -> None:
    """ "he started a [law] partnership [with S. Laing Williams]": an object that lost two or more of the
    words that said which one ("law", "with ...") and kept none says nothing ("started a partnership")."""
    for noun in sent:
        if noun.i in removed or noun.pos_ != "NOUN" or noun.dep_ not in {"dobj", "attr"}:
            continue
        which = [c for c in noun.children if c.dep_ in {"compound", "prep", "nmod", "acl", "relcl"}]
        kind_went = any(c.dep_ in {"compound", "nmod"} for c in which)  # "law", not only "in Chicago"
        if len(which) >= 2 and kind_went and all(c.i in removed for c in which):
            removed.update(subtree(noun))


def _remove_works_that_lost_their_title(sent: Any, removed: set[int], keep: set[int]) -> None:
    """ "wrote a noted study[, The Constitution of Man (1828)]": a work someone made whose every word that
    said which one went (its title, its "of" or "about" phrase) is no fact ("wrote a noted study")."""
    for noun in sent:
        if noun.i in removed or noun.lemma_.lower() not in WORK_NOUNS or noun.dep_ not in {"dobj", "attr"}:
            continue
        if not any(c.dep_ == "det" and c.lower_ in {"a", "an"} for c in noun.children):
            continue
        if noun.i in keep or any(c.dep_ == "conj" and c.i not in removed for c in noun.children):
            continue  # a public genre ("a documentary"), or a list that keeps a member ("and two plays")
        which = [c for c in noun.children if c.dep_ in {"appos", "prep", "acl", "relcl", "nmod"}]
        # "a novel[, The Silent Lady,] based on his experiences": the parser may hang the participle that
        # still says which on the verb
        described = any(
            c.i > noun.i and c.i not in removed and c.tag_ in {"VBN", "VBG"} for c in noun.head.children
        )
        if which and all(c.i in removed for c in which) and not described:
            removed.update(
                {noun.i} | {i for c in noun.children if c.dep_ in {"det", "amod"} for i in subtree(c)}
            )


def _remove_nouns_that_lost_their_kind(sent: Any, removed: set[int]) -> None:
    """ "an Engineer and a [law] graduate", "an [American] citizen": a graduate in nothing, a citizen of
    nowhere goes, as a list member when it is one."""
    for noun in sent:
        if noun.i in removed or noun.lemma_.lower() not in NEEDS_ITS_KIND:
            continue
        kinds = [c for c in noun.children if c.dep_ in {"amod", "compound"}]
        if kinds and all(c.i in removed for c in kinds) and not has_its_of(noun):
            removed.update(subtree(noun))


def _remove_streets_whose_name_went(sent: Any, removed: set[int]) -> None:
    """ "The title refers to [Törneby 2] street in GUALÖV": the street's own word was part of its name
    ("refers to street" is no reference); "sent to [Alcatraz] prison" keeps its prison."""
    for noun in sent:
        if noun.i in removed or noun.lower_ not in STREET_NOUNS:
            continue
        name = [c for c in noun.children if c.i < noun.i and c.dep_ in {"compound", "nmod", "nummod", "amod"}]
        if name and all(c.i in removed for c in name) and any(c.pos_ in {"PROPN", "NUM"} for c in name):
            removed.update(subtree(noun))


def _remove_coordinators_without_a_next_member(sent: Any, removed: set[int]) -> None:
    """ "an Engineer [and] [a law graduate] as well": the coordinator whose every member after it went."""
    for cc in sent:
        if cc.i in removed or cc.dep_ != "cc" or cc.head.i in removed:
            continue
        after = [c for c in cc.head.children if c.dep_ == "conj" and c.i > cc.i]
        if not after or not all(c.i in removed for c in after):
            continue
        members = range(cc.i + 1, max(subtree(after[-1])) + 1)  # "Mexican and Scottish/[American]": one stays
        if all(i in removed or sent.doc[i].is_punct for i in members):
            removed.add(cc.i)


def _remove_objects_that_lost_their_phrase(sent: Any, removed: set[int]) -> None:
    """ "He held a seat [in the House of Commons]": the parser hangs the phrase on the verb; the object
    that needs it (`NEEDS_ITS_PHRASE`) goes when the phrase right after it went."""
    doc = sent.doc
    for noun in sent:
        if noun.i in removed or noun.dep_ != "dobj" or not needs_its_phrase(noun):
            continue
        after = max(subtree(noun)) + 1
        if any(c.dep_ == "prep" and c.i not in removed for c in noun.children) or after >= sent.end:
            continue
        if doc[after].dep_ == "prep" and doc[after].i in removed:
            removed.update(subtree(noun))


def _remove_places_of_removed_names(sent: Any, removed: set[int], keep: set[int]) -> None:
    """ "an industrial fellow at [Wolfson College], Oxford": the place after a name said where that name is;
    without it, "fellow, Oxford" ("educated at Sydney") reads as a cut name."""
    doc = sent.doc
    for ent in sent.ents:
        comma = ent.end
        if (
            ent.label_ not in {"ORG", "FAC"}
            or not all(t.i in removed for t in ent)
            or comma + 1 >= sent.end
            or doc[comma].text != ","
        ):
            continue
        place = _place_after(sent, comma + 1)
        if place and not place & keep and not place & removed:
            removed.update(place | {comma})


def _place_after(sent: Any, start: int) -> set[int]:
    """The place name that starts at `start` ("Oxford", "Sydney, Australia"), not a list's next member."""
    doc = sent.doc
    place = next((e for e in sent.ents if e.start == start), None)
    if place is None or not all(t.pos_ == "PROPN" for t in place):
        return set()
    if place.label_ not in {"GPE", "LOC"} and not (place.root.dep_ == "appos" and len(place) == 1):
        return set()
    if any(t.i not in range(place.start, place.end) and not t.is_punct for t in place.root.subtree):
        return set()  # "Oxford in the very late 1970s": what hangs on it would go with it
    if _a_name_follows(doc, place.end, sent.end):
        return set()  # "IBM, Microsoft and Google": a list
    return set(range(place.start, place.end))


def _a_name_follows(doc: Any, index: int, end: int) -> bool:
    """What follows `index`, past commas and a coordinator, is another name (a list goes on), not a verb
    ("Riverview College, Sydney, and returned to Queensland")."""
    skipped = index
    while skipped < end and (doc[skipped].text == "," or doc[skipped].dep_ == "cc"):
        skipped += 1
    return index < skipped < end and doc[skipped].pos_ in _STARTS_A_NAME


_STARTS_A_NAME = {"PROPN", "NOUN", "DET", "ADJ"}


def _remove_members_that_lost_their_date(sent: Any, removed: set[int]) -> None:
    """ "the ranks of Premier Lieutenant [in 1894] and Captain in 1903": without its own date the first
    member would take the second's ("Premier Lieutenant and Captain in 1903"), so the second's goes too
    (a public date lost, not a false one said)."""
    doc = sent.doc
    for run in _removed_runs(sent, removed):
        first, last = run[0], run[-1]
        cc = last if doc[last].lower_ in {"and", "or"} else last + 1
        if cc >= sent.end or doc[cc].lower_ not in {"and", "or"} or not _date_after(sent, first):
            continue
        second = next((i for i in range(cc + 2, sent.end) if doc[i].lower_ == doc[first].lower_), None)
        if (
            second is not None
            and second not in removed
            and _date_after(sent, second)
            and not any(doc[i].pos_ in VERB_POS for i in range(cc + 1, second))  # "and left the club in 1994"
        ):
            removed.update(range(second, second + 1 + _date_after(sent, second)))
            removed.discard(cc)  # "for Bathurst and for Orange": the members both stay


def _date_after(sent: Any, preposition: int) -> int:
    """How many date words follow the preposition at `preposition` ("in [March 1894]"): 0 when it is no
    preposition or no date follows (a clause hung on the year, "when he was riding ...", is no date)."""
    doc = sent.doc
    if doc[preposition].pos_ != "ADP":
        return 0
    end = preposition + 1
    while end < sent.end and (doc[end].ent_type_ == "DATE" or doc[end].like_num):
        end += 1
    return end - preposition - 1


def _bracket_pairs(sent: Any) -> list[tuple[int, int]]:
    pairs, opened = [], []
    for token in sent:
        if token.text == "(":
            opened.append(token.i)
        elif token.text == ")" and opened:
            pairs.append((opened.pop(), token.i))
    return pairs


QUOTE_MARKS = {'"', "“", "”", "„"}


def closes_a_quotation(text: str, at: int, opened_with: str = "") -> bool:
    """Whether the quotation mark at `at` closes one: a right mark ("“" after a German "„"), or a straight
    one glued to the word or mark before it (not after a bracket, a colon or a dash)."""
    mark = text[at]
    if mark in {"”", "“"}:
        return mark == "”" or opened_with == "„"
    if mark != '"':
        return False
    return at > 0 and not text[at - 1].isspace() and text[at - 1] not in "([{:\u2014\u2013-"


def _whole_quotations(sent: Any, removed: set[int]) -> None:
    """A quotation is kept word for word or not at all: "one of the foremost citizens [Chicago] has ever
    had" would misquote, and a lone quote mark left by a removed title opens a quotation that never ends."""
    for start, end in _quotations(sent):
        inside = range(start + 1, end)
        if any(i in removed for i in inside):
            removed.update(range(start, end + 1))


def _quotations(sent: Any) -> list[tuple[int, int]]:
    """The (opening, closing) mark tokens of each quotation: a mark glued to the word before it closes one,
    so an opening mark the tokenizer left inside a word ('Answer:"Tube Snake Boogie" by ...') shifts no
    pair."""
    pairs, opened = [], None
    for token in sent:
        if token.text not in QUOTE_MARKS:
            continue
        if opened is not None and closes_a_quotation(token.doc.text, token.idx, token.doc[opened].text):
            pairs.append((opened, token.i))
            opened = None
        elif opened is None and not closes_a_quotation(token.doc.text, token.idx):
            opened = token.i
    return pairs


MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
    r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)


DATE_PATTERN = re.compile(
    rf"\b(?:\d{{1,2}}\s+{MONTH}(?:\s+\d{{3,4}})?|{MONTH}\s+\d{{1,2}}(?:,?\s+\d{{3,4}})?|{MONTH}\s+\d{{3,4}}|\d{{3,4}})\b"
)


def _expand_entities(sent: Any, removed: set[int], keep: set[int]) -> None:
    """A date, number or name the removal cut into goes whole (public tails excepted, with their article:
    "a member of [the] Folketing")."""
    doc = sent.doc
    articles = {c.i for i in keep for c in doc[i].children if c.dep_ in {"det", "predet"}}
    for ent in sent.ents:
        # "the Liberal Party cabinet": the entity's "the" is the cabinet's, and stays with it
        outside = {t.i for t in ent if t.dep_ in {"det", "predet"} and not ent.start <= t.head.i < ent.end}
        for inside in _range_parts(ent):
            _expand_entity(ent.label_, [i for i in inside if i not in keep | articles | outside], removed)
    for unit in _date_units(sent):
        _expand_entity("DATE", sorted(unit), removed)
    _expand_named_sports(sent, removed)


# a demonym that names a sport, not a nationality: "American football player" without "American" is
# a player of another game; the sport's name goes whole
NAMED_SPORTS = {
    ("american", "football"),
    ("canadian", "football"),
    ("australian", "rules"),
    ("gaelic", "football"),
}


def _expand_named_sports(sent: Any, removed: set[int]) -> None:
    doc = sent.doc
    for token in sent:
        if token.i not in removed or token.i + 1 >= sent.end:
            continue
        if (token.lower_, doc[token.i + 1].lower_) in NAMED_SPORTS:
            sport = doc[token.i + 1 : min(token.i + 4, sent.end)]
            last = next((t.i for t in sport if t.lower_ == "football"), token.i + 1)
            removed.update(range(token.i + 1, last + 1))


def _range_parts(ent: Any) -> list[list[int]]:
    """A date range ("21 February 1818 – 5 September 1875") is two dates: each is a whole unit."""
    parts: list[list[int]] = [[]]
    for token in ent:
        if token.text in {"–", "—", "-", "to"} and ent.label_ == "DATE":
            parts.append([])
        else:
            parts[-1].append(token.i)
    return [part for part in parts if part]


def _expand_entity(label: str, inside: list[int], removed: set[int]) -> None:
    if inside:
        cut = sum(1 for i in inside if i in removed)
        if not cut or cut == len(inside):
            return
        if label in WHOLE_ENTITY_LABELS | TITLE_LABELS or (label in NAME_LABELS and 2 * cut >= len(inside)):
            removed.update(inside)


def _date_units(sent: Any) -> list[set[int]]:
    units = []
    for match in DATE_PATTERN.finditer(sent.text):
        start, end = match.start() + sent.start_char, match.end() + sent.start_char
        units.append({t.i for t in sent if start <= t.idx < end})
    return units


def _give_back_the_parents_of_the_born(
    sent: Any, removed: set[int], parents: set[tuple[int, frozenset[int]]]
) -> None:
    """The parents `_parents_of_the_born` set aside, back once "born" is kept and every place it had went;
    not when the phrase points back at the place ("a fisherman from the town")."""
    for born, phrase in parents:
        places = {t.i for t in sent if t.dep_ == "pobj" and t.head.head.i == born}
        if born not in removed and places <= removed and not _points_at_a_place(sent, phrase):
            removed -= phrase


def _points_at_a_place(sent: Any, phrase: frozenset[int]) -> bool:
    doc = sent.doc
    return any(doc[i].lemma_.lower() in PLACE_POINTERS and doc[i].pos_ == "NOUN" for i in phrase)


def _parents_of_the_born(sent: Any, removed: set[int], keep: set[int]) -> set[tuple[int, frozenset[int]]]:
    """(born, the parent phrase) for each "the son of ..." the parser hung on a place ("born at [Hamilton,
    South Australia], the son of John Barnes"): given back at the end while "born" is kept and its places
    went, since "was born the son of John Barnes" still reads. A phrase with a private part of its own
    ("Charles Stokes[, a laundryman]") is given back without what that part's own closure takes."""
    found = set()
    for son in sent:
        born = born_of_a_parent_hung_on_its_place(son)
        if born is None:
            continue
        phrase = subtree(son)
        if phrase & removed:
            own, lost = close_deletions(sent, removed & phrase, keep, set_parents_aside=False)
            if lost or son.i in own:
                continue
            phrase -= own
        found.add((born.i, frozenset(phrase)))
    return found


def _remove_orphans(sent: Any, removed: set[int]) -> None:
    dates = _date_units(sent)
    # the other end of a lifespan hangs on the first date in the parse, but is a fact of its own
    intact = {i for unit in dates if not unit & removed for i in unit}
    dated = {i for unit in dates for i in unit}
    for token in sent:
        if (token.i in intact or token.text in {"–", "—"}) and token.head.i in dated:
            continue  # tidy() turns "(– 1875)" into "(died 1875)" and drops "(–)"
        if token.i in removed or token.head.i == token.i or token.head.i not in removed:
            continue
        if _a_maiden_name(token.head) and token.pos_ != "PROPN":
            continue  # "née Grubb (1871–1954)": the parser hangs her dates on her maiden name
        if token.dep_ == "cc" and not _kept_conjunct_before(token, removed):
            removed.add(token.i)  # "won [the Nobel Prize] and a medal": the list's first member went
            continue
        if token.tag_ in {"WP", "WDT"} and token.dep_ in {"nsubj", "nsubjpass", "dobj"}:
            removed.add(token.i)  # "described her as a watchdog who [\"attended ...\"]": its clause went
            continue
        if token.dep_ in {"conj", "cc"} or (
            token.dep_ in {"det", "predet", "amod"} and _shared_with_the_next_member(token, removed)
        ):
            continue  # a list loses its first member; the next takes the article and what the list shared
        if token.text in {"(", ")", "[", "]"} or (token.is_punct and token.i == sent.end - 1):
            continue  # brackets and the full stop go only when emptied (tidy), not with their parse head
        if token.head.dep_ == "conj" and token.i < token.head.head.i:
            continue  # hung on a removed second conjunct but said before the first: shared by both
        if token.dep_ == "mark" and token.head.pos_ == "ADP" and token.i < token.head.i:
            continue  # "as he [from 1960 to 2001] published": the parser hung the clause's "as" on "from"
        if is_a_role_hung_on_an_object(token) and token.head.head.head.i not in removed:
            continue  # "spent a year [at 5Psolutions] as the assistant to ...": the role is the subject's
        if token.dep_ in {"aux", "auxpass"} and _shared_with_a_kept_participle(token, removed):
            continue  # "Harrison was [drafted into the Army and] posted to Germany"
        if _joined_by_slash(token, token.head):
            removed.add(token.i + 1)  # "Scottish/[American] parents": Scottish stays, the slash goes
            continue
        if token.dep_ in ORPHAN_DEPS:
            removed.update(subtree(token))
    for token in sent:  # "worked on both television [and radio]"
        if token.dep_ == "preconj" and token.head.i not in removed and not has_kept_conj(token.head, removed):
            removed.add(token.i)


def _shared_with_the_next_member(modifier: Any, removed: set[int]) -> bool:
    """ "a Moroccan [engineer, politician, and] activist": the article and adjective before a removed first
    member were the list's; an adjective is not when the next member has its own ("an amateur [boxer
    and] professional wrestler")."""
    member = next_kept_conj(modifier.head, removed)
    if modifier.i > modifier.head.i or member is None:
        return False
    return modifier.dep_ != "amod" or not any(c.dep_ == "amod" for c in member.children)


def _shared_with_a_kept_participle(aux: Any, removed: set[int]) -> bool:
    verb = aux.head
    return aux.i < verb.i and any(
        c.dep_ == "conj"
        and c.i not in removed
        and is_participle(c, verb)
        and not any(a.dep_ in {"aux", "auxpass", "nsubj", "nsubjpass"} for a in c.children)
        for c in verb.children
    )


def _joined_by_slash(token: Any, head: Any) -> bool:
    doc = token.doc
    return (
        head.i == token.i + 2
        and doc[token.i + 1].text == "/"
        and not token.whitespace_
        and not doc[token.i + 1].whitespace_
    )


def _removed_under_a_kept_head(sent: Any, removed: set[int], dep: str) -> Iterator[tuple[Any, Any]]:
    """(token, head) for each removed token of relation `dep` whose head is still kept, checked as the
    caller's loop reaches it (the caller may remove heads on the way)."""
    for token in sent:
        if token.i in removed and token.dep_ == dep and token.head.i not in removed:
            yield token, token.head


# nouns that name a person ("singer", "actor", "pianist", "student") rather than a field ("theatre")
PERSON_NOUN = re.compile(r"(?:er|or|ist|ian|[ae]nt|m[ae]n|ess|ive|ary|ee|ar|ic|[eo]t|ef|ain|ate|ite|ard)$")


def _remove_premodifier_conjuncts(sent: Any, removed: set[int]) -> None:
    """ "an American theatre and [silent film actress]": the parser joins "theatre" to "actress", but
    it modifies her as "film" does; without "actress" it would say she was a theatre, so it goes too."""
    for token, head in _removed_under_a_kept_head(sent, removed, "conj"):
        if (
            token.pos_ == "NOUN"
            and head.pos_ == "NOUN"
            and head.dep_ != "conj"  # "waterscapes, landscapes and [rural views]": a list, not a modifier
            and [c.i for c in head.children if c.dep_ == "conj"] == [token.i]
            and head.i < token.i
            and any(c.dep_ in {"compound", "amod"} and c.i < token.i for c in token.children)
            and not PERSON_NOUN.search(head.lower_)
            and all(t.dep_ == "cc" or t.i in removed for t in sent.doc[head.i + 1 : token.i])
        ):
            removed.add(head.i)
            removed.update(c.i for c in head.children if c.dep_ == "cc")


# generic heads of names: without the word that told which one they are, they name nothing
GENERIC_NAME_HEADS = {
    "stable", "stables", "hall", "college", "school", "university", "academy", "institute", "company",
    "club", "house", "street", "road", "avenue", "square", "park", "church", "cathedral", "hospital",
    "museum", "theatre", "theater", "bridge", "station", "farm", "river", "lake", "island", "county",
    "district", "party", "foundation", "prize", "award", "trophy", "cup", "stakes", "handicap", "records",
    "press", "studios", "orchestra", "band", "festival", "gallery", "library", "stadium", "arena",
}  # fmt: skip


def _remove_generic_name_heads(sent: Any, removed: set[int]) -> None:
    """ "for the prominent [Brookmeade] Stable": a name's generic head goes with the word that made it
    a name (the tagger missed the name, so the whole-name rule did not see it)."""
    for _token, head in _removed_under_a_kept_head(sent, removed, "compound"):
        if head.pos_ == "PROPN" and head.text[:1].isupper() and head.lower_ in GENERIC_NAME_HEADS:
            removed.add(head.i)
            removed.update(c.i for c in head.children if c.dep_ == "compound")


def _remove_nouns_named_by_close_apposition(sent: Any, removed: set[int]) -> None:
    """ "the group [Forma 1] was founded in 1949": "the group" said which group by its name; without it, it
    points at nothing, so it goes with the name. An object says "a" instead (`pointers.sayable_with_a`:
    "he founded a group alongside ...")."""
    for token, head in _removed_under_a_kept_head(sent, removed, "appos"):
        if named_by_a_close_apposition(token, head) and not sayable_with_a(head, removed):
            removed.add(head.i)


COMPANY_WORDS = {"co.", "co", "company", "sons", "brothers", "bros.", "partners", "associates"}


def _expand_company_names(sent: Any, removed: set[int]) -> None:
    """ "Corser and [Co. Ltd.]": the name before "and Co." is part of the firm's name; left alone it
    would name another thing ("his business, Corser")."""
    doc = sent.doc
    for token in sent:
        if token.i not in removed or token.lower_ not in COMPANY_WORDS or token.i < sent.start + 2:
            continue
        joiner, name = doc[token.i - 1], doc[token.i - 2]
        if joiner.lower_ in {"and", "&"} and joiner.i not in removed and name.pos_ == "PROPN":
            removed.update({joiner.i, name.i} | {c.i for c in name.children if c.dep_ == "compound"})


def _kept_conjunct_before(cc: Any, removed: set[int]) -> bool:
    head = cc.head
    members = [head] + [c for c in head.children if c.dep_ == "conj"]
    return any(m.i < cc.i and m.i not in removed for m in members)


def _remove_dangling_hyphens(sent: Any, removed: set[int]) -> None:
    """'London-born' without 'London' loses the whole hyphenated word."""
    doc = sent.doc
    for token in sent:
        if token.text not in {"-", "–"} or token.whitespace_ or token.i in removed:
            continue
        before = token.i > 0 and doc[token.i - 1].i in removed and not doc[token.i - 1].whitespace_
        if before:
            word = token.i
            while word < sent.end and not doc[word].whitespace_ and word + 1 < sent.end:
                removed.add(word)
                word += 1
            removed.add(word)
