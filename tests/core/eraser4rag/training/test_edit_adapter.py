"""The edit-script adapter's training data choice: copying examples cut down to a small share."""

from __future__ import annotations

from core.eraser4rag.annotation.tasks import AnnotationTask
from core.eraser4rag.training.edit_adapter import is_copy, with_copy_share


def _example(number: int, target: str) -> tuple[AnnotationTask, str]:
    task = AnnotationTask(f"d{number}", f"Window {number} text.", (), (), (), ())
    return task, target


def test_copying_examples_are_cut_to_the_share_and_the_choice_is_fixed() -> None:
    edits = [_example(n, f"DEL Window {n}\n") for n in range(95)]
    copies = [_example(100 + n, "KEEP\n") for n in range(40)]
    kept, dropped = with_copy_share(edits + copies, 0.05)
    kept_copies = [e for e in kept if is_copy(e)]
    assert len(kept_copies) == 5 and dropped == 35  # 5 of 100 kept examples copy
    assert [e for e in kept if not is_copy(e)] == edits  # every edit example stays
    assert with_copy_share(edits + copies, 0.05) == (kept, dropped)  # seeded
    everything, none_dropped = with_copy_share(edits + copies, 1.0)
    assert len(everything) == 135 and none_dropped == 0
    assert with_copy_share(copies, 0.05) == ([], 40)  # no edits: nothing to balance against
