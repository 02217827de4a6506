"""The PySide6 interface: the only package that imports Qt."""
