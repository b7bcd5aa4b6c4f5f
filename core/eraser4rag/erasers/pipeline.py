"""The erasure pipeline: one retrieval set from its passages to graded rewrites.

Every caller runs the same steps through this module: the studio's Rewrite tab (through
`Workspace.run_erasers` and `core.eraser4rag.rewrites.run_eraser`), the `erase` command
(`core.eraser4rag.erasers.batch`), its Ray runner and the annotation tasks.

1. Load: a retriever record is cleaned as the studio's loader cleans uploads
   (`core.documents.retriever_record`: entities decoded, titles taken out of the text, the
   same ids an upload of the file gives).
2. Extract: `extract_set`, the studio's `extract_corpus` (document titles passed); a passage
   whose extraction fails is reported and left out, the others keep their triples.
3. Privacy: hand marks (the studio) or a `SplitRecipe` (the batch: ratio, seed, method) turned
   into marks by `private_marks`, the one split rule; then `define_privacy` (the filters).
4. Erase: `rewrite_each` streams one rewrite per passage (empty passages carried through); a
   passage the eraser fails on comes back as a `PassageProblem`, and the eraser goes on with
   the passages after it (the batch carries the failed one through unchanged; the studio stops
   there so that running again continues from it).
5. Verify and score: `finish` runs verify-and-repair and the grading; a passage that makes
   either fail is reported and left out of that step, the rest of the set is still done.

`erase_retrieval_set` runs 2-5 for the batch; `Tools` holds the models, built once per process.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from core.eraser4rag.erasers.base import Eraser, EraseRequest, Rewrite
from core.eraser4rag.erasers.evaluation import SetEvaluation, evaluate_rewrites, grading_options
from core.eraser4rag.erasers.graph_guided import ParseCache
from core.eraser4rag.erasers.verify import verify_and_repair
from core.eraser4rag.filters import PrivacyDefinition, define_privacy
from core.eraser4rag.names import name_aliases
from core.eraser4rag.split import connected_random_private_keys, random_private_keys
from core.extract import Extractor, extract_corpus, get_extractor
from core.settings import Settings
from core.types import Corpus, Document, Progress, RetrievalSet, Triple, TripleKey

SPLIT_METHODS = ("connected", "uniform")  # connected: the paper's connected subset (section 3.1.1)
EXTRACT, ERASE, VERIFY, SCORE = "extract", "erase", "verify", "score"
FALLBACK = "fallback"  # the eraser did part of a passage another way than its own (Rewrite.fallbacks)

# verify(request, rewrites) -> (repaired rewrites, their re-extracted triples)
Verify = Callable[[EraseRequest, list[Rewrite]], tuple[list[Rewrite], list[Triple]]]
# evaluate(request, rewrites, re-extracted triples or None) -> the set's figures
Evaluate = Callable[[EraseRequest, list[Rewrite], list[Triple] | None], SetEvaluation]


@dataclass(frozen=True)
class SplitRecipe:
    """A simulated privacy definition: `ratio` of the set's non-query triples, drawn with `seed`."""

    ratio: float
    seed: int
    method: str = "connected"

    def __post_init__(self) -> None:
        if self.method not in SPLIT_METHODS:
            raise ValueError(
                f"unknown split method {self.method!r}: choose one of {', '.join(SPLIT_METHODS)}"
            )


@dataclass(frozen=True)
class PassageProblem:
    """One passage (or the question) that a step could not handle; the run went on without it."""

    doc_id: str
    stage: str  # extract | erase | fallback | verify | score
    reason: str
    error: BaseException | None = field(default=None, compare=False, repr=False)  # not serialised

    def describe(self, documents: Sequence[Document] = ()) -> str:
        title = next((d.title for d in documents if d.id == self.doc_id and d.title), "")
        name = f"{title!r} [{self.doc_id}]" if title else f"[{self.doc_id}]"
        return f"{self.stage} failed for {name}: {self.reason}"


