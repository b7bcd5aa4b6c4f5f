"""Batch commands: the studio's methods without the UI.

    python -m core.cli extract FILE... [--sample] [--save NAME] [--skip-bad]
    python -m core.cli split NAME [--ratio 0.25] [--seed 0] [--method connected|uniform] [--whole-corpus]
    python -m core.cli risk NAME [--whole-corpus]
    python -m core.cli list | export NAME --out FILE | import FILE [--name NAME]
    python -m core.cli erase IN.jsonl --out OUT.jsonl --eraser graph-guided [--verify]
                       --ratio 0.25 --seed 0 [--eval-extractor NAME] [--answer] [--ray [ADDRESS]]
    python -m core.cli annotate tasks|candidates|status|export|import ...   (see core/cli_annotate.py)
    python -m core.cli train sft|rl ...
    python -m core.cli users add NAME | users passwd NAME | users list   (password: prompt or stdin)
    python -m core.cli share NAME [--with USER ...] [--public | --private] [--owner USER]
    python -m core.cli sessions prune [--days 30]   (autosaved browser sessions not used since)
    python -m core.cli indicators IN.json --out OUT.jsonl   (PII indicators, core/aback/pii.py)

As in Eraser4RAG, `split` and `risk` work per retrieval set: one graph, one simulated split and
one privacy definition per question record (its question and retrieved passages); `--whole-corpus`
treats all documents as one graph instead (the only choice for a corpus without questions).
`split` stores the definitions only, not the corpus again.

Every settings flag (`--db`, `--extractor`, ...) is accepted before the command name.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

from tqdm import tqdm

from core import settings as settings_module
from core.aback.pii import write_indicators_jsonl
from core.cli_annotate import add_commands as add_annotation_commands
from core.documents import BadRecords, InputError
from core.eraser4rag.erasers import ERASER_NAMES
from core.eraser4rag.erasers.batch import EraseOptions, erase_file, run_plain
from core.eraser4rag.erasers.pipeline import SPLIT_METHODS
from core.eraser4rag.erasers.ray_runner import ray_runner
from core.eraser4rag.graph import format_key
from core.eraser4rag.workspace import Workspace
from core.extract import available_extractors, get_extractor
from core.saving import OverwriteRefused
from core.settings import Settings


def _repository(settings: Settings):  # storage is imported lazily: `core` does not need it to import
    # core opens storage only in its command-line commands (docs/ARCHITECTURE.md)
    from storage.repository import Repository

    return Repository(settings.db)


def _progress_bar(description: str):
    bar = tqdm(desc=description, unit="doc")

    def update(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    return bar, update


def cmd_extract(args: argparse.Namespace, settings: Settings) -> int:
    if args.save and not args.overwrite:
        with _repository(settings) as repo:
            if repo.name_taken(args.save):
                raise OverwriteRefused(args.save.strip())  # before the extraction, not after it
    workspace = Workspace()
    if args.sample:
        workspace.load_sample()
    items = [(path.name, path.read_bytes()) for path in map(Path, args.files)]
    errors: list[InputError] = (
        workspace.add_files(items, settings.max_upload_bytes, skip_bad=args.skip_bad) if items else []
    )
    _print_input_errors(errors, args.skip_bad)
    if not workspace.corpus.documents:
        print("error: no documents loaded", file=sys.stderr)
        return 2
    bar, update = _progress_bar(f"extracting ({settings.extractor})")
    with bar:
        count = workspace.extract(get_extractor(settings.extractor, settings), progress=update)
    corpus = workspace.corpus
    empty = sum(1 for doc in corpus.documents if not doc.text.strip())
    note = f"; {empty} empty passage(s), not extracted" if empty else ""
    print(
        f"{len(corpus.documents)} documents, {len(corpus.queries)} queries, {count} triples, "
        f"{len(workspace.graph.nodes())} entities{note}"
    )
    _print_graph_per_question(workspace)
    if args.save:
        with _repository(settings) as repo:
            workspace.save(repo, args.save, overwrite=args.overwrite)
        print(f"saved as {args.save!r} in {settings.db}")
    return 1 if errors else 0


def _print_input_errors(errors: list[InputError], skipped: bool) -> None:
    """Every bad record of every file on its own line (file, line, field), never a traceback."""
    for error in errors:
        if not isinstance(error, BadRecords):
            print(f"error: {error}", file=sys.stderr)
            continue
        for record_error in error.errors:
            print(f"error: {record_error}", file=sys.stderr)
        if skipped:
            print(
                f"{error.file}: loaded its {error.good_records} good record(s) of {error.total_records}",
                file=sys.stderr,
            )
        elif error.good_records:
            print(
                f"{error.file}: refused; rerun with --skip-bad to load its {error.good_records} good "
                f"record(s) of {error.total_records}",
                file=sys.stderr,
            )


def _print_graph_per_question(workspace: Workspace) -> None:
    """The paper's unit: one global graph per question's retrieved passages."""
    scopes = workspace.scopes()
    if not scopes:
        return
    sizes = []
    for query_id, _question in scopes:
        workspace.set_scope(query_id)
        sizes.append((len(workspace.graph.nodes()), len(workspace.all_keys())))
    workspace.set_scope(None)
    mean_nodes = sum(n for n, _ in sizes) / len(sizes)
    mean_keys = sum(k for _, k in sizes) / len(sizes)
    print(
        f"{len(scopes)} retrieval sets: one graph each, on average {mean_nodes:.1f} entities and "
        f"{mean_keys:.1f} distinct triples"
    )


def _load_workspace(name: str, settings: Settings) -> Workspace:
    workspace = Workspace()
    workspace.load(_repository(settings), name)
    return workspace


def _print_definition_and_risk(workspace: Workspace, show: int) -> None:
    definition = workspace.apply_filters()
    print(
        f"private {len(definition.private)}, public {len(definition.public)}, "
        f"excluded {len(definition.excluded)}, filter moves {len(definition.moves)}"
    )
    for move in workspace.moves(limit=show):
        print(f"  moved {format_key(move.key)}: {move.reason()}")
    risks = workspace.risks()
    print(f"inference risks (Eq. 2): {len(risks)}")
    for risk in risks[:show]:
        path = " / ".join(format_key(key) for key in risk.path)
        print(f"  {format_key(risk.key)} in {risk.doc_id}: via {path}")
    value = workspace.r_connect_after_erasure()
    print(f"r_connect after erasing private triples: {'n/a' if value is None else f'{value:.3f}'}")


def _per_question(args: argparse.Namespace, workspace: Workspace) -> bool:
    return not args.whole_corpus and bool(workspace.scopes())


def cmd_split(args: argparse.Namespace, settings: Settings) -> int:
    repo = _repository(settings)
    workspace = Workspace()
    workspace.load(repo, args.name)
    ratio = settings.private_ratio if args.split_ratio is None else args.split_ratio
    seed = settings.seed if args.split_seed is None else args.split_seed
    method = args.split_method_cmd or settings.split_method
    how = {"ratio": ratio, "seed": seed, "method": method}
    if _per_question(args, workspace):
        bar, update = _progress_bar("splitting per question")
        bar.unit = "question"
        with bar:
            definitions = workspace.split_each_question(ratio, seed, method, progress=update)
        _print_per_question(workspace, definitions, args.show)
    else:
        workspace.set_scope(None)
        workspace.random_split(ratio, seed, method)
        _print_definition_and_risk(workspace, args.show)
    stored = workspace.save_definitions(repo, how)
    print(
        f"stored {stored} privacy definition(s) ({method} split, ratio {ratio}, seed {seed}) in {settings.db}"
    )
    return 0


def _print_per_question(workspace: Workspace, definitions: dict, show: int) -> None:
    """Totals over the questions' definitions and risks, and the first `show` questions."""
    totals = {"private": 0, "public": 0, "excluded": 0, "risks": 0}
    connects: list[float] = []
    lines = []
    for query_id, definition in definitions.items():
        workspace.set_scope(query_id)
        risks = workspace.risks()
        totals["private"] += len(definition.private)
        totals["public"] += len(definition.public)
        totals["excluded"] += len(definition.excluded)
        totals["risks"] += len(risks)
        value = workspace.r_connect_after_erasure()
        if value is not None:
            connects.append(value)
        if len(lines) < show:
            question = workspace.retrieval_set().query.text  # type: ignore[union-attr]
            lines.append(
                f"  {query_id}: private {len(definition.private)}, public {len(definition.public)}, "
                f"excluded {len(definition.excluded)}, risks {len(risks)}  ({question})"
            )
    workspace.set_scope(None)
    print(
        f"{len(definitions)} question(s) with a definition: private {totals['private']}, "
        f"public {totals['public']}, excluded {totals['excluded']}, "
        f"inference risks (Eq. 2) {totals['risks']}"
    )
    if connects:
        mean = sum(connects) / len(connects)
        print(f"r_connect after erasing private triples, mean over questions: {mean:.3f}")
    for line in lines:
        print(line)


