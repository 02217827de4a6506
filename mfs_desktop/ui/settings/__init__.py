"""The Settings dialog and its pages."""
