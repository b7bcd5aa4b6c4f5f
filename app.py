"""Start the studio: `python app.py [--host 127.0.0.1] [--port 7860] [--db PATH] ...`.

Every setting is a flag (`python app.py --help`) and an environment variable `RPS_<NAME>`.
"""

from __future__ import annotations

import argparse
import os

# Before gradio is imported: no analytics, so no network lookups at launch.
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"


def main(argv: list[str] | None = None) -> None:
    from core.settings import add_arguments, from_args

    parser = argparse.ArgumentParser(description="RAG Privacy Studio")
    add_arguments(parser)
    settings = from_args(parser.parse_args(argv))

    from ui.app import build_app, launch_kwargs

    build_app(settings).launch(**launch_kwargs(settings))


if __name__ == "__main__":
    main()