def cmd_risk(args: argparse.Namespace, settings: Settings) -> int:
    workspace = _load_workspace(args.name, settings)
    if _per_question(args, workspace):
        workspace.set_scope(None)
        definitions = {
            query_id: definition
            for query_id, definition in (
                (q, _definition_in_scope(workspace, q)) for q, _ in workspace.scopes()
            )
            if definition is not None
        }
        if definitions:
            _print_per_question(workspace, definitions, args.show)
            return 0
    else:
        workspace.set_scope(None)
        if workspace.marked_private:
            _print_definition_and_risk(workspace, args.show)
            return 0
    print(f"error: {args.name!r} has no privacy definition; run `split` first", file=sys.stderr)
    return 2


def _definition_in_scope(workspace: Workspace, query_id: str):
    workspace.set_scope(query_id)
    definition = workspace.definition
    workspace.set_scope(None)
    return definition


def cmd_list(args: argparse.Namespace, settings: Settings) -> int:
    for summary in _repository(settings).list_corpora():
        print(
            f"{summary.name}\t{summary.documents} docs\t{summary.triples} triples\t"
            f"{summary.definitions} definitions\t{summary.created_at:%Y-%m-%d %H:%M}\t"
            f"owner {summary.owner}\t{summary.visibility}"
        )
    return 0


