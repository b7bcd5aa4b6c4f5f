"""Lists and clauses that lost a member: what joined or followed the removed one goes with it, so what is
left neither reads as a list of another kind nor takes the removed member's words. `closure.close_deletions`
runs these with its other rules until nothing changes."""

from __future__ import annotations

from typing import Any

from core.eraser4rag.erasers.grammar import list_members, subtree

# subordinators of a clause that says when something happened: the clause is about the verb it follows
TIME_SUBORDINATORS = {"after", "before", "when", "until", "since", "once", "while"}
CONDITIONS = {"if", "unless", "whether"}
# a phrase that says when is said of every member of a list ("a composer [and conductor] until his death")
TIME_PREPOSITIONS = {"until", "till", "throughout", "during", "since", "from", "after", "before"}


def remove_names_listed_after_a_plural(sent: Any, removed: set[int]) -> None:
    """ "the son of German Jews, Paul [and Edith Wallach]": the names after a comma say who the plural noun
    is; one name left of them reads as one more member ("German Jews and Paul"), so every name goes."""
    doc = sent.doc
    for noun in sent:
        if (
            noun.i in removed
            or noun.tag_ not in {"NNS", "NNPS"}
            or any(c.dep_ == "cc" for c in noun.children)
        ):
            continue
        first = next((c for c in noun.children if c.dep_ == "conj" and c.i > noun.i), None)
        if first is None or first.left_edge.i < 1 or doc[first.left_edge.i - 1].text != ",":
            continue
        names = list_members(first)
        if not all(m.ent_type_ == "PERSON" for m in names):
            continue
        if any(m.i in removed for m in names) and not all(m.i in removed for m in names):
            removed.update(subtree(first) | {first.left_edge.i - 1})


def remove_coordinators_before_a_like_member(sent: Any, removed: set[int]) -> None:
    """ "had his own office [from 1963 to 1976], and from 2007 to 2023": the parser hangs the second "from"
    and its "and" on the verb; once the first phrase went, the coordinator (and its comma) has nothing
    before it to join."""
    doc = sent.doc
    for phrase in sent:
        if phrase.i not in removed or phrase.dep_ != "prep" or not subtree(phrase) <= removed:
            continue
        after = max(subtree(phrase)) + 1
        comma = after if after < sent.end and doc[after].text == "," else None
        cc = after + 1 if comma is not None else after
        if cc + 1 >= sent.end or doc[cc].i in removed or doc[cc].dep_ != "cc":
            continue
        member = doc[cc + 1]
        if member.dep_ == "conj" and member.pos_ == "ADP" and member.lower_ == phrase.lower_:
            removed.update({cc} | ({comma} if comma is not None else set()))


def remove_time_clauses_of_a_removed_relative_clause(sent: Any, removed: set[int]) -> None:
    """ "the son of German Jews[, who escaped Nazi Germany in 1941], after the government took possession of
    their family's factory": the parser hangs the "after" clause on the main verb, but it said when the
    removed clause happened; left, it would date the main clause instead."""
    doc = sent.doc
    for clause in sent:
        if clause.i in removed or clause.dep_ != "advcl":
            continue
        marks = [c for c in clause.children if c.dep_ == "mark" and c.lower_ in TIME_SUBORDINATORS]
        start = clause.left_edge.i
        if not marks or marks[0].i != start or start < sent.start + 2 or doc[start - 1].text != ",":
            continue
        before = doc[start - 2]
        relative = next((t for t in [before, *before.ancestors] if t.dep_ == "relcl"), None)
        if relative is None or not subtree(relative) <= removed or clause.head.i > relative.i:
            continue
        removed.update(subtree(clause) | {start - 1})


def remove_subordinators_of_removed_clauses(sent: Any, removed: set[int]) -> None:
    """ "[Although American by birth,] Wall spent many years ...": the parser hangs "Although" on the main
    verb; left before it, the sentence would read as a subordinate clause with no main one."""
    doc = sent.doc
    for mark in sent:
        if mark.i in removed or mark.dep_ != "mark" or mark.head.dep_ != "ROOT" or mark.i + 1 >= sent.end:
            continue
        if mark.lower_ in CONDITIONS or mark.i > mark.head.i:
            continue  # "If [in London], he walked": without "If" a condition would become a claim
        comma = next((t.i for t in doc[mark.i + 1 : mark.head.i] if t.text == ","), None)
        if comma is not None and all(i in removed for i in range(mark.i + 1, comma)):
            removed.add(mark.i)


