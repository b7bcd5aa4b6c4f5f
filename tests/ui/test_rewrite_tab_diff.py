"""The Rewrite tab marks a rewrite the fluency checker flags, in its diff and above it."""

from core.eraser4rag.erasers.fluency import broken_in_rewrite
from core.model_loading import get_spacy
from ui.render import layered_text
from ui.rewrite_tab import broken_layers, broken_notice

FEILDEN = (
    "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English Conservative Party politician."
)


def test_a_broken_rewrite_is_marked_where_it_breaks_and_named_above_the_diff():
    rewrite = "Henry Master Feilden (21 February 1818 – 5 September 1875) was."
    broken = broken_in_rewrite(FEILDEN, rewrite, get_spacy())
    html = layered_text(rewrite, broken_layers(broken))
    assert '<span class="rps-broken" title="reads broken: copula without complement">' in html
    notice = broken_notice(broken)
    assert "does not read as written English" in notice and "copula without complement" in notice


def test_a_fluent_rewrite_gets_no_mark_and_kinds_are_escaped():
    fluent = "Henry Master Feilden (died 5 September 1875) was an English politician."
    assert broken_notice(broken_in_rewrite(FEILDEN, fluent, get_spacy())) == ""
    assert "<b>" not in broken_notice(broken_in_rewrite("<b>x</b> was a poet.", "<b>x</b> was.", get_spacy()))
