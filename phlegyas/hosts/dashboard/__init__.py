"""The web dashboard: approvals, history and charts in the browser (``phlegyas dashboard``)."""
