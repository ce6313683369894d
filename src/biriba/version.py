"""The library's version, one place for it: ``biriba.__version__``, ``biriba --version``
and the package's metadata (``pyproject.toml`` reads it from here)."""

__all__ = ["__version__"]

#: The version of this release.
__version__ = "0.1.0"
