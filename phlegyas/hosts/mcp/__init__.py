"""The MCP permission server: ``--permission-prompt-tool`` and an approvals API, over stdio."""
