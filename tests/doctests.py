"""The examples in a module's docstrings, run as ``doctest.testmod(module)`` runs them.

``testmod`` makes a test of every docstring of the module, the many without an example too, and
each run of a test builds and resets a debugger whose reset checks every file ``linecache`` holds
(a ``stat`` each: some hundreds in a test process). Here only the tests with examples are run: the
same examples, in the same namespaces, checked and reported by the same runner; a wrong one fails
alike.
"""

from __future__ import annotations

import doctest
from types import ModuleType


def run_doctests(module: ModuleType) -> doctest.TestResults:
    """Run every example of ``module``'s docstrings; (failed, attempted) as ``testmod`` counts them."""
    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder(exclude_empty=False).find(module, module.__name__):
        if test.examples:
            runner.run(test)
    return doctest.TestResults(runner.failures, runner.tries)
