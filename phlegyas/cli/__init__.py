"""The command-line entry points: ``phlegyas`` (``main``), its approvals subcommands and ``phlegyas-trust``.

They parse arguments, call the layers below and render; nothing here decides.
"""
