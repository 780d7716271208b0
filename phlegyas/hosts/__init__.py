"""Agent hosts: one sub-package per host, each turning the host's events into calls and decisions into
the host's answers. Hosts do not import each other."""