def private_marks(
    keys: Collection[TripleKey],
    query_keys: Collection[TripleKey],
    recipe: SplitRecipe,
    aliases: Mapping[str, str] | None = None,
) -> set[TripleKey]:
    """The marks a recipe draws from a set's keys (query triples are never private); a connected
    split grows through name variants as one node (`core.eraser4rag.names`)."""
    if recipe.method == "connected":
        return set(connected_random_private_keys(keys, recipe.ratio, recipe.seed, query_keys, aliases))
    return set(random_private_keys(keys, recipe.ratio, recipe.seed, exclude=query_keys))


def reason_of(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


# ---------------------------------------------------------------------------------- models


@dataclass(frozen=True)
class Tools:
    """The defining extractor, the grading extractor and the parse cache of verify-and-repair."""

    extractor: Extractor
    evaluator: Extractor
    parse: ParseCache = field(repr=False)
    grading: dict[str, Any] = field(default_factory=dict, repr=False)  # second extractor, LM fluency

    def verify_with(self, eraser: Eraser | None = None) -> Verify:
        """Verify-and-repair with the defining extractor, sharing the eraser's parses when it has them;
        re-extraction reads each rewrite with its document's title, as the original was read."""
        parse = getattr(eraser, "parse", None) or self.parse
        return lambda request, rewrites: verify_and_repair(
            request, rewrites, self.extractor, parse, titles={d.id: d.title for d in request.documents}
        )

    def evaluate(
        self, request: EraseRequest, rewrites: list[Rewrite], triples: list[Triple] | None
    ) -> SetEvaluation:
        """Grades with the evaluating extractor; verify's re-extraction is reused only when it
        came from that same extractor."""
        reuse = triples if self.evaluator is self.extractor else None
        return evaluate_rewrites(request, rewrites, self.evaluator, reuse, **self.grading)


def eval_extractor_name(settings: Settings, eval_extractor: str = "") -> str:
    return eval_extractor or settings.eval_extractor or settings.extractor


@lru_cache(maxsize=4)
def tools_for(settings: Settings, eval_extractor: str = "") -> Tools:
    """Built once per process and settings (also inside each Ray worker)."""
    extractor = get_extractor(settings.extractor, settings)
    name = eval_extractor_name(settings, eval_extractor)
    evaluator = extractor if name == settings.extractor else get_extractor(name, settings)
    return Tools(extractor, evaluator, ParseCache(settings.spacy_model), grading_options(settings))


# ------------------------------------------------------------------------------- extraction


def extract_set(
    retrieval_set: RetrievalSet, extractor: Extractor, progress: Progress | None = None
) -> tuple[list[Triple], list[PassageProblem]]:
    """The triples of the set's passages and question, extracted as the studio extracts them.

    When the whole set fails, each source is extracted on its own: the failing ones are reported
    (stage "extract") and the others keep their triples."""
    corpus = Corpus(documents=list(retrieval_set.documents), queries=[retrieval_set.query])
    try:
        return extract_corpus(corpus, extractor, progress), []
    except Exception:  # find the passage at fault below
        pass
    triples: list[Triple] = []
    problems: list[PassageProblem] = []
    for document in corpus.documents:
        if document.text.strip():
            _extract_one(Corpus(documents=[document]), document.id, extractor, triples, problems)
    query = retrieval_set.query
    _extract_one(Corpus(queries=[query]), query.id, extractor, triples, problems)
    return triples, problems


def _extract_one(
    corpus: Corpus,
    source_id: str,
    extractor: Extractor,
    triples: list[Triple],
    problems: list[PassageProblem],
) -> None:
    try:
        triples.extend(extract_corpus(corpus, extractor))
    except Exception as exc:  # one passage never stops the set
        problems.append(PassageProblem(source_id, EXTRACT, reason_of(exc), exc))


Privacy = SplitRecipe | Collection[TripleKey] | PrivacyDefinition


def build_request(
    retrieval_set: RetrievalSet,
    triples: Sequence[Triple],
    privacy: Privacy,
    left_out: Collection[str] = (),
    max_paths: int = 0,
) -> EraseRequest:
    """The eraser's input: the set's passages (minus `left_out`), their triples and the definition:
    given, filtered from hand marks, or drawn by a split recipe over the whole set's graph."""
    query = retrieval_set.query
    if isinstance(privacy, PrivacyDefinition):
        definition = privacy
    else:
        query_keys = frozenset(t.key for t in triples if t.doc_id == query.id)
        keys = frozenset(t.key for t in triples)
        aliases = name_aliases(triples)
        if isinstance(privacy, SplitRecipe):
            marks = private_marks(keys, query_keys, privacy, aliases)
        else:
            marks = set(privacy) & keys
        definition = define_privacy(keys, marks, query_keys, max_paths=max_paths, aliases=aliases)
    documents = tuple(d for d in retrieval_set.documents if d.id not in left_out)
    ids = {d.id for d in documents}
    return EraseRequest(
        documents=documents,
        triples=tuple(t for t in triples if t.doc_id in ids),
        definition=definition,
        query=query,
    )


# ---------------------------------------------------------------------------------- erasing


def unchanged(document: Document, eraser: str) -> Rewrite:
    return Rewrite(document.id, eraser, document.text, document.text, (), (), (), 0.0)


def rewrite_each(eraser: Eraser, request: EraseRequest) -> Iterator[Rewrite | PassageProblem]:
    """One rewrite per passage; a passage the eraser fails on is a `PassageProblem`.

    Empty passages come first, carried through unchanged (never given to an eraser); the others
    follow in the eraser's order (the request's, for every eraser of the studio). After a failure
    the eraser is started again on the passages after the one it failed on; a caller that
    wants to stop there stops iterating.
    """
    todo = [d for d in request.documents if d.text.strip()]
    for document in request.documents:
        if not document.text.strip():
            yield unchanged(document, eraser.name)
    while todo:
        done: set[str] = set()
        try:
            for rewrite in eraser.erase(replace(request, documents=tuple(todo)), None):
                done.add(rewrite.doc_id)
                yield rewrite
            todo = [d for d in todo if d.id not in done]  # an eraser that skips a passage leaves it as it is
            for document in todo:
                yield unchanged(document, eraser.name)
            return
        except Exception as exc:  # the passage is reported, the others go on
            remaining = [d for d in todo if d.id not in done]
            if not remaining:
                return  # every passage has its rewrite: the failure is no passage's
            failed, todo = remaining[0], remaining[1:]
            yield PassageProblem(failed.id, ERASE, reason_of(exc), exc)


def fallback_problems(rewrites: Iterable[Rewrite]) -> list[PassageProblem]:
    """One problem per part of a passage that its eraser did by a fallback, with why."""
    return [PassageProblem(r.doc_id, FALLBACK, reason) for r in rewrites for reason in r.fallbacks]


# ------------------------------------------------------------------------ verify and score


@dataclass(frozen=True)
class Finished:
    rewrites: list[Rewrite]  # in the request's order
    evaluation: SetEvaluation | None  # None without an evaluate step, or when no passage could be graded
    triples: list[Triple] | None  # verify's re-extraction (None without verify)
    problems: list[PassageProblem]


def finish(
    request: EraseRequest,
    rewrites: Sequence[Rewrite],
    verify: Verify | None,
    evaluate: Evaluate | None,
) -> Finished:
    """Verify-and-repair (when given) and grading of a complete set of rewrites; a passage that
    makes either step fail is reported and left out of that step only."""
    rewrites = list(rewrites)
    problems: list[PassageProblem] = []
    triples: list[Triple] | None = None
    if verify is not None:
        rewrites, triples, failed = _verify_each_way(request, rewrites, verify)
        problems += failed
    evaluation = None
    if evaluate is not None:
        evaluation, failed = _evaluate_each_way(request, rewrites, triples, evaluate)
        problems += failed
    return Finished(rewrites, evaluation, triples, problems)


def _restricted(request: EraseRequest, doc_ids: Collection[str]) -> EraseRequest:
    return replace(
        request,
        documents=tuple(d for d in request.documents if d.id in doc_ids),
        triples=tuple(t for t in request.triples if t.doc_id in doc_ids),
    )


def _failing_alone(
    ids: Sequence[str], attempt: Callable[[set[str]], Any], stage: str
) -> list[PassageProblem]:
    """The passages that make `attempt` fail on their own."""
    failed = []
    for doc_id in ids:
        try:
            attempt({doc_id})
        except Exception as exc:  # what fails is reported, not raised
            failed.append(PassageProblem(doc_id, stage, reason_of(exc), exc))
    return failed


def _verify_each_way(
    request: EraseRequest, rewrites: list[Rewrite], verify: Verify
) -> tuple[list[Rewrite], list[Triple] | None, list[PassageProblem]]:
    try:
        repaired, triples = verify(request, rewrites)
        return list(repaired), list(triples), []
    except Exception:  # find the passage at fault below
        pass
    by_id = {r.doc_id: r for r in rewrites}

    def attempt(ids: set[str]) -> tuple[list[Rewrite], list[Triple]]:
        return verify(_restricted(request, ids), [by_id[i] for i in by_id if i in ids])

    failed = _failing_alone([r.doc_id for r in rewrites if r.text.strip()], attempt, VERIFY)
    rest = set(by_id) - {p.doc_id for p in failed}
    try:
        repaired, triples = attempt(rest)
    except Exception as exc:  # the set as a whole: every passage keeps its rewrite
        return rewrites, None, failed + [PassageProblem(i, VERIFY, reason_of(exc)) for i in sorted(rest)]
    fixed = {r.doc_id: r for r in repaired}
    return [fixed.get(r.doc_id, r) for r in rewrites], list(triples), failed


def _evaluate_each_way(
    request: EraseRequest, rewrites: list[Rewrite], triples: list[Triple] | None, evaluate: Evaluate
) -> tuple[SetEvaluation | None, list[PassageProblem]]:
    try:
        return evaluate(request, rewrites, triples), []
    except Exception:  # find the passage at fault below
        pass

    def attempt(ids: set[str]) -> SetEvaluation:
        kept = None if triples is None else [t for t in triples if t.doc_id in ids]
        return evaluate(_restricted(request, ids), [r for r in rewrites if r.doc_id in ids], kept)

    failed = _failing_alone([r.doc_id for r in rewrites if r.text.strip()], attempt, SCORE)
    rest = {r.doc_id for r in rewrites} - {p.doc_id for p in failed}
    try:
        return attempt(rest), failed
    except Exception as exc:  # nothing could be graded
        return None, failed + [PassageProblem(i, SCORE, reason_of(exc)) for i in sorted(rest)]


# -------------------------------------------------------------------------------- the batch


@dataclass(frozen=True)
class SetResult:
    """One retrieval set erased: every passage's rewrite in order (a passage that could not be
    extracted or erased is carried through unchanged), the figures and what went wrong."""

    retrieval_set: RetrievalSet
    request: EraseRequest  # the passages that were extracted, their triples and the definition
    rewrites: tuple[Rewrite, ...]  # one per passage of the set, in order
    evaluation: SetEvaluation | None
    problems: tuple[PassageProblem, ...]


def erase_retrieval_set(
    retrieval_set: RetrievalSet,
    privacy: Privacy,
    eraser: Eraser,
    tools: Tools,
    verify: bool,
    triples: Sequence[Triple] | None = None,
) -> SetResult:
    """Extract (unless `triples` are given), define, erase, verify (when asked) and grade one set."""
    problems: list[PassageProblem] = []
    if triples is None:
        extracted, problems = extract_set(retrieval_set, tools.extractor)
        triples = extracted
    request = build_request(retrieval_set, triples, privacy, {p.doc_id for p in problems})
    produced: dict[str, Rewrite] = {}
    erase_failed: list[PassageProblem] = []
    for item in rewrite_each(eraser, request):
        if isinstance(item, PassageProblem):
            erase_failed.append(item)
        else:
            produced[item.doc_id] = item
    by_id = {d.id: d for d in request.documents}
    for problem in erase_failed:
        produced[problem.doc_id] = unchanged(by_id[problem.doc_id], eraser.name)
    ordered = [produced[d.id] for d in request.documents]
    done = finish(request, ordered, tools.verify_with(eraser) if verify else None, tools.evaluate)
    finished = {r.doc_id: r for r in done.rewrites}
    everything = tuple(finished.get(d.id) or unchanged(d, eraser.name) for d in retrieval_set.documents)
    fell_back = fallback_problems(ordered)
    return SetResult(
        retrieval_set,
        request,
        everything,
        done.evaluation,
        tuple(problems + erase_failed + fell_back + done.problems),
    )