def _read_password(prompt: str) -> str:
    """From the terminal (typed twice, not echoed), or the first line of stdin when piped."""
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    password = getpass.getpass(prompt)
    if getpass.getpass("Repeat it: ") != password:
        raise ValueError("the two passwords differ")
    return password


def cmd_users(args: argparse.Namespace, settings: Settings) -> int:
    repo = _repository(settings)
    if args.action == "list":
        for name in repo.list_users():
            print(name)
        return 0
    if not args.name:
        raise ValueError(f"`users {args.action}` needs a user name")
    password = _read_password(f"Password for {args.name}: ")
    if args.action == "add":
        repo.add_user(args.name, password)
        print(f"added user {args.name!r}; start the studio with --auth true to require sign-in")
    else:
        repo.set_password(args.name, password)
        print(f"changed the password of {args.name!r}")
    return 0


def cmd_share(args: argparse.Namespace, settings: Settings) -> int:
    sharing = _repository(settings).set_sharing(
        args.name, users=args.users, public=args.public, owner=args.owner
    )
    print(f"{args.name}: {sharing.describe()}")
    return 0


def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    Path(args.out).write_text(_repository(settings).export_json(args.name), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


def cmd_import(args: argparse.Namespace, settings: Settings) -> int:
    text = Path(args.file).read_text(encoding="utf-8")
    name = _repository(settings).import_json(text, name=args.name)
    print(f"imported as {name!r}")
    return 0


def cmd_erase(args: argparse.Namespace, settings: Settings) -> int:
    if args.eraser not in ERASER_NAMES:
        print(f"error: --eraser must be one of {', '.join(ERASER_NAMES)}", file=sys.stderr)
        return 2
    in_path, out_path = Path(args.input), Path(args.out)
    if not in_path.is_file():
        print(f"error: {in_path}: no such file", file=sys.stderr)
        return 2
    options = EraseOptions(
        eraser=args.eraser,
        verify=args.verify,
        ratio=settings.private_ratio if args.erase_ratio is None else args.erase_ratio,
        seed=settings.seed if args.erase_seed is None else args.erase_seed,
        eval_extractor=args.erase_eval_extractor or "",
        answer=args.answer,
        settings=settings,
    )
    runner = run_plain
    if args.ray is not None:
        runner = ray_runner(args.ray or None)
    bar, update = _progress_bar(f"erasing ({args.eraser}{' + verify' if args.verify else ''})")
    bar.unit = "record"
    with bar:
        metrics, errors = erase_file(in_path, out_path, options, runner=runner, progress=update)
    for error in errors:
        print(f"error: {error} (record skipped)", file=sys.stderr)
    print(_erase_summary(metrics))
    return 1 if errors else 0


def _erase_summary(metrics: dict) -> str:
    def fmt(value: object) -> str:
        return "n/a" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)

    lines = [
        f"{metrics['sets']} records, {metrics['documents']} passages ({metrics['empty_passages']} empty, "
        f"carried through), {fmt(metrics['docs_per_s'])} passages/s"
    ]
    blocks = (("all", metrics), ("D_special", metrics["D_special"]), ("D_infer", metrics["D_infer"]))
    for name, block in blocks:
        lines.append(
            f"{name}: r_pri {fmt(block['r_pri'])}, r_pub {fmt(block['r_pub'])}, "
            f"r_connect {fmt(block['r_connect'])}, leak check {fmt(block['leak_check'])} "
            f"({block['documents']} passages)"
        )
    strings = metrics.get("strings") or {}
    if strings:
        lines.append(
            f"graded by strings: strict leak {fmt(strings.get('strict_leak'))}, partial leak "
            f"{fmt(strings.get('partial_leak'))}, public kept {fmt(strings.get('public_kept_strings'))}, "
            f"characters kept {fmt(strings.get('characters_kept'))}; broken "
            f"{strings.get('broken_passages', 0)} of {strings.get('changed_passages', 0)} changed passages "
            f"({fmt(strings.get('broken_share'))})"
        )
    if "accuracy_original" in metrics:
        lines.append(
            f"accuracy: original {fmt(metrics['accuracy_original'])}, rewritten "
            f"{fmt(metrics['accuracy_rewritten'])} ({metrics['answered']} answered records)"
        )
    lines.extend(_problem_lines(metrics.get("passage_problems", [])))
    return "\n".join(lines)


