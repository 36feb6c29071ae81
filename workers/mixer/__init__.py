"""The mixer: a comp's sound as float samples, from its audio, video and precomp layers
(comp_sound.py), read from footage by sound_reader.py, with the arithmetic of levels, timing
and measures in mixing.py. Runs inside workers; it knows nothing of the compositor (which
draws) or the exporter (which encodes what the mixer returns).
"""
