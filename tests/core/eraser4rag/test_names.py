"""Name variants of one person (`core.eraser4rag.names`): one node in the graph, the split, the filters
and r_connect."""

from core.eraser4rag.filters import define_privacy
from core.eraser4rag.graph import components_of, ends_of
from core.eraser4rag.metrics import r_connect
from core.eraser4rag.names import is_variant, name_aliases
from core.eraser4rag.split import connected_random_private_keys
from core.types import Triple, triple_key

MASTER = triple_key("Henry Master Feilden", "date_of_birth", "21 February 1818")
SHORT = triple_key("Henry Feilden", "member_of_political_party", "Conservative Party")
SURNAME = triple_key("Feilden", "place_of_birth", "Blackburn")
WEMYSS = triple_key("Henry Wemyss Feilden", "occupation", "explorer")


def _triple(key, doc_id):
    return Triple(key[0], key[1], key[2], doc_id)


def test_is_variant_middle_names_and_initials():
    assert is_variant(["henry", "feilden"], ["henry", "master", "feilden"])
    assert is_variant(["h", "m", "feilden"], ["henry", "master", "feilden"])
    assert not is_variant(["bernard", "feilden"], ["henry", "master", "feilden"])
    assert not is_variant(["henry", "wemyss", "feilden"], ["henry", "master", "feilden"])


def test_full_name_short_name_and_surname_are_one_node():
    triples = [_triple(MASTER, "a"), _triple(SHORT, "b"), _triple(SURNAME, "a")]
    aliases = name_aliases(triples)
    assert aliases == {"henry feilden": "henry master feilden", "feilden": "henry master feilden"}
    assert name_aliases([MASTER, SHORT, SURNAME]) == {"henry feilden": "henry master feilden"}  # keys only


def test_a_variant_of_two_people_joins_the_one_in_its_passage_or_neither():
    shared = [_triple(MASTER, "a"), _triple(SHORT, "a"), _triple(WEMYSS, "c")]
    assert name_aliases(shared)["henry feilden"] == "henry master feilden"
    apart = [_triple(MASTER, "a"), _triple(SHORT, "b"), _triple(WEMYSS, "c")]
    assert "henry feilden" not in name_aliases(apart)


def test_places_and_bare_words_are_no_names():
    keys = [
        triple_key("University College London", "located_in", "London"),
        triple_key("University London", "located_in", "England"),
        triple_key("Henry Master Feilden", "educated_at", "University College London"),
    ]
    assert name_aliases(keys) == {}


def test_r_connect_components_split_and_filters_read_nodes_through_aliases():
    aliases = {"henry feilden": "henry master feilden"}
    private = triple_key("Henry Master Feilden", "member_of_political_party", "Conservative Party")
    assert r_connect([private], [SHORT]) == 0.0
    assert r_connect([private], [SHORT], aliases) == 1.0
    assert components_of([SHORT], aliases).connected(*ends_of(private, aliases))
    # filter (a): a public fact joining the same two entities under a name variant leaves the public set
    other = triple_key("Henry Feilden", "member_of", "Conservative Party")
    keys = {private, other}
    assert other in define_privacy(keys, {private}).public
    definition = define_privacy(keys, {private}, aliases=aliases)
    assert other in definition.excluded and definition.alias_map == aliases
    # the connected split grows from one variant's fact to the other's
    keys = {MASTER, SHORT}
    assert connected_random_private_keys(keys, 1.0, 0, aliases=aliases) == keys


def test_verify_cuts_a_connection_that_runs_through_a_name_variant():
    from core.eraser4rag.erasers.verify import minimum_cut_keys

    aliases = {"henry feilden": "henry master feilden"}
    private = triple_key("Henry Master Feilden", "member_of_political_party", "Conservative Party")
    stated = triple_key("Henry Feilden", "member_of_political_party", "Conservative Party")
    definition = define_privacy({private, stated}, {private}, aliases=aliases)
    head, tail = ends_of(private, aliases)
    assert minimum_cut_keys({stated, MASTER}, head, tail, definition, aliases) == {stated}


def test_a_surname_shared_by_two_others_names_none_of_them():
    from core.eraser4rag.names import surname_is_shared

    page = "Kenneth Hutchings, cricketer ; Tim Hutchings, runner ; Mr Hutchings ; The Hutchings family"
    assert surname_is_shared(page, "richard hutchings")
    assert not surname_is_shared(page, "kenneth hutchings")  # for Kenneth, Tim is the one other
    assert not surname_is_shared("Tim Hutchings met Mr Hutchings.", "richard hutchings")  # one other only
    family = "Krarup was born to Vilhelm Krarup and Bodil Marie Krarup."
    assert surname_is_shared(family, "søren krarup", "Krarup (surname)")
    assert not surname_is_shared(family, "søren krarup", "Søren Krarup (politician)")
