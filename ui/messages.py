"""The one place that turns text into what the user reads: status lines and toasts.

Messages are plain text built by handlers, often from user strings (titles, entities,
workspace names). Gradio renders a toast's message as (sanitised) HTML, and a
`gr.Markdown` status line as Markdown and HTML, so an `<img src=...>` or `![x](/x.png)`
in a title would make the browser fetch a URL. Every message therefore goes through
this module: the status line is a `gr.HTML` whose value is `status_html(text)`, and every
toast is raised or shown with `error`, `warning` or `info`, which escape the text.
Escaped text is inert HTML, and `gr.HTML` does not parse Markdown, so nothing a user
typed is ever rendered as markup.
"""

from __future__ import annotations

import html
from typing import Any

import gradio as gr

STATUS_CLASS = "rps-status"


def escape(text: object) -> str:
    """Text as inert HTML (content and quoted attributes)."""
    return html.escape(str(text), quote=True)


def quoted(value: object) -> str:
    """A user string inside a message: quoted and shortened, never interpreted."""
    text = " ".join(str(value).split())
    if len(text) > 80:
        text = text[:79] + "…"
    return f"“{text}”"


ANY_TAB = "*"  # the tab of a message that belongs to no one tab (the page load's)


def status_html(text: object, kind: str = "info", tab: str = "") -> str:
    """The status line's value (a `gr.HTML`): the escaped text in one span, line breaks kept.
    `tab` names the tab whose action wrote it (`ANY_TAB`: every tab's); without one it belongs to
    the tab shown when it arrives (`ui.context.TAB_MESSAGES_JS`)."""
    body = "<br>".join(escape(line) for line in str(text).splitlines())
    owner = f' data-tab="{escape(tab)}"' if tab else ""
    return f'<span class="{STATUS_CLASS} {STATUS_CLASS}-{escape(kind)}"{owner}>{body}</span>'


def error(text: object, title: str = "Error") -> gr.Error:
    """An error toast to raise; the text is escaped (Gradio renders toasts as HTML)."""
    return gr.Error(escape(text), title=escape(title), print_exception=False)


def warning(text: object, title: str = "Warning") -> None:
    gr.Warning(escape(text), title=escape(title))


def info(text: object, title: str = "Info") -> None:
    gr.Info(escape(text), title=escape(title))


def triple_count(ws: Any) -> str:
    """ "72 triple(s) (57 distinct)": occurrences, as documents state them, and the distinct facts the
    graph and its counts show, so the numbers of different screens add up."""
    distinct = len(ws.all_keys())
    occurrences = len(ws.triples)
    return f"{occurrences} triple(s)" + (f" ({distinct} distinct)" if distinct != occurrences else "")
