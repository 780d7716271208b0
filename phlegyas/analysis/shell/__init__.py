"""Shell command lines: parsing (tree-sitter-bash and a plain fast path), expansion of what will run,
each invocation's effects, and the per-subcommand report."""
