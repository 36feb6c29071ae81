"""The project document model: the document and its parts (layers, keyframes, transforms,
values, colors, effects), frame specs, output names and formats, encoder options, footage
inputs, and the limits every input is held to."""
