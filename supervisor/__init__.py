"""The supervisor process: it owns stdin/stdout, the project, the render queue and the workers."""

__version__ = "0.1.0"
