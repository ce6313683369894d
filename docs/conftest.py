"""pytest's collection of the docs folder (its pages' examples run as doctests).

``anchors.py`` is a Sphinx extension, which needs Sphinx installed: the README's test
command runs without it, so the module is not collected there; ``tests/test_docs_links.py``
tests it where Sphinx is installed (``.ci/run`` runs it with the documentation's tools).
"""

collect_ignore = ["anchors.py"]
