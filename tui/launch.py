"""The ``parlour`` command (and ``python -m tui``): :func:`tui.cli.run`, with the garbage collector paused meanwhile.

Importing the app makes hundreds of thousands of objects and almost no garbage, so the collections that would run
meanwhile find nothing: they were a twentieth of the time to the first frame. Collection is paused before anything
is imported and goes on once the app is imported (:func:`tui.driver.freeze_heap`, just before it runs), as soon as
the arguments show that no app will start (:func:`tui.cli.main`), or at the latest when the command is over.

Before anything else, the code Python generates for dataclasses and named tuples is taken from its cache
(:mod:`tui.code_cache`) rather than compiled again.
"""

import gc


def run() -> None:
    gc.disable()
    try:
        from tui.code_cache import install

        install()  # before anything that makes dataclasses is imported
        from tui.cli import run as run_command

        run_command()
    finally:
        gc.enable()
