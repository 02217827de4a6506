"""Which model answers: the library on this machine, downloads, templates, endpoints."""
