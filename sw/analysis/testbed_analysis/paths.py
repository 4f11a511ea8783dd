"""Where the analysis finds the project's files: in the clone (this package is
sw/analysis/testbed_analysis) or in an install (PREFIX/share/testbed/python/testbed_analysis,
cmake/install.cmake), where the machine files are share/testbed/configs and the documents
share/doc/testbed."""
import os

PACKAGE = os.path.dirname(os.path.abspath(__file__))
_TREE = os.path.dirname(os.path.dirname(os.path.dirname(PACKAGE)))      # the clone's root
_SHARE = os.path.dirname(os.path.dirname(PACKAGE))                       # PREFIX/share/testbed
INSTALLED = not os.path.isdir(os.path.join(_TREE, "sim", "configs")) and \
    os.path.isdir(os.path.join(_SHARE, "configs"))


def config(name):
    """A machine file of sim/configs (boards-N.toml, ...)."""
    return os.path.join(_SHARE, "configs", name) if INSTALLED else os.path.join(_TREE, "sim", "configs", name)


def results_doc(name):
    """A page of docs/results (section3.md, ...): what an experiment reads of an earlier run."""
    if INSTALLED:
        return os.path.join(os.path.dirname(_SHARE), "doc", "testbed", "docs", "results", name)
    return os.path.join(_TREE, "docs", "results", name)