MAX_PROBLEMS_SHOWN = 20


def _problem_lines(problems: list[dict]) -> list[str]:
    """The passages the run carried through because a step failed on them (all are in the metrics)."""
    if not problems:
        return []
    lines = [f"{len(problems)} passage problem(s), each passage carried through and the run went on:"]
    for problem in problems[:MAX_PROBLEMS_SHOWN]:
        passage = problem["passage_id"] or problem["doc_id"]
        where = "the question" if problem["ctx"] is None else f"ctxs[{problem['ctx']}] (passage {passage})"
        lines.append(
            f"  {problem['where']} ({problem['question']!r}), {where}: "
            f"{problem['stage']} failed: {problem['reason']}"
        )
    if len(problems) > MAX_PROBLEMS_SHOWN:
        more = len(problems) - MAX_PROBLEMS_SHOWN
        lines.append(f"  … and {more} more in the metrics JSON (passage_problems)")
    return lines


def cmd_sessions(args: argparse.Namespace, settings: Settings) -> int:
    if args.days < 0:
        raise ValueError("--days must be 0 or more")
    removed = _repository(settings).prune_sessions(timedelta(days=args.days))
    print(f"removed {removed} autosaved session(s) unused for {args.days} day(s)")
    return 0


def cmd_indicators(args: argparse.Namespace, settings: Settings) -> int:
    count = write_indicators_jsonl(args.input, args.out, settings)
    print(f"wrote {count} records to {args.out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m core.cli", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    settings_module.add_arguments(parser)
    commands = parser.add_subparsers(dest="command", required=True)

    extract = commands.add_parser("extract", help="load files, extract triples, optionally save")
    extract.add_argument("files", nargs="*", help=".txt .md .pdf .json .jsonl")
    extract.add_argument("--sample", action="store_true", help="include the sample corpus")
    extract.add_argument("--save", metavar="NAME", help="save corpus and triples under NAME")
    extract.add_argument(
        "--overwrite",
        action="store_true",
        help="with --save: replace a saved workspace of that name (without it, an existing name is refused)",
    )
    extract.add_argument(
        "--skip-bad",
        action="store_true",
        help="load the good records of a file with bad records (each bad one is listed)",
    )
    extract.set_defaults(run=cmd_extract)

    split = commands.add_parser("split", help="simulated privacy split + filters, one per question")
    split.add_argument("name")
    split.add_argument("--ratio", type=float, dest="split_ratio", help="default: --private-ratio")
    split.add_argument("--seed", type=int, dest="split_seed", help="default: the global --seed")
    split.add_argument(
        "--method",
        choices=SPLIT_METHODS,
        dest="split_method_cmd",
        help="default: --split-method (connected: the paper's connected subset)",
    )
    split.add_argument("--whole-corpus", action="store_true", help="one graph over all documents")
    split.add_argument("--show", type=int, default=10, help="moves/risks (or questions) to print")
    split.set_defaults(run=cmd_split)

    risk = commands.add_parser("risk", help="cross-document inference risk of a saved definition")
    risk.add_argument("name")
    risk.add_argument("--show", type=int, default=10)
    risk.add_argument("--whole-corpus", action="store_true", help="the whole-corpus definition")
    risk.set_defaults(run=cmd_risk)

    commands.add_parser("list", help="saved corpora").set_defaults(run=cmd_list)
    export = commands.add_parser("export", help="export a saved corpus with its definitions as JSON")
    export.add_argument("name")
    export.add_argument("--out", required=True)
    export.set_defaults(run=cmd_export)
    imported = commands.add_parser("import", help="import a JSON bundle")
    imported.add_argument("file")
    imported.add_argument("--name")
    imported.set_defaults(run=cmd_import)

    erase = commands.add_parser("erase", help="rewrite retrieval records without their private triples")
    erase.add_argument("input", metavar="IN.jsonl", help="retriever records: question, answers, ctxs")
    erase.add_argument("--out", required=True, metavar="OUT.jsonl", help="rewritten records (resumed)")
    erase.add_argument(
        "--eraser",
        default="graph-guided",
        help="graph-guided, mask, llm-each, llm-all, abstraction or eraser4rag",
    )
    erase.add_argument("--verify", action="store_true", help="verify and repair every rewrite")
    erase.add_argument("--ratio", type=float, dest="erase_ratio", help="private share (--private-ratio)")
    erase.add_argument("--seed", type=int, dest="erase_seed", help="split seed (default: the global --seed)")
    erase.add_argument(
        "--eval-extractor",
        dest="erase_eval_extractor",
        metavar="NAME",
        help="extractor that grades rewrites (default: --eval-extractor or --extractor)",
    )
    erase.add_argument("--answer", action="store_true", help="downstream accuracy, original vs rewritten")
    erase.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run records on Ray (local without ADDRESS)",
    )
    erase.set_defaults(run=cmd_erase)

    add_annotation_commands(commands)
    users = commands.add_parser("users", help="users who can sign in (passwords stored as bcrypt hashes)")
    users.add_argument("action", choices=("add", "passwd", "list"))
    users.add_argument("name", nargs="?")
    users.set_defaults(run=cmd_users)
    share = commands.add_parser("share", help="who may see a saved workspace besides its owner")
    share.add_argument("name")
    share.add_argument("--with", dest="users", nargs="*", metavar="USER", help="replaces the share list")
    visibility = share.add_mutually_exclusive_group()
    visibility.add_argument("--public", dest="public", action="store_true", default=None)
    visibility.add_argument("--private", dest="public", action="store_false")
    share.add_argument("--owner", help="give the workspace to this user")
    share.set_defaults(run=cmd_share)
    sessions = commands.add_parser("sessions", help="autosaved browser sessions")
    sessions.add_argument("action", choices=("prune",))
    sessions.add_argument("--days", type=float, default=30.0, help="remove sessions unused this long")
    sessions.set_defaults(run=cmd_sessions)
    indicators = commands.add_parser("indicators", help="PII indicators of records (presidio-research JSON)")
    indicators.add_argument("input", metavar="IN.json", help='[{"full_text": ...}, ...]')
    indicators.add_argument("--out", required=True, metavar="OUT.jsonl", help="one line per record, in order")
    indicators.set_defaults(run=cmd_indicators)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    settings = settings_module.from_args(args)
    if settings.extractor not in available_extractors():
        parser.error(f"--extractor must be one of {', '.join(available_extractors())}")
    try:
        return args.run(args, settings)
    except (InputError, KeyError, ValueError, OSError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
