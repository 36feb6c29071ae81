"""The resources a session serves: four fixed ones (the guide, the document, the command
catalog, the inline player) and two templates that follow the work, a render queue item's render state and one
layer, with completions for their names.

    rendervisor://guide                    markdown: how to build, check and render
    rendervisor://document                 JSON: the project (as doc_inspect)
    rendervisor://commands                 JSON: the command catalog (as command_list)
    ui://rendervisor/player                HTML: the inline player, an MCP App (player_app.py)
    rendervisor://renders/{item}           JSON: a queue item, its status and progress
    rendervisor://layers/{comp}/{layer}    JSON: one layer (as layer.get)

`read` is the one place a URI becomes content; resources/read and the subscriptions
(subscriptions.py: what changed is what reads differently) both call it. A template's names
are percent-encoded in the URI (a comp may be called "Intro / Act 1").
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote, unquote

from protocol.model.numbers import written_index
from supervisor.engine.commands.lookup import find_comp, find_item
from supervisor.engine.commands.overview import item_summary
from supervisor.errors import CommandError
from supervisor.mcp import guide
from supervisor.mcp.player_app import PLAYER_MIME, PLAYER_URI, player_html
from supervisor.mcp.tools import engine_tools

JSON = "application/json"


class UnknownResource(Exception):
    """A URI that names no resource; the message says what the resources are."""


def _document(session) -> dict:
    return engine_tools.document_resource(session)


def _commands(session) -> dict:
    return engine_tools.commands_resource(session)


FIXED = {
    guide.GUIDE_URI: ("guide", "How to build, check and render with rendervisor (read first)",
                      "text/markdown", lambda session: guide.GUIDE),
    "rendervisor://document": ("document", "The project document (same as doc_inspect)",
                               JSON, _document),
    "rendervisor://commands": ("commands", "The engine command catalog (same as command_list)",
                               JSON, _commands),
    PLAYER_URI: ("player", "The inline player for filmstrips and renders (an MCP App)",
                 PLAYER_MIME, lambda session: player_html()),
}


def _render_state(session, item: str) -> dict:
    engine = session.engine
    with engine.lock:
        return item_summary(engine, find_item(engine.doc, _ref(item)))


def _layer(session, comp: str, layer: str) -> dict:
    return session.engine.run("layer.get", {"comp": _ref(comp), "layer": _ref(layer)})


# name -> (URI template, title, description, reader(session, *names))
TEMPLATES = {
    "render": ("rendervisor://renders/{item}", "A render queue item's render state",
               "status (queued, rendering, done, failed, stopped), progress 0..1, output and "
               "settings of a queue item, by id, name or 1-based index", _render_state),
    "layer": ("rendervisor://layers/{comp}/{layer}", "A layer",
              "one layer of a comp (as layer.get), by comp id or name and layer id, name or "
              "1-based index", _layer),
}


def _pattern(template: str) -> re.Pattern:
    return re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$")


_PATTERNS = {name: _pattern(entry[0]) for name, entry in TEMPLATES.items()}


def _ref(name: str) -> Any:
    """A name from a URI: an index when it is all digits, as tools take them."""
    index = written_index(name)
    return name if index is None else index


def read(session, uri: Any) -> tuple[str, str]:
    """(MIME type, text) of the resource `uri`; UnknownResource when it names none."""
    if isinstance(uri, str) and uri in FIXED:
        _, _, mime, reader = FIXED[uri]
        value = reader(session)
        return mime, value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    for name, pattern in _PATTERNS.items():
        match = pattern.match(uri) if isinstance(uri, str) else None
        if match:
            names = [unquote(value) for value in match.groups()]
            try:
                value = TEMPLATES[name][3](session, *names)
            except CommandError as exc:
                raise UnknownResource(f"Resource not found: {uri!r}: {exc}") from None
            return JSON, json.dumps(value, ensure_ascii=False)
    raise UnknownResource(
        f"Resource not found: {uri!r}; the resources are {', '.join(FIXED)}, and the "
        f"templates {', '.join(entry[0] for entry in TEMPLATES.values())}.")


def listing() -> list[dict]:
    return [{"uri": uri, "name": name, "title": title, "mimeType": mime}
            for uri, (name, title, mime, _) in FIXED.items()]


def templates_listing() -> list[dict]:
    return [{"uriTemplate": template, "name": name, "title": title, "description": text,
             "mimeType": JSON} for name, (template, title, text, _) in TEMPLATES.items()]


# -- completion/complete --------------------------------------------------------------------

MAX_COMPLETIONS = 100  # the spec's cap on one answer's values


def complete_template(session, template: str, argument: str, value: str,
                      context: dict) -> list[str]:
    """Names for one argument of a template: comps, a comp's layers, queue items."""
    with session.engine.lock:
        doc = session.engine.doc
        if template == TEMPLATES["render"][0] and argument == "item":
            names = [item["id"] for item in doc["renderQueue"]]
        elif template == TEMPLATES["layer"][0] and argument == "comp":
            names = [comp["name"] for comp in doc["comps"]]
        elif template == TEMPLATES["layer"][0] and argument == "layer":
            try:
                comp = find_comp(doc, _ref(unquote(str(context.get("comp", "")))))
            except CommandError:
                return []
            names = [layer["name"] for layer in comp["layers"]]
        else:
            return []
    return starting_with(names, value)


def starting_with(names: list[str], value: str) -> list[str]:
    """Distinct names beginning with `value` (case-insensitive), in their order."""
    lowered = value.lower()
    return list(dict.fromkeys(name for name in names if name.lower().startswith(lowered)))


def uri_of(template: str, **names: str) -> str:
    """A template's URI for these names (percent-encoded)."""
    return template.format(**{key: quote(str(value), safe="") for key, value in names.items()})
