"""Builders for the JSON schemas the tools declare, inputs and outputs alike, so a schema reads as
the shape it describes.

Every schema built here is JSON Schema 2020-12 that ajv's strict mode compiles: each keyword sits
beside the type it applies to, and a value of several types is `any_of` branches, never a type
array (which strict mode, and the MCP Inspector's --strict, refuse). Output schemas leave objects
open (a result may gain a key without breaking a client that validates it); input schemas are
closed by the registry (additionalProperties: false).
"""

from __future__ import annotations

STRING = {"type": "string"}
INTEGER = {"type": "integer"}
NUMBER = {"type": "number"}
BOOLEAN = {"type": "boolean"}
NULL = {"type": "null"}
ANY_OBJECT = {"type": "object"}


def record(properties: dict, required: tuple | list = (), description: str | None = None) -> dict:
    """An object with these properties, `required` of them always present."""
    schema: dict = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    if description:
        schema["description"] = description
    return schema


def array(items: dict, description: str | None = None) -> dict:
    schema: dict = {"type": "array", "items": items}
    if description:
        schema["description"] = description
    return schema


def any_of(*schemas: dict, description: str | None = None) -> dict:
    schema: dict = {"anyOf": list(schemas)}
    if description:
        schema["description"] = description
    return schema


def nullable(schema: dict) -> dict:
    """The schema, or null."""
    return any_of(schema, NULL)


def described(schema: dict, description: str) -> dict:
    return {**schema, "description": description}


# A comp, layer or queue item as a tool argument: its id or name, or (layers, items) its index.
NAME_OR_INDEX = any_of(STRING, INTEGER)
