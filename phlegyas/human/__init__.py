"""Escalation to a person: the approvals queue a call waits in until someone answers it."""
