"""The hook process every agent host runs for a tool call, and its resident decision server.

``client`` is the thin process a host starts (``phlegyas-hook [--agent NAME]``); ``server`` decides for it;
``decide`` turns one event into a decision and back into the host's answer, through the host's dialect
(``dialects``). Nothing here imports a host's own package (its install and doctor modules import this).
"""
