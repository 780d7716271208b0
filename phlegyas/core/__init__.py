"""The core: the gate's vocabulary (``model``, ``analysis``), the engine (``engine.Gate``) and the checkers
that are views over an analysis. No I/O, no environment, and no import of any other phlegyas layer."""
