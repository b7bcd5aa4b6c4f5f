"""The Rewrite tab's r_pub/r_pri plot."""

from ui.rewrite_plot import coincident_groups, scatter_figure


def test_methods_with_the_same_scores_share_one_dot_labelled_with_both():
    points = [
        {"method": "graph-guided", "r_pri": 0.0, "r_pub": 0.85},
        {"method": "mask", "r_pri": 0.0, "r_pub": 0.85},
        {"method": "delete", "r_pri": 0.2, "r_pub": 0.5},
    ]
    assert [[p["method"] for p in g] for g in coincident_groups(points)] == [
        ["graph-guided", "mask"],
        ["delete"],
    ]
    figure = scatter_figure(points)
    axes = figure.axes[0]
    labels = [text.get_text() for text in axes.texts]
    assert labels == ["graph-guided = mask (same scores)", "delete"]
    assert len(axes.collections) == 2  # one dot per place: none drawn over another
