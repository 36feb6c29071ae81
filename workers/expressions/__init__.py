"""Expressions: After Effects' expression language on a document's properties, evaluated in
the worker that draws (never in the supervisor).

- sandbox.py: the QuickJS context, its bounds, and api.js (the API, in JavaScript);
- document_expressions.py: a document's expressions bound to the sandbox, and the copy of the
  document whose driven properties the compositor reads;
- lottie_bake.py: a Lottie file's expressions evaluated into keys.

Below the compositor, which binds a document's expressions when it compiles a render plan.
"""
