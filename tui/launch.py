"""The ``parlour`` command (and ``python -m tui``): :func:`tui.cli.run`, with the garbage collector paused meanwhile.

Importing the app makes hundreds of thousands of objects and almost no garbage, so the collections that would run
meanwhile find nothing. Collection is paused before anything is imported and goes on once the app is imported
(:func:`tui.terminal.driver.freeze_heap`, just before it runs), as soon as the arguments show that no app will start
(:func:`tui.cli.main`), or at the latest when the command is over.
"""

import gc


def run() -> None:
    gc.disable()
    try:
        from tui.cli import run as run_command

        run_command()
    finally:
        gc.enable()
