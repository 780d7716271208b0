"""The per-program handlers: the syntax that the program table's flags cannot describe, one module per
family (``find``, archives, files, git, gh, network clients, packages and builds, infrastructure, shell
builtins, system settings, text tools), looked up by name in ``registry``."""
