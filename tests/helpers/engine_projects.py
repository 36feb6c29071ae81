"""Small projects for engine tests, built through the engine's own commands."""

from supervisor.engine.engine import Engine


def engine_with_comp(width=640, height=360, **settings) -> Engine:
    engine = Engine()
    engine.run("comp.new", {"name": "Main", "width": width, "height": height, **settings})
    return engine


def engine_with_layers() -> Engine:
    """Main (640x360, 30 fps, 10 s) with, from the top: Title (text), Box (rect shape),
    Red (solid, 100x50)."""
    engine = engine_with_comp()
    engine.run("layer.add", {"comp": "Main", "type": "solid", "name": "Red", "color": "#ff0000",
                             "width": 100, "height": 50})
    engine.run("layer.add", {"comp": "Main", "type": "shape", "name": "Box", "shape": "rect",
                             "size": [80, 40], "fill": [0, 0, 1]})
    engine.run("layer.add", {"comp": "Main", "type": "text", "name": "Title", "text": "Hello"})
    return engine
