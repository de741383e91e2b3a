"""The one error the catalogue's tools share (a module of its own so that every module imports it)."""


class CatalogueError(Exception):
    """The catalogue is malformed, or a row does not apply to its file."""
