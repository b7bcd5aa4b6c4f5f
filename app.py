"""Start the studio: `python app.py [--host 127.0.0.1] [--port 7860] [--db PATH] [--auth true] ...`.

Every setting is a flag (`python app.py --help`) and an environment variable `RPS_<NAME>`.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

# Before gradio is imported: no analytics, so no network lookups at launch.
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"


def main(argv: list[str] | None = None) -> int:
    # app.py sets GRADIO_ANALYTICS_ENABLED before anything imports gradio
    from core.settings import add_arguments, from_args

    parser = argparse.ArgumentParser(description="RAG Privacy Studio")
    add_arguments(parser)
    try:
        settings = from_args(parser.parse_args(argv))
    except ValueError as exc:
        parser.error(str(exc))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for chatty in ("httpx", "alembic"):  # gradio's start-up requests; migrations log their own line
        logging.getLogger(chatty).setLevel(logging.WARNING)

    # gradio (~5 s) loads after the flags are parsed, so --help and bad flags answer at once
    from ui.app import build_app, launch_kwargs

    try:
        demo = build_app(settings)
        kwargs = launch_kwargs(settings, demo.studio_context.repository)
    except (RuntimeError, ValueError, OSError) as exc:  # a database or settings problem, explained
        print(f"error: {exc}", file=sys.stderr)
        return 2
    demo.launch(**kwargs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
