"""The Rewrite tab's plot: r_pub against r_pri, one labelled point per method."""

from __future__ import annotations

from typing import Any


def scatter_figure(points: list[dict[str, Any]]) -> Any:
    """The scatter of `points` (`scatter_points`). Methods with the same scores share one dot whose
    label names all of them ("graph-guided = mask"), so no method hides behind another's dot."""
    # matplotlib (~1.3 s) loads only when a chart is drawn
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 3.6), layout="constrained")
    axes = figure.add_subplot()
    for index, group in enumerate(coincident_groups(points)):
        first = group[0]
        axes.scatter(first["r_pri"], first["r_pub"], s=60 + 40 * (len(group) - 1))
        names = " = ".join(point["method"] for point in group)
        label = names + (" (same scores)" if len(group) > 1 else "")
        # labels stacked downwards so methods with nearby figures stay readable
        axes.annotate(
            label,
            (first["r_pri"], first["r_pub"]),
            textcoords="offset points",
            xytext=(8, -4 - 12 * index),
            fontsize=9,
            usetex=False,
            parse_math=False,
        )
    axes.set(
        xlim=(-0.02, 1.02),
        ylim=(-0.02, 1.05),
        xlabel="r_pri (lower is safer)",
        ylabel="r_pub (higher keeps more)",
    )
    axes.grid(alpha=0.3)
    axes.set_title("r_pub against r_pri, one point per method (best: top left)", fontsize=10)
    if not points:
        axes.text(0.5, 0.5, "no metrics yet", ha="center", va="center", color="#666")
    return figure


def coincident_groups(points: list[dict[str, Any]], digits: int = 3) -> list[list[dict[str, Any]]]:
    """`points` grouped by their scores as the plot shows them (rounded to `digits`), in order."""
    groups: dict[tuple[float, float], list[dict[str, Any]]] = {}
    for point in points:
        place = (round(point["r_pri"], digits), round(point["r_pub"], digits))
        groups.setdefault(place, []).append(point)
    return list(groups.values())