def remove_participles_of_a_removed_phrase(sent: Any, removed: set[int]) -> None:
    """ "Merchant has performed [as a stand-up comedian, which led to ... the HBO series "Hello Ladies"
    (2013–2014)], based on his stand-up material": the parser hangs "based on" on the verb, but it said
    what the removed series was based on; left, the performing would be."""
    doc = sent.doc
    for participle in sent:
        modifier = participle.dep_ in {"prep", "acl"}  # an advcl is most often the subject's
        if participle.i in removed or participle.tag_ != "VBN" or not modifier:
            continue
        start = participle.left_edge.i
        if start != participle.i or start < sent.start + 2 or doc[start - 1].text != ",":
            continue
        last = doc[start - 2]
        verb = participle.head
        if last.i not in removed or verb.pos_ not in {"VERB", "AUX"} or verb.i > last.i or verb.i in removed:
            continue
        first = last.i
        while first - 1 > verb.i and first - 1 in removed:
            first -= 1
        if any(doc[i].pos_ == "NOUN" for i in range(first, last.i + 1)):
            removed.update(subtree(participle) | {start - 1})


def remove_appositions_of_a_removed_object(sent: Any, removed: set[int]) -> None:
    """ "a noted practitioner [of the Plein-Air Painting style], an important movement in ...": the parser
    hangs the apposition on "practitioner", but it said what the removed style was; left, he would be a
    movement."""
    doc = sent.doc
    for apposition in sent:
        if apposition.i in removed or apposition.dep_ != "appos" or apposition.left_edge.i < sent.start + 2:
            continue
        start = apposition.left_edge.i
        last = doc[start - 2]
        noun = apposition.head
        if doc[start - 1].text != "," or last.i not in removed or noun.i > last.i or noun.i in removed:
            continue
        phrase = next((c for c in noun.children if c.dep_ == "prep" and noun.i < c.i < start), None)
        if phrase is not None and subtree(phrase) <= removed and max(subtree(phrase)) == last.i:
            removed.update(subtree(apposition) | {start - 1})


def remove_modifiers_of_a_removed_last_member(sent: Any, removed: set[int], keep: set[int]) -> None:
    """ "an English musicologist, composer, and [professor of music] successively at the University of
    Durham": the parser hangs "successively at ..." on "was", but it said where the removed last member
    held its post; left, it would follow "a musicologist" as a post of its own."""
    doc = sent.doc
    for member in sent:
        if member.i not in removed or member.dep_ != "conj" or not subtree(member) <= removed:
            continue
        if any(c.dep_ == "conj" for c in member.children):
            continue  # not the last member
        first = member
        while first.dep_ == "conj":
            first = first.head
        verb = first.head
        if first.dep_ != "attr" or first.i in removed or verb.i in removed:
            continue  # the list went whole, or its verb
        hung = _modifiers_right_after(doc, max(subtree(member)) + 1, verb, sent.end)
        if hung and not hung & keep:
            removed.update(hung)


def _modifiers_right_after(doc: Any, start: int, verb: Any, end: int) -> set[int]:
    """The verb's adverbs and prepositional phrases that follow `start` with nothing between them, up to a
    time ("an academic [and clergyman] in the sixteenth century": when is said of every member)."""
    hung: set[int] = set()
    at = start
    while at < end and doc[at].head.i == verb.i and doc[at].dep_ in {"advmod", "prep"}:
        phrase = subtree(doc[at])
        if doc[at].lower_ in TIME_PREPOSITIONS or any(doc[i].ent_type_ == "DATE" for i in phrase):
            break
        hung |= phrase
        at = max(phrase) + 1
    return hung


def remove_relative_clauses_of_a_removed_name(sent: Any, removed: set[int]) -> None:
    """ "he had as a classmate [John Wilson (alias 'Christopher North')], who states that he was
    distinguished": the parser may hang the "who" clause on an earlier noun ("university"), but it said what
    the removed person did; left, it would follow "a classmate," with no one to be "who"."""
    doc = sent.doc
    for clause in sent:
        first = clause.left_edge
        if clause.i in removed or clause.dep_ != "relcl" or first.lower_ not in {"who", "whom", "whose"}:
            continue
        comma = first.i - 1
        if comma <= sent.start or doc[comma].text != ",":
            continue
        last = comma - 1
        while last > sent.start and doc[last].is_punct and last in removed:  # the ")" of a removed aside
            last -= 1
        if last in removed and _in_a_removed_person(doc, last, removed):
            removed.update(subtree(clause) | {comma})


def _in_a_removed_person(doc: Any, index: int, removed: set[int]) -> bool:
    """The token at `index` ends a run of removed words that holds a person's name, no list member ("Paul
    [and Edith Wallach], who escaped": the clause is about both) and no aside of a kept name."""
    start = index
    while start > 0 and start - 1 in removed:
        start -= 1
    run = [doc[i] for i in range(start, index + 1)]
    if start > 0 and doc[start - 1].ent_type_ == "PERSON":
        return False  # "John Wilson [(alias 'Christopher North')], who": the kept name is the "who"
    return any(t.ent_type_ == "PERSON" for t in run) and not any(t.dep_ in {"cc", "conj"} for t in run)
